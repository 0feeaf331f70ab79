"""``mattext`` as Markdown: the escaped HTML Canvas writes (or plain text), with

- the ``<div>`` Canvas wraps every question text in taken off;
- Canvas's equation images (``<img class="equation_image" data-equation-content="TeX">``) turned
  into TeX between delimiters, which the converter writes as ``$...$`` (an image alone in its
  paragraph as a ``$$`` block);
- files of the package the text shows (``src``, ``href``) extracted as media: Canvas's
  ``$IMS-CC-FILEBASE$/...`` (a course export's ``web_resources/``), paths from the zip root (our
  writer, text2qti) and paths relative to the assessment's folder;
- fill-in-the-blank markers ``[blank_id]`` kept through the conversion as ``[[blank_id]]``.
"""

from __future__ import annotations

import html as html_lib
import re
from pathlib import PurePosixPath
from urllib.parse import unquote

from lxml import etree
from lxml import html as lxml_html

from ...diagnostics import SourceSpan
from ..base import LOST, MEDIA, QuizBuilder, markdown_from_html
from ..markup import plain_to_markdown
from ..safety import normalise_member
from .xml import children, local

#: Canvas's token for the course files folder, as its exporter writes it (``$IMS_CC_FILEBASE$``),
#: as the facts file and text2qti write it (``$IMS-CC-FILEBASE$``), and URL-encoded.
FILEBASE = re.compile(r"^(?:\$|%24)IMS[-_]CC[-_]FILEBASE(?:\$|%24)/", re.I)
#: Canvas's links to other course objects (pages, assignments, the course): nothing to extract.
COURSE_LINK = re.compile(r"^(?:\$|%24)(CANVAS_OBJECT_REFERENCE|CANVAS_COURSE_REFERENCE|WIKI_REFERENCE)(?:\$|%24)", re.I)
#: Blackboard's reference to a course file (``csfiles/home_dir/<name>__xid-123_1.png`` in its export);
#: R/exams' exams2blackboard puts the file's folder before the xid (``…bbcswebdav/supplements1/xid-1001001_1``).
BLACKBOARD_FILE = re.compile(r"^@X@EmbeddedFile\.requestUrlStub@X@bbcswebdav/(?:[^/?#\"']+/)*(xid-\d+_\d+)", re.I)
#: Where a course export keeps the course files the token stands for.
WEB_RESOURCES = "web_resources"
IMG = re.compile(r"<img\b[^>]*>", re.I)
EQUATION_ALONE = re.compile(r"<(p|div)>(?:\s|&nbsp;|&#160;|\xa0)*(<img\b[^>]*\bequation_image\b[^>]*>)(?:\s|&nbsp;|&#160;|\xa0)*</\1>", re.I)
#: A start tag of an HTML fragment (its attributes' values may hold '>' only when quoted).
TAG = re.compile(r"<[A-Za-z][^\s/>]*(?:\s+(?:[^\s\"'>=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'>]*))?))*\s*/?>")
#: A tag in a text that does not say whether it is HTML.
HTML_TAG = re.compile(r"<(?:[A-Za-z][A-Za-z0-9]*[\s/>]|/[A-Za-z]|!--)")
#: Respondus's token for the folder of the package's files (``%%LINKPATH%%header-logo.png``).
LINKPATH = re.compile(r"^(?:%%|%25%25)LINKPATH(?:%%|%25%25)/?", re.I)
URL_ATTRIBUTE = re.compile(r"\b(src|href|data|poster)=(\"|')([^\"']*)\2", re.I)
PLACEHOLDER = "\ue000%d\ue001"
#: A position line of our ordering form: ``3. [p3]``.
POSITION = re.compile(r"(\d+)\.(?:\s|\xa0)*\[p\1\]")
#: Elements a position line may sit in, removed when nothing else is left in them.
LINE_BLOCKS = {"p", "div", "li", "ol", "ul", "span"}


