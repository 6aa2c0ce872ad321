"""Numbers with units read as claims (``pipeline.brief.claims``): what is a measurement of which subject,
and which pairs of sources disagree. Each case is a pair of sources an analyst would read the same way."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.figures import conflicts
from pipeline.brief.rules import load_rules

RULES = load_rules()
QUANTITIES, SAID_OF, WORDS = RULES.quantities, RULES.said_of, RULES.claim_words


def _disagree(a: str, b: str, item: set[str] = frozenset()) -> list:
    """The conflicts of two texts about one item whose own names (folded) are ``item``."""
    return conflicts(claims_in(a, "note A", QUANTITIES, SAID_OF, WORDS) + claims_in(b, "note B", QUANTITIES, SAID_OF, WORDS),
                     set(item))


@pytest.mark.parametrize(("a", "b"), [
    ("vLLM 8×H100 基线", "vLLM 4×H100"),                      # a count of GPUs is no speed-up
    ("TP4×DP2 部署", "TP8×DP1 部署"),                          # parallel degrees
    ("vLLM 0.10 x86 CPU 后端", "vLLM 0.11 x86 wheel"),         # a version before "x86"
    ("吞吐 vs vLLM：2.1×", "吞吐 vs vLLM：1.4×"),               # two gains over one baseline, not vLLM's own
    ("Llama-3.1-70B 140 GB", "Qwen2.5-72B 145 GB"),           # two models, and no system called "B"
    ("p50 latency 40 ms", "p99 latency 120 ms"),              # two statistics
    ("Mooncake 46.1 GB/s", "Mooncake 46.1 GB/s"),             # a consistent repeat
    ("TTFT 降低 30%", "TTFT 380 ms"),                          # a relative change and a time
    ("accuracy drops 2%", "accuracy drops 3%"),               # no quantity of serving named
    ("Mooncake 46 GB/s", "Mooncake 46.1 GB/s"),                 # the same figure, rounded
    ("基线 SGLang TTFT: 310 ms（32k prompt）", "我们复现的 KVQuilt TTFT: 180 ms（32k prompt）"),   # two systems
    ("vLLM 的 TTFT 1.9 s。", "FooServe TTFT 0.8 s."),
    ("TPOT 降低 12%", "cuts TTFT and TPOT SLO violations by 47%"),   # the misses of a TPOT objective, no TPOT
    ("Lathe 2.4.2 p99 TTFT 1.9 s", "Lathe 2.4.3 p99 TTFT 2.0 s"),     # two releases
])
def test_what_an_analyst_would_not_call_a_conflict(a: str, b: str) -> None:
    assert _disagree(a, b) == []


@pytest.mark.parametrize(("a", "b", "subject", "quantity"), [
    ("Mooncake 46.1 GB/s", "Mooncake 38 GB/s", "Mooncake", "bandwidth"),
    ("TierKV 3.1× speed-up", "TierKV 2.4× speed-up", "TierKV", "speed-up"),
    ("DeepEP-v2: 2.1x", "DeepEP-v2: 2.5x", "DeepEP-v2", "speed-up"),
    ("FlashPD 1.8× A100 上", "FlashPD 2.2× A100 上", "FlashPD", "speed-up"),   # a speed-up on a device
    ("TierKV 2× speed-up", "TierKV 2.4× speed-up", "TierKV", "speed-up"),      # one digit: no rounding of 2.4
    ("TTFT 380 ms", "TTFT 420 ms", None, "TTFT"),
    ("p99 latency 120 ms", "p99 延迟 150 ms", None, "p99 latency"),
    ("吞吐提升 30%", "吞吐提升 12%", None, "throughput"),
    ("TTFT 从 1.9 s 降到 0.8 s", "TTFT 降到 1.2 s", None, "TTFT"),        # where it went, not where it started
    ("TTFT 300 ms → 200 ms", "TTFT 250 ms", None, "TTFT"),
    ("Mooncake 传输带宽 46.1 GB/s", "Mooncake 传输带宽 38 GB/s", "Mooncake", "bandwidth"),
    # day 3's BurstGuard: the note's −44% against the abstract's 38%, one quantity in two languages, each naming
    # its system (a sign before the value, a keyword written in the plural)
    ("生产 trace 上 BurstGuard 让 SLO 违约 −44%", "BurstGuard reduces SLO violations by 38% relative to FCFS",
     "BurstGuard", "SLO violations"),
    # day 12: the abstract's "speeds up … 3.1x" (a verb, as "slows down" is a slowdown) against a note's 3.4×
    ("SkimFill speeds up the prefill of 128K-token prompts 3.1x", "128K prompt 的 prefill 加速 3.4×", None, "speed-up"),
    # day 12: a blog's figure of a system its sentence reports on, against a note's (the system is the subject of
    # a reporting verb, an ID or not between; "by" or a sign before the value)
    ("Across our 512 replicas HydraRoute lowered p99 TTFT by 21%.", "HydraRoute (2610.12077) reports p99 TTFT −35%",
     "HydraRoute", "TTFT"),
    # day 25: a release's cost in a vendor's advisory against the team's replay, each naming the release
    ("On multi-tenant chat traffic in our benchmarks, Lathe 2.4.3 adds about 3% to p99 TTFT.",
     "昨晚的多租户 chat trace 回放：升到 Lathe 2.4.3 以后 p99 TTFT 多了 6%", "Lathe 2.4.3", "TTFT"),
    ("KVShield 的 p99 TTFT 多 5.5%", "KVShield p99 TTFT +3%", "KVShield", "TTFT"),   # a percentile, a sign between
])
def test_the_same_quantity_of_the_same_subject_with_two_values_is_one(a: str, b: str, subject, quantity) -> None:
    [(who, what, _unit, values)] = _disagree(a, b)
    assert (who, what) == (subject, quantity) and len(values) == 2


@pytest.mark.parametrize(("text", "pairs"), [
    ("TODO: 2610.08812 精读", []),                                  # a status word is no system
    ("对比 SGLang，2610.12077 的 TTFT 低 30%", []),                   # the baseline, not 2610.12077's name
    ("相比 vLLM，2610.13001 更快", []),
    ("FlashPD 和 HydraRoute（2610.12077）", [("HydraRoute", "2610.12077")]),
    ("见 SpecMesh：2610.11111", [("SpecMesh", "2610.11111")]),
    ("有人说 DeadlineBump（arXiv：2610.19817）已经有厂在线上用了", [("DeadlineBump", "2610.19817")]),   # a full-width colon
    ("FooServe (arXiv. 2610.12345)", [("FooServe", "2610.12345")]),
])
def test_which_names_are_tied_to_an_id(text: str, pairs: list) -> None:
    from pipeline.brief.entities import name_id_pairs
    assert name_id_pairs(text, WORDS.compared) == pairs


@pytest.mark.parametrize(("a", "b"), [
    ("TierKV 吞吐 2.1× → §3.3", "TierKV 吞吐 3.0×"),            # an arrow to a section is no change of value
    ("Mooncake 46.1 GB/s to each GPU", "Mooncake 38 GB/s"),     # "to" before no number
    ("Results from TierKV: 2.1×", "Results from TierKV: 3.0×"),  # "from" a name is no baseline
    ("Moreover TierKV 2.1× faster", "Moreover TierKV 3.0× faster"),
    ("TierKV throughput 2.1× 8 GPUs", "TierKV throughput 3.0× 8 GPUs"),
])
def test_real_conflicts_stay_flagged(a: str, b: str) -> None:
    assert len(_disagree(a, b)) == 1


def test_a_gain_over_a_named_baseline_is_the_items_and_a_later_percentage_is_its_own_clause() -> None:
    assert _disagree("吞吐提升 2.1×，精度损失 <1%", "吞吐提升 30%") == []
    [(who, what, _u, _v)] = _disagree("相比 vLLM 吞吐 2.1×", "相比 vLLM 吞吐 1.6×")
    assert who is None and what == "throughput"     # the item's own gain, not a figure of vLLM's


def test_a_rounded_figure_does_not_hide_a_third_that_differs() -> None:
    found = conflicts([*claims_in("Mooncake 46 GB/s", "a", QUANTITIES, SAID_OF, WORDS), *claims_in("Mooncake 46.1 GB/s", "b", QUANTITIES, SAID_OF, WORDS),
                       *claims_in("Mooncake 45.8 GB/s", "c", QUANTITIES, SAID_OF, WORDS)], set())
    [(who, _q, _u, values)] = found
    assert who == "Mooncake" and set(values) == {"46 GB/s", "46.1 GB/s", "45.8 GB/s"}


def test_a_compared_name_in_parentheses_keeps_its_own_id() -> None:
    from pipeline.brief.entities import name_id_pairs
    assert name_id_pairs("相比 FlashPD（2610.11824），本文更快", WORDS.compared) == [("FlashPD", "2610.11824")]


# --- decisions the mutation round found untested ------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [
    ("TierKV 2.4x", "TierKV 2.41×"),       # the same figure rounded, x or ×
    ("TTFT 1.9 s", "TTFT 1.93秒"),          # s or 秒
])
def test_a_rounded_figure_in_another_spelling_of_its_unit_is_no_conflict(a: str, b: str) -> None:
    assert _disagree(a, b) == []


@pytest.mark.parametrize(("a", "b"), [
    ("LMCache TTFT 12 s", "LMCache TTFT 12.3 ms"),   # the digits round, the units do not: 12 s is no 12.3 ms
    ("TierKV 2.4×", "TierKV 2.46×"),                   # 2.46 rounds to 2.5, not 2.4
])
def test_figures_that_only_look_rounded_still_conflict(a: str, b: str) -> None:
    assert len(_disagree(a, b)) == 1


@pytest.mark.parametrize("a", ["TTFT 180 ms（冷启动 950 ms）",
                               "2) TTFT 180 ms（冷启动 950 ms）"])   # a list number's ")" opens nothing
def test_a_condition_in_parentheses_is_not_a_second_value_of_the_source(a: str) -> None:
    [(who, what, _u, values)] = _disagree(a, "TTFT 210 ms")
    assert (who, what) == (None, "TTFT") and set(values) == {"180 ms", "210 ms"}


def test_a_version_before_a_figure_is_no_system() -> None:
    # "V2" is the item's own version, not a system called V2 (two items' V2s would be compared across items)
    assert all(c.subject is None for c in claims_in("V2 吞吐 2.1×", "A", QUANTITIES, SAID_OF, WORDS))
    assert claims_in("V2 吞吐 2.1×", "A", QUANTITIES, SAID_OF, WORDS)


def test_a_keyword_a_few_characters_after_the_figure_names_its_quantity() -> None:
    [(who, what, _u, _v)] = _disagree("提升 2.1× 的吞吐", "提升 1.6× 的吞吐")
    assert (who, what) == (None, "throughput")
    # a share of requests is no TTFT: the keyword is too far after the figure
    assert _disagree("30% 请求的 TTFT 380 ms", "50% 请求的 TTFT 超过 SLO") == []


def test_a_quantity_a_figure_is_said_of_after_it_is_its_own() -> None:
    """"adds 6% to TTFT and 4% to the time per output token": the 4% is TPOT's, not the TTFT written before it
    (that keyword is the 6%'s), and TPOT's long name is TPOT as TTFT's is TTFT. A note saying the same in
    short ("TTFT +6%，TPOT +4%") agrees with it (day 4's VeilServe abstract was a TTFT conflict)."""
    abstract = "On H100 GPUs, FooServe adds 6% to TTFT and 4% to the time per output token."
    assert [(c.quantity, c.written) for c in claims_in(abstract, "A", QUANTITIES, SAID_OF, WORDS)] == [("TTFT", "6%"), ("TPOT", "4%")]
    assert _disagree(abstract, "机密计算模式下：TTFT +6%，TPOT +4%", {"fooserve"}) == []
    assert _disagree(abstract, "机密计算模式下：TTFT +9%，TPOT +4%", {"fooserve"}) != []
    # a share is no measurement of what it is a share of; a keyword inside a longer word names nothing
    assert claims_in("KV takes 30% of the memory", "A", QUANTITIES, SAID_OF, WORDS) == []
    # the words between a figure and its quantity that say which of it (day 13's doc line): its own
    [c] = claims_in("ToolCache — pinned KV, −38% end-to-end agent latency", "A", QUANTITIES, SAID_OF, WORDS)
    assert (c.quantity, c.written) == ("latency", "−38%")
    assert [c.quantity for c in claims_in("cuts TTFT by 38% to memory-bound levels", "A", QUANTITIES, SAID_OF, WORDS)] == ["TTFT"]


def test_an_unnamed_bare_factor_is_no_speed_up() -> None:
    assert _disagree("batch size 增大 4×", "batch size 增大 2×") == []
    assert claims_in("batch size 增大 4×", "A", QUANTITIES, SAID_OF, WORDS) == []


def test_microseconds_compare_with_milliseconds() -> None:
    assert _disagree("延迟 800 us", "延迟 0.8 ms") == []
    assert _disagree("延迟 800 µs", "延迟 0.8 ms") == []


def test_a_figure_with_thousands_separators_and_decimals_is_read_whole() -> None:
    [c] = claims_in("SGLang 吞吐 1,234.5 tokens/s", "A", QUANTITIES, SAID_OF, WORDS)
    assert (c.subject, c.value, c.written) == ("SGLang", 1234.5, "1,234.5 tokens/s")
    assert _disagree("1,234 tok/s", "1,234.5 tokens/s") == []     # rounded, in another spelling


# --- a figure's sign ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "written"), [
    ("生产 trace 上 BurstGuard 让 SLO 违约 −44%（对比 FCFS）", "−44%"),   # the minus sign, after CJK text
    ("SLO violations -44% vs FCFS", "-44%"),                          # a hyphen-minus after a space
    ("SGLang decode 吞吐 +25%", "+25%"),
    ("p99 TTFT −34%（32K prompt）", "−34%"),
    ("SLO 违约降低 30-40%", "30–40%"),                                  # a range, one figure: no sign
])
def test_a_sign_written_before_a_figure_is_part_of_it(text: str, written: str) -> None:
    assert [c.written for c in claims_in(text, "A", QUANTITIES, SAID_OF, WORDS)][-1] == written


