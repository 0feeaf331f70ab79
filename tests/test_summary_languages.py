"""What ``check`` and ``build`` say they understood, in the teacher's language: the line per quiz
(its questions by kind), the ``ok:`` and ``failed:`` lines, what each output loses (its count, and
each loss with ``--verbose``), each question with ``--verbose``, and ``check --outline``; and what
``import --lang`` says it imported, changed and skipped.

The language is the messages': ``--lang``, else the quiz's own ``language``, else English. So a
Korean quiz checked without ``--lang`` says all of it in Korean, as its errors; an English quiz,
or ``--lang en``, keeps the English lines scripts may read. The kinds are named as the preview
names them (kinds.py KindSpec.names), answers told with its words (i18n.py ANSWER_WORDS).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cli import run
from test_messages_translated_everywhere import english_words

from qti_builder.kinds import KINDS

#: A quiz of five kinds, a drawn section, and a setting Moodle XML has no place for; Canvas loses
#: part of the ordering question.
QUIZ = """title: Kinds
language: {language}
settings: {{time_limit: 30}}
sections:
  - id: main
    title: Main
    questions:
      - {{type: single_choice, id: pick, stem: Which?, choices: [{{id: A, text: a, correct: true}}, {{id: B, text: b}}]}}
      - {{type: single_choice, id: pick2, stem: Which?, points: 2, choices: [{{id: A, text: a}}, {{id: B, text: b, correct: true}}]}}
      - {{type: true_false, id: tf, stem: Sure?, answer: true}}
      - {{type: essay, id: why, stem: Why?}}
      - {{type: ordering, id: steps, stem: Order., items: [a, b, c]}}
  - id: pool
    title: Pool
    select: 1
    questions:
      - {{type: numerical, id: n1, stem: How many?, answers: [{{value: 3}}]}}
      - {{type: numerical, id: n2, stem: How many?, answers: [{{value: 4}}]}}
"""

#: A Korean paper, for --outline: two questions under a section, 3 points in all.
PAPER = """---
title: 쪽지 시험
language: ko
---

# Ⅰ. 객관식

1. 2 + 2는? (2점)

① 3
② 4

정답: ②

2. 물은 H2O이다. (1점)

