"""YAML sources: the model as plain YAML, with errors located at the offending key or value."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed, DiagnosticSink
from qti_builder.model import EssayQuestion, SingleChoiceQuestion
from qti_builder.readers import read_quiz

QUIZ = """\
title: 배포 퀴즈
language: ko
sections:
  - id: basics
    title: 기초
    questions:
      - type: single_choice
        id: q1
        stem: "`kubectl`로 파드를 보는 명령은?"
        points: 2
        feedback:
          general: "`get`은 목록을 보여줍니다."
        choices:
          - {id: A, text: "`kubectl get pods`", correct: true}
          - {id: B, text: "`kubectl pods`"}
      - type: essay
        id: q2
        stem: 롤링 업데이트를 설명하세요.
        model_answer: 파드를 조금씩 교체합니다.
"""


def read(path: Path):  # type: ignore[no-untyped-def]
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in sink.sorted()]


def test_yaml_quiz(tmp_path: Path) -> None:
    quiz, problems = read(write(tmp_path, "deploy.yaml", QUIZ))
    assert problems == []
    assert quiz is not None and quiz.id == "deploy"
    q1, q2 = quiz.sections[0].questions
    assert isinstance(q1, SingleChoiceQuestion) and q1.points == 2 and q1.choices[0].correct
    assert isinstance(q2, EssayQuestion) and q2.model_answer == "파드를 조금씩 교체합니다."


def test_yaml_quiz_builds(tmp_path: Path) -> None:
    source = write(tmp_path, "deploy.yaml", QUIZ)
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    assert sorted(p.name for p in result.written) == ["deploy.canvas.zip", "deploy.mbz", "deploy.moodle.xml", "deploy.qti21.zip"]


def test_unknown_key_is_located_at_the_key(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "q.yaml", QUIZ.replace("        points: 2", "        pionts: 2")))
    assert problems == ["10:9 QB203 unknown key 'pionts' in single_choice question 'q1'; did you mean 'points'?"]


def test_wrong_value_is_located_at_the_value(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "q.yaml", QUIZ.replace("points: 2", "points: two")))
    assert problems == ["10:17 QB205 'points' in single_choice question 'q1' must be a number, not 'two'"]


def test_no_correct_choice(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "q.yaml", QUIZ.replace(", correct: true", "")))
    assert problems == ["13:9 QB201 a single-choice question needs exactly one correct choice, found 0 (in single_choice question 'q1')"]


def test_duplicate_key(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "q.yaml", QUIZ.replace("language: ko\n", "language: ko\ntitle: again\n")))
    assert problems == ["3:1 QB113 duplicate key 'title'"]


def test_syntax_error(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "q.yaml", "title: [x\n"))
    assert problems == ["2:1 QB111 YAML syntax error: expected ',' or ']', but got '<stream end>'"]


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for n in range(1, 8):
        lines.append(f"{chr(97 + n)}: &{chr(97 + n)} [*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)},*{chr(96 + n)}]")
    _, problems = read(write(tmp_path, "bomb.yaml", "\n".join(lines) + "\n"))
    assert problems == ["6:29 QB114 the YAML's aliases (*name) repeat more than the 1,000,000 values a source may repeat"]


def test_type_the_writers_cannot_handle_yet_is_reported_not_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both writers handle every kind now: a QTI writer without true/false stands in for a new kind.
    from qti_builder.writers.qti21 import Qti21Writer

    monkeypatch.setattr(Qti21Writer, "adapters", {k: v for k, v in Qti21Writer.adapters.items() if k != "true_false"})
    source = write(tmp_path, "tf.yaml", QUIZ + '      - {type: true_false, id: q3, stem: "참일까요?", answer: true}\n')
    try:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    except BuildFailed as failed:
        rendered = [d.render() for d in failed.diagnostics]
    else:
        raise AssertionError("the build should fail")
    assert any(":20:9: error[QB301]: the qti21 writer cannot write true_false questions yet (question 'q3')" in r for r in rendered)
    assert not any("the moodle writer cannot write" in r for r in rendered)  # Moodle writes true/false
    assert not (tmp_path / "dist").exists()