def test_a_conflict_shows_each_figure_with_its_sign() -> None:
    [(_who, _what, _unit, values)] = _disagree("生产 trace 上 BurstGuard 让 SLO 违约 −44%",
                                               "BurstGuard reduces SLO violations by 38% relative to FCFS")
    assert set(values) == {"−44%", "38%"}


def test_a_figure_and_the_same_figure_with_a_sign_agree_and_the_sign_is_shown() -> None:
    """"reduces … by 38%" and "−38%" are one claim: compared without the sign, shown with it."""
    claims = [*claims_in("BurstGuard reduces SLO violations by 38% relative to FCFS", "abstract", QUANTITIES, SAID_OF, WORDS),
              *claims_in("SLO 违约 −38%（对比 FCFS）", "card", QUANTITIES, SAID_OF, WORDS),
              *claims_in("BurstGuard 让 SLO 违约 −44%", "note", QUANTITIES, SAID_OF, WORDS)]
    [(_who, _what, _unit, values)] = conflicts(claims, {"burstguard"})   # the item's own name is the item
    assert values == {"−38%": ["abstract", "card"], "−44%": ["note"]}
    assert _disagree("TTFT −34%", "TTFT 降低 34%") == [] and _disagree("TTFT −34%", "TTFT −34.2%") == []


