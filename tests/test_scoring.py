"""Every output grades a student as the author meant, checked by an independent reader of each.

For every machine-scored question of every quiz the tests build from a source (the quizzes in
source/, the fixtures, the starter quizzes) and of generated quizzes of every kind, the responses
of helpers/scoring.py (right, wrong, partly right) are scored by pyslet in the QTI 2.1 package, by
Moodle's rules in the Moodle XML and by QTI 1.2 response processing in the Canvas package. Each
must earn what the source says: the right response exactly the question's points in all three,
a wrong one less, a partly right one its share, and the same in every output but where an LMS
has its own rule (helpers/scoring.py says where).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.scoring import ALL, Built, Unlocatable, attempts, scored_questions
from helpers.strategies import quizzes
from hypothesis import HealthCheck, assume, given, settings

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink, Severity
from qti_builder.model import Quiz
from qti_builder.model.questions import Question
from qti_builder.readers import read_quiz

SOURCES = sorted([*ROOT.glob("source/*.md"), *ROOT.glob("tests/fixtures/*.yaml"), *ROOT.glob("tests/fixtures/*.md"),
                  *ROOT.glob("starter/quiz/*.md")])
#: Sources written to be refused by an output (tests/test_moodle_types.py checks the refusals):
#: scored in the outputs that take them.
TARGETS = {ROOT / "tests/fixtures/moodle-limits.yaml": frozenset({"qti21", "canvas"})}
NAMES = {"qti21": "QTI 2.1", "moodle": "Moodle", "canvas": "Canvas"}


def canvas_points(quiz: Quiz, question: Question) -> float:
    """What Canvas makes a question worth: a question group gives each question its first one's points."""
    for _, section in quiz.iter_sections():
        if question in section.questions and section.select:
            return float(section.group_points() or 0)
    return question.points


def moodle_mark(question: Question) -> float:
    """A cloze question's mark is the sum of its blanks' whole-number weights (QB323 warns when
    that is not the points)."""
    if question.type != "fill_in_blank":
        return question.points
    share = question.points / len(question.blanks)
    return (int(share) if share >= 1 and share == int(share) else 1) * len(question.blanks)


def disagreements(built: Built) -> list[str]:
    """Every response an output scores otherwise than the source means, as a user would read it."""
    quiz, found = built.quiz, []
    for q in scored_questions(quiz):
        maxima = {"qti21": built.qti21_maximum, "moodle": lambda q: built.moodle_question(q).mark,
                  "canvas": built.canvas_points}
        maxima = {target: maxima[target](q) for target in built.targets}  # type: ignore[operator]
        meant = {"qti21": q.points, "moodle": moodle_mark(q), "canvas": canvas_points(quiz, q)}
        for target in maxima:
            if abs(maxima[target] - meant[target]) > 1e-9:
                found.append(f"{NAMES[target]}: question '{q.id}' is worth {maxima[target]:g} points, not {meant[target]:g}")
        for attempt in attempts(quiz, q):
            for target, expected in attempt.expected.items():
                if target not in built.targets:
                    continue
                try:
                    got = built.score(target, q, attempt.response)
                except Unlocatable:
                    continue  # two options of the output show the same text: no student can tell them apart
                if abs(got - expected) > 1e-4:
                    found.append(f"{NAMES[target]}: question '{q.id}' ({q.type}) gives '{attempt.name}' "
                                 f"{got * meant[target]:g} of {meant[target]:g} points; the source means "
                                 f"{expected * meant[target]:g}")
    return found


def read(path: Path) -> Quiz:
    result = read_quiz(path, DiagnosticSink())
    assert result is not None
    return result[0]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_output_scores_every_source_as_meant(source: Path, tmp_path: Path) -> None:
    targets = TARGETS.get(source, ALL)
    result = build(BuildOptions(sources=[source], out_dir=tmp_path, formats=sorted(targets)))
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR]
    quiz = read(source)
    assert list(scored_questions(quiz)) or source.parent.name == "quiz"  # a starter quiz may have none
    assert disagreements(Built.read(quiz, tmp_path, targets)) == []


def test_the_sources_cover_every_scored_kind() -> None:
    from helpers.scoring import SCORED

    kinds = {q.type for source in SOURCES for q in read(source).iter_questions()}
    assert set(SCORED) <= kinds


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(quizzes())
def test_every_output_scores_generated_quizzes_as_meant(quiz: Quiz) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "generated.yaml"
        source.write_text(quiz.model_dump_json(exclude_none=True), encoding="utf-8")  # JSON is YAML
        result = build(BuildOptions(sources=[source], out_dir=Path(folder) / "dist"))
        # A quiz some output cannot hold is refused with a located reason: the build tests cover that.
        assume(not [d for d in result.diagnostics if d.severity is Severity.ERROR])
        assert disagreements(Built.read(quiz, Path(folder) / "dist")) == []
