"""A rebuild by hand reads ahead the entries the last build of its source took or wrote: each build
keeps, per source, the keys of the entries it asked the cache for or wrote (``cache.CachedTaken``,
the biggest first), and the next build that misses the source's own entry reads and checks their
files while the pipeline is imported (``cache.read_ahead``); ``cache._read`` takes each one once,
as it would have read it. The files a rebuild writes are a ``--no-cache`` build's, byte for byte;
an entry damaged after the record was written is not taken from what was read ahead (a miss,
written again); a record naming entries not there, of another kind, or names that are no key is
harmless; each build keeps its own record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_hand_parted import CHUNK, TARGETS, WARM_CHUNK, _builds, _edited, _items
from test_watch_parted import _bank

from qti_builder import cache, cached_build, memory, pipeline
from qti_builder.results import BuildOptions


class _Ahead(dict[str, memoryview]):
    """``cache._AHEAD``, noting each key read ahead and each taken from it."""

    def __init__(self) -> None:
        super().__init__()
        self.put: list[str] = []
        self.taken: list[str] = []

    def __setitem__(self, key: str, value: memoryview) -> None:
        self.put.append(key)
        super().__setitem__(key, value)

    def pop(self, key: str, default: object = None) -> object:  # type: ignore[override]
        found = super().pop(key, default)
        if found is not default:
            self.taken.append(key)
        return found


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch, build_cache: Path) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})
    monkeypatch.setattr(cache, "AHEAD_FROM", 1)  # the test banks' entries are small


@pytest.fixture
def ahead(monkeypatch: pytest.MonkeyPatch) -> list[_Ahead]:
    """Each build's read-ahead, whole: the pipeline is imported already in the tests' process, so
    the wait for its import would end at once; here every planned entry is read."""
    seen: list[_Ahead] = []

    def whole(done: Callable[[], bool]) -> None:
        if not cache._planned:  # (a cold build, a build without the cache: nothing to read)
            return
        seen.append(_Ahead())
        monkeypatch.setattr(cache, "_AHEAD", seen[-1])
        cache.read_ahead(lambda: False)

    monkeypatch.setattr(cached_build, "read_ahead", whole)
    return seen


def _entries(folder: Path) -> dict[str, object]:
    found = {}
    for path in folder.glob("*/*"):
        key = path.parent.name + path.name
        found[key] = cache._read(key, noted=False)
    return found


def _record(folder: Path) -> cache.CachedTaken:
    records = [e for e in _entries(folder).values() if isinstance(e, cache.CachedTaken)]
    assert len(records) == 1
    return records[0]


def test_a_rebuild_takes_the_entries_read_ahead_and_writes_what_a_build_without_the_cache_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ahead: list[_Ahead], build_cache: Path) -> None:
    """The cold build reads nothing ahead (no record yet) and keeps one; each rebuild after an edit
    reads ahead the entries it names, takes nearly all of them (not the edited question's chunk's
    small pieces) from there and none twice, and lets go of the rest when it ends."""
    texts = [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: edited twice?"),
             _edited(q60="Question 60: edited twice?", q130="Question 130: edited?")]
    counts = _builds(tmp_path, monkeypatch, texts, "--jobs", "1")
    assert len(ahead) == 3, "one read-ahead per rebuild, none in the cold build"
    for k, seen in enumerate(ahead, 1):
        assert _items(counts[k]) == sorted((name, WARM_CHUNK) for name in TARGETS), f"build {k}"
        assert len(seen.put) >= 4 * 4, f"build {k}: the chunks of four targets at least"
        assert len(set(seen.put)) == len(seen.put) and len(set(seen.taken)) == len(seen.taken)
        assert set(seen.taken) <= set(seen.put)
        assert len(seen.taken) >= len(seen.put) * 3 // 4, f"build {k}: {len(seen.put) - len(seen.taken)} read ahead for nothing"
        assert not seen, "what was not taken is let go of when the build ends"
    assert not cache._AHEAD and not cache._planned


def test_an_entry_damaged_after_the_record_was_written_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    ahead: list[_Ahead], build_cache: Path) -> None:
    """After the cold build, every chunk entry the record names has a word of its documents
    changed ("apple" made "APPLE", which still unpickles: only the checksum tells): the rebuild
    reads none of them ahead, finds each damaged as it always did (a miss), renders it again and
    writes it again whole, and writes what a build without the cache writes."""
    damaged: list[str] = []

    def damage() -> None:
        for key in _record(build_cache).keys:
            path = cache._path(key)
            data = path.read_bytes()
            if isinstance(cache._read(key, noted=False), cache.CachedChunk) and b"apple" in data:
                path.write_bytes(data.replace(b"apple", b"APPLE", 1))
                damaged.append(key)

    counts = _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1",
                     between=[damage])
    assert len(damaged) >= 4, "the Moodle chunks at least (the zips' are deflated)"
    assert not set(damaged) & set(ahead[0].put)
    assert ahead[0].put, "the entries not damaged are read ahead"
    assert sum(n for _, n in _items(counts[1])) > len(TARGETS) * WARM_CHUNK, "the damaged chunks rendered again"
    # written again, whole: each but the edited question's chunk of before (asked for only to take
    # its small chunks out of it, and rendered whole under its new key)
    again = [key for key in damaged if isinstance(cache._read(key, noted=False), cache.CachedChunk)]
    assert len(again) >= len(damaged) - 1
    assert all(b"APPLE" not in cache._path(key).read_bytes() for key in again)


@pytest.mark.parametrize("listing", ["missing", "foreign", "not keys", "another source's", "no tuple"])
def test_a_record_of_missing_or_foreign_keys_is_harmless(listing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         ahead: list[_Ahead], build_cache: Path) -> None:
    """The record replaced before the rebuild by one that names entries not there, entries of
    other kinds and sources (the quiz's own entry, another bank's chunks), names that are no key
    (a path out of the cache folder, an upper-case key, a number), one made for another source's
    key, or one that holds no tuple of keys: nothing that is no key is ever opened, what is
    read ahead and not asked for is let go of, and the rebuild writes what a build without the
    cache writes."""
    opened: list[str] = []
    real_whole = cache._whole

    def whole(path: str) -> bytes:
        opened.append(path)
        return real_whole(path)

    monkeypatch.setattr(cache, "_whole", whole)
    outside = tmp_path / "outside"
    outside.write_bytes(cache.framed(b"p" + b"x" * 100))

    def replaced() -> None:
        record = _record(build_cache)
        key = record.key
        entries = _entries(build_cache)
        quiz = next(k for k, e in entries.items() if isinstance(e, cache._StoredQuiz))
        if listing == "missing":
            keys: tuple[object, ...] = ("0" * 64, "f" * 64, *record.keys)
        elif listing == "foreign":
            keys = (quiz, key)
        elif listing == "not keys":
            keys = (f"../../{outside}", record.keys[0].upper(), 12, *record.keys)
        elif listing == "another source's":
            other = cache.taken_key(cache.settings_key(BuildOptions(sources=[])) or "", tmp_path / "other.md")
            cache._write(other, cache.CachedTaken(other, record.keys), deflate=False, noted=False)
            path = cache._path(key)
            path.write_bytes(cache._path(other).read_bytes())
            return
        else:
            cache._write(key, cache.CachedTaken(key, list(record.keys)), deflate=False, noted=False)  # type: ignore[arg-type]
            return
        cache._write(key, cache.CachedTaken(key, keys), deflate=False, noted=False)  # type: ignore[arg-type]

    _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?")], "--jobs", "1", between=[replaced])
    assert all(Path(p).resolve().is_relative_to(build_cache.resolve()) for p in opened)
    assert not any(str(outside) in p for p in opened)
    if listing in ("not keys", "another source's", "no tuple"):
        assert ahead == [], "a record naming what is no key, not of this key, or not a tuple is not followed"
        return
    seen = ahead[0]
    assert seen.put, "the entries there are read ahead"
    if listing == "foreign":
        assert seen.taken == [], "the quiz's own entry and the record are not asked for"
    assert not seen and not cache._AHEAD


def test_each_build_keeps_its_record_of_the_entries_it_took_or_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     ahead: list[_Ahead], build_cache: Path) -> None:
    """The cold build's record names every chunk, run and piece entry it kept big enough to read
    ahead, the biggest first; the rebuild's replaces it, naming the entries the rebuild wrote (the
    edited chunks); the next rebuild's replaces that."""
    records: list[cache.CachedTaken] = []
    before: list[set[str]] = []
    sizes: list[list[int]] = []

    def kept() -> None:
        records.append(_record(build_cache))
        before.append(set(_entries(build_cache)))
        sizes.append([cache._path(k).stat().st_size for k in records[-1].keys])

    _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: twice?")],
            "--jobs", "1", between=[kept, kept])
    records.append(_record(build_cache))
    entries = _entries(build_cache)
    cold = records[0]
    kinds = (cache.CachedChunk, cache.CachedRuns, cache.CachedPiece, cache.CachedChunkKeys, cache.CachedValid)
    assert set(cold.keys) == {k for k in before[0] if isinstance(entries.get(k), kinds)}
    assert sizes[0] == sorted(sizes[0], reverse=True) and sizes[1] == sorted(sizes[1], reverse=True), "the biggest first"
    rebuilt = records[1]
    written = {k for k in before[1] - before[0] if isinstance(entries.get(k), kinds)}
    assert written and written <= set(rebuilt.keys), "the entries the rebuild wrote"
    assert rebuilt.keys != cold.keys
    assert records[2].keys != rebuilt.keys, "the third build's"


