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
from .model import Quiz

#: Every question type, in the order summaries list them (the order of the docs), in words.
TYPE_WORDS = {name: spec.words for name, spec in KINDS.items()}


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
