"""A chunk's held documents' bytes kept in a build cache entry of their own (the pipeline's
``_DataApart``, ``PackedDocuments.apart``): a rebuild after a text edit takes an unchanged chunk's
runs from the cache and never reads those bytes; a run deflated again over unchanged chunks reads
them then; bytes gone before the rebuild make the chunk a miss, gone after it took the chunk
render it again. Every rebuild's files are a build's without the cache, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import cache, package, pipeline
from qti_builder.writers.base import PackedDocuments

#: The targets whose chunks' documents are held and spliced by question: kept apart.
_APART = {"canvas", "qti21", "moodle-quiz"}


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[pipeline.TaskResult]:
    """The bank in chunks of ``SMALL_CHUNK`` questions; every result the build cache gave from now on."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    found: list[pipeline.TaskResult] = []
    real = pipeline._cached

    def recording(task: pipeline.Task, key: str | None) -> pipeline.TaskResult | None:
        result = real(task, key)
        if result is not None:
            found.append(result)
        return result

    monkeypatch.setattr(pipeline, "_cached", recording)
    return found


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The key of every documents' bytes' entry read from now on."""
    read: list[str] = []
    real = pipeline.load_chunk_data

    def recording(key: str) -> list[bytes] | None:
        read.append(key)
        return real(key)

    monkeypatch.setattr(pipeline, "load_chunk_data", recording)
    return read


def _first_then_edited(tmp_path: Path) -> Path:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    return source


def _apart(results: list[pipeline.TaskResult]) -> list[pipeline.TaskResult]:
    return [r for r in results if r.task.format in _APART and r.task.part == "items"]


def test_an_unchanged_chunks_bytes_are_not_read_when_its_runs_are_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult], loads: list[str]) -> None:
    monkeypatch.setattr(package, "RUN_QUESTIONS", SMALL_CHUNK)  # a run per chunk: the edited one's alone deflated again
    source = _first_then_edited(tmp_path)
    taken.clear()
    warm = _build(source, tmp_path / "warm")
    # three unchanged chunks in each of the three targets, their bytes still apart, never read
    assert len(_apart(taken)) == 9 and loads == []
    assert all(isinstance(r.parts, PackedDocuments) and r.parts.apart() is not None for r in _apart(taken))
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_a_run_over_unchanged_chunks_is_deflated_again_from_their_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult], loads: list[str]) -> None:
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2 * SMALL_CHUNK)  # questions 1-8 a run: the chunk of 1-4 read
    source = _first_then_edited(tmp_path)
    taken.clear()
    warm = _build(source, tmp_path / "warm")
    read = {r.task.format for r in _apart(taken) if r.task.questions[0] == "q1" and isinstance(r.parts, PackedDocuments)
            and r.parts.apart() is None}
    assert read == _APART and len(loads) == 3
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_bytes_gone_after_the_chunk_was_taken_are_rendered_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult]) -> None:
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2 * SMALL_CHUNK)
    source = _first_then_edited(tmp_path)
    monkeypatch.setattr(pipeline, "load_chunk_data", lambda key: None)  # gone (or damaged) once touched
    rendered: list[pipeline.Task] = []
    real = pipeline._rendered

    def recording(task: pipeline.Task, *args: object) -> pipeline.TaskResult:
        rendered.append(task)
        return real(task, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_rendered", recording)
    taken.clear()
    warm = _build(source, tmp_path / "warm")
    assert {t.format for t in rendered if t.questions[0] == "q1"} == _APART  # taken from the cache, then rendered for its bytes
    assert {r.task.format for r in _apart(taken) if r.task.questions[0] == "q1"} == _APART
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_a_chunk_whose_bytes_are_gone_is_a_miss(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult]) -> None:
    source = _first_then_edited(tmp_path)
    gone = 0
    for path in build_cache.glob("??/*"):
        if isinstance(cache._read(path.parent.name + path.name), cache.CachedChunkData):
            path.unlink()
            gone += 1
    assert gone == 12  # four chunks in three targets
    taken.clear()
    warm = _build(source, tmp_path / "warm")
    assert _apart(taken) == [] and len(taken) > 0  # the Moodle file's chunks, the frames
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_bytes_apart_damaged_behind_their_checksum_are_rendered_again(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult]) -> None:
    """An entry of a chunk's bytes that holds too few of them, or something else than bytes, under a
    valid checksum (written by another program, or by a bug) is a miss like a damaged one: the chunk
    is rendered again and the files are a build's without the cache, never a traceback."""
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2 * SMALL_CHUNK)  # the chunk of q1-q4 read for the edited run
    source = _first_then_edited(tmp_path)
    damaged = 0
    for path in sorted(build_cache.glob("??/*")):
        key = path.parent.name + path.name
        entry = cache._read(key)
        if isinstance(entry, cache.CachedChunkData):
            wrong: list[object] = entry.data[:-1] if damaged % 2 else [*entry.data[:-1], "not bytes"]
            cache.store_chunk_data(key, wrong)  # type: ignore[arg-type]
            damaged += 1
    assert damaged == 12
    warm = _build(source, tmp_path / "warm")
    assert warm == _build(source, tmp_path / "cold", "--no-cache")
    assert warm[0] == 0


