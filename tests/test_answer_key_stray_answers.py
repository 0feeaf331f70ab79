"""An answer label inside an exam paper's answer key (``정답: ②`` under the entry ``1. ①``): the
key gives each answer as an entry with its question's number, so this line answers no question the
reader can tell. It is an error at that line, never the entry's explanation, which students would
read after answering (and which here contradicts the entry's own answer). Sources written here;
each place is found by searching the source's text."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import run
from helpers.reading import place, read_body, source_text

QUESTIONS = "1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n"
MESSAGE = ("'정답: ②' gives an answer inside the answer key, where each answer is an entry with its question's number, "
           "so which question it answers cannot be told")


def test_an_answer_label_under_a_key_entry_is_an_error_at_its_line_not_an_explanation(tmp_path: Path) -> None:
    body = QUESTIONS + "[정답]\n1. ②\n정답: ②\n2. ①\n"
    quiz, told = read_body(tmp_path, body, "ko")
    line, column = place(source_text(body, "ko"), "정답: ②")
    assert told == [(line, column, "QB187", MESSAGE)]
    if quiz is not None:  # what was read without the error: nobody is told "정답: ②" as an explanation
        assert all(q.feedback.general is None for q in quiz.iter_questions())


def test_an_answer_label_in_the_explanations_part_is_an_error_too(tmp_path: Path) -> None:
    body = QUESTIONS + "[정답]\n1. ②  2. ①\n\n해설\n1. 4는 2로 나누어진다\n   정답: ②\n"
    _, told = read_body(tmp_path, body, "ko")
    line, column = place(source_text(body, "ko"), "정답: ②")
    assert told == [(line, column, "QB187", MESSAGE)]


def test_a_label_that_explains_under_an_entry_is_still_its_explanation(tmp_path: Path) -> None:
    body = QUESTIONS + "[정답]\n1. ②\n해설: 4는 2로 나누어진다\n2. ①\n"
    quiz, told = read_body(tmp_path, body, "ko")
    assert told == []
    assert [q.feedback.general for q in quiz.iter_questions()] == ["4는 2로 나누어진다", None]


def test_import_stops_at_the_same_line_in_the_teacher_s_language(tmp_path: Path) -> None:
    """Both routes read the paper with one reader: `import` refuses it at the same place, and the
    message prints in Korean for a Korean paper."""
    text = "1. 짝수는?\n① 3\n② 4\n\n2. 소수는?\n① 7\n② 8\n\n[정답]\n1. ②\n정답: ①\n2. ①\n"
    paper = tmp_path / "paper.txt"
    paper.write_text(text, encoding="utf-8")
    code, _, err = run("import", str(paper), "-o", str(tmp_path / "out"), "--lang", "ko")
    line, column = place(text, "정답: ①")
    assert code != 0
    assert f"paper.txt:{line}:{column}: error[QB187]: '정답: ①'은(는) 정답표 안에서 답을 주지만" in err
    assert not list((tmp_path / "out").glob("*.md"))
