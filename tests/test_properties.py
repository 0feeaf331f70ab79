"""Property-based tests: the readers never raise on any input, whatever it is.

The budget is bounded for CI (the ``ci`` profile, registered in conftest.py, is the default); a
longer run: ``pytest tests/test_properties.py --hypothesis-profile=nightly``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


LINES = st.sampled_from([
    "---", "title: T", "language: ko", "id: q", "# Section {#s1}", "## Sub", "1. Question? {#q1 points=2}",
    "2. Other {type=essay}", "3. TF {type=true_false}", "4. Num {type=numerical}", "5. M {type=matching}",
    "6. O {type=ordering}", "7. The [[a | b]] and [[*c | d]] {type=fill_in_blank}", "A) one", "B) two", "- C) three",
    "   Feedback: f", "Answer: A", "Answer: B, C", "Answer: 3 ± 1", "Answer (50%): x", "정답: 참", "Explanation: e",
    "설명: 설명", "Anwser: A", "```", "~~~", "- a -> b", "- item", "", "   indented", "<script>x</script>",
    "$x^2$", "![alt](nope.png)", "{#}", "{", "Correct feedback: c", "\t", "\ufeff", "]]>",
])


def read_text(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"quiz{suffix}"
        path.write_bytes(data)
        sink = DiagnosticSink()
        result = read_quiz(path, sink)
        # Either a quiz, or at least one error explaining why not.
        assert result is not None or sink.errors


@given(st.binary(max_size=2000))
def test_markdown_reader_on_arbitrary_bytes(data: bytes) -> None:
    read_text(data, ".md")


@given(st.text(max_size=2000))
def test_markdown_reader_on_arbitrary_text(text: str) -> None:
    read_text(text.encode("utf-8", "surrogatepass"), ".md")


@given(st.lists(LINES, max_size=60))
def test_markdown_reader_on_dialect_like_text(lines: list[str]) -> None:
    read_text("\n".join(["---", "title: T", "---", *lines]).encode("utf-8"), ".md")


@given(st.text(max_size=2000))
def test_yaml_reader_on_arbitrary_text(text: str) -> None:
    read_text(text.encode("utf-8", "surrogatepass"), ".yaml")


YAML_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.sampled_from(
        ["id", "title", "sections", "questions", "type", "stem", "choices", "text", "correct", "answers", "points", "blanks"]),
        children, max_size=5)),
    max_leaves=30,
)


@given(YAML_VALUES)
def test_yaml_reader_on_model_shaped_data(value: object) -> None:
    import json

    read_text(json.dumps(value).encode(), ".yaml")  # JSON is YAML


# -- every valid model builds -------------------------------------------------------------------

from hypothesis import HealthCheck, settings  # noqa: E402

from qti_builder.checks import check_content  # noqa: E402
from qti_builder.diagnostics import Severity  # noqa: E402
from qti_builder.kinds import KINDS  # noqa: E402
from qti_builder.media import MediaSet  # noqa: E402
from qti_builder.model import Quiz  # noqa: E402
from qti_builder.package import package  # noqa: E402
from qti_builder.pipeline import BuildOptions, LoadedQuiz, render_outputs  # noqa: E402
from qti_builder.readers import SourceMap  # noqa: E402

WORDS = st.text(alphabet=st.sampled_from(list("abcXYZ 가나다한국어 <>&\"'`*_$#~{}|/\\%=]]>-\u00e9")), min_size=1, max_size=24).filter(
    lambda s: s.strip() != "")
IDENT = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)


@st.composite
def questions(draw: st.DrawFn, qid: str) -> dict:  # type: ignore[type-arg]
    kind = draw(st.sampled_from(list(KINDS)))
    base = {"type": kind, "id": qid, "stem": draw(WORDS), "points": draw(st.sampled_from([0.5, 1, 2, 3, 10]))}
    if draw(st.booleans()):
        base["feedback"] = {"general": draw(WORDS), "correct": draw(WORDS), "incorrect": draw(WORDS)}
    if kind in ("single_choice", "multiple_response"):
        n = draw(st.integers(2, 6))
        correct = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n if kind == "multiple_response" else 1))
        base["choices"] = [{"id": chr(65 + i), "text": draw(WORDS), "correct": i in correct,
                            "feedback": draw(st.one_of(st.none(), WORDS))} for i in range(n)]
        if kind == "multiple_response":
            base["negative_marking"] = draw(st.booleans())
    elif kind == "true_false":
        base["answer"] = draw(st.booleans())
    elif kind == "short_answer":
        base["answers"] = [{"text": draw(WORDS), "score": 100}] + [{"text": draw(WORDS), "score": 50} for _ in range(draw(st.integers(0, 2)))]
        base["case_sensitive"] = draw(st.booleans())
    elif kind == "numerical":
        base["answers"] = [{"value": draw(st.integers(-1000, 1000)) / 4, "tolerance": draw(st.sampled_from([0, 0.5, 2])), "score": 100}]
    elif kind in ("essay", "file_upload"):
        base["model_answer"] = draw(WORDS)
        if kind == "essay":
            base["response_format"] = draw(st.sampled_from(["editor", "plain", "monospaced"]))
            base["attachments"] = draw(st.integers(0, 2))
    elif kind == "matching":
        base["pairs"] = [{"prompt": f"{draw(WORDS)} {i}", "answer": f"{draw(WORDS)} {i}"} for i in range(draw(st.integers(2, 4)))]
    elif kind == "ordering":
        base["items"] = [f"{draw(WORDS)} {i}" for i in range(draw(st.integers(2, 5)))]
    elif kind == "fill_in_blank":
        base["stem"] = f"{draw(WORDS)} [[b1]] {draw(WORDS)} [[b2]]."
        base["blanks"] = [{"id": "b1", "kind": "text", "answers": [draw(WORDS)]},
                          {"id": "b2", "kind": "dropdown", "answers": [draw(WORDS)], "options": [f"{draw(WORDS)} x"]}]
    elif kind in ("calculated", "calculated_choice"):
        # Braces in these texts would be placeholders: the drawn words keep none.
        clean = lambda text: text.replace("{", "(").replace("}", ")")  # noqa: E731
        base["stem"] = clean(base["stem"]) + " {x} {y}"
        if "feedback" in base:
            base["feedback"] = {key: clean(text) for key, text in base["feedback"].items()}
        base["variables"] = [{"name": "x", "min": 1, "max": draw(st.integers(10, 50))},
                             {"name": "y", "formula": "x * 2.5", "decimals": 1}]
        base["sets"] = draw(st.integers(1, 5))
        if kind == "calculated":
            base.update(answer="x / 3 + y", tolerance=1, tolerance_mode="percent")
        else:
            base["choices"] = [{"id": "A", "text": "{=x + 1:0}", "correct": True}, {"id": "B", "text": "{=x + 2:0}"}]
    else:
        assert kind == "text_only", f"questions() draws no fields of {kind} questions: add them above"
    return base


#: Any combination of quiz settings, each within the model's range.
QUIZ_SETTINGS = st.fixed_dictionaries({}, optional={
    "time_limit": st.integers(1, 10080), "allowed_attempts": st.one_of(st.integers(1, 1000), st.just("unlimited")),
    "shuffle_answers": st.booleans(), "show_correct_answers": st.booleans(), "one_question_at_a_time": st.booleans(),
    "quiz_type": st.sampled_from(["graded", "practice"]),
})


@st.composite
def quizzes(draw: st.DrawFn) -> Quiz:
    ids = draw(st.lists(IDENT, min_size=1, max_size=5, unique=True))
    data = {"id": "generated", "title": draw(WORDS), "language": draw(st.sampled_from(["en", "ko"])),
            "settings": draw(QUIZ_SETTINGS),
            "sections": [{"id": "section-main", "title": draw(WORDS), "questions": [draw(questions("q-" + i)) for i in ids]}]}
    return Quiz.model_validate(data)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(quizzes(), st.integers(0, 3))
def test_every_valid_model_builds_valid_and_deterministic(quiz: Quiz, qti_variants: int) -> None:
    # qti_variants: calculated questions as fixed QTI items too (an output setting: not in
    # QUIZ_SETTINGS, which the import properties expect back)
    quiz = quiz.model_copy(update={"settings": quiz.settings.model_copy(update={"qti_variants": qti_variants or None})})
    sink = DiagnosticSink()
    check_content(quiz, SourceMap("generated.yaml"), Path("."), sink)
    if sink.errors:  # refused with a located reason before any writing: fine, that is the contract
        assert {d.code for d in sink.errors} <= {"QB144", "QB152"}
        return
    loaded = [LoadedQuiz(Path("generated.yaml"), quiz, SourceMap("generated.yaml"), MediaSet())]
    first = render_outputs(loaded, BuildOptions(), sink)
    errors = [d.render() for d in sink.items if d.severity is Severity.ERROR]
    assert errors == []
    second = render_outputs(loaded, BuildOptions(), DiagnosticSink())
    assert [package(o) for o in first] == [package(o) for o in second]
