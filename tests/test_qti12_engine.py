"""The QTI 1.2 evaluator (tests/helpers/qti12_engine.py) on hand-written items, each rule of the
ASI spec it implements checked on its own, with the score worked out by hand."""

from __future__ import annotations

import pytest
from helpers.qti12_engine import Qti12Error, grade_calculated, score_item
from lxml import etree


def item(conditions: str, responses: str = '<response_lid ident="r" rcardinality="Single"/>',
         decvar: str = '<decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/>') -> etree._Element:
    return etree.fromstring(f"""<item ident="i" xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
      <presentation>{responses}</presentation>
      <resprocessing><outcomes>{decvar}</outcomes>{conditions}</resprocessing></item>""")


def when(test: str, *actions: str, cont: str | None = None) -> str:
    attribute = f' continue="{cont}"' if cont else ""
    return f"<respcondition{attribute}><conditionvar>{test}</conditionvar>{''.join(actions)}</respcondition>"


def setvar(value: str, action: str | None = None) -> str:
    return f'<setvar varname="SCORE"{f" action={chr(34)}{action}{chr(34)}" if action else ""}>{value}</setvar>'


def test_set_is_the_default_action_and_processing_stops_at_the_first_true_condition() -> None:
    # continue defaults to No: after the first true condition nothing else runs.
    doc = item(when('<varequal respident="r">A</varequal>', setvar("100")) + when("<other/>", setvar("7")))
    assert score_item(doc, {"r": "A"}).score == 100
    assert score_item(doc, {"r": "B"}).score == 7


def test_add_accumulates_across_conditions_that_continue() -> None:
    pairs = [("r1", "X"), ("r2", "Y"), ("r3", "Z")]
    responses = "".join(f'<response_lid ident="{r}"/>' for r, _ in pairs)
    add = "".join(when(f'<varequal respident="{r}">{v}</varequal>', setvar("33.33", "Add"), cont="Yes") for r, v in pairs)
    assert score_item(item(add, responses), {"r1": "X", "r2": "Y", "r3": "Z"}).score == pytest.approx(99.99)
    assert score_item(item(add, responses), {"r1": "X", "r2": "n", "r3": "Z"}).score == pytest.approx(66.66)
    # Without continue="Yes", the spec stops at the first true condition; Canvas reads every pair.
    stops = add.replace(' continue="Yes"', "")
    assert score_item(item(stops, responses), {"r1": "X", "r2": "Y", "r3": "Z"}, reading="spec").score == pytest.approx(33.33)
    assert score_item(item(stops, responses), {"r1": "X", "r2": "Y", "r3": "Z"}).score == pytest.approx(99.99)
    # The same conditions with Set: each true condition replaces the score.
    replace = add.replace('action="Add"', 'action="Set"')
    assert score_item(item(replace, responses), {"r1": "X", "r2": "Y", "r3": "Z"}).score == pytest.approx(33.33)


def test_a_false_condition_never_stops_processing() -> None:
    doc = item(when('<varequal respident="r">A</varequal>', setvar("100")) + when('<varequal respident="r">B</varequal>', setvar("50")))
    assert score_item(doc, {"r": "B"}).score == 50


def test_other_is_true_only_when_no_earlier_condition_was() -> None:
    doc = item(when('<varequal respident="r">A</varequal>', '<displayfeedback linkrefid="a"/>', cont="Yes")
               + when("<other/>", '<displayfeedback linkrefid="else"/>', cont="Yes"))
    assert score_item(doc, {"r": "A"}).feedback == ["a"]
    assert score_item(doc, {"r": "B"}).feedback == ["else"]


def test_boolean_operators_and_membership_in_a_multiple_response() -> None:
    responses = '<response_lid ident="r" rcardinality="Multiple"/>'
    exact = ('<and><varequal respident="r">A</varequal><varequal respident="r">B</varequal>'
             '<not><varequal respident="r">C</varequal></not></and>')
    doc = item(when(exact, setvar("100")), responses)
    assert score_item(doc, {"r": {"A", "B"}}).score == 100
    assert score_item(doc, {"r": {"A", "B", "C"}}).score == 0
    assert score_item(doc, {"r": {"A"}}).score == 0
    assert score_item(doc, {"r": None}).score == 0
    either = item(when('<or><varequal respident="r">A</varequal><varequal respident="r">C</varequal></or>', setvar("1")), responses)
    assert score_item(either, {"r": {"C"}}).score == 1


