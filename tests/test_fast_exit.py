"""The ``qti-builder`` command ends without the interpreter's teardown (cli.run, as mypy's
--fast-exit). What a user or a wrapper relies on at an exit stays: exit handlers run, the output
is whole, the exit code is the command's, and a thread still running is waited for."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from importlib.metadata import entry_points

import pytest
from helpers import SEED_SOURCE

_SCRIPT = """
import atexit, sys, threading
atexit.register(lambda: print("exit handler ran"))
if {thread!r}:
    # it ends after the command has: it waits for the main thread's exit to begin
    threading.Thread(target=lambda: (threading.main_thread().join(), print("thread done"))).start()
from qti_builder.cli import run
sys.argv = ["qti-builder", "check", {source!r}, "--no-cache", "--lang", "en"]
run()
"""


def _run(source: str, thread: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _SCRIPT.format(source=source, thread=thread)],
                          capture_output=True, text=True, timeout=300)


def test_the_command_is_run_and_ends_without_the_teardown() -> None:
    [script] = [e for e in entry_points(group="console_scripts") if e.name == "qti-builder"]
    assert script.value == "qti_builder.entry:run"
    done = _run(str(SEED_SOURCE))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ray-train-tune: 10 questions") and any(line.startswith("ok: 1 quiz") for line in lines)
    assert lines[-1] == "exit handler ran"


def test_an_error_keeps_its_exit_code(tmp_path) -> None:
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: T\n---\n\n1. A question with no options and no answer?\n", encoding="utf-8")
    done = _run(str(broken))
    assert done.returncode == 1
    assert "broken.md:" in done.stderr and done.stdout.splitlines()[-1] == "exit handler ran"


def test_a_thread_still_running_is_waited_for() -> None:
    done = _run(str(SEED_SOURCE), thread=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["thread done", "exit handler ran"]


def _command(monkeypatch, *arguments: str) -> list[weakref.ref[object]]:
    """Run the command in this process (``cli.main``); a weak reference to each build's result."""
    from qti_builder import cached_build, cli

    made: list[weakref.ref[object]] = []
    real = cached_build.build

    def build(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        made.append(weakref.ref(result))
        return result

    monkeypatch.setattr(cached_build, "build", build)
    monkeypatch.setattr(sys, "argv", ["qti-builder", *arguments])
    try:
        with pytest.raises(SystemExit) as exit_:
            cli.main()
    finally:
        gc.unfreeze()  # main leaves everything frozen for the process's end
    assert exit_.value.code == 0
    return made


def test_what_a_command_made_is_left_for_the_process_end_to_free(tmp_path, monkeypatch) -> None:
    """A build's result (its quizzes' models) is still referenced when the command has returned:
    the fast exit leaves it to the OS rather than freeing it object by object first. A later
    command in the same process lets the earlier one's go."""
    [first] = _command(monkeypatch, "build", str(SEED_SOURCE), "--no-cache", "--quiet", "--out", str(tmp_path / "a"))
    gc.collect()
    assert first() is not None
    [second] = _command(monkeypatch, "check", str(SEED_SOURCE), "--no-cache", "--quiet")
    gc.collect()
    assert second() is not None and first() is None
