"""First pass: split a Markdown source into drafts of sections, questions, options and labelled
blocks, line by line. Content between markers is kept as written; lines inside code fences are
never markers. Nothing here knows the question kinds' rules beyond which markers they use.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Container
from dataclasses import dataclass, field, fields, replace
from functools import cached_property

from ...diagnostics import DiagnosticSink, SourceSpan, shorten
from ..base import suggest
from ... import vocabulary as V
from . import keys as K
from . import syntax as S
from . import tables as T
from . import tasks as TK

Attrs = dict[str, tuple[str, int]]  # name -> (value, column)


@dataclass
class Block:
    """Lines of Markdown content and where the first of them starts."""

    line: int
    column: int
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        if len(self.lines) == 1:  # most options and labels: nothing to dedent or join
            return self.lines[0].strip()
        first, rest = (self.lines[0], self.lines[1:]) if self.lines else ("", [])
        body = textwrap.dedent("\n".join(rest))
        # A line break kept on purpose (two spaces at the end) stays, when a line follows.
        kept = "  " if rest and first.endswith("  ") and first.strip() and body.strip() else ""
        return (first.strip() + kept + ("\n" + body if rest else "")).strip()

    def written(self) -> list[tuple[int, int, str]]:
        """Each line of the block that holds text, as (line, column, its characters without the
        whitespace around them): where :meth:`text`'s lines were written."""
        if len(self.lines) == 1 and not self.lines[0][:1].isspace():  # most options and labels
            return [(self.line, self.column, self.lines[0])]
        out = []
        for i, line in enumerate(self.lines):
            chars = line.strip()
            if chars:
                out.append((self.line + i, (self.column if i == 0 else 1) + len(line) - len(line.lstrip()), chars))
        return out

    def find(self, pattern: re.Pattern[str]) -> list[tuple[int, int, re.Match[str]]]:
        """Each match of a one-line pattern in the block as written, with its line and column."""
        found = []
        for i, line in enumerate(self.lines):
            for match in pattern.finditer(line):
                found.append((self.line + i, (self.column if i == 0 else 1) + match.start(), match))
        return found


@dataclass
class Option:
    #: The choice id: the letter for ``B)``, the letter at the same place for ``②``, ``나)``, ``(2)``.
    letter: str
    line: int
    text: Block
    attrs: Attrs = field(default_factory=dict)
    feedback: Block | None = None
    #: The marker's numbering style (vocabulary.OPTION_STYLES), the marker as written and its place.
    style: str = "upper-alpha"
    marker: str = ""
    ordinal: int = 0
    column: int = 1

    @property
    def name(self) -> str:
        """How messages name the option: as the source marks it (``B``, ``③``, ``가``)."""
        return S.option_label(self.style, self.ordinal) if self.marker else self.letter


@dataclass
class Label:
    role: str
    name: str
    line: int
    column: int
    block: Block
    #: From ``Answer (50%):``.
    score: float | None = None
    feedback: Block | None = None
    #: Given by an answer key's entry, lines away from its question.
    keyed: bool = False


@dataclass
class Hidden:
    """A known label indented inside text students see (the question text, an option, an item),
    where it is read as that text: reported unless the question has that block anyway."""

    role: str
    name: str
    line: int
    column: int
    #: What the line is read as, in words ("part of option B").
    where: str
    #: How the label is hidden: "indented", "bold" (``**Answer:**``) or "colon" (``Answer B``).
    how: str = "indented"


@dataclass
class Question:
    line: int
    attrs: Attrs
    stem: Block
    #: The number written before the question (or the one a recovered question should have had).
    number: int = 1
    options: list[Option] = field(default_factory=list)
    items: list[Block] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    hidden: list[Hidden] = field(default_factory=list)
    #: Shared passages and notes (``[3~4] 다음 글을 읽고 ...``, ``※ ...``) shown with the question.
    passages: list[Block] = field(default_factory=list)
    #: The section that holds it: its points per question (``각 2점``) and the type its title names.
    section: "Section | None" = None
    #: The raw lines read as options (with their line numbers), to put back into the question
    #: text when they turn out to be sub-questions or statements.
    option_lines: list[tuple[int, str]] = field(default_factory=list)
    #: A ``<보기>`` box is open in the question text: statement lines keep their line breaks.
    box: bool = False
    #: An option marker the dialect does not take, or options after the answer, were reported
    #: for this question: what follows from them is not reported again.
    odd_marker: bool = False
    misplaced: bool = False
    #: The type it is numbered within (``서술형 2.``), which counts as its section's would.
    numbered_kind: str | None = None
    #: The reader of its form (a matching table's row) reported why it cannot be built: it is
    #: shown in the outline as not read, and reports nothing more.
    refused: bool = False
    #: Written as a heading (``## 1. 다음 중 …``): its ``1)`` lines are its options, however the
    #: paper's other questions are numbered.
    heading: bool = False
    #: Written as a heading that is only its number (``## 19``): its options are a Markdown list
    #: ``1.`` … under its text (syntax.list_option).
    listed: bool = False
    #: Its options were a numbered list indented under its text (``    1.  **kernel**``), read as
    #: options because some of them, not all, are in bold: the bold ones are its answer.
    nested: bool = False
    #: Its options are the parts its text marks ①, ②, ③ …, each option the mark itself.
    marked_parts: bool = False
    #: Statements each judged true or false (``… である。○``, or ``Ans. x x o`` under them): its
    #: line, column, the statement and its mark, read as a matching question's pairs.
    judged: list[tuple[int, int, str, str]] = field(default_factory=list)
    #: Written under a number-only heading as statements that each end in their truth mark.
    truth_marked: bool = False

    @property
    def style(self) -> str | None:
        return self.options[0].style if self.options else None

    @property
    def kind(self) -> str | None:
        return self.attrs["type"][0] if "type" in self.attrs else None

    def label(self, role: str) -> Label | None:
        for label in self.labels:  # a loop, not next(generator): asked several times per question
            if label.role == role:
                return label
        return None

    def labels_of(self, role: str) -> list[Label]:
        return [l for l in self.labels if l.role == role]


@dataclass
class Section:
    level: int
    line: int
    title: str
    attrs: Attrs
    intro: Block
    questions: list[Question] = field(default_factory=list)
    children: list["Section"] = field(default_factory=list)
    #: Where the title starts on the heading line.
    title_column: int = 1
    #: Points each question is worth (``(각 2점)`` in the title), and the type the title names.
    each_points: float | None = None
    kind: str | None = None
    #: The exam rule its heading or rule line prints for multiple response (全部选对得6分，选对但不全得3分…):
    #: the points for all right and for right but incomplete.
    exam_rule: tuple[float, float] | None = None


@dataclass
class Passage:
    """A text shown with the questions numbered ``first`` to ``last`` (``[3~4] ...``), or, for a
    note (``※ ...``, ``first`` None), with the next question."""

    line: int
    block: Block
    first: int | None = None
    last: int | None = None
    seen: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class _Paragraph:
    """A paragraph inside a block that may be a question written without its number."""

    #: Index of its first line in the block's lines.
    index: int
    line: int
    #: A line of it ends with a question mark.
    asks: bool
    #: Option-shaped lines (``A) ...``) follow it.
    has_options: bool


QUESTION_MARKS = ("?", "？")
#: Two spaces (a kept line break) before a question line's attributes.
_KEPT_BREAK = re.compile(r"\S {2,}\{[^{}]*\}\s*$")
#: ``1.What ...``: a question number without the space after it.
_GLUED_NUMBER = re.compile(rf"^({S.QUESTION_NUMBER})[.)](?=[^\s\d.])")
#: Other ways of numbering a question: ``(1) ...``, ``Q1. ...``, ``Question 1: ...``, ``1 . ...``, ``1: ...``.
_OTHER_NUMBER = re.compile(rf"^\s*(?:(?:Q|Question|문제|문항)\s*)?\(?({S.QUESTION_NUMBER})\s*(?:[.):]|\))\s*(?=\S)", re.I)


