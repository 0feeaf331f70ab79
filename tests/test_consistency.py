"""Both packages grade a student alike: cases where QTI and Moodle rules differ by default."""

from __future__ import annotations

from pathlib import Path

from helpers import write
from lxml import etree

from qti_builder import BuildOptions, build

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
    by_id = {q.findtext("idnumber").split(".")[-1]: q for q in root.findall("question") if q.get("type") != "category"}
    assert [(a.findtext("text"), a.get("fraction")) for a in by_id["city"].findall("answer")] == [("Paris", "100"), ("*Par*", "50")]
    assert [(a.findtext("text"), a.get("fraction")) for a in by_id["mile"].findall("answer")] == [("1609", "100"), ("1600", "50")]
