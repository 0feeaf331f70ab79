#!/usr/bin/env python3
"""Mutation testing of the Jinja templates: one-line changes to what a user receives, and the tests
that should notice them.

Python mutation tools (mutmut) do not read templates, yet the templates decide most of what Canvas,
Moodle and QTI 2.1 players get. This script applies one small change at a time to one template,
runs the tests that concern that target (not the whole suite: see TESTS), restores the template,
and lists the changes no test noticed ("survivors"). Classes of change (``--classes``):

==============  ===============================================================================
``attribute``   an attribute's literal value swapped for its usual alternative
                (``action="Add"`` -> ``"Set"``, ``continue="Yes"`` -> ``"No"``,
                ``rcardinality="Single"`` -> ``"Multiple"``, ``true`` <-> ``false``, ...)
``constant``    an element whose text is one ``{{ expression }}`` forced to a constant
                (``<shuffleanswers>{{ entry.shuffle }}</shuffleanswers>`` -> ``true``)
``number``      a number literal in the markup changed (``maxvalue="100"`` -> ``"99"``)
``drop``        a line that is one whole element (``<x .../>`` or ``<x>...</x>``) left out
``condition``   a ``{% if X %}`` turned into ``{% if not (X) %}``
``expression``  an attribute whose value is one ``{{ expression }}`` forced to a constant
                (``shuffle="{{ question.shuffle|lower }}"`` -> ``"true"`` and ``"false"``,
                ``rcardinality="{{ cardinality }}"`` -> ``"Single"`` and ``"Multiple"``)
==============  ===============================================================================

Usage (from the repository root, in the project's venv, QTI_BUILDER_SCHEMAS set)::

    .venv/bin/python tools/mutate_templates.py                       # every target, every class
    .venv/bin/python tools/mutate_templates.py --target canvas --classes attribute,constant
    .venv/bin/python tools/mutate_templates.py --only templates/canvas/item_matching.xml.j2 --list

``--changed [REV]`` takes only the templates changed since REV (default HEAD, uncommitted changes
included): the fast subset to run before stopping. ``--list`` prints the mutants without running anything; ``--max N`` and ``--time-limit SECONDS``
bound a run (each mutant runs its tests with ``-x``, so a noticed change stops at the first
failure). The exit status is 1 when a mutant survived. A template is always restored, also on
Ctrl-C; run it in a clean checkout (``git status`` shows any leftover).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"

#: The tests that concern each target's templates: its writer's and kinds' tests, the scoring of
#: every source in all three outputs, and the consistency checks. The generated-quiz property is
#: left out (the sources already hold every kind, and it is the slowest).
TESTS = {
    "canvas": ["tests/test_canvas_writer.py", "tests/test_what_students_see.py", "tests/test_calculated.py", "tests/test_scoring.py", "tests/test_consistency.py",
               "tests/test_settings.py", "-k", "not generated"],
    "moodle": ["tests/test_moodle_writer.py", "tests/test_moodle_types.py", "tests/test_what_students_see.py", "tests/test_calculated.py", "tests/test_moodle_settings.py",
               "tests/test_moodle_xsd.py", "tests/test_scoring.py", "tests/test_consistency.py", "tests/test_settings.py",
               "-k", "not generated"],
    "moodle_backup": ["tests/test_moodle_backup.py", "tests/test_import_mbz.py"],
    "qti21": ["tests/test_qti21_writer.py", "tests/test_qti21_types.py", "tests/test_what_students_see.py", "tests/test_calculated.py", "tests/test_qti_variants.py", "tests/test_scoring.py",
              "tests/test_consistency.py", "tests/test_settings.py", "-k", "not generated"],
}

#: Attribute values and their usual alternative.
SWAPS = {"Add": "Set", "Set": "Add", "Yes": "No", "No": "Yes", "Single": "Multiple", "Multiple": "Single",
         "true": "false", "false": "true", "Response": "Solution", "Decimal": "Integer", "absolute": "percent",
         "ALL_OR_NOTHING": "ABSOLUTE_POSITION", "VERTICAL": "HORIZONTAL", "html": "moodle_auto_format"}
ATTRIBUTE = re.compile(r'(\b[\w:-]+=")([^"{}%]+)(")')
CONSTANT = re.compile(r"(<(\w+)>)\{\{[^{}]*\}\}(</\2>)")
NUMBER = re.compile(r'(?<=[">])(-?\d+(?:\.\d+)?)(?=[<"])')
WHOLE_ELEMENT = re.compile(r"^\s*<(\w[\w:]*)\b[^<]*(/>|>.*</\1>)\s*$")
CONDITION = re.compile(r"\{%-?\s*if\s+(.+?)\s*-?%\}")
EXPRESSION = re.compile(r'(\b([\w:-]+)=")(\{\{[^"{}]*\}\})(")')
#: The constants an attribute's expression is forced to, by the attribute's name; any other such
#: attribute gets "x", a value no writer means.
EXPRESSION_VALUES = {"shuffle": ("true", "false"), "fixed": ("true", "false"), "rcardinality": ("Single", "Multiple"),
                     "cardinality": ("single", "multiple"), "maxChoices": ("0", "1"), "minChoices": ("0", "1"),
                     "rshuffle": ("Yes", "No"), "continue": ("Yes", "No"), "action": ("Set", "Add"),
                     "fraction": ("0", "100"), "baseType": ("identifier", "string"), "case": ("Yes", "No")}


@dataclass(frozen=True)
class Mutant:
    path: Path
    line: int  # 1-based
    kind: str
    before: str
    after: str

    def describe(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.kind}: {self.before.strip()!r} -> {self.after.strip()!r}"


def mutants_of(path: Path, classes: set[str]) -> Iterator[Mutant]:
    lines = path.read_text(encoding="utf-8").split("\n")
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("{#") or "{#" in line and "#}" not in line:
            continue  # a comment
        if "attribute" in classes:
            for m in ATTRIBUTE.finditer(line):
                if m.group(2) in SWAPS:
                    yield Mutant(path, n, "attribute", line, line[:m.start(2)] + SWAPS[m.group(2)] + line[m.end(2):])
        if "constant" in classes:
            for m in CONSTANT.finditer(line):
                for value in ("true", "false"):
                    yield Mutant(path, n, "constant", line, line[:m.start()] + m.group(1) + value + m.group(3) + line[m.end():])
        if "number" in classes:
            for m in NUMBER.finditer(line):
                value = m.group(1)
                other = "0" if value not in ("0", "0.0") else "1"
                yield Mutant(path, n, "number", line, line[:m.start()] + other + line[m.end():])
        if "drop" in classes and WHOLE_ELEMENT.match(line) and "{%" not in line:
            yield Mutant(path, n, "drop", line, "")
        if "expression" in classes:
            for m in EXPRESSION.finditer(line):
                for value in EXPRESSION_VALUES.get(m.group(2), ("x",)):
                    yield Mutant(path, n, "expression", line, line[:m.start(3)] + value + line[m.end(3):])
        if "condition" in classes:
            for m in CONDITION.finditer(line):
                if " is defined" in m.group(1):
                    continue
                yield Mutant(path, n, "condition", line,
                             line[:m.start(1)] + f"not ({m.group(1)})" + line[m.end(1):])


def target_of(path: Path) -> str:
    return path.relative_to(TEMPLATES).parts[0]


def run_tests(target: str, timeout: float) -> str:
    """'killed', 'survived' or 'timeout'."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *TESTS[target]]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=timeout, env=os.environ)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=sorted(TESTS), action="append", help="templates/<target>/ only")
    parser.add_argument("--only", type=Path, action="append", help="this template only")
    parser.add_argument("--classes", default="attribute,constant,number,drop,condition,expression")
    parser.add_argument("--changed", nargs="?", const="HEAD", metavar="REV",
                        help="only the templates changed since REV (default HEAD; uncommitted changes included)")
    parser.add_argument("--max", type=int, default=0, help="run at most this many mutants")
    parser.add_argument("--time-limit", type=float, default=0, help="stop starting mutants after this many seconds")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one mutant's tests may take")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args()
    classes = set(args.classes.split(","))
    paths = [p.resolve() for p in args.only] if args.only else sorted(
        p for t in (args.target or sorted(TESTS)) for p in (TEMPLATES / t).glob("*.j2"))
    if args.changed:
        changed = subprocess.run(["git", "diff", "--name-only", args.changed, "--", "templates"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.split()
        paths = [p for p in paths if str(p.relative_to(ROOT)) in changed]
    mutants = [m for p in paths for m in mutants_of(p, classes)]
    if args.max:
        mutants = mutants[: args.max]
    if args.list:
        for m in mutants:
            print(m.describe())
        print(f"{len(mutants)} mutants")
        return 0
    started, results = time.monotonic(), {"killed": 0, "survived": 0, "timeout": 0}
    survivors = []
    by_template: dict[str, list[int]] = {}  # template -> [mutants run, killed]
    for count, m in enumerate(mutants, 1):
        if args.time_limit and time.monotonic() - started > args.time_limit:
            print(f"time limit reached after {count - 1} of {len(mutants)} mutants")
            break
        original = m.path.read_text(encoding="utf-8")
        lines = original.split("\n")
        lines[m.line - 1] = m.after
        try:
            m.path.write_text("\n".join(lines), encoding="utf-8")
            outcome = run_tests(target_of(m.path), args.timeout)
        finally:
            m.path.write_text(original, encoding="utf-8")
        results[outcome] += 1
        counts = by_template.setdefault(str(m.path.relative_to(ROOT)), [0, 0])
        counts[0] += 1
        counts[1] += outcome == "killed"
        print(f"[{count}/{len(mutants)}] {outcome:8} {m.describe()}", flush=True)
        if outcome != "killed":
            survivors.append(m)
    print(f"\n{results['killed']} killed, {results['survived']} survived, {results['timeout']} timed out "
          f"in {time.monotonic() - started:.0f} s")
    print("\n| template | mutants run | killed | score |\n|---|---:|---:|---:|")
    for path, (run, killed) in sorted(by_template.items()):
        print(f"| {path} | {run} | {killed} | {killed / run:.0%} |")
    for m in survivors:
        print("survivor:", m.describe())
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
