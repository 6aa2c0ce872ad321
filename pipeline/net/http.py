"""One polite HTTP client for every network source (arXiv listing and API, Hugging Face, blogs).

Per-host spacing, retries with exponential backoff that honour ``Retry-After``, conditional GET
(ETag / Last-Modified), at most five redirects, a size cap and a total read deadline enforced while
the body streams in. Every failure a user should see is a :class:`kb.errors.SourceError` carrying
the URL, the last HTTP status and the attempts made; a URL that is not http(s) is a ConfigError.
A client is meant for one thread (it keeps the time of the last request to each host).
"""
from __future__ import annotations

import email.utils
import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit

import requests
import urllib3.exceptions

from kb.errors import ConfigError, SourceError

__all__ = ["FetchResult", "HttpClient", "make_user_agent", "parse_retry_after"]

log = logging.getLogger(__name__)

MiB = 1024 * 1024
MAX_REDIRECTS = 5
MAX_RETRY_AFTER = 120.0
CHUNK = 64 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})
SCHEMES = ("http", "https")


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What one fetch brought back. ``url`` is the final URL after redirects."""

    url: str
    status: int
    body: bytes
    etag: str | None
    last_modified: str | None
    content_type: str | None
    not_modified: bool
    attempts: int
    elapsed: float


class _Failure(Exception):
    """One attempt failed; ``retry`` says whether another attempt may help."""

    def __init__(self, reason: str, status: int | None = None, *, retry: bool = False,
                 retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.retry = retry
        self.retry_after = retry_after


def make_user_agent(version: str, contact: str) -> str:
    """The User-Agent sources ask for: ``kb/<version> (+mailto:<contact>)``."""
    if "@" not in contact or any(c.isspace() for c in contact):
        raise ConfigError(f"contact address {contact!r} is not an e-mail address",
                          hint="set a contact e-mail in kb.toml; sources use it to reach you")
    return f"kb/{version} (+mailto:{contact})"


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date), or None."""
    if not value or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme.lower() not in SCHEMES:
        raise ConfigError(f"only http and https URLs can be fetched, not {url!r}")
    if not parts.hostname:
        raise ConfigError(f"URL has no host: {url!r}")


def _decodable() -> list[str]:
    """The content codings urllib3 decodes here (br and zstd only when their packages are installed)."""
    from urllib3.response import BaseHTTPResponse
    return list(BaseHTTPResponse.CONTENT_DECODERS)


def _undecodable(header: str) -> str | None:
    """The header's value when one of its codings cannot be decoded, else None.

    urllib3 passes such a body through undecoded, and the parser would then report bytes it was
    never meant to read (a brotli body as "not UTF-8"); the coding is the line to show instead.
    """
    known = {*_decodable(), "identity", ""}
    codings = [c.strip().lower() for c in header.split(",")]
    return header.strip() if any(c not in known for c in codings) else None


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# What the resolver, the kernel or urllib3 say when a connection cannot be made, in the words a
# reader of the briefing needs ("DNS lookup failed for rss.arxiv.org"), not urllib3's repr.
_CONNECTION_REASONS = (
    (("NameResolutionError", "Failed to resolve", "Name or service not known", "nodename nor servname",
      "Temporary failure in name resolution", "getaddrinfo failed", "No address associated"),
     "DNS lookup failed for {host}"),
    (("Connection refused", "ConnectionRefusedError"), "connection refused by {host}"),
    (("Network is unreachable", "No route to host"), "no network route to {host}"),
    (("ConnectTimeout", "timed out"), "connecting to {host} timed out"),
    (("Connection reset", "RemoteDisconnected", "ProtocolError", "ChunkedEncodingError"),
     "{host} closed the connection"),
)


def _connection_failure(exc: BaseException, url: str) -> str:
    """One short human line for a connection that could not be made or was dropped."""
    host = urlsplit(url).hostname or url
    text = f"{type(exc).__name__} {exc}"
    for needles, reason in _CONNECTION_REASONS:
        if any(n in text for n in needles):
            return reason.format(host=host)
    return f"connection to {host} failed ({type(exc).__name__})"


