"""One Moodle XML file as its readers see it (:class:`MoodleFile`): its text elements (``format`` +
``<text>``, HTML converted to Markdown) and embedded ``<file>``s, the element lookups every part of
a question uses, and how Moodle writes a category path. Beneath the question readers and the
bank reader (:mod:`.bank`) that walks the file's categories and questions."""

from __future__ import annotations

import base64
import binascii
import html
import re
from pathlib import Path
from urllib.parse import quote, unquote

from lxml import etree

from ...diagnostics import DiagnosticSink, SourceSpan
from ..base import LOST, QuizBuilder, markdown_from_html, sanitise_id
from ..markup import plain_to_markdown


class MoodleFile:
    """The text elements and embedded files of one Moodle XML file, as every reader reads them."""

    def __init__(self, display: str, sink: DiagnosticSink) -> None:
        self.display, self.sink = display, sink
        self.builder = QuizBuilder(display, sink)
        #: Every text read, to guess the quiz's language from.
        self.texts: list[str] = []

    def span(self, element: etree._Element) -> SourceSpan:
        return SourceSpan(self.display, element.sourceline or 1, 1)

    # -- elements ------------------------------------------------------------------------------

    def _child(self, element: etree._Element, tag: str) -> etree._Element | None:
        found = element.findall(tag)
        if len(found) > 1:
            self.builder.warn(LOST, f"<{tag}> appears {len(found)} times in this question; the first is used", self.span(found[1]))
        return found[0] if found else None

    def _value(self, element: etree._Element, tag: str) -> str:
        child = self._child(element, tag)
        return (child.text or "").strip() if child is not None else ""

    def _text(self, element: etree._Element, tag: str) -> str:
        """``<tag><text>…</text></tag>``, or the older ``<tag>…</tag>``."""
        child = self._child(element, tag)
        if child is None:
            return ""
        inner = child.find("text")
        return (inner.text if inner is not None else child.text) or ""

    def _tags(self, element: etree._Element) -> list[str]:
        tags = []
        for tag in element.findall("tags/tag"):
            text = tag.findtext("text") if tag.find("text") is not None else tag.text
            if text and text.strip():
                tags.append(" ".join(text.split()))
        return list(dict.fromkeys(tags))

    def _rich(self, element: etree._Element | None, span: SourceSpan, where: str) -> str:
        """A text element (``format`` + ``<text>`` + ``<file>``s) as Markdown."""
        if element is None:
            return ""
        text_element = element.find("text")
        text = (text_element.text if text_element is not None else element.text) or ""
        text = text.strip()
        text = self._files(element, text, span)
        if not text:
            return ""
        self.texts.append(text)
        fmt = (element.get("format") or "html").strip().lower()
        return self.convert(text, fmt, span, where)

    def convert(self, text: str, fmt: str, span: SourceSpan, where: str) -> str:
        if fmt == "markdown":
            return text
        if fmt == "plain_text" or (fmt == "moodle_auto_format" and not re.search(r"<[A-Za-z/]", text)):
            return plain_to_markdown(html.unescape(text) if fmt == "moodle_auto_format" else text)
        return markdown_from_html(self.builder, text, span, where)

    def _files(self, element: etree._Element, text: str, span: SourceSpan) -> str:
        """Embedded ``<file>``s become media files; ``@@PLUGINFILE@@/name`` references point at them."""
        for file in element.findall("file"):
            name = (file.get("name") or "").strip()
            try:
                data = base64.b64decode((file.text or "").strip(), validate=False)
            except (binascii.Error, ValueError):
                self.builder.warn("QB714", f"embedded file '{name}' is not valid base64; skipped", self.span(file))
                continue
            if not name or not data:
                continue
            ref = self.builder.media.add(name, data)
            folder = (file.get("path") or "/").strip()
            for written in {quote(name), name, quote(folder.strip("/") + "/" + name) if folder.strip("/") else quote(name)}:
                text = text.replace(f"@@PLUGINFILE@@/{written}", ref)
        if "@@PLUGINFILE@@" in text:
            missing = sorted(set(unquote(m) for m in re.findall(r"@@PLUGINFILE@@/([^\"'\s<>)]+)", text)))
            # An image (or recording) the export lacks is a named placeholder, which the build
            # accepts and the author sees; a link stays a link (the build does not follow links).
            text = _SHOWN_PLUGINFILE.sub(lambda m: m.group(1) + html.escape(self.builder.media.placeholder(unquote(m.group(2)))), text)
            shown = " (each image a placeholder, media/missing-<name>.svg, showing where it was)" if "media/missing-" in text else ""
            self.builder.warn("QB714", f"{'files' if len(missing) > 1 else 'file'} {', '.join(missing)} {'are' if len(missing) > 1 else 'is'} referenced but "
                                     f"not embedded in the export{shown}", span,
                              hint="export again with the files, or add them next to the source and fix the references")
        return text

    def _legacy_image(self, element: etree._Element, stem: str) -> str:
        """Moodle 1.9: ``<image>`` names the question's image, ``<image_base64>`` holds it."""
        name = self._value(element, "image")
        encoded = self._value(element, "image_base64")
        if not name and not encoded:
            return stem
        if encoded:
            try:
                ref = self.builder.media.add(Path(name).name or "image.png", base64.b64decode(encoded))
            except (binascii.Error, ValueError):
                self.builder.warn("QB714", "<image_base64> is not valid base64; the image is skipped", self.span(element))
                return stem
        elif re.match(r"https?://", name):
            ref = name
        else:
            self.builder.warn("QB714", f"image '{name}' is referenced but not embedded (<image_base64>); skipped", self.span(element))
            return stem
        return (stem + "\n\n" if stem else "") + f"![]({ref})"


