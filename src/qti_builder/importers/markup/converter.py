"""The candidates: :class:`Converter`, markdownify spelt the way the dialect is written (escaping
as little as renders the same, or every character that can mean something), and
:func:`raw_block`, the HTML itself as a raw HTML block when no Markdown renders back to it."""

from __future__ import annotations

import html as html_lib
import re

from bs4 import Tag
from markdownify import MarkdownConverter

from .canonical import BLOCK_TAGS
from .escaping import code_span, escape_markdown, renders_as_text
from .tex import BLOCK_MATH, INLINE_MATH

#: Inline elements Markdown has no syntax for: kept as inline HTML around converted content.
INLINE_HTML = {"b", "i", "u", "ins", "sub", "sup", "mark", "small", "big", "abbr", "acronym", "cite", "dfn", "var", "tt", "q",
               "span", "font", "samp"}
#: Elements kept whole as HTML (Markdown has no form for them, nor for their content's layout).
RAW_BLOCKS = {"audio", "video", "figure", "dl", "object", "address"}


class Converter(MarkdownConverter):
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
        if INLINE_MATH in classes:
            return _math_markdown(el.get_text(), display=False)
        if BLOCK_MATH in classes:
            return _math_markdown(el.get_text(), display=True)
        return self._inline_html(el, text)

    def convert_div(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if BLOCK_MATH in (el.get("class") or []):
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


def _keep_inline_html(self: Converter, el: Tag, text: str, parent_tags: set[str]) -> str:
    return self._inline_html(el, text)


for _tag in INLINE_HTML - {"span"}:
    setattr(Converter, f"convert_{_tag}", _keep_inline_html)


def _pipe_table(table: Tag, converter: Converter) -> str | None:
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


def raw_block(fragment: str) -> str:
    """HTML as a Markdown raw HTML block: it must start with a block element and hold no blank line."""
    body = re.sub(r"\n\s*\n", "\n", fragment.strip())
    if not re.match(r"<(?:" + "|".join(sorted(BLOCK_TAGS | RAW_BLOCKS)) + r")\b", body, re.I):
        body = f"<div>{body}</div>"
    return body
