"""The command line. Thin: options -> pipeline -> printed diagnostics -> exit code.

Exit codes: 0 success; 1 problems in the sources or the generated documents (printed as
``file:line:col: severity[code]: message``); 2 usage errors; 3 an internal error (a bug).
"""

# No ``from __future__ import annotations`` here (nor in importers/command.py): typer builds every
# command from its signature at each start, and evaluates string annotations twice per parameter
# (``inspect.signature(eval_str=True)``, then ``get_type_hints``); evaluated once as the module
# loads they cost a tenth of that (bench/README.md, issue 34's thirteenth session). Names imported
# for type checkers only are quoted.

import copy
import json
import signal
import sys
import traceback
from itertools import groupby
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from . import __version__
from .command_options import ignore_codes
from .console import Ui
from .diagnostics import BuildFailed, Diagnostic, DiagnosticSink, Severity, display_path
from .importers.command import import_command
from .profiles import PROFILES
from .limits import MAX_SETS, MAX_SOURCE_BYTES, MAX_YAML_ALIAS_VALUES, MAX_YAML_DEPTH, YAML_DEPTH_CEILING, Limits, MiB
from .writers import DEFAULT_FORMATS, WRITERS

# What a command runs is imported when it runs: the pipeline, pydantic's model, lxml and Jinja
# cost a third of a second, which --version, --help and the commands that need none of them
# (explain, docs, init...) do not pay (tests/test_startup.py; bench/README.md).
if TYPE_CHECKING:
    from .results import BuildOptions, BuildResult

#: Where every --help points for the source format: the docs ship with the tool (``qti-builder docs``).
SOURCE_FORMAT_DOC = "How to write a quiz source: qti-builder docs source-format (every page: qti-builder docs)."


