"""The ``qti-builder`` command ends without the interpreter's teardown (cli.run, as mypy's
--fast-exit). What a user or a wrapper relies on at an exit stays: exit handlers run, the output
is whole, the exit code is the command's, and a thread still running is waited for."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

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
    assert script.value == "qti_builder.cli:run"
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
