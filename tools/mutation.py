#!/usr/bin/env python3
"""Mutation testing of the Python code with mutmut, one module at a time, and a score per module.

mutmut (a dev tool: ``.venv/bin/pip install mutmut``; configured in pyproject.toml's
``[tool.mutmut]``) changes one thing at a time in a function (an operator, a constant, a keyword
argument dropped, ...) and runs the tests that called that function. This script runs it for the
modules named, one after the other, at the lowest priority and with one worker (the machine is
shared), then prints a table per module: mutants, killed, survived, timeout, no tests, not
checked, and the score, and lists the survivors by name.

Usage (from the repository root, in the project's venv)::

    .venv/bin/python tools/mutation.py writers/canvas.py writers/moodle.py
    .venv/bin/python tools/mutation.py --changed          # modules changed since main: before stopping
    .venv/bin/python tools/mutation.py --report writers/canvas.py   # the table of the last run only
    .venv/bin/python tools/mutation.py --recheck writers/canvas.py  # survivors run against whole files
    .venv/bin/python tools/mutation.py --time-limit 900 writers/qti21.py
    .venv/bin/python tools/mutation.py --only 'x_question_item*' writers/canvas.py   # some functions only
    .venv/bin/python tools/mutation.py --sample 150 readers/markdown/blocks.py  # a fixed random sample

A module is named by its path under ``src/qti_builder`` (``writers/canvas.py``), its full path, or
its dotted name (``qti_builder.writers.canvas``). ``--changed [REV]`` takes the mutated modules
(``only_mutate`` in pyproject.toml) this branch changed since it left REV, uncommitted changes
included. ``--time-limit`` stops a module's run after that many seconds, counted from when mutmut
has written the mutants and saved which tests call what (cut short, either is lost: a mutated
module left empty, a record of tens of minutes); mutmut keeps every result it has, and the next run goes on from there: a run takes the mutants without a result and the
survivors (new tests may kill them), mutmut itself forgets the results of a function that changed,
and ``--fresh`` runs every mutant again.

Why ``--recheck``: mutmut runs, for each mutant, only the tests that called the mutated function
when it recorded them, and a module-scoped fixture's calls count for the first test of its module
only; a survivor in a function such fixtures build may be killed by tests mutmut did not pick. The
recheck runs each survivor against the whole files of the tests mutmut picked for it (the files
with a fixture shared by several tests: elsewhere mutmut's selection is exact), and records the
result in ``mutants/rechecked.json``; the table counts a survivor the recheck killed as killed, in
its own column. The test files changed since main run first (tests written after mutmut
recorded which tests call what); a mutant no selected test reaches ("no tests") is run against
them too (with ``--also``, a file outside the selection that calls its function). ``--time-limit`` bounds a recheck too (the next one goes on where it stopped).

Why ``--sample N``: a module of thousands of mutants whose every mutant runs a hundred tests
costs hours on this machine. A sample of N mutants, the same every run (the names ordered by
their sha256, so it does not depend on the run, and a sampled mutant stays sampled while its
function does not change), is run instead, and the table scores the sample alone, with its 95 %
interval (Wilson's), in place of the whole module: random mutant sampling estimates a suite's
mutation score well (Wong and Mathur 1995: a 10 % sample kept within a few points of the full
score). ``--report --sample N`` prints the same rows; a module run whole reports whole. With
``--sample``, the modules named are one mutmut run (one start), and ``--time-limit`` bounds it whole.

Survivors that cannot change what a user receives are listed with the reason in
tools/mutation_equivalents.toml (name = "reason"); the table leaves them out of the score and says
how many. A mutant's name holds its function's name and a number that moves when the function
changes: an equivalent whose name no longer matches a survivor is reported as stale.

The exit status is 1 when a mutant that is not a recorded equivalent survived.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import hashlib
import math
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "qti_builder"
MUTANTS = ROOT / "mutants"
RECHECKED = MUTANTS / "rechecked.json"
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.toml"

#: What marks a test file whose fixtures outlive a test (built once for several tests).
SHARED_FIXTURE = ('scope="module"', 'scope="class"')
#: mutmut's exit codes (mutmut/stats.py), folded into the table's columns.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout",
          37: "killed", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}


def mutmut_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def module_path(name: str) -> Path:
    """``writers/canvas.py``, ``src/qti_builder/writers/canvas.py`` or ``qti_builder.writers.canvas``."""
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_absolute():
            path = PACKAGE / path if not (ROOT / path).exists() else ROOT / path
    else:
        path = PACKAGE.parent / (name.replace(".", "/") + ".py")
    if not path.exists():
        raise SystemExit(f"error: no module {name} ({path.relative_to(ROOT) if path.is_relative_to(ROOT) else path})")
    return path.resolve()


def dotted(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def mutated_modules() -> list[str]:
    return mutmut_config()["only_mutate"]


def changed_since(rev: str, folder: str) -> list[str]:
    """Files of ``folder`` this branch changed since it left ``rev`` (uncommitted changes included),
    not what ``rev`` gained since."""
    base = subprocess.run(["git", "merge-base", rev, "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    return subprocess.run(["git", "diff", "--name-only", base, "--", folder], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.split()


def changed_modules(rev: str) -> list[Path]:
    names = changed_since(rev, "src")
    globs = mutated_modules()
    return [ROOT / n for n in names if n.endswith(".py") and (ROOT / n).exists()
            and any(fnmatch.fnmatch(n, g) for g in globs)]


def sample_of(path: Path, size: int | None) -> set[str] | None:
    """The module's sampled mutants: the ``size`` first by the sha256 of their names (None: all)."""
    if size is None:
        return None
    names = sorted(results_of(path), key=lambda name: hashlib.sha256(name.encode()).hexdigest())
    return set(names[:size])


