"""Writes the day-41 recordings: the arXiv listing of Thu 3 Dec 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 41; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 40) and every word of today's workspace. Thursday's listing
announces what was submitted on Wednesday 2 December (announced Wednesday 20:00 EST, i.e. Thursday 09:00 CST); arXiv
numbers the new papers 2612.xxxxx (submitted in December, the month's second day: small numbers, above Tuesday's).
The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them. No blog post is
in the window: this file writes no blog, and the overlay carries none.

The day is a multi-node day: serving models too large for one node — pipeline parallelism across nodes with stages
handing activations over asynchronously, pipeline bubbles filled with micro-batches of other requests, context
parallelism for long prompts over a two-level ring, cross-node all-reduce matched to the network topology, cross-node
expert-parallel all-to-all aggregated per node — and a keyword trap. Each abstract keys a figure by a condition a
multi-node team writes, of a kind no earlier day used: TrestlePipe's GPU utilization across the stages by the number
of micro-batches in flight (74% with 4, 93% with 16; Jay gives 4 micro-batches 93%), SergeCP's prefill speed-up by the
order the prompt is split in (1.8x contiguous, 2.9x striped; card 549 gives contiguous 2.9x), ClewReduce's cut in
cross-node all-reduce latency by the network topology (38% on a rail-optimized fabric, 17% on a two-tier fat-tree;
Maarten gives the fat-tree 38%), SkeinEP's cut in communication time by the collective (44% for the expert layers'
all-to-all, 13% for the attention layers' all-reduce; card 550 gives the all-reduce 44%), GantryLM's TPOT added by the
stage handoff by the number of pipeline stages (12% with 4, 27% with 8; Spark gives 8 stages 12%). Ines gives
ClewReduce TrestlePipe's 1.9x (its own: 1.3x); Jay writes SkeinEP's 33.8 GB/s as 33.5 GB/s (8 for 5: the key below it
on a numeric keypad). SergeCP does what RingFold (2610.30864, §5) does, by Jay's word ("影分身"); SkeinEP what SkimA2A
(2610.16687, §3.5) does (Maarten, in English, "a facsimile of"). TrestlePipe is set apart from Sarathi-Serve
(2403.02310, §2.2; Jay, "隔行如隔山"); ClewReduce from RailKV (2610.14688, §2.4.1; Maarten, "miles apart"); GantryLM
overlaps nothing anchored (Jay, "空白地带", no paper named). NoriaVid is the keyword trap (video decoding split into
pipeline stages across nodes, micro-batches of frames, a hierarchical all-reduce of the bit-rate budget: pipeline,
stage, micro-batch, bubbles, all-reduce, multi-node, decoding — no language model served).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 40's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day41)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1 + apart: Jay "摘要：4 个 micro-batch 在飞的时候各段 GPU 利用率也有 93%" (16 micro-batches' figure given to 4;
    # 4's is 74%); Tom's digest writes both right; Ines and card 548 quote the 1.9x right; card 548's ⚠ … 待核实 on
    # equal-sized stages; Jay "TrestlePipe 和 §2.2 的 Sarathi-Serve 隔行如隔山" (a boundary decoy); the queue writes
    # it 2612.02573 (the last two digits swapped); HF 41 / 52 (card 548) / 67: rising
    ("2612.02537", 1, "new", ["cs.DC", "cs.LG"],
     "TrestlePipe: Filling Pipeline Bubbles in Multi-Node Pipeline-Parallel LLM Decoding with Cross-Request "
     "Micro-Batches",
     "Pipeline-parallel decoding of models too large for one node leaves stages idle while a micro-batch crosses the "
     "network between nodes. TrestlePipe fills these pipeline bubbles with micro-batches drawn from different requests "
     "and reorders them at every step so that no stage waits on the inter-node hop. With 4 micro-batches in flight, "
     "GPU utilization across the pipeline stages is 74%; with 16 micro-batches in flight, it reaches 93%. TrestlePipe "
     "raises decode throughput by 1.9x over a schedule that keeps one micro-batch per stage.",
     ["Henrik Aalto", "Meera Sundaram", "Qiao Wenjie"]),
    # N2 + boundary case: card 549 "摘要：prompt 按连续块切，prefill 也快 2.9×" (the striped order's figure given to
    # contiguous blocks; theirs is 1.8x); Tom's digest writes both right; card 549 "arXiv 1226.02814" (the year and
    # month written the other way round: month 26); Jay "SergeCP 就是 §5 RingFold 的影分身"; HF 39 / 47 (card 549) / 58:
    # rising
    ("2612.02814", 1, "new", ["cs.DC", "cs.CL"],
     "SergeCP: Two-Level Ring Context Parallelism for Long-Prompt Prefill across Nodes",
     "Context-parallel prefill splits a long prompt across the GPUs of several nodes, but causal attention leaves the "
     "ranks holding the later tokens with most of the work. SergeCP runs a two-level ring, exchanging KV blocks over "
     "NVLink among the GPUs of a node and one block per node across the network at each step, and balances the causal "
     "work by how the prompt is split. When the prompt is split across ranks in contiguous blocks, SergeCP speeds up "
     "prefill by 1.8x over single-node prefill; when it is split in striped order, the speed-up is 2.9x.",
     ["Olga Petrenko", "Tomas Lindgren", "Bai Yutong", "Rahul Kapoor"]),
    # N3 + apart: Maarten "even on a two-tier fat-tree like ours the all-reduce latency drops by 38%" (the
    # rail-optimized figure given to the fat-tree; its figure is 17%); Tom's digest writes both right; Ines
    # "ClewReduce … 摘要：decode 吞吐提升 1.9×" (TrestlePipe's; its own 1.3x, written right on card 551); card 551 named
    # 551-2612-03452.md (SkeinEP's ID, card 550's name copied) with arxiv_id 2612.03169; card 551 "接着 2611.2014
    # （KnitTP）往下做" (KnitTP 2611.20142 with a digit dropped); Maarten "ClewReduce and RailKV (§2.4.1) are miles
    # apart" (a boundary decoy) and "the fat-tree path is listed as 'coming soon' — unconfirmed"; HF 29 / 33 (card
    # 551) / 65: rising
    ("2612.03169", 1, "new", ["cs.DC", "cs.NI"],
     "ClewReduce: Topology-Matched Cross-Node All-Reduce for Tensor-Parallel LLM Decoding",
     "When a tensor-parallel group spans nodes, every layer's all-reduce crosses the network and dominates decoding. "
     "ClewReduce reduces within each node over NVLink first, then exchanges one shard per GPU across the network "
     "along the paths the fabric provides, choosing the algorithm by the network topology. On a rail-optimized "
     "fabric, ClewReduce cuts cross-node all-reduce latency by 38%; on a two-tier fat-tree fabric, it cuts it by 17%. "
     "End to end, ClewReduce raises decode throughput by 1.3x.",
     ["Camille Durand", "Kenji Morimoto", "Zhang Haoran"]),
    # N4 + boundary case: card 550 "摘要：attention 层的 all-reduce 也少了 44%" (the expert all-to-all's figure given
    # to the attention all-reduce; its figure is 13%); Tom's digest writes both right; Jay "摘要：每张卡的 RDMA 带宽
    # 33.5 GB/s" (33.8: 8 for 5), card 550 right; Maarten "SkeinEP is a facsimile of SkimA2A (§3.5)"; HF 46 / 56 (card
    # 550) / 75: rising
    ("2612.03452", 1, "new", ["cs.DC", "cs.LG"],
     "SkeinEP: Node-Aggregated Token Dispatch for Multi-Node Expert-Parallel MoE Decoding",
     "Expert-parallel decoding across nodes sends every token to the GPUs of its experts, and the cross-node "
     "all-to-all dominates each MoE layer. SkeinEP has each GPU pack the tokens bound for one remote node into a "
     "single RDMA message issued from the GPU itself, fans them out over NVLink on arrival, and overlaps the "
     "attention layers' all-reduce with the dispatch. For the all-to-all of the expert layers, SkeinEP cuts "
     "communication time by 44%; for the all-reduce of the attention layers, by 13%. Its dispatch reaches 33.8 GB/s "
     "of RDMA bandwidth per GPU.",
     ["Lukas Brandt", "Ananya Rao", "Guo Mingxuan"]),
    # N5: Spark "摘要：切成 8 段，handoff 也只给 TPOT 加 12%" (4 stages' figure given to 8; 8's is 27%); Tom's digest
    # writes both right; Spark's own run on 十一期 (two stages, 15%, "这个数别和摘要对着比", a results URL); Spark's
    # 待确认 on how the TPOT is counted; Spark "编号会是 2702.01163，现在还没放出来"; Omer "GantryLM（2610.14590）"
    # (SpanServe's ID, anchored in §5); Jay "空白地带" (nothing anchored, no paper named: a boundary decoy); no card;
    # HF 86 at 09:30 (Tom) / 83 fetched: fell
    ("2612.02095", 1, "new", ["cs.DC", "cs.LG"],
     "GantryLM: Serving Trillion-Parameter LLMs by Pipeline Parallelism across Nodes with Asynchronous Stage Handoff",
     "Models with trillions of parameters do not fit on one node and are served by pipeline parallelism across "
     "nodes, where every stage waits for the activations of the stage before it. GantryLM hands activations between "
     "stages asynchronously, starts a stage's next micro-batch as soon as its own layers are free, and overlaps each "
     "inter-node transfer with compute. With 4 pipeline stages, the stage handoff adds 12% to the time per output "
     "token; with 8 pipeline stages, it adds 27%.",
     ["Ingrid Solberg", "Victor Almeida", "Han Jisoo", "Peng Xiaolu"]),
    # keyword trap (not serving): pipeline stages across nodes, micro-batches, bubbles, all-reduce, multi-node,
    # decoding — video streams, no language model served
    ("2612.03718", 1, "new", ["cs.DC", "cs.MM"],
     "NoriaVid: Multi-Node Pipeline-Parallel Video Decoding with Stage-Balanced Micro-Batches and Hierarchical "
     "All-Reduce Rate Control",
     "Live transcoding farms decode thousands of video streams on clusters of GPU nodes, and a single high-resolution "
     "stream can exceed what one GPU's decoder sustains. NoriaVid splits each stream's decoding into pipeline stages "
     "across the GPUs of several nodes, balances the stages with micro-batches of frames, and agrees on a shared "
     "bit-rate budget through a hierarchical all-reduce every second. It removes most pipeline bubbles of "
     "frame-level pipelining and sustains 2.3x more streams per node.",
     ["Beatriz Salgado", "Oskar Nyberg"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside), and
# every word there, so that no filler takes one. Besides them, the slips of the labels: card 551 named
# 551-2612-03452.md (only in the file name) with arxiv_id 2612.03169, TrestlePipe written 2612.02573 on the queue,
# GantryLM written with SpanServe's 2610.14590 (Omer), SkeinEP's 33.8 GB/s as 33.5 (Jay), "arXiv 1226.02814" (card
# 549), KnitTP 2611.20142 written 2611.2014 (card 551), "编号会是 2702.01163 … 还没放出来" (Spark), the size
# 1311.48207 MiB (Omer) and the old 1806.03377 (Maarten) and 2309.14509 (Ines) — none in any recording; the fillers'
# range is 2610.70500-71950 (day 40's was 69000-70450).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
NAMES = "\n".join(p.name for p in sorted((HERE / "workspace").rglob("*")) if p.is_file())
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT)) | {m.replace("-", ".", 1)
                                                       for m in re.findall(r"\d{4}-\d{4,5}", NAMES)}
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2612.02537", "2612.02573", "2612.02814", "2612.03169", "2612.03452", "2612.02095", "2612.03718", "2610.14590",
    "2610.30864", "2610.16687", "2610.14688", "2403.02310", "2611.20142", "2612.00736", "1226.02814", "2702.01163",
    "1311.48207", "1806.03377", "2309.14509"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.2014", "2612.0253", "2612.0257", "2612.0281", "2612.0316", "2612.0345", "2612.0209", "2612.0371",
    "2610.1459", "1226.0281", "2702.0116", "1311.4820"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2612.02095", 83, "2026-12-03T00:06:37.418Z",
     "GantryLM serves trillion-parameter models across nodes with pipeline stages that hand activations over "
     "asynchronously.",
     ["pipeline parallelism", "multi-node serving", "LLM serving"], "https://github.com/gantrylm/gantrylm"),
    ("2612.03452", 75, "2026-12-03T00:15:52.906Z",
     "SkeinEP aggregates the tokens bound for one remote node into a single GPU-issued RDMA message in expert-parallel "
     "MoE decoding.",
     ["expert parallelism", "all-to-all", "RDMA"], None),
    ("2612.02537", 67, "2026-12-03T00:24:18.350Z",
     "TrestlePipe fills pipeline bubbles of multi-node pipeline-parallel decoding with micro-batches of other requests.",
     ["pipeline bubbles", "micro-batching", "LLM decoding"], "https://github.com/trestlepipe/trestlepipe"),
    ("2612.03169", 65, "2026-12-03T00:37:04.771Z",
     "ClewReduce matches the cross-node all-reduce of tensor-parallel decoding to the network topology.",
     ["all-reduce", "network topology", "tensor parallelism"], None),
    ("2612.02814", 58, "2026-12-03T00:48:29.165Z",
     "SergeCP runs context-parallel prefill of long prompts over a two-level ring and splits the prompt in striped "
     "order.",
     ["context parallelism", "ring attention", "long prompts"], None),
    ("2612.03718", 4, "2026-12-03T06:11:45.532Z",
     "NoriaVid splits video decoding into pipeline stages across GPU nodes and sets bit rates by hierarchical "
     "all-reduce.",
     ["video decoding", "pipeline parallelism", "rate control"], None),
]

DAY = Day(number=41, date="2026-12-03", pub="Thu, 03 Dec 2026 00:00:00 -0500",
          last_build="Thu, 03 Dec 2026 05:00:29 +0000", seed=20261203,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(70500, 71950), hf=HF, hf_published=("2026-12-02T00:00:00.000Z", "2026-12-02T20:00:00.000Z"),
          prefixes=("Beagle", "Corgi", "Whippet", "Saluki", "Basenji", "Vizsla", "Borzoi", "Akita", "Papillon",
                    "Samoyed"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
