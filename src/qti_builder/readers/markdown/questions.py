"""Second pass: one question draft -> plain model data, by kind (one builder per kind, in a table).

Every problem is reported at its line and column; the model validates the result once more.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...diagnostics import DiagnosticSink, SourceSpan, shorten
from ... import vocabulary as V
from ...kinds import KindTable, resolve
from ...i18n import true_false_labels
from ..base import Loc, SourceMap, suggest
from . import syntax as S
from .blocks import Block, Label, Option, Question


class QuestionBuilder:
    def __init__(self, source: SourceMap, sink: DiagnosticSink, defaults: dict[str, Any], language: str = "en") -> None:
        self.source = source
        self.sink = sink
        self.defaults = defaults
        self.dialect = S.dialect(language)
        #: True/false words of ``type=true_false``: every language's, and the quiz language's own
        #: labels (``Vrai``, ``Faux``).
        true_label, false_label = true_false_labels(language)
        self.true_words = S.TRUE_WORDS + (true_label.lower(),)
        self.false_words = S.FALSE_WORDS + (false_label.lower(),)

    def warning(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.warning(code, message, SourceSpan(self.source.path, line, column), hint)

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.error(code, message, SourceSpan(self.source.path, line, column), hint)

    def build(self, q: Question, loc: Loc) -> dict[str, Any]:
        self.source.at(loc, q.line)
        self.source.numbers[loc] = q.number  # as the paper prints it, for the outline
        self._each_part: float | None = None
        stated = self._stem_points(q)
        self._sub_questions(q)
        stem = q.stem.text()
        data: dict[str, Any] = {"id": "q" + digest(stem), "stem": stem}
        self.source.text_at(loc + ("stem",), q.stem.line, q.stem.column, q.stem.written())
        if not stem:
            self.error("QB130", "the question has no text", q.line, hint="write the question after the number: '1. What is ...?'")
        passage = "\n\n".join(block.text() for block in q.passages if block.text())
        if passage:
            data["passage"] = passage
            self.source.text_at(loc + ("passage",), q.passages[0].line, q.passages[0].column,
                                [w for block in q.passages for w in block.written()])
        if q.refused:
            self.source.unread.add(q.line)  # its form's reader said why (a matching table's row): left out
            return data
        hidden = self._hidden_labels(q)
        reading = Reading()
        kind = q.kind or self._infer(q, reading, report=not hidden and not q.misplaced)
        if q.kind is None and kind not in (None, "fill_in_blank"):
            self._visible_blanks(q)
        if kind is None:
            return data
        if kind not in S.KIND_ATTRIBUTES:
            value, col = q.attrs["type"]
            self.error("QB131", f"unknown question type '{value}'{suggest(value, list(S.KIND_ATTRIBUTES))}", q.line, col,
                       hint=f"types: {', '.join(S.KIND_ATTRIBUTES)}")
            return data
        data["type"] = kind
        for key, (value, col) in q.attrs.items():
            if key not in S.COMMON_ATTRIBUTES + S.KIND_ATTRIBUTES[kind]:
                self.error("QB109", f"attribute '{key}' does not apply to {kind} questions", q.line, col,
                           hint=f"attributes of {kind}: {', '.join(S.COMMON_ATTRIBUTES + S.KIND_ATTRIBUTES[kind])}")
                continue
            data[key] = [t.strip() for t in value.split(",") if t.strip()] if key in S.LIST_ATTRIBUTES else value
            self.source.at(loc + (key,), q.line, col)
        self._points(q, kind, stated, loc, data)
        if kind == "multiple_response":
            _exam_rule(q, data)
        for key, value in self.defaults.items():
            if key in S.COMMON_ATTRIBUTES + S.KIND_ATTRIBUTES[kind] and kind != "text_only":
                data.setdefault(key, value)
        self._feedback(q, loc, data)
        self._check_labels(q, kind)
        self._attribute_like_answers(q, kind)
        if not hidden:
            if reading.data:
                data.update(reading.data)
            if reading.stem is not None:
                data["stem"] = reading.stem
            if not reading.complete:
                BUILDERS[kind](self, q, loc, data)
            if kind == "true_false" and "answer" in data:
                self._true_false_marks(q, data)
        if self._each_part is not None and data.get("points") == self._each_part:
            data["points"] = S.parts_points(self._each_part, data)  # ``（各３点）``: each blank or pair
        self._grading(q, kind, loc, data)
        if q.kind is None and kind == "essay":
            self._doubtful_essay(q)
        return data

    # -- exam-paper forms -------------------------------------------------------------------------

    def _stem_points(self, q: Question) -> tuple[float, int, int] | None:
        """Points written in the question's first line, ``(3점)``, ``[2점]``, ``(3 points)``: read
        and taken out of the text (the last line of the text when the first has none)."""
        found = S.take_points(q.stem.lines)
        if found is None:
            return None
        value, index, offset, each = found
        if each:
            self._each_part = value
        return value, q.stem.line + index, (q.stem.column if index == 0 else 1) + offset

    def _points(self, q: Question, kind: str, stated: tuple[float, int, int] | None, loc: Loc, data: dict[str, Any]) -> None:
        """The points: ``points=`` on the question line, else those written in its text, else its
        section's ``(각 2점)``, else the front matter's."""
        if stated is None:
            each = _section_points(q.section)
            if each is not None and "points" not in data and kind != "text_only":
                data["points"] = each
            return
        value, line, column = stated
        if "points" in data:
            given = data["points"]
            try:
                same = float(given) == value
            except ValueError:
                same = False
            if not same:
                self.error("QB184", f"the question's text says it is worth {value:g} points, but its points= says {given}",
                           line, column, hint="keep one of the two: remove the points from the text or the points= attribute")
            return
        data["points"] = value
        self.source.at(loc + ("points",), line, column)

    def _sub_questions(self, q: Question) -> None:
        """Options that are parts of the question, not choices: ``(1) ... (2) ...`` in a question
        whose answer is a model answer (``모범답안:``), or that is typed as another kind than a
        choice question. They go back into the question text, each on its own line. Letters
        (``A)``) stay options, and a type without options reports them (QB132)."""
        if not q.options or q.options[0].style in ("upper-alpha",):
            return
        answer = q.label("answer")
        model = answer is not None and answer.name.lower() in self.dialect.model_answer_labels
        typed = q.kind is not None and q.kind not in S.OPTION_KINDS
        if model or typed:
            lines = [text for _, text in q.option_lines]
            if q.stem.lines and q.stem.lines[-1].strip():
                q.stem.lines[-1] = q.stem.lines[-1].rstrip() + "  "
            q.stem.lines.extend(line.rstrip() + "  " if line.strip() and not line[:1].isspace() else line for line in lines)
            q.options.clear()
            q.option_lines.clear()

    def _true_false_marks(self, q: Question, data: dict[str, Any]) -> None:
        answer = q.label("answer")
        data["stem"], marks = true_false_marks(data["stem"], answer.block.text() if answer else "", self.dialect)
        if marks:
            data["labels"] = list(marks)

    def _grading(self, q: Question, kind: str, loc: Loc, data: dict[str, Any]) -> None:
        """A marking scheme (``채점 기준:``) goes to the graders with the model answer."""
        scheme = q.label("grading")
        if scheme is None or not scheme.block.text():
            return
        if kind not in ("essay", "file_upload"):
            self.error("QB185", f"a marking scheme ('{scheme.name}:') goes to graders, which only essay and file-upload "
                       f"questions have, not {_article(kind)} {kind} question", scheme.line, scheme.column,
                       hint="move it into the model answer of an essay question, or into 'Explanation:' to show it to "
                            "students after they answer")
            return
        data["model_answer"] = with_marking_scheme(data.get("model_answer"), scheme.name, scheme.block.text())
        self.source.text_at(loc + ("model_answer",), scheme.line, scheme.column, scheme.block.written())

    def _attribute_like_answers(self, q: Question, kind: str) -> None:
        """``Answer: int() {score=50}``: attributes are read on question and option lines only, so
        on an answer line they would become part of the answer."""
        for label in q.labels:
            if label.role != "answer" or kind not in ("short_answer", "essay", "file_upload"):
                continue  # a choice, true/false or numerical answer with them cannot be read (QB125, ...)
            value = label.block.lines[0] if label.block.lines else ""
            found = S.ATTRS.search(value)
            if not found:
                continue
            items = [m for m in S.ATTR.finditer(found.group(1))]
            known = S.QUESTION_ATTRIBUTES + S.OPTION_ATTRIBUTES
            if items and all(m.group(1) or (m.group(2) or m.group(5) or "") in known for m in items):
                column = label.block.column + found.start() + (len(found.group(0)) - len(found.group(0).lstrip()))
                score = next((m.group(4) or m.group(3) for m in items if m.group(2) == "score"), None)
                how = (f"a score goes in the label: '{label.name} ({score}%): {value[: found.start()].strip()}'" if score
                       else "attributes go at the end of the question line")
                self.error("QB183", f"'{found.group(0).strip()}' looks like attributes, but on an answer line it would "
                           "be part of the answer", label.line, column, hint=how + "; to keep the braces, write '\\{'")

    # -- shared -----------------------------------------------------------------------------------

    def _infer(self, q: Question, reading: "Reading", report: bool = True) -> str | None:
        if q.judged:
            return "matching"  # statements judged ○/× (:meth:`.Scanner._judged_statements`)
        answers = q.labels_of("answer")
        if q.options:
            chain = self._option_chain(q, answers[0]) if len(answers) == 1 else None
            if chain is not None:
                # ``가. ... 나. ...`` and ``정답: 나 → 가``: the options are the items to put in order.
                reading.data, reading.complete = {"items": chain}, True
                reading.stem = q.stem.text()
                q.options.clear()
                return "ordering"
            if not answers:
                return "multiple_response" if len(_bold_options(q)) > 1 else "single_choice"
            return "single_choice" if len(self._letters(q, answers[0], report=False)) <= 1 else "multiple_response"
        if q.items:
            return None
        if not answers:
            if report:
                self.error("QB128", "the question has no options and no answer", q.line, hint=_missing_type_hint(q))
            return None
        if len(answers) > 1:
            # Several answers: a short answer's, in a section of short answers (else QB116 says one).
            return "short_answer" if _implied_kind(q) == "short_answer" else "essay"
        if S.BLANK.search(q.stem.text()):
            return "essay"  # its [[...]] are reported (QB174): students would see them
        answer = answers[0]
        value = answer.block.text()
        model = answer.name.lower() in self.dialect.model_answer_labels
        kind, code = classify(value, q.stem.lines, self.dialect, _implied_kind(q), model)
        if kind == "matching":
            return self._exam_pairs(q, answer, reading, report, "matching")
        if kind == "ordering":
            return self._exam_pairs(q, answer, reading, report, "ordering")
        if kind == "fill_in_blank":
            return self._exam_blanks(q, answer, reading, report)
        if code and code != "QB171" and report:
            self._untyped_error(code, q, answer, value)
            return None
        return kind

    def _untyped_error(self, code: str, q: Question, answer: Label, value: str) -> None:
        # Its type is not known: the question is left out like one an error lies in, even when
        # the answer came from a key lines below it (the model said "question 'q57c27ab2' has no
        # 'type'" besides, of an id the author never wrote).
        self.source.unread.add(q.line)
        text = shorten(value, 40)
        at = (answer.line, answer.block.column)
        keep = "; to keep an essay with this model answer, add {type=essay}"
        if code == "QB172":
            self.error(code, f"the answer '{text}' means true or false in another language than the quiz's, so the "
                       "question's type is not clear", *at,
                       hint="add {type=true_false} to the question line, or set the quiz's 'language:'" + keep)
        elif code == "QB173":
            if _LETTER.fullmatch(S.bare(value)) or S.option_refs(value, self.dialect.and_words):
                # From a key, lines away from the question: which question it is, by its number and line.
                which = f" to question {q.number} (line {q.line})" if answer.keyed else ""
                that = "that" if answer.keyed else "the"
                self.error(code, f"the answer '{text}'{which} names an option, but {that} question has no options", *at,
                           hint="write each option at the left margin as 'A) text' or '① text' (not indented, one "
                                "style per question)" + keep)
            else:
                self.error(code, f"the answer '{text}' is one of the items listed in the question, but they are not "
                           "options, so the question's type is not clear", *at,
                           hint="write each option at the left margin as 'A) text' and give its letter: 'Answer: B'" + keep)
        elif code == "QB175" and (united := _NUMBER_WITH_UNIT.match(value)):
            # ``答え：1024(KiB)``: a number with its unit, which the LMSs grade as the number.
            number, unit = united.group(1), united.group(2)
            attributes = "{type=numerical unit=" + unit + "}"  # one placeholder of the catalogs: never nested braces
            self.error(code, f"the answer '{text}' is a number with its unit: say whether students type the number "
                       "(graded as a number) or write an essay (graded by hand)", *at,
                       hint=f"to grade the number, add {attributes} to the question line and write the "
                            f"answer '{number}' (Moodle accepts it with or without the unit; Canvas and QTI 2.1 grade the "
                            "number); or add {type=essay} to make it an essay's model answer")
        elif code == "QB175":
            own = V.examples(self.dialect.language)  # examples in the quiz's language
            (one, other), section = own.alternatives, own.short_answer_section
            self.error(code, f"the answer '{text}' is a word or a short phrase: say whether students type it (a short "
                       "answer, graded automatically) or write an essay (graded by hand)", *at,
                       hint="add {type=short_answer} to the question line (several accepted answers on one line: "
                            f"'{one}, {other}' or '{one} {own.or_word} {other}'), or {{type=essay}} to make it an essay's model "
                            f"answer; in a section titled '{section or 'Short answer'}' questions are short answers")
        elif code == "QB156":
            self.error(code, "this question is one row of a two-column matching table (a term, then a lettered "
                       "description) with no other row beside it: alone, it shows students one description and asks "
                       "for another's letter", q.line, 1,
                       hint="write the table's other rows under it, one item a line ('8) ____ Meiosis⇥C. ...'), each "
                            "answered in the key or under it; or write one matching question: '{type=matching}' and a "
                            "row '- Mitosis -> Division that makes two identical cells' per term")
        elif code == "QB176":
            self.error(code, f"the question text has blanks, but the answer '{text}' does not say which blank each "
                       "word fills", *at,
                       hint="write the answers in the blanks, '[[answer]]', and add {type=fill_in_blank}"
                            + ("; for blanks named ㉠, ㉡, write '정답: ㉠ 이성계, ㉡ 정도전'" if self.dialect.language == "ko" else ""))
        elif code == "QB177":
            self.error(code, f"the answer '{text}' matches or orders items, but they cannot be read from the question",
                       *at, hint="for matching write '(가) 김소월 ･ ･ ㉠ 진달래꽃' lines and '정답: (가)-㉠, (나)-㉡'; for "
                                 "ordering write '(가) ...' lines and '정답: (나) → (가) → (다)'; or use {type=matching} "
                                 "or {type=ordering} with '- ' lists (docs/source-format.md#exam-paper-conventions)")

    def _exam_blanks(self, q: Question, answer: Label, reading: "Reading", report: bool) -> str | None:
        found = exam_blanks(q.stem.text(), answer.block.text(), self.dialect)
        if found is None:
            if report:
                self._untyped_error("QB176", q, answer, answer.block.text())
            return None
        reading.stem = found
        answer.block.lines[:] = []  # the answer is in the blanks now
        return "fill_in_blank"

    def _exam_pairs(self, q: Question, answer: Label, reading: "Reading", report: bool, kind: str) -> str | None:
        """A matching (``(가) ･ ･ ㉠``) or ordering (``(나) → (가)``) question as exams print it."""
        found = (exam_matching if kind == "matching" else exam_ordering)(q.stem.lines, answer.block.text())
        if found is None:
            if report:
                self._untyped_error("QB177", q, answer, answer.block.text())
            return None
        reading.data, kept = found
        reading.stem = Block(q.stem.line, q.stem.column, kept).text()
        reading.complete = True
        return kind

    def _option_chain(self, q: Question, answer: Label) -> list[str] | None:
        """``정답: 가 → 나 → 다`` after options ``가. 나. 다.``: the options are items to order."""
        chain = arrow_chain(answer.block.text())
        if chain is None:
            return None
        by_name = {S.option_label(o.style, o.ordinal).strip("()"): o for o in q.options}
        by_name.update({o.marker.strip("().．) "): o for o in q.options})
        if sorted(set(chain)) != sorted({S.option_label(o.style, o.ordinal).strip("()") for o in q.options}) \
                or len(chain) != len(q.options) or any(c not in by_name for c in chain):
            return None
        return [by_name[c].text.text() for c in chain]

    def _visible_blanks(self, q: Question) -> None:
        """``[[answer]]`` in a question whose type was guessed: without type=fill_in_blank the
        brackets stay in the text, and students see the answer."""
        for line, column, match in _blanks_in_text(q.stem):
            self.error("QB174", f"the question text has the blank [[{shorten(match.group(1), 40)}]], but the question is not a "
                       "fill-in-the-blank question, so students would see the answer", line, column,
                       hint="add {type=fill_in_blank} to the question line (and remove its options and 'Answer:')")
            return

    def _hidden_labels(self, q: Question) -> bool:
        """Report labels indented into text students see, when the question lacks that block (else
        the indented line is the author's own text). True when the answer is among them."""
        hidden = False
        reported: set[str] = set()
        for h in q.hidden:
            if q.label(h.role) is not None or h.role in reported:
                continue
            reported.add(h.role)
            visible = "" if h.where.startswith("part of the '") else ", which students see"
            if h.how == "bold":
                self.error("QB148", f"'{h.name}' in bold or italics is not read as a label, so it is {h.where}{visible}",
                           h.line, h.column, hint=f"write '{h.name}:' plainly at the left margin, without '*' or '_'")
            elif h.how == "colon":
                self.error("QB148", f"'{h.name}' without a colon is not read as a label, so it is {h.where}{visible}",
                           h.line, h.column, hint=f"write '{h.name}:' with a colon, at the left margin")
            else:
                self.error("QB148", f"'{h.name}:' is indented, so it is {h.where}{visible}", h.line, h.column,
                           hint=f"start '{h.name}:' at the left margin to make it the question's own block; "
                                f"to show the words to students, write '{h.name}\\:'")
            hidden = hidden or h.role == "answer"
        return hidden

    def _doubtful_essay(self, q: Question) -> None:
        """An essay the reader guessed from an answer that is a number: said, as a warning."""
        answer = q.label("answer")
        if answer is None or not S.NUMERIC_ANSWER.match(S.ascii_number(S.bare(answer.block.text()))):
            return
        if answer.name.lower() in self.dialect.model_answer_labels:
            return
        text = shorten(answer.block.text(), 40)
        self.warning("QB171", f"the answer '{text}' is a number, but the question is read as an essay with it as the "
                     "model answer", answer.line, answer.block.column,
                     hint="add {type=numerical} to the question line to grade the number; to keep an essay with this "
                          "model answer, add {type=essay}")

    def _feedback(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        keys = {"explanation": "general", "correct": "correct", "incorrect": "incorrect", "partially_correct": "partially_correct"}
        feedback = {}
        for role, key in keys.items():
            label = q.label(role)
            if label and label.block.text():
                feedback[key] = label.block.text()
                self.source.text_at(loc + ("feedback", key), label.line, label.block.column, label.block.written())
        if feedback:
            data["feedback"] = feedback

    def _check_labels(self, q: Question, kind: str) -> None:
        answers = q.labels_of("answer")
        if len(answers) > 1 and kind not in S.MULTI_ANSWER_KINDS:
            self.error("QB116", f"a second answer in {_article(kind)} {kind} question, which takes one", answers[1].line,
                       answers[1].column, hint="keep one 'Answer:' line; several are for {type=short_answer} and "
                                               "{type=numerical}; if a new question starts above this line, number it")
        for label in answers:
            if label.score is not None and kind not in S.MULTI_ANSWER_KINDS:
                self.error("QB137", "a score in the answer label applies only to short_answer and numerical questions",
                           label.line, label.column, hint="write 'Answer:' without the '(N%)', or change the type")
            if label.feedback is not None and kind not in S.MULTI_ANSWER_KINDS:
                self.error("QB137", "feedback under an answer applies only to short_answer and numerical questions",
                           label.feedback.line, label.feedback.column,
                           hint="use 'Explanation:', 'Correct feedback:' or 'Incorrect feedback:' instead")
        if answers and kind in S.ITEM_KINDS and q.kind is not None:  # (an exam's pairs or order are read from it)
            self.error("QB129", f"{_article(kind)} {kind} question has no 'Answer:': its list is the answer",
                       answers[0].line, answers[0].column, hint="remove the answer block: write the list itself in the right order or pairs")
        if q.options and kind not in S.OPTION_KINDS:
            self.error("QB132", f"{_article(kind)} {kind} question has no options", q.options[0].line,
                       hint="remove the options, or change the type attribute")
        if q.items and kind not in S.ITEM_KINDS:
            self.error("QB132", f"{_article(kind)} {kind} question has no list of items", q.items[0].line,
                       hint="remove the list, or change the type attribute to matching or ordering")

    def _letters(self, q: Question, answer: Label, report: bool = True) -> list[str]:
        """The ids of the options an answer names, by the markers the question's options use:
        ``B``, ``A, C``, ``③``, ``②, ④``, ``3번``, ``ㄱ, ㄷ``, ``イ``, or a marker and the option's text."""
        value = answer.block.text()
        letters = [o.letter for o in q.options]
        words = value.split()
        # ``B) def``: a marker with its bracket or stop, then the option's text; else ``B``,
        # ``A, C``, ``②④``, ``3번``: markers alone.
        marked = len(words) > 1 and re.fullmatch(r"\S*[)）.．]", words[0]) is not None
        refs = None if marked else S.option_refs(value, self.dialect.and_words)
        with_text = None if refs is not None else S.option_marks(value.split("\n")[0])
        if refs is None and with_text and len(with_text) == 1 and "\n" not in value:
            mark = with_text[0]
            refs = [(S.STYLE_FAMILY[mark.style], mark.ordinal)]
            option = self._option(q, refs[0])
            text = value[mark.text_start: mark.text_end]
            if report and text and option and _plain(text) != _plain(option.text.text()):
                self.sink.warning("QB124", f"the answer's text differs from option {option.name}",
                                  SourceSpan(self.source.path, answer.line, answer.block.column),
                                  hint="copy the option's text, or give only its marker")
        if refs is None:
            if report:
                named = [o for o in q.options if _plain(o.text.text()).lower() == _plain(S.bare(value))]
                fix = f"'{answer.name}: {named[0].name}'" if named else \
                    f"e.g. '{answer.name}: {_example_marker(q, 2)}' or '{answer.name}: {_example_marker(q, 1)}, {_example_marker(q, 3)}'"
                parts = "" if q.style == "upper-alpha" or not q.options else (
                    f"; if {q.options[0].marker} {q.options[1].marker if len(q.options) > 1 else ''} are parts of the question, "
                    "write its answer as 'Model answer:' (모범답안:) or add {type=essay}")
                hint = f"give the marker of the correct option, {fix}{parts}"
                shown = answer.block.written()
                if len(shown) < 2:
                    self.error("QB125", f"cannot read the answer '{shorten(value, 40)}'", answer.line, answer.block.column, hint=hint)
                    return []
                # Lines indented under the answer are part of it: quoted by its first line, and where
                # the first line alone is an answer, reported where the text that spoils it starts.
                (line, column, first), (on_line, on_column, on) = shown[0], shown[1]
                alone = Label(answer.role, answer.name, line, column, Block(line, column, [first]))
                if self._letters(q, alone, report=False):
                    self.error("QB125", f"the answer '{shorten(first, 40)}' goes on with '{shorten(on, 40)}', "
                                        "which cannot be read as part of it", on_line, on_column,
                               hint="an answer is one line: put the text after it under 'Explanation:', or remove it")
                else:
                    self.error("QB125", f"cannot read the answer '{shorten(first, 40)}', which goes on to line {on_line}",
                               line, column, hint=hint)
            return []
        picked: list[str] = []
        for ref in refs:
            option = self._option(q, ref)
            if option is None:
                if report:
                    self._no_such_option(q, answer, ref)
                continue
            if option.letter in picked:
                if report:
                    self.error("QB182", f"the answer names option {option.name} twice", answer.line, answer.block.column,
                               hint=f"give each correct option once: '{answer.name}: "
                                    f"{', '.join(dict.fromkeys(o.name for o in self._options_named(q, refs)))}'")
                continue
            picked.append(option.letter)
        return picked if letters else picked

    def _option(self, q: Question, ref: tuple[str, int]) -> Option | None:
        return next((option for option in q.options if S.names_option(ref, option.style, option.ordinal)), None)

    def _options_named(self, q: Question, refs: list[tuple[str, int]]) -> list[Option]:
        return [o for o in (self._option(q, r) for r in refs) if o is not None]

    def _no_such_option(self, q: Question, answer: Label, ref: tuple[str, int]) -> None:
        family, ordinal = ref
        style = {"letter": "upper-alpha", "number": "circled-decimal", "roman": "lower-roman"}.get(family, family)
        named = S.option_label(style, ordinal) if family != "number" else str(ordinal)
        names = ", ".join(o.name for o in q.options)
        same = next((o for o in q.options if o.ordinal == ordinal), None)
        if q.options and S.STYLE_FAMILY.get(q.style or "") != family and same is not None:
            self.error("QB126", f"the answer names option {named}, but the question's options are marked {names}",
                       answer.line, answer.block.column,
                       hint=f"name the option by its own marker: '{answer.name}: {same.name}'")
            return
        self.error("QB126", f"the answer names option {named}, which does not exist", answer.line, answer.block.column,
                   hint=f"options are {names}")

    def _one_answer(self, q: Question, kind: str, required: bool = True) -> Label | None:
        answer = q.label("answer")
        if answer is None and required:
            self.error("QB120", f"the {kind} question has no answer", q.line,
                       hint=f"add a line '{V.examples(self.dialect.language).answer}: ...' at the left margin after the question")
        return answer

    # -- one builder per kind ---------------------------------------------------------------------

    def choice(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        choices: list[dict[str, Any]] = []
        letters: list[str] = []
        for k, opt in enumerate(q.options):
            if opt.letter in letters:
                self.error("QB122", f"option {opt.name} appears twice", opt.line, opt.column,
                           hint=f"give each option its own marker, such as {_next_marker(q, letters)}")
            letters.append(opt.letter)
            text = opt.text.text()
            if not text:
                self.error("QB123", f"option {opt.name} has no text", opt.line, opt.column,
                           hint=f"write the option's text after '{opt.marker or opt.letter + ')'}', or remove the option")
            choice: dict[str, Any] = {"id": opt.letter, "text": text, "correct": False}
            if "score" in opt.attrs and data["type"] != "multiple_response":
                self.error("QB109", "a score on an option applies only to multiple-response questions", opt.line,
                           opt.attrs.pop("score")[1], hint="remove {score=...}, or mark several answers ('Answer: A, C')")
            for key, (value, col) in opt.attrs.items():
                choice[key] = value
                self.source.at(loc + ("choices", k, key), opt.line, col)
            if opt.feedback and opt.feedback.text():
                choice["feedback"] = opt.feedback.text()
                self.source.text_at(loc + ("choices", k, "feedback"), opt.feedback.line, opt.feedback.column, opt.feedback.written())
            self.source.at(loc + ("choices", k), opt.line)
            self.source.text_at(loc + ("choices", k, "text"), opt.text.line, opt.text.column, opt.text.written())
            choices.append(choice)
        data["choices"] = choices
        if q.options and q.style not in (None, "upper-alpha"):
            data["numbering"] = "none" if q.marked_parts else q.style  # each option is its mark: shown once
        if not q.options:
            self.error("QB127", f"a {data['type']} question needs options", q.line,
                       hint="add options at the left margin: 'A) ...', 'B) ...'")
            return
        answer = q.label("answer")
        bold = _bold_options(q)
        if answer is None and bold:
            # ``    4.  **program**``: the options in bold are the answer; students see them as the
            # others are, never in bold.
            for choice, opt in zip(choices, q.options):
                choice["correct"] = opt in bold
                choice["text"] = S.wholly_bold(choice["text"]) or choice["text"]
            if data["type"] == "single_choice" and len(bold) > 1:
                self.error("QB121", f"a single-choice question has {len(bold)} correct answers (the options in bold)",
                           bold[1].line, bold[1].column, hint="put one option in bold, or drop type=single_choice")
            self._answer_in_text(q, bold)
            return
        if answer is None:
            self.error("QB120", "the question has options but no correct answer", q.line,
                       hint=f"add a line '{V.examples(self.dialect.language).answer}: {_example_marker(q, 2)}' at the left "
                            "margin after the options")
            return
        correct = self._letters(q, answer)
        for choice in choices:
            choice["correct"] = choice["id"] in correct
        if q.nested and bold:
            self._bold_and_answer(q, answer, bold, correct, choices)
        if data["type"] == "single_choice" and len(correct) > 1:
            self.error("QB121", f"a single-choice question has {len(correct)} correct answers", answer.line, answer.block.column,
                       hint="give one letter, or drop type=single_choice to make it a multiple-response question")

    def _bold_and_answer(self, q: Question, answer: Label, bold: list[Option], correct: list[str],
                         choices: list[dict[str, Any]]) -> None:
        """A list of options read for its bold ones (:meth:`.Scanner._nested_options`) that an
        answer names too (under the question, or in the key): the bold that agrees is the
        answer's, taken out so that students do not see it; bold that names other options is a
        located error, since one of the two is wrong."""
        if correct and {o.letter for o in bold} != set(correct):
            named, shown = ", ".join(o.name for o in q.options if o.letter in correct), ", ".join(o.name for o in bold)
            in_bold = f"the options in bold are {shown}" if len(bold) > 1 else f"the option in bold is {shown}"
            self.error("QB191", f"the answer names {named}, but {in_bold}",
                       answer.line, answer.block.column,
                       hint="correct the answer or the bold, so that the options in bold are the answer")
            return
        for choice, opt in zip(choices, q.options):
            if opt in bold:
                choice["text"] = S.wholly_bold(choice["text"]) or choice["text"]
        self._answer_in_text(q, bold)

    def _answer_in_text(self, q: Question, bold: list[Option]) -> None:
        """A paper that marks its answers in bold was printed with its answers shown, and its
        blanks may be too: ``则产生 C。`` where the paper had ``则产生（ ）。``. The letter of a
        lettered option in bold, alone among the characters of a CJK text, is its answer shown
        to students: an error at the letter, never a question that gives itself away."""
        for opt in bold:
            if opt.style not in _LETTERED:
                continue
            letter = S.option_label(opt.style, opt.ordinal)
            shown = q.stem.find(re.compile(rf"(?:^|(?<=[\s{_CJK}]))\s*{letter}\s*(?=$|[\s{_CJK}])"))
            if shown:
                line, column, found = shown[0]
                column += len(found.group(0)) - len(found.group(0).lstrip())
                self.error("QB198", f"the question's text shows {letter}, the letter of its answer in bold, where "
                           "students would read it", line, column,
                           hint="write the blank the paper had, '（ ）' or '____', in place of the letter")
                return

    def true_false(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answer = self._one_answer(q, "true/false")
        if answer is None:
            return
        word = S.bare(answer.block.text())
        truth = self.dialect.truth(word)
        if truth is None:
            truth = True if word in self.true_words else False if word in self.false_words else S.every_truth(word)
        if truth is None:
            own = V.examples(self.dialect.language)  # examples in the quiz's language
            words = dict.fromkeys([own.true, own.false, "true", "false"])
            self.error("QB138", f"a true/false answer is one of {', '.join(words)}, not '{shorten(word, 40)}'",
                       answer.line, answer.block.column, hint=f"write '{own.answer}: {own.true}' or '{own.answer}: {own.false}' "
                                                              f"(or '{own.answer}: O' or '{own.answer}: X')")
            return
        data["answer"] = truth
        self.source.at(loc + ("answer",), answer.line, answer.block.column)
        # Correct/incorrect feedback becomes the feedback of the right and the wrong answer.
        feedback = data.get("feedback", {})
        right, wrong = ("true", "false") if data["answer"] else ("false", "true")
        if "correct" in feedback:
            data[f"{right}_feedback"] = feedback.pop("correct")
        if "incorrect" in feedback:
            data[f"{wrong}_feedback"] = feedback.pop("incorrect")

    def short_answer(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answers: list[dict[str, Any]] = []
        for label in q.labels_of("answer"):
            text = label.block.text()
            if "\n" in text:
                self.error("QB149", "an accepted answer is one line, but this one goes on", label.line + 1, 1,
                           hint="put each accepted answer on its own 'Answer:' line, or several on one line separated "
                                "by ',' or '/'; indent feedback as '   Feedback: ...'")
            # ``서울, 서울특별시``, ``서울 / 서울특별시``, ``서울 또는 서울특별시``: each accepted.
            for word in S.accepted_answers(text, self.dialect.or_words) if "\n" not in text else [text]:
                entry: dict[str, Any] = {"text": word}
                self._scored(label, entry, loc + ("answers", len(answers)))
                answers.append(entry)
        if not answers:
            self._one_answer(q, "short-answer")
        data["answers"] = answers

    def numerical(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answers = []
        for k, label in enumerate(q.labels_of("answer")):
            text = label.block.text()
            match = S.NUMERIC_ANSWER.match(S.ascii_number(text))
            if not match:
                self.error("QB139", f"cannot read the number '{shorten(text, 40)}'", label.line, label.block.column,
                           hint="write 3.14, 3.14 ± 0.01, 100 ± 5%, or a range 2..4, with '.' for decimals; a unit goes in {unit=cm}")
                continue
            if match.group("low") is not None:
                low, high = sorted((float(match.group("low")), float(match.group("high"))))
                entry: dict[str, Any] = {"value": (low + high) / 2, "tolerance": (high - low) / 2}
            else:
                entry = {"value": float(match.group("value")), "tolerance": float(match.group("tol") or 0)}
                if match.group("pct"):
                    entry["tolerance_mode"] = "percent"
            self._scored(label, entry, loc + ("answers", k))
            answers.append(entry)
        if not q.labels_of("answer"):
            self._one_answer(q, "numerical")
        data["answers"] = answers

    def _scored(self, label: Label, entry: dict[str, Any], loc: Loc) -> None:
        self.source.at(loc, label.line, label.block.column)
        if label.score is not None:
            entry["score"] = label.score
            self.source.at(loc + ("score",), label.line, label.column)
        if label.feedback and label.feedback.text():
            entry["feedback"] = label.feedback.text()

    def essay(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answer = self._one_answer(q, "essay", required=False)
        if answer is not None and answer.block.text():
            data["model_answer"] = answer.block.text()
            self.source.text_at(loc + ("model_answer",), answer.line, answer.block.column, answer.block.written())

    def matching(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        if q.judged:
            # Each statement a prompt, its mark the answer; both marks are choices.
            for k, (line, column, _, _) in enumerate(q.judged):
                self.source.at(loc + ("pairs", k), line, column)
            marks = list(dict.fromkeys(mark for *_, mark in q.judged))
            data["pairs"] = [{"prompt": text, "answer": mark} for _, _, text, mark in q.judged]
            data["distractors"] = [S.TRUTH_PARTNER[marks[0]]] if len(marks) == 1 and marks[0] in S.TRUTH_PARTNER else []
            return
        pairs: list[dict[str, str]] = []
        distractors: list[str] = []
        for item in q.items:
            match = S.PAIR.match(item.text())
            if not match or not match.group(2).strip():
                self.error("QB140", "a matching item is 'prompt -> answer' (or '-> answer' for a distractor)", item.line, item.column,
                           hint=f"write '- {shorten(item.text().rstrip(' ->→='), 40) or 'prompt'} -> answer'")
                continue
            if match.group(1).strip():
                self.source.at(loc + ("pairs", len(pairs)), item.line, item.column)
                pairs.append({"prompt": match.group(1).strip(), "answer": match.group(2).strip()})
            else:
                distractors.append(match.group(2).strip())
        if len(q.items) < 2:
            self.error("QB141", "a matching question needs a list of at least two 'prompt -> answer' items", q.line,
                       hint="add lines such as '- France -> Paris' at the left margin after the question text")
        data["pairs"], data["distractors"] = pairs, distractors

    def ordering(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        if len(q.items) < 2:
            self.error("QB141", "an ordering question needs a list of at least two items, in the right order", q.line,
                       hint="add lines such as '- First step' at the left margin after the question text")
        for k, item in enumerate(q.items):  # an item's errors (an empty one) at its own line
            self.source.at(loc + ("items", k), item.line, item.column)
        data["items"] = [item.text() for item in q.items]

    def fill_in_blank(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        blanks: list[dict[str, Any]] = []
        # Where each blank is written, for errors at the blank itself (the stem's text is the
        # block's, so its blanks come in the same order).
        places = q.stem.find(S.BLANK)

        def replace(match: re.Match[str]) -> str:
            k = len(blanks)
            line, column = places[k][:2] if k < len(places) else (q.stem.line, q.stem.column)
            alternatives = [a.strip() for a in match.group(1).split("|")]
            blank_id = f"b{k + 1}"
            self.source.at(loc + ("blanks", k), line, column)
            starred = [(i, a) for i, a in enumerate(alternatives) if a.startswith("*")]
            blank: dict[str, Any]
            if starred:
                blank = {"id": blank_id, "kind": "dropdown", "answers": [starred[0][1][1:].strip()],
                         "options": [a for a in alternatives if not a.startswith("*")]}
                if len(starred) > 1:
                    second = starred[1][0]
                    offset = 2 + sum(len(part) + 1 for part in match.group(1).split("|")[:second])
                    offset += len(match.group(1).split("|")[second]) - len(match.group(1).split("|")[second].lstrip())
                    names = " and ".join(f"'{a[1:].strip()}'" for _, a in starred)
                    self.error("QB142", f"the drop-down [[{shorten(match.group(1), 40)}]] marks {len(starred)} options as correct "
                               f"({names}); it can have only one", line, column + offset,
                               hint=f"remove the '*' before '{starred[1][1][1:].strip()}'; to accept several answers, "
                                    "write a text blank without stars: [[answer | other answer]]")
            else:
                blank = {"id": blank_id, "kind": "text", "answers": alternatives}
            if not all(a.lstrip("*").strip() for a in alternatives):
                self.error("QB142", f"blank [[{match.group(1)}]] has an empty answer", line, column,
                           hint="write [[answer | other accepted answer]] or [[*right | wrong | wrong]], with text between the '|'")
            if match.group(2) is not None:  # [[answer]]{points=2}: what this blank is worth
                written = S.ascii_number(match.group(2))
                if not re.fullmatch(S.NUMBER, written) or float(written) < 0:
                    self.error("QB365", f"blank [[{shorten(match.group(1), 40)}]] is worth '{match.group(2)}' points, "
                               "which is not a number of points", line, column + len(match.group(1)) + 12,
                               hint="write the blank's points as a number right after it: [[answer]]{points=2}")
                else:
                    blank["points"] = float(written)
                    self.source.at(loc + ("blanks", k, "points"), line, column)
            blanks.append(blank)
            return f"[[{blank_id}]]"

        data["stem"] = S.BLANK.sub(replace, data["stem"])
        if places:  # the text's lines as written, cut at the blanks the model's text holds renamed
            self.source.text_at(loc + ("stem",), q.stem.line, q.stem.column, _around_blanks(q.stem.written()))
        if not blanks:
            self.error("QB142", "a fill-in-the-blank question needs blanks in its text", q.line,
                       hint="write the answer in double brackets: 'The [[Sun]] is a star.'")
        data["blanks"] = blanks

    def no_answer(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answer = q.label("answer")
        if answer is not None and data["type"] == "text_only":
            self.error("QB129", "text-only items have no answer", answer.line, answer.column,
                       hint="remove the answer block, or give the item a type that takes one (e.g. {type=essay})")
        elif answer is not None:
            data["model_answer"] = answer.block.text()


#: Each kind's builder, from its spec (kinds.py KindSpec.markdown_reader).
BUILDERS: KindTable[Callable[[QuestionBuilder, Question, Loc, dict[str, Any]], None]] = KindTable(
    "markdown_reader", "readers/markdown/questions.py BUILDERS", resolve)


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=4).hexdigest()


#: Option styles whose markers are letters, and the characters of CJK text and its punctuation.
_LETTERED = ("upper-alpha", "lower-alpha")
_CJK = "\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"


def _bold_options(q: Question) -> list[Option]:
    """The options wholly in bold (``**kernel**``), when some of them are and some are not, or
    when the paper marks its answers so (:meth:`.Scanner._nested_options`): in a question
    without an answer, its answer. Bold on every option of a question is otherwise their style."""
    bold = [o for o in q.options if S.wholly_bold(o.text.text()) is not None]
    return bold if q.nested or len(bold) < len(q.options) else []


def _around_blanks(written: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A fill-in-blank text's lines as written (:meth:`Block.written`), each cut at its blanks
    ``[[Sun]]``, which the model's text holds renamed (``[[b1]]``): the pieces between them are
    found in that text, so a problem after a blank is placed at its own column, not at one moved
    by the difference in length between the answer and the blank's name."""
    pieces = []
    for line, column, chars in written:
        start = 0
        for match in S.BLANK.finditer(chars):
            pieces.append((line, column + start, chars[start:match.start()]))
            start = match.end()
        pieces.append((line, column + start, chars[start:]))
    return [piece for piece in pieces if piece[2].strip()]


def _missing_type_hint(q: Question) -> str:
    """How to give a question without options and answer its type, by what its text holds."""
    text = q.stem.text()
    if S.BLANK.search(text):
        return "add {type=fill_in_blank} to the question line: its [[...]] are the blanks"
    listed = [m.group(1) for m in map(S.ITEM.match, q.stem.lines[1:]) if m]
    if listed and all(re.search(r"->|→|=>", item) for item in listed):
        return "add {type=matching} to the question line: its '- prompt -> answer' lines are the pairs"
    if listed:
        return "add {type=ordering} to the question line: its '- ' lines are the items, in the right order"
    if any(line[:1] in (" ", "\t") and S.option_marks(line.lstrip()) for line in q.stem.lines[1:]):
        return ("its options are indented, which makes them part of the question text: write each at the left margin "
                "('A) text' or '① text'), then an answer such as 'Answer: B'")
    return "add options and 'Answer: B', a model answer 'Answer: ...' for an essay, or a {type=...}"


def _blanks_in_text(block: Block) -> list[tuple[int, int, re.Match[str]]]:
    """The ``[[...]]`` of a block outside code spans and fences."""
    found = []
    fence: str | None = None
    places: dict[int, list[tuple[int, re.Match[str]]]] = {line: [] for line in range(block.line, block.line + len(block.lines))}
    for line, column, match in block.find(S.BLANK):
        places[line].append((column, match))
    for i, text in enumerate(block.lines):
        opened = S.FENCE.match(text)
        if fence or opened:
            if fence and opened and opened.group(1)[:1] == fence[:1]:
                fence = None
            elif not fence:
                fence = opened.group(1) if opened else None
            continue
        for column, match in places[block.line + i]:
            if text[: match.start()].count("`") % 2 == 0:
                found.append((block.line + i, column, match))
    return found


_LETTER = re.compile(r"\(?[a-z]\)?[.)]?")


@dataclass
class Reading:
    """What the reader made of an exam-paper form (blanks, matching rows, an ordering chain):
    model fields to set, the question text without the form, and whether that is all."""

    data: dict[str, Any] = field(default_factory=dict)
    stem: str | None = None
    complete: bool = False


def classify(answer: str, stem_lines: list[str], dialect: S.Dialect, section_kind: str | None = None,
             model: bool = False) -> tuple[str | None, str | None]:
    """What a question without a type and without options reads as, from its one answer and its
    text: (the type, or None; the code of what the reader reports about it, or None).

    True/false words of the quiz's languages (and O/X) make a true/false question; matching rows,
    an ordering chain and blanks in the text their types; a model answer (``모범답안:``) an essay.
    An answer that names an option (QB173) or is another language's true/false word (QB172) is
    an error, and so is a word or short phrase (QB175): a mature reader does not guess between a
    short answer graded automatically and an essay graded by hand. A number is an essay with a
    warning (QB171). Inside a section titled as short answers or essays (``단답형``), that is what
    its questions are."""
    if MATCHING_TABLE_ROW.match("\n".join(stem_lines)):
        return None, "QB156"  # ``7) ____ Mitosis ⇥ B. Cell division``: one row of a table, not a question alone
    if dialect.truth(answer) is not None:
        return "true_false", None
    if S.every_truth(answer) is not None and (section_kind == "true_false" or LEADING_BLANK.match("\n".join(stem_lines))):
        # ``3) ____ Water boils …`` with ``Answer: T``, or ``T`` under ``True or False``: the blank is
        # where students mark true or false.
        return "true_false", None
    if sum(1 for line in stem_lines if MATCH_ROW.match(line)) >= 2:
        return "matching", None
    if arrow_chain(answer) is not None and sum(1 for line in stem_lines if ITEM_ROW.match(line)) >= 2:
        return "ordering", None
    text = "\n".join(stem_lines)
    if (NAMED_BLANK.search(text) or S.ANONYMOUS_BLANK.search(text)) and "\n" not in answer.strip() and len(answer) <= 200:
        return "fill_in_blank", None
    if model:
        return "essay", None
    if S.every_truth(answer) is not None:
        return None, "QB172"
    value = S.bare(answer)
    if _LETTER.fullmatch(value) or (S.option_refs(answer, dialect.and_words) and not S.NUMERIC_ANSWER.match(value)) \
            or any(_plain(item).lower() == _plain(value) for item in _listed(stem_lines)) \
            or _names_marked_part(value, stem_lines):
        return None, "QB173"
    if S.NUMERIC_ANSWER.match(S.ascii_number(value)):
        return "essay", "QB171"
    if section_kind in ("short_answer", "essay"):
        return (section_kind if is_short(answer, dialect) else "essay"), None
    if is_short(answer, dialect):
        return None, "QB175"
    return "essay", None


#: ``1024(KiB)``, ``25 (cm)``: a number, then its unit in parentheses.
_NUMBER_WITH_UNIT = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*[(（]\s*([^\s()（）{}=]{1,12})\s*[)）]\s*$")


def _names_marked_part(value: str, stem_lines: list[str]) -> bool:
    """``2`` for a text that marks its parts ①, ②, … ⑤ in order (the underlined words of a
    passage, ``①**to solve** … ②**being**``): the answer names part ②, an option the question
    does not list, not a number to grade or a model answer."""
    parts = S.marked_parts("\n".join(stem_lines))
    return value.isdigit() and parts >= 2 and 1 <= int(value) <= parts


_SENTENCE_END = re.compile(r"(?:[.!?。！？]|(?:다|요|음|함|임|됨)[.。])$")


def is_short(answer: str, dialect: S.Dialect) -> bool:
    """A word or a phrase (or several, ``서울, 서울특별시``): what students type, not an essay's
    model answer. One line of at most 60 characters; each part at most eight words; not a
    sentence (one that ends with a stop: ``이성계가 세웠다.``, ``It is mutable.``)."""
    value = answer.strip()
    if not value or "\n" in value or len(value) > 60:
        return False
    parts = S.accepted_answers(value, dialect.or_words)
    if any(len(part.split()) > 8 for part in parts):
        return False
    return not (_SENTENCE_END.search(value) and (len(value.split()) > 1 or re.search(r"[다요음함임됨][.。]$", value)))


def reads_as_essay(answer: str, stem_lines: list[str], language: str = "en") -> bool:
    """An untyped question without options with this answer reads as an essay, without a word
    from the reader (writers/markdown_source.py leaves out ``type=essay`` then)."""
    return classify(answer, stem_lines, S.dialect(language)) == ("essay", None)


#: An OX question's answer space at the end of its text: ``(O / X)``, ``( O, X )``, ``(○, ×)``, ``(    )``.
OX_SPACE = re.compile(r"\s*[(\[（［]\s*(?:[OoＯ○◯]\s*[,/·ㆍ|]?\s*[XxＸ×✕]|참\s*[,/]\s*거짓|T\s*/\s*F|true\s*/\s*false)?\s*[)\]）］]\s*$",
                      re.I)
#: A row of a two-column matching table, numbered as a question: ``____ Mitosis⇥B. Cell division …``.
MATCHING_TABLE_ROW = re.compile(r"^\s*(?:_{3,}|[(（][ \u3000]{2,}[)）])\s*\S[^\t]*?(?:\t|\s{2,})\s*[A-Z][.)]\s+\S")
#: An answer space before a statement: ``____ Water boils …``, ``(    ) 물은 …``.
LEADING_BLANK = re.compile(r"^\s*(?:_{3,}|[(（][ \u3000]{2,}[)）])\s*(?=\S)")
#: Letters that name blanks as Japanese papers print them, ``（　ａ　）``: spaces around the letter.
_BLANK_LETTERS = "ａ-ｚＡ-Ｚa-zA-Zアイウエオカキクケコ"
NAMED_BLANK = re.compile(rf"[(（]\s*(?P<name>[{V.NAMED_BLANKS}])\s*[)）]|(?P<name2>[{V.NAMED_BLANKS}])\s*(?:[(（][ \u3000]*[)）]|_{{3,}})"
                         rf"|[(（][ \u3000]+(?P<name3>[{_BLANK_LETTERS}])[ \u3000]+[)）]")
_LETTER_NAMES = re.compile(rf"(?:^|(?<=[\s,，、;；]))([{_BLANK_LETTERS}])(?=[\s:：)）])")


def blank_name(found: re.Match[str]) -> str:
    """A named blank's name, full-width letters as ASCII: ``（　ａ　）`` -> ``a``."""
    name = found.group("name") or found.group("name2") or found.group("name3")
    return V.FULL_WIDTH.get(name, name)


def named_answers(answer: str) -> dict[str, str] | None:
    """``㉠ 이성계, ㉡ 정도전`` / ``㉠: 이성계 ㉡: 정도전`` -> {"㉠": "이성계", "㉡": "정도전"}."""
    parts = re.split(rf"([{V.NAMED_BLANKS}])", answer.strip())
    if len(parts) < 3:
        parts = _LETTER_NAMES.split(answer.strip())  # ``ａ 酸素　ｂ 水素``
        parts[1::2] = [V.FULL_WIDTH.get(p, p) for p in parts[1::2]]
    if len(parts) < 3 or parts[0].strip(" ,;:/\n"):
        return None
    found: dict[str, str] = {}
    for name, value in zip(parts[1::2], parts[2::2]):
        value = value.strip().lstrip(":：)") .strip().rstrip(",;，、").strip()
        if not value or name in found:
            return None
        found[name] = value
    return found


_ITEM_LABEL = rf"[{V.ITEM_LABELS}]"
_DOTS = rf"[{V.MATCH_DOTS}]"
#: A row of a matching question as exams print it: ``(가) 김소월 ･ ･ ㉠ 서시``.
MATCH_ROW = re.compile(rf"^\s*[(（]?(?P<ll>{_ITEM_LABEL})[)）.]?\s+(?P<lt>.+?)\s*{_DOTS}(?:\s*{_DOTS})*\s*"
                       rf"[(（]?(?P<rl>{_ITEM_LABEL})[)）.]?\s+(?P<rt>.+?)\s*$")
#: An item of an ordering question as exams print it: ``(가) 물을 끓인다.``.
ITEM_ROW = re.compile(rf"^\s*[(（](?P<label>{_ITEM_LABEL})[)）]\s*(?P<text>\S.*?)\s*$")
_ARROWS = "|".join(re.escape(a) for a in sorted(V.ARROWS, key=len, reverse=True))


def match_pairs(answer: str) -> dict[str, str] | None:
    """``(가)-㉡, (나)-㉠`` / ``(가) ㉡ (나) ㉠`` / ``가→㉡`` -> {"가": "㉡", "나": "㉠"}."""
    found = re.findall(rf"[(（]?({_ITEM_LABEL})[)）]?\s*(?:{_ARROWS}|[:=])?\s*[(（]?({_ITEM_LABEL})[)）]?", answer)
    rest = re.sub(rf"[(（]?{_ITEM_LABEL}[)）]?\s*(?:{_ARROWS}|[:=])?\s*[(（]?{_ITEM_LABEL}[)）]?", "", answer)
    if len(found) < 2 or rest.strip(" ,;，、/\n.") or len({l for l, _ in found}) != len(found):
        return None
    return dict(found)


def exam_blanks(stem: str, answer: str, dialect: S.Dialect) -> str | None:
    """``(    )``, ``____`` or ``( ㉠ )`` blanks in a question's text and their words in its answer:
    the text with ``[[...]]`` blanks, or None when the answer does not say which word fills which."""
    named = list(NAMED_BLANK.finditer(stem))
    anonymous = list(S.ANONYMOUS_BLANK.finditer(stem))
    fills: list[list[str]] = []
    if named and not anonymous:
        given = named_answers(answer)
        names = [blank_name(m) for m in named]
        if given is None or sorted(given) != sorted(set(names)) or len(set(names)) != len(names):
            return None
        fills = [S.accepted_answers(given[name], dialect.or_words) for name in names]
        spans = named
    elif len(anonymous) == 1 and not named:
        fills = [S.accepted_answers(answer, dialect.or_words)]
        spans = anonymous
    else:
        return None
    if any(not words or any("|" in w or "]]" in w for w in words) for words in fills):
        return None
    pieces, last = [], 0
    for span, words in zip(spans, fills):
        pieces += [stem[last: span.start()], "[[" + " | ".join(words) + "]]"]
        last = span.end()
    return "".join(pieces) + stem[last:]


def exam_matching(lines: list[str], answer: str) -> tuple[dict[str, Any], list[str]] | None:
    """``(가) 김소월 ･ ･ ㉠ 서시`` lines of a question's text and ``정답: (가)-㉡, (나)-㉠``: the pairs
    and distractors, and the text's other lines; None when the two cannot be read together."""
    rows = [(i, MATCH_ROW.match(line)) for i, line in enumerate(lines)]
    found = [(i, m) for i, m in rows if m]
    left = {m.group("ll"): m.group("lt").strip() for _, m in found}
    right = {m.group("rl"): m.group("rt").strip() for _, m in found}
    pairs = match_pairs(answer)
    if pairs is None or set(pairs) != set(left) or any(r not in right for r in pairs.values()):
        return None
    data = {"pairs": [{"prompt": left[l], "answer": right[pairs[l]]} for l in left],
            "distractors": [text for label, text in right.items() if label not in pairs.values()]}
    return data, [line for i, line in enumerate(lines) if i not in {j for j, _ in found}]


def exam_ordering(lines: list[str], answer: str) -> tuple[dict[str, Any], list[str]] | None:
    """``(가) ...`` lines of a question's text and ``정답: (나) → (가) → (다)``: the items in order,
    and the text's other lines; None when the two cannot be read together."""
    chain = arrow_chain(answer)
    rows = [(i, ITEM_ROW.match(line)) for i, line in enumerate(lines)]
    items = {m.group("label"): m.group("text").strip() for _, m in rows if m}
    if chain is None or sorted(chain) != sorted(items) or len(set(chain)) != len(chain):
        return None
    return {"items": [items[label] for label in chain]}, [line for i, line in enumerate(lines) if not rows[i][1]]


def with_marking_scheme(model_answer: str | None, name: str, scheme: str) -> str:
    """A model answer with its marking scheme (``채점 기준:``) under its own title: graders see both."""
    return (model_answer + "\n\n" if model_answer else "") + f"**{name}**\n\n" + scheme


def true_false_marks(stem: str, answer: str, dialect: S.Dialect) -> tuple[str, tuple[str, str] | None]:
    """O/X: the marks the answer is written with are the choices students see, and an answer
    space at the end of the text (``(O / X)``, ``(    )``) is taken out: the text, and the marks."""
    marks = dialect.marks(answer) if answer else None
    stem = LEADING_BLANK.sub("", stem, count=1)  # ``____ Water boils …``: the answer space before the text
    space = OX_SPACE.search(stem)
    if space:
        stem = stem[: space.start()].rstrip()
        written = re.findall(r"[OoＯ○◯XxＸ×✕]", space.group(0))
        if marks is None and len(written) == 2:
            marks = dialect.marks(written[0])
    return stem, marks


def arrow_chain(answer: str) -> list[str] | None:
    """``(가) → (나) → (다)``, ``가-나-다``, ``ㄴ→ㄱ→ㄷ`` -> ["가", "나", "다"]; None for anything else."""
    value = answer.strip().rstrip(".。")
    parts = re.split(rf"\s*(?:{_ARROWS})\s*", value)
    if len(parts) < 2:
        return None
    labels = [re.fullmatch(rf"[(（]?({_ITEM_LABEL}|[{V.OPTION_STYLES['katakana']}])[)）]?", part) for part in parts]
    if not all(labels):
        return None
    return [m.group(1) for m in labels if m]


def _exam_rule(q: Question, data: dict[str, Any]) -> None:
    """The exam rule the question's text or its section prints (全部选对得6分，选对但不全得3分，有选错的
    得0分), as its scoring, when the question states no scoring of its own and its points are the
    rule's (or it states none)."""
    rule = S.exam_rule(q.stem.text()) or (q.section.exam_rule if q.section is not None else None)
    if rule is None or "scoring" in data or "negative_marking" in data:
        return
    full, incomplete = rule
    try:
        points = float(data.get("points", full))
    except ValueError:
        return
    if points == full and 0 < incomplete < full:
        data.update(points=data.get("points", full), scoring="exam", incomplete_points=incomplete)


def _section_points(section: Any) -> float | None:
    return section.each_points if section is not None else None


def _implied_kind(q: Question) -> str | None:
    """The type the question's numbering (``서술형 2.``) or its section's title (``Ⅱ. 단답형``) names."""
    return q.numbered_kind or (q.section.kind if q.section is not None else None)


#: Lines in question text that look like options the reader does not take as options.
_LISTED = re.compile(r"^\s*(?:[-*+]\s+(?:\(?[A-Za-z][.):]\s+)?|\(?[A-Za-z]\)\s+|\s+[A-Za-z][.)]\s+|[A-Za-z]\s*[:：]\s+)(.+?)\s*$")


def _listed(lines: list[str]) -> list[str]:
    return [m.group(1) for m in map(_LISTED.match, lines[1:]) if m]


def _example_marker(q: Question, ordinal: int) -> str:
    """How the question's ``ordinal``-th option is named in an answer: ``B``, ``②``, ``나``."""
    style = q.style or "upper-alpha"
    return S.option_label(style, ordinal).strip("()") if style != "lower-alpha" else "ABCDEFGHIJ"[ordinal - 1]


def _next_marker(q: Question, letters: list[str]) -> str:
    if q.style in (None, "upper-alpha", "lower-alpha"):
        return _next_letter(letters) + ")"
    free = next((n for n in range(1, 27) if "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n - 1] not in letters), 26)
    return S.option_label(q.style, free)


def _next_letter(letters: list[str]) -> str:
    return next((c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in letters), "Z")


def _plain(markdown: str) -> str:
    return " ".join(markdown.replace("`", "").split())


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"

