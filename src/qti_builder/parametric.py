"""The sets of values of calculated questions, made once and shared by every output and check.

:func:`variants` makes a question's sets: values drawn for its ranges and lists (seeded by the
quiz's and the question's ids, so the same source gives the same sets on every machine and in
every worker process), its derived values computed in order, the sets its conditions refuse
drawn again, or the author's own sets taken as listed; then the answer (or each option's text)
of every set, and the text of every placeholder (``{x}``, ``{x:2}``, ``{=formula}``) that the
question's texts show. Every problem becomes a :class:`Finding` at the formula, variable or
condition it comes from; :func:`check_calculated` reports them at their place in the source.

Writers read a :class:`Variants` and write it their own way: Moodle's datasets, Canvas's var
sets, QTI 2.1 template variables (:func:`fill` puts each target's own markers in the texts).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from . import formulas as F
from .diagnostics import DiagnosticSink, SourceSpan
from .model import Quiz
from .model.common import iter_markdown
from .model.parametric import PLACEHOLDER, CalculatedChoiceQuestion, CalculatedQuestion, _CalculatedBase
from .readers import SourceMap
from .readers.source_map import question_locs

#: How many draws a question may take per set it needs, before its conditions count as refusing
#: (nearly) every set.
TRIES_PER_SET = 500

#: Diagnostic codes (docs: codes.py). QB210: a formula that cannot be read; QB211: a name that is
#: neither a variable nor known; QB212: a formula that cannot be computed for a set; QB213: a
#: condition no set (or not enough sets) meets; QB214: an answer whose shown value its tolerance
#: does not accept; QB215: options that show the same text; QB216 (warning): fewer distinct sets
#: than asked.
SYNTAX, UNKNOWN, COMPUTE, CONDITION, TOLERANCE, SAME_OPTIONS, FEW_SETS = (
    "QB210", "QB211", "QB212", "QB213", "QB214", "QB215", "QB216")

Calculated = CalculatedQuestion | CalculatedChoiceQuestion


@dataclass(frozen=True)
class Finding:
    """A problem of a question's formulas or sets: ``loc`` is the field it comes from (relative
    to the question), ``column`` the place in that field's text."""

    code: str
    message: str
    hint: str
    loc: tuple[str | int, ...]
    column: int | None = None
    warning: bool = False


@dataclass(frozen=True)
class Shown:
    """A value that the question's texts show: a variable (``{x}``), or a value made for showing
    (``{x:2}``, ``{=d/t}``) under its own ``name`` in the LMSs that need one."""

    key: str  # the placeholder as written, without its braces: "x", "x:2", "=d / t:1"
    name: str
    node: F.Node
    decimals: int | None
    #: A variable of the question shown as it is (plain ``{x}``).
    plain: bool
    #: Where it is shown: "text" (question text, feedback) and/or "option" (an option's text).
    places: frozenset[str] = frozenset()


