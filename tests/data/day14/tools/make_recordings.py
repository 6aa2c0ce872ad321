"""Writes the day-14 recordings: the arXiv listing of Tue 27 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 14; this file is the day's data. Run from tests/data/day14: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 13). The two blog recordings of the day
(workspace/recordings/blogs/lathe-blog.xml and tessera-eng.xml) are hand-written files, not made here.
Tuesday's listing announces what was submitted on Monday; the HF daily of Tuesday features those papers.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.30481", 1, "new", ["cs.DC", "cs.OS"],
     "CalmCore: Reserving a Resizable Partition of SMs for the Decode Steps of Latency-Critical Tenants",
     "Latency-critical tenants that share GPUs with batch tenants see their decode steps delayed behind the batch tenants' kernels. "
     "CalmCore reserves a partition of each GPU's streaming multiprocessors on which only latency-critical tenants decode, and resizes the partition every minute from the tenants' measured load. "
     "CalmCore lowers the p99 TPOT of latency-critical tenants by 27% on a shared inference cluster.",
     ["Ingrid Solberg", "Chidi Okonkwo", "Fang Yu"]),
    ("2610.30127", 1, "new", ["cs.LG", "cs.AR"],
     "ScaleSnap: Per-Head FP8 Attention Scales from One Calibration Pass over Production Prompts",
     "A single FP8 scale per attention tensor loses accuracy on heads whose activations have outliers. "
     "ScaleSnap calibrates one FP8 scale for each attention head in a single forward pass over prompts sampled from production traffic, then keeps the scales fixed for serving, with no training. "
     "With E4M3 scales, ScaleSnap raises attention throughput 1.25x over BF16 attention and stays within 0.4 points of BF16 accuracy.",
     ["Elodie Marchand", "Yaw Boateng", "Kong Rui"]),
    ("2610.30736", 1, "new", ["cs.DC", "cs.LG"],
     "FetchAhead: Prefetching the KV Blocks Decode Will Attend to from CPU Memory",
     "When the KV cache of long contexts lives in CPU memory, decode stalls each time it needs a block that is not in HBM. "
     "FetchAhead trains a small predictor of the KV blocks the next decode steps will attend to and prefetches those blocks from CPU memory into HBM before they are needed. "
     "FetchAhead raises decode throughput 1.7x over fetching blocks on demand on 128K-token contexts.",
     ["Tobias Brandt", "Amara Nwosu", "Qiao Min"]),
    ("2610.30592", 1, "new", ["cs.DC", "cs.PF"],
     "ClockPair: Joint Batch Size and GPU Clock Selection for Tokens per Joule under a Per-GPU Power Limit",
     "Serving engines pick the batch size for throughput and leave the GPU clock to the driver. "
     "ClockPair chooses the batch size and the GPU clock of every decode step together to maximize tokens per joule while each GPU stays under its power limit and each request within its latency target. "
     "ClockPair generates 1.19x more tokens per joule than throughput-maximizing batching on eight H100 GPUs.",
     ["Sigrid Aas", "Emeka Chukwu", "Pan Jie"]),
    # boundary decoys: new papers that build on, extend or sit beside an anchored paper and do something else
    ("2610.31027", 1, "new", ["cs.DC"],
     "ParkKV: Parking the KV Cache of Disconnected Clients so that Reconnections Resume Decoding",
     "Mobile chat clients drop their connection and reconnect seconds later, and the server then prefills the whole conversation again. "
     "ParkKV moves the KV cache of a request whose client disconnected into host memory and keeps it there for a grace period; when the client reconnects, decoding resumes from the parked cache without a second prefill. "
     "ParkKV removes 62% of repeated prefills on a mobile chat trace.",
     ["Valentina Greco", "Kwame Asante", "Lin Shu"]),
    ("2610.30864", 1, "new", ["cs.DC", "cs.LG"],
     "RingFold: A Two-Level Ring for Ring Attention across Nodes",
     "Ring attention across nodes sends every KV block over the slower inter-node network. "
     "RingFold runs two rings: KV blocks circulate over NVLink among the GPUs of a node, and at each step only one block per node crosses the network to the next node. "
     "RingFold raises prefill throughput on 1M-token prompts by 1.6x over a flat ring on 32 GPUs.",
     ["Mikael Strand", "Folake Adeyemi", "Guo Xin"]),
    ("2610.29987", 1, "new", ["cs.DC", "cs.PF"],
     "ChillServe: Raising the Cooling Setpoint of GPU Data Halls while Serving SLOs Hold",
     "Data halls that serve LLMs are cooled for the worst case. "
     "ChillServe raises the supply-air temperature setpoint of the hall step by step while the serving cluster still meets its TTFT and TPOT targets, and lowers it as soon as thermal throttling appears. "
     "ChillServe cuts cooling energy by 17% over a month of serving.",
     ["Astrid Lund", "Babatunde Ojo", "Hu Jing"]),
    # replacements of papers the team anchored: ElasticPD's v2 changes the headline figure of the doc's §2.4 line
    # (47% -> 41%); LayerLink's v2 only fixes typos (the 34% of the doc's §2.4.1 line unchanged: a decoy)
    ("2610.10951", 2, "replace", ["cs.DC", "cs.PF"],
     "ElasticPD: Adapting the Prefill-to-Decode Instance Ratio to Bursty Traffic in Disaggregated LLM Serving",
     "Prefill-decode disaggregation fixes the number of prefill and decode instances at deployment time, yet production traffic shifts between prompt-heavy and output-heavy phases within minutes. "
     "ElasticPD reassigns GPUs between the prefill and decode pools in seconds, migrating in-flight KV cache so that no request restarts. "
     "On traces from a chat service, ElasticPD cuts TTFT and TPOT SLO violations by 41% at the same GPU budget. "
     "This version corrects the burst trace, in which v1 counted some requests twice.",
     ["Wen Zhao", "Kofi Mensah", "Laura Becker"]),
    ("2610.13052", 2, "replace", ["cs.DC", "cs.NI"],
     "LayerLink: Layer-Pipelined KV Cache Transfer for Disaggregated LLM Serving over RDMA",
     "In prefill-decode disaggregation the decode instance waits until the whole KV cache of a prompt has crossed the network. "
     "LayerLink pipelines the transfer layer by layer: the KV blocks of each layer are posted as RDMA writes as soon as the prefill finishes that layer, and the decode instance starts once the first layers have landed. "
     "On 32K-token prompts on eight H200 GPUs, LayerLink reduces p99 TTFT by 34% compared with bulk transfer after prefill. "
     "Its transfer engine sustains 53.8 GB/s per GPU on RoCE. "
     "This version fixes typos and updates the references; no result changed.",
     ["Lena Hoffmann", "Kaito Mori", "Priya Raman", "Jonas Lindgren"]),
    # HF-featured paper far from inference
    ("2610.30315", 1, "new", ["cs.CV", "q-bio.QM"],
     "PollenCam: Identifying Pollen Grains in Light-Microscope Images",
     "Pollen counts for allergy forecasts are still made by trained staff at a microscope. "
     "PollenCam segments and classifies pollen grains in light-microscope slides with a compact vision model trained on annotated slides from four monitoring stations. "
     "Daily counts agree with manual counts at every station.",
     ["Lotte de Vries", "Rafael Souza"]),
    # keyword trap (not LLM inference): prefetching hot keys of a key-value store, not KV cache blocks
    ("2610.31152", 1, "cross", ["cs.DB", "cs.DC"],
     "Prefetching Hot Keys from NVMe into DRAM in Tiered Key-Value Stores",
     "Tiered key-value stores keep cold keys on NVMe and serve hot keys from DRAM, but a key that turns hot is read from NVMe many times before compaction promotes it. "
     "We predict which keys will be read next from recent access sequences and prefetch them from NVMe into DRAM ahead of the reads. "
     "Tail read latency of a production key-value store falls on three workloads.",
     ["Petra Horvat", "Marcus Lee"]),
]

# IDs the team writes wrongly: CalmCore 2610.30418 (the group chat; two neighbouring digits swapped) and ClockPair
# 2610.30529 (card 444's file name; two digits swapped) must stay unknown. 2600.31027 (month 00, ParkKV in the chat),
# 2611.01736 (a November ID in Omer's note), 1406.26610 (GAN's 1406.2661 with a zero too many) and LongLedger written
# with ScaleMint's 2610.28937 (day 13's IDs) lie outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.30418", "2610.30529"}
RESERVED_PREFIXES = ("2610.30418", "2610.30529")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.30315", 35, "2026-10-27T00:00:00.000Z",
     "PollenCam segments and classifies pollen grains in light-microscope slides.",
     ["microscopy", "image classification", "allergy"], "https://github.com/pollencam/pollencam"),
    ("2610.30481", 26, "2026-10-27T00:00:00.000Z",
     "CalmCore reserves a resizable partition of SMs on which only latency-critical tenants decode.",
     ["multi-tenant serving", "GPU partitioning", "latency"], "https://github.com/calmcore/calmcore"),
    ("2610.30127", 21, "2026-10-27T00:14:52.301Z",
     "ScaleSnap calibrates per-head FP8 attention scales in one pass over production prompts, raising attention throughput 1.25x over BF16.",
     ["quantization", "FP8", "attention"], None),
    ("2610.30736", 18, "2026-10-27T00:00:00.000Z",
     "FetchAhead predicts the KV blocks decode will attend to and prefetches them from CPU memory, decoding 1.7x faster than on-demand fetching.",
     ["KV cache", "offloading", "prefetching"], None),
    ("2610.31027", 12, "2026-10-27T00:36:10.977Z",
     "ParkKV keeps the KV cache of disconnected clients in host memory so that reconnecting clients resume without a second prefill.",
     ["LLM serving", "KV cache", "mobile"], None),
    ("2610.30592", 9, "2026-10-27T00:00:00.000Z",
     "ClockPair picks the batch size and GPU clock of each decode step together for the most tokens per joule under a power limit.",
     ["energy", "batching", "LLM serving"], None),
    ("2610.30864", 7, "2026-10-27T01:03:27.418Z",
     "RingFold splits ring attention into a ring inside each node and a ring across nodes.",
     ["long context", "ring attention", "prefill"], None),
    ("2610.29987", 4, "2026-10-27T00:00:00.000Z",
     "ChillServe raises the cooling setpoint of GPU data halls while serving SLOs hold.",
     ["data centers", "cooling", "energy"], None),
    ("2610.31152", 3, "2026-10-27T02:21:05.660Z",
     "Hot keys of tiered key-value stores are predicted and prefetched from NVMe into DRAM.",
     ["key-value stores", "storage", "prefetching"], None),
]

DAY = Day(number=14, date="2026-10-27", pub="Tue, 27 Oct 2026 00:00:00 -0400",
          last_build="Tue, 27 Oct 2026 04:00:42 +0000", seed=20261027,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Prefetching", "Lathe", "Tessera"},
          ids=(29950, 31400), hf=HF, hf_published=("2026-10-26T00:00:00.000Z", "2026-10-26T20:00:00.000Z"),
          prefixes=("Anise", "Cumin", "Fennel", "Ginger", "Nutmeg", "Saffron", "Sumac", "Tamarind", "Wasabi", "Paprika"))


if __name__ == "__main__":
    write_day(DAY)
