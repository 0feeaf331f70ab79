"""The HTML preview: every quiz as a static, self-contained site to proofread before importing.

Questions are rendered from the same model and the same content pipeline as the packages (with
math as MathML and media copied next to the pages), each with a "show answer" toggle and the
warnings ``check`` reports for it. No script or stylesheet comes from the network.
"""

from __future__ import annotations

import random
import re
from html import escape
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import content
from .diagnostics import BuildFailed, Diagnostic, DiagnosticSink, Severity, SourceSpan
from .ignores import Accepted
from .i18n import preview_words, true_false_labels
from .kinds import KINDS, KindTable, resolve
from .messages import translate
from .outline import build_outline, read_lines
from .summary import option_label
from .model import Quiz, QuizSettings
from .model.questions import BLANK_MARKER, FillInBlankQuestion
from .model.union import Question
from .parametric import fmt, variants
from .package import write_files
from .pipeline import BuildOptions, LoadedQuiz, load_quizzes, render_outputs
from .schemas import SchemaError
from .summary import quiz_points
from .templating import make_environment
from .writers.base import render_template


@dataclass
class PreviewResult:
    pages: list[Path]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def build_preview(
    options: BuildOptions, out_dir: Path, live_reload: bool = False, only: set[Path] | None = None
) -> PreviewResult:
    """Write ``index.html``, one page per quiz and their media into ``out_dir``.

    Quizzes that cannot be read are listed on the index with their errors; the others are shown
    with every warning ``check`` has for them. With ``only``, just the pages of those sources are
    rendered again (the index always is). Raises nothing for problems in sources.
    """
    sink = DiagnosticSink()
    # The preview is a review report: it always lists what Canvas would lose.
    loaded = load_quizzes(replace(options, profile=options.profile or "canvas"), sink)
    chosen = [q for q in loaded if only is None or q.path.resolve() in only]
    try:
        render_outputs(chosen, options, sink)
    except SchemaError as exc:  # the preview still works without the schemas
        sink.items.extend(exc.diagnostics)
    except BuildFailed as exc:
        sink.items.extend(exc.diagnostics)
    accepted = {item.source.path: Accepted(options.ignore, item.quiz, item.spans) for item in loaded}
    sink.items = [d for d in sink.items if d.severity is Severity.ERROR or d.code not in options.ignore
                  and not (d.span and d.span.path in accepted and accepted[d.span.path](d.code, d.span))]
    env = make_environment(options.templates)
    files: list[tuple[Path, bytes]] = []
    quizzes = []
    for item in loaded:
        page = f"{item.quiz.id}.html"
        if item in chosen:
            context = quiz_context(item, sink.items)
            html = render_template(env, "preview/quiz.html.j2", sink, **context, live_reload=live_reload)
            files.append((out_dir / page, html or _broken_page(item.quiz)))
            files.extend((out_dir / "media" / f.name, f.data) for f in item.media.files)
        words = _words(item.quiz.language)
        found = [d for d in sink.items if d.span and d.span.path == item.source.path]
        errors = sum(1 for d in found if d.severity is Severity.ERROR)
        warnings = len(found) - errors
        quizzes.append({"quiz": item.quiz, "page": page, "words": words, **_counts(item, words),
                        "errors": not_built(errors, words),
                        "warnings": "" if errors or not warnings else
                        words["warning_one"] if warnings == 1 else words["warning_count"].format(n=warnings)})
    read_paths = {q.source.path for q in loaded}
    failed = sorted({d.span.path for d in sink.errors if d.span and d.span.path not in read_paths})
    index = render_template(
        env, "preview/index.html.j2", sink,
        quizzes=quizzes, failed=[{"path": p, "errors": [d for d in sink.errors if d.span and d.span.path == p]} for p in failed],
        live_reload=live_reload, words=_words("en"),
    )
    files.append((out_dir / "index.html", index or b"<!DOCTYPE html><title>preview</title><p>The preview templates failed; see the errors printed by qti-builder."))
    write_files(files)
    return PreviewResult([path for path, _ in files if path.suffix == ".html"], sink.sorted())


def _words(language: str) -> dict[str, str]:
    """The preview's words in ``language``, with every kind's own (KindSpec.preview_words),
    English where the language has none."""
    primary = language.split("-")[0].lower()
    own = {key: word for spec in KINDS.values()
           for key, word in {**spec.preview_words.get("en", {}), **spec.preview_words.get(primary, {})}.items()}
    return {**preview_words(language), **own}


