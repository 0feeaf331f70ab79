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
from ..base import INVALID, LOST, QuizBuilder
from ..markup import escape_markdown, renders_as_text
from .syntax import (AMBIGUOUS, FENCE_LINE, LABEL, LABELS, NO_ANSWER, TABLE_WITH_BODY, WRAPPED, Question, after_first,
                     answer_letters, first_line, join, leaked_at, paragraphs, plain, plain_fence, repaired, says_more, short,
                     unglue_labels)

Data = dict[str, Any]


class Emitter:
    def __init__(self, builder: QuizBuilder, span: Callable[[int], SourceSpan], markdown: bool) -> None:
        self.builder, self.span, self.markdown = builder, span, markdown
        #: The stems written, for the quiz's language.
        self.texts: list[str] = []

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
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem)) or '(no text)'}': {where} holds a labelled line "
                                         f"('{short(moved[0].strip(), 30)}'); it and what follows were read as the answer and "
                                         "explanation, not shown with the question", self.span(q.line),
                              hint="end the question's text before its answer")
            for line in moved:
                bare = re.sub(r"^(?:&gt;|>|\s|\\)+", "", line.strip())
                wrapped = WRAPPED.fullmatch(bare)
                label = LABEL.match(wrapped.group(2) if wrapped and LABEL.match(wrapped.group(2)) else bare.replace("\\", ""))
                if label:
                    q.open(LABELS[label.group(1).lower()], q.line)
                    assert q.current is not None
                    q.current.append(label.group(2).strip())
                elif q.current is not None and q.mode == "label":
                    q.current.append(line.strip())

    def emit(self, q: Question) -> None:
        """The question into the builder as the model's data, or skipped with the reason."""
        self.guard(q)
        stem = self.text(join(q.stem), q)
        self.texts.append(stem)
        data: Data = {"stem": stem, "feedback": {}}
        for role, key in (("explanation", "general"), ("correct", "correct"), ("incorrect", "incorrect"),
                          ("partially_correct", "partially_correct")):
            if q.labels.get(role) and any(q.labels[role]):
                data["feedback"][key] = self.text(join(q.labels[role], paragraphs=True), q)
        answer = self.one_answer(q)
        span, answer_span = self.span(q.line), self.span(q.label_lines.get("answer", q.line))
        label = short(join(q.stem))
        kind = q.kind if q.kind != "question" else ("multiple choice" if q.options else "question")
        if not plain_text(stem).strip() and not re.search(r"!\[|<(img|video|audio|math)\b|\$", stem):
            self.builder.skip(kind, INVALID, f"question '{label or '(no text)'}' was skipped: it has no text a student would see "
                                             "(what it holds the build's sanitiser removes)", span,
                              hint="give the question its text")
            return
        if q.options:
            options = [(letter, join(text)) for letter, text in q.options]
            letters, unknown = answer_letters(answer, options)
            more = answer if says_more(answer, options) else after_first(answer)
            if q.marked:
                marked = sorted(q.marked)
                if (letters or unknown) and sorted(letters + unknown) != marked:
                    self.builder.warn(AMBIGUOUS, f"question '{label}': the options marked correct ({', '.join(marked)}) and the answer "
                                                 f"'{short(first_line(answer))}' disagree; the marked options were kept", answer_span)
                elif not letters:
                    more = answer  # an answer that names no option, beside marked ones: what it says is why
                letters, unknown = marked, []
            if unknown:
                self.builder.skip(kind, INVALID, f"question '{label}' was skipped: its answer names {', '.join(unknown)}, which is not "
                                                 f"an option (the options are {options[0][0]}–{options[-1][0]})", answer_span,
                                  hint="correct the answer's letter")
                return
            if not letters:
                problem, hint = NO_ANSWER.get(q.kind, NO_ANSWER["question"])
                self.builder.skip(kind, INVALID, f"question '{label}' was skipped: {problem}", span, hint=hint)
                return
            empty = [letter for letter, text in options if not text.strip()]
            if empty:
                self.builder.skip(kind, INVALID, f"question '{label}' was skipped: option {', '.join(empty)} has no text", span,
                                  hint="give every option its text")
                return
            if len(options) < 2:
                self.builder.skip(kind, INVALID, f"question '{label}' was skipped: it has one option; a choice needs two", span)
                return
            if more and not data["feedback"].get("general"):
                data["feedback"]["general"] = self.text(more, q)
            choices = []
            for letter, text in options:
                text = repaired(text, answer) if letter in letters and len(letters) == 1 else text
                choices.append({"id": letter, "text": self.text(text, q), "correct": letter in letters})
            data.update(type="single_choice" if len(letters) == 1 and q.kind != "HTML checkbox" else "multiple_response",
                        choices=choices)
        elif S.infers_true_false(first_line(plain_fence(answer))):
            data.update(type="true_false", answer=S.bare(first_line(plain_fence(answer))) in S.TRUE_WORDS)
            more = after_first(answer)
            if more and not data["feedback"].get("general"):
                data["feedback"]["general"] = self.text(more, q)
        elif answer:
            data.update(type="essay", model_answer=self.text(answer, q))
        else:
            data.update(type="essay")
            self.builder.warn(LOST, f"question '{label}' has no options and no answer: imported as an essay without a model answer", span)
        self.builder.add(q.section, data, span, stem, end_line=max(q.end, q.line), kind=kind)

    def one_answer(self, q: Question) -> str:
        """The question's answer. A question answered twice ("Answer: B", then an answer block
        saying C) keeps the first, reported; the same answer twice is one answer."""
        given = q.labels.get("answer", [])
        starts = [index for _, index in q.answer_starts]
        parts = [join(given[start:end], paragraphs=True) for start, end in zip(starts, starts[1:] + [len(given)])]
        options = [(letter, join(text)) for letter, text in q.options]

        def means(text: str) -> object:
            return sorted(answer_letters(text, options)[0]) or None if options else plain(first_line(plain_fence(text)))

        named = [(line, part) for (line, _), part in zip(q.answer_starts, parts) if part and means(part)]
        if len(named) > 1 and any(means(part) != means(named[0][1]) for _, part in named[1:]):
            (first_at, first), (line, other) = named[0], next((n for n in named[1:] if means(n[1]) != means(named[0][1])))
            self.builder.warn(AMBIGUOUS, f"question '{short(join(q.stem))}' has two answers: '{short(first_line(first))}' at line "
                                         f"{first_at} and '{short(first_line(other))}' here; the first was kept", self.span(line),
                              hint="delete the answer that is wrong")
            return join(given[:starts[1]] if len(starts) > 1 else given, paragraphs=True)
        if len(named) > 1:
            # The same answer twice ("Answer: A", "Correct answer: A) Lead"): once, and what the
            # others say besides.
            kept = [parts[0]] + [part if options and says_more(part, options) else after_first(part) for part in parts[1:]]
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
