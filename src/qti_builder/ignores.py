"""Warnings and losses an author accepts: ``--ignore CODE[,CODE…]`` for a whole run, and a
question's own ``ignore=`` (``ignore:`` in YAML) for that question.

Only warnings and losses can be accepted: an error always stops the quiz. A warning belongs to the
question in whose lines it points (from the question's first line up to the next question's); a
loss names its question.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable

from .diagnostics import Diagnostic, DiagnosticSink, Severity, SourceSpan
from .model import Question, Quiz
from .readers import SourceMap
from .readers.source_map import question_locs

BAD_IGNORE = "QB206"


def parse_codes(values: Iterable[str]) -> frozenset[str]:
    """``--ignore`` values (each comma-separated) as codes; raises ValueError with what is wrong."""
    # The table of every code (codes.py) is imported where a code is looked up: here, and for a
    # question's ``ignore=``; a build or check with neither never needs it.
    from .codes import lookup, nearest

    codes: set[str] = set()
    for value in values:
        for word in (w.strip() for w in value.split(",")):
            if not word:
                continue
            code = lookup(word)
            if code is None:
                close = nearest(word)
                raise ValueError(f"unknown code {word.upper()}" + (f"; did you mean {close[0]}?" if close else "")
                                 + " (every code: qti-builder docs source-format#every-code)")
            if not code.is_warning:
                raise ValueError(f"{code.code} is an error, and errors cannot be ignored: fix the source "
                                 f"(qti-builder docs {code.code})")
            codes.add(code.code)
    return frozenset(codes)


def check_question_ignores(quiz: Quiz, source: SourceMap, sink: DiagnosticSink, questions: Iterable[Question] | None = None,
                           locs: Callable[[], dict[str, tuple[str | int, ...]]] | None = None) -> None:
    """A question's ``ignore=`` (of ``questions``, by default the quiz's) must name warnings
    (QB206 otherwise); ``locs``: each question's path, made when first needed."""
    where: dict[str, tuple[str | int, ...]] | None = None
    for question in quiz.iter_questions() if questions is None else questions:
        for word in question.ignore:
            if where is None:
                where = locs() if locs is not None else question_locs(quiz)
            from .codes import CODES  # as in parse_codes: only for a question that has an ignore=

            code = CODES.get(word)
            if code is not None and code.is_warning:
                continue
            problem = "is an error, and errors cannot be ignored" if code else "is not a code qti-builder reports"
            sink.error(BAD_IGNORE, f"ignore={word} on question '{question.id}' {problem}",
                       source.locate(where[question.id] + ("ignore",)),
                       hint="name the codes of warnings or losses (QB601, QB165, ...): 'qti-builder docs "
                            "source-format#every-code' lists them; (W) marks the warnings")


class Accepted:
    """Decides whether a warning or loss is accepted, for one quiz. What it reads of the quiz
    (each question's ``ignore``, where each question starts) is gathered at the first warning or
    loss that is not accepted by its code alone: a quiz with none (most builds, and every rebuild
    of a 10,000-question bank after an edit) is not walked question by question."""

    def __init__(self, codes: frozenset[str], quiz: Quiz | None, spans: dict[str, SourceSpan]) -> None:
        self.codes = codes
        self.quiz = quiz
        self.spans = spans

    @functools.cached_property
    def per_question(self) -> dict[str, set[str]]:
        return {q.id: set(q.ignore) for q in self.quiz.iter_questions() if q.ignore} if self.quiz else {}

    @functools.cached_property
    def starts(self) -> dict[str, list[tuple[int, int, str]]]:
        starts: dict[str, list[tuple[int, int, str]]] = {}
        for ident, span in self.spans.items():
            starts.setdefault(span.path, []).append((span.line, span.column, ident))
        return {path: sorted(found) for path, found in starts.items()}

    def question_at(self, span: SourceSpan | None) -> str | None:
        """The question in whose lines ``span`` points."""
        found = self.starts.get(span.path) if span else None
        if not found or span is None:
            return None
        i = bisect.bisect_right(found, (span.line, span.column, "\uffff")) - 1
        return found[i][2] if i >= 0 else None

    def __call__(self, code: str, span: SourceSpan | None, question: str | None = None) -> bool:
        if code in self.codes:
            return True
        if not self.per_question:
            return False
        question = question or self.question_at(span)
        return question is not None and code in self.per_question.get(question, ())

    def diagnostics(self, diagnostics: list[Diagnostic]) -> tuple[list[Diagnostic], int]:
        """The diagnostics not accepted, and how many were."""
        kept = [d for d in diagnostics if d.severity is Severity.ERROR or not self(d.code, d.span)]
        return kept, len(diagnostics) - len(kept)
