"""The dialect's vocabulary: markers, labels and attributes, as data.

English and Korean spellings of one label sit side by side; adding a language is adding lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterator, NamedTuple

from ... import vocabulary as V
from ...kinds import KINDS

#: Label (lower case) -> the role of its block, in every language (vocabulary.LANGUAGES). A quiz
#: reads the labels of English, Korean and its own language (:func:`dialect`); these are every
#: language's, for text students see, where a label of any language must not land.
QUESTION_LABELS: dict[str, str] = {name: role for name, role in V.all_labels().items() if role != "feedback"}
#: Indented under an option, or under one of several answers.
CHOICE_LABELS: dict[str, str] = {name: role for name, role in V.all_labels().items() if role == "feedback"}

#: Front-matter keys, mapped to model keys (``lang`` is a common alias). ``settings`` is the quiz
#: settings mapping, as in YAML sources; its keys are not accepted flat (docs/source-format.md#quiz-settings).
FRONT_MATTER_KEYS = {
    "id": "id",
    "title": "title",
    "language": "language",
    "lang": "language",
    "description": "description",
    "points": "points",
    "shuffle": "shuffle",
    "settings": "settings",
    "total": "stated_points",
    "moodle_idnumber": "moodle_idnumber",
}

#: Attributes every question takes, and those that only some kinds take.
COMMON_ATTRIBUTES = ("id", "points", "type", "title", "tags", "ignore", "moodle_idnumber")
KIND_ATTRIBUTES: dict[str, tuple[str, ...]] = {name: spec.markdown_attributes for name, spec in KINDS.items()}
QUESTION_ATTRIBUTES = COMMON_ATTRIBUTES + tuple(sorted({a for attrs in KIND_ATTRIBUTES.values() for a in attrs}))
#: Attributes whose value is a comma-separated list.
LIST_ATTRIBUTES = ("tags", "allowed_types", "ignore")
SECTION_ATTRIBUTES = ("id", "shuffle", "select", "moodle_idnumber")
OPTION_ATTRIBUTES = ("fixed", "score")

#: Kinds whose answers are lettered options (``A) ...``).
OPTION_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "options")
#: Kinds whose answers are a bullet list after the question text.
ITEM_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "list")
#: Kinds that may have several ``Answer:`` lines, each with an optional ``(50%)`` score.
MULTI_ANSWER_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "answers")

#: Words for true and false answers that ``type=true_false`` takes in any quiz (the quiz page
#: importer's keys use them too). What a question without a type reads as true/false is the
#: quiz's :class:`Dialect`'s.
TRUE_WORDS = ("true", "참", "t", "yes", "o", "맞음", "예")
FALSE_WORDS = ("false", "거짓", "f", "no", "x", "틀림", "아니오")
#: Punctuation an answer may end with without changing what it means (``Answer: False.``, ``B.``).
TRAILING_PUNCTUATION = ".!。！．"


def bare(text: str) -> str:
    """An answer without the punctuation at its end, in lower case: what a word answer means."""
    return text.strip().rstrip(TRAILING_PUNCTUATION).strip().lower()


def infers_true_false(answer: str, language: str = "en") -> bool:
    """An answer that makes a question without options true/false in a quiz in ``language``:
    ``true``, ``False.``, ``참``, ``O``, ``×``, ``No`` (docs/source-format.md)."""
    return dialect(language).truth(answer) is not None


# -- the dialect of one quiz ---------------------------------------------------------------------


@dataclass(frozen=True)
class Dialect:
    """What a quiz in one language reads: English's, Korean's and its own language's words."""

    language: str
    labels: dict[str, str]
    choice_labels: dict[str, str]
    model_answer_labels: frozenset[str]
    true_words: tuple[str, ...]
    false_words: tuple[str, ...]
    or_words: tuple[str, ...]
    and_words: tuple[str, ...]
    section_kinds: dict[str, str]

    def truth(self, answer: str) -> bool | None:
        """True or False for a true/false word of this dialect (or an O/X mark), else None."""
        word = bare(answer)
        if word in self.true_words:
            return True
        if word in self.false_words:
            return False
        return None

    def marks(self, answer: str) -> tuple[str, str] | None:
        """The pair of marks an answer such as ``O`` or ``×`` is one of: the labels students see."""
        word = answer.strip().rstrip(TRAILING_PUNCTUATION).strip()
        preferred = V.PREFERRED_MARKS.get(self.language)
        pairs = ((preferred,) if preferred else ()) + V.MARK_PAIRS
        return next((pair for pair in pairs if word.lower() in (pair[0].lower(), pair[1].lower())), None)

    def section_kind(self, title: str) -> str | None:
        """The question type a section title names (``Ⅱ. 단답형``, ``Short answer``), if any."""
        lowered = title.lower()
        return next((kind for word, kind in sorted(self.section_kinds.items(), key=lambda w: -len(w[0]))
                     if word in lowered), None)


@lru_cache(maxsize=32)
def dialect(language: str) -> Dialect:
    langs = V.active(language)
    labels = {n: r for lang in langs for n, r in lang.labels.items()}
    return Dialect(
        language=V.language(language),
        labels={n: r for n, r in labels.items() if r != "feedback"},
        choice_labels={n: r for n, r in labels.items() if r == "feedback"},
        model_answer_labels=frozenset(n for lang in langs for n in lang.model_answer_labels),
        true_words=V.words("true_words", langs) + V.MARK_TRUE,
        false_words=V.words("false_words", langs) + V.MARK_FALSE,
        or_words=V.words("or_words", langs),
        and_words=V.words("and_words", langs),
        section_kinds={w: k for lang in V.LANGUAGES.values() for w, k in lang.section_kinds.items()},
    )


#: Every true/false word of every language, for ``type=true_false`` (which says what is meant).
def every_truth(answer: str) -> bool | None:
    word = bare(answer)
    if word in TRUE_WORDS or word in V.words("true_words") or word in V.MARK_TRUE:
        return True
    if word in FALSE_WORDS or word in V.words("false_words") or word in V.MARK_FALSE:
        return False
    return None


# -- labels ----------------------------------------------------------------------------------------

#: ``Name: value``, with or without a space after the colon. A backslash before the colon
#: (``Answer\:``) makes the line ordinary text.
LABEL = re.compile(r"^([^\W\d_][^:：\\]{0,40}?)\s*[:：](\s*)(.*?)\s*$")
#: ``[정답] ③``, ``【解説】``: a label in brackets, with or without a colon after it.
BRACKET_LABEL = re.compile(rf"^([{re.escape(V.OPEN_BRACKETS)}(（])\s*([^\W\d_][^{re.escape(V.CLOSE_BRACKETS)})）:：\\]{{0,40}}?)\s*"
                           rf"[{re.escape(V.CLOSE_BRACKETS)})）]\s*[:：]?(\s*)(.*?)\s*$")
LABEL_SCORE = re.compile(r"^(.*?)\s*\(\s*(-?\d+(?:\.\d+)?)\s*%\s*\)$")
#: ``정답 - ①``, ``Answer – B``: a known label with a dash (and spaces) for its colon.
DASH_LABEL = re.compile(r"^([^\W\d_][^:：\\\-–—=]{0,40}?)\s*(?:[-–—]\s+|=\s*)(.*?)\s*$")
#: ``답) ①``, ``정답) ②``: a known answer label closed by a parenthesis for its colon, as Korean papers
#: write it. Answer labels only: ``풀이)`` above a text may be a heading of the text students read.
PAREN_LABEL = re.compile(r"^([^\W\d_][^:：()（）\\]{0,40}?)[)）]\s*(.*?)\s*$")
#: ``정답 ④``, ``Answer B``, ``正解 イ``: a known answer label, a space, and a value only an answer is
#: (an option, a truth mark, a number); ``해설`` or ``Explanation`` alone on its line. Read as labels.
_BARE_LABEL = re.compile(r"^(" + "|".join(re.escape(n) for n in sorted(V.all_labels(), key=len, reverse=True)) + r")(?:\s+(\S.*?))?\s*$",
                         re.I)


@dataclass(frozen=True)
class LabelLine:
    """A line that has the form of a label; whether its name is one is for the caller to ask."""

    #: As written, without brackets: ``Answer (50%)``.
    raw: str
    #: Lower case, without a score: ``answer``.
    name: str
    score: float | None
    value: str
    #: Offset of the value in the line as given (the value's column is this + 1).
    value_offset: int
    #: A space (or nothing) after the colon: ``Note:text`` is no label unless Note is one.
    spaced: bool
    bracketed: bool


def read_label(text: str) -> LabelLine | None:
    """The label form of a line (stripped of its indentation), or None."""
    found = LABEL.match(text)
    bracketed = False
    dashed = DASH_LABEL.match(text) if found is None else None
    if dashed is not None and dashed.group(1).strip().lower() in V.all_labels():
        raw, value = dashed.group(1).strip(), dashed.group(2)
        return LabelLine(raw, raw.lower(), None, value, dashed.start(2) if value else len(text), True, False)
    closed = PAREN_LABEL.match(text) if found is None else None
    if closed is not None and V.all_labels().get(closed.group(1).strip().lower()) == "answer" \
            and not (len(closed.group(1).strip()) == 1 and closed.group(1).isascii()):  # ``A) text``: an option
        raw, value = closed.group(1).strip(), closed.group(2)
        return LabelLine(raw, raw.lower(), None, value, closed.start(2) if value else len(text), True, False)
    if found is None:
        found = BRACKET_LABEL.match(text)
        if found is None or found.group(2).strip().lower() not in V.all_labels():
            return _bare_label(text)
        bracketed = True
        raw, space, value, offset = found.group(2).strip(), found.group(3), found.group(4), found.start(4)
    else:
        raw, space, value, offset = found.group(1).strip(), found.group(2), found.group(3), found.start(3)
    scored = LABEL_SCORE.match(raw)
    name = (scored.group(1) if scored else raw).strip().lower()
    if len(name) == 1 and name.isascii():
        return None  # ``A: text`` is an option written with a colon, not a label
    return LabelLine(raw, name, float(scored.group(2)) if scored else None, value, offset if value else len(text),
                     bool(space) or not value or bracketed, bracketed)


#: ``Ans. 3``: the abbreviated answer label with its full stop for a colon, as papers print it.
_ABBREVIATED_ANSWER = re.compile(r"^(ans)\.\s+(\S.*?)\s*$", re.I)


def _bare_label(text: str) -> LabelLine | None:
    """``정답 ④`` and ``해설`` alone: labels without their colon, where the line can be nothing else."""
    found = _BARE_LABEL.match(text)
    if found is None:
        abbreviated = _ABBREVIATED_ANSWER.match(text)
        if abbreviated is None:
            return None
        return LabelLine(abbreviated.group(1), abbreviated.group(1).lower(), None, abbreviated.group(2), abbreviated.start(2),
                         True, False)
    raw, value = found.group(1), found.group(2) or ""
    role = V.all_labels()[raw.lower()]
    if not value:
        return LabelLine(raw, raw.lower(), None, "", len(text), True, False) if role not in ("answer", "feedback") else None
    if role != "answer" or not answer_shaped(value):
        return None
    return LabelLine(raw, raw.lower(), None, value, found.start(2), True, False)


