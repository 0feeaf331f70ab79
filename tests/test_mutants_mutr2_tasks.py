"""Numbered tasks (``Aufgabe 2``, ``Task 1``; readers/markdown/tasks.py) read from small sources
written here: a heading over its numbered questions, a question with its own answer, or, where the
lines after it could be either, the error a user reads at the task's line (QB196), its lines found
by searching the source's text. Each case was written against a mutmut survivor of the module
(issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.importing import run_import
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


@pytest.mark.parametrize("language, stop", [("de", "## Teil 2"), ("de", "II. Zweiter Teil"), ("de", "- Ende -"),
                                            ("en", "Answer Key"), ("en", "**Answer Key:**")],
                         ids=["heading", "section-marker", "closing-mark", "key-title", "page-key-title"])
def test_a_task_without_an_answer_ends_at_a_heading_a_section_a_closing_mark_or_a_key(language: str, stop: str,
                                                                                       tmp_path: Path) -> None:
    """What follows such a line is not the task's: the numbered questions after it never make the
    task a heading, and the task is the question without an answer (its error at its line)."""
    body = (f"Aufgabe 1: Erkläre die Fotosynthese.\n\n{stop}\n1. Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n"
            "2. Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")
    text = source_text(body, language)
    quiz, told = read_body(tmp_path, body, language)
    assert (line_of(text, "Aufgabe 1"), 1, "QB128") in [(line, column, code) for line, column, code, _ in told], told
    assert not quiz or not any("Aufgabe" in s.title for _, s in quiz.iter_sections())


def _page_sections(tmp_path: Path, text: str) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """A quiz page (its answers behind 'Show answer') imported: its sections' titles and questions, and
    what the import said."""
    page = tmp_path / "page.txt"
    page.write_text(text, encoding="utf-8")
    quizzes, sink = run_import(page)
    sections = [(s.title, [q.stem for q in s.questions]) for item in quizzes for _, s in item.quiz.iter_sections()]
    return sections, [d.render() for d in sink.items]


PAGE_HEADING = "Quiz\n\nAufgabe 1\n1.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nShow answer\nAntwort: B\n\n"


@pytest.mark.parametrize("answer", ["Antwort: A", "  Antwort: A"], ids=["answer", "indented-answer"])
def test_on_a_quiz_page_a_task_after_a_task_heading_is_its_peer(answer: str, tmp_path: Path) -> None:
    """``Aufgabe 2: …`` with its own answer after the heading ``Aufgabe 1``: a section of its own,
    titled with its word and number."""
    text = PAGE_HEADING + f"Aufgabe 2: Welche Zahl ist prim?\nA) 7\nB) 8\nShow answer\n{answer}\n"
    sections, said = _page_sections(tmp_path, text)
    assert said == []
    assert sections == [("Aufgabe 1", ["Welche Zahl ist gerade?"]), ("Aufgabe 2", ["Welche Zahl ist prim?"])]


def test_on_a_quiz_page_a_task_that_cannot_be_told_is_its_error(tmp_path: Path) -> None:
    text = PAGE_HEADING + "Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nShow answer\nAntwort: 2\n"
    _, said = _page_sections(tmp_path, text)
    assert said[0].startswith(
        f"page.txt:{line_of(text, 'Aufgabe 3')}:1: error[QB196]: 'Aufgabe 3' could be a heading over the numbered lines "
        f"{line_of(text, '1) 3')}–{line_of(text, '2) 4')} (each a question) or a question whose parts or options they "
        f"are, answered on line {line_of(text, 'Antwort: 2')}: the page does not say which"), said


@pytest.mark.parametrize("body, first, last", [
    ("Aufgabe 3: Welche Zahl ist gerade?\n1) 3\n2) 4\nAntwort: 2\n", "1) 3", "2) 4"),
    ("Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n   Antwort: 9\n2) 4\n\tAntwort: 8\nAntwort: 2\n", "1) 3", "2) 4"),
    ("Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\n3) 5\nAntwort: 2\n", "1) 3", "3) 5"),
    ("Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nBeispiel: 6\nAntwort: 2\n", "1) 3", "2) 4"),
], ids=["right-under-the-task", "indented-lines-are-not-the-task-s", "three-lines", "a-line-that-is-no-answer"])
def test_more_numbered_lines_then_one_answer(body: str, first: str, last: str, tmp_path: Path) -> None:
    text = source_text(body, "de")
    _, told = read_body(tmp_path, body, "de")
    assert told[0] == _qb196(text, "Aufgabe 3", first, last, "Antwort: 2"), told


@pytest.mark.parametrize("body", [
    "Aufgabe 3\n1) Welche?\n2) Welche Zahl ist gerade?\nA) 3\nB) 4\n3) Welche noch?\nAntwort: 2\n",
    "Aufgabe 3\n1) Welche Zahl ist gerade?\nA) 3\nB) 4\n2) Welche Zahl ist prim?\nAntwort: 7\n",
    "Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\nAntwort: 2\n",
], ids=["options-under-the-second", "options-under-the-first-unanswered", "one-numbered-line"])
def test_numbered_lines_one_of_which_has_options_or_only_one_make_a_heading(body: str, tmp_path: Path) -> None:
    """Options under any numbered line but the answered one, or a single numbered line: its
    questions, under the task as their heading, never the task's error."""
    quiz, told = read_body(tmp_path, body, "de")
    assert "QB196" not in [code for _, _, code, _ in told]
    assert [s.title for _, s in quiz.iter_sections() if s.questions] == ["Aufgabe 3"]


def test_a_task_without_an_answer_ends_at_a_single_letter_section_marker(tmp_path: Path) -> None:
    body = ("Aufgabe 1: Erkläre die Fotosynthese.\n\nI. Erster Teil\n1. Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n"
            "2. Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")
    quiz, _ = read_body(tmp_path, body, "de")
    assert not any("Aufgabe" in s.title for _, s in quiz.iter_sections())
