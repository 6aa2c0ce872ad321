"""Throughput of kb's classifier against the floor: one alternation regex of all terms.

    .venv/bin/python bench/classify.py [--n 20000] [--seed 7]

Generates N title+abstract texts from templates that mix inference vocabulary with
vocabulary from other fields (training, agents, vision, databases), a share of them in
Chinese, then times, in the same run and on the same texts:

* kb: ``classify(text, title=…)`` — full classification (matching, scoring, relevance);
* floor: one precompiled alternation regex of every taxonomy term (longest first) run
  with ``findall`` over the lowered title and text — matching only, no scoring.

Prints docs/s for both, the ratio kb ÷ floor (higher is better) and, last, one JSON line
``{"name", "value", "unit", "floor", "ratio"}``. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.classify.classifier import classify  # noqa: E402
from pipeline.classify.taxonomy import load_taxonomy  # noqa: E402

SYSTEMS = ["vLLM", "SGLang", "TensorRT-LLM", "our engine", "a production serving stack", "llm-d",
           "Dynamo", "LMDeploy", "a Kubernetes-based platform"]
METHODS = ["PagedAttention", "continuous batching", "chunked prefill", "speculative decoding with EAGLE-3",
           "Medusa heads", "AWQ 4-bit weights", "GPTQ", "SmoothQuant W8A8", "FP8 KV cache",
           "prefix caching", "RadixAttention", "prefill-decode disaggregation", "expert parallelism",
           "tensor parallelism", "ring attention", "FlashAttention-3 kernels", "NIXL KV transfer",
           "Mooncake transfer engine", "cache-aware routing", "structured pruning", "token merging"]
METRICS = ["TTFT", "TPOT", "p99 latency", "goodput", "throughput", "tokens per second", "SLO attainment",
           "GPU memory", "cost per million tokens"]
HARDWARE = ["H100", "A100", "MI300X", "TPU v5e", "Ascend 910B", "a laptop GPU", "a smartphone NPU"]
OTHER_FIELD = [
    "We fine-tune the model with reinforcement learning from human feedback on a curated dataset.",
    "An agent plans tool calls and retrieves documents from a vector database with pgvector.",
    "Our retrieval-augmented generation pipeline improves answer faithfulness on QA benchmarks.",
    "The diffusion model generates high-resolution images with fewer denoising steps.",
    "We pretrain on 2 trillion tokens and report downstream accuracy on reasoning benchmarks.",
    "The convolutional network detects objects in aerial imagery with improved recall.",
    "A graph neural network predicts molecular properties for drug discovery.",
    "The database engine reduces write amplification in LSM-tree key-value stores.",
    "Participants in our user study preferred the redesigned interface.",
    "We prove a new lower bound for the sample complexity of bandit algorithms.",
]
FILLER = [
    "Extensive experiments on several models demonstrate the effectiveness of the approach.",
    "We release our code and models to facilitate future research.",
    "Our analysis reveals the limitations of existing methods under realistic workloads.",
    "The method is simple to implement and requires no changes to the model architecture.",
    "Results are consistent across model families from 7B to 70B parameters.",
]
ZH = [
    "- {system} 上开启 {method}，{metric} 降低约 {n}%\n- 在 {hw} 上测试，显存占用下降，吞吐提升\n- 结论：大模型推理线上默认开启，注意与量化方案的兼容",
    "- 本周主要工作是训练数据清洗和强化学习奖励设计\n- 智能体调用工具的成功率提升 {n}%\n- 检索增强的召回率还需要优化",
    "- PD 分离部署：prefill 节点和 decode 节点分开，KV 传输走 RDMA\n- {metric} 改善明显，{hw} 集群\n- 下一步评估 {method}",
    "- 视频生成模型新版本发布，画质提升\n- 训练用了 {n} 万段视频\n- 与推理无关，仅作记录",
]
TITLES = ["{method} for Efficient LLM Serving", "Rethinking {metric} in {system}",
          "Scaling {method} on {hw}", "Towards Better Reasoning with Agents",
          "A Study of {method} Under Realistic Load", "Learning Representations for Vision Tasks",
          "{system} 推理优化笔记", "Benchmarking {system} on {hw}"]


def make_texts(n: int, seed: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        f = dict(system=rnd.choice(SYSTEMS), method=rnd.choice(METHODS), metric=rnd.choice(METRICS),
                 hw=rnd.choice(HARDWARE), n=rnd.randint(5, 80))
        title = rnd.choice(TITLES).format(**f)
        if rnd.random() < 0.15:
            text = rnd.choice(ZH).format(**f)
        else:
            parts = []
            if rnd.random() < 0.6:
                parts.append(f"Serving large language models with {f['system']} is limited by {f['metric']}.")
                parts.append(f"We propose an approach based on {rnd.choice(METHODS)} and {f['method']} "
                             f"that improves {rnd.choice(METRICS)} by {f['n']}% on {f['hw']}.")
            parts += rnd.sample(OTHER_FIELD, rnd.randint(1, 3))
            parts += rnd.sample(FILLER, rnd.randint(2, 4))
            rnd.shuffle(parts)
            text = " ".join(parts)
        out.append((title, text))
    return out


def floor_regex(taxonomy) -> re.Pattern[str]:
    terms = set(taxonomy.context) | set(taxonomy.adjacent) | set(taxonomy.off_domain)
    for d in taxonomy.group_negative.values():
        terms |= set(d)
    for t in taxonomy.topics.values():
        terms |= set(t.terms) | set(t.negative)
    alternation = "|".join(re.escape(t) for t in sorted(terms, key=lambda t: (-len(t), t)))
    return re.compile(alternation)


def run(n: int, seed: int) -> dict:
    taxonomy = load_taxonomy()
    texts = make_texts(n, seed)
    classify("warm-up", title="warm-up", taxonomy=taxonomy)     # compile the index outside the clock
    pattern = floor_regex(taxonomy)

    t0 = time.perf_counter()
    for title, text in texts:
        classify(text, title=title, taxonomy=taxonomy)
    kb_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    findall = pattern.findall
    for title, text in texts:
        findall(title.lower())
        findall(text.lower())
    floor_s = time.perf_counter() - t0

    kb_rate, floor_rate = n / kb_s, n / floor_s
    return {"n": n, "kb": kb_rate, "floor": floor_rate, "ratio": kb_rate / floor_rate,
            "terms": len(pattern.pattern.split("|"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20_000, help="number of texts (default 20000)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    r = run(args.n, args.seed)
    print(f"texts: {r['n']}  taxonomy terms: {r['terms']}")
    print(f"kb classify:            {r['kb']:10.0f} docs/s")
    print(f"floor (one regex):      {r['floor']:10.0f} docs/s")
    print(f"ratio kb / floor:       {r['ratio']:10.2f}x  (higher is better)")
    print(json.dumps({"name": "classify_throughput", "value": round(r["kb"], 1), "unit": "docs/s",
                      "floor": round(r["floor"], 1), "ratio": round(r["ratio"], 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
