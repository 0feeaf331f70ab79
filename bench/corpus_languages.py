"""The language import gives each real exam paper, against its folder:
``.venv/bin/python bench/corpus_languages.py [FOLDER]`` (bench/README.md, "Real exam papers: their language").

FOLDER holds real exam papers and quiz pages, one folder per language (``ko/``, ``ja/``, ...); by
default the shared corpus folder next to the repository, and the script says so and exits 0 when
there is none (the papers are never copied into the project).

Each paper is imported as a quiz page (``qti-builder import --format quizpage``) into a scratch
folder, and the ``language:`` of the source import wrote is compared with the paper's folder. A
paper import refuses writes no source: its language is then the one the importer reads it in (the
language of its messages), marked ``(refused)``. Prints one line per paper and the table per
language: right, wrong. Not part of the tests.
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
WRITTEN = re.compile(r"^language: *(\S+)", re.M)


def imported_language(paper: Path, scratch: Path) -> tuple[str, bool]:
    """The language of the source import writes of the paper, and whether it wrote one."""
    out = scratch / "source"
    shutil.rmtree(out, ignore_errors=True)
    CliRunner().invoke(app, ["import", str(paper), "--format", "quizpage", "--out", str(out), "--force"])
    for source in sorted(out.glob("*.md")) + sorted(out.glob("*.yaml")):
        found = WRITTEN.search(source.read_text(encoding="utf-8"))
        if found:
            return found.group(1), True
    from qti_builder.importers.quizpage.paper import paper_language

    text = paper.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n")
    return paper_language(text, text.split("\n")), False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path(os.environ.get("QTI_BUILDER_CORPUS", DEFAULT)))
    args = parser.parse_args()
    if not args.folder.is_dir():
        print(f"no corpus at {args.folder}: nothing to do (pass the folder of papers as an argument)")
        return 0
    table: dict[str, Counter[str]] = defaultdict(Counter)
    with tempfile.TemporaryDirectory() as folder:
        for language in LANGUAGES:
            for paper in sorted((args.folder / language).glob("*")):
                if paper.suffix not in (".md", ".txt"):
                    continue
                guessed, written = imported_language(paper, Path(folder))
                table[language]["right" if guessed == language else "wrong"] += 1
                print(f"{language}/{paper.name}: {guessed}{'' if written else ' (refused)'}"
                      f"{'' if guessed == language else '  WRONG'}")
    print()
    print("| language | right | wrong |")
    print("|---|---|---|")
    for language in LANGUAGES:
        print(f"| {language} | {table[language]['right']} | {table[language]['wrong']} |")
    print(f"| **all** | {sum(t['right'] for t in table.values())} | {sum(t['wrong'] for t in table.values())} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
