"""Template-driven items (``templateDeclaration``, ``templateProcessing``): each attempt draws its
own values, which the text shows (``printedVariable``) and the correct response may depend on
(``setCorrectResponse``). The model has no random values, so an item is imported as its first
rendering: every random draw takes its first value (``randomInteger``/``randomFloat`` their
minimum, ``random`` the first member of its container), the template rules run with those, and
the item is read as if it had been written with them. Unresolvable expressions leave their
variable unknown, shown as its name; the reader reports both.

The expressions are QTI 2.1's (section 15, expressions), the ones template processing uses:
base values, variables, containers, random draws, arithmetic, comparisons and logic.
"""

from __future__ import annotations

import math
import re
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .xml import _float, child, children, descendants, local, replace_with_text, unwrap

Value = Any  # a number, a string, a bool, or a list of them (a container)


class Unresolved(Exception):
    """An expression this reader does not compute."""


@dataclass
class Rendering:
    item: etree._Element
    #: The template variables and the values the first rendering gives them, in declaration order.
    values: dict[str, Value] = field(default_factory=dict)
    #: Variables left without a value (their expressions are not computed here).
    unknown: list[str] = field(default_factory=list)


def first_rendering(item: etree._Element) -> Rendering | None:
    """The item with its template values put in, or None for an item without templates."""
    declarations = descendants(item, "templateDeclaration")
    if not declarations:
        return None
    values: dict[str, Value] = {}
    for declaration in declarations:
        default = child(declaration, "defaultValue")
        if default is not None:
            values[declaration.get("identifier", "")] = _typed([(v.text or "").strip() for v in children(default, "value")],
                                                              declaration)
    corrects: dict[str, list[str]] = {}
    unknown: list[str] = []
    processing = child(item, "templateProcessing")
    if processing is not None:
        try:
            _run(children(processing), values, corrects, unknown)
        except _Exit:
            pass
    copy = deepcopy(item)
    _print_variables(copy, values)
    _template_blocks(copy, values)
    for declaration in descendants(copy, "responseDeclaration"):
        identifier = declaration.get("identifier", "")
        if identifier in corrects:
            correct = child(declaration, "correctResponse")
            if correct is None:
                correct = etree.Element(etree.QName(declaration, "correctResponse").text)
                declaration.insert(0, correct)
            for old in list(correct):
                correct.remove(old)
            for text in corrects[identifier]:
                etree.SubElement(correct, etree.QName(declaration, "value").text).text = text
    names = [d.get("identifier", "") for d in declarations]
    return Rendering(copy, {n: values[n] for n in names if n in values}, [n for n in names if n not in values] + unknown)


class _Exit(Exception):
    pass


def _run(rules: list[etree._Element], values: dict[str, Value], corrects: dict[str, list[str]], unknown: list[str]) -> None:
    for rule in rules:
        name = local(rule)
        target = rule.get("identifier", "")
        if name in ("setTemplateValue", "setCorrectResponse", "setDefaultValue"):
            try:
                value = _value(children(rule)[0], values)
            except (Unresolved, IndexError, ValueError, TypeError, ZeroDivisionError, OverflowError):
                if name == "setTemplateValue":
                    values.pop(target, None)
                    unknown.append(target)
                continue
            if name == "setTemplateValue":
                values[target] = value
            elif name == "setCorrectResponse":
                corrects[target] = [_text(v) for v in (value if isinstance(value, list) else [value])]
        elif name == "templateCondition":
            for branch in children(rule):
                if local(branch) == "templateElse":
                    _run(children(branch), values, corrects, unknown)
                    break
                parts = children(branch)
                try:
                    holds = bool(parts and _value(parts[0], values))
                except (Unresolved, ValueError, TypeError, ZeroDivisionError, OverflowError):
                    holds = False
                if holds:
                    _run(parts[1:], values, corrects, unknown)
                    break
        elif name == "exitTemplate":
            raise _Exit


def _typed(texts: list[str], declaration: etree._Element) -> Value:
    kind = declaration.get("baseType", "string")
    converted = [_convert(t, kind) for t in texts]
    return converted if declaration.get("cardinality", "single") != "single" else (converted[0] if converted else None)


def _convert(text: str, kind: str) -> Value:
    if kind == "integer":
        return int(float(text))
    if kind == "float":
        return float(text)
    if kind == "boolean":
        return text.strip().lower() == "true"
    return text


#: A printf format of one number, with widths and precisions of two digits at most (a format
#: is the item author's text: ``%.1000000000f`` would be a gigabyte).
PRINTF = re.compile(r"[^%]*%[-+ 0#]?\d{0,2}(\.\d{1,2})?[diuxXeEfFgG][^%]*")

