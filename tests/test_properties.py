"""Property-based tests: the readers never raise on any input, whatever it is.

The budget is bounded for CI (the ``ci`` profile, registered in conftest.py, is the default); a
longer run: ``pytest tests/test_properties.py --hypothesis-profile=nightly``.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from qti_builder.diagnostics import DiagnosticSink, Severity, display_path
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz
from helpers.strategies import quizzes


LINES = st.sampled_from([
    "---", "title: T", "language: ko", "id: q", "# Section {#s1}", "## Sub", "1. Question? {#q1 points=2}",
    "2. Other {type=essay}", "3. TF {type=true_false}", "4. Num {type=numerical}", "5. M {type=matching}",
    "6. O {type=ordering}", "7. The [[a | b]] and [[*c | d]] {type=fill_in_blank}", "A) one", "B) two", "- C) three",
    "   Feedback: f", "Answer: A", "Answer: B, C", "Answer: 3 ± 1", "Answer (50%): x", "정답: 참", "Explanation: e",
    "설명: 설명", "Anwser: A", "```", "~~~", "- a -> b", "- item", "", "   indented", "<script>x</script>",
    "$x^2$", "![alt](nope.png)", "{#}", "{", "Correct feedback: c", "\t", "\ufeff", "]]>",
])


def read_text(data: bytes, suffix: str) -> None:
    """Reading never raises; it gives a quiz exactly when it reports no error, and every problem it
    reports is located in the file, with a code, a message and, for an error, a hint."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"quiz{suffix}"
        path.write_bytes(data)
        sink = DiagnosticSink()
        result = read_quiz(path, sink)
        assert (result is None) == bool(sink.errors), [d.render() for d in sink.items]
        lines = len(data.decode("utf-8", "replace").splitlines()) + 1  # any line break, \r and \u2028 too
        for d in sink.items:
            assert d.span is not None and d.span.path == display_path(path), d.render()
            assert 1 <= d.span.line <= lines and d.span.column >= 1, d.render()
            assert re.fullmatch(r"QB[0-9]{3}", d.code) and d.message.strip(), d.render()
            assert d.severity is not Severity.ERROR or (d.hint or "").strip(), d.render()
        if result is not None:
            quiz, _ = result
            assert Quiz.model_validate(quiz.model_dump()) == quiz  # a valid model, whole
            ids = [q.id for q in quiz.iter_questions()]
            assert len(ids) == len(set(ids))


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
from qti_builder.media import MediaSet  # noqa: E402
from qti_builder.package import package  # noqa: E402
from qti_builder.pipeline import BuildOptions, LoadedQuiz, render_outputs  # noqa: E402
from qti_builder.readers import SourceMap  # noqa: E402


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
