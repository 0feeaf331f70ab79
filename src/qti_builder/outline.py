"""The paper as read, for a teacher to hold against the paper: its sections, the passages with the
questions they cover, each question's number, type, right answer(s), points and source lines, and
the totals (``qti-builder check --outline``, and the outline of each preview page).

Built from the model and the source map only: the outline shows what the reader made of the
paper, never a second reading of its text. The lines of a question run from where it starts to
the line before the next thing that starts (a question, a passage, a section), blank lines at
its end left out.

Imported only for ``--outline`` and the preview: the check that a paper's stated total is what
its questions add up to (QB219), which every check runs, is :mod:`.totals`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from .diagnostics import DiagnosticSink
from .i18n import SUMMARY, counted, points_text, summary_words
from .model import Quiz, Section
from .readers import SourceMap
from .readers.source_map import last_line as ends_at, structure_starts
from .summary import ENGLISH, TYPE_WORDS, answer_words, kind_name, quiz_points

#: The outline's words in English (lines_text's default).
SUMMARY_EN = SUMMARY["en"]


@dataclass(frozen=True)
class OutlineQuestion:
    number: int
    id: str
    type: str
    answer: str
    points: float
    first_line: int
    last_line: int

    @property
    def type_words(self) -> str:
        return TYPE_WORDS.get(self.type, "?")


@dataclass(frozen=True)
class OutlinePassage:
    first_line: int
    last_line: int
    #: The numbers of the questions it covers, first and last.
    covers: tuple[int, int]


@dataclass
class OutlineSection:
    title: str
    first_line: int
    last_line: int
    #: Questions and passages in the order the paper shows them.
    parts: list[OutlineQuestion | OutlinePassage] = field(default_factory=list)
    children: list["OutlineSection"] = field(default_factory=list)


@dataclass
class Outline:
    path: str
    title: str
    language: str
    sections: list[OutlineSection]
    questions: int
    points: tuple[float, float]
    stated_points: float | None
    #: The stated total as the paper writes it (``총점 42``), and its line.
    stated_written: str | None = None
    stated_line: int | None = None
    #: The questions in which an error lies are left out (SourceMap.partial).
    partial: bool = False

    def iter_questions(self) -> list[OutlineQuestion]:
        found: list[OutlineQuestion] = []

        def walk(sections: list[OutlineSection]) -> None:
            for s in sections:
                found.extend(p for p in s.parts if isinstance(p, OutlineQuestion))
                walk(s.children)

        walk(self.sections)
        return found

    @property
    def matches_stated(self) -> bool | None:
        if self.stated_points is None:
            return None
        low, high = self.points
        return round(low, 6) <= round(self.stated_points, 6) <= round(high, 6)


def build_outline(quiz: Quiz, source: SourceMap, lines: list[str], words: Mapping[str, str] = ENGLISH) -> Outline:
    """The outline of ``quiz``, whose source text is ``lines``; each answer told with ``words``
    (summary.py answer_words: English, or the preview page's language)."""
    starts = structure_starts(source)
    number = 0

    def last_line(first: int) -> int:
        return ends_at(first, starts, lines)

    def section(data: Section, loc: tuple[str | int, ...]) -> OutlineSection:
        nonlocal number
        first = source.locate(loc).line
        made = OutlineSection(data.title, first, first)
        passage: tuple[str, int] | None = None
        for j, q in enumerate(data.questions):
            qloc = loc + ("questions", j)
            number += 1
            start = source.locate(qloc).line
            if q.passage and (q.passage, source.locate(qloc + ("passage",)).line) != passage:
                where = source.locate(qloc + ("passage",)).line
                passage = (q.passage, where)
                covered = [k for k, other in enumerate(data.questions[j:], number) if other.passage == q.passage]
                made.parts.append(OutlinePassage(where, last_line(where), (covered[0], covered[-1])))
            elif not q.passage:
                passage = None
            made.parts.append(OutlineQuestion(source.numbers.get(qloc, number), q.id, q.type, answer_words(q, quiz.language, words),
                                              q.points, start, last_line(start)))
        made.children = [section(child, loc + ("sections", k)) for k, child in enumerate(data.sections)]
        ends = [p.last_line for p in made.parts] + [c.last_line for c in made.children]
        made.last_line = max(ends, default=first)
        return made

    sections = [section(s, ("sections", i)) for i, s in enumerate(quiz.sections)]
    if source.left_out:
        _put_left_out(sections, sorted(source.left_out), source.left_out_numbers, last_line)
    stated_line = source.positions.get(("stated_points",))
    return Outline(
        path=source.path, title=quiz.title, language=quiz.language, sections=sections,
        questions=sum(1 for _ in quiz.iter_questions()), points=quiz_points(quiz), stated_points=quiz.stated_points,
        stated_written=source.scalars.get(("stated_points",)), stated_line=stated_line[0] if stated_line else None,
        partial=source.partial,
    )


def _put_left_out(sections: list[OutlineSection], left_out: list[int], numbers: dict[int, int],
                  last_line: Callable[[int], int]) -> None:
    """Questions left out of a partial quiz (an error lies in them) shown where they stand, as
    'not read', with their printed numbers (or every question numbered again in the paper's order)."""
    flat: list[OutlineSection] = []

    def walk(items: list[OutlineSection]) -> None:
        for s in items:
            flat.append(s)
            walk(s.children)

    walk(sections)
    for line in left_out:
        home = [s for s in flat if s.first_line <= line] or flat[:1]
        target = home[-1]
        target.parts.append(OutlineQuestion(numbers.get(line, 0), "", "", "not read: see the errors", 0, line, last_line(line)))
        target.parts.sort(key=lambda p: p.first_line)
        target.last_line = max(target.last_line, last_line(line))
    if not numbers:  # a source without printed numbers: each question numbered again in the paper's order
        number = 0
        for s in flat:
            for k, part in enumerate(s.parts):
                if isinstance(part, OutlineQuestion):
                    number += 1
                    s.parts[k] = replace(part, number=number)


def read_lines(path: Path) -> list[str]:
    """A source's lines as the reader numbered them (CR/LF and a BOM as the reader takes them)."""
    text = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def lines_text(first: int, last: int, words: Mapping[str, str] = SUMMARY_EN) -> str:
    return words["line"].format(first=first) if first == last else words["lines"].format(first=first, last=last)


def render_outline(outline: Outline, language: str | None = None) -> list[str]:
    """The outline as text, one line per element, in ``language`` (i18n.py SUMMARY; English by
    default); tests/test_outline.py parses it:

    ``outline <path>: <title> [<language>]``, then per section ``section <title> (lines a-b)``,
    per passage ``  passage (lines a-b): questions m-n``, per question
    ``  <n>. <type> | <answer> | <points> | lines a-b``, and ``total: <q> questions, <points>``
    with, when the paper states one, ``; the paper states <words>`` and ``(matches)`` or
    ``(differs by <d>)``."""
    words = summary_words(language)
    out = [words["outline"].format(path=outline.path, title=outline.title, language=outline.language)]

    def walk(sections: list[OutlineSection], depth: int) -> None:
        pad = "  " * depth
        for s in sections:
            out.append(pad + words["section"].format(title=s.title, lines=lines_text(s.first_line, s.last_line, words)))
            for part in s.parts:
                if isinstance(part, OutlinePassage):
                    first, last = part.covers
                    covers = words["passage_one" if first == last else "passage_many"].format(first=first, last=last)
                    out.append(f"{pad}  " + words["passage"].format(lines=lines_text(part.first_line, part.last_line, words),
                                                                   questions=covers))
                else:
                    worth = "" if part.type in ("text_only", "") else points_text(part.points, part.points, language)
                    kind = kind_name(part.type, language) if part.type in TYPE_WORDS else part.type_words
                    answer = words["not_read"] if not part.type else part.answer
                    out.append(f"{pad}  {part.number}. {kind} | {answer or '-'} | {worth or '-'} | "
                               f"{lines_text(part.first_line, part.last_line, words)}")
            walk(s.children, depth + 1)

    walk(outline.sections, 0)
    total = words["total"].format(questions=counted(words, "question", outline.questions), points=points_text(*outline.points, language))
    if outline.stated_points is not None:
        said = outline.stated_written or f"{outline.stated_points:g}"
        gap = outline.stated_points - outline.points[1]
        verdict = words["matches"] if outline.matches_stated else words["differs_by"].format(gap=f"{abs(gap):g}")
        total += words["stated"].format(written=said, verdict=verdict)
    if outline.partial:
        total += words["left_out"]
    out.append(total)
    return out
