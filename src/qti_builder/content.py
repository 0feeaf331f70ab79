"""Rich text: the model's Markdown rendered for each target.

One CommonMark parser (plus tables, strikethrough and TeX math) feeds every target, so QTI and
Moodle show the same thing:

1. Markdown -> HTML, with math left as placeholders;
2. the HTML, raw HTML from the source included, is sanitised to an allow-list (nh3, the Ammonia
   sanitiser): no scripts, frames, styles, event handlers or ``javascript:`` URLs survive;
3. the tree is rewritten for the target: QTI gets the XHTML subset QTI 2.1 allows plus MathML
   (latex2mathml); Moodle gets HTML with TeX delimiters for its MathJax/TeX filter.

:func:`inspect` reports what step 2 removed and what cannot be converted, so the pipeline can
point at the source line; rendering itself never fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from lxml import etree, html

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_MATH_CLASS = {"inline": "qb-math-inline", "block": "qb-math-block"}


def _math_renderer(display: str, tag: str):  # type: ignore[no-untyped-def]
    def render(self, tokens, idx, options, env):  # type: ignore[no-untyped-def]
        tex = escape(tokens[idx].content.strip(), quote=False)
        return f'<{tag} class="{_MATH_CLASS[display]}">{tex}</{tag}>'

    return render


# Display math inside a paragraph stays a span: a div would split the paragraph.
_MATH_TOKENS = {"math_inline": ("inline", "span"), "math_inline_double": ("block", "span"),
                "math_block": ("block", "div"), "math_block_label": ("block", "div"), "math_block_eqno": ("block", "div")}


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    """The one Markdown parser, made (and markdown-it and its math plugins imported) when a text
    first needs it: a text that is a plain line (``_PLAIN``) never does, and a rebuild whose
    edited questions are such lines, or a build of a bank of them, renders and checks everything
    without it (markdown-it's import and this parser were a tenth of the pipeline's import,
    bench/README.md)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.texmath import texmath_plugin

    md = (
        MarkdownIt("commonmark", {"html": True, "xhtmlOut": True, "linkify": False, "typographer": False})
        .enable(["table", "strikethrough"])
        .use(texmath_plugin, delimiters="brackets")
        # No space inside $...$ and no digit after the closing $, so "$5 and $10" stays money.
        .use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    )
    for kind, (display, tag) in _MATH_TOKENS.items():
        md.add_render_rule(kind, _math_renderer(display, tag))
    return md