def _counts(item: LoadedQuiz, words: dict[str, str]) -> dict[str, Any]:
    """A quiz's questions and points for the index, in its language: when questions with errors
    were left out (SourceMap.left_out), as the questions read of all the paper's, never as if the
    questions read were the whole quiz."""
    count = sum(1 for _ in item.quiz.iter_questions())
    left_out = len(item.source.left_out)
    if left_out:
        return {"count": count, "questions": words["read_of"].format(read=count, all=count + left_out),
                "points": total_points(item.quiz, words, "total_read")}
    return {"count": count, "questions": count_words(count, words["question"], words["questions"]),
            "points": total_points(item.quiz, words)}


def not_built(errors: int, words: dict[str, str]) -> str:
    """``2 errors: nothing of this quiz is built until they are fixed`` ("" for none): what the
    index and the quiz's page say of a quiz with errors, which ``build`` writes nothing of."""
    if not errors:
        return ""
    if errors == 1:
        return words["not_built_one"].format(errors=words["error_one"])
    return words["not_built"].format(errors=words["error_count"].format(n=errors))


def _broken_page(quiz: Quiz) -> bytes:
    return f"<!DOCTYPE html><title>{escape(quiz.title)}</title><p>This page could not be rendered; see the errors printed by qti-builder.".encode()


