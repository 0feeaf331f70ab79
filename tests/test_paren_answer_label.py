"""``답) ①`` and ``정답) ②``: Korean papers close the answer label with a parenthesis as often as with
a colon. Before, the line was text after the options (QB117) and the question had no answer
(QB120). Now an answer label closed by ``)`` is that label; a single Latin letter so closed is an
option (``A) text``), and only answer labels take the form (``풀이)`` over a text may be a heading
students read)."""

from __future__ import annotations

from helpers import moodle_engine as engine
from helpers.cli import check_source, run
from helpers.outputs import build_all

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAPER = """중간고사

문1) 대한민국의 수도는?
① 서울 ② 부산 ③ 대구 ④ 광주
답) ①

문2) 다음 중 짝수는?
① 1
② 2
③ 3
정답）②
"""


def test_a_pasted_paper_with_parenthesised_answer_labels_imports(tmp_path):
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", cwd=tmp_path)
    assert code == 0, err
    source = tmp_path / "out" / "paper.md"
    sink = DiagnosticSink()
    read = read_quiz(source, sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    got = [(q.stem, [c.text for c in q.choices if c.correct]) for q in read[0].iter_questions()]
    assert got == [("대한민국의 수도는?", ["서울"]), ("다음 중 짝수는?", ["2"])]
    outputs = build_all(tmp_path, source)
    first, second = [engine.read_question(q) for q in outputs.moodle.iter("question") if q.get("type") != "category"]
    assert (engine.grade(first, {0}), engine.grade(first, {1}), engine.grade(second, {1}), engine.grade(second, {0})) == (
        1.0, 0.0, 1.0, 0.0)
    # The label is no part of what students read.
    assert all("답)" not in outputs.moodle_text(q.id) for q in read[0].iter_questions())


def test_a_letter_closed_by_a_parenthesis_is_still_an_option(tmp_path):
    text = "---\ntitle: T\n---\n\n1. Capital?\nA) Paris\nB) Lyon\n\nAnswer: A\n"
    _, reported = check_source(tmp_path, "quiz.md", text)
    sink = DiagnosticSink()
    (tmp_path / "q.md").write_text(text, encoding="utf-8")
    read = read_quiz(tmp_path / "q.md", sink)
    assert read is not None and not reported
    assert [c.text for q in read[0].iter_questions() for c in q.choices] == ["Paris", "Lyon"]


def test_an_explanation_word_closed_by_a_parenthesis_is_no_label(tmp_path):
    # "풀이)" stays text: under the answer it makes the answer unreadable, an error at its line
    # (the answer '①' alone reads: the line that spoils it is the one reported),
    # never an explanation nobody wrote as one, nor text students read as part of the question.
    text = "---\ntitle: T\n---\n\n1. 수도는?\n① 서울\n② 부산\n답) ①\n풀이) 서울이 수도이다.\n"
    code, reported = check_source(tmp_path, "quiz.md", text, "--lang", "en")
    assert code == 1 and [(r.code, r.line) for r in reported] == [("QB125", 9)], reported
