"""A field that takes one of two shapes (a calculated question's ``sets``: how many sets to draw,
or the sets themselves) is named as the author wrote it in its errors, never by pydantic's names
of the shapes (``'int'``, ``'list[dict[constrained-str,float]]'``), and an error inside the shape
the author wrote is not joined by "must be a whole number, not a list" from the other shape."""

from __future__ import annotations

from helpers.cli import check_source

STEM = "{type: calculated, id: %s, stem: 'What is {a} + 1?', answer: a + 1, sets: %s}"


def quiz(*questions: str) -> str:
    return "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n" + "".join(f"      - {q}\n" for q in questions)


def column_of(text: str, line: int, value: str) -> int:
    return text.splitlines()[line - 1].index(value) + 1


def test_sets_errors_name_the_field_and_point_at_the_value(tmp_path):
    source = quiz(STEM % ("word", "abc"), STEM % ("inside", "[{a: x}]"), STEM % ("pair", "[[1, 2]]"))
    code, reported = check_source(tmp_path, "sets.yaml", source)
    assert code == 1
    assert all("int" not in r.message.split("'")[1::2] and "list[" not in r.message + r.hint for r in reported), reported
    got = [(r.line, r.column, r.message) for r in reported]
    assert got == [
        (6, column_of(source, 6, "abc"), "'sets' in calculated question 'word' must be a whole number, not 'abc'"),
        (6, column_of(source, 6, "abc"), "'sets' in calculated question 'word' must be a list, not 'abc'"),
        # The list is the shape written: only the value inside it that is not a number is wrong.
        (7, column_of(source, 7, "x}"), "'a' in calculated question 'inside' must be a number, not 'x'"),
        (8, column_of(source, 8, "[1, 2]"), "entry 1 of 'sets' in calculated question 'pair' must be a mapping, not a list"),
    ]
    hints = [r.hint for r in reported]
    assert hints[0] == "write a number, such as 'sets: 2'"
    assert hints[1] == "write each entry on its own line under 'sets:', starting with '- ', such as '- {a: 2, b: 3}'"
