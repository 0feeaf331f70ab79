"""The formula language of calculated questions: parse, evaluate, and write in Moodle's and Canvas's syntax.

A formula is arithmetic (``+ - * /``, ``^`` or ``**`` for powers, parentheses) over numbers,
the question's variables, the constants ``pi`` and ``e`` and a fixed set of functions
(:data:`FUNCTIONS`); a constraint is two formulas compared (``b^2 - 4*a*c >= 0``).
docs/source-format.md#formulas describes the language for authors.

Why a grammar and not Python's ``eval`` (or a library that evaluates Python expressions, such as
simpleeval): a source is untrusted, and the same formula must be written again in two other
languages (Moodle's PHP expressions, Canvas's calculator), so it has to be a tree we own, with
precedence and functions defined here rather than borrowed from Python (``^`` is a power here,
an exclusive or in Python and PHP). The grammar is parsed by lark (PyPI: a maintained parser
library), which gives each node its column, so an error points at the place in the formula.

Semantics (the same in every output): powers bind tighter than a leading minus (``-2^2`` is -4)
and group to the right (``2^3^2`` is 2^9); ``log`` is base 10, ``ln`` natural, ``log(x, b)``
base ``b``; angles are in radians; ``round(x)`` and ``round(x, n)`` round halves away from zero,
as Moodle (PHP) does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # lark is imported where a formula is first read: most builds read none (a cold start's 30 ms)
    from lark import Lark, Token, Tree, UnexpectedInput

GRAMMAR = r"""
?formula: sum
?constraint: sum COMPARE sum -> compare
?sum: product
    | sum "+" product -> add
    | sum "-" product -> sub
?product: unary
    | product "*" unary -> mul
    | product "/" unary -> div
?unary: power
    | "-" unary -> neg
    | "+" unary
?power: atom
    | atom POW unary -> pow
?atom: NUMBER -> number
    | NAME -> name
    | NAME "(" [sum ("," sum)*] ")" -> call
    | "(" sum ")"
