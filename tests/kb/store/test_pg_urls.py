"""A store URL's password is never printed: in kb's own lines and in the driver's messages it quotes."""
from __future__ import annotations

import pytest

from kb.errors import ConfigError, StoreError
from kb.store.backend_pg import connect
from kb.store.pg_urls import redact, scrub

SECRETS = ["pa?ss999", "pa/ss999", "p@ss999", "Sec%zzret", "Secret999"]


@pytest.mark.parametrize("password", SECRETS)
def test_redact_hides_a_password_with_any_character_libpq_takes(password: str) -> None:
    url = f"postgresql://carol:{password}@127.0.0.1:35289/kb_team"
    shown = redact(url)
    assert password not in shown and shown.startswith("postgresql://carol:***@")
    assert shown.endswith("127.0.0.1:35289/kb_team")


def test_redact_keeps_a_url_without_a_password_and_hides_a_password_parameter() -> None:
    assert redact("postgresql://kb_writer@db:5432/kb_team") == "postgresql://kb_writer@db:5432/kb_team"
    assert redact("postgresql://db/kb?password=abc&sslmode=require") == "postgresql://db/kb?password=***&sslmode=require"


def test_scrub_takes_the_password_out_of_a_drivers_message_as_written_and_decoded() -> None:
    url = "postgresql://u:p%40ss999@[::1/x"
    said = f'invalid URI "{url}"; token "p%40ss999", decoded p@ss999'
    out = scrub(said, url)
    assert "p%40ss999" not in out and "p@ss999" not in out and "postgresql://u:***@[::1/x" in out


def test_scrub_leaves_the_words_of_a_message_that_merely_hold_a_short_password() -> None:
    """A password "p" (or "kb") masked wherever its letters stood made "Servname not su******orted for
    ai_sockty***e" of libpq's message; the password itself, as a word, still goes."""
    url = "postgresql://u:p@host:notaport/db"
    said = "failed to resolve host 'host': Servname not supported for ai_socktype; token p, port notaport"
    assert scrub(said, url) == ("failed to resolve host 'host': Servname not supported for ai_socktype; "
                                "token ***, port notaport")
    assert scrub("sslmode=prefer: the server does not support SSL, pass 1", "postgresql://kb:pass@db/kb") == \
        "sslmode=prefer: the server does not support SSL, *** 1"
    assert scrub('token "pw!x"', "postgresql://kb:pw!@db/kb") == 'token "***x"'   # an edge that is no letter


@pytest.mark.parametrize("url", ["postgresql://u:Sec%zzret@127.0.0.1/x", "postgresql://u:Secret999@[::1/x",
                                 "postgresql://u:pa?ss999@127.0.0.1:1/x"])
def test_a_bad_or_unreachable_url_fails_in_one_line_without_its_password(url: str) -> None:
    pytest.importorskip("psycopg")
    with pytest.raises((StoreError, ConfigError)) as err:
        connect(url).close()
    message = str(err.value)
    assert "\n" not in message and not any(s in message for s in ("Sec%zzret", "Secret999", "pa?ss999"))


def test_a_lost_connection_is_told_apart_from_one_statements_failure() -> None:
    """A server gone (psycopg's own "connection is closed", class 08, a shutdown) is StoreUnreachable, which stops
    a run; a lock timeout, a cancelled query or a full disk (OperationalError too) stay one statement's failure."""
    psycopg = pytest.importorskip("psycopg")
    from kb.errors import StoreUnreachable
    from kb.store.backend_pg import PgBackend, connection_lost
    errors = psycopg.errors
    gone = [psycopg.OperationalError("the connection is closed"), errors.AdminShutdown("terminating connection"),
            errors.ConnectionFailure("x")]
    kept_up = [errors.LockNotAvailable("x"), errors.QueryCanceled("x"), errors.DiskFull("x"), errors.UniqueViolation("x")]
    assert [connection_lost(e) for e in gone + kept_up] == [True] * len(gone) + [False] * len(kept_up)
    backend = PgBackend("postgresql://kb:Pw-secret@db/kb", raw=None)   # no connection: only its messages are asked for
    said = backend.write_error(psycopg.OperationalError("consuming input failed: server closed the connection "
                                                        "unexpectedly\n\tThis probably means the server terminated"))
    assert isinstance(said, StoreUnreachable) and str(said) == ("the store postgresql://kb:***@db/kb is unreachable: "
                                                                "consuming input failed: server closed the connection unexpectedly")
    assert not isinstance(backend.write_error(errors.LockNotAvailable("x")), StoreUnreachable)


@pytest.mark.parametrize("value", ["host=127.0.0.1 port=5432 user=kb password=Secr3tPW dbname=kb",
                                   "postgres:/kb:Secr3tPW@127.0.0.1:5432/kb", "postgresql:kb:Secr3tPW@db/kb",
                                   "Secr3tPW"])
def test_a_store_value_that_is_no_url_is_refused_without_its_password(value: str) -> None:
    """Only a //user:pw@ form was masked: a libpq keyword string or a one-slash typo printed the password on the
    console and into the nightly's run log, which the team reads."""
    from kb.config_values import store_url_problem
    said = store_url_problem(value)
    assert said is not None and "expected a postgresql:// URL" in said and "Secr3tPW" not in said
