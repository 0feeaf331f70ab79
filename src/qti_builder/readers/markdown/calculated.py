"""The Markdown form of calculated questions: a ```` ```variables ```` block in the question text.

::

    1. A car covers {d} km in {t} hours. What is its average speed? {#speed type=calculated unit=km/h}

    ```variables
    d = 20..200 step 5
    t = 1.5..4.0
    ```

    Answer: d / t ± 1%

Each line of the block is a variable (``name = 20..200`` with an optional ``step 5`` or
``decimals 1``, ``name = 2, 3, 5`` to draw from a list, ``name = formula`` for a derived value,
``shared`` for a Moodle shared dataset; ``name = decimals 1 shared`` with options alone for a
variable of the listed sets), a condition (``b^2 - 4*a*c >= 0``), or the author's own
sets (``(d, t) = (45, 1.5), (60, 2)``). ``Answer:`` is the answer's formula, with ``± 0.01`` or
``± 1%``. The block is taken out of the question text; everything else is the question's, as for
every kind. docs/source-format.md#calculated describes it for authors.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from . import syntax as S
from ..base import Loc, SourceMap
from .blocks import Block, Label, Question


class QuestionBuilder(Protocol):
    """What these kinds use of the reader's question builder (questions.QuestionBuilder, which
    imports this module for its table of kinds: a protocol, so this module does not import it back)."""

    source: SourceMap

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None: ...

    def choice(self, q: Question, loc: Loc, data: dict[str, Any]) -> None: ...

    def _one_answer(self, q: Question, kind: str, required: bool = True) -> Label | None: ...

#: Info strings that open the block (English and Korean).
FENCE_NAMES = ("variables", "변수")
_OPEN = re.compile(r"^(?P<fence>`{3,}|~{3,})\s*(?P<name>\S+)\s*$")
_DEFINITION = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)\s*=(?!=)\s*(?P<spec>.*)$")
_LISTED = re.compile(r"^\((?P<names>[^()]*)\)\s*=(?!=)\s*(?P<sets>.*)$")
_OPTIONS = re.compile(r"\s+(?:(?P<key>step|decimals)\s+(?P<value>\S+)|(?P<flag>shared))\s*$")
_RANGE = re.compile(rf"^(?P<min>{S.NUMBER})\s*\.\.\s*(?P<max>{S.NUMBER})$")
_NUMBERS = re.compile(rf"^{S.NUMBER}(?:\s*,\s*{S.NUMBER})*$")
_TUPLE = re.compile(r"\(([^()]*)\)")
_ANSWER = re.compile(rf"^(?P<formula>.*?)\s*(?:±|\+/-|\+-)\s*(?P<tol>{S.NUMBER})\s*(?P<pct>%)?\s*$", re.S)
_NUMBER = re.compile(rf"^{S.NUMBER}$")


def calculated(builder: QuestionBuilder, q: Question, loc: Loc, data: dict[str, Any]) -> None:
    _variables(builder, q, loc, data)
    answer = builder._one_answer(q, "calculated")
    if answer is None:
        return
    text = " ".join(answer.block.text().split())
    builder.source.at(loc + ("answer",), answer.line, answer.block.column)
    match = _ANSWER.match(text)
    if match:
        data["answer"] = match.group("formula")
        data["tolerance"] = float(match.group("tol"))
        if match.group("pct"):
            data["tolerance_mode"] = "percent"
        builder.source.at(loc + ("tolerance",), answer.line, answer.block.column + len(match.group("formula")))
    else:
        data["answer"] = text


def calculated_choice(builder: QuestionBuilder, q: Question, loc: Loc, data: dict[str, Any]) -> None:
    builder.choice(q, loc, data)
    _variables(builder, q, loc, data)


def _variables(builder: QuestionBuilder, q: Question, loc: Loc, data: dict[str, Any]) -> None:
    """Take the variables block out of the question text and read its lines."""
    lines = q.stem.lines
    start = next((i for i, line in enumerate(lines)
                  if (m := _OPEN.match(line.strip())) and m.group("name").lower() in FENCE_NAMES), None)
    if start is None:
        builder.error("QB217", "a calculated question needs a ```variables block in its text", q.line,
                      hint="after the question line, write ```variables, one variable a line (d = 20..200), and ``` to close it")
        return
    fence = _OPEN.match(lines[start].strip()).group("fence")  # type: ignore[union-attr]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip().startswith(fence[0] * len(fence))
                and not lines[i].strip().strip(fence[0])), len(lines))
    first_line = q.stem.line + start
    variables: list[dict[str, Any]] = []
    constraints: list[str] = []
    sets: list[dict[str, float]] = []
    places: dict[str, int] = {}
    for i in range(start + 1, end):
        raw = lines[i]
        text = raw.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        lineno = q.stem.line + i
        column = len(raw) - len(raw.lstrip()) + 1
        text = text.strip()
        listed = _LISTED.match(text)
        definition = _DEFINITION.match(text)
        if listed:
            _listed_sets(builder, listed, lineno, column, sets, places)
        elif definition:
            k = len(variables)
            variable = _definition(builder, definition, lineno, column)
            if variable is not None:
                builder.source.at(loc + ("variables", k), lineno, column)
                if "formula" in variable:
                    builder.source.at(loc + ("variables", k, "formula"), lineno, column + definition.start("spec"))
                variables.append(variable)
        else:
            builder.source.at(loc + ("constraints", len(constraints)), lineno, column)
            constraints.append(text)
    defined = {v["name"] for v in variables}
    variables += [{"name": name, "decimals": n} for name, n in places.items() if name not in defined]
    data["variables"] = variables
    if constraints:
        data["constraints"] = constraints
    if sets:
        data["sets"] = sets
        builder.source.at(loc + ("sets",), first_line, 1)
    elif "sets" in data:
        value = str(data["sets"])
        # ASCII digits only: str.isdigit() is true of '²' too, which int() refuses (a traceback);
        # any other value is the model's to refuse, at the attribute.
        data["sets"] = int(value) if value.isascii() and value.isdigit() else value
    # The text without the block, its continuation lines' indentation removed as for any question.
    data["stem"] = Block(q.stem.line, q.stem.column, lines[:start] + lines[end + 1:]).text()


def _definition(builder: QuestionBuilder, match: re.Match[str], lineno: int, column: int) -> dict[str, Any] | None:
    variable: dict[str, Any] = {"name": match.group("name")}
    spec = match.group("spec").strip()
    while (option := _OPTIONS.search(" " + spec)) is not None:
        if option.group("flag"):
            variable["shared"] = True
        else:
            value = option.group("value")
            if not _NUMBER.match(value):
                builder.error("QB218", f"'{option.group('key')} {value}': the {option.group('key')} is a number", lineno, column,
                              hint=f"write {option.group('key')} 0.5, or leave it out")
                return None
            variable[option.group("key")] = float(value) if option.group("key") == "step" else int(float(value))
        spec = (" " + spec)[: option.start()].strip()
    if not spec and len(variable) > 1:
        return variable  # options alone (t = decimals 1 shared): a variable whose values the listed sets give
    if not spec:
        builder.error("QB218", f"variable '{variable['name']}' has no values", lineno, column,
                      hint="write a range (d = 20..200), values (n = 2, 3, 5) or a formula (v = d / t)")
        return None
    found = _RANGE.match(spec)
    if found:
        variable["min"], variable["max"] = float(found.group("min")), float(found.group("max"))
        if "decimals" not in variable and "step" not in variable:
            variable["decimals"] = max(_places(found.group("min")), _places(found.group("max")))
    elif _NUMBERS.match(spec):
        texts = [t.strip() for t in spec.split(",")]
        variable["values"] = [float(t) for t in texts]
        variable.setdefault("decimals", max(_places(t) for t in texts))
    else:
        variable["formula"] = spec
    return variable


def _listed_sets(builder: QuestionBuilder, match: re.Match[str], lineno: int, column: int,
                 sets: list[dict[str, float]], places: dict[str, int]) -> None:
    names = [n.strip() for n in match.group("names").split(",")]
    tuples = _TUPLE.findall(match.group("sets"))
    if not tuples or not all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", n) for n in names):
        builder.error("QB218", "cannot read the listed sets", lineno, column,
                      hint="write (d, t) = (45, 1.5), (60, 2), one value per variable in each pair of parentheses")
        return
    for values in tuples:
        texts = [t.strip() for t in values.split(",")]
        if len(texts) != len(names) or not all(_NUMBER.match(t) for t in texts):
            builder.error("QB218", f"the set ({values}) does not give one number for each of {', '.join(names)}",
                          lineno, column, hint="write one number per variable, in the order of the names")
            return
        sets.append({name: float(text) for name, text in zip(names, texts)})
        for name, text in zip(names, texts):  # the decimals as written: 2.0 has one
            places[name] = max(places.get(name, 0), _places(text))


def _places(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0