def wilson(killed: int, checked: int) -> tuple[float, float]:
    """The 95 % interval of a score measured on a sample (Wilson's score interval), in percent."""
    if checked == 0:
        return (0.0, 100.0)
    z, share = 1.96, killed / checked
    centre = (share + z * z / (2 * checked)) / (1 + z * z / checked)
    margin = z * math.sqrt(share * (1 - share) / checked + z * z / (4 * checked * checked)) / (1 + z * z / checked)
    return (100 * max(0.0, centre - margin), 100 * min(1.0, centre + margin))


def generate(path: Path, env: dict[str, str]) -> None:
    """mutmut writes every module's mutants (and records which tests call what) on its first
    start: a name that matches no mutant makes it stop right after, with the names known."""
    command = ["nice", "-n", "19", str(Path(sys.executable).parent / "mutmut"), "run", "--max-children", "1",
               f"{dotted(path)}.x__no_such_mutant__"]
    print("$ mutmut run (writing the mutants, recording which tests call what)", flush=True)
    subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_mutmut(paths: list[Path], time_limit: float | None, fresh: bool, only: list[str] | None = None,
               sample: int | None = None) -> None:
    """The modules' mutants in one mutmut run (one start: its clean run of the selected tests is
    paid once), one worker, lowest priority; stopped (results kept) at the time limit.
    Without ``fresh``, only the mutants without a result or that survived (the tests may have
    changed since) are run: mutmut itself drops the results of a function that changed."""
    env = {**os.environ}
    env.setdefault("QTI_BUILDER_SCHEMAS", str((ROOT.parent / "shared" / "schemas").resolve()))
    # A module mutmut has written no record of yet (not one without mutants: a module of constants
    # only has an empty record, and would pay a start every run).
    if sample is not None and not all(meta_of(path).exists() for path in paths):
        generate(paths[0], env)
    names: list[str] = []
    for path in paths:
        chosen = sample_of(path, sample)
        if (not fresh and results_of(path)) or chosen is not None:
            mine = [n for n, code in results_of(path).items()
                    if (fresh or STATUS.get(code) in ("not checked", "survived", None))
                    and (chosen is None or n in chosen)
                    and (not only or any(fnmatch.fnmatchcase(n[len(dotted(path)) + 1:], p) for p in only))]
            if not mine:
                print(f"{dotted(path)}: every mutant has its result (--fresh runs them again)")
            names += mine
        else:
            names += [f"{dotted(path)}.{pattern}" for pattern in only or ["*"]]
    if not names:
        return
    command = ["nice", "-n", "19", str(Path(sys.executable).parent / "mutmut"), "run", "--max-children", "1", *names]
    print("$", " ".join(command[:8]), f"... ({len(names)} names)" if len(names) > 1 else "", flush=True)
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL if not sys.stdout.isatty() else None)
    started = time.monotonic()
    begun = time.time()
    clock: float | None = None  # the limit's clock: from mutmut's first mutant on
    try:
        while process.poll() is None:
            if clock is None and _recorded_since(begun):
                clock = time.monotonic()
            if time_limit is not None and clock is not None and time.monotonic() - clock > time_limit:
                print(f"time limit: stopping after {time_limit:.0f} s (results so far are kept)", flush=True)
                stop(process)
                break
            time.sleep(30)
            if not sys.stdout.isatty():  # a log: one progress line a minute or so
                for path in paths:
                    row = row_of(path, sample)
                    print(f"{time.monotonic() - started:5.0f} s {dotted(path)}: "
                          + ", ".join(f"{k} {v}" for k, v in sorted(row.counts.items())), flush=True)
    except BaseException:  # interrupted, or this script failed: mutmut is not left running without its limit
        stop(process)
        raise
    if process.returncode not in (0, None) and not any(results_of(path).get(n) is not None for path in paths for n in names):
        # mutmut's output went nowhere: without this, a run that checked nothing looks like one that ran out of time.
        print(f"mutmut stopped (exit {process.returncode}) before any mutant had a result: its clean run of the "
              f"selected tests probably failed. See why with `cd mutants && PYTHONPATH=src python -m pytest -x "
              f"<[tool.mutmut]'s test files>`; the schemas it used: QTI_BUILDER_SCHEMAS={env['QTI_BUILDER_SCHEMAS']}"
              + ("" if Path(env["QTI_BUILDER_SCHEMAS"]).is_dir() else " (no such folder: set QTI_BUILDER_SCHEMAS)"),
              flush=True)