def answer_shaped(value: str) -> bool:
    """A value that can only be an answer: an option (``④``, ``B``), a truth mark (``O``, ``참``), a number."""
    if option_refs(value) is not None:
        return True
    found = _SHORT_ANSWER.match(value.strip())
    if found is None:
        return False
    word = found.group(1)
    # One mark, or two Latin letters (``B``, ``ii``); not a word such as ``보기`` ("정답 보기": a toggle).
    return (len(word) == 1 or (len(word) == 2 and word.isascii()) or NUMERIC_ANSWER.match(word.replace(" ", "")) is not None
            or bare(word) in TRUE_WORDS + FALSE_WORDS or CIRCLED.fullmatch(word) is not None)


def label_lines(markdown: str) -> list[tuple[int, int, LabelLine]]:
    """Lines of a Markdown text that start with a label of any language (``Answer:``,
    ``Explanation:``, ``[정답]``, ``解説:``, ``피드백:``, ...), outside code: (line index, column,
    the label read from the line stripped). In text students see, such a line is an answer or a
    grader's note in the wrong place."""
    found: list[tuple[int, int, LabelLine]] = []
    fence: str | None = None
    for i, line in enumerate(markdown.split("\n")):
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[:1] == fence[:1] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        depth = len(line) - len(line.lstrip(" \t"))
        label = read_label(line.strip()) if depth < 4 else None
        if label and (label.name in QUESTION_LABELS or label.name in CHOICE_LABELS) and label.spaced:
            found.append((i, depth + 1, label))
    return found


def written_label(text: str, label: LabelLine) -> str:
    """A label as the line (``text``, stripped) writes it, with the mark that makes it one: ``답)``,
    ``정답 -``, ``[정답]``, ``Answer (50%):``, ``Ans.``; a label without a mark (``정답 ④``, ``해설``
    alone) is its words."""
    return text[:label.value_offset].rstrip()


def escaped_label(written: str, label: LabelLine) -> str:
    """A label as written, with the escape that makes its line text students see: its mark (the
    colon, parenthesis, dash or full stop after it, or the bracket before it) escaped. Markdown
    escapes ASCII punctuation with a backslash (``답\\)``, ``\\[정답]``); a full-width mark (``：``,
    ``）``, ``【``, ``–``) is written as its character reference, which shows students the same
    mark (a backslash before it would be shown). A label without a mark (``정답 ④``) takes a
    character reference for the space after it. The reader's hints (QB145) and the source writer
    (``qti-builder import``) both escape with this function, so what one says the other writes."""
    at = 0 if label.bracketed else len(written) - 1
    mark = written[at]
    if mark.isalnum():
        return written + "&#32;"
    escape = "\\" + mark if mark.isascii() else f"&#{ord(mark)};"
    return written[:at] + escape + written[at + 1:]


def escape_label_line(text: str, label: LabelLine) -> str:
    """The line (``text``, stripped) read as ``label``, with its label escaped as
    :func:`escaped_label` escapes it, so that the reader reads it as text and students see it
    as written. The character reference of a label without a mark stands for the space after it."""
    written = written_label(text, label)
    escaped, rest = escaped_label(written, label), text[len(written):]
    if escaped.endswith("&#32;") and rest[:1].isspace():
        rest = rest[1:]
    return escaped + rest


#: A label in bold or italics, which is not read as a label: ``**Answer:** B``, ``*Answer*: B``.
MARKED_LABEL = re.compile(r"^[*_]{1,3}([^\W\d_][^:：*_]{0,40}?)\s*(?:[:：]\s*[*_]{1,3}|[*_]{1,3}\s*[:：])(?:\s*(.*?))?\s*$")
#: What an answer without its label's colon may be (``Answer B``, ``정답 참``, ``Answer - 42``):
#: short enough not to be a sentence such as "Answer the questions below".
_SHORT_ANSWER = re.compile(r"^(?:[-–—=]\s*)?([A-Za-z](?:\s*[,/]\s*[A-Za-z])*|[-+]?\d[\d.,]*(?:\s*(?:±|\+/?-)\s*[\d.]+%?)?|\S+)[.!]?$")


def disguised_label(line: str, labels: dict[str, str] | None = None) -> tuple[str, str, str] | None:
    """A line meant as a label that the reader does not take as one: (the label as written, the
    role, how it is disguised: "bold" or "colon"). None for any other line."""
    labels = QUESTION_LABELS if labels is None else labels
    text = line.strip()
    marked = MARKED_LABEL.match(text)
    if marked:
        role = labels.get(marked.group(1).strip().lower())
        return (marked.group(1).strip(), role, "bold") if role else None
    lowered = text.lower()
    if not lowered or lowered[0] not in _answer_initials(tuple(labels.items())):
        return None
    for name, role in labels.items():
        if role == "answer" and lowered.startswith(name + " "):
            rest = text[len(name):].strip()
            value = _SHORT_ANSWER.match(rest)
            if value and (len(value.group(1)) <= 2 or NUMERIC_ANSWER.match(value.group(1).replace(" ", ""))
                          or bare(value.group(1)) in TRUE_WORDS + FALSE_WORDS or CIRCLED.fullmatch(value.group(1))):
                return text[: len(name)], role, "colon"
    return None


@lru_cache(maxsize=16)
def _answer_initials(labels: tuple[tuple[str, str], ...]) -> frozenset[str]:
    return frozenset(name[0] for name, role in labels if role == "answer")


# -- questions --------------------------------------------------------------------------------------

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
#: A question number: what CommonMark takes as an ordered-list number, up to 9 digits (a
#: section of 10,000 questions and more reads; a longer number is a paragraph in Markdown).
QUESTION_NUMBER = r"\d{1,9}"
QUESTION = re.compile(rf"^({QUESTION_NUMBER})[.)]\s+(.*?)\s*$")
#: A question line whose number is longer than Markdown allows (reported, then read as a question).
LONG_NUMBER = re.compile(r"^(\d{10,})[.)]\s+(.*?)\s*$")


def _alternatives(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_LATIN_WORDS = tuple(w for w in V.words("question_words") if w.isascii() or w[0].isalpha() and w[0] < "ㄱ")
_CJK_WORDS = tuple(w for w in V.words("question_words") if w not in _LATIN_WORDS)
_SUFFIXES = _alternatives(V.words("number_suffixes"))
_OPEN, _CLOSE = re.escape(V.OPEN_BRACKETS), re.escape(V.CLOSE_BRACKETS)
#: Question numbers as exam papers print them, each -> its form's name (for the first question's
#: form, see :func:`question_start`).
QUESTION_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # 1． 1） 1、 (full-width, and the Chinese enumeration comma), with or without a space
    ("．", re.compile(rf"^({QUESTION_NUMBER})\s*[．）、]\s*(.*?)\s*$")),
    # 1번, 1번. 1번)
    ("번", re.compile(rf"^({QUESTION_NUMBER})\s*(?:{_SUFFIXES})\s*[.)．）:：]?\s*(.*?)\s*$")),
    # [문제 1], 【問1】, [Question 1]
    ("[]", re.compile(rf"^[{_OPEN}]\s*(?:{_alternatives(V.words('question_words'))})\s*({QUESTION_NUMBER})\s*(?:{_SUFFIXES})?\s*"
                      rf"[{_CLOSE}]\s*[.:：]?\s*(.*?)\s*$", re.I)),
    # 문제 1. 問1 問 1 문항1)
    ("문제", re.compile(rf"^(?:{_alternatives(_CJK_WORDS)})\s*({QUESTION_NUMBER})\s*(?:{_SUFFIXES})?"
                        rf"(?:\s*[.．):：)）]\s*|\s+|$)(.*?)\s*$")),
    # Question 1. Q1) Frage 1: Pregunta 1 (alone on its line, or with a stop, colon or bracket)
    ("Question", re.compile(rf"^(?:{_alternatives(_LATIN_WORDS)})\s*({QUESTION_NUMBER})(?:\s*[.．):：)）]\s*(.*?)|\s*())\s*$", re.I)),
    # 第1题 第1問
    ("第", re.compile(rf"^第\s*({QUESTION_NUMBER})\s*[题題問问]\s*[.．:：、]?\s*(.*?)\s*$")),
)


#: Question types that exams number questions by, written before the number (``[서술형 1]``,
#: ``서술형 2.``, ``단답형 1)``, ``記述問題1``): each word -> the type it names. Words in Latin letters
#: are left out: ``Essay 1 is due ...`` is a sentence.
KIND_NUMBER_WORDS = {w: k for lang in V.LANGUAGES.values() for w, k in lang.section_kinds.items() if not w.isascii()}
_KIND_WORDS_ALT = "|".join(re.escape(w) for w in sorted(KIND_NUMBER_WORDS, key=len, reverse=True))
#: ``[서술형 1]`` and ``서술형 1.``: a question numbered within its type.
KIND_NUMBERED = (
    re.compile(rf"^[{_OPEN}]\s*({_KIND_WORDS_ALT})\s*({QUESTION_NUMBER})\s*(?:{_SUFFIXES})?\s*[{_CLOSE}]\s*[.:：]?\s*(.*?)\s*$"),
    re.compile(rf"^({_KIND_WORDS_ALT})\s*({QUESTION_NUMBER})\s*(?:{_SUFFIXES})?\s*[.．):：)）]\s*(.*?)\s*$"),
)


@dataclass(frozen=True)
class QuestionStart:
    number: int
    #: Offset of the question text in the line (its column is this + 1).
    text_offset: int
    text: str
    #: "." or ")" for the Markdown forms ``1.`` and ``1)``, else the form's name.
    form: str
    #: The type the question is numbered within (``서술형 1.``: an essay), if any.
    kind: str | None = None


#: What a question line can start with: a digit, a bracket, 第, or a question word's first letter.
_QUESTION_INITIALS = frozenset("0123456789" + V.FULL_WIDTH_DIGITS + "第" + V.OPEN_BRACKETS
                               + "".join(w[0] + w[0].upper() for w in (*V.words("question_words"), *KIND_NUMBER_WORDS)))


#: A line that starts a question with a word (``Question 1.``, ``문제 1``, ``서술형 2.``) starts with
#: one of these: ``Answer: B`` and ``A) ...`` need not be tried against every form.
_QUESTION_WORD = re.compile(_alternatives((*V.words("question_words"), *KIND_NUMBER_WORDS)), re.I)
_NUMBER_INITIALS = frozenset("0123456789" + V.FULL_WIDTH_DIGITS + "第" + V.OPEN_BRACKETS)


