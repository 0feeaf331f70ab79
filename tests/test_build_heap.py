"""The build pauses Python's cyclic collector while it reads and freezes what it read until it ends
(pipeline.build): whatever the build's outcome, the process's collector is left as it was found,
running or not, with nothing frozen, so a long-running process (watch, serve) collects each
build's objects again; and the outputs are those of a build with the collector untouched."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder import pipeline
from qti_builder.diagnostics import BuildFailed
from qti_builder.results import BuildOptions


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was_found(tmp_path: Path, enabled: bool) -> None:
    seen: list[tuple[bool, int]] = []
    real = pipeline._work

    def working(*args: object, **kwargs: object) -> int:
        seen.append((gc.isenabled(), gc.get_freeze_count()))  # after reading: frozen, collecting as before
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "_work", working)
        (gc.enable if enabled else gc.disable)()
        try:
            pipeline.build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", cache=False))
            assert (gc.isenabled(), gc.get_freeze_count()) == (enabled, 0)
        finally:
            gc.enable()
    assert seen and seen[0][0] == enabled and seen[0][1] > 0


def test_a_failed_build_leaves_the_collector_running(tmp_path: Path) -> None:
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: Broken\n---\n\n1. Which?\n\nA) one\nB) two\n\nAnswer: Q\n", "utf-8")
    with pytest.raises(BuildFailed):
        pipeline.build(BuildOptions(sources=[broken], out_dir=tmp_path / "dist", cache=False))
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_outputs_are_those_of_a_build_with_the_collector_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pipeline.build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "paused", cache=False))
    monkeypatch.setattr(pipeline.gc, "disable", lambda: None)
    monkeypatch.setattr(pipeline.gc, "freeze", lambda: None)
    pipeline.build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "untouched", cache=False))
    assert _files(tmp_path / "paused") == _files(tmp_path / "untouched")