def _recorded_since(begun: float) -> bool:
    """mutmut saved which tests call what (``mutants/mutmut-stats.json``) in this run. Before that
    it writes the mutants (a run stopped there leaves a mutated module empty, which the next start
    takes as done and cannot import) and records the calls, saved only once all are recorded (a
    run stopped there loses the record, tens of minutes on a loaded machine): so the time limit
    runs from then on, and neither is ever cut."""
    stats = MUTANTS / "mutmut-stats.json"
    try:
        return stats.stat().st_mtime >= begun - 1
    except OSError:
        return False


def stop(process: subprocess.Popen[bytes]) -> None:
    """mutmut keeps each result as it comes: a stopped run loses only the mutant under test."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def meta_of(path: Path) -> Path:
    """Where mutmut keeps a module's mutants and their results."""
    return MUTANTS / (str(path.relative_to(ROOT)) + ".meta")


def results_of(path: Path) -> dict[str, int | None]:
    meta = meta_of(path)
    for attempt in range(5):
        if not meta.exists():
            return {}
        try:
            return json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        except json.JSONDecodeError:  # mutmut is writing it (the progress lines read it during a run)
            time.sleep(1 + attempt)
    return json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]


def record_recheck(name: str, code: int) -> None:
    """One recheck's result added to ``rechecked.json`` as it is now, under a lock: two rechecks of
    one ``mutants/`` at once each wrote back what it had read at its start, and lost the other's."""
    import fcntl  # POSIX, like mutmut itself

    with open(MUTANTS / "rechecked.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = rechecked()
        done[name] = code
        scratch = RECHECKED.with_suffix(".tmp")
        scratch.write_text(json.dumps(done, indent=1, sort_keys=True), encoding="utf-8")
        scratch.replace(RECHECKED)


def rechecked() -> dict[str, int]:
    return json.loads(RECHECKED.read_text(encoding="utf-8")) if RECHECKED.exists() else {}


def equivalents() -> dict[str, str]:
    return tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8")) if EQUIVALENTS.exists() else {}


def recheck_files(name: str) -> list[str]:
    """The whole files of the tests mutmut picked for a mutant: a module-scoped fixture that calls
    the mutated function is attributed to its file's first test, and the file's other tests are
    the ones that look at what it built."""
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text(encoding="utf-8"))
    tests = stats["tests_by_mangled_function_name"].get(name.partition("__mutmut_")[0], [])
    picked = {test.split("::")[0] for test in tests}
    # Only a file with a shared fixture can hide tests from mutmut.
    shared = {f for f in picked if any(m in (ROOT / f).read_text(encoding="utf-8") for m in SHARED_FIXTURE)}
    # The mutated module's own tests first: a recheck stops at the first failure.
    stem = name.split(".")[-2]
    return [*NEW_TESTS, *sorted(shared - set(NEW_TESTS), key=lambda f: (stem.split("_")[0] not in f, f))]


