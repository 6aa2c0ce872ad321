"""A scripted HTTP server on 127.0.0.1 for the client tests.

Each path has a queue of :class:`Reply`; a request takes the next one. A request with nothing
scripted gets 418 and is recorded as an error, and replies never asked for are reported, so the
fixture can fail a test that did not go the way it was written. The server is bounded: every
behaviour ends within ``MAX_STALL`` seconds or on stop, and the server stops itself after
``LIFETIME`` seconds whatever the test does.
"""
from __future__ import annotations

import io
import socket
import struct
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIFETIME = 60.0
MAX_STALL = 5.0
STREAM_CHUNK = 64 * 1024


@dataclass
class Reply:
    """One scripted response.

    ``behaviour``: None (send it), ``"reset"`` (half the body, then a TCP reset), ``"stall"``
    (headers, then silence), ``"truncate"`` (Content-Length 100 bytes more than the body, then
    close), ``"drip"`` (one byte of ``size`` every 50 ms), ``"stream"`` (``size`` bytes generated
    on the fly, chunked unless a Content-Length header is scripted).
    """

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    behaviour: str | None = None
    size: int = 0


@dataclass
class Seen:
    path: str
    headers: dict[str, str]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ScriptedServer

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        exc = sys.exc_info()[1]
        if not isinstance(exc, OSError):  # a client hanging up on us is expected
            self.owner.errors.append(f"handler failed: {exc!r}")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 5  # a silent client cannot hold a handler thread for long
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.close_connection = True
        reply = self.server.owner._next(self.path, dict(self.headers.items()))
        behaviour = reply.behaviour
        stop = self.server.owner.stop_event
        self.send_response(reply.status)
        headers = {"Connection": "close", **reply.headers}
        if behaviour == "truncate":
            headers["Content-Length"] = str(len(reply.body) + 100)
        elif behaviour in ("drip", "stream"):
            if behaviour == "drip":
                headers.setdefault("Content-Length", str(reply.size))
            elif "Content-Length" not in headers:
                headers["Transfer-Encoding"] = "chunked"
        else:
            headers.setdefault("Content-Length", str(len(reply.body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.flush()
        if behaviour == "stall":
            stop.wait(MAX_STALL)
        elif behaviour == "reset":
            self.wfile.write(reply.body[: len(reply.body) // 2])
            self.wfile.flush()
            time.sleep(0.05)
            self._reset()
        elif behaviour == "drip":
            deadline = time.monotonic() + MAX_STALL
            for _ in range(reply.size):
                if stop.wait(0.05) or time.monotonic() > deadline:
                    break
                self.wfile.write(b"x")
                self.wfile.flush()
        elif behaviour == "stream":
            self._stream(reply.size, chunked=headers.get("Transfer-Encoding") == "chunked")
        else:
            self.wfile.write(reply.body)

    def _stream(self, size: int, *, chunked: bool) -> None:
        block = b"z" * STREAM_CHUNK
        sent = 0
        while sent < size and not self.server.owner.stop_event.is_set():
            piece = block[: min(STREAM_CHUNK, size - sent)]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            sent += len(piece)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _reset(self) -> None:
        """Close with SO_LINGER 0, so the client gets a TCP RST rather than a clean FIN."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.rfile.close()
        self.wfile.close()
        self.connection.close()
        self.wfile = io.BytesIO()  # the handler flushes wfile after do_GET; give it a sink


class ScriptedServer:
    """Start with :meth:`start`, script with :meth:`script`, always :meth:`stop`."""

    def __init__(self) -> None:
        self.replies: dict[str, deque[Reply]] = {}
        self.requests: list[Seen] = []
        self.errors: list[str] = []
        self.stop_event = threading.Event()
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        daemon=True)
        self._timer = threading.Timer(LIFETIME, self.stop)
        self._timer.daemon = True
        self._stopped = False

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def script(self, path: str, *replies: Reply) -> None:
        with self._lock:
            self.replies.setdefault(path, deque()).extend(replies)

    def seen(self, path: str) -> list[Seen]:
        return [s for s in self.requests if s.path == path]

    def unused(self) -> dict[str, int]:
        return {path: len(queue) for path, queue in self.replies.items() if queue}

    def start(self) -> ScriptedServer:
        self._thread.start()
        self._timer.start()
        return self

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self.stop_event.set()
        self._timer.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=2)

    def _next(self, path: str, headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(Seen(path, headers))
            # A script for the exact path with its query wins; else one for the path alone.
            queue = self.replies.get(path) or self.replies.get(path.split("?", 1)[0])
            if queue:
                return queue.popleft()
        self.errors.append(f"unscripted request for {path}")
        return Reply(418, b"nothing scripted for this path")
