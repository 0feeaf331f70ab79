"""The Markdown reader's scanner (readers/markdown/blocks.py) on small sources written here: a
task with its own answer after a task heading (``Aufgabe 2: …`` after ``Aufgabe 1``) is a section
of its own, titled with its word and number, not one of the heading's questions. Written against a
sampled mutmut survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import line_of, place, read_text

PAPER = ("---\ntitle: T\nlanguage: de\n---\nAufgabe 1\n\n1.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
         "Aufgabe 2: Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")


def test_a_task_with_its_own_answer_after_a_task_heading_is_its_peer_section(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, PAPER)
    assert told == []
    assert [(s.title, [(q.stem, [c.text for c in q.choices if c.correct]) for q in s.questions])
            for s in quiz.sections] == [("Aufgabe 1", [("Welche Zahl ist gerade?", ["4"])]),
                                        ("Aufgabe 2", [("Welche Zahl ist prim?", ["7"])])]


def test_a_note_followed_by_no_question_is_told_at_its_line(tmp_path: Path) -> None:
    text = "---\ntitle: T\nlanguage: ko\n---\n1. Q?\n① x\n② y\n정답: ①\n\n※ 다음 글을 읽고 물음에 답하시오.\n"
    _, told = read_text(tmp_path, text)
    assert told == [(line_of(text, "※ 다음"), 1, "QB178", "this note is followed by no question, so no question shows it",
                     "put the note right before the question it is about, or in the section's introduction")]


def test_a_box_keeps_each_line_and_the_text_above_it_as_written(tmp_path: Path) -> None:
    """``<보기>`` and its statements each end in a Markdown line break (two spaces), and the line
    above the box keeps its indentation as written: the question's text is its source's."""
    text = ("---\ntitle: T\nlanguage: ko\n---\n1. 다음 글을 읽고\n   물음에 답하시오.\n<보기>\nㄱ. 가는 크다\nㄴ. 나는 작다\n"
            "① ㄱ\n② ㄴ\n정답: ①\n")
    quiz, told = read_text(tmp_path, text)
    assert told == []
    (q,) = quiz.iter_questions()
    assert q.stem == "다음 글을 읽고\n   물음에 답하시오.  \n<보기>  \nㄱ. 가는 크다  \nㄴ. 나는 작다"
    assert [(c.text, c.correct) for c in q.choices] == [("ㄱ", True), ("ㄴ", False)]


def test_options_after_the_answer_of_a_choice_question_are_misplaced(tmp_path: Path) -> None:
    """``{type=single_choice}`` says options are to come: ``A)`` lines after ``Answer:`` are QB134
    at each, not the answer's text, and the question has none (QB127)."""
    text = "---\ntitle: T\n---\n1. Which is even? {type=single_choice}\nAnswer: B\nA) 3\nB) 4\n"
    _, told = read_text(tmp_path, text)
    misplaced = "options come before the answer and the other labelled blocks"
    assert told == [
        (line_of(text, "A) 3"), 1, "QB134", misplaced,
         "move the options up; to keep a line that starts like 'A)' in the 'Answer:' block, indent it"),
        (line_of(text, "B) 4"), 1, "QB134", misplaced,
         "move the options up; to keep a line that starts like 'B)' in the 'Answer:' block, indent it"),
        (line_of(text, "1. Which"), 1, "QB127", "a single_choice question needs options",
         "add options at the left margin: 'A) ...', 'B) ...'")]


def test_a_heading_read_as_a_question_keeps_the_places_of_its_text(tmp_path: Path) -> None:
    """``## The sky is [[*blue | *green]]`` followed by ``Answer:``: QB146 at the heading's text,
    and the drop-down's second star (QB142) at its own column on the heading's line."""
    text = ("---\ntitle: T\n---\n# Part A\n\n1. Q?\nA) x\nB) y\nAnswer: A\n\n"
            "## The sky is [[*blue | *green]]. {type=fill_in_blank}\nAnswer: blue\n")
    _, told = read_text(tmp_path, text)
    assert [(line, column, code) for line, column, code, _, _ in told] == [
        (*place(text, "The sky"), "QB146"), (*place(text, "*green"), "QB142")]
