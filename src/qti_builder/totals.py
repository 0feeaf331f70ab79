"""QB219: the total a paper states (``Quiz.stated_points``, :mod:`.readers.stated_total`) is what
its questions add up to. Every check runs it; its own module so that a check does not import the
outline (:mod:`.outline`, ``--outline`` and the preview's), which it used to live in."""

from __future__ import annotations

import re

from .diagnostics import DiagnosticSink
from .i18n import points_text
from .model import Quiz, Section
from .readers import SourceMap
from .summary import quiz_points, section_points


def check_stated_total(quiz: Quiz, source: SourceMap, sink: DiagnosticSink) -> None:
    """QB219: the total a paper states is what its questions add up to. Points the reader did not
    find make a question worth 1, so a paper whose stated total is 42 and that builds as 12 has
    lost its points somewhere: the message says per section where the points went."""
    if quiz.stated_points is None:
        return
    low, high = quiz_points(quiz)
    if round(low, 6) <= round(quiz.stated_points, 6) <= round(high, 6):
        return
    written = source.scalars.get(("stated_points",)) or f"{quiz.stated_points:g}"
    if re.fullmatch(r"[\d.]+", written):  # 'total: 42' in the front matter ('42.0' from a YAML source)
        written = f"total {float(written):g}"
    per_section = "; ".join(
        f"{_short(s.title)}: {points_text(*section_points(s))} in {_count(s)} question{'' if _count(s) == 1 else 's'}"
        for s in quiz.sections
    )
    ones = sum(1 for q in quiz.iter_questions() if q.points == 1 and q.type != "text_only")
    default = f"; {ones} of them worth 1 point (the worth of a question whose points were not found)" if ones else ""
    sink.error(
        "QB219",
        f"the paper says {written}, its questions add up to {points_text(low, high)} "
        f"({abs(quiz.stated_points - high):g} {'missing' if quiz.stated_points > high else 'too many'}): {per_section}{default}",
        source.locate(("stated_points",)),
        hint="write each question's points as the paper does ('(3점)', '(3 points)', {points=3}) or a section's rule "
             "('(각 3점)', '(3 points each)'), or correct the stated total; 'qti-builder check --outline' lists each question's points",
    )


def _count(section: Section) -> int:
    return len(section.questions) + sum(_count(s) for s in section.sections)


def _short(title: str) -> str:
    return re.sub(r"\s+", " ", title)[:40]