def question_start(line: str) -> QuestionStart | None:
    """A line (at the left margin) that starts a question, in any of the forms exams print."""
    if not line or line[0] not in _QUESTION_INITIALS:
        return None
    if line[0] not in _NUMBER_INITIALS and not _QUESTION_WORD.match(line):
        return None
    found = QUESTION.match(line)
    if found:
        return QuestionStart(int(found.group(1)), found.start(2), found.group(2), line[len(found.group(1))])
    for form, pattern in QUESTION_FORMS:
        found = pattern.match(line)
        if found:
            if form == "．" and "）" in line[found.end(1): found.start(2)]:
                form = ")"  # ``1）`` is ``1)`` in full width: its ``1)`` lines are questions too
            text = found.group(2) or ""
            return QuestionStart(int(found.group(1)), found.start(2) if text else len(line.rstrip()), text, form)
    for pattern in KIND_NUMBERED:
        found = pattern.match(line)
        if found:
            text = found.group(3)
            return QuestionStart(int(found.group(2)), found.start(3) if text else len(line.rstrip()), text, "문제",
                                 KIND_NUMBER_WORDS[found.group(1)])
    return None


# -- options ----------------------------------------------------------------------------------------

def _order(style: str) -> str:
    """The markers of a style of one character each, in order."""
    marks = V.OPTION_STYLES[style]
    assert isinstance(marks, str)
    return marks


_LETTER = "A-Za-zＡ-Ｚａ-ｚ"
_CIRCLED = _order("circled-decimal")
CIRCLED = re.compile(rf"[{_CIRCLED}]")
_HANGUL = _order("hangul")
_CONSONANT = _order("hangul-consonant")
_KATAKANA = _order("katakana")
_IROHA = _order("iroha")
_KANA = "".join(dict.fromkeys(_KATAKANA + _IROHA))
_ROMAN_NUMBERS: tuple[str, ...] = tuple(V.OPTION_STYLES["lower-roman"])
#: ``ii`` ... ``xx``: lower-case Roman numerals of more than one letter (``i``, ``v``, ``x`` are letters too).
_ROMAN = "|".join(sorted((r for r in _ROMAN_NUMBERS if len(r) > 1), key=len, reverse=True))
#: List bullets a word processor or a PDF leaves before each option of a pasted paper (``●​ ① that``,
#: often with a zero-width space after them): never Markdown, so never a list the author wrote.
PASTED_BULLETS = "●•○▪◦"
#: An option line so pasted, indented as the document's list was (under the question's number or deeper).
PASTED_OPTION = re.compile(rf"^ {{1,8}}(?=[{PASTED_BULLETS}])")
_OPTION_MARK = re.compile(
    rf"(?P<bullet>(?:[-*+]|[{PASTED_BULLETS}]\u200b?)\s+)?(?:"
    rf"[(（]\s*(?P<pl>[{_LETTER}])\s*[)）]"
    rf"|[(（]\s*(?P<pr>{_ROMAN})\s*[)）]"
    rf"|[(（]\s*(?P<pd>\d{{1,2}})\s*[)）]"
    rf"|[(（]\s*(?P<pk>[{_KANA}])\s*[)）]"
    rf"|(?P<c>[{_CIRCLED}])"
    rf"|(?P<l>[{_LETTER}])(?:[)）]|(?P<ldot>\.)|[．、])"
    rf"|(?P<r>{_ROMAN})(?:[)）]|(?P<rdot>\.))"
    rf"|(?P<h>[{_HANGUL}])[).．]"
    rf"|(?P<j>[{_CONSONANT}])[).．]"
    # ``ア　鉄``, ``ア 鉄``: a space after it, as Japanese papers print it (not ``ア &= 74`` in a formula)
    rf"|(?P<k>[{_KANA}])(?:[).．）、\u3000]| (?!\s*[=&+\-*/<>\\^_|]))"
    rf"|(?P<d>\d{{1,2}})[)）]"
    rf")(?P<space>\s*)")
_OPTION_INITIALS = frozenset("-*+(（" + PASTED_BULLETS + "".join(V.FULL_WIDTH) + "".join(V.FULL_WIDTH.values()) + _CIRCLED + _HANGUL + _CONSONANT
                             + _KANA + "0123456789")
OPTION = re.compile(r"^(?:[-*+]\s+)?([A-Za-z])[.)]\s+(.*?)\s*$")
ITEM = re.compile(r"^[-*+]\s+(.*?)\s*$")


class OptionMark(NamedTuple):
    """One option marker in a line: ``B)``, ``③``, ``(1)``, ``가.``, ``ア)``. A named tuple: every
    line of a source is asked for its markers, and a tuple is made several times faster than a
    frozen dataclass."""

    #: The numbering style (vocabulary.OPTION_STYLES).
    style: str
    #: The marker as written, without its bullet: ``B)``, ``③``.
    marker: str
    #: Its place in the style's sequence, from 1.
    ordinal: int
    #: Offsets of the marker and of the option's text in the line, and where the text ends.
    start: int
    text_start: int
    text_end: int

    @property
    def letter(self) -> str:
        """The choice id: the letter itself for letters, else the letter at the same place."""
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(self.ordinal - 1) % 26]


def option_marks(line: str, decimal: bool = False) -> list[OptionMark]:
    """The options a line at the left margin starts: one, or several on one line, each the next
    in order and marked the same way (``① 서울 ② 부산``, ``ア. 東京　イ. 大阪``, ``A) 2  B) 3``).
    ``decimal``: ``1)`` is an option marker too (under a question numbered ``1.``)."""
    first = _mark_at(line, 0, decimal, bullet=True)
    if first is None:
        return []
    marks = [first]
    position = first.text_start
    while (found := _next_on_line(line, marks[-1], marks[0], position, decimal)) is not None:
        last = marks[-1]
        marks[-1] = OptionMark(last.style, last.marker, last.ordinal, last.start, last.text_start, len(line[:found.start].rstrip()))
        marks.append(found)
        position = found.text_start
    return marks


def _mark_at(line: str, at: int, decimal: bool, bullet: bool = False) -> OptionMark | None:
    """The option marker that starts at ``line[at]``, if one does (a list bullet before it only at
    the start of a line)."""
    found = _OPTION_MARK.match(line, at) if at < len(line) and line[at] in _OPTION_INITIALS else None
    if not found or (found.group("bullet") and not bullet):
        return None
    reading = _reading(found.group(0))
    if reading is None or (reading[2] and not decimal):
        return None
    style, ordinal, _, stop = reading
    end = found.end()
    if stop and end == found.start("space") and (end == len(line) or line[end].isascii()):
        return None  # ``A.`` needs a space after it, unless what follows is not a Latin letter: "e.g." is text
    start = found.end("bullet") if found.group("bullet") else at
    return OptionMark(style, line[start: found.start("space")], ordinal, start, end, len(line.rstrip()))


#: The groups of _OPTION_MARK that hold a marker's letter or number, one per kind of marker.
_MARK_KINDS = ("l", "c", "pl", "pr", "pd", "pk", "r", "h", "j", "k", "d")


@lru_cache(maxsize=4096)
def _reading(marker: str) -> tuple[str, int, bool, bool] | None:
    """A marker as _OPTION_MARK matched it (bullet and space included): its style, its ordinal,
    whether it is a bare number (``1)``: a marker only under a question numbered ``1.``) and
    whether it ends in a full stop after a Latin letter (``A.``, ``ii.``); None for ``0)``.
    Cached: a source repeats a handful of markers on most of its lines."""
    found = _OPTION_MARK.match(marker)
    assert found is not None
    kind, char = next(pair for pair in zip(_MARK_KINDS, found.group(*_MARK_KINDS)) if pair[1])
    stop = bool((kind == "l" and found.group("ldot")) or (kind == "r" and found.group("rdot")))
    if kind in ("l", "pl"):
        char = V.FULL_WIDTH.get(char, char)
        style = "upper-alpha" if char.isupper() else "lower-alpha"
        ordinal = V.OPTION_STYLES[style].index(char) + 1
    elif kind in ("pd", "d"):
        style = "parenthesized-decimal" if kind == "pd" else "decimal"
        ordinal = int(char)
        if ordinal == 0:
            return None
    elif kind in ("r", "pr"):
        style, ordinal = "lower-roman", _ROMAN_NUMBERS.index(char) + 1
    elif kind in ("k", "pk"):
        # A character of both orders (イ, ト, ...) is katakana's here; in_style() reads it in the question's.
        style = "katakana" if char in _KATAKANA else "iroha"
        ordinal = V.OPTION_STYLES[style].index(char) + 1
    else:
        style = {"c": "circled-decimal", "h": "hangul", "j": "hangul-consonant"}[kind]
        ordinal = V.OPTION_STYLES[style].index(char) + 1
    return style, ordinal, kind == "d", stop


def _next_on_line(line: str, last: OptionMark, first: OptionMark, position: int, decimal: bool) -> OptionMark | None:
    """The option after ``last`` later on its line: the next marker in order, written as the
    line's first (the same brackets and stops), after a space; circled numbers need no space
    (``①서울②부산``). A marker out of order is text: ``D) Both A) and B)`` is one option."""
    shape = _shape(first)
    for c in shape:
        if line.find(c, position) < 0:
            return None  # most lines: no second marker of the first's shape (no ")" after "A)")
    for at in range(position, len(line)):
        if line[at] not in _OPTION_INITIALS:
            continue
        if first.style != "circled-decimal" and not line[at - 1].isspace():
            continue
        found = _mark_at(line, at, decimal)
        if found is not None and _follows(last, found) and _shape(found) == shape and not _in_code_span(line, at):
            return found
    return None


_BACKTICKS = re.compile(r"`+")


def _in_code_span(line: str, at: int) -> bool:
    """Is ``line[at]`` inside a code span (`` `(1, 2, 3)` ``)? Code is the option's text as written,
    never the next option's marker: a run of backticks opens a span that the next run of as many
    closes (CommonMark); an unclosed run is a backtick of the text."""
    runs = list(_BACKTICKS.finditer(line))
    i = 0
    while i < len(runs):
        opener = runs[i]
        if opener.start() >= at:
            return False
        closer = next((j for j in range(i + 1, len(runs)) if len(runs[j].group(0)) == len(opener.group(0))), None)
        if closer is None:
            i += 1
            continue
        if at < runs[closer].start():
            return True
        i = closer + 1
    return False


def _follows(last: OptionMark, mark: OptionMark) -> bool:
    """Whether ``mark`` is the option after ``last`` in some reading of both (``イ`` is katakana's
    second and iroha's first, ``i`` a letter and a Roman one: in_style() settles which)."""
    return bool({(s, o + 1) for s, o in _readings(last)} & set(_readings(mark)))


def _readings(mark: OptionMark) -> list[tuple[str, int]]:
    readings = [(mark.style, mark.ordinal)]
    for shared, other in V.SHARED_MARKERS.items():
        if mark.style == other:
            core = _shape_core(mark).lower() if shared == "lower-roman" else _shape_core(mark)
            if core in V.OPTION_STYLES[shared]:
                readings.append((shared, V.OPTION_STYLES[shared].index(core) + 1))
    return readings


#: What surrounds a marker's letter or number: its bullet, brackets and stops.
_MARK_PUNCTUATION = "-*+ ()（）.．)、\u3000"


def _shape_core(mark: OptionMark) -> str:
    return mark.marker.strip(_MARK_PUNCTUATION)