#: Seconds a recheck of one mutant may take (the whole files a survivor runs take about a minute
#: here), and the code recorded for one that took longer.
RECHECK_TIMEOUT = 600
TIMED_OUT = 124

#: Test files changed since main (``--recheck`` runs them first): tests written since the run
#: recorded which tests call what, which mutmut would not pick for an old result.
NEW_TESTS: list[str] = []


def recheck(path: Path, time_limit: float | None, sample: int | None = None, unchecked: bool = False) -> None:
    """Run each survivor against the whole test files; a failure counts as killed. Two passes:
    the test files changed since main for every survivor (seconds each), then the shared-fixture
    files mutmut picked for those still alive (a minute or more each). ``unchecked``: the mutants
    mutmut has not reached too (those of the functions every test calls, each a run of most of the
    selection, minutes apiece), against the first pass's files only: a failure kills one, a pass
    leaves it unchecked."""
    started = time.monotonic()
    done = rechecked()
    shutil.copytree(ROOT / "tests", MUTANTS / "tests", dirs_exist_ok=True)  # the tests as they are now
    refresh_copies()
    same = equivalents()
    # A mutant no selected test reaches ("no tests") is run against the files named with --also
    # and the changed test files too: a file outside the selection may call its function.
    chosen = sample_of(path, sample)
    wanted = ("survived", "no tests", "not checked") if unchecked else ("survived", "no tests")
    results = results_of(path)
    if NEW_TESTS and not _baseline_passes(_copied_tests_digest()):
        # Every mutant would fail them, and count as killed: nothing is recorded.
        print(f"the test files fail with no mutant: {' '.join(NEW_TESTS)}; no recheck")
        return
    alive = [name for name, code in sorted(results.items())
             if STATUS.get(code) in wanted and done.get(name, 0) == 0 and name not in same
             and (chosen is None or name in chosen)]
    for first, files_of in ((True, lambda name: NEW_TESTS), (False, lambda name: recheck_files(name)[len(NEW_TESTS):])):
        for name in alive:
            if done.get(name, 0) != 0 or (results.get(name) is None and not first):
                continue  # killed already; or not reached by mutmut: the first pass's files only
            if time_limit is not None and time.monotonic() - started > time_limit:
                print(f"time limit: recheck stopped after {time_limit:.0f} s")
                return
            files = files_of(name)
            if not files:
                continue
            try:
                code = _run_tests(files, name, RECHECK_TIMEOUT)
            except subprocess.TimeoutExpired:
                code = TIMED_OUT  # a mutant that loops (``return index - 1``): killed, as mutmut counts a timeout
            done[name] = code
            print(f"{'timeout ' if code == TIMED_OUT else 'killed  ' if code else 'survived'} {name} ({len(files)} files)",
                  flush=True)
            record_recheck(name, code)