class Scanner:
    """Reads the lines one at a time into sections, questions, options and labelled blocks.

    Each line is handled by :meth:`_line`, which returns the index of the next line to read: a
    question written without its number is found only when its options or answer arrive, and is
    then re-read from its first line as the question it was meant to be, so that one slip gives
    one error rather than a cascade of wrong ones.

    A labelled block (an answer, an explanation, ...) ends where anything that looks like
    structure starts: a question in any numbering form, an option, a label, a heading, an exam
    section marker (``Ⅱ. 단답형``), a shared passage (``[3~4] ...``) or a note (``※ ...``). None of
    them is ever read as the block's text.
    """

    def __init__(self, lines: list[str], path: str, sink: DiagnosticSink, language: str = "en") -> None:
        #: The lines as :func:`syntax.without_invisible_html` makes them, by the caller: a large
        #: source's pieces each have a scanner, and the whole source is not gone over for each.
        self.lines = lines
        self.path = path
        self.sink = sink
        self.reported: set[tuple[str, int, int]] = set()
        self.dialect = S.dialect(language)
        self.within: Section | None = None

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        # Lines read again after a recovery must not report twice.
        if (code, line, column) not in self.reported:
            self.reported.add((code, line, column))
            self.sink.error(code, message, SourceSpan(self.path, line, column), hint)

    def scan(self, start: int, end: int | None = None, form: str | None = None, within: Section | None = None,
             peek: bool = False) -> tuple[Block, list[Section]]:
        """Everything after the front matter: the quiz description and the section tree. A
        piece of a source (:mod:`.pieces`) is the lines from ``start`` to ``end``, read as the
        whole read reaches them: ``form`` is how the questions before it are numbered.

        A run of questions inside a top-level section opened before it is read ``within`` a
        section standing for that one (its points rule and the type its title names, no
        questions): its lines from ``start`` (a question's first line) are read into it.
        ``peek``: the line ``end`` (the next run's first line) is read too, as the whole reading
        reads it there, and what it made kept (:attr:`next_opening`), then undone (:meth:`_peek`)."""
        self.description = Block(start + 1, 1)
        self.roots: list[Section] = []
        self.stack: list[Section] = []
        #: Read within a section opened before ``start`` (see above).
        self.within = within
        #: What the first line made, read within a section, and what line ``end`` makes after
        #: the lines before it (``peek``): see :meth:`_opening`.
        self.first_opening: tuple[object, ...] | None = None
        self.next_opening: tuple[object, ...] | None = None
        self.question: Question | None = None
        self.current = self.description
        self.mode = "text"  # text | stem | option | items | label | passage
        self.fence: str | None = None
        self.fence_line = 0
        #: The line of the last recovery: each one starts further down, so reading always ends.
        self.recovered = 0
        #: How the first question is numbered ("." for ``1.``, ")" for ``1)``, ...): under a quiz
        #: numbered ``1.``, ``1) 2) 3)`` inside a question are its options.
        self.form: str | None = form
        #: Passages whose questions are still to come, and notes for the next question.
        self.passages: list[Passage] = []
        self.finished: list[Passage] = []
        #: Numbered instructions (``注意事项：`` then ``1．… 2．…``) are being read: their numbered
        #: lines are text of the description, until a blank line.
        self.instructions = False
        #: The line of the paper's closing mark (``- 끝 -``), after which no question text comes.
        self.closed = 0
        #: Answer keys (``[정답]`` then ``1. ②  2. ①``), the one being read last.
        self.keys: list[K.Key] = []
        #: The task whose heading is open (``Aufgabe 2`` over ``2.1 …``), and how many of its
        #: questions numbered ``2.1``, ``2.2`` came.
        self.task: int | None = None
        self.task_subs = 0
        #: Lists or options whose reading depends on the other questions' (:meth:`_nested_options`).
        self.across_questions = False
        index, stop = start, len(self.lines) if end is None else end
        if within is not None:
            self.roots.append(within)
            self.stack.append(within)
            self.current = within.intro
            if index < stop:
                index, self.first_opening = self._opening(index)
        while index < stop:
            index = self._line(index)
        #: Whether the lines after ``end`` would read the same in a scan of their own (a line
        #: read as the answer of a task heading above may have taken the scan past it).
        self.ends_clean = index == stop and self.carries_nothing()
        if peek and self.ends_clean and stop < len(self.lines):
            self._peek(stop)
        if self.fence:
            self.error("QB108", f"code fence {self.fence} is never closed", self.fence_line,
                       hint=f"add a closing line {self.fence} after the code")
        self._close_passages()
        self._check_introductions(self.description, "the quiz description", self.roots)
        self._nested_options()
        self._apply_keys()
        self._judged_statements()
        self._marked_parts()
        self._matching_tables(self.roots)
        return self.description, self.roots

    def _opening(self, index: int) -> tuple[int, tuple[object, ...] | None]:
        """Read line ``index``; when it opened a question of its own there, in the one top-level
        section open and nothing else (the line after it next, nothing before it changed), what
        it made: the question's draft (but its section), the scan's state after it and the
        diagnostics it gave. None when it did anything else.

        The line read at the end of one run (:meth:`_peek`) and at the start of the next give
        the same only when the line reads the same whether the questions before it were read or
        not: after it, both scans are alike but for those questions, which no line after it
        looks at but for their numbers (:meth:`_numbers_read`) and the last one's
        (:meth:`_next_number`, the question the line opened)."""
        errors, previous, block = len(self.sink.items), self.question, self.current
        before = self._draft_size(previous), len(block.lines)
        after = self._line(index)
        q = self.question
        if after != index + 1 or q is None or q is previous or q.line != index + 1 or len(self.stack) != 1 \
                or q.section is not self.stack[0] or self.current is not q.stem or q.passages \
                or (self._draft_size(previous), len(block.lines)) != before:
            return after, None
        # Lines counted from the line read: a run's first line read where it stood when it was
        # read, against the piece before it read where it stands now (lines added before both).
        draft = _relative(replace(q, section=None), index)
        state = (self.mode, self.fence, self.form, self.instructions, bool(self.closed), len(self.keys), self.task,
                 self.task_subs if self.task is not None else 0, len(self.passages), self.recovered > index)
        return after, (draft, state, _relative(self.sink.items[errors:], index))

    @staticmethod
    def _draft_size(q: Question | None) -> tuple[int, ...]:
        if q is None:
            return ()
        return (len(q.options), len(q.items), len(q.labels), len(q.hidden), len(q.option_lines), len(q.passages),
                len(q.stem.lines))

    def _peek(self, index: int) -> None:
        """What line ``index`` (the next run's first) makes read after the lines before it, as
        the whole reading reads it (:meth:`_opening`), kept in :attr:`next_opening` where the
        one top-level section is open, without subsections, nothing is carried (``ends_clean``)
        and no diagnostic was given at a line past it; then undone: the line is the next run's."""
        if len(self.roots) != 1 or len(self.stack) != 1 or self.stack[0] is not self.roots[0] or self.roots[0].children or \
                any(line > index for _, line, _ in self.reported):
            return
        section, items, reported = self.stack[0], len(self.sink.items), set(self.reported)
        kept = (self.question, self.current, self.mode, self.form, self.recovered, len(section.questions))
        _, self.next_opening = self._opening(index)
        del section.questions[kept[5]:]
        del self.sink.items[items:]
        self.reported = reported
        self.question, self.current, self.mode, self.form, self.recovered = kept[:5]

    def carries_nothing(self) -> bool:
        """Nothing read so far reaches past the line scanned last, but how questions are numbered
        (``form``): no code fence, passage or note, answer key, closing mark, instructions or
        task heading still open. Where this holds before a top-level heading, the lines from it
        on read the same in a scan of their own (:mod:`.pieces`)."""
        return (self.fence is None and not self.passages and not self.keys and not self.closed
                and not self.instructions and self.task is None and self.mode not in ("key", "closed", "passage"))

    def _matching_tables(self, sections: list[Section]) -> None:
        """Rows of a two-column matching table (``7) ____ Mitosis⇥B. …``), each a question of its
        own: its term the text, the table's definitions its options (:mod:`.tables`)."""
        for section in sections:
            drafts = section.questions
            items = [_table_item(q) for q in drafts]
            for run in T.runs(items):
                rows = [drafts[i] for i in run]
                extra = [(line, text) for q in rows if q.style in _LETTERED for line, text in q.option_lines if text.strip()]
                table = T.read([items[i] for i in run], extra, self.dialect.language)
                for code, message, line, column, hint in table.problems:
                    self.error(code, message, line, column, hint)
                for index, q in enumerate(rows):
                    term, column = table.terms[index]
                    q.stem = Block(q.line, column, [term])
                    q.options = [Option(d.mark.letter, d.line, Block(d.line, d.text_column, [d.text]), {}, None,
                                        d.mark.style, d.mark.marker, d.mark.ordinal, d.column) for d in table.definitions]
                    q.option_lines = []
                    q.refused = index in table.refused
            self._matching_tables(section.children)

    def _apply_keys(self) -> None:
        """Each key's entries become their questions' answers, as if written under them."""
        questions = [q for section in self._sections_with_questions() for q in section.questions]
        name = next((n for n, r in self.dialect.labels.items() if r == "answer" and not n.isascii()), "answer")

        def add_answer(question: object, entry: K.Entry) -> None:
            assert isinstance(question, Question)
            # An entry that names its answer a model answer (``9. 예시 답안: 가족…``, ``解答例：…``) is
            # that label under its question: the label is no part of the answer, and says its kind.
            named = S.read_label(entry.answer)
            if named is not None and S.QUESTION_LABELS.get(named.name.lower(), S.QUESTION_LABELS.get(named.name)) == "answer" \
                    and named.name.lower() in self.dialect.model_answer_labels and named.value:
                question.labels.append(Label("answer", named.name, entry.line, entry.column + named.value_offset,
                                             Block(entry.line, entry.column + named.value_offset, [named.value]), keyed=True))
            else:
                question.labels.append(Label("answer", _capital(name), entry.line, entry.column,
                                             Block(entry.line, entry.column, [entry.answer]), keyed=True))
            for role, raw, line, column, text in entry.labels:
                question.labels.append(Label(role, raw, line, column, Block(line, column, [text])))

        def add_explanation(question: object, line: int, column: int, lines: list[str]) -> None:
            assert isinstance(question, Question)
            question.labels.append(Label("explanation", "explanation", line, column, Block(line, column, ["  \n".join(lines)])))

        def in_section(question: object, section: object) -> bool:
            return isinstance(question, Question) and question.section is section

        def misfit(question: object, entry: K.Entry) -> str | None:
            """An untitled key's answer that names an option its question does not have (``6. 7``
            for options ``1)`` to ``5)``): why, in words."""
            assert isinstance(question, Question)
            if not question.options:
                return "it has no options"
            refs = S.option_refs(entry.answer) or []
            if all(any(S.names_option(ref, o.style, o.ordinal) for o in question.options) for ref in refs):
                return None
            return f"its options are {question.options[0].name} to {question.options[-1].name}"

        for key in self.keys:
            for part in key.parts:
                part.section = self._part_section(part)
            K.apply(key, questions, lambda message, line, column, hint: self.error("QB187", message, line, column, hint),
                    add_answer, add_explanation, in_section, misfit)

    def _nested_options(self) -> None:
        """A question without options whose text ends in a numbered list indented under it, some
        of its items (not all) wholly in bold: pandoc's Markdown of a Word paper whose options
        are a list under the question and whose answers are in bold (``1.  …?`` then ``    1.
        process`` ``    4.  **program**``). The list is the question's options, the bold ones
        its answer (:meth:`.QuestionBuilder.choice`). Read as text, students would see the list
        with its answer in bold, and the question would have no options (QB128). A list without
        bold stays the text's own (docs/source-format.md, "Lines that look like markers"), and so does one
        all in bold, unless another question's list in bold names some of its items only: then
        bold is how the paper marks answers, and all of them are (``모두 고르시오``). Options
        marked as options (``A.``, ``①``) and indented as a pasted list indents them are the
        question's options too (:meth:`_indented_options`)."""
        lists, drifted = [], []
        for section in self._sections_with_questions():
            for q in section.questions:
                if q.options or q.items or q.refused or q.kind not in (None, *S.OPTION_KINDS) or self._answered_otherwise(q):
                    continue
                found = self._nested_list(q)
                if found is not None:
                    lists.append((q, found))
                    continue
                indented = self._indented_options(q)
                if indented is not None:
                    drifted.append((q, indented))
        # Both are read across the questions: a list's bold is its answers when another list is
        # partly in bold, and the drift is said once. A piece of a source that has either does
        # not read as in the whole reading (:mod:`.pieces`).
        self.across_questions = bool(lists or drifted)
        answers_in_bold = any(not every for _, (_, _, every) in lists)
        for q, (first, items, every) in lists:
            if every and not answers_in_bold:
                continue
            q.nested = True
            self._take_options(q, first, items)
        for q, (first, items) in drifted:
            self._take_options(q, first, items)
        if drifted:
            # Read as meant, and said once: a source's options belong at the margin.
            q, (first, items) = drifted[0]
            said = (f"the options of the question on line {q.line} are indented under its text: read as its options"
                    if len(drifted) == 1 else f"the options of the question on line {q.line} and of {len(drifted) - 1} more "
                    "are indented under their text: read as their options")
            self.sink.warning("QB199", said, SourceSpan(self.path, items[0][0], items[0][1].start + 1),
                              hint="write each option at the left margin ('A) text') to say so in the source's own form")

    def _take_options(self, q: Question, first: int, items: list[tuple[int, S.OptionMark, str]]) -> None:
        """The lines of the question's text from ``first`` on, its options (each line, marker and
        text); what is left of the text ends without blank lines or separators."""
        del q.stem.lines[first:]
        while q.stem.lines and not q.stem.lines[-1].strip():
            q.stem.lines.pop()
        for lineno, mark, text in items:
            q.options.append(_option(mark, lineno, text))
            q.option_lines.append((lineno, self.lines[lineno - 1]))

    def _indented_options(self, q: Question) -> tuple[int, list[tuple[int, S.OptionMark, str]]] | None:
        """Option lines indented under the question's text as a pasted paper's list indents them
        (``1. 有 10 个…`` then ``   A. $\\frac{1}{5}$`` … ``   D. …``), ending it: two or more, one
        option a line, indented alike by one to four spaces, marked in one style in order from
        the first (``A.`` ``B.``, ``①`` ``②``). They are the options of a question that has none
        at the margin; read as text, it had no options (QB128) and students saw them as its text.
        The index of the first in the text, and each one's line, marker (placed in its line) and
        text."""
        lines = q.stem.lines
        end = self._text_end(lines)
        found: list[tuple[int, int, S.OptionMark]] = []
        for index in range(end - 1, 0, -1):
            line = lines[index]
            if not line.strip():
                continue
            depth = len(line) - len(line.lstrip(" "))
            marks = S.option_marks(line[depth:]) if 1 <= depth <= 4 else []
            if len(marks) != 1 or (found and (depth != found[-1][1] or marks[0].style != found[-1][2].style)):
                break
            found.append((index, depth, marks[0]))
        found.reverse()
        if len(found) < 2 or [mark.ordinal for _, _, mark in found] != list(range(1, len(found) + 1)):
            return None
        if not self._lines_as_written(q, [i for i, _, _ in found]):
            return None
        items = [(q.stem.line + i, mark._replace(start=mark.start + depth, text_start=mark.text_start + depth,
                                                 text_end=mark.text_end + depth), lines[i][depth + mark.text_start:].rstrip())
                 for i, depth, mark in found]
        return (found[0][0], items)

    def _text_end(self, lines: list[str]) -> int:
        """Where a question's text ends but for blank lines and separators after it (``---``,
        an indented ``***`` under a list item's text)."""
        end = len(lines)
        while end > 1 and (not lines[end - 1].strip() or S.thematic_break(lines[end - 1].strip())):
            end -= 1
        return end

    def _lines_as_written(self, q: Question, indexes: list[int]) -> bool:
        """The question text's lines at ``indexes`` are the source's, one for one (none was
        changed or left out on the way): only then can they be read again as options."""
        return all(self.lines[q.stem.line - 1 + i].rstrip() == q.stem.lines[i].rstrip()
                   for i in indexes if q.stem.line - 1 + i < len(self.lines))

    def _marked_parts(self) -> None:
        """A question without options whose text marks three or more of its parts ①, ②, ③ … in
        order, each once, and whose one answer names one of them (``답: 2``, ``정답: ④``): the
        underlined words of a passage (``①**to solve**``), its sentences (``①As we …``) or the
        places a sentence may go (``( ③ )``). As the paper prints them, its options are the
        marks themselves, and students choose one (shown without a second numbering, QB173 before)."""
        for section in self._sections_with_questions():
            for q in section.questions:
                answers = q.labels_of("answer")
                if q.options or q.items or q.refused or q.kind not in (None, *S.OPTION_KINDS) or len(answers) != 1 \
                        or answers[0].name.lower() in self.dialect.model_answer_labels:
                    continue
                parts = S.marked_parts(q.stem.text())
                refs = S.option_refs(answers[0].block.text(), self.dialect.and_words)
                if parts < 3 or not refs or len(refs) != 1 or refs[0][0] != "number" or not 1 <= refs[0][1] <= parts:
                    continue
                marks = q.stem.find(S.CIRCLED)
                q.marked_parts = True
                for ordinal, (line, column, found) in enumerate(marks, 1):
                    mark = S.OptionMark("circled-decimal", found.group(0), ordinal, column - 1, column - 1, column)
                    q.options.append(_option(mark, line, found.group(0)))

    def _answered_otherwise(self, q: Question) -> bool:
        """The question's own answer names no option (``Answer: install``, a model answer): it
        is a short answer or an essay, and a list in its text is the text's, bold or not."""
        for label in q.labels_of("answer"):
            value = label.block.text()
            if label.name.lower() in self.dialect.model_answer_labels or S.option_refs(value, self.dialect.and_words) is None:
                return True
        return False

    def _nested_list(self, q: Question) -> tuple[int, list[tuple[int, S.OptionMark, str]], bool] | None:
        """The numbered list at the end of a question's text, indented alike and numbered from 1
        (two items or more, each on one line), when some of its items are wholly in bold: the
        index of its first line in the text, each item's line, marker and text (its bold kept,
        the marker an item writes inside it, ``A、``, taken for its own when every item writes
        the next), and whether every item is in bold."""
        lines = q.stem.lines
        end = self._text_end(lines)
        found: list[tuple[int, re.Match[str]]] = []
        index = end - 1
        while index >= 1:
            item = S.NESTED_ITEM.match(lines[index])
            if item is None:
                if lines[index].strip():
                    break
            elif found and item.group(1) != found[-1][1].group(1):
                break
            else:
                found.append((index, item))
            index -= 1
        found.reverse()
        if len(found) < 2 or [int(item.group(2)) for _, item in found] != list(range(1, len(found) + 1)):
            return None
        if not self._lines_as_written(q, [i for i, _ in found]):
            return None
        bold = [S.wholly_bold(item.group(3)) for _, item in found]
        if all(b is None for b in bold):
            return None
        inner = [S.option_marks(b if b is not None else item.group(3)) for b, (_, item) in zip(bold, found)]
        own = all(marks and marks[0].ordinal == n and marks[0].style == inner[0][0].style
                  for n, marks in enumerate(inner, 1))
        items = []
        for n, ((i, item), b, marks) in enumerate(zip(found, bold, inner), 1):
            text, start = item.group(3), item.start(3)
            marker = item.group(2) + lines[i][item.end(2)]
            mark = S.OptionMark("decimal", marker, n, item.start(2), start, start + len(text))
            if own:
                written = marks[0]
                body = (b if b is not None else text)[written.text_start:]
                delimiter = text[:2] if b is not None else ""
                text = f"{delimiter}{body}{delimiter}"
                mark = written._replace(start=start, text_start=start, text_end=start + len(text))
            items.append((q.stem.line + i, mark, text))
        return (found[0][0], items, all(b is not None for b in bold))

    def _sections_with_questions(self) -> list[Section]:
        """The sections read so far that hold questions, in source order."""
        found, stack = [], list(reversed(self.roots))
        while stack:
            section = stack.pop()
            if section.questions:
                found.append(section)
            stack += reversed(section.children)
        return found

    def _part_section(self, part: K.Part) -> Section | None:
        """The section a key's part names (``## 单选题答案：`` answers ``## 单选题（每题 3 分）``): the one
        that goes by one of its names, else the one whose title holds the part's or is held by it
        (``空题答案`` of ``填空题``). None, reported at the part, when it names none or several."""
        names = S.section_names(part.title)
        sections = self._sections_with_questions()
        exact = [s for s in sections if set(names) & set(S.section_names(s.title))]
        near = exact or [s for s in sections
                         if any(len(a) > 1 and len(b) > 1 and (a in b or b in a) for a in names for b in S.section_names(s.title))]
        if len(near) == 1:
            return near[0]
        titles = ", ".join(f"'{s.title}'" for s in (near or sections))
        if near:
            self.error("QB187", f"the answer key's part '{part.title}' names {len(near)} sections ({titles}), so which one "
                       "it answers cannot be told", part.line, part.column,
                       hint="name the part by its section's whole title, so that it names one section")
        else:
            self.error("QB187", f"the answer key's part '{part.title}' names no section of the paper (its sections: {titles})",
                       part.line, part.column,
                       hint="name the part as its section is named, so that its entries answer that section's questions")
        return None

    def _key_part(self, index: int) -> str | None:
        """A line in an answer key that names the section its entries below answer: a heading or a
        section line (``## 单选题答案：``, ``一、选择题``), or the name of a section then a key's title
        word (``객관식 정답``), with entries under it. Its title, or None (the key ends at a heading
        without entries under it or naming no section read)."""
        line = self.lines[index]
        if not line.strip() or line[:1] in (" ", "\t") or S.KEY_TITLE.match(line) or K.entries_line(line):
            return None
        at = next((i for i in range(index + 1, len(self.lines)) if self.lines[i].strip()), len(self.lines))
        entries = K.entries_line(self.lines[at]) if at < len(self.lines) else None
        after = next((l for l in self.lines[at + 1:] if l.strip()), "")
        if not entries or S.option_marks(after.strip(), decimal=False):
            return None  # no entries under it, or a question with its options: the paper goes on
        heading = S.HEADING.match(line)
        title = (heading.group(2) if heading else line).strip().strip("*_").strip()
        title = title.rstrip(":：").strip()
        if S.KEY_PART.match(title):
            return title
        if not (heading or S.section_marker(line)) or not all(K.key_answer(answer) for _, answer, _, _ in entries):
            return None
        names = set(S.section_names(title))
        return title if any(names & set(S.section_names(s.title)) for s in self._sections_with_questions()) else None

    def _check_introductions(self, block: Block, where: str, sections: list[Section]) -> None:
        """A label line left in text students see, indented (those at the margin were reported as
        they came): the introduction keeps it as a line of its own, which reads as an answer."""
        text = textwrap.dedent("\n".join(block.lines))
        for index, _, label in S.label_lines(text):
            line = block.line + index
            column = _depth(self.lines[line - 1]) + 1
            self._outside_label(text.split("\n")[index].strip(), label, where, line, column)
        for section in sections:
            self._check_introductions(section.intro, "the section introduction", section.children)

    def _indented_question(self, line: str, index: int) -> S.QuestionStart | None:
        """A question's number indented by one to three spaces, with its options on the next line,
        in an introduction (the quiz's or a section's) or after a blank line below a question's
        options or labels: a pasted paper's drift (Markdown reads such a line as a list item too).
        Read as text, the question vanished into the introduction, or into the option above it
        (its options then options of that question), without a word. A numbered list without
        options under it stays text (an introduction's instructions); in a question's text, before
        its options, an indented list stays the text's own (docs/source-format.md, "Lists in
        questions")."""
        depth = len(line) - len(line.lstrip(" "))
        if not 1 <= depth <= 3 or line[depth:depth + 1] == "\t" or self.instructions:
            return None
        found = S.question_start(line[depth:])
        if found is not None and self._numbered_blank(line, found):
            return replace(found, text_offset=found.text_offset + depth)
        if self.question is None and self.mode != "text":
            return None
        if self.question is not None and (self.mode not in ("option", "label") or self.lines[index - 1].strip()):
            return None
        following = self.lines[index + 1].lstrip(" ") if index + 1 < len(self.lines) else ""
        marks = S.option_marks(following)
        if found is None or not marks or marks[0].ordinal != 1:
            return None
        return replace(found, text_offset=found.text_offset + depth)

    def _options_after_question(self, line: str, text_offset: int, index: int) -> list[S.OptionMark] | None:
        """Options written after the question's text on its own line (``1. 대한민국의 수도는? ① 서울
        ② 부산 ③ 대구``, ``1. Capital of France? A) Paris B) Lyon``): two or more, each the next in
        order from the first and marked alike, after the end of a sentence (``?``, ``.``, ``:``, a
        closing bracket), with no options on the lines under it but those that go on in order
        (``③ 다 ④ 라`` on the next line; else the marks on the question's line are its text's,
        ``ㄱ. … ㄴ. …`` statements before the options ``① ㄱ, ㄴ``). Marks inside a sentence
        (``I ① wish ② I ③ will``, a part to find) stay its text. Their marks, placed in the
        line, or None."""
        if not _OPTIONS_AFTER.search(line, text_offset):
            return None
        following = next((l for l in self.lines[index + 1:] if l.strip()), "")
        if S.NESTED_ITEM.match(following):
            return None  # ``    1.  …`` under it: its options may be that list (_nested_options), its marks its text's
        below = S.option_marks(following.strip()) if following[:1] not in (" ", "\t") else []
        for end in _OPTIONS_AFTER.finditer(line, text_offset):
            at = end.end()
            marks = S.option_marks(line[at:])
            if len(marks) >= 2 and marks[0].ordinal == 1 and marks[0].style not in _LISTED_STATEMENTS:
                if below and (below[0].style != marks[0].style or below[0].ordinal != len(marks) + 1):
                    return None
                return [m._replace(start=m.start + at, text_start=m.text_start + at, text_end=m.text_end + at) for m in marks]
        return None

    def _numbered_blank(self, line: str, found: S.QuestionStart) -> bool:
        """``  2. 用于表示注释的符号是 ____。``, indented by a pasted paper, in a section whose title names
        its questions' type (``## 填空题``): a question and its blank, first in the section's
        introduction or next after the question before it. Read as text, the fill-in questions
        became the introduction, or one question's text, without a word."""
        section = self.stack[-1] if self.stack else None
        if section is None or section.kind is None or not S.ANONYMOUS_BLANK.search(line):
            return False
        if self.question is None:
            return self.mode == "text" and self.current is section.intro and not section.questions
        return (self.question.section is section and found.number == self.question.number + 1
                and self.mode in ("stem", "label") and S.ANONYMOUS_BLANK.search(self.question.stem.text()) is not None)

    def _line(self, index: int) -> int:
        line, lineno = self.lines[index], index + 1
        indented = line[:1] in (" ", "\t")
        fence_match = S.FENCE.match(line)
        if self.fence:
            self.current.lines.append(line)
            closer = fence_match.group(1) if fence_match else ""
            if closer[:1] == self.fence[0] and len(closer) >= len(self.fence) and not line.strip()[len(closer):].strip():
                self.fence = None
            return index + 1
        if not line and self.question is not None and self.mode != "passage":
            # A blank line in a question (a third of a bank's lines): none of the checks below
            # matches it, so it is taken at once, as their last branch takes it.
            if self.mode == "option":
                self.question.option_lines.append((lineno, line))
            self.current.lines.append(line)
            return index + 1
        if fence_match:
            if self.mode in ("option", "items") and not indented and not self._option_code(lineno):
                self.error("QB117", "a code block after the options belongs to no option or label", lineno,
                           hint="indent it to put it in the last option, or start an 'Explanation:' block before it")
            self.fence, self.fence_line = fence_match.group(1), lineno
            self.current.lines.append(line)
            return index + 1

        if not indented and self.mode in _AFTER_QUESTION and S.thematic_break(line) \
                and (self.mode != "label" or self._separator(index)):
            # ``---`` between the questions or after the last: a separator students need not see,
            # never an option's, a label's or a key's text.
            return index + 1
        if self.mode == "key":
            part = self._key_part(index)
            if part is not None:
                # ``## 单选题答案：``: the entries under it answer that section's questions.
                self.keys[-1].parts.append(K.Part(part, lineno, len(line) - len(line.lstrip()) + 1))
                return index + 1
            following = next((l for l in self.lines[index + 1:] if l.strip()), "")
            if K.read_line(self.keys[-1], line, lineno, following):
                return index + 1
            self.mode = "text"  # the key ended: a section, a heading or a question follows
        if not indented and (self.question is not None or self.closed) and self._answer_key(index):
            # ``[정답]`` then ``1. ②  2. ①``: the key's entries answer their questions.
            self._start_key(lineno)
            return index + 1
        if not indented and self.question is not None and self.mode in ("label", "option", "stem") and not self._list_goes_on(line) \
                and (K.starts_key(line, after_answer=self.mode == "label") or self._entry_again(line)):
            # ``정답 1.② 2.④``, ``1.② 2.① 3.④``: a key on one line, after the questions.
            self._start_key(lineno)
            K.read_line(self.keys[-1], line, lineno)
            return index + 1
        if not indented and self.mode in ("label", "option") and line[:1].isdigit() and not self._list_goes_on(line) \
                and self._untitled_key(index):
            # ``1. 2`` then ``2. 4`` ... ``5. 1, 5``: an untitled key of one entry a line.
            self._start_key(lineno, untitled=True)
            K.read_line(self.keys[-1], line, lineno)
            return index + 1
        if not indented and S.closing_mark(line) and not self.closed:
            # ``- 끝 -``: the paper's questions end here; the mark is nobody's text.
            self.closed = lineno
            self._close_passages()
            self.question, self.current, self.mode = None, Block(lineno + 1, 1), "closed"
            return index + 1
        if self.mode == "closed" and line.strip():
            if indented or not S.structure(line):
                self.error("QB155", f"text after the closing mark on line {self.closed} belongs to no question", lineno,
                           hint="the closing mark (such as '- 끝 -' or '- End -') ends the questions: move the text above "
                                "it into the question it belongs to, or delete it")
                return index + 1
        if self.instructions and (not line.strip() or S.section_marker(line) or S.HEADING.match(line)):
            self.instructions = False
        if not indented and self.question is None and self.mode == "text" and S.instruction_title(line):
            # ``注意事项：`` / ``※ 유의사항``: the numbered lines under it are instructions students read.
            self.instructions = True
            _break_last(self.current.lines)
            self.current.lines.append(_hard_break(line))
            return index + 1
        if self.instructions and self.mode == "text":
            self.current.lines.append(_hard_break(line))
            return index + 1
        if not indented and self.mode == "text" and self.stack and not self.stack[-1].questions \
                and self.stack[-1].each_points is None and not self.stack[-1].intro.text() and S.points_rule(line):
            # ``四、简答题`` then ``（每题5分，共20分）`` on the next line: the section's rule.
            each = S.points_in(line, S.EACH_POINTS)
            assert each is not None
            self.stack[-1].each_points = each[0]
            self.stack[-1].exam_rule = S.exam_rule(line)
            return index + 1
        heading = None if indented else S.HEADING.match(line)
        if heading:
            as_question = self._heading_question_line(heading, index)
            if as_question is not None:
                return as_question
            title, attrs = self.attrs(heading.group(2), lineno, heading.start(2), S.SECTION_ATTRIBUTES)
            self._open_section(len(heading.group(1)), lineno, title, attrs, heading.start(2) + 1)
            return index + 1

        task = None if indented else TK.task_line(line)
        if task:
            after_task = self._task(task, index)
            if after_task is not None:
                return after_task
        sub = None if indented or self.task is None else TK.sub_question(line, self.task, self.task_subs + 1)
        if sub:
            # ``2.1 …`` under the heading ``Aufgabe 2``: its first question.
            self.task_subs += 1
            stem, attrs = self.attrs(sub.group("text"), lineno, sub.start("text"), S.QUESTION_ATTRIBUTES)
            self.form = self.form or "."
            self._open_question(lineno, self.task_subs, Block(lineno, sub.start("text") + 1, [stem]), attrs)
            return index + 1

        question = self.question
        mode = self.mode
        decimal = question is not None and mode in ("stem", "option") and (self.form != ")" or question.heading) \
            and question.kind not in S.ITEM_KINDS
        marks = [] if indented else S.in_styles(S.option_marks(line, decimal=decimal), question.style if question else None)
        pasted = S.PASTED_OPTION.match(line) if indented and question is not None and mode in ("stem", "option") else None
        if pasted:
            # ``   ●​   ① that``: an option of a bulleted list pasted from a word processor.
            depth = pasted.end()
            marks = [m._replace(start=m.start + depth, text_start=m.text_start + depth, text_end=m.text_end + depth)
                     for m in S.in_styles(S.option_marks(line[depth:], decimal=decimal), question.style if question else None)]
        if not marks and not indented and question is not None and question.listed and mode in ("stem", "option"):
            # ``1. 8e30`` under ``## Q3``'s text: an option, never a question.
            listed = S.list_option(line)
            marks = [listed] if listed is not None else []
        elif marks and marks[0].style != "decimal" and question is not None and question.listed and mode == "stem":
            marks = []  # ``(A) …`` before its list ``1. (A) － (C)``: statements of its text
        if marks and marks[0].style == "decimal" and question is not None:
            # ``1) 2) 3)`` under a question numbered ``1.``: its options, each the next in order.
            numbered = [o for o in question.options if o.style == "decimal"]
            # Under a heading question (whose ``1)`` lines cannot be questions), a marker written
            # again (``3)`` after ``3)``) is an option too, reported as one twice (QB122).
            again = question.heading and bool(numbered) and marks[0].ordinal <= numbered[-1].ordinal
            next_ordinal = numbered[-1].ordinal + 1 if numbered else 1
            if (marks[0].ordinal != next_ordinal and not again) or (question.options and question.style != "decimal"):
                marks = []
        bonus = None if indented or marks else S.BONUS_QUESTION.match(line)
        if bonus:
            # ``Bonus (2 points): …``: the next question, worth the points it states.
            stem, attrs = self.attrs(bonus.group("text"), lineno, bonus.start("text"), S.QUESTION_ATTRIBUTES)
            stated = S.points_in(bonus.group("points") or "")
            if stated and "points" not in attrs:
                attrs["points"] = (f"{stated[0]:g}", bonus.start("points") + 1)
            self.form = self.form or "."
            self._open_question(lineno, self._next_number(), Block(lineno, bonus.start("text") + 1, [stem]), attrs)
            return index + 1
        start_q = None if indented or (marks and marks[0].style == "decimal") else S.question_start(line)
        if start_q is None and indented:
            start_q = self._indented_question(line, index)
        if start_q:
            stem, attrs = self.attrs(start_q.text, lineno, start_q.text_offset, S.QUESTION_ATTRIBUTES)
            if attrs and _KEPT_BREAK.search(start_q.text):
                stem += "  "  # "What?  {#id}": the line break kept on purpose stays, before the next line of text
            inline = None if attrs or indented else self._options_after_question(line, start_q.text_offset, index)
            if inline is not None:
                stem = line[start_q.text_offset: inline[0].start].rstrip()
            self.form = self.form or start_q.form
            self._open_question(lineno, start_q.number, Block(lineno, start_q.text_offset + 1, [stem]), attrs, start_q.kind)
            if inline is not None:
                # ``1. 대한민국의 수도는? ① 서울 ② 부산 ③ 대구``: its options, as on a line of their own.
                assert self.question is not None
                self._options(self.question, inline, line, lineno)
            return index + 1
        long_q = None if indented else S.LONG_NUMBER.match(line)
        if long_q:
            # Markdown reads it as a paragraph; read as the question it was meant to be, it gives
            # one error instead of a cascade of wrong ones about the question above.
            digits = long_q.group(1)
            self.error("QB147", f"question number {digits} has {len(digits)} digits, more than the 9 a Markdown list number may have",
                       lineno, 1, hint="number the questions of each section from 1 ('1.', '2.', ...); "
                                       "a number of up to 9 digits is read as written")
            stem, attrs = self.attrs(long_q.group(2), lineno, long_q.start(2), S.QUESTION_ATTRIBUTES)
            self._open_question(lineno, int(digits), Block(lineno, long_q.start(2) + 1, [stem]), attrs)
            return index + 1

        section = None if indented else S.section_marker(line, latin=mode in ("text", "label", "passage"))
        if section and mode == "stem" and not self._section_in_text(line, section[0]):
            section = None  # ``Ⅰ. ... Ⅱ. ...`` listed in a question's text
        if section:
            if not (mode == "option" and marks):
                title, offset = section
                title, attrs = self.attrs(title, lineno, offset, S.SECTION_ATTRIBUTES)
                self._open_section(7, lineno, title, attrs, offset + 1)
                return index + 1
        passage = None if indented else S.passage_marker(line)
        if passage:
            first, last, _ = passage
            self._open_passage(Passage(lineno, Block(lineno, 1, [line]), first, last))
            return index + 1
        if not indented and mode == "label" and S.note_line(line):
            self._open_passage(Passage(lineno, Block(lineno, 1, [line])))
            return index + 1

        if question is None or mode == "passage":
            return self._outside_question(index)

        item = S.ITEM.match(line) if not indented and question.kind in S.ITEM_KINDS and mode in ("stem", "items") else None
        if item:
            block = Block(lineno, item.start(1) + 1, [item.group(1)])
            question.items.append(block)
            self.current, self.mode = block, "items"
            return index + 1

        if marks and mode == "label":
            after = self._option_after_label(question, marks, line, lineno)
            if after is not None:
                return after
            marks = []
        if mode == "stem" and not indented and not question.options and self._roman_statement(line, index):
            # ``I. ... II. ... III. ...`` before the options: statements of the question.
            self.current.lines.append(_hard_break(line))
            return index + 1
        if marks and mode == "stem" and question.box and marks[0].style in V.STATEMENT_STYLES and not question.options:
            # A statement of a <보기> box: it stays in the question text, on a line of its own.
            self.current.lines.append(_hard_break(line))
            return index + 1
        if marks and mode != "label":
            self._options(question, marks, line, lineno)
            return index + 1
        odd = None if indented or mode not in ("stem", "option") else S.UNSUPPORTED_OPTION.match(line)
        if odd and self._odd_option(question, odd, line, index):
            return index + 1

        quoted = S.labels_quoted(self.lines, index) if not indented and mode in ("stem", "option", "label") else None
        if quoted is not None:
            return self._quoted_label(question, quoted, line, lineno, mode, index)
        label = S.read_label(line.strip())
        if label is not None and not (label.spaced or label.name in S.QUESTION_LABELS or label.name in S.CHOICE_LABELS):
            label = None  # ``Note:text``, ``https://...``: text
        if label and not indented and mode == "label":
            found = self._repeated_label(question, label.name)
            if found is not None:
                return self._missing_number(found, self.current, _block_above(question))
        taken = self._label(question, label, line, lineno, indented, mode) if label else None
        if taken is not None:
            self.current, self.mode = taken[0] or self.current, taken[1]
            return index + 1

        disguised = S.disguised_label(line, self.dialect.labels) if _depth(line) < 4 else None
        if disguised and mode != "text":
            name, role, how = disguised
            where = "text after the options" if mode in ("option", "items") and not indented else _continues(question, mode)
            question.hidden.append(Hidden(role, name, lineno, _depth(line) + 1, where, how))
            if mode in ("option", "items") and not indented:
                return index + 1  # reported as QB148 (the question has no answer) or dropped with it
        shaped = S.structure(line) if mode == "label" and not indented else None
        if shaped:
            # A line shaped like the paper's structure that none of the forms above took: never
            # the answer's or explanation's text.
            self.error("QB154", f"'{shorten(line.strip(), 50)}' is shaped like {shaped}, so it is not read as part of "
                       f"the '{question.labels[-1].name}' block above", lineno, 1,
                       hint="if it belongs to that block, indent it by a few spaces; if it is the paper's structure, "
                            "write it as one of the forms in docs/source-format.md (a section heading such as "
                            "'Ⅱ. 단답형' or 'Part II. Short answer', a question '3. ...')")
            return index + 1
        if mode in ("option", "items") and line.strip() and not indented:
            where = f"option {question.options[-1].name}" if mode == "option" else "the last item"
            if line.rstrip().endswith(QUESTION_MARKS) and lineno > self.recovered:
                return self._missing_number(_Paragraph(0, lineno, True, False), None, f"{where} above")
            self.error("QB117", "text after the options that belongs to no option or label", lineno,
                       hint=f"indent it to continue {where}, or start it with a label such as 'Explanation:'")
            return index + 1
        if label and indented and mode in ("stem", "option", "items") and _depth(line) < 4:
            known = self.dialect.labels.get(label.name)
            if known:
                question.hidden.append(Hidden(known, label.raw, lineno, _depth(line) + 1, _continues(question, mode)))
        if mode == "stem" and not indented and S.BOX.match(line):
            # A <보기> box: it and its statements keep their lines.
            question.box = True
            if self.current.lines and self.current.lines[-1].strip():
                self.current.lines[-1] = _hard_break(self.current.lines[-1])
            line = _hard_break(line)
        elif mode == "stem" and question.box and line.strip() and not indented:
            line = _hard_break(line)
        elif mode == "option":
            question.option_lines.append((lineno, line))
        self.current.lines.append(line)
        return index + 1

    def _task(self, found: "re.Match[str]", index: int) -> int | None:
        """``Aufgabe 2``, ``Exercice 2``, ``Task 2``: the heading of the numbered questions under it,
        or a question, as the lines after it show (:mod:`.tasks`). The index of the next line when
        it is a heading; None to read it as today (a question, or text)."""
        lineno, number = index + 1, int(found.group("number"))
        task = TK.read_task(self.lines, index, number)
        if task.reading == "ambiguous":
            word = found.group("word")
            self.error("QB196", f"'{word} {number}' could be a heading over the numbered lines {task.subs[0]}–{task.subs[-1]} "
                       f"(each a question) or a question whose parts or options they are, answered on line "
                       f"{task.answer_line}: the paper does not say which", lineno, 1,
                       hint=f"for a heading, give each numbered question its own answer; "
                            f"for one question, mark its options 'A) …' or write its parts in its text")
            # Read as neither, up to its answer: one error, not one per reading of its lines.
            self.question, self.current, self.mode = None, Block(lineno, 1), "text"
            return task.answer_line
        if task.reading != "heading":
            if self.task is not None:
                # ``Exercice 2`` a question after ``Exercice 1`` a heading: its peer, not one of its
                # questions (nor worth its rule's points).
                self._open_section(7, lineno, f"{found.group('word')} {number}", {}, 1)
            return None
        title = self.lines[index].strip().strip("*_").strip().rstrip(":：").strip()
        title, attrs = self.attrs(title, lineno, 0, S.SECTION_ATTRIBUTES)
        self._open_section(7, lineno, title, attrs, 1)
        self.task, self.task_subs = number, 0
        return index + 1

    def _separator(self, index: int) -> bool:
        """A thematic break after a labelled block that nothing of the block follows: the end of
        the paper, the next question, heading, key or other part of its structure, or a label, come
        next. Before more of the block's text (``Explanation: …`` then ``---`` then more), it is the
        block's own rule, kept as the Markdown it is."""
        for line in self.lines[index + 1:]:
            if not line.strip() or S.thematic_break(line):
                continue
            if line[:1] in (" ", "\t"):
                return False
            label = S.read_label(line.strip())
            return S.structure(line) is not None or (label is not None and label.spaced and (
                label.name.lower() in S.QUESTION_LABELS or label.name.lower() in S.CHOICE_LABELS))
        return True

    def _option_code(self, lineno: int) -> bool:
        """A code fence right under an option marker alone on its line (``1)`` then `` ```python``):
        the code is that option's text, as the paper shows it, not a block after the options."""
        question = self.question
        if self.mode != "option" or question is None or not question.options:
            return False
        option = question.options[-1]
        return option.line == lineno - 1 and not "".join(option.text.lines).strip()

    def _start_key(self, lineno: int, untitled: bool = False) -> None:
        self._close_passages()
        self.keys.append(K.Key(lineno, self.stack[-1] if self.stack else None, untitled=untitled))
        self.question, self.current, self.mode = None, Block(lineno + 1, 1), "key"

    def _answer_key(self, index: int) -> bool:
        """An answer key's title (``[정답]``, ``<정답>``, ``## Answer key``, ``正解``) with entries
        under it that name options, truth words or numbers (``1. ②  2. ①``), as exam papers
        print it after the questions."""
        if not S.KEY_TITLE.match(self.lines[index]):
            return False
        at = next((i for i in range(index + 1, len(self.lines)) if self.lines[i].strip()), len(self.lines))
        if at < len(self.lines) and self._key_part(at) is not None:
            # ``参考答案`` then ``## 单选题答案：`` and its entries: a key in parts, one per section.
            return True
        following = self.lines[at] if at < len(self.lines) else ""
        entries = K.entries_line(following)
        if not entries:
            return False
        if len(entries) > 1:
            return True
        answer = entries[0][1].split()[0]
        after = next((line for line in self.lines[at + 1:] if line.strip()), "")
        if entries[0][0] in self._numbers_read() and (not after or K.entries_line(after)):
            # ``정답`` then ``1. 이성계 또는 태조`` and ``2. …``: entries numbered as questions already
            # read, one after the other under a key's title, answer them (a question of that number
            # again would be numbered twice, and would have its answer or options under it).
            return True
        return (S.option_refs(answer) is not None or S.every_truth(answer) is not None
                or S.NUMERIC_ANSWER.match(answer) is not None)

    def _entry_again(self, line: str) -> bool:
        """``1. ②`` after the questions' options: a key's entry (a circled number, numbered as a
        question already read), not a question ``1.`` again whose text is a circled number."""
        found = K.entries_line(line)
        return (found is not None and len(found) == 1 and S.CIRCLED.fullmatch(found[0][1].strip()) is not None
                and found[0][0] in self._numbers_read() and self.question is not None and found[0][0] <= self.question.number)

    def _untitled_key(self, index: int) -> bool:
        """``1. 2``, ``2. 4``, ... ``5. 1, 5`` after the last question's options, with no title above
        them: an answer key of one entry a line, when there are two or more such lines, numbered
        upwards from a question already read (not after the question above: a new question goes
        on from it), every entry numbered as a question read and answered with option references
        (``2``, ``1, 5``: as questions, each would be a question whose text is a number, without
        options or answer), and no option or label under the last. A single such line, or one
        whose answer is not an option reference, is read as it always was. Whether each answer
        names options its question has is the key's to check (:meth:`_apply_keys`): a slip there
        is an error at the entry, not a key read as questions."""
        question = self.question
        if question is None:
            return False
        entries: list[tuple[int, str]] = []
        at = index
        while at < len(self.lines):
            text = self.lines[at]
            if not text.strip() or S.thematic_break(text):
                at += 1
                continue
            if not text[:1].isdigit() or S.option_marks(text, decimal=True) or S.question_start(text) is None:
                break
            found = K.entries_line(text)
            if not found or len(found) != 1:
                break
            number, answer = found[0][0], found[0][1]
            # The cheap tests first: most lines asked are a bank's next question ``2. What …?``,
            # numbered after the question above.
            if (entries and number <= entries[-1][0]) or (not entries and number > question.number) \
                    or len(answer) > 40 or S.option_refs(answer) is None:
                return False
            entries.append((number, answer))
            at += 1
        if len(entries) < 2:
            return False
        after = self.lines[at].strip() if at < len(self.lines) else ""
        label = S.read_label(after)
        if S.option_marks(after) or (label is not None and label.spaced and label.name.lower() in S.QUESTION_LABELS):
            return False
        read = self._numbers_read()
        return all(number in read for number, _ in entries)

    def _numbers_read(self) -> Container[int]:
        """The numbers of the questions read so far. Read within a section (a run of its
        questions, :meth:`scan`), the questions before the run are not there: every number
        counts as read, so that a line which might be a key's entry is one (and the run, which
        then has a key, is not taken: :mod:`.pieces`); one read as a key by none is none in the
        whole reading either, whose numbers are fewer."""
        if self.within is not None:
            return _EVERY_NUMBER
        return {q.number for section in self._sections_with_questions() for q in section.questions}

    def _roman_statement(self, line: str, index: int) -> bool:
        """``I.``, ``II.``, ... statements: ``II.`` and past it always, ``I.`` (an option letter
        too) when ``II.`` follows it, ``V.`` and ``X.`` when they follow ``IV.`` and ``IX.``."""
        found = S.ROMAN_STATEMENT.match(line)
        if not found:
            return False
        numeral = found.group(1)
        if len(numeral) > 1:
            return True
        position = V.ROMAN_STATEMENTS.index(numeral)
        before = S.ROMAN_STATEMENT.match(self.current.lines[-1]) if self.current.lines else None
        after = S.ROMAN_STATEMENT.match(next((l for l in self.lines[index + 1:] if l.strip()), ""))
        return bool(before and position and before.group(1) == V.ROMAN_STATEMENTS[position - 1]) or \
            bool(after and position + 1 < len(V.ROMAN_STATEMENTS) and after.group(1) == V.ROMAN_STATEMENTS[position + 1])

    # -- sections, passages and notes ---------------------------------------------------------------

    def _heading_question_line(self, heading: "re.Match[str]", index: int) -> int | None:
        """A heading numbered as a question with its options under it (``## 1. 다음 중 …을
        고르시오.`` then ``1) …`` to ``5) …``): that question, its heading's text the first paragraph
        of its text, in the section the heading stands in (:func:`syntax.heading_reading` says when).
        Its number lost (``## . 다음 중 …``), it is an error that names the number it seems to
        miss, and is read on as that question. Lines ``1)`` under it that could be its options or
        a section's questions are an error at the heading, read as neither up to where they end.
        The index of the next line to read; None for a heading that is a section."""
        reading = S.heading_reading(self.lines, index)
        if reading.reading == "section":
            return None
        lineno, start = index + 1, heading.start(2)
        if reading.reading == "ambiguous":
            plain = ", ".join(str(n) for n in reading.plain[:3])
            asking = ", ".join(str(n) for n in reading.asking[:3])
            first, second = ("1.", "2.") if reading.only_number else ("1)", "2)")
            self.error("QB188", f"the lines numbered '{first}', '{second}', … under the heading could be its options or the questions of a "
                       f"section it titles: those on lines {plain} read as options, those on lines {asking} ask a question",
                       lineno, start + 1,
                       hint="for one question, write its options without question marks (or mark them 'A) …'); for a "
                            "section, end each of its questions with its question mark and give it its options or answer")
            self.question, self.current, self.mode = None, Block(lineno + 1, 1), "text"
            return max(reading.end, index + 1)
        number = reading.number
        if number is None:
            number = self._next_number()
            shown = f"{heading.group(1)} {number}. {shorten(reading.text, 50)}"
            self.error("QB147", f"this heading looks like question {number}, but its number is missing", lineno, start + 1,
                       hint=f"number it as the paper numbers its questions: '{shown}'")
        if reading.only_number:
            # ``## 19``: the heading is only the question's number; its text is the lines under it.
            _, attrs = self.attrs(reading.text, lineno, start + reading.offset, S.QUESTION_ATTRIBUTES)
            if "points" not in attrs:
                attrs.update(self._heading_points(reading, lineno, start))
            self._open_question(lineno, number, Block(lineno + 1, 1), attrs)
            assert self.question is not None
            self.question.heading = True
            self.question.listed = reading.listed or reading.reading == "marked"
            self._refuse_marked(reading)
            return index + 1
        stem, attrs = self.attrs(reading.text, lineno, start + reading.offset, S.QUESTION_ATTRIBUTES)
        # The heading is a paragraph of its own: a line right under it starts the next one.
        under = index + 1 < len(self.lines) and self.lines[index + 1].strip() != ""
        self._open_question(lineno, number, Block(lineno, start + reading.offset + 1, [stem, ""] if under else [stem]), attrs)
        assert self.question is not None
        self.question.heading = True
        self._refuse_marked(reading)
        return index + 1

    def _refuse_marked(self, reading: S.HeadingReading) -> None:
        """A heading question over statements that each end in their truth mark (``… である。○``):
        its statements are read as its options first (nobody's questions), then as the pairs of
        a matching question (:meth:`_judged_statements`)."""
        if reading.reading == "marked" and self.question is not None:
            self.question.truth_marked = True

    def _judged_statements(self) -> None:
        """Numbered statements each judged true or false, as ``正しい記述には○を、誤った記述には×を
        つけなさい`` asks: each ending in its mark (``1. アセンブルは可逆変換である。○``), or answered by
        one mark for each in order (``Ans. x x o``). They are one matching question: each
        statement a prompt, its mark the answer, both marks the choices (each right pair an equal
        share of the points, as the paper's partial credit). Never options that show the marks. An
        answer whose marks are not one for each statement is QB190 at the answer."""
        for section in self._sections_with_questions():
            for q in section.questions:
                if q.truth_marked:
                    split = [(o, S.truth_split(o.text.text())) for o in q.options]
                    answers = q.labels_of("answer")
                    if answers:
                        # The marks judge each statement already: an answer besides says it twice.
                        self.error("QB190", f"the statements are judged by the marks at their ends: the answer "
                                   f"'{shorten(answers[0].block.text(), 40)}' says it a second time", answers[0].line,
                                   answers[0].block.column, hint="delete the answer line, or the marks at the statements' ends")
                        q.refused = True
                    elif all(found is not None and found[0] for _, found in split):
                        q.judged = [(o.line, o.column, found[0], found[1]) for o, found in split if found is not None]
                    else:
                        q.refused = True
                elif q.options and q.style == "decimal" and q.kind is None and len(q.labels_of("answer")) == 1:
                    self._judged_by_answer(q, q.labels_of("answer")[0])
                if q.judged:
                    q.options.clear()
                    q.option_lines.clear()

    def _judged_by_answer(self, q: Question, answer: Label) -> None:
        """``Ans. x x x o o x`` under numbered statements: their marks, one for each in order."""
        # ``x x o``, or ``T T F T`` (written as code too) where the question asks for T and F.
        marks = [m for m in re.split(r"[\s,、，;；/]+", answer.block.text().strip().strip("`")) if m]
        if len(marks) < 2 or any(m.lower() not in V.MARK_TRUE + V.MARK_FALSE + _TRUTH_LETTERS for m in marks) \
                or any(S.truth_split(o.text.text()) for o in q.options):
            return
        if len(marks) != len(q.options):
            self.error("QB190", f"the answer '{shorten(answer.block.text(), 40)}' judges {len(marks)} statements true or false, "
                       f"but the question lists {len(q.options)}", answer.line, answer.block.column,
                       hint="give one mark for each statement, in order ('Ans. o x o'), or each statement's mark at its end")
            q.refused = True
            return
        # ``o``/``x`` where the paper asks for ○ and ×: the marks it prints.
        circles = "○" in q.stem.text() and "×" in q.stem.text()
        shown = {"o": "○", "x": "×"} if circles else {}
        q.judged = [(o.line, o.column, o.text.text(), shown.get(m.lower(), m.upper())) for o, m in zip(q.options, marks)]
        q.labels = [label for label in q.labels if label is not answer]

    def _list_goes_on(self, line: str) -> bool:
        """``2. (b)`` under a number-only heading's question whose list is at ``1.``: its next
        option, never an answer key's entry."""
        question = self.question
        listed = S.list_option(line) if question is not None and question.listed and self.mode in ("stem", "option") else None
        if listed is None or question is None:
            return False
        numbered = [o for o in question.options if o.style == "decimal"]
        return listed.ordinal == (numbered[-1].ordinal + 1 if numbered else 1)

    def _heading_points(self, reading: S.HeadingReading, lineno: int, start: int) -> Attrs:
        """The points a number-only heading states in parentheses after its number: ``(6点)``,
        ``(6 points)``, or a bare ``(6)`` where the paper says its numbers in parentheses are
        points ("丸かっこ内の数字は配点です", before its first question). Anything else there is an
        error at it: the paper does not say what the number is (it is not shown as text either)."""
        if reading.bracket is None:
            return {}
        column = start + reading.bracket_offset + 1
        stated = S.points_in(f"({reading.bracket})")
        if stated is None and re.fullmatch(r"\d{1,4}(?:\.\d+)?", reading.bracket) and self._points_legend(lineno):
            stated = (float(reading.bracket), 0, 0)
        each = _EACH_OF_TOTAL.fullmatch(reading.bracket.strip())
        if stated is None and each and reading.reading == "marked" \
                and float(each.group(1)) * len(reading.marked) == float(each.group(2)):
            # ``(各1計5)`` over five statements judged ○/×: 1 point each, 5 in all, the matching
            # question's points (each right pair an equal share).
            stated = (float(each.group(2)), 0, 0)
        if stated is not None:
            return {"points": (f"{stated[0]:g}", column)}
        self.error("QB189", f"'({reading.bracket})' after the question's number does not say what it is: the paper does not "
                   "say that its numbers in parentheses are points", lineno, column,
                   hint="write the points with their unit, '(6点)', '(6점)' or '(6 points)', or say above the first "
                        "question that the numbers in parentheses are the points ('丸かっこ内の数字は配点です'); "
                        "parts worth points each ('各1') are questions of their own")
        return {}

    def _points_legend(self, lineno: int) -> bool:
        """Does the paper say, above the line, that its numbers in parentheses are points?"""
        return self._legend_line < lineno

    @cached_property
    def _legend_line(self) -> int:
        """The line of the paper's legend that its numbers in parentheses are points (past its
        last line without one): looked for once, not at every heading."""
        return next((n for n, line in enumerate(self.lines, 1) if S.POINTS_LEGEND.search(line)), len(self.lines) + 1)


    def _quoted_label(self, question: Question, quoted: tuple[int, S.LabelLine], line: str, lineno: int,
                      mode: str, index: int) -> int:
        """``> answer: 1`` and ``> points: 2``: a blockquote that holds the question's labels, read
        as those labels (the points as its ``{points=…}``), at their columns in the line."""
        width, label = quoted
        if label.name.lower() not in S.POINTS_NAMES:
            taken = self._label(question, label, " " * width + line[width:], lineno, False, mode)
            if taken is not None:
                self.current, self.mode = taken[0] or self.current, taken[1]
            return index + 1
        column = width + label.value_offset + 1
        points, written = label.value.strip(), question.attrs.get("points")
        stated = written[0] if written is not None else None
        if stated is not None and _number(stated) != _number(points):
            self.error("QB184", f"the points '{points}' differ from the points '{stated}' stated for the "
                       "question above", lineno, column,
                       hint="state the question's points once, or make them agree")
        else:
            question.attrs["points"] = (points, column)
        return index + 1

    def _section_in_text(self, line: str, title: str) -> bool:
        """In a question's text, a Roman numeral starts a section only when its title says what
        the section holds (``Ⅱ. 단답형``, ``II. Essay (5 points each)``); a bracketed kind
        (``[단답형]``) or a bullet (``■``) always does."""
        if line[:1] in V.SECTION_BULLETS or line[:1] in V.OPEN_BRACKETS:
            return True
        return self.dialect.section_kind(title) is not None or S.points_in(title, S.EACH_POINTS) is not None

    def _open_section(self, level: int, lineno: int, title: str, attrs: Attrs, column: int) -> None:
        """A heading (levels 1-6), or an exam paper's section marker (level 7: below any heading,
        beside the marker before it). Points for each question in its title (``(각 2점)``) are
        read out of it."""
        each = S.points_in(title, S.EACH_POINTS)
        kind = self.dialect.section_kind(title)
        rule = S.exam_rule(title)
        if each:
            title = (title[: each[1]] + title[each[2]:]).strip()
        self._close_passages()
        self.task = None  # a task heading opens its section again after this
        section = Section(level, lineno, title, attrs, Block(lineno + 1, 1), title_column=column,
                          each_points=each[0] if each else None, kind=kind, exam_rule=rule)
        while self.stack and self.stack[-1].level >= section.level:
            self.stack.pop()
        (self.stack[-1].children if self.stack else self.roots).append(section)
        self.stack.append(section)
        self.question, self.current, self.mode = None, section.intro, "text"

    def _open_passage(self, passage: Passage) -> None:
        """A shared passage or a note: text shown with the questions it names (a note: the next
        one), read until a question starts."""
        if passage.first is not None:
            self._close_passages()
        self.passages.append(passage)
        self.question, self.current, self.mode = None, passage.block, "passage"

    def _close_passages(self) -> None:
        """Passages whose questions did not all come: each is reported at its marker."""
        for passage in self.passages:
            self._check_passage(passage)
        self.passages = []

    def _check_passage(self, passage: Passage) -> None:
        if passage.first is None:
            if not passage.seen:
                self.error("QB178", "this note is followed by no question, so no question shows it", passage.line,
                           hint="put the note right before the question it is about, or in the section's introduction")
            return
        assert passage.last is not None
        missing = [n for n in range(passage.first, passage.last + 1) if n not in passage.seen]
        if missing:
            self.error("QB178", f"the passage for questions {passage.first} to {passage.last} is not followed by question "
                       f"{missing[0]}", passage.line,
                       hint=f"number the questions after the passage {passage.first} to {passage.last}, or change the "
                            f"range '[{passage.first}~{passage.last}]' to the questions it is for")

    def _open_question(self, lineno: int, number: int, stem: Block, attrs: Attrs, kind: str | None = None) -> None:
        question = Question(lineno, attrs, stem, number, numbered_kind=kind)
        if not self.stack:
            self.stack.append(Section(1, lineno, "", {}, Block(lineno, 1)))
            self.roots.append(self.stack[-1])
        question.section = self.stack[-1]
        for passage in list(self.passages):
            if passage.first is None:
                question.passages.append(passage.block)
                passage.seen.add(number)
                self.passages.remove(passage)
            elif passage.first <= number <= (passage.last or 0):
                question.passages.append(passage.block)
                passage.seen.add(number)
            else:
                self._check_passage(passage)
                self.passages.remove(passage)
        self.stack[-1].questions.append(question)
        self.question, self.current, self.mode = question, question.stem, "stem"

    def _next_number(self) -> int:
        questions = self.stack[-1].questions if self.stack else []
        return questions[-1].number + 1 if questions else 1

    # -- options ---------------------------------------------------------------------------------

    def _options(self, question: Question, marks: list[S.OptionMark], line: str, lineno: int) -> None:
        """One option, or several on one line (``① 서울 ② 부산``), in the question's one style."""
        marks = S.in_styles(marks, question.style)
        if question.options and marks[0].style != question.style:
            if question.style in V.STATEMENT_STYLES and all(o.style == question.style for o in question.options):
                # ``ㄱ. ... ㄴ. ...`` then ``① ㄱ ② ㄱ, ㄴ``: the first were statements of the question.
                self._fold_options(question)
            elif S.orders_options([line[m.text_start: m.text_end] for m in marks], [o.marker for o in question.options]):
                # ``(A) … (B) … (C) …`` then ``① (A)-(C)-(B) ② …``: the paragraphs to order, then the orders.
                self._fold_options(question)
            elif not question.odd_marker:
                question.odd_marker = True
                first = question.options[0]
                self.error("QB179", f"option {marks[0].marker} is marked in another style than option {first.marker} "
                           "above it: a question's options are marked one way", lineno, marks[0].start + 1,
                           hint=f"mark every option of the question like the first, "
                                f"'{S.option_label(first.style, len(question.options) + 1)}"
                                f"{'' if first.style == 'circled-decimal' else first.marker[-1:]} ...'")
        question.option_lines.append((lineno, line))
        for mark in marks:
            raw = line[mark.text_start: mark.text_end]
            text, attrs = self.attrs(raw, lineno, mark.text_start, S.OPTION_ATTRIBUTES)
            option = Option(mark.letter, lineno, Block(lineno, mark.text_start + 1, [text]), attrs, None,
                            mark.style, mark.marker, mark.ordinal, mark.start + 1)
            question.options.append(option)
        self.current, self.mode = question.options[-1].text, "option"

    def _fold_options(self, question: Question) -> None:
        """Options that were statements of the question text: back into it, each on its line."""
        lines = [text for _, text in question.option_lines]
        _break_last(question.stem.lines)
        question.stem.lines.extend(_hard_break(text) if text.strip() and not text[:1].isspace() else text for text in lines)
        question.options.clear()
        question.option_lines.clear()

    def _option_after_label(self, question: Question, marks: list[S.OptionMark], line: str, lineno: int) -> int | None:
        """An option-shaped line after a label: a question that lost its number, an enumeration in
        a model answer or an explanation that discusses the options, or options written after the
        answer (QB134). The index of the next line to read, or None to read it as a label's text."""
        found = self._paragraph(self.current, skip_first=True, asked_only=True)
        if found is not None:
            return self._missing_number(found, self.current, _block_above(question))
        last = question.labels[-1]
        used = {o.marker for o in question.options}
        commentary = last.role != "answer" and question.options and all(m.style == question.style and m.marker in used for m in marks)
        # No options to come: a typed question without options, or one with a model answer.
        open_ended = not question.options and (
            (question.kind is not None and question.kind not in S.OPTION_KINDS)
            or any(l.role == "answer" and l.name.lower() in self.dialect.model_answer_labels for l in question.labels))
        model = last.role == "grading" or (open_ended if last.role != "answer" else
                                           last.name.lower() in self.dialect.model_answer_labels or open_ended)
        if commentary or model:
            # Its lines keep their line breaks, as written.
            if self.current.lines and self.current.lines[-1].strip():
                self.current.lines[-1] = _hard_break(self.current.lines[-1])
            self.current.lines.append(line)
            return lineno
        question.misplaced = True
        self.error("QB134", "options come before the answer and the other labelled blocks", lineno, marks[0].start + 1,
                   hint=f"move the options up; to keep a line that starts like '{marks[0].marker}' in the "
                        f"'{last.name}:' block, indent it")
        return lineno

    def _odd_option(self, question: Question, odd: re.Match[str], line: str, index: int) -> bool:
        """A line that looks like an option with a marker the dialect does not take (``A: text``,
        ``❶ text``): in a run of two or more (or after the options), one error per question, and
        the line read as the option it was meant to be, so the answer that names it reads."""
        lineno = index + 1
        following = next((l for l in self.lines[index + 1:] if l.strip()), "")
        if not (question.options or question.odd_marker or S.UNSUPPORTED_OPTION.match(following)):
            return False
        kind = next(k for k in ("colon", "dash", "bracket", "angle", "dingbat") if odd.group(k))
        char = odd.group(kind)
        marker = line[: odd.end(kind) + (1 if kind in ("bracket", "angle") else 0)].strip()
        if kind == "colon":
            marker = line[: line.index(char) + 1] + ":"
        if not question.odd_marker:
            question.odd_marker = True
            self.error("QB180", f"'{marker}' is not an option marker qti-builder reads", lineno, 1,
                       hint="write options as 'A) text' (or 'A.', '(A)'), '① text', '(1) text', '가) text', 'ㄱ. text' "
                            "or 'ア) text', one style per question (docs/source-format.md#exam-paper-conventions)")
        if kind == "dingbat":
            ordinal = V.OPTION_STYLES["circled-decimal"].index(V.DINGBAT_CIRCLED[char]) + 1
            style = "circled-decimal"
        elif char.isdigit():
            ordinal, style = int(char), "parenthesized-decimal"
        else:
            ordinal, style = ord(char.upper()) - ord("A") + 1, "upper-alpha" if char.isupper() else "lower-alpha"
        text_start = odd.end(kind) + 1
        rest = line[text_start:].lstrip(" :：-–—>])")
        text_start = len(line) - len(rest)
        mark = S.OptionMark(style, marker, ordinal, 0, text_start, len(line.rstrip()))
        self._options(question, [mark], line, lineno)
        return True

    # -- text outside any question ----------------------------------------------------------------

    def _outside_question(self, index: int) -> int:
        """A line of the quiz description, a section introduction or a shared passage: text
        students see, so an answer or an explanation must never land there."""
        line, lineno = self.lines[index], index + 1
        block = self.current
        section = self.stack[-1] if self.stack and block is self.stack[-1].intro else None
        where = "the shared passage" if self.mode == "passage" else "the section introduction" if section else "the quiz description"
        label = None if line[:1] in (" ", "\t") else S.read_label(line.strip())
        name = label.name if label and label.spaced else ""
        role = S.QUESTION_LABELS.get(name) or S.CHOICE_LABELS.get(name)
        if label and role:
            asked = self._paragraph(block, skip_first=False, asked_only=True)
            if asked is not None:
                return self._missing_number(asked, block, where)
            if section is not None and section.title.endswith(QUESTION_MARKS) and section.line > self.recovered:
                return self._heading_question(section, S.written_label(line.strip(), label))
            # In a passage, text is the passage's: only a paragraph that asks, or has options, is a
            # question that lost its number.
            found = self._paragraph(block, skip_first=False, asked_only=False,
                                    any_paragraph=role == "answer" and self.mode != "passage")
            if found is not None:
                return self._missing_number(found, block, where)
            if section is not None and not block.text() and section.line > self.recovered:
                return self._heading_question(section, S.written_label(line.strip(), label))
            self._outside_label(line.strip(), label, where, lineno, 1)
        elif label and label.spaced and suggest(name, list(self.dialect.labels), cutoff=0.8):
            raw = label.raw
            close = suggest(name, list(self.dialect.labels), cutoff=0.8)
            self.error("QB115", f"unknown label '{raw}'{close}", lineno, 1,
                       hint=f"write '{close.split(chr(39))[1].capitalize()}:' after a numbered question such as '1. ...'; "
                            "outside a question, text is shown to students")
        elif S.option_marks(line) and self.mode != "passage":
            asked = self._paragraph(block, skip_first=False, asked_only=True)
            if asked is not None:
                return self._missing_number(asked, block, where)
        if S.note_line(line):
            _break_last(block.lines)  # each ``※`` instruction on its own line
        block.lines.append(line)
        return index + 1

    def _outside_label(self, text: str, label: S.LabelLine, where: str, line: int, column: int) -> None:
        """QB145: a label (as ``text``, its line stripped, writes it: ``답)``, ``[정답]``, ``Answer:``)
        in text students see, and the escape that makes its words text."""
        written = S.written_label(text, label)
        self.error("QB145", f"'{written}' outside a question: {where} would show it to students", line, column,
                   hint=f"labelled blocks belong to a question: put it after a numbered question such as '1. ...'; "
                        f"to show the words themselves, write '{S.escaped_label(written, label)}'")

    def _heading_question(self, section: Section, label: str) -> int:
        """A heading followed by an answer (``label``, as written): the author wrote a question as a
        heading. Report it and read it as the question it was meant to be, in the section above it."""
        parent = self.stack[-2] if len(self.stack) > 1 else None
        (parent.children if parent else self.roots).remove(section)
        self.stack.pop()
        number = parent.questions[-1].number + 1 if parent and parent.questions else 1
        # As written: '## Title', or an exam section marker's whole line ('Ⅱ. 단답형', '[객관식]').
        written = self.lines[section.line - 1].strip()
        without = ", without '#'" if written.startswith("#") else ""
        self.error("QB146", f"the heading '{shorten(written, 60)}' is followed by '{label}', so it reads as a section "
                   "whose introduction students see, not as a question", section.line, section.title_column,
                   hint=f"write the question as a numbered line{without}: '{number}. {shorten(section.title, 50)}'")
        # Its attributes were read as a section's; read them again as a question's.
        self.sink.items[:] = [d for d in self.sink.items
                              if not (d.code == "QB109" and d.span and d.span.path == self.path and d.span.line == section.line)]
        self.recovered = section.line
        heading = S.HEADING.match(self.lines[section.line - 1])
        if heading is None:  # an exam section marker: its whole line
            text, offset = self.lines[section.line - 1].strip(), 0
        else:
            text, offset = heading.group(2), heading.start(2)
        stem, attrs = self.attrs(text, section.line, offset, S.QUESTION_ATTRIBUTES)
        self._open_question(section.line, number, Block(section.line, section.title_column, [stem]), attrs)
        return section.line  # the line after the heading, read again as the question's

    # -- a question that lost its number ----------------------------------------------------------

    def _repeated_label(self, question: Question, name: str) -> _Paragraph | None:
        """A label the question already has, after a paragraph: likely the next question's, whose
        number is missing."""
        role = self.dialect.labels.get(name)
        if role is None or question.label(role) is None:
            return None
        if role == "answer" and question.kind in S.MULTI_ANSWER_KINDS:
            # Several answers are allowed, but each is one line: a paragraph after one is not part of it.
            last = question.labels[-1]
            if last.role != "answer":
                return None
            return self._paragraph(self.current, skip_first=True, asked_only=False, any_paragraph=True)
        return self._paragraph(self.current, skip_first=True, asked_only=False, any_paragraph=role == "answer")

    def _paragraph(self, block: Block, skip_first: bool, asked_only: bool, any_paragraph: bool = False) -> _Paragraph | None:
        """The paragraph of ``block`` that most looks like a question: the last that asks (ends with
        '?'), else (unless ``asked_only``) the last followed by options, else (with ``any_paragraph``)
        the last one. Only paragraphs after the last recovery count."""
        found = [p for p in _paragraphs(block, skip_first) if p.line > self.recovered]
        for wanted in (lambda p: p.asks, lambda p: not asked_only and p.has_options,
                       lambda p: not asked_only and any_paragraph):
            matching = [p for p in found if wanted(p)]
            if matching:
                return matching[-1]
        return None

    def _missing_number(self, paragraph: _Paragraph, block: Block | None, where: str) -> int:
        """Report a question written without its number, and read on from it as that question."""
        number = self._next_number()
        line = self.lines[paragraph.line - 1]
        offset = _depth(line)
        glued = _GLUED_NUMBER.match(line)
        misnumbered = _OTHER_NUMBER.match(line)
        if glued:
            number, offset = int(glued.group(1)), glued.end(1) + 1
            self.error("QB147", f"this line looks like question {number}, but its number needs a space after it",
                       paragraph.line, offset + 1,
                       hint=f"write '{number}. {shorten(line[offset:].strip(), 50)}': a number, '.' or ')', then a space")
        elif misnumbered:
            number, offset = int(misnumbered.group(1)), misnumbered.end()
            self.error("QB147", f"this line looks like question {number}, but a question is numbered '{number}.' at the left margin",
                       paragraph.line, 1, hint=f"write '{number}. {shorten(line[offset:].strip(), 50)}'")
        else:
            self.error("QB147", f"this paragraph looks like a question: number it '{number}.'", paragraph.line, 1,
                       hint=f"a question starts at the left margin with its number, '{number}. {shorten(line.strip(), 50)}'; "
                            f"without one, the text is read as part of {where}")
        if block is not None:
            del block.lines[paragraph.index:]
        self.recovered = paragraph.line
        stem, attrs = self.attrs(line[offset:].rstrip(), paragraph.line, offset, S.QUESTION_ATTRIBUTES)
        self._open_question(paragraph.line, number, Block(paragraph.line, offset + 1, [stem]), attrs)
        return paragraph.line  # the line after the paragraph's first

    def _label(
        self, question: Question, label: S.LabelLine, line: str, lineno: int, indented: bool, mode: str
    ) -> tuple[Block | None, str] | None:
        """Handle a ``Name: value`` line: the block that continues after it (None: unchanged) and the
        new mode, or None when the line is ordinary content."""
        raw, name = label.raw, label.name
        col = len(line) - len(line.lstrip()) + 1
        block = Block(lineno, col + label.value_offset, [label.value])
        labels, choice_labels = self.dialect.labels, self.dialect.choice_labels
        if name not in labels and name not in choice_labels and (name in S.QUESTION_LABELS or name in S.CHOICE_LABELS) \
                and not indented:
            # Another language's label: read as that label, and said so once.
            lang = V.label_language(name)
            code = next((c for c, l in V.LANGUAGES.items() if l is lang), "en")
            self.error("QB181", f"'{raw}' is the {lang.name if lang else 'other'} label for the "
                       f"{_ROLE_WORDS.get(S.QUESTION_LABELS.get(name) or 'feedback', 'answer')}, but the quiz's language is "
                       f"'{self.dialect.language}'", lineno, col,
                       hint=f"add 'language: {code}' to the front matter (the quiz's labels are then read in that language "
                            "as well as English and Korean), or write the English label")
            labels, choice_labels = S.QUESTION_LABELS, S.CHOICE_LABELS
            question.misplaced = True  # its answer may be in that language's words too

        if indented and name in choice_labels:
            if mode == "option":
                target = question.options[-1]
                if target.feedback is not None:
                    self.error("QB116", f"a second feedback for option {target.name}", lineno, col,
                               hint="an option has one 'Feedback:'; merge the two into one block")
                target.feedback = block
                return block, mode
            last = question.labels[-1] if question.labels else None
            if mode == "label" and last is not None and last.role == "answer":
                if last.feedback is not None:
                    self.error("QB116", "a second feedback for one answer", lineno, col,
                               hint="an answer has one 'Feedback:'; merge the two into one block")
                last.feedback = block
                return block, mode
        if indented:
            return None
        if name in labels:
            role = labels[name]
            if role != "answer" and question.label(role):
                self.error("QB116", f"a second '{raw}' block in one question", lineno, col,
                           hint=f"merge the two '{raw}' blocks into one; if a new question starts between them, number it")
            question.labels.append(Label(role, raw, lineno, col, block, label.score))
            return block, "label"
        if name in choice_labels and mode == "option":
            self.error("QB136", f"'{S.written_label(line.strip(), label)}' must be indented to belong to option "
                       f"{question.options[-1].name}", lineno, col,
                       hint="indent it by a few spaces; for feedback on the whole question use 'Explanation:'")
            return None, mode
        if not label.spaced:
            return None  # ``Note:text`` is text
        strict = mode in ("option", "items")
        close = suggest(name, list(labels), cutoff=0.6 if strict else 0.8)
        if strict or close:
            meant = f"write '{_capital(close.split(chr(39))[1])}:'; " if close else "indent the line to continue the option, or use one of the "
            self.error("QB115", f"unknown label '{raw}'{close}", lineno, col,
                       hint=meant + "labels: " + ", ".join(_label_names(self.dialect, raw)))
            if close:
                # Read on as the label it was meant to be, so the question does not also lack its answer.
                role = labels[close.split("'")[1]]
                if role == "answer" or not question.label(role):
                    question.labels.append(Label(role, raw, lineno, col, block, label.score))
                    return block, "label"
            return None, mode
        return None

    def attrs(self, text: str, lineno: int, offset: int, allowed: tuple[str, ...]) -> tuple[str, Attrs]:
        """Split ``Title {#id key=value flag}`` into the title and its attributes."""
        match = S.ATTRS.search(text)
        if not match:
            return text, {}
        attrs: Attrs = {}
        base = offset + match.start(1) + 1
        for item in S.ATTR.finditer(match.group(1)):
            col = base + item.start()
            if item.group(1):
                key, value = "id", item.group(1)
            elif item.group(2):
                key, value = item.group(2), item.group(3) if item.group(3) is not None else item.group(4)
            elif item.group(5):
                key, value = item.group(5), "true"
            else:
                self.error("QB109", f"cannot read attribute '{item.group(6)}'", lineno, col,
                           hint="write attributes as {#id key=value}")
                continue
            if key not in allowed:
                self.error("QB109", f"unknown attribute '{key}'{suggest(key, list(allowed))}", lineno, col,
                           hint=f"attributes here: {', '.join(allowed)}")
                continue
            attrs[key] = (value, col)
        return text[: match.start()].rstrip(), attrs


