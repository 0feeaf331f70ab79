"""A Moodle 4.5 activity backup (``.mbz``) of one quiz with its question bank.

What Moodle's own *Backup* of one quiz activity writes and *Restore* reads (a gzipped tar of XML
parts, laid out as docs/moodle-quiz.md describes): the quiz with its settings, its sections and
slots, each slot a fixed question or a random draw from a category, and the questions in the quiz's
own bank (context level 70, which each restore creates afresh and deletes with the quiz).

Every question's data comes from the Moodle XML writer's context functions
(:class:`.moodle.QuestionContext`, one per kind): the same fractions, feedback, options, cloze
text and calculated datasets as the Moodle XML file, laid out by this writer's templates
(``moodle_backup/question_<qtype>.xml.j2``) the way the backup stores them (fractions 0..1 rather
than percent, option records, answer ids). A cloze question's embedded answers become its
subquestions as Moodle's importer makes them: read from the cloze text by the port of Moodle's
own parser (:func:`..cloze_syntax.cloze_subquestions`).

Each question's records (its bank entry, and a cloze question's subquestions' after it) are a
document of their own, rendered and validated apart and put into ``questions.xml`` after the
question's line there (``<!-- question: N -->``, as in the Moodle XML file's frame), so that a big
quiz's records are rendered in chunks on the workers and kept in the build cache chunk by chunk.
Their ids follow from the question's own number in the quiz (:class:`Placement`), not from the
records before them: a chunk's records depend on where it sits, not on what came before. Every
time is the build's epoch (``SOURCE_DATE_EPOCH``), so the same source gives the same bytes.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar
from urllib.parse import quote, unquote

from ..cloze_syntax import CLOZE_EMBEDDED, cloze_subquestions
from ..diagnostics import DiagnosticSink, Severity, SourceSpan
from ..kinds import KINDS, KindTable, resolve
from ..media import MediaFile, MediaSet
from ..model import Quiz, Section
from ..model.union import Question
from .base import K, Document, KindAdapter, Output, Writer, build_epoch, single_file
from .moodle import CLOZE_MARKS_WARNING, QuestionContext, idnumber, quiz_own_section

#: Moodle 4.5's version and release, as its backups state them (module.xml's version too: an
#: older one makes the restore take its pre-4.0 path).
MOODLE_VERSION = "2024100700"
MOODLE_RELEASE = "4.5"
#: Fixed ids of what the backup describes besides its questions: the restore maps each to a new one.
SYSTEM_CONTEXT, COURSE_ID, COURSE_CONTEXT = 1, 2, 2
MODULE_ID, QUIZ_ID, MODULE_CONTEXT, COURSE_SECTION = 1, 1, 100, 1
#: The quiz's own question bank (its module context): created by each restore, deleted with the quiz.
CONTEXT_LEVEL_MODULE = 70
#: Review options are bitmasks of when students see a thing: during the attempt, immediately after
#: it, later while the quiz is open, after it closes (mod/quiz's display_options).
DURING, IMMEDIATELY, OPEN, CLOSED = 0x10000, 0x01000, 0x00100, 0x00010
#: Moodle's defaults for a new quiz.
REVIEW_DEFAULT = DURING | IMMEDIATELY | OPEN | CLOSED
REVIEW_AFTER = IMMEDIATELY | OPEN | CLOSED
#: Moodle XML's template of a question (``entry["template"]``) -> the Moodle question type it is,
#: from the kinds' specs (kinds.py KindSpec.moodle).
QTYPES = {spec.moodle.template: spec.moodle.qtype for spec in KINDS.values() if spec.moodle is not None}
#: The embedded answer types of a cloze question -> the subquestion's type, its layout (0 a
#: drop-down) and whether its choices are shuffled (question/type/multianswer's extract_question).
CLOZE_SUBQUESTIONS = {"SHORTANSWER": ("shortanswer", 0, 0), "SHORTANSWER_C": ("shortanswer", 0, 0),
                      "MULTICHOICE": ("multichoice", 0, 0), "MULTICHOICE_S": ("multichoice", 0, 1)}
#: qtype_ordering's options as its export names them (moodle.ORDERING_OPTIONS) -> as its table
#: holds them (qtype_ordering_question's constants).
ORDERING_VALUES = {"VERTICAL": 0, "HORIZONTAL": 1, "ALL": 0, "RANDOM": 1, "CONTIGUOUS": 2, "ALL_OR_NOTHING": -1,
                   "ABSOLUTE_POSITION": 0, "SHOW": 1, "HIDE": 0}
#: Where a media reference in each element of questions.xml is stored by Moodle's file API: the
#: element (and its parent) -> component, file area, and whose id the item id is.
FILE_AREAS = {
    ("question", "questiontext"): ("question", "questiontext", "question"),
    ("question", "generalfeedback"): ("question", "generalfeedback", "question"),
    ("answer", "answertext"): ("question", "answer", "answer"),
    ("answer", "feedback"): ("question", "answerfeedback", "answer"),
    ("*", "correctfeedback"): ("question", "correctfeedback", "question"),
    ("*", "partiallycorrectfeedback"): ("question", "partiallycorrectfeedback", "question"),
    ("*", "incorrectfeedback"): ("question", "incorrectfeedback", "question"),
    ("match", "questiontext"): ("qtype_match", "subquestion", "match"),
    ("essay", "graderinfo"): ("qtype_essay", "graderinfo", "question"),
}
_PLUGINFILE = re.compile(r"@@PLUGINFILE@@/([^\"'<>\s?#]+)")


#: Moodle's question_categories.name and quiz.name hold 255 characters.
NAME_LENGTH = 255


def category_name(title: str) -> str:
    """A category's (or a question's) name as the database holds it: one line, at most 255
    characters (a backup names a category directly, not by a path, so a '/' stays one '/')."""
    text = " ".join(title.split())
    return text if len(text) <= NAME_LENGTH else text[:NAME_LENGTH - 1] + "…"


def backup_fraction(percent: str | float) -> str:
    """A Moodle XML fraction (percent) as the database and the backup hold it: 0..1, 7 decimals."""
    return f"{float(percent) / 100:.7f}"


#: Model grading methods -> the quiz's ``grademethod`` (mod/quiz: QUIZ_GRADEHIGHEST 1,
#: QUIZ_GRADEAVERAGE 2, QUIZ_ATTEMPTFIRST 3, QUIZ_ATTEMPTLAST 4).
GRADE_METHODS = {"highest": 1, "average": 2, "first": 3, "last": 4}


#: The ids of the quiz's own two categories (the section of the quiz's own name goes into the second).
TOP_CATEGORY, QUIZ_CATEGORY = 1, 2


@dataclass(frozen=True)
class Placement:
    """Where the questions a writer renders sit in their quiz, which their records' ids follow
    from: the whole quiz, or a chunk of a big one (rendered apart and kept in the build cache by
    a key that holds this, ``Writer.placements``).

    A question's id is its number n in the quiz (from 1); each of its other records of one kind
    (answers, matching subquestions, cloze subquestions) the number j it has among them, from 1,
    times ``scale``, plus n; a section's text (a description question) is k times ``scale``, k
    counting them from 1. ``scale`` is the power of ten above the quiz's question count, so no two
    ids of one kind meet, however many records a question has, and a question's ids do not
    depend on the questions before it: an answer added to one question changes no other's."""

    #: The number of the first question rendered.
    first: int
    #: 10 ** the digits of the quiz's question count.
    scale: int
    #: The id of each section's category (the quiz's own for the section of its name), by section id.
    categories: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, quiz: Quiz) -> Placement:
        """The whole quiz's: categories counted from 1, the top one and the quiz's first."""
        own = quiz_own_section(quiz)
        categories, next_id = [], QUIZ_CATEGORY + 1
        for _, section in quiz.iter_sections():
            if section is own:
                categories.append((section.id, QUIZ_CATEGORY))
            else:
                categories.append((section.id, next_id))
                next_id += 1
        count = sum(1 for _ in quiz.iter_questions())
        return cls(1, 10 ** len(str(count)), tuple(categories))

    def of_chunk(self, chunk: Quiz, first: int) -> Placement:
        """A chunk's (the quiz with only some of its questions, whose first is number ``first``)."""
        sections = {s.id for _, s in chunk.iter_sections()}
        return replace(self, first=first, categories=tuple(c for c in self.categories if c[0] in sections))

    @cached_property
    def _category_of(self) -> dict[str, int]:
        return dict(self.categories)

    def category(self, section: Section) -> int:
        return self._category_of[section.id]


