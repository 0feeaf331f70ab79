"""A spliced file's pieces and runs (``writers.base.spliced_pieces`` / ``spliced_runs``): the frame
cut at its marker lines, each question's document after its line (in its place, for a frame that
drops its lines), in runs of so many questions. They are cut by ``re.split`` in one call; what is
checked here is that they are what cutting the frame match by match gives (the function as it was
written first, below), for any frame: markers in any order, text or none between them, a frame
that keeps its lines or not, the questions filling the last run or not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.writers.base import (QUESTION_MARKER, Document, PackedDocuments, file_pieces, single_file, spliced_pieces,
                                     spliced_runs)


def _pieces_one_by_one(documents: list[Document]) -> Iterator[bytes | Document]:
    frame = next(d for d in documents if d.question_order)
    questions = {d.question_id: d for d in documents if not d.question_order and d.question_id is not None}
    data, start = frame.content, 0
    for marker in QUESTION_MARKER.finditer(data):
        yield data[start:marker.end() if frame.keeps_markers else marker.start()]
        yield questions[frame.question_order[int(marker.group(1)) - 1]]
        start = marker.end()
    yield data[start:]


def _runs_one_by_one(documents: list[Document], every: int) -> Iterator[list[bytes | Document]]:
    run: list[bytes | Document] = []
    count = 0
    for piece in _pieces_one_by_one(documents):
        if isinstance(piece, bytes):
            if count and count % every == 0:
                yield run
                run = []
        else:
            count += 1
        run.append(piece)
    yield run


_TEXT = st.binary(max_size=12).filter(lambda b: b"<!--" not in b)


@st.composite
def _spliced(draw: st.DrawFn) -> list[Document]:
    """A frame of 1 to 12 questions, its marker lines in any order, and each question's document."""
    count = draw(st.integers(1, 12))  # a frame is known by its questions
    numbers = draw(st.permutations(range(1, count + 1)))
    texts = draw(st.lists(_TEXT, min_size=count + 1, max_size=count + 1))
    frame = texts[0] + b"".join(b"<!-- question: %d -->\n" % n + text for n, text in zip(numbers, texts[1:]))
    ids = tuple(f"q{k}" for k in range(count))
    documents = [Document(f"#{i}", b"<q>%s</q>\n" % i.encode(), "x", question_id=i) for i in ids]
    documents.insert(draw(st.integers(0, count)), Document("frame.xml", frame, "x", question_order=ids,
                                                          keeps_markers=draw(st.booleans())))
    return documents


@settings(max_examples=300, deadline=None)
@given(_spliced(), st.integers(1, 5))
def test_pieces_and_runs_are_the_frame_cut_match_by_match(documents: list[Document], every: int) -> None:
    assert list(spliced_pieces(documents)) == list(_pieces_one_by_one(documents))
    assert list(spliced_runs(documents, every)) == list(_runs_one_by_one(documents, every))
    assert b"".join(single_file(documents)) == b"".join(p if isinstance(p, bytes) else p.content
                                                       for p in _pieces_one_by_one(documents))


def test_a_run_of_the_frames_end_alone_when_the_questions_fill_the_runs() -> None:
    ids = ("a", "b")
    frame = Document("f", b"head\n<!-- question: 1 -->\nmid\n<!-- question: 2 -->\ntail\n", "x", question_order=ids)
    a, b = (Document(f"#{i}", i.encode(), "x", question_id=i) for i in ids)
    assert list(spliced_runs([frame, a, b], 1)) == [[b"head\n<!-- question: 1 -->\n", a],
                                                     [b"mid\n<!-- question: 2 -->\n", b], [b"tail\n"]]
    assert list(spliced_runs([frame, a, b], 3)) == [[b"head\n<!-- question: 1 -->\n", a, b"mid\n<!-- question: 2 -->\n", b,
                                                      b"tail\n"]]


