"""One GIFT question block, read the way Moodle's ``qformat_gift::readquestion`` reads it
(question/format/gift/format.php): comments out, escapes hidden, ``$CATEGORY:``, the
``::name::``, the first ``{`` and the first ``}``, the type decided from the answer text, then
one reader per type. Where Moodle refuses a question (its import stops at the error, unless
"stop on error" is off), the question is reported and skipped; where Moodle reads something
differently from how it looks, it is read as Moodle reads it, with a warning.

Positions are kept: escapes are replaced by two characters, as long as what they replace, so
every offset in the block's text is a line and column of the file.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote

from ...content import plain_text
from ...diagnostics import SourceSpan
from ...model.common import storable_idnumber
from ..base import INVALID, LOST, MEDIA, SURPRISE, QuizBuilder, choice_ids, one_line, same_title, set_choice_scores
from ..moodletext import GRADE_HINT, TEXT_FORMATS, default_name, grade_problem, plain_markdown, to_markdown

Data = dict[str, Any]

#: An escaped character is held as this mark and the character's code moved into the private use area.
_MARK = "\ue000"
#: ``\\`` and the GIFT escapes (escapedchar_pre); ``\n`` is a line break.
_ESCAPES = {"\\": "\\", ":": ":", "#": "#", "=": "=", "{": "{", "}": "}", "~": "~", "n": "\n"}
#: giftanswerweightregex: Moodle reads a weight only when it matches this.
WEIGHT = re.compile(r"%-*([0-9]{1,2})\.?([0-9]*)%")
TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}
#: PHP's is_numeric, for the numbers of a numerical answer.
NUMBER = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*")
IDNUMBER = re.compile(r"\[id:((?:\\\]|[^\]\x00-\x1f\x7f])+)\]")
TAG = re.compile(r"\[tag:((?:\\\]|[^\]<>`\x00-\x1f\x7f])*)\]")
PLUGINFILE = re.compile(r"@@PLUGINFILE@@/([^\"'\s<>)]+)")
_MEDIA_TAG = re.compile(r"<(img|audio|video|source)\b([^>]*?)\s*/?>", re.I)
_IMAGE = re.compile(r"!\[([^\]]*)\]\((@@PLUGINFILE@@/[^)\s]+)\)")


def escape(text: str) -> str:
    """escapedchar_pre, keeping lengths: ``\\:`` becomes a mark and a stand-in for ``:``."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1:i + 2] in _ESCAPES:
            out.append(_MARK + chr(0xE000 + ord(_ESCAPES[text[i + 1]])))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def unescape(text: str) -> str:
    """escapedchar_post: the escaped characters back."""
    return re.sub(_MARK + "(.)", lambda m: chr(ord(m.group(1)) - 0xE000), text, flags=re.S)


@dataclass
class Line:
    number: int
    #: The line without the spaces around it (readquestions trims every line).
    text: str
    indent: int


@dataclass
class Piece:
    """A part of the text and where it starts in the block."""

    text: str
    at: int

    def strip(self) -> Piece:
        lead = len(self.text) - len(self.text.lstrip())
        return Piece(self.text.strip(), self.at + lead)


@dataclass
class Question:
    """What a block gave: a question's data, or a category."""

    data: Data
    span: SourceSpan
    end_line: int
    label: str
    preferred_id: str | None
    kind: str
    changed: bool


@dataclass
class Category:
    text: str
    span: SourceSpan
    #: The lines after ``$CATEGORY:`` in the same block, which hold a question.
    rest: Block | None = None


class Block:
    """One question's lines (between blank lines), as readquestion gets them."""

    def __init__(self, lines: list[Line], display: str) -> None:
        self.lines, self.display = lines, display
        self.comments = "\n".join(line.text for line in lines if line.text.startswith("//"))
        self.joined = "\n".join(" " if line.text.startswith("//") else line.text for line in lines)
        self.starts = [0]
        for line in lines[:-1]:
            self.starts.append(self.starts[-1] + len(line.text) + 1)

    def span(self, at: int) -> SourceSpan:
        index = max(bisect_right(self.starts, at) - 1, 0)
        line = self.lines[index]
        column = line.indent + min(max(at - self.starts[index], 0), len(line.text)) + 1
        return SourceSpan(self.display, line.number, column if not line.text.startswith("//") else 1)

    def after(self, at: int) -> Block | None:
        """The lines after the one holding offset ``at``."""
        index = bisect_right(self.starts, at)
        return Block(self.lines[index:], self.display) if index < len(self.lines) else None


