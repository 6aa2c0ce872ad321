"""The nightly run: one stage list, built in one place, from sources to briefings.

ingest public sources → ingest the workspace → resolve cited IDs (online only)
→ classify what changed → verify and write the briefing of every topic and
language, in every format → the archive site (when ``[site] dir`` is set) →
summary. Each stage is a small function of the run context; a failing source
never stops the others, and the briefings say which one failed.
"""
from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from kb.errors import KBError
from kb.text import counted
from pipeline.context import RUN_LOG_ONLY, RunContext, utc_now
from pipeline.ingest.run import SourceReport

log = logging.getLogger(__name__)

EXIT_OK, EXIT_SOURCE_FAILED = 0, 1


@dataclass
class NightlyReport:
    """What the run did; ``summary()`` is what the command prints."""

    date: str
    sources: list[SourceReport] = field(default_factory=list)
    resolved: dict[str, list[str]] = field(default_factory=dict)
    classified: Any = None
    briefings: list[dict[str, Any]] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)
    site: dict[str, Any] | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_SOURCE_FAILED if any(s.status == "failed" for s in self.sources) else EXIT_OK

    def summary(self) -> str:
        lines = [f"kb nightly {self.date}"]
        lines += ["  " + s.summary().replace("\n", "\n  ") for s in self.sources]
        if self.resolved:
            lines.append(f"  resolve: {len(self.resolved.get('found', []))} found, "
                         f"{len(self.resolved.get('unknown', []))} unknown to arXiv")
        if self.classified is not None:
            lines.append("  " + self.classified.summary())
        for b in self.briefings:
            lines.append(f"  brief {b['topic']} [{b['lang']}]: {', '.join(b['paths'])} — "
                         f"{counted(b['increments'], 'increment')}, {counted(b['open_flags'], 'open flag')}, "
                         f"density {b['density']}"
                         + (" (unchanged)" if b.get("unchanged") else ""))
        if self.site is not None:
            lines.append(f"  site: {self.site['index']} — {self.site['written']} of {self.site['pages']} pages written")
        return "\n".join(lines)


Stage = tuple[str, Callable[[RunContext, NightlyReport], None]]


def _ingest_sources(ctx: RunContext, report: NightlyReport) -> None:
    from pipeline.ingest.public import ingest_public_sources
    report.sources += ingest_public_sources(ctx)


def _ingest_workspace(ctx: RunContext, report: NightlyReport) -> None:
    from pipeline.ingest.workspace import ingest_workspace
    report.sources.append(ingest_workspace(ctx))


def _resolve(ctx: RunContext, report: NightlyReport) -> None:
    from pipeline.ingest.api import ids_to_resolve, resolve_ids
    ids = ids_to_resolve(ctx)
    if not ids:
        return
    res = resolve_ids(ctx, ids)
    report.resolved = {"found": res.found, "unknown": res.unknown}
    if res.report is not None:
        report.sources.append(res.report)


def _tidy_index(ctx: RunContext, report: NightlyReport) -> None:
    from kb.store.search import merge_some
    merge_some(ctx.store)


def _classify(ctx: RunContext, report: NightlyReport) -> None:
    from pipeline.classify.stage import run_classify
    report.classified = run_classify(ctx)


def _brief(ctx: RunContext, report: NightlyReport) -> None:
    """Build every topic's briefing once; write it in every language and format of kb.toml (changed bytes only)."""
    from pipeline.brief.flags import closed_meanwhile
    from pipeline.brief.publish import write_day
    from pipeline.brief.render import compile_ahead
    from pipeline.brief.rules import density_name, load_rules
    from pipeline.brief.write import briefing_data
    rules = load_rules(ctx.workspace.root)
    compiling = compile_ahead(ctx.workspace.root, ctx.config.languages)   # while the first briefing is built
    try:
        for topic in ctx.config.topics:
            data = briefing_data(ctx, topic.slug)   # verification rules run (and flags are synced) once per topic
            compiling.wait()
            results = write_day(ctx, topic.slug, data)
            for _ in range(3):   # a flag closed while it rendered: its rewrite came first, so write the day again
                if not closed_meanwhile(ctx, topic.slug, data["flags"]):
                    break
                data = briefing_data(ctx, topic.slug)
                results = write_day(ctx, topic.slug, data)
            for lang in ctx.config.languages:
                mine = [r for r in results if r.lang == lang]
                report.briefings.append({
                    "topic": topic.slug, "lang": lang, "path": ctx.workspace.relative(mine[0].path),
                    "paths": [ctx.workspace.relative(r.path) for r in mine],
                    "increments": len(data["increments"]),
                    "density": density_name(data["density"]["level"], "en", rules),   # the summary is English
                    "open_flags": sum(f["status"] == "open" for f in data["flags"]),
                    "unchanged": not any(r.written for r in mine)})
    finally:
        compiling.wait()


def _site(ctx: RunContext, report: NightlyReport) -> None:
    """Rebuild the archive site (`[site] dir`): only pages whose bytes changed are written."""
    from pipeline.site.build import build_site, configured_site
    result = build_site(ctx.workspace, ctx.store, configured_site(ctx.workspace))
    report.site = {"index": ctx.workspace.relative(result.index), "written": result.written,
                   "pages": result.pages}


