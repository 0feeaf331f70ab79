"""Checks on a quiz after reading, before writing: what its rich text loses, and its media files.

Rendering never fails; these checks are where a problem in a text becomes a diagnostic at the
text's place in the source.
"""

from __future__ import annotations

from pathlib import Path

from . import content
from .diagnostics import DiagnosticSink, Severity, SourceSpan
from .media import MAX_MEDIA_BYTES, MediaFile, MediaSet, is_external, resolve
from .model import Quiz
from .model.common import iter_markdown
from .readers import SourceMap


def check_content(
    quiz: Quiz, source: SourceMap, base_dir: Path, sink: DiagnosticSink, max_media_bytes: int = MAX_MEDIA_BYTES
) -> MediaSet:
    """Report content problems and return the quiz's media, checked."""
    files: dict[str, MediaFile] = {}
    for loc, text in iter_markdown(quiz):
        start = source.locate(loc)
        for problem in content.inspect(text):
            report = sink.error if problem.severity == Severity.ERROR.value else sink.warning
            report(problem.code, problem.message, _at(start, text, problem.offset), hint=problem.hint)
        for ref, offset, has_alt in content.media_refs(text):
            if not ref or is_external(ref):
                continue
            if not has_alt and content.media_type(ref).startswith("image/"):
                sink.warning("QB165", f"image '{ref}' has no alt text", _at(start, text, offset),
                             hint="describe the image for students who cannot see it: ![description](path)")
            if ref in files:
                continue
            found = resolve(ref, base_dir, max_media_bytes)
            if isinstance(found, str):
                sink.error("QB160", f"media file '{ref}' {found}", _at(start, text, offset),
                           hint="put media next to the source (or below it) and refer to it by a relative path")
            else:
                files[ref] = found
    return MediaSet(tuple(files[ref] for ref in sorted(files)))


def _at(start: SourceSpan, text: str, offset: int) -> SourceSpan:
    """The source position of ``offset`` in a text that begins at ``start``."""
    before = text[:offset]
    lines = before.count("\n")
    column = start.column + offset if lines == 0 else offset - before.rfind("\n")
    return SourceSpan(start.path, start.line + lines, column)
