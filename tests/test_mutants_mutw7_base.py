"""writers/base.py, where a sampled mutmut mutant survived every test file (issue 35, eighth
session): a ``--templates`` frame whose question lines are numbered wrong is refused with QB305 in
every target, and nothing else happens: no traceback, nothing written.

Outside [tool.mutmut]'s selection (``tools/mutation.py --recheck --also`` runs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, write
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed

TWO = """---
id: two
title: Two
---

1. Which? {#first}

A) x
B) y

Answer: A

2. Which again? {#second}

A) x
B) y

Answer: B
"""

#: Each target's frame, and its question line as the built-in template writes it.
FRAMES = {
    "moodle": ("moodle/quiz.xml.j2", "<!-- question: {{ number }} -->"),
    "canvas": ("canvas/assessment.xml.j2", "<!-- question: {{ number_of[entry.id] }} -->"),
    "moodle-quiz": ("moodle_backup/questions.xml.j2", "<!-- question: {{ number }} -->"),
    "qti21": ("qti21/imsmanifest.xml.j2", "<!-- question: {{ loop.index }} -->"),
}


@pytest.mark.parametrize("target", sorted(FRAMES))
def test_a_frame_whose_question_lines_are_numbered_from_2_is_qb305_alone(tmp_path: Path, target: str) -> None:
    """A copy of the frame that numbers its question lines from 2 (an edited loop) places no
    question 1 and a question 3 the quiz does not have: QB305 names the template and what it must
    write, and the build stops there: no other error, no traceback, no file."""
    name, line = FRAMES[target]
    frame = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert frame.count(line) == 1
    override = tmp_path / "templates" / name
    override.parent.mkdir(parents=True)
    override.write_text(frame.replace(line, line.replace(" }}", " + 1 }}")), encoding="utf-8")
    source = write(tmp_path, "two.md", TWO)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=[target], templates=tmp_path / "templates",
                           jobs=1))
    assert [d.code for d in failed.value.diagnostics] == ["QB305"]
    assert failed.value.diagnostics[0].message.startswith(f"{name} must write the line '<!-- question: N -->' once for "
                                                          "each question, N = 1 to 2")
    assert not (tmp_path / "dist").exists()
