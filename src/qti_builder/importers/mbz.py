"""A Moodle quiz backup (``.mbz``, a quiz activity's backup) -> one quiz, whole.

The quiz's structure and settings are read from ``activities/quiz_N/quiz.xml`` (its sections in
order with their headings and shuffling, each slot a question with its mark or a random draw from
a category, the time limit, attempts, shuffling, paging and review options); its questions from
``questions.xml``. Each question record is turned back into the Moodle XML question it stands
for (the backup's database fields are Moodle XML's, fractions 0..1 rather than percent), and the
Moodle XML reader (:mod:`.moodle`) reads them all: one reader per question type, whichever file
the question came in. A quiz section is a section of the source; a random draw a section below it
that draws N from the category's questions (``select``); a slot's mark is its question's points.

What the source has no place for is reported (QB711): a grading method other than the highest
grade, sequential navigation, open and close dates, a password, review options other than "the
right answer, shown or not", a page layout other than one question per page or one section per page.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from lxml import etree

from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import Quiz
from ..plurals import plural
from ..writers.moodle_backup import GRADE_METHODS
from .base import LOST, ImportedQuiz
from .moodle.bank import BankReader
from .safety import parse_xml, read_input, read_tar, read_zip

__all__ = ["import_mbz", "sniff"]

#: Moodle's review option bits (mod/quiz display_options): immediately after the attempt, later
#: while the quiz is open, after it closes.
AFTER_ATTEMPT = 0x01000 | 0x00100 | 0x00010
#: Moodle's default for a new quiz: during the attempt too.
REVIEW_DEFAULT = 0x10000 | AFTER_ATTEMPT
#: The backup's ordering options (qtype_ordering's constants) -> as its Moodle XML names them.
ORDERING = {"layouttype": {"0": "VERTICAL", "1": "HORIZONTAL"},
            "selecttype": {"0": "ALL", "1": "RANDOM", "2": "CONTIGUOUS"},
            "gradingtype": {"-1": "ALL_OR_NOTHING", "0": "ABSOLUTE_POSITION", "1": "RELATIVE_NEXT_EXCLUDE_LAST",
                            "2": "RELATIVE_NEXT_INCLUDE_LAST", "3": "RELATIVE_ONE_PREVIOUS_AND_NEXT",
                            "4": "RELATIVE_ALL_PREVIOUS_AND_NEXT", "5": "LONGEST_ORDERED_SUBSET",
                            "6": "LONGEST_CONTIGUOUS_SUBSET", "7": "RELATIVE_TO_CORRECT"},
            "showgrading": {"0": "HIDE", "1": "SHOW"}}
#: The backup's question types -> Moodle XML's names of them.
XML_TYPES = {"match": "matching", "multianswer": "cloze"}


def sniff(path: Path, head: bytes) -> bool:
    return path.suffix.lower() == ".mbz" or head[:2] == b"\x1f\x8b"


def import_mbz(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    if path.suffix.lower() == ".mbz" and _starts_with(path, b"PK"):  # Moodle can write zip backups too
        package = read_zip(path, display, sink)
    else:
        data = read_input(path, display, sink)
        package = read_tar(data, display, sink) if data is not None else None
    if package is None:
        return []
    parts: dict[str, etree._Element] = {}
    for name in ("moodle_backup.xml", "questions.xml", "files.xml"):
        raw = package.files.get(name)
        tree = parse_xml(raw, f"{display}/{name}", sink) if raw is not None else None
        if tree is None:
            sink.error("QB700", f"not a Moodle quiz backup: {name} is missing or unreadable", SourceSpan(display),
                       hint="give the .mbz that Moodle's Backup of one quiz activity writes")
            return []
        parts[name] = tree.getroot()
    folders = [a.findtext("directory") or "" for a in parts["moodle_backup.xml"].iterfind("information/contents/activities/activity")
               if a.findtext("modulename") == "quiz"]
    quizzes = []
    for folder in folders:
        raw = package.files.get(f"{folder}/quiz.xml")
        tree = parse_xml(raw, f"{display}/{folder}/quiz.xml", sink) if raw is not None else None
        if tree is None:
            continue
        imported = BackupReader(path, display, sink, parts, tree.getroot(), package.files).read()
        if imported is not None:
            quizzes.append(imported)
    if not folders:
        sink.error("QB704", "the backup holds no quiz activity", SourceSpan(display),
                   hint="back up the quiz activity itself (its menu's Backup), not a course without quizzes")
    return quizzes


def _starts_with(path: Path, magic: bytes) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(magic)) == magic
    except OSError:
        return False


class BackupReader:
    """One quiz of a backup, turned into the Moodle XML its questions stand for, then read."""

    def __init__(self, path: Path, display: str, sink: DiagnosticSink, parts: dict[str, etree._Element],
                 activity: etree._Element, files: dict[str, bytes]) -> None:
        self.path, self.display, self.sink = path, display, sink
        self.questions = parts["questions.xml"]
        self.file_rows = list(parts["files.xml"].iter("file"))
        self.files = files
        self.quiz = activity.find("quiz")
        self.entries = {e.get("id"): e for e in self.questions.iter("question_bank_entry")}
        self.categories = {c.get("id"): c for c in self.questions.iter("question_category")}
        self.by_question_id = {q.get("id"): q for q in self.questions.iterfind(".//questions/question")}

    def read(self) -> ImportedQuiz | None:
        if self.quiz is None:
            return None
        title = " ".join((self.quiz.findtext("name") or "").split()) or self.path.stem
        quiz_id = next((c.findtext("idnumber") for c in self.categories.values()
                        if c.findtext("parent") != "0" and self.categories.get(c.findtext("parent") or "") is not None
                        and self.categories[c.findtext("parent") or ""].findtext("parent") == "0"
                        and (c.findtext("idnumber") or "$@NULL@$") != "$@NULL@$"), None)
        root = f"$course$/top/{_path_part(title)}"
        elements = [_category(root, self.quiz.findtext("intro") or "", quiz_id)]
        draws: dict[str, int] = {}
        slots = sorted(self.quiz.iterfind("question_instances/question_instance"), key=lambda s: int(s.findtext("slot") or 0))
        sections = sorted(self.quiz.iterfind("sections/section"), key=lambda s: int(s.findtext("firstslot") or 0))
        shuffled: dict[str, bool] = {}
        previous: tuple[str, str] | None = None
        for index, section in enumerate(sections):
            first = int(section.findtext("firstslot") or 1)
            last = int(sections[index + 1].findtext("firstslot") or 0) - 1 if index + 1 < len(sections) else len(slots)
            heading = " ".join((section.findtext("heading") or "").split())
            fixed: list[tuple[etree._Element, float]] = []
            random: dict[str, list[float]] = {}
            text, text_home = "", set()
            for number, slot in enumerate(slots[first - 1:last]):
                opening = self._description_of(slot) if number == 0 else None
                if opening is not None:  # a text opening the section: the section's description
                    text, text_home = opening[0], {opening[1]}
                    continue
                mark = float(slot.findtext("maxmark") or 0)
                reference = slot.find("question_reference")
                if reference is not None:
                    entry = self.entries.get(reference.findtext("questionbankentryid"))
                    if entry is not None:
                        fixed.append((entry, mark))
                    continue
                category = self._drawn_category(slot)
                if category is not None:
                    random.setdefault(category, []).append(mark)
            # A section that is one draw is the draw itself; else each draw a section below it.
            only_draw = not fixed and len(random) == 1
            homes = {e.findtext("questioncategoryid") for e, _ in fixed} | (set(random) if only_draw else set()) | text_home
            home = homes.pop() if len(homes) == 1 else None
            ident = self._category_ident(home, quiz_id) or f"part{index + 1}"
            shuffle = section.findtext("shufflequestions") == "1"
            if not heading and index > 0 and previous is not None:
                # A section without a heading goes on from the one before (a text kept first
                # before questions that shuffle is a quiz section of its own).
                path, ident, shuffle = previous[0], previous[1], shuffle or shuffled[previous[1]]
            else:
                path = root if not heading and index == 0 else f"{root}/{_path_part(heading or f'Part {index + 1}')}"
                elements.append(_category(path, text, self._own_idnumber(home) or (f"{quiz_id}.{ident}" if quiz_id else ident)))
            previous = (path, ident)
            shuffled[ident] = shuffle
            for entry, mark in fixed:
                elements += self._question_xml(entry, mark)
            for category_id, marks in random.items():
                category = self.categories[category_id]
                name = " ".join((category.findtext("name") or "").split()) or "Random"
                draw_id = ident if only_draw else self._category_ident(category_id, quiz_id) or f"draw{category_id}"
                if not only_draw:
                    # A category's description is the question bank's, seen by teachers only: a
                    # section's description is shown to students, so it is not made one.
                    if (category.findtext("info") or "").strip():
                        self._lost(f"the description of question category '{name}' (seen by teachers in the "
                                   "question bank, never by students)")
                    elements.append(_category(f"{path}/{_path_part(name)}", "",
                                              self._own_idnumber(category_id) or (f"{quiz_id}.{draw_id}" if quiz_id else draw_id)))
                drawable = [e for e in category.iter("question_bank_entry") if self._drawable(e)]
                for entry in drawable:
                    elements += self._question_xml(entry, marks[0])
                draws[draw_id] = min(len(marks), len(drawable))
                if len(set(marks)) > 1:
                    self.sink.warning(LOST, f"the random slots drawing from '{name}' have different marks ({marks}); each "
                                      f"question of the group is worth {marks[0]:g}", SourceSpan(self.display))
        bank = BankReader(self.path, self.display, self.sink, elements)
        imported = bank.read()
        if imported is None:
            return None
        imported.quiz = self._with_structure(imported.quiz, draws, shuffled)
        return imported

    # -- the quiz ----------------------------------------------------------------------------------

    def _with_structure(self, quiz: Quiz, draws: dict[str, int], shuffled: dict[str, bool]) -> Quiz:
        data = quiz.model_dump()

        def walk(sections: list[dict[str, Any]]) -> None:
            for section in sections:
                if section["id"] in draws and draws[section["id"]] < len(section["questions"]):
                    section["select"] = draws[section["id"]]
                if shuffled.get(section["id"]):
                    section["shuffle"] = True
                walk(section["sections"])

        walk(data["sections"])
        data["settings"] = {**data["settings"], **self._settings()}
        return Quiz.model_validate(data)

    def _settings(self) -> dict[str, Any]:
        q = self.quiz
        assert q is not None
        settings: dict[str, Any] = {}
        seconds = int(q.findtext("timelimit") or 0)
        if seconds:
            settings["time_limit"] = max(1, round(seconds / 60))
            if seconds % 60:
                # As the QTI 2.1 import says it (one message, one translation).
                self.sink.warning(LOST, f"the time limit of {seconds} seconds is kept as {plural(settings['time_limit'], 'minute')}: "
                                        "the source holds whole minutes", SourceSpan(self.display),
                                  hint="set it in Moodle again after restoring the quiz built from the source")
        attempts = int(q.findtext("attempts_number") or 0)
        settings["allowed_attempts"] = attempts or "unlimited"
        settings["shuffle_answers"] = q.findtext("shuffleanswers") == "1"
        review = int(q.findtext("reviewrightanswer") or 0)
        if review != REVIEW_DEFAULT:  # Moodle's default (always shown) is what the source leaves unset
            settings["show_correct_answers"] = bool(review & AFTER_ATTEMPT)
        if review not in (0, REVIEW_DEFAULT, AFTER_ATTEMPT):
            self._lost("when the right answer is shown (only some of: immediately after the attempt, later while "
                       "the quiz is open, after it closes): the source shows it after the attempt, or never")
        per_page = int(q.findtext("questionsperpage") or 0)
        pages = [int(s.findtext("page") or 0) for s in q.iterfind("question_instances/question_instance")]
        if per_page == 1 or len(set(pages)) == len(pages):
            settings["one_question_at_a_time"] = True
        elif per_page == 0:
            settings["one_question_at_a_time"] = False
        else:
            self._lost(f"{per_page} questions per page: the source has one per page, or a page per section")
        grademethod = (q.findtext("grademethod") or "1").strip()
        methods = {str(number): name for name, number in GRADE_METHODS.items()}
        if grademethod in methods:
            if grademethod != "1":  # Moodle's default (highest grade) is what the source leaves unset
                settings["grading_method"] = methods[grademethod]
        else:
            self._lost(f"the grading method {grademethod!r}: the source's are highest, average, first and last")
        if (q.findtext("navmethod") or "").strip() == "sequential":
            settings["lock_questions_after_answering"] = True
        grade, marks = _number(q.findtext("grade")), _number(q.findtext("sumgrades"))
        if grade is not None and marks is not None and abs(grade - marks) > 1e-6:
            # Moodle scales the marks to the maximum grade; a source's quiz is worth its points.
            self._lost(f"the quiz's maximum grade {grade:g}, to which Moodle scales its marks ({marks:g}): the quiz "
                       "built from the source is graded out of its points")
        for field, what in (("timeopen", "an open date"), ("timeclose", "a close date")):
            if (q.findtext(field) or "0") != "0":
                self._lost(what)
        if (q.findtext("password") or "").strip():
            self._lost("the quiz's password")
        return settings

    def _lost(self, what: str) -> None:
        self.sink.warning(LOST, f"the source has no place for {what}", SourceSpan(self.display),
                          hint="set it in Moodle again after restoring the quiz built from the source")

    def _description_of(self, slot: etree._Element) -> tuple[str, str] | None:
        """The text of a slot that holds a description worth nothing, and its category, else None."""
        reference = slot.find("question_reference")
        entry = self.entries.get(reference.findtext("questionbankentryid")) if reference is not None else None
        question = entry.find("question_version/question_versions/questions/question") if entry is not None else None
        if entry is None or question is None or question.findtext("qtype") != "description" \
                or float(slot.findtext("maxmark") or 0):
            return None
        return question.findtext("questiontext") or "", entry.findtext("questioncategoryid") or ""

    def _own_idnumber(self, category_id: str | None) -> str | None:
        """A category's ID number as the course has it, if it has one: the Moodle XML reader keeps it
        where a build would not make it from the section id (a round trip gives it back)."""
        category = self.categories.get(category_id or "")
        ident = (category.findtext("idnumber") or "") if category is not None else ""
        return ident if ident and ident != "$@NULL@$" else None

    def _category_ident(self, category_id: str | None, quiz_id: str | None) -> str | None:
        """A category's own idnumber as a section id (without the quiz's prefix), if it has one."""
        category = self.categories.get(category_id or "")
        ident = (category.findtext("idnumber") or "") if category is not None else ""
        if not ident or ident == "$@NULL@$":
            return None
        return ident.removeprefix(f"{quiz_id}.") if quiz_id else ident

    def _drawn_category(self, slot: etree._Element) -> str | None:
        try:
            condition = json.loads(slot.findtext("question_set_reference/filtercondition") or "")
            values = condition["filter"]["category"]["values"]
            subcategories = condition["filter"]["category"].get("filteroptions", {}).get("includesubcategories")
        except (ValueError, KeyError, TypeError, AttributeError):
            self.sink.warning(LOST, f"random slot {slot.findtext('slot')}: its filter cannot be read; skipped",
                              SourceSpan(self.display))
            return None
        category = str(values[0]) if values else None
        if category not in self.categories:
            self.sink.warning(LOST, f"random slot {slot.findtext('slot')} draws from category {category}, which the backup "
                              "does not hold; skipped", SourceSpan(self.display))
            return None
        if subcategories:
            self._lost(f"random slot {slot.findtext('slot')}'s subcategories (it draws from its category only)")
        return category

    def _drawable(self, entry: etree._Element) -> bool:
        question = entry.find("question_version/question_versions/questions/question")
        status = entry.findtext("question_version/question_versions/status")
        return (question is not None and question.findtext("parent") == "0" and status == "ready"
                and question.findtext("qtype") not in ("description", "random"))

    # -- one question back into Moodle XML ---------------------------------------------------------

    def _question_xml(self, entry: etree._Element, mark: float) -> list[etree._Element]:
        question = entry.find("question_version/question_versions/questions/question")
        if question is None:
            return []
        qtype = question.findtext("qtype") or ""
        plugin = question.find(f"plugin_qtype_{qtype}_question")
        out = etree.Element("question", type=XML_TYPES.get(qtype, qtype))
        _text(out, "name", question.findtext("name"))
        text = question.findtext("questiontext") or ""
        if qtype == "multianswer" and plugin is not None:
            for number, child_id in enumerate((plugin.findtext("multianswer/sequence") or "").split(","), 1):
                child = self.by_question_id.get(child_id.strip())
                text = text.replace("{#%d}" % number, child.findtext("questiontext") or "" if child is not None else "")
        self._rich(out, "questiontext", text, question.get("id"))
        self._rich(out, "generalfeedback", question.findtext("generalfeedback"), question.get("id"))
        _value(out, "defaultgrade", f"{mark:g}")
        _value(out, "penalty", question.findtext("penalty"))
        idnumber = entry.findtext("idnumber")
        if idnumber and idnumber != "$@NULL@$":
            _value(out, "idnumber", idnumber)
        tags = question.findall("tags/tag")
        if tags:
            holder = etree.SubElement(out, "tags")
            for tag in tags:
                _text(holder, "tag", tag.findtext("rawname"))
        if plugin is not None:
            self._plugin(out, qtype, plugin, question)
        out.sourceline = question.sourceline  # type: ignore[misc]
        return [out]

    def _plugin(self, out: etree._Element, qtype: str, plugin: etree._Element, question: etree._Element) -> None:
        answers = plugin.findall("answers/answer")
        options = next((plugin.find(tag) for tag in ("multichoice", "matchoptions", "ordering",
                                                     "calculated_options/calculated_option") if plugin.find(tag) is not None), None)
        if options is not None:
            for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
                self._rich(out, tag, options.findtext(tag), question.get("id"))
        if qtype == "multichoice" and options is not None:
            _value(out, "single", "true" if options.findtext("single") == "1" else "false")
            _value(out, "shuffleanswers", options.findtext("shuffleanswers"))
            _value(out, "answernumbering", options.findtext("answernumbering"))
            _value(out, "showstandardinstruction", options.findtext("showstandardinstruction") or "0")
            if options.findtext("shownumcorrect") == "1":
                etree.SubElement(out, "shownumcorrect")
        if qtype == "truefalse":
            true_id = plugin.findtext("truefalse/trueanswer")
            for answer in answers:
                answer.find("answertext").text = "true" if answer.get("id") == true_id else "false"  # type: ignore[union-attr]
        if qtype == "shortanswer":
            _value(out, "usecase", plugin.findtext("shortanswer/usecase"))
        if qtype == "essay":
            for field in ("responseformat", "responserequired", "responsefieldlines", "minwordlimit", "maxwordlimit",
                          "attachments", "attachmentsrequired", "maxbytes", "filetypeslist"):
                value = plugin.findtext(f"essay/{field}")
                _value(out, field, "" if value in (None, "$@NULL@$") else value)
            self._rich(out, "graderinfo", plugin.findtext("essay/graderinfo"), question.get("id"))
        if qtype == "match" and options is not None:
            _value(out, "shuffleanswers", options.findtext("shuffleanswers"))
            for match in plugin.iterfind("matches/match"):
                sub = etree.SubElement(out, "subquestion", format="html")
                _cdata(sub, "text", match.findtext("questiontext"))
                _text(sub, "answer", match.findtext("answertext"))
        if qtype == "ordering" and options is not None:
            for field, names in ORDERING.items():
                _value(out, field, names.get(options.findtext(field) or "", ""))
            _value(out, "selectcount", options.findtext("selectcount"))
            _value(out, "numberingstyle", options.findtext("numberingstyle"))
            answers = sorted(answers, key=lambda a: float(a.findtext("fraction") or 0))
        if qtype in ("numerical", "calculated", "calculatedmulti"):
            option = plugin.find("numerical_options/numerical_option")
            units = plugin.findall("numerical_units/numerical_unit")
            if units:
                holder = etree.SubElement(out, "units")
                for unit in units:
                    element = etree.SubElement(holder, "unit")
                    _value(element, "multiplier", unit.findtext("multiplier"))
                    _value(element, "unit_name", unit.findtext("unit"))
            for field in ("unitgradingtype", "unitpenalty", "showunits", "unitsleft"):
                if option is not None and option.findtext(field) is not None:
                    _value(out, field, option.findtext(field))
        if qtype == "calculatedmulti" and options is not None:
            _value(out, "single", "true" if options.findtext("single") == "1" else "false")
            _value(out, "shuffleanswers", options.findtext("shuffleanswers"))
        records = {r.findtext("answer"): r for r in plugin.iter("numerical_record", "calculated_record")}
        for answer in answers:
            fraction = float(answer.findtext("fraction") or 0)
            element = etree.SubElement(out, "answer", fraction=f"{fraction:g}" if qtype == "ordering" else f"{fraction * 100:.7g}",
                                       format="html" if answer.findtext("answerformat") == "1" else "moodle_auto_format")
            _cdata(element, "text", answer.findtext("answertext"))
            self._attach(element.find("text"), answer.findtext("answertext") or "", ("answer", answer.get("id")))
            record = records.get(answer.get("id"))
            if record is not None:
                for field in ("tolerance", "tolerancetype", "correctanswerformat", "correctanswerlength"):
                    if record.findtext(field) is not None:
                        _value(element, field, record.findtext(field))
            feedback = etree.SubElement(element, "feedback", format="html")
            _cdata(feedback, "text", answer.findtext("feedback"))
            self._attach(feedback, answer.findtext("feedback") or "", ("answerfeedback", answer.get("id")))
        if qtype in ("calculated", "calculatedmulti"):
            self._datasets(out, plugin)

    def _datasets(self, out: etree._Element, plugin: etree._Element) -> None:
        _value(out, "synchronize", "0")
        holder = etree.SubElement(out, "dataset_definitions")
        for definition in plugin.iter("dataset_definition"):
            kind, low, high, decimals = ((definition.findtext("options") or "uniform:0:0:0").split(":") + ["", "", "", ""])[:4]
            element = etree.SubElement(holder, "dataset_definition")
            _text(element, "status", "private" if definition.findtext("category") in ("0", None) else "shared")
            _text(element, "name", definition.findtext("name"))
            _value(element, "type", "calculated")
            _text(element, "distribution", kind)
            _text(element, "minimum", low)
            _text(element, "maximum", high)
            _text(element, "decimals", decimals)
            items = definition.findall("dataset_items/dataset_item")
            _value(element, "itemcount", str(len(items)))
            values = etree.SubElement(element, "dataset_items")
            for item in items:
                row = etree.SubElement(values, "dataset_item")
                _value(row, "number", item.findtext("number"))
                _value(row, "value", item.findtext("value"))
            _value(element, "number_of_items", str(len(items)))

    def _rich(self, parent: etree._Element, tag: str, html: str | None, question_id: str | None) -> None:
        element = etree.SubElement(parent, tag, format="html")
        _cdata(element, "text", html)
        self._attach(element, html or "", (tag, question_id))

    def _attach(self, element: etree._Element | None, html: str, owner: tuple[str, str | None]) -> None:
        """The backup's files a text shows, embedded beside it as Moodle XML does: a file area's
        files by name (the text's own area first)."""
        if element is None or "@@PLUGINFILE@@" not in html:
            return
        from urllib.parse import unquote

        attached = set()
        rows = sorted(self.file_rows, key=lambda f: (f.findtext("filearea") != owner[0] or f.findtext("itemid") != owner[1]))
        for row in rows:
            name = row.findtext("filename") or ""
            if name in attached or name == "." or ("@@PLUGINFILE@@/" + name not in unquote(html)):
                continue
            digest = row.findtext("contenthash") or ""
            data = self.files.get(f"files/{digest[:2]}/{digest}")
            if data is None:
                continue
            attached.add(name)
            file = etree.SubElement(element, "file", name=name, path="/", encoding="base64")
            file.text = base64.b64encode(data).decode()


def _number(text: str | None) -> float | None:
    try:
        return float((text or "").strip())
    except ValueError:
        return None


def _category(path: str, info: str, idnumber: str | None) -> etree._Element:
    element = etree.Element("question", type="category")
    _text(element, "category", path)
    info_element = etree.SubElement(element, "info", format="html")
    _cdata(info_element, "text", info)
    if idnumber:
        _value(element, "idnumber", idnumber)
    return element


def _path_part(name: str) -> str:
    return name.replace("/", "//")


def _text(parent: etree._Element, tag: str, value: str | None) -> None:
    _cdata(etree.SubElement(parent, tag), "text", value)


def _cdata(parent: etree._Element, tag: str, value: str | None) -> None:
    etree.SubElement(parent, tag).text = value or ""


def _value(parent: etree._Element, tag: str, value: str | None) -> None:
    etree.SubElement(parent, tag).text = value or ""
