"""YAML as plain data with the place of every value: loaded node by node (not with
``yaml.safe_load``) so that every value keeps its line and column and duplicate keys are errors
instead of silently overwriting each other. Only the safe YAML types are built: no tags, no Python
objects. The YAML reader (:mod:`.yaml`) reads whole sources with it, the Markdown reader its front
matter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from ..diagnostics import DiagnosticSink, SourceSpan
from .source_map import KEY, Loc, SourceMap
from ..limits import OPTIONS, YAML_DEPTH_CEILING, Limits, raise_hint


def load_yaml(
    text: str, source: SourceMap, sink: DiagnosticSink, line_offset: int = 0, loc: Loc = (), limits: Limits = Limits()
) -> Any:
    """Parse YAML into plain data, recording every node's position in ``source`` under ``loc``.

    ``line_offset`` shifts reported lines, for YAML embedded in another file (front matter).
    Returns None after reporting a syntax error or a limit passed (``limits``: nesting, aliases).
    """
    loader: _Measuring | None = None
    try:
        try:
            loader = (_FastLoader if _FastLoader else _Loader)(text, limits)
            node = loader.get_single_node()  # one document: a second one is a syntax error
        except yaml.YAMLError:
            if _FastLoader is None:
                raise
            # The messages and positions of syntax errors are PyYAML's own parser's (libyaml
            # words some differently): read again with it, to report them.
            loader.dispose() if loader else None
            loader = _Loader(text, limits)  # reads the text at once: a character YAML refuses is a YAMLError
            node = loader.get_single_node()
        return {} if node is None else _Builder(source, sink, line_offset, text).build(node, loc)
    except _Refused as exc:
        line, col = exc.mark.line + 1, exc.mark.column + 1
        sink.error("QB114", exc.message, SourceSpan(source.path, line + line_offset, col), hint=exc.hint)
        return None
    except RecursionError:  # only with --max-yaml-depth near the ceiling, on a small stack
        sink.error("QB114", "the YAML is nested too deeply for the reader", SourceSpan(source.path, 1 + line_offset, 1),
                   hint=f"a quiz needs a few levels of nesting, not hundreds; lower {OPTIONS['max_yaml_depth']}")
        return None
    except yaml.composer.ComposerError as exc:
        if exc.context != "expected a single document in the stream" or exc.problem_mark is None:
            return _syntax_error(text, exc, source, sink, line_offset)
        sink.error("QB111", "a second YAML document starts here; a source is one document",
                   SourceSpan(source.path, exc.problem_mark.line + 1 + line_offset, exc.problem_mark.column + 1),
                   hint="remove this '---' line and what follows it, or make it a quiz of its own")
        return None
    except yaml.YAMLError as exc:
        return _syntax_error(text, exc, source, sink, line_offset)
    finally:
        if loader is not None:
            loader.dispose()


def _syntax_error(text: str, exc: yaml.YAMLError, source: SourceMap, sink: DiagnosticSink, line_offset: int) -> None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else _reader_position(text, exc)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
    hint = "check the indentation and quote values that contain ': ' or start with a special character"
    if isinstance(exc, yaml.reader.ReaderError):  # its str() names PyYAML's input, '"<unicode string>", position 8'
        character = exc.character if isinstance(exc.character, str) else chr(exc.character)
        problem, hint = f"YAML cannot read character U+{ord(character):04X}", "delete it (it often comes from copy-paste)"
    sink.error("QB111", f"YAML syntax error: {problem}", SourceSpan(source.path, line + line_offset, col), hint=hint)


class _Refused(Exception):
    def __init__(self, mark: yaml.Mark, message: str, hint: str) -> None:
        super().__init__(message)
        self.mark, self.message, self.hint = mark, message, hint


#: What a scalar measures: one value, one level.
_SCALAR = (1, 1)


class _Measuring(yaml.composer.Composer):
    """PyYAML's composer, measuring as it composes: how deep the values nest, and how many values
    the aliases (``*name``) repeat. Aliases share nodes, so a few lines can expand exponentially
    ("billion laughs"); each alias is weighed as it is met, with the size of the value it names
    (measured once, when that value was composed), and refused before anything is built from it.
    Size itself is not limited: a plain source of millions of values reads."""

    if TYPE_CHECKING:  # from the parser it is mixed with
        def __init__(self, text: str, limits: Limits) -> None: ...
        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def dispose(self) -> None: ...

    def measure(self, limits: Limits) -> None:
        self.limits = limits
        self.depth = 0
        self.repeated = 0
        #: Where the aliases passed the limit.
        self.passed: yaml.Mark | None = None
        #: id of each node composed -> (values it expands to, levels it nests), aliases followed.
        self.measured: dict[int, tuple[int, int]] = {}

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            node = super().compose_node(parent, index)
            measured = self.measured.get(id(node))
            if measured is None:  # the value is still being composed: the alias is inside it
                raise _Refused(event.start_mark, f"the alias *{event.anchor} is inside the value it names, which would repeat forever",
                               "an alias can only repeat a value that is complete before it; write the value out instead")
            values, levels = measured
            self.repeated += values
            if self.repeated > self.limits.max_yaml_alias_values and self.passed is None:
                # Refused once the document is composed (nothing is built from it): measuring
                # the rest costs no more than reading it, and gives the value that would do.
                self.passed = event.start_mark
            self._check_depth(self.depth + levels, event.start_mark)
            return node
        self.depth += 1
        if self.depth > self.limits.max_yaml_depth:
            self._check_depth(self.depth, self.peek_event().start_mark)
        node = super().compose_node(parent, index)
        self.depth -= 1
        value = node.value if node is not None else ""
        if isinstance(value, str):  # a scalar (most nodes: measured without a loop)
            self.measured[id(node)] = _SCALAR
            return node
        sizes = self.measured
        children = [sizes[id(item)] for item in value] if isinstance(node, yaml.SequenceNode) \
            else [sizes[id(item)] for _, item in value]  # a mapping: its keys are never built from
        sizes[id(node)] = (1 + sum(c[0] for c in children), 1 + max((c[1] for c in children), default=0))
        return node

    def get_single_node(self) -> yaml.Node | None:
        node = super().get_single_node()
        if self.passed is not None:
            raise _Refused(self.passed,
                           f"the YAML's aliases (*name) repeat more than the {self.limits.max_yaml_alias_values:,} values a source may repeat",
                           f"write out the parts you repeat, or remove aliases that repeat large parts; they repeat "
                           f"{self.repeated:,} values: " + raise_hint("max_yaml_alias_values", self.repeated))
        return node

    def _check_depth(self, depth: int, mark: yaml.Mark) -> None:
        if depth > self.limits.max_yaml_depth:
            levels = f"{self.limits.max_yaml_depth} level" + ("s" if self.limits.max_yaml_depth != 1 else "")
            raise _Refused(mark, f"the YAML nests more than the {levels} a source may have",
                           "a quiz needs about 8 levels (2 more for each level of nested sections); "
                           + raise_hint("max_yaml_depth") + f" (at most {YAML_DEPTH_CEILING})")


class _Loader(_Measuring, yaml.SafeLoader):
    """Measuring, on PyYAML's own (pure Python) parser."""

    def __init__(self, text: str, limits: Limits) -> None:
        yaml.SafeLoader.__init__(self, text)  # reads the text at once: a character YAML refuses is a YAMLError
        self.measure(limits)