def _shape(mark: OptionMark) -> str:
    """A marker with its number or letter taken out: ``(B)`` -> ``()``, ``ア．`` -> ``．``."""
    return _marker_shape(mark.marker)


@lru_cache(maxsize=1024)
def _marker_shape(marker: str) -> str:
    return marker.replace(marker.strip(_MARK_PUNCTUATION), "", 1)


def in_style(mark: OptionMark, style: str | None) -> OptionMark:
    """``mark`` read in the style of the question's options so far (None: it is the first). Some
    markers belong to two styles: ``i`` is a letter and a Roman one, ``イ`` the second katakana
    and the first of the iroha order. A first option ``i)`` or ``イ)`` starts the second style
    (no lettered list starts at i), and in a question of that style its markers are its own."""
    for shared, other in V.SHARED_MARKERS.items():
        if mark.style != other:
            continue
        marker = _shape_core(mark).lower() if shared == "lower-roman" else option_label(other, mark.ordinal)
        order = V.OPTION_STYLES[shared]
        if marker in order and (style == shared or (style is None and order.index(marker) == 0)):
            return OptionMark(shared, mark.marker, order.index(marker) + 1, mark.start, mark.text_start, mark.text_end)
    return mark


def in_styles(marks: list[OptionMark], style: str | None) -> list[OptionMark]:
    """The options of one line read in the question's style, each after the first in the style
    the first was read in (``イ）東京　ロ）大阪``: iroha, ``ア. 東京　イ. 大阪``: katakana)."""
    read: list[OptionMark] = []
    for mark in marks:
        read.append(in_style(mark, read[0].style if read else style))
    return read


def option_label(style: str | None, ordinal: int) -> str:
    """How the ``ordinal``-th option of a style is named in messages and summaries: ``C``, ``③``."""
    if style in ("circled-decimal", "hangul", "hangul-consonant", "katakana", "iroha", "lower-roman"):
        return V.OPTION_STYLES[style][ordinal - 1] if ordinal <= len(V.OPTION_STYLES[style]) else str(ordinal)
    if style == "parenthesized-decimal":
        return f"({ordinal})"
    if style == "decimal":
        return str(ordinal)
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(ordinal - 1) % 26]


#: One reference to an option in an answer: ``B``, ``B)``, ``(B)``, ``③``, ``(3)``, ``3번``, ``가``, ``ア``.
_ANSWER_REF = re.compile(
    rf"^[(（]?\s*(?:(?P<l>[{_LETTER}])|(?P<r>{_ROMAN})|(?P<c>[{_CIRCLED}])|(?P<d>\d{{1,2}})\s*(?:{_SUFFIXES})?|(?P<h>[{_HANGUL}])"
    rf"|(?P<j>[{_CONSONANT}])|(?P<k>[{_KANA}]))\s*[)）.．、]?$")


_GLUED_LETTERS = re.compile(r"[A-H]{2,8}")


def option_refs(text: str, and_words: tuple[str, ...] = ()) -> list[tuple[str, int]] | None:
    """The options an answer names, as (style family, ordinal): ``A, C`` -> [("letter", 1), ("letter", 3)],
    ``②④`` and ``② ④`` -> circled 2 and 4, ``3번`` -> number 3. None when the answer is not a
    list of option references."""
    value = text.strip().rstrip(".!。！．").strip()
    if len(value) == 1 and value.isascii() and value.isalpha():  # ``B``: most answers
        return [("letter", ord(value.upper()) - ord("A") + 1)]
    value = "".join(V.DINGBAT_CIRCLED.get(ch, ch) for ch in value)
    if not value:
        return None
    if _GLUED_LETTERS.fullmatch(value) and list(value) == sorted(set(value)):
        value = " ".join(value)  # ``BD``, ``ACD``: several options, as Chinese papers write them
    # Circled numbers need no separator: ``②④``.
    spaced = CIRCLED.sub(lambda m: f" {m.group(0)} ", value)
    words = "|".join(re.escape(w) for w in and_words if not (len(w) == 1 and w.isascii()))
    # ``ア・ウ``: the middle dot between options, as Japanese papers write them. ``B and D``,
    # ``② 및 ④``: the and-word first, else the spaces around it split it off as a part of its own.
    pattern = (rf"\s+(?:{words})\s+|" if words else "") + rf"[{re.escape(V.ANSWER_SEPARATORS)}・･\s]+"
    parts = [p for p in re.split(pattern, spaced) if p]
    refs: list[tuple[str, int]] = []
    for part in parts:
        found = _ANSWER_REF.match(part)
        if not found:
            return None
        if found.group("l"):
            char = V.FULL_WIDTH.get(found.group("l"), found.group("l")).upper()
            refs.append(("letter", ord(char) - ord("A") + 1))
        elif found.group("c"):
            refs.append(("number", _CIRCLED.index(found.group("c")) + 1))
        elif found.group("d"):
            refs.append(("number", int(found.group("d"))))
        elif found.group("h"):
            refs.append(("hangul", _HANGUL.index(found.group("h")) + 1))
        elif found.group("j"):
            refs.append(("hangul-consonant", _CONSONANT.index(found.group("j")) + 1))
        elif found.group("r"):
            refs.append(("roman", _ROMAN_NUMBERS.index(found.group("r")) + 1))
        else:
            kana = found.group("k")
            refs.append(("katakana", _KATAKANA.index(kana) + 1) if kana in _KATAKANA else ("iroha", _IROHA.index(kana) + 1))
    return refs


_CHAIN_PART = re.compile(r"^[(（]?\s*([A-Za-z가-하ㄱ-ㅎ㉠-㉭アイウエオカキクケコ])\s*[)）]?$")
_CHAIN_ARROWS = re.compile(r"\s*(?:->|→|⇒|=>|➝|[-–—])\s*")


def orders_options(texts: list[str], markers: list[str]) -> bool:
    """``① (A)-(C)-(B) ② (B)-(A)-(C) …`` after paragraphs ``(A) … (B) … (C) …``: options that are
    orders of the marks before them. Those earlier "options" were the paragraphs to order, text
    of the question; the orders are its options."""
    names = {re.sub(r"[\s()（）.．)、\u3000\-*+]", "", m) for m in markers}
    if len(names) < 2 or not texts:
        return False
    for text in texts:
        parts = _CHAIN_ARROWS.split(text.strip().rstrip(".。"))
        found = [_CHAIN_PART.match(p) for p in parts]
        if len(parts) < 2 or not all(found) or {m.group(1) for m in found if m} - names:
            return False
    return True


def names_option(ref: tuple[str, int], style: str | None, ordinal: int) -> bool:
    """Does an answer's reference (:func:`option_refs`) name the ``ordinal``-th option of a
    question whose options are in ``style``? By its family (``③``, ``3`` and ``(3)`` name the
    third numbered option), and for the markers two styles share by how they are written: ``i``
    names the first of ``i) ii)``, ``イ`` the first of ``イ) ロ)``."""
    family, number = ref
    if STYLE_FAMILY.get(style or "upper-alpha") == family:
        return number == ordinal
    written = option_label({"letter": "lower-alpha", "roman": "lower-roman"}.get(family, family), number).lower()
    return style in V.SHARED_MARKERS and family in ("letter", "roman", "katakana", "iroha") \
        and written == option_label(style, ordinal).lower()


#: The family of references each style's options are named by in an answer.
STYLE_FAMILY = {"upper-alpha": "letter", "lower-alpha": "letter", "lower-roman": "roman", "circled-decimal": "number",
                "parenthesized-decimal": "number", "decimal": "number", "hangul": "hangul",
                "hangul-consonant": "hangul-consonant", "katakana": "katakana", "iroha": "iroha"}

#: Lines that look like options written with a marker the dialect does not take: ``A: text``,
#: ``A - text``, ``[A] text``, ``<1> text``, ``❶ text``, ``⑴ text``.
UNSUPPORTED_OPTION = re.compile(
    r"^(?:(?P<colon>[A-Za-z])\s*[:：]\s+\S|(?P<dash>[A-Z]|\d{1,2})\s+[-–—]\s+\S|\[(?P<bracket>[A-Za-z]|\d{1,2})\]\s*\S"
    r"|<(?P<angle>[A-Za-z]|\d{1,2})>\s*\S|(?P<dingbat>[❶-❿➀-➉➊-➓⓵-⓾⑴-⒇⒈-⒛])\s*\S)")


# -- exam-paper structure -------------------------------------------------------------------------

_POINTS_UNITS = _alternatives(V.words("points_units"))
_POINTS_PREFIXES = _alternatives(V.words("points_prefixes"))
#: ``(3점)``, ``[2점]``, ``（2점）``, ``(3 points)``, ``(배점 3)``: points at the end of a question's first line.
_POINTS_BODY = (rf"[(（\[［]\s*(?:(?:{_POINTS_PREFIXES})\s*[:：]?\s*(?P<a>\d+(?:[.,]\d+)?)\s*(?:{_POINTS_UNITS})?"
                rf"|(?P<b>\d+(?:[.,]\d+)?)\s*(?:{_POINTS_UNITS})\.?)\s*[)）\]］]")
POINTS = re.compile(rf"\s*{_POINTS_BODY}\s*$", re.I)
#: ``15．（10分）…``, ``3. [4점] …``: points before a question's text.
LEADING_POINTS = re.compile(rf"^\s*{_POINTS_BODY}\s*", re.I)


def take_points(lines: list[str]) -> tuple[float, int, int, bool] | None:
    """Points a question's text states (``(3점)`` at the end of its first line or its last,
    ``（10分）`` at the start of its first, ``（各３点）`` for each of its parts), taken out of the
    text students read: (points, index of the line, offset in it, whether each part is worth them),
    or None."""
    for index in dict.fromkeys((0, len(lines) - 1)):
        if not 0 <= index < len(lines):
            continue
        line = lines[index]
        each = points_in(line.rstrip(), EACH_PART)
        if each:
            value, start, end = each
            lines[index] = line[:start].rstrip() + line[end:]
            return value, index, start + (len(line[start:]) - len(line[start:].lstrip())), True
        found = points_in(line.rstrip())
        if found is None and index == 0:
            found = points_in(line, LEADING_POINTS)
            if found is not None and not line[found[2]:].strip():
                found = None  # the whole line: its trailing form, read above
        if found:
            value, start, end = found
            lines[index] = (line[:start].rstrip() + line[end:]) if start else line[end:]
            return value, index, start + (len(line[start:]) - len(line[start:].lstrip())), False
    return None


def parts_points(each: float, data: dict[str, object]) -> float:
    """A question's points when each of its parts is worth ``each`` (``（各３点）``): its blanks, pairs
    or items, one part for a question that has none."""
    for key in ("blanks", "pairs", "items"):
        parts = data.get(key)
        if isinstance(parts, list) and parts:
            return each * len(parts)
    return each
