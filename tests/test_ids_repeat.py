"""The checks of repeated ids walk the quiz only where an id repeats (readers/base.py ``ids_repeat``,
the model's ``Quiz._unique_ids``): a repeat anywhere, at any depth, is still found and reported
as before, and ids the reader makes that repeat are still made distinct."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz
from qti_builder.readers.base import check_unique_ids, ids_repeat
from qti_builder.readers.source_map import SourceMap


def _question(ident: object) -> dict[str, object]:
    return {"id": ident, "type": "single_choice", "stem": "Q?",
            "choices": [{"id": "A", "text": "x", "correct": True}, {"id": "B", "text": "y"}]}


def _nested(inner_question_id: str) -> list[dict[str, object]]:
    """Two top-level sections, the second with a subsection two levels down holding a question."""
    deep = {"id": "deep", "title": "Deep", "questions": [_question(inner_question_id)]}
    return [{"id": "s1", "title": "One", "questions": [_question("q1"), _question("q2")]},
            {"id": "s2", "title": "Two", "sections": [{"id": "mid", "title": "Mid", "sections": [deep]}]}]


@pytest.mark.parametrize("repeated", ["q1", "s1", "mid"])
def test_a_repeat_deep_in_the_subsections_is_found(repeated: str) -> None:
    assert ids_repeat(_nested(repeated))
    assert not ids_repeat(_nested("q3"))


def test_ids_that_are_no_text_are_not_counted_and_tuples_are_walked() -> None:
    assert not ids_repeat([{"id": None, "questions": [{"id": None}, {"id": 1}, {"id": 1}, "not a dict"]}, "x"])
    assert ids_repeat(({"id": "a", "questions": ({"id": "a"},)},))
    assert not ids_repeat(None) and not ids_repeat("sections")


def test_check_unique_ids_reports_a_repeat_two_subsections_down() -> None:
    data = {"sections": _nested("q2")}
    source, sink = SourceMap("t.md"), DiagnosticSink()
    source.at(("sections", 0, "questions", 1, "id"), 7, 3)
    source.at(("sections", 1, "sections", 0, "sections", 0, "questions", 0, "id"), 20, 5)
    check_unique_ids(data, source, sink)
    assert [(d.code, d.message, d.span.line, d.span.column) for d in sink.errors if d.span] == \
        [("QB133", "id 'q2' is already used on line 7", 20, 5)]
    # Made unique where it repeats, so the rest of the quiz is still checked.
    assert data["sections"][1]["sections"][0]["sections"][0]["questions"][0]["id"] == "q2.20.5"  # type: ignore[index]


def test_without_a_repeat_nothing_is_reported_or_changed() -> None:
    data = {"sections": _nested("q3")}
    before = repr(data)
    sink = DiagnosticSink()
    check_unique_ids(data, SourceMap("t.md"), sink)
    assert not sink.items and repr(data) == before


def test_made_ids_that_repeat_across_sections_are_made_distinct(tmp_path: Path) -> None:
    question = "1. Which is right?\n\nA) x\nB) y\n\nAnswer: A\n\n"
    source = tmp_path / "same.md"
    source.write_text(f"---\ntitle: T\n---\n# One\n\n{question}# Two\n\n## Deeper\n\n{question}", encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(source, sink)
    assert read is not None and not sink.errors, sink.items
    quiz = read[0]
    first, second = quiz.sections[0].questions[0].id, quiz.sections[1].sections[0].questions[0].id
    assert second == f"{first}-2"


def test_the_model_names_the_ids_that_repeat() -> None:
    data = {"id": "quiz", "title": "T", "sections": _nested("s2")}
    data["sections"][0]["questions"].append(_question("q1"))  # type: ignore[index]
    with pytest.raises(ValidationError, match=r"ids must be unique in a quiz, repeated: q1, s2"):
        Quiz.model_validate(data)
    assert Quiz.model_validate({"id": "quiz", "title": "T", "sections": _nested("q3")}).sections[1].sections[0].id == "mid"
