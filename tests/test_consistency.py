"""Both packages grade a student alike: cases where QTI and Moodle rules differ by default."""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.scoring import Built, disagreements
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

SOURCE = """---
title: Consistency
---
1. Name the capital of France. {#city type=short_answer}

Answer (50%): *Par*
Answer: Paris

2. Roughly how many metres is a mile? {#mile type=numerical}

Answer (50%): 1600 ± 100
Answer: 1609 ± 1
"""


def test_moodle_answers_are_written_best_first(tmp_path: Path) -> None:
    """Moodle takes the first matching answer, QTI the best: "Paris" must score 100 in both."""
    build(BuildOptions(sources=[write(tmp_path, "c.md", SOURCE)], out_dir=tmp_path / "out", formats=["moodle"]))
    root = etree.parse(str(tmp_path / "out" / "c.moodle.xml")).getroot()
    by_id = {q.findtext("idnumber"): q for q in root.findall("question") if q.get("type") != "category"}
    assert [(a.findtext("text"), a.get("fraction")) for a in by_id["city"].findall("answer")] == [("Paris", "100"), ("*Par*", "50")]
    assert [(a.findtext("text"), a.get("fraction")) for a in by_id["mile"].findall("answer")] == [("1609", "100"), ("1600", "50")]


def test_both_packages_and_qti21_give_every_response_the_same_score(tmp_path: Path) -> None:
    """The claim of this module, checked by grading: Moodle's rules, QTI 1.2 processing as Canvas
    reads it and pyslet on QTI 2.1 give each response what the source means (helpers/scoring.py),
    "Paris" 100 % and "Parisian" 50 % (the wildcard) wherever the LMS has both."""
    source = write(tmp_path, "c.md", SOURCE)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "all"))
    result = read_quiz(source, DiagnosticSink())
    assert result is not None
    built = Built.read(result[0], tmp_path / "all")
    assert disagreements(built) == []
    city = next(q for q in result[0].iter_questions() if q.id == "city")
    assert [built.score(t, city, "Parisian") for t in ("qti21", "moodle")] == [0.5, 0.5]
    assert [built.score(t, city, "Paris") for t in ("qti21", "moodle", "canvas")] == [1.0, 1.0, 1.0]
