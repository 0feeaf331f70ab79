"""A Markdown file whose front matter another tool wrote (pandoc's ``author``, ``date``,
``header-includes``; Jekyll's or Hugo's ``layout``, ``tags``) imports: each such key is said
(QB711, at its line) and left out of the source, where before each was an error (QB106, "unknown
front-matter key") and the import wrote nothing. A key that misspells a quiz's (``titel``) or a
quiz setting written flat stays the reader's error: the author meant the quiz's."""

from __future__ import annotations

from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAGE = """---
author: |
  Math 51 --
  Tufts University
title: Final Exam
date: 2022-05-09
layout: post
tags: [algebra, final]
---

1. 2 + 2 = ?
A) 3
B) 4

Answer: B

2. Is 7 prime?

Answer: true
"""


def _warnings(err: str) -> list[tuple[int, str]]:
    return [(int(line.split(":")[1]), line.split("'")[1]) for line in err.splitlines() if "warning[QB711]" in line]


def test_another_tools_keys_are_said_and_left_out(tmp_path):
    (tmp_path / "page.md").write_text(PAGE, encoding="utf-8")
    code, out, err = run("import", "page.md", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    # Each key at its own line, as the file numbers it (author's block text is its lines 2-4).
    assert _warnings(err) == [(2, "author"), (6, "date"), (7, "layout"), (8, "tags")], err
    written = (tmp_path / "out" / "page.md").read_text(encoding="utf-8")
    assert written.startswith("---\ntitle: Final Exam\n---\n\n1. 2 + 2 = ?\n")
    for gone in ("author", "Tufts", "date", "layout", "tags"):
        assert gone not in written
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "out" / "page.md", sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    quiz, _ = read
    assert quiz.title == "Final Exam"
    assert [(q.type, q.points) for q in quiz.iter_questions()] == [("single_choice", 1), ("true_false", 1)]
    assert [c.text for q in quiz.iter_questions() if q.type == "single_choice" for c in q.choices if c.correct] == ["4"]


def test_a_problem_below_is_still_reported_at_the_files_own_line(tmp_path):
    # The keys left out do not move the lines read: an answer naming no option is at its line.
    (tmp_path / "page.md").write_text(PAGE.replace("Answer: B", "Answer: C"), encoding="utf-8")
    code, _, err = run("import", "page.md", "-o", "out", "--lang", "en", cwd=tmp_path)
    line = PAGE.split("\n").index("Answer: B") + 1
    assert code == 1 and f"page.md:{line}:9: error[QB126]" in err, err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.md"))


def test_a_misspelled_key_or_a_flat_setting_stays_an_error(tmp_path):
    for key, line in (("titel: Final", 2), ("time_limit: 30", 2)):
        (tmp_path / "page.md").write_text(PAGE.replace("author: |\n  Math 51 --\n  Tufts University\n", key + "\n"),
                                          encoding="utf-8")
        code, _, err = run("import", "page.md", "-o", "out", "--lang", "en", cwd=tmp_path)
        assert code == 1 and f"page.md:{line}:1: error[QB106]" in err, (key, err)


def test_build_keeps_refusing_them(tmp_path):
    # build reads a source: a key that is not the quiz's is an error there (a typo must not pass).
    (tmp_path / "page.md").write_text(PAGE, encoding="utf-8")
    code, _, err = run("check", "page.md", "--lang", "en", cwd=tmp_path)
    assert code == 1 and "page.md:2:1: error[QB106]: unknown front-matter key 'author'" in err, err


def test_the_warning_prints_in_the_teachers_language(tmp_path):
    (tmp_path / "page.md").write_text(PAGE, encoding="utf-8")
    for language, words in (("ko", "퀴즈의 것이 아닙니다"), ("ja", "クイズのものではありません"), ("zh", "不属于测验")):
        code, _, err = run("import", "page.md", "-o", f"out-{language}", "--lang", language, cwd=tmp_path)
        line = next(line for line in err.splitlines() if "warning[QB711]" in line)
        assert code == 0 and words in line and "left out" not in err and "front matter takes" not in err, err
