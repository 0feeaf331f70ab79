"""QTI's XHTML as plain HTML for the converter (:func:`qti_fragment`): namespaces dropped, the
classes QTI spells some HTML with turned back into elements, ``<object>`` media into
``<audio>``/``<video>``/``<img>``, and MathML into TeX between delimiters."""

from __future__ import annotations

import html as html_lib
from copy import deepcopy

from lxml import etree

from ... import content
from ..mathml import MATHML_NS, local, mathml_to_tex

#: QTI's XHTML subset spells some HTML with classes (content.QTI_RENAMES): back to the HTML element.
QTI_CLASSES = {"strikethrough": "s", "underline": "u", "mark": "mark", "figure": "figure", "caption": "figcaption"}


def qti_fragment(elements: list[etree._Element], text: str | None = None) -> str:
    """QTI body content (elements in the QTI namespace, MathML inside) as plain HTML: namespaces
    dropped, classes QTI uses for HTML it lacks turned back into elements, ``<object>`` media into
    ``<audio>``/``<video>``/``<img>``, and MathML into TeX between the delimiters Moodle uses."""
    parts = [html_lib.escape(text, quote=False)] if text and text.strip() else []
    for element in elements:
        wrapper = _qti_to_html(element)
        parts.append(html_lib.escape(wrapper.text or "", quote=False))
        parts += [etree.tostring(c, method="html", encoding="unicode", with_tail=True) for c in wrapper]
        parts.append(html_lib.escape(element.tail or "", quote=False))
    return "".join(parts)


def _qti_to_html(element: etree._Element) -> etree._Element:
    """A copy of ``element`` as HTML, inside a wrapper (a formula may be the element itself)."""
    copy = deepcopy(element)
    copy.tail = None
    wrapper = etree.Element("div")
    wrapper.append(copy)
    for node in list(wrapper.iter()):
        if node is wrapper:
            continue
        if not isinstance(node.tag, str):
            continue
        if etree.QName(node).namespace == MATHML_NS:
            if local(node.tag) == "math":
                _replace_math(node)
            continue
        node.tag = local(node.tag)
        for name in list(node.attrib):
            qname = etree.QName(name)
            if qname.localname == "lang":
                node.set("lang", node.attrib.pop(name))
            elif qname.namespace:
                del node.attrib[name]
        classes = (node.get("class") or "").split()
        renamed = next((QTI_CLASSES[c] for c in classes if c in QTI_CLASSES), None)
        if renamed and node.tag in ("span", "div"):
            node.tag = renamed
            rest = [c for c in classes if c not in QTI_CLASSES]
            if rest:
                node.set("class", " ".join(rest))
            else:
                node.attrib.pop("class", None)
        if node.tag in ("td", "th") and node.get("align"):
            node.set("style", f"text-align:{node.attrib.pop('align')}")
        if node.tag == "object":
            _object_to_media(node)
    etree.cleanup_namespaces(wrapper)
    return wrapper


def _replace_math(math: etree._Element) -> None:
    tex = mathml_to_tex(math)
    parent = math.getparent()
    block = math.get("display") == "block"
    at_block_level = parent is not None and local(parent.tag) in ("div", "blockquote", "li", "td", "th", "body", "itemBody") \
        and not (math.tail or "").strip() and not (_previous_text(math) or "").strip()
    if block and at_block_level:
        replacement = etree.Element("div")
        replacement.text = f"$${tex}$$"
    else:
        replacement = etree.Element("span")
        replacement.text = f"$${tex}$$" if block else f"\\({tex}\\)"
    replacement.tail = math.tail
    if parent is None:
        return
    parent.replace(math, replacement)
    if replacement.tag == "span":
        _drop_tag(replacement)


def _previous_text(element: etree._Element) -> str | None:
    previous = element.getprevious()
    if previous is not None:
        return previous.tail
    parent = element.getparent()
    return parent.text if parent is not None else None


def _drop_tag(element: etree._Element) -> None:
    parent = element.getparent()
    text = (element.text or "") + (element.tail or "")
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent.remove(element)


def _object_to_media(node: etree._Element) -> None:
    data, kind = node.get("data", ""), node.get("type") or content.media_type(node.get("data", ""))
    fallback = "".join(node.itertext())
    for child in list(node):
        node.remove(child)
    node.attrib.clear()
    if kind.startswith("image/"):
        node.tag = "img"
        node.set("src", data)
        node.set("alt", fallback)
        return
    node.tag = "video" if kind.startswith("video/") else "audio"
    node.set("controls", "")
    node.set("src", data)
    node.text = fallback if fallback != data else ""
