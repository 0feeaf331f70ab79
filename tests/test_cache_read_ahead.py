"""A rebuild by hand reads the entries it takes from the build before ahead, on a thread
(``cache.read_ahead``, ``cache._ReadAhead``): the source's record of its chunks' keys, each
chunk it names and its outputs' deflated runs, read, checksummed and inflated while the pipeline
is imported and the source read; the build's own thread takes each payload and unpickles and
checks it as ever. An entry damaged, missing or of another chunk is still a miss (the chunk
rendered, the entry written again), the files are a ``--no-cache`` build's, and no thread of it
outlives the build or runs across a fork."""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from test_hand_parted import CHUNK, TARGETS, WARM_CHUNK, _builds, _edited, _items, _record_files
from test_watch_parted import _bank

from qti_builder import cache, cached_build, pipeline
from qti_builder.memory import kept
from qti_builder.results import BuildOptions


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch, build_cache: Path) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})


def _key(path: Path) -> str:
    return path.parent.name + path.name


class _Spy:
    """Which keys the thread reading ahead gave a payload of, and which the build's thread read
    from their files itself."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.given: list[str] = []
        self.read_here: list[str] = []
        real_take, real_payload = cache._ReadAhead.take, cache._payload

        def take(ahead: cache._ReadAhead, key: str) -> bytes | memoryview | None:
            data = real_take(ahead, key)
            if data is not None:
                self.given.append(key)
            return data

        def payload(path: Path) -> bytes | memoryview | None:
            if threading.current_thread() is threading.main_thread():
                self.read_here.append(_key(path))
            return real_payload(path)

        monkeypatch.setattr(cache._ReadAhead, "take", take)
        monkeypatch.setattr(cache, "_payload", payload)


def _chunks_named(build_cache: Path) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """The chunks (questions, key) by target of the source's record in the build cache."""
    records = _record_files(build_cache)
    assert len(records) == 1
    record = cache.load_chunk_keys(_key(records[0]))
    assert isinstance(record, dict)
    return record


def test_a_rebuild_by_hand_takes_every_chunk_of_the_record_read_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      build_cache: Path) -> None:
    """After one edit, every chunk the cold build's record names (the edited chunk's too: its
    small chunks are taken out of it) and the record itself come from the thread reading ahead,
    none read again by the build's own thread; the rebuild renders only the edited question's
    small chunks and writes what a build without the cache writes."""
    named: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    records: list[str] = []
    spy: list[_Spy] = []

    def before() -> None:
        named.update(_chunks_named(build_cache))
        records.append(_key(_record_files(build_cache)[0]))
        spy.append(_Spy(monkeypatch))

    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1", between=[before])
    assert _items(counts[1]) == sorted((name, WARM_CHUNK) for name in TARGETS)
    keys = {key for chunks in named.values() for _, key in chunks}
    assert len(keys) == 4 * len(TARGETS)
    assert keys | set(records) <= set(spy[0].given), "a chunk named by the record, or the record, not taken from the thread"
    assert not (keys | set(records)) & set(spy[0].read_here), "an entry read ahead read again by the build"


