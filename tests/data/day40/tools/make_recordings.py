"""Writes the day-40 recordings: the arXiv listing of Wed 2 Dec 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 40; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 39) and every word of today's workspace. Wednesday's listing
announces what was submitted on Tuesday 1 December (announced Tuesday 20:00 EST, i.e. Wednesday 09:00 CST); arXiv
numbers the new papers 2612.xxxxx (submitted in December, the month's first day: small numbers). The fillers keep the
shared generator's 2610 numbers (it writes no other month); no rule reads them. No blog post is in the window: this
file writes no blog, and the overlay carries none.

The day is a memory-offloading day: serving when the weights or the KV cache do not fit in GPU memory — KV blocks
offloaded to host DRAM and NVMe SSDs and fetched back one layer ahead; whole requests' KV caches swapped out by the
scheduler's plan under a fixed GPU memory budget; the layers of a model larger than GPU memory streamed from pinned
host memory ahead of use; MoE experts kept in host memory and prefetched with a window that widens with depth;
offloaded KV pages placed on the CPU socket of the GPU that reads them — and a keyword trap. Each abstract keys a
figure by a condition an offloading team writes, of a kind no earlier day used: BurrowKV's decode tokens/s by where
the offloaded blocks live (860 in host DRAM, 410 on NVMe SSDs; Jay gives NVMe 860), BerthKV's TPOT increase by the
GPU memory budget for the KV cache (14% at 40 GB, 37% at 16 GB; card 545 gives 16 GB 14%), SluiceLM's slowdown
against all-in-GPU by how much of the model is offloaded (1.3x with a third of the layers, 2.8x with two thirds;
Spark gives two thirds 1.3x), ForeMoE's prefetch hit rate by layer depth (92% in the later layers, 57% in the first
layers; card 546 gives the first layers 92%), HearthKV's decode throughput gain by the number of CPU sockets (1.4x on
two-socket hosts, 2.1x on four-socket hosts; Maarten gives two-socket 2.1x). Ines gives BerthKV SluiceLM's 61 GB
(its own: 33 GB); card 547 writes HearthKV's 24.6 GB/s as 22.6 GB/s (the first digit typed twice in place of its
neighbour). BurrowKV does what TierKV (2610.11305, §2.1) does, by Jay's word ("重制版"); ForeMoE what GlideMoE
(2611.07563, §3.5) does ("复制品"). BerthKV is set apart from MemPilot (2610.13737, §2.1; Jay, "楚河汉界"); SluiceLM
from FlumeLoad (2611.21357, §2.1; Maarten, in English, "a whole other ballgame"); HearthKV overlaps nothing anchored
(Jay, "蓝海", no paper named). BobbinGraph is the keyword trap (edge blocks of graphs larger than GPU memory offloaded
to host DRAM, CXL memory and NVMe SSDs and prefetched one iteration ahead: offload, prefetch, CXL, NVMe, GPU memory,
decode, PCIe bandwidth — graph analytics, no language model served).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 39's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day40)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1 + boundary case: Jay "摘要：KV 全放 NVMe 上也有 860 tokens/s 的 decode 吞吐" (the host-DRAM figure given to
    # NVMe; NVMe's is 410); Tom's digest and card 544 write both right; card 544's 68% right; card 544 "脱胎于
    # 2610.1130" (TierKV 2610.11305 with a digit dropped) and "Gen4 的盘没测 — needs check"; Jay "BurrowKV 就是 §2.1
    # TierKV 的重制版"; Spark writes BurrowKV's ID beside ForeMoE's name; HF 64 / 76 (card 544) / 88: rising
    ("2612.00462", 1, "new", ["cs.DC", "cs.LG"],
     "BurrowKV: Layer-Ahead Prefetching of Offloaded KV Blocks from Host DRAM and NVMe SSDs for Long-Conversation "
     "LLM Serving",
     "Long conversations outgrow GPU memory, and engines that offload the KV cache stall decode whenever a block must "
     "come back from a slower tier. BurrowKV keeps each request's most recent KV blocks in GPU memory, offloads the "
     "older ones to host DRAM or to NVMe SSDs, and fetches the blocks of the next layer while the current layer "
     "computes, reading first the blocks that drew the most attention in the previous step. When the offloaded blocks "
     "live in host DRAM, BurrowKV sustains 860 decode tokens/s; when they live on NVMe SSDs, it sustains 410 decode "
     "tokens/s. BurrowKV cuts the GPU memory held by the KV cache by 68%.",
     ["Matthias Brenner", "Aiko Tanabe", "Liu Zhenyu"]),
    # N2: card 545 "摘要：显存预算压到 16 GB，TPOT 也只多 14%" (the 40 GB budget's figure given to 16 GB; 16 GB's is
    # 37%); Tom's digest writes both right; Ines "BerthKV … 摘要：每个副本省出 61 GB 显存" (SluiceLM's; its own is
    # 33 GB); card 545 "https://arxiv.org/html/2621.00736v1" (month 21, the month's digits swapped); Spark's 待确认 on
    # what the TPOT counts; boundary decoy (Jay: "BerthKV 和 §2.1 的 MemPilot 楚河汉界"); HF 55 / 66 (card 545) / 94:
    # rising
    ("2612.00736", 1, "new", ["cs.DC", "cs.OS"],
     "BerthKV: Scheduler-Planned Swapping of Whole-Request KV Caches to Host Memory under a Fixed GPU Memory Budget",
     "When the KV caches of all running requests do not fit in GPU memory, engines swap blocks out on demand and "
     "stall the step that needs them back. BerthKV reads the scheduler's plan for its next batches, moves to host "
     "memory the KV caches of requests that will not run in them, and brings each cache back ahead of the step that "
     "runs it. With a 40 GB GPU memory budget for the KV cache, time per output token rises by only 14% over keeping "
     "every cache resident; with a 16 GB budget, it rises by 37%. BerthKV frees 33 GB of GPU memory per replica at "
     "the same throughput.",
     ["Fatima Idrissi", "Gustavo Pereira", "Wang Shuhan", "Niklas Holm"]),
    # N3: Spark "摘要：卸掉三分之二的层也只慢 1.3×" (the one-third figure given to two thirds; two thirds' is 2.8x);
    # Tom's digest writes both right; Spark's own run on 十期 (1.9x with half the layers offloaded, "和论文差得远，这个数
    # 别和摘要对着比", a results URL); Ines quotes 61 GB right (and gives it to BerthKV); Maarten "SluiceLM and FlumeLoad
    # (§2.1) are a whole other ballgame" (boundary decoy) and "only takes BF16 checkpoints … — TBV"; no card;
    # HF 74 / 98: rising
    ("2612.01053", 1, "new", ["cs.LG", "cs.DC"],
     "SluiceLM: Serving LLMs Larger than GPU Memory by Streaming Offloaded Layers from Pinned Host Memory Ahead of Use",
     "A model whose weights exceed GPU memory can still be served if the missing layers are copied in just before "
     "they run, but naive offloading leaves the GPU idle during every copy. SluiceLM keeps resident the layers the "
     "memory can hold, streams the others from pinned host memory two layers ahead of use, and overlaps each copy "
     "with the attention of the layers before it. With a third of its layers offloaded, SluiceLM decodes 1.3x slower "
     "than with every layer resident in GPU memory; with two thirds of its layers offloaded, it decodes 2.8x slower. "
     "SluiceLM frees up to 61 GB of GPU memory per replica.",
     ["Eleanor Whitfield", "Dong Jiahui", "Arjun Mehta"]),
    # N4 + boundary case: card 546 "摘要：前几层的预取命中率也有 92%" (the later layers' figure given to the first
    # layers; theirs is 57%); Tom's digest writes both right; card 546's 37 GB right; Jay "ForeMoE 是 §3.5 GlideMoE
    # 的复制品"; Spark "ForeMoE（2612.00462）" (BurrowKV's ID); HF 67 (09:30) / 81 (card 546, 16:20) / 77 (fetch):
    # fell at the fetch
    ("2612.01382", 1, "new", ["cs.LG", "cs.DC"],
     "ForeMoE: Depth-Aware Prefetching of Offloaded Experts from Host Memory for MoE LLM Decoding",
     "MoE models whose experts do not fit in GPU memory keep most experts in host memory and fetch the ones the "
     "router picks, stalling every layer that misses. ForeMoE predicts the next layer's experts from the current "
     "layer's router scores and fetches them while the current layer computes, with a prefetch window that widens "
     "with depth. The prefetch hit rate is 92% in the model's later layers but only 57% in its first layers, where "
     "routing is least predictable. Offloading the experts frees 37 GB of GPU memory on each replica.",
     ["Yusuf Demir", "Chen Ruoxi", "Sofia Marchetti"]),
    # N5: Maarten "From the abstract: even on two-socket hosts the decode throughput gain is 2.1x" (the four-socket
    # figure given to two sockets; two sockets' is 1.4x); Tom's digest writes both right; card 547 "从 host 内存读 KV
    # 的带宽 22.6 GB/s（摘要）" (24.6 GB/s: the first digit typed twice), named 547-2512-01629.md with arxiv_id
    # 2612.01629 (last year's December); Maarten's alphaXiv link "2612.1629" (a digit dropped) and "to be posted as
    # 2701.02246 … not out yet"; Ines heads her entry "HearthKV（2612.01269）" (an unknown ID, two digits swapped);
    # boundary decoy (Jay: "蓝海", no paper named); HF 32 / 35 (card 547) / 79: rising
    ("2612.01629", 1, "new", ["cs.DC", "cs.AR"],
     "HearthKV: Placing Offloaded KV Pages on the CPU Socket of the GPU That Reads Them",
     "Servers that offload KV caches to host memory place the pages wherever the allocator finds room, so a GPU "
     "often reads its KV across the inter-socket interconnect. HearthKV allocates every offloaded page on the NUMA "
     "node of the GPU that will read it and migrates the pages when a request moves to a GPU on another socket. On "
     "two-socket hosts, HearthKV raises decode throughput by 1.4x over NUMA-oblivious placement; on four-socket "
     "hosts, it raises decode throughput by 2.1x. Its KV reads from host memory reach 24.6 GB/s.",
     ["Pieter de Vries", "Cho Minjun", "Xu Lanting"]),
    # keyword trap (not serving): offload, prefetch, host DRAM, CXL memory, NVMe SSDs, larger than GPU memory, decodes,
    # PCIe bandwidth — edge blocks of graphs, no language model served
    ("2612.01907", 1, "new", ["cs.DC", "cs.DB"],
     "BobbinGraph: Prefetching Offloaded Edge Blocks from Host DRAM, CXL Memory and NVMe SSDs for "
     "Larger-than-GPU-Memory Graph Analytics",
     "Graphs with tens of billions of edges do not fit in GPU memory, and out-of-core GPU graph systems stall on "
     "every page they fault in. BobbinGraph offloads compressed edge blocks across host DRAM, CXL-attached memory "
     "and NVMe SSDs, decodes them on the GPU, and prefetches the blocks the next traversal frontier will touch one "
     "iteration ahead. On breadth-first search and PageRank it runs 3.4x faster than unified-memory paging while "
     "keeping 89% of the PCIe bandwidth busy.",
     ["Hugo Lefebvre", "Amara Nwosu"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside), and
# every word there, so that no filler takes one. Besides them, the slips of the labels: card 547 named
# 547-2512-01629.md (only in the file name), ForeMoE written with BurrowKV's 2612.00462 (Spark), HearthKV written
# 2612.01269 (Ines), LoftKV 2611.03741 written 2611.03714 (Omer), BerthKV's HTML link with month 21, 2621.00736
# (card 545), TierKV 2610.11305 written 2610.1130 (card 544), HearthKV's alphaXiv link with four digits, 2612.1629
# (Maarten), "to be posted as 2701.02246 … not out yet" (Maarten), the size 1108.36024 GiB (Omer) and the old
# 2303.06865 (Ines) and 2104.07857 (Maarten) — none in any recording; the fillers' range is 2610.69000-70450 (day 39's
# was 67500-68950).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
NAMES = "\n".join(p.name for p in sorted((HERE / "workspace").rglob("*")) if p.is_file())
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT)) | {m.replace("-", ".", 1)
                                                       for m in re.findall(r"\d{4}-\d{4,5}", NAMES)}
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2512.01629", "2612.00462", "2612.01269", "2611.03714", "2611.03741", "2621.00736", "2610.11305", "2611.07563",
    "2610.13737", "2611.21357", "2611.29718", "2611.31392", "2701.02246", "1108.36024", "2303.06865", "2104.07857"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2610.1130", "2612.1629", "2612.0046", "2612.0073", "2612.0105", "2612.0138", "2612.0162", "2612.0190",
    "2612.0126", "2512.0162", "2621.0073", "2611.0371", "2701.0224", "1108.3602"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2612.01053", 98, "2026-12-02T00:04:51.207Z",
     "SluiceLM serves models larger than GPU memory by streaming offloaded layers from pinned host memory ahead of use.",
     ["weight offloading", "layer streaming", "LLM serving"], "https://github.com/sluicelm/sluicelm"),
    ("2612.00736", 94, "2026-12-02T00:17:26.893Z",
     "BerthKV swaps whole requests' KV caches to host memory following the scheduler's plan for its next batches.",
     ["KV cache swapping", "GPU memory budget", "scheduling"], None),
    ("2612.00462", 88, "2026-12-02T00:28:03.519Z",
     "BurrowKV offloads older KV blocks to host DRAM or NVMe SSDs and fetches them back one layer ahead of decode.",
     ["KV cache offloading", "NVMe", "prefetching"], "https://github.com/burrowkv/burrowkv"),
    ("2612.01629", 79, "2026-12-02T00:39:42.160Z",
     "HearthKV places offloaded KV pages on the NUMA node of the GPU that reads them and migrates them with requests.",
     ["NUMA", "KV cache offloading", "host memory"], None),
    ("2612.01382", 77, "2026-12-02T00:52:18.734Z",
     "ForeMoE prefetches offloaded MoE experts from host memory with a prefetch window that widens with layer depth.",
     ["mixture of experts", "expert offloading", "prefetching"], None),
    ("2612.01907", 5, "2026-12-02T06:22:09.581Z",
     "BobbinGraph prefetches offloaded edge blocks from host DRAM, CXL memory and NVMe for out-of-core graph analytics.",
     ["graph analytics", "out-of-core", "CXL"], None),
]

DAY = Day(number=40, date="2026-12-02", pub="Wed, 02 Dec 2026 00:00:00 -0500",
          last_build="Wed, 02 Dec 2026 05:00:37 +0000", seed=20261202,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(69000, 70450), hf=HF, hf_published=("2026-12-01T00:00:00.000Z", "2026-12-01T20:00:00.000Z"),
          prefixes=("Garamond", "Baskerville", "Helvetica", "Futura", "Bodoni", "Didot", "Caslon", "Palatino",
                    "Rockwell", "Frutiger"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
