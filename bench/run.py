"""qti-builder's benchmarks, in one run: ``.venv/bin/python bench/run.py`` (bench/README.md).

Every figure is the median of ``--repeat`` runs of a fresh process, timed from outside
(``time.perf_counter`` around ``subprocess``), so interpreter start and imports count. This
machine is shared and noisy: the load average before and after is recorded with the results,
and the figures that are compared (ours, text2qti's, the floor) are measured side by side, in
rounds, each round running each of them once.

What is measured:

- the seed quiz's cold build (``qti-builder build source/ray-train-tune.md``) against the cold
  floor (interpreter + the dependencies' imports + compiling the schemas + parsing, validating and
  zipping the seed's outputs: ``bench/floor.py cold``);
- mixed banks of 500, 2,000 and 10,000 questions (every question type, Korean and English, code
  and math: ``bench/bank.py``) built to QTI 2.1 + Moodle XML, validated and zipped, in one process
  (``--jobs 1``) and on every core, with the per-stage breakdown of ``--report json``, against the
  floor of their outputs (``bench/floor.py files``);
- the same questions in the types text2qti can write, built by text2qti (QTI 1.2, installed from
  PyPI into ``bench/.venv``) and by qti-builder side by side;
- issue 23's table (``--versus`` measures it alone, with the seed's cold build): 10,000 four-option
  single-choice questions, Korean and English, in ten sections of 1,000, built by text2qti, by
  qti-builder ``--format canvas`` and by qti-builder's default build (all three outputs), each
  on every core and in one process, in rounds;
- the peak memory of the 10,000-question build: the process's maximum RSS in one process, the
  largest total PSS of the process tree with workers (sampled from /proc);
- how time and memory grow: mixed banks of 10,000, 25,000, 50,000 and 100,000 questions from one
  source, and 100 sources of 1,000 in one build (one run each, in one process; the 100,000 ones
  with workers too), within the reader's default limits (a 100,000-question source is 22 MB; the
  source limit is 256 MiB, ``--max-source-mb``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bank import TEXT2QTI_KINDS, write_bank

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EXE = ROOT / ".venv" / "bin" / "qti-builder"
PYTHON = ROOT / ".venv" / "bin" / "python"
T2Q_VENV = BENCH / ".venv"
T2Q = T2Q_VENV / "bin" / "text2qti"
WORK = BENCH / ".work"
RESULTS = BENCH / "results"
SEED = ROOT / "source" / "ray-train-tune.md"
SIZES = (500, 2_000, 10_000)
#: Banks built from one source to see how time and memory grow; the last is also built as
#: ``SOURCES`` sources of ``size / SOURCES`` questions.
GROWTH = (10_000, 25_000, 50_000, 100_000)
SOURCES = 100
#: Banks built by text2qti too: its types mixed at two sizes, and 10,000 four-option single-choice
#: questions (the case issue 8 quotes text2qti's time for).
TEXT2QTI_BANKS = ((500, TEXT2QTI_KINDS), (10_000, TEXT2QTI_KINDS), (10_000, ("single_choice",)))
#: Issue 23's comparison: questions, kinds, questions per section.
VERSUS = (10_000, ("single_choice",), 1_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the median is reported)")
    parser.add_argument("--sizes", type=lambda s: tuple(int(n) for n in s.split(",")), default=SIZES)
    parser.add_argument("--jobs", type=int, default=0, help="workers of the parallel build (0: one per CPU)")
    parser.add_argument("--quick", action="store_true", help="one run each, banks of 500 and 2,000 only (growth: 2,000 and 5,000)")
    parser.add_argument("--growth", type=lambda s: tuple(int(n) for n in s.split(",")), default=GROWTH,
                        help="bank sizes of the growth runs (the last also as 100 sources)")
    parser.add_argument("--versus", action="store_true",
                        help="issue 23's table only (text2qti, --format canvas, the default build) and the seed's cold build")
    parser.add_argument("--tables-from", type=Path, help="measure nothing: rewrite the tables from a results file")
    args = parser.parse_args()
    if args.tables_from:
        update_readmes(json.loads(args.tables_from.read_text("utf-8")), args.tables_from.resolve())
        return
    if args.quick:
        args.repeat, args.sizes, args.growth = 1, (500, 2_000), (2_000, 5_000)
    schemas = Path(os.environ.setdefault("QTI_BUILDER_SCHEMAS", str(ROOT.parent / "shared" / "schemas")))
    ensure_text2qti()
    precompile()
    WORK.mkdir(exist_ok=True)
    jobs = args.jobs or len(os.sched_getaffinity(0))
    results: dict = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "machine": machine(),
                     "repeat": args.repeat, "jobs": jobs, "load_before": os.getloadavg()}
    results["cold"] = cold_build(schemas, args.repeat)
    results["versus"] = versus(jobs, args.repeat)
    if args.versus:
        results["load_after"] = os.getloadavg()
        return finish(results)
    results["banks"] = [bank_build(n, schemas, jobs, args.repeat) for n in args.sizes]
    results["text2qti"] = [versus_text2qti(n, kinds, jobs, args.repeat) for n, kinds in TEXT2QTI_BANKS if n in args.sizes]
    results["memory"] = memory(max(args.sizes), jobs)
    results["growth"] = growth(args.growth, jobs)
    results["load_after"] = os.getloadavg()
    finish(results)


def finish(results: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"{datetime.datetime.now():%Y-%m-%dT%H%M}.json"  # one file per run: runs of a day are compared
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(versus_summary(results))
    if "banks" in results:
        print("\n" + summary(results))
    print(f"\nresults: {out.relative_to(ROOT)}")
    update_readmes(results, out)


# -- measuring ------------------------------------------------------------------------------------


def timed(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, the process and its workers) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def rounds(repeat: int, runs: dict[str, Callable[[], tuple[float, float]]]) -> dict[str, float]:
    """Median seconds of each run (and ``<name>_cpu``, its CPU seconds), the runs interleaved
    round by round so that the machine's noise hits all of them alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            times[name].append(run())
    medians = {}
    for name, values in times.items():
        medians[name] = round(statistics.median(wall for wall, _ in values), 3)
        medians[f"{name}_cpu"] = round(statistics.median(cpu for _, cpu in values), 3)
    return medians


