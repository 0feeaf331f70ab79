"""What users receive from the Moodle XML writer, for the mutants of ``writers/moodle.py`` that
survived the whole-module mutmut run of issue 35 (fourth session). Each test reads the output as
Moodle 4.5 reads it (``helpers.moodle_engine``, a port of Moodle's own import and grading code,
or lxml over the file) or reads the diagnostic an author reads; the expected values are worked
out here from the source and Moodle's rules, never taken from the writer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import write
from helpers.moodle_engine import FRACTION_OPTIONS
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import Diagnostic
from qti_builder.pipeline import BuildFailed


def _moodle_errors(tmp_path: Path, name: str, text: str) -> list[Diagnostic]:
    out = tmp_path / "dist"
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[write(tmp_path, name, text)], out_dir=out, formats=["moodle"]))
    assert not out.exists()
    return [d for d in failed.value.diagnostics if d.severity.value == "error"]


# -- QB321: a score Moodle cannot store ------------------------------------------------------------

#: Short answers whose names have spaces, two of them at one score Moodle has no option for, and a
#: multiple-response question whose scores, one negative, all miss Moodle's options.
UNSTORABLE = """id: unstorable
title: Unstorable
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: wines
        stem: Name a wine.
        answers:
          - {text: rosé, score: 100}
          - {text: red wine, score: 35}
          - {text: white wine, score: 35}
      - type: multiple_response
        id: mix
        stem: Which are right?
        choices:
          - {id: A, text: one, correct: true, score: 13}
          - {id: B, text: two, correct: true, score: 87}
          - {id: C, text: three, correct: false, score: -87}
"""

#: Moodle's grade options as its importer lists them (question_bank::fraction_options_full), in
#: percent, written here from Moodle's list in the test helpers (not from the writer's table).
GRADE_OPTIONS = sorted({round(abs(f) * 100, 5) for f in FRACTION_OPTIONS}, reverse=True)


def test_a_score_moodle_cannot_store_names_every_answer_and_the_nearest_grade_option(tmp_path: Path) -> None:
    """The error an author reads for scores Moodle would refuse: each score once, the answers
    given it named together, and the grade option nearest to it: 35 % is nearest 33.33333 %,
    13 % nearest 12.5 %, 87 % nearest 90 % (not 83.33333 %), and -87 % nearest -90 %."""
    wines, mix = _moodle_errors(tmp_path, "unstorable.yaml", UNSTORABLE)
    assert (wines.code, mix.code) == ("QB321", "QB321")
    assert wines.message == ("Moodle cannot store the scores of question 'wines': 35 % (answers 'red wine', "
                             "'white wine'; nearest option 33.33333 %) is not one of its grade options")
    assert mix.message == ("Moodle cannot store the scores of question 'mix': 13 % (choice A; nearest option 12.5 %); "
                           "87 % (choice B; nearest option 90 %); -87 % (choice C; nearest option -90 %) "
                           "is not one of its grade options")


def test_the_hint_for_a_score_moodle_cannot_store_lists_moodle_s_grade_options(tmp_path: Path) -> None:
    """The hint tells the author which scores Moodle takes: exactly Moodle's grade options, in
    its order, and their negatives; and the two ways out."""
    errors = _moodle_errors(tmp_path, "unstorable.yaml", UNSTORABLE)
    for error in errors:
        hint = error.hint or ""
        listed = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", hint.split(":")[0])]
        assert listed == GRADE_OPTIONS, hint
        assert hint == ("Moodle's grade options are 100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, "
                        "30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5 and 0 % and their negatives: give "
                        "explicit scores from them (a multiple-response question's adding up to 100 %), or leave "
                        "Moodle out with --format")