@settings(max_examples=300, deadline=None)
@given(_spliced(), st.data())
def test_a_file_joined_at_once_is_its_pieces_one_by_one(documents: list[Document], data: st.DataObject) -> None:
    """``file_pieces``, joined: the questions' documents in ``documents`` or in ``later`` (as a rebuild's
    unchanged chunks), their bytes given as ``contents`` (read from a chunk's columns) or looked
    up; a question in both is the ``documents``' one (``later``'s copy here is stale), as a single
    file takes it."""
    whole = b"".join(p if isinstance(p, bytes) else p.content for p in _pieces_one_by_one(documents))
    assert b"".join(file_pieces(documents)) == whole
    frame = next(d for d in documents if d.question_order)
    questions = [d for d in documents if not d.question_order]
    in_later = [data.draw(st.sampled_from(["mine", "later", "both"])) for _ in questions]
    mine = [frame] + [d for d, where in zip(questions, in_later) if where != "later"]
    later = [d if where == "later" else Document(d.path, b"<stale/>", d.schema, d.question_id)
             for d, where in zip(questions, in_later) if where != "mine"]
    contents = PackedDocuments.of(later).contents() if data.draw(st.booleans()) else None
    assert b"".join(file_pieces(mine, {d.question_id: d for d in later}, contents)) == whole


def test_a_pack_s_contents_are_its_questions_bytes_unless_one_is_held_compressed() -> None:
    a, b = (Document(f"#{i}", i.encode() * 3, "x", question_id=i) for i in "ab")
    assert PackedDocuments.of([a, b]).contents() == {"a": b"aaa", "b": b"bbb"}
    assert PackedDocuments.of([a, Document("#b", b"x", "x", "b", packed=True)]).contents() is None
    assert PackedDocuments.of([a, Document("f", b"x", "x", question_order=("a",))]).contents() is None  # a frame
    assert PackedDocuments.of([a, a]).contents() is None  # a question twice


@settings(max_examples=200, deadline=None)
@given(_spliced(), st.integers(1, 5), st.data())
def test_a_run_reads_as_the_list_of_its_pieces(documents: list[Document], every: int, data: st.DataObject) -> None:
    """A run is a sequence: each index, from either end, gives the piece its list has there, and an
    index past either end is an IndexError. Where some questions' documents come ``later``, the
    run's questions are a mapping of each question once, the documents' own copy first."""
    frame = next(d for d in documents if d.question_order)
    questions = [d for d in documents if not d.question_order]
    later_ones = data.draw(st.lists(st.sampled_from(questions), unique_by=lambda d: d.question_id))
    mine = [frame] + [d for d in questions if d not in later_ones] + data.draw(st.lists(st.sampled_from(later_ones))) \
        if later_ones else documents
    later = {d.question_id: Document(d.path, b"<stale/>", d.schema, d.question_id) for d in later_ones}
    for run in spliced_runs(mine, every, later):
        pieces = list(run)
        assert [run[k] for k in range(-len(pieces), len(pieces))] == pieces + pieces
        for past in (len(pieces), -len(pieces) - 1):
            with pytest.raises(IndexError):
                run[past]
        if later:
            own = {d.question_id: d for d in mine if not d.question_order}
            assert dict(run.questions) == {**later, **own}
            assert len(run.questions) == len({*later, *own})


_IDS = st.one_of(st.none(), st.sampled_from(["a", "b", "c"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["#a", "#b", "#c", "f", "#", "a"]), _IDS, st.booleans(), st.booleans()), max_size=5))
def test_a_pack_keeps_its_questions_with_its_columns(rows: list[tuple[str, str | None, bool, bool]]) -> None:
    """A pack's questions (``PackedDocuments.questions``) are kept with its columns when it is
    pickled, as a chunk's entry in the build cache keeps it: unpickled, it says the same as the
    pack it was made from, for any documents (ids repeating or missing, paths of a frame, a
    document of the frame's order), without working it out again; a pack pickled before kept its
    columns alone, and works it out when asked."""
    import pickle

    documents = [Document(path, path.encode(), "x", question_id=qid, question_order=("a",) if frame else (), packed=packed)
                 for path, qid, frame, packed in rows]
    pack = PackedDocuments.of(documents)
    again = pickle.loads(pickle.dumps(pack, pickle.HIGHEST_PROTOCOL))
    assert again._questions is not False, "the pack's questions were not kept with it"
    assert again.questions() == pack.questions() == PackedDocuments.of(documents).questions()
    assert again.contents() == pack.contents() and again == documents
    before = PackedDocuments(pack._columns)  # as a pack pickled with its columns alone is made
    assert before._questions is False and before.questions() == pack.questions()
