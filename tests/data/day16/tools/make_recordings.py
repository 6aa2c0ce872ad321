"""Writes the day-16 recordings: the arXiv listing of Thu 29 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 16; this file is the day's data. Run from tests/data/day16: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 15). The blog recordings of the day
(workspace/recordings/blogs/*.xml: lathe-blog, vllm-blog, llm-d, lmcache, tessera-eng, each the latest earlier
version with the day's posts added on top) are hand-written files, not made here. Thursday's listing announces
what was submitted on Wednesday; the HF daily of Thursday features those papers.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.33418", 1, "new", ["cs.DC"],
     "MoveOut: Draining Decode Instances for Rolling Upgrades by Live Request Migration",
     "Rolling upgrades of a serving fleet either wait for the long requests of each decode instance to finish or drop them. "
     "MoveOut empties a decode instance before maintenance by live-migrating each running request and its KV cache to peer decode instances while decoding goes on, and switches each request over between two decode steps. "
     "A drain of a 70B model's instance completes in 3.1 s and adds 9% to p99 TPOT while it runs; no request is dropped.",
     ["Lucia Moretti", "Chidi Okonkwo", "Pan Rui"]),
    ("2610.33076", 1, "new", ["cs.DC", "cs.OS"],
     "PeerBoot: Cold-Starting Serving Replicas from a Peer's GPU Memory, Layer by Layer",
     "Cold-starting a serving replica from object storage takes minutes, which makes scale-up slow. "
     "PeerBoot copies the weights layer by layer from the GPU memory of a running replica over RDMA, and the new replica begins prefill as soon as its first layers are in place. "
     "PeerBoot cuts the cold start of a 70B replica 3.6x compared with loading from object storage.",
     ["Gustavo Prado", "Halima Yusuf", "Kong Lei"]),
    ("2610.34129", 1, "new", ["cs.CV", "cs.LG"],
     "SightDraft: A Small VLM Drafter Fed Only the Image Tokens the Target Attends To",
     "Draft models for vision-language models spend most of their compute on image tokens that do not affect the drafted text. "
     "SightDraft gives a small draft model only the image tokens that receive the most attention in the target model's first layer; the target verifies the drafted text tokens with the full image. "
     "SightDraft decodes 1.9x faster on single-image prompts with identical outputs.",
     ["Ingrid Solberg", "Tariq Haddad", "Mei Lin"]),
    # boundary decoys: a paper set apart from an anchored one in words ("不是一回事"); one set apart in English
    # ("Unlike KVCC")
    ("2610.33562", 1, "new", ["cs.DC"],
     "PausePoint: Pausing the Decode of Requests Whose Clients Read Slowly",
     "Some streaming clients read tokens far more slowly than the server generates them, and their requests hold batch slots while the unread output piles up. "
     "PausePoint pauses the decode of a request whose client's unread buffer is full, gives its batch slot to other requests while its KV cache stays in GPU memory, and resumes decoding when the client catches up. "
     "PausePoint raises the goodput of a chat service by 16% under a mix of fast and slow readers.",
     ["Nadia Rahimi", "Oskar Lind", "Feng Yue"]),
    ("2610.33845", 1, "new", ["cs.DC", "cs.NI"],
     "HopKV: Relaying KV Cache Transfers through Idle Nodes when the Direct Link Is Congested",
     "In disaggregated serving, the link between a prefill node and a decode node congests under incast, and the KV transfer stalls the start of decoding. "
     "HopKV detects a congested direct path and relays part of the KV cache through the NIC of an idle node on a second path, merging the two streams at the decode node. "
     "Under incast, HopKV lowers the p99 KV transfer time by 38%.",
     ["Marek Dvorak", "Funmi Adeyemi", "Qiu Jing"]),
    # HF-featured paper far from LLM inference (Tom names it in passing)
    ("2610.33290", 1, "new", ["cs.CV"],
     "ReefCount: Counting Coral Colonies from Drone Imagery with Point Supervision",
     "Surveys of coral reefs count colonies by hand from drone imagery. "
     "ReefCount learns to count colonies from point annotations only, with a density head that handles overlapping colonies. "
     "Its counts are within 6% of expert divers' counts on four reefs.",
     ["Leilani Kahale", "Tomas Ibarra"]),
    # keyword trap (not LLM inference): "speculative decoding" of polar codes on FPGAs
    ("2610.34017", 1, "cross", ["cs.AR", "cs.IT"],
     "Speculative Successive-Cancellation Decoding of Polar Codes on FPGAs",
     "Successive-cancellation decoding of polar codes is sequential, which limits the throughput of FPGA decoders. "
     "We speculate on the values of groups of frozen and information bits and roll back on a mismatch, which shortens the critical path. "
     "Our decoder reaches 1.7x the throughput of a pipelined baseline at the same error rate.",
     ["Rafael Quintero", "Ama Boateng"]),
]

# IDs the team writes wrongly: SightDraft 2610.34192 (the group chat; two neighbouring digits swapped) must stay
# unknown, and no filler may start with 2610.3384 (Tom's four-digit HopKV link, 2610.3384, whose only likely ID is
# HopKV's). 2618.33562 (month 18, PausePoint in the chat), 2611.05836 (a November ID in Spark's note), 2612.01473
# (a December ID on card 448), LoomDraft written 2610.15183 (its anchored 2610.15138 with two digits swapped) and
# PieceFill written with ShallowDraft's 2610.16059 lie outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.34192"}
RESERVED_PREFIXES = ("2610.34192", "2610.3384")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.33290", 45, "2026-10-29T00:00:00.000Z",
     "ReefCount counts coral colonies in drone imagery from point annotations only.",
     ["remote sensing", "counting", "ecology"], "https://github.com/reefcount/reefcount"),
    ("2610.33076", 21, "2026-10-29T00:14:22.418Z",
     "PeerBoot cold-starts a serving replica by copying weights layer by layer from a running peer's GPU memory over RDMA.",
     ["model loading", "RDMA", "autoscaling"], None),
    ("2610.33418", 17, "2026-10-29T00:00:00.000Z",
     "MoveOut drains decode instances before upgrades by live-migrating running requests and their KV cache to peers.",
     ["LLM serving", "live migration", "KV cache"], "https://github.com/moveout/moveout"),
    ("2610.34129", 12, "2026-10-29T00:41:07.903Z",
     "SightDraft feeds a small VLM drafter only the image tokens the target attends to most, decoding 1.9x faster.",
     ["speculative decoding", "vision-language models", "drafting"], None),
    ("2610.33845", 9, "2026-10-29T00:00:00.000Z",
     "HopKV relays KV cache transfers through idle nodes when the direct prefill-to-decode link is congested.",
     ["KV transfer", "RDMA", "disaggregated serving"], None),
    ("2610.33562", 7, "2026-10-29T01:20:45.112Z",
     "PausePoint pauses the decode of requests whose clients read slowly and gives their batch slots to others.",
     ["LLM serving", "scheduling", "streaming"], None),
    ("2610.34017", 3, "2026-10-29T02:05:31.640Z",
     "Speculation over groups of bits shortens the critical path of polar-code decoders on FPGAs.",
     ["polar codes", "FPGA", "channel decoding"], None),
]

DAY = Day(number=16, date="2026-10-29", pub="Thu, 29 Oct 2026 00:00:00 -0400",
          last_build="Thu, 29 Oct 2026 04:00:41 +0000", seed=20261029,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Speculative", "Lathe", "Tessera"},
          ids=(32950, 34400), hf=HF, hf_published=("2026-10-28T00:00:00.000Z", "2026-10-28T20:00:00.000Z"),
          prefixes=("Bucatini", "Farfalle", "Fusilli", "Gnocchi", "Linguine", "Orzo", "Ravioli", "Rigatoni", "Tortellini", "Ziti"))


if __name__ == "__main__":
    write_day(DAY)
