"""QTI 2.1 items of calculated questions: item templates whose template processing draws a set.

The sets are made at build time (:mod:`..parametric`), so every player gets the same ones and
the item needs no formula language of its own: template processing draws a set number
(``randomInteger``) and, in one ``templateCondition`` branch per set, sets every value the texts
show, the answer and the bounds the tolerance accepts (``setTemplateValue``); the correct response
is the set's answer (``setCorrectResponse``), whose formula and tolerance the response
declaration's correct response states as its ``interpretation``, as the source's answer line
does (``d / t ± 1%``: so that the item says how its answers are made, and an import gets them
back). The texts show the values with ``printedVariable``
(with the ``format`` of their decimals), response processing accepts a response between the
set's bounds. The constraints were checked on every set at build time, so no
``templateConstraint`` is needed.
"""

from __future__ import annotations

from typing import Any

from ..model import Quiz
from ..model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from ..formulas import parse, renamed, to_source
from ..parametric import Shown, Variants, fill, fmt, variants
from ..templating import number

#: Identifiers this item declares itself; a variable with one of these names gets another.
RESERVED = {"RESPONSE", "SCORE", "MAXSCORE", "FEEDBACK", "completionStatus", "numAttempts", "duration",
            "SET", "ANSWER", "LOWER", "UPPER"}


def qti_name(shown: Shown) -> str:
    return _unshown_name(shown.name)


def _interpretation(q: CalculatedQuestion, v: Variants) -> str:
    """How the answer is made, as the source's answer line says it: ``d / t ± 1%``."""
    formula = to_source(renamed(parse(q.answer), {n: _unshown_name(n) for n in v.order}))
    return f"{formula} ± {number(q.tolerance, 10)}{'%' if q.tolerance_mode == 'percent' else ''}"


def _unshown_name(name: str) -> str:
    return name + "_value" if name in RESERVED else name


def calculated_context(quiz: Quiz, q: CalculatedQuestion | CalculatedChoiceQuestion) -> dict[str, Any]:
    v = variants(quiz.id, q)
    marker = lambda shown: f"[[{qti_name(shown)}]]"  # noqa: E731 - put back as printedVariable by the template
    texts = q.feedback.model_dump()
    fb = {name: fill(text, v, marker) if text else None for name, text in texts.items()}
    shown = [{"id": qti_name(s), "format": f"%.{s.decimals}f" if s.decimals is not None else None,
              "values": [t[s.name] for t in v.texts]} for s in v.shown.values()]
    # The variables the texts do not show are set too: with the formula (below) they say how
    # each set's answer is made.
    unshown = [name for name in v.order if name not in {s.name for s in v.shown.values()}]
    shown += [{"id": _unshown_name(name), "format": None, "values": [fmt(values[name], v.decimals[name]) for values in v.sets]}
              for name in unshown]
    context: dict[str, Any] = {
        "stem": fill(q.stem, v, marker),
        "template_variables": shown,
        "formats": {s["id"]: s["format"] for s in shown},
        "set_count": len(v.sets),
    }
    if isinstance(q, CalculatedQuestion):
        context.update(answers=[{"answer": number(a, 10), "lower": number(low, 10), "upper": number(high, 10)}
                                for a, (low, high) in zip(v.answers, v.bounds)],
                       unit=q.unit, shown_answer=v.correct_texts[0], formula=_interpretation(q, v))
        fb = {name: text if name in ("general", "correct", "incorrect") else None for name, text in fb.items()}
    else:
        context["choices"] = [{"id": c.id, "text": fill(c.text, v, marker), "fixed": c.fixed} for c in q.choices]
        context["correct_ids"] = [c.id for c in q.choices if c.correct]
        context["choice_feedbacks"] = [{"choice": c.id, "id": f"{c.id}_fb"} for c in q.choices if c.feedback]
        context["extra_feedbacks"] = [{"id": f"{c.id}_fb", "text": fill(c.feedback, v, marker), "shown": True}
                                      for c in q.choices if c.feedback]
        fb = {name: text if name in ("general", "correct", "incorrect") else None for name, text in fb.items()}
    context["fb"] = fb
    return context


__all__ = ["Variants", "calculated_context", "qti_name"]
