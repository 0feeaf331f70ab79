"""Which reader reads a source, by its suffix, and reading one within the limits."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..diagnostics import DiagnosticSink, SourceSpan, display_path
from ..model import Quiz
from . import STDIN
from .base import SourceMap
from .piece_cache import Pieces
from ..limits import Limits, raise_hint, sizes
from .markdown import MarkdownReader
from .yaml import YamlReader


class Reader(Protocol):
    name: str
    suffixes: tuple[str, ...]

    def read(self, path: Path, display: str, sink: DiagnosticSink, limits: Limits = Limits(),
             pieces: Pieces | None = None) -> tuple[Quiz, SourceMap] | None: ...


READERS: dict[str, Reader] = {r.name: r for r in (MarkdownReader(), YamlReader())}
SOURCE_SUFFIXES = tuple(s for r in READERS.values() for s in r.suffixes)




def reader_for(path: Path) -> Reader | None:
    """The reader of a source by its suffix; a pipe (``-``, ``/dev/stdin``, ``<(...)``) has none,
    and is read as Markdown, the format a quiz is typed or pasted in."""
    found = next((r for r in READERS.values() if path.suffix.lower() in r.suffixes), None)
    piped = path == STDIN or path.parent == Path("/dev/fd") or not (path.is_file() or path.is_dir())
    if found is None and not path.suffix and path.exists() and piped:
        return READERS["markdown"]
    return found


def read_quiz(path: Path, sink: DiagnosticSink, limits: Limits = Limits(), partial: bool = False,
              pieces: Pieces | None = None) -> tuple[Quiz, SourceMap] | None:
    """Read one source file within ``limits``; problems go to ``sink`` and the result is None.

    With ``partial``, a source with errors still gives the quiz of the questions read without one
    (its ``SourceMap.partial`` set), to be checked further so one run reports every problem; it
    must never be written. ``pieces``: where a large source's pieces are kept and read
    (:mod:`.piece_cache`), for a reader that reads in pieces."""
    display = display_path(path)
    reader = reader_for(path)
    if reader is None:
        sink.error("QB100", f"no reader for '{path.suffix}' files", SourceSpan(display),
                   hint=f"quiz sources end in {', '.join(SOURCE_SUFFIXES)}")
        return None
    try:
        size = path.stat().st_size
    except OSError as exc:
        sink.error("QB100", f"cannot read the file: {exc.strerror}", SourceSpan(display),
                   hint="check that the file exists and that you may read it")
        return None
    if size > limits.max_source_bytes:
        # Refused before it is read: a source this large is more likely not a quiz at all.
        size_text, limit_text = sizes(size, limits.max_source_bytes)
        sink.error("QB100", f"the file is {size_text}, more than the {limit_text} a source may have",
                   SourceSpan(display), hint=f"{raise_hint('max_source_bytes', size)}, or split it into several quizzes")
        return None
    read = reader.read(path, display, sink, limits, pieces)
    if read is not None and read[1].partial and not partial:
        return None
    return read


__all__ = ["READERS", "SOURCE_SUFFIXES", "STDIN", "Limits", "Reader", "SourceMap", "read_quiz", "reader_for"]
