"""Where each part of a quiz came from: a map from paths in the model data to places in the source.

Readers fill it while they parse; diagnostics found later (by the model, the content checks, the
writers) are located through it.
"""

from __future__ import annotations

import difflib
import pickle
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from ..diagnostics import SourceSpan
from ..model import Quiz

Loc = tuple[str | int, ...]
#: A text's source lines: (lines below its field's line, column, characters as written) of each.
TextLines = tuple[tuple[int, int, str], ...]
#: Marks the position of a mapping key, rather than of its value: ``loc[:-1] + (KEY, name)``.
KEY = "<key>"
#: A piece's places, as :class:`SourceMap` holds them: positions, scalars, numbers, text lines
#: and the lines of the questions left unread.
Made = tuple[dict[Loc, tuple[int, int]], dict[Loc, str], dict[Loc, int], dict[Loc, TextLines], set[int]]
#: The last names of a head's path besides a section's or question's index (:func:`is_head`).
_HEAD_NAMES = ("id", "moodle_idnumber")
_HEAD_PARENTS = ("sections", "questions")


def is_head(loc: Loc) -> bool:
    """Whether a build looks up the place of ``loc`` with nothing to report: a section's or a
    question's start (``SourceMap.question_spans``, the checks of the Moodle categories' ID
    numbers), an id's or a Moodle ID number's (the ids made distinct, the same checks), a
    quiz-wide field's (its id). A cached piece's places of these are kept apart from the rest
    (:attr:`Places.heads`), so that a build that reports nothing never makes the others."""
    if len(loc) < 2:
        return True
    last = loc[-1]
    return last in _HEAD_NAMES or (type(last) is int and loc[-2] in _HEAD_PARENTS)


class Places:
    """One piece's places (readers/markdown/pieces.py), as :class:`SourceMap` holds them: made,
    for a piece read in this process, or as its cache entry kept them: their pickled bytes,
    made only when someone asks for them (:meth:`made`), beside their :attr:`heads`.

    A rebuild of a 10,000-question bank after one edit takes 99 pieces from the cache, with about
    122,000 places: making their paths and (line, column) pairs was most of the pieces' unpickling
    (bench/README.md), and a build that reports nothing asks only for the heads of them."""

    __slots__ = ("_made", "_kept", "_heads")

    def __init__(self, positions: dict[Loc, tuple[int, int]] | None = None, scalars: dict[Loc, str] | None = None,
                 numbers: dict[Loc, int] | None = None, text_lines: dict[Loc, TextLines] | None = None,
                 unread: set[int] | None = None) -> None:
        self._made: Made | None = ({} if positions is None else positions, {} if scalars is None else scalars,
                                   {} if numbers is None else numbers, {} if text_lines is None else text_lines,
                                   set() if unread is None else unread)
        #: Their pickled bytes (made once: a piece read on a worker is pickled for the cache and
        #: again to go back to the build).
        self._kept: bytes | None = None
        self._heads: dict[Loc, tuple[int, int]] | None = None

    @property
    def waiting(self) -> bool:
        """Not made yet: taken from the cache (or another process) and not asked for since."""
        return self._made is None

    def made(self) -> Made:
        if self._made is None:
            assert self._kept is not None
            self._made = pickle.loads(self._kept)
        return self._made

    @property
    def heads(self) -> dict[Loc, tuple[int, int]]:
        """The positions of :func:`is_head` paths, all of them: what the others are not made for."""
        if self._heads is None:
            self._heads = {loc: place for loc, place in self.made()[0].items() if is_head(loc)}
        return self._heads

    def __reduce__(self) -> tuple[Any, ...]:
        if self._kept is None:
            self._kept = pickle.dumps(self.made(), pickle.HIGHEST_PROTOCOL)
        return _kept_places, (self._kept, self.heads)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Places) and self.made() == other.made()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Places({len(self.heads)} heads{', waiting' if self.waiting else ''})"


def _kept_places(kept: bytes, heads: dict[Loc, tuple[int, int]]) -> Places:
    places = Places.__new__(Places)
    places._made, places._kept, places._heads = None, kept, heads
    return places


_T = TypeVar("_T")


