"""The Markdown reader: the seed quiz, the dialect's pieces, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SEED_SOURCE, write
from helpers.seed_expectations import (ANSWERS, CHOICE_IDS, CODE_SPANS, ESSAY_IDS, ESSAY_STEMS, EXPLANATIONS,
                               MODEL_ANSWERS, QUIZ_TITLE, STEMS)

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import EssayQuestion, Quiz, SingleChoiceQuestion
from qti_builder.readers import read_quiz


def read(path: Path) -> tuple[Quiz | None, DiagnosticSink]:
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), sink


FM = "---\ntitle: T\n---\n"


def plain(markdown: str) -> str:
    return markdown.replace("`", "")


def test_seed_quiz_is_complete() -> None:
    quiz, sink = read(SEED_SOURCE)
    assert quiz is not None, [d.render() for d in sink.items]
    assert sink.items == []
    assert quiz.id == "ray-train-tune"
    assert quiz.title == QUIZ_TITLE
    assert quiz.language == "ko"
    assert quiz.description and quiz.description.startswith("이 퀴즈는 Ray Train(`Trainer`, `ScalingConfig`, 체크포인팅)")
    assert [s.title for s in quiz.sections] == ["객관식 문제", "서술형 문제"]

    choice, essay = quiz.sections
    assert [q.id for q in choice.questions] == CHOICE_IDS
    for question, stem, answer, explanation in zip(choice.questions, STEMS, ANSWERS, EXPLANATIONS):
        assert isinstance(question, SingleChoiceQuestion)
        assert plain(question.stem).startswith(stem)
        assert [c.id for c in question.choices] == ["A", "B", "C", "D"]
        assert [c.id for c in question.choices if c.correct] == [answer]
        assert all(c.text for c in question.choices)
        assert plain(question.feedback.general or "").startswith(explanation)

    assert [q.id for q in essay.questions] == ESSAY_IDS
    for question, stem, (first, second) in zip(essay.questions, ESSAY_STEMS, MODEL_ANSWERS):
        assert isinstance(question, EssayQuestion)
        assert plain(question.stem).startswith(stem)
        paragraphs = (question.model_answer or "").split("\n\n")
        assert len(paragraphs) == 2
        assert plain(paragraphs[0]).startswith(first)
        assert plain(paragraphs[1]).startswith(second)


def test_seed_restores_code_spans_and_unglues_options() -> None:
    quiz, _ = read(SEED_SOURCE)
    assert quiz is not None
    text = SEED_SOURCE.read_text(encoding="utf-8")
    for name in CODE_SPANS:
        assert f"`{name}`" in text
    v2 = quiz.sections[0].questions[1]
    assert isinstance(v2, SingleChoiceQuestion)
    # The scrape glued option C onto option B's line.
    assert v2.choices[1].text.startswith("기존의 `ray.train.torch.TorchTrainer` import 경로")
    assert v2.choices[1].text.endswith("통합하고 단순화했다")
    assert v2.choices[2].text == "CPU 기반 학습만 지원하는 Ray Train 버전이다"
    scaling = quiz.sections[0].questions[2]
    assert scaling.stem == "Ray Train의 `ScalingConfig`가 하는 역할은 무엇인가요?"
    assert isinstance(scaling, SingleChoiceQuestion) and scaling.choices[0].text.startswith("워커를 몇 개 실행할지")


GOOD = """---
title: Demo
language: en
---

Intro text.

# Part one {#part-one}

1. What is **2 + 2**? {#sum points=2}

   Think about it.

   ```python
   print(2 + 2)
   # A) not an option
   ```

A) 3
B) 4
   Feedback: Well done.
- C) 5

Answer: B
Explanation: Basic arithmetic.
Incorrect feedback: Try again.

# Part two {#part-two}

