"""Importing other people's files: the seed quiz page, a messy Moodle export, TAO- and Onyx-style
QTI packages, a text2qti quiz; format detection; and the ``import`` command end to end."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import SEED
from helpers.cli import run
from helpers.importing import FIXTURES, builds, messages, run_import, zipped

from helpers import seed_expectations as seed
from qti_builder.importers import detect
from qti_builder.importers.command import import_summary
from qti_builder.pipeline import BuildOptions, build
from qti_builder.writers.markdown_source import read_back, write_source


# -- the seed ---------------------------------------------------------------------------------------


@pytest.mark.skipif(not SEED.exists(), reason="the workspace's shared/seed is not beside the checkout")
def test_seed_quiz_page(tmp_path: Path) -> None:
    assert detect(SEED).name == "quizpage"
    quizzes, sink = run_import(SEED)
    assert not sink.errors and not sink.warnings, messages(sink)
    quiz = quizzes[0].quiz
    assert quiz.title == seed.QUIZ_TITLE and quiz.language == "ko"
    choice, essay = quiz.sections
    assert [s.title for s in quiz.sections] == ["객관식 문제", "서술형 문제"]
    assert len(list(quiz.iter_questions())) == 10
    assert [q.type for q in choice.questions] == ["single_choice"] * 8
    assert [next(c.id for c in q.choices if c.correct) for q in choice.questions] == seed.ANSWERS == list("BBABABAB")
    for q, stem, option, explanation in zip(choice.questions, seed.STEMS, seed.CORRECT_OPTIONS, seed.EXPLANATIONS):
        assert q.stem.startswith(stem)
        assert next(c.text for c in q.choices if c.correct).startswith(option)
        assert q.feedback.general.startswith(explanation)
        assert len(q.choices) == 4
    assert [q.type for q in essay.questions] == ["essay", "essay"]
    for q, stem, (first, second) in zip(essay.questions, seed.ESSAY_STEMS, seed.MODEL_ANSWERS):
        assert q.stem.startswith(stem)
        paragraphs = q.model_answer.split("\n\n")
        assert len(paragraphs) == 2 and paragraphs[0].startswith(first) and paragraphs[1].startswith(second)
    builds(quiz, {}, tmp_path)


def test_seed_through_the_command(tmp_path: Path) -> None:
    if not SEED.exists():
        pytest.skip("no shared/seed")
    code, out, err = run("import", str(SEED), "--out", str(tmp_path / "source"))
    assert code == 0, err
    source = tmp_path / "source/ray-train-tune-quiz.ko.md"
    assert out.splitlines() == [
        f"imported 10 questions from {SEED} as quiz 'ray-train-tune-quiz.ko': 8 single choice, 2 essay",
        f"wrote {source}"]
    text = source.read_text(encoding="utf-8")
    assert "정답: B" in text and "설명:" in text
    build(BuildOptions(sources=[tmp_path / "source"], out_dir=tmp_path / "dist"))


def test_quiz_page_variants(tmp_path: Path) -> None:
    """English labels, numbered questions, a <details> answer block, Markdown emphasis on labels,
    options glued onto one line, a true/false and a multiple-response answer."""
    page = tmp_path / "cells.md"
    page.write_text("""# Cell quiz

Check what you know.

## Basics

1. Which organelle makes ATP?
A) Nucleus B) Mitochondrion C) Ribosome

<details><summary>Answer</summary>

**Answer:** B

**Explanation:** Mitochondria make ATP.

</details>

2. Which are found in plant cells? - A) Chloroplasts - B) Cell wall - C) Centrioles
Show answer
Answer: A, C
Explanation: Centrioles are missing from most plant cells.

3. The nucleus holds the DNA.
Answer: true

