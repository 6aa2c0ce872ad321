"""What a trained model was made from: per-source licences and use, for ``LICENCES.md``.

Training-time only. ``sources(label_map, examples)`` counts, per curated list and abstract
source, its licence, its ``use`` (train / eval / exclude) and how many papers it labelled
for training; ``write_licences`` writes the table beside the model file.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline.classify.model import Model
from pipeline.classify.training.corpus import CURATED, Example
from pipeline.classify.training.labelmap import LabelMap

__all__ = ["sources", "write_licences"]


def sources(lm: LabelMap, ex: Sequence[Example]) -> dict[str, dict[str, Any]]:
    """``{source: {kind, licence, use, examples}}`` (examples: trainable papers it labelled)."""
    used = Counter()
    for e in ex:
        if e.trainable and e.source in CURATED:
            for name in e.lists:
                used[name] += 1
    out = {name: {"kind": "curated list", "licence": lr.licence, "use": lr.use,
                  "examples": used[name] if lr.use == "train" else 0} for name, lr in lm.lists.items()}
    for name, s in lm.abstract_sources.items():
        out[name] = {"kind": "abstracts", "licence": s["licence"], "use": s["use"], "examples": None}
    if lm.labelled is not None:
        papers = {e.key for e in ex if e.source == "labelled"}
        out[f"data/{lm.labelled.path.name}"] = {"kind": "kb's own labels of corpus abstracts",
                                                "licence": "MIT (kb)", "use": "train", "examples": len(papers)}
    return out


def write_licences(path: Path, report: dict[str, Any], model: Model) -> None:
    """``LICENCES.md`` beside the model: every source, its licence and what it was used for."""
    lines = ["# Licences of the data this model was trained on", "",
             f"Model `{model.id}` holds numbers (weights, IDF) and a vocabulary of single words, word",
             "pairs, CJK character pairs and taxonomy feature names — no titles or abstracts.", "",
             "| source | kind | licence | use | training examples it labelled |", "|---|---|---|---|---|"]
    for name, s in sorted(report["sources"].items()):
        n = "-" if s["examples"] is None else s["examples"]
        lines.append(f"| {name} | {s['kind']} | {s['licence']} | {s['use']} | {n} |")
    lines += ["", "`use`: train = trained on; eval = measured only (never trained on); exclude = not read.",
              "Abstract texts are the papers' authors' (redistributed by arXiv); the crawler repositories'",
              "licences above cover their collections. Also trained on: kb's own tests/data/classifier_dev.jsonl",
              "and data/taxonomy.toml (terms as features). tests/data/classifier_holdout.jsonl is never "
              "trained on.", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
