"""Question kinds: one spec per kind, from which every stage's kind tables are derived.

A kind is a model class (:mod:`.model.questions`) and a :class:`KindSpec` in :data:`KINDS`: its
words, how it is scored, how the Markdown dialect writes it, what an LMS loses. What each stage
does with a kind is not here but in one adapter per kind and stage, registered next to that
stage's code (explicitly, under the kind's name):

=======================================  =======================================================
``writers/qti21.py``                     ``Qti21Writer.adapters``: template, context, interaction
``writers/canvas.py``                    ``CanvasWriter.adapters``: template, context
``writers/moodle.py``                    ``MoodleXmlWriter.adapters``: template, context, penalty
``preview.py``                           ``PREVIEW_KINDS``: templates and view
``writers/markdown_source.py``           ``MARKDOWN_FORMS``: how ``qti-builder import`` writes it
``profiles.py``                          ``CANVAS_KIND_CHECKS``: what Canvas loses, by settings
``summary.py``                           ``ANSWER_WORDS``: its answer in a few words (``--verbose``)
``readers/markdown/questions.py``        ``BUILDERS``: the Markdown reader
``importers/qti21/kinds.py``             ``READERS``: the QTI 2.1 importer
=======================================  =======================================================

``tests/test_kinds.py`` fails, naming the registry, until every one of them has the kind. The
README's "Adding a question kind" lists every file a new kind touches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from .model.questions import (EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                              MultipleResponseQuestion, NumericalQuestion, OrderingQuestion, QuestionBase,
                              ShortAnswerQuestion, SingleChoiceQuestion, TextOnlyItem, TrueFalseQuestion)

#: How a kind is scored: ``all_or_nothing`` (right or wrong), ``partial`` (answers, pairs or
#: blanks worth part of the points), ``by_hand`` (a person grades it) or ``none`` (nothing is
#: answered: text shown between questions).
Scoring = Literal["all_or_nothing", "partial", "by_hand", "none"]

#: How the Markdown dialect writes a kind's answer (docs/source-format.md): ``options`` (lettered
#: options ``A) ...`` and ``Answer: B``), ``list`` (a bullet list after the question text, which
#: is the answer itself), ``answers`` (one or more ``Answer:`` lines, each with an optional
#: ``(50%)`` score and its own feedback) or ``one`` (at most one ``Answer:`` block, or none).
MarkdownAnswer = Literal["options", "list", "answers", "one"]


@dataclass(frozen=True)
class KindSpec:
    """What every stage needs to know about one question kind."""

    #: The model class; its ``type`` default is the kind's name.
    model: type[QuestionBase]
    #: How summaries and reports name it ("8 single choice, 2 essay").
    words: str
    scoring: Scoring
    #: The attributes its Markdown question line takes besides the common ones (``{shuffle=false}``).
    markdown_attributes: tuple[str, ...] = ()
    markdown_answer: MarkdownAnswer = "one"
    #: What an LMS loses for every question of the kind, by ``check --profile`` name. Losses that
    #: depend on a question's settings are per-kind checks in :mod:`.profiles`.
    losses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The kind's name: the model's ``type`` (``single_choice``)."""
        name = self.model.model_fields["type"].default
        assert isinstance(name, str)
        return name

    @property
    def answered(self) -> bool:
        """Does a student answer it? A text-only item is shown, not answered: no number in the
        preview, no feedback in any output."""
        return self.scoring != "none"

    @property
    def machine_scored(self) -> bool:
        """Does it have a correct response a machine can check (QTI 2.1 ``solutionAvailable``)?"""
        return self.scoring in ("all_or_nothing", "partial")

    @property
    def outcome_feedback(self) -> tuple[str, ...]:
        """The feedback besides general feedback that scoring can show: correct and incorrect, and
        partially correct where part of the points can be earned; none for kinds graded by a
        person or not at all."""
        return {"all_or_nothing": ("correct", "incorrect"),
                "partial": ("correct", "partially_correct", "incorrect")}.get(self.scoring, ())

    @property
    def shuffled(self) -> bool:
        """Does the author choose whether its options are shuffled (a ``shuffle`` field)?"""
        return "shuffle" in self.model.model_fields


#: Every kind, by name, in the order summaries and the docs list them.
KINDS: dict[str, KindSpec] = {spec.name: spec for spec in (
    KindSpec(SingleChoiceQuestion, "single choice", "all_or_nothing",
             markdown_attributes=("shuffle", "numbering"), markdown_answer="options"),
    KindSpec(MultipleResponseQuestion, "multiple response", "partial",
             markdown_attributes=("shuffle", "negative_marking", "scoring", "incomplete_points", "numbering"), markdown_answer="options"),
    KindSpec(TrueFalseQuestion, "true/false", "all_or_nothing"),
    KindSpec(ShortAnswerQuestion, "short answer", "partial",
             markdown_attributes=("case_sensitive",), markdown_answer="answers"),
    KindSpec(NumericalQuestion, "numerical", "partial",
             markdown_attributes=("unit",), markdown_answer="answers"),
    KindSpec(EssayQuestion, "essay", "by_hand",
             markdown_attributes=("response_format", "expected_lines", "min_words", "max_words", "attachments")),
    KindSpec(FileUploadQuestion, "file upload", "by_hand",
             markdown_attributes=("max_files", "allowed_types")),
    KindSpec(MatchingQuestion, "matching", "partial",
             markdown_attributes=("shuffle",), markdown_answer="list"),
    KindSpec(OrderingQuestion, "ordering", "all_or_nothing", markdown_answer="list",
             losses={"canvas": ("Canvas Classic has no ordering type: it becomes one drop-down per position, each "
                                "listing every item, with credit per position instead of all or nothing",)}),
    KindSpec(FillInBlankQuestion, "fill-in-the-blank", "partial",
             markdown_attributes=("case_sensitive",)),
    KindSpec(CalculatedQuestion, "calculated", "all_or_nothing",
             markdown_attributes=("unit", "sets", "decimals", "figures")),
    KindSpec(CalculatedChoiceQuestion, "calculated choice", "all_or_nothing",
             markdown_attributes=("shuffle", "sets", "decimals"), markdown_answer="options",
             losses={"canvas": ("Canvas has no calculated choice question: each set of values becomes a multiple-choice "
                                "question of its own, in a question group that draws one of them",)}),
    KindSpec(TextOnlyItem, "text-only item", "none"),
)}
