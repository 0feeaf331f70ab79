"""What a particular LMS will lose or change on import, per question (``check --profile canvas``).

The package stays standard QTI; these are warnings for the course designer, drawn from
shared/docs/lms-import-facts.md and from reading Canvas's QTI 2.x converter. Facts are data:
a table of losses by question kind, plus a few checks that depend on a question's settings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from .diagnostics import DiagnosticSink, SourceSpan
from .i18n import true_false_labels
from .model import Quiz, Section

#: Canvas Classic Quizzes: what it loses for every question of a kind.
CANVAS_LOSSES: dict[str, tuple[str, ...]] = {
    "multiple_response": ("partial credit and negative marks are ignored: Canvas scores multiple answers its own way",),
    "short_answer": ("becomes fill-in-the-blank with only the first full-credit answer; other answers, partial scores, "
                     "wildcards and per-answer feedback are lost",),
    "numerical": (),
    "essay": ("response format, expected length, word limits and attachments are lost",),
    "file_upload": ("file-upload questions are not supported: the question is dropped",),
    "ordering": ("ordering questions are dropped: Canvas needs interactionType metadata in a form the official "
                 "manifest schema does not allow",),
    "text_only": ("text-only items are dropped",),
    "matching": ("the question text gets all answer labels run together",),
    "fill_in_blank": (),
    "single_choice": (),
    "true_false": (),
}

_CANVAS_FEEDBACK_WORDS = re.compile(r"correct|wrong|general_|_all|_C$|_IC$", re.I)


def _canvas_checks(quiz: Quiz, section: Section, q: Any) -> Iterator[str]:
    if q.feedback.partially_correct:
        yield "partially-correct feedback is lost"
    if q.type in ("single_choice", "multiple_response"):
        if q.shuffle and not section.shuffle:
            yield "answers are not shuffled: Canvas ignores per-question shuffling (set shuffle on the section)"
        if section.shuffle and any(c.fixed for c in q.choices):
            yield "pinned choices (fixed) may be shuffled: Canvas shuffles all answers or none"
        for choice in q.choices:
            # The QTI writer names a choice's feedback "<id>_fb"; Canvas files feedback by name.
            if _CANVAS_FEEDBACK_WORDS.search(f"{choice.id}_fb") and choice.feedback:
                yield f"the feedback of choice '{choice.id}' is misfiled: its id looks like one of Canvas's feedback names"
    if q.type == "true_false" and not {"true", "false"} <= {w.lower() for w in true_false_labels(quiz.language)}:
        yield "becomes a multiple-choice question: Canvas recognises true/false only with English labels"
    if q.type == "essay" and q.model_answer:
        yield "the model answer becomes the essay's example solution"
    if q.type == "numerical":
        if any(a.tolerance for a in q.answers):
            yield "the tolerance is lost: Canvas accepts only the exact value, as text"
        if len(q.answers) > 1 or any(a.feedback for a in q.answers):
            yield "partial-credit answers and per-answer feedback are lost"
    if q.type == "fill_in_blank":
        if any(b.kind == "dropdown" for b in q.blanks):
            yield "drop-down blanks come out broken (raw markup in the text, the option id as the answer)"
        if any(b.kind == "text" and len(b.answers) > 1 for b in q.blanks):
            yield "only the first accepted answer of each blank is kept"
    if section.select and section.sections:
        yield "the section draws at random among its own questions only; nested sections are not drawn from"


#: Profile name -> (losses by kind, conditional checks).
PROFILES: dict[str, tuple[dict[str, tuple[str, ...]], Callable[[Quiz, Section, Any], Iterator[str]]]] = {
    "canvas": (CANVAS_LOSSES, _canvas_checks),
}


def check_profile(profile: str, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> None:
    """Warn, per question, about what ``profile``'s importer loses."""
    losses, checks = PROFILES[profile]
    name = profile.capitalize()
    for _, section in quiz.iter_sections():
        for question in section.questions:
            for message in (*losses.get(question.type, ()), *checks(quiz, section, question)):
                sink.warning("QB601", f"{name}: {message} (question '{question.id}')", spans.get(question.id),
                             hint=f"see docs/question-types.md for what {name} does with each type")
