"""What the Markdown reader makes of a source, and where it tells the author of a problem, found
untested by issue 35's sampled mutation run of readers/markdown/questions.py, syntax.py and
calculated.py on the exam reader's code (the ninth session). Each source is written here by hand,
each place found by searching its own text, each expected value written out; every test was seen
failing on the mutant it names and passing on the code.

They kill, in readers/markdown/: ``QuestionBuilder.build`` 22, 90 and 120, ``_answer_in_text`` 30,
``_hidden_labels`` 50; ``syntax._unfenced`` 15, ``_number_heading_reading`` 15, ``quoted_label`` 9,
``read_label`` 85 and 86.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.reading import place, read_text
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed


def built_problems(tmp_path: Path, text: str, name: str = "paper.md") -> list[tuple[int, int, str, str]]:
    """A build of the source that fails: each diagnostic as (line, column, code, message)."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], write=False, jobs=1))
    return [(d.span.line, d.span.column, d.code, d.message) for d in failed.value.diagnostics if d.span is not None]


#: A picture before a blank on the question's line: blanks written ``[[Sun]]``, and blanks as a
#: Japanese paper prints them, ``（　ａ　）``, filled from the answer ``正解: ａ 水素　ｂ 酸素``.
BEFORE_A_BLANK = {
    "[[Sun]]": "---\ntitle: T\n---\n\n1. See ![](gone.png) and name the [[Sun]]. {type=fill_in_blank}\n",
    "exam blanks": "---\ntitle: T\nlanguage: ja\n---\n1. ![](gone.png) 水は（　ａ　）と（　ｂ　）からできている。\n\n正解: ａ 水素　ｂ 酸素\n",
}


@pytest.mark.parametrize("case", BEFORE_A_BLANK)
def test_a_missing_picture_before_a_blank_is_reported_where_it_is_written(case: str, tmp_path: Path) -> None:
    """The model's text of a question with blanks holds each blank renamed (``[[b1]]``), so its
    written line is not found in it, and a problem before the first blank is counted from the
    stem's own place: its line and column (``build`` 22 recorded the column as None: a traceback,
    now on the exam blanks only, whose written lines hold no ``[[…]]`` for ``fill_in_blank`` to
    place again)."""
    text = BEFORE_A_BLANK[case]
    line, column = place(text, "gone.png")
    assert built_problems(tmp_path, text) == [
        (line, column, "QB160", "media file 'gone.png' does not exist"),
        (line, column, "QB165", "image 'gone.png' has no alt text"),
    ]


def test_a_number_heading_over_text_and_code_with_a_blank_line_and_a_comment_is_one_question(tmp_path: Path) -> None:
    """``## 7``, a line that asks, a fenced block holding a blank line and a ``# comment``, then the
    list ``1.`` … and the answer: one question whose text holds the code and whose options are the
    list. Neither the code's blank line (``_unfenced`` 15 closed the fence there, and the comment
    became a heading that made ``## 7`` a section) nor the fence after the text (``_number_heading_reading``
    15 forgot the text there) makes the list questions of their own."""
    text = ("---\ntitle: T\n---\n\n## 7\n\nWhat does this print?\n\n```python\nx = 1\n\n# add them\nprint(x + 1)\n```\n\n"
            "1. 1\n2. 2\n3. 11\n\nAnswer: 2\n")
    quiz, told = read_text(tmp_path, text)
    assert told == []
    (q,) = quiz.iter_questions()
    assert (q.type, q.stem) == ("single_choice", "What does this print?\n\n```python\nx = 1\n\n# add them\nprint(x + 1)\n```")
    assert [(c.text, c.correct) for c in q.choices] == [("1", False), ("2", True), ("11", False)]


def test_a_question_text_showing_its_bold_answers_letter_is_told_in_words(tmp_path: Path) -> None:
    """QB198's message and hint as the author reads them (``_answer_in_text`` 30 shouted the message)."""
    stem = "1.   当运算结果超过表示范围时，则产生 C。"
    text = f"---\ntitle: T\nlanguage: zh\n---\n{stem}\n     1.   A、进位\n     2.   B、移位\n     3.   **C、溢出**\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "C。"), "QB198",
                     "the question's text shows C, the letter of its answer in bold, where students would read it",
                     "write the blank the paper had, '（ ）' or '____', in place of the letter")]