2. Describe addition. {#essay type=essay}
"""


def test_dialect_pieces(tmp_path: Path) -> None:
    quiz, sink = read(write(tmp_path, "demo.md", GOOD))
    assert quiz is not None, [d.render() for d in sink.items]
    assert quiz.id == "demo"  # from the file name
    assert quiz.description == "Intro text."
    q = quiz.sections[0].questions[0]
    assert isinstance(q, SingleChoiceQuestion)
    assert (q.id, q.points) == ("sum", 2.0)
    assert q.stem.startswith("What is **2 + 2**?\n\nThink about it.\n\n```python\nprint(2 + 2)\n# A) not an option\n```")
    assert [(c.id, c.text, c.correct, c.feedback) for c in q.choices] == [
        ("A", "3", False, None), ("B", "4", True, "Well done."), ("C", "5", False, None)]
    assert (q.feedback.general, q.feedback.incorrect) == ("Basic arithmetic.", "Try again.")
    essay = quiz.sections[1].questions[0]
    assert isinstance(essay, EssayQuestion) and essay.model_answer is None


def test_korean_labels_and_multiple_answers(tmp_path: Path) -> None:
    text = "---\ntitle: 퀴즈\nlanguage: ko\n---\n\n1. 고르세요.\n\nA) 가\nB) 나\nC) 다\n\n정답: A, C\n해설: 둘 다 맞습니다.\n"
    quiz, sink = read(write(tmp_path, "ko.md", text))
    assert quiz is not None, [d.render() for d in sink.items]
    q = next(quiz.iter_questions())
    assert q.type == "multiple_response"
    assert [c.id for c in q.choices if c.correct] == ["A", "C"]  # type: ignore[attr-defined]
    assert q.feedback.general == "둘 다 맞습니다."


def test_bom_crlf_and_nfc(tmp_path: Path) -> None:
    decomposed = "\u1100\u1161"  # 가 as conjoining jamo
    text = f"\ufeff---\r\ntitle: T\r\n---\r\n1. {decomposed}?\r\n\r\nA) x\r\nB) y\r\n\r\nAnswer: A\r\n"
    path = tmp_path / "crlf.md"
    path.write_bytes(text.encode("utf-8"))
    quiz, sink = read(path)
    assert quiz is not None, [d.render() for d in sink.items]
    assert next(quiz.iter_questions()).stem == "가?"


def messages(sink: DiagnosticSink) -> list[str]:
    return [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in sink.sorted() if d.span]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n", ["4:1 QB120 the question has options but no correct answer"], id="no-answer"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnwser: B\n", ["9:1 QB115 unknown label 'Anwser'; did you mean 'answer'?"], id="unknown-label"),
        pytest.param("---\ntitle: [unclosed\n---\n1. Q?\n", ["2:17 QB111 YAML syntax error: expected ',' or ']', but got '<stream end>'",
                                                       # the questions are read all the same (issue 31: every problem in one run)
                                                       "4:1 QB128 the question has no options and no answer"], id="broken-front-matter"),
        pytest.param("---\ntitle: T\nlangauge: ko\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A\n", ["3:1 QB106 unknown front-matter key 'langauge'; did you mean 'language'?"], id="unknown-key"),
        pytest.param("1. Q?\n", ["1:1 QB103 a quiz source starts with YAML front matter",
                                  # the questions are read all the same (issue 31: every problem in one run)
                                  "1:1 QB128 the question has no options and no answer"], id="no-front-matter"),
        pytest.param("---\ntitle: T\n1. Q?\n", ["1:1 QB104 the front matter is not closed"], id="unclosed-front-matter"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: E\n", ["9:9 QB126 the answer names option E, which does not exist"], id="answer-missing-option"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\nstray text\n\nAnswer: A\n", ["8:1 QB117 text after the options that belongs to no option or label"], id="stray-text"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\n```\ncode\n\nA) x\n", ["4:1 QB128 the question has no options and no answer", "6:1 QB108 code fence ``` is never closed"], id="unclosed-fence"),
        pytest.param("---\ntitle: T\n---\n1. Q? {#q1 pionts=2}\n\nA) x\nB) y\n\nAnswer: A\n", ["4:12 QB109 unknown attribute 'pionts'; did you mean 'points'?"], id="unknown-attribute"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nA) y\n\nAnswer: A\n", ["7:1 QB122 option A appears twice"], id="duplicate-option"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A\n\n2. Q? {#q1}\n\nA) x\nB) y\n\nAnswer: A\n2. R? {#q1}\n\nA) x\nB) y\n\nAnswer: B\n",
                     ["17:8 QB133 id 'q1' is already used on line 11"], id="duplicate-ids"),
        pytest.param("---\ntitle: T\n---\n1. Q? {#1bad}\n\nA) x\nB) y\n\nAnswer: A\n",
                     ["4:8 QB201 '1bad' is not a valid id: start with a letter or '_', then letters, digits, '-', '_' or '.' (64 at most)"], id="bad-id"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A, B {#x}\n", ["9:9 QB125 cannot read the answer 'A, B {#x}'"], id="unreadable-answer"),
        pytest.param("---\ntitle: T\n---\n1. Why?\n", ["4:1 QB128 the question has no options and no answer"], id="open-without-type"),
        pytest.param("---\ntitle: T\n---\n1. Q?\u000b\n\nA) x\nB) y\n\nAnswer: A\n", ["4:6 QB102 character U+000B is not allowed in XML"], id="illegal-char"),
        pytest.param("---\ntitle: T\n---\nJust text.\n", ["4:1 QB119 the quiz has no questions"], id="no-questions"),
        pytest.param(FM + "1. Q? {type=numerical}\n\nAnswer: about five\n", ["6:9 QB139 cannot read the number 'about five'"], id="bad-number"),
        pytest.param(FM + "1. Q? {type=true_false}\n\nAnswer: maybe\n", ["6:9 QB138 a true/false answer is one of true, false, not 'maybe'"], id="bad-true-false"),
        pytest.param(FM + "1. Q? {type=matching}\n\n- a -> 1\n- b\n", ["7:3 QB140 a matching item is 'prompt -> answer' (or '-> answer' for a distractor)"], id="bad-pair"),
        pytest.param(FM + "1. Order: {type=ordering}\n\n- only one\n", ["4:1 QB141 an ordering question needs a list of at least two items, in the right order"], id="short-order"),
        pytest.param(FM + "1. No blanks here. {type=fill_in_blank}\n", ["4:1 QB142 a fill-in-the-blank question needs blanks in its text"], id="no-blanks"),
        pytest.param(FM + "1. The [[Seine]]{points=two} in [[Paris]]{points=1}. {type=fill_in_blank}\n",
                     ["4:25 QB365 blank [[Seine]] is worth 'two' points, which is not a number of points"], id="blank-points-no-number"),
        pytest.param(FM + "1. The [[Seine]]{points=2} in [[Paris]]. {type=fill_in_blank}\n",
                     ["4:1 QB201 some blanks state their points and blank 'b2' does not: when one blank states what it is worth, every blank does"],
                     id="blank-points-some"),
        pytest.param(FM + "1. The [[Seine]]{points=2} in [[Paris]]{points=1}. {type=fill_in_blank points=2}\n",
                     ["4:72 QB201 the question is worth 2 points, but its blanks' points add up to 3"], id="blank-points-sum"),
        pytest.param(FM + "1. Q? {type=essay shuffle=false}\n", ["4:19 QB109 attribute 'shuffle' does not apply to essay questions"], id="attr-kind"),
        pytest.param(FM + "1. Q? {type=eassy}\n", ["4:8 QB131 unknown question type 'eassy'; did you mean 'essay'?"], id="unknown-type"),
        pytest.param(FM + "1. Q?\n\nAnswer: B\n\nA) x\nB) y\n", ["8:1 QB134 options come before the answer and the other labelled blocks",
                                                         "9:1 QB134 options come before the answer and the other labelled blocks"], id="label-before-options"),
        pytest.param(FM + "1. Q?\n\nA) x\nFeedback: no\nB) y\n\nAnswer: B\n", ["7:1 QB136 'Feedback:' must be indented to belong to option A"], id="unindented-feedback"),
        pytest.param(FM + "1. Q?\n\nA) x\n   Feedback: no\n   Feedback: again\nB) y\n\nAnswer: B\n", ["8:4 QB116 a second feedback for option A"], id="second-feedback"),
        pytest.param(FM + "1. Q?\n\nA) x\nB) y\n\n```\ncode\n```\n\nAnswer: B\n", ["9:1 QB117 a code block after the options belongs to no option or label"], id="fence-after-options"),
        pytest.param(FM + "1. Q? {type=essay}\n\nAnswer (50%): text\n", ["6:1 QB137 a score in the answer label applies only to short_answer and numerical questions"], id="score-on-essay"),
        pytest.param(FM + "1. Q?\n\nA) x {score=50}\nB) y\n\nAnswer: A\n", ["6:7 QB109 a score on an option applies only to multiple-response questions"], id="option-score"),
        pytest.param(FM + "1. Order. {type=ordering}\n\n- a\n- b\n\nAnswer: a, b\n", ["9:1 QB129 an ordering question has no 'Answer:': its list is the answer"], id="answer-on-ordering"),
        pytest.param(FM + "1. Explain. {type=essay}\n\nAnswer: because\n   Feedback: nice\n", ["7:14 QB137 feedback under an answer applies only to short_answer and numerical questions"], id="feedback-under-essay-answer"),
    ],
)
def test_errors_are_located(tmp_path: Path, source: str, expected: list[str]) -> None:
    quiz, sink = read(write(tmp_path, "bad.md", source))
    assert quiz is None
    assert messages(sink) == expected
    assert all(d.span and d.span.path.endswith("bad.md") for d in sink.items)


def test_every_error_is_reported_at_once(tmp_path: Path) -> None:
    source = "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\n2. R?\n\nA) x\nB) y\n\nAnwser: B\n"
    quiz, sink = read(write(tmp_path, "bad.md", source))
    assert quiz is None
    # The misspelled label is read as the answer it was meant to be: one slip, one error.
    assert [m.split(" ")[1] for m in messages(sink)] == ["QB120", "QB115"]


def test_invalid_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes("---\ntitle: T\n---\n1. Caf\u00e9?\n".encode("latin-1"))
    quiz, sink = read(path)
    assert quiz is None
    assert messages(sink) == ["4:7 QB101 the file is not valid UTF-8 (byte 0xe9)"]


def test_answer_text_mismatch_is_a_warning(tmp_path: Path) -> None:
    quiz, sink = read(write(tmp_path, "w.md", "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: B) z\n"))
    assert quiz is not None
    assert [(d.severity.value, d.code) for d in sink.items] == [("warning", "QB124")]


# -- every question kind in Markdown (source/python-fundamentals.md) ------------------------------

FUNDAMENTALS = SEED_SOURCE.parent / "python-fundamentals.md"


def test_every_kind_in_markdown() -> None:
    quiz, sink = read(FUNDAMENTALS)
    assert quiz is not None, [d.render() for d in sink.items]
    assert sink.items == []
    by_id = {q.id: q for q in quiz.iter_questions()}
    assert [q.type for q in quiz.iter_questions()] == [
        "single_choice", "multiple_response", "true_false", "numerical", "numerical", "short_answer",
        "fill_in_blank", "matching", "ordering", "text_only", "essay", "file_upload"]
    assert quiz.sections[0].shuffle is True

    keyword = by_id["def-keyword"]
    assert keyword.title == "Function keyword"
    assert [(c.id, c.correct, c.fixed) for c in keyword.choices] == [  # type: ignore[attr-defined]
        ("A", False, False), ("B", True, False), ("C", False, False), ("D", False, True)]
    assert (keyword.feedback.correct, keyword.feedback.incorrect) == ("Well done.", "Review the section on functions.")

    immutable = by_id["immutable"]
    assert immutable.negative_marking is True and immutable.tags == ["types", "data model"]  # type: ignore[attr-defined]
    assert immutable.choice_scores() == {"A": 50.0, "B": -50.0, "C": 50.0, "D": -50.0}  # type: ignore[attr-defined]
    assert immutable.feedback.partially_correct == "One of your choices is right."

    indentation = by_id["indentation"]
    assert indentation.answer is True  # type: ignore[attr-defined]
    assert indentation.true_feedback == "Yes: blocks are delimited by indentation."  # type: ignore[attr-defined]
    assert indentation.false_feedback == "It is: Python has no braces around blocks."  # type: ignore[attr-defined]

    division = by_id["division"]
    assert [(a.value, a.tolerance, a.score, a.feedback) for a in division.answers] == [  # type: ignore[attr-defined]
        (3.5, 0.05, 100, None), (3.0, 0.0, 50.0, "That is `7 // 2`, floor division.")]
    assert [(a.text, a.score) for a in by_id["int-function"].answers] == [  # type: ignore[attr-defined]
        ("int", 100), ("int()", 100), ("*int*", 50.0)]

    blanks = by_id["loop-blanks"]
    assert "runs once per [[b1]] of `values`, and the\nstatement [[b2]] leaves" in blanks.stem
    assert [(b.id, b.kind, b.answers, b.options) for b in blanks.blanks] == [  # type: ignore[attr-defined]
        ("b1", "text", ["element", "item", "value"], []), ("b2", "dropdown", ["break"], ["continue", "pass"])]

    matching = by_id["type-examples"]
    assert [(p.prompt, p.answer) for p in matching.pairs] == [  # type: ignore[attr-defined]
        ("`int`", "`42`"), ("`str`", '`"42"`'), ("`list`", "`[4, 2]`")]
    assert matching.distractors == ["`{4: 2}`"]  # type: ignore[attr-defined]
    assert by_id["run-order"].items == ["Write the source file", "Run `python script.py`", "Read the output"]  # type: ignore[attr-defined]

    essay = by_id["list-vs-tuple"]
    assert (essay.min_words, essay.max_words, essay.points) == (30, 200, 5.0)  # type: ignore[attr-defined]
    assert essay.model_answer.endswith("Tuples can therefore be dictionary keys.")  # type: ignore[attr-defined]
    upload = by_id["squares-upload"]
    assert (upload.max_files, upload.allowed_types) == (1, [".py"])  # type: ignore[attr-defined]
    assert by_id["longer-answers"].points == 0


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("5", (5.0, 0.0, "absolute")), ("3.14 ± 0.01", (3.14, 0.01, "absolute")), ("100 +- 5%", (100.0, 5.0, "percent")),
     ("2..4", (3.0, 1.0, "absolute")), ("-1e3", (-1000.0, 0.0, "absolute"))],
)
def test_numeric_answer_forms(tmp_path: Path, answer: str, expected: tuple[float, float, str]) -> None:
    quiz, sink = read(write(tmp_path, "n.md", f"---\ntitle: T\n---\n1. How many? {{type=numerical}}\n\nAnswer: {answer}\n"))
    assert quiz is not None, [d.render() for d in sink.items]
    a = next(quiz.iter_questions()).answers[0]  # type: ignore[attr-defined]
    assert (a.value, a.tolerance, a.tolerance_mode) == (pytest.approx(expected[0]), pytest.approx(expected[1]), expected[2])


def test_korean_true_false_is_inferred(tmp_path: Path) -> None:
    quiz, _ = read(write(tmp_path, "tf.md", "---\ntitle: T\nlanguage: ko\n---\n1. 지구는 둥글다.\n\n정답: 참\n"))
    assert quiz is not None
    question = next(quiz.iter_questions())
    assert question.type == "true_false" and question.answer is True  # type: ignore[attr-defined]

def test_stem_sentences_that_look_like_labels_are_content(tmp_path: Path) -> None:
    source = "---\ntitle: T\n---\n1. Read this.\nNote: the word Feedback: appears.\nCorrect: is a word too.\n\nA) x\nB) y\n\nAnswer: A\n"
    quiz, sink = read(write(tmp_path, "ok.md", source))
    assert quiz is not None, messages(sink)
    assert "Correct: is a word too." in next(quiz.iter_questions()).stem


def test_file_name_that_is_not_an_id(tmp_path: Path) -> None:
    quiz, sink = read(write(tmp_path, "my quiz.md", "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A\n"))
    assert quiz is None
    assert messages(sink) == ["1:1 QB135 the file name 'my quiz' cannot be the quiz id (ids use letters, digits, '-', '_', '.')"]
    assert sink.items[0].hint == "add 'id: my-quiz' to the quiz"


def test_blanks_inside_code_or_math_are_refused(tmp_path: Path) -> None:
    from qti_builder import BuildOptions, build
    from qti_builder.diagnostics import BuildFailed

    source = write(tmp_path, "b.md", "---\ntitle: T\n---\n1. In `x = [[v]]` and $[[w]]^2$ and [[ok]]. {#q1 type=fill_in_blank}\n")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out"))
    assert [(d.code, d.message) for d in failed.value.diagnostics] == [
        # Named as the author wrote them, not by the ids the reader gave them (b1, b2).
        ("QB144", "blank 1, [[v]], is inside code, math or a link, where it cannot be a field"),
        ("QB144", "blank 2, [[w]], is inside code, math or a link, where it cannot be a field"),
    ]
    source = write(tmp_path, "d.md", "---\ntitle: T\n---\n1. Call `[[*len | size]]()` on [[it]]. {#q1 type=fill_in_blank}\n")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out"))
    assert [d.message for d in failed.value.diagnostics] == [
        "blank 1, [[*len | size]], is inside code, math or a link, where it cannot be a field"]


def test_a_blank_s_own_points_are_read_and_written_back(tmp_path: Path) -> None:
    """``[[answer]]{points=N}`` right after a blank is that blank's worth, the question worth their
    sum; braces after a space are still the question's attributes, and the written source says the
    same points again."""
    from qti_builder.writers.markdown_source import read_back, write_source

    quiz, sink = read(write(tmp_path, "p.md", FM + "1. The [[Seine]]{points=2} in [[*Paris | Lyon]]{points=0.5}, "
                                                    "[[France]]{points=1} {#rivers type=fill_in_blank}\n"))
    assert quiz is not None, messages(sink)
    (q,) = quiz.iter_questions()
    assert q.id == "rivers" and [b.points for b in q.blanks] == [2.0, 0.5, 1.0] and q.points == 3.5
    assert q.stem == "The [[b1]] in [[b2]], [[b3]]"
    written = write_source(quiz)
    assert "The [[Seine]]{points=2} in [[*Paris | Lyon]]{points=0.5}, [[France]]{points=1}" in written.text
    assert read_back(written.text, written.suffix) == quiz
    # Without stated points the blanks share the question's points, as before.
    plain, _ = read(write(tmp_path, "e.md", FM + "1. The [[Seine]] in [[Paris]]. {#two type=fill_in_blank points=3}\n"))
    assert plain is not None
    (q,) = plain.iter_questions()
    assert [b.points for b in q.blanks] == [None, None] and q.blank_points() == [1.5, 1.5]
    assert "{points=" not in write_source(plain).text