@dataclass
class Variants:
    question: Calculated
    #: Every variable in the order its values are made (drawn or listed, then derived).
    order: list[str] = field(default_factory=list)
    decimals: dict[str, int | None] = field(default_factory=dict)
    #: Each set's value of every variable (derived ones rounded to their decimals).
    sets: list[dict[str, float]] = field(default_factory=list)
    shown: dict[str, Shown] = field(default_factory=dict)
    #: Each set's text of every shown value, by its name.
    texts: list[dict[str, str]] = field(default_factory=list)
    #: Calculated: each set's answer, the answer as shown, and the bounds it accepts.
    answers: list[float] = field(default_factory=list)
    correct_texts: list[str] = field(default_factory=list)
    bounds: list[tuple[float, float]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(not f.warning for f in self.findings)

    def values(self, index: int) -> dict[str, float]:
        return self.sets[index]

    def range_of(self, name: str) -> tuple[float, float]:
        """The smallest and largest value ``name`` takes over the sets."""
        values = [s[name] for s in self.sets if name in s]
        return (min(values), max(values)) if values else (0.0, 0.0)

    def shown_in_set(self, index: int) -> Callable[[Shown], str]:
        """Renders a placeholder as set ``index`` shows it, in Markdown (for :func:`fill` and
        :func:`filled_question`): the value's text, escaped."""
        return lambda shown: markdown_escape(self.texts[index][shown.name])

    def text(self, index: int, markdown: str) -> str:
        """``markdown`` with its placeholders replaced by set ``index``'s values (the preview)."""
        return fill(markdown, self, lambda shown: self.texts[index][shown.name])


# -- making the sets ---------------------------------------------------------------------------

_CACHE: dict[tuple[str, str], Variants] = {}


def variants(quiz_id: str, question: Calculated) -> Variants:
    """The question's sets and shown values (made once per process for each question)."""
    key = (quiz_id, question.model_dump_json())
    if key not in _CACHE:
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = _make(quiz_id, question)
    return _CACHE[key]


class _Stop(Exception):
    """A finding that leaves nothing further to compute."""


def _make(quiz_id: str, q: Calculated) -> Variants:
    v = Variants(q)
    try:
        nodes = _parse_all(q, v)
        v.order = _order(q, nodes, v)
        for variable in q.variables:
            v.decimals[variable.name] = _decimals(variable)
        constraints = [(k, node) for k, node in nodes.items() if k[0] == "constraints"]
        _draw(quiz_id, q, nodes, constraints, v)
        _collect_shown(q, v)
        _compute_texts(v)
        if isinstance(q, CalculatedQuestion):
            _compute_answers(q, nodes[("answer",)], v)
        else:
            _check_options(q, v)
    except _Stop:
        pass
    return v


def _parse_all(q: Calculated, v: Variants) -> dict[tuple[Any, ...], F.Node]:
    """Every formula of the question, by its field: ("answer",), ("variables", k, "formula"),
    ("constraints", k)."""
    nodes: dict[tuple[Any, ...], F.Node] = {}
    fields: list[tuple[tuple[Any, ...], str, bool]] = []
    if isinstance(q, CalculatedQuestion):
        fields.append((("answer",), q.answer, False))
    fields += [(("variables", k, "formula"), var.formula, False) for k, var in enumerate(q.variables) if var.formula]
    fields += [(("constraints", k), text, True) for k, text in enumerate(q.constraints)]
    known = {var.name for var in q.variables}
    for loc, text, constraint in fields:
        try:
            node = F.parse(text, constraint)
        except F.FormulaError as exc:
            v.findings.append(Finding(SYNTAX, str(exc), exc.hint or "see the formulas in docs/source-format.md", loc, exc.column))
            continue
        for used in F.walk(node):
            if isinstance(used, F.Var) and used.name not in known:
                v.findings.append(Finding(UNKNOWN, f"'{used.name}' is not a variable of this question", _unknown_hint(used.name, known),
                                          loc, used.column))
        nodes[loc] = node
    if not v.ok:
        raise _Stop
    return nodes


def _unknown_hint(name: str, known: set[str]) -> str:
    from difflib import get_close_matches

    close = get_close_matches(name, sorted(known), n=1)
    return f"did you mean '{close[0]}'?" if close else f"define {name} among the variables (variables: {', '.join(sorted(known))})"


def _order(q: Calculated, nodes: dict[tuple[Any, ...], F.Node], v: Variants) -> list[str]:
    """Drawn variables first, then derived ones, each after those its formula uses."""
    derived = {var.name: (k, nodes[("variables", k, "formula")]) for k, var in enumerate(q.variables) if var.formula}
    order = [var.name for var in q.variables if not var.formula]
    pending = dict(derived)
    while pending:
        ready = [name for name, (_, node) in pending.items() if all(u in order for u in F.variables(node))]
        if not ready:
            name, (k, node) = next(iter(pending.items()))
            cycle = [u for u in F.variables(node) if u in pending]
            v.findings.append(Finding(COMPUTE, f"variable '{name}' depends on itself (through {', '.join(cycle)})",
                                      "compute each derived value from values defined before it", ("variables", k, "formula")))
            raise _Stop
        for name in ready:
            order.append(name)
            del pending[name]
    return order


def _decimals(variable: Any) -> int | None:
    if variable.decimals is not None:
        return int(variable.decimals)
    if variable.kind == "range":
        return max(_places(variable.min), _places(variable.max), _places(variable.step) if variable.step else 0)
    return None


def _places(value: float) -> int:
    text = f"{value:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def _draw(quiz_id: str, q: Calculated, nodes: dict[tuple[Any, ...], F.Node], constraints: list[tuple[Any, F.Node]],
          v: Variants) -> None:
    variables = {var.name: (k, var) for k, var in enumerate(q.variables)}
    derived = [name for name in v.order if variables[name][1].formula]
    refused: dict[int, int] = {}

    def complete(values: dict[str, float]) -> dict[str, float] | None:
        for name in derived:
            k, var = variables[name]
            try:
                value = F.evaluate(nodes[("variables", k, "formula")], values)
            except F.FormulaError as exc:
                v.findings.append(Finding(COMPUTE, f"variable '{name}' cannot be computed for {_describe(values)}: {exc}",
                                          "add a condition that leaves such values out, or change the ranges",
                                          ("variables", k, "formula"), exc.column))
                raise _Stop from None
            values[name] = _round(value, v.decimals[name])
        for k, node in constraints:
            try:
                holds = F.evaluate(node, values)
            except F.FormulaError as exc:
                v.findings.append(Finding(COMPUTE, f"the condition cannot be computed for {_describe(values)}: {exc}",
                                          "change the condition or the ranges", k, exc.column))
                raise _Stop from None
            if not holds:
                refused[k[1]] = refused.get(k[1], 0) + 1
                return None
        return values

    if isinstance(q.sets, list):
        for n, listed in enumerate(q.sets, 1):
            values = complete({name: float(listed[name]) for name in v.order if name in listed})
            if values is None:
                k = max(refused, key=lambda i: refused[i])
                v.findings.append(Finding(CONDITION, f"listed set {n} ({_describe(q.sets[n - 1])}) does not meet the condition "
                                          f"'{q.constraints[k]}'", "correct the set, or the condition", ("constraints", k)))
                raise _Stop
            v.sets.append(values)
        return

    rng = random.Random(f"{quiz_id}/{q.id}")  # str seeds hash with SHA-512: the same everywhere
    wanted = q.sets
    seen: set[tuple[float, ...]] = set()
    drawn_names = [name for name in v.order if not variables[name][1].formula]
    for _ in range(wanted * TRIES_PER_SET):
        if len(v.sets) == wanted:
            break
        values = {name: _draw_one(variables[name][1], v.decimals[name], rng) for name in drawn_names}
        key = tuple(values[name] for name in drawn_names)
        if key in seen:
            continue
        completed = complete(values)
        if completed is None:
            continue
        seen.add(key)
        v.sets.append(completed)
    if not v.sets:
        k = max(refused, key=lambda i: refused[i]) if refused else 0
        v.findings.append(Finding(CONDITION, f"no set of values meets the condition '{q.constraints[k]}' "
                                  f"(in {wanted * TRIES_PER_SET} draws)",
                                  "widen the variables' ranges, or correct the condition", ("constraints", k)))
        raise _Stop
    if len(v.sets) < wanted:
        v.findings.append(Finding(FEW_SETS, f"only {len(v.sets)} different sets of values exist (or meet the conditions), "
                                  f"not the {wanted} asked for", f"ask for sets={len(v.sets)}, or widen the ranges",
                                  ("sets",), warning=True))


