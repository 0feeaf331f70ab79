"""The machine-readable build report (``--report json``), for CI.

Its shape is fixed by ``schemas/report.schema.json`` (documented in docs/ci.md); the tests
validate every report they make against it. Paths are as the user gave them (relative to the
working directory when below it), times in seconds, digests lowercase hex.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import __version__
from .diagnostics import Diagnostic, Severity, SourceSpan, display_path
from .losses import Loss
from .results import STAGES, BuildResult, QuizResult, question_counts
from .summary import quiz_points
from .writers import WRITERS

#: Bumped when a field changes meaning or goes away (new fields may appear at any time).
REPORT_VERSION = 1


def build_report(command: str, result: BuildResult | None, diagnostics: list[Diagnostic], exit_code: int) -> dict[str, Any]:
    """The report of one run. ``result`` is None when the build could not start (no schemas)."""
    results = result.results if result else []
    quizzes = [quiz_report(r) for r in results]
    carried = {d for r in results for d in r.diagnostics}
    build_level = [d for d in diagnostics if d not in carried]  # the schemas, writing the files
    return {
        "report_version": REPORT_VERSION,
        "tool": {"name": "qti-builder", "version": __version__},
        "command": command,
        "ok": exit_code == 0,
        "exit_code": exit_code,
        "jobs": result.jobs if result else 1,
        "summary": {
            "quizzes": len(quizzes),
            "failed": sum(1 for q in quizzes if q["status"] == "failed"),
            "questions": sum(q["questions"] for q in quizzes),
            "outputs": sum(len(q["outputs"]) for q in quizzes),
            "written": sum(1 for q in quizzes for o in q["outputs"] if o["written"]),
            "errors": sum(1 for d in diagnostics if d.severity.value == "error"),
            "warnings": sum(1 for d in diagnostics if d.severity.value == "warning"),
            "losses": sum(len(o["losses"]) for q in quizzes for o in q["outputs"]),
        },
        "timings": {k: round(v, 4) for k, v in (result.timings if result else {}).items()},
        "errors": [diagnostic(d) for d in build_level],
        "quizzes": quizzes,
    }


def quiz_report(r: QuizResult) -> dict[str, Any]:
    counts = question_counts(r.quiz) if r.quiz else {}
    low, high = quiz_points(r.quiz) if r.quiz else (0.0, 0.0)
    return {
        "source": display_path(r.source),
        "id": r.quiz.id if r.quiz else None,
        "title": r.quiz.title if r.quiz else None,
        "status": "failed" if r.failed else "ok",
        "questions": sum(counts.values()),
        "question_types": counts,
        "points": {"min": low, "max": high},
        "settings": r.quiz.settings.given() if r.quiz else {},
        "outputs": [
            {"format": o.format, "path": display_path(o.path), "sha256": o.sha256, "bytes": o.size,
             "documents": o.documents, "written": r.written,
             "settings_not_carried": WRITERS[o.format].settings_not_carried(r.quiz) if r.quiz else [],
             "losses": [loss_report(loss) for loss in r.losses if loss.format == o.format],
             "accepted_losses": [loss_report(loss) for loss in r.accepted_losses if loss.format == o.format]}
            for o in (r.outputs if not r.failed else [])
        ],
        "errors": [diagnostic(d) for d in r.diagnostics if d.severity.value == "error"],
        "warnings": [diagnostic(d) for d in r.diagnostics if d.severity.value == "warning"],
        "ignored": r.ignored,
        "timings": {stage: round(r.timings.get(stage, 0.0), 4) for stage in STAGES},
    }


def loss_report(loss: Loss) -> dict[str, Any]:
    return {"code": loss.code, "message": loss.message, "question": loss.question, "location": _span(loss.span)}


def diagnostic(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "location": _span(d.span),
        "generated": _span(d.generated),
        "hint": d.hint,
        "text": d.render(),
    }


def _span(span: SourceSpan | None) -> dict[str, Any] | None:
    return {"path": span.path, "line": span.line, "column": span.column} if span else None


def dumps(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"


class ReportNotWritten(Exception):
    """A report file that cannot be written; ``diagnostic`` says which and why (QB231)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def emit(text: str, report_file: Path | None) -> None:
    """A report to ``--report-file`` (its folders made first: ``dist/`` is not there on a fresh
    checkout), or to stdout. Raises :class:`ReportNotWritten`, never a traceback."""
    if report_file:
        try:
            report_file.parent.mkdir(parents=True, exist_ok=True)
            report_file.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ReportNotWritten(Diagnostic(
                Severity.ERROR, "QB231", f"cannot write the report {display_path(report_file)}: {exc.strerror or exc}",
                hint="give --report-file (or --report FORMAT=FILE) a file in a folder you may write to")) from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def schema_path() -> Path:
    from .resources import data_dir

    return data_dir("schemas") / "report.schema.json"


