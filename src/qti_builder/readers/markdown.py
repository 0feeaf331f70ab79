"""Markdown sources (``*.md``): the quiz dialect documented in docs/source-format.md.

The structure is line based, like text2qti's marker table: YAML front matter, ``#`` headings for
sections, ``1.`` for a question, ``A)`` for an option, and labelled blocks (``Answer:``/``정답:``,
``Explanation:``/``설명:``, ...). Everything between markers is Markdown content and is kept as
written; it is rendered later by each writer. Lines inside code fences are never markers.

The reader only builds plain data and a :class:`SourceMap`; the model validates it.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import Quiz
from .base import KEY, Loc, SourceMap, decode_source, suggest, validate_quiz
from .yaml import load_yaml

# Label text (lower case) -> the role of its block. English and Korean spellings of one role sit
# side by side; adding a language is adding lines here.
QUESTION_LABELS: dict[str, str] = {
    "answer": "answer",
    "correct answer": "answer",
    "model answer": "answer",
    "정답": "answer",
    "모범 답안": "answer",
    "모범답안": "answer",
    "explanation": "explanation",
    "general feedback": "explanation",
    "설명": "explanation",
    "해설": "explanation",
    "correct feedback": "correct",
    "정답 피드백": "correct",
    "incorrect feedback": "incorrect",
    "오답 피드백": "incorrect",
    "partially correct feedback": "partially_correct",
    "부분 정답 피드백": "partially_correct",
}
CHOICE_LABELS: dict[str, str] = {"feedback": "feedback", "피드백": "feedback"}

#: Front-matter keys, mapped to model keys (``lang`` is a common alias).
FRONT_MATTER_KEYS = {
    "id": "id",
    "title": "title",
    "language": "language",
    "lang": "language",
    "description": "description",
    "points": "points",
    "shuffle": "shuffle",
}
QUESTION_ATTRIBUTES = ("id", "points", "type", "shuffle", "title", "tags")
SECTION_ATTRIBUTES = ("id", "shuffle", "select")
#: Question kinds the Markdown dialect can express so far; the others are written in YAML sources.
MARKDOWN_TYPES = ("single_choice", "multiple_response", "essay", "text_only")

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_QUESTION = re.compile(r"^(\d{1,4})[.)]\s+(.*?)\s*$")
_OPTION = re.compile(r"^(?:[-*+]\s+)?([A-Za-z])[.)]\s+(.*?)\s*$")
_LABEL = re.compile(r"^([^\W\d_][^:：]{0,30}?)\s*[:：](?:\s+(.*?))?\s*$")
_ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")
_ATTR = re.compile(r'#([^\s}]+)|([A-Za-z_]+)=(?:"([^"]*)"|(\S+))|(\S+)')
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass
class _Block:
    """Lines of Markdown content and where the first of them starts."""

    line: int
    column: int
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        first, rest = (self.lines[0], self.lines[1:]) if self.lines else ("", [])
        body = textwrap.dedent("\n".join(rest))
        return (first.strip() + ("\n" + body if rest else "")).strip()


@dataclass
class _Option:
    letter: str
    line: int
    text: _Block
    feedback: _Block | None = None


@dataclass
class _Question:
    line: int
    attrs: dict[str, tuple[str, int]]
    stem: _Block
    options: list[_Option] = field(default_factory=list)
    labels: dict[str, _Block] = field(default_factory=dict)


@dataclass
class _Section:
    level: int
    line: int
    title: str
    attrs: dict[str, tuple[str, int]]
    intro: _Block
    questions: list[_Question] = field(default_factory=list)
    children: list["_Section"] = field(default_factory=list)


class MarkdownReader:
    name = "markdown"
    suffixes = (".md", ".markdown")

    def read(self, path: Path, display: str, sink: DiagnosticSink) -> tuple[Quiz, SourceMap] | None:
        errors_before = len(sink.errors)
        text = decode_source(path.read_bytes(), display, sink)
        if text is None:
            return None
        source = SourceMap(display)
        data = _Parser(text, source, sink, default_id=path.stem).parse()
        if data is None or len(sink.errors) > errors_before:
            return None
        quiz = validate_quiz(data, source, sink)
        return (quiz, source) if quiz else None


class _Parser:
    def __init__(self, text: str, source: SourceMap, sink: DiagnosticSink, default_id: str) -> None:
        self.lines = text.split("\n")
        self.source = source
        self.sink = sink
        self.default_id = default_id

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.error(code, message, SourceSpan(self.source.path, line, column), hint)

    # -- front matter ---------------------------------------------------------------------------

    def parse(self) -> dict[str, Any] | None:
        front, body_start = self._front_matter()
        if front is None:
            return None
        description, sections = self._body(body_start)
        return self._quiz_data(front, description, sections)

    def _front_matter(self) -> tuple[dict[str, Any] | None, int]:
        if not self.lines or self.lines[0].strip() != "---":
            self.error(
                "QB103",
                "a quiz source starts with YAML front matter",
                1,
                hint="begin the file with the lines '---', 'title: My quiz', '---'",
            )
            return None, 0
        for end in range(1, len(self.lines)):
            if self.lines[end].strip() in ("---", "..."):
                break
        else:
            self.error("QB104", "the front matter is not closed", 1, hint="add a line '---' after the last front-matter key")
            return None, 0
        raw = load_yaml("\n".join(self.lines[1:end]), self.source, self.sink, line_offset=1, loc=("__front__",))
        if raw is None:
            return None, end + 1
        if not isinstance(raw, dict):
            self.error("QB105", "the front matter must be 'key: value' lines", 2)
            return None, end + 1
        front: dict[str, Any] = {}
        for key, value in raw.items():
            span = self.source.locate(("__front__", KEY, key))
            if key not in FRONT_MATTER_KEYS:
                self.error(
                    "QB106",
                    f"unknown front-matter key '{key}'{suggest(key, list(FRONT_MATTER_KEYS))}",
                    span.line,
                    span.column,
                    hint=f"known keys: {', '.join(FRONT_MATTER_KEYS)}",
                )
                continue
            front[FRONT_MATTER_KEYS[key]] = value
            self.source.positions[(FRONT_MATTER_KEYS[key],)] = self.source.locate(("__front__", key))
        if "title" not in front:
            self.error("QB107", "the front matter has no 'title'", 1, hint="add a line 'title: ...' to the front matter")
        return front, end + 1

    # -- body -----------------------------------------------------------------------------------

    def _body(self, start: int) -> tuple[_Block, list[_Section]]:
        description = _Block(start + 1, 1)
        roots: list[_Section] = []
        stack: list[_Section] = []
        question: _Question | None = None
        current: _Block = description
        mode = "text"  # text | stem | option | label
        fence: str | None = None
        fence_line = 0

        for index in range(start, len(self.lines)):
            line = self.lines[index]
            lineno = index + 1
            fence_match = _FENCE.match(line)
            if fence:
                current.lines.append(line)
                if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence) and not line.strip()[len(fence_match.group(1)):].strip():
                    fence = None
                continue
            if fence_match:
                fence, fence_line = fence_match.group(1), lineno
                current.lines.append(line)
                continue

            indented = line[:1] in (" ", "\t")
            heading = None if indented else _HEADING.match(line)
            if heading:
                title, attrs = self._attrs(heading.group(2), lineno, heading.start(2), SECTION_ATTRIBUTES)
                section = _Section(len(heading.group(1)), lineno, title, attrs, _Block(lineno + 1, 1))
                while stack and stack[-1].level >= section.level:
                    stack.pop()
                (stack[-1].children if stack else roots).append(section)
                stack.append(section)
                question, current, mode = None, section.intro, "text"
                continue

            start_q = None if indented else _QUESTION.match(line)
            if start_q:
                stem_text, attrs = self._attrs(start_q.group(2), lineno, start_q.start(2), QUESTION_ATTRIBUTES)
                question = _Question(lineno, attrs, _Block(lineno, start_q.start(2) + 1, [stem_text]))
                if not stack:
                    implicit = _Section(1, lineno, "", {}, _Block(lineno, 1))
                    roots.append(implicit)
                    stack.append(implicit)
                stack[-1].questions.append(question)
                current, mode = question.stem, "stem"
                continue

            if question is None:
                current.lines.append(line)
                continue

            option = None if indented or mode == "label" else _OPTION.match(line)
            if option:
                opt = _Option(option.group(1).upper(), lineno, _Block(lineno, option.start(2) + 1, [option.group(2)]))
                question.options.append(opt)
                current, mode = opt.text, "option"
                continue

            label = _LABEL.match(line.strip())
            if label:
                name = label.group(1).strip().lower()
                col = len(line) - len(line.lstrip()) + 1
                value_col = col + (label.start(2) if label.group(2) is not None else len(line.strip()))
                if mode == "option" and indented and name in CHOICE_LABELS:
                    opt = question.options[-1]
                    opt.feedback = _Block(lineno, value_col, [label.group(2) or ""])
                    current = opt.feedback
                    continue
                if not indented and name in QUESTION_LABELS:
                    role = QUESTION_LABELS[name]
                    if role in question.labels:
                        self.error("QB116", f"a second '{label.group(1)}' block in one question", lineno, col,
                                   hint="merge the two blocks into one")
                    block = _Block(lineno, value_col, [label.group(2) or ""])
                    question.labels[role] = block
                    current, mode = block, "label"
                    continue
                if not indented and (mode == "option" or suggest(name, list(QUESTION_LABELS))):
                    self.error(
                        "QB115",
                        f"unknown label '{label.group(1)}'{suggest(name, list(QUESTION_LABELS))}",
                        lineno,
                        col,
                        hint="labels: " + ", ".join(_label_names()),
                    )
                    continue

            if mode == "option" and line.strip() and not indented:
                self.error(
                    "QB117",
                    "text after the options that belongs to no option or label",
                    lineno,
                    hint=f"indent it to continue option {question.options[-1].letter}, or start it with a label such as 'Explanation:'",
                )
                continue
            current.lines.append(line)

        if fence:
            self.error("QB108", f"code fence {fence} is never closed", fence_line, hint=f"add a closing line {fence}")
        return description, roots

    def _attrs(
        self, text: str, lineno: int, offset: int, allowed: tuple[str, ...]
    ) -> tuple[str, dict[str, tuple[str, int]]]:
        """Split ``Title {#id key=value}`` into the title and its attributes (value, column)."""
        match = _ATTRS.search(text)
        if not match:
            return text, {}
        attrs: dict[str, tuple[str, int]] = {}
        base = offset + match.start(1) + 1
        for item in _ATTR.finditer(match.group(1)):
            col = base + item.start()
            if item.group(1):
                key, value = "id", item.group(1)
            elif item.group(2):
                key, value = item.group(2), item.group(3) if item.group(3) is not None else item.group(4)
            else:
                self.error("QB109", f"cannot read attribute '{item.group(5)}'", lineno, col,
                           hint="write attributes as {#id key=value}")
                continue
            if key not in allowed:
                self.error("QB109", f"unknown attribute '{key}'{suggest(key, list(allowed))}", lineno, col,
                           hint=f"attributes here: {', '.join(allowed)}")
                continue
            attrs[key] = (value, col)
        return text[: match.start()].rstrip(), attrs

    # -- plain data -----------------------------------------------------------------------------

    def _quiz_data(self, front: dict[str, Any], description: _Block, sections: list[_Section]) -> dict[str, Any] | None:
        defaults = {k: front.pop(k) for k in ("points", "shuffle") if k in front}
        data: dict[str, Any] = {"id": self.default_id, **front}
        intro = description.text()
        if intro:
            if "description" in data:
                self.error("QB118", "the quiz has a description in the front matter and text before the first section",
                           description.line, hint="keep one of the two")
            data["description"] = intro
            self.source.at(("description",), description.line)
        if not sections:
            self.error("QB119", "the quiz has no questions", description.line,
                       hint="add a question: a line '1. Question text' followed by options 'A) ...' and 'Answer: A'")
            return None
        data["sections"] = [self._section_data(s, ("sections", i), data.get("title", ""), defaults) for i, s in enumerate(sections)]
        self._check_unique_ids(data["sections"], ("sections",), {})
        return data

    def _check_unique_ids(self, sections: list[dict[str, Any]], loc: Loc, seen: dict[str, int]) -> None:
        """Located here rather than by the model, which can only say that some id repeats."""
        for i, section in enumerate(sections):
            entries = [(section["id"], loc + (i,))] + [
                (q["id"], loc + (i, "questions", j)) for j, q in enumerate(section["questions"])
            ]
            for ident, where in entries:
                span = self.source.locate(where + ("id",))
                if ident in seen:
                    self.error("QB133", f"id '{ident}' is already used on line {seen[ident]}", span.line, span.column,
                               hint="ids must be unique in a quiz; rename one of them")
                else:
                    seen[ident] = span.line
            self._check_unique_ids(section["sections"], loc + (i, "sections"), seen)

    def _section_data(self, section: _Section, loc: Loc, quiz_title: str, defaults: dict[str, Any]) -> dict[str, Any]:
        title = section.title or str(quiz_title)
        data: dict[str, Any] = {"id": "s" + _digest(title), "title": title}
        self.source.at(loc, section.line)
        for key, (value, col) in section.attrs.items():
            data[key] = value
            self.source.at(loc + (key,), section.line, col)
        intro = section.intro.text()
        if intro and section.title:
            data["description"] = intro
        data["questions"] = [self._question_data(q, loc + ("questions", j), defaults) for j, q in enumerate(section.questions)]
        data["sections"] = [self._section_data(s, loc + ("sections", k), quiz_title, defaults) for k, s in enumerate(section.children)]
        return data

    def _question_data(self, q: _Question, loc: Loc, defaults: dict[str, Any]) -> dict[str, Any]:
        self.source.at(loc, q.line)
        stem = q.stem.text()
        data: dict[str, Any] = {"id": "q" + _digest(stem), "stem": stem}
        for key, (value, col) in q.attrs.items():
            data[key] = [t.strip() for t in value.split(",") if t.strip()] if key == "tags" else value
            self.source.at(loc + (key,), q.line, col)
        self.source.at(loc + ("stem",), q.stem.line, q.stem.column)
        if not stem:
            self.error("QB130", "the question has no text", q.line, hint="write the question after the number: '1. What is ...?'")

        feedback = {role: q.labels[role].text() for role in ("explanation", "correct", "incorrect", "partially_correct") if role in q.labels}
        if feedback:
            data["feedback"] = {("general" if k == "explanation" else k): v for k, v in feedback.items()}
            for role, key in (("explanation", "general"), ("correct", "correct"), ("incorrect", "incorrect"), ("partially_correct", "partially_correct")):
                if role in q.labels:
                    self.source.at(loc + ("feedback", key), q.labels[role].line, q.labels[role].column)

        kind = q.attrs.get("type", (None, 0))[0]
        if kind is not None and kind not in MARKDOWN_TYPES:
            self.error("QB131", f"question type '{kind}' cannot be written in Markdown yet{suggest(kind, list(MARKDOWN_TYPES))}",
                       q.line, q.attrs["type"][1], hint=f"Markdown supports {', '.join(MARKDOWN_TYPES)}; write other types in a YAML source")
            return data
        if q.options:
            self._choice_data(q, loc, data, kind)
        else:
            self._open_data(q, loc, data, kind)
        # Quiz-wide defaults from the front matter, where the question's kind has the field.
        for key, value in defaults.items():
            if key == "points" or data.get("type") in ("single_choice", "multiple_response"):
                data.setdefault(key, value)
        return data

    def _choice_data(self, q: _Question, loc: Loc, data: dict[str, Any], kind: str | None) -> None:
        if kind in ("essay", "text_only"):
            self.error("QB132", f"a question of type {kind} has no options", q.options[0].line,
                       hint="remove the options, or remove the type attribute")
        choices: list[dict[str, Any]] = []
        letters: list[str] = []
        for k, opt in enumerate(q.options):
            if opt.letter in letters:
                self.error("QB122", f"option {opt.letter} appears twice", opt.line, hint="give each option its own letter")
            letters.append(opt.letter)
            text = opt.text.text()
            if not text:
                self.error("QB123", f"option {opt.letter} has no text", opt.line)
            choice: dict[str, Any] = {"id": opt.letter, "text": text, "correct": False}
            if opt.feedback and opt.feedback.text():
                choice["feedback"] = opt.feedback.text()
            self.source.at(loc + ("choices", k), opt.line)
            choices.append(choice)
        data["choices"] = choices
        answer = q.labels.get("answer")
        if answer is None:
            self.error("QB120", "the question has options but no correct answer", q.line,
                       hint="add a line 'Answer: B' (or '정답: B') after the options")
            return
        correct = self._answer_letters(answer, q)
        for choice in choices:
            choice["correct"] = choice["id"] in correct
        data["type"] = kind or ("multiple_response" if len(correct) > 1 else "single_choice")
        if data["type"] == "single_choice" and len(correct) > 1:
            self.error("QB121", f"a single-choice question has {len(correct)} correct answers", answer.line, answer.column,
                       hint="give one letter, or drop type=single_choice to make it a multiple-response question")

    def _answer_letters(self, answer: _Block, q: _Question) -> list[str]:
        value = answer.text()
        letters = [o.letter for o in q.options]
        single = re.match(r"^([A-Za-z])(?:[.)]\s*(.*))?$", value, re.S)
        many = re.match(r"^[A-Za-z](?:\s*[,/]\s*[A-Za-z])+$", value)
        if single:
            picked = [single.group(1).upper()]
            given = single.group(2)
            option = next((o for o in q.options if o.letter == picked[0]), None)
            if given and option and _plain(given) != _plain(option.text.text()):
                self.sink.warning("QB124", f"the answer's text differs from option {picked[0]}",
                                  SourceSpan(self.source.path, answer.line, answer.column),
                                  hint="copy the option's text, or give only its letter")
        elif many:
            picked = [c.upper() for c in re.findall(r"[A-Za-z]", value)]
        else:
            self.error("QB125", f"cannot read the answer '{_shorten(value)}'", answer.line, answer.column,
                       hint="give the letter of the correct option, e.g. 'Answer: B' or 'Answer: A, C'")
            return []
        for letter in picked:
            if letter not in letters:
                self.error("QB126", f"the answer names option {letter}, which does not exist", answer.line, answer.column,
                           hint=f"options are {', '.join(letters)}")
        return picked

    def _open_data(self, q: _Question, loc: Loc, data: dict[str, Any], kind: str | None) -> None:
        answer = q.labels.get("answer")
        if kind in ("single_choice", "multiple_response"):
            self.error("QB127", f"a {kind} question needs options", q.line, hint="add options 'A) ...', 'B) ...'")
            return
        if kind is None and answer is None:
            self.error("QB128", "the question has no options and no answer", q.line,
                       hint="add options and 'Answer: B', a model answer 'Answer: ...' for an essay, or {type=essay}")
            return
        data["type"] = kind or "essay"
        if data["type"] == "essay" and answer is not None:
            data["model_answer"] = answer.text()
            self.source.at(loc + ("model_answer",), answer.line, answer.column)
        elif answer is not None:
            self.error("QB129", "text-only items have no answer", answer.line, hint="remove the answer block")


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=4).hexdigest()


def _plain(markdown: str) -> str:
    return " ".join(markdown.replace("`", "").split())


def _shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _label_names() -> list[str]:
    return [name.capitalize() if name.isascii() else name for name in QUESTION_LABELS]
