"""Rich text of other systems (HTML, QTI XHTML with MathML) back to the source's Markdown.

The conversion is checked, not trusted: a candidate Markdown text is rendered again with the
renderer the build uses (:func:`qti_builder.content.render_html`) and compared with the input,
both brought to one canonical form (whitespace as HTML collapses it, attributes sorted, URLs
unquoted, ``\\(...\\)``/``$...$`` math compared by its TeX). The candidates, in order:

1. Markdown escaping only what would otherwise render differently (each text run is tried as it
   is first), the way a person writes it: ``What is **France**?``;
2. Markdown escaping every character that can mean something;
3. the HTML itself, as a raw HTML block. The build sanitises it like any raw HTML in a source.

The first candidate that renders back to the input wins; :attr:`Converted.exact` says whether one
did. Markdown cannot hold everything HTML can (``<u>``, ``<sub>``, spans with classes, tables with
merged cells, audio): those elements stay inline HTML inside the Markdown, which the dialect
allows (docs/content.md).

What lives where:

- this module: the entry points, :func:`html_to_markdown` (with :class:`Converted`) and
  :func:`plain_to_markdown`;
- :mod:`.converter`: :class:`~.converter.Converter`, the markdownify subclass that writes the
  Markdown candidates, and :func:`~.converter.raw_block`, the HTML candidate;
- :mod:`.escaping`: Markdown escaping, code spans and :func:`~.escaping.renders_as_text`;
- :mod:`.canonical`: comparing renderings (:func:`~.canonical.canonical`) and the HTML as the
  build's sanitiser leaves it;
- :mod:`.tex`: math as TeX between delimiters, found in text and marked for the converter;
- :mod:`.xhtml`: QTI's XHTML (with MathML) as plain HTML, :func:`~.xhtml.qti_fragment`.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from ... import content
from .canonical import BLOCK_TAGS, canonical, clean, parse, removed_elements
from .converter import INLINE_HTML, RAW_BLOCKS, Converter, raw_block
from .escaping import code_span, escape_markdown, renders_as_text
from .tex import BLOCK_MATH, INLINE_MATH, MATH_DELIMITERS, mark_math
from .xhtml import QTI_CLASSES, qti_fragment

__all__ = ["BLOCK_TAGS", "INLINE_HTML", "MATH_DELIMITERS", "QTI_CLASSES", "RAW_BLOCKS", "Converted", "canonical", "code_span",
           "escape_markdown", "html_to_markdown", "plain_to_markdown", "qti_fragment", "removed_elements", "renders_as_text"]


@dataclass(frozen=True)
class Converted:
    markdown: str
    #: True when the Markdown renders back to the input; False: kept as raw HTML, or close only.
    exact: bool
    #: The HTML elements the sanitiser will remove from the source at build time.
    removed: tuple[str, ...] = ()
    #: True when no Markdown candidate matched and the HTML itself was kept.
    raw: bool = False


#: ``<p>text</p>`` with a text the sanitiser, the parser and markdownify leave as it is: no markup,
#: no character the sanitiser escapes (``& < >``, no-break spaces), whitespace already collapsed,
#: no ``[[`` (which the converter escapes).
_ONE_PARAGRAPH = re.compile(r"<p>([^<>&\u00a0\s](?:[^<>&\u00a0\s]| (?! ))*(?<! ))</p>")


def html_to_markdown(fragment: str, inline: bool = False) -> Converted:
    """Convert an HTML fragment (Moodle text, or QTI XHTML already run through :func:`qti_fragment`)."""
    fragment = (fragment or "").strip()
    if not fragment:
        return Converted("", True)
    if "<" not in fragment and "&" not in fragment and not MATH_DELIMITERS.search(fragment) and renders_as_text(fragment):
        return Converted(fragment, True)
    # Most texts of a bank are one plain paragraph: the converter would write its text as it is
    # (that is what renders_as_text checks), so neither it nor the comparison below is needed.
    paragraph = _ONE_PARAGRAPH.fullmatch(fragment)
    if paragraph and "[[" not in paragraph.group(1) and not MATH_DELIMITERS.search(paragraph.group(1)) \
            and renders_as_text(paragraph.group(1)):
        return Converted(paragraph.group(1), True)
    direct = _direct(fragment)
    if direct is not None:
        return Converted(direct, True)
    return _converted(fragment)


#: The HTML the build itself writes for paragraphs of text and inline code, and code blocks:
#: ``<p>`` (text and ``<code>`` spans, no other markup or entity) and ``<pre><code class="language-x">``.
_DIRECT_BLOCK = re.compile(r'<p>((?:[^<>&]|<code>[^<>]*</code>)+)</p>|<pre><code(?: class="language-([\w+-]+)")?>([^<>]*)</code></pre>')
_CODE_SPAN = re.compile(r"<code>([^<>]*)</code>")
#: Whitespace the converter collapses (HTML's own reading of it): not for the direct way.
_UNCOLLAPSED = re.compile(r"[\t\n\r\f\v\u00a0]| {2}")
_INLINE_MATH = re.compile(r"\\\((.+?)\\\)", re.S)


def _direct(fragment: str) -> str | None:
    """Markdown for HTML shaped as the build writes it (paragraphs of text and inline code, code
    blocks), taken only when the build renders it back to exactly that HTML: a bank's texts are
    mostly such, and the full conversion and comparison (markdownify, canonical forms) are then
    not needed. None for anything else."""
    blocks, end = [], 0
    for match in _DIRECT_BLOCK.finditer(fragment):
        if fragment[end:match.start()].strip():
            return None
        end = match.end()
        if match.group(1) is not None:
            inline = match.group(1)
            parts = _CODE_SPAN.split(inline)  # text, code, text, ...: math in the text as $...$, as the converter writes it
            text = "\x00".join(parts[::2])
            if any(mark in inline for mark in ("`", "[[", "$", "\\[")) or _UNCOLLAPSED.search(text) \
                    or inline != inline.strip():
                return None
            blocks.append("".join(_INLINE_MATH.sub(lambda m: f"${m.group(1)}$", part) if k % 2 == 0
                                  else code_span(html_lib.unescape(part)) for k, part in enumerate(parts)))
        else:
            code = html_lib.unescape(match.group(3))
            if "```" in code or "~~~" in code:
                return None
            blocks.append(f"```{match.group(2) or ''}\n{code.rstrip(chr(10))}\n```")
    if not blocks or fragment[end:].strip():
        return None
    markdown = "\n\n".join(blocks)
    return markdown if content.render_html(markdown).strip() == fragment.strip() else None


@lru_cache(maxsize=4096)
def _converted(fragment: str) -> Converted:
    """The checked conversion; a bank repeats fragments (feedback, options), converted once."""
    removed = removed_elements(fragment)
    fragment = clean(fragment)
    if "<li" in fragment:
        fragment = _lists_around_items(fragment)
    root = parse(fragment)
    mark_math(root)
    prepared = _serialise_children(root)
    target = canonical(fragment)
    for mode in ("minimal", "full"):
        markdown = Converter(escape_mode=mode).convert(prepared).strip()  # type: ignore[call-arg]  # markdownify's bundled stub lacks **options
        if canonical(content.render_html(markdown)) == target:
            return Converted(markdown, True, removed)
    blocks = _block_by_block(parse(fragment), target)  # the blocks as written, math not yet marked
    if blocks is not None:
        return Converted(blocks, True, removed)
    raw = raw_block(fragment)
    return Converted(raw, canonical(content.render_html(raw)) == target, removed, raw=True)


def _block_by_block(root: etree._Element, target: str) -> str | None:
    """The text converted one top-level block at a time, when the whole has no Markdown form:
    each block that has one (a paragraph, a list, a plain table) is Markdown, each that has none
    (a table with classes, a paragraph holding a sized image) stays HTML as a block of its own,
    so one such element no longer turns the whole question text into one raw HTML line. Taken
    only when the whole renders back to the input, as every candidate is; None otherwise."""
    if root.text and root.text.strip():
        return None
    children = list(root)
    if len(children) < 2 or any(child.tail and child.tail.strip() for child in children) \
            or any(not isinstance(child.tag, str) or child.tag.lower() not in BLOCK_TAGS | RAW_BLOCKS for child in children):
        return None
    parts = []
    for child in children:
        block = etree.tostring(child, method="html", encoding="unicode", with_tail=False)
        if MATH_DELIMITERS.search(block):  # math stays as the whole text's conversion would leave it
            parts.append(raw_block(block))
            continue
        converted = html_to_markdown(block)
        # A paragraph written as a line of HTML would be an HTML block, without its <p>.
        as_html = child.tag.lower() == "p" and converted.markdown.lstrip().startswith("<")
        parts.append(converted.markdown if converted.exact and not as_html else raw_block(block))
    markdown = "\n\n".join(part for part in parts if part.strip())
    if INLINE_MATH in markdown or BLOCK_MATH in markdown:  # the converter's math markers are no source's
        return None
    return markdown if canonical(content.render_html(markdown)) == target else None


def _lists_around_items(fragment: str) -> str:
    """``fragment`` with each run of list items outside a list inside a ``<ul>`` of its own, as a
    browser shows them (bullets): a QTI item's XHTML, and the Markdown, have no item without its list."""
    root = parse(fragment)
    orphans = [li for li in root.iter("li") if li.getparent() is not None and li.getparent().tag not in ("ul", "ol", "menu")]
    if not orphans:
        return fragment
    for li in orphans:
        previous = li.getprevious()
        if previous is not None and previous.tag == "ul" and previous.get("data-wrapped") == "1" and not (previous.tail or "").strip():
            tail, li.tail = li.tail, None  # the next item of the same run
            previous.append(li)
            previous.tail = tail
        else:
            wrapper = etree.Element("ul", {"data-wrapped": "1"})
            li.addprevious(wrapper)
            wrapper.tail, li.tail = li.tail, None
            wrapper.append(li)
    for wrapper in root.iter("ul"):
        wrapper.attrib.pop("data-wrapped", None)
    return _serialise_children(root)


def plain_to_markdown(text: str) -> str:
    """Plain text (Moodle's plain_text format, text2qti titles) as Markdown that shows it as written."""
    paragraphs = re.split(r"\n\s*\n", (text or "").strip())
    fragment = "".join("<p>" + html_lib.escape(p).replace("\n", "<br>") + "</p>" for p in paragraphs if p.strip())
    return html_to_markdown(fragment).markdown


def _serialise_children(root: etree._Element) -> str:
    parts = [html_lib.escape(root.text, quote=False) if root.text else ""]
    parts += [etree.tostring(child, method="html", encoding="unicode", with_tail=True) for child in root]
    return "".join(parts)
