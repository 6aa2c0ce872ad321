"""The briefing's rules, as data/briefing.toml (or a workspace's copy) gives them: the markers a team writes
(recap, exclusion, follow-up, a section asked for or refused), the facts and weights a judgement reads, the density
levels, the words the number and boundary rules read, and what each message and quantity is called in each
language. Parsed once per file content (``load_rules``); a table that does not read is one line naming the file
and the table."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from kb.resources import find_resource, read_toml_resource
from pipeline.brief.claim_words import ClaimWords, SaidOf
from pipeline.brief.conditions import ConditionWords
from pipeline.brief.likeness import GAP, OverlapWords
from pipeline.brief.model import Candidate


@dataclass
class Rules:
    """data/briefing.toml, parsed: each field is the table (or its key) of the same name."""

    recap: list[str]
    exclude: list[str]
    followup: list[str]
    facts: dict[str, re.Pattern[str]]
    weights: dict[str, float]
    density_absolute: list[tuple[int, str]]
    density_ratio: list[tuple[float, str]]
    quantities: dict[str, str]
    section_markers: list[str]
    section_negations: list[str] = field(default_factory=list)
    section_not_words: list[str] = field(default_factory=list)
    density_names: dict[str, dict[str, str]] = field(default_factory=dict)   # lang → level → its name
    recap_patterns: list[re.Pattern[str]] = field(default_factory=list)
    problem_names: dict[str, list[tuple[re.Pattern[str], str]]] = field(default_factory=dict)   # lang → catalogue
    quantity_names: dict[str, dict[str, str]] = field(default_factory=dict)   # lang → quantity → its name
    place_names: dict[str, dict[str, str]] = field(default_factory=dict)      # lang → kb's place label → its text
    said_of: SaidOf = field(default_factory=SaidOf)   # the words before a quantity a value is said of ("to")
    claim_words: ClaimWords = field(default_factory=ClaimWords)   # which numbers are compared ("from 1.9 s": not)
    overlap_words: OverlapWords = field(default_factory=OverlapWords)   # "和 X 是同一件事" ([overlap_words])
    routing: list[re.Pattern[str]] = field(default_factory=list)   # beside a section request: who reads it, when
    correction: list[str] = field(default_factory=list)   # between an old figure and the new ("改成", "→")
    settled: list[str] = field(default_factory=list)      # which of two figures holds ("以摘要为准", "抄错了")
    hearsay: list[str] = field(default_factory=list)      # someone else's word passed on ("群里有人说")
    measured_by_us: list[str] = field(default_factory=list)   # … or the author's own run ("我用 curl 脚本")
    unsettled: list[str] = field(default_factory=list)    # … a line asking which figure holds settles nothing
    followup_not: list[str] = field(default_factory=list)   # a follow-up that is a paper ("a follow-up of")
    quoting: list[str] = field(default_factory=list)      # the source copies the paper's figures ("摘要", "abstract")
    other_setup: list[str] = field(default_factory=list)  # … or measured otherwise than the paper ("卡不一样")
    off_topic: list[str] = field(default_factory=list)    # a line off the item's subject ("题外话")
    announced: list[str] = field(default_factory=list)    # a paper still to come ("还没放出来", "will be posted")
    sourced: list[str] = field(default_factory=list)      # a line says where its figure was measured ("看板")
    unsourced: list[str] = field(default_factory=list)    # … or that its source is still missing ("出处还没找到")
    decided: list[str] = field(default_factory=list)      # the team's decision on an item ("不锚，不进队", "anchor it")
    undecided: list[str] = field(default_factory=list)    # … not a question about it ("锚不锚今天定")
    decided_against: list[str] = field(default_factory=list)   # … one keeping it out of the doc ("不锚", "不进文档")
    decided_aside: list[str] = field(default_factory=list)   # … one about the queue or cards alone ("不进队")
    deferred: list[str] = field(default_factory=list)   # … a decision put off ("先不锚，周五再定")
    own_field: list[str] = field(default_factory=list)   # a paper's words naming the doc's field ("LLM")
    conditions: ConditionWords = field(default_factory=ConditionWords)   # what a figure is measured on ("H100")

    def is_recap(self, own_text: str) -> bool:
        """Does the (lower-cased) text say it repeats what the team has (a marker, or a pattern's match)?"""
        return any(m in own_text for m in self.recap) or any(p.search(own_text) for p in self.recap_patterns)

    def excludes(self, own_text: str, doc: str) -> bool:
        """Does the (lower-cased) text say it is not for ``doc``? Markers name the doc as ``{doc}``."""
        return any(m.replace("{doc}", doc.lower()) in own_text for m in self.exclude)

    def excluded_by(self, c: Candidate, doc: str) -> list[str]:
        """Who of the team wrote that the item is not for ``doc`` ("不进 inference"): the authors of the note
        entries that say so, and the cards that do (their files: a card names no author). Only the team's
        own text counts, as for a section it asks for (``stated_section``); an abstract or a post speaks for
        no one here."""
        return list(dict.fromkeys(s.name if s.kind == "entry" else s.path or s.name for s in c.sources
                                  if s.kind in ("entry", "card") and self.excludes((s.text or "").lower(), doc)))


# The rules last read and the bytes they were read from: a night reads them for each doc and each
# language's words, and parsing the file is what costs, not reading it.
_READ: list[tuple[tuple[str, bytes | None, bytes | None], Rules]] = []


def load_rules(workspace: Path | None = None) -> Rules:
    """The briefing rules (data/briefing.toml; a workspace may override the file). An override that does
    not read is a ConfigError naming the file and the table: the nightly stops with one line (exit 2).
    Read again only when the file's bytes (or, under an override, the shipped file's) changed."""
    shipped, path = find_resource("data/briefing.toml"), find_resource("data/briefing.toml", workspace)
    key = (str(path), _bytes_of(path), _bytes_of(shipped) if path != shipped else None)
    if _READ and _READ[0][0] == key:
        return _READ[0][1]
    rules = _read_rules(workspace)
    _READ[:] = [(key, rules)]
    return rules


def _bytes_of(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:   # reading it again says what is wrong
        return None


def _read_rules(workspace: Path | None) -> Rules:
    path, raw = read_toml_resource("data/briefing.toml", workspace)
    if path != find_resource("data/briefing.toml"):
        # A table the workspace's copy lacks is kb's own: a copy made before kb added one (``[said_of]``,
        # ``[claim_words]``, ``[compared]``) keeps reading as kb does. A team turns a table off by writing it empty.
        raw = {**read_toml_resource("data/briefing.toml")[1], **raw}

    def part(where: str, build: Callable[[], Any]) -> Any:
        """``build()``, its failure one line naming the file and ``where`` (``[markers] recap``)."""
        try:
            return build()
        except re.error as e:
            problem = f"a pattern is not a regular expression ({e.msg} at position {e.pos})"
        except KeyError as e:
            problem = f"no key {e}"
        except _EmptyWord:
            problem = "an empty word (\"\" or only spaces) in a word list"
        except (TypeError, ValueError, AttributeError):   # not the value itself: no file content in a message
            problem = "a value of the wrong type or shape"
        raise ConfigError(f"{path}: {where}: {problem}", hint="compare it with kb's own data/briefing.toml")

    markers: dict[str, Any] = part("[markers]", lambda: dict(raw["markers"]))
    density: dict[str, Any] = part("[density]", lambda: dict(raw["density"]))

    def words(key: str, fold: Callable[[str], str] = str.lower, required: bool = False) -> list[str]:
        return part(f"[markers] {key}", lambda: [fold(m) for m in (markers[key] if required else markers.get(key, []))])

    return Rules(words("recap", required=True), words("exclude", required=True), words("followup"),
                 part("[facts]", lambda: {k: re.compile(v) for k, v in raw["facts"].items()}),
                 part("[weights]", lambda: {k: float(v) for k, v in raw["weights"].items()}),
                 part("[density] absolute", lambda: [(int(n), str(lvl)) for n, lvl in density["absolute"]]),
                 part("[density] ratio", lambda: [(float(n), str(lvl)) for n, lvl in density["ratio"]]),
                 part("[quantities]", lambda: dict(raw.get("quantities", {}))),
                 words("section", str.casefold), words("section_not", str.casefold),
                 words("section_not_words", str.casefold),
                 part("[density.names]", lambda: {lang: dict(n) for lang, n in density.get("names", {}).items()}),
                 part("[markers] recap_patterns",
                      lambda: [re.compile(p, re.M) for p in markers.get("recap_patterns", [])]),
                 part("[problem_names]", lambda: {lang: [(re.compile(p), str(text)) for p, text in pairs]
                                                  for lang, pairs in raw.get("problem_names", {}).items()}),
                 part("[quantity_names]", lambda: {lang: {str(q): str(name) for q, name in names.items()}
                                                   for lang, names in raw.get("quantity_names", {}).items()}),
                 part("[place_names]", lambda: {lang: {str(label): str(text) for label, text in names.items()}
                                                for lang, names in raw.get("place_names", {}).items()}),
                 said_of=part("[said_of]", lambda: _said_of(raw.get("said_of", {}))),
                 claim_words=part("[claim_words]", lambda: _claim_words(
                     raw.get("claim_words", {}), part("[compared]", lambda: _compared(raw.get("compared", {}))),
                     part("[quantities_beside]", lambda: _beside(raw.get("quantities_beside", {}))),
                     part("[quantity_units]", lambda: _units(raw.get("quantity_units", {}))))),
                 overlap_words=part("[overlap_words]", lambda: _overlap_words(raw.get("overlap_words", {}))),
                 routing=part("[markers] routing", lambda: [re.compile(p) for p in markers.get("routing", [])]),
                 correction=words("correction", str.casefold), settled=words("settled", str.casefold),
                 hearsay=words("hearsay", str.casefold), unsettled=words("unsettled", str.casefold),
                 measured_by_us=words("measured_by_us", str.casefold),
                 followup_not=words("followup_not", str.casefold),
                 quoting=words("quoting", str.casefold), other_setup=words("other_setup", str.casefold),
                 off_topic=words("off_topic", str.casefold),
                 announced=words("announced", str.casefold), sourced=words("sourced", str.casefold),
                 unsourced=words("unsourced", str.casefold),
                 # a word keeping an item out or setting it aside decides, whether or not ``decided`` lists it
                 decided=list(dict.fromkeys(words("decided", str.casefold) + words("decided_against", str.casefold)
                                            + words("decided_aside", str.casefold))),
                 undecided=words("undecided", str.casefold),
                 decided_against=words("decided_against", str.casefold),
                 decided_aside=words("decided_aside", str.casefold), deferred=words("deferred", str.casefold),
                 own_field=words("own_field", str.casefold),
                 conditions=part("[conditions]", lambda: _conditions(raw.get("conditions", {}))))


def _conditions(table: dict[str, Any]) -> ConditionWords:
    """``[conditions]``: its terms, weak terms, aliases (another spelling → the term), counts and verbs, an empty one
    refused."""
    aliases = {str(a): str(t) for a, t in table.get("aliases", {}).items()}
    counts = tuple((str(w), str(thing)) for thing, written in table.get("counts", {}).items() for w in written)
    return ConditionWords(_nonblank(str(t) for t in table.get("terms", [])),
                          tuple(zip(_nonblank(aliases), _nonblank(aliases.values()))),
                          tuple(zip(_nonblank(w for w, _ in counts), _nonblank(t for _, t in counts))),
                          frozenset(w.casefold() for w in _nonblank(str(v) for v in table.get("verbs", []))),
                          _nonblank(str(w) for w in table.get("weak", [])))


def _overlap_words(table: dict[str, Any]) -> OverlapWords:
    """``[overlap_words]``: its same, different and nothing phrases, its negations, the same phrases that say a
    repeat and the words of every anchored paper, lower-cased (a file without the table reads none); an empty phrase
    is refused, as in ``[compared]``: it would be found in every line."""
    words = {key: _nonblank(str.lower(w) for w in table.get(key, []))
             for key in ("same", "different", "nothing", "negations", "repeat", "every")}
    _nonblank(w.replace(GAP, "") for ws in words.values() for w in ws)   # "…" alone holds every line too
    words["same"] = tuple(dict.fromkeys((*words["same"], *words["repeat"])))   # a repeat is a likeness too
    return OverlapWords(**words)


def _said_of(table: dict[str, Any]) -> SaidOf:
    """``[said_of]``: its connectors, articles and comparatives, lower-cased (a file without the table reads
    none); an empty word is refused, as in ``[compared]``: a blank connector would read a value as said of any
    quantity after it."""
    words = {key: _nonblank(str.lower(w) for w in table.get(key, []))
             for key in ("connectors", "articles", "comparatives")}
    return SaidOf(**words)


def _claim_words(table: dict[str, Any], compared: tuple[str, ...] = (), beside: tuple[tuple[str, str], ...] = (),
                 units: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> ClaimWords:
    """``[claim_words]``: its not_names, baseline, changed_to, reporting, by, not_subject_after, approximately,
    paper_words, other_measures and misquoted, lower-cased (a file without the table reads none), with ``compared``,
    ``[compared]``'s words, ``beside``, ``[quantities_beside]``'s, and ``units``, ``[quantity_units]``'."""
    def words(key: str) -> tuple[str, ...]:
        return _nonblank(str.lower(w) for w in table.get(key, []))
    return ClaimWords(frozenset(words("not_names")), words("baseline"), words("changed_to"), compared, beside, units,
                      words("reporting"), words("by"), words("not_subject_after"), words("approximately"),
                      words("paper_words"), words("other_measures"), words("misquoted"))


def _beside(table: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """``[quantities_beside]``: (word lower-cased, the quantity it names), an empty word refused."""
    return tuple(zip(_nonblank(str.lower(w) for w in table), map(str, table.values())))


def _units(table: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[quantity_units]``: (quantity, the units it is measured in, as kb writes them: ×, %, s, GB, GiB,
    tokens/s, GB/s), in a fixed order. A value that is not a list of words is refused (``"GB"`` alone would
    read as the units G and B)."""
    out = []
    for quantity, units in table.items():
        if not isinstance(units, list) or not all(isinstance(u, str) and u.strip() for u in units):
            raise TypeError(f"{quantity}: not a list of units")
        out.append((str(quantity), tuple(units)))
    return tuple(sorted(out))


def _compared(table: dict[str, Any]) -> tuple[str, ...]:
    """``[compared] words``, lower-cased: after one, a name is a baseline (a file without the table reads none)."""
    return _nonblank(str.lower(w) for w in table.get("words", []))


class _EmptyWord(ValueError):
    """A word list of data/briefing.toml holds an empty word (``_nonblank``)."""


def _nonblank(words: Iterable[str]) -> tuple[str, ...]:
    """``words``, refused (``_EmptyWord``, which ``_read_rules`` turns into its one line) when one is empty or
    only spaces: it would match everywhere, or fail the first text that reaches it."""
    out = tuple(words)
    if any(not w.strip() for w in out):
        raise _EmptyWord("an empty word")
    return out


def problem_name(problem: str, lang: str, rules: Rules) -> str:
    """A knowledge doc's problem (kb writes it in English) as ``lang``'s text says it: the first
    ``[problem_names]`` pattern matching the whole message, else the message as it is."""
    for pattern, text in rules.problem_names.get(lang, ()):
        if (m := pattern.fullmatch(problem)) is not None:
            return m.expand(text)
    return problem


def quantity_name(quantity: str, lang: str, rules: Rules) -> str:
    """What a number measures (``[quantities]``' name: "throughput") as ``lang``'s text says it (the name
    itself where ``[quantity_names]`` has none)."""
    return rules.quantity_names.get(lang, {}).get(quantity, quantity)


def place_name(place: str, lang: str, rules: Rules) -> str:
    """Where a flag's evidence was found (a team file's path, or a label kb writes in English:
    ``verify.STORE_PLACE``, ``facts.DOC_PLACE`` and the doc's section after it) as ``lang``'s text
    says it: ``[place_names]``' text, else the place as written."""
    names = rules.place_names.get(lang, {})
    if place in names:
        return names[place]
    return next((text + place[len(label):] for label, text in names.items() if place.startswith(label + " ")), place)


def density_name(level: str, lang: str, rules: Rules) -> str:
    """A density level as ``lang``'s text says it (the level itself where the rules name none)."""
    return rules.density_names.get(lang, {}).get(level, level)