POW: "^" | "**"
COMPARE: ">=" | "<=" | "==" | "!=" | ">" | "<"
NAME: /[A-Za-z][A-Za-z0-9_]*/
NUMBER: /([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?/
%ignore /[ \t]+/
"""


class FormulaError(ValueError):
    """A formula that cannot be read or evaluated; ``column`` (1-based, in the formula's text) is
    where, when it is known."""

    def __init__(self, message: str, column: int | None = None, hint: str = "") -> None:
        super().__init__(message)
        self.column = column
        self.hint = hint


# -- the tree ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    value: float
    text: str
    column: int


@dataclass(frozen=True)
class Var:
    name: str
    column: int


@dataclass(frozen=True)
class Const:
    name: str  # "pi" or "e"
    column: int


@dataclass(frozen=True)
class Call:
    function: str
    args: tuple["Node", ...]
    column: int


@dataclass(frozen=True)
class BinOp:
    op: str  # + - * / ^
    left: "Node"
    right: "Node"
    column: int


@dataclass(frozen=True)
class Neg:
    operand: "Node"
    column: int


@dataclass(frozen=True)
class Compare:
    op: str
    left: "Node"
    right: "Node"
    column: int


Node = Num | Var | Const | Call | BinOp | Neg | Compare

CONSTANTS = {"pi": math.pi, "e": math.e}


def _round(x: float, digits: float = 0) -> float:
    """Half away from zero, from the value's 15 significant digits (PHP's round does the same
    pre-rounding, so 1.005 rounds to 1.01 as Moodle shows it)."""
    if not float(digits).is_integer():
        raise FormulaError("round(x, n) needs a whole number of decimals n")
    exponent = Decimal(1).scaleb(-int(digits))
    return float(Decimal(f"{x:.15g}").quantize(exponent, rounding=ROUND_HALF_UP))


def _log(x: float, base: float = 10) -> float:
    return math.log(x, base)


@dataclass(frozen=True)
class Function:
    evaluate: Callable[..., float]
    #: How many arguments it takes: (least, most); most None for any number.
    arity: tuple[int, int | None]
    #: What it does, for the docs.
    meaning: str


#: Every function of the language. Each one has a translation in :data:`MOODLE` and
#: :data:`CANVAS` (tests/test_formulas.py checks each against that LMS's documented syntax).
FUNCTIONS: dict[str, Function] = {
    "sqrt": Function(math.sqrt, (1, 1), "square root"),
    "abs": Function(abs, (1, 1), "absolute value"),
    "exp": Function(math.exp, (1, 1), "e to the power x"),
    "ln": Function(math.log, (1, 1), "natural logarithm"),
    "log": Function(_log, (1, 2), "logarithm base 10, or base b: log(x, b)"),
    "sin": Function(math.sin, (1, 1), "sine (radians)"),
    "cos": Function(math.cos, (1, 1), "cosine (radians)"),
    "tan": Function(math.tan, (1, 1), "tangent (radians)"),
    "asin": Function(math.asin, (1, 1), "inverse sine (radians)"),
    "acos": Function(math.acos, (1, 1), "inverse cosine (radians)"),
    "atan": Function(math.atan, (1, 1), "inverse tangent (radians)"),
    "floor": Function(math.floor, (1, 1), "largest whole number not above x"),
    "ceil": Function(math.ceil, (1, 1), "smallest whole number not below x"),
    "round": Function(_round, (1, 2), "x rounded to a whole number, or to n decimals: round(x, n); halves away from zero"),
    "min": Function(min, (2, None), "the smallest of two or more values"),
    "max": Function(max, (2, None), "the largest of two or more values"),
}

#: Names a variable may not take: the functions' and the constants' (and Canvas's own functions,
#: which its calculator would read instead of the variable).
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS) | frozenset({
    "if", "fact", "perm", "comb", "sum", "mean", "median", "range", "count", "length", "first", "last", "at", "rand",
    "sort", "reverse", "rad_to_deg", "deg_to_rad", "and", "or", "not"})


# -- parsing -----------------------------------------------------------------------------------


@lru_cache(maxsize=2)
def _parser(start: str) -> Lark:
    from lark import Lark

    return Lark(GRAMMAR, start=start, parser="lalr", propagate_positions=True, maybe_placeholders=False)


@lru_cache(maxsize=4096)
def parse(text: str, constraint: bool = False) -> Node:
    """The formula's tree (a :class:`Compare` for a constraint); :class:`FormulaError` at the
    column where it cannot be read."""
    if not text.strip():
        raise FormulaError("the formula is empty", 1, "write a formula such as 'd / t'")
    _check_size(text)
    from lark import UnexpectedInput

    try:
        tree = _parser("constraint" if constraint else "formula").parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc, constraint) from None
    node = _build(tree)
    if constraint and not isinstance(node, Compare):
        raise FormulaError("a condition compares two formulas", 1, "write it as 'b^2 - 4*a*c >= 0', with >=, <=, >, <, == or !=")
    _check_calls(node)
    return node


def parse_foreign(text: str) -> Node:
    """The tree of a formula in another system's syntax where it shares the source's grammar,
    without checking its functions' names and arguments (an importer renames them, then
    :func:`parse` checks the result); :class:`FormulaError` where it cannot be read."""
    if not text.strip():
        raise FormulaError("the formula is empty", 1)
    _check_size(text)
    from lark import UnexpectedInput

    try:
        return _build(_parser("formula").parse(text))
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc, False) from None


#: What a formula may hold: far more than any question needs, and little enough that reading and
#: computing it (recursive, like any expression tree) stays within Python's recursion limit.
MAX_LENGTH = 2000
MAX_OPERATIONS = 200


def _check_size(text: str) -> None:
    """A hostile or runaway formula (``((((…))))``, ``1+1+…+1``, ``----…1``) is an error, not a crash."""
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"the formula is longer than {MAX_LENGTH:,} characters", MAX_LENGTH + 1,
                           "split it: a derived variable can hold part of it")
    operations = 0
    for column, char in enumerate(text, 1):
        operations += char in "+-*/^(,"
        if operations > MAX_OPERATIONS:
            raise FormulaError(f"the formula has more than {MAX_OPERATIONS} operations, brackets and arguments", column,
                               "split it: a derived variable can hold part of it")


def _syntax_error(text: str, exc: UnexpectedInput, constraint: bool) -> FormulaError:
    from lark import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    column = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedEOF) or column in (None, -1):
        return FormulaError(f"the formula '{text}' ends too early", len(text) + 1,
                            "close every parenthesis and give every operator its right-hand side")
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream is not None and exc.pos_in_stream < len(text) else "?"
        if char in "<>=!" and not constraint:
            return FormulaError(f"'{char}' compares values, but this is a formula for a value", column,
                                "compare values in a condition (its own line); here write a formula such as 'd / t'")
        hint = "'^' or '**' for powers, '*' for products" if char in "×·÷" else \
            "formulas take numbers, variable names, + - * / ^, parentheses and functions such as sqrt(x)"
        return FormulaError(f"unexpected '{char}' in the formula", column, hint)
    token = exc.token if isinstance(exc, UnexpectedToken) else None
    if token is not None and token.type == "$END":
        return FormulaError(f"the formula '{text}' ends too early", len(text) + 1,
                            "close every parenthesis and give every operator its right-hand side")
    shown = str(token) if token is not None else "?"
    if token is not None and token.type == "COMPARE" and not constraint:
        return FormulaError(f"'{shown}' compares values, but this is a formula for a value", column,
                            "compare values in a condition (its own line); here write a formula such as 'd / t'")
    return FormulaError(f"unexpected '{shown}' in the formula", column,
                        "write '*' between factors ('2*x', not '2x') and check the parentheses")


def _build(node: Tree | Token) -> Node:
    from lark import Token

    if isinstance(node, Token):  # a lone NUMBER or NAME never reaches here (rules name them)
        raise FormulaError(f"unexpected '{node}'", node.column)
    column = node.meta.column if not node.meta.empty else 1
    kids = node.children
    if node.data == "number":
        text = str(kids[0])
        return Num(float(text), text, column)
    if node.data == "name":
        name = str(kids[0])
        return Const(name, column) if name in CONSTANTS else Var(name, column)
    if node.data == "call":
        name = str(kids[0])
        return Call(name, tuple(_build(k) for k in kids[1:] if k is not None), column)
    if node.data == "neg":
        return Neg(_build(kids[0]), column)
    if node.data == "compare":
        return Compare(str(kids[1]), _build(kids[0]), _build(kids[2]), getattr(kids[1], "column", column))
    if node.data == "pow":
        return BinOp("^", _build(kids[0]), _build(kids[2]), getattr(kids[1], "column", column))
    ops = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
    if node.data in ops:
        return BinOp(ops[node.data], _build(kids[0]), _build(kids[1]), column)
    raise FormulaError(f"unexpected '{node.data}'", column)  # pragma: no cover - the grammar has no other rule


def _check_calls(node: Node) -> None:
    for call in walk(node):
        if not isinstance(call, Call):
            continue
        function = FUNCTIONS.get(call.function)
        if function is None:
            if call.function in CONSTANTS:
                raise FormulaError(f"{call.function} is a constant, not a function", call.column,
                                   f"write {call.function} without parentheses")
            raise FormulaError(f"unknown function '{call.function}'", call.column,
                               "functions: " + ", ".join(FUNCTIONS))
        least, most = function.arity
        n = len(call.args)
        if n < least or (most is not None and n > most):
            wanted = (f"{least}" if least == most else f"{least} or {most}" if most else f"{least} or more")
            raise FormulaError(f"{call.function}() takes {wanted} argument{'s' if wanted != '1' else ''}, not {n}",
                               call.column, f"write {call.function}({', '.join('xyz'[:least]) or 'x'})")


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents first."""
    yield node
    if isinstance(node, (BinOp, Compare)):
        yield from walk(node.left)
        yield from walk(node.right)
    elif isinstance(node, Neg):
        yield from walk(node.operand)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from walk(arg)


def renamed(node: Node, names: Mapping[str, str]) -> Node:
    """The formula with each variable ``names`` lists called by its new name."""
    if isinstance(node, Var):
        return Var(names.get(node.name, node.name), node.column)
    if isinstance(node, (BinOp, Compare)):
        return type(node)(node.op, renamed(node.left, names), renamed(node.right, names), node.column)
    if isinstance(node, Neg):
        return Neg(renamed(node.operand, names), node.column)
    if isinstance(node, Call):
        return Call(node.function, tuple(renamed(a, names) for a in node.args), node.column)
    return node


def variables(node: Node) -> list[str]:
    """The variable names a formula uses, in order of first use."""
    return list(dict.fromkeys(n.name for n in walk(node) if isinstance(n, Var)))


# -- evaluating --------------------------------------------------------------------------------


def evaluate(node: Node, values: Mapping[str, float]) -> float:
    """The formula's value (1.0 or 0.0 for a constraint) for ``values``; :class:`FormulaError` for
    an undefined variable, a division by zero, a value outside a function's domain or a result
    that is not a finite number."""
    result = _eval(node, values)
    if not math.isfinite(result):
        raise FormulaError("the result is not a finite number", getattr(node, "column", None))
    return result


def _eval(node: Node, values: Mapping[str, float]) -> float:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Const):
        return CONSTANTS[node.name]
    if isinstance(node, Var):
        if node.name not in values:
            raise FormulaError(f"'{node.name}' is not a variable of this question", node.column,
                               "define it in the variables, or correct its name")
        return values[node.name]
    if isinstance(node, Neg):
        return -_eval(node.operand, values)
    if isinstance(node, Compare):
        left, right = _eval(node.left, values), _eval(node.right, values)
        return float({">=": left >= right, "<=": left <= right, ">": left > right, "<": left < right,
                      "==": math.isclose(left, right, rel_tol=1e-12, abs_tol=1e-12),
                      "!=": not math.isclose(left, right, rel_tol=1e-12, abs_tol=1e-12)}[node.op])
    if isinstance(node, BinOp):
        left, right = _eval(node.left, values), _eval(node.right, values)
        try:
            if node.op == "+":
                return left + right
            if node.op == "-":
                return left - right
            if node.op == "*":
                return left * right
            if node.op == "/":
                if right == 0:
                    raise FormulaError("division by zero", node.column)
                return left / right
            result = left ** right
        except OverflowError:
            raise FormulaError("the result is too large", node.column) from None
        if isinstance(result, complex):
            raise FormulaError(f"a negative number ({_short(left)}) to a fractional power ({_short(right)})", node.column)
        return float(result)
    assert isinstance(node, Call)
    args = [_eval(a, values) for a in node.args]
    try:
        result = FUNCTIONS[node.function].evaluate(*args)
    except (ValueError, ZeroDivisionError):
        shown = ", ".join(_short(a) for a in args)
        raise FormulaError(f"{node.function}({shown}) is not defined", node.column) from None
    except OverflowError:
        raise FormulaError(f"{node.function}() is too large", node.column) from None
    if not math.isfinite(result):
        raise FormulaError(f"{node.function}() is not a finite number", node.column)
    return float(result)


