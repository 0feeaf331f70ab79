"""Issue 34's figures, each side by side with a base checkout (the main the issue started from) in
one run: start-up, ``check`` of a 10-question quiz (cold, and unchanged with the build cache),
the 10,000-question banks against text2qti (the plain-text bank and the Markdown-rich one), the
rebuild after one edit, and the same rebuild in ``build --watch`` (``watch_rebuild``).

    .venv/bin/python bench/speed.py --base ../speed-base      # BASE/.venv/bin/qti-builder is the base

Every figure is the median of ``--repeat`` fresh processes timed from outside (wall clock, and
CPU seconds of the process and its workers from ``getrusage``), the versions run in turn in each
round so that the machine's noise hits them alike; start-up also as instructions counted by
callgrind (one run each: a count that the load of the machine does not move). Our cold builds
pass ``--no-cache``, and the base's too when it has the cache. Writes ``bench/results/speed-<date>.json`` and the
table between ``<!-- speed -->`` markers of bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bank import write_bank
from run import T2Q, ensure_text2qti, machine, precompile, timed

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WORK = BENCH / ".work" / "speed"
SEED = ROOT / "source" / "ray-train-tune.md"
#: The goals of issue 34.
GOALS = {"startup": 0.15, "check_cold": 0.4, "check_unchanged": 0.25, "canvas_ratio": 2.0, "default_ratio": 1.0,
         "rebuild_share": 0.10, "watch_rebuild_share": 0.10}


def median_rounds(repeat: int, runs: dict[str, Callable[[], tuple[float, float]]]) -> dict[str, dict[str, float]]:
    """Each run ``repeat`` times, in turn; per run the median wall and CPU seconds and every wall time."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            times[name].append(run())
    return {name: {"wall": round(statistics.median(w for w, _ in values), 3),
                   "cpu": round(statistics.median(c for _, c in values), 3),
                   "walls": [round(w, 3) for w, _ in values]} for name, values in times.items()}


def instructions(command: list[str]) -> int | None:
    """Instructions the process executes (callgrind), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *command],
                              capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        return int(found.group(1)) if found else None


def startup(exe: dict[str, Path], repeat: int) -> dict:
    commands = {"version": ["--version"], "help": ["--help"], "build_help": ["build", "--help"]}
    runs = {f"{name}_{version}": (lambda e=e, a=args: timed([str(e), *a]))
            for name, args in commands.items() for version, e in exe.items()}
    figures = median_rounds(repeat, runs)
    figures["instructions"] = {f"{name}_{version}": instructions([str(e), *args])
                               for name, args in commands.items() for version, e in exe.items()}
    return figures


def check(exe: dict[str, Path], repeat: int, cache: Path) -> dict:
    """``check`` of the seed quiz (10 questions, all three targets): cold (``--no-cache`` where
    the version has the cache) and, where it has, unchanged with the cache filled by a check
    before (each version its own cache folder)."""
    runs = {}
    for version, e in exe.items():
        no_cache = _no_cache(e)
        runs[f"cold_{version}"] = lambda e=e, n=no_cache: timed([str(e), "check", str(SEED), "--quiet", *n])
        if no_cache:
            env = {**os.environ, "QTI_BUILDER_CACHE_DIR": str(cache / version)}
            subprocess.run([str(e), "check", str(SEED), "--quiet"], check=True, env=env)
            runs[f"unchanged_{version}"] = lambda e=e, env=env: timed([str(e), "check", str(SEED), "--quiet"], env=env)
    return median_rounds(repeat, runs)


def bank(exe: dict[str, Path], repeat: int, size: int, plain: bool) -> dict:
    """text2qti, and ours and the base's ``--format canvas`` and default build, one worker per CPU."""
    paths = write_bank(WORK, size, ("single_choice",), text2qti=True, section_size=1_000, plain=plain)
    out = WORK / f"out-{paths['md'].stem}"
    no_cache = {version: _no_cache(e) for version, e in exe.items()}

    def ours(version: str, *extra: str) -> Callable[[], tuple[float, float]]:
        target = out / f"{version}{'-' + extra[1].replace(',', '-') if extra else ''}"
        return lambda: timed([str(exe[version]), "build", str(paths["md"]), "--out", str(target), "--quiet",
                              *no_cache[version], *extra])

    runs = {"text2qti": lambda: timed([str(T2Q), paths["text2qti"].name], cwd=WORK)}
    for version in ("new", "base"):
        runs[f"canvas_{version}"] = ours(version, "--format", "canvas")
        runs[f"default_{version}"] = ours(version)
    # The "default build" was its three targets; the Moodle quiz backup joined the defaults
    # after it: the three alone are measured too, so the figures stay comparable with the issue's.
    runs["three_new"] = ours("new", "--format", "qti21,moodle,canvas")
    figures: dict = median_rounds(repeat, runs)
    t2q = figures["text2qti"]["wall"]
    figures["ratios"] = {name: round(t2q / figures[name]["wall"], 2) for name in runs if name != "text2qti"}
    # Files a base too old to write them (the quiz backup) has no counterpart for are left out.
    figures["identical_to_base"] = all(
        (out / "base" / p.name).read_bytes() == p.read_bytes() for p in (out / "new").iterdir()
        if (out / "base" / p.name).exists()) and all(
        (out / "base-canvas" / p.name).read_bytes() == p.read_bytes() for p in (out / "new-canvas").iterdir())
    figures["bank"] = paths["md"].name
    return figures


