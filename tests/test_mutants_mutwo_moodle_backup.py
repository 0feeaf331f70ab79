"""The Moodle quiz backup (writers/moodle_backup.py), where a sampled mutmut mutant survived the
selected tests (issue 35, sixth session): what Moodle 4.5's restore stores, read with lxml from the
backup's own parts, checked against sources written here by hand.

Outside [tool.mutmut]'s selection: run against its survivors by ``tools/mutation.py --recheck
--sample 50 --also tests/test_mutants_mutwo_moodle_backup.py writers/moodle_backup.py``.
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.moodle_backup import read_backup
from qti_builder import BuildOptions, build

#: A section with a text of its own (shown to students at its start) and one question.
SECTION_TEXT = """---
id: desc
title: Description check
---

# Part one {#one}

Read the passage before you answer.

1. Is water wet? {#q1 points=2}

Answer: true
"""


def test_a_sections_text_is_a_description_worth_nothing_as_moodle_stores_one(tmp_path: Path) -> None:
    """Moodle's description type forces a default mark of 0 whatever is saved
    (qtype_description::save_question), and a slot a teacher adds again from the quiz's bank takes
    its mark from the question's default mark: a description worth 1 would add a point no student
    can earn. The section's text is the bank's one description, with mark 0; its slot is worth 0."""
    source = write(tmp_path, "desc.md", SECTION_TEXT)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "desc.mbz").read_bytes())
    questions = {q.findtext("qtype"): q for q in backup.questions.iter("question")}
    assert sorted(questions) == ["description", "truefalse"]
    description = questions["description"]
    assert description.findtext("questiontext") == "<p>Read the passage before you answer.</p>"
    assert float(description.findtext("defaultmark")) == 0.0
    assert float(questions["truefalse"].findtext("defaultmark")) == 2.0
    assert [s.maxmark for s in backup.slots()] == [0.0, 2.0]
    assert backup.setting("sumgrades") == "2.0000000"
