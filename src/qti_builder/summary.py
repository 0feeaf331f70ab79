"""What a build understood, in words: each quiz's questions by type and, for ``--verbose``, where
each question starts and what it became.

The reader decides a question's type from what the question holds (docs/source-format.md, "How
the question type is decided"); a guess that went wrong shows here at a glance ("1 essay" in a
quiz of choices and numbers) even when nothing else complains.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .diagnostics import SourceSpan, shorten
from .i18n import ANSWER_WORDS as WORDS, counted, summary_words, true_false_labels
from .kinds import KINDS, KindTable, resolve
from .model import Quiz, Section
from .model.parametric import _CalculatedBase
from .model.union import Question
from .parametric import variants
from .vocabulary import OPTION_STYLES

#: Every question type, in the order summaries list them (the order of the docs), in words.
TYPE_WORDS = {name: spec.words for name, spec in KINDS.items()}


def kind_name(kind: str, language: str | None = None) -> str:
    """A kind's name in ``language`` (KindSpec.names, as the preview names it), else in English."""
    spec = KINDS[kind]
    return spec.names.get((language or "en").split("-")[0].lower(), spec.words)


def type_summary(quiz: Quiz, language: str | None = None) -> str:
    """``ray-train-tune: 10 questions: 8 single choice, 2 essay``, in ``language`` (English by default)."""
    language = language or "en"
    return type_summaries(quiz, [language])[language]


def type_summaries(quiz: Quiz, languages: Iterable[str]) -> dict[str, str]:
    """:func:`type_summary` in each of ``languages``, the quiz counted once (a calculated
    question's sets are worked out for it)."""
    counts: Counter[str] = Counter(q.type for q in quiz.iter_questions())
    total = sum(counts.values())
    # A calculated question's sets of values: how many variants its students meet.
    sets = [f"{q.id} {n}" for q in quiz.iter_questions() if (n := _sets(quiz, q)) is not None]
    lines = {}
    for language in languages:
        words = summary_words(language)
        kinds = words["list"].join(words["kind_count"].format(n=counts[kind], kind=kind_name(kind, language))
                                   for kind in TYPE_WORDS if counts[kind])
        lines[language] = words["quiz_line"].format(quiz=quiz.id, questions=counted(words, "question", total), kinds=kinds) + (
            words["sets"].format(sets=words["list"].join(sets)) if sets else "")
    return lines


def _sets(quiz: Quiz, question: object) -> int | None:
    if not isinstance(question, _CalculatedBase):
        return None
    return len(variants(quiz.id, question).sets)  # type: ignore[arg-type]


def question_lines(quiz: Quiz, spans: dict[str, SourceSpan], language: str | None = None) -> list[str]:
    """One line per question, in quiz order, with what it was read as: its type, its answer and
    its points (``  source/quiz.md:14: scaling-config (single choice, answer B, 1 point)``), in
    ``language`` (English by default)."""
    words = summary_words(language)
    lines = []
    for question in quiz.iter_questions():
        span = spans.get(question.id)
        where = f"{span.path}:{span.line}: " if span else ""
        parts = [kind_name(question.type, language), answer_words(question, quiz.language, words)]
        sets = _sets(quiz, question)
        if sets is not None:
            parts.append(words["question_sets"].format(n=sets))
        if KINDS[question.type].answered:
            parts.append(counted(words, "point", question.points))
        lines.append(f"  {where}{question.id} ({words['list'].join(p for p in parts if p)})")
    return lines


def quiz_points(quiz: Quiz) -> tuple[float, float]:
    """What a quiz is worth: (least, most). They differ only when a section draws among questions
    (or nested sections) of different worth."""
    totals = [section_points(s) for s in quiz.sections]
    return sum(low for low, _ in totals), sum(high for _, high in totals)


