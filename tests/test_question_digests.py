"""A chunk's key takes a digest of each question's data in place of its model serialized again,
where the reader read the question in a piece of a large source (``SourceMap.question_digests``,
``pieces.data_digest``, ``cache._canonical_json``): each digest is of the very data the question
was validated from (none where something changed them after the reading), it stands for the
question only for that question object, and a rebuild by hand whose questions come unchanged from
the pieces' entries writes what a ``--no-cache`` build writes, also when the quiz's own fields
change what its questions' models are (the scoring rule)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import ROOT
from test_hand_parted import CHUNK, WARM_CHUNK, _builds
from test_markdown_pieces import SOURCES, _quiz, _part, _Store

from qti_builder import cache
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import base, read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.source_map import question_contents


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[list[list[str | None]]]:
    """The digest of each top-level section's questions' data as each validation of a quiz is
    given them (the last validation's last), in their order."""
    seen: list[list[list[str | None]]] = []
    real = base.validate_quiz

    def validate(data: dict[str, Any], source: Any, sink: DiagnosticSink) -> Any:
        seen.append([[pieces.data_digest(q) for q in s.get("questions") or []] for s in data.get("sections") or []])
        return real(data, source, sink)

    monkeypatch.setattr(base, "validate_quiz", validate)
    return seen


def _digests_checked(path: Path, store: _Store, validated: list[list[list[str | None]]]) -> int:
    """Read ``path`` in pieces through ``store``: each question's digest is that of the data it
    was validated from. The number of questions with a digest."""
    validated.clear()
    read = read_quiz(path, DiagnosticSink(), partial=True, pieces=store.pieces())
    if not read:
        return 0
    quiz, source = read
    known = question_contents(quiz, source)
    for i, section in enumerate(quiz.sections):
        for j, question in enumerate(section.questions):
            if id(question) in known:
                assert known[id(question)][0] is question
                assert known[id(question)][1] == validated[-1][i][j], f"{path.name}: question {question.id}"
    return len(known)


@pytest.mark.parametrize("run", [1, 10**9], ids=["runs of 1", "whole sections"])
def test_each_digest_is_of_the_data_the_question_was_validated_from(run: int, validated: list[list[list[str | None]]],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every source of the repository read in pieces, then again with the pieces taken from the
    cache: each question with a digest was validated from the data digested (a digest of
    another question's data, or of data changed since, fails)."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", run)
    covered = 0
    for path in SOURCES:
        store = _Store()
        first = _digests_checked(path, store, validated)
        assert _digests_checked(path, store, validated) == first, path.name  # from the cache: the same
        covered += first
    assert covered > 50  # (the sources with top-level sections: most of the others are one question long)


def test_a_bank_read_in_runs_has_each_question_s_digest_after_an_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     validated: list[list[list[str | None]]]) -> None:
    """A bank of three parts read in runs of 4 to 16 questions, then again with one question
    edited (its run read again, the others taken from the cache), then with a question added
    before the others (the runs after it moved): every question has its data's digest."""
    from test_watch_parted import _bank

    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 8)
    source, store = tmp_path / "bank.md", _Store()
    for text in (_bank(), _bank(edits={60: "Question 60: edited?"}), _bank(added=2)):
        source.write_text(text, "utf-8")
        assert _digests_checked(source, store, validated) == 150 + (text == _bank(added=2))


def test_a_made_id_distinct_across_pieces_drops_its_digest(tmp_path: Path, validated: list[list[list[str | None]]],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Two parts of the same questions: the second part's ids, made from their texts, are made
    distinct after the pieces are read (``-2``): their data are not those digested, so they have
    no digest; the first part's keep theirs."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    source = tmp_path / "twice.md"
    source.write_text(_quiz(_part("One", 3), _part("Two", 3)), "utf-8")
    read = read_quiz(source, DiagnosticSink(), pieces=_Store().pieces())
    assert read is not None
    quiz, src = read
    known = question_contents(quiz, src)
    assert [q.id.endswith("-2") for q in quiz.sections[1].questions] == [True] * 3
    assert [id(q) in known for s in quiz.sections for q in s.questions] == [True] * 3 + [False] * 3
    assert _digests_checked(source, _Store(), validated) == 3


def test_the_text_of_a_scalar_taken_as_written_drops_every_digest() -> None:
    """Data changed by the validation itself (a number where text is meant, taken as written)
    are not those digested: the map keeps no digest."""
    source = base.SourceMap("q.md")
    source.question_digests[0] = ["d" * 64]
    source.scalars[("sections", 0, "questions", 0, "stem")] = "1.10"
    data: dict[str, Any] = {"id": "q", "title": "Q", "sections": [{"id": "s", "title": "S", "questions": [
        {"type": "single_choice", "id": "a", "stem": 1.1, "choices": [{"id": "A", "text": "x", "correct": True},
                                                                      {"id": "B", "text": "y"}]}]}]}
    quiz = base.validate_quiz(data, source, DiagnosticSink())
    assert quiz is not None and quiz.sections[0].questions[0].stem == "1.10"
    assert source.question_digests == {}


def _chunk(stem: str = "Which?") -> Any:
    from qti_builder.model import Quiz

    return Quiz.model_validate({"id": "q", "title": "Q", "sections": [{"id": "s", "title": "S", "questions": [
        {"type": "single_choice", "id": "a", "stem": stem, "choices": [{"id": "A", "text": "x", "correct": True},
                                                                       {"id": "B", "text": "y"}]}]}]})


def test_a_digest_stands_for_its_own_question_object_only() -> None:
    """The chunk's key bytes take a known question's digest, tagged apart from JSON; a digest
    kept for another object under the question's identity is not taken (its JSON is)."""
    chunk = _chunk()
    question = chunk.sections[0].questions[0]
    plain = cache._canonical_json(chunk, {})
    assert b'\0q{"id":"a"' in plain
    digested = cache._canonical_json(chunk, {id(question): (question, "e" * 64)})
    assert digested == plain.split(b"\0q")[0] + b"\0d" + b"e" * 64
    assert cache._canonical_json(chunk, {id(question): (copy.copy(question), "e" * 64)}) == plain
    media = __import__("qti_builder.media", fromlist=["MediaSet"]).MediaSet()
    other = {id(question): (question, "f" * 64)}
    assert cache.chunk_content(chunk, media, other) != cache.chunk_content(chunk, media, {id(question): (question, "e" * 64)})


def test_a_section_whose_digests_are_not_one_a_question_gives_none() -> None:
    """Digests are taken question by question only where a section has exactly one for each of
    its questions: a list of another length is of other data, and none of it stands for a
    question (paired in order, the first digest would stand for a question it is not of)."""
    from qti_builder.readers.source_map import SourceMap

    quiz = _chunk()
    question = quiz.sections[0].questions[0]
    source = SourceMap("quiz.md")
    source.question_digests[0] = ["e" * 64]
    assert question_contents(quiz, source) == {id(question): (question, "e" * 64)}
    source.question_digests[0] = ["e" * 64, "f" * 64]
    assert question_contents(quiz, source) == {}
    source.question_digests = {1: ["e" * 64]}  # a section the quiz does not have
    assert question_contents(quiz, source) == {}


def test_data_digests_tell_apart_what_equality_does_not() -> None:
    """``1``, ``1.0`` and ``True`` are equal in Python and validate to different models in some
    fields: their digests differ; the same data give the same digest; a date is no plain data."""
    import datetime

    digests = {pieces.data_digest({"points": value}) for value in (1, 1.0, True)}
    assert len(digests) == 3
    assert pieces.data_digest({"a": [1, {"b": "c"}]}) == pieces.data_digest({"a": [1, {"b": "c"}]})
    assert pieces.data_digest({"a": 1, "b": 2}) != pieces.data_digest({"b": 2, "a": 1})  # (a miss at most)
    assert pieces.data_digest({"when": datetime.date(2026, 1, 1)}) is None


MR = "{n}. Which of these are {k}?\n\nA) one\nB) two\nC) three\n\nAnswer: A, C\n"


def _mr_bank(settings: str = "") -> str:
    lines = ["---", "id: mrbank", "title: MR bank", *(settings.splitlines()), "---", ""]
    for part in range(3):
        lines += [f"# Part {part + 1}", ""] + [MR.format(n=n, k=50 * part + n) for n in range(1, 51)]
    return "\n".join(lines)


def test_a_rebuild_by_hand_after_the_quiz_s_scoring_rule_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 build_cache: Path) -> None:
    """The quiz's scoring rule set, then changed, then taken away, on a bank of multiple-response
    questions read in pieces: the pieces' data (and digests) are those of the build before, the
    questions' models are not (the quiz's rule is theirs): each build writes what a build without
    the cache writes, and takes its questions' digests from the pieces' entries."""
    import qti_builder.pipeline as pipeline

    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})
    taken: list[int] = []
    real_contents = cache.chunk_content

    def counted(chunk: Any, media: Any, known: Any = None) -> str:
        taken.append(sum(id(q) in (known or {}) for q in chunk.iter_questions()))
        return real_contents(chunk, media, known)

    monkeypatch.setattr(pipeline, "chunk_content", counted)
    texts = [_mr_bank(), _mr_bank("settings:\n  scoring: all_or_nothing"), _mr_bank("settings:\n  scoring: exam\n  incomplete_points: 0.5"),
             _mr_bank()]
    _builds(tmp_path, monkeypatch, texts, "--jobs", "1")
    # every build's chunk keys (with the cache) took each of its 150 questions' digests
    assert sum(taken) >= 150 * len(texts), taken


