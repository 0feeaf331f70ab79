"""Exam-paper conventions in the Markdown reader (issue 18), one case at a time: the way course
designers write quizzes in their own language is read as meant, or is an error at its place that
says how to write it. Nothing that looks like structure ends up in a block's text.

The intended reading is checked on the model, and where an output must change (O/X choices,
option numbering, shared passages, marking schemes) in all three built targets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import read_written
from helpers.cli import check_source, run
from helpers.outputs import build_all
from lxml import html

from qti_builder import vocabulary as V
from qti_builder.readers.markdown import syntax as S

FM = "---\ntitle: T\n---\n"
KO = "---\ntitle: T\nlanguage: ko\n---\n"


def questions(tmp_path: Path, text: str, name: str = "q.md") -> list[Any]:
    return list(read_written(tmp_path, name, text).iter_questions())


def errors(tmp_path: Path, text: str, name: str = "q.md") -> tuple[int, list[tuple[int, int, str, str, str]]]:
    code, reported = check_source(tmp_path, name, text)
    return code, [(r.line, r.column, r.severity, r.code, r.hint) for r in reported]


# -- the rule above all: a block ends where structure starts -----------------------------------------

#: Lines that start something new after an answer and an explanation; each must end the
#: explanation, and the line after it must be read as what it is.
STRUCTURE = [
    ("2. Next question?", "question"),
    ("2) Next question?", "question"),
    ("2． 다음 문제?", "question"),
    ("문제 2. 다음 문제?", "question"),
    ("[문제 2] 다음 문제?", "question"),
    ("2번 다음 문제?", "question"),
    ("問2 次の問題?", "question"),
    ("Question 2. Next?", "question"),
    ("Q2. Next?", "question"),
    ("第2题 下一题?", "question"),
    ("Ⅱ. 단답형", "section"),
    ("II. Short answer", "section"),
    ("I. Part one", "section"),
    ("[객관식]", "section"),
    ("■ 서술형", "section"),
    ("# Part two", "section"),
    ("[2~3] 다음 글을 읽고 물음에 답하시오.", "passage"),
    ("Questions 2-3 refer to the following passage.", "passage"),
    ("※ 다음 물음에 답하시오.", "note"),
]


@pytest.mark.parametrize("line, what", STRUCTURE, ids=[s[0] for s in STRUCTURE])
def test_an_explanation_ends_where_structure_starts(tmp_path: Path, line: str, what: str) -> None:
    after = {"question": "", "section": "2. Next question?\n", "passage": "\nA passage.\n\n2. Next?\n정답: O\n\n3. Last?\n",
             "note": "2. Next?\n"}[what]
    text = KO + f"1. First?\n① a\n② b\n정답: ②\n해설: Because.\n{line}\n{after}정답: O\n"
    first, second, *rest = questions(tmp_path, text)
    assert first.feedback.general == "Because."
    assert [c.correct for c in first.choices] == [False, True]
    assert second.type == "true_false" and second.answer is True
    if what == "passage":
        assert second.passage.startswith(line) and rest[0].passage == second.passage
    if what == "note":
        assert second.passage == line


def test_an_answer_never_takes_the_next_question_in(tmp_path: Path) -> None:
    # The issue's 한국사 exam: question 2's model answer swallowed questions 3-6.
    text = KO + ("1. 다음 중 옳은 것은?\n① 가 ② 나 ③ 다 ④ 라\n정답: ②\n"
                 "2. 훈민정음을 만든 왕의 업적을 서술하시오.\n모범답안: 집현전을 설치하였다.\n"
                 "3. 고려의 수도는?\n① 개경 ② 한양\n정답: ①\n")
    one, two, three = questions(tmp_path, text)
    assert (one.type, [c.correct for c in one.choices]) == ("single_choice", [False, True, False, False])
    assert (two.type, two.model_answer) == ("essay", "집현전을 설치하였다.")
    assert three.type == "single_choice"


def test_options_after_the_answer_are_an_error_not_its_text(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Which one?\n\nA) x\nB) y\n\nAnswer: A\nExplanation: see.\nC) z\n")
    assert code == 1 and [f[:4] for f in found] == [(11, 1, "error", "QB134")]
    assert "indent it" in found[0][4]


def test_an_explanation_may_discuss_the_options_by_their_markers(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 옳은 것은?\n① 가 ② 나\n정답: ①\n해설: 다음과 같다.\n① 맞다.\n② 틀리다.\n")
    assert q.feedback.general == "다음과 같다.  \n① 맞다.  \n② 틀리다."


# -- option markers -----------------------------------------------------------------------------------

#: Options as people write them -> the numbering style, and an answer naming the second option.
MARKERS = [
    ("A) x\nB) y", "Answer: B", None),
    ("A. x\nB. y", "Answer: B", None),
    ("(A) x\n(B) y", "Answer: B", None),
    ("A)x\nB)y", "Answer:B", None),
    ("- A) x\n- B) y", "Answer: B", None),
    ("a) x\nb) y", "Answer: b", "lower-alpha"),
    ("Ａ） x\nＢ） y", "Answer: B", None),
    ("（Ａ）x\n（Ｂ）y", "Answer: B", None),
    ("Ａ．x\nＢ．y", "Answer: B", None),
    ("① x\n② y", "정답: ②", "circled-decimal"),
    ("①x\n②y", "정답: ②", "circled-decimal"),
    ("① x ② y ③ z", "정답: ②", "circled-decimal"),
    ("①x②y③z", "정답: 2번", "circled-decimal"),
    ("가) x\n나) y", "정답: 나", "hangul"),
    ("가. x\n나. y", "정답: 나)", "hangul"),
    ("ㄱ. x\nㄴ. y", "정답: ㄴ", "hangul-consonant"),
    ("(1) x\n(2) y", "정답: (2)", "parenthesized-decimal"),
    ("1) x\n2) y", "정답: 2", "decimal"),
    ("ア) x\nイ) y", "正解: イ", "katakana"),
    ("(ア) x\n(イ) y", "正解: イ", "katakana"),
    ("ア、x\nイ、y", "正解: イ", "katakana"),
    # The iroha order, as older Japanese papers number options: イ is its first, not katakana's second.
    ("イ) x\nロ) y\nハ) z", "正解: ロ", "iroha"),
    ("(イ) x\n(ロ) y", "正解: ロ", "iroha"),
    ("A、x\nB、y", "正解: B", None),
    # Lower-case Roman numerals: i is their first, not the ninth letter.
    ("i) x\nii) y\niii) z", "Answer: ii", "lower-roman"),
    ("(i) x\n(ii) y", "Answer: (ii)", "lower-roman"),
    ("i. x\nii. y", "Answer: ii", "lower-roman"),
    # Several options on one line, each the next in order and marked as the first, as papers
    # print short options: every style, not only circled numbers.
    ("A) x  B) y  C) z", "Answer: B", None),
    ("(A) x (B) y", "Answer: B", None),
    ("a. x b. y", "Answer: b", "lower-alpha"),
    ("Ａ）x　Ｂ）y", "Answer: B", None),
    ("가) x 나) y 다) z", "정답: 나", "hangul"),
    ("ㄱ. x ㄴ. y", "정답: ㄴ", "hangul-consonant"),
    ("(1) x (2) y", "정답: (2)", "parenthesized-decimal"),
    ("1) x 2) y", "정답: 2", "decimal"),
    ("ア. x　イ. y　ウ. z　エ. w", "正解: イ", "katakana"),
    ("イ）x　ロ）y　ハ）z", "正解: ロ", "iroha"),
    ("i) x ii) y iii) z", "Answer: ii", "lower-roman"),
]


@pytest.mark.parametrize("options, answer, numbering", MARKERS, ids=[m[0].split("\n")[0] for m in MARKERS])
def test_option_markers_as_people_write_them(tmp_path: Path, options: str, answer: str, numbering: str | None) -> None:
    front = "---\ntitle: T\nlanguage: ja\n---\n" if "正解" in answer else KO
    (q,) = questions(tmp_path, front + f"1. Which one?\n{options}\n{answer}\n")
    assert q.type == "single_choice"
    assert [(c.id, c.correct) for c in q.choices][:2] == [("A", False), ("B", True)]
    assert q.numbering == numbering
    assert [c.text for c in q.choices][:2] == ["x", "y"]


def test_an_answer_names_several_options_by_their_markers(tmp_path: Path) -> None:
    for answer in ("②, ④", "②④", "② ④", "2, 4", "②/④"):
        (q,) = questions(tmp_path, KO + f"1. 모두 고르면?\n① a ② b ③ c ④ d\n정답: {answer}\n")
        assert q.type == "multiple_response" and [c.id for c in q.choices if c.correct] == ["B", "D"], answer


def test_an_option_named_twice_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Which?\n\nA) x\nB) y\n\nAnswer: A, B, B\n")
    assert code == 1 and [f[:4] for f in found] == [(9, 9, "error", "QB182")]
    assert "'Answer: A, B'" in found[0][4]


def test_an_answer_in_another_style_than_the_options(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 옳은 것은?\n\nA) x\nB) y\nC) z\n\n정답: ③\n")
    assert code == 1 and [f[:4] for f in found] == [(11, 5, "error", "QB126")]
    assert "'정답: C'" in found[0][4]


def test_options_of_two_styles_are_one_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Which?\n\nA) x\n② y\nC) z\n\nAnswer: A\n")
    assert code == 1 and [f[:4] for f in found] == [(7, 1, "error", "QB179")]


def test_markers_two_styles_share_are_read_in_the_questions_style(tmp_path: Path) -> None:
    """i, v and x are letters and Roman numerals; イ, ト and チ are in the katakana and the iroha
    order. The question's first option decides, and its later options and its answer follow it."""
    roman = "\n".join(f"{n}) {n}번째" for n in ("i", "ii", "iii", "iv", "v", "vi"))
    (q,) = questions(tmp_path, KO + f"1. 다섯 번째는?\n{roman}\n정답: v\n")
    assert q.numbering == "lower-roman" and len(q.choices) == 6 and [c.text for c in q.choices if c.correct] == ["v번째"]
    (q,) = questions(tmp_path, KO + f"1. 첫 번째는?\n{roman}\n정답: i\n")
    assert [c.id for c in q.choices if c.correct] == ["A"]
    iroha = "\n".join(f"{m}) {n}" for n, m in enumerate("イロハニホヘトチ", 1))
    (q,) = questions(tmp_path, "---\ntitle: T\nlanguage: ja\n---\n" + f"1. 七番目は?\n{iroha}\n正解: ト\n")
    assert q.numbering == "iroha" and len(q.choices) == 8 and [c.text for c in q.choices if c.correct] == ["7"]
    # A lettered question keeps its ninth letter.
    letters = "\n".join(f"{c}) {c}" for c in "abcdefghi")
    (q,) = questions(tmp_path, FM + f"1. Which?\n{letters}\nAnswer: i\n")
    assert q.numbering == "lower-alpha" and [c.id for c in q.choices if c.correct] == ["I"]