@pytest.mark.parametrize("damage", ["garbled", "garbage behind its checksum", "missing", "another chunk's"])
def test_an_entry_read_ahead_that_is_damaged_is_a_miss(damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       build_cache: Path) -> None:
    """The first chunk's entry in every target (questions 1-40; 60 is edited) damaged before the
    rebuild: its bytes garbled, garbage behind a checksum made to match it, its file gone, or its
    file holding the next chunk's entry. The thread reads it ahead as it finds it; the build
    renders that chunk whole in each target, writes its entry again, and writes what a build
    without the cache writes."""
    firsts: list[tuple[str, tuple[str, ...], str]] = []

    def damaged() -> None:
        named = _chunks_named(build_cache)
        for name in TARGETS:
            (questions, first), (_, second) = named[name][0], named[name][1]
            firsts.append((name, questions, first))
            path, other = cache._path(first), cache._path(second)
            data = path.read_bytes()
            head = len(cache.MAGIC) + 65
            if damage == "garbled":
                path.write_bytes(data[:head + 20] + b"x" * 40 + data[head + 60:])
            elif damage == "garbage behind its checksum":
                body = data[head - 1:head] + os.urandom(len(data) - head)
                path.write_bytes(cache.MAGIC + hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            elif damage == "missing":
                path.unlink()
            else:
                path.write_bytes(other.read_bytes())

    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1", between=[damaged])
    assert _items(counts[1]) == sorted([(name, WARM_CHUNK) for name in TARGETS] + [(name, CHUNK) for name in TARGETS])
    for name, questions, key in firsts:  # written again, whole and of its own chunk
        found = cache.load_chunk(key)
        assert isinstance(found, pipeline.TaskResult) and (found.task.format, found.task.questions) == (name, questions)


def _entries(folder: Path, sizes: dict[str, int]) -> None:
    """Entries of ``sizes`` bytes (a chunk's result of so many bytes) in the cache folder ``folder``."""
    for key, size in sizes.items():
        cache.store_chunk(key, b"x" * size, deflate=False)


def _record(keys_by_target: dict[str, list[str]]) -> str:
    """A record naming ``keys_by_target`` (each target's chunks, as a build keeps them), stored."""
    record = "f" * 64
    cache.store_chunk_keys(record, {name: [((f"q{n}",), key) for n, key in enumerate(keys)] for name, keys in keys_by_target.items()})
    return record


def _slow_payloads(monkeypatch: pytest.MonkeyPatch, seconds: float) -> list[str]:
    """Every payload read (by any thread) takes ``seconds`` longer; the keys read, in order."""
    read: list[str] = []
    real = cache._payload

    def slow(path: Path) -> bytes | memoryview | None:
        read.append(_key(path))
        time.sleep(seconds)
        return real(path)

    monkeypatch.setattr(cache, "_payload", slow)
    return read


def _hexes(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{n:02d}".ljust(64, "0") for n in range(count)]


def test_the_record_names_each_chunks_targets_one_after_the_other_and_only_keys(build_cache: Path) -> None:
    """The chunks to read, in the order a build takes them (a chunk's targets one after the
    other); a name that is not a key (a path, a short or upper-case string) never read; a
    record kept under another key, or not a record, names nothing."""
    a, b = _hexes("a", 3), _hexes("b", 2)
    record = _record({"qti21": a, "moodle": b + ["../../../etc/passwd", "A" * 64, "a" * 63]})
    data = cache._payload(cache._path(record))
    assert data is not None
    assert cache._named_chunks(record, data) == [a[0], b[0], a[1], b[1], a[2]]
    assert cache._named_chunks("e" * 64, data) == []
    cache.store_chunk("d" * 64, "not a record", deflate=False)
    other = cache._payload(cache._path("d" * 64))
    assert other is not None and cache._named_chunks("d" * 64, other) == []


def test_a_payload_being_read_is_waited_for_and_one_not_started_is_left_to_the_build(
        build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build asks for the chunk the thread is reading: it waits and gets the payload. It asks
    for one the thread has not started on: it gets nothing (it reads the entry itself), and the
    thread never reads it."""
    keys = _hexes("c", 6)
    _entries(build_cache, dict.fromkeys(keys, 1000))
    record = _record({"qti21": keys})
    expected = cache._payload(cache._path(keys[0]))
    read = _slow_payloads(monkeypatch, 0.05)
    ahead = cache._ReadAhead([record], [])
    try:
        while len(read) < 2:  # the record, then the first chunk, being read
            time.sleep(0.005)
        first = ahead.take(keys[0])
        assert first is not None and expected is not None and bytes(first) == bytes(expected)
        assert ahead.take(keys[5]) is None
        ahead.thread.join(5)
        assert not ahead.thread.is_alive()
        assert keys[5] not in read and keys[1:5] == read[2:]
        for key in keys[1:5]:
            assert ahead.take(key) is not None
    finally:
        ahead.halt()


def test_no_more_than_the_bytes_allowed_are_held_ahead(build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``AHEAD_BYTES`` of payloads not taken, the thread waits; each taken lets it go on."""
    keys = _hexes("d", 8)
    _entries(build_cache, dict.fromkeys(keys, 100_000))
    monkeypatch.setattr(cache, "AHEAD_BYTES", 250_000)
    record = _record({"qti21": keys})
    ahead = cache._ReadAhead([record], [])
    try:
        for held in (keys[:3], keys[3:6]):  # 300,000 bytes: past the limit after the third
            time.sleep(0.3)
            assert [key for key in keys if key in ahead.ready] == held
            for key in held:
                assert ahead.take(key) is not None
        ahead.thread.join(5)
        assert [key for key in keys if key in ahead.ready] == keys[6:]
        assert not ahead.thread.is_alive()
    finally:
        ahead.halt()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_no_thread_reads_ahead_across_a_fork(build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process forked while the thread reads ahead (a worker, the process pickling a quiz): the
    thread is stopped before the fork, what it made ready kept for this process; the forked
    process takes nothing read ahead (it has no such thread) and reads its entries itself."""
    keys = _hexes("e", 20)
    _entries(build_cache, dict.fromkeys(keys, 1000))
    record = _record({"qti21": keys})
    read = _slow_payloads(monkeypatch, 0.02)
    monkeypatch.setattr(cache, "_AHEAD", cache._ReadAhead([record], []))
    ahead = cache._AHEAD
    assert ahead is not None
    while len(read) < 3:
        time.sleep(0.005)
    pid = os.fork()
    if pid == 0:
        os._exit(0 if ahead.take(keys[0]) is None else 1)
    assert not ahead.thread.is_alive(), "the thread ran on across the fork"
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the forked process took a payload read ahead"
    assert len(read) < len(keys)
    assert ahead.take(keys[0]) is not None  # kept for this process
    cache.stop_reading_ahead()


def _options(tmp_path: Path, source: Path) -> BuildOptions:
    return BuildOptions(sources=[source], out_dir=tmp_path / "out", formats=list(TARGETS), cache=True, jobs=1)


def _reading_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "qti-builder cache read-ahead" and t.is_alive()]


@pytest.mark.parametrize("ending", ["built", "interrupted"])
def test_no_thread_reading_ahead_outlives_the_build(ending: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    build_cache: Path) -> None:
    """A rebuild that reads ahead, built or interrupted (Ctrl-C while it builds): once the build
    has returned or raised, no thread reads ahead and nothing read ahead is held."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    cached_build.build(_options(tmp_path, source))
    source.write_text(_edited(q60="Question 60: edited once?"), "utf-8")
    started: list[cache._ReadAhead] = []
    real_read_ahead = cache.read_ahead

    def spied(*args: object) -> None:
        real_read_ahead(*args)  # type: ignore[arg-type]
        if cache._AHEAD is not None:
            started.append(cache._AHEAD)

    monkeypatch.setattr(cached_build, "read_ahead", spied)
    if ending == "interrupted":
        def interrupted(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(pipeline, "build", interrupted)
        with pytest.raises(KeyboardInterrupt):
            cached_build.build(_options(tmp_path, source))
    else:
        cached_build.build(_options(tmp_path, source))
    assert started, "the rebuild read nothing ahead"
    assert not started[0].thread.is_alive() and not _reading_threads()
    assert cache._AHEAD is None


def test_a_watching_process_reads_nothing_ahead(tmp_path: Path, build_cache: Path) -> None:
    """A watch keeps its entries in memory: nothing is read ahead from the folder."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    cached_build.build(_options(tmp_path, source))
    source.write_text(_edited(q60="Question 60: edited once?"), "utf-8")
    options = _options(tmp_path, source)
    lookup = cache.look_up([source], options)
    assert lookup.settings is not None and not lookup.hits
    with kept():
        cache.read_ahead([source], lookup, options.formats)
        assert cache._AHEAD is None
    cache.read_ahead([source], lookup, options.formats)
    assert cache._AHEAD is not None
    cache.stop_reading_ahead()


def test_a_source_built_without_chunks_reads_nothing_ahead(tmp_path: Path, build_cache: Path) -> None:
    """A quiz too small to be built in chunks keeps no record of chunks' keys: its rebuild starts
    no thread to find none."""
    source = tmp_path / "small.md"
    source.write_text(_bank((5,)), "utf-8")
    options = _options(tmp_path, source)
    cached_build.build(options)
    source.write_text(_bank((5,), edits={3: "Question 3: edited?"}), "utf-8")
    lookup = cache.look_up([source], options)
    assert lookup.settings is not None and lookup.keys and not lookup.hits
    cache.read_ahead([source], lookup, options.formats)
    assert cache._AHEAD is None and not _reading_threads()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
def test_the_thread_reading_ahead_runs_at_a_lower_priority(build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It takes the CPU the build's own threads leave idle: its nice value is ``AHEAD_NICE`` above
    theirs (which stays as it was)."""
    keys = _hexes("f", 3)
    _entries(build_cache, dict.fromkeys(keys, 1000))
    record = _record({"qti21": keys})
    seen: list[int] = []
    real = cache._payload

    def noted(path: Path) -> bytes | memoryview | None:
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return real(path)

    monkeypatch.setattr(cache, "_payload", noted)
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    ahead = cache._ReadAhead([record], [])
    ahead.thread.join(5)
    assert seen and set(seen) == {min(mine + cache.AHEAD_NICE, 19)}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
    ahead.halt()
