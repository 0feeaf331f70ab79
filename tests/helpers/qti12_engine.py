"""QTI 1.2 response processing: the score an item's ``<resprocessing>`` gives a response.

The Canvas package is QTI 1.2, and no engine in the registries scores QTI 1.2 on this machine:
pyslet 0.7 (PyPI, already a test dependency) has a ``qtiv1`` module that would migrate an item to
QTI 2.1 for its engine, but the migration fails on Python 3 (``'generator' object has no
attribute 'next'``, tried on this project's items); the npm packages (``@citolab/qti-components``,
``@oat-sa/tao-item-runner-qti``) run QTI 2.x and 3.0 only. So this is a small evaluator written
from the specification, independent of the writer:

- IMS Question & Test Interoperability: ASI XML Binding Specification, Final Specification
  Version 1.2 (11 February 2002), http://www.imsglobal.org/question/qtiv1p2/imsqti_asi_bindv1p2.html
  (the response-processing elements ``resprocessing``, ``outcomes/decvar``, ``respcondition``,
  ``conditionvar``, ``setvar``, ``displayfeedback``), and the QTI ASI 1.2.1 DTD
  (``ims_qtiasiv1p2p1.dtd``), which fixes the defaults used here:

  * ``respcondition continue (Yes | No) 'No'``: after a condition that is true, processing stops
    unless it says ``continue="Yes"``; a condition that is false never stops it;
  * ``setvar varname CDATA 'SCORE'`` and ``action (Set | Add | Subtract | Multiply | Divide)
    'Set'``: the variable is set to, or combined with, the element's number;
  * ``decvar varname 'SCORE'``, ``vartype`` (``Integer`` by default), ``defaultval``, ``minvalue``
    and ``maxvalue``: a variable starts at its default value (0 when none is given), an
    ``Integer`` one holds whole numbers (a value set or added is truncated, as a typed engine
    stores it), and its value stays within ``minvalue`` and ``maxvalue`` (as OpenOLAT's
    ``org.olat.ims.qti.container.Variable`` keeps it);
  * ``varequal case (Yes | No) 'No'``: text compares without regard to case unless ``case="Yes"``.

- Tests: ``varequal`` is equality, or membership for a response of several values
  (``rcardinality="Multiple"``); ``varlt``, ``varlte``, ``vargt``, ``vargte`` compare numbers;
  ``and``, ``or``, ``not`` are the Boolean operators; ``unanswered`` is true when the response is
  empty; ``other`` "is used to trigger the condition when all of the other tests have not returned
  a 'True' state" (the binding's words): it is true when no earlier condition of the item was true,
  as OpenOLAT's QTI 1.2 engine evaluates it (``org.olat.ims.qti.process.elements.QTI_other``).

- Two readings. ``reading="spec"`` is the specification's, as generic engines run it: several
  tests side by side in one ``conditionvar`` must *all* hold (the specification does not say;
  OpenOLAT's ``QTI_respcondition`` wraps them in an ``and``, pyslet's migration too), and a true
  condition without ``continue="Yes"`` ends processing (Instructure's own QTIMigrationTool turns
  such conditions into an if / else-if chain, ``lib/imsqtiv1.py`` ``AddRespCondition``).
  ``reading="canvas"`` (the default here) is how Canvas reads its own export form, which the
  Canvas package follows (docs/lms-behaviour.md; canvas-lms ``lib/cc/qti/qti_items.rb`` writes
  ``short_answer_resprocessing``, ``matching_resprocessing`` and ``multiple_dropdowns_resprocessing``
  in these forms, and Canvas's converter ``associate_interaction.rb`` reads every condition): a short answer's accepted answers are
  ``varequal`` tests side by side, each an accepted answer (tests side by side are alternatives),
  and a matching pair's or a blank's condition adds its share whether or not it says
  ``continue="Yes"`` (Canvas reads every pair and every blank). Under the spec reading Canvas's
  own form gives a student who matches every pair one pair's share: a difference between
  Canvas and generic QTI 1.2 engines that the Canvas package shares with Canvas's own exports.

- A ``calculated_question`` is not graded by its ``resprocessing`` at all (Canvas's exporter writes
  two placeholder conditions, ``<other/>`` and ``<not><other/></not>``: ``calculated_resprocessing``
  in ``qti_items.rb``). Canvas's converter reads ``itemproc_extension/calculated``
  (``gems/plugins/qti_exporter/lib/qti/calculated_interaction.rb``: ``answer_tolerance``, kept as
  text when it is not a plain number, and one answer per ``var_set``, its ``answer`` read with
  ``to_f``), and a student's question is one of those sets, graded as an exact answer with the
  tolerance as its margin (``app/models/quizzes/quiz_question/calculated_question.rb``,
  ``numerical_question.rb``: a margin ending in ``%`` is that percentage of the answer, the bounds
  included, in BigDecimal): :func:`calculated_sets` and :func:`grade_calculated`.

Responses are given per response identifier (``response_lid``/``response_str``/``response_num``
``ident``): a string (an answer ident, or typed text or number), a set of strings for a
``response_lid`` of cardinality Multiple, or None for no answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree

Response = str | frozenset[str] | set[str] | None
Reading = Literal["spec", "canvas"]

#: The numeric render_fib types: their responses compare as numbers.
NUMERIC_FIBTYPES = {"Integer", "Decimal", "Scientific"}


class Qti12Error(ValueError):
    """The item uses something this evaluator does not know, or breaks the DTD's rules."""


