"""An item template read as a calculated question (:mod:`.parametric` says what its template
processing is in the model's terms): a number typed into a box is a ``calculated`` question, one
choice of several a ``calculated_choice`` one.

The answer is what sets the correct response: ``setCorrectResponse`` (its expression, or the
formula of the variable it names), else a correct response naming a template variable. Where
that variable holds each listed set's answer as a number (qti-builder's own items), the correct
response's ``interpretation`` gives the formula when it computes every one of them (written as
the source's answer line, ``d / t ± 1%``, it gives the tolerance too); else the answers stay a
variable of their own, and the warning says the formula is not in the item. The tolerance is how
response processing compares the response with the answer: ``equal`` with ``toleranceMode``
(``relative`` is a percentage), bounds a set's answer minus and plus a margin (qti-builder's
``LOWER``/``UPPER``: the interpretation's tolerance when every set's bounds agree with it, else
absolute when the margin is the same in every set, relative when it is the same share of the
answer), or ``match`` (exact).
"""

from __future__ import annotations

import math
import re

from lxml import etree

from ... import formulas as F
from ..calculated import Unconvertible, computed_answers, decimals_of
from .context import ItemContext
from .parametric import Template, read_template, written_decimals
from .responses import Response, scoring
from .xml import Data, child, children, descendants, local, replace_with_text

#: An interpretation written as the source's answer line: ``d / t ± 1%``.
ANSWER_LINE = re.compile(r"^(?P<formula>.+?)\s*±\s*(?P<tolerance>[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\s*(?P<percent>%)?$")

#: The model kinds an item's interaction is read as, and the calculated kind each becomes.
CALCULATED_KINDS = {"numerical": "calculated", "slider": "calculated", "single_choice": "calculated_choice",
                    "true_false": "calculated_choice"}


def calculated_fields(r: ItemContext, kind: str, interactions: list[etree._Element]) -> tuple[Data, Template]:
    """The calculated question's own fields (variables, sets, answer, tolerance or choices'
    correctness); :class:`Unconvertible` when the item has no such form. (Whether the question
    then builds is checked once its texts are read.)"""
    if kind not in CALCULATED_KINDS:
        raise Unconvertible(f"a calculated question answers with a number or one choice, and this item is read as {kind}")
    template = read_template(r.original)
    fields: Data = {"type": CALCULATED_KINDS[kind]}
    keep: set[str] = set(template.printed)
    if CALCULATED_KINDS[kind] == "calculated":
        fields.update(_number_answer(r, template, interactions[0]))
        keep |= set(F.variables(F.parse(fields["answer"])))
    else:
        _correct_choice(r, template, interactions[0])
    keep |= {n for c in template.constraints for n in F.variables(F.parse(c, constraint=True))}
    fields["variables"], fields["sets"] = _variables(template, keep)
    fields["constraints"] = template.constraints
    r.lost.extend(template.lost)
    return fields, template


def with_placeholders(item: etree._Element, template: Template, variables: list[Data]) -> etree._Element:
    """A copy of the item whose printedVariables are the source's placeholders (``{x}``, ``{x:2}``)."""
    from copy import deepcopy

    copy = deepcopy(item)
    decimals = {v["name"]: v.get("decimals") for v in variables}
    for printed in descendants(copy, "printedVariable"):
        name = template.names[printed.get("identifier", "")]
        shown = template.printed.get(name)
        own = shown is None or shown == decimals.get(name)
        replace_with_text(printed, "{" + name + ("}" if own else f":{shown}}}"))
    return copy


