"""Answer keys as exam papers print them (readers/markdown/keys.py), read from small sources
written here: each entry the answer (and explanation) of the question of its number, and where the
key does not fit, the error a user reads at the entry (QB187, or the answer's own check at the
entry's place), its line and column found by searching the source's text. Each case was written
against a mutmut survivor of the module (issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.reading import line_of, place, read_body, read_hints, source_text

KEY_HINT = ("number the key as the questions are numbered (a key after a section answers that section's questions), "
            "or write the answer under its question ('정답: ②', 'Answer: B')")


def _answers(quiz) -> list[tuple[str, list[str], str | None]]:
    """Per question: its text, its right options' texts and its explanation."""
    return [(q.stem, [c.text for c in q.choices if c.correct], q.feedback.general) for q in quiz.iter_questions()]


QUESTIONS_KO = "1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n"


def test_a_key_after_the_questions_answers_them_with_its_explanations(tmp_path: Path) -> None:
    body = QUESTIONS_KO + "[정답]\n1. ②\n    4는 2로 나누어진다\n2. ①\n"
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], "4는 2로 나누어진다"), ("소수는?", ["7"], None)]


def test_a_key_s_title_before_its_entries_on_one_line(tmp_path: Path) -> None:
    quiz, told = read_body(tmp_path, QUESTIONS_KO + "정답 1.② 2.①\n", "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], None), ("소수는?", ["7"], None)]


def test_an_explanations_part_explains_each_question(tmp_path: Path) -> None:
    body = QUESTIONS_KO + "[정답]\n1. ②  2. ①\n\n해설\n1. 4는 2로 나누어진다\n2. 7은 1과 7로만 나누어진다\n  그래서 소수이다\n"
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], "4는 2로 나누어진다"),
                              ("소수는?", ["7"], "7은 1과 7로만 나누어진다  \n그래서 소수이다")]


def test_a_grid_entry_naming_no_option_is_an_error_at_its_answer(tmp_path: Path) -> None:
    """``1.②⇥2.③``: the second cell's answer is checked at its own column on the key's line."""
    body = QUESTIONS_KO + "[정답]\n1.②\t2.③\n"
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    line, column = place(text, "③")
    assert [(l, c, code) for l, c, code, _ in told] == [(line, column, "QB126")], told


def test_a_title_line_entry_naming_no_option_is_an_error_at_its_answer(tmp_path: Path) -> None:
    body = QUESTIONS_KO + "정답 1.② 2.③\n"
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    line, column = place(text, "③")
    assert [(l, c, code) for l, c, code, _ in told] == [(line, column, "QB126")], told


def test_an_entry_for_a_question_the_paper_does_not_have(tmp_path: Path) -> None:
    body = "1. Which is even?\nA) 3\nB) 4\n\n2. Which is prime?\nA) 7\nB) 8\n\nAnswer Key\n1. B\n2. A\n3. A\n"
    text = source_text(body)
    quiz, told = read_body(tmp_path, body)
    line, column = place(text, "3. A")
    assert told == [(line, column + 3, "QB187",
                     "the answer key gives an answer for question 3 ('A'), but the paper has no question 3")]


def test_a_key_that_contradicts_the_question_s_own_answer(tmp_path: Path) -> None:
    body = "1. 짝수는?\n① 3\n② 4\n정답: ②\n\n2. 소수는?\n① 7\n② 8\n\n[정답]\n1. ①\n2. ①\n"
    text = source_text(body, "ko")
    quiz, told = read_body(tmp_path, body, "ko")
    line, column = place(text, "1. ①")
    assert told == [(line, column + 3, "QB187",
                     f"question 1 gives the answer '②' on line {line_of(text, '정답: ②')}, the answer key '①'")]


def test_an_entry_two_sections_number_alike_is_an_error(tmp_path: Path) -> None:
    body = ("# A\n\n1. 짝수는?\n① 3\n② 4\n정답: ②\n\n# B\n\n1. 소수는?\n① 7\n② 8\n정답: ①\n\n"
            "# C\n\n2. 홀수는?\n① 3\n② 4\n\n[정답]\n1. ①\n2. ①\n")
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    line, column = place(text, "1. ①")
    assert told == [(line, column + 3, "QB187", "the answer key gives an answer for question 1 ('①'), but the paper "
                                                "numbers 2 questions 1, so which one it answers cannot be told")]


