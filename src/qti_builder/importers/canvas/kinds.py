"""One reader per Canvas question type: each sets the model kind and fills its fields (choices,
answers, pairs, blanks, ...) from the item's responses and ``resprocessing``. :data:`READERS` maps
a Canvas ``question_type`` to its reader; :meth:`.item.ItemReader.read` has already set the stem
and points. A reader returns False when the question cannot be imported (it has said why).

The forms are those of Canvas's exporter (``qti_items.rb``) and of the package qti-builder writes
(the Canvas package spec), which differ from Canvas's own in two places undone here: a true/false
question in a quiz that is not in English is a two-answer multiple choice labelled with the
quiz language's words (참/거짓), and an ordering question is one drop-down per position
(``1. [p1]``, each listing every item).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from ...i18n import true_false_labels
from ..base import INVALID, LOST, UNSUPPORTED, choice_ids, sanitise_id
from ..qti21.context import FALSE_WORDS, TRUE_WORDS
from .calculated import read_calculated
from .context import ItemContext
from .processing import Condition
from .text import restore_blanks, strip_positions
from .xml import Data, _float, child, children, descendants, local

Reader = Callable[[ItemContext, Data], "bool | None"]
#: Grading notes that start like HTML are read as HTML; any other text as written ("a <list>").
HTML_START = re.compile(r"\s*<(p|div|span|ul|ol|h[1-6]|pre|table|blockquote|strong|em|b|i|code)\b[^>]*>", re.I)
#: Canvas's question-level feedback idents, which a condition may show beside an answer's own.
QUESTION_LEVEL = {"general_fb", "correct_fb", "general_incorrect_fb"}


# -- shared ----------------------------------------------------------------------------------------


def _responses(r: ItemContext) -> list[etree._Element]:
    """The item's choice responses: ``response_lid``, and D2L's matching ``response_grp`` (named by
    ``respident``, as its conditions name it)."""
    return descendants(r.presentation, "response_lid", "response_grp") if r.presentation is not None else []


def _response_ident(response: etree._Element) -> str:
    return response.get("ident") or response.get("respident") or ""


def _labels(response: etree._Element) -> list[etree._Element]:
    """The response's answers. Sakai (Samigo) pads its choices with labels that have neither an
    ident nor any text (nothing a student could pick, nothing a condition names): not answers."""
    return [label for label in descendants(response, "response_label") if label.get("ident") or _has_content(label)]


def _has_content(label: etree._Element) -> bool:
    return bool("".join(label.itertext()).strip()) or any(m.get("uri") for m in descendants(label, "matimage"))


def _material(element: etree._Element) -> etree._Element | None:
    own = child(element, "material")
    return own if own is not None else next(iter(descendants(element, "material")), None)


def _scoring(r: ItemContext) -> list[Condition]:
    """The conditions that give credit, best first (Canvas: one, Set 100). A condition that tests
    nothing (Blackboard's per-answer conditions, ``<varequal respident="<answer>"/>`` with no
    value, which set a score of their own) gives none."""
    return sorted((c for c in r.conditions if c.scores and any(t.value for t in c.tests()) or c.scores and c.is_other),
                  key=lambda c: -(c.score or 0))


def _percent(score: float | None) -> float:
    return round(min(max(score or 0.0, 0.0), 100.0), 5)


def _shuffle(r: ItemContext, data: Data) -> None:
    """Canvas shuffles answers quiz-wide (``shuffle_answers``); the model per question."""
    shuffle = r.scope.settings.get("shuffle_answers")
    if shuffle is not None:
        data["shuffle"] = shuffle


def _choices(r: ItemContext, data: Data, response: etree._Element, correct: set[str]) -> None:
    labels = _labels(response)
    originals = [label.get("ident", "") for label in labels]
    choices = []
    for label, ident, original in zip(labels, choice_ids(len(labels), originals), originals):
        choice: Data = {"id": ident, "text": r.markdown(_material(label), f"choice {ident}"), "correct": original in correct}
        feedback = r.answer_feedback(original)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    data["choices"] = choices
    _shuffle(r, data)
    numbering = BLACKBOARD_NUMBERING.get(r.fields.get("bbmd_numbertype", "").lower())
    if numbering:
        data["numbering"] = numbering


#: Blackboard's answer numbering (``bbmd_numbertype``) as the model names it; R/exams writes
#: ``none`` and the letters into the answers' texts ("a. …"), so they are shown once.
BLACKBOARD_NUMBERING = {"none": "none", "letter_lower": "lower-alpha", "arabic": "decimal", "roman_lower": "lower-roman"}


def _true_false_order(r: ItemContext, texts: list[str]) -> list[bool] | None:
    """[True, False] (or the reverse) when two labels are the true/false words of the quiz's
    language, or English ones: how our writer writes a true/false question in another language."""
    folded = [t.casefold() for t in texts]
    for true, false in {true_false_labels(r.scope.language), ("True", "False")}:
        if folded == [true.casefold(), false.casefold()]:
            return [True, False]
        if folded == [false.casefold(), true.casefold()]:
            return [False, True]
    return None


def _as_true_false(r: ItemContext, data: Data, labels: list[etree._Element], truths: list[bool], correct: set[str]) -> bool:
    right = [truth for label, truth in zip(labels, truths) if label.get("ident") in correct]
    if len(right) != 1:
        r.skip(INVALID, "the true/false question has no single correct answer; skipped")
        return False
    data["type"], data["answer"] = "true_false", right[0]
    for label, truth in zip(labels, truths):
        feedback = r.answer_feedback(label.get("ident", ""))
        if feedback:
            data["true_feedback" if truth else "false_feedback"] = feedback
    return True


# -- the types -------------------------------------------------------------------------------------


def _multiple_choice(r: ItemContext, data: Data) -> bool | None:
    responses = _responses(r)
    if not responses:
        r.skip(INVALID, "the multiple-choice question has no answers; skipped")
        return False
    scoring = _scoring(r)
    correct = set(scoring[0].values()) if scoring else set()
    for condition in scoring[1:]:
        if (condition.score or 0) < (scoring[0].score or 0):
            r.lost.append(f"partial credit ({condition.score:g} %) for a second answer")
    labels = _labels(responses[0])
    if len(labels) == 2:
        truths = _true_false_order(r, [r.scope.text.plain(_material(label), "an answer", []) for label in labels])
        if truths is not None:
            return _as_true_false(r, data, labels, truths, correct)
    data["type"] = "single_choice"
    _choices(r, data, responses[0], correct)
    return None


def _true_false(r: ItemContext, data: Data) -> bool | None:
    responses = _responses(r)
    labels = _labels(responses[0]) if responses else []
    if len(labels) != 2:
        r.skip(INVALID, f"a true/false question needs two answers, it has {len(labels)}; skipped")
        return False
    # Blackboard's true/false answers have no text: their idents are "true" and "false".
    texts = [(r.scope.text.plain(_material(label), "an answer", []) or label.get("ident", "")).casefold() for label in labels]
    truths = [True, False]
    if texts[0] in FALSE_WORDS and texts[1] in TRUE_WORDS:
        truths = [False, True]
    scoring = _scoring(r)
    return _as_true_false(r, data, labels, truths, set(scoring[0].values()) if scoring else set())


def _multiple_answers(r: ItemContext, data: Data) -> bool | None:
    responses = _responses(r)
    if not responses:
        r.skip(INVALID, "the multiple-answers question has no answers; skipped")
        return False
    scoring = _scoring(r)
    correct = set(scoring[0].values()) if scoring else set()
    if len(scoring) > 1 and all(len(c.values()) == 1 for c in scoring):
        # A share per right choice, each in a condition of its own (Fronter, IMS): all of them.
        correct = {v for c in scoring for v in c.values()}
    data["type"] = "multiple_response"
    _choices(r, data, responses[0], correct)
    return None


def _short_answer(r: ItemContext, data: Data) -> bool | None:
    answers: dict[str, Data] = {}
    for condition in _scoring(r):
        for value in condition.values():
            if value:
                answers.setdefault(value, {"text": value.replace("*", "\\*"), "score": _percent(condition.score)})
    for condition in r.conditions:  # an answer's own feedback: a varequal on its text
        if condition.scores or condition.is_other:
            continue
        for value in condition.values():
            idents = [i for i in condition.feedback if i not in QUESTION_LEVEL and i in r.feedback]
            if not value or not idents:
                continue
            feedback = r.feedback_text(idents[0])
            entry = answers.setdefault(value, {"text": value.replace("*", "\\*"), "score": 0.0})
            if feedback:
                entry["feedback"] = feedback
    data["type"], data["answers"] = "short_answer", list(answers.values())
    return None


def _numerical(r: ItemContext, data: Data) -> bool | None:
    answers = []
    for condition in r.conditions:
        if not condition.scores:
            continue
        answer = _numeric_answer(r, condition)
        if answer is None:
            r.lost.append("an answer whose condition is not a number, a number ± a margin or a range")
            continue
        answer["score"] = _percent(condition.score)
        idents = [i for i in condition.feedback if i not in QUESTION_LEVEL and i in r.feedback]
        feedback = r.feedback_text(idents[0]) if idents else None
        if feedback:
            answer["feedback"] = feedback
        answers.append(answer)
    data["type"], data["answers"] = "numerical", answers
    return None


def _numeric_answer(r: ItemContext, condition: Condition) -> Data | None:
    """Canvas's forms: exact, the ``<or>`` of the value and an ``<and>`` of bounds equal to it (or
    the value alone); exact ± margin, the same with wider bounds, the margin also on the value as
    its exporter writes it (``margin``, ``margintype`` absolute or percent: read as written); a
    range, the bounds alone; a precision answer, like a margin with ``vargt``."""
    tests = [t for t in condition.tests() if not t.negated]
    exact = next((_float(t.value) for t in tests if t.kind == "varequal"), None)
    low = next((_float(t.value) for t in tests if t.kind in ("vargte", "vargt")), None)
    high = next((_float(t.value) for t in tests if t.kind in ("varlte", "varlt")), None)
    stated = _stated_margin(condition)
    if exact is not None and stated is not None:
        delta = abs(exact) * stated[0] / 100 if stated[1] == "percent" else stated[0]
        if low is not None and high is not None and not (
                _near(low, exact - delta) and _near(high, exact + delta)):
            r.lost.append(f"the bounds {low:g}..{high:g} that Classic grades by, which disagree with the margin "
                          f"{stated[0]:g}{' %' if stated[1] == 'percent' else ''} (the margin is kept)")
        return {"value": exact, "tolerance": stated[0], "tolerance_mode": stated[1]}
    if low is not None and high is not None:
        low, high = sorted((low, high))
        if any(t.kind in ("vargt", "varlt") for t in tests):
            r.lost.append(f"the excluded bound of the range {low:g}..{high:g} (it becomes included)")
        middle, half = _round((low + high) / 2), _round((high - low) / 2)
        if exact is not None and abs(exact - middle) > 1e-9 * max(1.0, abs(exact)):
            r.lost.append(f"the exact answer {exact:g}, off the middle of its range {low:g}..{high:g} (the range is kept)")
        return {"value": exact if exact is not None and abs(exact - middle) <= 1e-9 * max(1.0, abs(exact)) else middle,
                "tolerance": half}
    if exact is not None:
        return {"value": exact, "tolerance": 0.0}
    return None


def _stated_margin(condition: Condition) -> tuple[float, str] | None:
    """The margin Canvas's exporter states on an answer's ``varequal``: (margin, "absolute" or
    "percent"), None when there is none or it is not a number >= 0."""
    for element in descendants(condition.test, "varequal") if condition.test is not None else []:
        margin = _float(element.get("margin"))
        kind = (element.get("margintype") or "absolute").strip().lower()
        if margin is not None and margin >= 0 and kind in ("absolute", "percent"):
            return margin, kind
    return None


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _round(value: float) -> float:
    return float(f"{value:.10g}")


def _model_answer(r: ItemContext, data: Data) -> None:
    """Classic's example solution (a ``solution`` feedback), else New Quizzes' ``grading_notes``
    (plain text in its own exports; HTML read as HTML). qti-builder writes both, the same."""
    for ident in r.feedback:
        if "solution" in ident.lower():
            text = r.feedback_text(ident)
            if text and not data.get("model_answer"):
                data["model_answer"] = text
    notes = r.fields.get("grading_notes", "")
    if notes and not data.get("model_answer"):
        html = HTML_START.match(notes) is not None
        data["model_answer"] = r.html_markdown(notes, "the grading notes") if html else r.scope.text.plain_markdown(notes)


def _essay(r: ItemContext, data: Data) -> bool | None:
    data["type"] = "essay"
    _model_answer(r, data)
    return None


def _file_upload(r: ItemContext, data: Data) -> bool | None:
    data["type"] = "file_upload"
    _model_answer(r, data)
    return None


def _text_only(r: ItemContext, data: Data) -> bool | None:
    data["type"], data["points"] = "text_only", 0.0
    return None


def _matching(r: ItemContext, data: Data) -> bool | None:
    responses = _responses(r)
    if len(responses) == 1 and any(label.get("match_group") is not None for label in _labels(responses[0])):
        return _one_group_matching(r, data, responses[0])
    right = _right_match_block(r)
    texts: dict[str, str] = {}
    for response in responses:
        for position, label in enumerate(_labels(response)):
            if label.get("ident", "") not in texts:
                text = r.markdown(_material(label), "a matching answer")
                if not text and position < len(right):  # Blackboard: the text is in the right-hand block
                    text = r.markdown(right[position], "a matching answer")
                texts[label.get("ident", "")] = text
    pairs, used = [], set()
    for response in responses:
        prompt = r.markdown(_prompt(response), "a matching prompt")
        chosen = [v for c in _scoring(r) for v in c.values(_response_ident(response))]
        answer = next((v for v in chosen if v in texts), None)
        if answer is None:
            r.lost.append(f"prompt '{prompt}', which has no answer")
            continue
        used.add(answer)
        pairs.append({"prompt": prompt, "answer": texts[answer]})
        own = response.get("ident", "").removeprefix("response_") + "_fb"
        if own in r.feedback:
            r.used_feedback.add(own)
            r.lost.append(f"the feedback for a wrong match of '{prompt}'")
    answer_texts = {p["answer"] for p in pairs}
    data["type"], data["pairs"] = "matching", pairs
    data["distractors"] = list(dict.fromkeys(t for i, t in texts.items() if i not in used and t not in answer_texts and t))
    _shuffle(r, data)
    return None


def _one_group_matching(r: ItemContext, data: Data, group: etree._Element) -> bool | None:
    """Sakai's Samigo: one ``response_grp`` holding the prompts (labels with a ``match_group``) and
    the answers (the others); a condition that gives credit tests an answer's ident for the prompt
    it belongs to."""
    labels = _labels(group)
    prompts = {label.get("ident", ""): r.markdown(_material(label), "a matching prompt")
               for label in labels if label.get("match_group") is not None}
    answers = {label.get("ident", ""): r.markdown(_material(label), "a matching answer")
               for label in labels if label.get("match_group") is None}
    chosen: dict[str, str] = {}
    for condition in _scoring(r):
        for test in condition.tests():
            if test.kind == "varequal" and not test.negated and test.respident in answers and test.value in prompts:
                chosen.setdefault(test.value, test.respident)
    pairs = [{"prompt": text, "answer": answers[chosen[ident]]} for ident, text in prompts.items() if ident in chosen]
    for ident, text in prompts.items():
        if ident not in chosen:
            r.lost.append(f"prompt '{text}', which has no answer")
    used = {answers[a] for a in chosen.values()}
    data["type"], data["pairs"] = "matching", pairs
    data["distractors"] = list(dict.fromkeys(t for t in answers.values() if t not in used and t))
    _shuffle(r, data)
    return None


def _prompt(response: etree._Element) -> etree._Element | None:
    """A matching prompt: the ``material`` of its ``response_lid`` (Canvas, IMS), else the
    material just before it (Blackboard puts each prompt in a ``flow`` before its response)."""
    own = child(response, "material")
    if own is not None:
        return own
    previous = response.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    if previous is None:
        return None
    return previous if local(previous) == "material" else next(iter(descendants(previous, "material")), None)


def _right_match_block(r: ItemContext) -> list[etree._Element]:
    """Blackboard's matching answers, in order: the materials of its ``RIGHT_MATCH_BLOCK`` flow
    (the ``response_label``s of each prompt stand for them by position)."""
    if r.presentation is None:
        return []
    block = next((f for f in descendants(r.presentation, "flow") if (f.get("class") or "").upper() == "RIGHT_MATCH_BLOCK"), None)
    if block is None:
        return []
    return [m for m in descendants(block, "material") if not any(local(a) == "material" for a in m.iterancestors())]


def _blanks(r: ItemContext, data: Data, dropdowns: bool) -> bool | None:
    responses = _responses(r)
    if not responses and not dropdowns and r.presentation is not None:
        # Blackboard's "Fill in the Blank Plus", D2L's "Fill in the Blanks": a text box
        # (``response_str``) per blank, its accepted answers in the scoring conditions.
        return _typed_blanks(r, data, descendants(r.presentation, "response_str"))
    originals = [_blank_name(response) for response in responses]
    if dropdowns and _ordering(r, data, responses, originals):
        return None
    # Our own blank ids come back; others are numbered as the Markdown dialect numbers blanks.
    ids = [original if r.scope.ours and sanitise_id(original) == original else f"b{index}"
           for index, original in enumerate(originals, 1)]
    if len(set(ids)) != len(ids):
        ids = [f"b{index}" for index in range(1, len(ids) + 1)]
    stem = r.markdown(r.stem_material(), "the text", blanks=originals)
    data["stem"] = restore_blanks(stem, ids)
    blanks = []
    for response, ident, original in zip(responses, ids, originals):
        options = [(label.get("ident", ""), r.scope.text.plain(_material(label), f"an answer of blank '{original}'", r.lost))
                   for label in _labels(response)]
        for label_ident, text in options:
            if f"{label_ident}_fb" in r.feedback:
                r.used_feedback.add(f"{label_ident}_fb")
                r.lost.append(f"the feedback on answer '{text}' of blank '{original}'")
        if dropdowns:
            correct = {v for c in _scoring(r) for v in c.values(response.get("ident"))}
            blanks.append({"id": ident, "kind": "dropdown", "answers": [t for i, t in options if i in correct and t],
                           "options": [t for i, t in options if i not in correct and t]})
        else:
            blanks.append({"id": ident, "kind": "text", "answers": list(dict.fromkeys(t for _, t in options if t))})
    data["type"], data["blanks"] = "fill_in_blank", blanks
    return None


def _typed_blanks(r: ItemContext, data: Data, responses: list[etree._Element]) -> bool | None:
    if not responses:
        r.skip(INVALID, "the fill-in-the-blank question has no blanks; skipped")
        return False
    names = [response.get("ident", "") for response in responses]
    ids = [f"b{index}" for index in range(1, len(names) + 1)]
    material = r.stem_material()
    html = r.scope.text.material_html(material)
    if not any(f"[{name}]" in html for name in names):
        html = _interleaved(r, responses)  # the text around the boxes, in order
    stem = r.scope.text.html_markdown(html, f"the text of '{r.label}'", r.span(), r.member, blanks=names)
    data["stem"] = restore_blanks(stem, ids)
    blanks = []
    # Sakai's Samigo gives each blank its condition and no score (it shares the points out);
    # every condition on a box is then an accepted answer, Samigo's "a|b" two of them.
    scoring = _scoring(r) or ([c for c in r.conditions if not c.is_other] if r.scope.system == "Sakai" else [])
    for response, ident in zip(responses, ids):
        # D2L tests the box's label (``…_ANS``), not the response (``…_STR``).
        names = [response.get("ident")] + [label.get("ident") for label in descendants(response, "response_label")]
        found = [v for c in scoring for name in dict.fromkeys(names) if name for v in c.values(name)]
        if r.scope.system == "Sakai":
            found = [part.strip() for a in found for part in a.split("|")]
        blanks.append({"id": ident, "kind": "text", "answers": list(dict.fromkeys(a for a in found if a))})
    data["type"], data["blanks"] = "fill_in_blank", blanks
    return None


def _interleaved(r: ItemContext, responses: list[etree._Element]) -> str:
    """The question's text with ``[ident]`` where each text box stands among its materials."""
    container = responses[0].getparent()
    parts = []
    for node in children(container) if container is not None else []:
        if local(node) == "material":
            html = r.scope.text.material_html(node).strip()
            inline = re.fullmatch(r"<p>(.*)</p>", html, re.S)  # one paragraph of a sentence the boxes are in
            parts.append(inline.group(1) if inline and "<p>" not in inline.group(1) else html)
        elif node in responses:
            parts.append(f"[{node.get('ident', '')}]")
    joined = ""
    for part in parts:  # a space between a box and the words around it, none before punctuation
        if joined and part and not joined[-1].isspace() and not part[0].isspace() and not re.match(r"[.,;:!?)]", part):
            joined += " "
        joined += part
    return joined


