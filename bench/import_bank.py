"""Importing big banks: ``.venv/bin/python bench/import_bank.py`` (bench/README.md, "Importing big banks").

A Moodle XML bank of 10,000 and one of 50,000 questions, written by qti-builder itself from
``bench/bank.py``'s mixed banks (every question type, Korean and English, code and math, in
sections of 200), is imported with ``qti-builder import``, in a fresh process timed from outside
(``time.perf_counter`` around it, so interpreter start and imports count); its peak memory is that
process's maximum RSS (``os.wait4``). The source it writes is then built to Moodle XML again: the
result must build. A source larger than a source may be is built in pieces of at most 10,000
questions, whose Moodle XML files are joined into one bank (the same categories, in order).

The table goes into bench/README.md between ``<!-- import-bank -->`` markers; the figures into
``bench/results/import-<date>T<time>.json``. Not part of the tests (tests/test_import_bank.py
imports a bank of the same shape at 1,500 questions).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from lxml import etree

from bank import generate, to_markdown

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EXE = ROOT / ".venv" / "bin" / "qti-builder"
WORK = BENCH / ".work" / "import"
RESULTS = BENCH / "results"
README = BENCH / "README.md"
SIZES = (10_000, 50_000)
#: Questions per source built to make the Moodle file: a source stays well under the readers' size limit.
PIECE = 10_000
MARKERS = ("<!-- import-bank -->", "<!-- /import-bank -->")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="imports per size (the median is reported)")
    parser.add_argument("--sizes", type=lambda s: tuple(int(n) for n in s.split(",")), default=SIZES)
    args = parser.parse_args()
    os.environ.setdefault("QTI_BUILDER_SCHEMAS", str(ROOT.parent / "shared" / "schemas"))
    WORK.mkdir(parents=True, exist_ok=True)
    results: dict = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "cpus": len(os.sched_getaffinity(0)),
                     "repeat": args.repeat, "load_before": os.getloadavg(), "banks": []}
    for size in args.sizes:
        results["banks"].append(measure(size, args.repeat))
        print(json.dumps(results["banks"][-1]))
    results["load_after"] = os.getloadavg()
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"import-{datetime.datetime.now():%Y-%m-%dT%H%M}.json"
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    table = summary(results, out)
    print(table)
    text = README.read_text("utf-8")
    start, end = text.index(MARKERS[0]) + len(MARKERS[0]), text.index(MARKERS[1])
    README.write_text(text[:start] + "\n" + table + "\n" + text[end:], encoding="utf-8")


def moodle_bank(size: int, folder: Path = WORK) -> Path:
    """``<folder>/bank-<size>.moodle.xml``, built by qti-builder from bench/bank.py's bank (kept
    between runs: the same arguments give the same bytes)."""
    target = folder / f"bank-{size}.moodle.xml"
    if target.exists():
        return target
    markdown = to_markdown(generate(size), f"bank-{size}")
    pieces = _pieces(markdown)
    joined: etree._Element | None = None
    for number, piece in enumerate(pieces):
        source = folder / f"piece-{size}-{number}" / f"bank-{size}.md"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(piece, encoding="utf-8")
        subprocess.run([str(EXE), "build", str(source), "--format", "moodle", "--out", str(source.parent), "--jobs", "1", "--no-cache",
                        "--quiet"], check=True)
        built = source.parent / f"bank-{size}.moodle.xml"
        if len(pieces) == 1:  # the file as qti-builder writes it
            built.replace(target)
            shutil.rmtree(source.parent)
            return target
        root = etree.parse(str(built), etree.XMLParser(strip_cdata=False, huge_tree=True)).getroot()
        shutil.rmtree(source.parent)
        if joined is None:
            joined = root
            continue
        for question in root:  # the quiz's own category again, then its sections' and their questions
            joined.append(question)
    assert joined is not None
    target.write_bytes(etree.tostring(joined, xml_declaration=True, encoding="UTF-8"))
    return target


def _pieces(markdown: str) -> list[str]:
    """The bank's Markdown as sources of at most PIECE questions, each with the front matter."""
    front, _, body = markdown.partition("\n# ")
    sections = ["# " + s for s in body.split("\n# ")]
    pieces: list[str] = []
    current: list[str] = []
    count = 0
    for section in sections:
        questions = len(re.findall(r"^\d+\. ", section, re.M))
        if current and count + questions > PIECE:
            pieces.append(front + "\n" + "\n".join(current))
            current, count = [], 0
        current.append(section)
        count += questions
    pieces.append(front + "\n" + "\n".join(current))
    return pieces


def measure(size: int, repeat: int) -> dict:
    bank = moodle_bank(size)
    figures: dict = {"questions": size, "moodle_xml_mb": round(bank.stat().st_size / 1e6, 1)}
    walls, cpus, peaks = [], [], []
    for _ in range(repeat):
        out = WORK / f"source-{size}"
        shutil.rmtree(out, ignore_errors=True)
        wall, cpu, peak, output, code = timed([str(EXE), "import", str(bank), "--out", str(out)])
        walls.append(wall)
        cpus.append(cpu)
        peaks.append(peak)
    figures["import_s"] = round(statistics.median(walls), 2)
    figures["import_cpu_s"] = round(statistics.median(cpus), 2)
    figures["import_max_rss_mb"] = round(max(peaks) / 1024, 1)
    figures["import_ok"] = code == 0
    written = sorted(p.name for p in out.glob(f"bank-{size}.*"))
    figures["source"] = written[0] if written else None
    figures["source_mb"] = round((out / written[0]).stat().st_size / 1e6, 1) if written else None
    figures["errors"] = [line for line in output.splitlines() if "error[QB" in line][:5]
    if written:
        wall, cpu, peak, output, code = timed([str(EXE), "build", str(out / written[0]), "--format", "moodle", "--out",
                                               str(out / "dist"), "--jobs", "1", "--quiet"])
        figures["build_ok"] = code == 0
        figures["build_s"] = round(wall, 2)
        if code:
            figures["build_errors"] = [line for line in output.splitlines() if "error[" in line][:5]
    return figures


def timed(command: list[str]) -> tuple[float, float, int, str, int]:
    """Wall seconds, CPU seconds, maximum RSS (KiB), output and exit code of one fresh process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, output, process.returncode


def summary(results: dict, path: Path) -> str:
    load = f"load {results['load_before'][0]:.1f} before, {results['load_after'][0]:.1f} after"
    lines = [f"Measured {results['date']} on {results['cpus']} CPUs ({load}), median of {results['repeat']}.", "",
             "| Moodle XML bank | file | import | CPU | peak memory (max RSS) | source written | builds |",
             "|---|---:|---:|---:|---:|---|---|"]
    notes = []
    for bank in results["banks"]:
        if bank["source"]:
            source = f"`{bank['source']}` ({bank['source_mb']} MB)"
            built = f"yes ({bank['build_s']:.1f} s)" if bank.get("build_ok") else "no"
        else:
            notes.append(f"{bank['questions']:,}: `{bank['errors'][0].split(': ', 1)[-1] if bank['errors'] else 'no output'}`")
            source, built = f"none, refused ({len(notes)})", "—"
        lines.append(f"| {bank['questions']:,} mixed questions | {bank['moodle_xml_mb']} MB | {bank['import_s']:.2f} s | "
                     f"{bank['import_cpu_s']:.2f} s | {bank['import_max_rss_mb']} MB | {source} | {built} |")
    lines += [""] + [f"({n}) {note}" for n, note in enumerate(notes, 1)] + ([""] if notes else [])
    lines += [f"From `bench/results/{path.name}`."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
