"""The README's two set-up commands stay true: CI runs the second one verbatim."""

from __future__ import annotations

import re

from helpers import ROOT


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) >= 2
    build_command, test_command = blocks[0], blocks[1]
    assert readme.index("```sh") < readme.index("qti-builder turns")  # the README starts with them
    assert "qti-builder build" in build_command
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
