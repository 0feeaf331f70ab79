"""Item templates as calculated questions: what an item's template processing says, in the model's
terms, or why it cannot be said (:class:`..calculated.Unconvertible`).

Template processing maps onto the model when every template variable is a single number and
every rule is one of:

- ``setTemplateValue`` of ``randomInteger`` (min, max, step: a range), ``randomFloat`` (a range
  with the decimals its ``printedVariable`` shows), ``random`` over a container of numbers (a
  list of values) or an expression over variables set before (a derived value: ``sum``,
  ``product``, ``subtract``, ``divide``, ``power``, ``min``, ``max``, ``round``, ``roundTo`` to
  decimal places, QTI 2.2's ``mathOperator`` and ``mathConstant``);
- ``templateConstraint`` of comparisons (joined by ``and``): the question's conditions;
- the pre-computed sets qti-builder writes: an index drawn by ``randomInteger`` from 1 to N and a
  ``templateCondition`` whose branch k (``match`` of the index and k) sets each value of set k:
  the question's listed sets;
- ``setCorrectResponse`` of such an expression: the answer's formula.

Anything else (a condition on the values, a string variable, text shown or hidden by a value,
``exitTemplate``) has no form in the model: the item is then read by its first rendering.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ... import formulas as F
from ...model.parametric import DEFAULT_SETS
from ...plurals import plural
from ..calculated import Unconvertible, constant_or_formula, decimals_of, renamings, variable_names
from .xml import _float, child, children, descendants, local

#: QTI's arithmetic, as the formula's operators (each takes two operands or, for sum and
#: product, any number joined from the left).
OPERATORS = {"sum": "+", "product": "*", "subtract": "-", "divide": "/", "power": "^"}
#: QTI 2.2's mathOperator functions the formulas have, and those they spell another way.
MATH_FUNCTIONS = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan", "log": "log",
                  "ln": "ln", "exp": "exp", "abs": "abs", "floor": "floor", "ceil": "ceil"}
RECIPROCALS = {"sec": "cos", "csc": "sin", "cot": "tan"}
COMPARISONS = {"lt": "<", "gt": ">", "lte": "<=", "gte": ">=", "equal": "==", "match": "=="}
NEGATED = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!="}
#: A printedVariable's format that shows a fixed number of decimals.
FIXED = re.compile(r"^%(?:\.(\d{1,2}))?[fFdi]$")


@dataclass
class Template:
    """An item template in the model's terms. Names are the source's (``names`` maps each template
    identifier to its variable)."""

    names: dict[str, str] = field(default_factory=dict)
    #: Each variable as the model writes it (name, and min/max/step, values or formula).
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    sets: int | list[dict[str, float]] = DEFAULT_SETS
    #: Each listed variable's values as the item writes them (their decimals), set by set.
    written: dict[str, list[str]] = field(default_factory=dict)
    constraints: list[str] = field(default_factory=list)
    #: What ``setCorrectResponse`` sets each response to.
    correct: dict[str, F.Node] = field(default_factory=dict)
    #: Decimals each printed variable is shown with (None: as it is).
    printed: dict[str, int | None] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)

    def used(self) -> set[str]:
        """Variables something uses: the texts, derived values, conditions, correct responses."""
        nodes = [F.parse(v["formula"]) for v in self.variables.values() if "formula" in v]
        nodes += [F.parse(c, constraint=True) for c in self.constraints] + list(self.correct.values())
        return set(self.printed) | {name for node in nodes for name in F.variables(node)}


def read_template(item: etree._Element) -> Template:
    """The item's template processing in the model's terms; :class:`Unconvertible` says why not."""
    declarations = descendants(item, "templateDeclaration")
    template = Template(names=variable_names(d.get("identifier", "") for d in declarations))
    template.lost.extend(renamings(template.names))
    for declaration in declarations:
        identifier = declaration.get("identifier", "")
        if declaration.get("cardinality", "single") != "single" or declaration.get("baseType") not in ("integer", "float"):
            raise Unconvertible(f"the template variable {identifier} is a {declaration.get('cardinality', 'single')} "
                                f"{declaration.get('baseType', 'value')}, and a calculated question's values are numbers")
    for shown in descendants(item, "templateBlock", "templateInline"):
        raise Unconvertible(f"it shows or hides text by a template value ({local(shown)} of {shown.get('templateIdentifier')})")
    for printed in descendants(item, "printedVariable"):
        identifier = printed.get("identifier", "")
        if identifier not in template.names:
            raise Unconvertible(f"it prints '{identifier}', which is no template variable")
        template.printed[template.names[identifier]] = _printed_decimals(printed, template)
    processing = child(item, "templateProcessing")
    for rule in children(processing) if processing is not None else []:
        _rule(rule, template)
    for identifier, name in template.names.items():
        if name not in template.variables and name in template.used():
            raise Unconvertible(f"the template variable {identifier} is given no value")
    return template


def _printed_decimals(printed: etree._Element, template: Template) -> int | None:
    pattern = printed.get("format")
    if not pattern:
        return None
    fixed = FIXED.match(pattern)
    if fixed is None:
        template.lost.append(f"the format '{pattern}' of {printed.get('identifier')} (the value is shown with its decimals)")
        return None
    return int(fixed.group(1) or 6) if pattern[-1] in "fF" else 0


def _rule(rule: etree._Element, template: Template) -> None:
    name = local(rule)
    if name == "setTemplateValue":
        _set(rule, template)
    elif name == "templateConstraint":
        expression = children(rule)
        if not expression:
            raise Unconvertible("a templateConstraint has no condition")
        template.constraints += [F.to_source(c) for c in _conditions(expression[0], template)]
    elif name == "setCorrectResponse":
        expression = children(rule)
        if not expression:
            raise Unconvertible("setCorrectResponse has no value")
        template.correct[rule.get("identifier", "")] = _node(expression[0], template)
    elif name == "templateCondition":
        _listed_sets(rule, template)
    elif name == "setDefaultValue":
        template.lost.append(f"the default value template processing gives {rule.get('identifier')}")
    else:
        raise Unconvertible(f"its template processing uses {name}")


def _set(rule: etree._Element, template: Template) -> None:
    identifier = rule.get("identifier", "")
    variable = _variable(identifier, template)
    if variable in template.variables:
        raise Unconvertible(f"the template variable {identifier} is set twice")
    expression = children(rule)
    if not expression:
        raise Unconvertible(f"setTemplateValue of {identifier} has no value")
    value, kind = expression[0], local(expression[0])
    if kind in ("randomInteger", "randomFloat"):
        low, high = _number(value.get("min"), identifier), _number(value.get("max"), identifier)
        entry: dict[str, Any] = {"min": low, "max": high}
        if kind == "randomInteger":
            step = _number(value.get("step") or "1", identifier)
            entry.update(step=step) if step != 1 else entry.update(decimals=0)
        else:
            shown = template.printed.get(variable)
            entry["decimals"] = shown if shown is not None else 2
            template.lost.append(f"the continuous range of {identifier} (the source draws it with "
                                 f"{plural(entry['decimals'], 'decimal')})")
        template.variables[variable] = entry
    elif kind == "random":
        members = children(value)
        numbers = [_float(m.text) for m in descendants(members[0], "baseValue")] if members else []
        if not numbers or any(n is None for n in numbers) or len(numbers) != len(children(members[0])):
            raise Unconvertible(f"{identifier} is drawn from a container that is not a list of numbers")
        template.variables[variable] = {"values": numbers}
    else:
        template.variables[variable] = constant_or_formula(F.to_source(_node(value, template)))


def _listed_sets(rule: etree._Element, template: Template) -> None:
    """qti-builder's sets: ``templateIf``/``templateElseIf`` branches, branch k holding set k's values."""
    index = None
    sets: list[dict[str, float]] = []
    written: dict[str, list[str]] = {}
    for branch in children(rule):
        parts = children(branch)
        if local(branch) == "templateElse" or not parts:
            raise Unconvertible("its templateCondition chooses by other values than a set number")
        test = parts[0]
        operands = children(test)
        numbers = [o for o in operands if local(o) == "baseValue"]
        variables = [o for o in operands if local(o) == "variable"]
        if local(test) not in ("match", "equal") or len(numbers) != 1 or len(variables) != 1:
            raise Unconvertible("its templateCondition chooses by other values than a set number")
        if index not in (None, variables[0].get("identifier")):
            raise Unconvertible("its templateCondition's branches test different variables")
        index = variables[0].get("identifier")
        values: dict[str, float] = {}
        for setter in parts[1:]:
            base = children(setter)
            number = _float(base[0].text) if local(setter) == "setTemplateValue" and base and local(base[0]) == "baseValue" else None
            if number is None:
                raise Unconvertible("a branch of its templateCondition does more than set numbers")
            name = _variable(setter.get("identifier", ""), template)
            values[name] = number
            written.setdefault(name, []).append((base[0].text or "").strip())
        if sets and set(values) != set(sets[0]):
            raise Unconvertible("the branches of its templateCondition set different variables")
        sets.append(values)
    drawn = template.variables.pop(_variable(index or "", template), None)
    if not sets or drawn is None or (drawn.get("min"), drawn.get("max")) != (1, len(sets)) or drawn.get("step"):
        raise Unconvertible("its templateCondition's sets are not drawn by a randomInteger from 1 to their number")
    if isinstance(template.sets, list) or any("formula" not in v for v in template.variables.values()):
        raise Unconvertible("it draws values at random as well as from its sets")
    template.sets, template.written = sets, written
    for name in sets[0]:
        template.variables.setdefault(name, {})


def _variable(identifier: str, template: Template) -> str:
    if identifier not in template.names:
        raise Unconvertible(f"its template processing sets '{identifier}', which is no template variable")
    return template.names[identifier]


def _number(text: str | None, identifier: str) -> float:
    value = _float(text)
    if value is None:
        raise Unconvertible(f"the range of {identifier} is not given in numbers ('{text}')")
    return value


def _conditions(node: etree._Element, template: Template) -> list[F.Node]:
    """A constraint as the model's conditions: comparisons, several joined by ``and``."""
    name = local(node)
    if name == "and":
        return [c for operand in children(node) for c in _conditions(operand, template)]
    negate = name == "not"
    if negate:
        node = children(node)[0] if children(node) else node
        name = local(node)
    if name in COMPARISONS and len(children(node)) == 2:
        if name == "equal" and (node.get("toleranceMode") or "exact") != "exact":
            raise Unconvertible("a constraint compares within a tolerance")
        op = NEGATED[COMPARISONS[name]] if negate else COMPARISONS[name]
        left, right = (_node(operand, template) for operand in children(node))
        return [F.Compare(op, left, right, 1)]
    raise Unconvertible(f"a templateConstraint uses {name}, which a condition cannot say")