def _variables(template: Template, keep: set[str]) -> tuple[list[Data], int | list[dict[str, float]]]:
    """The variables the question uses (derived ones with what they use), in the item's order."""
    needed = set(keep)
    for name in reversed(list(template.variables)):
        formula = template.variables[name].get("formula")
        if name in needed and formula:
            needed |= set(F.variables(F.parse(formula)))
    variables: list[Data] = []
    for name, entry in template.variables.items():
        if name not in needed:
            continue
        variable: Data = {"name": name, **entry}
        if not entry:  # listed: its values are the sets'
            variable["decimals"] = written_decimals(template, name)
        elif "formula" not in entry and "decimals" not in entry and "step" not in entry and template.printed.get(name) is not None:
            variable["decimals"] = template.printed[name]
        variables.append(variable)
    sets = template.sets
    if isinstance(sets, list):
        sets = [{n: v for n, v in values.items() if n in needed} for values in sets]
    return variables, sets


def _number_answer(r: ItemContext, template: Template, interaction: etree._Element) -> Data:
    identifier = interaction.get("responseIdentifier", "")
    response = r.responses.get(identifier, Response(identifier))
    if response.base_type not in ("float", "integer"):
        raise Unconvertible(f"its response {identifier} is a {response.base_type}, not a number")
    node = template.correct.get(identifier)
    if node is None and len(response.correct) == 1 and response.correct[0] in template.names:
        node = F.Var(template.names[response.correct[0]], 1)
    if node is None:
        raise Unconvertible("its correct response is not set from the template's values")
    answer = F.to_source(node)
    if isinstance(node, F.Var) and node.name in template.variables:
        entry = template.variables[node.name]
        if "formula" in entry:
            answer = entry["formula"]
        elif not entry:  # each listed set's answer
            answer = _interpreted(r, template, node.name) or answer
    fields: Data = {"answer": answer}
    fields.update(_tolerance(r, template, identifier, node))
    written = [(v.text or "").strip() for d in descendants(r.original, "responseDeclaration") if d.get("identifier") == identifier
               for c in children(d, "correctResponse") for v in children(c, "value")]
    if len(written) == 1 and _is_number(written[0]):  # the answer as shown, until a set is drawn (qti-builder's items)
        fields["decimals"] = min(decimals_of(written[0]), 10)
    unit = (interaction.tail or "").strip()
    if unit:
        fields["unit"] = unit
    return fields


def _interpreted(r: ItemContext, template: Template, name: str) -> str | None:
    """The formula of the correct response's ``interpretation`` (``d / t``, or as an answer line
    says it, ``d / t ± 1%``), when it computes every set's answer; else
    None, and the loss is noted."""
    formula, _ = _interpretation(r)
    assert isinstance(template.sets, list)
    try:
        node = F.renamed(F.parse(formula), template.names)
        formula = F.to_source(node)
        others = {n: e["formula"] for n, e in template.variables.items() if "formula" in e}
        computed = computed_answers(formula, others, template.sets)
    except (F.FormulaError, ValueError):
        computed = []
    if computed and all(c is not None and math.isclose(c, s[name], rel_tol=1e-8, abs_tol=1e-9)
                        for c, s in zip(computed, template.sets)):
        return formula
    r.lost.append(f"the answer's formula (the item holds each set's answer, kept as the variable '{name}')")
    return None


def _interpretation(r: ItemContext) -> tuple[str, Data | None]:
    """The correct response's ``interpretation`` as (formula, its stated tolerance or None)."""
    correct = next((c for d in descendants(r.original, "responseDeclaration") for c in children(d, "correctResponse")), None)
    text = " ".join((correct.get("interpretation") or "").split()) if correct is not None else ""
    stated = ANSWER_LINE.match(text)
    if stated is None:
        return text, None
    tolerance: Data = {"tolerance": float(stated.group("tolerance"))}
    if stated.group("percent"):
        tolerance["tolerance_mode"] = "percent"
    return stated.group("formula"), tolerance


def _tolerance(r: ItemContext, template: Template, identifier: str, answer: F.Node) -> Data:
    if scoring(r.original) == "match_correct":
        return {"tolerance": 0.0}
    processing = child(r.original, "responseProcessing")
    for condition in descendants(processing, "responseCondition") if processing is not None else []:
        branch = children(condition)[0] if children(condition) else None
        test = children(branch)[0] if branch is not None and children(branch) else None
        if test is None or not any(v.get("identifier") == identifier for v in descendants(test, "variable")):
            continue
        if local(test) == "equal":
            return _equal_tolerance(test)
        if local(test) == "match":
            return {"tolerance": 0.0}
        if local(test) == "and":
            return _bounds_tolerance(template, identifier, test, answer, _interpretation(r)[1])
    raise Unconvertible("its response processing does not compare the response with the answer")


