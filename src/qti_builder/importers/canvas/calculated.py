"""Canvas's formula questions (``calculated_question``; New Quizzes' formula questions, Blackboard's
and WebCT's calculated ones as Canvas reads them) as calculated sources.

The question as Canvas's converter reads it (``calculated_interaction.rb``; Instructure's qti gem
reads New Quizzes' the same way): ``itemproc_extension/calculated`` holds the tolerance
(``answer_tolerance``, relative when it ends in ``%``), the formula lines with the answer's
decimals (``formulas decimal_places``), the variables (``vars/var`` with ``scale``, their
decimals) and the sets Canvas grades against (``var_sets/var_set``: each variable's value and the
set's answer). The question text shows a variable as ``[x]``.

The sets become the source's listed sets (Canvas never draws new ones: it grades against these),
``[x]`` the placeholder ``{x}``, the formula the answer's formula in the source's language
(:mod:`.calculator`), the scale each variable's decimals. The formula is checked against the
file's own answers; where it cannot be read, or gives another answer for a set, the answers are
kept as a listed variable of their own and the warning says why, so every set is still graded as
Canvas grades it.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from ...plurals import plural
from ..base import INVALID, UNSUPPORTED
from ..calculated import (Unconvertible, computed_answers, decimals_of, describe, first_mismatch, fresh_name, kept_sets,
                          problem, renamings, too_tight, variable_names)
from .calculator import formula_lines
from .context import ItemContext
from .xml import Data, _float, child, children, descendants

#: ``[x]`` in a question's text (D2L writes ``{x}``, which is the source's own form).
SHOWN = re.compile(r"\[([A-Za-z][A-Za-z0-9_.]*)\]")


def read_calculated(r: ItemContext, data: Data) -> bool | None:
    calculated = next(iter(descendants(r.item, "calculated")), None)
    var_sets = descendants(calculated, "var_set") if calculated is not None else []
    if calculated is None or not var_sets:
        r.skip(INVALID, "the formula question has no variable set to take an answer from; skipped")
        return False
    vars_element = child(calculated, "vars")
    declared = {(v.get("name") or "").strip(): v for v in children(vars_element, "var")} if vars_element is not None else {}
    listed = [{(v.get("name") or "").strip(): (v.text or "").strip() for v in children(s, "var") if v.get("name")}
              for s in var_sets]
    names = [n for n in dict.fromkeys([*declared, *(n for s in listed for n in s)]) if n]
    renamed = variable_names(names)
    r.lost.extend(renamings(renamed))

    sets: list[dict[str, float]] = []
    answers: list[float | None] = []
    answer_texts: list[str] = []
    for k, (values, element) in enumerate(zip(listed, var_sets), 1):
        numbers = {renamed[n]: _float(values.get(n)) for n in names}
        missing = [n for n, v in numbers.items() if v is None]
        if missing:
            r.lost.append(f"variable set {k}, which has no value for {', '.join(missing)}")
            continue
        sets.append({n: v for n, v in numbers.items() if v is not None})
        answers.append(_float(_text(child(element, "answer"))))
        answer_texts.append(_text(child(element, "answer")))
    if not sets:
        r.skip(INVALID, "the formula question has no complete variable set; skipped")
        return False
    sets = kept_sets(sets, r.lost)
    answers, answer_texts = answers[:len(sets)], answer_texts[:len(sets)]

    variables: list[Data] = []
    for name in names:
        scale = _int(declared[name].get("scale")) if name in declared else None
        written = max(decimals_of(values.get(name, "")) for values in listed)
        variables.append({"name": renamed[name], "decimals": max(scale or 0, written)})

    tolerance_text = _text(child(calculated, "answer_tolerance"))
    relative = tolerance_text.endswith("%")
    tolerance = abs(_float(tolerance_text.rstrip("%").strip()) or 0.0)
    formulas = child(calculated, "formulas")
    places = _int(formulas.get("decimal_places")) if formulas is not None else None
    lines = [_text(f) for f in descendants(formulas, "formula")] if formulas is not None else []
    if not lines:  # Canvas's converter: the first formula anywhere, URL-decoded
        lines = [unquote_plus(_text(f)) for f in descendants(calculated, "formula")][:1]
    lines = [re.sub(r"\{([A-Za-z][A-Za-z0-9_.]*)\}", r"\1", line) for line in lines if line]  # D2L's {x}

    data.update(type="calculated", variables=variables, sets=sets, tolerance=tolerance,
                tolerance_mode="percent" if relative else "absolute")
    if places is not None:
        data["decimals"] = min(places, 10)
    try:
        derived, answer = _formula(lines, renamed, sets, answers, data)
    except Unconvertible as exc:
        if any(a is None for a in answers):
            r.skip(UNSUPPORTED, f"{exc}, and not every variable set has an answer to keep instead; skipped")
            return False
        kept = fresh_name("answer", [v["name"] for v in variables])
        for one, value in zip(sets, answers):
            one[kept] = value or 0.0
        digits = max([places or 0] + [decimals_of(t) for t in answer_texts])
        variables.append({"name": kept, "decimals": digits})
        derived, answer = {}, kept
        data["decimals"] = min(digits, 10)
        r.lost.append(f"{exc}: the file's answers of its {plural(len(sets), 'variable set')} are kept instead, as the "
                      f"variable '{kept}'")
    variables += [{"name": name, "formula": formula} for name, formula in derived.items()]
    data["answer"] = answer
    if too_tight(data) and places is not None:  # Canvas's answers are rounded to the decimals it shows
        data["answer"] = f"round({answer}, {places})"
    found = problem(data)
    if found is not None:
        r.skip(UNSUPPORTED, f"{found[0]}; skipped")
        return False

    for mattext in descendants(r.item, "mattext"):  # the stem and the feedback show the values
        mattext.text = SHOWN.sub(lambda m: "{" + renamed[m.group(1)] + "}" if m.group(1) in renamed else m.group(0),
                                 mattext.text or "")
    data["stem"] = r.markdown(r.stem_material(), "the text")
    return None


def _formula(lines: list[str], renamed: dict[str, str], sets: list[dict[str, float]], answers: list[float | None],
             data: Data) -> tuple[dict[str, str], str]:
    """The formula's derived variables and answer, checked against every set's answer in the file."""
    if not lines:
        raise Unconvertible("the question has no formula")
    derived, answer = formula_lines(lines, renamed)
    computed = computed_answers(answer, derived, sets)
    tolerance, relative = data["tolerance"], data["tolerance_mode"] == "percent"
    rounding = 0.5 * 10 ** -data["decimals"] if "decimals" in data else 0.0
    slack = [max(abs(a or 0) * tolerance / 100 if relative else tolerance, rounding) for a in answers]
    mismatch = first_mismatch(computed, [a if a is not None else c or 0 for a, c in zip(answers, computed)], slack)
    if mismatch is not None:
        got = computed[mismatch]
        shown = "cannot be computed" if got is None else f"gives {got:.10g}"
        raise Unconvertible(f"the formula {' / '.join(lines)} {shown} for set {mismatch + 1} ({describe(sets[mismatch])}), "
                            f"where the file's answer is {answers[mismatch]:g}")
    return derived, answer


def _text(element: object) -> str:
    return (getattr(element, "text", None) or "").strip()


def _int(text: str | None) -> int | None:
    value = _float(text)
    return int(value) if value is not None and value >= 0 and value == int(value) else None


__all__ = ["read_calculated"]
