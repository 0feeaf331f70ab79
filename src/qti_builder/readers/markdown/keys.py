"""Answer keys in a source, as exam papers print them: after the questions or after a section's
(``[정답]`` then ``1. ②  2. ①``, ``정답 1.② 2.④``, ``Answer Key`` then ``1. b``, ``1-③``, a tab-separated
grid ``1.③⇥2.⑤``), with an explanations part (``해설`` then ``1. …``). Each entry is read by the one
entry reader both routes share (:func:`syntax.key_entries`) and becomes the answer (and explanation)
of the question of its number, as if written under it; where the key does not fit the questions
(an entry for a question the paper does not have, an answer that contradicts the question's own),
it is an error at the entry (QB187).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from . import syntax as S

_OPEN, _CLOSE = re.escape(S.V.OPEN_BRACKETS + "(（"), re.escape(S.V.CLOSE_BRACKETS + ")）")
#: A key's title before its entries on one line: ``정답 1.② 2.④``, ``[정답] 1-③ 2-①``, ``Answers: 1. b``.
_TITLE_BEFORE = re.compile(rf"^[#*_\s]*[{_OPEN}]?\s*(?:{'|'.join(re.escape(t) for t in S.V.words('key_titles'))})"
                           rf"\s*[{_CLOSE}]?[*_]*\s*[:：]?\s*(?=[0-9]|[{_OPEN}]?\s*(?:{S._KEY_WORDS})\s*[0-9])", re.I)

#: A decimal digit as the key entry's pattern reads one (``\d``: Unicode's Nd, fullwidth too).
_DIGIT = re.compile(r"\d")


@dataclass
class Part:
    """A part of a key named for the section it answers (``## 单选题答案：`` then ``1. A``), as papers
    print one key at the end for sections that each number their questions from 1."""

    title: str
    line: int
    column: int
    #: The paper's section it names, once the whole paper is read (None: it names none).
    section: object | None = None


@dataclass
class Entry:
    number: int
    answer: str
    line: int
    column: int
    explanation: list[str] = field(default_factory=list)
    #: Labelled lines under the entry (``채점 기준: …``): role, name, line, column and text.
    labels: list[tuple[str, str, int, int, str]] = field(default_factory=list)
    #: The part of the key it is in, if the key has parts.
    part: Part | None = None


@dataclass
class Key:
    """One answer key: where it starts, the section whose questions it answers first, its entries."""

    line: int
    #: The section it follows (a key after a section's questions answers those first).
    section: object | None
    entries: list[Entry] = field(default_factory=list)
    #: The explanations part (``해설``) is being read: numbered lines explain.
    explaining: bool = False
    explanations: dict[int, tuple[int, int, list[str]]] = field(default_factory=dict)
    #: Answer labels inside the key (``정답: ②`` under ``1. ①``): line, column and the line as written.
    stray_answers: list[tuple[int, int, str]] = field(default_factory=list)
    #: Its parts, each naming the section its entries answer.
    parts: list[Part] = field(default_factory=list)
    #: No title above it (``1. 2`` then ``2. 4``, one entry a line): read as a key for answers that
    #: name options, so each must name options its question has.
    untitled: bool = False


def entries_line(line: str) -> list[tuple[int, str, str, int]] | None:
    """The entries of a line of a key, with each answer's offset: ``1. ②  2. ①``, ``1.③⇥2.⑤``,
    ``정답 1.② 2.④`` (its title before them). None when the line holds none."""
    if not _DIGIT.search(line):
        # Every entry has its question's number (``S.PAGE_KEY_ENTRY``'s ``\d{1,5}``), in a part of
        # the line: a line without a digit holds none. Most lines of a source have none, and the
        # reader asks this of nearly every line of a question (a fifth of reading a bank).
        return None
    found = _entries_of(line)
    return list(found) if found else None


@lru_cache(maxsize=4)
def _entries_of(line: str) -> tuple[tuple[int, str, str, int], ...]:
    """:func:`entries_line`'s reading of a line with a digit. Kept for the last few lines: the
    reader asks it twice of a question's first line (a key on one line, then a key's entry again)."""
    title = _TITLE_BEFORE.match(line)
    rest = line[title.end():] if title else line
    base = len(line) - len(rest)
    found = []
    for cell in rest.split("\t"):
        # Each answer is looked for after its entry's number and the answers before it, so that
        # ``1.② 2.②`` or ``1. 1`` places each entry at its own answer.
        start, end = base, base + len(cell)
        for number, answer, explanation in S.key_entries(cell):
            numbered = line.find(str(number), start, end)
            start = numbered + len(str(number)) if numbered >= 0 else start
            at = line.find(answer, start, end)
            found.append((number, answer, explanation, at if at >= 0 else base))
            start = at + len(answer) if at >= 0 else start
        base = end + 1
    return tuple(found)


def starts_key(line: str, after_answer: bool) -> bool:
    """A line that is a key by itself, after a question: a key's title then entries (``정답 1.② 2.④``)
    or, after an answer (else they may be options, ``1) x 2) y``), several entries (``1.② 2.① 3.④``,
    a grid row ``1. ③⇥2. ⑤``); after options, several entries of circled numbers only."""
    found = entries_line(line)
    if not found:
        return False
    title = _TITLE_BEFORE.match(line)
    if title:
        # ``정답 1.② 2.④``; one entry after a title that is also a label (``【解答】１．００``) is the
        # question's own answer.
        name = re.sub(rf"[{_OPEN}{_CLOSE}#*_:：\s]", "", title.group(0)).lower()
        return len(found) > 1 or name not in S.QUESTION_LABELS
    # Untitled, every entry's answer is what keys print: an option, a truth mark, a number or a word.
    # After options, only circled numbers (``1.② 2.① 3.④``): ``1) x 2) y`` may be options.
    return len(found) > 1 and all(key_answer(answer) for _, answer, _, _ in found) and (
        after_answer or all(S.CIRCLED.fullmatch(answer.strip()) for _, answer, _, _ in found))


def key_answer(answer: str) -> bool:
    """An answer as keys print them: an option, a truth mark, a number or a short word."""
    return (S.option_refs(answer) is not None or S.every_truth(answer) is not None
            or S.NUMERIC_ANSWER.match(answer) is not None or (len(answer) <= 15 and " " not in answer.strip()))


def read_line(key: Key, line: str, lineno: int, following: str = "") -> bool:
    """Read one line into the key: True when it is the key's (an entry, an explanation, a title, a
    blank line), False when the key ends before it (a section, a heading, a question followed by
    its options)."""
    if not line.strip():
        return True
    if S.explanations_heading(line):
        key.explaining = True
        return True
    found = entries_line(line)
    if found and len(found) == 1 and S.question_start(line) and S.option_marks(following.strip(), decimal=False) \
            and not key_answer(found[0][1]):
        return False  # ``2. 次のうち…`` then ``ア　鉄``: the next question, not an entry
    if found:
        for number, answer, explanation, offset in found:
            if key.explaining:
                text = " ".join(p for p in (answer, explanation) if p)
                # The column its text starts at, its answer's (entries_line places every answer on its
                # line): where a problem in it is found.
                key.explanations[number] = (lineno, offset + 1, [text])
            else:
                key.entries.append(Entry(number, answer, lineno, offset + 1, [explanation] if explanation else [],
                                         part=key.parts[-1] if key.parts else None))
        return True
    if S.KEY_TITLE.match(line) or S.PAGE_KEY_TITLE.match(line):
        return True
    if S.structure(line) or S.HEADING.match(line):
        return False
    label = S.read_label(line.strip())
    role = S.QUESTION_LABELS.get(label.name.lower(), S.QUESTION_LABELS.get(label.name)) if label and label.spaced else None
    if (key.entries or key.explanations) and role == "answer" and label is not None:
        # ``정답: ②`` under ``1. ①``: an answer, but the key numbers its answers and this one has no
        # number. Never an explanation students read (it may contradict the entry above it).
        key.stray_answers.append((lineno, len(line) - len(line.lstrip()) + 1, line.strip()))
        return True
    if key.entries and not key.explaining and label is not None and role not in (None, "answer", "explanation") and label.value:
        # ``채점 기준: …`` under ``5. 모범답안: …``: the entry's question's marking scheme, as if under it.
        column = len(line) - len(line.lstrip()) + label.value_offset + 1
        key.entries[-1].labels.append((role, label.raw, lineno, column, label.value))
        return True
    if key.entries and not key.explaining and role == "explanation" and label is not None and label.value:
        # ``해설: …`` under an entry: its explanation, as on the entry's line (``1. ② 해설: …``), the
        # label no part of what students read.
        key.entries[-1].explanation.append(label.value)
        return True
    if key.explaining and key.explanations:
        # In the explanations part, a line under an explanation (indented or not) goes on with it.
        list(key.explanations.values())[-1][2].append(line.strip())
        return True
    if key.entries and (line[:1] in (" ", "\t") or not key.explaining):
        key.entries[-1].explanation.append(line.strip())  # an entry's explanation on the lines under it
        return True
    return False


Report = Callable[[str, int, int, str], None]
#: Why an untitled key's entry cannot answer its question (its answer names no option it has), or None.
Misfit = Callable[[object, Entry], str | None]


def apply(key: Key, questions: list, report: Report, add_answer: Callable[[object, Entry], None],
          add_explanation: Callable[[object, int, int, list[str]], None], in_section: Callable[[object, object], bool],
          misfit: Misfit | None = None) -> None:
    """Each entry to the question of its number: those of the section the key follows first, else
    the paper's one question of that number. What does not fit is reported at the entry: for an
    untitled key, read as one because its answers name options, an answer naming none of its
    question's options too."""
    for line, column, text in key.stray_answers:
        report(f"'{text}' gives an answer inside the answer key, where each answer is an entry with its question's "
               "number, so which question it answers cannot be told", line, column,
               "write it as an entry with the question's number ('2. ②'), or move it under its question")
    numbered: dict[int, list] = {}
    for question in questions:  # by number once: a key of hundreds of entries under a bank of thousands
        numbered.setdefault(question.number, []).append(question)
    for entry in key.entries:
        if entry.part is not None:
            # A part answers the section it names, and that section only.
            if entry.part.section is None:
                continue  # it names no section: reported once, at the part
            near = [q for q in numbered.get(entry.number, []) if in_section(q, entry.part.section)]
            if len(near) != 1:
                part, section = entry.part.title, getattr(entry.part.section, "title", "")
                report(f"the answer key's part '{part}' on line {entry.part.line} answers the section '{section}', which "
                       f"numbers {len(near)} questions {entry.number}" if near else
                       f"the answer key's part '{part}' on line {entry.part.line} answers the section '{section}', which "
                       f"has no question {entry.number}", entry.line, entry.column,
                       "number the part's entries as its section numbers its questions, or put the entry under the "
                       "part named for its question's section")
                continue
            _answer(near[0], entry, key, report, add_answer, add_explanation, misfit)
            continue
        anywhere = numbered.get(entry.number, [])
        near = [q for q in anywhere if key.section is not None and in_section(q, key.section)]
        matched = near if len(near) == 1 else anywhere if len(anywhere) == 1 else []
        if not matched:
            why = (f"the paper numbers {len(anywhere)} questions {entry.number}, so which one it answers cannot be told"
                   if anywhere else f"the paper has no question {entry.number}")
            report(f"the answer key gives an answer for question {entry.number} ('{entry.answer}'), but {why}",
                   entry.line, entry.column,
                   "number the key as the questions are numbered (a key after a section answers that section's questions), "
                   "or write the answer under its question ('정답: ②', 'Answer: B')")
            continue
        (question,) = matched
        _answer(question, entry, key, report, add_answer, add_explanation, misfit)


