"""Whole-process time of ``kb nightly --offline`` on a heavy day, against the floor; and its second run.

    .venv/bin/python bench/nightly.py [--runs 3] [--seed 7] [--date 2026-10-08] [--arxiv 2000] [--hf 50]
                                      [--feeds 20] [--items 20] [--notes 30] [--anchors 500] [--cards 60]
                                      [--queue 30] [--profile | --no-profile] [--keep DIR] [--parse-workers N]

Generates (seeded, deterministic) one heavy offline day as a workspace laid out like
``data/sample``: a ``kb.toml`` pointing every source at its recording, and

* ``recordings/arxiv/<D>-listing.xml`` — an rss.arxiv.org RSS 2.0 listing of 2,000 items
  (new / cross / replace / replace-cross, old-style IDs too), ~1 kB abstracts;
* ``recordings/hf/daily_papers_<D>.json`` — 50 items in the 2026 Daily Papers schema, most
  of them also in the listing;
* ``recordings/blogs/*.xml`` — 20 feeds × 20 posts, half Atom (jekyll-feed layout, HTML
  content), half RSS 2.0; posts link arXiv papers;
* ``inbox/<author>/*.md`` — 30 notes in the team's format (front matter or not, ``##``
  entries or one entry per list item, Chinese and English, 来源 lines, ▲ upvotes, ⚠ 待核实);
* ``organized/knowledge/inference.md`` — the inference doc with 500 anchors in every section
  the taxonomy names (§1.1 … §3.5, §2.3.1);
* ``organized/paper_cards/*.md`` and ``organized/queue/work-queue.md``.

Topics mix inference (PD disaggregation, KV cache, speculative decoding, quantization, MoE,
scheduling, kernels …) with other fields (agents, RAG, RL, vision, training, theory,
consensus …), including the classifier's traps ("causal inference", FP8 *training*).

Then, in the same run, ``--runs`` times (default 3), interleaved:

* **kb, first run**: ``kb nightly --home W --date D --offline`` as a whole process on a FRESH
  copy of the generated workspace (no store yet: a first run). Peak RSS is that child's
  ``ru_maxrss`` (``os.wait4``: RUSAGE_CHILDREN of that one process).
* **kb, second run**: the same command again on the same copy, no new inputs (incremental
  work only). Target: the first run ≥ 5× slower than the second.
* **floor**: one whole Python process (``--child floor``) on another fresh copy doing
  the same day with no framework: ElementTree parse of the listing and the 20 feeds,
  ``json.loads`` of HF, a line-based read of the notes / cards / queue / knowledge doc, raw
  ``sqlite3`` executemany of the same records into a file DB (WAL, synchronous=NORMAL,
  one transaction), one precompiled alternation regex of every ``data/taxonomy.toml``
  term tagging every text, and one Jinja render of a simple template over the results.
  The alternation is factored into a prefix trie (same matches as ``"|".join(terms)``,
  longest first; Latin terms whole-word): Python's ``re`` runs the plain 1,300-term
  alternation ~10× slower, which would make a floor slower than kb's own classifier.

Prints the medians, the ratio kb ÷ floor (lower is better; target ≤ 3), the speed-up of
the second run, peak RSS, and last one JSON line ``{"name","value","unit","floor","ratio"}``.
Also, for orientation: the same ratio on CPU time (robust on a busy machine), the time a
nightly process spends importing (``-X importtime`` of one more rerun), and kb's wall time
per stage, read from the timestamps of the run's own log in ``.kb/logs/`` (no profiler).
When a target is missed (or with ``--profile``), kb is run under ``python -m cProfile`` for a
first and a second run and the top 30 functions by cumulative (kb's own) and by own time
(all) are printed. Children run outside the checkout, so ``PYTHONPATH=/path/to/other/kb``
benchmarks another copy of kb with this venv (the bench prints which one it ran).
Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from installed import cache_bytecode  # bench/installed.py

ROOT = Path(__file__).resolve().parents[1]
RUN_DIR = tempfile.gettempdir()   # cwd of every child: never the checkout, so PYTHONPATH=<another kb> is honoured
TARGET_RATIO = 3.0
TARGET_SPEEDUP = 5.0

# =========================================================================== content pools
FIRST = ["Wei", "Jing", "Hao", "Yuki", "Min-jun", "Priya", "Arjun", "Fatima", "Lars", "Ingrid", "Mateo", "Sofia",
         "Chen", "Xin", "Minh", "Olga", "Dmitri", "Amara", "Kwame", "Noah", "Emma", "Liam", "Mia", "Lucas", "Hana",
         "Seo-yeon", "Björn", "Élodie", "Tomasz", "Zhiyuan", "Jiayi", "Ravi", "Meera", "Omar", "Laura", "Felix",
         "Chloe", "Jonas", "Mei", "Sora", "Pierre", "Julia", "Bo", "Lin", "Grace", "Zhen", "Chenxi", "Yifan"]
LAST = ["Zhang", "Wang", "Li", "Liu", "Chen", "Yang", "Huang", "Zhao", "Tanaka", "Sato", "Kumar", "Sharma", "Iyer",
        "Okafor", "Mensah", "Novak", "Müller", "Schmidt", "Weber", "García", "Rossi", "Ferrari", "Nguyen", "Tran",
        "Kim", "Park", "Ivanova", "Petrov", "Andersson", "Dubois", "Moreau", "Kowalski", "Cohen", "Lopez", "Young",
        "Santos", "Reddy", "Haddad", "Fischer", "Laurent", "Mitchell", "Scott", "Xu", "He", "Guo", "Zhu"]
NAME_A = ["Helix", "Nimbus", "Quill", "Orca", "Cascade", "Prism", "Vortex", "Lumen", "Atlas", "Ember", "Tessel",
          "Kestrel", "Slim", "Turbo", "Hydra", "Flux", "Sparrow", "Granite", "Aurora", "Cobalt", "Meridian", "Pulse",
          "Relay", "Harbor", "Lattice", "Quasar", "Rapid", "Stride", "Zephyr", "Onyx", "Beacon", "Ripple"]
SYLL = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zen", "dor", "bel", "tra", "qui", "pha", "gor", "lin", "mex",
        "tor", "ul", "ex", "ion", "ar", "en", "is", "ob", "pra", "stel", "cor", "fa", "ri", "nu", "el"]
NAME_B = ["Serve", "KV", "Spec", "Route", "Pipe", "Cache", "Flow", "Mesh", "Quant", "Gate", "Sched", "Stream",
          "Infer", "Batch", "Shard", "Fuse", "Tree", "Draft", "Wise", "Store", "Link", "Scope", "Bench", "Lens"]
HARDWARE = ["8×H100", "8×H200", "a GB200 NVL72 rack", "16×MI300X", "Ascend 910C nodes", "TPU v5e pods",
            "4×L40S", "8×A100-80GB", "a B200 cluster"]
MODELS = ["Llama-3.1-70B", "Qwen3-235B-A22B", "DeepSeek-V3", "Mixtral-8x22B", "Llama-4-Scout", "Qwen3-32B",
          "DeepSeek-V4.1-Flash", "Gemma-3-27B", "gpt-oss-120b"]
BASELINES = ["vLLM", "SGLang", "TensorRT-LLM", "DistServe", "Splitwise", "LMDeploy", "Mooncake", "Sarathi-Serve"]
INF_METRICS = ["goodput", "throughput", "SLO attainment", "TTFT", "TPOT", "p99 latency", "GPU memory use",
               "cost per million tokens"]
INF_TARGETS = ["Large Language Model Serving", "LLM Inference", "Long-Context LLM Serving", "MoE Serving",
               "Agentic Workloads", "Multi-Tenant GPU Clusters", "Production LLM Inference"]
ADJ = ["Efficient", "SLO-Aware", "Adaptive", "Scalable", "Goodput-Optimal", "Memory-Efficient", "Elastic", "Fast",
       "Predictable", "Lightweight", "Robust", "Practical"]
OTHER_ADJ = ["Efficient", "Scalable", "Robust", "Practical", "Simple", "Provable", "Data-Efficient", "Unified",
             "Self-Supervised", "Interpretable"]
GENERIC_LIMITS = [
    "Existing approaches rely on static heuristics that break down under realistic, bursty workloads.",
    "Prior work evaluates on short synthetic traces and leaves the common case in production untested.",
    "Current systems treat the two concerns separately, which leaves a large part of the opportunity unused.",
    "Previous methods assume a fixed configuration chosen offline, which drifts from the optimum within minutes.",
    "State-of-the-art solutions trade one metric for another and offer no knob to choose between them.",
]
GENERIC_DETAILS = [   # neutral: any field's abstract may say these
    "The design composes with existing methods and needs no change to the surrounding pipeline.",
    "An empirical study shows that the opportunity is large and persists across settings.",
    "We further characterize when the approach helps and when it degrades to the baseline.",
    "A formal analysis bounds the overhead of the method in the worst case.",
    "The key insight is that the expensive decision can be amortized over many instances that share structure.",
    "Ablations show that each of the three components contributes, and that their combination matters most.",
    "Unlike prior designs, it does not require any hand-tuned hyperparameters.",
    "We also discuss the limitations of our study, in particular the narrow set of tasks we consider.",
]
INF_DETAILS = [   # serving-specific
    "A lightweight cost model, fitted online from a few hundred samples, decides at runtime which path to take.",
    "The design needs no change to the model weights and composes with existing serving optimizations.",
    "We implement the approach in about 4,000 lines of Python and C++ on top of an open-source inference engine.",
    "We evaluate on traces collected over two weeks from a production cluster serving several million requests per day.",
    "The method adds less than 2% overhead when it brings no benefit, so it can stay enabled by default.",
    "Unlike prior designs, it does not require any offline profiling of the workload or the GPUs.",
]
CLOSINGS = ["Code is available at https://github.com/{org}/{repo}.", "We will release the code and traces.",
            "Our results suggest that this direction deserves more attention.", ""]

# (slug, section, noun phrases, zh, problems, methods)
INFERENCE = [
    ("pd-disaggregation", "§2.3", ["Prefill-Decode Disaggregation", "Disaggregated Serving", "Disaggregated Prefill"],
     "PD 分离（预填充-解码分离）",
     ["prefill and decode interfere with each other when they share the same GPUs",
      "static prefill/decode pool ratios waste GPUs as the input and output length mix drifts",
      "moving the KV cache between prefill and decode instances puts the network on the critical path"],
     ["places prefill and decode on separate instance pools and rebalances them from the observed SLO attainment",
      "streams the KV cache from prefill to decode instances layer by layer over RDMA",
      "lets idle decode instances borrow prefill work when the prefill queue grows"]),
    ("kv-cache", "§2.1", ["KV Cache Management", "Prefix Caching", "Paged KV Cache"], "KV Cache 管理 / 前缀缓存",
     ["the KV cache, not the weights, bounds the batch size of long requests",
      "prefix cache hit rates collapse when many tenants share one cluster",
      "KV cache eviction policies ignore which prefixes will be reused"],
     ["predicts prefix reuse from request metadata and evicts the KV cache blocks least likely to be hit",
      "offloads cold KV cache blocks to host memory and prefetches them ahead of the decode step",
      "shares KV cache blocks across requests with a radix tree that survives engine restarts"]),
    ("kv-transfer", "§2.3.1", ["KV Cache Transfer", "KV Cache Streaming", "Distributed KV Cache Storage"],
     "KV 传输",
     ["KV cache transfer between nodes saturates the NIC during bursts",
      "KV transfer engines pick one backend and ignore the topology of the cluster"],
     ["chooses among NVLink, RDMA and TCP backends per transfer from a bandwidth model",
      "compresses the KV cache in flight and overlaps the transfer with the first decode iterations"]),
    ("moe", "§2.3", ["Mixture-of-Experts Inference", "Expert Parallelism", "MoE Serving"], "MoE 推理 / 专家并行",
     ["all-to-all communication dominates MoE decode latency at large expert-parallel degrees",
      "expert load is skewed and changes every few hundred tokens",
      "expert offloading stalls decode when the router picks a cold expert"],
     ["replicates hot experts and places them to balance all-to-all traffic",
      "prefetches experts predicted from the router logits of the previous layer",
      "prunes experts differently for prefill and decode to match their bottlenecks"]),
    ("speculative-decoding", "§3.1", ["Speculative Decoding", "Draft Token Trees", "Self-Speculative Decoding"],
     "投机解码",
     ["speculative decoding helps at batch size 1 but hurts at large batch sizes",
      "draft models drift from the target model after fine-tuning",
      "static draft token trees waste verification compute on low-acceptance branches"],
     ["sizes the draft token tree at each step from the batch occupancy and the measured acceptance rate",
      "trains a lightweight draft head on the target model's own hidden states",
      "turns speculation off per request when its acceptance rate falls below a threshold"]),
    ("quantization", "§3.2", ["Weight-Only Quantization", "FP8 KV Cache Quantization", "Low-Bit Inference"],
     "量化（W4A16 / FP8 KV）",
     ["4-bit weight-only quantization loses accuracy on reasoning tasks",
      "quantized kernels underuse tensor cores at small batch sizes",
      "KV cache quantization error accumulates over long generations"],
     ["rotates weights before post-training quantization to spread outliers across channels",
      "fuses dequantization into the GEMM epilogue with mixed-precision W4A8 kernels",
      "keeps a few outlier channels of the KV cache in FP16 and quantizes the rest to FP4"]),
    ("scheduling", "§2.2", ["Request Scheduling", "Continuous Batching", "Chunked Prefill"], "请求调度 / 连续批处理",
     ["first-come-first-served scheduling lets long prompts block short ones",
      "continuous batching ignores the SLO of each request",
      "output lengths are unknown at admission time"],
     ["predicts output lengths and schedules requests shortest-remaining-first with starvation bounds",
      "chunks long prefills and packs them into decode batches without stalling decodes",
      "admits requests by their deadlines and preempts the ones that can no longer meet their SLO"]),
    ("attention-kernels", "§3.4", ["Attention Kernels", "FlashAttention Decoding", "GPU Kernel Fusion"], "注意力算子",
     ["decode attention is memory-bound and leaves most of the GPU idle",
      "variable-length batches fragment attention kernels"],
     ["splits the KV sequence across thread blocks and merges partial softmax results",
      "generates fused attention kernels for paged KV layouts with a small DSL"]),
    ("long-context", "§2.6", ["Long-Context Inference", "Million-Token Serving", "Sparse Attention"],
     "长上下文推理",
     ["million-token prompts make prefill quadratic and the KV cache larger than GPU memory",
      "long-context requests starve short ones in shared clusters"],
     ["retrieves only the KV blocks relevant to each query with a learned index",
      "pipelines prefill of long prompts across GPUs with sequence parallelism"]),
    ("parallelism", "§2.5", ["Tensor Parallelism", "Pipeline-Parallel Inference", "Distributed Inference"],
     "并行（TP / PP / EP）",
     ["tensor parallelism across nodes pays an all-reduce per layer",
      "pipeline bubbles waste GPUs when batches are small"],
     ["overlaps tensor-parallel communication with computation at the granularity of tiles",
      "chooses the parallel configuration per phase from a performance model"]),
    ("routing", "§2.4", ["LLM Routing", "Model Routing", "Cache-Aware Load Balancing"], "路由 / 负载均衡",
     ["routing every query to the largest model wastes most of the budget",
      "load balancers ignore where the KV cache of a conversation lives"],
     ["routes each query to the cheapest model predicted to answer it correctly",
      "routes requests to the replica holding the longest matching prefix while bounding load imbalance"]),
    ("edge-inference", "§2.7", ["On-Device Inference", "Edge LLM Inference", "Mobile LLM Serving"],
     "端侧推理",
     ["on-device LLMs are limited by DRAM bandwidth and thermal throttling",
      "edge devices cannot hold the whole model in memory"],
     ["splits prefill between the NPU and the GPU of a phone and keeps decode on the NPU",
      "streams weights from flash storage with a layer-ahead prefetcher"]),
    ("security", "§1.(9)", ["Timing Side Channels in LLM Serving", "Prompt Leakage", "Denial of Service on LLM Schedulers"],
     "推理系统安全",
     ["shared prefix caches leak whether another tenant sent the same prompt",
      "length-prediction schedulers can be gamed to slow down co-batched users"],
     ["isolates prefix caches per tenant with a small salt and measures the leakage that remains",
      "detects adversarial long-output prompts before admission"]),
    ("hardware", "§3.5", ["LLM Inference Accelerators", "Hardware-Software Co-Design", "Processing-in-Memory for Decode"],
     "硬件 / 加速器",
     ["decode is bound by memory bandwidth, not by compute",
      "accelerators designed for training are oversized for inference"],
     ["offloads decode attention to processing-in-memory units next to HBM",
      "co-designs a low-precision datapath and the serving scheduler"]),
    ("agentic-serving", "§1.(1)", ["Agentic Serving", "Serving Agent Programs", "Compound AI Serving"],
     "Agent 推理服务",
     ["agent programs issue many dependent LLM calls and tool calls, so per-request scheduling misses the goal",
      "agent workloads re-send long shared prefixes on every step"],
     ["schedules whole agent programs by their critical path instead of single requests",
      "keeps the KV cache of an agent's context alive across tool calls"]),
    ("ai-for-systems", "§1.(13)", ["Self-Evolving Inference Systems", "LLM-Driven System Tuning", "Learned Serving Policies"],
     "AI for Systems",
     ["serving systems expose hundreds of knobs that nobody tunes",
      "hand-written scheduling policies age as hardware and workloads change"],
     ["lets an LLM agent propose, test and roll out configuration changes under a safety budget",
      "learns a scheduling policy from production traces with offline reinforcement learning"]),
]

# (name, categories, nouns, problems, methods, evals, metrics) — other fields, adjacent ones and the traps
OTHER = [
    ("rl", ["cs.LG", "cs.AI"], ["Offline Reinforcement Learning", "Policy Optimization", "Reward Shaping"],
     ["the dataset covers few high-return trajectories", "rewards arrive after hundreds of steps"],
     ["penalizes out-of-distribution actions with a conservative value estimate", "learns a goal-conditioned exploration bonus"],
     ["On D4RL", "On Atari-57", "On NetHack"], ["normalized return", "sample efficiency"]),
    ("agents", ["cs.AI", "cs.CL"], ["Tool-Using Agents", "Computer-Use Agents", "Multi-Agent Collaboration"],
     ["long-horizon tasks need many tool calls whose errors compound", "agents forget what they learned in earlier episodes"],
     ["plans tool calls with a verifier in the loop", "indexes past trajectories as retrievable memory for the agent"],
     ["On WebArena", "On SWE-bench Verified", "On OSWorld"], ["task success rate", "pass@1"]),
    ("rag", ["cs.CL", "cs.IR"], ["Retrieval-Augmented Generation", "Multi-Hop Retrieval", "Dense Retrieval"],
     ["retrieved passages are often irrelevant to the question", "multi-hop questions need several retrieval rounds"],
     ["decides the number of retrieval hops from the query", "reranks passages with a small cross-encoder before generation"],
     ["On HotpotQA", "On Natural Questions", "On MuSiQue"], ["exact match", "answer faithfulness"]),
    ("vision", ["cs.CV", "cs.LG"], ["Object Detection", "Semantic Segmentation", "High-Resolution Image Understanding"],
     ["small objects are missed at low resolution", "annotations are expensive for dense prediction"],
     ["zooms into regions selected by a lightweight saliency model", "distills a segmentation head from a foundation model"],
     ["On COCO", "On ADE20K", "On V*Bench"], ["mAP", "mIoU"]),
    ("diffusion", ["cs.CV", "cs.LG"], ["Video Generation", "Text-to-Image Diffusion", "Image Editing"],
     ["long videos lose temporal consistency", "diffusion sampling needs many denoising steps"],
     ["keeps a persistent motion memory across generated clips", "distills the sampler into four steps"],
     ["On UCF-101", "On MS-COCO", "On VBench"], ["FVD", "FID"]),
    ("training", ["cs.LG", "cs.DC"], ["Large-Scale Pretraining", "Pipeline-Parallel Training", "Checkpointing for Training"],
     ["pipeline bubbles waste a tenth of the GPUs in trillion-parameter pretraining",
      "checkpoints of 100K-GPU jobs take minutes to write"],
     ["fills pipeline bubbles with data-parallel all-reduce", "writes checkpoints to the host memory of neighbour nodes first"],
     ["On a 16,384-GPU cluster", "On a 4,096-GPU cluster", "On 1,024 H100 GPUs"], ["MFU", "training throughput"]),
    ("fp8-training", ["cs.LG"], ["FP8 Training", "Low-Precision Optimizers", "Mixed-Precision Training"],
     ["low-precision training diverges for large learning rates", "optimizer states dominate memory in FP8 training"],
     ["keeps the orthogonalization of the optimizer in FP8 with per-block scaling", "stores optimizer states in 8 bits"],
     ["On GPT-style pretraining at 1.3B parameters", "On ImageNet pretraining"], ["validation loss", "training speed"]),
    ("theory", ["cs.LG", "stat.ML", "math.OC"], ["Stochastic Optimization", "Bandit Algorithms", "Generalization Bounds"],
     ["gradient variance may be infinite under heavy-tailed noise", "regret bounds are loose for structured action sets"],
     ["uses median-of-means gradient estimates", "exploits the geometry of the action set in a new confidence bound"],
     ["On synthetic heavy-tailed problems", "In simulations"], ["regret", "convergence rate"]),
    ("causal", ["stat.ML", "cs.LG"], ["Causal Inference", "Variational Inference", "Bayesian Inference"],
     ["causal effects are confounded in observational data", "variational inference underestimates posterior variance"],
     ["learns a doubly robust estimator with neural nuisance models", "corrects the variational posterior with importance weights"],
     ["On IHDP", "On synthetic benchmarks"], ["PEHE", "ELBO"]),
    ("consensus", ["cs.DC"], ["Byzantine Consensus", "Blockchain Sharding", "Erasure-Coded Storage"],
     ["cross-shard transactions need atomicity", "repair traffic saturates cross-rack links"],
     ["uses a two-phase cross-shard protocol", "relies on locally repairable codes"],
     ["On Ethereum transaction traces", "On a 100-node testbed"], ["commit latency", "repair bandwidth"]),
    ("nlp-eval", ["cs.CL"], ["Dialogue State Tracking", "Benchmarking Reasoning", "Machine Translation"],
     ["slot values drift over long conversations", "benchmarks saturate within months of release"],
     ["uses schema-guided prompting", "generates fresh test items from templates verified by humans"],
     ["On MultiWOZ", "On WMT24", "On GSM8K"], ["joint goal accuracy", "BLEU"]),
    ("speech", ["cs.SD", "eess.AS", "cs.CL"], ["Speech-to-Speech Translation", "Speech Synthesis", "Speech Recognition"],
     ["streaming translation lags behind the speaker", "low-resource languages lack paired data"],
     ["uses monotonic attention over speech units", "pretrains on untranscribed speech"],
     ["On CVSS", "On LibriSpeech"], ["ASR-BLEU", "word error rate"]),
    ("databases", ["cs.DB"], ["Vector Databases", "Learned Indexes", "Query Optimization"],
     ["vector search recall drops under filtered queries", "cardinality estimates are off by orders of magnitude"],
     ["partitions the index by filter attributes", "learns cardinalities from query feedback"],
     ["On SIFT1M", "On the JOB benchmark"], ["recall@10", "query latency"]),
]
OTHER_ZH = {"rl": "强化学习", "agents": "智能体（agents）", "rag": "检索增强生成（RAG）", "vision": "视觉理解",
            "diffusion": "生成模型", "training": "训练 infra", "fp8-training": "FP8 训练", "theory": "优化理论",
            "causal": "因果推断", "consensus": "分布式共识", "nlp-eval": "NLP 评测", "speech": "语音",
            "databases": "数据库 / 向量库"}
ZH_JUDGE_INF = ["与 {sec} 已锚条目相近，边界待精读", "net-new：之前 inference.md 没有这条线", "确认性，无新数字",
                "工程价值高，建议锚入 {sec}", "数字很漂亮，但只和单一 baseline 比", "和昨天的 {other} 是同一个方向的两种切法"]
ZH_JUDGE_OTHER = ["与 inference 无直接关系", "邻接 inference，不进主轴", "纯训练侧，与 inference 无交叉",
                  "归到 {field} 笔记"]
ZH_RESULT = ["{metric} 提升 {x}×（{hw}，{model}）", "{metric} 降低 {p}%（对比 {base}）", "在 {hw} 上比 {base} 快 {x}×",
             "作者自测：{metric} +{p}%，没给方差"]

FEEDS = [  # name, url, credibility, topics, format, focus
    ("vllm-blog", "https://blog.vllm.ai/feed.xml", 5, ["serving-systems"], "atom", "inf"),
    ("llm-d", "https://llm-d.ai/blog/atom.xml", 5, ["pd-disaggregation", "kv-transfer"], "atom", "inf"),
    ("lmcache", "https://blog.lmcache.ai/feed.xml", 4, ["kv-cache"], "rss", "inf"),
    ("sglang", "https://lmsys.org/rss.xml", 5, ["serving-systems"], "rss", "inf"),
    ("pytorch", "https://pytorch.org/feed.xml", 4, [], "rss", "mix"),
    ("nvidia-dev", "https://developer.nvidia.com/blog/feed", 4, ["hardware"], "rss", "inf"),
    ("hf-blog", "https://huggingface.co/blog/feed.xml", 4, [], "rss", "mix"),
    ("anyscale", "https://www.anyscale.com/blog/rss.xml", 3, [], "rss", "mix"),
    ("together", "https://www.together.ai/blog/rss.xml", 4, ["attention-kernels"], "rss", "inf"),
    ("fireworks", "https://fireworks.ai/blog/atom.xml", 3, [], "atom", "inf"),
    ("baseten", "https://www.baseten.co/blog/rss.xml", 3, ["serving-systems"], "rss", "inf"),
    ("modal", "https://modal.com/blog/feed.xml", 3, [], "atom", "mix"),
    ("databricks", "https://www.databricks.com/feed", 3, [], "rss", "mix"),
    ("pinecone", "https://www.pinecone.io/blog/rss.xml", 2, [], "atom", "other"),
    ("langchain", "https://blog.langchain.dev/rss/", 2, [], "atom", "other"),
    ("milvus", "https://milvus.io/blog/rss.xml", 2, [], "atom", "other"),
    ("mooncake", "https://kvcache-ai.github.io/Mooncake/feed.xml", 4, ["kv-transfer"], "atom", "inf"),
    ("flashinfer", "https://flashinfer.ai/feed.xml", 4, ["attention-kernels"], "atom", "inf"),
    ("tensorrt-llm", "https://nvidia.github.io/TensorRT-LLM/blogs/feed.xml", 4, ["serving-systems"], "atom", "inf"),
    ("ray", "https://www.anyscale.com/ray/feed.xml", 3, ["parallelism"], "rss", "mix"),
]
AUTHORS = {"jay": 4, "spark": 3, "tom": 4, "lin": 3, "mei": 4}
SECTIONS = [  # number, level, title, weight of anchors
    ("§1", 2, "Landscape", 0), ("§1.1", 3, "Framework landscape", 6), ("§1.(1)", 3, "Agentic serving", 3),
    ("§1.(9)", 3, "Security", 2), ("§1.(13)", 3, "AI for Systems", 2),
    ("§2", 2, "Serving architecture", 0), ("§2.1", 3, "Engines, runtimes and KV cache", 7),
    ("§2.2", 3, "Scheduling and batching", 6), ("§2.3", 3, "Prefill-Decode Disaggregation", 6),
    ("§2.3.1", 4, "KV transfer", 3), ("§2.4", 3, "Model and request routing", 3), ("§2.5", 3, "Parallelism", 3),
    ("§2.6", 3, "Long context", 3), ("§2.7", 3, "Edge and on-device", 2), ("§2.8", 3, "Multimodal serving", 2),
    ("§3", 2, "Model-level acceleration", 0), ("§3.1", 3, "Speculative decoding", 5), ("§3.2", 3, "Quantization", 5),
    ("§3.3", 3, "KV cache compression and pruning", 4), ("§3.4", 3, "Attention kernels", 3),
    ("§3.5", 3, "Hardware", 3),
]
SECTION_PROFILES: dict[str, list] = {}
for _p in INFERENCE:
    SECTION_PROFILES.setdefault(_p[1], []).append(_p)


# =========================================================================== the generator
class Day:
    """One deterministic heavy day: every record, then every file, from one seeded RNG."""

    def __init__(self, seed: int, day: date, n: dict[str, int]) -> None:
        self.rnd = random.Random(seed)
        self.day, self.n = day, n
        self.used_ids: set[str] = set()
        self.used_names: set[str] = set()

    # ----------------------------------------------------------------- small helpers
    def pick(self, seq):
        return self.rnd.choice(seq)

    def name(self) -> str:
        """A system's name: CamelCase of a known word or a made-up one, never used twice."""
        while True:
            r = self.rnd
            head = self.pick(NAME_A) if r.random() < 0.4 else \
                "".join(self.pick(SYLL) for _ in range(r.randint(2, 3))).capitalize()
            n = head + (self.pick(NAME_B) if r.random() < 0.7 else "")
            if n not in self.used_names and len(n) > 3:
                self.used_names.add(n)
                return n

    def new_id(self, yymm: str | None = None) -> str:
        while True:
            ym = yymm or f"{self.rnd.randint(23, 26):02d}{self.rnd.randint(1, 12):02d}"
            if ym > "2609" and yymm is None:
                continue
            aid = f"{ym}.{self.rnd.randint(100, 12999 if ym == '2610' else 34999):05d}"
            if aid not in self.used_ids:
                self.used_ids.add(aid)
                return aid

    def authors(self, lo: int = 2, hi: int = 9) -> list[str]:
        return [f"{self.pick(FIRST)} {self.pick(LAST)}" for _ in range(self.rnd.randint(lo, hi))]

    def when(self, back_min: int, back_max: int) -> date:
        return self.day - timedelta(days=self.rnd.randint(back_min, back_max))

    # ----------------------------------------------------------------- papers
    def inference_paper(self, prof=None) -> dict:
        r = self.rnd
        slug, sec, nouns, zh, problems, methods = prof or self.pick(INFERENCE)
        name, noun = self.name(), self.pick(nouns)
        target = self.pick(INF_TARGETS)
        if r.random() < 0.75:
            title = f"{name}: {self.pick(ADJ)} {noun} for {target}"
        else:
            title = self.pick([f"Revisiting {noun} for {target}", f"Understanding {noun} in Production LLM Serving",
                               f"Towards {self.pick(ADJ)} {noun} at Scale"])
            name = noun
        problem, method = self.pick(problems), self.pick(methods)
        m1, m2 = r.sample(INF_METRICS, 2)
        x, p = round(r.uniform(1.2, 4.8), 2), r.randint(12, 68)
        sents = [self.pick([f"Large language models are increasingly served at scale, where {problem}.",
                            f"A central obstacle in {noun.lower()} is that {problem}.",
                            f"Progress in {noun.lower()} is limited because {problem}.",
                            f"{problem[0].upper() + problem[1:]}."]),
                 self.pick(GENERIC_LIMITS),
                 self.pick([f"We present {name}, a system that {method}.", f"We introduce {name}, which {method}.",
                            f"This paper proposes {name}: it {method}."]),
                 *r.sample(INF_DETAILS, r.randint(2, 4)), *r.sample(GENERIC_DETAILS, r.randint(1, 2)),
                 f"{name} also {self.pick([m for m in methods if m != method] or methods)}.",
                 (f"On {self.pick(HARDWARE)} with {self.pick(MODELS)}, {name} improves {m1} by {x}x over "
                 f"{self.pick(BASELINES)} and reduces {m2} by {p}% at the same SLO."),
                 self.pick(CLOSINGS).format(org=name.lower() + "-lab", repo=name.lower())]
        cats = [self.pick(["cs.DC", "cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"])]
        cats += [c for c in r.sample(["cs.LG", "cs.DC", "cs.AI", "cs.PF", "cs.AR"], r.randint(0, 2)) if c not in cats]
        return {"title": title, "abstract": " ".join(s for s in sents if s), "cats": cats, "kind": "inf",
                "slug": slug, "section": sec, "name": name, "zh": zh, "x": x, "p": p, "metric": m1,
                "method": method}

    def other_paper(self) -> dict:
        r = self.rnd
        field, cats, nouns, problems, methods, evals, metrics = self.pick(OTHER)
        name, noun = self.name(), self.pick(nouns)
        problem, method, ev, metric = self.pick(problems), self.pick(methods), self.pick(evals), self.pick(metrics)
        if r.random() < 0.6:
            title = (f"{name}: {self.pick(OTHER_ADJ)} {noun} "
                     + self.pick(["at Scale", "with Verifiers", "from Weak Supervision", "under Distribution Shift",
                                  "without Labels", "in the Wild", "with Learned Priors", "for Long Horizons"]))
        else:
            title = (f"{self.pick(['Scaling', 'Rethinking', 'Revisiting', 'Improving', 'On'])} {noun} via "
                     + self.pick(["Conservative Penalties", "Learned Priors", "Adaptive Sampling", "Verifiers",
                                  "Memory", "Curricula", "Contrastive Objectives"]))
        p = round(r.uniform(2, 25), 1)
        sents = [self.pick([f"A central obstacle in {noun.lower()} is that {problem}.",
                            f"Progress in {noun.lower()} is limited because {problem}.",
                            f"{problem[0].upper() + problem[1:]}, which limits {noun.lower()} in practice."]),
                 self.pick([f"We present {name}, which {method}.", (f"We show that a method that {method} addresses "
                            "this problem and analyze its failure modes."), f"We study an approach that {method}."]),
                 self.pick(GENERIC_LIMITS),
                 *r.sample(GENERIC_DETAILS, r.randint(4, 6)),
                 f"{ev}, {name} improves {metric} by {p}% over strong baselines"
                 + self.pick([".", " at 5x lower cost.", " while using half the compute."]),
                 self.pick(CLOSINGS).format(org=name.lower(), repo=name.lower())]
        cc = list(cats)
        r.shuffle(cc)
        return {"title": title, "abstract": " ".join(s for s in sents if s), "cats": cc[:r.randint(1, len(cc))],
                "kind": "other", "slug": field, "section": None, "name": name, "zh": OTHER_ZH[field], "x": None,
                "p": p, "metric": metric, "method": method}

    def paper(self, inf_share: float = 0.25) -> dict:
        return self.inference_paper() if self.rnd.random() < inf_share else self.other_paper()

    # ----------------------------------------------------------------- the whole day
    def build(self) -> None:
        r, n = self.rnd, self.n
        # knowledge doc anchors first: older papers, some of them replaced in today's listing
        self.anchors: list[dict] = []
        weights = [(s, w) for s, _, _, w in SECTIONS if w]
        total_w = sum(w for _, w in weights)
        for sec, w in weights:
            k = max(1, round(n["anchors"] * w / total_w))
            for _ in range(k):
                prof = self.pick(SECTION_PROFILES.get(sec) or INFERENCE)
                p = self.inference_paper(prof)
                p["id"] = self.new_id()
                p["section"] = sec
                back = r.choice([1, 1, 2, 5, 9, 14, 30, 45, 60, 90, 120])
                p["anchored_on"] = None if r.random() < 0.08 else (self.day - timedelta(days=back)).isoformat()
                p["url_only"] = r.random() < 0.07
                self.anchors.append(p)
        self.anchors = self.anchors[:n["anchors"]]
        while len(self.anchors) < n["anchors"]:
            p = self.inference_paper(SECTION_PROFILES["§2.1"][0])
            p.update(id=self.new_id(), section="§2.1", anchored_on=None, url_only=False)
            self.anchors.append(p)
        # the listing: 56% new, 17% cross, 21% replace, 6% replace-cross
        self.listing: list[dict] = []
        anchored_ids = [a for a in self.anchors if not a["url_only"]]
        replaced_anchors = r.sample(anchored_ids, min(25, len(anchored_ids)))
        for _i in range(n["arxiv"]):
            u = r.random()
            kind = "new" if u < 0.56 else "cross" if u < 0.73 else "replace" if u < 0.94 else "replace-cross"
            if kind == "replace" and replaced_anchors and r.random() < 0.12:
                p = dict(replaced_anchors.pop())
                p["version"] = r.randint(2, 4)
            else:
                p = self.paper(0.12 if kind in ("new", "cross") else 0.08)
                if kind in ("new", "cross"):
                    p["id"], p["version"] = self.new_id("2610"), 1
                elif r.random() < 0.01:
                    p["id"], p["version"] = f"cs/{r.randint(0, 7):02d}{r.randint(1, 12):02d}{r.randint(1, 999):03d}", 3
                else:
                    p["id"], p["version"] = self.new_id(), r.randint(2, 5)
            p["announce"] = kind
            p["authors"] = self.authors()
            self.listing.append(p)
        new_items = [p for p in self.listing if p["announce"] == "new"]
        # HF: most are in today's listing, the rest in other categories
        self.hf: list[dict] = []
        hf_from_listing = r.sample(new_items, min(len(new_items), int(n["hf"] * 0.7)))
        for p in hf_from_listing:
            self.hf.append(dict(p))
        while len(self.hf) < n["hf"]:
            p = self.other_paper() if r.random() < 0.7 else self.inference_paper()
            p["id"], p["version"], p["authors"] = self.new_id("2610"), 1, self.authors()
            self.hf.append(p)
        r.shuffle(self.hf)
        ups = sorted((int(r.paretovariate(1.3) * 4) for _ in self.hf), reverse=True)
        for p, u in zip(self.hf, ups):
            p["upvotes"] = min(u, 400)
        # feeds
        self.posts: dict[str, list[dict]] = {}
        cite_pool = [p for p in new_items if p["kind"] == "inf"] + anchored_ids[:80]
        for name, _url, _cred, _topics, _fmt, focus in FEEDS[:n["feeds"]]:
            d = self.day - timedelta(days=r.choice([0, 0, 0, 1, 1, 2, 6, 20]))
            posts = []
            for _k in range(n["items"]):
                inf = focus == "inf" and r.random() < 0.85 or focus == "mix" and r.random() < 0.45 \
                    or focus == "other" and r.random() < 0.1
                p = self.inference_paper() if inf else self.other_paper()
                p["date"] = d
                p["cites"] = r.sample(cite_pool, r.randint(1, 2)) if inf and r.random() < 0.4 else []
                p["slug_url"] = "-".join(p["title"].lower().replace(":", "").split()[:6])
                p["post_author"] = self.pick([f"{name} team", f"{self.pick(FIRST)} {self.pick(LAST)}"])
                posts.append(p)
                d -= timedelta(days=r.randint(1, 6))
            self.posts[name] = posts
        # cards: papers noticed in the last days (the listing and HF)
        card_src = r.sample(new_items + self.hf, min(n["cards"], len(new_items) + len(self.hf)))
        self.cards = []
        for i, p in enumerate(card_src):
            if p["id"] in {c["id"] for c in self.cards}:
                continue
            self.cards.append(dict(p, number=400 + i, created=self.when(0, 3),
                                   source=self.pick(["hf-daily", "arxiv", "manual", "blog"])))
        self.queue = r.sample(self.cards, min(n["queue"] - 2, len(self.cards)))

    # ----------------------------------------------------------------- files
    def write(self, ws: Path) -> dict[str, int]:
        d = self.day.isoformat()
        for sub in ("recordings/arxiv", "recordings/hf", "recordings/blogs", "organized/knowledge",
                    "organized/paper_cards", "organized/queue", "inbox"):
            (ws / sub).mkdir(parents=True, exist_ok=True)
        (ws / "kb.toml").write_text(self.kb_toml(), encoding="utf-8")
        (ws / f"recordings/arxiv/{d}-listing.xml").write_text(self.listing_xml(), encoding="utf-8")
        (ws / f"recordings/hf/daily_papers_{d}.json").write_text(self.hf_json(), encoding="utf-8")
        for feed in FEEDS[:self.n["feeds"]]:
            (ws / f"recordings/blogs/{feed[0]}.xml").write_text(self.feed_xml(feed), encoding="utf-8")
        (ws / "organized/knowledge/inference.md").write_text(self.knowledge_md(), encoding="utf-8")
        for c in self.cards:
            yymm, num = c["id"].split(".")
            (ws / f"organized/paper_cards/{c['number']}-{yymm}-{num}.md").write_text(self.card_md(c), encoding="utf-8")
        (ws / "organized/queue/work-queue.md").write_text(self.queue_md(), encoding="utf-8")
        for rel, text in self.notes():
            (ws / rel).parent.mkdir(parents=True, exist_ok=True)
            (ws / rel).write_text(text, encoding="utf-8")
        return {"listing": len(self.listing), "hf": len(self.hf), "posts": sum(len(v) for v in self.posts.values()),
                "notes": self.n["notes"], "anchors": len(self.anchors), "cards": len(self.cards),
                "queue": len(self.queue) + 2}

    def kb_toml(self) -> str:
        out = ['# kb.toml — generated by bench/nightly.py: one heavy offline day.',
               '[workspace]', 'timezone = "Asia/Shanghai"', 'languages = ["zh", "en"]',
               'contact = "kb-bench@example.org"', '', '[[topics]]', 'slug = "inference"',
               'doc = "organized/knowledge/inference.md"', '', '[arxiv]',
               'categories = ["cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"]',
               'recording = "recordings/arxiv/{date}-listing.xml"', '', '[hf]', 'credibility = 3',
               'recording = "recordings/hf/daily_papers_{date}.json"', '']
        for name, url, cred, topics, _, _ in FEEDS[:self.n["feeds"]]:
            out += ["[[blogs]]", f'name = "{name}"', f'url = "{url}"', f"credibility = {cred}",
                    "topics = [" + ", ".join(f'"{t}"' for t in topics) + "]",
                    f'recording = "recordings/blogs/{name}.xml"', ""]
        out += ["[authors]"] + [f"{a} = {c}" for a, c in AUTHORS.items()] + ["", "[briefing]", "top = 5", ""]
        return "\n".join(out)

    def listing_xml(self) -> str:
        cats = "cs.DC, cs.LG, cs.CL, cs.AR, cs.PF, cs.OS"
        plus = "cs.DC+cs.LG+cs.CL+cs.AR+cs.PF+cs.OS"
        wd = self.day.strftime("%a, %d %b %Y")
        parts = ["<?xml version='1.0' encoding='UTF-8'?>\n",
                 ('<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" '
                 'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
                 'version="2.0">\n  <channel>\n'),
                 (f"    <title>{cats} updates on arXiv.org</title>\n    <link>http://rss.arxiv.org/rss/{plus}</link>\n"
                 f"    <description>{cats} updates on the arXiv.org e-print archive.</description>\n"
                 f'    <atom:link href="http://rss.arxiv.org/rss/{plus}" rel="self" type="application/rss+xml"/>\n'
                 "    <docs>http://www.rssboard.org/rss-specification</docs>\n    <language>en-us</language>\n"
                 f"    <lastBuildDate>{wd} 04:01:17 +0000</lastBuildDate>\n"
                 "    <managingEditor>rss-help@arxiv.org</managingEditor>\n"
                 f"    <pubDate>{wd} 00:00:00 -0400</pubDate>\n"
                 "    <skipDays>\n      <day>Sunday</day>\n      <day>Saturday</day>\n    </skipDays>\n")]
        lic = ["http://creativecommons.org/licenses/by/4.0/", "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
               "http://creativecommons.org/licenses/by-nc-nd/4.0/", "http://creativecommons.org/licenses/by-sa/4.0/"]
        for i, p in enumerate(self.listing):
            vid = f"{p['id']}v{p['version']}"
            parts.append(
                "    <item>\n"
                f"      <title>{escape(p['title'])}</title>\n"
                f"      <link>https://arxiv.org/abs/{p['id']}</link>\n"
                f"      <description>arXiv:{vid} Announce Type: {p['announce']} \nAbstract: {escape(p['abstract'])}"
                "</description>\n"
                f'      <guid isPermaLink="false">oai:arXiv.org:{vid}</guid>\n'
                + "".join(f"      <category>{c}</category>\n" for c in p["cats"])
                + f"      <pubDate>{wd} 00:00:00 -0400</pubDate>\n"
                f"      <arxiv:announce_type>{p['announce']}</arxiv:announce_type>\n"
                f"      <dc:rights>{lic[i % len(lic)]}</dc:rights>\n"
                f"      <dc:creator>{escape(', '.join(p['authors']))}</dc:creator>\n"
                "    </item>\n")
        parts.append("  </channel>\n</rss>\n")
        return "".join(parts)

    def hf_json(self) -> str:
        r = self.rnd
        items = []
        for p in self.hf:
            def hexid():
                return f"{r.getrandbits(96):024x}"
            org = p["name"].lower() + "-lab"
            sub = {"_id": hexid(), "avatarUrl": f"https://cdn-avatars.huggingface.co/v1/production/uploads/{hexid()}/a.png",
                   "fullname": self.pick(["AK", "Tom", "AgentLab", "Niels", "Kye"]), "name": self.pick(["akhaliq", "nielsr", "kye"]),
                   "type": "user", "isPro": r.random() < 0.5}
            paper = {"id": p["id"], "authors": [{"_id": hexid(), "name": a, "hidden": False} for a in p["authors"]],
                     "publishedAt": f"{(self.day - timedelta(days=1)).isoformat()}T00:00:00.000Z",
                     "submittedOnDailyAt": f"{self.day.isoformat()}T00:00:00.000Z", "title": p["title"],
                     "submittedOnDailyBy": sub, "summary": p["abstract"], "upvotes": p["upvotes"],
                     "discussionId": hexid(), "githubRepo": f"https://github.com/{org}/{p['name'].lower()}",
                     "githubRepoAddedBy": "user", "ai_summary": p["abstract"].split(". ")[0] + ".",
                     "ai_keywords": [w for w in p["title"].lower().replace(":", "").split() if len(w) > 5][:6],
                     "ai_summary_model": "thinkingmachines/Inkling-Small", "githubStars": r.randint(0, 900)}
            items.append({"paper": paper, "publishedAt": f"{(self.day - timedelta(days=2)).isoformat()}T20:00:00.000Z",
                          "title": p["title"], "summary": p["abstract"],
                          "thumbnail": f"https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/{p['id']}.png",
                          "numComments": r.randint(0, 12), "submittedBy": dict(sub, followerCount=r.randint(0, 900)),
                          "isAuthorParticipating": r.random() < 0.4})
        return json.dumps(items, ensure_ascii=False, indent=2) + "\n"

    def post_html(self, p: dict) -> str:
        r = self.rnd
        paras = [p["abstract"].split(". ")[0] + "."]
        rest = p["abstract"].split(". ")[1:]
        paras.append(". ".join(rest[:3]).rstrip(".") + ".")
        if p["cites"]:
            links = ", ".join(f'&lt;a href="https://arxiv.org/abs/{c["id"]}"&gt;{escape(c["name"])}&lt;/a&gt; '
                              f"(arXiv:{c['id']})" for c in p["cites"])
            paras.append(f"This work builds on {links}, which we integrated in the last release.")
        bullets = [f"{self.pick(INF_METRICS)} improves {round(r.uniform(1.1, 3.9), 2)}x on {self.pick(HARDWARE)} "
                   f"with {self.pick(MODELS)}." for _ in range(r.randint(2, 4))]
        paras += [". ".join(rest[3:]) or "More details are in the documentation.",
                  "We thank the community for early feedback and bug reports."]
        html = "".join(f"&lt;p&gt;{escape(s) if '&lt;a' not in s else s}&lt;/p&gt;\n" for s in paras[:2])
        html += "".join(f"&lt;p&gt;{s}&lt;/p&gt;\n" for s in paras[2:3] if p["cites"])
        html += "&lt;ul&gt;" + "".join(f"&lt;li&gt;{escape(b)}&lt;/li&gt;" for b in bullets) + "&lt;/ul&gt;\n"
        html += "".join(f"&lt;p&gt;{escape(s)}&lt;/p&gt;\n" for s in paras[-2:])
        return html

    def feed_xml(self, feed) -> str:
        name, url, _, _, fmt, _ = feed
        site = url.rsplit("/", 1)[0]
        posts = self.posts[name]
        if fmt == "atom":
            out = ['<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n',
                   '  <generator uri="https://jekyllrb.com/" version="4.3.4">Jekyll</generator>\n',
                   f'  <link href="{url}" rel="self" type="application/atom+xml" />\n',
                   f'  <link href="{site}/" rel="alternate" type="text/html" />\n',
                   f"  <updated>{posts[0]['date'].isoformat()}T18:12:40+08:00</updated>\n  <id>{url}</id>\n",
                   f'  <title type="html">{name} blog</title>\n  <subtitle>Posts from {name}</subtitle>\n']
            for p in posts:
                link = f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html"
                out.append(
                    f'  <entry>\n    <title type="html">{escape(p["title"])}</title>\n'
                    f'    <link href="{link}" rel="alternate" type="text/html" title={quoteattr(p["title"])} />\n'
                    f"    <published>{p['date'].isoformat()}T00:00:00+00:00</published>\n"
                    f"    <updated>{p['date'].isoformat()}T00:00:00+00:00</updated>\n"
                    f"    <id>{link[:-5]}</id>\n"
                    f'    <content type="html" xml:base="{link}">{self.post_html(p)}</content>\n'
                    f"    <author>\n        <name>{escape(p['post_author'])}</name>\n    </author>\n"
                    f'    <category term="{p["slug"]}" />\n'
                    f'    <summary type="html">{escape(p["abstract"].split(". ")[0])}</summary>\n  </entry>\n')
            out.append("</feed>\n")
        else:
            out = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n',
                   f"  <channel>\n    <title>{name} blog</title>\n    <description>Posts from {name}</description>\n",
                   f"    <link>{site}/</link>\n",
                   f'    <atom:link href="{url}" rel="self" type="application/rss+xml" />\n',
                   f"    <lastBuildDate>{posts[0]['date'].strftime('%a, %d %b %Y')} 18:40:11 -0400</lastBuildDate>\n"]
            for p in posts:
                link = f"{site}/{p['date'].isoformat()}-{p['slug_url']}/"
                out.append(
                    f"    <item>\n      <title>{escape(p['title'])}</title>\n      <link>{link}</link>\n"
                    f"      <pubDate>{p['date'].strftime('%a, %d %b %Y')} 09:00:00 -0400</pubDate>\n"
                    f'      <guid isPermaLink="true">{link}</guid>\n'
                    f"      <description>{self.post_html(p)}</description>\n    </item>\n")
            out.append("  </channel>\n</rss>\n")
        return "".join(out)

    def anchor_line(self, a: dict) -> str:
        desc = a["method"][:90]
        desc = desc[:desc.rfind(" ")] if len(a["method"]) > 90 else desc
        if a["name"] not in a["title"].split(":")[0]:
            desc = a["title"]
        when = ""
        if a["anchored_on"]:
            when = f" ({self.pick(['anchored', 'anchored', '锚定'])} {a['anchored_on']})"
        if a["url_only"]:
            return f"- {a['name']} — {desc} — https://{a['name'].lower()}.github.io/blog/{a['id']}{when}"
        return f"- {a['id']} {a['name']} — {desc}{when}"

    def knowledge_md(self) -> str:
        out = ["# inference", f"version: v412 · {self.day.isoformat()} (midday update) · 引→{len(self.anchors) + 311}",
               "", "> LLM inference 知识主干，Tom（E1）维护，Jay 的工程 filter 补充。",
               "> 每条锚定行写 `(anchored YYYY-MM-DD)` 或 `(锚定 YYYY-MM-DD)`；没写日期的是早期迁移进来的条目。", ""]
        by_sec: dict[str, list[dict]] = {}
        for a in self.anchors:
            by_sec.setdefault(a["section"], []).append(a)
        for num, level, title, _ in SECTIONS:
            out += ["#" * level + f" {num} {title}", ""]
            for a in by_sec.get(num, []):
                out.append(self.anchor_line(a))
            if level > 2:
                prof = SECTION_PROFILES.get(num)
                if prof:
                    out.append(f"- 小结：{prof[0][3]} 这条线目前 {len(by_sec.get(num, []))} 条锚定，缺生产数据 —— 待补")
                out.append("")
        return "\n".join(out) + "\n"

    def card_md(self, c: dict) -> str:
        topics = [c["slug"]] if c["kind"] == "inf" else []
        up = c.get("upvotes")
        return (f"---\narxiv_id: {c['id']}\ntitle: {json.dumps(c['title'], ensure_ascii=False)}\n"
                f"created: {c['created'].isoformat()}T{self.rnd.randint(8, 22):02d}:{self.rnd.randint(0, 59):02d}\n"
                f"source: {c['source']}\nhf_upvotes: {up if up is not None else 'null'}\n"
                f"topics: [{', '.join(topics)}]\nprimary_topic: {'true' if c['kind'] == 'inf' and self.rnd.random() < 0.5 else 'false'}\n"
                f"---\n{c['zh']}：{c['abstract'].split('. ')[0]}.\n"
                + (f"邻接 inference：{self.pick(ZH_JUDGE_INF).format(sec=c['section'] or '§2.1', other=self.pick(NAME_A))}。\n"
                   if c["kind"] == "inf" else f"{self.pick(ZH_JUDGE_OTHER).format(field=c['zh'])}。\n"))

    def queue_md(self) -> str:
        out = [f"# Work queue · {self.day.isoformat()} 22:00 CST", "",
               f"Top {len(self.queue) + 2}，按优先级排（x/5 = 与 inference 主题的相关度；新卡与积压合排）。", ""]
        items = [(f"{c['id']} {c['title']}", (4.5 if c["kind"] == "inf" else 1.0) - i * 0.05, c)
                 for i, c in enumerate(self.queue)]
        items.sort(key=lambda t: -t[1])
        feed = FEEDS[0][0]
        url_posts = self.posts[feed][:2]
        site = FEEDS[0][1].rsplit("/", 1)[0]
        for p in url_posts:
            items.insert(1, (f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html {p['title']}", 4.0, p))
        for rank, (head, score, c) in enumerate(items, 1):
            note = f"inference · {c['zh']}" if c["kind"] == "inf" else c["zh"]
            out.append(f"{rank}. {head} — {max(score, 0.5):.1f}/5 — {note}；queued {self.when(0, 10).isoformat()}")
        return "\n".join(out) + "\n"

    # ----------------------------------------------------------------- notes
    def _entry(self, n: int, p: dict, style: str, numbering: str) -> list[str]:
        r = self.rnd
        zh_nums = "一二三四五六七八九十"
        num = zh_nums[n - 1] + "、" if numbering == "zh" and n <= 10 else f"{n}. "
        up = f" — {p['upvotes']}▲" if style == "hf" and p.get("upvotes") else ""
        head = f"## {num}{p['title']}{up}"
        if r.random() < 0.06:
            head += " ⚠ 待核实"
        src_day = self.when(0, 3).isoformat()
        if style == "hf":
            src = f"链接：https://huggingface.co/papers/{p['id']} （{self.day.isoformat()}）"
        elif style == "blog" and p.get("feed_url"):
            src = f"来源：{p['feed_url']} （{p['date'].isoformat()}）"
        else:
            src = f"来源：https://arxiv.org/abs/{p['id']} （{src_day}）"
        lines = [head, "", src, ""]
        method = p["method"]
        aid = p["id"]
        if aid and r.random() < 0.04:   # the wrong ID, as people write it
            aid = f"{int(aid[:4]) - 3:04d}{aid[4:]}" if "." in aid and aid[:4].isdigit() else aid
        lines.append(f"- arXiv:{aid}；{p['zh']}：{p['name']} {method}" if aid else f"- {p['zh']}：{p['name']} {method}")
        if p["kind"] == "inf":
            lines.append("- " + self.pick(ZH_RESULT).format(metric=p["metric"], x=p["x"] or 1.5, p=int(p["p"]),
                                                           hw=self.pick(HARDWARE), model=self.pick(MODELS),
                                                           base=self.pick(BASELINES)))
            lines.append("- " + self.pick(ZH_JUDGE_INF).format(sec=p["section"] or "§2.1", other=self.pick(NAME_A)))
        else:
            lines.append("- " + self.pick(ZH_JUDGE_OTHER).format(field=p["zh"]))
        if r.random() < 0.1:
            lines.append(f"- ⚠ 待核实：{self.pick(['原文没给 baseline 配置', '数字来自作者推特，论文里没有', 'TBD: 复现脚本还没公开'])}")
        if r.random() < 0.15:
            lines.append(f"- Quote: \"{p['abstract'].split('. ')[0]}.\"")
        return lines + [""]

    def notes(self) -> list[tuple[str, str]]:
        r = self.rnd
        out = []
        listing_inf = [p for p in self.listing if p["kind"] == "inf" and p["announce"] == "new"]
        listing_other = [p for p in self.listing if p["kind"] == "other" and p["announce"] == "new"]
        blog_posts = []
        for name, url, *_ in FEEDS[:self.n["feeds"]]:
            site = url.rsplit("/", 1)[0]
            for p in self.posts[name][:4]:
                fmt = {f[0]: f[4] for f in FEEDS}[name]
                link = (f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html" if fmt == "atom"
                        else f"{site}/{p['date'].isoformat()}-{p['slug_url']}/")
                blog_posts.append(dict(p, feed_url=link, id=(p["cites"][0]["id"] if p["cites"] else None)))
        authors = list(AUTHORS)
        for i in range(self.n["notes"]):
            author = authors[i % len(authors)]
            style = {"tom": "hf", "jay": self.pick(["blog", "arxiv"]), "spark": "arxiv", "lin": "blog", "mei": "arxiv"}[author]
            day = self.day if i < int(self.n["notes"] * 0.7) else self.day - timedelta(days=1)
            hh, mm = r.randint(7, 21), r.choice([0, 10, 20, 30, 45, 50])
            if style == "hf":
                pool = sorted(r.sample(self.hf, min(8, len(self.hf))), key=lambda p: -p["upvotes"])
            elif style == "blog":
                pool = r.sample(blog_posts, min(r.randint(4, 7), len(blog_posts)))
            else:
                pool = (r.sample(listing_inf, r.randint(2, 5)) + r.sample(listing_other, r.randint(1, 3))
                        + r.sample(self.anchors, 1))
                r.shuffle(pool)
            topic = pool[0]["slug"]
            slug = f"{author}-{style}-{topic}-{i:02d}"
            no_time = r.random() < 0.2
            fname = f"{day.isoformat()}-{slug}.md" if no_time else f"{day.isoformat()}T{hh:02d}{mm:02d}-{slug}.md"
            title_zh = {"hf": "HF Daily Papers", "blog": "工程 filter · 博客 / Substack", "arxiv": "arXiv 扫读"}[style]
            lines: list[str] = []
            if author != "spark":
                lines += ["---", f'title: "{author.title()} {title_zh}（{day.strftime("%b %-d")}）"']
                if author != "tom":
                    lines.append(f"credibility: {r.choice([3, 4, 4, 5])}")
                lines += [f"tags: [{', '.join(sorted({p['slug'] for p in pool}))}]", "---", ""]
            lines += [f"# {author.title()} · {title_zh} · {day.isoformat()} {hh:02d}:{mm:02d} CST", "",
                      self.pick(["今天的增量按相关度排，inference 主轴在前。", "早间例行扫一遍：inference 主要是确认性内容。",
                                 "Quick notes; 中英混写，数字以原文为准。", "晚间补充：几条和 §2.3 有关。"]), ""]
            if style == "arxiv" and r.random() < 0.25:   # a digest without ## headings: one entry per list item
                for p in pool:
                    lines.append(f"- **{p['name']}**：{p['zh']}，arXiv:{p['id']}")
                    lines.append(f"  来源：https://arxiv.org/abs/{p['id']} （{self.when(0, 2).isoformat()}）")
                    lines.append(f"  - {p['abstract'].split('. ')[0][:150]}")
                    lines.append(f"  - {self.pick(ZH_JUDGE_OTHER if p['kind'] == 'other' else ZH_JUDGE_INF).format(sec=p['section'] or '§2.1', other='RoofLang', field=p['zh'])}")
            else:
                numbering = "zh" if r.random() < 0.3 else "n"
                for k, p in enumerate(pool, 1):
                    lines += self._entry(k, p, style, numbering)
            out.append((f"inbox/{author}/{fname}", "\n".join(lines).rstrip() + "\n"))
        return out


def generate(ws: Path, seed: int, day: date, n: dict[str, int]) -> dict[str, int]:
    g = Day(seed, day, n)
    g.build()
    return g.write(ws)


# =========================================================================== the floor (child process)
FLOOR_TEMPLATE = """# floor · {{ day }}

{% for t in topics %}## {{ t.topic }} ({{ t.n }})
{% for s in t.rows %}- {{ s.key }} {{ s.title }} — {{ s.score }}
{% endfor %}
{% endfor %}
sources: {% for k, v in counts.items() %}{{ k }} {{ v }}{% if not loop.last %}, {% endif %}{% endfor %}
"""


def _trie_regex(words: list[str]) -> str:
    """One alternation of ``words`` factored by common prefixes; greedy, so the longest word wins."""
    import re
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = True

    def walk(node: dict) -> str:
        alts = [re.escape(ch) + walk(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body
    return walk(trie)


def child_floor(home: str, day: str) -> dict:
    """The day with no framework: stdlib parse + raw sqlite3 + one regex + one Jinja render."""
    t0 = time.perf_counter()
    import html
    import re
    import sqlite3
    import tomllib
    import xml.etree.ElementTree as ET

    import jinja2

    ws = Path(home)
    cfg = tomllib.loads((ws / "kb.toml").read_text(encoding="utf-8"))
    id_re = re.compile(r"\b(\d{4}\.\d{4,5})(?:v(\d+))?\b")
    url_re = re.compile(r"https?://[^\s)）<>\"]+")
    tag_re = re.compile(r"<[^>]+>")
    ws_re = re.compile(r"\s+")
    desc_re = re.compile(r"^\s*arXiv:(\S+)\s+Announce Type:\s*([\w-]+)\s*(?:Abstract:\s*(.*))?$", re.DOTALL)
    dc, arx, atom = "{http://purl.org/dc/elements/1.1/}", "{http://arxiv.org/schemas/atom}", "{http://www.w3.org/2005/Atom}"
    papers, sightings, posts, mentions = [], [], [], []
    # arXiv listing
    root = ET.fromstring((ws / cfg["arxiv"]["recording"].format(date=day)).read_bytes())
    for item in root.iter("item"):
        desc = item.findtext("description") or ""
        m = desc_re.match(desc)
        vid = (item.findtext("guid") or "").strip().removeprefix("oai:arXiv.org:")
        aid, _, ver = vid.rpartition("v")
        cats = [c.text for c in item.findall("category")]
        papers.append((aid, int(ver or 1), ws_re.sub(" ", item.findtext("title") or "").strip(),
                       ws_re.sub(" ", m[3] if m and m[3] else desc).strip(), item.findtext(dc + "creator"),
                       " ".join(cats), cats[0] if cats else None))
        sightings.append((aid, "arxiv", day, item.findtext(arx + "announce_type") or (m[2] if m else "new")))
    # HF
    for it in json.loads((ws / cfg["hf"]["recording"].format(date=day)).read_bytes()):
        p = it["paper"]
        papers.append((p["id"], 1, p["title"], p["summary"], ", ".join(a["name"] for a in p["authors"]), None, None))
        sightings.append((p["id"], "hf", day, "featured"))
    # feeds
    for b in cfg.get("blogs", []):
        root = ET.fromstring((ws / b["recording"]).read_bytes())
        if root.tag == atom + "feed":
            entries = [(e.findtext(atom + "title"), (e.find(atom + "link").get("href") if e.find(atom + "link") is not None else None),
                        e.findtext(atom + "published"), e.findtext(atom + "content") or e.findtext(atom + "summary") or "")
                       for e in root.iter(atom + "entry")]
        else:
            entries = [(i.findtext("title"), i.findtext("link"), i.findtext("pubDate"), i.findtext("description") or "")
                       for i in root.iter("item")]
        for title, link, published, body in entries:
            text = ws_re.sub(" ", html.unescape(tag_re.sub(" ", body))).strip()
            posts.append((f"{b['name']}:{link}", b["name"], title, link, published, text))
            mentions += [(m[1], "post", link) for m in id_re.finditer(text)]
    # workspace: notes (## entries or list items), cards, queue, knowledge doc
    notes, entries, cards, queue, anchors = [], [], [], [], []
    for path in sorted((ws / "inbox").rglob("*.md")):
        rel = path.relative_to(ws).as_posix()
        text = path.read_text(encoding="utf-8")
        body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
        notes.append((rel, path.parent.name, path.name[:15], text.count("\n")))
        parts = re.split(r"^## ", body, flags=re.MULTILINE)[1:] or re.split(r"^- ", body, flags=re.MULTILINE)[1:]
        for k, e in enumerate(parts, 1):
            head, _, rest = e.partition("\n")
            entries.append((rel, k, head.strip(), rest))
            mentions += [(m[1], "entry", f"{rel}#{k}") for m in id_re.finditer(e)]
            mentions += [(u, "entry-url", f"{rel}#{k}") for u in url_re.findall(e)]
    for path in sorted((ws / "organized/paper_cards").glob("*.md")):
        fm, _, body = path.read_text(encoding="utf-8").removeprefix("---\n").partition("\n---\n")
        kv = dict(line.split(":", 1) for line in fm.splitlines() if ":" in line)
        cards.append((path.name, kv.get("arxiv_id", "").strip(), kv.get("title", "").strip().strip('"'), body))
    for line in (ws / "organized/queue/work-queue.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^(\d+)\.\s+(\S+)\s+(.*)$", line):
            queue.append((int(m[1]), m[2], m[3]))
    section = None
    sec_re, date_re = re.compile(r"^#+\s+§(\S+)"), re.compile(r"[(（](?:anchored|锚定)\s+([\d-]+)[)）]")
    for n, line in enumerate((ws / "organized/knowledge/inference.md").read_text(encoding="utf-8").splitlines(), 1):
        if m := sec_re.match(line):
            section = m[1]
        elif line.startswith("- ") and section:
            d = date_re.search(line)
            for m in id_re.finditer(line):
                anchors.append((section, m[1], n, line, d[1] if d else None))
            for u in url_re.findall(line):
                anchors.append((section, u, n, line, d[1] if d else None))
    t_parse = time.perf_counter()
    # tagging: one precompiled alternation of every taxonomy term
    tax = tomllib.loads((ROOT / "data/taxonomy.toml").read_text(encoding="utf-8"))
    term_topic: dict[str, str] = {}
    for group in ("context", "adjacent", "off_domain"):
        for t in tax.get(group, {}).get("terms", {}):
            term_topic.setdefault(t.lower(), group)
    for slug, topic in tax["topics"].items():
        for t in list(topic.get("terms", {})) + list(topic.get("title_terms", {})):
            term_topic[t.lower()] = slug
    # Factored into a trie (one alternation, longest match first): the same matches as "|".join of the
    # terms, ~10x faster in re. Latin terms whole-word; Chinese terms anywhere (no word breaks in CJK).
    cjk = [t for t in term_topic if "\u2e80" <= t[0] <= "\u9fff"]
    latin = [t for t in term_topic if not "\u2e80" <= t[0] <= "\u9fff"]
    pattern = re.compile(r"\b(?:" + _trie_regex(latin) + r")\b" + ("|" + _trie_regex(cjk) if cjk else ""))
    subjects = ([("paper", p[0], p[2], p[3]) for p in papers] + [("post", p[0], p[2], p[5]) for p in posts]
                + [("entry", f"{e[0]}#{e[1]}", e[2], e[3]) for e in entries])
    tags = []
    for kind, key, title, text in subjects:
        counts: dict[str, int] = {}
        for m in pattern.findall(f"{title}\n{text}".lower()):
            counts[term_topic[m]] = counts.get(term_topic[m], 0) + 1
        tags += [(kind, key, t, c) for t, c in counts.items() if t not in ("context", "adjacent", "off_domain")]
    t_tag = time.perf_counter()
    # store: raw sqlite3, one transaction
    (ws / ".floor").mkdir(exist_ok=True)
    db = sqlite3.connect(ws / ".floor" / "floor.sqlite")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript("""
        CREATE TABLE papers(arxiv_id TEXT, version INT, title TEXT, abstract TEXT, authors TEXT, categories TEXT,
                            primary_category TEXT);
        CREATE TABLE sightings(arxiv_id TEXT, source TEXT, seen_on TEXT, kind TEXT);
        CREATE TABLE posts(key TEXT PRIMARY KEY, feed TEXT, title TEXT, url TEXT, published TEXT, summary TEXT);
        CREATE TABLE mentions(subject TEXT, origin_kind TEXT, origin TEXT);
        CREATE TABLE notes(path TEXT PRIMARY KEY, author TEXT, timestamp TEXT, lines INT);
        CREATE TABLE note_entries(path TEXT, number INT, heading TEXT, text TEXT);
        CREATE TABLE cards(path TEXT, arxiv_id TEXT, title TEXT, body TEXT);
        CREATE TABLE queue_items(rank INT, ref TEXT, rest TEXT);
        CREATE TABLE anchors(section TEXT, subject TEXT, line INT, label TEXT, anchored_on TEXT);
        CREATE TABLE tags(kind TEXT, key TEXT, topic TEXT, n INT);
    """)
    with db:
        for table, rows in (("papers", papers), ("sightings", sightings), ("posts", posts), ("mentions", mentions),
                            ("notes", notes), ("note_entries", entries), ("cards", cards), ("queue_items", queue),
                            ("anchors", anchors), ("tags", tags)):
            if rows:
                db.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
    db.close()
    t_store = time.perf_counter()
    # one render
    titles = {k: t for _, k, t, _ in subjects}
    by_topic: dict[str, list] = {}
    for _kind, key, topic, c in tags:
        by_topic.setdefault(topic, []).append({"key": key, "title": titles[key], "score": c})
    topics = [{"topic": t, "n": len(v), "rows": sorted(v, key=lambda s: (-s["score"], s["key"]))[:10]}
              for t, v in sorted(by_topic.items())]
    counts = {"papers": len(papers), "posts": len(posts), "entries": len(entries), "cards": len(cards),
              "queue": len(queue), "anchors": len(anchors), "tags": len(tags)}
    text = jinja2.Environment().from_string(FLOOR_TEMPLATE).render(day=day, topics=topics, counts=counts)
    (ws / ".floor" / f"{day}-floor.md").write_text(text, encoding="utf-8")
    t_end = time.perf_counter()
    return {"seconds": t_end - t0, "parse_s": t_parse - t0, "tag_s": t_tag - t_parse, "store_s": t_store - t_tag,
            "render_s": t_end - t_store, "counts": counts, "terms": len(term_topic)}


# =========================================================================== the parent
def _py() -> str:
    return str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable


def _kb() -> str:
    return str(Path(_py()).with_name("kb"))


def run_process(cmd: list[str], log: Path) -> dict:
    """Run ``cmd`` to completion; wall time, exit code and that child's own peak RSS (os.wait4)."""
    with log.open("wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=RUN_DIR)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": seconds, "rc": proc.returncode, "rss_mb": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime, "output": log.read_text(encoding="utf-8", errors="replace")}


def stage_times(home: Path) -> dict[str, float]:
    """Wall time of each nightly stage, from the timestamps of the run's own log (no profiler overhead)."""
    import re
    from datetime import datetime
    logs = sorted((home / ".kb" / "logs").glob("nightly-*.log"), key=lambda p: (p.stat().st_mtime, p.name))
    if not logs:
        return {}
    marks: list[tuple[datetime, str]] = []
    for line in logs[-1].read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO pipeline\.nightly: (?:stage: (.*)|kb nightly )", line)
        if m:
            if m[2] == "ingest sources":
                marks = []
            marks.append((datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S,%f"), m[2] or "end"))
    out = {name: (marks[i + 1][0] - t).total_seconds() for i, (t, name) in enumerate(marks[:-1])}
    if len(marks) > 1:
        out["stages"] = (marks[-1][0] - marks[0][0]).total_seconds()
    return out


def fresh_copy(template: Path, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(template, dest)
    return dest


def nightly_cmd(home: Path, day: str) -> list[str]:
    return [_kb(), "nightly", "--home", str(home), "--date", day, "--offline"]


def profile_run(home: Path, day: str, out: Path, top: int = 30, src: str | None = None) -> str:
    """cProfile one ``kb nightly`` process; the top functions by cumulative and by own time."""
    import io
    import pstats
    cmd = [_py(), "-m", "cProfile", "-o", str(out), "-m", "kb.cli", "nightly", "--home", str(home),
           "--date", day, "--offline", "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=False, cwd=RUN_DIR, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        return f"(profiled run failed, exit {proc.returncode}: {proc.stderr[-2000:]})"
    texts = []
    for key, restrict, what in (("cumulative", r"/(?:kb|pipeline)/", ("kb's own functions (kb/, pipeline/; "
                                 "the typer/click/runpy frames above them skipped)")), ("tottime", None, "all")):
        buf = io.StringIO()
        stats = pstats.Stats(str(out), stream=buf).sort_stats(key)
        stats.print_stats(*([restrict, top] if restrict else [top]))
        body = buf.getvalue()
        body = body[body.find("   ncalls"):] if "   ncalls" in body else body
        site = next((p for p in sys.path if p.endswith("site-packages")), None)
        venv_site = str(next((ROOT / ".venv" / "lib").glob("python*/site-packages"), ROOT))
        for prefix, short in ((venv_site + "/", "site:"), (str(src or ROOT) + "/", ""), (str(ROOT) + "/", ""),
                              (os.path.dirname(os.__file__) + "/", "stdlib:"), (site or "\0", "site:")):
            body = body.replace(prefix, short)
        texts.append(f"-- top {top} by {key}, {what} (profiled wall {wall:.2f} s) --\n{body.rstrip()}")
    return "\n".join(texts)


def import_times(home: Path, day: str) -> dict:
    """Seconds a ``kb nightly`` process spends in imports (sum of top-level -X importtime entries) and the heaviest."""
    proc = subprocess.run([_py(), "-X", "importtime", "-m", "kb.cli", "nightly", "--home", str(home), "--date", day,
                           "--offline", "--quiet"], check=False, cwd=RUN_DIR, capture_output=True, text=True)
    top: dict[str, float] = {}
    total = 0.0
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cum, name = line.split("|", 2)
        if not cum.strip().isdigit():
            continue
        seconds = int(cum) / 1e6
        if not name.startswith("  "):          # a top-level import: its cumulative time counts once
            total += seconds
        pkg = name.strip().split(".")[0]
        if pkg not in ("kb", "pipeline"):      # third-party and stdlib packages, where kb's own import time goes
            top[pkg] = max(top.get(pkg, 0.0), seconds)
    return {"total": total, "top": sorted(top.items(), key=lambda kv: -kv[1])[:6]}


def provenance() -> tuple[str, str]:
    """Which kb is under test: the package the venv imports (PYTHONPATH may point elsewhere) and its git state."""
    proc = subprocess.run([_py(), "-c", ("import kb, os; print(os.path.dirname(os.path.dirname(kb.__file__)), "
                           "kb.__version__)")], check=False, capture_output=True, text=True, cwd=RUN_DIR)
    where = proc.stdout.strip() or f"? ({proc.stderr.strip()[-200:]})"
    src = where.split(" ")[0]
    rev = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"],
                           check=False, capture_output=True, text=True)
    state = (f"git {rev.stdout.strip()}, {len(dirty.stdout.splitlines())} tracked files modified"
             if rev.returncode == 0 else "not a git checkout")
    return src, f"{where} ({state})"


def median(xs: list[float]) -> float:
    return statistics.median(xs)


SCALE_TIME, SCALE_RSS = 1.5, 2.0   # the night on a backfilled store vs on an empty one: time and peak RSS


def backfilled_copy(template: Path, dest: Path, n: int, seed: int, day: str) -> dict:
    """A copy of the day's workspace whose store already holds ``n`` backfilled papers, each classified:
    ``kb ingest arxiv-bulk`` of a Kaggle JSON-lines file, then ``kb classify`` (the README's backfill)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("kb_bench_ingest", Path(__file__).with_name("ingest.py"))
    ingest_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ingest_bench)
    home = fresh_copy(template, dest)
    data = dest.parent / f"backfill-{n}.jsonl"
    ingest_bench.write_kaggle(data, n, seed + 1000)
    t0 = time.perf_counter()
    for cmd in (["ingest", "arxiv-bulk", str(data)], ["classify"]):
        proc = subprocess.run([_kb(), "--home", str(home), "--quiet", *cmd], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"kb {' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    data.unlink()
    store_mb = sum(p.stat().st_size for p in (home / ".kb").glob("kb.sqlite*")) / 1e6
    return {"home": home, "seconds": time.perf_counter() - t0, "store_mb": store_mb}


def scale_mode(template: Path, tmp: Path, args: argparse.Namespace) -> int:
    """The same heavy night on an empty store and on a store of ``args.scale`` backfilled papers."""
    print(f"building a store of {args.scale:,} backfilled papers (kb ingest arxiv-bulk, kb classify) …", flush=True)
    big = backfilled_copy(template, tmp / "backfilled", args.scale, args.seed, args.date)
    print(f"  built in {big['seconds']:.0f} s, store {big['store_mb']:.0f} MB")
    empty_runs, big_runs = [], []
    for i in range(args.runs):
        for label, src, runs in (("empty", template, empty_runs), ("backfilled", big["home"], big_runs)):
            home = fresh_copy(src, tmp / f"{label}_{i}")
            r = run_process(nightly_cmd(home, args.date), tmp / f"{label}_{i}.log")
            if r["rc"] not in (0, 1):
                raise SystemExit(f"kb nightly failed on the {label} store (exit {r['rc']}):\n{r['output'][-3000:]}")
            r["stages"] = stage_times(home)
            runs.append(r)
            shutil.rmtree(home)
        print(f"  run {i + 1}: empty store {empty_runs[-1]['seconds']:.2f} s ({empty_runs[-1]['rss_mb']:.0f} MB), "
              f"{args.scale:,} papers {big_runs[-1]['seconds']:.2f} s ({big_runs[-1]['rss_mb']:.0f} MB)", flush=True)
    t_empty, t_big = median([r["seconds"] for r in empty_runs]), median([r["seconds"] for r in big_runs])
    m_empty, m_big = max(r["rss_mb"] for r in empty_runs), max(r["rss_mb"] for r in big_runs)
    print()
    print(f"night on an empty store              median {t_empty:7.2f} s  peak RSS {m_empty:5.0f} MB")
    print(f"night on a store of {args.scale:>9,} papers  median {t_big:7.2f} s  peak RSS {m_big:5.0f} MB")
    print(f"time ratio backfilled / empty        {t_big / t_empty:7.2f}    (target <= {SCALE_TIME:g})"
          f"  {'OK' if t_big / t_empty <= SCALE_TIME else 'MISSED'}")
    print(f"peak RSS ratio backfilled / empty    {m_big / m_empty:7.2f}    (target <= {SCALE_RSS:g})"
          f"  {'OK' if m_big / m_empty <= SCALE_RSS else 'MISSED'}")
    names = [n for n in empty_runs[0]["stages"] if n != "stages"]
    if names:
        print("(info) wall time per stage (median s):            empty   backfilled")
        for n in names:
            a = median([r["stages"].get(n, 0.0) for r in empty_runs])
            b = median([r["stages"].get(n, 0.0) for r in big_runs])
            print(f"         {n:<40} {a:7.2f}  {b:7.2f}")
    print(json.dumps({"name": "nightly_scale", "value": round(t_big, 3), "unit": "s", "floor": round(t_empty, 3),
                      "ratio": round(t_big / t_empty, 3)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each kind (median; default 3)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--date", default="2026-10-08", help="the day (a weekday; default 2026-10-08)")
    for name, default in (("arxiv", 2000), ("hf", 50), ("feeds", 20), ("items", 20), ("notes", 30),
                          ("anchors", 500), ("cards", 60), ("queue", 30)):
        ap.add_argument(f"--{name}", type=int, default=default, help=f"default {default}")
    ap.add_argument("--profile", action="store_true", help="always cProfile a first and a second kb run")
    ap.add_argument("--no-profile", action="store_true", help="never profile, even when a target is missed")
    ap.add_argument("--keep", help="keep the generated workspace here (a directory that does not exist yet)")
    ap.add_argument("--scale", type=int, metavar="N", help="scale mode: the same night on an empty store and on a "
                    "store holding N backfilled papers (kb ingest arxiv-bulk, then kb classify); e.g. 200000")
    ap.add_argument("--child", choices=("floor",), help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child == "floor":
        print(json.dumps(child_floor(args.home, args.date)))
        return 0

    day = date.fromisoformat(args.date)
    if args.feeds > len(FEEDS):
        ap.error(f"--feeds at most {len(FEEDS)}")
    sizes = {k: getattr(args, k) for k in ("arxiv", "hf", "feeds", "items", "notes", "anchors", "cards", "queue")}
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-nightly-"))
    try:
        print(cache_bytecode())
        template = Path(args.keep) if args.keep else tmp / "template"
        t0 = time.perf_counter()
        made = generate(template, args.seed, day, sizes)
        size_mb = sum(p.stat().st_size for p in template.rglob("*") if p.is_file()) / 1e6
        print(f"generated {template} in {time.perf_counter() - t0:.1f} s ({size_mb:.1f} MB, seed {args.seed}, "
              f"day {args.date}): listing {made['listing']} items, HF {made['hf']}, {sizes['feeds']} feeds × "
              f"{sizes['items']} = {made['posts']} posts, {made['notes']} notes, {made['anchors']} anchors, "
              f"{made['cards']} cards, queue {made['queue']}")

        kb_src, where = provenance()
        print(f"kb under test: {where}")
        if args.scale:
            return scale_mode(template, tmp, args)
        imports: dict = {}

        firsts, seconds, floors, first_out, second_out = [], [], [], "", ""
        for i in range(args.runs):
            fl_home = fresh_copy(template, tmp / f"floor_{i}")
            fl = run_process([_py(), str(Path(__file__).resolve()), "--child", "floor", "--home", str(fl_home),
                              "--date", args.date], tmp / f"floor_{i}.log")
            if fl["rc"] != 0:
                raise SystemExit(f"floor failed:\n{fl['output'][-3000:]}")
            fl["inner"] = json.loads(fl["output"].strip().splitlines()[-1])
            floors.append(fl)
            shutil.rmtree(fl_home)

            home = fresh_copy(template, tmp / f"kb_{i}")
            first = run_process(nightly_cmd(home, args.date), tmp / f"kb_first_{i}.log")
            first["stages"] = stage_times(home)
            time.sleep(1.1)   # one log file per run: its name has a one-second resolution
            second = run_process(nightly_cmd(home, args.date), tmp / f"kb_second_{i}.log")
            second["stages"] = stage_times(home)
            for r in (first, second):
                if r["rc"] not in (0, 1):
                    raise SystemExit(f"kb nightly failed (exit {r['rc']}):\n{r['output'][-3000:]}")
            store_mb = sum(p.stat().st_size for p in (home / ".kb").glob("kb.sqlite*")) / 1e6
            firsts.append(first | {"store_mb": store_mb})
            seconds.append(second)
            first_out, second_out = first["output"], second["output"]
            print(f"  run {i + 1}: kb first {first['seconds']:.2f} s (exit {first['rc']}, {first['rss_mb']:.0f} MB), "
                  f"second {second['seconds']:.2f} s (exit {second['rc']}, {second['rss_mb']:.0f} MB), "
                  f"floor {fl['seconds']:.2f} s (in-process {fl['inner']['seconds']:.2f} s)", flush=True)
            if i == 0:   # kb's fixed cost: what a nightly process spends importing (one more rerun, -X importtime)
                imports = import_times(home, args.date)
            shutil.rmtree(home)

        kb_first = median([r["seconds"] for r in firsts])
        kb_second = median([r["seconds"] for r in seconds])
        floor = median([r["seconds"] for r in floors])
        inner = median([r["inner"]["seconds"] for r in floors])
        ratio, speedup = kb_first / floor, kb_first / kb_second
        fi = min(floors, key=lambda r: abs(r["seconds"] - floor))["inner"]
        print()
        print("kb first run, summary:\n  " + first_out.strip().replace("\n", "\n  "))
        print("kb second run, summary:\n  " + second_out.strip().replace("\n", "\n  "))
        print()
        print(f"kb nightly, first run (fresh copy)  median {kb_first:7.2f} s  of {[round(r['seconds'], 2) for r in firsts]}"
              f"  cpu {median([r['cpu_s'] for r in firsts]):.2f} s  store {firsts[-1]['store_mb']:.0f} MB")
        print(f"floor, whole process                 median {floor:7.2f} s  of {[round(r['seconds'], 2) for r in floors]}"
              f"  (in-process {inner:.2f} s = parse {fi['parse_s']:.2f} + tag {fi['tag_s']:.2f} + "
              f"sqlite {fi['store_s']:.2f} + render {fi['render_s']:.2f}; {fi['terms']} terms; "
              f"{fi['counts']['papers']} papers, {fi['counts']['posts']} posts, {fi['counts']['entries']} entries, "
              f"{fi['counts']['anchors']} anchors, {fi['counts']['tags']} tags)")
        print(f"ratio kb / floor                     {ratio:7.2f}    (lower is better; target <= {TARGET_RATIO:g})"
              f"  {'OK' if ratio <= TARGET_RATIO else 'MISSED'}")
        cpu_ratio = median([r["cpu_s"] for r in firsts]) / median([r["cpu_s"] for r in floors])
        print(f"(info) same ratio on CPU time (user+sys of each process; robust to a busy machine) {cpu_ratio:.2f}")
        print(f"kb nightly, second run (no new input) median {kb_second:6.2f} s  of "
              f"{[round(r['seconds'], 2) for r in seconds]}  cpu {median([r['cpu_s'] for r in seconds]):.2f} s")
        print(f"speed-up first / second              {speedup:7.2f}x   (target >= {TARGET_SPEEDUP:g}x)"
              f"  {'OK' if speedup >= TARGET_SPEEDUP else 'MISSED'}")
        print(f"peak RSS kb (first run)              {max(r['rss_mb'] for r in firsts):7.0f} MB  "
              f"(second run {max(r['rss_mb'] for r in seconds):.0f} MB; floor {max(r['rss_mb'] for r in floors):.0f} MB)")
        if imports:
            print(f"(info) imports of a nightly process (-X importtime, a rerun): {imports['total']:.2f} s; "
                  "heaviest: " + ", ".join(f"{n} {t:.2f}" for n, t in imports["top"]))
        names = [n for n in firsts[0]["stages"] if n != "stages"]
        if names:
            print("(info) kb wall time per stage, from its log (median s):   first   second")
            for n in names + ["stages"]:
                a = median([r["stages"].get(n, 0.0) for r in firsts])
                b = median([r["stages"].get(n, 0.0) for r in seconds])
                print(f"         {n if n != 'stages' else 'all stages':<40} {a:7.2f}  {b:7.2f}")
            a = median([r["seconds"] - r["stages"].get("stages", 0.0) for r in firsts])
            b = median([r["seconds"] - r["stages"].get("stages", 0.0) for r in seconds])
            print(f"         {'outside the stages (start, store, exit)':<40} {a:7.2f}  {b:7.2f}")

        missed = ratio > TARGET_RATIO or speedup < TARGET_SPEEDUP
        if args.profile or (missed and not args.no_profile):
            print()
            print("profiling kb nightly under cProfile (a fresh copy: first run, then the second run on it)")
            home = fresh_copy(template, tmp / "kb_profile")
            print("== first run ==")
            print(profile_run(home, args.date, tmp / "first.prof", src=kb_src))
            print("== second run ==")
            print(profile_run(home, args.date, tmp / "second.prof", src=kb_src))
            if args.keep:
                for name in ("first.prof", "second.prof"):
                    shutil.copy(tmp / name, Path(args.keep).with_name(f"{Path(args.keep).name}.{name}"))
                print(f"profiles kept next to {args.keep} (*.first.prof, *.second.prof)")

        print(json.dumps({"name": "nightly_first_run", "value": round(kb_first, 3), "unit": "s",
                          "floor": round(floor, 3), "ratio": round(ratio, 3)}))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
