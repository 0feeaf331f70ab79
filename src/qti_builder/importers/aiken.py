"""Aiken (Moodle's other plain-text format) -> one quiz of single-choice questions.

Read as Moodle's ``qformat_aiken::readquestions`` reads it (question/format/aiken/format.php):
every line trimmed, lines shorter than two characters ignored; a line ``A)`` or ``A.`` (a capital
letter, then ``)`` or ``.``) is an option; ``ANSWER: B`` names the right one and ends the
question; any other line starts a question. Texts are plain (Moodle escapes them as HTML).

What Moodle refuses (an option or ANSWER: line outside a question, a question with fewer than two
options, a question left without its ANSWER: line) is reported at its line and skipped; Moodle's
import, with "Stop on error" (its default), then imports nothing from the file. A question whose
text runs over several lines, which Moodle reads as one abandoned question per line, is read here
as one question with a line break, with a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..content import plain_text
from ..diagnostics import DiagnosticSink, SourceSpan
from ..summary import plural
from .base import INVALID, LOST, SURPRISE, ImportedQuiz, QuizBuilder, guess_language, same_title, sanitise_id
from .moodletext import decode, default_name, plain_markdown
from .safety import read_input

OPTION = re.compile(r"[A-Z][).][ \t]?")
ANSWER = re.compile(r"ANSWER:")
_SNIFF_OPTION = re.compile(r"^[ \t]*[A-Z][).]", re.M)
_SNIFF_ANSWER = re.compile(r"^[ \t]*ANSWER:[ \t]*[A-Z]\b", re.M)
STOP = "with 'Stop on error', its default, Moodle's import takes nothing from the file"


def sniff(path: Path, head: bytes) -> bool:
    """Text of Aiken's shape: ``ANSWER: X`` lines, two options or more and one question line (or two)
    per answer."""
    if path.suffix.lower() in (".md", ".markdown", ".xml", ".html", ".htm", ".zip") or head.startswith((b"<", b"PK")):
        return False
    text = head.decode("utf-8", "replace")
    lines = [line.strip() for line in text.split("\n")[:-1] if len(line.strip()) >= 2]  # the last may be cut off
    answers = sum(1 for line in lines if _SNIFF_ANSWER.match(line))
    options = sum(1 for line in lines if _SNIFF_OPTION.match(line))
    others = len(lines) - answers - options
    return answers > 0 and options >= 2 * answers and others <= 2 * answers + 1


@dataclass
class _Question:
    line: int
    stem: list[str]
    options: list[str] = field(default_factory=list)


def import_aiken(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    reader = _Reader(path, display, sink)
    for number, line in enumerate(decode(raw, display, sink).split("\n"), 1):
        reader.line(number, line)
    reader.end()
    language = guess_language(reader.texts)
    reader.builder.warn(LOST, f"Aiken does not record the quiz's language; '{language}' was taken from its text", SourceSpan(display),
                        hint="change 'language:' in the source if that is wrong")
    quiz = reader.builder.build(sanitise_id(path.stem), path.stem, language)
    return [reader.builder.imported(quiz)] if quiz else []


class _Reader:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink) -> None:
        self.display = display
        self.builder = QuizBuilder(display, sink)
        self.section = self.builder.section(path.stem)
        self.question: _Question | None = None
        self.texts: list[str] = []

    def span(self, line: int, column: int = 1) -> SourceSpan:
        return SourceSpan(self.display, line, column)

    def skip(self, message: str, line: int, hint: str = f"Moodle refuses it too; {STOP}") -> None:
        self.builder.skip("multichoice", INVALID, message, self.span(line), hint=hint)

    def stray(self, message: str, line: int) -> None:
        """A line outside any question: no question is lost, but Moodle refuses the file."""
        self.builder.warn(INVALID, message, self.span(line), hint=f"Moodle refuses it too; {STOP}")

    def line(self, number: int, raw: str) -> None:
        text = raw.strip()
        if len(text) < 2:
            return
        column = len(raw) - len(raw.lstrip()) + 1
        question = self.question
        if OPTION.match(text):
            if question is None:
                self.stray(f"the option '{text}' belongs to no question (an option line starts with a capital letter "
                           "and ')' or '.'); skipped", number)
                return
            question.options.append(text[2:].strip())
        elif ANSWER.match(text):
            if question is None:
                self.stray(f"'{text}' belongs to no question; skipped", number)
                return
            self.question = None
            self.finish(question, text[text.index(":") + 1:].strip()[:1], number)
        elif question is not None and not question.options:
            # Moodle drops the question begun on the line before and starts another.
            question.stem.append(text)
            self.builder.warn(SURPRISE, "the question's text goes on over another line: Moodle starts a new question on each line "
                                        "(and refuses the one before); the lines are read here as one question",
                              self.span(number, column), hint="write the question on one line (Aiken has no line breaks)")
        else:
            if question is not None:
                self.skip(f"question '{_name(question)}' (multichoice) was skipped: it has no ANSWER: line before the next question starts "
                          f"on line {number}", question.line)
            self.question = _Question(number, [text])

    def end(self) -> None:
        if self.question is not None:
            self.skip(f"question '{_name(self.question)}' (multichoice) was skipped: it has no ANSWER: line before the end of the file",
                      self.question.line)

    def finish(self, question: _Question, letter: str, line: int) -> None:
        stem_text = "\n".join(question.stem)
        name = _name(question)
        if len(question.options) < 2:
            self.skip(f"question '{name}' (multichoice) was skipped: it has {plural(len(question.options), 'option')}, and needs two at least", line)
            return
        right = ord(letter) - ord("A") if letter else -1
        if not 0 <= right < len(question.options):
            found = f"'{letter}'" if letter else "no letter"
            self.skip(f"question '{name}' (multichoice) was skipped: ANSWER: names {found}, not one of its options A to "
                      f"{chr(64 + len(question.options))}", line, hint="Moodle imports it with no right answer; name the right option "
                                                                  "with its capital letter")
            return
        # Moodle saves no empty option (the others keep their marks).
        options = [(i == right, text) for i, text in enumerate(question.options) if text]
        if len(options) < 2:
            self.skip(f"question '{name}' (multichoice) was skipped: it has fewer than two options that are not empty", line)
            return
        if not any(correct for correct, _ in options):
            self.skip(f"question '{name}' (multichoice) was skipped: its right option {letter} is empty", line,
                      hint="Moodle imports it with no right answer (it saves no empty option)")
            return
        stem = plain_markdown(stem_text)
        self.texts.append(stem)
        data = {"type": "single_choice", "stem": stem, "shuffle": True,
                "choices": [{"id": chr(65 + i), "text": plain_markdown(text), "correct": correct}
                            for i, (correct, text) in enumerate(options)]}
        if name and not same_title(name, plain_text(stem, 100)):
            data["title"] = name
        self.builder.add(self.section, data, self.span(question.line), name, end_line=line, kind="multichoice")


def _name(question: _Question) -> str:
    """Moodle's name for it: its text (the line that starts it) shortened to 80 characters."""
    return default_name("\n".join(question.stem))
