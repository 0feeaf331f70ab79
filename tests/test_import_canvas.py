"""Importing Canvas's own format (QTI 1.2 with Canvas's metadata): a Canvas Classic quiz export
written for these tests the way Canvas's exporter writes one (lib/cc/qti/qti_items.rb and
qti_generator.rb in canvas-lms), the same quiz as a course export, real text2qti 0.8 output
(tests/fixtures/import/text2qti-zip/README.md says how it was made), a package in the form
qti-builder's Canvas writer makes, hostile packages; each imported quiz then builds."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from helpers import ROOT
from helpers.cli import run
from helpers.importing import CANVAS_BANK, CANVAS_BANK_ENTRY, FIXTURES, builds, canvas_bank_zip, messages, run_import, zipped

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import detect, import_path
from qti_builder.importers.canvas import import_canvas
from qti_builder.importers.command import import_summary
from qti_builder.importers.canvas.text import equations_to_tex, strip_positions
from qti_builder.pipeline import BuildOptions, build

EXPORT = FIXTURES / "canvas-export"
QUIZ = "i0f3e5d7c9b1a2e4d6c8b0a1f3e5d7c9b"
ASSESSMENT = f"{QUIZ}/{QUIZ}.xml"
OURS = FIXTURES / "canvas-package"
TEXT2QTI_ZIP = FIXTURES / "text2qti-zip/cell-quiz.zip"
PNG = (FIXTURES / "text2qti-zip/cell.png").read_bytes()


def find(found: list[str], *parts: str) -> str:
    """The one diagnostic that holds every part."""
    hits = [m for m in found if all(p in m for p in parts)]
    assert len(hits) == 1, (parts, found)
    return hits[0]


# -- a Canvas Classic quiz export ---------------------------------------------------------------------


@pytest.mark.parametrize("as_zip", [True, False], ids=["zip", "folder"])
def test_canvas_classic_export(tmp_path: Path, as_zip: bool) -> None:
    path = zipped(EXPORT, tmp_path / "quiz-export.zip") if as_zip else EXPORT
    assert detect(path).name == "canvas"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    found = messages(sink)
    where = f"{path.name}:{ASSESSMENT}"
    # Skipped and lost, each at its line.
    # A formula question is a calculated one, whole: no warning (test_formula_questions_are_calculated).
    assert not [m for m in found if ":953:1:" in m]
    assert ":659:1:" in find(found, "wrong match of '미토콘드리아'")
    assert ":762:1:" in find(found, "feedback on answer '핵' of blank 'place'")
    assert ":508:1:" in find(found, "excluded bound of the range 3.135..3.145")
    meta = f"{path.name}:{QUIZ}/assessment_meta.xml"
    assert f"{meta}:14:1" in find(found, "access code 'cell42'")
    assert f"{where}:3:1" in find(found, "does not record the quiz's language; 'ko'")
    assert len(found) == 5, found  # nothing else: every kept field is reported by the asserts below

    (item,) = quizzes
    assert item.skipped == {}
    assert "skipped" not in import_summary(item)[1]
    quiz = item.quiz
    assert quiz.title == "세포 생물학 퀴즈" and quiz.language == "ko"  # assessment_meta.xml's title wins
    assert quiz.description == "세포의 **구조**와 기능에 관한 퀴즈입니다."
    # scoring_policy keep_latest (line 6) and cant_go_back true (line 21) are settings of the source.
    assert quiz.settings.given() == {"time_limit": 30, "allowed_attempts": "unlimited", "shuffle_answers": False,
                                     "show_correct_answers": False, "one_question_at_a_time": True,
                                     "lock_questions_after_answering": True, "grading_method": "last", "quiz_type": "practice"}
    assert not quiz.id.startswith("i0f3")  # Canvas's generated key is no id a person chose
    main, group = quiz.sections
    assert main.title == "세포 생물학 퀴즈" and main.select is None
    kinds = [q.type for q in main.questions]
    assert kinds == ["single_choice", "true_false", "true_false", "multiple_response", "short_answer", "numerical", "numerical",
                     "numerical", "essay", "file_upload", "matching", "fill_in_blank", "fill_in_blank", "text_only", "calculated"]
    mc, tf, tf_ko, ma, short, exact, margin, precision, essay, upload, match, dropdowns, blanks, text, formula = main.questions

    assert mc.title == "세포의 발전소" and mc.points == 2 and mc.shuffle is False
    assert mc.stem == "세포의 *발전소*라고 불리는 소기관은 무엇입니까?\n\n![세포 그림](media/cell-diagram-949e22933c.png)"
    assert [(c.text, c.correct) for c in mc.choices] == [("핵", False), ("미토콘드리아", True), ("**리보솜**", False)]
    assert mc.choices[0].feedback == "핵은 DNA를 보관합니다." and mc.choices[1].feedback is None
    assert (mc.feedback.general, mc.feedback.correct, mc.feedback.incorrect) == \
        ("미토콘드리아는 ATP를 만듭니다.", "잘했습니다!", "소기관을 다시 복습하세요.")
    assert item.media == {"media/cell-diagram-949e22933c.png": (EXPORT / "web_resources/Uploaded Media/cell diagram.png").read_bytes()}

    assert tf.title is None and tf.answer is True and tf.false_feedback == "식물 세포는 셀룰로스 세포벽이 있습니다."
    assert tf_ko.stem == "바이러스는 세포이다." and tf_ko.answer is False  # a multiple choice 참/거짓 in a Korean quiz

    assert [(c.text, c.correct) for c in ma.choices] == [("핵", True), ("세포질", False), ("골지체", True)]
    assert ma.choices[1].feedback == "세포질은 소기관이 아닙니다." and ma.feedback.correct == "정답입니다."

    assert [(a.text, a.score, a.feedback) for a in short.answers] == [("DNA", 100, "약어도 정답입니다."), ("디옥시리보핵산", 100, None)]
    assert short.feedback.incorrect == "답은 DNA입니다." and short.case_sensitive is False

    assert [(a.value, a.tolerance, a.feedback) for a in exact.answers] == [(46, 0, "23쌍입니다.")]
    assert [(a.value, a.tolerance, a.feedback) for a in margin.answers] == [(7.5, 0.5, None), (7.5, 1.5, "대략 맞습니다.")]
    assert precision.title == "원주율" and precision.points == 1.5
    assert [(a.value, a.tolerance) for a in precision.answers] == [(3.14, 0.005)]
    assert precision.stem == "원의 넓이가 $\\pi r^2$일 때, $\\pi$를 유효숫자 세 자리로 쓰시오.\n\n$$\nA = \\pi r^2\n$$"

    assert essay.points == 3 and essay.feedback.general == "물은 용질 농도가 높은 쪽으로 이동합니다."
    assert "```python\nwater = \"H2O\"  # 물\n```" in essay.stem and essay.model_answer is None
    assert upload.points == 2 and upload.feedback.general == "손으로 그려도 됩니다."

    assert [(p.prompt, p.answer) for p in match.pairs] == [("미토콘드리아", "세포 호흡"), ("리보솜", "단백질 합성")]
    assert match.distractors == ["광합성"] and match.shuffle is False

    assert dropdowns.stem == "광합성은 [[b1]]에서 일어나고 [[b2]]를 만든다."
    assert [(b.kind, b.answers, b.options) for b in dropdowns.blanks] == [("dropdown", ["엽록체"], ["핵"]),
                                                                          ("dropdown", ["포도당"], ["단백질"])]
    assert blanks.stem == "아데닌은 [[b1]]과, 구아닌은 [[b2]]과 결합한다."
    assert [(b.kind, b.answers) for b in blanks.blanks] == [("text", ["티민", "T"]), ("text", ["시토신"])]

    assert text.points == 0 and text.stem.startswith("다음 문제는 [세포](https://ko.wikipedia.org/wiki/")
    # The formula question: its variable set, its formula (n*4 in Canvas's calculator), [n] in its text.
    assert formula.type == "calculated" and formula.stem == "세포 {n}개가 두 번 분열하면 몇 개가 됩니까?" and formula.points == 1
    assert (formula.sets, formula.answer, formula.tolerance, formula.tolerance_mode, formula.decimals) == (
        [{"n": 3.0}], "n * 4", 0, "absolute", 0)

    assert group.title == "세포 분열 문제 모음" and group.select == 1
    assert [(q.type, q.points) for q in group.questions] == [("single_choice", 3), ("single_choice", 3)]  # points_per_item
    builds(quiz, item.media, tmp_path)


def cc_subset() -> str:
    """The Common Cartridge copy a course export also holds: ``cc_profile`` metadata, only the
    types CC knows, groups cut down to their picks (qti_generator.rb, for_cc)."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="{QUIZ}" title="세포 생물학 퀴즈">
    <qtimetadata>
      <qtimetadatafield><fieldlabel>cc_profile</fieldlabel><fieldentry>cc.exam.v0p1</fieldentry></qtimetadatafield>
      <qtimetadatafield><fieldlabel>cc_maxattempts</fieldlabel><fieldentry>unlimited</fieldentry></qtimetadatafield>
    </qtimetadata>
    <section ident="root_section">
      <item ident="g1a2b3c4d5e6f708192a3b4c5d6e7f809" title="Question">
        <itemmetadata><qtimetadata>
          <qtimetadatafield><fieldlabel>cc_profile</fieldlabel><fieldentry>cc.essay.v0p1</fieldentry></qtimetadatafield>
          <qtimetadatafield><fieldlabel>qmd_computerscored</fieldlabel><fieldentry>No</fieldentry></qtimetadatafield>
        </qtimetadata></itemmetadata>
        <presentation><material><mattext texttype="text/html">&lt;div&gt;&lt;p&gt;삼투 현상을 설명하시오.&lt;/p&gt;&lt;/div&gt;</mattext></material>
          <response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>
        </presentation>
      </item>
    </section>
  </assessment>