def _blank_name(response: etree._Element) -> str:
    """A blank's id: ``response_<id>``; the material holds it too."""
    ident = response.get("ident", "")
    if ident.startswith("response_"):
        return ident[len("response_"):]
    material = child(response, "material")
    text = " ".join("".join(m.itertext()) for m in descendants(material, "mattext")).strip() if material is not None else ""
    return text or ident


def _ordering(r: ItemContext, data: Data, responses: list[etree._Element], originals: list[str]) -> bool:
    """Our ordering form: blanks p1..pn, each listing every item, the stem ending ``N. [pN]`` lines.
    True when the question is one (``data`` is then an ordering question)."""
    count = len(responses)
    if count < 2 or originals != [f"p{i}" for i in range(1, count + 1)]:
        return False
    listed = [[(label.get("ident", ""), r.scope.text.plain(_material(label), "an item", [])) for label in _labels(response)]
              for response in responses]
    items = [text for _, text in listed[0]]
    if len(set(items)) != count or any(sorted(t for _, t in options) != sorted(items) for options in listed):
        return False
    order = []
    for response, options in zip(responses, listed):
        correct = {v for c in _scoring(r) for v in c.values(response.get("ident"))}
        chosen = [text for ident, text in options if ident in correct]
        if len(chosen) != 1:
            return False
        order.append(chosen[0])
    if sorted(order) != sorted(items):
        return False
    stem = strip_positions(r.scope.text.material_html(r.stem_material()), count)
    if stem is None:
        return False
    data["type"], data["stem"] = "ordering", r.html_markdown(stem, "the text")
    data["items"] = [r.scope.text.plain_markdown(text) for text in order]
    return True


