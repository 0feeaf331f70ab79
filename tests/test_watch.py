"""``build --watch``: a change to one source rebuilds only that quiz; other changes rebuild all."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from qti_builder import BuildOptions
from qti_builder.serve import watch_builds

QUIZ = "---\ntitle: {title}\n---\n1. Q? {{#q1}}\n\nA) x\nB) y\n\nAnswer: A\n"


def test_only_the_changed_quiz_is_rebuilt(tmp_path: Path) -> None:
    one, two = tmp_path / "one.md", tmp_path / "two.md"
    one.write_text(QUIZ.format(title="One"), encoding="utf-8")
    two.write_text(QUIZ.format(title="Two"), encoding="utf-8")
    builds: list[list[str]] = []
    stop = threading.Event()

    def record(options: BuildOptions) -> None:
        builds.append(sorted(p.name for p in options.sources))

    watcher = threading.Thread(target=watch_builds, args=(BuildOptions(sources=[tmp_path]), record, stop), daemon=True)
    watcher.start()
    try:
        deadline = time.monotonic() + 10
        while not builds and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # let the watcher start
        two.write_text(QUIZ.format(title="Two, edited"), encoding="utf-8")
        while len(builds) < 2 and time.monotonic() < deadline + 10:
            time.sleep(0.05)
        (tmp_path / "picture.png").write_bytes(b"\x89PNG")
        while len(builds) < 3 and time.monotonic() < deadline + 20:
            time.sleep(0.05)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert builds[0] == [tmp_path.name]  # the first build: everything
    assert builds[1] == ["two.md"]  # a source changed: that quiz alone
    assert builds[2] == [tmp_path.name]  # anything else (media): everything again
