"""A PostgreSQL store's URL as it may be shown: the password never printed, in the URL or in a driver's
message about it, and the URL SQLAlchemy wants for psycopg 3."""
from __future__ import annotations

import re


def _split_userinfo(url: str) -> tuple[str, str, str | None, str] | None:
    """``(scheme://, user, password or None, rest after the @)``; None without a user part. The user part
    ends at the *last* @: a password may hold ``?``, ``/`` or ``@`` (libpq takes them), and cutting too
    far right hides more than the password, never less."""
    head, sep, rest = url.partition("://")
    at = rest.rfind("@")
    if not sep or at < 0:
        return None
    user, colon, password = rest[:at].partition(":")
    return head + sep, user, password if colon else None, rest[at + 1:]


_PASSWORD_PARAM = re.compile(r"(password=)([^&\s]*)")   # a conninfo parameter, in a URL or a message


def redact(url: str) -> str:
    """The URL as it may be printed: no password."""
    parts = _split_userinfo(url)
    if parts is not None and parts[2] is not None:
        url = f"{parts[0]}{parts[1]}:***@{parts[3]}"
    return _PASSWORD_PARAM.sub(r"\1***", url)


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's message about ``url``) with the URL redacted and its password, as written
    and percent-decoded, nowhere as a word of its own: libpq's parse errors quote the token or the whole URL,
    and a short password ("kb") is no reason to garble the rest of the message ("kb: error", "supported")."""
    from urllib.parse import unquote
    text = text.replace(url, redact(url))
    parts = _split_userinfo(url)
    secrets = [parts[2]] if parts is not None and parts[2] else []
    secrets += [m[2] for m in _PASSWORD_PARAM.finditer(url)]
    for secret in sorted({x for s in secrets for x in (s, unquote(s)) if x}, key=len, reverse=True):
        # where it stands as written, not inside a word of the message: a password "pp" is no part of "supported"
        # (each edge checked only where the password's own character there is a letter or digit: "pw!" in "pw!x")
        before = r"(?<![^\W_])" if secret[0].isalnum() else ""
        after = r"(?![^\W_])" if secret[-1].isalnum() else ""
        text = re.sub(before + re.escape(secret) + after, "***", text)
    return _PASSWORD_PARAM.sub(r"\1***", text)


def sqlalchemy_url(url: str) -> str:
    """The URL for SQLAlchemy with psycopg 3 (a bare postgresql:// means psycopg2 there)."""
    return re.sub(r"^postgres(ql)?://", "postgresql+psycopg://", url)
