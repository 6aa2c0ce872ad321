"""Writes the day-13 recordings: the arXiv listing of Mon 26 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 13; this file is the day's data. Run from tests/data/day13: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 12). The two blog recordings of the day
(workspace/recordings/blogs/lathe-blog.xml and tessera-eng.xml) are hand-written files, not made here.
Monday's listing announces what was submitted on Thursday after the cut-off and on Friday; the HF daily of
Monday features those papers.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.29114", 1, "new", ["cs.DC", "cs.OS"],
     "ShelfCtx: A Warm Shelf of Pre-Created CUDA Contexts and Memory Pools, Bucketed by GPU Model and Driver",
     "Starting a serving process spends seconds creating CUDA contexts and memory pools before any weight is loaded. "
     "ShelfCtx keeps a shelf of pre-created CUDA contexts with reserved memory pools on every GPU, bucketed by GPU model and driver version, and hands one to each new serving process, which then only loads its weights. "
     "ShelfCtx shortens process start-up by 3.6 s per GPU.",
     ["Oskar Lindgren", "Adaeze Eze", "Zhou Heng"]),
    ("2610.28806", 1, "new", ["cs.CL", "cs.LG"],
     "TempoDraft: Per-Request Draft Lengths Chosen by a Bandit over Running Acceptance Rates",
     "Speculative decoding drafts the same number of tokens for every request, although acceptance differs from request to request. "
     "TempoDraft keeps each request's running acceptance rate and lets a multi-armed bandit choose how many tokens that request drafts at each step, with no training and no change to the draft or target model. "
     "TempoDraft decodes 2.4x faster than autoregressive decoding on chat traffic.",
     ["Matteo Ricci", "Hye-jin Seo", "Lars Berg"]),
    ("2610.29372", 1, "new", ["cs.CR", "cs.CL"],
     "BurstTell: Recovering the Topic of Streamed LLM Responses from TLS Record Sizes under Speculative Decoding",
     "Under speculative decoding a streaming API sends a variable number of tokens per step, and the sizes of the TLS records that carry them stay visible on the wire. "
     "BurstTell trains a classifier on sequences of record sizes and recovers the topic of a streamed response from encrypted traffic alone. "
     "BurstTell identifies the topic among 50 topics with 76% accuracy.",
     ["Selin Arslan", "Jonas Meier", "Gao Ting"]),
    ("2610.28591", 1, "new", ["cs.DC", "cs.LG"],
     "GridNap: Deferring Offline Batch Inference to the Cheapest and Cleanest Grid Hours before Deadlines",
     "Offline batch inference jobs can wait hours before they must finish. "
     "GridNap forecasts each data center's hourly electricity price and grid carbon intensity and defers batch inference jobs into the hours with the lowest weighted sum that still meet their deadlines. "
     "GridNap cuts the electricity cost of batch inference by 27% and its emissions by 19% on a month of jobs.",
     ["Freya Nilsen", "Olumide Bakare", "Ren Yi"]),
    # boundary decoys: new papers that name or sit beside an anchored paper and do something else
    ("2610.29040", 1, "new", ["cs.DC"],
     "QuietLane: Running the Decode Steps of Latency-Critical Tenants on Reserved SMs",
     "When latency-critical and throughput tenants share a GPU, the decode steps of the former wait behind large batches of the latter. "
     "QuietLane reserves a slice of each GPU's streaming multiprocessors for latency-critical tenants and runs their decode steps only there, so that no tenant preempts another. "
     "QuietLane lowers the p99 TPOT of latency-critical tenants by 31% on a mixed production trace.",
     ["Henrik Dahl", "Ngozi Eke", "Xu Lei"]),
    ("2610.29208", 1, "new", ["cs.DC", "cs.LG"],
     "LongLedger: Accounting the KV Memory of Each Rank during Long-Context Prefill",
     "Long-context prefill split across ranks runs out of memory on one rank while its neighbours still have room. "
     "LongLedger keeps a ledger of the KV memory each rank holds during prefill and moves KV blocks from a rank about to run out to a neighbour with room. "
     "LongLedger completes every request of a long-document trace that exhausted memory without it.",
     ["Annika Vogel", "Tunde Afolabi", "Song Wei"]),
    ("2610.28937", 1, "new", ["cs.LG", "cs.AR"],
     "ScaleMint: Per-Head FP8 Attention Scales Calibrated from One Forward Pass",
     "FP8 attention kernels need a scale per tensor, and a single scale loses accuracy on heads with outliers. "
     "ScaleMint calibrates one FP8 scale per attention head from a single forward pass over a small prompt set and fixes the scales for deployment, with no training. "
     "ScaleMint raises attention throughput 1.3x over BF16 attention (1.1x at 4K tokens) with accuracy within half a point.",
     ["Camille Roux", "Idris Bello", "Lu Fang"]),
    # a replacement of a paper the team anchored (§1.(1), 2026-10-09): v2 changes the headline figure
    ("2610.11409", 2, "replace", ["cs.DC", "cs.CL"],
     "ToolCache: Reusing KV Cache across Tool Calls in Agentic LLM Serving",
     "Agent programs call the model dozens of times with contexts that grow by a tool result at each step, yet serving engines evict the KV cache between calls. "
     "ToolCache pins the KV cache of an agent program across tool calls with a program-aware eviction policy and resumes decoding after a tool returns without recomputing the prefix. "
     "On SWE-agent and web-agent workloads, ToolCache reduces end-to-end agent latency by 33%. "
     "This version re-runs the baselines with prefix caching enabled, which v1 left off.",
     ["Carlos Mendez", "Aiko Mori", "Daniel Fischer"]),
    # HF-featured paper far from inference
    ("2610.29655", 1, "new", ["cs.SD", "q-bio.PE"],
     "OwlCall: Identifying Owl Species from Night-Time Audio Recordings",
     "Surveys of owls rely on volunteers who listen to night-time recordings by ear. "
     "OwlCall classifies owl calls in long field recordings with a small audio network trained on a few thousand labelled clips. "
     "Species counts agree with expert surveys at five forest sites.",
     ["Maren Holt", "Diego Farias"]),
    # keyword trap (not LLM inference)
    ("2610.28719", 1, "cross", ["cs.DC", "cs.PF"],
     "Carbon-Aware Placement of HPC Batch Jobs into Hours of Cheap Electricity",
     "HPC centres run simulation batch jobs as soon as nodes are free, whatever electricity costs at the time. "
     "We forecast the hourly electricity price and carbon intensity of the grid and delay batch jobs with slack into the cheapest hours before their deadlines. "
     "The energy bill of a national HPC centre falls over a year of jobs.",
     ["Kaisa Rantanen", "Bruno Costa"]),
]

# IDs the team writes wrongly: TempoDraft 2610.28860 (the group chat; two neighbouring digits swapped) and BurstTell
# 2610.29327 (card 441's file name; two digits swapped) must stay unknown. 2610.2489 (Tom's "follow-up to", PaceSpec
# 2610.24893 with a digit dropped), 2616.28591 (month 16, GridNap in the chat), 2611.00862 (a November ID in Spark's
# note) and GaugeLong written with FoldQ's 2610.28057 (day 12's IDs) lie outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.28860", "2610.29327"}
RESERVED_PREFIXES = ("2610.28860", "2610.29327")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.29655", 44, "2026-10-26T00:00:00.000Z",
     "OwlCall classifies owl species from night-time field recordings.",
     ["bioacoustics", "audio classification", "ecology"], "https://github.com/owlcall/owlcall"),
    ("2610.29114", 21, "2026-10-26T00:00:00.000Z",
     "ShelfCtx hands pre-created CUDA contexts and memory pools, bucketed by GPU model and driver, to new serving processes.",
     ["LLM serving", "start-up", "CUDA"], "https://github.com/shelfctx/shelfctx"),
    ("2610.28806", 19, "2026-10-26T00:21:07.512Z",
     "TempoDraft picks each request's draft length with a bandit over its running acceptance rate, decoding 2.4x faster on chat.",
     ["speculative decoding", "bandits", "LLM inference"], None),
    ("2610.29372", 14, "2026-10-26T00:00:00.000Z",
     "BurstTell infers the topic of encrypted streamed responses from TLS record sizes under speculative decoding.",
     ["side channels", "speculative decoding", "security"], None),
    ("2610.28591", 11, "2026-10-26T00:48:55.203Z",
     "GridNap defers offline batch inference jobs to the cheapest and cleanest grid hours before their deadlines.",
     ["batch inference", "energy", "carbon"], None),
    ("2610.29040", 8, "2026-10-26T00:00:00.000Z",
     "QuietLane runs the decode steps of latency-critical tenants on reserved SMs, lowering their p99 TPOT by 31%.",
     ["multi-tenant serving", "GPU partitioning", "latency"], None),
    ("2610.29208", 6, "2026-10-26T01:12:30.846Z",
     "LongLedger tracks the KV memory of each rank during long-context prefill and moves blocks to neighbours with room.",
     ["long context", "memory", "prefill"], None),
    ("2610.28937", 5, "2026-10-26T00:00:00.000Z",
     "ScaleMint calibrates per-head FP8 attention scales from one forward pass, raising attention throughput 1.3x over BF16.",
     ["quantization", "FP8", "attention"], None),
    ("2610.28719", 3, "2026-10-26T02:05:44.019Z",
     "Carbon-aware placement delays HPC batch jobs into hours of cheap electricity.",
     ["HPC", "energy", "scheduling"], None),
]

DAY = Day(number=13, date="2026-10-26", pub="Mon, 26 Oct 2026 00:00:00 -0400",
          last_build="Mon, 26 Oct 2026 04:00:39 +0000", seed=20261026,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Carbon-Aware", "Lathe", "Tessera"},
          ids=(28450, 29900), hf=HF, hf_published=("2026-10-23T00:00:00.000Z", "2026-10-25T20:00:00.000Z"),
          prefixes=("Lute", "Oboe", "Cello", "Lyre", "Kazoo", "Fife", "Tabla", "Sitar", "Zither", "Banjo"))


if __name__ == "__main__":
    write_day(DAY)
