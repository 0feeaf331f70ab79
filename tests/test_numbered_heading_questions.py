"""Exam papers whose questions are headings that are only their number (``## 19``, ``## Q3 (6)``,
``### Question 5``), each over its text and its options as a Markdown ordered list ``1.`` … ``5.``,
then its answer (``> answer: 2`` and ``> points: 2`` in a blockquote, ``答え：3``, ``Answer: 1``),
read as the teacher wrote them. Before, ``import`` sent such a paper to the quiz-page reader as
soon as a question's passage held a table (or for a ``## Q1`` heading), which read every option
``1. …`` as a question of its own (QB705/QB706 by the dozen); ``build`` read each heading as a
section and each option as a question without options (QB128).

What is read, through the public routes (``import`` of the pasted paper, ``check``/``build`` of the
source it writes: the same model): the heading is the question, the lines under it its text (a
table, a bulleted list, code, statements ``(A) …`` too), the list its options, each named by its
number in the answer; a list under a text that does not ask, some of whose lines ask, is QB188;
``(6)`` after the number is the points only where the paper says its numbers in parentheses are
(else QB189); statements ending in ``○``/``×`` are refused (QB190), never shown as options. The
built outputs grade the keyed answer right, scored by the independent graders of tests/helpers.
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source, run
from helpers.importing import run_import
from helpers.reading import read_clean
from helpers.scoring import Built

from qti_builder import BuildOptions, build
from qti_builder.importers.quizpage.paper import page_form
from qti_builder.model import Quiz

#: A Korean mock exam as its Markdown is typed: a heading that is only the number, a bold question
#: line, a passage holding a table and a bulleted list, options ``1.`` to ``3.``, the answer and
#: points in a blockquote, ``---`` between questions; statements ``(A)`` … before the list; an
#: option that asks (a title ending in ``?``) under a question line that asks.
KO_PAPER = """# 2026 모의고사 영어

## 18

**다음 안내문의 내용과 일치하는 것은?**

**Winter Ski Camp**

| Pass | Price |
|------|-------|
| Day | $30 |
| Week | $120 |

- Lessons start at 9 a.m.
- Helmets are free.

1. A day pass costs $20.
2. A week pass costs $120.
3. Lessons start at noon.

> answer: 2
> points: 2

---

## 19

**주어진 글 다음에 이어질 글의 순서로 가장 적절한 것은? [3점]**

Rivers carry water to the sea.

(A) Then the sea warms.

(B) Rain falls again.

(C) Clouds form above it.

1. (A) － (C) － (B)
2. (B) － (A) － (C)
3. (C) － (B) － (A)

> answer: 1
> points: 3

---

## 20

**다음 글의 제목으로 가장 적절한 것은?**

Reading slowly helps memory.

1. Why Do We Read Slowly?
2. Speed Is Everything
3. Books Are Heavy

> answer: 1
> points: 2
"""

#: A Japanese final exam: the legend that the numbers in parentheses are points, ``## Q1 (4)``
#: with a number for its answer (``{type=numerical unit=KiB}``: the author says it is graded as a
#: number, in KiB),
#: ``## Q3 (6)`` with code in its text and ``答え：3``, and options ``(a)``, ``(b)`` that look like
#: an answer key's entries ``2. (b)``.
JA_PAPER = """# プログラミング 期末試験

丸かっこ内の数字は配点です。

## Q1 (4) {type=numerical unit=KiB}

1MiBは何KiBですか？答えなさい。

答え：1024

## Q3 (6)

次のRコードを実行したときに得られる出力として正しいものを一つ選びなさい。

```R
x <- c(1,2,3)
x[2] <- 0
print(x)
```

1. `[1] 1 2 0`
2. `[1] 1 0 3`
3. `[1] 0 2 3`

答え：2

## Q4 (5)

下線部(a)〜(c)のうち、誤っているものはどれか？

1. (a)
2. (b)
3. (c)

答え：3
"""

#: English, with the question word: ``### Question 5 (3 points)`` and ``## 6`` in one paper.
EN_PAPER = """# Biology quiz