# -- CI formats: workflow annotations and JUnit XML ---------------------------------------------------


def github_annotations(command: str, result: BuildResult | None, diagnostics: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands, one per line: ``::error file=…,line=…,col=…,title=…::message``
    for each error and warning, ``::notice`` for what an output loses (unless --strict made it an
    error already). GitHub shows each on its source line in a pull request."""
    lines = [_workflow_command(d.severity.value, d.code, d.span, _text(d.message, d.hint)) for d in diagnostics]
    for r in result.results if result else []:
        if r.failed:
            continue
        for loss in r.losses:
            if not any(d.code == loss.code and d.span == loss.span and d.message.startswith(loss.message) for d in diagnostics):
                lines.append(_workflow_command("notice", loss.code, loss.span, loss.message))
    return "".join(line + "\n" for line in lines)


def _workflow_command(kind: str, code: str, span: SourceSpan | None, message: str) -> str:
    where = f"file={_property(span.path)},line={span.line},col={span.column}," if span else ""
    return f"::{kind} {where}title={_property('qti-builder ' + code)}::{_data(message)}"


def _text(message: str, hint: str | None) -> str:
    return f"{message}\nhint: {hint}" if hint else message


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def junit_xml(command: str, result: BuildResult | None, diagnostics: list[Diagnostic]) -> str:
    """A JUnit XML report: one test case per quiz source, failed when the quiz has errors (with
    them as the failure's text); its warnings and losses in ``system-out``. Problems of the run
    itself (no schemas, an output folder that cannot be written) are a test case of their own."""
    from lxml import etree

    results = result.results if result else []
    carried = {d for r in results for d in r.diagnostics}
    build_level = [d for d in diagnostics if d not in carried]
    suite_name = f"qti-builder {command}"
    cases = []
    for r in results:
        case = etree.Element("testcase", classname=suite_name, name=display_path(r.source), file=display_path(r.source),
                             time=f"{sum(r.timings.values()):.3f}")
        errors = [d for d in r.diagnostics if d.severity.value == "error"]
        if errors:
            failure = etree.SubElement(case, "failure", message=f"{len(errors)} error{'s' if len(errors) != 1 else ''}",
                                       type=errors[0].code)
            failure.text = "\n".join(d.render() for d in errors)
        notes = [d.render() for d in r.diagnostics if d.severity.value == "warning"]
        notes += [loss.render() for loss in r.losses if not r.failed]
        if notes:
            etree.SubElement(case, "system-out").text = "\n".join(notes)
        cases.append(case)
    if build_level:
        case = etree.Element("testcase", classname=suite_name, name="qti-builder", time="0.000")
        etree.SubElement(case, "error", message=build_level[0].message, type=build_level[0].code).text = \
            "\n".join(d.render() for d in build_level)
        cases.append(case)
    failures = sum(1 for c in cases if c.find("failure") is not None)
    broken = sum(1 for c in cases if c.find("error") is not None)
    total = f"{(result.timings.get('total', 0.0) if result else 0.0):.3f}"
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": str(broken), "time": total}
    root = etree.Element("testsuites", name=suite_name, **counts)
    suite = etree.SubElement(root, "testsuite", name=suite_name, skipped="0", **counts)
    suite.extend(cases)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode("utf-8")
