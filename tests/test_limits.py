"""Size limits that real banks reach (issue 14): no limit a 100,000-question bank hits, every limit
an option named in its error, and the guards against amplification kept.

Not timed: these tests check what reads, not how fast.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz, SingleChoiceQuestion
from qti_builder.readers import read_quiz
from qti_builder.writers.markdown_source import write_source

FM = "---\ntitle: T\n---\n"


def read(path: Path) -> tuple[Quiz | None, list[str]]:
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), [d.render() for d in sink.sorted()]


def choice(number: int | str) -> str:
    return f"{number}. What is {number} plus one?\n\nA) {number}\nB) {int(number) + 1}\n\nAnswer: B\n\n"


# -- question numbers ----------------------------------------------------------------------------


def test_question_numbers_past_9999_read(tmp_path: Path) -> None:
    # CommonMark takes up to 9 digits as an ordered-list number; so does the reader.
    numbers = [9998, 9999, 10000, 10001, 10002, 123456789]
    quiz, problems = read(write(tmp_path, "q.md", FM + "".join(choice(n) for n in numbers)))
    assert problems == []
    assert quiz is not None
    questions = list(quiz.iter_questions())
    assert [q.stem for q in questions] == [f"What is {n} plus one?" for n in numbers]
    assert all(isinstance(q, SingleChoiceQuestion) and [c.id for c in q.choices if c.correct] == ["B"] for q in questions)


def test_a_ten_digit_question_number_is_one_located_error(tmp_path: Path) -> None:
    # Line 11 is "1234567890. What is ...": one error there, none about the questions around it.
    _, problems = read(write(tmp_path, "q.md", FM + choice(1) + choice(1234567890) + choice(3)))
    assert len(problems) == 1
    assert problems[0].startswith(
        f"{tmp_path / 'q.md'}:11:1: error[QB147]: question number 1234567890 has 10 digits, more than the 9 a Markdown list number may have")


def test_a_ten_digit_number_in_a_description_is_indented_by_the_source_writer() -> None:
    quiz = Quiz.model_validate({"id": "d", "title": "D", "description": "1234567890. is a big number", "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "true_false", "id": "t", "stem": "Big?", "answer": True}]}]})
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    assert "\n   1234567890. is a big number\n" in written.text


def test_the_source_writer_numbers_10001_questions_so_that_they_read_back() -> None:
    quiz = Quiz.model_validate({"id": "big", "title": "Big", "sections": [{"id": "s", "title": "S", "questions": [
        {"type": "single_choice", "id": f"q{i}", "stem": f"What is {i} plus one?",
         "choices": [{"id": "A", "text": str(i)}, {"id": "B", "text": str(i + 1), "correct": True}]}
        for i in range(1, 10_002)]}]})
    written = write_source(quiz)  # reads the Markdown back and compares it with the model
    assert (written.suffix, written.reason) == (".md", None)
    assert "\n10001. What is 10001 plus one? {#q10001}\n" in written.text