def build(source: Path, out: Path, jobs: int, *extra: str) -> list[str]:
    # --no-cache: every figure is a cold build (bench/speed.py measures the cache).
    return [str(EXE), "build", str(source), "--out", str(out), "--jobs", str(jobs), "--quiet", "--no-cache", *extra]


def cold_build(schemas: Path, repeat: int) -> dict:
    out = Path(tempfile.mkdtemp(dir=WORK))
    subprocess.run(build(SEED, out, 1), check=True)
    outputs = [str(p) for p in sorted(out.iterdir())]
    floor_cmd = [str(PYTHON), str(BENCH / "floor.py"), "cold", str(schemas), *outputs]
    # A second each: three times the rounds, as start-up times are the noisiest.
    figures = rounds(3 * repeat, {
        "build": lambda: timed(build(SEED, out, 0)),
        "build_jobs_1": lambda: timed(build(SEED, out, 1)),
        "floor": lambda: timed(floor_cmd),
        "interpreter": lambda: timed([str(PYTHON), "-c", "pass"]),
    })
    shutil.rmtree(out)
    figures["ratio_to_floor"] = round(figures["build"] / figures["floor"], 2)
    figures["ratio_to_floor_jobs_1"] = round(figures["build_jobs_1"] / figures["floor"], 2)
    return figures