_LETTERED = ("upper-alpha", "lower-alpha")
#: True and false as the letters an answer gives them (``T T F T``): their statements are
#: numbered, so the letters name no option.
_TRUTH_LETTERS = ("t", "f")
#: ``各1計5``: points for each part, then in all.
_EACH_OF_TOTAL = re.compile(r"各\s*(\d+(?:\.\d+)?)\s*[点]?\s*[計计]\s*(\d+(?:\.\d+)?)\s*点?")
#: Where a thematic break (``---``) is a separator students need not see: after a question's options
#: or labels (after a label, where the block's text does not go on after it: :meth:`Scanner._separator`),
#: in an answer key, after the closing mark. In a question's text, before its options, and in an
#: introduction or a passage it stays the Markdown it is.
_AFTER_QUESTION = ("option", "items", "label", "key", "closed")


def _relative(value: object, base: int, lines_first: bool = False) -> object:
    """A draft's part (a block, an option, a label, a diagnostic, lists of them), its fields
    named ``line`` counted from ``base`` (and, ``lines_first``, the first of each tuple in a
    list: ``Question.option_lines``, ``judged``), as nested tuples that compare by value."""
    if isinstance(value, (list, tuple)):
        if lines_first:
            return tuple((item[0] - base, *item[1:]) for item in value)
        return tuple(_relative(item, base) for item in value)
    if isinstance(value, dict):
        return tuple((key, _relative(item, base)) for key, item in value.items())
    if hasattr(value, "__dataclass_fields__"):
        return (type(value).__name__, *((f.name, getattr(value, f.name) - base if f.name == "line" else
                                         _relative(getattr(value, f.name), base, f.name in ("option_lines", "judged")))
                                        for f in fields(value)))  # type: ignore[arg-type]
    return value


