"""The Moodle formulas plug-in (qtype_formulas) as calculated sources, where a question maps onto one.

As the plug-in exports a question (its ``questiontype.php``, ``export_to_xml``): ``varsrandom``
(random variables, ``a = {1:10};`` a range whose end is left out, ``{1:10:0.5}`` with a step,
``{2, 3, 5}`` a list), ``varsglobal`` (variables computed from them, ``d = v * t;``) and one
``<answers>`` block per part (its mark, ``answertype``, ``numbox``, ``vars1`` local variables,
the ``answer``, ``vars2`` grading variables, ``correctness``, the unit ``postunit``, ``subqtext``
and the part's feedback). The texts show values as ``{a}`` and ``{=a*b}``, the answer box as
``{_0}`` and the unit box as ``{_u}``.

A question maps onto the model when it has one part with one number box (``answertype`` 0, a
number, or 10, a number or arithmetic), its random variables are ranges or lists of numbers, its
other variables and the answer are arithmetic the source's formulas have, and its correctness is a
tolerance: ``_relerr < 0.01`` (relative, 1 %) or ``_err < 0.05`` (absolute). The random values
become the variables' ranges and lists, the computed ones derived variables, the answer its
formula, the unit the question's unit. Anything else is skipped, the message naming what the
source has no form for. The plug-in's expressions use ``**`` for powers (``^`` is a bitwise
exclusive or), PHP's functions (``log`` natural, ``log10``, ``pow``, ``pi()``) and its own (``ln``,
``lg``, ``lb``); a ``#`` starts a comment.
"""

from __future__ import annotations

import re
from typing import Any

from ... import formulas as F
from ..base import UNSUPPORTED
from ..calculated import Unconvertible, constant_or_formula, fit_display, problem, renamings, variable_names
from .context import Context, number

#: The plug-in's functions that are the source's own (name: arguments), and those spelt another way.
SAME = {"abs": 1, "acos": 1, "asin": 1, "atan": 1, "ceil": 1, "cos": 1, "exp": 1, "floor": 1, "sin": 1, "sqrt": 1,
        "tan": 1, "ln": 1}
#: Operators and forms the source's formulas do not have, with what they are in the plug-in.
FOREIGN = [("^", "'^' (a bitwise exclusive or in the plug-in: powers are **)"), ("%", "'%' (a remainder)"),
           ("?", "a condition (?:)"), ("&&", "'&&'"), ("||", "'||'"), ("==", "a comparison"), ("!", "'!'"), ("<", "a comparison"),
           (">", "a comparison"), ("[", "a list"), ('"', "a string"), ("'", "a string"), ("~", "'~'")]
RANDOM = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*\{(?P<set>[^{}]*)\}$", re.S)
ASSIGNMENT = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=(?P<formula>[^=].*)$", re.S)
TOLERANCE = re.compile(r"^\s*(?P<kind>_relerr|_err)\s*<=?\s*(?P<value>[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*$")
#: The answer box and unit box placeholders, and a part's placeholder in the question text.
BOXES = re.compile(r"\{_[0-9]+\}|\{_u\}|\{#\w+\}")
#: Answer types: 0 a number, 10 a number or arithmetic ("numeric"), 100 a numerical formula, 1000 an algebraic one.
ANSWER_TYPES = {"0": "a number", "10": "a number or arithmetic", "100": "a numerical formula", "1000": "an algebraic formula"}
#: The most values a list drawn from may have.
MAX_VALUES = 1000


def formulas_question(c: Context) -> bool | None:
    try:
        _read(c)
    except Unconvertible as exc:
        c.skip(UNSUPPORTED, f"question '{c.name}' (formulas plug-in) cannot be a calculated question: {exc}; skipped",
               hint="write it as a calculated question by hand (docs/source-format.md)")
        return False
    fit_display(c.data)
    found = problem(c.data)
    if found is not None:
        c.skip(UNSUPPORTED, f"question '{c.name}' (formulas plug-in): {found[0]}; skipped", hint=found[1] or None)
        return False
    return None