@dataclass
class BlockReader:
    """Reads one block: :meth:`read` gives a :class:`Question`, a :class:`Category` or None."""

    builder: QuizBuilder
    block: Block
    kind: str = "unreadable"
    changed: bool = False
    data: Data = field(default_factory=dict)

    # -- reporting -----------------------------------------------------------------------------

    def lose(self, message: str, at: int, hint: str | None = None) -> None:
        self.changed = True
        self.builder.warn(LOST, f"{self.where()}: {message}", self.block.span(at), hint)

    def note(self, message: str, at: int, hint: str | None = None) -> None:
        self.builder.warn(SURPRISE, f"{self.where()}: {message}", self.block.span(at), hint)

    def refuse(self, message: str, at: int, hint: str | None = None) -> None:
        """A question Moodle refuses: skipped (Moodle's import stops at it)."""
        self.builder.skip(self.kind, INVALID, f"{self.where()} ({self.kind}) was skipped: {message}", self.block.span(at),
                          hint or "Moodle refuses it too (with 'Stop on error', its default, Moodle imports nothing from the file)")

    def where(self) -> str:
        name = self.data.get("_name")
        return f"question '{name}'" if name else f"the {_WORDS[self.kind]} question" if self.kind in _WORDS else "the question"

    # -- texts ---------------------------------------------------------------------------------

    def formatted(self, piece: Piece, default: str) -> tuple[str, str, int]:
        """parse_text_with_format: (format, text with escapes undone, offset of the text)."""
        fmt, text, at = default, piece.text, piece.at
        if text.startswith("["):
            end = text.find("]")
            if end > 0 and text[1:end] in TEXT_FORMATS:
                fmt, text, at = text[1:end], text[end + 1:], at + end + 1
        return fmt, unescape(text).strip(), at

    def markdown(self, piece: Piece, default: str, where: str) -> str:
        fmt, text, at = self.formatted(piece, default)
        text = self.plugin_files(text, fmt, at)
        return to_markdown(self.builder, text, fmt, self.block.span(at), f"{where} of {self.where()}")

    def plugin_files(self, text: str, fmt: str, at: int) -> str:
        """``@@PLUGINFILE@@/name`` points into a Moodle question's files, which a GIFT file does not
        have: reported, and images and other media become links, so that the source builds."""
        names = sorted({unquote(name) for name in PLUGINFILE.findall(text)})
        if not names:
            return text
        self.changed = True
        self.builder.warn(MEDIA, f"{self.where()}: {', '.join(names)} (@@PLUGINFILE@@) cannot be imported: a GIFT file holds no files",
                          self.block.span(at), hint="put the file in the source's media/ folder and show it with ![description](media/name)")

        def link(match: re.Match[str]) -> str:
            src = re.search(r"""\bsrc\s*=\s*["']?(@@PLUGINFILE@@/[^"'\s>]+)""", match.group(2))
            if not src:
                return match.group(0)
            alt = re.search(r"""\balt\s*=\s*["']([^"']*)["']""", match.group(2))
            label = (alt.group(1) if alt and alt.group(1).strip() else "") or unquote(src.group(1).rsplit("/", 1)[-1])
            return f'<a href="{src.group(1)}">{label}</a>'

        if fmt == "markdown":
            return _IMAGE.sub(lambda m: f"[{m.group(1) or unquote(m.group(2).rsplit('/', 1)[-1])}]({m.group(2)})", text)
        return _MEDIA_TAG.sub(link, text) if fmt in ("moodle", "html") else text

    # -- the block -----------------------------------------------------------------------------

    def read(self) -> Question | Category | None:
        block = self.block
        text = escape(block.joined)
        start = len(text) - len(text.lstrip())
        end = len(text.rstrip())
        if start >= end:
            return None  # comments only
        if text.startswith("$CATEGORY:", start):
            newline = text.find("\n", start)
            if newline == -1 or newline >= end:
                return Category(unescape(text[start + 10:end]).strip(), block.span(start))
            return Category(unescape(text[start + 10:newline]).strip(), block.span(start), block.after(newline))
        name = None
        if text.startswith("::", start):
            finish = text.find("::", start + 2)
            if finish == -1 or finish >= end:
                start += 2
            else:
                name = one_line(_strip_tags(unescape(text[start + 2:finish])))
                start = finish + 2
                start += len(text[start:end]) - len(text[start:end].lstrip())
        before = _short(unescape(text[start:end].split("{", 1)[0]))
        self.data["_name"] = name or (before if re.search(r"\w", before) else None)
        return self._question(Piece(text[start:end], start), name)

    def _question(self, body: Piece, name: str | None) -> Question | None:
        text, at = body.text, body.at
        math = _math_spans(text)
        text = _hand_written_tex(text, math)
        opening, closing = _brace(text, "{", 0, math), _brace(text, "}", 0, math)
        first = text.find("{")
        if first != -1 and first != opening and any(a <= first < b for a, b in math):
            # A brace of a TeX formula (\begin{pmatrix}) written unescaped: Moodle takes it for
            # the answer part; the formula around it says it is not one.
            self.note("a '{' inside a formula is read as part of the formula, not as the answer part; Moodle would take it "
                      "for the answer part", at + first, hint="write \\{ and \\} for the formula's braces so that Moodle reads it alike")
        answer = Piece("", at)
        if opening == -1 and closing == -1:
            self.kind, question = "description", Piece(text, at)
        elif opening == -1 or closing == -1 or closing < opening:
            lone = opening if closing == -1 else closing
            what = ("'}' comes before '{'" if opening != -1 and closing != -1
                    else "a '{' without its '}'" if closing == -1 else "a '}' without its '{'")
            self.refuse(f"{what} (an answer part is one {{...}}; write \\{{ and \\}} for braces in the text)", at + lone,
                        hint="Moodle refuses it too (braceerror); with 'Stop on error', its default, Moodle imports nothing from the file")
            return None
        else:
            answer = Piece(text[opening + 1:closing], at + opening + 1).strip()
            rest = text[closing + 1:]
            # Moodle removes the first {...}; text after it makes it a missing-word question.
            question = Piece(text[:opening] + ("" if text.endswith("}") else "_____") + rest, at)
            more = next((m for m in re.finditer(r"[{}]", rest)
                         if not any(a <= closing + 1 + m.start() < b for a, b in math)), None)
            if more:
                self.note("only the first {...} holds answers: Moodle keeps the rest of the text, braces and all, as question text",
                          at + closing + 1 + more.start(), hint="write \\{ and \\} for braces that are text")
        cut = answer.text.rfind("####")
        if cut != -1:
            general_piece = Piece(answer.text[cut + 4:], answer.at + cut + 4)
            answer = Piece(answer.text[:cut].rstrip(), answer.at)
        else:
            general_piece = None
        fmt, stem_text, stem_at = self.formatted(question, "moodle")
        self.kind = self.kind if self.kind == "description" else _kind(answer.text)
        self.data.update({"_fmt": fmt, "feedback": {}})
        self.data["stem"] = to_markdown(self.builder, self.plugin_files(stem_text, fmt, stem_at), fmt, self.block.span(stem_at),
                                        f"the text of {self.where()}")
        if general_piece is not None:
            general = self.markdown(general_piece, fmt, "the general feedback")
            if general:
                self.data["feedback"]["general"] = general
        reader = getattr(self, "_" + self.kind)
        if reader(answer) is False:
            return None
        return self._finish(name, stem_text)

    def _finish(self, name: str | None, stem_text: str) -> Question:
        data = {k: v for k, v in self.data.items() if not k.startswith("_")}
        label = name or default_name(stem_text)
        derived = plain_text(data["stem"], 100) if data.get("stem") else ""
        if label and not same_title(label, derived):
            data["title"] = label
        comments = self.block.comments
        idnumber = IDNUMBER.search(comments)
        tags = [t.replace("\\]", "]").strip() for t in TAG.findall(comments)]
        data["tags"] = list(dict.fromkeys(" ".join(t.split()) for t in tags if t.strip()))
        preferred = idnumber.group(1).replace("\\]", "]").strip() if idnumber else None
        if preferred and storable_idnumber(preferred):
            # As Moodle's GIFT import keeps it ([id:W3 Q1]); the builder drops it where the id gives it back.
            data["moodle_idnumber"] = preferred
        first = next(line for line in self.block.lines if not line.text.startswith("//"))
        return Question(data, SourceSpan(self.block.display, first.number, first.indent + 1), self.block.lines[-1].number,
                        label or one_line(data.get("stem", "")), preferred, self.kind, self.changed)

    # -- one reader per type -------------------------------------------------------------------

    def _description(self, answer: Piece) -> None:
        self.data.update(type="text_only", points=0)

    def _essay(self, answer: Piece) -> None:
        self.data["type"] = "essay"

    def _weight(self, piece: Piece, default: float) -> tuple[float, Piece] | None:
        """answerweightparser: the weight of ``%50%answer`` (else ``default``) and the rest."""
        match = WEIGHT.match(piece.text)
        if not match:
            return default, piece
        raw = piece.text[1:piece.text.index("%", 1)]
        try:
            weight = float(raw) / 100
        except ValueError:
            self.refuse(f"the weight %{raw}% is not a number", piece.at)
            return None
        if grade_problem(weight):
            self.refuse(f"the weight %{raw}% is not one of Moodle's grade options", piece.at,
                        hint=GRADE_HINT + " (and, with 'Stop on error', its default, imports nothing from the file)")
            return None
        return weight, Piece(piece.text[match.end():], piece.at + match.end())

    def _comment(self, piece: Piece) -> tuple[Piece, Piece | None]:
        """commentparser: an answer and its feedback after the first '#'."""
        cut = piece.text.find("#")
        if cut == -1:
            return piece.strip(), None
        return Piece(piece.text[:cut], piece.at).strip(), Piece(piece.text[cut + 1:], piece.at + cut + 1).strip()

    def _feedback(self, piece: Piece | None, where: str) -> str:
        return self.markdown(piece, self.data["_fmt"], where) if piece is not None else ""

    def _multichoice(self, answer: Piece) -> bool | None:
        single = "=" in answer.text
        pieces = _first_trimmed(_split(answer, "~", "="))
        if len(pieces) < 2:
            self.refuse("a multiple-choice question needs at least two answers", answer.at)
            return False
        fractions: list[float] = []
        choices: list[Data] = []
        places: list[int] = []
        for piece in (p.strip() for p in pieces):
            if piece.text.startswith("="):
                weight: float = 1.0
                piece = Piece(piece.text[1:], piece.at + 1)
                if WEIGHT.match(piece.text):
                    self.note("a weight after '=' is answer text to Moodle (the answer is right): write ~%50% for a weight",
                              piece.at)
            else:
                weighed = self._weight(piece, 0.0)
                if weighed is None:
                    return False
                weight, piece = weighed
            text, feedback = self._comment(piece)
            markdown = self.markdown(text, self.data["_fmt"], f"answer {len(choices) + 1}")
            if not markdown:
                continue  # Moodle leaves empty answers out
            choices.append({"text": markdown, "feedback": self._feedback(feedback, f"the feedback of answer {len(choices) + 1}")})
            fractions.append(weight * 100)
            places.append(piece.at)
        if len(choices) < 2:
            self.refuse("a multiple-choice question needs at least two answers that are not empty", answer.at)
            return False
        for ident, choice, fraction in zip(choice_ids(len(choices)), choices, fractions):
            choice.update(id=ident, correct=fraction > 0)
        self.data.update(choices=choices, shuffle=True)
        if not single:
            self.data["type"] = "multiple_response"
            set_choice_scores(self.data, fractions)
        else:
            best = max(fractions)
            for choice, fraction, place in zip(choices, fractions, places):
                choice["correct"] = fraction == best and best > 0
                if fraction != best and fraction != 0:
                    self.lose(f"the weight {fraction:g} % of answer {choice['id']} (a single-choice question is all or nothing)",
                              place)
            if sum(c["correct"] for c in choices) > 1:
                self.data["type"] = "multiple_response"
                self.lose("several answers marked '=' in a one-answer question: imported as multiple response", answer.at)
            else:
                self.data["type"] = "single_choice"
        return None

    def _truefalse(self, answer: Piece) -> None:
        bits = answer.text.split("#", 2)
        value = TRUE_FALSE[unescape(bits[0]).strip()]
        offset = answer.at
        feedback: list[Piece] = []
        for bit in bits[1:]:
            offset += len(bits[len(feedback)]) + 1
            feedback.append(Piece(bit, offset).strip())
        wrong = self._feedback(feedback[0], "the feedback for a wrong answer") if feedback else ""
        right = self._feedback(feedback[1], "the feedback for a right answer") if len(feedback) > 1 else ""
        self.data.update(type="true_false", answer=value, true_feedback=right if value else wrong,
                         false_feedback=wrong if value else right)

    def _answers(self, pieces: list[Piece], what: str) -> list[tuple[float, Piece, Piece | None]] | None:
        """Short-answer and numerical answers: (weight, answer, feedback); full marks by default."""
        answers = []
        for piece in (p.strip() for p in pieces):
            weighed = self._weight(piece, 1.0)
            if weighed is None:
                return None
            weight, rest = weighed
            text, feedback = self._comment(rest)
            if weight < 0:
                self.lose(f"the weight {weight * 100:g} % of {what} '{unescape(text.text)}' (answers score 0 % or more): it scores 0 %",
                          piece.at)
                weight = 0.0
            answers.append((weight, text, feedback))
        return answers

    def _shortanswer(self, answer: Piece) -> bool | None:
        if answer.text.strip().upper() in TRUE_FALSE:
            self.note(f"Moodle reads {{{unescape(answer.text).strip()}}} as a short answer: true/false is written T, TRUE, F or FALSE, "
                      "in capitals", answer.at)
        answers = self._answers(_first_trimmed(_split(answer, "=")), "answer")
        if answers is None:
            return False
        best = max((weight for weight, _, _ in answers), default=0.0)
        if best != 1:
            self.refuse(f"no answer is worth 100 % (the best is {best * 100:g} %)", answer.at)
            return False
        kept: list[Data] = []
        for weight, text, feedback in answers:
            _, value, _ = self.formatted(text, self.data["_fmt"])
            note = self._feedback(feedback, f"the feedback of answer '{value}'")
            if value == "*" and weight == 0:  # Moodle's "any other answer": the incorrect feedback
                if note:
                    self.data["feedback"]["incorrect"] = note
                continue
            if not value:
                self.lose("an empty answer is left out", text.at)
                continue
            kept.append({"text": one_line(value), "score": weight * 100, "feedback": note})
        self.data.update(type="short_answer", answers=kept, case_sensitive=False)
        return None

    def _numerical(self, answer: Piece) -> bool | None:
        body = Piece(answer.text[1:], answer.at + 1)
        wrong = None
        tilde = body.text.find("~")
        if tilde != -1:
            wrong = Piece(body.text[tilde:], body.at + tilde)
            body = Piece(body.text[:tilde], body.at)
        pieces = _first_trimmed(_split(body, "="))
        if not pieces:
            self.refuse("a numerical question needs an answer", answer.at)
            return False
        answers = self._answers(pieces, "answer")
        if answers is None:
            return False
        kept: list[Data] = []
        for weight, text, feedback in answers:
            _, value, _ = self.formatted(text, self.data["_fmt"])
            number = self._number(value, text.at)
            if number is False:
                return False
            note = self._feedback(feedback, f"the feedback of answer '{value}'")
            if number is None:
                if weight == 0:  # "*": any other answer, which the incorrect feedback is
                    if note:
                        self.data["feedback"]["incorrect"] = note
                else:
                    self.lose(f"the answer '{value}' is not a number: Moodle accepts any response for it ('*'), which the source cannot say",
                              text.at)
                continue
            kept.append({"value": number[0], "tolerance": abs(number[1]), "score": weight * 100, "feedback": note})
        if not kept:
            self.refuse("no answer is a number (Moodle makes each such answer '*', any response)", answer.at)
            return False
        if wrong is not None:
            _, feedback = self._comment(Piece(wrong.text, wrong.at))
            note = self._feedback(feedback, "the feedback for a wrong answer")
            if note:
                self.data["feedback"]["incorrect"] = note
        self.data.update(type="numerical", answers=kept)
        return None

    def _number(self, value: str, at: int) -> tuple[float, float] | None | Literal[False]:
        """(answer, tolerance) of ``min..max``, ``answer:tolerance`` or ``answer``; None for an
        answer Moodle makes '*' (not a number); False for a question Moodle refuses."""
        if value.find("..") > 0:
            low, high = value.split("..", 1)
            if not (NUMBER.fullmatch(low) and NUMBER.fullmatch(high)):
                self.refuse(f"the range '{value}' is not two numbers", at)
                return False
            middle = _php_float((float(low) + float(high)) / 2)
            return middle, _php_float(float(high) - middle)
        if value.find(":") > 0:
            answer, tolerance = value.split(":", 1)
        else:
            answer, tolerance = value, "0"
        if not NUMBER.fullmatch(tolerance):
            self.refuse(f"the margin of '{value}' is not a number", at)
            return False
        return (float(answer), float(tolerance)) if NUMBER.fullmatch(answer) else None

    def _match(self, answer: Piece) -> bool | None:
        pieces = _first_trimmed(_split(answer, "="))
        if len(pieces) < 2:
            self.refuse("a matching question needs at least two pairs", answer.at)
            return False
        pairs, distractors = [], []
        for piece in (p.strip() for p in pieces):
            arrow = piece.text.find("->")
            if arrow == -1:
                self.refuse(f"'{unescape(piece.text)}' has no '->' (each answer of a matching question is =prompt -> answer)", piece.at)
                return False
            prompt = self.markdown(Piece(piece.text[:arrow], piece.at), self.data["_fmt"], "a prompt")
            target = unescape(piece.text[arrow + 2:]).strip()
            if not target:
                if prompt:
                    self.refuse(f"the prompt '{one_line(prompt)}' has no answer after '->'", piece.at)
                    return False
                continue
            if prompt:
                pairs.append({"prompt": prompt, "answer": plain_markdown(target)})
            else:
                distractors.append(plain_markdown(target))
        self.data.update(type="matching", pairs=pairs, distractors=distractors, shuffle=True)
        return None


