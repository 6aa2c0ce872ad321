"""A throwaway PostgreSQL server for the test suite: a real server, on loopback only.

Use from a conftest.py::

    pytest_plugins = ["tests.support.pg_server"]      # fixtures pg_server, pg_url, pg_fresh_url

or without pytest::

    with PostgresServer() as pg:                      # initdb + postgres in a temp dir
        url = pg.url                                  # postgresql://kb:PW@127.0.0.1:PORT/kb_test
        other = pg.create_database()                  # a fresh, empty database
        pg.halt(); pg.resume()                        # the server stops (connections closed), then runs again

What it does: finds the server binaries (``$KB_TEST_PG_BINDIR``, PATH, ``pg_config
--bindir``, /usr/lib/postgresql/*/bin, Homebrew), runs ``initdb -E UTF8`` in a private
temp dir and starts ``postgres`` listening on 127.0.0.1 (a free port) and on a unix
socket in that dir. Host connections need the generated password (scram-sha-256).

Running as root (CI): initdb and postgres refuse root, so both run as an unprivileged
user (``$KB_TEST_PG_OSUSER``, else ``postgres``, else ``nobody``) that owns the temp dir.

Nothing is left behind: the postmaster is our direct child (not daemonised by pg_ctl);
it stops with an immediate shutdown at the end, on Linux also when the test process
dies, even by SIGKILL (PR_SET_PDEATHSIG); a small watchdog process removes the temp dir
(and stops the server on systems without PDEATHSIG) when the test process is gone.
The postmaster itself also shuts down within a minute when its data dir disappears.

``KB_TEST_PG_URL=postgresql://user:pw@host:port/db`` uses that server instead (pg_url is
that database; pg_fresh_url needs the CREATEDB privilege). When no server can be had the
fixtures skip with one reason, or fail when ``KB_TEST_PG_REQUIRED=1`` (set it in CI so
that a broken install cannot turn into a green run of skipped tests).
"""
from __future__ import annotations

import contextlib
import glob
import itertools
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

ENV_URL = "KB_TEST_PG_URL"
ENV_REQUIRED = "KB_TEST_PG_REQUIRED"
ENV_BINDIR = "KB_TEST_PG_BINDIR"
ENV_OSUSER = "KB_TEST_PG_OSUSER"

_SERVER_SETTINGS = {  # a disposable cluster: durability off, quiet log
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "logging_collector": "off",
    "log_min_messages": "warning",
}
_counter = itertools.count(1)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be found, started or reached; the message says why."""


# --------------------------------------------------------------------------- binaries
def _version_key(path: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path)) or (0,)


def find_bindir() -> Path:
    """The directory holding initdb and postgres (pg_ctl is usually beside them)."""
    candidates: list[str] = []
    if os.environ.get(ENV_BINDIR):
        candidates.append(os.environ[ENV_BINDIR])
    for tool in ("initdb", "postgres", "pg_ctl"):
        found = shutil.which(tool)
        if found:  # Debian puts them off PATH; a /usr/local/bin symlink leads to the real dir
            candidates.append(str(Path(found).resolve().parent))
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10)
            candidates.append(out.stdout.strip())
    for pattern in ("/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin",
                    "/opt/homebrew/opt/postgresql*/bin", "/usr/local/opt/postgresql*/bin"):
        candidates += sorted(glob.glob(pattern), key=_version_key, reverse=True)
    for c in candidates:
        d = Path(c)
        if c and (d / "initdb").is_file() and (d / "postgres").is_file():
            return d
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, postgres) not found on PATH nor in /usr/lib/postgresql/*/bin "
        f"(install Debian's 'postgresql' package, set {ENV_BINDIR}, or point {ENV_URL} at a server)")


# --------------------------------------------------------------------------- root handling
def _server_user() -> tuple[int, int, str] | None:
    """(uid, gid, name) to run initdb/postgres as, or None to run them as ourselves."""
    if os.name != "posix" or os.geteuid() != 0:
        return None
    import pwd

    wanted = os.environ.get(ENV_OSUSER)
    for name in ([wanted] if wanted else ["postgres", "nobody"]):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        if pw.pw_uid != 0:
            return pw.pw_uid, pw.pw_gid, name
    raise PostgresUnavailable("running as root, and PostgreSQL refuses root: no unprivileged user "
                              f"('postgres', 'nobody') to run it as; set {ENV_OSUSER}")


def _traversable(path: Path, uid: int, gid: int) -> bool:
    for p in [path, *path.parents]:
        st = p.stat()
        bit = 0o100 if st.st_uid == uid else 0o010 if st.st_gid == gid else 0o001
        if not st.st_mode & bit:
            return False
    return True


def _base_dir(ids: tuple[int, int, str] | None) -> Path:
    """A temp base the server user can reach, short enough for a unix socket path (~107 bytes)."""
    for base in (tempfile.gettempdir(), "/tmp"):
        p = Path(base)
        if not p.is_dir() or len(str(p)) > 60:
            continue
        if ids is None or _traversable(p, ids[0], ids[1]):
            return p
    raise PostgresUnavailable("no temp dir that the server user can reach with a short path (tried $TMPDIR, /tmp)")


def _pdeathsig_hook():
    """A preexec_fn for the server's process: die with us (SIGQUIT = immediate shutdown), Linux only.

    It runs after the uid switch (the setting would not survive the switch) and must not
    import anything there: the server user may not be able to read our Python's files.
    """
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    sig = int(signal.SIGQUIT)

    def hook() -> None:
        prctl(1, sig, 0, 0, 0)  # PR_SET_PDEATHSIG

    return hook


# Started with a pipe from the test process on stdin. EOF without "done" means the test
# process died: stop the postmaster and remove the temp dir.
_WATCHDOG = r"""
import os, shutil, signal, sys, time
pid, root = int(sys.argv[1]), sys.argv[2]
try:
    said = sys.stdin.buffer.read()
