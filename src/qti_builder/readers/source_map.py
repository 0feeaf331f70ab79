"""Where each part of a quiz came from: a map from paths in the model data to places in the source.

Readers fill it while they parse; diagnostics found later (by the model, the content checks, the
writers) are located through it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import SourceSpan
from ..model import Quiz

Loc = tuple[str | int, ...]
#: A text's source lines: (lines below its field's line, column, characters as written) of each.
TextLines = tuple[tuple[int, int, str], ...]
#: Marks the position of a mapping key, rather than of its value: ``loc[:-1] + (KEY, name)``.
KEY = "<key>"


@dataclass
class SourceMap:
    """Where each part of a quiz came from, keyed by its path in the model data."""

    path: str
    #: Where each part is, as (line, column) in the map's own file (``path``): two numbers, not a
    #: span, so that a large source's places are made and copied quickly (a 10,000-question bank
    #: has about 122,000; a rebuild puts those of the pieces it did not read again in as the cache
    #: kept them, in one ``dict.update``, where making a span of each was a quarter of its read,
    #: bench/README.md). :meth:`locate` gives a place as a span.
    positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    #: The text as written of each scalar that was read as a number or true/false (YAML), so a
    #: field that takes text can take ``1.10`` or ``yes`` as the author wrote them.
    scalars: dict[Loc, str] = field(default_factory=dict)
    #: "yaml" or "markdown": how the author writes a field (``key: value`` or ``key=value``).
    syntax: str = "yaml"
    #: The quiz this map belongs to holds only the questions read without an error (read_with):
    #: it is checked further, so that one run reports every problem, and never written.
    partial: bool = False
    #: Where each question left out of a partial quiz starts.
    left_out: list[int] = field(default_factory=list)
    #: Each question's number as the paper prints it (``18.``), by its path, where the source
    #: numbers its questions (the outline shows it).
    numbers: dict[Loc, int] = field(default_factory=dict)
    #: The printed number of each question left out, by the line it starts on.
    left_out_numbers: dict[int, int] = field(default_factory=dict)
    #: Where questions start that a reader refused for an error reported at another line (a
    #: matching table's item, for a problem of the table): left out like those an error lies in.
    unread: set[int] = field(default_factory=set)
    #: What the reading of each top-level section (by its index) was kept under, for a section
    #: read as (part of) a piece of a large source (readers/markdown/pieces.py): the same key is
    #: the same section's data, so that the build keeps what it checked of it by that key too.
    section_keys: dict[int, str] = field(default_factory=dict)
    #: Of each top-level section read in runs of its questions (readers/markdown/pieces.py), by its
    #: index: where each of its pieces' questions begin in it and the piece's key, in order (the
    #: piece that opens the section from question 0), so that the build keeps what it checked of
    #: a run's questions by that key too (an edit of one question checks its run's again, not its
    #: section's).
    section_runs: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    #: Of each top-level section read as (part of) a piece of a large source
    #: (readers/markdown/pieces.py), by its index: a digest of each of its own questions' model
    #: data exactly as the reader made them (``pieces.data_digest``), in their order, None where
    #: there is none. A question's model is a function of its data and of the quiz's own fields
    #: (its kind's validators look at nothing else; the quiz's scoring rule is the one that changes
    #: a question), so the build keys a chunk of questions by these digests rather than by each
    #: question's model serialized again (cache.chunk_content). Sound only while the data are
    #: those digested: whatever changes a question's data after the reading drops its digest
    #: (``_distinct_made_ids``) or them all (``drop_digests``).
    question_digests: dict[int, list[str | None]] = field(default_factory=dict)
    #: How a text runs in the source where that is not one line from its field's place (a
    #: paragraph's indented lines, a quoted or block YAML string): each of its source lines as
    #: (lines below the field's line, column, characters as written), for :meth:`text_position`.
    text_lines: dict[Loc, TextLines] = field(default_factory=dict)

    def drop_digests(self) -> None:
        """Forget every :attr:`question_digests`: the questions' data were changed after the reading."""
        self.question_digests.clear()

    def at(self, loc: Loc, line: int, column: int = 1) -> None:
        self.positions[loc] = (line, column)

    def text_at(self, loc: Loc, line: int, column: int, written: list[tuple[int, int, str]]) -> None:
        """The place of the text at ``loc`` and its source lines as written (line, column and
        characters, whitespace around them left out), when they are more than its first line."""
        self.positions[loc] = (line, column)
        if len(written) > 1 or (written and (written[0][0] != line or written[0][1] != column)):
            self.text_lines[loc] = tuple((at_line - line, at_column, chars) for at_line, at_column, chars in written)

    def text_position(self, loc: Loc, text: str, offset: int) -> SourceSpan:
        """Where the character at ``offset`` of the text at ``loc`` was written. Each source line
        of the text is found in the text, in order (a reader joins, dedents or unquotes them, and
        may add to or change the text after: a line not found is passed over), and the offset
        counted from the last one that starts at or before it; a text without recorded lines
        runs on from its field's place, each line after the first from column 1."""
        start = self.locate(loc)
        found_at, end = None, 0
        for below, column, chars in self.text_lines.get(loc, ()):
            found = text.find(chars, end) if chars else -1
            if found < 0:
                continue
            if found > offset:
                break
            found_at, end = (found, start.line + below, column), found + len(chars)
        if found_at is not None:
            found, line, column = found_at
            return SourceSpan(self.path, line, column + offset - found)
        before = text[:offset]
        lines = before.count("\n")
        column = start.column + offset if lines == 0 else offset - before.rfind("\n")
        return SourceSpan(start.path, start.line + lines, column)

    def locate(self, loc: Loc) -> SourceSpan:
        """The span of ``loc`` or of its nearest located ancestor. A key's place (``KEY, name``)
        not recorded is its value's: Markdown's readers record an attribute ``name=value`` by its
        value only, and a rule that names the field (Problem.at) should still point at it."""
        if len(loc) >= 2 and loc[-2] == KEY and loc not in self.positions:
            value = self.positions.get(loc[:-2] + (loc[-1],))
            if value is not None:
                return SourceSpan(self.path, *value)
        for end in range(len(loc), -1, -1):
            place = self.positions.get(loc[:end])
            if place is not None:
                return SourceSpan(self.path, *place)
        return SourceSpan(self.path, 1, 1)

    def question_spans(self, quiz: Quiz) -> dict[str, SourceSpan]:
        """Question id -> where the question starts, for errors found after reading (a question's
        own place looked up first: 10,000 of them in a bank, each a span made here)."""
        path, positions = self.path, self.positions
        return {ident: SourceSpan(path, *place) if (place := positions.get(loc)) is not None else self.locate(loc)
                for ident, loc in question_locs(quiz).items()}


