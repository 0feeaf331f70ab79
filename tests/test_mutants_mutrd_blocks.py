"""The Markdown reader's scanner (readers/markdown/blocks.py) on small sources written here: a
task with its own answer after a task heading (``Aufgabe 2: …`` after ``Aufgabe 1``) is a section
of its own, titled with its word and number, not one of the heading's questions. Written against a
sampled mutmut survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import read_text

PAPER = ("---\ntitle: T\nlanguage: de\n---\nAufgabe 1\n\n1.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
         "Aufgabe 2: Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")


def test_a_task_with_its_own_answer_after_a_task_heading_is_its_peer_section(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, PAPER)
    assert told == []
    assert [(s.title, [(q.stem, [c.text for c in q.choices if c.correct]) for q in s.questions])
            for s in quiz.sections] == [("Aufgabe 1", [("Welche Zahl ist gerade?", ["4"])]),
                                        ("Aufgabe 2", [("Welche Zahl ist prim?", ["7"])])]
