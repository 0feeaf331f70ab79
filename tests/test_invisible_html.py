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


def test_statements_answered_by_a_truth_mark_each_are_an_error_at_the_answer(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n## Q2\n\nMark each statement true (o) or false (x).\n\n"
            "1. Python is compiled to machine code.\n2. CPython is written in C.\n3. A byte holds 4 bits.\n\nAns. x o x\n")
    code, reported = check_source(tmp_path, "statements.md", text, "--lang", "en")
    line = text.split("\n").index("Ans. x o x") + 1
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB190", line, 6)])
    assert "judges each of the 3 statements listed true or false" in reported[0].message
