"""The Markdown reader's entry (readers/markdown/__init__.py) on small sources written here: a
heading's stated points counted over its subsections' questions (QB197, its message and place
written out, the place found by searching the source's text). Each case was written against a
sampled mutmut survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import place, read_text

HINT = ("write each question's points as the paper does ('(2 Punkte)', '(2 points)', {points=2}), or "
        "a rule for each ('(je 2 Punkte)', '(2 pts each)') in the heading; 'qti-builder check --outline' "
        "lists each question's points")

NESTED = """---
title: T
---
# Part A (4 points)

## Reading

1. Q1?
A) x
B) y
Answer: A

2. Q2? {points=2}
A) x
B) y
Answer: B

## Writing

3. Q3?
A) x
B) y
Answer: A
"""


def test_a_heading_s_points_count_its_subsections_questions(tmp_path: Path) -> None:
    """Part A has no question of its own: its subsections' 1 + 2 + 1 make its 4."""
    quiz, told = read_text(tmp_path, NESTED)
    assert told == []
    (part,) = quiz.sections
    assert [[q.points for q in s.questions] for s in part.sections] == [[1, 2], [1]]


def test_a_heading_s_points_its_subsections_do_not_make_are_told(tmp_path: Path) -> None:
    text = NESTED.replace("(4 points)", "(5 points)")
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, " (5 points)"), "QB197",
                     "the heading 'Part A (5 points)' states 5 points, but its questions add up to 4", HINT)]


def test_a_heading_that_draws_its_questions_is_not_counted(tmp_path: Path) -> None:
    """Two of three questions drawn, each worth 1: the heading's 2 points are what a student
    gets, not the 3 its questions add up to, so nothing is said."""
    text = ("---\ntitle: T\n---\n# Pool (2 points) {#pool select=2}\n\n"
            + "".join(f"{n}. Q{n}?\nA) x\nB) y\nAnswer: A\n\n" for n in (1, 2, 3)))
    quiz, told = read_text(tmp_path, text)
    assert told == []
    (pool,) = quiz.sections
    assert (pool.title, pool.select, [q.points for q in pool.questions]) == ("Pool (2 points)", 2, [1, 1, 1])
