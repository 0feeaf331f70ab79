"""The build cache's own costs on a rebuild (issue 34, sixth session): an entry is unpickled with
Python's cyclic garbage collector paused (and the collector left as it was found), and whatever
is kept to spare a rebuild work still gives the bytes of a build without the cache. Every test
has its own empty cache folder (conftest.py's ``build_cache``)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from qti_builder import cache

#: What the collector's switch was each time a :class:`_Probe` was unpickled.
SEEN: list[bool] = []


def _probe_loaded(value: int) -> _Probe:
    SEEN.append(gc.isenabled())
    return _Probe(value)


class _Probe:
    """An object that notes, when it is unpickled, whether the collector was on."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _probe_loaded, (self.value,)


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("deflate", [True, False])
def test_an_entry_is_unpickled_with_the_collector_paused_and_left_as_it_was(collecting: bool, deflate: bool,
                                                                             build_cache: Path) -> None:
    cache._write("ab" * 32, [_Probe(k) for k in range(3)], deflate=deflate)
    SEEN.clear()
    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        entry = cache._read("ab" * 32)
        assert gc.isenabled() is collecting
    finally:
        gc.enable() if was else gc.disable()
    assert isinstance(entry, list) and [p.value for p in entry] == [0, 1, 2]
    assert SEEN == [False, False, False]


def test_a_damaged_entry_still_leaves_the_collector_on(build_cache: Path) -> None:
    """An entry whose checksum matches but whose pickle fails part way is a miss, and the
    collector is on again after it."""
    import hashlib

    payload = b"p" + b"\x80\x05garbage"
    path = build_cache / "cd" / ("cd" * 31)
    path.parent.mkdir(parents=True)
    path.write_bytes(cache.MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload)
    assert gc.isenabled()
    assert cache._read("cd" * 32) is None
    assert gc.isenabled()
