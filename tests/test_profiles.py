"""``check --profile canvas``: what Canvas Classic Quizzes loses, per question."""

from __future__ import annotations

from pathlib import Path

from helpers import ROOT, SEED_SOURCE
from typer.testing import CliRunner

from qti_builder.cli import app

FUNDAMENTALS = ROOT / "source" / "python-fundamentals.md"


def canvas_warnings(path) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    # In English whatever the quiz's language (a Korean quiz prints them in Korean: test_messages_translated_everywhere).
    result = CliRunner().invoke(app, ["check", str(path), "--profile", "canvas", "--lang", "en"])
    assert result.exit_code == 0, result.stderr
    found: dict[str, list[str]] = {}
    for line in result.stderr.splitlines():
        if "warning[QB601]: Canvas: " in line:
            message, question = line.split("warning[QB601]: Canvas: ", 1)[1].rsplit(" (question '", 1)
            found.setdefault(question.rstrip("')"), []).append(message)
    return found


def test_every_kind_reports_what_the_canvas_package_loses(tmp_path: Path) -> None:
    # The bundled source accepts these losses (ignore=QB601); the profile's findings are those of its questions.
    source = tmp_path / FUNDAMENTALS.name
    source.write_text(FUNDAMENTALS.read_text(encoding="utf-8").replace(" ignore=QB601", ""), encoding="utf-8")
    found = canvas_warnings(source)
    # Worked out from source/python-fundamentals.md and what writers/canvas.py can write
    # (docs/lms-behaviour.md): what Canvas keeps (feedback, distractors, blanks' answers, model
    # answers, text-only items, numerical margins) is not mentioned.
    assert set(found) == {"def-keyword", "immutable", "division", "int-function", "loop-blanks", "type-examples",
                          "run-order", "list-vs-tuple", "squares-upload"}
    assert found["def-keyword"] == ["pinned choices (fixed) are shuffled with the others: Canvas pins none",
                                    "Canvas Classic keeps questions in their order: the section 'syntax' is not shuffled"]
    # Two right and two wrong options with negative marking: each wrong tick takes one right
    # option's share away, which is Canvas's own rule, so the scores are kept.
    assert [m.split(":")[0] for m in found["immutable"]] == ["partially-correct feedback is left out"]
    # "Answer (50%): 3": the only answer below full credit.
    assert found["division"] == ["answers worth less than 100 % are left out (with their feedback): "
                                 "Canvas gives every answer full credit"]
    # "*int*" is worth 50 %: left out as such, so its wildcard needs no word of its own.
    assert found["int-function"] == found["division"]
    assert len(found["loop-blanks"]) == 1 and "wrong options are left out" in found["loop-blanks"][0]
    assert found["type-examples"] == ["matching answers are plain text in Canvas: their formatting (code, math, images) is lost"]
    assert found["run-order"][0].startswith("Canvas Classic has no ordering type: it becomes one drop-down per position")
    assert found["list-vs-tuple"] == ["the word limits are not carried: Canvas's essay question has no such settings"]
    assert found["squares-upload"] == ["the number of files and the allowed file types are not carried: "
                                       "Canvas's file-upload question has no such settings"]


def test_korean_true_false_and_the_seed_quiz(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "tf.md"
    source.write_text("---\ntitle: T\nlanguage: ko\n---\n1. 참일까? {#tf}\n\n정답: 참\n", encoding="utf-8")
    assert canvas_warnings(source) == {"tf": [
        "becomes a multiple-choice question with the answers 참/거짓: Canvas makes true/false questions only of "
        "the English answers True/False"]}
    # Shuffled single-choice questions and plain essays: Canvas keeps everything of the seed quiz.
    assert canvas_warnings(SEED_SOURCE) == {}


def test_groups_and_settings_canvas_has_no_place_for(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "groups.md"
    source.write_text("""---
title: Groups
---

# Drawn {#drawn select=1}

1. Pick one {#a points=2}

A) x
B) y

Answer: A

2. Another {#b points=3 type=short_answer case_sensitive=true}

Answer: yes

# Nested draw {#outer select=1}

## Inner {#inner}

1. Inner question {#c type=numerical unit=cm}

Answer: 4
""", encoding="utf-8")
    found = canvas_warnings(source)
    assert "a" not in found  # the group's points are its first question's: nothing changes for it
    assert found["b"] == ["case-sensitive matching is not carried: Canvas's short-answer question has no such setting",
                          "Canvas gives every question of a group the same points: this one is worth 2 in the group "
                          "'drawn', not 3"]
    assert "Canvas has no unit field: the unit (cm) is written after the question text" in found["c"]
    assert any("the section 'outer' draws among nested sections" in m for m in found["c"])


def test_a_group_of_questions_worth_nothing_is_pointed_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "zero.md"
    source.write_text("---\ntitle: Zero\n---\n\n# Practice {#practice select=1}\n\n"
                      "1. One {#one points=0}\n\nAnswer: true\n\n2. Two {#two points=0}\n\nAnswer: false\n", encoding="utf-8")
    found = canvas_warnings(source)
    assert any("the group 'practice' is worth 0 points per question" in m for m in found["one"])
    assert "two" not in found  # said once, at the group's first question


def test_unknown_profile_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["check", str(SEED_SOURCE), "--profile", "blackboard"])
    assert result.exit_code == 2 and "unknown profile blackboard" in result.stderr
