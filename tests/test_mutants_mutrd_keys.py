"""Answer keys (readers/markdown/keys.py) read from small sources written here: a key after the
first question ends at the next question followed by its options (it is not an entry of the key),
and an explanations part whose lines repeat the answer before a label (``1. ② 풀이: …``) explains
with the answer and the text after the label. Each case was written against a sampled mutmut
survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import read_body

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def _answers(quiz) -> list[tuple[str, list[str], str | None]]:
    """Per question: its text, its right options' texts and its explanation."""
    return [(q.stem, [c.text for c in q.choices if c.correct], q.feedback.general) for q in quiz.iter_questions()]


def test_a_key_ends_at_the_next_question_with_its_options(tmp_path: Path) -> None:
    body = ("1. Which is even?\nA) 3\nB) 4\n\nAnswer Key\n1. B\n\n"
            "2. Which is prime?\nA) 7\nB) 8\nAnswer: A\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    assert _answers(quiz) == [("Which is even?", ["4"], None), ("Which is prime?", ["7"], None)]


def test_an_explanations_line_with_its_answer_and_a_label(tmp_path: Path) -> None:
    body = ("1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n[정답]\n1. ②  2. ①\n\n"
            "해설\n1. ② 풀이: 4는 2로 나누어진다\n2. ① 풀이: 7은 소수이다\n")
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], "② 4는 2로 나누어진다"), ("소수는?", ["7"], "① 7은 소수이다")]


def test_a_key_entry_for_the_last_question_read_answers_it(tmp_path):
    # One question, then its key entry "1. ②": the entry answers question 1 (the number of the
    # question just read), never a question "1." again whose text is "②".
    text = "---\ntitle: T\n---\n\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n1. ②\n"
    (tmp_path / "paper.md").write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "paper.md", sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    (question,) = read[0].iter_questions()
    assert [c.text for c in question.choices if c.correct] == ["100℃"]
