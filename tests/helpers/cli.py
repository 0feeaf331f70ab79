"""The ``qti-builder`` command run in-process, as a user types it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from typer.testing import CliRunner

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
