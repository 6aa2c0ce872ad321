"""Writes the day-17 recordings: the arXiv listing of Fri 30 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 17; this file is the day's data. Run from tests/data/day17: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 16). No blog posted in the window: the blog recordings
of day 16 (and earlier) stay as they are, and this file does not touch them. Friday's listing announces what
was submitted on Thursday; the HF daily of Friday features those papers.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # tests/data/day17
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.35174", 1, "new", ["cs.DC", "cs.NI"],
     "DetourKV: Two-Hop KV Cache Transfers through Idle Peers for Congested Disaggregated Serving",
     "Under incast, the direct link between a prefill node and a decode node congests, and the KV cache transfer delays the first decode step. "
     "DetourKV probes the queueing delay of each path and sends part of each KV transfer over a two-hop path through the NIC of an idle peer node, reassembling the two streams at the decode node. "
     "DetourKV lowers p99 time-to-first-token by 29% under incast.",
     ["Selin Aydin", "Bruno Carvalho", "Hou Ming"]),
    ("2610.34961", 1, "new", ["cs.DC", "cs.LG"],
     "ForkEP: Online Replication of Hot Expert Shards during Mixture-of-Experts Decode",
     "In expert-parallel MoE decode, routing skew makes a few experts hot, and the GPUs that hold them set the step time. "
     "ForkEP replicates shards of hot experts (half of an expert's FFN columns) onto GPUs with spare memory while decoding runs, splits each hot expert's tokens between its copies, and evicts replicas that have cooled down; the copies are made between decode steps. "
     "ForkEP raises decode throughput by 1.35x on a 64-GPU wide-EP deployment under skewed routing.",
     ["Viktor Hallberg", "Amara Nwosu", "Tang Wei", "Priya Raman"]),
    ("2610.35329", 1, "new", ["cs.DC", "cs.PF"],
     "PowerStep: Tuning Batch Size and SM Frequency at Every Decode Step under a Rack Power Budget",
     "The throughput and the power draw of a serving GPU both depend on the batch size of each decode step and on the SM clock. "
     "PowerStep selects, at every decode step, the batch size and the SM frequency that give the most tokens per joule, while a power model predicts the rack's draw and keeps it under the budget. "
     "On a 48-GPU rack, PowerStep generates 1.19x more tokens per joule than throughput-first batching.",
     ["Ines Valente", "Kwame Asante", "Lu Xin"]),
    # boundary case with no word from the team: the overlap is in the abstract only (RingCast, §5)
    ("2610.34625", 1, "new", ["cs.DC", "cs.LG"],
     "OrbitAttn: Hiding the KV Exchange of Ring Attention inside the Attention Kernel",
     "Ring attention for million-token prefill exposes the exchange of KV blocks between GPUs whenever a block arrives after the compute needs it. "
     "OrbitAttn issues the send of the next KV block and the receive of the previous one from inside the attention kernel, so that communication around the ring overlaps with the attention computation of the current block. "
     "OrbitAttn raises prefill throughput on 1M-token prompts by 1.4x over ring attention on 32 GPUs.",
     ["Jonas Eklund", "Ayesha Siddiqui", "Ren Hao"]),
    # boundary decoys: a paper set apart from an anchored one in English ("Not a repeat of KVDedup"); one set
    # apart in Chinese ("和 FlashPD 是两条路")
    ("2610.34788", 1, "new", ["cs.LG", "cs.CL"],
     "MeldKV: Merging the KV Entries of Near-Duplicate Tokens within a Request for Long-Context Decode",
     "Long prompts hold many spans whose tokens carry nearly identical keys and values, such as repeated boilerplate. "
     "MeldKV merges adjacent tokens whose keys lie within a small cosine distance into one KV entry with a count, and corrects the attention weights with the counts. "
     "MeldKV cuts KV memory by 2.3x on long-document question answering with less than one point of accuracy loss.",
     ["Clara Bianchi", "Obinna Eze", "Shen Yu"]),
    ("2610.35546", 1, "new", ["cs.DC", "cs.LG"],
     "SliceDecode: Slicing the KV Sequence across Thread Blocks for Long-Context GQA Decode Attention",
     "Decode attention over long contexts leaves most streaming multiprocessors idle, because one thread block handles the whole KV sequence of a head. "
     "SliceDecode cuts the KV sequence of each head into slices handled by separate thread blocks and combines their partial softmax results in a second pass. "
     "SliceDecode speeds up decode attention by 2.8x at 128K context on an H200.",
     ["Mikael Strand", "Zainab Bello", "Guo Ting"]),
    # HF-featured paper far from LLM inference (Tom names it in passing)
    ("2610.34533", 1, "new", ["cs.CV"],
     "GlacierSeg: Delineating Glacier Calving Fronts in SAR Imagery with Boundary-Aware Segmentation",
     "Glaciologists trace the calving fronts of marine-terminating glaciers by hand in SAR images. "
     "GlacierSeg segments the front with a boundary-aware loss and a shape prior learned from earlier seasons. "
     "Its fronts lie within 85 m of manual delineations on five glaciers.",
     ["Sigrid Olafsdottir", "Mateus Reis"]),
    # keyword trap (not LLM inference): a "KV cache" in front of an LSM-tree key-value store
    ("2610.35701", 1, "cross", ["cs.DB", "cs.OS"],
     "Learned Admission Control for KV Caches in Front of LSM-Tree Stores",
     "Key-value caches in front of LSM-tree stores admit every item read, so one-off scans evict hot keys. "
     "We learn an admission policy from access histories that predicts whether an item will be read again before it would be evicted, and admit only those items. "
     "On three production traces the cache's hit rate rises from 71% to 83% and read amplification falls by 22%.",
     ["Daniela Ruiz", "Kofi Mensah"]),
]

# IDs the team writes wrongly: ForkEP 2610.34916 (the group chat; two neighbouring digits swapped) and
# 2610.35392 (card 453's file name; PowerStep with its last two digits swapped) must stay unknown, and no filler
# may start with 2610.3462 (the queue's four-digit arxiv.org link 2610.3462, whose only likely ID is OrbitAttn's).
# 2160.35174 (month 60, DetourKV in the chat), 2611.03157 (a November ID in Omer's note), QuietLane written
# 2610.29004 (its anchored 2610.29040 with two digits swapped) and TwinPage written with ShardLoad's 2610.32751 lie
# outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.34916", "2610.35392"}
RESERVED_PREFIXES = ("2610.34916", "2610.35392", "2610.3462")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.34533", 44, "2026-10-30T00:00:00.000Z",
     "GlacierSeg traces glacier calving fronts in SAR images with a boundary-aware loss and a learned shape prior.",
     ["remote sensing", "segmentation", "glaciology"], "https://github.com/glacierseg/glacierseg"),
    ("2610.34961", 19, "2026-10-30T00:11:48.205Z",
     "ForkEP replicates shards of hot experts onto GPUs with spare memory during MoE decode and evicts them when they cool down.",
     ["mixture of experts", "expert parallelism", "LLM serving"], "https://github.com/forkep/forkep"),
    ("2610.35174", 15, "2026-10-30T00:00:00.000Z",
     "DetourKV sends part of a congested KV cache transfer over a two-hop path through an idle peer's NIC.",
     ["KV transfer", "RDMA", "disaggregated serving"], None),
    ("2610.34625", 10, "2026-10-30T00:37:12.550Z",
     "OrbitAttn issues ring attention's KV sends and receives from inside the attention kernel for million-token prefill.",
     ["ring attention", "long context", "attention kernels"], None),
    ("2610.34788", 8, "2026-10-30T00:00:00.000Z",
     "MeldKV merges the KV entries of adjacent near-duplicate tokens within a request and corrects attention with counts.",
     ["KV cache", "compression", "long context"], None),
    ("2610.35329", 6, "2026-10-30T01:02:33.871Z",
     "PowerStep picks each decode step's batch size and SM frequency for the most tokens per joule under a rack power budget.",
     ["energy efficiency", "LLM serving", "power capping"], None),
    ("2610.35546", 4, "2026-10-30T01:44:09.318Z",
     "SliceDecode splits each head's KV sequence across thread blocks for long-context decode attention.",
     ["attention kernels", "decode", "GQA"], None),
    ("2610.35701", 2, "2026-10-30T02:19:56.027Z",
     "A learned admission policy keeps one-off scans out of the key-value cache in front of an LSM-tree store.",
     ["key-value stores", "caching", "LSM-tree"], None),
]

DAY = Day(number=17, date="2026-10-30", pub="Fri, 30 Oct 2026 00:00:00 -0400",
          last_build="Fri, 30 Oct 2026 04:00:38 +0000", seed=20261030,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Learned", "Lathe", "Tessera"},
          ids=(34450, 35900), hf=HF, hf_published=("2026-10-29T00:00:00.000Z", "2026-10-29T20:00:00.000Z"),
          prefixes=("Burrata", "Cheddar", "Gouda", "Halloumi", "Havarti", "Manchego", "Paneer", "Ricotta", "Stilton", "Taleggio"))


if __name__ == "__main__":
    write_day(DAY, HERE)
