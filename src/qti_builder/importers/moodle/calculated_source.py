"""Moodle's calculated questions as calculated sources, keeping the file's own sets of values.

``calculated`` and ``calculatedsimple`` become ``calculated`` questions, ``calculatedmulti`` a
``calculated_choice`` question (question/format/xml/format.php, ``import_calculated``). Each
wildcard's dataset items become the question's listed sets (item 1 of every wildcard is set 1,
and so on, as Moodle draws them); a wildcard's decimals and its shared status are kept. The
answer's formula is turned from Moodle's syntax (a PHP expression over ``{x}`` wildcards) into
the source's formula language (:mod:`...formulas`): ``log`` is Moodle's natural logarithm, so it
becomes ``ln``, ``log10`` becomes ``log``, ``pi()`` ``pi``, ``pow(a, b)`` ``a^b``, ``deg2rad(x)``
``x / 180 * pi`` (and ``rad2deg(x)`` ``x / pi * 180``), PHP's ``atan2``, ``fmod`` and ``%`` in the
language's terms where the question's own sets allow it (:class:`Guard`); a function the
language does not have is reported and the question skipped. Its tolerance (relative: 1,
nominal: 2; a geometric one, 3, is kept as the relative one, with a warning) and how the correct
answer is shown (decimals or significant figures) are kept. ``{=formula}`` in a text becomes the
source's ``{=formula}`` placeholder.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ... import formulas as F
from ...formulas import FUNCTIONS, FormulaError, parse, to_source
from ...model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from ...parametric import variants
from ..base import UNSUPPORTED
from .context import Context, number

WILDCARD = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")
EXPRESSION = re.compile(r"\{=((?:[^{}]|\{[A-Za-z][A-Za-z0-9_]*\})*)\}")
#: Moodle's function names that the formula language spells another way.
RENAMED = {"log10": "log", "pi": "pi"}
#: Moodle's angle conversions (PHP's deg2rad and rad2deg), which the language writes out:
#: x / 180 * pi and x / pi * 180 (physics questions take sin(deg2rad({angle}))).
DEGREES: dict[str, tuple[F.Node, F.Node]] = {"deg2rad": (F.Num(180.0, "180", 1), F.Const("pi", 1)),
                                             "rad2deg": (F.Const("pi", 1), F.Num(180.0, "180", 1))}
TOLERANCE_MODES = {"1": "percent", "2": "absolute", "3": "percent"}


class Unconvertible(ValueError):
    pass


@dataclass(frozen=True)
class Guard:
    """A PHP function or operator the language has no name for, written with its own functions in
    a form that gives the same wherever ``holds`` is true of a set's values (``atan2(y, x)`` is
    ``atan(y / x)`` where x > 0): kept where it holds in each of the question's own sets, which
    are all it ever draws."""

    name: str
    written: str
    holds: Callable[[Mapping[str, float]], bool]
    needs: str


def formula_from_moodle(text: str, sets: list[dict[str, float]] | None = None, notes: list[str] | None = None) -> str:
    """A Moodle formula (``{d}/{t}``, ``pow({x}, 2)``) in the source's formula language. PHP's
    atan2(), fmod() and ``%`` are written with the language's functions where each of ``sets``
    allows it, which ``notes`` then says (without sets they cannot be)."""
    python = WILDCARD.sub(lambda m: m.group(1), text.replace("^", "^^")).strip()
    try:
        tree = ast.parse(python, mode="eval")
    except SyntaxError:
        raise Unconvertible(f"the formula '{text}' cannot be read") from None
    guards: list[Guard] = []
    result = to_source(_convert(tree.body, text, guards))
    try:
        parse(result)
    except FormulaError as exc:
        raise Unconvertible(f"the formula '{text}' ({exc})") from None
    for guard in guards:
        failed = next((n for n, values in enumerate(sets or [], 1) if not _holds(guard, values)), None)
        if not sets or failed is not None:
            where = f": {guard.needs} only in some sets (not in set {failed})" if failed is not None else ""
            raise Unconvertible(f"the formula '{text}' uses {guard.name}, which the source's formulas do not have{where}")
        if notes is not None:
            notes.append(f"{guard.name} in '{text}' (written {guard.written}, the same in each of the question's "
                         f"{len(sets)} sets, where {guard.needs})")
    return result


def _holds(guard: Guard, values: Mapping[str, float]) -> bool:
    try:
        return guard.holds(values)
    except (ArithmeticError, ValueError, KeyError):
        return False


def _php_function(name: str, args: tuple[F.Node, ...], guards: list[Guard]) -> F.Node | None:
    """PHP's atan2(y, x) and fmod(a, b) in the language's terms, each with the condition under
    which the form gives PHP's value."""
    if name == "atan2" and len(args) == 2:
        y, x = args
        angle: F.Node = F.Call("atan", (F.BinOp("/", y, x, 1),), 1)
        guards.append(Guard("atan2()", to_source(angle), lambda v: F.evaluate(x, v) > 0, f"{to_source(x)} > 0"))
        return angle
    if name == "fmod" and len(args) == 2:
        a, b = args
        form = _modulo(a, b)
        guards.append(Guard("fmod()", to_source(form), lambda v: F.evaluate(a, v) / F.evaluate(b, v) >= 0,
                            f"{to_source(a)} and {to_source(b)} have one sign"))
        return form
    return None


