"""Markdown sources (``*.md``): the quiz dialect documented in docs/source-format.md.

Line based, like text2qti's marker table: YAML front matter, ``#`` headings for sections, ``1.``
for a question, ``A)`` for an option, ``- item`` lists for matching and ordering, and labelled
blocks (``Answer:``/``정답:``, ``Explanation:``/``설명:``, ...). :mod:`.blocks` splits the text into
drafts, :mod:`.questions` turns each draft into model data by kind; the model validates the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...diagnostics import DiagnosticSink, SourceSpan
from ...model import Quiz, QuizSettings
from ..base import KEY, Loc, SourceMap, ids_repeat, read_text_with, read_with, suggest
from ..piece_cache import Pieces
from ...limits import Limits
from ..stated_total import find_stated_total
from ..yaml_data import load_yaml
from . import pieces as P
from . import syntax as S
from .blocks import Block, Question, Scanner, Section
from .questions import QuestionBuilder, digest


class MarkdownReader:
    name = "markdown"
    suffixes: tuple[str, ...] = (".md", ".markdown")

    def read(self, path: Path, display: str, sink: DiagnosticSink, limits: Limits = Limits(),
             pieces: Pieces | None = None) -> tuple[Quiz, SourceMap] | None:
        return read_with(lambda text, source, sink: _Reader(text.split("\n"), source, sink, limits, pieces=pieces).read(),
                         path, display, sink)


def read_markdown(text: str, file_stem: str, display: str, sink: DiagnosticSink,
                  errors_before: int | None = None) -> tuple[Quiz, SourceMap] | None:
    """A source's text (front matter and all) read as if from a file named ``file_stem``; the
    errors after ``errors_before`` count as the reading's (see read_text_with)."""
    return read_text_with(lambda text, source, sink: _Reader(text.split("\n"), source, sink, Limits()).read(),
                          text, file_stem, display, sink, errors_before)


def read_paper(text: str, title: tuple[str, int, int] | None, language: str, file_stem: str, display: str,
               sink: DiagnosticSink, errors_before: int | None = None) -> tuple[Quiz, SourceMap] | None:
    """An exam paper as pasted (no front matter) read by this reader, with its lines numbered as
    pasted: ``title`` is the paper's title and where it stands (its line and column; the lines up
    to it are not the paper's body), ``language`` the paper's. What ``import`` of a pasted paper
    runs, so that it reads the paper as ``build`` reads the source it writes (that title and
    language as front matter, then the lines after the title)."""
    front = {"title": title[0] if title else file_stem, "language": language}
    start = title[1] if title else 0

    def parse(text: str, source: SourceMap, sink: DiagnosticSink) -> dict[str, Any] | None:
        reader = _Reader(text.split("\n"), source, sink, Limits(), given=(front, start))
        if title:
            source.at(("title",), title[1], title[2])
        return reader.read()

    return read_text_with(parse, text, file_stem, display, sink, errors_before)


