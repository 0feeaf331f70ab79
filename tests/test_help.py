"""Every ``--help``: examples that run as written, a pointer to the source format, and flags that
look like flags (``--strict``, never ``--strict <bool>``, which invites ``--strict true``)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import typer
from helpers import ROOT, SCHEMAS
from helpers.cli import run

from qti_builder.cli import app
from qti_builder.schemas import pins

ROOT_COMMAND = typer.main.get_command(app)
COMMANDS: dict[str, typer.core.TyperCommand] = ROOT_COMMAND.commands  # type: ignore[attr-defined]
#: Examples that keep running (a server, a watch): parsed, not run.
LONG_RUNNING = ("serve", "--watch")


def help_text(command: str | None) -> str:
    code, out, err = run(*([command] if command else []), "--help")
    assert code == 0, err
    return out


def examples(text: str) -> list[list[str]]:
    """The example command lines of a --help, as argument lists (comments dropped)."""
    block = text.split("Examples:", 1)[1]
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip().startswith("qti-builder ")]


def test_every_command_is_covered() -> None:
    assert {"init", "build", "check", "preview", "serve", "import", "schema", "docs", "schemas"} <= set(COMMANDS)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_has_examples_and_points_to_the_source_format(command: str | None) -> None:
    text = help_text(command)
    lines = examples(text)
    assert 1 <= len(lines) <= 3
    assert all(line[0] == "qti-builder" and (command is None or line[1] == command) for line in lines)
    assert "How to write a quiz source: qti-builder docs source-format" in " ".join(text.split())
    assert (ROOT / "docs" / "source-format.md").is_file()


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_flags_show_no_value_placeholder(command: str | None) -> None:
    text = help_text(command)
    assert "<bool>" not in text and "BOOLEAN" not in text
    params = (COMMANDS[command] if command else ROOT_COMMAND).params
    flags = [p for p in params if getattr(p, "is_flag", False)]
    if command == "build":
        assert {"--strict", "--watch", "--quiet", "--verbose"} <= {name for flag in flags for name in flag.opts}
    for flag in flags:
        names = ", ".join(sorted(flag.opts, key=len)) + "".join(f" / {name}" for name in flag.secondary_opts)  # --strict / --no-strict
        # The names, then at least two spaces, then the help: no "<...>" for a value in between.
        assert re.search(rf"^  {re.escape(names)}  +[A-Z]", text, re.M), (names, text)
    for option in (p for p in params if p not in flags and p.param_type_name == "option"):
        assert re.search(rf"{re.escape(max(option.opts, key=len))} <", text), option.opts  # options with a value say so


@pytest.mark.parametrize("flag", ["--strict", "--quiet", "--verbose"])
@pytest.mark.parametrize("value", ["true", "False", "yes"])
def test_a_value_after_a_flag_is_explained(tmp_path: Path, flag: str, value: str) -> None:
    code, out, err = run("check", flag, value, cwd=tmp_path)
    assert code == 2 and out == ""
    assert f"path '{value}' does not exist; flags such as --strict take no value" in err


def test_a_missing_source_is_still_named_plainly(tmp_path: Path) -> None:
    code, _, err = run("build", "nope.md", cwd=tmp_path)
    assert code == 2 and "path 'nope.md' does not exist" in err and "take no value" not in err


def _schema_server(url: str) -> bytes:
    """Stands in for the official schema servers and any mirror: the file the URL ends with."""
    for rel in pins()["files"]:
        if url.endswith("/" + rel) or url == pins()["files"][rel]["url"]:
            return (SCHEMAS / rel).read_bytes()
    raise OSError(f"not found: {url}")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_the_examples_run_in_a_new_project(tmp_path: Path, command: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command's examples, in order, in a project made by ``init`` (with the files the import
    examples name); a server or a watch is only parsed. Downloads (``schemas fetch``) are served
    from the workspace's copy of the schemas."""
    monkeypatch.setattr("qti_builder.schemas._http_get", _schema_server)
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "cache")
    if command not in (None, "init"):
        assert run("init", cwd=tmp_path)[0] == 0
    if command == "diff":  # the examples compare commits: two, the second without a change to the quizzes
        for message in ("quizzes", "notes"):
            (tmp_path / "notes.txt").write_text(message, encoding="utf-8")
            for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", message]):
                subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args], cwd=tmp_path,
                               check=True, capture_output=True)
    shutil.copy(ROOT / "tests/fixtures/import/messy-moodle.xml", tmp_path / "moodle-export.xml")
    shutil.copy(ROOT / "tests/fixtures/import/text2qti-quiz.txt", tmp_path / "week-1.txt")
    for args in examples(help_text(command)):
        args, redirect = (args[:args.index(">")], args[args.index(">") + 1]) if ">" in args else (args, None)
        if any(word in args for word in LONG_RUNNING):
            with pytest.MonkeyPatch.context() as patch:
                patch.chdir(tmp_path)
                COMMANDS[args[1]].make_context(args[1], args[2:])  # raises on an unknown option or a missing path
            continue
        code, out, err = run(*args[1:], cwd=tmp_path)
        assert code == 0, (args, err)
        if redirect:
            (tmp_path / redirect).write_text(out, encoding="utf-8")
            assert json.loads(out)["title"] == "Quiz"
    if command in (None, "build"):
        assert (tmp_path / "dist" / "first-quiz.moodle.xml").is_file()