def quiz_context(item: LoadedQuiz, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    quiz = item.quiz
    media = item.media.rename("media/")
    spans = item.spans
    by_question = _attribute([_in_language(d, quiz.language) for d in diagnostics], item.source.path, spans,
                             item.source.left_out)
    words = _words(quiz.language)

    def html(text: str | None) -> str:
        return content.render_preview(text, media) if text else ""

    def inline(text: str | None) -> str:
        return content.unwrap_paragraph(content.render_preview(text, media)) if text else ""

    sections = []
    # Where the errors lie, for the notice at the top: each question with one (by its number, or
    # its id when it has none); those of no question are listed just below the notice.
    error_questions: list[dict[str, str]] = []
    number = 0
    for ancestors, section in quiz.iter_sections():
        questions = []
        for question in section.questions:
            answered = KINDS[question.type].answered
            if answered:
                number += 1
            kind = PREVIEW_KINDS[question.type]
            view = kind.view(question, inline, words, quiz)
            shown = view.pop("question", question)  # a kind may show its own copy (calculated: the first set)
            questions.append({
                "q": question,
                "number": number if answered else None,
                "stem": _stem(shown, html),
                "passage": html(shown.passage),
                "template": kind.template,
                "answer_template": kind.answer_template,
                "view": view,
                "feedback": {k: html(v) for k, v in shown.feedback.model_dump().items() if v},
                "diagnostics": by_question.get(question.id, []),
                "span": spans.get(question.id),
                "points": points_words(question.points, words),
            })
            if any(d.severity is Severity.ERROR for d in by_question.get(question.id, [])):
                error_questions.append({"id": question.id, "label": str(number) if answered else f"#{question.id}"})
        draw = (words["draw_one"] if section.select == 1 else words["draw"].format(n=section.select)) if section.select else ""
        sections.append({"section": section, "depth": len(ancestors), "description": html(section.description),
                         "questions": questions, "draw": draw})
    errors = [d for found in by_question.values() for d in found if d.severity is Severity.ERROR]
    return {"quiz": quiz, "description": html(quiz.description), "sections": sections, "words": words,
            "blocked": not_built(len(errors), words), "error_questions": error_questions,
            "read_of": _counts(item, words)["questions"] if item.source.left_out else "",
            "settings": settings_view(quiz.settings, words), "quiz_diagnostics": by_question.get("", []),
            "total": total_points(quiz, words), "outline": build_outline(quiz, item.source, read_lines(item.path), words),
            "kind_names": kind_names(quiz.language)}


def kind_names(language: str) -> dict[str, str]:
    """Each kind's name in ``language`` (KindSpec.names), English where it has none: the outline's
    type column, in the page's language as the rest of the page."""
    primary = language.split("-")[0].lower()
    return {name: spec.names.get(primary, spec.words) for name, spec in KINDS.items()}


def _in_language(diagnostic: Diagnostic, language: str) -> Diagnostic:
    """A diagnostic's message and hint in the quiz's language, where its catalog has them."""
    return replace(diagnostic, message=translate(diagnostic.message, language),
                   hint=translate(diagnostic.hint, language) if diagnostic.hint else None)


#: Counter words written against their number (3점, 10문항), not after a space.
ATTACHED = {"점", "문항"}


def count_words(count: float, one: str, many: str) -> str:
    """``1 point``, ``2 points``, ``3점``: the word for one or for many, in the quiz's language."""
    word = one if count == 1 else many
    return f"{count:g}{word}" if word in ATTACHED else f"{count:g} {word}"


def points_words(points: float, words: dict[str, str]) -> str:
    return count_words(points, words["point"], words["points"])


def total_points(quiz: Quiz, words: dict[str, str], key: str = "total") -> str:
    """What the quiz is worth, in its language: ``12 points in all``, ``총 12점``; a range when a
    section draws among questions of different worth. ``key`` "total_read": of a quiz whose
    questions with errors were left out, ``12 points in the questions read``."""
    low, high = quiz_points(quiz)
    if round(low, 6) == round(high, 6):
        return words[key].format(points=points_words(low, words))
    return words[key].format(points=f"{low:g}–{points_words(high, words)}")


def settings_view(settings: QuizSettings, words: dict[str, str]) -> list[dict[str, str]]:
    """The quiz settings the source states, as label and value in the quiz's language."""
    shown = []
    for name, value in settings.given().items():
        if isinstance(value, bool):
            text = words["yes" if value else "no"]
        elif name == "time_limit":
            text = words["minutes"].format(n=value)
        elif isinstance(value, str):  # "unlimited", "graded", "practice"
            text = words[value]
        else:
            text = str(value)
        shown.append({"name": name, "label": words[name], "value": text})
    return shown


def _attribute(diagnostics: list[Diagnostic], path: str, spans: dict[str, SourceSpan],
               left_out: Sequence[int] = ()) -> dict[str, list[Diagnostic]]:
    """Diagnostics of one source file, by the question whose lines contain them ("" for none: also
    those in the lines of a question left out for its errors, which the page does not show, never
    the question before it)."""
    starts = sorted([(span.line, qid) for qid, span in spans.items() if span.path == path] + [(line, "") for line in left_out])
    grouped: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if not diagnostic.span or diagnostic.span.path != path:
            continue
        owner = ""
        for line, qid in starts:
            if line <= diagnostic.span.line:
                owner = qid
        grouped.setdefault(owner, []).append(diagnostic)
    return grouped


def _stem(question: Question, html: Any) -> str:
    stem = html(question.stem)
    if not isinstance(question, FillInBlankQuestion):
        return stem
    blanks = {b.id: b for b in question.blanks}

    def field_for(match: re.Match[str]) -> str:
        blank = blanks.get(match.group(1))
        if blank is None:
            return match.group(0)
        if blank.kind == "dropdown":
            options = sorted(blank.answers[:1] + blank.options)
            items = "".join(f"<option>{escape(o)}</option>" for o in options)
            return f'<select aria-label="{blank.id}" class="blank"><option></option>{items}</select>'
        return f'<input type="text" aria-label="{blank.id}" class="blank" size="12">'

    return BLANK_MARKER.sub(field_for, stem)


def _shuffled(items: list[Any], seed: str) -> list[Any]:
    """A stable shuffle, so the preview does not give the order away yet never changes."""
    copy = list(items)
    random.Random(seed).shuffle(copy)
    return copy


def _choices(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    # Marked as the source numbers them: A B C, or ① ② ③, 가 나 다, ...
    marks = [option_label(q.numbering, n) if q.numbering else c.id for n, c in enumerate(q.choices, 1)]
    return {"choices": [{"id": c.id, "mark": mark, "text": html(c.text), "correct": c.correct, "feedback": html(c.feedback),
                         "fixed": c.fixed} for c, mark in zip(q.choices, marks)],
            "answer": ", ".join(mark for c, mark in zip(q.choices, marks) if c.correct),
            # A rule on the whole answer has no score per option: the preview names the rule as the source writes it.
            "scores": q.choice_scores() if q.type == "multiple_response" and q.scoring == "partial" else None,
            "rule": _rule(q) if q.type == "multiple_response" and q.scoring != "partial" else None}


def _rule(q: Any) -> str:
    return f"scoring={q.scoring}" + (f" incomplete_points={q.incomplete_points:g}" if q.scoring == "exam" else "")


def _true_false(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    yes, no = true_false_labels(quiz.language, q.labels)
    return {"choices": [{"id": "true", "text": yes, "correct": q.answer, "feedback": html(q.true_feedback)},
                        {"id": "false", "text": no, "correct": not q.answer, "feedback": html(q.false_feedback)}],
            "answer": yes if q.answer else no, "scores": None}


def _short_answer(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    return {"answers": [{"text": a.text, "score": a.score, "feedback": html(a.feedback)} for a in q.answers],
            "case_sensitive": q.case_sensitive, "unit": None}


def _numerical(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    answers = []
    for a in q.answers:
        low, high = a.bounds()
        shown = f"{a.value:g}" if low == high else f"{a.value:g} ({low:g} … {high:g})"
        answers.append({"text": shown + (f" {q.unit}" if q.unit else ""), "score": a.score, "feedback": html(a.feedback)})
    return {"answers": answers, "unit": q.unit, "case_sensitive": False}


def _open(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    return {"model_answer": html(getattr(q, "model_answer", None)),
            "upload": (words["upload_one"] if q.max_files == 1 else words["upload"].format(n=q.max_files)) if q.type == "file_upload" else None,
            "allowed": ", ".join(getattr(q, "allowed_types", []))}


def _matching(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    targets = _shuffled([html(p.answer) for p in q.pairs] + [html(d) for d in q.distractors], q.id)
    return {"pairs": [{"prompt": html(p.prompt), "answer": html(p.answer)} for p in q.pairs], "targets": targets,
            "distractors": [html(d) for d in q.distractors]}


def _ordering(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    return {"shown": _shuffled([html(i) for i in q.items], q.id), "order": [html(i) for i in q.items]}


def _blanks(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    return {"blanks": [{"id": b.id, "answers": b.answers[:1] if b.kind == "dropdown" else b.answers, "kind": b.kind}
                       for b in q.blanks], "case_sensitive": q.case_sensitive}


def _nothing(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class PreviewKind:
    """How the preview shows one kind: what a student sees, what "show answer" shows (None: no
    answer to show), and the function that computes what both templates need."""

    template: str
    answer_template: str | None
    view: Callable[[Any, Callable[[str | None], str], dict[str, str], Quiz], dict[str, Any]]


#: Each kind's templates (in templates/preview/kinds/) and view (tests/test_kinds.py: one per kind).
def _calculated(q: Any, html: Any, words: dict[str, str], quiz: Quiz) -> dict[str, Any]:
    """The first set in the texts, and a table of every set with its answer (or correct option)."""
    v = variants(quiz.id, q)
    if not v.texts:  # the sets could not be made: check reports why
        return {"sets": [], "names": [], "answer": "", "unit": getattr(q, "unit", None), "choices": [], "question": q}
    first = lambda text: v.text(0, text) if text else text  # noqa: E731
    feedback = q.feedback.model_copy(update={k: first(t) for k, t in q.feedback.model_dump().items() if t})
    shown = q.model_copy(update={"stem": first(q.stem), "feedback": feedback})
    names = list(v.order)
    rows: list[dict[str, Any]] = [{"values": [fmt(values[n], v.decimals[n]) for n in names]} for values in v.sets]
    if q.type == "calculated":
        tolerance = f"{q.tolerance:g} %" if q.tolerance_mode == "percent" else f"{q.tolerance:g}"
        for row, text in zip(rows, v.correct_texts):
            row["answer"] = text + (f" {q.unit}" if q.unit else "")
        return {"question": shown, "names": names, "sets": rows, "unit": q.unit, "formula": q.answer,
                "tolerance": tolerance, "answer": rows[0]["answer"]}
    correct = next(c for c in q.choices if c.correct)
    for index, row in enumerate(rows):
        row["answer"] = html(v.text(index, correct.text))
    choices = [{"id": c.id, "text": html(first(c.text)), "correct": c.correct, "feedback": html(first(c.feedback)),
                "fixed": c.fixed} for c in q.choices]
    return {"question": shown, "names": names, "sets": rows, "choices": choices, "answer": correct.id, "scores": None}


#: Each kind's templates and view, from its spec (kinds.py KindSpec.preview).
PREVIEW_KINDS = KindTable("preview", "preview.py PREVIEW_KINDS",
                          lambda part: PreviewKind(part.template, part.answer_template, resolve(part.view)))
