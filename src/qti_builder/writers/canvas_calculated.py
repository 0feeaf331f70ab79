"""Canvas package items of calculated questions.

A calculated question becomes Canvas's own ``calculated_question`` (as Canvas exports it:
canvas-lms ``lib/cc/qti/qti_items.rb``): the question text shows each value as ``[name]``, and an
``<itemproc_extension><calculated>`` holds the tolerance (``1%`` for a relative one), the formula
in Canvas's calculator syntax (:func:`..formulas.to_canvas`) with the answer's decimals, every
variable (name, decimals as ``scale``, the smallest and largest value) and every set with its
values and its answer. Canvas grades a student against the set drawn for them; it computes
answers from the formula only when a teacher generates new sets in its editor.

Canvas has no choice question with formulas in its options, so a calculated choice question
becomes a question group that draws one of N multiple-choice questions, one per set, each showing
that set's values (``check --profile canvas`` says so).
"""

from __future__ import annotations

import math
from typing import Any

from ..formulas import parse, plain_decimal, to_canvas
from ..model import Quiz
from ..model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from ..parametric import Shown, Variants, filled_question, fmt, variants
from .canvas_answers import FIRST_ANSWER

#: Set idents count up from here (numbers, as Canvas's own exports have).
FIRST_SET = 1001


def _names(v: Variants) -> list[tuple[str, int | None]]:
    """Every value Canvas needs by name: the variables (the formula may use any of them), then
    the values made for showing."""
    names = [(name, v.decimals[name]) for name in v.order]
    names += [(s.name, s.decimals) for s in v.shown.values() if not s.plain]
    return names


def _scale(v: Variants, name: str, decimals: int | None) -> int:
    if decimals is not None:
        return decimals
    texts = [fmt(values[name], None) for values in v.sets if name in values]
    return max((len(t.split(".")[1]) for t in texts if "." in t), default=0)


def calculated_context(quiz: Quiz, q: CalculatedQuestion) -> dict[str, Any]:
    v = variants(quiz.id, q)
    # [x] as character references: a backslash before '[' opens display math in the source's Markdown.
    shown_as = lambda s: f"&#91;{s.name}&#93;"  # noqa: E731
    # Inside a formula, Markdown reads nothing: the TeX holds [x] itself, in the equation image's
    # title, alt text and data-equation-content, where Canvas puts the set's value as it does in the
    # rest of the question text (its question builder replaces every [x] of the stored HTML).
    in_math: set[str] = set()

    def math_shown_as(shown: Shown) -> str:
        in_math.add(shown.name)
        return f"[{shown.name}]"

    filled = filled_question(q, v, shown_as, math_shown_as)
    names = _names(v)
    texts_by_name = {s.name: s for s in v.shown.values()}
    sets: list[dict[str, Any]] = []
    for n, values in enumerate(v.sets):
        shown = []
        for name, decimals in names:
            shown_value: Shown | None = texts_by_name.get(name)
            text = v.texts[n][name] if shown_value is not None else fmt(values[name], decimals)
            shown.append({"name": name, "value": text})
        sets.append({"ident": str(FIRST_SET + n), "values": shown, "answer": plain_decimal(f"{v.answers[n]:.10g}")})
    variables = []
    for name, decimals in names:
        column = [float(s["values"][i]["value"]) for s in sets for i, (other, _) in enumerate(names) if other == name]
        variables.append({"name": name, "scale": _scale(v, name, decimals),
                          "min": plain_decimal(min(column)), "max": plain_decimal(max(column))})
    how, digits = q.display
    if how == "figures":  # Canvas shows decimals only: as many as the smallest answer's figures need
        digits = max(max(0, digits - 1 - math.floor(math.log10(abs(a)))) if a else 0 for a in v.answers)
    tolerance = f"{plain_decimal(q.tolerance)}%" if q.tolerance_mode == "percent" else plain_decimal(q.tolerance)
    stem = filled.stem + (f"\n\n({q.unit})" if q.unit else "")
    return {"question_type": "calculated_question", "question": filled, "stem": stem,
            "answers": [{"ident": s["ident"], "text": s["answer"], "feedback": None} for s in sets],
            "formula": to_canvas(parse(q.answer)), "decimal_places": digits, "tolerance": tolerance,
            "variables": variables, "var_sets": sets, "math_placeholders": sorted(in_math)}


def calculated_choice_context(quiz: Quiz, q: CalculatedChoiceQuestion) -> dict[str, Any]:
    """One multiple-choice item per set, each with that set's values in its texts."""
    v = variants(quiz.id, q)
    items = []
    for n in range(len(v.sets)):
        filled = filled_question(q, v, v.shown_in_set(n))
        answers = [{"ident": str(FIRST_ANSWER + k), "text": c.text, "feedback": c.feedback, "correct": c.correct}
                   for k, c in enumerate(filled.choices)]
        items.append({"n": n + 1, "stem": filled.stem, "answers": answers,
                      "general_fb": filled.feedback.general, "correct_fb": filled.feedback.correct,
                      "incorrect_fb": filled.feedback.incorrect, "answer_ids": ",".join(a["ident"] for a in answers)})
    return {"question_type": "multiple_choice_question", "variants": items, "answers": []}


__all__ = ["calculated_choice_context", "calculated_context"]
