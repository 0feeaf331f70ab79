"""A Moodle quiz backup (.mbz) read as Moodle 4.5's restore reads it, for the tests.

Written from Moodle's restore code (restore_quiz_stepslib.php, restore_qtype_*_plugin): the
quiz's slots, sections and settings; each question's record turned into the Moodle grader's
:class:`helpers.moodle_engine.Question` as the restored question would grade (fractions 0..1 of
the database, snapped to Moodle's grade options; a cloze question's subquestions from its
sequence). It shares nothing with the writer: a test compares what it reads with the source.
"""

from __future__ import annotations

import io
import json
import tarfile
from dataclasses import dataclass, field

from lxml import etree

from helpers.moodle_engine import Answer, Question, Subquestion, grade_option


@dataclass
class Slot:
    number: int
    page: int
    maxmark: float
    #: A fixed slot: the question's bank entry id; a random one: the category it draws from.
    entry: str | None = None
    category: str | None = None


@dataclass
class Backup:
    members: dict[str, bytes]
    #: The member names in the tarball's order.
    order: list[str]
    quiz: etree._Element = field(init=False)
    questions: etree._Element = field(init=False)

    def __post_init__(self) -> None:
        folder = self.part("moodle_backup.xml").findtext("information/contents/activities/activity/directory")
        self.folder = folder
        self.quiz = self.part(f"{folder}/quiz.xml")
        self.questions = self.part("questions.xml")

    def part(self, path: str) -> etree._Element:
        return etree.fromstring(self.members[path], etree.XMLParser(resolve_entities=False))

    def setting(self, name: str) -> str:
        return self.quiz.findtext(f"quiz/{name}") or ""

    def slots(self) -> list[Slot]:
        found = []
        for instance in self.quiz.iterfind("quiz/question_instances/question_instance"):
            slot = Slot(int(instance.findtext("slot")), int(instance.findtext("page")), float(instance.findtext("maxmark")))
            reference = instance.find("question_reference")
            if reference is not None:
                slot.entry = reference.findtext("questionbankentryid")
            else:
                condition = json.loads(instance.findtext("question_set_reference/filtercondition"))
                (slot.category,) = [str(v) for v in condition["filter"]["category"]["values"]]
            found.append(slot)
        return found

    def sections(self) -> list[tuple[int, str, bool]]:
        return [(int(s.findtext("firstslot")), s.findtext("heading") or "", s.findtext("shufflequestions") == "1")
                for s in self.quiz.iterfind("quiz/sections/section")]

    def entry(self, entry_id: str) -> etree._Element:
        return next(e for e in self.questions.iter("question_bank_entry") if e.get("id") == entry_id)

    def entry_by_idnumber(self, idnumber: str) -> etree._Element:
        return next(e for e in self.questions.iter("question_bank_entry") if e.findtext("idnumber") == idnumber)

    def category(self, category_id: str) -> etree._Element:
        return next(c for c in self.questions.iter("question_category") if c.get("id") == category_id)

    def question_of(self, entry: etree._Element) -> etree._Element:
        return entry.find("question_version/question_versions/questions/question")

    def question_by_id(self, question_id: str) -> etree._Element:
        return next(q for q in self.questions.iterfind(".//questions/question") if q.get("id") == question_id)


def read_backup(data: bytes) -> Backup:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        names = tar.getnames()
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    return Backup(members, names)


def _fraction(answer: etree._Element) -> float:
    return grade_option(float(answer.findtext("fraction")))


def _answers(plugin: etree._Element, tolerances: dict[str, float] | None = None,
             types: dict[str, int] | None = None) -> list[Answer]:
    found = []
    for a in plugin.iterfind("answers/answer"):
        answer = Answer((a.findtext("answertext") or "").strip(), _fraction(a))
        if tolerances is not None:
            answer.tolerance = tolerances[a.get("id")]
        if types is not None:
            answer.tolerancetype = types[a.get("id")]
        found.append(answer)
    return found


