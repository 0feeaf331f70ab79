"""Numbered tasks (readers/markdown/tasks.py) on a quiz page written here (``import`` of a page
whose answers are behind 'Show answer'): a task after a task heading is a section of its own,
titled with its word and number, also when nothing after it reads as its own answer label
(``Antwort:A``, unspaced, which the page reads as the answer but the task reader does not).
Written against a sampled mutmut survivor of the module (issue 35, sixth session) and seen to
fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.importing import run_import

PAGE = ("Quiz\n\nAufgabe 1\n1.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nShow answer\nAntwort: B\n\n"
        "Aufgabe 2: Welche Zahl ist prim?\nA) 7\nB) 8\nShow answer\nAntwort:A\n")


def test_a_peer_task_read_to_the_page_s_end_is_titled_with_its_number(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    quizzes, sink = run_import(page)
    assert [d.render() for d in sink.items] == []
    sections = [(s.title, [(q.stem, [c.text for c in q.choices if c.correct]) for q in s.questions])
                for item in quizzes for _, s in item.quiz.iter_sections()]
    assert sections == [("Aufgabe 1", [("Welche Zahl ist gerade?", ["4"])]),
                        ("Aufgabe 2", [("Welche Zahl ist prim?", ["7"])])]
