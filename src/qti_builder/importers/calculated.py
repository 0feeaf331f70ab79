"""What the importers of calculated questions share: variable names the source takes, the check
that an imported question builds, and the check that its formula gives the file's own answers.

Each system writes formulas its own way (Moodle's PHP expressions, Canvas's calculator, QTI's
expression elements, the formulas plug-in's language); each importer turns them into the
source's formula tree (:mod:`..formulas`) and writes it with :func:`..formulas.to_source`. What
cannot be turned is an :class:`Unconvertible`, whose message says what and why.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from .. import formulas as F
from ..model.parametric import MAX_SETS, PLACEHOLDER, CalculatedChoiceQuestion, CalculatedQuestion
from ..parametric import TOLERANCE, Finding, variants

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")


class Unconvertible(ValueError):
    """A formula, variable or rule the source cannot hold; the message says which and why."""


def variable_names(names: Iterable[str]) -> dict[str, str]:
    """A name the source takes for each of ``names``: itself when it is one, else the nearest
    (``v.1`` ``v_1``, ``e`` ``e_value``: the constant's and the functions' names are taken)."""
    given = list(dict.fromkeys(names))
    taken = {n for n in given if NAME.match(n) and n not in F.RESERVED}
    renamed: dict[str, str] = {}
    for name in given:
        if name in taken:
            renamed[name] = name
            continue
        base = re.sub(r"[^A-Za-z0-9_]", "_", name)
        base = base if base[:1].isalpha() else "v_" + base
        base = base[:26] if base not in F.RESERVED else base[:20] + "_value"
        candidate, n = base, 1
        while candidate in taken or candidate in F.RESERVED:
            n += 1
            candidate = f"{base}_{n}"
        taken.add(candidate)
        renamed[name] = candidate
    return renamed


def renamings(names: dict[str, str]) -> list[str]:
    """What a renaming by :func:`variable_names` changed, for the warning."""
    return [f"the variable name '{old}' (the source calls it '{new}')" for old, new in names.items() if old != new]


def fresh_name(base: str, taken: Iterable[str]) -> str:
    used = set(taken)
    candidate, n = base, 1
    while candidate in used:
        n += 1
        candidate = f"{base}_{n}"
    return candidate


def constant_or_formula(formula: str) -> dict[str, Any]:
    """A variable set to a formula: a constant (``9.81``) is a list of one value, as the source
    writes a constant; anything else a derived value."""
    node = F.parse(formula)
    if isinstance(node, F.Num) or (isinstance(node, F.Neg) and isinstance(node.operand, F.Num)):
        return {"values": [F.evaluate(node, {})]}
    return {"formula": formula}


def unescape_placeholders(markdown: str) -> str:
    """``{x\\_1}`` (an HTML converter escapes the underscore) as the placeholder ``{x_1}``."""
    return re.sub(r"\{([A-Za-z](?:[A-Za-z0-9]|\\_)*)(:[0-9]{1,2})?\}", lambda m: "{" + m.group(1).replace("\\_", "_")
                  + (m.group(2) or "") + "}", markdown)


def unescape_texts(data: dict[str, Any]) -> None:
    """:func:`unescape_placeholders` in every text of a calculated question's data."""
    if isinstance(data.get("stem"), str):
        data["stem"] = unescape_placeholders(data["stem"])
    for role, text in list(data.get("feedback", {}).items()):
        if isinstance(text, str):
            data["feedback"][role] = unescape_placeholders(text)
    for choice in data.get("choices", []):
        for key in ("text", "feedback"):
            if isinstance(choice.get(key), str):
                choice[key] = unescape_placeholders(choice[key])


def decimals_of(text: str) -> int:
    """How many decimals a number is written with: '2.50' 2, '3' 0, '1e-3' 3."""
    try:
        value = float(text)
    except ValueError:
        return 0
    written = text.strip().lower()
    if "e" in written or not math.isfinite(value):
        return len(F.plain_decimal(value).partition(".")[2])
    return len(written.partition(".")[2])


def _findings(data: Mapping[str, Any]) -> tuple[str | None, list[Finding]]:
    model = CalculatedQuestion if data.get("type", "calculated") == "calculated" else CalculatedChoiceQuestion
    fields = {k: v for k, v in data.items() if k in model.model_fields and k not in ("id", "points", "feedback", "title")}
    try:
        # The text is read after (it shows the variables as renamed here): a stand-in meanwhile.
        question = model.model_validate({**fields, "id": "q", "stem": fields.get("stem") or "?"})
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"{str(error['msg']).removeprefix('Value error, ')}{f' (at {where})' if where else ''}", []
    return None, [f for f in variants("import", question).findings if not f.warning]


def problem(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """(message, hint) of the first thing that keeps the calculated question ``data`` from
    building (the model's rules, a set its formulas cannot compute, a tolerance too tight for
    the answer as shown), else None: an importer never writes a source the build refuses."""
    refused, findings = _findings(data)
    if refused is not None:
        return refused, ""
    return (findings[0].message, findings[0].hint) if findings else None


def too_tight(data: Mapping[str, Any]) -> bool:
    """Does the question's tolerance refuse its answer as shown (the build's QB214), and nothing else?"""
    refused, findings = _findings(data)
    return refused is None and [f.code for f in findings] == [TOLERANCE]


def fit_display(data: dict[str, Any]) -> None:
    """Where the system does not say how the answer is shown and its tolerance refuses the answer
    with the default 2 decimals, the fewest decimals (up to 10) it accepts."""
    if data.get("decimals") is not None or data.get("figures") is not None or not too_tight(data):
        return
    for decimals in range(3, 11):
        data["decimals"] = decimals
        if not too_tight(data):
            return


def computed_answers(answer: str, derived: Mapping[str, str], sets: list[dict[str, float]]) -> list[float | None]:
    """The answer formula's value for each set (derived variables computed first, in order), None
    where it cannot be computed."""
    node = F.parse(answer)
    formulas = [(name, F.parse(text)) for name, text in derived.items()]
    results: list[float | None] = []
    for values in sets:
        known = dict(values)
        try:
            for name, formula in formulas:
                known[name] = float(f"{F.evaluate(formula, known):.12g}")
            results.append(F.evaluate(node, known))
        except F.FormulaError:
            results.append(None)
    return results


def first_mismatch(computed: list[float | None], listed: list[float], slack: list[float]) -> int | None:
    """The first set whose computed answer is further from the file's answer than ``slack``."""
    for k, (ours, theirs, allowed) in enumerate(zip(computed, listed, slack)):
        if ours is None or abs(ours - theirs) > allowed + 1e-9 * max(1.0, abs(theirs)):
            return k
    return None


def describe(values: Mapping[str, float]) -> str:
    return ", ".join(f"{name} = {F.plain_decimal(f'{value:.12g}')}" for name, value in values.items())


def kept_sets(sets: list[dict[str, float]], lost: list[str]) -> list[dict[str, float]]:
    """The first :data:`MAX_SETS` sets (a source lists at most that many)."""
    if len(sets) > MAX_SETS:
        lost.append(f"the {len(sets) - MAX_SETS} sets of values after the first {MAX_SETS} (a source lists at most {MAX_SETS})")
    return sets[:MAX_SETS]


def placeholders_of(text: str) -> list[str]:
    return [m.group("name") for m in PLACEHOLDER.finditer(text) if m.group("name")]


__all__ = ["Unconvertible", "computed_answers", "constant_or_formula", "decimals_of", "describe", "first_mismatch", "fit_display", "fresh_name", "kept_sets",
           "problem", "renamings", "too_tight", "unescape_placeholders", "unescape_texts", "variable_names"]
