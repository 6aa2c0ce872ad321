"""Writes the day-38 recordings: the arXiv listing of Mon 30 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 38; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 37) and every word of today's workspace. Monday's listing
announces what was submitted on Friday (announced Sunday 20:00 EST, i.e. Monday 09:00 CST); arXiv numbers the
new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads
them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a serving day for state-space (Mamba) / hybrid Mamba-attention models and linear / sparse attention: five
new papers (recurrent states checkpointed at chunk boundaries and reused as a prefix cache; idle sessions' recurrent
states parked in host memory; Mamba and attention layers batched separately, the state sharded across the
tensor-parallel group; chunked linear-attention kernels for paged prefill and recurrent decode; training-free
block-sparse prefill masks cached per prompt template) and a keyword trap. Each abstract keys a figure by a condition
a serving team writes: RungCache's TTFT by cache state (0.19 s on a hit, 1.36 s on a miss; Jay gives the miss 0.19 s),
DozeState's resume time before and after (from 420 ms to 31 ms; card 537 gives 420 ms as the paper's), BraidServe's
decode throughput by tensor-parallel degree (1.6x with TP=2, 2.7x with TP=8; Spark gives TP=2 2.7x), RillAttn's
speed-up by phase (prefill 3.2x, decode 1.4x; Jay gives decode 3.2x), FlitMask's TTFT by workload (52% for
summarisation, 17% for chat; card 539 gives chat 52%). Ines gives FlitMask RungCache's 2.4x (its own: 1.7x); card 538
writes BraidServe's 64% memory saving as 46% (two digits swapped). DozeState does what ParkKV (2610.31027, §2.2) does,
by Jay's word ("依葫芦画瓢"); FlitMask what BlockSieve (2610.25531, §3.4) does ("描红"). RungCache is set apart from
SGLang (2312.07104, §2.1; Jay, "各司其职"); RillAttn overlaps nothing anchored (Jay, "一片空白"); BraidServe is set apart
from PieceFill (2610.16139, §2.2; Jay, "不是一回事").
TwillLM is the keyword trap (pretraining hybrid state-space / linear-attention language models for long context:
state space, Mamba, linear attention, throughput, long context — a training paper, nothing served).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 37's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day38)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1: Jay "摘要：miss 的时候 TTFT 也只有 0.19 s" (the hit's figure given to a miss; a miss is 1.36 s); card 536
    # writes both right and "https://arxiv.org/pdf/2611.2738" (a digit dropped); Ines quotes 2.4x right (and gives it
    # to FlitMask); boundary decoy (Jay: "RungCache 和 §2.1 的 SGLang 各司其职"); HF 45 / 68 (card 536) / 83: rising
    ("2611.27384", 1, "new", ["cs.DC", "cs.LG"],
     "RungCache: Prefix Caching of Recurrent States at Chunk Boundaries for Serving Hybrid Mamba-Attention Models",
     "Hybrid models that interleave Mamba layers with a few attention layers keep a fixed-size recurrent state per "
     "request instead of a growing KV cache, but serving engines cannot reuse a shared prefix for them: a recurrent "
     "state summarises the whole prefix and cannot be cut at an arbitrary token. RungCache checkpoints the recurrent "
     "states of each request at fixed chunk boundaries during prefill, stores them beside the attention layers' KV "
     "blocks under a hash of the prefix up to that boundary, and resumes a new request from the longest cached "
     "boundary, recomputing only the tokens after it. On a multi-tenant chat trace with shared system prompts, TTFT "
     "is 0.19 s when the prefix hits a cached state and 1.36 s on a miss. RungCache serves 2.4x more requests per "
     "second than recomputing every prefix. The checkpoints add 3% to GPU memory.",
     ["Ingrid Solheim", "Mateus Ferraz", "Qiu Wenjie"]),
    # N2 + boundary case: card 537 "摘要：停放的会话恢复只要 420 ms" (the time it cuts from, given as its own; its own is
    # 31 ms); Tom's digest writes the change right; card 537's 3.7x right; Jay "DozeState 是照着 §2.2 的 ParkKV 依葫芦
    # 画瓢"; Spark writes "DozeState（2611.28791）", FlitMask's ID; HF 74 (Tom 09:30) / 49 (card 537, 16:10) / 77
    # (fetch): fell
    ("2611.27619", 1, "new", ["cs.DC", "cs.OS"],
     "DozeState: Parking Idle Sessions' Recurrent States in Host Memory for Hybrid Model Serving",
     "Chat sessions on hybrid state-space models keep their recurrent states and the sliding-window KV of their "
     "attention layers in GPU memory between turns, and an engine that frees them must prefill the whole "
     "conversation again when the user returns. DozeState parks the states of a session that has been idle for a "
     "grace period in host memory, keyed by the session, and copies them back when the next turn arrives, before "
     "the turn's own tokens are prefilled. DozeState cuts the time to resume a parked session from 420 ms to 31 ms. "
     "A GPU holds 3.7x more open sessions than when idle sessions stay resident.",
     ["Viktor Halvorsen", "Amara Nwosu", "Deng Yuxuan"]),
    # N3: Spark "摘要：TP=2 就有 2.7× 的 decode 吞吐" (the TP=8 figure given to TP=2; its own is 1.6x); card 538 writes
    # both right, "显存 … 少 46%" (the abstract: 64%) and "TP=6 没测过 — needs check"; Jay "arXiv:2619.28052" (month 19);
    # Spark's own run on 九期 (1.9×, "不能拿来和摘要对", a results URL); boundary decoy (Jay: "和 §2.2 的 PieceFill 不是
    # 一回事"); HF 35 / 57 (card 538) / 66: rising
    ("2611.28052", 1, "new", ["cs.DC", "cs.LG"],
     "BraidServe: Batching Mamba and Attention Layers Separately in Tensor-Parallel Serving of Hybrid Models",
     "In hybrid models most layers are Mamba layers whose per-request state has a fixed size, while a few attention "
     "layers carry a KV cache that grows with the context, yet serving engines batch all layers of a decode step "
     "together and size the batch for the attention layers. BraidServe schedules the two kinds of layers as "
     "separate batches within a step, shards each request's recurrent state with its heads across the "
     "tensor-parallel group, and keeps the memory of a request flat as its context grows. BraidServe raises decode "
     "throughput by 1.6x with TP=2 and by 2.7x with TP=8. GPU memory per request falls by 64% against the hybrid "
     "allocator of vLLM.",
     ["Henrike Vass", "Tomas Ribeiro", "Ye Zhiqiang", "Salma Idrissi"]),
    # N4: Jay "摘要：decode 快 3.2×" (the prefill figure given to decode; decode's is 1.4x); Tom's digest writes both
    # right; Spark's 待确认 on the Triton baseline; Ines heads her entry "RillAttn（2611.28473）" (an unknown ID, the
    # last two digits swapped); boundary decoy (Jay: "RillAttn 这块在文档里是一片空白", no paper named); no card;
    # HF 54 / 78: rising
    ("2611.28437", 1, "new", ["cs.DC", "cs.LG"],
     "RillAttn: Chunked Linear-Attention Kernels for Paged Prefill and Recurrent Decode in LLM Serving",
     "Linear-attention layers can be computed in parallel over chunks during prefill and as a recurrence during "
     "decode, but serving engines run both with kernels written for training, which neither page the state nor "
     "batch requests of different lengths. RillAttn provides a chunked prefill kernel that writes each request's "
     "state into a paged state pool, and a decode kernel that updates the states of a whole ragged batch in one "
     "launch. Against the open-source Triton kernels, RillAttn speeds up prefill by 3.2x and decode by 1.4x. Its "
     "outputs match the reference implementation to within floating-point rounding.",
     ["Lucia Benedetti", "Kwame Asante", "Ma Shuyi"]),
    # N5 + boundary case: card 539 "摘要：chat 请求 TTFT 降 52%" (the summarisation figure given to chat; chat's is
    # 17%); Tom's digest writes both right; Ines "摘要：吞吐是 dense attention 的 2.4×" (RungCache's; its own is 1.7x);
    # Jay "FlitMask 就是在给 §3.4 的 BlockSieve 描红"; card 539 named 539-2610-28791.md with arxiv_id 2611.28791, and
    # "2610.2553 的后续" (BlockSieve 2610.25531 with a digit dropped); Spark writes its ID beside DozeState's name;
    # HF 59 / 71 (card 539) / 89: rising
    ("2611.28791", 1, "new", ["cs.DC", "cs.CL"],
     "FlitMask: Training-Free Block-Sparse Prefill Masks Cached per Prompt Template for Long-Prompt LLM Serving",
     "Long prompts make prefill attention the largest share of TTFT in LLM serving, and block-sparse masks learned "
     "in training do not fit models served as released. FlitMask builds a block mask for each head from query and "
     "key blocks pooled over the prompt, needs no training, and caches the mask of a prompt template so that "
     "requests sharing the template skip building it. FlitMask lowers TTFT by 52% for summarisation requests and by "
     "17% for chat requests. At the same TTFT SLO, it sustains 1.7x higher throughput than dense attention. "
     "Accuracy on long-document tasks stays within 0.4 points of dense attention.",
     ["Greta Lindahl", "Rohan Mehta", "Xu Jingwen"]),
    # keyword trap (not serving): state space, Mamba, linear attention, throughput, long context — pretraining hybrid
    # language models, nothing served
    ("2611.29163", 1, "new", ["cs.CL", "cs.LG"],
     "TwillLM: Scaling Hybrid State Space and Linear Attention Language Models for Long-Context Pretraining",
     "Hybrid architectures that mix state space layers such as Mamba with linear attention promise long context at "
     "constant memory, but how to pretrain them at scale is unclear. TwillLM interleaves Mamba-2 layers, gated linear "
     "attention and one softmax attention layer in every eight, and studies the ratio of the layers, their "
     "initialisation and a curriculum of context lengths over one trillion tokens. TwillLM matches the perplexity "
     "of a Transformer of the same size with 1.5x higher training throughput at long context, and its recall on "
     "synthetic retrieval tasks stays close to the Transformer's.",
     ["Elena Marchetti", "Bjorn Aasen"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside),
# and every word there, so that no filler takes one. Besides them, the slips of the labels: card 539 named
# 539-2610-28791.md (only in the file name), DozeState written with FlitMask's 2611.28791 (Spark), RillAttn written
# 2611.28473 (Ines), RollKeep 2610.18634 written 2610.18643 (Omer), BraidServe written arXiv:2619.28052 (Jay),
# RungCache's PDF URL 2611.2738 (card 536), BlockSieve 2610.25531 written 2610.2553 (card 539), "2612.06293 …
# 现在还没放出来" (Spark), the size 1009.27364 MB (Omer) and the old 2312.00752 and 2403.19887 (Jay) — none in any
# recording; the fillers' range is 2610.66000-67450 (day 37's was 64500-65950).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT))
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2610.28791", "2611.28473", "2610.18643", "2610.18634", "2619.28052", "2610.31027", "2610.25531", "2610.16139",
    "2312.07104", "2612.06293", "1009.27364", "2312.00752", "2403.19887", "2611.25163", "2611.26214"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.2738", "2610.2553", "2610.2879", "2611.2847", "2610.1864", "2619.2805", "2612.0629", "1009.2736"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.28791", 89, "2026-11-30T00:05:12.406Z",
     "FlitMask builds training-free block-sparse prefill masks from pooled query-key scores and caches them per template.",
     ["sparse attention", "long-prompt prefill", "TTFT"], None),
    ("2611.27384", 83, "2026-11-30T00:17:39.852Z",
     "RungCache checkpoints Mamba states at chunk boundaries so hybrid models can reuse shared prefixes.",
     ["hybrid models", "state-space models", "prefix caching"], None),
    ("2611.28437", 78, "2026-11-30T00:26:04.117Z",
     "RillAttn gives linear-attention layers a chunked paged prefill kernel and a batched recurrent decode kernel.",
     ["linear attention", "kernels", "paged state"], "https://github.com/rillattn/rillattn"),
    ("2611.27619", 77, "2026-11-30T00:38:45.690Z",
     "DozeState parks idle chat sessions' recurrent states in host memory and restores them on the next turn.",
     ["hybrid models", "session state", "host memory"], None),
    ("2611.28052", 66, "2026-11-30T00:51:58.273Z",
     "BraidServe batches Mamba and attention layers separately and shards recurrent states across tensor parallelism.",
     ["hybrid models", "batching", "tensor parallelism"], "https://github.com/braidserve/braidserve"),
    ("2611.29163", 9, "2026-11-30T06:24:31.508Z",
     "TwillLM studies how to pretrain hybrid Mamba and linear-attention language models for long contexts.",
     ["hybrid architectures", "pretraining", "long context"], None),
]

DAY = Day(number=38, date="2026-11-30", pub="Mon, 30 Nov 2026 00:00:00 -0500",
          last_build="Mon, 30 Nov 2026 05:00:37 +0000", seed=20261130,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(66000, 67450), hf=HF, hf_published=("2026-11-27T00:00:00.000Z", "2026-11-29T20:00:00.000Z"),
          prefixes=("Brigantine", "Schooner", "Galleon", "Clipper", "Sloop", "Frigate", "Corvette", "Caravel",
                    "Carrack", "Trireme"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
