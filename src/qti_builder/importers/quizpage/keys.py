"""An answer key at the end of a quiz page or a pasted exam, and how it is applied to the
questions it numbers.

The forms exams and pages print: a heading (``## Answers``, ``[정답]``, ``정답 및 해설``,
``Answer key``, ``正解``) then ``1. B`` / ``1) ②`` / ``1-②`` / ``Q1: B`` / ``1번: ③`` lines, several
on one line (``1.② 2.① 3.④``, ``1-B, 2-C``), ``정답: 1.② 2.① 3.④`` on one line, or a table of
numbers and answers; an explanation after an entry on its line (``1. ② 해설: …``), on the lines
under it, or in a part of the key of its own (``해설`` then ``1. …`` lines).

Where the key and the page cannot be matched (an entry for a question the page does not have, a
question the key leaves out while it answers the others, an option the question lacks), the
import fails with an error at the place (QB705): a key that does not fit the questions read
means they were not read as printed, and a guess would ship wrong answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...diagnostics import SourceSpan
from ...readers.markdown import syntax as S
from ..base import QuizBuilder
from .syntax import (AMBIGUOUS, KEY_TITLE, UNMATCHED_KEY, Question, answer_letters, explanations_heading, first_line, join,
                     key_entries, number_range, plain, read_label, short)


@dataclass
class Entry:
    number: int
    answer: str
    line: int
    column: int = 1
    #: Its explanation's lines (on its line after the answer, under it, or in the key's explanations).
    explanation: list[str] = field(default_factory=list)
    #: The label its answer has in the key (``9. 예시 답안: …``): a model answer's.
    label: str = ""
    #: A marking scheme under it (``채점 기준: …``), for graders, and its label.
    grading: list[str] = field(default_factory=list)
    grading_label: str = ""


@dataclass
class AnswerKey:
    builder: QuizBuilder
    span: Callable[[int, int], SourceSpan]
    entries: list[Entry] = field(default_factory=list)
    #: The key's first line; 0 before it.
    line: int = 0
    #: Lines are read as the key's.
    active: bool = False
    #: Reading the key's part of explanations (``해설`` then ``1. …``): numbered lines explain.
    explaining: bool = False
    #: Explanations given apart from the entries, by question number.
    explanations: dict[int, list[str]] = field(default_factory=dict)
    #: The explanation the next plain line goes on with.
    current: list[str] | None = None

    def start(self, line: int) -> None:
        self.active = True
        self.line = self.line or line

    def add(self, number: int, answer: str, line: int, explanation: str = "", column: int = 1) -> None:
        labelled = read_label(answer)
        name = ""
        if labelled is not None and labelled.role == "answer" and labelled.value:
            answer, name = labelled.value, labelled.name  # "9. 예시 답안: …": a model answer
        self.entries.append(Entry(number, answer, line, column, [explanation] if explanation else [], name))
        self.current = self.entries[-1].explanation

    def read_line(self, line: str, number: int, column: int = 1) -> None:
        label = read_label(line)
        if explanations_heading(line):
            self.explaining, self.current = True, None  # "해설", "[해설]": the key's explanations follow
            return
        entries = key_entries(line)
        if self.explaining and entries:
            (entry_number, text, more), *_ = entries
            self.current = self.explanations.setdefault(entry_number, [])
            self.current.append(" ".join(part for part in (text, more) if part))
            return
        if entries:
            for entry_number, answer, explanation in entries:
                self.add(entry_number, answer, number, explanation, column + max(line.find(answer), 0))
            return
        if KEY_TITLE.match(line):
            return
        if label is not None and label.role == "grading" and self.entries and not self.explaining:
            # "채점 기준: …" under an essay's entry: for graders, never shown to students.
            entry = self.entries[-1]
            entry.grading_label, self.current = entry.grading_label or label.name, entry.grading
            entry.grading.append(label.value)
            return
        if self.current is not None:
            self.current.append(label.value if label is not None and label.role == "explanation" else line)
            return
        self.builder.warn("QB711", f"line {number} in the answer key is not an answer ('1. B'); skipped", self.span(number, 1))

    def apply(self, questions: list[Question], essay: Callable[[Question], bool] = lambda q: False) -> None:
        """Each entry's answer to the question of its number, and what does not fit reported.
        ``essay``: a question that may have no answer (in a section of essays)."""
        if not self.entries:
            return
        if not questions:
            self.builder.sink.error(UNMATCHED_KEY, f"the page is an answer key ({len(self.entries)} entries from line {self.line}) with no "
                                                   "question to answer", self.span(self.line, 1),
                                    hint="import the paper with its questions, the key after them (or in the same file)")
            return
        every = questions
        # The key numbers the questions the page numbers (a question it does not number takes the
        # number after the one before); a page that numbers none is keyed in order, and so is one
        # that numbers two questions alike (reported: which is which cannot be told).
        numbered = [q for q in every if q.number is not None and not q.implied]
        twice = sorted({q.number for q in numbered if q.number is not None and [p.number for p in numbered].count(q.number) > 1})
        explicit = bool(numbered) and not twice
        if twice:
            lines = [str(q.line) for q in numbered if q.number == twice[0]]
            self.builder.warn(AMBIGUOUS, f"the page numbers two questions {twice[0]} (lines {', '.join(lines)}): the answer key was "
                                         "applied in the questions' order", self.span(self.line, 1),
                              hint="number the questions one after the other")
        questions = [q for q in every if q.number is not None] if explicit else every
        by_number: dict[int, Question] = {}
        for i, numbered_question in enumerate(questions):
            key = numbered_question.number if explicit and numbered_question.number is not None else i + 1
            if not (explicit and numbered_question.implied and key in by_number):
                by_number.setdefault(key, numbered_question)
        keyed = sorted({e.number for e in self.entries})
        if not set(keyed) & set(by_number) and len(keyed) == len(questions):
            self.builder.warn(AMBIGUOUS, f"the answer key is numbered {number_range(keyed)}, the questions {number_range(sorted(by_number))}: "
                                         "the key was applied in order", self.span(self.line, 1),
                              hint="number the key as the questions are numbered")
            by_number = dict(zip(keyed, questions))
        given: dict[int, Entry] = {}
        for entry in self.entries:
            number, answer = entry.number, entry.answer
            if number in given:
                if plain(given[number].answer) != plain(answer):
                    self.builder.warn(AMBIGUOUS, f"the answer key gives question {number} twice: '{given[number].answer}' at line "
                                                 f"{given[number].line} and '{answer}' here; the first was kept",
                                      self.span(entry.line, entry.column))
                continue
            given[number] = entry
            q = by_number.get(number)
            if q is None:
                self.builder.sink.error(UNMATCHED_KEY, f"the answer key has an entry for question {number} ('{short(answer)}'), but the "
                                                       f"page has no question {number} (its questions are {number_range(sorted(by_number))})",
                                        self.span(entry.line, entry.column),
                                        hint="number the key as the questions are numbered; if the page has that question, check "
                                             "that its number starts its line ('5. …')")
                continue
            own = join(q.labels.get("answer", []), paragraphs=True)
            if q.marked or own:
                if not _agrees(q, own, answer):
                    said = ", ".join(sorted(q.marked)) if q.marked and not own else first_line(own)
                    self.builder.warn(AMBIGUOUS, f"question {number} (line {q.line}) gives the answer '{short(said)}', the answer key "
                                                 f"'{short(answer)}'; the question's own answer was kept",
                                      self.span(entry.line, entry.column), hint="correct the one that is wrong")
                continue
            if not q.options and S.bare(answer) in S.TRUE_WORDS + S.FALSE_WORDS and S.dialect("ko").truth(answer) is None:
                answer = "true" if S.bare(answer) in S.TRUE_WORDS else "false"  # a key's T and F
            q.labels["answer"], q.label_lines["answer"], q.keyed = [answer], entry.line, (entry.line, entry.column)
            q.answer_starts = [(entry.line, 0)]
            if entry.label:
                q.label_names["answer"] = entry.label
            if entry.grading and "grading" not in q.labels:
                q.labels["grading"], q.label_names["grading"] = entry.grading, entry.grading_label
            explanation = entry.explanation + self.explanations.get(number, [])
            if explanation and "explanation" not in q.labels:
                q.labels["explanation"] = explanation
        for number, q in sorted(by_number.items()):
            if number not in given and not q.answered and not q.marked and not essay(q):
                self.builder.sink.error(UNMATCHED_KEY, f"question {number} has no answer: the answer key at line {self.line} answers "
                                                       f"other questions but not this one", self.span(q.line, 1),
                                        hint=f"add '{number}. …' to the answer key, or give the question its answer under it "
                                             "('Answer: …'); if a line of the key answers it, check its number")


def _agrees(q: Question, own: str, answer: str) -> bool:
    """Do the question's own answer and the key's name the same thing?"""
    if q.options:
        options = q.choices()
        mine = sorted(q.marked) if q.marked and not own else answer_letters(own, options, q.style)[0]
        return sorted(answer_letters(answer, options, q.style)[0]) == sorted(mine)
    return plain(own) == plain(answer)