def local(element: etree._Element) -> str:
    """An element's name without its namespace (Canvas writes the QTI 1.2 namespace; the DTD has none)."""
    return etree.QName(element).localname


def children(element: etree._Element, name: str | None = None) -> list[etree._Element]:
    return [c for c in element if isinstance(c.tag, str) and (name is None or local(c) == name)]


def child(element: etree._Element, name: str) -> etree._Element:
    found = children(element, name)
    if len(found) != 1:
        raise Qti12Error(f"<{local(element)}> needs one <{name}>, has {len(found)}")
    return found[0]


@dataclass
class Variable:
    value: float
    minimum: float | None
    maximum: float | None
    integer: bool = False

    def set(self, value: float) -> None:
        if self.integer:
            value = float(int(value))
        if self.minimum is not None:
            value = max(value, self.minimum)
        if self.maximum is not None:
            value = min(value, self.maximum)
        self.value = value


@dataclass
class Outcome:
    """What response processing left: each declared variable, and the feedback it showed."""

    variables: dict[str, Variable]
    feedback: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.variables["SCORE"].value

    def fraction(self, name: str = "SCORE") -> float:
        """The variable as a fraction of its declared maximum (Canvas's SCORE runs 0..100)."""
        variable = self.variables[name]
        if not variable.maximum:
            raise Qti12Error(f"{name} declares no maxvalue")
        return variable.value / variable.maximum


@dataclass(frozen=True)
class Declaration:
    cardinality: str  # Single, Multiple, Ordered
    numeric: bool


def declarations(item: etree._Element) -> dict[str, Declaration]:
    """The item's response declarations by ident."""
    found = {}
    for element in item.iter():
        if not isinstance(element.tag, str) or local(element) not in ("response_lid", "response_str", "response_num"):
            continue
        fib = [e for e in element.iter() if isinstance(e.tag, str) and local(e) == "render_fib"]
        numeric = local(element) == "response_num" or any(f.get("fibtype", "String") in NUMERIC_FIBTYPES for f in fib)
        found[element.get("ident")] = Declaration(element.get("rcardinality", "Single"), numeric)
    return found


def _number(text: str | None) -> float:
    try:
        return float((text or "").strip())
    except ValueError as error:
        raise Qti12Error(f"not a number: {text!r}") from error


def _values(response: Response) -> list[str]:
    if response is None:
        return []
    return [response] if isinstance(response, str) else sorted(response)