4. Describe the cell membrane.
Model answer: A lipid bilayer that controls what enters and leaves.
""", encoding="utf-8")
    quizzes, sink = run_import(page)
    assert not sink.errors, messages(sink)
    quiz = quizzes[0].quiz
    assert quiz.title == "Cell quiz" and quiz.description == "Check what you know."
    q1, q2, q3, q4 = quiz.sections[0].questions
    assert [c.text for c in q1.choices] == ["Nucleus", "Mitochondrion", "Ribosome"] and q1.choices[1].correct
    assert q1.feedback.general == "Mitochondria make ATP."
    assert q2.type == "multiple_response" and [c.correct for c in q2.choices] == [True, False, True]
    assert q3.type == "true_false" and q3.answer is True
    assert q4.type == "essay" and q4.model_answer.startswith("A lipid bilayer")


# -- Moodle -------------------------------------------------------------------------------------


def test_messy_moodle_export(tmp_path: Path) -> None:
    path = FIXTURES / "messy-moodle.xml"
    assert b"\r\n" in path.read_bytes()
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    found = messages(sink)
    assert any(":119:1: warning[QB710]" in m and "'stack'" in m for m in found)  # skipped, with its line
    assert any("<questiontext> appears 2 times" in m for m in found)
    assert any("partial credit in blank 1" in m for m in found)
    assert any("file type groups document" in m for m in found)
    item = quizzes[0]
    quiz = item.quiz
    assert quiz.title == "messy-moodle"  # Moodle's default category ("Default for Biology 101") names no quiz: the file does
    assert [s.title for s in quiz.sections] == ["Cells", "Genetics"]
    assert quiz.sections[0].description == "Questions about **cells**."
    kinds = [q.type for q in quiz.iter_questions()]
    assert kinds == ["single_choice", "multiple_response", "true_false", "short_answer", "numerical",
                     "fill_in_blank", "matching", "essay", "file_upload", "text_only"]
    mc, mr, tf, sa, num, fib, match, essay, upload, text = quiz.iter_questions()
    assert mc.id == "BIO-1-cells-01" and mc.title == "Powerhouse" and mc.points == 2 and mc.shuffle is False
    assert mc.tags == ["cells", "energy"] and mc.feedback.correct == "Correct!"
    assert "*powerhouse*" in mc.stem and "](media/" in mc.stem
    assert mr.negative_marking is True and [c.correct for c in mr.choices] == [True, True, False]
    assert tf.answer is False and tf.true_feedback == "No: plant cells do." and tf.false_feedback == "Right."
    assert sa.stem == "Name the organelle that holds the **DNA**."  # markdown format kept as it is
    assert [a.text for a in sa.answers] == ["nucleus", "nucl*"] and sa.feedback.incorrect == "The nucleus holds the DNA."
    assert num.unit == "chromosomes" and [a.value for a in num.answers] == [46, 23]
    assert fib.stem == "Adenine pairs with [[b1]] and guanine with [[b2]]."
    assert fib.blanks[1].kind == "dropdown" and fib.blanks[1].answers == ["cytosine"]
    assert match.distractors == ["Uracil"] and [p.prompt for p in match.pairs] == ["Adenine", "Guanine"]
    assert essay.model_answer == "Mention <b>alleles</b> separating." and essay.attachments == 1
    assert upload.max_files == 2 and upload.allowed_types == [".pdf", ".docx"]
    assert text.points == 0 and "![](media/" in text.stem
    assert len(item.media) == 1  # the same picture twice (a <file> and an <image_base64>) is one file
    builds(quiz, item.media, tmp_path)


def test_bare_question_without_quiz() -> None:
    quizzes, sink = run_import(FIXTURES / "bare-question.xml")
    assert not sink.errors
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "true_false" and question.answer is True and question.title == "Bare"


# -- QTI 2.1 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("as_zip", [False, True], ids=["folder", "zip"])
def test_tao_style_package(tmp_path: Path, as_zip: bool) -> None:
    source = FIXTURES / "tao-package"
    path = zipped(source, tmp_path / "tao.zip") if as_zip else source
    assert detect(path).name == "qti21"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    assert any("feedbackModal_1" in m and "QB711" in m for m in messages(sink))
    item = quizzes[0]
    quiz = item.quiz
    assert quiz.id == "Test-Biology" and quiz.title == "Biology basics (TAO)" and quiz.language == "en-US"
    assert quiz.sections[0].description == "Answer every question."
    choice, multiple, blanks, essay = quiz.iter_questions()
    assert "How many **cells** are shown?" in choice.stem and "media/cells.png" in choice.stem
    assert [c.id for c in choice.choices] == ["A", "B", "C"] and choice.choices[1].correct and choice.choices[2].fixed
    # 50, -50, 50: the right ones share 100 %, the wrong one takes a share away (the default).
    assert multiple.points == 2 and [c.score for c in multiple.choices] == [None, None, None]
    assert list(multiple.choice_scores().values()) == [50, -50, 50]
    assert blanks.stem.startswith("A body cell divides by [[b1]]")
    assert blanks.blanks[0].answers == ["mitosis", "Mitosis"] and blanks.blanks[1].answers == ["meiosis"]
    assert essay.stem == "Describe what a cell membrane does." and essay.response_format == "plain" and essay.expected_lines == 8
    assert item.media["media/cells.png"] == (source / "items/i01/cells.png").read_bytes()
    builds(quiz, item.media, tmp_path)


def test_onyx_style_package(tmp_path: Path) -> None:
    path = zipped(FIXTURES / "onyx-package", tmp_path / "onyx.zip")
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    assert any("Item_hotspot.xml" in m and "hotspotInteraction" in m and "QB710" in m for m in messages(sink))
    quiz = quizzes[0].quiz
    assert quiz.language == "de"
    tf, number, match, order = quiz.iter_questions()
    assert tf.type == "true_false" and tf.answer is True  # "Wahr"/"Falsch" choices
    assert tf.true_feedback == "Richtig." and tf.false_feedback == "Leider falsch."
    assert number.type == "numerical" and number.points == 2
    assert (number.answers[0].value, number.answers[0].tolerance) == (12.5, 0.1)
    assert "$\\frac{25}{2}$" in number.stem  # the MathML's TeX annotation
    assert [(p.prompt, p.answer) for p in match.pairs] == [("Mitochondrium", "Zellatmung"), ("Ribosom", "Proteinsynthese")]
    assert match.distractors == ["Photosynthese"]
    assert order.items == ["Prophase", "Metaphase", "Anaphase"]
    builds(quiz, {}, tmp_path)


def test_single_item_file(tmp_path: Path) -> None:
    quizzes, sink = run_import(FIXTURES / "onyx-package/Item_order.xml")
    assert not sink.errors, messages(sink)
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "ordering"


# -- text2qti -------------------------------------------------------------------------------------


def test_text2qti_questions_skipped_are_counted_by_their_text2qti_type(tmp_path: Path) -> None:
    path = tmp_path / "skips.txt"
    path.write_text("""Quiz title: Skips

