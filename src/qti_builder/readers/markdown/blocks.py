"""First pass: split a Markdown source into drafts of sections, questions, options and labelled
blocks, line by line. Content between markers is kept as written; lines inside code fences are
never markers. Nothing here knows the question kinds' rules beyond which markers they use.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from ...diagnostics import DiagnosticSink, SourceSpan
from ..base import suggest
from . import syntax as S

Attrs = dict[str, tuple[str, int]]  # name -> (value, column)


@dataclass
class Block:
    """Lines of Markdown content and where the first of them starts."""

    line: int
    column: int
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        first, rest = (self.lines[0], self.lines[1:]) if self.lines else ("", [])
        body = textwrap.dedent("\n".join(rest))
        return (first.strip() + ("\n" + body if rest else "")).strip()


@dataclass
class Option:
    letter: str
    line: int
    text: Block
    attrs: Attrs = field(default_factory=dict)
    feedback: Block | None = None


@dataclass
class Label:
    role: str
    name: str
    line: int
    column: int
    block: Block
    #: From ``Answer (50%):``.
    score: float | None = None
    feedback: Block | None = None


@dataclass
class Question:
    line: int
    attrs: Attrs
    stem: Block
    options: list[Option] = field(default_factory=list)
    items: list[Block] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)

    @property
    def kind(self) -> str | None:
        return self.attrs["type"][0] if "type" in self.attrs else None

    def label(self, role: str) -> Label | None:
        return next((l for l in self.labels if l.role == role), None)

    def labels_of(self, role: str) -> list[Label]:
        return [l for l in self.labels if l.role == role]


@dataclass
class Section:
    level: int
    line: int
    title: str
    attrs: Attrs
    intro: Block
    questions: list[Question] = field(default_factory=list)
    children: list["Section"] = field(default_factory=list)


class Scanner:
    def __init__(self, lines: list[str], path: str, sink: DiagnosticSink) -> None:
        self.lines = lines
        self.path = path
        self.sink = sink

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.error(code, message, SourceSpan(self.path, line, column), hint)

    def scan(self, start: int) -> tuple[Block, list[Section]]:
        """Everything after the front matter: the quiz description and the section tree."""
        description = Block(start + 1, 1)
        roots: list[Section] = []
        stack: list[Section] = []
        question: Question | None = None
        current = description
        mode = "text"  # text | stem | option | items | label
        fence: str | None = None
        fence_line = 0

        for index in range(start, len(self.lines)):
            line, lineno = self.lines[index], index + 1
            indented = line[:1] in (" ", "\t")
            fence_match = S.FENCE.match(line)
            if fence:
                current.lines.append(line)
                closer = fence_match.group(1) if fence_match else ""
                if closer[:1] == fence[0] and len(closer) >= len(fence) and not line.strip()[len(closer):].strip():
                    fence = None
                continue
            if fence_match:
                if mode in ("option", "items") and not indented:
                    self.error("QB117", "a code block after the options belongs to no option or label", lineno,
                               hint="indent it to put it in the last option, or start an 'Explanation:' block before it")
                fence, fence_line = fence_match.group(1), lineno
                current.lines.append(line)
                continue

            heading = None if indented else S.HEADING.match(line)
            if heading:
                title, attrs = self.attrs(heading.group(2), lineno, heading.start(2), S.SECTION_ATTRIBUTES)
                section = Section(len(heading.group(1)), lineno, title, attrs, Block(lineno + 1, 1))
                while stack and stack[-1].level >= section.level:
                    stack.pop()
                (stack[-1].children if stack else roots).append(section)
                stack.append(section)
                question, current, mode = None, section.intro, "text"
                continue

            start_q = None if indented else S.QUESTION.match(line)
            if start_q:
                stem, attrs = self.attrs(start_q.group(2), lineno, start_q.start(2), S.QUESTION_ATTRIBUTES)
                question = Question(lineno, attrs, Block(lineno, start_q.start(2) + 1, [stem]))
                if not stack:
                    stack.append(Section(1, lineno, "", {}, Block(lineno, 1)))
                    roots.append(stack[-1])
                stack[-1].questions.append(question)
                current, mode = question.stem, "stem"
                continue

            if question is None:
                current.lines.append(line)
                continue

            item = S.ITEM.match(line) if not indented and question.kind in S.ITEM_KINDS and mode in ("stem", "items") else None
            if item:
                block = Block(lineno, item.start(1) + 1, [item.group(1)])
                question.items.append(block)
                current, mode = block, "items"
                continue

            option = S.OPTION.match(line) if not indented and question.kind not in S.ITEM_KINDS else None
            if option and mode == "label" and question.kind is None and not question.options:
                self.error("QB134", "options come before the answer and the other labelled blocks", lineno,
                           hint="move the options up; in a model answer, indent a line that starts like 'A)'")
                option = None
            if option and mode != "label":
                text, attrs = self.attrs(option.group(2), lineno, option.start(2), S.OPTION_ATTRIBUTES)
                opt = Option(option.group(1).upper(), lineno, Block(lineno, option.start(2) + 1, [text]), attrs)
                question.options.append(opt)
                current, mode = opt.text, "option"
                continue

            label = S.LABEL.match(line.strip())
            taken = self._label(question, label, line, lineno, indented, mode) if label else None
            if taken is not None:
                current, mode = taken[0] or current, taken[1]
                continue

            if mode in ("option", "items") and line.strip() and not indented:
                where = f"option {question.options[-1].letter}" if mode == "option" else "the last item"
                self.error("QB117", "text after the options that belongs to no option or label", lineno,
                           hint=f"indent it to continue {where}, or start it with a label such as 'Explanation:'")
                continue
            current.lines.append(line)

        if fence:
            self.error("QB108", f"code fence {fence} is never closed", fence_line, hint=f"add a closing line {fence}")
        return description, roots

    def _label(
        self, question: Question, label: re.Match[str], line: str, lineno: int, indented: bool, mode: str
    ) -> tuple[Block | None, str] | None:
        """Handle a ``Name: value`` line: the block that continues after it (None: unchanged) and the
        new mode, or None when the line is ordinary content."""
        raw = label.group(1).strip()
        scored = S.LABEL_SCORE.match(raw)
        name = (scored.group(1) if scored else raw).strip().lower()
        col = len(line) - len(line.lstrip()) + 1
        value_col = col + (label.start(2) if label.group(2) is not None else len(line.strip()))
        block = Block(lineno, value_col, [label.group(2) or ""])

        if indented and name in S.CHOICE_LABELS:
            if mode == "option":
                target = question.options[-1]
                if target.feedback is not None:
                    self.error("QB116", f"a second feedback for option {target.letter}", lineno, col, hint="merge the two")
                target.feedback = block
                return block, mode
            last = question.labels[-1] if question.labels else None
            if mode == "label" and last is not None and last.role == "answer":
                if last.feedback is not None:
                    self.error("QB116", "a second feedback for one answer", lineno, col, hint="merge the two")
                last.feedback = block
                return block, mode
        if indented:
            return None
        if name in S.QUESTION_LABELS:
            role = S.QUESTION_LABELS[name]
            if role != "answer" and question.label(role):
                self.error("QB116", f"a second '{raw}' block in one question", lineno, col, hint="merge the two blocks into one")
            question.labels.append(Label(role, raw, lineno, col, block, float(scored.group(2)) if scored else None))
            return block, "label"
        if name in S.CHOICE_LABELS and mode == "option":
            self.error("QB136", f"'{raw}:' must be indented to belong to option {question.options[-1].letter}", lineno, col,
                       hint="indent it by a few spaces; for feedback on the whole question use 'Explanation:'")
            return None, mode
        strict = mode in ("option", "items")
        close = suggest(name, list(S.QUESTION_LABELS), cutoff=0.6 if strict else 0.8)
        if strict or close:
            self.error("QB115", f"unknown label '{raw}'{close}", lineno, col, hint="labels: " + ", ".join(_label_names()))
            return None, mode
        return None

    def attrs(self, text: str, lineno: int, offset: int, allowed: tuple[str, ...]) -> tuple[str, Attrs]:
        """Split ``Title {#id key=value flag}`` into the title and its attributes."""
        match = S.ATTRS.search(text)
        if not match:
            return text, {}
        attrs: Attrs = {}
        base = offset + match.start(1) + 1
        for item in S.ATTR.finditer(match.group(1)):
            col = base + item.start()
            if item.group(1):
                key, value = "id", item.group(1)
            elif item.group(2):
                key, value = item.group(2), item.group(3) if item.group(3) is not None else item.group(4)
            elif item.group(5):
                key, value = item.group(5), "true"
            else:
                self.error("QB109", f"cannot read attribute '{item.group(6)}'", lineno, col,
                           hint="write attributes as {#id key=value}")
                continue
            if key not in allowed:
                self.error("QB109", f"unknown attribute '{key}'{suggest(key, list(allowed))}", lineno, col,
                           hint=f"attributes here: {', '.join(allowed)}")
                continue
            attrs[key] = (value, col)
        return text[: match.start()].rstrip(), attrs


def _label_names() -> list[str]:
    return [name.capitalize() if name.isascii() else name for name in S.QUESTION_LABELS]
