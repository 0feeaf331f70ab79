"""A problem inside a quiz's description (the text before its first section) or a section's
introduction (the text under its heading, before its questions) is reported where it is written.
Before, the description's place was its first line's, so a missing picture on its second line was
at the first line, and a section's introduction had no place of its own: its picture was reported
at the heading's line (found by issue 35's mutation work, ninth session). A source of 1,000 lines
or more is read in pieces: its later sections' introductions are placed alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import check_source
from helpers.reading import place

QUESTION = "1. What is shown? {{#q{n}}}\n\nA) A map\nB) A plan\n\nAnswer: A\n\n"

DESCRIPTION = ("---\ntitle: T\n---\n\nThis quiz is about maps.\nSee the map ![map](missing.png) below.\n\n"
               "# Part 1\n\n" + QUESTION.format(n=1))
INTRODUCTION = ("---\ntitle: T\n---\n\n# Part 1\n\nThis part is about maps.\n   See the map ![map](missing.png) below.\n\n"
                + QUESTION.format(n=1))
#: Over 1,000 lines: read in pieces, one per top-level section; the picture is in the third's introduction.
IN_PIECES = ("---\ntitle: T\n---\n\n"
             + "".join(f"# Part {part}\n\n" + ("This part is about maps.\nSee the map ![map](missing.png) below.\n\n"
                                               if part == 3 else "")
                       + "".join(QUESTION.format(n=part * 100 + k) for k in range(60)) for part in range(1, 5)))


@pytest.mark.parametrize("source", [DESCRIPTION, INTRODUCTION, IN_PIECES], ids=["description", "introduction", "in pieces"])
def test_a_missing_picture_in_an_introduction_is_reported_at_its_place(tmp_path: Path, source: str) -> None:
    assert source.count("\n") > 1_000 or source is not IN_PIECES
    code, reported = check_source(tmp_path, "quiz.md", source)
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB160", *place(source, "missing.png"))])

ONE_LINE = "---\ntitle: T\n---\n\nSee the map ![map](missing.png) below.\n\n# Part 1\n\n" + QUESTION.format(n=1)
SUBSECTION = ("---\ntitle: T\n---\n\n# Part 1\n\n## Maps\n\nThese are maps.\n\n"
              "1. Which is shown? ![map](missing.png) {#q1}\n\nA) A map\nB) A plan\n\nAnswer: A\n")


@pytest.mark.parametrize("source", [ONE_LINE, SUBSECTION], ids=["one-line description", "a subsection's question"])
def test_a_missing_picture_is_reported_at_its_place_in_one_line_and_in_a_subsection(tmp_path: Path, source: str) -> None:
    code, reported = check_source(tmp_path, "quiz.md", source)
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB160", *place(source, "missing.png"))])
