"""Writes the day-30 recordings: the arXiv listing of Wed 18 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 30; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 29). Wednesday's listing announces what was submitted on
Tuesday (announced Tuesday 20:00 EST, i.e. Wednesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers
keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is an energy, cost and hardware day (power caps, tokens per joule, cost per million tokens, GPU generations,
CXL and NVLink bandwidths) on which a paper the team anchored five weeks ago is shown to have a serious error.
WattBatch (2610.16205, §10, anchored 2026-10-15; day 5's listing, v1: "generates 1.24x more tokens per joule than
throughput-maximizing batching") is replaced today by a v2 erratum: v1 read GPU board power only; with the rack's
metered power the gain is 1.06x. Spark's capacity plan still carries v1's 1.24x. One planted paper (CapSlide) does
what WattBatch does, by Jay's word; one (DrawerKV) what LoftKV (2611.03741, §2.1: "idle conversations' KV blocks kept
in CXL-attached memory and read in place by the decode attention kernel") does, by Maarten's; one (HeatSteer) what
DimRoute (2611.04731, §2.3: "fewer new requests sent to replicas whose GPUs are throttling") does, by Tom's card.
GenMatch is set apart from SpotCost (2609.22604, §10, the sample's) by Jay; LanePark overlaps nothing anchored in
§10 (Tom's card). KilnWatt is the keyword trap (arc furnaces, no LLM).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 29's do.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day30)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "CapSlide 跟 §10 的 WattBatch 没什么两样"); Jay: its README calls it "2610.1620 的续集"
    # (WattBatch is 2610.16205); Ines quotes the authors' WattCon slides, "每焦耳 token 多 1.45×" (the abstract:
    # 1.31x); HF 44 (Tom 09:30) / 48 (card 503, 16:00) / 57 (fetch): rising
    ("2611.15284", 1, "new", ["cs.DC", "cs.PF"],
     "CapSlide: Sliding GPU Power Caps between Prefill and Decode Instances under a Rack Power Budget",
     "In a disaggregated LLM deployment, prefill instances are compute-bound and decode instances are memory-bound, "
     "yet every GPU of a rack runs under the same power cap. CapSlide keeps the rack under its power budget and "
     "moves watts between instances every few seconds: it lowers the power cap of decode GPUs, whose tokens cost "
     "little extra time at a lower cap, and raises that of prefill GPUs as their queues grow. On a 32-GPU "
     "disaggregated deployment, CapSlide generates 1.31x more tokens per joule than running every GPU at its full "
     "power cap, with no TTFT or TPOT SLO violated.",
     ["Ingrid Halvorsen", "Tomasz Wielgus", "Pan Yuxin"]),
    # boundary case (Maarten: "DrawerKV and §2.1's LoftKV are one and the same design"); Maarten writes its HF page
    # https://huggingface.co/papers/2611.1490 (four digits) and "52 GB/s per CXL x16 link" (the abstract: 46 GB/s);
    # Ines writes "DrawerKV（2611.15284）", CapSlide's ID; HF 33 / 35 / 42: rising
    ("2611.14906", 1, "new", ["cs.DC", "cs.AR"],
     "DrawerKV: Keeping Idle Sessions' KV Cache in a CXL Memory Pool Shared by Two Hosts",
     "Multi-turn chat keeps the KV cache of idle sessions in scarce GPU memory or evicts it and pays a second "
     "prefill. DrawerKV moves the KV cache of idle sessions into a CXL memory expander shared by two hosts and lets "
     "the decode attention kernel read it in place when a session returns, without copying it back to HBM. DrawerKV "
     "reads KV in place at 46 GB/s per CXL x16 link and serves 2.3x more concurrent sessions per host at the same "
     "p99 TPOT.",
     ["Leontine Marchetti", "Oskar Lindahl", "Cao Weiming"]),
    # boundary decoy (Jay: "GenMatch 和 §10 的 SpotCost 压根是两个题目"); Jay's table writes "cost per M tokens ↓34%"
    # (the abstract: 29%); card 505 is dated without a time ("created: 2026-11-18") and says 16 where Tom's 09:30
    # digest says 14 and the fetch 24
    ("2611.15063", 1, "new", ["cs.DC", "cs.PF"],
     "GenMatch: Matching LLM Requests to the GPU Generation That Serves Them at the Lowest Cost per Token",
     "Inference fleets mix GPU generations, and the newest is not the cheapest per token for every request: short "
     "prompts with short outputs are served nearly as fast by older GPUs that cost far less per hour. GenMatch "
     "predicts each request's prefill and decode work, prices it on every generation of the fleet from measured "
     "throughput and hourly cost, and sends it to the cheapest generation that still meets its SLO. On a fleet of "
     "three GPU generations, GenMatch lowers the cost per million tokens by 29% relative to serving every request on "
     "the newest generation, at the same TTFT and TPOT SLOs.",
     ["Benedikt Aurich", "Soledad Ibarra", "Ren Haochen"]),
    # boundary case (Tom's card 506: "HeatSteer 等于把 §2.3 的 DimRoute 重新发明了一遍"); HF 31 (Tom 09:30) / 29
    # (card 506, 16:15) / 40 (fetch): fell
    ("2611.15837", 1, "new", ["cs.DC", "cs.NI"],
     "HeatSteer: Steering LLM Requests away from Racks Nearing Their Inlet Temperature Limit",
     "GPUs throttle when the air entering their rack is too warm, and a throttled replica slows every request it "
     "holds. HeatSteer reads the inlet temperature of each rack, forecasts which racks will reach their limit in the "
     "next minutes, and sends fewer new requests to the replicas in them, leaving running requests in place. In a "
     "summer month of a production cluster, HeatSteer avoids 71% of thermal throttling events and lowers p99 TPOT by "
     "12%.",
     ["Maëlle Fournier", "Jonas Eklund", "Qiu Lanxin"]),
    # boundary decoy (Tom's card: "§10 里没有能和它对上号的已锚论文", no paper named); its card is named
    # 507-2611-15491.md with arxiv_id 2611.15419; HF 12 / 13 / 19: rising
    ("2611.15419", 1, "new", ["cs.DC", "cs.AR"],
     "LanePark: Parking Idle NVLink Lanes between the All-Reduce Bursts of Tensor-Parallel Decode",
     "Tensor-parallel decode keeps NVLink lanes powered between its all-reduce bursts although they carry no data "
     "for most of each step. LanePark puts idle lanes into a low-power state as soon as a burst ends and wakes them "
     "ahead of the next one from the layer schedule of the step. On an 8-GPU NVLink node, LanePark cuts the "
     "interconnect power by 37% at the cost of 0.8% longer TPOT.",
     ["Agnieszka Drozd", "Emeka Obiora", "Shen Ruolan"]),
    # keyword trap (not LLM inference): power cap, batch scheduling, tariffs, energy per tonne, cheapest hours,
    # deadlines — electric arc furnaces of a steel plant
    ("2611.15702", 1, "cross", ["eess.SY", "math.OC"],
     "KilnWatt: Power-Capped Batch Scheduling of Electric Arc Furnaces under Time-of-Use Tariffs",
     "Steel plants melt scrap in batches in electric arc furnaces whose draw must stay under the plant's contracted "
     "power cap. KilnWatt schedules each heat into the cheapest hours of a time-of-use tariff that still meet the "
     "casting deadlines, with a mixed-integer program re-solved every hour from the metered power. On a year of a "
     "plant's records, KilnWatt lowers the electricity cost per tonne of steel by 14% and never exceeds the cap.",
     ["Radomir Kral", "Fiona Galbraith"]),
    # WattBatch v2 (replace): an erratum — v1 read GPU board power only; with the rack's metered power the gain is
    # 1.06x (v1: 1.24x). The title is unchanged. Spark's capacity plan still carries v1's 1.24x.
    ("2610.16205", 2, "replace", ["cs.DC", "cs.PF"],
     "WattBatch: Joule-Aware Batch Sizing for LLM Serving under Rack Power Budgets",
     "The batch size of each decode step decides both the throughput and the power draw of a GPU. WattBatch chooses "
     "the batch size and the GPU clock of every step to maximize tokens per joule, keeping the rack under its power "
     "cap and every request within its latency target. This version corrects an error in the energy accounting of "
     "the first version, which read GPU board power only and left out the host CPUs, network cards and fans of the "
     "rack. With the rack's metered power, on a 64-GPU rack, WattBatch generates 1.06x more tokens per joule than "
     "throughput-maximizing batching, with no TPOT objective violated.",
     ["Helga Brandt", "Kenta Mori", "Amara Nwosu"]),
]

# IDs the team writes wrongly — LanePark's card named 2611.15491, "2610.1620" (Jay, WattBatch's with a digit
# dropped, beside 续集), "https://huggingface.co/papers/2611.1490" (Maarten, DrawerKV's with a digit dropped),
# "1306.41872" (Ines, five digits in June 2013), "arXiv:2612.03318 (to appear)" (Ines, a talk's slide), ChillServe
# written 2610.29978 (Spark; it is 2610.29987), DrawerKV written beside CapSlide's 2611.15284 (Ines), the meter
# reading 1309.27518 kWh (Omer) and the old 1910.02054 (Maarten) — none in any recording; the fillers' range is
# 2610.54000-55450 (day 29's was 52500-53950).
RESERVED = {p[0] for p in PLANTED} | {"2611.15491", "2612.03318", "2610.29978", "2610.29987", "2611.03741",
                                       "2611.04731", "2609.22604", "1306.41872", "1309.27518", "1910.02054"}
RESERVED_PREFIXES = ("2610.1620", "2611.1490", "2611.1549", "2612.0331", "2610.2997", "2610.2998")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.15284", 57, "2026-11-18T00:12:44.318Z",
     "CapSlide moves power between prefill and decode GPUs under a rack budget for more tokens per joule.",
     ["LLM serving", "power capping", "energy efficiency"], "https://github.com/capslide/capslide"),
    ("2611.14906", 42, "2026-11-18T00:25:07.962Z",
     "DrawerKV keeps idle sessions' KV cache in a CXL memory pool shared by two hosts and reads it in place.",
     ["KV cache", "CXL memory", "multi-turn chat"], None),
    ("2611.15837", 40, "2026-11-18T00:38:51.205Z",
     "HeatSteer sends fewer new requests to racks whose inlet temperature nears its limit.",
     ["thermal management", "request routing", "data centers"], None),
    ("2611.15063", 24, "2026-11-18T00:52:16.733Z",
     "GenMatch routes each request to the GPU generation that serves it at the lowest cost per token.",
     ["heterogeneous GPUs", "cost", "request routing"], None),
    ("2611.15419", 19, "2026-11-18T01:07:39.480Z",
     "LanePark parks idle NVLink lanes between all-reduce bursts to save interconnect power.",
     ["NVLink", "interconnect power", "tensor parallelism"], None),
    ("2611.15702", 3, "2026-11-18T05:44:02.617Z",
     "Power-capped scheduling of electric arc furnaces into the cheapest tariff hours.",
     ["industrial scheduling", "electricity tariffs", "mixed-integer programming"], None),
]

DAY = Day(number=30, date="2026-11-18", pub="Wed, 18 Nov 2026 00:00:00 -0500",
          last_build="Wed, 18 Nov 2026 05:00:38 +0000", seed=20261118,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"WattBatch", "PowerCap", "SpotCost", "LoftKV",
                                                                  "DimRoute", "ChillServe", "CarbonTag", "OffPeak",
                                                                  "RackPlan", "HaloCool", "WattCon", "BurstAdmit",
                                                                  "QuotaGate", "TierKV", "C2CFlow", "SkewTP",
                                                                  "TiltTP", "JouleTune", "WattLedger", "PowerStep"},
          ids=(54000, 55450), hf=HF, hf_published=("2026-11-17T00:00:00.000Z", "2026-11-17T20:00:00.000Z"),
          prefixes=("Oregano", "Sesame", "Pepper", "Thyme", "Mustard", "Cinnamon", "Dill", "Basil", "Sage",
                    "Chili"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
