"""A Markdown source written by hand, read as ``build`` reads it: its quiz (or the questions read
without an error, when it has some) and what the reader told the user, each diagnostic as
``(line, column, code, message)``; ``place`` finds a line and column by searching the source's own
text, so a test states where a problem is without copying it from the reader's output."""

from __future__ import annotations

from pathlib import Path

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz

#: Front matter of a test's source: its body starts on line 5.
FRONT = "---\ntitle: T\nlanguage: {language}\n---\n"


def source_text(body: str, language: str = "en") -> str:
    return FRONT.format(language=language) + body


def read_body(tmp_path: Path, body: str, language: str = "en", name: str = "paper.md",
              ) -> tuple[Quiz | None, list[tuple[int, int, str, str]]]:
    """``body`` under a front matter of ``language``, read from ``tmp_path/name``."""
    path = tmp_path / name
    path.write_text(source_text(body, language), encoding="utf-8")
    sink = DiagnosticSink()
    result = read_quiz(path, sink, partial=True)
    told = [(d.span.line if d.span else 0, d.span.column if d.span else 0, d.code, d.message) for d in sink.items]
    return (result[0] if result else None), told


def place(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """Line and column (1-based) of the ``nth`` occurrence of ``needle`` in ``text``."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def line_of(text: str, needle: str, nth: int = 1) -> int:
    return place(text, needle, nth)[0]


def read_hints(tmp_path: Path, body: str, language: str = "en", name: str = "paper.md") -> list[tuple[str, str | None]]:
    """What each diagnostic of ``body`` tells the user to do: ``(code, hint)``, in order."""
    path = tmp_path / name
    path.write_text(source_text(body, language), encoding="utf-8")
    sink = DiagnosticSink()
    read_quiz(path, sink, partial=True)
    return [(d.code, d.hint) for d in sink.items]


def read_text(tmp_path: Path, text: str, name: str = "paper.md") -> tuple[Quiz | None, list[tuple[int, int, str, str, str | None]]]:
    """A whole source (front matter and all) read from ``tmp_path/name``: its quiz and each
    diagnostic as ``(line, column, code, message, hint)``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    result = read_quiz(path, sink, partial=True)
    told = [(d.span.line if d.span else 0, d.span.column if d.span else 0, d.code, d.message, d.hint) for d in sink.items]
    return (result[0] if result else None), told


def read_clean(path: Path) -> Quiz:
    """The quiz of a source that must read without an error (each diagnostic shown if not)."""
    sink = DiagnosticSink()
    read = read_quiz(path, sink)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    return read[0]
