"""Moodle XML of calculated questions: qtype_calculated and qtype_calculatedmulti, with datasets.

As Moodle's own export writes them (question/format/xml/format.php, ``import_calculated``):
the texts show values as ``{x}`` wildcards; the answer is the formula in Moodle's syntax
(:func:`..formulas.to_moodle`) with its tolerance (``tolerancetype`` 1 relative, 2 nominal, that is
absolute), and how the correct answer is shown (``correctanswerformat`` 1 decimals, 2 significant
figures, ``correctanswerlength``); one ``dataset_definition`` per wildcard, private or shared as the
source says, holding every set as a ``dataset_item``, so Moodle draws from exactly the sets every
other output has. A value shown with other decimals than its variable's (``{x:2}``) or computed
in a text (``{=d/t}``) is a wildcard of its own whose items hold the values as shown. In a
calculated choice question (calculatedmulti) an option's ``{=formula}`` is written as Moodle's own
``{=...}``, which Moodle computes for the drawn set.

Moodle checks every formula before it stores the question, and one it refuses stops the import of
the whole file: the texts written here are checked as Moodle checks them
(:func:`..formulas.moodle_text_formula_errors`), and a ``{=...}`` that Moodle would refuse (text
that is no placeholder of the question, ``{=a:b}``) stops the Moodle output with ``QB325``, rather
than a file Moodle refuses. A build finds those of the source's texts first, at their own place
(:func:`..checks.check_moodle_formulas`); the check here, at the question, is the last line.
"""

from __future__ import annotations

from typing import Any

from ..checks import MARKDOWN_ESCAPE, MOODLE_FORMULA_ERROR
from ..formulas import moodle_formula_error, moodle_text_formula_errors, parse, plain_decimal, to_moodle
from ..model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from ..parametric import Shown, Variants, fill, fill_by_place, filled_question, fmt, markdown_escape, variants
from .base import text_shown

#: A ``{=...}`` of a calculated question's text, feedback or answer that Moodle refuses.
FORMULA_ERROR = MOODLE_FORMULA_ERROR

#: Moodle's tolerance types (question/type/numerical: 1 relative, 2 nominal, 3 geometric) and
#: answer formats (1 decimals, 2 significant figures).
TOLERANCE_TYPES = {"percent": "1", "absolute": "2"}
ANSWER_FORMATS = {"decimals": "1", "figures": "2"}


def _wildcard(shown: Shown) -> str:
    return markdown_escape("{" + shown.name + "}")


def _wildcard_in_math(shown: Shown) -> str:
    """A wildcard inside a formula (``${a}x$``): Markdown keeps a formula's text as written, so an
    escape there would reach Moodle's text (and its formula check) as a backslash."""
    return "{" + shown.name + "}"


def _filled(q: Any, v: Variants) -> dict[str, Any]:
    """The question with every placeholder of its texts (stem, passage, feedback) a wildcard, and
    the question text Moodle shows (passage and stem) made of them."""
    filled = filled_question(q, v, _wildcard, _wildcard_in_math)
    return {"question": filled, "questiontext": text_shown(filled)}


