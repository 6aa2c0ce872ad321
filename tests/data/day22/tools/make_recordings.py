"""Writes the day-22 recordings: the arXiv listing of Fri 6 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 22; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 21). No blog posts on Friday: this file does not touch
the blogs. Friday's listing announces what was submitted on Thursday (announced Thursday 20:00 EST, i.e.
Friday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers
(it writes no other month); no rule reads them.

One thing is new on this day: second versions of three papers the doc anchored weeks ago, as "replace" entries of
the listing, each with a new abstract:
- LayerLink (2610.13052, §2.4.1): v2 re-measured; its abstract now says p99 TTFT −29% (the doc's line and card 393
  say −34%);
- TierKV (2610.11305, §2.1): v2 adds the DRAM-constrained setting; its abstract now says 2.6x (the doc's line and
  card 382 say 3.1×);
- HydraRoute (2610.12077, §2.3): v2 only adds an ablation; its figure (p99 TTFT −35% at 512 replicas) is the doc's.
Their titles are the ones the team's cards give; their authors are not known to this file (the v1 listings were not
read), so the v2 entries carry invented ones.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 21's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day22)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "就是 §2.5 HuffKV 的复刻"); HF upvotes 19 (Tom 09:40) / 13 (Jay 13:30) / 22 (card) / 24
    ("2611.05388", 1, "new", ["cs.LG", "cs.DC"],
     "TerseKV: Lossless Entropy Coding of KV Cache Blocks with Asymmetric Numeral Systems",
     "The KV cache dominates GPU memory in long-context serving, and lossy compression changes the model's outputs. "
     "TerseKV codes the KV cache blocks losslessly on the GPU with asymmetric numeral systems, one frequency table "
     "per layer, and decodes them inside the attention kernel, so the outputs stay bit-identical. TerseKV stores the "
     "KV cache in 1.6x less GPU memory.",
     ["Maren Ekdahl", "Tomasz Zielinski", "Guo Lan"]),
    # boundary case (Spark: "和 §2.3 的 SkewTP 大同小异" — SkewTP is §2.1's); a ⚠ on the B200 claim
    ("2611.05826", 1, "new", ["cs.DC"],
     "TiltTP: Re-Partitioning Tensor-Parallel Decode Ahead of Forecast GPU Throttling",
     "When one GPU of a tensor-parallel group throttles, the whole group decodes at its speed. TiltTP forecasts each "
     "GPU's throttling from its temperature and power readings and re-partitions the attention heads and FFN columns "
     "of the group by each GPU's expected speed before the throttling begins, leaving running requests in place. "
     "TiltTP lowers the p99 time per output token by 17% under a hot-aisle power cap.",
     ["Signe Aalto", "Rafael Quintero", "Bao Yu"]),
    # boundary case (Ines: "a carbon copy of CarbonTag in §10"; "a follow-up of 2610.2514", a digit dropped)
    ("2611.06047", 1, "new", ["cs.DC", "cs.PF"],
     "GreenBill: Per-Request Carbon Accounting for Shared LLM Inference Clusters",
     "Operators of shared inference clusters cannot tell a customer how much carbon each request emitted. GreenBill "
     "meters the energy of every GPU, splits the energy of each batch among its requests by the tokens they processed "
     "and the KV memory they held, and multiplies it by the grid's hourly carbon intensity. GreenBill's per-request "
     "estimates stay within 4% of a metered ground truth.",
     ["Henna Lahti", "Oskar Brandt", "Yan Rou"]),
    # boundary decoy (Omer likened it to PaceSpec in the morning; Tom's card sets it apart in the afternoon)
    ("2611.05519", 1, "new", ["cs.CL", "cs.LG"],
     "BroadSpec: Choosing the Width of Each Request's Draft Token Tree from Its Acceptance History",
     "Speculative decoding with token trees fixes the width of the tree for every request. BroadSpec chooses, at every "
     "step, how many candidate branches each request's draft tree keeps at each depth from the request's own history "
     "of accepted branches, without training. BroadSpec raises decode throughput by 1.3x over a fixed-width tree on "
     "a chat trace.",
     ["Clara Benedetti", "Jonas Aho", "Wu Meng"]),
    # boundary decoy (Jay: "和 §2.5 的 ValueBook 井水不犯河水", written with ValueBook's ID slipped to 2611.02280);
    # its card is named 473-2611-05973.md with arxiv_id 2611.05937
    ("2611.05937", 1, "new", ["cs.LG", "cs.CL"],
     "KeyBook: Codebook Quantization of the Key Cache for Long-Context Decoding",
     "Long-context decoding reads every cached key at every step. KeyBook replaces each key vector by the index of its "
     "nearest entry in a small codebook learned per attention head, and computes attention scores against the "
     "codebook inside the attention kernel; the values are left as they are. KeyBook shrinks the key cache by 3.4x "
     "with under 0.5 points of accuracy loss on long-context benchmarks.",
     ["Ragnar Holt", "Lucia Ferrante", "Qian Hui"]),
    # keyword trap (not LLM inference): lossless entropy coding of a storage engine's key-value pages
    ("2611.06210", 1, "cross", ["cs.DB", "cs.DC"],
     "Lossless Entropy Coding of Key-Value Pages in a Log-Structured Storage Engine",
     "Log-structured key-value storage engines compress their pages with general-purpose codecs that must be decoded "
     "in full before a lookup. We code each key-value page losslessly with asymmetric numeral systems and a frequency "
     "table per level, and decode only the entries a lookup touches, inside the read path. On production traces the "
     "design stores 1.8x less data at an unchanged p99 read latency.",
     ["Ines Marquardt", "Pavel Sokolov"]),
    # second versions of papers anchored weeks ago (replace entries)
    ("2610.13052", 2, "replace", ["cs.DC", "cs.NI"],
     "LayerLink: Layer-Pipelined KV Cache Transfer for Disaggregated LLM Serving over RDMA",
     "In disaggregated serving the decode instance waits until the whole KV cache of a prompt has been transferred. "
     "LayerLink sends each layer's KV cache with an RDMA write as soon as the prefill instance has computed it, and "
     "the decode instance starts generating once the first layers have arrived. This version re-runs every "
     "experiment on 400G NICs with a corrected baseline. For 32K-token prompts on 8 H200 GPUs, LayerLink reduces "
     "p99 TTFT by 29%.",
     ["Anneli Strand", "Mohan Krishnan", "Deng Xiu"]),
    ("2610.11305", 2, "replace", ["cs.DC", "cs.LG"],
     "TierKV: Tiered KV Cache Offloading across HBM, CPU Memory and SSD for Multi-Turn LLM Serving",
     "Multi-turn serving evicts the KV cache of idle conversations and recomputes it when they return. TierKV keeps "
     "the KV cache in three tiers, HBM, CPU DRAM and NVMe SSD, and prefetches a conversation's blocks tier by tier "
     "by the probability that it returns. This version adds a setting with less CPU memory per GPU. At the same TTFT "
     "SLO, TierKV raises multi-turn throughput by 2.6x over an HBM-only baseline.",
     ["Karolina Wiik", "Andrei Moldovan", "Fang Shu"]),
    ("2610.12077", 2, "replace", ["cs.DC"],
     "HydraRoute: Prefix-Affinity Request Routing with Load-Aware Spillover for LLM Serving Fleets",
     "Routing requests to the replica that holds their prefix overloads the replicas of popular prefixes. HydraRoute "
     "routes by prefix affinity and spills requests over to less loaded replicas when a queue passes a threshold. "
     "This version adds an ablation of the spillover threshold. HydraRoute lowers p99 TTFT by 35% at 512 replicas.",
     ["Mirela Dobre", "Ethan Cole", "Lu Wen"]),
]

# IDs the team writes wrongly — ValueBook as 2611.02280 (Jay), EtherKV as 2612.01288 and GraphStash with GraphHold's
# 2611.01963 (Tom's recap), KeyBook's card named 2611.05973, "1312.43140" and "2610.2514" — none in any recording;
# the fillers' range is 2610.42000-43450 (day 21's was 40450-41900).
RESERVED = {p[0] for p in PLANTED} | {"2611.02280", "2612.01288", "2611.05973"}
RESERVED_PREFIXES = ("2610.2514",)

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.05388", 24, "2026-11-06T00:31:07.224Z",
     "TerseKV codes KV cache blocks losslessly with asymmetric numeral systems and decodes them inside attention.",
     ["KV cache", "lossless compression", "entropy coding"], "https://github.com/tersekv/tersekv"),
    ("2611.05826", 9, "2026-11-06T00:47:52.913Z",
     "TiltTP forecasts GPU throttling and re-partitions a tensor-parallel group's work before it begins.",
     ["tensor parallelism", "throttling", "decode"], None),
    ("2611.06047", 7, "2026-11-06T01:02:36.480Z",
     "GreenBill splits each batch's metered GPU energy among its requests and converts it to carbon emissions.",
     ["carbon accounting", "energy", "LLM serving"], None),
    ("2611.05519", 6, "2026-11-06T01:14:21.065Z",
     "BroadSpec chooses the width of each request's draft token tree from its history of accepted branches.",
     ["speculative decoding", "token trees", "adaptive"], None),
    ("2611.05937", 5, "2026-11-06T01:26:44.731Z",
     "KeyBook replaces cached keys with codebook indices learned per attention head; values are untouched.",
     ["KV cache", "codebook quantization", "long context"], None),
    ("2611.06210", 2, "2026-11-06T03:20:18.302Z",
     "Key-value pages of a log-structured storage engine are entropy-coded losslessly and decoded per lookup.",
     ["key-value stores", "compression", "storage engines"], None),
]

DAY = Day(number=22, date="2026-11-06", pub="Fri, 06 Nov 2026 00:00:00 -0500",
          last_build="Fri, 06 Nov 2026 05:00:41 +0000", seed=20261106,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Lossless", "ValueBook", "GraphStash", "GraphHold",
                                                                  "EtherKV", "CarbonTag", "PaceSpec", "HuffKV",
                                                                  "SkewTP", "Lathe", "Tessera"},
          ids=(42000, 43450), hf=HF, hf_published=("2026-11-05T00:00:00.000Z", "2026-11-05T20:00:00.000Z"),
          prefixes=("Denali", "Elbrus", "Matterhorn", "Rainier", "Whitney", "Shasta", "Aconcagua", "Kosciuszko",
                    "Vinson", "Cotopaxi"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
