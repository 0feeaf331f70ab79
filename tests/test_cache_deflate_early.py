"""A quiz's big output that is not compressed already (the Moodle XML file) starts deflating for
the quiz's entry as soon as its bytes are made (``cache.pack_soon(contents, name)``), while the
outputs after it are put together, not once all are: on a 10,000-question bank's rebuild by
hand the command's thread waited for that deflate when it stored the entry. The entry takes it
only when every output was started on the bytes it holds; outputs compressed already start no
deflate."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder import cache, pipeline
from qti_builder.cached_build import build
from qti_builder.results import BuildOptions
from qti_builder.writers import DEFAULT_FORMATS


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_moodle_files_deflate_starts_before_the_last_output_is_put_together(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert DEFAULT_FORMATS[-1] != "moodle"
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "cold", cache=False))
    monkeypatch.setattr(cache, "DEFLATE_BESIDE_FROM", 1000)  # the seed's Moodle XML file counts as big
    events: list[tuple[str, ...]] = []
    beside, together = cache._packed_beside, pipeline._put_together

    def deflating(contents: dict[str, bytes]) -> object:
        events.append(("deflate", *contents))
        return beside(contents)

    def put(done: list[pipeline.TaskResult], *args: object) -> object:
        events.append(("put together", done[0].task.format))
        return together(done, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cache, "_packed_beside", deflating)
    monkeypatch.setattr(pipeline, "_put_together", put)
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "kept", cache=True))
    assert ("deflate", "moodle") in events, events
    # an output after it is put together once the deflate has started (the last: in _finish)
    assert events[-1][0] == "put together" and events.index(("deflate", "moodle")) < len(events) - 1, events
    assert [e for e in events if e[0] == "deflate"] == [("deflate", "moodle")], "the zips and the tarball: no deflate"
    assert not cache._SOON
    cold = _files(tmp_path / "cold")
    assert _files(tmp_path / "kept") == cold
    read = [cache._read(p.parent.name + p.name) for p in build_cache.rglob("*") if p.is_file()]
    [stored] = [entry for entry in read if isinstance(entry, cache._StoredQuiz)]
    assert sorted(stored.unpacked().contents.values()) == sorted(cold.values())


def test_a_deflate_started_early_is_taken_only_when_every_output_was_started_on_its_bytes() -> None:
    big = b"<quiz/>" * cache.DEFLATE_BESIDE_FROM
    contents = {"qti21": b"PK\x03\x04 a zip", "moodle": big}
    cache.pack_soon(contents, "qti21")  # compressed already: nothing started
    cache.pack_soon(contents, "moodle")
    assert list(cache._SOON[id(contents)][1]) == ["moodle"]
    assert cache._taken_soon(contents) is None, "not every output started" and not cache._SOON
    cache.pack_soon(contents, "moodle")
    cache.pack_soon(contents)
    done = cache._taken_soon(contents)
    assert done is not None and done() == cache._packed(contents) and list(done()) == list(contents)
    cache.pack_soon(contents, "moodle")
    contents["moodle"] = big + b"<!-- changed -->"
    cache.pack_soon(contents)
    assert cache._taken_soon(contents) is None and not cache._SOON
    cache.pack_soon({"moodle": b"<quiz/>"}, "moodle")  # small: deflated with the others, at the end
    assert all(not started for _, started in cache._SOON.values())
    cache.drop_soon()
    assert not cache._SOON
