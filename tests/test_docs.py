"""The docs' examples agree with the tool: every example that shows what a command prints is run,
and what it prints must be what the docs say.

Examples are marked with HTML comments, which Markdown viewers do not show:

- ``<!-- doc-test: file NAME -->`` before a fenced block: the block is the file NAME;
- ``<!-- doc-test: file NAME`` + lines + ``-->``: a file the prose describes without showing it;
- ``<!-- doc-test: copy PATH -->``: the repository's file PATH, at the same place;
- ``<!-- doc-test: check -->`` before a fenced block: a complete source that passes
  ``qti-builder check --strict`` without a word on stderr, what its outputs lose accepted (an
  example shows a feature of the source, whatever an LMS keeps of it);
- ``<!-- doc-test: run -->`` before a ``console`` block: each ``$ qti-builder ...`` (or ``$ git ...``) line is run,
  and the lines up to the next ``$`` are its output (stderr and stdout, as a terminal shows them);
- ``<!-- doc-test: output of qti-builder ... -->`` before a block: the block is that command's
  output; a ``json`` block is compared as JSON (any number under ``timings`` or ``bytes``);
- ``<!-- doc-test: skip REASON -->`` before a ``console`` block that is not run.

Expected text may say ``…`` for "any text on this line" and a line ``...`` for "any lines". Each
document's examples run in order, in one empty folder of their own. Every ``console`` block and
every block that shows a diagnostic must be marked, so a new example cannot go untested unseen.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.cli import run
from typer.testing import CliRunner

from qti_builder.cli import app

DOCS = [ROOT / "README.md", ROOT / "SECURITY.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"<!-- doc-test: (?P<what>[^\n]*?)(?: -->|\n(?P<body>.*?\n)-->)", re.S)
FENCE = re.compile(r"^(?P<fence>`{3,})(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=fence)$", re.S | re.M)
DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: (error|warning)\[QB\d+\]", re.M)
#: A fenced block belongs to the marker right before it (blank lines between are allowed).
ATTACHED = re.compile(r"\s*")


@dataclass
class Block:
    lang: str
    body: str
    line: int
    marker: str | None = None


@dataclass
class Step:
    what: str
    body: str | None
    block: Block | None
    line: int


def parse(path: Path) -> tuple[list[Step], list[Block]]:
    """A document's marked steps in order, and all its fenced blocks."""
    text = path.read_text(encoding="utf-8")
    blocks = [Block(m["lang"], m["body"], text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]
    starts = {m.start(): block for m, block in zip(FENCE.finditer(text), blocks)}
    steps = []
    for m in MARKER.finditer(text):
        block = None
        if m["body"] is None:
            gap = ATTACHED.match(text, m.end())
            block = starts.get(gap.end()) if gap else None
            if block is not None:
                block.marker = m["what"]
        steps.append(Step(m["what"], m["body"], block, text.count("\n", 0, m.start()) + 1))
    return steps, blocks


def matches(expected: str, actual: str) -> bool:
    """``…`` is any text on its line; a line ``...`` is any number of lines."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else ".*?".join(map(re.escape, line.split("…"))) + r"\n"
                      for line in expected.splitlines())
    return re.fullmatch(pattern, actual) is not None


def same_json(expected: Any, actual: Any, key: str = "") -> list[str]:
    """Where ``actual`` differs from the documented ``expected`` (same keys, same values)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(expected) != set(actual):
            return [f"{key}: keys {sorted(expected)} != {sorted(actual)}"]
        return [p for k in expected for p in same_json(expected[k], actual[k], k if key != "timings" else "timings")]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{key}: {len(expected)} items != {len(actual)}"]
        return [p for e, a in zip(expected, actual) for p in same_json(e, a, key)]
    if isinstance(expected, str) and isinstance(actual, str):
        return [] if matches(expected + "\n", actual + "\n") else [f"{key}: {expected!r} != {actual!r}"]
    if key in ("timings", "bytes") and isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return []
    return [] if expected == actual and type(expected) is type(actual) else [f"{key}: {expected!r} != {actual!r}"]


#: Who commits in a walk-through's ``git commit``, and the branch ``git init`` makes, whatever the
#: machine's git configuration says.
GIT_ENV = {"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.edu", "GIT_COMMITTER_NAME": "A",
           "GIT_COMMITTER_EMAIL": "a@example.edu", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_COUNT": "1",
           "GIT_CONFIG_KEY_0": "init.defaultBranch", "GIT_CONFIG_VALUE_0": "main"}


def run_command(command: str, cwd: Path, stdout: bool = False) -> str:
    """The output of one documented command line, as a terminal shows it (``> FILE`` honoured), or
    its stdout alone. A walk-through's ``git`` commands (a repository and its tags, for ``diff
    --rev``) run with git itself."""
    args = shlex.split(command)
    if args[0] == "git":
        assert shutil.which("git"), "git is needed by the walk-throughs (.ci/run installs it)"
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                              env={**os.environ, **GIT_ENV, "HOME": str(cwd)})
        assert done.returncode == 0, f"`{command}` failed: {done.stderr}"
        return done.stdout + done.stderr
    assert args[0] == "qti-builder", f"only qti-builder and git commands are run: {command}"
    redirect = None
    if ">" in args:
        args, redirect = args[:args.index(">")], args[args.index(">") + 1]
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, args[1:])
    finally:
        os.chdir(old)
    if redirect:
        (cwd / redirect).write_text(result.stdout, encoding="utf-8")
        return result.stderr
    return result.stdout if stdout else result.output  # output: stdout and stderr as a terminal shows them


