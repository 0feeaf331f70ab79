"""A large Markdown source read in pieces: each top-level section (``# Part 2``) on, read by the
one reader (the same :class:`.blocks.Scanner` and :class:`.questions.QuestionBuilder`, over the
same lines), so that each piece's reading can be kept in the build cache by its text and the
reader's settings, and the pieces read on the build's workers.

A piece begins at a top-level heading and ends before the next one. Its reading is what the
whole reading makes of those lines only when nothing read before the heading reaches past it:
the scan of the lines before must end with no code fence, passage, note, answer key, closing
mark or instructions still open (``Scanner.carries_nothing``), the heading must open a
top-level section in the piece's own scan (it is not read as a question, an answer key's
title, instructions or a points rule), and no piece may hold an answer key (its entries answer
questions of any section), nor a list or options read by what the other questions' are
(``Scanner.across_questions``: a list in bold, options indented under their question; the lines
before the first piece may have one, as the pieces are taken only when none of them has). What
carries from one piece to the next is how questions are numbered (``1.`` or ``1)``): each piece
is read from the numbering the pieces before it end with. Where any of this does not hold, the
source is read whole: pieces are only ever a faster way to the same reading.

A piece's reading keeps the model data of its sections and where each part came from, as the
section index and lines it was read at; when the pieces are put together, a piece whose
sections or lines have moved since (an edit before it added a section or a line) has its places
moved with them, so that an edit in one piece leaves the others' entries valid. A piece with
diagnostics is taken only at the lines it was read at, as its messages may name lines.

A long top-level section is read in runs of about :data:`RUN_QUESTIONS` questions, so that an
edit of one question reads a run again, not its section: a run begins at a question's first
line (at the margin, numbered with digits, before any other heading in the section) and its
questions are appended to the section the piece before it opened. Its lines are read within a
section standing for that one (its points rule and the type its title names, which its questions
are read by; :meth:`.blocks.Scanner.scan`), from the numbering the piece before it ends with. A
run is taken only where it reads as in its section's reading: the piece before it ends with
nothing carried, the one section open and no subsection (nor does the run open one or another
section); its first line, read after the lines before it (the piece before reads it too, then
leaves it) and read first, makes the same question, state and diagnostics
(``Scanner._opening``), after which the two readings differ only by the section's questions
before the run, which no line looks at but for their numbers (a line read as a key's entry by
them: a run reads every number as read, and is not taken if it then has a key) and the last's;
and its first question cannot be a row of a matching table that rows before it would go on.
What needs the whole section is done once its runs are put together: the section's stated total
(QB197), its key (``SourceMap.section_keys``, of its pieces' keys), and the ids made distinct
(after, over the whole quiz, as before). Where a run is not taken the source is read in pieces
of whole sections, as before, and where those are not, whole.
"""

from __future__ import annotations

import hashlib
import marshal
import re
from zlib import crc32
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ...diagnostics import Diagnostic, DiagnosticSink
from ..piece_cache import Pieces
from ..source_map import Places, SourceMap
from . import keys as K
from . import syntax as S
from .blocks import Block, Scanner, Section, first_may_be_row

#: Lines from which a source is read in pieces (a smaller one is read whole: it is read quickly,
#: and its sections would fill the cache with small entries).
PIECES_FROM = 1_000
#: Lines of the pieces left to read from which they are read on the build's workers.
RUN_FROM = 20_000
#: How many questions a run of a top-level section's holds, about (:func:`piece_starts`).
RUN_QUESTIONS = 100
#: Changes with the layout of a piece's reading (its key, and what an entry holds).
LAYOUT = "markdown piece 5"
#: What a section's questions are read by (``Section.each_points``, ``kind``, ``exam_rule``):
#: the section a run is read within (see the module's docstring).
Within = tuple[Any, ...]


@dataclass(frozen=True)
class Settings:
    """What a piece's reading depends on besides its lines: the quiz's language (the front
    matter's, which the scan reads by, and the one its questions are built in), title (a
    section's title when it has none) and defaults for its questions."""

    language: str
    questions_language: str
    title: str
    defaults: tuple[tuple[str, Any], ...]


