"""Headless Chromium for browser tests: a screenshot of a page, or its DOM after load.

    browser = Chromium()                                  # or the `chromium` fixture (skips when absent)
    browser.screenshot("http://127.0.0.1:8000/", out_png, window_size=(1280, 900))
    html = browser.dump_dom("http://127.0.0.1:8000/")     # the DOM after scripts ran

    with serve_directory(site_dir) as base_url:           # a static site on 127.0.0.1:free port
        ...

Each run gets a fresh profile (--user-data-dir in a temp dir, removed afterwards) and runs
in its own process group, which is killed at the end so no renderer/zygote/crashpad helper
outlives it. The flags keep it off the network: no background networking, component
updates, sync or QUIC, and a host resolver that resolves nothing but loopback names
(without it Chromium still sends DNS queries for Google hosts even with those flags).
--no-sandbox is needed as root (CI) and in containers without user namespaces.

The binary: $KB_TEST_CHROMIUM, else chromium / chromium-browser / google-chrome on PATH.
KB_TEST_CHROMIUM_REQUIRED=1 turns the fixture's skip into a failure (for CI).
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ENV_BINARY = "KB_TEST_CHROMIUM"
ENV_REQUIRED = "KB_TEST_CHROMIUM_REQUIRED"

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
MAC_APPS = ("/Applications/Chromium.app/Contents/MacOS/Chromium",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",        # small /dev/shm in containers
    "--hide-scrollbars",              # screenshots without a scrollbar
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
)

_NOISE = re.compile(r"dbus|Fontconfig|bytes written to file|^\s*$|DevTools listening|ERROR:.*(bus\.cc|object_proxy)")


class ChromiumError(RuntimeError):
    pass


def find_chromium() -> str | None:
    """Path of a Chromium/Chrome binary, or None."""
    env = os.environ.get(ENV_BINARY)
    if env:
        return env if (os.path.isfile(env) and os.access(env, os.X_OK)) else shutil.which(env)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    if sys.platform == "darwin":
        return next((p for p in MAC_APPS if os.path.exists(p)), None)
    return None


class Chromium:
    def __init__(self, binary: str | None = None, *, timeout: float = 60.0, extra_flags: Sequence[str] = (),
                 launcher: Sequence[str] = ()) -> None:
        found = binary or find_chromium()
        if not found:
            raise ChromiumError(f"no Chromium found (install Debian's 'chromium' package or set {ENV_BINARY})")
        self.binary = found
        self.timeout = timeout
        self.extra_flags = list(extra_flags)
        self.launcher = list(launcher)  # a command to run Chromium under (e.g. strace -f -o LOG)

    def version(self) -> str:
        return self._run(["--version"], url=None).stdout.strip()

    def screenshot(self, url: str, path: str | os.PathLike, *, window_size: tuple[int, int] = (1280, 800),
                   virtual_time_budget_ms: int | None = 2000) -> Path:
        """A PNG of the page at ``url`` (the viewport, ``window_size`` = width, height)."""
        path = Path(path).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        args = [f"--screenshot={path}", f"--window-size={window_size[0]},{window_size[1]}"]
        if virtual_time_budget_ms:
            args.append(f"--virtual-time-budget={virtual_time_budget_ms}")
        proc = self._run(args, url)
        if not path.is_file() or path.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            raise ChromiumError(f"no screenshot written for {url}: {self._errors(proc)}")
        return path

    def dump_dom(self, url: str, *, virtual_time_budget_ms: int | None = 2000) -> str:
        """The serialised DOM after load (scripts have run; timers up to the virtual time budget)."""
        args = ["--dump-dom"]
        if virtual_time_budget_ms:
            args.append(f"--virtual-time-budget={virtual_time_budget_ms}")
        proc = self._run(args, url)
        if not proc.stdout.strip():
            raise ChromiumError(f"empty DOM for {url}: {self._errors(proc)}")
        return proc.stdout

    # ---------------------------------------------------------------- internals
    @staticmethod
    def _errors(proc: subprocess.CompletedProcess) -> str:
        lines = [ln for ln in (proc.stderr or "").splitlines() if not _NOISE.search(ln)]
        return f"exit {proc.returncode}; " + ("\n".join(lines[-10:]) or "(nothing on stderr)")

    def _run(self, args: list[str], url: str | None) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory(prefix="kb-chromium-") as profile:
            cmd = [*self.launcher, self.binary, *FLAGS, f"--user-data-dir={profile}", *self.extra_flags, *args]
            if url:
                cmd.append(url)
            env = {**os.environ, "HOME": profile}  # crash reports / caches stay in the temp profile
            env.pop("DBUS_SESSION_BUS_ADDRESS", None)
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, encoding="utf-8", errors="replace", env=env, start_new_session=True)
            try:
                out, err = proc.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                _killpg(proc.pid)
                out, err = proc.communicate()
                raise ChromiumError(f"chromium timed out after {self.timeout:.0f} s on {url}") from None
            finally:
                _killpg(proc.pid)  # helpers (zygote, crashpad) share the group
            result = subprocess.CompletedProcess(cmd, proc.returncode, out, err)
            if proc.returncode != 0:
                raise ChromiumError(f"chromium failed on {url}: {self._errors(result)}")
            return result


def _killpg(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def fonts_covering(text: str) -> dict[str, list[str]]:
    """For each distinct non-ASCII character of ``text``: the font families that have a glyph for it
    (fontconfig's fc-list; {} when fc-list is missing). An empty list means Chromium draws a box (tofu)."""
    fc_list = shutil.which("fc-list")
    if not fc_list:
        return {}
    out: dict[str, list[str]] = {}
    for ch in dict.fromkeys(c for c in text if ord(c) > 0x7F and not c.isspace()):
        res = subprocess.run([fc_list, f":charset={ord(ch):x}", "family"], capture_output=True, text=True, timeout=30)
        out[ch] = sorted({line.split(",")[0].strip() for line in res.stdout.splitlines() if line.strip()})
    return out


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's name
        pass


@contextlib.contextmanager
def serve_directory(root: str | os.PathLike) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) in a thread; yields the base URL ('http://127.0.0.1:PORT/')."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, name="static-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)


try:
    import pytest
except ImportError:
    pytest = None

if pytest is not None:

    @pytest.fixture(scope="session")
    def chromium() -> Chromium:
        """A headless Chromium; skips the test when none is installed."""
        try:
            return Chromium()
        except ChromiumError as exc:
            if os.environ.get(ENV_REQUIRED, "") not in ("", "0"):
                pytest.fail(f"Chromium is required ({ENV_REQUIRED}) but: {exc}", pytrace=False)
            pytest.skip(str(exc))