</questestinterop>
"""


def course_export(tmp_path: Path, assessment: str | None = None, bank: bool = True) -> Path:
    """The fixture quiz as Canvas's course export lays it out (.imscc)."""
    path = tmp_path / "course.imscc"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("imsmanifest.xml", (EXPORT / "imsmanifest.xml").read_bytes().replace(
            b'type="imsqti_xmlv1p2"', b'type="imsqti_xmlv1p2/imscc_xmlv1p1/assessment"'))
        archive.writestr(f"{QUIZ}/assessment_qti.xml", cc_subset())
        archive.writestr(f"{QUIZ}/assessment_meta.xml", (EXPORT / QUIZ / "assessment_meta.xml").read_bytes())
        archive.writestr(f"non_cc_assessments/{QUIZ}.xml.qti", assessment or (EXPORT / ASSESSMENT).read_text(encoding="utf-8"))
        if bank:
            archive.writestr(CANVAS_BANK_ENTRY, CANVAS_BANK)
        archive.write(EXPORT / "web_resources/Uploaded Media/cell diagram.png", "web_resources/Uploaded Media/cell diagram.png")
        archive.writestr("course_settings/canvas_export.txt", "Q: What did the panda say when he was forced out of his natural habitat?")
    return path


def test_course_export_reads_the_full_copy_once(tmp_path: Path) -> None:
    path = course_export(tmp_path)
    assert detect(path).name == "canvas"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    # The CC subset is the same quiz, not a second one; the bank no quiz uses is a quiz of its own
    # (issue 32: a real course export kept 40 of its 269 questions, its banks left out).
    item, bank = quizzes
    assert len(list(item.quiz.iter_questions())) == 17 and item.quiz.sections[1].select == 1  # the formula question too
    assert any(q.type == "calculated" for q in item.quiz.iter_questions())
    assert f"question bank '분열 문제 은행' is used by no quiz in the package; imported as a quiz of its own, '{bank.quiz.id}'" \
        in find(messages(sink), "분열 문제 은행")
    assert bank.quiz.title == "분열 문제 은행" and [q.type for q in bank.quiz.iter_questions()] == ["short_answer", "essay"]
    assert item.media  # $IMS_CC_FILEBASE$ is the course's web_resources/ folder


def test_question_group_drawing_from_a_bank(tmp_path: Path) -> None:
    group = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="{QUIZ}" title="은행 퀴즈">
    <section ident="root_section">
      <section ident="g5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c" title="은행에서">
        <selection_ordering><selection>
          <sourcebank_ref>i8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b</sourcebank_ref>
          <selection_number>1</selection_number>
          <selection_extension><points_per_item>2.0</points_per_item></selection_extension>
        </selection></selection_ordering>
      </section>
      <section ident="g6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d" title="다른 과목의 은행">
        <selection_ordering><selection>
          <sourcebank_ref>1234</sourcebank_ref>
          <selection_number>2</selection_number>
        </selection></selection_ordering>
      </section>
    </section>
  </assessment>
