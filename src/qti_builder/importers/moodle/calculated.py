"""Calculated questions (``calculated``, ``calculatedsimple``, ``calculatedmulti``): answers are
formulas of wildcards (``{a} * {b}``) whose values Moodle draws from a dataset, one set of values
per attempt (question/format/xml/format.php, import_calculated).

The model has no random values. A question whose every wildcard has exactly one value has one
rendering, and that one is imported: the values put into the text (``{a}``) and the formulas
computed (``{={a}*2}`` in a text, each answer), then read as the numerical (``calculated``,
``calculatedsimple``) or multiple-choice (``calculatedmulti``) question it then is, with a
warning that names the formula and the values kept. Any other dataset is reported and the
question skipped.

Formulas are computed the way Moodle's calculator does (qtype_calculated's
``qtype_calculated_calculate_answer``), by a small evaluator of arithmetic and the functions
Moodle allows, never by ``eval``; the correct answer is rounded as Moodle shows and grades it
(``correctanswerformat`` 1: decimals, 2: significant figures, ``correctanswerlength`` of them),
and a relative tolerance (``tolerancetype`` 1) becomes the absolute one the model holds.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from copy import deepcopy
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..base import LOST, UNSUPPORTED
from .context import number

if TYPE_CHECKING:
    from .file import MoodleFile

#: What each calculated type becomes once its values are fixed.
FIXED_TYPES = {"calculated": "numerical", "calculatedsimple": "numerical", "calculatedmulti": "multichoice"}
WILDCARD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: ``{=formula}`` in a text: computed and shown (qtype_calculated replace_expressions_in_text).
EXPRESSION = re.compile(r"\{=([^{}]*(?:\{[A-Za-z_][A-Za-z0-9_]*\}[^{}]*)*)\}")
#: A formula longer than this is refused rather than parsed (no question needs one).
MAX_FORMULA = 1000
#: The functions Moodle's formulas may call (qtype_calculated_find_formula_errors).
FUNCTIONS: dict[str, Callable[..., float]] = {
    "abs": abs, "acos": math.acos, "acosh": math.acosh, "asin": math.asin, "asinh": math.asinh, "atan": math.atan,
    "atan2": math.atan2, "atanh": math.atanh, "ceil": math.ceil, "cos": math.cos, "cosh": math.cosh,
    "deg2rad": math.radians, "exp": math.exp, "expm1": math.expm1, "floor": math.floor, "fmod": math.fmod,
    "log10": math.log10, "log1p": math.log1p, "log": math.log, "max": max, "min": min, "pi": lambda: math.pi,
    "pow": math.pow, "rad2deg": math.degrees, "round": lambda x, p=0: _php_round(x, p), "sin": math.sin,
    "sinh": math.sinh, "sqrt": math.sqrt, "tan": math.tan, "tanh": math.tanh,
}
OPERATORS: dict[type, Callable[[Any, Any], Any]] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                                                    ast.Div: operator.truediv, ast.Mod: math.fmod, ast.Pow: math.pow}
#: Moodle's tolerance types (qtype_numerical_answer::get_tolerance_interval).
RELATIVE, NOMINAL, GEOMETRIC = "1", "2", "3"


class FormulaError(ValueError):
    pass


def evaluate(formula: str) -> float:
    """A formula with numbers in place of its wildcards, computed; FormulaError if it is not one."""
    if len(formula) > MAX_FORMULA:
        raise FormulaError("it is too long")
    try:
        tree = ast.parse(formula.strip(), mode="eval")
        value = float(_value(tree.body))
    except FormulaError:
        raise
    except (SyntaxError, TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError) as exc:
        raise FormulaError(str(exc) or type(exc).__name__) from None
    if not math.isfinite(value):
        raise FormulaError("its value is not a finite number")
    return value


def _value(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _value(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        return float(OPERATORS[type(node.op)](_value(node.left), _value(node.right)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and not node.keywords:
        return float(FUNCTIONS[node.func.id](*[_value(arg) for arg in node.args]))
    raise FormulaError(f"'{ast.unparse(node)}' is not arithmetic Moodle computes")


def _php_round(value: float, places: float = 0) -> float:
    """PHP's round: halves away from zero, of the number as written (1.005 -> 1.01, as PHP's
    pre-rounding gives, where binary floating point alone would give 1.0)."""
    try:
        exponent = Decimal(1).scaleb(-int(places))
        return float(Decimal(repr(float(value))).quantize(exponent, rounding=ROUND_HALF_UP))
    except (ArithmeticError, ValueError):  # more digits than a float has: nothing to round
        return value


def fmt(value: float) -> str:
    """A computed number as text: no exponent for ordinary sizes, no trailing zeros."""
    text = f"{value:.12g}"
    return text if "e" not in text else repr(value)


def rounded(value: float, answer_format: str, length: str) -> float:
    """The correct answer as Moodle shows and grades it: ``length`` decimals (format 1) or
    significant figures (format 2)."""
    digits = int(number(length) or 0)
    if answer_format.strip() == "2":
        if digits <= 0 or value == 0:
            return value
        return _php_round(value, digits - math.floor(math.log10(abs(value))) - 1)
    return _php_round(value, digits)


def fixed(file: MoodleFile, element: etree._Element, kind: str, name: str) -> tuple[etree._Element, str] | None:
    """The question as the numerical or multiple-choice question its one set of values makes it,
    or None once it is reported and skipped."""
    span = file.span(element)
    values, counts = _datasets(element)
    formulas = [(a.findtext("text") if a.find("text") is not None else a.text or "").strip() for a in element.findall("answer")]
    texts = " ".join(t.text or "" for t in element.iter("text")) + " " + " ".join(formulas)
    used = sorted(set(WILDCARD.findall(texts)) & set(counts) | set(w for f in formulas for w in WILDCARD.findall(f)))
    written = [f for f in formulas if f != "*"]
    shown = ", ".join(written) or "(none)"
    several = [w for w in used if counts.get(w, 0) != 1]
    if several or not used:
        sets = max((counts.get(w, 0) for w in used), default=0)
        what = (f"{sets} sets of values of {', '.join('{' + w + '}' for w in used)}" if used
                else "no wildcards")
        missing = [w for w in used if w not in counts]
        if missing:
            what = f"the wildcard(s) {', '.join('{' + w + '}' for w in missing)}, which its datasets do not define"
        file.builder.skip(kind, UNSUPPORTED, f"question '{name}' ({kind}): its answer {shown} is computed from {what}; "
                                             "the source has no random values; skipped", span,
                          hint="keep one set of values (a dataset of 1 item) in Moodle to import it as a fixed question, "
                               "or write it as a numerical question")
        return None
    one = {w: values[w] for w in used}
    copy = deepcopy(element)
    try:
        _substitute(copy, one, kind)
    except FormulaError as exc:
        file.builder.skip(kind, UNSUPPORTED, f"question '{name}' ({kind}): a formula cannot be computed ({exc}); skipped", span,
                          hint="check the formula in Moodle")
        return None
    new_kind = FIXED_TYPES[kind]
    described = "a numerical question" if new_kind == "numerical" else "a multiple-choice question"
    tolerance = "; a geometric tolerance is kept as the relative one" if new_kind == "numerical" and _geometric(element) else ""
    file.builder.warn(LOST, f"question '{name}' ({kind}) is imported as {described} with its one set of values "
                            f"({', '.join(f'{{{w}}} = {v}' for w, v in one.items())}): the formula{'s' if len(written) > 1 else ''} "
                            f"{shown} {'are' if len(written) > 1 else 'is'} lost{tolerance}",
                      span)
    copy.set("type", new_kind)
    return copy, new_kind


def _datasets(element: etree._Element) -> tuple[dict[str, str], dict[str, int]]:
    """The first value of each wildcard's dataset, and how many values each has."""
    values: dict[str, str] = {}
    counts: dict[str, int] = {}
    for definition in element.findall("dataset_definitions/dataset_definition"):
        name = (definition.findtext("name/text") or definition.findtext("name") or "").strip()
        if not name:
            continue
        items = sorted(definition.findall("dataset_items/dataset_item"), key=lambda i: number(i.findtext("number")) or 0)
        counts[name] = len(items)
        if items:
            values[name] = (items[0].findtext("value") or "").strip()
    return values, counts


