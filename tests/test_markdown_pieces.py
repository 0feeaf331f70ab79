"""A Markdown source read in pieces (readers/markdown/pieces.py) reads as the whole source does:
the same quiz, source map and diagnostics, for every source of the repository and for sources
whose top-level headings the whole reading does not take as a fresh start (a code fence, an
answer key, a passage, numbering carried over); the pieces' readings taken from a cache, and
moved (a section or lines added or removed before them), read the same too."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.pieces import count_piece_reads

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces

SOURCES = sorted([*ROOT.joinpath("source").glob("*.md"), *ROOT.joinpath("tests", "fixtures").glob("*.md"),
                  *ROOT.joinpath("starter", "quiz").glob("*.md"), *ROOT.joinpath("tests", "corpus").glob("*.md")])


class _Store:
    """A cache of pieces in memory, each entry pickled as the build cache's are."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def load(self, key: str) -> object | None:
        return pickle.loads(self.entries[key]) if key in self.entries else None

    def store(self, key: str, reading: object) -> None:
        self.entries[key] = pickle.dumps(reading)

    def pieces(self) -> Pieces:
        return Pieces(self.load, self.store, lambda tasks, work: reversed([work(t) for t in tasks]))  # any order


def _reading(path: Path, given: Pieces | None) -> list[Any]:
    sink = DiagnosticSink()
    read = read_quiz(path, sink, partial=True, pieces=given)
    found: list[Any] = [sorted(map(repr, sink.items))]
    if read:
        quiz, source = read
        found += [quiz.model_dump(), source.positions, source.numbers, source.scalars, source.partial, source.left_out,
                  source.text_lines]
    return found


