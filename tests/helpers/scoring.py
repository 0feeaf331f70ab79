"""One question's responses scored in all three outputs, against what its author meant.

For each question, :func:`attempts` lists responses a student could give (the right one, wrong
ones, partly right ones), each with the fraction of the points the source says it earns, worked
out here from the model's meaning and nothing the writers compute. :class:`Built` holds a quiz's
three outputs, and scores a response in each with an independent reader:

- QTI 2.1: pyslet runs the item's response processing (helpers/qti21_engine.py);
- Moodle XML: Moodle's import and grading rules (helpers/moodle_engine.py);
- the Canvas package: QTI 1.2 response processing (helpers/qti12_engine.py), read as Canvas reads
  it: an item is worth ``points_possible``, earned in the proportion SCORE bears to its maximum.

What an LMS cannot hold is no surprise here: an attempt says which outputs it applies to, and the
Canvas expectations follow Canvas's own rules where they differ from the source (docs/lms-behaviour.md:
every accepted short answer, numerical answer and blank is worth 100 %, without wildcards or case;
a multiple-answers question's partial credit is Canvas's own; an ordering question is one
drop-down per position, with credit per position). Everything else must agree exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from helpers import zip_members
from helpers.calculated import set_problems, source_eval
from helpers.moodle_engine import Question as MoodleQuestion
from helpers.moodle_engine import calculated_answers, dataset_count, dataset_values, grade_calculated
from helpers.moodle_engine import grade as moodle_grade
from helpers.moodle_engine import read_question
from helpers.qti12_engine import calculated_sets, canvas_multiple_answers, local
from helpers.qti12_engine import grade_calculated as canvas_grade_calculated
from helpers.qti12_engine import score_item as canvas_score
from helpers.qti21_engine import score_item as qti21_score
from helpers.qti21_engine import score_template_item, template_sets
from helpers.text import element_text, html_text
from qti_builder.content import plain_text
from qti_builder.i18n import true_false_labels
from qti_builder.kinds import KINDS
from qti_builder.model import CalculatedChoiceQuestion, CalculatedQuestion, Quiz
from qti_builder.model.questions import BLANK_MARKER
from qti_builder.model.union import Question

ALL = frozenset({"qti21", "moodle", "canvas"})
#: Kinds a machine scores (the others are graded by a person or not at all), from the kinds'
#: registry: a new machine-scored kind is graded here, or :func:`attempts` fails naming it.
SCORED = tuple(name for name, spec in KINDS.items() if spec.machine_scored)
#: Kinds whose question is one of several sets of values: graded set by set (:func:`calculated_disagreements`).
CALCULATED = ("calculated", "calculated_choice")
#: A response no answer of the generated or hand-written quizzes accepts.
NOTHING = "\u2603 nothing"


@dataclass(frozen=True)
class Attempt:
    """A response in the model's terms, and the fraction of the points each output must give it."""

    name: str
    response: Any
    expected: dict[str, float]


# -- the author's meaning ----------------------------------------------------------------------------


_STARS = re.compile(r"(?<!\\)\*+")


def typed(pattern: str) -> str:
    """A response that an answer with wildcards accepts: its stars typed as nothing, ``\\*`` as a star."""
    return _STARS.sub("", pattern).replace("\\*", "*")


def accepts(pattern: str, response: str, case_sensitive: bool) -> bool:
    """Does a short answer accept ``response``? ``*`` is any run of characters, ``\\*`` a star
    (the model's TextAnswer)."""
    regex = "".join(".*" if part == "*" else re.escape(part.replace("\\*", "*"))
                    for part in re.split(r"((?<!\\)\*)", pattern) if part)
    return re.fullmatch(regex, response, re.S | (0 if case_sensitive else re.I)) is not None


