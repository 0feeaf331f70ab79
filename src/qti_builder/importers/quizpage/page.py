"""Reading a quiz page's blocks into questions: the lines of its paragraphs one by one (questions,
options, labels, toggles), its code fences, tables and HTML where they fall, and an answer key at
the end applied to the questions it numbers."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import vocabulary as V
from ...diagnostics import DiagnosticSink, SourceSpan
from ...readers.markdown import keys as KEYS
from ...readers.markdown import tasks as TASKS
from ...readers.stated_total import find_stated_total
from ...readers.markdown import syntax as S
from ..base import INVALID, LOST, NO_QUESTIONS, UNSUPPORTED, ImportedQuiz, QuizBuilder, markdown_from_html, sanitise_id
from . import blocks as B
from .emit import Emitter
from .html import details_parts, html_questions, mkdocs_quiz, opened_details, quiz_tag, reveal_role, text_of
from .keys import AnswerKey
from .paper import paper_language
from .tables import TABLE_CODES, option_letter, read_tables
from .syntax import (ADMONITION, AMBIGUOUS, CLOSING_TAGS, DASH_OPTION, FENCE_LINE, KEY_TITLE, QUESTION_HEADING, Question,
                     SECTION_LIKE, SENTENCE_END, TASK, TOGGLE, UNCLEAR, UNMATCHED_KEY, WRAPPED, cell, columns, explanations_heading, join, key_entries, leaked_at, next_is_key,
                     first_option, next_is_option, plain_marker, question_line, read_label, short, unglue)

Data = dict[str, Any]


@dataclass
class Passage:
    """A text shown with the questions numbered ``first`` to ``last`` (``[3~4] …``), or, for a note
    (``※ …``, ``first`` None), with the next question: its lines as written, from its marker."""

    line: int
    lines: list[str]
    first: int | None = None
    last: int | None = None
    seen: set[int] = field(default_factory=set)


#: A line shaped like the paper's structure inside an answer or explanation, and text after the
#: paper's closing mark.
STRUCTURE_IN_LABEL = "QB722"
AFTER_CLOSING = "QB723"


def _names_a_section(line: str) -> bool:
    """Does a line name a kind of questions or their points (``Short answer``, ``(2 points each)``)?"""
    return S.dialect("en").section_kind(line) is not None or S.points_in(line, S.EACH_POINTS) is not None


class Page:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, markdown: bool) -> None:
        self.path, self.display, self.markdown = path, display, markdown
        self.builder = QuizBuilder(display, sink)
        self.builder.media_folder = path.parent  # a page's images are files beside it (or on its site)
        self.builder.site_paths = True
        self.title: str | None = None
        self.description: list[str] = []
        self.section: Data | None = None
        #: The line being read, and the line of each section's heading (by the section's id).
        self.at_line = 1
        self.skip_to = 0
        self.section_lines: dict[int, int] = {}
        #: The task whose section is open (``Aufgabe 2``), and how many of its questions ``2.1``, ``2.2`` came.
        self.task: tuple[int, int] | None = None
        self.question: Question | None = None
        self.questions: list[Question] = []
        #: The role of the ``<details>`` block being read (answer, explanation, hint), innermost last.
        self.details: list[str | None] = []
        #: The answer key at the end of the page, if it has one.
        self.key = AnswerKey(self.builder, self.span)
        #: Keys printed after a section's questions, each with the questions read before it began.
        self.section_keys: list[tuple[AnswerKey, int]] = []
        self.key_upto = 0
        self.emitter = Emitter(self.builder, self.span, markdown, self.column)
        self.source: list[str] = []
        #: The indentation an answer admonition's lines have (``??? "Answer"``), while one is read.
        self.admonition: int | None = None
        #: Shared passages (``[3~4] …``) whose questions are still to come, the one being read,
        #: and notes (``※ …``) for the next question.
        self.passages: list[Passage] = []
        self.reading: Passage | None = None
        #: Each section's points per question (``(각 2점)``) and the type its title names, by its id().
        self.section_meta: dict[int, tuple[float | None, str | None]] = {}
        #: How the first numbered question is numbered (``1.`` or ``1)``): under ``1.``, ``1)`` lines are options.
        self.form: str | None = None
        #: The line of the paper's closing mark (``- 끝 -``): no question's text comes after it.
        self.closed = 0
        #: Numbered instructions under ``注意事项：`` are being read (up to a blank line).
        self.instructions = False
        #: A scoring list's entries (a "## Scoring" heading after the questions): points and line by question number;
        #: and whether its lines are being read.
        self.scoring: dict[int, tuple[float, int]] = {}
        self.in_scoring = False

    # -- the page's blocks ------------------------------------------------------------------------

    def read(self, text: str) -> list[ImportedQuiz]:
        self.source = text.split("\n")
        title, events = B.events(text, self.markdown)
        self.title = title
        language = B.front_matter_language(text) or paper_language(text, self.source)
        self.emitter.dialect = S.dialect(language)
        for event in events:
            if isinstance(event, B.Lines):
                self._lines(event.lines)
            elif isinstance(event, B.Heading):
                if self.admonition is not None:
                    self._end_admonition()
                self._heading(event)
            elif isinstance(event, B.Fence) and event.indented and self.admonition is not None:
                # An admonition's content after a blank line, which CommonMark takes for indented code.
                if FENCE_LINE.match(textwrap.dedent(event.markdown)):
                    self._block(event.line, textwrap.dedent(event.markdown), "a code block")
                else:
                    self._lines([(event.line + i, line) for i, line in enumerate(event.markdown.split("\n"))])
            elif isinstance(event, B.Fence):
                if not event.closed:
                    self.builder.warn(AMBIGUOUS, f"the code block at line {event.line} is never closed: the rest of the page is its "
                                                 "code, as Markdown reads it", self.span(event.line),
                                      hint="close the code block with a line of ``` where it ends")
                if self.admonition is not None and not event.markdown.startswith(" "):
                    self._end_admonition()
                self._block(event.line, textwrap.dedent(event.markdown) if self.admonition else event.markdown, "a code block")
            elif isinstance(event, B.Table):
                self._table(event)
            elif isinstance(event, B.Html):
                self._html(event)
            elif isinstance(event, B.HtmlQuiz):
                self._html_quiz(event)
            elif isinstance(event, B.QuizTag):
                self._quiz_tag(event)
            else:
                self._mkdocs_quiz(event)
        self._finish()
        self._end_passages()
        self._apply_scoring()
        essay = lambda q: self.section_meta.get(id(q.section), (None, None))[1] == "essay"  # noqa: E731
        if self.section_keys:
            # Keys after each section: each answers the questions between the key before it and itself.
            done = 0
            for key, upto in self.section_keys + [(self.key, len(self.questions))]:
                key.apply(self.questions[done:upto], essay)
                done = upto
        else:
            self.key.apply(self.questions, essay)
        refused = read_tables(self.questions, self.builder.sink, self.span, self.emitter.dialect.language)
        for question in self.questions:
            if id(question) not in refused:
                self.emitter.emit(question, *self.section_meta.get(id(question.section), (None, None)))
        title = self.title or self.path.stem
        description = join(self.description, paragraphs=True)
        while (at := leaked_at(description)) is not None:
            # The page's introduction is what students see first: a labelled line there answers no question.
            lines = description.split("\n")
            self.builder.warn(LOST, f"the page's introduction holds a labelled line ('{short(lines[at].strip(), 30)}'); it answers no "
                                    "question and was left out", self.span(1), hint="put it after the question it answers")
            description = "\n".join(lines[:at] + lines[at + 1:])
        # The page's prose tells its language as a paper's does; a page too short to tell, by the
        # script of its questions' texts, then its labels.
        language = B.front_matter_language(text) or paper_language(text, self.source, self.emitter.texts + [title])
        quiz = self.builder.build(sanitise_id(self.path.stem) or None, title, language,
                                  self.emitter.text(description) or None)
        stated = find_stated_total([title, *description.split("\n")]) if quiz is not None else None
        if quiz is not None and stated is not None:
            # The total the paper states, by the function build's reader uses: the source says 'total:'.
            quiz = quiz.model_copy(update={"stated_points": stated.points})
        if quiz is not None:
            self._section_totals(quiz)
        sink = self.builder.sink
        mine = [d for d in sink.errors if d.span is not None and d.span.path == self.display]
        if quiz is None and any(d.code in (UNCLEAR, UNMATCHED_KEY, *TABLE_CODES) for d in mine):
            # Its questions were refused, each for the reason given: not "nothing to import" as well.
            sink.items[:] = [d for d in sink.items if not (d.code == NO_QUESTIONS and d in mine)]
        return [self.builder.imported(quiz)] if quiz else []

    def span(self, line: int, column: int = 1) -> SourceSpan:
        return SourceSpan(self.display, line, column)

    def column(self, line: int, text: str) -> int:
        """Where ``text`` starts in the page's line (1 when it is not found as written there)."""
        where = self.source[line - 1].find(text[:20]) if 0 < line <= len(self.source) and text else -1
        return where + 1 if where >= 0 else 1

    @property
    def reveal(self) -> str | None:
        """The role of the innermost answer block being read, if any."""
        return next((role for role in reversed(self.details) if role), None)

    def _lines(self, lines: list[tuple[int, str]]) -> None:
        if self.in_scoring:
            for number, raw in lines:
                self._scoring_line(raw.strip(), number)
            return
        for number, raw in lines:
            if self.admonition is not None and raw.strip() and len(raw) - len(raw.lstrip()) < self.admonition:
                self._end_admonition()
            admonition = ADMONITION.match(raw)
            if admonition and self.reveal is None:
                self._admonition(admonition, number)
                continue
            rest = [(n, line) for n, line in enumerate(self.source[number: number + 20], number + 1)]
            for piece in unglue(raw):
                self._one_line(piece.strip(), number, rest)

    def _admonition(self, match: re.Match[str], line: int) -> None:
        """``??? success "Answer"`` (pymdownx's collapsible block, mkdocs-material's admonitions):
        a block of indented lines, an answer block when its title (or its type) says so."""
        kind, title = match.group(3) or "", match.group(4)
        role = reveal_role(title if title is not None else kind)
        if role is None:
            if title:
                self._one_line(title, line, [])
            return
        self.details.append(role)
        self.admonition = len(match.group(1)) + 1
        self._reveal(role, line, title or kind)

    def _end_admonition(self) -> None:
        self.admonition = None
        if self.details and self.details.pop() is not None and self.question is not None:
            self._after_reveal(self.question)

    def _one_line(self, line: str, number: int, rest: list[tuple[int, str]]) -> None:
        q = self.question
        if not line:
            if q is not None and q.current is not None and q.mode == "label":
                q.current.append("")
            return
        if CLOSING_TAGS.fullmatch(line) or self.reveal == "lost":
            # Closing tags alone on a line (a block's end, or a stray one) hold no text; a block
            # that was reported lost (a hint, an answer to no question) is not read.
            return
        wrapped = WRAPPED.fullmatch(line)
        if wrapped and read_label(wrapped.group(2)):
            line = wrapped.group(2)  # "<p>Answer: B</p>": a label all the same
        if self.key.active and S.section_marker(line) is not None and not key_entries(line):
            self.key.active = False  # a key after a section's questions: the next section starts
        if self.key.active:
            self.key.read_line(line, number, self.column(number, line))
            return
        label = read_label(line)
        if TOGGLE.match(line) and not label:
            return
        if self.reveal is None and KEY_TITLE.match(line) and next_is_key(rest):
            self._start_key(number)
            return
        if self.reveal is None and label is not None and label.role == "answer" and len(key_entries(label.value)) > 1:
            # "정답: 1.② 2.① 3.④": the answer key, on one line.
            self._start_key(number)
            self.key.read_line(label.value, number, self.column(number, label.value))
            return
        if self.reveal is None and label is None and KEYS.starts_key(line, after_answer=False):
            # "정답 1.② 2.④", "Answers 1. b 2. a": a key's title and its entries on one line.
            self._start_key(number)
            for entry_number, answer, explanation, offset in KEYS.entries_line(line) or []:
                self.key.add(entry_number, answer, number, explanation, offset + 1)
            return
        if self.reveal is None and self._untitled_key(line):
            self._start_key(number)
            self.key.read_line(line, number, self.column(number, line))
            return
        self._line(line, number, rest)

    def _untitled_key(self, line: str) -> bool:
        """An answer key without a title after the questions: ``1.② 2.① 3.④``, or ``1. ②`` (a
        question whose text would be only an option's marker or O/X is none), numbered again from
        a question already read. Never read as questions."""
        entries = key_entries(line)
        read = self.questions + ([self.question] if self.question is not None else [])
        numbers = [q.number for q in read if q.number is not None]
        if entries and not numbers and self.question is None and S.CIRCLED.match(entries[0][1]):
            return True  # "1. ② (is)" before any question: a key (a paper's answer sheet), never a question "② (is)"
        if not entries or not numbers or entries[0][0] > max(numbers):
            return False
        if len(entries) > 1:
            return True
        answer = entries[0][1]
        refs = S.option_refs(answer)
        return (refs is not None and not answer.strip().isdecimal()) or S.every_truth(answer) is not None

    def _heading(self, heading: B.Heading) -> None:
        self.at_line = heading.line
        if self.reveal is not None:
            self._line(heading.text, heading.line, [])
            return
        self._finish()
        self.in_scoring = bool(SCORING_TITLE.match(heading.text) and self.title is not None and self.questions)
        if self.in_scoring:
            return  # what each question is worth, listed after them
        if KEY_TITLE.match(heading.text) and self.title is not None:
            self._start_key(heading.line)
            return
        if self.key.active and explanations_heading(heading.text):
            self.key.read_line(heading.text, heading.line)  # "## 해설" in the key: its explanations follow
            return
        self.key.active = False
        rest = [(n, line) for n, line in enumerate(self.source[heading.line: heading.line + 20], heading.line + 1)]
        named = QUESTION_HEADING.match(heading.text)
        numbered = question_line(heading.text)
        if self.title is not None and named:
            # "## Question 3" (its text in the paragraph that follows) or "### Q3: What …?".
            self._start(heading.line, named.group(2).strip(), int(named.group(1))).heading = heading.text
        elif (numbered and numbered.number is not None and numbered.text
              and ((self.title is not None and (SENTENCE_END.search(heading.text) or next_is_option(rest)))
                   or _options_below(self.source[heading.line: heading.line + 400]))):
            # "### 3. What …?"; "### 5. 下面程序输出是什么（）" then its code and options, the page's first too.
            self._start(heading.line, numbered.text, numbered.number)
        elif self.title is None:
            self.title = heading.text
        elif not self.questions and self.section is None and _only_stated_total(heading.text):
            self.description.append(heading.text)  # '총점 20점' under the title: the paper's head, read by build (QB219)
        else:
            self._section(heading.text)

    def _block(self, line: int, markdown: str, what: str) -> None:
        """A block (code, a table) where it falls: in the question's text, answer or explanation."""
        q = self.question
        if q is not None and q.current is not None:
            q.current.extend(["", markdown, ""])
            q.end = line + markdown.count("\n")
        elif q is None and self.section is None and not self.key.active:
            self.description.extend(["", markdown, ""])
        else:
            self.builder.warn(LOST, f"{what} at line {line} belongs to no question; skipped", self.span(line))

    def _line(self, line: str, number: int, rest: list[tuple[int, str]]) -> None:
        self.at_line = number
        if number <= self.skip_to:
            return  # the lines of a task reported as read neither way (QB196)
        if self.reveal is None and self._paper_frame(line, number):
            return
        q = self.question
        if q is not None:
            q.end = number
        slot = PAIR_SLOT.match(line)
        if q is not None and slot and q.options and q.mode in ("option", "slot"):
            # A pairing exercise: "( ) text" lines after the numbered items, each to be given an item's number.
            q.pair_slots.append((number, slot.group(1).strip()))
            q.current, q.mode = None, "slot"
            return
        label = read_label(line)
        if label and q is None:
            # An answer before any question: never the page's title or description, which students see.
            self.builder.warn(LOST, f"line {number} ('{short(line, 30)}') answers no question; skipped", self.span(number),
                              hint="put it after the question it answers")
            return
        if label and q is not None:
            q.open(label.role, number)
            q.label_names.setdefault(label.role, label.name)
            assert q.current is not None
            q.current.append(label.value)
            return
        if q is not None and self.reveal is not None:
            if q.current is None or q.mode != "label":
                q.open(self.reveal, number)
            assert q.current is not None
            q.current.append(line)
            return
        if self.reveal is None and self.title is not None and self._task(line, number, q):
            return
        if self.reveal is None and self.title is not None and self._exam_structure(line, number, q):
            return
        if q is not None and not q.answered and self._option(q, line):
            return
        bonus = S.BONUS_QUESTION.match(line)
        if bonus and (q is None or q.answered or q.mode == "label"):
            # ``Bonus (2 points): …``: the next question; its points stay at the end of its text, where
            # points are read.
            self._start(number, bonus.group("text") + (" " + bonus.group("points") if bonus.group("points") else ""))
            return
        task = self.task
        sub = TASKS.sub_question(line, task[0], task[1] + 1) if task else None
        if sub and task:
            # ``2.1 …`` under ``Aufgabe 2``: the task's question 1, read as build reads it (readers/markdown/tasks.py).
            self.task = (task[0], task[1] + 1)
            self._start(number, sub.group("text"), task[1] + 1)
            return
        question = question_line(line)
        # After options, a question line starts the next question even without an answer: the
        # page may key its answers at the end.
        if question and (q is None or q.answered or q.mode != "label"):
            if q is not None and not q.answered and not q.options:
                # A bullet inside a question without options yet: its text went on.
                if join(q.stem) and question.number is None:
                    q.stem.append(question.text)
                    return
            if question.number is not None and question.form not in ("bullet", "page"):
                self.form = self.form or question.form
            self._start(number, question.text, question.number)
            return
        if self.title is None and q is None and not (next_is_option(rest) and not SECTION_LIKE.match(line)):
            # The page's first line is its title, unless its options follow it: then it is the
            # first question (an Aiken-like bank's), which a title would lose, its options shown.
            self.title = line
            return
        if self.reading is not None and (q is None or q.answered):
            self.reading.lines.append(line)  # a shared passage, up to its first question
            return
        if (q is None or q.answered or q.options) and next_is_option(rest) and not SECTION_LIKE.match(line):
            self._start(number, line)  # a question without a number or bullet: its options follow it
            return
        if q is None and self.section is None and (not self._is_heading(line, rest) or _only_stated_total(line)):
            self.description.append(line)  # the paper's head; '총점 20점' too, which build reads (QB219)
            return
        if (q is None or q.answered or _names_a_section(line)) and self._is_heading(line, rest):
            # After a question too when it says what a section holds ("Part II. True or false (1 point
            # each)"): an exam keyed at its end has no answers between its questions.
            self._finish()
            self._section(line)
            return
        shaped = S.structure(line) if q is not None and q.mode == "label" else None
        if shaped:
            self._structure_in_label(line, number, shaped)
            return
        if q is not None and q.mode == "option" and q.options and self._new_paragraph(number):
            # A paragraph after the options, apart from them (a blank line between): no option's text,
            # which students would read. After options the page marks (``- [x] …``) it explains them.
            if q.marked:
                q.open("explanation", number)
                q.label_names.setdefault("explanation", "explanation")
                assert q.current is not None
                q.current.append(line)
                return
            self.builder.warn(LOST, f"line {number} is a paragraph after the options of question '{short(join(q.stem), 30)}' "
                                    "and belongs to none of them; skipped", self.span(number),
                              hint="indent it to continue the last option, or start it with a label such as 'Explanation:'")
            return
        if q is not None and q.current is not None:
            if q.mode == "stem" and (q.box or S.BOX.match(line) or S.ROMAN_STATEMENT.match(line)):
                # A <보기> box and its statements, statements numbered I. II.: each on its own line.
                q.box = q.box or bool(S.BOX.match(line))
                if q.current and q.current[-1]:
                    q.current[-1] = q.current[-1].rstrip() + "  "
                line = line.rstrip() + "  "
            q.current.append(line)
            return
        if q is None and self.section is not None and not self.questions:
            self._describe(line)  # a section's introduction, before its first question
            return
        self.builder.warn(LOST, f"line {number} belongs to no question; skipped", self.span(number))

    # -- exam-paper structure: sections, shared passages, notes -------------------------------------

    def _structure_in_label(self, line: str, number: int, shaped: str) -> None:
        """A line shaped like the paper's structure, in a form read nowhere here, after a question:
        never an answer's or an explanation's text."""
        self.builder.sink.error(STRUCTURE_IN_LABEL, f"'{short(line, 50)}' is shaped like {shaped}, so it is not read as part "
                                "of the question above", self.span(number),
                                hint="if it is the paper's structure, write it as a section heading ('Ⅱ. 단답형', "
                                     "'Part II. Short answer') or a question ('3. ...'); if it is the question's text, "
                                     "join it to the line above")

    def _paper_frame(self, line: str, number: int) -> bool:
        """The paper's frame around its questions: numbered instructions under ``注意事项：`` (the
        description's text), the closing mark ``- 끝 -`` and what follows it. True when taken."""
        if S.closing_mark(line) and not self.closed:
            self._finish()
            self._end_reading()
            self.closed = number
            return True
        if self.closed:
            if not S.structure(line):
                self.builder.sink.error(AFTER_CLOSING, f"line {number} ('{short(line, 30)}') comes after the closing mark on line "
                                        f"{self.closed}, which ends the questions", self.span(number),
                                        hint="move it above the closing mark, into the question it belongs to, or delete it")
                return True
            return False
        if S.points_rule(line) and self.section is not None and self.question is None \
                and not any(q.section is self.section for q in self.questions):
            # ``四、简答题`` then ``（每题5分，共20分）`` on the next line: the section's rule.
            each = S.points_in(line, S.EACH_POINTS)
            assert each is not None
            kind = self.section_meta.get(id(self.section), (None, None))[1]
            self.section_meta[id(self.section)] = (each[0], kind)
            self._keep_exam_rule(line)
            return True
        for shaped, what in ((S.points_rule, "a points rule"), (S.KEY_TITLE.match, "an answer key's title")):
            if self.question is not None and shaped(line):
                # Not followed by a key's entries (a key is read before any line reaches here).
                self._structure_in_label(line, number, what)
                return True
        if self.title is None and self.description and S.section_marker(line) is not None:
            # A section heading after the instructions: the paper's first section, not its title.
            self.title = self.path.stem
        if self.instructions and (number < 2 or not self.source[number - 2].strip() or S.section_marker(line)):
            self.instructions = False  # a blank line or a section ends them
        if self.question is None and not self.questions and S.instruction_title(line):
            self.instructions = True
        if self.instructions and self.question is None and not self.questions:
            if self.description and self.description[-1]:
                self.description[-1] = self.description[-1].rstrip() + "  "
            self.description.append(line + "  ")
            return True
        return False

    def _exam_structure(self, line: str, number: int, q: Question | None) -> bool:
        """A section marker (``Ⅱ. 단답형``, ``[객관식]``, ``■ 서술형``), a shared passage (``[3~4] …``)
        or a note (``※ …``) where an exam paper puts them: read as that, True."""
        after = q is None or q.answered or bool(q.options)
        section = S.section_marker(line, latin=q is None or q.answered)
        if section and (after or line[:1] in V.SECTION_BULLETS + V.OPEN_BRACKETS
                        or S.dialect("en").section_kind(section[0]) or S.points_in(section[0], S.EACH_POINTS)):
            self._finish()
            self._end_reading()
            self._section(section[0])
            return True
        passage = S.passage_marker(line)
        if passage:
            self._finish()
            self._end_reading()
            self.reading = Passage(number, [line], passage[0], passage[1])
            return True
        if S.note_line(line) and (after and (self.questions or q is not None)):
            self._finish()
            self._end_reading()
            self.reading = Passage(number, [line])
            return True
        return False

    def _section_totals(self, quiz: Any) -> None:
        """A heading that states its section's points (``Aufgabe 2 (4 Punkte)``) whose questions add up
        to another number: an error at the heading, as build's QB197 (points not found made a
        question worth 1)."""
        for data, section in zip(self.builder.roots, quiz.sections):
            stated = S.points_in(data["title"])
            line = self.section_lines.get(id(data))
            if stated is None or line is None or section.title != data["title"] or section.select is not None:
                continue
            worth = _section_points(section)
            if worth is None:
                continue
            if worth != stated[0]:
                self.builder.sink.error("QB197", f"the heading '{section.title}' states {stated[0]:g} points, but its questions "
                                                 f"add up to {worth:g}", self.span(line, self.column(line, data["title"]) + stated[1]),
                                        hint="write each question's points as the paper does ('(2 Punkte)', '(2 points)'), or a "
                                             "rule for each ('(je 2 Punkte)', '(2 pts each)') in the heading")

    def _task(self, line: str, number: int, q: Question | None) -> bool:
        """``Aufgabe 2``, ``Exercice 2``, ``Task 2``: a heading over the numbered questions under it, or
        a question, as build reads it from the lines after it (readers/markdown/tasks.py). True when
        the line is taken (a heading, or an error naming both readings)."""
        found = TASKS.task_line(self.source[number - 1]) if line and (q is None or q.answered or q.options) else None
        if found is None:
            return False
        task = TASKS.read_task(self.source, number - 1, int(found.group("number")))
        word = found.group("word")
        if task.reading == "ambiguous":
            self.builder.sink.error("QB196", f"'{word} {task.number}' could be a heading over the numbered lines "
                                             f"{task.subs[0]}–{task.subs[-1]} (each a question) or a question whose parts or "
                                             f"options they are, answered on line {task.answer_line}: the page does not say which",
                                    self.span(number), hint="for a heading, give each numbered question its own answer; for "
                                                            "one question, mark its options 'A) …' or write its parts in its text")
            self._finish()
            self.question, self.skip_to = None, task.answer_line  # read as neither, up to its answer: one error
            return True
        if task.reading == "heading":
            self._finish()
            self._section(line.strip().strip("*_").strip().rstrip(":：").strip())
            return True
        if self.task is not None:
            # ``Exercice 2`` a question after ``Exercice 1`` a heading: its peer, in a section of its own.
            self._finish()
            self._section(f"{word} {task.number}")
        return False

    def _section(self, title: str) -> None:
        """A section of the page, its points per question (``(각 2점)``) read out of its title."""
        self._end_passages()
        each = S.points_in(title, S.EACH_POINTS)
        rule = title[each[1]:each[2]] if each else ""
        if each:
            title = (title[: each[1]] + title[each[2]:]).strip()
        self.section = self.builder.section(title)
        self.section_lines[id(self.section)] = self.at_line
        task = TASKS.task_line(title)
        self.task = (int(task.group("number")), 0) if task else None
        self.section_meta[id(self.section)] = (each[0] if each else None, S.dialect("en").section_kind(title))
        self._keep_exam_rule(rule)

    def _keep_exam_rule(self, rule: str) -> None:
        """A points rule that also prints the exam rule of multiple response (``每小题6分。全部选对得6分，
        选对但不全得3分，有选错的得0分``): its points are read, and the sentence stays as the section's
        introduction, as the paper prints it, where the questions' scoring reads it (emit)."""
        found = S.EXAM_RULE.search(rule)
        if found and self.section is not None:
            self._describe(found.group(0))

    def _describe(self, line: str) -> None:
        """A line of the section's introduction (``※`` instructions keep their line breaks)."""
        assert self.section is not None
        before = self.section.get("description") or ""
        if before and S.note_line(line):
            before = before.rstrip() + "  "
        self.section["description"] = (before + "\n" + line if before else line).strip() if line else before + "\n"

    def _end_reading(self) -> None:
        if self.reading is not None:
            self.passages.append(self.reading)
            self.reading = None

    def _end_passages(self) -> None:
        """Passages whose questions did not all come: reported at their marker."""
        self._end_reading()
        for passage in self.passages:
            if passage.first is None and not passage.seen:
                self.builder.warn(LOST, f"the note at line {passage.line} is followed by no question; it is lost",
                                  self.span(passage.line), hint="put the note right before the question it is about")
            elif passage.first is not None and passage.last is not None:
                missing = [n for n in range(passage.first, passage.last + 1) if n not in passage.seen]
                if missing:
                    self.builder.warn(AMBIGUOUS, f"the passage for questions {passage.first} to {passage.last} is not followed by "
                                                 f"question {missing[0]}; it is shown with the questions of the range that follow it",
                                      self.span(passage.line), hint=f"number the questions after the passage {passage.first} to "
                                                                    f"{passage.last}, or change the range to the questions it is for")
        self.passages = []

    def _option(self, q: Question, line: str) -> bool:
        """An option line of ``q``, in the question's one style: ``A) …``, ``(a) …``, ``a. …``,
        ``① …`` (several on one line too), ``가) …``, ``ㄱ. …``, ``ア) …``, ``i) …``, ``1) …`` and
        ``1. …`` numbering the options of a question (not the next question), ``A - …``, ``- [x] …``."""
        expected = chr(ord("A") + len(q.options)) if len(q.options) < 26 else None
        task = TASK.match(line)
        if task and expected and q.style in (None, "upper-alpha"):
            q.style = q.style or "upper-alpha"
            text = task.group(2).strip()
            own = re.match(rf"^{expected}[.)．]\s+(?=\S)", text, re.I)  # ``- [x] B. 0``: its letter is the box's
            q.add_option(text[own.end():] if own else text)
            if task.group(1).lower() == "x":
                q.marked[expected] = "[x]"
            return True
        marks = S.in_styles(S.option_marks(plain_marker(line), decimal=True), q.style)
        numbered = self._numbered_option(q, line) if not marks or marks[0].style == "decimal" else None
        if numbered is not None:
            marks = [numbered]
        if marks and (marks[0].style == "decimal") and numbered is None:
            marks = []
        if marks and q.options and marks[0].style != q.style and q.style in V.STATEMENT_STYLES and marks[0].ordinal == 1:
            q.fold_options()  # "ㄱ. … ㄴ. …" then "① ㄱ ② ㄱ, ㄴ": the first were the question's statements
        elif marks and q.options and marks[0].style != q.style and marks[0].ordinal == 1 and S.orders_options(
                [plain_marker(line)[m.text_start: m.text_end] for m in marks], [f"({letter})" for letter, _ in q.options]):
            q.fold_options()  # "(A) … (B) … (C) …" then "① (A)-(C)-(B) ② …": the paragraphs, then the orders
        if marks and q.box and not q.options and marks[0].style in V.STATEMENT_STYLES:
            return False  # a statement of the <보기> box, in the question's text
        if marks and self._fits(q, marks[0]):
            q.style = q.style or marks[0].style
            for mark in marks:
                text = plain_marker(line)[mark.text_start: mark.text_end].strip()
                q.add_option(text, mark.ordinal, mark.marker.strip("-*+ ()（）.．)、").upper()
                             if q.style in ("upper-alpha", "lower-alpha") else None)
            return True
        dash = DASH_OPTION.match(line)
        if dash and dash.group(1) == expected and q.style in (None, "upper-alpha"):
            q.style = q.style or "upper-alpha"
            q.add_option(dash.group(2).strip(), letter=dash.group(1))
            return True
        return False

    def _fits(self, q: Question, mark: S.OptionMark) -> bool:
        """Is ``mark`` the question's next option? The first is the first of its order (``A)``,
        ``①``, ``가)``); later ones follow in the same style: letters in any order after the one
        before (a scrape may lose one), other marks one after the other."""
        if not q.options:
            return mark.ordinal == 1 and bool(join(q.stem))
        if mark.style != q.style:
            return False
        if q.style in ("upper-alpha", "lower-alpha"):
            return mark.ordinal > q.ordinals[-1]
        return mark.ordinal == len(q.options) + 1

    def _numbered_option(self, q: Question, line: str) -> S.OptionMark | None:
        """``1. …`` or ``1) …`` under a question, numbering its options (#22): the first ``1`` under a
        question numbered otherwise, then the numbers in order. Not under a page numbered ``1)``
        (its ``1)`` lines are questions), and never a line that can be the next question's."""
        numbered = question_line(plain_marker(line))
        if numbered is None or numbered.number is None or numbered.form not in (".", ")", "page") or not numbered.text:
            return None
        if numbered.form == ")" and self.form == ")":
            return None
        expected = len(q.options) + 1
        if numbered.number != expected or (q.options and q.style != "decimal"):
            return None
        if not q.options and (q.number == 0 or not join(q.stem)):
            return None  # "0. …" then "1. …": the next question
        start = line.find(numbered.text)
        return S.OptionMark("decimal", str(numbered.number), numbered.number, 0, max(start, 0), len(line.rstrip()))

    def _start(self, line: int, stem: str, number: int | None = None) -> Question:
        before = self.question
        if before is not None and not join(before.stem) and not before.options and not before.labels:
            # "## Question 3" then "3. What …?": one question.
            number, self.question = number if number is not None else before.number, None
        elif before is not None:
            before.end = min(before.end, line - 1)
        self._finish()
        self._end_reading()
        if self.section is None:
            self._section(self.title or self.path.stem)
            assert self.section is not None
        previous = self.questions[-1].number if self.questions else None
        implied = number is None and previous is not None
        if number is None and previous is not None:
            number = previous + 1  # a question the page does not number follows the one before
        q = Question(line, [stem] if stem else [], self.section, number, end=line, implied=implied, column=self.column(line, stem))
        q.current = q.stem
        for passage in list(self.passages):
            if passage.first is None or (number is not None and passage.first <= number <= (passage.last or 0)):
                q.passages.append("\n".join(passage.lines).strip())
                passage.seen.add(number or 0)
                if passage.first is None:
                    self.passages.remove(passage)
        self.question = q
        return q

    def _after_reveal(self, q: Question) -> None:
        """Text after an answer block, before the next question, goes on with the explanation (as
        text after an 'Explanation:' line does)."""
        q.current, q.mode = q.labels.setdefault("explanation", []), "label"
        if any(q.current):
            q.current.append("")

    def _new_paragraph(self, number: int) -> bool:
        """Line ``number`` starts a paragraph at the left margin: a blank line above it."""
        line = self.source[number - 1] if 0 < number <= len(self.source) else ""
        return number > 1 and not self.source[number - 2].strip() and line[:1] not in (" ", "\t")

    def _starts_questions(self, rest: list[tuple[int, str]]) -> bool:
        following = next((line.strip() for _, line in rest if line.strip()), "")
        return question_line(following) is not None

    def _is_heading(self, line: str, rest: list[tuple[int, str]]) -> bool:
        """A short line that is not a sentence, followed by a question."""
        return len(line) <= 60 and not SENTENCE_END.search(line) and self._starts_questions(rest)

    def _finish(self) -> None:
        q, self.question = self.question, None
        if q is not None:
            self.questions.append(q)

    # -- HTML ---------------------------------------------------------------------------------------

    def _html(self, event: B.Html) -> None:
        parts = details_parts(event.html)
        if all(kind == "text" for kind, _, _ in parts):
            self._lines([(event.line + i, line) for i, line in enumerate(event.html.split("\n"))])
            return
        kinds = [kind for kind, _, _ in parts]
        # A block whose summary says nothing ("Click me") but whose content is labelled ("Answer: B")
        # hides the answer all the same.
        labelled = any(read_label(line.strip()) for kind, text, _ in parts if kind == "text"
                       for line in re.sub(r"<[^>]*>", "\n", text).split("\n"))
        if (not any(reveal_role(text) for kind, text, _ in parts if kind == "summary") and not self.details
                and kinds.count("open") == kinds.count("close") and not labelled):
            # <details> that hide no answer (<summary>Note</summary>): content of the text where they
            # stand, shown open.
            where = self.span(event.line)
            summary = next(text for kind, text, _ in parts if kind == "summary") if "summary" in kinds else ""
            self.builder.warn(LOST, f"the <details> block '{short(summary)}' at line {event.line} is shown open: a source has no "
                                    "collapsible blocks", where)
            html = opened_details(event.html)
            self._block(event.line, markdown_from_html(self.builder, html, where, "a <details> block")
                        if self.markdown else text_of(html), "a <details> block")
            return
        for kind, text, offset in parts:
            line = event.line + offset
            if kind == "open":
                self.details.append(None)
            elif kind == "summary":
                role = reveal_role(text) or ("answer" if labelled else None)
                if not self.details:  # a <summary> outside any <details> hides nothing
                    role = None
                else:
                    self.details[-1] = role
                if role is not None:
                    self._reveal(role, line, text)
                else:
                    self._lines([(line, text)])  # a summary that hides no answer: part of the text
            elif kind == "close":
                if self.details and self.details.pop() is not None and self.question is not None:
                    self._after_reveal(self.question)
            else:
                self._html_text(text, line)

    def _reveal(self, role: str, line: int, summary: str) -> None:
        q = self.question
        if q is None:
            self.builder.warn(LOST, f"the block '{summary}' at line {line} belongs to no question; its content is skipped",
                              self.span(line), hint="put it right after the question it answers")
            self.details[-1] = "lost"
            return
        if role == "hint":
            self.builder.warn(LOST, f"question '{short(join(q.stem))}': the hint at line {line} is lost (a source has no hints)",
                              self.span(line), hint="add it to the question's text if students should see it")
            self.details[-1] = "lost"
            return
        q.open(role, line)

    def _html_text(self, html: str, line: int) -> None:
        role = self.reveal
        if role == "lost":
            return
        if role is None or self.question is None:
            self._lines([(line + i, text) for i, text in enumerate(html.strip("\n").split("\n"))])
            return
        if WRAPPER_TAG.fullmatch(html.strip()):
            # ``<div markdown="1">`` … ``</div>`` around an answer (kramdown's "Markdown inside"):
            # a wrapper that shows nothing, never part of the answer.
            return
        if re.search(r"<[A-Za-z]", html):
            html = markdown_from_html(self.builder, html, self.span(line), "an answer block") if self.markdown else text_of(html)
        # Code converted from <pre> is one block: its lines are not sentences to break into paragraphs.
        lines = html.strip("\n").split("\n")
        start = 0
        while start < len(lines):
            fence = FENCE_LINE.match(lines[start])
            end = next((i for i in range(start + 1, len(lines)) if fence and lines[i].strip().startswith(fence.group(1))), None)
            if fence and end is not None:
                self._block(line, "\n".join(lines[start:end + 1]), "a code block")
                start = end + 1
                continue
            self._lines([(line, lines[start])])
            start += 1
        self._lines([(line, "")])

    def _html_quiz(self, event: B.HtmlQuiz) -> None:
        found = html_questions(event.html)
        # "## Question 3", its text in a paragraph, then the form of its inputs (static-site quiz
        # plug-ins write that): one question, the form's first its options.
        before = self.question if found and self.question is not None and _awaits_inputs(self.question, found[0].stem) else None
        if before is None:
            self._finish()
        if not found:
            self.builder.warn(LOST, f"the HTML quiz at line {event.line} has no radio buttons or checkboxes: no question read",
                              self.span(event.line))
        for item in found:
            line = event.line + item.line - 1
            where = self.span(line)
            stem = self._converted("".join(item.stem), where, "the question")
            if before is not None:
                stem = "\n\n".join(text for text in (self.emitter.text(join(before.stem), before), stem) if text)
            if item.kind not in ("radio", "checkbox"):
                name = short(stem) or (before.heading if before is not None else "") or "(no text)"
                self.builder.skip(f"HTML {item.kind} input", UNSUPPORTED,
                                  f"question '{name}': an <input type=\"{item.kind}\"> cannot be imported (an HTML page "
                                  "does not say which answers it accepts); skipped", where, hint="write that question by hand")
                if before is not None:  # the question is this input's, and was named skipped
                    self.question = before = None
                continue
            heading = before is not None
            if before is not None:
                q, before = before, None
                q.stem[:] = [stem] if stem else []
            else:
                q = self._start(line, stem)
            q.converted, q.kind = True, f"HTML {item.kind}"
            for index, option in enumerate(item.options):
                letter = chr(ord("A") + index)
                q.add_option(self._converted(option.html, self.span(event.line + option.line - 1), f"option {letter}"))
                if option.markers:
                    q.marked[letter] = option.markers[0]
            self._check_markers(q, item.options, item.kind, where)
            if item.feedback:
                q.labels["explanation"] = [self._converted("\n".join(item.feedback), where, "the feedback")]
            q.end = line
            if heading and item is found[-1]:
                # The heading's question stays open after its form: an answer block or an 'Answer:'
                # line under it is its answer, as under options written as text.
                q.current, q.mode = None, "option"
                continue
            self._finish()

    def _check_markers(self, q: Question, options: list[Any], kind: str, where: SourceSpan) -> None:
        explicit = {chr(65 + i) for i, o in enumerate(options) if set(o.markers) - {"checked"}}
        checked = {chr(65 + i) for i, o in enumerate(options) if "checked" in o.markers}
        if explicit and checked and explicit != checked:
            q.marked = {letter: "data-correct" for letter in sorted(explicit)}
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem))}': the options checked ({', '.join(sorted(checked))}) are not "
                                         f"those marked correct ({', '.join(sorted(explicit))}); the ones marked correct were kept",
                              where, hint="a checked input may be only the page's default selection")
        if kind == "radio" and len(q.marked) > 1:
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem))}': radio buttons take one answer, but {len(q.marked)} "
                                         f"({', '.join(sorted(q.marked))}) are marked correct; imported as multiple response", where)

    def _converted(self, html: str, where: SourceSpan, what: str) -> str:
        if not re.search(r"<[A-Za-z/!]|&\w+;|&#", html):
            return html.strip()
        return markdown_from_html(self.builder, html, where, what).strip()

    def _mkdocs_quiz(self, event: B.MkQuiz) -> None:
        self._finish()
        parsed = mkdocs_quiz(event.lines, event.prefix)
        where = self.span(event.line)
        if parsed.problem:
            self.builder.skip("mkdocs-quiz", INVALID, f"the quiz block at line {event.line} was skipped: {parsed.problem}", where,
                              hint=f"start the block with '{event.prefix}question: ' and list '{event.prefix}answer: ' and "
                                   f"'{event.prefix}answer-correct: ' lines")
            return
        stem = self._converted(parsed.question, where, "the question")
        for number, text in parsed.ignored:
            self.builder.warn(LOST, f"question '{short(stem)}': line {number} is neither '{event.prefix}answer: ' nor "
                                    f"'{event.prefix}answer-correct: ' "
                                    f"(mkdocs-quiz ignores it too): '{short(text)}' is lost", self.span(number))
        q = self._start(event.line, stem)
        q.converted, q.kind = True, "mkdocs-quiz"
        for index, (text, correct, number) in enumerate(parsed.answers[:26]):
            letter = chr(ord("A") + index)
            q.add_option(self._converted(text, self.span(number), f"option {letter}"))
            if correct:
                q.marked[letter] = "answer-correct"
        if parsed.content:
            q.labels["explanation"] = [self._converted(parsed.content, where, "the content")]
        q.end = event.lines[-1][0] if event.lines else event.line
        self._finish()

    def _quiz_tag(self, event: B.QuizTag) -> None:
        """An mkdocs-quiz 1.x block (``<quiz>`` … ``</quiz>``), read as the plugin reads it: Markdown throughout."""
        self._finish()
        parsed = quiz_tag(event.lines)
        where = self.span(event.line)
        if parsed.problem:
            self.builder.skip("mkdocs-quiz", INVALID, f"the quiz block at line {event.line} was skipped: {parsed.problem}", where,
                              hint="write the question, then its answers as '- [x] right' and '- [ ] wrong' lines")
            return
        if self.section is None:
            self._section(self.title or self.path.stem)
            assert self.section is not None
        if parsed.blanks:
            blanks = iter(range(1, len(parsed.blanks) + 1))
            stem = re.sub(r"\[\[([^\]]+)\]\]", lambda m: f"[[b{next(blanks)}]]", parsed.question)
            q = self._start(event.line, parsed.question)
            q.kind, q.end = "mkdocs-quiz", event.lines[-1][0]
            q.ready = {"type": "fill_in_blank", "stem": stem, "feedback": {"general": parsed.content} if parsed.content else {},
                       "blanks": [{"id": f"b{n}", "kind": "text", "answers": [answer]} for n, answer in enumerate(parsed.blanks, 1)]}
            self._finish()
            return
        q = self._start(event.line, parsed.question)
        q.converted, q.kind, q.style = True, "mkdocs-quiz", "upper-alpha"
        for index, (text, correct, feedback, _) in enumerate(parsed.answers[:26]):
            q.add_option(text)
            if correct:
                q.marked[chr(ord("A") + index)] = "- [x]"
            if feedback:
                q.choice_feedback[chr(ord("A") + index)] = feedback
        if parsed.content:
            q.labels["explanation"] = [parsed.content]
        q.end = event.lines[-1][0] if event.lines else event.line
        self._finish()

    # -- tables -------------------------------------------------------------------------------------

    def _table(self, table: B.Table) -> None:
        if not table.rows:  # a header alone is no table a package can hold (QTI wants a body): its lines as text
            self._lines([(table.line + i, line) for i, line in enumerate(table.markdown.split("\n"))])
            return
        named = columns(table.header)
        number, question, answer = named.get("number"), named.get("question"), named.get("answer")
        if answer is not None and question is None and number is None and self.key.active and len(table.header) >= 2:
            number = 0 if answer != 0 else 1
        numbered = question is not None and all(re.fullmatch(r"Q?\d{1,5}\.?", cell(row, question), re.I) for _, row in table.rows)
        if answer is not None and (number is not None or numbered):
            self._finish()
            self.key.start(table.line)
            column = number if number is not None else question
            assert column is not None
            for line, row in table.rows:
                found = re.search(r"\d{1,5}", cell(row, column))
                if found and cell(row, answer):
                    explanation = cell(row, named["explanation"]) if named.get("explanation") is not None else ""
                    self.key.add(int(found.group()), cell(row, answer), line, explanation)
                else:
                    self.builder.warn(LOST, f"the answer key's row at line {line} names no question number; skipped", self.span(line))
            return
        if answer is not None and question is not None:
            self._finish()
            for line, row in table.rows:
                q = self._start(line, cell(row, question))
                q.converted, q.kind, q.end = True, "table row", line
                for letter, index in named["options"]:
                    if cell(row, index):
                        q.add_option(cell(row, index), ord(letter) - ord("A") + 1, letter)
                if cell(row, answer):
                    q.labels["answer"], q.label_lines["answer"] = [cell(row, answer)], line
                if named.get("explanation") is not None and cell(row, named["explanation"]):
                    q.labels["explanation"] = [cell(row, named["explanation"])]
                self._finish()
            return
        if self._option_table(table):
            return
        self._block(table.line, table.markdown, "a table")

    def _scoring_line(self, line: str, number: int) -> None:
        """An entry of a scoring list: ``- Question 2: 3 points``, ``Q2 — 3 pts``, ``2. 3점``."""
        if not line:
            return
        entry = SCORING_ENTRY.match(line)
        value = float(entry.group(2).replace(",", ".")) if entry else None
        if entry is None or value is None:
            self.builder.warn(LOST, f"line {number} of the scoring list ('{short(line, 40)}') names no question and its points; "
                                    "skipped", self.span(number), hint="write one entry a line: '- Question 2: 3 points'")
            return
        self.scoring[int(entry.group(1))] = (value, number)

    def _apply_scoring(self) -> None:
        by_number = {q.number: q for q in self.questions if q.number is not None}
        for number, (points, line) in sorted(self.scoring.items()):
            q = by_number.get(number)
            if q is None:
                self.builder.warn(LOST, f"the scoring list gives question {number} {points:g} points, but the page has no question "
                                        f"{number}; skipped", self.span(line), hint="number the entry as the question is numbered")
                continue
            q.listed_points = points

    def _option_table(self, table: B.Table) -> bool:
        """A question's options set in a table, a row each: a column of letters in order (A, B, C
        or a, b, c; the header is the first row when it is one too) beside the option's text."""
        q = self.question
        if q is None or q.options or q.mode not in (None, "stem"):
            return False
        rows = [(table.line, table.header)] if option_letter(table.header[0] if table.header else "") == "A" else []
        rows += table.rows
        letters = [option_letter(row[0] if row else "") for _, row in rows]
        texts = [" ".join(c.strip() for c in row[1:] if c.strip()) for _, row in rows]
        if len(rows) < 2 or letters != [chr(ord("A") + i) for i in range(len(rows))] or not all(texts):
            return False
        q.style = q.style or "upper-alpha"
        for index, ((line, _), text) in enumerate(zip(rows, texts)):
            q.add_option(text, index + 1, chr(ord("A") + index))
            q.end = line
        return True

    # -- the answer key -----------------------------------------------------------------------------

    def _start_key(self, line: int) -> None:
        self._finish()
        if self.key.entries and not self.key.active and self.questions[self.key_upto:]:
            # A second key, after more questions: the first answered those before it.
            self.section_keys.append((self.key, self.key_upto))
            self.key = AnswerKey(self.builder, self.span)
        self.key_upto = len(self.questions)
        self.key.start(line)


