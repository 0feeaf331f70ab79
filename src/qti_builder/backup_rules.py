"""What Moodle 4.5's restore of a quiz backup (.mbz) needs beyond what its schema says.

Each rule is something the restore gets wrong in silence, or refuses without saying why, when it
is broken (observed by restoring backups with Moodle's own restore, docs/moodle-quiz.md):
``rules_of_part`` checks one XML part, ``package_rules`` the parts against each other. Each
problem is (part, line, column, message).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from lxml import etree

#: The root element each part must have (the schema has one top-level element per part).
ROOTS = {"mbz-backup": "moodle_backup", "mbz-quiz": "activity", "mbz-module": "module", "mbz-inforef": "inforef",
         "mbz-questions": "question_categories", "mbz-files": "files",
         # One question's records, validated apart before they go into questions.xml (validate.WRAPPERS).
         "mbz-question": "question_bank_entries"}
#: The first bytes of moodle_backup.xml: Moodle reads its format from the first 200 bytes, and
#: calls a declaration in single quotes an unknown format, without a reason.
DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>'
#: Moodle's grade options as fractions 0..1 (writers.moodle.MOODLE_GRADES / 100).
Problem = tuple[int, int, str]


def rules_of_part(schema: str, tree: etree._ElementTree, data: bytes, grades: tuple[float, ...]) -> Iterator[Problem]:
    root = tree.getroot()
    expected = ROOTS.get(schema)
    if expected and root.tag != expected:
        yield 1, 1, f"the root element must be <{expected}>, not <{root.tag}>"
        return
    if schema == "mbz-backup":
        yield from _backup_rules(root, data)
    elif schema == "mbz-quiz":
        yield from _quiz_rules(root)
    elif schema in ("mbz-questions", "mbz-question"):
        yield from _question_rules(root, grades)


def _line(element: etree._Element) -> int:
    return element.sourceline or 1


def _backup_rules(root: etree._Element, data: bytes) -> Iterator[Problem]:
    head = data[:200]
    if not head.startswith(DECLARATION) or b"<moodle_backup>" not in head or b"<information>" not in head:
        yield 1, 1, ("Moodle reads a backup's format from the first 200 bytes of moodle_backup.xml: they must hold "
                     f"{DECLARATION.decode()}, <moodle_backup> and <information>")
    settings = {s.findtext("name"): s.findtext("value") for s in root.iter("setting") if s.findtext("level") == "root"}
    if settings.get("activities") != "1":
        yield 1, 1, "the root setting 'activities' must be 1, or the restore restores nothing"
    release = root.findtext("information/backup_release") or ""
    major = release.split(".")[0]
    if not major.isdigit() or int(major) < 4:
        yield 1, 1, f"backup_release '{release}' is before 4.0: the restore would drop every question"


def _decimal(text: str | None) -> Decimal:
    try:
        return Decimal((text or "").strip())
    except InvalidOperation:
        return Decimal(0)


def _quiz_rules(root: etree._Element) -> Iterator[Problem]:
    context = root.get("contextid")
    quiz = root.find("quiz")
    if quiz is None:
        return
    slots = quiz.findall("question_instances/question_instance")
    total = sum((_decimal(s.findtext("maxmark")) for s in slots), Decimal(0))
    sumgrades = quiz.find("sumgrades")
    if sumgrades is not None and _decimal(sumgrades.text) != total:
        yield _line(sumgrades), 1, (f"sumgrades {sumgrades.text} is not the sum of the slots' marks ({total}): the "
                                    "restore copies it and never recomputes it")
    grade = quiz.find("grade")
    if sumgrades is not None and grade is not None and total <= 0 < _decimal(grade.text):
        # A quiz worth nothing (a survey, a reading) is fine graded out of 0; graded out of more,
        # Moodle refuses every attempt ("cannotstartgradesmismatch").
        yield _line(grade), 1, (f"the quiz's questions are worth nothing but it is graded out of {grade.text}: "
                                "Moodle cannot start an attempt at it")
    numbers = [int(s.findtext("slot") or 0) for s in slots]
    if numbers != list(range(1, len(slots) + 1)):
        yield 1, 1, f"the slots must be numbered 1 to {len(slots)} in order, not {numbers}"
    pages = [int(s.findtext("page") or 0) for s in slots]
    if pages and (pages[0] != 1 or any(b - a not in (0, 1) for a, b in zip(pages, pages[1:]))):
        yield 1, 1, "pages must start at 1 and go up by at most one from slot to slot"
    sections = quiz.findall("sections/section")
    firsts = [int(s.findtext("firstslot") or 0) for s in sections]
    if not firsts or firsts[0] != 1:
        yield 1, 1, "a section must start at slot 1: slots before the first section are left out of attempts"
    if firsts != sorted(set(firsts)):
        yield 1, 1, "the sections' first slots must be distinct and in order"
    page_of = dict(zip(numbers, pages))
    for section, first in zip(sections, firsts):
        if first > 1 and page_of.get(first) == page_of.get(first - 1):
            yield _line(section), 1, f"the section starting at slot {first} does not start a page, as Moodle's sections do"
    for element in root.iter("usingcontextid", "questionscontextid"):
        if element.text != context:
            yield _line(element), 1, (f"<{element.tag}> {element.text} is not the activity's context {context}: "
                                      "every slot would be a missing question")


def _question_rules(root: etree._Element, grades: tuple[float, ...]) -> Iterator[Problem]:
    tops: dict[str, int] = {}
    stamps: set[tuple[str | None, str | None]] = set()
    for category in root.iter("question_category"):
        context = category.findtext("contextid")
        if category.findtext("parent") == "0":
            tops[context or ""] = tops.get(context or "", 0) + 1
        stamp = (context, category.findtext("stamp"))
        if stamp in stamps:
            yield _line(category), 1, f"category stamp '{stamp[1]}' is used twice in one context"
        stamps.add(stamp)
        entries = category.find("question_bank_entries")
        # In the frame of questions.xml a question is the line its records go in after (a comment).
        if category.findtext("parent") == "0" and entries is not None and len(entries):
            yield _line(category), 1, "questions in a 'top' category vanish from view when restored: put them in a category below it"
    for context, count in tops.items():
        if count != 1:
            yield 1, 1, f"context {context} has {count} top categories (parent 0); a restore wants exactly one"
    for question in root.iterfind(".//questions/question"):
        yield from _one_question(question, grades)


@lru_cache(maxsize=4)
def _exact(grades: tuple[float, ...]) -> frozenset[float]:
    """The grade options as a set: a fraction that is one exactly (most are: 1 and 0) is found
    without the tolerance's walk through all of them."""
    return frozenset(grades)