#: The last quiz :func:`_numbered` walked, with what it made of it (the quiz held, so that no
#: other quiz takes its identity while it is kept).
_NUMBERED: list[tuple[Quiz, dict[str, int], Placement]] = []


def _numbered(quiz: Quiz) -> tuple[dict[str, int], Placement]:
    """Each question's number in ``quiz`` and the whole quiz's :class:`Placement`, made once per
    quiz object: a build that keys each chunk's small chunks where it renders the chunk asks for
    the places of one chunk's at a time, and walking a 10,000-question bank for each of its 40
    chunks cost more than the keys themselves (bench/README.md). A model is not changed once
    read, so the same object has the same places."""
    if not (_NUMBERED and _NUMBERED[0][0] is quiz):
        _NUMBERED[:] = [(quiz, {q.id: n for n, q in enumerate(quiz.iter_questions(), 1)}, Placement.of(quiz))]
    return _NUMBERED[0][1], _NUMBERED[0][2]


@dataclass
class Ids:
    """The ids of one question's records (:class:`Placement`): its own, and of each other kind
    counted from 1 in the order they are made."""

    number: int
    scale: int
    counters: dict[str, int] = field(default_factory=dict)

    def next(self, kind: str) -> int:
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind] * self.scale + self.number


@dataclass
class Category:
    id: int
    name: str
    parent: int
    info: str | None
    stamp: str
    idnumber: str | None
    #: Its bank entries written in the frame (a section's text).
    questions: list[dict[str, Any]] = field(default_factory=list)
    #: The numbers of its questions, whose records are put in after their lines of the frame.
    numbers: list[int] = field(default_factory=list)


