"""``qti-builder import``: inputs -> importers -> source files (and their media) in one folder.

Everything is read and converted first; only when no input had an error are the sources and media
written, all of them or none (package.write_files: temporary files renamed into place). Existing
sources are never overwritten without ``--force``; a media file of the same name but other bytes
gets its content hash added to the name instead.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from pathlib import Path
from typing import Annotated

import typer

from ..diagnostics import Diagnostic, DiagnosticSink, SourceSpan, display_path
from ..media import safe_name
from ..package import WriteError, write_files
from ..summary import TYPE_WORDS
from ..writers.markdown_source import write_source
from . import FORMATS, ImportedQuiz, import_path
from .base import LOST
from .safety import MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_INPUT_BYTES, MAX_TOTAL_BYTES, ImportLimits

MiB = 1024 * 1024

OUTPUT_EXISTS = "QB720"
#: The imported quiz would be written as a source that the readers refuse (a limit: its size...).
UNREADABLE = "QB721"


def import_command(
    inputs: Annotated[list[Path], typer.Argument(help="Files or folders to import: Canvas quiz or course exports and text2qti zips, "
                                                      "QTI 1.2 of Blackboard, D2L, Respondus and WebCT, "
                                                      "Moodle XML, QTI 2.1 packages (.zip or folder), QTI item files, "
                                                      "text2qti files, GIFT and Aiken files, quiz pages (.txt, .md).", metavar="INPUTS",
                                         show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the sources (media go to its media/ folder).", file_okay=False)] = Path("source"),
    format: Annotated[str, typer.Option("--format", "-f", help=f"Input format: auto, {', '.join(FORMATS)}.")] = "auto",
    force: Annotated[bool, typer.Option("--force", help="Overwrite sources that already exist.")] = False,
    max_input_mb: Annotated[float, typer.Option("--max-input-mb", min=0.001, help="Largest input file, in MiB.")] = MAX_INPUT_BYTES // MiB,
    max_entries: Annotated[int, typer.Option("--max-entries", min=1, help="Most files in a package (zip or folder).")] = MAX_ENTRIES,
    max_entry_mb: Annotated[float, typer.Option("--max-entry-mb", min=0.001, help="Largest file of a package, unpacked, in MiB.")] = MAX_ENTRY_BYTES // MiB,
    max_package_mb: Annotated[float, typer.Option("--max-package-mb", min=0.001, help="All files of a package, unpacked, in MiB.")] = MAX_TOTAL_BYTES // MiB,
) -> None:
    """Import quizzes from Canvas, Blackboard, D2L, Respondus and WebCT exports (QTI 1.2), Moodle XML, QTI 2.1, text2qti, GIFT, Aiken or quiz pages into sources (one per quiz)."""
    if format != "auto" and format not in FORMATS:
        raise typer.BadParameter(f"unknown format {format}; choose from auto, {', '.join(FORMATS)}", param_hint="--format")
    limits = ImportLimits(int(max_input_mb * MiB), max_entries, int(max_entry_mb * MiB), int(max_package_mb * MiB))
    sink = DiagnosticSink()
    imported: list[ImportedQuiz] = []
    for path in inputs:
        display = display_path(path)
        if not path.exists():
            sink.error("QB700", "no such file or folder", SourceSpan(display))
            continue
        imported += import_path(path, display, sink, format, limits)
    files = plan_files(imported, out, force, sink)
    if sink.errors:
        _print(sink.sorted())
        typer.echo(f"failed: {len(sink.errors)} error(s); nothing was written", err=True)
        raise typer.Exit(1)
    try:
        write_files(files)
    except WriteError as exc:
        sink.error("QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                   hint="check that the output folder is writable and the disk has space; nothing was changed")
        _print(sink.sorted())
        raise typer.Exit(1) from None
    _print(sink.sorted())
    for item in imported:
        for line in import_summary(item):
            typer.echo(line)
    for target, _ in files:
        typer.echo(f"wrote {display_path(target)}")


def plan_files(imported: list[ImportedQuiz], out: Path, force: bool, sink: DiagnosticSink) -> list[tuple[Path, bytes]]:
    """The files to write: each quiz's source and its media, with names that collide with nothing."""
    files: list[tuple[Path, bytes]] = []
    planned: dict[Path, bytes] = {}
    ids: set[str] = set()
    for item in imported:
        quiz = item.quiz
        if quiz.id in ids:
            sink.error(OUTPUT_EXISTS, f"two inputs give the quiz id '{quiz.id}'", SourceSpan(item.origin),
                       hint="import them into different folders, or one at a time and change the id in between")
            continue
        ids.add(quiz.id)
        source = write_source(quiz)
        text = source.text
        if source.refused:
            problem = source.refused[0]
            sink.error(UNREADABLE, f"quiz '{quiz.id}' cannot be written as a source the build reads: "
                                   + (f"as Markdown, {source.reason}; " if source.reason else "") + f"as YAML, {problem.message}",
                       SourceSpan(item.origin),
                       # Not the reader's own hint: import has no build limits to raise, and a
                       # source that builds only with a raised limit is not one to write.
                       hint="import it in parts (one quiz per category or section), so that each source is within the "
                            "build's limits (docs/source-format.md#limits)")
            continue
        if source.reason:
            sink.warning(LOST, f"quiz '{quiz.id}' is written as YAML: {source.reason}", SourceSpan(item.origin),
                         hint="YAML holds every field of the model; see docs/import.md")
        for ref, data in sorted(item.media.items()):
            target = out / ref
            if (target.exists() and target.read_bytes() != data) or (target in planned and planned[target] != data):
                new_ref = f"media/{safe_name(Path(ref).name, data)}"
                text = text.replace(f"]({ref}", f"]({new_ref}").replace(f'"{ref}"', f'"{new_ref}"')
                target = out / new_ref
            if target not in planned and not (target.exists() and target.read_bytes() == data):
                planned[target] = data
                files.append((target, data))
        target = out / f"{quiz.id}{source.suffix}"
        others = [out / f"{quiz.id}{suffix}" for suffix in (".md", ".yaml") if suffix != source.suffix]
        for existing in [target, *others]:
            if existing.exists() and not force:
                sink.error(OUTPUT_EXISTS, f"{display_path(existing)} already exists", SourceSpan(item.origin),
                           hint="pass --force to overwrite it, or import into another folder with --out")
        files.append((target, text.encode("utf-8")))
    return files


