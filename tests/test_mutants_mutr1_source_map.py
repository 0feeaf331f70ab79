"""Where things are in a source (readers/source_map.py), as the author reads it: the lines each
question of ``check --outline`` came from, and the place of a problem inside a text over several
lines.

Each source is written here by hand; every expected line and column is counted in the text
written here or found by searching it, never taken from the reader. (Issue 35's mutation run
over the readers: these tests kill the survivors of ``last_line``, ``_is_start``,
``structure_starts`` and ``SourceMap.text_position``.)
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run

PAPER = """\
---
title: Paper
---

# Part 1

1. 2 + 2 = ? {#a points=3}

A) 3
B) 4

Answer: B

Questions 2-3 refer to the following passage.

Light bends when it enters water.

2. Why? {#b points=3}

A) refraction
B) reflection

Answer: A
3. Where? {#c points=3}

A) water
B) air

Answer: A

# Part 2

4. First? {#d}

A) yes
B) no

Answer: A



"""


def lines_of(text: str, first: str, last: str) -> str:
    """'lines a-b' from the line holding ``first`` to the next line holding ``last``, by searching."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if first in line)
    end = next(i for i, line in enumerate(lines) if i > start and last in line)
    return f"lines {start + 1}-{end + 1}"


def test_each_question_of_the_outline_is_the_lines_it_was_written_on(tmp_path: Path) -> None:
    # A question ends before the next question, passage or section starts (the blank lines
    # between left out): its options and labels are its own lines, never starts of their own;
    # the last question ends at its last written line, not at the blank lines closing the file;
    # question 3 starts on the line after question 2's answer.
    write(tmp_path, "paper.md", PAPER)
    code, out, err = run("check", "paper.md", "--outline", "-j", "1", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[2:8] == [
        f"  1. single choice | answer B | 3 points | {lines_of(PAPER, '1. 2 + 2', 'Answer: B')}",
        f"  passage ({lines_of(PAPER, 'Questions 2-3', 'Light bends')}): questions 2-3",
        f"  2. single choice | answer A | 3 points | {lines_of(PAPER, '2. Why?', 'Answer: A')}",
        f"  3. single choice | answer A | 3 points | {lines_of(PAPER, '3. Where?', 'Answer: A')}",
        f"section Part 2 ({lines_of(PAPER, '# Part 2', 'Answer: A')})",
        f"  4. single choice | answer A | 1 point | {lines_of(PAPER, '4. First?', 'Answer: A')}",
    ]


def test_the_section_before_a_section_ends_at_its_last_question(tmp_path: Path) -> None:
    write(tmp_path, "paper.md", PAPER)
    code, out, _ = run("check", "paper.md", "--outline", "-j", "1", "--lang", "en", cwd=tmp_path)
    lines = PAPER.split("\n")
    part1 = lines.index("# Part 1") + 1
    last_answer = max(i for i, line in enumerate(lines) if line == "Answer: A" and i < lines.index("# Part 2")) + 1
    assert code == 0 and out.splitlines()[1] == f"section Part 1 (lines {part1}-{last_answer})"


TAGS = """\
title: Tags
sections:
  - id: s1
    title: Part 1
    questions:
      - type: essay
        id: q1
        stem: |
          <font>Same</font> starts the text.
          <font>Same</font> starts the text.
          Then <s>this</s> and
          <font>key</font> starts a line.
"""


def test_a_problem_at_the_start_of_each_line_of_a_block_text_is_placed_there(tmp_path: Path) -> None:
    # The raw tag at the very start of the text, at the start of a line written twice, and at the
    # start of a line below a line without one: each warning where its '<font>' is written.
    write(tmp_path, "tags.yaml", TAGS)
    code, _, err = run("check", "tags.yaml", "-j", "1", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    lines = TAGS.split("\n")
    places = [(i + 1, line.index("<font>") + 1) for i, line in enumerate(lines) if "<font>" in line]
    assert len(places) == 3
    assert [line for line in err.splitlines() if "QB150" in line] == [
        f"tags.yaml:{line}:{column}: warning[QB150]: raw HTML <font> is not allowed and was removed (its text is kept)"
        for line, column in places
    ]


def test_a_one_line_block_text_below_its_key_is_placed_on_its_own_line(tmp_path: Path) -> None:
    # A YAML block text of one line, on the line under its key: a problem in it is on that line,
    # not on the key's. The key's '|' is placed (line 11, column 11) so that the text's column is
    # the key's column and its line the key's line plus one: only the text's own line tells where.
    lines = ["title: T", "sections:", "- id: s", "  title: S", "  questions:", "  - type: essay", "    id: e",
             "    # b", "    # c", "    # d", "    stem: |", "          Compute \\[x+1\\] now.", "    model_answer: x"]
    assert (lines[10].index("|") + 1, len(lines[11]) - len(lines[11].lstrip()) + 1) == (11, 11)
    write(tmp_path, "q.yaml", "\n".join(lines) + "\n")
    code, out, err = run("check", "q.yaml", "--lang", "en", cwd=tmp_path)
    column = lines[11].index("\\[") + 1
    assert f"q.yaml:12:{column}: warning[QB153]: display math" in err, err