def rebuild(exe: dict[str, Path], repeat: int, size: int) -> dict:
    """The default build of the plain bank, each version with its own empty cache (which the
    build fills), then after one question is edited, then unchanged; a version without the cache
    builds it whole each time. One edit per round, a different question each time, the versions
    in turn on the same edit; then each version builds the edited source without the cache
    ("nocache"), the outputs its rebuilds must equal."""
    paths = write_bank(WORK, size, ("single_choice",), section_size=1_000, plain=True)
    source = WORK / "rebuild.md"
    original = paths["md"].read_text("utf-8")
    walls: dict[str, list[tuple[float, float]]] = {f"{stage}_{version}": [] for version in exe
                                                   for stage in ("cold", "edited", "unchanged", "nocache")}
    identical = True
    for round_ in range(repeat):
        number = 1 + (round_ * 3_331) % size
        edited = original.replace(f". {number}: ", f". {number}: (edited) ", 1)
        assert edited != original
        for version, e in exe.items():
            source.write_text(original, "utf-8")
            cache = WORK / f"rebuild-cache-{version}"
            shutil.rmtree(cache, ignore_errors=True)
            env = {**os.environ, "QTI_BUILDER_CACHE_DIR": str(cache)}
            command = [str(e), "build", str(source), "--quiet", "--out"]
            walls[f"cold_{version}"].append(timed([*command, str(WORK / f"rb-cold-{version}")], env=env))
            source.write_text(edited, "utf-8")
            walls[f"edited_{version}"].append(timed([*command, str(WORK / f"rb-edited-{version}")], env=env))
            walls[f"unchanged_{version}"].append(timed([*command, str(WORK / f"rb-unchanged-{version}")], env=env))
            shutil.rmtree(cache, ignore_errors=True)
        for version, e in exe.items():  # each against its own build without the cache (their ids may differ)
            cold = WORK / f"rb-cold-fresh-{version}"
            walls[f"nocache_{version}"].append(timed([str(e), "build", str(source), "--quiet", *_no_cache(e), "--out", str(cold)]))
            identical &= all((WORK / f"rb-{stage}-{version}" / p.name).read_bytes() == p.read_bytes()
                             for p in cold.iterdir() for stage in ("edited", "unchanged"))
    figures: dict = {name: {"wall": round(statistics.median(w for w, _ in v), 3), "cpu": round(statistics.median(c for _, c in v), 3),
                            "walls": [round(w, 3) for w, _ in v]} for name, v in walls.items()}
    figures["identical_to_cold"] = identical
    for version in exe:
        figures[f"share_of_cold_{version}"] = round(figures[f"edited_{version}"]["wall"] / figures[f"cold_{version}"]["wall"], 3)
        figures[f"cpu_share_of_cold_{version}"] = round(figures[f"edited_{version}"]["cpu"] / figures[f"cold_{version}"]["cpu"], 3)
        figures[f"cpu_share_of_nocache_{version}"] = round(figures[f"edited_{version}"]["cpu"] / figures[f"nocache_{version}"]["cpu"], 3)
    return figures