def _refused(ctx: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry``, after reporting each formula of its texts and answers that Moodle refuses (the
    question is then not written)."""
    q = entry["question"]
    texts = [("the question text", entry["questiontext"]), ("the general feedback", q.feedback.general)]
    texts += [(f"the {k.replace('_', ' ')} feedback", getattr(q.feedback, k)) for k in ("correct", "partially_correct", "incorrect")]
    texts += [(f"answer {n}'s text", a["text"]) for n, a in enumerate(entry["answers"], 1) if entry["qtype"] == "calculatedmulti"]
    # A calculated question's one answer shows the correct feedback (checked above): said once.
    texts += [(f"answer {n}'s feedback", a["feedback"]) for n, a in enumerate(entry["answers"], 1) if entry["qtype"] == "calculatedmulti"]
    # The texts are Markdown: its escapes (the wildcards' "\\*") are gone once rendered.
    problems = [f"{where} holds {shown}: {why}" for where, text in texts if text
                for shown, why in moodle_text_formula_errors(MARKDOWN_ESCAPE.sub(r"\1", text))]
    if entry["qtype"] == "calculated":
        problems += [f"the answer '{a['text']}': {why}" for a in entry["answers"] if (why := moodle_formula_error(a["text"]))]
    for problem in problems:
        ctx.ok = False
        ctx.sink.error(FORMULA_ERROR, f"Moodle refuses a formula of question '{q.id}' (and with it the whole file): {problem}",
                       ctx.span, hint="write a computed value as a placeholder of the question's variables, {=a * b}; "
                                      "text in braces that starts with '=' is read by Moodle as a formula")
    return entry


def _datasets(q: Any, v: Variants, names: list[str]) -> list[dict[str, Any]]:
    shown = {s.name: s for s in v.shown.values()}
    datasets = []
    for name in names:
        variable = q.variable(name)
        if name in shown and not shown[name].plain:
            decimals, items = shown[name].decimals, [t[name] for t in v.texts]
        else:
            decimals = v.decimals[name]
            items = [fmt(values[name], decimals) for values in v.sets]
        numbers = [float(i) for i in items]
        low, high = (variable.min, variable.max) if variable is not None and variable.kind == "range" else (min(numbers), max(numbers))
        places = decimals if decimals is not None else max((len(i.split(".")[1]) for i in items if "." in i), default=0)
        datasets.append({"name": name, "status": "shared" if variable is not None and variable.shared else "private",
                         "min": plain_decimal(low), "max": plain_decimal(high), "decimals": places, "items": items})
    return datasets


def _used(v: Variants, formulas: list[str], places: tuple[str, ...]) -> list[str]:
    """The wildcards Moodle needs: every variable a formula uses, and every value a text shows."""
    names = [u for text in formulas for u in _variables_of(text)]
    names += [s.name for s in v.shown.values() if s.places & set(places)]
    return [n for n in dict.fromkeys(names)]


def _variables_of(formula: str) -> list[str]:
    from ..formulas import variables
    return variables(parse(formula))


def calculated(ctx: Any, q: CalculatedQuestion) -> dict[str, Any]:
    v = variants(ctx.quiz.id, q)
    how, digits = q.display
    tolerance = q.tolerance / 100 if q.tolerance_mode == "percent" else q.tolerance
    answer = {"text": to_moodle(parse(q.answer)), "fraction": "100", "tolerance": plain_decimal(f"{tolerance:.12g}"),
              "tolerancetype": TOLERANCE_TYPES[q.tolerance_mode], "correctanswerformat": ANSWER_FORMATS[how],
              "correctanswerlength": digits,
              # Moodle shows a calculated question the feedback of the answer it matches (as a
              # numerical one): no correct/incorrect feedback of its own.
              "feedback": fill_by_place(q.feedback.correct, v, _wildcard, _wildcard_in_math) if q.feedback.correct else None}
    return _refused(ctx, {
        **_filled(q, v),
        "qtype": "calculated",
        "answers": [answer],
        "units": [{"name": q.unit, "multiplier": "1"}] if q.unit else [],
        "showunits": 0 if q.unit else 3,  # 0: the unit is optional; 3: no unit field
        "datasets": _datasets(q, v, _used(v, [q.answer], ("text",))),
    })


def calculated_choice(ctx: Any, q: CalculatedChoiceQuestion) -> dict[str, Any]:
    v = variants(ctx.quiz.id, q)
    answers = []
    #: The values an option shows as wildcards (a plain value, or a computed one in an option
    #: that is not Moodle's own {=...}): each needs its dataset.
    wildcards: list[str] = []
    for choice in q.choices:
        native = [s for s in v.shown.values() if "{" + s.key + "}" in choice.text and s.key.startswith("=")]
        lengths = {s.decimals for s in native}
        # One option shows its {=...} with one format: Moodle's own when they agree, else wildcards.
        own = len(lengths) == 1

        def in_math(shown: Shown, own: bool = own) -> str:
            """Moodle's own ``{=...}`` (or the wildcard) as Moodle reads it: inside a formula as
            written, outside escaped for Markdown (:func:`_wildcard_in_math`)."""
            if own and shown.key.startswith("="):
                return "{=" + to_moodle(shown.node) + "}"
            wildcards.append(shown.name)
            return _wildcard_in_math(shown)

        def render(shown: Shown) -> str:
            return markdown_escape(in_math(shown))

        answers.append({"text": fill_by_place(choice.text, v, render, in_math), "fraction": "100" if choice.correct else "0",
                        "feedback": fill_by_place(choice.feedback, v, _wildcard, _wildcard_in_math) if choice.feedback else None,
                        "tolerance": "0", "tolerancetype": "1", "correctanswerformat": "1",
                        "correctanswerlength": lengths.pop() if own else q.decimals})
    in_options = [s.name for s in v.shown.values() if "option" in s.places and not s.key.startswith("=")]
    formulas = [s.key[1:] for s in v.shown.values() if s.key.startswith("=") and "option" in s.places]
    names = list(dict.fromkeys(_used(v, [f.rsplit(":", 1)[0] for f in formulas], ("text",)) + in_options + wildcards))
    return _refused(ctx, {
        **_filled(q, v),
        "qtype": "calculatedmulti",
        "answers": answers,
        "shuffle": "true" if q.shuffle else "false",
        "datasets": _datasets(q, v, names),
    })


__all__ = ["calculated", "calculated_choice"]
