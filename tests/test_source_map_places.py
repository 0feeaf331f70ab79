"""Where ``SourceMap`` says a part is, for the places the readers did not record: a key's place
falls back to its value's, a place with nothing recorded above it to the file's start, a text
without recorded lines runs on from its field's column, and every question has its start,
subsections' too. Each expected place is counted in the text written here. (Hand mutants of
``locate``, ``text_position`` and ``question_locs`` survived the reader tests; each fails here.)"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from qti_builder.diagnostics import DiagnosticSink, SourceSpan
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces
from qti_builder.readers.registry import read_quiz
from qti_builder.readers.source_map import KEY, Places, SourceMap, is_head


def test_a_key_not_recorded_is_at_its_value_not_at_its_parent() -> None:
    source = SourceMap("q.md")
    source.at(("sections", 0, "questions", 0), 7, 1)
    source.at(("sections", 0, "questions", 0, "points"), 7, 24)
    assert source.locate(("sections", 0, "questions", 0, KEY, "points")) == SourceSpan("q.md", 7, 24)
    source.at(("sections", 0, "questions", 0, KEY, "points"), 7, 17)  # recorded: its own place
    assert source.locate(("sections", 0, "questions", 0, KEY, "points")) == SourceSpan("q.md", 7, 17)
    # neither recorded: the nearest place above
    assert source.locate(("sections", 0, "questions", 0, KEY, "feedback")) == SourceSpan("q.md", 7, 1)


def test_a_part_with_nothing_recorded_above_it_is_at_the_file_s_start() -> None:
    assert SourceMap("q.md").locate(("sections", 3, "questions", 2)) == SourceSpan("q.md", 1, 1)


def test_a_text_without_recorded_lines_runs_on_from_its_field_s_column() -> None:
    source = SourceMap("q.md")
    source.at(("sections", 0, "questions", 0, "text"), 12, 5)  # "1.  What is it?" -> the text at column 5
    text = "What is it?\nSecond line"
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, 0) == SourceSpan("q.md", 12, 5)
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, 8) == SourceSpan("q.md", 12, 13)
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, text.index("line")) == SourceSpan("q.md", 13, 8)


PAPER = """\
---
title: Places
---

# Part

1. Top question? {#top}

A) yes
B) no

Answer: A

## Sub part

2. Nested question? {#nested}

A) yes
B) no