def _short(value: float) -> str:
    return f"{value:.6g}"


# -- writing in the LMSs' syntax ----------------------------------------------------------------


def plain_decimal(value: float | str) -> str:
    """A number without an exponent (Canvas's calculator reads no ``1e-3``): '0.001'."""
    text = format(Decimal(str(value)).normalize(), "f") if not isinstance(value, str) else format(Decimal(value), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


#: Binding strength of each node in the source's own syntax (higher binds tighter).
_SUM, _PRODUCT, _UNARY, _POWER, _ATOM = 1, 2, 3, 4, 5


def to_source(node: Node) -> str:
    """The formula in the source's own syntax with no more parentheses than its grammar needs
    (``(-b + sqrt(d)) / (2 * a)``), so that a formula read from another system's syntax reads as
    an author would write it; ``parse(to_source(n))`` gives ``n`` back."""
    return _source(node)[0]


def _source(node: Node) -> tuple[str, int]:
    """The text of ``node`` and how strongly it binds."""
    if isinstance(node, Num):
        return plain_decimal(node.text), _ATOM
    if isinstance(node, (Var, Const)):
        return node.name, _ATOM
    if isinstance(node, Call):
        return f"{node.function}({', '.join(to_source(a) for a in node.args)})", _ATOM
    if isinstance(node, Neg):
        return "-" + _operand(node.operand, _UNARY, right=True), _UNARY
    if isinstance(node, Compare):
        return f"{to_source(node.left)} {node.op} {to_source(node.right)}", 0
    assert isinstance(node, BinOp)
    if node.op == "^":  # the base an atom, the exponent a unary (powers group to the right)
        return f"{_operand(node.left, _ATOM)}^{_operand(node.right, _UNARY, right=True)}", _POWER
    level = _SUM if node.op in "+-" else _PRODUCT
    return f"{_operand(node.left, level)} {node.op} {_operand(node.right, level + 1, right=True)}", level


def _operand(node: Node, least: int, right: bool = False) -> str:
    text, level = _source(node)
    # A minus sign right of an operator is bracketed for the reader: a - (-b), a^(-2).
    return f"({text})" if level < least or (right and isinstance(node, Neg)) else text


def to_moodle(node: Node) -> str:
    """The formula in Moodle's syntax (qtype_calculated: a PHP expression over ``{x}`` wildcards,
    checked by ``qtype_calculated_find_formula_errors``): powers as ``pow(a, b)`` (``^`` is not a
    power in PHP), ``pi()``, ``exp(1)`` for e, ``log`` natural and ``log10``; every operation in
    parentheses, so no precedence rule can differ."""
    if isinstance(node, Num):
        return plain_decimal(node.text)
    if isinstance(node, Const):
        return "pi()" if node.name == "pi" else "exp(1)"
    if isinstance(node, Var):
        return "{" + node.name + "}"
    if isinstance(node, Neg):
        return f"(-{to_moodle(node.operand)})"
    if isinstance(node, BinOp):
        if node.op == "^":
            return f"pow({to_moodle(node.left)}, {to_moodle(node.right)})"
        return f"({to_moodle(node.left)} {node.op} {to_moodle(node.right)})"
    if isinstance(node, Compare):
        return f"({to_moodle(node.left)} {node.op} {to_moodle(node.right)})"
    args = [to_moodle(a) for a in node.args]
    name = {"ln": "log", "log": "log10" if len(args) == 1 else "log"}.get(node.function, node.function)
    return f"{name}({', '.join(args)})"


def to_canvas(node: Node) -> str:
    """The formula in Canvas's syntax (its calculator, canvas-lms ``calcCmd.js``, which computes a
    calculated question's answers): variables by name, ``^`` for powers, no exponent in numbers,
    no minus before a parenthesis (written ``(0-x)``), ``e^(x)`` for exp (its ``e(x)`` reads 0 as
    1), and round written out (its ``round`` takes no decimals and rounds -2.5 to -2)."""
    if isinstance(node, Num):
        return plain_decimal(node.text)
    if isinstance(node, Const):
        return node.name
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Neg):
        return f"(0-{to_canvas(node.operand)})"
    if isinstance(node, (BinOp, Compare)):
        return f"({to_canvas(node.left)}{node.op}{to_canvas(node.right)})"
    args = [to_canvas(a) for a in node.args]
    if node.function == "exp":
        return f"(e^{args[0]})" if args[0].startswith("(") else f"(e^({args[0]}))"
    if node.function == "round":
        x = args[0]
        scale = f"10^{args[1]}" if len(args) > 1 else "1"
        # |x| rounded half up, with x's sign; if(x, ..., 0) keeps 0 away from 0/0.
        return f"if({x},floor(abs({x})*{scale}+0.5)/{scale}*{x}/abs({x}),0)"
    return f"{node.function}({','.join(args)})"


