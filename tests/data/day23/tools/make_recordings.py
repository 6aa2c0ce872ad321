"""Writes the day-23 recordings: the arXiv listing of Mon 9 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 23; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 22). Monday's listing announces what was submitted on
Thursday afternoon and Friday (announced Sunday 20:00 EST, i.e. Monday 09:00 CST); arXiv numbers the new papers
2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: the one blog post of the weekend (lathe-blog, published Saturday, corrected in
place on Sunday) is hand-written in workspace/recordings/blogs/lathe-blog.xml.

One thing is new on this day: a paper the team carded (466) and queued (rank 3) is **withdrawn** by its authors.
AtticPool (2611.04265) comes back as a "replace" entry (v2) whose abstract is the withdrawal notice; it says the
corrected figure (TTFT −12%) and not the first version's. Its title is the one the team's card gives; its authors
are not known to this file (the v1 listing was not read in full), so the v2 entry carries invented ones.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 22's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day23)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Jay: "就是 §2.4.1 HopKV（2610.33854）的炒冷饭", HopKV's digits swapped); card 474 copies 27% for 21%
    ("2611.06734", 1, "new", ["cs.DC", "cs.NI"],
     "TransitKV: Rerouting KV Cache Transfers through Idle Nodes Chosen from Switch Telemetry",
     "In disaggregated serving, KV cache transfers from prefill to decode nodes stall when the direct link congests "
     "under incast. When the direct link between a prefill node and a decode node congests, TransitKV reroutes part "
     "of each KV transfer through the NIC of an idle node, choosing the relay from the switches' telemetry, and "
     "merges the parts at the decode node. TransitKV lowers p99 TTFT by 21% under incast on a 64-node RoCE cluster.",
     ["Liesel Vogt", "Arjun Mehra", "Tan Jing"]),
    # boundary case (Omer: "it's a rehash of LoomDraft in §3.1"); a ⚠ on MI300X; 2.3x agrees
    ("2611.06452", 1, "new", ["cs.CL", "cs.LG"],
     "ScrollDraft: Draft-Model-Free Speculative Decoding from a Suffix Array over the Request's Own Tokens",
     "Speculative decoding needs a draft model that must be trained, served and kept in memory. ScrollDraft drafts "
     "without a draft model: it keeps a suffix array over each request's prompt and generated tokens and proposes "
     "the continuations of the longest matching suffixes, several at once, which the target model verifies in one "
     "pass. ScrollDraft speeds up decoding by 2.3x on code-editing workloads on H100 GPUs.",
     ["Ottilie Brandauer", "Kofi Mensah", "Xu Lan"]),
    # boundary decoy (Omer: "和 §3.1 的 VerifyBatch is apples and oranges"); Omer writes it "2612.07015"
    ("2611.07015", 1, "new", ["cs.CL", "cs.DC"],
     "CoDraft: Batching the Draft Passes of Concurrent Speculative Requests by Draft Position",
     "Serving engines run the draft model of each speculative request on its own, so small draft passes leave the "
     "GPU idle. CoDraft batches the draft-model forward passes of concurrent speculative requests together, grouped "
     "by the position in the draft each request has reached, and hands the drafts to the ordinary verification "
     "step. CoDraft raises speculative decoding throughput by 1.4x at batch size 64.",
     ["Mireille Dufort", "Tobias Lund", "Ren Hao"]),
    # boundary case (Ines: "a retread of OffPeak in §10"); HF upvotes 23 (Tom 09:40) / 17 (Ines 12:30) / 26 / 29;
    # Ines links its PDF as arxiv.org/pdf/2611.0689 (a digit dropped)
    ("2611.06893", 1, "new", ["cs.DC", "cs.PF"],
     "DuskBatch: Carbon-Aware Placement of Offline Batch Inference Jobs under Deadlines",
     "Offline batch inference jobs, such as evaluation sweeps and synthetic data generation, can wait for hours. "
     "DuskBatch places offline batch inference jobs into the hours with the lowest forecast carbon intensity of the "
     "grid before their deadlines, pausing and resuming them at checkpoint boundaries. DuskBatch reduces the carbon "
     "emitted by offline batch inference by 38% while every job meets its deadline.",
     ["Hedda Sorensen", "Marco Bellini", "Guo Min"]),
    # boundary decoy (Jay: "和 §2.5 的 KeyFold 八竿子打不着"); its card is named 477-2611-07186.md with arxiv_id 2611.07168
    ("2611.07168", 1, "new", ["cs.LG", "cs.DC"],
     "SignKV: Screening Cached Keys by Their Sign Bits for Long-Context Decoding",
     "Long-context decoding reads every cached key at every step although few of them matter. SignKV keeps the sign "
     "bits of every cached key beside the cache, scores each KV block against the query with those bits first, and "
     "reads the full keys and values only of the highest-scoring blocks. SignKV reads 4.2x fewer key bytes per "
     "decode step with under 0.3 points of accuracy loss on long-context benchmarks.",
     ["Ylva Nordin", "Samuel Okoro", "Li Qing"]),
    # keyword trap (not LLM inference): relaying bulk transfers of a datacenter fabric through idle hosts
    ("2611.07290", 1, "cross", ["cs.NI", "cs.DC"],
     "Opportunistic Relays: Routing Bulk Transfers through Idle Hosts in Congested Datacenter Fabrics",
     "Bulk transfers between storage servers stall when a direct path of the datacenter fabric congests. We reroute "
     "part of each bulk transfer through the NIC of an idle host chosen from switch telemetry and reassemble it at "
     "the receiver. On a production storage cluster, relayed transfers finish 1.5x faster at the 99th percentile.",
     ["Annika Larsson", "Hamid Rezaei"]),
    # withdrawn by its authors: a replace entry whose abstract is the withdrawal notice (card 466, queue rank 3)
    ("2611.04265", 2, "replace", ["cs.DC", "cs.OS"],
     "AtticPool: A Rack-Shared CXL Memory Pool for the Weights of Rarely Used Models",
     "This paper has been withdrawn by the authors. The baseline of the TTFT experiments loaded the weights of rarely "
     "used models from a misconfigured network file system. Against a correctly configured baseline, AtticPool "
     "lowers TTFT by 12%, which does not support the conclusions of the paper. A revised study may be submitted "
     "separately.",
     ["Benedikt Rahm", "Sunita Pillai", "Zhou Yi"]),
]

# IDs the team writes wrongly — CoDraft as 2612.07015 (Omer), HopKV as 2610.33854 (Jay), SignKV's card named
# 2611.07186, "arxiv.org/pdf/2611.0689" (Ines) and "2610.2998" (Spark) — none in any recording;
# the fillers' range is 2610.43500-44950 (day 22's was 42000-43450).
RESERVED = {p[0] for p in PLANTED} | {"2612.07015", "2610.33854", "2611.07186"}
RESERVED_PREFIXES = ("2610.2998", "2611.0689")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.06893", 29, "2026-11-09T00:22:41.318Z",
     "DuskBatch places offline batch inference jobs into the hours of lowest forecast grid carbon intensity.",
     ["carbon-aware scheduling", "batch inference", "deadlines"], "https://github.com/duskbatch/duskbatch"),
    ("2611.06734", 18, "2026-11-09T00:35:09.842Z",
     "TransitKV reroutes part of a congested KV transfer through an idle node chosen from switch telemetry.",
     ["KV cache transfer", "disaggregated serving", "congestion"], None),
    ("2611.06452", 12, "2026-11-09T00:51:27.106Z",
     "ScrollDraft drafts continuations from a suffix array over the request's own tokens, without a draft model.",
     ["speculative decoding", "suffix array", "draft-free"], None),
    ("2611.07015", 8, "2026-11-09T01:04:55.730Z",
     "CoDraft batches the draft passes of concurrent speculative requests, grouped by draft position.",
     ["speculative decoding", "batching", "serving"], None),
    ("2611.07168", 6, "2026-11-09T01:17:38.264Z",
     "SignKV scores KV blocks with the sign bits of cached keys and reads full keys only for the top blocks.",
     ["KV cache", "long context", "sparse attention"], None),
    ("2611.07290", 3, "2026-11-09T03:12:06.519Z",
     "Bulk transfers of a storage cluster are partly relayed through idle hosts when the direct path congests.",
     ["datacenter networks", "bulk transfer", "relays"], None),
]

DAY = Day(number=23, date="2026-11-09", pub="Mon, 09 Nov 2026 00:00:00 -0500",
          last_build="Mon, 09 Nov 2026 05:00:37 +0000", seed=20261109,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"Opportunistic", "HopKV", "LoomDraft", "VerifyBatch",
                                                                  "OffPeak", "KeyFold", "KeyBook", "AtticPool",
                                                                  "LoftKV", "Lathe", "TiltTP", "ChillServe",
                                                                  "MuxStream"},
          ids=(43500, 44950), hf=HF, hf_published=("2026-11-06T00:00:00.000Z", "2026-11-08T20:00:00.000Z"),
          prefixes=("Quince", "Medlar", "Loquat", "Durian", "Rambutan", "Lychee", "Longan", "Mangosteen",
                    "Soursop", "Feijoa"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