class HttpClient:
    """A polite client over one ``requests.Session``.

    ``timeout`` bounds each socket read and also the whole of one response (headers and body),
    so a server that drips a byte now and then cannot hold a run; ``retries`` is the total number
    of attempts; ``min_interval`` maps a host name to the seconds that must pass between the end
    of one request to it and the start of the next. ``sleep``, ``clock`` and ``rand`` are
    injectable so tests neither wait nor depend on chance.
    """

    def __init__(self, user_agent: str, *, timeout: float = 30, connect_timeout: float = 10,
                 retries: int = 3, backoff: float = 1.0, max_bytes: int = 32 * MiB,
                 min_interval: dict[str, float] | None = None,
                 max_retry_after: float = MAX_RETRY_AFTER,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 rand: Callable[[], float] = random.random,
                 session: requests.Session | None = None) -> None:
        if not user_agent or not user_agent.strip():
            raise ConfigError("the HTTP User-Agent is empty",
                              hint="build it with make_user_agent(version, contact)")
        if retries < 1:
            raise ConfigError(f"retries must be at least 1, not {retries}")
        if timeout <= 0 or connect_timeout <= 0 or max_bytes <= 0 or backoff < 0:
            raise ConfigError("timeouts and max_bytes must be positive and backoff not negative")
        self.user_agent = user_agent
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout)
        self.retries = retries
        self.backoff = float(backoff)
        self.max_bytes = max_bytes
        self.max_retry_after = float(max_retry_after)
        self.min_interval = {h.lower(): float(s) for h, s in (min_interval or {}).items()}
        self._sleep, self._clock, self._rand = sleep, clock, rand
        self._own_session = session is None
        self._session = session if session is not None else requests.Session()
        self._last: dict[str, float] = {}

    def close(self) -> None:
        if self._own_session:
            self._session.close()

    def fetch(self, url: str, *, etag: str | None = None, last_modified: str | None = None,
              accept: str | None = None, accept_status: Iterable[int] = ()) -> FetchResult:
        """GET ``url``. A 304 gives ``not_modified=True`` and an empty body; a status in
        ``accept_status`` (say 400 for arXiv's Atom error feed) is returned, not raised."""
        _check_url(url)
        headers = {"User-Agent": self.user_agent}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        if accept:
            headers["Accept"] = accept
        accepted = frozenset(accept_status)
        start = self._clock()
        for attempt in range(1, self.retries + 1):
            try:
                final_url, resp, body = self._follow(url, headers, accepted)
            except _Failure as exc:
                if not exc.retry or attempt == self.retries:
                    plural = "s" if attempt > 1 else ""
                    raise SourceError(f"{exc}, {attempt} attempt{plural} (GET {url})", url=url,
                                      status=exc.status, attempts=attempt) from None
                delay = self._delay(attempt, exc.retry_after)
                log.warning("GET %s: %s; attempt %d of %d, retrying in %.1f s",
                            url, exc, attempt, self.retries, delay)
                self._sleep(delay)
                continue
            return FetchResult(url=final_url, status=resp.status_code, body=body,
                               etag=resp.headers.get("ETag") or etag,
                               last_modified=resp.headers.get("Last-Modified") or last_modified,
                               content_type=resp.headers.get("Content-Type"),
                               not_modified=resp.status_code == 304, attempts=attempt,
                               elapsed=self._clock() - start)
        raise AssertionError("unreachable")   # retries >= 1 (checked above); the last attempt returns or raises

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        base = self.backoff * 2 ** (attempt - 1)
        return min(base * (1 + 0.25 * self._rand()), self.max_retry_after)

    def _follow(self, url: str, headers: dict[str, str],
                accepted: frozenset[int]) -> tuple[str, requests.Response, bytes]:
        """One attempt: GET, following at most MAX_REDIRECTS redirects."""
        chain = [url]
        while True:
            resp, body = self._hop(chain[-1], headers, accepted)
            if body is not None:
                return chain[-1], resp, body
            status, location = resp.status_code, urljoin(chain[-1], resp.headers["Location"])
            if location in chain:
                raise _Failure(f"redirect loop: {' -> '.join([*chain, location])}", status)
            if len(chain) > MAX_REDIRECTS:
                raise _Failure(f"more than {MAX_REDIRECTS} redirects", status)
            if urlsplit(location).scheme.lower() not in SCHEMES or not urlsplit(location).hostname:
                raise _Failure(f"redirect to a URL kb will not fetch: {location!r}", status)
            chain.append(location)

    def _hop(self, url: str, headers: dict[str, str], accepted: frozenset[int]
             ) -> tuple[requests.Response, bytes | None]:
        """One request: (response, body), with body None for a redirect to follow."""
        host = urlsplit(url).hostname or ""
        self._space(host)
        started = self._clock()
        resp = None
        try:
            resp = self._get(url, headers)
            status = resp.status_code
            if status in REDIRECTS:
                if not resp.headers.get("Location"):
                    raise _Failure(f"HTTP {status} redirect without a Location", status)
                return resp, None
            if status == 304:
                return resp, b""
            if 200 <= status < 300 or status in accepted:
                return resp, self._read(resp, started)
            reason = f"HTTP {status} {resp.reason or ''}".rstrip()
            if status == 429 or status >= 500:
                raise _Failure(reason, status, retry=True,
                               retry_after=parse_retry_after(resp.headers.get("Retry-After")))
            raise _Failure(reason, status)
        finally:
            if resp is not None:
                resp.close()
            self._last[host] = self._clock()

    def _space(self, host: str) -> None:
        interval = self.min_interval.get(host, 0.0)
        last = self._last.get(host)
        if interval > 0 and last is not None:
            wait = last + interval - self._clock()
            if wait > 0:
                log.debug("waiting %.1f s before the next request to %s", wait, host)
                self._sleep(wait)

    def _get(self, url: str, headers: dict[str, str]) -> requests.Response:
        try:
            return self._session.get(url, headers=headers, stream=True, allow_redirects=False,
                                     timeout=(self.connect_timeout, self.timeout))
        except requests.exceptions.SSLError as exc:
            raise _Failure(f"TLS failed: {_describe(exc)}") from None
        except (requests.ConnectionError, requests.Timeout,
                requests.exceptions.ChunkedEncodingError) as exc:
            raise _Failure(_connection_failure(exc, url), retry=True) from None
        except requests.RequestException as exc:
            raise _Failure(f"request failed: {_describe(exc)}") from None

    def _read(self, resp: requests.Response, started: float) -> bytes:
        """The decoded body, refused past ``max_bytes`` and abandoned past the deadline."""
        status = resp.status_code
        too_large = f"response larger than {self.max_bytes} bytes; refused"
        declared = resp.headers.get("Content-Length", "").strip()
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise _Failure(too_large, status)
        if (encoding := _undecodable(resp.headers.get("Content-Encoding", ""))) is not None:
            raise _Failure(f"Content-Encoding {encoding!r}, which kb cannot decode (it asks for "
                           f"{', '.join(_decodable())})", status)
        raw = resp.raw
        # read1 returns as soon as some bytes arrive, so the deadline is checked between
        # socket reads; read()/iter_content would wait for a full chunk from a dripping server.
        read1 = getattr(raw, "read1", None)
        chunks = (None if read1 is not None else resp.iter_content(CHUNK))
        body = bytearray()
        try:
            while True:
                if self._clock() - started > self.timeout:
                    raise _Failure(f"response not complete within {self.timeout:g} s", status,
                                   retry=True)
                chunk = read1(CHUNK, decode_content=True) if read1 else next(chunks, b"")
                if not chunk:
                    return bytes(body)
                body += chunk
                if len(body) > self.max_bytes:
                    raise _Failure(too_large, status)
        except (urllib3.exceptions.DecodeError, requests.exceptions.ContentDecodingError) as exc:
            encoding = resp.headers.get("Content-Encoding", "?")
            raise _Failure(f"corrupt {encoding} body: {_describe(exc)}", status) from None
        except urllib3.exceptions.SSLError as exc:
            raise _Failure(f"TLS failed mid-body: {_describe(exc)}", status) from None
        except (urllib3.exceptions.ReadTimeoutError, requests.Timeout, TimeoutError):
            raise _Failure(f"timed out: no data for {self.timeout:g} s in the middle of the response", status,
                           retry=True) from None
        except (urllib3.exceptions.HTTPError, requests.RequestException, OSError) as exc:
            raise _Failure(f"body cut short: {_describe(exc)}", status, retry=True) from None
