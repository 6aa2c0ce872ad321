"""Writes the day-12 recordings: the arXiv listing of Fri 23 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 12; this file is the day's data. Run from tests/data/day12: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 11). The two blog recordings of the day
(workspace/recordings/blogs/lathe-blog.xml and tessera-eng.xml) are hand-written files, not made here.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.27318", 1, "new", ["cs.CL", "cs.LG"],
     "SkimFill: Training-Free Block-Sparse Prefill for Long Prompts from Pooled Query-Key Scores",
     "Long-prompt prefill spends most of its time on attention between blocks that barely interact. "
     "SkimFill pools the queries and keys of every block, scores each block pair, and keeps for each query block only the highest-scoring key blocks until their cumulative score reaches a threshold, with no training and no change to the model. "
     "SkimFill speeds up the prefill of 128K-token prompts 3.1x with under half a point lost on long-document benchmarks.",
     ["Hedda Solberg", "Rafael Pinto", "Qin Lan"]),
    ("2610.27642", 1, "new", ["cs.DC", "cs.LG"],
     "PinLoRA: Routing Each Request to a Replica that Already Holds Its LoRA Adapter, with Queue-Threshold Spillover",
     "In multi-LoRA serving a request whose adapter is not resident waits for the adapter to load. "
     "PinLoRA keeps a map of the adapters resident on each replica and sends every request to a replica that already holds its adapter, spilling it over to the least-loaded replica when the queues of those replicas pass a threshold. "
     "PinLoRA lowers the p95 queueing delay by 26% on a trace of 600 adapters.",
     ["Noor Haddad", "Stefan Kral", "Wei Ming"]),
    ("2610.27935", 1, "new", ["cs.DC", "cs.NI"],
     "CutLoose: Cancelling the Requests of Disconnected Clients at the Next Decode Step",
     "Streaming chat servers keep generating tokens for clients that have gone away. "
     "CutLoose detects a closed connection or a client that stopped reading its stream, cancels the request at the next decode step, and returns its batch slot and KV blocks to the scheduler. "
     "CutLoose raises peak-hour throughput by 9% on a chat trace.",
     ["Aino Virtanen", "Kwame Boateng", "Liu Jie"]),
    ("2610.27186", 1, "new", ["cs.DC", "cs.NI"],
     "NICFan: Load-Aware Stripe Widths for Layer-wise KV Streaming across All NICs of a Node",
     "Layer-wise KV streaming from prefill to decode nodes over a single NIC leaves the other NICs of a node idle. "
     "NICFan stripes each layer's KV cache across every NIC of the node, sizes each stripe by the current load of its NIC, and reorders the stripes at the receiver. "
     "On 64K-token prompts NICFan lowers p99 TTFT by 24% relative to stripes of equal width.",
     ["Marek Dvorak", "Chiamaka Obi", "Tang Yu"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.28057", 1, "new", ["cs.LG", "cs.AR"],
     "FoldQ: FP4 Inference with Per-Group Scales Re-fitted Online from Activation Statistics",
     "Static FP4 scales drift away from the activations a model sees in deployment. "
     "FoldQ keeps weights and activations in FP4 with per-group scales that it re-fits online from running activation statistics, with no calibration set and no training. "
     "FoldQ raises decode throughput 1.5x over FP8 (1.2x at batch size 1) with under one point of accuracy lost.",
     ["Ingrid Moe", "Tariq Aziz", "Fang Qi"]),
    ("2610.27459", 1, "new", ["cs.DC", "cs.OS"],
     "PrimeCtx: A Pool of Pre-Created CUDA Contexts and Memory Pools for Starting Serving Processes",
     "A new serving process spends seconds creating CUDA contexts and allocating memory pools before it loads any weights. "
     "PrimeCtx keeps a pool of pre-created CUDA contexts with reserved memory pools on every GPU and hands one to each new serving process, which then only loads its weights. "
     "PrimeCtx shortens process start-up by 3.2 s per GPU.",
     ["Luca Bianchi", "Amara Nwosu", "He Bin"]),
    ("2610.28213", 1, "new", ["cs.DC"],
     "PairUp: Matching Prefilled Requests to Decode Instances by Predicted Output Length and Free KV Memory",
     "After prefill, disaggregated serving hands each request to a decode instance in round-robin order, and requests with long outputs pile up on instances short of KV memory. "
     "PairUp predicts each request's output length and hands it to the decode instance whose free KV memory best fits the request's expected footprint. "
     "PairUp lowers decode preemptions by 63% on a chat trace.",
     ["Sigrid Holm", "Youssef Amrani", "Pan Rui"]),
    ("2610.27771", 1, "new", ["cs.DC", "cs.LG"],
     "GaugeLong: Predicting the Peak KV Memory of Million-Token Requests before Admitting Them",
     "A million-token request admitted into a cluster can exhaust KV memory halfway through its prefill. "
     "GaugeLong predicts a request's peak KV memory from its prompt length, the model and the cluster's cache settings, and admits it only when some group of GPUs has that much memory free. "
     "GaugeLong avoids every out-of-memory abort on a trace of long-document requests.",
     ["Elsa Lund", "Ravi Shankar", "Mo Xiao"]),
    # HF-featured paper far from inference
    ("2610.28340", 1, "new", ["cs.CV", "q-bio.PE"],
     "MossMap: Mapping Moss Cover on Boulders from Drone Imagery",
     "Ecologists estimate moss cover on boulder fields by hand, one quadrat at a time. "
     "MossMap segments moss from drone images with a small network trained on a few hundred labelled patches. "
     "Cover estimates match field surveys closely at four sites.",
     ["Kirsti Aas", "Tomas Ruiz"]),
    # keyword traps (not LLM inference systems)
    ("2610.28102", 1, "new", ["cs.DC"],
     "Load-Aware Striping of Parallel File System Traffic across All NICs of HPC Nodes",
     "Parallel file system clients on HPC nodes send all their traffic through a single NIC. "
     "We stripe file system traffic across every NIC of a node and size each stripe by the load of its NIC. "
     "Checkpoint write bandwidth rises on a production machine.",
     ["Berit Olsen", "Pavel Sokol"]),
    ("2610.27520", 1, "cross", ["cs.DB", "cs.DC"],
     "Cancelling Orphaned Queries in Distributed SQL Engines after Client Disconnects",
     "Distributed SQL engines keep executing queries whose clients have disconnected. "
     "We detect closed client sessions at the coordinator and cancel the query's fragments on every worker. "
     "Wasted worker time falls on a production cluster.",
     ["Greta Lind", "Joao Matos"]),
]

# IDs the team writes wrongly: PinLoRA 2610.27624 (the group chat; two neighbouring digits swapped) and PairUp
# 2610.28231 (card 438's file name; two digits swapped) must stay unknown; no filler may start with 2610.2793
# (Spark's "arXiv 2610.2793", CutLoose 2610.27935 with a digit dropped). 2613.28213 (month 13, an HF URL for PairUp),
# 2611.04127 (a November ID on card 437) and EarlyQuit's 2610.22930 (an old day's range) lie outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.27624", "2610.28231"}
RESERVED_PREFIXES = ("2610.27624", "2610.28231", "2610.2793")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.28340", 33, "2026-10-23T00:00:00.000Z",
     "MossMap segments moss cover on boulder fields from drone imagery.",
     ["ecology", "segmentation", "drone imagery"], "https://github.com/mossmap/mossmap"),
    ("2610.27318", 25, "2026-10-23T00:00:00.000Z",
     "SkimFill keeps only the highest-scoring key blocks per query block during prefill, 3.1x faster at 128K tokens.",
     ["sparse attention", "prefill", "long context"], "https://github.com/skimfill/skimfill"),
    ("2610.27642", 19, "2026-10-23T00:37:52.118Z",
     "PinLoRA routes each request to a replica that already holds its LoRA adapter, spilling over past a queue threshold.",
     ["multi-LoRA serving", "routing", "adapters"], None),
    ("2610.28057", 14, "2026-10-23T00:00:00.000Z",
     "FoldQ re-fits per-group FP4 scales online, raising decode throughput 1.5x over FP8.",
     ["quantization", "FP4", "online calibration"], None),
    ("2610.27186", 12, "2026-10-23T01:05:16.740Z",
     "NICFan sizes the stripes of layer-wise KV streaming by each NIC's load, lowering p99 TTFT by 24%.",
     ["KV transfer", "networking", "disaggregated serving"], None),
    ("2610.28213", 9, "2026-10-23T00:00:00.000Z",
     "PairUp hands prefilled requests to the decode instance whose free KV memory fits their predicted output.",
     ["LLM serving", "disaggregation", "scheduling"], None),
    ("2610.27935", 8, "2026-10-23T01:48:33.302Z",
     "CutLoose cancels the requests of disconnected clients at the next decode step.",
     ["LLM serving", "request cancellation", "scheduling"], None),
    ("2610.27459", 6, "2026-10-23T00:00:00.000Z",
     "PrimeCtx hands pre-created CUDA contexts and memory pools to new serving processes.",
     ["LLM serving", "start-up", "CUDA"], None),
    ("2610.28102", 4, "2026-10-23T00:00:00.000Z",
     "Load-aware striping spreads parallel file system traffic over every NIC of an HPC node.",
     ["HPC", "networking", "file systems"], None),
    ("2610.27771", 3, "2026-10-23T02:21:40.964Z",
     "GaugeLong predicts the peak KV memory of million-token requests before admitting them.",
     ["long context", "admission control", "memory"], None),
]

DAY = Day(number=12, date="2026-10-23", pub="Fri, 23 Oct 2026 00:00:00 -0400",
          last_build="Fri, 23 Oct 2026 04:00:44 +0000", seed=20261023,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Load-Aware", "Cancelling", "Lathe", "Tessera"},
          ids=(26950, 28400), hf=HF, hf_published=("2026-10-22T00:00:00.000Z", "2026-10-22T20:00:00.000Z"),
          prefixes=("Cirrus", "Cumulus", "Drizzle", "Gust", "Hail", "Monsoon", "Sleet", "Squall", "Stratus", "Zonda"))


if __name__ == "__main__":
    write_day(DAY)