except BaseException:
    said = b""
if said != b"done":
    def alive():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        try:  # a zombie waiting for init to reap it is as good as gone
            return open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return True
    if alive():
        os.kill(pid, signal.SIGQUIT)
        end = time.monotonic() + 10
        while alive() and time.monotonic() < end:
            time.sleep(0.05)
        if alive():
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(root, ignore_errors=True)
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _with_db(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + quote(dbname), parts.query, parts.fragment))


def sqlalchemy_url(url: str) -> str:
    """The same URL for SQLAlchemy with psycopg 3 (a bare postgresql:// means psycopg2 there)."""
    return re.sub(r"^postgres(ql)?://", "postgresql+psycopg://", url)


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# --------------------------------------------------------------------------- servers
class _Server:
    url: str            # the session database
    admin_url: str      # a database to issue CREATE/DROP DATABASE from

    def execute(self, sql: str, url: str | None = None) -> list[tuple]:
        """Run one statement (autocommit) with psycopg, or psql when psycopg is not installed."""
        url = url or self.admin_url
        try:
            import psycopg
        except ImportError:
            psycopg = None
        if psycopg is not None:
            with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
                cur = conn.execute(sql)
                return cur.fetchall() if cur.description else []
        psql = self._psql()
        out = subprocess.run([psql, "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                              "-d", url, "-c", sql], capture_output=True, text=True, timeout=60)
        if out.returncode:
            raise RuntimeError(f"psql: {out.stderr.strip()}")
        return [tuple(line.split("\t")) for line in out.stdout.splitlines() if line]

    def _psql(self) -> str:
        bindir = getattr(self, "bindir", None)
        psql = str(bindir / "psql") if bindir and (bindir / "psql").is_file() else shutil.which("psql")
        if not psql:
            raise PostgresUnavailable("neither psycopg nor psql is installed to talk to the server")
        return psql

    def create_database(self, name: str | None = None) -> str:
        """A fresh empty UTF8 database (copied from template0, a few ms); returns its URL."""
        name = name or f"kbt_{os.getpid()}_{next(_counter)}"
        self.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
        return _with_db(self.url, name)

    def drop_database(self, name_or_url: str) -> None:
        name = urlsplit(name_or_url).path.lstrip("/") if "://" in name_or_url else name_or_url
        try:
            self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # PostgreSQL 13+
        except Exception:
            self.execute(f'DROP DATABASE IF EXISTS "{name}"')

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def stop(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class ExternalPostgres(_Server):
    """A server someone else runs (KB_TEST_PG_URL): check it, create and drop databases on it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.admin_url = url
        self.created: list[str] = []

    def start(self) -> ExternalPostgres:
        try:
            enc = self.execute("SHOW server_encoding")[0][0]
        except Exception as exc:  # psycopg.OperationalError and friends
            raise PostgresUnavailable(f"{ENV_URL} is set but the server does not answer: {exc}") from exc
        if enc.upper() not in ("UTF8", "UTF-8"):
            raise PostgresUnavailable(f"{ENV_URL}: database encoding is {enc}, kb needs UTF8")
        return self

    def create_database(self, name: str | None = None) -> str:
        url = super().create_database(name)
        self.created.append(url)
        return url

    def stop(self) -> None:
        for url in self.created:
            with contextlib.suppress(Exception):
                self.drop_database(url)
        self.created.clear()


class PostgresServer(_Server):
    """initdb + postgres in a private temp dir, on 127.0.0.1:free port; removed by stop()."""

    def __init__(self, *, user: str = "kb", dbname: str = "kb_test", bindir: Path | None = None,
                 settings: dict[str, str] | None = None, start_timeout: float = 60.0,
                 locale: str | None = None) -> None:
        self.user, self.dbname = user, dbname
        self.bindir = Path(bindir) if bindir else None
        self.settings = {**_SERVER_SETTINGS, **(settings or {})}
        self.start_timeout = start_timeout
        self.locales = [["--no-locale"] if locale == "C" else [f"--locale={locale}"]] if locale else \
            [["--locale=C.UTF-8"], ["--no-locale"]]
        self.password = secrets.token_urlsafe(18)
        self.root: Path | None = None
        self.proc: subprocess.Popen | None = None
        self.watchdog: subprocess.Popen | None = None
        self.port = 0
        self.locale = ""
        self.version = ""
        self._how: tuple = ({}, None)   # how the server was run (process options, user): resume() runs it so again

    # ---------------------------------------------------------------- urls
    @property
    def datadir(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    @property
    def log(self) -> Path:
        assert self.root is not None
        return self.root / "postgres.log"

    def _url(self, db: str) -> str:
        return f"postgresql://{self.user}:{quote(self.password, safe='')}@127.0.0.1:{self.port}/{quote(db)}"

    @property
    def url(self) -> str:  # type: ignore[override]
        return self._url(self.dbname)

    @property
    def admin_url(self) -> str:  # type: ignore[override]
        return self._url("postgres")

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> PostgresServer:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        self.bindir = self.bindir or find_bindir()
        ids = _server_user()
        self.root = Path(tempfile.mkdtemp(prefix="kb-pg-", dir=_base_dir(ids)))
        os.chmod(self.root, 0o700)
        kw: dict = {"cwd": self.root, "env": {**os.environ, "HOME": str(self.root), "LC_ALL": "C",
                                               "LC_MESSAGES": "C", "PGTZ": "UTC", "TZ": "UTC"}}
        if ids:  # root: the server user owns the temp dir and runs the binaries
            os.chown(self.root, ids[0], ids[1])
            kw.update(user=ids[0], group=ids[1], extra_groups=[])
        self.version = subprocess.run([str(self.bindir / "postgres"), "--version"], capture_output=True,
                                      text=True, **kw).stdout.strip()
        self._initdb(kw, ids)
        self._how = (kw, ids)
        for attempt in range(3):  # a free port can be taken between the probe and the bind
            self.port = _free_port()
            if self._run_postgres(kw, ids):
                break
            if "could not bind" not in _tail(self.log, 40) or attempt == 2:
                raise PostgresUnavailable(f"postgres ({self.version}) did not start:\n{_tail(self.log)}")
        self.execute(f'CREATE DATABASE "{self.dbname}" TEMPLATE template0 ENCODING \'UTF8\'')

    def _initdb(self, kw: dict, ids) -> None:
        pwfile = self.root / "pwfile"
        fd = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(self.password + "\n")
        if ids:
            os.chown(pwfile, ids[0], ids[1])
        base = [str(self.bindir / "initdb"), "-D", str(self.datadir), "-U", self.user, "-E", "UTF8",
                "--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={pwfile}", "--no-sync"]
        try:
            # C.UTF-8: Unicode-aware lower() / case-insensitive matching, byte-order (C) sorting.
            # Where that locale is missing (older macOS), fall back to the plain C locale.
            for locale in self.locales:
                shutil.rmtree(self.datadir, ignore_errors=True)
                out = subprocess.run(base + locale, capture_output=True, text=True, timeout=120, **kw)
                if out.returncode == 0:
                    self.locale = locale[0].removeprefix("--locale=").removeprefix("--")
                    return
            raise PostgresUnavailable(f"initdb failed: {(out.stderr or out.stdout).strip()[-800:]}")
        finally:
            pwfile.unlink(missing_ok=True)

    def _run_postgres(self, kw: dict, ids) -> bool:
        cmd = [str(self.bindir / "postgres"), "-D", str(self.datadir), "-c", f"port={self.port}",
               "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.root}"]
        for k, v in self.settings.items():
            cmd += ["-c", f"{k}={v}"]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True,  # Ctrl-C reaches pytest, not the server
                                         preexec_fn=_pdeathsig_hook(),
                                         **kw)
        self._close_watchdog(say_done=True)  # one from a try on another port
        self.watchdog = subprocess.Popen([sys.executable, "-c", _WATCHDOG, str(self.proc.pid), str(self.root)],
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, start_new_session=True)
        return self._wait_ready()

    def _wait_ready(self) -> bool:
        """True once postmaster.pid says "ready" and the port answers; False if postgres exited."""
        deadline = time.monotonic() + self.start_timeout
        pidfile = self.datadir / "postmaster.pid"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                lines = pidfile.read_text().splitlines()
            except OSError:
                lines = []
            if len(lines) >= 8 and lines[7].strip() == "ready":
                with socket.create_connection(("127.0.0.1", self.port), timeout=5):
                    return True
            time.sleep(0.02)
        raise PostgresUnavailable(f"postgres did not get ready in {self.start_timeout:.0f} s:\n{_tail(self.log)}")

    def _close_watchdog(self, *, say_done: bool) -> None:
        if self.watchdog is None:
            return
        with contextlib.suppress(Exception):
            if say_done:
                self.watchdog.stdin.write(b"done")
            self.watchdog.stdin.close()
        _reap(self.watchdog)
        self.watchdog = None

    def halt(self) -> None:
        """Stop the server as its administrator would (a fast shutdown: every connection is closed),
        keeping its data; ``resume()`` starts it again on the same port."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            _reap(self.proc)

    def resume(self) -> None:
        """Start a halted server again, on its data and port."""
        if not self._run_postgres(*self._how):
            raise PostgresUnavailable(f"postgres did not start again:\n{_tail(self.log)}")

    def stop(self) -> None:
        """Immediate shutdown (the cluster is thrown away), then remove the temp dir. Idempotent."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGQUIT)  # = pg_ctl stop -m immediate
                _reap(self.proc)
            self.proc = None
        self._close_watchdog(say_done=True)
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


def postgres_server() -> _Server:
    """The server the tests use: KB_TEST_PG_URL's, else a private one (not started yet)."""
    url = os.environ.get(ENV_URL)
    return ExternalPostgres(url) if url else PostgresServer()


# --------------------------------------------------------------------------- pytest fixtures
try:
    import pytest
except ImportError:  # usable without pytest
    pytest = None

_unavailable: list[str] = []  # why the session's server could not be had (the fixture tries once)

if pytest is not None:

    def pytest_terminal_summary(terminalreporter) -> None:
        """The reason once at the end, however many tests it skipped."""
        if _unavailable:
            n = sum("PostgreSQL unavailable" in str(getattr(r, "longrepr", ""))
                    for r in terminalreporter.stats.get("skipped", []))
            terminalreporter.write_line(f"PostgreSQL tests skipped ({n}): {_unavailable[0]}", yellow=True)

    @pytest.fixture(scope="session")
    def pg_server():
        """The running server (started once per session; skips every test needing it if it can't)."""
        srv = postgres_server()
        try:
            srv.start()
        except PostgresUnavailable as exc:
            reason = " ".join(str(exc).split())  # one line: -rs shows it once per test file line
            if os.environ.get(ENV_REQUIRED, "") not in ("", "0"):
                pytest.fail(f"PostgreSQL is required ({ENV_REQUIRED}) but unavailable: {reason}", pytrace=False)
            _unavailable.append(reason)
            pytest.skip(f"PostgreSQL unavailable: {reason}")
        try:
            yield srv
        finally:
            srv.stop()

    @pytest.fixture(scope="session")
    def pg_url(pg_server) -> str:
        """URL of the session's database (shared by the tests that use it)."""
        return pg_server.url

    @pytest.fixture
    def pg_fresh_url(pg_server):
        """URL of a new empty database for this test alone, dropped afterwards."""
        url = pg_server.create_database()
        try:
            yield url
        finally:
            pg_server.drop_database(url)


def _reap(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Wait for ``proc`` to end, killing it after ``timeout`` seconds."""
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
