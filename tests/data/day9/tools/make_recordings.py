"""Writes the day-9 recordings: the arXiv listing of Tue 20 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 9; this file is the day's data. Run from tests/data/day9: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 8).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.22634", 1, "new", ["cs.LG", "cs.CL"],
     "PairKV: One KV Cache for Each Pair of Adjacent Layers through Low-Rank Adapters",
     "Every transformer layer keeps its own keys and values, although adjacent layers attend to very similar ones. "
     "PairKV groups the layers into pairs of adjacent layers that share a single KV cache: the upper layer of a pair reads the lower layer's keys and values through a small low-rank adapter, learned in a short continued pre-training. "
     "PairKV halves the KV cache with under 0.3 points of accuracy lost and raises decode throughput 1.7x at the same GPU memory.",
     ["Tobias Keller", "Nadia Rahimi", "Qin Hao"]),
    ("2610.22987", 1, "new", ["cs.DC", "cs.OS"],
     "HandOff: Handing Running Decode Requests to Peer Instances before Planned Restarts",
     "Rolling upgrades of an LLM service restart decode instances that still hold long-running requests. "
     "HandOff moves every running request of an instance that is about to restart, together with its KV cache, to peer decode instances while generation continues: the cache is copied in the background and each request switches over between two decode steps. "
     "HandOff cuts the time to empty an instance from 9.8 s to 3.1 s and adds 7% to p99 TPOT while requests move.",
     ["Lukas Brandt", "Mariam Farouk", "Yao Ting"]),
    ("2610.23016", 1, "new", ["cs.DC", "cs.NI"],
     "TenantMeter: Metering Tenants by Predicted Tokens at Admission for Shared LLM Gateways",
     "On shared LLM gateways one tenant's burst of long prompts raises every other tenant's latency. "
     "TenantMeter predicts each request's prefill and decode tokens and charges them to a per-tenant token bucket when the request is admitted; requests above their tenant's rate wait in the tenant's queue or are rejected, and nothing already running is preempted. "
     "Under floods TenantMeter lowers the p99 TTFT of well-behaved tenants by 2.4x.",
     ["Greta Lindholm", "Ade Okonkwo", "Fang Zhi"]),
    ("2610.22815", 1, "new", ["cs.DC", "cs.AI"],
     "AgentPin: Keeping an Agent Program's KV Cache Resident across Its Tool Calls",
     "Agent programs alternate model calls with tool calls, and serving engines discard the KV cache of the context whenever a tool runs, recomputing it when the tool returns. "
     "AgentPin pins the KV cache of an agent program in GPU memory across all of its tool calls and releases it only when the program ends, with admission control to bound the pinned memory. "
     "On agent benchmarks AgentPin reduces end-to-end agent latency by 35%.",
     ["Paolo Ricci", "Leah Goldberg", "Sun Kai"]),
    ("2610.23405", 1, "new", ["cs.DC", "cs.PF"],
     "ClockStep: Choosing Batch Size and GPU Clock at Every Decode Step for Tokens per Joule",
     "Power-capped inference racks run their GPUs at a fixed clock although the best clock depends on the batch. "
     "ClockStep chooses the batch size and the GPU clock frequency at every decode step to maximize the tokens generated per joule while the rack stays under its power cap. "
     "ClockStep produces 1.24x more tokens per joule than serving at a fixed clock, without SLO violations.",
     ["Henrik Aalto", "Priya Nair", "Luo Yang"]),
    ("2610.23172", 1, "new", ["cs.CL", "cs.LG"],
     "SuffixScout: Draft-Model-Free Speculative Decoding from a Suffix Tree of the Request's Own Tokens",
     "Code editing and retrieval-augmented generation repeat long spans of the prompt in the output. "
     "SuffixScout needs no draft model: it keeps a suffix tree over the request's own prompt and output, matches the latest generated tokens against it and proposes the continuation of the longest match as the draft, verified by the target model in one pass. "
     "On code-editing tasks SuffixScout decodes 2.3x faster than autoregressive decoding.",
     ["Ines Moreira", "Jakob Lund", "He Xin"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.22781", 1, "new", ["cs.DC", "cs.LG"],
     "HuffKV: Lossless Entropy Coding of KV Cache Blocks on the GPU",
     "Quantizing the KV cache changes the model's outputs, which some deployments cannot accept. "
     "HuffKV compresses KV cache blocks losslessly: a GPU kernel builds Huffman codes per block from the distribution of the exponent bytes, and blocks are decoded on the fly inside attention. "
     "HuffKV stores the KV cache in 0.69 of its size with bit-identical outputs.",
     ["Oskar Nilsson", "Leila Karimi", "Ma Rong"]),
    ("2610.23529", 1, "new", ["cs.CV", "cs.CL"],
     "GlanceDraft: Speculative Decoding for Vision-Language Models with a Draft Model that Sees Few Image Tokens",
     "Draft models for vision-language models spend most of their time on image tokens. "
     "GlanceDraft gives the draft model only the image tokens that the target model's first layer attends to most and lets it propose text tokens that the target verifies with the full image. "
     "GlanceDraft decodes 2.0x faster on single-image prompts and 1.6x faster on multi-image prompts.",
     ["Clara Vidal", "Tomasz Wojcik", "Shen Yi"]),
    ("2610.22903", 1, "new", ["cs.DC", "cs.NI"],
     "EarlyQuit: Cancelling LLM Requests Whose Clients Stopped Listening",
     "Chat clients close tabs and drop connections while the server keeps generating tokens nobody will read. "
     "EarlyQuit watches each stream's transport for a closed connection or a reader that stopped acknowledging, cancels the request at the next decode step and frees its batch slot and KV blocks. "
     "On a consumer chat service EarlyQuit reclaims 14% of decode GPU time.",
     ["Marta Oliveira", "Kenji Mori", "Zhao Ning"]),
    ("2610.23266", 1, "new", ["cs.CR", "cs.NI"],
     "KVCrypt: Encrypting KV Cache Transfers between Prefill and Decode Nodes in the NIC",
     "In disaggregated serving the KV cache crosses the data-center network in clear text. "
     "KVCrypt encrypts and authenticates every KV transfer between prefill and decode nodes with AES-GCM in the NIC's inline crypto engine, with per-request keys exchanged at admission. "
     "KVCrypt adds 3% to TTFT on 400 Gb/s links.",
     ["Ruth Adler", "Samir Haddad", "Gao Lei"]),
    ("2610.23748", 1, "new", ["cs.DC", "cs.PF"],
     "OffPeak: Scheduling Offline Batch Inference into Hours of Cheap Electricity",
     "Offline batch inference jobs, such as evaluation and data labelling, have deadlines of hours to days. "
     "OffPeak forecasts the electricity price of each data center by the hour and places batch inference jobs into the cheapest hours that still meet their deadlines. "
     "OffPeak lowers the electricity cost of batch inference by 31% on a month of jobs.",
     ["Johanna Berg", "Victor Mensah", "Xie Wen"]),
    # another known paper: Spark writes HuffKV with this ID
    ("2610.22718", 1, "new", ["cs.CV", "physics.geo-ph"],
     "SkerryMap: Mapping Coastal Erosion from Satellite Image Time Series",
     "Coastal erosion is measured by field surveys that are rare and costly. "
     "SkerryMap segments coastlines in satellite image time series and fits erosion rates per stretch of coast. "
     "Its rates agree with field surveys on four coasts.",
     ["Eilidh Ross", "Tiago Ramos"]),
    # HF-featured paper far from inference
    ("2610.22560", 1, "new", ["cs.SD", "eess.AS"],
     "ChoirGen: Generating Four-Part Choral Harmony from a Melody",
     "Harmonizing a melody for four voices follows voice-leading rules that generators ignore. "
     "ChoirGen generates alto, tenor and bass lines with a rule-aware decoder. "
     "Choir directors preferred its harmonizations in a blind study.",
     ["Sofia Lindgren", "Andrea Conti", "Park Ji-woo"]),
    # keyword traps (not LLM inference systems)
    ("2610.22695", 1, "new", ["cs.NI"],
     "Token Bucket Shaping for Time-Sensitive Industrial Ethernet",
     "Industrial Ethernet mixes control traffic with bulk transfers. "
     "We shape each traffic class with hierarchical token buckets whose rates are set from worst-case latency bounds. "
     "Control frames meet their deadlines on a factory testbed.",
     ["Ulrich Hahn", "Mei Ling"]),
    ("2610.23320", 1, "cross", ["q-bio.GN", "cs.DS"],
     "Suffix Arrays for Fast Genome Read Alignment on GPUs",
     "Aligning short reads to a reference genome is dominated by seed lookups. "
     "We build compressed suffix arrays on the GPU and look up seeds for many reads in parallel. "
     "Alignment runs 5.1x faster than a CPU aligner.",
     ["Dana Cohen", "Arjun Rao"]),
]

# IDs the team writes wrongly: TenantMeter 2610.23061 (the group chat; two digits swapped) must stay unknown;
# the queue's 2610.2340 (ClockStep, a digit dropped) must stay a slip of ClockStep alone; 2600.22987 (month 00,
# HandOff) and 1301.37810 (word2vec with a digit too many) are outside the fillers' range.
RESERVED = {p[0] for p in PLANTED} | {"2610.23061"}
RESERVED_PREFIXES = ("2610.23061", "2610.2340")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.22560", 45, "2026-10-20T00:00:00.000Z",
     "ChoirGen harmonizes a melody for four voices with a rule-aware decoder.",
     ["music generation", "harmony", "symbolic music"], "https://github.com/choirgen/choirgen"),
    ("2610.23172", 24, "2026-10-20T00:00:00.000Z",
     "SuffixScout drafts from a suffix tree of the request's own tokens, decoding 2.3x faster on code editing.",
     ["speculative decoding", "suffix tree", "draft-model-free"], "https://github.com/suffixscout/suffixscout"),
    ("2610.22634", 20, "2026-10-20T00:41:17.530Z",
     "PairKV shares one KV cache between adjacent layers through low-rank adapters, raising decode throughput 1.7x.",
     ["KV cache", "cross-layer sharing", "adapters"], None),
    ("2610.23529", 16, "2026-10-20T00:00:00.000Z",
     "GlanceDraft lets a vision-language draft model see few image tokens, decoding 2.0x faster on single images.",
     ["speculative decoding", "vision-language models", "token pruning"], None),
    ("2610.22815", 13, "2026-10-20T01:12:40.091Z",
     "AgentPin keeps an agent program's KV cache in GPU memory across tool calls, cutting agent latency by 35%.",
     ["agents", "KV cache", "tool calls"], None),
    ("2610.23016", 12, "2026-10-20T00:00:00.000Z",
     "TenantMeter charges predicted tokens to per-tenant token buckets at admission, lowering p99 TTFT 2.4x.",
     ["multi-tenant serving", "rate limiting", "admission control"], None),
    ("2610.22781", 10, "2026-10-20T01:58:03.662Z",
     "HuffKV entropy-codes KV cache blocks losslessly on the GPU with bit-identical outputs.",
     ["KV cache", "lossless compression", "Huffman coding"], None),
    ("2610.22987", 8, "2026-10-20T00:00:00.000Z",
     "HandOff moves running decode requests and their KV cache to peers before restarts, emptying an instance in 3.1 s.",
     ["live migration", "rolling upgrades", "LLM serving"], None),
    ("2610.23320", 6, "2026-10-20T00:00:00.000Z",
     "GPU-built suffix arrays speed up genome read alignment 5.1x.",
     ["genomics", "suffix arrays", "GPU"], None),
    ("2610.23405", 5, "2026-10-20T02:30:55.118Z",
     "ClockStep picks batch size and GPU clock per decode step for 1.24x more tokens per joule.",
     ["energy efficiency", "DVFS", "LLM serving"], None),
]

DAY = Day(number=9, date="2026-10-20", pub="Tue, 20 Oct 2026 00:00:00 -0400",
          last_build="Tue, 20 Oct 2026 04:00:37 +0000", seed=20261020,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Token", "Suffix"},
          ids=(22450, 23900), hf=HF, hf_published=("2026-10-19T00:00:00.000Z", "2026-10-19T20:00:00.000Z"),
          prefixes=("Brae", "Cairn", "Combe", "Copse", "Eyot", "Fell", "Ghyll", "Scree", "Tarn", "Wold"))


if __name__ == "__main__":
    write_day(DAY)
