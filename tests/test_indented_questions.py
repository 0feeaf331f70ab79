"""A question's number indented by one to three spaces, as pasted papers drift (Markdown reads such
a line as a list item too), with its options on the next line, is a question: before, in a
section's introduction it and its options became the introduction's text, and the paper imported
without it and without a word. A numbered list without options under it stays text, and a list
in a question's text or explanation stays that block's own, as docs/source-format.md says."""

from __future__ import annotations

from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def _read(tmp_path, text: str):
    path = tmp_path / "paper.md"
    path.write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink)
    assert read is not None and not sink.errors, [str(d) for d in sink.items]
    return read[0]


def _questions(quiz) -> list[tuple[str, list[str], list[str]]]:
    return [(q.stem, [c.text for c in q.choices], [c.text for c in q.choices if c.correct])
            for s in quiz.sections for q in s.questions]


DRIFT = """---
title: 试卷
---

## 单选题

  1. 以下哪个是正确的？
A. 甲
B. 乙

2. 哪个是整数类型？
A. int
B. str

   3. 第三？
A. x
B. y

答案：1. A 2. A 3. B
"""


def test_indented_questions_of_a_pasted_paper_are_its_questions(tmp_path):
    quiz = _read(tmp_path, DRIFT)
    assert quiz.sections[0].description is None
    assert _questions(quiz) == [("以下哪个是正确的？", ["甲", "乙"], ["甲"]),
                                ("哪个是整数类型？", ["int", "str"], ["int"]),
                                ("第三？", ["x", "y"], ["y"])]


def test_import_keeps_them_all(tmp_path):
    (tmp_path / "paper.txt").write_text(DRIFT.split("---\n", 2)[2], encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", cwd=tmp_path)
    assert code == 0, err
    assert "导入 3 道题" in out + err  # said in the paper's language, Chinese, as its messages are


INTRO_LIST = """---
title: Exam
---

# Part 1

Before you start:

  1. Use a pencil.
  2. Phones stay off.

1. Which one is prime?

   Think of the definition:

   1. divisible by 1;
   2. and by itself only.

A) 4
B) 7

Answer: B
Explanation: Seven is prime:

   1. seven is divisible by 1;
   2. and by 7 only.
"""


def test_lists_without_options_stay_text(tmp_path):
    quiz = _read(tmp_path, INTRO_LIST)
    section = quiz.sections[0]
    assert section.description is not None and "1. Use a pencil." in section.description
    assert "2. Phones stay off." in section.description
    (question,) = section.questions
    assert "1. divisible by 1;" in question.stem and "2. and by itself only." in question.stem
    assert [c.text for c in question.choices] == ["4", "7"]
    assert question.feedback.general is not None and "2. and by 7 only." in question.feedback.general
