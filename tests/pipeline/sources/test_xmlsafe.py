"""xmlsafe: hostile, broken and not-XML payloads end as clear ParseErrors."""
from __future__ import annotations

import io

import pytest

from kb.errors import ParseError
from pipeline.sources.xmlsafe import (
    check_feed_bytes,
    iter_elements,
    localname,
    parse_xml,
    refuse_entity_declarations,
)


@pytest.mark.parametrize("data, message", [
    (b"", "empty body"),
    (b"  \n\t ", "empty body"),
    (b"\xef\xbb\xbf", "empty body"),
    (b"<!doctype html><html><body>hi</body></html>", "HTML page"),
    (b"<?xml version='1.0'?>\n<!-- x -->\n<html xmlns='http://www.w3.org/1999/xhtml'><body/></html>", "HTML page"),
    (b"<HTML><BODY>Moved</BODY></HTML>", "HTML page"),
    (b'<?xml version="1.0" encoding="UTF-8"?>\n<rss>\n<title>caf\xe9</title></rss>', r"invalid UTF-8 at byte \d+ \(line 3\)"),
    ("<rss/>", "expected bytes"),
])
def test_check_feed_bytes_refuses(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        check_feed_bytes(data)


def test_check_feed_bytes_accepts_other_declared_encodings_and_feeds() -> None:
    check_feed_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?><rss><title>caf\xe9</title></rss>')
    check_feed_bytes(b"<rss><channel><title>An <html> article about HTML</title></channel></rss>")


@pytest.mark.parametrize("data, message", [
    (b"<a><b></a>", r"syntax error at line 1, column 8: mismatched tag"),
    (b"<a>\n<b>text", r"ends too early \(truncated\?\) at line 2, column 7"),
    (b"<a/><b/>", "line 1, column 4: junk after document element"),
    (b'<!DOCTYPE r [<!ENTITY % p SYSTEM "http://evil.example/x.dtd"> %p;]><r/>', "declares entities"),
])
def test_parse_xml_errors(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_xml(data)


def test_external_dtd_is_not_fetched_and_not_needed() -> None:
    root = parse_xml(b'<!DOCTYPE r SYSTEM "http://evil.example/x.dtd"><r>ok</r>')
    assert root.text == "ok"


def test_refuse_entity_declarations_looks_at_the_prolog_only() -> None:
    refuse_entity_declarations(b"<rss><item><description><![CDATA[write <!ENTITY x 'y'> to attack]]></description></item></rss>")
    refuse_entity_declarations(b'<!DOCTYPE rss PUBLIC "-//Netscape//DTD RSS 0.91//EN" "x.dtd"><rss/>')
    with pytest.raises(ParseError, match="declares entities"):
        refuse_entity_declarations(b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "<b>">]><x>&a;</x>')
    with pytest.raises(ParseError, match="declares entities"):
        refuse_entity_declarations('<!DOCTYPE x [<!ENTITY a "b">]><x/>'.encode("utf-16"))


def test_iter_elements_yields_wanted_and_nested_wanted() -> None:
    xml = b"<root><r n='1'><h>a</h></r><skip><r n='2'><h>b</h></r></skip><r n='3'/></root>"
    seen = []
    for elem in iter_elements(io.BytesIO(xml), ["r", "h"]):
        # A nested wanted element is yielded first; its parent still holds it afterwards.
        seen.append((localname(elem.tag), elem.get("n"), [c.text for c in elem]))
    assert seen == [("h", None, []), ("r", "1", ["a"]), ("h", None, []), ("r", "2", ["b"]), ("r", "3", [])]


def test_iter_elements_matches_any_namespace() -> None:
    xml = b'<a:root xmlns:a="urn:a" xmlns="urn:b"><record>1</record><a:record>2</a:record></a:root>'
    assert [e.text for e in iter_elements(io.BytesIO(xml), {"record"})] == ["1", "2"]


@pytest.mark.parametrize("data, message", [
    (b"<root><record>1</record><record>", "ends too early"),
    (b"", "empty body"),
    (b'<!DOCTYPE r [<!ENTITY a "b">]><r><record>&a;</record></r>', "declares entities"),
])
def test_iter_elements_errors(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        list(iter_elements(io.BytesIO(data), {"record"}))


@pytest.mark.parametrize("payload", [
    b'<!-- <a --><!DOCTYPE r [<!ENTITY x "PWNED-ENTITY">]><r>&x;</r>',                     # a comment hides it
    '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE r [<!ENTITY x "PWNED-ENTITY">]><r>&x;</r>'
    .encode("utf-16-le"),                                                                     # UTF-16, no BOM
    b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p "x"> ]><r/>',                          # a parameter entity
])
def test_entity_declarations_are_refused_however_the_prolog_is_dressed(payload: bytes) -> None:
    from kb.errors import ParseError
    from pipeline.sources.xmlsafe import parse_xml
    with pytest.raises(ParseError, match="declares entities"):
        parse_xml(payload)


def test_iter_elements_reports_a_broken_prolog_where_it_breaks() -> None:
    # expat stops at the bad root tag in the prolog check; iterparse then reports it with its position,
    # however long the file is (not as "no root element in the first 256 KiB").
    data = b'<?xml version="1.0"?>\n<1record/>' + b"\n" * (256 * 1024)
    with pytest.raises(ParseError, match="syntax error at line 2, column 1"):
        list(iter_elements(io.BytesIO(data), {"record"}))


def test_iter_elements_refuses_a_stream_without_a_root_in_its_window() -> None:
    data = b'<?xml version="1.0"?>\n<!--' + b" " * (256 * 1024) + b"-->\n<r/>"
    with pytest.raises(ParseError, match="no root element in the first 256 KiB"):
        list(iter_elements(io.BytesIO(data), {"record"}))
