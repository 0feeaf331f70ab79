"""Canvas package: QTI 1.2 in the flavour Canvas exports and imports natively, with its item metadata.

Canvas Classic Quizzes turns a package like this into its own question types one for one
(docs/lms-behaviour.md, "Canvas Classic Quizzes importing the Canvas package"), and New Quizzes' parser,
Instructure's ``qti`` gem, reads it whole (docs/lms-behaviour.md, "Canvas New Quizzes"). It is written as Canvas's
exporter (canvas-lms ``lib/cc/qti/qti_items.rb``, ``qti_generator.rb``) writes it wherever
Classic takes both forms. The zip holds:

==================================  ===========================================================
``imsmanifest.xml``                 IMS CP 1.1: the assessment, its settings file, the media
``<quiz-id>/<quiz-id>.xml``         ``<questestinterop>`` in the QTI 1.2 namespace, without a
                                    DOCTYPE, valid against the QTI 1.2.1 DTD but for two of
                                    Canvas's extensions (:mod:`..canvas_rules`): one
                                    ``<assessment>``, one item per question, a ``<section>`` per
                                    question group
``<quiz-id>/assessment_meta.xml``   the quiz settings (the folder must be the assessment ident)
``media/<name>``                    images and audio, referenced from the zip root
==================================  ===========================================================

What each kind becomes (``question_type`` metadata: Canvas reads nothing else to pick a type):

=================  ==========================================================================
single_choice      multiple_choice_question
multiple_response  multiple_answers_question (Canvas scores partial credit its own way)
true_false         true_false_question when the quiz is in English; otherwise a
                   multiple_choice_question with the quiz language's labels (Canvas recognises
                   true/false only with the answer texts "True"/"False")
short_answer       short_answer_question with every full-credit answer
numerical          numerical_question, each full-credit answer as exact ± margin (the
                   margin also stated on the value, absolute or percent)
essay              essay_question, the model answer as the example solution (Classic) and
                   the grading notes (New Quizzes)
file_upload        file_upload_question, the same
matching           matching_question: prompts, every answer and the distractors
ordering           multiple_dropdowns_question: one drop-down per position, each listing every
                   item (Canvas Classic has no ordering type)
fill_in_blank      fill_in_multiple_blanks_question (text blanks, or mixed); drop-downs only:
                   multiple_dropdowns_question
calculated         calculated_question: the formula in Canvas's syntax, the variables and every
                   set with its answer (canvas_calculated)
calculated_choice  a question group drawing one of N multiple_choice_questions, one per set
                   (Canvas has no formulas in options)
text_only          text_only_question
=================  ==========================================================================

A section that draws ``select`` questions becomes a question group (pick count, points per
question); Canvas flattens the other sections, which are written all the same (the package keeps
the quiz's structure), and a section's description becomes a text-only item before its
questions. What Canvas cannot hold is listed by ``check --profile canvas``
(:mod:`..profiles`), question by question; the writer never silently turns it into something
else, it leaves it out.

Answer identifiers are numbers, unique within an item: Canvas reads identifiers containing
"correct", "wrong" or "general_" as question-level feedback, finds a matching answer by the
first digits of its identifier, and keeps the comments of blanks only with numeric identifiers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from ..content import plain_text, render_plain
from ..diagnostics import DiagnosticSink, SourceSpan
from ..i18n import true_false_labels
from ..kinds import KINDS, KindTable, resolve
from ..media import MediaSet
from ..model import Quiz, QuizSettings, Section
from ..model.questions import (BLANK_MARKER, EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                               MultipleResponseQuestion, NumericAnswer, NumericalQuestion, OrderingQuestion, ShortAnswerQuestion, SingleChoiceQuestion, TrueFalseQuestion)
from ..model.kinds.text_only import TextOnlyItem
from ..model.union import Question
from ..templating import number
from .base import Document, KindAdapter, Output, Writer, text_shown
from .canvas_answers import FIRST_ANSWER
from .qti21 import _literal, item_identifier, item_title, scrambled

#: The settings file's name inside the assessment's folder, and the folder of the media.
META_FILE = "assessment_meta.xml"
MEDIA_DIR = "media/"
#: Right-hand options of a matching question count from here, apart from its prompts.
FIRST_MATCH = 2001
#: Blank ids Canvas accepts in ``[blank]`` markers.
BLANK_ID = re.compile(r"^[A-Za-z0-9_-]+$")

#: Model quiz types -> Canvas's ``quiz_type``.
QUIZ_TYPES = {"graded": "assignment", "practice": "practice_quiz"}
#: Model grading methods -> Canvas's ``scoring_policy`` (the values Canvas's own export writes and
#: its import takes). Canvas has no policy that keeps the first attempt.
SCORING_POLICIES = {"highest": "keep_highest", "average": "keep_average", "last": "keep_latest"}


class CanvasWriter(Writer):
    name = "canvas"
    templates_folder = "canvas"
    suffix = ".canvas.zip"
    #: Every quiz setting has its place in the settings file (assessment_meta.xml), but some values.
    carries_settings = frozenset(QuizSettings.model_fields)

    @classmethod
    def settings_not_carried(cls, quiz: Quiz) -> list[str]:
        return super().settings_not_carried(quiz) + canvas_lost_settings(quiz.settings)
    #: Registered at the end of this module.
    adapters: ClassVar[Mapping[str, KindAdapter]]

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        folder = quiz.id
        output = Output(quiz.id + self.suffix, archive=True)
        # The frame alone (a big quiz's, its questions rendered in chunks) needs of each item only
        # its id and points: not the whole context of 10,000 questions (their titles, answers...).
        entries = list(assessment_entries(quiz, question_item if self.renders_questions else frame_item))
        order = tuple(entry["id"] for entry in walk_items(entries))
        ok = True
        for entry in walk_items(entries) if self.renders_questions else ():
            data = self.render(self.adapters[entry["question"].type].template, sink, spans.get(entry["id"]), quiz=quiz, media=media,
                               media_prefix=MEDIA_DIR, **entry)
            ok = ok and data is not None
            if data:
                output.documents.append(Document(f"#{entry['id']}", data, "qti12-item", entry["id"]))
        number_of = {ident: n for n, ident in enumerate(order, 1)}
        assessment = self.render("canvas/assessment.xml.j2", sink, quiz=quiz, entries=entries, number_of=number_of,
                                 settings=quiz.settings)
        meta = self.render("canvas/assessment_meta.xml.j2", sink, quiz=quiz, media=media, media_prefix=MEDIA_DIR,
                           settings=canvas_settings(quiz), points=number(total_points(entries)))
        manifest = self.render("canvas/imsmanifest.xml.j2", sink, quiz=quiz, folder=folder, meta_file=META_FILE,
                               media_files=[MEDIA_DIR + f.name for f in media.files])
        if not ok or assessment is None or meta is None or manifest is None or sink.errors:
            return None
        if assessment:
            if not self.places_every_question("canvas/assessment.xml.j2", assessment, len(order), sink):
                return None
            output.documents.append(Document(f"{folder}/{folder}.xml", assessment, "qti12", question_order=order))
            output.documents.append(Document(f"{folder}/{META_FILE}", meta, "canvas-meta"))
            output.documents.append(Document("imsmanifest.xml", manifest, "content-package"))
            output.documents.extend(Document(MEDIA_DIR + f.name, f.data, "") for f in media.files)
        return output


# -- the assessment's structure -------------------------------------------------------------------


def assessment_entries(quiz: Quiz, item: Callable[[Quiz, Question], dict[str, Any]]) -> list[dict[str, Any]]:
    """The root section's content in order: items and sections, each section a dict with its own
    ``children``. Canvas flattens a section that draws nothing and makes one that draws
    (``select``) a question group; the sections are kept all the same, so the package holds the
    quiz's structure for whoever reads it back. ``item`` makes an item's entry
    (:func:`question_item`, or :func:`frame_item` for the frame alone)."""
    return [entry for section in quiz.sections for entry in section_entries(quiz, section, item)]


def section_entries(quiz: Quiz, section: Section, item: Callable[[Quiz, Question], dict[str, Any]]) -> list[dict[str, Any]]:
    """A section, and around a question group what Canvas cannot hold inside one: the section's
    description before it (in the group it would be drawn at random) and its nested sections
    after it (a group holds questions only; profiles.py warns)."""
    items = [item(quiz, q) for q in section.questions]
    description = [description_item(quiz, section, item)] if section.description else []
    nested = [entry for child in section.sections for entry in section_entries(quiz, child, item)]
    entry: dict[str, Any] = {"section": True, "id": section.id, "title": section.title, "select": None}
    if section.select and items:
        # Canvas gives every question of a group the same points: the first question's
        # (profiles.py warns about the others).
        points = number(section.group_points() or 0)
        entry.update(select=section.select, points=points, children=[{**item, "points": points} for item in items])
        return description + [entry] + nested
    entry["children"] = description + items + nested
    return [entry]


def walk_items(entries: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for entry in entries:
        yield from walk_items(entry["children"]) if entry.get("section") else [entry]


def total_points(entries: list[dict[str, Any]]) -> float:
    """What the quiz is worth in Canvas: every item, and for a group the questions it draws at its
    points per question."""
    total = 0.0
    for entry in entries:
        if entry.get("section") and entry["select"]:
            total += min(entry["select"], len(entry["children"])) * float(entry["points"])
        elif entry.get("section"):
            total += total_points(entry["children"])
        else:
            total += float(entry["points"])
    return total


def description_item(quiz: Quiz, section: Section, item: Callable[[Quiz, Question], dict[str, Any]]) -> dict[str, Any]:
    """A section's description, shown where the section starts (Canvas has no sections)."""
    text_only = TextOnlyItem(id=section.id, title=section.title, stem=section.description or "")
    return {**item(quiz, text_only), "title": section.title}


