"""The ``qti-builder`` command run in-process, as a user types it."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from helpers import write
from qti_builder.cli import app

runner = CliRunner()


BROKEN = """---
title: Broken
---

1. Which one? {#q1}

A) this
B) that

2. And now? {#q2}

A) yes
B) no

Anwser: A
"""


def run(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    old = Path.cwd()
    if cwd:
        os.chdir(cwd)
    try:
        result = runner.invoke(app, list(args))
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@dataclass(frozen=True)
class Reported:
    """One diagnostic as the command printed it, with its hint."""

    line: int
    column: int
    severity: str
    code: str
    message: str
    hint: str


LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning)\[(?P<code>QB\d+)\]: (?P<message>.*)$")


def check_source(tmp_path: Path, name: str, text: str, *options: str) -> tuple[int, list[Reported]]:
    """``qti-builder check`` on one source (``text`` written to ``tmp_path/name``): the exit code
    and what it printed, with hints."""
    path = write(tmp_path, name, text)
    code, _, err = run("check", path.name, *options, cwd=tmp_path)
    assert "Traceback" not in err, err
    reported: list[Reported] = []
    for line in err.splitlines():
        found = LINE.match(line)
        if found:
            reported.append(Reported(int(found["line"]), int(found["column"]), found["severity"], found["code"], found["message"], ""))
        elif line.startswith("    hint: ") and reported:
            last = reported[-1]
            reported[-1] = Reported(last.line, last.column, last.severity, last.code, last.message, line.removeprefix("    hint: "))
    return code, reported