class _Reader:
    def __init__(self, lines: list[str], source: SourceMap, sink: DiagnosticSink, limits: Limits,
                 given: tuple[dict[str, Any], int] | None = None, pieces: Pieces | None = None) -> None:
        self.lines = lines
        #: The front matter as given (a pasted paper has none) and the index of the body's first line.
        self.given = given
        self.source = source
        self.sink = sink
        self.limits = limits
        #: Where a large source's pieces are kept and read (:mod:`.pieces`); None: read it whole.
        self.pieces = pieces
        #: The file has no front matter (QB103): its questions are still read, if it has any.
        self.front_missing = False
        #: Its questions' defaults (points, shuffle), from the front matter once read.
        self.defaults: dict[str, Any] = {}

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.error(code, message, SourceSpan(self.source.path, line, column), hint)

    def read(self) -> dict[str, Any] | None:
        self.source.syntax = "markdown"
        front, body_start = self._front_matter()
        if front is None:
            return None
        language = front.get("language")
        language = language if isinstance(language, str) else "en"
        self.sink.language = language
        defaults: dict[str, Any] = {k: front.pop(k) for k in ("points", "shuffle") if k in front}
        settings = front.get("settings")
        if "shuffle" not in defaults and isinstance(settings, dict) and settings.get("shuffle_answers") is False:
            # The quiz says "do not shuffle answers": its questions keep their order in every
            # target, not only in the LMS that reads the quiz-wide switch.
            defaults["shuffle"] = False
        data: dict[str, Any] = dict(front)
        title = str(data.get("title", ""))
        # The lines as the scanners read them, made once for the source (not once a scanner).
        visible = S.without_invisible_html(self.lines)
        split = self._in_pieces(visible, body_start, P.Settings(language, str(data.get("language") or "en"), title,
                                                                tuple(defaults.items())))
        later: list[tuple[P.PieceRead, int, str]] = []
        if split is None:
            description, sections = Scanner(visible, self.source.path, self.sink, language).scan(body_start)
        else:
            description, sections, later = split
        intro = description.text()
        if intro:
            if "description" in data:
                self.error("QB118", "the quiz has a description in the front matter and text before the first section",
                           description.line, hint="keep one of the two")
            data["description"] = intro
            self.source.text_at(("description",), description.line, description.column, description.written())
        if not sections and not later and self.front_missing:
            return None  # no front matter and no question: QB103 says all there is (an empty file, another document)
        if not sections and not later:
            self.error("QB119", "the quiz has no questions", description.line,
                       hint="add a question: a line '1. Question text' followed by options 'A) ...' and 'Answer: A'")
            return None
        self._stated_total(data, description)
        builder = QuestionBuilder(self.source, self.sink, defaults, str(data.get("language") or "en"))
        self.defaults = defaults
        data["sections"] = [self._section(s, ("sections", i), title, builder) for i, s in enumerate(sections)]
        data["sections"] += P.put_together(later, self.source, self.sink, len(sections), self._check_section)
        if ids_repeat(data["sections"]):  # else no id is to be made distinct
            _distinct_made_ids(data["sections"], ("sections",), self.source, {})
        return data

    def _in_pieces(self, visible: list[str], body_start: int,
                   settings: P.Settings) -> tuple[Block, list[Section], list[tuple[P.PieceRead, int, str]]] | None:
        """The lines before the first top-level heading read here, the pieces from each such
        heading on read by :mod:`.pieces` (kept, taken from the cache, on the workers): long
        sections in runs of their questions, else whole sections; None when the source is to be
        read whole (small, one piece, or not reading the same in pieces). ``visible``: the
        source's lines as :func:`syntax.without_invisible_html` makes them."""
        if self.pieces is None or len(self.lines) < P.PIECES_FROM:
            return None
        bounds, runs, firsts = P.piece_starts(visible, body_start)
        if not bounds:
            return None
        sink = DiagnosticSink()  # the sink's only if the pieces are taken: else the source is read whole
        scanner = Scanner(visible, self.source.path, sink, settings.language)
        description, sections = scanner.scan(body_start, bounds[0])
        if not scanner.ends_clean or scanner.keys:
            return None
        readers = P.Readers(self._piece_sections, self._piece_questions)
        later = None
        if runs:
            later = P.read_pieces(visible, sorted([*bounds, *runs]), len(sections), self.source.path, settings, scanner.form,
                                  readers, self.pieces, runs, firsts)
        if later is None:  # in whole sections
            later = P.read_pieces(visible, bounds, len(sections), self.source.path, settings, scanner.form, readers,
                                  self.pieces)
        if later is None:
            return None
        self.sink.items.extend(sink.items)
        return description, sections, later

    def _piece_sections(self, source: SourceMap, sink: DiagnosticSink, settings: P.Settings, roots: list[Section],
                        first: int, continued: bool) -> list[dict[str, Any]]:
        """A piece's sections as model data, as :meth:`read` makes them (``P.BuildSections``);
        ``continued``: the last one's total is checked once its runs are in (:meth:`_check_section`)."""
        reader = _Reader(self.lines, source, sink, self.limits)
        builder = QuestionBuilder(source, sink, dict(settings.defaults), settings.questions_language)
        return [reader._section(s, ("sections", first + i), settings.title, builder, whole=not (continued and i == len(roots) - 1))
                for i, s in enumerate(roots)]

    def _piece_questions(self, source: SourceMap, sink: DiagnosticSink, settings: P.Settings, questions: list[Question],
                         loc: tuple[str, int, str, int]) -> list[dict[str, Any]]:
        """A run's questions as model data, as :meth:`_section` makes them (``P.BuildQuestions``)."""
        builder = QuestionBuilder(source, sink, dict(settings.defaults), settings.questions_language)
        return [builder.build(q, loc[:3] + (loc[3] + j,)) for j, q in enumerate(questions)]

    def _check_section(self, section: Section, data: dict[str, Any], source: SourceMap, sink: DiagnosticSink) -> None:
        """What :meth:`_section` checks of a whole section (its stated total), for one read in
        runs once they are put together (``P.CheckSection``)."""
        if section.title and section.each_points is None and "select" not in data:
            _Reader(self.lines, source, sink, self.limits)._section_total(section, data, self.defaults)

    def _stated_total(self, data: dict[str, Any], description: Block) -> None:
        """The total the paper states in its title or the lines before its first section, unless
        the front matter gives ``total:`` (read once, here; checked against the points by QB219)."""
        if "stated_points" in data:
            return
        title, at = str(data.get("title", "")), self.source.locate(("title",))
        # The value's own column: a quoted title's first character is after its quote.
        column = self.lines[at.line - 1].find(title, at.column - 1) + 1 if title and at.line <= len(self.lines) else 0
        head = [(title, at.line, column or at.column)]
        head += [(line, description.line + i, 1) for i, line in enumerate(description.lines)]
        found = find_stated_total([text for text, _, _ in head])
        if found:
            _, line, offset = head[found.index]
            data["stated_points"] = found.points
            self.source.at(("stated_points",), line, offset + found.column - 1)
            self.source.scalars[("stated_points",)] = found.written

    def _front_matter(self) -> tuple[dict[str, Any] | None, int]:
        if self.given is not None:
            return dict(self.given[0]), self.given[1]
        if not self.lines or self.lines[0].strip() != "---":
            self.error("QB103", "a quiz source starts with YAML front matter", 1,
                       hint="begin the file with the lines '---', 'title: My quiz', '---'")
            self.front_missing = True
            return {"title": "?"}, 0  # reported: the questions are still read and checked (nothing is written)
        end = next((i for i in range(1, len(self.lines)) if self.lines[i].strip() in ("---", "...")), None)
        if end is None:
            self.error("QB104", "the front matter is not closed", 1, hint="add a line '---' after the last front-matter key")
            return None, 0
        errors_before = len(self.sink.errors)
        raw = load_yaml("\n".join(self.lines[1:end]), self.source, self.sink, line_offset=1, loc=("__front__",),
                        limits=self.limits)
        # A front matter that cannot be read does not stop the reading of the questions below it:
        # their problems are reported in the same run (the quiz is not written).
        if len(self.sink.errors) > errors_before:
            return {"title": "?"}, end + 1
        raw = {} if raw is None else raw
        if not isinstance(raw, dict):
            self.error("QB105", "the front matter must be 'key: value' lines", 2,
                       hint="write one setting per line, such as 'title: My quiz', with no '- ' in front")
            return {"title": "?"}, end + 1
        front: dict[str, Any] = {}
        for key, value in raw.items():
            span = self.source.locate(("__front__", KEY, key))
            if key not in S.FRONT_MATTER_KEYS:
                self._unknown_key(key, span.line, span.column)
                continue
            model_key = S.FRONT_MATTER_KEYS[key]
            front[model_key] = value
            # The key's value and, for the settings mapping, everything inside it.
            for loc, where in list(self.source.positions.items()):
                if loc[:2] == ("__front__", key):
                    self.source.positions[(model_key,) + loc[2:]] = where
            for loc, written in list(self.source.scalars.items()):
                if loc[:2] == ("__front__", key):
                    self.source.scalars[(model_key,) + loc[2:]] = written
        if "title" not in front:
            self.error("QB107", "the front matter has no 'title'", 1, hint="add a line 'title: ...' to the front matter")
            front["title"] = "?"  # reported: the questions are still read and checked (nothing is written)
        return front, end + 1

    def _unknown_key(self, key: str, line: int, column: int) -> None:
        settings = list(QuizSettings.model_fields)
        if key in settings:
            self.error("QB106", f"'{key}' is a quiz setting: write it under 'settings:'", line, column,
                       hint=f"a line 'settings:', then '  {key}: ...' indented below it (qti-builder docs source-format#quiz-settings)")
            return
        near = suggest(key, list(S.FRONT_MATTER_KEYS))
        setting = suggest(key, settings)
        if not near and setting:
            near = setting.removesuffix("?") + ", under 'settings:'?"
        self.error("QB106", f"unknown front-matter key '{key}'{near}", line, column,
                   hint=f"known keys: {', '.join(S.FRONT_MATTER_KEYS)}")

    def _section(self, section: Section, loc: Loc, quiz_title: str, builder: QuestionBuilder, whole: bool = True) -> dict[str, Any]:
        """A section as model data; ``whole``: all its questions are here (else its total is
        checked once they are, :meth:`_check_section`)."""
        title = section.title or quiz_title
        data: dict[str, Any] = {"id": "s" + digest(title), "title": title}
        self.source.at(loc, section.line)
        for key, (value, col) in section.attrs.items():
            data[key] = value
            self.source.at(loc + (key,), section.line, col)
        intro = section.intro.text()
        if intro and section.title:
            data["description"] = intro
            self.source.text_at(loc + ("description",), section.intro.line, section.intro.column, section.intro.written())
        data["questions"] = [builder.build(q, loc + ("questions", j)) for j, q in enumerate(section.questions)]
        data["sections"] = [self._section(s, loc + ("sections", k), quiz_title, builder) for k, s in enumerate(section.children)]
        if whole and section.title and section.each_points is None and "select" not in data:
            self._section_total(section, data, builder.defaults)
        return data

    def _section_total(self, section: Section, data: dict[str, Any], defaults: dict[str, Any]) -> None:
        """A heading that states its section's points (``Aufgabe 2 (4 Punkte)``, ``Part II (10 points)``):
        its questions must add up to them, else points the reader did not find made a question
        worth 1 (QB197, at the heading; the paper's own total is QB219's)."""
        stated = S.points_in(section.title)
        if stated is None:
            return
        worth = _points(data, defaults.get("points", 1))
        if worth is None or worth == stated[0]:
            return
        self.error("QB197", f"the heading '{section.title}' states {stated[0]:g} points, but its questions add up to "
                   f"{worth:g}", section.line, section.title_column + stated[1],
                   hint="write each question's points as the paper does ('(2 Punkte)', '(2 points)', {points=2}), or "
                        "a rule for each ('(je 2 Punkte)', '(2 pts each)') in the heading; 'qti-builder check --outline' "
                        "lists each question's points")