def _answer(question: object, entry: Entry, key: Key, report: Report, add_answer: Callable[[object, Entry], None],
            add_explanation: Callable[[object, int, int, list[str]], None], misfit: Misfit | None = None) -> None:
    """The entry's answer (and explanation) to its question, as if written under it; an answer
    the question gives already must say the same, and an untitled key's must name its options."""
    own = question.label("answer")  # type: ignore[attr-defined]
    if own is not None:
        if own.block.text() != entry.answer:
            report(f"question {entry.number} gives the answer '{own.block.text()}' on line {own.line}, the answer key "
                   f"'{entry.answer}'", entry.line, entry.column,
                   "keep one of the two: delete the answer under the question or the key's entry")
        return
    why = misfit(question, entry) if key.untitled and misfit is not None else None
    if why is not None:
        report(f"the answer key gives question {entry.number} the answer '{entry.answer}', but {why}", entry.line,
               entry.column, "name the question's options as it numbers them, and number the key as the questions are numbered")
        return
    add_answer(question, entry)
    explanation = entry.explanation or key.explanations.get(entry.number, (0, 1, []))[2]
    if explanation and question.label("explanation") is None:  # type: ignore[attr-defined]
        line, column = (entry.line, 1) if entry.explanation else key.explanations[entry.number][:2]
        add_explanation(question, line, column, explanation)
