"""One ``qti-builder build SOURCE --watch`` session, timed build by build, for bench/speed.py's
``watch_rebuild`` figure. Run with a version's own Python (its .venv), so that the base and the
new code are each timed as they are:

    BASE/.venv/bin/python bench/watch_session.py SOURCE OUT EDITS.json RESULT.json

The command is the one a user types, run in this process (``cli.app``); its file watcher is
replaced by the saves in EDITS.json (each the whole text of SOURCE, written, then reported as a
change once the build before it is done), and each build it runs is timed: wall-clock seconds,
and CPU seconds of this process and of the processes it forked and waited for by then
(``getrusage``). What the session's background writes cost after the last build (the new code
writes the build cache's quiz entry in a forked process) is in ``session_cpu``. After each save
the files in OUT are copied to OUT-<n>, for the caller to compare with a build without the cache.
"""

from __future__ import annotations

import json
import resource
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    source, out, edits_file, result_file = map(Path, sys.argv[1:5])
    saves: list[str] = json.loads(edits_file.read_text("utf-8"))
    import watchfiles

    from qti_builder import serve
    from qti_builder.cli import app

    timings: list[dict[str, float]] = []

    def watch(*paths: Any, **kwargs: Any) -> Iterator[set[tuple[watchfiles.Change, str]]]:
        for n, text in enumerate(saves):
            shutil.copytree(out, out.with_name(f"{out.name}-{n}"), dirs_exist_ok=True)
            source.write_text(text, "utf-8")
            yield {(watchfiles.Change.modified, str(source))}
        shutil.copytree(out, out.with_name(f"{out.name}-{len(saves)}"), dirs_exist_ok=True)

    real = serve.watch_builds

    def timed_watch(options: Any, build: Callable[[Any], Any], stop: Any = None) -> None:
        def timed(opts: Any) -> Any:
            cpu, started = _cpu(), time.perf_counter()
            try:
                return build(opts)
            finally:
                timings.append({"wall": time.perf_counter() - started, "cpu": _cpu() - cpu})
        real(options, timed, stop)

    serve.watchfiles = SimpleNamespace(watch=watch)  # type: ignore[attr-defined]
    serve.watch_builds = timed_watch  # type: ignore[assignment]
    started = _cpu()
    try:
        app(["build", str(source), "--watch", "--quiet", "--out", str(out)], standalone_mode=False)
    finally:
        result_file.write_text(json.dumps({"builds": timings, "session_cpu": _cpu() - started}), "utf-8")


if __name__ == "__main__":
    main()
