"""The choice questions' rules on their choices (unique ids, no id a feedback's name, how many are
correct), which run in C where they can (model/questions.py): for any choices, a question is
accepted or refused, with the same message, as the rules written as plain loops refuse it (kept
here as they were written before)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from qti_builder.model import Question
from qti_builder.model.questions import RESERVED_CHOICE_IDS

_QUESTION: TypeAdapter[object] = TypeAdapter(Question)
#: Ids that repeat and ids that are a feedback's name in any case, beside plain ones.
_IDS = st.sampled_from(["A", "B", "C", "a", "general", "Correct", "INCORRECT", "partial", "Partially_Correct", "solution",
                        "solutions", "x1"])


def _as_loops(kind: str, ids: list[str], correct: list[bool]) -> str | None:
    """The message of the first rule the choices break, as the rules were written with loops."""
    dupes = sorted({i for i in ids if ids.count(i) > 1}) if len(set(ids)) < len(ids) else []
    if dupes:
        return f"choice ids must be unique, repeated: {', '.join(dupes)}"
    reserved = sorted(i for i in ids if i.lower() in RESERVED_CHOICE_IDS)
    if reserved:
        return f"choice ids {', '.join(reserved)} are reserved for the names of feedback"
    n = sum(c for c in correct)
    if kind == "single_choice" and n != 1:
        return f"a single-choice question needs exactly one correct choice, found {n}"
    if kind == "multiple_response" and not n:
        return "a multiple-response question needs at least one correct choice"
    return None


def _refused(question: dict[str, object]) -> str | None:
    try:
        _QUESTION.validate_python(question)
    except ValidationError as exc:
        [error] = exc.errors()
        return str(error["msg"]).removeprefix("Value error, ")
    return None


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["single_choice", "multiple_response"]),
       choices=st.lists(st.tuples(_IDS, st.booleans()), min_size=2, max_size=6))
def test_choice_rules_refuse_as_the_loops_did(kind: str, choices: list[tuple[str, bool]]) -> None:
    ids, correct = [i for i, _ in choices], [c for _, c in choices]
    question = {"type": kind, "id": "q", "stem": "?",
                "choices": [{"id": i, "text": f"option {k}", "correct": c} for k, (i, c) in enumerate(choices)]}
    assert _refused(question) == _as_loops(kind, ids, correct)


def test_each_rule_is_met_and_broken() -> None:
    """The examples the property must cover: each message, and a question accepted."""
    def single(*choices: tuple[str, bool]) -> dict[str, object]:
        return {"type": "single_choice", "id": "q", "stem": "?", "choices": [{"id": i, "text": i, "correct": c} for i, c in choices]}

    assert _refused(single(("A", True), ("B", False))) is None
    assert _refused(single(("A", True), ("A", False), ("B", False), ("B", False))) == "choice ids must be unique, repeated: A, B"
    assert _refused(single(("General", True), ("correct", False))) == \
        "choice ids General, correct are reserved for the names of feedback"
    assert _refused(single(("A", True), ("B", True))) == "a single-choice question needs exactly one correct choice, found 2"
    assert _refused(single(("A", False), ("B", False))) == "a single-choice question needs exactly one correct choice, found 0"
