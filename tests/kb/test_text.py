"""What an anchor line says once its anchoring (IDs, URLs, "(anchored …)" dates, link syntax) is gone."""
from __future__ import annotations

import pytest

from kb.text import strip_anchor_syntax


@pytest.mark.parametrize("line,label", [
    ("SlimWise 2610.01234 (anchored 2026-10-08)", "SlimWise"),
    ("2610.01234 (anchored 2026-10-08)", ""),
    ("[2610.01234](https://arxiv.org/abs/2610.01234)（锚定 2026-10-08）", ""),
    ("[Mooncake](https://arxiv.org/abs/2407.00079) — KV-centric serving", "Mooncake — KV-centric serving"),
    ("**Mooncake** — [arXiv:2407.00079](https://arxiv.org/abs/2407.00079) (anchored 2026-10-01)", "**Mooncake**"),
    ("Mooncake (arXiv 2407.00079): KV-centric", "Mooncake: KV-centric"),
    ("DistServe arXiv:2401.09670 — disaggregated prefill", "DistServe — disaggregated prefill"),
    ("vLLM blog https://blog.vllm.ai/2026/10/01/kv.html KV offload", "vLLM blog KV offload"),
    ("arXiv: A Retrospective", "arXiv: A Retrospective"),     # a title's own words and brackets are kept
    ("A fork() in the road", "A fork() in the road"),
    ("Large-Scale Analysis of Code on arXiv", "Large-Scale Analysis of Code on arXiv"),
    ("Bias in arXiv — a survey", "Bias in arXiv — a survey"),
    ("ArXiv", "ArXiv"),
    ("Accelerating .NET Workloads [v2] <draft>", "Accelerating .NET Workloads [v2] <draft>"),
    ("SlimWise [2610.09701] — pruning", "SlimWise — pruning"),
])
def test_an_anchor_line_keeps_its_words_and_loses_its_anchoring(line: str, label: str) -> None:
    assert strip_anchor_syntax(line) == label