# -- New Quizzes' types (its exports, read as Instructure's qti gem reads them) -------------------


def _categorization(r: ItemContext, data: Data) -> bool | None:
    """New Quizzes' categorization (the gem's ``categorization_interaction.rb``): one
    ``response_lid`` per category, its material the category's name, each listing every item; one
    scoring condition per category with a ``varequal`` per item in it. The model's nearest form
    is matching: each item a prompt, its category the answer; a category with no item a
    distractor."""
    responses = _responses(r)
    if not responses:
        r.skip(INVALID, "the categorization question has no categories; skipped")
        return False
    texts: dict[str, str] = {}
    for response in responses:
        for label in _labels(response):
            texts.setdefault(label.get("ident", ""), r.markdown(_material(label), "an item to categorize"))
    category_of: dict[str, str] = {}
    names = []
    for response in responses:
        name = r.scope.text.plain(_material(response), "a category", r.lost)
        names.append(name)
        for item in (v for c in _scoring(r) for v in c.values(response.get("ident"))):
            if item in category_of and category_of[item] != name:
                r.lost.append(f"item '{texts.get(item, item)}' in category '{name}' as well as '{category_of[item]}' (the first is kept)")
            category_of.setdefault(item, name)
    pairs = [{"prompt": text, "answer": r.scope.text.plain_markdown(category_of[ident])}
             for ident, text in texts.items() if ident in category_of]
    for ident, text in texts.items():
        if ident not in category_of:
            r.lost.append(f"the distractor '{text}' (an item in no category: matching has no place for it)")
    if len(pairs) < 2:
        r.skip(INVALID, "the categorization question has fewer than two items in a category; skipped")
        return False
    used = set(category_of.values())
    data["type"], data["pairs"] = "matching", pairs
    data["distractors"] = [r.scope.text.plain_markdown(n) for n in dict.fromkeys(names) if n not in used]
    r.warn(LOST, "a New Quizzes categorization question is imported as matching: each item is matched with its category")
    return None


