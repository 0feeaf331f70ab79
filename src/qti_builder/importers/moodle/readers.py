"""One reader per Moodle question type; :data:`TYPES` maps a type to its model kind and reader.
A reader fills in its kind's fields from the question's ``<answer>``s and settings, or returns
False to skip the question; :meth:`.bank.BankReader._question` has already read the stem, the
points and the general feedback."""

from __future__ import annotations

import re

from lxml import etree

from ...writers.moodle import ORDERING_OPTIONS
from ..base import INVALID, choice_ids, one_line, set_choice_scores
from ..markup import plain_to_markdown
from .calculated_source import calculated, calculatedmulti
from .formulas import formulas_question
from .cloze import cloze
from .context import Context, Data, Reader, number
from .gaps import ddwtos, gapfill, gapselect
from .mtf import mtf
from .plugins import coderunner, wordselect


def _fraction(answer: etree._Element) -> float:
    value = number(answer.get("fraction"))
    return value if value is not None else 0.0


def _bool(text: str, default: bool) -> bool:
    text = text.strip().lower()
    return default if not text else text in ("1", "true", "yes")


def _multichoice(c: Context) -> bool | None:
    answers = c.answers()
    fractions = [_fraction(a) for a in answers]
    texts = [c.answer_text(a, f"answer {i + 1}") for i, a in enumerate(answers)]
    single = _bool(c.value("single"), True)
    ids = choice_ids(len(answers))
    choices = []
    for ident, answer, text, fraction in zip(ids, answers, texts, fractions):
        choice: Data = {"id": ident, "text": text, "correct": fraction > 0}
        feedback = c.rich("feedback", f"the feedback of answer {ident}", answer)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    c.data["choices"] = choices
    c.data["shuffle"] = _bool(c.value("shuffleanswers"), True)
    c.combined_feedback()
    if (c.value("answernumbering") or "").strip().lower() == "none":
        c.data["numbering"] = "none"  # options not numbered: the source says so (numbering=none)
    else:
        c.setting("answernumbering", ("abc", "abcd", "ABCD".lower()), "answer numbering")
    if single:
        best = max(fractions, default=0)
        for choice, fraction in zip(choices, fractions):
            choice["correct"] = fraction == best and best > 0
        partial = [f"{choice['id']} ({fraction:g} %)" for choice, fraction in zip(choices, fractions) if 0 < fraction < best]
        if partial:
            c.lost.append("partial credit of answers " + ", ".join(partial) + " (single choice is all or nothing)")
        if sum(ch["correct"] for ch in choices) > 1:
            c.data["type"] = "multiple_response"
            c.lost.append("several answers worth full marks in a single-answer question: imported as multiple response")
        else:
            c.data["type"] = "single_choice"
        return None
    c.data["type"] = "multiple_response"
    set_choice_scores(c.data, fractions)
    return None


def _truefalse(c: Context) -> bool | None:
    answer = None
    for element in c.answers():
        text = (element.findtext("text") or element.text or "").strip().lower()
        value = {"true": True, "false": False}.get(text)
        if value is None:
            continue
        feedback = c.rich("feedback", f"the feedback of '{text}'", element)
        if feedback:
            c.data[f"{text}_feedback"] = feedback
        if _fraction(element) > 0:
            answer = value
    if answer is None:
        c.skip(INVALID, f"true/false question '{c.name}' (truefalse) has no answer worth marks; skipped")
        return False
    c.data["answer"] = answer
    return None


def _catch_all(c: Context, answers: list[Data]) -> list[Data]:
    """Moodle's "any other answer" (``*`` worth 0) carries the incorrect feedback; it is no answer."""
    kept = []
    for answer in answers:
        if answer.get("_text") == "*" and answer["score"] == 0:
            if answer.get("feedback") and not c.data["feedback"].get("incorrect"):
                c.data["feedback"]["incorrect"] = answer["feedback"]
            continue
        kept.append(answer)
    for answer in kept:
        answer.pop("_text", None)
    return kept


def _shortanswer(c: Context) -> bool | None:
    answers = []
    for element in c.answers():
        # Moodle keeps short answers as plain text whatever their format says (it matches on them).
        text = (element.findtext("text") or element.text or "").strip()
        entry: Data = {"text": one_line(text), "_text": one_line(text), "score": max(_fraction(element), 0)}
        feedback = c.rich("feedback", f"the feedback of answer '{text}'", element)
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    c.data["answers"] = _catch_all(c, answers)
    c.data["case_sensitive"] = _bool(c.value("usecase"), False)
    return None


def _numerical(c: Context) -> bool | None:
    answers = []
    for element in c.answers():
        text = (element.findtext("text") or element.text or "").strip()
        fraction = max(_fraction(element), 0)
        feedback = c.rich("feedback", f"the feedback of answer '{text}'", element)
        if text == "*":
            answers.append({"_text": "*", "score": fraction, "feedback": feedback})
            continue
        value = number(text)
        if value is None:
            c.lost.append(f"answer '{text}' (not a number)")
            continue
        tolerance = abs(number(element.findtext("tolerance")) or 0.0)
        entry: Data = {"value": value, "tolerance": tolerance, "score": fraction}
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    c.data["answers"] = _catch_all(c, answers)
    units = c.element.findall("units/unit")
    base = [u for u in units if (number(u.findtext("multiplier")) or 0) == 1]
    if base:
        c.data["unit"] = (base[0].findtext("unit_name") or "").strip() or None
    others = [(u.findtext("unit_name") or "").strip() for u in units if u not in base[:1]]
    if others:
        c.lost.append("the units " + ", ".join(others) + " (the source has one unit)")
    c.setting("unitgradingtype", ("0", ""), "unit grading")
    return None


