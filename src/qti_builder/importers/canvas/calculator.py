"""Formulas of Canvas's calculated questions, read the way Canvas's calculator reads them, in the
source's formula language.

Canvas computes a formula question's answers with its calculator (canvas-lms ``calcCmd.js``),
whose rules differ from the source's in ways that change values, so each is turned explicitly:

- an expression is a flat list of values and operators combined in three rounds, ``^`` first,
  then ``*`` and ``/``, then ``+`` and ``-``, each from left to right: ``2^3^2`` is ``(2^3)^2``;
- a minus sign belongs to the number or name right after it (``-2^2`` is ``(-2)^2``, 4), and
  stands nowhere else (not before a parenthesis);
- numbers have no exponent; names may hold dots (``v.1``); ``pi`` and ``e`` are constants even
  where a variable has the same name;
- its functions: ``log(x)`` base 10 and ``log(x, b)``, ``ln``, ``round(x)`` (JavaScript's, halves
  up: ``floor(x + 0.5)``), ``e(x)`` for e to the x, ``rad_to_deg``, ``deg_to_rad``, ``sec``,
  ``cosec``, ``cotan``, ``pi()``, ``sum``, ``mean``, ``first``, ``last``, ``count``/``length``,
  and others the source has no form for (``if``, ``fact``, ``perm``, ``comb``, ``rand``, lists);
- a line ``x = formula`` gives ``x`` a value for the lines after it (a derived variable), and the
  last line is the answer.

qti-builder's own Canvas package writes the source's formulas in this syntax
(:func:`...formulas.to_canvas`): its forms (``(0-x)`` for a minus before a parenthesis, ``e^(x)``,
the ``if(x, floor(abs(x)*10^n+0.5)/10^n*x/abs(x), 0)`` that rounds halves away from zero) are
read back as the source wrote them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import formulas as F
from ..calculated import Unconvertible, fresh_name, variable_names

#: calcCmd's tokens, tried in this order at each place.
TOKENS = [(re.compile(r"\s+"), "space"), (re.compile(r"[a-zA-Z][a-zA-Z0-9_.]*"), "name"),
          (re.compile(r"[0-9]*\.?[0-9]+"), "number"), (re.compile(r"[-+*/^]"), "operator"), (re.compile(r"\("), "open"),
          (re.compile(r"\)"), "close"), (re.compile(r","), "comma"), (re.compile(r"="), "equals")]

#: A formula as calcCmd parses it, before any meaning is given: ("num", text), ("name", name),
#: ("neg", raw), ("paren", raw), ("call", name, (raw, ...)), ("op", operator, left, right).
Raw = tuple[Any, ...]

#: Canvas's functions that are the source's own, by the same name and number of arguments.
SAME = {"abs": 1, "asin": 1, "acos": 1, "atan": 1, "ln": 1, "sin": 1, "cos": 1, "tan": 1, "sqrt": 1, "ceil": 1, "floor": 1}
#: What Canvas's other functions do, for the message about one the source has no form for.
NO_FORM = {"if": "a condition", "fact": "a factorial", "perm": "permutations", "comb": "combinations",
           "rand": "a random number at each use", "sort": "a list", "reverse": "a list", "at": "a list",
           "median": "a median", "range": "a list's range"}


def tokens(text: str) -> list[tuple[str, str]]:
    found, index = [], 0
    while index < len(text):
        for pattern, kind in TOKENS:
            match = pattern.match(text, index)
            if match:
                if kind != "space":
                    found.append((kind, match.group(0)))
                index = match.end()
                break
        else:
            raise Unconvertible(f"Canvas's calculator cannot read '{text[index]}' in the formula '{text}'")
    return found


class _Parser:
    """calcCmd's parser: an expression is argument (operator argument)*, until one of its enders."""

    def __init__(self, text: str) -> None:
        self.text, self.tokens, self.index = text, tokens(text), 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        at = self.index + offset
        return self.tokens[at] if at < len(self.tokens) else ("end", "")

    def fail(self, what: str) -> Unconvertible:
        return Unconvertible(f"Canvas's calculator cannot read the formula '{self.text}' ({what})")

    def line(self) -> tuple[str | None, Raw]:
        """A line: ``name = expression`` or an expression."""
        if not self.tokens:
            raise self.fail("it is empty")
        assigned = None
        if self.peek()[0] == "name" and self.peek(1)[0] == "equals":
            assigned, self.index = self.peek()[1], 2
        raw = self.expression(())
        if self.index < len(self.tokens):
            raise self.fail(f"unexpected '{self.peek()[1]}'")
        return assigned, raw

    def expression(self, enders: tuple[str, ...]) -> Raw:
        items: list[Any] = [self.argument()]
        while self.peek()[0] != "end" and self.peek()[0] not in enders:
            kind, text = self.peek()
            if kind != "operator":
                raise self.fail(f"unexpected '{text}'")
            self.index += 1
            items += [text, self.argument()]
        for operators in ("^", "*/", "+-"):  # the three rounds, each from left to right
            combined = [items[0]]
            for k in range(1, len(items), 2):
                if items[k] in operators:
                    combined.append(("op", items[k], combined.pop(), items[k + 1]))
                else:
                    combined += [items[k], items[k + 1]]
            items = combined
        return items[0]  # type: ignore[no-any-return]

    def argument(self) -> Raw:
        kind, text = self.peek()
        self.index += 1
        if kind == "number":
            return ("num", text)
        if kind == "operator" and text == "-" and self.peek()[0] in ("number", "name"):
            after = self.peek()
            self.index += 1
            return ("neg", ("num", after[1]) if after[0] == "number" else ("name", after[1]))
        if kind == "name" and self.peek()[0] == "open":
            self.index += 1
            args: list[Raw] = []
            if self.peek()[0] == "close":
                self.index += 1
            else:
                while True:
                    args.append(self.expression(("comma", "close")))
                    ender = self.peek()[0]
                    self.index += 1
                    if ender != "comma":
                        break
            return ("call", text, tuple(args))
        if kind == "name":
            return ("name", text)
        if kind == "open":
            inner = self.expression(("close",))
            self.index += 1  # the closing parenthesis (calcCmd does not insist on it)
            return ("paren", inner)
        raise self.fail(f"a value is missing {'at its end' if kind == 'end' else f'before {text!r}'}")