def _equal_tolerance(test: etree._Element) -> Data:
    mode = test.get("toleranceMode", "exact")
    if mode == "exact":
        return {"tolerance": 0.0}
    values = [float(v) for v in (test.get("tolerance") or "0").split() if _is_number(v)]
    if not values:
        raise Unconvertible(f"its tolerance '{test.get('tolerance')}' is not given in numbers")
    tolerance = max(values)
    return {"tolerance": tolerance, "tolerance_mode": "percent" if mode == "relative" else "absolute"}


def _bounds_tolerance(template: Template, identifier: str, test: etree._Element, answer: F.Node,
                      stated: Data | None) -> Data:
    bounds: dict[str, str] = {}
    for comparison in children(test):
        operands = children(comparison)
        names = [o.get("identifier", "") for o in operands if local(o) == "variable"]
        if local(comparison) not in ("gte", "lte", "gt", "lt") or len(names) != 2 or identifier not in names:
            raise Unconvertible("its response processing compares the response in a way a tolerance cannot say")
        other = template.names.get(names[1] if names[0] == identifier else names[0])
        response_first = names[0] == identifier
        upper = (local(comparison) in ("lte", "lt")) == response_first
        if other is None:
            raise Unconvertible("its response's bounds are not template values")
        bounds["upper" if upper else "lower"] = other
    if set(bounds) != {"lower", "upper"} or not isinstance(template.sets, list):
        raise Unconvertible("its response's bounds are not a pair of listed values")
    listed = template.sets
    answers = computed_answers(F.to_source(answer), {n: e["formula"] for n, e in template.variables.items() if "formula" in e},
                               listed)
    margins = []
    for values, value in zip(listed, answers):
        if value is None or bounds["upper"] not in values or bounds["lower"] not in values:
            raise Unconvertible("its response's bounds are not a pair of listed values")
        margins.append((values[bounds["upper"]] - value, value - values[bounds["lower"]], value))
    above = [m[0] for m in margins]
    if any(not math.isclose(high, low, rel_tol=1e-6, abs_tol=1e-9) for high, low, _ in margins):
        raise Unconvertible("its response's bounds lie unequally around the answer")
    if stated is not None:  # as the interpretation says, when every set's bounds agree (one set fits either)
        relative = stated.get("tolerance_mode") == "percent"
        if all(math.isclose(high, abs(value) * stated["tolerance"] / 100 if relative else stated["tolerance"],
                            rel_tol=1e-6, abs_tol=1e-9) for high, _, value in margins):
            return stated
    if all(math.isclose(a, above[0], rel_tol=1e-6, abs_tol=1e-9) for a in above):
        return {"tolerance": float(f"{max(above[0], 0.0):.6g}")}
    shares = [high / abs(value) for high, _, value in margins if value]
    if shares and all(math.isclose(s, shares[0], rel_tol=1e-6) for s in shares):
        return {"tolerance": float(f"{shares[0] * 100:.6g}"), "tolerance_mode": "percent"}
    raise Unconvertible("its response's bounds are neither a fixed margin nor a fixed share of the answer")


def _correct_choice(r: ItemContext, template: Template, interaction: etree._Element) -> None:
    identifier = interaction.get("responseIdentifier", "")
    node = template.correct.get(identifier)
    if node is not None:
        raise Unconvertible("its correct choice is set by template processing, so it may change with the values")
    response = r.responses.get(identifier, Response(identifier))
    if len(response.correct) != 1:
        raise Unconvertible("a calculated choice question has one correct choice")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


__all__ = ["CALCULATED_KINDS", "calculated_fields", "with_placeholders"]
