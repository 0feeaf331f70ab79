#!/usr/bin/env python3
"""Mutation testing of the Jinja templates: one-line changes to what a user receives, and the tests
that should notice them.

Python mutation tools (mutmut) do not read templates, yet the templates decide most of what Canvas,
Moodle and QTI 2.1 players get, and all an author checks in the HTML preview (target ``preview``,
with its kinds' templates in ``templates/preview/kinds/``). This script applies one small change
at a time to one template, runs the tests that concern that target (not the whole suite: see TESTS), restores the template,
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

How a mutant runs (measured in tests/README.md): the tool runs the target's tests once, in its own
process, at the lowest priority, recording which tests render which template (a module's or the
session's fixture counts for every test that uses it; a test that starts a process counts for
every template); then, for each mutant, it writes the changed template and forks: the child forgets
the compiled templates and runs only the tests that rendered that template, fastest first, with
``-x``, inheriting the imported modules, the compiled schemas and the parsed items of the warm
process, instead of a new pytest that collects and runs every test of the target. A template no
recorded test renders is reported as such (``no tests``), never as killed. ``--subprocess`` runs
each mutant the old way (a new pytest over every test of the target) to compare.

Results are kept in ``mutants/templates.json`` (by mutant): a run goes on where the last one
stopped (``--fresh`` runs everything again, ``--survivors`` the survivors that are not recorded
equivalents, after new tests), ``--report`` prints the table without running
anything, and survivors that cannot change what a user receives are recorded, with the reason,
in ``tools/template_equivalents.toml`` (left out of the score).

``--changed [REV]`` takes only the templates changed since REV (default HEAD, uncommitted changes
included): the fast subset to run before stopping. ``--list`` prints the mutants without running anything; ``--max N`` and ``--time-limit SECONDS``
bound a run (each mutant runs its tests with ``-x``, so a noticed change stops at the first
failure). The exit status is 1 when a mutant survived. A template is always restored, also on
Ctrl-C; run it in a clean checkout (``git status`` shows any leftover).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
RESULTS = ROOT / "mutants" / "templates.json"
EQUIVALENTS = ROOT / "tools" / "template_equivalents.toml"

#: The tests that concern each target's templates: its writer's and kinds' tests, the scoring of
#: every source in all three outputs, and the consistency checks. The generated-quiz property is
#: left out (the sources already hold every kind, and it is the slowest).
TESTS = {
    "canvas": ["tests/test_canvas_writer.py", "tests/test_what_students_see.py", "tests/test_what_students_see_texts.py", "tests/test_what_students_see_canvas.py", "tests/test_what_students_see_canvas_writer.py", "tests/test_calculated.py", "tests/test_scoring.py", "tests/test_consistency.py",
               "tests/test_settings.py", "-k", "not generated"],
    "moodle": ["tests/test_moodle_writer.py", "tests/test_moodle_types.py", "tests/test_what_students_see.py", "tests/test_what_students_see_texts.py", "tests/test_what_students_see_moodle.py", "tests/test_calculated.py", "tests/test_moodle_settings.py",
               "tests/test_moodle_xsd.py", "tests/test_scoring.py", "tests/test_consistency.py", "tests/test_settings.py",
               "-k", "not generated"],
    "moodle_backup": ["tests/test_moodle_backup.py", "tests/test_import_mbz.py", "tests/test_what_students_see_backup.py"],
    "preview": ["tests/test_preview.py", "tests/test_what_authors_see_preview.py", "tests/test_what_authors_see_preview_calculated.py", "tests/test_what_authors_see_preview_outline.py", "tests/test_kinds.py", "-k", "not generated"],
    "qti21": ["tests/test_qti21_writer.py", "tests/test_qti21_types.py", "tests/test_what_students_see.py", "tests/test_what_students_see_texts.py", "tests/test_what_students_see_qti21.py", "tests/test_what_students_see_qti21_kinds.py", "tests/test_calculated.py", "tests/test_qti_variants.py", "tests/test_scoring.py",
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


class RenderRecorder:
    """A pytest plugin: which tests render which template file. A template rendered while a
    module-, class- or session-scoped fixture is set up counts for every test that uses that
    fixture (as an argument, or asked for by name with ``request.getfixturevalue``) (mutmut's own attribution gives it to the first such test only); one rendered, or a
    process started (a forked build worker, the CLI in a subprocess), while a test runs counts
    for that test, a process for every template."""

    EVERY = "*"

    def __init__(self) -> None:
        self.current: str | None = None
        self.fixtures: list[tuple[str, str]] = []
        self.by_test: dict[str, set[str]] = defaultdict(set)
        self.by_fixture: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.shared_fixtures_of: dict[str, list[tuple[str, str]]] = {}
        self.duration: dict[str, float] = {}
        self.recording = False

    def note(self, path: str) -> None:
        if not self.recording:
            return
        if self.fixtures:
            self.by_fixture[self.fixtures[-1]].add(path)
        elif self.current is not None:
            self.by_test[self.current].add(path)

    def install(self) -> None:
        import jinja2

        original = jinja2.Environment.get_template
        recorder = self

        def get_template(env: Any, name: Any, parent: Any = None, globals: Any = None) -> Any:
            template = original(env, name, parent, globals)
            if template.filename:
                recorder.note(str(Path(template.filename).resolve()))
            return template

        jinja2.Environment.get_template = get_template  # type: ignore[method-assign, assignment]
        os.register_at_fork(before=lambda: self.note(self.EVERY))
        original_popen = subprocess.Popen.__init__

        def popen(process: Any, *args: Any, **kwargs: Any) -> None:
            self.note(self.EVERY)
            original_popen(process, *args, **kwargs)

        subprocess.Popen.__init__ = popen  # type: ignore[method-assign, assignment]

    def tests_of(self, path: Path) -> list[str]:
        """The tests that rendered ``path``, fastest first."""
        name = str(path.resolve())
        chosen = [t for t, fixtures in self.shared_fixtures_of.items()
                  if self.by_test[t] & {name, self.EVERY}
                  or any(self.by_fixture[f] & {name, self.EVERY} for f in fixtures)]
        return sorted(chosen, key=lambda t: self.duration.get(t, 0.0))


def _plugin(recorder: RenderRecorder) -> Any:
    import pytest

    class Plugin:
        @pytest.hookimpl(wrapper=True)
        def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Any:
            shared = fixturedef.scope != "function"
            if shared:
                recorder.fixtures.append((fixturedef.baseid, fixturedef.argname))
            try:
                return (yield)
            finally:
                if shared:
                    recorder.fixtures.pop()

        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
            recorder.current = item.nodeid
            definitions = item._fixtureinfo.name2fixturedefs
            recorder.shared_fixtures_of[item.nodeid] = [
                (d.baseid, d.argname) for name in item.fixturenames for d in definitions.get(name, ())[-1:]
                if d.scope != "function"]
            started = time.monotonic()
            try:
                return (yield)
            finally:
                recorder.duration[item.nodeid] = time.monotonic() - started
                recorder.current = None

        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            try:
                return (yield)
            finally:  # and those the test asked for by name (request.getfixturevalue)
                asked = getattr(getattr(item, "_request", None), "_fixture_defs", {})
                recorder.shared_fixtures_of[item.nodeid] += [
                    (d.baseid, d.argname) for d in asked.values() if d.scope != "function"]

    return Plugin()


PYTEST_ARGS = ["-q", "-p", "no:randomly", "-p", "no:cacheprovider", "--tb=no", "-o", "console_output_style=classic"]


def record(target: str) -> RenderRecorder:
    """Run the target's tests once in this process (they must pass), recording what each renders."""
    import pytest

    recorder = RenderRecorder()
    recorder.install()
    recorder.recording = True
    os.chdir(ROOT)
    code = pytest.main([*PYTEST_ARGS, *TESTS[target]], plugins=[_plugin(recorder)])
    recorder.recording = False
    if code != 0:
        raise SystemExit(f"error: the {target} tests fail without a mutant (exit {code}): fix them first")
    return recorder


def run_forked(tests: list[str], timeout: float) -> str:
    """The tests in a child of this warm process: 'killed', 'survived' or 'timeout'."""
    pid = os.fork()
    if pid == 0:  # the child: forget the compiled templates, run, exit with pytest's code
        try:
            import pytest

            from qti_builder import templating

            templating.make_environment.cache_clear()
            templating._bytecode_cache = lambda kind: None  # compiled mutants are not kept
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = pytest.main([*PYTEST_ARGS, "-x", *tests])
        except BaseException:
            code = 99
        os._exit(int(code))
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


def load_results() -> dict[str, str]:
    return json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}


