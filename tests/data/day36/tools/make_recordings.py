"""Writes the day-36 recordings: the arXiv listing of Thu 26 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 36; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 35) and every word of today's workspace. Thursday's listing
announces what was submitted on Wednesday (announced Wednesday 20:00 EST, i.e. Thursday 09:00 CST); arXiv numbers the
new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads
them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is an agentic / retrieval-augmented (RAG) serving day: five new papers (a paused agent session's KV cache kept,
offloaded or dropped by the predicted duration of its tool call; retrieved chunks' KV caches precomputed once and
spliced into prompts with their positions re-encoded; retrieval overlapped with a speculative prefill; whole agent
programs scheduled by their critical path; idle chat sessions' KV caches given a time to live from their predicted
return time) and a keyword trap. Each abstract keys a figure by a condition that is no GPU, link, model size or load
level: SpliceRAG's TTFT by prompt length (16K 2.3x, 64K 4.1x; Jay gives 16K 4.1x), LullKV's resumed-turn TTFT by
percentile (p50 140 ms, p99 620 ms; Omer gives p99 140 ms), WhileFetch's TTFT by dataset (HotpotQA 31%, Natural
Questions 19%; Jay gives Natural Questions 31%), PlotServe's agent-program latency by average and peak (27% on
average, up to 58%; Omer gives 58% as the average), LingerKV's KV hit rate by session length (4 turns 64%, 16 turns
89%; Ines gives 16 turns 64%). Ines gives PlotServe LullKV's 2.2x throughput (its own: 1.6x); card 528 writes LullKV's
85 µs per output token as 85 ms. LullKV does what CallStash (2610.18359, §1.(1)) does, by Jay's word ("翻唱");
LingerKV what ParkKV (2610.31027, §2.2) does ("亦步亦趋"). PlotServe is set apart from Autellix (2502.13965; Jay,
"各行其道"); SpliceRAG overlaps nothing anchored (Jay, "无人区"); WhileFetch neither (Jay, "和已锚的都不重叠").
ScoutBench is the keyword trap (a benchmark of multi-turn tool-call planning and retrieval for web agents under latency
budgets: agents, tool calls, multi-turn, retrieval, cache, latency — task success, not serving).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 35's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day36)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1 + boundary case: Omer "摘要说 tool call 回来那一轮的 p99 TTFT 只有 140 ms" (the p50 figure given to the p99;
    # the p99 is 620 ms); card 528 writes p50 / p99 right and "后台搬 KV 让 TPOT 多 85 ms" (the abstract: 85 µs) and
    # "2610.1140 的续作" (ToolCache 2610.11409 with a digit dropped); Ines quotes 140 / 620 ms and 2.2x right; Jay
    # "LullKV 就是 §1.(1) CallStash 的翻唱"; Spark writes "LingerKV（2611.23408）", this paper's ID beside LingerKV's
    # name; HF 46 (Tom 09:30) / 67 (card 528, 16:00) / 79 (fetch): rising
    ("2611.23408", 1, "new", ["cs.DC", "cs.LG"],
     "LullKV: Tool-Duration-Aware Placement of Paused Agent Sessions' KV Caches during Tool Calls",
     "LLM agents alternate model calls with tool calls that last from milliseconds to minutes, and serving engines "
     "either keep a paused session's KV cache in GPU memory, starving other requests, or discard it and prefill the "
     "whole context again when the tool returns. LullKV predicts each tool call's duration from the tool's name and "
     "arguments and, for every paused session, keeps its KV cache in GPU memory, moves it to host memory in the "
     "background, or drops it, whichever the predicted pause makes cheapest. We evaluate LullKV on SWE-agent and "
     "web-browsing traces served by Llama-3.1-70B on H100 GPUs. The TTFT of the turn that follows a tool call is "
     "140 ms at p50 and 620 ms at p99. LullKV delivers 2.2x higher throughput than vLLM. Moving KV blocks between GPU "
     "and host memory in the background adds 85 µs to the time per output token.",
     ["Mireille Dufour", "Tomasz Wielgosz", "Chen Yiran"]),
    # N2: Jay "摘要：16K 的 prompt 上 TTFT 降了 4.1×" (the 64K figure given to 16K prompts; 16K's is 2.3x); card 529
    # writes both right and 2.8x right, and "ALiBi … needs check"; Spark "…算不算检索本身的时间？…待确认"; boundary
    # decoy (Jay: "SpliceRAG 这块在文档里是无人区", no paper named); HF 94 (Tom 09:30) / 52 (card 529, 16:10) / 86
    # (fetch): fell
    ("2611.23691", 1, "new", ["cs.CL", "cs.DC"],
     "SpliceRAG: Position-Re-Encoded Chunk KV Caches Spliced into Retrieval-Augmented Prompts",
     "Retrieval-augmented generation places the same popular documents into many prompts, but prefix caching reuses "
     "a document's KV cache only when the document opens the prompt. SpliceRAG precomputes the KV cache of every "
     "retrievable chunk on its own, splices the cached chunks into each prompt by re-encoding their rotary positions "
     "in place, and recomputes only the 15% of tokens whose attention to earlier chunks changes most. With eight "
     "retrieved chunks per request, SpliceRAG cuts TTFT by 2.3x for 16K-token prompts and by 4.1x for 64K-token "
     "prompts. Throughput rises 2.8x over full prefill. Answer F1 stays within 0.5 points of full prefill on four "
     "question-answering benchmarks, where CacheBlend loses 1.3 points.",
     ["Lucia Ferreira", "Arjun Mehta", "Wang Zhiheng", "Oskar Lind"]),
    # N3: Jay "摘要：Natural Questions 上 TTFT 降 31%" (the HotpotQA figure given to Natural Questions; NQ's is 19%);
    # Tom's digest writes both right; boundary decoy (Jay: "WhileFetch 和已锚的都不重叠"); Spark writes
    # "WhileFetch（2611.29375）" (two inner digits swapped) and measures 13.6% on 二期 with another retriever, dataset and
    # GPU ("不直接比"); no card; HF 22 / 49: rising
    ("2611.23975", 1, "new", ["cs.DC", "cs.CL"],
     "WhileFetch: Overlapping Retrieval with Speculative Prefill in Retrieval-Augmented LLM Serving",
     "In retrieval-augmented LLM serving, prefill cannot start until the retriever returns, so the GPU idles during "
     "retrieval and the time to first token pays for both. WhileFetch prefills the system prompt and the user's "
     "question while retrieval is still running, prefetches the KV caches of the chunks the retriever is most likely "
     "to return, and appends the retrieved documents to the partial KV cache when they arrive, recomputing nothing. "
     "WhileFetch lowers TTFT by 31% on HotpotQA and by 19% on Natural Questions, whose retrievals return sooner. It "
     "needs no GPU memory beyond the prefetched chunks.",
     ["Yusuf Karaca", "Ingeborg Aas", "Liu Mengqi"]),
    # N4: Omer "摘要说 agent 程序的端到端延迟平均降 58%" (the peak figure given as the average; the average is 27%);
    # card 530 writes both right and is named 530-2611-24132.md with arxiv_id 2611.24182; Ines "摘要：吞吐是 vLLM 的
    # 2.2×" (LullKV's figure; this paper's is 1.6x) and "arXiv:2616.24182" (month 16); boundary decoy (Jay: "和 §1.(1)
    # 的 Autellix 各行其道"); HF 33 / 42 (card) / 56: rising
    ("2611.24182", 1, "new", ["cs.DC", "cs.LG"],
     "PlotServe: Critical-Path Scheduling of Whole Agent Programs in LLM Serving",
     "LLM agents run as programs that interleave many model calls with tool calls, and serving engines schedule each "
     "call on its own, so a call on the critical path of one program waits behind calls that nobody is waiting for. "
     "PlotServe builds each agent program's call graph as it runs, estimates its remaining critical path from earlier "
     "runs of the same program, and orders model calls and KV cache residency by the slack of their program rather "
     "than by arrival. On coding and research-assistant agent workloads, PlotServe reduces the end-to-end latency of "
     "agent programs by 27% on average and by up to 58%. It sustains 1.6x higher throughput than vLLM at the same "
     "latency target.",
     ["Beatriz Ochoa", "Henrik Sandvik", "Xu Ruolan"]),
    # N5 + boundary case: Ines "摘要：16 轮的会话里，回来那一轮的 KV 命中率 64%" (the 4-turn figure given to 16-turn
    # sessions; theirs is 89%); card 531 writes both right, 43% right, "https://arxiv.org/abs/2611.2453" (a digit
    # dropped) and "和 §2.2 的 ParkKV（2610.31027）重复"; Jay "LingerKV 对 §2.2 的 ParkKV 亦步亦趋"; Spark writes it
    # with LullKV's ID 2611.23408; HF 28 / 38 (card) / 54: rising
    ("2611.24537", 1, "new", ["cs.DC", "cs.LG"],
     "LingerKV: Return-Time-Predicted Time-to-Live for the KV Caches of Idle Chat Sessions",
     "Multi-turn chat sessions leave their KV cache idle while the user reads and types, and serving engines either "
     "evict it at once, paying a full prefill when the user returns, or keep it for a fixed time to live that wastes "
     "memory on users who never come back. LingerKV predicts each session's return time from its turn history and "
     "gives every idle session a time to live, tiered across GPU memory, host memory and local SSD, that the "
     "prediction and the memory pressure set. On production chat traces, the KV hit rate of a returning turn is 64% "
     "in 4-turn sessions and 89% in 16-turn sessions. At the same hit rate, LingerKV holds 43% less memory than a "
     "fixed 30-minute time to live.",
     ["Siobhan Keane", "Matteo Russo", "Zhou Wanting"]),
    # keyword trap (not LLM serving): agents, multi-turn tool calls, retrieval, a cache of pages, latency budgets —
    # a benchmark of planning and retrieval quality for web agents (task success), nothing served efficiently
    ("2611.24806", 1, "new", ["cs.CL", "cs.IR"],
     "ScoutBench: A Benchmark of Multi-Turn Tool-Call Planning and Retrieval for Web Agents under Latency Budgets",
     "Web agents must plan multi-turn sequences of tool calls, retrieve pages and answer within a latency budget, but "
     "existing benchmarks score only the final answer. ScoutBench provides 1,800 multi-turn tasks with reference "
     "tool-call plans, a cached snapshot of every web page an agent may retrieve, and a latency budget per task, and "
     "it scores plan validity, retrieval recall and task success separately. Evaluating twelve agents, we find that "
     "the best completes 41% of tasks within budget, that retrieval recall rather than planning explains most "
     "failures, and that replaying pages from the cache makes runs reproducible to within 2% in task success.",
     ["Camille Roux", "Dawit Bekele"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside),
# and every word there, so that no filler takes one. Besides them, the slips of the labels: WhileFetch written
# 2611.29375 (Spark), card 530 named 530-2611-24132.md (only in the file name), CallStash 2610.18359 written
# 2610.18539 (Omer), LingerKV written with LullKV's 2611.23408 (Spark), PlotServe written arXiv:2616.24182 (Ines),
# LingerKV's abs URL 2611.2453 (card 531), ToolCache 2610.11409 written 2610.1140 (card 528), "2612.03518 … 现在还没
# 放出来" (Spark), the size 1206.48315 MiB (Omer) and the old 2405.16444 and 2404.12457 (Ines) — none in any
# recording; the fillers' range is 2610.63000-64450 (day 35's was 61500-62950).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT))
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2611.29375", "2611.24132", "2616.24182", "2610.18539", "2610.18359", "2610.11409", "2610.31027", "2502.13965",
    "2612.03518", "1206.48315", "2405.16444", "2404.12457", "2611.21357"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.2453", "2610.1140", "2611.2937", "2611.2413", "2616.2418", "2610.1853", "2612.0351"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.23691", 86, "2026-11-26T00:06:51.204Z",
     "SpliceRAG splices precomputed KV caches of retrieved chunks into prompts, re-encoding their positions in place.",
     ["RAG serving", "KV cache reuse", "position re-encoding"], "https://github.com/splicerag/splicerag"),
    ("2611.23408", 79, "2026-11-26T00:17:24.583Z",
     "LullKV keeps, offloads or drops a paused agent session's KV cache by the predicted duration of its tool call.",
     ["agent serving", "tool calls", "KV cache offloading"], None),
    ("2611.24182", 56, "2026-11-26T00:28:09.917Z",
     "PlotServe schedules the LLM calls of agent programs by the remaining critical path of each program.",
     ["agent programs", "critical path", "LLM scheduling"], None),
    ("2611.24537", 54, "2026-11-26T00:39:42.336Z",
     "LingerKV gives idle chat sessions' KV caches a time to live set by each user's predicted return time.",
     ["multi-turn chat", "KV retention", "time to live"], None),
    ("2611.23975", 49, "2026-11-26T00:51:15.672Z",
     "WhileFetch prefills the prompt and prefetches likely chunks' KV caches while retrieval is still running.",
     ["retrieval-augmented generation", "prefill overlap", "TTFT"], "https://github.com/whilefetch/whilefetch"),
    ("2611.24806", 7, "2026-11-26T06:12:38.095Z",
     "ScoutBench benchmarks multi-turn tool-call planning and retrieval of web agents under latency budgets.",
     ["web agents", "tool-call planning", "benchmark"], None),
]

DAY = Day(number=36, date="2026-11-26", pub="Thu, 26 Nov 2026 00:00:00 -0500",
          last_build="Thu, 26 Nov 2026 05:00:37 +0000", seed=20261126,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(63000, 64450), hf=HF, hf_published=("2026-11-25T00:00:00.000Z", "2026-11-25T20:00:00.000Z"),
          prefixes=("Tango", "Waltz", "Polka", "Mazurka", "Bolero", "Samba", "Rumba", "Foxtrot", "Fandango",
                    "Gavotte"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