def _draw_one(variable: Any, decimals: int | None, rng: random.Random) -> float:
    if variable.values is not None:
        return float(rng.choice(variable.values))
    low, high = Decimal(repr(variable.min)), Decimal(repr(variable.max))
    step = Decimal(repr(variable.step)) if variable.step else Decimal(1).scaleb(-(decimals or 0))
    count = int((high - low) / step) + 1
    value = low + step * rng.randrange(count)
    return float(value)


def _round(value: float, decimals: int | None) -> float:
    if decimals is None:
        return float(f"{value:.12g}")
    return F._round(value, decimals)


def _describe(values: dict[str, float]) -> str:
    return ", ".join(f"{name} = {fmt(value, None)}" for name, value in values.items())


# -- what the texts show -----------------------------------------------------------------------


def placeholders(text: str) -> Iterator[tuple[int, str, str | None, str | None, int | None]]:
    """Each placeholder of a text: (offset, key, variable name or None, formula or None, decimals)."""
    for m in PLACEHOLDER.finditer(text):
        decimals = int(m.group("decimals")) if m.group("decimals") is not None else None
        key = m.group(0)[1:-1]
        yield m.start(), key, m.group("name"), m.group("formula"), decimals


def _texts(q: Calculated) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """Every Markdown text of the question with its path and place ("option" or "text")."""
    for loc, text in iter_markdown(q):
        yield loc, text, "option" if loc[:1] == ("choices",) and loc[-1] == "text" else "text"