</questestinterop>
"""
    quizzes, sink = run_import(course_export(tmp_path, group))
    assert not sink.errors, messages(sink)
    (section,) = quizzes[0].quiz.sections
    assert section.title == "은행에서" and section.select == 1
    assert [(q.type, q.points) for q in section.questions] == [("short_answer", 2), ("essay", 2)]
    assert "draws from question bank '1234', which is not in the package" in find(messages(sink), "'1234'")
    assert not any("used by no quiz" in m for m in messages(sink))


def test_banks_alone_are_quizzes(tmp_path: Path) -> None:
    quizzes, sink = run_import(canvas_bank_zip(tmp_path / "banks.zip"))
    assert not sink.errors, messages(sink)
    quiz = quizzes[0].quiz
    assert quiz.title == "분열 문제 은행" and [q.type for q in quiz.iter_questions()] == ["short_answer", "essay"]


# -- text2qti -------------------------------------------------------------------------------------------


def test_text2qti_zip(tmp_path: Path) -> None:
    assert detect(TEXT2QTI_ZIP).name == "canvas"
    quizzes, sink = run_import(TEXT2QTI_ZIP)
    assert not sink.errors, messages(sink)
    found = messages(sink)
    assert "hide_results" in find(found, "'always'")  # text2qti hides results when correct answers are not shown
    assert "'en' was taken from its text" in find(found, "language")
    assert len(found) == 2, found
    item = quizzes[0]
    quiz = item.quiz
    assert quiz.id == "cell-biology-text2qti-zip" and quiz.title == "Cell biology (text2qti zip)"
    assert quiz.description == "A quiz written for text2qti and converted with text2qti 0.8."
    assert quiz.settings.given() == {"allowed_attempts": 1, "shuffle_answers": True, "show_correct_answers": False,
                                     "one_question_at_a_time": True, "lock_questions_after_answering": False,
                                     "grading_method": "highest", "quiz_type": "graded"}
    main, group = quiz.sections
    assert [q.type for q in main.questions] == ["single_choice", "multiple_response", "true_false", "short_answer", "numerical",
                                                "numerical", "numerical", "numerical", "text_only", "essay", "file_upload"]
    mc, ma, tf, short, n46, margin, interval, percent, text, essay, upload = main.questions
    assert mc.id == "powerhouse" and mc.title == "Powerhouse" and mc.points == 2  # text2qti's "Question" is no title
    assert mc.stem == "Which organelle is the *powerhouse* of the cell? ![A cell](media/cell.png)"
    assert item.media == {"media/cell.png": PNG}
    assert mc.choices[0].feedback == "The nucleus holds the DNA." and mc.choices[1].correct
    assert (mc.feedback.general, mc.feedback.correct, mc.feedback.incorrect) == ("Mitochondria make ATP.", "Well done.",
                                                                               "Review the organelles.")
    assert [c.correct for c in ma.choices] == [True, False, True] and ma.choices[0].feedback == "Yes, the nucleus is one."
    assert tf.answer is True and tf.title is None
    assert [a.text for a in short.answers] == ["DNA", "deoxyribonucleic acid"]
    assert [(a.value, a.tolerance) for q in (n46, margin, interval, percent) for a in q.answers] == \
        [(46, 0), (7.5, 0.5), (37, 1), (9, 0.9)]  # "9 +- 10%" arrives as text2qti's bounds, 8.1..9.9
    assert percent.stem == "What is $x^2$ when $x = 3$?"
    assert text.type == "text_only" and text.stem == "마지막 두 문제는 서술형입니다." and text.title is None
    assert essay.feedback.general == "Water moves towards the higher solute concentration."
    assert group.select == 1 and [(q.type, q.points, q.answer) for q in group.questions] == [("true_false", 2, False),
                                                                                             ("true_false", 2, False)]
    builds(quiz, item.media, tmp_path)


def test_text2qti_zip_and_its_text_import_alike() -> None:
    """The text importer reads the source text2qti made the zip from: the questions agree."""
    zipped_quiz = run_import(TEXT2QTI_ZIP)[0][0].quiz
    text_quiz = run_import(FIXTURES / "text2qti-zip/cell-quiz.txt", "text2qti")[0][0].quiz
    for from_zip, from_text in zip(zipped_quiz.iter_questions(), text_quiz.iter_questions(), strict=True):
        assert (from_zip.type, from_zip.points, from_zip.feedback) == (from_text.type, from_text.points, from_text.feedback)


# -- qti-builder's own Canvas package -------------------------------------------------------------------


def test_qti_builder_canvas_package(tmp_path: Path) -> None:
    path = zipped(OURS, tmp_path / "cells-ko.canvas.zip")
    quizzes = import_canvas(path, path.name, sink := DiagnosticSink())
    assert not sink.errors and [m for m in messages(sink) if "language" not in m] == []
    item = quizzes[0]
    quiz = item.quiz
    assert quiz.id == "cells-ko" and quiz.title == "세포 퀴즈" and quiz.language == "ko"
    assert quiz.description == "qti-builder가 만든 패키지입니다."
    assert quiz.settings.given() == {"allowed_attempts": 3, "shuffle_answers": True, "show_correct_answers": True,
                                     "one_question_at_a_time": False, "lock_questions_after_answering": False,
                                     "grading_method": "highest", "quiz_type": "graded"}
    main, division = quiz.sections
    assert [q.id for q in main.questions] == ["virus", "steps", "organelle", "cell-size", "explain"]  # <quiz-id>. taken off
    assert all(q.title is None for q in quiz.iter_questions())  # every title is the one derived from the stem
    virus, steps, organelle, size, explain = main.questions
    assert virus.type == "true_false" and virus.answer is False and virus.true_feedback == "바이러스는 스스로 대사하지 못합니다."
    assert steps.type == "ordering" and steps.stem == "세포 분열 단계를 순서대로 놓으시오." and steps.items == ["전기", "중기", "후기"]
    assert steps.points == 3
    assert organelle.stem == "[[organelle]]는 ATP를 만든다. ![세포](media/cell.png)"  # our blank id, the media name back
    assert organelle.blanks[0].answers == ["미토콘드리아", "mitochondria"] and item.media == {"media/cell.png": PNG}
    assert [(a.value, a.tolerance, a.score, a.feedback) for a in size.answers] == [(10, 5, 100, None),
                                                                                (50.5, 49.5, 50, "자릿수는 맞습니다.")]
    assert explain.model_answer == "물이 반투과성 막을 지나 이동하는 현상." and explain.points == 2
    # The text-only item before a group, titled like it, is the group's description.
    assert division.id == "division" and division.title == "분열" and division.description == "다음 중 한 문제가 출제됩니다."
    assert division.select == 1 and [q.id for q in division.questions] == ["mitosis", "meiosis"]
    assert [q.points for q in division.questions] == [2, 2]  # qmd_weighting
    mitosis, meiosis = division.questions
    assert [c.correct for c in mitosis.choices] == [True, True, False]
    assert [a.text for a in meiosis.answers] == ["4", "네 개", "a\\*b"]  # Canvas has no wildcards: a star is a star
    builds(quiz, item.media, tmp_path)


def test_namespaced_and_plain_documents_read_alike(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(OURS, plain)
    document = plain / "cells-ko/cells-ko.xml"
    document.write_text(document.read_text(encoding="utf-8").replace(
        "<questestinterop>", '<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">'), encoding="utf-8")
    assert run_import(plain)[0][0].quiz == run_import(OURS)[0][0].quiz


def test_numerical_forms_and_grading_notes_come_back(tmp_path: Path) -> None:
    """The package as qti-builder writes it now (the QTI 1.2 namespace, exact answers with their
    bounds, the margin stated on the value, grading_notes beside the example solution) reads back
    as written: a percent margin stays a percent."""
    source = tmp_path / "n.md"
    source.write_text("""---
