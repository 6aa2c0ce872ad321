"""Writes the day-25 recordings: the arXiv listing of Wed 11 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 25; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 24). Wednesday's listing announces what was submitted on
Tuesday (announced Tuesday 20:00 EST, i.e. Wednesday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers
keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: the one blog post of the window (lathe-blog's security advisory LSA-2026-03,
published Wednesday 09:30 CST) is hand-written in workspace/recordings/blogs/lathe-blog.xml.

The day is a security day: side channels of serving systems. One planted paper (RadixPeek) does what CacheSpy
(2610.11123, anchored in §1.(9) on 2026-10-10) does, on a radix-tree prefix cache; KVShield (2610.14012, anchored in
§1.(9) on 2026-10-12; v1 on day 3's listing: "adds 3% to TTFT") is replaced by a v2 whose figure changed (5.5%).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 24's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day25)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Ines's reading group: "和 §1.(9) 的 CacheSpy（2610.11132）是老调重弹", CacheSpy's ID slipped);
    # HF 16 (Tom 09:30) / 23 (card 482, 15:30) / 21 (fetch): fell
    ("2611.08350", 1, "new", ["cs.CR", "cs.DC"],
     "RadixPeek: Recovering Co-Tenants' System Prompts from the Hit Timing of Radix-Tree Prefix Caches",
     "Serving engines that keep a radix-tree prefix cache shared across tenants return the first token sooner when "
     "a prompt's prefix is already cached. RadixPeek sends probe prompts that extend a guessed prefix one token at a "
     "time and keeps each guess whose time-to-first-token shows a cache hit, reconstructing another tenant's system "
     "prompt without any access to its traffic. Against radix-tree prefix caches in their default settings, "
     "RadixPeek recovers 88% of the tokens of co-tenants' system prompts with 40 probes per token.",
     ["Elin Sandvik", "Tariq Mansour", "Xu Jiayi"]),
    # boundary decoy (Jay: "和 §1.(9) 的 JIL Attack 根本不搭界"); Jay writes "arXiv 2611.0884";
    # its card is named 483-2611-08814.md with arxiv_id 2611.08841; HF 10 / 12 / 14: rising
    ("2611.08841", 1, "new", ["cs.CR", "cs.LG"],
     "StepTell: Inferring the Prompt Lengths of Co-Batched Requests from Decode Step Timing",
     "Continuous batching runs the decode steps of many users' requests together, and the duration of a step grows "
     "with the total context length of the batch. StepTell measures the inter-token intervals of its own streamed "
     "response and infers the prompt lengths of the requests batched with it, from which it tells which "
     "document-heavy workflows other users run. On an open-source serving engine, StepTell estimates the prompt "
     "lengths of co-batched requests with a median error of 11% and needs no access to other users' traffic.",
     ["Bogdan Ilic", "Marisol Ortega", "Han Seojun"]),
    # boundary decoy (Jay: "和 §1.(9) 的 KVShield 不冲突"); Jay copies the hit rate as 14% (the abstract: 4%);
    # Ines writes its link as arxiv.org/abs/2613.09127; HF 8 / 11 / 13: rising
    ("2611.09127", 1, "new", ["cs.CR", "cs.DC"],
     "TenantFence: Partitioning Prefix Caches and KV Pools per Tenant to Close Timing Side Channels in LLM Serving",
     "Prefix caches shared across tenants leak prompts through time-to-first-token. TenantFence gives each tenant "
     "its own partition of the prefix cache and of the KV block pool, sized from the tenant's recent hit rate, and "
     "shares across tenants only the prefixes an operator marks as public, such as a common system prompt. "
     "TenantFence lowers the prefix cache hit rate by 4% and adds 2% to p99 TTFT over a fully shared cache, while "
     "the prompt-reconstruction attacks of prior work recover nothing.",
     ["Annika Lorenz", "Kwame Boateng", "Lu Mingyang"]),
    # KVShield's v2 (v1: day 3's listing, "KVShield adds 3% to TTFT"): re-measured at production request rates.
    # Jay quotes v1's 3%, Ines v2's 5.5%
    ("2610.14012", 2, "replace", ["cs.CR", "cs.DC"],
     "KVShield: Constant-Time Prefix Cache Lookups against Timing Side Channels in Multi-Tenant LLM Serving",
     "Shared prefix caches make time-to-first-token depend on what other tenants sent, which leaks their prompts. "
     "KVShield groups tenants and schedules prefix cache hits and misses of a group on a constant-time schedule, so "
     "a hit is indistinguishable from a miss to everyone outside the group. KVShield adds 5.5% to TTFT and defeats "
     "the prompt-reconstruction attacks of prior work. This version measures the overhead at the request rates of "
     "production traces, where v1 measured it at low load.",
     ["Hannah Weiss", "Diego Alvarez", "Sun-hee Park"]),
    # keyword trap (not LLM inference): cache side channels of cloud CPUs, a security day's words
    ("2611.09406", 1, "cross", ["cs.CR", "cs.AR", "cs.OS"],
     "SetSentry: Detecting Eviction-Set Construction for Last-Level Cache Side Channels on Multi-Tenant Cloud CPUs",
     "Cache side channels between tenants of a cloud CPU start by building eviction sets for the shared last-level "
     "cache. SetSentry reads the hardware performance counters of each tenant's virtual machine and detects "
     "eviction-set construction from its pattern of cache misses before an attack can time the victim's accesses. "
     "On SPEC CPU 2017 and cloud workloads, SetSentry detects eviction-set construction within 12 ms with a false "
     "positive rate under 0.3%.",
     ["Ida Halvorsen", "Mehmet Aksoy"]),
]

# IDs the team writes wrongly — CacheSpy as 2610.11132 (Ines), StepTell's card named 2611.08814, "arXiv 2611.0884"
# (Jay), arxiv.org/abs/2613.09127 (Ines), 2612.04490 (card 482, for December 2025) — none in any recording;
# the fillers' range is 2610.46500-47950 (day 24's was 45000-46450).
RESERVED = {p[0] for p in PLANTED} | {"2610.11123", "2610.11132", "2611.08814"}
RESERVED_PREFIXES = ("2611.0884", "2613.0912", "2612.0449", "2512.0449", "1307.5613")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.08350", 21, "2026-11-11T00:14:37.218Z",
     "RadixPeek times first tokens to tell radix-tree prefix cache hits and rebuilds co-tenants' system prompts.",
     ["prefix caching", "timing side channels", "prompt leakage"], "https://github.com/radixpeek/radixpeek"),
    ("2611.08841", 14, "2026-11-11T00:31:05.904Z",
     "StepTell infers the prompt lengths of co-batched requests from the timing of decode steps.",
     ["continuous batching", "timing side channels", "privacy"], None),
    ("2611.09127", 13, "2026-11-11T00:47:52.331Z",
     "TenantFence partitions the prefix cache and KV pool per tenant, sharing only prefixes marked public.",
     ["prefix caching", "multi-tenant serving", "security"], None),
    ("2611.09406", 5, "2026-11-11T03:52:18.076Z",
     "Performance counters reveal eviction-set construction before last-level cache attacks on cloud CPUs.",
     ["cache side channels", "eviction sets", "cloud security"], None),
]

DAY = Day(number=25, date="2026-11-11", pub="Wed, 11 Nov 2026 00:00:00 -0500",
          last_build="Wed, 11 Nov 2026 05:00:41 +0000", seed=20261111,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"CacheSpy", "JIL", "SpecLeak", "PromptSeal",
                                                                  "TokenFlood", "Lathe", "Tessera", "SignKV",
                                                                  "ChordPD", "CoDraft", "BroadSpec", "GlideMoE",
                                                                  "TiltTP", "QuayDecode", "MuxStream", "PatchKV"},
          ids=(46500, 47950), hf=HF, hf_published=("2026-11-10T00:00:00.000Z", "2026-11-10T20:00:00.000Z"),
          prefixes=("Larch", "Rowan", "Linden", "Hornbeam", "Tamarack", "Hickory", "Acacia", "Catalpa",
                    "Ginkgo", "Sequoia"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
