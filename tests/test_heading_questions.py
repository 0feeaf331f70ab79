"""A paper whose questions are Markdown headings (``## 1. 다음 중 …을 고르시오.`` then ``1) …`` to
``5) …``), with ``---`` rules after the last question and an untitled key of one entry a line
(``1. 2``, ``5. 1, 5``) under them, reads as its teacher wrote it. Before, each heading was a
section and each option ``1)`` a question without options (QB128), each rule text after the
options (QB117), and each key entry a question ``1.`` whose text was ``2``: the paper failed with
an error for nearly every line.

What is read, through the public routes (``import`` of the pasted paper, ``check`` and ``build``
of a source): a heading numbered as a question with its options under it is that question (its
text the heading's, then the text and code under it); a heading numbered so over questions with
options of their own stays a section; ``1)`` lines that could be either are an error at the
heading (QB188); a heading whose number was lost is an error naming the number it misses (QB147);
a rule after the options is nothing; an untitled key answers its questions only when two or more
entries name options of questions already read, and one naming an option its question lacks is an
error at the entry (QB187). The built outputs grade the keyed answers right, scored by the
independent graders of tests/helpers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import check_source, run
from helpers.importing import imported_source
from helpers.reading import read_clean
from helpers.scoring import Built

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces

#: A Korean paper as a teacher types it: headings for questions, a code block and text between a
#: heading and its options, a code span holding ``(1, 2, 3)``, an option that is a code block,
#: rules after the last question, then the key, one entry a line (``3. 1, 3``: two right options).
KO_PAPER = """# 파이썬 기초 퀴즈

## 1. 다음 중 파이썬의 출력 함수로 옳은 것은?
1) `echo()`
2) `print()`
3) `show()`

## 2. 다음 코드의 실행 결과로 옳은 것을 고르시오.
```python
print(len([1, 2, 3]))
```
1) `2`
2) `3`
3) `4`

## 3. 다음 중 리스트를 만드는 코드를 모두 고르시오.
`자료형을 확인하세요`

1) `[1, 2]`
2) `(1, 2, 3)`
3) `list("ab")`

## 4. 다음 중 올바른 if 문은?
1)
```python
if x > 1:
    print(x)
```
2)
```python
if x > 1
    print(x)
```

---
---

1. 2
2. 2
3. 1, 3
4. 1
"""

#: The same forms in English, with front matter: ``### 1)`` headings, ``***`` and ``___`` rules,
#: points in a heading.
EN_SOURCE = """---
title: Python basics
---

# Python basics

### 1) Which keyword defines a function? (2 points)
1) `func`
2) `def`
3) `lambda`

***

### 2) Which of these types are immutable? {#immutable}
1) `list`
2) `tuple`
3) `str`

___