@dataclass
class PieceRead:
    """What the reader made of one piece."""

    #: The index of its first line (its heading), when it was read.
    start: int
    #: The index of its first section among the quiz's top-level sections, when it was read.
    first: int
    #: The model data of its top-level sections.
    sections: list[dict[str, Any]]
    #: Where each part came from (``SourceMap.positions``, ``scalars``, ``numbers``,
    #: ``text_lines``, ``unread``), by its place in the data (the piece's first section being
    #: section ``first``), lines counted from the whole source (``text_lines``' from their field's
    #: line: they move with it). Its cache entry keeps them pickled apart, made only when a build
    #: asks for more than their heads (``source_map.Places``: a bank's piece holds about 12,000).
    places: Places = field(default_factory=Places)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: How its questions are numbered at its end (``Scanner.form``), for the next piece.
    form: str | None = None
    #: It reads as in the whole reading (see the module's docstring).
    fits: bool = True
    #: A run's questions (``sections`` then holds none), the first of them read as question
    #: ``questions_from`` of section ``first``; None for a piece of whole sections.
    questions: list[dict[str, Any]] | None = None
    questions_from: int = 0
    #: The section open at its end when runs of its questions follow (:data:`Within`; a run's:
    #: the one it was read within), and that section without its questions (for its total).
    within: Within | None = None
    open_section: Section | None = None
    #: What a run's first line made, and what the next run's first line makes after this
    #: piece's lines (``Scanner._opening``): the two must be the same.
    first_opening: tuple[object, ...] | None = None
    next_opening: tuple[object, ...] | None = None
    #: The :func:`data_digest` of each question of its top-level sections, section by section
    #: (a run's: of its questions, as one list), as read: ``SourceMap.question_digests``.
    digests: list[list[str | None]] = field(default_factory=list)


#: Reads the sections of a scan into model data: ``(source, sink, settings, sections, first,
#: continued)`` -> their data, with their places in ``source`` as sections ``first``, ``first +
#: 1``, ...; ``continued``: runs of the last one's questions follow (its total is not checked).
BuildSections = Callable[[SourceMap, DiagnosticSink, Settings, list[Any], int, bool], list[dict[str, Any]]]
#: Reads a run's questions into model data: ``(source, sink, settings, questions, loc)`` -> their
#: data, with their places in ``source`` as ``loc`` with its last index counted on (``loc``: the
#: first's, ``("sections", i, "questions", j0)``).
BuildQuestions = Callable[[SourceMap, DiagnosticSink, Settings, list[Any], tuple[str, int, str, int]], list[dict[str, Any]]]
#: Checks a section read in runs once they are put together: ``(section, data, source, sink)``,
#: the section without its questions (its place moved to where it stands now).
CheckSection = Callable[[Section, dict[str, Any], SourceMap, DiagnosticSink], None]


@dataclass(frozen=True)
class Readers:
    """How a piece's drafts become model data (the reader's own code, :mod:`.`)."""

    sections: BuildSections
    questions: BuildQuestions


#: A line that may start a question numbered with digits (checked by :func:`syntax.question_start`
#: where a run would begin): a cheap test for the many lines of a bank's questions.
_NUMBERED = re.compile(r"\d{1,9}[.)]\s")