class TextReader:
    """The rich text of one assessment: every field goes through :meth:`markdown`; media go to
    ``builder``'s store from the package's ``files``."""

    def __init__(self, builder: QuizBuilder, files: dict[str, bytes]) -> None:
        self.builder, self.files = builder, files
        #: The item being read says its texts are HTML whatever their ``texttype`` (Sakai's
        #: Samigo writes every ``mattext`` as ``text/plain`` and the item's ``TEXT_FORMAT`` HTML).
        self.plain_is_html = False

    # -- materials -----------------------------------------------------------------------------

    def material_html(self, material: etree._Element | None) -> str:
        """A ``material`` as one HTML fragment: HTML ``mattext`` as it is, plain ``mattext`` escaped,
        ``matimage``/``mataudio`` as the elements they are; ``matemtext`` emphasised, ``matbreak``
        a line break; Blackboard's ``mat_extension/mat_formattedtext`` (HTML) and WebCT's
        ``webct:ContentObject`` texts like ``mattext``."""
        if material is None:
            return ""
        parts = []
        for node in children(material):
            name = local(node)
            if name in ("mattext", "mat_formattedtext", "matemtext"):
                text = (node.text or "") + "".join(etree.tostring(c, encoding="unicode") for c in node)
                kind = (node.get("texttype") or node.get("type") or "").lower()
                # No texttype: Canvas's converter reads HTML (QTI's default is text/plain, but
                # Fronter and others write HTML so); text without a tag reads the same either way.
                untyped_html = not kind and name == "mattext" and HTML_TAG.search(text) is not None
                if "html" in kind or untyped_html or (self.plain_is_html and name == "mattext"):
                    parts.append(f"<em>{text}</em>" if name == "matemtext" else text)
                elif text.strip():
                    paragraphs = re.split(r"\n\s*\n", text.strip())
                    escaped = ["<p>" + html_lib.escape(p).replace("\n", "<br>") + "</p>" for p in paragraphs]
                    parts.append(f"<em>{html_lib.escape(text.strip())}</em>" if name == "matemtext" else "".join(escaped))
            elif name == "matbreak":
                parts.append("<br>")
            elif name in ("mat_extension", "flow_mat", "material"):
                parts.append(self.material_html(node))
            elif name == "matimage" and node.get("uri"):
                parts.append(f'<img src="{html_lib.escape(node.get("uri", ""))}" alt="">')
            elif name in ("mataudio", "matvideo") and node.get("uri"):
                tag = "audio" if name == "mataudio" else "video"
                parts.append(f'<{tag} controls src="{html_lib.escape(node.get("uri", ""))}"></{tag}>')
        return "".join(parts)

    def plain(self, material: etree._Element | None, where: str, lost: list[str]) -> str:
        """A ``material`` as plain text (blank answers, drop-down options): HTML loses its markup."""
        if material is None:
            return ""
        fragment = self.material_html(material)
        if re.search(r"<(?!/?(p|div|span|br|em)\b)[A-Za-z/]", fragment):
            lost.append(f"the formatting of {where} (kept as plain text)")
        spaced = re.sub(r"(<br\s*/?>|</p>)", r" \1", fragment)  # a break or paragraph is a space between words
        return " ".join(text_content(spaced).split()) if fragment else ""

    def markdown(self, material: etree._Element | None, where: str, span: SourceSpan, member: str,
                 blanks: list[str] | None = None) -> str:
        return self.html_markdown(self.material_html(material), where, span, member, blanks)

    def plain_markdown(self, text: str) -> str:
        return plain_to_markdown(text)

    # -- HTML ----------------------------------------------------------------------------------

    def html_markdown(self, fragment: str, where: str, span: SourceSpan, member: str, blanks: list[str] | None = None) -> str:
        """An HTML fragment as Markdown; ``blanks`` are the ids whose ``[id]`` markers become ``[[id]]``
        (in the order given: the caller's new ids replace them by position)."""
        fragment = unwrap_div(fragment.strip())
        if not fragment:
            return ""
        fragment = equations_to_tex(fragment)
        fragment = self.media(fragment, member, span)
        if blanks:
            fragment = re.sub(r"\[(" + "|".join(re.escape(b) for b in blanks) + r")\]",
                              lambda m: PLACEHOLDER % blanks.index(m.group(1)), fragment)
        return markdown_from_html(self.builder, fragment, span, where)

    def media(self, fragment: str, member: str, span: SourceSpan) -> str:
        """Files of the package the text shows -> media files of the source."""
        files, builder = self.files, self.builder

        def replace(match: re.Match[str]) -> str:
            attribute, quote_char, raw = match.group(1), match.group(2), html_lib.unescape(match.group(3))
            if COURSE_LINK.match(raw):
                builder.warn(LOST, f"a link to another part of the Canvas course ({unquote(raw)[:80]}) does not work outside it", span,
                             hint="link to a public address instead, or remove the link")
                return match.group(0)
            blackboard = BLACKBOARD_FILE.match(raw)
            if blackboard:
                found = blackboard_file(files, blackboard.group(1))
                if found is None:
                    return missing(attribute, quote_char, blackboard.group(1), "(Blackboard's csfiles) ", match.group(0))
                name = found.rsplit("/", 1)[-1]
                shown = name.split("__xid-", 1)[0] + PurePosixPath(name).suffix if not name.startswith("__") else name.lstrip("_")
                ref = builder.media.add(shown, files[found])
                return f"{attribute}={quote_char}{html_lib.escape(ref)}{quote_char}"
            url = re.split(r"[?#]", raw, maxsplit=1)[0]
            # Respondus writes its files' folder as a token to be replaced on upload.
            url = LINKPATH.sub("", url)
            if url.startswith("/") and not url.startswith("//") and attribute.lower() != "href":
                # A file on the server that exported it (Fronter's /brock/links/link.phtml?…):
                # no package holds it, and the build takes no absolute path.
                return missing(attribute, quote_char, unquote(url), "(a path on the server that exported it) ", match.group(0))
            if not url or (re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) and not FILEBASE.match(url)) or url.startswith(("/", "#")):
                return match.group(0)  # a web address, a data: URL, a page anchor: kept as it is
            candidates = _candidates(unquote(url), member)
            target = next((c for c in candidates if c in files), None) or same_name(files, unquote(url))
            if target is None:
                return missing(attribute, quote_char, unquote(url), "", match.group(0))
            ref = builder.media.add(target.rsplit("/", 1)[-1], files[target])
            return f"{attribute}={quote_char}{html_lib.escape(ref)}{quote_char}"

        def missing(attribute: str, quote_char: str, name: str, what: str, written: str) -> str:
            """A file the text shows that the package lacks: an image (or recording) becomes a named
            placeholder the build accepts; a link stays a link (the build does not follow links)."""
            if attribute.lower() == "href":
                builder.warn(MEDIA, f"media file '{name}' {what}is not in the package; the link is kept as it is", span,
                             hint="put the file in the source's media/ folder and link to it there, or remove the link")
                return written
            if not what and builder.media_folder is not None:
                # A lone QTI file: its files are beside it, read where every importer's are (base.localise_media).
                return f"{attribute}={quote_char}{html_lib.escape(name)}{quote_char}"
            ref = builder.media.placeholder(name)
            builder.warn(MEDIA, f"media file '{name}' {what}is not in the package; the placeholder {ref} shows where it was", span,
                         hint=f"put the file in the source's media/ folder and refer to it instead of {ref}")
            return f"{attribute}={quote_char}{html_lib.escape(ref)}{quote_char}"

        # Only the attributes of real tags: text that shows HTML code (``&lt;img src="a.gif"&gt;``,
        # a quiz about HTML) stays the text it is.
        return TAG.sub(lambda tag: URL_ATTRIBUTE.sub(replace, tag.group(0)), fragment)


