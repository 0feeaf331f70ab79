"""What every reader shares (readers/base.py), for a source with an error in one question: the
other questions are still read and checked, in their sections however deep, with their values as
written and their printed numbers, and ``check --outline`` shows the question left out where it
stands.

Each source is written here by hand; every line, column and number is found by searching its text
(never taken from the reader's output). (Issue 35's sixth mutation run over the readers, sampled:
these kill ``_leave_out_unread`` 42, 43, 79 and 120.)
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run

NESTED = """\
---
title: 1.10
---

# Part 1

## Lists

18. Which is a list? {#a}

A) []
B) ()

Answer: A

19. Which is a tuple? {#b}

A) ()
B) []

Answer: E

20. Which keyword defines a class? {#c}

A) class
B) struct

Answer: A
"""


def line_of(text: str, words: str, after: int = 0) -> int:
    """The 1-based number of the first line holding ``words`` below line ``after``."""
    lines = text.split("\n")
    return next(i + 1 for i, line in enumerate(lines) if i >= after and words in line)


def test_a_question_left_out_of_a_nested_section_keeps_the_others_as_written(tmp_path: Path) -> None:
    # Question 19 names an option that does not exist: it is left out (shown as not read, with
    # its printed number); 18 and 20, in the same subsection, are read and counted, still with
    # their printed numbers; the title '1.10' (a number to YAML) is the text as written, no error.
    write(tmp_path, "nested.md", NESTED)
    code, out, err = run("check", "nested.md", "--outline", "-j", "1", "--lang", "en", cwd=tmp_path)
    q18, q19, q20 = (line_of(NESTED, f"{n}. ") for n in (18, 19, 20))
    answer_e = line_of(NESTED, "Answer: E")
    last = line_of(NESTED, "Answer: A", q20)
    assert (code, err.splitlines()) == (1, [
        f"nested.md:{answer_e}:{'Answer: E'.index('E') + 1}: error[QB126]: the answer names option E, which does not exist",
        "    hint: options are A, B",
        "failed: 1 error",
    ])
    assert out.splitlines() == [
        "outline nested.md: 1.10 [en]",
        f"section Part 1 (lines {line_of(NESTED, '# Part 1')}-{last})",
        f"  section Lists (lines {line_of(NESTED, '## Lists')}-{last})",
        f"    18. single choice | answer A | 1 point | lines {q18}-{line_of(NESTED, 'Answer: A', q18)}",
        f"    19. ? | not read: see the errors | - | lines {q19}-{answer_e}",
        f"    20. single choice | answer A | 1 point | lines {q20}-{last}",
        "total: 2 questions, 2 points; the questions with errors are left out",
    ]
