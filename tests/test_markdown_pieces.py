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
                  source.text_lines, source.unread, source.left_out_numbers]
    return found


@pytest.fixture
def every_size(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every source read in pieces, on "workers" too, its sections in runs of one question; the
    first line of each piece read is listed."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 1)
    return count_piece_reads(monkeypatch)


@pytest.mark.parametrize("run", [1, 2, 10**9], ids=["runs of 1", "runs of 2", "whole sections"])
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_reads_the_same_in_pieces(source: Path, run: int, every_size: list[int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", run)
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
    # A question its form's reader refused (marks for two of three statements, QB190) is left
    # unread (SourceMap.unread), in its piece's places too.
    "statements judged by too few marks": _quiz(_part("One"), "# Two\n\n1. Which are true?\n\n1) one\n2) two\n3) three\n\nAns. o x\n",
                                                _part("Three")),
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
    the cache at their new lines and section indexes, and the reading is the whole reading's: the
    places of a stem written over two lines too (``SourceMap.text_lines``, moved with its section)."""
    two_lines = "\n4. Question 4,\n   over two lines?\n\nA) one\nB) two\n\nAnswer: A\n"
    parts = [_part(f"Part {k}", count=3) + two_lines for k in range(1, 7)]
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



# -- runs of a section's questions ------------------------------------------------------------


def _bank(count: int = 12, title: str = "Part 1", intro: str = "", broken: tuple[int, ...] = ()) -> str:
    """One long top-level section (and a short one after it); question ``n`` in ``broken`` has no
    answer (an error at its line). Every fourth question's stem is written over two lines (its
    places are ``SourceMap.text_lines``', moved with its run)."""
    questions = [QUESTION.format(n=n, answer="A").replace("Answer: A\n", "" if n in broken else "Answer: A\n")
                 .replace(f"{n}. Question {n}?\n", f"{n}. Question {n},\n   over two lines?\n" if n % 4 == 0 else f"{n}. Question {n}?\n")
                 for n in range(1, count + 1)]
    return _quiz(f"# {title}\n\n{intro}" + "\n".join(questions), _part("Last"))


@pytest.fixture
def runs_of_3(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pieces from any size, sections in runs of 3 questions; the first line of each piece read."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 3)
    return count_piece_reads(monkeypatch)


def _line_of(text: str, starts: str) -> int:
    return next(i for i, line in enumerate(text.split("\n")) if line.startswith(starts))


def test_an_edit_in_the_middle_of_a_section_reads_one_run_again(tmp_path: Path, runs_of_3: list[int]) -> None:
    """One question edited, then one added, in the middle of a long section: only the run that
    holds it is read again (the runs after it taken at their new lines and question indexes),
    and the reading is the whole reading's, places, numbers and diagnostics too."""
    source = tmp_path / "bank.md"
    text = _bank(broken=(11,))
    source.write_text(text, "utf-8")
    store = _Store()
    assert _reading(source, store.pieces()) == _reading(source, None)
    assert _line_of(text, "4. ") in runs_of_3 and _line_of(text, "10. ") in runs_of_3  # read in runs
    starts = list(runs_of_3)
    edited = text.replace("5. Question 5?", "5. Question 5, edited?")
    source.write_text(edited, "utf-8")
    runs_of_3.clear()
    assert _reading(source, store.pieces()) == _reading(source, None)
    # The run that holds it, and the piece before where its line begins the run (a piece's
    # reading looks one line ahead).
    holds = max(start for start in starts if start <= _line_of(edited, "5. "))
    assert runs_of_3 == [holds] or runs_of_3 == [max(start for start in starts if start < holds), holds]
    added = text.replace("5. Question 5?", "5. Question 5?\n\nA) one\nB) two\n\nAnswer: B\n\n5. Added?")
    source.write_text(added, "utf-8")
    runs_of_3.clear()
    assert _reading(source, store.pieces()) == _reading(source, None)
    # The runs near it, and the one with a diagnostic (its messages may name lines): not the others.
    assert len(runs_of_3) <= 3 and _line_of(added, "# Last") not in runs_of_3


def test_diagnostics_of_a_run_name_its_lines_after_lines_added_before_it(tmp_path: Path, runs_of_3: list[int]) -> None:
    """A run with an error, after lines were added before it: its error names the line it is on
    now (the run is read again: its messages may name lines), and the runs without one are taken
    where they have moved."""
    source = tmp_path / "bank.md"
    text = _bank(broken=(8,))
    source.write_text(text, "utf-8")
    store = _Store()
    _reading(source, store.pieces())
    edited = text.replace("2. Question 2?", "2. Question 2?\nof three\nlines?")
    source.write_text(edited, "utf-8")
    runs_of_3.clear()
    reading = _reading(source, store.pieces())
    assert reading == _reading(source, None)
    assert any(f"line={_line_of(edited, '8. ') + 1}" in d for d in reading[0])
    assert _line_of(edited, "10. ") not in runs_of_3  # taken where it moved


@pytest.mark.parametrize("worth", [12, 14])
def test_a_section_read_in_runs_checks_its_stated_total_once_whole(tmp_path: Path, runs_of_3: list[int], worth: int) -> None:
    """A heading that states its section's points (QB197): checked against all its questions,
    once its runs are put together, not against the first run's."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(title=f"Part 1 ({worth} points)"), "utf-8")
    reading = _reading(source, _Store().pieces())
    assert reading == _reading(source, None)
    assert len(runs_of_3) > 3  # read in runs
    assert [d for d in reading[0] if "QB197" in d] == ([] if worth == 12 else [next(d for d in reading[0] if "QB197" in d)])
    assert ("QB197" in "".join(reading[0])) == (worth != 12)


def test_runs_are_read_by_their_section_s_points_rule(tmp_path: Path, runs_of_3: list[int]) -> None:
    """A section whose introduction holds its points rule (each question 5 points) and text: its
    runs' questions are worth what the rule says, as in the whole reading, and the section keeps
    its introduction."""
    source = tmp_path / "bank.md"
    source.write_text("---\ntitle: 시험\nlanguage: ko\n---\n\n# 一、选择题\n\n（每题5分，共60分）\n\n"
                      + "\n".join(QUESTION.format(n=n, answer="A") for n in range(1, 13)) + "\n" + _part("Last"), "utf-8")
    reading = _reading(source, _Store().pieces())
    assert reading == _reading(source, None)
    assert len(runs_of_3) > 3  # read in runs
    assert {q["points"] for q in reading[1]["sections"][0]["questions"]} == {5}


def test_a_section_s_introduction_stays_with_it(tmp_path: Path, runs_of_3: list[int]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(intro="Read each question\ncarefully.\n\n"), "utf-8")
    reading = _reading(source, _Store().pieces())
    assert reading == _reading(source, None)
    assert len(runs_of_3) > 3 and reading[1]["sections"][0]["description"] == "Read each question\ncarefully."


SPANNING = {
    # Lines numbered as questions inside a code fence: never where a run begins.
    "code fence": ("3. Question 3?\n\n```\n4. not a question\n5. nor this\n6. nor this\n7. nor this\n```\n\nA) one\nB) two\n",
                   "```"),
    # A passage for questions 3 to 5: its questions are not split from it.
    "passage": ("[3~5] Read this passage.\n\n3. Question 3?", "[3~5]"),
    # Options numbered as questions are (``1)`` under a quiz numbered ``1.``): each the next
    # option after the one before, never the first question of a run.
    "options numbered as questions": ("3. Question 3?\n\n1) one\n2) two\n3) three\n4) four\n5) five\n6) six\n\nAnswer: 1\n\n"
                                      "33. Question 33?", "3. Question 3?"),
}


@pytest.mark.parametrize("what", SPANNING, ids=SPANNING.keys())
def test_a_run_never_begins_inside_a_fence_or_a_passage(tmp_path: Path, runs_of_3: list[int], what: str) -> None:
    """Lines numbered as questions inside a code fence, the questions of a passage, options
    numbered as questions: the reading is the whole reading's (a run is never taken from a line
    the whole reading does not read as a question's first after nothing carried), and no piece
    read begins inside the fence."""
    insert, opener = SPANNING[what]
    text = _bank().replace("3. Question 3?", insert, 1)
    source = tmp_path / "bank.md"
    source.write_text(text, "utf-8")
    reading = _reading(source, _Store().pieces())
    assert reading == _reading(source, None)
    lines = text.split("\n")
    if what == "code fence":
        begins = _line_of(text, opener)
        assert not [start for start in runs_of_3 if begins < start < lines.index("```", begins + 1)]
    elif what == "passage":  # its questions' pieces may be read: they are then not taken
        assert reading[1]["sections"][0]["questions"][4]["passage"] == "[3~5] Read this passage."
    else:
        assert [len(q["choices"]) for q in reading[1]["sections"][0]["questions"][2:4]] == [6, 2]


def test_a_key_after_a_run_answers_questions_of_the_runs_before(tmp_path: Path, runs_of_3: list[int]) -> None:
    """``1. B`` and ``2. A`` after the last question of a run: an answer key whose entries are
    numbered as questions of another run (the whole reading reads them so): the source is read
    as whole, not those lines as questions of the run."""
    text = _bank().replace("\n# Last", "\n1. B\n2. A\n\n# Last")
    source = tmp_path / "bank.md"
    source.write_text(text, "utf-8")
    reading = _reading(source, _Store().pieces())
    assert reading == _reading(source, None)
    assert not [q for s in reading[1]["sections"] for q in s["questions"] if q["stem"] in ("A", "B")]