def _distinct_made_ids(sections: list[Any], loc: Loc, source: SourceMap, seen: dict[str, int]) -> None:
    """The ids the reader makes (a question's from a hash of its text, a section's from its title)
    repeat where two questions say the same, as most papers' "다음 중 옳은 것은?" do: the second and
    later of one take "-2", "-3", in source order, so a paper never fails on ids its teacher did
    not write. An id written in the source (its place recorded) is left as written: written twice,
    it is QB133."""
    for i, section in enumerate(sections):
        if not isinstance(section, dict):
            continue
        at = loc + (i,)
        questions = section.get("questions") or []
        made = [(section, at)] + [(q, at + ("questions", j)) for j, q in enumerate(questions) if isinstance(q, dict)]
        for node, where in made:
            ident = node.get("id")
            if not isinstance(ident, str) or source.place(where + ("id",)) is not None:  # (a head: nothing made for it)
                continue
            seen[ident] = seen.get(ident, 0) + 1
            if seen[ident] > 1:
                node["id"] = f"{ident}-{seen[ident]}"
                if node is not section and len(loc) == 1:  # a top-level section's question: its digest is of other data now
                    digests = source.question_digests.get(i)
                    if digests is not None:
                        digests[where[-1]] = None  # type: ignore[index]
        _distinct_made_ids(section.get("sections") or [], at + ("sections",), source, seen)


def _points(section: dict[str, Any], default: Any) -> float | None:
    """The points of a section's questions and its subsections', or None when one of them was
    not read (its error says why) or a part of them is drawn at random."""
    total = 0.0
    for question in section.get("questions", []):
        if "type" not in question:
            return None
        try:
            total += float(question.get("points", default)) if question["type"] != "text_only" else 0
        except (TypeError, ValueError):
            return None
    for child in section.get("sections", []):
        if "select" in child:
            return None
        worth = _points(child, default)
        if worth is None:
            return None
        total += worth
    return total


__all__ = ["Block", "MarkdownReader", "read_markdown", "read_paper"]