def _read(c: Context) -> None:
    parts = c.element.findall("answers")
    if len(parts) != 1:
        raise Unconvertible(f"it has {len(parts)} parts (answer blocks), and a calculated question has one answer")
    part = parts[0]
    field = lambda tag: (part.findtext(f"{tag}/text") or "").strip()  # noqa: E731
    kind = field("answertype") or "0"
    if kind not in ("0", "10"):
        raise Unconvertible(f"its answer is {ANSWER_TYPES.get(kind, f'of type {kind}')}, and a calculated question's is a number")
    if (field("numbox") or "1") != "1":
        raise Unconvertible(f"its part has {field('numbox')} answer boxes, and a calculated question has one")
    if field("vars2"):
        raise Unconvertible("its grading uses variables of its own (vars2)")
    statements = [(s, "random") for s in _statements(c.file._text(c.element, "varsrandom"))]
    statements += [(s, "global") for s in _statements(c.file._text(c.element, "varsglobal"))]
    statements += [(s, "local") for s in _statements(field("vars1"))]
    names = variable_names([_assigned(s) for s, _ in statements])
    c.lost.extend(renamings(names))
    variables: list[dict[str, Any]] = []
    for statement, where in statements:
        variables.append(_variable(statement, where, names))
    known = {v["name"] for v in variables}
    answer = _formula(field("answer"), names)
    used = set(F.variables(F.parse(answer)))
    if not used <= known:
        raise Unconvertible(f"its answer uses {', '.join(sorted(used - known))}, which it does not define")
    tolerance = TOLERANCE.match(field("correctness"))
    if tolerance is None:
        raise Unconvertible(f"its grading criterion '{field('correctness')}' is no tolerance ('_relerr < 0.01' or '_err < 0.05')")
    value = float(tolerance.group("value"))
    relative = tolerance.group("kind") == "_relerr"
    c.data.update(type="calculated", variables=variables, answer=answer,
                  tolerance=value * 100 if relative else value, tolerance_mode="percent" if relative else "absolute")
    if kind == "10":
        c.lost.append("answers typed as arithmetic ('3/4', '2**3'), which the plug-in computes: the source takes a number")
    unit = field("postunit")
    if unit:
        c.data["unit"] = unit
        c.lost.append("answers in other units that the plug-in converts (its conversion rules), and its unit penalty")
    part_text = c.rich("subqtext", "the part's text", part)
    stem = "\n\n".join(t for t in (c.data.get("stem", ""), part_text) if t)
    c.data["stem"] = _texts(BOXES.sub("", stem), names, c)
    c.combined_feedback()  # the question's feedback, then its part's
    for key, tag in (("general", "feedback"), ("correct", "correctfeedback"), ("partially_correct", "partiallycorrectfeedback"),
                     ("incorrect", "incorrectfeedback")):
        text = c.rich(tag, f"the part's {tag.replace('feedback', ' feedback').strip()}", part)
        joined = "\n\n".join(t for t in (c.data["feedback"].get(key), text) if t)
        if joined:
            c.data["feedback"][key] = _texts(joined, names, c)


def _statements(text: str) -> list[str]:
    """The assignments of a variables field, comments left out."""
    without = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return [s.strip() for s in without.split(";") if s.strip()]


def _assigned(statement: str) -> str:
    match = RANDOM.match(statement) or ASSIGNMENT.match(statement)
    if match is None:
        raise Unconvertible(f"its variables hold '{statement}', which is no assignment the source can hold")
    return match.group("name")


def _variable(statement: str, where: str, names: dict[str, str]) -> dict[str, Any]:
    random = RANDOM.match(statement)
    if where == "random":
        if random is None:
            raise Unconvertible(f"its random variable '{statement}' is not drawn from a set of numbers {{...}}")
        return {"name": names[random.group("name")], **_drawn(random.group("set"), statement)}
    match = ASSIGNMENT.match(statement)
    assert match is not None
    return {"name": names[match.group("name")], **constant_or_formula(_formula(match.group("formula"), names))}


