"""One question as the page gave it into the builder: the labelled parts kept out of what students
read first, its answer told from what names it, its type from its options and answer, or the
reason it is skipped."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...content import plain_text
from ...diagnostics import SourceSpan
from ...readers.markdown import syntax as S
from ...readers.markdown.questions import classify, exam_blanks, exam_matching, exam_ordering, true_false_marks, with_marking_scheme
from ..base import INVALID, LOST, QuizBuilder
from ..markup import escape_markdown, renders_as_text
from .syntax import (AMBIGUOUS, FENCE_LINE, NO_ANSWER, TABLE_WITH_BODY, UNCLEAR, UNMATCHED_KEY, WRAPPED, Question, after_first,
                     answer_letters, first_line, join, leaked_at, paragraphs, plain, plain_fence, read_label, repaired, says_more,
                     short, unglue_labels)

Data = dict[str, Any]

#: What a question without options whose type cannot be told is told, by the code the Markdown
#: reader gives the same question (readers/markdown/questions.classify), and how to write it.
UNTYPED: dict[str, tuple[str, str]] = {
    "QB173": ("the answer '{answer}' names an option, but no options were read under the question",
              "write each option at the start of its own line ('① …', 'A) …', '가) …'; several circled ones may share a line), "
              "or correct the answer"),
    "QB175": ("the answer '{answer}' is a word or a short phrase: whether students type it (a short answer, graded "
              "automatically) or write an essay (graded by hand) cannot be told",
              "put the question under a section titled 'Short answer' or '단답형' (its questions are short answers), or write its "
              "answer as 'Model answer:' ('모범답안:') for an essay"),
    "QB156": ("it is one row of a two-column matching table (a term, then a lettered description): alone, it shows one "
              "description and asks for another's letter",
              "write the table as one matching question: its terms and descriptions as '(가) term ･ ･ ㉠ description' rows and "
              "'정답: (가)-㉡, …'"),
    "QB176": ("the question has blanks, but the answer '{answer}' does not say which blank each word fills",
              "name the blanks ( ㉠ ), ( ㉡ ) in the question and write '정답: ㉠ 이성계, ㉡ 한양'"),
    "QB177": ("the answer '{answer}' matches or orders items, but they cannot be read from the question",
              "for matching write '(가) 김소월 ･ ･ ㉠ 진달래꽃' rows and '정답: (가)-㉠, (나)-㉡'; for ordering write '(가) …' lines "
              "and '정답: (나) → (가) → (다)'"),
}


def _lettered(style: str | None) -> bool:
    return style in (None, "upper-alpha", "lower-alpha")


def _stem_points(lines: list[str]) -> tuple[float, bool] | None:
    """Points at the end of a question's first line (or its last), ``(3점)``, ``[2점]``, ``(3 points)``:
    read and taken out of the text, as the Markdown reader does."""
    found = S.take_points(lines)
    return (found[0], found[3]) if found else None


class Emitter:
    def __init__(self, builder: QuizBuilder, span: Callable[[int, int], SourceSpan], markdown: bool,
                 column: Callable[[int, str], int]) -> None:
        self.builder, self.span, self.markdown, self.column = builder, span, markdown, column
        #: The stems written, for the quiz's language.
        self.texts: list[str] = []
        #: The quiz's words (true/false, "or" between answers): English's, Korean's and its language's.
        self.dialect = S.dialect("en")

    def guard(self, q: Question) -> None:
        """No labelled line in what students read first: a stem or option that holds one (an
        HTML block's text, a paragraph the page never split) is cut there, and the rest read as
        the labelled parts it is."""
        parts = [("its text", q.stem)] + [(f"option {letter}", text) for letter, text in q.options]
        for where, lines in parts:
            text = join(lines, paragraphs=where == "its text")
            text = "\n".join(piece for line in text.split("\n") for piece in unglue_labels(line))
            at = leaked_at(text)
            if at is None:
                continue
            kept, moved = text.split("\n")[:at], text.split("\n")[at:]
            lines[:] = ["\n".join(kept).strip()]
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem)) or q.heading or '(no text)'}': {where} holds a labelled line "
                                         f"('{short(moved[0].strip(), 30)}'); it and what follows were read as the answer and "
                                         "explanation, not shown with the question", self.span(q.line, q.column),
                              hint="end the question's text before its answer")
            for line in moved:
                bare = re.sub(r"^(?:&gt;|>|\s|\\)+", "", line.strip())
                wrapped = WRAPPED.fullmatch(bare)
                label = read_label(wrapped.group(2) if wrapped and read_label(wrapped.group(2)) else bare.replace("\\", ""))
                if label:
                    q.open(label.role, q.line)
                    q.label_names.setdefault(label.role, label.name)
                    assert q.current is not None
                    q.current.append(label.value)
                elif q.current is not None and q.mode == "label":
                    q.current.append(line.strip())

    def emit(self, q: Question, each_points: float | None = None, section_kind: str | None = None) -> None:
        """The question into the builder as the model's data, or skipped with the reason. A
        section's points per question and the type its title names apply where the question
        says nothing of its own."""
        if q.ready is not None:
            self.texts.append(q.ready["stem"])
            self.builder.add(q.section, q.ready, self.span(q.line, q.column), q.ready["stem"], end_line=q.end, kind=q.kind)
            return
        self.guard(q)
        model = q.label_names.get("answer", "").lower() in self.dialect.model_answer_labels
        if q.options and not _lettered(q.style) and model and not q.marked:
            q.fold_options()  # "(1) … (2) …" under a question answered by "모범답안:": its parts
        stem_lines = list(q.stem)
        stated = _stem_points(stem_lines)
        points, each_part = (stated[0], stated[1]) if stated else (None, False)
        if q.listed_points is not None:
            if points is not None and points != q.listed_points:
                self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem))}' is worth {points:g} points by its text and "
                                             f"{q.listed_points:g} by the scoring list; its text's are kept", self.span(q.line, q.column),
                                  hint="give the points in one place")
            else:
                points = q.listed_points
        stem = self.text(join(stem_lines), q)
        self.texts.append(stem)
        data: Data = {"stem": stem, "feedback": {}}
        if points is not None or each_points is not None:
            data["points"] = points if points is not None else each_points
        if q.passages:
            data["passage"] = "\n\n".join(self.text(passage, q) for passage in q.passages)
        for role, key in (("explanation", "general"), ("correct", "correct"), ("incorrect", "incorrect"),
                          ("partially_correct", "partially_correct")):
            if q.labels.get(role) and any(q.labels[role]):
                data["feedback"][key] = self.text(join(q.labels[role], paragraphs=True), q)
        answer = self.one_answer(q)
        span = self.span(q.line, q.column)
        label = short(join(q.stem)) or q.heading  # "## Question 3" and no text: named by its heading
        kind = q.kind if q.kind != "question" else ("multiple choice" if q.options else "question")
        if not plain_text(stem).strip() and not re.search(r"!\[|<(img|video|audio|math)\b|\$", stem):
            self.builder.skip(kind, INVALID, f"question '{label or '(no text)'}' was skipped: it has no text a student would see "
                                             "(what it holds the build's sanitiser removes)", span,
                              hint="give the question its text")
            return
        if q.pair_slots:
            if not self._pairing(q, data, answer, label):
                return
        elif q.options:
            if not self._choice(q, data, answer, label, kind):
                return
        elif not self._open(q, data, answer, stem_lines, section_kind, model):
            return
        if data["type"] == "multiple_response":
            self._scoring_rule(q, data, stem_lines, span)
        grading = join(q.labels.get("grading", []), paragraphs=True)
        if grading and data["type"] == "essay":
            data["model_answer"] = with_marking_scheme(data.get("model_answer"), q.label_names["grading"], self.text(grading, q))
        elif grading:
            self.builder.warn(LOST, f"question '{label}': its marking scheme ('{q.label_names['grading']}:') is lost: only essays go to "
                                    "graders", self.answer_span(q, "grading"), hint="move it into the explanation to show it to students")
        label_text = re.sub(r"\[\[b\d+\]\]", " ", data["stem"])  # the question's name and id: not its blanks' ids
        if each_part and points is not None and data.get("points") == points:
            data["points"] = S.parts_points(points, data)  # ``（各３点）``: each blank or pair
        self.builder.add(q.section, data, span, label_text, end_line=max(q.end, q.line), kind=kind)

    def _scoring_rule(self, q: Question, data: Data, stem_lines: list[str], span: SourceSpan) -> None:
        """The exam rule a multiple-response question or its section prints, as its scoring: the
        points it gives for all right (the question's points, when it states none of its own) and
        for right but incomplete."""
        section = q.section if isinstance(q.section, dict) else {}
        rule = S.exam_rule(join(stem_lines), section.get("title"), section.get("description"))
        if rule is None:
            return
        full, incomplete = rule
        points = data.get("points", full)
        if abs(points - full) > 1e-9 or not 0 < incomplete < full:
            self.builder.warn(LOST, f"question '{short(join(q.stem))}': the printed rule (all right {full:g} points, right but "
                                    f"incomplete {incomplete:g}) does not fit its {points:g} points: scored by the default",
                              span, hint="write scoring=exam incomplete_points=N on the question in the source")
            return
        data.update(points=full, scoring="exam", incomplete_points=incomplete)

    def _pairing(self, q: Question, data: Data, answer: str, label: str) -> bool:
        """A pairing exercise: numbered items, then ``( )`` slots each to be given an item's
        number; its answer gives the numbers in the slots' order (``2, 1, 3``). A matching
        question whose prompts are the slots; items no slot takes are distractors. An answer
        that does not give each slot one item's number is an error at the answer."""
        numbers = [int(n) for n in re.findall(r"\d+", answer)]
        items = {ordinal: self.text(join(lines), q) for ordinal, (_, lines) in zip(q.ordinals, q.options)}
        if len(numbers) != len(q.pair_slots) or any(n not in items for n in numbers):
            self.builder.sink.error(UNCLEAR, f"question '{label}' (line {q.line}): a pairing exercise of {len(q.pair_slots)} slots "
                                             f"and items {', '.join(map(str, sorted(items)))} needs one item's number per slot, in "
                                             f"order; the answer '{short(answer, 40)}' does not give that", self.answer_span(q),
                                    hint="write the answer as the numbers of the slots, in order: 'Answer: 2, 1, 3'")
            return False
        data["type"] = "matching"
        data["pairs"] = [{"prompt": self.text(text, q), "answer": items[n]} for (_, text), n in zip(q.pair_slots, numbers)]
        used = {items[n] for n in numbers}
        data["distractors"] = [text for text in items.values() if text not in used]
        return True

    def answer_span(self, q: Question, role: str = "answer") -> SourceSpan:
        """Where a question's answer (or another labelled part) is: the key's entry, or the value after its label."""
        if role == "answer" and q.keyed is not None:
            return self.span(*q.keyed)
        line = q.label_lines.get(role, q.line)
        value = first_line(join(q.labels.get(role, [])))
        return self.span(line, self.column(line, value) if value else 1)

    def _choice(self, q: Question, data: Data, answer: str, label: str, kind: str) -> bool:
        """A question with options: which the answer names (or the page marks), or the reason it is skipped."""
        options = q.choices()
        answer_span = self.answer_span(q)
        letters, unknown = answer_letters(answer, options, q.style)
        more = answer if says_more(answer, options, q.style) else after_first(answer)
        if q.marked:
            marked = sorted(q.marked)
            if (letters or unknown) and sorted(letters + unknown) != marked:
                self.builder.warn(AMBIGUOUS, f"question '{label}': the options marked correct ({', '.join(marked)}) and the answer "
                                             f"'{short(first_line(answer))}' disagree; the marked options were kept", answer_span)
            elif not letters:
                more = answer  # an answer that names no option, beside marked ones: what it says is why
            letters, unknown = marked, []
        names = [S.option_label(q.style, ordinal) if not _lettered(q.style) else letter for letter, _, ordinal in options]
        if unknown or (q.keyed and not letters):
            said = ", ".join(unknown) if unknown else short(first_line(answer))
            if q.keyed:
                self.builder.sink.error(UNMATCHED_KEY, f"the answer key's entry for question {q.number} names {said}, which is not an "
                                                       f"option of question {q.number} (line {q.line}; its options are "
                                                       f"{names[0]}–{names[-1]})", answer_span,
                                        hint="correct the key's entry; if the question has more options, check that each "
                                             "starts its line or follows the one before on it ('① … ② …')")
                return False
            self.builder.skip(kind, INVALID, f"question '{label}' was skipped: its answer names {said}, which is not "
                                             f"an option (the options are {names[0]}–{names[-1]})", answer_span,
                              hint="correct the answer's letter")
            return False
        if not letters:
            problem, hint = NO_ANSWER.get(q.kind, NO_ANSWER["question"])
            self.builder.skip(kind, INVALID, f"question '{label}' was skipped: {problem}", self.span(q.line, q.column), hint=hint)
            return False
        empty = [name for name, (_, text, _) in zip(names, options) if not text.strip()]
        if empty:
            self.builder.skip(kind, INVALID, f"question '{label}' was skipped: option {', '.join(empty)} has no text",
                              self.span(q.line, q.column), hint="give every option its text")
            return False
        if len(options) < 2:
            self.builder.skip(kind, INVALID, f"question '{label}' was skipped: it has one option; a choice needs two",
                              self.span(q.line, q.column))
            return False
        if more and not data["feedback"].get("general"):
            data["feedback"]["general"] = self.text(more, q)
        choices = []
        for letter, text, _ in options:
            text = repaired(text, answer) if letter in letters and len(letters) == 1 else text
            choice = {"id": letter, "text": self.text(text, q), "correct": letter in letters}
            if q.choice_feedback.get(letter):
                choice["feedback"] = self.text(q.choice_feedback[letter], q)
            choices.append(choice)
        data.update(type="single_choice" if len(letters) == 1 and q.kind != "HTML checkbox" else "multiple_response",
                    choices=choices)
        if not _lettered(q.style) or q.style == "lower-alpha":
            data["numbering"] = q.style
        return True

    def _open(self, q: Question, data: Data, answer: str, stem_lines: list[str], section_kind: str | None, model: bool) -> bool:
        """A question without options: its type told from its answer as the Markdown reader tells
        it (readers/markdown/questions.classify), a number read as a number; an answer that
        contradicts the question, or whose type cannot be told, is an error at the answer."""
        label = short(join(q.stem))
        first = first_line(plain_fence(answer))
        if not answer:
            if section_kind == "essay" or q.labels.get("grading"):
                data.update(type="essay")  # the page says what it is: an essay, graded by hand
                return True
            if q.labels.get("explanation") and any(line.strip() for line in q.labels["explanation"]):
                # Explained but not answered ("… 설명하세요." and its 해설): a question to discuss, said at its line.
                data.update(type="essay")
                self.builder.warn(LOST, f"question '{label}' has no options and no answer: imported as an essay without a model answer",
                                  self.span(q.line, q.column))
                return True
            # What students answer and how it is graded cannot be told: an essay would collect text
            # where the paper may want a choice, a mark or a word (options run into the text, an
            # answer space left empty, notes that are no question). Build refuses it too (QB128).
            self.builder.sink.error(UNCLEAR, f"question '{label}' (line {q.line}) has no options and no answer, so what "
                                             "students answer and how it is graded cannot be told", self.span(q.line, q.column),
                                    hint="give its answer under it ('Answer: …', '정답: …') or in the answer key; write its "
                                         "options one a line ('A) …'); for an essay graded by hand, put it under a section "
                                         "titled 'Essay' ('서술형') or give a model answer ('Model answer: …')")
            return False
        truth = self.dialect.truth(first)
        truth = S.every_truth(first) if truth is None else truth
        if truth is not None:
            data["stem"], marks = true_false_marks(data["stem"], first, self.dialect)
            data.update(type="true_false", answer=truth, **({"labels": list(marks)} if marks else {}))
            self._more(data, answer, q)
            return True
        number = S.NUMERIC_ANSWER.match(S.ascii_number(S.bare(first)))
        if number and not model:
            if number.group("low") is not None:
                low, high = sorted((float(number.group("low")), float(number.group("high"))))
                entry: Data = {"value": (low + high) / 2, "tolerance": (high - low) / 2}
            else:
                entry = {"value": float(number.group("value")), "tolerance": float(number.group("tol") or 0)}
                if number.group("pct"):
                    entry["tolerance_mode"] = "percent"
            data.update(type="numerical", answers=[entry])
            self._more(data, answer, q)
            return True
        kind, code = classify(answer, stem_lines, self.dialect, section_kind, model)
        if kind == "matching" and (found := exam_matching(stem_lines, answer)):
            data.update(type="matching", stem=self.text(join(found[1]), q), **found[0])
            return True
        if kind == "ordering" and (found_order := exam_ordering(stem_lines, answer)):
            data.update(type="ordering", stem=self.text(join(found_order[1]), q), **found_order[0])
            return True
        if kind == "fill_in_blank" and (blanked := exam_blanks(join(stem_lines), answer, self.dialect)):
            data.update(type="fill_in_blank", **self._blanks(blanked, q))
            return True
        if kind in ("matching", "ordering", "fill_in_blank"):
            code = "QB177" if kind != "fill_in_blank" else "QB176"
        if kind == "short_answer":
            data.update(type="short_answer", answers=[{"text": word} for word in S.accepted_answers(answer, self.dialect.or_words)])
            return True
        if kind == "essay" and code is None:
            data.update(type="essay", model_answer=self.text(answer, q))
            return True
        problem, hint = UNTYPED.get(code or "", UNTYPED["QB175"])
        text = short(first, 40)
        self.builder.sink.error(UNCLEAR, f"question '{label}' (line {q.line}): {problem.format(answer=text)}", self.answer_span(q),
                                hint=hint)
        return False

    def _more(self, data: Data, answer: str, q: Question) -> None:
        """What the answer says after its first line: the explanation, when there is none."""
        more = after_first(answer)
        if more and not data["feedback"].get("general"):
            data["feedback"]["general"] = self.text(more, q)

    def _blanks(self, stem: str, q: Question) -> Data:
        """A text with ``[[answer | other]]`` blanks -> the model's stem with ``[[b1]]`` and its blanks."""
        blanks: list[Data] = []
        pieces = re.split(r"(\[\[.*?\]\])", stem)
        out = []
        for piece in pieces:
            found = re.fullmatch(r"\[\[(.*?)\]\]", piece)
            if found:
                blanks.append({"id": f"b{len(blanks) + 1}", "kind": "text", "answers": [a.strip() for a in found.group(1).split("|")]})
                out.append(f"[[b{len(blanks)}]]")
            else:
                out.append(self.text(piece, q) if piece.strip() else piece)
        return {"stem": "".join(out), "blanks": blanks}

    def one_answer(self, q: Question) -> str:
        """The question's answer. A question answered twice ("Answer: B", then an answer block
        saying C) keeps the first, reported; the same answer twice is one answer."""
        given = q.labels.get("answer", [])
        starts = [index for _, index in q.answer_starts]
        parts = [join(given[start:end], paragraphs=True) for start, end in zip(starts, starts[1:] + [len(given)])]
        options = q.choices()

        def means(text: str) -> object:
            return sorted(answer_letters(text, options, q.style)[0]) or None if options else plain(first_line(plain_fence(text)))

        named = [(line, part) for (line, _), part in zip(q.answer_starts, parts) if part and means(part)]
        if len(named) > 1 and any(means(part) != means(named[0][1]) for _, part in named[1:]):
            (first_at, first), (line, other) = named[0], next((n for n in named[1:] if means(n[1]) != means(named[0][1])))
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem))}' has two answers: '{short(first_line(first))}' at line "
                                         f"{first_at} and '{short(first_line(other))}' here; the first was kept",
                                      self.span(line, self.column(line, first_line(other))),
                              hint="delete the answer that is wrong")
            return join(given[:starts[1]] if len(starts) > 1 else given, paragraphs=True)
        if len(named) > 1:
            # The same answer twice ("Answer: A", "Correct answer: A) Lead"): once, and what the
            # others say besides.
            kept = [parts[0]] + [part if options and says_more(part, options, q.style) else after_first(part) for part in parts[1:]]
            return "\n\n".join(part for part in kept if part)
        return join(given, paragraphs=True)

    def text(self, text: str, q: Question | None = None) -> str:
        """Markdown pages keep their Markdown; plain text is escaped where it would render differently."""
        if self.markdown or not text or (q is not None and q.converted):
            return text
        # Hangul right before a Latin letter: the scrape dropped the code span (and its space)
        # between them, as in "Trainer와ScalingConfig가".
        # Code fences and tables were recognised as such: they are Markdown, not text to escape
        # (nor to space: the Hangul repair is for prose).
        out = []
        for block in paragraphs(text):
            if FENCE_LINE.match(block) or TABLE_WITH_BODY.match(block):
                out.append(block)
                continue
            block = re.sub(r"([\uac00-\ud7a3])(?=[A-Za-z`])", r"\1 ", block)
            out.append(block if renders_as_text(block) else escape_markdown(block))
        return "\n\n".join(out)