1.  Which is a prime?
*a) 7
b)  8

2.  A question with nothing to answer.

3.  Which one is right?
a)  This
b)  That
""", encoding="utf-8")
    quizzes, sink = run_import(path, "text2qti")
    (item,) = quizzes
    found = [m.split("\n")[0] for m in messages(sink) if "skipped" in m]
    assert found == [
        "skips.txt:7:1: warning[QB710]: the question on line 7 has no choices or answer, so it has no text2qti type; skipped",
        # Read as text2qti's multiple choice, then refused by the model: named by that type all the same.
        "skips.txt:9:1: warning[QB713]: question 'Which one is right?' (multiple_choice_question) was skipped: a single-choice "
        "question needs exactly one correct choice, found 0",
    ]
    assert import_summary(item) == [
        "imported 1 question from skips.txt as quiz 'skips': 1 single choice",
        "  2 skipped (1 (none), 1 multiple_choice_question); see the warnings above"]


def test_text2qti_quiz(tmp_path: Path) -> None:
    path = FIXTURES / "text2qti-quiz.txt"
    assert detect(path).name == "text2qti"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    assert any("{.run}" in m for m in messages(sink))
    # Three of text2qti's four options are quiz settings; "can't go back" (line 7) is not.
    assert [m for m in messages(sink) if "QB711" in m] == [
        "text2qti-quiz.txt:7:1: warning[QB711]: the quiz option 'can't go back' has no place in the source; set it in the LMS"]
    quiz = quizzes[0].quiz
    assert quiz.settings.given() == {"shuffle_answers": False, "show_correct_answers": True, "one_question_at_a_time": True}
    assert quiz.title == "Cell biology (text2qti)"
    assert quiz.description == "A quiz written for text2qti, with every question type\nit documents."
    kinds = [q.type for q in quiz.iter_questions()]
    assert kinds == ["single_choice", "multiple_response", "true_false", "short_answer", "numerical", "numerical",
                     "numerical", "text_only", "essay", "file_upload", "true_false", "true_false"]
    mc = next(quiz.iter_questions())
    assert mc.title == "Powerhouse" and mc.points == 2 and mc.shuffle is False
    assert mc.feedback.general == "Mitochondria make ATP." and mc.choices[0].feedback == "The nucleus holds the DNA."
    numbers = [q for q in quiz.iter_questions() if q.type == "numerical"]
    assert [(a.value, a.tolerance) for q in numbers for a in q.answers] == [(46, 0), (7.5, 0.5), (37, 1)]
    group = quiz.sections[0].sections[0]
    assert group.select == 1 and [q.points for q in group.questions] == [2, 2]
    builds(quiz, {}, tmp_path)


# -- the command --------------------------------------------------------------------------------


def test_command_writes_sources_and_media_and_refuses_to_overwrite(tmp_path: Path) -> None:
    inputs = [str(FIXTURES / "messy-moodle.xml"), str(FIXTURES / "tao-package"), str(FIXTURES / "text2qti-quiz.txt")]
    code, out, err = run("import", *inputs, "--out", "source", cwd=tmp_path)
    # Written, but without the questions that could not be imported: exit 4 says so (docs/import.md).
    assert code == 4, err
    assert "'stack'" in err  # warnings are printed
    assert err.rstrip().endswith("1 question could not be imported (named in the warnings above): exit 4; "
                                 "pass --allow-skipped to accept that")
    names = sorted(p.relative_to(tmp_path / "source").as_posix() for p in (tmp_path / "source").rglob("*") if p.is_file())
    assert names == ["Test-Biology.md", "media/cell-diagram-e4b16b7fb3.png", "media/cells.png",
                     "messy-moodle.md", "text2qti-quiz.md"]
    build(BuildOptions(sources=[tmp_path / "source"], out_dir=tmp_path / "dist"))
    before = (tmp_path / "source/text2qti-quiz.md").read_bytes()
    code, out, err = run("import", inputs[2], "--out", "source", cwd=tmp_path)
    assert code == 1 and "QB720" in err and "already exists" in err and "nothing was written" in err
    assert (tmp_path / "source/text2qti-quiz.md").read_bytes() == before
    code, out, err = run("import", inputs[2], "--out", "source", "--force", "--allow-skipped", cwd=tmp_path)
    assert code == 0, err


def test_command_usage_errors(tmp_path: Path) -> None:
    code, out, err = run("import", str(FIXTURES / "bare-question.xml"), "--format", "blackboard")
    assert code == 2 and "unknown format" in err
    code, out, err = run("import", str(tmp_path / "missing.xml"), "--out", str(tmp_path / "s"))
    assert code == 1 and "QB700" in err
    (tmp_path / "blob.bin").write_bytes(b"\0\1\2binary")
    code, out, err = run("import", str(tmp_path / "blob.bin"), "--out", str(tmp_path / "s"))
    assert code == 1 and "cannot tell the format" in err


def test_media_name_clash_gets_the_hash(tmp_path: Path) -> None:
    (tmp_path / "source/media").mkdir(parents=True)
    (tmp_path / "source/media/cells.png").write_bytes(b"another picture")
    code, out, err = run("import", str(FIXTURES / "tao-package"), "--out", "source", cwd=tmp_path)
    assert code == 0, err
    assert (tmp_path / "source/media/cells.png").read_bytes() == b"another picture"
    text = (tmp_path / "source/Test-Biology.md").read_text(encoding="utf-8")
    assert "media/cells-e4b16b7fb3.png" in text and (tmp_path / "source/media/cells-e4b16b7fb3.png").exists()


def test_format_can_be_forced(tmp_path: Path) -> None:
    page = tmp_path / "quiz.txt"
    shutil.copy(FIXTURES / "text2qti-quiz.txt", page)
    quizzes, sink = run_import(page, "quizpage")
    assert quizzes == [] or all(q.quiz for q in quizzes)  # read as a page, whatever it makes of it
    quizzes, sink = run_import(page, "text2qti")
    assert len(list(quizzes[0].quiz.iter_questions())) == 12
    written = write_source(quizzes[0].quiz)
    assert read_back(written.text, written.suffix) == quizzes[0].quiz