def test_sections_read_before_the_first_piece_come_first(tmp_path: Path, validated: list[list[list[str | None]]],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Questions before the first top-level heading make a section read with the lines before the
    pieces (no digest): the pieces' sections come after it, each with its own questions' digests."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    source = tmp_path / "before.md"
    source.write_text(_quiz(_part("One", 2).split("\n", 2)[2], _part("Two", 2, first=3), _part("Three", 2, first=5)), "utf-8")
    assert _digests_checked(source, _Store(), validated) == 4


_VALUES = st.sampled_from([1, 1.0, True, 2, 0.5, "1", "x", None])


@settings(max_examples=300, deadline=None)
@given(one=st.lists(st.tuples(st.sampled_from(["points", "stem", "shuffle", "title"]), _VALUES), max_size=4),
       two=st.lists(st.tuples(st.sampled_from(["points", "stem", "shuffle", "title"]), _VALUES), max_size=4),
       correct=st.tuples(st.sampled_from([True, 1, "yes"]), st.sampled_from([False, 0, None])))
def test_questions_of_one_digest_validate_to_one_model(one: list[tuple[str, Any]], two: list[tuple[str, Any]],
                                                      correct: tuple[Any, Any]) -> None:
    """For any two question data (fields given in any order, values that Python finds equal or
    that pydantic takes alike among them): the same digest, the same model (its JSON); so a
    chunk's key made of digests never takes one question's documents for another's."""
    from pydantic import TypeAdapter, ValidationError

    from qti_builder.model import Question

    adapter: TypeAdapter[Any] = TypeAdapter(Question)

    def data(fields: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {"type": "single_choice", "id": "q1", "stem": "Which?"}
        found.update(fields)
        found["choices"] = [{"id": "A", "text": "a", "correct": correct[0]}, {"id": "B", "text": "b", "correct": correct[1]}]
        return found

    first, second = data(one), data(two)
    if pieces.data_digest(first) != pieces.data_digest(second):
        return
    try:
        a = adapter.dump_json(adapter.validate_python(first))
    except ValidationError:
        a = None
    try:
        b = adapter.dump_json(adapter.validate_python(second))
    except ValidationError:
        b = None
    assert a == b


def test_the_digests_are_made_only_for_a_build_that_keeps_the_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the cache (``--no-cache``: pieces read, on the workers too, and kept nowhere)
    nothing asks for the digests: none is made; with it, each question has its own."""
    from qti_builder.readers.piece_cache import Pieces

    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    made: list[object] = []
    real = pieces.data_digest
    monkeypatch.setattr(pieces, "data_digest", lambda q: made.append(q) or real(q))
    source = tmp_path / "parts.md"
    source.write_text(_quiz(_part("One", 3), _part("Two", 3, first=4)), "utf-8")
    read = read_quiz(source, DiagnosticSink(), pieces=Pieces(run=lambda tasks, work: [work(t) for t in tasks]))
    assert read is not None and read[1].question_digests == {} and made == []
    read = read_quiz(source, DiagnosticSink(), pieces=_Store().pieces())
    assert read is not None and len(question_contents(*read)) == 6 and len(made) == 6