def _collect_shown(q: Calculated, v: Variants) -> None:
    names = set(v.order)
    taken = set(names)
    default = q.decimals if isinstance(q, CalculatedChoiceQuestion) else None
    for loc, text, place in _texts(q):
        for offset, key, name, formula, decimals in placeholders(text):
            if name is not None and name not in names:
                continue  # braces around another word ({a} in TeX): not a placeholder
            if key in v.shown:
                old = v.shown[key]
                v.shown[key] = Shown(old.key, old.name, old.node, old.decimals, old.plain, old.places | {place})
                continue
            if name is not None:
                node: F.Node = F.Var(name, 1)
                plain = decimals is None or decimals == v.decimals[name]
                shown_name = name if plain else _fresh(f"{name}_{decimals}dp", taken)
                shown_decimals = v.decimals[name] if plain else decimals
            else:
                assert formula is not None
                try:
                    node = F.parse(formula)
                except F.FormulaError as exc:
                    v.findings.append(Finding(SYNTAX, str(exc), exc.hint, loc, offset + 2 + (exc.column or 1) - 1))
                    continue
                unknown = [u for u in F.variables(node) if u not in names]
                if unknown:
                    v.findings.append(Finding(UNKNOWN, f"'{unknown[0]}' is not a variable of this question",
                                              _unknown_hint(unknown[0], names), loc, offset + 1))
                    continue
                plain = False
                shown_name = _fresh(f"calc{sum(not s.plain and s.node.__class__ is not F.Var for s in v.shown.values()) + 1}", taken)
                shown_decimals = decimals if decimals is not None else default
            taken.add(shown_name)
            v.shown[key] = Shown(key, shown_name, node, shown_decimals, plain, frozenset({place}))
    if not v.ok:
        raise _Stop