def parse_lines(lines: list[str]) -> list[tuple[str | None, Raw]]:
    return [_Parser(line).line() for line in lines]


class Reader:
    """Turns calcCmd's parses into the source's formula trees, with the question's variable names
    (``names``: Canvas's name -> the source's)."""

    def __init__(self, names: dict[str, str], text: str) -> None:
        self.names, self.text = names, text

    def node(self, raw: Raw) -> F.Node:
        kind = raw[0]
        if kind == "num":
            return F.Num(float(raw[1]), raw[1], 1)
        if kind == "name":
            name = raw[1]
            if name in F.CONSTANTS:  # calcCmd looks its constants up first
                return F.Const(name, 1)
            if name not in self.names:
                raise Unconvertible(f"the formula '{self.text}' uses '{name}', which is not a variable of the question")
            return F.Var(self.names[name], 1)
        if kind == "neg":
            return F.Neg(self.node(raw[1]), 1)
        if kind == "paren":
            return self.node(raw[1])
        if kind == "op":
            _, op, left, right = raw
            if op == "-" and _unwrap(left) == ("num", "0"):  # qti-builder writes -x as (0-x)
                return F.Neg(self.node(right), 1)
            if op == "^" and _unwrap(left) == ("name", "e") and right[0] == "paren":  # how qti-builder writes exp(x)
                return F.Call("exp", (self.node(right),), 1)
            return F.BinOp(op, self.node(left), self.node(right), 1)
        return self.call(raw[1], raw[2], raw)

    def call(self, name: str, raws: tuple[Raw, ...], raw: Raw) -> F.Node:
        if name == "if":
            rounded = self.rounding(raws, raw)
            if rounded is not None:
                return rounded
        args = tuple(self.node(a) for a in raws)
        n = len(args)
        if SAME.get(name) == n:
            return F.Call(name, args, 1)
        if name == "log" and n in (1, 2):
            return F.Call("log", args, 1)
        if name in ("min", "max") and n >= 1:
            return F.Call(name, args, 1) if n > 1 else args[0]
        if name == "round" and n == 1:  # JavaScript's Math.round: halves up
            return F.Call("floor", (F.BinOp("+", args[0], F.Num(0.5, "0.5", 1), 1),), 1)
        if name == "pi" and n == 0:
            return F.Const("pi", 1)
        if name == "e" and n <= 1:  # e(x) is Math.exp(x || 1): e(0) is e, not 1 (the sets' answers tell)
            return F.Call("exp", args, 1) if args else F.Const("e", 1)
        if name in ("rad_to_deg", "deg_to_rad") and n == 1:
            factor = (F.Num(180.0, "180", 1), F.Const("pi", 1))
            top, bottom = factor if name == "rad_to_deg" else factor[::-1]
            return F.BinOp("/", F.BinOp("*", args[0], top, 1), bottom, 1)
        if name in ("sec", "cosec", "cotan") and n == 1:
            inverse = {"sec": "cos", "cosec": "sin", "cotan": "tan"}[name]
            return F.BinOp("/", F.Num(1.0, "1", 1), F.Call(inverse, args, 1), 1)
        if name in ("sum", "mean") and n >= 1:
            total = args[0]
            for arg in args[1:]:
                total = F.BinOp("+", total, arg, 1)
            return total if name == "sum" or n == 1 else F.BinOp("/", total, F.Num(float(n), str(n), 1), 1)
        if name in ("first", "last") and n >= 1:
            return args[0] if name == "first" else args[-1]
        if name in ("count", "length"):
            return F.Num(float(n), str(n), 1)
        what = f" ({NO_FORM[name]})" if name in NO_FORM else ""
        raise Unconvertible(f"the formula '{self.text}' uses {name}(){what}, which the source's formulas do not have")

    def rounding(self, raws: tuple[Raw, ...], raw: Raw) -> F.Node | None:
        """qti-builder's round(x) and round(x, n): ``if(x, floor(abs(x)*S+0.5)/S*x/abs(x), 0)``."""
        if len(raws) != 3 or _unwrap(raws[2]) != ("num", "0"):
            return None
        x = self.node(raws[0])
        for candidate in (F.Call("round", (x,), 1), *self._with_decimals(x, raws[1])):
            if _Parser(F.to_canvas(candidate)).line()[1] == raw:
                return candidate
        return None

    def _with_decimals(self, x: F.Node, body: Raw) -> list[F.Node]:
        try:  # body: ((floor(...) / S) * x) / abs(x), S = 10^n
            scale = _unwrap(_unwrap(_unwrap(body)[2])[2])[3]
        except (IndexError, TypeError):
            return []
        scale = _unwrap(scale)
        if scale[0] != "op" or scale[1] != "^" or _unwrap(scale[2]) != ("num", "10"):
            return []
        return [F.Call("round", (x, self.node(scale[3])), 1)]


