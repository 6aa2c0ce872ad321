"""Writes the day-4 recordings: the arXiv listing of Tue 13 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
day 3 and day 4; this file is the day's data. Run from tests/data/day4: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, day 2, day 3).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator both days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    ("2610.14688", 1, "new", ["cs.DC", "cs.NI"],
     "RailKV: Rail-Striped Layer-wise KV Cache Streaming for Disaggregated LLM Serving",
     "Layer-wise streaming of the KV cache from prefill to decode instances hides most of the transfer behind the prefill, but one NIC per GPU pair caps the stream on long prompts. "
     "RailKV stripes the KV blocks of each layer across all network rails of a node and reorders them at the receiver, so that decode starts as soon as a layer is complete on every rail. "
     "On 64K-token prompts, RailKV sustains 187 GB/s of KV transfer per node over four 400G rails and reduces p99 TTFT by 29% relative to single-rail layer-wise streaming.",
     ["Tobias Engel", "Ayumi Kato", "Ravi Shankar", "Maja Nilsson"]),
    ("2610.14731", 1, "new", ["cs.LG"],
     "NanoQAT: Quantization-Aware Fine-Tuning Recipes for MXFP4 Deployment in One GPU-Day",
     "Quantization-aware training recovers the accuracy that 4-bit floating-point formats lose, but published recipes cost hundreds of GPU-hours per model. "
     "NanoQAT fine-tunes only the block scales and a low-rank correction of each linear layer on a few million tokens, distilling from the full-precision model. "
     "A 70B model is ready for MXFP4 deployment after one GPU-day, within 0.5 points of BF16 accuracy, and decodes 1.45x faster than its FP8 version on B200 GPUs.",
     ["Clara Jensen", "Hiroshi Tanaka", "Bola Adebayo"]),
    ("2610.14952", 1, "new", ["cs.DC", "cs.LG"],
     "RepliMoE: Forecast-Driven Expert Replication for Multi-Node Mixture-of-Experts Decode",
     "Skewed expert popularity leaves some GPUs of an expert-parallel deployment saturated while others idle. "
     "RepliMoE forecasts the load of each expert for the next minute from its routing history and places extra replicas of the experts it expects to be hot before the load arrives, copying weights over idle links. "
     "On two open MoE models across eight nodes, RepliMoE raises decode throughput by 1.5x over static expert parallelism under skewed routing.",
     ["Wei Zhang", "Sofia Lindberg", "Kwame Mensah", "Yara Haddad"]),
    ("2610.15138", 1, "new", ["cs.CL", "cs.LG"],
     "LoomDraft: Draft-Model-Free Speculative Decoding by Retrieving Continuations from the Request's Own Context",
     "Agentic and coding workloads repeat long spans of their own context in their outputs. "
     "LoomDraft drafts without a draft model: it indexes the prompt and the generated tokens of each request in a suffix automaton and proposes the continuation of the longest matching suffix, which the target model verifies in one pass. "
     "On coding-agent traces, LoomDraft speeds up decoding by 2.4x at batch size 1, and the output distribution is unchanged.",
     ["Emily Carter", "Junho Lee", "Matteo Ricci"]),
    ("2610.15234", 1, "new", ["cs.LG", "cs.CL"],
     "GradeKV: Token-Importance-Graded KV Cache Precision for Long-Context Decode",
     "Not every cached token matters equally during decode. "
     "GradeKV stores the key and value of each token in FP8, INT4 or INT2 according to its accumulated attention score and re-grades tokens as the scores change. "
     "GradeKV reduces KV cache memory by 4.6x relative to FP16 with less than 0.5 points of loss on long-context benchmarks.",
     ["Anna Kowalczyk", "Tomasz Wrona", "Li Na"]),
    ("2610.15307", 1, "new", ["cs.DC"],
     "TenantFair: SLO-Aware Preemption with Partial KV Swapping for Multi-Tenant LLM Serving",
     "When the burst of one tenant fills the batch, LLM schedulers either queue the other tenants or preempt whole requests and recompute their KV cache. "
     "TenantFair preempts at the granularity of KV blocks: it swaps out only the blocks that a preempted request will not need for its next decode steps, and it chooses whom to preempt by each tenant's distance to its latency objective. "
     "On multi-tenant traces, TenantFair cuts the p99 TTFT of in-contract tenants by 3.1x relative to first-come-first-served scheduling with whole-request preemption.",
     ["Julia Becker", "Omar Farouk", "Chen Jing"]),
    ("2610.15426", 1, "new", ["cs.DC"],
     "PredRoute: Routing LLM Requests by Predicted Decode Work with Online Length Correction",
     "Load balancers for LLM fleets count outstanding requests, which ignores that the decode work of a request depends on its output length. "
     "PredRoute predicts the output length of each request at admission, routes on the predicted decode work of each replica, and corrects the prediction online as tokens are generated, migrating requests whose length was badly underestimated. "
     "Across 128 replicas, PredRoute reduces p99 TTFT by 24% relative to least-outstanding-requests routing.",
     ["Nils Hansen", "Priya Iyer", "Gabriel Moreau"]),
    ("2610.15719", 1, "new", ["cs.DC"],
     "FlipPD: Role-Flipping Instances for Prefill-Decode Disaggregation under Shifting Load",
     "Disaggregated serving fixes how many instances run prefill and how many run decode, while the prompt-to-output ratio of the traffic shifts within minutes. "
     "FlipPD lets an instance flip its role between prefill and decode within seconds, migrating its in-flight KV cache to a peer before the flip, and decides the flips from a short-horizon forecast of the load of both phases. "
     "On production traces, FlipPD improves goodput by 1.8x over a static prefill-decode split with the same number of GPUs.",
     ["Xu Ming", "Isabel Ortega", "Daniel Weiss", "Akira Fujita"]),
    ("2610.15813", 1, "new", ["cs.DC", "cs.OS"],
     "SpillWay: Attention-Guided KV Cache Prefetching from NVMe for Million-Token Serving",
     "At million-token contexts the KV cache of one request exceeds HBM and CPU memory together, and reading it back from NVMe stalls every decode step. "
     "SpillWay predicts from the attention scores of the previous step which KV blocks the next steps will read and prefetches them from NVMe into HBM over GPUDirect Storage, overlapping the reads with computation. "
     "On 1M-token contexts, SpillWay reduces TTFT by 36% relative to reactive tiered offloading.",
     ["Leon Fischer", "Ananya Das", "Hugo Martin"]),
    ("2610.15950", 1, "new", ["cs.CR", "cs.DC"],
     "EvictStorm: Evicting Co-Located Tenants' KV Cache with Long-Output Prompts",
     "Shared LLM servers evict or swap out KV cache when memory runs short. "
     "We show that an attacker can craft prompts whose outputs keep growing, filling KV memory and forcing the eviction of other tenants' cached prefixes and in-flight requests. "
     "Against three open-source serving engines, EvictStorm raises the p99 TTFT of the victims by 4.8x with 5% of the traffic; per-tenant KV quotas mitigate the attack.",
     ["Rachel Stein", "Mehmet Kaya", "Lucia Romano"]),
    # boundary decoys: new papers of a section that share only the section's own topic with its anchors
    ("2610.14806", 1, "new", ["cs.DC", "cs.PF"],
     "GraphPin: Shape-Bucketed CUDA Graph Capture for Dynamic-Batch LLM Inference Engines",
     "Inference engines replay CUDA graphs to cut kernel-launch overhead, but they capture one graph per batch size and fall back to eager execution for shapes they did not capture. "
     "GraphPin captures a small set of shape buckets chosen from the batch-size distribution of the traffic, pads each batch to the nearest bucket and recaptures in the background when the distribution drifts. "
     "GraphPin cuts CUDA graph memory by 70% and decode step latency by 11% relative to per-size capture.",
     ["Stefan Vogel", "Mina Park", "Arun Pillai"]),
    ("2610.15066", 1, "new", ["cs.DC", "cs.LG"],
     "SliceGEMM: Persistent Grouped GEMM Kernels for Fine-Grained Mixture-of-Experts on Hopper and Blackwell",
     "Fine-grained Mixture-of-Experts models route each token to many small experts, so the expert GEMMs of a decode step are hundreds of tiny matrix multiplications of uneven size. "
     "SliceGEMM runs them as one persistent grouped GEMM that slices every expert's work into equal tiles and balances the tiles across streaming multiprocessors, with FP8 and FP4 variants. "
     "On fine-grained open MoE models, SliceGEMM runs the expert layers 1.7x faster than the grouped GEMM of current serving engines.",
     ["Kenji Watanabe", "Laura Schulz", "Deepak Rao"]),
    ("2610.15577", 1, "new", ["cs.CL", "cs.LG"],
     "FormSpec: Grammar-Forced Speculation for Structured LLM Output",
     "Structured outputs such as JSON spend many decode steps on tokens that the output grammar already determines. "
     "FormSpec proposes every token sequence the grammar forces at the current parser state, plus a single guessed token at branching points, and verifies them in one forward pass of the target model. "
     "On JSON-schema and function-calling benchmarks, FormSpec speeds up decoding by 1.9x with identical outputs.",
     ["Olivia Brown", "Hamza Qureshi", "Yuna Sato"]),
    ("2610.16013", 1, "new", ["cs.CR", "cs.DC"],
     "VeilServe: Confidential LLM Serving on GPU Trusted Execution Environments",
     "Enterprises hesitate to send prompts to a cloud operator who can read GPU memory. "
     "VeilServe runs the serving engine inside a GPU trusted execution environment, encrypts every buffer that leaves the GPU and attests the model weights to the client before the first request. "
     "In the confidential-computing mode of H100 GPUs, VeilServe adds 6% to TTFT and 4% to the time per output token.",
     ["Sarah Goldberg", "Ivan Petrov", "Noura Al-Sayed"]),
    # anchored in the doc's §5 on the day it was listed: not NET-new
    ("2610.14590", 1, "new", ["cs.DC"],
     "SpanServe: Sequence-Parallel Prefill Placement for Million-Token Requests in Shared Clusters",
     "A million-token prompt needs its prefill split over many GPUs, and where the shards go decides both its own TTFT and the interference with other requests. "
     "SpanServe places the sequence-parallel shards of long prefills on GPUs chosen by ring bandwidth and current decode load, and resizes the ring between chunks. "
     "On 1M-token prompts in a shared 64-GPU cluster, SpanServe cuts TTFT by 41% relative to a fixed ring of eight GPUs.",
     ["Ethan Cole", "Mariko Hayashi", "Pedro Alves"]),
    # another known paper whose ID the queue gives to PredRoute (2610.15462 vs 2610.15426)
    ("2610.15462", 1, "new", ["physics.ao-ph", "cs.LG"],
     "SurgeFormer: Neural Operators for Coastal Storm Surge Forecasting",
     "Storm surge forecasts from hydrodynamic models take hours per ensemble member. "
     "SurgeFormer is a neural operator trained on an archive of simulated hurricanes that predicts water levels along the coast from the storm track. "
     "It matches the hydrodynamic model within 12 cm at a thousandth of the cost.",
     ["Grace Thompson", "Luis Herrera", "Keiko Abe"]),
    # keyword traps (not LLM inference systems)
    ("2610.14623", 1, "new", ["cs.AR", "cs.CR"],
     "Speculative Store Bypass Mitigations for Out-of-Order RISC-V Cores",
     "Speculative store bypass lets a load execute before an older store to the same address resolves, which leaks data through the cache. "
     "We add a store-address predictor with a security mode that blocks bypass across privilege domains. "
     "On an open RISC-V core the mitigation costs 2% of performance against 9% for serializing loads.",
     ["Hanna Koch", "Victor Lemaire"]),
    ("2610.15188", 1, "cross", ["cs.PF", "cs.DS"],
     "Cache-Oblivious Sparse Tensor Contraction on Multicore CPUs",
     "Sparse tensor contraction is bound by memory traffic whose locality depends on the cache sizes the code was tuned for. "
     "We give a cache-oblivious recursive contraction order and a parallel runtime for it. "
     "On standard sparse tensors it is within 10% of hand-tuned kernels on three CPU generations.",
     ["Mark Jansen", "Sunita Rao"]),
    ("2610.15690", 1, "cross", ["stat.ML", "cs.LG"],
     "Simulation-Based Inference for Epidemic Models with Delayed Reporting",
     "Epidemic case counts arrive with reporting delays that bias the parameters inferred from them. "
     "We train a neural posterior estimator on simulations that model the delays explicitly. "
     "On historical influenza seasons the method recovers transmission parameters with calibrated uncertainty.",
     ["Ruth Adler", "Kofi Boateng"]),
    ("2610.15871", 1, "new", ["cs.CL", "eess.AS"],
     "Mixture-of-Experts Acoustic Models for Code-Switched Speech Recognition",
     "Code-switched speech mixes two languages within an utterance, which confuses acoustic models trained per language. "
     "We train a mixture-of-experts acoustic model whose router learns language identity from the frames. "
     "Word error rate falls by 14% relative on two code-switched corpora.",
     ["Aditi Kulkarni", "Jorge Medina"]),
    # HF-featured papers far from inference
    ("2610.14777", 1, "new", ["cs.CV"],
     "TerraPaint: Text-Guided 3D Terrain Generation with Heightfield Diffusion",
     "Game and simulation worlds need large terrains that follow a written description. "
     "TerraPaint runs a diffusion model on heightfields conditioned on text and a coarse layout sketch, and tiles the result seamlessly. "
     "Artists preferred its terrains over procedural baselines in a user study.",
     ["Nina Schwarz", "Tae-yang Kim", "Marco Bianchi"]),
    ("2610.15355", 1, "new", ["cs.LG", "cs.LO"],
     "ProofScout: Retrieval-Augmented Tactic Search for Lean Theorem Proving",
     "Language-model provers for Lean forget the lemmas a library already proves. "
     "ProofScout retrieves relevant premises at each proof state and searches tactics with a value model trained on proof attempts. "
     "It proves more theorems of a standard benchmark than previous open provers at the same budget.",
     ["Adam Novak", "Ling Chen"]),
    # a replacement of a paper the team has seen (briefed on 2026-10-09, still in the queue)
    ("2610.12408", 2, "replace", ["cs.CL", "cs.LG"],
     "SnapEvict: Attention-Sink-Aware KV Cache Eviction for Multi-Turn Chat",
     "KV cache eviction policies designed for a single long prompt discard the turns that later questions refer to in multi-turn chat. "
     "SnapEvict keeps attention sinks and per-turn summary tokens, and evicts the rest of each turn by accumulated attention. "
     "At a 20% KV cache budget, SnapEvict stays within 1.2 points of the full cache on multi-turn benchmarks and cuts KV cache memory by 4.3x. "
     "This version adds results on 128K-token conversations.",
     ["Elena Popescu", "Tariq Mahmood", "Lin Qiu"]),
]

RESERVED_PREFIXES = ("2610.1581",)            # Spark's slip 2610.1581 must have one likely ID only (SpillWay 2610.15813)
# IDs the team writes wrongly: FlipPD 2610.15791, GradeKV 2610.15243, card 406's name 2610.15590, BurstGuard 2610.13509
RESERVED = {p[0] for p in PLANTED} | {"2610.15791", "2610.15243", "2610.15590", "2610.13509"}

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.14777", 41, "2026-10-13T00:00:00.000Z",
     "TerraPaint generates large seamless 3D terrains from text and a layout sketch with a heightfield diffusion model.",
     ["terrain generation", "diffusion", "heightfields", "text-to-3D"], "https://github.com/terrapaint/terrapaint"),
    ("2610.14688", 29, "2026-10-13T00:00:00.000Z",
     "RailKV stripes layer-wise KV cache streams across all network rails of a node, reaching 187 GB/s per node and cutting p99 TTFT by 29%.",
     ["KV cache transfer", "prefill-decode disaggregation", "RDMA", "multi-rail networking"], "https://github.com/railkv/railkv"),
    ("2610.15426", 24, "2026-10-13T00:37:45.120Z",
     "PredRoute routes LLM requests by predicted decode work and corrects length predictions online, reducing p99 TTFT by 24% across 128 replicas.",
     ["load balancing", "request routing", "output length prediction", "LLM serving"], None),
    ("2610.14731", 19, "2026-10-13T00:00:00.000Z",
     "NanoQAT makes a 70B model ready for MXFP4 deployment in one GPU-day by fine-tuning block scales and a low-rank correction.",
     ["quantization-aware training", "MXFP4", "low-rank adaptation", "distillation"], None),
    ("2610.15719", 16, "2026-10-13T01:12:08.447Z",
     "FlipPD flips instances between prefill and decode as the load shifts, improving goodput 1.8x over a static split.",
     ["prefill-decode disaggregation", "autoscaling", "KV cache migration", "goodput"], None),
    ("2610.15355", 15, "2026-10-13T00:00:00.000Z",
     "ProofScout retrieves premises at each proof state and searches Lean tactics with a learned value model.",
     ["theorem proving", "Lean", "retrieval", "tactic search"], None),
    ("2610.15138", 13, "2026-10-13T02:20:31.903Z",
     "LoomDraft drafts tokens by retrieving continuations of the longest matching suffix of the request's own context, speeding up decoding 2.4x.",
     ["speculative decoding", "suffix automaton", "draft-model-free", "coding agents"], "https://github.com/loomdraft/loomdraft"),
    ("2610.15234", 11, "2026-10-13T01:48:55.062Z",
     "GradeKV keeps each token's KV cache in FP8, INT4 or INT2 by accumulated attention, cutting KV memory 4.6x.",
     ["KV cache quantization", "mixed precision", "long context"], None),
    ("2610.15950", 8, "2026-10-13T03:05:17.388Z",
     "EvictStorm crafts long-output prompts that evict other tenants' KV cache, raising their p99 TTFT 4.8x.",
     ["security", "denial of service", "KV cache eviction", "multi-tenant serving"], None),
    ("2610.15871", 6, "2026-10-13T00:00:00.000Z",
     "A mixture-of-experts acoustic model whose router learns language identity lowers word error rate on code-switched speech.",
     ["speech recognition", "code-switching", "mixture of experts"], None),
]

DAY = Day(number=4, date="2026-10-13", pub="Tue, 13 Oct 2026 00:00:00 -0400",
          last_build="Tue, 13 Oct 2026 04:00:52 +0000", seed=20261013,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"EPLB", "WarmPool", "CacheGen"},
          ids=(14502, 16090), hf=HF, hf_published=("2026-10-12T00:00:00.000Z", "2026-10-12T20:00:00.000Z"),
          prefixes=("Lark", "Moss", "Pike", "Reed", "Slate", "Wren", "Dune", "Flint", "Gale", "Thorn"))


if __name__ == "__main__":
    write_day(DAY)
