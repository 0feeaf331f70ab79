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
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ...diagnostics import Diagnostic, DiagnosticSink, SourceSpan
from ..piece_cache import Pieces
from ..source_map import Loc, SourceMap, TextLines
from . import keys as K
from . import syntax as S
from .blocks import Scanner

#: Lines from which a source is read in pieces (a smaller one is read whole: it is read quickly,
#: and its sections would fill the cache with small entries).
PIECES_FROM = 1_000
#: Lines of the pieces left to read from which they are read on the build's workers.
RUN_FROM = 20_000
#: Changes with the layout of a piece's reading (its key, and what an entry holds).
LAYOUT = "markdown piece 2"


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
    #: Where each part came from, by its place in the data (the piece's first section being
    #: section ``first``), as (line, column), lines counted from the whole source: two numbers
    #: unpickle in a quarter of the time of a span (a bank's piece holds about 12,000).
    positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    scalars: dict[Loc, str] = field(default_factory=dict)
    numbers: dict[Loc, int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: How its questions are numbered at its end (``Scanner.form``), for the next piece.
    form: str | None = None
    #: It reads as in the whole reading (see the module's docstring).
    fits: bool = True
    #: SourceMap.text_lines (counted from their field's line: they move with it).
    text_lines: dict[Loc, TextLines] = field(default_factory=dict)


#: Reads the sections of a scan into model data: ``(source, sink, settings, sections, first)``
#: -> their data, with their places in ``source`` as sections ``first``, ``first + 1``, ...
BuildSections = Callable[[SourceMap, DiagnosticSink, Settings, list[Any], int], list[dict[str, Any]]]


def top_headings(lines: list[str], start: int) -> list[int]:
    """The indexes of the lines (as :func:`syntax.without_invisible_html` makes them) from
    ``start`` that may begin a piece: top-level headings at the
    left margin, outside code fences, that the reader takes as nothing but a heading whatever
    was read before them (not an answer key's title or entries, a closing mark, instructions'
    title or a points rule, nor a question written as a heading, ``# 1. …`` with its options under
    it). Whether each truly begins a piece is known once it is read."""
    found: list[int] = []
    fence: str | None = None
    scanner = Scanner(lines, "", DiagnosticSink(), visible=True)
    for index in range(start, len(lines)):
        line = lines[index]
        if fence is not None:
            closer = S.FENCE.match(line)
            mark = closer.group(1) if closer else ""
            if mark[:1] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
                fence = None
            continue
        if line[:2] != "# ":
            opened = S.FENCE.match(line) if line[:1] in ("`", "~", " ", "\t") else None
            if opened:
                fence = opened.group(1)
            continue
        heading = S.HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and not (
                scanner._answer_key(index) or K.starts_key(line, after_answer=True) or K.starts_key(line, after_answer=False)
                or S.closing_mark(line) or S.instruction_title(line) or S.points_rule(line)
                or S.heading_reading(lines, index).reading != "section"):
            found.append(index)
    return found


def piece_key(lines: list[str], start: int, end: int, settings: Settings, form: str | None) -> str:
    """The key of a piece's reading: its lines, the line after it (the reader looks one line
    ahead: the next piece's heading), how the questions before it are numbered and the settings."""
    digest = hashlib.sha256(f"{LAYOUT}\0{settings!r}\0{form!r}\0".encode("utf-8", "surrogateescape"))
    digest.update("\n".join(lines[start:end]).encode("utf-8", "surrogateescape"))
    digest.update(b"\0" + (lines[end] if end < len(lines) else "\0end").encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def read_piece(lines: list[str], start: int, end: int, first: int, path: str, settings: Settings, form: str | None,
               build_sections: BuildSections, last: bool) -> PieceRead:
    """Read the lines ``start`` to ``end`` (a top-level heading, up to the next one) as a piece
    whose first section is the quiz's section ``first``; ``lines``: the source's, as
    :func:`syntax.without_invisible_html` makes them."""
    sink = DiagnosticSink()
    scanner = Scanner(lines, path, sink, settings.language, visible=True)
    _, roots = scanner.scan(start, end, form)
    fits = (scanner.ends_clean or last) and not scanner.keys and not scanner.across_questions and bool(roots) \
        and roots[0].line == start + 1 and roots[0].level == 1
    source = SourceMap(path)
    source.syntax = "markdown"
    sections = build_sections(source, sink, settings, roots, first) if fits else []
    positions = {loc: (span.line, span.column) for loc, span in source.positions.items()}
    return PieceRead(start, first, sections, positions, source.scalars, source.numbers, sink.items, scanner.form, fits,
                     source.text_lines)


def read_pieces(lines: list[str], bounds: list[int], first: int, path: str, settings: Settings, form: str | None,
                build_sections: BuildSections, pieces: Pieces) -> list[tuple[PieceRead, int, str]] | None:
    """Every piece (from each of ``bounds`` to the next; the first piece's sections from the
    quiz's section ``first``), each taken from the cache where it is there at its key, the rest
    read (on the workers when there are many lines to read); None
    when a piece does not read as in the whole reading (the source is then read whole).

    The numbering each piece starts from is guessed before reading (the numbering of the first
    question line, for a piece that has one before it) and checked after, in order: a piece
    read from another numbering than the pieces before it end with is read again."""
    edges = [*bounds, len(lines)]
    count = len(bounds)
    first_question, guess = None, None
    for i in range(bounds[0], len(lines)):
        started = S.question_start(lines[i]) if lines[i][:1] not in (" ", "\t") else None
        if started:
            first_question, guess = i, started.form
            break

    def assumed(k: int) -> str | None:
        return form or (guess if first_question is not None and first_question < bounds[k] else None)

    def key(k: int, entry: str | None) -> str:
        return piece_key(lines, edges[k], edges[k + 1], settings, entry)

    def taken(k: int, entry: str | None) -> PieceRead | None:
        found = pieces.load(key(k, entry)) if pieces.load is not None else None
        if not isinstance(found, PieceRead):
            return None
        if found.start != edges[k] and found.diagnostics:
            return None  # its messages may name lines: taken only where it was read
        return found

    def read(task: tuple[int, str | None]) -> PieceRead:
        k, entry = task
        # Each piece is one top-level section, but for a reading that does not fit: read as one.
        done = read_piece(lines, edges[k], edges[k + 1], first + k, path, settings, entry, build_sections, k == count - 1)
        if pieces.store is not None and done.fits:
            pieces.store(key(k, entry), done)
        return done

    read_as: dict[int, tuple[str | None, PieceRead]] = {}
    todo: list[tuple[int, str | None]] = []
    for k in range(count):
        entry = assumed(k)
        found = taken(k, entry)
        if found is not None:
            read_as[k] = (entry, found)
        else:
            todo.append((k, entry))
    if pieces.run is not None and sum(edges[k + 1] - edges[k] for k, _ in todo) >= RUN_FROM and len(todo) > 1:
        done = {piece.start: piece for piece in pieces.run(todo, read)}  # in the order they finish
    else:
        done = {piece.start: piece for piece in map(read, todo)}
    for k, entry in todo:
        read_as[k] = (entry, done[edges[k]])
    out: list[tuple[PieceRead, int, str]] = []
    for k in range(count):
        entry, piece = read_as[k]
        if entry != form:  # read from a guessed numbering that the pieces before it do not end with
            entry, piece = form, (taken(k, form) or read((k, form)))
        if not piece.fits:
            return None
        out.append((piece, edges[k], key(k, entry)))
        form = piece.form
    return out


def put_together(pieces: list[tuple[PieceRead, int, str]], source: SourceMap, sink: DiagnosticSink,
                 first: int) -> list[dict[str, Any]]:
    """The pieces' sections, their places put in ``source`` as sections ``first``, ``first + 1``,
    ... at the lines where each piece starts now (its index and key beside it), each section's
    piece key (``SourceMap.section_keys``), and their diagnostics in ``sink``."""
    sections: list[dict[str, Any]] = []
    for piece, start, key in pieces:
        for k in range(len(piece.sections)):
            source.section_keys[first + len(sections) + k] = f"{key}:{k}"
        base, shift, path = first + len(sections), start - piece.start, source.path
        if base == piece.first:
            source.positions.update({loc: SourceSpan(path, line + shift, column) for loc, (line, column) in piece.positions.items()})
            source.scalars.update(piece.scalars)
            source.numbers.update(piece.numbers)
            source.text_lines.update(piece.text_lines)
        else:
            for loc, (line, column) in piece.positions.items():
                source.positions[_moved(loc, base - piece.first)] = SourceSpan(path, line + shift, column)
            for loc, text in piece.scalars.items():
                source.scalars[_moved(loc, base - piece.first)] = text
            for loc, number in piece.numbers.items():
                source.numbers[_moved(loc, base - piece.first)] = number
            for loc, lines in piece.text_lines.items():
                source.text_lines[_moved(loc, base - piece.first)] = lines
        for diagnostic in piece.diagnostics:
            if diagnostic.span is not None and diagnostic.span.path != source.path:
                diagnostic = replace(diagnostic, span=replace(diagnostic.span, path=source.path))
            sink.items.append(diagnostic)
        sections += piece.sections
    return sections


def _moved(loc: Loc, by: int) -> Loc:
    return ("sections", loc[1] + by, *loc[2:]) if by and len(loc) > 1 and loc[0] == "sections" else loc  # type: ignore[operator]


__all__ = ["PIECES_FROM", "PieceRead", "Settings", "put_together", "read_pieces", "top_headings"]
