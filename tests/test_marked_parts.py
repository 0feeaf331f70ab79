"""A question whose text marks its parts ①, ②, ③ … and whose answer names one of them: the
underlined words of a passage (``①**to solve**``, bold where Markdown has no underline), its
sentences (``①As we …``, "which sentence does not belong") or the places a sentence may go
(``( ③ )``). As the paper prints them, the question's options are the marks themselves: students
choose one, shown once (no second numbering). Before, such a question was an error (QB173, "names
an option, but the question has no options"). Fewer than three marks, marks out of order, or a
model answer leave the question as it was.
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source, run
from helpers.reading import read_clean
from helpers.scoring import Built
from lxml import etree

from qti_builder import BuildOptions, build

PAPER = """# 영어 모의고사

## 29

**다음 글의 밑줄 친 부분 중, 어법상 틀린 것은?**

We are not smart enough ①**to solve** the problems that ②**confronting** us, and we ③**rely** on
what others ④**have learned** before us ⑤**to survive**.

> answer: 2
> points: 2

---

## 35

**다음 글에서 전체 흐름과 관계 없는 문장은?**

We start each day with good intentions. ①We plan our time. ②We list our tasks. ③Penguins live
in Antarctica. ④We end the day tired.

> answer: 3
> points: 2

---

## 38

**글의 흐름으로 보아, 주어진 문장이 들어가기에 가장 적절한 곳을 고르시오.**

**But the real clash is between stories.**

Stories beat statistics. ( ① ) Facts rarely win alone. ( ② ) A new story must defeat the old
one. ( ③ ) That is why leaders tell stories.

> answer: 2
> points: 3
"""


def test_the_marks_are_the_options_and_the_answer_names_one(tmp_path: Path) -> None:
    (tmp_path / "paper.md").write_text(PAPER, encoding="utf-8")
    code, out, err = run("import", "paper.md", "-o", "out", cwd=tmp_path)
    assert code == 0, out + err
    source = tmp_path / "out" / "paper.md"
    quiz = read_clean(source)
    assert [([c.text for c in q.choices], [c.text for c in q.choices if c.correct], q.numbering, q.points)
            for q in quiz.iter_questions()] == [
        (["①", "②", "③", "④", "⑤"], ["②"], "none", 2),
        (["①", "②", "③", "④"], ["③"], "none", 2),
        (["①", "②", "③"], ["②"], "none", 3),
    ]
    first = next(iter(quiz.iter_questions()))
    assert "①**to solve**" in first.stem  # the passage keeps its marks, for students to choose from
    dist = tmp_path / "dist"
    result = build(BuildOptions(sources=[source], out_dir=dist, jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    built = Built.read(quiz, dist)
    for q in quiz.iter_questions():
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        assert [built.score(t, q, right) for t in ("qti21", "moodle", "canvas")] == [1.0, 1.0, 1.0], q.id
        assert [built.score(t, q, frozenset({0})) for t in ("qti21", "moodle", "canvas")] == [0.0, 0.0, 0.0], q.id
    # Moodle shows each mark once: no "a." or "1." before "①".
    moodle = etree.parse(str(dist / "paper.moodle.xml"))
    assert [q.findtext("answernumbering") for q in moodle.iter("question") if q.get("type") == "multichoice"] == ["none"] * 3


def test_marks_that_name_no_list_of_parts_leave_the_question_as_it_was(tmp_path: Path) -> None:
    head = "---\ntitle: T\nlanguage: ko\n---\n"
    # Two marks: too few to be the parts a question chooses among; the answer names no option.
    code, reported = check_source(tmp_path, "two.md", head + "1. ①과 ②의 차이를 고르시오.\n\n정답: 2\n")
    assert (code, [r.code for r in reported]) == (1, ["QB173"])
    # Marks out of order are no list of parts either: the answer is a number, as before (QB171).
    code, reported = check_source(tmp_path, "order.md", head + "1. 다음 ①가 ③나 ②다 중 틀린 것은?\n\n정답: 2\n")
    assert (code, [r.code for r in reported]) == (0, ["QB171"])
    # A model answer makes an essay, whatever its text marks.
    path = tmp_path / "essay.md"
    path.write_text(head + "1. ① ② ③ 중 하나를 골라 그 까닭을 쓰시오.\n\n모범답안: 2\n", encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert q.type == "essay"