def test_the_same_figure_with_opposite_signs_is_a_conflict() -> None:
    """"+25%" and "−25%" went unflagged: figures were compared without their sign. Two explicit signs the
    other way round say the figure goes opposite ways; an unsigned figure still agrees with either alone."""
    [(_who, _what, _unit, values)] = _disagree("SGLang decode 吞吐 +25%", "SGLang decode 吞吐 −25%")
    assert values == {"+25%": ["note A"], "−25%": ["note B"]}
    assert _disagree("SGLang decode 吞吐 +25%", "SGLang decode 吞吐 25%") == []



def test_a_keyword_before_a_figure_stays_its_own_whatever_follows_to() -> None:
    """"TTFT drops 40% to the latency of a cache hit" measures TTFT: the quantity after "to" is what the
    figure is said of only when none of its own is written before it (or the one before is an earlier
    figure's, "adds 6% to TTFT and 4% to …"). It was read as a latency of 40%, the throughput's 2.1× as a
    bandwidth, the memory's 30% as a TTFT."""
    said = {t: [(c.quantity, c.written) for c in claims_in(t, "A", QUANTITIES, SAID_OF, WORDS)] for t in (
        "TTFT drops 40% to the latency of a cache hit",
        "Throughput rises 2.1× to the bandwidth roofline",
        "FooServe reduces memory 30% to the TTFT budget of one GPU",
        "FooServe adds 6% to TTFT and 4% to the time per output token")}
    assert said == {"TTFT drops 40% to the latency of a cache hit": [("TTFT", "40%")],
                    "Throughput rises 2.1× to the bandwidth roofline": [("throughput", "2.1×")],
                    "FooServe reduces memory 30% to the TTFT budget of one GPU": [("memory", "30%")],
                    "FooServe adds 6% to TTFT and 4% to the time per output token": [("TTFT", "6%"), ("TPOT", "4%")]}


