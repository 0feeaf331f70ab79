"""The canonical model: validation rules, the discriminated union and its JSON Schema."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from qti_builder.model import FillInBlankQuestion, MultipleResponseQuestion, NumericAnswer, Question, Quiz, SingleChoiceQuestion
from qti_builder.kinds import KINDS

CHOICES = [{"id": "A", "text": "a", "correct": True}, {"id": "B", "text": "b"}]


def quiz(*questions: dict) -> dict:  # type: ignore[type-arg]
    return {"id": "q", "title": "T", "sections": [{"id": "s", "title": "S", "questions": list(questions)}]}


def test_union_dispatches_on_type() -> None:
    question = TypeAdapter(Question).validate_python({"type": "single_choice", "id": "x", "stem": "?", "choices": CHOICES})
    assert isinstance(question, SingleChoiceQuestion)


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ({"type": "single_choice", "id": "x", "stem": "?", "choices": [{"id": "A", "text": "a"}, {"id": "B", "text": "b"}]},
         "exactly one correct choice, found 0"),
        ({"type": "single_choice", "id": "x", "stem": "?", "choices": [{"id": "A", "text": "a", "correct": True}, {"id": "A", "text": "b"}]},
         "choice ids must be unique, repeated: A"),
        ({"type": "multiple_response", "id": "x", "stem": "?", "choices": [{"id": "A", "text": "a"}, {"id": "B", "text": "b"}]},
         "at least one correct choice"),
        ({"type": "multiple_response", "id": "x", "stem": "?",
          "choices": [{"id": "A", "text": "a", "correct": True, "score": 60}, {"id": "B", "text": "b", "correct": True}]},
         "add up to 110 %, not 100 %"),
        ({"type": "fill_in_blank", "id": "x", "stem": "The [[b1]] and [[b9]].", "blanks": [{"id": "b1", "answers": ["x"]}]},
         "must match the blanks defined (b1), each once"),
        ({"type": "numerical", "id": "x", "stem": "?", "answers": [{"value": 1, "score": 50}]}, "an answer worth 100 %"),
        ({"type": "single_choice", "id": "1x", "stem": "?", "choices": CHOICES}, "String should match pattern"),
        ({"type": "essay", "id": "e", "stem": "?", "min_words": 50, "max_words": 10}, "min_words (50) is more than max_words (10)"),
        ({"type": "fill_in_blank", "id": "f", "stem": "[[b]]", "blanks": [{"id": "b", "kind": "dropdown", "answers": ["x"]}]},
         "needs at least one wrong option"),
        ({"type": "fill_in_blank", "id": "f", "stem": "[[b]]", "blanks": [{"id": "b", "answers": [""]}]}, "at least 1 character"),
        ({"type": "single_choice", "id": "s", "stem": "?", "choices": [{"id": "correct", "text": "a", "correct": True}, {"id": "B", "text": "b"}]},
         "choice ids correct are reserved"),
        ({"type": "multiple_response", "id": "m", "stem": "?",
          "choices": [{"id": "A", "text": "a", "correct": True}, {"id": "B", "text": "b", "score": 20}]},
         "choices B: a correct choice needs a positive score"),
    ],
)
def test_invalid_questions(question: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValidationError) as failed:
        Quiz.model_validate(quiz(question))
    assert message in str(failed.value)


def test_quiz_level_rules() -> None:
    one = {"type": "single_choice", "id": "x", "stem": "?", "choices": CHOICES}
    with pytest.raises(ValidationError, match="repeated: x"):
        Quiz.model_validate(quiz(one, one))
    with pytest.raises(ValidationError, match="the quiz has no questions"):
        Quiz.model_validate(quiz())
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Quiz.model_validate({**quiz(one), "colour": "red"})


def test_partial_credit_defaults() -> None:
    question = MultipleResponseQuestion.model_validate({
        "id": "x", "stem": "?", "negative_marking": True,
        "choices": [{"id": k, "text": k, "correct": k in "ABC"} for k in "ABCDE"]})
    scores = question.choice_scores()
    assert scores["A"] == pytest.approx(100 / 3) and scores["D"] == scores["E"] == -50


def test_numeric_bounds() -> None:
    assert NumericAnswer(value=200, tolerance=5, tolerance_mode="percent").bounds() == (190, 210)
    assert NumericAnswer(value=-2, tolerance=0.5).bounds() == (-2.5, -1.5)


def test_blank_markers_are_checked() -> None:
    blanks = [{"id": "b", "answers": ["1"]}, {"id": "a", "answers": ["2"]}]
    # Each marker has its blank, whatever the order the blanks are defined in.
    question = FillInBlankQuestion.model_validate({"id": "x", "stem": "[[a]] [[b]]", "blanks": blanks})
    assert [(b.id, b.answers) for b in question.blanks] == [("b", ["1"]), ("a", ["2"])]
    for stem in ("[[a]] [[c]]", "[[a]]", "[[a]] [[b]] [[a]]"):  # a marker without a blank, a blank without one, twice
        with pytest.raises(ValidationError, match=r"must match the blanks defined \(b, a\), each once"):
            FillInBlankQuestion.model_validate({"id": "x", "stem": stem, "blanks": blanks})


def test_select_cannot_exceed_the_section() -> None:
    one = {"type": "single_choice", "id": "x", "stem": "?", "choices": CHOICES}
    data = quiz(one)
    data["sections"][0]["select"] = 2
    with pytest.raises(ValidationError, match="draws 2 but holds only 1"):
        Quiz.model_validate(data)


def test_source_json_schema_is_what_editors_need() -> None:
    from qti_builder.model.schema import source_json_schema

    schema = source_json_schema()
    assert "id" not in schema["required"] and "title" in schema["required"]  # the id comes from the file name
    kinds = {d["properties"]["type"]["const"]: d for d in schema["$defs"].values() if "const" in d.get("properties", {}).get("type", {})}
    assert set(kinds) == set(KINDS) and all("type" in d["required"] for d in kinds.values())
    assert kinds["essay"]["properties"]["model_answer"]["anyOf"][0]["contentMediaType"] == "text/markdown"


def test_yaml_sources_pass_the_source_json_schema() -> None:
    """The schema editors get accepts real sources (checked by jsonschema, another implementation)."""
    from pathlib import Path

    import jsonschema
    import yaml

    from qti_builder.model.schema import source_json_schema

    fixtures = Path(__file__).parent / "fixtures"
    validator = jsonschema.Draft202012Validator(source_json_schema())
    for name in ("all-types.yaml", "moodle-limits.yaml"):
        assert list(validator.iter_errors(yaml.safe_load((fixtures / name).read_text(encoding="utf-8")))) == []
    errors = list(validator.iter_errors({"title": "T", "sections": [{"id": "s", "title": "S", "questions": [{"id": "q", "stem": "?"}]}]}))

    def messages(error):  # type: ignore[no-untyped-def]
        yield error.message
        for child in error.context or ():
            yield from messages(child)

    assert errors and any("'type' is a required property" in m for e in errors for m in messages(e))


def test_blanks_with_their_own_points_make_the_question_worth_their_sum(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 31 item 8: all blanks state their points or none; the question is worth their sum,
    and points the source states otherwise are a located error (YAML here, Markdown in
    test_markdown_reader)."""
    from helpers import write

    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.readers import read_quiz

    stem = "The [[a]] in [[b]]"
    q = FillInBlankQuestion(id="q", stem=stem, blanks=[{"id": "a", "answers": ["Seine"], "points": 2},
                                                      {"id": "b", "answers": ["Paris"], "points": 0.5}])
    assert q.points == 2.5 and q.blank_points() == [2.0, 0.5] and q.unequal_blanks
    even = FillInBlankQuestion(id="q", stem=stem, points=3, blanks=[{"id": "a", "answers": ["x"]}, {"id": "b", "answers": ["y"]}])
    assert even.blank_points() == [1.5, 1.5] and not even.unequal_blanks
    yaml = ("title: T\nsections:\n  - id: s\n    title: S\n    questions:\n"
            "      - type: fill_in_blank\n        id: q\n        points: 5\n        stem: The [[a]] in [[b]]\n"
            "        blanks:\n          - {id: a, answers: [Seine], points: 2}\n          - {id: b, answers: [Paris], points: 1}\n")
    sink = DiagnosticSink()
    assert read_quiz(write(tmp_path, "q.yaml", yaml), sink) is None
    assert [(d.code, d.span.line, d.message) for d in sink.sorted()] == [
        ("QB201", 8, "the question is worth 5 points, but its blanks' points add up to 3 (in fill_in_blank question 'q')")]
    sink = DiagnosticSink()
    assert read_quiz(write(tmp_path, "r.yaml", yaml.replace("points: 5", "points: 3").replace(", points: 1}", "}")), sink) is None
    assert [(d.code, d.span.line) for d in sink.sorted()] == [("QB201", 10)]
    assert "blank 'b' does not" in sink.sorted()[0].message
    sink = DiagnosticSink()
    (read,) = [read_quiz(write(tmp_path, "s.yaml", yaml.replace("points: 5", "points: 3")), sink)]
    assert read is not None and [b.points for b in read[0].sections[0].questions[0].blanks] == [2.0, 1.0]