def section_points(section: Section) -> tuple[float, float]:
    """What a section is worth: (least, most), as :func:`quiz_points`."""
    parts = [(q.points, q.points) for q in section.questions] + [section_points(child) for child in section.sections]
    if section.select:
        n = min(section.select, len(parts))
        return (sum(sorted(low for low, _ in parts)[:n]), sum(sorted((high for _, high in parts), reverse=True)[:n]))
    return sum(low for low, _ in parts), sum(high for _, high in parts)


#: The words an answer is told with where no others are given: English (i18n.py ANSWER_WORDS).
ENGLISH: Mapping[str, str] = WORDS["en"]


def answer_words(question: Question, language: str = "en", words: Mapping[str, str] = ENGLISH) -> str:
    """A question's answer in a few words, as the source names it: ``answer ③``, ``answer O``,
    ``answer '서울' or '서울특별시'``, ``model answer``, ``3 pairs``; told with ``words`` (the
    preview's outline gives its page's: ``정답 ③``, ``3쌍``), the quiz's own labels in ``language``."""
    return ANSWER_WORDS[question.type](question, language, words)


def _or(words: Mapping[str, str]) -> str:
    return f" {words['answer_or']} "


def _choices(q: Any, language: str, words: Mapping[str, str]) -> str:
    names = [option_label(q.numbering, n) for n, c in enumerate(q.choices, 1) if c.correct]
    return words["answer_is"].format(answer=", ".join([c.id for c in q.choices if c.correct] if q.numbering is None else names))


def _true_false(q: Any, language: str, words: Mapping[str, str]) -> str:
    yes, no = true_false_labels(language, q.labels) if q.labels else (words["answer_true"], words["answer_false"])
    return words["answer_is"].format(answer=yes if q.answer else no)


def _short_answer(q: Any, language: str, words: Mapping[str, str]) -> str:
    return words["answer_is"].format(answer=_or(words).join(f"'{shorten(a.text, 30)}'" for a in q.answers if a.score == 100))


def _numerical(q: Any, language: str, words: Mapping[str, str]) -> str:
    best = next(a for a in q.answers if a.score == 100)
    tolerance = f" ± {best.tolerance:g}{'%' if best.tolerance_mode == 'percent' else ''}" if best.tolerance else ""
    return words["answer_is"].format(answer=f"{best.value:g}{tolerance}")


def _model_answer(q: Any, language: str, words: Mapping[str, str]) -> str:
    return words["answer_model"] if q.model_answer else words["answer_no_model"]


def _formula(q: Any, language: str, words: Mapping[str, str]) -> str:
    tolerance = f" ± {q.tolerance:g}{'%' if q.tolerance_mode == 'percent' else ''}" if q.tolerance else ""
    return words["answer_is"].format(answer=f"= {q.answer}{tolerance}")


def _blanks(q: Any, language: str, words: Mapping[str, str]) -> str:
    return words["answer_blanks"].format(
        answers="; ".join(_or(words).join(f"'{shorten(a, 20)}'" for a in b.answers) for b in q.blanks))


def _pairs(q: Any, language: str, words: Mapping[str, str]) -> str:
    return words["answer_pairs"].format(n=len(q.pairs))


def _items_in_order(q: Any, language: str, words: Mapping[str, str]) -> str:
    return words["answer_in_order"].format(n=len(q.items))


def _nothing(q: Any, language: str, words: Mapping[str, str]) -> str:
    return ""


#: Each kind's answer in a few words, for ``--verbose``, from its spec (kinds.py KindSpec.answer_words).
ANSWER_WORDS: KindTable[Callable[[Any, str, Mapping[str, str]], str]] = KindTable("answer_words", "summary.py ANSWER_WORDS", resolve)


def option_label(numbering: str | None, ordinal: int) -> str:
    """The ``ordinal``-th option as the source numbers it: ``C``, ``③``, ``다``, ``(3)``."""
    marks = OPTION_STYLES.get(numbering if numbering not in (None, "none") else "upper-alpha", "")
    if marks:
        return marks[ordinal - 1] if ordinal <= len(marks) else str(ordinal)
    return f"({ordinal})" if numbering == "parenthesized-decimal" else str(ordinal)