def examples(*lines: str) -> str:
    """A command's --help epilog: a few command lines (kept as written, ``\b``) and the docs."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines) + f"\n\n{SOURCE_FORMAT_DOC}"


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help, as click writes it. Typer's rich help (0.29) prints a type for every option,
    # flags included: "--strict <bool>" invites "--strict true", and the "true" is then taken for
    # a source path. The plain help writes a type for options that take a value only.
    rich_markup_mode=None,
    help="Build Canvas packages, IMS QTI 2.1 packages and Moodle XML from quiz sources, validated against the official schemas.",
    epilog=examples(
        "qti-builder init              # a starter project in this folder",
        "qti-builder check --verbose   # what each question was read as",
        "qti-builder build             # source/ -> dist/",
    ),
)

#: Values that a user who reads a flag as an option with a value puts after it ("--strict true").
_FLAG_VALUES = {"true", "false", "yes", "no", "on", "off", "1", "0"}


def _existing(paths: list[Path] | None) -> list[Path] | None:
    """The source paths must exist; a missing "true" after a flag gets the reason; ``-`` is the
    standard input (read as Markdown)."""
    from .readers import STDIN

    paths = [STDIN if str(path) == "-" else path for path in paths] if paths else paths
    for path in paths or []:
        if not path.exists():
            hint = "; flags such as --strict take no value" if str(path).lower() in _FLAG_VALUES else ""
            raise typer.BadParameter(f"path '{path}' does not exist{hint}", param_hint="'SOURCES'")
    return paths


Sources = Annotated[
    Optional[list[Path]],
    typer.Argument(help="Quiz sources (.md, .yaml) or folders of them; - reads Markdown from stdin. Default: source/", metavar="SOURCES",
                   callback=_existing, show_default=False),
]
Formats = Annotated[str, typer.Option("--format", "-f", help=f"Targets, comma-separated: {', '.join(WRITERS)} (default: {','.join(DEFAULT_FORMATS)}).")]
Templates = Annotated[
    Optional[Path],
    typer.Option(help="Folder of templates that override the built-in ones (same relative paths).", exists=True, file_okay=False),
]
Schemas = Annotated[
    Optional[Path],
    typer.Option(help="Folder with the official XSDs (relative to this folder, or absolute). Default: $QTI_BUILDER_SCHEMAS, "
                      "then the download cache (qti-builder schemas fetch).", file_okay=False),
]
Strict = Annotated[bool, typer.Option("--strict/--no-strict", help="Fail on warnings too, and on what an output loses in its LMS "
                                                       "(each loss build counts); --ignore accepts them by code.")]
MaxMedia = Annotated[float, typer.Option("--max-media-mb", min=0.001, help="Largest media file a source may reference, in MiB.")]
MaxSource = Annotated[float, typer.Option("--max-source-mb", min=0.001, help="Largest source file, in MiB.")]
MaxAliasValues = Annotated[int, typer.Option("--max-yaml-alias-values", min=0,
                                             help="Values that YAML aliases (*name) may repeat in one source.")]
MaxDepth = Annotated[int, typer.Option("--max-yaml-depth", min=1, max=YAML_DEPTH_CEILING, help="Levels of nesting a YAML source may have.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=0, help="Processes that build (0: one per CPU; 1: this one only). The output is the same.")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Build every quiz afresh: neither take unchanged quizzes from the "
                                                          "build cache nor keep them in it ($QTI_BUILDER_CACHE_DIR, else the user's cache folder).")]
ReportFormat = Annotated[Optional[list[str]], typer.Option(
    "--report", metavar="<format[=file]>",
    help="How to report: text; json, github (workflow annotations) or junit (JUnit XML), to stdout, or to a file "
         "with =FILE or --report-file; repeat it for several (--report github --report json=dist/report.json; "
         "qti-builder docs ci).")]
ReportFile = Annotated[Optional[Path], typer.Option("--report-file", help="Write the --report to this file instead of stdout.", dir_okay=False)]
Ignore = Annotated[Optional[list[str]], typer.Option("--ignore", metavar="<codes>",
                                                     help="Accept these warnings and losses (QB601,QB165): not printed, not failing --strict.")]
QtiVariants = Annotated[Optional[int], typer.Option(
    "--qti-variants", metavar="<n>", min=0, max=MAX_SETS,
    help="QTI 2.1: write each calculated question as N fixed items (its first N sets) in a section that draws one, "
         "for players that run no item templates; 0: item templates. Overrides the quiz setting qti_variants.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print errors only.")]
Lang = Annotated[Optional[str], typer.Option(
    "--lang", help="Language of the messages: en, or one with a catalog (ko, ja, zh). Default: each quiz's language.")]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Also list every question (source line, id, type) and the timings.")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"qti-builder {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    _project_defaults(ctx)


#: The commands that take settings from the project's settings file (qti-builder docs ci#project-settings).
PROJECT_COMMANDS = ("build", "check", "preview", "serve", "diff")


def _project_defaults(ctx: typer.Context) -> None:
    """The settings of ``qti-builder.toml`` or ``pyproject.toml``'s ``[tool.qti-builder]`` as the
    defaults of the command's options: a flag on the command line wins. A mistake in the file is
    located (QB230, QB233) and stops the command with exit 2, as a wrong flag would."""
    if ctx.invoked_subcommand not in PROJECT_COMMANDS or "--help" in sys.argv[1:]:
        return
    from .project_file import find_project

    found = find_project()
    if found is None:  # most commands: no settings file, and no pydantic imported to say so
        return
    from .project import ProjectError, load_project

    try:
        defaults = load_project(found).options()
    except ProjectError as exc:
        from .plurals import plural

        asked = _asked_language(sys.argv[1:])
        _print(exc.diagnostics, languages=lambda _: asked)
        typer.echo(f"failed: {plural(len(exc.diagnostics), 'error')} in the settings file; nothing was done", err=True)
        raise typer.Exit(2) from None
    if defaults:
        ctx.default_map = {**defaults, **(ctx.default_map or {})}


def _asked_language(arguments: list[str]) -> str | None:
    """The ``--lang`` of the command line: the settings file is read before the command's own
    options are (its settings are their defaults), so its mistakes are printed in the language
    asked for by reading the words typed."""
    for k, word in enumerate(arguments):
        if word == "--lang" and k + 1 < len(arguments):
            return arguments[k + 1]
        if word.startswith("--lang="):
            return word.removeprefix("--lang=")
    return None


@app.command("init", epilog=examples(
    "qti-builder init my-quizzes                # a new project in a new folder",
    "qti-builder init --language ko             # here, with a Korean starter quiz",
    "qti-builder init --install 'qti-builder @ git+https://github.com/OWNER/qti-builder@v0.1.0'",
))
def init_command(
    folder: Annotated[Path, typer.Argument(help="Folder of the project, created if missing; an existing repository is joined. "
                                                "Default: this one.", metavar="DIR", file_okay=False, show_default=False)] = Path("."),
    language: Annotated[str, typer.Option("--language", "-l", help="Language of the starter quiz: en or ko.")] = "en",
    install: Annotated[Optional[str], typer.Option("--install", metavar="<spec>",
                                                   help="What the CI workflow installs with pip: a pinned release, a Git URL or a "
                                                        "wheel's path. Default: the Git commit or archive URL this "
                                                        "qti-builder was installed from, or this version when it came "
                                                        "from a package index; from a local folder, init says what to put there.")] = None,
) -> None:
    """Start a project, or join an existing repository: a quiz in source/ whose every output keeps all of it,
    dist/ in .gitignore and a CI workflow. Overwrites nothing: files that exist are skipped, .gitignore gets
    the lines it lacks."""
    from .package import WriteError
    from .starter import QUIZZES, default_install, install_advice, next_steps, plan, report, write

    if language not in QUIZZES:
        raise typer.BadParameter(f"no starter quiz in '{language}'; choose from {', '.join(QUIZZES)}", param_hint="--language")
    spec = default_install() if install is None else install.strip()
    if spec is not None and (not spec or any(c in spec for c in "\"\n\r")):
        raise typer.BadParameter("give what pip installs, such as qti-builder==0.1.0 or "
                                 "'qti-builder @ git+https://github.com/OWNER/qti-builder@v0.1.0' (no quotes inside)",
                                 param_hint="--install")
    if folder.exists() and not folder.is_dir():
        raise typer.BadParameter(f"{display_path(folder)} is a file", param_hint="'DIR'")
    todo = plan(folder, language, spec)
    try:
        write(todo)
    except WriteError as exc:
        _print([Diagnostic(Severity.ERROR, "QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                           hint="check that the folder is writable and the disk has space; nothing was written")])
        raise typer.Exit(1) from None
    for line in report(todo):
        typer.echo(line)
    if spec is None and any(path.name == "quizzes.yml" for path, _ in todo.files):
        for line in install_advice():
            typer.echo(line, err=True)
    if not todo.files:
        typer.echo("nothing to add: the folder has every file init writes")
        return
    for line in next_steps(folder, todo, spec):
        typer.echo(line)


@app.command("build", epilog=examples(
    "qti-builder build",
    "qti-builder build source/first-quiz.md --format moodle --strict",
    "qti-builder build --ignore QB602 --report junit --report-file dist/junit.xml",
))
def build_command(
    sources: Sources = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.", file_okay=False)] = Path("dist"),
    formats: Formats = ",".join(DEFAULT_FORMATS),
    templates: Templates = None,
    schemas: Schemas = None,
    strict: Strict = False,
    max_media_mb: MaxMedia = 10,
    max_source_mb: MaxSource = MAX_SOURCE_BYTES // MiB,
    max_yaml_alias_values: MaxAliasValues = MAX_YAML_ALIAS_VALUES,
    max_yaml_depth: MaxDepth = MAX_YAML_DEPTH,
    watch: Annotated[bool, typer.Option("--watch", help="Keep running and rebuild a quiz when its source changes.")] = False,
    qti_variants: QtiVariants = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    report: ReportFormat = None,
    report_file: ReportFile = None,
    quiet: Quiet = False,
    verbose: Verbose = False,
    ignore: Ignore = None,
    lang: Lang = None,
    only: Annotated[Optional[list[str]], typer.Option(
        "--only", metavar="<ids>",
        help="Build just these questions (ids, or quiz-id/question-id; comma- or space-separated, or one per line as "
             "diff --changed-only prints them): packages that bring only what changed into Moodle (qti-builder docs "
             "updating). A quiz with none of them is not built.")] = None,
) -> None:
    """Build every quiz: dist/<id>.qti21.zip, dist/<id>.moodle.xml and dist/<id>.canvas.zip (or --out DIR).

    Prints, per quiz, its questions by type and, per file, what that file loses in its LMS
    (--verbose lists each loss; --strict fails on them; --ignore or a question's ignore= accepts them).
    """
    options = _options(sources, formats, templates, schemas, strict, max_media_mb, out=out, write=True,
                       limits=_limits(max_source_mb, max_yaml_alias_values, max_yaml_depth), ignore=ignore,
                       qti_variants=qti_variants)
    options.jobs = jobs
    options.cache = not no_cache
    if only is not None:
        from .selection import parse_only

        options.only = parse_only(only)
        if not options.only:
            raise typer.BadParameter("give the ids of the questions to build", param_hint="--only")
    ui = Ui("build", report, report_file, quiet, verbose)
    ui.lang = _lang(lang)
    if watch:
        from .serve import watch_builds

        watch_builds(options, lambda opts: _run_quietly(opts, ui))
        return
    _held_to_the_exit(_run(options, ui))


def _run_quietly(options: "BuildOptions", ui: Ui) -> "BuildResult | None":
    """For --watch: a failed build is reported and waited out, not fatal."""
    try:
        return _run(options, ui)
    except typer.Exit:
        return None


@app.command("check", epilog=examples(
    "qti-builder check --verbose                  # each question, and each loss of each output",
    "qti-builder check source/ --profile canvas   # what Canvas loses, as warnings",
    "qti-builder check --report github            # annotations in a GitHub Actions log",
))
def check_command(
    sources: Sources = None,
    formats: Formats = ",".join(DEFAULT_FORMATS),
    templates: Templates = None,
    schemas: Schemas = None,
    strict: Strict = False,
    max_media_mb: MaxMedia = 10,
    max_source_mb: MaxSource = MAX_SOURCE_BYTES // MiB,
    max_yaml_alias_values: MaxAliasValues = MAX_YAML_ALIAS_VALUES,
    max_yaml_depth: MaxDepth = MAX_YAML_DEPTH,
    profile: Annotated[
        Optional[str], typer.Option(help=f"Also list what an LMS loses on import, per question: {', '.join(PROFILES)}.")
    ] = None,
    qti_variants: QtiVariants = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    report: ReportFormat = None,
    report_file: ReportFile = None,
    quiet: Quiet = False,
    verbose: Verbose = False,
    ignore: Ignore = None,
    lang: Lang = None,
    outline: Annotated[bool, typer.Option(
        "--outline", help="Also print each paper as read: its sections, passages, and each question's number, type, "
                          "answer, points and source lines, with the totals (qti-builder docs source-format#the-outline).")] = False,
) -> None:
    """Read, render and validate every quiz without writing anything; say what each output would lose."""
    options = _options(sources, formats, templates, schemas, strict, max_media_mb, write=False,
                       limits=_limits(max_source_mb, max_yaml_alias_values, max_yaml_depth), ignore=ignore,
                       qti_variants=qti_variants)
    if profile is not None and profile not in PROFILES:
        raise typer.BadParameter(f"unknown profile {profile}; choose from {', '.join(PROFILES)}", param_hint="--profile")
    options.profile = profile
    options.jobs = jobs
    options.cache = not no_cache
    options.outline = outline
    ui = Ui("check", report, report_file, quiet, verbose)
    ui.lang = options.outline_language = _lang(lang)
    _held_to_the_exit(_run(options, ui))


@app.command("preview", epilog=examples(
    "qti-builder preview",
    "qti-builder preview source/first-quiz.md --out preview/",
))
def preview_command(
    sources: Sources = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder of the HTML site.", file_okay=False)] = Path("dist/preview"),
    templates: Templates = None,
    schemas: Schemas = None,
    ignore: Ignore = None,
    qti_variants: QtiVariants = None,
) -> None:
    """Write a static HTML preview of every quiz, with answers and check warnings, to review before importing."""
    from .preview import build_preview
    from .plurals import plural

    options = _options(sources, ",".join(DEFAULT_FORMATS), templates, schemas, False, 10, ignore=ignore, qti_variants=qti_variants)
    result = build_preview(options, out)
    _print(result.diagnostics)
    typer.echo(f"wrote {out / 'index.html'} ({plural(len(result.pages) - 1, 'quiz page')})")
    if any(d.severity.value == "error" for d in result.diagnostics):
        raise typer.Exit(1)


@app.command("serve", epilog=examples(
    "qti-builder serve",
    "qti-builder serve source/first-quiz.md --port 8080",
))
def serve_command(
    sources: Sources = None,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1.")] = 8000,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Where to keep the preview (default: a temporary folder).", file_okay=False)] = None,
    templates: Templates = None,
    schemas: Schemas = None,
    ignore: Ignore = None,
    qti_variants: QtiVariants = None,
) -> None:
    """Serve the preview on 127.0.0.1 and rebuild it when a source changes (live reload)."""
    from .serve import serve

    options = _options(sources, ",".join(DEFAULT_FORMATS), templates, schemas, False, 10, ignore=ignore, qti_variants=qti_variants)
    serve(options, port, out)


app.command("import", epilog=examples(
    "qti-builder import moodle-export.xml --allow-skipped   # exit 0 even if some questions cannot be imported",
    "qti-builder import week-1.txt -f text2qti --report json --report-file import.json --allow-skipped",
))(import_command)


#: Exit code of ``diff`` when a question (or a quiz) was added, changed or removed.
CHANGED_EXIT = 4


@app.command("diff", epilog=examples(
    "qti-builder diff HEAD~1 HEAD     # source/ in the last two commits",
    "qti-builder diff --rev HEAD~1    # source/ as it is now, against a commit or tag",
    "qti-builder diff HEAD~1 HEAD --report json --report-file changes.json",
))
def diff_command(
    old: Annotated[Optional[str], typer.Argument(help="The old version: a source, a folder of sources, a git revision, or an "
                                                      "LMS export (Moodle XML, a Canvas or QTI zip...) read as import reads it.",
                                                 metavar="OLD", show_default=False)] = None,
    new: Annotated[Optional[str], typer.Argument(help="The new version, likewise. Default: the working folder's sources.",
                                                 metavar="NEW", show_default=False)] = None,
    rev: Annotated[Optional[str], typer.Option("--rev", metavar="<revision>",
                                               help="Compare the sources as they are now with this git revision.")] = None,
    path: Annotated[Optional[list[Path]], typer.Option("--path", metavar="<path>", help="For a git revision: the sources or folders to compare "
                                                                      "(default: the other side's path, else source/).")] = None,
    report: Annotated[str, typer.Option("--report", help="How to report: text, or json (to stdout unless --report-file).")] = "text",
    report_file: ReportFile = None,
    changed_only: Annotated[bool, typer.Option(
        "--changed-only", help="Print only the questions added or changed, one quiz-id/question-id per line, for "
                               "build --only (qti-builder docs updating); exits 0 whether or not any changed.")] = False,
) -> None:
    """Say which questions were added, changed (text, answers, points, feedback...) or removed between two
    versions of the quizzes, by id: what to replace in Moodle, and whether CI has anything new to publish.

    Exits 0 when nothing changed, 4 when something did, 1 when a source cannot be read, 2 on usage errors.
    """
    from .diff import DiffError, compare, read_versions, report as diff_report, something_changed, summary_line, text_lines
    from .report import ReportNotWritten, dumps, emit
    from .plurals import plural

    if report not in ("text", "json"):
        raise typer.BadParameter(f"unknown report {report}; choose text or json", param_hint="--report")
    if rev is not None:
        if new is not None:
            raise typer.BadParameter("give --rev REV and the sources to compare (with --path), or OLD and NEW", param_hint="--rev")
        old, new = rev, old
    if old is None:
        raise typer.BadParameter("give two versions to compare (OLD NEW), or --rev REV", param_hint="OLD")
    sink = DiagnosticSink()
    try:
        versions = read_versions(old, new, path or [], sink)
    except DiffError as exc:
        raise typer.BadParameter(str(exc), param_hint=exc.param or "OLD") from None
    if sink.errors:
        _print(sink.sorted())
        typer.echo(f"failed: {plural(len(sink.errors), 'error')}; nothing was compared", err=True)
        raise typer.Exit(1)
    diffs = compare(*versions)
    from .diff import unnamed_questions

    _print(unnamed_questions(diffs, *versions))
    if changed_only:
        from .diff import changed_questions

        for name in changed_questions(diffs):
            typer.echo(name)
        return
    code = CHANGED_EXIT if something_changed(diffs) else 0
    for line in [*text_lines(diffs), summary_line(diffs)]:
        typer.echo(line, err=report == "json" and report_file is None)
    if report == "json":
        try:
            emit(dumps(diff_report(old, new or "now", diffs, code)), report_file)
        except ReportNotWritten as exc:
            _print([exc.diagnostic])
            raise typer.Exit(1) from None
    if code:
        raise typer.Exit(code)


SCHEMAS_EXAMPLES = (
    "qti-builder schemas fetch                              # into qti-builder's cache",
    "qti-builder schemas fetch --to .qti-builder-schemas    # a folder for --schemas, CI caches",
    "qti-builder schemas fetch --to copy --mirror https://intranet.example.edu/qti-schemas/",
)
schemas_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, epilog=examples(*SCHEMAS_EXAMPLES),
                          help="The official schemas every output is validated against (qti-builder docs schemas).")
app.add_typer(schemas_app, name="schemas")


@schemas_app.command("fetch", epilog=examples(*SCHEMAS_EXAMPLES))
def schemas_fetch_command(
    to: Annotated[Optional[Path], typer.Option("--to", help="Folder to fetch into (default: qti-builder's cache, used when "
                                                            "neither --schemas nor QTI_BUILDER_SCHEMAS is given).",
                                               file_okay=False)] = None,
    mirror: Annotated[Optional[str], typer.Option("--mirror", metavar="<url>",
                                                  help="Fetch from this URL or folder, laid out as a schema folder, "
                                                       "instead of the official URLs; each file is checked all the same.")] = None,
) -> None:
    """Download the official schemas for offline use and CI caches, each checked against its pinned sha256."""
    from .schemas import SchemaError, default_cache_dir, fetch_schemas, pins
    from .plurals import plural

    folder = to if to is not None else default_cache_dir()
    counts: dict[str, int] = {"fetched": 0, "kept": 0}

    def done(rel: str, how: str) -> None:
        counts[how] += 1
        if how == "fetched":
            typer.echo(f"fetched {rel}")

    try:
        where = fetch_schemas(folder, mirror, done=done)
    except SchemaError as exc:
        _print(exc.diagnostics)
        typer.echo(f"failed: {plural(len(exc.diagnostics), 'error')}; files that matched their pins were kept", err=True)
        raise typer.Exit(1) from None
    total = len(pins()["files"])
    typer.echo(f"{display_path(where)}: {plural(total, 'official schema file')}, each matching its pinned sha256 "
               f"({counts['fetched']} fetched, {counts['kept']} already there)")
    if to is not None:
        typer.echo(f"use it with --schemas {to} or QTI_BUILDER_SCHEMAS={to}")


@app.command("schema", epilog=examples("qti-builder schema > source/quiz.schema.json"))
def schema_command() -> None:
    """Print the JSON Schema of the quiz model (for editor completion of YAML sources)."""
    from .model.schema import source_json_schema

    typer.echo(json.dumps(source_json_schema(), indent=2, ensure_ascii=False))


@app.command("explain", epilog=examples(
    "qti-builder explain QB142",
    "qti-builder explain qb115     # any case",
))
def explain_command(code: Annotated[str, typer.Argument(help="A diagnostic code, such as QB142.", show_default=False)]) -> None:
    """Explain a diagnostic code: what it means, where it points, and an example of the mistake and its fix."""
    from .codes import explain, lookup, nearest

    found = lookup(code)
    if found is None:
        close = nearest(code)
        typer.echo(f"unknown code {code.upper()}" + (f"; did you mean {' or '.join(close)}?" if close else "")
                   + " (every code: qti-builder docs source-format#every-code)", err=True)
        raise typer.Exit(2)
    typer.echo(explain(found))


@app.command("docs", epilog=examples(
    "qti-builder docs                       # every page and its sections",
    "qti-builder docs source-format#labels  # one section",
    "qti-builder docs QB142                 # what a code means, and where the docs say more",
))
def docs_command(
    topic: Annotated[Optional[str], typer.Argument(help="A page (source-format, question-types, content, import, ci, schemas, "
                                                        "lms-behaviour, updating), PAGE#section, or a code such as QB142.",
                                                   metavar="[TOPIC]", show_default=False)] = None,
) -> None:
    """Print the documentation that ships with qti-builder: a page, one of its sections, or a code's entry."""
    from .manual import UnknownTopic, index, lookup

    if topic is None:
        typer.echo(index(), nl=False)
        return
    try:
        _show(lookup(topic))
    except UnknownTopic as exc:
        typer.echo(f"{exc}", err=True)
        raise typer.Exit(2) from None


def _show(text: str) -> None:
    """A page on stdout; through the pager ($PAGER, else less) when it is longer than the terminal
    that shows it, never when stdout is a file or a pipe."""
    import shutil

    if sys.stdout.isatty() and text.count("\n") >= shutil.get_terminal_size().lines:
        import click

        click.echo_via_pager(text)
    else:
        typer.echo(text, nl=False)


def _options(
    sources: list[Path] | None,
    formats: str,
    templates: Path | None,
    schemas: Path | None,
    strict: bool,
    max_media_mb: float,
    out: Path = Path("dist"),
    write: bool = True,
    limits: Limits = Limits(),
    ignore: list[str] | None = None,
    qti_variants: int | None = None,
) -> "BuildOptions":
    from .results import BuildOptions

    names = [f.strip() for f in formats.split(",") if f.strip()]
    unknown = [n for n in names if n not in WRITERS]
    if unknown or not names:
        raise typer.BadParameter(f"unknown format {', '.join(unknown) or '(none)'}; choose from {', '.join(WRITERS)}",
                                 param_hint="--format")
    if not sources:
        if not Path("source").is_dir():
            raise typer.BadParameter("no sources given and no source/ folder here", param_hint="SOURCES")
        sources = [Path("source")]
    return BuildOptions(sources=sources, out_dir=out, formats=names, templates=templates, schemas=schemas,
                        write=write, strict=strict, max_media_bytes=int(max_media_mb * 1024 * 1024), limits=limits,
                        ignore=ignore_codes(ignore), qti_variants=qti_variants)


def _limits(max_source_mb: float, max_yaml_alias_values: int, max_yaml_depth: int) -> Limits:
    return Limits(max_source_bytes=int(max_source_mb * MiB), max_yaml_alias_values=max_yaml_alias_values,
                  max_yaml_depth=max_yaml_depth)


def _run(options: "BuildOptions", ui: Ui | None = None) -> "BuildResult":
    """Build, print, report; exit 1 when anything had an error (the good quizzes are written)."""
    from .cached_build import build
    from .diagnostics import SchemaError
    from .i18n import counted, points_text, summary_words
    from .results import BuildIncomplete

    ui = ui or Ui("build" if options.write else "check", None, None, False, False)
    _require_sources(options.sources, ui.lang)
    result: BuildResult | None = None
    try:
        options.progress = ui.progress()
        try:
            # The plain lines need no quiz's model: --verbose's and the reports' do
            result = build(options, models=ui.verbose or bool(ui.reports))
        finally:
            ui.stop_progress()
        diagnostics = result.diagnostics
    except BuildIncomplete as exc:
        result, diagnostics = exc.result, exc.diagnostics
    except (BuildFailed, SchemaError) as exc:
        diagnostics = exc.diagnostics
    failed = any(d.severity.value == "error" for d in diagnostics)
    _print(diagnostics, ui.quiet, _languages(result, ui.lang))
    if result is not None:
        _print_outlines(result, ui)
        _print_understood(result, ui)
        if ui.verbose:
            _print_timings(result)
    language = ui.lang or _common_language(result)
    words = summary_words(language)
    if failed:
        errors = sum(1 for d in diagnostics if d.severity.value == "error")
        typer.echo(_what_failed(result, options.write, errors, language), err=True)
    elif result is not None and not options.write:
        # What the cache kept of each quiz, where it came from the cache: its model is not unpickled for it
        read = [facts for r in result.results if (facts := r.facts()) is not None]
        questions = sum(facts.questions for facts in read)
        low, high = (sum(p) for p in zip(*(facts.points for facts in read))) if read else (0.0, 0.0)
        ui.say(words["ok"].format(quizzes=counted(words, "quiz", len(read)), questions=counted(words, "question", questions),
                                  points=points_text(low, high, language), outputs=counted(words, "output", len(result.outputs))))
    unwritten = ui.emit_report(result, diagnostics, 1 if failed else 0)
    _print(unwritten, languages=lambda _: ui.lang)
    if failed or unwritten:
        raise typer.Exit(1)
    assert result is not None
    return result


def _print_outlines(result: "BuildResult", ui: Ui) -> None:
    """``check --outline``: each paper as read, also when it failed after reading (a total that
    differs from the stated one is easier to find with every question's points in front of you)."""
    for r in result.results:
        if r.outline is not None:
            from .outline import render_outline

            for line in render_outline(r.outline, ui.lang or r.language):
                ui.say(line)


def _require_sources(paths: list[Path], lang: str | None = None) -> None:
    """A folder without a quiz source is a mistake (a wrong folder, sources with another suffix),
    not a build of nothing that passes: QB232, exit 1."""
    from .results import find_sources
    from .readers import SOURCE_SUFFIXES

    if find_sources(paths):
        return
    from .i18n import counted, summary_words

    named = ", ".join(f"{display_path(p)}/" if p.is_dir() else display_path(p) for p in paths)
    _print([Diagnostic(Severity.ERROR, "QB232", f"no quiz source in {named}",
                       hint=f"quiz sources end in {', '.join(SOURCE_SUFFIXES)} (files and folders whose names start "
                            "with . or _ are left out); name the sources or their folder, or start one with qti-builder init")],
           languages=lambda _: lang)
    words = summary_words(lang)
    typer.echo(words["failed"].format(errors=counted(words, "error", 1), scope="", written=words["nothing_to_build"]), err=True)
    raise typer.Exit(1)


def _print_understood(result: "BuildResult", ui: Ui) -> None:
    """Per quiz that built: its questions by type (each one with --verbose), then its files, each
    with a count of what it loses in its LMS (each loss with --verbose), so nobody expects the
    time limit, or a question's partial credit, to arrive where the format has no place for it."""
    from .i18n import summary_words

    for r in result.results:
        facts = r.facts()
        if facts is None or r.failed:
            continue
        # In the quiz's messages' language: --lang, else its own.
        language = ui.lang or r.language
        words = summary_words(language)
        ui.say(facts.line(language))
        if ui.verbose:
            from .summary import question_lines

            assert r.quiz is not None
            for line in question_lines(r.quiz, r.spans, language):
                ui.say(line)
        for output in r.outputs:
            losses = [loss for loss in r.losses if loss.format == output.format]
            accepted = [loss for loss in r.accepted_losses if loss.format == output.format]
            said = words["wrote"].format(path=output.path) if r.written else output.path.name
            if losses or accepted:
                from .losses import summary

                listed = ui.verbose or all(loss.question is None for loss in losses + accepted)
                notes = ([(words["all_accepted"] if not losses else words["n_accepted"].format(n=len(accepted)))] if accepted else []) \
                    + ([] if listed else [words["verbose_lists"]])
                said += f": {summary(output.format, losses + accepted, language)}" + (f" ({'; '.join(notes)})" if notes else "")
            if r.written or losses:
                ui.say(said)
            if ui.verbose:
                for loss in losses:
                    ui.say(f"  {loss.render(language)}")
                for loss in accepted:
                    ui.say(f"  {words['accepted'].format(loss=loss.render(language))}")


def _what_failed(result: "BuildResult | None", write: bool, errors: int, language: str | None = None) -> str:
    """``failed: 3 errors``, and which quizzes failed, when there were several, and whether the others
    were written (``check`` writes nothing whatever happens: it does not say so); in ``language``."""
    from .i18n import counted, summary_words

    words = summary_words(language)
    scope = ""
    if result is not None and len(result.results) > 1:
        scope = words["failed_scope"].format(failed=sum(1 for r in result.results if r.failed), all=len(result.results))
    written = ""
    if write:
        written = words["nothing_written"] if result is None or not result.written else \
            words["others_wrote"].format(files=counted(words, "file", len(result.written)))
    return words["failed"].format(errors=counted(words, "error", errors), scope=scope, written=written)


def _common_language(result: "BuildResult | None") -> str | None:
    """The language of every quiz built, when they share one (what is said of all of them is said in
    it, as each quiz's messages are); else None, English."""
    found = {(r.language or "en").split("-")[0].lower() for r in result.results} if result is not None else set()
    return found.pop() if len(found) == 1 else None


def _print_timings(result: "BuildResult") -> None:
    from .plurals import plural

    for r in result.results:
        name = r.quiz.id if r.quiz else display_path(r.source)
        stages = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in r.timings.items())
        questions = sum(1 for _ in r.quiz.iter_questions()) if r.quiz else 0
        typer.echo(f"{name}: {plural(questions, 'question')}, {'failed' if r.failed else 'ok'}; {stages}", err=True)
    stages = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in result.timings.items())
    typer.echo(f"{plural(len(result.results), 'quiz', 'quizzes')} built by {plural(result.jobs, 'process', 'processes')}: {stages}",
               err=True)