def _ordering_question(r: ItemContext, data: Data) -> bool | None:
    """New Quizzes' ordering (the gem's ``ordering_interaction.rb``): one ``response_lid``
    ``rcardinality="Ordered"`` listing the items; the order is every ``varequal`` of the item in
    document order."""
    responses = _responses(r)
    labels = _labels(responses[0]) if len(responses) == 1 else []
    texts = {label.get("ident", ""): r.markdown(_material(label), "an item") for label in labels}
    order = [t.value for c in r.conditions for t in c.tests() if t.kind == "varequal" and not t.negated and t.value in texts]
    if not order:
        # D2L: each item's place, tested on the item (``varequal respident=<item>`` 1, 2, ...).
        places = {t.respident: int(t.value) for c in r.conditions for t in c.tests()
                  if t.kind == "varequal" and not t.negated and t.respident in texts and t.value.isdigit()}
        order = sorted(places, key=lambda ident: places[ident])
    order = list(dict.fromkeys(order))
    if len(order) < 2:
        r.skip(INVALID, "the ordering question has no order of two items or more; skipped")
        return False
    for ident, text in texts.items():
        if ident not in order:
            r.lost.append(f"item '{text}', which has no place in the order")
    if any(m.get("position") for m in descendants(responses[0], "material")):
        r.lost.append("the labels at the top and bottom of the list")
    data["type"], data["items"] = "ordering", [texts[ident] for ident in order]
    return None