def save_results(results: dict[str, str]) -> None:
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False), encoding="utf-8")


def equivalents() -> dict[str, str]:
    return tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8")) if EQUIVALENTS.exists() else {}


def print_report(mutants: list[Mutant], results: dict[str, str], scope: list[Path]) -> list[Mutant]:
    """The table per template (mutants, killed, survived, no tests, equivalent, not run, score) and
    the survivors that are not recorded equivalents. A recorded equivalent of a template in
    ``scope`` (the templates this run covers), or of one that no longer exists, that is among no
    mutant is listed to be examined again: its line moved or changed."""
    same = equivalents()
    rows: dict[str, dict[str, int]] = {}
    left = []
    for m in mutants:
        outcome = results.get(m.describe(), "not run")
        if outcome in ("survived", "no tests") and m.describe() in same:
            outcome = "equivalent"
        row = rows.setdefault(str(m.path.relative_to(ROOT)), defaultdict(int))
        row[outcome] += 1
        if outcome in ("survived", "no tests"):
            left.append(m)
    columns = ["killed", "timeout", "survived", "no tests", "equivalent", "not run"]
    print("\n| template | mutants | " + " | ".join(columns) + " | score |\n|---|---:|" + "---:|" * len(columns) + "---:|")
    total: dict[str, int] = defaultdict(int)
    for path, row in sorted(rows.items()):
        for c, n in row.items():
            total[c] += n
        print(f"| {path} | {sum(row.values())} | " + " | ".join(str(row[c]) for c in columns) + f" | {_score(row)} |")
    print(f"| all | {sum(total.values())} | " + " | ".join(str(total[c]) for c in columns) + f" | {_score(total)} |")
    covered = {str(p.relative_to(ROOT)) for p in scope}
    stale = sorted(name for name in set(same) - {m.describe() for m in mutants}
                   if name.split(":")[0] in covered or not (ROOT / name.split(":")[0]).exists())
    if stale:
        print("\nrecorded equivalents no longer among the mutants (re-examine them):", *stale, sep="\n   ")
    return left