def test_the_words_a_figure_is_said_of_with_are_the_rules_data(tmp_path) -> None:
    """"to" (and "the" after it) was matched in code; it is ``[said_of]`` in data/briefing.toml, which a
    workspace may override: without a connector the 6% is said of nothing and the 4% is read with the TTFT
    written before it."""
    text = "FooServe adds 6% to TTFT and 4% to the time per output token"
    assert (SAID_OF.connectors, SAID_OF.articles) == (("to",), ("the",))
    override = tmp_path / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    shipped = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")
    override.write_text(shipped.replace('connectors = ["to"]', "connectors = []", 1), encoding="utf-8")
    rules = load_rules(tmp_path)
    assert [(c.quantity, c.written) for c in claims_in(text, "A", rules.quantities, rules.said_of, rules.claim_words)] == [
        ("TTFT", "4%")]
    assert [(c.quantity, c.written) for c in claims_in(text, "A", QUANTITIES, SAID_OF, WORDS)] == [("TTFT", "6%"),
                                                                                          ("TPOT", "4%")]


def test_a_rules_copy_made_before_a_table_was_added_reads_kbs_table(tmp_path) -> None:
    """A workspace's data/briefing.toml copied before kb added ``[said_of]`` and ``[claim_words]`` has
    neither: it reads kb's own, not none (which silently lost "from"/"vs" baselines and "adds 6% to TTFT");
    a table the team writes empty stays empty."""
    import re
    shipped = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")
    older = re.sub(r"(?ms)^\[(said_of|claim_words)\]\n.*?(?=^\[)", "", shipped)
    assert "[said_of]" not in older and "[claim_words]" not in older and "[quantities]" in older
    override = tmp_path / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    override.write_text(older, encoding="utf-8")
    rules = load_rules(tmp_path)
    assert (rules.said_of, rules.claim_words) == (SAID_OF, WORDS)
    override.write_text(older + "\n[said_of]\n", encoding="utf-8")
    assert load_rules(tmp_path).said_of.connectors == ()


def _rules_with(tmp_path, old: str, new: str):
    """The rules of a workspace whose data/briefing.toml is the shipped one with ``old`` written ``new``."""
    override = tmp_path / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    shipped = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")
    assert old in shipped
    override.write_text(shipped.replace(old, new, 1), encoding="utf-8")
    return load_rules(tmp_path)


def _read(text: str, rules) -> list[tuple[str | None, str, str]]:
    return [(c.subject, c.quantity, c.written) for c in claims_in(text, "A", rules.quantities, rules.said_of,
                                                                   rules.claim_words)]


@pytest.mark.parametrize("key, word, text, shipped, extended", [
    # a capitalised word that names no system: the 2.1× is the item's own, not "Typically"'s
    ("not_names", "typically", "Typically 2.1× throughput", [("Typically", "throughput", "2.1×")],
     [(None, "throughput", "2.1×")]),
    # a baseline's value, not compared: "原来 1.9 s" is what the TTFT was
    ("baseline", "原来", "TTFT 原来 1.9 s", [(None, "TTFT", "1.9 s")], []),
    # the value a change starts from, not compared: "1.9 s 变为 0.8 s" compares the 0.8 s only
    ("changed_to", "变为", "TTFT 1.9 s 变为 0.8 s", [(None, "TTFT", "1.9 s"), (None, "TTFT", "0.8 s")],
     [(None, "TTFT", "0.8 s")]),
])
def test_the_words_that_decide_which_numbers_are_compared_are_the_rules_data(tmp_path, key: str, word: str,
                                                                               text: str, shipped, extended) -> None:
    """Which capitalised words name no system, and which words mark a baseline's value or the value a change
    starts from, were English and Chinese words in code; they are ``[claim_words]`` in data/briefing.toml,
    which a team extends for its own wording."""
    assert _read(text, RULES) == shipped
    line = next(ln for ln in (Path(__file__).resolve().parents[3] / "data" / "briefing.toml")
                .read_text(encoding="utf-8").splitlines() if ln.startswith(f"{key} = ["))
    rules = _rules_with(tmp_path, line, line.replace("[", f'["{word}", ', 1))
    assert _read(text, rules) == extended


