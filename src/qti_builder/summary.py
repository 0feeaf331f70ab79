"""What a build understood, in words: each quiz's questions by type and, for ``--verbose``, where
each question starts and what it became.

The reader decides a question's type from what the question holds (docs/source-format.md, "How
the question type is decided"); a guess that went wrong shows here at a glance ("1 essay" in a
quiz of choices and numbers) even when nothing else complains.
"""

from __future__ import annotations

from collections import Counter

from .diagnostics import SourceSpan
from .kinds import KINDS
from .model import Quiz, Section

#: Every question type, in the order summaries list them (the order of the docs), in words.
TYPE_WORDS = {name: spec.words for name, spec in KINDS.items()}


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 question``, ``2 questions``, ``1 quiz``, ``3 quizzes`` (``nouns`` where adding an s is wrong)."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def type_summary(quiz: Quiz) -> str:
    """``ray-train-tune: 10 questions: 8 single choice, 2 essay``."""
    counts: Counter[str] = Counter(q.type for q in quiz.iter_questions())
    total = sum(counts.values())
    kinds = ", ".join(f"{counts[kind]} {words}" for kind, words in TYPE_WORDS.items() if counts[kind])
    return f"{quiz.id}: {total} question{'' if total == 1 else 's'}: {kinds}"


def question_lines(quiz: Quiz, spans: dict[str, SourceSpan]) -> list[str]:
    """One line per question, in quiz order: ``  source/quiz.md:14: scaling-config (single choice)``."""
    lines = []
    for question in quiz.iter_questions():
        span = spans.get(question.id)
        where = f"{span.path}:{span.line}: " if span else ""
        lines.append(f"  {where}{question.id} ({TYPE_WORDS[question.type]})")
    return lines


def quiz_points(quiz: Quiz) -> tuple[float, float]:
    """What a quiz is worth: (least, most). They differ only when a section draws among questions
    (or nested sections) of different worth."""

    def worth(section: Section) -> tuple[float, float]:
        parts = [(q.points, q.points) for q in section.questions] + [worth(child) for child in section.sections]
        if section.select:
            n = min(section.select, len(parts))
            return (sum(sorted(low for low, _ in parts)[:n]), sum(sorted((high for _, high in parts), reverse=True)[:n]))
        return sum(low for low, _ in parts), sum(high for _, high in parts)

    totals = [worth(s) for s in quiz.sections]
    return sum(low for low, _ in totals), sum(high for _, high in totals)


def points_text(low: float, high: float) -> str:
    """``1 point``, ``12.5 points``, ``8–10 points``."""
    if round(low, 6) == round(high, 6):
        return f"{low:g} point" if low == 1 else f"{low:g} points"
    return f"{low:g}–{high:g} points"
