"""Rich text: the model's Markdown rendered to (X)HTML for the writers.

One CommonMark parser for every target, so QTI and Moodle show the same thing. Raw HTML in a
source is not interpreted: it is escaped and shows as text, so nothing in a source can inject
markup into a package.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": True, "linkify": False, "typographer": False}).enable("table")


@lru_cache(maxsize=4096)
def render_block(text: str) -> str:
    """Markdown as XHTML block content (paragraphs, lists, code blocks...)."""
    return _md.render(text).strip()


@lru_cache(maxsize=4096)
def render_inline(text: str) -> str:
    """Markdown as inline XHTML when it is a single paragraph, else as blocks.

    Short texts such as options read better without a wrapping ``<p>``; anything longer keeps
    its structure rather than being flattened.
    """
    html = render_block(text)
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return html[3:-4]
    return html


def plain_text(text: str, width: int = 80) -> str:
    """A one-line plain rendering of Markdown, shortened to ``width`` characters (question names)."""
    tokens = _md.parseInline(text.split("\n\n", 1)[0])
    parts: list[str] = []
    for token in tokens:
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
    line = " ".join("".join(parts).split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
