"""What a rebuild by hand keeps in the build cache: the chunk it cut in small chunks, put together
again (``pipeline._Rejoined``), and not each small chunk it rendered under its own key, which no
rebuild by hand looks up (``_State.parted``). The rebuilds after it still find what they need:
the edited question's small chunk is all each renders, and every file is a ``--no-cache``
build's, byte for byte (``test_hand_parted._builds``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hand_parted import (CHUNK, TARGETS, WARM_CHUNK, _builds, _edited, _items, _record_files,  # noqa: F401 - fixtures
                              _parted_as_rendered, _small_chunks)
from test_watch_parted import _bank

from qti_builder import cache, pipeline


def _chunk_entries(folder: Path) -> list[int]:
    """The number of questions of each chunk's result the build cache holds (not the frames'), sorted."""
    sizes = []
    for path in folder.glob("*/*"):
        entry = cache._read(path.parent.name + path.name)
        if isinstance(entry, cache.CachedChunk) and isinstance(entry.result, pipeline.TaskResult) \
                and entry.result.task.part == "items":
            sizes.append(len(entry.result.task.questions))
    return sorted(sizes)


def test_a_rebuild_by_hand_keeps_the_chunk_not_its_small_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 build_cache: Path) -> None:
    """Question 60 edited, edited again, the bank put back, then question 130 of another section
    edited: each rebuild after an edit keeps the edited chunk whole once per target (none of the
    small chunks it rendered), and the next rebuild still renders only the edited question's small
    chunk, or nothing when the text is one the cache has seen."""
    seen: list[list[int]] = []

    def entries() -> None:
        seen.append(_chunk_entries(build_cache))

    texts = [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: edited twice?"), _bank(),
             _edited(q130="Question 130: edited?")]
    counts = _builds(tmp_path, monkeypatch, texts, "--jobs", "1", between=[entries] * 4)
    entries()
    cold = seen[0]
    assert cold and min(cold) > WARM_CHUNK, cold
    small = [[n for n in sizes if n <= WARM_CHUNK] for sizes in seen]
    assert small == [[]] * 5, "no small chunk kept under its own key"
    # each edit keeps its chunk once per target: 60's of 40 twice, 130's of 30 once; put back, none
    assert [len(sizes) - len(cold) for sizes in seen] == [0, 4, 8, 8, 12]
    assert sorted(seen[-1]) == sorted(cold + [CHUNK] * 8 + [30] * 4)
    for k in (1, 2, 4):
        assert _items(counts[k]) == sorted((name, WARM_CHUNK) for name in TARGETS), f"build {k}"
    assert _items(counts[3]) == [], "put back: every chunk found as the cold build kept it"


def test_the_record_of_the_chunks_keys_is_kept_not_deflated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            build_cache: Path) -> None:
    """The source's record of its chunks' keys, which every rebuild by hand after an edit writes
    again and the next reads, is kept as its pickled bytes (kind "p"), not deflated ("z"), and
    read back: the second edit's rebuild still parts the chunk by it."""
    kinds: list[bytes] = []

    def kind() -> None:
        records = _record_files(build_cache)
        assert len(records) == 1
        kinds.append(records[0].read_bytes()[cache.PAYLOAD_AT:cache.PAYLOAD_AT + 1])

    texts = [_bank(), _edited(q60="Question 60: edited once?"), _edited(q60="Question 60: edited twice?")]
    counts = _builds(tmp_path, monkeypatch, texts, "--jobs", "1", between=[kind, kind])
    kind()
    assert kinds == [b"p"] * 3
    assert _items(counts[2]) == sorted((name, WARM_CHUNK) for name in TARGETS)
