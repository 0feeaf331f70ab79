"""YAML sources: the model itself, as plain YAML (``*.yaml`` / ``*.yml``).

Loaded node by node (not with ``yaml.safe_load``) so that every value keeps its line and column and
duplicate keys are errors instead of silently overwriting each other. Only the safe YAML types
are built: no tags, no Python objects.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import Quiz
from .base import KEY, Loc, SourceMap, read_with
from .markdown.syntax import label_lines

SUFFIXES = (".yaml", ".yml")


class YamlReader:
    name = "yaml"
    suffixes: tuple[str, ...] = SUFFIXES

    def read(self, path: Path, display: str, sink: DiagnosticSink) -> tuple[Quiz, SourceMap] | None:
        return read_with(_parse, path, display, sink)


def _parse(text: str, source: SourceMap, sink: DiagnosticSink) -> dict[str, Any] | None:
    errors_before = len(sink.errors)
    data = load_yaml(text, source, sink)
    if len(sink.errors) > errors_before:
        return None
    if not isinstance(data, dict):
        sink.error("QB110", "a YAML quiz must be a mapping with keys id, title, sections", source.locate(()),
                   hint="start the file with 'title: ...' and 'sections:' at the left margin (see docs/source-format.md#the-yaml-format)")
        return None
    _check_descriptions(data, (), text.split("\n"), source, sink)
    return data


def _check_descriptions(node: dict[str, Any], loc: Loc, lines: list[str], source: SourceMap, sink: DiagnosticSink) -> None:
    """A description is shown to students: an ``Answer:`` or ``Explanation:`` line in it is an
    answer in the wrong place (as in a Markdown source's introductions)."""
    description = node.get("description")
    if isinstance(description, str):
        start = source.locate(loc + ("description",))
        for index, column, label in label_lines(description):
            line, col = _written_at(lines, start.line, description.split("\n")[index].strip(), start.column)
            what = "the quiz description" if not loc else "a section description"
            sink.error("QB145", f"'{label}:' in {what}, which students see", SourceSpan(source.path, line, col),
                       hint=f"move it into a question's fields ('model_answer:', 'feedback:'); to show the words "
                            f"themselves, write '{label}\\:'")
    sections = node.get("sections")
    for i, section in enumerate(sections if isinstance(sections, list) else []):
        if isinstance(section, dict):
            _check_descriptions(section, loc + ("sections", i), lines, source, sink)


def _written_at(lines: list[str], first: int, text: str, column: int) -> tuple[int, int]:
    """Where a line of a text value is written in the file, from the line its value starts on."""
    for number in range(first, min(len(lines), first + 10_000) + 1):
        found = lines[number - 1].find(text)
        if found >= 0:
            return number, found + 1
    return first, column


def load_yaml(
    text: str, source: SourceMap, sink: DiagnosticSink, line_offset: int = 0, loc: Loc = ()
) -> Any:
    """Parse YAML into plain data, recording every node's position in ``source`` under ``loc``.

    ``line_offset`` shifts reported lines, for YAML embedded in another file (front matter).
    Returns None after reporting a syntax error.
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        sink.error("QB114", "the YAML is nested too deeply", SourceSpan(source.path, 1 + line_offset, 1),
                   hint="a quiz needs a few levels of nesting, not hundreds")
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else _reader_position(text, exc)
        problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
        sink.error(
            "QB111",
            f"YAML syntax error: {problem}",
            SourceSpan(source.path, line + line_offset, col),
            hint="check the indentation and quote values that contain ': ' or start with a special character",
        )
        return None
    if node is None:
        return {}
    try:
        return _Builder(source, sink, line_offset).build(node, loc)
    except RecursionError:
        sink.error("QB114", "the YAML is nested too deeply", SourceSpan(source.path, 1 + line_offset, 1),
                   hint="a quiz needs a few levels of nesting, not hundreds")
        return None
    except _TooLarge as exc:
        sink.error(
            "QB114",
            f"the YAML expands to more than {MAX_NODES} values",
            SourceSpan(source.path, *exc.args[0]),
            hint="split the quiz, or remove aliases (*name) that repeat large parts",
        )
        return None


def _reader_position(text: str, exc: yaml.YAMLError) -> tuple[int, int]:
    """PyYAML's ReaderError carries a character offset instead of a mark."""
    offset = getattr(exc, "position", 0) or 0
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


MAX_NODES = 200_000
_PLAIN_TAGS = {"str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "merge", "omap", "pairs", "set", "value"}


class _TooLarge(Exception):
    pass


class _Builder:
    def __init__(self, source: SourceMap, sink: DiagnosticSink, line_offset: int) -> None:
        self.source = source
        self.sink = sink
        self.line_offset = line_offset
        self.constructor = yaml.SafeLoader("")
        self.nodes = 0

    def scalar(self, node: yaml.Node) -> Any:
        """Plain YAML scalars only: text, numbers, booleans and null (dates and the like stay text)."""
        if node.tag.rsplit(":", 1)[-1] in ("int", "float", "bool", "null"):
            try:
                return self.constructor.construct_object(node)
            except (yaml.YAMLError, ValueError):
                return node.value
        return node.value

    def span(self, node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + 1 + self.line_offset, node.start_mark.column + 1

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        # Aliases share nodes, so a few lines can expand exponentially ("billion laughs").
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _TooLarge(self.span(node))
        self.source.at(loc, *self.span(node))
        if not node.tag.startswith("tag:yaml.org,2002:") or node.tag.rsplit(":", 1)[-1] not in _PLAIN_TAGS:
            self.sink.error("QB143", f"YAML tag '{node.tag}' is not allowed", SourceSpan(self.source.path, *self.span(node)),
                            hint="a quiz holds plain text, numbers, lists and mappings")
            return None
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key = self.scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
                if not isinstance(key, (str, int, float, bool)):
                    self.sink.error("QB112", "a key must be plain text", SourceSpan(self.source.path, *self.span(key_node)),
                                    hint="write a name before the colon, such as 'title:' (not a list, a mapping or nothing)")
                    continue
                key = str(key)
                if key in out:
                    self.sink.error(
                        "QB113",
                        f"duplicate key '{key}'",
                        SourceSpan(self.source.path, *self.span(key_node)),
                        hint="each key may appear once; remove or rename one of them",
                    )
                    continue
                self.source.at(loc + (KEY, key), *self.span(key_node))
                out[key] = self.build(value_node, loc + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, loc + (i,)) for i, item in enumerate(node.value)]
        value = self.scalar(node)
        if value is not None and not isinstance(value, str):
            self.source.scalars[loc] = node.value
        return value
