"""Comparing renderings: :func:`canonical` brings HTML to a form where equal means "shows the
same". Also the HTML as the build's sanitiser leaves it: :func:`clean` does what it does,
:func:`removed_elements` says what it removes; :func:`parse` reads a fragment for all three."""

from __future__ import annotations

import html as html_lib
import re
from urllib.parse import unquote

import nh3
from lxml import etree
from lxml import html as lxml_html

from ... import content
from .tex import MATH_DELIMITERS

#: Block-level elements: whitespace next to them does not show.
BLOCK_TAGS = {"p", "div", "ul", "ol", "li", "pre", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption",
              "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dl", "dt", "dd", "figure", "figcaption",
              "address", "colgroup", "col"}


def parse(fragment: str) -> lxml_html.HtmlElement:
    return lxml_html.fragment_fromstring(fragment, create_parent="div")


def clean(fragment: str) -> str:
    """The HTML as the build would sanitise it (content.py's allow-list)."""
    return nh3.clean(fragment, tags=content.ALLOWED_TAGS, clean_content_tags=content.DROPPED_WITH_CONTENT,
                     attributes=content.ALLOWED_ATTRIBUTES, url_schemes=content.URL_SCHEMES, link_rel=None,
                     strip_comments=True)


def removed_elements(fragment: str) -> tuple[str, ...]:
    """Elements (and unsafe attributes) of ``fragment`` that the build's sanitiser removes."""
    found = []
    try:
        root = parse(fragment)
    except (etree.ParserError, ValueError):
        return ()
    for element in root.iter():
        if not isinstance(element.tag, str) or element is root:
            continue
        tag = element.tag.lower()
        if tag not in content.ALLOWED_TAGS:
            found.append(f"<{tag}>")
        allowed = content.ALLOWED_ATTRIBUTES["*"] | content.ALLOWED_ATTRIBUTES.get(tag, set())
        for name, value in element.attrib.items():
            if name.lower() not in allowed or re.match(r"\s*(javascript|vbscript|data):", value or "", re.I):
                found.append(f"{name}= on <{tag}>")
    return tuple(dict.fromkeys(found))


def canonical(fragment: str) -> str:
    """A rendering in a form where equal means "shows the same": whitespace collapsed as HTML
    does (except in ``<pre>``), attributes sorted with URLs unquoted and table alignment in one
    spelling, math by its TeX whatever the delimiters, a lone paragraph unwrapped."""
    try:
        root = parse(fragment or "")
    except (etree.ParserError, ValueError):
        return fragment
    tokens: list[tuple[str, str]] = []
    _tokens(root, tokens, preformatted=False)
    tokens = _trim(tokens)
    if tokens[:1] == [("open", "p")] and tokens[-1:] == [("close", "p")] and sum(t == ("open", "p") for t in tokens) == 1:
        tokens = tokens[1:-1]
    return "".join(f"<{v}>" if k == "open" else f"</{v}>" if k == "close" else v for k, v in tokens).strip()


def _tokens(element: etree._Element, out: list[tuple[str, str]], preformatted: bool) -> None:
    def text(value: str | None) -> None:
        if value:
            out.append(("pre", value) if preformatted else ("text", re.sub(r"\s+", " ", value)))

    text(element.text)
    for child in element:
        if not isinstance(child.tag, str):
            text(child.tail)
            continue
        tag = child.tag.lower()
        attrs = dict(child.attrib)
        style = attrs.pop("style", "")
        align = re.search(r"text-align:\s*(\w+)", style)
        if align:
            attrs["align"] = align.group(1)
        for name in ("src", "href"):
            if name in attrs:
                attrs[name] = unquote(attrs[name])
        rendered = " ".join(f'{k}="{html_lib.escape(v)}"' for k, v in sorted(attrs.items()))
        out.append(("open", f"{tag} {rendered}".strip()))
        _tokens(child, out, preformatted or tag == "pre")
        out.append(("close", tag))
        text(child.tail)


def _canonical_math(text: str) -> str:
    return MATH_DELIMITERS.sub(
        lambda m: ("⟦I:" + " ".join(m.group(1).split()) + "⟧") if m.group(1) is not None
        else ("⟦B:" + " ".join((m.group(2) or m.group(3)).split()) + "⟧"), text)


def _trim(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Drop whitespace next to block boundaries, and join adjacent text."""
    joined: list[tuple[str, str]] = []
    for token in tokens:
        if token[0] in ("text", "pre") and joined and joined[-1][0] == token[0]:
            joined[-1] = ("text", joined[-1][1] + token[1])
        else:
            joined.append(token)
    out: list[tuple[str, str]] = []
    for index, (kind, value) in enumerate(joined):
        if kind == "pre":
            out.append(("text", value.rstrip("\n")))
            continue
        if kind != "text":
            out.append((kind, value))
            continue
        before = joined[index - 1] if index else ("open", "p")
        after = joined[index + 1] if index + 1 < len(joined) else ("close", "p")
        if _is_block(before):
            value = value.lstrip()
        if _is_block(after):
            value = value.rstrip()
        if value:
            out.append(("text", _canonical_math(value)))
    return out


def _is_block(token: tuple[str, str]) -> bool:
    return token[0] in ("open", "close") and token[1].split(" ", 1)[0] in BLOCK_TAGS | {"br"}