def _node(node: etree._Element, template: Template) -> F.Node:
    """A QTI expression as a formula."""
    name = local(node)
    operands = children(node)
    if name == "baseValue" and node.get("baseType") in ("integer", "float"):
        value = _float(node.text)
        if value is None:
            raise Unconvertible(f"the value '{node.text}' is no number")
        return _constant(value, (node.text or "").strip())
    if name == "variable":
        identifier = node.get("identifier", "")
        if identifier not in template.names:
            raise Unconvertible(f"an expression uses '{identifier}', which is no template variable")
        return F.Var(template.names[identifier], 1)
    if name == "mathConstant" and node.get("name") in F.CONSTANTS:
        return F.Const(node.get("name", ""), 1)
    if name in OPERATORS and operands:
        args = [_node(o, template) for o in operands]
        if name in ("subtract", "divide", "power") and len(args) != 2:
            raise Unconvertible(f"{name} takes two operands, not {len(args)}")
        result = args[0]
        for arg in args[1:]:
            result = F.BinOp(OPERATORS[name], result, arg, 1)
        return result
    if name in ("min", "max") and operands:
        args = [_node(o, template) for o in operands]
        return F.Call(name, tuple(args), 1) if len(args) > 1 else args[0]
    if name == "round" and len(operands) == 1:  # QTI rounds halves up
        return F.Call("floor", (F.BinOp("+", _node(operands[0], template), F.Num(0.5, "0.5", 1), 1),), 1)
    if name == "roundTo" and len(operands) == 1 and node.get("roundingMode") == "decimalPlaces":
        places = _float(node.get("figures"))
        if places is not None and places == int(places) and places >= 0:
            return F.Call("round", (_node(operands[0], template), F.Num(places, str(int(places)), 1)), 1)
    if name == "mathOperator" and operands:
        function = node.get("name", "")
        called = tuple(_node(o, template) for o in operands)
        if function in MATH_FUNCTIONS and len(called) == 1:
            return F.Call(MATH_FUNCTIONS[function], called, 1)
        if function in RECIPROCALS and len(called) == 1:
            return F.BinOp("/", F.Num(1.0, "1", 1), F.Call(RECIPROCALS[function], called, 1), 1)
        if function in ("toDegrees", "toRadians") and len(called) == 1:
            degrees: F.Node = F.Num(180.0, "180", 1)
            top, bottom = (degrees, F.Const("pi", 1)) if function == "toDegrees" else (F.Const("pi", 1), degrees)
            return F.BinOp("/", F.BinOp("*", called[0], top, 1), bottom, 1)
        raise Unconvertible(f"an expression uses mathOperator '{function}', which the source's formulas do not have")
    what = f"{name} ({node.get('roundingMode')})" if name == "roundTo" else name
    raise Unconvertible(f"an expression uses {what}, which the source's formulas do not have")


def _constant(value: float, text: str) -> F.Node:
    number = F.Num(abs(value), F.plain_decimal(text.lstrip("+-")) if text else F.plain_decimal(abs(value)), 1)
    return F.Neg(number, 1) if value < 0 else number


def written_decimals(template: Template, name: str) -> int:
    """A listed variable's decimals: as its printedVariable shows it, else as its values are written."""
    shown = template.printed.get(name)
    if shown is not None:
        return shown
    return max((decimals_of(t) for t in template.written.get(name, [])), default=0)


__all__ = ["Template", "read_template", "written_decimals"]