1. 2
2. 2, 3
"""


def _questions(quiz: Quiz) -> list[tuple[str, str, list[str], list[str], float]]:
    return [(q.type, q.stem, [c.text for c in getattr(q, "choices", [])], [c.text for c in getattr(q, "choices", []) if c.correct],
             q.points) for q in quiz.iter_questions()]


def _grades(tmp_path: Path, source: Path) -> list[tuple[str, dict[str, float], dict[str, float]]]:
    """Each question's id, and what QTI 2.1, Moodle and Canvas give the response of its right
    options and of its first wrong option, as the independent graders score them (each output
    making the question worth its points)."""
    dist = tmp_path / "dist"
    result = build(BuildOptions(sources=[source], out_dir=dist, jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    quiz = read_clean(source)
    built = Built.read(quiz, dist)
    grades = []
    for q in quiz.iter_questions():
        assert (built.canvas_points(q), built.moodle_question(q).mark) == (q.points, q.points), q.id
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        wrong = frozenset({next(i for i, c in enumerate(q.choices) if not c.correct)})
        grades.append((q.id, {t: built.score(t, q, right) for t in ("qti21", "moodle", "canvas")},
                       {t: built.score(t, q, wrong) for t in ("qti21", "moodle", "canvas")}))
    return grades


# -- the paper reads as written --------------------------------------------------------------------


def test_a_pasted_paper_of_heading_questions_imports_as_written(tmp_path: Path) -> None:
    quiz = read_clean(imported_source(tmp_path, KO_PAPER))
    assert quiz.title == "파이썬 기초 퀴즈"
    fence_right = "```python\nif x > 1:\n    print(x)\n```"
    fence_wrong = "```python\nif x > 1\n    print(x)\n```"
    assert _questions(quiz) == [
        ("single_choice", "다음 중 파이썬의 출력 함수로 옳은 것은?", ["`echo()`", "`print()`", "`show()`"], ["`print()`"], 1),
        # The heading is a paragraph of its own; the code under it is the question's.
        ("single_choice", "다음 코드의 실행 결과로 옳은 것을 고르시오.\n\n```python\nprint(len([1, 2, 3]))\n```",
         ["`2`", "`3`", "`4`"], ["`3`"], 1),
        # ``(1, 2, 3)`` in a code span is one option's text, not options 2 and 3 on one line.
        ("multiple_response", "다음 중 리스트를 만드는 코드를 모두 고르시오.\n\n`자료형을 확인하세요`",
         ["`[1, 2]`", "`(1, 2, 3)`", '`list("ab")`'], ["`[1, 2]`", '`list("ab")`'], 1),
        # A marker alone on its line with a code fence right under it: the code is the option.
        ("single_choice", "다음 중 올바른 if 문은?", [fence_right, fence_wrong], [fence_right], 1),
    ]


def test_the_written_source_is_the_paper_and_checks_clean(tmp_path: Path) -> None:
    source = imported_source(tmp_path, KO_PAPER)
    written = source.read_text(encoding="utf-8")
    assert written.startswith("---\ntitle: 파이썬 기초 퀴즈\nlanguage: ko\n---\n")
    assert written.split("---\n", 2)[2].lstrip("\n") == KO_PAPER.split("\n", 1)[1].lstrip("\n")
    code, reported = check_source(tmp_path, "again.md", written)
    assert (code, reported) == (0, [])


def test_each_output_grades_the_keyed_answers_right(tmp_path: Path) -> None:
    grades = _grades(tmp_path, imported_source(tmp_path, KO_PAPER))
    assert len(grades) == 4
    for ident, right, wrong in grades:
        assert right == {"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}, ident
        assert all(score < 1.0 for score in wrong.values()), (ident, wrong)


def test_an_english_source_of_heading_questions_builds(tmp_path: Path) -> None:
    source = tmp_path / "basics.md"
    source.write_text(EN_SOURCE, encoding="utf-8")
    quiz = read_clean(source)
    assert [s.title for s in quiz.sections] == ["Python basics"]
    assert _questions(quiz) == [
        ("single_choice", "Which keyword defines a function?", ["`func`", "`def`", "`lambda`"], ["`def`"], 2),
        ("multiple_response", "Which of these types are immutable?", ["`list`", "`tuple`", "`str`"], ["`tuple`", "`str`"], 1),
    ]
    assert [q.id for q in quiz.iter_questions()][1] == "immutable"  # the heading's attributes are the question's
    grades = _grades(tmp_path, source)
    assert [right for _, right, _ in grades] == [{"qti21": 1.0, "moodle": 1.0, "canvas": 1.0}] * 2
    assert all(all(score < 1.0 for score in wrong.values()) for _, _, wrong in grades)


def test_the_same_reading_in_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large source is read in pieces from each ``# `` heading: a ``# 1. …`` heading question
    begins none (it is a question of the section above it), so the pieces read as the whole."""
    text = EN_SOURCE.replace("### ", "# ") + "\n# Part 2\n\n3. Is 7 prime?\n\nAnswer: true\n"
    source = tmp_path / "large.md"
    source.write_text(text, encoding="utf-8")
    whole = read_clean(source)
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    sink = DiagnosticSink()
    read = read_quiz(source, sink, pieces=Pieces())
    assert read is not None and not sink.errors, [d.render() for d in sink.items]
    split = read[0]
    shape = [(s.title, [q.stem for q in s.questions]) for s in whole.sections]
    assert shape == [("Python basics", ["Which keyword defines a function?", "Which of these types are immutable?"]),
                     ("Part 2", ["Is 7 prime?"])]
    assert [(s.title, [q.stem for q in s.questions]) for s in split.sections] == shape
    assert _questions(split) == _questions(whole)


# -- headings that stay sections -----------------------------------------------------------------------


SECTIONS = """---
title: Sections
language: ko
---

## 1. Grammar

1) What is a noun?
A. a word for a thing
B. a word for an action
Answer: A

## 2. 객관식

1. 다음 중 수도는?
① 서울 ② 부산
정답: ①

## Part 3

3. Is 7 prime?

Answer: true
"""


def test_numbered_headings_over_questions_stay_sections(tmp_path: Path) -> None:
    source = tmp_path / "sections.md"
    source.write_text(SECTIONS, encoding="utf-8")
    quiz = read_clean(source)
    assert [(s.title, [(q.type, q.stem) for q in s.questions]) for s in quiz.sections] == [
        ("1. Grammar", [("single_choice", "What is a noun?")]),
        ("2. 객관식", [("single_choice", "다음 중 수도는?")]),
        ("Part 3", [("true_false", "Is 7 prime?")]),
    ]


