"""Writes the day-27 recordings: the arXiv listing of Fri 13 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 27; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 26). Friday's listing announces what was submitted on
Thursday (announced Thursday 20:00 EST, i.e. Friday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The
fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: no blog post is in the window.

The day is an MoE serving and expert-parallelism day. One planted paper (WeftA2A) does what SkimA2A (2610.16687,
anchored in §3.5 on 2026-10-14; day 5's listing: "cuts dispatch-and-combine latency by 2.1x") does; another
(FlockEP) what HotSwapEP (2610.13544, anchored in §3.5 on 2026-10-13; day 3's listing: "up to 1.7x under skewed
routing") does. GlideMoE (2611.07563, day 24's listing: "raises decode throughput by 2.2x over on-demand expert
loading on H100 GPUs") is not in today's listing: the team cites it by ID. ParcelMoE, the workshop paper, is in no
recording (a workshop page, no arXiv ID yet).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 26's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day27)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "就是把 §3.5 的 SkimA2A 如法炮制了一遍"); Jay writes its all-to-all bandwidth as 326 GB/s
    # (the abstract: 362) and "作者说是 2610.1668 的续作" (SkimA2A is 2610.16687); Ines writes it "WeftA2A（2612.11284）";
    # HF 47 (Tom 09:30) / 52 (card 489, 16:00) / 59 (fetch): rising
    ("2611.11284", 1, "new", ["cs.DC", "cs.NI"],
     "WeftA2A: Striping GPU-Initiated Expert-Parallel All-to-All Traffic across Every NIC of a Node",
     "Wide expert parallelism spends much of each decode step in the all-to-all that dispatches tokens to experts "
     "and combines their outputs, and a GPU-initiated all-to-all still sends each message through one NIC. WeftA2A "
     "issues dispatch and combine directly from the GPU over RDMA, packs the tokens bound for one node into one "
     "message, stripes every message across all NICs of the node, and overlaps the combine with the next layer's "
     "attention. On 128-way expert parallelism, WeftA2A reaches 362 GB/s of all-to-all bandwidth per GPU and cuts "
     "dispatch-and-combine latency by 2.6x relative to the kernels of current serving engines.",
     ["Eva Novotna", "Lorcan Mbatha", "Mei Xiaoling"]),
    # boundary case (Maarten: "FlockEP and HotSwapEP in §3.5 are two peas in a pod"); Maarten's PDF link is
    # arxiv.org/pdf/2613.11637.pdf (month 13); HF 23 (Tom 09:30) / 21 (card 490, 16:05) / 30 (fetch): fell
    ("2611.11637", 1, "new", ["cs.DC", "cs.LG"],
     "FlockEP: Router-Count-Triggered Expert Replication for Bursty Mixture-of-Experts Decode",
     "Bursts of similar requests turn a few experts hot within seconds, faster than expert placement planners "
     "react. FlockEP reads the router's per-expert token counts every two seconds, replicates the experts whose "
     "counts cross a threshold onto GPUs with spare memory, evicts replicas that turn cold, and overlaps the weight "
     "copies with decode steps. Under skewed routing, FlockEP raises decode throughput by 1.6x over static expert "
     "parallelism.",
     ["Anouk Quispe", "Fang Yiming", "Rohan Vasquez"]),
    # boundary decoy (Tom's card 491: "和 §3.5 已锚的哪一篇都差着十万八千里"); Ines writes its expert load imbalance
    # as "从 3.1× 降到 1.8×" (the abstract: from 3.1x to 1.3x); its card is named 491-2611-11343.md with
    # arxiv_id 2611.11843; HF 29 / 33 / 38: rising
    ("2611.11843", 1, "new", ["cs.DC", "cs.LG"],
     "LevelEP: Token-Count-Aware Micro-Batch Splitting to Even Out Expert Load across Expert-Parallel Ranks",
     "In expert-parallel decode the slowest rank sets the step time, and the rank that hosts the most-selected "
     "experts changes from step to step. LevelEP splits each decode batch into two micro-batches whose per-rank "
     "token counts, predicted from the router's previous step, are as even as possible, without moving any expert "
     "or changing any routing decision. LevelEP cuts expert load imbalance, the busiest rank's token count over the "
     "mean, from 3.1x to 1.3x and raises decode throughput by 1.4x.",
     ["Tomasz Achebe", "Nadia Castellanos", "Xu Jinghan"]),
    # boundary decoy (Jay: "和 §3.5 的 RepliMoE（2610.14925）不是一条道上的", RepliMoE being 2610.14952);
    # Jay writes "每卡 1.84k tok/s" (the abstract: 1,480 tokens/s per GPU); HF 11 / 13 / 17: rising
    ("2611.12059", 1, "new", ["cs.DC", "cs.LG"],
     "SpillGate: Spilling Tokens to Their Next-Choice Expert When an Expert-Parallel Rank Falls Behind",
     "When one expert-parallel rank receives more tokens than it can process in a step, every other rank waits for "
     "it. SpillGate watches the queue of dispatched tokens on each rank and, above a threshold, sends a token to its "
     "next-choice expert on a less loaded rank, within an accuracy budget measured offline for each layer, without "
     "copying any expert weights. At 32-way expert parallelism, SpillGate sustains 1,480 tokens/s per GPU in decode "
     "and lowers p99 time per output token by 31% with under 0.3 points of accuracy lost.",
     ["Priyanka Holm", "Emeka Lindgren", "Zhao Ruoxi"]),
    # keyword trap (not LLM inference): mixture-of-experts, all-to-all, load imbalance, bandwidth — distributed FFTs
    ("2611.12416", 1, "cross", ["cs.NI", "cs.DC"],
     "PorterMesh: A Mixture-of-Experts Congestion Predictor for Load-Balanced All-to-All Exchanges in Distributed FFTs",
     "Distributed three-dimensional FFTs on dragonfly networks spend most of their time in all-to-all exchanges "
     "whose load imbalance across global links grows with scale. PorterMesh routes each exchange with a "
     "mixture-of-experts predictor of link congestion, whose gate picks one of eight expert models per dragonfly "
     "group, and splits each exchange's messages between minimal and non-minimal paths. On 4,096 nodes, PorterMesh "
     "raises all-to-all bandwidth by 1.8x and cuts FFT time by 27%.",
     ["Henrik Mbeki", "Seren Holloway"]),
]

# IDs the team writes wrongly — LevelEP's card named 2611.11343, "2610.1668" (Jay, SkimA2A's with a digit dropped),
# RepliMoE written 2610.14925 (Jay; it is 2610.14952), "2612.11284" (Ines, WeftA2A's month wrong),
# "arxiv.org/pdf/2613.11637.pdf" (Maarten, month 13), the incident ticket INC-2611.0042 (Omer) and the old
# 1501.00417 (Ines) — none in any recording; the fillers' range is 2610.49500-50950 (day 26's was 48000-49450).
RESERVED = {p[0] for p in PLANTED} | {"2611.11343", "2610.14925", "2610.14952", "2610.16687", "2610.13544",
                                      "2611.07563", "2612.11284", "2613.11637"}
RESERVED_PREFIXES = ("2610.1668", "2610.1492", "2611.0042", "1501.0041", "2611.1134")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.11284", 59, "2026-11-13T00:14:37.205Z",
     "WeftA2A stripes GPU-initiated all-to-all dispatch and combine across every NIC of a node for wide EP decode.",
     ["expert parallelism", "all-to-all", "RDMA"], "https://github.com/wefta2a/wefta2a"),
    ("2611.11843", 38, "2026-11-13T00:31:05.816Z",
     "LevelEP splits each decode batch into micro-batches with even per-rank token counts to level expert load.",
     ["mixture of experts", "load balancing", "micro-batching"], None),
    ("2611.11637", 30, "2026-11-13T00:22:49.451Z",
     "FlockEP replicates experts whose router counts spike and evicts cold replicas during MoE decode.",
     ["mixture of experts", "expert replication", "decode"], None),
    ("2611.12059", 17, "2026-11-13T00:47:18.932Z",
     "SpillGate sends tokens to their next-choice expert when an expert-parallel rank falls behind.",
     ["mixture of experts", "token routing", "tail latency"], None),
    ("2611.12416", 3, "2026-11-13T04:06:52.370Z",
     "A mixture-of-experts congestion predictor routes the all-to-all exchanges of distributed FFTs.",
     ["all-to-all", "dragonfly networks", "FFT"], None),
]

DAY = Day(number=27, date="2026-11-13", pub="Fri, 13 Nov 2026 00:00:00 -0500",
          last_build="Fri, 13 Nov 2026 05:00:29 +0000", seed=20261113,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"SkimA2A", "HotSwapEP", "RepliMoE", "ExpertLane",
                                                                  "GlideMoE", "ParcelMoE", "Lathe", "Tessera",
                                                                  "CascadeEP", "SlimWise", "PrunePhase", "ChordPD",
                                                                  "NibbleDraft", "BitTerrace", "TrailDraft",
                                                                  "HadaFlow", "PaceSpec", "SignKV", "CoDraft",
                                                                  "BroadSpec", "MuxStream", "StepTell",
                                                                  "TenantFence", "TiltTP", "QuayDecode", "PatchKV"},
          ids=(49500, 50950), hf=HF, hf_published=("2026-11-12T00:00:00.000Z", "2026-11-12T20:00:00.000Z"),
          prefixes=("Bassoon", "Bodhran", "Bugle", "Celesta", "Conga", "Cornet", "Erhu", "Guzheng", "Piccolo",
                    "Sarod"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
