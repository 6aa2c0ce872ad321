"""Writes the day-6 recordings: the arXiv listing of Thu 15 Oct 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 6; this file is the day's data. Run from tests/data/day6: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 5).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2610.17712", 1, "new", ["cs.DC", "cs.OS"],
     "ShelfServe: Preemptive Model Shelving for Many-Model Serving on Shared GPUs",
     "Platforms that host hundreds of fine-tuned models cannot keep all of them resident, and most of them are idle most of the time. "
     "ShelfServe preempts idle models and shelves their weights in host memory, brings a shelved model back onto the GPU when a request for it arrives, and picks the model to shelve by its expected idle time. "
     "On a trace of 300 models over 16 GPUs, ShelfServe serves 3.2x more models per GPU at the same p99 TTFT and brings a shelved 8B model back in 0.9 s.",
     ["Lucia Romano", "Hamid Karimi", "Xu Ting"]),
    ("2610.17843", 1, "new", ["cs.CL", "cs.LG"],
     "LayerHop: Drafting with the Shallow Layers of the Target Model and Verifying with All of Them",
     "Speculative decoding with a separate draft model doubles the models to train, deploy and keep in memory. "
     "LayerHop drafts tokens by running only the first layers of the target model and exiting early through the shared output head, then verifies the draft with the full depth, reusing the shallow layers' KV cache. "
     "LayerHop needs no extra parameters and speeds up decoding by 1.9x at batch size 1 with unchanged outputs.",
     ["Beatriz Lima", "Soren Dahl", "Kwame Mensah"]),
    ("2610.17958", 1, "new", ["cs.LG", "cs.CL"],
     "ScaleShift: Equalizing Activation Outliers into Weights for Accurate W8A8 LLM Serving",
     "A few activation channels of large language models carry outliers that ruin 8-bit activation quantization. "
     "ScaleShift equalizes the channels with per-channel scales computed offline from calibration data, migrating the outlier magnitude from the activations into the following weights, so that both can be quantized to 8 bits. "
     "ScaleShift serves 70B models in W8A8 with 1.5x the throughput of FP16 and stays within 0.3 points of FP16 accuracy.",
     ["Mireille Fabre", "Ji-woo Han", "Andrzej Kowal"]),
    ("2610.18125", 1, "new", ["cs.DC", "cs.NI"],
     "SketchRoute: Cache-Affine Request Routing from Compact Sketches of Every Replica's Prefix Cache",
     "Routing a request to the replica that already caches its prefix saves prefill, but the router cannot ask every replica on every request. "
     "Each SketchRoute replica publishes a Bloom-filter sketch of the prefix blocks it caches, and the router keeps an approximate global view of the fleet's cached prefixes from these sketches, sending each request to the replica with the longest likely hit unless it is overloaded. "
     "At 1,024 replicas SketchRoute takes a routing decision in 0.3 ms and lowers p99 TTFT by 31% relative to least-loaded routing.",
     ["Oren Levi", "Yasmin Haddad", "Li Qiang"]),
    ("2610.18290", 1, "new", ["cs.DC", "cs.LG"],
     "PrunePhase: Phase-Aware Expert Pruning for Disaggregated MoE Inference",
     "Prefill and decode instances of a disaggregated MoE deployment route tokens to experts differently. "
     "PrunePhase profiles the expert usage of each phase and prunes a different set of experts on the prefill instances and on the decode instances, keeping on each only the experts that phase needs. "
     "On two open MoE models PrunePhase removes 27% of the expert weights on the prefill instances and 41% on the decode instances, and improves goodput by 1.3x within 0.5 points of accuracy.",
     ["Giulia Marino", "Rashid Omar", "Chen Hui"]),
    ("2610.18359", 1, "new", ["cs.DC", "cs.AI"],
     "CallStash: Retaining Agent Context in GPU Memory across External Function Calls",
     "An agent program pauses its language model while an external function runs, and the serving engine frees the program's KV cache only to prefill the same context again when the result comes back. "
     "CallStash keeps the context of a paused program resident in GPU memory while the function runs, ordering what it releases under memory pressure by the predicted return time of each call. "
     "On agent benchmarks with search and code-execution calls, CallStash lowers end-to-end latency by 29%.",
     ["Adaeze Obi", "Marco Bianchi", "Tanaka Yuto"]),
    ("2610.18472", 1, "new", ["cs.CR", "cs.DC"],
     "LenBait: Gaming Output-Length Predictors to Starve Co-Batched Requests",
     "Schedulers that order requests by a predicted output length assume the predictor cannot be steered by users. "
     "LenBait crafts prompts that the length predictor scores as short but that generate very long outputs, so that the scheduler admits them early and the requests batched with them wait behind them. "
     "Against two length-aware schedulers, LenBait slows down co-batched requests by 2.4x with less than 1% of the traffic.",
     ["Hassan Ali", "Ines Duarte", "Gao Feng"]),
    ("2610.18634", 1, "new", ["cs.CL", "cs.LG"],
     "RollKeep: Constant-Memory Multi-Million-Token Chat without Re-Encoding",
     "A chat that goes on for millions of tokens cannot keep its whole KV cache, and re-encoding a sliding window at every turn is slow. "
     "We find that the first four tokens of a sequence soak up a large share of attention whatever their content, and that dropping them is what breaks window attention. "
     "RollKeep caches these initial tokens together with a rolling window of recent tokens and nothing else, generates four million tokens of conversation at constant memory, and keeps the time to first token at 1200 ms after four million tokens, 22x faster than re-encoding.",
     ["Elena Petrova", "Rohan Shah", "Mei Lin"]),
    ("2610.18781", 1, "new", ["cs.DC", "cs.AR"],
     "BlendAttn: Prefill and Decode Attention Fused in One Persistent Kernel for Mixed Batches",
     "Mixed batches hold prefill chunks and decode tokens, and launching separate attention kernels for the two leaves the GPU underused. "
     "BlendAttn computes the attention of both in one persistent kernel that assigns prefill tiles and decode tiles to the same thread blocks as they free up. "
     "BlendAttn speeds up attention in mixed batches by 1.3x with short prompts and by 2.0x when the batch holds long prompts.",
     ["Tobias Keller", "Anaya Patel", "Zheng Rui"]),
    ("2610.19027", 1, "new", ["cs.DC", "cs.PF"],
     "PreemptPrice: Cost Models for LLM Serving on Preemptible Spot Instances",
     "Spot instances are cheaper but can be taken back at any time, and a preempted replica loses its KV cache and its requests. "
     "PreemptPrice models the cost of serving LLMs on spot instances, pricing preemption risk per region and instance type together with the SLO cost of losing a replica, and chooses the fleet mix that minimizes cost per token. "
     "On three clouds PreemptPrice lowers the cost per million tokens by 34% relative to an on-demand fleet at the same SLO attainment.",
     ["Fernando Ruiz", "Signe Holm", "Wei Jun"]),
    # boundary decoys: new papers of a section that share only its topic and generic words with its anchors
    ("2610.17689", 1, "new", ["cs.DC"],
     "DetokPipe: Moving Detokenization and Sampling off the Critical Path of LLM Serving Engines",
     "At high concurrency the engine's CPU side detokenizes, samples and streams every token between two GPU steps, and the GPU waits for it. "
     "DetokPipe moves detokenization and output streaming into a separate process pool and pipelines sampling with the next forward pass. "
     "At 256 concurrent requests DetokPipe lowers TPOT by 11% and raises throughput by 9%.",
     ["Nils Ekberg", "Farida Bekova", "Hu Jie"]),
    ("2610.17766", 1, "new", ["cs.DC"],
     "ReplayKV: Recovering In-Flight KV Cache Transfers after Decode Instance Failures",
     "When a decode instance fails during a disaggregated transfer, the request's KV cache is lost and its prefill must run again. "
     "ReplayKV keeps the sender's copy of each KV cache until the receiver acknowledges the last layer, and on a failure re-sends it to a standby decode instance, which resumes the request. "
     "ReplayKV resumes a request within 210 ms of a decode instance failure instead of re-running prefill (4.8 s on 128K-token prompts).",
     ["Pietro Russo", "Anna Kowalska", "Deng Yu"]),
    ("2610.18017", 1, "new", ["cs.LG", "cs.SE"],
     "QuantProbe: Catching Quantization Regressions in Production with Canary Prompts",
     "A quantized model can pass offline benchmarks and still fail on the prompts of a particular customer. "
     "QuantProbe keeps a small set of canary prompts per deployment, replays them on the quantized and the reference model, and raises an alert when their outputs drift beyond a threshold. "
     "On twelve deployments QuantProbe caught 9 of 10 injected quantization regressions with one false alarm a week.",
     ["Laura Becker", "Mohan Rao", "Yoon Seo"]),
    ("2610.18540", 1, "new", ["cs.DC", "cs.LG"],
     "GateAhead: Prefetching Offloaded Experts from Host Memory by Predicting the Next Layer's Router",
     "A MoE model larger than the GPU's memory keeps most experts in host memory and loads each on demand, stalling decode. "
     "GateAhead runs a cheap copy of the next layer's router on the current hidden state to guess which experts it will pick, and copies them from host memory while the current layer computes. "
     "On a single 24 GB GPU GateAhead decodes 2.6x faster than on-demand expert loading.",
     ["Jakub Novak", "Amina Yusuf", "Lu Wen"]),
    ("2610.18956", 1, "new", ["cs.DC", "cs.CY"],
     "GreenShift: Routing LLM Requests to the Region with the Cleanest Grid",
     "The carbon intensity of electricity differs between regions and changes through the day. "
     "GreenShift sends each batch of deferrable requests to the region whose grid is cleanest within the requests' latency slack, using hourly carbon forecasts. "
     "Over a month of traces GreenShift cuts the carbon emissions of LLM serving by 31% while meeting the SLO of 99% of requests.",
     ["Emma Lindberg", "Kofi Boateng", "Sato Rin"]),
    ("2610.19104", 1, "new", ["cs.CR", "cs.CL"],
     "MarkStream: Low-Overhead Output Watermarking inside the Serving Engine's Sampler",
     "Watermarking generated text usually runs as a separate pass over the logits and slows generation down. "
     "MarkStream embeds a keyed watermark in the serving engine's sampler, biasing token choices with a hash of the previous tokens inside the fused sampling kernel. "
     "MarkStream adds under 1% to TPOT and detects watermarked text with 99% accuracy from 200 tokens.",
     ["Sara Nilsson", "Victor Almeida", "Park Jiho"]),
    # HF-featured paper far from inference
    ("2610.18210", 1, "new", ["cs.CV", "cs.GR"],
     "OrbitDance: Music-to-Dance Generation with Motion Diffusion",
     "Dance generation must follow the music's beat while staying physically plausible. "
     "OrbitDance generates full-body dance motion from music with a diffusion model conditioned on beat and genre. "
     "Dancers rated its motions above earlier generators in a user study.",
     ["Camila Reyes", "Joon Park", "Alina Popescu"]),
    # keyword traps (not LLM inference systems)
    ("2610.18388", 1, "new", ["cs.CV"],
     "Register Tokens as Attention Sinks in Vision Transformers for Dense Prediction",
     "Vision transformers produce high-norm artifact tokens in their attention maps. "
     "We add learnable register tokens that act as attention sinks and absorb these artifacts. "
     "Segmentation and depth estimation improve on standard benchmarks.",
     ["Kai Fischer", "Aisha Bello"]),
    ("2610.17901", 1, "cross", ["cs.NI", "cs.DC"],
     "Spot-Market Bidding for Bulk Data Transfers between Cloud Regions",
     "Bulk transfers between cloud regions are priced per gigabyte and compete with interactive traffic. "
     "We bid for spare inter-region bandwidth on a spot market and schedule transfers into the cheapest hours. "
     "Transfer cost drops by 45% on a month of backup traces.",
     ["Marta Silva", "Ivan Petrov"]),
]

# IDs the team writes wrongly: QuantProbe 2610.18071 (Tom's HF link, 2610.18017 swapped), GreenShift 2610.18936
# (Spark, one digit off 2610.18956); no filler may take them. ScaleShift is written with NanoQAT's 2610.14731.
RESERVED = {p[0] for p in PLANTED} | {"2610.18071", "2610.18936"}
RESERVED_PREFIXES = ("2610.18071", "2610.18936")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2610.18210", 47, "2026-10-15T00:00:00.000Z",
     "OrbitDance generates full-body dance motion from music with a beat-conditioned motion diffusion model.",
     ["dance generation", "motion diffusion", "music"], "https://github.com/orbitdance/orbitdance"),
    ("2610.17843", 33, "2026-10-15T00:00:00.000Z",
     "LayerHop drafts with the target model's first layers and verifies with all of them, speeding up decoding 1.9x without extra parameters.",
     ["speculative decoding", "early exit", "self-drafting"], "https://github.com/layerhop/layerhop"),
    ("2610.18472", 21, "2026-10-15T00:52:13.402Z",
     "LenBait crafts prompts that output-length predictors misjudge as short, slowing co-batched requests 2.4x.",
     ["security", "LLM scheduling", "length prediction"], None),
    ("2610.18634", 16, "2026-10-15T00:00:00.000Z",
     "RollKeep caches the initial tokens and a rolling window to chat for millions of tokens at constant memory.",
     ["long context", "KV cache", "streaming generation"], None),
    ("2610.17712", 15, "2026-10-15T01:21:44.907Z",
     "ShelfServe shelves idle models in host memory and restores them on demand, serving 3.2x more models per GPU.",
     ["multi-model serving", "model swapping", "GPU sharing"], None),
    ("2610.17958", 13, "2026-10-15T00:00:00.000Z",
     "ScaleShift migrates activation outliers into weights with per-channel scales for accurate W8A8 serving at 1.5x FP16 throughput.",
     ["quantization", "W8A8", "activation outliers"], None),
    ("2610.18781", 12, "2026-10-15T02:03:37.118Z",
     "BlendAttn fuses prefill and decode attention of mixed batches into one persistent kernel, up to 2.0x faster.",
     ["attention kernels", "mixed batching", "GPU"], "https://github.com/blendattn/blendattn"),
    ("2610.18290", 11, "2026-10-15T00:00:00.000Z",
     "PrunePhase prunes different experts on prefill and decode instances of a disaggregated MoE deployment for 1.3x goodput.",
     ["mixture of experts", "expert pruning", "prefill-decode disaggregation"], None),
    ("2610.18125", 10, "2026-10-15T01:40:09.551Z",
     "SketchRoute routes requests by Bloom-filter sketches of replicas' prefix caches, lowering p99 TTFT 31%.",
     ["request routing", "prefix caching", "LLM serving"], None),
    ("2610.18017", 9, "2026-10-15T00:00:00.000Z",
     "QuantProbe replays canary prompts on quantized and reference models to catch regressions in production.",
     ["quantization", "monitoring", "deployment"], None),
    ("2610.19027", 8, "2026-10-15T02:47:51.260Z",
     "PreemptPrice models preemption risk of spot instances to pick the cheapest LLM serving fleet, cutting cost per token 34%.",
     ["spot instances", "cost model", "LLM serving"], None),
    ("2610.19104", 7, "2026-10-15T00:00:00.000Z",
     "MarkStream embeds a keyed watermark in the serving engine's fused sampler at under 1% TPOT overhead.",
     ["watermarking", "sampling", "LLM serving"], None),
    ("2610.18388", 6, "2026-10-15T00:00:00.000Z",
     "Register tokens act as attention sinks in vision transformers and remove artifact tokens.",
     ["vision transformers", "attention sinks", "dense prediction"], None),
    ("2610.18540", 4, "2026-10-15T03:15:26.733Z",
     "GateAhead predicts the next layer's experts and prefetches them from host memory, decoding 2.6x faster on one GPU.",
     ["mixture of experts", "offloading", "prefetching"], None),
]

DAY = Day(number=6, date="2026-10-15", pub="Thu, 15 Oct 2026 00:00:00 -0400",
          last_build="Thu, 15 Oct 2026 04:00:51 +0000", seed=20261015,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Register", "Spot-Market"},
          ids=(17600, 19200), hf=HF, hf_published=("2026-10-14T00:00:00.000Z", "2026-10-14T20:00:00.000Z"),
          prefixes=("Acorn", "Bramble", "Cinder", "Dune", "Estuary", "Flint", "Gorse", "Heath", "Inlet", "Lichen"))


if __name__ == "__main__":
    write_day(DAY)