def test_numbers_compare_as_numbers_and_bounds_are_inclusive() -> None:
    responses = '<response_str ident="r"><render_fib fibtype="Decimal"/></response_str>'
    test = '<or><varequal respident="r">3.14</varequal><and><vargte respident="r">3.135</vargte><varlte respident="r">3.145</varlte></and></or>'
    doc = item(when(test, setvar("100")), responses)
    for given, expected in (("3.14", 100), ("3.140", 100), ("3.135", 100), ("3.145", 100), ("3.1451", 0), ("pi", 0)):
        assert score_item(doc, {"r": given}).score == expected, given


def test_text_compares_without_case_unless_case_yes() -> None:
    responses = '<response_str ident="r"><render_fib/></response_str>'
    assert score_item(item(when('<varequal respident="r">Paris</varequal>', setvar("1")), responses), {"r": "PARIS"}).score == 1
    assert score_item(item(when('<varequal respident="r" case="Yes">Paris</varequal>', setvar("1")), responses),
                      {"r": "PARIS"}).score == 0


def test_tests_side_by_side_are_alternatives_for_canvas_and_all_of_them_for_generic_engines() -> None:
    responses = '<response_str ident="r"><render_fib/></response_str>'
    doc = item(when('<varequal respident="r">Shakespeare</varequal><varequal respident="r">William Shakespeare</varequal>',
                    setvar("100")), responses)
    assert score_item(doc, {"r": "William Shakespeare"}).score == 100
    assert score_item(doc, {"r": "William Shakespeare"}, reading="spec").score == 0


def test_unanswered_and_an_undeclared_response_or_variable() -> None:
    doc = item(when('<unanswered respident="r"/>', setvar("5")))
    assert score_item(doc, {}).score == 5 and score_item(doc, {"r": "A"}).score == 0
    with pytest.raises(Qti12Error):
        score_item(doc, {"nope": "A"})
    with pytest.raises(Qti12Error):
        score_item(item(when("<other/>", '<setvar varname="GRADE">1</setvar>')), {})
    with pytest.raises(Qti12Error):
        score_item(item(when('<varequal respident="missing">A</varequal>', setvar("1"))), {"r": "A"})


def test_the_default_value_and_the_fraction_of_the_maximum() -> None:
    doc = item(when("<other/>", setvar("25", "Add")),
               decvar='<decvar varname="SCORE" vartype="Decimal" defaultval="50" maxvalue="100"/>')
    outcome = score_item(doc, {})
    assert outcome.score == 75 and outcome.fraction() == 0.75


def test_an_integer_variable_and_the_declared_bounds() -> None:
    pairs = "".join(when(f'<varequal respident="r{n}">X</varequal>', setvar("33.3333", "Add"), cont="Yes") for n in range(3))
    responses = "".join(f'<response_lid ident="r{n}"/>' for n in range(3))
    every = {f"r{n}": "X" for n in range(3)}
    decimal = '<decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/>'
    assert score_item(item(pairs, responses, decimal), every).score == pytest.approx(99.9999)
    integer = '<decvar varname="SCORE" vartype="Integer" minvalue="0" maxvalue="100"/>'
    assert score_item(item(pairs, responses, integer), every).score == 99  # 33 + 33 + 33
    assert score_item(item(pairs, responses, decimal.replace('minvalue="0"', 'minvalue="1"')), {}).score == 1
    over = item(when("<other/>", setvar("250")), decvar=decimal)
    assert score_item(over, {"r": "A"}).score == 100


def test_a_calculated_answer_is_graded_as_canvas_grades_it() -> None:
    """Canvas's calculated_question: the set's answer ± answer_tolerance, bounds included; a
    tolerance ending in % is that share of the answer (canvas-lms numerical_question.rb; its spec
    calculated_question_spec.rb tries 10 ± 2.0 from below and above)."""
    assert [grade_calculated("10", "2.0", r) for r in ("7.99", "8", "10", "12", "12.01")] == [0, 1, 1, 1, 0]
    assert [grade_calculated("-40", "5%", r) for r in ("-42.01", "-42", "-38", "-37.99")] == [0, 1, 1, 0]
    assert grade_calculated("3", "0", "3.0") == 1 and grade_calculated("3", "0", "three") == 0
