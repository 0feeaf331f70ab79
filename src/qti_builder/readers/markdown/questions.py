"""Second pass: one question draft -> plain model data, by kind (one builder per kind, in a table).

Every problem is reported at its line and column; the model validates the result once more.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from ...diagnostics import DiagnosticSink, SourceSpan, shorten
from ...i18n import TRUE_FALSE, true_false_labels
from ..base import Loc, SourceMap, suggest
from . import syntax as S
from .blocks import Block, Label, Question
from .calculated import calculated, calculated_choice


class QuestionBuilder:
    def __init__(self, source: SourceMap, sink: DiagnosticSink, defaults: dict[str, Any], language: str = "en") -> None:
        self.source = source
        self.sink = sink
        self.defaults = defaults
        #: True/false words: the dialect's, and the quiz language's own labels (``Vrai``, ``Faux``).
        true_label, false_label = true_false_labels(language)
        self.true_words = S.TRUE_WORDS + (true_label.lower(),)
        self.false_words = S.FALSE_WORDS + (false_label.lower(),)

    def warning(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.warning(code, message, SourceSpan(self.source.path, line, column), hint)

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.sink.error(code, message, SourceSpan(self.source.path, line, column), hint)

    def build(self, q: Question, loc: Loc) -> dict[str, Any]:
        self.source.at(loc, q.line)
        stem = q.stem.text()
        data: dict[str, Any] = {"id": "q" + digest(stem), "stem": stem}
        self.source.at(loc + ("stem",), q.stem.line, q.stem.column)
        if not stem:
            self.error("QB130", "the question has no text", q.line, hint="write the question after the number: '1. What is ...?'")
        hidden = self._hidden_labels(q)
        kind = q.kind or self._infer(q, report=not hidden)
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
        for key, value in self.defaults.items():
            if key in S.COMMON_ATTRIBUTES + S.KIND_ATTRIBUTES[kind] and kind != "text_only":
                data.setdefault(key, value)
        self._feedback(q, loc, data)
        self._check_labels(q, kind)
        if not hidden:
            BUILDERS[kind](self, q, loc, data)
        if q.kind is None and kind == "essay":
            self._doubtful_essay(q)
        return data

    # -- shared -----------------------------------------------------------------------------------

    def _infer(self, q: Question, report: bool = True) -> str | None:
        answers = q.labels_of("answer")
        if q.options:
            return "single_choice" if not answers or len(self._letters(q, answers[0], report=False)) <= 1 else "multiple_response"
        if q.items:
            return None
        if not answers:
            if report:
                self.error("QB128", "the question has no options and no answer", q.line, hint=_missing_type_hint(q))
            return None
        if len(answers) == 1 and S.infers_true_false(answers[0].block.text()):
            return "true_false"
        return "essay"

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
        """An essay the reader guessed from an answer that looks like another type's: say so."""
        answer = q.label("answer")
        doubt = essay_doubt(answer.block.text(), q.stem.lines, self.true_words + self.false_words) if answer else None
        if answer is None or doubt is None:
            return
        text = shorten(answer.block.text(), 40)
        at = (answer.line, answer.block.column)
        keep = "; to keep an essay with this model answer, add {type=essay}"
        if doubt == "QB171":
            self.warning(doubt, f"the answer '{text}' is a number, but the question is read as an essay with it as the "
                         "model answer", *at, hint="add {type=numerical} to the question line to grade the number" + keep)
        elif doubt == "QB172":
            self.warning(doubt, f"the answer '{text}' means true or false, but the question is read as an essay with it "
                         "as the model answer", *at,
                         hint="write 'Answer: true' or 'Answer: false', or add {type=true_false} to the question line" + keep)
        elif _LETTER.fullmatch(S.bare(answer.block.text())):
            self.warning(doubt, f"the answer '{text}' names an option, but the question has no options, so it is read "
                         "as an essay", *at, hint="write each option at the left margin as 'A) text' (not indented, "
                                                  "not '(A)', 'A:' or '- text')" + keep)
        else:
            self.warning(doubt, f"the answer '{text}' is one of the items listed in the question, but they are not "
                         "options, so the question is read as an essay", *at,
                         hint="write each option at the left margin as 'A) text' and give its letter: 'Answer: B'" + keep)

    def _feedback(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        keys = {"explanation": "general", "correct": "correct", "incorrect": "incorrect", "partially_correct": "partially_correct"}
        feedback = {}
        for role, key in keys.items():
            label = q.label(role)
            if label and label.block.text():
                feedback[key] = label.block.text()
                self.source.at(loc + ("feedback", key), label.line, label.block.column)
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
        if answers and kind in S.ITEM_KINDS:
            self.error("QB129", f"{_article(kind)} {kind} question has no 'Answer:': its list is the answer",
                       answers[0].line, answers[0].column, hint="remove the answer block: write the list itself in the right order or pairs")
        if q.options and kind not in S.OPTION_KINDS:
            self.error("QB132", f"{_article(kind)} {kind} question has no options", q.options[0].line,
                       hint="remove the options, or change the type attribute")
        if q.items and kind not in S.ITEM_KINDS:
            self.error("QB132", f"{_article(kind)} {kind} question has no list of items", q.items[0].line,
                       hint="remove the list, or change the type attribute to matching or ordering")

    def _letters(self, q: Question, answer: Label, report: bool = True) -> list[str]:
        value = answer.block.text()
        letters = [o.letter for o in q.options]
        single = re.match(r"^([A-Za-z])(?:[.)]\s*(.*))?$", value, re.S)
        many = re.match(r"^[A-Za-z](?:\s*[,/]\s*[A-Za-z])+$", value.rstrip(S.TRAILING_PUNCTUATION))
        if single:
            picked = [single.group(1).upper()]
            option = next((o for o in q.options if o.letter == picked[0]), None)
            if report and single.group(2) and option and _plain(single.group(2)) != _plain(option.text.text()):
                self.sink.warning("QB124", f"the answer's text differs from option {picked[0]}",
                                  SourceSpan(self.source.path, answer.line, answer.block.column),
                                  hint="copy the option's text, or give only its letter")
        elif many:
            picked = [c.upper() for c in re.findall(r"[A-Za-z]", value)]
        else:
            if report:
                named = [o.letter for o in q.options if _plain(o.text.text()).lower() == _plain(S.bare(value))]
                fix = f"'Answer: {named[0]}'" if named else "e.g. 'Answer: B' or 'Answer: A, C'"
                self.error("QB125", f"cannot read the answer '{shorten(value, 40)}'", answer.line, answer.block.column,
                           hint=f"give the letter of the correct option, {fix}")
            return []
        for letter in picked if report else []:
            if letter not in letters:
                self.error("QB126", f"the answer names option {letter}, which does not exist", answer.line, answer.block.column,
                           hint=f"options are {', '.join(letters)}")
        return picked

    def _one_answer(self, q: Question, kind: str, required: bool = True) -> Label | None:
        answer = q.label("answer")
        if answer is None and required:
            self.error("QB120", f"the {kind} question has no answer", q.line,
                       hint="add a line 'Answer: ...' (or '정답: ...') at the left margin after the question")
        return answer

    # -- one builder per kind ---------------------------------------------------------------------

    def choice(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        choices: list[dict[str, Any]] = []
        letters: list[str] = []
        for k, opt in enumerate(q.options):
            if opt.letter in letters:
                self.error("QB122", f"option {opt.letter} appears twice", opt.line,
                           hint=f"give each option its own letter, such as {_next_letter(letters)})")
            letters.append(opt.letter)
            text = opt.text.text()
            if not text:
                self.error("QB123", f"option {opt.letter} has no text", opt.line,
                           hint=f"write the option's text after '{opt.letter})', or remove the option")
            choice: dict[str, Any] = {"id": opt.letter, "text": text, "correct": False}
            if "score" in opt.attrs and data["type"] != "multiple_response":
                self.error("QB109", "a score on an option applies only to multiple-response questions", opt.line,
                           opt.attrs.pop("score")[1], hint="remove {score=...}, or mark several answers ('Answer: A, C')")
            for key, (value, col) in opt.attrs.items():
                choice[key] = value
                self.source.at(loc + ("choices", k, key), opt.line, col)
            if opt.feedback and opt.feedback.text():
                choice["feedback"] = opt.feedback.text()
            self.source.at(loc + ("choices", k), opt.line)
            choices.append(choice)
        data["choices"] = choices
        if not q.options:
            self.error("QB127", f"a {data['type']} question needs options", q.line,
                       hint="add options at the left margin: 'A) ...', 'B) ...'")
            return
        answer = q.label("answer")
        if answer is None:
            self.error("QB120", "the question has options but no correct answer", q.line,
                       hint="add a line 'Answer: B' (or '정답: B') at the left margin after the options")
            return
        correct = self._letters(q, answer)
        for choice in choices:
            choice["correct"] = choice["id"] in correct
        if data["type"] == "single_choice" and len(correct) > 1:
            self.error("QB121", f"a single-choice question has {len(correct)} correct answers", answer.line, answer.block.column,
                       hint="give one letter, or drop type=single_choice to make it a multiple-response question")

    def true_false(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answer = self._one_answer(q, "true/false")
        if answer is None:
            return
        word = S.bare(answer.block.text())
        if word not in self.true_words + self.false_words:
            self.error("QB138", f"a true/false answer is one of {', '.join(S.TRUE_WORDS[:2] + S.FALSE_WORDS[:2])}, not '{shorten(word, 40)}'",
                       answer.line, answer.block.column, hint="write 'Answer: true' or 'Answer: false' (or '정답: 참' or '정답: 거짓')")
            return
        data["answer"] = word in self.true_words
        self.source.at(loc + ("answer",), answer.line, answer.block.column)
        # Correct/incorrect feedback becomes the feedback of the right and the wrong answer.
        feedback = data.get("feedback", {})
        right, wrong = ("true", "false") if data["answer"] else ("false", "true")
        if "correct" in feedback:
            data[f"{right}_feedback"] = feedback.pop("correct")
        if "incorrect" in feedback:
            data[f"{wrong}_feedback"] = feedback.pop("incorrect")

    def short_answer(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answers = []
        for k, label in enumerate(q.labels_of("answer")):
            entry: dict[str, Any] = {"text": label.block.text()}
            if "\n" in entry["text"]:
                self.error("QB149", "an accepted answer is one line, but this one goes on", label.line + 1, 1,
                           hint="put each accepted answer on its own 'Answer:' line; indent feedback as '   Feedback: ...'")
            self._scored(label, entry, loc + ("answers", k))
            answers.append(entry)
        if not answers:
            self._one_answer(q, "short-answer")
        data["answers"] = answers

    def numerical(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
        answers = []
        for k, label in enumerate(q.labels_of("answer")):
            text = label.block.text()
            match = S.NUMERIC_ANSWER.match(text.replace(" ", ""))
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
            self.source.at(loc + ("model_answer",), answer.line, answer.block.column)

    def matching(self, q: Question, loc: Loc, data: dict[str, Any]) -> None:
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
            blanks.append(blank)
            return f"[[{blank_id}]]"

        data["stem"] = S.BLANK.sub(replace, data["stem"])
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


BUILDERS: dict[str, Callable[[QuestionBuilder, Question, Loc, dict[str, Any]], None]] = {
    "single_choice": QuestionBuilder.choice,
    "multiple_response": QuestionBuilder.choice,
    "true_false": QuestionBuilder.true_false,
    "short_answer": QuestionBuilder.short_answer,
    "numerical": QuestionBuilder.numerical,
    "essay": QuestionBuilder.essay,
    "file_upload": QuestionBuilder.no_answer,
    "matching": QuestionBuilder.matching,
    "ordering": QuestionBuilder.ordering,
    "fill_in_blank": QuestionBuilder.fill_in_blank,
    "calculated": calculated,
    "calculated_choice": calculated_choice,
    "text_only": QuestionBuilder.no_answer,
}


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=4).hexdigest()


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


#: Every true/false word the dialect or a quiz language knows (``Vrai``, ``Falsch``, ...).
ALL_TRUE_FALSE = S.TRUE_WORDS + S.FALSE_WORDS + tuple(word.lower() for pair in TRUE_FALSE.values() for word in pair)
_LETTER = re.compile(r"\(?[a-z]\)?[.)]?")


def essay_doubt(answer: str, stem_lines: list[str], true_false_words: tuple[str, ...]) -> str | None:
    """The warning an essay guessed from ``answer`` deserves, when the answer looks like another
    type's: QB171 a number, QB172 a true/false word, QB173 an option (a letter, or the text of an
    item listed in the question). None for an ordinary model answer."""
    value = S.bare(answer)
    if S.NUMERIC_ANSWER.match(value.replace(" ", "")):
        return "QB171"
    if value in true_false_words:
        return "QB172"
    if _LETTER.fullmatch(value) or any(_plain(item).lower() == _plain(value) for item in _listed(stem_lines)):
        return "QB173"
    return None


#: Lines in question text that look like options the reader does not take as options.
_LISTED = re.compile(r"^\s*(?:[-*+]\s+(?:\(?[A-Za-z][.):]\s+)?|\(?[A-Za-z]\)\s+|\s+[A-Za-z][.)]\s+|[A-Za-z]\s*[:：]\s+)(.+?)\s*$")


def _listed(lines: list[str]) -> list[str]:
    return [m.group(1) for m in map(_LISTED.match, lines[1:]) if m]


def _next_letter(letters: list[str]) -> str:
    return next((c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in letters), "Z")


def _plain(markdown: str) -> str:
    return " ".join(markdown.replace("`", "").split())


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
