"""The total a paper states (readers/stated_total.py), as the author reads it back in QB219.

Each paper is written here by hand; the place a diagnostic must name is found by searching the
paper's text for the words, and the words the message quotes are written out, never taken from
the reader's own output. (Issue 35's mutation run over the readers: these tests kill the
survivors of ``find_stated_total``.)
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import write
from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def paper(head: str) -> str:
    """A paper whose head line is ``head`` and whose two questions add up to 6 points."""
    return (f"---\ntitle: Paper\n---\n\n{head}\n\n"
            "1. 2 + 2 = ? {#a points=3}\n\nA) 3\nB) 4\n\nAnswer: B\n\n"
            "2. 3 + 3 = ? {#b points=3}\n\nA) 6\nB) 5\n\nAnswer: A\n")


def qb219(tmp_path: Path, text: str) -> list[str]:
    """``qti-builder check`` on the paper: its QB219 lines as printed (file:line:col: error[QB219]: ...)."""
    write(tmp_path, "paper.md", text)
    code, _, err = run("check", "paper.md", "-j", "1", "--lang", "en", cwd=tmp_path)
    found = [line for line in err.splitlines() if "error[QB219]" in line]
    assert code == 1 and found, err
    return found


def place(text: str, words: str) -> tuple[int, int]:
    """Line and column (1-based) of ``words`` in the paper, by searching its text."""
    lines = text.split("\n")
    number = next(i for i, line in enumerate(lines) if words in line)
    return number + 1, lines[number].index(words) + 1


def test_a_total_after_a_character_nfkc_widens_is_quoted_and_placed_as_written(tmp_path: Path) -> None:
    # '㈜' folds to three characters, '：' and '５０' to ASCII: the reader folds the line character
    # by character, so the words found are where the author wrote them, full-width as written.
    head = "㈜한빛 Total：５０ points"
    text = paper(head)
    line, column = place(text, "Total：５０ points")
    assert qb219(tmp_path, text) == [
        f"paper.md:{line}:{column}: error[QB219]: the paper says Total：５０ points, its questions add up to "
        "6 points (44 missing): Paper: 6 points in 2 questions"]


def test_the_longest_words_that_start_first_are_quoted(tmp_path: Path) -> None:
    # 'Total: 10' (English) and 'Total: 10 puntos' (Spanish) both start at 'Total': the message
    # quotes the longer, as the paper writes it.
    text = paper("Examen — Total: 10 puntos")
    line, column = place(text, "Total: 10 puntos")
    assert qb219(tmp_path, text) == [
        f"paper.md:{line}:{column}: error[QB219]: the paper says Total: 10 puntos, its questions add up to "
        "6 points (4 missing): Paper: 6 points in 2 questions"]


def test_a_total_in_the_title_is_placed_at_its_words_in_the_title(tmp_path: Path) -> None:
    text = paper("").replace("title: Paper", "title: 2024학년도 기말고사 총점 42점")
    line, column = place(text, "총점 42점")
    found = qb219(tmp_path, text)
    assert len(found) == 1
    assert re.match(rf"paper\.md:{line}:{column}: error\[QB219\]: the paper says 총점 42점, its questions add up to "
                    r"6 points \(36 missing\)", found[0]), found


def test_the_stated_total_read_is_the_number_the_paper_states(tmp_path: Path) -> None:
    sink = DiagnosticSink()
    read = read_quiz(write(tmp_path, "paper.md", paper("만점 ９５점")), sink)
    assert read is not None and read[0].stated_points == 95.0