ARITHMETIC = {
    "sum": lambda xs: sum(xs),
    "product": lambda xs: math.prod(xs),
    "subtract": lambda xs: xs[0] - xs[1],
    "divide": lambda xs: xs[0] / xs[1],
    "power": lambda xs: float(xs[0]) ** float(xs[1]),  # floats: an integer power could be gigabytes
    "integerDivide": lambda xs: int(xs[0] // xs[1]),
    "integerModulus": lambda xs: int(xs[0] % xs[1]),
    "min": lambda xs: min(xs),
    "max": lambda xs: max(xs),
}
COMPARISONS = {
    "match": lambda a, b: a == b, "equal": lambda a, b: a == b, "lt": lambda a, b: a < b, "gt": lambda a, b: a > b,
    "lte": lambda a, b: a <= b, "gte": lambda a, b: a >= b,
}


def _value(node: etree._Element, values: dict[str, Value]) -> Value:
    name = local(node)
    args = children(node)
    if name == "baseValue":
        return _convert((node.text or "").strip(), node.get("baseType", "string"))
    if name == "variable":
        identifier = node.get("identifier", "")
        if identifier not in values:
            raise Unresolved(identifier)
        return values[identifier]
    if name in ("multiple", "ordered"):
        return [_value(a, values) for a in args]
    if name == "random":
        container = _value(args[0], values)
        if not isinstance(container, list) or not container:
            raise Unresolved(name)
        return container[0]
    if name in ("randomInteger", "randomFloat"):
        low = _float(_attribute(node.get("min"), values))
        if low is None:
            raise Unresolved(name)
        return int(low) if name == "randomInteger" else low
    if name in ARITHMETIC:
        numbers = [_value(a, values) for a in args]
        return ARITHMETIC[name](numbers)
    if name in ("round", "truncate"):
        number = _value(args[0], values)
        return int(math.floor(number + 0.5)) if name == "round" else int(number)
    if name in COMPARISONS:
        return COMPARISONS[name](_value(args[0], values), _value(args[1], values))
    if name == "and":
        return all(_value(a, values) for a in args)
    if name == "or":
        return any(_value(a, values) for a in args)
    if name == "not":
        return not _value(args[0], values)
    if name == "isNull":
        try:
            return _value(args[0], values) in (None, "", [])
        except Unresolved:
            return True
    if name == "null":
        return None
    raise Unresolved(name)


def _attribute(text: str | None, values: dict[str, Value]) -> str | None:
    """An attribute that may name a template variable (``min="{LOW}"``)."""
    if text and text.startswith("{") and text.endswith("}"):
        value = values.get(text[1:-1])
        return None if value is None else str(value)
    return text


def _text(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _format(value: Value, pattern: str | None) -> str:
    """A printed variable: its value, through the printf-style ``format`` when it has one."""
    if isinstance(value, list):
        return ", ".join(_format(v, pattern) for v in value)
    if pattern and isinstance(value, (int, float)) and not isinstance(value, bool) and PRINTF.fullmatch(pattern):
        try:
            return pattern.replace("%i", "%d") % (value,)
        except (TypeError, ValueError, OverflowError):
            pass
    return _text(value)


def _print_variables(item: etree._Element, values: dict[str, Value]) -> None:
    for printed in descendants(item, "printedVariable"):
        identifier = printed.get("identifier", "")
        text = _format(values[identifier], printed.get("format")) if identifier in values else identifier
        replace_with_text(printed, text)


def _template_blocks(item: etree._Element, values: dict[str, Value]) -> None:
    """``templateBlock``/``templateInline`` (and template-driven choices): shown or hidden by
    whether the template variable holds their identifier."""
    for element in descendants(item, "templateBlock", "templateInline"):
        if element.getparent() is None:
            continue
        value = values.get(element.get("templateIdentifier", ""))
        held = element.get("identifier") in (value if isinstance(value, list) else [value])
        shown = held if element.get("showHide", "show") == "show" else not held
        if shown:
            unwrap(element)
        else:
            replace_with_text(element, "")
    for element in item.iter():
        if isinstance(element.tag, str) and element.get("templateIdentifier") and local(element) not in ("templateBlock", "templateInline"):
            value = values.get(element.get("templateIdentifier", ""))
            held = element.get("identifier") in (value if isinstance(value, list) else [value])
            if (held if element.get("showHide", "show") == "show" else not held) is False and element.getparent() is not None:
                replace_with_text(element, "")