#: What may come out of a source's HTML, Markdown's included (the sanitiser's allow-list).
ALLOWED_TAGS = {
    "a", "abbr", "acronym", "address", "b", "big", "blockquote", "br", "caption", "cite", "code", "col",
    "colgroup", "dd", "del", "dfn", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
    "img", "ins", "kbd", "li", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strike", "strong",
    "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var",
    "audio", "video", "source", "figure", "figcaption", "mark",
}
ALLOWED_ATTRIBUTES = {
    "*": {"class", "lang", "title"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "audio": {"src", "controls"},
    "video": {"src", "controls", "width", "height"},
    "source": {"src", "type"},
    "td": {"colspan", "rowspan", "align", "style"},
    "th": {"colspan", "rowspan", "align", "style", "scope"},
    "col": {"span"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}
#: Elements removed with their content (the rest lose only their tags).
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "noscript", "template", "frame", "frameset", "applet"}

#: HTML elements QTI 2.1's XHTML subset lacks -> (QTI element, class keeping the meaning).
QTI_RENAMES = {
    "del": ("span", "strikethrough"), "s": ("span", "strikethrough"), "strike": ("span", "strikethrough"),
    "ins": ("span", "underline"), "u": ("span", "underline"), "mark": ("span", "mark"),
    "figure": ("div", "figure"), "figcaption": ("div", "caption"),
}
#: Attributes QTI 2.1 allows, per element ("*" for all).
QTI_ATTRIBUTES = {
    "*": {"class", "label"},
    "a": {"href", "type"},
    "img": {"src", "alt", "longdesc", "height", "width"},
    "object": {"data", "type", "width", "height"},
    "td": {"colspan", "rowspan", "align", "valign", "headers", "scope", "abbr", "axis"},
    "th": {"colspan", "rowspan", "align", "valign", "headers", "scope", "abbr", "axis"},
    "col": {"span"},
    "colgroup": {"span"},
    "table": {"summary"},
    "ol": set(),
}


@dataclass(frozen=True)
class Problem:
    """Something in one Markdown text that did not survive as written."""

    severity: str  # "error" | "warning"
    code: str
    message: str
    #: 0-based offset of the problem in the text, for locating it in the source.
    offset: int = 0
    hint: str | None = None


# -- step 1 and 2 --------------------------------------------------------------------------------


#: One line that Markdown and the sanitiser leave as it is but for escaping ``&``, ``<`` and
#: ``>``: it starts with a letter or digit (not like a list item: "1." "2)"), has single spaces
#: and no trailing one, and punctuation that means nothing to CommonMark or its plugins inside a
#: line: ``#`` heads only a line, ``>`` quotes only at its start, ``|`` needs a second line to
#: make a table, ``&`` not followed by ``#`` or letters and digits up to a ``;`` starts no
#: character reference, and ``<`` followed by a space starts no tag or autolink.
#: Anything else (emphasis, backticks, ``$``, backslashes, brackets, ``~``, line breaks...) goes
#: to the parser. Most stems, options and feedback of real banks are such lines, and skip the parser,
#: the sanitiser and the tree (tests/test_fast_path.py compares both paths).
_PLAIN = re.compile(r"(?![0-9]{1,9}[.)])[^\W_](?:[^\W_]|[,.;:?!'\"/()%@{}=+#|>-]|&(?![A-Za-z0-9]+;|#)|<(?= )| (?! ))*(?<! )")


#: A line like ``_PLAIN`` with code spans and inline math in it, whose plain text (a title) is the
#: line without their delimiters: a code span without a backtick inside or a space at either end,
#: and ``$…$`` as the math plugin reads it here (no space inside its ends, no backslash, nothing
#: word-like just outside). Stems that show `code` or $x$ in their first line are common, and
#: their titles need not go through the parser, the sanitiser and the tree (tests/test_fast_path.py).
_CODE_SPAN = r"(?<!`)`[^`\s](?:[^`\n]*[^`\s])?`(?!`)"
_MATH_SPAN = r"(?<![\w$])\$[^$`\\\s](?:[^$`\\\n]*[^$`\\\s])?\$(?![\w$])"
_PLAIN_WITH_SPANS = re.compile(_PLAIN.pattern.replace("|<(?= )|", f"|<(?= )|{_CODE_SPAN}|{_MATH_SPAN}|", 1))
_SPAN = re.compile(f"{_CODE_SPAN}|{_MATH_SPAN}")


@lru_cache(maxsize=1 << 16)  # asked by each target's renderer and the sanitiser: one match a text
def _plain_paragraph(text: str) -> str | None:
    """``text`` as the one paragraph Markdown makes of it, when it provably is plain (``_PLAIN``)."""
    if _PLAIN.fullmatch(text):
        return f"<p>{escape(text, quote=False)}</p>"
    return None


#: Only texts that are not plain lines get here. A quiz's frame asks for the title of every
#: question before its chunks render them: a cache smaller than the bank's non-plain stems would
#: have evicted them by then, and parse each again (a third more parses at 25,000 questions).
@lru_cache(maxsize=1 << 16)
def _sanitised_html(text: str) -> str:
    plain = _plain_paragraph(text)
    if plain is not None:
        return plain
    import nh3  # with the parser: only a text that is not a plain line gets here

    raw = _md().render(text)
    return nh3.clean(
        raw,
        tags=ALLOWED_TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel=None,
        strip_comments=True,
    )


def _fragment(text: str) -> html.HtmlElement:
    """The sanitised HTML of ``text`` as children of one ``<div>``. The sanitiser keeps a table
    cell's ``style`` (Markdown's column alignment); only its ``text-align`` survives here."""
    root = html_fragment(_sanitised_html(text) or "")
    for cell in root.iter("td", "th"):
        style = cell.attrib.pop("style", "")
        align = re.search(r"text-align:\s*(left|right|center|justify)\s*(;|$)", style)
        if align:
            cell.set("style", f"text-align:{align.group(1)}")
    return root


def html_fragment(markup: str) -> html.HtmlElement:
    """``lxml.html.fragment_fromstring(markup, create_parent="div")`` for the sanitiser's output,
    parsed the same way with half the Python around it (a parse per rich text per target; the
    sanitiser never writes the ``<html>`` that function refuses). tests/test_fast_path.py
    compares the two."""
    root = html.Element("div")
    if markup:
        document = etree.fromstring(f"<html><body>{markup}</body></html>", html.html_parser)
        body = next(element for element in document if element.tag == "body")
        if body.text and body.text.strip():  # leading white space is dropped, as lxml.html drops it
            root.text = body.text
        root.extend(body)
    return root


# -- step 3: targets -----------------------------------------------------------------------------


#: Media references -> where the target keeps the files, as (reference, new src) pairs.
Renames = tuple[tuple[str, str], ...]


@lru_cache(maxsize=8192)
def render_block(text: str, media: Renames = ()) -> str:
    """Markdown as QTI 2.1 XHTML block content (serialised without a namespace: the templates put
    it inside elements of the QTI default namespace)."""
    plain = _plain_paragraph(text)
    if plain is not None:  # nothing to convert, rename or drop
        return plain
    root = _fragment(text)
    _to_qti(root)
    _rename_media(root, media)
    return _inner_xml(root)


@lru_cache(maxsize=8192)
def render_inline(text: str, media: Renames = ()) -> str:
    """QTI XHTML without the wrapping ``<p>`` when the text is a single paragraph."""
    return unwrap_paragraph(render_block(text, media))


@lru_cache(maxsize=8192)
def render_html(text: str, media: Renames = ()) -> str:
    """Markdown as HTML for Moodle: math as TeX between ``\\(…\\)`` / ``$$…$$`` delimiters, which
    Moodle's MathJax and TeX filters render."""
    plain = _plain_paragraph(text)
    if plain is not None:  # nothing to convert, rename or drop
        return plain
    root = _fragment(text)
    for element, display in _formulas(root):
        tex = element.text or ""
        element.text = f"\\({tex}\\)" if display == "inline" else f"$${tex}$$"
        element.attrib.pop("class")
        if element.tag == "span":
            element.drop_tag()
    _rename_media(root, media)
    return _inner_html(root)


@lru_cache(maxsize=8192)
def render_html_inline(text: str, media: Renames = ()) -> str:
    return unwrap_paragraph(render_html(text, media))


@lru_cache(maxsize=8192)
def render_canvas(text: str, media: Renames = ()) -> str:
    """Markdown as HTML for Canvas: math as Canvas's own equation images (the form its editor
    writes and its importer keeps unchanged, docs/lms-behaviour.md), media at their package path."""
    plain = _plain_paragraph(text)
    if plain is not None:  # nothing to convert, rename or drop
        return plain
    root = _fragment(text)
    for element, display in _formulas(root):
        tex = element.text or ""
        image = html.Element("img", {
            "class": "equation_image", "title": tex, "src": equation_image_src(tex),
            "alt": f"LaTeX: {tex}", "data-equation-content": tex,
        })
        element.text = None
        element.attrib.pop("class")
        element.append(image)
        if element.tag == "span":
            element.drop_tag()
        else:  # display math: a paragraph of its own
            element.tag = "p"
    # Canvas's sanitiser drops <s> on import (keeping the text) but keeps <del>, which shows the same.
    for element in root.iter("s"):
        element.tag = "del"
    _rename_media(root, media)
    return _inner_html(root)


@lru_cache(maxsize=8192)
def render_canvas_inline(text: str, media: Renames = ()) -> str:
    return unwrap_paragraph(render_canvas(text, media))


#: Where a ``<br>`` was, in the text of a plain-text block (any other line end is a space).
_LINE_BREAK = "\u2028"
#: Elements whose text is a block of its own in plain text.
_PLAIN_BLOCKS = {"p", "div", "pre", "blockquote", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd",
                 "figure", "figcaption", "table", "thead", "tbody", "tfoot", "ul", "ol", "dl", "hr"}


@lru_cache(maxsize=1024)
def render_plain(text: str) -> str:
    """Markdown as plain text for a field that may not render HTML (New Quizzes' grading notes):
    one block per paragraph, list item or table row, separated by blank lines; code as written;
    formulas as their TeX between ``\\( \\)`` or ``\\[ \\]``; images as their alternative text. Never
    empty for a text that is not blank."""
    root = _fragment(text)
    for element, display in _formulas(root):
        tex = element.text or ""
        element.text = f"\\({tex}\\)" if display == "inline" else f"\\[{tex}\\]"
    for image in list(root.iter("img")):
        alt = image.get("alt") or ""
        image.getparent().replace(image, _text_span(f"[{alt}]" if alt else ""))  # type: ignore[union-attr]
    for element in root.iter("br"):
        element.tail = _LINE_BREAK + (element.tail or "")
    blocks: list[str] = []
    _plain_blocks(root, blocks)
    # Markdown that renders to no text at all ("#", "***") is the text as written, as plain_text does.
    return "\n\n".join(b for b in blocks if b) or " ".join(text.split())


def _text_span(text: str) -> html.HtmlElement:
    span = html.Element("span")
    span.text = text
    return span


def _plain_blocks(element: html.HtmlElement, blocks: list[str], prefix: str = "") -> None:
    """The text of ``element`` as blocks: a nested block element starts a block of its own; a list
    item's marker (``prefix``) goes before its first block."""
    if element.tag == "pre":
        blocks.append(prefix + element.text_content().rstrip("\n"))
        return
    if element.tag == "tr":
        cells = [" ".join(cell.text_content().split()) for cell in element if cell.tag in ("td", "th")]
        blocks.append(prefix + " | ".join(cells))
        return
    pieces = [element.text or ""]
    numbered = element.tag == "ol"
    for index, child in enumerate(element, start=int(element.get("start") or 1) if numbered else 1):
        if child.tag in _PLAIN_BLOCKS:
            if _flush(pieces, blocks, prefix):
                prefix = ""
            pieces = []
            marker = (f"{index}. " if numbered else "- ") if child.tag == "li" else prefix
            before = len(blocks)
            _plain_blocks(child, blocks, marker)
            if len(blocks) > before and marker == prefix:
                prefix = ""
        else:
            pieces.append(child.text_content())
        pieces.append(child.tail or "")
    _flush(pieces, blocks, prefix)


def _flush(pieces: list[str], blocks: list[str], prefix: str) -> bool:
    lines = [" ".join(line.split()) for line in "".join(pieces).split(_LINE_BREAK)]
    text = "\n".join(line for line in lines if line)
    if text:
        blocks.append(prefix + text)
    return bool(text)


#: What JavaScript's encodeURIComponent leaves as it is.
_URI_COMPONENT_SAFE = "-_.!~*'()"


def equation_image_src(tex: str) -> str:
    """The src of Canvas's equation image for ``tex``: the TeX URL-encoded twice (Canvas's
    equation_images controller decodes once and hands the rest to its renderer)."""
    once = quote(tex, safe=_URI_COMPONENT_SAFE)
    return f"/equation_images/{quote(once, safe=_URI_COMPONENT_SAFE)}?scale=1"


@lru_cache(maxsize=8192)
def render_preview(text: str, media: Renames = ()) -> str:
    """Markdown as HTML for the preview: math as MathML (browsers render it natively, so the
    preview needs no script or CDN), media pointing at the copied files."""
    root = _fragment(text)
    for element, display in _formulas(root):
        _replace_with_mathml(element, display)
    _rename_media(root, media)
    return _inner_html(root)


def _rename_media(root: etree._Element, media: Renames) -> None:
    renames = dict(media)
    if not renames:
        return
    for element in root.iter():
        for attribute in ("src", "data", "href"):
            if element.get(attribute) in renames:
                element.set(attribute, renames[element.get(attribute)])


def unwrap_paragraph(markup: str) -> str:
    if markup.startswith("<p>") and markup.endswith("</p>") and markup.count("<p>") == 1:
        return markup[3:-4]
    return markup


def _formulas(root: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """Each formula placeholder of a rendered fragment and its display (inline or block), for the
    target to replace (taken as a list first: the caller changes the tree)."""
    for element in list(root.iter("span", "div")):
        display = _math_display(element)
        if display:
            yield element, display


def _math_display(element: etree._Element) -> str | None:
    cls = element.get("class", "")
    return next((d for d, c in _MATH_CLASS.items() if cls == c), None)


def _to_qti(root: html.HtmlElement) -> None:
    for element in list(root.iter()):
        if element is root or not isinstance(element.tag, str):
            continue
        display = _math_display(element)
        if display:
            _replace_with_mathml(element, display)
            continue
        tag = element.tag
        if tag in QTI_RENAMES:
            element.tag, extra = QTI_RENAMES[tag]
            element.set("class", " ".join(filter(None, [element.get("class"), extra])))
        elif tag in ("audio", "video"):
            _media_object(element)
        elif tag == "source":
            continue  # folded into its audio/video parent
        _qti_attributes(element)
    _qti_structure(root)


#: XHTML inline elements: QTI's grammar lets none of them hold a block, though HTML's parser
#: builds one around a list or a table after an unclosed ``<b>``.
_QTI_INLINE = {"a", "abbr", "acronym", "b", "big", "cite", "code", "dfn", "em", "i", "kbd", "q", "samp", "small",
               "span", "strong", "sub", "sup", "tt", "var"}
_QTI_BLOCKS = {"address", "blockquote", "div", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "ol", "p", "pre",
               "table", "ul"}


def _qti_structure(root: html.HtmlElement) -> None:
    """What HTML allows and QTI's grammar does not, made valid with every word kept: a table with
    a header and no body (QTI needs a ``tbody``: the header rows become it), and an inline element
    around blocks (its tag is dropped, its content kept)."""
    for table in list(root.iter("table")):
        if table.find("tbody") is None:
            head = table.find("thead")
            if head is not None:
                head.tag = "tbody"
            else:
                table.append(html.Element("tbody"))
                table[-1].extend([row for row in table if row.tag == "tr"])
    for element in list(root.iter(*_QTI_INLINE)):
        if any(isinstance(d.tag, str) and d.tag in _QTI_BLOCKS for d in element.iterdescendants()):
            element.drop_tag()
    for quote in list(root.iter("blockquote")):
        _blocks_only(quote)


def _blocks_only(parent: html.HtmlElement) -> None:
    """QTI's ``blockquote`` holds blocks only: each run of text and inline elements in it (raw
    HTML such as ``<blockquote>text<br>more</blockquote>``) becomes a paragraph."""
    if not (parent.text or "").strip() and all(
            not isinstance(c.tag, str) or (c.tag in _QTI_BLOCKS and not (c.tail or "").strip()) for c in parent):
        return
    runs: list[html.HtmlElement] = []
    current: html.HtmlElement | None = None

    def paragraph() -> html.HtmlElement:
        nonlocal current
        if current is None:
            current = html.Element("p")
            runs.append(current)
        return current

    if (parent.text or "").strip():
        paragraph().text = parent.text
    parent.text = None
    for child in list(parent):
        parent.remove(child)
        tail, child.tail = child.tail, None
        if isinstance(child.tag, str) and child.tag in _QTI_BLOCKS:
            current = None
            runs.append(child)
        else:
            paragraph().append(child)
        # Space after an inline element parts words; after a block, only text counts.
        if tail and (tail.strip() or current is not None):
            target = paragraph()
            if len(target):
                target[-1].tail = (target[-1].tail or "") + tail
            else:
                target.text = (target.text or "") + tail
    parent.extend(runs)


#: QTI 2.1's ``Length``: pixels, or a percentage.
_QTI_LENGTH = re.compile(r"[0-9]+%?")


def _qti_attributes(element: etree._Element) -> None:
    if element.tag == "img" and not element.get("src"):
        # Its source was a refused URL (data:, javascript:): QTI requires one; keep the alt text.
        element.tail = (element.get("alt") or "") + (element.tail or "")
        element.drop_tree()  # keeps the tail, now with the alt text
        return
    allowed = QTI_ATTRIBUTES["*"] | QTI_ATTRIBUTES.get(element.tag, set())
    style = element.attrib.pop("style", "")
    align = re.search(r"text-align:\s*(left|right|center|justify)", style)
    if align and element.tag in ("td", "th"):
        element.set("align", align.group(1))
    lang = element.attrib.pop("lang", None)
    if lang:
        element.set("{http://www.w3.org/XML/1998/namespace}lang", lang)
    for name in list(element.attrib):
        if name not in allowed and not name.startswith("{"):
            del element.attrib[name]
    for name in ("width", "height"):
        # QTI's length is pixels or a percentage, digits only: HTML editors write CSS lengths
        # ("7px", D2L's); a pixel length loses its unit, any other (em, auto) goes.
        value = element.get(name)
        if value is not None and not _QTI_LENGTH.fullmatch(value):
            pixels = re.fullmatch(r"\s*(\d+)(?:\.\d*)?\s*(?:px)?\s*", value, re.I)
            if pixels:
                element.set(name, pixels.group(1))
            else:
                del element.attrib[name]
    if element.tag == "a" and (element.get("href") or "#").startswith("#"):
        # QTI requires href: a link whose target was removed (javascript:) or points into the
        # page (which is split into items) keeps only its text.
        element.drop_tag()
        return
    if element.tag == "img" and element.get("alt") is None:
        element.set("alt", "")  # required by QTI


def _media_object(element: etree._Element) -> None:
    source = element.get("src") or next((s.get("src") for s in element.iter("source") if s.get("src")), "")
    kind = next((s.get("type") for s in element.iter("source") if s.get("type")), None)
    fallback = element.text_content().strip() if hasattr(element, "text_content") else ""
    original = element.tag
    for child in list(element):
        element.remove(child)
    element.attrib.clear()
    element.tag = "object"
    element.set("data", source)
    element.set("type", kind or media_type(source, "audio/mpeg" if original == "audio" else "video/mp4"))
    element.text = fallback or source


@lru_cache(maxsize=4096)
def mathml(tex: str, display: str = "inline") -> str:
    """TeX as MathML (latex2mathml). Cached: a formula is converted when it is checked and again
    for each target, and banks repeat formulas. Raises what the library raises for bad TeX."""
    import latex2mathml.converter  # here, not at the top: most quizzes have no math (a cold start's 60 ms)

    converted = latex2mathml.converter.convert(_converter_tex(tex), display=display)
    # latex2mathml passes what it does not know through as text, '&' unescaped: refuse it here,
    # where inspect() reports it, rather than drop the formula when it is rendered.
    etree.fromstring(converted)
    return converted


#: TeX environments latex2mathml does not know, as ones it does that show the same: alignments as
#: ``align*`` (their column argument dropped), a lone equation as its content, the cases variants
#: as ``cases``, a tabular as an array.
_ENVIRONMENTS = {
    "aligned": "align*", "alignat": "align*", "alignat*": "align*", "alignedat": "align*", "flalign": "align*",
    "flalign*": "align*", "eqnarray": "align*", "eqnarray*": "align*", "gather": "align*", "gather*": "align*",
    "gathered": "align*", "multline": "align*", "multline*": "align*", "dcases": "cases", "tabular": "array",
    "equation": "", "equation*": "",
}
#: Environments whose first argument is a column count or spec latex2mathml's replacement lacks.
_COUNTED = {"alignat", "alignat*", "alignedat"}
_ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}(\s*\{[^{}]*\})?")


def _converter_tex(tex: str) -> str:
    if "\\begin" not in tex:
        return tex

    def replace(match: re.Match[str]) -> str:
        which, name, after = match.group(1), match.group(2), match.group(3) or ""
        if name not in _ENVIRONMENTS:
            return match.group(0)
        if which == "begin" and name in _COUNTED:
            after = ""  # the column count: align* has none (a tabular's spec is an array's, kept)
        target = _ENVIRONMENTS[name]
        return (f"\\{which}{{{target}}}" if target else "") + after

    return _ENVIRONMENT.sub(replace, tex)


def _replace_with_mathml(element: etree._Element, display: str) -> None:
    tex = element.text or ""
    try:
        math = etree.fromstring(mathml(tex, display))
    except Exception:  # noqa: BLE001 - reported by inspect(); keep the TeX visible rather than drop it
        element.attrib.pop("class")
        element.text = tex
        return
    math.tail = element.tail
    parent = element.getparent()
    parent.replace(element, math)


def _inner_xml(root: etree._Element) -> str:
    parts = [escape(root.text, quote=False) if root.text else ""]
    for child in root:
        parts.append(etree.tostring(child, method="xml", encoding="unicode", with_tail=True))
    return "".join(parts).strip()


def _inner_html(root: etree._Element) -> str:
    parts = [escape(root.text, quote=False) if root.text else ""]
    for child in root:
        parts.append(etree.tostring(child, method="html", encoding="unicode", with_tail=True))
    return "".join(parts).strip()


MEDIA_TYPES = {
    ".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".ogg": "audio/ogg", ".oga": "audio/ogg", ".wav": "audio/wav",
    ".mp4": "video/mp4", ".webm": "video/webm", ".ogv": "video/ogg",
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml",
    ".webp": "image/webp",
}


def media_type(path: str, default: str = "application/octet-stream") -> str:
    suffix = re.search(r"\.[A-Za-z0-9]+$", path.split("?")[0])
    return MEDIA_TYPES.get(suffix.group(0).lower(), default) if suffix else default


# -- reporting -----------------------------------------------------------------------------------

def _inline_display_math(text: str) -> list[int]:
    """Offsets of ``\\[`` that share their line with other text (texmath reads \\[…\\] only as
    a block of its own, and CommonMark turns the rest into plain brackets)."""
    offsets, start = [], 0
    for line in text.split("\n"):
        opening = line.find("\\[")
        if opening >= 0 and "\\]" in line[opening:] and line.strip() not in ("\\[", "\\]") and not (
            line.strip().startswith("\\[") and line.strip().endswith("\\]")
        ):
            offsets.append(start + opening)
        start += len(line) + 1
    return offsets
_EVENT_ATTRIBUTE = re.compile(r"\son[a-z]+\s*=", re.I)
_JS_URL = re.compile(r"""(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data):""", re.I)
_TAG = re.compile(r"<\s*([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])")  # not autolinks such as <https://…>


def inspect(text: str) -> list[Problem]:
    """What rendering ``text`` loses or refuses, with offsets into ``text``."""
    problems: list[Problem] = []
    # A tag needs a "<", an attribute or URL an "=": most texts have neither and skip the searches.
    for match in _TAG.finditer(text) if "<" in text else ():
        tag = match.group(1).lower()
        if tag not in ALLOWED_TAGS and not _in_code(text, match.start()):
            what = "removed with its content" if tag in DROPPED_WITH_CONTENT else "removed (its text is kept)"
            problems.append(Problem("warning", "QB150", f"raw HTML <{tag}> is not allowed and was {what}", match.start(),
                                    hint="use Markdown instead; scripts, frames and styles never reach a package"))
    for pattern, message in ((_EVENT_ATTRIBUTE, "an event-handler attribute (on...=) was removed"),
                             (_JS_URL, "a javascript:, vbscript: or data: URL was removed")):
        for match in pattern.finditer(text) if "=" in text else ():
            if not _in_code(text, match.start()):
                problems.append(Problem("warning", "QB151", message, match.start() + (match.group(0)[0].isspace()),
                                        hint="remove it: packages carry no scripts; link to https:// pages instead"))
    for offset in _inline_display_math(text) if "\\[" in text else ():
        if not _in_code(text, offset):
            problems.append(Problem("warning", "QB153", "display math \\[…\\] inside a line is not read as math", offset,
                                    hint="put \\[ and \\] on lines of their own, or write $…$ or \\(…\\) inline"))
    # Math needs a "$" or a backslash delimiter: most texts have neither and skip the parse.
    for token in _iter_tokens(_md().parse(text)) if "$" in text or "\\" in text else ():
        if token.type.startswith("math") and token.content.strip():
            try:
                mathml(token.content.strip(), _MATH_TOKENS.get(token.type, ("inline",))[0])
            except Exception as exc:  # noqa: BLE001 - the library raises several types
                offset = max(text.find(token.content.strip()), 0)
                reason = str(exc) or exc.__class__.__name__
                problems.append(Problem("error", "QB152", f"cannot convert the formula '{token.content.strip()}' to MathML ({reason})", offset,
                                        hint="check the TeX; write \\$ for a literal dollar sign"))
    return problems


def math_texts(text: str) -> list[str]:
    """The TeX of each formula of ``text`` (``$…$``, ``\\(…\\)``, display math), in order, as the
    renderer reads them: the one reader that says what is inside a formula."""
    if "$" not in text and "\\" not in text:
        return []
    return [token.content.strip() for token in _iter_tokens(_md().parse(text))
            if token.type.startswith("math") and token.content.strip()]


_MEDIA_TAG = re.compile(r"<(img|audio|video|source)\b([^>]*)>", re.I)
#: An HTML link to a file of the media folder (``<a href="media/data.csv">``).
_MEDIA_LINK = re.compile(r"""<a\b[^>]*?\bhref\s*=\s*(["'])(media/[^"'#?]+)\1""", re.I)
_ATTR_VALUE = r"""\b{}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))"""


#: What every media reference contains: an image's "![" or a media tag's name (checked before
#: parsing, as most texts have none; every text is asked several times per build, hence the cache).
_MEDIA_HINT = re.compile(r"!\[|<\s*(?:img|audio|video|source)|\]\(\s*<?media/|href\s*=\s*[\"']media/", re.I)
#: What each form of ``_MEDIA_HINT`` holds, whatever its letters' case: "![", "<", "](", "=".
_MEDIA_HINT_MARKS = ("![", "<", "](", "=")


def may_hold_math_or_media(text: str) -> bool:
    """Whether ``text`` has a character that a formula needs ("$" or a backslash: what
    :func:`inspect` looks for before parsing math) or what every media reference holds
    (``_MEDIA_HINT``): without any, none of its texts has a formula or refers to a file.
    Asked of a whole source (a build's): each of the hint's four forms holds one of
    ``_MEDIA_HINT_MARKS`` as it is written, found far faster than the pattern, which runs only
    where one is (a source of plain text has none: 14 ms of a 2.4 MB bank's serial time)."""
    if "$" in text or "\\" in text:
        return True
    return any(mark in text for mark in _MEDIA_HINT_MARKS) and _MEDIA_HINT.search(text) is not None


#: A byte of each mark :func:`may_hold_math_or_media` looks for first ("$", a backslash, and a
#: character of each of ``_MEDIA_HINT_MARKS``): one byte each, which ``bytes`` finds with memchr
#: (a two-byte needle such as "![" took 3 ms over a 2.4 MB bank, one byte 0.1 ms).
_MARK_BYTES = (b"$", b"\\", b"[", b"<", b"]", b"=")


def bytes_may_hold_math_or_media(raw: bytes) -> bool:
    """:func:`may_hold_math_or_media` of the UTF-8 bytes ``raw`` decoded (errors replaced), asked
    of a whole source's bytes before it is decoded: every mark it looks for first is ASCII, which
    UTF-8 writes as itself and in no other character's bytes, so bytes without a byte of any
    mark decode to a text without one. Those bytes are searched without decoding them (a 2.4 MB
    bank of plain text: under 1 ms, against 9 ms to decode it and search the text); only bytes
    with one are decoded and asked."""
    if not any(mark in raw for mark in _MARK_BYTES):
        return False
    return may_hold_math_or_media(raw.decode("utf-8", "replace"))


def media_refs(text: str) -> list[tuple[str, int, bool]]:
    """Every image, audio and video reference in ``text``: (reference as rendered, offset, has alt text)."""
    return list(_media_refs(text)) if _MEDIA_HINT.search(text) else []


@lru_cache(maxsize=8192)
def _media_refs(text: str) -> tuple[tuple[str, int, bool], ...]:
    refs: list[tuple[str, int, bool]] = []
    after: dict[str, int] = {}  # where to look for the next occurrence of a reference

    def offset(value: str) -> int:
        found = text.find(value, after.get(value, 0))
        after[value] = found + 1 if found >= 0 else after.get(value, 0)
        return max(found, 0)

    for token in _iter_tokens(_md().parse(text)):
        if token.type == "image":
            src = str(token.attrGet("src") or "")
            refs.append((src, offset(unquote(src)), bool(token.content.strip())))
        elif token.type == "link_open" and str(token.attrGet("href") or "").startswith("media/"):
            # A file of the source's media folder a link offers (a data file, a PDF): the packages
            # carry it as they carry an image (Canvas refuses a link to a file it lacks).
            href = str(token.attrGet("href"))
            refs.append((href, offset(unquote(href)), True))
        elif token.type in ("html_block", "html_inline"):
            for link in _MEDIA_LINK.finditer(token.content):
                refs.append((link.group(2), offset(link.group(2)), True))
            for tag in _MEDIA_TAG.finditer(token.content):
                src_match = re.search(_ATTR_VALUE.format("src"), tag.group(2))
                if src_match:
                    value = next(g for g in src_match.groups() if g is not None)
                    alt = re.search(_ATTR_VALUE.format("alt"), tag.group(2))
                    has_alt = tag.group(1).lower() != "img" or bool(alt and any(g for g in alt.groups()))
                    refs.append((value, offset(value), has_alt))
    return tuple(refs)


def _iter_tokens(tokens):  # type: ignore[no-untyped-def]
    for token in tokens:
        yield token
        if token.children:
            yield from _iter_tokens(token.children)


def _in_code(text: str, offset: int) -> bool:
    """Roughly: is ``offset`` inside a code span or a fenced block (where tags are just text)?"""
    before = text[:offset]
    fences = len(re.findall(r"^\s*(```|~~~)", before, re.M))
    if fences % 2:
        return True
    line = before.rsplit("\n", 1)[-1]
    return line.count("`") % 2 == 1


def plain_text(text: str, width: int = 80) -> str:
    """A one-line plain rendering of Markdown's first paragraph, shortened to ``width`` characters
    (question names and titles). Taken from the sanitised HTML, so removed content stays removed;
    Markdown that renders to no text at all ("-", "***") falls back to the text as written."""
    line = _plain_line(text)
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


#: Every title is asked for by each target, and a quiz's frame asks for all of them before its
#: chunks do: a cache smaller than the bank would evict each title before it is asked again
#: (bench/README.md). A line is short; 131,072 of them are a few tens of megabytes at most.
@lru_cache(maxsize=1 << 17)
def _plain_line(text: str) -> str:
    first = text.strip().split("\n\n", 1)[0]
    if _PLAIN.fullmatch(first):
        line = first
    elif _PLAIN_WITH_SPANS.fullmatch(first):
        line = " ".join(_SPAN.sub(lambda span: span.group(0)[1:-1], first).split())
    else:
        line = " ".join(_fragment(first).text_content().split())
    if not line:
        line = " ".join(re.sub(r"<[^>]*>", " ", text).split())
    return line