def _print(diagnostics: list[Diagnostic], quiet: bool = False, languages: Callable[[str], str | None] | None = None) -> None:
    """Grouped per file, in source order; errors only when quiet; each file's in its language."""
    ordered = sorted((d for d in diagnostics if not quiet or d.severity.value == "error"), key=Diagnostic.sort_key)
    for path, group in groupby(ordered, key=lambda d: d.span.path if d.span else ""):
        language = languages(path) if languages else None
        for diagnostic in group:
            typer.echo(diagnostic.render(language), err=True)


def _languages(result: "BuildResult | None", lang: str | None) -> Callable[[str], str | None]:
    """Which language a file's messages are printed in: --lang, else its quiz's language."""
    by_path = {display_path(r.source): r.language for r in result.results} if result is not None else {}
    return lambda path: lang or by_path.get(path)


def _lang(lang: str | None) -> str | None:
    from .messages import languages

    if lang is not None and lang.split("-")[0].lower() not in ["en", *languages()]:
        raise typer.BadParameter(f"no messages in '{lang}'; choose from en, {', '.join(languages())}", param_hint="--lang")
    return lang


def _leave_to_the_exit() -> None:
    """What the command made is left for the process's end to free, out of the cyclic garbage
    collector's reach (``gc.freeze``): the interpreter's last collection walked every object of a
    big build (its quizzes' models, its outputs' documents) before the process could end, a tenth
    of a second or more after the build was done, with every worker already gone (bench/README.md)."""
    import gc

    gc.freeze()