def _substitute(element: etree._Element, values: dict[str, str], kind: str) -> None:
    """Values into every text, formulas computed; answers made numerical answers (or choices)."""
    def formula(text: str) -> str:
        return WILDCARD.sub(lambda m: f"({values[m.group(1)]})" if m.group(1) in values else m.group(0), text)

    def in_text(text: str, answer_format: str = "", length: str = "") -> str:
        def compute(match: re.Match[str]) -> str:
            value = evaluate(formula(match.group(1)))
            return fmt(rounded(value, answer_format, length) if answer_format else value)
        text = EXPRESSION.sub(compute, text)
        return WILDCARD.sub(lambda m: values.get(m.group(1), m.group(0)), text)

    for answer in element.findall("answer"):
        text_element = answer.find("text")
        target = text_element if text_element is not None else answer
        raw = (target.text or "").strip()
        answer_format, length = answer.findtext("correctanswerformat") or "", answer.findtext("correctanswerlength") or ""
        if kind == "calculatedmulti":
            target.text = in_text(raw, answer_format, length)
        elif raw != "*":
            value = rounded(evaluate(formula(raw)), answer_format, length)
            target.text = fmt(value)
            tolerance = abs(number(answer.findtext("tolerance")) or 0.0)
            if (answer.findtext("tolerancetype") or NOMINAL).strip() in (RELATIVE, GEOMETRIC):
                tolerance *= abs(value)
            tolerance_element = answer.find("tolerance")
            if tolerance_element is None:
                tolerance_element = etree.SubElement(answer, "tolerance")
            tolerance_element.text = fmt(tolerance)
        for feedback in answer.iter("text"):
            if feedback is not target and feedback.text:
                feedback.text = in_text(feedback.text)
    for obsolete in element.findall("dataset_definitions"):
        element.remove(obsolete)
    for text_element in element.iter("text"):
        parent = text_element.getparent()
        owner = parent.getparent() if parent is not None else None
        if parent is None or parent.tag in ("name", "answer") or (owner is not None and owner.tag == "answer"):
            continue  # the name stays as written; answers were done above
        if text_element.text:
            text_element.text = in_text(text_element.text)


def _geometric(element: etree._Element) -> bool:
    """Does an answer use Moodle's geometric tolerance (kept as the relative one)?"""
    return any((a.findtext("tolerancetype") or "").strip() == GEOMETRIC for a in element.findall("answer"))
