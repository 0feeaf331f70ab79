"""The Moodle XML of the seed quiz, checked by parsing it and by Moodle's import rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.moodle_engine import grade_option
from helpers.seed_expectations import (ANSWERS, CHOICE_IDS, CORRECT_OPTIONS, ESSAY_IDS, ESSAY_STEMS, EXPLANATIONS,
                               MODEL_ANSWERS, QUIZ_TITLE, STEMS)
from helpers.text import html_text
from lxml import etree, html


@pytest.fixture(scope="module")
def raw(seed_build: Path) -> bytes:
    return (seed_build / "ray-train-tune.moodle.xml").read_bytes()


@pytest.fixture(scope="module")
def quiz(raw: bytes) -> etree._Element:
    return etree.fromstring(raw)


def questions(quiz: etree._Element) -> list[etree._Element]:
    return [q for q in quiz.findall("question") if q.get("type") != "category"]


def test_valid_against_the_project_schema(raw: bytes) -> None:
    schema = etree.XMLSchema(etree.parse(str(ROOT / "schemas" / "moodle-xml.xsd")))
    assert schema.validate(etree.fromstring(raw)), schema.error_log


def test_categories(quiz: etree._Element) -> None:
    categories = [q.findtext("category/text") for q in quiz.findall("question") if q.get("type") == "category"]
    assert categories == [f"$course$/top/{QUIZ_TITLE}", f"$course$/top/{QUIZ_TITLE}/객관식 문제", f"$course$/top/{QUIZ_TITLE}/서술형 문제"]
    # Each section's category comes right before its questions.
    kinds = [q.get("type") for q in quiz.findall("question")]
    assert kinds == ["category", "category"] + ["multichoice"] * 8 + ["category"] + ["essay"] * 2


def test_html_text_is_in_cdata(raw: bytes) -> None:
    # Outside CDATA Moodle's reader drops spaces next to entities ("&lt;/code&gt; 의" -> "</code>의").
    texts = re.findall(rb"<text>(.*?)</text>", raw, re.S)
    html_texts = [t for t in texts if b"<" in t]
    assert html_texts and all(t.startswith(b"<![CDATA[") for t in html_texts)
    assert b"&lt;code&gt;" not in raw


@pytest.mark.parametrize("index", range(8))
def test_multichoice(quiz: etree._Element, index: int) -> None:
    q = questions(quiz)[index]
    assert q.get("type") == "multichoice"
    assert q.findtext("name/text").strip()  # Moodle refuses a question without a name
    assert q.findtext("idnumber") == CHOICE_IDS[index]
    assert q.findtext("single") == "true"
    assert html_text(q.findtext("questiontext/text")).startswith(STEMS[index])
    assert html_text(q.findtext("generalfeedback/text")).startswith(EXPLANATIONS[index])
    answers = q.findall("answer")
    assert len(answers) == 4
    fractions = [float(a.get("fraction")) for a in answers]
    assert all(grade_option(f / 100) == pytest.approx(f / 100) for f in fractions)  # Moodle's own grade options
    assert fractions == [100.0 if letter == ANSWERS[index] else 0.0 for letter in "ABCD"]
    right = answers["ABCD".index(ANSWERS[index])]
    assert html_text(right.findtext("text")).startswith(CORRECT_OPTIONS[index])


def test_code_spans_survive(quiz: etree._Element) -> None:
    option = questions(quiz)[1].findall("answer")[1].findtext("text")
    assert "<code>ray.train.torch.TorchTrainer</code> import" in option


@pytest.mark.parametrize("index", range(2))
def test_essay(quiz: etree._Element, index: int) -> None:
    q = questions(quiz)[8 + index]
    assert q.get("type") == "essay"
    assert q.findtext("idnumber") == ESSAY_IDS[index]
    assert html_text(q.findtext("questiontext/text")).startswith(ESSAY_STEMS[index])
    grader = html.fromstring(f"<div>{q.findtext('graderinfo/text')}</div>")
    paragraphs = [" ".join(p.text_content().split()) for p in grader.findall("p")]
    assert [p[: len(s)] for p, s in zip(paragraphs, MODEL_ANSWERS[index])] == list(MODEL_ANSWERS[index])
    assert q.findtext("responseformat") == "editor"
    assert q.findtext("responserequired") == "1"
    # The model answer is for graders only: not in the question or its feedback.
    assert MODEL_ANSWERS[index][0][:20] not in html_text(q.findtext("questiontext/text") + (q.findtext("generalfeedback/text") or ""))


def test_blanks_of_their_own_points_give_the_cloze_weights_and_canvas_names_the_loss(tmp_path: Path) -> None:
    """Whole points per blank are Moodle's weights, no warning; fractional unequal points keep
    their proportion in the smallest whole weights, with QB323 saying the mark Moodle will give;
    Canvas, which shares a question's points equally among its blanks, names the loss (QB601)."""
    from helpers import write
    from helpers.moodle_engine import read_question

    from qti_builder import BuildOptions, build
    from qti_builder.diagnostics import Severity

    source = write(tmp_path, "w.md", "---\ntitle: W\n---\n"
                   "1. The [[Seine]]{points=2} in [[Paris]]{points=1}. {#whole type=fill_in_blank}\n\n"
                   "2. The [[Loire]]{points=1.5} in [[Tours]]{points=0.5}. {#half type=fill_in_blank}\n\n"
                   "3. The [[Rhine]] in [[Basel]]. {#even type=fill_in_blank points=2}\n")
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    warnings = [(d.code, d.message) for d in result.diagnostics if d.severity is Severity.WARNING]
    assert warnings == [
        ("QB323", "question 'half' is worth 2 points, but Moodle gives a cloze question the sum of its blanks' "
                  "whole-number weights: it will be worth 4 (its blanks weighted 3, 1)")], warnings
    losses = sorted((loss.format, loss.code, loss.question, loss.message) for r in result.results for loss in r.losses)
    assert losses == [
        ("canvas", "QB601", "half", "Canvas: the blanks' own points (1.5, 0.5) are not carried: Canvas shares a "
                                    "question's 2 points equally among its blanks (question 'half')"),
        ("canvas", "QB601", "whole", "Canvas: the blanks' own points (2, 1) are not carried: Canvas shares a "
                                     "question's 3 points equally among its blanks (question 'whole')"),
    ], losses
    built = etree.parse(str(tmp_path / "dist/w.moodle.xml")).findall(".//question[@type='cloze']")
    assert [[s.mark for s in read_question(q).cloze] for q in built] == [[2, 1], [3, 1], [1, 1]]
