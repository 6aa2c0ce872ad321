"""Writes the day-34 recordings: the arXiv listing of Tue 24 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 34; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 33) and every word of today's workspace. Tuesday's listing
announces what was submitted on Monday (announced Monday 20:00 EST, i.e. Tuesday 09:00 CST); arXiv numbers the new
papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads
them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a reasoning-model serving and tensor-parallel communication day: five new papers (per-request
thinking-token budgets counted in the decode loop, a reasoning trace ended once its intermediate answers agree, weak
parallel samples of best-of-N pruned by a process reward model, output lengths predicted from the prefill hidden
state for routing, the TP all-reduce overlapped with GEMM tiles on NVLink and PCIe) and a keyword trap. ThinkMeter's
abstract gives one figure per model (38% on R1-Distill-Qwen-32B, 29% on QwQ-32B); Jay writes 38% for both.
ExitProbe's abstract says 44% within 1 point; Ines quotes ThinkMeter's 38% and 0.5 points for it. KnitTP's abstract
gives 1.31x on NVLink (H100) and 1.72x on PCIe (L40S); Jay gives PCIe the NVLink factor. FanPrune's reward model adds
2.1 ms to the time per output token; card 521 writes 2.1 s. FanPrune does what BranchCut (2611.04868, §2.2) does, by
Jay's word ("旧酒新瓶"); LenScout what PredRoute (2610.15426, §2.3) does, by Maarten's English card ("rebadged").
ExitProbe is set apart from BranchCut (Ines, "不是一个路数"), ThinkMeter from QuotaGate (2610.22264; Jay, "两码事");
KnitTP overlaps nothing anchored (Jay, "没有先例"). ChainSkip is the keyword trap (early exit of converged MCMC traces
with an overlapped all-reduce, for Bayesian inference; no language model).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 33's do. Day 34 was first written
without the shared generator; this version keeps its planted papers and HF entries, and the listing's 88 items
(71 new, 9 cross, 5 replace, 3 replace-cross), but the fillers, the rights and the HF fields the generator derives
(hex ids, numComments, githubStars, followerCount) are the generator's.
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day34)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1: Jay "R1-Distill-Qwen-32B 和 QwQ-32B 上都省了 38%" (one figure for two models; QwQ-32B's is 29%); boundary
    # decoy (Jay: "和 §2.2 的 QuotaGate 是两码事"); Spark writes "ThinkMeter（2611.19248）" (two digits swapped) and
    # measures 33% on the team's own question set; HF 64 (Tom 09:30) / 46 (card 520, 16:00) / 87 (fetch): fell
    ("2611.19284", 1, "new", ["cs.DC", "cs.LG"],
     "ThinkMeter: Enforcing Per-Request Thinking-Token Budgets inside the Decode Loop of Reasoning-Model Servers",
     "Reasoning models spend most of their decode time on thinking tokens, and the thinking length of a request "
     "varies by two orders of magnitude, so that a serving system can neither plan its batches nor bound its tail "
     "latency. ThinkMeter gives each request a thinking-token budget predicted from its task class, counts thinking "
     "tokens inside the decode loop, and inserts the end-of-thinking token when the budget runs out, so that the "
     "answer is still produced. On 8 H100 GPUs, ThinkMeter saves 38% of thinking tokens on "
     "DeepSeek-R1-Distill-Qwen-32B and 29% on QwQ-32B, keeps accuracy within 0.5 points on MATH-500, and raises "
     "goodput under a 90 s end-to-end latency SLO to 1.8x that of vLLM without budgets.",
     ["Hedda Lindqvist", "Arjun Mehta", "Zhou Yiran"]),
    # boundary case (Jay: "FanPrune 就是 §2.2 BranchCut（2611.04868）的旧酒新瓶"); card 521 writes "TPOT 多 2.1 s"
    # (the abstract: 2.1 ms) and "https://arxiv.org/html/2611.1951" (a digit dropped); HF 22 / 36 (card) / 49: rising
    ("2611.19517", 1, "new", ["cs.LG", "cs.DC"],
     "FanPrune: Pruning Weak Parallel Reasoning Samples Early with Step-Level Reward Scores in LLM Serving",
     "Test-time scaling samples many reasoning paths per request and keeps the best one, multiplying decode work and "
     "KV cache memory. FanPrune scores every running sample with a 1.5B process reward model every 64 tokens, stops "
     "the samples whose scores fall below the running median of their request, and frees their KV blocks for new "
     "requests. For best-of-16 sampling with DeepSeek-R1-Distill-Qwen-32B on H200 GPUs, FanPrune reaches 3,120 "
     "tokens/s per GPU, 2.3x best-of-16 without pruning, and matches its accuracy to within 0.3 points. The reward "
     "model adds 2.1 ms to the time per output token.",
     ["Mateus Carvalho", "Ilse Vermeulen", "Park Jiwoo"]),
    # N3: Ines quotes "thinking token 省了 38%，精度差在 0.5 个点以内" (ThinkMeter's figures; ExitProbe's are 44% and
    # 1 point); Jay quotes 44% and "96 s → 58 s" right; boundary decoy (Ines: "和 §2.2 的 BranchCut 不是一个路数");
    # Ines writes "LenScout（2611.19663）", this paper's ID beside LenScout's name; no card; HF 57 / 75: rising
    ("2611.19663", 1, "new", ["cs.CL", "cs.LG"],
     "ExitProbe: Early Exit of Reasoning Traces When Intermediate Answers Converge in LLM Serving",
     "Reasoning models often reach their final answer long before they stop thinking. ExitProbe asks the model for "
     "an intermediate answer every 256 thinking tokens, with a short answer prompt that shares the request's KV "
     "cache, and ends the trace once three consecutive answers agree, freeing its KV blocks for other requests. "
     "Across MATH-500, AIME 2025 and GPQA-Diamond with QwQ-32B on H100 GPUs, ExitProbe cuts thinking tokens by 44% "
     "with accuracy within 1 point. At the same request rate it lowers p99 end-to-end latency from 96 s to 58 s.",
     ["Solveig Aas", "Tomasz Wierzbicki", "Nnamdi Okeke"]),
    # boundary case (Maarten's English card 522: "LenScout is PredRoute rebadged"); the card: "the successor to
    # 2610.1413" (LoadLens 2610.14133 with a digit dropped); HF 34 / 40 (card) / 62: rising
    ("2611.19835", 1, "new", ["cs.DC", "cs.LG"],
     "LenScout: Predicting Reasoning Output Lengths from Prefill Hidden States for Length-Aware Request Routing",
     "Output lengths of reasoning models range from a few hundred to tens of thousands of tokens, and routing "
     "requests by queue length leaves some replicas with far more decode work than others. LenScout predicts each "
     "request's output length from its last prefill hidden state with a two-layer probe, routes requests so that "
     "the predicted decode work of the replicas stays even, and corrects the prediction every 1,024 generated "
     "tokens, migrating the requests it underestimated badly. On a 16-replica QwQ-32B cluster, LenScout lowers p99 "
     "TTFT by 1.4-2.2x and mean end-to-end latency by 27% against least-load routing, with a median length "
     "prediction error of 12%.",
     ["Fiona Brennan", "Kaito Morimoto", "Lucía Ferrer"]),
    # N2: Jay "PCIe 的 L40S 上 decode 吞吐是 Megatron 式 TP 的 1.31×" (the abstract: 1.31x on NVLink H100s, 1.72x on
    # PCIe L40S); boundary decoy (Jay: "KnitTP 在文档里没有先例"); card 523 is named 523-2611-20124.md with arxiv_id
    # 2611.20142 and writes "2.45k tok/s" per GPU (= 2,450 tokens/s); Spark measures 1,380 tokens/s per GPU and 1.12x
    # on H20 (another GPU); Jay's "needs check" on the NCCL version; HF 47 / 53 (card) / 68: rising
    ("2611.20142", 1, "new", ["cs.DC", "cs.AR"],
     "KnitTP: Overlapping Tensor-Parallel All-Reduce with GEMM Tiles in LLM Decode on NVLink and PCIe GPUs",
     "In tensor-parallel decode every layer ends in an all-reduce, and with small decode batches the GPUs idle while "
     "it runs. KnitTP splits each row-parallel GEMM into tiles, starts reducing a tile's partial sums as soon as it "
     "is written, over NVLink with the copy engines or over PCIe with peer-to-peer writes, and lets the next layer's "
     "column-parallel GEMM start on the tiles already reduced. Serving Llama-3.1-70B with 8-way tensor parallelism, "
     "KnitTP hides 81% of the all-reduce time and reaches 2,450 tokens/s per GPU in decode on NVLink-connected H100 "
     "GPUs, 1.31x Megatron-style tensor parallelism; on PCIe-connected L40S GPUs, where the all-reduce dominates, "
     "the gain is 1.72x.",
     ["Rutger Bakker", "Yasmin Haddad", "Wu Chenxi", "Oskar Nyström"]),
    # keyword trap (not LLM inference): early exit, traces, all-reduce overlapped with compute, NVLink, per GPU,
    # Bayesian inference — MCMC chains, no language model
    ("2611.20391", 1, "cross", ["stat.CO", "cs.DC"],
     "ChainSkip: Early Exit of Converged MCMC Traces with Overlapped All-Reduce for Multi-GPU Bayesian Inference",
     "Bayesian inference with Markov chain Monte Carlo runs thousands of chains whose traces converge at very "
     "different times, and multi-GPU samplers synchronize all chains with an all-reduce at every step. ChainSkip "
     "exits each chain early once its trace passes a split R-hat convergence test, refills the freed slots with new "
     "chains, and overlaps the all-reduce of the sufficient statistics with the next step's gradient computation "
     "over NVLink. On hierarchical regression and Gaussian-process models on 8 A100 GPUs, ChainSkip draws 2.7x more "
     "effective samples per second per GPU and cuts the time to convergence by 46%, with posterior estimates within "
     "0.5% of full-length runs.",
     ["Greta Hoffmann", "Adebayo Ogunleye"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside),
# and every word there, so that no filler takes one. Besides them, the slips of the labels: ThinkMeter written
# 2611.19248 (Spark, two digits swapped), card 523 named 523-2611-20124.md (only in the file name), LoadLens
# 2610.14133 written 2610.14331 (Omer) and 2610.1413 (card 522), FanPrune's HTML URL 2611.1951 (card 521),
# "2612.04417 … 已经挂出来了" (Omer), "arXiv 1312.58012" (Ines), the size 1309.77412 GiB (Omer) and the old
# 1909.08053 and 2201.11903 (Ines) — none in any recording; the fillers' range is 2610.60000-61450 (day 33's was
# 58500-59950).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT))
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2611.19248", "2611.20124", "2610.14331", "2610.14133", "2610.15426", "2611.04868", "2612.04417", "1312.58012",
    "1309.77412", "1909.08053", "2201.11903", "2611.18347", "2611.18790", "2610.22264"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.1951", "2610.1413", "2611.1924", "2611.2012", "2610.1433", "2612.0441"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.19284", 87, "2026-11-24T00:08:51.204Z",
     "ThinkMeter enforces a per-request thinking-token budget inside the decode loop of a reasoning-model server.",
     ["reasoning models", "thinking budget", "LLM serving"], "https://github.com/thinkmeter/thinkmeter"),
    ("2611.19663", 75, "2026-11-24T00:19:37.662Z",
     "ExitProbe ends a reasoning trace early once the model's intermediate answers agree.",
     ["early exit", "reasoning traces", "test-time compute"], None),
    ("2611.20142", 68, "2026-11-24T00:33:05.918Z",
     "KnitTP overlaps the tensor-parallel all-reduce with GEMM tiles in LLM decode over NVLink and PCIe.",
     ["tensor parallelism", "all-reduce", "communication overlap"], "https://github.com/knittp/knittp"),
    ("2611.19835", 62, "2026-11-24T00:46:12.430Z",
     "LenScout predicts reasoning output lengths from the prefill hidden state and routes by predicted decode work.",
     ["output length prediction", "routing", "reasoning models"], None),
    ("2611.19517", 49, "2026-11-24T01:01:44.087Z",
     "FanPrune stops weak parallel reasoning samples early using a process reward model and frees their KV blocks.",
     ["test-time scaling", "best-of-N", "process reward model"], None),
    ("2611.20391", 6, "2026-11-24T06:12:27.519Z",
     "ChainSkip stops converged MCMC chains early and overlaps the all-reduce of multi-GPU samplers with compute.",
     ["MCMC", "Bayesian inference", "multi-GPU"], None),
]

DAY = Day(number=34, date="2026-11-24", pub="Tue, 24 Nov 2026 00:00:00 -0500",
          last_build="Tue, 24 Nov 2026 05:00:39 +0000", seed=20261124,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(60000, 61450), hf=HF, hf_published=("2026-11-23T00:00:00.000Z", "2026-11-23T20:00:00.000Z"),
          prefixes=("Sirocco", "Chinook", "Foehn", "Harmattan", "Khamsin", "Levante", "Tramontane", "Gregale",
                    "Libeccio", "Pampero"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