_EACH_BEFORE = _alternatives(V.words("each_before"))
_EACH_AFTER = _alternatives(V.words("each_after"))
#: ``(각 2점)``, ``(2 points each)``, ``(je 2 Punkte)``, ``(各2分)``: each question's points, in a section title.
EACH_POINTS = re.compile(
    rf"\s*[(（\[［]\s*(?:(?:{_EACH_BEFORE})\s*(?P<a>\d+(?:[.,]\d+)?)\s*(?:{_POINTS_UNITS})\.?(?:\s*(?:{_EACH_AFTER}))?"
    rf"|(?P<b>\d+(?:[.,]\d+)?)\s*(?:{_POINTS_UNITS})\.?\s*(?:{_EACH_AFTER}))"
    # the rule's rest: ``，共20分``, ``, 총 15점``, ``。答案写在答题卡上``
    rf"(?:\s*[,，;；。、]\s*[^)）\]］]*)?\s*[)）\]］]", re.I)


#: The exam rule of multiple-response questions as Chinese papers print it, in a question or its
#: section's heading: 全部选对得6分，选对但不全得3分，有选错的得0分 (all right 6 points, right but
#: incomplete 3, any wrong 0): the model's ``scoring=exam``.
EXAM_RULE = re.compile(r"全部选对(?:的)?得\s*(\d+(?:\.\d+)?)\s*分\s*[，,、；;]?\s*(?:选对但不全|部分选对|选不全|漏选)(?:的)?得\s*"
                       r"(\d+(?:\.\d+)?)\s*分")


def exam_rule(*texts: str | None) -> tuple[float, float] | None:
    """The points for all right and for right but incomplete that the first of ``texts`` printing
    the exam rule gives, or None."""
    for text in texts:
        found = EXAM_RULE.search(text or "")
        if found:
            return float(found.group(1)), float(found.group(2))
    return None


#: ``（各３点）``, ``(각 2점)`` at the end of a question's line: each of its parts (blanks, pairs) is worth that.
EACH_PART = re.compile(EACH_POINTS.pattern + r"\s*$", re.I)


def points_in(text: str, pattern: re.Pattern[str] = POINTS) -> tuple[float, int, int] | None:
    """The points a text states (``(3점)``) and where: (points, start, end), or None."""
    found = pattern.search(text)
    if not found:
        return None
    value = (found.group("a") or found.group("b")).replace(",", ".")
    return float(value), found.start(), found.end()


_ROMAN = re.escape(V.ROMAN_NUMERALS)
_KIND_WORDS = _alternatives(tuple(w for lang in V.LANGUAGES.values() for w in lang.section_kinds))
#: Lines that start a section of an exam paper: ``Ⅰ. 객관식``, ``II. Short answer``, ``[객관식]``, ``■ 서술형``.
SECTION_MARKERS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^(?P<mark>[{_ROMAN}]\s*[.．)]?)\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^(?P<mark>(?:II|III|IV|VI|VII|VIII|IX|XI|XII)\s*[.．)])\s*(?P<title>\S.*?)\s*$"),
    re.compile(rf"^(?P<mark>[{re.escape(V.SECTION_BULLETS)}])\s*(?P<title>\S.*?)\s*$"),
    re.compile(rf"^[{_OPEN}]\s*(?P<title>(?:{_KIND_WORDS})[^{_CLOSE}]{{0,30}}?)\s*[{_CLOSE}]\s*(?P<rest>.*?)\s*$", re.I),
)
_CJK_NUMERALS = "一二三四五六七八九十"
_SECTION_WORDS = _alternatives(tuple(form for w in V.words("section_words") for form in (w.capitalize(), w.upper())))
#: Numbered headings of a paper's parts, in the numbering systems papers use: ``一、选择题``,
#: ``四、简答题（每题5分，共20分）``, ``【３】次の文章を読んで…``, ``Part III. Short Answer``,
#: ``Section B``, ``Teil 2: …``, ``PARTE I``, ``第二部分``, ``大問1``, ``제2부``. The whole line is the title.
NUMBERED_SECTIONS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^(?P<mark>[{_CJK_NUMERALS}]{{1,3}}\s*[、．.])\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^(?P<mark>[【［]\s*[0-9０-９]{1,2}\s*[】］])\s*(?P<title>.*?)\s*$"),
    re.compile(rf"^(?P<mark>(?:{_SECTION_WORDS})\s+(?:[0-9]{{1,2}}|[IVX]{{1,5}}|[A-Z]|[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ])(?![\w'’]))"
               rf"\s*(?:[.:：)\-–—]\s*)?(?P<title>.*?)\s*$"),
    re.compile(rf"^(?P<mark>第\s*[{_CJK_NUMERALS}0-9０-９]{{1,3}}\s*(?:部分|大题|大題|部|章))\s*[、．.:：]?\s*(?P<title>.*?)\s*$"),
    re.compile(r"^(?P<mark>大問\s*[0-9０-９]{1,2})\s*[.．:：]?\s*(?P<title>.*?)\s*$"),
    re.compile(r"^(?P<mark>제\s*[0-9]{1,2}\s*부)\s*[.:：]?\s*(?P<title>.*?)\s*$"),
)
_NUMBERED_INITIALS = frozenset(_CJK_NUMERALS + "【［第大제" + "".join(w[0].upper() for w in V.words("section_words")))
_SECTION_INITIALS = frozenset(V.ROMAN_NUMERALS + "IVX" + V.SECTION_BULLETS + V.OPEN_BRACKETS) | _NUMBERED_INITIALS
#: ``I. ...``, ``II) ...``: a statement numbered in Roman numerals.
ROMAN_STATEMENT = re.compile(rf"^({'|'.join(sorted(V.ROMAN_STATEMENTS, key=len, reverse=True))})[.)]\s+\S")
#: ``I.``, ``V.``, ``X.``: a section after an answer, an option before one.
LATIN_SECTION = re.compile(r"^(?P<mark>[IVX]\s*\.)\s+(?P<title>\S.*?)\s*$")


def section_marker(line: str, latin: bool = False) -> tuple[str, int] | None:
    """A line that starts an exam paper's section: (its title as written, the title's offset).
    ``latin``: a single ``I.`` ``V.`` ``X.`` counts too."""
    if not line or line[0] not in _SECTION_INITIALS:
        return None
    if line[0] in _NUMBERED_INITIALS:
        for pattern in NUMBERED_SECTIONS:
            if pattern.match(line):
                return line.strip(), 0
    for pattern in SECTION_MARKERS + ((LATIN_SECTION,) if latin else ()):
        found = pattern.match(line)
        if found:
            if "mark" in pattern.groupindex and found.group("mark")[0] in V.SECTION_BULLETS:
                return found.group("title"), found.start("title")
            if "rest" in pattern.groupindex:
                title = found.group("title") + (" " + found.group("rest") if found.group("rest") else "")
                return title, found.start("title")
            return line.strip(), 0
    return None


_RANGE = re.escape(V.RANGE_MARKS)
_PASSAGE_WORDS = _alternatives(V.words("passage_words"))
#: ``[3~4] 다음 글을 읽고 물음에 답하시오.``, ``[Questions 3-4]``, ``Questions 3–4 refer to ...``:
#: a passage shared by the questions numbered from the first to the last.
PASSAGE_MARKERS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^(?:{V.NOTE_MARK}\s*)?[\[(（【〔<〈]\s*(?:(?:{_PASSAGE_WORDS})\s*)?(?P<first>\d{{1,9}})\s*(?:{_SUFFIXES})?\s*"
               rf"(?:[{_RANGE}]|to|bis|à|a)\s*(?P<last>\d{{1,9}})\s*(?:{_SUFFIXES})?\s*[\])）】〕>〉]\s*(?P<text>.*?)\s*$", re.I),
    re.compile(rf"^(?:{_PASSAGE_WORDS})\s+(?P<first>\d{{1,9}})\s*(?:[{_RANGE}]|to|and|bis|à|a)\s*(?P<last>\d{{1,9}})\b"
               rf"(?P<text>.*?)\s*$", re.I),
)


_PASSAGE_INITIALS = frozenset(V.NOTE_MARK + "[(（【〔<〈" + "".join(w[0] + w[0].upper() for w in V.words("passage_words")))


def passage_marker(line: str) -> tuple[int, int, int] | None:
    """``[3~4] ...``: (first question, last question, offset of the text after the marker)."""
    if not line or line[0] not in _PASSAGE_INITIALS:
        return None
    for pattern in PASSAGE_MARKERS:
        found = pattern.match(line)
        if found:
            first, last = int(found.group("first")), int(found.group("last"))
            if first < last:
                return first, last, 0
    return None


_CLOSING_WORDS = _alternatives(V.words("closing_words"))
#: A closing mark: ``- 끝 -``, ``〈끝〉``, ``— End of exam —``, ``以上``, ``-完-``, ``*** END ***``: the
#: paper's questions end there; it is shown to nobody.
CLOSING_MARK = re.compile(rf"^[\s\-–—―_*=~<>〈〉《》()（）\[\]【】「」『』]*(?:{_CLOSING_WORDS})[.。!！]?"
                          rf"[\s\-–—―_*=~<>〈〉《》()（）\[\]【】「」『』]*$", re.I)
_INSTRUCTION_TITLES = _alternatives(V.words("instruction_titles"))
#: The title of a paper's numbered instructions (``注意事项：``, ``※ 유의사항``, ``Instructions:``,
#: ``【注意事項】``), with the first instruction on its line or not.
INSTRUCTION_TITLE = re.compile(rf"^[{V.NOTE_MARK}#*_\s]*[{_OPEN}(（]?\s*(?:{_INSTRUCTION_TITLES})\s*[{_CLOSE})）]?\s*[:：]?\s*(?P<rest>.*?)\s*$",
                               re.I)
_BONUS_WORDS = _alternatives(V.words("bonus_words"))
#: A bonus question: ``Bonus (2 points): …``, ``Bonus: …``, ``附加题（5分）…``, ``Zusatzaufgabe 1: …``;
#: its number is the next one, its points are its own.
BONUS_QUESTION = re.compile(rf"^[*_]{{0,2}}(?P<word>{_BONUS_WORDS})\s*(?:{QUESTION_NUMBER})?\s*"
                            rf"(?P<points>[(（\[［][^)）\]］]{{0,20}}[)）\]］])?[*_]{{0,2}}\s*[.:：、．]\s*(?P<text>\S.*?)\s*$", re.I)


def closing_mark(line: str) -> bool:
    """``- 끝 -``: the mark after a paper's last question."""
    return bool(line.strip()) and CLOSING_MARK.match(line) is not None


def instruction_title(line: str) -> bool:
    """``注意事项：``, ``※ 유의사항``: the title of numbered instructions."""
    return INSTRUCTION_TITLE.match(line) is not None


def note_line(line: str) -> bool:
    """``※ 다음 물음에 답하시오.``: an instruction for the question that follows."""
    return line.startswith(V.NOTE_MARK)


#: ``<보기>``, ``〈보기〉``, ``[보기]``, ``< 보 기 >``: the title of a box of statements (also written
#: ``\<보기\>``, as an importer escapes text that is not HTML).
BOX = re.compile(rf"^\\?[{_OPEN}(（]\s*(?:{_alternatives(V.BOX_TITLES)})\s*\\?[{_CLOSE})）]\s*$")


