"""The Markdown reader's blocks.py and keys.py (and one survivor of pieces.py), checked against
sampled mutmut survivors of issue 35's ninth session: each test reads a small source written here
and checks what a user gets from it (the questions' answers, each diagnostic's code, line, column
and message), and was seen failing on its mutant."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import check_source

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces


@pytest.mark.parametrize("in_pieces", [False, True], ids=["whole", "in-pieces"])
def test_a_code_fence_opened_after_a_full_width_space_runs_over_the_next_heading(
        in_pieces: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A code fence opened after a full-width space (U+3000, as pasted papers indent) and never
    closed: everything after it is code, the next top-level heading too, so the one problem is
    QB108 at the fence, also when the reader tries the source in pieces (the piece whose fence is
    open does not end clean, so the source is read whole; pieces.read_pieces 74 took the
    second-to-last piece as the last, which need not end clean, and read the heading after the
    fence as a section whose question lacks its answer, QB120)."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    path = tmp_path / "paper.md"
    path.write_text("---\ntitle: P\n---\n\n# One\n\n1. What does this print?\n\nA) 1\nB) 2\n\nAnswer: A\n\n"
                    "Explanation:\n\n\u3000```python\nprint(1)\n\n# Two\n\n2. Second?\n\nA) one\nB) two\n", encoding="utf-8")
    sink = DiagnosticSink()
    given = Pieces(lambda key: None, lambda key, reading: None, None) if in_pieces else None
    assert read_quiz(path, sink, partial=True, pieces=given) is None
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("QB108", 16, 1, "code fence ``` is never closed")]


def _problems(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str | None]]:
    path = tmp_path / "paper.md"
    path.write_text("---\ntitle: T\n---\n" + text, encoding="utf-8")  # lines counted from 4
    sink = DiagnosticSink()
    read_quiz(path, sink, partial=True)
    return [(d.code, d.span.line, d.span.column, d.message, d.hint) for d in sink.items]


def test_a_bare_number_in_parentheses_says_how_to_write_points(tmp_path: Path) -> None:
    """QB189 at ``(4)`` after a number heading's number, with its whole hint: the points with their
    unit, or the paper's legend (blocks.Scanner._heading_points 64 changed the hint)."""
    assert _problems(tmp_path, "# テスト\n\n## Q1 (4)\n\nどれか？\n\n1. a\n2. b\n\nAnswer: 2\n") == [
        ("QB189", 6, 8, "'(4)' after the question's number does not say what it is: the paper does not say that its "
         "numbers in parentheses are points",
         "write the points with their unit, '(6点)', '(6점)' or '(6 points)', or say above the first question that the "
         "numbers in parentheses are the points ('丸かっこ内の数字は配点です'); parts worth points each ('各1') are "
         "questions of their own")]


def test_text_after_the_closing_mark_says_where_it_belongs(tmp_path: Path) -> None:
    """QB155 at a line after the paper's closing mark, with its hint (blocks.Scanner._line 230
    dropped the hint)."""
    assert _problems(tmp_path, "1. 설명하시오.\n모범답안: 광합성은 빛 에너지를 쓴다.\n\n- 끝 -\n\n수고하셨습니다 여러분\n") == [
        ("QB155", 9, 1, "text after the closing mark on line 7 belongs to no question",
         "the closing mark (such as '- 끝 -' or '- End -') ends the questions: move the text above it into the question "
         "it belongs to, or delete it")]


def test_a_problem_in_a_keyed_explanation_whose_first_word_comes_again_is_at_its_place(tmp_path: Path) -> None:
    """An explanation in the key's explanations part whose first character comes again later on
    its line (``1. 서울은 서울특별시이다. …``): a missing picture in it is reported at the picture's
    column. It was reported four columns on: the explanation's column was taken where its first
    character came next after ``1.`` counted from the answer's place, the second ``서`` (a bug
    found by keys.read_line 44, which looked one place further)."""
    paper = ("---\ntitle: T\nlanguage: ko\n---\n1. 한국의 수도는?\n① 서울\n② 부산\n\n[정답]\n1. ①\n\n[해설]\n"
             "1. 서울은 서울특별시이다. ![지도](missing.png)\n")
    code, reported = check_source(tmp_path, "paper.md", paper, "--lang", "en")
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (
        1, [("QB160", 13, len("1. 서울은 서울특별시이다. ![지도](") + 1)])


def test_a_long_answer_besides_statements_judged_by_their_marks_is_quoted_short(tmp_path: Path) -> None:
    """QB190 at an answer under statements that end in their marks (``1) … O``): the answer is quoted
    in 40 characters at most, as every message quotes a source's text (blocks.Scanner._judged_statements 24
    quoted 41)."""
    answer = "첫째 물이 백 도에서 끓으니 옳고 둘째는 얼음이 영 도에서 녹으니 틀린 말"
    assert len(answer) == 41
    found = _problems(tmp_path, "# 퀴즈\n\n## 1. 옳은 것에 O, 틀린 것에 X를 표시하시오.\n1) 물은 100도에서 끓는다. O\n"
                      f"2) 얼음은 50도에서 녹는다. X\n정답: {answer}\n\n## 2. 다음 중 짝수는?\n1) 3\n2) 4\n정답: 2\n")
    assert [(code, line, column, message) for code, line, column, message, _ in found] == [
        ("QB190", 9, 5, f"the statements are judged by the marks at their ends: the answer '{answer[:39]}…' says it a "
         "second time")]


