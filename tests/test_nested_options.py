"""A paper converted from Word by pandoc writes each question as a numbered list item and its
options as a numbered list indented under it, the right ones in bold (``1.  …은?`` then
``    1.  process`` ``    4.  **program**``). Before, the options were the question's text: every
question failed with QB128 (no options, no answer), and a question that had an answer another way
would have shown its options with the answer in bold.

What is read, through the public routes (``import`` of the pasted paper; ``check`` and ``build`` of
a source): the indented list is the question's options when some of its items are wholly in bold,
and the bold ones are its answer (two or more: multiple response), shown to students without the
bold. A list all in bold is all right where the paper marks its answers in bold elsewhere, and
stays text where it does not. Markers the items write inside them (``1.   A、…``) are the options'
own. A list without bold stays the question's text, as docs/source-format.md's "Lists in
questions" says. An answer that names other options than the bold ones is an error at the answer
(QB191). Options at the margin in bold, some of them, are the answer of a question without one;
with an answer, their bold is the author's and is kept. The built outputs grade the bold answers
right, scored by the independent graders of tests/helpers.
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source
from helpers.importing import imported_source
from helpers.reading import read_clean
from helpers.scoring import Built
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.model import Quiz

#: A Korean paper as pandoc writes it: list items with two spaces after the number, options indented
#: under them, answers in bold (one with a space before its closing mark, as converted papers have),
#: a question listing ``①`` ``②`` in its text over its option list, code before the options, ``---``
#: before the next chapter, a "모두 고르시오" question whose options are all right.
KO_PAPER = """# 운영체제 퀴즈

## 1장

1.  A _____ is the core of an operating system.
    1.  **kernel**
    2.  shell
    3.  bootstrap

2.  범용 컴퓨터에 필요한 게이트 집합을 모두 고르시오.

    1.  **NOT, AND, OR**
    2.  NOT, XOR
    3.  **NAND**

3.  다음 프로그램의 출력은?

    ```c
    printf("%d", 1 + 1);
    ```

    1.  1
    2.  **2 **

---

## 2장

1.  ① 이것을 획득하여 임계구역을 보호한다. ② 이 성질을 무엇이라 하는가?

    1.  **locking, atomicity**
    2.  busy waiting, atomicity

2.  가능한 count 값을 모두 고르시오.

    1.  **4**
    2.  **5**
"""

#: A Chinese paper: each option writes its letter inside the list item (``1.   A、…``), the list
#: indented by five spaces under ``2.   …``.
ZH_PAPER = """# 计算机基础

1.   在典型的层次化存储系统中，（ ）一般位于中央处理机内。
     1.   A、高速缓存、主存储器
     2.   **B、寄存器、高速缓存**
     3.   C、寄存器、主存储器

2.   软盘存储器属于（ ）。
     1.   **A、磁表面存储器**
     2.   B、光存储器
