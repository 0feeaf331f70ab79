"""Numbered tasks (``Aufgabe 2``, ``Exercice 2``, ``Ejercicio 2``, ``Esercizio 2``, ``Questão 2``,
``Task 2``, ``Problem 2``): papers print them two ways, and only the lines after one tell which.

- a **heading** over numbered questions of its own (``2.1 …``, ``1. …``, each with its options or
  answer): a section, titled as printed;
- a **question** whose own text and answer follow (``Antwort: …`` before any numbered line).

Where numbered lines follow but neither they nor the task have an answer of their own before the
paper's next answer (``1) 3`` ``2) 4`` then ``Antwort: 2``: options of the task, or the task's
questions with the last one answered?), the reader does not guess: it is an error at the task's
line naming both readings (QB196).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ... import vocabulary as V
from . import syntax as S

_WORDS = "|".join(re.escape(w) for w in V.words("task_words"))
#: A task's line at the left margin: its word and number, maybe in bold, then nothing, its points
#: (``Aufgabe 2 (4 Punkte)``) or a stop and its title or text (``Aufgabe 1: Welche …?``). Not a
#: sentence that starts with the words (``Task 2 shows that …``).
TASK_LINE = re.compile(rf"^[*_]{{0,2}}(?P<word>{_WORDS})[ \t]*(?P<number>\d{{1,3}})(?![\d.,])[*_]{{0,2}}"
                       rf"(?:[ \t]*[.:：)–-][ \t]*|[ \t]*(?=[(（\[［])|[ \t]*$)(?P<rest>.*?)[*_]{{0,2}}\s*$", re.I)
#: A question numbered within a task: ``2.1 …``, ``2.1. …``, ``2.1) …``.
SUB_NUMBER = re.compile(r"^(?P<task>\d{1,3})[.．](?P<number>\d{1,2})[.．)]?[ \t]+(?P<text>\S.*?)\s*$")
_PLAIN_FORMS = (".", ")", "．")


@dataclass
class Task:
    number: int
    #: "heading", "question" or "ambiguous".
    reading: str
    #: The lines (1-based) of the numbered questions under it, and of the first answer after them.
    subs: list[int] = field(default_factory=list)
    answer_line: int = 0


def task_line(line: str) -> re.Match[str] | None:
    return TASK_LINE.match(line) if line[:1] not in (" ", "\t", "") else None


def sub_question(line: str, task: int, expected: int) -> re.Match[str] | None:
    """``2.1 …`` under task 2, numbered as the next question of the task (so ``2.5 kg`` in an
    answer is not one)."""
    found = SUB_NUMBER.match(line)
    if found and int(found.group("task")) == task and int(found.group("number")) == expected:
        return found
    return None


def read_task(lines: list[str], index: int, number: int) -> Task:
    """How the task on ``lines[index]`` reads, from the lines after it up to the next task, heading,
    section or answer key."""
    subs: list[int] = []
    #: Per numbered line, what it has of its own: "options", "label" or "".
    evidence: list[str] = []
    for at in range(index + 1, len(lines)):
        line = lines[at]
        if line[:1] in (" ", "\t") or not line.strip():
            continue
        if task_line(line) or S.HEADING.match(line) or S.section_marker(line, latin=True) or S.closing_mark(line) \
                or S.KEY_TITLE.match(line) or S.PAGE_KEY_TITLE.match(line):
            break
        start = S.question_start(line)
        if sub_question(line, number, len(subs) + 1) or (start and start.form in _PLAIN_FORMS):
            subs.append(at + 1)
            evidence.append("")
            continue
        label = S.read_label(line.strip())
        if label is not None and label.spaced and label.name in S.QUESTION_LABELS:
            if not subs:
                return Task(number, "question")  # its own answer before any numbered line
            evidence[-1] = evidence[-1] or "label"
            if len(subs) >= 2 and not any(evidence[:-1]) and evidence[-1] == "label":
                # ``1) 3`` ``2) 4`` then ``Antwort: 2``: the task's options, or its questions?
                return Task(number, "ambiguous", subs, at + 1)
        elif subs and S.option_marks(line):
            evidence[-1] = "options"  # ``A) …`` under a numbered line: a question of its own
    return Task(number, "heading" if subs else "question", subs)


__all__ = ["SUB_NUMBER", "TASK_LINE", "Task", "read_task", "sub_question", "task_line"]
