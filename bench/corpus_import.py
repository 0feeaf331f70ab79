"""Importing real LMS exports: ``.venv/bin/python bench/corpus_import.py [--corpus DIR] [--only TEXT]``.

Walks a folder of real exports (by default ``../shared/corpus/lms-exports`` beside the project; it
is not part of the project, and the script says so and stops when it is absent), laid out as
``<format>/<entry>`` where an entry is a file or an export folder, with a ``SOURCES.md`` whose
tables give each entry's question count in a ``# questions`` column. Each entry is imported with
``qti-builder import --allow-skipped --report json`` into a folder of its own, then every source it
wrote is built (``qti-builder build``, all targets). Printed, per system (the folder, and for QTI
1.2 and Canvas the producer that starts the entry's name): the entries that import and build,
the questions kept against those in the files, and what is lost and why (the codes of the
warnings on skipped questions, and the first error of an entry that does not import or build).

``--json FILE`` also writes every entry's figures. Not part of the tests (they take minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EXE = ROOT / ".venv" / "bin" / "qti-builder"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "lms-exports"
#: Folders whose entries are told apart by the producer named first in their file name.
BY_PRODUCER = {"qti12", "canvas"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--only", default="", help="entries whose path contains this text")
    parser.add_argument("--json", type=Path, help="write every entry's figures to this file")
    parser.add_argument("--keep", type=Path, help="keep the imported sources and builds under this folder")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}: nothing to measure")
        return 0
    os.environ.setdefault("QTI_BUILDER_SCHEMAS", str(ROOT.parent / "shared" / "schemas"))
    expected = questions_in_files(args.corpus / "SOURCES.md")
    rows = []
    work = Path(tempfile.mkdtemp(prefix="corpus-import-")) if args.keep is None else args.keep
    try:
        for entry in entries(args.corpus):
            name = entry.relative_to(args.corpus).as_posix()
            if args.only and args.only not in name:
                continue
            row = measure(entry, name, work / re.sub(r"[^\w.-]+", "_", name), expected.get(name))
            print(json.dumps(row, ensure_ascii=False), file=sys.stderr)
            rows.append(row)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def entries(corpus: Path) -> list[Path]:
    """Every export: each file or folder one level below a format folder."""
    return sorted(p for folder in corpus.iterdir() if folder.is_dir() for p in folder.iterdir())


def questions_in_files(sources: Path) -> dict[str, int]:
    """Each entry's question count, as SOURCES.md's ``# questions`` column gives it (its first number)."""
    counts: dict[str, int] = {}
    if not sources.exists():
        return counts
    column = None
    for line in sources.read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "# questions" in cells:
            column = cells.index("# questions")
            continue
        if column is None or not line.startswith("| `") or len(cells) <= column:
            continue
        named = re.match(r"`([^`]+)`", cells[0])
        if not named:
            continue
        name = named.group(1).rstrip("/")
        number = re.match(r"\d[\d,]*", cells[column])
        if number:
            counts[name] = int(number.group().replace(",", ""))
    return counts


def system(name: str) -> str:
    folder, _, rest = name.partition("/")
    if folder in BY_PRODUCER:
        return f"{folder}: {rest.split('_')[0]}"
    return folder


def measure(entry: Path, name: str, work: Path, expected: int | None) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out = work / "source"
    done = subprocess.run([str(EXE), "import", str(entry), "--out", str(out), "--allow-skipped", "--report", "json"],
                          capture_output=True, text=True)
    row: dict = {"entry": name, "system": system(name), "in_file": expected, "imported": False, "built": False,
                 "kept": 0, "skipped": {}, "lost": [], "error": None}
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        row["error"] = "import: " + (done.stderr.strip().splitlines() or ["no report"])[-1]
        return row
    row["imported"] = report["exit_code"] == 0
    row["kept"] = report["summary"]["questions"]
    skipped: Counter[str] = Counter()
    for quiz in report["quizzes"]:
        skipped.update(quiz["skipped"])
    row["skipped"] = dict(skipped)
    row["lost"] = sorted({f"{w['code']}: {why(w['message'])}" for w in report["warnings"] if "skipped" in w["message"]})
    if not row["imported"]:
        first = report["errors"][0] if report["errors"] else {"code": "", "message": "no source written"}
        row["error"] = f"import {first['code']}: {first['message'][:160]}"
        return row
    sources = sorted(p for p in out.iterdir() if p.suffix in (".md", ".yaml")) if out.exists() else []
    if not sources:
        row["error"] = "import wrote no source"
        row["imported"] = False
        return row
    build = subprocess.run([str(EXE), "build", *map(str, sources), "--out", str(work / "dist"), "--jobs", "1", "--quiet"],
                           capture_output=True, text=True)
    row["built"] = build.returncode == 0
    if not row["built"]:
        lines = [line for line in (build.stdout + build.stderr).splitlines() if "error" in line]
        row["error"] = "build: " + (lines[0] if lines else f"exit {build.returncode}")[:200]
    return row


def why(message: str) -> str:
    """A skipped question's warning without the question's name: what kind of loss it is."""
    message = re.sub(r"'[^']*'", "'…'", message)
    return message[:140]


def table(rows: list[dict]) -> str:
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["system"]].append(row)
    lines = ["| system | files that import and build | questions kept | what is lost and why |", "|---|---|---|---|"]
    totals = [0, 0, 0, 0]
    for name in sorted(groups):
        group = groups[name]
        good = [r for r in group if r["built"]]
        kept = sum(r["kept"] for r in good)
        known = sum(r["in_file"] or 0 for r in group)
        totals = [totals[0] + len(good), totals[1] + len(group), totals[2] + kept, totals[3] + known]
        lost: list[str] = []
        for row in group:
            short = row["entry"].split("/", 1)[1][:40]
            if row["error"]:
                lost.append(f"`{short}`: {row['error']}")
            elif row["skipped"]:
                kinds = ", ".join(f"{n} {k}" for k, n in sorted(row["skipped"].items()))
                lost.append(f"`{short}`: skipped {kinds}")
        lines.append(f"| {name} | {len(good)} of {len(group)} | {kept} of {known} | {'<br>'.join(lost) or '—'} |")
    lines.append(f"| **all** | **{totals[0]} of {totals[1]}** | **{totals[2]} of {totals[3]}** | |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
