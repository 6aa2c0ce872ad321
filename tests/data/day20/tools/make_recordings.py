"""Writes the day-20 recordings: the arXiv listing of Wed 4 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 20; this file is the day's data. Run from tests/data/day20: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 19). No blog posts on Wednesday: this file does not touch
the blogs. Wednesday's listing announces what was submitted on Tuesday (announced Tuesday 20:00 EST, i.e.
Wednesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers
(it writes no other month); no rule reads them.

Two things are new on this day:
- a replacement that carries a new title: PausePoint (2610.33562, anchored in §2.2 on 2026-10-30) comes back as
  v2 titled "SlotLend: …" (same ID, same method, same figure);
- a paper that is only on HF Daily: EtherKV (2611.01288) is featured on HF but is not in the day's listing (its
  primary category, cs.NI, is none of the six the team follows). The shared generator takes an HF entry's title,
  abstract and authors from the listing's items, so this file hands it the HF-only paper besides the listing's
  (write_day below); the listing itself never holds it.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # tests/data/day20
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # Ines's paper of the day: its abstract says 1.4x; her note says 1.7x (number-conflict). Nothing anchored does it.
    ("2611.02744", 1, "new", ["cs.DC", "cs.LG"],
     "SideSample: Moving Token Sampling off the Critical Path of LLM Decoding",
     "At large batch sizes the sampling step of every decode iteration (top-p filtering, penalties, the draw itself) "
     "leaves the GPU idle while it finishes. SideSample runs sampling for step t on the host CPU while the GPU "
     "already computes step t+1 for every request whose next token does not depend on it, and patches the few that "
     "do. SideSample raises decode throughput by 1.4x for a 70B model at batch size 256.",
     ["Henrike Vos", "Tariq Mansour", "Lu Qing"]),
    # boundary case (Ines, in English): GaugeLong's admission test (§5, anchored 2026-10-26) told again
    ("2611.03184", 1, "new", ["cs.DC", "cs.LG"],
     "PeakGate: Admitting Long-Context Requests by Their Predicted Peak KV Memory",
     "A long-context request admitted into a shared serving cluster can run out of KV memory in the middle of its "
     "prefill. PeakGate estimates each long request's peak KV memory from its prompt length, the model's layer and "
     "head counts and the cache block size, and admits it only when some group of GPUs has that much memory free; "
     "otherwise the request waits in a queue. PeakGate removes every out-of-memory abort on a long-document trace "
     "while keeping GPU utilization at 71%.",
     ["Ilse Brandt", "Rohan Pillai", "Xu Jiayi"]),
    # boundary case (Jay, in Chinese): PairUp (§2.4, anchored 2026-10-26) told again
    ("2611.02935", 1, "new", ["cs.DC"],
     "FitHand: Handing Prefilled Requests to the Decode Instance That Fits Their Predicted Output",
     "In disaggregated serving, prefilled requests are handed to decode instances in turn, and long generations "
     "crowd onto instances that are short of KV memory. FitHand predicts every request's output length after "
     "prefill and hands it to the decode instance whose free KV memory fits the request's expected footprint. "
     "FitHand cuts decode preemptions by 58% on a chat trace.",
     ["Marta Quiroga", "Dylan Frost", "Shen Hao"]),
    # boundary decoy (Spark sets it apart from LocalFill, §2.4)
    ("2611.03390", 1, "new", ["cs.DC", "cs.LG"],
     "SplitTail: Prefilling the Last Chunk of a Long Prompt on the Decode Node",
     "Disaggregated serving prefills a long prompt entirely on the prefill pool and then moves all of its KV cache. "
     "SplitTail prefills all but the last chunk of a long prompt on the prefill pool and the last chunk on the decode "
     "node itself, while the earlier chunks' KV cache is still being transferred, so that the transfer overlaps "
     "with compute. SplitTail lowers the time to first token of prompts longer than 32K tokens by 18%.",
     ["Oona Virtanen", "Samir Haddad", "Tang Rui"]),
    # keyword trap (not LLM inference): analytical database queries admitted by predicted peak working memory
    ("2611.03517", 1, "cross", ["cs.DB", "cs.DC"],
     "Memory-Aware Admission of Analytical Queries by Predicted Peak Working Memory",
     "A shared analytical database engine that admits too many large queries at once spills to disk or aborts "
     "them. We predict each query's peak working memory from its plan, its estimated cardinalities and the "
     "engine's buffer settings, and admit it only when a group of worker nodes has that much memory free; "
     "otherwise the query waits in a queue. On TPC-DS at scale factor 1000 the scheme removes 94% of the "
     "memory-related aborts.",
     ["Anneke de Vries", "Paolo Ferri"]),
    # a replacement that carries a new title: PausePoint (§2.2, anchored 2026-10-30) retitled by its v2
    ("2610.33562", 2, "replace", ["cs.DC"],
     "SlotLend: Lending the Batch Slots of Slow-Reading Clients in Streaming LLM Serving",
     "Some streaming clients read tokens far more slowly than the server generates them, and their requests hold "
     "batch slots while the unread output piles up. SlotLend (formerly PausePoint) pauses the decode of a request "
     "whose client's unread buffer is full, lends its batch slot to other requests while its KV cache stays in GPU "
     "memory, and resumes decoding when the client catches up. SlotLend raises the goodput of a chat service by 16% "
     "under a mix of fast and slow readers. This version renames the system, adds experiments on SGLang and "
     "rewrites the related work.",
     ["Nadia Rahimi", "Oskar Lind", "Feng Yue"]),
]

# A paper on HF Daily only: not in the listing (primary category cs.NI).
HF_ONLY = {
    "2611.01288": ("2611.01288", 1, "new", ["cs.NI", "cs.DC"],
                   "EtherKV: Disaggregated KV Cache Transfer over Commodity Ethernet with Kernel-Bypass Sockets",
                   "Disaggregated LLM serving assumes RDMA between prefill and decode nodes, which many clusters "
                   "lack. EtherKV moves the KV cache over ordinary Ethernet with AF_XDP kernel-bypass sockets, "
                   "batches the blocks of a layer into jumbo frames and retransmits lost frames from a small send "
                   "window. On 100 GbE without RDMA, EtherKV keeps the time per output token within 9% of an "
                   "RDMA deployment.",
                   ["Keoni Kahale", "Greta Lund", "Bai Xue"]),
}

# IDs the team writes wrongly, all outside the fillers' range (2610.38950-40400): EtherKV written 2611.01828 (card
# 463's body) and arXiv 2612.00688 (card 462: an extended version not yet posted) are in no recording; so is the
# four-digit https://arxiv.org/pdf/2403.0231 (Ines) — it is no ID at all.
RESERVED = {p[0] for p in PLANTED} | set(HF_ONLY) | {"2611.01828"}
RESERVED_PREFIXES = ("2611.01828",)

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.01288", 22, "2026-11-04T00:41:27.305Z",
     "EtherKV transfers the KV cache between prefill and decode nodes over commodity Ethernet with kernel-bypass sockets.",
     ["KV cache", "disaggregated serving", "Ethernet"], "https://github.com/etherkv/etherkv"),
    ("2611.03184", 12, "2026-11-04T01:05:13.662Z",
     "PeakGate admits long-context requests only when a group of GPUs can hold their predicted peak KV memory.",
     ["long context", "admission control", "KV cache"], None),
    ("2611.02935", 9, "2026-11-04T01:12:48.019Z",
     "FitHand hands prefilled requests to the decode instance whose free KV memory fits their predicted output.",
     ["disaggregated serving", "scheduling", "KV cache"], None),
    ("2611.02744", 8, "2026-11-04T01:22:06.480Z",
     "SideSample overlaps token sampling on the CPU with the next decode step on the GPU.",
     ["decoding", "sampling", "throughput"], "https://github.com/sidesample/sidesample"),
    ("2611.03390", 6, "2026-11-04T01:37:55.127Z",
     "SplitTail prefills the last chunk of a long prompt on the decode node while the rest of the KV cache is transferred.",
     ["disaggregated serving", "prefill", "long context"], None),
    ("2611.03517", 2, "2026-11-04T03:44:31.902Z",
     "Analytical queries are admitted only when worker nodes can hold their predicted peak working memory.",
     ["databases", "admission control", "memory"], None),
]

DAY = Day(number=20, date="2026-11-04", pub="Wed, 04 Nov 2026 00:00:00 -0500",
          last_build="Wed, 04 Nov 2026 05:00:41 +0000", seed=20261104,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"EtherKV", "PausePoint", "Memory-Aware", "Lathe",
                                                                  "Tessera"},
          ids=(38950, 40400), hf=HF, hf_published=("2026-11-03T00:00:00.000Z", "2026-11-03T20:00:00.000Z"),
          prefixes=("Danube", "Volga", "Mekong", "Yukon", "Tigris", "Orinoco", "Zambezi", "Rhone", "Loire", "Tagus"))


def write_day(day, root):
    """The shared generator's write_day, with the HF-only paper handed to the HF writer beside the listing's."""
    papers = write_listing(day, root)
    write_hf(day, {**papers, **HF_ONLY}, root)
    print(len(papers), "listing items;", len(day.hf), "HF items (1 not in the listing)")


if __name__ == "__main__":
    write_day(DAY, HERE)