def test_a_key_after_a_section_answers_that_section_s_questions(tmp_path: Path) -> None:
    body = "# A\n\n1. 짝수는?\n① 3\n② 4\n\n[정답]\n1. ②\n\n# B\n\n1. 소수는?\n① 7\n② 8\n\n[정답]\n1. ①\n"
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert [(s.title, _answers_of(s)) for _, s in quiz.iter_sections()] == [("A", [["4"]]), ("B", [["7"]])]


def _answers_of(section) -> list[list[str]]:
    return [[c.text for c in q.choices if c.correct] for q in section.questions]


def test_untitled_entries_after_options_are_a_key_only_when_circled(tmp_path: Path) -> None:
    """After an answer, ``1. B 2. A`` is a key; after options it may be options or a question, and
    only circled numbers (``1.② 2.①``) make it a key."""
    answered = "1. Which is even?\nA) 3\nB) 4\nAnswer: B\n\n2. Which is prime?\nA) 7\nB) 8\nAnswer: A\n\n"
    quiz, told = read_body(tmp_path, answered + "3. Which is odd?\nA) 3\nB) 4\nAnswer: A\n\n1. B 2. A 3. A\n")
    assert told == []
    quiz, told = read_body(tmp_path, QUESTIONS_KO + "1.② 2.①\n", "ko")
    assert told == [] and _answers(quiz) == [("짝수는?", ["4"], None), ("소수는?", ["7"], None)]
    body = answered + "3. Which is odd?\nA) 3\nB) 4\n\n1. B 2. A 3. A\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    assert (line_of(text, "1. B 2. A"), 1, "QB128") in [(l, c, code) for l, c, code, _ in told], told


def test_each_key_error_says_how_to_fix_it(tmp_path: Path) -> None:
    body = "1. Which is even?\nA) 3\nB) 4\nAnswer: B\n\n2. Which is prime?\nA) 7\nB) 8\n\nAnswer Key\n1. A\n2. A\n3. A\n"
    assert read_hints(tmp_path, body) == [
        ("QB187", "keep one of the two: delete the answer under the question or the key's entry"),
        ("QB187", KEY_HINT)]


def test_entries_with_the_same_answer_are_each_told_at_their_own(tmp_path: Path) -> None:
    """``정답 1.② 2.② 3.②``: question 3 has no option ②, and the error is at the third ②, not the first."""
    body = QUESTIONS_KO + "3. 홀수는?\n① 3\n\n정답 1.② 2.② 3.②\n"
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    assert [(l, c, code) for l, c, code, _ in told] == [(*place(text, "②", text.count("②")), "QB126")], told


def test_an_answer_that_is_also_an_entry_number_is_told_at_the_answer(tmp_path: Path) -> None:
    """``1. 4  2. 2  3. 3``: each number answer is placed at itself, not at the entry's number."""
    body = "1. 2 + 2?\n\n2. 1 + 1?\n\n3. 3 + 0?\n\nAnswer Key\n1. 4  2. 2  3. 3\n"
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    key = line_of(text, "1. 4")
    assert [(l, c, code) for l, c, code, _ in told] == [(key, 4, "QB171"), (key, 10, "QB171"), (key, 16, "QB171")], told
    assert text.split("\n")[key - 1][9] == "2" and text.split("\n")[key - 1][15] == "3"


@pytest.mark.parametrize("key", ["1.③\t2.③\n", "정답 1.②\t2.③\n", "[정답]\n1. ③\t2. ③\n"],
                         ids=["grid", "title-then-grid", "grid-spaced"])
def test_grid_entries_are_each_told_at_their_own_cell(key: str, tmp_path: Path) -> None:
    body = QUESTIONS_KO + key
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    wrong = [place(text, "③", n) for n in range(1, text.count("③") + 1)]
    assert [(l, c, code) for l, c, code, _ in told if code == "QB126"] == [(*at, "QB126") for at in wrong], told


def test_a_marking_scheme_under_a_key_entry_goes_with_its_model_answer(tmp_path: Path) -> None:
    body = ("1. 짝수는?\n① 3\n② 4\n\n2. 광합성을 설명하시오.\n\n[정답]\n1. ②\n2. 모범답안: 빛으로 양분을 만든다\n"
            "채점 기준: 빛과 양분을 쓰면 정답\n")
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    one, two = quiz.iter_questions()
    assert [c.text for c in one.choices if c.correct] == ["4"]
    assert (two.type, two.model_answer) == ("essay", "빛으로 양분을 만든다\n\n**채점 기준**\n\n빛과 양분을 쓰면 정답")


