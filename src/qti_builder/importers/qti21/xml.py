"""Element helpers for the QTI 2.1 reader: elements are found by local name (any namespace or
prefix); ``_float`` reads a number from attribute or element text (None when it is not one)."""

from __future__ import annotations

import math
from typing import Any

from lxml import etree

#: The fields of one question or section, as ``QuizBuilder`` (importers.base) takes them.
Data = dict[str, Any]


def local(node: Any) -> str:
    return etree.QName(node).localname if isinstance(getattr(node, "tag", None), str) else ""


def children(element: etree._Element, name: str | None = None) -> list[etree._Element]:
    return [c for c in element if isinstance(c.tag, str) and (name is None or local(c) == name)]


def child(element: etree._Element, name: str) -> etree._Element | None:
    found = children(element, name)
    return found[0] if found else None


def descendants(element: etree._Element, *names: str) -> list[etree._Element]:
    return [e for e in element.iter() if isinstance(e.tag, str) and local(e) in names]


def _float(text: str | None) -> float | None:
    try:
        value = float((text or "").strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # "nan" and "inf" are no score, bound or answer


def replace_with_text(element: etree._Element, text: str) -> None:
    """Put ``text`` where ``element`` was (its tail kept), and remove the element."""
    parent = element.getparent()
    if parent is None:
        return
    previous = element.getprevious()
    joined = text + (element.tail or "")
    if previous is not None:
        previous.tail = (previous.tail or "") + joined
    else:
        parent.text = (parent.text or "") + joined
    parent.remove(element)


def unwrap(element: etree._Element) -> None:
    """Put ``element``'s content where it was (its tail kept), and remove the element itself."""
    parent = element.getparent()
    if parent is None:
        return
    index = parent.index(element)
    previous = element.getprevious()
    lead = element.text or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + lead
    else:
        parent.text = (parent.text or "") + lead
    inner = list(element)
    for offset, node in enumerate(inner):
        parent.insert(index + offset, node)
    tail = element.tail or ""
    if inner:
        inner[-1].tail = (inner[-1].tail or "") + tail
    elif previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)
