"""Writes the day-15 recordings: the arXiv listing of Wed 28 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 15; this file is the day's data. Run from tests/data/day15: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 14). The blog recording of the day
(workspace/recordings/blogs/tessera-eng.xml, day 14's with one post corrected in place) is a hand-written
file, not made here. Wednesday's listing announces what was submitted on Tuesday; the HF daily of Wednesday
features those papers.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.31764", 1, "new", ["cs.DC"],
     "HoldKV: Holding the KV Cache of Dropped Streaming Clients in Host Memory until They Reconnect",
     "Streaming chat clients on mobile networks drop their connection in the middle of a response and reconnect seconds later, and the server then prefills the whole conversation again. "
     "HoldKV moves the KV cache of a request whose client dropped into host memory and holds it there for a grace period set per tenant; a client that reconnects within the period resumes decoding from the held cache without a second prefill. "
     "HoldKV removes 57% of repeated prefills on a production chat trace.",
     ["Mirela Dragan", "Tunde Bakare", "Shen Yao"]),
    ("2610.32095", 1, "new", ["cs.LG", "cs.AR"],
     "PivotQ: Online Hadamard Rotations Fused into W4A4 GEMM Kernels",
     "Outliers in activations make 4-bit weight-and-activation quantization lose accuracy. "
     "PivotQ applies randomized Hadamard rotations to weights and activations online, fused into the GEMM kernel, so that W4A4 inference keeps its accuracy with no calibration data and no training. "
     "PivotQ raises decode throughput 1.6x over W8A8 on H100 GPUs.",
     ["Henrik Vold", "Adaeze Nnaji", "Xu Ting"]),
    ("2610.32417", 1, "new", ["cs.DC", "cs.NI"],
     "GeoHop: Routing LLM Requests to the Region with the Lowest Client-Probed Round-Trip Time",
     "Global chat services route requests by static geo-DNS, which ignores congested links and full regions. "
     "GeoHop sends each request to the region with the lowest round-trip time, probed from the client SDK, among the regions that still have spare serving capacity. "
     "On a five-region deployment, GeoHop lowers the p99 TTFT of cross-region requests compared with geo-DNS routing.",
     ["Ana Ferreira", "Obinna Eze", "Tan Wei"]),
    ("2610.31903", 1, "new", ["cs.LG", "cs.DC"],
     "TideKV: A Per-Conversation KV Budget of Recent and Heavy-Hitter Tokens that Follows Free GPU Memory",
     "Long conversations exhaust the KV cache memory of a serving GPU. "
     "TideKV gives each conversation a KV budget that keeps a window of recent tokens and the tokens with the highest accumulated attention, evicts the rest, and resizes the budget as free GPU memory rises and falls. "
     "TideKV raises decode throughput 1.8x over a full KV cache at the same GPU memory, within 0.5 points of full-cache accuracy.",
     ["Marta Kowalczyk", "Yusuf Adebayo", "Ren Hao"]),
    # boundary decoys: a paper the team first called a repeat and then took the word back; one that repeats a
    # paper whose anchor was withdrawn today; one set apart from an anchored paper; one that borrows an anchored
    # paper's idea for something else
    ("2610.31592", 1, "new", ["cs.LG", "cs.DC"],
     "PoolVerify: Verifying Drafts on a Separate GPU Pool while Drafting Continues",
     "In speculative decoding the draft model waits for the target model to verify each draft before it drafts again. "
     "PoolVerify runs verification on a separate pool of GPUs: the draft model keeps drafting ahead without waiting for the result and rolls back when a draft is rejected. "
     "PoolVerify raises decode throughput 1.4x over co-located speculative decoding at the same number of GPUs.",
     ["Jakub Novotny", "Efua Mensah", "Liang Qi"]),
    ("2610.32266", 1, "new", ["cs.DC", "cs.OS"],
     "TwinPage: One GPU Page Pool for KV Blocks and LoRA Adapters",
     "LoRA adapters and the KV cache compete for the same GPU memory, yet serving engines manage them with separate allocators. "
     "TwinPage keeps KV blocks and adapter weights in one GPU page pool and evicts pages by the cost of reloading them. "
     "TwinPage serves 2.6x more adapters at the same p99 latency than separate pools.",
     ["Soren Dahl", "Ngozi Uche", "Wu Lan"]),
    ("2610.31538", 1, "new", ["cs.CR", "cs.DC"],
     "PromptSeal: Tracing Leaked System Prompts to Their Tenant with Planted Canaries",
     "System prompts are a tenant's intellectual property, and they leak through logs, jailbreaks and side channels. "
     "PromptSeal plants a per-tenant canary sequence in each system prompt and watches model outputs and public paste sites for it, so that a leaked prompt is traced to the tenant and the deployment it came from. "
     "PromptSeal traced every planted leak in a red-team exercise.",
     ["Elena Rossi", "Kojo Owusu", "Zhao Nan"]),
    ("2610.32751", 1, "new", ["cs.DC"],
     "ShardLoad: Streaming a New Replica's Weights Layer by Layer from a Running Peer over RDMA",
     "A new serving replica waits until all of its weights are loaded from storage before it serves a request. "
     "ShardLoad streams the weights layer by layer from a running peer replica's GPU memory over RDMA, and the new replica starts prefill as soon as its first layers have landed. "
     "ShardLoad brings a 70B-parameter replica into service 4.1x sooner than loading from a shared file system.",
     ["Pieter Janssen", "Amina Sule", "Cao Jun"]),
    # replacements of papers the team anchored: CacheSpy's v2 changes the figure of the doc's §1.(9) line (4% -> 7%),
    # which v324 leaves as it was; PageWeave's v2 is its authors' withdrawal (the team removed its §2.1 line today)
    ("2610.11123", 2, "replace", ["cs.DC", "cs.CR"],
     "CacheSpy: Reconstructing Other Tenants' Prompts from Prefix-Cache Timing in Multi-Tenant LLM Serving",
     "Serving engines share prefix caches across tenants to save prefill compute. "
     "We show that the time to first token reveals whether a candidate prefix is already cached, and build CacheSpy, an attack that reconstructs another tenant's system prompt token by token. "
     "Against two open-source serving engines with default settings, CacheSpy recovers 93% of system-prompt tokens within 40,000 queries. "
     "Per-tenant cache salting stops the attack at a 7% TTFT cost. "
     "This version corrects the TTFT measurement of the salted engine, which v1 took with a warm cache.",
     ["Ioana Petrescu", "Samuel Okoro", "Yuki Tanabe"]),
    ("2610.09560", 2, "replace", ["cs.OS", "cs.DC"],
     "PageWeave: Unified Paging of KV Cache and LoRA Adapters for Multi-Tenant LLM Inference",
     "This paper has been withdrawn by the authors. "
     "Its adapter-count results were measured against a misconfigured separate-pool baseline, and a corrected evaluation no longer supports the paper's conclusions.",
     ["Camille Wang", "Fatima Hu"]),
    # HF-featured paper far from LLM inference (Tom names it in passing: "inference" in its title only)
    ("2610.32043", 1, "new", ["cs.LG", "stat.ME"],
     "CropCause: Causal Inference of Irrigation Effects on Crop Yields from Satellite Time Series",
     "Estimating how irrigation changes crop yields from observational data is confounded by soil and weather. "
     "CropCause combines satellite time series with a doubly robust estimator to infer the causal effect of irrigation on yields at field scale. "
     "Its estimates agree with the results of controlled field trials in three regions.",
     ["Beatriz Lima", "Jonas Weiss"]),
    # keyword trap (not LLM inference): FP8 *training* of small language models
    ("2610.32588", 1, "cross", ["cs.LG", "cs.AR"],
     "Stable FP8 Training of Small Language Models with Per-Block Loss Scaling",
     "Small language models trained in FP8 diverge when loss spikes overflow the format's range. "
     "We scale the loss per block of layers from running gradient statistics, which keeps FP8 training stable without falling back to BF16. "
     "Models of up to 1.3B parameters match their BF16-trained counterparts on standard benchmarks.",
     ["Olga Sokolova", "Diego Herrera"]),
]

# IDs the team writes wrongly: HoldKV 2610.31746 (the group chat; two neighbouring digits swapped) must stay unknown,
# and no filler may start with 2610.3241 (Omer's four-digit GeoHop link, 2610.3241, whose only likely ID is GeoHop's).
# 2613.31592 (month 13, PoolVerify in the chat), 2611.02745 and 2611.04719 (November IDs in Spark's note and on card
# 445), TwirlQ written 2610.26203 (its anchored 2610.26230 with two digits swapped) and RingFold written with ParkKV's
# 2610.31027 (day 14's IDs) lie outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.31746"}
RESERVED_PREFIXES = ("2610.31746", "2610.3241")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.32043", 38, "2026-10-28T00:00:00.000Z",
     "CropCause estimates the causal effect of irrigation on crop yields from satellite time series.",
     ["causal inference", "remote sensing", "agriculture"], "https://github.com/cropcause/cropcause"),
    ("2610.32095", 19, "2026-10-28T00:11:38.502Z",
     "PivotQ fuses online Hadamard rotations into W4A4 GEMM kernels, decoding 1.6x faster than W8A8 with no calibration.",
     ["quantization", "W4A4", "Hadamard rotation"], "https://github.com/pivotq/pivotq"),
    ("2610.31764", 17, "2026-10-28T00:00:00.000Z",
     "HoldKV holds the KV cache of dropped streaming clients in host memory so that reconnecting clients resume without a second prefill.",
     ["LLM serving", "KV cache", "mobile"], None),
    ("2610.31903", 14, "2026-10-28T00:27:51.144Z",
     "TideKV keeps recent and heavy-hitter tokens within a per-conversation KV budget that follows free GPU memory.",
     ["KV cache", "eviction", "long context"], None),
    ("2610.32417", 10, "2026-10-28T00:00:00.000Z",
     "GeoHop routes each request to the region with the lowest client-probed round-trip time that still has capacity.",
     ["routing", "geo-distributed serving", "latency"], None),
    ("2610.31592", 9, "2026-10-28T01:02:13.870Z",
     "PoolVerify verifies speculative drafts on a separate GPU pool while the draft model keeps drafting.",
     ["speculative decoding", "disaggregation", "LLM serving"], None),
    ("2610.32266", 7, "2026-10-28T00:00:00.000Z",
     "TwinPage manages KV blocks and LoRA adapter weights in one GPU page pool.",
     ["LoRA", "KV cache", "memory management"], None),
    ("2610.31538", 5, "2026-10-28T01:45:09.311Z",
     "PromptSeal plants per-tenant canaries in system prompts to trace leaks.",
     ["security", "system prompts", "multi-tenant"], None),
    ("2610.32751", 4, "2026-10-28T00:00:00.000Z",
     "ShardLoad streams a new replica's weights layer by layer from a running peer over RDMA.",
     ["model loading", "RDMA", "autoscaling"], None),
    ("2610.32588", 3, "2026-10-28T02:16:40.052Z",
     "Per-block loss scaling keeps FP8 training of small language models stable.",
     ["FP8", "training", "mixed precision"], None),
]

DAY = Day(number=15, date="2026-10-28", pub="Wed, 28 Oct 2026 00:00:00 -0400",
          last_build="Wed, 28 Oct 2026 04:00:39 +0000", seed=20261028,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Stable", "Lathe", "Tessera"},
          ids=(31450, 32900), hf=HF, hf_published=("2026-10-27T00:00:00.000Z", "2026-10-27T20:00:00.000Z"),
          prefixes=("Calico", "Chintz", "Damask", "Gingham", "Muslin", "Organza", "Taffeta", "Tweed", "Twill", "Velour"))


if __name__ == "__main__":
    write_day(DAY)
