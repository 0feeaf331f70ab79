"""Diagnostics: every user-fixable problem becomes one located, printable record.

Readers, checks, writers and the schema gate report into a :class:`DiagnosticSink` and keep going,
so one run shows every problem (the way MkDocs collects config errors). Each stage of the pipeline
ends with :meth:`DiagnosticSink.raise_if_errors`; :class:`BuildFailed` is the only exception the CLI
turns into exit code 1. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class SourceSpan:
    """A position in a file: 1-based line and column."""

    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem. ``code`` is stable and grouped by stage: QB1xx reading, QB2xx model checks,
    QB3xx writing, QB4xx schema validation, QB5xx packaging and files."""

    severity: Severity
    code: str
    message: str
    span: SourceSpan | None = None
    hint: str | None = None
    #: Where the problem shows in a generated file, when it was found there (schema errors).
    generated: SourceSpan | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        span = self.span or SourceSpan("")
        return (span.path, span.line, span.column, self.code)

    def render(self, language: str | None = None) -> str:
        """As printed; the message and hint in ``language`` where its catalog has them (messages.py)."""
        from .messages import translate

        where = f"{self.span}: " if self.span else ""
        text = f"{where}{self.severity.value}[{self.code}]: {translate(self.message, language)}"
        if self.generated:
            text += f"\n    in generated file {self.generated}"
        if self.hint:
            text += f"\n    hint: {translate(self.hint, language)}"
        return text


@dataclass
class DiagnosticSink:
    """Collects diagnostics from every stage."""

    items: list[Diagnostic] = field(default_factory=list)
    #: The language of the quiz being read, once its reader knows it: the language its messages
    #: are printed in (messages.py).
    language: str | None = None

    def error(
        self,
        code: str,
        message: str,
        span: SourceSpan | None = None,
        hint: str | None = None,
        generated: SourceSpan | None = None,
    ) -> None:
        self.items.append(Diagnostic(Severity.ERROR, code, message, span, hint, generated))

    def warning(
        self, code: str, message: str, span: SourceSpan | None = None, hint: str | None = None
    ) -> None:
        self.items.append(Diagnostic(Severity.WARNING, code, message, span, hint))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.WARNING]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise BuildFailed(self.sorted())

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)


class BuildFailed(Exception):
    """The sources or the generated documents have errors the user can fix."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} problem(s)")
        self.diagnostics = diagnostics


class SchemaError(Exception):
    """The schema folder cannot be used; carries diagnostics for the user (:mod:`.schemas`)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def display_path(path: Path) -> str:
    """A path as users typed it: relative to the working directory when it lies below it. Links
    are not followed: ``/dev/stdin`` is named so, not as the file the shell redirected into it."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path(os.path.abspath(Path.cwd()))))
    except ValueError:
        return str(path)


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters with a final '…', to quote it in a message."""
    return text if len(text) <= width else text[: width - 1] + "…"
