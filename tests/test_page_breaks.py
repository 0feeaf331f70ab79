"""A paper saved as text from Word or HWP keeps its page breaks as form feeds (U+000C) at the
start of a page's first line. Each was an error (QB102, "not allowed in XML", "delete it"), one per
page: a 4-page paper failed four times over a character no one can see. A page break is layout,
no one's words: it is read as nothing where it stands, and every line keeps the number the
teacher's editor shows. Other control characters stay errors (a vertical tab is Word's manual line
break, whose place in the text matters)."""

from __future__ import annotations

from helpers.cli import check_source, run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAPER = ("1. 물의 끓는점은?\n① 0℃\n② 100℃\n정답: ②\n\n"
         "\f2. 얼음이 녹는 온도는?\n① 0℃\n② 100℃\n정답: ①\n\n"
         "\f3. 1 더하기 1은?\n① 2\n② 3\n정답: ①\n")


def test_a_pasted_paper_with_page_breaks_imports_every_question(tmp_path):
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert "QB102" not in out + err and "imported 3 questions" in out + err
    written = (tmp_path / "out" / "paper.md").read_text(encoding="utf-8")
    assert "\f" not in written
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "out" / "paper.md", sink)
    assert read is not None and not sink.errors
    questions = list(read[0].iter_questions())
    assert [(q.stem, [c.text for c in q.choices if c.correct]) for q in questions] == [
        ("물의 끓는점은?", ["100℃"]), ("얼음이 녹는 온도는?", ["0℃"]), ("1 더하기 1은?", ["2"])]


def test_lines_after_a_page_break_keep_their_numbers(tmp_path):
    # The third question's answer names an option it does not have: reported at its line as the
    # editor numbers it, the page breaks adding no line.
    broken = PAPER.replace("정답: ①\n", "정답: ③\n", 2).replace("정답: ③\n", "정답: ①\n", 1)
    code, reported = check_source(tmp_path, "paper.md", "---\ntitle: 시험\n---\n" + broken)
    assert code == 1
    line = ("---\ntitle: 시험\n---\n" + broken).split("\n").index("정답: ③") + 1
    assert [(r.code, r.line) for r in reported if r.severity == "error"] == [("QB126", line)], reported


def test_a_vertical_tab_is_still_an_error_at_its_place(tmp_path):
    code, reported = check_source(tmp_path, "paper.md", "---\ntitle: 시험\n---\n" + PAPER.replace("물의", "물\v의"))
    assert code == 1
    assert [(r.code, r.line, r.column) for r in reported] == [("QB102", 4, 5)], reported