Answer: B
"""


def test_every_question_has_its_start_a_subsection_s_too(tmp_path: Path) -> None:
    path = tmp_path / "q.md"
    path.write_text(PAPER, encoding="utf-8")
    read = read_quiz(path, DiagnosticSink())
    assert read is not None
    quiz, source = read
    lines = PAPER.split("\n")
    spans = source.question_spans(quiz)
    assert {ident: span.line for ident, span in spans.items()} == {
        "top": lines.index("1. Top question? {#top}") + 1, "nested": lines.index("2. Nested question? {#nested}") + 1}


def _kept(places: Places) -> Places:
    """``places`` as a cache entry gives them back: waiting, not made."""
    taken = pickle.loads(pickle.dumps(places))
    assert isinstance(taken, Places) and taken.waiting
    return taken


def test_places_waiting_go_in_after_those_before_them_and_under_those_after() -> None:
    """A cached piece's places wait; what was put in before them is under them, what is put in
    or written after them (a piece read here too) over them; a head is answered from them without
    making them, moved as they are (a section, a question, lines), and every place once they are
    made is where it would have been made at once."""
    def piece(line: int, run: bool = False) -> Places:
        question = ("sections", 0, "questions", 0)
        return Places({**({} if run else {("sections", 0): (line, 1)}), question: (line + 2, 1),
                       question + ("id",): (line + 2, 30), question + ("text",): (line + 2, 4)},
                      {}, {question: line}, {question + ("text",): ((1, 4, f"line {line}"),)}, {line + 5})

    eager, lazy = SourceMap("q.md"), SourceMap("q.md")
    for source in (eager, lazy):
        source.at(("title",), 2, 8)
        source.at(("sections", 1), 1)  # under the pieces placed as section 1
    for source, kept in ((eager, lambda p: p), (lazy, _kept)):
        source.take(kept(piece(10)), 1, 0, 3)
        source.take(piece(20), 1, 2, 0)  # read here: over the first's section, its question as question 2
        source.take(kept(piece(30, run=True)), 1, 0, 0)  # over the first's question
    assert lazy._waiting and not eager._waiting
    assert lazy.place(("sections", 1)) == (20, 1) and lazy.place(("sections", 1, "questions", 2)) == (22, 1)
    assert lazy.place(("sections", 1, "questions", 0, "id")) == (32, 30) and lazy.place(("title",)) == (2, 8)
    assert lazy.place(("sections", 0)) is None and lazy.place(("sections", 1, "questions", 1)) is None
    assert lazy.locate(("sections", 1, "questions", 0)) == SourceSpan("q.md", 32, 1) and lazy._waiting
    assert lazy.positions == eager.positions and not lazy._waiting  # asked for: made
    assert (lazy.scalars, lazy.numbers, lazy.text_lines, lazy.unread) == \
        (eager.scalars, eager.numbers, eager.text_lines, eager.unread) == \
        ({}, {("sections", 1, "questions", 0): 30, ("sections", 1, "questions", 2): 20},
         {("sections", 1, "questions", 0, "text"): ((1, 4, "line 30"),), ("sections", 1, "questions", 2, "text"): ((1, 4, "line 20"),)},
         {18, 25, 35})
    assert eager.positions[("sections", 1)] == (20, 1) and eager.positions[("sections", 1, "questions", 0)] == (32, 1)
    lazy.at(("sections", 1), 7)  # written after the pieces: over their places
    lazy.take(_kept(piece(40, run=True)), 1, 0, 0)
    assert lazy.place(("sections", 1)) == (7, 1) and lazy.place(("sections", 1, "questions", 0)) == (42, 1) and lazy._waiting
    assert lazy == pickle.loads(pickle.dumps(lazy))
    lazy.at(("sections", 1, "questions", 0), 9)  # over a piece waiting
    assert lazy.place(("sections", 1, "questions", 0)) == (9, 1) and lazy.numbers[("sections", 1, "questions", 0)] == 40
    # What a piece keeps apart of its places, for a build that asks for nothing else: its heads.
    question = ("sections", 0, "questions", 0)
    assert _kept(piece(50)).heads == {("sections", 0): (50, 1), question: (52, 1), question + ("id",): (52, 30)}


def test_a_rebuild_s_heads_are_where_a_reading_without_the_cache_puts_them(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A source read in pieces and runs, then rebuilt from them after edits that move them: every
    head the whole reading records (a section's, a question's start, an id's) and every question's
    span is the rebuild's before it makes any cached piece's places (it makes none for them), and
    once made, all its places are the whole reading's."""
    from test_cached_places import _sources

    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 4)
    made: list[int] = []
    real = Places.made

    def making(self: Places) -> object:
        made.append(self.waiting)
        return real(self)

    monkeypatch.setattr(Places, "made", making)
    for case in ("lines added", "section added", "question added in its section"):
        entries: dict[str, bytes] = {}
        kept = Pieces(lambda key: pickle.loads(entries[key]) if key in entries else None,
                      lambda key, reading: entries.__setitem__(key, pickle.dumps(reading)))
        first, edited = _sources(case, html=False)
        path = tmp_path / "q.md"
        path.write_text(first, "utf-8")
        assert read_quiz(path, DiagnosticSink(), pieces=kept) is not None
        path.write_text(edited, "utf-8")
        whole, rebuilt = read_quiz(path, DiagnosticSink()), read_quiz(path, DiagnosticSink(), pieces=kept)
        assert whole is not None and rebuilt is not None
        (quiz, source), (cold_quiz, cold) = rebuilt, whole
        made.clear()
        assert source.question_spans(quiz) == cold.question_spans(cold_quiz)
        heads = {loc: place for loc, place in cold.positions.items() if is_head(loc)}
        assert len(heads) > 144 and {loc: source.place(loc) for loc in heads} == heads
        assert {loc: source.locate(loc) for loc in heads} == {loc: cold.locate(loc) for loc in heads}
        assert source.place(("sections", 3, "questions", 99)) is None
        assert True not in made, case
        assert source._waiting and source.positions == cold.positions and True in made, case
        assert (source.scalars, source.numbers, source.text_lines, source.unread) == \
            (cold.scalars, cold.numbers, cold.text_lines, cold.unread)


# Hand mutants of source_map.py's places (eighteenth session) that the tests above let through;
# each test below fails on its mutant, named in its docstring.


def test_a_head_is_a_start_or_an_id_and_nothing_else() -> None:
    """``is_head``: a section's or a question's start, an id's, a Moodle ID number's, a
    quiz-wide field's; not an option's or a text's place, though it ends in an index (mutants:
    any index a head; ``moodle_idnumber`` left out)."""
    question = ("sections", 0, "questions", 3)
    for loc in (("sections", 2), question, question + ("id",), ("sections", 1, "moodle_idnumber"),
                question + ("moodle_idnumber",), ("title",)):
        assert is_head(loc), loc
    for loc in (question + ("options", 1), question + ("answers", 0), question + ("text",),
                question + ("options", 1, "text"), ("sections", 0, "description")):
        assert not is_head(loc), loc


