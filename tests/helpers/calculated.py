"""tests/fixtures/calculated.md, the calculated questions' fixture: each question's answer written
again by hand from its formula (:data:`CALCULATED_ANSWERS`), and the sets a QTI 2.1 item template
holds (:func:`qti_sets`); and for any calculated question, its formulas computed as the source's
formula language defines them (:func:`source_eval`, written from docs/source-format.md, not from
the build's ``formulas.py``) and what one set of an output breaks of the source (:func:`set_problems`)."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from pathlib import Path

from lxml import etree

from helpers import QTI_NS, ROOT, zip_members

from qti_builder.model import CalculatedChoiceQuestion, CalculatedQuestion

CALCULATED_SOURCE = ROOT / "tests" / "fixtures" / "calculated.md"

#: Each calculated question's answer, written again by hand from the source's formulas.
CALCULATED_ANSWERS: dict[str, Callable[[dict[str, float]], float]] = {
    "speed": lambda v: v["d"] / v["t"],
    "root": lambda v: (-v["b"] + math.sqrt(v["b"] ** 2 - 4 * v["a"] * v["c"])) / (2 * v["a"]),
    "square": lambda v: v["n"] ** 2 + 1,
    "circle": lambda v: 2 * round(math.pi * v["r"] ** 2, 2) / v["r"],
    "listed": lambda v: v["d"] / v["t"],
    "functions": lambda v: math.log10(v["x"]) + math.log(v["y"]) + math.sin(v["z"]) + math.exp(v["w"]),
}


def qti_items(out: Path, quiz: str = "calculated") -> dict[str, bytes]:
    """The items of a built QTI 2.1 package, by file name without ``.xml``."""
    return {Path(n).stem: data for n, data in zip_members((out / f"{quiz}.qti21.zip").read_bytes()).items()
            if n.startswith("items/") and n.endswith(".xml")}


def qti_sets(item: bytes) -> list[dict[str, float]]:
    """An item template's sets: each templateCondition branch's values, in set order."""
    root = etree.fromstring(item)
    sets = []
    for branch in root.iter(f"{{{QTI_NS}}}templateIf", f"{{{QTI_NS}}}templateElseIf"):
        sets.append({s.get("identifier"): float(s.findtext(f"{{{QTI_NS}}}baseValue"))
                     for s in branch.findall(f"{{{QTI_NS}}}setTemplateValue")})
    return sets


# -- the source's formula language, read again from docs/source-format.md ("Formulas") ------------

def _round_away(x: float, digits: float = 0) -> float:
    """``round`` takes halves away from zero (docs/source-format.md), unlike Python's."""
    scale = 10.0 ** int(digits)
    return math.copysign(math.floor(abs(x) * scale + 0.5), x) / scale


def _log(x: float, base: float = 10.0) -> float:
    return math.log(x) / math.log(base)


#: The functions and constants of docs/source-format.md's table, with the meaning it gives each.
SOURCE_NAMES: dict[str, object] = {
    "pi": math.pi, "e": math.e, "sqrt": math.sqrt, "abs": abs, "exp": math.exp, "ln": math.log, "log": _log,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos, "atan": math.atan,
    "floor": math.floor, "ceil": math.ceil, "round": _round_away, "min": min, "max": max,
}
_SOURCE_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Constant, ast.Load, ast.Compare,
                 ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
                 ast.Gt, ast.GtE)


def source_eval(formula: str, values: Mapping[str, float]) -> float:
    """A formula or condition of a source (``b^2 - 4*a*c >= 0``) for ``values``, as the docs define it:
    ``^`` and ``**`` a power (right to left, before unary minus: ``-2^2`` is -4, as Python's ``**``).
    The tests' sources only: the tree is checked to hold nothing but arithmetic, names and calls."""
    tree = ast.parse(formula.replace("^", "**"), mode="eval")
    for node in ast.walk(tree):
        assert isinstance(node, _SOURCE_NODES), f"{formula!r}: {type(node).__name__} is not in the formula language"
        assert not isinstance(node, ast.Call) or isinstance(node.func, ast.Name), formula
    names = {**SOURCE_NAMES, **values}
    return eval(compile(tree, "<formula>", "eval"), {"__builtins__": {}}, names)  # noqa: S307 - checked above


def set_problems(q: CalculatedQuestion | CalculatedChoiceQuestion, values: Mapping[str, float]) -> list[str]:
    """What in one set of an output's values the source does not allow: a value out of its
    variable's range, step or list, a derived value other than its formula's (rounded to its
    decimals), a set the source did not list, a condition that fails."""
    problems = []
    for v in q.variables:
        if v.name not in values:
            problems.append(f"no value of {v.name}")
            continue
        value = values[v.name]
        if v.min is not None and v.max is not None and not v.min - 1e-9 <= value <= v.max + 1e-9:
            problems.append(f"{v.name} = {value:g} is outside {v.min:g}..{v.max:g}")
        if v.min is not None and v.step is not None and abs((value - v.min) / v.step - round((value - v.min) / v.step)) > 1e-6:
            problems.append(f"{v.name} = {value:g} is not {v.min:g} plus a multiple of {v.step:g}")
        if v.values is not None and not any(math.isclose(value, w, abs_tol=1e-9) for w in v.values):
            problems.append(f"{v.name} = {value:g} is none of {v.values}")
        if v.formula is not None:
            meant = source_eval(v.formula, values)
            meant = _round_away(meant, v.decimals) if v.decimals is not None else meant
            if not math.isclose(value, meant, rel_tol=1e-9, abs_tol=1e-9):
                problems.append(f"{v.name} = {value:g}, but {v.formula} gives {meant:g}")
    if isinstance(q.sets, list) and not any(all(math.isclose(values.get(k, math.nan), w, abs_tol=1e-9) for k, w in s.items())
                                            for s in q.sets):
        problems.append("a set the source does not list")
    problems += [f"the condition {c} fails" for c in q.constraints if not source_eval(c, values)]
    return problems
