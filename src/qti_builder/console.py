"""What a command prints, and where: diagnostics on stderr, what was written and the summary on
stdout (on stderr when the JSON report takes stdout), the JSON report, a progress bar.

CI logs get plain lines: no colour and no progress bar unless stderr is a terminal (rich, which
draws the bar, is imported only then).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .diagnostics import Diagnostic

if TYPE_CHECKING:
    from .pipeline import BuildResult
    from rich.progress import Progress, TaskID


#: What ``--report`` takes: plain lines only, or also a report for machines (docs/ci.md).
REPORTS = ("text", "json", "github", "junit")


def parse_reports(values: list[str] | str | None, report_file: Path | None) -> list[tuple[str, Path | None]]:
    """``--report`` values (``json``, ``json=dist/report.json``; the option may repeat) as (format,
    file) pairs, ``None`` for stdout; ``--report-file`` is the file of the one given without ``=``.
    Two reports on stdout would run into each other: a usage error, as is a format twice."""
    given = [values] if isinstance(values, str) else list(values or ["text"])
    reports: list[tuple[str, Path | None]] = []
    for value in given:
        name, sep, file = value.partition("=")
        name = name.strip()
        if name not in REPORTS:
            raise typer.BadParameter(f"unknown report {name}; choose {', '.join(REPORTS)}", param_hint="--report")
        if sep and not file.strip():
            raise typer.BadParameter(f"give the file after '{name}=', such as {name}=dist/report.{name}", param_hint="--report")
        if any(name == other for other, _ in reports):
            raise typer.BadParameter(f"{name} is given twice", param_hint="--report")
        if name != "text":
            reports.append((name, Path(file.strip()) if sep else None))
    to_stdout = [name for name, file in reports if file is None]
    if report_file is not None:
        if len(to_stdout) != 1:
            raise typer.BadParameter("--report-file is the file of one --report given without '=FILE'; "
                                     "give each report its file as --report FORMAT=FILE", param_hint="--report-file")
        reports = [(name, report_file if file is None else file) for name, file in reports]
    elif len(to_stdout) > 1:
        raise typer.BadParameter(f"only one report can go to stdout, not {' and '.join(to_stdout)}; give the others a file "
                                 f"(--report {to_stdout[-1]}=FILE)", param_hint="--report")
    return reports


class Ui:
    """One command's output settings: ``--report`` (repeatable), ``--report-file``, ``--quiet``, ``--verbose``."""

    #: Seconds a build runs before its progress bar appears.
    PROGRESS_AFTER = 1.0

    def __init__(self, command: str, report: list[str] | str | None, report_file: Path | None, quiet: bool, verbose: bool) -> None:
        self.reports = parse_reports(report, report_file)
        if quiet and verbose:
            raise typer.BadParameter("--quiet and --verbose contradict each other", param_hint="--quiet")
        self.command = command
        self.quiet, self.verbose = quiet, verbose
        self.summary_to_stderr = any(file is None for _, file in self.reports)
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        #: ``--lang``: the language of the messages, over each quiz's own (messages.py).
        self.lang: str | None = None

    def say(self, text: str) -> None:
        if not self.quiet:
            typer.echo(text, err=self.summary_to_stderr)

    def progress(self) -> Callable[[int, int], None] | None:
        if self.quiet or not sys.stderr.isatty():
            return None
        started = time.monotonic()

        def update(done: int, total: int) -> None:
            if self.bar is None and time.monotonic() - started >= self.PROGRESS_AFTER and done < total:
                from rich.console import Console
                from rich.progress import Progress

                self.bar = Progress(transient=True, console=Console(stderr=True))
                self.bar.start()
                self.task = self.bar.add_task(f"{self.command}ing", total=total)
            if self.bar is not None and self.task is not None:
                self.bar.update(self.task, completed=done)

        return update

    def stop_progress(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def emit_report(self, result: BuildResult | None, diagnostics: list[Diagnostic], code: int) -> list[Diagnostic]:
        """Each report to its file or stdout; what could not be written, as errors (QB231)."""
        if not self.reports:  # the plain lines only: nothing to import
            return []
        from .report import ReportNotWritten, build_report, dumps, emit, github_annotations, junit_xml

        problems = []
        for name, file in self.reports:
            if name == "json":
                text = dumps(build_report(self.command, result, diagnostics, code))
            elif name == "github":
                text = github_annotations(self.command, result, diagnostics)
            else:
                text = junit_xml(self.command, result, diagnostics)
            try:
                emit(text, file)
            except ReportNotWritten as exc:
                problems.append(exc.diagnostic)
        return problems