def _fresh(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    return candidate


def _compute_texts(v: Variants) -> None:
    for index, values in enumerate(v.sets):
        texts = {}
        for shown in v.shown.values():
            try:
                value = F.evaluate(shown.node, values)
            except F.FormulaError as exc:
                v.findings.append(Finding(COMPUTE, f"{{{shown.key}}} cannot be computed for set {index + 1} "
                                          f"({_describe(values)}): {exc}", "add a condition that leaves such values out",
                                          _where_shown(v.question, shown.key)))
                raise _Stop from None
            texts[shown.name] = fmt(value, shown.decimals)
        v.texts.append(texts)


def _where_shown(q: Calculated, key: str) -> tuple[str | int, ...]:
    return next((loc for loc, text, _ in _texts(q) if "{" + key + "}" in text), ())


def fmt(value: float, decimals: int | None) -> str:
    """A value as students see it: with ``decimals`` decimals, or (None) as it is, up to twelve
    significant digits, without an exponent."""
    if decimals is None:
        return F.plain_decimal(f"{value:.12g}")
    text = f"{F._round(value, decimals):.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def answer_text(value: float, display: tuple[str, int]) -> str:
    """The correct answer as shown: ``("decimals", n)`` or ``("figures", n)`` significant figures
    (Moodle's two answer formats; trailing zeros kept, no exponent)."""
    how, digits = display
    if how == "decimals":
        return fmt(value, digits)
    if value == 0:
        return "0"
    text = format(Decimal(f"{value:.{digits - 1}e}"), "f")
    return text


def fill(markdown: str, v: Variants, render: Callable[[Shown], str]) -> str:
    """``markdown`` with each of its placeholders replaced by ``render(shown)``; braces that are
    no placeholder of the question (``{a}`` around another word) stay."""
    def replace(m: Any) -> str:
        shown = v.shown.get(m.group(0)[1:-1])
        return render(shown) if shown is not None else m.group(0)

    return PLACEHOLDER.sub(replace, markdown)


def in_formulas(markdown: str, v: Variants) -> list[bool]:
    """For each placeholder of the question in ``markdown``, in order, whether it stands inside a
    formula (``${a}x + {b} = 0$``). Each one is swapped for a word of letters that no text holds,
    which Markdown and the math delimiters read as they read a placeholder, and the formulas are
    found by the renderer's own reader (:func:`..content.math_texts`)."""
    found = [m for m in PLACEHOLDER.finditer(markdown) if m.group(0)[1:-1] in v.shown]
    if not found or ("$" not in markdown and "\\" not in markdown):
        return [False] * len(found)
    prefix = "qbplaceholder"
    while prefix in markdown:
        prefix += "q"
    pieces, end = [], 0
    for n, m in enumerate(found):
        pieces += [markdown[end:m.start()], f"{prefix}{n}z"]
        end = m.end()
    from . import content  # the Markdown parser, here only: `check` of an unchanged quiz imports this module

    math = "\n".join(content.math_texts("".join(pieces) + markdown[end:]))
    return [f"{prefix}{n}z" in math for n in range(len(found))]


def fill_by_place(markdown: str, v: Variants, render: Callable[[Shown], str], in_math: Callable[[Shown], str]) -> str:
    """:func:`fill`, with ``in_math(shown)`` for a placeholder inside a formula (:func:`in_formulas`)."""
    where = iter(in_formulas(markdown, v))

    def replace(m: Any) -> str:
        shown = v.shown.get(m.group(0)[1:-1])
        if shown is None:
            return m.group(0)
        return in_math(shown) if next(where) else render(shown)

    return PLACEHOLDER.sub(replace, markdown)


def filled_question(q: Calculated, v: Variants, render: Callable[[Shown], str],
                    in_math: Callable[[Shown], str] | None = None) -> Any:
    """A copy of ``q`` whose texts (stem, passage, feedback, options and their feedback) have
    each placeholder replaced by ``render(shown)``: a target's own markers, or one set's values;
    by ``in_math(shown)`` inside a formula, when given (:func:`fill_by_place`)."""
    def each(text: str | None) -> str | None:
        if not text:
            return text
        return fill(text, v, render) if in_math is None else fill_by_place(text, v, render, in_math)

    feedback = q.feedback.model_copy(update={k: each(t) for k, t in q.feedback.model_dump().items()})
    update: dict[str, Any] = {"stem": each(q.stem), "passage": each(q.passage), "feedback": feedback}
    if isinstance(q, CalculatedChoiceQuestion):
        update["choices"] = [c.model_copy(update={"text": each(c.text), "feedback": each(c.feedback)}) for c in q.choices]
    return q.model_copy(update=update)


#: What Markdown could read as markup in a placeholder's replacement: emphasis, code, links,
#: raw HTML, math. Parentheses stay bare: ``\(`` opens math in this project's Markdown.
_MARKDOWN_ACTIVE = set("\\`*_[]<>&$")


def markdown_escape(text: str) -> str:
    """Text that Markdown shows as written, within a line."""
    return "".join("\\" + ch if ch in _MARKDOWN_ACTIVE else ch for ch in text)


# -- answers -----------------------------------------------------------------------------------


def _compute_answers(q: CalculatedQuestion, node: F.Node, v: Variants) -> None:
    for index, values in enumerate(v.sets):
        try:
            value = F.evaluate(node, values)
        except F.FormulaError as exc:
            v.findings.append(Finding(COMPUTE, f"the answer cannot be computed for set {index + 1} ({_describe(values)}): {exc}",
                                      "add a condition that leaves such values out, or change the ranges", ("answer",), exc.column))
            raise _Stop from None
        shown = answer_text(value, q.display)
        delta = abs(value) * q.tolerance / 100 if q.tolerance_mode == "percent" else q.tolerance
        low, high = value - delta, value + delta
        error = abs(float(shown) - value)
        if error > delta + 1e-9 * max(1.0, abs(value)):
            how, digits = q.display
            shown_as = f"{digits} decimal{'s' if digits != 1 else ''}" if how == "decimals" else f"{digits} significant figures"
            tolerance = f"{q.tolerance:g} %" if q.tolerance_mode == "percent" else f"{q.tolerance:g}"
            v.findings.append(Finding(
                TOLERANCE, f"set {index + 1} ({_describe(values)}): the answer {fmt(value, None)} is shown as {shown} "
                f"({shown_as}), which its tolerance ± {tolerance} does not accept: a student who types the answer "
                "shown would be marked wrong", f"give a tolerance of at least {_at_least(error)}, or show the answer "
                "with more decimals or figures", ("answer",)))
            raise _Stop
        v.answers.append(value)
        v.correct_texts.append(shown)
        v.bounds.append((low, high))


def _at_least(error: float) -> str:
    exponent = math.floor(math.log10(error)) if error > 0 else 0
    step = 10.0 ** exponent
    return fmt(math.ceil(error / step) * step, max(0, -exponent))


def _check_options(q: CalculatedChoiceQuestion, v: Variants) -> None:
    correct = next(c for c in q.choices if c.correct)
    for index in range(len(v.sets)):
        right = v.text(index, correct.text)
        for choice in q.choices:
            if choice is not correct and v.text(index, choice.text) == right:
                v.findings.append(Finding(
                    SAME_OPTIONS, f"set {index + 1} ({_describe(v.sets[index])}): option {choice.id} shows the same text "
                    f"as the correct option {correct.id} ('{right}')", "change the option's formula, or add a condition that "
                    "leaves such values out", ("choices", q.choices.index(choice), "text")))
                raise _Stop


# -- checking at build -------------------------------------------------------------------------


def check_calculated(quiz: Quiz, source: SourceMap, sink: DiagnosticSink, questions: Iterable[Any] | None = None,
                     locs: Callable[[], dict[str, tuple[str | int, ...]]] | None = None) -> None:
    """Report every calculated question's findings (of ``questions``, by default the quiz's) at
    their place in the source (``locs``: each question's path, made when first needed)."""
    where: dict[str, tuple[str | int, ...]] | None = None
    for question in quiz.iter_questions() if questions is None else questions:
        if not isinstance(question, _CalculatedBase):
            continue
        if where is None:
            where = locs() if locs is not None else question_locs(quiz)
        found = variants(quiz.id, question)  # type: ignore[arg-type]
        for finding in found.findings:
            span = _span(source, where[question.id] + finding.loc, finding.column, _field_text(question, finding.loc))
            report = sink.warning if finding.warning else sink.error
            report(finding.code, f"question '{question.id}': {finding.message}", span, hint=finding.hint)


def _span(source: SourceMap, loc: tuple[str | int, ...], column: int | None, text: str | None) -> SourceSpan:
    if column is None or loc not in source.positions:  # only at the formula's own place
        return source.locate(loc)
    if text is not None:  # a text over several lines, quoted...: where the character was written
        return source.text_position(loc, text, column - 1)
    span = source.locate(loc)
    return SourceSpan(span.path, span.line, span.column + column - 1)


def _field_text(question: Any, loc: tuple[str | int, ...]) -> str | None:
    """The text at ``loc`` in the question (``("choices", 2, "text")``), if it is one."""
    node = question
    for step in loc:
        node = node[step] if isinstance(step, int) and isinstance(node, list) and step < len(node) else getattr(node, str(step), None)
        if node is None:
            return None
    return node if isinstance(node, str) else None
