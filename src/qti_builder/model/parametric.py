"""Calculated (parametric) questions: variables, their sets of values, and a formula for the answer.

One source question stands for many: each student sees one set of values. The sets are generated
at build time (:mod:`qti_builder.parametric`: seeded by the quiz's and the question's ids, so every
machine and every run makes the same ones) or listed by the author, and every output carries them
(Moodle's datasets, Canvas's var sets, QTI 2.1 template processing). Texts show values with
placeholders: ``{x}`` (the variable, with its own decimals), ``{x:2}`` (with 2 decimals) and
``{=formula}`` or ``{=formula:2}`` (a value computed from the variables).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from ..formulas import RESERVED
from ..limits import MAX_SETS
from .common import ModelBase, Problem, no_items
from .questions import Choice, QuestionBase, _ChoiceQuestionBase

#: Variable names: what Moodle's wildcards, Canvas's calculator and QTI identifiers all take.
VariableName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,31}$")]

#: A placeholder in a text: ``{x}``, ``{x:2}``, ``{=formula}``, ``{=formula:2}``.
PLACEHOLDER = re.compile(r"\{(?:(?P<name>[A-Za-z][A-Za-z0-9_]*)|=(?P<formula>[^{}:]+))(?::(?P<decimals>[0-9]{1,2}))?\}")

#: How many sets a question generates when the source does not say.
DEFAULT_SETS = 20


class Variable(ModelBase):
    """One variable: a range (``min``..``max`` by ``step``, or with ``decimals``), a list of
    ``values``, a ``formula`` of the other variables (a derived value), or none of these when the
    question lists its sets."""

    name: VariableName
    min: float | None = None
    max: float | None = None
    step: float | None = Field(None, gt=0, description="Values go from min to max by this step.")
    decimals: int | None = Field(None, ge=0, le=10, description="Decimals of the values, as students see them.")
    values: list[float] | None = Field(None, min_length=1, description="Values to draw from.")
    formula: str | None = Field(None, min_length=1, description="A derived value: a formula of the other variables.")
    shared: bool = Field(False, description="Moodle: a shared dataset of the question's category rather than the question's own.")

    @model_validator(mode="after")
    def _one_form(self) -> "Variable":
        if self.name in RESERVED:
            raise Problem(f"'{self.name}' is the name of a function or constant of formulas",
                          "give the variable another name", at="name")
        forms = [name for name, given in (("min/max", self.min is not None or self.max is not None),
                                          ("values", self.values is not None), ("formula", self.formula is not None)) if given]
        if len(forms) > 1:
            raise Problem(f"variable '{self.name}' has both {forms[0]} and {forms[1]}",
                          "give a range (min and max), a list of values or a formula, one of them", at="name")
        if forms == ["min/max"]:
            if self.min is None or self.max is None:
                raise Problem(f"variable '{self.name}' needs both min and max", "give the range as min and max", at="name")
            if self.min > self.max:
                raise Problem(f"variable '{self.name}': min ({self.min:g}) is more than max ({self.max:g})",
                              "swap min and max", at="min")
            if self.step is not None and self.decimals is None and not float(self.step).is_integer():
                self.decimals = _decimals_of(self.step)
        elif self.step is not None:
            raise Problem(f"variable '{self.name}' has a step but no range", "give min and max with the step", at="step")
        if forms == ["values"] and self.decimals is None and self.values:
            self.decimals = max(_decimals_of(v) for v in self.values)
        return self

    @property
    def kind(self) -> Literal["range", "values", "formula", "listed"]:
        if self.formula is not None:
            return "formula"
        if self.values is not None:
            return "values"
        return "range" if self.min is not None else "listed"


def _decimals_of(value: float) -> int:
    text = f"{value:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


class _CalculatedBase(QuestionBase):
    variables: list[Variable] = Field(default_factory=no_items)
    constraints: list[str] = Field(default_factory=no_items, description="Conditions every set meets: 'b^2 - 4*a*c >= 0'.")
    sets: int | list[dict[VariableName, float]] = Field(
        DEFAULT_SETS, description=f"How many sets of values to generate (1 to {MAX_SETS}), or the sets themselves.")

    @model_validator(mode="after")
    def _variables_and_sets(self) -> "_CalculatedBase":
        names = [v.name for v in self.variables]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise Problem(f"variable {dupes[0]} is defined twice", "give each variable one definition", at="variables")
        if isinstance(self.sets, int):
            if not 1 <= self.sets <= MAX_SETS:
                raise Problem(f"a question generates 1 to {MAX_SETS} sets, not {self.sets}",
                              f"give sets a number from 1 to {MAX_SETS}", at="sets")
            listed = [v.name for v in self.variables if v.kind == "listed"]
            if listed:
                raise Problem(f"variable '{listed[0]}' has no values: give it a range, values or a formula, or list the sets",
                              "write min and max, values, or a formula for it", at="variables")
        else:
            if not 1 <= len(self.sets) <= MAX_SETS:
                raise Problem(f"a question lists 1 to {MAX_SETS} sets, not {len(self.sets)}", "list fewer sets", at="sets")
            keys = list(dict.fromkeys(k for s in self.sets for k in s))
            for name in keys:  # a variable named only in the sets is declared by them
                if name not in names:
                    self.variables.append(Variable.model_validate({"name": name}))
                    names.append(name)
            by_name = {v.name: v for v in self.variables}
            for k, values in enumerate(self.sets):
                missing = [n for n in keys if n not in values]
                if missing:
                    raise Problem(f"set {k + 1} has no value for {missing[0]}", "give every set a value for every listed variable",
                                  at="sets")
            for name in keys:
                variable = by_name[name]
                if variable.kind not in ("listed",):
                    # Its own values in words: "has a values" read as a slip.
                    own = {"values": "list of values"}.get(variable.kind, variable.kind)
                    raise Problem(f"variable '{name}' has a {own} and values in the listed sets",
                                  "take its values either from the sets or from its definition", at="variables")
                if variable.decimals is None:
                    variable.decimals = max(_decimals_of(s[name]) for s in self.sets)
            unlisted = [v.name for v in self.variables if v.kind == "listed" and v.name not in keys]
            if unlisted:
                raise Problem(f"variable '{unlisted[0]}' has no values in the listed sets",
                              "add it to every set, or give it a formula", at="variables")
            others = [v.name for v in self.variables if v.kind in ("range", "values")]
            if others:
                raise Problem(f"variable '{others[0]}' is drawn at random, but the question lists its sets",
                              "list its value in every set, or make it a formula of the listed variables", at="variables")
        if not self.variables:
            raise Problem("a calculated question needs variables", "define at least one variable", at="variables")
        return self

    def variable(self, name: str) -> Variable | None:
        return next((v for v in self.variables if v.name == name), None)


class CalculatedQuestion(_CalculatedBase):
    """A number computed from the variables by a formula, within a tolerance."""

    type: Literal["calculated"] = "calculated"
    answer: str = Field(min_length=1, description="The answer's formula: 'd / t'.")
    tolerance: float = Field(0, ge=0)
    tolerance_mode: Literal["absolute", "percent"] = "absolute"
    decimals: int | None = Field(None, ge=0, le=10, description="The correct answer is shown with this many decimals (default 2).")
    figures: int | None = Field(None, ge=1, le=10, description="...or with this many significant figures.")
    #: Shown after the answer box; answers are in this unit.
    unit: str | None = None

    @model_validator(mode="after")
    def _display(self) -> "CalculatedQuestion":
        if self.decimals is not None and self.figures is not None:
            raise Problem("the answer has both decimals and figures", "show the answer with decimals or with significant figures",
                          at="figures")
        if self.tolerance_mode == "percent" and self.tolerance >= 100:
            raise Problem(f"a tolerance of {self.tolerance:g} % accepts every number of the answer's sign",
                          "give a tolerance under 100 %", at="tolerance")
        return self

    @property
    def display(self) -> tuple[Literal["decimals", "figures"], int]:
        """How the correct answer is shown: ("decimals", n) or ("figures", n)."""
        if self.figures is not None:
            return "figures", self.figures
        return "decimals", 2 if self.decimals is None else self.decimals


class CalculatedChoiceQuestion(_CalculatedBase, _ChoiceQuestionBase):
    """Options whose texts show values computed from the variables (``{=a + b}``); one is correct."""

    type: Literal["calculated_choice"] = "calculated_choice"
    decimals: int = Field(2, ge=0, le=10, description="Decimals of a {=formula} without its own ':N'.")

    @model_validator(mode="after")
    def _exactly_one_correct(self) -> "CalculatedChoiceQuestion":
        n = sum(c.correct for c in self.choices)
        if n != 1:
            raise Problem(f"a calculated choice question needs exactly one correct option, found {n}",
                          "mark the right option with 'correct: true' ('Answer: B' in Markdown)", at="choices")
        return self


__all__ = ["CalculatedChoiceQuestion", "CalculatedQuestion", "Choice", "PLACEHOLDER", "Variable", "VariableName"]