def _modulo(a: F.Node, b: F.Node) -> F.Node:
    """a - b * floor(a / b): PHP's fmod(a, b) (and ``%`` of whole numbers) where a / b >= 0."""
    return F.BinOp("-", a, F.BinOp("*", b, F.Call("floor", (F.BinOp("/", a, b, 1),), 1), 1), 1)


def _whole_and_one_sign(a: F.Node, b: F.Node) -> Callable[[Mapping[str, float]], bool]:
    def holds(v: Mapping[str, float]) -> bool:
        x, y = F.evaluate(a, v), F.evaluate(b, v)
        return float(x).is_integer() and float(y).is_integer() and y != 0 and x / y >= 0
    return holds


def _convert(node: ast.AST, text: str, guards: list[Guard]) -> F.Node:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return F.Num(float(node.value), repr(node.value) if isinstance(node.value, float) else str(node.value), 1)
    if isinstance(node, ast.Name):
        return F.Const(node.id, 1) if node.id in F.CONSTANTS else F.Var(node.id, 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _convert(node.operand, text, guards)
        return F.Neg(operand, 1) if isinstance(node.op, ast.USub) else operand
    ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # PHP's % takes the whole parts of its operands: the language's form holds for whole numbers of one sign.
        a, b = _convert(node.left, text, guards), _convert(node.right, text, guards)
        form = _modulo(a, b)
        guards.append(Guard("'%'", to_source(form), _whole_and_one_sign(a, b), f"{to_source(a)} and {to_source(b)} are whole numbers of one sign"))
        return form
    if isinstance(node, ast.BinOp) and type(node.op) in ops:
        return F.BinOp(ops[type(node.op)], _convert(node.left, text, guards), _convert(node.right, text, guards), 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        name, args = node.func.id, tuple(_convert(a, text, guards) for a in node.args)
        if name == "pi" and not args:
            return F.Const("pi", 1)
        if name == "exp" and args == (F.Num(1.0, "1", 1),):
            return F.Const("e", 1)  # how Moodle's formulas (and qti-builder's Moodle output) write e
        if name == "pow" and len(args) == 2:
            return F.BinOp("^", args[0], args[1], 1)
        if name == "log":
            return F.Call("ln", args, 1) if len(args) == 1 else F.Call("log", args, 1)
        if name in DEGREES and len(args) == 1:
            # PHP's deg2rad(x) is x / 180 * pi, rad2deg(x) x / pi * 180: the same in the language's terms.
            over, times = DEGREES[name]
            return F.BinOp("*", F.BinOp("/", args[0], over, 1), times, 1)
        php = _php_function(name, args, guards)
        if php is not None:
            return php
        name = RENAMED.get(name, name)
        if name in FUNCTIONS:
            return F.Call(name, args, 1)
        raise Unconvertible(f"the formula '{text}' uses {node.func.id}(), which the source's formulas do not have")
    raise Unconvertible(f"the formula '{text}' uses '{ast.unparse(node)}', which the source's formulas do not have")


def _datasets(c: Context) -> tuple[list[dict[str, Any]], list[dict[str, float]]]:
    """The wildcards (name, decimals, shared) and the sets of values, item by item."""
    variables, columns = [], {}
    for definition in c.element.findall("dataset_definitions/dataset_definition"):
        name = (definition.findtext("name/text") or "").strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,31}", name):
            raise Unconvertible(f"the wildcard name '{name}' is not a variable name of the source")
        items = sorted(definition.findall("dataset_items/dataset_item"), key=lambda i: number(i.findtext("number")) or 0)
        values = [number(i.findtext("value")) for i in items]
        if not values or any(v is None for v in values):
            raise Unconvertible(f"the wildcard {{{name}}} has no values")
        decimals = number(definition.findtext("decimals/text"))
        variable: dict[str, Any] = {"name": name}
        if decimals is not None:
            variable["decimals"] = int(decimals)
        if (definition.findtext("status/text") or "").strip() == "shared":
            variable["shared"] = True
        variables.append(variable)
        columns[name] = values
    if not columns:
        raise Unconvertible("it has no dataset of values")
    count = min(len(v) for v in columns.values())
    if any(len(v) != count for v in columns.values()):
        c.lost.append(f"the dataset items after item {count} (Moodle draws only the items every wildcard has)")
    return variables, [{name: float(values[k]) for name, values in columns.items()} for k in range(count)]  # type: ignore[arg-type]


def _texts(c: Context) -> None:
    """``{=formula}`` in the question's texts (its text, every feedback, its options' feedback) as
    the source's placeholders, once every text is read."""
    def convert(match: re.Match[str]) -> str:
        try:
            return "{=" + formula_from_moodle(match.group(1).replace("\\*", "*"), c.data["sets"], notes) + "}"
        except Unconvertible as exc:
            c.lost.append(f"{exc} (shown as written)")
            return match.group(0)

    notes: list[str] = []
    c.data["stem"] = EXPRESSION.sub(convert, c.data.get("stem", ""))
    for key, text in list(c.data.get("feedback", {}).items()):
        if text:
            c.data["feedback"][key] = EXPRESSION.sub(convert, text)
    for choice in c.data.get("choices", []):
        if choice.get("feedback"):
            choice["feedback"] = EXPRESSION.sub(convert, choice["feedback"])
    c.lost += [n for n in dict.fromkeys(notes) if n not in c.lost]  # the answer's own, once


def _common(c: Context) -> bool:
    try:
        c.data["variables"], c.data["sets"] = _datasets(c)
    except Unconvertible as exc:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): {exc}; skipped",
               hint="give each wildcard a dataset with its values in Moodle, then export it again")
        return False
    return True