_WORDS = {"description": "description", "essay": "essay", "numerical": "numerical", "multichoice": "multiple-choice",
          "match": "matching", "truefalse": "true/false", "shortanswer": "short-answer"}


#: TeX between delimiters, in a block's text with its escapes shown as written (\\( is \( there).
_TEX = re.compile(r"\$\$.*?\$\$|\\\(.*?\\\)|\\\[.*?\\\]", re.S)


def _math_spans(text: str) -> list[tuple[int, int]]:
    """Where formulas are in an escaped text (escaping keeps lengths: the text as written has
    its formulas at the same places)."""
    written = re.sub(_MARK + "(.)", lambda m: "\\" + chr(ord(m.group(1)) - 0xE000), text, flags=re.S)
    return [(m.start(), m.end()) for m in _TEX.finditer(written)]


def _hand_written_tex(text: str, math: list[tuple[int, int]]) -> str:
    r"""A formula written with unescaped braces was written as TeX, not escaped for GIFT: its
    ``\\`` is TeX's line break and its ``\\nu`` a letter, kept as written (Moodle's export writes
    ``\\\\`` and ``\\\\nu`` for them, and ``\{``)."""
    for a, b in math:
        if "{" in text[a:b]:
            written = text[a:b]
            for char in ("\\", "n"):
                written = written.replace(_MARK + chr(0xE000 + ord(_ESCAPES[char])), "\\" + char)
            text = text[:a] + written + text[b:]
    return text