def starts_something(line: str) -> bool:
    """A line at the left margin that the Markdown reader may take for the start of something:
    a heading, a question, an option, a label, a section, a passage or a note. Text written for
    the reader (writers/markdown_source.py) indents such a line to keep it text."""
    text = line.rstrip()
    return bool(HEADING.match(text) or question_start(text) or LONG_NUMBER.match(text) or option_marks(text, decimal=True)
                or (read_label(text) and read_label(text).spaced)  # type: ignore[union-attr]
                or section_marker(text, latin=True) or passage_marker(text) or note_line(text) or BOX.match(text)
                or UNSUPPORTED_OPTION.match(text))


#: A line that is only a section's points rule: ``（每题4分，共24分。）``, ``(각 3점, 총 15점)``, ``(4 pts each)``.
def points_rule(line: str) -> bool:
    found = EACH_POINTS.match(line)
    return found is not None and not line[found.end():].strip()


def structure(line: str) -> str | None:
    """What part of a paper's structure a line at the left margin is shaped as, in words, or None:
    a question, a section heading, a shared passage, a note, an answer key's title, numbered
    instructions' title, a points rule or a closing mark. No such line is ever the text of an
    answer, an explanation, a model answer or feedback (tests/test_exam_structure.py walks every
    exam fixture for it)."""
    text = line.rstrip()
    if not text or text[:1] in (" ", "\t"):
        return None
    if HEADING.match(text):
        return "a heading"
    if question_start(text) or LONG_NUMBER.match(text) or BONUS_QUESTION.match(text):
        return "a question"
    if section_marker(text, latin=True):
        return "a section heading"
    if passage_marker(text):
        return "a shared passage's range"
    if note_line(text):
        return "a note"
    if KEY_TITLE.match(text):
        return "an answer key's title"
    if instruction_title(text):
        return "the title of the instructions"
    if points_rule(text):
        return "a points rule"
    if closing_mark(text):
        return "a closing mark"
    return None


#: A thematic break (``---``, ``***``, ``___``: three or more of one of them, spaces between allowed)
#: alone on its line at the left margin: the rule a paper draws between its questions or after them.
THEMATIC_BREAK = re.compile(r"^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")


#: An item of a numbered list indented under a question's text, as pandoc writes a Word paper's
#: options (``1.  question`` then ``    1.  **kernel**``): its indent, number and text.
NESTED_ITEM = re.compile(r"^( {2,})(\d{1,2})[.)] +(\S.*?)\s*$")
#: Text wholly in bold (``**kernel**``, ``__kernel__``); a space before the closing mark, as a
#: converted paper writes it (``**… 있다. **``), is forgiven.
_WHOLLY_BOLD = re.compile(r"^(\*\*|__)(?=\S)(.*?\S)\s*\1$")


def wholly_bold(text: str) -> str | None:
    """The text inside the bold marks when all of ``text`` is in bold (``**kernel**``), else None
    (``**kernel** space``, ``**A** and **B**``: bold words, not a bold option)."""
    found = _WHOLLY_BOLD.match(text.strip())
    if found is None or found.group(1) in found.group(2):
        return None
    return found.group(2)


#: A line that shows nothing: an HTML comment alone on it (``<!-- … -->``), or a print page break
#: (``<div style="page-break-before:always"></div>``), commented out or not.
_INVISIBLE_HTML = re.compile(r"^\s*(?:<!--.*?-->|<div\s+style\s*=\s*([\"'])\s*(?:page-)?break-(?:before|after)\s*:\s*[\w-]+\s*;?\s*\1\s*>"
                             r"\s*</div>)\s*$", re.I)


def invisible_html(line: str) -> bool:
    """Is the line one that Markdown shows as nothing (:data:`_INVISIBLE_HTML`)?"""
    return line.lstrip()[:1] == "<" and _INVISIBLE_HTML.match(line) is not None


#: A line whose first character but whitespace is ``<`` (``\s*`` may run over blank lines: the
#: line it ends on is one).
_TAG_FIRST = re.compile(r"^\s*<", re.MULTILINE)


def without_invisible_html(lines: list[str]) -> list[str]:
    """The lines, each that shows nothing outside a code fence made blank (an HTML comment, a
    print page break): read as the blank line students see, never as the text of an answer or
    an option, and never a web page's HTML. Lines keep their numbers."""
    text = "\n".join(lines)
    if "<" not in text or not _TAG_FIRST.search(text):
        return lines  # most sources: nothing to look at (looked for in C: a bank's 60,000 lines one by one took 0.03 s)
    out = list(lines)
    for i, line, opens in _unfenced(lines, 0):
        if not opens and invisible_html(line):
            out[i] = ""
    return out


def marked_parts(text: str) -> int:
    """How many parts a text marks ①, ②, ③ … in order, each once (the underlined words of a
    passage, its sentences, the places a sentence may go); 0 when its marks are not so."""
    marks = CIRCLED.findall(text)
    return len(marks) if marks == list(V.OPTION_STYLES["circled-decimal"][: len(marks)]) else 0


def thematic_break(line: str) -> bool:
    """``---``, ``***``, ``___``, ``- - -`` alone on a line at the left margin."""
    return bool(line) and line[0] in "-*_" and THEMATIC_BREAK.match(line) is not None


#: A heading whose question number was lost: ``## . 다음 중 …``, ``### ) What …?``.
_NUMBER_LOST = re.compile(r"^(?:[.)]\s+|[．）]\s*)(?=\S)")


@dataclass(frozen=True)
class HeadingReading:
    """What the lines under a heading whose text is numbered as a question make it
    (:func:`heading_reading`)."""

    #: "question": the question its text is, with its options under it; "ambiguous": the lines
    #: numbered ``1)``, ``2)`` under it could be its options or the questions of a section it
    #: titles; "section": a section, as every heading is otherwise.
    reading: str
    #: The number the text starts with; None for a heading whose number was lost (``## . text``).
    number: int | None = None
    #: The question's text (its attributes too), and its offset in the heading's text.
    text: str = ""
    offset: int = 0
    #: The index of the line the lines under it were read up to (the next heading, question or
    #: other part of the paper's structure, or the end).
    end: int = 0
    #: For "ambiguous": the lines (numbers) numbered ``1)`` under it that ask a question, and those that do not.
    asking: tuple[int, ...] = ()
    plain: tuple[int, ...] = ()
    #: A heading that is only its number (``## 19``, :func:`number_heading`): its options are written
    #: as a Markdown list ``1.`` … (its ``1.`` lines are options, never questions).
    listed: bool = False
    #: For "marked": the lines of that list that end in a truth mark (``… である。○``).
    marked: tuple[int, ...] = ()
    #: What a number-only heading holds in parentheses after its number (``## Q3 (6)``), and its
    #: offset in the heading's text; None without.
    bracket: str | None = None
    bracket_offset: int = 0
    #: A heading that is only the question's number (its ``text`` is then its attributes alone).
    only_number: bool = False


_SECTION = HeadingReading("section")


def _unfenced(lines: list[str], start: int) -> Iterator[tuple[int, str, bool]]:
    """Each line from ``start`` on that no code fence holds: its index, the line, and whether it
    opens a fence (whose lines, up to its closing line, are passed over)."""
    fence: str | None = None
    for i in range(start, len(lines)):
        line = lines[i]
        opened = FENCE.match(line)
        if fence:
            closer = opened.group(1) if opened else ""
            if closer[:1] == fence[0] and len(closer) >= len(fence) and not line.strip()[len(closer):].strip():
                fence = None
            continue
        if opened:
            fence = opened.group(1)
        yield i, line, opened is not None


def heading_reading(lines: list[str], index: int) -> HeadingReading:
    """A heading ``## 1. 다음 중 …을 고르시오.`` or ``### 3) What …?`` (any question number form,
    or a number lost, ``## . text``) is a question when the lines under it, before the next
    heading, hold its options: the first option-shaped line at the left margin (after any text
    and code of the question) is a first option, ``①``, ``A)``, ``(1)``, ``가)``, or ``1)``.

    ``1)`` lines can also be the questions of a section the heading titles (``## 1. Grammar`` then
    ``1) What is …?``), and the lines under them say which: options of their own under the first
    (``A. …``) or an answer between two make them questions; lines that all ask (end in ``?``)
    are questions, lines none of which asks are options (an answer may follow the last: the
    question's), or statements when options marked otherwise follow them (``① 1, 2``); some
    asking and some not is "ambiguous". Anything else first (a question line
    ``1. …``, a label, an option numbered other than first, the next heading) leaves the heading
    a section, as it always was."""
    heading = HEADING.match(lines[index])
    title = heading.group(2) if heading else ""
    alone = number_heading(title)
    if alone is not None:
        return _number_heading_reading(lines, index, alone)
    numbered = question_start(title)
    lost = None if numbered else _NUMBER_LOST.match(title)
    if not ((numbered and numbered.text) or lost):
        return _SECTION
    run: list[tuple[int, bool, bool]] = []  # the lines numbered 1), 2), ...: (line number, asks, ends in a truth mark)
    other = False  # a first option marked otherwise: ``①``, ``A)``, ``(1)``
    answered = False  # an answer label after one of the run's lines
    end = len(lines)
    for i, line, opens in _unfenced(lines, index + 1):
        if opens:
            continue
        if not line.strip() or line[:1] in (" ", "\t") or thematic_break(line):
            continue
        marks = option_marks(line, decimal=True)
        if marks:
            mark = marks[0]
            if not run and mark.style != "decimal":
                if mark.ordinal != 1:
                    return _SECTION
                other = True
                break
            if mark.style == "decimal":
                if (not run and mark.ordinal != 1) or answered:
                    return _SECTION  # not a first option; or an answer between them: each a question answered
                run.append((i + 1, line.rstrip().endswith(("?", "？")), truth_marked(line)))
                continue
            if mark.ordinal == 1:
                if len(run) == 1:
                    return _SECTION  # ``1) What is …?`` then ``A. …``: a question with options of its own
                end = i
                break  # ``1) …``, ``2) …`` then ``① …``: statements of the question, then its options
            continue
        label = read_label(line.strip())
        if label is not None and label.spaced and label.name.lower() in QUESTION_LABELS:
            if not run:
                return _SECTION
            answered = True
            continue
        if structure(line):
            end = i
            break
    if not run and not other:
        return _SECTION
    text = numbered.text if numbered else title[lost.end():] if lost else ""
    offset = numbered.text_offset if numbered else lost.end() if lost else 0
    marked = tuple(n for n, _, mark in run if mark)
    if len(run) > 1 and len(marked) == len(run):
        # ``1) 문장이다. ○`` ``2) … ×``: true/false statements with their answers, never options to show.
        return HeadingReading("marked", numbered.number if numbered else None, text, offset, end, marked=marked)
    asking = tuple(n for n, asks, _ in run if asks)
    if run and len(asking) == len(run):
        return _SECTION
    if asking:
        return HeadingReading("ambiguous", numbered.number if numbered else None, text, offset, end, asking,
                              tuple(n for n, asks, _ in run if not asks))
    return HeadingReading("question", numbered.number if numbered else None, text, offset, end)


