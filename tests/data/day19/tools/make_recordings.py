"""Writes the day-19 recordings: the arXiv listing of Tue 3 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 19; this file is the day's data. Run from tests/data/day19: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 18). The day is a blog day: four configured blogs post on
Tuesday, and their recordings under workspace/recordings/blogs/ are written by hand (day 16's files with the day's
entries added on top); this file does not touch them. Tuesday's listing announces what was submitted on Monday
(announced Monday 20:00 EST, i.e. Tuesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers keep the
shared generator's 2610 numbers (it writes no other month); no rule reads them. The HF daily of Tuesday features
the planted papers.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # tests/data/day19
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case: a paper the team calls KeyFold (§2.5, anchored 2026-10-15) told again in other words
    ("2611.02471", 1, "new", ["cs.LG", "cs.CL"],
     "NarrowKey: Caching Keys in a Learned Per-Head Subspace for Long-Context Decoding",
     "The keys of an attention head vary along far fewer directions than the head dimension. "
     "NarrowKey fits a low-rank projection for every head offline, stores the projected keys in the KV cache in place of the full keys, computes the attention scores in the projected space and keeps the values in FP8; the method applies unchanged to grouped-query attention. "
     "On long-context benchmarks NarrowKey shrinks KV cache memory by 2.5x with under one point of accuracy loss, counting the projection matrices.",
     ["Rasmus Holm", "Amara Eze", "Sun Yifan"]),
    # boundary case: a paper that repeats GraphStash (§2.1, anchored this morning, 2026-11-03)
    ("2611.01963", 1, "new", ["cs.DC", "cs.OS"],
     "GraphHold: Persisting Captured CUDA Graphs to Skip Graph Capture at Engine Restart",
     "Once the weights load quickly, capturing a CUDA graph for every batch shape dominates the cold start of an LLM serving engine. "
     "GraphHold serializes the captured graphs together with the batch shapes and memory layout they were captured for, keeps them on local disk and loads them at the next start instead of capturing them again; graphs captured on one GPU model are translated for another by rewriting their kernel launch parameters. "
     "GraphHold cuts the cold start of a 70B engine by 23 s.",
     ["Beatriz Lobo", "Kwame Asante", "Ye Lan"]),
    # boundary decoy: set apart from KeyFold by the team (values, not keys)
    ("2611.02208", 1, "new", ["cs.LG", "cs.CL"],
     "ValueBook: Codebook Quantization of the Value Cache",
     "Most work on shrinking the KV cache targets the keys, yet the values take half of it. "
     "ValueBook quantizes each value vector with a small codebook learned per layer, stores the code indices in the cache and decodes them inside the attention kernel; the keys are left untouched. "
     "ValueBook halves KV cache memory on 128K-token benchmarks with under half a point of accuracy loss.",
     ["Petra Novotna", "Ibrahim Sall", "Guo Ming"]),
    # HF-featured paper far from LLM inference (Tom names it in passing)
    ("2611.01745", 1, "new", ["cs.SD", "cs.LG"],
     "WrenCall: Few-Shot Bird Song Identification from Noisy Field Recordings",
     "Field recordings of bird song are noisy and most species have only a handful of labelled calls. "
     "WrenCall pretrains an audio encoder on unlabelled recordings and identifies species from a few labelled calls with a prototype classifier. "
     "It identifies 91% of the species in a held-out set of 300 field recordings.",
     ["Siobhan Kelly", "Mateus Rocha"]),
    # keyword trap (not LLM inference): compiled shader pipelines persisted across restarts of a game engine
    ("2611.02536", 1, "cross", ["cs.GR", "cs.OS"],
     "Persisting Compiled Shader Pipelines across Restarts of a Game Engine",
     "A game engine compiles a graphics pipeline for every combination of shader and render state on first use, which causes stutter after each restart. "
     "We serialize the compiled pipelines together with the driver version and render states they were compiled for, and load them at the next start instead of compiling them again; pipelines compiled for one GPU are rebuilt lazily for another. "
     "On three commercial titles the scheme removes 87% of first-frame stutter.",
     ["Lukas Berger", "Yuki Tanaka"]),
]

# IDs the team writes wrongly, all outside the fillers' range (2610.37450-38900): NarrowKey written 2611.02417 (Tom's
# heading, the last two digits swapped) must stay unknown; arXiv:2613.02471 (the chat: month 13) and
# arXiv:2612.00913 (Omer: a December ID in a November note) are in no recording.
RESERVED = {p[0] for p in PLANTED} | {"2611.02417"}
RESERVED_PREFIXES = ("2611.02417",)

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.01745", 44, "2026-11-03T01:03:12.418Z",
     "WrenCall identifies bird species from a few labelled calls in noisy field recordings.",
     ["audio", "bioacoustics", "few-shot"], "https://github.com/wrencall/wrencall"),
    ("2611.02471", 19, "2026-11-03T01:08:45.092Z",
     "NarrowKey stores each head's keys in a learned low-rank subspace and attends in the projected space.",
     ["KV cache", "compression", "long context"], None),
    ("2611.01963", 16, "2026-11-03T01:14:30.771Z",
     "GraphHold persists captured CUDA graphs on local disk and reloads them when an LLM serving engine restarts.",
     ["CUDA graphs", "cold start", "LLM serving"], "https://github.com/graphhold/graphhold"),
    ("2611.02208", 10, "2026-11-03T01:27:54.330Z",
     "ValueBook quantizes the value cache with per-layer codebooks and leaves the keys untouched.",
     ["KV cache", "quantization", "long context"], None),
    ("2611.02536", 3, "2026-11-03T03:21:09.864Z",
     "Compiled shader pipelines are serialized and reloaded across game engine restarts to remove first-frame stutter.",
     ["graphics", "shaders", "game engines"], None),
]

DAY = Day(number=19, date="2026-11-03", pub="Tue, 03 Nov 2026 00:00:00 -0500",
          last_build="Tue, 03 Nov 2026 05:00:37 +0000", seed=20261103,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Learned", "Lathe", "Tessera", "Persisting"},
          ids=(37450, 38900), hf=HF, hf_published=("2026-11-02T00:00:00.000Z", "2026-11-02T20:00:00.000Z"),
          prefixes=("Bagpipe", "Bongo", "Cajon", "Dulcimer", "Kalimba", "Mandolin", "Marimba", "Ocarina", "Theremin",
                    "Ukulele"))


if __name__ == "__main__":
    write_day(DAY, HERE)