def watch_rebuild(exe: dict[str, Path], repeat: int, size: int) -> dict:
    """A ``build --watch`` session of the plain bank's default build in each version
    (bench/watch_session.py, run with the version's own Python, each with its own empty cache):
    its first build, then three saves, each timed as the watch rebuilds it: one question edited
    ("edited"), the same question edited again ("again"), and a question of another section
    ("other"). Beside them, in the same round, each version's cold build (``--no-cache``, the
    figure the goal is a share of) and its rebuild after the same edit run by hand (``cli_edited``,
    the cache filled by a build before). The versions in turn, another question each round. In
    the first round every save's files are compared with a build without the cache of the same
    text (``identical_to_cold``). A base without the warm path watches as it did: each save
    rebuilt in its process from the cache folder."""
    paths = write_bank(WORK, size, ("single_choice",), section_size=1_000, plain=True)
    source = WORK / "watch.md"
    original = paths["md"].read_text("utf-8")
    stages = ("cold", "cli_edited", "watch_first", "watch_edited", "watch_again", "watch_other")
    walls: dict[str, list[tuple[float, float]]] = {f"{stage}_{version}": [] for version in exe for stage in stages}
    session_cpu: dict[str, list[float]] = {version: [] for version in exe}
    identical = True
    for round_ in range(repeat):
        number = 1 + (round_ * 3_331) % size
        other = 1 + (number + size // 2) % size
        edited = original.replace(f". {number}: ", f". {number}: (edited) ", 1)
        again = original.replace(f". {number}: ", f". {number}: (edited again) ", 1)
        both = again.replace(f". {other}: ", f". {other}: (edited) ", 1)
        assert len({original, edited, again, both}) == 4
        for version, e in exe.items():
            cache = WORK / f"watch-cache-{version}"
            env = {**os.environ, "QTI_BUILDER_CACHE_DIR": str(cache)}
            source.write_text(original, "utf-8")
            walls[f"cold_{version}"].append(timed([str(e), "build", str(source), "--quiet", *_no_cache(e), "--out",
                                                   str(WORK / f"w-cold-{version}")]))
            shutil.rmtree(cache, ignore_errors=True)
            command = [str(e), "build", str(source), "--quiet", "--out", str(WORK / f"w-cli-{version}")]
            timed(command, env=env)  # fills the cache
            source.write_text(edited, "utf-8")
            walls[f"cli_edited_{version}"].append(timed(command, env=env))
            shutil.rmtree(cache, ignore_errors=True)
            source.write_text(original, "utf-8")
            out, edits, result = WORK / f"w-watch-{version}", WORK / "watch-edits.json", WORK / f"watch-{version}.json"
            for old in WORK.glob(f"w-watch-{version}*"):
                shutil.rmtree(old)
            edits.write_text(json.dumps([edited, again, both]), "utf-8")
            python = e.parent / "python"
            subprocess.run([str(python), str(BENCH / "watch_session.py"), str(source), str(out), str(edits), str(result)],
                           check=True, env=env, stdout=subprocess.DEVNULL)
            session = json.loads(result.read_text("utf-8"))
            for stage, build in zip(stages[2:], session["builds"]):
                walls[f"{stage}_{version}"].append((build["wall"], build["cpu"]))
            session_cpu[version].append(session["session_cpu"])
            shutil.rmtree(cache, ignore_errors=True)
            if round_ == 0:  # every save's files against a build of its text without the cache
                for n, text in enumerate([edited, again, both], 1):
                    source.write_text(text, "utf-8")
                    fresh = WORK / f"w-fresh-{version}"
                    shutil.rmtree(fresh, ignore_errors=True)
                    subprocess.run([str(e), "build", str(source), "--quiet", *_no_cache(e), "--out", str(fresh)], check=True)
                    saved = WORK / f"w-watch-{version}-{n}"
                    identical &= sorted(p.name for p in fresh.iterdir()) == sorted(p.name for p in saved.iterdir()) and all(
                        (saved / p.name).read_bytes() == p.read_bytes() for p in fresh.iterdir())
    figures: dict = {name: {"wall": round(statistics.median(w for w, _ in v), 3), "cpu": round(statistics.median(c for _, c in v), 3),
                            "walls": [round(w, 3) for w, _ in v], "cpus": [round(c, 3) for _, c in v]} for name, v in walls.items()}
    figures["session_cpu"] = {version: [round(c, 3) for c in cpus] for version, cpus in session_cpu.items()}
    figures["identical_to_cold"] = identical
    for version in exe:
        cold = figures[f"cold_{version}"]
        for stage in ("cli_edited", "watch_edited", "watch_again", "watch_other"):
            figures[f"share_{stage}_{version}"] = round(figures[f"{stage}_{version}"]["wall"] / cold["wall"], 3)
            figures[f"cpu_share_{stage}_{version}"] = round(figures[f"{stage}_{version}"]["cpu"] / cold["cpu"], 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the base with its .venv")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--startup-repeat", type=int, default=9)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--only", default="startup,check,plain,markdown,rebuild,watch_rebuild")
    args = parser.parse_args()
    only = set(args.only.split(","))
    exe = {"new": ROOT / ".venv" / "bin" / "qti-builder", "base": args.base.resolve() / ".venv" / "bin" / "qti-builder"}
    precompile()
    subprocess.run([str(args.base.resolve() / ".venv" / "bin" / "python"), "-m", "compileall", "-q",
                    str(Path(subprocess.run([str(args.base.resolve() / ".venv" / "bin" / "python"), "-c",
                                             "import qti_builder, os; print(os.path.dirname(qti_builder.__file__))"],
                                            capture_output=True, text=True, check=True).stdout.strip()))],
                   check=True, stdout=subprocess.DEVNULL)
    if only & {"plain", "markdown"}:
        ensure_text2qti()
    WORK.mkdir(parents=True, exist_ok=True)
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    results: dict = {"started": started, "machine": machine(), "load_before": os.getloadavg()[0],
                     "base": str(args.base), "commit": _commit(ROOT), "base_commit": _commit(args.base)}
    with tempfile.TemporaryDirectory() as tmp:
        if "startup" in only:
            results["startup"] = startup(exe, args.startup_repeat)
        if "check" in only:
            results["check"] = check(exe, args.startup_repeat, Path(tmp) / "cache")
    if "plain" in only:
        results["plain"] = bank(exe, args.repeat, args.size, plain=True)
    if "markdown" in only:
        results["markdown"] = bank(exe, args.repeat, args.size, plain=False)
    if "rebuild" in only:
        results["rebuild"] = rebuild(exe, args.repeat, args.size)
    if "watch_rebuild" in only:
        results["watch_rebuild"] = watch_rebuild(exe, args.repeat, args.size)
    results["load_after"] = os.getloadavg()[0]
    out = BENCH / "results" / f"speed-{started[:16].replace(':', '')}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))
    print(f"written {out}")


def _no_cache(exe: Path) -> list[str]:
    """``--no-cache`` for a version that has the build cache (a cold build), nothing for one without."""
    done = subprocess.run([str(exe), "build", "--help"], capture_output=True, text=True)
    return ["--no-cache"] if "--no-cache" in done.stdout else []


def _commit(folder: Path) -> str:
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


if __name__ == "__main__":
    main()
