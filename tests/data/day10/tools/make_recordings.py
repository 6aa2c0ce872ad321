"""Writes the day-10 recordings: the arXiv listing of Wed 21 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 10; this file is the day's data. Run from tests/data/day10: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 9).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.24138", 1, "new", ["cs.DC", "cs.LG"],
     "RansKV: Lossless rANS Coding of KV Cache Blocks, Decoded inside Attention",
     "Lossy KV cache quantization changes model outputs, which regulated deployments cannot accept. "
     "RansKV codes every KV cache block losslessly on the GPU with asymmetric numeral systems (rANS), with a frequency table per block built from the exponent bytes, and decodes the blocks inside the attention kernel, so outputs stay bit-identical. "
     "RansKV stores the KV cache in 0.64 of its size and raises decode throughput 1.3x at the same GPU memory.",
     ["Elias Holm", "Noor Aziz", "Deng Yu"]),
    ("2610.23987", 1, "new", ["cs.DC", "cs.NI"],
     "DropWatch: Cancelling Requests of Disconnected Clients at the Next Decode Step",
     "Users close chat windows and drop connections while the server keeps decoding tokens that nobody will read. "
     "DropWatch detects clients that disconnected or stopped reading the stream from the transport layer, cancels their requests at the next decode step and frees their batch slots and KV blocks for waiting requests. "
     "On a consumer chat service DropWatch lowers the p99 TTFT of the remaining requests by 21%.",
     ["Freya Olsen", "Karan Mehta", "Lin Qiu"]),
    ("2610.24615", 1, "new", ["cs.CR", "cs.DC"],
     "NICSeal: Inline NIC Encryption of KV Cache Transfers for Disaggregated Prefill and Decode",
     "Disaggregated serving sends every request's KV cache from prefill to decode nodes across a shared network. "
     "NICSeal encrypts and authenticates each KV cache transfer between prefill and decode nodes with AES-GCM in the NIC's inline crypto engine, rotating keys per session, so the host CPUs never touch the data. "
     "NICSeal keeps line rate on 800 Gb/s links.",
     ["Anton Weiss", "Yasmin Said", "Kong Jie"]),
    ("2610.25032", 1, "new", ["cs.DC", "cs.LG"],
     "TallyRoute: Output-Length-Aware Load Balancing of Expected Decode Work across Replicas",
     "Round-robin and least-loaded routing ignore that requests differ by orders of magnitude in how long they decode. "
     "TallyRoute predicts each request's output length with a small model and sends it to the replica with the least expected decode work, summing the predicted remaining tokens of the requests each replica holds. "
     "At 256 replicas TallyRoute lowers p99 TTFT by 26%.",
     ["Hugo Lambert", "Sara Lindqvist", "Peng Bo"]),
    ("2610.24359", 1, "new", ["cs.DC", "cs.PF"],
     "NightShift: Deferring Offline Batch Inference to the Cheapest Electricity Hours",
     "Offline batch inference jobs such as evaluation and synthetic data generation can wait hours before they must finish. "
     "NightShift forecasts each region's electricity price by the hour with a gradient-boosted model and places offline batch inference jobs into the cheapest forecast hours that still meet their deadlines. "
     "NightShift lowers the electricity cost of offline batch inference by 24%.",
     ["Maja Kowalski", "Daniel Osei", "Tang Hui"]),
    ("2610.24672", 1, "new", ["cs.DC", "cs.LG"],
     "FlareEP: Online Replication of Hot Experts and Eviction of Cold Replicas Overlapped with MoE Decode",
     "In expert-parallel MoE decoding a few hot experts overload their GPUs while others idle. "
     "FlareEP replicates hot experts online onto lightly loaded GPUs and evicts cold replicas, copying the weights in the background so that the replication overlaps with decode. "
     "FlareEP raises decode throughput 1.35x under skewed expert load.",
     ["Ivo Petrov", "Alma Reyes", "Qiao Lin"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.24210", 1, "new", ["cs.CV", "cs.LG"],
     "PatchKV: Merging the KV Entries of Unchanged Patches across Video Frames",
     "Video language models keep a KV entry for every patch of every frame, although most patches barely change between consecutive frames. "
     "PatchKV merges the KV entry of a patch whose embedding has not changed since the previous frame into a single weighted entry that attention treats as repeated. "
     "PatchKV shrinks the KV cache of hour-long videos 3.4x with under one point lost on video question answering.",
     ["Lea Fischer", "Omar Haddad", "Wu Min"]),
    ("2610.24893", 1, "new", ["cs.CL", "cs.LG"],
     "PaceSpec: Per-Request Speculation Lengths from Running Acceptance Rates",
     "Speculative decoding drafts a fixed number of tokens per step, although requests differ in how many drafts are accepted. "
     "PaceSpec keeps each request's running acceptance rate and chooses, at every step, how many tokens that request drafts, with no training and no change to the draft or target model. "
     "PaceSpec decodes 2.2x faster than autoregressive decoding on chat and 1.7x faster on code.",
     ["Nina Berger", "Tariq Anwar", "Jiang Rui"]),
    ("2610.25146", 1, "new", ["cs.DC", "cs.CY"],
     "CarbonTag: Attributing the Carbon Emissions of a GPU Cluster to Individual LLM Requests",
     "Providers report the emissions of a whole cluster, but customers ask for the footprint of their own requests. "
     "CarbonTag meters each GPU's power draw, splits the energy of every interval among the requests in the running batch by the tokens they processed and multiplies it by the grid's carbon intensity. "
     "CarbonTag attributes 97% of the metered cluster energy to requests.",
     ["Helena Sousa", "Bram de Vries", "Lu Fang"]),
    ("2610.24007", 1, "new", ["cs.DC", "cs.OS"],
     "SnapBoot: Restoring an LLM Serving Engine from a GPU Checkpoint in Seconds",
     "Starting an LLM serving engine loads weights, compiles CUDA graphs and warms allocators, which takes tens of seconds. "
     "SnapBoot checkpoints the engine's complete GPU and process state once and restores it from local NVMe on the next start. "
     "SnapBoot cuts the cold start of a 70B engine from 41 s to 6 s.",
     ["Jonas Meyer", "Fatima Zahra", "Cui Lei"]),
    ("2610.24541", 1, "new", ["cs.LG", "cs.AR"],
     "MixFormat: Per-Layer FP8 or FP4 Precision Chosen from Post-Training Sensitivity",
     "Serving a model entirely in FP4 loses accuracy, while FP8 leaves speed on the table. "
     "MixFormat measures each layer's sensitivity on a small calibration set after training and keeps the most sensitive layers in FP8 and the rest in FP4, with no retraining. "
     "MixFormat raises decode throughput 1.4x over FP8 with under 0.2 points of accuracy lost.",
     ["Camille Roux", "Ravi Shankar", "Fu Yan"]),
    # HF-featured paper far from inference
    ("2610.24420", 1, "new", ["cs.LG", "cond-mat.mtrl-sci"],
     "KilnSense: Predicting Ceramic Glaze Defects from Kiln Temperature Curves",
     "Glaze defects are found only after firing, when the piece is lost. "
     "KilnSense predicts crawling and pinholing from the temperature curve of the kiln with a small sequence model. "
     "Potters caught most defective firings before unloading in a season-long study.",
     ["Aoife Byrne", "Marco Bellini", "Ito Hana"]),
    # keyword traps (not LLM inference systems)
    ("2610.24788", 1, "new", ["cs.NI"],
     "Replicating Hot Objects across CDN Edge Caches under Flash Crowds",
     "Flash crowds overload the edge caches that hold a few popular objects. "
     "We replicate hot objects to neighbouring edge caches and evict cold replicas as the crowd moves. "
     "Origin traffic falls during flash crowds in a trace-driven study.",
     ["Pia Lund", "Ezra Cole"]),
    ("2610.25207", 1, "cross", ["physics.geo-ph", "cs.IT"],
     "Lossless Entropy Coding of Seismic Waveforms with Adaptive rANS",
     "Seismic networks archive continuous waveforms at high sampling rates. "
     "We code waveform blocks losslessly with adaptive rANS and per-station frequency tables. "
     "Archives shrink compared with the standard compressor.",
     ["Gudrun Olafs", "Tomas Vega"]),
]

# IDs the team writes wrongly: NICSeal 2610.24651 (the group chat; two digits swapped) must stay unknown; the
# digest's https://arxiv.org/abs/2610.2467 (FlareEP, a digit dropped) must stay a slip of FlareEP alone;
# 2613.24138 (month 13, RansKV), LoadLens 2610.14313, 2611.05127, 2611.04027 and 1412.06980 are outside the range.
RESERVED = {p[0] for p in PLANTED} | {"2610.24651"}
RESERVED_PREFIXES = ("2610.24651", "2610.2467")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.24420", 40, "2026-10-21T00:00:00.000Z",
     "KilnSense predicts glaze defects from kiln temperature curves before unloading.",
     ["materials", "time series", "manufacturing"], "https://github.com/kilnsense/kilnsense"),
    ("2610.24672", 22, "2026-10-21T00:00:00.000Z",
     "FlareEP replicates hot experts online and evicts cold replicas during MoE decode, raising throughput 1.35x.",
     ["mixture of experts", "expert parallelism", "load balancing"], "https://github.com/flareep/flareep"),
    ("2610.24138", 18, "2026-10-21T00:37:52.104Z",
     "RansKV codes KV cache blocks losslessly with rANS inside attention, raising decode throughput 1.3x.",
     ["KV cache", "lossless compression", "entropy coding"], None),
    ("2610.24893", 15, "2026-10-21T00:00:00.000Z",
     "PaceSpec picks each request's draft length from its running acceptance rate, 2.2x faster on chat.",
     ["speculative decoding", "adaptive drafting", "LLM inference"], None),
    ("2610.23987", 13, "2026-10-21T01:05:19.377Z",
     "DropWatch cancels requests of disconnected clients at the next decode step, lowering p99 TTFT by 21%.",
     ["LLM serving", "request cancellation", "scheduling"], None),
    ("2610.24359", 11, "2026-10-21T00:00:00.000Z",
     "NightShift moves offline batch inference into the cheapest forecast electricity hours, cutting cost 24%.",
     ["batch inference", "electricity cost", "scheduling"], None),
    ("2610.25146", 9, "2026-10-21T01:44:08.920Z",
     "CarbonTag attributes a GPU cluster's carbon emissions to individual LLM requests.",
     ["carbon accounting", "energy", "LLM serving"], None),
    ("2610.24210", 7, "2026-10-21T00:00:00.000Z",
     "PatchKV merges the KV entries of unchanged video patches, shrinking the KV cache 3.4x.",
     ["video understanding", "KV cache", "token merging"], None),
    ("2610.25207", 5, "2026-10-21T00:00:00.000Z",
     "Adaptive rANS coding compresses archived seismic waveforms losslessly.",
     ["seismology", "compression", "entropy coding"], None),
    ("2610.24541", 4, "2026-10-21T02:12:33.541Z",
     "MixFormat keeps sensitive layers in FP8 and the rest in FP4, raising decode throughput 1.4x.",
     ["quantization", "FP4", "mixed precision"], None),
]

DAY = Day(number=10, date="2026-10-21", pub="Wed, 21 Oct 2026 00:00:00 -0400",
          last_build="Wed, 21 Oct 2026 04:00:41 +0000", seed=20261021,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Replicating", "Lossless"},
          ids=(23950, 25400), hf=HF, hf_published=("2026-10-20T00:00:00.000Z", "2026-10-20T20:00:00.000Z"),
          prefixes=("Bight", "Cove", "Drumlin", "Esker", "Firth", "Gully", "Holm", "Kame", "Loch", "Moraine"))


if __name__ == "__main__":
    write_day(DAY)