def test_the_shipped_claim_words_read_as_the_code_did() -> None:
    """The words that moved from code to ``[claim_words]``: a baseline's value and a change's first value are
    not compared, whole words only ("over" is not the end of "Turnover", "to" not the start of "token")."""
    assert _read("FooServe TTFT from 1.9 s, 从 2.0 s, vs vLLM: 2.1×", RULES) == []
    assert _read("TTFT 1.9 s to 0.8 s；TTFT 300 ms 降到 200 ms", RULES) == [(None, "TTFT", "0.8 s"),
                                                                         (None, "TTFT", "200 ms")]
    assert _read("Turnover 2.1× throughput", RULES) == [("Turnover", "throughput", "2.1×")]
    assert _read("TTFT 1.9 s tokens", RULES) == [(None, "TTFT", "1.9 s")]
    assert _read("About 2.1× throughput", RULES) == [(None, "throughput", "2.1×")]


def test_the_words_that_compare_are_the_rules_data(tmp_path) -> None:
    """than / vs / versus / compared to / 相比 / 对比 / 比 were a regular expression in code
    (pipeline.brief.entities.COMPARED); they are ``[compared] words`` in data/briefing.toml, which a team extends:
    with "beyond" a name after it is a baseline, its figure the item's gain, not the named system's, and
    an ID after it the item's own."""
    gain_over, named_quantity = "beyond vLLM: 2.1× throughput", "beyond vLLM throughput 2.1×"
    assert _read(gain_over, RULES) == _read(named_quantity, RULES) == [("vLLM", "throughput", "2.1×")]
    assert _read("相比 vLLM 吞吐 2.1×", RULES) == [(None, "throughput", "2.1×")]    # the item's gain over vLLM
    rules = _rules_with(tmp_path, 'words = ["than", ', 'words = ["beyond", "than", ')
    assert _read(gain_over, rules) == []                                      # a baseline's: not compared
    assert _read(named_quantity, rules) == [(None, "throughput", "2.1×")]     # the item's, not vLLM's
    assert _read("相比 vLLM 吞吐 2.1×", rules) == [(None, "throughput", "2.1×")]    # kb's own words are kept
    from pipeline.brief.entities import name_id_pairs
    text = "beyond SGLang — 2610.12077 halves the TTFT"
    assert name_id_pairs(text, RULES.claim_words.compared) == [("SGLang", "2610.12077")]
    assert name_id_pairs(text, rules.claim_words.compared) == []


def test_a_rules_copy_without_the_compared_table_reads_kbs_words(tmp_path) -> None:
    """A workspace's data/briefing.toml copied before ``[compared]`` was added compares as kb does."""
    import re
    shipped = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")
    older = re.sub(r"(?ms)^\[compared\]\n.*?(?=^\[)", "", shipped)
    assert "[compared]" not in older and "[claim_words]" in older
    override = tmp_path / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    override.write_text(older, encoding="utf-8")
    assert load_rules(tmp_path).claim_words == WORDS and "vs" in WORDS.compared


@pytest.mark.parametrize("old,new", [('words = ["than",', 'words = ["", "than",'),
                                     ('baseline = ["from",', 'baseline = ["", "from",'),
                                     ('changed_to = ["降到",', 'changed_to = [" ", "降到",'),
                                     ('connectors = ["to"]', 'connectors = ["", "to"]'),
                                     ('articles = ["the"]', 'articles = ["the", " "]')])
def test_an_empty_word_is_one_line_naming_the_file_and_table(tmp_path, old: str, new: str) -> None:
    """An empty word in [compared], [claim_words] or [said_of] (valid TOML) is the workspace's configuration: one
    line naming the file and the table when the rules are read, not an IndexError in the first text with an ID
    nor a pattern that reads every value as said of the quantity after it."""
    from kb.errors import ConfigError
    with pytest.raises(ConfigError, match=r"briefing\.toml: \[(compared|claim_words|said_of)\]: an empty word"):
        rules = _rules_with(tmp_path, old, new)
        _read("FooServe vs vLLM: 2.1× throughput", rules)
        from pipeline.brief.entities import name_id_pairs
        name_id_pairs("FooServe (2610.12077) vs SGLang", rules.claim_words.compared)


def test_a_factor_written_with_bei_is_a_factor() -> None:
    """"1.42 倍" is how a Chinese note writes 1.42×: the same unit, compared with the abstract's "1.24x"."""
    rules = load_rules()
    [bei] = claims_in("吞吐提升 1.42 倍", "n", rules.quantities, rules.said_of, rules.claim_words)
    [x] = claims_in("吞吐提升 1.24x", "a", rules.quantities, rules.said_of, rules.claim_words)
    assert (bei.quantity, bei.unit, bei.value, bei.written) == ("throughput", "×", 1.42, "1.42 倍")
    assert (x.quantity, x.unit) == (bei.quantity, bei.unit)