class MoodleBackupWriter(Writer):
    name = "moodle-quiz"
    templates_folder = "moodle_backup"
    suffix = ".mbz"
    carries_settings: ClassVar[frozenset[str]] = frozenset(
        {"time_limit", "allowed_attempts", "shuffle_answers", "show_correct_answers", "one_question_at_a_time",
         "lock_questions_after_answering", "grading_method", "quiz_type"})
    #: The same context functions as Moodle XML: one description of each kind for both.
    adapters: ClassVar[Mapping[str, KindAdapter]] = KindTable(
        "moodle", "writers/moodle_backup.py MoodleBackupWriter.adapters",
        lambda part: KindAdapter(f"moodle_backup/question_{part.qtype}.xml.j2", resolve(part.context)))

    @classmethod
    def settings_not_carried(cls, quiz: Quiz) -> list[str]:
        # A practice quiz has no form in Moodle: a quiz counts toward the grade.
        lost = super().settings_not_carried(quiz)
        return lost + (["quiz_type"] if quiz.settings.quiz_type == "practice" else [])

    @classmethod
    def placements(cls, quiz: Quiz, chunks: Mapping[K, Quiz]) -> dict[K, Hashable]:
        numbers, whole = _numbered(quiz)
        return {key: whole.of_chunk(chunk, numbers[next(chunk.iter_questions()).id]) for key, chunk in chunks.items()}

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        # files.xml lists the files the records show: a frame rendered without them (a big quiz
        # split in chunks) knows them only when the quiz has no media (pipeline.SPLIT_WITHOUT_MEDIA).
        assert self.renders_questions or not media.files, "a backup with media is rendered whole"
        epoch = build_epoch()
        placement = self.placement if isinstance(self.placement, Placement) else Placement.of(quiz)
        plan = BackupPlan(quiz, spans, sink, media, epoch, placement)
        context: dict[str, Any] = {"quiz": quiz, "plan": plan, "epoch": epoch, "media": media, "version": MOODLE_VERSION,
                   "release": MOODLE_RELEASE, "ids": {"system": SYSTEM_CONTEXT, "course": COURSE_ID,
                   "course_context": COURSE_CONTEXT, "module": MODULE_ID, "quiz": QUIZ_ID, "context": MODULE_CONTEXT,
                   "section": COURSE_SECTION, "level": CONTEXT_LEVEL_MODULE},
                   "ordering_options": ORDERING_VALUES,
                   # Any fixed text will do: the restore only compares it with the site's own.
                   "site_hash": hashlib.sha1(quiz.id.encode()).hexdigest(),  # noqa: S324
                   "backup_id": hashlib.md5(quiz.id.encode()).hexdigest()}  # noqa: S324
        records: list[Document] = []
        if self.renders_questions:
            for question, record in plan.records():
                data = self.render("moodle_backup/question_record.xml.j2", sink, spans.get(question.id),
                                   question=question, record=record, **context)
                if data is None:
                    return None
                records.append(Document(f"#{question.id}", data, "mbz-question", question.id))
            if not plan.ok:
                return None
        if not self.renders_frame:
            return Output(quiz.id + self.suffix, records, archive=True, container="tar.gz")
        plan.build()
        order = tuple(q.id for q in quiz.iter_questions())
        folder = f"activities/quiz_{MODULE_ID}"
        parts = [("moodle_backup.xml", "moodle_backup/moodle_backup.xml.j2", "mbz-backup"),
                 ("questions.xml", "moodle_backup/questions.xml.j2", "mbz-questions"),
                 ("roles.xml", "moodle_backup/roles_definition.xml.j2", "mbz-other"),
                 ("groups.xml", "moodle_backup/groups.xml.j2", "mbz-other"),
                 ("outcomes.xml", "moodle_backup/outcomes.xml.j2", "mbz-other"),
                 ("scales.xml", "moodle_backup/scales.xml.j2", "mbz-other"),
                 (f"{folder}/quiz.xml", "moodle_backup/quiz.xml.j2", "mbz-quiz"),
                 (f"{folder}/module.xml", "moodle_backup/module.xml.j2", "mbz-module"),
                 (f"{folder}/grades.xml", "moodle_backup/grades.xml.j2", "mbz-other"),
                 (f"{folder}/roles.xml", "moodle_backup/roles.xml.j2", "mbz-other"),
                 (f"{folder}/calendar.xml", "moodle_backup/calendar.xml.j2", "mbz-other"),
                 (f"{folder}/filters.xml", "moodle_backup/filters.xml.j2", "mbz-other")]
        documents: list[Document] = []
        rendered: dict[str, bytes] = {}
        for path, template, schema in parts:
            data = self.render(template, sink, None, **context)
            if data is None:
                return None
            rendered[path] = data
            # questions.xml is a frame: each question's records go in after its line.
            documents.append(Document(path, data, schema, question_order=order if path == "questions.xml" else ()))
        if not self.places_every_question("moodle_backup/questions.xml.j2", rendered["questions.xml"], len(order), sink):
            return None
        # The files the texts show, found where Moodle looks for them: then files.xml and the
        # activity's inforef.xml, which list them.
        bank = b"".join(single_file([documents[1], *records])) if records else rendered["questions.xml"]
        plan.files = files_used(bank, rendered[f"{folder}/quiz.xml"], media, sink)
        for path, template, schema in ((f"{folder}/inforef.xml", "moodle_backup/inforef.xml.j2", "mbz-inforef"),
                                       ("files.xml", "moodle_backup/files.xml.j2", "mbz-files")):
            data = self.render(template, sink, None, **context)
            if data is None:
                return None
            documents.append(Document(path, data, schema))
        for blob in {f.contenthash: f for f in plan.files}.values():
            documents.append(Document(f"files/{blob.contenthash[:2]}/{blob.contenthash}", blob.media.data, ""))
        return Output(quiz.id + self.suffix, documents + records, archive=True, container="tar.gz")