def strip_prefix(idnumber: str | None, quiz_id: str | None) -> str | None:
    """``<quiz id>.<id>`` (how our writer scopes Moodle idnumbers) -> ``<id>``."""
    if idnumber and quiz_id and idnumber.startswith(quiz_id + ".") and len(idnumber) > len(quiz_id) + 1:
        return idnumber[len(quiz_id) + 1:]
    return sanitise_id(idnumber) if idnumber else None


def split_category_path(text: str) -> tuple[str, ...]:
    """A category path as Moodle splits it (question_bank::split_category_path: a lone '/'
    separates categories, '//' is a slash inside a name), without the context (``$course$``) and
    the ``top`` category."""
    parts = [p.strip().replace("//", "/") for p in re.split(r"(?<!/)/(?!/)", text.strip())]
    parts = [p for p in parts if p]
    if parts and re.fullmatch(r"\$\w+\$", parts[0]):
        parts = parts[1:]
    if parts and parts[0] == "top":
        parts = parts[1:]
    return tuple(parts)


def quiz_category(paths: list[tuple[str, ...]], used: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The category that becomes the quiz: the one every category is under, or its parent when
    questions sit in it and it has one below ``top``. So a bank keeps its whole path: questions in
    ``STAT 101/Week 1 sampling`` are a section 'Week 1 sampling' of the quiz 'STAT 101', which a
    build puts back in ``$course$/top/STAT 101/Week 1 sampling``. (Questions in a quiz's own
    category, with no parent to take, are a section named as the quiz, which a build puts back in
    the quiz's category: model.quiz.quiz_own_section.)"""
    root = common_prefix(paths)
    return root[:-1] if len(root) >= 2 and root in used else root


def common_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    paths = [p for p in paths if p]
    if not paths:
        return ()
    prefix = paths[0]
    for path in paths[1:]:
        n = 0
        while n < min(len(prefix), len(path)) and prefix[n] == path[n]:
            n += 1
        prefix = prefix[:n]
    return prefix


#: A file a question's text shows (``src=`` of an image, audio or video; a Markdown image), not
#: one it links to: its reference, and the file's name after ``@@PLUGINFILE@@/``.
_SHOWN_PLUGINFILE = re.compile(r"""(\bsrc\s*=\s*["']?|!\[[^\]]*\]\()@@PLUGINFILE@@/([^"'\s<>)]+)""")
