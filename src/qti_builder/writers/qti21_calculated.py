"""QTI 2.1 items of calculated questions: item templates whose template processing draws a set.

With the quiz setting ``qti_variants`` (``--qti-variants N``), for QTI players that run no item
templates, a calculated question is instead N fixed items (:func:`fixed_variants`), one per set
(its first sets): a numerical item showing that set's values (calculated) or a single-choice one
(calculated choice), which the assessmentTest puts in a section of their own that draws one.

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

from lxml import etree

from .. import content
from ..content import MATHML_NS
from ..diagnostics import DiagnosticSink, SourceSpan
from ..formulas import parse, renamed, to_source
from ..model import NumericAnswer, NumericalQuestion, Quiz, SingleChoiceQuestion
from ..model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from ..model.questions import QuestionBase
from ..model.union import Question
from ..readers import SourceMap
from ..readers.source_map import question_locs
from ..parametric import Shown, Variants, fill_by_place, filled_question, fmt, variants
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


def _filled(text: str, v: Variants, in_math: set[str]) -> str:
    """``text`` with each placeholder as the item template's marker: ``[[a]]`` in text, put back as
    printedVariable by the template, and inside a formula ``\\text{[[a]]}``, one ``<mtext>`` that
    the template makes the ``<mi>a</mi>`` of a mathVariable (the math_variables filter); the names
    of the latter are added to ``in_math``."""
    def math_marker(shown: Shown) -> str:
        in_math.add(qti_name(shown))
        return f"\\text{{[[{qti_name(shown)}]]}}"

    return fill_by_place(text, v, lambda shown: f"[[{qti_name(shown)}]]", math_marker)


def calculated_context(quiz: Quiz, q: CalculatedQuestion | CalculatedChoiceQuestion) -> dict[str, Any]:
    v = variants(quiz.id, q)
    in_math: set[str] = set()

    def fill(text: str) -> str:
        return _filled(text, v, in_math)

    texts = q.feedback.model_dump()
    # An item shows general, correct and incorrect feedback only.
    fb = {name: fill(text) if text and name in ("general", "correct", "incorrect") else None for name, text in texts.items()}
    shown: list[dict[str, Any]] = [{"id": qti_name(s), "format": f"%.{s.decimals}f" if s.decimals is not None else None,
              "values": [t[s.name] for t in v.texts]} for s in v.shown.values()]
    # The variables the texts do not show are set too: with the formula (below) they say how
    # each set's answer is made.
    unshown = [name for name in v.order if name not in {s.name for s in v.shown.values()}]
    shown += [{"id": _unshown_name(name), "format": None, "values": [fmt(values[name], v.decimals[name]) for values in v.sets]}
              for name in unshown]
    context: dict[str, Any] = {
        "stem": fill(q.stem),
        "passage": fill(q.passage) if q.passage else None,
        "template_variables": shown,
        "formats": {s["id"]: s["format"] for s in shown},
        "set_count": len(v.sets),
    }
    if isinstance(q, CalculatedQuestion):
        context.update(answers=[{"answer": number(a, 10), "lower": number(low, 10), "upper": number(high, 10)}
                                for a, (low, high) in zip(v.answers, v.bounds)],
                       unit=q.unit, shown_answer=v.correct_texts[0], formula=_interpretation(q, v))
    else:
        context["choices"] = [{"id": c.id, "text": fill(c.text), "fixed": c.fixed} for c in q.choices]
        context["correct_ids"] = [c.id for c in q.choices if c.correct]
        context["choice_feedbacks"] = [{"choice": c.id, "id": f"{c.id}_fb"} for c in q.choices if c.feedback]
        context["extra_feedbacks"] = [{"id": f"{c.id}_fb", "text": fill(c.feedback), "shown": True}
                                      for c in q.choices if c.feedback]
    context["fb"] = fb
    # mathVariable only where a formula holds the placeholder: a player puts the value in place of
    # every <mi> of that name (check_math_variables refuses the same name as a symbol).
    for variable in shown:
        variable["math"] = variable["id"] in in_math
    return context


def _item_texts(q: CalculatedQuestion | CalculatedChoiceQuestion) -> list[tuple[tuple[str | int, ...], str]]:
    """The texts an item template shows (calculated_context), with their path in the question."""
    texts: list[tuple[tuple[str | int, ...], str | None]] = [(("passage",), q.passage), (("stem",), q.stem)]
    texts += [(("feedback", k), getattr(q.feedback, k)) for k in ("general", "correct", "incorrect")]
    if isinstance(q, CalculatedChoiceQuestion):
        for n, c in enumerate(q.choices):
            texts += [(("choices", n, "text"), c.text), (("choices", n, "feedback"), c.feedback)]
    return [(loc, text) for loc, text in texts if text]


def check_math_variables(quiz: Quiz, source: SourceMap, sink: DiagnosticSink) -> None:
    """Where a QTI 2.1 package is built: a variable whose placeholder stands inside a formula is a
    ``mathVariable``, whose value a player puts in place of every MathML ``<mi>`` of its name in
    the item, so a formula of the same item that also has that name as a symbol (``$a^2$`` beside
    ``${a}x$``) would show the value there too: an error at that formula (QB158)."""
    if quiz.settings.qti_variants:
        return  # fixed items show the values written into their formulas: no item template
    locs: dict[str, tuple[str | int, ...]] | None = None
    for q in quiz.iter_questions():
        if not isinstance(q, (CalculatedQuestion, CalculatedChoiceQuestion)):
            continue
        v = variants(quiz.id, q)
        if not v.ok:
            continue  # check_calculated reports why
        in_math: set[str] = set()
        texts = [(loc, text, _filled(text, v, in_math)) for loc, text in _item_texts(q)]
        if not in_math:
            continue
        if locs is None:
            locs = question_locs(quiz)
        for loc, text, filled in texts:
            cursor = 0
            for written, tex in zip(content.math_texts(text), content.math_texts(filled)):
                offset = text.find(written, cursor)
                cursor = offset + len(written) if offset >= 0 else cursor
                try:
                    math = etree.fromstring(content.mathml(tex))
                except Exception:  # noqa: BLE001 - QB152 reports a formula that cannot be converted
                    continue
                symbols = {(e.text or "").strip() for e in math.iter(f"{{{MATHML_NS}}}mi", f"{{{MATHML_NS}}}ci")}
                for name in sorted(symbols & in_math):
                    field = locs[q.id] + loc
                    start = source.locate(field)
                    span = source.text_position(field, text, offset) if field in source.positions and offset >= 0 else start
                    sink.error("QB158", f"question '{q.id}': the formula '{written}' has the symbol {name}, and "
                               f"{{{name}}} stands inside a formula of the question: a QTI 2.1 player puts the value "
                               f"of {name} in place of both (its mathVariable), so students would see a number "
                               "where the symbol was meant", span,
                               hint=f"rename the variable (such as {name} to {name}1, in its placeholders, the answer "
                                    "and the variables block), or move the placeholder out of the formula")


# -- fixed variants (qti_variants) ---------------------------------------------------------------


def variant_id(question: QuestionBase, n: int) -> str:
    """The name of a question's n-th fixed variant (1-based): its item file and identifier."""
    return f"{question.id}.v{n}"