class _MadeWhenAsked(Generic[_T]):
    """One of :class:`SourceMap`'s places (``positions``, ...), read and written as the value it
    is, once the places waiting are made (``SourceMap._make``); kept in the map's field of the same
    name with an underscore."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.field = "_" + name

    @overload
    def __get__(self, source: None, owner: type) -> _MadeWhenAsked[_T]: ...

    @overload
    def __get__(self, source: SourceMap, owner: type) -> _T: ...

    def __get__(self, source: SourceMap | None, owner: type) -> _MadeWhenAsked[_T] | _T:
        if source is None:
            return self
        if source._waiting:
            source._make()
        value: _T = getattr(source, self.field)
        return value

    def __set__(self, source: SourceMap, value: _T) -> None:
        if source._waiting:
            source._make()
        setattr(source, self.field, value)


@dataclass
class SourceMap:
    """Where each part of a quiz came from, keyed by its path in the model data."""

    path: str
    #: What :attr:`positions`, :attr:`scalars`, :attr:`numbers`, :attr:`text_lines` and
    #: :attr:`unread` hold, once the places waiting (:attr:`_waiting`) are in.
    _positions: dict[Loc, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)
    _scalars: dict[Loc, str] = field(default_factory=dict, init=False, repr=False)
    _numbers: dict[Loc, int] = field(default_factory=dict, init=False, repr=False)
    _text_lines: dict[Loc, TextLines] = field(default_factory=dict, init=False, repr=False)
    _unread: set[int] = field(default_factory=set, init=False, repr=False)
    #: Cached pieces' places put in but not made yet (:meth:`take`), in order, each with how it
    #: is moved; and the heads of them, moved (:func:`is_head`), the later over the earlier.
    _waiting: list[tuple[Places, int, int, int]] = field(default_factory=list, init=False, repr=False)
    _heads: dict[Loc, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)
    #: "yaml" or "markdown": how the author writes a field (``key: value`` or ``key=value``).
    syntax: str = "yaml"
    #: The quiz this map belongs to holds only the questions read without an error (read_with):
    #: it is checked further, so that one run reports every problem, and never written.
    partial: bool = False
    #: Where each question left out of a partial quiz starts.
    left_out: list[int] = field(default_factory=list)
    #: The printed number of each question left out, by the line it starts on.
    left_out_numbers: dict[int, int] = field(default_factory=dict)
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

    # The places, made when first asked for (every user reads and writes them as the dicts they
    # are; :meth:`place` and :meth:`locate` answer a head's without making them).

    #: Where each part is, as (line, column) in the map's own file (``path``): two numbers, not a
    #: span, so that a large source's places are made and copied quickly (a 10,000-question bank
    #: has about 122,000). :meth:`locate` gives a place as a span.
    positions = _MadeWhenAsked[dict[Loc, tuple[int, int]]]()
    #: The text as written of each scalar that was read as a number or true/false (YAML), so a
    #: field that takes text can take ``1.10`` or ``yes`` as the author wrote them.
    scalars = _MadeWhenAsked[dict[Loc, str]]()
    #: Each question's number as the paper prints it (``18.``), by its path, where the source
    #: numbers its questions (the outline shows it).
    numbers = _MadeWhenAsked[dict[Loc, int]]()
    #: How a text runs in the source where that is not one line from its field's place (a
    #: paragraph's indented lines, a quoted or block YAML string): each of its source lines as
    #: (lines below the field's line, column, characters as written), for :meth:`text_position`.
    text_lines = _MadeWhenAsked[dict[Loc, TextLines]]()
    #: Where questions start that a reader refused for an error reported at another line (a
    #: matching table's item, for a problem of the table): left out like those an error lies in.
    unread = _MadeWhenAsked[set[int]]()

    def take(self, places: Places, by: int, by_questions: int, shift: int) -> None:
        """A piece's places put in: its sections moved ``by`` (a run's questions ``by_questions``
        too), its lines ``shift``. Those of a piece read in this process go in at once, as they
        always did, unless places wait before them; a cached piece's wait (each after those put
        in before it) until someone asks for any place but a head (:func:`is_head`), whose are
        put in now."""
        if not places.waiting and not self._waiting:
            self._put(places.made(), by, by_questions, shift)
            return
        self._waiting.append((places, by, by_questions, shift))
        heads = places.heads
        if by or by_questions:
            heads = {moved(loc, by, by_questions): (line + shift, column) for loc, (line, column) in heads.items()}
        elif shift:
            heads = {loc: (line + shift, column) for loc, (line, column) in heads.items()}
        self._heads.update(heads)

    def _make(self) -> None:
        """Every place waiting put in, in order."""
        waiting, self._waiting, self._heads = self._waiting, [], {}
        for places, by, by_questions, shift in waiting:
            self._put(places.made(), by, by_questions, shift)

    def _put(self, made: Made, by: int, by_questions: int, shift: int) -> None:
        positions, scalars, numbers, text_lines, unread = made
        if not by and not by_questions:
            # Places are (line, column) pairs: a piece read at the lines it is placed at goes in
            # as it was read, in one update (the others of a rebuild after an edit that added no
            # line, all but one); else each moved by ``shift``.
            self._positions.update(positions if not shift else
                                   {loc: (line + shift, column) for loc, (line, column) in positions.items()})
            self._scalars.update(scalars)
            self._numbers.update(numbers)
            self._text_lines.update(text_lines)
        else:
            for loc, (line, column) in positions.items():
                self._positions[moved(loc, by, by_questions)] = (line + shift, column)
            for loc, text in scalars.items():
                self._scalars[moved(loc, by, by_questions)] = text
            for loc, number in numbers.items():
                self._numbers[moved(loc, by, by_questions)] = number
            for loc, lines in text_lines.items():
                self._text_lines[moved(loc, by, by_questions)] = lines
        self._unread.update(line + shift for line in unread)

    def place(self, loc: Loc) -> tuple[int, int] | None:
        """``positions.get(loc)``, without making the places waiting for a head's."""
        if self._waiting:
            if is_head(loc):
                found = self._heads.get(loc)
                return found if found is not None else self._positions.get(loc)
            self._make()
        return self._positions.get(loc)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceMap):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def _fields(self) -> dict[str, object]:
        if self._waiting:
            self._make()
        return {name: value for name, value in vars(self).items() if name not in ("_waiting", "_heads")}

    def drop_digests(self) -> None:
        """Forget every :attr:`question_digests`: the questions' data were changed after the reading."""
        self.question_digests.clear()

    def at(self, loc: Loc, line: int, column: int = 1) -> None:
        if self._waiting:
            self._make()
        self._positions[loc] = (line, column)

    def text_at(self, loc: Loc, line: int, column: int, written: list[tuple[int, int, str]]) -> None:
        """The place of the text at ``loc`` and its source lines as written (line, column and
        characters, whitespace around them left out), when they are more than its first line."""
        if self._waiting:
            self._make()
        self._positions[loc] = (line, column)
        if len(written) > 1 or (written and (written[0][0] != line or written[0][1] != column)):
            self._text_lines[loc] = tuple((at_line - line, at_column, chars) for at_line, at_column, chars in written)

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
        place = self.place
        if len(loc) >= 2 and loc[-2] == KEY and place(loc) is None:
            value = place(loc[:-2] + (loc[-1],))
            if value is not None:
                return SourceSpan(self.path, *value)
        for end in range(len(loc), -1, -1):
            found = place(loc[:end])
            if found is not None:
                return SourceSpan(self.path, *found)
        return SourceSpan(self.path, 1, 1)

    def question_spans(self, quiz: Quiz) -> dict[str, SourceSpan]:
        """Question id -> where the question starts, for errors found after reading (a question's
        own place looked up first: 10,000 of them in a bank, each a span made here). A question's
        path is a head (:func:`is_head`): the places waiting are not made for it."""
        path, heads, positions = self.path, self._heads, self._positions  # (no heads where none waits)
        return {ident: SourceSpan(path, *place) if (place := heads.get(loc) or positions.get(loc)) is not None
                else self.locate(loc) for ident, loc in question_locs(quiz).items()}


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


def moved(loc: Loc, by: int, by_questions: int = 0) -> Loc:
    """``loc`` of a piece's place, its top-level section ``by`` further (a run's question
    ``by_questions`` further too)."""
    if len(loc) < 2 or loc[0] != "sections" or not (by or by_questions):
        return loc
    if by_questions and len(loc) > 3 and loc[2] == "questions":
        return ("sections", loc[1] + by, "questions", loc[3] + by_questions, *loc[4:])  # type: ignore[operator]
    return ("sections", loc[1] + by, *loc[2:])  # type: ignore[operator]


def suggest(word: str, choices: list[str], cutoff: float = 0.6) -> str:
    """A "did you mean" suffix, or an empty string."""
    close = difflib.get_close_matches(word.lower(), choices, n=1, cutoff=cutoff)
    return f"; did you mean '{close[0]}'?" if close else ""