def test_a_marker_out_of_order_on_an_options_line_is_its_text(tmp_path: Path) -> None:
    """Only the next marker in order, marked as the line's first and after a space, starts another
    option: what an option says about the others stays its text."""
    (q,) = questions(tmp_path, FM + "1. Which?\nA) 2\nB) 3\nC) Both A) and B)\nD) x B.y\nAnswer: C\n")
    assert [c.text for c in q.choices] == ["2", "3", "Both A) and B)", "x B.y"]
    (q,) = questions(tmp_path, FM + "1. Which?\nA) x (B) y\nB) z\nAnswer: B\n")
    assert [c.text for c in q.choices] == ["x (B) y", "z"]


def test_a_markdown_question_with_one_option_says_how_to_write_options(tmp_path: Path) -> None:
    """The hint speaks the source's syntax: option lines, not YAML's 'choices:'."""
    code, found = errors(tmp_path, FM + "1. Pick one.\nA) only one\nAnswer: A\n")
    assert code == 1 and [f[:4] for f in found] == [(4, 1, "error", "QB201")]
    assert "'A) Paris', 'B) Lyon'" in found[0][4] and "choices:" not in found[0][4]


def test_statements_on_one_line_before_circled_options_stay_in_the_question(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 옳은 것을 모두 고르면?\nㄱ. 물은 끓는다. ㄴ. 얼음은 뜬다.\n① ㄱ ② ㄴ ③ ㄱ, ㄴ\n정답: ③\n")
    assert q.stem == "옳은 것을 모두 고르면?  \nㄱ. 물은 끓는다. ㄴ. 얼음은 뜬다."
    assert [c.text for c in q.choices] == ["ㄱ", "ㄴ", "ㄱ, ㄴ"] and q.choices[2].correct


def test_roman_statements_before_lettered_options_stay_in_the_question(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, FM + "1. Which are true?\ni. Water boils.\nii. Ice floats.\nA) i only\nB) i and ii\nAnswer: B\n")
    assert q.stem == "Which are true?  \ni. Water boils.  \nii. Ice floats."
    assert [c.text for c in q.choices] == ["i only", "i and ii"] and q.choices[1].correct


def test_moodle_numbers_roman_and_iroha_options(tmp_path: Path) -> None:
    source = tmp_path / "r.md"
    source.write_text("---\ntitle: T\nlanguage: ja\n---\n1. A?\ni) x\nii) y\n正解: ii\n\n2. B?\nイ) x\nロ) y\n正解: イ\n",
                      encoding="utf-8")
    built = build_all(tmp_path, source)
    roman, iroha = (q.id for q in built.quiz.iter_questions())
    assert built.moodle_question(roman).findtext("answernumbering") == "iii"  # Moodle's i, ii, iii
    assert built.moodle_question(iroha).findtext("answernumbering") == "123"  # Moodle has no kana numbering
    assert built.moodle_answers(roman) == {"x": "0", "y": "100"} and built.moodle_answers(iroha) == {"x": "100", "y": "0"}


@pytest.mark.parametrize("answer, right", [("정답 - ②", ["B"]), ("정답 – ①, ③", ["A", "C"]), ("Answer - ②", ["B"]),
                                           ("해설 - 설명.\n정답 - ②", ["B"])])
def test_a_label_with_a_dash_for_its_colon(tmp_path: Path, answer: str, right: list[str]) -> None:
    (q,) = questions(tmp_path, KO + f"1. 옳은 것은?\n① a\n② b\n③ c\n{answer}\n")
    assert [c.id for c in q.choices if c.correct] == right
    if "해설" in answer:
        assert q.feedback.general == "설명."


def test_a_dash_after_a_word_that_is_no_label_is_text(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 옳은 것은?\n① a - 하나\n② b\n정답: ①\n해설: 첫째 - 맞다.\n")
    assert q.choices[0].text == "a - 하나" and q.feedback.general == "첫째 - 맞다."


@pytest.mark.parametrize("form", ["．", "、", "）"])
def test_full_width_question_numbers(tmp_path: Path, form: str) -> None:
    one, two = questions(tmp_path, KO + f"１{form}첫째 문제는?\n① 가\n② 나\n정답: ②\n２{form} 둘째 문제는?\n① 다\n② 라\n정답: ①\n")
    assert (one.stem, two.stem) == ("첫째 문제는?", "둘째 문제는?")
    assert [c.correct for c in one.choices] == [False, True] and [c.correct for c in two.choices] == [True, False]


def test_full_width_bracket_numbers_are_questions_not_options(tmp_path: Path) -> None:
    # Under a quiz numbered 1） (a bracket), the next 2） is the next question, as under 1).
    one, two = questions(tmp_path, KO + "1） 첫째는?\n정답: O\n2） 둘째는?\n정답: X\n")
    assert (one.answer, two.answer) == (True, False)


@pytest.mark.parametrize("options, marker", [("A: x\nB: y", "A:"), ("A - x\nB - y", "A"), ("[A] x\n[B] y", "[A]"),
                                              ("❶ x\n❷ y", "❶"), ("⑴ x\n⑵ y", "⑴")])
def test_a_marker_the_dialect_does_not_take_is_one_error(tmp_path: Path, options: str, marker: str) -> None:
    answer = {"❶": "❷", "⑴": "⑵"}.get(marker, "B")
    code, found = errors(tmp_path, FM + f"1. Which?\n\n{options}\n\nAnswer: {answer}\n")
    assert code == 1 and [f[:4] for f in found] == [(6, 1, "error", "QB180")], found  # no cascade
    assert "'A) text'" in found[0][4] and "'① text'" in found[0][4]


def test_statements_before_other_options_stay_in_the_question(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 옳은 것은?\nㄱ. 하나\nㄴ. 둘\n① ㄱ ② ㄴ ③ ㄱ, ㄴ\n정답: ③\n")
    assert q.stem == "옳은 것은?  \nㄱ. 하나  \nㄴ. 둘"
    assert [c.text for c in q.choices] == ["ㄱ", "ㄴ", "ㄱ, ㄴ"] and q.choices[2].correct


def test_a_box_keeps_its_lines(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. <보기>에서 옳은 것은?\n<보기>\nㄱ. 하나\nㄴ. 둘\n① ㄱ ② ㄴ\n정답: ①\n")
    assert q.stem == "<보기>에서 옳은 것은?  \n<보기>  \nㄱ. 하나  \nㄴ. 둘"


def test_sub_questions_of_an_essay_are_its_text(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 다음 물음에 답하시오.\n(1) 원인은?\n(2) 결과는?\n모범답안: (1) 가뭄\n(2) 흉년\n")
    assert q.type == "essay"
    assert q.stem == "다음 물음에 답하시오.  \n(1) 원인은?  \n(2) 결과는?"
    assert q.model_answer == "(1) 가뭄  \n(2) 흉년"


# -- Moodle numbers the options the way the source did ----------------------------------------------


def test_moodle_numbers_options_as_the_source(tmp_path: Path) -> None:
    source = tmp_path / "n.md"
    source.write_text(KO + "1. A?\nA) x\nB) y\n정답: A\n\n2. B?\na) x\nb) y\n정답: a\n\n3. C?\n① x ② y\n정답: ①\n\n"
                           "4. D?\n가) x\n나) y\n정답: 가\n\n5. E?\n(1) x\n(2) y\n정답: (1)\n", encoding="utf-8")
    built = build_all(tmp_path, source)
    ids = [q.id for q in built.quiz.iter_questions()]
    assert [built.moodle_question(i).findtext("answernumbering") for i in ids] == ["ABCD", "abc", "123", "123", "123"]
    # QTI 2.1 and Canvas have no numbering to set: the options keep their text, in their order.
    for question_id in ids:
        assert list(built.qti_choices(question_id)) == ["x", "y"]
        labels = [label.findtext("material/mattext") for label in built.canvas_item(question_id).iter("response_label")]
        assert labels == ["x", "y"]


# -- labels in the quiz's language --------------------------------------------------------------------

#: language, answer label, explanation label: every language the issue names.
LABELS = [
    ("en", "Answer", "Explanation"),
    ("en", "Ans", "Explanation"),
    ("ko", "정답", "해설"),
    ("ko", "답", "풀이"),
    ("ko", "[정답]", "[해설]"),
    ("ja", "正解", "解説"),
    ("zh", "答案", "解析"),
    ("de", "Antwort", "Erklärung"),
    ("de", "Lösung", "Erläuterung"),
    ("fr", "Réponse", "Explication"),
    ("es", "Respuesta", "Explicación"),
    ("pt", "Resposta", "Explicação"),
    ("pt", "Gabarito", "Resolução"),
    ("it", "Risposta", "Spiegazione"),
]


@pytest.mark.parametrize("colon", [": ", "：", ":", "： "])
@pytest.mark.parametrize("language, answer, explanation", LABELS, ids=[f"{l[0]}-{l[1]}" for l in LABELS])
def test_labels_in_the_quiz_language(tmp_path: Path, language: str, answer: str, explanation: str, colon: str) -> None:
    mark = " " if answer.startswith("[") else colon
    text = f"---\ntitle: T\nlanguage: {language}\n---\n1. Which?\n\nA) x\nB) y\n\n{answer}{mark}B\n{explanation}{mark}Why.\n"
    (q,) = questions(tmp_path, text)
    assert [c.correct for c in q.choices] == [False, True]
    assert q.feedback.general == "Why."


def test_english_labels_work_in_every_language(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, "---\ntitle: T\nlanguage: de\n---\n1. Which?\n\nA) x\nB) y\n\nAnswer: B\n")
    assert q.choices[1].correct


def test_korean_model_answer_labels(tmp_path: Path) -> None:
    for label in ("모범답안", "모범 답안", "예시 답안", "[모범답안]"):
        (q,) = questions(tmp_path, KO + f"1. 서술하시오.\n{label}{' ' if label[0] == '[' else ': '}조선은 1392년에 건국되었다.\n")
        assert (q.type, q.model_answer) == ("essay", "조선은 1392년에 건국되었다."), label


def test_another_languages_label_says_which_language(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Which?\n\nA) x\nB) y\n\n正解: B\n")
    assert code == 1 and [f[:4] for f in found] == [(9, 1, "error", "QB181")]
    assert "language: ja" in found[0][4]


# -- true/false words and O/X -------------------------------------------------------------------------

TRUTH = [
    ("en", "true", True), ("en", "False.", False), ("en", "Yes", True), ("en", "No", False),
    ("ko", "참", True), ("ko", "거짓", False), ("ko", "맞다", True), ("ko", "틀리다", False), ("ko", "O", True), ("ko", "X", False),
    ("ja", "正", True), ("ja", "誤", False), ("ja", "○", True), ("ja", "×", False),
    ("zh", "对", True), ("zh", "错", False), ("de", "Richtig", True), ("de", "Falsch", False),
    ("fr", "Vrai", True), ("fr", "Faux", False), ("es", "Verdadero", True), ("es", "Falso", False),
    ("pt", "Verdadeiro", True), ("pt", "Falso", False), ("it", "Vero", True), ("it", "Falso", False),
]


@pytest.mark.parametrize("language, word, truth", TRUTH, ids=[f"{t[0]}-{t[1]}" for t in TRUTH])
def test_true_false_words_per_language(tmp_path: Path, language: str, word: str, truth: bool) -> None:
    (q,) = questions(tmp_path, f"---\ntitle: T\nlanguage: {language}\n---\n1. Is it so?\n\nAnswer: {word}\n")
    assert (q.type, q.answer) == ("true_false", truth)
    marks = {"O": ["O", "X"], "X": ["O", "X"], "○": ["○", "×"], "×": ["○", "×"]}
    assert q.labels == marks.get(word)


def test_another_languages_true_false_word_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Is it so?\n\nAnswer: Richtig\n")
    assert code == 1 and [f[:4] for f in found] == [(6, 9, "error", "QB172")]


def test_ox_choices_in_all_three_outputs(tmp_path: Path) -> None:
    source = tmp_path / "ox.md"
    source.write_text(KO + "1. 지구는 둥글다. ( O / X )\n정답: O\n\n2. 해는 서쪽에서 뜬다. (○, ×)\n정답: ×\n\n"
                           "3. 물은 0도에서 언다. (    )\n정답: 참\n", encoding="utf-8")
    built = build_all(tmp_path, source)
    one, two, three = built.quiz.iter_questions()
    assert (one.stem, two.stem, three.stem) == ("지구는 둥글다.", "해는 서쪽에서 뜬다.", "물은 0도에서 언다.")
    for question, marks, right in ((one, ["O", "X"], "O"), (two, ["○", "×"], "×"), (three, ["참", "거짓"], "참")):
        assert list(built.qti_choices(question.id)) == marks
        assert built.qti_item(question.id).find(".//{%s}value" % "http://www.imsglobal.org/xsd/imsqti_v2p1").text \
            == built.qti_choices(question.id)[right]
        assert built.canvas_correct(question.id) == [right]
        moodle = built.moodle_question(question.id)
        if question.labels:  # O/X: Moodle's true/false would show its own words
            assert moodle.get("type") == "multichoice" and built.moodle_answers(question.id)[right] == "100"
            assert list(built.moodle_answers(question.id)) == marks
        else:
            assert moodle.get("type") == "truefalse" and built.moodle_answers(question.id) == {"true": "100", "false": "0"}


# -- short answers: several on one line ------------------------------------------------------------

ACCEPTED = [
    ("서울, 서울특별시", ["서울", "서울특별시"]),
    ("서울 / 서울특별시", ["서울", "서울특별시"]),
    ("서울/서울특별시", ["서울", "서울특별시"]),
    ("서울 또는 서울특별시", ["서울", "서울특별시"]),
    ("Seoul or Seoul City", ["Seoul", "Seoul City"]),
    ("서울、서울특별시", ["서울", "서울특별시"]),
    ("Hello\\, world", ["Hello, world"]),
    ('"Hello, world", hi', ["Hello, world", "hi"]),
    ("1,000", ["1,000"]),
    ("km/h", ["km/h"]),
]


@pytest.mark.parametrize("line, answers", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_several_accepted_answers_on_one_line(tmp_path: Path, line: str, answers: list[str]) -> None:
    (q,) = questions(tmp_path, KO + f"1. 한국의 수도는? {{type=short_answer}}\n정답: {line}\n")
    assert [a.text for a in q.answers] == answers


@pytest.mark.parametrize("language, line", [("de", "Berlin oder Bonn"), ("fr", "Paris ou Lyon"), ("es", "Madrid o Sevilla"),
                                            ("pt", "Lisboa ou Porto"), ("it", "Roma oppure Milano"), ("ja", "東京または京都"),
                                            ("zh", "北京或上海")])
def test_or_words_per_language(tmp_path: Path, language: str, line: str) -> None:
    (q,) = questions(tmp_path, f"---\ntitle: T\nlanguage: {language}\n---\n1. Q? {{type=short_answer}}\n\nAnswer: {line}\n")
    if language in ("ja", "zh"):  # no spaces around the word: one answer, as written
        assert [a.text for a in q.answers] == [line]
    else:
        assert len(q.answers) == 2


def test_attributes_in_an_answer_are_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Which function? {#f type=short_answer}\n\nAnswer: int()\nAnswer: int {score=50}\n")
    assert code == 1 and [f[:4] for f in found] == [(7, 13, "error", "QB183")]
    assert "'Answer (50%): int'" in found[0][4]


# -- a question without a type whose answer is a word ------------------------------------------------


def test_a_word_answer_without_a_type_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 한국의 수도는?\n정답: 서울\n")
    assert code == 1 and [f[:4] for f in found] == [(6, 5, "error", "QB175")]
    assert "{type=short_answer}" in found[0][4] and "{type=essay}" in found[0][4]


def test_in_a_short_answer_section_a_word_is_a_short_answer(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "Ⅱ. 단답형\n\n1. 한국의 수도는?\n정답: 서울, 서울특별시\n")
    assert q.type == "short_answer" and [a.text for a in q.answers] == ["서울", "서울특별시"]
    (q,) = questions(tmp_path, FM + "# Short answer\n\n1. Capital of Korea?\n\nAnswer: Seoul\n")
    assert q.type == "short_answer"


def test_a_sentence_is_a_model_answer(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 설명하시오.\n정답: 조선은 한양으로 천도하였다.\n")
    assert q.type == "essay"


def test_options_indented_under_the_question_are_its_options(tmp_path: Path) -> None:
    """Options indented as a pasted list indents them, ending the question's text, are its
    options (they were once an error, QB173, asking to move them to the margin)."""
    (q,) = questions(tmp_path, KO + "1. 옳은 것은?\n   ① 가\n   ② 나\n정답: ②\n")
    assert (q.type, [c.text for c in q.choices], [c.correct for c in q.choices]) == ("single_choice", ["가", "나"], [False, True])


def test_an_option_marker_answering_a_question_without_options_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 옳은 것은?\n정답: ②\n")
    assert code == 1 and [f[3] for f in found] == ["QB173"]


# -- question numbers as exams print them -----------------------------------------------------------


@pytest.mark.parametrize("line", ["1. Q?", "1) Q?", "1． Q?", "1．Q?", "1） Q?", "1、Q?", "문제 1. Q?", "문제1) Q?", "문 1. Q?", "문1) Q?", "[문제 1] Q?",
                                  "【문제 1】 Q?", "1번 Q?", "1번. Q?", "問1 Q?", "問 1. Q?", "Question 1. Q?", "Question 1: Q?",
                                  "Q1. Q?", "Q1) Q?", "第1题 Q?", "Frage 1: Q?", "Pregunta 1. Q?", "Questão 1. Q?", "Domanda 1. Q?"])
def test_question_numbers_as_exams_print_them(tmp_path: Path, line: str) -> None:
    (q,) = questions(tmp_path, KO + f"{line}\n정답: O\n")
    assert (q.stem, q.type) == ("Q?", "true_false")


@pytest.mark.parametrize("line, kind", [("[서술형 1] Q?", "essay"), ("서술형 2. Q?", "essay"), ("[논술형 1] Q?", "essay"),
                                        ("[단답형 1] Q?", "short_answer"), ("단답형 3) Q?", "short_answer")])
def test_a_question_numbered_within_its_type_is_of_that_type(tmp_path: Path, line: str, kind: str) -> None:
    """Korean papers number essays and short answers apart: '[서술형 1]' after objective questions 1-20."""
    one, two = questions(tmp_path, KO + f"1. 물의 끓는점은?\n① 0℃ ② 100℃\n정답: ②\n\n{line}\n정답: 광합성\n")
    assert (one.type, two.type, two.stem) == ("single_choice", kind, "Q?")


def test_a_section_marker_read_as_a_question_is_quoted_as_written(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 물?\n① 0 ② 100\n정답: ②\n\n[객관식] 다음 중 옳은 것은?\n정답: 참\n")
    assert code == 1 and [f[:4] for f in found] == [(9, 2, "error", "QB146")]
    # The hint in the paper's language (the Korean catalog), quoting the line as the paper wrote it.
    assert found[0][4] == "문항을 번호를 붙인 줄로 쓰세요: '2. 객관식 다음 중 옳은 것은?'"


def test_a_sentence_that_starts_with_a_question_word_is_text(tmp_path: Path) -> None:
    """'문' (door) before a counted number is a sentence, not question 3."""
    (q,) = questions(tmp_path, KO + "1. 다음 글을 읽으시오.\n문 3개가 열려 있다. 열린 문은 몇 개인가?\n① 2개\n② 3개\n정답: ②\n")
    assert q.stem.endswith("문 3개가 열려 있다. 열린 문은 몇 개인가?") and len(q.choices) == 2


@pytest.mark.parametrize("title", ["[정답]", "<정답>", "정답 및 해설", "## Answer key", "【正解】"])
def test_an_answer_key_at_the_end_of_a_source_answers_its_questions(tmp_path: Path, title: str) -> None:
    """Its entries are never read as questions ('1. ②' would be a question whose text is ②): each
    is the answer of the question of its number, as if written under it."""
    text = KO + "1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n2. 얼음은 물에 뜬다.\n\n" + title + "\n1. ②  2. O\n"
    one, two = questions(tmp_path, text)
    assert (one.type, [c.text for c in one.choices if c.correct]) == ("single_choice", ["100℃"])
    assert (two.type, two.answer) == ("true_false", True)


@pytest.mark.parametrize("key, line, column", [("[정답]\n1. ②  3. O\n", 13, 10), ("정답 1.② 2.X 3.①\n", 12, 14)])
def test_an_answer_key_that_does_not_fit_is_an_error_at_its_entry(tmp_path: Path, key: str, line: int, column: int) -> None:
    text = KO + "1. 물의 끓는점은?\n① 0℃\n② 100℃\n정답: ②\n\n2. 얼음은 물에 뜬다.\n\n" + key
    code, found = errors(tmp_path, text)
    assert code == 1 and [f[:4] for f in found if f[3] == "QB187"] == [(line, column, "error", "QB187")], found


def test_a_section_titled_answers_with_questions_is_no_key(tmp_path: Path) -> None:
    (one, two) = questions(tmp_path, FM + "1. Pick B.\nA) x\nB) y\nAnswer: B\n\n## Answers\n\n1. What is 2 + 2? {type=numerical}\nAnswer: 4\n")
    assert (one.type, two.type) == ("single_choice", "numerical")


def test_indented_options_are_an_error_that_says_so(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "문제 1. 조선을 건국한 인물은?\n\t① 이성계\t② 왕건\n")
    # The hint in the quiz's language: 'its options are indented, which makes them part of the question text'.
    assert code == 1 and [f[:4] for f in found] == [(5, 1, "error", "QB128")] and "보기가 들여 쓰여 있어" in found[0][4]


def test_a_question_number_alone_on_its_line(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "[문제 1]\n다음 중 옳은 것은?\n① 가 ② 나\n정답: ①\n")
    assert q.stem == "다음 중 옳은 것은?" and q.type == "single_choice"


def test_a_number_form_that_is_not_read_says_the_form(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1.Which keyword defines a function?\n\nA) func\nB) def\n\nAnswer: B\n")
    assert code == 1 and [f[:4] for f in found] == [(4, 3, "error", "QB147")]
    assert "'1. Which keyword" in found[0][4]


# -- points written in the text ------------------------------------------------------------------------


@pytest.mark.parametrize("written, points", [("(3점)", 3), ("[2점]", 2), ("（2점）", 2), ("(3 points)", 3), ("(1 point)", 1),
                                             ("(2.5점)", 2.5), ("(배점 4)", 4), ("(3 Punkte)", 3), ("(3 puntos)", 3),
                                             ("(3 pontos)", 3), ("(3 punti)", 3), ("(3点)", 3), ("(3分)", 3), ("[5 pts]", 5)])
def test_points_in_the_question_text(tmp_path: Path, written: str, points: float) -> None:
    (q,) = questions(tmp_path, KO + f"1. 다음 중 옳은 것은? {written}\n① 가 ② 나\n정답: ①\n")
    assert (q.points, q.stem) == (points, "다음 중 옳은 것은?")


@pytest.mark.parametrize("title, points", [("Ⅰ. 객관식 (각 2점)", 2), ("[객관식] (각 3점씩)", 3), ("# Part 1 (2 points each)", 2),
                                           ("■ 선택형 (各2分)", 2), ("# Teil 1 (je 2 Punkte)", 2)])
def test_points_for_each_question_of_a_section(tmp_path: Path, title: str, points: float) -> None:
    quiz = read_written(tmp_path, "q.md", KO + f"{title}\n\n1. 옳은 것은?\n① 가 ② 나\n정답: ①\n\n2. 옳지 않은 것은? (5점)\n① 가 ② 나\n정답: ②\n")
    one, two = quiz.iter_questions()
    assert (one.points, two.points) == (points, 5)
    assert "점" not in quiz.sections[0].title and "points" not in quiz.sections[0].title


def test_points_in_the_text_and_an_attribute_that_differ(tmp_path: Path) -> None:
    code, found = errors(tmp_path, FM + "1. Is 7 prime? (3 points) {#s points=2}\n\nAnswer: true\n")
    assert code == 1 and [f[:4] for f in found] == [(4, 16, "error", "QB184")]


# -- shared passages, notes and sections ----------------------------------------------------------


def test_an_english_passage_in_all_three_outputs(tmp_path: Path) -> None:
    source = tmp_path / "p.md"
    source.write_text(FM + "Questions 1-2 refer to the following passage.\n\nThe Sun is a star at the centre of the Solar System.\n\n"
                           "1. What is the Sun?\n\nA) A star\nB) A planet\n\nAnswer: A\n\n2. Is the Sun at the centre? (O / X)\n\n"
                           "Answer: O\n\n3. Is water wet?\n\nAnswer: true\n", encoding="utf-8")
    built = build_all(tmp_path, source)
    one, two, three = built.quiz.iter_questions()
    assert one.passage == two.passage == ("Questions 1-2 refer to the following passage.\n\n"
                                          "The Sun is a star at the centre of the Solar System.")
    assert three.passage is None
    for question, shown in ((one, True), (two, True), (three, False)):
        assert ("centre of the Solar System" in built.qti_text(question.id, "passage")) is shown
        assert ("centre of the Solar System" in built.moodle_text(question.id)) is shown
        assert ("centre of the Solar System" in built.canvas_text(question.id)) is shown
    # Never in a rubricBlock, which shows no question's labels but also never reaches Canvas.
    assert b"rubricBlock" not in built.qti["assessmentTest.xml"]
    assert not built.quiz.description


def test_a_passage_without_its_questions_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "[1~3] 다음 글을 읽고 물음에 답하시오.\n\n글.\n\n1. 첫째? \n정답: O\n\n2. 둘째?\n정답: X\n")
    assert code == 1 and [f[:4] for f in found] == [(5, 1, "error", "QB178")]
    assert "[1~3]" in found[0][4]


def test_a_note_goes_with_the_next_question(tmp_path: Path) -> None:
    one, two = questions(tmp_path, KO + "1. 첫째?\n정답: O\n※ 다음 문제는 보기를 보고 답하시오.\n2. 둘째?\n정답: X\n")
    assert one.passage is None and two.passage == "※ 다음 문제는 보기를 보고 답하시오."


def test_section_markers_start_sections(tmp_path: Path) -> None:
    quiz = read_written(tmp_path, "q.md", KO + "Ⅰ. 객관식\n\n1. 첫째?\n정답: O\n\n[단답형]\n\n2. 둘째?\n정답: 서울\n\n■ 서술형\n\n"
                                       "3. 셋째?\n모범답안: 조선을 세웠다.\n")
    assert [s.title for s in quiz.sections] == ["Ⅰ. 객관식", "단답형", "서술형"]
    assert [q.type for q in quiz.iter_questions()] == ["true_false", "short_answer", "essay"]


# -- blanks, matching, ordering ----------------------------------------------------------------------


def test_blanks_as_exams_print_them(tmp_path: Path) -> None:
    one, two, three = questions(tmp_path, KO + "1. 조선의 건국자는 (    )이다.\n정답: 이성계 또는 태조\n\n2. 수도는 ____이다.\n정답: 한양\n\n"
                                               "3. 건국자는 ( ㉠ ), 수도는 ( ㉡ )이다.\n정답: ㉠ 이성계, ㉡ 한양\n")
    assert (one.type, one.stem, one.blanks[0].answers) == ("fill_in_blank", "조선의 건국자는 [[b1]]이다.", ["이성계", "태조"])
    assert two.blanks[0].answers == ["한양"]
    assert [b.answers for b in three.blanks] == [["이성계"], ["한양"]] and three.stem == "건국자는 [[b1]], 수도는 [[b2]]이다."


def test_blanks_whose_answer_does_not_say_which_is_which(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 건국자는 (    ), 수도는 (    )이다.\n정답: 이성계, 한양\n")
    assert code == 1 and [f[:4] for f in found] == [(6, 5, "error", "QB176")]
    assert "[[정답]]" in found[0][4]  # the hint in the quiz's language (message catalogs)


def test_matching_rows_as_exams_print_them(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 작가와 작품을 연결하시오.\n(가) 김소월 ･ ･ ㉠ 서시\n(나) 윤동주 ･ ･ ㉡ 진달래꽃\n"
                                    "(다) 이상 ･ ･ ㉢ 날개\n정답: (가)-㉡, (나)-㉠, (다)-㉢\n")
    assert q.type == "matching" and q.stem == "작가와 작품을 연결하시오."
    assert [(p.prompt, p.answer) for p in q.pairs] == [("김소월", "진달래꽃"), ("윤동주", "서시"), ("이상", "날개")]


def test_ordering_as_exams_print_it(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 순서대로 나열하시오.\n(가) 물을 끓인다.\n(나) 면을 넣는다.\n(다) 그릇에 담는다.\n"
                                    "정답: (가) → (나) → (다)\n")
    assert (q.type, q.items) == ("ordering", ["물을 끓인다.", "면을 넣는다.", "그릇에 담는다."])
    (q,) = questions(tmp_path, KO + "1. 순서대로 나열하시오.\n가. 물을 끓인다.\n나. 면을 넣는다.\n정답: 나-가\n")
    assert (q.type, q.items) == ("ordering", ["면을 넣는다.", "물을 끓인다."])


def test_matching_rows_with_an_answer_that_cannot_be_read(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 연결하시오.\n(가) 김소월 ･ ･ ㉠ 서시\n(나) 윤동주 ･ ･ ㉡ 진달래꽃\n정답: 김소월-진달래꽃\n")
    assert code == 1 and [f[:4] for f in found] == [(8, 5, "error", "QB177")]
    assert "'정답: (가)-㉠, (나)-㉡'" in found[0][4]


# -- marking schemes go to graders ---------------------------------------------------------------------


def test_a_marking_scheme_goes_to_graders_in_all_three_outputs(tmp_path: Path) -> None:
    source = tmp_path / "m.md"
    source.write_text(KO + "1. 훈민정음 창제의 의의를 서술하시오. (5점)\n모범답안: 백성이 글을 쉽게 익혔다.\n채점 기준: 의의 한 가지 5점\n",
                      encoding="utf-8")
    built = build_all(tmp_path, source)
    (q,) = built.quiz.iter_questions()
    assert q.model_answer == "백성이 글을 쉽게 익혔다.\n\n**채점 기준**\n\n의의 한 가지 5점"
    assert "의의 한 가지 5점" in built.moodle_question(q.id).findtext("graderinfo/text")
    solution = built.qti_item(q.id).xpath("//q:modalFeedback[@identifier='solution']",
                                          namespaces={"q": "http://www.imsglobal.org/xsd/imsqti_v2p1"})
    assert "의의 한 가지 5점" in "".join(solution[0].itertext())
    assert any("의의 한 가지 5점" in (f.findtext(".//mattext") or "") for f in built.canvas_item(q.id).iter("itemfeedback"))
    # Students see none of it.
    assert "의의 한 가지" not in built.moodle_text(q.id) and "의의 한 가지" not in built.canvas_text(q.id)


def test_a_marking_scheme_on_a_choice_question_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "1. 옳은 것은?\n① 가 ② 나\n정답: ①\n채점 기준: 맞으면 2점\n")
    assert code == 1 and [f[:4] for f in found] == [(8, 1, "error", "QB185")]


# -- ids from file names in other scripts ---------------------------------------------------------------


def test_a_korean_file_name_gives_a_romanised_id(tmp_path: Path) -> None:
    path = tmp_path / "한국사 기말고사.md"
    path.write_text(FM + "1. Is 7 prime?\n\nAnswer: true\n", encoding="utf-8")
    code, out, err = run("build", path.name, "--out", "out", cwd=tmp_path)
    assert code == 0, err
    assert "warning[QB186]: the quiz id is 'hangugsa-gimalgosa', made from the file name '한국사 기말고사'" in err
    assert "'id: hangugsa-gimalgosa'" in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "hangugsa-gimalgosa.canvas.zip", "hangugsa-gimalgosa.mbz", "hangugsa-gimalgosa.moodle.xml",
        "hangugsa-gimalgosa.qti21.zip"]


def test_a_file_name_of_symbols_gives_a_stable_hash(tmp_path: Path) -> None:
    from qti_builder.readers.base import romanised_id

    assert romanised_id("東京") == "dongjing" and romanised_id("2024 한국사") == "quiz-2024-hangugsa"
    assert romanised_id("☆★") == romanised_id("☆★") and romanised_id("☆★").startswith("quiz-")


@pytest.mark.parametrize("code", ["QB175", "QB176", "QB177", "QB178", "QB179", "QB180", "QB181", "QB182", "QB183", "QB184",
                                  "QB185", "QB186"])
def test_explain_knows_the_new_codes(tmp_path: Path, code: str) -> None:
    status, out, _ = run("explain", code, cwd=tmp_path)
    assert status == 0 and code in out


# -- the tables are one place --------------------------------------------------------------------------


def test_every_language_the_issue_names_has_its_words() -> None:
    for code in ("en", "ko", "ja", "zh", "de", "fr", "es", "pt", "it"):
        language = V.LANGUAGES[code]
        roles = set(language.labels.values())
        assert {"answer", "explanation"} <= roles, code
        assert language.true_words and language.false_words, code
        assert language.points_units, code


def test_the_reader_builds_its_labels_from_the_tables() -> None:
    assert set(S.QUESTION_LABELS) | set(S.CHOICE_LABELS) == set(V.all_labels())
    assert S.dialect("ja").labels["正解"] == "answer" and "正解" not in S.dialect("en").labels


@pytest.mark.parametrize("block, table", [("vocabulary", "markdown_tables"), ("option styles", "option_table")])
def test_the_docs_show_the_tables(block: str, table: str) -> None:
    from helpers import ROOT

    text = (ROOT / "docs" / "source-format.md").read_text(encoding="utf-8")
    start, end = f"<!-- {block}: start -->\n", f"<!-- {block}: end -->"
    assert text[text.index(start) + len(start): text.index(end)].strip() == getattr(V, table)(), (
        f"docs/source-format.md's {block} table differs from src/qti_builder/vocabulary.py; paste the output of "
        f"python -c 'from qti_builder.vocabulary import {table}; print({table}())' between the markers")


def test_every_option_style_has_its_forms_and_family() -> None:
    assert set(V.OPTION_STYLE_FORMS) == set(V.OPTION_STYLES) == set(S.STYLE_FAMILY)


def test_a_section_marker_ends_a_question_without_labels(tmp_path: Path) -> None:
    # An essay with no model answer, then the next section: the title is not the essay's text.
    quiz = read_written(tmp_path, "q.md", KO + "Ⅰ. 서술형\n\n1. 서술하시오. {type=essay}\n\nⅡ. 단답형 (각 2점)\n\n2. 수도는?\n정답: 서울\n")
    essay, short = quiz.iter_questions()
    assert essay.stem == "서술하시오." and [s.title for s in quiz.sections] == ["Ⅰ. 서술형", "Ⅱ. 단답형"]
    assert (short.type, short.points) == ("short_answer", 2)


def test_roman_numerals_listed_in_a_question_stay_in_it(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 옳은 것을 고르시오.\nⅠ. 물은 끓는다.\nⅡ. 불은 차갑다.\n① Ⅰ ② Ⅱ\n정답: ①\n")
    assert q.stem == "옳은 것을 고르시오.\nⅠ. 물은 끓는다.\nⅡ. 불은 차갑다."


def test_an_answer_in_a_shared_passage_is_an_error(tmp_path: Path) -> None:
    code, found = errors(tmp_path, KO + "[1~2] 다음 글을 읽고 답하시오.\n\n글.\n정답: ①\n\n1. 첫째?\n정답: O\n\n2. 둘째?\n정답: X\n")
    assert code == 1 and [f[:4] for f in found] == [(8, 1, "error", "QB145")]


def test_a_marking_scheme_and_an_explanation_may_enumerate(tmp_path: Path) -> None:
    (q,) = questions(tmp_path, KO + "1. 서술하시오.\n모범답안: 원인과 결과를 쓴다.\n해설: 두 가지를 본다.\n(1) 원인\n(2) 결과\n"
                                    "채점 기준:\n(1) 3점\n(2) 3점\n")
    assert q.feedback.general == "두 가지를 본다.  \n(1) 원인  \n(2) 결과"
    assert q.model_answer.endswith("**채점 기준**\n\n(1) 3점  \n(2) 3점")


def test_a_passage_before_blanks_embeds_no_answer_in_moodle(tmp_path: Path) -> None:
    source = tmp_path / "c.md"
    source.write_text(KO + "[1~2] 다음 글을 읽고 답하시오. {1:MULTICHOICE:=a~b}\n\n글.\n\n1. 수도는 (    )이다.\n정답: 한양\n\n"
                           "2. 첫째?\n정답: O\n", encoding="utf-8")
    built = build_all(tmp_path, source)
    blank = next(built.quiz.iter_questions())
    text = built.moodle_text(blank.id)
    assert "&#123;1:MULTICHOICE" in text and text.count("{1:") == 1 and "{1:SHORTANSWER:=한양}" in text


def test_numbered_statements_before_lettered_options_stay_in_the_question(tmp_path: Path) -> None:
    roman, steps = questions(tmp_path, FM + "1. Which are true?\n\nI. Water boils.\nII. Ice floats.\nIII. Steam is cold.\n\n"
                                            "A) I only\nB) I and II\n\nAnswer: B\n\n2. Order the steps:\n1) Install\n2) Run\n\n"
                                            "A) 1 then 2\nB) 2 then 1\n\nAnswer: A\n")
    assert roman.stem == "Which are true?\n\nI. Water boils.  \nII. Ice floats.  \nIII. Steam is cold."
    assert [c.text for c in roman.choices] == ["I only", "I and II"] and roman.choices[1].correct
    assert steps.stem == "Order the steps:  \n1) Install  \n2) Run" and steps.choices[0].correct


def test_a_decimal_answer_under_its_label_is_the_answer_not_a_one_line_answer_key(tmp_path: Path) -> None:
    """``정답: 3.14 ± 0.005`` reads like a key's title and the entry '3. 14': a digit right after the
    dot makes it a number (the Korean starter quiz's numerical question was read as a key that
    then swallowed the next question)."""
    source = KO + ("1. 22를 7로 나눈 값은? {#pi type=numerical}\n\n정답: 3.14 ± 0.005\n\n"
                   "2. 금의 원소 기호는? {#gold type=short_answer}\n\n정답: Au\n")
    quiz = read_written(tmp_path, "q.md", source)
    pi, gold = quiz.iter_questions()
    assert (pi.answers[0].value, pi.answers[0].tolerance) == (3.14, 0.005)
    assert gold.stem.strip() == "금의 원소 기호는?" and [a.text for a in gold.answers] == ["Au"]


# -- a label in text students see is quoted as written, with the escape that makes it text ----------

#: A Korean paper's section whose introduction has an indented ``답) ...`` line (QB145), and the same
#: line at the margin right under the heading (QB146: the heading reads as the question it answers).
PAREN_IN_INTRO = KO + "\n# 1부\n\n    답) 아래 문항의 답은 하나입니다\n\n1. 다음 중 옳은 것은?\nA) 가\nB) 나\n정답: A\n"
PAREN_UNDER_HEADING = PAREN_IN_INTRO.replace("    답)", "답)")


def printed(tmp_path: Path, name: str, text: str, *options: str) -> tuple[int, list[str]]:
    """``qti-builder check`` on one source: its exit code and the lines it printed, as printed."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, _, err = run("check", name, *options, cwd=tmp_path)
    return code, err.splitlines()


def test_a_parenthesised_answer_label_in_an_introduction_is_quoted_as_written(tmp_path: Path) -> None:
    """``답) ...`` is quoted ``'답)'``, not with a colon the author never wrote, and the hint's escape
    is ``답\\)`` (``답\\:`` would leave the line a label)."""
    code, lines = printed(tmp_path, "b.md", PAREN_IN_INTRO, "--lang", "ko")
    assert code == 1 and lines == [
        "b.md:8:5: error[QB145]: 문항 밖의 '답)': 대단원 안내문에 들어가 학생에게 보입니다",
        "    hint: 레이블 블록은 문항에 속합니다: '1. ...'처럼 번호가 붙은 문항 뒤에 두세요. 글자 그대로 보이려면 '답\\)'로 쓰세요",
        "실패: 오류 1개"]
    code, lines = printed(tmp_path, "b.md", PAREN_IN_INTRO, "--lang", "en")
    assert code == 1 and lines[:2] == [
        "b.md:8:5: error[QB145]: '답)' outside a question: the section introduction would show it to students",
        "    hint: labelled blocks belong to a question: put it after a numbered question such as '1. ...'; "
        "to show the words themselves, write '답\\)'"]


def test_a_colon_label_in_an_introduction_is_still_quoted_with_its_colon(tmp_path: Path) -> None:
    code, lines = printed(tmp_path, "b.md", PAREN_IN_INTRO.replace("답)", "답:"), "--lang", "ko")
    assert code == 1 and lines[:2] == [
        "b.md:8:5: error[QB145]: 문항 밖의 '답:': 대단원 안내문에 들어가 학생에게 보입니다",
        "    hint: 레이블 블록은 문항에 속합니다: '1. ...'처럼 번호가 붙은 문항 뒤에 두세요. 글자 그대로 보이려면 '답\\:'로 쓰세요"]


def test_a_heading_followed_by_a_parenthesised_answer_label_quotes_it_as_written(tmp_path: Path) -> None:
    """QB146 names ``'답)'``; the heading is then read as question 1 with that answer, so QB175 says
    the answer (the line's words) is a phrase: the same slip told twice, in its consequence."""
    code, lines = printed(tmp_path, "c.md", PAREN_UNDER_HEADING, "--lang", "ko")
    assert code == 1 and [line for line in lines if line.startswith("c.md:")] == [
        "c.md:6:3: error[QB146]: 제목 '# 1부' 뒤에 '답)'이(가) 와서, 문항이 아니라 학생이 보는 안내문을 가진 대단원으로 읽힙니다",
        "c.md:8:4: error[QB175]: 정답 '아래 문항의 답은 하나입니다'은(는) 낱말이나 짧은 구입니다: 학생이 입력하는 단답형(자동 채점)인지, "
        "서술형(수동 채점)인지 정해 주세요"]
    code, lines = printed(tmp_path, "c.md", PAREN_UNDER_HEADING, "--lang", "en")
    assert code == 1 and lines[:2] == [
        "c.md:6:3: error[QB146]: the heading '# 1부' is followed by '답)', so it reads as a section whose introduction "
        "students see, not as a question",
        "    hint: write the question as a numbered line, without '#': '1. 1부'"]
    code, lines = printed(tmp_path, "c.md", PAREN_UNDER_HEADING.replace("답)", "답:"), "--lang", "en")
    assert code == 1 and lines[0].startswith("c.md:6:3: error[QB146]: the heading '# 1부' is followed by '답:', so")


#: A label line as written, how QB145 quotes it, and the escape its hint gives.
WRITTEN_LABELS = [
    ("답) 아래 문항을 읽으시오", "답)", "답\\)"),
    ("답 ) 아래 문항을 읽으시오", "답 )", "답 \\)"),
    ("답） 아래 문항을 읽으시오", "답）", "답&#65289;"),
    ("정답： 아래 문항을 읽으시오", "정답：", "정답&#65306;"),
    ("정답 - 아래 문항을 읽으시오", "정답 -", "정답 \\-"),
    ("정답 – 아래 문항을 읽으시오", "정답 –", "정답 &#8211;"),
    ("정답 = 3", "정답 =", "정답 \\="),
    ("[정답] 아래 문항을 읽으시오", "[정답]", "\\[정답]"),
    ("[정답]: 아래 문항을 읽으시오", "[정답]:", "\\[정답]:"),
    ("(정답) 아래 문항을 읽으시오", "(정답)", "\\(정답)"),
    ("【정답】 아래 문항을 읽으시오", "【정답】", "&#12304;정답】"),
    ("정답 ④", "정답", "정답&#32;"),
    ("해설", "해설", "해설&#32;"),
    ("Ans. 3", "Ans.", "Ans\\."),
    ("Answer (50%): every one", "Answer (50%):", "Answer (50%)\\:"),
    ("Answer: every one", "Answer:", "Answer\\:"),
]


@pytest.mark.parametrize("line, quoted, escaped", WRITTEN_LABELS)
@pytest.mark.parametrize("indent", ["", "  "])
def test_the_escape_the_hint_gives_makes_the_line_text_students_see(tmp_path: Path, line: str, quoted: str, escaped: str,
                                                                     indent: str) -> None:
    """Each label form at the margin of the quiz description (read as it comes) and indented in a
    section introduction (read with the introduction): QB145 quotes it as written, and the line
    with the hint's escape builds, its words shown to students as the author wrote them."""
    where, at = ("the quiz description", 6) if not indent else ("the section introduction", 8)
    text = KO + ("\n" if not indent else "\n# 1부\n\n") + f"{indent}{line}\n\n1. 다음 중 옳은 것은?\nA) 가\nB) 나\n정답: A\n"
    code, lines = printed(tmp_path, "q.md", text, "--lang", "en")
    # Once: a line at the margin is seen as it comes and with the introduction.
    assert code == 1 and lines == [
        f"q.md:{at}:{len(indent) + 1}: error[QB145]: '{quoted}' outside a question: {where} would show it to students",
        "    hint: labelled blocks belong to a question: put it after a numbered question such as '1. ...'; "
        f"to show the words themselves, write '{escaped}'",
        "failed: 1 error"]
    source = tmp_path / "e.md"
    source.write_text(text.replace(f"{indent}{quoted}", f"{indent}{escaped}", 1), encoding="utf-8")
    built = build_all(tmp_path, source)
    # What students see: the description's paragraph as a browser shows it (white space collapsed:
    # ``정답&#32; ④`` is "정답 ④").
    shown = [(html.fragment_fromstring(t.text).tag, " ".join(html.fragment_fromstring(t.text).text_content().split()))
             for t in built.moodle.iterfind("question[@type='category']/info/text") if t.text]
    assert shown == [("p", line)] and built.warnings == []


def test_an_option_feedback_at_the_margin_is_quoted_as_written(tmp_path: Path) -> None:
    """QB136 quotes ``피드백 -`` with its dash, not ``'피드백:'``."""
    code, lines = printed(tmp_path, "q.md", KO + "\n1. 다음 중 옳은 것은?\nA) 가\n피드백 - 좋아요\nB) 나\n정답: A\n", "--lang", "en")
    assert code == 1 and lines[:2] == ["q.md:8:1: error[QB136]: '피드백 -' must be indented to belong to option A",
                                       "    hint: indent it by a few spaces; for feedback on the whole question use 'Explanation:'"]


def test_a_second_label_written_another_way_is_named_without_a_mark(tmp_path: Path) -> None:
    """``해설:`` then ``[해설]``: QB116's hint names the two blocks by their name, with neither's
    mark (it said ``'해설:'``)."""
    code, lines = printed(tmp_path, "q.md", KO + "\n1. 다음 중 옳은 것은?\nA) 가\nB) 나\n정답: A\n해설: 하나\n[해설] 둘\n", "--lang", "en")
    assert code == 1 and lines[:2] == ["q.md:11:1: error[QB116]: a second '해설' block in one question",
                                       "    hint: merge the two '해설' blocks into one; if a new question starts between them, number it"]


def test_a_long_heading_followed_by_an_answer_label_is_quoted_shortened(tmp_path: Path) -> None:
    """A heading of 61 characters, as written, is quoted in 60 (its end cut with '…'), and the label
    after it as written."""
    heading = "# 다음 글을 읽고 물음에 답하시오. 이 글은 조선 후기 실학자들의 사상과 그 영향에 관한 설명이다 (가나다)"
    assert len(heading) == 61
    code, lines = printed(tmp_path, "q.md", PAREN_UNDER_HEADING.replace("# 1부", heading), "--lang", "en")
    assert code == 1 and lines[0] == (
        "q.md:6:3: error[QB146]: the heading '# 다음 글을 읽고 물음에 답하시오. 이 글은 조선 후기 실학자들의 사상과 그 영향에 관한 "
        "설명이다 (가나…' is followed by '답)', so it reads as a section whose introduction students see, not as a question")


def test_a_heading_that_asks_over_text_then_an_answer_label_quotes_it_as_written(tmp_path: Path) -> None:
    """A heading that asks (``## …?``), a paragraph, then ``답) 서울``: the heading is the question
    (QB146, the label quoted as written), the paragraph its text."""
    text = KO + "\n## 우리나라의 수도는?\n\n참고 자료를 보시오.\n\n답) 서울\n\n1. 다음 중 옳은 것은?\nA) 가\nB) 나\n정답: A\n"
    code, lines = printed(tmp_path, "q.md", text, "--lang", "en")
    assert code == 1 and lines[:2] == [
        "q.md:6:4: error[QB146]: the heading '## 우리나라의 수도는?' is followed by '답)', so it reads as a section whose "
        "introduction students see, not as a question",
        "    hint: write the question as a numbered line, without '#': '1. 우리나라의 수도는?'"]


def test_a_paragraph_over_a_parenthesised_answer_label_is_a_question_without_its_number(tmp_path: Path) -> None:
    """``안내문입니다.`` then ``답) 아래`` in the quiz description: the paragraph is the question the
    answer belongs to (QB147), its hint naming where the text would otherwise go."""
    text = KO + "\n안내문입니다.\n\n답) 아래\n\n1. 다음 중 옳은 것은?\nA) 가\nB) 나\n정답: A\n"
    code, lines = printed(tmp_path, "q.md", text, "--lang", "en")
    assert code == 1 and lines[:2] == [
        "q.md:6:1: error[QB147]: this paragraph looks like a question: number it '1.'",
        "    hint: a question starts at the left margin with its number, '1. 안내문입니다.'; without one, the text is read "
        "as part of the quiz description"]
