"""Writes the day-29 recordings: the arXiv listing of Tue 17 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 29; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 28). Tuesday's listing announces what was submitted on
Monday (announced Monday 20:00 EST, i.e. Tuesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers
keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: the window's two blog posts (tessera-eng's DueBatch post, Tuesday 08:00 CST,
citing the paper by its arXiv ID; lathe-blog's Lathe 2.5 release, Tuesday 10:00 CST, citing PredRoute by its v1
title only) are hand-written in workspace/recordings/blogs/tessera-eng.xml and lathe-blog.xml.

The day is a scheduling and SLO-aware serving day on which the team writes mostly in English shorthand and tables.
One planted paper (LaxRank) does what TailGuard (2610.08977, §2.2, the sample's: "SLO-aware preemptive scheduling
for multi-tenant serving") does, by Jay's word; one (ForeLoad) what LoadLens (2610.14133, §2.3: "output-length-aware
load balancing: predicts output length, balances expected decode work across replicas") does, by Tom's card.
BurstAdmit is set apart from QuotaGate (2610.22264, §2.2; day 8's listing: "lowers the p99 TTFT of well-behaved
tenants by 3.1x") by Maarten; ClassCast overlaps nothing anchored in §2.2 (Tom's card). DueBatch is the paper of
Tessera's post. PredRoute (2610.15426, §2.3; day 4's listing, v1: "PredRoute: Routing LLM Requests by Predicted
Decode Work with Online Length Correction", "reduces p99 TTFT by 24%") is replaced today by a v2 with a new title
and a new figure (19%); Lathe's post quotes v1's title and figure.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 and 28's do.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day29)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "LaxRank = TailGuard by any other name"); Jay's shorthand "TTFT p99 ↓31% vs FCFS (paper) /
    # ↓18% ours" (Omer's staging replay with the authors' code); Omer's handover writes it "arXiv:2613.13874" (month
    # 13); HF 41 (Tom 09:30) / 47 (card 498, 16:00) / 53 (fetch): rising
    ("2611.13874", 1, "new", ["cs.DC", "cs.LG"],
     "LaxRank: Preempting the Request with the Most Slack in Multi-Tenant LLM Serving",
     "Multi-tenant LLM endpoints give each request a TTFT or TPOT deadline, but most serving engines still run "
     "requests first come, first served. LaxRank predicts the work each request has left, computes its laxity, the "
     "time to its deadline minus that work, runs the requests with the least laxity first, and preempts the running "
     "request with the most laxity when a tighter one arrives, keeping the preempted request's KV cache in GPU "
     "memory. On a multi-tenant chat trace, LaxRank cuts p99 TTFT by 31% and SLO violations by 2.4x relative to "
     "FCFS.",
     ["Freya Lindgren", "Kofi Mensah-Adjei", "Zhao Ruoxi"]),
    # boundary case (Tom's card 499: "ForeLoad 就是 §2.3 的 LoadLens 换了身行头"); Jay: its README calls it "a sequel
    # to 2610.1413" (LoadLens is 2610.14133); HF 36 (Tom 09:30) / 33 (card 499, 16:05) / 45 (fetch): fell
    ("2611.14209", 1, "new", ["cs.DC", "cs.NI"],
     "ForeLoad: Balancing Forecast Decode Work across LLM Replicas with Output-Length Quantiles",
     "Balancing LLM replicas by queue length ignores that requests differ by orders of magnitude in how many tokens "
     "they will decode. ForeLoad forecasts a quantile of each request's output length from its prompt, routes every "
     "request to the replica with the least forecast decode work outstanding, and re-forecasts as tokens are "
     "generated. At 64 replicas, ForeLoad lowers p99 TPOT by 22% relative to join-the-shortest-queue routing.",
     ["Anneli Voss", "Rafael Quintero", "Du Mingxuan"]),
    # boundary decoy (Maarten: "a different beast from §2.2's QuotaGate (2610.22246)", QuotaGate with a wrong ID);
    # Maarten's source line is https://arxiv.org/pdf/2611.1369 (four digits); card 500 quotes Fig. 7's caption,
    # "goodput 2.6×" (the abstract: 1.6x); HF 17 / 19 / 24: rising
    ("2611.13691", 1, "new", ["cs.DC", "cs.LG"],
     "BurstAdmit: Deferring Requests with Loose Deadlines at the Admission of Bursty LLM Endpoints",
     "When a burst arrives, an LLM endpoint that admits every request misses the deadlines of many of them. "
     "BurstAdmit estimates at admission whether a request can still meet its TTFT deadline given the work already "
     "admitted, defers requests whose deadlines are loose to a short holding queue, and rejects early the requests "
     "that cannot be met, so that the admitted ones finish in time. On bursty traces with a 1 s TTFT SLO, BurstAdmit "
     "raises goodput by 1.6x over admitting every request.",
     ["Ottilie Brandt", "Samir Haddad", "Gu Qingyun"]),
    # the paper of Tessera's post (arXiv:2611.14037 in the post); Ines's note heads it "DueBatch（2612.14037）" (the
    # month slipped) and quotes the post's "1.9 s to 0.8 s" as "1.9 s → 0.6 s"; Jay's "SLO misses ↓ ~3x" (2.9x:
    # agrees); HF 28 / 30 / 38: rising
    ("2611.14037", 1, "new", ["cs.DC", "cs.LG"],
     "DueBatch: Sizing Each Decode Batch to the Tightest TPOT Deadline It Holds",
     "Serving engines grow the decode batch until memory runs out, which stretches every request's time per output "
     "token. DueBatch sizes each decode step's batch so that the tightest TPOT deadline among the running requests "
     "is still met, and parks the requests that do not fit until the next step. On a production chat trace, "
     "DueBatch cuts TPOT SLO violations by 2.9x and raises goodput by 1.4x over a fixed maximum batch size.",
     ["Mireille Dufort", "Tobias Engström", "Yan Zhiqiang"]),
    # boundary decoy (Tom's card: "§2.2 里找不到它的亲戚", no paper named); its card is named 502-2611-14325.md with
    # arxiv_id 2611.14352; Jay's table writes "SLO violations ↓74%" (the abstract: 47%); HF 9 / 12 / 16: rising
    ("2611.14352", 1, "new", ["cs.DC", "cs.LG"],
     "ClassCast: Inferring the SLO Class of Each LLM Request from Its API Metadata at Admission",
     "Endpoints that serve interactive and batch traffic together rely on clients to label their requests, and most "
     "do not. ClassCast infers each request's SLO class (interactive, standard or batch) from its API metadata, "
     "prompt template and client history with a small classifier at admission, and hands the class to the "
     "scheduler. On a mixed trace from a shared endpoint, ClassCast labels 94% of requests correctly and cuts the "
     "SLO violations of interactive requests by 47%.",
     ["Henrike Solberg", "Chidi Okonkwo-Lane", "Fang Jiayi"]),
    # keyword trap (not LLM inference): SLO-aware, preemptive, slack, p99, first come first served, time to first
    # ... — radiotherapy scheduling
    ("2611.14468", 1, "cross", ["math.OC", "cs.PF"],
     "DoseSlot: SLO-Aware Preemptive Scheduling of Radiotherapy Linacs with Tail Waiting-Time Guarantees",
     "Radiotherapy centres schedule treatment sessions on a few linear accelerators under service-level objectives "
     "on the waiting time to first treatment. DoseSlot orders patients by their slack to the SLO, preempts planned "
     "sessions when an urgent patient arrives, and re-plans the remaining sessions with a rolling integer program. "
     "On two years of a regional centre's records, DoseSlot cuts the p99 waiting time to first treatment by 35% and "
     "SLO violations by 2.2x relative to first-come-first-served booking.",
     ["Margit Kollár", "Ewan Pritchard"]),
    # PredRoute v2 (replace): the title changes; the figure changes (v1: 24% across 128 replicas; v2: 19% across 256,
    # prefix caching on); Lathe 2.5's post cites v1 by title only and quotes v1's 24%
    ("2610.15426", 2, "replace", ["cs.DC"],
     "PredRoute: Work-Aware Routing of LLM Requests with Length Predictions Corrected Online and per Tenant",
     "Load balancers for LLM fleets count outstanding requests, which ignores that the decode work of a request "
     "depends on its output length. PredRoute predicts the output length of each request at admission, routes on "
     "the predicted decode work of each replica, and corrects the prediction online and from each tenant's recent "
     "requests, migrating requests whose length was badly underestimated. This version adds the per-tenant "
     "correction and measures every run with prefix caching on: across 256 replicas, PredRoute reduces p99 TTFT by "
     "19% relative to least-outstanding-requests routing.",
     ["Nils Hansen", "Priya Iyer", "Gabriel Moreau"]),
]

# IDs the team writes wrongly — ClassCast's card named 2611.14325, "2612.14037" (Ines, DueBatch's month wrong),
# "arXiv:2613.13874" (Omer, LaxRank's month 13), "https://arxiv.org/pdf/2611.1369" (Maarten, BurstAdmit's with a
# digit dropped), "2610.1413" (Jay, LoadLens's with a digit dropped), QuotaGate written 2610.22246 (Maarten; it is
# 2610.22264), the change ticket 2611.1703 (Omer) and the old 1707.06347 (Maarten) — none in any recording; the
# fillers' range is 2610.52500-53950 (day 28's was 51000-52450).
RESERVED = {p[0] for p in PLANTED} | {"2611.14325", "2612.14037", "2613.13874", "2610.22246", "2610.22264",
                                       "2610.14133", "2610.08977", "1707.06347"}
RESERVED_PREFIXES = ("2611.1369", "2610.1413", "2611.1703", "2613.1387", "2612.1403", "2610.2224")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.13874", 53, "2026-11-17T00:14:37.201Z",
     "LaxRank runs the requests with the least slack to their deadlines first and preempts the one with the most.",
     ["LLM serving", "SLO-aware scheduling", "preemption"], "https://github.com/laxrank/laxrank"),
    ("2611.14209", 45, "2026-11-17T00:27:52.618Z",
     "ForeLoad routes LLM requests by forecast quantiles of their output length to balance decode work.",
     ["load balancing", "request routing", "output length prediction"], None),
    ("2611.14037", 38, "2026-11-17T00:41:09.935Z",
     "DueBatch sizes each decode batch so that the tightest TPOT deadline in it is met.",
     ["LLM serving", "batching", "TPOT SLO"], None),
    ("2611.13691", 24, "2026-11-17T00:53:26.470Z",
     "BurstAdmit defers loose-deadline requests and rejects infeasible ones at admission during bursts.",
     ["admission control", "bursty traffic", "goodput"], None),
    ("2611.14352", 16, "2026-11-17T01:06:48.112Z",
     "ClassCast infers the SLO class of each request from its API metadata at admission.",
     ["SLO classes", "admission", "request classification"], None),
    ("2611.14468", 3, "2026-11-17T04:31:55.806Z",
     "SLO-aware preemptive scheduling of radiotherapy machines with tail waiting-time guarantees.",
     ["healthcare scheduling", "preemption", "integer programming"], None),
]

DAY = Day(number=29, date="2026-11-17", pub="Tue, 17 Nov 2026 00:00:00 -0500",
          last_build="Tue, 17 Nov 2026 05:00:41 +0000", seed=20261117,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"TailGuard", "LoadLens", "QuotaGate", "PredRoute",
                                                                  "Lathe", "Tessera", "PlinthKV", "WinnowKV",
                                                                  "GrainKV", "BraidRing", "QuireKV", "MuffleKV",
                                                                  "TrimCache", "KeyFold", "HydraRoute", "PieceFill",
                                                                  "EarlyQuit", "SlotLend", "ElasticPD", "PairUp"},
          ids=(52500, 53950), hf=HF, hf_published=("2026-11-16T00:00:00.000Z", "2026-11-16T20:00:00.000Z"),
          prefixes=("Denim", "Chiffon", "Poplin", "Chambray", "Seersucker", "Percale", "Flannel", "Corduroy",
                    "Boucle", "Jacquard"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