class _EveryNumber:
    """Every question number (:meth:`Scanner._numbers_read` within a section)."""

    def __contains__(self, number: object) -> bool:
        return True


_EVERY_NUMBER = _EveryNumber()


def first_may_be_row(section: Section) -> bool:
    """The section's first question may be a row of a matching table (:mod:`.tables`), whose
    run would go on from the questions before it."""
    return bool(section.questions) and T.may_be_row(_table_item(section.questions[0]).first)


def _option(mark: S.OptionMark, line: int, text: str) -> Option:
    """The option a marker starts on ``line``, its text as given (found again in a question's
    text, rather than read from its own line)."""
    return Option(mark.letter, line, Block(line, mark.text_start + 1, [text]), {}, None, mark.style, mark.marker, mark.ordinal,
                  mark.start + 1)


def _table_item(q: Question) -> T.Item:
    """A draft as the matching-table reader takes it (only an untyped one can be a row)."""
    answer = q.label("answer")
    first = q.stem.lines[0] if q.stem.lines and q.kind is None and not q.labels_of("answer")[1:] else ""
    return T.Item(q.number, q.line, q.stem.column, first,
                  [(q.stem.line + i, text) for i, text in enumerate(q.stem.lines[1:], 1)],
                  (answer.block.text(), answer.line, answer.block.column) if answer else None)