# -- headings that are only a question's number -----------------------------------------------------

#: ``## 19``, ``## 19.``: a bare number of up to three digits (``## 2024`` is a year's section).
_BARE_NUMBER = re.compile(r"^(\d{1,3})\s*[.．]?$")
#: What a number-only heading holds in parentheses after its number: ``## Q3 (6)``, ``## Q2 (各1計5)``.
_HEADING_BRACKET = re.compile(r"\s*[(（]\s*([^()（）]{1,30}?)\s*[)）]\s*$")
#: A Markdown list item ``1. text``: an option of a number-only heading's question (``decimal``).
_LIST_ITEM = re.compile(r"^(\d{1,2})\.(\s+)(?=\S)")
#: A statement answered by the truth mark at its end (``アセンブルは可逆変換である。○``,
#: ``- `y = x[4]` ○``, ``… X``): the paper's answer, which students must never see in an option.
_TRUTH_MARK_END = re.compile(r"(?:^|(?<=[\s。．.、,，)）`*\]]))([○◯×✕☓])\s*$|\s([OXTFＯＸ])\s*$")
#: The other mark of each truth mark's pair: the choice a list of statements judged all one way
#: still offers.
TRUTH_PARTNER = {"○": "×", "×": "○", "◯": "✕", "✕": "◯", "☓": "○", "O": "X", "X": "O", "Ｏ": "Ｘ", "Ｘ": "Ｏ",
                 "T": "F", "F": "T"}


def truth_split(text: str) -> tuple[str, str] | None:
    """A statement that ends in its truth mark (``アセンブルは可逆変換である。○``): the statement
    without it, and the mark; None for a statement without one."""
    found = _TRUTH_MARK_END.search(text.rstrip())
    if found is None:
        return None
    return text[: found.start()].rstrip(), found.group(1) or found.group(2)


#: A paper's legend saying the numbers in parentheses are the points: "丸かっこ内の数字は配点です",
#: "괄호 안의 숫자는 배점입니다", "Numbers in parentheses are the points".
POINTS_LEGEND = re.compile(r"(?:丸?かっこ|丸?括弧|カッコ|괄호|parenthes[ei]s|brackets).{0,30}?(?:配点|배점|points|marks)", re.I)
#: The names a blockquote of labels gives the question's points (``> points: 2``).
POINTS_NAMES = ("points", "point", "pts", "배점", "配点", "分值")
#: The words that number a task (``Aufgabe 2``, ``Exercice 1``), not a question.
_TASK_WORD = re.compile(_alternatives(V.words("task_words")), re.I)
#: ``{type=numerical}`` at the end of a heading's text.
_ATTRIBUTES_TAIL = re.compile(r"\s*(\{[^{}]*\})\s*$")
#: ``> answer: 1``: a label in a blockquote (the prefix, then the label's text).
_QUOTED = re.compile(r"^(>\s?)(\S.*)$")


@dataclass(frozen=True)
class NumberHeading:
    """A heading's text that is only a question's number (:func:`number_heading`)."""

    number: int
    #: What it holds in parentheses after the number (``6`` of ``Q3 (6)``), and where; None without.
    bracket: str | None = None
    bracket_offset: int = 0
    #: Its attributes (``{type=numerical}``) and where they start; "" without.
    attrs: str = ""
    attrs_offset: int = 0


def number_heading(title: str) -> NumberHeading | None:
    """``19``, ``Q3``, ``Q3 (6)``, ``문제 5``, ``問5``: a heading's text that is a question's number
    and nothing more (what follows it in parentheses aside), in any question-word form. None for
    any other text (``1. 다음 중 …`` is :func:`heading_reading`'s numbered heading) and for a task's
    word (``Exercice 1``, ``Task 2``)."""
    attrs = _ATTRIBUTES_TAIL.search(title)
    title = title[: attrs.start()] if attrs else title
    bracket = _HEADING_BRACKET.search(title)
    head = title[: bracket.start()] if bracket else title
    bare = _BARE_NUMBER.match(head)
    if bare:
        number = int(bare.group(1))
    else:
        start = question_start(head)
        if start is None or start.text or start.form in (".", ")") or start.kind is not None \
                or _TASK_WORD.match(head):
            return None  # ``## Exercice 1 (6 points)``: a task, whose lines under it say what it is (tasks.py)
        number = start.number
    if number == 0:
        return None
    return NumberHeading(number, bracket.group(1) if bracket else None, bracket.start(1) if bracket else 0,
                         attrs.group(1) if attrs else "", attrs.start(1) if attrs else 0)


def list_option(line: str) -> OptionMark | None:
    """``1. text`` at the left margin as an option marker (``decimal``, ``1.``): under a
    number-only heading's text, the question's options are a Markdown ordered list."""
    found = _LIST_ITEM.match(line)
    if found is None or int(found.group(1)) == 0:
        return None
    return OptionMark("decimal", found.group(1) + ".", int(found.group(1)), 0, found.end(), len(line.rstrip()))


def truth_marked(text: str) -> bool:
    """Does a statement end in a truth mark (``○``, ``×``, ``☓``; ``O``, ``X``, ``T`` or ``F`` after a space)?"""
    return _TRUTH_MARK_END.search(text.rstrip()) is not None


_EMPHASIS_END = re.compile(r"[*_\s]+$")


def _asks(line: str) -> bool:
    """Does a line of a question's text ask, ending in its question mark (its emphasis and points,
    ``**…것은? [3점]**``, aside)?"""
    bare = _EMPHASIS_END.sub("", line)
    stated = POINTS.search(bare)
    bare = _EMPHASIS_END.sub("", bare[: stated.start()] if stated else bare)
    return bare.endswith(("?", "？"))


def quoted_label(line: str) -> tuple[int, LabelLine] | None:
    """``> answer: 1``, ``> points: 2``: a line of a blockquote that holds a question's label (or
    its points), and the width of its ``>`` prefix; None for any other line."""
    found = _QUOTED.match(line)
    label = read_label(found.group(2)) if found else None
    if found is None or label is None:
        return None
    name = label.name.lower()
    if name not in QUESTION_LABELS and name not in POINTS_NAMES:
        return None
    return len(found.group(1)), label


def labels_quoted(lines: list[str], index: int) -> tuple[int, LabelLine] | None:
    """The label of ``lines[index]`` (:func:`quoted_label`) when the blockquote it stands in holds
    labels only (``> answer: 1`` then ``> points: 2``); None otherwise: a quotation in a question's
    text (``> 민수: 어디 가니?`` then ``> 답: 도서관에 가.``) stays text, a line like a label and all."""
    found = quoted_label(lines[index])
    if found is None:
        return None
    start = end = index
    while start > 0 and lines[start - 1].startswith(">"):
        start -= 1
    while end + 1 < len(lines) and lines[end + 1].startswith(">"):
        end += 1
    return found if all(quoted_label(line) is not None for line in lines[start: end + 1]) else None


def _number_heading_reading(lines: list[str], index: int, alone: NumberHeading) -> HeadingReading:
    """A heading that is only a question's number (``## 19``, ``## Q3 (6)``) is that question when
    its text follows it (any line that is not a question, an option or a label), then either its
    options, a Markdown list ``1.`` … (or ``1)``, ``①``, ``A)`` …) restarting at 1, or its answer.
    When a line of its text asks (``**…가장 적절한 것은?**``), the list answers it: its options, even
    those that ask. Else the list says which it is as a heading question's ``1)`` lines do: lines
    none of which asks are options, all asking are a section's questions, some of each
    "ambiguous"; an answer between two or options of their own make them questions. Items that
    each end in a truth mark (``… ○``) are true/false statements answered, "marked". Nothing
    first under it but a numbered line, a label, or nothing at all, leaves it a section, as it
    always was."""
    text = False  # a line of the question's text was read (the stem, code too)
    asks = False  # a line of that text asks (``**…가장 적절한 것은? [3점]**``): the list under it answers it
    run: list[tuple[int, bool, bool]] = []  # lines ``1.``, ``2.``: (line number, asks, ends in a truth mark)
    other = answered = False
    end = len(lines)
    for i, line, opens in _unfenced(lines, index + 1):
        if opens:
            text = text or not run
            if run:
                end = i
                break
            continue
        if not line.strip() or line[:1] in (" ", "\t") or thematic_break(line):
            continue
        if HEADING.match(line):
            end = i
            break
        quoted = labels_quoted(lines, i)
        label = quoted[1] if quoted else read_label(line.strip())
        if label is not None and (label.name.lower() in QUESTION_LABELS or quoted):
            if not text:
                return _SECTION
            answered = True
            if not run:
                end = i
                break
            continue
        item = QUESTION.match(line)
        if item:
            if not text or answered:
                return _SECTION  # ``## 5`` then ``1. …``: a section's questions; an answer between them: each answered
            if int(item.group(1)) != len(run) + 1:
                if not run:
                    return _SECTION
                end = i
                break
            rest = item.group(2)
            run.append((i + 1, rest.endswith(("?", "？")), truth_marked(rest)))
            continue
        marks = option_marks(line)
        if marks:
            if not text:
                return _SECTION
            if not run:
                # ``(A) …`` ``(B) …``: its options, or statements when a list ``1.`` follows them
                # (``1. (A) － (C) － (B)``): what comes next says.
                other = other or marks[0].ordinal == 1
                continue
            if marks[0].ordinal == 1:
                return _SECTION  # ``1. …`` then ``A) …``: a question with options of its own, or statements: as before
            continue
        if run:
            end = i
            break
        text, asks = True, asks or _asks(line)
    found = HeadingReading("question", alone.number, alone.attrs, alone.attrs_offset, end, bracket=alone.bracket,
                           bracket_offset=alone.bracket_offset, only_number=True)
    if run:
        marked = tuple(n for n, _, mark in run if mark)
        if len(run) > 1 and len(marked) == len(run):
            return replace(found, reading="marked", marked=marked)  # its attributes and points kept
        # Under a text that asks, every item answers it; else the items that ask say which they are.
        asking = () if asks else tuple(n for n, item_asks, _ in run if item_asks)
        if len(asking) == len(run):
            return _SECTION
        if asking:
            plain = tuple(n for n, item_asks, _ in run if not item_asks)
            return HeadingReading("ambiguous", alone.number, "", 0, end, asking, plain, only_number=True)
        return replace(found, listed=True)
    return found if (other or answered) else _SECTION


# -- answers -----------------------------------------------------------------------------------------

_ESCAPED = re.compile(r"\\([,，、/／;；])")


_BRACKETED = re.compile(r"\[[^\[\]]*\]|\([^()]*\)|（[^（）]*）|\{[^{}]*\}")


def _literal_stars(text: str, every: bool = False) -> str:
    """``a * b``: a star between spaces (an operator), or every star of code, is the character
    (``\\*``), not the model's wildcard."""
    if every:
        return re.sub(r"(?<!\\)\*", r"\\*", text)
    return re.sub(r"(?<=\s)\*(?=\s)|^\*(?=\s)|(?<=\s)\*$", r"\\*", text)


