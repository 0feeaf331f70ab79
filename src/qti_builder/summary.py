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
from .model.parametric import _CalculatedBase
from .parametric import variants

#: Every question type, in the order summaries list them (the order of the docs), in words.
TYPE_WORDS = {name: spec.words for name, spec in KINDS.items()}


def type_summary(quiz: Quiz) -> str:
    """``ray-train-tune: 10 questions: 8 single choice, 2 essay``."""
    counts: Counter[str] = Counter(q.type for q in quiz.iter_questions())
    total = sum(counts.values())
    kinds = ", ".join(f"{counts[kind]} {words}" for kind, words in TYPE_WORDS.items() if counts[kind])
    sets = [f"{q.id} {_sets(quiz, q)}" for q in quiz.iter_questions() if _sets(quiz, q) is not None]
    # A calculated question's sets of values: how many variants its students meet.
    return f"{quiz.id}: {total} question{'' if total == 1 else 's'}: {kinds}" + (f"; sets: {', '.join(sets)}" if sets else "")


def _sets(quiz: Quiz, question: object) -> int | None:
    if not isinstance(question, _CalculatedBase):
        return None
    return len(variants(quiz.id, question).sets)  # type: ignore[arg-type]


def question_lines(quiz: Quiz, spans: dict[str, SourceSpan]) -> list[str]:
    """One line per question, in quiz order: ``  source/quiz.md:14: scaling-config (single choice)``."""
    lines = []
    for question in quiz.iter_questions():
        span = spans.get(question.id)
        where = f"{span.path}:{span.line}: " if span else ""
        sets = _sets(quiz, question)
        lines.append(f"  {where}{question.id} ({TYPE_WORDS[question.type]}{f', {sets} sets' if sets is not None else ''})")
    return lines