def refresh_copies() -> None:
    """The files mutmut copied into ``mutants/`` once, when it made it (``also_copy``: templates,
    schemas, fixtures; the package's own data: message catalogs), as they are now: a recheck runs
    today's tests, which read them (a catalog entry added since made every translated-message test
    fail there)."""
    copied = mutmut_config().get("also_copy", []) if (ROOT / "pyproject.toml").exists() else []
    for entry in copied:
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, MUTANTS / entry, dirs_exist_ok=True)
        elif source.is_file():
            shutil.copy2(source, MUTANTS / entry)
    for source in PACKAGE.rglob("*"):
        if source.is_file() and source.suffix not in (".py", ".pyc") and "__pycache__" not in source.parts:
            target = MUTANTS / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _copied_tests_digest() -> str:
    """What the first pass's test files hold in ``mutants/`` now (each recheck copies the tests again)."""
    digest = hashlib.sha256()
    for name in NEW_TESTS:
        try:
            digest.update((MUTANTS / name).read_bytes())
        except OSError:
            digest.update(b"missing")
    return digest.hexdigest()


@functools.lru_cache(maxsize=4)
def _baseline_passes(tests: str) -> bool:
    """The first pass's test files pass in ``mutants/`` with no mutant active: asked once a run for
    the same copies (``tests``, their digest), and again when a module's recheck copied changed ones
    (a test written since, against code mutmut has not written again, fails with no mutant and would
    "kill" every survivor)."""
    return _run_tests(NEW_TESTS, "") == 0


def _run_tests(files: list[str], mutant: str, timeout: float | None = None) -> int:
    """pytest's exit code for ``files`` in ``mutants/`` with ``mutant`` active ("": none), at the
    lowest priority, stopping at the first failure."""
    env = {**os.environ, "PYTHONPATH": "src", "MUTANT_UNDER_TEST": mutant}
    env.setdefault("QTI_BUILDER_SCHEMAS", str((ROOT.parent / "shared" / "schemas").resolve()))
    command = ["nice", "-n", "19", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly",
               "-p", "no:cacheprovider", "-k", "not generated", *files]
    return subprocess.run(command, cwd=MUTANTS, env=env, capture_output=True, text=True, timeout=timeout).returncode


@dataclass
class Row:
    module: str
    counts: dict[str, int] = field(default_factory=dict)
    survivors: list[str] = field(default_factory=list)
    equivalent: list[str] = field(default_factory=list)
    #: The module's mutants when the row is of a sample (``--sample``), else None.
    population: int | None = None

    def count(self, status: str) -> int:
        return self.counts.get(status, 0)

    @property
    def score(self) -> float | None:
        """Killed (timeouts and rechecks included) of the checked mutants, recorded equivalents left out."""
        checked = sum(self.counts.values()) - self.count("not checked") - self.count("skipped") - len(self.equivalent)
        killed = self.count("killed") + self.count("timeout") + self.count("killed on recheck")
        return 100 * killed / checked if checked > 0 else None

    @property
    def interval(self) -> tuple[float, float]:
        checked = sum(self.counts.values()) - self.count("not checked") - self.count("skipped") - len(self.equivalent)
        killed = self.count("killed") + self.count("timeout") + self.count("killed on recheck")
        return wilson(killed, checked)


def row_of(path: Path, sample: int | None = None) -> Row:
    results = results_of(path)
    chosen = sample_of(path, sample)
    row = Row(dotted(path), population=len(results) if chosen is not None and len(chosen) < len(results) else None)
    again, same = rechecked(), equivalents()
    for name, code in sorted(results.items()):
        if chosen is not None and name not in chosen:
            continue
        status = STATUS.get(code, "suspicious")
        if status in ("survived", "no tests", "not checked") and again.get(name, 0) != 0:
            status = "killed on recheck"
        if status in ("survived", "no tests") and name in same:
            row.equivalent.append(name)
        elif status in ("survived", "no tests", "suspicious"):
            row.survivors.append(f"{name} ({status})")
        row.counts[status] = row.counts.get(status, 0) + 1
    return row


COLUMNS = ["killed", "killed on recheck", "timeout", "survived", "no tests", "not checked"]