def _brace(text: str, brace: str, start: int, math: list[tuple[int, int]]) -> int:
    """The first unescaped ``brace`` from ``start`` that is not inside a formula; -1 for none."""
    at = text.find(brace, start)
    while at != -1 and any(a <= at < b for a, b in math):
        at = text.find(brace, at + 1)
    return at


def _kind(answer: str) -> str:
    """The type, decided as Moodle decides it from the answer text (escapes hidden)."""
    if answer == "":
        return "essay"
    if answer.startswith("#"):
        return "numerical"
    if "~" in answer:
        return "multichoice"
    if "=" in answer and "->" in answer:
        return "match"
    check = answer[:answer.find("#")].strip() if answer.find("#") > 0 else answer
    return "truefalse" if check in TRUE_FALSE else "shortanswer"


def _split(piece: Piece, separator: str, starter: str | None = None) -> list[Piece]:
    """explode() with offsets; ``starter`` also starts a new part and stays in it (Moodle writes
    '=' as '~=' before exploding a multiple-choice answer text on '~')."""
    parts, begin = [], 0
    for i, char in enumerate(piece.text):
        if char == separator:
            parts.append(Piece(piece.text[begin:i], piece.at + begin))
            begin = i + 1
        elif char == starter:
            parts.append(Piece(piece.text[begin:i], piece.at + begin))
            begin = i
    parts.append(Piece(piece.text[begin:], piece.at + begin))
    return parts


def _first_trimmed(parts: list[Piece]) -> list[Piece]:
    """Moodle trims the first part and drops it when it is empty."""
    if parts and not parts[0].text.strip():
        return parts[1:]
    return parts


def _strip_tags(text: str) -> str:
    return re.sub(r"<[^\s>][^>]*>", "", text)


def _php_float(value: float) -> float:
    """The number as Moodle stores it: PHP writes a float with 14 significant digits."""
    return float(f"{value:.14g}")


def _short(text: str, width: int = 50) -> str:
    text = one_line(_strip_tags(text))
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"