def import_summary(item: ImportedQuiz) -> list[str]:
    """What one input gave, by type: the questions imported, then (when there are any) those
    changed on the way and those skipped, which the warnings above name one by one."""
    imported: Counter[str] = Counter(q.type for q in item.quiz.iter_questions())
    lines = [f"imported {sum(imported.values())} question(s) from {item.origin} as quiz '{item.quiz.id}': {_by_type(imported)}"]
    parts = [f"{sum(counts.values())} {what} ({_by_type(counts)})" for what, counts in (("changed", item.changed), ("skipped", item.skipped))
             if counts]
    if parts:
        lines.append(f"  {', '.join(parts)}; see the warnings above")
    return lines


def _by_type(counts: Counter[str]) -> str:
    """``3 single choice, 1 essay``: model types in the docs' order, then the input's own names."""
    known = [kind for kind in TYPE_WORDS if counts[kind]]
    others = sorted(kind for kind in counts if kind not in TYPE_WORDS and counts[kind])
    return ", ".join(f"{counts[kind]} {TYPE_WORDS.get(kind, kind)}" for kind in known + others)


def _print(diagnostics: list[Diagnostic]) -> None:
    for _, group in groupby(diagnostics, key=lambda d: d.span.path if d.span else ""):
        for diagnostic in group:
            typer.echo(diagnostic.render(), err=True)
