"""Quiz pages: a quiz as people put it on a web page or in a document, scraped or saved as text.

Questions (bulleted or numbered) followed by lettered options, then a revealed answer and an
explanation, in English or Korean, like shared/seed/ray-train-tune-quiz.ko.txt:

    - Ray Train의 `ScalingConfig`가 하는 역할은 무엇인가요?
    - A) 워커를 몇 개 실행할지 ...
    정답 보기
    정답: A) 워커를 몇 개 실행할지 ...
    설명: ...

The reader forgives what scraping does to such a page: options glued onto one line
(``...했다 - C) CPU``, ``무엇인가요?- A) ...``), a question broken over lines where a code span
was, toggle lines ("정답 보기", "Show answer"), ``<details><summary>Answer</summary>`` blocks and
Markdown emphasis around labels (``**Answer:** B``). The first line is the title; short lines
between questions that introduce more questions are section headings.

What scraping lost cannot be recovered: code formatting (``ScalingConfig`` comes back as plain
text), and an option's text where the scrape ran words together, unless the answer line repeats
that option intact, in which case the answer's copy is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import DiagnosticSink, SourceSpan
from ..readers.markdown import syntax as S
from .base import INVALID, LOST, ImportedQuiz, QuizBuilder, guess_language, sanitise_id
from .markup import escape_markdown, renders_as_text
from .safety import read_input

Data = dict[str, Any]

#: Label words -> role, English and Korean (the Markdown dialect's labels, and a few more).
LABELS = {**{k: v for k, v in S.QUESTION_LABELS.items()}, "답": "answer", "solution": "explanation", "풀이": "explanation",
          "해답": "answer", "correct": "answer", "rationale": "explanation", "feedback": "explanation"}
LABEL = re.compile(r"^[*_]{0,2}(" + "|".join(sorted(map(re.escape, LABELS), key=len, reverse=True)) + r")[*_]{0,2}\s*[:：][*_]{0,2}\s*(.*)$", re.I)
TOGGLE = re.compile(r"^[▶▼►▸⯈\s]*(정답\s*보기|정답\s*확인|해설\s*보기|show\s+(the\s+)?answers?|reveal\s+(the\s+)?answers?|click\s+to\s+reveal|answer)\s*[▶▼►▸]?$", re.I)
OPTION = re.compile(r"^(?:[-*+•]\s+)?\(?([A-Ha-h])[).]\s+(.*)$")
QUESTION = re.compile(r"^(?:[-*+•]\s+|(?:Q|문제\s*)?\d{1,3}[.):]\s*|Q\d+\s+)(.+)$")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*$")
#: Options glued by a scrape: "...했다 - C) CPU" or "무엇인가요?- A) 워커".
GLUED = re.compile(r"(?<=\S)\s*-\s+(?=[A-H]\)\s)")
SENTENCE_END = re.compile(r"[.?!。？！:]$|[다요음임함됨]\.$")
DETAILS = re.compile(r"^</?details[^>]*>|^<summary>(.*?)</summary>", re.I)


def sniff(path: Path, head: bytes) -> bool:
    return True  # the fallback for text: every other format is recognised first


@dataclass
class _Question:
    line: int
    stem: list[str]
    options: list[tuple[str, list[str]]] = field(default_factory=list)
    labels: dict[str, list[str]] = field(default_factory=dict)
    #: The list the next plain line continues, and how ("stem"/"option" join lines, "label" keeps paragraphs).
    current: list[str] | None = None
    mode: str = "stem"

    @property
    def answered(self) -> bool:
        return "answer" in self.labels or "explanation" in self.labels


def import_quizpage(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    markdown = path.suffix.lower() in (".md", ".markdown")
    return _Page(path, display, sink, markdown).read(_unglue(text.split("\n")))


def _unglue(lines: list[str]) -> list[tuple[int, str]]:
    """Lines with their numbers, glued options split apart."""
    out = []
    for number, line in enumerate(lines, 1):
        for piece in GLUED.sub("\n- ", line).split("\n"):
            out += [(number, part) for part in _split_options(piece.rstrip())]
    return out


def _split_options(line: str) -> list[str]:
    """``A) Nucleus B) Mitochondrion C) Ribosome`` -> one option a line, the letters in sequence."""
    option = OPTION.match(line)
    if not option:
        return [line]
    letter = option.group(1).upper()
    following = chr(ord(letter) + 1)
    match = re.search(rf"\s+\(?(?={following}[).]\s)", line[option.start(2):])
    if not match:
        return [line]
    cut = option.start(2) + match.start()
    return [line[:cut].rstrip()] + _split_options(line[option.start(2) + match.end():])


class _Page:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, markdown: bool) -> None:
        self.path, self.display, self.markdown = path, display, markdown
        self.builder = QuizBuilder(display, sink)
        self.title: str | None = None
        self.description: list[str] = []
        self.section: Data | None = None
        self.question: _Question | None = None
        self.texts: list[str] = []
        self.in_front = False

    def read(self, lines: list[tuple[int, str]]) -> list[ImportedQuiz]:
        for index, (number, raw) in enumerate(lines):
            line = raw.strip()
            if not line:
                if self.question and self.question.current is not None and self.question.mode == "label":
                    self.question.current.append("")
                continue
            if TOGGLE.match(line) and not LABEL.match(line):
                continue
            details = DETAILS.match(line)
            if details:
                continue  # a <details> block only hides the answer; its content is read as usual
            self._line(line, number, lines[index + 1:])
        self._finish()
        title = self.title or self.path.stem
        description = _join(self.description, paragraphs=True)
        quiz = self.builder.build(sanitise_id(self.path.stem) or None, title, guess_language(self.texts + [title]),
                                  self._text(description) or None)
        return [ImportedQuiz(quiz, {}, self.display)] if quiz else []

    def span(self, line: int) -> SourceSpan:
        return SourceSpan(self.display, line, 1)

    def _line(self, line: str, number: int, rest: list[tuple[int, str]]) -> None:
        q = self.question
        heading = HEADING.match(line)
        if heading:
            self._finish()
            if self.title is None:
                self.title = heading.group(1)
            else:
                self.section = self.builder.section(heading.group(1))
            return
        label = LABEL.match(line)
        if label and q is not None:
            role = LABELS[label.group(1).lower()]
            q.labels.setdefault(role, [])
            if q.labels[role]:
                q.labels[role].append("")
            q.labels[role].append(label.group(2).strip())
            q.current, q.mode = q.labels[role], "label"
            return
        option = OPTION.match(line)
        if option and q is not None and not q.answered:
            q.options.append((option.group(1).upper(), [option.group(2).strip()]))
            q.current, q.mode = q.options[-1][1], "option"
            return
        question = QUESTION.match(line)
        if question and (q is None or q.answered or not (q.options or q.mode == "label")):
            if q is not None and not q.answered and not q.options:
                # A bullet inside a question without options yet: its text went on.
                if q.stem and not line[:1].isdigit():
                    q.stem.append(question.group(1).strip())
                    return
            self._finish()
            self.question = _Question(number, [question.group(1).strip()])
            self.question.current = self.question.stem
            return
        if self.title is None:
            self.title = line
            return
        if q is None and self.section is None and not self._is_heading(line, rest):
            self.description.append(line)
            return
        if (q is None or q.answered) and self._is_heading(line, rest):
            self._finish()
            self.section = self.builder.section(line)
            return
        if q is not None and q.current is not None:
            q.current.append(line)
            return
        self.builder.warn(LOST, f"line {number} belongs to no question; skipped", self.span(number))

    def _starts_questions(self, rest: list[tuple[int, str]]) -> bool:
        following = next((line.strip() for _, line in rest if line.strip()), "")
        return bool(QUESTION.match(following) or HEADING.match(following))

    def _is_heading(self, line: str, rest: list[tuple[int, str]]) -> bool:
        """A short line that is not a sentence, followed by a question."""
        return len(line) <= 60 and not SENTENCE_END.search(line) and self._starts_questions(rest)

    def _finish(self) -> None:
        q, self.question = self.question, None
        if q is None:
            return
        if self.section is None:
            self.section = self.builder.section(self.title or self.path.stem)
        stem = self._text(_join(q.stem))
        self.texts.append(stem)
        data: Data = {"stem": stem, "feedback": {}}
        for role, key in (("explanation", "general"), ("correct", "correct"), ("incorrect", "incorrect"),
                          ("partially_correct", "partially_correct")):
            if q.labels.get(role):
                data["feedback"][key] = self._text(_join(q.labels[role], paragraphs=True))
        answer = _join(q.labels.get("answer", []), paragraphs=True)
        span = self.span(q.line)
        if q.options:
            options = [(letter, _join(text)) for letter, text in q.options]
            letters = _answer_letters(answer, options)
            if not letters:
                self.builder.warn(INVALID, f"question '{stem[:50]}' has options but no answer that names one; skipped", span,
                                  hint="add 'Answer: B' after the options")
                return
            choices = []
            for letter, text in options:
                text = _repaired(text, answer) if letter in letters and len(letters) == 1 else text
                choices.append({"id": letter, "text": self._text(text), "correct": letter in letters})
            data.update(type="single_choice" if len(letters) == 1 else "multiple_response", choices=choices)
        elif answer.strip().lower() in S.TRUE_WORDS[:2] + S.FALSE_WORDS[:2]:
            data.update(type="true_false", answer=answer.strip().lower() in S.TRUE_WORDS)
        elif answer:
            data.update(type="essay", model_answer=self._text(answer))
        else:
            data.update(type="essay")
            self.builder.warn(LOST, f"question '{stem[:50]}' has no options and no answer: imported as an essay without a model answer", span)
        self.builder.add(self.section, data, span, stem)

    def _text(self, text: str) -> str:
        """Markdown pages keep their Markdown; plain text is escaped where it would render differently."""
        if self.markdown or not text:
            return text
        # Hangul right before a Latin letter: the scrape dropped the code span (and its space)
        # between them, as in "Trainer와ScalingConfig가".
        text = re.sub(r"([\uac00-\ud7a3])(?=[A-Za-z`])", r"\1 ", text)
        paragraphs = text.split("\n\n")
        return "\n\n".join(p if renders_as_text(p) else escape_markdown(p) for p in paragraphs)


def _join(lines: list[str], paragraphs: bool = False) -> str:
    """Lines of one text. In stems and options a break is a scrape's artefact (a lost code span):
    a space. In answers and explanations a line that ends a sentence ends a paragraph."""
    out = ""
    for line in lines:
        if not line:
            out = out.rstrip() + "\n\n" if out else out
        elif not out or out.endswith("\n\n"):
            out += line
        elif paragraphs and SENTENCE_END.search(out):
            out += "\n\n" + line
        else:
            out += ("\n" if paragraphs else " ") + line
    return out.strip()


def _answer_letters(answer: str, options: list[tuple[str, str]]) -> list[str]:
    letters = [letter for letter, _ in options]
    first = answer.split("\n", 1)[0].strip().strip("*_ ")
    many = re.match(r"^\(?([A-Ha-h])\)?(?:\s*[,/&]\s*\(?([A-Ha-h])\)?)+\s*$", first)
    if many:
        return [c.upper() for c in re.findall(r"[A-Ha-h]", first) if c.upper() in letters]
    single = re.match(r"^\(?([A-Ha-h])\)?(?:[.):]|\s|$)", first)
    if single and single.group(1).upper() in letters:
        return [single.group(1).upper()]
    squeezed = re.sub(r"\s+", "", first)
    return [letter for letter, text in options if re.sub(r"\s+", "", text) == squeezed][:1]


def _repaired(option: str, answer: str) -> str:
    """The answer line repeats the option ("정답: B) text"); when the two differ only in spaces, the
    scrape ran words together in the option, and the answer's copy is the better one."""
    repeated = re.sub(r"^\(?[A-Ha-h]\)?[.):]?\s*", "", answer.split("\n", 1)[0].strip())
    if repeated and repeated != option and re.sub(r"\s+", "", repeated) == re.sub(r"\s+", "", option):
        return repeated
    return option