def test_a_chunk_with_its_bytes_inline_is_taken_as_ever(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[pipeline.TaskResult]) -> None:
    """As a watch keeps its chunks (bytes in the chunk's entry: not split there, :func:`.memory.keeping`)."""
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2 * SMALL_CHUNK)
    real = pipeline._chunk_entry
    with monkeypatch.context() as inline:
        inline.setattr(pipeline, "_chunk_entry", lambda result, key=None: real(result))
        source = _first_then_edited(tmp_path)
    taken.clear()
    warm = _build(source, tmp_path / "warm")
    assert len(_apart(taken)) == 9 and not any(isinstance(r.parts, PackedDocuments) and r.parts.apart() for r in taken)
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


# Hand mutants of the bytes kept apart (eighteenth session) that the tests above let through;
# each test below fails on its mutant, named in its docstring.


def test_a_watch_keeps_its_chunks_bytes_in_their_entries(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build while the cache's entries are kept in memory (a watch, ``memory.kept``) keeps each
    chunk's bytes in its own entry: no entry of bytes apart is written (mutant: kept apart there
    too), and its files are a build's without the cache."""
    from qti_builder import memory

    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    with memory.kept():
        kept = _build(source, tmp_path / "kept")
    entries = [cache._read(path.parent.name + path.name) for path in build_cache.glob("??/*")]
    assert len(entries) > 12 and not any(isinstance(entry, cache.CachedChunkData) for entry in entries)
    assert kept[0] == 0 and kept == _build(source, tmp_path / "cold", "--no-cache")


def test_bytes_apart_taken_with_their_task_go_to_another_process_with_it() -> None:
    """A chunk taken on a worker goes back to the build with the task that renders it again should
    its bytes be gone by then (``_DataApart.task``; mutant: pickled without it)."""
    import pickle

    task = pipeline.Task(0, "canvas", "items", ("q1", "q2"))
    apart = pickle.loads(pickle.dumps(pipeline._DataApart("k" * 64, 2, task)))
    assert (apart.key, len(apart), apart.task) == ("k" * 64, 2, task)


def test_an_entry_of_bytes_apart_is_taken_only_under_its_own_key(build_cache: Path) -> None:
    """An entry of a chunk's bytes found under another key (a file copied or renamed in the cache
    folder) is not taken (mutant: its key not checked)."""
    mine, other = cache.chunk_data_key("a" * 64), cache.chunk_data_key("b" * 64)
    cache.store_chunk_data(mine, [b"<item/>"])
    assert cache.load_chunk_data(mine) == [b"<item/>"]
    target = cache._path(other)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(cache._path(mine).read_bytes())
    assert cache.load_chunk_data(other) is None


class _Column:
    def __init__(self, data: list[bytes]) -> None:
        self.data = data

    def __len__(self) -> int:
        return 2

    def load(self) -> list[bytes]:
        return self.data


def test_a_column_apart_of_another_length_is_refused() -> None:
    """Documents' bytes read apart that are not one for each document are refused, never zipped
    with the documents short (mutant: not checked: the second question's bytes silently lost)."""
    from qti_builder.writers.base import Document

    documents = PackedDocuments.of([Document("#q1", b"one", "qti12-item", "q1"), Document("#q2", b"two", "qti12-item", "q2")])
    assert documents.with_data(_Column([b"ONE", b"TWO"])).contents() == {"q1": b"ONE", "q2": b"TWO"}
    with pytest.raises(ValueError, match="another length"):
        documents.with_data(_Column([b"ONE"])).contents()
