"""The README's two set-up commands stay true: CI runs the second one verbatim."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from helpers import ROOT, SCHEMAS, schemas_for_tests

from qti_builder.schemas import pins


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) >= 2
    build_command, test_command = blocks[0], blocks[1]
    assert "qti-builder build" in build_command
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_says_what_the_tool_is_then_how_to_set_it_up() -> None:
    """One sentence of what qti-builder is, then the two set-up commands, before anything else."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    title, first, rest = readme.split("\n\n", 2)
    assert title == "# qti-builder"
    sentence = " ".join(first.split())
    assert sentence.startswith("qti-builder turns") and sentence.count(". ") == 0 and sentence.endswith(".")
    assert rest.startswith("```sh\n")  # the commands come right after it
    # The build command reads the workspace's offline copy of the schemas; the test command needs
    # none (the tests use it when it is there, else the cache they fill once).
    build_command, test_command = re.findall(r"```sh\n(.*?)\n```", readme, re.S)[:2]
    assert "QTI_BUILDER_SCHEMAS=../shared/schemas " in build_command and "shared" not in test_command


def test_using_it_calls_the_command_the_setup_installed() -> None:
    """The set-up installs into .venv/: "Using it" calls .venv/bin/qti-builder or activates it first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    using = readme.split("## Using it", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)\n```", using, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    first_call = next(i for i, c in enumerate(commands) if c.startswith("qti-builder"))
    assert ". .venv/bin/activate" in commands[:first_call] or all(
        not c.startswith("qti-builder") for c in commands if c)


def test_the_tests_fetch_the_schemas_once_on_a_fresh_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone has neither QTI_BUILDER_SCHEMAS nor the workspace's copy beside it: the tests
    then validate with the tool's own cache, downloaded once and checked against the pins."""
    served = {pin["url"]: SCHEMAS / rel for rel, pin in pins()["files"].items()}
    asked: list[str] = []

    def official_server(url: str) -> bytes:  # stands in for the 1EdTech, W3C and GitHub servers
        asked.append(url)
        return served[url].read_bytes()

    monkeypatch.setattr("qti_builder.schemas._http_get", official_server)
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "cache")
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS", raising=False)
    absent = tmp_path / "shared" / "schemas"
    assert schemas_for_tests({}, absent) == tmp_path / "cache"
    assert sorted(asked) == sorted(served)
    for rel, pin in pins()["files"].items():
        assert hashlib.sha256((tmp_path / "cache" / rel).read_bytes()).hexdigest() == pin["sha256"]
    asked.clear()
    assert schemas_for_tests({}, absent) == tmp_path / "cache" and asked == []  # once
    # The variable, then the copy beside the checkout, come first.
    absent.mkdir(parents=True)
    assert schemas_for_tests({}, absent) == absent
    assert schemas_for_tests({"QTI_BUILDER_SCHEMAS": "/elsewhere"}, absent) == Path("/elsewhere")
