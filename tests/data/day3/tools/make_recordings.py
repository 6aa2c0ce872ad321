"""Writes the day-3 recordings: the arXiv listing of Mon 12 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
day 3 and day 4; this file is the day's data. Run from tests/data/day3: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator both days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    ("2610.13052", 1, "new", ["cs.DC", "cs.NI"],
     "LayerLink: Layer-Pipelined KV Cache Transfer for Disaggregated LLM Serving over RDMA",
     "In prefill-decode disaggregation the decode instance waits until the whole KV cache of a prompt has crossed the network. "
     "LayerLink pipelines the transfer layer by layer: the KV blocks of each layer are posted as RDMA writes as soon as the prefill finishes that layer, and the decode instance starts once the first layers have landed. "
     "On 32K-token prompts on eight H200 GPUs, LayerLink reduces p99 TTFT by 34% compared with bulk transfer after prefill. "
     "Its transfer engine sustains 53.8 GB/s per GPU on RoCE.",
     ["Lena Hoffmann", "Kaito Mori", "Priya Raman", "Jonas Lindgren"]),
    ("2610.13166", 1, "new", ["cs.LG", "cs.CL"],
     "ChunkQuant: Per-Chunk Adaptive KV Cache Quantization for Long-Context Decode",
     "Uniform low-bit KV cache quantization loses accuracy on long contexts because a few chunks carry most of the attention mass. "
     "ChunkQuant assigns 2, 4 or 8 bits to each chunk of the KV cache from its running attention share and requantizes chunks as the share moves. "
     "ChunkQuant reduces KV cache memory by 4.2x relative to FP16 with less than half a point of loss on LongBench.",
     ["Yuki Sato", "Daniel Okafor", "Mei Lin"]),
    ("2610.13377", 1, "new", ["cs.LG", "physics.ao-ph"],
     "FrostNet: Sea-Ice Concentration Forecasting with Graph Neural Networks on Icosahedral Meshes",
     "Sea-ice forecasts from numerical models are expensive and drift at seasonal horizons. "
     "FrostNet is a graph neural network on an icosahedral mesh trained on satellite passive-microwave records. "
     "It matches a dynamical model at subseasonal lead times at a fraction of the compute.",
     ["Ingrid Solberg", "Tomas Varga", "Aiyana Brooks"]),
    ("2610.13418", 1, "new", ["cs.CL", "cs.LG"],
     "QuillSpec: Reusing Draft Token Trees across Beam Branches in Speculative Decoding",
     "Beam search and parallel sampling run several branches that share long prefixes, yet speculative decoding drafts a separate token tree for each branch. "
     "QuillSpec keeps one draft token tree per shared prefix and lets every branch verify against it, re-drafting only where branches diverge. "
     "With a Llama-3.1-8B draft and a Llama-3.1-70B target, QuillSpec accelerates decoding by 2.3x at batch size 1 over autoregressive decoding, and the output distribution is unchanged.",
     ["Chen Wei", "Sofia Marquez", "Arjun Nair"]),
    ("2610.13544", 1, "new", ["cs.DC", "cs.LG"],
     "HotSwapEP: Online Expert Replication and Eviction for Skewed Mixture-of-Experts Decode",
     "Expert popularity in Mixture-of-Experts decode shifts within minutes, so a static expert placement leaves some GPUs saturated while others idle. "
     "HotSwapEP replicates hot experts and evicts cold replicas online, overlapping weight copies with decode steps. "
     "Across three open MoE models, HotSwapEP improves decode throughput by up to 1.7x under skewed routing and 1.1x under uniform routing, relative to static expert parallelism.",
     ["Haruto Ishikawa", "Elena Petrova", "Samuel Adeyemi", "Lucia Ferri"]),
    ("2610.13590", 1, "new", ["cs.DC"],
     "BurstGuard: Admission Control with SLO Guarantees for Bursty Multi-Tenant LLM Serving",
     "Multi-tenant LLM services see sudden bursts from single tenants that push every tenant past its latency objective. "
     "BurstGuard forecasts each tenant's short-term demand and admits, defers or degrades requests so that the tenants within their contracted rate keep their objectives. "
     "On production traces, BurstGuard reduces SLO violations by 38% relative to first-come-first-served admission at an equal GPU budget.",
     ["Marta Kowalska", "Ibrahim Haddad", "Grace Liu"]),
    ("2610.13737", 1, "new", ["cs.DC", "cs.OS"],
     "MemPilot: Learned KV Cache Placement across GPU and CPU Memory for Long-Context Serving",
     "Long-context serving keeps most of the KV cache in CPU memory, and fetching it on demand stalls the prefill. "
     "MemPilot learns which KV blocks will be attended next and moves them into HBM ahead of use, evicting blocks whose attention share has decayed. "
     "On 128K-token contexts, MemPilot reduces TTFT by 31% relative to the native CPU offloading of vLLM.",
     ["Rafael Costa", "Nadia Rahman", "Oliver Brandt"]),
    ("2610.13871", 1, "new", ["cs.LG"],
     "FP4Lens: Calibration-Free NVFP4 Weight Quantization for Serving Large MoE Models",
     "Post-training quantization to NVFP4 usually needs calibration data per expert, which large Mixture-of-Experts models make expensive. "
     "FP4Lens chooses the block scales of NVFP4 from weight statistics alone and corrects the few outlier blocks with a low-rank residual. "
     "On two open MoE models with more than 400B parameters, FP4Lens stays within 0.4 points of FP8 accuracy without any calibration data.",
     ["Viktor Hale", "Amara Obi", "Jun Takeda"]),
    ("2610.14012", 1, "new", ["cs.CR", "cs.DC"],
     "KVShield: Constant-Time Prefix Cache Lookups against Timing Side Channels in Multi-Tenant LLM Serving",
     "Shared prefix caches make time-to-first-token depend on what other tenants sent, which leaks their prompts. "
     "KVShield groups tenants and schedules prefix cache hits and misses of a group on a constant-time schedule, so a hit is indistinguishable from a miss to everyone outside the group. "
     "KVShield adds 3% to TTFT and defeats the prompt-reconstruction attacks of prior work.",
     ["Hannah Weiss", "Diego Alvarez", "Sun-hee Park"]),
    ("2610.14133", 1, "new", ["cs.DC"],
     "LoadLens: Output-Length-Aware Load Balancing for LLM Serving Fleets",
     "Request routers balance LLM replicas by outstanding requests, although the decode work of a request depends on its output length. "
     "LoadLens predicts the output length of each request and balances the expected decode work across replicas. "
     "At 256 replicas, LoadLens reduces p99 TTFT by 27% relative to least-outstanding-requests routing.",
     ["Felix Braun", "Ana Sousa", "Rohan Mehta"]),
    # keyword traps (not LLM inference systems)
    ("2610.13093", 1, "cross", ["stat.ML", "cs.LG"],
     "Amortized Variational Inference for Deep Gaussian Processes with Inducing Points",
     "Variational inference for deep Gaussian processes scales poorly with the number of inducing points. "
     "We amortize the inducing-point posteriors with a shared encoder and derive a tighter evidence lower bound. "
     "On regression and classification benchmarks the method matches exact-posterior baselines.",
     ["Claire Dubois", "Mateus Silva"]),
    ("2610.13650", 1, "new", ["cs.LG"],
     "Causal Inference under Interference in Two-Sided Online Marketplaces",
     "Experiments in two-sided marketplaces violate the no-interference assumption because buyers and sellers compete. "
     "We propose a cluster-randomized design with an estimator that is unbiased under a bipartite interference model. "
     "Simulations calibrated on a ride-hailing platform show lower bias than switchback designs.",
     ["Tariq Aziz", "Eva Novak", "Lars Holm"]),
    ("2610.13933", 1, "new", ["cs.CR", "cs.LG"],
     "Membership Inference Attacks against Latent Diffusion Models via Denoising Trajectories",
     "Membership inference asks whether a sample was in a model's training set. "
     "We show that the denoising trajectory of a latent diffusion model separates members from non-members far better than the final reconstruction loss. "
     "The attack transfers across three open text-to-image models.",
     ["Noor Haddad", "Erik Lund"]),
    ("2610.14260", 1, "new", ["cs.IT", "cs.LG"],
     "Neural Belief Propagation Decoding for Short LDPC Codes",
     "Belief propagation decoding of short LDPC codes falls short of maximum-likelihood decoding. "
     "We unroll belief propagation into a network with learned edge weights and a cycle-aware schedule. "
     "The decoder closes most of the gap to ordered-statistics decoding on standard short codes.",
     ["Mina Ahmadi", "Paulo Reis"]),
    # HF-featured papers far from inference
    ("2610.13211", 1, "new", ["cs.CV"],
     "MotionWeave: Long Human Motion Video Generation with Keyframe-Anchored Diffusion",
     "Video diffusion models lose body consistency over long human motion clips. "
     "MotionWeave anchors generation on sparse keyframes produced by a motion prior and fills the frames between them with a conditioned video model. "
     "A user study prefers its minute-long clips over strong baselines.",
     ["Lea Martin", "Hyun-woo Kim", "Sara Conti", "Ben Carter"]),
    ("2610.12988", 1, "new", ["cs.CL", "eess.AS"],
     "SpeechAlign: Preference Optimization for Expressive Text-to-Speech",
     "Text-to-speech models trained with likelihood sound flat on expressive prompts. "
     "SpeechAlign collects pairwise listener preferences and applies direct preference optimization to a codec language model. "
     "Listeners prefer its outputs on emotional and conversational prompts.",
     ["Ivy Chen", "Marco Rossi"]),
    # replacements of papers the team has seen
    ("2610.10874", 2, "replace", ["cs.LG", "cs.DC"],
     "OutlierMix: Outlier-Aware W4A8 Mixed-Precision Kernels for MoE LLM Serving",
     "Weight-only 4-bit quantization leaves Mixture-of-Experts decode bound by activation traffic once batches grow. "
     "OutlierMix keeps the few outlier channels of each expert in 8-bit, quantizes the rest to W4A8, and fuses dequantization into a grouped GEMM that serves all active experts in one launch. "
     "On two open MoE models, OutlierMix raises decode throughput by 1.6x over W4A16 kernels on H200 GPUs with less than 0.3 points of accuracy loss. "
     "This version adds results on H20 GPUs.",
     ["Noah Klein", "Jia Wen"]),
    ("2610.08694", 2, "replace-cross", ["cs.NI", "cs.DC"],
     "KVCC: Deadline-Aware RDMA Congestion Control for KV Cache Transfer in Disaggregated LLM Serving",
     "Prefill-decode disaggregation moves gigabytes of KV cache between GPU nodes every second, creating incast bursts that standard RDMA congestion control handles poorly. "
     "We characterize KV transfer traffic in disaggregated LLM serving and propose KVCC, which paces layer-wise KV streams according to decode deadlines. "
     "KVCC lowers p99 KV transfer time by 36% on a 32-node RoCE cluster. "
     "This version adds a comparison with DCQCN tuning.",
     ["Jiwoo Lee", "Aditya Rao", "Hanna Berg"]),
]

RESERVED_PREFIXES = ("2610.1305",)            # LayerLink's slip 2610.1305 must have one likely ID only
RESERVED = {p[0] for p in PLANTED} | {"2610.13481", "2610.14021", "2610.13055"}

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.13211", 35, "2026-10-12T00:00:00.000Z",
     "MotionWeave generates minute-long human motion videos by anchoring diffusion on keyframes from a motion prior.",
     ["video generation", "human motion", "diffusion", "keyframes"], None),
    ("2610.13052", 31, "2026-10-12T00:00:00.000Z",
     "LayerLink pipelines KV cache transfer layer by layer over RDMA, cutting p99 TTFT by 34% in prefill-decode disaggregation.",
     ["KV cache transfer", "prefill-decode disaggregation", "RDMA", "pipelining"], "https://github.com/layerlink-project/layerlink"),
    ("2610.14133", 27, "2026-10-12T00:41:12.518Z",
     "LoadLens balances predicted decode work across LLM replicas, reducing p99 TTFT by 27% at 256 replicas.",
     ["load balancing", "request routing", "output length prediction", "LLM serving"], None),
    ("2610.13871", 23, "2026-10-12T00:00:00.000Z",
     "FP4Lens picks NVFP4 block scales from weight statistics alone, quantizing large MoE models without calibration data.",
     ["NVFP4", "weight quantization", "mixture of experts", "calibration-free"], "https://github.com/fp4lens/fp4lens"),
    ("2610.13418", 22, "2026-10-12T01:15:40.204Z",
     "QuillSpec shares one draft token tree across beam branches, speeding up speculative decoding 2.3x at batch size 1.",
     ["speculative decoding", "token trees", "beam search", "draft models"], None),
    ("2610.14012", 19, "2026-10-12T02:03:09.871Z",
     "KVShield schedules prefix cache hits and misses in constant time per tenant group, closing timing side channels for 3% TTFT overhead.",
     ["prefix caching", "timing side channels", "multi-tenant serving", "security"], None),
    ("2610.13544", 14, "2026-10-12T00:00:00.000Z",
     "HotSwapEP replicates hot experts and evicts cold replicas online, improving MoE decode throughput up to 1.7x under skew.",
     ["mixture of experts", "expert parallelism", "replication", "decode"], None),
    ("2610.13933", 11, "2026-10-12T00:22:31.004Z",
     "Denoising trajectories reveal training-set membership of latent diffusion models better than reconstruction loss.",
     ["membership inference", "diffusion models", "privacy"], None),
    ("2610.13737", 9, "2026-10-12T03:30:55.612Z",
     "MemPilot learns which KV blocks will be attended next and prefetches them into HBM, reducing TTFT by 31% on 128K contexts.",
     ["KV cache", "offloading", "long context", "prefetching"], None),
    ("2610.12988", 6, "2026-10-12T00:00:00.000Z",
     "SpeechAlign applies preference optimization to a codec language model for more expressive text-to-speech.",
     ["text-to-speech", "preference optimization", "codec language model"], None),
]

DAY = Day(number=3, date="2026-10-12", pub="Mon, 12 Oct 2026 00:00:00 -0400",
          last_build="Mon, 12 Oct 2026 04:00:47 +0000", seed=20261012,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={"LayerLink", "ChunkQuant", "FrostNet", "QuillSpec", "HotSwapEP", "BurstGuard", "MemPilot",
                       "FP4Lens", "KVShield", "LoadLens", "MotionWeave", "SpeechAlign", "WarmPool", "CacheGen"},
          ids=(12905, 14480), hf=HF, hf_published=("2026-10-09T00:00:00.000Z", "2026-10-08T20:00:00.000Z"), prefixes=())


if __name__ == "__main__":
    write_day(DAY)