def _read(tmp_path: Path, text: str, front: str = "") -> object:
    path = tmp_path / "quiz.md"
    path.write_text("---\ntitle: T\n" + front + "---\n" + text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink, partial=True)
    assert [d.render() for d in sink.items] == []
    assert read is not None
    return read[0]


def test_roman_statements_from_i_stay_the_question_s_text(tmp_path: Path) -> None:
    """``I.``, ``II.``, ``III.`` statements under the question, before its options: lines of its text,
    ``I.`` too since ``II.`` follows it (blocks.Scanner._roman_statement 45 asked the line after
    ``I.`` for a group its pattern lacks: a traceback)."""
    quiz = _read(tmp_path, "\n1. Which statements are true?\n\nI. Water boils at 100 degrees.\nII. Ice melts at 50 degrees.\n"
                 "III. The sun is a star.\n\nA) I only\nB) I and III\nC) II only\n\nAnswer: B\n")
    [question] = quiz.sections[0].questions  # type: ignore[attr-defined]
    assert question.stem == ("Which statements are true?\n\nI. Water boils at 100 degrees.  \nII. Ice melts at 50 degrees.  \n"
                             "III. The sun is a star.")
    assert [(c.text, c.correct) for c in question.choices] == [("I only", False), ("I and III", True), ("II only", False)]


def test_a_bold_answer_label_after_the_options_is_reported_as_bold(tmp_path: Path) -> None:
    """``**Answer:** B`` under the options: QB148 at its line and column 1, saying it is bold, with the
    hint to write it plainly (blocks.Scanner._line 1084 left the column out of the hidden label: its
    place became the words "text after the options" and its kind "indented")."""
    assert _problems(tmp_path, "\n1. Which is even?\n\nA) 3\nB) 4\n\n**Answer:** B\n") == [
        ("QB148", 10, 1, "'Answer' in bold or italics is not read as a label, so it is text after the options, which "
         "students see", "write 'Answer:' plainly at the left margin, without '*' or '_'")]


def test_a_question_numbered_with_ten_digits_is_read_at_its_line(tmp_path: Path) -> None:
    """``1234567890. …``: QB147 at its number, and the question read as the one it was meant to be,
    its own problems at its line (blocks.Scanner._line 724 opened it with no line: a traceback)."""
    assert [(code, line, column, message) for code, line, column, message, _ in _problems(
        tmp_path, "\n1234567890. Which is even?\n\nA) 3\nB) 4\n")] == [
        ("QB147", 5, 1, "question number 1234567890 has 10 digits, more than the 9 a Markdown list number may have"),
        ("QB120", 5, 1, "the question has options but no correct answer")]


def test_a_pasted_bullet_in_an_explanation_stays_its_text(tmp_path: Path) -> None:
    """Options pasted as indented bullets (``   ● ① 서울``), then an explanation whose indented line is
    such a bullet naming no option of the question (``   ● ③ …``): the explanation's text, never an
    option after the labels (blocks.Scanner._line 449 took pasted bullets in a label too: QB134)."""
    quiz = _read(tmp_path, "\n1. 한국의 수도는?\n   ● ① 서울\n   ● ② 부산\n\n정답: ①\n\n해설:\n"
                 "   ● ③ 대구는 수도가 아니다.\n", "language: ko\n")
    [question] = quiz.sections[0].questions  # type: ignore[attr-defined]
    assert (question.feedback.general, [(c.text, c.correct) for c in question.choices]) == (
        "● ③ 대구는 수도가 아니다.", [("서울", True), ("부산", False)])


def test_a_number_heading_s_list_after_other_questions_stays_its_options(tmp_path: Path) -> None:
    """Number headings (``## 3``) over their questions, whose options are a list ``1.`` ``2.`` ``3.``:
    the last question's ``2. (b) 7`` and ``3. (c) 9`` go on with its list, never an answer key for
    questions 2 and 3, also when it has no answer (QB120 alone; blocks.Scanner._list_goes_on 21
    never found the list's options, and read the two lines as a key: two QB187)."""
    assert [(code, line, column, message) for code, line, column, message, _ in _problems(
        tmp_path, "\n## 1\n\nWhich is even?\n\n1. 3\n2. 4\n\nAnswer: 2\n\n## 2\n\nWhich is odd?\n\n1. 8\n2. 9\n3. 10\n\n"
                  "Answer: 2\n\n## 3\n\nWhich is prime?\n\n1. (a) 4\n2. (b) 7\n3. (c) 9\n")] == [
        ("QB120", 24, 1, "the question has options but no correct answer")]


def test_a_line_under_a_key_entry_that_is_no_label_of_a_question_stays_whole(tmp_path: Path) -> None:
    """``Remark: nobody chose A`` under the key's entry ``1. B``: the explanation of question 1, word
    for word with its ``Remark:``, which names no block of a question (keys.read_line 108 read any
    such line as a labelled explanation, and dropped its ``Remark:``)."""
    quiz = _read(tmp_path, "\n1. Which is even?\n\nA) 3\nB) 4\n\n2. Which is odd?\n\nA) 5\nB) 6\n\n[정답]\n1. B\n"
                 "Remark: nobody chose A\n2. A\n")
    assert [(q.feedback.general if q.feedback else None, [c.text for c in q.choices if c.correct])
            for q in quiz.sections[0].questions] == [  # type: ignore[attr-defined]
        ("Remark: nobody chose A", ["4"]), (None, ["5"])]
