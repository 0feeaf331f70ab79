"""``qti-builder import``: inputs -> importers -> source files (and their media) in one folder.

Everything is read and converted first; only when no input had an error are the sources and media
written, all of them or none (package.write_files: temporary files renamed into place). Existing
sources are never overwritten without ``--force``; a media file of the same name but other bytes
gets its content hash added to the name instead.
"""

# No ``from __future__ import annotations``: typer reads this command's signature (cli.py says why).

import gc
import re
from collections import Counter
from dataclasses import replace
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..command_options import ignore_codes
from ..diagnostics import Diagnostic, DiagnosticSink, Severity, SourceSpan, display_path
from . import FORMATS
from .safety import MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_INPUT_BYTES, MAX_TOTAL_BYTES, ImportLimits

# What an import runs (the importers, the model, the source writer) is imported when it runs:
# the command line defines this command, and prints its --help, without them.
if TYPE_CHECKING:
    from . import ImportedQuiz

MiB = 1024 * 1024

OUTPUT_EXISTS = "QB720"
#: The imported quiz would be written as a source that the readers refuse (a limit: its size...).
UNREADABLE = "QB721"


#: Exit code of an import that wrote its sources without some questions (``--allow-skipped``: 0).
SKIPPED_EXIT = 4


def import_command(
    inputs: Annotated[list[Path], typer.Argument(help="Files or folders to import: Canvas quiz or course exports and text2qti zips, "
                                                      "QTI 1.2 of Blackboard, D2L, Respondus and WebCT, "
                                                      "Moodle XML, QTI 2.1 packages (.zip or folder), QTI item files, "
                                                      "text2qti files, GIFT and Aiken files, quiz pages (.txt, .md).", metavar="INPUTS",
                                         show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the sources (media go to its media/ folder).", file_okay=False)] = Path("source"),
    format: Annotated[str, typer.Option("--format", "-f", help=f"Input format: auto, {', '.join(FORMATS)}.")] = "auto",
    force: Annotated[bool, typer.Option("--force", help="Overwrite sources that already exist.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too (a part lost or changed): nothing is written.")] = False,
    allow_skipped: Annotated[bool, typer.Option("--allow-skipped", help=f"Exit 0, not {SKIPPED_EXIT}, when questions were "
                                                                        "skipped (the sources are written either way).")] = False,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", metavar="<codes>",
                                                        help="Accept these warnings (QB711,QB712): not printed, not failing --strict.")] = None,
    report: Annotated[str, typer.Option("--report", help="How to report: text, or json (to stdout unless --report-file; qti-builder docs import#in-ci).")] = "text",
    report_file: Annotated[Optional[Path], typer.Option("--report-file", help="Write the --report json to this file instead of stdout.", dir_okay=False)] = None,
    max_input_mb: Annotated[float, typer.Option("--max-input-mb", min=0.001, help="Largest input file, in MiB.")] = MAX_INPUT_BYTES // MiB,
    max_entries: Annotated[int, typer.Option("--max-entries", min=1, help="Most files in a package (zip or folder).")] = MAX_ENTRIES,
    max_entry_mb: Annotated[float, typer.Option("--max-entry-mb", min=0.001, help="Largest file of a package, unpacked, in MiB.")] = MAX_ENTRY_BYTES // MiB,
    max_package_mb: Annotated[float, typer.Option("--max-package-mb", min=0.001, help="All files of a package, unpacked, in MiB.")] = MAX_TOTAL_BYTES // MiB,
    lang: Annotated[Optional[str], typer.Option("--lang", help="Language of the messages: en, or one with a catalog (ko, ja, zh). "
                                                               "Default: English, and an exam paper's own language for its messages.")] = None,
    quiz_id: Annotated[Optional[str], typer.Option("--id", metavar="<quiz-id>",
                                                   help="The id of the quiz imported (its source's id: and file name), instead of the one "
                                                        "the input gives; the inputs must hold one quiz.")] = None,
) -> None:
    """Import quizzes from Canvas, Blackboard, D2L, Respondus and WebCT exports (QTI 1.2), Moodle XML, QTI 2.1, text2qti, GIFT, Aiken or quiz pages into sources (one per quiz).

    Exits 0 when everything was imported, 1 on errors (nothing is written), 2 on usage errors, and
    4 when the sources were written without some questions (each named in a warning above; --allow-skipped: 0).
    """
    from ..i18n import counted, summary_words
    from ..model.common import IDENTIFIER_PATTERN
    from ..package import WriteError, write_files
    from ..report import ReportNotWritten, dumps, emit
    from . import import_path

    if format != "auto" and format not in FORMATS:
        raise typer.BadParameter(f"unknown format {format}; choose from auto, {', '.join(FORMATS)}", param_hint="--format")
    if report not in ("text", "json"):
        raise typer.BadParameter(f"unknown report {report}; choose text or json", param_hint="--report")
    if quiz_id is not None and not re.fullmatch(IDENTIFIER_PATTERN, quiz_id):
        raise typer.BadParameter(f"'{quiz_id}' is no quiz id: a letter or _, then letters, digits, _, . or -, "
                                 "at most 64 characters", param_hint="--id")
    if lang is not None:
        from ..messages import languages as catalogs

        if lang.split("-")[0].lower() not in ["en", *catalogs()]:
            raise typer.BadParameter(f"no messages in '{lang}'; choose from en, {', '.join(catalogs())}", param_hint="--lang")
    accepted = ignore_codes(ignore)
    say = _Say(to_stderr=report == "json" and report_file is None)
    limits = ImportLimits(int(max_input_mb * MiB), max_entries, int(max_entry_mb * MiB), int(max_package_mb * MiB))
    sink = DiagnosticSink()
    languages: dict[str, str] = {}
    imported: list[ImportedQuiz] = []
    # A bank is read into hundreds of thousands of objects that live until the end: the cycle
    # collector, walking them again and again, took a fifth of a large import (bench/README.md).
    # It is held off while the inputs are read and the sources written and read back, with one
    # collection after each input; reference counting frees all the rest as it always does.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for path in inputs:
            display = display_path(path)
            if not path.exists():
                sink.error("QB700", "no such file or folder", SourceSpan(display))
                continue
            sink.language = None
            imported += import_path(path, display, sink, format, limits)
            if lang or sink.language:
                # A paper read by the exam reader: its messages in its language, as build prints them.
                languages[display] = lang or sink.language or "en"
            gc.collect()
        if quiz_id is not None:
            imported = _with_id(imported, quiz_id, sink)
        targets: dict[str, Path] = {}
        files = plan_files(imported, out, force, sink, targets)
    finally:
        if collecting:
            gc.enable()
    sink.items = [d for d in sink.items if d.severity is Severity.ERROR or d.code not in accepted]
    if strict:
        sink.items = [Diagnostic(Severity.ERROR, d.code, f"{d.message} (a warning, failing because of --strict)", d.span, d.hint)
                      if d.severity is Severity.WARNING else d for d in sink.items]
    written: list[Path] = []
    if not sink.errors:
        try:
            write_files(files)
            written = [target for target, _ in files]
        except WriteError as exc:
            sink.error("QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                       hint="check that the output folder is writable and the disk has space; nothing was changed")
    _print(sink.sorted(), languages, lang)
    skipped = sum(sum(item.skipped.values()) for item in imported)
    # What was imported, in the messages' language: --lang, else an exam paper's own (every
    # input's, when they share one), else English.
    said_in = set(languages.values())
    language = lang or (said_in.pop() if len(said_in) == 1 and len(languages) == len(inputs) else None)
    words = summary_words(language)
    if sink.errors:
        code = 1
        typer.echo(words["failed"].format(errors=counted(words, "error", len(sink.errors)), scope="",
                                          written=words["nothing_written"]), err=True)
    else:
        code = SKIPPED_EXIT if skipped and not allow_skipped else 0
        for item in imported:
            for line in import_summary(item, language):
                say(line)
        for target in written:
            say(words["wrote"].format(path=display_path(target)))
        if code == SKIPPED_EXIT:
            typer.echo(words["not_imported"].format(questions=counted(words, "question", skipped), code=SKIPPED_EXIT), err=True)
    if report == "json":
        try:
            emit(dumps(import_report(imported, targets, written, sink.sorted(), code)), report_file)
        except ReportNotWritten as exc:
            _print([exc.diagnostic])
            raise typer.Exit(1) from None
    if code:
        raise typer.Exit(code)


def _with_id(imported: list["ImportedQuiz"], quiz_id: str, sink: DiagnosticSink) -> list["ImportedQuiz"]:
    """``import --id``: the one quiz imported, with that id (QB725 when the inputs hold several)."""
    if len(imported) > 1:
        sink.error("QB725", f"--id gives one quiz its id, and the inputs hold {len(imported)} quizzes",
                   SourceSpan(imported[1].origin), hint="import each input on its own with its --id, or leave --id out")
        return imported
    from .base import LOST, keep_category_idnumbers

    # A Moodle course's category ID numbers stay as they were: those the build made from the old
    # quiz id are kept in the source as they are, now that it would make others of the new one.
    renamed = []
    for item in imported:
        # (the quiz's own category takes the new id: the quiz is renamed, as asked)
        quiz, dropped = keep_category_idnumbers(item.quiz.model_copy(update={"id": quiz_id, "moodle_idnumber": None}),
                                                item.category_idnumbers)
        for section_id, ident in dropped:
            sink.warning(LOST, f"section '{section_id}': its category's ID number '{ident}' is the new quiz id's; a build "
                                  "gives it one made from its id", SourceSpan(item.origin))
        renamed.append(replace(item, quiz=quiz, source_text=_with_front_id(item.source_text, quiz_id)))
    return renamed


def _with_front_id(text: str | None, quiz_id: str) -> str | None:
    """A source written as it is takes its id from its file's name, or from the ``id:`` its front
    matter gives: that line then says the new id."""
    if text is None or not text.startswith("---\n"):
        return text
    head, sep, rest = text[4:].partition("\n---")
    return "---\n" + re.sub(r"^id:.*$", f"id: {quiz_id}", head, count=1, flags=re.M) + sep + rest


class _Say:
    """The summary lines: on stdout, or on stderr when the JSON report takes stdout."""

    def __init__(self, to_stderr: bool) -> None:
        self.to_stderr = to_stderr

    def __call__(self, text: str) -> None:
        typer.echo(text, err=self.to_stderr)


def import_report(imported: list["ImportedQuiz"], targets: dict[str, Path], written: list[Path],
                  diagnostics: list[Diagnostic], code: int) -> dict[str, Any]:
    """The machine-readable report of one import (its shape: schemas/import-report.schema.json)."""
    from .. import __version__
    from ..report import REPORT_VERSION, diagnostic

    quizzes: list[dict[str, Any]] = []
    for item in imported:
        types: Counter[str] = Counter(q.type for q in item.quiz.iter_questions())
        target = targets.get(item.quiz.id)
        quizzes.append({
            "input": item.origin, "id": item.quiz.id, "title": item.quiz.title,
            "source": display_path(target) if target is not None and target in written else None,
            "questions": sum(types.values()), "question_types": dict(sorted(types.items())),
            "changed": dict(sorted(item.changed.items())), "skipped": dict(sorted(item.skipped.items())),
        })
    return {
        "report_version": REPORT_VERSION,
        "tool": {"name": "qti-builder", "version": __version__},
        "command": "import",
        "ok": code == 0,
        "exit_code": code,
        "summary": {
            "quizzes": len(quizzes),
            "questions": sum(q["questions"] for q in quizzes),
            "changed": sum(sum(q["changed"].values()) for q in quizzes),
            "skipped": sum(sum(q["skipped"].values()) for q in quizzes),
            "written": len(written),
            "errors": sum(1 for d in diagnostics if d.severity is Severity.ERROR),
            "warnings": sum(1 for d in diagnostics if d.severity is Severity.WARNING),
        },
        "quizzes": quizzes,
        "written": [display_path(path) for path in written],
        "errors": [diagnostic(d) for d in diagnostics if d.severity is Severity.ERROR],
        "warnings": [diagnostic(d) for d in diagnostics if d.severity is Severity.WARNING],
    }


def plan_files(imported: list["ImportedQuiz"], out: Path, force: bool, sink: DiagnosticSink,
               targets: dict[str, Path] | None = None) -> list[tuple[Path, bytes]]:
    """The files to write: each quiz's source and its media, with names that collide with nothing
    (``targets`` gets each quiz's source path by its id)."""
    from ..media import safe_name
    from ..writers.markdown_source import SourceText, write_source
    from .base import LOST

    files: list[tuple[Path, bytes]] = []
    planned: dict[Path, bytes] = {}
    ids: set[str] = set()
    #: Said only when the files will be written: after an error nothing is, YAML or not.
    as_yaml: list[tuple[str, SourceSpan]] = []
    for item in imported:
        quiz = item.quiz
        if quiz.id in ids:
            sink.error(OUTPUT_EXISTS, f"two inputs give the quiz id '{quiz.id}'", SourceSpan(item.origin),
                       hint="import them into different folders, or one at a time and change the id in between")
            continue
        ids.add(quiz.id)
        if item.source_text is not None:
            # An exam paper, read by the dialect's reader: written as it is (its name gives its id).
            source = SourceText(item.source_text, ".md")
        else:
            source = write_source(quiz)
        text = source.text
        if source.refused:
            problem = source.refused[0]
            forms = (f"as Markdown, {source.reason}; as YAML, " if source.reason else
                     "as Markdown (its smaller form: the YAML is larger still), " if source.suffix == ".md" else "as YAML, ")
            sink.error(UNREADABLE, f"quiz '{quiz.id}' cannot be written as a source the build reads: {forms}{problem.message}",
                       SourceSpan(item.origin),
                       # Not the reader's own hint: import has no build limits to raise, and a
                       # source that builds only with a raised limit is not one to write.
                       hint="import it in parts (one quiz per category or section), so that each source is within the "
                            "build's limits (qti-builder docs source-format#limits)")
            continue
        if source.reason:
            as_yaml.append((f"quiz '{quiz.id}' is written as YAML: {source.reason}", SourceSpan(item.origin)))
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
        _refuse_existing(out, quiz.id, source.suffix, force, item.origin, sink)
        files.append((target, text.encode("utf-8")))
        if targets is not None:
            targets[quiz.id] = target
    if not sink.errors:
        for message, span in as_yaml:
            sink.warning(LOST, message, span,
                         hint="YAML holds every field of the model; see qti-builder docs import#the-source-written")
    return files


def _refuse_existing(out: Path, quiz_id: str, suffix: str, force: bool, origin: str, sink: DiagnosticSink) -> None:
    """QB720 for each source of the quiz already in ``out`` (the one to write, or the other form)."""
    target = out / f"{quiz_id}{suffix}"
    others = [out / f"{quiz_id}{other}" for other in (".md", ".yaml") if other != suffix]
    for existing in [target, *others]:
        if existing.exists() and not force:
            sink.error(OUTPUT_EXISTS, f"{display_path(existing)} already exists", SourceSpan(origin),
                       hint="pass --force to overwrite it, or import into another folder with --out")


def import_summary(item: "ImportedQuiz", language: str | None = None) -> list[str]:
    """What one input gave, by type: the questions imported, then (when there are any) those
    changed on the way and those skipped, which the warnings above name one by one; in
    ``language`` (i18n.py SUMMARY), English by default."""
    from ..i18n import counted, summary_words

    words = summary_words(language)
    imported: Counter[str] = Counter(q.type for q in item.quiz.iter_questions())
    lines = [words["imported"].format(questions=counted(words, "question", sum(imported.values())), origin=item.origin,
                                      quiz=item.quiz.id, kinds=_by_type(imported, language))]
    parts = [words[what].format(n=sum(counts.values()), kinds=_by_type(counts, language))
             for what, counts in (("changed", item.changed), ("skipped", item.skipped)) if counts]
    if parts:
        lines.append(words["see_warnings"].format(parts=words["list"].join(parts)))
    return lines


def _by_type(counts: Counter[str], language: str | None = None) -> str:
    """``3 single choice, 1 essay``: model types in the docs' order, then the input's own names."""
    from ..i18n import summary_words
    from ..summary import TYPE_WORDS, kind_name

    words = summary_words(language)
    known = [kind for kind in TYPE_WORDS if counts[kind]]
    others = sorted(kind for kind in counts if kind not in TYPE_WORDS and counts[kind])
    return words["list"].join(words["kind_count"].format(n=counts[kind], kind=kind_name(kind, language) if kind in TYPE_WORDS else kind)
                              for kind in known + others)


def _print(diagnostics: list[Diagnostic], languages: dict[str, str] | None = None, lang: str | None = None) -> None:
    """Grouped per input; an input read by the exam reader in its quiz's language, as build prints it.
    With --lang, every message in it: a package's too, whose place names a file inside the package
    ('export.zip:q2/q2.xml.qti'), not the input it is keyed by in ``languages``."""
    for path, group in groupby(diagnostics, key=lambda d: d.span.path if d.span else ""):
        for diagnostic in group:
            typer.echo(diagnostic.render((languages or {}).get(path, lang)), err=True)