def _one_question(question: etree._Element, grades: tuple[float, ...]) -> Iterator[Problem]:
    qtype = question.findtext("qtype")
    line = _line(question)
    answers = question.findall("./*/answers/answer")
    ids = {a.get("id") for a in answers}
    fractions = [float(_decimal(a.findtext("fraction"))) for a in answers]
    if qtype != "ordering":
        exact = _exact(grades)
        for answer, fraction in zip(answers, fractions):
            if abs(fraction) not in exact and not any(abs(abs(fraction) - g) <= 0.00001 for g in grades):
                yield _line(answer), 1, f"fraction {fraction} is not one of Moodle's grade options"
    plugin = question.find(f"plugin_qtype_{qtype}_question")
    if qtype != "description" and plugin is None:
        yield line, 1, f"a {qtype} question needs its <plugin_qtype_{qtype}_question> data, or it restores without it"
        return
    if qtype == "truefalse":
        for tag in ("trueanswer", "falseanswer"):
            ref = question.find(f".//truefalse/{tag}")
            if ref is not None and ref.text not in ids:
                yield _line(ref), 1, f"<{tag}> {ref.text} is none of this question's answers: the right answer would flip"
    if qtype in ("multichoice", "truefalse", "shortanswer", "numerical", "calculated", "calculatedmulti"):
        single = question.findtext(".//multichoice/single") != "0"
        if qtype == "multichoice" and not single:
            if abs(sum(f for f in fractions if f > 0) - 1) > 0.0001:
                yield line, 1, "the positive fractions of a multiple-answer question must add up to 1"
        elif not any(abs(f - 1) <= 0.00001 for f in fractions):
            yield line, 1, f"a {qtype} question needs an answer worth the full mark (fraction 1)"
    if qtype == "numerical":
        records = {r.findtext("answer") for r in question.iter("numerical_record")}
        if records != ids:
            yield line, 1, "each numerical answer needs its numerical_record (tolerance), and each record its answer"
    if qtype in ("calculated", "calculatedmulti"):
        records = {r.findtext("answer") for r in question.iter("calculated_record")}
        if records != ids:
            yield line, 1, "each calculated answer needs its calculated_record, and each record its answer"
        for definition in question.iter("dataset_definition"):
            items = definition.findall("dataset_items/dataset_item")
            if definition.findtext("itemcount") != str(len(items)):
                yield _line(definition), 1, "a dataset's itemcount must be its number of items"
    if qtype == "match" and len([m for m in question.iter("match") if (m.findtext("questiontext") or "").strip()]) < 2:
        yield line, 1, "a matching question needs at least 2 subquestions with text"


#: One bank entry as the rules across the parts need it: its id, and its question's parent and type.
EntryFacts = tuple[str, str, str]
#: What validation reads of one question's records (its document, validated apart): each entry's facts.
RecordFacts = tuple[EntryFacts, ...]
#: The line in the frame of questions.xml after which a question's records go (writers.base.QUESTION_MARKER).
_MARKER = re.compile(r" question: ([0-9]+) ")


def record_facts(tree: etree._ElementTree) -> RecordFacts:
    return tuple(_entry_facts(entry) for entry in tree.getroot().iter("question_bank_entry"))


