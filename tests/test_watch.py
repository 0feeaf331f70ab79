"""``build --watch``: a change to one source rebuilds only that quiz; other changes rebuild all."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import watchfiles.main

from qti_builder import BuildOptions
from qti_builder.serve import watch_builds

QUIZ = "---\ntitle: {title}\n---\n1. Q? {{#q1}}\n\nA) x\nB) y\n\nAnswer: A\n"
#: How long any one step may take on a loaded 2-core machine before the test fails.
STEP = 20


def test_only_the_changed_quiz_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = tmp_path / "one.md", tmp_path / "two.md"
    one.write_text(QUIZ.format(title="One"), encoding="utf-8")
    two.write_text(QUIZ.format(title="Two"), encoding="utf-8")
    builds: list[list[str]] = []
    built = threading.Condition()
    watching = threading.Event()
    stop = threading.Event()

    make_notify = watchfiles.main.RustNotify

    def notify(*args: object, **kwargs: object) -> object:
        """watchfiles' watcher: the file system is watched once it is made. That is the signal."""
        made = make_notify(*args, **kwargs)
        watching.set()
        return made

    monkeypatch.setattr(watchfiles.main, "RustNotify", notify)

    def record(options: BuildOptions) -> None:
        with built:
            builds.append(sorted(p.name for p in options.sources))
            built.notify_all()

    def until(count: int) -> None:
        with built:
            assert built.wait_for(lambda: len(builds) >= count, timeout=STEP), builds

    watcher = threading.Thread(target=watch_builds, args=(BuildOptions(sources=[tmp_path]), record, stop), daemon=True)
    watcher.start()
    try:
        until(1)
        assert watching.wait(timeout=STEP)
        two.write_text(QUIZ.format(title="Two, edited"), encoding="utf-8")
        until(2)
        (tmp_path / "picture.png").write_bytes(b"\x89PNG")
        until(3)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert builds[0] == [tmp_path.name]  # the first build: everything
    assert builds[1] == ["two.md"]  # a source changed: that quiz alone
    assert builds[2] == [tmp_path.name]  # anything else (media): everything again