def frame_item(quiz: Quiz, question: Question) -> dict[str, Any]:
    """What the assessment's frame and the settings file need of an item: its id and points."""
    return {"section": False, "id": question.id, "question": question, "points": item_points(question)}


def item_points(question: Question) -> str:
    """What an item is worth in Canvas: nothing for an item nobody answers (a text-only item)."""
    return number(question.points) if KINDS[question.type].answered else "0"


def question_item(quiz: Quiz, question: Question) -> dict[str, Any]:
    """Everything an item template needs: ``ident``, ``title``, ``question_type``, ``points``,
    ``answers`` (ident, text, feedback), ``feedbacks`` (ident -> text) and the kind's own keys."""
    entry: dict[str, Any] = {
        "section": False,
        "id": question.id,
        "question": question,
        "ident": item_identifier(quiz, question),
        "title": item_title(question),
        "points": item_points(question),
        "stem": question.stem,
        "answers": [],
        "answer_feedbacks": [],
    }
    entry.update(CanvasWriter.adapters[question.type].context(quiz, question))
    entry["stem"] = text_shown(question, entry["stem"])
    feedback = entry["question"].feedback  # a kind's context may give the texts it shows (calculated)
    answered = KINDS[question.type].answered  # nothing is answered, so no feedback is shown
    entry["general_fb"] = feedback.general if answered else None
    entry["correct_fb"] = feedback.correct if answered else None
    entry["incorrect_fb"] = feedback.incorrect if answered else None
    entry["answer_ids"] = ",".join(a["ident"] for a in entry["answers"])
    return entry