def test_places_taken_again_are_passed_on_as_they_were_kept_without_being_made() -> None:
    """A piece's places kept by the cache, taken (on a worker, say) and pickled again to go on,
    are passed on as their kept bytes: not made on the way (mutant: pickled again from the made
    dicts every time)."""
    taken = _kept(Places({("sections", 0): (3, 1), ("sections", 0, "text"): (4, 1)}))
    again = pickle.loads(pickle.dumps(taken))
    assert taken.waiting and again.waiting
    assert again.made() == taken.made() and again.heads == {("sections", 0): (3, 1)}


def test_places_are_equal_only_with_the_same_places() -> None:
    """``Places.__eq__`` compares what they hold (a piece's reading compared with another's,
    PieceRead's equality, compares its places; mutant: any two equal)."""
    a = Places({("sections", 0): (3, 1)}, {}, {}, {}, {5})
    assert a == _kept(Places({("sections", 0): (3, 1)}, {}, {}, {}, {5}))
    assert a != Places({("sections", 0): (4, 1)}, {}, {}, {}, {5})
    assert a != Places({("sections", 0): (3, 1)}, {}, {}, {}, {6})


def _waiting_map() -> SourceMap:
    """A map with a cached piece's places waiting: a section at line 10, its question at 12, the
    question's text at 12:4 and points as written ``1.50`` (a scalar), read as section 0 and put
    in as section 1, three lines on."""
    question = ("sections", 0, "questions", 0)
    kept = _kept(Places({("sections", 0): (10, 1), question: (12, 1), question + ("text",): (12, 4),
                         question + ("points",): (13, 9)}, {question + ("points",): "1.50"}))
    source = SourceMap("q.md")
    source.take(kept, 1, 0, 3)
    assert source._waiting
    return source


def test_a_place_that_is_not_a_head_is_found_in_the_places_waiting() -> None:
    """``place`` and ``locate`` of any part but a head make the places waiting, and give its own
    place, not its question's (mutant: every path answered from the heads alone)."""
    text = ("sections", 1, "questions", 0, "text")
    assert _waiting_map().place(text) == (15, 4)
    assert _waiting_map().locate(text) == SourceSpan("q.md", 15, 4)


def test_the_scalars_of_cached_pieces_go_in_moved_as_their_places_do() -> None:
    """The text as written of a number (``1.50``) is kept by its path moved as the piece is
    (mutants: a moved piece's scalars under their old paths; a piece in place's left out)."""
    assert _waiting_map().scalars == {("sections", 1, "questions", 0, "points"): "1.50"}
    source = SourceMap("q.md")
    source.take(_kept(Places({("sections", 0): (1, 1)}, {("sections", 0, "points"): "2.0"})), 0, 0, 0)
    assert source.scalars == {("sections", 0, "points"): "2.0"}


def test_what_is_written_after_places_waiting_is_over_them() -> None:
    """A place recorded (``at``) or places set whole after a cached piece's were taken are over
    them: the waiting ones are made first (mutants: ``at`` and the setter without making them,
    which then went in over what was written)."""
    question = ("sections", 1, "questions", 0)
    source = _waiting_map()
    source.at(question + ("text",), 40, 2)
    assert source.positions[question + ("text",)] == (40, 2) and source.positions[question] == (15, 1)
    source = _waiting_map()
    source.positions = {("title",): (2, 8)}
    assert source.positions == {("title",): (2, 8)}
    source = _waiting_map()
    source.scalars = {}
    assert source.scalars == {}


def test_maps_are_equal_by_every_place_waiting_ones_too() -> None:
    """``SourceMap.__eq__`` compares the places, those waiting made first, and the lines left
    unread (mutants: waiting places not made for it; ``unread`` left out of it)."""
    made = _waiting_map()
    assert made.positions  # made
    assert _waiting_map() == made
    other = SourceMap("q.md")
    other.take(_kept(Places({("sections", 0): (99, 1)})), 1, 0, 3)
    assert other != _waiting_map()
    unread = _waiting_map()
    unread.unread = {7}
    assert unread != made


def test_a_piece_moved_moves_a_run_s_questions_only_under_questions() -> None:
    """``moved``: a run's question index moves only in a question's path; another path under
    its section moves with the section alone (mutant: any fourth index moved)."""
    from qti_builder.readers.source_map import moved

    assert moved(("sections", 0, "questions", 2, "text"), 1, 5) == ("sections", 1, "questions", 7, "text")
    assert moved(("sections", 0, "options", 2), 1, 5) == ("sections", 1, "options", 2)
    assert moved(("title",), 1, 5) == ("title",)
