"""Writes the day-32 recordings: the arXiv listing of Fri 20 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 32; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 31). Friday's listing announces what was submitted on
Thursday (announced Thursday 20:00 EST, i.e. Friday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The
fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is an attention-kernel and compiler day: five new papers (an FP8 attention kernel, a paged decode kernel
for ragged batches, a Triton configuration predictor, CUDA graphs kept across restarts, a torch.compile fusion
pass) and a keyword trap. Spark benchmarks VeloAttn on H100 and H20 (his H100 cell at head dimension 128 is
1190 TFLOPS, the abstract's 1,310; the H20 column and the head-dimension-64 row are other setups). KernCast does
what TileTune (2610.20271, §3.3: "attention kernel tile sizes and pipeline depth predicted per GPU from a few
hardware counters, no search") does, by Jay's word ("复制粘贴"); GraphKeep what GraphStash (2611.00384, §2.1:
"captured CUDA graphs serialized with their batch shapes and memory layout, reloaded at the next start instead of
captured again") does, by Maarten's English card ("by another name"). VeloAttn overlaps nothing anchored in §3.3
(Jay, "独一份"); JagPage is set apart from SliceDecode (2610.35546, §3.3) and TraceFuse from FlashPD (2610.11842,
§3.3) by Ines ("不挨边", "两条路子"). WeaveGAT is the keyword trap (graph attention networks, no LLM).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 31's do.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day32)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary decoy (Jay: "VeloAttn 在 §3.3 里是独一份", no paper named); Spark's microbenchmark table: H100 at
    # head dimension 128 1190 TFLOPS (the abstract: 1,310), H20 231, head dimension 64 905 (other setups); Ines's
    # handout cites "arXiv 2613.17236" (month 13); HF 46 (Tom 09:30) / 53 (card 512, 16:00) / 58 (fetch): rising
    ("2611.17236", 1, "new", ["cs.LG", "cs.PF"],
     "VeloAttn: Offloading the Softmax Exponential from Special Function Units to FMA Pipes in FP8 Attention "
     "on Hopper GPUs",
     "In FP8 attention on Hopper GPUs the tensor cores run twice as fast as in BF16, and the exponentials of the "
     "softmax, computed by the special function units, become the bottleneck at head dimension 128. VeloAttn "
     "computes part of the exponentials with a cubic polynomial on the FMA pipes, balances the two units per tile, "
     "and overlaps both with the matrix multiplications across two consumer warpgroups. On H100 SXM at head "
     "dimension 128 and 16K tokens, VeloAttn's forward pass reaches 1,310 TFLOPS, 66% of the GPU's FP8 dense peak, "
     "1.14x the throughput of the FP8 forward kernel of FlashAttention-3, with the same accuracy on long-context "
     "benchmarks.",
     ["Kaito Morishita", "Annelie Bergström", "Xu Haoran"]),
    # boundary decoy (Ines: "JagPage 和 §3.3 的 SliceDecode（2610.35456）不挨边", SliceDecode's ID with two digits
    # swapped); Jay writes "1.7× over FlashAttention-2" (the abstract: 2.3x); Omer writes "JagPage（2612.17418）";
    # card 513 writes https://arxiv.org/pdf/2611.1741 (four digits); HF 24 / 31 (card 513, 16:10) / 39: rising
    ("2611.17418", 1, "new", ["cs.DC", "cs.LG"],
     "JagPage: One-Launch Decode Attention over Paged KV Caches for Ragged Batches",
     "Paged KV caches scatter each request's keys and values over fixed-size pages, and decode attention kernels "
     "pay for the indirection with gathers that leave memory bandwidth unused, most of all when a batch mixes short "
     "and long contexts. JagPage loads the pages of a ragged decode batch with the Hopper tensor memory accelerator "
     "through a per-launch page list, so that the paged kernel streams them as fast as a contiguous cache, and runs "
     "the whole batch in one launch. For a batch of 64 requests with contexts from 1K to 32K tokens on H100, "
     "JagPage's kernel latency is 47 µs per call, 2.3x faster than FlashAttention-2's paged decode kernel and 1.4x "
     "faster than vLLM's paged attention kernel.",
     ["Priyanka Venkatesan", "Jonas Albrecht", "Qiu Mingze"]),
    # boundary case (Jay: "KernCast 基本是 §3.3 TileTune 的复制粘贴"); Spark writes "KernCast（2611.17650）",
    # GraphKeep's ID; no card; HF 14 (Tom 09:30) / 25 (fetch): rising
    ("2611.17593", 1, "new", ["cs.LG", "cs.PF"],
     "KernCast: Predicting Triton Attention Kernel Configurations from Hardware Counters without Autotuning",
     "Triton attention kernels are autotuned over tile sizes, warp counts and pipeline stages for every GPU and "
     "shape, which takes tens of minutes per kernel. KernCast profiles one run of the kernel, reads a few hardware "
     "counters, and predicts the tile sizes, the number of warps and the pipeline depth with a model trained across "
     "GPU generations, without any search. Its configurations run within 3% of the exhaustively autotuned ones on "
     "H100, H20 and A100, and cut tuning time from 40 minutes to 12 seconds per kernel.",
     ["Lucía Herrero", "Mikkel Dahl", "Zhao Wenjie"]),
    # boundary case (Maarten's English card 514: "GraphKeep is GraphStash by another name"); Jay: its README calls
    # it "2611.0038 的二代" (GraphStash is 2611.00384); HF 33 (Tom 09:30) / 30 (card 514, 16:20) / 44 (fetch): fell
    ("2611.17650", 1, "new", ["cs.DC", "cs.LG"],
     "GraphKeep: Reusing Captured CUDA Graphs across Restarts of LLM Serving Engines",
     "A serving engine captures one CUDA graph per decode batch size at every start, and the capture dominates "
     "warm-up for large models. GraphKeep records the captured graphs together with the layout of their memory "
     "pool, writes them to local disk, and on the next start restores the pool at the same addresses and reloads "
     "the graphs instead of capturing them again. With Llama-3-70B on eight H100 GPUs, GraphKeep cuts engine "
     "warm-up from 96 s to 14 s with identical decode latency.",
     ["Sebastián Cortés", "Hyejin Yoon", "Olamide Adeyemi"]),
    # boundary decoy (Ines: "TraceFuse 和 §3.3 的 FlashPD 是两条路子"); card 515 is named 515-2611-17892.md with
    # arxiv_id 2611.17829 and writes "每个输出 token 省 83 µs（摘要）" (the abstract: 38 µs); HF 12 / 16 / 22: rising
    ("2611.17829", 1, "new", ["cs.LG", "cs.PL"],
     "TraceFuse: A torch.compile Pass that Fuses Rotary Embedding, Paged KV Writes and the Attention Prologue "
     "in LLM Decoding",
     "In LLM decoding at small batch sizes, the kernels around attention (the rotary embedding, the write of the new "
     "key and value into the paged cache, and the layout changes before the attention kernel) cost more in launches "
     "than in compute. TraceFuse is a torch.compile backend pass that recognises this pattern in the traced graph "
     "and emits one Triton kernel for it, leaving the attention kernel unchanged. At batch size 1 on H100 with "
     "Llama-3-8B, TraceFuse saves 38 µs per output token and lowers decode latency by 6%.",
     ["Margit Halvorsen", "Daniel Okoye", "Wang Shuyi"]),
    # keyword trap (not LLM inference): attention kernels, a compiler, Triton, kernel latency, % of peak,
    # inference — graph attention networks
    ("2611.17964", 1, "cross", ["cs.SI", "cs.LG"],
     "WeaveGAT: Compiling Fused Sparse Attention Kernels for Graph Attention Networks",
     "Graph attention networks spend most of their time in attention over the edges of sparse graphs, computed by "
     "separate kernels for the edge scores, the edge softmax and the neighbour aggregation. WeaveGAT is a compiler "
     "that fuses the three into one Triton kernel per layer, ordering the edges so that each thread block reads a "
     "contiguous slice of the adjacency. On OGB node-classification graphs, WeaveGAT reaches 41% of the GPU's peak "
     "FLOPS in training and inference and runs 3.2x faster than PyTorch Geometric, with a kernel latency of 0.9 ms "
     "per layer on ogbn-products.",
     ["Fionnuala Byrne", "Arjun Mehta"]),
]

# IDs the team writes wrongly — JagPage written 2612.17418 (Omer, a month later), TraceFuse's card named
# 2611.17892, KernCast written beside GraphKeep's 2611.17650 (Spark), SliceDecode written 2610.35456 (Ines),
# "2611.0038" (Jay, GraphStash's with a digit dropped, beside 二代), "https://arxiv.org/pdf/2611.1741" (card 513,
# JagPage's with a digit dropped), "arXiv 2613.17236" (Ines, month 13), the trace size 1207.96544 MB (Omer) and the
# old 1508.04025 (Ines) — none in any recording; the fillers' range is 2610.57000-58450 (day 31's was 55500-56950).
RESERVED = {p[0] for p in PLANTED} | {"2612.17418", "2611.17892", "2610.35456", "2610.35546", "2611.00384",
                                       "2610.20271", "2610.11842", "2613.17236", "1207.96544", "1508.04025"}
RESERVED_PREFIXES = ("2611.0038", "2611.1741", "2612.1741", "2611.1789", "2610.3545", "2610.3554", "2610.2027",
                     "2610.1184")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.17236", 58, "2026-11-20T00:11:42.615Z",
     "VeloAttn moves part of the softmax exponentials of FP8 attention from the special function units to the "
     "FMA pipes on Hopper GPUs.",
     ["FP8 attention", "FlashAttention", "Hopper"], "https://github.com/veloattn/veloattn"),
    ("2611.17650", 44, "2026-11-20T00:23:09.874Z",
     "GraphKeep saves captured CUDA graphs with their memory pool layout and reloads them at the next engine start.",
     ["CUDA graphs", "warm-up", "serving engines"], None),
    ("2611.17418", 39, "2026-11-20T00:37:51.202Z",
     "JagPage runs paged decode attention for a ragged batch in one launch, loading pages with the tensor memory "
     "accelerator.",
     ["paged attention", "decode kernels", "TMA"], None),
    ("2611.17593", 25, "2026-11-20T00:52:26.538Z",
     "KernCast predicts Triton attention kernel configurations from hardware counters instead of autotuning.",
     ["Triton", "autotuning", "attention kernels"], None),
    ("2611.17829", 22, "2026-11-20T01:06:13.947Z",
     "TraceFuse fuses rotary embedding, paged KV writes and layout changes before attention into one Triton "
     "kernel in torch.compile.",
     ["torch.compile", "kernel fusion", "decoding"], None),
    ("2611.17964", 6, "2026-11-20T05:44:38.129Z",
     "A compiler fusing the edge attention kernels of graph attention networks into one Triton kernel per layer.",
     ["graph attention networks", "kernel fusion", "Triton"], None),
]

DAY = Day(number=32, date="2026-11-20", pub="Fri, 20 Nov 2026 00:00:00 -0500",
          last_build="Fri, 20 Nov 2026 05:00:37 +0000", seed=20261120,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"TileTune", "GraphStash", "SliceDecode", "FlashPD",
                                                                  "ScaleMint", "FlashAttention", "PrimeCtx",
                                                                  "SnapBoot", "Lathe", "WireQuant", "LoanHBM",
                                                                  "SwayPD", "TailKV", "FerryKV"},
          ids=(57000, 58450), hf=HF, hf_published=("2026-11-19T00:00:00.000Z", "2026-11-19T20:00:00.000Z"),
          prefixes=("Linen", "Velvet", "Satin", "Cashmere", "Mohair", "Jersey", "Burlap", "Chenille", "Paisley",
                    "Suede"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
