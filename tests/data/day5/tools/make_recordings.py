"""Writes the day-5 recordings: the arXiv listing of Wed 14 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3, 4 and 5; this file is the day's data. Run from tests/data/day5: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, day 2, day 3, day 4).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.16139", 1, "new", ["cs.DC"],
     "PieceFill: Decode-Priority Mixed Batching with Piecewise Prompt Processing",
     "A long prompt processed in one step holds back every decode request batched with it, and the time per output token spikes. "
     "PieceFill cuts each prompt into fixed-size pieces and adds them to the running decode batches under a per-step token budget, so that no decode step ever waits for a whole prompt. "
     "On a mixed chat and summarization trace with a 70B model, PieceFill sustains 5200 tokens/s per GPU and lowers p99 TPOT by 18% relative to prompt-at-once scheduling.",
     ["Yusuf Demir", "Camille Laurent", "Zhou Wen"]),
    ("2610.16205", 1, "new", ["cs.DC", "cs.PF"],
     "WattBatch: Joule-Aware Batch Sizing for LLM Serving under Rack Power Budgets",
     "The batch size of each decode step decides both the throughput and the power draw of a GPU. "
     "WattBatch chooses the batch size and the GPU clock of every step to maximize tokens per joule, keeping the rack under its power cap and every request within its latency target. "
     "On a 64-GPU rack, WattBatch generates 1.24x more tokens per joule than throughput-maximizing batching, with no TPOT objective violated.",
     ["Helga Brandt", "Kenta Mori", "Amara Nwosu"]),
    ("2610.16253", 1, "new", ["cs.CL", "cs.LG"],
     "PolyHead: Parallel Lookahead Heads on the Final Hidden State for Draft-Free Decoding",
     "A separate draft model costs memory and must be kept in step with the target. "
     "PolyHead attaches a few lightweight prediction heads to the last hidden state of the target model, the k-th head guessing the token k positions ahead; their candidates are combined into a tree and verified in one forward pass. "
     "The heads are trained on 0.5B tokens with the base model frozen, and PolyHead speeds up decoding of a 70B model by 2.8x at batch size 1 on chat benchmarks.",
     ["Rafael Souza", "Min-ji Choi", "Oskar Berg"]),
    ("2610.16377", 1, "new", ["cs.DC"],
     "SpreadFill: Spreading Context-Parallel Prefill of Million-Token Prompts over the GPUs a Shared Cluster Can Spare",
     "A million-token prompt must be prefilled by many GPUs at once, and in a shared cluster those GPUs also carry other requests. "
     "SpreadFill picks the GPUs that take the context-parallel shards of a long prompt by their interconnect bandwidth and the decode load they already carry, and regroups the shards between chunks as that load moves. "
     "On 1M-token prompts in a shared 64-GPU cluster, SpreadFill cuts TTFT from 21 s to 13 s relative to a fixed group of eight GPUs.",
     ["Ingrid Solberg", "Tomas Herrera", "Jiang Lei"]),
    ("2610.16448", 1, "new", ["cs.DC", "cs.LG"],
     "UniPool: A Single Paged Memory Pool for KV Cache and LoRA Adapters in Multi-Adapter Serving",
     "Multi-adapter servers reserve one memory region for LoRA weights and another for the KV cache, and one of them always runs out first. "
     "UniPool keeps adapter weights and KV blocks in the same pool of fixed-size pages, loads adapters page by page on demand and evicts pages of either kind by one policy. "
     "Serving 1,000 adapters of an 8B model, UniPool serves 2.3x more adapters concurrently at the same p99 TTFT.",
     ["Fatima Zahra", "Jonas Weber", "Kaito Shimizu"]),
    ("2610.16512", 1, "new", ["cs.DC", "cs.LG"],
     "RackMoE: Interconnect-Aware Expert Placement That Keeps MoE All-to-All inside NVLink Domains",
     "In multi-node expert parallelism, every token whose experts sit on another node crosses the slow network twice. "
     "RackMoE places experts by the topology of the cluster: it partitions the co-activation graph of the experts so that experts chosen together land in the same NVLink domain, and spreads the rest over the nodes. "
     "On two open MoE models across four GB200 racks, RackMoE cuts cross-node all-to-all traffic by 41% (23% under uniform routing) and decode latency by 17%.",
     ["Arjun Menon", "Elisa Conti", "Bjorn Aas"]),
    ("2610.16614", 1, "new", ["cs.CL", "cs.LG"],
     "TrimCache: Budgeted KV Retention for Long Multi-Turn Chat",
     "The KV cache of a long conversation grows with every turn while most of its tokens are never looked at again. "
     "TrimCache keeps a fixed budget of tokens per conversation: a window of recent tokens plus the heavy hitters, the tokens that have received the largest accumulated attention, and evicts everything else. "
     "TrimCache reduces KV cache memory by 62% within 0.8 points of the full cache on multi-turn benchmarks.",
     ["Sophie Martin", "Dong-hyun Kang", "Priyanka Nair"]),
    ("2610.16781", 1, "new", ["cs.NI", "cs.DC"],
     "TideFlow: Deadline-Ordered Rate Control for KV Cache Flows in RoCE Fabrics",
     "KV cache flows from prefill to decode instances share a RoCE fabric with collective and storage traffic, and a congested link delays the first token of whichever request happens to be behind it. "
     "TideFlow gives every KV flow the deadline of its request's first token and paces flows at the sender NICs earliest deadline first, backing off only the flows that still have slack. "
     "On a 256-GPU testbed, TideFlow keeps the p99 tail latency of KV transfers at 33 ms, against 71 ms under DCQCN.",
     ["Lorenzo Greco", "Hye-jin Yoon", "Samuel Okoye"]),
    ("2610.16926", 1, "new", ["cs.DC", "cs.LG"],
     "PhaseQuant: Phase-Specific Quantization for Disaggregated Prefill and Decode",
     "Prefill is compute-bound and decode is memory-bound, so the instances of a disaggregated deployment need not run the same precision. "
     "PhaseQuant serves the prefill instances with FP8 weights and activations and the decode instances with 4-bit weights, and converts the KV cache during the transfer between them. "
     "On two 70B models, PhaseQuant improves goodput by 1.6x over BF16 on both phases, within 0.6 points of accuracy.",
     ["Nadia Rahimi", "Felix Hartmann", "Wang Tao"]),
    ("2610.17034", 1, "new", ["cs.CR", "cs.DC"],
     "PromptEcho: Inferring Co-Tenant Prompts from Time-to-First-Token",
     "Serving engines that share a prefix cache across users answer a request faster when its prefix is already cached. "
     "PromptEcho sends probe prompts and times their first token to learn which prefixes are cached, extending a guess one token at a time until it reconstructs another user's prompt. "
     "Against three open-source serving engines, PromptEcho recovers 81% of the system prompts of other tenants; isolating the prefix cache per user blocks it.",
     ["Ahmed Saleh", "Karin Lund", "Zhao Yi"]),
    ("2610.17158", 1, "new", ["cs.DC", "cs.NI"],
     "WideStream: Multi-NIC Layer-Wise KV Cache Streaming for Disaggregated Inference",
     "When prefill and decode run on different nodes, the KV cache of a long prompt is streamed layer by layer, but the stream of a GPU pair uses a single NIC. "
     "WideStream splits the KV blocks of every layer over all NICs of the node and reassembles them at the receiver before the decode instance reads that layer. "
     "On 32K-token prompts, WideStream reaches 181 GB/s of KV transfer per node with four 400G NICs.",
     ["Viktor Nagy", "Leila Ahmadi", "Ren Tanaka"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.16059", 1, "new", ["cs.CL", "cs.LG"],
     "ShallowDraft: Self-Speculative Decoding by Skipping Layers of the Target Model",
     "Speculative decoding needs a drafter, and a separate draft model must be trained, served and kept in GPU memory. "
     "ShallowDraft drafts with the target model itself, running only a learned subset of its layers and skipping the rest, then verifies the drafts with all layers. "
     "ShallowDraft adds no parameters and speeds up decoding by 1.7x at batch size 1 with identical outputs.",
     ["Greta Lange", "Ramesh Kumar", "Aiko Ueda"]),
    ("2610.16350", 1, "new", ["cs.DC"],
     "RingCast: Overlapping Ring Communication with Attention for Million-Token Prefill",
     "Ring attention passes KV blocks around the GPUs of a context-parallel group, and on long prompts the exchange is exposed whenever a block arrives later than the compute needs it. "
     "RingCast runs a bidirectional ring, reorders the chunks so that every GPU computes on local blocks while remote ones are in flight, and fuses the send and receive into the attention kernel. "
     "RingCast raises prefill throughput on 1M-token prompts by 1.3x over ring attention on the same eight GPUs.",
     ["Paolo Ferri", "Sun Hao", "Daria Volkova"]),
    ("2610.16687", 1, "new", ["cs.DC"],
     "SkimA2A: Low-Latency All-to-All Dispatch and Combine Kernels for Wide Expert-Parallel Decode",
     "Wide expert parallelism spends a large part of each decode step in the all-to-all that dispatches tokens to experts and combines their outputs. "
     "SkimA2A issues the dispatch and combine directly from the GPU over RDMA, packs tokens for the same node into one message and overlaps the combine with the next layer's attention. "
     "On 128-way expert parallelism, SkimA2A cuts dispatch-and-combine latency by 2.1x relative to the kernels of current serving engines.",
     ["Tariq Hussain", "Eva Novotna", "Cheng Bo"]),
    ("2610.16833", 1, "new", ["cs.LG", "cs.CL"],
     "KeyFold: Low-Rank Key Projection for KV Cache Compression in Long-Context Decode",
     "Attention keys of a head lie close to a low-dimensional subspace. "
     "KeyFold learns a projection per head offline, caches the projected keys instead of the full keys and attends in the projected space, keeping the values in FP8. "
     "KeyFold reduces KV cache memory by 3.2x on long-context benchmarks with less than one point of loss.",
     ["Miriam Cohen", "Stefan Ilic", "Huang Lin"]),
    ("2610.16970", 1, "new", ["cs.CR", "cs.CL"],
     "GuardLane: Co-Serving Safety Classifiers with the Model They Guard",
     "A safety classifier that screens every prompt runs its own prefill next to the model it guards, and doubles the GPU work of long prompts. "
     "GuardLane runs the classifier as a small head on the hidden states of the served model, so that it reuses the model's prefill and KV cache, and holds back the first token until the head has decided. "
     "GuardLane adds 3% to TTFT and matches the accuracy of a separate 8B classifier on standard safety benchmarks.",
     ["Lea Kovac", "Naveen Reddy", "Olga Smirnova"]),
    ("2610.17096", 1, "new", ["cs.DC", "cs.OS"],
     "BootLatch: Restoring Warm Inference Engine Processes from GPU Checkpoints for Fast Scale-Out",
     "A new replica of an inference engine spends most of its start-up loading weights, capturing CUDA graphs and warming its allocator. "
     "BootLatch checkpoints a warmed-up engine process, GPU memory included, and restores it on a new GPU, mapping the weights from a local copy. "
     "BootLatch brings a 70B replica from 48 s to 6 s before it serves its first request.",
     ["Ruben Castillo", "Yui Nakamura", "Ola Nordmann"]),
    # the paper whose ID UniPool's card carries (2610.16484 vs UniPool's 2610.16448)
    ("2610.16484", 1, "new", ["cs.DB", "cs.DC"],
     "PoolDB: Adaptive Buffer Pool Sizing for Multi-Tenant Cloud Databases",
     "Cloud databases size the buffer pool of each tenant statically, and memory sits idle in one tenant while another thrashes. "
     "PoolDB resizes the buffer pools online from miss-ratio curves estimated by sampling. "
     "On TPC-C and production traces it cuts p99 query latency by 30% with the same memory.",
     ["Harriet Cole", "Ming Zhao"]),
    # keyword traps (not LLM inference systems)
    ("2610.16275", 1, "cross", ["cs.NI", "cs.DC"],
     "Energy-Aware Batching of Sensor Readings in Low-Power Wireless Networks",
     "Battery-powered sensor nodes spend most of their energy on the radio. "
     "We batch readings at each node under a deadline and choose batch sizes that minimize radio wake-ups. "
     "On a 60-node testbed network lifetime grows by 38%.",
     ["Petra Horvat", "Diego Salas"]),
    ("2610.16556", 1, "new", ["cs.DC", "cs.DS"],
     "Chunked Prefetching for Out-of-Core Graph Analytics on a Single Machine",
     "Graphs larger than memory are processed from SSD, and random neighbour reads dominate the run time. "
     "We prefetch the edge chunks a traversal will read next from a compact frontier summary. "
     "Breadth-first search and PageRank run 2.2x faster than with the operating system's readahead.",
     ["Anil Gupta", "Mona Berg"]),
    # HF-featured paper far from inference
    ("2610.16402", 1, "new", ["cs.CV", "cs.GR"],
     "MeshTailor: Garment Mesh Generation from Sewing Patterns with Diffusion",
     "Virtual try-on and games need garment meshes that follow a real sewing pattern. "
     "MeshTailor generates a draped 3D garment mesh from a 2D sewing pattern with a diffusion model over panel geometry. "
     "Designers preferred its garments over simulation baselines in a user study.",
     ["Chloe Dubois", "Haruto Ishii", "Nia Roberts"]),
]

# Slips the team writes: the six-digit 2610.166145 must have one likely ID only (TrimCache 2610.16614): no
# filler one digit fewer than it (2610.16145, 2610.16645, 2610.16615).
RESERVED_PREFIXES = ("2610.16614", "2610.16145", "2610.16645", "2610.16615")
# IDs the team writes wrongly: PolyHead 2610.16235 (queue); PowerCap 2609.24471 (Spark) is not a 2610 ID
RESERVED = {p[0] for p in PLANTED} | {"2610.16235", "2610.16145", "2610.16645", "2610.16615"}

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.16402", 44, "2026-10-14T00:00:00.000Z",
     "MeshTailor generates draped 3D garment meshes from 2D sewing patterns with a diffusion model.",
     ["garment generation", "diffusion", "3D meshes"], "https://github.com/meshtailor/meshtailor"),
    ("2610.16253", 28, "2026-10-14T00:00:00.000Z",
     "PolyHead adds lookahead prediction heads to the target model's last hidden state and verifies their tree in one pass, speeding up decoding 2.8x.",
     ["speculative decoding", "prediction heads", "tree verification"], "https://github.com/polyhead/polyhead"),
    ("2610.16139", 22, "2026-10-14T00:41:09.315Z",
     "PieceFill adds fixed-size prompt pieces to decode batches under a token budget, sustaining 5200 tokens/s per GPU.",
     ["LLM serving", "batching", "prefill", "TPOT"], None),
    ("2610.16614", 17, "2026-10-14T00:00:00.000Z",
     "TrimCache keeps recent tokens and heavy hitters within a fixed budget and evicts the rest, cutting KV cache memory by 62%.",
     ["KV cache eviction", "multi-turn chat", "long context"], None),
    ("2610.16926", 15, "2026-10-14T01:05:52.774Z",
     "PhaseQuant runs FP8 prefill and 4-bit decode instances, converting the KV cache in transfer, for 1.6x goodput.",
     ["quantization", "prefill-decode disaggregation", "goodput"], None),
    ("2610.17034", 13, "2026-10-14T02:11:38.090Z",
     "PromptEcho times the first token of probe prompts to reconstruct other tenants' prompts from a shared prefix cache.",
     ["security", "side channel", "prefix caching", "multi-tenant serving"], None),
    ("2610.16205", 12, "2026-10-14T00:00:00.000Z",
     "WattBatch picks per-step batch size and GPU clock to maximize tokens per joule under a rack power cap.",
     ["energy efficiency", "batching", "power capping", "LLM serving"], None),
    ("2610.16512", 10, "2026-10-14T01:47:20.661Z",
     "RackMoE partitions the expert co-activation graph so that experts used together share an NVLink domain, cutting cross-node traffic 41%.",
     ["mixture of experts", "expert placement", "expert parallelism"], None),
    ("2610.16448", 9, "2026-10-14T02:30:04.218Z",
     "UniPool pages LoRA adapters and KV cache in one memory pool and serves 2.3x more adapters at the same p99 TTFT.",
     ["LoRA serving", "memory management", "KV cache"], "https://github.com/unipool/unipool"),
    ("2610.16833", 8, "2026-10-14T00:00:00.000Z",
     "KeyFold caches low-rank projections of attention keys, reducing KV cache memory 3.2x.",
     ["KV cache compression", "low-rank projection", "long context"], None),
    ("2610.17096", 7, "2026-10-14T03:02:45.551Z",
     "BootLatch restores warmed-up inference engine processes from GPU checkpoints, starting a 70B replica in 6 s.",
     ["serverless inference", "checkpoint restore", "cold start"], None),
    ("2610.16059", 6, "2026-10-14T00:00:00.000Z",
     "ShallowDraft drafts with a learned subset of the target model's own layers, speeding up decoding 1.7x.",
     ["speculative decoding", "layer skipping", "self-speculation"], None),
    ("2610.16275", 5, "2026-10-14T00:00:00.000Z",
     "Batching sensor readings under deadlines lengthens wireless sensor network lifetime by 38%.",
     ["wireless sensor networks", "energy", "batching"], None),
]

DAY = Day(number=5, date="2026-10-14", pub="Wed, 14 Oct 2026 00:00:00 -0400",
          last_build="Wed, 14 Oct 2026 04:00:47 +0000", seed=20261014,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"PowerCap", "WattServe", "Energy-Aware"},
          ids=(16100, 17600), hf=HF, hf_published=("2026-10-13T00:00:00.000Z", "2026-10-13T20:00:00.000Z"),
          prefixes=("Brook", "Clove", "Delta", "Ferns", "Glade", "Hazel", "Knoll", "Marsh", "Pebble", "Ridge"))


if __name__ == "__main__":
    write_day(DAY)
