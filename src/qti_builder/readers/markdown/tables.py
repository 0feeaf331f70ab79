"""Two-column matching tables as exam papers print them and teachers paste them from Word: numbered
items, each a leading blank and a term, then (after a tab or a run of spaces) a lettered
definition of the second column; definitions beyond the items on rows of their own, after a tab:

    Part II. Matching (2 pts each)
    7) ____ Mitosis⇥A. Division that makes four different cells
    8) ____ Meiosis⇥B. Division that makes two identical cells
    ⇥C. Movement of water across a membrane

Each item is what the paper numbers and scores: one choice question of its own, its term the
text, the table's definitions (all of them, in the table's order) its options, the letter its
answer (under it or in the answer key). So each keeps its number and the section's points, the
LMS grades it item by item, and the outline shows it as the paper does (docs/source-format.md,
"Matching tables"). Definitions no item names are the table's distractors.

Both routes read a table with these functions (the source reader's drafts and the pasted-page
importer's questions hold the same lines); what does not fit (an item without its letter, a
letter no definition has, a line of neither kind, a letter twice) is an error at its line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ... import vocabulary as V
from . import syntax as S

#: The first line of an item after its number: the blank, the term, and maybe a definition cell.
_ROW = re.compile(r"^\s*(?:_{3,}|[(（][ \u3000]{2,}[)）])[ \t\u3000]*(?P<term>[^\t]*?\S)"
                  r"(?:(?:\t+|[ \u3000]{2,})[ \t\u3000]*(?P<cell>[A-Za-z][.)][ \t]+\S.*?))?\s*$")
#: A row that holds only a definition (its first column empty): ``⇥D. Something else``.
_DEFINITION = re.compile(r"^[ \t\u3000]*(?P<cell>[A-Za-z][.)][ \t]+\S.*?)\s*$")
#: The codes of what does not fit a table (its items are refused for them, each said at its line).
CODES = ("QB192", "QB193", "QB194", "QB195")
#: A term is a word or a short phrase; a longer one is a statement (``____ Water boils …``).
_MOST_TERM_WORDS = 8


@dataclass(frozen=True)
class Item:
    """One numbered question as a route read it, for the table reader: its number and line, the
    text after its number (``first``, starting at column ``column``), its other lines with their
    numbers, and its answer (text, line, column) if it has one."""

    number: int
    line: int
    column: int
    first: str
    more: Sequence[tuple[int, str]] = ()
    answer: tuple[str, int, int] | None = None


@dataclass(frozen=True)
class Definition:
    letter: str
    mark: S.OptionMark
    text: str
    line: int
    #: The column of its marker and of its text.
    column: int
    text_column: int


@dataclass
class Table:
    """A run of items read as one table: per item its term (and the term's column), the
    definitions, and the problems found, each (code, message, line, column, hint)."""

    items: list[Item]
    terms: list[tuple[str, int]]
    definitions: list[Definition] = field(default_factory=list)
    problems: list[tuple[str, str, int, int, str]] = field(default_factory=list)
    #: The items (by index) that cannot be built: their problem is reported.
    refused: set[int] = field(default_factory=set)


def is_row(first: str) -> bool:
    """The text after a question's number reads as a row of a matching table, with its second
    column (``____ Mitosis⇥B. Division …``)."""
    found = _ROW.match(first)
    return found is not None and found.group("cell") is not None


def may_be_row(first: str) -> bool:
    """The text after a question's number may be a row of a matching table (:func:`runs`)."""
    return _row(first) is not None


def _row(first: str) -> re.Match[str] | None:
    found = _ROW.match(first)
    if found is None or (found.group("cell") is None and len(found.group("term").split()) > _MOST_TERM_WORDS):
        return None
    return found


def runs(items: Sequence[Item]) -> list[range]:
    """The runs of consecutive items (one section's, in order) that are a matching table: rows of
    a blank and a term, two or more, at least one of which has its definition cell."""
    found: list[range] = []
    start = 0
    while start < len(items):
        end = start
        while end < len(items) and _row(items[end].first):
            end += 1
        if end - start >= 2 and any(is_row(item.first) for item in items[start:end]):
            found.append(range(start, end))
        start = max(end, start + 1)
    return found


def read(items: Sequence[Item], extra: Sequence[tuple[int, str]] = (), language: str = "en") -> Table:
    """One table from its items (a run of :func:`runs`); ``extra``: definition lines a route read
    apart from the items (a lettered line at the margin, which reads as an option). Hints name the
    answer label of the quiz's ``language``."""
    table = Table(list(items), [])
    for index, item in enumerate(items):
        found = _row(item.first)
        assert found is not None
        table.terms.append((found.group("term"), item.column + found.start("term")))
        if found.group("cell"):
            _definition(table, found.group("cell"), item.line, item.column + found.start("cell"))
        for line, text in item.more:
            if not text.strip():
                continue
            cell = _DEFINITION.match(text)
            if cell is None:
                table.problems.append((
                    "QB194", f"the line '{text.strip()[:40]}' is inside the matching table of items {items[0].number}–"
                    f"{items[-1].number} but is neither an item ('{item.number + 1}) ____ term⇥C. definition') nor a "
                    "definition ('⇥C. definition')", line, len(text) - len(text.lstrip()) + 1,
                    "start a definition with its letter after a tab ('⇥D. ...'); move other text above the table or below "
                    "its last row"))
                table.refused.add(index)
                continue
            _definition(table, cell.group("cell"), line, cell.start("cell") + 1)
    for line, text in extra:
        cell = _DEFINITION.match(text)
        if cell:
            _definition(table, cell.group("cell"), line, cell.start("cell") + 1)
    if not _duplicates(table):  # a letter twice is the slip: the answers are not judged against it
        _answers(table, V.examples(language).answer)
    return table


def _definition(table: Table, cell: str, line: int, column: int) -> None:
    (mark,) = S.option_marks(cell)[:1] or (None,)
    if mark is None:  # ``A.`` without the space the option reader needs: read as its letter
        mark = S.OptionMark("upper-alpha", cell[:2], ord(cell[0].upper()) - 64, 0, 2, len(cell))
    text = cell[mark.text_start:].strip()
    table.definitions.append(Definition(cell[0], mark, text, line, column, column + mark.text_start))


def _duplicates(table: Table) -> bool:
    seen: dict[str, Definition] = {}
    for definition in table.definitions:
        before = seen.get(definition.letter.upper())
        if before is not None:
            table.problems.append((
                "QB195", f"the matching table has two definitions lettered {definition.letter} (lines {before.line} and "
                f"{definition.line}), so an answer '{definition.letter}' cannot be told", definition.line, definition.column,
                "give each definition its own letter, in order (A, B, C, ...)"))
            table.refused.update(range(len(table.items)))
        seen.setdefault(definition.letter.upper(), definition)
    return len(seen) < len(table.definitions)


def _answers(table: Table, label: str) -> None:
    letters = {d.letter.upper() for d in table.definitions}
    names = ", ".join(d.letter for d in table.definitions)
    first, last = table.items[0].number, table.items[-1].number
    for index, item in enumerate(table.items):
        if item.answer is None:
            table.problems.append((
                "QB192", f"item {item.number} of the matching table (items {first}–{last}) has no answer: neither the "
                "answer key nor a line under it gives its letter", item.line, 1,
                f"add '{item.number}. B' to the answer key (or '{label}: B' under the row), the letter of its definition"))
            table.refused.add(index)
            continue
        value, line, column = item.answer
        letter = value.strip().rstrip(".)）").lstrip("(（").strip()
        if letter.upper() not in letters or len(letter) != 1:
            table.problems.append((
                "QB193", f"the answer '{value.strip()[:30]}' of item {item.number} names no definition of the matching "
                f"table (items {first}–{last}): its definitions are lettered {names}", line, column,
                f"give the letter of item {item.number}'s definition (one of {names}), or add the missing definition "
                "to the table's second column"))
            table.refused.add(index)


__all__ = ["CODES", "Definition", "Item", "Table", "is_row", "may_be_row", "read", "runs"]