def accepted_answers(text: str, or_words: tuple[str, ...]) -> list[str]:
    """The accepted answers of a short answer's line: ``서울, 서울특별시``, ``서울 / 서울특별시``,
    ``서울 또는 서울특별시`` are two. ``\\,`` is a comma; ``"a, b"`` in double quotes is one answer
    as written; a comma or slash between digits (``1,000``, ``1/2``) and a slash between Latin
    letters (``km/h``) separate nothing."""
    value = text.strip()
    quoted: list[str] = []

    def hold(match: re.Match[str]) -> str:
        return hold_text(match.group(1))

    def hold_text(text: str) -> str:
        quoted.append(text)
        return f"\ue002{len(quoted) - 1}\ue003"

    # ``"a, b"``: one answer as written, anywhere in the line.
    value = re.sub(r'(?:(?<=^)|(?<=[\s,，、/／;；]))"([^"]+)"(?=$|[\s,，、/／;；])', hold, value)
    # ```a * b```: code, typed as written: one answer, its stars literal (a star is a wildcard only
    # where the source says so: next to a word, ``nucl*``).
    value = re.sub(r"`([^`]+)`", lambda m: hold_text(_literal_stars(m.group(1), every=True)), value)
    # ``[2, 4]``, ``(a, b)``, ``{1, 2}``: a bracket holds one answer, commas and all.
    value = _BRACKETED.sub(lambda m: hold_text(m.group(0)), value)
    value = _literal_stars(value)
    held = _ESCAPED.sub(lambda m: f"\ue000{ord(m.group(1))}\ue001", value)
    held = re.sub(r"(?<=\d)([,/])(?=\d)", lambda m: f"\ue000{ord(m.group(1))}\ue001", held)
    held = re.sub(r"(?<=[A-Za-z0-9])/(?=[A-Za-z])", lambda m: f"\ue000{ord('/')}\ue001", held)
    words = "|".join(re.escape(w) for w in or_words)
    pattern = rf"\s*[{re.escape(V.ANSWER_SEPARATORS)}]\s*" + (rf"|\s+(?:{words})\s+" if words else "")
    parts = [p.strip() for p in re.split(pattern, held, flags=re.I)]
    restore = re.compile("\ue000(\\d+)\ue001")
    unquote = re.compile("\ue002(\\d+)\ue003")
    return [unquote.sub(lambda m: quoted[int(m.group(1))], restore.sub(lambda m: chr(int(m.group(1))), p)) for p in parts if p]


def quoted_answer(text: str, or_words: tuple[str, ...]) -> str:
    """An answer written so that :func:`accepted_answers` reads it back as one answer."""
    return text if accepted_answers(text, or_words) == [text] else '"' + text + '"'


#: ``{score=50}``, ``{#id}``: attributes at the end of a line; not a calculated question's
#: placeholder there (``{=a + b}``, ``{x:2}``).
#: A line's attributes ``{#id type=...}``; not a blank's own points ``[[Sun]]{points=2}`` (braces
#: right after the blank, holding only its points), which the blank reads.
ATTRS = re.compile(r"\s*\{(?!=)(?![A-Za-z][A-Za-z0-9_]*:[0-9]{1,2}\})(?:(?<!\]\]\{)|(?!points=[^\s{}]*\}))([^{}]*)\}\s*$")
ATTR = re.compile(r'#([^\s}]+)|([A-Za-z_]+)=(?:"([^"]*)"|(\S+))|([A-Za-z_]+)|(\S+)')
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
PAIR = re.compile(r"^(.*?)\s*(?:->|→|=>)\s*(.*)$")
#: A blank ``[[answer | other]]``, and the points it is worth when written right after it: ``{points=2}``.
BLANK = re.compile(r"\[\[(.*?)\]\](?:\{points=([^\s{}]*)\})?")
#: Blanks as exams print them: ``(    )``, ``（　　）``, ``____``; named: ``( ㉠ )``, ``㉠(    )``.
ANONYMOUS_BLANK = re.compile(r"[(（][ \u3000]{2,}[)）]|_{3,}")
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_FORMS = str.maketrans({**{chr(0xFF10 + i): str(i) for i in range(10)}, "．": ".", "－": "-", "＋": "+", "　": " "})


def ascii_number(text: str) -> str:
    """A number as CJK papers type it, in ASCII: ``１．２５`` -> ``1.25``, spaces out."""
    return text.translate(_NUMBER_FORMS).replace(" ", "")


NUMERIC_ANSWER = re.compile(
    rf"^(?P<value>{NUMBER})(?:\s*(?:±|\+/?-)\s*(?P<tol>{NUMBER})\s*(?P<pct>%)?)?$|^(?P<low>{NUMBER})\s*\.\.\s*(?P<high>{NUMBER})$"
)


_OPEN_KEY, _CLOSE_KEY = re.escape(V.OPEN_BRACKETS + "(（"), re.escape(V.CLOSE_BRACKETS + ")）")
#: A run of rule characters a word processor's paper frames a title with (``=====参考答案=====``).
_RULE_RUN = r"(?:[=\-~─━═]{3,})?"
_KEY_TITLE_WORDS = "|".join(re.escape(t) for t in V.words("key_titles"))
_KEY_TITLE = (rf"^[#*_\s]*{_RULE_RUN}[ \t]*[{_OPEN_KEY}]?\s*(?:{_KEY_TITLE_WORDS})"
              rf"\s*[{_CLOSE_KEY}]?[*_\s]*{_RULE_RUN}[*_\s]*")
#: The title of an answer key printed after the questions, in any language, on a line of its own
#: (``[정답]``, ``<정답>``, ``## Answer key``, ``正解``, ``=====参考答案=====``): in a source, no
#: colon, which would make it a label.
KEY_TITLE = re.compile(_KEY_TITLE + "$", re.I)
#: The same on a quiz page, where ``Answers:`` is a key's title too.
PAGE_KEY_TITLE = re.compile(_KEY_TITLE + r"[:：]?[*_\s]*$", re.I)
#: A part of an answer key named for the section it answers, on a line of its own: ``## 单选题答案：``,
#: ``Part A answers``, ``객관식 정답``, ``[단답형 정답]`` (the name, then a key's title word).
KEY_PART = re.compile(rf"^[#*_\s]*[{_OPEN_KEY}]?\s*(?P<name>[^\s#*_].{{0,40}}?)\s*(?:{_KEY_TITLE_WORDS})"
                      rf"\s*[{_CLOSE_KEY}]?[*_\s]*[:：]?[*_\s]*$", re.I)
_NAME_MARK = re.compile(r"[\s*_#:：、,，.．·・\-–—=~\[\]【】〔〕<>〈〉《》]+")
_BRACKETED_RULE = re.compile(r"[（(][^（()）]*[)）]")


def section_names(title: str) -> tuple[str, ...]:
    """The names a section goes by, for a key's part to be matched with it: its mark and its title,
    each without marks, spaces, bracketed rules or a key's title word, case folded. ``一、单选题（每题
    3 分）`` goes by ``一`` and ``单选题``, ``Part A: Multiple choice`` by ``parta`` and
    ``multiplechoice``; a key's part ``## 单选题答案：`` by ``单选题``."""
    text = title.strip().strip("#").strip()
    words = KEY_PART.match(text)
    if words:
        text = words.group("name")
    names = []
    for pattern in NUMBERED_SECTIONS + SECTION_MARKERS:
        found = pattern.match(text)
        if found and "mark" in pattern.groupindex:
            names.append(found.group("mark"))
            text = found.group("title") or ""
            break
    names.append(_BRACKETED_RULE.sub("", text))
    return tuple(n for n in (_NAME_MARK.sub("", name).casefold() for name in names) if n)

# -- answer key entries, read by build and import alike -------------------------------------------------

_KEY_WORDS = "|".join(re.escape(w) for w in V.words("question_words"))
_KEY_SUFFIXES = "|".join(re.escape(w) for w in V.words("number_suffixes"))
#: ``1. B``, ``1) B``, ``1-B``, ``1.②``, ``Q1: B``, ``1 – B``, ``문제 1: B``, ``1번: B``, ``問1 イ``.
PAGE_KEY_ENTRY = re.compile(rf"^(?:[-*+]\s+)?[*_]{{0,2}}(?P<word>(?:{_KEY_WORDS})\s*)?(\d{{1,5}})\s*"
                       rf"(?:(?:{_KEY_SUFFIXES})\s*[.):：]?|[.):：\-–—．）、]|(?(word)\s|(?=[①-⑳])))"
                       # ``3.14`` is a number, not the entry 3 answered ``14`` (``정답: 3.14 ± 0.005``)
                       r"(?!(?<=[.．])\d)[*_]{0,2}\s*(.+)$", re.I)
#: Where an entry of several on one line starts: ``1.② 2.① 3.④``, ``1-② 2-①``, ``1) B, 2) C``.
_NEXT_ENTRY = re.compile(rf"(?:\s*[,;，、]\s*|\s+)(?=(?:{_KEY_WORDS})\s*\d{{1,5}}\b|\d{{1,5}}\s*(?:(?:{_KEY_SUFFIXES})|[.):：\-–—．）]))", re.I)
#: ``1. ② 해설: …``: an explanation after an entry's answer, on its line.
_ENTRY_EXPLANATION = re.compile(r"\s+[\[【(]?(" + "|".join(re.escape(n) for n, r in sorted(V.page_labels().items(), key=lambda i: -len(i[0]))
                                                         if r == "explanation") + r")[\]】)]?\s*[:：]\s*(.*)$", re.I)


def explanations_heading(line: str) -> bool:
    """``해설``, ``[해설]``, ``## Explanations``, ``解説：``: the part of an answer key that explains."""
    word = re.sub(r"[\[\]【】〔〕()（）:：*_#\s]", "", line).lower()
    labels = V.page_labels()
    return labels.get(word) == "explanation" or labels.get(word.removesuffix("s")) == "explanation"


def key_entry(line: str) -> tuple[int, str, str] | None:
    """One answer key entry: (question number, answer, explanation on its line)."""
    found = PAGE_KEY_ENTRY.match(line.strip())
    if not found:
        return None
    answer, explanation = found.group(3).strip(), ""
    said = _ENTRY_EXPLANATION.search(answer)
    if said:
        answer, explanation = answer[: said.start()].strip(), said.group(2).strip()
    return (int(found.group(2)), answer, explanation) if answer else None


def key_entries(line: str) -> list[tuple[int, str, str]]:
    """The entries of a line of an answer key: one (``1. ② 해설: …``), or several (``1.② 2.① 3.④``,
    ``1-B, 2-C``, ``1. A<tab>2. C``) when every piece is one and their numbers ascend."""
    pieces = [p for p in _NEXT_ENTRY.split(line.strip()) if p.strip()]
    if len(pieces) > 1:
        entries = [key_entry(p) for p in pieces]
        numbers = [e[0] for e in entries if e]
        if all(entries) and numbers == sorted(numbers) and len(set(numbers)) == len(numbers) and not any(e[2] for e in entries[:-1] if e):
            return [e for e in entries if e]
    single = key_entry(line)
    return [single] if single else []
