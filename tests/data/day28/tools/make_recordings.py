"""Writes the day-28 recordings: the arXiv listing of Mon 16 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 28; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 27). Monday's listing announces what was submitted on
Thursday after the cut-off and on Friday (announced Sunday 20:00 EST, i.e. Monday 09:00 CST); arXiv numbers the new
papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: no blog post is in the window.

The day is a long-context serving and KV-cache compression / eviction day after a weekend. The knowledge doc was
reorganised on Monday morning (v337): §2.5 split, its eviction and retention lines (H2O, StreamingLLM, TrimCache,
RollKeep) moved to a new §2.6. One planted paper (WinnowKV) does what TrimCache (2610.16614, anchored 2026-10-14, now
in §2.6; day 5's listing: "reduces KV cache memory by 62%") does, by Ines's later word (Jay set it apart in the
morning); one (GrainKV) what ChunkQuant (2610.13166, §2.5; day 3's listing: "reduces KV cache memory by 4.2x relative
to FP16") does; one (BraidRing) what RingFold (2610.30864, §5; day 14's listing: "by 1.6x over a flat ring on 32
GPUs") does. PlinthKV is set apart from KeyFold (§2.5); QuireKV overlaps nothing in §5 (Tom's card).

MuffleKV is on HF Daily only (primary category cs.AI, which the listing does not follow): the team knows it from its
project page (https://mufflekv.github.io/) and code (https://github.com/mufflekv/mufflekv, HF's githubRepo too) and
never writes its arXiv ID. As day 20's tool does for its HF-only paper, this file hands it to the HF writer beside
the listing's papers.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 27's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day28)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case, two members disagreeing: Jay (10:30) "和 §2.6 的 TrimCache（2610.16641）是两股道上跑的车" (set
    # apart, TrimCache written with a wrong ID), Ines (13:00) answers "WinnowKV 就是 §2.6 的 TrimCache 改头换面" (the
    # team's last word: the same); Jay writes its decode throughput "3.2 倍" (the abstract: 2.3x);
    # HF 43 (Tom 09:30) / 49 (card 493, 16:00) / 56 (fetch): rising
    ("2611.12733", 1, "new", ["cs.CL", "cs.LG"],
     "WinnowKV: Per-Layer KV Eviction Budgets Moved between Layers by Attention Entropy for Long-Context Decode",
     "Evicting KV cache entries under one budget per sequence wastes memory on layers whose attention is "
     "concentrated and starves layers whose attention is spread. WinnowKV keeps, in every layer, a window of "
     "recent tokens and the heavy hitters with the largest accumulated attention, evicts the rest, and every 512 "
     "decode steps moves budget from layers with low attention entropy to layers with high entropy. At 128K tokens, "
     "WinnowKV cuts KV cache memory by 4x and raises decode throughput by 2.3x with under 0.4 points of accuracy "
     "lost on long-context benchmarks.",
     ["Ilse Marchetti", "Obinna Rask", "Hu Wenqing"]),
    # boundary case (Maarten: "GrainKV is ChunkQuant with the serial numbers filed off"); card 494's text writes
    # "GrainKV（2612.13057）" (the month slipped); HF 19 (Tom 09:30) / 22 (card 494, 16:05) / 29 (fetch): rising
    ("2611.13057", 1, "new", ["cs.LG", "cs.CL"],
     "GrainKV: Re-Graded Per-Chunk Bit Widths for the KV Cache of Million-Token Decoding",
     "Low-bit KV caches lose accuracy at long context because a few chunks of the cache receive most of the "
     "attention. GrainKV stores each 64-token chunk of the KV cache at 2, 4 or 8 bits chosen from the chunk's running "
     "share of attention, re-grades every chunk each 1,024 decode steps, and keeps the chunks' scales in shared "
     "memory inside the attention kernel. GrainKV reduces KV cache memory by 5.6x relative to FP16 within half a "
     "point of accuracy on long-context benchmarks, and raises decode throughput at one million tokens by 1.7x.",
     ["Tariq Bellamy", "Soren Aguilar", "Lan Meiyu"]),
    # boundary case (Tom's card 495: "和 §5 的 RingFold 是一母同胞"); HF 38 (Tom 09:30) / 35 (card 495, 16:10) /
    # 44 (fetch): fell
    ("2611.12581", 1, "new", ["cs.DC", "cs.LG"],
     "BraidRing: Overlapping the Inter-Node Step of a Two-Level Ring for Million-Token Prefill",
     "Ring attention across nodes is bounded by the network. BraidRing circulates KV blocks over NVLink among the "
     "GPUs of each node and passes one block per node across the network at each step, and it overlaps every "
     "inter-node transfer with two intra-node steps so that the network link is never idle. On 1M-token prompts "
     "over 64 GPUs, BraidRing raises prefill throughput by 1.9x over a flat ring.",
     ["Petra Koval", "Diego Amankwah", "Shen Yuhan"]),
    # boundary decoy (Jay: "和 §2.5 的 KeyFold 天差地别"); Jay's source line is the HF URL
    # https://huggingface.co/papers/2611.1295 (four digits); its card is named 496-2611-12598.md with arxiv_id
    # 2611.12958 and writes "KV 显存省 5.2×" (the abstract: 6.2x); HF 12 / 15 / 18: rising
    ("2611.12958", 1, "new", ["cs.LG", "cs.CL"],
     "PlinthKV: Truncated DCT Coefficients as the KV Cache of Long-Context LLM Decoding",
     "Keys and values of an attention head vary smoothly across their channels. PlinthKV transforms each head's "
     "keys and values with a fixed discrete cosine transform along the channel dimension, drops the coefficients "
     "beyond a per-head cutoff chosen once offline, and computes attention directly on the truncated coefficients, "
     "with no training. PlinthKV shrinks the KV cache by 6.2x at 128K tokens with under 0.5 points of accuracy lost.",
     ["Hamid Lorenzen", "Aiko Brennan", "Tang Shuo"]),
    # boundary decoy (Tom's card 497: "§5 已锚的几篇 … 和 QuireKV 哪篇都对不上号", no paper named); Maarten: its
    # authors' slides call it "a follow-up to 2610.1863" (RollKeep is 2610.18634); HF 7 / 9 / 13: rising
    ("2611.13362", 1, "new", ["cs.DC", "cs.LG"],
     "QuireKV: Splitting Long-Context Decode Attention between the GPU and the Host CPU",
     "At a million tokens the KV cache of one request no longer fits in GPU memory. QuireKV keeps the attention "
     "sink tokens, a window of recent tokens and the pages chosen by a low-rank key summary on the GPU, leaves the "
     "other pages in host memory where the CPU attends over them in parallel, and merges the two partial softmax "
     "results. At one million tokens, QuireKV raises decode throughput by 2.1x over offloading the whole cache.",
     ["Mirela Osei", "Jonas Takahashi", "Cao Lingyi"]),
    # keyword trap (not LLM inference): key-value cache, eviction, long reads, a million bases, memory — genome
    # assembly
    ("2611.13519", 1, "cross", ["q-bio.GN", "cs.DC"],
     "StrandEvict: Learned Eviction for the Key-Value Cache of Long-Read Genome Assemblers",
     "Long-read genome assemblers keep a key-value cache of k-mer overlaps whose working set outgrows memory on "
     "reads of a million bases. StrandEvict learns an eviction policy from the assembler's access trace, keeps a "
     "window of recently touched overlaps, and evicts the rest by predicted reuse distance. On human long-read data, "
     "StrandEvict cuts the cache's memory by 3.1x and assembly time by 22%.",
     ["Ingeborg Falk", "Matteo Oyelaran"]),
]

# A paper on HF Daily only: not in the listing (primary category cs.AI). The team cites its project page and code.
HF_ONLY = {
    "2611.12847": ("2611.12847", 1, "new", ["cs.AI"],
                   "MuffleKV: Full KV for Retrieval Heads, a 2-Bit Sketch and a Recent Window for the Rest",
                   "Only a few attention heads retrieve from far context; the others look at recent tokens. "
                   "MuffleKV finds the retrieval heads of a model once with a short probe, keeps their full KV "
                   "cache, and keeps only a 2-bit sketch and a window of recent tokens for every other head. At "
                   "one million tokens, MuffleKV cuts KV cache memory by 4x and time to first token by 45%, within "
                   "0.6 points of the full cache on long-context retrieval benchmarks. Code and a project page are "
                   "public.",
                   ["Leah Duvall", "Kwame Sorensen", "Ren Xiaotong"]),
}

# IDs the team writes wrongly — PlinthKV's card named 2611.12598, "https://huggingface.co/papers/2611.1295" (Jay,
# PlinthKV's with a digit dropped), TrimCache written 2610.16641 (Jay; it is 2610.16614), "2612.13057" (card 494,
# GrainKV's month wrong), "2610.1863" (Maarten, RollKeep's with a digit dropped), "arXiv:2600.14590" (Omer, SpanServe's
# month 00), the image version 2611.1402 (Omer) and the old 1506.03134 (Ines) — none in any recording; the fillers'
# range is 2610.51000-52450 (day 27's was 49500-50950).
RESERVED = {p[0] for p in PLANTED} | set(HF_ONLY) | {"2611.12598", "2610.16641", "2610.16614", "2610.13166",
                                                      "2610.30864", "2610.18634", "2610.14590", "2612.13057",
                                                      "1506.03134"}
RESERVED_PREFIXES = ("2611.1295", "2610.1863", "2611.1402", "2600.1459", "2610.1664")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.12733", 56, "2026-11-16T00:12:48.306Z",
     "WinnowKV keeps recent and heavy-hitter tokens per layer and moves eviction budget between layers by attention "
     "entropy.",
     ["KV cache eviction", "long context", "heavy hitters"], "https://github.com/winnowkv/winnowkv"),
    ("2611.12581", 44, "2026-11-16T00:25:19.774Z",
     "BraidRing overlaps the inter-node step of a two-level ring attention with intra-node steps for 1M-token "
     "prefill.",
     ["ring attention", "long context", "prefill"], None),
    ("2611.12847", 34, "2026-11-16T03:41:07.552Z",
     "MuffleKV keeps full KV for retrieval heads and a 2-bit sketch plus a recent window for the other heads.",
     ["KV cache compression", "retrieval heads", "long context"], "https://github.com/mufflekv/mufflekv"),
    ("2611.13057", 29, "2026-11-16T00:38:55.019Z",
     "GrainKV stores KV cache chunks at 2, 4 or 8 bits by attention share and re-grades them during decoding.",
     ["KV cache quantization", "long context", "mixed precision"], None),
    ("2611.12958", 18, "2026-11-16T00:51:32.640Z",
     "PlinthKV keeps truncated DCT coefficients of keys and values as the KV cache, with no training.",
     ["KV cache compression", "DCT", "long context"], None),
    ("2611.13362", 13, "2026-11-16T01:04:26.193Z",
     "QuireKV splits million-token decode attention between GPU-resident pages and host-memory pages on the CPU.",
     ["long context", "KV offloading", "CPU attention"], None),
    ("2611.13519", 2, "2026-11-16T04:27:13.885Z",
     "A learned eviction policy for the k-mer overlap cache of long-read genome assemblers.",
     ["genome assembly", "cache eviction", "key-value cache"], None),
]

DAY = Day(number=28, date="2026-11-16", pub="Mon, 16 Nov 2026 00:00:00 -0500",
          last_build="Mon, 16 Nov 2026 05:00:33 +0000", seed=20261116,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"MuffleKV", "TrimCache", "ChunkQuant", "RingFold",
                                                                  "KeyFold", "RollKeep", "SpanServe", "KeyBook",
                                                                  "H2O", "StreamingLLM", "GlideMoE", "SpillGate",
                                                                  "LevelEP", "WeftA2A", "FlockEP", "ParcelMoE",
                                                                  "Lathe", "Tessera", "KIVI", "ValueBook", "MeldKV",
                                                                  "GaugeLong", "LongLedger", "RingCast"},
          ids=(51000, 52450), hf=HF, hf_published=("2026-11-13T00:00:00.000Z", "2026-11-15T20:00:00.000Z"),
          prefixes=("Cardamom", "Turmeric", "Caraway", "Galangal", "Tarragon", "Fenugreek", "Chervil", "Lovage",
                    "Borage", "Marjoram"))


def write_day(day, root):
    """The shared generator's calls, with the HF-only paper handed to the HF writer beside the listing's."""
    papers = write_listing(day, root)
    write_hf(day, {**papers, **HF_ONLY}, root)
    print(len(papers), "listing items;", len(day.hf), "HF items (1 not in the listing)")


if __name__ == "__main__":
    write_day(DAY, HERE)