@dataclass(frozen=True)
class BackupFile:
    """One row of files.xml: a media file stored in one file area of one record."""

    id: int
    media: MediaFile
    component: str
    filearea: str
    itemid: int
    contextid: int

    @property
    def contenthash(self) -> str:
        return hashlib.sha1(self.media.data).hexdigest()  # noqa: S324 - Moodle's file pool names blobs by sha1


def files_used(questions_xml: bytes, quiz_xml: bytes, media: MediaSet, sink: DiagnosticSink) -> list[BackupFile]:
    """Every (file, file area, item) the backup's texts show, by the table ``FILE_AREAS``."""
    from lxml import etree

    if not media.files:
        return []
    by_name = {f.name: f for f in media.files}
    found: dict[tuple[str, str, str, int], BackupFile] = {}

    def add(text: str, component: str, area: str, itemid: int) -> None:
        for match in _PLUGINFILE.finditer(text):
            file = by_name.get(unquote(match.group(1)))
            if file is not None and (file.name, component, area, itemid) not in found:
                found[file.name, component, area, itemid] = BackupFile(len(found) + 1, file, component, area, itemid,
                                                                        MODULE_CONTEXT)

    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    try:
        quiz = etree.fromstring(quiz_xml, parser)
        questions = etree.fromstring(questions_xml, parser)
    except etree.XMLSyntaxError:
        return []  # reported when the documents are validated
    add(quiz.findtext("quiz/intro") or "", "mod_quiz", "intro", 0)
    for element in questions.iter():
        if "@@PLUGINFILE@@" not in (element.text or ""):
            continue
        parent = element.getparent()
        where = FILE_AREAS.get((parent.tag, element.tag)) or FILE_AREAS.get(("*", element.tag))
        if where is None:
            continue
        component, area, owner = where
        record = next(a for a in element.iterancestors() if a.tag == owner)
        add(element.text or "", component, area, int(record.get("id", "0")))
    return sorted(found.values(), key=lambda f: f.id)


