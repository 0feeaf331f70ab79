"""The key a deflated run is kept by in the build cache (``pipeline._KeptRuns._key``): a run is
taken from the build before when its key is the same, so the key must change with anything the
run's bytes are made of: each piece of frame text and where one ends, each question's document
(known by its chunk's key and its id), their order. A spliced member's run (frame text and a
question's document by turns) is hashed in a few calls (``_KeptRuns._spliced_key``); any other
run piece by piece. Checked on runs made by hand and on a bank's runs as a build cuts them."""

from __future__ import annotations

import pytest

from qti_builder import pipeline
from qti_builder.writers.base import Document, spliced_runs

CHUNKS = {"a": "1" * 64, "b": "1" * 64, "c": "2" * 64}


def _doc(question: str | None) -> Document:
    return Document(f"#{question}", b"<item/>", "qti12-item", question_id=question)


def _key(pieces: list[bytes | Document], chunks: dict[str, str] = CHUNKS, level: int = 3) -> str | None:
    return pipeline._KeptRuns("output", dict(chunks))._key(pieces, level)


RUN: list[bytes | Document] = [b"<head>", _doc("a"), b"<between>", _doc("b"), b"<tail>", _doc("c")]

#: The run changed in one way each, every change one its bytes (or a question's chunk) see.
CHANGED: dict[str, tuple[list[bytes | Document], dict[str, str]]] = {
    "a text's bytes": ([b"<head!", *RUN[1:]], CHUNKS),
    "where a text ends": ([b"<head><", RUN[1], b"between>", *RUN[3:]], CHUNKS),
    "a question's chunk": (RUN, {**CHUNKS, "b": "3" * 64}),
    "the questions' chunks swapped": (RUN, {"a": "2" * 64, "b": "2" * 64, "c": "1" * 64}),
    "a question's id": ([*RUN[:3], _doc("c"), *RUN[4:]], CHUNKS),
    "the order": ([RUN[0], RUN[3], RUN[2], RUN[1], *RUN[4:]], CHUNKS),
    "a question less": (RUN[:4], CHUNKS),
    "the frame's end after it": ([*RUN, b"<end>"], CHUNKS),
    "the level": (RUN, CHUNKS),
}


def test_the_same_run_the_same_key() -> None:
    key = _key(RUN)
    assert key is not None and key == _key(list(RUN)) == _key([p if isinstance(p, bytes) else _doc(p.question_id) for p in RUN])


@pytest.mark.parametrize("change", CHANGED)
def test_any_change_of_the_runs_bytes_changes_its_key(change: str) -> None:
    pieces, chunks = CHANGED[change]
    assert _key(pieces, chunks, level=6 if change == "the level" else 3) not in (None, _key(RUN))


@pytest.mark.parametrize("pieces", [RUN, [b"<one>", b"<two>", _doc("a"), b"<three>"], [_doc("a"), b"<x>", _doc("b")]],
                         ids=["by turns", "two texts together", "a question first"])
def test_a_question_of_no_known_chunk_has_no_key(pieces: list[bytes | Document]) -> None:
    assert _key(pieces, {q: k for q, k in CHUNKS.items() if q != "a"}) is None
    assert _key([*pieces[:-1], _doc(None)]) is None


def test_runs_of_other_shapes_are_keyed_piece_by_piece() -> None:
    """Two texts together, a question first: not by turns from a text, keyed all the same (the
    questions in their places), and apart from the run by turns of the same bytes."""
    together = [b"<one>", b"<two>", _doc("a"), b"<three>"]
    assert _key(together) not in (None, _key([b"<one><two>", _doc("a"), b"<three>"]))
    first = [_doc("a"), b"<x>", _doc("b")]
    assert _key(first) not in (None, _key([_doc("b"), b"<x>", _doc("a")]))


def test_a_banks_runs_each_their_own_key() -> None:
    """A frame of 12 questions in runs of 5 as a build cuts them: each run keyed, all apart, and
    one question's chunk changed changes its run's key alone."""
    ids = tuple(f"q{n}" for n in range(12))
    frame = Document("assessment.xml", b"<a>\n" + b"".join(b"<!-- question: %d -->\n<s/>\n" % n for n in range(1, 13)) + b"</a>\n",
                     "qti12", question_order=ids)
    documents = [frame, *(_doc(q) for q in ids)]
    chunks = {q: str(n // 4) * 64 for n, q in enumerate(ids)}
    runs = list(spliced_runs(documents, 5))
    keys = [_key(run, chunks) for run in runs]
    assert len(runs) == 3 and None not in keys and len(set(keys)) == 3
    edited = [_key(run, {**chunks, "q6": "9" * 64}) for run in runs]
    assert [a == b for a, b in zip(keys, edited)] == [True, False, True]