def print_table(rows: list[Row]) -> None:
    print()
    print("| module | mutants | " + " | ".join(COLUMNS) + " | equivalent | score |")
    print("|---|---:|" + "---:|" * len(COLUMNS) + "---:|---:|")
    for row in rows:
        score = "-" if row.score is None else f"{row.score:.1f} %"
        mutants = str(sum(row.counts.values()))
        if row.population is not None:  # a sample: its size of the module's, the score's 95 % interval
            mutants += f" of {row.population}"
            if row.score is not None:
                low, high = row.interval
                score += f" ({low:.0f}-{high:.0f})"
        print(f"| {row.module} | {mutants} | " + " | ".join(str(row.count(c)) for c in COLUMNS)
              + f" | {len(row.equivalent)} | {score} |")
    for row in rows:
        if row.survivors:
            print(f"\n{row.module}: {len(row.survivors)} left (`mutmut show NAME` shows one)")
            for name in row.survivors:
                print("  ", name)
    known = {name.split(" ")[0] for row in rows for name in results_of(module_path(row.module))}
    stale = [n for n in equivalents() if any(n.startswith(r.module + ".") for r in rows) and n not in known]
    if stale:
        print("\nrecorded equivalents no longer among the mutants (re-examine them):", *stale, sep="\n   ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="writers/canvas.py, or qti_builder.writers.canvas")
    parser.add_argument("--changed", nargs="?", const="main", metavar="REV",
                        help="the mutated modules changed since REV (default main)")
    parser.add_argument("--report", action="store_true", help="print the last run's table; run nothing")
    parser.add_argument("--recheck", action="store_true", help="run the survivors against the whole test files")
    parser.add_argument("--unchecked", action="store_true",
                        help="with --recheck: the mutants mutmut has not reached too, against the changed and --also "
                             "test files only (a failure kills one)")
    parser.add_argument("--fresh", action="store_true", help="run every mutant, not only those without a result or alive")
    parser.add_argument("--time-limit", type=float, help="seconds per module, then stop (results are kept); counted "
                        "from when mutmut has written the mutants and recorded which tests call what, never cut")
    parser.add_argument("--also", action="append", metavar="FILE", default=[],
                        help="with --recheck: test files outside [tool.mutmut]'s selection to run first "
                             "(e.g. tests/test_grading_navigation.py); changing the selection would make mutmut "
                             "forget every result")
    parser.add_argument("--only", action="append", metavar="GLOB",
                        help="only the mutants whose name (after the module's) matches, e.g. 'x_question_item*' "
                             "or 'xǁCanvasWriterǁwrite*' (repeatable)")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="only N mutants of each module, the same every run (ordered by the sha256 of their "
                             "names); the table scores the sample, with its 95 %% interval")
    args = parser.parse_args()
    paths = [module_path(m) for m in args.modules]
    if args.changed:
        paths += changed_modules(args.changed)
    if args.recheck:
        NEW_TESTS[:] = list(dict.fromkeys(
            [n for n in changed_since("main", "tests") if Path(n).name.startswith("test_") and (ROOT / n).exists()]
            + args.also))
    paths = list(dict.fromkeys(paths))
    if not paths:
        print("no module to mutate" + (f" (none changed since {args.changed})" if args.changed else ""))
        return 0
    if args.sample is not None and not args.report and not args.recheck:
        # A sample of several modules is one mutmut run: one start, one clean run of the tests.
        started = time.monotonic()
        run_mutmut(paths, args.time_limit, args.fresh, args.only, args.sample)
        print(f"{len(paths)} modules: {time.monotonic() - started:.0f} s", flush=True)
    for path in paths:
        started = time.monotonic()
        if not args.report and not args.recheck and args.sample is None:
            run_mutmut([path], args.time_limit, args.fresh, args.only)
        if args.recheck:
            recheck(path, args.time_limit, args.sample, args.unchecked)
        if not args.report and (args.recheck or args.sample is None):
            print(f"{dotted(path)}: {time.monotonic() - started:.0f} s", flush=True)
    rows = [row_of(p, args.sample) for p in paths]
    print_table(rows)
    return 1 if any(row.survivors for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