def piece_starts(lines: list[str], start: int) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Where pieces may begin in the lines (as :func:`syntax.without_invisible_html` makes them)
    from ``start``, in one pass over them:

    - top-level headings at the left margin, outside code fences, that the reader takes as
      nothing but a heading whatever was read before them (not an answer key's title or
      entries, a closing mark, instructions' title or a points rule, nor a question written as a
      heading, ``# 1. …`` with its options under it);
    - in the sections they open, runs of questions, about :data:`RUN_QUESTIONS` question lines
      apart (from half as many to twice as many): lines that start a question at the margin with
      digits, outside code fences and before any other heading of their section, each by how
      many such lines its section has before it (where its questions are guessed to go). Where
      a run begins past the least is told by the question's number (its CRC: one number in half
      the run's length), not by the count: an edit of a question's text never moves where runs
      begin, and a question added or removed without numbering the others again moves only
      those near it (the runs after it are taken from the cache);
    - of each section with such a line, the first (:func:`guess_within` reads up to it).

    Whether each truly begins a piece is known once it is read."""
    found: list[int] = []
    runs: dict[int, int] = {}
    firsts: dict[int, int] = {}
    fence: str | None = None
    scanner = Scanner(lines, "", DiagnosticSink())
    count = -1  # question lines in the section (-1: no section open, or runs stopped by a heading)
    since = 0  # question lines since the section's or the run's first
    numbered, least, most = _NUMBERED.match, max(1, RUN_QUESTIONS // 2), 2 * RUN_QUESTIONS
    for index in _may_matter(lines, start):
        line = lines[index]
        if fence is not None:
            closer = S.FENCE.match(line)
            mark = closer.group(1) if closer else ""
            if mark[:1] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
                fence = None
            continue
        number = numbered(line) if count >= 0 else None
        if number:
            if not count:
                firsts[found[-1]] = index
            elif since >= least and (since >= most or not crc32(number.group().encode()) % least) \
                    and S.question_start(line) is not None:
                runs[index], since = count, 0
            count += 1
            since += 1
            continue
        head = line[:1]
        if head != "#":
            opened = S.FENCE.match(line) if head in ("`", "~", " ", "\t") else None
            if opened:
                fence = opened.group(1)
            continue
        count = -1  # a heading: the section's questions after it may be a subsection's
        if line[:2] != "# ":
            continue
        heading = S.HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and not (
                scanner._answer_key(index) or K.starts_key(line, after_answer=True) or K.starts_key(line, after_answer=False)
                or S.closing_mark(line) or S.instruction_title(line) or S.points_rule(line)
                or S.heading_reading(lines, index).reading != "section"):
            found.append(index)
            count = since = 0
    return found, runs, firsts


#: A line :func:`piece_starts` does something with, by the newline before it and its first
#: character: a heading's, a code fence's (after whitespace: ``\s`` as :data:`syntax.FENCE`'s, but
#: the line's end), a number's. Searched from its newline, a character the search finds in C,
#: rather than as ``^`` in multiline mode, which is tried at every character (a bank's 2.4
#: million: 22 -> 17 ms for the pass of :func:`_may_matter`, bench/README.md).
_MAY_MATTER = re.compile(r"\n(?=[#`~\d]|[^\S\n])")


def _may_matter(lines: list[str], start: int) -> Iterator[int]:
    """The indexes from ``start`` of the lines that :func:`piece_starts` does anything with,
    found in C: the others (a bank's options, answers and blank lines, four in five) it would
    only pass over, inside a code fence or not (none of them closes one)."""
    # A newline before the first line too, so that it is found as every other line is.
    text = "\n" + "\n".join(lines[start:])
    count = text.count
    index, at = start, 0
    for found in _MAY_MATTER.finditer(text):
        where = found.start()
        index += count("\n", at, where)
        at = where
        yield index


def top_headings(lines: list[str], start: int) -> list[int]:
    """The top-level headings from ``start`` that may begin a piece (:func:`piece_starts`)."""
    return piece_starts(lines, start)[0]


def piece_key(lines: list[str], start: int, end: int, settings: Settings, form: str | None, role: object = None) -> str:
    """The key of a piece's reading: its lines, the line after it (the reader looks one line
    ahead: the next piece's heading or question), how the questions before it are numbered,
    the settings and its ``role`` (a run, runs following it, the section it is read within)."""
    digest = hashlib.sha256(f"{LAYOUT}\0{settings!r}\0{form!r}\0{role!r}\0".encode("utf-8", "surrogateescape"))
    digest.update("\n".join(lines[start:end]).encode("utf-8", "surrogateescape"))
    digest.update(b"\0" + (lines[end] if end < len(lines) else "\0end").encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def read_piece(lines: list[str], start: int, end: int, first: int, path: str, settings: Settings, form: str | None,
               readers: Readers, last: bool, continued: bool = False, within: Within | None = None,
               questions_from: int = 0, digested: bool = True) -> PieceRead:
    """Read the lines ``start`` to ``end`` as a piece whose first section is the quiz's section
    ``first``: a top-level heading up to the next one, or to the first line of a run of its
    questions (``continued``); or, ``within`` a section (as :data:`Within`), a run of its
    questions, the first read as its question ``questions_from``. ``lines``: the source's, as
    :func:`syntax.without_invisible_html` makes them. ``digested``: its questions' data digested
    (:func:`data_digest`), for a build that keeps the piece in its cache (without it, nothing asks
    for them: a bank's 10,000 questions are 35 ms)."""
    sink = DiagnosticSink()
    scanner = Scanner(lines, path, sink, settings.language)
    inside = None if within is None else \
        Section(1, 0, "", {}, Block(start + 1, 1), each_points=within[0], kind=within[1], exam_rule=within[2])
    _, roots = scanner.scan(start, end, form, within=inside, peek=continued)
    fits = (scanner.ends_clean or last) and not scanner.keys and not scanner.across_questions \
        and (not continued or scanner.next_opening is not None)
    source = SourceMap(path)
    source.syntax = "markdown"
    sections: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] | None = None
    opened: Section | None = None
    if inside is not None:
        fits = fits and scanner.first_opening is not None and len(roots) == 1 and roots[0] is inside \
            and not inside.children and not first_may_be_row(inside)
        questions = readers.questions(source, sink, settings, inside.questions, ("sections", first, "questions", questions_from)) \
            if fits else []
    else:
        fits = fits and bool(roots) and roots[0].line == start + 1 and roots[0].level == 1
        sections = readers.sections(source, sink, settings, roots, first, continued) if fits else []
        if fits and continued:
            # The section its runs are read within, and what its total is checked by when they are in.
            s = roots[-1]
            within = (s.each_points, s.kind, s.exam_rule)
            opened = Section(s.level, s.line, s.title, {}, Block(s.line, 1), title_column=s.title_column,
                             each_points=s.each_points, kind=s.kind, exam_rule=s.exam_rule)
    digests = [] if not digested else [[data_digest(q) for q in questions]] if questions is not None else \
        [[data_digest(q) for q in s.get("questions") or []] for s in sections]
    places = Places(source.positions, source.scalars, source.numbers, source.text_lines, source.unread)
    return PieceRead(start, first, sections, places, sink.items, scanner.form, fits, questions, questions_from, within, opened,
                     scanner.first_opening, scanner.next_opening, digests)


def data_digest(question: Any) -> str | None:
    """A question's model data as the reader made them, digested exactly: their ``marshal`` bytes
    (format 2, no shared references: the same data always give the same bytes, and ``1``,
    ``1.0`` and ``True`` give different ones), or None for anything but plain data. What a
    build's chunk keys are made of in place of the question's model serialized
    (``SourceMap.question_digests``)."""
    try:
        return hashlib.sha256(marshal.dumps(question, 2)).hexdigest()
    except ValueError:
        return None


def guess_within(lines: list[str], start: int, end: int, language: str, form: str | None) -> Within | None:
    """What the section of the top-level heading ``start`` reads its questions by, as its lines
    up to ``end`` (its first question's) make it: a guess, checked once the section is read."""
    roots = Scanner(lines, "", DiagnosticSink(), language).scan(start, end, form)[1]
    return (roots[-1].each_points, roots[-1].kind, roots[-1].exam_rule) if roots else None


def read_pieces(lines: list[str], bounds: list[int], first: int, path: str, settings: Settings, form: str | None,
                readers: Readers, pieces: Pieces, runs: dict[int, int] | None = None,
                firsts: dict[int, int] | None = None) -> list[tuple[PieceRead, int, str]] | None:
    """Every piece (from each of ``bounds`` to the next; the first piece's sections from the
    quiz's section ``first``; those of ``runs``, runs of questions, whose ``firsts`` too, as
    :func:`piece_starts` gives them), each taken from the cache where it is there at its key,
    the rest read (on the workers when there are many lines to read); None when a piece does not
    read as in the whole reading (the source is then read in other pieces, or whole).

    The numbering each piece starts from is guessed before reading (the numbering of the first
    question line, for a piece that has one before it), and so is the section a run is read
    within (:func:`guess_within`); both are checked after, in order: a piece read from another
    numbering than the pieces before it end with, or a run within another section than theirs,
    is read again."""
    runs = runs or {}
    edges = [*bounds, len(lines)]
    count = len(bounds)
    is_run = [edges[k] in runs for k in range(count)]
    continued = [k + 1 < count and is_run[k + 1] for k in range(count)]
    section_of: list[int] = []
    for k in range(count):
        section_of.append(section_of[-1] + (not is_run[k]) if section_of else first)
    first_question, guess = None, None
    for i in range(bounds[0], len(lines)):
        started = S.question_start(lines[i]) if lines[i][:1] not in (" ", "\t") else None
        if started:
            first_question, guess = i, started.form
            break

    def assumed(k: int) -> str | None:
        return form or (guess if first_question is not None and first_question < bounds[k] else None)

    guessed: dict[int, Within | None] = {}
    head = 0
    for k in range(count):
        if not is_run[k]:
            head = k
        elif head not in guessed:
            guessed[head] = guess_within(lines, edges[head], (firsts or {}).get(edges[head], edges[head + 1]),
                                         settings.language, assumed(head))

    def role(k: int, within: Within | None) -> object:
        return (is_run[k], continued[k], within) if is_run[k] or continued[k] else None

    made: dict[int, tuple[str | None, Within | None, str]] = {}

    def key(k: int, entry: str | None, within: Within | None) -> str:
        # Made once per piece as it is read (each is asked for again once the pieces are checked in
        # order: a bank's 100 pieces hashed twice were 2.5 MB of text hashed for nothing).
        known = made.get(k)
        if known is not None and known[0] == entry and known[1] == within:
            return known[2]
        digest = piece_key(lines, edges[k], edges[k + 1], settings, entry, role(k, within))
        made[k] = (entry, within, digest)
        return digest

    def taken(k: int, entry: str | None, within: Within | None) -> PieceRead | None:
        found = pieces.load(key(k, entry, within)) if pieces.load is not None else None
        if not isinstance(found, PieceRead):
            return None
        if found.start != edges[k] and found.diagnostics:
            return None  # its messages may name lines: taken only where it was read
        return found

    def read(task: tuple[int, str | None, Within | None]) -> PieceRead:
        k, entry, within = task
        done = read_piece(lines, edges[k], edges[k + 1], section_of[k], path, settings, entry, readers, k == count - 1,
                          continued[k], within, runs.get(edges[k], 0), digested=pieces.store is not None)
        # A run, or a section its runs follow, not taken is kept too: the next build then finds
        # at once that the source is read in other pieces.
        if pieces.store is not None and (done.fits or is_run[k] or continued[k]):
            pieces.store(key(k, entry, within), done)
        return done

    read_as: dict[int, tuple[str | None, Within | None, PieceRead]] = {}
    todo: list[tuple[int, str | None, Within | None]] = []
    head = 0
    for k in range(count):
        head = head if is_run[k] else k
        entry, within = assumed(k), guessed.get(head) if is_run[k] else None
        found = taken(k, entry, within)
        if found is not None:
            read_as[k] = (entry, within, found)
        else:
            todo.append((k, entry, within))
    if pieces.run is not None and sum(edges[k + 1] - edges[k] for k, _, _ in todo) >= RUN_FROM and len(todo) > 1:
        done = {piece.start: piece for piece in pieces.run(todo, read)}  # in the order they finish
    else:
        done = {piece.start: piece for piece in map(read, todo)}
    for k, entry, within in todo:
        read_as[k] = (entry, within, done[edges[k]])
    out: list[tuple[PieceRead, int, str]] = []
    before: PieceRead | None = None
    for k in range(count):
        entry, within, piece = read_as[k]
        wanted = before.within if is_run[k] and before is not None else None
        if is_run[k] and wanted is None:
            return None  # the piece before is not a section its runs follow
        if entry != form or within != wanted:  # read from a numbering or within a section not those before it end with
            entry, within = form, wanted
            piece = taken(k, entry, within) or read((k, entry, within))
        if not piece.fits:
            return None
        if is_run[k] and (before is None or before.next_opening is None or before.next_opening != piece.first_opening):
            return None  # its first line does not read as after the lines before it
        out.append((piece, edges[k], key(k, entry, within)))
        form = piece.form
        before = piece
    return out


def put_together(pieces: list[tuple[PieceRead, int, str]], source: SourceMap, sink: DiagnosticSink,
                 first: int, check_section: CheckSection | None = None) -> list[dict[str, Any]]:
    """The pieces' sections, their places put in ``source`` as sections ``first``, ``first + 1``,
    ... at the lines where each piece starts now (its index and key beside it), a run's
    questions appended to the section before it (its places moved to theirs), each section's
    piece key (``SourceMap.section_keys``; of a section read in runs, one of its pieces' keys,
    and where each piece's questions begin in it, ``SourceMap.section_runs``), and their
    diagnostics in ``sink``; a section read in runs checked (``check_section``) once
    its last run is in, after the diagnostics of its pieces, as the whole reading checks it after
    reading its questions."""
    sections: list[dict[str, Any]] = []
    #: The section read in runs being put together: itself (without questions), its data, where
    #: each of its pieces' questions begin in it and the piece's key.
    open_runs: tuple[Section, dict[str, Any], list[tuple[int, str]]] | None = None

    def close() -> None:
        if open_runs is None:
            return
        section, data, runs = open_runs
        source.section_keys[first + len(sections) - 1] = hashlib.sha256("\0".join(key for _, key in runs).encode()).hexdigest()
        source.section_runs[first + len(sections) - 1] = runs
        if check_section is not None:
            check_section(section, data, source, sink)

    for piece, start, key in pieces:
        shift = start - piece.start
        if piece.questions is not None:
            assert open_runs is not None, "a run follows the section it is read in"
            data = open_runs[1]
            _place(piece, source, first + len(sections) - 1 - piece.first, len(data["questions"]) - piece.questions_from, shift)
            open_runs[2].append((len(data["questions"]), key))
            digests = source.question_digests.get(first + len(sections) - 1)
            if digests is not None and len(digests) == len(data["questions"]) and len(piece.digests) == 1:
                digests += piece.digests[0]
            else:
                source.question_digests.pop(first + len(sections) - 1, None)
            data["questions"] += piece.questions
            _diagnostics(piece, source, sink)
            continue
        close()
        open_runs = None
        for k in range(len(piece.sections)):
            source.section_keys[first + len(sections) + k] = f"{key}:{k}"
            if k < len(piece.digests):
                source.question_digests[first + len(sections) + k] = list(piece.digests[k])
        _place(piece, source, first + len(sections) - piece.first, 0, shift)
        _diagnostics(piece, source, sink)
        sections += piece.sections
        if piece.open_section is not None and sections:
            # Its runs' questions go to a copy: the piece's own data stays as it was read.
            data = dict(sections[-1])
            data["questions"] = list(data.get("questions") or [])
            sections[-1] = data
            opened = replace(piece.open_section, line=piece.open_section.line + shift)
            open_runs = (opened, data, [(0, f"{key}:{len(piece.sections) - 1}")])
    close()
    return sections


def _place(piece: PieceRead, source: SourceMap, by: int, by_questions: int, shift: int) -> None:
    """A piece's places put in ``source``: its sections moved ``by`` (a run's questions
    ``by_questions`` too), its lines ``shift`` (those of a piece from the cache only when asked
    for, ``SourceMap.take``)."""
    source.take(piece.places, by, by_questions, shift)


def _diagnostics(piece: PieceRead, source: SourceMap, sink: DiagnosticSink) -> None:
    for diagnostic in piece.diagnostics:
        if diagnostic.span is not None and diagnostic.span.path != source.path:
            diagnostic = replace(diagnostic, span=replace(diagnostic.span, path=source.path))
        sink.items.append(diagnostic)


__all__ = ["PIECES_FROM", "PieceRead", "Readers", "Settings", "piece_starts", "put_together", "read_pieces", "top_headings"]
