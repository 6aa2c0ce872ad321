"""Writes the day-31 recordings: the arXiv listing of Thu 19 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 31; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 30). Thursday's listing announces what was submitted on
Wednesday (announced Wednesday 20:00 EST, i.e. Thursday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The
fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a quiet prefill/decode disaggregation and KV-cache transfer day: four new papers, a keyword trap, and
many of the team's own figures. Spark reproduces RailKV (2610.14688, §2.4.1, anchored 2026-10-14; day 4's listing:
"sustains 187 GB/s of KV transfer per node over four 400G rails and reduces p99 TTFT by 29% relative to single-rail
layer-wise streaming"): the TTFT row agrees, the bandwidth row does not (151 GB/s), and the per-rail row is written
in Gb/s for GB/s (Jay's comment in the same note). One planted paper (SwayPD) does what ElasticPD (2610.10951, §2.4:
"P:D instance ratio adapted to bursty traffic") does, by Jay's word; one (TailKV, one letter from RailKV) what KVCC
(2610.08694, §2.4.1: "deadline-aware RDMA congestion control for KV cache transfer") does, by Maarten's English
card. WireQuant overlaps nothing anchored in §2.4.1 (Jay); LoanHBM is set apart from LocalFill (2610.26487, §2.4)
by Ines. FerryKV is the keyword trap (LSM-tree key-value stores, no LLM).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 30's do.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day31)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "SwayPD 就是如假包换的 ElasticPD"); the abstract gives a range, 1.6–2.1x; Tom's card 508
    # quotes its upper end, "goodput 高 2.1×"; Omer writes it "SwayPD（2612.16204）" (a month later);
    # HF 38 (Tom 09:30) / 42 (card 508, 16:00) / 49 (fetch): rising
    ("2611.16204", 1, "new", ["cs.DC", "cs.LG"],
     "SwayPD: Moving GPUs between Prefill and Decode Pools Every Few Seconds",
     "A static ratio of prefill to decode instances wastes GPUs whenever the mix of prompt and output lengths shifts, "
     "and it shifts within minutes. SwayPD forecasts the queues of both pools a few seconds ahead and moves GPUs "
     "between them, draining a decode instance of its running requests before it turns to prefill. Across four "
     "production traces, SwayPD raises goodput by 1.6–2.1x over the best static prefill-to-decode ratio at the "
     "same TTFT and TPOT SLOs.",
     ["Wiebke Sørensen", "Hamid Karimi", "Lou Jingwen"]),
    # boundary case (Maarten's English card 509: "TailKV is a twin of §2.4.1's KVCC"); its name is one letter from
    # the anchored RailKV (2610.14688), which it has nothing to do with; Jay: its README calls it "2610.1468 的升级版"
    # (RailKV is 2610.14688); Maarten's card writes its HF page https://huggingface.co/papers/2611.1638 (four
    # digits); Ines writes "WireQuant（2611.16385）", TailKV's ID; HF 27 (Tom 09:30) / 25 (card 509, 16:10) / 36
    # (fetch): fell
    ("2611.16385", 1, "new", ["cs.DC", "cs.NI"],
     "TailKV: Ordering KV Cache Transfers by TTFT Slack in Disaggregated LLM Serving",
     "In disaggregated serving, the KV transfers of many requests share the links between prefill and decode nodes, "
     "and a request close to its TTFT deadline can wait behind bulk transfers of requests with time to spare. TailKV "
     "orders the NIC send queue by the remaining TTFT slack of each transfer and preempts bulk transfers at layer "
     "boundaries. Under incast, TailKV lowers p99 TTFT by 31% relative to first-come KV transfer.",
     ["Teodor Vasilescu", "Ngozi Eze", "Fang Zhiyuan"]),
    # boundary decoy (Jay: "WireQuant 在 §2.4.1 里找不到同类", no paper named); Jay's table writes "等效 41 GB/s"
    # (the abstract: 44 GB/s); HF 22 (Tom 09:30) / 24 (card 510, 16:20) / 33 (fetch): rising
    ("2611.16527", 1, "new", ["cs.DC", "cs.LG"],
     "WireQuant: FP8 on the Wire for KV Cache Transfer between Prefill and Decode Nodes",
     "The KV cache that disaggregated serving moves from prefill to decode nodes is kept in BF16, and its transfer "
     "time grows with the prompt. WireQuant quantizes the KV cache to FP8 on the sender only for the wire and "
     "restores BF16 on arrival, sending per-block scales alongside, so that neither node's attention kernels "
     "change. On 200 Gb/s NICs, WireQuant delivers the KV cache of a 32K-token prompt at an effective 44 GB/s and "
     "lowers p99 TTFT by 23%, with no measurable loss of accuracy.",
     ["Odile Ferrand", "Siddharth Rao", "Meng Qiaoyu"]),
    # boundary decoy (Ines: "LoanHBM 和 §2.4 的 LocalFill 扯不到一块"); Ines writes "多接 1.7× 的并发" (the
    # abstract: 1.4x); its card is named 511-2611-16742.md with arxiv_id 2611.16472; HF 12 / 15 / 18: rising
    ("2611.16472", 1, "new", ["cs.DC", "cs.AR"],
     "LoanHBM: Lending the Idle HBM of Prefill GPUs to Decode Instances over NVLink",
     "Decode instances run out of HBM for the KV cache of long outputs, while the prefill GPUs of the same node leave "
     "much of theirs idle between bursts. LoanHBM lets a decode instance borrow free HBM of a prefill GPU in the same "
     "NVLink domain, parks there the KV cache of requests between their decode steps and reads it over NVLink, and "
     "returns the loan when the prefill queue grows. On an 8-GPU node, LoanHBM lets the decode instances hold 1.4x "
     "more concurrent requests at the same p99 TPOT.",
     ["Henrike Vogt", "Alejandro Pardo", "Tang Yiru"]),
    # keyword trap (not LLM inference): disaggregated, KV, transfer over RDMA, GB/s, p99 latency — LSM-tree
    # key-value stores
    ("2611.16910", 1, "cross", ["cs.DB", "cs.DC"],
     "FerryKV: Disaggregated Compaction for LSM-Tree Key-Value Stores over RDMA",
     "Log-structured merge-tree key-value stores stall writes when compaction competes with them for the CPU and "
     "SSD bandwidth of a storage node. FerryKV ships compaction jobs to a disaggregated pool of compute nodes, "
     "transferring the sorted runs over RDMA at 11 GB/s and writing the merged runs back, so that the storage node "
     "only serves reads and writes. On YCSB, FerryKV raises write throughput by 2.4x and lowers p99 read latency "
     "by 37%.",
     ["Ruairi Doyle", "Ilse Verbeek"]),
]

# IDs the team writes wrongly — SwayPD written 2612.16204 (Omer, a month later), LoanHBM's card named 2611.16742,
# "2610.1468" (Jay, RailKV's with a digit dropped, beside 升级版), "https://huggingface.co/papers/2611.1638"
# (Maarten's card, TailKV's with a digit dropped), "1104.31275" (Ines, five digits in April 2011), WireQuant
# written beside TailKV's 2611.16385 (Ines), the snapshot size 1411.30562 GB (Omer) and the old 1811.06965 (Ines) —
# none in any recording; the fillers' range is 2610.55500-56950 (day 30's was 54000-55450).
RESERVED = {p[0] for p in PLANTED} | {"2612.16204", "2611.16742", "2610.14688", "2610.08694", "2610.10951",
                                       "2610.26487", "1104.31275", "1411.30562", "1811.06965"}
RESERVED_PREFIXES = ("2610.1468", "2611.1638", "2612.1620", "2611.1674", "2610.0869", "2610.1095")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.16204", 49, "2026-11-19T00:14:27.506Z",
     "SwayPD moves GPUs between prefill and decode pools every few seconds from forecast queues.",
     ["PD disaggregation", "autoscaling", "goodput"], "https://github.com/swaypd/swaypd"),
    ("2611.16385", 36, "2026-11-19T00:29:53.118Z",
     "TailKV orders KV cache transfers by remaining TTFT slack and preempts bulk transfers at layer boundaries.",
     ["KV cache transfer", "TTFT", "network scheduling"], None),
    ("2611.16527", 33, "2026-11-19T00:46:08.391Z",
     "WireQuant sends the KV cache in FP8 over the network and restores BF16 on arrival.",
     ["KV cache transfer", "FP8", "PD disaggregation"], None),
    ("2611.16472", 18, "2026-11-19T01:02:44.827Z",
     "LoanHBM lets decode instances borrow idle HBM of prefill GPUs over NVLink.",
     ["KV cache", "NVLink", "memory pooling"], None),
    ("2611.16910", 4, "2026-11-19T05:51:16.240Z",
     "Compaction of LSM-tree key-value stores shipped to a disaggregated compute pool over RDMA.",
     ["key-value stores", "LSM tree", "RDMA"], None),
]

DAY = Day(number=31, date="2026-11-19", pub="Thu, 19 Nov 2026 00:00:00 -0500",
          last_build="Thu, 19 Nov 2026 05:00:41 +0000", seed=20261119,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"RailKV", "KVCC", "ElasticPD", "LocalFill",
                                                                  "PairUp", "SplitTail", "WarmStart", "DecodeDrain",
                                                                  "LayerLink", "ReplayKV", "KVCrypt", "HopKV",
                                                                  "EtherKV", "C2CFlow", "Mooncake"},
          ids=(55500, 56950), hf=HF, hf_published=("2026-11-18T00:00:00.000Z", "2026-11-18T20:00:00.000Z"),
          prefixes=("Trout", "Salmon", "Carp", "Tuna", "Mackerel", "Herring", "Cod", "Minnow", "Sardine",
                    "Halibut"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