def engine_question(backup: Backup, question: etree._Element) -> Question:
    """The restored question as the Moodle grader of the tests takes it (qtype names as Moodle XML
    calls them: matching, cloze)."""
    qtype = question.findtext("qtype")
    plugin = question.find(f"plugin_qtype_{qtype}_question")
    q = Question({"match": "matching", "multianswer": "cloze"}.get(qtype, qtype), float(question.findtext("defaultmark")),
                 float(question.findtext("penalty")))
    if qtype == "multichoice":
        options = plugin.find("multichoice")
        q.single = options.findtext("single") == "1"
        q.shuffleanswers = options.findtext("shuffleanswers") == "1"
        q.answernumbering = options.findtext("answernumbering")
        q.answers = _answers(plugin)
    elif qtype == "truefalse":
        # The right answer is the one the options' trueanswer points at, whatever its text.
        true_id = plugin.findtext("truefalse/trueanswer")
        true_fraction = next(_fraction(a) for a in plugin.iterfind("answers/answer") if a.get("id") == true_id)
        q.answers = [Answer("true", true_fraction), Answer("false", 1.0 - true_fraction)]
    elif qtype == "shortanswer":
        q.usecase = plugin.findtext("shortanswer/usecase") == "1"
        q.answers = _answers(plugin)
    elif qtype == "numerical":
        tolerances = {r.findtext("answer"): float(r.findtext("tolerance")) for r in plugin.iter("numerical_record")}
        q.answers = _answers(plugin, tolerances)
    elif qtype == "match":
        q.shuffleanswers = plugin.findtext("matchoptions/shuffleanswers") == "1"
        for match in plugin.iterfind("matches/match"):
            stem = match.findtext("questiontext") or ""
            q.subquestions.append((stem if stem.strip() else None, (match.findtext("answertext") or "").strip()))
    elif qtype == "ordering":
        q.gradingtype = {"-1": "ALL_OR_NOTHING"}.get(plugin.findtext("ordering/gradingtype"), "other")
        # qtype_ordering's right order: the answers sorted by fraction (their positions).
        ordered = sorted(plugin.iterfind("answers/answer"), key=lambda a: float(a.findtext("fraction")))
        q.answers = [Answer((a.findtext("answertext") or "").strip(), 0.0) for a in ordered]
    elif qtype in ("calculated", "calculatedmulti"):
        records = {r.findtext("answer"): r for r in plugin.iter("calculated_record")}
        q.answers = _answers(plugin, {k: float(r.findtext("tolerance")) for k, r in records.items()},
                             {k: int(r.findtext("tolerancetype")) for k, r in records.items()})
        for a, answer in zip(plugin.iterfind("answers/answer"), q.answers):
            answer.answerformat = int(records[a.get("id")].findtext("correctanswerformat"))
            answer.answerlength = int(records[a.get("id")].findtext("correctanswerlength"))
        if qtype == "calculatedmulti":
            option = plugin.find("calculated_options/calculated_option")
            q.single = option.findtext("single") == "1"
            q.shuffleanswers = option.findtext("shuffleanswers") == "1"
            q.answernumbering = option.findtext("answernumbering")
        for definition in plugin.iter("dataset_definition"):
            q.datasets[definition.findtext("name")] = {int(i.findtext("number")): (i.findtext("value") or "").strip()
                                                       for i in definition.iter("dataset_item")}
    elif qtype == "multianswer":
        sequence = plugin.findtext("multianswer/sequence").split(",")
        for child_id in sequence:
            child = backup.question_by_id(child_id)
            assert child.findtext("parent") == question.get("id")
            sub = engine_question(backup, child)
            layouts = {"0": "dropdown", "1": "vertical", "2": "horizontal"}
            layout = child.findtext(".//multichoice/layout")
            q.cloze.append(Subquestion(sub.qtype, sub.mark, sub.answers, sub.single,
                                       sub.shuffleanswers if sub.qtype == "multichoice" else None,
                                       layouts.get(layout) if layout is not None else None, sub.usecase))
        q.mark = sum(s.mark for s in q.cloze)
    return q
