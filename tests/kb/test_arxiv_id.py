"""arXiv identity: a table of real forms, invalid look-alikes, and properties."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb.arxiv_id import ArxivId, find_arxiv_ids, normalize_arxiv_id, parse_arxiv_id

REAL_FORMS = [
    ("2607.09701", "2607.09701", None),
    ("2607.09701v2", "2607.09701", 2),
    ("arXiv:2607.09701", "2607.09701", None),
    ("arxiv: 2607.09701v12", "2607.09701", 12),
    ("https://arxiv.org/abs/2607.09701", "2607.09701", None),
    ("https://arxiv.org/abs/2607.09701v3", "2607.09701", 3),
    ("https://arxiv.org/pdf/2607.09701v2.pdf", "2607.09701", 2),
    ("https://arxiv.org/pdf/2607.09701", "2607.09701", None),
    ("http://arxiv.org/html/2607.09701v1", "2607.09701", 1),
    ("http://export.arxiv.org/abs/2104.12255v1", "2104.12255", 1),
    ("https://www.arxiv.org/abs/1707.08567?context=cs", "1707.08567", None),
    ("hep-th/9901001", "hep-th/9901001", None),
    ("hep-th/9901001v3", "hep-th/9901001", 3),
    ("math.GT/0309136", "math/0309136", None),
    ("http://arxiv.org/abs/quant-ph/0201082v1", "quant-ph/0201082", 1),
    ("astro-ph/0601001", "astro-ph/0601001", None),
    ("0704.0001", "0704.0001", None),          # first new-style ID, 4 digits
    ("1412.9999", "1412.9999", None),          # last month of 4-digit numbers
    ("1501.00001", "1501.00001", None),        # 5 digits from 2015-01
    ("２６０７．０９７０１", "2607.09701", None),  # full-width digits
    ("2607.09701\u200b", "2607.09701", None),  # zero-width space
    ("\u202e2607.09701", "2607.09701", None),  # RTL override
]

INVALID = ["2613.09701", "2600.09701", "1412.12345", "1501.0001", "2607.0970", "2607.097011",
           "abc", "", "0000.0000", "2607.09701v0", "foo/9901001", "hep-th/9913001", "https://example.org/abs/2607.09701"]


@pytest.mark.parametrize(("text", "canonical", "version"), REAL_FORMS)
def test_real_forms_parse(text: str, canonical: str, version: int | None) -> None:
    aid = parse_arxiv_id(text)
    assert aid == ArxivId(canonical, version)
    assert normalize_arxiv_id(text) == canonical


@pytest.mark.parametrize("text", INVALID)
def test_invalid_forms_are_refused(text: str) -> None:
    assert parse_arxiv_id(text) is None


def test_find_in_running_text_keeps_order_and_skips_lookalikes() -> None:
    text = ("SlimWise (arXiv:2607.09701) vs https://arxiv.org/pdf/2610.09701v2.pdf; "
            "old hep-th/9901001v3; not 12607.09701 nor DOI 10.1109/X.2026.11685822 nor v1.2.3; "
            "DOI 10.48550/arXiv.2501.01234; again 2607.09701.")
    assert [str(a) for a in find_arxiv_ids(text)] == ["2607.09701", "2610.09701v2", "hep-th/9901001v3", "2501.01234"]


def test_yymm_of_both_schemes() -> None:
    assert ArxivId("2607.09701").yymm == "2607"
    assert ArxivId("hep-th/9901001").yymm == "9901"


new_ids = st.builds(
    lambda yy, mm, n: f"{yy:02d}{mm:02d}." + (f"{n:05d}" if (yy, mm) >= (15, 1) else f"{n % 10000:04d}"),
    st.integers(7, 99), st.integers(1, 12), st.integers(1, 99999))
versions = st.one_of(st.none(), st.integers(1, 40))
wrappers = st.sampled_from(["{}", "arXiv:{}", "https://arxiv.org/abs/{}", "https://arxiv.org/pdf/{}.pdf",
                            "http://export.arxiv.org/abs/{}", "https://arxiv.org/html/{}"])


@given(new_ids, versions, wrappers)
def test_any_wrapped_form_round_trips(ident: str, version: int | None, wrapper: str) -> None:
    written = ident + (f"v{version}" if version else "")
    aid = parse_arxiv_id(wrapper.format(written))
    assert aid == ArxivId(ident, version)
    assert parse_arxiv_id(aid.versioned) == aid


@given(new_ids, st.text(alphabet=" ,;()[]", max_size=3), st.text(alphabet=" ,;()[]", max_size=3))
def test_find_sees_an_id_between_punctuation(ident: str, before: str, after: str) -> None:
    assert [a.id for a in find_arxiv_ids(f"x{before}{ident}{after}y")] in ([ident], [])
    assert [a.id for a in find_arxiv_ids(f"see {ident} here")] == [ident]


@given(st.text(max_size=200))
def test_find_never_raises_and_only_returns_valid_ids(text: str) -> None:
    for aid in find_arxiv_ids(text):
        assert parse_arxiv_id(aid.versioned) == aid


@pytest.mark.parametrize(("text", "found"), [
    ("论文2610.08977提出 SLO-aware 抢占式调度", ["2610.08977"]),        # Chinese notes write IDs against the text
    ("见 https://arxiv.org/abs/2610.08977里的 Table 3", ["2610.08977"]),
    ("（2610.08977v2）是第二版", ["2610.08977v2"]),
    ("x2610.08977", []), ("2610.08977x", []), ("12610.08977", []),       # inside a Latin word or a number: no
])
def test_an_id_against_chinese_text_is_found_but_not_inside_a_latin_word(text: str, found: list[str]) -> None:
    assert [a.versioned for a in find_arxiv_ids(text)] == found


@pytest.mark.parametrize(("text", "written"), [
    ("arXiv:2613.04417v2", "2613.04417"), ("https://arxiv.org/abs/2613.01234v1", "2613.01234"),
    ("arxiv.org/abs/2610.1182v1", "2610.1182"), ("号是2614.00123，", "2614.00123"), ("arXiv号2613.01234", "2613.01234"),
])
def test_an_impossible_id_is_seen_with_a_version_or_against_chinese_text(text: str, written: str) -> None:
    from kb.arxiv_id import find_impossible_ids
    assert [w for w, _ in find_impossible_ids(text)] == [written] and find_arxiv_ids(text) == []


@pytest.mark.parametrize("text", ["营收1201.5678万元", "约0912.3456万", "提升2610.08977%", "时间戳1699.12345"])
def test_an_amount_or_a_timestamp_in_chinese_text_is_no_id(text: str) -> None:
    from kb.arxiv_id import find_impossible_ids
    assert find_arxiv_ids(text) == [] and find_impossible_ids(text) == []


@pytest.mark.parametrize(("text", "found"), [
    ("citing the dropout paper as 1207.05800", ["1207.05800"]),   # five digits in a month of four: no such ID
    ("1207.05800v2", ["1207.05800"]), ("Adam 1412.6980", []), ("1207.0580", []),
    ("2026.1107", []),                   # four digits where a month has five: bare, it may be anything
])
def test_five_digits_in_a_month_of_four_is_impossible_even_bare(text: str, found: list[str]) -> None:
    """Day 6's Tom: "citing the dropout paper as 1207.05800" (a zero added to 1207.0580): arXiv numbered four
    digits until 2014-12, so a bare 4.5 number of those months is an arXiv shape gone wrong."""
    from kb.arxiv_id import find_impossible_ids
    assert [w for w, _ in find_impossible_ids(text)] == found


@pytest.mark.parametrize("text", ["0512.12345", "build 0003.14159", "the 0611.50000 figure"])
def test_a_bare_4_5_number_of_a_month_before_arxiv_numbered_so_is_no_impossible_id(text: str) -> None:
    """arXiv's four-digit numbers start in 2007-04: a bare 4.5 number of an earlier month is no arXiv shape gone
    wrong (there never was an ID of that form to slip from), only another number; said as arXiv's, it is one."""
    from kb.arxiv_id import find_impossible_ids
    assert find_impossible_ids(text) == []
    assert find_impossible_ids("arXiv 0512.12345") != []


