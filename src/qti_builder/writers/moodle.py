"""Moodle XML: one ``<quiz>`` file per quiz, a category per section.

Follows what Moodle 4.5's importer does (shared/docs/lms-import-facts.md): HTML text in CDATA
(outside CDATA Moodle drops whitespace next to entities), every question named, fractions from
Moodle's grade options, a category question before each section's questions.
"""

from __future__ import annotations

from typing import ClassVar

from ..content import plain_text
from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import EssayQuestion, Quiz, SingleChoiceQuestion
from ..model.questions import QuestionBase
from .base import Document, Output, Writer

#: Model response formats -> Moodle ``responseformat`` values.
ESSAY_FORMATS = {"editor": "editor", "plain": "plain", "monospaced": "monospaced"}


class MoodleXmlWriter(Writer):
    name = "moodle"
    suffix = ".moodle.xml"
    templates: ClassVar[dict[type[QuestionBase], str]] = {
        SingleChoiceQuestion: "moodle/question_multichoice.xml.j2",
        EssayQuestion: "moodle/question_essay.xml.j2",
    }

    def write(self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        categories = []
        for ancestors, section in quiz.iter_sections():
            path = [quiz.title, *(a.title for a in ancestors), section.title]
            categories.append({
                "section": section,
                "path": "$course$/top/" + "/".join(category_name(p) for p in path),
                "questions": [
                    {
                        "question": q,
                        "template": self.templates[type(q)],
                        "name": q.title or plain_text(q.stem, 100),
                        "idnumber": f"{quiz.id}.{q.id}",
                    }
                    for q in section.questions
                ],
            })
        data = self.render(
            "moodle/quiz.xml.j2", sink, quiz=quiz, categories=categories,
            quiz_category="$course$/top/" + category_name(quiz.title), essay_formats=ESSAY_FORMATS,
        )
        if data is None:
            return None
        return Output(quiz.id + self.suffix, [Document(quiz.id + self.suffix, data, "moodle")])


def category_name(title: str) -> str:
    """Moodle splits category paths on '/', and reads '//' as a literal slash."""
    return " ".join(title.split()).replace("/", "//")