def _paragraphs(block: Block, skip_first: bool) -> list[_Paragraph]:
    """Paragraphs of a block that start at the left margin, outside code fences; ``skip_first``
    leaves out the block's first line (the text on a label's own line)."""
    starts: list[tuple[int, bool, bool]] = []  # index, asks, has options
    fence: str | None = None
    blank_before = not skip_first
    inside = False  # in the paragraph that starts[-1] begins
    for i, line in enumerate(block.lines):
        fence_match = S.FENCE.match(line)
        if fence:
            closer = fence_match.group(1) if fence_match else ""
            if closer[:1] == fence[0] and len(closer) >= len(fence):
                fence = None
            continue
        if fence_match:
            fence, blank_before = fence_match.group(1), False
            continue
        if not line.strip():
            blank_before, inside = True, False
            continue
        at_margin = line[:1] not in (" ", "\t")
        if at_margin and S.option_marks(line) and not line.rstrip().endswith(QUESTION_MARKS):
            if starts:
                starts[-1] = (starts[-1][0], starts[-1][1], True)
            inside = False
        elif at_margin and blank_before and not (i == 0 and skip_first):
            starts.append((i, False, False))
            inside = True
        if inside and line.rstrip().endswith(QUESTION_MARKS):
            starts[-1] = (starts[-1][0], True, starts[-1][2])
        blank_before = False
    return [_Paragraph(i, block.line + i, asks, options) for i, asks, options in starts]


