"""Briefing templates: a workspace's override wins, and compiled templates are kept in .kb/cache."""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from kb.store import Store
from pipeline.brief.render import _environment, render_markdown


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the templates Jinja compiled from source (a cache hit compiles nothing)."""
    seen: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        seen.append(name)
        return original(self, source, name, filename, raw, defer_init)
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    _environment.cache_clear()
    yield seen
    _environment.cache_clear()


def _override(ws: Path, text: str, mtime: int) -> None:
    path = ws / ".kb" / "overrides" / "templates" / "briefing.zh.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (mtime, mtime))


def test_an_override_is_used_compiled_once_and_compiled_again_when_edited(tmp_path: Path, compiles) -> None:
    _override(tmp_path, "A {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "A inference\n"
    assert compiles == ["briefing.zh.md.j2"] and len(_entries(tmp_path)) == 1

    _environment.cache_clear()   # as a new process would
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "A inference\n"
    assert compiles == ["briefing.zh.md.j2"]   # read from .kb/cache, not compiled again

    _override(tmp_path, "B {{ topic }}", 2_000_000)
    _environment.cache_clear()
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "B inference\n"
    assert compiles == ["briefing.zh.md.j2"] * 2


def _entries(ws: Path) -> list[Path]:
    return sorted((ws / ".kb" / "cache").glob("templates-*/*"))


def test_a_cache_folder_that_cannot_be_made_only_means_no_cache(tmp_path: Path, compiles) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder would go", encoding="utf-8")
    _override(tmp_path, "C {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "x"}, "zh", tmp_path) == "C x\n"


def test_an_entry_that_cannot_be_written_only_means_no_cache(tmp_path: Path, compiles, monkeypatch) -> None:
    def denied(self, bucket) -> None:
        raise PermissionError(13, "Permission denied", "__jinja2_x.cache")   # the nightly's user owns it
    monkeypatch.setattr(jinja2.FileSystemBytecodeCache, "dump_bytecode", denied)
    _override(tmp_path, "D {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "x"}, "zh", tmp_path) == "D x\n"


def test_a_damaged_entry_is_compiled_again(tmp_path: Path, compiles) -> None:
    _override(tmp_path, "E {{ topic }}", 1_000_000)
    render_markdown({"topic": "x"}, "zh", tmp_path)
    [entry] = _entries(tmp_path)
    entry.write_bytes(entry.read_bytes()[:40])   # cut short, as by a full disk
    _environment.cache_clear()
    assert render_markdown({"topic": "x"}, "zh", tmp_path) == "E x\n"
    assert compiles == ["briefing.zh.md.j2"] * 2


def test_a_cache_folder_leading_outside_the_workspace_is_not_used(tmp_path: Path, compiles) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    (ws / ".kb").mkdir(parents=True)
    (ws / ".kb" / "cache").symlink_to(outside, target_is_directory=True)
    _override(ws, "F {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "x"}, "zh", ws) == "F x\n"
    assert not list(outside.rglob("*.cache"))


def test_a_new_kb_or_jinja_version_starts_a_new_folder_and_sweeps_the_old(tmp_path: Path, compiles,
                                                                          monkeypatch) -> None:
    _override(tmp_path, "G {{ topic }}", 1_000_000)
    render_markdown({"topic": "x"}, "zh", tmp_path)
    [before] = _entries(tmp_path)
    monkeypatch.setattr(jinja2, "__version__", "99.0")
    _environment.cache_clear()
    render_markdown({"topic": "x"}, "zh", tmp_path)
    [after] = _entries(tmp_path)
    assert after.parent != before.parent and not before.exists()
    assert compiles == ["briefing.zh.md.j2"] * 2


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_open_flag_is_shown_however_many(sample_day: Path, lang: str) -> None:
    """A briefing is where the team reads what awaits verification: twenty open flags are twenty entries
    (a cap at twelve once hid a day's three impossible IDs, the last flags raised)."""
    import copy
    import json

    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    [one] = [f for f in data["flags"] if f["kind"] == "unsourced-claim"][:1]
    data["flags"] = []
    for n in range(20):
        f = copy.deepcopy(one)
        f.update(id=100 + n, label=f"T{n + 1}", status="open", subject=f"claim {n}")
        data["flags"].append(f)
    from pipeline.brief.write import render
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    start, end = ("## 三、", "## 四、") if lang == "zh" else ("## 3. ", "## 4. ")
    section = text[text.index(start):text.index(end)]
    assert all(f"claim {n}" in section for n in range(20)) and section.count("### ⚠️") == 20


def test_a_dict_is_read_by_key_as_jinja_reads_it(tmp_path: Path) -> None:
    """The briefing's environment reads ``x.key`` of a plain dict by key first, as Jinja's own reading
    would end: a key named as a dict's attribute still gives the attribute, a missing key is undefined."""
    _environment.cache_clear()
    _override(tmp_path, "{{ d.title }}|{{ d.items is callable }}|{{ (d.get)('title') }}|{{ d.gone is defined }}",
              1_000_000)
    data = {"topic": "inference", "d": {"title": "T", "items": "not this"}}
    assert render_markdown(data, "zh", tmp_path) == "T|True|T|False\n"
    _override(tmp_path, "{{ d.gone }}", 1_000_001)
    _environment.cache_clear()
    from kb.errors import ConfigError
    with pytest.raises(ConfigError, match="briefing.zh.md.j2:1: UndefinedError"):   # the override's error
        render_markdown(data, "zh", tmp_path)
    _environment.cache_clear()


def _briefing_toml(ws: Path, text: str) -> None:
    path = ws / ".kb" / "overrides" / "data" / "briefing.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


SHIPPED_RULES = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("edit, said", [
    (lambda t: t.replace("measure = '", "measure = '(", 1), "[facts]: a pattern is not a regular expression"),
    (lambda t: t + "\nx = [\n", "not valid TOML"),
    # unclosed at the end of the file: tomllib places it nowhere ("at end of document"), kb at the last line
    (lambda t: t + "\nx = [\n\n", f"briefing.toml:{len(SHIPPED_RULES.splitlines()) + 2}: not valid TOML: Invalid "
     "value (at the end of the file)"),
    (lambda t: t.replace("[problem_names]\n", "[problem_names]\nbogus = 5\n"), "[problem_names]: a value of the wrong"),
    (lambda t: t.replace('\nrecap = ["', '\nrecapz = ["', 1), "[markers] recap: no key 'recap'"),
    (lambda t: t.replace("recap_patterns = ['", "recap_patterns = ['[", 1), "[markers] recap_patterns: a pattern"),
    (lambda t: t.replace('connectors = ["to"]', "connectors = 5", 1), "[said_of]: a value of the wrong type"),
])
def test_a_broken_rules_override_is_one_line_naming_the_file(tmp_path: Path, capsys, edit, said: str) -> None:
    """A workspace's .kb/overrides/data/briefing.toml with a bad regex, bad TOML or a missing table stopped
    the nightly as an internal error (exit 70, a crash log); it is the workspace's configuration (exit 2)."""
    from kb.cli import main
    from tests.pipeline.brief.conftest import copy_sample
    ws = copy_sample(tmp_path / "ws")
    _briefing_toml(ws, edit(SHIPPED_RULES))
    Store.open(ws / ".kb" / "kb.sqlite").close()   # a store to preview from (a read makes none)
    with pytest.raises(SystemExit) as exited:
        main(["--home", str(ws), "brief", "--date", "2026-10-08", "--preview"])
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert said in err and "overrides/data/briefing.toml" in err and len(err.strip().splitlines()) == 1
    assert not list((ws / ".kb" / "logs").glob("kb-crash-*"))


@pytest.mark.parametrize("template, said", [
    ("A {% if %}\n", "briefing.zh.md.j2:1: TemplateSyntaxError"),
    ("A\nB {{ nope.x }}\n", "briefing.zh.md.j2:2: UndefinedError: 'nope' is undefined"),
    ('{% from "points.md.j2" import point %}\n{{ point(1) }}\n', "briefing.zh.md.j2:2: UndefinedError"),
])
def test_a_broken_template_override_is_one_line_naming_its_line(tmp_path: Path, capsys, template: str,
                                                                said: str) -> None:
    """A team's own briefing template with an error was an internal error (exit 70, a crash log): the error
    is the workspace's, so it is one line naming the template and line, exit 2 — also when the override
    hands a shipped macro the wrong thing."""
    from kb.cli import main
    from tests.pipeline.brief.conftest import copy_sample
    ws = copy_sample(tmp_path / "ws")
    _override(ws, template, 1_000_000)
    Store.open(ws / ".kb" / "kb.sqlite").close()   # a store to preview from (a read makes none)
    with pytest.raises(SystemExit) as exited:
        main(["--home", str(ws), "brief", "--date", "2026-10-08", "--preview"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and said in err and ".kb/overrides/templates/" in err, err
    assert not list((ws / ".kb" / "logs").glob("kb-crash-*"))


def test_an_error_in_a_shipped_template_stays_kb_s_own(tmp_path: Path) -> None:
    from jinja2 import TemplateSyntaxError

    from kb.resources import find_resource
    from pipeline.brief.render import override_errors
    shipped = str(find_resource("templates/briefing.zh.md.j2"))
    with pytest.raises(TemplateSyntaxError), override_errors(tmp_path):
        raise TemplateSyntaxError("broken", 3, "briefing.zh.md.j2", shipped)


def test_a_place_label_kb_writes_is_said_in_the_briefing_s_language_from_data(sample_day: Path, tmp_path: Path) -> None:
    """The zh template once translated "store: listing/API metadata" itself (a literal ``replace``): a new
    label needed a template edit. Labels are data/briefing.toml's [place_names] now, one table for every
    place a flag names; a label the table lacks is shown as kb wrote it."""
    import re
    import shutil

    from kb.resources import find_resource
    from tests.pipeline.brief.conftest import brief_json
    ws = tmp_path / "ws"
    shutil.copytree(sample_day, ws)
    shipped = find_resource("data/briefing.toml").read_text(encoding="utf-8")
    override = ws / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    override.write_text(re.sub(r"(?ms)^\[place_names\]\n.*?(?=^\[)", "", shipped)
                        + '\n[place_names]\nzh = { "store: OpenReview metadata" = "库内 OpenReview 元数据" }\n',
                        encoding="utf-8")
    data = brief_json(ws) | {"command": "kb nightly"}
    [flag] = [f for f in data["flags"] if f["kind"] == "id-conflict"][:1]
    for where in flag["evidence"]["ids"].values():
        where.append("store: OpenReview metadata")
    flag["evidence"]["ids"]["2610.09701"].append("hf 2026-10-08")
    _environment.cache_clear()
    try:
        zh = render_markdown(data, "zh", ws)
        assert "库内 OpenReview 元数据" in zh and "store: OpenReview metadata" not in zh
        assert "hf 2026-10-08" in zh                                   # a place the table lacks: as written
        assert "store: OpenReview metadata" in render_markdown(data, "en", ws)
    finally:   # the override's environment must not outlive the test, failed or not
        _environment.cache_clear()


def test_the_shipped_place_names() -> None:
    from pipeline.brief.rules import load_rules, place_name
    assert place_name("store: listing/API metadata", "zh", load_rules()) == "库内 arXiv 列表/API 元数据"
    assert place_name("inbox/a.md#2", "zh", load_rules()) == "inbox/a.md#2"


@pytest.mark.parametrize(("lang", "said"), [("en", "; shared words prefetch, hbm"), ("zh", "；共同用词 prefetch、hbm")])
def test_a_mechanism_boundary_shows_its_shared_words(sample_day: Path, lang: str, said: str) -> None:
    """A boundary raised on the mechanism (``boundary.mechanism_overlap``) says the words it rests on; a topic
    boundary's evidence has none, and its line reads as it always did."""
    import copy
    import json

    from pipeline.brief.write import render
    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    [topic] = [f for f in data["flags"] if f["kind"] == "boundary"]
    mechanism = copy.deepcopy(topic)
    mechanism.update(id=200, label="T1", subject="2610.55555 ~ 2601.00002")
    mechanism["evidence"].update(new="2610.55555", shared_words=["prefetch", "hbm"])
    data["flags"].append(mechanism)
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    [line] = [x for x in text.splitlines() if said in x]
    assert "2610.55555" in line, "only the flag with shared words says them"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "; the team says they do the same (inbox/jay/n.md#3)"), ("zh", "；团队笔记说二者相同（inbox/jay/n.md#3）")])