def blackboard_file(files: dict[str, bytes], xid: str) -> str | None:
    """The file Blackboard saved for ``xid``: ``csfiles/home_dir/<name>__<xid>.<ext>`` (not its
    ``.xml`` description beside it)."""
    marker = f"__{xid}".lower()
    found = [m for m in files if marker in m.lower().rsplit("/", 1)[-1] and not m.lower().endswith(".xml")]
    return min(found, key=len) if found else None


def same_name(files: dict[str, bytes], url: str) -> str | None:
    """The one file of the package named like ``url``, wherever it is: exporters write a path
    from the folder they exported from (``org0/images/image.png``) and zip the file elsewhere.
    None when no file, or more than one, has that name."""
    name = url.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if not name:
        return None
    found = [m for m in files if m.rsplit("/", 1)[-1].lower() == name]
    return found[0] if len(found) == 1 else None


def _candidates(url: str, member: str) -> list[str]:
    """Where a reference may point in the package, most likely first."""
    filebase = FILEBASE.match(url)
    if filebase:
        rest = url[filebase.end():]
        paths = [f"{WEB_RESOURCES}/{rest}", rest]
    else:
        paths = [url, str(PurePosixPath(member).parent / url), f"{WEB_RESOURCES}/{url}"]
    return [p for p in (normalise_member(p) for p in paths) if p]