def _entry_facts(entry: etree._Element) -> EntryFacts:
    question = entry.find("question_version/question_versions/questions/question")
    parent, qtype = ("", "") if question is None else (question.findtext("parent") or "", question.findtext("qtype") or "")
    return entry.get("id") or "", parent, qtype


def bank_entries(questions: etree._ElementTree, order: tuple[str, ...],
                 records: Mapping[str, RecordFacts]) -> dict[str, list[EntryFacts]]:
    """Each category's bank entries, by category id, where the restore finds them: those written
    in questions.xml, and each question's records (``records``, by question id) where its line is
    (``order``: the question of each line's number)."""
    bank: dict[str, list[EntryFacts]] = {}
    for category in questions.getroot().iter("question_category"):
        entries = bank.setdefault(category.get("id") or "", [])
        holder = category.find("question_bank_entries")
        for child in holder if holder is not None else ():
            if child.tag == "question_bank_entry":
                entries.append(_entry_facts(child))
            elif isinstance(child, etree._Comment) and (marker := _MARKER.fullmatch(child.text or "")) \
                    and 0 < int(marker.group(1)) <= len(order):
                entries.extend(records.get(order[int(marker.group(1)) - 1], ()))
    return bank


def package_rules(parts: Mapping[str, etree._ElementTree], names: set[str], blobs: Mapping[str, bytes],
                  bank: Mapping[str, list[EntryFacts]]) -> Iterator[tuple[str, Problem]]:
    """The rules across the parts of one backup: ``parts`` by path (those parsed; questions.xml
    perhaps a frame without its questions' records), ``names`` every member's path, ``blobs`` the
    files' bytes by path, ``bank`` each category's entries (:func:`bank_entries`)."""
    for required in ("moodle_backup.xml", "files.xml", "questions.xml", "roles.xml", "groups.xml", "outcomes.xml",
                     "scales.xml"):
        if required not in names:
            yield "moodle_backup.xml", (1, 1, f"the backup has no {required}, without which the restore fails")
    backup = parts.get("moodle_backup.xml")
    questions = parts.get("questions.xml")
    if backup is None or questions is None:
        return
    for activity in backup.getroot().iterfind("information/contents/activities/activity"):
        folder = activity.findtext("directory") or ""
        for member in ("module.xml", "quiz.xml", "roles.xml", "grades.xml", "calendar.xml", "filters.xml", "inforef.xml"):
            if f"{folder}/{member}" not in names:
                yield "moodle_backup.xml", (_line(activity), 1, f"the activity has no {folder}/{member}")
        quiz, inforef = parts.get(f"{folder}/quiz.xml"), parts.get(f"{folder}/inforef.xml")
        if quiz is not None:
            yield from _slots_in_bank(f"{folder}/quiz.xml", quiz, bank)
        if inforef is not None:
            listed = {c.findtext("id") for c in inforef.getroot().iter("question_category")}
            for category in questions.getroot().iter("question_category"):
                if category.get("id") not in listed:
                    yield f"{folder}/inforef.xml", (1, 1, f"question category {category.get('id')} is not listed: the "
                                                         "restore would leave it out")
    files = parts.get("files.xml")
    if files is not None:
        for file in files.getroot().iter("file"):
            digest = file.findtext("contenthash") or ""
            blob = blobs.get(f"files/{digest[:2]}/{digest}")
            if blob is None or hashlib.sha1(blob).hexdigest() != digest:  # noqa: S324 - Moodle's pool names
                yield "files.xml", (_line(file), 1, f"file {file.findtext('filename')}: files/{digest[:2]}/{digest} is "
                                                    "missing or holds other bytes: the image would be broken")


def _slots_in_bank(path: str, quiz: etree._ElementTree, bank: Mapping[str, list[EntryFacts]]) -> Iterator[tuple[str, Problem]]:
    parents = {ident: parent for entries in bank.values() for ident, parent, _ in entries}
    for reference in quiz.getroot().iter("question_reference"):
        parent = parents.get(reference.findtext("questionbankentryid") or "")
        if parent is None:
            yield path, (_line(reference), 1, f"bank entry {reference.findtext('questionbankentryid')} is not in questions.xml")
        elif parent != "0":
            yield path, (_line(reference), 1, "a slot cannot hold a cloze question's subquestion")
    for reference in quiz.getroot().iter("question_set_reference"):
        try:
            condition = json.loads(reference.findtext("filtercondition") or "")
            wanted = [str(v) for v in condition["filter"]["category"]["values"]]
        except (ValueError, KeyError, TypeError):
            yield path, (_line(reference), 1, "a random slot's filtercondition must name its category")
            continue
        for category_id in wanted:
            drawable = [e for e in bank.get(category_id, ()) if e[1] == "0" and e[2] not in ("description", "random")]
            slots = sum(1 for r in quiz.getroot().iter("question_set_reference") if r.findtext("filtercondition") == reference.findtext("filtercondition"))
            if len(drawable) < slots:
                yield path, (_line(reference), 1, f"category {category_id} holds {len(drawable)} questions to draw from, "
                                                  f"fewer than its {slots} random slots: Moodle says 'not enough questions'")
