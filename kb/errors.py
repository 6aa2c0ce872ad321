"""One error tree for kb. The CLI turns a KBError into one line on stderr and an exit code."""
from __future__ import annotations

import re


class KBError(Exception):
    """Base of every error kb means a user to see. ``exit_code`` is what the CLI returns."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        msg = super().__str__()
        return f"{msg} ({self.hint})" if self.hint else msg


class ConfigError(KBError):
    """kb.toml or the command line asks for something kb cannot do."""

    exit_code = 2


_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)$")


def toml_error(path: object, error: Exception, text: str | None = None) -> ConfigError:
    """tomllib's complaint about a file as ``file:line: not valid TOML: … (column N)``, the place first as
    every file:line message of kb's (its message ends "(at line N, column M)"). One it finds at the end of
    the file (an unclosed ``[``, a string or value cut short: "(at end of document)", no line) is placed at
    ``text``'s last line that holds anything, where the unfinished thing is; one placed nowhere names the file."""
    message = str(error)
    place = _TOML_PLACE.search(message)
    if place is not None:
        return ConfigError(f"{path}:{place[1]}: not valid TOML: {message[:place.start()]} (column {place[2]})")
    end = _TOML_AT_END.search(message)
    if end is not None and text is not None:
        last = len(text.rstrip().splitlines()) or 1
        return ConfigError(f"{path}:{last}: not valid TOML: {message[:end.start()]} (at the end of the file)")
    return ConfigError(f"{path}: not valid TOML: {message}")


def utf8_error(path: object, error: UnicodeDecodeError) -> ConfigError:
    """A TOML file that is not UTF-8 as ``file:line: not UTF-8 text (byte 0xe9 at column 12)``: the place first,
    as ``toml_error`` says it, never the decoder's "'utf-8' codec can't decode … in position 27" (a byte offset)."""
    raw = bytes(error.object)
    line = raw.count(b"\n", 0, error.start) + 1
    # the column an editor shows: characters, not bytes ("名称 = " is 5, not 9); what precedes the bad byte
    # decoded, and the first line's byte-order mark is none (an editor shows none)
    before = raw[raw.rfind(b"\n", 0, error.start) + 1:error.start].decode("utf-8", "replace")
    column = len(before.removeprefix("\ufeff") if line == 1 else before) + 1
    return ConfigError(f"{path}:{line}: not UTF-8 text (byte 0x{raw[error.start]:02x} at column {column})")


class WorkspaceError(KBError):
    """The workspace is missing, unreadable, or a path would leave it."""

    exit_code = 2


class StoreError(KBError):
    """The store (the SQLite file or the PostgreSQL database) cannot be opened, migrated or written."""


class StoreUnreachable(StoreError):
    """The store's server went away (stopped, crashed, the network dropped): no later read or write
    can succeed, so this is never one source's failure; the run stops and says so once."""


class NoStore(StoreError):
    """The workspace has no store yet (no SQLite file, an empty PostgreSQL database) and the command
    may not make one: a read never does, for the store would be the reader's (a umask 0022 reader's
    0644 file locks the team's writer out)."""


class ReadOnlyStore(StoreError):
    """A command that writes met a store this user may only read (a team member's workspace)."""


class NotFound(KBError):
    """A paper, flag or section asked for is not in the store or the doc."""


class SourceError(KBError):
    """A source could not be fetched. Carries the URL, the HTTP status and the attempts made."""

    def __init__(self, message: str, *, url: str | None = None, status: int | None = None,
                 attempts: int = 0, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.url = url
        self.status = status
        self.attempts = attempts


class ParseError(KBError):
    """A payload could not be read as the format it claims to be (malformed, hostile, empty)."""


class LockedError(KBError):
    """Another kb run holds the workspace lock."""

    exit_code = 75