정답: O
"""

LANGUAGES = ["ko", "ja", "zh"]


def quiz(tmp_path: Path, language: str = "en") -> Path:
    source = tmp_path / "kinds.yaml"
    source.write_text(QUIZ.format(language=language), encoding="utf-8")
    return source


def said(out: str, err: str) -> list[str]:
    """What the command said besides diagnostics: its summary lines, in order."""
    return [line for line in (out + err).splitlines() if line and not re.search(r"(error|warning)\[QB\d+\]|^    hint: ", line)]


def numbers(line: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", line)


def test_an_english_quiz_says_its_summary_in_english(tmp_path: Path) -> None:
    code, out, err = run("check", str(quiz(tmp_path)), "-j", "1")
    assert code == 0, err
    assert said(out, err) == [
        "kinds: 7 questions: 2 single choice, 1 true/false, 2 numerical, 1 essay, 1 ordering",
        "kinds.moodle.xml: Moodle loses the random draw of section 'pool', and the quiz setting time_limit (set it in the LMS)",
        "kinds.canvas.zip: Canvas loses 1 thing in 1 question (--verbose lists them)",
        "ok: 1 quiz, 7 questions (7 points), 4 outputs valid"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_lang_says_the_summary_in_the_language_with_the_same_numbers(tmp_path: Path, language: str) -> None:
    source = quiz(tmp_path)
    english = said(*run("check", str(source), "-j", "1")[1:])
    code, out, err = run("check", str(source), "-j", "1", "--lang", language)
    assert code == 0, err
    lines = said(out, err)
    assert [numbers(line) for line in lines] == [numbers(line) for line in english]
    assert [english_words(line) for line in lines] == [[]] * 4, lines
    kinds = re.split(r"[:：] ?", lines[0], maxsplit=2)[2]
    assert kinds.startswith(f"{KINDS['single_choice'].names[language]} 2"), lines  # the preview's name of the kind


def test_a_korean_quiz_says_its_summary_in_korean_without_lang(tmp_path: Path) -> None:
    code, out, err = run("check", str(quiz(tmp_path, "ko")), "-j", "1")
    assert code == 0, err
    assert said(out, err) == ["kinds: 7문항: 단일 선택 2, 참/거짓 1, 수치형 2, 서술형 1, 순서 배열 1",
                              "kinds.moodle.xml: Moodle에서 잃는 것: 대단원 'pool'의 무작위 출제, 퀴즈 설정 time_limit (LMS에서 설정하세요)",
                              "kinds.canvas.zip: Canvas에서 잃는 것: 2문항에서 2가지 (--verbose로 모두 봅니다)",  # O/X in Korean too
                              "통과: 퀴즈 1개, 7문항 (7점), 출력 4개 모두 유효"]
    # --lang en: the English lines, for a script that reads them.
    assert said(*run("check", str(quiz(tmp_path, "ko")), "-j", "1", "--lang", "en")[1:])[-1] == \
        "ok: 1 quiz, 7 questions (7 points), 4 outputs valid"


def test_build_says_what_each_output_loses_in_korean(tmp_path: Path) -> None:
    code, out, err = run("build", str(quiz(tmp_path)), "--out", str(tmp_path / "dist"), "-j", "1", "--lang", "ko")
    assert code == 0, err
    lines = said(out, err)
    moodle = next(line for line in lines if "kinds.moodle.xml" in line)
    assert moodle.endswith("kinds.moodle.xml 작성: Moodle에서 잃는 것: 대단원 'pool'의 무작위 출제, 퀴즈 설정 time_limit (LMS에서 설정하세요)"), moodle
    canvas = next(line for line in lines if "kinds.canvas.zip" in line)
    assert re.search(r"kinds\.canvas\.zip 작성: Canvas에서 잃는 것: 1문항에서 \d+가지 \(--verbose로 모두 봅니다\)$", canvas), canvas
    assert [english_words(line) for line in lines] == [[]] * len(lines), lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_verbose_lists_each_question_and_loss_in_the_language(tmp_path: Path, language: str) -> None:
    quiz(tmp_path)
    code, out, err = run("build", "kinds.yaml", "--out", "dist", "-j", "1", "-v", "--lang", language, cwd=tmp_path)
    assert code == 0, err
    lines = [line for line in said(out, err) if not re.search(r"\d\.\d\ds", line)]  # the timings stay as they are
    questions = [line for line in lines if re.match(r"  kinds\.yaml:\d+: ", line)]
    assert len(questions) == 7, lines
    assert questions[0].startswith(f"  kinds.yaml:8: pick ({KINDS['single_choice'].names[language]}"), questions
    losses = [line for line in lines if re.match(r"  kinds\.yaml:\d+:\d+: QB60\d: ", line)]
    assert len(losses) >= 3, lines
    assert [english_words(line) for line in lines] == [[]] * len(lines), lines


def test_a_failed_check_says_so_in_korean(tmp_path: Path) -> None:
    source = tmp_path / "broken.md"
    source.write_text("---\ntitle: 깨짐\nlanguage: ko\n---\n\n1. 어느 것? {#q type=single_choice}\n\nA) 가\nB) 나\n", encoding="utf-8")
    code, out, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert said(out, err)[-1] == "실패: 오류 1개", said(out, err)
    code, out, err = run("build", str(source), "--out", str(tmp_path / "dist"), "-j", "1", "--lang", "ja")
    assert said(out, err)[-1] == "失敗: エラー 1 件。何も書き出していません", said(out, err)


@pytest.mark.parametrize("language", [None, *LANGUAGES])
def test_the_outline_in_the_papers_language(tmp_path: Path, language: str | None) -> None:
    source = tmp_path / "paper.md"
    source.write_text(PAPER, encoding="utf-8")
    code, out, err = run("check", str(source), "--outline", "-j", "1", *(["--lang", language] if language else []))
    assert code == 0, err
    english = said(*run("check", str(source), "--outline", "-j", "1", "--lang", "en")[1:])
    lines = said(out, err)
    assert len(lines) == len(english) >= 5 and english[0].startswith("outline ")
    assert [numbers(line) for line in lines] == [numbers(line) for line in english]
    assert [english_words(line) for line in lines] == [[]] * len(lines), lines
    row = next(line for line in lines if line.lstrip().startswith("1. "))
    assert row.split(" | ")[0].endswith(KINDS["single_choice"].names[language or "ko"]), row


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_says_what_it_imported_and_skipped_in_the_language_asked(tmp_path: Path, language: str) -> None:
    # A Moodle XML export with questions of every kind import reads, and types it skips: the
    # lines after the warnings, as `import --lang` prints them, with the English run's numbers.
    from test_messages_translated_everywhere import MOODLE_XML

    (tmp_path / "moodle.xml").write_text(MOODLE_XML, encoding="utf-8")
    said_in = {}
    for lang in ("en", language):
        code, out, err = run("import", "moodle.xml", "--out", f"out-{lang}", "--lang", lang, cwd=tmp_path)
        assert code == 4, err
        said_in[lang] = said(out, err)
    english, lines = said_in["en"], said_in[language]
    assert english[0].startswith("imported ") and english[-1].startswith("5 questions could not be imported"), english
    assert len(lines) == len(english) >= 4
    assert [numbers(line) for line in lines] == [numbers(line) for line in english]
    assert [english_words(line) for line in lines] == [[]] * len(lines), lines
    assert KINDS["single_choice"].names[language] in lines[0], lines