def test_a_missing_picture_after_a_blank_is_reported_where_it_is_written(tmp_path: Path) -> None:
    """After a blank, on the question's line and on a line below it: the model's text holds each
    blank renamed (``[[b1]]``), so the place was counted in that text and moved by the difference
    between the answer's length and the name's (one column for ``[[Sun]]``, eleven for
    ``[[Photosynthesis]]``). The text's lines are now cut at their blanks."""
    text = ("---\ntitle: T\n---\n\n1. The [[Sun]] is a star, see ![](gone-1.png) here. {type=fill_in_blank}\n\n"
            "2. The [[Moon]] is {type=fill_in_blank}\n   not a [[Photosynthesis]] but ![](gone-2.png) is.\n")
    first, second = place(text, "gone-1.png"), place(text, "gone-2.png")
    assert built_problems(tmp_path, text) == [
        (*first, "QB160", "media file 'gone-1.png' does not exist"),
        (*first, "QB165", "image 'gone-1.png' has no alt text"),
        (*second, "QB160", "media file 'gone-2.png' does not exist"),
        (*second, "QB165", "image 'gone-2.png' has no alt text"),
    ]


def test_an_indented_answer_label_is_told_in_words_at_its_place(tmp_path: Path) -> None:
    """``   Answer: A`` under a question's options is its last option's text, which students see: QB148's message
    and hint as the author reads them (``_hidden_labels`` 50 left the message out)."""
    text = "---\ntitle: T\n---\n\n1. Plain see the picture?\n\nA. a\nB. b\n\n   Answer: A\n"
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, "Answer: A"), "QB148",
                     "'Answer:' is indented, so it is part of option B, which students see",
                     "start 'Answer:' at the left margin to make it the question's own block; to show the words to "
                     "students, write 'Answer\\:'")]


def test_an_attribute_of_another_kind_and_an_unknown_type_are_told_at_them(tmp_path: Path) -> None:
    """``shuffle=false`` on an essay is QB109 with the essay's attributes as its hint (``build`` 120
    left the hint out); ``{type=essai}`` is QB131 with the nearest type (``build`` 90 looked the
    attribute up under another name: a traceback)."""
    text = "---\ntitle: T\n---\n\n1. Tell me about Paris. {type=essay shuffle=false}\n\n2. What is it? {type=essai}\n\nAnswer: x\n"
    _, told = read_text(tmp_path, text)
    assert told == [
        (*place(text, "shuffle=false"), "QB109", "attribute 'shuffle' does not apply to essay questions",
         "attributes of essay: id, points, type, title, tags, ignore, moodle_idnumber, response_format, expected_lines, "
         "min_words, max_words, attachments"),
        (*place(text, "type=essai"), "QB131", "unknown question type 'essai'; did you mean 'essay'?",
         "types: single_choice, multiple_response, true_false, short_answer, numerical, essay, file_upload, matching, "
         "ordering, fill_in_blank, calculated, calculated_choice, text_only"),
    ]


def test_a_quotation_in_a_question_text_is_its_text(tmp_path: Path) -> None:
    """A blockquote in the question's text that holds no label (``> To be or not to be.``) is text
    students read (``quoted_label`` 9 took any quoted line for a label: a traceback)."""
    text = "---\ntitle: T\n---\n\n1. Who said it?\n\n> To be or not to be.\n\nA. Hamlet\nB. Lear\n\nAnswer: A\n"
    quiz, told = read_text(tmp_path, text)
    assert told == []
    (q,) = quiz.iter_questions()
    assert (q.type, q.stem) == ("single_choice", "Who said it?\n\n> To be or not to be.")
    assert [(c.text, c.correct) for c in q.choices] == [("Hamlet", True), ("Lear", False)]


def test_statements_answered_by_a_parenthesised_label_under_a_heading_are_its_questions(tmp_path: Path) -> None:
    """``## 1. 문법`` over ``1) …`` statements, each answered ``답) O``: the heading titles a section of
    true/false questions (``read_label`` 85 made ``답)`` a label without its space, which the
    heading's reading passes over: the statements were read as one question's options, QB126)."""
    text = "---\ntitle: T\nlanguage: ko\n---\n\n## 1. 문법\n\n1) 수도는 서울이다\n답) O\n2) 부산은 수도이다\n답) X\n"
    quiz, told = read_text(tmp_path, text)
    assert told == []
    assert [(q.type, q.stem, q.answer) for q in quiz.iter_questions()] == [
        ("true_false", "수도는 서울이다", True), ("true_false", "부산은 수도이다", False)]


def test_a_parenthesised_answer_label_in_the_introduction_is_named_by_its_name(tmp_path: Path) -> None:
    """An indented ``답) …`` in the quiz's introduction would show students an answer: QB145 names
    the label as written, ``'답)'``, at its place (``read_label`` 86 took ``답)`` for a bracketed label and
    named it ``'답):'``; before the twelfth session, QB145 named it ``'답:'``, a colon the author never wrote)."""
    text = "---\ntitle: T\nlanguage: ko\n---\n\n다음 물음에 답하시오.\n  답) 모두 쓰시오\n\n1. 수도는?\n① 서울\n② 부산\n\n정답: ①\n"
    _, told = read_text(tmp_path, text)
    assert [entry[:4] for entry in told] == [
        (*place(text, "답) 모두"), "QB145", "'답)' outside a question: the quiz description would show it to students")]
