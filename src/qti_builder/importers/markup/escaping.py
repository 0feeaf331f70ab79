"""Text as Markdown: :func:`escape_markdown` and :func:`code_span` write it so that it shows as
written, and :func:`renders_as_text` says whether it already does."""

from __future__ import annotations

import html as html_lib
import re
from functools import lru_cache

from ... import content
from .canonical import canonical

#: Characters that can start Markdown syntax somewhere; escaped when a text run would not render
#: as itself. ``~`` (strikethrough), ``|`` (tables) and ``$`` (math) are the GFM/plugin ones.
_SPECIAL = re.compile(r"([\\`*_\[\]<>~|$!#])")
_LINE_START = re.compile(r"^(\s*)([-+=]|\d+(?=[.)])|(?=#))", re.M)


def escape_markdown(text: str) -> str:
    text = _SPECIAL.sub(r"\\\1", text)
    text = re.sub(r"&(?=#?\w+;)", r"\\&", text)
    return _LINE_START.sub(lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else ""), text)


def code_span(code: str) -> str:
    """``code`` as a CommonMark code span that renders exactly it: a fence longer than any run of
    backticks inside, padded with a space where CommonMark would otherwise strip or merge one."""
    code = code.replace("\r\n", " ").replace("\n", " ")  # CommonMark reads a line break in a span as a space
    if not code:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", code)), default=0) + 1)
    padded = code[0] == "`" or code[-1] == "`" or (code[0] == " " == code[-1] and code.strip(" "))
    pad = " " if padded else ""
    return f"{fence}{pad}{code}{pad}{fence}"


@lru_cache(maxsize=1 << 14)
def renders_as_text(text: str) -> bool:
    """Does ``text`` render as exactly its characters (no emphasis, code, math, HTML, lists...)?
    Most texts of a bank are plain lines that render to exactly the paragraph expected, which
    needs no canonical form; the same text run comes again and again (options, feedback), so the
    answers are kept."""
    expected = "<p>" + html_lib.escape(" ".join(text.split()), quote=False) + "</p>"
    rendered = content.render_html(text)
    return rendered == expected or canonical(rendered) == canonical(expected)
