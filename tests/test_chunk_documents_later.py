"""A chunk's documents as its build cache entry keeps them (``writers.base.PackedDocuments``: each
field a column, the documents made when first read), and a rebuild that splices an unchanged
chunk's questions by id alone (``Spliced.later``, the pipeline's ``_later``): a run the cache has
is taken without the chunk's documents being made. What is checked: a pack gives back the very
documents it was made of, pickled or not, and makes none until read; what it says of its
questions; a damaged pack is refused (its entry a miss); the runs and bytes of a spliced file are
the same whichever of its questions' documents come later, and a run is keyed without looking
them up; the pipeline walks a chunk now where splicing by id would not be the same; and a
rebuild after a text edit makes no document of an unchanged chunk spliced into a package, with
the files of a build without the cache."""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_frames_kept import SMALL_CHUNK, _bank, _build
from test_spliced_runs import _spliced

from qti_builder import package, pipeline
from qti_builder.writers.base import Document, PackedDocuments, SplicedRun, single_file, spliced_runs

_DOCUMENTS = st.lists(st.builds(
    Document, path=st.text(max_size=6), data=st.binary(max_size=8), schema=st.sampled_from(["", "qti12-item", "x"]),
    question_id=st.none() | st.text(max_size=4), question_order=st.lists(st.text(max_size=3), max_size=3).map(tuple),
    keeps_markers=st.booleans(), packed=st.booleans()), max_size=8)


@settings(max_examples=200, deadline=None)
@given(_DOCUMENTS)
def test_a_pack_gives_back_its_documents_made_only_when_read(documents: list[Document]) -> None:
    pack = PackedDocuments.of(documents)
    again = pickle.loads(pickle.dumps(pack, pickle.HIGHEST_PROTOCOL))  # as the chunk's entry keeps it
    assert isinstance(again, PackedDocuments) and again._made is None and len(again) == len(documents)
    assert list(again) == documents and again == documents and [again[k] for k in range(len(documents))] == documents
    assert all(type(d) is Document for d in again)
    assert pack.documents == documents


def _question(i: str, path: str | None = None, **fields: object) -> Document:
    return Document(f"#{i}" if path is None else path, i.encode(), "qti12-item", question_id=i, **fields)  # type: ignore[arg-type]


def test_a_pack_says_its_questions_when_each_is_one_questions_document_to_splice() -> None:
    pack = pickle.loads(pickle.dumps(PackedDocuments.of([_question("a"), _question("b")])))
    assert pack.questions() == ["a", "b"] and pack._made is None  # read from the columns
    assert PackedDocuments.of([]).questions() == []
    for other in (_question("c", path="items/c.xml"), _question("c", question_order=("a",)), _question("a"),
                  Document("#x", b"", "x")):
        assert PackedDocuments.of([_question("a"), _question("b"), other]).questions() is None, other


@pytest.mark.parametrize("columns", [
    ([],) * 6,  # a field less
    (["#a", "#b"], [b"a"], ["x", "x"], ["a", "b"], [(), ()], [True, True], [False, False]),  # one column short
])
def test_a_damaged_pack_is_refused(columns: tuple[list[object], ...]) -> None:
    with pytest.raises(ValueError):
        PackedDocuments(columns)
    damaged = PackedDocuments.of([])
    damaged._columns = columns
    with pytest.raises(ValueError):  # unpickling it fails: its entry is a miss (cache._read)
        pickle.loads(pickle.dumps(damaged))


class _Counted(Mapping[str, Document]):
    """A mapping that counts its lookups."""

    def __init__(self, documents: dict[str, Document]) -> None:
        self.documents, self.looked = documents, 0

    def __getitem__(self, question: str) -> Document:
        self.looked += 1
        return self.documents[question]

    def __iter__(self) -> Iterator[str]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)


@settings(max_examples=300, deadline=None)
@given(_spliced(), st.integers(1, 5), st.data())
def test_questions_later_splice_as_questions_now(documents: list[Document], every: int, data: st.DataObject) -> None:
    questions = [d for d in documents if not d.question_order]
    later_ones = data.draw(st.lists(st.sampled_from(questions), unique=True)) if questions else []
    now = [d for d in documents if d not in later_ones]
    later = _Counted({str(d.question_id): d for d in later_ones})
    runs = list(spliced_runs(now, every, later))
    assert later.looked == 0  # cut without a look
    expected = list(spliced_runs(documents, every))
    assert [r.texts for r in runs] == [r.texts for r in expected] and [r.ids for r in runs] == [r.ids for r in expected]
    assert runs == expected and [list(r) for r in runs] == [list(r) for r in expected]
    assert b"".join(single_file(now, later)) == b"".join(single_file(documents))


