"""The ``qti-builder`` script's entry point (``entry.run``): the command line imported under the
runtime code's stand-ins, with a file of its own, and with the collector paused; then the command
runs as ``cli.run`` runs it, with the same output and exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder.runtime_code import START, code_file

#: The user's cache folder, where the stand-ins' files live: each test's own.
pytestmark = pytest.mark.usefixtures("user_cache")

#: A fresh process running ``entry.run`` with the arguments given; on stderr's last line, what the
#: import of the command line did: the collections that ran, the dataclass methods and regular
#: expressions compiled from their text (by ``dataclasses``, or by the stand-in for a text its file
#: does not hold; ``re``'s parser run), and the collector's state after.
_WATCHED = """
import contextlib, dataclasses, gc, json, re._parser, sys
import platformdirs  # its own patterns, compiled at each run while the file's path is found: not counted
from qti_builder import runtime_code
seen = {{"collections": 0, "compiled": 0, "parsed": 0}}
inside = [False]
gc.callbacks.append(lambda phase, info: phase == "start" and inside[0] and seen.__setitem__("collections", seen["collections"] + 1))
def audit(event, args):
    if event == "compile" and inside[0] and sys._getframe(1).f_code.co_filename in (dataclasses.__file__, runtime_code.__file__):
        seen["compiled"] += 1
sys.addaudithook(audit)
parse = re._parser.parse
def parsing(*args, **kwargs):
    if inside[0]:
        seen["parsed"] += 1
    return parse(*args, **kwargs)
re._parser.parse = parsing
real = runtime_code.compiled_once
@contextlib.contextmanager
def watched(part=""):
    with real(part):
        inside[0] = part == runtime_code.START
        try:
            yield
        finally:
            inside[0] = False
runtime_code.compiled_once = watched
def report():
    seen["enabled"] = gc.isenabled()
    seen["cli"] = "qti_builder.cli" in sys.modules
    print(json.dumps(seen), file=sys.stderr)
import atexit
atexit.register(report)
sys.argv = ["qti-builder", *{args!r}]
from qti_builder.entry import run
run()
"""


def _watched(*args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    done = subprocess.run([sys.executable, "-c", _WATCHED.format(args=list(args))], capture_output=True, text=True,
                          timeout=300)
    return done, json.loads(done.stderr.strip().splitlines()[-1])


def test_the_script_runs_the_entry_point() -> None:
    [script] = [e for e in entry_points(group="console_scripts") if e.name == "qti-builder"]
    assert script.value == "qti_builder.entry:run"


def test_the_command_line_s_import_compiles_nothing_the_second_time_nor_collects() -> None:
    first, did = _watched("--version")
    assert first.returncode == 0 and first.stdout.startswith("qti-builder "), first.stderr
    assert did["compiled"] and did["parsed"]  # what the start compiles: kept for the next start
    assert code_file(START).is_file() and not code_file().exists()  # --version runs nothing under the command's
    again, did = _watched("--version")
    assert again.stdout == first.stdout
    assert did == {"collections": 0, "compiled": 0, "parsed": 0, "enabled": True, "cli": True}


def test_a_check_through_the_entry_point_prints_what_cli_run_prints(tmp_path: Path) -> None:
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: T\n---\n\n1. A question with no options and no answer?\n", encoding="utf-8")
    for source in (SEED_SOURCE, broken):
        args = ["check", str(source), "--no-cache", "--lang", "en"]
        through_entry, did = _watched(*args)
        assert did["collections"] == 0 and did["enabled"]
        direct = subprocess.run([sys.executable, "-c", f"import sys; sys.argv = ['qti-builder', *{args!r}]\n"
                                 "from qti_builder.cli import run; run()"], capture_output=True, text=True, timeout=300)
        assert (through_entry.returncode, through_entry.stdout) == (direct.returncode, direct.stdout)
        assert through_entry.stderr.splitlines()[:-1] == direct.stderr.splitlines()
    assert code_file().is_file()  # the command's own texts, in the command's file


def test_a_process_that_imported_the_command_line_runs_it_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from qti_builder import cli, entry

    ran: list[bool] = []
    monkeypatch.setattr(cli, "run", lambda: ran.append(gc.isenabled()))
    frozen = gc.get_freeze_count()
    entry.run()
    assert ran == [True] and gc.get_freeze_count() == frozen  # nothing frozen for an import it did not make
