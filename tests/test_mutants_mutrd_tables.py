"""Two-column matching tables (readers/markdown/tables.py) read from small sources written here:
a table of 24 definitions whose last, X, is an item's answer, and an answer naming no definition
quoted in QB193's message to its first 30 characters, the message and place written out (the
place found by searching the source's text). Each case was written against a sampled mutmut
survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

import string
from pathlib import Path

from helpers.reading import place, read_body, source_text


def test_an_answer_naming_the_twenty_fourth_definition(tmp_path: Path) -> None:
    letters = string.ascii_uppercase[:24]  # A to X
    body = ("Matching (1 point each)\n\n1) ____ First\tA. Definition A\n2) ____ Second\tB. Definition B\n"
            + "".join(f"\t{letter}. Definition {letter}\n" for letter in letters[2:])
            + "\nAnswer Key\n1. X\n2. A\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    assert [(q.stem, [c.text for c in q.choices if c.correct], len(q.choices)) for q in quiz.iter_questions()] == [
        ("First", ["Definition X"], 24), ("Second", ["Definition A"], 24)]


def test_an_answer_naming_no_definition_is_quoted_to_thirty_characters(tmp_path: Path) -> None:
    body = ("Match each organ (1 point each)\n\n1) ____ The heart      a. Filters the blood\nAnswer: b\n"
            "2) ____ The kidneys    b. Pumps the blood\n                       c. Digests food\n"
            "Answer: the one that filters all the blood\n")
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert told == [(*place(text, "the one that filters"), "QB193",
                     "the answer 'the one that filters all the b' of item 2 names no definition of the matching table "
                     "(items 1–2): its definitions are lettered a, b, c")]