def test_a_question_of_the_frame_without_its_document_is_an_error_as_ever() -> None:
    frame = Document("f", b"<!-- question: 1 -->\n<!-- question: 2 -->\n", "x", question_order=("a", "b"))
    with pytest.raises(KeyError):
        list(spliced_runs([frame, _question("a")], 5))
    with pytest.raises(KeyError):  # one looked up later, and missing there too
        list(single_file([frame, _question("a")], {"c": _question("c")}))


def test_a_run_of_questions_by_id_is_keyed_as_its_pieces_without_a_look() -> None:
    chunks = {"a": "1" * 64, "b": "2" * 64}
    questions = _Counted({"a": _question("a"), "b": _question("b")})
    run = SplicedRun([b"<head>", b"<mid>", b"<tail>"], ["a", "b"], questions)
    kept = pipeline._KeptRuns("output", chunks)
    key = kept._key(run, 3)
    assert questions.looked == 0 and key is not None
    assert key == kept._key(list(run), 3)  # the same run's pieces, walked
    assert kept._key(SplicedRun([b"<head>", b"<mid>"], ["a", "b"], questions), 3) not in (None, key)
    assert kept._key(SplicedRun([b"<head>", b"<mid>", b"<tail>"], ["b", "a"], questions), 3) not in (None, key)
    assert pipeline._KeptRuns("output", {"a": "1" * 64})._key(run, 3) is None  # a question of no chunk


def _result(fmt: str, part: str, parts: list[Document] | PackedDocuments) -> pipeline.TaskResult:
    return pipeline.TaskResult(pipeline.Task(0, fmt, part), "x.zip", True, parts=parts)


def test_a_chunk_is_walked_now_where_splicing_it_later_would_differ() -> None:
    frame = Document("a.xml", b"<!-- question: 1 -->\n<!-- question: 2 -->\n", "qti12", question_order=("a", "b"))
    packed = PackedDocuments.of([_question("a"), _question("b")])
    parts, later = pipeline._later([_result("canvas", "frame", [frame]), _result("canvas", "items", packed)])
    assert parts == [frame] and list(later) == ["a", "b"] and packed._made is None
    assert dict(later) == {"a": _question("a"), "b": _question("b")}
    for mine in ([_result("canvas", "items", packed)],  # no frame
                 [_result("canvas", "frame", [frame, frame]), _result("canvas", "items", packed)],  # two
                 [_result("canvas", "frame", [frame, _question("a")]), _result("canvas", "items", packed)],  # "a" twice
                 [_result("canvas", "frame", [frame]), _result("canvas", "items", packed),
                  _result("canvas", "items", PackedDocuments.of([_question("b")]))]):
        parts, later = pipeline._later(mine)
        assert parts == [d for r in mine for d in r.parts] and not later


@pytest.fixture
def small_runs(monkeypatch: pytest.MonkeyPatch) -> list[PackedDocuments]:
    """The bank in chunks and runs of ``SMALL_CHUNK`` questions; every pack whose documents are
    made from now on."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(package, "RUN_QUESTIONS", SMALL_CHUNK)
    made: list[PackedDocuments] = []
    real = vars(PackedDocuments)["documents"].fget

    def documents(self: PackedDocuments) -> list[Document]:
        if self._made is None:
            made.append(self)
        return real(self)

    monkeypatch.setattr(PackedDocuments, "documents", property(documents))
    return made


def test_a_rebuild_after_a_text_edit_makes_no_document_of_an_unchanged_chunk_in_a_package(
        tmp_path: Path, build_cache: Path, small_runs: list[PackedDocuments]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    small_runs.clear()
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    warm = _build(source, tmp_path / "warm")
    # Of the three unchanged chunks in four targets, none is made: the packages take their runs
    # from the cache, the Moodle file its questions' bytes from the chunks' columns (file_pieces).
    assert small_runs == []
    assert warm == _build(source, tmp_path / "cold", "--no-cache")