def test_a_resource_before_a_figure_names_no_system() -> None:
    """Day 5: "p99 KV 传输尾延迟 38 ms" is the item's own latency, not a system called KV's: compared with the
    abstract's "p99 tail latency of KV transfers at 33 ms"."""
    rules = load_rules()
    [c] = claims_in("- 256 卡测试床：p99 KV 传输尾延迟 38 ms，对比 DCQCN 的 71 ms", "n", rules.quantities, rules.said_of,
                    rules.claim_words)
    assert (c.subject, c.quantity, c.written) == (None, "latency", "38 ms")


@pytest.mark.parametrize(("a", "b", "quantity"), [
    # days 5–7, written by people blind to these rules: the quantity in Chinese beside it in English, a verb
    # for the noun, and a comparative between the value and the quantity it names
    ("不到 1% 的流量就能让同 batch 的请求慢 2.7×", "slowing co-batched requests 2.4x.", "slowdown"),
    ("decode 实例挂了以后 120 ms 内恢复", "ReplayKV resumes a request within 210 ms of a failure.", "recovery time"),
    # day 19's: a start-up time copied with its digits swapped
    ("70B engine 的冷启动少了 32 s", "GraphHold cuts the cold start of a 70B engine by 23 s.", "start-up time"),
    ("比通信单独开 kernel 的 ring attention 快 1.6×。", "prefills the prompt 1.4x faster than ring attention.",
     "speed-up"),
    ("每焦耳 token 数提升 1.42 倍", "WattBatch generates 1.24x more tokens per joule than batching at full "
     "throughput.", "energy efficiency"),
    ("throughput 2.1x higher", "2.4× higher throughput", "throughput"),
    ("a drain adds 27 percent to TPOT", "adds 12% to TPOT while it runs", "TPOT"),     # the unit as a word
    # a rate is no memory size: the unit says the quantity where the keyword before it is "memory"
    ("decode 吞吐 6,100 tokens/s", "fits 2.4x more requests in GPU memory and sustains 5,600 tokens/s of decode "
     "throughput.", "throughput"),
])
def test_a_quantity_is_read_in_either_language_and_part_of_speech(a: str, b: str, quantity: str) -> None:
    [(subject, found, unit, _)] = _disagree(a, b)
    assert (subject, found) == (None, quantity)


def test_a_comparative_does_not_reach_past_the_words_right_after_a_figure() -> None:
    """"2× more often than the baseline's throughput": the comparative is not followed by a quantity's word."""
    assert claims_in("it stalls 2× more often than the throughput suggests", "x", QUANTITIES, SAID_OF, WORDS) == []


@pytest.mark.parametrize(("text", "read"), [
    # a [quantities_beside] word counts only right beside the value and as a word of its own (a review's cases)
    ("线上集群里大约有 10% 慢节点", []), ("靠 1.5× 快照压缩", []), ("约 5% 慢请求", []), ("20% 快速路径", []),
    ("KV 快照写盘 120 ms", []), ("他慢慢说了 2%", []),
    ("FlashServe 的复现快 80% 了，周五出数", []), ("进度已经快 80%", []),   # "快" as "nearly"
    ("吞吐快了 20%", [(None, "throughput", "20%")]),            # a keyword names it: the beside word does not
    ("高峰期 TTFT 慢慢爬到 1.2 s", [(None, "TTFT", "1.2 s")]),
    ("整体性能效率提高 1.4×", []),                              # no "能效" inside "性能效率"
    # a quantity read in a unit it is not measured in gives way to the next reading, else to the unit's, else none
    ("SnapServe recovers 3× faster", [("SnapServe", "speed-up", "3×")]),
    ("a recovery rate of 92%", []), ("命中率恢复到 80%", [(None, "hit rate", "80%")]),
    ("重启后吞吐恢复到 5,600 tokens/s", [(None, "throughput", "5,600 tokens/s")]),
])
def test_what_a_chinese_word_beside_a_figure_and_a_units_list_read(text: str, read: list) -> None:
    assert _read(text, RULES) == read


def test_the_units_of_a_quantity_are_a_list(tmp_path) -> None:
    """`"memory" = "GB"` would read as the units G and B: refused in one line naming the table."""
    from kb.errors import ConfigError
    with pytest.raises(ConfigError, match=r"\[quantity_units\]"):
        _rules_with(tmp_path, '"memory" = ["GiB", "GB", "%", "×"]', '"memory" = "GB"')


@pytest.mark.parametrize(("text", "subject"), [
    ("It lowered TTFT by 20%", None),                          # a pronoun is no system
    ("We reduced p99 TTFT by 30%", None),
    ("PinLoRA cuts p99 TTFT by 30%", "PinLoRA"),
    # the engine a system runs in, or the baseline, is not the verb's subject (the diff review's cases)
    ("Integrating FoldQ into vLLM reduces TTFT by 30%.", None), ("Our patch to vLLM improves throughput by 2.1x.", None),
    ("Running PairUp inside SGLang lowered p99 TTFT by 45%.", None), ("PairUp over vLLM improves throughput by 2.1x", None),
    ("LMCache's connector in vLLM cuts TTFT by 40%", None), ("The gain over vLLM is TTFT −20%", None),
    ("相比 vLLM 吞吐 2.1×", None),                               # the baseline's name, not its figure
    ("Mooncake 传输带宽 46.1 GB/s", "Mooncake"),
])
def test_a_figure_is_the_systems_whose_sentence_reports_it(text: str, subject) -> None:
    [claim] = claims_in(text, "A", QUANTITIES, SAID_OF, WORDS)
    assert claim.subject == subject