# -- what Moodle accepts -----------------------------------------------------------------------
#
# Moodle checks every formula of a calculated question before it stores it, on import too
# (question/type/calculated/questiontype.php: ``validate_question_data`` runs
# ``qtype_calculated_find_formula_errors`` over each answer, and over each ``{=...}`` of the
# question text, the general feedback and the answers' feedback), and a formula it refuses
# throws an exception that stops the import of the whole file. The check below follows that
# function's steps, so that a build can refuse what Moodle would.

#: A wildcard as Moodle finds it (``PLACEHOLDER_REGEX_PART``: a letter, then letters, digits,
#: ``-``, ``_`` and spaces; PHP's classes are ASCII here).
MOODLE_WILDCARD = re.compile(r"\{[A-Za-z][A-Za-z0-9\-_\s]*\}")
#: A ``{=formula}`` in a text, its formula able to hold wildcards (``FORMULAS_IN_TEXT_REGEX``).
MOODLE_FORMULA_IN_TEXT = re.compile(r"\{=([^{}]*(?:\{[A-Za-z][A-Za-z0-9\-_\s]*\}[^{}]*)*)\}")
_MOODLE_SAFE = r"\-+/*%>:~<?=!"
_MOODLE_OPERAND = rf"[{_MOODLE_SAFE}.0-9eE]"
_MOODLE_CALL = re.compile(rf"(^|[{_MOODLE_SAFE},(])([a-z0-9_]*)\(({_MOODLE_OPERAND}+(,{_MOODLE_OPERAND}+((,{_MOODLE_OPERAND}+)+)?)?)?\)")
_MOODLE_ONE_ARGUMENT = frozenset({
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bindec", "ceil", "cos", "cosh", "decbin", "decoct",
    "deg2rad", "exp", "expm1", "floor", "is_finite", "is_infinite", "is_nan", "log10", "log1p", "octdec", "rad2deg",
    "sin", "sinh", "sqrt", "tan", "tanh"})