@pytest.mark.parametrize("text", ["https://huggingface.co/papers/2610.1847 LenBait", "huggingface.co/papers/2610.1847",
                                  "HTML 版：https://arxiv.org/html/2610.1847 (2026-11-02)", "arxiv.org/html/2610.1847v2",
                                  "https://www.alphaxiv.org/abs/2610.1847 gives a 404"])   # day 40's
def test_a_hugging_face_paper_url_says_its_number_is_an_arxiv_id(text: str) -> None:
    """An HF paper URL is keyed by the paper's arXiv ID, as an arxiv.org URL is (its abstract, PDF or HTML page):
    four digits in a month of five there is impossible, as "arXiv 2610.1847" is (bare, "2610.1847" may be anything)."""
    from kb.arxiv_id import find_impossible_ids
    assert [w for w, _ in find_impossible_ids(text)] == ["2610.1847"]


@pytest.mark.parametrize(("text", "found"), [
    ("耗时 1203.45678 ms", []), ("耗时 1203.45678 秒", []), ("2614.00123 tokens", []),   # measurements
    ("五期电表读数 1309.27518 kWh", []), ("1309.27518 J", []),   # day 30's meter reading, an energy
    ("arXiv 1203.45678 ms", ["1203.45678"]),          # the text says it is an arXiv ID: a unit does not undo that
    ("1207.05800 same as dropout", ["1207.05800"]),   # "s" of a word is no unit
])
def test_a_bare_number_with_a_unit_after_it_is_a_measurement(text: str, found: list[str]) -> None:
    from kb.arxiv_id import find_impossible_ids
    assert [w for w, _ in find_impossible_ids(text)] == found


