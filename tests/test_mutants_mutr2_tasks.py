"""Numbered tasks (``Aufgabe 2``, ``Task 1``; readers/markdown/tasks.py) read from small sources
written here: a heading over its numbered questions, a question with its own answer, or, where the
lines after it could be either, the error a user reads at the task's line (QB196), its lines found
by searching the source's text. Each case was written against a mutmut survivor of the module
(issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.reading import line_of, read_body, read_hints, source_text


def _questions(quiz) -> list[tuple[str, str, float, list[str]]]:
    """Per question: its section's title, its text, its points and its right options' texts."""
    return [(section.title, q.stem, q.points, [c.text for c in getattr(q, "choices", []) if c.correct])
            for _, section in quiz.iter_sections() for q in section.questions]


def _qb196(text: str, word: str, first: str, last: str, answer: str) -> tuple[int, int, str, str]:
    """QB196 as a user reads it: at the task's line, naming the numbered lines and the answer's."""
    return (line_of(text, word), 1, "QB196",
            f"'{word}' could be a heading over the numbered lines {line_of(text, first)}–{line_of(text, last)} "
            f"(each a question) or a question whose parts or options they are, answered on line "
            f"{line_of(text, answer)}: the paper does not say which")


HEADING = ("Aufgabe 2 (je 2 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
           "2.2 Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")


def test_a_task_over_its_numbered_questions_is_their_heading(tmp_path: Path) -> None:
    quiz, told = read_body(tmp_path, HEADING, "de")
    assert told == []
    assert _questions(quiz) == [("Aufgabe 2", "Welche Zahl ist gerade?", 2, ["4"]),
                                ("Aufgabe 2", "Welche Zahl ist prim?", 2, ["7"])]


def test_a_task_with_its_own_answer_is_a_question(tmp_path: Path) -> None:
    body = "Aufgabe 1: Welche Stadt ist die Hauptstadt?\nA) Paris\nB) Lyon\nAntwort: A\n\n" + HEADING
    quiz, told = read_body(tmp_path, body, "de")
    assert told == []
    assert _questions(quiz) == [("T", "Welche Stadt ist die Hauptstadt?", 1, ["Paris"]),
                                ("Aufgabe 2", "Welche Zahl ist gerade?", 2, ["4"]),
                                ("Aufgabe 2", "Welche Zahl ist prim?", 2, ["7"])]


@pytest.mark.parametrize("first, second", [("1) 3", "2) 4"), ("1. 3", "2. 4"), ("1．3", "2．4"), ("3.1 drei", "3.2 vier")],
                         ids=["paren", "stop", "fullwidth-stop", "sub-number"])
def test_numbered_lines_then_one_answer_is_the_task_s_error(first: str, second: str, tmp_path: Path) -> None:
    """``1) 3`` ``2) 4`` then ``Antwort: 2``: options of the task, or its questions with the last
    one answered? Each way a paper numbers them; blank and indented lines in between change nothing."""
    body = f"Aufgabe 3\nWelche Zahl ist gerade?\n\n   (eine)\n{first}\n\n{second}\nAntwort: 2\n"
    text = source_text(body, "de")
    _, told = read_body(tmp_path, body, "de")
    assert told[0] == _qb196(text, "Aufgabe 3", first, second, "Antwort: 2"), told


def test_a_task_error_stops_at_its_answer_and_the_next_task_is_read(tmp_path: Path) -> None:
    """Read as neither, up to its answer: one error, and the next task is read as it is."""
    body = ("Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nAntwort: 2\n\n"
            "Aufgabe 4: Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")
    text = source_text(body, "de")
    quiz, told = read_body(tmp_path, body, "de")
    assert told == [_qb196(text, "Aufgabe 3", "1) 3", "2) 4", "Antwort: 2")]
    assert _questions(quiz) == [("T", "Welche Zahl ist prim?", 1, ["7"])]


def test_numbered_lines_with_options_of_their_own_are_questions(tmp_path: Path) -> None:
    """The first numbered line has its options: each is a question, the last one answered too."""
    body = ("Aufgabe 3\n1) Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n"
            "2) Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")
    quiz, told = read_body(tmp_path, body, "de")
    assert told == []
    assert _questions(quiz) == [("Aufgabe 3", "Welche Zahl ist gerade?", 1, ["4"]),
                                ("Aufgabe 3", "Welche Zahl ist prim?", 1, ["7"])]


def test_a_task_without_an_answer_ends_at_the_next_task(tmp_path: Path) -> None:
    """Task 1 has no answer; the numbered questions after ``Aufgabe 2`` are task 2's, never make
    task 1 a heading: task 1 is the question without an answer (its error at its line)."""
    body = ("Aufgabe 1: Erkläre die Fotosynthese.\n\nAufgabe 2\n1. Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n"
            "2. Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")
    text = source_text(body, "de")
    quiz, told = read_body(tmp_path, body, "de")
    assert [(line, code) for line, _, code, _ in told] == [(line_of(text, "Aufgabe 1"), "QB128")]
    assert _questions(quiz) == [("Aufgabe 2", "Welche Zahl ist gerade?", 1, ["4"]),
                                ("Aufgabe 2", "Welche Zahl ist prim?", 1, ["7"])]


def test_the_task_error_says_how_to_fix_it(tmp_path: Path) -> None:
    assert read_hints(tmp_path, "Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nAntwort: 2\n", "de")[0] == (
        "QB196", "for a heading, give each numbered question its own answer; for one question, mark its options "
                 "'A) …' or write its parts in its text")
