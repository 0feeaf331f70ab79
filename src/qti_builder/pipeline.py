"""The build, top to bottom: read every source, write every target in memory, validate, then
write the files. Nothing reaches the output folder unless every quiz passed every stage, so all
problems are reported together and a failed build leaves the previous outputs untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .checks import check_content
from .diagnostics import Diagnostic, DiagnosticSink, SourceSpan, display_path
from .media import MAX_MEDIA_BYTES, MediaSet
from .model import Quiz
from .profiles import check_profile
from .package import WriteError, package, write_files
from .readers import SOURCE_SUFFIXES, SourceMap, read_quiz
from .schemas import load_schemas, resolve_schema_dir
from .templating import make_environment
from .validate import validate_documents
from .writers import WRITERS, Output


@dataclass
class BuildOptions:
    sources: list[Path] = field(default_factory=lambda: [Path("source")])
    out_dir: Path = Path("dist")
    formats: list[str] = field(default_factory=lambda: list(WRITERS))
    templates: Path | None = None
    schemas: Path | None = None
    #: False for ``check``: everything but writing files.
    write: bool = True
    #: Warnings fail the build too.
    strict: bool = False
    #: Largest media file a quiz may reference.
    max_media_bytes: int = MAX_MEDIA_BYTES
    #: Also warn about what this LMS loses on import (``profiles.PROFILES``), e.g. "canvas".
    profile: str | None = None


@dataclass
class BuildResult:
    quizzes: list[Quiz]
    outputs: list[Output]
    written: list[Path]
    diagnostics: list[Diagnostic]


def build(options: BuildOptions) -> BuildResult:
    """Raises :class:`~qti_builder.diagnostics.BuildFailed` with every problem found."""
    sink = DiagnosticSink()
    loaded = load_quizzes(options, sink)
    sink.raise_if_errors()

    outputs = render_outputs(loaded, options, sink)
    if options.strict:
        for warning in sink.warnings:
            sink.error(warning.code, f"{warning.message} (a warning, failing because of --strict)", warning.span, warning.hint)
    sink.raise_if_errors()

    files = [(options.out_dir / output.filename, package(output)) for output in outputs]
    if options.write:
        try:
            write_files(files)
        except WriteError as exc:
            sink.error("QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                       hint="check that the output folder is writable and the disk has space; nothing was changed")
            sink.raise_if_errors()
    return BuildResult([q.quiz for q in loaded], outputs, [path for path, _ in files] if options.write else [], sink.sorted())


@dataclass
class LoadedQuiz:
    """One source, read and checked."""

    path: Path
    quiz: Quiz
    source: SourceMap
    media: MediaSet

    @property
    def spans(self) -> dict[str, SourceSpan]:
        return self.source.question_spans(self.quiz)


def load_quizzes(options: BuildOptions, sink: DiagnosticSink) -> list[LoadedQuiz]:
    """Read every source and check its content and media; problems go to ``sink``."""
    loaded = []
    for path in find_sources(options.sources):
        result = read_quiz(path, sink)
        if result:
            quiz, source = result
            loaded.append(LoadedQuiz(path, quiz, source, check_content(quiz, source, path.parent, sink, options.max_media_bytes)))
    _check_unique_ids([(q.quiz, q.source.path) for q in loaded], sink)
    if options.profile:
        for item in loaded:
            check_profile(options.profile, item.quiz, item.spans, sink)
    return loaded


def render_outputs(loaded: list[LoadedQuiz], options: BuildOptions, sink: DiagnosticSink) -> list[Output]:
    """Every target of every quiz, rendered and validated in memory."""
    schemas = load_schemas(resolve_schema_dir(options.schemas))
    env = make_environment(options.templates)
    outputs: list[Output] = []
    for item in loaded:
        spans = item.spans
        for name in options.formats:
            output = WRITERS[name](env).write(item.quiz, spans, sink, item.media)
            if output is not None:
                validate_documents(output.filename, output.documents, schemas, spans, sink)
                outputs.append(output)
    return outputs


def find_sources(paths: list[Path]) -> list[Path]:
    """Source files named directly, and those below named folders (hidden ones skipped), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES
                and not any(part.startswith((".", "_")) for part in p.relative_to(path).parts)
            )
        else:
            found.append(path)
    return found


def _check_unique_ids(quizzes: list[tuple[Quiz, str]], sink: DiagnosticSink) -> None:
    first: dict[str, str] = {}
    for quiz, path in quizzes:
        if quiz.id in first:
            sink.error("QB202", f"quiz id '{quiz.id}' is also used by {first[quiz.id]}", SourceSpan(path),
                       hint="give one of them another 'id:' in its front matter; both would write the same files")
        else:
            first[quiz.id] = path
