"""A source's bytes decoded (readers/base.py's ``decode_source``): the scan for characters XML
forbids runs only when a look at the bytes finds one may be there, and the line ends are made
``\\n`` only when there is a CR; for any bytes, the text and the problems are those of the plain
way (every step run, kept here as it was written)."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.diagnostics import DiagnosticSink, SourceSpan
from qti_builder.readers.base import decode_source

_ILLEGAL = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def _plain(raw: bytes) -> tuple[str | None, list[tuple[str, str, SourceSpan | None]]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, []  # QB101, as ever
    text = unicodedata.normalize("NFC", text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\f", ""))
    found = [("QB102", f"character U+{ord(m.group()):04X} is not allowed in XML",
              SourceSpan("q.md", text.count("\n", 0, m.start()) + 1, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1))
             for m in _ILLEGAL.finditer(text)]
    return text, found


#: Every control character, CR and form feed among them, the two non-characters, a BOM, a
#: letter NFC composes with the next, Hangul jamo, plain text.
_CHARACTERS = st.sampled_from([*map(chr, range(0x20)), "\ufffe", "\uffff", "\ufeff", "e", "\u0301", "\u1100", "\u1161",
                               "가", "a", " ", "\n", "\x7f", "\u2028"])


@settings(max_examples=400, deadline=None)
@given(text=st.lists(_CHARACTERS, max_size=40).map("".join), tail=st.binary(max_size=3))
def test_decoded_as_every_step_decodes(text: str, tail: bytes) -> None:
    raw = text.encode("utf-8") + tail  # the tail: bytes that may not be UTF-8 at all
    sink = DiagnosticSink()
    got = decode_source(raw, "q.md", sink)
    expected, problems = _plain(raw)
    assert got == expected
    if expected is not None:
        assert [(d.code, d.message, d.span) for d in sink.items] == problems


def test_each_character_xml_forbids_is_found_and_the_others_not() -> None:
    for code in [*range(0x20), 0xFFFE, 0xFFFF]:
        sink = DiagnosticSink()
        decode_source(f"a\n{chr(code)}b".encode(), "q.md", sink)
        expected = [] if chr(code) in "\t\n\r\f" else [f"character U+{code:04X} is not allowed in XML"]
        assert [d.message for d in sink.items] == expected, hex(code)
        if expected:
            assert sink.items[0].span == SourceSpan("q.md", 2, 1)
    sink = DiagnosticSink()
    assert decode_source("\ufeffa\r\nb\rc\fd\u00e9\x7f".encode(), "q.md", sink) == "a\nb\ncd\u00e9\x7f" and not sink.items