def _drawn(members: str, statement: str) -> dict[str, Any]:
    """A random variable's set: one range ``a:b[:step]`` (its end left out), else a list of values."""
    elements = [m.strip() for m in members.split(",") if m.strip()]
    ranges = [e.split(":") for e in elements]
    numbers = [[number(x) for x in r] for r in ranges]
    if not elements or any(None in r or not 1 <= len(r) <= 3 for r in numbers):
        raise Unconvertible(f"its random variable '{statement}' is drawn from something other than numbers and ranges")
    values: list[float] = []
    for bounds in numbers:
        if len(bounds) == 1:
            values.append(bounds[0])  # type: ignore[arg-type]
            continue
        start, end = bounds[0], bounds[1]
        step = bounds[2] if len(bounds) == 3 else 1.0
        assert start is not None and end is not None and step is not None
        if step <= 0 or end <= start:
            raise Unconvertible(f"the range of its random variable '{statement}' is empty")
        count = -int(-(end - start) // step)  # as many as the plug-in's range holds (its end left out)
        if len(elements) == 1:
            last = float(f"{start + (count - 1) * step:.12g}")
            return {"min": start, "max": last, "step": step} if step != 1 else {"min": start, "max": last, "decimals": 0}
        if count + len(values) > MAX_VALUES:
            raise Unconvertible(f"its random variable '{statement}' has more than {MAX_VALUES} values")
        values += [float(f"{start + k * step:.12g}") for k in range(count)]
    return {"values": values}


def _formula(text: str, names: dict[str, str]) -> str:
    """An expression of the plug-in in the source's formula language."""
    for mark, what in FOREIGN:
        if mark in text.replace("**", ""):
            raise Unconvertible(f"the expression '{text}' uses {what}, which the source's formulas do not have")
    renamed = re.sub(r"\b([A-Za-z_]\w*)\b(?!\s*\()", lambda m: names.get(m.group(1), m.group(1)), text)
    try:
        node = _translated(F.parse_foreign(renamed), text)
        result = F.to_source(node)
        F.parse(result)
    except F.FormulaError as exc:
        raise Unconvertible(f"the expression '{text}' cannot be read ({exc})") from None
    return result


def _translated(node: F.Node, text: str) -> F.Node:
    if isinstance(node, F.BinOp):
        return F.BinOp(node.op, _translated(node.left, text), _translated(node.right, text), 1)
    if isinstance(node, F.Neg):
        return F.Neg(_translated(node.operand, text), 1)
    if not isinstance(node, F.Call):
        return node
    args = tuple(_translated(a, text) for a in node.args)
    name, n = node.function, len(args)
    if SAME.get(name) == n:
        return F.Call(name, args, 1)
    if name in ("min", "max") and n >= 1:
        return F.Call(name, args, 1) if n > 1 else args[0]
    if name == "round" and n in (1, 2):  # PHP's round: halves away from zero, as the source's
        return F.Call("round", args, 1)
    if name == "log" and n in (1, 2):  # PHP's log: natural, or to the base given
        return F.Call("ln", args, 1) if n == 1 else F.Call("log", args, 1)
    if name in ("log10", "lg") and n == 1:
        return F.Call("log", args, 1)
    if name == "lb" and n == 1:
        return F.Call("log", (args[0], F.Num(2.0, "2", 1)), 1)
    if name == "pow" and n == 2:
        return F.BinOp("^", args[0], args[1], 1)
    if name == "pi" and n == 0:
        return F.Const("pi", 1)
    if name in ("deg2rad", "rad2deg") and n == 1:
        degrees: F.Node = F.Num(180.0, "180", 1)
        top, bottom = (F.Const("pi", 1), degrees) if name == "deg2rad" else (degrees, F.Const("pi", 1))
        return F.BinOp("/", F.BinOp("*", args[0], top, 1), bottom, 1)
    raise Unconvertible(f"the expression '{text}' uses {name}(), which the source's formulas do not have")


def _texts(text: str, names: dict[str, str], c: Context) -> str:
    """``{a}`` as the source's placeholder of the variable's new name, ``{=a*b}`` as ``{=a * b}``."""
    def placeholder(match: re.Match[str]) -> str:
        inner = match.group(1).replace("\\_", "_")
        if inner.startswith("="):
            try:
                return "{=" + _formula(inner[1:], names) + "}"
            except Unconvertible as exc:
                c.lost.append(f"{exc} (shown as written)")
                return match.group(0)
        return "{" + names[inner] + "}" if inner in names else match.group(0)

    return re.sub(r"\{((?:=[^{}]+)|[A-Za-z_\\][\w\\]*)\}", placeholder, text)


__all__ = ["formulas_question"]