def test_a_heading_over_questions_that_all_ask_stays_a_section(tmp_path: Path) -> None:
    """``1)`` lines that all ask are the section's questions (here answered by a titled key)."""
    text = ("---\ntitle: T\n---\n\n## 1. Capitals\n\n1) Which city is the capital of France?\n\n"
            "2) Which city is the capital of Spain?\n\nAnswer key\n1. Paris\n2. Madrid\n")
    code, reported = check_source(tmp_path, "capitals.md", text, "--lang", "en")
    # Each is a question of the section, answered by its entry (a word answer without a type asks
    # which type: QB175, at the answer), never an option of a question '1. Capitals'.
    assert [(r.code, r.line) for r in reported] == [("QB175", 12), ("QB175", 13)]


# -- what could be read two ways is an error at its place -------------------------------------------------


def test_lines_that_could_be_options_or_questions_are_qb188_at_the_heading(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n\n1. Warm-up: is 2 even?\n\nAnswer: true\n\n"
            "## 2. Choose the right answer\n\n1) Which word is a noun?\n2) house\n3) quickly\n")
    code, reported = check_source(tmp_path, "paper.md", text, "--lang", "en")
    assert code == 1
    assert [(r.code, r.line, r.column) for r in reported] == [("QB188", 9, 4)]
    assert "those on lines 12, 13 read as options, those on lines 11 ask a question" in reported[0].message


def test_a_heading_that_lost_its_number_is_qb147_naming_the_number(tmp_path: Path) -> None:
    text = KO_PAPER.replace("## 2. 다음 코드의", "## . 다음 코드의")
    code, reported = check_source(tmp_path, "paper.md", "---\ntitle: T\nlanguage: ko\n---\n" + text, "--lang", "en")
    line = ("---\ntitle: T\nlanguage: ko\n---\n" + text).split("\n").index("## . 다음 코드의 실행 결과로 옳은 것을 고르시오.") + 1
    # One error: read on as question 2, the key's entry 2 answers it (no QB120, no QB187).
    assert [(r.code, r.line, r.column, r.message) for r in reported] == [
        ("QB147", line, 4, "this heading looks like question 2, but its number is missing")]
    assert reported[0].hint == "number it as the paper numbers its questions: '## 2. 다음 코드의 실행 결과로 옳은 것을 고르시오.'"
    code, out, err = run("import", "paper.md", "-o", "out", cwd=_paper(tmp_path, text))
    assert code == 1 and "QB147" in err and not (tmp_path / "p" / "out").exists()


