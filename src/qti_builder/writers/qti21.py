"""QTI 2.1 content package: one assessmentItem per question, an assessmentTest, imsmanifest.xml.

Besides standard QTI 2.1, the documents follow what Canvas's importer reads
(shared/docs/lms-import-facts.md): points as ``weight`` on each item reference *and* as
SCORE/normalMaximum and MAXSCORE; feedback identifiers ``general_fb``, ``correct_fb``,
``incorrect_fb`` and ``<choice>_fb``; response processing written out in full (no template URI),
which every player and Canvas understand.
"""

from __future__ import annotations

from typing import ClassVar

from ..content import plain_text
from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import EssayQuestion, Quiz, SingleChoiceQuestion
from ..model.questions import QuestionBase
from .base import Document, Output, Writer

#: Question kind -> the QTI interaction it becomes (also written to the manifest, where Canvas
#: needs ``interactionType`` to import some kinds).
INTERACTION_TYPES: dict[type[QuestionBase], str] = {
    SingleChoiceQuestion: "choiceInteraction",
    EssayQuestion: "extendedTextInteraction",
}

TEST_PATH = "assessmentTest.xml"


class Qti21Writer(Writer):
    name = "qti21"
    suffix = ".qti21.zip"
    templates: ClassVar[dict[type[QuestionBase], str]] = {
        SingleChoiceQuestion: "qti21/item_choice.xml.j2",
        EssayQuestion: "qti21/item_essay.xml.j2",
    }

    def write(self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        output = Output(quiz.id + self.suffix, archive=True)
        items = []
        for question in quiz.iter_questions():
            item = {
                "question": question,
                "identifier": item_identifier(quiz, question),
                "href": f"items/{question.id}.xml",
                "title": question.title or plain_text(question.stem),
                "interaction": INTERACTION_TYPES[type(question)],
            }
            data = self.render(self.templates[type(question)], sink, spans.get(question.id), quiz=quiz, **item)
            if data is not None:
                output.documents.append(Document(item["href"], data, "qti", question.id))
            items.append(item)
        by_id = {item["question"].id: item for item in items}
        test = self.render("qti21/assessment_test.xml.j2", sink, quiz=quiz, items=by_id)
        manifest = self.render("qti21/imsmanifest.xml.j2", sink, quiz=quiz, items=items, test_href=TEST_PATH)
        if test is None or manifest is None or len(sink.errors):
            return None
        output.documents.append(Document(TEST_PATH, test, "qti"))
        output.documents.append(Document("imsmanifest.xml", manifest, "manifest"))
        return output


def item_identifier(quiz: Quiz, question: QuestionBase) -> str:
    """Unique across quizzes, so two packages imported into one course never collide."""
    return f"{quiz.id}.{question.id}"
