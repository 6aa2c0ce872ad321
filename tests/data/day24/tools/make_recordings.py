"""Writes the day-24 recordings: the arXiv listing of Tue 10 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 24; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 23). Tuesday's listing announces what was submitted on
Monday (announced Monday 20:00 EST, i.e. Tuesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers
keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: the one blog post of the window (tessera-eng's CoDraft benchmark, published
Tuesday 08:30 CST) is hand-written in workspace/recordings/blogs/tessera-eng.xml.

The day is a benchmarking day: the team's notes set the papers' figures beside their own load tests. One planted
paper (KeyAtlas) has a title and an abstract nearly identical to KeyBook's (2611.05937, day 22's listing, anchored
in §2.5 on 2026-11-09) but other authors, another coined name and a title worded differently.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 23's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day24)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "就是 §2.5 昨天刚锚的 KeyBook 换了个马甲"): KeyBook's abstract nearly word for word, other
    # authors (KeyBook's are Ragnar Holt, Lucia Ferrante, Qian Hui); its figure 3.3x (KeyBook's 3.4x)
    ("2611.07842", 1, "new", ["cs.LG", "cs.CL"],
     "KeyAtlas: Per-Head Codebooks for Compressing the Key Cache of Long-Context Decoding",
     "Long-context decoding reads every cached key at every step. KeyAtlas replaces each key vector by the index of "
     "its nearest entry in a small codebook learned per attention head, and computes attention scores against the "
     "codebook inside the attention kernel; the values are kept as they are. KeyAtlas shrinks the key cache by 3.3x "
     "with under 0.5 points of accuracy loss on long-context benchmarks.",
     ["Mattias Brenner", "Oluwaseun Adeyemi", "Fang Yue"]),
    # boundary decoy (Jay: "和 §2.2.1 的 QuietLane 风马牛不相及"); a ⚠ on Lathe's nightly; Ines's table copies 2.5x
    # (the paper's comparison with colocated serving) for 1.7x; HF 19 (Tom 09:30) / 27 (card 479) / 24 (fetch)
    ("2611.08127", 1, "new", ["cs.DC", "cs.LG"],
     "ChordPD: Splitting Each GPU's SMs between Prefill and Decode, Resized Every Second from Queue Lengths",
     "Disaggregated serving moves prefill and decode to separate GPUs and pays for the KV transfer between them, "
     "while colocated serving lets long prefills stall decode steps. ChordPD keeps both phases of a request on one "
     "GPU and splits the GPU's streaming multiprocessors between a prefill partition and a decode partition, "
     "resizing the split every second from the lengths of the two queues. ChordPD raises serving throughput by 1.7x "
     "over a disaggregated baseline at the same SLOs on H200 GPUs.",
     ["Idris Kamara", "Helga Strand", "Peng Rui"]),
    # boundary decoy (Maarten: "GlideMoE and RepliMoE in §3.5 are chalk and cheese"); "Unverified: … Gaudi 3";
    # Ines's table copies 2.9x (the A100 runs of a figure) for the abstract's 2.2x on H100;
    # its card is named 480-2611-07653.md with arxiv_id 2611.07563
    ("2611.07563", 1, "new", ["cs.DC", "cs.LG"],
     "GlideMoE: Streaming Missing Experts from Host Memory One Layer Ahead for MoE Decode on Few GPUs",
     "MoE models whose experts do not fit in GPU memory stall decoding while missing experts are fetched. GlideMoE "
     "predicts from the router of each layer which experts the next layer will need and streams the missing ones "
     "from host memory over PCIe one layer ahead, overlapping the copy with the current layer's compute. GlideMoE "
     "raises decode throughput by 2.2x over on-demand expert loading on H100 GPUs.",
     ["Rasmus Elling", "Chiamaka Obi", "Wei Lan"]),
    # boundary case (Maarten: "It is a dead ringer for LoadLens in §2.3"); Maarten writes "arXiv 2611.0793"
    ("2611.07931", 1, "new", ["cs.DC", "cs.NI"],
     "EvenDecode: Balancing Predicted Outstanding Decode Work across Serving Replicas",
     "Load balancers for LLM serving count requests or tokens in flight and ignore how long each request will keep "
     "decoding. EvenDecode predicts each request's output length from its prompt with a small model and sends the "
     "request to the replica with the least expected outstanding decode work, updating each replica's account as "
     "tokens are produced. EvenDecode lowers p99 TPOT by 18% at the same throughput on a 32-replica deployment.",
     ["Noor Haddad", "Linus Berg", "Sun Qiao"]),
    # keyword trap (not LLM inference): load generators for microservice benchmarks, a benchmarking day's words
    ("2611.08240", 1, "cross", ["cs.PF", "cs.NI", "cs.DC"],
     "HonestLoad: Correcting Coordinated Omission in Open-Loop Load Generators for Microservice Benchmarks",
     "Load generators that wait for a response before sending the next request hide the worst latencies of a "
     "saturated service, a flaw known as coordinated omission. HonestLoad issues requests on an open-loop schedule, "
     "records each request's latency from its intended send time, and reports throughput and p99 latency for each "
     "dashboard panel. On microservice benchmarks, the corrected p99 latencies are up to 4.1x higher than those "
     "reported by closed-loop generators.",
     ["Greta Wollin", "Tomasz Malec"]),
]

# IDs the team writes wrongly — ScrollDraft as 2611.06425 (Ines), GlideMoE's card named 2611.07653,
# "arXiv 2611.0793" (Maarten) and "1311.26715" (Maarten) — none in any recording;
# the fillers' range is 2610.45000-46450 (day 23's was 43500-44950).
RESERVED = {p[0] for p in PLANTED} | {"2611.06425", "2611.07653"}
RESERVED_PREFIXES = ("2611.0793", "1311.2671")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.08127", 24, "2026-11-10T00:16:52.407Z",
     "ChordPD splits each GPU's SMs between prefill and decode and resizes the split every second.",
     ["prefill-decode", "SM partitioning", "serving"], "https://github.com/chordpd/chordpd"),
    ("2611.07931", 15, "2026-11-10T00:29:38.915Z",
     "EvenDecode routes each request to the replica with the least predicted outstanding decode work.",
     ["load balancing", "output length prediction", "serving"], None),
    ("2611.07563", 14, "2026-11-10T00:44:11.263Z",
     "GlideMoE streams the experts the next layer will need from host memory one layer ahead.",
     ["mixture of experts", "expert offloading", "prefetching"], None),
    ("2611.07842", 12, "2026-11-10T00:58:27.640Z",
     "KeyAtlas replaces cached keys with indices into per-head codebooks; values are kept as they are.",
     ["KV cache", "codebook quantization", "long context"], None),
    ("2611.08240", 4, "2026-11-10T03:41:09.172Z",
     "Open-loop load generation corrects the coordinated omission of closed-loop microservice benchmarks.",
     ["load testing", "tail latency", "benchmarking"], None),
]

DAY = Day(number=24, date="2026-11-10", pub="Tue, 10 Nov 2026 00:00:00 -0500",
          last_build="Tue, 10 Nov 2026 05:00:39 +0000", seed=20261110,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"KeyBook", "LoadLens", "QuietLane", "RepliMoE",
                                                                  "ScrollDraft", "SignKV", "CoDraft", "Lathe",
                                                                  "Tessera", "BroadSpec", "TiltTP", "MuxStream",
                                                                  "QuayDecode", "PatchKV"},
          ids=(45000, 46450), hf=HF, hf_published=("2026-11-09T00:00:00.000Z", "2026-11-09T20:00:00.000Z"),
          prefixes=("Puffin", "Plover", "Curlew", "Dunlin", "Godwit", "Avocet", "Bittern", "Shrike",
                    "Wagtail", "Whimbrel"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
