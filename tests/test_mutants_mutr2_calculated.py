"""Calculated questions' Markdown form (readers/markdown/calculated.py) read from small sources
written here: the variables block's lines as the model's variables, conditions and listed sets,
the answer's formula and tolerance, the text without the block; and what cannot be read, the
error a user reads at its line (QB217, QB218), the message written out and the place found by
searching the source's text. Each case was written against a mutmut survivor of the module
(issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source
from helpers.reading import line_of, place, read_body, read_hints, source_text

SPEED = """1. A car covers {d} km in {t} hours. What is its speed? {#speed type=calculated}

   ```variables
   d = 20..200 step 5   # kilometres
   t = 1.5..4.0
   n = 2, 3.25, 5
   v = d / t
   w = 1..9 decimals 2 shared
   d > t
   ```
   Then round it.

Answer: d / t ± 1%
"""


def _dump(question) -> dict:
    return question.model_dump(exclude_defaults=True, include={"stem", "variables", "constraints", "sets", "answer",
                                                               "tolerance", "tolerance_mode"})


def test_a_block_of_ranges_values_formulas_and_conditions(tmp_path: Path) -> None:
    quiz, told = read_body(tmp_path, SPEED)
    assert told == []
    (q,) = quiz.iter_questions()
    assert _dump(q) == {
        "stem": "A car covers {d} km in {t} hours. What is its speed?\n\nThen round it.",
        "variables": [{"name": "d", "min": 20, "max": 200, "step": 5}, {"name": "t", "min": 1.5, "max": 4, "decimals": 1},
                      {"name": "n", "values": [2, 3.25, 5], "decimals": 2}, {"name": "v", "formula": "d / t"},
                      {"name": "w", "min": 1, "max": 9, "decimals": 2, "shared": True}],
        "constraints": ["d > t"], "answer": "d / t", "tolerance": 1, "tolerance_mode": "percent"}


def test_listed_sets_in_a_korean_tilde_block(tmp_path: Path) -> None:
    body = ("1. Listed {d} and {t}. {#listed type=calculated}\n\n~~~~변수\n(d, t) = (45, 1.5), (60, 2.25)\n"
            "t = decimals 3\n~~~~\n\nAnswer: d * t +/- 0.5\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert _dump(q) == {"stem": "Listed {d} and {t}.", "variables": [{"name": "t", "decimals": 3}, {"name": "d", "decimals": 0}],
                        "sets": [{"d": 45, "t": 1.5}, {"d": 60, "t": 2.25}], "answer": "d * t", "tolerance": 0.5}


def test_an_answer_without_a_tolerance_is_exact(tmp_path: Path) -> None:
    body = "1. Twice {a}? {#twice type=calculated}\n\n```variables\na = 1..9\n```\n\nAnswer: 2 * a\n"
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert _dump(q) == {"stem": "Twice {a}?", "variables": [{"name": "a", "min": 1, "max": 9, "decimals": 0}],
                        "answer": "2 * a"}


BAD = """1. No block {a}. {#a type=calculated}

Answer: a + 1

2. Bad lines {b}. {#b type=calculated}

```variables
  b = 1..9 step x
c =
(d, e) = 45, 1.5
(f, g) = (1, 2), (3)
h = decimals y
```

Answer: b + 1
"""


def test_what_a_block_cannot_say_is_an_error_at_its_line(tmp_path: Path) -> None:
    text = source_text(BAD)
    _, told = read_body(tmp_path, BAD)
    assert [t for t in told if t[2] in ("QB217", "QB218")] == [
        (line_of(text, "1. No block"), 1, "QB217", "a calculated question needs a ```variables block in its text"),
        (*place(text, "b = 1..9"), "QB218", "'step x': the step is a number"),
        (line_of(text, "c ="), 1, "QB218", "variable 'c' has no values"),
        (line_of(text, "(d, e)"), 1, "QB218", "cannot read the listed sets"),
        (line_of(text, "(f, g)"), 1, "QB218", "the set (3) does not give one number for each of f, g"),
        (line_of(text, "h = decimals"), 1, "QB218", "'decimals y': the decimals is a number"),
    ], told


def test_each_block_error_says_how_to_fix_it(tmp_path: Path) -> None:
    assert [h for h in read_hints(tmp_path, BAD) if h[0] in ("QB217", "QB218")] == [
        ("QB217", "after the question line, write ```variables, one variable a line (d = 20..200), and ``` to close it"),
        ("QB218", "write step 0.5, or leave it out"),
        ("QB218", "write a range (d = 20..200), values (n = 2, 3, 5) or a formula (v = d / t)"),
        ("QB218", "write (d, t) = (45, 1.5), (60, 2), one value per variable in each pair of parentheses"),
        ("QB218", "write one number per variable, in the order of the names"),
        ("QB218", "write decimals 0.5, or leave it out")]


FRONT = "---\ntitle: T\n---\n"


def _reported(tmp_path: Path, text: str) -> list[tuple[int, int, str, str]]:
    code, reported = check_source(tmp_path, "p.md", text)
    assert code == 1
    return [(r.line, r.column, r.code, r.message) for r in reported]


def test_a_name_that_is_no_variable_is_told_where_it_is_written(tmp_path: Path) -> None:
    """In the answer, a variable's formula or a condition: the error is at the name itself, each
    part of the block keeping its place in the source."""
    block = "1. Speed {{d}}? {{#s type=calculated}}\n\n```variables\nd = 20..200\n{line}```\n\nAnswer:   {answer}\n"
    text = FRONT + block.format(line="", answer="d / x ± 1%")
    assert _reported(tmp_path, text) == [(*place(text, "x ±"), "QB211", "question 's': 'x' is not a variable of this question")]
    text = FRONT + block.format(line="  v = d / q\n", answer="d")
    assert _reported(tmp_path, text) == [(*place(text, "q\n"), "QB211", "question 's': 'q' is not a variable of this question")]
    text = FRONT + block.format(line="   d > zz\n", answer="d")
    assert _reported(tmp_path, text) == [(*place(text, "zz"), "QB211", "question 's': 'zz' is not a variable of this question")]


def test_a_variable_s_and_the_tolerance_s_problems_are_told_at_them(tmp_path: Path) -> None:
    text = FRONT + "1. Speed {d} {t}? {#s type=calculated}\n\n```variables\nd = 20..200\n  t = 9..1\n```\n\nAnswer: d / t\n"
    assert _reported(tmp_path, text) == [(*place(text, "t = 9..1"), "QB201", "variable 't': min (9) is more than max (1)")]
    text = FRONT + "1. Speed {d}? {#s type=calculated}\n\n```variables\nd = 20..200\n```\n\nAnswer: d ± 150%\n"
    assert _reported(tmp_path, text) == [(*place(text, " ± 150%"), "QB201",
                                          "a tolerance of 150 % accepts every number of the answer's sign")]


def test_options_of_a_variable_comments_and_blank_lines_in_a_block(tmp_path: Path) -> None:
    """A step keeps its fraction (its decimals follow from it) and decimals are whole; a comment is cut at its first ``#``; a
    blank line does not end the block; decimals are counted on the number as written (``1.5e2``: 1)."""
    body = ("1. Values {x} {y} {z}? {#v type=calculated sets=7}\n\n```variables\nx = 1.5e2..2.25e2   # a # b\n\n"
            "y = 1..9 step 0.5\nz = 1..9 decimals 3\n```\n\nAnswer: x + y + z\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert q.model_dump(exclude_defaults=True, include={"variables", "sets"}) == {
        "variables": [{"name": "x", "min": 150, "max": 225, "decimals": 2}, {"name": "y", "min": 1, "max": 9, "step": 0.5, "decimals": 1},
                      {"name": "z", "min": 1, "max": 9, "decimals": 3}], "sets": 7}


def test_listed_sets_of_capital_names(tmp_path: Path) -> None:
    body = "1. Listed {D}? {#s type=calculated}\n\n```variables\n(D, T) = (1, 2.5), (3, 4)\n```\n\nAnswer: D*T\n"
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert q.model_dump(exclude_defaults=True, include={"variables", "sets"}) == {
        "variables": [{"name": "D", "decimals": 0}, {"name": "T", "decimals": 1}], "sets": [{"D": 1, "T": 2.5}, {"D": 3, "T": 4}]}


def test_the_listed_sets_problems_are_told_at_the_block_and_a_sets_count_at_its_attribute(tmp_path: Path) -> None:
    text = FRONT + "1. Speed {d}? {#s type=calculated}\n\n```variables\n(d, t) = (1, 2), (3, 4)\n(d) = (5)\n```\n\nAnswer: d*t\n"
    assert _reported(tmp_path, text) == [(*place(text, "```variables"), "QB201", "set 3 has no value for t")]
    text = FRONT + "1. Speed {d}? {#s type=calculated sets=abc}\n\n```variables\nd = 20..200\n```\n\nAnswer: d\n"
    assert [r[:3] for r in _reported(tmp_path, text)] == [(*place(text, "sets=abc"), "QB205")] * 2


def test_a_list_s_decimals_are_counted_as_written(tmp_path: Path) -> None:
    """``n = 2.0, 3``: one decimal, as written (the number 2.0 alone has none)."""
    body = "1. Twice {n}? {#twice type=calculated}\n\n```variables\nn = 2.0, 3\n```\n\nAnswer: 2 * n\n"
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert q.model_dump(exclude_defaults=True, include={"variables"}) == {"variables": [{"name": "n", "values": [2, 3], "decimals": 1}]}
