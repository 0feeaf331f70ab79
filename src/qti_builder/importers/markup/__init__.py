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
"""

from __future__ import annotations

import html as html_lib
import re
from copy import deepcopy
from dataclasses import dataclass
from urllib.parse import unquote

import nh3
from bs4 import Tag
from lxml import etree
from lxml import html as lxml_html
from markdownify import MarkdownConverter

from ... import content
from ..mathml import MATHML_NS, local, mathml_to_tex

#: Block-level elements: whitespace next to them does not show.
BLOCK_TAGS = {"p", "div", "ul", "ol", "li", "pre", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption",
              "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dl", "dt", "dd", "figure", "figcaption",
              "address", "colgroup", "col"}
#: Inline elements Markdown has no syntax for: kept as inline HTML around converted content.
INLINE_HTML = {"b", "i", "u", "ins", "sub", "sup", "mark", "small", "big", "abbr", "acronym", "cite", "dfn", "var", "tt", "q",
               "span", "font", "samp"}
#: Elements kept whole as HTML (Markdown has no form for them, nor for their content's layout).
RAW_BLOCKS = {"audio", "video", "figure", "dl", "object", "address"}

#: Math written as TeX between delimiters, as Moodle's filters and our Moodle output write it.
MATH_DELIMITERS = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)
_INLINE_MATH, _BLOCK_MATH = "qb-math-inline", "qb-math-block"


@dataclass(frozen=True)
class Converted:
    markdown: str
    #: True when the Markdown renders back to the input; False: kept as raw HTML, or close only.
    exact: bool
    #: The HTML elements the sanitiser will remove from the source at build time.
    removed: tuple[str, ...] = ()
    #: True when no Markdown candidate matched and the HTML itself was kept.
    raw: bool = False


def html_to_markdown(fragment: str, inline: bool = False) -> Converted:
    """Convert an HTML fragment (Moodle text, or QTI XHTML already run through :func:`qti_fragment`)."""
    fragment = (fragment or "").strip()
    if not fragment:
        return Converted("", True)
    if "<" not in fragment and "&" not in fragment and not MATH_DELIMITERS.search(fragment) and renders_as_text(fragment):
        return Converted(fragment, True)
    removed = removed_elements(fragment)
    fragment = _clean(fragment)
    root = _parse(fragment)
    _mark_math(root)
    prepared = _serialise_children(root)
    target = canonical(fragment)
    for mode in ("minimal", "full"):
        markdown = _Converter(escape_mode=mode).convert(prepared).strip()  # type: ignore[call-arg]  # markdownify's bundled stub lacks **options
        if canonical(content.render_html(markdown)) == target:
            return Converted(markdown, True, removed)
    raw = _raw_block(fragment)
    return Converted(raw, canonical(content.render_html(raw)) == target, removed, raw=True)


def plain_to_markdown(text: str) -> str:
    """Plain text (Moodle's plain_text format, text2qti titles) as Markdown that shows it as written."""
    paragraphs = re.split(r"\n\s*\n", (text or "").strip())
    fragment = "".join("<p>" + html_lib.escape(p).replace("\n", "<br>") + "</p>" for p in paragraphs if p.strip())
    return html_to_markdown(fragment).markdown


# -- QTI XHTML ------------------------------------------------------------------------------------

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


# -- the converter ------------------------------------------------------------------------------


class _Converter(MarkdownConverter):
    """markdownify, spelt the way the dialect's examples are written: ``#`` headings, ``-``
    bullets, ``*em*``/``**strong**``, fenced code with its language, backslash line breaks (no
    trailing spaces to lose), GFM tables with alignment; escaping as little as renders the same."""

    class Options(MarkdownConverter.DefaultOptions):  # type: ignore[name-defined]  # markdownify's bundled stub lacks DefaultOptions
        heading_style = "atx"
        bullets = "-"
        strong_em_symbol = "*"
        newline_style = "backslash"
        escape_mode = "minimal"
        autolinks = True

    # Text ------------------------------------------------------------------------------------

    def escape(self, text: str, parent_tags: set[str]) -> str:
        if not text:
            return ""
        if self.options["escape_mode"] == "minimal" and renders_as_text(text):  # type: ignore[attr-defined]  # markdownify's bundled stub lacks .options
            return text.replace("[[", "\\[\\[")
        return escape_markdown(text)

    # Inline ----------------------------------------------------------------------------------

    def convert_span(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        classes: str | list[str] = el.get("class") or []
        if _INLINE_MATH in classes:
            return _math_markdown(el.get_text(), display=False)
        if _BLOCK_MATH in classes:
            return _math_markdown(el.get_text(), display=True)
        return self._inline_html(el, text)

    def convert_div(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if _BLOCK_MATH in (el.get("class") or []):
            return "\n\n$$\n" + el.get_text().strip() + "\n$$\n\n"
        if el.attrs:
            return "\n\n" + _outer_html(el) + "\n\n"
        return super().convert_div(el, text, parent_tags)  # type: ignore[misc]  # markdownify's bundled stub lacks convert_div

    def _inline_html(self, el: Tag, text: str) -> str:
        attrs = "".join(f' {k}="{html_lib.escape(" ".join(v) if isinstance(v, list) else v)}"' for k, v in el.attrs.items())
        return f"<{el.name}{attrs}>{text}</{el.name}>"

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        # markdownify moves leading and trailing spaces out of the span and drops all-space
        # spans; CommonMark keeps both, so a plain code span is written out here exactly.
        if "_noformat" in parent_tags or el.find(True) is not None:
            return super().convert_code(el, text, parent_tags)  # type: ignore[misc]  # markdownify's bundled stub lacks convert_code
        return code_span(el.get_text())

    def convert_s(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return f"~~{text}~~" if text.strip() == text and text else self._inline_html(el, text)

    convert_del = convert_strike = convert_s

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        src = _attr(el, "src")
        if set(el.attrs) - {"src", "alt", "title"} or not src:
            return _outer_html(el)
        alt = escape_markdown(_attr(el, "alt"))
        title = _attr(el, "title")
        title_part = ' "%s"' % title.replace('"', '\\"') if title else ""
        return f"![{alt}]({_link_target(src)}{title_part})"

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        href = _attr(el, "href")
        if not href or set(el.attrs) - {"href", "title"}:
            return text if not href else self._inline_html(el, text)
        if text == href and not el.get("title") and re.match(r"^(https?|mailto):", href):
            return f"<{href}>"
        title = _attr(el, "title")
        title_part = ' "%s"' % title.replace('"', '\\"') if title else ""
        return f"[{text}]({_link_target(href)}{title_part})"

    def convert_br(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            return "<br>"
        return "\\\n"

    # Blocks ----------------------------------------------------------------------------------

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        code = el.find("code")
        language = ""
        if code is not None:
            language = next((c[len("language-"):] for c in (code.get("class") or []) if c.startswith("language-")), "")
        body = el.get_text()
        body = body[:-1] if body.endswith("\n") else body
        longest = max((len(run) for run in re.findall(r"^ *(`+)", body, re.M)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"\n\n{fence}{language}\n{body}\n{fence}\n\n"

    def convert_table(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        markdown = _pipe_table(el, self)
        return "\n\n" + (markdown if markdown is not None else _outer_html(el)) + "\n\n"

    def convert_audio(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return _outer_html(el)

    convert_video = convert_object = convert_audio

    def convert_figure(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return "\n\n" + _outer_html(el) + "\n\n"

    convert_dl = convert_address = convert_figure

    def convert_hr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return "\n\n---\n\n"


def _keep_inline_html(self: _Converter, el: Tag, text: str, parent_tags: set[str]) -> str:
    return self._inline_html(el, text)


for _tag in INLINE_HTML - {"span"}:
    setattr(_Converter, f"convert_{_tag}", _keep_inline_html)


def _pipe_table(table: Tag, converter: _Converter) -> str | None:
    """A GFM table when the HTML table has one header row, no merged cells and only inline content."""
    rows = table.find_all("tr")
    if not rows or any(cell.get("colspan") or cell.get("rowspan") for cell in table.find_all(["td", "th"])):
        return None
    if table.find(["p", "div", "ul", "ol", "pre", "table", "blockquote", "caption", "br"]) is not None:
        return None
    header = rows[0].find_all(["td", "th"])
    if not header or not all(cell.name == "th" for cell in header):
        return None
    width = len(header)
    lines = []
    for index, row in enumerate(rows):
        cells = row.find_all(["td", "th"])
        if len(cells) != width:
            return None
        texts = ["".join(converter.process_element(child, parent_tags={"_inline", "td"})  # type: ignore[attr-defined]  # markdownify's bundled stub lacks process_element
                         for child in cell.children)
                 .strip().replace("|", "\\|").replace("\n", " ") for cell in cells]
        lines.append("| " + " | ".join(texts) + " |")
        if index == 0:
            lines.append("|" + "|".join(_alignment(cell) for cell in cells) + "|")
    return "\n".join(lines)


def _alignment(cell: Tag) -> str:
    match = re.search(r"text-align:\s*(left|right|center)", _attr(cell, "style")) or re.match(r"(left|right|center)", _attr(cell, "align"))
    return {"left": ":--", "right": "--:", "center": ":-:"}.get(match.group(1) if match else "", "---")


def _attr(el: Tag, name: str) -> str:
    """A single-valued attribute, "" when absent. bs4 splits only class, rel and the like into
    lists; were one of those asked for, its values are joined as the HTML has them."""
    value = el.get(name)
    if value is None:
        return ""
    return value if isinstance(value, str) else " ".join(value)


def _outer_html(el: Tag) -> str:
    """An element kept as HTML, on one line (a blank line would end a raw HTML block); boolean
    attributes written bare, as people write them (``<audio controls>``)."""
    markup = re.sub(r' (controls|autoplay|loop|muted|playsinline)=""', r" \1", str(el))
    return re.sub(r"\n\s*\n", "\n", markup)


def _link_target(url: str) -> str:
    return f"<{url}>" if re.search(r"[\s()<>]", url) else url


def _math_markdown(tex: str, display: bool) -> str:
    tex = " ".join(tex.split())
    if display:
        return f"$${tex}$$"
    # dollarmath wants no space inside the dollars; the bracket form takes anything.
    return f"${tex}$" if tex and not tex[0].isspace() and not tex[-1].isspace() and "$" not in tex else f"\\({tex}\\)"


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


def renders_as_text(text: str) -> bool:
    """Does ``text`` render as exactly its characters (no emphasis, code, math, HTML, lists...)?"""
    expected = "<p>" + html_lib.escape(" ".join(text.split()), quote=False) + "</p>"
    return canonical(content.render_html(text)) == canonical(expected)


def _raw_block(fragment: str) -> str:
    """HTML as a Markdown raw HTML block: it must start with a block element and hold no blank line."""
    body = re.sub(r"\n\s*\n", "\n", fragment.strip())
    if not re.match(r"<(?:" + "|".join(sorted(BLOCK_TAGS | RAW_BLOCKS)) + r")\b", body, re.I):
        body = f"<div>{body}</div>"
    return body


# -- comparing renderings -----------------------------------------------------------------------


def _parse(fragment: str) -> lxml_html.HtmlElement:
    return lxml_html.fragment_fromstring(fragment, create_parent="div")


def _clean(fragment: str) -> str:
    """The HTML as the build would sanitise it (content.py's allow-list)."""
    return nh3.clean(fragment, tags=content.ALLOWED_TAGS, clean_content_tags=content.DROPPED_WITH_CONTENT,
                     attributes=content.ALLOWED_ATTRIBUTES, url_schemes=content.URL_SCHEMES, link_rel=None,
                     strip_comments=True)


def removed_elements(fragment: str) -> tuple[str, ...]:
    """Elements (and unsafe attributes) of ``fragment`` that the build's sanitiser removes."""
    found = []
    try:
        root = _parse(fragment)
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


def _mark_math(root: etree._Element) -> None:
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
                and div[0].tag == "span" and div[0].get("class") == _BLOCK_MATH:
            div.set("class", _BLOCK_MATH)
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
            span.set("class", _BLOCK_MATH if piece[1] else _INLINE_MATH)
            span.text = piece[0]
            parent.insert(position, span)
            position += 1
            previous = span
        elif piece:
            if previous is None:
                parent.text = (parent.text or "") + str(piece)
            else:
                previous.tail = (previous.tail or "") + str(piece)


def _serialise_children(root: etree._Element) -> str:
    parts = [html_lib.escape(root.text, quote=False) if root.text else ""]
    parts += [etree.tostring(child, method="html", encoding="unicode", with_tail=True) for child in root]
    return "".join(parts)


def canonical(fragment: str) -> str:
    """A rendering in a form where equal means "shows the same": whitespace collapsed as HTML
    does (except in ``<pre>``), attributes sorted with URLs unquoted and table alignment in one
    spelling, math by its TeX whatever the delimiters, a lone paragraph unwrapped."""
    try:
        root = _parse(fragment or "")
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