def _answers(texts: list[Any], first: int = FIRST_ANSWER, feedback: list[Any] | None = None) -> list[dict[str, Any]]:
    feedback = feedback or [None] * len(texts)
    return [{"ident": str(first + n), "text": text, "feedback": fb} for n, (text, fb) in enumerate(zip(texts, feedback))]


def _choice(quiz: Quiz, q: SingleChoiceQuestion | MultipleResponseQuestion) -> dict[str, Any]:
    answers = _answers([c.text for c in q.choices], feedback=[c.feedback for c in q.choices])
    for answer, choice in zip(answers, q.choices):
        answer["correct"] = choice.correct
    single = isinstance(q, SingleChoiceQuestion)
    return {"question_type": "multiple_choice_question" if single else "multiple_answers_question",
            "cardinality": "Single" if single else "Multiple", "answers": answers}


def true_false_is_native(language: str, labels: list[str] | None = None) -> bool:
    """Canvas makes a true/false question only of the answer texts True and False."""
    return true_false_labels(language, labels) == ("True", "False")


def _true_false(quiz: Quiz, q: TrueFalseQuestion) -> dict[str, Any]:
    answers = _answers(list(true_false_labels(quiz.language, q.labels)), feedback=[q.true_feedback, q.false_feedback])
    answers[0]["correct"], answers[1]["correct"] = q.answer, not q.answer
    native = true_false_is_native(quiz.language, q.labels)
    return {"question_type": "true_false_question" if native else "multiple_choice_question",
            "cardinality": "Single", "answers": answers}


def _short_answer(quiz: Quiz, q: ShortAnswerQuestion) -> dict[str, Any]:
    """Canvas accepts every answer at full credit and has no wildcards: only full-credit answers are
    written, as a student would type them (profiles.py lists what is left out)."""
    full = [a for a in q.answers if a.score == 100]
    texts = list(dict.fromkeys(_literal(a.text) for a in full))
    feedback = [next((a.feedback for a in full if _literal(a.text) == t and a.feedback), None) for t in texts]
    return {"question_type": "short_answer_question", "answers": _answers(texts, feedback=feedback)}