def _unwrap(raw: Raw) -> Raw:
    while raw[0] == "paren":
        raw = raw[1]
    return raw


def formula_lines(lines: list[str], names: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """Canvas's formula lines as (derived variables: name -> formula, the answer's formula), in
    the source's language; :class:`Unconvertible` for what it cannot say."""
    derived: dict[str, str] = {}
    known = dict(names)
    reader = Reader(known, lines[0] if lines else "")
    last: F.Node | None = None
    for line, (assigned, raw) in zip(lines, parse_lines(lines)):
        reader.text = line
        node = reader.node(raw)
        if assigned is not None:
            if assigned in names:
                raise Unconvertible(f"the formula line '{line}' gives the variable '{assigned}' a new value, "
                                    "which a listed set's value cannot take")
            name = known.get(assigned) or _derived_name(assigned, known)
            known[assigned] = name
            derived[name] = F.to_source(node)
            node = F.Var(name, 1)
        last = node
    assert last is not None
    if isinstance(last, F.Var) and last.name in derived:  # the last line assigns: its value is the answer
        answer = derived.pop(last.name)
        return derived, answer
    return derived, F.to_source(last)


def _derived_name(name: str, known: Mapping[str, str]) -> str:
    return fresh_name(variable_names([name])[name], known.values())


__all__ = ["Reader", "Raw", "Unconvertible", "formula_lines", "parse_lines", "tokens"]
