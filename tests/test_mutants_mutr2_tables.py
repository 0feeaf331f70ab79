"""Two-column matching tables (readers/markdown/tables.py) read from small sources written here:
each item one choice question (its term the text, every definition an option, in the table's
order), and what does not fit is the error a user reads at its place (QB192 to QB195), the
message written out and the line and column found by searching the source's text. Each case was
written against a mutmut survivor of the module (issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import check_source
from helpers.reading import line_of, place, read_body, read_hints, source_text

DEFINITIONS = ["Division that makes four different cells", "Division that makes two identical cells",
               "Movement of water", "Diffusion of gas"]
TABLE = ("Part II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four different cells\n"
         "8) ____ Meiosis\tB. Division that makes two identical cells\n9) ____ Osmosis\tC. Movement of water\n"
         "\tD. Diffusion of gas\n\n")


def _items(quiz) -> list[tuple[str, float, list[str], list[str]]]:
    return [(q.stem, q.points, [c.text for c in q.choices], [c.text for c in q.choices if c.correct])
            for q in quiz.iter_questions()]


def test_each_item_is_a_choice_of_every_definition(tmp_path: Path) -> None:
    quiz, told = read_body(tmp_path, TABLE + "Answer Key\n7. B\n8. A\n9. C\n")
    assert told == []
    assert [s.title for s in quiz.sections] == ["Part II. Matching"]
    assert _items(quiz) == [("Mitosis", 2, DEFINITIONS, [DEFINITIONS[1]]), ("Meiosis", 2, DEFINITIONS, [DEFINITIONS[0]]),
                            ("Osmosis", 2, DEFINITIONS, [DEFINITIONS[2]])]


def test_lower_case_letters_after_spaces_and_answers_under_the_rows(tmp_path: Path) -> None:
    body = ("Match each organ (1 point each)\n\n1) ____ The heart      a. Filters the blood\nAnswer: b\n"
            "2) ____ The kidneys    b. Pumps the blood\n                       c. Digests food\nAnswer: (a)\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    options = ["Filters the blood", "Pumps the blood", "Digests food"]
    assert _items(quiz) == [("The heart", 1, options, ["Pumps the blood"]), ("The kidneys", 1, options, ["Filters the blood"])]


def test_an_item_without_its_letter(tmp_path: Path) -> None:
    body = TABLE + "Answer Key\n7. B\n9. C\n"
    text = source_text(body)
    quiz, told = read_body(tmp_path, body)
    assert told == [(line_of(text, "8) ____"), 1, "QB192", "item 8 of the matching table (items 7–9) has no answer: neither "
                     "the answer key nor a line under it gives its letter")]
    assert [q.stem for q in quiz.iter_questions()] == ["Mitosis", "Osmosis"]


@pytest.mark.parametrize("answer", ["E", "AB"])
def test_a_letter_no_definition_has(answer: str, tmp_path: Path) -> None:
    body = TABLE + f"Answer Key\n7. B\n8. A\n9. {answer}\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert told == [(*place(text, answer, text.count(answer)), "QB193",
                     f"the answer '{answer}' of item 9 names no definition of the matching table (items 7–9): its "
                     "definitions are lettered A, B, C, D")]


def test_a_line_of_neither_kind_inside_the_table(tmp_path: Path) -> None:
    body = TABLE.replace("8) ____", "  see the diagram below\n8) ____") + "Answer Key\n7. B\n8. A\n9. C\n"
    text = source_text(body)
    quiz, told = read_body(tmp_path, body)
    assert told == [(*place(text, "see the diagram"), "QB194",
                     "the line 'see the diagram below' is inside the matching table of items 7–9 but is neither an item "
                     "('8) ____ term⇥C. definition') nor a definition ('⇥C. definition')")]
    assert [q.stem for q in quiz.iter_questions()] == ["Meiosis", "Osmosis"]


def test_a_letter_twice(tmp_path: Path) -> None:
    body = TABLE.replace("C. Movement", "B. Movement") + "Answer Key\n7. B\n8. A\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert told == [(*place(text, "B. Movement"), "QB195",
                     f"the matching table has two definitions lettered B (lines {line_of(text, 'B. Division')} and "
                     f"{line_of(text, 'B. Movement')}), so an answer 'B' cannot be told")]


def test_each_table_error_says_how_to_fix_it(tmp_path: Path) -> None:
    assert read_hints(tmp_path, TABLE + "Answer Key\n7. B\n9. E\n") == [
        ("QB192", "add '8. B' to the answer key (or 'Answer: B' under the row), the letter of its definition"),
        ("QB193", "give the letter of item 9's definition (one of A, B, C, D), or add the missing definition to the "
                  "table's second column")]
    assert read_hints(tmp_path, TABLE, "de")[:1] == [
        ("QB192", "add '7. B' to the answer key (or 'Antwort: B' under the row), the letter of its definition")]
    body = TABLE.replace("8) ____", "  see the diagram below\n8) ____").replace("C. Movement", "B. Movement")
    assert read_hints(tmp_path, body) == [
        ("QB194", "start a definition with its letter after a tab ('⇥D. ...'); move other text above the table or below "
                  "its last row"),
        ("QB195", "give each definition its own letter, in order (A, B, C, ...)")]


def _stems_and_options(quiz) -> list[tuple[str, str, list[str], list[str]]]:
    return [(q.type, q.stem, [c.text for c in getattr(q, "choices", [])], [c.text for c in getattr(q, "choices", []) if c.correct])
            for q in quiz.iter_questions()]


def test_definitions_on_rows_of_their_own_after_a_blank_line_or_at_the_margin(tmp_path: Path) -> None:
    body = ("Match (2 pts each)\n\n7) ____ Mitosis\tA. Division\n8) ____ Meiosis\tB. Other\n\n\tC. Third\nD. Fourth\n\n"
            "Answer Key\n7. B\n8. D\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    options = ["Division", "Other", "Third", "Fourth"]
    assert _stems_and_options(quiz) == [("single_choice", "Mitosis", options, ["Other"]),
                                        ("single_choice", "Meiosis", options, ["Fourth"])]


def test_a_table_after_a_question_and_before_a_statement(tmp_path: Path) -> None:
    """The table is its rows only: the question before it, and a statement of more than eight
    words after it (a blank to fill in, not a term), are questions of their own."""
    body = ("1. Normal?\nA) x\nB) y\nAnswer: A\n\n2) ____ Mitosis\tA. Division\n3) ____ Meiosis\tB. Other\n"
            "4) ____ is the name of the process that makes two identical cells\nAnswer: mitosis\n\nAnswer Key\n2. B\n3. A\n")
    quiz, told = read_body(tmp_path, body)
    assert told == []
    assert _stems_and_options(quiz) == [
        ("single_choice", "Normal?", ["x", "y"], ["x"]), ("single_choice", "Mitosis", ["Division", "Other"], ["Other"]),
        ("single_choice", "Meiosis", ["Division", "Other"], ["Division"]),
        ("fill_in_blank", "[[b1]] is the name of the process that makes two identical cells", [], [])]


def test_a_term_of_eight_words_is_a_row_and_of_nine_a_statement(tmp_path: Path) -> None:
    rows = "Match (2 pts each)\n\n7) ____ Mitosis\tA. Division\n8) ____ {words}\n\tB. Other\n\nAnswer Key\n7. B\n8. A\n"
    quiz, told = read_body(tmp_path, rows.format(words="one two three four five six seven eight"))
    assert told == []
    assert [q.stem for q in quiz.iter_questions()] == ["Mitosis", "one two three four five six seven eight"]
    body = rows.format(words="one two three four five six seven eight nine")
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert (line_of(text, "7) ____"), 1, "QB156") in [(l, c, code) for l, c, code, _ in told], told


def test_one_row_alone_or_rows_without_definitions_are_no_table(tmp_path: Path) -> None:
    body = "1. Normal?\nA) x\nB) y\nAnswer: A\n\n2) ____ Mitosis\tA. Division\nAnswer: A\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert [(l, c, code) for l, c, code, _ in told] == [(line_of(text, "2) ____"), 1, "QB156")]
    quiz, told = read_body(tmp_path, "Fill in\n\n1) ____ Mitosis\nAnswer: A\n2) ____ Meiosis\nAnswer: B\n")
    assert told == []
    assert [(q.type, q.stem) for q in quiz.iter_questions()] == [("fill_in_blank", "[[b1]] Mitosis"),
                                                                  ("fill_in_blank", "[[b1]] Meiosis")]


def test_a_long_line_of_neither_kind_is_quoted_to_forty_characters_and_the_definitions_after_it_read(tmp_path: Path) -> None:
    body = ("Match (2 pts each)\n\n7) ____ Mitosis\tA. Division\n  this line is a very long remark that runs past forty "
            "characters\n\tC. Third\n8) ____ Meiosis\tB. Other\n\nAnswer Key\n7. B\n8. C\n")
    text = source_text(body)
    quiz, told = read_body(tmp_path, body)
    assert told == [(*place(text, "this line"), "QB194", "the line 'this line is a very long remark that run' is inside "
                     "the matching table of items 7–8 but is neither an item ('8) ____ term⇥C. definition') nor a "
                     "definition ('⇥C. definition')")]
    assert _stems_and_options(quiz) == [("single_choice", "Meiosis", ["Division", "Third", "Other"], ["Third"])]


def test_pictures_in_a_table_are_told_where_they_are(tmp_path: Path) -> None:
    """Each term's and definition's text keeps its place in the source: a missing picture in it is
    an error at the picture's own line and column."""
    text = ("---\ntitle: T\n---\nMatch (2 pts each)\n\n7) ____ Mitosis ![x](missing.png)\tA. Division\n"
            "8) ____ Meiosis\tB. Other ![y](nope.png)\n\tC. Third ![z](gone.png)\nD. Fourth ![w](lost.png)\n\n"
            "Answer Key\n7. B\n8. A\n")
    code, reported = check_source(tmp_path, "p.md", text)
    assert code == 1
    assert [(r.line, r.column, r.code) for r in reported] == [
        (*place(text, name), "QB160") for name in ("missing.png", "nope.png", "gone.png", "lost.png")]