def calculated(c: Context) -> bool | None:
    if not _common(c):
        return False
    answers = sorted(c.answers(), key=lambda a: -(number(a.get("fraction")) or 0))
    best = answers[0] if answers else None
    if best is None or (number(best.get("fraction")) or 0) < 100:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): no answer is worth 100 %; skipped",
               hint="give the right formula a grade of 100 % in Moodle")
        return False
    try:
        notes: list[str] = []
        c.data["answer"] = formula_from_moodle((best.findtext("text") or "").strip(), c.data["sets"], notes)
        c.lost += notes
    except Unconvertible as exc:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): {exc}; skipped", hint="write the formula with the functions "
               "listed in docs/source-format.md#formulas")
        return False
    if len(answers) > 1:
        c.lost.append("the answers worth less than 100 % (a calculated source has one formula)")
    kind = (best.findtext("tolerancetype") or "1").strip()
    tolerance = abs(number(best.findtext("tolerance")) or 0.0)
    c.data["tolerance_mode"] = TOLERANCE_MODES.get(kind, "percent")
    c.data["tolerance"] = tolerance * 100 if c.data["tolerance_mode"] == "percent" else tolerance
    if kind == "3":
        c.lost.append("the geometric tolerance (kept as the relative one)")
    length = int(number(best.findtext("correctanswerlength")) or 0)
    if (best.findtext("correctanswerformat") or "1").strip() == "2":
        c.data["figures"] = max(length, 1)
    else:
        c.data["decimals"] = length
    feedback = c.rich("feedback", "the answer's feedback", best)
    if feedback:
        c.data["feedback"]["correct"] = c.data["feedback"].get("correct") or feedback
    units = [u for u in c.element.findall("units/unit") if (number(u.findtext("multiplier")) or 0) == 1]
    if units:
        c.data["unit"] = (units[0].findtext("unit_name") or "").strip() or None
    _texts(c)
    return _computes(c, CalculatedQuestion)


def _computes(c: Context, model: Any) -> bool | None:
    """Does every set compute (the build would refuse it else)? A set Moodle itself cannot
    compute, a division by zero say, makes the question one that cannot be imported."""
    fields = {k: v for k, v in c.data.items() if k in model.model_fields and k not in ("id", "points", "feedback", "title")}
    try:
        question = model.model_validate({**fields, "id": "q"})
    except ValueError as exc:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): {str(exc).splitlines()[-1].strip()}; skipped")
        return False
    problems = [f for f in variants("import", question).findings if not f.warning]
    if problems:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): {problems[0].message}; skipped", hint=problems[0].hint)
        return False
    return None


def calculatedmulti(c: Context) -> bool | None:
    if not _common(c):
        return False
    choices: list[dict[str, Any]] = []
    notes: list[str] = []
    for k, answer in enumerate(c.answers()):
        text = c.answer_text(answer, f"answer {k + 1}")
        written = number(answer.findtext("correctanswerlength"))
        length = int(written) if written is not None else 2

        def convert(match: re.Match[str], length: int = length) -> str:
            return "{=" + formula_from_moodle(match.group(1).replace("\\*", "*"), c.data["sets"], notes) + f":{length}}}"
        try:
            text = EXPRESSION.sub(convert, text)
        except Unconvertible as exc:
            c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): {exc}; skipped")
            return False
        choice: dict[str, Any] = {"id": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[k], "text": text,
                                  "correct": (number(answer.get("fraction")) or 0) > 0}
        feedback = c.rich("feedback", f"the feedback of answer {k + 1}", answer)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    if sum(ch["correct"] for ch in choices) != 1:
        c.skip(UNSUPPORTED, f"question '{c.name}' ({c.kind}): a calculated choice source has exactly one right option; skipped")
        return False
    c.data["choices"] = choices
    c.lost += list(dict.fromkeys(notes))
    c.data["shuffle"] = (c.value("shuffleanswers") or "1").strip().lower() in ("1", "true")
    c.combined_feedback()
    _texts(c)
    return _computes(c, CalculatedChoiceQuestion)
