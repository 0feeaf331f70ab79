"""One answer key at a paper's end, in parts named for the sections they answer, each section
numbering its questions from 1 (a Chinese paper's ``=====参考答案=====`` then ``## 单选题答案：``,
``## 多选题答案：``, ``## 填空题答案：``). Before, the framed title was text after the last question's
options (QB117) and each part's entries were questions without options (QB128): the paper failed
at every question, its key unread. Now each part answers the section it names, and only that
section; a part naming no section, or one whose entry its section does not have, is an error at
its line, never answers given to another section's question of that number."""

from __future__ import annotations

import pytest
from helpers import moodle_engine as engine
from helpers.cli import check_source, run
from helpers.outputs import build_all

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAPER = """---
title: Python 测验
---

## 单选题（每题 3 分，共 6 分）

1. 一加一等于几？
A. 1
B. 2

2. 二加二等于几？
A. 4
B. 5

## 多选题（每题 5 分，共 5 分）

1. 哪些是偶数？
A. 2
B. 3
C. 4

## 填空题（每空 2 分，共 4 分）

1. Python 中，用于表示注释的符号是 ____。
2. Python 中，用于表示空值的关键字是 ____。

=========================参考答案=========================

## 单选题答案：

1. B
2. A

## 多选题答案：

1. A、C

## 空题答案：

1. `#`
2. `None`
"""


def _read(tmp_path, text: str):
    path = tmp_path / "paper.md"
    path.write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink)
    return path, read, sink


def _answers(quiz) -> list[tuple[str, list[str]]]:
    """Each question's section title and its right answers (choices' texts, or a blank's)."""
    found = []
    for section in quiz.sections:
        for q in section.questions:
            if hasattr(q, "choices"):
                found.append((section.title, [c.text for c in q.choices if c.correct]))
            else:
                found.append((section.title, [a for blank in q.blanks for a in blank.answers]))
    return found


def test_each_part_answers_the_section_it_names(tmp_path):
    _, read, sink = _read(tmp_path, PAPER)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    quiz, _ = read
    # Numbers restart in each section: part 1's "1. B" is section 1's question 1, part 2's "1. A、C"
    # section 2's question 1 (A and C: '2' and '4'), the key's "空题" the section "填空题".
    assert _answers(quiz) == [
        ("单选题", ["2"]), ("单选题", ["4"]),
        ("多选题", ["2", "4"]),
        ("填空题", ["#"]), ("填空题", ["None"]),
    ]


def test_moodle_grades_the_keyed_answers_right(tmp_path):
    path, _, _ = _read(tmp_path, PAPER)
    outputs = build_all(tmp_path, path)
    questions = [engine.read_question(q) for q in outputs.moodle.iter("question") if q.get("type") != "category"]
    first, second, evens, comment, none = questions
    assert engine.grade(first, {1}) == 1.0 and engine.grade(first, {0}) == 0.0
    assert engine.grade(second, {0}) == 1.0 and engine.grade(second, {1}) == 0.0
    assert engine.grade(evens, {0, 2}) == 1.0 and engine.grade(evens, {0, 1, 2}) < 1.0
    assert engine.grade(comment, {1: "#"}) == 1.0 if comment.qtype == "cloze" else engine.grade(comment, "#") == 1.0
    assert engine.grade(none, {1: "None"}) == 1.0 if none.qtype == "cloze" else engine.grade(none, "None") == 1.0


def test_the_questions_indented_as_pasted_are_the_sections_questions(tmp_path):
    # Pasted from a word processor, the fill-in questions are indented by two spaces; in a section
    # whose title names their type, each numbered line with a blank is a question (before, they
    # were the section's introduction, and the key's entries answered nothing).
    text = PAPER.replace("1. Python 中，用于表示注释", "  1. Python 中，用于表示注释").replace(
        "2. Python 中，用于表示空值", "  2. Python 中，用于表示空值")
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    assert _answers(read[0])[3:] == [("填空题", ["#"]), ("填空题", ["None"])]