@pytest.mark.parametrize(("text", "found"), [
    ("作者说是 2610.1635 的后续", ["2610.1635"]),       # day 7's card: RingCast 2610.16350 with a digit dropped
    ("the follow-up of 2610.1635", ["2610.1635"]),
    ("README calls it a sequel to 2610.1413 (sic)", ["2610.1413"]),   # day 29's
    ("README 自称是 2610.1620 的续集", ["2610.1620"]),                 # day 30's
    ("README 自称是 2610.1468 的升级版", ["2610.1468"]),               # day 31's
    ("README 自称是 2611.0038 的二代", ["2611.0038"]),                # day 32's: a second generation
    ("README 自称是 2610.3226 的后传", ["2610.3226"]),                # day 33's: a sequel
    ("its README names it the successor to 2610.1552", ["2610.1552"]),   # day 34's: one paper succeeding another
    ("作者说它的前身是 2609.2417", ["2609.2417"]), ("predecessor: 2609.2417", ["2609.2417"]),
    ("作者说这篇是在 2611.0473 的基础上往下做的", ["2611.0473"]),    # day 39's: built on another paper
    ("it builds on 2611.0473 with a new planner", ["2611.0473"]),
    ("作者说这篇脱胎于 2610.1130（TierKV）", ["2610.1130"]),            # day 40's: grew out of another paper
    ("作者说这篇接着 2611.2014（KnitTP）往下做", ["2611.2014"]),         # day 41's: carries on from it
    ("在此基础上再压一轮，QPS 2105.3333", []),                        # "on top of this": no paper follows another
    ("QPS 2105.3333", []), ("P99: 1510.2500", []),     # no word of a paper following another: a number
    ("论文表 3：2605.3125（越低越好）", []), ("作者:张三 2610.1635", []),
    ("续作峰值 2105.3333 QPS", []),                     # a unit after it: a measurement, paper or not
    ("arXiv 2610.1635", []),                           # said to be an arXiv ID: find_impossible_ids' case
    ("后续 2610.1635 ms", []), ("后续 1207.0580", []), ("后续 2026.1107", []), ("后续 2610.16350", []),
])
def test_a_bare_number_a_digit_short_of_its_months_ids_is_found_for_the_store_to_judge(text: str, found: list) -> None:
    """A bare 4.4 number of the five-digit era (2015-01 on), beside words saying one paper follows another, is an ID
    with a digit dropped only if a stored paper's ID is it with a digit more: that is the briefing's to ask
    (``verify.impossible_ids``)."""
    from kb.arxiv_id import find_short_ids
    assert find_short_ids(text) == [(i, f"4 digits after the dot; arXiv IDs of 20{i[:2]}-{i[2:4]} have 5") for i in found]


@pytest.mark.parametrize("text", ["QPS 2105.3333", "峰值 1603.2500 TFLOPS", "吞吐 1608.1234 req/s", "成本 1608.1234 美元",
                                  "tensor([1605.4321])"])
def test_a_bare_number_of_a_digit_short_is_no_impossible_id_by_itself(text: str) -> None:
    from kb.arxiv_id import find_impossible_ids
    assert find_impossible_ids(text) == []