def _hot_spot(r: ItemContext, data: Data) -> bool | None:
    who = "a New Quizzes hot-spot question" if r.kind == "hot_spot_question" else "a hot-spot question"
    r.skip(UNSUPPORTED, f"{who} (a click on an image) has no form in the source; skipped")
    return False


def _fill_in_multiple_blanks(r: ItemContext, data: Data) -> bool | None:
    return _blanks(r, data, dropdowns=False)


def _multiple_dropdowns(r: ItemContext, data: Data) -> bool | None:
    return _blanks(r, data, dropdowns=True)


#: Types whose reader writes the stem itself (blanks are marked in it).
OWN_STEM = {"multiple_dropdowns_question", "fill_in_multiple_blanks_question", "calculated_question"}
READERS: dict[str, Reader] = {
    "multiple_choice_question": _multiple_choice, "true_false_question": _true_false,
    "multiple_answers_question": _multiple_answers, "short_answer_question": _short_answer,
    "numerical_question": _numerical, "essay_question": _essay, "file_upload_question": _file_upload,
    "matching_question": _matching, "multiple_dropdowns_question": _multiple_dropdowns,
    "fill_in_multiple_blanks_question": _fill_in_multiple_blanks, "text_only_question": _text_only,
    "categorization_question": _categorization, "ordering_question": _ordering_question,
    "calculated_question": read_calculated, "hot_spot_question": _hot_spot,
}
