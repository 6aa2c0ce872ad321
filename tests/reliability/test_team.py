"""A team on one store: members who may only read, and the commands they run while the nightly writes.

A member who can read the workspace but not write it runs every read command; a command that
writes says so in one line. On SQLite the workspace is made unwritable in a way that binds root
too (``chattr +i`` on every file and folder), and, where the machine allows it, kb also runs as
an unprivileged user.
"""
from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.support import DAY, REPO, dump, nightly_process, one_error_line, sample_on
from tests.reliability.support import kb_inproc as kb

D = DAY.isoformat()
PAPER = "2609.33252"          # anchored in the sample's knowledge doc (the Oct-7 round) and classified
READ_COMMANDS = [
    ["db", "status"], ["db", "status", "--format", "json"], ["db", "check"],
    ["show", PAPER], ["show", PAPER, "--format", "json"],
    ["search", "推理"], ["search", "prefill decode", "--format", "json"],
    ["query", "papers", "--format", "json"], ["query", "anchored"], ["query", "anchored", "--section", "2.3"],
    ["flags"], ["flags", "--open", "--format", "json"], ["flags", "show", "1"],
    ["audit"], ["explain", PAPER], ["sources", "status"], ["eval", "sections", "inference"],
    ["anchor", "2610.09701", "--section", "2.3", "--date", D, "--dry-run"],   # prints the diff, writes nothing
]
WRITE_COMMANDS = [
    ["ingest", "workspace"], ["nightly", "--date", D, "--offline"], ["brief", "--date", D], ["classify"],
    ["flags", "resolve", "1", "--as", "verified"], ["anchor", "2610.09701", "--section", "2.3"],
]