def _continues(question: Question, mode: str) -> str:
    """What a line read in ``mode`` continues, in words."""
    if mode == "option":
        return f"part of option {question.options[-1].name}"
    if mode == "label" and question.labels:
        return f"part of the '{question.labels[-1].name}:' block"
    return {"stem": "part of the question text", "items": "part of the last item"}.get(mode, "text")


def _block_above(question: Question) -> str:
    return f"the '{question.labels[-1].name}:' block above" if question.labels else "the block above"


#: Styles that, on a question's own line, list its statements (``ㄱ. … ㄴ. …``, ``i. … ii. …``), not options.
_LISTED_STATEMENTS = ("hangul-consonant", "lower-roman")
#: The end of a question's sentence before options on its line: ``?``, ``.``, ``:``, a closing bracket
#: (``(3점)``), then space.
_OPTIONS_AFTER = re.compile(r"[?？.。:：)）\]](?:\s+|(?=[①-⑳]))(?=\S)")


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _label_names(dialect: S.Dialect, written: str = "") -> list[str]:
    """One label per role in the quiz's language and English (the hint's examples; Korean labels are
    read in every quiz, but shown only to Korean quizzes, or for a label written in Hangul)."""
    names: list[str] = []
    shown = V.shown(dialect.language)
    if any("\uac00" <= ch <= "\ud7a3" for ch in written) and V.LANGUAGES["ko"] not in shown:
        shown.append(V.LANGUAGES["ko"])
    for lang in shown:  # examples in the quiz's language, then English
        roles: set[str] = set()
        for name, role in lang.labels.items():
            if role != "feedback" and role not in roles:
                roles.add(role)
                names.append(_capital(name))
    return names


def _capital(name: str) -> str:
    return name.capitalize() if name.isascii() else name


def _break_last(lines: list[str]) -> None:
    """The last line of a block keeps its line break before the lines added after it."""
    if lines and lines[-1].strip():
        lines[-1] = _hard_break(lines[-1])


def _hard_break(line: str) -> str:
    """A line that keeps its line break in Markdown (two spaces at its end)."""
    return line.rstrip() + "  "


#: Roles in words, for messages.
_ROLE_WORDS = {"answer": "answer", "explanation": "explanation", "correct": "correct feedback",
               "incorrect": "incorrect feedback", "partially_correct": "partially correct feedback",
               "grading": "marking scheme", "feedback": "feedback"}


def _number(text: str) -> float | str:
    """``2`` and ``2.0`` as one number; other text as it is."""
    try:
        return float(text)
    except ValueError:
        return text