def test_an_indented_list_with_blanks_outside_a_typed_section_stays_text(tmp_path):
    # Instructions in the paper's head ("  1. 姓名：____") are no questions: the quiz's introduction
    # names no question type.
    text = PAPER.replace("## 单选题（每题 3 分，共 6 分）", "  1. 姓名：________\n  2. 学号：________\n\n## 单选题（每题 3 分，共 6 分）")
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    quiz, _ = read
    assert "姓名" in quiz.description and len(_answers(quiz)) == 5


def test_a_part_naming_no_section_is_an_error_at_its_line(tmp_path):
    text = PAPER.replace("## 多选题答案：", "## 判断题答案：")
    code, reported = check_source(tmp_path, "paper.md", text)
    assert code == 1
    line = text.splitlines().index("## 判断题答案：") + 1
    part = [r for r in reported if r.line == line]
    assert [r.code for r in part] == ["QB187"], reported
    assert "names no section" in part[0].message and "'多选题'" in part[0].message
    # Its entry answers no other section's question 1: that question is left without an answer.
    assert any(r.code == "QB120" and r.line == text.splitlines().index("1. 哪些是偶数？") + 1 for r in reported)


def test_an_entry_its_section_does_not_have_is_an_error_not_another_sections_answer(tmp_path):
    # Section 2 has one question; "2. B" in its part must not answer section 1's question 2.
    text = PAPER.replace("1. A、C\n", "1. A、C\n2. B\n").replace("1. B\n2. A\n", "1. B\n")
    code, reported = check_source(tmp_path, "paper.md", text)
    assert code == 1
    line = text.splitlines().index("2. B") + 1
    assert [(r.code, r.line) for r in reported if r.code == "QB187"] == [("QB187", line)], reported
    assert "answers the section '多选题', which has no question 2" in next(r.message for r in reported if r.code == "QB187")
    assert any(r.code == "QB120" and r.line == text.splitlines().index("2. 二加二等于几？") + 1 for r in reported)


def test_a_part_named_like_two_sections_is_an_error(tmp_path):
    text = PAPER.replace("## 多选题答案：", "## 选题答案：")
    code, reported = check_source(tmp_path, "paper.md", text)
    line = text.splitlines().index("## 选题答案：") + 1
    assert code == 1 and any(r.code == "QB187" and r.line == line and "names 2 sections" in r.message for r in reported), reported


def test_a_section_after_a_key_that_starts_with_its_questions_stays_a_section(tmp_path):
    # A key after section 1, then section 2 named as section 1 is: its "1. …" has options under it,
    # so it is a question, and the heading the next section's, not a part of the key.
    text = """---
title: 시험
---

## 객관식

1. 하나?
① 가
② 나

[정답]
1. ②

## 객관식

1. 둘?
① 다
② 라

정답: ①
"""
    _, read, sink = _read(tmp_path, text)
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    quiz, _ = read
    assert [(s.title, [c.text for q in s.questions for c in q.choices if c.correct]) for s in quiz.sections] == [
        ("객관식", ["나"]), ("객관식", ["다"])]


@pytest.mark.parametrize("language", ["ko", "ja", "zh"])
def test_the_new_errors_print_in_the_teachers_language(tmp_path, language):
    for broken in (PAPER.replace("## 多选题答案：", "## 判断题答案："),
                   PAPER.replace("1. A、C\n", "1. A、C\n2. B\n"),
                   PAPER.replace("## 多选题答案：", "## 选题答案：")):
        code, reported = check_source(tmp_path, "paper.md", broken, "--lang", language)
        message = next(r for r in reported if r.code == "QB187")
        for english in ("answer key's part", "names no section", "which has no question", "names 2 sections",
                        "name the part", "number the part's entries"):
            assert english not in message.message and english not in (message.hint or ""), message


def test_import_of_the_pasted_paper_keeps_every_answer(tmp_path):
    (tmp_path / "paper.txt").write_text(PAPER.split("---\n", 2)[2], encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert "imported 5 questions" in out + err
    _, read, sink = _read(tmp_path, (tmp_path / "out" / "paper.md").read_text(encoding="utf-8"))
    assert read is not None and not sink.errors
    assert [a for _, a in _answers(read[0])] == [["2"], ["4"], ["2", "4"], ["#"], ["None"]]
