"""The visible text of what the writers produce, whitespace runs collapsed."""

from __future__ import annotations

from lxml import etree, html


def element_text(element: etree._Element | None) -> str:
    """The text of an XML element and its descendants (none: '')."""
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def html_text(fragment: str | None) -> str:
    """The text a browser shows of an HTML fragment given as a string (none or blank: '')."""
    if not fragment or not fragment.strip():
        return ""
    return " ".join(html.fragment_fromstring(fragment, create_parent="div").text_content().split())
