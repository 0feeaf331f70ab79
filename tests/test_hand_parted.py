"""A rebuild by hand (a fresh build, the build cache on disk) after an edit renders only the
small chunk (``pipeline.WARM_CHUNK``) of the edited question in each target: the chunk's other
small chunks are taken out of the result of the chunk that held them in the build before
(``pipeline._parted_by_hand``), found through the source's record of its chunks' keys, when
each small chunk's key then (kept in that result) is its key now. Each build's files are a
``--no-cache`` build's, byte for byte; a record or result that is damaged, missing or of
another chunk is not trusted: the chunk is rendered whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run
from helpers.parted import compare_with_rendered
from test_watch_parted import _bank
from test_watch_warm import _diagnostics, _files, _rendered

from qti_builder import cache, pipeline

#: The chunks of the test banks: small, so that a bank of a few sections has several of each.
CHUNK, WARM_CHUNK = 40, 8
TARGETS = ("qti21", "moodle", "canvas", "moodle-quiz")


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch, build_cache: Path) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})


#: (target, questions) of each result taken out of a chunk before, each compared with rendering
#: it; what differed.
_compared: list[tuple[str, int]] = []
_differ: list[str] = []


@pytest.fixture(autouse=True)
def _parted_as_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each result taken out of a chunk before (``pipeline._part_of``, as ``_parted_by_hand``
    calls it) compared, as it is made, with rendering its small chunk now: the same documents,
    zip entries and their questions, facts, in the same order."""
    real_part_of, real_rendered = pipeline._part_of, pipeline._rendered
    _compared.clear()
    _differ.clear()

    def checked(result: pipeline.TaskResult, task: pipeline.Task) -> pipeline.TaskResult:
        parted = real_part_of(result, task)
        compare_with_rendered(parted, real_rendered, _compared, _differ)
        return parted

    monkeypatch.setattr(pipeline, "_part_of", checked)


def _builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, texts: list[str], *args: str,
            between: list[object] | None = None) -> list[list[tuple[str, str, int]]]:
    """A build by hand of each text in turn with the cache (the first cold), each one's files and
    diagnostics checked against a build of the same text without the cache; the tasks each
    rendered (in this process: ``--jobs 1`` or a rebuild that forks none). ``between``: called
    before each build after the first (None: nothing)."""
    source, out, fresh = tmp_path / "bank.md", tmp_path / "dist", tmp_path / "fresh"
    rendered = _rendered(monkeypatch)
    counts: list[list[tuple[str, str, int]]] = []
    for k, text in enumerate(texts):
        if k and between and callable(between[k - 1]):
            between[k - 1]()  # type: ignore[operator]
        source.write_text(text, "utf-8")
        rendered.clear()
        code, _, err = run("build", str(source), "--out", str(out), *args)
        assert "Traceback" not in err, err
        counts.append(list(rendered))
        files = _files(out)
        assert files, f"build {k} wrote nothing"
        for stale in fresh.glob("*") if fresh.exists() else []:
            stale.unlink()
        _, _, cold = run("build", str(source), "--no-cache", "--out", str(fresh), *args)
        assert files == _files(fresh), f"build {k}: {sorted(n for n in files if files.get(n) != _files(fresh).get(n))} differ"
        assert _diagnostics(err) == _diagnostics(cold)
    assert not _differ, _differ  # each result taken out of a chunk is what rendering its questions makes
    return counts


def _items(counts: list[tuple[str, str, int]]) -> list[tuple[str, int]]:
    return sorted((name, n) for name, part, n in counts if part == "items")


def _edited(**edits: str) -> str:
    return _bank(edits={int(number[1:]): text for number, text in edits.items()})


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rebuild_by_hand_renders_only_the_small_chunk_of_the_edited_question(jobs: str, tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Question 60 edited, edited again, question 130 of another section edited, then both
    put back: each rebuild by hand renders one small chunk per target (the edited question's;
    the others are taken out of the chunk the build before kept, or, put back, the chunks are
    found whole), and writes what a build without the cache writes."""
    texts = [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: edited twice?"),
             _edited(q60="Question 60: edited twice?", q130="Question 130: edited?"), _bank()]
    counts = _builds(tmp_path, monkeypatch, texts, "--jobs", jobs)
    if jobs == "1":  # (with two, the workers render the cold build's chunks)
        assert _items(counts[0]) == sorted([(name, CHUNK) for name in TARGETS for _ in range(3)] + [(name, 30) for name in TARGETS])
    for k in (1, 2, 3):
        assert _items(counts[k]) == sorted((name, WARM_CHUNK) for name in TARGETS), f"build {k}"
    assert _items(counts[4]) == [], "put back: every chunk found as the cold build kept it"
    # 60's chunk of 40 twice (four small chunks taken out each time), 130's of 30 (three of its four)
    assert sorted(_compared) == sorted([(name, WARM_CHUNK) for name in TARGETS for _ in range(8)]
                                       + [(name, n) for name in TARGETS for n in (WARM_CHUNK, WARM_CHUNK, 6)])


def test_a_rebuild_by_hand_forks_no_worker_for_one_small_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With two jobs asked for, the rebuild after one edit renders its four small chunks in this
    process (``_warm_alone``): the cold build forks its workers, the rebuild none."""
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 1)  # (a small bank's whole build would not fork either)
    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "2")
    assert _items(counts[1]) == sorted((name, WARM_CHUNK) for name in TARGETS)


