"""Real exam papers through the pasted-text route: ``.venv/bin/python bench/corpus_papers.py [FOLDER]``
(bench/README.md, "Real exam papers").

FOLDER holds real exam papers and quiz pages as teachers paste them, one folder per language
(``ko/``, ``ja/``, ...); by default the shared corpus folder next to the repository, and the script
says so and exits 0 when there is none (the papers are never copied into the project).

Each paper is imported as a quiz page (``qti-builder import --format quizpage``) into a scratch
folder, and what import wrote is checked with ``qti-builder check --outline``. Each is classed:

- ``builds``: import and check exit 0; its outline is printed, to hold against the paper by eye
  (a paper read wrong with exit 0 is only found that way);
- ``builds, questions skipped``: import wrote the source without some questions, each named in a
  located warning (exit 4), and the rest checks;
- ``fails at a line``: import or check fails with at least one error located at a line;
- ``nothing read``: import read no question at all (QB704, at the file's first line);
- ``fails without a line``: a failure none of whose errors names a line (a finding to fix);
- ``crash``: exit 3, an internal error (a finding to fix).

Prints one line per paper, the outlines of those that build with ``--outlines``, and the table per
language at the end. Not part of the tests.

With ``--routes``, each paper is also asked which reader import gives it (the exam reader, or the
quiz page reader for a web page's forms), and for the exam reader's papers whether ``import``
reports the very errors ``check`` reports of the same paper written as a source (its title and
language as front matter): the same codes at the same lines and columns of the paper.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from typer.testing import CliRunner

from qti_builder.cli import app

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "exam-papers"
LANGUAGES = ("ko", "ja", "zh", "en", "de", "fr", "es", "pt", "it")
CLASSES = ("builds", "builds, questions skipped", "fails at a line", "nothing read", "fails without a line", "crash")
LOCATED = re.compile(r"^\S+:\d+:\d+: error\[QB\d+\]", re.M)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def classify(paper: Path, scratch: Path) -> tuple[str, str]:
    """The class of one paper, and what to show of it (its outline, or its first errors)."""
    out = scratch / "source"
    shutil.rmtree(out, ignore_errors=True)
    code, said = run("import", str(paper), "--format", "quizpage", "--out", str(out), "--force")
    if code == 3:
        return "crash", said[-2000:]
    if code not in (0, 4):
        if "error[QB704]" in said and len(LOCATED.findall(said)) == 1:
            return "nothing read", _errors(said)
        return ("fails at a line" if LOCATED.search(said) else "fails without a line"), _errors(said)
    sources = sorted(out.glob("*.md")) + sorted(out.glob("*.yaml"))
    if not sources:
        return "fails without a line", said[-1000:]
    check, shown = run("check", *map(str, sources), "--outline", "-j", "1", "--lang", "en")
    if check == 3:
        return "crash", shown[-2000:]
    if check != 0:
        return ("fails at a line" if LOCATED.search(shown) else "fails without a line"), _errors(shown)
    return ("builds" if code == 0 else "builds, questions skipped"), shown


_AT = re.compile(r"^\S+?:(\d+):(\d+): error\[(QB\d+)\]", re.M)


def routes(paper: Path, scratch: Path) -> tuple[str, bool | None]:
    """Which reader import gives the paper, and for the exam reader, whether import and check of
    the same paper as a source report the same errors at the same places of the paper."""
    from qti_builder.importers.quizpage.blocks import FRONT_MATTER
    from qti_builder.importers.quizpage.paper import page_form, paper_language, paper_source, paper_title

    text = paper.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n")
    if page_form(text, paper.suffix == ".md"):
        return "quiz page", None
    _, said = run("import", str(paper), "--format", "quizpage", "--out", str(scratch / "routes"), "--force")
    lines = text.split("\n")
    front = FRONT_MATTER.match(text) is not None  # already a source: read as it is
    title = paper_title(lines) if not front else None
    source = scratch / "routes.md"
    source.write_text(text if front else paper_source(
        title[0] if title else paper.stem, paper_language(text, lines), lines[title[1]:] if title else lines), encoding="utf-8")
    shift = 0 if front else (title[1] if title else 0) - 4
    _, checked = run("check", str(source), "--lang", "en")
    moved = sorted((int(a) + shift if a != "1" or shift == 0 else 1, int(b), c) for a, b, c in _AT.findall(checked))
    return "exam reader", moved == sorted((int(a), int(b), c) for a, b, c in _AT.findall(said))


def _errors(text: str, most: int = 3) -> str:
    lines = [line for line in text.splitlines() if "error[" in line]
    return "\n".join(lines[:most]) + (f"\n(+{len(lines) - most} more)" if len(lines) > most else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path(os.environ.get("QTI_BUILDER_CORPUS", DEFAULT)))
    parser.add_argument("--outlines", action="store_true", help="print the outline of every paper that builds")
    parser.add_argument("--only", help="only the papers whose path contains this")
    parser.add_argument("--routes", action="store_true", help="also: which reader import gives each paper, and whether "
                                                              "import reports check's errors at the same places")
    args = parser.parse_args()
    if not args.folder.is_dir():
        print(f"no corpus at {args.folder}: nothing to do (pass the folder of papers as an argument)")
        return 0
    table: dict[str, Counter[str]] = defaultdict(Counter)
    readers: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        for language in LANGUAGES:
            for paper in sorted((args.folder / language).glob("*")):
                if paper.suffix not in (".md", ".txt") or (args.only and args.only not in str(paper)):
                    continue
                kind, shown = classify(paper, scratch)
                table[language][kind] += 1
                route = ""
                if args.routes:
                    reader, same = routes(paper, scratch)
                    readers[reader] += 1
                    readers["same errors as check" if same else "other errors than check"] += same is not None
                    route = f" ({reader}{'' if same is None else ', same errors as check' if same else ', OTHER ERRORS THAN CHECK'})"
                print(f"{language}/{paper.name}: {kind}{route}")
                if kind != "builds" or args.outlines:
                    print("    " + shown.replace("\n", "\n    ").rstrip())
    print()
    print("| language | " + " | ".join(CLASSES) + " |")
    print("|---|" + "---|" * len(CLASSES))
    for language in LANGUAGES:
        print(f"| {language} | " + " | ".join(str(table[language][c]) for c in CLASSES) + " |")
    print("| **all** | " + " | ".join(str(sum(t[c] for t in table.values())) for c in CLASSES) + " |")
    if args.routes:
        print("\n" + ", ".join(f"{name}: {count}" for name, count in sorted(readers.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
