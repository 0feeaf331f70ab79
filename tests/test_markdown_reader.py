"""The Markdown reader: the seed quiz, the dialect's pieces, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEED_SOURCE, write
from seed_expectations import (ANSWERS, CHOICE_IDS, CODE_SPANS, ESSAY_IDS, ESSAY_STEMS, EXPLANATIONS,
                               MODEL_ANSWERS, QUIZ_TITLE, STEMS)

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import EssayQuestion, Quiz, SingleChoiceQuestion
from qti_builder.readers import read_quiz


def read(path: Path) -> tuple[Quiz | None, DiagnosticSink]:
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), sink


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
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnwser: B\n", ["4:1 QB120 the question has options but no correct answer", "9:1 QB115 unknown label 'Anwser'; did you mean 'answer'?"], id="unknown-label"),
        pytest.param("---\ntitle: [unclosed\n---\n1. Q?\n", ["2:17 QB111 YAML syntax error: expected ',' or ']', but got '<stream end>'"], id="broken-front-matter"),
        pytest.param("---\ntitle: T\nlangauge: ko\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A\n", ["3:1 QB106 unknown front-matter key 'langauge'; did you mean 'language'?"], id="unknown-key"),
        pytest.param("1. Q?\n", ["1:1 QB103 a quiz source starts with YAML front matter"], id="no-front-matter"),
        pytest.param("---\ntitle: T\n1. Q?\n", ["1:1 QB104 the front matter is not closed"], id="unclosed-front-matter"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: E\n", ["9:9 QB126 the answer names option E, which does not exist"], id="answer-missing-option"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\nstray text\n\nAnswer: A\n", ["8:1 QB117 text after the options that belongs to no option or label"], id="stray-text"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\n```\ncode\n\nA) x\n", ["4:1 QB128 the question has no options and no answer", "6:1 QB108 code fence ``` is never closed"], id="unclosed-fence"),
        pytest.param("---\ntitle: T\n---\n1. Q? {#q1 pionts=2}\n\nA) x\nB) y\n\nAnswer: A\n", ["4:12 QB109 unknown attribute 'pionts'; did you mean 'points'?"], id="unknown-attribute"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nA) y\n\nAnswer: A\n", ["7:1 QB122 option A appears twice"], id="duplicate-option"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A\n\n2. Q? {#q1}\n\nA) x\nB) y\n\nAnswer: A\n2. R? {#q1}\n\nA) x\nB) y\n\nAnswer: B\n",
                     ["17:8 QB133 id 'q1' is already used on line 11"], id="duplicate-ids"),
        pytest.param("---\ntitle: T\n---\n1. Q? {#1bad}\n\nA) x\nB) y\n\nAnswer: A\n",
                     ["4:8 QB201 String should match pattern '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$' (at sections.0.questions.0.id)"], id="bad-id"),
        pytest.param("---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: A, B {#x}\n", ["9:9 QB125 cannot read the answer 'A, B {#x}'"], id="unreadable-answer"),
        pytest.param("---\ntitle: T\n---\n1. Why?\n", ["4:1 QB128 the question has no options and no answer"], id="open-without-type"),
        pytest.param("---\ntitle: T\n---\n1. Q?\u000b\n\nA) x\nB) y\n\nAnswer: A\n", ["4:6 QB102 character U+000B is not allowed in XML"], id="illegal-char"),
        pytest.param("---\ntitle: T\n---\nJust text.\n", ["4:1 QB119 the quiz has no questions"], id="no-questions"),
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
    assert [m.split(" ")[1] for m in messages(sink)] == ["QB120", "QB120", "QB115"]


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
