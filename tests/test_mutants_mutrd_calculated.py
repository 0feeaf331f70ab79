"""Calculated questions' listed sets (readers/markdown/calculated.py) read from small sources
written here: a listed variable's decimals counted as written (``2.0`` has one, which the number
alone has not), and a listed-sets line that cannot be read told at its own column. Each case was
written against a sampled mutmut survivor of the module (issue 35, sixth session) and seen to fail
on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import place, read_body, source_text


def test_a_listed_variable_s_decimals_are_counted_as_written(tmp_path: Path) -> None:
    body = "1. Sum {n} and {m}? {#s type=calculated}\n\n```variables\n(n, m) = (2.0, 1), (3.0, 2)\n```\n\nAnswer: n + m\n"
    quiz, told = read_body(tmp_path, body)
    assert told == []
    (q,) = quiz.iter_questions()
    assert q.model_dump(exclude_defaults=True, include={"variables", "sets"}) == {
        "variables": [{"name": "n", "decimals": 1}, {"name": "m", "decimals": 0}],
        "sets": [{"n": 2, "m": 1}, {"n": 3, "m": 2}]}


def test_an_indented_listed_sets_line_that_cannot_be_read_is_told_at_its_column(tmp_path: Path) -> None:
    body = "1. Sum {d}? {#s type=calculated}\n\n```variables\nd = 1..9\n   (d, e) = 45, 1.5\n```\n\nAnswer: d\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert [t for t in told if t[2] == "QB218"] == [(*place(text, "(d, e)"), "QB218", "cannot read the listed sets")]
