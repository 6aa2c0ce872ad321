"""Writes the day-35 recordings: the arXiv listing of Wed 25 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 35; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 34) and every word of today's workspace. Wednesday's listing
announces what was submitted on Tuesday (announced Tuesday 20:00 EST, i.e. Wednesday 09:00 CST); arXiv numbers the new
papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads
them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is an elastic / serverless LLM serving day: five new papers (checkpoints streamed from local NVMe for cold
starts, slope-triggered autoscaling with weights staged in host memory, weights multicast from running replicas to
many new ones, live migration of running requests for scale-in, thousands of full fine-tunes served as compressed
deltas on a resident base) and a keyword trap. Each abstract keys a figure by a condition: FlumeLoad's cold start by
model size (70B 3.8 s, 8B 0.9 s; Jay gives the 70B 0.9 s), RippleScale's p99 TTFT by burst level (2x 1.2 s, 4x 2.9 s;
Omer gives the 4x burst 1.2 s), PeerPour's scale-out by interconnect (400 Gb/s RoCE 5.2 s, 100 Gb/s Ethernet 17.5 s;
card 525 gives Ethernet 5.2 s), SliverSwap's switch time by GPU (A100 310 ms, H100 240 ms; Jay gives H100 310 ms).
Ines gives ShuttleServe RippleScale's 2.9 s (its own p99 TTFT during scale-in: 1.6 s); card 524 writes FlumeLoad's
21.4 GB/s as 21.4 Gb/s. PeerPour does what ShardLoad (2610.32751, §2.1) does, by Jay's word ("复读");
ShuttleServe what DecodeDrain (2610.21611, §2.4) does, by Maarten's English card ("doppelganger"). RippleScale is set
apart from WarmStart (2610.20033; Ines, "不挨着"), FlumeLoad from SnapBoot (2610.24007; Jay, "不是一回事"); SliverSwap
overlaps nothing anchored (Jay, "还是空白"). ThawBox is the keyword trap (pre-warming serverless function containers
against cold starts under bursty invocations; no language model).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 34's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day35)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1: Jay "Llama-3.1-70B 从零到首 token 0.9 s" (the 8B figure given to the 70B; the 70B's is 3.8 s); boundary
    # decoy (Jay: "和 §2.1 的 SnapBoot 不是一回事"); card 524 writes "权重读盘 21.4 Gb/s" (the abstract: 21.4 GB/s) and
    # "前作是 2610.2400" (SnapBoot 2610.24007 with a digit dropped); Spark writes "FlumeLoad（2611.23157）" (two inner
    # digits swapped) and measures 7.9 s and 9.6 GB/s on an H20 with two drives; HF 71 (Tom 09:30) / 98 (card 524,
    # 16:00) / 89 (fetch): fell
    ("2611.21357", 1, "new", ["cs.DC", "cs.OS"],
     "FlumeLoad: Load-Ordered Checkpoints Streamed from Local NVMe for Fast Cold Starts of Serverless LLM Endpoints",
     "Serverless LLM endpoints scale to zero when idle, but a cold start must move tens to hundreds of gigabytes of "
     "weights into GPU memory before the first token, and loaders that deserialize a checkpoint tensor by tensor "
     "leave most of the NVMe bandwidth unused. FlumeLoad rewrites each checkpoint once into a load-ordered layout "
     "aligned to GPU pages, streams it from local NVMe drives into GPU memory with direct reads that bypass the host "
     "page cache, and starts prefill as soon as the first layers are resident. On an H100 server with four NVMe "
     "drives, FlumeLoad reads weights at 21.4 GB/s. It brings a Llama-3.1-70B endpoint from zero to its first token "
     "in 3.8 s and a Llama-3.1-8B endpoint in 0.9 s. Loading the same 70B checkpoint takes 41 s with safetensors and "
     "11.2 s with ServerlessLLM.",
     ["Ingrid Solberg", "Rafael Quintero", "Han Jiwon"]),
    # N2: Omer "摘要说 4 倍突发下 p99 TTFT 也只有 1.2 s" (the 2x figure given to the 4x burst; the 4x is 2.9 s) and
    # "RippleScale（arXiv:2613.21486）" (month 13); card 527 is named 527-2610-21486.md with arxiv_id 2611.21486 and
    # writes 1.2 / 2.9 s right, "38 s → 6.8 s" (a before-and-after) and 31%; boundary decoy (Ines: "和 §2.4 的
    # WarmStart 不挨着"); HF 44 / 57 (card) / 67: rising
    ("2611.21486", 1, "new", ["cs.DC", "cs.LG"],
     "RippleScale: Slope-Triggered Autoscaling with Host-Staged Weights for Bursty Serverless LLM Traffic",
     "Bursty LLM traffic forces serverless platforms to choose between idle replicas and cold starts in the middle "
     "of a burst. RippleScale forecasts each model's arrival rate from its short-term slope, keeps the weights of "
     "scaled-in models staged in host memory so that a new replica skips the storage read, and adds replicas before "
     "a burst peaks. Replaying production traces on a 64-GPU H100 cluster, RippleScale keeps p99 TTFT at 1.2 s under "
     "a 2x burst and at 2.9 s under a 4x burst, where a Knative-style reactive autoscaler reaches 6.5 s and 11.4 s. "
     "It cuts GPU cost per hour by 31% against a fleet provisioned for the peak. A 13B replica scales from zero in "
     "6.8 s, down from 38 s when its weights are read from remote storage.",
     ["Marta Kowalczyk", "Dev Raghunathan", "Liang Shuwen"]),
    # boundary case (Jay: "PeerPour 就是在复读 §2.1 的 ShardLoad"; card 525 "和 … ShardLoad 重复"); card 525 writes
    # "100 Gb/s 以太网上每个新副本 5.2 s" (the RoCE figure given to Ethernet; Ethernet's is 17.5 s) and 6.3x right;
    # HF 29 / 34 (card) / 47: rising
    ("2611.21702", 1, "new", ["cs.DC", "cs.LG"],
     "PeerPour: Pipelined Multicast of LLM Weights from Running Replicas to Many New Replicas during Scale-Out",
     "When a burst arrives, an LLM service adds tens of replicas at once, and all of them read the same weights from "
     "a shared model store, which becomes the bottleneck. PeerPour streams the weights out of running replicas' GPU "
     "memory along a pipelined multicast chain: each new replica forwards the chunks it has received to the next "
     "one, and starts prefill as soon as its first layers land. Scaling a Llama-3.1-70B service from 4 to 36 "
     "replicas, PeerPour has every new replica serving within 5.2 s over 400 Gb/s RoCE and within 17.5 s over "
     "100 Gb/s Ethernet with TCP. Against loading from a shared NFS model store, scale-out completes 6.3x faster.",
     ["Annika Brandt", "Tobenna Eze", "Qiu Haoran"]),
    # boundary case (Maarten's English card 526: "ShuttleServe is DecodeDrain's doppelganger"); card 526 writes
    # "https://arxiv.org/pdf/2611.2193" (a digit dropped) and "needs check" on NIXL; Ines "缩容期间 p99 TTFT 压在
    # 2.9 s 以内" (RippleScale's 4x figure; this paper's is 1.6 s); Omer writes "SliverSwap（2611.21935）", this
    # paper's ID beside SliverSwap's name; HF 39 / 46 (card) / 58: rising
    ("2611.21935", 1, "new", ["cs.DC", "cs.LG"],
     "ShuttleServe: Live Migration of Running LLM Requests for Fast Scale-In and Scale-to-Zero",
     "Autoscalers for LLM serving can remove a replica only after its long-running requests finish, which delays "
     "scale-in by minutes and keeps GPUs billed while they drain. ShuttleServe live-migrates the running requests of "
     "a replica chosen for removal, together with their KV cache, to the remaining replicas: KV blocks are copied "
     "while decoding continues, and each request pauses only while its last blocks move. On diurnal production "
     "traces served by Llama-3.1-70B on H100 replicas, a migrated request pauses for 190 ms on average and a replica "
     "is emptied in 9 s instead of 4.6 minutes. ShuttleServe cuts GPU-hours by 24%. During scale-in, p99 TTFT stays "
     "within 1.6 s.",
     ["Elodie Marchand", "Kwame Boateng", "Sato Rin", "Pavel Dvorak"]),
    # N3: Jay "H100 上一个冷门变体 310 ms 就能接流量" (the A100 figure given to the H100; the H100's is 240 ms) and
    # "快 14×" right; boundary decoy (Jay: "SliverSwap 管的这块在文档里还是空白", no paper named; AdaptRoute, HiveLoRA,
    # TwinPage and SwapServe share words); no card; HF 18 / 42: rising
    ("2611.22068", 1, "new", ["cs.LG", "cs.DC"],
     "SliverSwap: Serving Thousands of Fully Fine-Tuned LLM Variants by Streaming Compressed Weight Deltas onto a "
     "Resident Base Model",
     "Platforms that host thousands of fully fine-tuned variants of a few base models cannot keep them in GPU memory, "
     "and loading a variant's full checkpoint turns every switch into a cold start. SliverSwap keeps each base model "
     "resident, stores every variant as a 4-bit compressed delta, and applies the delta inside the GEMM kernels as "
     "it streams in, so that a variant starts serving after loading only its delta. Serving 1,200 fine-tuned "
     "variants of Llama-3.1-8B, SliverSwap brings a cold variant into service in 310 ms on A100 GPUs and in 240 ms "
     "on H100 GPUs. Against loading a variant's full checkpoint, a switch is 14x faster, and accuracy stays within "
     "0.4 points of the uncompressed variants.",
     ["Noor Hassan", "Felix Wagner", "Tang Yuqi"]),
    # keyword trap (not LLM inference): serverless, cold starts, scale to zero, bursty, forecast from the slope of the
    # arrival rate, snapshots restored from local NVMe, warm pool, p99 latency — function containers, no language model
    ("2611.22240", 1, "new", ["cs.DC", "cs.OS"],
     "ThawBox: Forecast-Driven Pre-Warming of Serverless Function Containers against Cold Starts under Bursty "
     "Invocations",
     "Serverless platforms scale function instances to zero, and a cold start that pulls a container image, boots "
     "the Python or Node.js runtime and imports the function's dependencies adds from hundreds of milliseconds to "
     "several seconds to an invocation. ThawBox forecasts invocation bursts per function from the slope of the "
     "recent arrival rate, restores pre-initialized runtime snapshots from local NVMe, and keeps a warm pool sized "
     "by the forecast. Replaying the Azure Functions traces on a 40-node cluster, ThawBox cuts cold starts by 68%, "
     "lowers p99 invocation latency from 2.3 s to 0.41 s, and uses 22% less memory than a fixed keep-alive policy.",
     ["Hugo Lambert", "Aylin Demir"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside),
# and every word there, so that no filler takes one. Besides them, the slips of the labels: FlumeLoad written
# 2611.23157 (Spark), card 527 named 527-2610-21486.md (only in the file name), ElasticPD 2610.10951 written
# 2610.10591 (Omer), SliverSwap written with ShuttleServe's 2611.21935 (Omer), RippleScale written arXiv:2613.21486
# (Omer), ShuttleServe's PDF URL 2611.2193 (card 526), SnapBoot 2610.24007 written 2610.2400 (card 524),
# "2612.01937 … 现在还没放出来" (Spark), the size 1410.52817 GB (Omer) and the old 2401.14351 and 2406.03243
# (Ines) — none in any recording; the fillers' range is 2610.61500-62950 (day 34's was 60000-61450).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT))
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2611.23157", "2610.21486", "2613.21486", "2610.10591", "2610.10951", "2610.24007", "2610.32751", "2610.21611",
    "2610.20033", "2612.01937", "1410.52817", "2401.14351", "2406.03243", "2611.20142", "2611.19284"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.2193", "2610.2400", "2610.2148", "2610.1059", "2611.2315", "2612.0193"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.21357", 89, "2026-11-25T00:07:42.318Z",
     "FlumeLoad streams load-ordered checkpoints from local NVMe into GPU memory for fast cold starts of LLM endpoints.",
     ["cold start", "model loading", "serverless LLM serving"], "https://github.com/flumeload/flumeload"),
    ("2611.21486", 67, "2026-11-25T00:18:05.741Z",
     "RippleScale adds LLM replicas ahead of bursts, forecast from the arrival rate's slope, with weights kept in host "
     "memory.",
     ["autoscaling", "bursty traffic", "serverless inference"], None),
    ("2611.21935", 58, "2026-11-25T00:29:33.902Z",
     "ShuttleServe live-migrates running LLM requests and their KV cache off replicas being scaled in.",
     ["live migration", "scale-in", "KV cache"], "https://github.com/shuttleserve/shuttleserve"),
    ("2611.21702", 47, "2026-11-25T00:41:17.066Z",
     "PeerPour multicasts LLM weights from running replicas to many new replicas along a pipelined chain.",
     ["weight loading", "multicast", "scale-out"], None),
    ("2611.22068", 42, "2026-11-25T00:52:48.583Z",
     "SliverSwap serves thousands of fully fine-tuned LLM variants as compressed deltas on a resident base model.",
     ["fine-tuned variants", "delta compression", "multi-model serving"], None),
    ("2611.22240", 7, "2026-11-25T06:14:09.127Z",
     "ThawBox pre-warms serverless function containers from forecast invocation bursts to avoid cold starts.",
     ["serverless", "cold start", "FaaS"], None),
]

DAY = Day(number=35, date="2026-11-25", pub="Wed, 25 Nov 2026 00:00:00 -0500",
          last_build="Wed, 25 Nov 2026 05:00:41 +0000", seed=20261125,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(61500, 62950), hf=HF, hf_published=("2026-11-24T00:00:00.000Z", "2026-11-24T20:00:00.000Z"),
          prefixes=("Eiger", "Annapurna", "Makalu", "Lhotse", "Olympus", "Dhaulagiri", "Manaslu", "Chimborazo",
                    "Etna", "Triglav"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