#: What the last command made (:func:`_held_to_the_exit`).
_HELD: list[object] = []


def _held_to_the_exit(made: object) -> None:
    """Keep what a command made (its build's result: the quizzes' models, the outputs' facts)
    referenced until the process ends, as :func:`_leave_to_the_exit` keeps it from the collector:
    dropped when the command returned, it was freed object by object before the process could
    end (a 10,000-question bank's: 0.02-0.03 s of a rebuild by hand, bench/README.md), where the
    fast exit (:func:`run`) leaves it to the OS. A process that runs commands one after another
    (the tests) holds the last one's only."""
    _HELD[:] = [made]


def _interrupted(exc: BaseException) -> bool:
    """Whether a command ended by Ctrl-C or SIGTERM: typer turns the KeyboardInterrupt into its
    exit code 130 without a word, so it is found in the exit's chain of exceptions."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _terminate(signum: int, frame: object) -> None:
    # Unwinds like Ctrl-C, so temporary files are removed before the process ends.
    raise KeyboardInterrupt


def _app_for(arguments: list[str]) -> typer.Typer:
    """The app that runs ``arguments``: when they begin with a command's name, a copy of
    :data:`app` that holds that command alone. Typer makes a click command of every command it
    holds, from its function's signature, at every start: the eleven of :data:`app` took 5.5 ms
    of a cold ``check``'s CPU, where the one it runs takes 0.5 ms. What a command prints (its
    ``--help``, its errors, the root's options and callback before it) is the same either way;
    anything else (``--help``, ``--version``, no command, a misspelt one, which is told the
    nearest names) runs on the whole app."""
    name = arguments[0] if arguments else ""
    commands = [info for info in app.registered_commands if info.name == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if len(commands) + len(groups) != 1:
        return app
    lean = copy.copy(app)
    lean.registered_commands, lean.registered_groups = commands, groups
    return lean


def main() -> None:
    """The command (:func:`run` ends the process after it). SIGTERM unwinds as Ctrl-C does while it
    runs; its handler before is put back when it returns, for a process that runs commands one after
    another (the tests), whose later forked workers would otherwise inherit ours."""
    before = signal.signal(signal.SIGTERM, _terminate)
    try:
        _command()
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)


def _command() -> None:
    try:
        _app_for(sys.argv[1:])()
    except KeyboardInterrupt:
        typer.echo("interrupted; the output folder is as it was", err=True)
        sys.exit(130)
    except SystemExit as exc:  # how every command ends, its output written and printed
        if _interrupted(exc):
            typer.echo("interrupted; the output folder is as it was", err=True)
        _leave_to_the_exit()
        raise
    except Exception:  # a bug, not a user mistake: keep the traceback
        traceback.print_exc()
        typer.echo(
            f"qti-builder {__version__} hit an internal error. Please report it with the traceback above "
            "and, if you can, the source that triggered it.",
            err=True,
        )
        sys.exit(3)


def run() -> None:
    """The ``qti-builder`` command: :func:`main`, then the process ends at once, as mypy's
    ``--fast-exit`` does: what the interpreter's exit would do one by one after the exit handlers
    (free every module and object a build made) is left to the OS, a twentieth of a small quiz's
    ``check``. The exit handlers run first and the output is flushed; with a thread of ours still
    running, or output that cannot be flushed, the exit is the interpreter's, as ever. :func:`main`
    itself returns as it always has, for the tests that call it.

    The methods of the dataclasses it makes are compiled once and kept across runs
    (:mod:`.runtime_code`): a cold ``check`` made 700 of them, each compiled from its text."""
    from .runtime_code import compiled_once

    try:
        with compiled_once():
            main()
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            _end_now(exc.code or 0)
        raise
    _end_now(0)


def _end_now(code: int) -> None:
    import atexit
    import os
    import threading

    if any(not thread.daemon for thread in threading.enumerate() if thread is not threading.main_thread()):
        return  # the interpreter waits for them: so does this exit
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # a closed pipe: said (or not) by the interpreter's own exit, as ever
    os._exit(code)