def variant_count(quiz: Quiz, question: Question) -> int:
    """How many fixed items the quiz setting ``qti_variants`` makes of ``question``: 0 for an
    item template (or a question of another kind), else that many, or all its sets if fewer."""
    wanted = quiz.settings.qti_variants
    if not wanted or not isinstance(question, (CalculatedQuestion, CalculatedChoiceQuestion)):
        return 0
    return min(wanted, len(variants(quiz.id, question).sets))


def fixed_variants(quiz: Quiz, question: Question) -> list[NumericalQuestion | SingleChoiceQuestion]:
    """``question`` as the fixed items the quiz setting ``qti_variants`` asks for: one per set, its
    first ``qti_variants`` sets (all of them when it has fewer), each with that set's values in its
    texts and named :func:`variant_id`. A calculated question's variant is a numerical question
    whose one answer is the set's answer with the question's tolerance, so it accepts exactly what
    the item template accepts for that set; a calculated choice question's is a single-choice
    question. [] for any other question, or when the setting asks for item templates."""
    if not variant_count(quiz, question):
        return []
    assert isinstance(question, (CalculatedQuestion, CalculatedChoiceQuestion))
    v = variants(quiz.id, question)
    fixed: list[NumericalQuestion | SingleChoiceQuestion] = []
    for n in range(variant_count(quiz, question)):
        shown = filled_question(question, v, v.shown_in_set(n))
        common = {name: getattr(shown, name) for name in QuestionBase.model_fields}
        # The item template shows general, correct and incorrect feedback only (calculated_context).
        common["feedback"] = shown.feedback.model_copy(update={"partially_correct": None})
        variant: NumericalQuestion | SingleChoiceQuestion
        if isinstance(shown, CalculatedQuestion):
            answer = NumericAnswer(value=v.answers[n], tolerance=shown.tolerance, tolerance_mode=shown.tolerance_mode, score=100)
            variant = NumericalQuestion(**common, answers=[answer], unit=shown.unit)
        else:
            variant = SingleChoiceQuestion(**common, choices=shown.choices, shuffle=shown.shuffle, numbering=shown.numbering)
        # Named after validation: "<id>.vN" may be longer than the 64 characters of a source's ids.
        fixed.append(variant.model_copy(update={"id": variant_id(question, n + 1)}))
    return fixed


def check_variant_names(quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> None:
    """A fixed variant's name must not be the id of another question or section: their item files
    and identifiers would be the same (QB306)."""
    taken = {s.id for _, s in quiz.iter_sections()} | {q.id for q in quiz.iter_questions()}
    for question in quiz.iter_questions():
        for name in (variant_id(question, n) for n in range(1, variant_count(quiz, question) + 1)):
            if name in taken:
                sink.error("QB306", f"the QTI 2.1 package would name a fixed variant of question '{question.id}' "
                           f"'{name}', which is the id of another question or section", spans.get(question.id),
                           hint=f"give '{name}' another id, or leave out the setting qti_variants (--qti-variants 0)")


__all__ = ["Variants", "calculated_context", "check_math_variables", "check_variant_names", "fixed_variants", "qti_name", "variant_count", "variant_id"]