### Question 5 (3 points)

Which organelle makes energy for the cell?

1. Nucleus
2. Mitochondrion
3. Ribosome

Answer: 2

## 6

Which of these is a plant cell's wall made of?

1. Cellulose
2. Keratin

Answer: 1
"""


def _questions(quiz: Quiz) -> list[tuple[str, str, list[str], list[str], float]]:
    return [(q.type, q.stem, [c.text for c in getattr(q, "choices", [])], [c.text for c in getattr(q, "choices", []) if c.correct],
             q.points) for q in quiz.iter_questions()]


def _imported(tmp_path: Path, text: str, name: str = "paper.md") -> tuple[Quiz, Path]:
    """The quiz ``import`` reads from the pasted paper, and the source it writes."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    quizzes, sink = run_import(tmp_path / name)
    assert not sink.errors, [d.render() for d in sink.items]
    code, out, err = run("import", name, "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, out + err
    (source,) = (tmp_path / "out").glob("*.md")
    return quizzes[0].quiz, source


def _grades(tmp_path: Path, source: Path) -> list[tuple[dict[str, float], dict[str, float]]]:
    """For each choice question: what QTI 2.1, Moodle and Canvas give its right option and its
    first wrong option, as the independent graders score them, each output worth its points."""
    dist = tmp_path / "dist"
    result = build(BuildOptions(sources=[source], out_dir=dist, jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    quiz = read_clean(source)
    built = Built.read(quiz, dist)
    grades = []
    for q in quiz.iter_questions():
        if not hasattr(q, "choices"):
            continue
        assert (built.canvas_points(q), built.moodle_question(q).mark) == (q.points, q.points), q.id
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        wrong = frozenset({next(i for i, c in enumerate(q.choices) if not c.correct)})
        grades.append(({t: built.score(t, q, right) for t in ("qti21", "moodle", "canvas")},
                       {t: built.score(t, q, wrong) for t in ("qti21", "moodle", "canvas")}))
    return grades


def _errors(tmp_path: Path, text: str, name: str = "paper.md") -> list[str]:
    """``import``'s errors for a pasted paper (it fails, and writes nothing)."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, _, err = run("import", name, "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 1 and not (tmp_path / "out").exists(), err
    return [line for line in err.splitlines() if "error[" in line]


# -- the papers read as written --------------------------------------------------------------------------


def test_a_korean_paper_of_number_headings_imports_as_written(tmp_path: Path) -> None:
    imported, source = _imported(tmp_path, KO_PAPER)
    table = "| Pass | Price |\n|------|-------|\n| Day | $30 |\n| Week | $120 |"
    assert _questions(imported) == [
        # The table and the bulleted list are the passage of question 18, not a web page's form.
        ("single_choice", "**다음 안내문의 내용과 일치하는 것은?**\n\n**Winter Ski Camp**\n\n" + table
         + "\n\n- Lessons start at 9 a.m.\n- Helmets are free.",
         ["A day pass costs $20.", "A week pass costs $120.", "Lessons start at noon."], ["A week pass costs $120."], 2),
        # (A) (B) (C) before the list are statements of the text; the list is the options.
        ("single_choice", "**주어진 글 다음에 이어질 글의 순서로 가장 적절한 것은? [3점]**\n\nRivers carry water to the sea.\n\n"
         "(A) Then the sea warms.\n\n(B) Rain falls again.\n\n(C) Clouds form above it.",
         ["(A) － (C) － (B)", "(B) － (A) － (C)", "(C) － (B) － (A)"], ["(A) － (C) － (B)"], 3),
        # The question line asks, so an option that asks is still an option.
        ("single_choice", "**다음 글의 제목으로 가장 적절한 것은?**\n\nReading slowly helps memory.",
         ["Why Do We Read Slowly?", "Speed Is Everything", "Books Are Heavy"], ["Why Do We Read Slowly?"], 2),
    ]
    assert [q.numbering for q in imported.iter_questions()] == ["decimal"] * 3
    # build reads the written source into the same model.
    assert read_clean(source).model_dump() == imported.model_dump()


def test_the_written_source_is_the_paper_and_checks_clean(tmp_path: Path) -> None:
    _, source = _imported(tmp_path, KO_PAPER)
    written = source.read_text(encoding="utf-8")
    assert written.startswith("---\ntitle: 2026 모의고사 영어\nlanguage: ko\n---\n")
    assert written.split("---\n", 2)[2].lstrip("\n") == KO_PAPER.split("\n", 1)[1].lstrip("\n")
    code, reported = check_source(tmp_path, "again.md", written)
    assert (code, reported) == (0, [])


def test_each_output_grades_the_korean_papers_keyed_answers_right(tmp_path: Path) -> None:
    grades = _grades(tmp_path, _imported(tmp_path, KO_PAPER)[1])
    assert len(grades) == 3
    for right, wrong in grades:
        assert right == {"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}
        assert wrong == {"qti21": 0.0, "moodle": 0.0, "canvas": 0.0}


def test_a_japanese_paper_reads_its_points_legend_code_and_number_answer(tmp_path: Path) -> None:
    imported, source = _imported(tmp_path, JA_PAPER)
    questions = list(imported.iter_questions())
    assert [(q.type, q.points) for q in questions] == [("numerical", 4), ("single_choice", 6), ("single_choice", 5)]
    assert questions[0].stem == "1MiBは何KiBですか？答えなさい。"
    assert [(a.value, a.tolerance) for a in questions[0].answers] == [(1024, 0)] and questions[0].unit == "KiB"
    assert questions[1].stem == ("次のRコードを実行したときに得られる出力として正しいものを一つ選びなさい。\n\n"
                                 "```R\nx <- c(1,2,3)\nx[2] <- 0\nprint(x)\n```")
    assert [(c.text, c.correct) for c in questions[1].choices] == [("`[1] 1 2 0`", False), ("`[1] 1 0 3`", True),
                                                                    ("`[1] 0 2 3`", False)]
    # ``2. (b)`` is option 2, not an answer key's entry for question 2.
    assert [(c.text, c.correct) for c in questions[2].choices] == [("(a)", False), ("(b)", False), ("(c)", True)]
    assert read_clean(source).model_dump() == imported.model_dump()
    grades = _grades(tmp_path, source)
    assert [right for right, _ in grades] == [{"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}] * 2
    assert [wrong for _, wrong in grades] == [{"qti21": 0.0, "moodle": 0.0, "canvas": 0.0}] * 2
    # The number answer is graded as a number: 1024 right, 1000 wrong, in each output.
    quiz = read_clean(source)
    built = Built.read(quiz, tmp_path / "dist")
    number = next(quiz.iter_questions())
    assert {t: built.score(t, number, 1024) for t in ("qti21", "moodle", "canvas")} == {"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}
    assert {t: built.score(t, number, 1000) for t in ("qti21", "moodle", "canvas")} == {"qti21": 0.0, "moodle": 0.0, "canvas": 0.0}


def test_an_english_paper_with_question_word_and_bare_number_headings(tmp_path: Path) -> None:
    imported, source = _imported(tmp_path, EN_PAPER)
    assert _questions(imported) == [
        ("single_choice", "Which organelle makes energy for the cell?", ["Nucleus", "Mitochondrion", "Ribosome"],
         ["Mitochondrion"], 3),
        ("single_choice", "Which of these is a plant cell's wall made of?", ["Cellulose", "Keratin"], ["Cellulose"], 1),
    ]
    assert read_clean(source).model_dump() == imported.model_dump()


# -- routing: which reader reads a paper -------------------------------------------------------------------


def test_a_table_in_a_passage_leaves_a_paper_to_the_exam_reader_and_a_key_table_makes_a_page() -> None:
    assert page_form(KO_PAPER, markdown=True) is None
    assert page_form(JA_PAPER, markdown=True) is None
    keyed = KO_PAPER + "\n| No | Answer |\n|----|--------|\n| 18 | 2 |\n"
    assert page_form(keyed, markdown=True) == "a table at line 60"
    options = "1. Which is a noun?\n\n| A | house |\n|---|---|\n| B | quickly |\n"
    assert page_form(options, markdown=True) == "a table at line 3"


def test_question_headings_the_page_reader_reads_stay_a_page() -> None:
    # ``## Question 1`` over options ``- A)``: both readers read it; the page reader, as before.
    page = "# Quiz\n\n## Question 1\n\nWhich is even?\n\n- A) 3\n- B) 4\n\nAnswer: B\n"
    assert page_form(page, markdown=True) == "a question heading at line 3"
    # Over a list ``1.`` the page reader would read as questions, they are the exam reader's.
    assert page_form(EN_PAPER, markdown=True) is None


# -- what cannot be told is an error at its place -----------------------------------------------------------


def test_a_list_under_a_text_that_does_not_ask_some_of_whose_lines_ask_is_ambiguous(tmp_path: Path) -> None:
    paper = ("# Quiz\n\n## 7\n\nRead the text and answer.\n\n1. What is a noun?\n2. house\n3. quickly\n\nAnswer: 2\n\n"
             "## 8\n\nWhich number is even?\n\n1. 3\n2. 4\n\nAnswer: 2\n")
    found = _errors(tmp_path, paper)
    assert len(found) == 1 and found[0].startswith("paper.md:3:4: error[QB188]: the lines numbered '1.', '2.', … under the heading")


def test_a_number_heading_over_questions_stays_a_section(tmp_path: Path) -> None:
    source = tmp_path / "sections.md"
    source.write_text("---\ntitle: T\n---\n\n## 5\n\n1. Is 7 prime?\n\nAnswer: true\n\n2. Is 9 prime?\n\nAnswer: false\n",
                      encoding="utf-8")
    quiz = read_clean(source)
    assert [(s.title, [(q.type, q.stem) for q in s.questions]) for s in quiz.sections] == [
        ("5", [("true_false", "Is 7 prime?"), ("true_false", "Is 9 prime?")])]


def test_a_bare_number_in_parentheses_without_the_papers_legend_is_an_error(tmp_path: Path) -> None:
    found = _errors(tmp_path, JA_PAPER.replace("丸かっこ内の数字は配点です。\n", ""))
    assert found == [
        "paper.md:4:8: error[QB189]: '(4)' after the question's number does not say what it is: the paper does not "
        "say that its numbers in parentheses are points",
        "paper.md:10:8: error[QB189]: '(6)' after the question's number does not say what it is: the paper does not "
        "say that its numbers in parentheses are points",
        "paper.md:26:8: error[QB189]: '(5)' after the question's number does not say what it is: the paper does not "
        "say that its numbers in parentheses are points",
    ]


def test_points_with_their_unit_need_no_legend_and_must_agree_with_the_blockquote(tmp_path: Path) -> None:
    paper = "# テスト\n\n## Q1 (6点)\n\nどれか？\n\n1. a\n2. b\n\n> answer: 2\n> points: 5\n"
    found = _errors(tmp_path, paper)
    assert found == ["paper.md:11:11: error[QB184]: the points '5' differ from the points '6' stated for the question above"]
    imported, _ = _imported(tmp_path, paper.replace("> points: 5", "> points: 6"), "agree.md")
    assert [(q.points, [c.correct for c in q.choices]) for q in imported.iter_questions()] == [(6, [False, True])]


def test_statements_marked_true_or_false_are_one_matching_question_never_shown(tmp_path: Path) -> None:
    # Each statement ends in its mark: one matching question, each statement a prompt and its mark
    # the answer, both marks the choices; the marks never show in a statement (QB190 before).
    paper = ("# テスト\n\n## Q1 (2点)\n\nどれか？\n\n1. a\n2. b\n\n答え：1\n\n## Q2\n\n"
             "正しい記述には○を、誤った記述には×をつけなさい。\n\n1. アセンブルは可逆変換である。○\n2. RはPythonである。×\n\n"
             "## Q3\n\nTrueになるものにはT、FalseになるものにはFと答えなさい。\n\n1. `1 < 2` T\n2. `2 < 1` T\n")
    imported, source = _imported(tmp_path, paper)
    first, marked, letters = imported.iter_questions()
    assert (marked.type, [(p.prompt, p.answer) for p in marked.pairs], marked.distractors) == (
        "matching", [("アセンブルは可逆変換である。", "○"), ("RはPythonである。", "×")], [])
    # Both statements true: F is still a choice, so that students choose.
    assert (letters.type, [(p.prompt, p.answer) for p in letters.pairs], letters.distractors) == (
        "matching", [("`1 < 2`", "T"), ("`2 < 1`", "T")], ["F"])


def test_a_task_heading_with_points_is_no_question_number(tmp_path: Path) -> None:
    # ``## Exercice 1 (2 points)`` names a task: its numbered lines are its questions (here without
    # answers: each its own error), never options of a question the heading would be (QB188).
    paper = "# Examen\n\n## Exercice 1 (2 points)\n\nLes questions valent 1 point.\n\n1. Expliquez une variable.\n" \
            "2. Qu'est-ce qu'une fonction ?\n"
    assert _errors(tmp_path, paper) == ["paper.md:7:1: error[QB128]: the question has no options and no answer",
                                        "paper.md:8:1: error[QB128]: the question has no options and no answer"]


def test_an_answer_naming_one_of_two_marked_parts_is_an_error_not_an_essay(tmp_path: Path) -> None:
    # The passage marks two parts, ① and ②, and the answer names part ②: no option lists it, so it
    # is QB173 at the answer, never an essay whose model answer is "2" (QB171 before). Three marks
    # or more are the question's options (tests/test_marked_parts.py).
    paper = ("# 모의고사\n\n## 29\n\n**다음 글의 밑줄 친 부분 중, 어법상 틀린 것은?**\n\n"
             "We are ①**smart** and ②**being** here.\n\n> answer: 2\n> points: 2\n")
    assert _errors(tmp_path, paper) == ["paper.md:9:11: error[QB173]: the answer '2' names an option, but the question has no options"]


def test_korean_question_word_headings_keep_their_numbers_and_points(tmp_path: Path) -> None:
    source = ("---\ntitle: 국어\nlanguage: ko\n---\n\n### 문제 5 (3점)\n\n다음 중 맞춤법이 옳은 것은?\n\n1. 되요\n2. 돼요\n\n정답: 2\n\n"
              "### 문제 6\n\n다음 중 옳은 것은?\n\n1. 안되\n2. 안 돼\n\n정답: 2\n")
    (tmp_path / "mun.md").write_text(source, encoding="utf-8")
    code, out, err = run("check", "mun.md", "--outline", "--lang", "en", cwd=tmp_path)
    assert code == 0, out + err
    assert out.splitlines()[2:5] == ["  5. single choice | answer 2 | 3 points | lines 6-13",
                                     "  6. single choice | answer 2 | 1 point | lines 15-22",
                                     "total: 2 questions, 4 points"]
    quiz = read_clean(tmp_path / "mun.md")
    assert _questions(quiz) == [("single_choice", "다음 중 맞춤법이 옳은 것은?", ["되요", "돼요"], ["돼요"], 3),
                                ("single_choice", "다음 중 옳은 것은?", ["안되", "안 돼"], ["안 돼"], 1)]


def test_another_tools_metadata_under_the_title_is_said_and_left_out(tmp_path: Path) -> None:
    # The paper's title, then an exam tool's front matter (its id, subject, duration): never the
    # quiz's description students read.
    paper = "# 2026 모의고사\n\n---\nexamId: mock-1\nduration: 70\n---\n\n" + KO_PAPER.split("\n", 2)[2]
    (tmp_path / "meta.md").write_text(paper, encoding="utf-8")
    code, out, err = run("import", "meta.md", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, out + err
    assert [line for line in err.splitlines() if "warning[" in line] == [
        "meta.md:4:1: warning[QB711]: front-matter key 'examId' under the paper's title is another tool's metadata, no part "
        "of a quiz: left out of the source",
        "meta.md:5:1: warning[QB711]: front-matter key 'duration' under the paper's title is another tool's metadata, no part "
        "of a quiz: left out of the source"]
    written = (tmp_path / "out" / "meta.md").read_text(encoding="utf-8")
    assert "examId" not in written and "duration" not in written
    quiz = read_clean(tmp_path / "out" / "meta.md")
    assert quiz.description is None and len(list(quiz.iter_questions())) == 3


def test_a_quotation_in_a_questions_text_stays_text(tmp_path: Path) -> None:
    # A blockquote that is not labels alone (a dialogue quoted in the text) is the text's, even
    # where one of its lines looks like a label.
    source = tmp_path / "quote.md"
    source.write_text("---\ntitle: T\nlanguage: ko\n---\n\n## 3\n\n**다음 대화의 빈칸에 알맞은 것은?**\n\n"
                      "> 민수: 어디 가니?\n> 답: 도서관에 가.\n\n1. 예\n2. 아니오\n\n> answer: 1\n", encoding="utf-8")
    quiz = read_clean(source)
    assert _questions(quiz) == [("single_choice", "**다음 대화의 빈칸에 알맞은 것은?**\n\n> 민수: 어디 가니?\n> 답: 도서관에 가.",
                                 ["예", "아니오"], ["예"], 1)]


def test_a_number_with_its_unit_asks_how_it_is_graded_and_says_what_each_lms_grades(tmp_path: Path) -> None:
    # ``答え：1024(KiB)``: the reader does not guess whether students type the unit.
    paper = "# テスト\n\n## Q1 (4点)\n\n1MiBは何KiBですか？\n\n答え：1024(KiB)\n"
    (tmp_path / "paper.md").write_text(paper, encoding="utf-8")
    code, _, err = run("import", "paper.md", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 1 and err.splitlines()[:2] == [
        "paper.md:7:4: error[QB175]: the answer '1024(KiB)' is a number with its unit: say whether students type the number "
        "(graded as a number) or write an essay (graded by hand)",
        "    hint: to grade the number, add {type=numerical unit=KiB} to the question line and write the answer '1024' "
        "(Moodle accepts it with or without the unit; Canvas and QTI 2.1 grade the number); or add {type=essay} to make it "
        "an essay's model answer"]


def test_statements_marked_and_answered_besides_are_an_error_at_the_answer(tmp_path: Path) -> None:
    # ``## 1. …`` over ``1) … O`` ``2) … X`` with an answer after: the marks judge each statement,
    # the answer says it a second time (never options showing the marks, nor an answer dropped).
    paper = ("# 퀴즈\n\n## 1. 옳은 것에 O, 틀린 것에 X를 표시하시오.\n1) 물은 100도에서 끓는다. O\n2) 얼음은 50도에서 녹는다. X\n"
             "정답: 1\n\n## 2. 다음 중 짝수는?\n1) 3\n2) 4\n정답: 2\n")
    assert _errors(tmp_path, paper) == [
        "paper.md:6:5: error[QB190]: the statements are judged by the marks at their ends: the answer '1' says it a second time"]


def test_the_abbreviated_answer_label_with_its_full_stop(tmp_path: Path) -> None:
    # ``Ans. 2`` as a Japanese exam prints it: the answer label, its full stop for a colon.
    imported, source = _imported(tmp_path, "# テスト\n\n## Q1\n\nどれか？\n\n1. 3\n2. 4\n\nAns. 2\n\n"
                                 "## Q2 {type=numerical}\n\n10GiBは何MiBですか？\n\nAns. 10240\n")
    questions = list(imported.iter_questions())
    assert [(q.type, q.points) for q in questions] == [("single_choice", 1), ("numerical", 1)]
    assert [c.correct for c in questions[0].choices] == [False, True]
    assert [a.value for a in questions[1].answers] == [10240]
    assert read_clean(source).model_dump() == imported.model_dump()
