"""Lines that Markdown shows as nothing: an HTML comment alone on its line (``<!-- 配点は後で -->``)
and a print page break (``<div style="page-break-before:always"></div>``, as papers kept for
printing put between questions, commented out or not). They are read as the blank lines students
see: never the text of an answer (a comment after ``Answer: A`` made the answer unreadable, QB125)
and never a web page's HTML (a page break sent a whole exam paper to the quiz-page reader, whose
reading of it failed question after question). Inside a code fence they stay the code's.

A list of statements answered by one truth mark for each, in order (``Ans. x x o``), is QB190 at
the answer, as statements that end in their marks are: never an option named by a letter (a
QB126 for each mark).
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source, run
from helpers.reading import read_clean

from qti_builder.importers.quizpage.paper import page_form

PAPER = """# Midterm

1. Which keyword defines a function?
A) func
B) def

Answer: B

<!-- worth 2 points next year -->

<div style="page-break-before:always"></div>

2. What does this print?

```python
<!-- not a comment: Python would choke -->
```

A) an error
B) nothing

Answer: A
<!--<div style="page-break-before:always"></div>-->
"""


def test_comments_and_page_breaks_show_nothing_and_make_no_page(tmp_path: Path) -> None:
    assert page_form(PAPER, True) is None  # an exam paper, read by the one exam reader
    (tmp_path / "paper.md").write_text(PAPER, encoding="utf-8")
    code, out, err = run("import", "paper.md", "-o", "out", cwd=tmp_path)
    assert code == 0, out + err
    quiz = read_clean(tmp_path / "out" / "paper.md")
    assert [(q.stem, [c.text for c in q.choices if c.correct]) for q in quiz.iter_questions()] == [
        ("Which keyword defines a function?", ["def"]),
        ("What does this print?\n\n```python\n<!-- not a comment: Python would choke -->\n```", ["an error"]),
    ]


def test_real_html_still_makes_a_page() -> None:
    page = "# Quiz\n\n<div class=\"quiz\">\n<p>Pick one</p>\n<input type=\"radio\" name=\"q\" checked> A\n</div>\n"
    assert page_form(page, True) == "HTML at line 3"


def test_statements_answered_by_a_truth_mark_each_are_one_matching_question(tmp_path: Path) -> None:
    text = ("---\ntitle: T\nlanguage: ja\n---\n## Q2\n\n正しい記述には○を、誤った記述には×をつけなさい。\n\n"
            "1. Pythonはコンパイル型言語である。\n2. CPythonはC言語で書かれている。\n3. 1バイトは4ビットである。\n\nAns. x o x\n")
    path = tmp_path / "statements.md"
    path.write_text(text, encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    # The paper asks for ○ and ×: its o and x are those marks.
    assert (q.type, [(p.prompt, p.answer) for p in q.pairs]) == ("matching", [
        ("Pythonはコンパイル型言語である。", "×"), ("CPythonはC言語で書かれている。", "○"), ("1バイトは4ビットである。", "×")])
    # One mark short: which statement each mark judges cannot be told.
    code, reported = check_source(tmp_path, "short.md", text.replace("Ans. x o x", "Ans. x o"), "--lang", "en")
    line = text.split("\n").index("Ans. x o x") + 1
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB190", line, 6)])
    assert reported[0].message == "the answer 'x o' judges 2 statements true or false, but the question lists 3"


def test_true_and_false_letters_written_as_code_judge_their_statements(tmp_path: Path) -> None:
    text = ("---\ntitle: T\nlanguage: ja\n---\n## Q5\n\nTrueになるものにはT、FalseになるものにはFと答えなさい。\n\n"
            "1. `1 < 2`\n2. `'a' in 'abc'`\n3. `2 < 1`\n\nAns. `T T F`\n")
    path = tmp_path / "letters.md"
    path.write_text(text, encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert (q.type, [(p.prompt, p.answer) for p in q.pairs], q.distractors) == (
        "matching", [("`1 < 2`", "T"), ("`'a' in 'abc'`", "T"), ("`2 < 1`", "F")], [])




def _imported(tmp_path: Path, name: str, text: str) -> list[tuple[str, list[str]]]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err = run("import", name, "-o", name + ".out", cwd=tmp_path)
    assert code == 0, out + err
    quiz = read_clean(tmp_path / (name + ".out") / name)
    return [(q.stem, [c.text for c in q.choices if c.correct]) for q in quiz.iter_questions()]


def test_a_fence_opened_on_the_first_line_ends_where_it_closes(tmp_path: Path) -> None:
    """The first line is looked at too: a fence opened there (a paper that begins with its code)
    closes at its closing line, and the comments after it show nothing, as ever."""
    plain = _imported(tmp_path, "plain.md", "\n" + PAPER)
    assert plain == _imported(tmp_path, "fenced.md", "```\n<!-- the exam's code -->\n```\n" + PAPER)