def question_contents(quiz: Quiz, source: SourceMap) -> dict[int, tuple[object, str]]:
    """Each question of ``quiz`` (validated from the data ``source`` was filled with) that has a
    digest of its data (:attr:`SourceMap.question_digests`), by its identity: the question
    itself, held so that no other object takes its identity, and the digest."""
    found: dict[int, tuple[object, str]] = {}
    for i, digests in source.question_digests.items():
        questions = quiz.sections[i].questions if i < len(quiz.sections) else []
        if len(digests) != len(questions):
            continue  # (not the data digested: never the case when nothing dropped them)
        for question, digest in zip(questions, digests):
            if digest is not None:
                found[id(question)] = (question, digest)
    return found


def structure_starts(source: SourceMap) -> list[int]:
    """The lines where a section, a question or a shared passage begins, in order (a question
    left out of a partial quiz too)."""
    return sorted({line for loc, (line, _) in source.positions.items() if _is_start(loc)} | set(source.left_out))


def _is_start(loc: Loc) -> bool:
    if len(loc) < 2 or loc[0] != "sections":
        return False
    return (isinstance(loc[-1], int) and loc[-2] in ("sections", "questions")) or (loc[-1] == "passage" and isinstance(loc[-2], int))


def last_line(first: int, starts: list[int], lines: list[str]) -> int:
    """The last line of what begins at ``first``: the line before the next start (or the end of
    the text), blank lines at its end left out. One definition of "the lines a question came
    from", for the outline and for telling which questions an error lies in."""
    following = [s for s in starts if s > first]
    end = (following[0] - 1) if following else len(lines)
    while end > first and end <= len(lines) and not lines[end - 1].strip():
        end -= 1
    return end


def question_locs(quiz: Quiz) -> dict[str, Loc]:
    """Question id -> its path in the model data (the key of its parts in a source map)."""
    locs: dict[str, Loc] = {}

    def walk(prefix: Loc, sections: list[Any]) -> None:
        for i, section in enumerate(sections):
            for j, question in enumerate(section.questions):
                locs[question.id] = prefix + (i, "questions", j)
            walk(prefix + (i, "sections"), section.sections)

    walk(("sections",), quiz.sections)
    return locs


def suggest(word: str, choices: list[str], cutoff: float = 0.6) -> str:
    """A "did you mean" suffix, or an empty string."""
    close = difflib.get_close_matches(word.lower(), choices, n=1, cutoff=cutoff)
    return f"; did you mean '{close[0]}'?" if close else ""
