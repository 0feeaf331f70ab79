"""text2qti plain-text quizzes (github.com/gpoore/text2qti, its README's syntax) -> one quiz.

Line based, one marker table like our own Markdown reader: a line is classified by how it starts,
and indented lines continue what is above them. Text is Markdown in text2qti too, so it is kept
as written (text2qti's siunitx macros ``\\num``/``\\si``/``\\SI`` are not: they are reported).
Code blocks marked ``{.python .run}`` are never run: text2qti executes them to *generate*
questions, which an importer must not do with other people's files; they are reported and skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import DiagnosticSink, SourceSpan
from .base import LOST, UNSUPPORTED, ImportedQuiz, QuizBuilder, guess_language, sanitise_id
from .moodletext import decode
from .safety import read_input

Data = dict[str, Any]

#: Marker -> regular expression, tried in this order (the first match wins).
MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("quiz_title", re.compile(r"^Quiz title:\s*(.*)$")),
    ("quiz_description", re.compile(r"^Quiz description:\s*(.*)$")),
    ("setting", re.compile(r"^(shuffle answers|show correct answers|one question at a time|can't go back|feedback is shown|feedback only"
                           r"|feedback is solution|solutions sample groups|solutions randomize groups):\s*(.*)$", re.I)),
    ("group", re.compile(r"^GROUP\s*$")),
    ("end_group", re.compile(r"^END_GROUP\s*$")),
    ("pick", re.compile(r"^pick:\s*(\d+)\s*$")),
    ("group_points", re.compile(r"^points per question:\s*(\S+)\s*$")),
    ("title", re.compile(r"^Title:\s*(.*)$")),
    ("points", re.compile(r"^Points:\s*(\S+)\s*$")),
    ("text", re.compile(r"^Text:\s*(.*)$")),
    ("question", re.compile(r"^\d+\.\s+(.*)$")),
    ("choice", re.compile(r"^(\*?)([A-Za-z])\)\s+(.*)$")),
    ("multi", re.compile(r"^\[(\*|\s?)\]\s+(.*)$")),
    ("short", re.compile(r"^\*\s+(.*)$")),
    ("numerical", re.compile(r"^=\s+(.*)$")),
    ("essay", re.compile(r"^_{3,}\s*$")),
    ("upload", re.compile(r"^\^{3,}\s*$")),
    ("feedback", re.compile(r"^(\.\.\.|\+|-)\s+(.*)$")),
    ("run_code", re.compile(r"^```+\s*\{[^}]*\.run[^}]*\}")),
)
#: text2qti's quiz options that are quiz settings of the model (its others are Canvas or PDF options
#: the source does not hold: reported as lost).
SETTINGS = {"shuffle answers": "shuffle_answers", "show correct answers": "show_correct_answers",
            "one question at a time": "one_question_at_a_time"}
SIUNITX = re.compile(r"\\(num|si|SI)\{")


def sniff(path: Path, head: bytes) -> bool:
    text = head.decode("utf-8", "replace")
    return bool(re.search(r"^Quiz title:", text, re.M) or re.search(r"^\*[a-z]\)\s", text, re.M)
                or re.search(r"^\[\*\]\s", text, re.M) or re.search(r"^_{3,}\s*$", text, re.M))


@dataclass
class _Item:
    """A question or text region being read."""

    line: int
    kind: str  # question | text
    stem: list[str]
    title: str | None = None
    points: float | None = None
    feedback: Data = field(default_factory=dict)
    choices: list[Data] = field(default_factory=list)
    style: str | None = None  # choice | multi | short | numerical | essay | upload
    answers: list[str] = field(default_factory=list)
    #: The list the next indented line continues.
    last: list[str] | None = None


def import_text2qti(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    # Not UTF-8 (Windows-1252, Notepad's UTF-16): read as it is written, and said, never with
    # its accented letters replaced in silence.
    text = decode(raw, display, sink).expandtabs(4)
    return _Reader(path, display, sink).read(text.split("\n"))


class _Reader:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink) -> None:
        self.path, self.display = path, display
        self.builder = QuizBuilder(display, sink)
        self.title, self.description = path.stem, ""
        self.shuffle = True
        self.settings: Data = {}
        self.main: Data | None = None
        self.section: Data | None = None
        self.group_points: float | None = None
        self.pending_title: str | None = None
        self.pending_points: float | None = None
        self.item: _Item | None = None
        self.texts: list[str] = []
        self.description_lines: list[str] = []
        self.groups = 0

    def span(self, line: int) -> SourceSpan:
        return SourceSpan(self.display, line, 1)

    def read(self, lines: list[str]) -> list[ImportedQuiz]:
        skipping_code = False
        description: list[str] | None = None
        for number, line in enumerate(lines, 1):
            if skipping_code:
                skipping_code = not line.startswith("```")
                continue
            if not line.strip():
                if self.item is not None and self.item.last is not None:
                    self.item.last.append("")
                continue
            if line[:1] == " ":
                target = self.item.last if self.item is not None else description
                if target is not None:
                    target.append(line.strip())
                continue
            kind, match = next(((k, m) for k, p in MARKERS if (m := p.match(line))), (None, None))
            description = None
            if kind is None or match is None:
                if self.item is not None and self.item.last is not None:
                    self.item.last.append(line.strip())
                else:
                    self.builder.warn(LOST, f"line {number} is not text2qti syntax and belongs to no question; skipped", self.span(number))
                continue
            if kind == "run_code":
                self.builder.warn(UNSUPPORTED, "an executable code block ({.run}) is not run on import; skipped", self.span(number),
                                  hint="run text2qti's code generation yourself, then import its output")
                skipping_code = True
                continue
            if kind == "quiz_title":
                self.title = match.group(1).strip()
            elif kind == "quiz_description":
                description = [match.group(1).strip()]
                self.description_lines = description
            elif kind == "setting":
                self._setting(match.group(1), match.group(2).strip(), number)
            else:
                self._marker(kind, match, number)
        self._finish_item()
        self.description = _paragraphs(self.description_lines)
        quiz = self.builder.build(sanitise_id(self.path.stem) or None, self.title, guess_language(self.texts), self.description or None,
                                  self.settings)
        return [self.builder.imported(quiz)] if quiz else []

    def _setting(self, option: str, value: str, number: int) -> None:
        name = SETTINGS.get(option.lower())
        if name is None:
            self.builder.warn(LOST, f"the quiz option '{option}' has no place in the source; set it in the LMS", self.span(number))
            return
        if value.lower() not in ("true", "false"):
            self.builder.warn(LOST, f"'{option}: {value}' is not true or false; the option is left out", self.span(number))
            return
        self.settings[name] = value.lower() == "true"
        if name == "shuffle_answers":  # also each choice question's own shuffle, which QTI and Moodle write
            self.shuffle = self.settings[name]

    def _current_main(self) -> Data:
        if self.main is None:
            self.main = self.builder.section(self.title)
        return self.main

    def _current_section(self) -> Data:
        if self.section is None:
            if self.main is None:
                self.main = self.builder.section(self.title)
            return self.main
        return self.section

    def _marker(self, kind: str, match: re.Match[str], number: int) -> None:
        item = self.item
        if kind == "group":
            self._finish_item()
            self.groups += 1
            self.section = self.builder.section(f"Group {self.groups}", self._current_main(), select=1)
            return
        if kind == "end_group":
            self._finish_item()
            self.section, self.group_points = None, None
            return
        if kind == "pick" and self.section is not None:
            self.section["select"] = int(match.group(1))
            return
        if kind == "group_points":
            self.group_points = _float(match.group(1))
            return
        if kind == "title":
            self._finish_item()
            self.pending_title = match.group(1).strip()
            return
        if kind == "points":
            self._finish_item()
            self.pending_points = _float(match.group(1))
            return
        if kind in ("question", "text"):
            self._finish_item()
            self.item = _Item(number, kind, [match.group(1).strip()], self.pending_title,
                              self.pending_points if self.pending_points is not None else self.group_points)
            self.item.last = self.item.stem
            self.pending_title = self.pending_points = None
            return
        if item is None:
            self.builder.warn(LOST, f"line {number} belongs to no question; skipped", self.span(number))
            return
        if kind == "feedback":
            text = [match.group(2).strip()]
            if item.choices and match.group(1) == "...":
                item.choices[-1]["_feedback"] = text
            else:
                item.feedback[{"...": "general", "+": "correct", "-": "incorrect"}[match.group(1)]] = text
            item.last = text
        elif kind in ("choice", "multi"):
            correct = match.group(1).strip() == "*"
            text = [match.group(3 if kind == "choice" else 2).strip()]
            item.choices.append({"correct": correct, "_text": text})
            item.style = item.style or kind
            item.last = text
        elif kind in ("short", "numerical"):
            item.answers.append(match.group(1).strip())
            item.style = kind
            item.last = None
        else:
            item.style = kind

    def _finish_item(self) -> None:
        item, self.item = self.item, None
        if item is None:
            return
        stem = _paragraphs(item.stem)
        self.texts.append(stem)
        if SIUNITX.search(stem) or any(SIUNITX.search(" ".join(c["_text"])) for c in item.choices):
            self.builder.warn(LOST, "text2qti's siunitx macros (\\num, \\si, \\SI) are not rendered by the build; write the number or unit out",
                              self.span(item.line))
        data: Data = {"stem": stem, "feedback": {k: _paragraphs(v) for k, v in item.feedback.items()}}
        if item.title:
            data["title"] = item.title
        if item.points is not None:
            data["points"] = item.points
        if item.kind == "text":
            data.update(type="text_only", points=0)
        elif item.style in ("choice", "multi"):
            choices = [{"id": chr(65 + i) if i < 26 else f"c{i + 1}", "text": _paragraphs(c["_text"]), "correct": c["correct"],
                        "feedback": _paragraphs(c.get("_feedback", []))} for i, c in enumerate(item.choices)]
            words = [c["text"].strip().lower() for c in choices]
            if item.style == "choice" and words in (["true", "false"], ["false", "true"]) and sum(c["correct"] for c in choices) == 1:
                answer = next(c for c in choices if c["correct"])["text"].strip().lower() == "true"
                data.update(type="true_false", answer=answer)
                for c in choices:
                    if c["feedback"]:
                        data[f"{c['text'].strip().lower()}_feedback"] = c["feedback"]
            else:
                data.update(type="single_choice" if item.style == "choice" else "multiple_response", choices=choices,
                            shuffle=self.shuffle)
        elif item.style == "short":
            data.update(type="short_answer", answers=[{"text": a} for a in item.answers])
        elif item.style == "numerical":
            answers = [_numeric(a) for a in item.answers]
            if None in answers:
                self.builder.warn(LOST, f"a numerical answer of the question on line {item.line} cannot be read", self.span(item.line))
            data.update(type="numerical", answers=[a for a in answers if a])
        elif item.style == "essay":
            data.update(type="essay")
        elif item.style == "upload":
            data.update(type="file_upload")
        else:
            self.builder.skip("(none)", UNSUPPORTED, f"the question on line {item.line} has no choices or answer, so it has no "
                                                     "text2qti type; skipped", self.span(item.line))
            return
        self.builder.add(self._current_section(), data, self.span(item.line), item.title or stem, kind=_KINDS.get(data["type"]))


#: The question types text2qti gives each question (Canvas's names, which its QTI carries), by
#: the model's: a question skipped is named and counted by these.
_KINDS = {"text_only": "text_only_question", "true_false": "true_false_question", "single_choice": "multiple_choice_question",
          "multiple_response": "multiple_answers_question", "short_answer": "short_answer_question",
          "numerical": "numerical_question", "essay": "essay_question", "file_upload": "file_upload_question"}


def _paragraphs(lines: list[str]) -> str:
    """Lines of one text: continuation lines join their paragraph, blank lines separate paragraphs."""
    text = "\n".join(lines).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


def _float(text: str) -> float | None:
    try:
        return float(text.replace("_", ""))
    except ValueError:
        return None


def _numeric(text: str) -> Data | None:
    """``[min, max]``, ``ans +- margin`` (margin may be a percentage) or an exact ``ans``."""
    text = text.strip()
    interval = re.fullmatch(r"\[\s*(\S+?)\s*,\s*(\S+?)\s*\]", text)
    if interval:
        low, high = _float(interval.group(1)), _float(interval.group(2))
        if low is None or high is None:
            return None
        low, high = sorted((low, high))
        return {"value": (low + high) / 2, "tolerance": (high - low) / 2}
    margin = re.fullmatch(r"(\S+)\s*\+-\s*(\S+?)(%?)", text)
    if margin:
        value, tolerance = _float(margin.group(1)), _float(margin.group(2))
        if value is None or tolerance is None:
            return None
        return {"value": value, "tolerance": tolerance, "tolerance_mode": "percent" if margin.group(3) else "absolute"}
    value = _float(text)
    return {"value": value} if value is not None else None
