"""Reader behaviour the seventh session's sampled mutation run found untested (issue 35): each
test states what an author sees, counted from the text written here."""

from __future__ import annotations

from helpers.cli import check_source

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def test_a_section_after_a_mid_paper_key_is_read_as_the_papers_section(tmp_path):
    # A key after the first section, then the next section with short questions: its heading
    # names no section read, so it ends the key and starts the section (never a part of the key
    # whose "1. 수도?" would be an entry).
    text = ("---\ntitle: 시험\n---\n\n## 객관식\n\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n[정답]\n1. ②\n\n"
            "## 단답형\n\n1. 수도?\n정답: 서울\n")
    (tmp_path / "paper.md").write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "paper.md", sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    quiz, _ = read
    assert [(s.title, [q.stem for q in s.questions]) for s in quiz.sections] == [
        ("객관식", ["물의 끓는점은?"]), ("단답형", ["수도?"])]


def test_a_structure_line_after_an_answer_says_how_to_write_it(tmp_path):
    text = ("---\ntitle: T\n---\n\n1. Which is a gas?\nA) Oxygen\nB) Iron\nAnswer: A\nAnswer Key\n\n"
            "2. Which is a metal?\nA) Oxygen\nB) Iron\nAnswer: B\n")
    code, reported = check_source(tmp_path, "quiz.md", text, "--lang", "en")
    (problem,) = [r for r in reported if r.code == "QB154"]
    assert problem.hint == ("if it belongs to that block, indent it by a few spaces; if it is the paper's structure, write "
                            "it as one of the forms in docs/source-format.md (a section heading such as 'Ⅱ. 단답형' or "
                            "'Part II. Short answer', a question '3. ...')")