"""


def _questions(quiz: Quiz) -> list[tuple[str, str, list[str], list[str]]]:
    return [(q.type, q.stem, [c.text for c in q.choices], [c.text for c in q.choices if c.correct]) for q in quiz.iter_questions()]


def test_a_pasted_paper_reads_its_indented_options_and_bold_answers(tmp_path: Path) -> None:
    quiz = read_clean(imported_source(tmp_path, KO_PAPER))
    assert [s.title for s in quiz.sections] == ["1장", "2장"]
    assert _questions(quiz) == [
        ("single_choice", "A _____ is the core of an operating system.", ["kernel", "shell", "bootstrap"], ["kernel"]),
        ("multiple_response", "범용 컴퓨터에 필요한 게이트 집합을 모두 고르시오.", ["NOT, AND, OR", "NOT, XOR", "NAND"],
         ["NOT, AND, OR", "NAND"]),
        # The code is the question's; the space before the closing ``**`` is no part of the option.
        ("single_choice", '다음 프로그램의 출력은?\n\n```c\nprintf("%d", 1 + 1);\n```', ["1", "2"], ["2"]),
        # ``①`` and ``②`` in the text, over an option list: the text's own, not two options.
        ("single_choice", "① 이것을 획득하여 임계구역을 보호한다. ② 이 성질을 무엇이라 하는가?",
         ["locking, atomicity", "busy waiting, atomicity"], ["locking, atomicity"]),
        # All in bold, in a paper that marks its answers in bold: every option is right.
        ("multiple_response", "가능한 count 값을 모두 고르시오.", ["4", "5"], ["4", "5"]),
    ]
    assert all(q.numbering == "decimal" for q in quiz.iter_questions())  # shown 1. 2. 3., as printed


def test_options_that_write_their_own_letter_are_lettered(tmp_path: Path) -> None:
    quiz = read_clean(imported_source(tmp_path, ZH_PAPER))
    assert _questions(quiz) == [
        ("single_choice", "在典型的层次化存储系统中，（ ）一般位于中央处理机内。",
         ["高速缓存、主存储器", "寄存器、高速缓存", "寄存器、主存储器"], ["寄存器、高速缓存"]),
        ("single_choice", "软盘存储器属于（ ）。", ["磁表面存储器", "光存储器"], ["磁表面存储器"]),
    ]
    assert [q.numbering for q in quiz.iter_questions()] == [None, None]  # the default: lettered A. B. C.


def test_the_written_source_is_the_paper_and_checks_clean(tmp_path: Path) -> None:
    source = imported_source(tmp_path, KO_PAPER)
    written = source.read_text(encoding="utf-8")
    assert written.split("---\n", 2)[2].lstrip("\n") == KO_PAPER.split("\n", 1)[1].lstrip("\n")
    assert check_source(tmp_path, "again.md", written) == (0, [])


def test_the_outputs_grade_the_bold_answers_right_and_show_no_bold(tmp_path: Path) -> None:
    source = imported_source(tmp_path, KO_PAPER)
    dist = tmp_path / "dist"
    result = build(BuildOptions(sources=[source], out_dir=dist, jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    quiz = read_clean(source)
    built = Built.read(quiz, dist)
    for q in quiz.iter_questions():
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        assert {t: built.score(t, q, right) for t in ("qti21", "moodle", "canvas")} == \
            {"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}, q.id
        wrong = [i for i, c in enumerate(q.choices) if not c.correct]
        if wrong:
            assert all(built.score(t, q, frozenset(wrong[:1])) < 1.0 for t in ("qti21", "moodle", "canvas")), q.id
    # What students see of each option: never the bold that gave the answer away.
    moodle = etree.parse(str(next(dist.glob("*.moodle.xml"))))
    answers = [a.findtext("text") for a in moodle.iter("answer")]
    assert len(answers) == 12
    assert not [a for a in answers if "<strong>" in a or "**" in a or "<b>" in a], answers
    assert [q.findtext("answernumbering") for q in moodle.iter("question") if q.get("type") == "multichoice"] == ["123"] * 5


def test_a_list_without_bold_stays_the_question_text(tmp_path: Path) -> None:
    """docs/source-format.md's own example of a list in a question keeps reading as it did."""
    text = "---\ntitle: T\n---\n1. Put the steps in order.\n\n   1. Install the package.\n   2. Write the source.\n\n" \
           "A) 1 then 2\nB) 2 then 1\n\nAnswer: A\n"
    path = tmp_path / "steps.md"
    path.write_text(text, encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert q.stem == "Put the steps in order.\n\n1. Install the package.\n2. Write the source."
    assert [c.text for c in q.choices] == ["1 then 2", "2 then 1"]
    # An indented list without bold under a question without options: still no options (QB128).
    code, reported = check_source(tmp_path, "plain.md", "---\ntitle: T\n---\n1.  Which?\n    1.  kernel\n    2.  shell\n")
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB128", 4, 1)])


def test_a_list_all_in_bold_stays_text_where_the_paper_marks_no_answer_in_bold(tmp_path: Path) -> None:
    code, reported = check_source(tmp_path, "all.md", "---\ntitle: T\n---\n1.  Which?\n    1.  **kernel**\n    2.  **shell**\n")
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB128", 4, 1)])
    # Bold words in an item are no bold option: ``**A** and **B**`` is not ``**A and B**``.
    code, reported = check_source(tmp_path, "words.md",
                                  "---\ntitle: T\n---\n1.  Which?\n    1.  **A** and **B**\n    2.  C\n")
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB128", 4, 1)])


def test_an_answer_that_names_other_options_than_the_bold_is_an_error_at_the_answer(tmp_path: Path) -> None:
    text = "---\ntitle: T\nlanguage: ko\n---\n1.  가장 옳은 것은?\n    1.  가\n    2.  **나**\n    3.  다\n\n" \
           "2.  가장 틀린 것은?\n    1.  **가**\n    2.  나\n\n[정답]\n1. ② 2. ②\n"
    code, reported = check_source(tmp_path, "key.md", text)
    lines = text.split("\n")
    key = lines.index("1. ② 2. ②") + 1
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB191", key, 9)])
    assert reported[0].message == "정답은 2을(를) 가리키지만 굵게 쓴 보기는 1입니다"  # the paper's language
    # The key that agrees: no error, and the bold is taken out all the same.
    path = tmp_path / "agrees.md"
    path.write_text(text.replace("2. ②\n", "2. ①\n"), encoding="utf-8")
    assert [[c.text for c in q.choices if c.correct] for q in read_clean(path).iter_questions()] == [["나"], ["가"]]


def test_bold_options_at_the_margin_answer_a_question_without_an_answer(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. Capital of France?\nA) **Paris**\nB) Lyon\n\n" \
           "2. Which is a noun?\nA) **house**\nB) quickly\n\nAnswer: B\n"
    path = tmp_path / "margin.md"
    path.write_text(text, encoding="utf-8")
    first, second = read_clean(path).iter_questions()
    assert [(c.text, c.correct) for c in first.choices] == [("Paris", True), ("Lyon", False)]
    # With an answer of its own, the bold is the author's emphasis: kept, and not the answer.
    assert [(c.text, c.correct) for c in second.choices] == [("**house**", False), ("quickly", True)]
    # Every option in bold says nothing: still a question without its answer.
    code, reported = check_source(tmp_path, "every.md", "---\ntitle: T\n---\n1. Which?\nA) **x**\nB) **y**\n")
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB120", 4, 1)])