def test_a_boundary_the_team_named_says_where(sample_day: Path, lang: str, said: str) -> None:
    """A boundary the team's own line names (``likeness``) says where the team said so, after the topics."""
    import copy
    import json

    from pipeline.brief.write import render
    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    [topic] = [f for f in data["flags"] if f["kind"] == "boundary"]
    told = copy.deepcopy(topic)
    told.update(id=201, label="T1", subject="2610.55556 ~ 2601.00002")
    told["evidence"].update(new="2610.55556", said_in=["inbox/jay/n.md#3"])
    data["flags"].append(told)
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    [line] = [x for x in text.splitlines() if said in x]
    assert "2610.55556" in line and said not in text.replace(line, ""), "only the flag the team named says it"


@pytest.mark.parametrize(("lang", "quoted", "repeat", "decided"), [
    ("en", "the team says they do the same: “X 是 Y 的翻版” (inbox/jay/n.md#3); decided in the doc: “X 不锚：和已锚的 Y 重复” "
           "(organized/knowledge/inference.md v9)",
     "Suggestion: the team judged it a repeat of 2609.33252, and the doc decided not to anchor it (above): no need to "
     "read the two papers side by side; close the flag", "Suggestion: the doc decided not to anchor it (above)"),
    ("zh", "团队笔记说二者相同：“X 是 Y 的翻版”（inbox/jay/n.md#3）；文档已定：“X 不锚：和已锚的 Y 重复”（organized/knowledge/"
           "inference.md v9）",
     "建议：团队已判定它重复已锚的 2609.33252，文档也已定不锚（见上）：不必再对读两篇原文，关闭此条即可", "建议：文档已定不锚（见上）")])