class BackupPlan:
    """What the templates lay out: each question's records (a context of the Moodle XML writer
    plus its ids, :meth:`records`), and around them (:meth:`build`) the question categories with
    the sections' texts, the quiz's sections and slots, its settings."""

    def __init__(self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet, epoch: int,
                 placement: Placement) -> None:
        self.quiz, self.spans, self.sink, self.media, self.epoch = quiz, spans, sink, media, epoch
        self.placement = placement
        #: The sections' texts are description questions of their own, numbered apart (Placement).
        self.descriptions = Ids(0, placement.scale)
        self.renames = tuple((f.ref, "@@PLUGINFILE@@/" + quote(f.name)) for f in media.files)
        self.categories: list[Category] = []
        self.sections: list[dict[str, Any]] = []
        self.slots: list[dict[str, Any]] = []
        self.files: list[BackupFile] = []
        self.ok = True

    # -- settings --------------------------------------------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        s = self.quiz.settings
        right_answer = REVIEW_DEFAULT if s.show_correct_answers is None else (REVIEW_AFTER if s.show_correct_answers else 0)
        return {
            "timelimit": (s.time_limit or 0) * 60,
            "attempts": 0 if s.allowed_attempts in (None, "unlimited") else s.allowed_attempts,
            "shuffleanswers": 0 if s.shuffle_answers is False else 1,
            "questionsperpage": 0 if s.one_question_at_a_time is False else 1,
            "navmethod": "sequential" if s.lock_questions_after_answering else "free",
            "grademethod": GRADE_METHODS[s.grading_method or "highest"],  # unset: Moodle's default
            "reviewrightanswer": right_answer,
            "review": REVIEW_DEFAULT,
            "reviewoverall": REVIEW_AFTER,
        }

    @property
    def sumgrades(self) -> float:
        return sum(slot["maxmark"] for slot in self.slots)

    # -- the questions' records ------------------------------------------------------------------

    def records(self) -> list[tuple[Question, dict[str, Any]]]:
        """Each question's record, numbered from the placement's first; one that cannot be written
        is reported and left out (``ok`` is then False)."""
        made = []
        for number, (section, question) in enumerate(
                ((s, q) for _, s in self.quiz.iter_sections() for q in s.questions), self.placement.first):
            record = self._question(question, number, self.placement.category(section))
            if record is not None:
                made.append((question, record))
        return made

    def _question(self, question: Question, number: int, category: int) -> dict[str, Any] | None:
        span = self.spans.get(question.id)
        own_sink = DiagnosticSink()
        entry = QuestionContext(self.quiz, question, span, own_sink, self.renames).build()
        # A cloze question's mark in the quiz is its slot's: Moodle XML's warning that its points
        # become the sum of its blanks' weights does not apply to the backup.
        for d in own_sink.items:
            if d.code != CLOZE_MARKS_WARNING:
                (self.sink.error if d.severity is Severity.ERROR else self.sink.warning)(d.code, d.message, d.span, hint=d.hint)
        if entry is None:
            self.ok = False
            return None
        ids = Ids(number, self.placement.scale)
        qtype = QTYPES[entry["template"]]
        # The bank's name column holds 255 characters (the question's text is whole, as ever).
        entry = {**entry, "name": category_name(entry["name"]), "qtype": qtype,
                 "template": f"moodle_backup/question_{qtype}.xml.j2", "id": number, "category": category,
                 "stamp": f"{self.quiz.id}+{question.id}", "parent": 0, "children": []}
        entry["answers"] = [{**answer, "id": ids.next("answer"), "backup_fraction": backup_fraction(answer["fraction"])}
                            for answer in entry.get("answers", ())]
        if qtype == "ordering":
            entry["answers"] = [{"text": item["text"], "id": ids.next("answer"), "feedback": None,
                                 "backup_fraction": f"{item['position']:.7f}"} for item in entry["ordered_items"]]
        if qtype == "match":
            entry["subquestions"] = [{**sub, "id": ids.next("match")} for sub in entry["subquestions"]]
        if qtype == "multianswer":
            self._cloze_children(entry, ids)
        return entry

    def _cloze_children(self, entry: dict[str, Any], ids: Ids) -> None:
        """A cloze question as Moodle stores it: its text with ``{#n}`` where each embedded answer
        was, and each embedded answer a subquestion of its own (``parent`` the cloze question),
        read from the text by the port of Moodle's own parser."""
        text = entry["cloze_text"]
        children = []
        for number, match in enumerate(CLOZE_EMBEDDED.finditer(text), 1):
            ((kind, alternatives),) = cloze_subquestions(match.group(0))
            qtype, layout, shuffle = CLOZE_SUBQUESTIONS[kind]
            answers = []
            for fraction, raw in alternatives:
                # What Moodle's importer stores of an alternative: entities decoded, \} and \# unescaped.
                stored = html.unescape(raw).replace("\\}", "}").replace("\\#", "#")
                answers.append({"id": ids.next("answer"), "stored": stored, "feedback": None,
                                "backup_fraction": f"{fraction:.7f}"})
            children.append({"qtype": qtype, "template": f"moodle_backup/question_{qtype}.xml.j2", "id": 0,
                             "name": entry["name"], "questiontext_html": match.group(0),
                             "defaultgrade": int(match.group(1) or 1), "penalty": entry["penalty"], "idnumber": None,
                             "question": entry["question"], "stamp": f"{entry['stamp']}+{number}", "answers": answers,
                             "child": True, "usecase": 1 if kind.endswith("_C") else 0, "layout": layout,
                             "shuffle": shuffle, "category": entry["category"]})
        for child in children:
            child["id"] = ids.next("question")
            child["parent"] = entry["id"]
        count = iter(range(1, len(children) + 1))
        entry["questiontext_html"] = CLOZE_EMBEDDED.sub(lambda m: "{#%d}" % next(count), text)
        entry["sequence"] = ",".join(str(c["id"]) for c in children)
        entry["children"] = children

    # -- around them -----------------------------------------------------------------------------

    def build(self) -> None:
        """The categories (with the sections' texts), the quiz's sections and its slots."""
        top = self._category(TOP_CATEGORY, "top", 0, None, f"{self.quiz.id}+top", None)
        quiz_category = self._category(QUIZ_CATEGORY, category_name(self.quiz.title), top.id, self.quiz.description,
                                       f"{self.quiz.id}+quiz", self.quiz.category_idnumber())
        own = quiz_own_section(self.quiz)
        numbers = itertools.count(1)
        pending_headings: list[str] = []
        for ancestors, section in self.quiz.iter_sections():
            if section is own:
                category = quiz_category
            else:
                parent = self.placement.category(ancestors[-1]) if ancestors else QUIZ_CATEGORY
                category = self._category(self.placement.category(section), category_name(section.title), parent,
                                          section.description,
                                          f"{self.quiz.id}+{section.id}", section.category_idnumber(self.quiz.id))
            heading = "" if section is own else section.title
            heading = " / ".join([*pending_headings, heading]) if pending_headings else heading
            pending_headings = []
            start = len(self.slots) + 1
            if section.description:
                self._slot(self._description(section, category), 0.0, section)
                if section.shuffle:
                    # A quiz section shuffles every slot in it: the text of a section that shuffles
                    # is a quiz section of its own, so that it stays before the questions.
                    self._quiz_section(start, heading, False)
                    heading, start = "", len(self.slots) + 1
            self._place_section(section, category, [next(numbers) for _ in section.questions])
            if len(self.slots) >= start:
                self._quiz_section(start, heading, section.shuffle)
            elif heading:  # no slot of its own: its title heads the next section's
                pending_headings = [heading]
        self._number_pages()

    def _category(self, ident: int, name: str, parent: int, info: str | None, stamp: str, idnumber: str | None) -> Category:
        category = Category(ident, name, parent, info, stamp, idnumber)
        self.categories.append(category)
        return category

    def _quiz_section(self, first_slot: int, heading: str, shuffle: bool) -> None:
        self.sections.append({"id": len(self.sections) + 1, "firstslot": first_slot, "heading": heading,
                              "shufflequestions": int(shuffle)})

    def _place_section(self, section: Section, category: Category, numbers: list[int]) -> None:
        category.numbers += numbers
        if section.select and not section.sections:  # drawn at random from the section's category
            points = section.group_points() or 0.0
            for _ in range(section.select or 0):
                self.slots.append({"random": category, "maxmark": points, "section": section})
            return
        for question, number in zip(section.questions, numbers):
            self._slot({"id": number}, question.points if KINDS[question.type].answered else 0.0, section)

    def _slot(self, entry: dict[str, Any], maxmark: float, section: Section) -> None:
        self.slots.append({"question": entry, "maxmark": maxmark, "section": section})

    def _number_pages(self) -> None:
        """Each slot's page: one question per page unless the quiz says otherwise, and then each
        section on a page of its own (a Moodle section starts a page)."""
        starts = {s["firstslot"] for s in self.sections}
        per_page = self.settings["questionsperpage"] == 1
        page = 0
        for number, slot in enumerate(self.slots, 1):
            if per_page or number in starts:
                page += 1
            slot["number"], slot["page"], slot["id"] = number, page, number

    def _description(self, section: Section, category: Category) -> dict[str, Any]:
        """A section's text, shown to students at its start: a description question of its own."""
        entry = {"template": "moodle_backup/question_description.xml.j2", "qtype": "description",
                 "id": self.descriptions.next("question"), "category": category.id,
                 "name": category_name(section.title), "questiontext": section.description, "defaultgrade": 0,
                 "penalty": "0", "idnumber": idnumber(self.quiz.id, section.id + ".text"), "question": None,
                 "stamp": f"{self.quiz.id}+{section.id}+text", "answers": [], "parent": 0}
        category.questions.append(entry)
        return entry

    # -- what the templates ask ------------------------------------------------------------------

    def filtercondition(self, category: Category) -> str:
        """A random slot's filter, as Moodle 4.3+ stores it: its category, without subcategories."""
        return json.dumps({"filter": {"category": {"jointype": 1, "values": [category.id],
                                                   "filteroptions": {"includesubcategories": False}}}},
                          separators=(",", ":"))


__all__ = ["MoodleBackupWriter", "backup_fraction"]
