"""Writes the day-18 recordings: the arXiv listing of Mon 2 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 18; this file is the day's data. Run from tests/data/day18: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 17). No blog posted in the window: the blog recordings
of day 16 (and earlier) stay as they are, and this file does not touch them. Monday's listing is the first of
November: it announces what was submitted on Thursday afternoon and Friday (announced Sunday 20:00 EST, after the
end of US daylight saving time, i.e. Monday 09:00 CST), and arXiv numbers the new papers 2611.xxxxx. The fillers keep
the shared generator's 2610 numbers (it writes no other month); no rule reads them. The HF daily of Monday features
the planted papers.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # tests/data/day18
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_day  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary cases: NET-new papers that do what a paper anchored in their suggested section does
    ("2611.00496", 1, "new", ["cs.LG", "cs.CL"],
     "DittoKV: Collapsing Near-Duplicate Token Entries of the KV Cache within a Request",
     "Long inputs repeat many tokens whose keys are nearly identical, and each of them keeps its own KV entry. "
     "DittoKV collapses adjacent tokens whose keys lie within a cosine threshold into a single KV entry with a multiplicity, reweights attention by the multiplicities, and applies the same merge to the tokens it generates during decode. "
     "DittoKV reduces KV memory by 1.9x on long-document question answering with under one point of accuracy loss.",
     ["Leonie Brandt", "Yusuf Demir", "Zhao Qing"]),
    ("2611.00857", 1, "new", ["cs.DC", "cs.LG"],
     "ReadyPool: Weight-Resident Standby Instances for Sub-Second Decode Scale-Out",
     "Scaling out decode capacity during a traffic burst is slow because a new instance must load the model weights before it serves. "
     "ReadyPool keeps a pool of standby instances with the weights already in GPU memory and no KV cache reserved, sizes the pool from a short-term traffic forecast, and converts a standby instance into a decode instance when a burst begins. "
     "ReadyPool brings a 70B decode instance online in 0.7 s instead of 41 s and cuts p99 TTFT during bursts by 44%.",
     ["Henrik Aalto", "Chidera Obi", "Wang Rui", "Lucia Ferri"]),
    ("2611.01208", 1, "new", ["cs.DC", "cs.OS"],
     "BaySwap: SLA-Tiered Preemptive Model Swapping for Multi-Model Serving on Shared GPUs",
     "Multi-model serving platforms share GPUs among many fine-tuned models that are used too rarely to stay resident. "
     "When a request for a higher-priority model arrives, BaySwap preempts the batch of a lower-priority model at an iteration boundary, swaps that model's weights out and the requested model's weights in, and overlaps the copy with the decode of the models that stay resident; priorities come from each tenant's SLA tier. "
     "On 96 models sharing 12 GPUs, BaySwap lowers the p99 queueing delay of the top SLA tier by 3.4x.",
     ["Oskar Lindgren", "Fatima Zahra Alaoui", "Xu Peng"]),
    # boundary case said without naming the paper ("§2.4.1 里好像已经有一篇是做这个的"): ReplayKV
    ("2611.00631", 1, "new", ["cs.DC", "cs.NI"],
     "RetainKV: Keeping the Prefill Side's KV Copy until Acknowledgement to Survive Decode Instance Failures",
     "In disaggregated serving, a decode instance that fails in the middle of a request loses the KV cache it received, and the request's prefill must run again. "
     "RetainKV has the prefill node keep its copy of each transferred KV cache, moved to host memory, until the last layer is acknowledged by the decode instance, and re-sends the retained copy to a standby decode instance after a failure, which resumes the request. "
     "RetainKV resumes a request 0.3 s after a decode instance failure instead of re-running a 5.1 s prefill on 128K-token prompts.",
     ["Marta Kowalczyk", "Daniel Mensah", "Li Jiayi"]),
    # boundary decoys: a first impression taken back on a card ("看走眼了 … 各管一摊"); a paper set apart in English
    # ("Not to be confused with SnapBoot")
    ("2611.01077", 1, "new", ["cs.DC", "cs.PF"],
     "SkewTP: Re-Partitioning Tensor-Parallel Decode around a Throttled GPU",
     "In tensor-parallel decode, one GPU that throttles under heat slows the whole group, because every layer waits for the slowest shard. "
     "SkewTP measures each GPU's step time online and re-partitions attention heads and FFN columns in proportion to each GPU's measured speed, leaving every running request where it is. "
     "When one GPU of an 8-GPU group throttles, SkewTP recovers decode throughput by 1.27x over even partitioning.",
     ["Eitan Shapiro", "Adaeze Nnamdi", "Feng Yue"]),
    ("2611.00384", 1, "new", ["cs.DC", "cs.OS"],
     "GraphStash: Reusing Captured CUDA Graphs across Restarts of an LLM Serving Engine",
     "An LLM serving engine captures a CUDA graph for every batch shape at start-up, which takes tens of seconds for large models. "
     "GraphStash serializes the captured graphs with the shapes and memory layout they were captured for and loads them at the next start instead of capturing them again; the weights are loaded as usual. "
     "GraphStash shortens the start-up of a 70B engine by 19 s.",
     ["Tomasz Wrona", "Nia Campbell", "Deng Hui"]),
    # HF-featured paper far from LLM inference (Tom names it in passing)
    ("2611.00215", 1, "new", ["cs.RO"],
     "StrideBot: Learning Stair Climbing for Wheeled-Legged Robots from Egocentric Depth",
     "Wheeled-legged robots roll efficiently on flat ground but struggle on stairs. "
     "StrideBot learns a stair-climbing policy in simulation from egocentric depth images and transfers it to hardware with a learned terrain estimator. "
     "It climbs 94% of the staircases in a test set of 50 real buildings.",
     ["Ingrid Solberg", "Rafael Monteiro"]),
    # keyword trap (not LLM inference): token buckets charged at admission, for LoRaWAN gateways
    ("2611.01329", 1, "cross", ["cs.NI", "cs.DC"],
     "Token-Bucket Admission Control for LoRaWAN Gateways under Duty-Cycle Limits",
     "LoRaWAN gateways must respect regional duty-cycle limits, so downlink acknowledgements queue behind each other during bursts of uplinks. "
     "We give each device class a token bucket charged with its predicted airtime at admission, and queue or drop downlinks beyond the class's rate without preempting transmissions already scheduled. "
     "On a 2,000-device testbed the scheme lowers p99 acknowledgement latency by 41%.",
     ["Annika Vogel", "Samuel Owusu"]),
    # a v2 (replace) of an anchored paper whose figure changes: KeyFold (§2.5, anchored 2026-10-15, "KV memory ÷3.2")
    ("2610.16833", 2, "replace", ["cs.LG", "cs.CL"],
     "KeyFold: Low-Rank Key Projection for KV Cache Compression in Long-Context Decode",
     "Attention keys of a head lie close to a low-dimensional subspace. "
     "KeyFold learns a projection per head offline, caches the projected keys instead of the full keys and attends in the projected space, keeping the values in FP8. "
     "KeyFold reduces KV cache memory by 2.7x on long-context benchmarks with less than one point of loss. "
     "This version counts the projection matrices in the memory footprint, which v1 left out.",
     ["Miriam Cohen", "Stefan Ilic", "Huang Lin"]),
]

# IDs the team writes wrongly, all outside the fillers' range (2610.35950-37400): ReadyPool written 2610.00857 (Jay's
# heading: the October prefix typed by habit) and card 456's file name 2610.00631 (RetainKV, the same habit) must stay
# unknown; SliceDecode written 2610.35564 (the chat; its anchored 2610.35546 with two digits swapped); TileTune
# written with StowMoE's 2610.25964 (Tom's Sunday list); 2611.1208 (the chat's four-digit arxiv.org link, BaySwap with
# a zero dropped: no planted ID starts with it); 2611.01563 (a November ID in Omer's Saturday note);
# arXiv:1412.07024 (Tom's Sunday note, five digits in 2014).
RESERVED = {p[0] for p in PLANTED} | {"2610.00857", "2610.00631", "2610.35564"}
RESERVED_PREFIXES = ("2610.00857", "2610.00631", "2610.35564", "2611.1208")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.00215", 47, "2026-11-02T01:04:51.337Z",
     "StrideBot learns stair climbing for wheeled-legged robots from egocentric depth and transfers it to hardware.",
     ["robotics", "locomotion", "sim-to-real"], "https://github.com/stridebot/stridebot"),
    ("2611.00496", 26, "2026-11-02T01:09:27.604Z",
     "DittoKV collapses adjacent near-duplicate tokens into one KV entry with a multiplicity, during prefill and decode.",
     ["KV cache", "compression", "long context"], "https://github.com/dittokv/dittokv"),
    ("2611.00857", 20, "2026-11-02T01:15:02.118Z",
     "ReadyPool keeps weight-resident standby instances, sized by a traffic forecast, and turns them into decode instances in a burst.",
     ["LLM serving", "autoscaling", "disaggregated serving"], None),
    ("2611.01208", 14, "2026-11-02T01:22:40.951Z",
     "BaySwap preempts lower-priority models' batches and swaps model weights on shared GPUs by tenants' SLA tiers.",
     ["multi-model serving", "preemption", "LLM serving"], None),
    ("2611.01077", 11, "2026-11-02T01:31:13.476Z",
     "SkewTP re-partitions attention heads and FFN columns around a throttled GPU in tensor-parallel decode.",
     ["tensor parallelism", "stragglers", "LLM serving"], None),
    ("2611.00631", 9, "2026-11-02T01:38:55.203Z",
     "RetainKV keeps the prefill node's KV copy until acknowledgement and re-sends it to a standby decode instance after a failure.",
     ["KV transfer", "fault tolerance", "disaggregated serving"], None),
    ("2611.00384", 7, "2026-11-02T01:52:06.789Z",
     "GraphStash serializes captured CUDA graphs and reloads them when an LLM serving engine restarts.",
     ["CUDA graphs", "cold start", "LLM serving"], None),
    ("2611.01329", 2, "2026-11-02T03:12:44.025Z",
     "Per-device-class token buckets keep LoRaWAN gateways within duty-cycle limits without preempting scheduled downlinks.",
     ["LoRaWAN", "IoT", "admission control"], None),
]

DAY = Day(number=18, date="2026-11-02", pub="Mon, 02 Nov 2026 00:00:00 -0500",
          last_build="Mon, 02 Nov 2026 05:00:40 +0000", seed=20261102,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Learned", "Lathe", "Tessera", "Token", "LoRaWAN"},
          ids=(35950, 37400), hf=HF, hf_published=("2026-10-30T00:00:00.000Z", "2026-11-01T20:00:00.000Z"),
          prefixes=("Assam", "Darjeeling", "Gyokuro", "Hojicha", "Keemun", "Lapsang", "Matcha", "Oolong", "Pekoe", "Sencha"))


if __name__ == "__main__":
    write_day(DAY, HERE)