def unwrap_div(fragment: str) -> str:
    """Canvas's exporter writes every question text as ``<div>TEXT</div>``: the div says nothing."""
    match = re.fullmatch(r"<div>(.*)</div>", fragment, re.S)
    if not match:
        return fragment
    try:
        root = lxml_html.fragment_fromstring(fragment, create_parent="section")
    except (etree.ParserError, ValueError):
        return fragment
    inner = list(root)
    if len(inner) == 1 and inner[0].tag == "div" and not inner[0].attrib and not (root.text or "").strip() \
            and not (inner[0].tail or "").strip():
        return match.group(1).strip()
    return fragment


def equations_to_tex(fragment: str) -> str:
    """Canvas equation images -> ``\\(TeX\\)``; one alone in a paragraph -> a ``\\[TeX\\]`` block."""
    def block(match: re.Match[str]) -> str:
        tex = _equation_tex(match.group(2))
        return match.group(0) if tex is None else f"<div>\\[{html_lib.escape(tex, quote=False)}\\]</div>"

    def inline(match: re.Match[str]) -> str:
        tex = _equation_tex(match.group(0))
        return match.group(0) if tex is None else f"\\({html_lib.escape(tex, quote=False)}\\)"

    if "equation_image" not in fragment:
        return fragment
    return IMG.sub(inline, EQUATION_ALONE.sub(block, fragment))


def _equation_tex(tag: str) -> str | None:
    try:
        element = lxml_html.fragment_fromstring(tag)
    except (etree.ParserError, ValueError):
        return None
    if "equation_image" not in (element.get("class") or "").split():
        return None
    tex = element.get("data-equation-content") or element.get("title")
    if not tex and (element.get("alt") or "").startswith("LaTeX: "):
        tex = element.get("alt", "")[len("LaTeX: "):]
    if not tex:
        found = re.search(r"/equation_images/([^?#]+)", element.get("src") or "")
        tex = unquote(unquote(found.group(1))) if found else None
    return " ".join(tex.split()) if tex and tex.strip() else None


def text_content(fragment: str) -> str:
    try:
        return str(lxml_html.fragment_fromstring(fragment, create_parent="div").text_content())
    except (etree.ParserError, ValueError):
        return re.sub(r"<[^>]*>", "", fragment)


def restore_blanks(markdown: str, ids: list[str]) -> str:
    """The placeholders :meth:`TextReader.html_markdown` left -> the model's ``[[id]]`` markers."""
    for index, ident in enumerate(ids):
        markdown = markdown.replace(PLACEHOLDER % index, f"[[{ident}]]")
    return markdown



def strip_positions(fragment: str, count: int) -> str | None:
    """Our ordering form's stem without its ``N. [pN]`` lines (and the breaks and paragraphs they
    leave empty); None unless every position 1..count is there once."""
    try:
        root = lxml_html.fragment_fromstring(unwrap_div(fragment.strip()), create_parent="div")
    except (etree.ParserError, ValueError):
        return None
    found: list[int] = []

    def strip(text: str | None) -> str | None:
        if not text:
            return text
        return POSITION.sub(lambda m: found.append(int(m.group(1))) or "", text)  # type: ignore[func-returns-value]

    for element in root.iter():
        if isinstance(element.tag, str):
            element.text = strip(element.text)
            if element is not root:
                element.tail = strip(element.tail)
    if sorted(found) != list(range(1, count + 1)):
        return None
    changed = True
    while changed:
        changed = False
        for element in list(root.iter()):
            if element is root or not isinstance(element.tag, str):
                continue
            parent = element.getparent()
            alone_before = element.getprevious() is None and not (parent.text or "").strip()
            alone_after = element.getnext() is None and not (element.tail or "").strip()
            empty = not (element.text or "").strip() and not len(element)
            if (element.tag == "br" and (alone_before or alone_after)) or (element.tag in LINE_BLOCKS and empty):
                _drop(element)
                changed = True
    parts = [html_lib.escape(root.text, quote=False) if root.text else ""]
    parts += [etree.tostring(c, method="html", encoding="unicode", with_tail=True) for c in root]
    return "".join(parts).strip()


def _drop(element: etree._Element) -> None:
    parent, previous, tail = element.getparent(), element.getprevious(), element.tail or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)
