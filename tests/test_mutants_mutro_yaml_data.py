"""YAML read as data with every value's place (readers/yaml_data.py): where a problem inside a
quoted text written over several lines is shown, as ``qti-builder check`` prints it.

Each source is written here by hand; each place is found by searching the text written here,
never taken from the reader. (Issue 35's sixth mutation run over the readers, sampled: this kills
``_Builder.written``'s survivors.)
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run

QUOTED = """\
title: Tags
sections:
  - id: s1
    title: Part 1
    questions:
      - type: essay
        id: q1
        stem: "First <font>line</font> of the stem
          and <font>here</font> it ends"  # a comment after the closing quote
"""


def test_a_problem_on_the_last_line_of_a_quoted_text_is_placed_where_it_is_written(tmp_path: Path) -> None:
    # The quoted text's last line ends at its closing quote: what follows (the quote, a comment)
    # is no part of the text, and the tag on that line is shown at its own line and column, as
    # is the one on its first line.
    write(tmp_path, "tags.yaml", QUOTED)
    code, _, err = run("check", "tags.yaml", "-j", "1", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    lines = QUOTED.split("\n")
    places = [(i + 1, line.index("<font>") + 1) for i, line in enumerate(lines) if "<font>" in line]
    assert places == [(8, 22), (9, 15)]  # counted by hand as well: 'stem: "First ' and 10 spaces + 'and '
    assert [line for line in err.splitlines() if "QB150" in line] == [
        f"tags.yaml:{line}:{column}: warning[QB150]: raw HTML <font> is not allowed and was removed (its text is kept)"
        for line, column in places
    ]