def _clamp(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def attempts(quiz: Quiz, q: Question) -> list[Attempt]:
    """Responses to ``q`` and what each earns; Canvas's expectations apply its own rules."""
    kind = q.type
    out: list[Attempt] = []

    def add(name: str, response: Any, expected: float, canvas: float | None = None, where: frozenset[str] = ALL) -> None:
        values = {f: expected for f in where}
        if "canvas" in where:
            values["canvas"] = expected if canvas is None else canvas
        out.append(Attempt(name, response, values))

    if kind == "single_choice":
        right = next(i for i, c in enumerate(q.choices) if c.correct)
        add("the right choice", frozenset({right}), 1.0)
        for i, c in enumerate(q.choices):
            if not c.correct:
                add(f"wrong choice {c.id}", frozenset({i}), 0.0)
    elif kind == "multiple_response":
        scores = q.choice_scores()
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        wrong = frozenset(range(len(q.choices))) - right

        def earned(chosen: frozenset[int]) -> float:
            """The question's own rule (docs/question-types.md#scoring-rules)."""
            if q.scoring == "partial":
                return _clamp(sum(scores[q.choices[i].id] for i in chosen) / 100)
            if chosen == right:
                return 1.0
            if q.scoring == "exam" and chosen and chosen <= right:
                return (q.incomplete_points or 0) / q.points
            return 0.0

        def moodle(chosen: frozenset[int]) -> float:
            """Moodle adds up the ticked options' fractions: with a rule on the whole answer, each
            right option its share and each wrong one -100 % (the loss the Moodle profile names)."""
            if q.scoring == "partial":
                return earned(chosen)
            return _clamp(len(chosen & right) / len(right) - len(chosen & wrong))

        def canvas(chosen: frozenset[int]) -> float:
            """Canvas's own rule: a part per right tick, minus a part per wrong tick, never below 0."""
            return _clamp((len(chosen & right) - len(chosen & wrong)) / len(right))

        def add_ticked(name: str, chosen: frozenset[int]) -> None:
            out.append(Attempt(name, chosen, {"qti21": earned(chosen), "moodle": moodle(chosen), "canvas": canvas(chosen)}))

        add_ticked("every right choice", right)
        if wrong:
            add_ticked("only wrong choices", wrong)
            add_ticked("every right choice and a wrong one", right | {min(wrong)})
            add_ticked("every choice", right | wrong)
        if len(right) > 1:
            add_ticked("all right choices but one", right - {min(right)})
            add_ticked("one right choice", frozenset({min(right)}))
    elif kind == "true_false":
        add("the right answer", q.answer, 1.0)
        add("the wrong answer", not q.answer, 0.0)
    elif kind == "short_answer":

        def best(response: str) -> float:
            return max((a.score / 100 for a in q.answers if accepts(a.text, response, q.case_sensitive)), default=0.0)

        def canvas(response: str) -> float:  # every full-credit answer as typed, any case
            return 1.0 if any(a.score == 100 and typed(a.text).casefold() == response.casefold() for a in q.answers) else 0.0

        for n, a in enumerate(q.answers, 1):
            # An answer of stars alone ('*': anything) typed without them is an empty response,
            # which no LMS grades as an answer: the student types something for the stars.
            response = typed(a.text) if typed(a.text).strip() else _STARS.sub("x", a.text).replace("\\*", "*")
            literal = not _STARS.search(a.text)
            add(f"answer {n} as typed", response, best(response), canvas(response),
                where=ALL if literal or a.score < 100 else ALL - {"canvas"})
        add("no accepted answer", NOTHING, best(NOTHING), canvas(NOTHING))
    elif kind == "numerical":

        def best_number(value: float, full_only: bool = False) -> float:
            within = [a.score / 100 for a in q.answers if a.bounds()[0] <= value <= a.bounds()[1]
                      and (a.score == 100 or not full_only)]
            return max(within, default=0.0)

        for n, a in enumerate(q.answers, 1):
            add(f"answer {n}'s value", a.value, best_number(a.value), best_number(a.value, full_only=True))
            low, high = a.bounds()
            if high > low:  # within the margin, and past it (the margin must be the author's)
                for name, value in ((f"just inside answer {n}'s margin", a.value + 0.8 * (high - a.value)),
                                    (f"past answer {n}'s margin", a.value + 1.7 * (high - a.value)),
                                    (f"past answer {n}'s margin below", a.value - 1.7 * (a.value - low))):
                    add(name, value, best_number(value), best_number(value, full_only=True))
        far = max(abs(b) for a in q.answers for b in a.bounds()) + 1000
        add("a number far off", far, 0.0)
    elif kind == "matching":
        answers = [p.answer for p in q.pairs]
        n = len(answers)
        add("every pair", tuple(answers), 1.0)
        rotated = tuple(answers[1:] + answers[:1])
        add("every answer moved one prompt on", rotated, sum(a == b for a, b in zip(rotated, answers)) / n)
        if n >= 3:
            swapped = tuple([answers[1], answers[0], *answers[2:]])
            add("two answers swapped", swapped, sum(a == b for a, b in zip(swapped, answers)) / n)
    elif kind == "ordering":
        n = len(q.items)
        add("the right order", tuple(range(n)), 1.0)
        reverse = tuple(reversed(range(n)))
        # Canvas: one drop-down per position, each earning its share.
        add("the reverse order", reverse, 0.0, sum(a == b for a, b in zip(reverse, range(n))) / n)
        rotated = tuple(list(range(1, n)) + [0])
        add("every item one place on", rotated, 0.0, 0.0)
    elif kind == "fill_in_blank":
        blanks = q.blanks

        def blank_right(blank: Any, given: str, canvas: bool) -> bool:
            if blank.kind == "dropdown":
                return given in blank.answers
            if canvas or not q.case_sensitive:
                return given.casefold() in {a.casefold() for a in blank.answers}
            return given in blank.answers

        # Each blank earns its own points when the source gives them, else an equal share;
        # Canvas shares the points equally whatever the blanks state (a named loss).
        worth = {b.id: (b.points if b.points is not None else 1.0) for b in blanks}

        def share(responses: dict[str, str], canvas: bool = False) -> float:
            if canvas:
                return sum(blank_right(b, responses[b.id], canvas) for b in blanks) / len(blanks)
            return sum(worth[b.id] for b in blanks if blank_right(b, responses[b.id], canvas)) / sum(worth.values())

        def wrong(blank: Any) -> str:
            return blank.options[0] if blank.kind == "dropdown" and blank.options else NOTHING

        right = {b.id: b.answers[0] for b in blanks}
        add("every blank right", right, share(right), share(right, canvas=True))
        none_right = {b.id: wrong(b) for b in blanks}
        add("every blank wrong", none_right, share(none_right), share(none_right, canvas=True))
        if len(blanks) > 1:
            first = {**none_right, blanks[0].id: blanks[0].answers[0]}
            add("only the first blank right", first, share(first), share(first, canvas=True))
    elif kind in SCORED and kind not in CALCULATED:  # calculated kinds are graded set by set, below
        raise ValueError(f"no attempts at a {kind} question: add them to helpers/scoring.py")
    return out


def calculated_attempts(q: CalculatedQuestion | CalculatedChoiceQuestion, values: dict[str, float]) -> list[tuple[str, Any, float]]:
    """Responses in one set of values and the fraction each earns, from the source: its answer
    formula computed for the set (helpers/calculated.py), within its tolerance (absolute, or a
    percentage of the answer) full marks, past it none; a calculated choice, the right option."""
    if isinstance(q, CalculatedChoiceQuestion):
        return [(f"option {c.id}", i, 1.0 if c.correct else 0.0) for i, c in enumerate(q.choices)]
    answer = float(source_eval(q.answer, values))
    margin = q.tolerance if q.tolerance_mode == "absolute" else abs(answer) * q.tolerance / 100
    out = [("the answer", repr(answer), 1.0)]
    if margin > 0:
        out += [("just inside the margin", repr(answer + 0.8 * margin), 1.0), ("past the margin", repr(answer + 1.7 * margin), 0.0),
                ("past the margin below", repr(answer - 1.7 * margin), 0.0)]
    return out + [("a number far off", repr(answer + max(1000.0, 10 * abs(answer))), 0.0)]


# -- the outputs -------------------------------------------------------------------------------------


class Unlocatable(LookupError):
    """A response cannot be given unambiguously in an output (two options show the same text)."""


def _one(found: list[str], what: str) -> str:
    if len(found) != 1:
        raise Unlocatable(f"{len(found)} options show {what!r}")
    return found[0]


@dataclass
class Built:
    """A quiz's three outputs, read back."""

    quiz: Quiz
    qti21: dict[str, bytes] = field(default_factory=dict)
    moodle: dict[str, etree._Element] = field(default_factory=dict)
    canvas: dict[str, etree._Element] = field(default_factory=dict)
    #: A calculated choice question's Canvas items, one multiple-choice question per set.
    canvas_variants: dict[str, list[etree._Element]] = field(default_factory=dict)

    targets: frozenset[str] = ALL

    @classmethod
    def read(cls, quiz: Quiz, dist: Path, targets: frozenset[str] = ALL) -> "Built":
        built = cls(quiz, targets=targets)
        questions = list(quiz.iter_questions())
        if "qti21" in targets:
            package = zip_members((dist / f"{quiz.id}.qti21.zip").read_bytes())
            built.qti21 = {q.id: package[f"items/{q.id}.xml"] for q in questions}
        if "moodle" in targets:
            moodle = etree.parse(str(dist / f"{quiz.id}.moodle.xml")).getroot()
            by_idnumber = {m.findtext("idnumber"): m for m in moodle.findall("question") if m.get("type") != "category"}
            built.moodle = {q.id: by_idnumber[q.id]
                            for q in questions}
        if "canvas" in targets:
            canvas = zip_members((dist / f"{quiz.id}.canvas.zip").read_bytes())
            assessment = etree.fromstring(canvas[f"{quiz.id}/{quiz.id}.xml"])
            items = {e.get("ident"): e for e in assessment.iter() if isinstance(e.tag, str) and local(e) == "item"}
            built.canvas = {q.id: items[f"{quiz.id}.{q.id}"] for q in questions if q.type != "calculated_choice"}
            for q in questions:
                if q.type == "calculated_choice":
                    built.canvas_variants[q.id] = [items[f"{quiz.id}.{q.id}.v{k}"]
                                                   for k in range(1, 1 + sum(i.startswith(f"{quiz.id}.{q.id}.v") for i in items))]
                    built.canvas[q.id] = built.canvas_variants[q.id][0]
        return built

    # -- points -----------------------------------------------------------------------------------

    def qti21_maximum(self, q: Question) -> float:
        if q.type in CALCULATED:
            return float(score_template_item(self.qti21[q.id], 1, None)[1]["MAXSCORE"])  # type: ignore[arg-type]
        return float(qti21_score(without_mathml(self.qti21[q.id]), None)["MAXSCORE"])  # type: ignore[arg-type]

    def canvas_points(self, q: Question) -> float:
        fields = {f.findtext("{*}fieldlabel"): f.findtext("{*}fieldentry") for f in self.canvas[q.id].iter("{*}qtimetadatafield")}
        return float(fields["points_possible"])

    def moodle_question(self, q: Question) -> MoodleQuestion:
        return read_question(self.moodle[q.id])

    # -- scoring ----------------------------------------------------------------------------------

    def score(self, target: str, q: Question, response: Any) -> float:
        """The fraction of the question's points ``target`` gives ``response``."""
        return {"qti21": self._qti21, "moodle": self._moodle, "canvas": self._canvas}[target](q, response)

    def _qti21(self, q: Question, response: Any) -> float:
        raw = self.qti21[q.id]
        item = etree.fromstring(raw)
        ns = {"q": item.nsmap[None]}

        def choice_ids(path: str, texts: list[str]) -> list[str]:
            shown: dict[str, list[str]] = {}
            for choice in item.findall(path, ns):
                shown.setdefault(element_text(choice), []).append(choice.get("identifier"))
            return [_one(shown.get(t, []), t) for t in texts]

        if q.type in ("single_choice", "multiple_response"):
            ids = [q.choices[i].id for i in sorted(response)]
            given: Any = ids[0] if q.type == "single_choice" else ids
        elif q.type == "true_false":
            label = true_false_labels(self.quiz.language, q.labels)[0 if response else 1]
            given = {"TF_RESPONSE" if item.find(".//q:responseDeclaration[@identifier='TF_RESPONSE']", ns) is not None
                     else "RESPONSE": choice_ids(".//q:simpleChoice", [label])[0]}
        elif q.type in ("short_answer", "numerical"):
            given = str(response)
        elif q.type == "matching":
            sources = [c.get("identifier") for c in item.findall(".//q:simpleMatchSet[1]/q:simpleAssociableChoice", ns)]
            targets = choice_ids(".//q:simpleMatchSet[2]/q:simpleAssociableChoice", [plain_text(a, 10_000) for a in response])
            given = [f"{s} {t}" for s, t in zip(sources, targets)]
        elif q.type == "ordering":
            given = choice_ids(".//q:orderInteraction/q:simpleChoice", [plain_text(q.items[i], 10_000) for i in response])
        elif q.type == "fill_in_blank":
            given = {}
            for blank in q.blanks:
                ident = f"RESPONSE_{blank.id}"
                if blank.kind == "dropdown":
                    found = [c.get("identifier") for c in item.findall(f".//q:inlineChoiceInteraction[@responseIdentifier='{ident}']/q:inlineChoice", ns)
                             if element_text(c) == " ".join(response[blank.id].split())]
                    given[ident] = _one(found, response[blank.id])
                else:
                    given[ident] = response[blank.id]
        else:
            raise ValueError(q.type)
        out = qti21_score(without_mathml(raw), given)
        return float(out["SCORE"]) / float(out["MAXSCORE"])  # type: ignore[arg-type]

    def _moodle(self, q: Question, response: Any) -> float:
        mq = self.moodle_question(q)
        if q.type in ("single_choice", "multiple_response"):
            return moodle_grade(mq, set(response))
        if q.type == "true_false" and mq.qtype == "multichoice":  # labels of its own: their texts are the answers
            label = true_false_labels(self.quiz.language, q.labels)[0 if response else 1]
            return moodle_grade(mq, {i for i, a in enumerate(mq.answers) if html_text(a.text) == label})
        if q.type == "true_false":
            return moodle_grade(mq, "true" if response else "false")
        if q.type in ("short_answer", "numerical"):
            return moodle_grade(mq, str(response))
        if q.type == "matching":
            return moodle_grade(mq, [plain_text(a, 10_000) for a in response])
        if q.type == "ordering":
            return moodle_grade(mq, [_moodle_item_text(self.moodle[q.id], q.items[i]) for i in response])
        if q.type == "fill_in_blank":
            order = BLANK_MARKER.findall(q.stem)
            return moodle_grade(mq, {n: response[blank_id] for n, blank_id in enumerate(order, 1)})
        raise ValueError(q.type)

    def _canvas(self, q: Question, response: Any) -> float:
        item = self.canvas[q.id]
        lids = [e for e in item.iter() if isinstance(e.tag, str) and local(e) in ("response_lid", "response_str")]

        def labels(lid: etree._Element) -> list[tuple[str, str]]:
            out = []
            for label in lid.iter("{*}response_label"):
                mattext = label.find(".//{*}mattext")
                text = mattext.text or "" if mattext is not None else ""
                out.append((label.get("ident"), html_text(text) if mattext is not None and mattext.get("texttype") == "text/html"
                            else " ".join(text.split())))
            return out

        def by_text(lid: etree._Element, text: str, fold: bool = False) -> str:
            key = (lambda s: s.casefold()) if fold else (lambda s: s)
            found = [ident for ident, shown in labels(lid) if key(shown) == key(" ".join(text.split()))]
            if not found:
                return "no such option"  # typed text Canvas accepts nowhere
            return _one(found, text)

        if q.type == "multiple_response":  # Canvas's own rule, not the conditions' (docs/lms-behaviour.md)
            idents = [ident for ident, _ in labels(lids[0])]
            return canvas_multiple_answers(item, {idents[i] for i in response})
        if q.type == "single_choice":
            idents = [ident for ident, _ in labels(lids[0])]
            chosen = {idents[i] for i in response}
            given: dict[str, Any] = {lids[0].get("ident"): next(iter(chosen))}
        elif q.type == "true_false":
            label = true_false_labels(self.quiz.language, q.labels)[0 if response else 1]
            given = {lids[0].get("ident"): by_text(lids[0], label)}
        elif q.type in ("short_answer", "numerical"):
            given = {lids[0].get("ident"): str(response)}
        elif q.type == "matching":
            given = {lid.get("ident"): by_text(lid, plain_text(a, 10_000)) for lid, a in zip(lids, response)}
        elif q.type == "ordering":
            given = {lid.get("ident"): by_text(lid, plain_text(q.items[i], 10_000)) for lid, i in zip(lids, response)}
        elif q.type == "fill_in_blank":
            order = BLANK_MARKER.findall(q.stem)
            given = {lid.get("ident"): by_text(lid, response[blank_id], fold=True) for lid, blank_id in zip(lids, order)}
        else:
            raise ValueError(q.type)
        return canvas_score(item, given).fraction()

    # -- calculated questions: set by set ---------------------------------------------------------

    def sets(self, target: str, q: Question) -> list[tuple[dict[str, float], Any]]:
        """Each set of values ``target`` holds for a calculated question, as its reader reads it,
        and a function giving the fraction of the points a response earns in that set (a number
        typed, or the position of the option chosen)."""
        return {"qti21": self._qti21_sets, "moodle": self._moodle_sets, "canvas": self._canvas_sets}[target](q)

    def _qti21_sets(self, q: Question) -> list[tuple[dict[str, float], Any]]:
        raw = self.qti21[q.id]
        ids = [c.get("identifier") for c in etree.fromstring(raw).iter("{*}simpleChoice")]

        def grader(k: int) -> Any:
            def score(response: Any) -> float:
                given = ids[response] if isinstance(response, int) else response
                outcomes = score_template_item(raw, k, given)[1]
                return float(outcomes["SCORE"]) / float(outcomes["MAXSCORE"])  # type: ignore[arg-type]
            return score

        out = []
        for k in range(1, template_sets(raw) + 1):
            values = {n: float(v) for n, v in score_template_item(raw, k, None)[0].items() if isinstance(v, (int, float))}
            out.append((values, grader(k)))
        return out

    def _moodle_sets(self, q: Question) -> list[tuple[dict[str, float], Any]]:
        mq = self.moodle_question(q)
        return [({n: float(v) for n, v in dataset_values(mq, k).items()},
                 lambda response, k=k: grade_calculated(mq, k, {response} if isinstance(response, int) else response))
                for k in range(1, dataset_count(mq) + 1)]

    def _canvas_sets(self, q: Question) -> list[tuple[dict[str, float], Any]]:
        if q.type == "calculated_choice":  # one multiple-choice item per set: its values are only in its text
            return [({}, lambda i, item=item: canvas_score(item, {_lid(item).get("ident"): _label_idents(item)[i]}).fraction())
                    for item in self.canvas_variants[q.id]]
        tolerance, sets = calculated_sets(self.canvas[q.id])
        lid = _lid(self.canvas[q.id]).get("ident")  # the answer box a student types in
        assert lid, "a calculated question needs its answer box"
        return [(s.values, lambda response, s=s: canvas_grade_calculated(s.answer, tolerance, response)) for s in sets]

    def option_values(self, target: str, q: CalculatedChoiceQuestion, k: int) -> list[float] | None:
        """The value each option shows in set ``k`` (from 1), where the output says it as a value."""
        if target == "moodle":
            return calculated_answers(self.moodle_question(q), k)
        if target == "qti21":
            raw = self.qti21[q.id]
            values = score_template_item(raw, k, None)[0]
            shown = [[p.get("identifier") for p in c.iter("{*}printedVariable")] for c in etree.fromstring(raw).iter("{*}simpleChoice")]
            return [float(values[names[0]]) if len(names) == 1 else float("nan") for names in shown]  # type: ignore[arg-type]
        return None


def _lid(item: etree._Element) -> etree._Element:
    return next(e for e in item.iter() if isinstance(e.tag, str) and local(e) in ("response_lid", "response_str"))


def _label_idents(item: etree._Element) -> list[str]:
    return [label.get("ident") for label in item.iter("{*}response_label")]


_ONE_VALUE = re.compile(r"\{=([^{}:]+)(?::[0-9]{1,2})?\}")


def calculated_disagreements(built: Built, q: CalculatedQuestion | CalculatedChoiceQuestion) -> list[str]:
    """Every set of every output: its values as the source allows them (helpers/calculated.py),
    and every response of :func:`calculated_attempts` earning what the source means."""
    found = []
    for target in sorted(built.targets):
        sets = built.sets(target, q)
        if not sets:
            found.append(f"{NAMES[target]}: question '{q.id}' ({q.type}) has no set of values")
        for k, (values, score) in enumerate(sets, 1):
            ours = {v.name: values[v.name] for v in q.variables if v.name in values}
            if values or target != "canvas":
                found += [f"{NAMES[target]}: question '{q.id}' set {k}: {p}" for p in set_problems(q, ours)]
            if not values and q.type == "calculated":
                continue
            if isinstance(q, CalculatedChoiceQuestion) and values:
                shown = built.option_values(target, q, k)
                for choice, value in zip(q.choices, shown or []):
                    one = _ONE_VALUE.fullmatch(choice.text.strip())
                    if one and not abs(value - float(source_eval(one.group(1), ours))) <= 1e-9 * max(1.0, abs(value)):
                        found.append(f"{NAMES[target]}: question '{q.id}' set {k}: option {choice.id} shows {value:g}, "
                                     f"the source means {float(source_eval(one.group(1), ours)):g}")
            for name, response, expected in calculated_attempts(q, ours):
                got = score(response)
                if abs(got - expected) > 1e-4:
                    found.append(f"{NAMES[target]}: question '{q.id}' ({q.type}) set {k} gives '{name}' ({response}) "
                                 f"{got:.4g} of the points; the source means {expected:.4g}")
    return found


MATHML = "http://www.w3.org/1998/Math/MathML"


def without_mathml(raw: bytes) -> bytes:
    """The item with each formula as its text: pyslet refuses MathML inside a choice, and what a
    formula shows changes no score."""
    if MATHML.encode() not in raw:
        return raw
    item = etree.fromstring(raw)
    for math in item.findall(f".//{{{MATHML}}}math"):
        parent, text = math.getparent(), element_text(math) + (math.tail or "")
        previous = math.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
        parent.remove(math)
    return etree.tostring(item)


def _moodle_item_text(question: etree._Element, markdown: str) -> str:
    """The text Moodle's ordering answer shows for an item: the answer whose visible text is the item's."""
    wanted = plain_text(markdown, 10_000)
    found = [(a.findtext("text") or "").strip() for a in question.findall("answer") if html_text(a.findtext("text")) == wanted]
    return _one(found, wanted)


def scored_questions(quiz: Quiz) -> Iterator[Question]:
    return (q for q in quiz.iter_questions() if q.type in SCORED)


NAMES = {"qti21": "QTI 2.1", "moodle": "Moodle", "canvas": "Canvas"}


def canvas_points(quiz: Quiz, question: Question) -> float:
    """What Canvas makes a question worth: a question group gives each question its first one's points."""
    for _, section in quiz.iter_sections():
        if question in section.questions and section.select:
            return float(section.group_points() or 0)
    return question.points


def moodle_mark(question: Question) -> float:
    """A cloze question's mark is the sum of its blanks' whole-number weights (QB323 warns when
    that is not the points): a blank's whole points, else an equal whole share, else 1 each."""
    if question.type != "fill_in_blank":
        return question.points
    stated = [b.points for b in question.blanks if b.points is not None]
    if stated and all(p >= 1 and p == int(p) for p in stated):
        return sum(stated)  # whole points per blank are the weights themselves
    share = question.points / len(question.blanks)
    return (int(share) if share >= 1 and share == int(share) else 1) * len(question.blanks)


def disagreements(built: Built) -> list[str]:
    """Every response an output scores otherwise than the source means, as a user would read it."""
    quiz, found = built.quiz, []
    for q in scored_questions(quiz):
        maxima = {"qti21": built.qti21_maximum, "moodle": lambda q: built.moodle_question(q).mark,
                  "canvas": built.canvas_points}
        maxima = {target: maxima[target](q) for target in built.targets}  # type: ignore[operator]
        meant = {"qti21": q.points, "moodle": moodle_mark(q), "canvas": canvas_points(quiz, q)}
        for target in maxima:
            if abs(maxima[target] - meant[target]) > 1e-9:
                found.append(f"{NAMES[target]}: question '{q.id}' is worth {maxima[target]:g} points, not {meant[target]:g}")
        if isinstance(q, (CalculatedQuestion, CalculatedChoiceQuestion)):
            found += calculated_disagreements(built, q)
            continue
        for attempt in attempts(quiz, q):
            for target, expected in attempt.expected.items():
                if target not in built.targets:
                    continue
                try:
                    got = built.score(target, q, attempt.response)
                except Unlocatable:
                    continue  # two options of the output show the same text: no student can tell them apart
                if abs(got - expected) > 1e-4:
                    found.append(f"{NAMES[target]}: question '{q.id}' ({q.type}) gives '{attempt.name}' "
                                 f"{got * meant[target]:.4g} of {meant[target]:g} points; the source means "
                                 f"{expected * meant[target]:.4g}")
    return found

