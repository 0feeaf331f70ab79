"""A question an import cannot keep because the quiz model refuses one of its values is named in
a warning (QB713) that says what is wrong in the words a source's author reads for the same
value, not in pydantic's: "'points' must be at least 0, not the number -2.0", not "Input should
be greater than or equal to 0 (at points)"; a value inside an entry names the entry, "answer 1:".
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import run

MOODLE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Negative</text></name>
    <questiontext format="html"><text>Pick one</text></questiontext>
    <defaultgrade>-2</defaultgrade>
    <single>true</single>
    <answer fraction="100"><text>A</text></answer>
    <answer fraction="0"><text>B</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>Too much</text></name>
    <questiontext format="html"><text>Capital of France?</text></questiontext>
    <answer fraction="250"><text>Paris</text></answer>
  </question>
  <question type="truefalse">
    <name><text>Kept</text></name>
    <questiontext format="html"><text>Is the sky blue?</text></questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
</quiz>
"""


def test_a_refused_value_is_said_as_an_author_reads_it(tmp_path: Path) -> None:
    (tmp_path / "export.xml").write_text(MOODLE_XML, encoding="utf-8")
    code, out, err = run("import", "export.xml", "-o", "out", cwd=tmp_path)
    assert code == 4, out + err  # questions were skipped (docs/import.md: exit 4)
    lines = MOODLE_XML.split("\n")
    first = lines.index('  <question type="multichoice">') + 1
    second = lines.index('  <question type="shortanswer">') + 1
    skipped = [line for line in err.splitlines() if "QB713" in line]
    assert skipped == [
        f"export.xml:{first}:1: warning[QB713]: question 'Negative' (multichoice) was skipped: "
        "'points' must be at least 0, not the number -2.0",
        f"export.xml:{second}:1: warning[QB713]: question 'Too much' (shortanswer) was skipped: "
        "answer 1: 'score' must be at most 100, not the number 250.0",
    ]
    assert "Input should" not in err
    assert "Is the sky blue?" in (tmp_path / "out" / "export.md").read_text(encoding="utf-8")