def test_a_question_text_that_shows_its_bold_answers_letter_is_an_error_at_the_letter(tmp_path: Path) -> None:
    """A paper printed with its answers filled in: ``则产生 C。`` where the paper had ``则产生（ ）。``."""
    text = "---\ntitle: T\nlanguage: zh\n---\n1.   当运算结果超过表示范围时，则产生 C。\n     1.   A、进位\n     2.   B、移位\n" \
           "     3.   **C、溢出**\n\n2.   下列关于 C 语言的叙述中，不正确的是（ ）。\n     1.   **A、总是从第一个函数开始执行**\n" \
           "     2.   B、必须含有 main 函数\n"
    code, reported = check_source(tmp_path, "shown.md", text)
    line = text.split("\n").index("1.   当运算结果超过表示范围时，则产生 C。") + 1
    column = "1.   当运算结果超过表示范围时，则产生 C。".index("C") + 1
    # The second question's ``C 语言`` names no answer of its own (A is): not reported.
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB198", line, column)])
    # In Latin text a letter is a word of the question's (``A or B?``), never taken for a filled blank.
    path = tmp_path / "latin.md"
    path.write_text("---\ntitle: T\n---\n1.  Which is larger, A or B?\n    1.  A. two\n    2.  **B. three**\n", encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert [(c.text, c.correct) for c in q.choices] == [("two", False), ("three", True)]
    assert q.numbering is None  # lettered: the letters are the options' own


def test_a_list_in_a_question_answered_otherwise_stays_its_text(tmp_path: Path) -> None:
    """An answer that names no option (a model answer, a word) says the question is an essay or a
    short answer: a bold item of a list in its text is the author's emphasis, as before."""
    path = tmp_path / "essay.md"
    path.write_text("---\ntitle: T\n---\n1.  Explain the steps.\n    1.  **Install**\n    2.  Write\n\n"
                    "Model answer: First install the package, then write the source.\n", encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert (q.type, q.stem) == ("essay", "Explain the steps.\n1.  **Install**\n2.  Write")  # its lines, dedented
    code, reported = check_source(tmp_path, "word.md", "---\ntitle: T\n---\n1.  Name the first step.\n    1.  **Install**\n"
                                                        "    2.  Write\n\nAnswer: install\n")
    # The word's own error, as for any question without options: never "cannot read the answer".
    assert (code, [r.code for r in reported]) == (1, ["QB175"])


#: A Chinese paper whose options are indented as the nested list of a Markdown converter writes
#: them, ``***`` rules (indented under the list item) between the questions, and its key at the end.
INDENTED_PAPER = """# 概率论期末

1. 有 10 个产品，其中 2 个次品，任取 2 个都是次品的概率是（ ）。

   A. $\\frac{1}{45}$
   B. $\\frac{1}{5}$
   C. $\\frac{2}{45}$

    ***

2. 设 $A$、$B$ 为两个事件，下列说法正确的是（ ）。

   A. 若 $AB=\\varnothing$，则 $A,B$ 互斥
   B. 若 $AB\\ne\\varnothing$，则 $A,B$ 互斥

    ***

参考答案：1. A　2. A
"""


def test_options_indented_as_a_converted_list_are_the_questions_options(tmp_path: Path) -> None:
    quiz = read_clean(imported_source(tmp_path, INDENTED_PAPER))
    assert _questions(quiz) == [
        ("single_choice", "有 10 个产品，其中 2 个次品，任取 2 个都是次品的概率是（ ）。",
         ["$\\frac{1}{45}$", "$\\frac{1}{5}$", "$\\frac{2}{45}$"], ["$\\frac{1}{45}$"]),
        ("single_choice", "设 $A$、$B$ 为两个事件，下列说法正确的是（ ）。",
         ["若 $AB=\\varnothing$，则 $A,B$ 互斥", "若 $AB\\ne\\varnothing$，则 $A,B$ 互斥"], ["若 $AB=\\varnothing$，则 $A,B$ 互斥"]),
    ]


def test_indented_lines_that_are_no_option_list_stay_text(tmp_path: Path) -> None:
    # Statements indented under the question, then its own options at the margin: statements.
    path = tmp_path / "statements.md"
    path.write_text("---\ntitle: T\nlanguage: ko\n---\n1. 옳은 것을 고르시오.\n   ㄱ. 가\n   ㄴ. 나\n\n① ㄱ\n② ㄴ\n\n정답: ②\n", encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert (q.stem, [c.text for c in q.choices]) == ("옳은 것을 고르시오.\nㄱ. 가\nㄴ. 나", ["ㄱ", "ㄴ"])
    # Marked out of order (A then C): no list of options, still a question without options.
    code, reported = check_source(tmp_path, "gap.md", "---\ntitle: T\n---\n1. Which?\n   A. one\n   C. three\n")
    assert (code, [r.code for r in reported]) == (1, ["QB128"])
