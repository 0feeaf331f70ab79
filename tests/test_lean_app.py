"""``cli._app_for``: a command named first on the command line runs on a copy of the app that
holds that command alone (typer makes a click command of every command it holds at every start).
What a user sees must be what the whole app gives: each command's ``--help``, its errors, its
output, and the root's options and callback before it; anything else runs on the whole app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer
from helpers import ROOT, SCHEMAS
from typer.testing import CliRunner

from qti_builder.cli import _app_for, app

ROOT_COMMAND = typer.main.get_command(app)
NAMES = list(ROOT_COMMAND.commands)  # type: ignore[attr-defined]


def _command_lines() -> list[list[str]]:
    lines: list[list[str]] = []
    for name, command in ROOT_COMMAND.commands.items():  # type: ignore[attr-defined]
        lines.append([name, "--help"])
        for sub in getattr(command, "commands", {}):
            lines.append([name, sub, "--help"])
    return lines


def _same(args: list[str], cwd: Path | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> None:
    if cwd is not None and monkeypatch is not None:
        monkeypatch.chdir(cwd)
    runner = CliRunner()
    whole = runner.invoke(app, args)
    lean = runner.invoke(_app_for(args), args)
    assert (lean.exit_code, lean.stdout, lean.stderr) == (whole.exit_code, whole.stdout, whole.stderr)


def test_a_command_named_first_runs_on_an_app_that_holds_it_alone() -> None:
    for name in NAMES:
        commands = typer.main.get_command(_app_for([name, "--help"])).commands  # type: ignore[attr-defined]
        assert list(commands) == [name]
    assert list(typer.main.get_command(_app_for(["schemas", "list"])).commands) == ["schemas"]  # type: ignore[attr-defined]
    # The whole app is left as it was: every command still in it
    assert list(typer.main.get_command(app).commands) == NAMES  # type: ignore[attr-defined]


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["chek", "source"], ["--version", "check"], ["-"]],
                         ids=lambda a: " ".join(a) or "nothing")
def test_anything_else_runs_on_the_whole_app(args: list[str]) -> None:
    assert _app_for(args) is app


@pytest.mark.parametrize("args", _command_lines(), ids=" ".join)
def test_every_command_s_help_is_the_whole_app_s(args: list[str]) -> None:
    _same(args)


@pytest.mark.parametrize("args", [["check", "--strict", "true"], ["check", "--no-such-flag"], ["build", "--format", "nope"],
                                  ["schemas"], ["schemas", "nope"], ["explain"], ["explain", "QB203"], ["import"],
                                  ["check", "no-such-file.md"], ["chek"]],
                         ids=" ".join)
def test_a_command_s_mistakes_are_told_as_the_whole_app_tells_them(args: list[str]) -> None:
    _same(args)


def test_a_check_prints_what_the_whole_app_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(SCHEMAS))
    _same(["check", "source/ray-train-tune.md", "--no-cache"], ROOT, monkeypatch)


def test_the_command_line_runs_a_command_on_its_lean_app(tmp_path: Path) -> None:
    """As a user starts it (``cli.main``, from ``python -m qti_builder``): a command named first is
    built alone, and the root's callback still runs before it (a wrong settings file is reported)."""
    script = ("import sys, typer.main\n"
              "made = []\n"
              "real = typer.main.get_command_from_info\n"
              "def counted(command_info, **kw):\n"
              "    made.append(command_info.name)\n"
              "    return real(command_info, **kw)\n"
              "typer.main.get_command_from_info = counted\n"
              "import atexit\n"
              "atexit.register(lambda: print('made', made, file=sys.stderr))\n"
              "sys.argv = ['qti-builder', *sys.argv[1:]]\n"
              "from qti_builder.cli import run\n"
              "run()\n")
    (tmp_path / "qti-builder.toml").write_text("no_such_setting = 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", script, "check", "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("Usage: qti-builder check ")
    assert "made ['check']" in done.stderr
    done = subprocess.run([sys.executable, "-c", script, "check"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 2 and "made ['check']" in done.stderr
    assert "QB23" in done.stderr  # the settings file's mistake, told by the root's callback
    done = subprocess.run([sys.executable, "-c", script, "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "made ['init', 'build', 'check'" in done.stderr
