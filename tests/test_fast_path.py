"""The plain-text fast path of content.py (``_PLAIN``): a text it takes renders, for every target,
exactly as the Markdown parser, the sanitiser and the tree would render it; what it cannot prove
plain goes to the parser."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from qti_builder import content

#: Every renderer a target calls, and the title renderer.
RENDERERS: list[Callable[[str], str]] = [
    content.render_block, content.render_inline, content.render_html, content.render_html_inline,
    content.render_canvas, content.render_canvas_inline, content.render_preview, content.plain_text,
]

#: Pieces of plain text and of almost-Markdown: Korean, escapes, entities, tags, emphasis, list
#: and heading starts, quotes, math and code delimiters and spans, digits of other scripts beside
#: them, trailing and double spaces.
PIECES = st.sampled_from(
    list("aZ0가힣é ,.;:?!'\"/()%@{}=+-#|<>&*_`$\\[]~^\t") + [
        "`a b`", "` c `", "``", "`<b>`", "`&amp;`", "$x^2 + y$", "$ x$", "$5", "$x$5", "$$x$$", "$a_b$", "$\\alpha$",
        "`x`y", "x`y`", "a$b$c", "($x$)", "`$x$`", "$`c`$", "\u0663", "\u2460", "\u00b2",
        "1.", "2)", "10.", "  ", " # ", "# ", "> ", "- ", "+ ", "* ", "&amp;", "&lt;", "&#60;", "& ", "< ", "<b>",
        "<br/>", "<!--", "</p>", "<https://x.y>", "a*b", "*a*", "_a_", "\\*", "\\\\", "$x$", "`c`", "~~s~~",
        "[l](u)", "![i](u)", "---", "===", "\n", "\n\n", "  \n", "\u00a0", "\u200b", "한국어", "“", "…",
    ]
)
TEXTS = st.lists(PIECES, min_size=1, max_size=12).map("".join)


def clear_caches() -> None:
    for value in vars(content).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


@contextmanager
def slow_path() -> Iterator[None]:
    """Every text through the parser, the sanitiser and the tree."""
    plain, content._PLAIN = content._PLAIN, re.compile(r"(?!)")
    spans, content._PLAIN_WITH_SPANS = content._PLAIN_WITH_SPANS, re.compile(r"(?!)")
    clear_caches()
    try:
        yield
    finally:
        content._PLAIN, content._PLAIN_WITH_SPANS = plain, spans
        clear_caches()


def both_paths(text: str) -> tuple[list[str], list[str]]:
    clear_caches()
    fast = [render(text) for render in RENDERERS]
    with slow_path():
        slow = [render(text) for render in RENDERERS]
    return fast, slow


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
@example("a`c``c`")  # a run of two backticks is no closer of one
@example("0$a_b$")  # math next to a digit (or a letter) is no math here
@example("1: What happens when the batch fails? (`session.report`) $x^2 + y^2 = z^2$")
@example("a < b & c > d")
@example('He said "yes" & she said \'no\' > 3 # C# | F#')
@example("한국어 <와> & 영어")
def test_fast_path_renders_what_markdown_renders(text: str) -> None:
    fast, slow = both_paths(text)
    assert fast == slow


@pytest.mark.parametrize("text", [
    "The worker", "워커입니다", "x < y", "AT&T is a & b", "C# and F#", "a | b", "5 > 3", 'say "hi"', "it's 50%",
    "1: Which statement is correct?", "see the user guide.",
])
def test_fast_path_takes_plain_lines(text: str) -> None:
    assert content._PLAIN.fullmatch(text)
    fast, slow = both_paths(text)
    assert fast == slow


@pytest.mark.parametrize("text", [
    "a*b", "*a*", "a_b_", "1. x", "2) y", "# x", "> x", "- x", "a  ", "a\\b", "a &amp; b", "a &#60; b", "a&x1;", "a <b> c",
    "a<b", "a  b", "a\nb", "$x$", "`c`", "~~s~~", "[l](u)", "x\u00a0y", " a", "a ", "<https://x.y>",
])
def test_fast_path_refuses_what_it_cannot_prove_plain(text: str) -> None:
    assert not content._PLAIN.fullmatch(text)


def test_fast_path_escapes() -> None:
    clear_caches()
    assert content.render_block("a < b & c > d") == "<p>a &lt; b &amp; c &gt; d</p>"
    assert content.render_html_inline('say "hi" & go') == 'say "hi" &amp; go'
    assert content.plain_text("a < b & c") == "a < b & c"


@settings(max_examples=300, deadline=None)
@given(TEXTS)
@example("  <b>bold</b> after spaces")
@example("text before <p>a paragraph</p> and after")
@example("<td>a cell out of its table</td>")
def test_html_fragment_parses_as_lxml_html_does(text: str) -> None:
    """content.html_fragment gives lxml.html.fragment_fromstring's tree for what the sanitiser
    writes, and for the raw text too."""
    from lxml import etree, html

    for markup in (content._sanitised_html.__wrapped__(text), text):
        if re.match(r"\s*<(html|body|head)\b", markup, re.I):
            continue  # what fragment_fromstring refuses; the sanitiser never writes it
        expected = html.fragment_fromstring(markup, create_parent="div")
        got = content.html_fragment(markup)
        assert etree.tostring(got, method="html", encoding="unicode") == etree.tostring(expected, method="html", encoding="unicode")
        assert type(got) is type(expected) and [type(e) for e in got.iter()] == [type(e) for e in expected.iter()]


@pytest.mark.parametrize(("text", "title"), [
    ("Which call (`ray.init()`) starts $n$ workers?", "Which call (ray.init()) starts n workers?"),
    ("`train()` 함수의 반환값은?", None),  # starts with a span: the parser's
    ("Is $x^2 + y^2 = z^2$ true?\n\n```python\nprint(1)\n```", "Is x^2 + y^2 = z^2 true?"),
])
def test_titles_of_lines_with_code_and_math_skip_the_parser(text: str, title: str | None) -> None:
    first = text.split("\n\n")[0]
    assert bool(content._PLAIN_WITH_SPANS.fullmatch(first)) is (title is not None)
    fast, slow = both_paths(text)
    assert fast == slow
    if title is not None:
        assert content.plain_text(text) == title