def test_a_huge_record_reads_ahead_only_so_many_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      ahead: list[_Ahead], build_cache: Path) -> None:
    """The record names entries up to ``AHEAD_BYTES`` (the biggest first), and the read-ahead stops
    there too; what is not read ahead is read by the build as always."""
    cap: list[int] = []

    def capped() -> None:
        sizes = [cache._path(k).stat().st_size for k in _record(build_cache).keys]
        cap.append(sizes[0] + sizes[1])
        monkeypatch.setattr(cache, "AHEAD_BYTES", cap[0])

    _builds(tmp_path, monkeypatch, [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: again?")],
            "--jobs", "1", between=[capped, None])
    assert len(ahead[0].put) <= 2
    assert sum(cache._path(k).stat().st_size for k in ahead[0].put if cache._path(k).exists()) <= cap[0]
    assert len(ahead[1].put) <= 2, "the rebuild's own record holds as many bytes"
    assert sum(cache._path(k).stat().st_size for k in _record(build_cache).keys) <= cap[0]


def test_no_read_ahead_in_a_watch_or_without_the_cache(tmp_path: Path, build_cache: Path) -> None:
    """A watching process keeps its entries in memory (memory.py): no record is followed or kept;
    nor with ``--no-cache``."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    options = BuildOptions(sources=[source], out_dir=tmp_path / "dist", cache=True)
    settings = cache.settings_key(options)
    assert settings is not None
    key = cache.taken_key(settings, source)
    cache._write(key, cache.CachedTaken(key, ("a" * 64,)), deflate=False, noted=False)
    cache.look_up([source], options)
    assert cache._planned == ["a" * 64] and cache._noted == {}
    with memory.kept():
        cache.look_up([source], options)
        assert cache._planned == [] and cache._noted is None
    cache.look_up([source], BuildOptions(sources=[source], out_dir=tmp_path / "dist", cache=False))
    assert cache._planned == [] and cache._noted is None