class Evaluator:
    def __init__(self, item: etree._Element, responses: Mapping[str, Response], reading: Reading) -> None:
        self.item = item
        self.responses = responses
        self.reading = reading
        self.declared = declarations(item)
        unknown = set(responses) - set(self.declared)
        if unknown:
            raise Qti12Error(f"responses to undeclared idents {sorted(unknown)}; the item declares {sorted(self.declared)}")
        self.any_true = False

    # -- tests ----------------------------------------------------------------------------------

    def test(self, element: etree._Element) -> bool:
        name = local(element)
        if name == "and":
            return all(self.test(c) for c in children(element))
        if name == "or":
            return any(self.test(c) for c in children(element))
        if name == "not":
            (operand,) = children(element)
            return not self.test(operand)
        if name == "other":
            return not self.any_true
        if name == "unanswered":
            return not _values(self.responses.get(self.respident(element)))
        if name in ("varequal", "varlt", "varlte", "vargt", "vargte"):
            return self.compare(element, name)
        raise Qti12Error(f"<{name}> is not a test this evaluator knows")

    def respident(self, element: etree._Element) -> str:
        ident = element.get("respident")
        if ident not in self.declared:
            raise Qti12Error(f"<{local(element)}> tests '{ident}', which no response declares")
        return ident

    def compare(self, element: etree._Element, name: str) -> bool:
        ident = self.respident(element)
        declaration = self.declared[ident]
        values = _values(self.responses.get(ident))
        if not values:
            return False
        expected = element.text or ""
        if declaration.cardinality != "Single" and name != "varequal":
            raise Qti12Error(f"<{name}> on '{ident}', a response of several values")
        if name == "varequal" and not declaration.numeric:
            if element.get("case", "No") == "Yes":
                return expected in values
            return expected.casefold() in {v.casefold() for v in values}
        try:
            given = _number(values[0])
        except Qti12Error:
            return False  # typed text that is no number satisfies no numeric test
        target = _number(expected)
        return {"varequal": given == target, "varlt": given < target, "varlte": given <= target,
                "vargt": given > target, "vargte": given >= target}[name]

    def condition(self, conditionvar: etree._Element) -> bool:
        tests = children(conditionvar)
        if not tests:
            raise Qti12Error("<conditionvar> needs at least one test")
        results = [self.test(t) for t in tests]
        return all(results) if self.reading == "spec" else any(results)

    # -- processing ---------------------------------------------------------------------------------

    def run(self) -> Outcome:
        processing = children(self.item, "resprocessing")
        if len(processing) > 1:
            raise Qti12Error("more than one <resprocessing>")
        outcome = Outcome({})
        if not processing:
            return outcome
        (resprocessing,) = processing
        for decvar in children(child(resprocessing, "outcomes"), "decvar"):
            variable = Variable(0.0, _number(decvar.get("minvalue")) if decvar.get("minvalue") is not None else None,
                                _number(decvar.get("maxvalue")) if decvar.get("maxvalue") is not None else None,
                                integer=decvar.get("vartype", "Integer") == "Integer")
            variable.set(_number(decvar.get("defaultval", "0")))
            outcome.variables[decvar.get("varname", "SCORE")] = variable
        for respcondition in children(resprocessing, "respcondition"):
            true = self.condition(child(respcondition, "conditionvar"))
            if not true:
                continue
            self.any_true = True
            for setvar in children(respcondition, "setvar"):
                self.apply(setvar, outcome)
            outcome.feedback += [d.get("linkrefid") for d in children(respcondition, "displayfeedback")]
            adds = any(v.get("action") == "Add" for v in children(respcondition, "setvar"))
            if respcondition.get("continue", "No") != "Yes" and not (adds and self.reading == "canvas"):
                break
        return outcome

    @staticmethod
    def apply(setvar: etree._Element, outcome: Outcome) -> None:
        name = setvar.get("varname", "SCORE")
        if name not in outcome.variables:
            raise Qti12Error(f"<setvar> of '{name}', which no <decvar> declares")
        variable = outcome.variables[name]
        number = _number(setvar.text)
        if variable.integer:
            number = float(int(number))
        action = setvar.get("action", "Set")
        operations = {"Set": lambda v: number, "Add": lambda v: v + number, "Subtract": lambda v: v - number,
                      "Multiply": lambda v: v * number, "Divide": lambda v: v / number}
        if action not in operations:
            raise Qti12Error(f"<setvar action='{action}'> is none of the DTD's actions")
        variable.set(operations[action](variable.value))