def _paper(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "p"
    folder.mkdir(exist_ok=True)
    (folder / "paper.md").write_text(text, encoding="utf-8")
    return folder


# -- the untitled key ------------------------------------------------------------------------------------

TWO = """---
title: T
---

## 1. Which one is prime?
1) `4`
2) `7`
3) `9`

## 2. Which one is even?
1) `3`
2) `5`
3) `8`

---

"""


def test_a_key_entry_naming_an_option_its_question_lacks_is_qb187_at_the_entry(tmp_path: Path) -> None:
    text = TWO + "1. 2\n2. 7\n"
    code, reported = check_source(tmp_path, "paper.md", text, "--lang", "en")
    lines = text.split("\n")
    assert [(r.code, r.line, r.column, r.message) for r in reported] == [
        ("QB120", lines.index("## 2. Which one is even?") + 1, 1, "the question has options but no correct answer"),
        ("QB187", lines.index("2. 7") + 1, 4, "the answer key gives question 2 the answer '7', but its options are 1 to 3")]


def test_a_single_entry_line_is_no_key(tmp_path: Path) -> None:
    """One line ``1. 2`` after the questions is what it always was: a question ``1.`` (whose text is
    a number, so without options or answer it is QB128); no answer is given by guess."""
    text = TWO + "1. 2\n"
    code, reported = check_source(tmp_path, "paper.md", text, "--lang", "en")
    lines = text.split("\n")
    assert [(r.code, r.line) for r in reported] == [
        ("QB120", lines.index("## 1. Which one is prime?") + 1), ("QB120", lines.index("## 2. Which one is even?") + 1),
        ("QB128", lines.index("1. 2") + 1)]


def test_entries_that_name_no_options_are_no_key(tmp_path: Path) -> None:
    text = TWO + "1. seven\n2. eight\n"
    code, reported = check_source(tmp_path, "paper.md", text, "--lang", "en")
    assert "QB187" not in [r.code for r in reported]
    assert [r.code for r in reported][:2] == ["QB120", "QB120"]  # the headings' questions got no answer


def test_rules_after_the_options_are_nothing_and_rules_in_a_question_text_stay(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n\n## 1. Read the note, then choose.\n\nThe note:\n\n---\n\nIt rains.\n\n"
            "1) `wet`\n2) `dry`\n\n- - -\n***\n\n")
    source = tmp_path / "rules.md"
    source.write_text(text + "## 2. Which is a colour?\n1) `red`\n2) `run`\n\n___\n\n1. 1\n2. 1\n", encoding="utf-8")
    quiz = read_clean(source)
    first, second = quiz.iter_questions()
    assert first.stem == "Read the note, then choose.\n\nThe note:\n\n---\n\nIt rains."
    assert [c.text for c in first.choices] == ["`wet`", "`dry`"] and first.choices[0].correct
    assert [c.text for c in second.choices] == ["`red`", "`run`"] and second.choices[0].correct


def test_a_paper_that_starts_with_a_heading_question_keeps_it(tmp_path: Path) -> None:
    """A pasted paper's first line is its title, a ``# Title`` heading too, but not ``# 1. …`` with
    its options under it: that is the paper's first question (the file's name is the title)."""
    text = "# 1. Which one is prime?\n1) `4`\n2) `7`\n\n# 2. Which one is even?\n1) `8`\n2) `9`\n\n1. 2\n2. 1\n"
    quiz = read_clean(imported_source(tmp_path, text, "primes.md"))
    assert quiz.title == "primes"
    assert [(q.stem, [c.text for c in q.choices if c.correct]) for q in quiz.iter_questions()] == [
        ("Which one is prime?", ["`7`"]), ("Which one is even?", ["`8`"])]


def test_statements_then_options_under_a_heading_are_its_text(tmp_path: Path) -> None:
    """``1)``, ``2)``, ``3)`` none of which asks, then options ``①`` …: statements of the heading's
    question, kept in its text each on its line, as under a question line."""
    text = ("---\ntitle: T\nlanguage: ko\n---\n## 1. 옳은 것만을 고른 것은?\n1) 파이썬은 인터프리터 언어이다.\n"
            "2) 파이썬은 들여쓰기로 블록을 나눈다.\n3) 파이썬에는 세미콜론이 꼭 필요하다.\n① 1, 2\n② 2, 3\n③ 1, 3\n정답: ①\n")
    source = tmp_path / "statements.md"
    source.write_text(text, encoding="utf-8")
    assert _questions(read_clean(source)) == [
        ("single_choice", "옳은 것만을 고른 것은?\n\n1) 파이썬은 인터프리터 언어이다.  \n2) 파이썬은 들여쓰기로 블록을 나눈다.  \n"
         "3) 파이썬에는 세미콜론이 꼭 필요하다.", ["1, 2", "2, 3", "1, 3"], ["1, 2"], 1)]


def test_a_rule_inside_an_explanation_stays_and_one_after_it_is_nothing(tmp_path: Path) -> None:
    """After a label, a rule followed by more of the block's text is the block's own (an imported
    explanation's ``<hr>``); one followed by the next question, a label or the end is a separator."""
    text = ("---\ntitle: T\n---\n\n## 1. Which one?\n1) `yes`\n2) `no`\n\nAnswer: 1\n\n---\n\n"
            "## 2. And this one?\n1) `yes`\n2) `no`\n\nAnswer: 2\nExplanation: First part.\n\n---\n\nSecond part.\n\n***\n")
    source = tmp_path / "rules.md"
    source.write_text(text, encoding="utf-8")
    first, second = read_clean(source).iter_questions()
    assert [c.correct for c in first.choices] == [True, False] and first.feedback.general is None
    assert [c.correct for c in second.choices] == [False, True]
    assert second.feedback.general == "First part.\n\n---\n\nSecond part."


def test_an_option_marker_written_twice_under_a_heading_is_qb122_at_it(tmp_path: Path) -> None:
    """``3)`` twice under a heading question (the second its own code block): one error at the
    second, as for any option written twice; the options after it are still read."""
    text = ("---\ntitle: T\n---\n\n## 1. Which loop prints 1 to 3?\n1)\n```python\nfor i in range(1, 4): print(i)\n```\n"
            "2) `print(1, 2)`\n3) `pass`\n3)\n```python\nwhile False: pass\n```\n4) `break`\n\n---\n\n"
            "## 2. Which is a list?\n1) `[1]`\n2) `(1,)`\n\n1. 1\n2. 1\n")
    code, reported = check_source(tmp_path, "paper.md", text, "--lang", "en")
    line = text.split("\n").index("3)") + 1
    assert [(r.code, r.line, r.column, r.message) for r in reported] == [("QB122", line, 1, "option 3 appears twice")]
