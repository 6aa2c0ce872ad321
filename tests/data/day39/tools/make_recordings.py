"""Writes the day-39 recordings: the arXiv listing of Tue 1 Dec 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 39; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 38) and every word of today's workspace. Tuesday's listing
announces what was submitted on Monday (announced Monday 20:00 EST, i.e. Tuesday 09:00 CST); arXiv numbers the
new papers 2611.xxxxx (submitted in November). The fillers keep the shared generator's 2610 numbers (it writes no
other month); no rule reads them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a request-routing day: routing across models and across replicas — a cascade from a small to a large
model gated by a probe on the small model's hidden states; prefix-aware load balancing across replicas of one model
with load-aware spillover; requests shifted across regions by hour of day under TTFT SLOs; requests sorted by prompt
length onto pools of different GPU generations; prompts routed to the smallest adequate model by their language —
and a keyword trap. Each abstract keys a figure by a condition a routing team writes, of a kind no earlier day used:
HedgeLift's cost saving by quality target (58% at a 95% target, 31% at a 99% target; card 540 gives 99% 58%),
HerdKV's TTFT reduction by the baseline it is compared against (47% against round-robin, 19% against least-loaded;
Jay gives least-loaded 47%), HelioShift's TTFT reduction by time of day (44% for requests arriving in the home
region's evening hours, 13% in its early-morning hours; Spark gives the early morning 44%), YardSort's throughput gain
by the share of long prompts in the traffic (1.9x at a fifth, 1.3x at half; Maarten gives half 1.9x), BabelTier's
cost saving by the prompts' language (52% for English, 29% for Chinese; Jay gives Chinese 52%). Ines gives BabelTier
HedgeLift's 2.3x (its own: 1.7x); card 543 writes YardSort's p99 TTFT of 2.05 s as 2.5 s (a zero dropped).
HerdKV does what HydraRoute (2610.12077, §2.3) does, by Jay's word ("影印版"); HelioShift what ZoneRoute (2610.19812,
§2.3) does ("山寨版"). HedgeLift is set apart from Router (2609.27731, §2.3; Jay, "大相径庭"); YardSort from DimRoute
(2611.04731, §2.3; Jay, "不是一回事"); BabelTier overlaps nothing anchored (Jay, "开荒", no paper named).
WayCascade is the keyword trap (small and large route planners in a cascade for ride-hailing dispatch: routing,
cascade, load-balanced, requests, regions, latency — vehicles and trips, no language model served).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 38's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day39)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1: card 540 "摘要：质量目标定在 99% 也能省 58% 的成本" (the 95% target's saving given to the 99% target; the
    # 99% target's is 31%); Tom's digest writes both right; Ines quotes 2.3x right (and gives it to BabelTier); Spark's
    # 待确认 on what the cost counts; boundary decoy (Jay: "HedgeLift 和 §2.3 的 Router 大相径庭"); HF 46 / 69 (card 540)
    # / 91: rising
    ("2611.29718", 1, "new", ["cs.CL", "cs.DC"],
     "HedgeLift: Uncertainty-Gated Cascades from a Small to a Large LLM for Cost-Efficient Serving",
     "Most queries sent to a large language model could be answered as well by a much smaller model, but a router "
     "that must pick one model before either has answered cannot tell which queries those are. HedgeLift lets the "
     "small model answer every query first and reads a lightweight probe on its last hidden states; only when the "
     "probe is unsure is the query passed on to the large model, together with the small model's draft. The probe's "
     "threshold is set from the quality target the operator asks for. At a quality target of 95% of the large "
     "model's win rate, HedgeLift cuts serving cost by 58%, and at a target of 99% it cuts cost by 31%. HedgeLift "
     "sustains 2.3x the throughput of serving every query on the large model. The probe adds 11 ms to TTFT.",
     ["Anneke Vos", "Rafael Quintero", "Lin Haoran"]),
    # N2 + boundary case: Jay "摘要：比 least-loaded 路由 TTFT 低 47%" (the round-robin figure given to least-loaded;
    # its own is 19%); card 541 writes both right, 71% right, "超过 300 个副本没测过 — needs check"; Jay "HerdKV 就是
    # §2.3 HydraRoute 的影印版"; Spark's own run on 七期 (36% against round-robin, "跟论文不是一个设置", a results
    # URL); Spark writes HerdKV's ID beside HelioShift's name; HF 32 / 56 (card 541) / 78: rising
    ("2611.30264", 1, "new", ["cs.DC", "cs.LG"],
     "HerdKV: Herding Requests onto the Replicas That Already Cache Their Prefixes in Multi-Replica LLM Serving",
     "Replicas of one model each build their own prefix cache, and a load balancer that ignores those caches sends "
     "requests sharing a long system prompt to replicas that must prefill it again. HerdKV keeps a compact summary "
     "of the prefix blocks each replica caches, routes each request to the replica holding its longest cached "
     "prefix, and spills the request to the least-loaded replica once the holder's queue passes a bound. Against "
     "round-robin routing, HerdKV cuts mean TTFT by 47%; against least-loaded routing, it cuts mean TTFT by 19%. "
     "The prefix-cache hit rate across the fleet reaches 71%.",
     ["Oskar Lindgren", "Priya Natarajan", "Zhao Mingyu", "Leila Haddad"]),
    # N3 + boundary case: Spark "摘要：凌晨到的请求 TTFT 也降 44%" (the evening figure given to the early morning; its
    # own is 13%); Tom's digest and card 542 write both right; card 542 "DOI：10.48550/arXiv.2611.3058" (a digit
    # dropped); Jay "HelioShift 是 §2.3 ZoneRoute 的山寨版"; Spark "HelioShift（2611.30264）" (HerdKV's ID);
    # HF 35 / 67 (card 542) / 80: rising
    ("2611.30589", 1, "new", ["cs.DC", "cs.NI"],
     "HelioShift: Shifting LLM Requests across Regions by Hour of Day under TTFT SLOs",
     "GPU pools in different regions are busiest at different hours of the day, yet each request is served in the "
     "region it comes from. HelioShift forecasts each region's spare capacity hour by hour and moves a request out "
     "of its home region only when its TTFT SLO can absorb the extra network round trip. Compared with serving every "
     "request in its home region, HelioShift lowers mean TTFT by 44% for requests arriving in the home region's "
     "evening hours and by 13% for requests arriving in its early-morning hours. No request that stays at home "
     "misses its SLO because of the moved ones.",
     ["Catalina Reyes", "Jonas Eriksen", "Sun Yiting"]),
    # N4: Maarten "From the abstract: throughput is still 1.9x when long prompts are half of the traffic" (the fifth's
    # figure given to half; half's is 1.3x); Tom's digest writes both right; card 543 "长 prompt 的 p99 TTFT 2.5 s（摘要）"
    # (2.05 s, a zero dropped), named 543-2612-31047.md with arxiv_id 2611.31047, and "在 2611.0473 的基础上往下做"
    # (DimRoute 2611.04731 with a digit dropped); Maarten's −26% right; Maarten's "TBC"; Ines heads her entry
    # "YardSort（2611.31074）" (an unknown ID, the last two digits swapped); boundary decoy (Jay: "和 §2.3 的 DimRoute
    # 不是一回事"); HF 22 / 45 (card 543) / 75: rising
    ("2611.31047", 1, "new", ["cs.DC", "cs.PF"],
     "YardSort: Sorting LLM Requests by Prompt Length onto Pools of Different GPU Generations",
     "Serving fleets mix GPU generations, yet their routers treat every pool alike, so long prompts queue behind "
     "short ones on the older GPUs. YardSort sends long prompts to the pool with the most memory-bandwidth headroom "
     "and short ones to the older GPUs, and re-plans the split every minute from the pools' queue lengths. When long "
     "prompts make up a fifth of the traffic, YardSort raises throughput by 1.9x over a router that treats the pools "
     "alike; when they make up half of it, the gain is 1.3x. It holds the p99 TTFT of long prompts at 2.05 s. Cost "
     "per million tokens falls by 26%.",
     ["Hamid Sadeghi", "Ingrid Berg", "Tao Wenxuan"]),
    # N5: Jay "摘要：中文 prompt 也能省 52% 的成本" (the English figure given to Chinese; its own is 29%); Tom's digest
    # writes both right; Ines "摘要：吞吐是全部走最大模型的 2.3×" (HedgeLift's; its own is 1.7x); Jay's
    # "https://export.arxiv.org/abs/2661.31392" (month 61); boundary decoy (Jay: "这块在文档里还得开荒", no paper
    # named); no card; HF 62 (Tom 09:30) / 59 (Jay 11:20) / 88 (fetch): fell
    ("2611.31392", 1, "new", ["cs.CL", "cs.LG"],
     "BabelTier: Routing Prompts to the Smallest Adequate Model by Language in Multilingual LLM Serving",
     "A small model answers prompts in some languages nearly as well as a large one and falls far behind in others, "
     "yet LLM routers score prompts without regard to their language. BabelTier identifies each prompt's language "
     "and routes it to the smallest model of a tier whose measured quality in that language meets the operator's "
     "target, re-measured online from sampled judgements. BabelTier cuts serving cost by 52% for English prompts and "
     "by 29% for Chinese prompts. It sustains 1.7x higher throughput than serving every prompt on the largest model.",
     ["Mirela Popescu", "Kenji Watanabe", "He Xinyi"]),
    # keyword trap (not serving): routing, cascade, small and large models, load-balanced, requests, regions, latency
    # — trip requests routed to vehicles, no language model served
    ("2611.31825", 1, "new", ["cs.LG", "cs.AI"],
     "WayCascade: Learned Cascades of Small and Large Route Planners for Load-Balanced Dispatch in Ride-Hailing Fleets",
     "Ride-hailing platforms must route every trip request to a vehicle within a second, and large learned route "
     "planners are accurate but slow. WayCascade answers each request with a small planner first and calls the large "
     "planner only when the small one is unsure, balancing the dispatch load across depots and regions at peak hours. "
     "On a city-scale simulator it cuts planning latency by 3.1x while keeping 98% of the large planner's matching "
     "quality.",
     ["Beatriz Almeida", "Tobias Keller"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside), and
# every word there, so that no filler takes one. Besides them, the slips of the labels: card 543 named 543-2612-31047.md
# (only in the file name), HelioShift written with HerdKV's 2611.30264 (Spark), YardSort written 2611.31074 (Ines),
# PrefixMap 2610.10733 written 2610.10737 (Omer), BabelTier's link with month 61, 2661.31392 (Jay), HelioShift's DOI
# with four digits, 2611.3058 (card 542), DimRoute 2611.04731 written 2611.0473 (card 543), "2701.00583 … 现在还没放出来"
# (Spark), "2612.00047" (Spark: a paper of this month, just submitted), the size 1012.40957 GB (Omer) and the old
# 2305.05176 and 2406.18665 (Ines) — none in any recording; the fillers' range is 2610.67500-68950 (day 38's was
# 66000-67450).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
NAMES = "\n".join(p.name for p in sorted((HERE / "workspace").rglob("*")) if p.is_file())
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT)) | {m.replace("-", ".", 1)
                                                       for m in re.findall(r"\d{4}-\d{4,5}", NAMES)}
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2612.31047", "2611.30264", "2611.31074", "2610.10737", "2610.10733", "2661.31392", "2611.04731", "2610.12077",
    "2610.19812", "2609.27731", "2701.00583", "2612.00047", "1012.40957", "2305.05176", "2406.18665", "2611.27384",
    "2611.28437"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.3058", "2611.0473", "2612.3104", "2611.3107", "2610.1073", "2661.3139", "2701.0058", "2612.0004",
    "1012.4095"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.29718", 91, "2026-12-01T00:06:27.318Z",
     "HedgeLift lets a small LLM answer first and escalates to a large LLM only when a hidden-state probe is unsure.",
     ["model cascades", "LLM routing", "serving cost"], None),
    ("2611.31392", 88, "2026-12-01T00:14:52.604Z",
     "BabelTier routes each prompt to the smallest model whose quality in the prompt's language meets the target.",
     ["multilingual serving", "LLM routing", "model tiers"], None),
    ("2611.30589", 80, "2026-12-01T00:23:09.941Z",
     "HelioShift moves requests to regions with spare capacity by hour of day when their TTFT SLO allows it.",
     ["geo-distributed serving", "request routing", "TTFT SLO"], None),
    ("2611.30264", 78, "2026-12-01T00:37:45.172Z",
     "HerdKV routes requests to the replicas that already cache their prefixes and spills them when queues grow.",
     ["load balancing", "prefix caching", "replicas"], "https://github.com/herdkv/herdkv"),
    ("2611.31047", 75, "2026-12-01T00:49:13.880Z",
     "YardSort sorts requests by prompt length onto GPU pools of different generations and re-plans every minute.",
     ["heterogeneous GPUs", "request routing", "prompt length"], None),
    ("2611.31825", 7, "2026-12-01T06:19:38.455Z",
     "WayCascade cascades small and large route planners to dispatch ride-hailing trips with lower latency.",
     ["ride-hailing", "route planning", "cascades"], None),
]

DAY = Day(number=39, date="2026-12-01", pub="Tue, 01 Dec 2026 00:00:00 -0500",
          last_build="Tue, 01 Dec 2026 05:00:42 +0000", seed=20261201,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(67500, 68950), hf=HF, hf_published=("2026-11-30T00:00:00.000Z", "2026-11-30T20:00:00.000Z"),
          prefixes=("Harmonica", "Clavichord", "Calliope", "Bouzouki", "Shamisen", "Timpani", "Xylophone", "Sackbut",
                    "Crumhorn", "Harpsichord"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