@pytest.mark.parametrize(("row", "claim"), [
    # the row's first cell names the paper its figures are of: Tom's week's table (day 17)
    ("| ShardLoad（2610.32751） | §2.1 | 10-29 | 70B replica 上线快 4.7× |", ("ShardLoad", "speed-up", "4.7×")),
    # the same row as the note's parser hands it on, its outer bars gone
    ("QuietLane（2610.29004） | §2.2.1 | 10-27 | latency-critical 租户 p99 TPOT −31%", ("QuietLane", "TPOT", "−31%")),
    # a name in the value's own cell is its subject, not the row's
    ("| 对比 | SGLang TTFT 310 ms |", ("SGLang", "TTFT", "310 ms")),
    # a first cell that names the quantity, not a system: the figure stays the item's (day 10's RansKV table)
    ("| 同样显存下 decode 吞吐 | 1.5× |", (None, "throughput", "1.5×")),
    # a model, a GPU or a metric in the first cell is a condition, not a paper (a review's cases): no ID beside it
    ("| Llama-3.1-70B | TTFT 380 ms |", (None, "TTFT", "380 ms")),
    ("| H100 | TTFT 380 ms |", (None, "TTFT", "380 ms")),
    ("| p99 TTFT | 380 ms |", (None, "TTFT", "380 ms")),
    # prose with a bar in it is no table of papers
    ("HopKV | our cluster: TTFT 380 ms", (None, "TTFT", "380 ms")),
])
def test_a_table_rows_figures_are_of_the_system_its_first_cell_names(row: str, claim: tuple) -> None:
    [found] = claims_in(row, "note", QUANTITIES, SAID_OF, WORDS)
    assert (found.subject, found.quantity, found.written) == claim


def test_an_abstract_read_as_about_its_paper_gives_its_unnamed_figures_to_the_paper() -> None:
    """A cited paper's abstract is compared with what notes write of the paper by name ("ShardLoad … 4.7×"): read as
    about the paper, "4.1x sooner" is ShardLoad's speed-up; a figure another name is written before stays that one's."""
    abstract = ("ShardLoad brings a 70B-parameter replica into service 4.1x sooner than loading from a shared file "
                "system. Unlike Mooncake 46.1 GB/s, it needs no store.")
    found = claims_in(abstract, "abs", QUANTITIES, SAID_OF, WORDS, about="ShardLoad")
    assert [(c.subject, c.quantity, c.written) for c in found] == [("ShardLoad", "speed-up", "4.1x"),
                                                                    ("Mooncake", "bandwidth", "46.1 GB/s")]
    assert claims_in(abstract, "abs", QUANTITIES, SAID_OF, WORDS)[0].subject == "Mooncake"   # read plain: no 4.1x


def test_a_factor_written_after_a_division_sign_is_a_reduction_of_that_many_times() -> None:
    """Day 18: the doc's line writes KeyFold's saving "KV memory ÷3.2", its v2's abstract "reduces KV cache memory by
    2.7x": one quantity, two values."""
    line = claims_in("2610.16833 KeyFold — low-rank key projection per head, KV memory ÷3.2 (anchored 2026-10-15)",
                     "doc", QUANTITIES, SAID_OF, WORDS)
    v2 = claims_in("KeyFold reduces KV cache memory by 2.7x on long-context benchmarks.", "v2", QUANTITIES, SAID_OF,
                   WORDS)
    assert [(c.quantity, c.unit, c.value) for c in line + v2] == [("memory", "×", 3.2), ("memory", "×", 2.7)]
    assert claims_in("吞吐 ÷ 2 之后再比", "n", QUANTITIES, SAID_OF, WORDS) == []   # arithmetic, no figure



def test_a_value_after_an_earlier_figures_keyword_is_said_of_the_quantity_after_it() -> None:
    """Day 25's TenantFence abstract: "lowers the prefix cache hit rate by 4% and adds 2% to p99 TTFT" read the 2% as
    a second hit rate (the keyword before it is the 4%'s), so the abstract, two hit rates, was left out as a table of
    conditions and Jay's "命中率掉 14%" met nothing. "to p99 TTFT" names TTFT, not the percentile's plain latency."""
    from pipeline.brief.rules import load_rules
    r = load_rules()

    def read(text: str) -> list[tuple[str, str]]:
        return [(c.quantity, c.written) for c in claims_in(text, "x", r.quantities, r.said_of, r.claim_words,
                                                           about="TenantFence")]
    assert read("TenantFence lowers the prefix cache hit rate by 4% and adds 2% to p99 TTFT over a shared cache.") == [
        ("hit rate", "4%"), ("TTFT", "2%")]
    assert read("It adds 2% to p99 TTFT.") == [("TTFT", "2%")]
    assert read("adds 6% to TTFT and 4% to the time per output token") == [("TTFT", "6%"), ("TPOT", "4%")]
    assert read("TTFT drops 40% to the latency of a cache hit") == [("TTFT", "40%")]   # its own keyword, before it


