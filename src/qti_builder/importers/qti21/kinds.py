"""One reader per kind: each fills the kind's fields (choices, answers, pairs, blanks, ...) of
an item's data from its interactions and response declarations. :data:`READERS` maps a kind
to its reader (:data:`INTERACTION_READERS` reads a slider as a numerical question, :mod:`.placing` has
those of gap match, associate and hot text items);
:meth:`.item.ItemReader.read` has already set the stem and points. A reader that finds the item
cannot be held reports it and sets ``data["_skip"]``."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from lxml import etree

from ...kinds import KindTable, resolve
from ...writers.qti21 import UPLOAD_TYPES, scrambled
from ...plurals import plural
from ..base import INVALID, UNSUPPORTED, choice_ids, one_line, set_choice_scores
from .context import FALSE_WORDS, TRUE_WORDS, ItemContext
from .responses import Response, incomplete_share, text_conditions
from .xml import Data, _float, children, descendants, local

MIME_EXTENSIONS = {mime: ext for ext, mime in reversed(list(UPLOAD_TYPES.items()))}


def _percent(value: float, points: float) -> float:
    return round(value / points * 100, 5) if points else 100.0


def _choices(r: ItemContext, data: Data, interactions: list[etree._Element]) -> dict[str, str]:
    interaction = interactions[0]
    simple = descendants(interaction, "simpleChoice")
    originals = [c.get("identifier", "") for c in simple]
    ids = choice_ids(len(simple), originals)
    rename = dict(zip(originals, ids))
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    choices = []
    for element, ident, original in zip(simple, ids, originals):
        choice: Data = {"id": ident, "text": r.rich(children(element), f"choice {ident}", element.text),
                        "correct": original in response.correct, "fixed": element.get("fixed") == "true"}
        feedback = r.choice_feedback(original)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    data["choices"] = choices
    data["shuffle"] = interaction.get("shuffle") == "true"
    return rename


def _single_choice(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    rename = _choices(r, data, interactions)
    response = r.responses.get(interactions[0].get("responseIdentifier", ""), Response(""))
    best = max(response.mapping.values(), default=0.0)
    right = [o for o in rename if o in response.correct] or [o for o in rename if best > 0 and response.mapping.get(o) == best]
    for choice, original in zip(data["choices"], rename):
        choice["correct"] = original in right
    partial = [f"{rename[o]} ({_percent(v, best):g} %)" for o, v in response.mapping.items() if o in rename and 0 < v < best]
    if partial:
        r.lost.append("partial credit of " + ", ".join(partial) + " (a single choice is all or nothing)")
    if len(right) > 1:
        # Any one of them was fully right; the model's single choice has one right answer.
        data["type"] = "multiple_response"
        r.lost.append(f"choices {', '.join(rename[o] for o in right)} are each fully right in a one-answer item: imported as "
                      "multiple response, where each earns a share")


def mapped_scores(r: ItemContext, data: Data, response: Response, originals: list[str]) -> None:
    """Choice scores from a mapping (unlisted choices score its default), as percentages of what
    the right choices give together; all or nothing reported when the item scores so."""
    values = [response.mapping.get(original, response.default) if response.mapping else 0.0 for original in originals]
    positive = sum(v for v in values if v > 0)
    if not response.mapping or positive <= 0:
        for choice, original in zip(data["choices"], originals):
            choice["correct"] = original in response.correct
        share = incomplete_share(r.original)
        if share is not None and data.get("points"):
            # Right but incomplete earns a share: the exam rule (scoring=exam).
            data.update(scoring="exam", incomplete_points=round(share * data["points"], 5))
        else:
            data["scoring"] = "all_or_nothing"  # the correct response, or nothing
        return
    if r.scoring == "match_correct":
        r.lost.append("all-or-nothing scoring (the source gives the mapping's partial credit per choice)")
    if response.upper is not None and response.upper < positive - 1e-9:
        r.lost.append(f"the mapping's upper bound of {response.upper:g} (the right choices now share the points)")
    fractions = [round(v / positive * 100, 5) for v in values]
    for choice, fraction in zip(data["choices"], fractions):
        choice["correct"] = fraction > 0
    set_choice_scores(data, fractions)


def _multiple_response(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    rename = _choices(r, data, interactions)
    response = r.responses.get(interactions[0].get("responseIdentifier", ""), Response(""))
    mapped_scores(r, data, response, list(rename))


def _true_false(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    simple = descendants(interaction, "simpleChoice")
    correct = next((c for c in simple if c.get("identifier") in response.correct), None)
    if correct is None:
        r.skip(INVALID, "the true/false item has no correct answer; skipped")
        data["_skip"] = True
        return
    data["answer"] = simple.index(correct) == 0
    for element, key in zip(simple, ("true_feedback", "false_feedback")):
        feedback = r.choice_feedback(element.get("identifier", ""))
        if feedback:
            data[key] = feedback


def _short_answer(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    response = r.responses.get(interactions[0].get("responseIdentifier", ""), Response(""))
    points = data.get("points", 1.0)
    answers: list[Data] = []
    case_sensitive = response.case_sensitive
    for test, score, feedback_id in text_conditions(r.item, response.identifier):
        if local(test) == "stringMatch":
            text = "".join(v.text or "" for v in descendants(test, "baseValue")).replace("*", "\\*")
            case_sensitive = test.get("caseSensitive", "true") == "true"
        elif local(test) == "patternMatch":
            wildcard = _pattern_to_wildcard(test.get("pattern", ""))
            # Without case sensitivity every letter of the pattern is a class ([xX]).
            outside = re.sub(r"\[[^\]]*\]|\\.", "", test.get("pattern", ""))
            if any(c.lower() != c.upper() for c in outside):
                case_sensitive = True
            if wildcard is None:
                r.lost.append(f"the answer pattern '{test.get('pattern')}' (only * wildcards can be expressed)")
                continue
            text = wildcard
        elif local(test) == "match":
            values = descendants(test, "baseValue")
            if not values:  # match_correct written out: the declared correct response
                for correct in response.correct:
                    answers.append({"text": correct.replace("*", "\\*"), "score": _percent(score, points) if score is not None else 100.0})
                continue
            text = "".join(v.text or "" for v in values).replace("*", "\\*")
        else:
            continue
        entry: Data = {"text": text, "score": _percent(score, points) if score is not None else 100.0}
        feedback = r.feedback_for(feedback_id) if feedback_id else None
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    if not answers:
        for key, value in response.mapping.items():
            answers.append({"text": key.replace("*", "\\*"), "score": _percent(value, points) if points else 100.0})
        for correct in response.correct:
            if not any(a["text"] == correct.replace("*", "\\*") for a in answers):
                answers.insert(0, {"text": correct.replace("*", "\\*"), "score": 100.0})
        if answers and not any(a["score"] >= 100 for a in answers):
            best = max(answers, key=lambda a: a["score"])
            best["score"] = 100.0
    data["answers"] = [a for a in answers if a["score"] > 0 or a.get("feedback")] or answers
    data["case_sensitive"] = bool(case_sensitive)


def _pattern_to_wildcard(pattern: str) -> str | None:
    """Our patternMatch (writers.qti21.wildcard_pattern) back to Moodle's ``*`` wildcards."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith(".*", i):
            out.append("*")
            i += 2
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            out.append("\\*" if pattern[i + 1] == "*" else pattern[i + 1])
            i += 2
        elif pattern[i] == "[":
            end = pattern.find("]", i)
            body = pattern[i + 1:end] if end > i else ""
            if len(body) == 2 and body[0].lower() == body[1].lower():
                out.append(body[0])
                i = end + 1
            else:
                return None
        elif pattern[i] in "|?+(){}^":
            return None
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _numerical(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    points = data.get("points", 1.0)
    answers: list[Data] = []
    for test, score, feedback_id in text_conditions(r.item, response.identifier):
        bounds = [_float(v.text) for v in descendants(test, "baseValue") if v.get("baseType") in ("float", "integer")]
        numbers = [b for b in bounds if b is not None]
        if local(test) == "and" and len(bounds) == 2 and len(numbers) == 2:
            low, high = sorted(numbers)
            entry: Data = {"value": _round((low + high) / 2), "tolerance": _round((high - low) / 2)}
        elif local(test) in ("match", "equal") and (len(bounds) == 1 and bounds[0] is not None or _correct(test, response)):
            entry = {"value": bounds[0] if bounds else _float(response.correct[0]), "tolerance": 0.0}
            tolerance = (test.get("tolerance") or "").split()
            if tolerance and _float(tolerance[0]) is not None:
                entry["tolerance"] = _float(tolerance[0])
                if test.get("toleranceMode") == "relative":
                    entry["tolerance_mode"] = "percent"
        else:
            continue
        entry["score"] = _percent(score, points) if score is not None else 100.0
        feedback = r.feedback_for(feedback_id) if feedback_id else None
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    if not answers:
        answers = [{"value": _float(v), "score": 100.0} for v in response.correct if _float(v) is not None]
        best = max(response.mapping.values(), default=0.0)
        answers += [{"value": _float(k), "score": _percent(v, best)} for k, v in response.mapping.items()
                    if v > 0 and _float(k) is not None and k not in response.correct]
    data["answers"] = answers
    unit = (interaction.tail or "").strip()
    if unit:
        data["unit"] = unit


def _correct(test: etree._Element, response: Response) -> bool:
    """Does ``test`` compare the response with its declared correct response (a number)?"""
    return any(local(c) == "correct" for c in children(test)) and len(response.correct) == 1 \
        and _float(response.correct[0]) is not None


def _slider(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    """A slider: the number it sets, as a numerical question's answer (its correct response,
    mapping or written-out rules, as for a typed number)."""
    _numerical(r, data, interactions)
    data.pop("unit", None)
    slider = interactions[0]
    step = slider.get("step")
    r.lost.append(f"the slider from {slider.get('lowerBound')} to {slider.get('upperBound')}"
                  f"{f' in steps of {step}' if step else ''}: students type the number")


def _round(value: float) -> float:
    return float(f"{value:.10g}")


def _essay(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    text = next(i for i in interactions if local(i) == "extendedTextInteraction")
    formats = {"plain": "plain", "preformatted": "monospaced", "xhtml": "editor"}
    data["response_format"] = formats.get((text.get("format") or "plain").lower(), "editor")
    lines = _float(text.get("expectedLines"))
    if lines:
        data["expected_lines"] = int(min(max(lines, 1), 200))
    length = _float(text.get("expectedLength"))
    if length:
        if r.reader.ours and length % 6 == 0:
            data["max_words"] = int(length // 6)
        else:
            r.lost.append(f"the expected length of {length:g} characters")
    data["attachments"] = min(sum(1 for i in interactions if local(i) == "uploadInteraction"), 20)
    _model_answer(r, data)


def _file_upload(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    data["max_files"] = min(len(interactions), 20)
    kinds = {i.get("type") for i in interactions if i.get("type")}
    data["allowed_types"] = [MIME_EXTENSIONS[k] for k in sorted(kinds) if k in MIME_EXTENSIONS]
    if kinds - set(MIME_EXTENSIONS):
        r.lost.append("the file types " + ", ".join(sorted(kinds - set(MIME_EXTENSIONS))))
    _model_answer(r, data)


def _model_answer(r: ItemContext, data: Data) -> None:
    rubric = [b for b in descendants(r.item, "rubricBlock") if "scorer" in (b.get("view") or "")]
    if rubric:
        inner = children(rubric[0])
        if len(inner) == 1 and local(inner[0]) == "div" and "model-answer" in (inner[0].get("class") or ""):
            inner = [inner[0]]
            text = r.rich(children(inner[0]), "the model answer", inner[0].text)
        else:
            text = r.rich(inner, "the model answer", rubric[0].text)
        if text:
            data["model_answer"] = text
    solution = r.feedback_for("solution")
    if solution and not data.get("model_answer"):
        data["model_answer"] = solution


def _unscramble(shown: list[Any], seed: str) -> list[Any]:
    """The order our writer listed before scrambling (writers.qti21.scrambled with the same seed)."""
    positions = scrambled(list(range(len(shown))), seed)  # shown[i] was originally at positions[i]
    original: list[Any] = [None] * len(shown)
    for index, position in enumerate(positions):
        original[position] = shown[index]
    return original


def _matching(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    sets = children(interaction, "simpleMatchSet")
    if len(sets) != 2:
        r.skip(UNSUPPORTED, f"it has {plural(len(sets), 'simpleMatchSet')}, not two; skipped")
        data["_skip"] = True
        return
    sources = children(sets[0], "simpleAssociableChoice")
    targets = children(sets[1], "simpleAssociableChoice")
    text_of = {t.get("identifier"): r.rich(children(t), "a matching answer", t.text) for t in targets}
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    pairs_of: dict[str, list[str]] = {}
    for value in response.correct:
        parts = value.split()
        if len(parts) == 2:
            pairs_of.setdefault(parts[0], []).append(parts[1])
    pairs = []
    used = set()
    for source in sources:
        matched = pairs_of.get(source.get("identifier", ""), [])
        if len(matched) > 1:
            r.lost.append(f"the further answers of prompt '{one_line(''.join(source.itertext()))}' (one answer per prompt)")
        if not matched:
            r.lost.append(f"prompt '{one_line(''.join(source.itertext()))}', which has no answer")
            continue
        used.add(matched[0])
        pairs.append({"prompt": r.rich(children(source), "a matching prompt", source.text), "answer": text_of.get(matched[0], "")})
    order = [t.get("identifier") for t in targets]
    if r.reader.ours:
        order = _unscramble(order, r.model_id)
    answers = {p["answer"] for p in pairs}
    data["pairs"] = pairs
    data["distractors"] = [text_of[t] for t in order if t not in used and text_of.get(t) not in answers]
    data["shuffle"] = interaction.get("shuffle") == "true"


def _ordering(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    choices = {c.get("identifier"): c for c in descendants(interaction, "simpleChoice")}
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    order = [choices[v] for v in response.correct if v in choices] or list(choices.values())
    data["items"] = [r.rich(children(c), "an item", c.text) for c in order]


def _fill_in_blank(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    blanks = []
    sensitivity = set()
    by_response = {i.get("responseIdentifier"): i for i in interactions}
    for index, response_id in enumerate(r.blank_order, 1):
        blank_id = r._blank_id(response_id, index)
        interaction = by_response.get(response_id)
        response = r.responses.get(response_id, Response(response_id))
        if interaction is not None and local(interaction) == "inlineChoiceInteraction":
            options = [(c.get("identifier"), "".join(c.itertext()).strip()) for c in descendants(interaction, "inlineChoice")]
            if r.reader.ours:
                options = _unscramble(options, f"{r.model_id}/{blank_id}")
            right = response.right()
            correct = [text for ident, text in options if ident in right]
            if len(correct) > 1:
                r.lost.append(f"the further right options of blank {index} ({', '.join(correct[1:])})")
            blanks.append({"id": blank_id, "kind": "dropdown", "answers": correct[:1] or [options[0][1]],
                           "options": [text for ident, text in options if ident not in right[:1] and text not in correct[:1]]})
        else:
            answers = list(dict.fromkeys(response.correct + [k for k, v in response.mapping.items() if v > 0]))
            if not answers:  # written-out rules: stringMatch and the like
                answers = [v.text or "" for test, score, _ in text_conditions(r.item, response_id) if local(test) == "stringMatch"
                           and (score is None or score > 0) for v in descendants(test, "baseValue")]
            if response.case_sensitive is not None:
                sensitivity.add(response.case_sensitive)
            blanks.append({"id": blank_id, "kind": "text", "answers": [a for a in answers if a.strip()]})
    data["blanks"] = blanks
    _blank_points(r, data)
    data["case_sensitive"] = sensitivity == {True}
    if len(sensitivity) > 1:
        r.lost.append("case sensitivity per blank")


def _blank_points(r: ItemContext, data: Data) -> None:
    """Blanks whose mappings give them unequal scores that add up to the item's points keep them
    as their own points; equal ones stay an equal share of the points."""
    worth = [max((v for v in r.responses.get(rid, Response(rid)).mapping.values() if v > 0), default=None)
             for rid in r.blank_order]
    if len(worth) != len(data["blanks"]) or None in worth or len(set(worth)) < 2:
        return
    total = sum(w for w in worth if w is not None)
    if math.isclose(total, float(data.get("points", total)), abs_tol=1e-9):
        for blank, points in zip(data["blanks"], worth):
            blank["points"] = points


def _text_only(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    data.setdefault("points", 0.0)


def _calculated(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    """An item template read as a calculated question: :func:`.calculated.calculated_fields` has
    read its fields, the item reader its text with placeholders."""
    data.update(r.calculated or {})


def _calculated_choice(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    _choices(r, data, interactions)
    data.update(r.calculated or {})


# -- which kind an item of a shared interaction is (kinds.py Qti21Import.tells) -------------------


def _tells_true_false(r: ItemContext, interaction: etree._Element) -> bool:
    """Two choices that say true and false: by the response's name (TF...), the choices' ids, or
    their words in any language the importer knows."""
    choices = descendants(interaction, "simpleChoice")
    if len(choices) != 2:
        return False
    texts = [one_line("".join(c.itertext())).casefold() for c in choices]
    ids = [c.get("identifier", "").casefold() for c in choices]
    return (interaction.get("responseIdentifier", "").startswith("TF") or ids == ["true", "false"]
            or (texts[0] in TRUE_WORDS and texts[1] in FALSE_WORDS))


def _tells_multiple_response(r: ItemContext, interaction: etree._Element) -> bool:
    """More than one choice may be ticked (true/false, asked after this, is told by its words first)."""
    return interaction.get("maxChoices", "1") != "1" and not _tells_true_false(r, interaction)


def _stands_alone(interaction: etree._Element) -> bool:
    """A text box in a paragraph of its own (short answer, numerical), not inside a sentence."""
    parent = interaction.getparent()
    if local(parent) == "itemBody":
        return True
    if local(parent) != "p":
        return False
    before = (parent.text or "").strip()
    others = [c for c in children(parent) if c is not interaction]
    return not before and not others


def _tells_numerical(r: ItemContext, interaction: etree._Element) -> bool:
    """A text box of its own whose response is a number."""
    response = r.responses.get(interaction.get("responseIdentifier", ""))
    return _stands_alone(interaction) and response is not None and response.base_type in ("float", "integer")


def _tells_fill_in_blank(r: ItemContext, interaction: etree._Element) -> bool:
    """A text box inside a sentence: a blank (a drop-down is always one: no other kind claims it)."""
    return not _stands_alone(interaction)


#: Each kind's reader, from its spec (kinds.py KindSpec.qti21_import).
READERS: KindTable[Callable[[ItemContext, Data, list[etree._Element]], None]] = KindTable(
    "qti21_import", "importers/qti21/kinds.py READERS", lambda part: resolve(part.reader))
#: Interactions read by a kind's reader into that kind (READERS holds the model's kinds only):
#: a slider is a numerical question.
INTERACTION_READERS = {"slider": _slider}
KIND_TYPES = {"slider": "numerical"}