def _awaits_inputs(q: Question, form_stem: list[str]) -> bool:
    """Is ``q`` a question whose inputs come next: read so far only as text, no options, answer or
    anything labelled; and started by a heading (``## Question 3``: one question, whatever text
    its form has too), or one of it and the form's first question without text (a question line
    and a form with a text of its own are two questions, as before)?"""
    return (not q.options and not q.labels and not q.marked and not q.pair_slots and q.ready is None and not q.converted
            and q.mode == "stem" and (bool(q.heading) or not join(q.stem) or not "".join(form_stem).strip()))


def _section_points(section: Any) -> float | None:
    """What a section's questions and subsections are worth; None when a part is drawn at random."""
    total = sum(q.points for q in section.questions if q.type != "text_only")
    for child in section.sections:
        worth = None if child.select is not None else _section_points(child)
        if worth is None:
            return None
        total += worth
    return total


def _options_below(rest: list[str]) -> bool:
    """Options (``A) …``, ``- [x] …``) start a line below a heading, before the next heading."""
    fence = False
    for line in rest:
        text = line.strip()
        if text.startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence:
            continue
        if text.startswith("#"):
            return False
        if first_option(text) is not None or TASK.match(text):
            return True
    return False


def _only_stated_total(text: str) -> bool:
    """A line that is nothing but the paper's stated total ('총점 20점', '（满分100分）'), not a
    section's heading with a total of its own ('Ⅰ. 객관식 (각 3점, 총 15점)')."""
    found = find_stated_total([text])
    return found is not None and found.written == text.strip(" \t()（）[]【】※*")


#: A slot of a pairing exercise: empty parentheses before a text (``( ) Makes proteins``).
#: An opening or closing tag alone, of an element that only wraps what it holds.
WRAPPER_TAG = re.compile(r"</?(?:div|span|section|article|p)\b[^<>]*>", re.I)
PAIR_SLOT = re.compile(r"\(\s*\)\s*(\S.*)$")
#: A heading over a list of what each question is worth, in the languages of vocabulary.py.
SCORING_TITLE = re.compile(r"\s*(scoring|grading|marking|points|marks|mark scheme|pontuação|puntuación|barème|bewertung|punkte|"
                           r"punteggio|배점|채점 기준|配点)\s*:?\s*$", re.I)
#: One entry of it: a question's number, then its points (``- Question 2: 3 points``, ``Q2 — 3 pts``, ``2. 3점``).
SCORING_ENTRY = re.compile(r"[-*+]?\s*(?:[^\W\d]+\.?\s*)?(\d{1,5})\s*(?:[:.)=]|[-–—])?\s*(\d+(?:[.,]\d+)?)\s*[^\W\d]*\.?\s*$")


