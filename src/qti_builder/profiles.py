"""What a particular LMS loses or changes on import, per question (``check --profile canvas``).

For Canvas this is what the Canvas package (:mod:`.writers.canvas`) cannot carry: Canvas Classic
Quizzes has fewer settings than the model, so the package leaves some out or states them the
nearest way Canvas can hold. The facts come from docs/lms-behaviour.md and Canvas's
exporter (canvas-lms ``lib/cc/qti/qti_items.rb``). Facts are data where they can be: what every
question of a kind loses is in the kind's spec (``losses`` in :mod:`.kinds`); what depends on a
question's settings is one check per kind (CANVAS_KIND_CHECKS), plus the checks of any question
and its section.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .diagnostics import DiagnosticSink, SourceSpan
from .i18n import true_false_labels

# The checks import the model and the Canvas writer when they run: the command line lists the
# profiles (PROFILES) for every --help without importing them.
if TYPE_CHECKING:
    from .model import Quiz, Section
    from .model.questions import (EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                                  MultipleResponseQuestion, NumericalQuestion, OrderingQuestion, ShortAnswerQuestion, TrueFalseQuestion)

_MARKUP = re.compile(r"<")


def _plain_only(texts: list[str]) -> bool:
    """Do these texts survive as plain text (drop-down options and matching answers are)?"""
    from .content import render_canvas_inline

    return not any(_MARKUP.search(render_canvas_inline(t)) for t in texts)


def _canvas_checks(quiz: Quiz, section: Section, q: Any) -> Iterator[str]:
    """What Canvas loses of any question, by its settings and its section; its kind's own checks
    (CANVAS_KIND_CHECKS) come between."""
    from .kinds import KINDS
    from .writers.canvas import shuffles_answers

    if q.feedback.partially_correct:
        yield "partially-correct feedback is left out: Canvas has no such comments"
    yield from _unshown_feedback("canvas", q)
    if KINDS[q.type].shuffled:
        quiz_shuffles = shuffles_answers(quiz)
        if q.shuffle != quiz_shuffles:
            state = "shuffles" if quiz_shuffles else "does not shuffle"
            yield (f"Canvas shuffles the answers of every question or of none, and this quiz {state} them: "
                   f"this question's shuffle={str(q.shuffle).lower()} is not kept (set settings.shuffle_answers)")
        if quiz_shuffles and any(getattr(c, "fixed", False) for c in getattr(q, "choices", [])):
            yield "pinned choices (fixed) are shuffled with the others: Canvas pins none"
    yield from _canvas_kind_checks()[q.type](quiz, q)
    yield from _section_checks(section, q)


# -- per kind: what Canvas loses of a question of that kind, by the question's own settings -----


def _nothing_lost(quiz: Quiz, q: Any) -> Iterator[str]:
    yield from ()


def canvas_rule_scores(q: MultipleResponseQuestion) -> dict[str, float]:
    """Canvas's own rule for multiple answers, as option scores: each right option ticked adds one
    share of the points (points ÷ right options), each wrong one takes one such share away, and the
    total is never below 0 (canvas-lms ``MultipleAnswersQuestion`` and ``UserAnswer#score``)."""
    right = sum(c.correct for c in q.choices)
    return {c.id: (100 if c.correct else -100) / right for c in q.choices}


def _multiple_response(quiz: Quiz, q: MultipleResponseQuestion) -> Iterator[str]:
    rule = {"all_or_nothing": "all or nothing",
            "exam": f"the exam rule ({q.incomplete_points or 0:g} points for right but incomplete)"}.get(q.scoring)
    if rule:
        yield f"Canvas scores multiple answers by its own rule (a share per right tick, minus one per wrong tick), not {rule}"
    elif any(abs(a - b) > 0.001 for a, b in zip(q.choice_scores().values(), canvas_rule_scores(q).values())):
        yield ("Canvas scores multiple answers by its own rule (a share per right tick, minus one per wrong tick), not this "
               "question's option scores")


def _true_false(quiz: Quiz, q: TrueFalseQuestion) -> Iterator[str]:
    from .writers.canvas import true_false_is_native

    if not true_false_is_native(quiz.language, q.labels):
        labels = "/".join(true_false_labels(quiz.language, q.labels))
        yield (f"becomes a multiple-choice question with the answers {labels}: Canvas makes true/false questions "
               "only of the English answers True/False")


def _short_answer(quiz: Quiz, q: ShortAnswerQuestion) -> Iterator[str]:
    if any(a.score < 100 for a in q.answers):
        yield "answers worth less than 100 % are left out (with their feedback): Canvas gives every answer full credit"
    if any(re.search(r"(?<!\\)\*", a.text) for a in q.answers if a.score == 100):
        yield "Canvas has no wildcards: an answer with * is accepted only as written without its stars"
    if q.case_sensitive:
        yield "case-sensitive matching is not carried: Canvas's short-answer question has no such setting"


def _numerical(quiz: Quiz, q: NumericalQuestion) -> Iterator[str]:
    if any(a.score < 100 for a in q.answers):
        yield "answers worth less than 100 % are left out (with their feedback): Canvas gives every answer full credit"
    if q.unit:
        yield f"Canvas has no unit field: the unit ({q.unit}) is written after the question text"


def _essay(quiz: Quiz, q: EssayQuestion) -> Iterator[str]:
    lost = [name for name, given in (
        ("the response format", q.response_format != "editor"), ("the expected length", q.expected_lines != 15),
        ("the word limits", q.min_words or q.max_words), ("attachments", q.attachments)) if given]
    if lost:
        yield f"{', '.join(lost)} are not carried: Canvas's essay question has no such settings"


def _file_upload(quiz: Quiz, q: FileUploadQuestion) -> Iterator[str]:
    if q.max_files > 1 or q.allowed_types:
        yield "the number of files and the allowed file types are not carried: Canvas's file-upload question has no such settings"


def _matching(quiz: Quiz, q: MatchingQuestion) -> Iterator[str]:
    if not _plain_only([p.answer for p in q.pairs] + list(q.distractors)):
        yield "matching answers are plain text in Canvas: their formatting (code, math, images) is lost"


def _ordering(quiz: Quiz, q: OrderingQuestion) -> Iterator[str]:
    if not _plain_only(list(q.items)):
        yield "drop-down options are plain text in Canvas: the items' formatting (code, math, images) is lost"


def _fill_in_blank(quiz: Quiz, q: FillInBlankQuestion) -> Iterator[str]:
    kinds = {b.kind for b in q.blanks}
    if kinds == {"text", "dropdown"}:
        yield ("Canvas has no question with both text and drop-down blanks: the drop-downs become text blanks "
               "accepting their right answers, and their wrong options are left out")
    if q.case_sensitive and "text" in kinds:
        yield "case-sensitive matching is not carried: Canvas's blanks have no such setting"
    if q.unequal_blanks:
        yield (f"the blanks' own points ({', '.join(f'{w:g}' for w in q.blank_points())}) are not carried: Canvas "
               f"shares a question's {q.points:g} points equally among its blanks")


def _calculated(quiz: Quiz, q: Any) -> Iterator[str]:
    from .model.parametric import PLACEHOLDER

    texts = [q.feedback.general, q.feedback.correct, q.feedback.incorrect]
    if q.type == "calculated" and any(t and PLACEHOLDER.search(t) for t in texts):
        yield ("Canvas shows a calculated question's values in its question text only: in its feedback they show as "
               "[name]")
    if q.type == "calculated" and q.figures is not None:
        yield "Canvas shows the answer with decimals, not significant figures"
    if q.type == "calculated" and q.unit:
        yield f"Canvas has no unit field: the unit ({q.unit}) is written after the question text"


def _calculated_choice(quiz: Quiz, q: Any) -> Iterator[str]:
    section = next((s for _, s in quiz.iter_sections() if q in s.questions), None)
    if section is not None and section.select:
        yield (f"Canvas has no question group inside another: this question's variants are a group of their own, "
               f"inside the group '{section.id}'; put the question in a section that draws nothing")


@cache
def _canvas_kind_checks() -> Mapping[str, Callable[[Quiz, Any], Iterator[str]]]:
    """Each kind's own checks, from its spec (kinds.py KindSpec.canvas_checks). What Canvas loses
    of every question of a kind, whatever its settings, is the kind's ``losses`` in kinds.py. Made
    when first used, as kinds.py imports the model."""
    from .kinds import KindTable, resolve

    return KindTable("canvas_checks", "profiles.py CANVAS_KIND_CHECKS", resolve)


def __getattr__(name: str) -> Any:
    """``CANVAS_KIND_CHECKS``: the table of :func:`_canvas_kind_checks`."""
    if name == "CANVAS_KIND_CHECKS":
        return _canvas_kind_checks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _section_checks(section: Section, q: Any) -> Iterator[str]:
    if section.select and section.questions:
        points = section.questions[0].points
        if q.points != points:
            yield (f"Canvas gives every question of a group the same points: this one is worth {points:g} in the "
                   f"group '{section.id}', not {q.points:g}")
        if points == 0 and q is section.questions[0]:
            # Canvas reads a group's points per question from its items' points_possible; the facts
            # file does not say what it does with 0, so the author should look.
            yield (f"the group '{section.id}' is worth 0 points per question: Canvas takes a group's points from "
                   "its questions, and what it makes of 0 is not known: check the group's points after the import")
        if section.sections and q is section.questions[0]:
            yield f"the group '{section.id}' draws among its own questions only: its nested sections are not drawn from"
    if section.shuffle and not section.select and q is section.questions[0]:
        yield f"Canvas Classic keeps questions in their order: the section '{section.id}' is not shuffled"


#: Option numberings of letters that Moodle writes as numbers (writers/moodle.py's ANSWER_NUMBERING),
#: by the name the message gives them.
_LETTERS_MOODLE_NUMBERS = {"hangul": "Hangul (가 나 다)", "hangul-consonant": "Hangul (ㄱ ㄴ ㄷ)",
                           "katakana": "Katakana (ア イ ウ)", "iroha": "iroha (イ ロ ハ)"}


#: Feedback words, as messages name them.
_FEEDBACK_WORDS = {"general": "general", "correct": "correct", "partially_correct": "partially-correct",
                   "incorrect": "incorrect"}


@cache
def shown_feedback(profile: str, kind: str) -> frozenset[str]:
    """The feedback of a question of ``kind`` that ``profile``'s LMS or player shows, from the
    kind's scoring (kinds.py): QTI 2.1 and Moodle show outcome feedback where scoring tells right
    from partly right from wrong (none for an essay, graded by hand); Canvas keeps the correct and
    incorrect comments of every answered question, an essay's too (its partially-correct feedback
    is a loss of its own, above); general feedback is shown of every answered question, and of a
    text-only item by Moodle alone (a description's)."""
    from .kinds import KINDS

    spec = KINDS[kind]
    general = {"general"} if spec.answered or profile == "moodle" else set()
    if profile == "canvas":
        return frozenset(general | ({"correct", "partially_correct", "incorrect"} if spec.answered else set()))
    return frozenset(general | set(spec.outcome_feedback))


def _unshown_feedback(profile: str, q: Any) -> Iterator[str]:
    """Feedback the source gives that the output never shows: said, never lost in silence."""
    feedback = q.feedback
    if not (feedback.general or feedback.correct or feedback.partially_correct or feedback.incorrect):
        return  # most questions of a bank: asked of every question, for every target
    shown = shown_feedback(profile, q.type)
    given = [field for field in _FEEDBACK_WORDS if getattr(feedback, field) and field not in shown]
    if not given:
        return
    from .kinds import KINDS

    spec = KINDS[q.type]
    why = ("a text-only item is not answered" if not spec.answered
           else "it is graded by hand" if not spec.machine_scored else "it is right or wrong, never partly right")
    for field in given:
        yield f"its {_FEEDBACK_WORDS[field]} feedback is never shown: {why}"


def _qti21_checks(quiz: Quiz, section: Section, q: Any) -> Iterator[str]:
    """What a QTI 2.1 player never shows of a question (writers/qti21.py writes no modalFeedback for it)."""
    yield from _unshown_feedback("qti21", q)


def _moodle_checks(quiz: Quiz, section: Section, q: Any) -> Iterator[str]:
    """What Moodle's question types cannot hold: a multiple-response scoring rule on the whole answer
    (Moodle's multichoice adds up the ticked options' fractions, writers/moodle.py), and feedback
    its type never shows."""
    from .model.questions import MultipleResponseQuestion
    from .writers.moodle import ANSWER_NUMBERING

    yield from _unshown_feedback("moodle", q)

    numbering = getattr(q, "numbering", None)
    if numbering in _LETTERS_MOODLE_NUMBERS and ANSWER_NUMBERING[numbering] == "123":
        # An answer key or a question text that names option 'イ' or '나' then names nothing the
        # student sees: Moodle shows 1. 2. 3. in their place.
        yield (f"Moodle has no {_LETTERS_MOODLE_NUMBERS[numbering]} numbering: the options are numbered 1. 2. 3. "
               "there, in the same order")
    if isinstance(q, MultipleResponseQuestion) and q.scoring != "partial":
        right = sum(c.correct for c in q.choices)
        incomplete = (q.incomplete_points or 0) / q.points if q.scoring == "exam" else 0.0
        # Exact where each right but incomplete answer earns what the rule gives: one right option.
        if right > 1 and not (right == 2 and abs(incomplete - 0.5) < 1e-9):
            given = "0" if q.scoring == "all_or_nothing" else f"{q.incomplete_points:g} points"
            yield (f"Moodle gives a right but incomplete answer the share of its right options (each {100 / right:.4g} %), "
                   f"not {given}; any wrong option still gives 0")


#: Profile name -> its checks of one question (in its section). What a profile's LMS loses of
#: every question of a kind comes first, from the kind's ``losses`` (kinds.py).
PROFILES: dict[str, Callable[[Quiz, Section, Any], Iterator[str]]] = {
    "canvas": _canvas_checks,
    "moodle": _moodle_checks,
    "qti21": _qti21_checks,
}
#: Each profile's name in its messages.
PROFILE_NAMES = {"canvas": "Canvas", "moodle": "Moodle", "qti21": "QTI 2.1"}


def check_profile(profile: str, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink,
                  sections: Iterable[Section] | None = None) -> None:
    """Warn, per question, about what ``profile``'s importer loses: of the questions of
    ``sections`` (by default every section of the quiz, depth first)."""
    from .kinds import KINDS

    checks = PROFILES[profile]
    name = PROFILE_NAMES[profile]
    for section in (s for _, s in quiz.iter_sections()) if sections is None else sections:
        if section.select and not section.questions:  # draws among nested sections only
            first = next((q for _, s in _subtree(section) for q in s.questions), None)
            if first is not None:
                sink.warning("QB601", f"{name}: the section '{section.id}' draws among nested sections, which {name} "
                             f"cannot: all their questions are asked (question '{first.id}')", spans.get(first.id),
                             hint="give the section questions of its own to draw from, or drop 'select'")
        for question in section.questions:
            for message in (*KINDS[question.type].losses.get(profile, ()), *checks(quiz, section, question)):
                sink.warning("QB601", f"{name}: {message} (question '{question.id}')", spans.get(question.id),
                             hint=f"see 'qti-builder docs question-types' for what {name} does with each type")


def _subtree(section: Section) -> Iterator[tuple[int, Section]]:
    for child in section.sections:
        yield 0, child
        yield from _subtree(child)
