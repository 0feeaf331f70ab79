"""The machine-readable build report (``--report json``), for CI.

Its shape is fixed by ``schemas/report.schema.json`` (documented in docs/ci.md); the tests
validate every report they make against it. Paths are as the user gave them (relative to the
working directory when below it), times in seconds, digests lowercase hex.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import __version__
from .diagnostics import Diagnostic, SourceSpan, display_path
from .pipeline import STAGES, BuildResult, QuizResult, question_counts
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
        },
        "timings": {k: round(v, 4) for k, v in (result.timings if result else {}).items()},
        "errors": [diagnostic(d) for d in build_level],
        "quizzes": quizzes,
    }


def quiz_report(r: QuizResult) -> dict[str, Any]:
    counts = question_counts(r.quiz) if r.quiz else {}
    return {
        "source": display_path(r.source),
        "id": r.quiz.id if r.quiz else None,
        "title": r.quiz.title if r.quiz else None,
        "status": "failed" if r.failed else "ok",
        "questions": sum(counts.values()),
        "question_types": counts,
        "settings": r.quiz.settings.given() if r.quiz else {},
        "outputs": [
            {"format": o.format, "path": display_path(o.path), "sha256": o.sha256, "bytes": o.size,
             "documents": o.documents, "written": r.written,
             "settings_not_carried": WRITERS[o.format].settings_not_carried(r.quiz) if r.quiz else []}
            for o in (r.outputs if not r.failed else [])
        ],
        "errors": [diagnostic(d) for d in r.diagnostics if d.severity.value == "error"],
        "warnings": [diagnostic(d) for d in r.diagnostics if d.severity.value == "warning"],
        "timings": {stage: round(r.timings.get(stage, 0.0), 4) for stage in STAGES},
    }


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


def schema_path() -> Path:
    from .resources import data_dir

    return data_dir("schemas") / "report.schema.json"
