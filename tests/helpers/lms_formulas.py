"""Evaluate formulas the way Moodle and Canvas do, independently of qti_builder.formulas.

Test helper, not a test module. Each evaluator follows its LMS's own documented rules, written
here from their code, not from qti-builder's:

* :func:`moodle_eval` - Moodle's qtype_calculated (question/type/calculated/questiontype.php):
  ``substitute_variables`` replaces each ``{name}`` with the dataset item's value, in
  parentheses when it is not positive (MDL-36025); ``qtype_calculated_find_formula_errors``
  allows only its listed functions (pi() with no argument; abs, acos, asin, atan, ceil, cos,
  exp, floor, log10, sin, sqrt, tan, ... with one; log and round with one or two; pow, atan2,
  fmod with two; min and max with two or more) and the operator characters ``-+/*%...``; then
  the formula is evaluated as a PHP expression. So: PHP's precedence (unary minus, then ``* / %``,
  then ``+ -``, left to right), PHP's functions (``log`` natural, ``log(x, b)`` base b, ``round``
  half away from zero).
* :func:`canvas_eval` - Canvas's calculator (canvas-lms public/javascripts/calcCmd.js), which
  computes a calculated question's answers: tokens ``[a-zA-Z][a-zA-Z0-9_.]*`` (names),
  ``[0-9]*\\.?[0-9]+`` (numbers, no exponent), ``+ - * / ^ ( ) ,``; a ``-`` only directly before
  a number or a name (``-x``); an expression's items are combined ``^`` first, then ``* /``, then
  ``+ -``, each left to right; predefined ``pi`` and ``e``; functions abs, asin, acos, atan,
  log(x[, base]) (base 10 by default), ln, sin, cos, tan, pi(), if(c, a, b), max, min, sqrt,
  ceil, floor, round (Math.round: halves up), e(x) (Math.exp(x || 1)), rad_to_deg, deg_to_rad, sec,
  cosec, cotan, and over their arguments sum (falsy values skipped), mean, first, last, count, length.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal


def _php_round(x: float, digits: float = 0) -> float:
    return float(Decimal(f"{x:.15g}").quantize(Decimal(1).scaleb(-int(digits)), rounding=ROUND_HALF_UP))


MOODLE_FUNCTIONS = {
    "abs": (abs, 1, 1), "acos": (math.acos, 1, 1), "asin": (math.asin, 1, 1), "atan": (math.atan, 1, 1),
    "ceil": (math.ceil, 1, 1), "cos": (math.cos, 1, 1), "exp": (math.exp, 1, 1), "floor": (math.floor, 1, 1),
    "log10": (math.log10, 1, 1), "sin": (math.sin, 1, 1), "sqrt": (math.sqrt, 1, 1), "tan": (math.tan, 1, 1),
    "log": (lambda x, b=math.e: math.log(x, b), 1, 2), "round": (_php_round, 1, 2), "pow": (math.pow, 2, 2),
    "min": (min, 2, None), "max": (max, 2, None), "pi": (lambda: math.pi, 0, 0),
}


def moodle_eval(formula: str, values: dict[str, str]) -> float:
    """``formula`` (Moodle's syntax, ``{x}`` wildcards) for the dataset values ``values``."""
    def substitute(m: re.Match[str]) -> str:
        value = values[m.group(1)]
        return f"({value})" if float(value) <= 0 else value

    text = re.sub(r"\{([A-Za-z][^>} <{\"']*)\}", substitute, formula)
    assert not re.search(r"[^-+/*%().,0-9eE a-z_]", text.lower()), f"Moodle refuses the characters of {text!r}"
    parser = _Parser(re.findall(r"\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|[a-z_][a-z0-9_]*|[-+*/%(),]", text.replace(" ", "")))
    result = parser.sum()
    assert parser.done(), f"Moodle cannot read {text!r}"
    return result


class _Parser:
    """PHP arithmetic: sum := product (('+'|'-') product)*; product := unary (('*'|'/'|'%') unary)*;
    unary := '-' unary | atom; atom := number | name '(' args ')' | '(' sum ')'."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.i = tokens, 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        self.i += 1
        return self.tokens[self.i - 1]

    def done(self) -> bool:
        return self.i == len(self.tokens)

    def sum(self) -> float:
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            right = self.unary()
            value = value * right if op == "*" else value / right if op == "/" else math.fmod(value, right)
        return value

    def unary(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.atom()

    def atom(self) -> float:
        token = self.take()
        if token == "(":
            value = self.sum()
            assert self.take() == ")"
            return value
        if token[0].isdigit() or token[0] == ".":
            return float(token)
        function, least, most = MOODLE_FUNCTIONS[token]  # KeyError: Moodle refuses the function
        assert self.take() == "("
        args = []
        if self.peek() != ")":
            args.append(self.sum())
            while self.peek() == ",":
                self.take()
                args.append(self.sum())
        assert self.take() == ")"
        assert least <= len(args) and (most is None or len(args) <= most), f"{token} takes {least}..{most} arguments"
        return float(function(*args))


# -- Canvas ------------------------------------------------------------------------------------

_CANVAS_TOKENS = [(re.compile(r"\s+"), "whitespace"), (re.compile(r"[a-zA-Z][a-zA-Z0-9_.]*"), "variable"),
                  (re.compile(r"[0-9]*\.?[0-9]+"), "number"), (re.compile(r"\+"), "add"), (re.compile(r"-"), "subtract"),
                  (re.compile(r"\*"), "multiply"), (re.compile(r"/"), "divide"), (re.compile(r"\("), "open_paren"),
                  (re.compile(r"\)"), "close_paren"), (re.compile(r","), "comma"), (re.compile(r"\^"), "power")]

CANVAS_PREDEFINED = {"pi": math.pi, "e": math.exp(1)}
CANVAS_FUNCTIONS = {
    "abs": abs, "asin": math.asin, "acos": math.acos, "atan": math.atan,
    "log": lambda x, base=10: math.log(x) / math.log(base or 10), "ln": math.log,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "pi": lambda *a: math.pi,
    "if": lambda c, a, b: a if c else b, "max": lambda *a: max(a), "min": lambda *a: min(a),
    "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor, "round": lambda x: math.floor(x + 0.5),
    "e": lambda x=0: math.exp(x or 1),
    "rad_to_deg": lambda x: x * 180 / math.pi, "deg_to_rad": lambda x: x * math.pi / 180,
    "sec": lambda x: 1 / math.cos(x), "cosec": lambda x: 1 / math.sin(x), "cotan": lambda x: 1 / math.tan(x),
    "sum": lambda *a: sum(v for v in a if v), "mean": lambda *a: sum(v for v in a if v) / len(a),
    "first": lambda *a: a[0], "last": lambda *a: a[-1], "count": lambda *a: len(a), "length": lambda *a: len(a),
}


def canvas_eval(formula: str, values: dict[str, float]) -> float:
    """``formula`` (Canvas's calculator syntax) with the variables ``values``."""
    tokens = []
    i = 0
    while i < len(formula):
        for regex, kind in _CANVAS_TOKENS:
            m = regex.match(formula, i)
            if m:
                if kind != "whitespace":
                    tokens.append([kind, m.group(0)])
                i = m.end()
                break
        else:
            raise AssertionError(f"Canvas cannot read {formula!r} at {i}")
    state = {"i": 0}

    def argument() -> tuple[str, object]:
        kind, text = tokens[state["i"]]
        if kind == "number":
            state["i"] += 1
            return ("number", float(text))
        if kind == "subtract":  # only before a number or a name
            nxt = tokens[state["i"] + 1]
            assert nxt[0] in ("number", "variable"), "Canvas: expecting a number after '-'"
            state["i"] += 2
            if nxt[0] == "number":
                return ("number", -float(nxt[1]))
            return ("negvar", nxt[1])
        if kind == "variable":
            if state["i"] + 1 < len(tokens) and tokens[state["i"] + 1][0] == "open_paren":
                state["i"] += 2
                args = []
                if tokens[state["i"]][0] == "close_paren":
                    state["i"] += 1
                else:
                    while True:
                        args.append(expression(("comma", "close_paren")))
                        ender = tokens[state["i"]][0]
                        state["i"] += 1
                        if ender == "close_paren":
                            break
                return ("call", (text, args))
            state["i"] += 1
            return ("variable", text)
        if kind == "open_paren":
            state["i"] += 1
            inner = expression(("close_paren",))
            state["i"] += 1
            return ("paren", inner)
        raise AssertionError(f"Canvas: expecting a value, got {kind}")

    def expression(enders: tuple[str, ...]) -> list[object]:
        items: list[object] = [argument()]
        while state["i"] < len(tokens) and tokens[state["i"]][0] not in enders:
            op = tokens[state["i"]][0]
            assert op in ("add", "subtract", "multiply", "divide", "power"), f"Canvas: unexpected {op}"
            state["i"] += 1
            items += [op, argument()]
        return items

    def compute(item: object) -> float:
        kind, value = item  # type: ignore[misc]
        if kind == "number":
            return float(value)  # type: ignore[arg-type]
        if kind in ("variable", "negvar"):
            name = str(value)
            found = CANVAS_PREDEFINED.get(name) or values.get(name)  # predefined first, as calcCmd does
            assert found is not None or name in values, f"Canvas: undefined variable {name}"
            result = float(found if found is not None else values[name])
            return -result if kind == "negvar" else result
        if kind == "paren":
            return combine(value)  # type: ignore[arg-type]
        if kind == "computed":
            return float(value)  # type: ignore[arg-type]
        name, args = value  # type: ignore[misc]
        return float(CANVAS_FUNCTIONS[name](*[combine(a) for a in args]))

    def combine(items: list[object]) -> float:
        rounds = [("power",), ("multiply", "divide"), ("add", "subtract")]
        current = list(items)
        for ops in rounds:
            out = [current[0]]
            for k in range(1, len(current), 2):
                op, right = current[k], current[k + 1]
                if op in ops:
                    left = compute(out.pop())
                    r = compute(right)
                    result = {"power": lambda: left ** r, "multiply": lambda: left * r, "divide": lambda: left / r,
                              "add": lambda: left + r, "subtract": lambda: left - r}[op]()  # type: ignore[index]
                    out.append(("computed", result))
                else:
                    out += [op, right]
            current = out
        assert len(current) == 1
        return compute(current[0])

    result = combine(expression(()))
    assert state["i"] == len(tokens), f"Canvas: unexpected tokens in {formula!r}"
    return result