def _chattr(flag: str, root: Path) -> bool:
    try:
        return subprocess.run(["chattr", "-R", flag, str(root)], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@contextlib.contextmanager
def immutable(root: Path) -> Iterator[None]:
    """Every file and folder under ``root`` immutable (binds root too); skip where unsupported."""
    if not _chattr("+i", root):
        _chattr("-i", root)
        pytest.skip("chattr +i is not available on this file system")
    try:
        yield
    finally:
        _chattr("-i", root)


def read_code(command: str) -> int:
    """The exit code of a read command that answers: 0, but 1 for `kb audit`, which lists the sample's findings."""
    return 1 if command == "audit" else 0


def read_outputs(home: Path, run=None) -> dict[str, tuple[int, str]]:
    """Exit code and output of every read command (the workspace's path written as <home>)."""
    run = run or (lambda *args: kb("--home", str(home), *args))
    return {" ".join(args): (r.returncode, r.stdout.replace(str(home), "<home>")) for args in READ_COMMANDS
            for r in [run(*args)]}


def _no_store_files_but_the_store(home: Path) -> None:
    """As after the nightly ended: no -wal or -shm beside the store (no connection has it open)."""
    for p in (home / ".kb").iterdir():
        if p.name.endswith(("-wal", "-shm")):
            p.unlink()


def test_a_member_who_may_only_read_runs_every_read_command(briefed: Path, kept) -> None:
    """The workspace and its store unwritable for everyone: every read command answers as it does for
    the nightly's user; every write command says in one line that it needs write access."""
    expected = read_outputs(briefed)
    assert all(code == read_code(what) for what, (code, _) in expected.items()), expected
    _no_store_files_but_the_store(briefed)
    before = dump(briefed / ".kb" / "kb.sqlite")
    with immutable(briefed):
        got = read_outputs(briefed)
        failures = {" ".join(args): kb("--home", str(briefed), *args) for args in WRITE_COMMANDS}
    assert got == expected
    for what, result in failures.items():
        line = one_error_line(result.stderr)
        assert result.returncode in (1, 2) and "can only read" in line and "writes" in line, (what, line)
    assert kept.rows(before, dump(briefed / ".kb" / "kb.sqlite")) == 0
    assert kept.store(briefed / ".kb" / "kb.sqlite") == "ok"



def test_a_member_who_may_only_read_the_store_labels(briefed: Path, kept) -> None:
    """`kb label` reads the store (is the ID there?) and appends to a team file: a member who may write the
    team's files but only read the store (the nightly's, under the README's UMask) labels, two at once too."""
    _no_store_files_but_the_store(briefed)
    before = dump(briefed / ".kb" / "kb.sqlite")
    with immutable(briefed / ".kb"):
        alice = kb("--home", str(briefed), "label", "2610.09701", "--relevance", "primary", "--note", "alice")
        carol = kb("--home", str(briefed), "label", PAPER, "--relevance", "adjacent", "--note", "carol")
    assert (alice.returncode, carol.returncode) == (0, 0), alice.stderr + carol.stderr
    lines = (briefed / "organized" / "labels" / "inference.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(ln)["note"] for ln in lines] == ["alice", "carol"]
    assert kept.rows(before, dump(briefed / ".kb" / "kb.sqlite")) == 0



def test_a_member_who_may_not_write_the_briefings_resolves_a_flag(briefed: Path, kept) -> None:
    """A member in the writer role closes a flag in the store; the nightly's briefings (0640 under the README's
    UMask=0027) are not theirs to rewrite: the flag stays closed, the command says so in one warning, exit 0
    (it said `kb: error: cannot write …/briefings/….md: Permission denied`, exit 1, after closing the flag)."""
    before = (briefed / "briefings" / f"{D}-inference.md").read_bytes()
    with immutable(briefed / "briefings"):
        result = kb("--home", str(briefed), "flags", "resolve", "1", "--as", "dismissed", "--note", "bob")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["flag #1: dismissed"]
    line = one_error_line(result.stderr)
    assert "flags are closed" in line and "not rewritten" in line and "error" not in line, line
    assert (briefed / "briefings" / f"{D}-inference.md").read_bytes() == before
    shown = kb("--home", str(briefed), "flags", "show", "1", "--format", "json")
    assert json.loads(shown.stdout)["status"] == "dismissed"



def test_a_wal_another_member_left_that_the_writer_cannot_write_is_named(briefed: Path, kept) -> None:
    """A member's read leaves the -wal and -shm, theirs, with the store's mode; where the writer cannot write
    them (a store made 0644 in a folder the group writes), the nightly said `write to … failed: attempt to
    write a readonly database` once per source and then again. Now one line names the file, before any write."""
    _no_store_files_but_the_store(briefed)
    wal = briefed / ".kb" / "kb.sqlite-wal"
    wal.write_bytes(b"")
    with immutable(wal):
        result = kb("--home", str(briefed), "ingest", "workspace")
    line = one_error_line(result.stderr)
    assert result.returncode == 1 and "kb.sqlite-wal is not writable" in line and "can only read" in line
    assert kept.store(briefed / ".kb" / "kb.sqlite") == "ok"


WRITER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("UPDATE flags SET note = 'changed by the nightly' WHERE id = 1")
print("written", flush=True)
sys.stdin.readline()
conn.close()
"""


def test_a_read_only_reader_sees_a_writer_that_starts_during_its_reads(briefed: Path, kept) -> None:
    """A store whose folder does not let the reader make SQLite's -shm is read as immutable; when a
    writer opens the store meanwhile, the reader notices and reads again through the writer's WAL."""
    from kb.store import Store
    db = briefed / ".kb" / "kb.sqlite"
    _no_store_files_but_the_store(briefed)
    if not _chattr("+i", briefed / ".kb"):
        pytest.skip("chattr +i is not available on this file system")
    try:
        store = Store.open(db, readonly=True)
        assert store._reader.immutable
        assert store.query("SELECT note FROM flags WHERE id = 1")[0][0] is None
    finally:
        _chattr("-i", briefed / ".kb")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "written"
        assert store.query("SELECT note FROM flags WHERE id = 1")[0][0] == "changed by the nightly"
        assert not store._reader.immutable           # now through the writer's WAL index
    finally:
        writer.communicate("done\n", timeout=30)
        store.close()
    assert kept.store(db) == "ok"


def _unprivileged() -> tuple[pwd.struct_passwd, str, str] | None:
    """(user, interpreter, PYTHONPATH): a user other than root that can run kb from this checkout."""
    import shutil as sh
    import sysconfig
    if os.geteuid() != 0:
        return None
    try:
        user = pwd.getpwnam("nobody")
    except KeyError:
        return None
    # This interpreter, or the system's of the same version (a venv's may live in root's home).
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    path = os.pathsep.join([str(REPO), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    for python in dict.fromkeys([sys.executable, sh.which(version) or "", f"/usr/bin/{version}"]):
        try:
            probe = subprocess.run([python, "-c", "import kb.cli, kb.store.search"], capture_output=True,
                                   user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd="/",
                                   env={"PYTHONPATH": path}, timeout=60)
        except OSError:   # the interpreter itself is out of that user's reach
            continue
        if probe.returncode == 0:
            return user, python, path
    return None


def test_read_commands_as_an_unprivileged_member(briefed: Path, kept) -> None:
    """kb run by another user than the workspace's owner (files 0644, folders 0755, as under the README's
    UMask=0022): read commands work, write commands say they need write access."""
    import tempfile
    found = _unprivileged()
    if found is None:
        pytest.skip("no unprivileged user here can run this Python and import kb (needs root, and an "
                    "interpreter and checkout that user can read)")
    user, python, pythonpath = found
    expected = read_outputs(briefed)
    base = Path(tempfile.mkdtemp(prefix="kb-team-"))   # pytest's own folders are private to root
    try:
        base.chmod(0o755)
        team = base / "team"
        shutil.copytree(briefed, team)
        _no_store_files_but_the_store(team)
        for p in [team, *team.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        env = {"PYTHONPATH": pythonpath, "HOME": str(base), "LANG": "C.UTF-8"}

        def member(*args: str) -> subprocess.CompletedProcess:
            return subprocess.run([python, "-m", "kb.cli", "--home", str(team), *args], capture_output=True,
                                  text=True, user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd="/", env=env,
                                  timeout=120)
        assert read_outputs(team, member) == expected
        for args in WRITE_COMMANDS[:3]:
            result = member(*args)
            assert result.returncode in (1, 2) and "can only read" in one_error_line(result.stderr), args
        assert kept.rows(dump(briefed / ".kb" / "kb.sqlite"), dump(team / ".kb" / "kb.sqlite")) == 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


# --------------------------------------------------------------------------- a team on PostgreSQL
def _sample(tmp_path: Path, name: str, url: str) -> Path:
    return sample_on(url, tmp_path / name)


def _nightly(ws: Path, *extra: str) -> subprocess.Popen:
    return nightly_process(ws, D, *extra)


def _team_sql() -> list[str]:
    """The role statements of docs/team.md, as the team's administrator runs them (``\\c`` lines kept)."""
    import re
    text = (REPO / "docs" / "team.md").read_text(encoding="utf-8")
    block = re.search(r"```sql\n(.*?)```", text, re.S)
    assert block, "docs/team.md has no ```sql block"
    statements, current = [], []
    for line in block[1].splitlines():
        bare = line.strip()
        if not bare or bare.startswith("--"):
            continue
        if bare.startswith("\\c"):
            statements.append(bare)
            continue
        current.append(bare)
        if bare.endswith(";"):
            statements.append(" ".join(current).rstrip(";"))
            current = []
    assert not current, current
    return statements


class TeamDb:
    """docs/team.md's roles and database, made as written with unique names (``kbw_<tag>`` …), plus a login
    ``<name>_<tag>`` (password ``pw-<name>``) in the writer role for each of ``writers``; dropped on exit.
    ``url(role, password)`` connects as a role."""

    def __init__(self, pg_server, writers: tuple[str, ...] = ()) -> None:
        import secrets
        self.pg, self.tag = pg_server, secrets.token_hex(3)
        self.members = [f"{name}_{self.tag}" for name in writers]
        self.extra = [f"CREATE ROLE {m} LOGIN PASSWORD 'pw-{n}' IN ROLE kbw_{self.tag}"
                      for n, m in zip(writers, self.members)]
        self.db = f"kbt_{self.tag}"
        self.roles = [f"alice_{self.tag}", *self.members, f"kbr_{self.tag}", f"kbw_{self.tag}"]

    def url(self, role: str, password: str, db: str | None = None) -> str:
        from urllib.parse import urlsplit, urlunsplit
        u = urlsplit(self.pg.url)
        return urlunsplit((u.scheme, f"{role}:{password}@{u.hostname}:{u.port}", f"/{db or self.db}", "", ""))

    def admin(self) -> str:
        from urllib.parse import urlsplit
        u = urlsplit(self.pg.url)
        return self.url(u.username, u.password)

    def __enter__(self) -> TeamDb:
        import re
        names = {"kb_writer": f"kbw_{self.tag}", "kb_reader": f"kbr_{self.tag}", "alice": f"alice_{self.tag}",
                 "kb_team": self.db}

        def named(sql: str) -> str:
            sql = sql.replace("'change-me'", "'pw-w'").replace("'alice-password'", "'pw-a'")
            return re.sub(r"\b(kb_writer|kb_reader|alice|kb_team)\b", lambda m: names[m[1]], sql)
        target = self.pg.url
        try:
            for sql in [named(s) for s in _team_sql()] + self.extra:
                if sql.startswith("\\c"):
                    target = self.admin()
                    continue
                self.pg.execute(sql, target)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.pg.drop_database(self.db)
        for role in self.roles:
            self.pg.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_the_roles_of_docs_team_md_writer_nightly_and_reader_members(tmp_path: Path, pg_server, kept) -> None:
    """The GRANT statements of docs/team.md, run as written (names made unique): the writer role's nightly
    creates and fills the store; a member in the reader role runs every read command with the same
    output, and every write command says in one line that the role can only read."""
    with TeamDb(pg_server) as team:
        tag = team.tag
        ws = _sample(tmp_path, "team", team.url(f"kbw_{tag}", "pw-w"))
        night = _nightly(ws)
        assert night.communicate(timeout=180) and night.returncode == 0
        expected = read_outputs(ws)
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("KB_STORE_URL", team.url(f"alice_{tag}", "pw-a"))
            got = {k: (code, out.replace(f"alice_{tag}:", f"kbw_{tag}:")) for k, (code, out) in read_outputs(ws).items()}
            assert got == expected                         # `db status` names the member's own role
            for args in WRITE_COMMANDS:
                result = kb("--home", str(ws), *args)
                line = one_error_line(result.stderr)
                assert result.returncode in (1, 2) and "can only read" in line and "pw-a" not in line, (args, line)
        assert kept.items(len(READ_COMMANDS), sum(code == read_code(what) for what, (code, _) in expected.items())) == 0


def test_a_member_in_the_writer_role_who_comes_first_makes_the_tables_the_writer_roles(
        tmp_path: Path, pg_server, kept) -> None:
    """docs/team.md's roles, plus a member ``bob`` in the writer role whose command is the first on the new
    database: the migrations run as the database's owner, so the writer's nightly and the reader member work
    after it (made as bob, the tables locked both out: "permission denied for table migrations"). His read
    before it makes no table: a read never makes the store."""
    team = TeamDb(pg_server, writers=("bob",))
    bob = team.members[0]
    with team:
        tag = team.tag
        ws = _sample(tmp_path, "team", team.url(f"kbw_{tag}", "pw-w"))
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("KB_STORE_URL", team.url(bob, "pw-bob"))
            looked = kb("--home", str(ws), "search", "推理")        # a read command: no store yet, none made
            first = kb("--home", str(ws), "ingest", "workspace")   # a write command, first on the database
        assert looked.returncode == 1 and "no kb store in " in looked.stderr, looked.stderr
        assert first.returncode == 0, first.stderr
        night = _nightly(ws)
        _, err = night.communicate(timeout=180)
        assert night.returncode == 0, err
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("KB_STORE_URL", team.url(f"alice_{tag}", "pw-a"))
            read = kb("--home", str(ws), "query", "anchored", "--format", "json")
        assert read.returncode == 0 and '"arxiv_id"' in read.stdout, read.stderr
        owners = pg_server.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'", team.admin())
        assert kept.items(3, sum([first.returncode == 0, night.returncode == 0, read.returncode == 0])) == 0
        assert owners == [(f"kbw_{tag}",)], owners


def test_a_reader_member_reads_a_store_lacking_only_a_data_only_migration(tmp_path: Path, pg_server) -> None:
    """A member who upgraded kb before the writer did: a migration that only asks for files to be read again
    (``Migration.data_only``, m022) is left to the writer, and the member reads the store as it is (every
    read command was refused: "needs migration …, and this role may not make it")."""
    from kb.store.migrations import MIGRATIONS
    with TeamDb(pg_server) as team:
        tag = team.tag
        ws = _sample(tmp_path, "team", team.url(f"kbw_{tag}", "pw-w"))
        assert kb("--home", str(ws), "ingest", "workspace").returncode == 0     # the writer makes the tables
        lacking = [m.name for m in MIGRATIONS if m.data_only][-1]    # made again by the writer's next open
        pg_server.execute(f"DELETE FROM migrations WHERE name = '{lacking}'", team.admin())
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("KB_STORE_URL", team.url(f"alice_{tag}", "pw-a"))
            read = kb("--home", str(ws), "query", "anchored", "--format", "json")
        assert read.returncode == 0, read.stderr
        names = lambda: [r[0] for r in pg_server.execute("SELECT name FROM migrations", team.admin())]  # noqa: E731
        assert lacking not in names()
        assert kb("--home", str(ws), "db", "status").returncode == 0 and lacking in names()