def bank_build(size: int, schemas: Path, jobs: int, repeat: int) -> dict:
    source = write_bank(WORK, size)["md"]
    serial, parallel = WORK / f"out-{size}-1", WORK / f"out-{size}-{jobs}"
    report = WORK / f"report-{size}.json"
    figures = rounds(repeat, {
        "jobs_1": lambda: timed(build(source, serial, 1, "--report", "json", "--report-file", str(report))),
        f"jobs_{jobs}": lambda: timed(build(source, parallel, jobs)),
    })
    identical = all((serial / p.name).read_bytes() == p.read_bytes() for p in parallel.iterdir())
    stages = json.loads(report.read_text("utf-8"))
    quiz = stages["quizzes"][0]
    outputs = [str(p) for p in sorted(serial.iterdir())]
    floors = [json.loads(subprocess.run([str(PYTHON), str(BENCH / "floor.py"), "files", str(schemas), *outputs],
                                        check=True, capture_output=True, text=True).stdout) for _ in range(repeat)]
    floor = {k: round(statistics.median(f[k] for f in floors), 3) for k in floors[0]}
    return {
        "questions": size, "source_bytes": source.stat().st_size, **figures,
        "parallel_identical_to_serial": identical,
        "stages_jobs_1": _stages(stages),
        "output_bytes": {Path(o["path"]).name: o["bytes"] for o in quiz["outputs"]},
        "floor": floor,
        "ratio_to_floor_jobs_1": round(figures["jobs_1"] / floor["total"], 2),
        f"ratio_to_floor_jobs_{jobs}": round(figures[f"jobs_{jobs}"] / floor["total"], 2),
    }


def versus_text2qti(size: int, kinds: tuple[str, ...], jobs: int, repeat: int) -> dict:
    paths = write_bank(WORK, size, kinds, text2qti=True)
    ours = WORK / f"out-{paths['md'].stem}"
    report = WORK / f"report-{paths['md'].stem}.json"
    figures = rounds(repeat, {
        "text2qti": lambda: timed([str(T2Q), paths["text2qti"].name], cwd=WORK),
        "ours_jobs_1": lambda: timed(build(paths["md"], ours, 1, "--report", "json", "--report-file", str(report))),
        f"ours_jobs_{jobs}": lambda: timed(build(paths["md"], ours, jobs)),
    })
    stages = json.loads(report.read_text("utf-8"))
    return {"questions": size, "kinds": list(kinds), **figures,
            "speedup_jobs_1": round(figures["text2qti"] / figures["ours_jobs_1"], 2),
            f"speedup_jobs_{jobs}": round(figures["text2qti"] / figures[f"ours_jobs_{jobs}"], 2),
            "stages_jobs_1": _stages(stages),
            "formats": sorted(Path(o["path"]).name for o in stages["quizzes"][0]["outputs"])}


def versus(jobs: int, repeat: int) -> dict:
    """Issue 23's three rows side by side: text2qti, qti-builder ``--format canvas`` and
    qti-builder's default build (QTI 2.1, Moodle XML and the Canvas package), each of ours on
    ``jobs`` processes and in one, in rounds."""
    size, kinds, section = VERSUS
    paths = write_bank(WORK, size, kinds, text2qti=True, section_size=section)
    out, report = WORK / "out-versus", WORK / "report-versus-{}.json"
    canvas = ("--format", "canvas")
    figures = rounds(repeat, {
        "text2qti": lambda: timed([str(T2Q), paths["text2qti"].name], cwd=WORK),
        "canvas": lambda: timed(build(paths["md"], out / "canvas", jobs, *canvas)),
        "canvas_jobs_1": lambda: timed(build(paths["md"], out / "canvas-1", 1, *canvas, "--report", "json",
                                             "--report-file", str(report).format("canvas"))),
        "default": lambda: timed(build(paths["md"], out / "default", jobs)),
        "default_jobs_1": lambda: timed(build(paths["md"], out / "default-1", 1, "--report", "json",
                                              "--report-file", str(report).format("default"))),
    })
    identical = all((out / "default-1" / p.name).read_bytes() == p.read_bytes() for p in (out / "default").iterdir())
    return {"questions": size, "kinds": list(kinds), "section_size": section, "jobs": jobs, **figures,
            **{f"ratio_{name}": round(figures["text2qti"] / figures[name], 2)
               for name in ("canvas", "canvas_jobs_1", "default", "default_jobs_1")},
            "stages_jobs_1": {name: _stages(json.loads(Path(str(report).format(name)).read_text("utf-8")))
                              for name in ("canvas", "default")},
            "parallel_identical_to_serial": identical}


def _stages(report: dict) -> dict[str, float]:
    """Seconds per stage of a one-process build, from its ``--report json``."""
    quiz = report["quizzes"][0]
    return {**{k: quiz["timings"][k] for k in ("read", "render", "validate", "package")},
            "schemas": report["timings"]["schemas"], "write": report["timings"]["write"]}


