"""Exam-paper questions (readers/markdown/questions.py) read from small sources written here:
blanks named as Japanese papers print them (``（　ａ　）``) filled from the answer, a named blank's
answer given twice (which of the two is meant cannot be told: QB176), and a matching answer whose
rows cannot be read (QB177), each error's message, hint and place written out, the place found by
searching the source's text. Each case was written against a sampled mutmut survivor of the module
(issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

from helpers.reading import place, read_text


def test_blanks_named_with_letters_in_full_width_brackets(tmp_path: Path) -> None:
    text = "---\ntitle: T\nlanguage: ja\n---\n1. 水は（　ａ　）と（　ｂ　）からできている。\n\n正解: ａ 水素　ｂ 酸素\n"
    quiz, told = read_text(tmp_path, text)
    assert told == []
    (q,) = quiz.iter_questions()
    assert (q.type, q.stem) == ("fill_in_blank", "水は[[b1]]と[[b2]]からできている。")
    assert [(b.id, b.answers) for b in q.blanks] == [("b1", ["水素"]), ("b2", ["酸素"])]


def test_a_named_blank_answered_twice_is_an_error_at_the_answer(tmp_path: Path) -> None:
    """``㉠ 이성계 ㉠ 정도전`` for one blank ㉠: which one fills it cannot be told, and neither is kept."""
    text = "---\ntitle: T\nlanguage: ko\n---\n1. 조선을 세운 사람은 ( ㉠ )이다.\n\n정답: ㉠ 이성계 ㉠ 정도전\n"
    quiz, told = read_text(tmp_path, text)
    assert told == [(*place(text, "㉠ 이성계"), "QB176",
                     "the question text has blanks, but the answer '㉠ 이성계 ㉠ 정도전' does not say which blank each word fills",
                     "write the answers in the blanks, '[[answer]]', and add {type=fill_in_blank}; for blanks named ㉠, ㉡, "
                     "write '정답: ㉠ 이성계, ㉡ 정도전'")]
    assert quiz is None or not list(quiz.iter_questions())


def test_a_matching_answer_whose_rows_it_does_not_fit_is_told_at_the_answer(tmp_path: Path) -> None:
    """Two rows ``(가) … ･ ･ ㉠ …`` and an answer that pairs only one: QB177 at the answer."""
    text = ("---\ntitle: T\nlanguage: ko\n---\n1. 시인과 작품을 바르게 연결한 것은?\n(가) 김소월 ･ ･ ㉠ 진달래꽃\n"
            "(나) 윤동주 ･ ･ ㉡ 서시\n정답: (가)-㉠\n")
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "(가)-㉠"), "QB177",
                     "the answer '(가)-㉠' matches or orders items, but they cannot be read from the question",
                     "for matching write '(가) 김소월 ･ ･ ㉠ 진달래꽃' lines and '정답: (가)-㉠, (나)-㉡'; for ordering write "
                     "'(가) ...' lines and '정답: (나) → (가) → (다)'; or use {type=matching} or {type=ordering} with '- ' "
                     "lists (docs/source-format.md#exam-paper-conventions)")]


def test_an_answer_naming_a_hangul_option_the_question_lacks_is_told_by_its_own_name(tmp_path: Path) -> None:
    """``정답: 라`` under options 가 and 나: QB126 names option 라 as the answer wrote it."""
    text = "---\ntitle: T\nlanguage: ko\n---\n1. 짝수는?\n가. 3\n나. 4\n정답: 라\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "라\n"), "QB126", "the answer names option 라, which does not exist", "options are 가, 나")]


def test_a_question_with_blanks_and_no_type_is_told_to_say_fill_in_blank(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. The capital of France is [[Paris]].\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "1. The capital"), "QB128", "the question has no options and no answer",
                     "add {type=fill_in_blank} to the question line: its [[...]] are the blanks")]


def test_an_answer_in_the_options_style_naming_no_option_among_mixed_markers(tmp_path: Path) -> None:
    """Options ``A)``, ``B)`` then ``③`` (QB179) and ``Answer: C``: C is of the question's own
    style and names no option, so QB126 says it does not exist (③ is no 'C')."""
    text = "---\ntitle: T\n---\n1. Which is even?\nA) 3\nB) 5\n③ 4\nAnswer: C\n"
    _, told = read_text(tmp_path, text)
    assert told == [
        (*place(text, "③ 4"), "QB179", "option ③ is marked in another style than option A) above it: a question's "
                                       "options are marked one way", "mark every option of the question like the first, 'C) ...'"),
        (*place(text, "C\n"), "QB126", "the answer names option C, which does not exist", "options are A, B, ③")]


def test_a_matching_question_of_one_pair_is_told_at_its_line(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. Match the capital. {type=matching}\n- France -> Paris\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "1. Match"), "QB141", "a matching question needs a list of at least two 'prompt -> answer' items",
                     "add lines such as '- France -> Paris' at the left margin after the question text")]


def test_an_unreadable_number_is_quoted_to_forty_characters(tmp_path: Path) -> None:
    """An answer of 42 characters: QB139 quotes its first 39 and an ellipsis (40 in all)."""
    text = "---\ntitle: T\n---\n1. What is pi? {type=numerical}\nAnswer: three point one four one five nine two six\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "three point"), "QB139", "cannot read the number 'three point one four one five nine two …'",
                     "write 3.14, 3.14 ± 0.01, 100 ± 5%, or a range 2..4, with '.' for decimals; a unit goes in {unit=cm}")]


def test_a_numerical_question_without_an_answer_is_told_at_its_line(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. How many legs has a spider? {type=numerical}\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "1. How many"), "QB120", "the numerical question has no answer",
                     "add a line 'Answer: ...' at the left margin after the question")]


def test_a_scored_answer_s_score_is_checked_at_its_label(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. Capital of France? {type=short_answer}\nAnswer: Paris\nAnswer (150%): paris city\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "Answer (150%)"), "QB201", "'score' must be at most 100, not the number 150.0",
                     "write a number at most 100")]


def test_a_numerical_answer_s_tolerance_is_checked_at_the_answer_s_text(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. How many? {type=numerical}\nAnswer:   5 ± -1\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "5 ± -1"), "QB201", "'tolerance' must be at least 0, not the number -1.0",
                     "write a number at least 0")]
