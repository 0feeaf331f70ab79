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
from helpers.scoring import ALL, SCORED, Built, disagreements, scored_questions
from helpers.strategies import quizzes
from hypothesis import HealthCheck, assume, given, settings

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink, Severity
from qti_builder.model import Quiz
from qti_builder.pipeline import BuildIncomplete
from qti_builder.readers import read_quiz

SOURCES = sorted([*ROOT.glob("source/*.md"), *ROOT.glob("tests/fixtures/*.yaml"), *ROOT.glob("tests/fixtures/*.md"),
                  *ROOT.glob("starter/quiz/*.md")])
#: Sources written to be refused by an output (tests/test_moodle_types.py checks the refusals):
#: scored in the outputs that take them.
TARGETS = {ROOT / "tests/fixtures/moodle-limits.yaml": frozenset({"qti21", "canvas"})}


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
    kinds = {q.type for source in SOURCES for q in read(source).iter_questions()}
    assert set(SCORED) <= kinds


#: What the sources above lack: a right answer with feedback of its own, in each kind that has
#: per-answer feedback (the condition that shows it must not end the scoring), and a right
#: numerical answer with a percent margin (Canvas takes full-credit answers only).
OWN_FEEDBACK = """---
title: Own feedback
---
1. Name the capital of France. {#city type=short_answer}

Answer: Paris
   Feedback: Right, Paris.
Answer (50%): Lyon
   Feedback: A big city, not the capital.

2. How many legs has a spider? {#legs type=numerical}

Answer: 8
   Feedback: Eight, yes.

3. Pick the even number. {#even}

A) 2
   Feedback: Two is even.
B) 3
   Feedback: Three is odd.

Answer: A

4. Roughly how many days has a year? {#year type=numerical}

Answer: 360 ± 5%
"""


def test_a_right_answer_with_its_own_feedback_scores_in_every_output(tmp_path: Path) -> None:
    source = tmp_path / "own-feedback.md"
    source.write_text(OWN_FEEDBACK, encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    quiz = read(source)
    assert [q.type for q in quiz.iter_questions()] == ["short_answer", "numerical", "single_choice", "numerical"]
    assert disagreements(Built.read(quiz, tmp_path / "dist")) == []


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(quizzes())
def test_every_output_scores_generated_quizzes_as_meant(quiz: Quiz) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "generated.yaml"
        source.write_text(quiz.model_dump_json(exclude_none=True), encoding="utf-8")  # JSON is YAML
        try:
            build(BuildOptions(sources=[source], out_dir=Path(folder) / "dist"))
        except BuildIncomplete:
            assume(False)  # refused with a located reason (a blank in code, a score Moodle cannot store)
        assert disagreements(Built.read(quiz, Path(folder) / "dist")) == []


def test_every_machine_scored_kind_of_the_registry_is_graded() -> None:
    """SCORED comes from src/qti_builder/kinds.py: each kind a machine scores has attempts (or is
    graded set by set), and the others none."""
    from helpers.scoring import CALCULATED, attempts

    from qti_builder.kinds import KINDS

    assert set(SCORED) == {name for name, spec in KINDS.items() if spec.scoring in ("all_or_nothing", "partial")}
    assert set(CALCULATED) <= set(SCORED)
    quiz = read(ROOT / "tests/fixtures/all-types.yaml")
    for q in quiz.iter_questions():
        assert bool(attempts(quiz, q)) == (q.type in SCORED and q.type not in CALCULATED), q.type
