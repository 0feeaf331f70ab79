"""YAML sources: the model itself, as plain YAML (``*.yaml`` / ``*.yml``).

Read as data with every value's place by :mod:`.yaml_data`; this module makes a quiz of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import Quiz
from .base import Loc, SourceMap, read_with
from .piece_cache import Pieces
from ..limits import Limits
from .markdown.syntax import escaped_label, label_lines, written_label
from .yaml_data import load_yaml

SUFFIXES = (".yaml", ".yml")


class YamlReader:
    name = "yaml"
    suffixes: tuple[str, ...] = SUFFIXES

    def read(self, path: Path, display: str, sink: DiagnosticSink, limits: Limits = Limits(),
             pieces: Pieces | None = None) -> tuple[Quiz, SourceMap] | None:  # a YAML source is read whole
        return read_with(lambda text, source, sink: _parse(text, source, sink, limits), path, display, sink)


def _parse(text: str, source: SourceMap, sink: DiagnosticSink, limits: Limits) -> dict[str, Any] | None:
    errors_before = len(sink.errors)
    data = load_yaml(text, source, sink, limits=limits)
    if len(sink.errors) > errors_before:
        return None
    if not isinstance(data, dict):
        sink.error("QB110", "a YAML quiz must be a mapping with keys id, title, sections", source.locate(()),
                   hint="start the file with 'title: ...' and 'sections:' at the left margin (see qti-builder docs source-format#the-yaml-format)")
        return None
    if isinstance(data.get("language"), str):
        sink.language = data["language"]  # the language its messages are printed in
    _check_descriptions(data, (), text.split("\n"), source, sink)
    return data


def _check_descriptions(node: dict[str, Any], loc: Loc, lines: list[str], source: SourceMap, sink: DiagnosticSink) -> None:
    """A description is shown to students: an ``Answer:`` or ``Explanation:`` line in it is an
    answer in the wrong place (as in a Markdown source's introductions)."""
    description = node.get("description")
    if isinstance(description, str):
        start = source.locate(loc + ("description",))
        # Each label line is looked for after the last one found: the same words written twice
        # ("Answer: a\nAnswer: a") are two places.
        after = (start.line, 0)
        # In a double-quoted value a backslash is YAML's escape: the Markdown escape's backslash is
        # written twice there ("답\\) ..." is the text 답\) ...).
        quoted = lines[start.line - 1][start.column - 1:start.column] == '"'
        for index, column, label in label_lines(description):
            text = description.split("\n")[index].strip()
            line, col = _written_at(lines, after, text, start.column)
            after = (line, col)
            what = "the quiz description" if not loc else "a section description"
            written = written_label(text, label)
            escape = escaped_label(written, label).replace("\\", "\\\\" if quoted else "\\")
            sink.error("QB145", f"'{written}' in {what}, which students see", SourceSpan(source.path, line, col),
                       hint=f"move it into a question's fields ('model_answer:', 'feedback:'); to show the words "
                            f"themselves, write '{escape}'")
    sections = node.get("sections")
    for i, section in enumerate(sections if isinstance(sections, list) else []):
        if isinstance(section, dict):
            _check_descriptions(section, loc + ("sections", i), lines, source, sink)


def _written_at(lines: list[str], after: tuple[int, int], text: str, column: int) -> tuple[int, int]:
    """Where a line of a text value is written in the file: the first place after ``after`` (a
    line, and a column on it, 0 for the whole line), from the line its value starts on."""
    first, skip = after
    for number in range(first, min(len(lines), first + 10_000) + 1):
        found = lines[number - 1].find(text, skip if number == first else 0)
        if found >= 0:
            return number, found + 1
    return first, column