def _numerical(quiz: Quiz, q: NumericalQuestion) -> dict[str, Any]:
    answers = []
    for n, a in enumerate([a for a in q.answers if a.score == 100]):
        answers.append({"ident": str(FIRST_ANSWER + n), "feedback": a.feedback, **numeric_answer(a)})
    # Canvas has no unit field: the unit follows the question text, in brackets.
    stem = q.stem + (f"\n\n({q.unit})" if q.unit else "")
    return {"question_type": "numerical_question", "answers": answers, "stem": stem}


def numeric_answer(answer: NumericAnswer) -> dict[str, str]:
    """An answer as Canvas's exporter writes it: the value (``text``), its bounds (``low``,
    ``high``: the value itself for an exact answer) and, for one with a tolerance, the margin as
    written (``margin``, ``margin_type`` absolute or percent). The bounds are worked out in decimal
    from the numbers as written, so they agree with the margin digit for digit: Classic takes the
    margin from the upper bound, New Quizzes from the ``margin`` attribute."""
    text = decimal(answer.value)
    value, margin = Decimal(text), Decimal(decimal(answer.tolerance))
    delta = abs(value) * margin / 100 if answer.tolerance_mode == "percent" else margin
    low, high = (_decimal_text(value - delta), _decimal_text(value + delta)) if delta else (text, text)
    return {"text": text, "low": low, "high": high,
            "margin": decimal(answer.tolerance) if answer.tolerance else "", "margin_type": answer.tolerance_mode}


def decimal(value: float) -> str:
    """A number as Canvas parses it, without float noise: twelve significant digits, an exponent
    for the very large and very small (1e-12 stays 1e-12, not 0)."""
    return f"{value:.12g}"


def _decimal_text(number: Decimal) -> str:
    """An exact decimal as Canvas and New Quizzes parse it: 3.45, not 3.4500 or 3.45E+0; an
    exponent only for the very large and very small."""
    number = number.normalize()
    if not number:
        return "0"
    return format(number, "f" if -7 <= number.adjusted() < 16 else "e")


def _essay(quiz: Quiz, q: EssayQuestion | FileUploadQuestion) -> dict[str, Any]:
    """The model answer goes to graders twice: as the ``solution`` feedback Classic files as the
    example solution, and as the ``grading_notes`` New Quizzes reads, in plain text (the field is
    passed on as written; the gem's own example is plain text)."""
    kind = "essay_question" if isinstance(q, EssayQuestion) else "file_upload_question"
    return {"question_type": kind, "model_answer": q.model_answer,
            "grading_notes": render_plain(q.model_answer) if q.model_answer else None,
            "response": isinstance(q, EssayQuestion)}


def _matching(quiz: Quiz, q: MatchingQuestion) -> dict[str, Any]:
    texts = list(dict.fromkeys([plain_text(p.answer, 10_000) for p in q.pairs]
                               + [plain_text(d, 10_000) for d in q.distractors]))
    # Listed in a fixed scrambled order, so their numbers do not give the pairs away.
    matches = [{"ident": str(FIRST_MATCH + n), "text": text} for n, text in enumerate(scrambled(texts, q.id))]
    ident_of = {m["text"]: m["ident"] for m in matches}
    prompts = _answers([p.prompt for p in q.pairs])
    for prompt, pair in zip(prompts, q.pairs):
        prompt["match"] = ident_of[plain_text(pair.answer, 10_000)]
    return {"question_type": "matching_question", "answers": prompts, "matches": matches,
            "share": number(100 / len(prompts), 4)}


