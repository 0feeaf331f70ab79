"""Options written after the question's text on its own line, as quick quizzes are typed
(``1. 대한민국의 수도는? ① 서울 ② 부산 ③ 대구``, ``1. Capital of France? A) Paris B) Lyon``).
Before, the marks were the question's text and its answer an error (QB173, "names an option, but
the question has no options"). Now two or more marks in order from the first, after the end of
the question's sentence, are its options. Marks inside a sentence (``I ① wish ② I ③ will``, a part
to find) and statements before options on the lines below (``ㄱ. … ㄴ. …`` then ``① ㄱ, ㄴ``) stay
the question's text."""

from __future__ import annotations

from helpers import moodle_engine as engine
from helpers.cli import run
from helpers.outputs import build_all

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAPER = """---
title: 퀴즈
---

1. 대한민국의 수도는? ① 서울 ② 부산 ③ 대구
정답: ①

2. 일본의 수도는? (2점)  ① 교토  ② 도쿄  ③ 오사카
정답: ②

3. Capital of France? A) Paris B) Lyon C) Nice
Answer: A
"""


def _read(tmp_path, text: str):
    path = tmp_path / "quiz.md"
    path.write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    return path, read_quiz(path, sink), sink


def test_the_marks_after_the_question_are_its_options(tmp_path):
    _, read, sink = _read(tmp_path, PAPER)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    got = [(q.stem, [c.text for c in q.choices], [c.text for c in q.choices if c.correct], q.points)
           for q in read[0].iter_questions()]
    assert got == [
        ("대한민국의 수도는?", ["서울", "부산", "대구"], ["서울"], 1),
        ("일본의 수도는?", ["교토", "도쿄", "오사카"], ["도쿄"], 2),  # "(2점)" its points, not its text
        ("Capital of France?", ["Paris", "Lyon", "Nice"], ["Paris"], 1),
    ]


def test_moodle_grades_the_right_option_right(tmp_path):
    path, _, _ = _read(tmp_path, PAPER)
    outputs = build_all(tmp_path, path)
    questions = [engine.read_question(q) for q in outputs.moodle.iter("question") if q.get("type") != "category"]
    assert [engine.grade(q, {right}) for q, right in zip(questions, (0, 1, 0))] == [1.0, 1.0, 1.0]
    assert [engine.grade(q, {wrong}) for q, wrong in zip(questions, (1, 0, 2))] == [0.0, 0.0, 0.0]
    # The options are no part of what students read as the question.
    assert "부산" not in outputs.moodle_text(outputs.quiz.sections[0].questions[0].id)


def test_options_going_on_on_the_next_line_are_the_same_questions(tmp_path):
    text = "---\ntitle: 퀴즈\n---\n\n1. 옳은 것은? ① 가 ② 나\n③ 다 ④ 라\n정답: ③\n"
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    (q,) = read[0].iter_questions()
    assert (q.stem, [c.text for c in q.choices], [c.text for c in q.choices if c.correct]) == (
        "옳은 것은?", ["가", "나", "다", "라"], ["다"])


def test_marks_inside_a_sentence_stay_its_text(tmp_path):
    # A part to find: the marks number words of the sentence, with no sentence end before them.
    # They stay its text, and the marks are the parts students choose among (tests/test_marked_parts.py);
    # before, the answer naming ③ was an error (QB173).
    text = "---\ntitle: 퀴즈\n---\n\n1. I ① wish ② I ③ will ④ be ⑤ taller.\n정답: ③\n"
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors
    (q,) = read[0].iter_questions()
    assert q.stem == "I ① wish ② I ③ will ④ be ⑤ taller."
    assert ([c.text for c in q.choices], [c.correct for c in q.choices]) == (["①", "②", "③", "④", "⑤"], [False, False, True, False, False])


def test_statements_on_the_question_line_before_options_below_stay_text(tmp_path):
    text = ("---\ntitle: 퀴즈\n---\n\n1. 옳은 것을 모두 고른 것은? ㄱ. 물은 100℃에서 끓는다. ㄴ. 얼음은 0℃에서 녹는다.\n"
            "① ㄱ\n② ㄴ\n③ ㄱ, ㄴ\n정답: ③\n")
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    (q,) = read[0].iter_questions()
    assert "ㄱ. 물은" in q.stem and [c.text for c in q.choices] == ["ㄱ", "ㄴ", "ㄱ, ㄴ"]


def test_marks_on_the_question_line_with_options_below_stay_its_text(tmp_path):
    text = ("---\ntitle: Quiz\n---\n\n1. Which holds? A) is true, B) is false.\n"
            "A) A only\nB) B only\nAnswer: A\n")
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    (q,) = read[0].iter_questions()
    assert q.stem == "Which holds? A) is true, B) is false." and [c.text for c in q.choices] == ["A only", "B only"]


def test_a_pasted_paper_imports_and_reads_back_the_same(tmp_path):
    (tmp_path / "paper.txt").write_text(PAPER.split("---\n", 2)[2], encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", cwd=tmp_path)
    assert code == 0, err
    _, read, sink = _read(tmp_path, (tmp_path / "out" / "paper.md").read_text(encoding="utf-8"))
    assert read is not None and not sink.errors
    assert [[c.text for c in q.choices if c.correct] for q in read[0].iter_questions()] == [["서울"], ["도쿄"], ["Paris"]]