def console_steps(body: str) -> list[tuple[str, str]]:
    """``$ command`` lines of a console block, each with the output shown under it."""
    steps: list[tuple[str, str]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], ""))
        else:
            command, output = steps[-1]
            steps[-1] = (command, output + line + "\n")
    return steps


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_with_output_is_marked(doc: Path) -> None:
    _, blocks = parse(doc)
    unmarked = [b.line for b in blocks
                if b.marker is None and (b.lang == "console" or (b.lang != "markdown" and DIAGNOSTIC.search(b.body)))]
    assert unmarked == [], f"{doc.name}: mark the examples on lines {unmarked} (see tests/test_docs.py)"


@pytest.mark.parametrize("doc", [d for d in DOCS if "<!-- doc-test:" in d.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_print_what_the_docs_say(doc: Path, tmp_path: Path) -> None:
    steps, _ = parse(doc)
    for step in steps:
        where = f"{doc.name}:{step.line}"
        kind, _, rest = step.what.partition(" ")
        if kind == "copy":
            (tmp_path / rest).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / rest).write_bytes((ROOT / rest).read_bytes())
        elif kind == "file":
            text = step.body if step.body is not None else (step.block.body if step.block else None)
            assert text is not None, f"{where}: no block after the marker"
            (tmp_path / rest).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / rest).write_text(text, encoding="utf-8")
        elif kind == "check":
            assert step.block is not None, f"{where}: no block after the marker"
            example = "example.yaml" if step.block.lang == "yaml" else "example.md"
            (tmp_path / example).write_text(step.block.body, encoding="utf-8")
            code, _, err = run("check", "--strict", "--ignore", "QB601,QB602,QB603", example, cwd=tmp_path)
            assert (code, err) == (0, ""), f"{where}: the example does not pass check:\n{err}"
        elif kind == "run":
            assert step.block is not None and step.block.lang == "console", f"{where}: no console block after the marker"
            for command, expected in console_steps(step.block.body):
                actual = run_command(command, tmp_path)
                assert matches(expected, actual), f"{where}: `{command}` prints\n{actual}\nnot\n{expected}"
        elif kind == "output" and rest.startswith("of "):
            assert step.block is not None, f"{where}: no block after the marker"
            actual = run_command(rest[3:], tmp_path, stdout=step.block.lang == "json")
            if step.block.lang == "json":
                problems = same_json(json.loads(step.block.body), json.loads(actual))
                assert problems == [], f"{where}: the report differs from the docs: {problems}"
            else:
                assert matches(step.block.body, actual), f"{where}: `{rest[3:]}` prints\n{actual}\nnot\n{step.block.body}"
        else:
            assert kind == "skip" and rest, f"{where}: unknown doc-test marker {step.what!r}"


def test_matches() -> None:
    assert matches("a\n…b\n...\nz\n", "a\nxxb\n1\n2\nz\n")
    assert matches("a\n...\nz\n", "a\nz\n")
    assert not matches("a\nz\n", "a\nb\nz\n")
    assert not matches("a…\n", "b\n")


def reference_table(doc: str, heading: str) -> dict[str, str]:
    """A table of the YAML reference: field -> its default ("—" when the field is required)."""
    table = doc.split(f"**{heading}**", 1)[1].split("\n\n", 2)[1]
    rows = [row.strip("|").split("|") for row in table.splitlines()[2:]]
    return {cells[0].strip().strip("`"): cells[-1].strip() for cells in rows}


def test_the_yaml_reference_requires_what_the_schema_requires() -> None:
    from qti_builder.model.schema import source_json_schema

    schema = source_json_schema()
    doc = (ROOT / "docs" / "source-format.md").read_text(encoding="utf-8")
    questions = [d for d in schema["$defs"].values() if "type" in d.get("properties", {})]
    for heading, definition, required in [
        ("Quiz", schema, set(schema["required"])),
        ("Section", schema["$defs"]["Section"], set(schema["$defs"]["Section"]["required"])),
        ("Fields of every question", questions[0], set.intersection(*(set(d["required"]) for d in questions))),
    ]:
        table = reference_table(doc, heading)
        assert set(table) <= set(definition["properties"]), heading
        assert {field for field, default in table.items() if default == "—"} == required, heading
    assert "the schema requires only `title` and `sections` at the top" in " ".join(doc.split())
