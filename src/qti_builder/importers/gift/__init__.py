"""GIFT (Moodle's plain-text question format) -> one quiz; ``$CATEGORY:`` lines become sections.

Read the way Moodle reads it (question/format.php splits the file, question/format/gift/format.php
reads each question), so that a GIFT file becomes the questions, answers, fractions, feedback and
names Moodle's own import would make of it:

- every line is trimmed, and a blank line ends a question (so does a line ``0``: PHP's
  ``empty("0")``); lines starting with ``//`` are comments, whose ``[id:...]`` and ``[tag:...]``
  give the question's id and tags;
- :mod:`.block` reads one question: name, text, the first ``{...}`` and the type it decides.

What lives where: this module, :func:`sniff` and :func:`import_gift` (the file -> blocks ->
categories and questions -> the quiz); :mod:`.block`, one block.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...diagnostics import DiagnosticSink, SourceSpan
from ...model import Quiz
from ..base import LOST, SURPRISE, ImportedQuiz, QuizBuilder, guess_language, sanitise_id
from ..moodle.file import quiz_category, split_category_path
from ..moodletext import decode
from ..safety import read_input
from .block import Block, BlockReader, Category, Line, Question

__all__ = ["import_gift", "sniff"]

#: An answer part as GIFT writes one: {=...}, {~...}, {#number}, {T}/{FALSE}, with a weight or feedback.
_ANSWERS = re.compile(r"(?<![\\^_\w$}`])\{\s*(?:[=~][^{}]*[^\s{}][^{}]*|#\s*[=\d.+-][^{}]*|(?:T|F|TRUE|FALSE)\s*(?:#[^{}]*)?)\}")
_MARKS = re.compile(r"^\s*(?:\$CATEGORY:|::[^:\n]+::)", re.M)
#: Code and formulas in a page, whose braces are not GIFT's.
_CODE_AND_MATH = re.compile(r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$|\\\(.*?\\\)", re.S)


def sniff(path: Path, head: bytes) -> bool:
    """A ``.gift`` file, or a text file with GIFT's marks: a ``$CATEGORY:`` line, a ``::name::``
    question, or an answer part. Markdown pages are quiz pages: their braces are not GIFT's."""
    suffix = path.suffix.lower()
    if suffix == ".gift":
        return True
    if suffix in (".md", ".markdown", ".xml", ".html", ".htm", ".zip") or head.startswith((b"<", b"PK")):
        return False
    text = head.decode("utf-8", "replace")
    if _MARKS.search(text):
        return True
    return bool(_ANSWERS.search(_CODE_AND_MATH.sub(" ", text)))


def import_gift(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    builder = QuizBuilder(display, sink)
    blocks = _blocks(decode(raw, display, sink, "GIFT").split("\n"), display, builder)
    read: list[tuple[tuple[str, ...], Question]] = []
    category: tuple[str, ...] = ()
    texts: list[str] = []
    for block in blocks:
        result = BlockReader(builder, block).read()
        if isinstance(result, Category):
            category = split_category_path(result.text)
            if result.rest is not None:
                builder.warn(SURPRISE, "no blank line after $CATEGORY:: Moodle reads the lines after it as part of the category's "
                                       "name, and their question is lost; here they are read as a question",
                             SourceSpan(display, result.rest.lines[0].number, result.rest.lines[0].indent + 1),
                             hint="put a blank line after the $CATEGORY: line")
                result = BlockReader(builder, result.rest).read()
        if isinstance(result, Question):
            read.append((category, result))
            texts.append(result.data.get("stem", ""))
    quiz = _quiz(path, display, builder, read, texts)
    return [builder.imported(quiz)] if quiz else []


def _blocks(lines: list[str], display: str, builder: QuizBuilder) -> list[Block]:
    """readquestions: trimmed lines, a blank one (or ``0``) between questions."""
    blocks: list[Block] = []
    current: list[Line] = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text == "0":
            if text == "0" and current:
                builder.warn(SURPRISE, "a line holding only '0' is a blank line to Moodle (PHP's empty('0')): it ends the question and "
                                       "is left out", SourceSpan(display, number, len(line) - len(line.lstrip()) + 1),
                             hint="put the 0 on the line before it or after it")
            if current:
                blocks.append(Block(current, display))
            current = []
            continue
        current.append(Line(number, text, len(line) - len(line.lstrip())))
    if current:
        blocks.append(Block(current, display))
    return blocks


def _quiz(path: Path, display: str, builder: QuizBuilder, read: list[tuple[tuple[str, ...], Question]],
          texts: list[str]) -> Quiz | None:
    """The quiz: the category all questions are under is the quiz (its name the title, else the
    file's; its parent when questions sit in it: :func:`..moodle.file.quiz_category`), the
    categories below it its sections, nested as in Moodle."""
    categories = [category for category, _ in read]
    root = quiz_category(categories, categories)
    stem = re.sub(r"(\.gift)?(\.txt)?$", "", path.name, flags=re.I) or path.stem
    title = root[-1] if root else stem
    sections: dict[tuple[str, ...], dict[str, Any]] = {}

    def section_for(category: tuple[str, ...]) -> dict[str, Any]:
        if category not in sections:
            below = category[len(root):]
            parent = section_for(category[:-1]) if len(below) > 1 else None
            sections[category] = builder.section(category[-1] if below else title, parent)
        return sections[category]

    for category, question in read:
        where = category if category[:len(root)] == root and len(category) >= len(root) else root
        builder.add(section_for(where), question.data, question.span, question.label, question.preferred_id,
                    end_line=question.end_line, kind=question.kind, changed=question.changed)
    language = guess_language(texts)
    builder.warn(LOST, f"GIFT does not record the quiz's language; '{language}' was taken from its text", SourceSpan(display),
                 hint="change 'language:' in the source if that is wrong")
    return builder.build(sanitise_id(stem), title, language)
