"""QTI 2.1 items that imported nothing before (issue 22): sliders (a numerical question), adaptive
items (read by their final scoring, an end-attempt button set aside), pairs scored by a mapping
(matching) and MathAssess items (skipped, named). Fixtures written from the specification:
tests/fixtures/import/qti21-interactions/README.md."""

from __future__ import annotations

from pathlib import Path

from helpers.importing import FIXTURES, builds, messages, run_import

from qti_builder.importers.command import import_summary

PACKAGE = FIXTURES / "qti21-interactions"


def test_sliders_adaptive_items_pairs_and_mathassess(tmp_path: Path) -> None:
    quizzes, sink = run_import(PACKAGE)
    assert not sink.errors, messages(sink)
    at = "qti21-interactions:items/"
    found = [m for m in messages(sink) if "language" not in m]
    assert found == [
        f"{at}adaptive_hint.xml:3:1: warning[QB711]: item 'Largest organelle' is adaptive: it is read by its final scoring, "
        "the right answer in full; what it shows and scores between attempts is lost (its score depends on the number of "
        "attempts)",
        f"{at}adaptive_hint.xml:3:1: warning[QB711]: item 'Largest organelle': not kept: the button 'Show a hint' that ends "
        "an attempt early (to ask for a hint, say); feedback 'HINT' (shown under conditions the source cannot express)",
        f"{at}mathassess.xml:3:1: warning[QB710]: item 'Differentiate' (MathAssess): a MathAssess item: its answers are "
        "mathematical expressions or values that the Maxima computer algebra system computes and compares (CasCompare, "
        "CasProcess, MathEntryInteraction), which the source cannot do; skipped",
        f"{at}pairing.xml:3:1: warning[QB711]: item 'Partners in the cell': not kept: free pairing: the choices are split "
        "into prompts and answers by the right pairs",
        f"{at}slider.xml:3:1: warning[QB711]: item 'Boiling point': not kept: the slider from 0 to 200 in steps of 10: "
        "students type the number",
        f"{at}slider_near.xml:3:1: warning[QB711]: item 'Body temperature': not kept: the slider from 30 to 45: students "
        "type the number",
    ]
    (item,) = quizzes
    assert item.skipped == {"MathAssess": 1}
    assert import_summary(item)[1].endswith("1 skipped (1 MathAssess); see the warnings above")
    boiling, body, organelle, pairs = item.quiz.iter_questions()
    # A slider is the number it sets: the correct response, within the tolerance its rules give.
    assert boiling.type == "numerical" and boiling.stem == "Water boils at sea level at a temperature in degrees Celsius of:"
    assert [(a.value, a.tolerance, a.score) for a in boiling.answers] == [(100, 0, 100)]
    assert body.stem == "Set the normal body temperature, in degrees Celsius."
    assert [(a.value, a.tolerance, a.tolerance_mode) for a in body.answers] == [(37, 0.5, "absolute")]
    # Adaptive: the answer that completes it is right; the hint button is not part of the question.
    assert organelle.type == "single_choice" and [c.correct for c in organelle.choices] == [True, False, False]
    assert organelle.stem == "Which is usually the largest organelle of an animal cell?"
    # Pairs scored by a mapping alone: its positive entries are the right pairs; a lone choice a distractor.
    assert pairs.type == "matching" and pairs.points == 3
    assert [(p.prompt, p.answer) for p in pairs.pairs] == [("tRNA", "a codon"), ("a kinase", "ATP"), ("a histone", "DNA")]
    assert pairs.distractors == ["a lipid"]
    builds(item.quiz, item.media, tmp_path)


def test_a_slider_item_alone_imports(tmp_path: Path) -> None:
    """A loose slider item was 'nothing to import'."""
    quizzes, sink = run_import(PACKAGE / "items/slider.xml")
    assert not sink.errors and [q.type for q in quizzes[0].quiz.iter_questions()] == ["numerical"]


#: An adaptive item whose end-attempt button stands in the item body itself, outside any block
#: (the specification puts it in a block; an export need not).
LOOSE_BUTTON = """<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="loose" title="Loose button" adaptive="true"
    timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse>
  </responseDeclaration>
  <responseDeclaration identifier="HINTREQUEST" cardinality="single" baseType="boolean"/>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>Which organelle makes ATP?</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <simpleChoice identifier="A">mitochondrion</simpleChoice><simpleChoice identifier="B">ribosome</simpleChoice>
    </choiceInteraction>
    <endAttemptInteraction responseIdentifier="HINTREQUEST" title="Show a hint"/>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>
"""


def test_an_end_attempt_button_outside_any_block_is_set_aside_as_in_one(tmp_path: Path) -> None:
    # It raised AttributeError (the stem's copy of the button had no parent to be removed from).
    path = tmp_path / "loose.xml"
    path.write_text(LOOSE_BUTTON, encoding="utf-8")
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    assert [m for m in messages(sink) if "language" not in m and "QB712" not in m] == [
        "loose.xml:3:1: warning[QB711]: item 'Loose button' is adaptive: it is read by its final scoring, the right answer "
        "in full; what it shows and scores between attempts is lost",
        "loose.xml:3:1: warning[QB711]: item 'Loose button': not kept: the button 'Show a hint' that ends an attempt early "
        "(to ask for a hint, say)"]
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "single_choice" and question.stem == "Which organelle makes ATP?"
    assert [c.correct for c in question.choices] == [True, False]