def _blanks(blanks: list[tuple[str, list[str], list[str]]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Blanks as Canvas wants them: (blank id, accepted answers, wrong options) -> the blanks with
    their numbered options, and every answer of the item."""
    out, answers, ident = [], [], FIRST_ANSWER
    for blank_id, right, wrong in blanks:
        options = []
        for text in list(dict.fromkeys(right + wrong)):
            options.append({"ident": str(ident), "text": text, "correct": text in right, "feedback": None})
            ident += 1
        out.append({"id": blank_id, "options": options})
        answers += options
    return out, answers


def canvas_blank_ids(ids: list[str]) -> dict[str, str]:
    """Model blank ids -> ids Canvas accepts in ``[blank]`` markers (letters, digits, ``_``, ``-``)."""
    mapping: dict[str, str] = {}
    for ident in ids:
        candidate = ident if BLANK_ID.match(ident) else re.sub(r"[^A-Za-z0-9_-]", "_", ident)
        while candidate in mapping.values():
            candidate += "_"
        mapping[ident] = candidate
    return mapping


def _fill_in_blank(quiz: Quiz, q: FillInBlankQuestion) -> dict[str, Any]:
    """Text blanks (or mixed): every accepted answer per blank, a drop-down's options left out
    (listing them in a text blank would show the answer); drop-downs only: every option."""
    dropdowns = all(b.kind == "dropdown" for b in q.blanks)
    ids = canvas_blank_ids([b.id for b in q.blanks])
    by_id = {b.id: b for b in q.blanks}
    order = [by_id[i] for i in BLANK_MARKER.findall(q.stem)]
    blanks, answers = _blanks([(ids[b.id], list(b.answers), list(b.options) if dropdowns else []) for b in order])
    stem = BLANK_MARKER.sub(lambda m: f"[{ids[m.group(1)]}]", q.stem)
    return {"question_type": "multiple_dropdowns_question" if dropdowns else "fill_in_multiple_blanks_question",
            "stem": stem, "blanks": blanks, "answers": answers, "share": number(100 / len(blanks), 4)}


def _ordering(quiz: Quiz, q: OrderingQuestion) -> dict[str, Any]:
    """One drop-down per position, each listing every item in one fixed scrambled order."""
    texts = [plain_text(item, 10_000) for item in q.items]
    shown = scrambled(texts, q.id)
    blanks, answers = _blanks([(f"p{n}", [text], [t for t in shown if t != text]) for n, text in enumerate(texts, 1)])
    for blank in blanks:  # the same order in every drop-down
        blank["options"].sort(key=lambda o: shown.index(o["text"]))
    lines = "\n".join(f"{n}. [p{n}]" for n in range(1, len(texts) + 1))
    # A blank line and an escaped list: "1. [p1]" must stay a paragraph of text, not a list item
    # whose number Markdown renumbers or drops.
    stem = q.stem + "\n\n" + lines.replace(". [", "\\. [").replace("\n", "  \n")
    return {"question_type": "multiple_dropdowns_question", "stem": stem, "blanks": blanks, "answers": answers,
            "share": number(100 / len(blanks), 4)}


def _text_only(quiz: Quiz, q: TextOnlyItem) -> dict[str, Any]:
    return {"question_type": "text_only_question"}


# -- settings --------------------------------------------------------------------------------------


def shuffles_answers(quiz: Quiz) -> bool:
    """Canvas shuffles the answers of every question or of none: the quiz's setting, else whether
    the quiz's choice and matching questions ask for shuffled options (most do, by default)."""
    if quiz.settings.shuffle_answers is not None:
        return quiz.settings.shuffle_answers
    return any(getattr(q, "shuffle", False) for q in quiz.iter_questions() if KINDS[q.type].shuffled)


def canvas_lost_settings(settings: QuizSettings) -> list[str]:
    """The settings whose value Canvas has no form for: grading by the first attempt, and locking
    questions on a quiz that shows several at once (Canvas locks only one question at a time)."""
    lost = []
    if settings.lock_questions_after_answering and settings.one_question_at_a_time is False:
        lost.append("lock_questions_after_answering")
    if settings.grading_method is not None and settings.grading_method not in SCORING_POLICIES:
        lost.append("grading_method")
    return lost


def canvas_settings(quiz: Quiz) -> dict[str, str]:
    """assessment_meta.xml's settings, as Canvas spells them. ``shuffle_answers`` is always
    written (derived from the questions when unset: Canvas has one switch for the whole quiz);
    every other setting the source leaves unset is left out, so Canvas's default applies."""
    s = quiz.settings
    values: dict[str, Any] = {
        "shuffle_answers": shuffles_answers(quiz),
        "quiz_type": QUIZ_TYPES[s.quiz_type] if s.quiz_type else None,
        "show_correct_answers": s.show_correct_answers,
        "time_limit": s.time_limit,
        "allowed_attempts": -1 if s.allowed_attempts == "unlimited" else s.allowed_attempts,
        # Canvas's "lock questions after answering" is a choice of "one question at a time" (its quiz
        # model clears cant_go_back when one_question_at_a_time is false): a lock the source asks for
        # shows one question at a time unless the source says otherwise (then the lock is lost).
        "one_question_at_a_time": True if s.lock_questions_after_answering and s.one_question_at_a_time is None
                                  else s.one_question_at_a_time,
        "scoring_policy": SCORING_POLICIES.get(s.grading_method or ""),
        "cant_go_back": None if "lock_questions_after_answering" in canvas_lost_settings(s) else s.lock_questions_after_answering,
    }
    return {key: str(value).lower() if isinstance(value, bool) else str(value)
            for key, value in values.items() if value is not None}


#: Each kind's template and context function, from its spec (kinds.py KindSpec.canvas).
CanvasWriter.adapters = KindTable("canvas", "writers/canvas.py CanvasWriter.adapters",
                                  lambda part: KindAdapter(part.template, resolve(part.context)))