def _score(row: dict[str, int]) -> str:
    checked = row["killed"] + row["timeout"] + row["survived"] + row["no tests"]
    return f"{100 * (row['killed'] + row['timeout']) / checked:.1f} %" if checked else "-"


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
    parser.add_argument("--report", action="store_true", help="the table of the results kept, run nothing")
    parser.add_argument("--fresh", action="store_true", help="run the mutants that have a result again")
    parser.add_argument("--survivors", action="store_true",
                        help="run the survivors (and those no test rendered) again, e.g. after new tests")
    parser.add_argument("--subprocess", action="store_true",
                        help="each mutant in a new pytest over every test of its target (the old, slow way)")
    args = parser.parse_args()
    classes = set(args.classes.split(","))
    paths = [p.resolve() for p in args.only] if args.only else sorted(
        p for t in (args.target or sorted(TESTS)) for p in (TEMPLATES / t).rglob("*.j2"))
    if args.changed:
        changed = subprocess.run(["git", "diff", "--name-only", args.changed, "--", "templates"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.split()
        paths = [p for p in paths if str(p.relative_to(ROOT)) in changed]
    mutants = [m for p in paths for m in mutants_of(p, classes)]
    if args.max:
        mutants = mutants[: args.max]
        paths = sorted({m.path for m in mutants})
    if args.list:
        for m in mutants:
            print(m.describe())
        print(f"{len(mutants)} mutants")
        return 0
    kept = load_results()
    if args.report:
        return 1 if print_report(mutants, kept, paths) else 0
    os.nice(19)  # the machine is shared: this runs at the lowest priority, in one process
    same = equivalents()
    todo = [m for m in mutants if args.fresh or m.describe() not in kept
            or args.survivors and kept[m.describe()] in ("survived", "no tests") and m.describe() not in same]
    started = time.monotonic()
    recorders: dict[str, RenderRecorder] = {}
    for count, m in enumerate(todo, 1):
        if args.time_limit and time.monotonic() - started > args.time_limit:
            print(f"time limit reached after {count - 1} of {len(todo)} mutants")
            break
        target = target_of(m.path)
        tests: list[str] = []
        if not args.subprocess:
            if target not in recorders:
                began = time.monotonic()
                recorders[target] = record(target)
                print(f"{target}: tests recorded in {time.monotonic() - began:.0f} s", flush=True)
            tests = recorders[target].tests_of(m.path)
        original = m.path.read_text(encoding="utf-8")
        lines = original.split("\n")
        lines[m.line - 1] = m.after
        began = time.monotonic()
        try:
            m.path.write_text("\n".join(lines), encoding="utf-8")
            if args.subprocess:
                outcome = run_tests(target, args.timeout)
            else:
                outcome = run_forked(tests, args.timeout) if tests else "no tests"
        finally:
            m.path.write_text(original, encoding="utf-8")
        kept[m.describe()] = outcome
        save_results(kept)
        print(f"[{count}/{len(todo)}] {outcome:8} {time.monotonic() - began:5.1f} s {len(tests):4} tests  {m.describe()}",
              flush=True)
    print(f"\n{len(todo)} to run, in {time.monotonic() - started:.0f} s")
    left = print_report(mutants, kept, paths)
    for m in left:
        print("survivor:", m.describe(), f"({kept.get(m.describe())})")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