def test_a_boundary_the_team_judged_quotes_it_and_asks_only_to_close(sample_day: Path, lang: str, quoted: str,
                                                                      repeat: str, decided: str) -> None:
    """The day 32 and 34 readers: a boundary flag whose pair the team called a repeat and the doc settled asked to
    read both papers. It quotes the team's and the doc's words, and its suggestion is to close it (or add a clause to
    the anchored paper's line); a flag the team did not judge reads as it did."""
    import copy
    import json

    from pipeline.brief.write import render
    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    [topic] = [f for f in data["flags"] if f["kind"] == "boundary"]
    judged, decided_only = copy.deepcopy(topic), copy.deepcopy(topic)
    judged.update(id=202, label="T1", subject="2610.55557 ~ 2601.00002")
    judged["evidence"].update(new="2610.55557", said_in=["inbox/jay/n.md#3"])
    doc = {"text": "X 不锚：和已锚的 Y 重复", "where": "organized/knowledge/inference.md v9"}
    judged["context"].update(team_said=[{"text": "X 是 Y 的翻版", "where": "inbox/jay/n.md#3"}], repeat=True,
                             doc_decided=doc)
    decided_only.update(id=203, label="T2", subject="2610.55558 ~ 2601.00002")
    decided_only["evidence"].update(new="2610.55558")
    decided_only["context"].update(doc_decided=doc)
    before = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    data["flags"] += [judged, decided_only]
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    assert quoted in text and repeat in text and decided in text
    assert text.count(repeat) == 1 and text.count(decided) == 1
    own = before[before.index(f"{topic['label']} "):]
    own = own[:own.index("\n### ")]
    assert own in text and own.count("\n") >= 4, "the sample's own boundary reads as it did"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Suggested section: none (its words are another field's, outside inference: protein)"),
    ("zh", "建议归入：不归入本文档（用词属于 inference 以外的领域：protein）")])
def test_an_item_of_another_field_is_offered_no_section_and_says_why(sample_day: Path, lang: str, said: str) -> None:
    """An increment adjacent only by another field's words (``placing.off_the_domain``) says which field, where the
    section would be, as an item the team keeps out does; never "needs a human"."""
    import copy
    import json

    from pipeline.brief.write import render
    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    item = copy.deepcopy(data["increments"][0])
    item.update(title="FoldKern: fused attention kernels for protein folding", post_title=None, relevance="adjacent",
                category="confirmation", suggested_section=None, why=[{"code": "off-domain", "detail": "protein"}])
    data["increments"].append(item)
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    block = text[text.index("FoldKern"):]
    assert said in block.splitlines()
