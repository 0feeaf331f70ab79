"""Tests for the pyslet-based QTI 2.1 scoring helper (tests/helpers/qti21_engine.py)."""

from __future__ import annotations

import pytest

from helpers.qti21_engine import score_item

NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"


def _feedback_condition(choice: str) -> str:
    return f"""
    <responseCondition>
      <responseIf>
        <match><variable identifier="RESPONSE"/><baseValue baseType="identifier">{choice}</baseValue></match>
        <setOutcomeValue identifier="FEEDBACK">
          <multiple><variable identifier="FEEDBACK"/><baseValue baseType="identifier">{choice}_fb</baseValue></multiple>
        </setOutcomeValue>
      </responseIf>
    </responseCondition>"""


def choice_item(points: float = 2.0, correct: str = "B", choices: str = "ABC",
                else_tag: str = "responseElse") -> bytes:
    """Single-choice item with response processing written out in full."""
    simple_choices = "\n".join(
        f'<simpleChoice identifier="{c}">Option {c}</simpleChoice>' for c in choices)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="{NS}" identifier="q_choice" title="Choice" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>{correct}</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="{points}">
    <defaultValue><value>0</value></defaultValue>
  </outcomeDeclaration>
  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">
    <defaultValue><value>{points}</value></defaultValue>
  </outcomeDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="multiple" baseType="identifier"/>
  <itemBody>
    <p>Which one is <strong>right</strong>?</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <prompt>Pick one.</prompt>
      {simple_choices}
    </choiceInteraction>
  </itemBody>
  <responseProcessing>
    <responseCondition>
      <responseIf>
        <match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>
        <setOutcomeValue identifier="SCORE"><variable identifier="MAXSCORE"/></setOutcomeValue>
      </responseIf>
      <{else_tag}>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">0</baseValue></setOutcomeValue>
      </{else_tag}>
    </responseCondition>
    {"".join(_feedback_condition(c) for c in choices)}
    <setOutcomeValue identifier="FEEDBACK">
      <multiple><variable identifier="FEEDBACK"/><baseValue baseType="identifier">general_fb</baseValue></multiple>
    </setOutcomeValue>
  </responseProcessing>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="general_fb" showHide="show">Thanks.</modalFeedback>
</assessmentItem>""".encode("utf-8")


ESSAY_ITEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="{NS}" identifier="q_essay" title="Essay" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="5">
    <defaultValue><value>0</value></defaultValue>
  </outcomeDeclaration>
  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">
    <defaultValue><value>5</value></defaultValue>
  </outcomeDeclaration>
  <itemBody>
    <extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="10">
      <prompt>Discuss.</prompt>
    </extendedTextInteraction>
  </itemBody>
  <responseProcessing/>
</assessmentItem>""".encode("utf-8")


MULTI_ITEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="{NS}" identifier="q_multi" title="Multi" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="identifier">
    <correctResponse><value>A</value><value>C</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float">
    <defaultValue><value>0</value></defaultValue>
  </outcomeDeclaration>
  <itemBody>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="0">
      <simpleChoice identifier="A">a</simpleChoice>
      <simpleChoice identifier="B">b</simpleChoice>
      <simpleChoice identifier="C">c</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <responseProcessing>
    <responseCondition>
      <responseIf>
        <match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>
      </responseIf>
    </responseCondition>
  </responseProcessing>
</assessmentItem>""".encode("utf-8")


# --- single choice -----------------------------------------------------------

def test_correct_choice_scores_maxscore():
    out = score_item(choice_item(points=2.0), "B")
    assert out["SCORE"] == out["MAXSCORE"] == 2.0
    assert isinstance(out["SCORE"], float)
    assert out["FEEDBACK"] == {"general_fb", "B_fb"}


@pytest.mark.parametrize("wrong", ["A", "C"])
def test_wrong_choice_scores_zero(wrong):
    out = score_item(choice_item(), wrong)
    assert out["SCORE"] == 0.0
    assert out["MAXSCORE"] == 2.0
    assert out["FEEDBACK"] == {"general_fb", f"{wrong}_fb"}


def test_no_response_scores_zero():
    out = score_item(choice_item(), None)
    assert out["SCORE"] == 0.0
    assert out["FEEDBACK"] == {"general_fb"}


def test_returns_exactly_declared_outcomes():
    assert set(score_item(choice_item(), "B")) == {"SCORE", "MAXSCORE", "FEEDBACK"}


def test_fractional_points():
    assert score_item(choice_item(points=1.5), "B")["SCORE"] == 1.5


# --- essay -------------------------------------------------------------------

def test_essay_score_stays_zero():
    out = score_item(ESSAY_ITEM, "A long and thoughtful answer, with <markup> & such.")
    assert out == {"SCORE": 0.0, "MAXSCORE": 5.0}


def test_essay_no_response():
    assert score_item(ESSAY_ITEM, None)["SCORE"] == 0.0


# --- multiple cardinality ----------------------------------------------------

def test_multiple_response_list():
    assert score_item(MULTI_ITEM, ["C", "A"])["SCORE"] == 1.0
    assert score_item(MULTI_ITEM, ["A"])["SCORE"] == 0.0
    assert score_item(MULTI_ITEM, None)["SCORE"] == 0.0


# --- errors ------------------------------------------------------------------

def test_cardinality_mismatch_raises():
    with pytest.raises(TypeError):
        score_item(choice_item(), ["B"])
    with pytest.raises(TypeError):
        score_item(MULTI_ITEM, "A")


def test_invalid_identifier_response_raises():
    with pytest.raises(ValueError):
        score_item(choice_item(), "not an identifier")


def test_unknown_element_is_reported_not_ignored():
    # pyslet on its own would silently drop <responseEls> and still "score".
    with pytest.raises(ValueError, match="responseEls"):
        score_item(choice_item(else_tag="responseEls"), "A")


def test_non_item_root_raises():
    with pytest.raises(ValueError, match="assessmentItem"):
        score_item(choice_item().replace(b"imsqti_v2p1", b"imsqti_v2p2"), "B")
