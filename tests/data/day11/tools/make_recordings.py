"""Writes the day-11 recordings: the arXiv listing of Thu 22 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 11; this file is the day's data. Run from tests/data/day11: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 10).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.25618", 1, "new", ["cs.DC", "cs.OS"],
     "CryoServe: Compressed GPU Snapshots for Restoring LLM Serving Engines at Startup",
     "A new LLM serving instance spends tens of seconds loading weights and capturing CUDA graphs before it serves a request. "
     "CryoServe snapshots a warmed-up serving engine's GPU memory and process state once, compresses the snapshot, and restores it from local NVMe when the next instance starts. "
     "CryoServe cuts the cold start of a 70B engine from 38 s to 4 s.",
     ["Marta Lindgren", "Obinna Eze", "Han Jing"]),
    ("2610.26073", 1, "new", ["cs.CL", "cs.LG"],
     "StrideSpec: Choosing Each Request's Draft Length per Step from Its Running Acceptance Rate",
     "A fixed number of draft tokens per step wastes verification on requests whose drafts are rarely accepted. "
     "StrideSpec keeps an exponentially smoothed running acceptance rate for every request and chooses, at every decoding step, how many tokens that request drafts, without training and without changing the draft or target model. "
     "StrideSpec decodes 2.1x faster than autoregressive decoding on chat.",
     ["Petra Novak", "Samir Haddad", "Ruan Xin"]),
    ("2610.25873", 1, "new", ["cs.DC", "cs.NI"],
     "LastAck: Sender-Held KV Copies Re-sent to Standby Decode Instances after Transfer Failures",
     "When a decode node fails in the middle of a KV cache transfer, disaggregated serving recomputes the prefill from scratch. "
     "LastAck keeps the sender's KV copy in prefill memory until the decode node acknowledges the last layer, and re-sends it to a standby decode instance when a transfer fails. "
     "LastAck recovers a failed transfer within 180 ms.",
     ["Jakob Brandt", "Leila Farouk", "Ma Tao"]),
    ("2610.26318", 1, "new", ["cs.DC", "cs.LG"],
     "TokenToll: Per-Tenant Token Buckets Charged with Predicted Tokens at Admission",
     "Shared LLM endpoints let one tenant's burst delay every other tenant. "
     "TokenToll gives each tenant a token bucket, charges every request at admission with its predicted prompt and output tokens, and queues or rejects the requests of a tenant whose bucket is empty instead of preempting running ones. "
     "TokenToll keeps every tenant within its quota on a production trace.",
     ["Clara Hofmann", "Vikram Rao", "Zhou Yue"]),
    ("2610.26149", 1, "new", ["cs.DC", "cs.LG"],
     "HeatCast: Forecasting Hot Experts from Router Statistics and Replicating Them before the Load Arrives",
     "Expert load in MoE decoding shifts with the traffic, and replicating an expert after it turns hot comes too late. "
     "HeatCast forecasts from the router statistics of the last few hundred steps which experts will turn hot and replicates them onto idle GPUs before the load arrives. "
     "Under skewed expert load HeatCast raises decode throughput 1.3x (1.05x under uniform load).",
     ["Tomasz Wolski", "Ana Lima", "Xu Peng"]),
    ("2610.25702", 1, "new", ["cs.DC", "cs.CY"],
     "WattLedger: Per-Request Carbon Accounting for LLM Serving from Metered GPU Power",
     "Customers of LLM services ask for the emissions of their own requests, not of the whole cluster. "
     "WattLedger meters each GPU's power, splits the energy of every interval among the requests in the running batch by their share of KV cache memory and compute, and multiplies it by the grid's carbon intensity. "
     "WattLedger attributes 98% of the metered energy to requests.",
     ["Ines Duarte", "Lars Eriksen", "Gao Min"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.26044", 1, "new", ["cs.DC", "cs.LG"],
     "AdaptRoute: Sending Each Request to a Replica that Already Holds Its LoRA Adapter",
     "Multi-LoRA serving loads adapters on demand, and a request whose adapter is not resident waits for the load. "
     "AdaptRoute tracks which adapters each replica holds and sends every request to a replica that already holds its adapter, loading the adapter elsewhere only when all such replicas are full. "
     "AdaptRoute lowers the mean queueing delay by 18% on a trace of 400 adapters.",
     ["Robin Clarke", "Mehmet Aydin", "Shen Li"]),
    ("2610.25531", 1, "new", ["cs.CL", "cs.LG"],
     "BlockSieve: Training-Free Block Masks for Long-Prompt Prefill from Pooled Query-Key Scores",
     "Prefill of long prompts is dominated by attention over blocks that contribute little. "
     "BlockSieve pools queries and keys per block, scores every block pair, and computes attention only over the top-scoring blocks of each row, with no training and no change to the model. "
     "BlockSieve speeds up the prefill of 128K-token prompts 2.6x with under half a point lost on long-document benchmarks.",
     ["Greta Vogel", "Ahmed Nasser", "Kang Wei"]),
    ("2610.26487", 1, "new", ["cs.DC"],
     "LocalFill: Prefilling Short Prompts on the Decode Node instead of Disaggregating Them",
     "Disaggregated serving sends every prompt to a separate prefill pool, although for short prompts moving the cache costs more than computing it. "
     "LocalFill decides per request, from its prompt length and the current network load, whether to prefill it remotely or on the decode node itself. "
     "LocalFill lowers the latency of short requests by 31%.",
     ["Oskar Berg", "Nadia Rahimi", "Lou Chen"]),
    ("2610.25964", 1, "new", ["cs.LG", "cs.AR"],
     "StowMoE: Serving MoE Models on One Consumer GPU by Prefetching Predicted Experts from CPU Memory",
     "Mixture-of-experts models do not fit in the memory of a consumer GPU. "
     "StowMoE keeps all experts in CPU memory, predicts from the current hidden state which experts the next layer will select, and copies them over PCIe while the current layer computes. "
     "StowMoE decodes 3.1x faster than on-demand offloading on a single 24 GB GPU.",
     ["Elena Popescu", "Yusuf Kaya", "Bai Hong"]),
    ("2610.26230", 1, "new", ["cs.LG", "cs.AR"],
     "TwirlQ: Online Hadamard Rotations for W4A4 Inference without Outlier Channels",
     "Four-bit activations lose accuracy because a few channels carry large outliers. "
     "TwirlQ rotates weights offline and activations online with fast Hadamard transforms, so that 4-bit weights and activations keep accuracy with no outlier handling and no training. "
     "TwirlQ raises decode throughput 1.6x over FP8 with under one point of accuracy lost.",
     ["Lukas Horvath", "Priya Menon", "Dai Rong"]),
    # HF-featured paper far from inference
    ("2610.26555", 1, "new", ["cs.CV", "q-bio.PE"],
     "BeeCount: Counting Honeybees at Hive Entrances from Thermal Video",
     "Beekeepers judge colony strength by eye at the hive entrance. "
     "BeeCount counts bees entering and leaving from thermal video with a small tracker that runs on a solar-powered board. "
     "Counts match manual counts closely over a summer at twelve hives.",
     ["Sofie Dahl", "Matteo Greco", "Abe Ren"]),
    # keyword traps (not LLM inference systems)
    ("2610.26612", 1, "new", ["cs.DC"],
     "Checkpointing Long-Running Climate Simulations to Node-Local NVMe",
     "Climate simulations on supercomputers checkpoint their state to a shared parallel file system. "
     "We write checkpoints to node-local NVMe and drain them to the file system in the background, restoring from the local copy after a crash. "
     "Checkpoint stalls shrink on a production machine.",
     ["Irene Kowal", "Felix Braun"]),
    ("2610.26702", 1, "cross", ["cs.NI", "eess.SP"],
     "Per-Flow Token Buckets for Fair Uplink Scheduling in Wi-Fi 7",
     "Uplink traffic of many stations competes for the same access point. "
     "We give every flow a token bucket at the access point and schedule uplink transmissions from the buckets. "
     "Fairness improves on a dense office testbed.",
     ["Hanna Sand", "Diego Marin"]),
]

# IDs the team writes wrongly: AdaptRoute 2610.26404 (the group chat; two neighbouring digits swapped) and HeatCast
# 2610.26194 (card 434's file name; two digits swapped) must stay unknown; 2600.26318 (month 00, TokenToll),
# 2614.25873 (month 14, the queue's LastAck line), 2611.03318 and 1312.04400 are outside the range.
RESERVED = {p[0] for p in PLANTED} | {"2610.26404", "2610.26194"}
RESERVED_PREFIXES = ("2610.26404", "2610.26194")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.26555", 35, "2026-10-22T00:00:00.000Z",
     "BeeCount counts honeybees at hive entrances from thermal video on a solar-powered board.",
     ["ecology", "object counting", "thermal imaging"], "https://github.com/beecount/beecount"),
    ("2610.26073", 26, "2026-10-22T00:00:00.000Z",
     "StrideSpec picks each request's draft length per step from its running acceptance rate, 2.1x faster on chat.",
     ["speculative decoding", "adaptive drafting", "LLM inference"], "https://github.com/stridespec/stridespec"),
    ("2610.25618", 21, "2026-10-22T00:41:07.512Z",
     "CryoServe restores LLM serving engines from compressed GPU snapshots, cutting a 70B cold start from 38 s to 4 s.",
     ["LLM serving", "cold start", "checkpoint restore"], None),
    ("2610.25702", 17, "2026-10-22T00:00:00.000Z",
     "WattLedger attributes a GPU cluster's metered energy and carbon emissions to individual LLM requests.",
     ["carbon accounting", "energy", "LLM serving"], None),
    ("2610.26149", 15, "2026-10-22T01:12:44.208Z",
     "HeatCast forecasts which MoE experts will turn hot and replicates them early, raising decode throughput 1.3x.",
     ["mixture of experts", "expert replication", "forecasting"], None),
    ("2610.26230", 12, "2026-10-22T00:00:00.000Z",
     "TwirlQ uses online Hadamard rotations for W4A4 inference, raising decode throughput 1.6x over FP8.",
     ["quantization", "W4A4", "Hadamard rotation"], None),
    ("2610.26044", 10, "2026-10-22T02:03:19.655Z",
     "AdaptRoute routes each request to a replica that already holds its LoRA adapter.",
     ["multi-LoRA serving", "routing", "adapters"], None),
    ("2610.25531", 8, "2026-10-22T00:00:00.000Z",
     "BlockSieve computes prefill attention only over top-scoring blocks, 2.6x faster at 128K tokens.",
     ["long context", "block masks", "prefill"], None),
    ("2610.26612", 5, "2026-10-22T00:00:00.000Z",
     "Node-local NVMe checkpoints shorten the stalls of long-running climate simulations.",
     ["HPC", "checkpointing", "climate simulation"], None),
    ("2610.26487", 4, "2026-10-22T02:37:58.031Z",
     "LocalFill prefills short prompts on the decode node instead of disaggregating them.",
     ["LLM serving", "disaggregation", "scheduling"], None),
]

DAY = Day(number=11, date="2026-10-22", pub="Thu, 22 Oct 2026 00:00:00 -0400",
          last_build="Thu, 22 Oct 2026 04:00:37 +0000", seed=20261022,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Checkpointing", "Per-Flow"},
          ids=(25450, 26900), hf=HF, hf_published=("2026-10-21T00:00:00.000Z", "2026-10-21T20:00:00.000Z"),
          prefixes=("Atoll", "Bayou", "Dingle", "Gorge", "Karst", "Levee", "Oxbow", "Shoal", "Shingle", "Wadi"))


if __name__ == "__main__":
    write_day(DAY)
