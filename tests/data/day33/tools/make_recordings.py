"""Writes the day-33 recordings: the arXiv listing of Mon 23 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 33; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 32). Monday's listing announces what was submitted on
Thursday evening and Friday (announced Sunday 20:00 EST, i.e. Monday 09:00 CST), as on days 13, 23 and 28; arXiv
numbers the new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month);
no rule reads them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a multi-LoRA and structured-output day: five new papers (thousands of LoRA adapters batched in one
decode step, adapters and KV blocks paged in one pool, requests routed to replicas holding their adapter, the
grammar mask overlapped with the forward pass, schema-forced token runs verified as drafts) and a keyword trap.
HiveLoRA's abstract compares against two named systems with two factors (2.4x over S-LoRA, 3.7x over Punica); Jay
quotes the Punica factor as S-LoRA's. GramJet's abstract lists its mask overheads "respectively" (2.7%, 4.6%,
8.3% for JSON schema, regex, EBNF); Ines quotes the regex figure as JSON's. SchemaLeap's abstract writes a result in
brackets ("(1.6x on average)") beside a condition in brackets ("(batch 32)"); card 519 writes the average as 1.8x.
DockLoRA does what TwinPage (2610.32266, §2.1: "KV blocks and LoRA adapter weights in one GPU page pool, pages
evicted by the cost of reloading them") does, by Jay's word ("抄作业"); TetherRoute what AdaptRoute (2610.26044,
§2.3: "each request sent to a replica that already holds its LoRA adapter, the adapter loaded elsewhere only when
those replicas are full") does, by Maarten's English card ("reheated"). HiveLoRA is set apart from TwinPage (Jay,
"不在一个层面"), SchemaLeap from LoomDraft (2610.15138, §3.1; Ines, "不是一家人"); GramJet overlaps nothing anchored
(Jay, "找不到对家"). ValiNIC is the keyword trap (JSON schemas validated on SmartNIC adapters, no LLM).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 32's do.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day33)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary decoy (Jay: "HiveLoRA 和 §2.1 的 TwinPage 不在一个层面"); Jay quotes "吞吐比 S-LoRA 高 3.7×" (the
    # abstract: 2.4x over S-LoRA, 3.7x over Punica); card 516 writes both right and a companion "已经挂了 2612.05173";
    # Ines writes "HiveLoRA（2611.18374）" (two digits swapped); HF 54 (Tom 09:30) / 65 (card 516, 16:00) / 77: rising
    ("2611.18347", 1, "new", ["cs.DC", "cs.LG"],
     "HiveLoRA: Batching Thousands of LoRA Adapters in One Decode Step with Segmented Gather Kernels",
     "Multi-tenant LLM services fine-tune one base model into thousands of LoRA adapters, but serving systems batch "
     "the requests of different adapters poorly: each adapter's low-rank product runs as a separate small kernel, or "
     "adapters are padded to the largest rank. HiveLoRA sorts the requests of a decode step by adapter, computes every "
     "segment's low-rank product with one segmented gather kernel across ranks from 8 to 64, and keeps up to 2,000 "
     "adapters per GPU in a rank-packed memory layout. On Llama-3-8B with 1,000 adapters on one A100, HiveLoRA serves "
     "41 requests/s under a 60 ms TPOT SLO, a 2.4x throughput gain over S-LoRA and 3.7x over Punica.",
     ["Ingrid Solheim", "Tobias Reinhardt", "Lin Yuqing"]),
    # boundary case (Jay: "DockLoRA 就是照着 §2.1 的 TwinPage（2610.32266）抄作业"); Jay: its README calls it
    # "2610.3226 的后传" (TwinPage's ID with a digit dropped); Jay quotes "换入平均 3.2 s" (the abstract: 3.2 ms);
    # Spark writes "DockLoRA（2611.18790）", GramJet's ID; no card; HF 45 (Tom 09:30) / 57 (fetch): rising
    ("2611.18529", 1, "new", ["cs.DC", "cs.OS"],
     "DockLoRA: Paging LoRA Adapters and KV Blocks in One GPU Pool with Reload-Cost Eviction",
     "Serving many LoRA adapters on one GPU forces a choice between memory for adapters and memory for the KV cache. "
     "DockLoRA places adapter weights and KV-cache blocks in one paged pool, evicts whichever pages are cheapest to "
     "bring back, and prefetches the adapters of queued requests over PCIe while earlier requests decode. It brings a "
     "rank-16 adapter into GPU memory in 3.2 ms on average and, with 500 adapters on an A100, lowers p99 TTFT by 42% "
     "against a fixed-size adapter cache.",
     ["Rafael Quintero", "Aino Virtanen", "Deng Haotian"]),
    # boundary case (Maarten's English card 517: "TetherRoute is AdaptRoute reheated"); HF 67 (Tom 09:30) / 59 (card
    # 517, 16:10) / 81 (fetch): fell
    ("2611.18612", 1, "new", ["cs.DC", "cs.NI"],
     "TetherRoute: Adapter-Resident Routing for Multi-LoRA Serving Clusters",
     "In a cluster serving thousands of LoRA adapters, a request sent to a replica that does not hold its adapter waits "
     "for the adapter to load. TetherRoute sends each request to a replica that already holds its adapter, loads the "
     "adapter on another replica only when those are saturated, and rebalances adapter copies every minute from "
     "per-adapter request rates. Across 64 replicas and 5,000 adapters, TetherRoute performs 7.4x fewer adapter loads "
     "and lowers p99 TTFT by 38% compared with least-load routing.",
     ["Colm Gallagher", "Sunita Raghavan", "Pavel Horák"]),
    # boundary decoy (Jay: "GramJet 在文档里找不到对家", no paper named); Ines quotes "JSON schema … 4.6%" (the
    # abstract: 2.7%, 4.6% and 8.3% for JSON schema, regex and EBNF, respectively); Jay's EBNF 8.3% is right; Spark
    # measures 6.1% on H20 (another GPU); card 518 writes https://huggingface.co/papers/2611.1879 (four digits);
    # HF 69 (Tom 09:30) / 78 (card 518, 16:20) / 91 (fetch): rising
    ("2611.18790", 1, "new", ["cs.CL", "cs.LG"],
     "GramJet: Overlapping Grammar Mask Computation with the Forward Pass in Constrained LLM Decoding",
     "Grammar-constrained decoding computes at every step the mask of the tokens the grammar allows, and with "
     "vocabularies of 128K tokens the mask computed on the CPU stalls the GPU between steps. GramJet precomputes the "
     "context-independent part of each automaton state's mask, computes the rest on the CPU while the GPU runs the "
     "forward pass, and applies the mask inside the sampling kernel. On Llama-3-8B on H100 at batch 64, the overhead "
     "of the grammar mask falls to 2.7%, 4.6% and 8.3% of decode time for JSON-schema, regular-expression and EBNF "
     "grammars, respectively, from 31%, 36% and 52% without overlap, and the engine serves 1.9x the requests/s of its "
     "default grammar backend.",
     ["Noor Haddad", "Emil Lindberg", "Gao Ziyi"]),
    # boundary decoy (Ines: "SchemaLeap 和 §3.1 的 LoomDraft 不是一家人"); card 519 is named 519-2612-18953.md with
    # arxiv_id 2611.18953 and writes "平均 1.8×" (the abstract: "(1.6x on average)"); Spark measures 11.6 ms per
    # output token at batch 8 on H20 (the abstract: batch 32, H100); HF 39 / 43 (card 519, 16:30) / 55: rising
    ("2611.18953", 1, "new", ["cs.CL", "cs.LG"],
     "SchemaLeap: Emitting Schema-Forced Token Runs as Verified Drafts in JSON-Constrained Decoding",
     "In JSON output constrained by a schema, long runs of tokens are forced by the schema: keys, quotes, braces and "
     "separators. SchemaLeap compiles the schema into an automaton that proposes each forced run as a block of draft "
     "tokens, verifies the block in one forward pass as speculative decoding does, and falls back to token-by-token "
     "masking where the model has a choice. On schema-constrained extraction benchmarks with Llama-3-8B on H100 "
     "(batch 32), SchemaLeap speeds up JSON generation by 1.4-1.9x (1.6x on average) over token-by-token constrained "
     "decoding and cuts the time per output token from 14.2 ms to 8.9 ms.",
     ["Beatriz Almeida", "Kenji Oyama", "Florin Dumitrescu"]),
    # keyword trap (not LLM inference): JSON schema, grammar, constrained decoding, adapters, batching, requests/s,
    # % overhead, p99 latency — SmartNIC adapters validating web requests
    ("2611.19076", 1, "cross", ["cs.NI", "cs.DC"],
     "ValiNIC: Validating JSON Schemas on SmartNIC Adapters with Grammar-Constrained Packet Decoding",
     "Web services spend a large share of their CPU time parsing JSON requests and validating them against schemas. "
     "ValiNIC compiles each JSON schema into a grammar automaton that runs on a SmartNIC adapter, decodes and "
     "validates requests under the constraints of the schema as their packets arrive, and drops invalid requests "
     "before they reach the host. Batching up to 256 schemas per adapter, ValiNIC sustains 2.6 million requests/s per "
     "adapter with 3% host CPU overhead and lowers the p99 latency of a REST gateway by 41%.",
     ["Mireille Dubois", "Kwame Asante"]),
]

# IDs the team writes wrongly — HiveLoRA written 2611.18374 (Ines, two digits swapped), SchemaLeap's card named
# 2612.18953, DockLoRA written beside GramJet's 2611.18790 (Spark), AdaptRoute written 2610.26034 (Omer),
# "2610.3226" (Jay, TwinPage's with a digit dropped, beside 后传), "https://huggingface.co/papers/2611.1879" (card
# 518, GramJet's with a digit dropped), "arXiv 2600.11517" (Ines, month 00), the companion "2612.05173" (card 516),
# the snapshot size 1311.40962 GB (Omer) and the old 2106.09685 and 2311.03285 (Ines) — none in any recording; the
# fillers' range is 2610.58500-59950 (day 32's was 57000-58450).
RESERVED = {p[0] for p in PLANTED} | {"2611.18374", "2612.18953", "2610.26034", "2610.26044", "2610.32266",
                                       "2610.15138", "2600.11517", "2610.11517", "2612.05173", "1311.40962",
                                       "2106.09685", "2311.03285", "2611.17418"}
RESERVED_PREFIXES = ("2610.3226", "2611.1879", "2611.1837", "2612.1895", "2610.2603", "2610.2604", "2600.1151",
                     "2612.0517")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.18790", 91, "2026-11-23T00:09:27.318Z",
     "GramJet overlaps the grammar mask of constrained decoding with the GPU forward pass and applies it in the "
     "sampling kernel.",
     ["constrained decoding", "grammar mask", "structured output"], "https://github.com/gramjet/gramjet"),
    ("2611.18612", 81, "2026-11-23T00:21:44.905Z",
     "TetherRoute routes each request of a multi-LoRA cluster to a replica that already holds its adapter.",
     ["multi-LoRA", "routing", "adapters"], None),
    ("2611.18347", 77, "2026-11-23T00:34:12.561Z",
     "HiveLoRA batches requests of thousands of LoRA adapters in one decode step with a segmented gather kernel.",
     ["LoRA serving", "batching", "kernels"], None),
    ("2611.18529", 57, "2026-11-23T00:47:58.240Z",
     "DockLoRA pages LoRA adapters and KV blocks in one GPU pool and evicts by reload cost.",
     ["LoRA adapters", "KV cache", "paging"], None),
    ("2611.18953", 55, "2026-11-23T01:02:31.876Z",
     "SchemaLeap proposes the token runs a JSON schema forces as drafts and verifies them in one forward pass.",
     ["JSON schema", "constrained decoding", "speculative decoding"], "https://github.com/schemaleap/schemaleap"),
    ("2611.19076", 4, "2026-11-23T05:52:16.409Z",
     "A SmartNIC validates JSON requests against schemas with a grammar automaton before they reach the host.",
     ["SmartNIC", "JSON schema", "packet processing"], None),
]

DAY = Day(number=33, date="2026-11-23", pub="Mon, 23 Nov 2026 00:00:00 -0500",
          last_build="Mon, 23 Nov 2026 05:00:41 +0000", seed=20261123,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"TwinPage", "AdaptRoute", "LoomDraft", "SwapServe",
                                                                  "JagPage", "VeloAttn", "TraceFuse", "Punica",
                                                                  "SGLang", "Lathe", "LoRA", "S-LoRA"},
          ids=(58500, 59950), hf=HF, hf_published=("2026-11-20T00:00:00.000Z", "2026-11-22T20:00:00.000Z"),
          prefixes=("Asiago", "Camembert", "Edam", "Emmental", "Fontina", "Gruyere", "Mascarpone", "Pecorino",
                    "Provolone", "Raclette"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