try:
    from yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # PyYAML built without libyaml
    _FastLoader: type[_Measuring] | None = None
else:
    class _CLoader(_Measuring, CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):  # type: ignore[misc]
        """Measuring, on libyaml's parser (the events only: composing stays the measuring
        composer's). Three times faster than PyYAML's own on a large bank, with the same nodes
        and positions (tests/test_limits.py compares them)."""

        def __init__(self, text: str, limits: Limits) -> None:
            CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self.measure(limits)

    _FastLoader = _CLoader


def _reader_position(text: str, exc: yaml.YAMLError) -> tuple[int, int]:
    """PyYAML's ReaderError carries a character offset instead of a mark."""
    offset = getattr(exc, "position", 0) or 0
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


_PLAIN_TAGS = {"str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "merge", "omap", "pairs", "set", "value"}


class _Builder:
    def __init__(self, source: SourceMap, sink: DiagnosticSink, line_offset: int, text: str = "") -> None:
        self.source = source
        self.sink = sink
        self.line_offset = line_offset
        self.constructor = yaml.SafeLoader("")
        self.text = text
        self._lines: list[str] | None = None

    def written(self, node: yaml.ScalarNode) -> list[tuple[int, int, str]]:
        """Each source line of a text that is quoted, a block (``|``, ``>``) or over several lines,
        as (line, column, its characters without the whitespace around them): the quotes and a
        block's header line left out. Where the text's characters are, for a diagnostic inside it."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        first, last, quoted = node.start_mark.line, node.end_mark.line, node.style in ("'", '"')
        out = []
        for i in range(first, min(last, len(self._lines) - 1) + 1):
            if i == first and node.style in ("|", ">"):
                continue  # the header: '|', '>-', an indentation digit, a comment
            line = self._lines[i]
            begin = node.start_mark.column + quoted if i == first else 0
            stop = node.end_mark.column - quoted if i == last else len(line)
            segment = line[begin:stop]
            if chars := segment.strip():
                out.append((i + 1 + self.line_offset, begin + len(segment) - len(segment.lstrip()) + 1, chars))
        return out

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
        # The loader has weighed the aliases: what is built here is at most the limits' size.
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
        elif isinstance(value, str) and isinstance(node, yaml.ScalarNode) and (node.style or node.start_mark.line != node.end_mark.line):
            self.source.text_at(loc, *self.span(node), self.written(node))
        return value
