"""A section read in runs of its questions (readers/markdown/pieces.py) reads as the whole
source does where a run's first line is read differently after the lines before it than first
(``Scanner._opening`` against ``Scanner._peek``), or where the lines before it reach past it
(``Scanner.ends_clean``). Written against hand mutants of those checks that survived the piece
tests (issue 34, seventeenth session): each source here fails with one of them.

The other hand mutants of those checks survive because another check covers each (a run's first
line is a question numbered with digits at the margin, :func:`pieces.piece_starts`; its run is
read from the numbering and within the section the piece before ends with, and with nothing open):

- ``_opening``: ``after != index + 1``, ``q is previous``, ``q.line != index + 1``: every way a
  line opens a question at its own line goes on at the next line (a recovery opens one at an
  earlier line and reads on from there), and the draft compared holds the question's line,
  counted from the line read (the question before's is not 1); ``q.section is not
  self.stack[0]``: a question is opened in the section on top of the stack (``len(self.stack)
  != 1`` checks the rest: "section marker before a run" fails once both, and ``_peek``'s stack
  checks, are gone); ``self.current is not q.stem``: the only other block a line that opens a
  question leaves open is one of its options (inline), in the draft; ``q.passages``: no passage
  is open on either side (``carries_nothing``), and the draft holds them; the question before
  and the block before unchanged: ``_peek`` leaves such a change in the piece before, where the
  whole reading makes it too; ``form``: both sides read the line from the same numbering
  (``read_pieces`` reads a run again otherwise), and the numbering after is that one or the
  line's; ``recovered > index``: a recovery at the line reports QB146/QB147 there, in the
  diagnostics compared; the diagnostics: a line opening a question reports only at itself, the
  same on both sides (``_peek`` runs only where nothing was reported at or past it).
- ``_peek``: ``self.stack[0] is not self.roots[0]``: the bottom of the stack is always a root;
  ``self.roots[0].children``: a subsection stays on the stack (``len(self.stack) != 1``); a
  diagnostic past the line: every diagnostic of the scan is at the line read or before it, and
  the piece ends clean only at its end; ``self.reported`` restored: only the checks after the
  scan report after the peek, at the piece's own lines.
- ``scan``: ``peek`` without ``ends_clean``: a piece that runs follow is never the last, and
  one that does not end clean does not fit (``read_piece``; the task heading source fails once
  both are gone).
- ``carries_nothing``: ``not self.keys``: a piece with a key does not fit (``read_piece``);
  ``not self.instructions``: a numbered line under open instructions is their text (no question
  is opened), and the state compared holds them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.pieces import count_piece_reads
from test_markdown_pieces import _reading, _Store

from qti_builder.readers.markdown import pieces


@pytest.fixture
def runs_of_1(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pieces from any size, every question but a section's first beginning a run; the first
    line of each piece read."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 1)
    return count_piece_reads(monkeypatch)


FRONT = "---\ntitle: Runs\n---\n\n"

#: Each source's lines read in runs and whole must give the same reading.
SOURCES = {
    # A task heading (``Aufgabe 2``) reads the lines after it up to an answer, past the next
    # run's first line (QB196 at the heading): the scan before the run ends past its end, not at
    # it (``index == stop`` in ``ends_clean``), though nothing is open after it.
    "task heading read past the run": "# Part 1\n2. Question 2?\nAufgabe 2 (je 2 Punkte)\n3. Question 3?\n"
                                      "2.2 Noch eine?\n정답: ①\n",
    # A run's first line that gives a diagnostic as it is read (QB109, an attribute a question
    # does not take): the piece before reads it too (``_peek``), and its diagnostic goes with the
    # line read there, not into the piece's.
    "diagnostic on a run's first line": "# Part 1\n\n1. Question 1?\n\nA) one\nB) two\n\nAnswer: A\n\n"
                                        "2. Question 2? {bogus=1}\n\nA) one\nB) two\n\nAnswer: A\n\n# Last\n\n"
                                        "3. Question 3?\n\nA) one\nB) two\n\nAnswer: A\n",
    # An exam paper's section marker (``Ⅱ. 단답형``, level 7: no ``#``, so runs go on after it)
    # opens a subsection: the questions after it are its, and a run there would put them in
    # the top-level section. The piece before it does not read its next line (``_peek``: one
    # section open, without subsections), nor does that line open a question there (``_opening``).
    "section marker before a run": "# Part 1\n\n1. Question 1?\n\nA) one\nB) two\n\nAnswer: A\n\nⅡ. 단답형\n\n"
                                   "2. Question 2?\n\nA) one\nB) two\n\nAnswer: A\n\n3. Question 3?\n\nA) one\nB) two\n\n"
                                   "Answer: A\n\n# Last\n\n4. Question 4?\n\nA) one\nB) two\n\nAnswer: A\n",
}


@pytest.mark.parametrize("text", SOURCES.values(), ids=SOURCES.keys())
def test_runs_read_as_the_whole_section(text: str, tmp_path: Path, runs_of_1: list[int]) -> None:
    source = tmp_path / "runs.md"
    source.write_text(FRONT + text, "utf-8")
    whole = _reading(source, None)
    store = _Store()
    assert _reading(source, store.pieces()) == whole
    assert len(runs_of_1) > 1  # its runs were read
    assert _reading(source, store.pieces()) == whole  # from the cache
