"""One question being read (:class:`Context`): its element, where it is and the data built so
far, with the lookups a type's reader uses; :data:`Reader`, what every reader is, and
:func:`number`, a number as Moodle writes it."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from typing import Any

from lxml import etree

from ...diagnostics import SourceSpan
from .defaults import is_moodle_default
from .file import MoodleFile

Data = dict[str, Any]


class Context:
    """One question being read: its element, where it is, and the data built so far."""

    def __init__(self, file: MoodleFile, element: etree._Element, span: SourceSpan, name: str, data: Data) -> None:
        self.file, self.element, self.span, self.name, self.data = file, element, span, name, data
        self.lost: list[str] = []
        #: Set by a reader whose question becomes a section of questions (multiple true/false):
        #: the section's title, description and shuffle, and its questions, in place of this one.
        self.section: Data | None = None

    @property
    def kind(self) -> str:
        """The question's Moodle type, as the file names it (diagnostics name it)."""
        return (self.element.get("type") or "").strip().lower()

    def skip(self, code: str, message: str, hint: str | None = None) -> None:
        """Report the question as not imported, counted by its Moodle type (the message names it)."""
        self.file.builder.skip(self.kind or "(none)", code, message, self.span, hint)

    def value(self, tag: str) -> str:
        return self.file._value(self.element, tag)

    def rich(self, tag: str, where: str, element: etree._Element | None = None) -> str:
        return self.file._rich(self.file._child(element if element is not None else self.element, tag), self.span,
                               f"{where} of '{self.name}'")

    def answers(self) -> list[etree._Element]:
        return self.element.findall("answer")

    def answer_text(self, answer: etree._Element, where: str) -> str:
        """An answer's own text: HTML for multichoice, plain for the others (format says)."""
        text = answer.find("text")
        raw = ((text.text if text is not None else answer.text) or "").strip()
        raw = self.file._files(answer, raw, self.span)
        fmt = (answer.get("format") or "moodle_auto_format").strip().lower()
        if fmt == "moodle_auto_format" and not re.search(r"<[A-Za-z/]", raw):
            return html.unescape(raw)
        return self.file.convert(raw, fmt, self.span, f"{where} of '{self.name}'")

    def combined_feedback(self) -> None:
        for tag, key in (("correctfeedback", "correct"), ("partiallycorrectfeedback", "partially_correct"),
                         ("incorrectfeedback", "incorrect")):
            text = self.rich(tag, tag.replace("feedback", " feedback"))
            if text and not is_moodle_default(key, text):  # Moodle's own words, not the author's
                self.data["feedback"][key] = text

    def setting(self, tag: str, neutral: tuple[str, ...], what: str) -> None:
        """A Moodle setting the model has no field for: lost unless it has a neutral value."""
        value = self.value(tag)
        if value and value.lower() not in neutral:
            self.lost.append(f"{what} '{value}'")


Reader = Callable[[Context], "bool | None"]


def number(text: str | None) -> float | None:
    """A number as Moodle writes it (a decimal comma too); None for anything else, infinities and
    NaN included (no setting is either, and they break every count made from them)."""
    try:
        value = float((text or "").strip().replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None