def ingest_everything(ctx: RunContext) -> list[SourceReport]:
    """The ingest stages alone (`kb ingest all`): every public source, then the workspace."""
    report = NightlyReport(ctx.today.isoformat())
    for _, stage in build_stages(ctx)[:2]:
        stage(ctx, report)
    return report.sources


def build_stages(ctx: RunContext) -> list[Stage]:
    """The nightly's stage list — the one place it is defined."""
    stages: list[Stage] = [("ingest sources", _ingest_sources), ("ingest workspace", _ingest_workspace)]
    if not ctx.offline:
        stages.append(("resolve cited IDs", _resolve))
    stages += [("tidy the search index", _tidy_index), ("classify", _classify), ("verify and brief", _brief)]
    if ctx.config.site_dir:
        stages.append(("archive site", _site))
    return stages


def run_nightly(ctx: RunContext, stages: list[Stage] | None = None) -> NightlyReport:
    """Run every stage in order; errors that are the run's own (config, store) propagate."""
    report = NightlyReport(ctx.today.isoformat())
    ctx.skip_unchanged = True   # incremental: unchanged payloads and briefings are not redone
    if ctx.config.site_dir:   # a configuration error: said before anything starts, not after the night's work
        from pipeline.site.build import configured_site
        configured_site(ctx.workspace)
    for name, stage in stages if stages is not None else build_stages(ctx):
        log.info("stage: %s", name)
        t0 = time.monotonic()
        stage(ctx, report)
        log.info("stage done: %s (%.2f s)", name, time.monotonic() - t0)
        report.stages.append(name)
    return report


KEEP_LOGS = 30


def _open_run_log(root: Path, today: date, now: Callable[[], datetime]) -> logging.Handler:
    """A log file per run in ``.kb/logs/`` (the last KEEP_LOGS kept), fed by every kb logger at INFO."""
    logs = root / ".kb" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    stem = f"nightly-{today.isoformat()}-{now().strftime('%Y%m%dT%H%M%S')}"
    handler = _new_log_file(logs, stem)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    _keep_latest_logs(logs)
    return handler


def _keep_latest_logs(logs: Path) -> None:
    """Remove all but the KEEP_LOGS newest run logs. It runs before the lock is taken, so another nightly
    may be removing the same files: one gone meanwhile is already done, never this run's failure."""
    runs = []
    for path in logs.glob("nightly-*.log"):
        with contextlib.suppress(FileNotFoundError):
            runs.append((path.stat().st_mtime, path.name, path))
    for *_, old in sorted(runs)[:-KEEP_LOGS]:   # oldest first; this run's file is among the kept
        old.unlink(missing_ok=True)


def _new_log_file(logs: Path, stem: str) -> logging.FileHandler:
    """A file of this run's own: the log opens before the nightly's lock is taken, so two nightlies
    started in the same second (two hosts' crontabs on one shared workspace) must not share one.
    The later one's name sorts after the first's (``_2.log`` after ``.log``), as the runs did."""
    n = 1
    while True:
        path = logs / (f"{stem}.log" if n == 1 else f"{stem}_{n}.log")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))   # the umask decides who reads it
        except FileExistsError:
            n += 1
            continue
        return logging.FileHandler(path, encoding="utf-8")


@contextlib.contextmanager
def run_log(root: Path, today: date, now: Callable[[], datetime] | None = None) -> Iterator[bool]:
    """The run's log file for the block, opened before the store is: a store that cannot be reached,
    or a lock that cannot be had, is in the night's log like any failure of the run, so the team
    sees in the morning why there was no briefing (the console's one line says the same).

    Yields whether a log is kept: a workspace where it cannot be written (a member who may only
    read it) runs without one, and its store then says in one line why the nightly cannot run.
    """
    try:
        handler = _open_run_log(root, today, now or utc_now)
    except OSError:
        yield False
        return
    logger = logging.getLogger()
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(min(previous, logging.INFO) if previous else logging.INFO)
    try:
        yield True
    except KBError as exc:   # the command prints it as one line; the run log keeps it
        log.error("nightly stopped: %s", exc, extra=RUN_LOG_ONLY)
        raise
    except Exception:
        log.error("nightly failed", exc_info=True, extra=RUN_LOG_ONLY)
        raise
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
        handler.close()


def run_unattended(ctx: RunContext, *, wait: float = 0.0) -> NightlyReport:
    """The cron entry point, inside ``run_log``: take the nightly's lock (waiting up to ``wait`` s), run the stages."""
    from pipeline.lock import nightly_lock
    with nightly_lock(ctx.store, ctx.workspace.root / ".kb" / "nightly.lock", wait=wait) as lock:
        if lock.get("stale"):
            log.warning("took over a stale lock left by pid %s (started %s)", lock["stale"]["pid"],
                        lock["stale"].get("started"))
        report = run_nightly(ctx)
        log.info("%s", report.summary())
        return report
