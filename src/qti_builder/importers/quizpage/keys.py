"""An answer key at the end of a quiz page (``## Answers`` then ``1. B`` lines, or a table of
numbers and answers), and how it is applied to the questions it numbers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...diagnostics import SourceSpan
from ...readers.markdown import syntax as S
from ..base import LOST, QuizBuilder
from .syntax import (AMBIGUOUS, KEY_ENTRY, KEY_TITLE, LABEL, Question, answer_letters, first_line, join, key_pairs, number_range,
                     plain, short)


@dataclass
class AnswerKey:
    builder: QuizBuilder
    span: Callable[[int], SourceSpan]
    #: (question number, answer, line), in the page's order.
    entries: list[tuple[int, str, int]] = field(default_factory=list)
    #: Lines after an entry (its explanation), by the entry's index.
    more: dict[int, list[str]] = field(default_factory=dict)
    #: The key's first line; 0 before it.
    line: int = 0
    #: Lines are read as the key's.
    active: bool = False

    def start(self, line: int) -> None:
        self.active = True
        self.line = self.line or line

    def add(self, number: int, answer: str, line: int, explanation: str = "") -> None:
        self.entries.append((number, answer, line))
        if explanation:
            self.more[len(self.entries) - 1] = [explanation]

    def read_line(self, line: str, number: int) -> None:
        pairs = key_pairs(line)
        if pairs:
            self.entries.extend((n, answer, number) for n, answer in pairs)
            return
        entry = KEY_ENTRY.match(line)
        if entry:
            self.entries.append((int(entry.group(1)), entry.group(2).strip(), number))
        elif self.entries and not KEY_TITLE.match(line):
            label = LABEL.match(line)
            self.more.setdefault(len(self.entries) - 1, []).append(label.group(2) if label else line)
        elif not KEY_TITLE.match(line):
            self.builder.warn(LOST, f"line {number} in the answer key is not an answer ('1. B'); skipped", self.span(number))

    def apply(self, questions: list[Question]) -> None:
        """Each entry's answer to the question of its number, and what does not fit reported."""
        if not self.entries:
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
                                         "applied in the questions' order", self.span(self.line),
                              hint="number the questions one after the other")
        questions = [q for q in every if q.number is not None] if explicit else every
        by_number: dict[int, Question] = {}
        for i, numbered_question in enumerate(questions):
            key = numbered_question.number if explicit and numbered_question.number is not None else i + 1
            if not (explicit and numbered_question.implied and key in by_number):
                by_number.setdefault(key, numbered_question)
        keyed = sorted({n for n, _, _ in self.entries})
        if not set(keyed) & set(by_number) and len(keyed) == len(questions):
            self.builder.warn(AMBIGUOUS, f"the answer key is numbered {number_range(keyed)}, the questions {number_range(sorted(by_number))}: "
                                         "the key was applied in order", self.span(self.line),
                              hint="number the key as the questions are numbered")
            by_number = dict(zip(keyed, questions))
        given: dict[int, tuple[str, int]] = {}
        for index, (number, answer, line) in enumerate(self.entries):
            if number in given:
                if plain(given[number][0]) != plain(answer):
                    self.builder.warn(AMBIGUOUS, f"the answer key gives question {number} twice: '{given[number][0]}' at line "
                                                 f"{given[number][1]} and '{answer}' here; the first was kept", self.span(line))
                continue
            given[number] = (answer, line)
            q = by_number.get(number)
            if q is None:
                self.builder.warn(AMBIGUOUS, f"the answer key's entry {number} ('{short(answer)}') has no question {number} "
                                             f"(the questions are {number_range(sorted(by_number))}); ignored", self.span(line))
                continue
            own = join(q.labels.get("answer", []), paragraphs=True)
            if q.marked or own:
                if not _agrees(q, own, answer):
                    said = ", ".join(sorted(q.marked)) if q.marked and not own else first_line(own)
                    self.builder.warn(AMBIGUOUS, f"question {number} (line {q.line}) gives the answer '{short(said)}', the answer key "
                                                 f"'{short(answer)}'; the question's own answer was kept", self.span(line),
                                      hint="correct the one that is wrong")
                continue
            if not q.options and S.bare(answer) in S.TRUE_WORDS + S.FALSE_WORDS:
                answer = "true" if S.bare(answer) in S.TRUE_WORDS else "false"  # a key's T, F, O, X
            q.labels["answer"], q.label_lines["answer"] = [answer], line
            if index in self.more and "explanation" not in q.labels:
                q.labels["explanation"] = self.more[index]


def _agrees(q: Question, own: str, answer: str) -> bool:
    """Do the question's own answer and the key's name the same thing?"""
    if q.options:
        options = [(letter, join(text)) for letter, text in q.options]
        mine = sorted(q.marked) if q.marked and not own else answer_letters(own, options)[0]
        return sorted(answer_letters(answer, options)[0]) == sorted(mine)
    return plain(own) == plain(answer)