def test_a_name_with_its_id_and_a_word_of_the_change_names_the_figures_system() -> None:
    """Day 25: Jay's "KVShield（2610.14012）的代价是 TTFT 多 3%" (v1's figure) and Ines's "KVShield 的 TTFT 多 5.5%" (v2's)
    read no subject — a bracketed ID between the name and 的, "多" between the quantity and its value — so the two were
    never compared. "我们的 TTFT 多 30%" names no system."""
    from pipeline.brief.rules import load_rules
    r = load_rules()

    def read(text: str) -> list[tuple[str | None, str, str]]:
        return [(c.subject, c.quantity, c.written) for c in claims_in(text, "x", r.quantities, r.said_of,
                                                                      r.claim_words)]
    assert read("KVShield（2610.14012）的代价是 TTFT 多 3%，我记得是摘要里的数") == [("KVShield", "TTFT", "3%")]
    assert read("v2：KVShield 的 TTFT 多 5.5%（换成生产 trace 的请求率重测）") == [("KVShield", "TTFT", "5.5%")]
    assert read("我们的 TTFT 多 30%") == [(None, "TTFT", "30%")]
    assert read("HydraRoute lowered p99 TTFT by 21%") == [("HydraRoute", "TTFT", "21%")]


@pytest.mark.parametrize(("text", "subject"), [
    ("vLLM 0.6.2 throughput 1.8x", "vLLM 0.6.2"),               # a release is its own subject
    ("Lathe 2.4 的 TTFT 低了 3%", "Lathe 2.4"),
    ("Lathe 2.4.3 adds about 3% to p99 TTFT", "Lathe 2.4.3"),   # the subject of a verb before the value
    ("HydraRoute adds 2% to TTFT", None),                       # a bare name's, as its abstract writes: the item's
    ("PaceSpec's paper says 2.2x on chat", "PaceSpec"),        # … unless its paper speaks
    ("It adds about 3% to p99 TTFT", None),                     # no name
    ("Lathe adds about 3% to p99 TTFT", None),                  # a plain word without its release names nothing
    ("Integrating FoldQ into vLLM 0.6 adds 3% to TTFT", None),   # vLLM is where FoldQ runs
    ("Table 2.1 TTFT 3%", None),                                # a part of the text, no release of a "Table"
    ("About 2.1× faster", None),
    ("TTFT SLO 下 goodput 2.6×", None),                           # an objective, no system (day 29's card)
    ("the PredRoute paper reports 24% lower p99 TTFT", "PredRoute"),   # its paper speaks, no possessive
])
def test_which_system_a_figure_is_said_of(text: str, subject: str | None) -> None:
    """A system written with its release ("Lathe 2.4.3"), also as the subject of a verb right before the value, is the
    figure's subject; two releases are two subjects (``test_what_an_analyst_would_not_call_a_conflict``)."""
    assert [c.subject for c in claims_in(text, "A", QUANTITIES, SAID_OF, WORDS)] == [subject]


@pytest.mark.parametrize(("text", "read"), [
    # day 26: a quantized model's width, written three ways; a list of widths is none
    ("平均每个权重 3.25 bit", [("bits per weight", "bit", 3.25)]),
    ("平均 2.75 bpw", [("bits per weight", "bit", 2.75)]),
    ("At 2.75 bits per weight on average, a 70B model stays within 0.18 of FP16", [("bits per weight", "bit", 2.75)]),
    ("按输出通道分 2/3/4 bit", []),
    ("keys to 2 bits, TTFT 3 bits", []),                      # a width is no TTFT
    ("The 4-bit drafter reaches an acceptance rate of 81%", [("acceptance rate", "%", 81.0)]),
    ("NibbleDraft 的接受率 71%", [("acceptance rate", "%", 71.0)]),
    # a factor of a quantity written after it with an article
    ("HadaFlow serves W4A4 models at 2.3x the decode throughput of FP16", [("throughput", "×", 2.3)]),
    # day 28: a KV cache made smaller is its memory; a decoy's "2.3x less KV memory" of another system stays unread
    ("PlinthKV shrinks the KV cache by 6.2x at 128K tokens", [("memory", "×", 6.2)]),
    ("摘要：KV 显存省 5.2×", [("memory", "×", 5.2)]),
    ("MeldKV reported 2.3x less KV memory", []),
    # day 29: a percentile alone between a comparative and its quantity is of that quantity
    ("reports 24% lower p99 TTFT across 128 replicas", [("TTFT", "%", 24.0)]),
    ("31% lower p99 latency", [("p99 latency", "%", 31.0)]),
    # day 30: what a token costs
    ("lowers the cost per million tokens by 29%", [("cost per token", "%", 29.0)]),
    ("cost per M tokens ↓34%", [("cost per token", "%", 34.0)]),
    # day 31: requests held at once
    ("decode 实例能多接 1.7× 的并发请求", [("concurrency", "×", 1.7)]),
    ("hold 1.4x more concurrent requests at the same p99 TPOT", [("concurrency", "×", 1.4)]),
])
def test_widths_acceptance_rates_and_factors_of_a_quantity(text: str, read: list) -> None:
    assert [(c.quantity, c.unit, c.value) for c in claims_in(text, "A", QUANTITIES, SAID_OF, WORDS)] == read


def test_a_paper_quoted_by_its_name_is_the_figures_subject() -> None:
    """Day 26: "PaceSpec's paper says 2.2x" — a name owning the word before a reporting verb is the verb's subject."""
    [c] = claims_in("PaceSpec's paper says 2.2x on chat; we are nowhere near that", "A", QUANTITIES, SAID_OF, WORDS)
    assert (c.subject, c.quantity, c.written) == ("PaceSpec", "speed-up", "2.2x")