def score_item(item: etree._Element, responses: Mapping[str, Response], reading: Reading = "canvas") -> Outcome:
    """Run ``item``'s response processing on ``responses`` (response ident -> value)."""
    return Evaluator(item, responses, reading).run()


def items(assessment: etree._Element) -> Iterable[etree._Element]:
    """Every ``<item>`` of a ``questestinterop`` document, namespaced or not."""
    return (e for e in assessment.iter() if isinstance(e.tag, str) and local(e) == "item")


# -- calculated questions: Canvas's own grading (see the module docstring) ---------------------------


@dataclass(frozen=True)
class CalculatedSet:
    """One ``var_set``: the variables' values and the answer Canvas grades against."""

    values: dict[str, float]
    answer: str


def calculated_sets(item: etree._Element) -> tuple[str, list[CalculatedSet]]:
    """An item's ``answer_tolerance`` and its sets, as ``CalculatedInteraction`` reads them."""
    (calculated,) = [e for e in item.iter() if isinstance(e.tag, str) and local(e) == "calculated"]
    tolerance = next((e.text or "" for e in calculated.iter() if isinstance(e.tag, str) and local(e) == "answer_tolerance"), "")
    sets = []
    for var_set in (e for e in calculated.iter() if isinstance(e.tag, str) and local(e) == "var_set"):
        values = {v.get("name"): float(v.text or 0) for v in children(var_set, "var")}
        answers = children(var_set, "answer")
        sets.append(CalculatedSet(values, answers[0].text or "0" if answers else "0"))
    return tolerance, sets


def grade_calculated(answer: str, tolerance: str, response: str) -> float:
    """1 when ``response`` is within the margin of the set's answer (NumericalQuestion's
    ``exact_answer``), else 0. Calculated answers are all or nothing in Canvas."""
    from decimal import Decimal, InvalidOperation

    try:
        given = Decimal(response.strip())
    except InvalidOperation:
        return 0.0
    exact = Decimal(repr(float(answer)))  # the importer's to_f, then BigDecimal(to_s)
    tolerance = tolerance.strip() or "0"
    if tolerance.endswith("%"):
        margin = abs(Decimal(repr(float(tolerance[:-1]) / 100.0 * float(exact))))
    else:
        margin = Decimal(repr(float(tolerance)))
    return 1.0 if exact - margin <= given <= exact + margin else 0.0


# -- Canvas's own rule for multiple answers ----------------------------------------------------------


def canvas_multiple_answers(item: etree._Element, chosen: set[str]) -> float:
    """The fraction of the points Canvas gives ``chosen`` in a multiple-answers item, by its own
    rule rather than the item's conditions (canvas-lms ``Quizzes::QuizQuestion::
    MultipleAnswersQuestion`` and ``UserAnswer#score``): the right answers are the ``varequal``
    tests of the scoring condition that are not inside ``<not>`` (Canvas's importer gives them
    weight 100); each right one ticked earns one of as many parts as there are right answers,
    each wrong one ticked takes one part away, and the score is never below 0."""
    right: set[str] = set()
    for condition in item.iter("{*}respcondition"):
        if not any(local(s) == "setvar" and (s.text or "").strip() == "100" for s in condition.iter("{*}setvar")):
            continue
        for test in condition.iter("{*}varequal"):
            if not any(local(a) == "not" for a in test.iterancestors()):
                right.add((test.text or "").strip())
    parts = len(right) or 1
    score = (len(chosen & right) - len(chosen - right)) / parts
    return max(score, 0.0)
