"""A big quiz's chunks taken from the build cache by a rebuild in a fresh process (issue 34): each
chunk's entry brings what the rules across the package read of it (``TaskResult.summary``, made
where the chunk was rendered), so the rebuild does not walk every unchanged chunk's documents
again to key the rules' verdict; and the entries are taken with Python's cyclic collector paused,
what they hold then frozen out of its reach, the collector running again for the rest of the
build. What is checked: the summaries kept are those the chunks' documents give; a rebuild reads
only the edited chunk's documents for them (the memo of a process that built before,
``pipeline._SUMMARIES``, emptied as a fresh process has it), keeps the rules' verdict and writes a
build's files without the cache; the collector is paused while the entries are taken only."""

from __future__ import annotations

import gc
from dataclasses import replace
from pathlib import Path

import pytest
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import cache, memory, pipeline


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})


def _chunk_entries(folder: Path) -> list[pipeline.TaskResult]:
    """The result of every "items" task kept in the cache folder ``folder``."""
    found = []
    for path in folder.glob("*/*"):
        entry = cache._read(path.parent.name + path.name)
        if isinstance(entry, cache.CachedChunk) and isinstance(entry.result, pipeline.TaskResult) \
                and entry.result.task.part == "items":
            found.append(entry.result)
    return found


def test_each_chunks_entry_keeps_the_summary_its_documents_give(tmp_path: Path, build_cache: Path, small_chunks: None) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    kept = _chunk_entries(build_cache)
    assert {r.task.format for r in kept} == {"canvas", "moodle", "moodle-quiz", "qti21"} and len(kept) == 16
    for result in kept:
        assert result.summary is not None
        assert result.summary == pipeline._summed(replace(result, summary=None)), result.task


def test_a_rebuild_reads_only_the_edited_chunks_documents_for_the_rules_key(tmp_path: Path, small_chunks: None,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    read: list[tuple[str, tuple[str, ...]]] = []
    real_read_of, real_rules = pipeline._read_of, pipeline.validate_package
    rules_run: list[str] = []

    def reading(result: pipeline.TaskResult) -> object:
        read.append((result.task.format, result.task.questions))
        return real_read_of(result)

    def rules(output_name: str, *args: object) -> None:
        rules_run.append(output_name)
        real_rules(output_name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_read_of", reading)
    monkeypatch.setattr(pipeline, "validate_package", rules)
    pipeline._SUMMARIES.clear()  # as a fresh process has it
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    warm = _build(source, tmp_path / "warm")
    assert read and {questions for _, questions in read} == {("q5", "q6", "q7", "q8")}, read
    assert rules_run == []  # the verdict of the cold build, under the same key
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_the_collector_is_paused_while_the_chunks_are_taken_only(tmp_path: Path, small_chunks: None,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Paused while each entry is taken, what they hold frozen before it runs again (else its first
    collection walks every object the entries just made), and running again for the rest."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    taking: list[bool] = []
    found: list[tuple[int, int, bool]] = []
    real_cached, real_found = pipeline._cached, pipeline._found

    def cached(task: pipeline.Task, key: str | None) -> pipeline.TaskResult | None:
        taking.append(gc.isenabled())
        return real_cached(task, key)

    def finding(tasks: list[pipeline.Task]) -> list[pipeline.TaskResult]:
        before = gc.get_freeze_count()
        results = real_found(tasks)
        found.append((before, gc.get_freeze_count(), gc.isenabled()))
        return results

    monkeypatch.setattr(pipeline, "_cached", cached)
    monkeypatch.setattr(pipeline, "_found", finding)
    assert gc.isenabled()
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    warm = _build(source, tmp_path / "warm")
    assert taking and not any(taking)
    assert len(found) == 1 and found[0][1] > found[0][0] and found[0][2], found
    assert gc.isenabled() and gc.get_freeze_count() == 0  # the build unfreezes what it froze
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_the_chunks_a_rebuild_took_are_held_until_the_next_build_looks_up(tmp_path: Path, build_cache: Path, small_chunks: None,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Not freed object by object when the build's work is done (a one-off command's fast exit
    leaves them to the OS): the entries a rebuild took are still referenced when it returns, and
    let go of when the next build looks its quizzes up; none are held in a watch (its memory
    keeps entries its own way)."""
    import weakref

    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    taken: list[weakref.ref[cache.CachedChunk]] = []
    real_read = cache._read

    def noted(key: str, kept_as: str = cache.NOT_KEPT) -> object | None:
        entry = real_read(key, kept_as)
        if isinstance(entry, cache.CachedChunk):
            taken.append(weakref.ref(entry))
        return entry

    monkeypatch.setattr(cache, "_read", noted)
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    assert _build(source, tmp_path / "edited")[0] == 0
    gc.collect()
    assert len(taken) >= 12 and all(ref() is not None for ref in taken)
    cache.look_up([source], pipeline.BuildOptions(sources=[source], cache=True))
    gc.collect()
    assert not [ref for ref in taken if ref() is not None]
    [key, *_] = [ref().key for ref in taken if ref() is not None] or \
        [p.parent.name + p.name for p in build_cache.glob("*/*") if isinstance(real_read(p.parent.name + p.name), cache.CachedChunk)]
    with memory.kept():
        assert cache.load_chunk(key) is not None and not cache._TAKEN