def _essay(c: Context) -> bool | None:
    fmt = c.value("responseformat").lower() or "editor"
    attachments = int(number(c.value("attachments")) or 0)
    if attachments < 0:
        c.lost.append("unlimited attachments (at most 20 are kept)")
        attachments = 20
    model_answer = c.rich("graderinfo", "the grader information")
    if model_answer:
        c.data["model_answer"] = model_answer
    types = [t.strip() for t in re.split(r"[,;\s]+", c.value("filetypeslist")) if t.strip()]
    if fmt == "noinline":
        c.data["type"] = "file_upload"
        c.data["max_files"] = min(max(attachments, 1), 20)
        c.data["allowed_types"] = [t.lower() for t in types if re.fullmatch(r"\.[A-Za-z0-9]{1,10}", t)]
        groups = [t for t in types if not re.fullmatch(r"\.[A-Za-z0-9]{1,10}", t)]
        if groups:
            c.lost.append("file type groups " + ", ".join(groups) + " (the source lists extensions)")
        c.setting("attachmentsrequired", ("1", str(max(attachments, 1))), "attachments required")
        return None
    formats = {"editor": "editor", "editorfilepicker": "editor", "plain": "plain", "monospaced": "monospaced"}
    c.data["response_format"] = formats.get(fmt, "editor")
    if fmt not in formats:
        c.lost.append(f"response format '{fmt}'")
    elif fmt == "editorfilepicker":
        c.lost.append("files inside the answer editor (editorfilepicker)")
    lines = int(number(c.value("responsefieldlines")) or 15)
    c.data["expected_lines"] = min(max(lines, 1), 200)
    for tag, key in (("minwordlimit", "min_words"), ("maxwordlimit", "max_words")):
        limit = int(number(c.value(tag)) or 0)
        if limit > 0:
            c.data[key] = limit
    c.data["attachments"] = min(attachments, 20)
    if types and attachments:
        c.lost.append("the attachments' file types " + ", ".join(types))
    c.setting("responserequired", ("1", ""), "answer required")
    c.setting("attachmentsrequired", ("0", ""), "attachments required")
    template = c.rich("responsetemplate", "the response template")
    if template:
        c.lost.append("the response template")
    return None


def _matching(c: Context) -> bool | None:
    pairs, distractors = [], []
    for sub in c.element.findall("subquestion"):
        prompt = c.file._rich(sub, c.span, f"a prompt of '{c.name}'")
        answer = one_line(sub.findtext("answer/text") or sub.findtext("answer") or "")
        if not answer:
            continue
        answer_md = plain_to_markdown(answer)
        if prompt:
            pairs.append({"prompt": prompt, "answer": answer_md})
        else:
            distractors.append(answer_md)
    c.data["pairs"] = pairs
    c.data["distractors"] = distractors
    c.data["shuffle"] = _bool(c.value("shuffleanswers"), True)
    c.combined_feedback()
    return None


def _ordering(c: Context) -> bool | None:
    items = [c.answer_text(a, f"item {i + 1}") for i, a in enumerate(c.answers())]
    c.data["items"] = items
    c.combined_feedback()
    for tag, value in ORDERING_OPTIONS.items():
        c.setting(tag, (value.lower(), ""), tag)
    if c.value("selecttype") and c.value("selecttype").upper() != "ALL" and c.value("selectcount") not in ("", "0", str(len(items))):
        c.lost.append(f"showing {c.value('selectcount')} of the items")
    return None


def _description(c: Context) -> bool | None:
    c.data["points"] = 0
    return None


#: Moodle type -> (model kind, reader). A reader fills in the data, or returns False to skip.
#: Calculated questions become calculated sources with the file's own sets (:mod:`.calculated_source`).
TYPES: dict[str, tuple[str, Reader]] = {
    "multichoice": ("single_choice", _multichoice),
    "truefalse": ("true_false", _truefalse),
    "shortanswer": ("short_answer", _shortanswer),
    "numerical": ("numerical", _numerical),
    "essay": ("essay", _essay),
    "matching": ("matching", _matching),
    "match": ("matching", _matching),  # the name Moodle uses inside; its import takes both
    "ordering": ("ordering", _ordering),
    "cloze": ("fill_in_blank", cloze),
    "multianswer": ("fill_in_blank", cloze),
    "gapselect": ("fill_in_blank", gapselect),
    "ddwtos": ("fill_in_blank", ddwtos),
    "gapfill": ("fill_in_blank", gapfill),
    "mtf": ("matching", mtf),
    "wordselect": ("multiple_response", wordselect),
    "coderunner": ("essay", coderunner),
    "description": ("text_only", _description),
    "calculated": ("calculated", calculated),
    "calculatedsimple": ("calculated", calculated),
    "calculatedmulti": ("calculated_choice", calculatedmulti),
    "formulas": ("calculated", formulas_question),
}
