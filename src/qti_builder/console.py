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
from .pipeline import BuildResult

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


#: What ``--report`` takes: plain lines only, or also a report for machines (docs/ci.md).
REPORTS = ("text", "json", "github", "junit")


class Ui:
    """One command's output settings: ``--report``, ``--report-file``, ``--quiet``, ``--verbose``."""

    #: Seconds a build runs before its progress bar appears.
    PROGRESS_AFTER = 1.0

    def __init__(self, command: str, report: str, report_file: Path | None, quiet: bool, verbose: bool) -> None:
        if report not in REPORTS:
            raise typer.BadParameter(f"unknown report {report}; choose {', '.join(REPORTS)}", param_hint="--report")
        if quiet and verbose:
            raise typer.BadParameter("--quiet and --verbose contradict each other", param_hint="--quiet")
        self.command, self.report, self.report_file = command, report, report_file
        self.json = report == "json"
        self.quiet, self.verbose = quiet, verbose
        self.summary_to_stderr = report != "text" and report_file is None
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

    def emit_report(self, result: BuildResult | None, diagnostics: list[Diagnostic], code: int) -> None:
        if self.report == "text":
            return
        from .report import build_report, dumps, emit, github_annotations, junit_xml

        if self.report == "json":
            text = dumps(build_report(self.command, result, diagnostics, code))
        elif self.report == "github":
            text = github_annotations(self.command, result, diagnostics)
        else:
            text = junit_xml(self.command, result, diagnostics)
        emit(text, self.report_file)
