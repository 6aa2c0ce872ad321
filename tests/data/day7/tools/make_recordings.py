"""Writes the day-7 recordings: the arXiv listing of Fri 16 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 7; this file is the day's data. Run from tests/data/day7: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 6).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.19234", 1, "new", ["cs.CL", "cs.LG"],
     "DepthSkim: Confidence-Gated Early Exits Turn the Target Model into Its Own Drafter",
     "Speculative decoding usually needs a second, smaller model to propose tokens. "
     "DepthSkim proposes tokens with the target model itself: it runs the lower layers, leaves through the shared language-model head as soon as a small confidence gate is satisfied, and checks the proposed tokens with a full-depth pass that reuses the lower layers' keys and values. "
     "With no added parameters DepthSkim decodes 2.1x faster than autoregressive decoding at batch size 1 and produces the same outputs.",
     ["Ines Carvalho", "Tomasz Wrobel", "Ye Lan"]),
    ("2610.19423", 1, "new", ["cs.DC", "cs.LG"],
     "TailWeigh: Balancing LLM Replicas by the Decode Work Their Requests Will Generate",
     "Balancing replicas by queue length ignores that one request may generate ten tokens and another ten thousand. "
     "TailWeigh predicts the output length of every request when it arrives and assigns it to the replica with the least expected decode work still to run, so that the load balancer weighs requests by the tokens they will generate rather than by their count. "
     "On production-like traces over 64 replicas TailWeigh lowers p99 TTFT by 22% and p99 TPOT by 15% relative to least-outstanding-requests balancing.",
     ["Dario Conti", "Nadia Rahimi", "Qin Yao"]),
    ("2610.19587", 1, "new", ["cs.DC", "cs.NI"],
     "CuckooRoute: Locating Cached Prompt Prefixes across a Serving Fleet with Cuckoo Filters",
     "A request is cheapest on the replica that already holds its prompt prefix, but the routing tier cannot look into every replica's memory. "
     "CuckooRoute replicas summarize their resident prefix blocks in cuckoo filters that the router combines into an approximate cluster-wide index of prefixes, deleting entries as replicas evict blocks, and the router sends each request where its longest prefix most likely resides. "
     "With 2,048 replicas CuckooRoute decides in 0.4 ms per request and raises the prefix hit rate from 38% to 61%.",
     ["Helga Sorensen", "Idris Bello", "Fang Min"]),
    ("2610.19655", 1, "new", ["cs.LG", "cs.CL"],
     "SplitAxisQ: Tuning-Free Two-Bit Caches for Long-Context Decoding",
     "Long-context decoding is bound by the memory that the cached keys and values occupy. "
     "Studying their statistics, we find that key outliers sit in fixed channels while value errors spread over tokens, so SplitAxisQ quantizes keys per channel and values per token, asymmetrically, to 2 bits, keeping the most recent tokens in full precision. "
     "SplitAxisQ needs no fine-tuning, shrinks the cache 5.3x and serves 3.4x larger batches with less than 0.2 points of accuracy lost.",
     ["Magnus Berg", "Leila Haddadi", "Sun Wei"]),
    ("2610.19748", 1, "new", ["cs.CR", "cs.DC"],
     "PeekPrefix: Reconstructing Co-Tenants' System Prompts from Prefix-Cache Response Times",
     "Serving engines share the prefix cache across tenants, so a cache hit answers faster than a miss. "
     "PeekPrefix guesses a co-tenant's system prompt token by token and keeps each guess whose response arrives fast enough to be a cache hit, recovering the prompt from time to first token alone. "
     "Against two open serving engines PeekPrefix recovers 88% of the tokens of other tenants' system prompts within 4,000 queries.",
     ["Yusuf Demir", "Clara Hoffmann", "Ren Jie"]),
    ("2610.19871", 1, "new", ["cs.DC", "cs.OS"],
     "DeadlineBump: Suspending Throughput Tenants When Interactive Requests Run Out of Slack",
     "Multi-tenant LLM clusters mix interactive tenants with tight latency targets and batch tenants that only need throughput. "
     "DeadlineBump tracks the remaining SLO slack of every interactive request and suspends running batch requests, saving their KV cache, as soon as an interactive request would otherwise miss its deadline, resuming them when slack returns. "
     "On a two-tenant trace DeadlineBump meets 99.1% of interactive SLOs, up from 91%, and lowers interactive p99 TTFT from 2.1 s to 1.3 s at 4% lower batch throughput.",
     ["Paolo Ferri", "Noor Aziz", "Hao Lin"]),
    ("2610.19960", 1, "new", ["cs.DC", "cs.LG"],
     "ExpertMirror: Copying Popular Experts to Idle GPUs While Decoding",
     "In expert-parallel decoding a few popular experts receive most tokens and the GPUs that host them become stragglers. "
     "ExpertMirror watches expert popularity at run time, copies the busiest experts to GPUs with spare capacity while decoding continues, and drops copies that have cooled down, splitting the popular experts' tokens among their copies. "
     "On a 64-GPU expert-parallel deployment ExpertMirror lowers the p99 time per output token by 31% and raises throughput by 1.4x.",
     ["Elias Brandt", "Zainab Musa", "Kong Lei"]),
    ("2610.20094", 1, "new", ["cs.DC", "cs.PF"],
     "JouleTune: Picking Batch Size and SM Clock per Decode Step to Maximize Tokens per Joule",
     "GPU clusters serving LLMs run under power budgets, and the same work costs very different energy depending on how it is batched and clocked. "
     "At every decode step JouleTune chooses the batch size and the streaming-multiprocessor clock that give the most tokens per joule while keeping the rack under its power cap and requests within their SLOs. "
     "On an 8-node rack JouleTune generates 23% more tokens per joule than a fixed configuration and never exceeds the power cap.",
     ["Sven Aalto", "Priya Menon", "Lu Hong"]),
    ("2610.20515", 1, "new", ["cs.DC", "cs.LG"],
     "RotaPass: Hiding Ring Attention's Block Exchange behind Compute with In-Kernel Send and Receive",
     "Ring attention splits million-token prefill across GPUs, but exchanging key-value blocks between neighbours stalls the attention compute. "
     "RotaPass issues the send and receive of the next key-value block from inside the attention kernel, overlapping the exchange with the computation of the current block. "
     "RotaPass prefills a one-million-token prompt on 32 GPUs 1.4x faster than ring attention with separate communication kernels.",
     ["Mateus Rocha", "Olga Ivanova", "Jiang Tao"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.19302", 1, "new", ["cs.DC", "cs.OS"],
     "KVDedup: Content-Hash Deduplication of Identical KV Cache Blocks across Requests",
     "Requests that carry the same documents produce identical KV cache blocks at different positions in their prompts. "
     "KVDedup hashes the content of each KV block together with its position encoding and stores identical blocks once, with reference counts, so that many requests point to a single copy in GPU memory. "
     "On retrieval-augmented workloads KVDedup stores 2.2x more requests' KV cache in the same GPU memory without changing any output.",
     ["Anders Moe", "Lucia Ferreira", "Tang Yu"]),
    ("2610.19516", 1, "new", ["cs.DC", "cs.LG"],
     "VerifyBatch: Scheduling the Verification Passes of Many Speculative Requests on Shared GPUs",
     "When many requests use speculative decoding at once, their verification passes compete for the same GPU and each request's draft length changes the batch. "
     "VerifyBatch schedules the verification passes of all requests together, grouping them by draft length and deciding per step how many drafted tokens each request may submit for verification. "
     "At 128 concurrent requests VerifyBatch raises throughput by 1.3x over per-request speculative decoding.",
     ["Julien Mercier", "Sade Adeyemi", "Wu Xin"]),
    ("2610.19812", 1, "new", ["cs.NI", "cs.DC"],
     "ZoneRoute: Routing LLM Requests across Regions by Measured Network Round-Trip Time",
     "Global LLM services run replicas in several regions, and a request sent to a distant region pays the network round trip twice. "
     "ZoneRoute measures round-trip times between client networks and regions continuously and routes each request to the region with the lowest network latency that still has capacity. "
     "Across five regions ZoneRoute lowers median time to first token for distant users by 120 ms.",
     ["Tobias Lund", "Meera Pillai", "Cao Jun"]),
    ("2610.20033", 1, "new", ["cs.DC", "cs.OS"],
     "WarmStart: Preloading Weights on Standby Decode Instances for Fast Scale-Out",
     "Adding a decode instance during a burst takes tens of seconds because the model weights must be loaded before it can serve. "
     "WarmStart keeps standby instances with the weights already in GPU memory but no KV cache reserved, and turns one into a decode instance when the burst begins. "
     "WarmStart brings a new decode instance of a 70B model online in 1.1 s instead of 38 s.",
     ["Greta Holm", "Samuel Osei", "Ma Lei"]),
    ("2610.20271", 1, "new", ["cs.DC", "cs.PF"],
     "TileTune: Choosing Attention Kernel Tile Sizes per GPU from Hardware Counters",
     "Attention kernels ship with tile sizes tuned for one GPU and run slower on others. "
     "TileTune measures a few hardware counters on the target GPU and predicts the tile sizes and pipeline depth of the attention kernel with a small learned model, without an exhaustive search. "
     "TileTune speeds up attention by 1.17x on H100 and 1.35x on H20 over the default tiles.",
     ["Oskar Nieminen", "Fatima Zahra", "Xie Ming"]),
    ("2610.20388", 1, "new", ["cs.DC", "cs.PF"],
     "RackPlan: Planning GPU Rack Capacity for LLM Serving with Queueing Models",
     "Operators must decide months ahead how many GPU racks to buy for traffic that grows and shifts. "
     "RackPlan models LLM serving as a queueing network fitted to request traces and computes the number of racks that keeps the SLO at the forecast peak with a chosen confidence. "
     "On a year of traces RackPlan's plans needed 18% fewer racks than peak-times-margin planning without SLO violations.",
     ["Bjorn Karlsson", "Amara Nwosu", "Zhou Qi"]),
    # HF-featured paper far from inference
    ("2610.19690", 1, "new", ["cs.CV", "cs.GR"],
     "StrokeGen: Generating Editable Vector Sketches with Diffusion over Bezier Strokes",
     "Image generators output pixels that designers cannot edit stroke by stroke. "
     "StrokeGen generates vector sketches directly with a diffusion model over the control points of Bezier strokes. "
     "Designers preferred its sketches in a user study.",
     ["Lea Vogel", "Dae-ho Shin", "Isabel Moreno"]),
    # keyword traps (not LLM inference systems)
    ("2610.19177", 1, "new", ["cs.AR", "cs.CR"],
     "Speculative Execution Leaks in Out-of-Order RISC-V Cores: A Systematic Study",
     "Out-of-order processors execute instructions speculatively and leave traces in caches. "
     "We test eleven open RISC-V cores for speculative execution leaks with a generated suite of gadgets. "
     "Seven cores leak through the data cache.",
     ["Rafael Souza", "Hanna Berg"]),
    ("2610.20462", 1, "cross", ["cs.NI", "cs.DS"],
     "Compressed Prefix Trees for Longest-Prefix-Match IP Routing Lookups",
     "Routers look up the longest matching prefix of every packet's address in large tables. "
     "We compress the prefix tree into cache-line-sized nodes with popcount indexing. "
     "Lookups run at 410 million per second on one core.",
     ["Eva Klein", "Arjun Bose"]),
]

# IDs the team writes wrongly: TailWeigh 2610.19432 (the queue, 2610.19423 with two digits swapped), RotaPass
# 2610.20155 (Jay's evening list, 2610.20515 with two digits swapped); no filler may take them. JouleTune's note
# writes WattBatch (anchored, 2610.16205) as 2610.16250, outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.19432", "2610.20155"}
RESERVED_PREFIXES = ("2610.19432", "2610.20155")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.19690", 51, "2026-10-16T00:00:00.000Z",
     "StrokeGen generates editable vector sketches with a diffusion model over Bezier stroke control points.",
     ["vector graphics", "sketch generation", "diffusion"], "https://github.com/strokegen/strokegen"),
    ("2610.19960", 29, "2026-10-16T00:00:00.000Z",
     "ExpertMirror copies popular experts to idle GPUs during decoding, cutting p99 TPOT 31% at 1.4x throughput.",
     ["mixture of experts", "expert parallelism", "load balancing"], None),
    ("2610.19234", 24, "2026-10-16T00:41:12.306Z",
     "DepthSkim drafts with the target model's lower layers behind a confidence gate, decoding 2.1x faster with no extra parameters.",
     ["speculative decoding", "early exit", "self-drafting"], "https://github.com/depthskim/depthskim"),
    ("2610.19748", 18, "2026-10-16T00:00:00.000Z",
     "PeekPrefix recovers other tenants' system prompts from prefix-cache timing, 88% of tokens in 4,000 queries.",
     ["security", "side channel", "prefix caching"], None),
    ("2610.19587", 15, "2026-10-16T01:12:48.921Z",
     "CuckooRoute routes requests by cuckoo-filter summaries of replicas' cached prefixes, raising the hit rate to 61%.",
     ["request routing", "prefix caching", "LLM serving"], None),
    ("2610.19423", 13, "2026-10-16T00:00:00.000Z",
     "TailWeigh balances replicas by predicted decode work, lowering p99 TTFT 22%.",
     ["load balancing", "output length prediction", "LLM serving"], None),
    ("2610.19655", 12, "2026-10-16T01:55:03.477Z",
     "SplitAxisQ quantizes keys per channel and values per token to 2 bits without tuning, shrinking the cache 5.3x.",
     ["KV cache", "quantization", "long context"], None),
    ("2610.19302", 10, "2026-10-16T00:00:00.000Z",
     "KVDedup stores identical KV cache blocks once across requests, fitting 2.2x more requests in GPU memory.",
     ["KV cache", "deduplication", "RAG"], None),
    ("2610.20094", 9, "2026-10-16T02:20:37.650Z",
     "JouleTune picks batch size and SM clock per decode step for 23% more tokens per joule under a rack power cap.",
     ["energy efficiency", "power capping", "LLM serving"], None),
    ("2610.20271", 8, "2026-10-16T00:00:00.000Z",
     "TileTune predicts attention kernel tile sizes from hardware counters, up to 1.35x faster than default tiles.",
     ["attention kernels", "autotuning", "GPU"], None),
    ("2610.19177", 6, "2026-10-16T00:00:00.000Z",
     "A systematic study finds speculative execution leaks in seven of eleven open RISC-V cores.",
     ["hardware security", "speculative execution", "RISC-V"], None),
    ("2610.20033", 5, "2026-10-16T03:02:19.115Z",
     "WarmStart keeps standby instances with preloaded weights to add decode capacity in 1.1 s.",
     ["autoscaling", "prefill-decode disaggregation", "cold start"], None),
]

DAY = Day(number=7, date="2026-10-16", pub="Fri, 16 Oct 2026 00:00:00 -0400",
          last_build="Fri, 16 Oct 2026 04:00:37 +0000", seed=20261016,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Speculative", "Compressed"},
          ids=(19200, 20800), hf=HF, hf_published=("2026-10-15T00:00:00.000Z", "2026-10-15T20:00:00.000Z"),
          prefixes=("Jetty", "Kelp", "Loam", "Mesa", "Nettle", "Orchard", "Prairie", "Quill", "Rill", "Sorrel"))


if __name__ == "__main__":
    write_day(DAY)
