"""The explanations part of an answer key (readers/markdown/syntax.py, ``explanations_heading``)
read from small sources written here: headed ``Explanations`` (the plural of a label word) or
``[해설]`` (the label in brackets), its numbered lines explain the questions of their numbers, as a
student reads them. Each case was written against a sampled mutmut survivor of the module
(issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.reading import place, read_body, source_text

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.writers.markdown_source import read_back, write_source


def _answers(quiz) -> list[tuple[str, list[str], str | None]]:
    """Per question: its text, its right options' texts and its explanation."""
    return [(q.stem, [c.text for c in q.choices if c.correct], q.feedback.general) for q in quiz.iter_questions()]


@pytest.mark.parametrize("language, questions, key, heading", [
    ("en", "1. Which is even?\nA) 3\nB) 4\n\n2. Which is prime?\nA) 7\nB) 8\n\n", "Answer Key\n1. B\n2. A\n",
     "Explanations"),
    ("en", "1. Which is even?\nA) 3\nB) 4\n\n2. Which is prime?\nA) 7\nB) 8\n\n", "Answer Key\n1. B\n2. A\n",
     "## Explanations:"),
    ("ko", "1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n", "[정답]\n1. ②  2. ①\n", "[해설]"),
], ids=["plural", "plural-heading-with-colon", "bracketed"])
def test_an_explanations_part_explains_its_questions(language: str, questions: str, key: str, heading: str,
                                                     tmp_path: Path) -> None:
    body = questions + key + f"\n{heading}\n1. 4 = 2 x 2\n2. 7 = 1 x 7 only\n"
    quiz, told = read_body(tmp_path, body, language)
    assert told == []
    assert [(right, explanation) for _, right, explanation in _answers(quiz)] == [
        (["4"], "4 = 2 x 2"), (["7"], "7 = 1 x 7 only")]


def test_a_slash_between_capitals_keeps_one_accepted_answer(tmp_path: Path) -> None:
    """``TCP/IP``: a slash between letters or digits is part of the answer (``km/h`` too), not a
    separator of two accepted answers."""
    quiz, told = read_body(tmp_path, "1. Which protocol suite? {type=short_answer}\nAnswer: TCP/IP\n")
    assert told == []
    (q,) = quiz.iter_questions()
    assert [a.text for a in q.answers] == ["TCP/IP"]


@pytest.mark.parametrize("second", ["② 는 틀렸다.", "[정답] ① 이다."], ids=["option-marker", "bracketed-label"])
def test_an_explanation_line_the_reader_would_take_for_something_stays_text(second: str, tmp_path: Path) -> None:
    """The source ``import`` writes (writers/markdown_source.py asks ``starts_something`` of each
    line): an explanation's second line that starts like an option or a bracketed label is written
    indented, so the written Markdown reads back as the same quiz."""
    path = tmp_path / "q.md"
    path.write_text(f"---\ntitle: T\nlanguage: ko\n---\n1. Q?\n① x\n② y\n정답: ①\n해설: 첫 줄.\n  {second}\n", encoding="utf-8")
    sink = DiagnosticSink()
    quiz, _ = read_quiz(path, sink)
    assert sink.items == []
    (q,) = quiz.iter_questions()
    assert q.feedback.general == f"첫 줄.\n{second}"
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    assert f"설명: 첫 줄.\n   {second}\n" in written.text
    assert read_back(written.text, ".md") == quiz


@pytest.mark.parametrize("language, body, right", [
    ("en", "1. Which are prime?\nA) 4\nB) 3\nC) 8\nD) 5\nAnswer: B and D\n", ["3", "5"]),
    ("ko", "1. 소수를 고르시오.\n① 4\n② 3\n③ 8\n④ 5\n정답: ② 및 ④\n", ["3", "5"]),
], ids=["and", "및"])
def test_options_joined_by_the_language_s_and_word_are_all_correct(language: str, body: str, right: list[str],
                                                                   tmp_path: Path) -> None:
    """``B and D``, ``② 및 ④``: two correct options (a multiple-response question), not QB125 nor
    ② alone with a warning (the and-word was split off as a part of its own before: fixed)."""
    quiz, told = read_body(tmp_path, body, language)
    assert told == []
    (q,) = quiz.iter_questions()
    assert (q.type, [c.text for c in q.choices if c.correct]) == ("multiple_response", right)


def test_an_answer_naming_options_by_and_in_a_question_without_options(tmp_path: Path) -> None:
    """QB173 says the answer names options (it does: ``B and D``)."""
    body = "1. Which numbers are prime?\n\nAnswer: B and D\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert told == [(*place(text, "B and D"), "QB173", "the answer 'B and D' names an option, but the question has no options")]
