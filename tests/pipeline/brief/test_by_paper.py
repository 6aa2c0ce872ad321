"""Which paper a note entry, or lines of it, are about beyond its parser's subject (``pipeline.brief.by_paper``)."""
from __future__ import annotations

from kb.records import Inline, Point, PointBlock
from pipeline.brief.by_paper import headless_subjects, rows_by_paper

HEADER = (Inline("论文"), Inline("讲的人"), Inline("数字"))
LOFT = (Inline("LoftKV（2611.03741）"), Inline("Jay"), Inline("TTFT −27%"))
ATTIC = (Inline("AtticPool（2611.04265）"), Inline("Spark"), Inline("TTFT −27%"))


def _table(*rows: tuple[Inline, ...]) -> Point:
    return Point("两篇的数字（会上对着摘要念的）：", (), (PointBlock("table", rows=(HEADER, *rows)),))


def test_a_table_row_citing_another_known_paper_is_that_papers() -> None:
    """Day 21's minutes of LoftKV: AtticPool's row goes to AtticPool's item, under the same bullet and header."""
    jay = Point("Jay 讲 LoftKV：空闲对话的 KV 留在 CXL 内存")
    mine, theirs = rows_by_paper([jay, _table(LOFT, ATTIC)], "2611.03741", ("2611.04265",))
    assert mine == [jay, _table(LOFT)]
    assert theirs == {"2611.04265": [_table(ATTIC)]}


def test_rows_of_the_subject_of_an_unknown_paper_or_of_both_stay() -> None:
    both = (Inline("LoftKV（2611.03741）vs AtticPool（2611.04265）"), Inline("-"), Inline("-"))
    points = [_table(LOFT, ATTIC, both)]
    assert rows_by_paper(points, "2611.03741", ()) == (points, {})              # AtticPool unknown to the store
    mine, theirs = rows_by_paper(points, "2611.03741", ("2611.04265",))
    assert mine == [_table(LOFT, both)] and list(theirs) == ["2611.04265"]
    # a table left with its header alone is dropped; the bullet stays
    mine, _ = rows_by_paper([_table(ATTIC)], "2611.03741", ("2611.04265",))
    assert mine == [Point("两篇的数字（会上对着摘要念的）：")]


def test_an_entry_with_a_heading_naming_nothing_is_the_one_paper_its_text_names() -> None:
    """Day 22's week in review, entry 5 under "周四下午到今早新冒出来的": LoftKV's. One query for every name."""
    asked = []

    def named(keys: set[str]) -> dict[str, dict[str, str]]:
        asked.append(keys)
        store = {"loftkv": {"2611.03741": "LoftKV: …"}, "atticpool": {"2611.04265": "AtticPool: …"}}
        return {k: store[k] for k in keys if k in store}
    entries = [("wir.md#5", "5. 周四下午到今早新冒出来的", "待核实：群里有人说 LoftKV 用的 CXL 扩展卡只在工程样品上测过"),
               ("wir.md#6", "6. 两篇一起读", "LoftKV 和 AtticPool 都用 CXL"),             # two papers: compares them
               ("wir.md#7", "7. LoftKV 的后续", "待核实：AtticPool 也是"),                     # the heading names one
               ("wir.md#8", "8. 杂项", "H200 上 p99 TTFT 2.4 s")]                            # a name no paper has
    assert headless_subjects(entries, named) == {"wir.md#5": "2611.03741"}
    assert len(asked) == 1
    assert headless_subjects([("a.md#1", "杂项", "没有名字")], named) == {} and len(asked) == 1
