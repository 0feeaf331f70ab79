"""The dialect's vocabulary: markers, labels and attributes, as data.

English and Korean spellings of one label sit side by side; adding a language is adding lines.
"""

from __future__ import annotations

import re

from ...kinds import KINDS

# Label text (lower case) -> the role of its block.
QUESTION_LABELS: dict[str, str] = {
    "answer": "answer",
    "correct answer": "answer",
    "model answer": "answer",
    "정답": "answer",
    "모범 답안": "answer",
    "모범답안": "answer",
    "explanation": "explanation",
    "general feedback": "explanation",
    "설명": "explanation",
    "해설": "explanation",
    "correct feedback": "correct",
    "정답 피드백": "correct",
    "incorrect feedback": "incorrect",
    "오답 피드백": "incorrect",
    "partially correct feedback": "partially_correct",
    "부분 정답 피드백": "partially_correct",
}
#: Indented under an option, or under one of several answers.
CHOICE_LABELS: dict[str, str] = {"feedback": "feedback", "피드백": "feedback"}

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
}

#: Attributes every question takes, and those that only some kinds take.
COMMON_ATTRIBUTES = ("id", "points", "type", "title", "tags")
KIND_ATTRIBUTES: dict[str, tuple[str, ...]] = {name: spec.markdown_attributes for name, spec in KINDS.items()}
QUESTION_ATTRIBUTES = COMMON_ATTRIBUTES + tuple(sorted({a for attrs in KIND_ATTRIBUTES.values() for a in attrs}))
#: Attributes whose value is a comma-separated list.
LIST_ATTRIBUTES = ("tags", "allowed_types")
SECTION_ATTRIBUTES = ("id", "shuffle", "select")
OPTION_ATTRIBUTES = ("fixed", "score")

#: Kinds whose answers are lettered options (``A) ...``).
OPTION_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "options")
#: Kinds whose answers are a bullet list after the question text.
ITEM_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "list")
#: Kinds that may have several ``Answer:`` lines, each with an optional ``(50%)`` score.
MULTI_ANSWER_KINDS = tuple(name for name, spec in KINDS.items() if spec.markdown_answer == "answers")

#: Words for true and false answers. Only the first two of each are used to infer the kind.
TRUE_WORDS = ("true", "참", "t", "yes", "o", "맞음", "예")
FALSE_WORDS = ("false", "거짓", "f", "no", "x", "틀림", "아니오")
#: Punctuation an answer may end with without changing what it means (``Answer: False.``, ``B.``).
TRAILING_PUNCTUATION = ".!。！．"


def bare(text: str) -> str:
    """An answer without the punctuation at its end, in lower case: what a word answer means."""
    return text.strip().rstrip(TRAILING_PUNCTUATION).strip().lower()


def infers_true_false(answer: str) -> bool:
    """An answer that makes a question without options true/false: ``true``, ``False.``, ``참``."""
    return bare(answer) in TRUE_WORDS[:2] + FALSE_WORDS[:2]

def label_lines(markdown: str) -> list[tuple[int, int, str]]:
    """Lines of a Markdown text that start with a label the dialect knows (``Answer:``,
    ``Explanation:``, ``피드백:``, ...), outside code: (line index, column, label as written).
    In text students see, such a line is an answer or a grader's note in the wrong place."""
    found: list[tuple[int, int, str]] = []
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
        label = LABEL.match(line.strip()) if depth < 4 else None
        if label:
            raw = label.group(1).strip()
            scored = LABEL_SCORE.match(raw)
            name = (scored.group(1) if scored else raw).strip().lower()
            if name in QUESTION_LABELS or name in CHOICE_LABELS:
                found.append((i, depth + 1, raw))
    return found


#: A label in bold or italics, which is not read as a label: ``**Answer:** B``, ``*Answer*: B``.
MARKED_LABEL = re.compile(r"^[*_]{1,3}([^\W\d_][^:：*_]{0,40}?)\s*(?:[:：]\s*[*_]{1,3}|[*_]{1,3}\s*[:：])(?:\s*(.*?))?\s*$")
#: What an answer without its label's colon may be (``Answer B``, ``정답 참``, ``Answer - 42``):
#: short enough not to be a sentence such as "Answer the questions below".
_SHORT_ANSWER = re.compile(r"^(?:[-–—=]\s*)?([A-Za-z](?:\s*[,/]\s*[A-Za-z])*|[-+]?\d[\d.,]*(?:\s*(?:±|\+/?-)\s*[\d.]+%?)?|\S+)[.!]?$")


def disguised_label(line: str) -> tuple[str, str, str] | None:
    """A line meant as a label that the reader does not take as one: (the label as written, the
    role, how it is disguised: "bold" or "colon"). None for any other line."""
    text = line.strip()
    marked = MARKED_LABEL.match(text)
    if marked:
        role = QUESTION_LABELS.get(marked.group(1).strip().lower())
        return (marked.group(1).strip(), role, "bold") if role else None
    lowered = text.lower()
    for name, role in QUESTION_LABELS.items():
        if role == "answer" and lowered.startswith(name + " "):
            rest = text[len(name):].strip()
            value = _SHORT_ANSWER.match(rest)
            if value and (len(value.group(1)) <= 2 or NUMERIC_ANSWER.match(value.group(1).replace(" ", ""))
                          or bare(value.group(1)) in TRUE_WORDS + FALSE_WORDS):
                return text[: len(name)], role, "colon"
    return None


HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
#: A question number: what CommonMark takes as an ordered-list number, up to 9 digits (a
#: section of 10,000 questions and more reads; a longer number is a paragraph in Markdown).
QUESTION_NUMBER = r"\d{1,9}"
QUESTION = re.compile(rf"^({QUESTION_NUMBER})[.)]\s+(.*?)\s*$")
#: A question line whose number is longer than Markdown allows (reported, then read as a question).
LONG_NUMBER = re.compile(r"^(\d{10,})[.)]\s+(.*?)\s*$")
OPTION = re.compile(r"^(?:[-*+]\s+)?([A-Za-z])[.)]\s+(.*?)\s*$")
ITEM = re.compile(r"^[-*+]\s+(.*?)\s*$")
#: ``Name: value``. A backslash before the colon (``Answer\:``) makes the line ordinary text.
LABEL = re.compile(r"^([^\W\d_][^:：\\]{0,40}?)\s*[:：](?:\s+(.*?))?\s*$")
LABEL_SCORE = re.compile(r"^(.*?)\s*\(\s*(-?\d+(?:\.\d+)?)\s*%\s*\)$")
#: Attributes at the end of a line; not a calculated question's placeholder there ({=a + b}, {x:2}).
ATTRS = re.compile(r"\s*\{(?!=)(?![A-Za-z][A-Za-z0-9_]*:[0-9]{1,2}\})([^{}]*)\}\s*$")
ATTR = re.compile(r'#([^\s}]+)|([A-Za-z_]+)=(?:"([^"]*)"|(\S+))|([A-Za-z_]+)|(\S+)')
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
PAIR = re.compile(r"^(.*?)\s*(?:->|→|=>)\s*(.*)$")
BLANK = re.compile(r"\[\[(.*?)\]\]")
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
NUMERIC_ANSWER = re.compile(
    rf"^(?P<value>{NUMBER})(?:\s*(?:±|\+/?-)\s*(?P<tol>{NUMBER})\s*(?P<pct>%)?)?$|^(?P<low>{NUMBER})\s*\.\.\s*(?P<high>{NUMBER})$"
)