title: N
---
1. Exact? {#exact type=numerical}

Answer: 46

2. Margin? {#margin type=numerical}

Answer: 3.5 ± 0.05

3. Percent? {#percent type=numerical}

Answer: 200 ± 20%

4. Range? {#range type=numerical}

Answer: 2..4

5. Explain. {#explain type=essay}

Answer: First paragraph with `code`.

Second paragraph.
""", encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"]))
    quizzes, sink = run_import(tmp_path / "dist" / "n.canvas.zip")
    assert not sink.errors and [m for m in messages(sink) if "language" not in m] == []
    exact, margin, percent, interval, explain = quizzes[0].quiz.iter_questions()
    assert [(a.value, a.tolerance, a.tolerance_mode) for q in (exact, margin, percent, interval) for a in q.answers] == [
        (46, 0, "absolute"), (3.5, 0.05, "absolute"), (200, 20, "percent"), (3, 1, "absolute")]
    assert explain.model_answer == "First paragraph with `code`.\n\nSecond paragraph."


def test_a_package_built_now_reads_alike_with_and_without_its_namespace(tmp_path: Path) -> None:
    """The package is written in the ims_qtiasiv1p2 namespace now; one written without it (as
    qti-builder did before, or as another tool does) reads as the same quiz."""
    build(BuildOptions(sources=[ROOT / "source/python-fundamentals.md"], out_dir=tmp_path / "dist", formats=["canvas"]))
    built = tmp_path / "dist" / "python-fundamentals.canvas.zip"
    plain = tmp_path / "plain" / "python-fundamentals.canvas.zip"
    plain.parent.mkdir()
    with zipfile.ZipFile(built) as source, zipfile.ZipFile(plain, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "python-fundamentals/python-fundamentals.xml":
                assert b'<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"' in data
                data = re.sub(rb"<questestinterop [^>]*>", b"<questestinterop>", data)
            target.writestr(name, data)
    (namespaced,), first = run_import(built)
    (bare,), second = run_import(plain)
    assert not first.errors and not second.errors
    assert namespaced.quiz == bare.quiz and len(list(bare.quiz.iter_questions())) == 12


def numerical_item(value: str, bounds: str = "", margin: str = "") -> str:
    return f"""<item ident="q1" title="Question"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>
<fieldentry>numerical_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>
<presentation><material><mattext texttype="text/plain">How much?</mattext></material><response_str ident="response1"
rcardinality="Single"><render_fib fibtype="Decimal"><response_label ident="answer1"/></render_fib></response_str></presentation>
<resprocessing><respcondition continue="No"><conditionvar><or><varequal respident="response1" {margin}>{value}</varequal>{bounds}
</or></conditionvar><setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing></item>"""


def test_a_stated_margin_that_disagrees_with_the_bounds_is_reported(tmp_path: Path) -> None:
    # Classic grades by the bounds, New Quizzes by the margin: the margin is kept, the bounds named.
    bounds = '<and><vargte respident="response1">9</vargte><varlte respident="response1">11</varlte></and>'
    quizzes, sink = single_item(tmp_path, numerical_item("10", bounds, 'margintype="absolute" margin="0.5"'))
    (question,) = quizzes[0].quiz.iter_questions()
    assert [(a.value, a.tolerance) for a in question.answers] == [(10, 0.5)]
    assert "the bounds 9..11 that Classic grades by, which disagree with the margin 0.5" in find(messages(sink), "disagree")


def test_grading_notes_alone_are_the_model_answer(tmp_path: Path) -> None:
    """A New Quizzes essay carries its notes for graders in grading_notes only (plain text)."""
    item = """<item ident="q1" title="Question"><itemmetadata><qtimetadata>
<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>essay_question</fieldentry></qtimetadatafield>
<qtimetadatafield><fieldlabel>grading_notes</fieldlabel><fieldentry>Look for *both* parts.

Give 2 points for a &lt;list&gt;.</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>
<presentation><material><mattext texttype="text/plain">Explain.</mattext></material><response_str ident="response1"
rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str></presentation>
<resprocessing><respcondition continue="No"><conditionvar><other/></conditionvar></respcondition></resprocessing></item>"""
    quizzes, sink = single_item(tmp_path, item)
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "essay" and not sink.errors
    assert question.model_answer == "Look for \\*both\\* parts.\n\nGive 2 points for a \\<list\\>."


# -- New Quizzes' exports and R/exams (issue 22) -------------------------------------------------------------


NEW_QUIZZES = FIXTURES / "new-quizzes-export"


@pytest.mark.parametrize("as_zip", [True, False], ids=["zip", "folder"])
def test_new_quizzes_export(tmp_path: Path, as_zip: bool) -> None:
    path = zipped(NEW_QUIZZES, tmp_path / "nq-export.zip") if as_zip else NEW_QUIZZES
    assert detect(path).name == "canvas"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)  # assessment_meta.xml's xmlns:xsi holds two URLs: read all the same
    found = messages(sink)
    where = f"{path.name}:g4a7c2e9b1d3f5a6c8e0b2d4f6a8c0e1/g4a7c2e9b1d3f5a6c8e0b2d4f6a8c0e1.xml"
    assert f"{where}:82:1: warning[QB711]" in find(found, "categorization question is imported as matching")
    assert f"{where}:82:1: warning[QB711]" in find(found, "the distractor 'Keratin' (an item in no category")
    assert f"{where}:216:1: warning[QB711]" in find(found, "the labels at the top and bottom of the list")
    assert f"{where}:356:1: warning[QB710]" in find(found, "'Find the nucleus' (hot_spot_question): a New Quizzes hot-spot "
                                                           "question (a click on an image) has no form in the source; skipped")
    assert len(found) == 5, found  # and the quiz language
    (item,) = quizzes
    assert item.skipped == {"hot_spot_question": 1}
    quiz = item.quiz
    assert quiz.title == "Plant cells (New Quizzes)" and quiz.description == "Exported from New Quizzes."
    assert quiz.settings.given() == {"allowed_attempts": 2, "shuffle_answers": False, "quiz_type": "graded"}
    stimulus, child, sort, phases, formula = quiz.iter_questions()
    # The stimulus: a text-only item before its question.
    assert (stimulus.type, stimulus.title, stimulus.points) == ("text_only", "Reading: chloroplasts", 0)
    assert stimulus.stem == "Plant cells make sugar in their **chloroplasts**."
    assert child.type == "single_choice" and [c.correct for c in child.choices] == [True, False]
    # Categorization: each item matched with its category; a category with no item a distractor.
    assert sort.type == "matching" and sort.points == 2
    assert [(p.prompt, p.answer) for p in sort.pairs] == [("Cell wall", "Plant cells only"), ("Nucleus", "Both"),
                                                          ("Chloroplast", "Plant cells only"), ("Cell membrane", "Both")]
    assert sort.distractors == ["Animal cells only"]
    # Ordering: the order of the varequals, not the order the items are listed in.
    assert phases.type == "ordering" and phases.items == ["Prophase", "Metaphase", "Anaphase", "Telophase"]
    # Formula: a calculated question with both variable sets, its formula, the relative tolerance.
    assert formula.type == "calculated" and formula.points == 3
    assert formula.stem == "A cell {d} µm wide grows by {g} µm. How wide is it now, in µm?"
    assert formula.sets == [{"d": 12.5, "g": 2.5}, {"d": 18.0, "g": 1.5}] and formula.answer == "d + g"
    assert (formula.tolerance, formula.tolerance_mode, formula.decimals) == (5, "percent", 1)
    assert [(v.name, v.decimals) for v in formula.variables] == [("d", 1), ("g", 1)]
    # New Quizzes' generated idents (UUIDs) are no ids: they come from the titles.
    assert [q.id for q in quiz.iter_questions()] == ["reading-chloroplasts", "where-is-sugar-made", "sort-the-parts",
                                                     "phases-of-mitosis", "growing-cell"]
    builds(quiz, item.media, tmp_path)


def test_a_stimulus_comes_before_its_questions(tmp_path: Path) -> None:
    """A question names its stimulus: the stimulus is read just before the first of them, wherever
    it stands in the file."""
    def item(ident: str, kind: str, text: str, parent: str = "") -> str:
        field = (f"<qtimetadatafield><fieldlabel>parent_stimulus_item_ident</fieldlabel><fieldentry>{parent}</fieldentry>"
                 "</qtimetadatafield>") if parent else ""
        body = ("<response_str ident=\"response1\" rcardinality=\"Single\"><render_fib><response_label ident=\"a\"/></render_fib>"
                "</response_str>") if kind == "essay_question" else ""
        return (f'<item ident="{ident}" title="{text}"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type'
                f"</fieldlabel><fieldentry>{kind}</fieldentry></qtimetadatafield>{field}</qtimetadata></itemmetadata><presentation>"
                f"<material><mattext>{text}</mattext></material>{body}</presentation></item>")
    quizzes, sink = single_item(tmp_path, item("q1", "essay_question", "First question", parent="s1")
                                + item("q2", "essay_question", "Second question", parent="s1")
                                + item("s1", "text_only_question", "The passage"))
    assert [(q.type, q.stem) for q in quizzes[0].quiz.iter_questions()] == [
        ("text_only", "The passage"), ("essay", "First question"), ("essay", "Second question")]


def test_new_quizzes_types_without_question_type_are_found_by_their_responses(tmp_path: Path) -> None:
    order = """<item ident="o" title="Order"><presentation><material><mattext>Order them.</mattext></material>
<response_lid ident="r" rcardinality="Ordered"><render_choice><response_label ident="b"><material><mattext>two</mattext></material>
</response_label><response_label ident="a"><material><mattext>one</mattext></material></response_label></render_choice></response_lid>
</presentation><resprocessing><respcondition><conditionvar><varequal respident="r">a</varequal><varequal respident="r">b</varequal>
</conditionvar><setvar action="Set">100</setvar></respcondition></resprocessing></item>"""
    spot = """<item ident="h" title="Spot"><presentation><response_xy ident="r" rcardinality="Single"><material><mattext>Click.
</mattext></material><render_hotspot><response_label ident="r" rarea="ellipse">1,2,3,4</response_label></render_hotspot>
</response_xy></presentation></item>"""
    quizzes, sink = single_item(tmp_path, order + spot)
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "ordering" and question.items == ["one", "two"]
    assert "read as ordering_question from its responses" in find(messages(sink), "'Order'")
    assert "(hot_spot_question)" in find(messages(sink), "'Spot'", "skipped")


def r_exams_item(ident: str, condition: str, points: str = "2") -> str:
    """A numerical item as R/exams' exams2canvas writes one (exams2qti12.R, flavor "canvas"):
    ``response_num`` with a decimal ``render_fib``, the score out of the question's points
    (``decvar maxvalue``), a right answer setting it to the points."""
    return f"""<item ident="{ident}" title="{ident}"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>
<fieldentry>numerical_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><flow><material><matbreak/>
<mattext texttype="text/html" charset="utf-8"><![CDATA[<p>What is the mean?</p>]]></mattext></material><response_num
ident="{ident}-r" rcardinality="Single" numtype="Decimal"><render_fib fibtype="Decimal" maxchars="12"><flow_label class="Block">
<response_label ident="{ident}-r" rshuffle="No"/></flow_label></render_fib></response_num></flow></presentation><resprocessing>
<outcomes><decvar varname="SCORE" vartype="Decimal" defaultval="0" minvalue="0" maxvalue="{points}" cutvalue="{points}"/></outcomes>
<respcondition title="Mastery" continue="No"><conditionvar>{condition}</conditionvar>
<setvar varname="SCORE" action="Set">{points}</setvar><displayfeedback feedbacktype="Response" linkrefid="correct_fb"/></respcondition>
<respcondition continue="Yes"><conditionvar><other/></conditionvar><displayfeedback feedbacktype="Response" linkrefid="general_fb"/>
</respcondition></resprocessing></item>"""


def test_r_exams_numerical_answers_are_worth_100_percent(tmp_path: Path) -> None:
    """Canvas makes each R/exams numerical answer a numerical answer at weight 100 (its
    numeric_interaction.rb): the score is out of the decvar's maxvalue, the question's points."""
    margin = ('<or><varequal respident="m-r" case="No"><![CDATA[4.2]]></varequal><and><vargte respident="m-r"><![CDATA[4.1]]>'
              '</vargte><varlte respident="m-r"><![CDATA[4.3]]></varlte></and></or>')
    interval = '<and><vargte respident="i-r"><![CDATA[10]]></vargte><varlte respident="i-r"><![CDATA[20]]></varlte></and>'
    quizzes, sink = single_item(tmp_path, r_exams_item("m", margin) + r_exams_item("i", interval, points="1"))
    assert not [m for m in messages(sink) if "skipped" in m], messages(sink)
    with_margin, within_range = quizzes[0].quiz.iter_questions()
    assert [(a.value, a.tolerance, a.score) for a in with_margin.answers] == [(4.2, 0.1, 100)]
    assert [(a.value, a.tolerance, a.score) for a in within_range.answers] == [(15, 5, 100)]


# -- pieces -------------------------------------------------------------------------------------------


def single_item(tmp_path: Path, item: str, meta: str = "") -> tuple[list, DiagnosticSink]:
    path = tmp_path / "one.xml"
    path.write_text(f"""<questestinterop><assessment ident="one" title="One">{meta}<section ident="root_section">
{item}</section></assessment></questestinterop>""", encoding="utf-8")
    return run_import(path)


def test_a_single_qti12_file_without_settings_file(tmp_path: Path) -> None:
    item = """<item ident="q1" title="Question"><presentation><material><mattext texttype="text/plain">Pick &lt;b&gt;
one</mattext></material><response_lid ident="response1" rcardinality="Single"><render_choice>
<response_label ident="a"><material><mattext>A &amp; B</mattext></material></response_label>
<response_label ident="b"><material><mattext>C</mattext></material></response_label></render_choice></response_lid></presentation>
<resprocessing><respcondition><conditionvar><varequal respident="response1">b</varequal></conditionvar>
<setvar action="Set">100</setvar></respcondition></resprocessing></item>"""
    meta = """<qtimetadata><qtimetadatafield><fieldlabel>qmd_timelimit</fieldlabel><fieldentry>45</fieldentry></qtimetadatafield>
<qtimetadatafield><fieldlabel>cc_maxattempts</fieldlabel><fieldentry>2</fieldentry></qtimetadatafield></qtimetadata>"""
    quizzes, sink = single_item(tmp_path, item, meta)
    assert detect(tmp_path / "one.xml").name == "canvas"
    assert "has no Canvas question_type; read as multiple_choice_question" in find(messages(sink), "question_type")
    quiz = quizzes[0].quiz
    assert quiz.id == "one" and quiz.settings.given() == {"time_limit": 45, "allowed_attempts": 2}
    (question,) = quiz.iter_questions()
    assert question.type == "single_choice" and question.id == "q1" and question.points == 1
    assert question.stem == "Pick \\<b\\>\\\none"  # plain text, shown as written: "Pick <b>", a line break, "one"
    assert [(c.text, c.correct) for c in question.choices] == [("A & B", False), ("C", True)]


@pytest.mark.parametrize("tag, tex", [
    ('<img class="equation_image" title="x^2" src="/equation_images/x%255E2?scale=1" alt="LaTeX: x^2" data-equation-content="x^2">', "x^2"),
    ('<img class="equation_image" alt="LaTeX: \\frac{1}{2}" src="/equation_images/whatever">', "\\frac{1}{2}"),
    ('<img class="equation_image" src="https://c.example/equation_images/%255Csqrt%257B2%257D?scale=1">', "\\sqrt{2}"),
    ('<img class="equation_image" data-equation-content="a &lt; b">', "a &lt; b"),
])
def test_equation_images_become_tex(tag: str, tex: str) -> None:
    assert equations_to_tex(f"<p>So {tag} here.</p>") == f"<p>So \\({tex}\\) here.</p>"
    assert equations_to_tex(f"<p> {tag} </p>") == f"<div>\\[{tex}\\]</div>"
    assert equations_to_tex('<p><img src="a.png" class="photo"></p>') == '<p><img src="a.png" class="photo"></p>'


def test_ordering_lines_are_stripped_in_every_layout() -> None:
    assert strip_positions("<div><p>Order:</p><p>1. [p1]</p><p>2.&nbsp;[p2]</p></div>", 2) == "<p>Order:</p>"
    assert strip_positions("<p>Order:<br>1. [p1]<br>2. [p2]</p>", 2) == "<p>Order:</p>"
    assert strip_positions("<p>Order:</p><ol><li>1. [p1]</li><li>2. [p2]</li></ol>", 2) == "<p>Order:</p>"
    assert strip_positions("<p>Order:</p><p>1. [p1]</p>", 2) is None  # a position missing: not our form


def test_drop_downs_that_are_not_our_ordering_stay_blanks(tmp_path: Path) -> None:
    """Blanks named p1, p2 whose options differ are ordinary drop-downs."""
    def lid(name: str, options: list[str]) -> str:
        labels = "".join(f'<response_label ident="{name}{i}"><material><mattext>{o}</mattext></material></response_label>'
                         for i, o in enumerate(options))
        return f'<response_lid ident="response_{name}"><material><mattext>{name}</mattext></material><render_choice>{labels}</render_choice></response_lid>'
    item = f"""<item ident="q1" title="Question"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>
<fieldentry>multiple_dropdowns_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>
<presentation><material><mattext texttype="text/html">&lt;p&gt;1. [p1]&lt;/p&gt;&lt;p&gt;2. [p2]&lt;/p&gt;</mattext></material>
{lid("p1", ["a", "b"])}{lid("p2", ["c", "d"])}</presentation><resprocessing>
<respcondition><conditionvar><varequal respident="response_p1">p10</varequal></conditionvar><setvar action="Add">50</setvar></respcondition>
<respcondition><conditionvar><varequal respident="response_p2">p21</varequal></conditionvar><setvar action="Add">50</setvar></respcondition>
</resprocessing></item>"""
    quizzes, sink = single_item(tmp_path, item)
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "fill_in_blank" and [(b.answers, b.options) for b in question.blanks] == [(["a"], ["b"]), (["d"], ["c"])]


def test_media_references_canvas_writes(tmp_path: Path) -> None:
    path = tmp_path / "media.zip"
    html = ('&lt;p&gt;&lt;img src="%24IMS-CC-FILEBASE%24/images/a%20b.png" alt="a"&gt;'
            '&lt;img src="../media/c.png" alt="c"&gt;&lt;img src="missing.png" alt="m"&gt;'
            '&lt;a href="$WIKI_REFERENCE$/pages/intro"&gt;intro&lt;/a&gt;'
            '&lt;img src="https://example.org/d.png" alt="d"&gt;&lt;/p&gt;')
    item = (f'<item ident="q1" title="Question"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>'
            f'<fieldentry>text_only_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material>'
            f'<mattext texttype="text/html">{html}</mattext></material></presentation></item>')
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("q/q.xml", f'<questestinterop><assessment ident="q" title="Media"><section ident="root_section">{item}'
                                    '</section></assessment></questestinterop>')
        archive.writestr("images/a b.png", b"one")
        archive.writestr("media/c.png", b"two")
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert "media.zip:q/q.xml:1:1: warning[QB714]: media file 'missing.png' is not in the package" in find(found, "missing.png")
    assert "does not work outside it" in find(found, "WIKI_REFERENCE")
    item = quizzes[0]
    (question,) = item.quiz.iter_questions()
    # The missing image is a placeholder named after it, which says what is missing: the source builds.
    assert "the placeholder media/missing-missing.png.svg shows where it was" in find(found, "missing.png")
    placeholder = item.media.pop("media/missing-missing.png.svg")
    assert b"missing: missing.png" in placeholder and etree.fromstring(placeholder).tag == "{http://www.w3.org/2000/svg}svg"
    assert sorted(item.media.values()) == [b"one", b"two"]
    assert "https://example.org/d.png" in question.stem and "](media/" in question.stem
    assert "media/missing-missing.png.svg" in question.stem and "missing.png)" not in question.stem.replace(".png.svg", "")
    builds(item.quiz, {**item.media, "media/missing-missing.png.svg": placeholder}, tmp_path)


def test_settings_out_of_range_and_surveys_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "settings"
    shutil.copytree(OURS, folder)
    meta = folder / "cells-ko/assessment_meta.xml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("<quiz_type>assignment</quiz_type>", "<quiz_type>survey</quiz_type>")
                    .replace("<allowed_attempts>3</allowed_attempts>", "<allowed_attempts>5000</allowed_attempts>"), encoding="utf-8")
    quizzes, sink = run_import(folder)
    found = messages(sink)
    assert "the quiz type 'survey' is a Canvas quiz setting" in find(found, "survey")
    assert "allowed_attempts '5000' is out of range" in find(found, "5000")
    assert "quiz_type" not in quizzes[0].quiz.settings.given() and "allowed_attempts" not in quizzes[0].quiz.settings.given()


def test_a_group_left_larger_than_its_questions_draws_fewer(tmp_path: Path) -> None:
    item = """<item ident="q{n}" title="Question"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>
<fieldentry>{kind}</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material>
<mattext>Question {n}</mattext></material></presentation></item>"""
    group = ('<section ident="g" title="Pick two"><selection_ordering><selection><selection_number>2</selection_number>'
             '</selection></selection_ordering>' + item.format(n=1, kind="essay_question")
             + item.format(n=2, kind="calculated_question") + "</section>")
    quizzes, sink = single_item(tmp_path, group)
    assert "section 'Pick two' draws 2 questions but only 1 could be imported; it now draws 1" in find(messages(sink), "draws 2")
    assert quizzes[0].quiz.sections[0].select == 1


def test_questions_that_cannot_be_read_are_skipped_by_their_canvas_type(tmp_path: Path) -> None:
    item = """<item ident="q{n}" title="{title}"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>
<fieldentry>{kind}</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material>
<mattext>Question {n}</mattext></material></presentation></item>"""
    quizzes, sink = single_item(tmp_path, item.format(n=1, title="No answers", kind="multiple_choice_question")
                                + item.format(n=2, title="Drop-downs", kind="multiple_dropdowns_question")
                                + item.format(n=3, title="Formula", kind="calculated_question")
                                + item.format(n=4, title="Essay", kind="essay_question"))
    found = [m.split("\n")[0] for m in messages(sink) if "skipped" in m]
    assert found == [
        "one.xml:2:1: warning[QB713]: question 'No answers' (multiple_choice_question): the multiple-choice question has no "
        "answers; skipped",
        # Read, then refused by the model: named by its Canvas type all the same.
        "one.xml:4:1: warning[QB713]: question 'Drop-downs' (multiple_dropdowns_question) was skipped: it has 0 blanks, "
        "and needs 1 at least",
        "one.xml:6:1: warning[QB713]: question 'Formula' (calculated_question): the formula question has no variable set to "
        "take an answer from; skipped",
    ]
    assert import_summary(quizzes[0]) == [
        "imported 1 question from one.xml as quiz 'one': 1 essay",
        "  3 skipped (1 calculated_question, 1 multiple_choice_question, 1 multiple_dropdowns_question); see the warnings above"]


# -- hostile packages ---------------------------------------------------------------------------------


def canvas_zip(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(EXPORT.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(EXPORT).as_posix())
        for info, data in entries:
            archive.writestr(info, data)
    return path


def refused(path: Path, code: str) -> str:
    sink = DiagnosticSink()
    assert import_path(path, path.name, sink) == []
    found = " ".join(d.render() for d in sink.errors)
    assert f"error[{code}]" in found, found
    return found


@pytest.mark.parametrize("name", ["../evil.xml", "/etc/evil.xml", "web_resources/../../evil.png"])
def test_canvas_zip_slip_entries_are_skipped(tmp_path: Path, name: str) -> None:
    """An unsafe entry is skipped and named, the quiz read without it (issue 22); nothing is
    written where it says."""
    path = canvas_zip(tmp_path / "slip.zip", [(name, b"<x/>")])
    assert detect(path).name == "canvas"
    sink = DiagnosticSink()
    (quiz,) = import_path(path, path.name, sink)
    assert not sink.errors
    assert f"'{name}' points outside the package" in find(messages(sink), "warning[QB717]")
    code, out, err = run("import", str(path), "--out", str(tmp_path / "out" / "source"))
    assert code == 0 and not (tmp_path / "evil.xml").exists() and not (tmp_path / "out" / "evil.png").exists()


def test_canvas_zip_bomb_is_refused_and_a_symlink_skipped(tmp_path: Path) -> None:
    assert "zip bomb" in refused(canvas_zip(tmp_path / "bomb.zip", [("web_resources/big.png", b"\0" * (8 * 1024 * 1024))]), "QB703")
    link = zipfile.ZipInfo("web_resources/passwd.png")
    link.create_system = 3
    link.external_attr = (0o120777) << 16
    sink = DiagnosticSink()
    path = canvas_zip(tmp_path / "link.zip", [(link, b"/etc/passwd")])
    assert len(import_path(path, path.name, sink)) == 1
    assert "'web_resources/passwd.png' is a symbolic link" in find(messages(sink), "warning[QB717]")


def test_entities_in_a_canvas_assessment_are_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    assessment = (EXPORT / ASSESSMENT).read_text(encoding="utf-8").replace(
        '<?xml version="1.0" encoding="UTF-8"?>', f'<?xml version="1.0"?><!DOCTYPE q [<!ENTITY x SYSTEM "file://{secret}">]>', 1
    ).replace("세포의 발전소", "&x;", 1)
    path = tmp_path / "xxe.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ASSESSMENT, assessment)
        archive.writestr(f"{QUIZ}/assessment_meta.xml", (EXPORT / QUIZ / "assessment_meta.xml").read_bytes())
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert quizzes == [] and any("QB702" in d.render() and ASSESSMENT in d.render() for d in sink.errors)
    assert "TOP-SECRET" not in " ".join(d.render() for d in sink.items)


def test_not_a_canvas_package_is_left_to_the_others(tmp_path: Path) -> None:
    assert detect(zipped(FIXTURES / "onyx-package", tmp_path / "onyx.zip")).name == "qti21"
    assert detect(FIXTURES / "tao-package").name == "qti21"
    assert detect(FIXTURES / "text2qti-quiz.txt").name == "text2qti"
    (tmp_path / "broken.zip").write_bytes(b"PK\3\4 not really a zip")
    assert detect(tmp_path / "broken.zip").name == "qti21"  # which then says it cannot read it


# -- the command ----------------------------------------------------------------------------------------


def test_command_imports_and_builds_every_canvas_input(tmp_path: Path) -> None:
    export = zipped(EXPORT, tmp_path / "export.zip")
    code, out, err = run("import", str(export), str(TEXT2QTI_ZIP), str(OURS), "--out", "source", "--allow-skipped", cwd=tmp_path)
    assert code == 0, err
    assert out.count("imported ") == 3 and "1 calculated" in out
    sources = sorted(p.name for p in (tmp_path / "source").glob("*.*"))
    assert "cells-ko.yaml" in sources and "cell-biology-text2qti-zip.md" in sources and len(sources) == 3
    assert sorted(p.name for p in (tmp_path / "source/media").iterdir()) == ["cell-diagram-949e22933c.png", "cell.png"]
    build(BuildOptions(sources=[tmp_path / "source"], out_dir=tmp_path / "dist"))
    assert len(list((tmp_path / "dist").glob("*.qti21.zip"))) == 3 and len(list((tmp_path / "dist").glob("*.moodle.xml"))) == 3


def test_html_code_shown_as_text_is_not_taken_for_media(tmp_path: Path) -> None:
    """A quiz about HTML shows tags as text (``&lt;img src="school.gif"&gt;``): that text is no
    reference to a file; it stays as written, with no placeholder and no warning."""
    path = tmp_path / "code.zip"
    html = "&lt;p&gt;&amp;lt;img src=\"school.gif\" alt=\"school\"&amp;gt;&lt;/p&gt;"
    item = (f'<item ident="q1" title="Question"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>'
            f'<fieldentry>text_only_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material>'
            f'<mattext texttype="text/html">{html}</mattext></material></presentation></item>')
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("q/q.xml", f'<questestinterop><assessment ident="q" title="Code"><section ident="root_section">{item}'
                                    '</section></assessment></questestinterop>')
    quizzes, sink = run_import(path)
    assert not [d for d in sink.items if d.code == "QB714"], messages(sink)
    (question,) = quizzes[0].quiz.iter_questions()
    assert 'src="school.gif"' in question.stem and not quizzes[0].media


def test_a_bank_no_quiz_uses_titled_like_a_quiz_takes_another_id(tmp_path: Path) -> None:
    """Canvas names a bank after the quiz it was made for: the bank, a quiz of its own now, would
    take that quiz's id and the import fail (QB720, two quizzes with one id); it is '<id>-bank'."""
    path = course_export(tmp_path)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    title = etree.fromstring(members[f"{QUIZ}/assessment_meta.xml"]).findtext("{*}title")
    members[CANVAS_BANK_ENTRY] = members[CANVAS_BANK_ENTRY].replace("분열 문제 은행".encode(), title.encode())
    same = tmp_path / "same-title.zip"
    with zipfile.ZipFile(same, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    quizzes, sink = run_import(same)
    assert not sink.errors, messages(sink)
    quiz, bank = quizzes
    assert quiz.quiz.title == bank.quiz.title == title and bank.quiz.id == f"{quiz.quiz.id}-bank"
    code, _, err = run("import", str(same), "--out", str(tmp_path / "out"))
    assert code == 0, err
    written = sorted(p.stem for p in (tmp_path / "out").iterdir() if p.is_file())
    assert written == sorted([quiz.quiz.id, f"{quiz.quiz.id}-bank"])