def test_a_marking_scheme_under_a_choice_s_key_entry_is_told_at_its_text(tmp_path: Path) -> None:
    body = "1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n[정답]\n1. ②\n  채점 기준: 맞으면 2점\n2. ①\n"
    text = source_text(body, "ko")
    _, told = read_body(tmp_path, body, "ko")
    assert [(l, c, code) for l, c, code, _ in told] == [(*place(text, "맞으면"), "QB185")], told


BASE_EN = "1. Which force holds atoms together?\n\n2. Pick B.\nA) x\nB) y\nAnswer: B\n\n"


def test_an_untitled_key_line_of_short_words_after_an_answer(tmp_path: Path) -> None:
    """A word of up to 15 characters is an answer a key prints (``electromagnetic``); a longer one
    makes the line a question of its own."""
    text = source_text(BASE_EN + "1. electromagnetic 2. B\n")
    _, told = read_body(tmp_path, BASE_EN + "1. electromagnetic 2. B\n")
    assert (*place(text, "electromagnetic"), "QB175") in [(l, c, code) for l, c, code, _ in told], told
    text = source_text(BASE_EN + "1. electromagnetism 2. B\n")
    _, told = read_body(tmp_path, BASE_EN + "1. electromagnetism 2. B\n")
    assert (line_of(text, "1. electromagnetism"), 1, "QB128") in [(l, c, code) for l, c, code, _ in told], told
    text = source_text(BASE_EN + "1. electro magnet 2. B\n")
    _, told = read_body(tmp_path, BASE_EN + "1. electro magnet 2. B\n")
    assert (line_of(text, "1. electro magnet"), 1, "QB128") in [(l, c, code) for l, c, code, _ in told], told


@pytest.mark.parametrize("entry", ["1. ② 해설: 4는 2로 나누어진다\n", "1. ②\n해설: 4는 2로 나누어진다\n", "1. ②\n  4는 2로 나누어진다\n"],
                         ids=["on-the-entry-s-line", "labelled-under-it", "indented-under-it"])
def test_an_entry_s_explanation_reads_alike_on_its_line_or_under_it(entry: str, tmp_path: Path) -> None:
    """Students read the explanation, never its label word."""
    quiz, told = read_body(tmp_path, QUESTIONS_KO + "[정답]\n" + entry + "2. ①\n", "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], "4는 2로 나누어진다"), ("소수는?", ["7"], None)]


def test_a_question_s_own_explanation_wins_over_the_key_s(tmp_path: Path) -> None:
    body = "1. 짝수는?\n① 3\n② 4\n해설: 문제의 해설\n\n2. 소수는?\n① 7\n② 8\n\n[정답]\n1. ② 해설: 키의 해설\n2. ① 해설: 둘째\n"
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert _answers(quiz) == [("짝수는?", ["4"], "문제의 해설"), ("소수는?", ["7"], "둘째")]


def test_an_entry_for_no_question_leaves_the_others_answered(tmp_path: Path) -> None:
    body = QUESTIONS_KO + "[정답]\n5. ①\n1. ②\n2. ①\n"
    text = source_text(body, "ko")
    quiz, told = read_body(tmp_path, body, "ko")
    # The questions after it are answered (else each would be QB120, no correct answer); the second
    # is left out of the partial reading, as a question whose lines hold an error.
    assert [(l, c, code) for l, c, code, _ in told] == [(*place(text, "①", text.count("①") - 1), "QB187")], told
    assert _answers(quiz) == [("짝수는?", ["4"], None)]


@pytest.mark.parametrize("key", ["1. 1  2. 2\n", "1. 2  2. 2\n"], ids=["answers-equal-to-their-numbers", "equal-answers"])
def test_number_answers_equal_to_entry_numbers_are_told_at_the_answers(key: str, tmp_path: Path) -> None:
    body = "1. 1 + 0?\n\n2. 1 + 1?\n\nAnswer Key\n" + key
    text = source_text(body)
    _, told = read_body(tmp_path, body)
    line = line_of(text, key.strip())
    assert [(l, c, code) for l, c, code, _ in told] == [(line, 4, "QB171"), (line, 10, "QB171")], told
    assert text.split("\n")[line - 1][3] == key[3] and text.split("\n")[line - 1][9] == key[9]
