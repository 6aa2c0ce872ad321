"""Writes the day-8 recordings: the arXiv listing of Mon 19 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 8; this file is the day's data. Run from tests/data/day8: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 7).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.21393", 1, "new", ["cs.CL", "cs.LG"],
     "TriLane: Three-Branch Attention Learned End to End for Fast Long-Context Decoding",
     "Full attention makes long-context decoding bound by the memory traffic of reading every cached key and value. "
     "TriLane sends every query through three attention branches, coarse compressed blocks of tokens, a top-k selection of fine-grained blocks and a sliding window over the most recent tokens, and combines them with a learned gate; it is natively trainable, learned end to end from pre-training on, with kernels aligned to the GPU's memory hierarchy. "
     "At 64K tokens TriLane decodes 6.2x faster than full attention while matching it on long-context benchmarks.",
     ["Hugo Lemaire", "Anika Sharma", "Gu Chen"]),
    ("2610.20947", 1, "new", ["cs.DC", "cs.OS"],
     "CellarKV: Keeping Chat Histories' KV Cache in HBM, Host Memory and NVMe across Turns",
     "Multi-turn chat either recomputes the history's KV cache at every turn or keeps it in scarce GPU memory. "
     "CellarKV spills the KV cache of idle conversations from HBM to host DRAM and then to NVMe SSDs, and promotes a conversation's blocks back to the GPU ahead of its next turn. "
     "On multi-turn traces CellarKV lowers time to first token from 1.8 s to 1.1 s and raises throughput 1.9x with 8K-token histories and 3.2x with 32K-token histories.",
     ["Matteo Bruno", "Sigrid Dahl", "Pan Yue"]),
    ("2610.21476", 1, "new", ["cs.DC", "cs.OS"],
     "TwinBlock: Storing Byte-Identical KV Blocks Once across Requests by Content Fingerprint",
     "Retrieval-augmented and agent workloads put the same passages into many prompts and produce identical KV blocks. "
     "TwinBlock fingerprints every KV block by its tokens and their positions, keeps one copy of identical blocks behind reference-counted pointers, and copies a block only when a request writes to it. "
     "Serving a 70B model on 8 H20 GPUs, TwinBlock fits 2.4x more requests in GPU memory and sustains 5,600 tokens/s of decode throughput.",
     ["Kofi Mensah", "Ingrid Solberg", "Deng Hui"]),
    ("2610.21357", 1, "new", ["cs.DC"],
     "SwingPD: Re-Assigning Instances between Prefill and Decode as Traffic Bursts Arrive",
     "The best split of instances between prefill and decode changes within minutes when traffic is bursty. "
     "SwingPD forecasts the next minute's prefill and decode load and re-assigns instances between the two roles, changing the P:D ratio without restarting any engine. "
     "On bursty production traces SwingPD reduces SLO violations by 41% relative to a fixed P:D ratio.",
     ["Rui Almeida", "Hedda Nystrom", "Bai Jing"]),
    ("2610.22108", 1, "new", ["cs.CR", "cs.DC"],
     "EvenTime: Making Prefix-Cache Hits Indistinguishable from Misses within Tenant Groups",
     "Prefix caching tells a tenant whether someone else sent the same prompt, because a cache hit answers faster than a miss. "
     "EvenTime holds back the first token of a hit on a prefix written by another tenant group until a miss would have answered, so that hits and misses take constant time across tenant groups while a tenant group's own hits stay fast. "
     "Against a prefix-cache timing attack EvenTime lowers prompt recovery to chance level at a 2% throughput cost.",
     ["Selin Aydin", "Marco Pellegrini", "Xu Fang"]),
    ("2610.21729", 1, "new", ["cs.CL", "cs.LG"],
     "PlumeDraft: Drafting over the Target Model's Top-Layer Features with a One-Layer Head",
     "Draft models that predict tokens from tokens are often wrong because the next token is hard to guess from tokens alone. "
     "PlumeDraft drafts at the feature level: a single decoder layer autoregressively predicts the target model's next top-layer hidden state from the current one and the sampled token, and the target's own language-model head turns each predicted feature into a draft token, verified as in speculative sampling. "
     "PlumeDraft decodes 2.2x faster than autoregressive decoding on chat benchmarks with the same output distribution.",
     ["Nils Ekberg", "Yasmin Haddad", "Ouyang Lin"]),
    ("2610.21864", 1, "new", ["cs.DC", "cs.PF"],
     "FleetSize: Sizing GPU Fleets for LLM Serving with Queueing Networks Fitted to Traces",
     "Buying GPUs for LLM serving means knowing months ahead how many of them keep latency targets at the peak. "
     "FleetSize fits a queueing network to request traces and computes the number of GPUs that keeps the SLO at the forecast peak with a chosen confidence. "
     "On a year of traces from three services FleetSize's plans needed 21% fewer GPUs than peak-times-margin planning without SLO violations.",
     ["Emil Strand", "Chiamaka Obi", "Ren Bo"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.21015", 1, "new", ["cs.LG", "cs.CL"],
     "LayerTwin: Sharing One KV Cache between Adjacent Layers through a Learned Projection",
     "Every layer of a transformer stores its own keys and values. "
     "LayerTwin lets pairs of adjacent layers share a single KV cache: the upper layer reads the lower layer's keys and values through a small learned projection, fitted in a short continued pre-training. "
     "LayerTwin halves the KV cache with under 0.5 points of accuracy lost and serves 1.8x larger batches.",
     ["Jonas Becker", "Amina Yusuf", "Wang Lu"]),
    ("2610.21238", 1, "new", ["cs.CL", "cs.LG"],
     "DraftTutor: Distilling the Draft Model Online from Production Traffic",
     "A draft model distilled once, offline, drifts away from the traffic a service actually sees, and its acceptance rate falls. "
     "DraftTutor logs the target model's outputs on live requests and keeps distilling the draft model on them in the background, swapping in a new draft model whenever its measured acceptance rate beats the current one. "
     "Depending on the traffic mix DraftTutor raises throughput by 1.1x to 1.3x over a draft model distilled offline.",
     ["Laura Costa", "Viktor Sokolov", "Tian Rui"]),
    ("2610.21611", 1, "new", ["cs.DC", "cs.OS"],
     "DecodeDrain: Emptying Decode Instances for Maintenance by Live KV Migration",
     "Upgrading a decode instance today means waiting for its long requests to finish or killing them. "
     "DecodeDrain migrates every running request of the instance, with its KV cache, to peer decode instances while decoding goes on, copying the cache in the background and switching each request over between two decode steps. "
     "A drain of a 70B model's instance finishes in 4.2 s and adds 12% to p99 TPOT while it runs.",
     ["Felix Wagner", "Rania Saleh", "Zhu Min"]),
    ("2610.21582", 1, "new", ["cs.CR", "cs.CL"],
     "SpecLeak: Inferring Streamed Responses from the Burst Sizes of Speculative Decoding",
     "Streaming APIs send tokens as soon as they are accepted. "
     "With speculative decoding, how many tokens arrive together depends on how predictable the text is, and the sizes of these bursts remain visible in encrypted traffic; SpecLeak trains a classifier on burst-size sequences. "
     "From encrypted traffic alone SpecLeak identifies the topic of a streamed response among 50 topics with 71% accuracy.",
     ["Omar Haddad", "Kirsten Vogt", "Lin Jie"]),
    ("2610.22264", 1, "new", ["cs.DC", "cs.NI"],
     "QuotaGate: Per-Tenant Token Buckets at Admission for Shared LLM Endpoints",
     "A tenant that floods a shared endpoint with long prompts degrades every other tenant's latency. "
     "QuotaGate charges each request's predicted prefill and decode tokens against its tenant's token bucket at admission and queues or rejects requests beyond the tenant's rate, without preempting running work. "
     "During floods QuotaGate lowers the p99 TTFT of well-behaved tenants by 3.1x.",
     ["Alba Ruiz", "Tariq Mahmood", "Song Wen"]),
    # HF-featured paper far from inference
    ("2610.21140", 1, "new", ["cs.CV", "cs.GR"],
     "BrushFlow: Flow Matching over Brush Trajectories for Calligraphy Generation",
     "Calligraphy generators output images that cannot be replayed stroke by stroke. "
     "BrushFlow generates brush trajectories with pressure directly with flow matching. "
     "Calligraphers preferred its characters in a blind study.",
     ["Mei Tanaka", "Pierre Gauthier", "Ha Eun"]),
    # keyword traps (not LLM inference systems)
    ("2610.20988", 1, "new", ["cs.AR", "cs.PL"],
     "Speculative Loop Pipelining for High-Level Synthesis of Irregular Kernels",
     "High-level synthesis pipelines loops only when their dependences are known at compile time. "
     "We pipeline irregular loops speculatively and squash iterations whose dependences are violated. "
     "Generated circuits run 1.9x faster on six irregular kernels.",
     ["Dario Neri", "Asha Patel"]),
    ("2610.22031", 1, "cross", ["cs.LG", "stat.ML"],
     "Gated Mixtures of Experts for Tabular Anomaly Detection",
     "Tabular anomaly detectors struggle when normal data have several modes. "
     "We fit a gated mixture of small experts, one per mode, and score anomalies by the gate's uncertainty. "
     "The method improves AUROC on 21 of 30 benchmarks.",
     ["Lotte Jansen", "Rahul Verma"]),
]

# IDs the team writes wrongly: FleetSize 2610.21846 (the queue's PDF URL, 2610.21864 with two digits swapped); the
# truncated HF URL 2610.2147 (Spark, TwinBlock 2610.21476) must stay a slip of TwinBlock alone. DeadlineBump's
# 2610.19817 and VerifyBatch's 2610.19561 are outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.21846"}
RESERVED_PREFIXES = ("2610.21846", "2610.2147", "2610.2135", "2610.2139")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.21140", 52, "2026-10-19T00:00:00.000Z",
     "BrushFlow generates replayable calligraphy as brush trajectories with flow matching.",
     ["calligraphy", "flow matching", "vector graphics"], "https://github.com/brushflow/brushflow"),
    ("2610.21393", 38, "2026-10-19T00:00:00.000Z",
     "TriLane combines compressed, selected and sliding-window attention branches with a learned gate, decoding 6.2x faster at 64K tokens.",
     ["sparse attention", "long context", "trainable attention"], "https://github.com/trilane/trilane"),
    ("2610.21729", 30, "2026-10-19T00:37:51.204Z",
     "PlumeDraft drafts top-layer features with a one-layer head and decodes 2.2x faster with identical outputs.",
     ["speculative decoding", "feature-level drafting", "draft head"], None),
    ("2610.21582", 22, "2026-10-19T00:00:00.000Z",
     "SpecLeak infers the topic of streamed responses from speculative-decoding burst sizes with 71% accuracy.",
     ["side channel", "speculative decoding", "traffic analysis"], None),
    ("2610.22108", 17, "2026-10-19T01:05:12.880Z",
     "EvenTime makes prefix-cache hits as slow as misses across tenant groups at a 2% throughput cost.",
     ["security", "prefix caching", "multi-tenant serving"], None),
    ("2610.21476", 16, "2026-10-19T00:00:00.000Z",
     "TwinBlock stores identical KV blocks once across requests, fitting 2.4x more requests in GPU memory.",
     ["KV cache", "deduplication", "copy-on-write"], None),
    ("2610.20947", 14, "2026-10-19T01:48:30.115Z",
     "CellarKV tiers chat histories' KV cache over HBM, DRAM and NVMe, cutting TTFT from 1.8 s to 1.1 s.",
     ["KV cache offloading", "multi-turn chat", "tiered memory"], None),
    ("2610.21357", 11, "2026-10-19T00:00:00.000Z",
     "SwingPD re-assigns instances between prefill and decode under bursts, reducing SLO violations by 41%.",
     ["prefill-decode disaggregation", "autoscaling", "bursty traffic"], None),
    ("2610.21611", 10, "2026-10-19T02:14:09.377Z",
     "DecodeDrain empties a decode instance by live KV migration in 4.2 s for maintenance.",
     ["live migration", "KV cache", "LLM serving"], None),
    ("2610.21015", 8, "2026-10-19T00:00:00.000Z",
     "LayerTwin shares one KV cache between adjacent layers through a learned projection, halving the cache.",
     ["KV cache", "cross-layer sharing", "efficient inference"], None),
    ("2610.22031", 6, "2026-10-19T00:00:00.000Z",
     "A gated mixture of small experts scores tabular anomalies by the gate's uncertainty.",
     ["anomaly detection", "mixture of experts", "tabular data"], None),
    ("2610.21864", 5, "2026-10-19T03:11:44.502Z",
     "FleetSize fits queueing networks to traces to plan GPU fleets, needing 21% fewer GPUs.",
     ["capacity planning", "queueing", "LLM serving"], None),
]

DAY = Day(number=8, date="2026-10-19", pub="Mon, 19 Oct 2026 00:00:00 -0400",
          last_build="Mon, 19 Oct 2026 04:00:41 +0000", seed=20261019,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Speculative", "Gated"},
          ids=(20900, 22400), hf=HF, hf_published=("2026-10-16T00:00:00.000Z", "2026-10-18T20:00:00.000Z"),
          prefixes=("Aspen", "Bluff", "Canyon", "Dell", "Fen", "Grove", "Harbor", "Islet", "Lagoon", "Meadow"))


if __name__ == "__main__":
    write_day(DAY)