def _record_files(folder: Path) -> list[Path]:
    """The build cache's files that hold a source's record of its chunks' keys."""
    found = []
    for path in folder.glob("*/*"):
        entry = cache._read(path.parent.name + path.name)
        if isinstance(entry, cache.CachedChunkKeys):
            found.append(path)
    return found


@pytest.mark.parametrize("damage", ["garbage", "missing", "other chunks", "small keys", "fewer small keys"])
def test_a_damaged_or_stale_record_is_not_trusted(damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  build_cache: Path) -> None:
    """The record of the cold build's chunks damaged before the rebuild: its bytes garbled, the
    file gone, the record pointing each target's chunks at another chunk's result, or the chunks'
    results holding their small chunks' keys in the wrong order, or one key short. The rebuild renders the edited
    question's chunk whole (no small chunk of it has the key it had then), never takes a small
    chunk out of a result it cannot check, and writes what a build without the cache writes."""

    def damaged() -> None:
        records = _record_files(build_cache)
        assert len(records) == 1
        path = records[0]
        if damage == "garbage":
            path.write_bytes(path.read_bytes()[:-40] + b"x" * 40)
        elif damage == "missing":
            path.unlink()
        elif damage == "other chunks":
            key = path.parent.name + path.name
            record = cache.load_chunk_keys(key)
            assert isinstance(record, dict)
            cache.store_chunk_keys(key, {name: [(questions, chunks[(n + 1) % len(chunks)][1]) for n, (questions, _) in enumerate(chunks)]
                                         for name, chunks in record.items()})
        else:
            for entry_path in build_cache.glob("*/*"):
                key = entry_path.parent.name + entry_path.name
                entry = cache._read(key)
                if isinstance(entry, cache.CachedChunk) and isinstance(entry.result, pipeline.TaskResult) and entry.result.small_keys:
                    keys = entry.result.small_keys
                    wrong = pipeline.TaskResult(**{**vars(entry.result),
                                                   "small_keys": keys[:-1] if damage == "fewer small keys" else keys[1:] + keys[:1]})
                    cache.store_chunk(key, wrong, deflate=entry_path.read_bytes()[cache.PAYLOAD_AT:cache.PAYLOAD_AT + 1] == b"z")

    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1",
                     between=[damaged])
    assert _items(counts[1]) == sorted((name, CHUNK) for name in TARGETS)
    assert _compared == []


def test_a_chunk_whose_bytes_kept_apart_are_gone_is_rendered_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   build_cache: Path) -> None:
    """The documents' bytes of the cold build's chunks, kept in entries of their own
    (``pipeline._DataApart``), gone before the rebuild: a chunk before cannot be checked
    (``_partable`` meets the bytes' LookupError), so the edited question's chunk is rendered whole
    in the three targets that keep them apart, as their other chunks (the Moodle XML file's edited
    chunk is taken apart as ever), and
    the rebuild writes what a build without the cache writes. (Mutant: the LookupError not
    caught, a traceback.)"""

    def gone() -> None:
        entries = [path for path in build_cache.glob("*/*")
                   if isinstance(cache._read(path.parent.name + path.name), cache.CachedChunkData)]
        assert entries
        for path in entries:
            path.unlink()

    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1",
                     between=[gone])
    # (every unchanged chunk of those three is a miss too: its bytes are not there to take it with)
    assert _items(counts[1]) == sorted([item for item in _items(counts[0]) if item[0] != "moodle"] + [("moodle", WARM_CHUNK)])


def test_a_question_added_renders_the_small_chunks_whose_key_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question added at the end of a 99-question bank: the quiz backup's record ids scale with
    the question count, so in that target every chunk's place changed and every chunk is
    rendered (none of its small chunks has its key of before); in the other targets the last
    chunk's two small chunks of questions it held before are taken out of it, the one with the
    new question rendered."""
    counts = _builds(tmp_path, monkeypatch, [_bank((45, 45, 9)), _bank((45, 45, 10))], "--jobs", "1")
    rendered = _items(counts[1])
    assert sum(n for name, n in rendered if name == "moodle-quiz") == 100
    for other in TARGETS[:3]:
        assert [n for name, n in rendered if name == other] == [4]


def test_an_edit_of_a_chunks_first_question_finds_the_chunk_by_its_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Question 41, the first of the second chunk, edited: its id is made from its text, so the
    chunk now begins with a question no chunk before began with; the chunk before is found by
    its other questions, and only the edited question's small chunk is rendered."""
    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q41="Question 41: which one is edited?")], "--jobs", "1")
    assert _items(counts[1]) == sorted((name, WARM_CHUNK) for name in TARGETS)