def memory(size: int, jobs: int) -> dict:
    """Peak memory of the biggest bank's build: one process, and with workers (tree PSS)."""
    figures: dict = {"questions": size}
    for run_jobs in (1, jobs):
        source = WORK / f"bank-{size}.md"
        process = subprocess.Popen(build(source, WORK / f"out-mem-{run_jobs}", run_jobs), stderr=subprocess.DEVNULL)
        peak_pss = 0
        while process.poll() is None:
            peak_pss = max(peak_pss, tree_pss(process.pid))
            time.sleep(0.05)
        figures[f"jobs_{run_jobs}_tree_pss_mb"] = round(peak_pss / 1024, 1)
    # The clean figure: one process, its own maximum RSS.
    started = subprocess.Popen(build(WORK / f"bank-{size}.md", WORK / "out-mem-rss", 1), stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(started.pid, 0)
    figures["jobs_1_max_rss_mb"] = round(usage.ru_maxrss / 1024, 1)
    for smaller in SIZES:
        source = WORK / f"bank-{smaller}.md"
        if source.exists() and smaller < size:
            process = subprocess.Popen(build(source, WORK / "out-mem-rss", 1), stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(process.pid, 0)
            figures[f"jobs_1_max_rss_mb_{smaller}"] = round(usage.ru_maxrss / 1024, 1)
    return figures


def growth(sizes: tuple[int, ...], jobs: int) -> dict:
    """Time and peak memory as the bank grows: each size from one source, the largest also as
    ``SOURCES`` sources in one build; one run each, in one process (wall seconds, maximum RSS),
    and the largest with workers too (wall seconds, largest PSS of the process tree)."""
    rows = []
    largest = max(sizes)
    for size in sizes:
        source = write_bank(WORK, size)["md"]
        rows.append({"questions": size, "sources": 1, **_peak(build(source, WORK / "out-growth", 1))})
        if size == largest:
            rows[-1].update(_tree_peak(build(source, WORK / "out-growth", jobs), jobs))
    folder = WORK / f"sources-{SOURCES}x{largest // SOURCES}"
    shutil.rmtree(folder, ignore_errors=True)
    for n in range(SOURCES):
        write_bank(folder, largest // SOURCES, seed=n, name=f"part-{n:03d}")
    rows.append({"questions": largest, "sources": SOURCES, **_peak(build(folder, WORK / "out-growth", 1))})
    rows[-1].update(_tree_peak(build(folder, WORK / "out-growth", jobs), jobs))
    shutil.rmtree(WORK / "out-growth", ignore_errors=True)
    return {"jobs": jobs, "rows": rows}


def _peak(command: list[str]) -> dict[str, float]:
    """Wall seconds and maximum RSS (MB) of one run in one process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"failed ({status}): {' '.join(command)}")
    return {"jobs_1": round(time.perf_counter() - started, 2), "jobs_1_max_rss_mb": round(usage.ru_maxrss / 1024, 1)}


def _tree_peak(command: list[str], jobs: int) -> dict[str, float]:
    """Wall seconds and the largest PSS (MB) of the process tree of one run with workers."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_pss(process.pid))
        time.sleep(0.1)
    if process.returncode:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    return {f"jobs_{jobs}": round(time.perf_counter() - started, 2), f"jobs_{jobs}_tree_pss_mb": round(peak / 1024, 1)}


def tree_pss(pid: int) -> int:
    """Proportional set size of a process and its descendants, in KiB (shared pages split)."""
    total = 0
    for child in [pid, *descendants(pid)]:
        try:
            for line in Path(f"/proc/{child}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def descendants(pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(c) for c in children] + [d for c in children for d in descendants(int(c))]


def precompile() -> None:
    """Bytecode for qti-builder's own modules, as a pip install of the wheel leaves it (and as
    the dependencies have it): an editable install under PYTHONDONTWRITEBYTECODE, as on this
    machine, would otherwise compile every module from source in every cold run (0.05 s)."""
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", str(ROOT / "src" / "qti_builder")], check=True,
                   stdout=subprocess.DEVNULL)


def ensure_text2qti() -> None:
    """text2qti from PyPI in its own environment, so it never shares qti-builder's packages."""
    if not T2Q.exists():
        subprocess.run([sys.executable, "-m", "venv", str(T2Q_VENV)], check=True)
        subprocess.run([str(T2Q_VENV / "bin" / "pip"), "install", "-q", "text2qti==0.8.0"], check=True)


def machine() -> dict:
    return {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0)), "platform": platform.platform()}


# -- reporting ------------------------------------------------------------------------------------


def versus_summary(r: dict) -> str:
    """Issue 23's table, the stages of our one-process builds and the issue's goals."""
    v, cold = r["versus"], r["cold"]
    jobs, t2q = v["jobs"], v["text2qti"]
    lines = [
        f"Measured {r['date']} on {r['machine']['cpus']} CPUs (load {r['load_before'][0]:.1f} before, "
        f"{r['load_after'][0]:.1f} after), median of {r['repeat']}, the five builds run in turn in each round: "
        f"{v['questions']:,} four-option single-choice questions, Korean and English, ten sections of "
        f"{v['section_size']:,}.",
        "",
        f"| what runs | {jobs} processes | against text2qti 0.8 | 1 process | against text2qti 0.8 |",
        "|---|---:|---:|---:|---:|",
        f"| text2qti 0.8 (one QTI 1.2 zip for Canvas, not validated) | {t2q:.2f} s | 1.00× | | |",
        f"| qti-builder `--format canvas` (the same kind of file, validated against the QTI 1.2.1 DTD) | "
        f"{v['canvas']:.2f} s | {v['ratio_canvas']:.2f}× | {v['canvas_jobs_1']:.2f} s | {v['ratio_canvas_jobs_1']:.2f}× |",
        f"| qti-builder default build (Canvas + QTI 2.1 + Moodle XML, all validated) | {v['default']:.2f} s | "
        f"{v['ratio_default']:.2f}× | {v['default_jobs_1']:.2f} s | {v['ratio_default_jobs_1']:.2f}× |",
        "",
        "Stages of the one-process builds (`--report json`): " + "; ".join(
            f"{name}: " + ", ".join(f"{k} {x:.2f} s" for k, x in stages.items())
            for name, stages in v["stages_jobs_1"].items()) + f". CPU seconds: text2qti {v['text2qti_cpu']:.1f}; "
        f"canvas {v['canvas_cpu']:.1f} ({jobs} p.) / {v['canvas_jobs_1_cpu']:.1f} (1 p.); default "
        f"{v['default_cpu']:.1f} / {v['default_jobs_1_cpu']:.1f}. Output of {jobs} processes byte-identical to one: "
        f"{v['parallel_identical_to_serial']}.",
        "",
        "| goal (issue 23) | this run | |",
        "|---|---|---|",
    ]

    def ratio_goal(name: str, key: str, goal: float) -> str:
        ours, need = v[key], t2q / goal
        verdict = "met" if v[f"ratio_{key}"] >= goal else \
            f"**missed** by {ours - need:.2f} s ({ours / need - 1:.0%} slower than {need:.2f} s)"
        return f"| {name} ≥ {goal:.1f}× text2qti | {v[f'ratio_{key}']:.2f}× ({ours:.2f} s vs {t2q:.2f} s) | {verdict} |"

    lines += [ratio_goal(f"default build, {jobs} processes", "default", 1.0),
              ratio_goal("default build, 1 process", "default_jobs_1", 0.8),
              ratio_goal(f"`--format canvas`, {jobs} processes", "canvas", 2.0),
              ratio_goal("`--format canvas`, 1 process", "canvas_jobs_1", 2.0)]
    verdict = "met" if cold["ratio_to_floor"] <= 1.2 else f"**missed** by {cold['build'] - 1.2 * cold['floor']:.2f} s"
    lines.append(f"| seed cold build ≤ 1.2× the cold floor | {cold['ratio_to_floor']:.2f}× ({cold['build']:.2f} s vs "
                 f"{cold['floor']:.2f} s; 1 process {cold['ratio_to_floor_jobs_1']:.2f}×) | {verdict} |")
    rows = [row for row in r.get("growth", {}).get("rows", []) if row["questions"] >= 100_000 and row["sources"] == 1]
    if rows:
        gj = r["growth"]["jobs"]
        worst = max(rows[0]["jobs_1_max_rss_mb"], rows[0].get(f"jobs_{gj}_tree_pss_mb", 0))
        lines.append(f"| 100,000-question single source in ≤ 1.5 GB | {rows[0]['jobs_1_max_rss_mb']:.0f} MB (1 p.), "
                     f"{rows[0].get(f'jobs_{gj}_tree_pss_mb', 0):.0f} MB ({gj} p.) | "
                     f"{'met' if worst <= 1536 else f'**missed** by {worst - 1536:.0f} MB'} |")
    else:
        lines.append("| 100,000-question single source in ≤ 1.5 GB | not measured by `--versus` (the full run's growth "
                     "table) | |")
    return "\n".join(lines)


def summary(r: dict) -> str:
    jobs = r["jobs"]
    cold = r["cold"]
    lines = [
        f"Measured {r['date']} on {r['machine']['cpus']} CPUs (load {r['load_before'][0]:.1f} before, "
        f"{r['load_after'][0]:.1f} after), median of {r['repeat']}.",
        "",
        "| build | qti-builder, 1 process | qti-builder, " + f"{jobs} processes | floor | vs floor ({jobs} p.) |",
        "|---|---:|---:|---:|---:|",
        f"| seed quiz, cold (whole process) | {cold['build_jobs_1']:.2f} s | {cold['build']:.2f} s | "
        f"{cold['floor']:.2f} s | {cold['ratio_to_floor']:.2f}× |",
    ]
    for bank in r["banks"]:
        lines.append(f"| {bank['questions']:,} mixed questions | {bank['jobs_1']:.2f} s | {bank[f'jobs_{jobs}']:.2f} s | "
                     f"{bank['floor']['total']:.2f} s | {bank[f'ratio_to_floor_jobs_{jobs}']:.2f}× |")
    lines += ["", "| same questions, text2qti's types | text2qti 0.8 (QTI 1.2) | qti-builder, 1 process | "
                  f"qti-builder, {jobs} processes | speed-up (1 / {jobs}) |", "|---|---:|---:|---:|---:|"]
    for row in r["text2qti"]:
        lines.append(f"| {row['questions']:,} {_what(row)} | {row['text2qti']:.2f} s | {row['ours_jobs_1']:.2f} s | "
                     f"{row[f'ours_jobs_{jobs}']:.2f} s | {row['speedup_jobs_1']:.2f}× / {row[f'speedup_jobs_{jobs}']:.2f}× |")
    if r["text2qti"] and "formats" in r["text2qti"][0]:
        lines += ["", "qti-builder writes " + ", ".join(f"`{f}`" for f in r["text2qti"][0]["formats"])
                  + " (QTI 2.1, Moodle XML and the Canvas package, every document validated), text2qti one QTI 1.2 zip. "
                  "Stages of qti-builder's one-process builds: " + "; ".join(
                      f"{row['questions']:,} {_what(row)}: " + ", ".join(f"{k} {v:.2f} s" for k, v in row["stages_jobs_1"].items())
                      for row in r["text2qti"] if "stages_jobs_1" in row) + "."]
    lines += ["", "CPU seconds (user + system, all processes) of the same runs: " + "; ".join(
        f"{b['questions']:,} mixed: {b['jobs_1_cpu']:.1f} / {b[f'jobs_{jobs}_cpu']:.1f}" for b in r["banks"]
    ) + "; " + "; ".join(f"text2qti {t['questions']:,}{'' if tuple(t['kinds']) == TEXT2QTI_KINDS else ' single-choice'}: "
                         f"{t['text2qti_cpu']:.1f}" for t in r["text2qti"]) + "."]
    biggest = r["banks"][-1]
    stages = biggest["stages_jobs_1"]
    lines += ["", f"Stages of the {biggest['questions']:,}-question build in one process: "
              + ", ".join(f"{k} {v:.2f} s" for k, v in stages.items())
              + "; its floor: " + ", ".join(f"{k} {v:.2f} s" for k, v in biggest["floor"].items()) + "."]
    mem = r["memory"]
    grows = ", ".join(f"{k.rsplit('_', 1)[-1]}: {v} MB" for k, v in mem.items() if k.startswith("jobs_1_max_rss_mb_"))
    lines.append(f"Peak memory of the {mem['questions']:,}-question build: {mem['jobs_1_max_rss_mb']} MB in one process "
                 f"(smaller banks {grows}); {mem[f'jobs_{jobs}_tree_pss_mb']} MB PSS for all {jobs} processes. "
                 f"Parallel output byte-identical to serial: {all(b['parallel_identical_to_serial'] for b in r['banks'])}.")
    if "growth" in r:
        g = r["growth"]
        gj = g["jobs"]
        lines += ["", f"| growth (mixed questions) | 1 process | peak RSS | {gj} processes | peak PSS, all processes |",
                  "|---|---:|---:|---:|---:|"]
        for row in g["rows"]:
            what = f"{row['questions']:,} in one source" if row["sources"] == 1 else \
                f"{row['questions']:,} in {row['sources']} sources of {row['questions'] // row['sources']:,}"
            parallel = (f"{row[f'jobs_{gj}']:.1f} s | {row[f'jobs_{gj}_tree_pss_mb']:.0f} MB"
                        if f"jobs_{gj}" in row else "– | –")
            lines.append(f"| {what} | {row['jobs_1']:.1f} s | {row['jobs_1_max_rss_mb']:.0f} MB | {parallel} |")
        single = [row for row in g["rows"] if row["sources"] == 1]
        if len(single) > 1:
            first, last = single[0], single[-1]
            scale = last["questions"] / first["questions"]
            lines.append(f"\nFrom {first['questions']:,} to {last['questions']:,} questions ({scale:g}×): time "
                         f"{last['jobs_1'] / first['jobs_1']:.1f}×, peak memory {last['jobs_1_max_rss_mb'] / first['jobs_1_max_rss_mb']:.1f}× "
                         f"({(last['jobs_1_max_rss_mb'] - first['jobs_1_max_rss_mb']) / (last['questions'] - first['questions']) * 1000:.1f} MB "
                         "per 1,000 questions more).")
    lines += ["", *targets(r)]
    return "\n".join(lines)


def _what(row: dict) -> str:
    return "questions" if tuple(row["kinds"]) == TEXT2QTI_KINDS else "four-option single-choice questions"


def targets(r: dict) -> list[str]:
    """Issue 14's targets, each with the figure of this run and whether it holds."""
    jobs = r["jobs"]
    rows: list[tuple[str, str, bool]] = []
    for row in r["text2qti"]:
        if row["questions"] < 10_000:
            continue
        what = f"{row['questions']:,} {_what(row)}"
        rows.append((f"{what}: ≥ 1.3× text2qti in one process", f"{row['speedup_jobs_1']:.2f}×", row["speedup_jobs_1"] >= 1.3))
        rows.append((f"{what}: ≥ 2× text2qti with {jobs} processes", f"{row[f'speedup_jobs_{jobs}']:.2f}×",
                     row[f"speedup_jobs_{jobs}"] >= 2))
        stages = row.get("stages_jobs_1")
        if stages:
            rows.append((f"{what}: render ≤ validate", f"{stages['render']:.2f} s vs {stages['validate']:.2f} s "
                         f"({stages['render'] / stages['validate']:.2f}×)", stages["render"] <= stages["validate"]))
            rows.append((f"{what}: read ≤ 0.5× validate", f"{stages['read']:.2f} s vs {stages['validate']:.2f} s "
                         f"({stages['read'] / stages['validate']:.2f}×)", stages["read"] <= 0.5 * stages["validate"]))
    biggest = r["banks"][-1] if r["banks"] else None
    if biggest and biggest["questions"] >= 10_000:
        stages = biggest["stages_jobs_1"]
        what = f"{biggest['questions']:,} mixed questions"
        rows.append((f"{what}: render ≤ validate", f"{stages['render']:.2f} s vs {stages['validate']:.2f} s "
                     f"({stages['render'] / stages['validate']:.2f}×)", stages["render"] <= stages["validate"]))
        rows.append((f"{what}: read ≤ 0.5× validate", f"{stages['read']:.2f} s vs {stages['validate']:.2f} s "
                     f"({stages['read'] / stages['validate']:.2f}×)", stages["read"] <= 0.5 * stages["validate"]))
    cold = r["cold"]
    rows.append(("seed quiz cold build ≤ 1.2× the floor", f"{cold['ratio_to_floor']:.2f}× ({jobs} p.), "
                 f"{cold['ratio_to_floor_jobs_1']:.2f}× (1 p.)", cold["ratio_to_floor"] <= 1.2))
    mem = r["memory"]
    if mem["questions"] >= 10_000:
        worst = max(mem["jobs_1_max_rss_mb"], mem[f"jobs_{jobs}_tree_pss_mb"])
        rows.append((f"peak memory of the {mem['questions']:,} build < 300 MB", f"{mem['jobs_1_max_rss_mb']} MB (1 p.), "
                     f"{mem[f'jobs_{jobs}_tree_pss_mb']} MB ({jobs} p.)", worst < 300))
    for row in r.get("growth", {}).get("rows", []):
        if row["questions"] >= 100_000:
            gj = r["growth"]["jobs"]
            worst = max(row["jobs_1_max_rss_mb"], row.get(f"jobs_{gj}_tree_pss_mb", 0))
            rows.append((f"peak memory of {row['questions']:,} questions ({row['sources']} source{'s' if row['sources'] > 1 else ''})"
                         " < 1.5 GB", f"{row['jobs_1_max_rss_mb']:.0f} MB (1 p.), {row.get(f'jobs_{gj}_tree_pss_mb', 0):.0f} MB ({gj} p.)",
                         worst < 1536))
    return ["| target (issue 14) | this run | |", "|---|---|---|",
            *(f"| {name} | {figure} | {'met' if ok else '**missed**'} |" for name, figure, ok in rows)]


def one_line(r: dict) -> str:
    """The project README's summary of a run: issue 23's three rows, and the seed quiz."""
    v, cold = r["versus"], r["cold"]
    jobs = v["jobs"]
    return (f"Latest run ({r['date'][:10]}, {r['machine']['cpus']} CPUs, load {r['load_before'][0]:.1f}, median of "
            f"{r['repeat']}, side by side), {v['questions']:,} four-option single-choice questions: text2qti 0.8 writes its "
            f"one QTI 1.2 zip (not validated) in {v['text2qti']:.2f} s; qti-builder `--format canvas` its validated "
            f"Canvas package in {v['canvas']:.2f} s ({v['ratio_canvas']:.2f}× text2qti's speed; "
            f"{v['canvas_jobs_1']:.2f} s, {v['ratio_canvas_jobs_1']:.2f}× in one process), and its default build "
            f"all three validated outputs in {v['default']:.2f} s ({v['ratio_default']:.2f}×; {v['default_jobs_1']:.2f} s, "
            f"{v['ratio_default_jobs_1']:.2f}× in one process), on {jobs} processes; the seed quiz builds in "
            f"{cold['build']:.2f} s ({cold['ratio_to_floor']:.2f}× the floor of any tool). Every table, the goals and how "
            "it is measured: [bench/README.md](bench/README.md).")


def update_readmes(r: dict, out: Path) -> None:
    """The tables between the markers of bench/README.md (issue 23's, and the full run's when it
    ran); one line between those of the project's README."""
    sections = []
    if "versus" in r:  # runs before issue 23 have no such table
        sections += [(BENCH / "README.md", "<!-- versus -->", "<!-- /versus -->",
                      f"{versus_summary(r)}\n\nFrom `{out.relative_to(ROOT)}`."),
                     (ROOT / "README.md", "<!-- bench -->", "<!-- /bench -->", one_line(r))]
    if "banks" in r:
        sections.append((BENCH / "README.md", "<!-- results -->", "<!-- /results -->",
                         f"{summary(r)}\n\nFrom `{out.relative_to(ROOT)}`."))
    for readme, start, end, text in sections:
        old = readme.read_text("utf-8")
        if start in old and end in old:
            head, rest = old.split(start, 1)
            _, tail = rest.split(end, 1)
            readme.write_text(f"{head}{start}\n{text}\n{end}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