def moodle_formula_error(formula: str) -> str | None:
    """Why Moodle refuses ``formula`` (its own syntax, ``{x}`` wildcards), or None when it takes it."""
    for start in ("//", "/*", "#", "<?", "?>"):
        if start in formula:
            return f"illegal formula syntax starting with '{start}'"
    text = MOODLE_WILDCARD.sub("1.0", formula).replace(" ", "").lower()
    while (call := _MOODLE_CALL.search(text)) is not None:
        before, name = call.group(1), call.group(2)
        args, second, third = call.group(3), call.group(4) or "", call.group(5) or ""
        if name == "":
            if second or not args:
                return f"illegal formula syntax starting with '{call.group(0)}'"
        elif name == "pi":
            if args is not None:
                return "the function pi takes no arguments"
        elif name in _MOODLE_ONE_ARGUMENT:
            if second or not args:
                return f"the function {name} takes exactly one argument"
        elif name in ("log", "round"):
            if third or not args:
                return f"the function {name} takes one or two arguments"
        elif name in ("atan2", "fmod", "pow"):
            if third or not second:
                return f"the function {name} takes exactly two arguments"
        elif name in ("min", "max"):
            if not second:
                return f"the function {name} takes at least two arguments"
        else:
            return f"the function {name} is not supported"
        if before:
            text = text.replace(call.group(0), before + "1.0")
        else:
            text = re.sub("^" + re.escape(name) + r"\([^)]*\)", "1.0", text)
    illegal = re.search(rf"[^{_MOODLE_SAFE}.0-9eE]+", text)
    return f"illegal formula syntax starting with '{illegal.group(0)}'" if illegal else None


def moodle_text_formula_errors(text: str) -> list[tuple[str, str]]:
    """Each ``{=formula}`` of ``text`` that Moodle refuses, with why (``qtype_calculated_find_formula_errors_in_text``)."""
    found = []
    for match in MOODLE_FORMULA_IN_TEXT.finditer(text):
        error = moodle_formula_error(match.group(1))
        if error:
            found.append((match.group(0), error))
    return found