@pytest.fixture
def every_size(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every source read in pieces, on "workers" too; the first line of each piece read is listed."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    return count_piece_reads(monkeypatch)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_reads_the_same_in_pieces(source: Path, every_size: list[int]) -> None:
    whole = _reading(source, None)
    store = _Store()
    assert _reading(source, store.pieces()) == whole
    every_size.clear()
    assert _reading(source, store.pieces()) == whole  # from the cache
    assert not every_size


QUESTION = "{n}. Question {n}?\n\nA) one\nB) two\n\nAnswer: {answer}\n"


def _quiz(*parts: str) -> str:
    return "---\ntitle: Pieces\n---\n\n" + "\n".join(parts)


def _part(title: str, count: int = 2, first: int = 1, form: str = ".") -> str:
    questions = "\n".join(QUESTION.format(n=n, answer="A").replace(f"{n}.", f"{n}{form}", 1) for n in range(first, first + count))
    return f"# {title}\n\n{questions}"


#: Sources whose pieces do not all read as a fresh start: each must read as its whole.
TRICKY = {
    "plain": _quiz(_part("One"), _part("Two"), _part("Three")),
    "fence with a heading inside": _quiz(_part("One"), "```\n# not a heading\n```\n", _part("Two")),
    "fence never closed": _quiz(_part("One"), "1. Code?\n\n```python\n# Two\nx = 1\n", _part("Three")),
    "answer key at the end": _quiz(
        "# One\n\n1. Question one?\n\nA) one\nB) two\n",
        "# Two\n\n2. Question two?\n\nA) one\nB) two\n",
        "# 정답\n\n1. A  2. B\n"),
    "passage over a heading": _quiz(_part("One"), "[3~4] Read this passage.\n", _part("Two", first=3)),
    "numbered with brackets": _quiz(_part("One", form=")"), _part("Two", form=")"), _part("Three", form=".")),
    "no question before the second heading": _quiz("# Intro\n\nJust text.\n", _part("One", form=")"), _part("Two")),
    "heading that asks": _quiz(_part("One"), "# What is two?\n\nAnswer: 2\n", _part("Three")),
    # The first line shaped like a question is code: the guess of the numbering (``1)``) is wrong,
    # and the second part, whose ``1) 2)`` are options under ``1.``, is read again from ``1.``.
    "numbering guessed wrong": _quiz("# One\n\n```\n1) code\n```\n\n1. First?\n\n1) one\n2) two\n\nAnswer: 1\n",
                                     "# Two\n\n1. Second?\n\n1) one\n2) two\n\nAnswer: 2\n"),
    "task heading before a heading": _quiz(
        "# One\n\nAufgabe 2 (je 2 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
        "2.2 Welche Zahl ist ungerade?\nA) 7\nB) 8\nAntwort: A\n", _part("Two"), _part("Three")),
    "closing mark": _quiz(_part("One"), "- 끝 -\n", _part("Two")),
    "broken question": _quiz(_part("One"), "# Two\n\n1. No options here\n\nAnswer: C\n", _part("Three")),
    # A piece's questions are built in the quiz's language: its true and false words ("참"), and
    # the examples its errors' hints give ("add a line '정답: ...'", not 'Answer: ...').
    # Bold marks a list's answers when any question's list has some items in bold, not all: a
    # list all in bold in one piece is options because of a list in another piece.
    "answers in bold across pieces": _quiz("# One\n\n1. Which is a process?\n    1. **process**\n    2. **program**\n",
                                           _part("Two", first=2),
                                           "# Three\n\n4. Which is a program?\n    1. process\n    2. **program**\n"),
    "answers in bold before the first heading": _quiz("1. Which is a process?\n    1. **process**\n    2. **program**\n",
                                                      _part("One", first=2),
                                                      "# Two\n\n4. Which is a program?\n    1. process\n    2. **program**\n"),
    # Options indented under their question are said once for the quiz (QB199), not once a piece.
    "options indented in two pieces": _quiz("# One\n\n1. First?\n   A) one\n   B) two\n\nAnswer: A\n",
                                            "# Two\n\n2. Second?\n   A) one\n   B) two\n\nAnswer: B\n"),
    "the quiz's language in every piece": "---\ntitle: 시험\nlanguage: ko\n---\n\n" + _part("하나") + "\n"
                                          + "# 둘\n\n1. 물은 100℃에서 끓는다.\n정답: 참\n\n2. 수도는? {type=short_answer}\n",
}


@pytest.mark.parametrize("text", TRICKY.values(), ids=TRICKY.keys())
def test_tricky_sources_read_the_same_in_pieces(text: str, tmp_path: Path, every_size: list[int]) -> None:
    source = tmp_path / "tricky.md"
    source.write_text(text, "utf-8")
    whole = _reading(source, None)
    assert _reading(source, _Store().pieces()) == whole


def test_the_answer_key_reads_the_source_whole(tmp_path: Path, every_size: list[int]) -> None:
    """An answer key answers questions of every section: its source is not taken in pieces (the
    key's piece does not fit), and its answers reach the questions of the first section."""
    source = tmp_path / "key.md"
    source.write_text(TRICKY["answer key at the end"], "utf-8")
    reading = _reading(source, _Store().pieces())
    assert every_size  # the pieces were tried
    assert reading == _reading(source, None)
    assert [[c["correct"] for c in q["choices"]] for s in reading[1]["sections"] for q in s["questions"]] == \
        [[True, False], [False, True]]


@pytest.mark.parametrize("change", ["section added", "lines added", "section removed"])
def test_pieces_taken_from_the_cache_where_they_have_moved(change: str, tmp_path: Path, every_size: list[int]) -> None:
    """Read once, then edited before its last pieces: the pieces after the edit are taken from
    the cache at their new lines and section indexes, and the reading is the whole reading's."""
    parts = [_part(f"Part {k}", count=3) for k in range(1, 7)]
    source = tmp_path / "moved.md"
    source.write_text(_quiz(*parts), "utf-8")
    store = _Store()
    _reading(source, store.pieces())
    if change == "section added":
        parts.insert(2, _part("Inserted", count=1))
    elif change == "lines added":
        parts[1] = parts[1].replace("# Part 2\n", "# Part 2\n\nAn introduction\nof two lines.\n")
    else:
        del parts[1]
    source.write_text(_quiz(*parts), "utf-8")
    every_size.clear()
    assert _reading(source, store.pieces()) == _reading(source, None)
    assert len(every_size) <= 2  # only the pieces edited, and the one before (it reads one line ahead)
