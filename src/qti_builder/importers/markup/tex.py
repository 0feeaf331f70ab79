"""Math written as TeX between delimiters (``\\(...\\)``, ``\\[...\\]``, ``$$...$$``):
:data:`MATH_DELIMITERS` finds it in text, :func:`mark_math` wraps it in the spans and divs that
:class:`.converter.Converter` writes as ``$...$`` and ``$$`` blocks."""

from __future__ import annotations

import re

from lxml import etree

#: Math written as TeX between delimiters, as Moodle's filters and our Moodle output write it.
MATH_DELIMITERS = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)
INLINE_MATH, BLOCK_MATH = "qb-math-inline", "qb-math-block"


def mark_math(root: etree._Element) -> None:
    """TeX between delimiters in text -> math spans the converter writes as ``$...$``; a block of
    its own -> a math div (``$$`` lines)."""
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element.tag in ("pre", "code", "script", "style"):
            continue
        if any(a.tag in ("pre", "code") for a in element.iterancestors()):
            continue
        if element.text and MATH_DELIMITERS.search(element.text):
            spans = _split_math(element.text)
            element.text = str(spans[0])
            _insert_math(element, None, spans[1:])
        for child in list(element):
            if isinstance(child.tag, str) and child.tail and MATH_DELIMITERS.search(child.tail):
                spans = _split_math(child.tail)
                child.tail = str(spans[0])
                _insert_math(element, child, spans[1:])
    for div in root.iter("div"):
        if len(div) == 1 and not (div.text or "").strip() and not (div[0].tail or "").strip() \
                and div[0].tag == "span" and div[0].get("class") == BLOCK_MATH:
            div.set("class", BLOCK_MATH)
            div.text = div[0].text
            div.remove(div[0])


def _split_math(text: str) -> list[object]:
    """Text and math pieces: strings, and (tex, display) tuples."""
    pieces: list[object] = []
    last = 0
    for match in MATH_DELIMITERS.finditer(text):
        pieces.append(text[last:match.start()])
        inline = match.group(1)
        pieces.append((inline if inline is not None else (match.group(2) or match.group(3)), inline is None))
        last = match.end()
    pieces.append(text[last:])
    return pieces


def _insert_math(parent: etree._Element, after: etree._Element | None, pieces: list[object]) -> None:
    position = 0 if after is None else parent.index(after) + 1
    previous = after
    for piece in pieces:
        if isinstance(piece, tuple):
            span = etree.Element("span")
            span.set("class", BLOCK_MATH if piece[1] else INLINE_MATH)
            span.text = piece[0]
            parent.insert(position, span)
            position += 1
            previous = span
        elif piece:
            if previous is None:
                parent.text = (parent.text or "") + str(piece)
            else:
                previous.tail = (previous.tail or "") + str(piece)
