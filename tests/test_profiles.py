"""``check --profile canvas``: what Canvas Classic Quizzes loses, per question."""

from __future__ import annotations

from conftest import ROOT, SEED_SOURCE
from typer.testing import CliRunner

from qti_builder.cli import app

FUNDAMENTALS = ROOT / "source" / "python-fundamentals.md"


def canvas_warnings(path) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(app, ["check", str(path), "--profile", "canvas"])
    assert result.exit_code == 0, result.stderr
    found: dict[str, list[str]] = {}
    for line in result.stderr.splitlines():
        if "warning[QB601]: Canvas: " in line:
            message, question = line.split("warning[QB601]: Canvas: ", 1)[1].rsplit(" (question '", 1)
            found.setdefault(question.rstrip("')"), []).append(message)
    return found


def test_every_kind_reports_what_canvas_loses() -> None:
    found = canvas_warnings(FUNDAMENTALS)
    # Worked out from source/python-fundamentals.md and shared/docs/lms-import-facts.md.
    assert set(found) == {"def-keyword", "immutable", "division", "int-function", "loop-blanks", "type-examples",
                          "run-order", "longer-answers", "list-vs-tuple", "squares-upload"}
    assert found["def-keyword"] == ["pinned choices (fixed) may be shuffled: Canvas shuffles all answers or none"]
    assert any("partial credit" in m for m in found["immutable"]) and "partially-correct feedback is lost" in found["immutable"]
    assert found["division"] == ["the tolerance is lost: Canvas accepts only the exact value, as text",
                                 "partial-credit answers and per-answer feedback are lost"]
    assert any("drop-down blanks come out broken" in m for m in found["loop-blanks"])
    assert any("dropped" in m for m in found["run-order"])
    assert any("not supported" in m for m in found["squares-upload"])


def test_korean_true_false_and_unshuffled_answers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "tf.md"
    source.write_text("---\ntitle: T\nlanguage: ko\n---\n1. 참일까? {#tf}\n\n정답: 참\n", encoding="utf-8")
    assert canvas_warnings(source) == {"tf": ["becomes a multiple-choice question: Canvas recognises true/false only with English labels"]}
    seed = canvas_warnings(SEED_SOURCE)
    choice = {q: m for q, m in seed.items() if q not in ("trainer-and-scaling-config", "tune-train-autoscaling")}
    assert len(choice) == 8 and all(
        m == ["answers are not shuffled: Canvas ignores per-question shuffling (set shuffle on the section)"] for m in choice.values())
    assert seed["tune-train-autoscaling"] == ["response format, expected length, word limits and attachments are lost",
                                              "the model answer becomes the essay's example solution"]


def test_unknown_profile_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["check", str(SEED_SOURCE), "--profile", "blackboard"])
    assert result.exit_code == 2 and "unknown profile blackboard" in result.stderr
