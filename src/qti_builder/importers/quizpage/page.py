"""Reading a quiz page's blocks into questions: the lines of its paragraphs one by one (questions,
options, labels, toggles), its code fences, tables and HTML where they fall, and an answer key at
the end applied to the questions it numbers."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from ...diagnostics import DiagnosticSink, SourceSpan
from ..base import INVALID, LOST, UNSUPPORTED, ImportedQuiz, QuizBuilder, guess_language, markdown_from_html, sanitise_id
from . import blocks as B
from .emit import Emitter
from .html import details_parts, html_questions, mkdocs_quiz, opened_details, reveal_role, text_of
from .keys import AnswerKey
from .syntax import (ADMONITION, AMBIGUOUS, CIRCLED_OPTION, CLOSING_TAGS, DASH_OPTION, FENCE_LINE, KEY_TITLE, LABEL, LABELS,
                     OPTION, QUESTION, QUESTION_HEADING, Question, SECTION_LIKE, SENTENCE_END, TASK, TOGGLE, WRAPPED, cell,
                     columns, join, leaked_at, next_is_key, next_is_option, short, unglue)

Data = dict[str, Any]


class Page:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, markdown: bool) -> None:
        self.path, self.display, self.markdown = path, display, markdown
        self.builder = QuizBuilder(display, sink)
        self.title: str | None = None
        self.description: list[str] = []
        self.section: Data | None = None
        self.question: Question | None = None
        self.questions: list[Question] = []
        #: The role of the ``<details>`` block being read (answer, explanation, hint), innermost last.
        self.details: list[str | None] = []
        #: The answer key at the end of the page, if it has one.
        self.key = AnswerKey(self.builder, self.span)
        self.emitter = Emitter(self.builder, self.span, markdown)
        self.source: list[str] = []
        #: The indentation an answer admonition's lines have (``??? "Answer"``), while one is read.
        self.admonition: int | None = None

    # -- the page's blocks ------------------------------------------------------------------------

    def read(self, text: str) -> list[ImportedQuiz]:
        self.source = text.split("\n")
        title, events = B.events(text, self.markdown)
        self.title = title
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
            else:
                self._mkdocs_quiz(event)
        self._finish()
        self.key.apply(self.questions)
        for question in self.questions:
            self.emitter.emit(question)
        title = self.title or self.path.stem
        description = join(self.description, paragraphs=True)
        while (at := leaked_at(description)) is not None:
            # The page's introduction is what students see first: a labelled line there answers no question.
            lines = description.split("\n")
            self.builder.warn(LOST, f"the page's introduction holds a labelled line ('{short(lines[at].strip(), 30)}'); it answers no "
                                    "question and was left out", self.span(1), hint="put it after the question it answers")
            description = "\n".join(lines[:at] + lines[at + 1:])
        quiz = self.builder.build(sanitise_id(self.path.stem) or None, title, guess_language(self.emitter.texts + [title]),
                                  self.emitter.text(description) or None)
        return [self.builder.imported(quiz)] if quiz else []

    def span(self, line: int) -> SourceSpan:
        return SourceSpan(self.display, line, 1)

    @property
    def reveal(self) -> str | None:
        """The role of the innermost answer block being read, if any."""
        return next((role for role in reversed(self.details) if role), None)

    def _lines(self, lines: list[tuple[int, str]]) -> None:
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
        if wrapped and LABEL.match(wrapped.group(2)):
            line = wrapped.group(2)  # "<p>Answer: B</p>": a label all the same
        if self.key.active:
            self.key.read_line(line, number)
            return
        if TOGGLE.match(line) and not LABEL.match(line):
            return
        if self.reveal is None and KEY_TITLE.match(line) and next_is_key(rest):
            self._start_key(number)
            return
        self._line(line, number, rest)

    def _heading(self, heading: B.Heading) -> None:
        if self.reveal is not None:
            self._line(heading.text, heading.line, [])
            return
        self._finish()
        if KEY_TITLE.match(heading.text) and self.title is not None:
            self._start_key(heading.line)
            return
        self.key.active = False
        rest = [(n, line) for n, line in enumerate(self.source[heading.line: heading.line + 20], heading.line + 1)]
        named = QUESTION_HEADING.match(heading.text)
        numbered = QUESTION.match(heading.text)
        if self.title is not None and named:
            # "## Question 3" (its text in the paragraph that follows) or "### Q3: What …?".
            self._start(heading.line, named.group(2).strip(), named.group(1))
        elif (self.title is not None and numbered and (numbered.group(1) or numbered.group(2))
              and (SENTENCE_END.search(heading.text) or next_is_option(rest))):
            self._start(heading.line, numbered.group(3).strip(), numbered.group(1) or numbered.group(2))  # "### 3. What …?"
        elif self.title is None:
            self.title = heading.text
        else:
            self.section = self.builder.section(heading.text)

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
        q = self.question
        if q is not None:
            q.end = number
        label = LABEL.match(line)
        if label and q is None:
            # An answer before any question: never the page's title or description, which students see.
            self.builder.warn(LOST, f"line {number} ('{short(line, 30)}') answers no question; skipped", self.span(number),
                              hint="put it after the question it answers")
            return
        if label and q is not None:
            q.open(LABELS[label.group(1).lower()], number)
            assert q.current is not None
            q.current.append(label.group(2).strip())
            return
        if q is not None and self.reveal is not None:
            if q.current is None or q.mode != "label":
                q.open(self.reveal, number)
            assert q.current is not None
            q.current.append(line)
            return
        if q is not None and not q.answered and self._option(q, line):
            return
        question = QUESTION.match(line)
        # After options, a question line starts the next question even without an answer: the
        # page may key its answers at the end.
        if question and (q is None or q.answered or q.mode != "label"):
            if q is not None and not q.answered and not q.options:
                # A bullet inside a question without options yet: its text went on.
                if join(q.stem) and not (question.group(1) or question.group(2)):
                    q.stem.append(question.group(3).strip())
                    return
            self._start(number, question.group(3).strip(), question.group(1) or question.group(2))
            return
        if self.title is None:
            self.title = line
            return
        if (q is None or q.answered or q.options) and next_is_option(rest) and not SECTION_LIKE.match(line):
            self._start(number, line)  # a question without a number or bullet: its options follow it
            return
        if q is None and self.section is None and not self._is_heading(line, rest):
            self.description.append(line)
            return
        if (q is None or q.answered) and self._is_heading(line, rest):
            self._finish()
            self.section = self.builder.section(line)
            return
        if q is not None and q.current is not None:
            q.current.append(line)
            return
        self.builder.warn(LOST, f"line {number} belongs to no question; skipped", self.span(number))

    def _option(self, q: Question, line: str) -> bool:
        """An option line of ``q``: ``A) …``, ``(a) …``, ``a. …``, ``A - …``, ``- [x] …``."""
        expected = chr(ord("A") + len(q.options)) if len(q.options) < 8 else None
        task = TASK.match(line)
        if task and expected:
            q.options.append((expected, [task.group(2).strip()]))
            if task.group(1).lower() == "x":
                q.marked[expected] = "[x]"
            q.current, q.mode = q.options[-1][1], "option"
            return True
        circled = CIRCLED_OPTION.match(line)
        if circled and expected and "①②③④⑤⑥⑦⑧".index(circled.group(1)) == len(q.options):
            q.options.append((expected, [circled.group(2).strip()]))
            q.current, q.mode = q.options[-1][1], "option"
            return True
        option = OPTION.match(line)
        dash = DASH_OPTION.match(line)
        if dash and dash.group(1) == expected and not option:
            option = dash
        if option and (option is not dash or dash is None or dash.group(1) == expected):
            q.options.append((option.group(1).upper(), [option.group(2).strip()]))
            q.current, q.mode = q.options[-1][1], "option"
            return True
        return False

    def _start(self, line: int, stem: str, number: str | None = None) -> Question:
        before = self.question
        if before is not None and not join(before.stem) and not before.options and not before.labels:
            # "## Question 3" then "3. What …?": one question.
            number, self.question = number or (str(before.number) if before.number else None), None
        elif before is not None:
            before.end = min(before.end, line - 1)
        self._finish()
        if self.section is None:
            self.section = self.builder.section(self.title or self.path.stem)
        previous = self.questions[-1].number if self.questions else None
        implied = number is None and previous is not None
        if number is None and previous is not None:
            number = str(previous + 1)  # a question the page does not number follows the one before
        q = Question(line, [stem], self.section, int(number) if number else None, end=line, implied=implied)
        q.current = q.stem
        self.question = q
        return q

    def _after_reveal(self, q: Question) -> None:
        """Text after an answer block, before the next question, goes on with the explanation (as
        text after an 'Explanation:' line does)."""
        q.current, q.mode = q.labels.setdefault("explanation", []), "label"
        if any(q.current):
            q.current.append("")

    def _starts_questions(self, rest: list[tuple[int, str]]) -> bool:
        following = next((line.strip() for _, line in rest if line.strip()), "")
        return bool(QUESTION.match(following))

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
        labelled = any(LABEL.match(line.strip()) for kind, text, _ in parts if kind == "text"
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
        self._finish()
        found = html_questions(event.html)
        if not found:
            self.builder.warn(LOST, f"the HTML quiz at line {event.line} has no radio buttons or checkboxes: no question read",
                              self.span(event.line))
        for item in found:
            line = event.line + item.line - 1
            where = self.span(line)
            stem = self._converted("".join(item.stem), where, "the question")
            if item.kind not in ("radio", "checkbox"):
                self.builder.skip(f"HTML {item.kind} input", UNSUPPORTED,
                                  f"question '{short(stem) or '(no text)'}': an <input type=\"{item.kind}\"> cannot be imported (an HTML page "
                                  "does not say which answers it accepts); skipped", where, hint="write that question by hand")
                continue
            q = self._start(line, stem)
            q.converted, q.kind = True, f"HTML {item.kind}"
            for index, option in enumerate(item.options):
                letter = chr(ord("A") + index)
                q.options.append((letter, [self._converted(option.html, self.span(event.line + option.line - 1), f"option {letter}")]))
                if option.markers:
                    q.marked[letter] = option.markers[0]
            self._check_markers(q, item.options, item.kind, where)
            if item.feedback:
                q.labels["explanation"] = [self._converted("\n".join(item.feedback), where, "the feedback")]
            q.end = line
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
            q.options.append((letter, [self._converted(text, self.span(number), f"option {letter}")]))
            if correct:
                q.marked[letter] = "answer-correct"
        if parsed.content:
            q.labels["explanation"] = [self._converted(parsed.content, where, "the content")]
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
                        q.options.append((letter, [cell(row, index)]))
                if cell(row, answer):
                    q.labels["answer"], q.label_lines["answer"] = [cell(row, answer)], line
                if named.get("explanation") is not None and cell(row, named["explanation"]):
                    q.labels["explanation"] = [cell(row, named["explanation"])]
                self._finish()
            return
        self._block(table.line, table.markdown, "a table")

    # -- the answer key -----------------------------------------------------------------------------

    def _start_key(self, line: int) -> None:
        self._finish()
        self.key.start(line)
