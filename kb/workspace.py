"""Find a workspace, create one, and keep every path inside it."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from kb.config import Config, load_config
from kb.errors import ConfigError, WorkspaceError
from kb.resources import read_resource

CONFIG_NAME = "kb.toml"
# The team's own files at the workspace's top: its configuration, its taxonomy override (a README too)
TEAM_ROOT_FILES = (CONFIG_NAME, "taxonomy.toml")
STORE_URL_ENV = "KB_STORE_URL"
TEAM_FOLDERS = ("inbox", "organized")          # the team's own files: kb reads them, never writes them
STATE_FOLDER = ".kb"                           # kb's own state (the store, logs, models): no --out goes there
BRIEFINGS_FOLDER = "briefings"                 # the day's briefings: no site goes there
FOLDERS = ("inbox", "organized/paper_cards", "organized/queue", "organized/knowledge", BRIEFINGS_FOLDER, STATE_FOLDER)


@dataclass
class Workspace:
    """A team folder: kb.toml, inbox/, organized/, briefings/ and kb's own .kb/."""

    root: Path
    config: Config

    @property
    def store_path(self) -> Path:
        """The SQLite store's file (whether or not the workspace uses it)."""
        return self.root / ".kb" / "kb.sqlite"

    @property
    def store_target(self) -> str | Path:
        """Where the store is: ``$KB_STORE_URL`` when set (a member's own database role, or "" for
        the file), else ``[store] url`` of kb.toml, else the SQLite file."""
        url = os.environ.get(STORE_URL_ENV)
        if url is not None:
            from kb.config_values import store_url_problem
            if problem := store_url_problem(url):
                raise ConfigError(f"{STORE_URL_ENV}: {problem}")
        else:
            url = self.config.store_url
        return url or self.store_path

    def path(self, relative: str | Path) -> Path:
        """``relative`` resolved inside the workspace; refuses anything that would leave it."""
        return resolve_inside(self.root, relative)

    def relative(self, path: Path) -> str:
        """``path`` relative to the workspace when it is inside, else as given."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def output_path(self, out: str | Path, *, force: bool = False) -> Path:
        """Where ``--out`` writes: anywhere the user can write (relative paths are the workspace's),
        but never over the team's files — kb.toml, a knowledge doc, anything under inbox/ or
        organized/ — nor into kb's own ``.kb/`` (the store); over any existing file only with
        ``force`` (a recorded briefing in briefings/ is the night's record, which the site publishes)."""
        target = followed(self.root / Path(out).expanduser(), f"--out {out}")
        root = self.root.resolve()
        inside = target == root or root in target.parents
        rel = target.relative_to(root).as_posix() if inside else None
        if target.is_dir():
            raise WorkspaceError(f"--out {out}: is a folder; name a file")
        self.refuse_team_file(target, f"--out {out}")
        if rel is not None and rel.split("/", 1)[0] == STATE_FOLDER:
            raise WorkspaceError(f"--out {out}: {rel} is in kb's own {STATE_FOLDER}/ (the store); kb never writes an "
                                 "output there", hint="write to briefings/ or outside the workspace")
        if target.exists() and not force:
            raise WorkspaceError(f"--out {out}: {target} exists", hint="pass --force to overwrite it")
        return target


    def refuse_team_file(self, target: Path, what: str) -> None:
        """Refuse to write ``target`` (resolved) when it is the team's: kb.toml, taxonomy.toml, the workspace's
        README, a knowledge doc, anything under inbox/ or organized/, a recording a source reads (``what``
        names the argument in the message)."""
        root = self.root.resolve()
        if target != root and root not in target.parents:
            return
        rel = target.relative_to(root).as_posix()
        docs = {(root / t.doc).resolve() for t in self.config.topics}
        if rel in TEAM_ROOT_FILES or rel.split(".")[0].upper() == "README" or target in docs \
                or rel.split("/", 1)[0] in TEAM_FOLDERS:
            raise WorkspaceError(f"{what}: {rel} is the team's file; kb never writes there",
                                 hint="write to briefings/ or outside the workspace")
        if any(pattern.fullmatch(target.as_posix()) for pattern in self._recordings(root)):
            raise WorkspaceError(f"{what}: {rel} is a source's recording (kb.toml); kb never writes over it",
                                 hint="write to briefings/ or outside the workspace")

    def _recordings(self, root: Path) -> list[re.Pattern[str]]:
        """The recordings kb.toml names, as patterns of paths in the workspace (``{date}``: any day's)."""
        cfg = self.config
        named = [cfg.arxiv_recording, cfg.hf_recording, *(b.recording for b in cfg.blogs)]
        return [re.compile("[^/]*".join(re.escape(part) for part in os.path.normpath(root / t).split("{date}")))
                for t in named if t]

    def output_dir(self, out: str | Path, *, marker: str, force: bool = False, named: str = "--out") -> Path:
        """Where a ``--out DIR`` folder goes: like ``output_path``, never among the team's files nor
        the workspace itself (symlinks followed), and into a folder holding files only if kb wrote it
        (its ``marker`` file is there) or with ``force``. ``named``: what the error calls the folder
        (``[site] dir`` for the configured one)."""
        target = followed(self.root / Path(out).expanduser(), f"{named} {out}")
        root = self.root.resolve()
        rel = target.relative_to(root).as_posix() if target == root or root in target.parents else None
        # the briefings folder itself holds the day's files; a folder inside it is a site's as any other
        if rel in (".", BRIEFINGS_FOLDER) or (rel is not None and rel.split("/", 1)[0] in (*TEAM_FOLDERS, STATE_FOLDER,
                                                                                         CONFIG_NAME)):
            raise WorkspaceError(f"{named} {out}: {rel} is the team's or kb's own folder; kb never writes a site there",
                                 hint="e.g. site, or a folder outside the workspace")
        if target.exists() and not target.is_dir():
            raise WorkspaceError(f"{named} {out}: is a file; name a folder")
        if target.is_dir() and any(target.iterdir()) and not (target / marker).is_file() and not force:
            raise WorkspaceError(f"{named} {out}: {target} holds files kb did not write",
                                 hint="name an empty or new folder" + (", or pass --force" if named == "--out" else ""))
        return target


def followed(path: Path, what: str | Path) -> Path:
    """``path`` resolved, symlinks followed; a loop (or a link that cannot be followed) is a WorkspaceError
    naming ``what``."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:   # a symlink loop (RuntimeError before Python 3.13, OSError after)
        raise WorkspaceError(f"{what}: a symlink loop, or a path that cannot be followed "
                             f"({type(exc).__name__})") from None


def resolve_inside(root: Path, relative: str | Path) -> Path:
    """Join and resolve (following symlinks); raise WorkspaceError if the result leaves ``root``."""
    root = root.resolve()
    target = followed(root / relative, relative)
    if target != root and root not in target.parents:
        raise WorkspaceError(f"{relative}: path leads outside the workspace {root}")
    return target


def unfollowed_inside(root: Path, relative: str | Path) -> Path:
    """``relative`` with its folder resolved inside ``root`` (``resolve_inside``) and its own name not followed:
    a file kb replaces there (a cache) replaces a symlink in its place, never the file the link leads to."""
    rel = Path(relative)
    return resolve_inside(root, rel.parent) / rel.name


def find_root(home: str | Path | None = None, *, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> Path:
    """The workspace root: ``--home``, else ``$KB_HOME``, else the nearest folder upwards with a kb.toml."""
    env = os.environ if env is None else env
    explicit = home or env.get("KB_HOME")
    if explicit:
        root = Path(explicit).expanduser()
        if not (root / CONFIG_NAME).is_file():
            raise WorkspaceError(f"{root} is not a kb workspace (no {CONFIG_NAME})", hint="run `kb init DIR`")
        return root.resolve()
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            return folder
    raise WorkspaceError(f"no {CONFIG_NAME} in {here} or above",
                         hint="pass --home DIR, set KB_HOME, or run `kb init DIR`")


def open_workspace(home: str | Path | None = None) -> Workspace:
    """Locate the workspace and load its configuration."""
    root = find_root(home)
    return Workspace(root, load_config(root / CONFIG_NAME))


def init_workspace(root: Path) -> list[str]:
    """Create the folders and a commented kb.toml in ``root``; return what was created.

    An existing kb.toml is never overwritten.
    """
    created = []
    try:
        for folder in FOLDERS:
            p = root / folder
            if not p.is_dir():
                p.mkdir(parents=True, exist_ok=True)
                created.append(folder + "/")
        cfg = root / CONFIG_NAME
        if not cfg.exists():
            cfg.write_text(read_resource("data/kb.toml.default"), encoding="utf-8")
            created.append(CONFIG_NAME)
    except OSError as exc:
        raise WorkspaceError(f"cannot create workspace in {root}: {exc.strerror}") from exc
    return created
