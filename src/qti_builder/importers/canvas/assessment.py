"""One ``<assessment>`` (or a question bank read as a quiz): its title, description and settings,
its sections and question groups, its language; each item is read by :class:`.item.ItemReader`.

Canvas keeps the quiz's title, description and settings in ``<id>/assessment_meta.xml``
(``<quiz identifier="<id>">``): its title wins over ``assessment@title``, and without the file the
assessment's ``qmd_timelimit`` and ``cc_maxattempts`` are read instead (facts file). The items are
in ``<section ident="root_section">``, in order; a ``<section>`` in it with a ``selection_number``
is a question group, whose points per question are ``selection_extension/points_per_item``
(Canvas, text2qti), an ``outcomes_processing`` ``qmd_weighting`` (DTD-valid), or else the points
its items share.

Sections keep their order: the model puts a section's own questions before its subsections, so
questions after a group start a section of their own (titled like the quiz). A New Quizzes
stimulus (a ``text_only_question`` its questions name in ``parent_stimulus_item_ident``) is a
text-only item just before the first of its questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from lxml import etree

from ...diagnostics import DiagnosticSink, SourceSpan
from ...model import QuizSettings
from ...writers.canvas import SCORING_POLICIES
from ..base import LOST, MEDIA, ImportedQuiz, QuizBuilder, guess_language, one_line, sanitise_id, slug
from .context import GENERATED_IDENT, Scope
from .item import ItemReader
from .text import TextReader, text_content
from .xml import Data, _float, child, children, descendants, local, metadata

#: ``assessment_meta.xml`` -> QuizSettings: element, field, how the text becomes the value.
SETTINGS: tuple[tuple[str, str, Any], ...] = (
    ("time_limit", "time_limit", lambda v: int(float(v)) if v else None),
    ("allowed_attempts", "allowed_attempts", lambda v: "unlimited" if v.strip() == "-1" else int(v) if v.strip().isdigit() and int(v) > 0 else None),
    ("shuffle_answers", "shuffle_answers", lambda v: _bool(v)),
    ("show_correct_answers", "show_correct_answers", lambda v: _bool(v)),
    ("one_question_at_a_time", "one_question_at_a_time", lambda v: _bool(v)),
    ("cant_go_back", "lock_questions_after_answering", lambda v: _bool(v)),
    ("scoring_policy", "grading_method", lambda v: {policy: name for name, policy in SCORING_POLICIES.items()}.get(v)),
    ("quiz_type", "quiz_type", lambda v: {"assignment": "graded", "practice_quiz": "practice"}.get(v.strip())),
)
#: Settings the model has no field for: element, the values that mean "as by default", what it is.
LOST_SETTINGS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("quiz_type", ("", "assignment", "practice_quiz"), "the quiz type"),
    ("scoring_policy", ("", "keep_highest", "keep_average", "keep_latest"), "the scoring policy"),
    ("hide_results", ("",), "when results are hidden (hide_results)"),
    ("one_time_results", ("", "false"), "'let students see their results only once'"),
    ("show_correct_answers_last_attempt", ("", "false"), "'show correct answers only after the last attempt'"),
    ("show_correct_answers_at", ("",), "the date correct answers are shown from"),
    ("hide_correct_answers_at", ("",), "the date correct answers are hidden from"),
    ("access_code", ("",), "the access code"),
    ("ip_filter", ("",), "the IP address filter"),
    ("require_lockdown_browser", ("", "false"), "'require the LockDown Browser'"),
    ("due_at", ("",), "the due date"),
    ("unlock_at", ("",), "the date the quiz opens"),
    ("lock_at", ("",), "the date the quiz closes"),
)


@dataclass
class Source:
    """One ``<assessment>`` (or ``<objectbank>``) and the file it is in."""

    member: str
    element: etree._Element
    #: Canvas's full form (the Common Cartridge subset says ``cc_profile`` ``cc.exam.v0p1``).
    full: bool
    #: The system that wrote it (:func:`.flavours.flavour`): "Canvas", "Blackboard", ...
    system: str = "Canvas"


class AssessmentReader:
    def __init__(self, display: str, sink: DiagnosticSink, files: dict[str, bytes], source: Source,
                 meta: tuple[str, etree._Element] | None, banks: dict[str, Source],
                 linked: dict[str, tuple[str, etree._Element]] | None = None) -> None:
        self.member, self.element, self.meta, self.banks = source.member, source.element, meta, banks
        #: The package's items by ident (file, element), for ``<itemref linkrefid>``.
        self.linked = linked or {}
        self.system = "Canvas" if source.system == "Canvas" else f"{source.system} QTI 1.2".replace("QTI 1.2 QTI 1.2", "QTI 1.2")
        self.builder = QuizBuilder(display, sink)
        self.text = TextReader(self.builder, files)
        self.ident = self.element.get("ident") or ""
        items = descendants(self.element, "item")
        #: A qti-builder package: every item ident is ``<quiz-id>.<question-id>``.
        ours = bool(self.ident) and bool(items) and all((i.get("ident") or "").startswith(self.ident + ".") for i in items)
        self.language = guess_language([text_content(m.text or "") for m in descendants(self.element, "mattext")])
        #: What the items see of the assessment; its settings are filled in once read.
        self.scope = Scope(self.builder, self.text, display, self.member, self.ident, ours, self.language, system=source.system)
        self.ours = ours
        self.used_banks: set[str] = set()
        #: New Quizzes' stimuli by ident: a question names its stimulus (``parent_stimulus_item_ident``),
        #: which is read just before the first of its questions wherever it stands.
        self.stimuli = {i.get("ident"): i for i in items if metadata(i).get("question_type") == "text_only_question"}
        self.read_items: set[etree._Element] = set()

    def span(self, element: etree._Element | None = None, member: str | None = None) -> SourceSpan:
        return self.scope.span(element if element is not None else self.element, member)

    def read(self, taken: frozenset[str] = frozenset()) -> ImportedQuiz | None:
        """The quiz; ``taken`` holds the ids of the package's quizzes read before it (a bank read
        as a quiz of its own, titled like one of them, takes another)."""
        fields = metadata(self.element)
        title = one_line(self.element.get("title")) or fields.get("bank_title") or fields.get("qmd_title") or PurePosixPath(self.member).name.split(".")[0]
        description: str | None = None
        if self.meta is not None:
            meta_member, meta = self.meta
            title = one_line(_child_text(meta, "title")) or title
            text = _child_text(meta, "description")
            if text.strip():
                description = self.text.html_markdown(text, "the quiz description", self.span(child(meta, "description"), meta_member),
                                                      meta_member) or None
            self.scope.settings.update(self._settings(meta, meta_member))
        else:
            self.scope.settings.update(self._qti_settings(fields))
            # Blackboard's description of a test or pool; else the instructions (``rubric``: D2L).
            holder = next((h for h in (child(self.element, "presentation_material"), child(self.element, "rubric"))
                           if h is not None and self.text.material_html(next(iter(descendants(h, "material")), None)).strip()), None)
            material = next(iter(descendants(holder, "material")), None) if holder is not None else None
            shown = self.text.material_html(material).strip()
            if shown:
                description = self.text.html_markdown(shown, "the quiz description", self.span(material), self.member) or None
        self._walk(self._container(), None, title)
        self.builder.warn(LOST, f"{self.system}'s format does not record the quiz's language; '{self.language}' was taken from its text",
                          self.span(), hint="change 'language:' in the source if that is wrong")
        quiz_id = None if GENERATED_IDENT.match(self.ident) else self.ident
        planned = sanitise_id(quiz_id) or slug(title, "quiz-")
        if planned in taken:
            quiz_id = next(f"{planned}-bank{n or ''}" for n in range(len(taken) + 1) if f"{planned}-bank{n or ''}" not in taken)
        quiz = self.builder.build(quiz_id, title, self.language, description, self.scope.settings)
        return self.builder.imported(quiz) if quiz else None

    # -- settings ------------------------------------------------------------------------------

    def _settings(self, meta: etree._Element, member: str) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        for tag, name, convert in SETTINGS:
            element = child(meta, tag)
            if element is None or not (element.text or "").strip():
                continue
            value = None
            try:
                value = convert((element.text or "").strip())
            except ValueError:
                pass
            if value is None:
                continue
            try:
                QuizSettings.model_validate({name: value})
            except ValueError:
                self.builder.warn(LOST, f"the quiz setting {tag} '{element.text}' is out of range; not kept", self.span(element, member))
                continue
            settings[name] = value
        for tag, neutral, what in LOST_SETTINGS:
            element = child(meta, tag)
            value = (element.text or "").strip() if element is not None else ""
            if value.lower() not in neutral:
                self.builder.warn(LOST, f"{what} '{value}' is a Canvas quiz setting the source does not hold", self.span(element, member))
        return settings

    def _qti_settings(self, fields: dict[str, str]) -> dict[str, Any]:
        """Without ``assessment_meta.xml``, Canvas reads the assessment's own metadata."""
        settings: dict[str, Any] = {}
        limit = _float(fields.get("qmd_timelimit"))
        if limit and limit >= 1:
            settings["time_limit"] = int(limit)
        attempts = fields.get("cc_maxattempts", "").strip().lower()
        if attempts == "unlimited" or attempts == "-1":
            settings["allowed_attempts"] = "unlimited"
        elif attempts.isdigit() and 1 <= int(attempts) <= 1000:
            settings["allowed_attempts"] = int(attempts)
        return settings

    # -- sections ------------------------------------------------------------------------------

    def _container(self) -> etree._Element:
        """Where the items are: Canvas's one ``root_section``, or the assessment itself."""
        sections = children(self.element, "section")
        if len(sections) == 1 and _selection(sections[0]) is None and not children(self.element, "item"):
            return sections[0]
        return self.element

    def _walk(self, container: etree._Element, parent: Data | None, title: str, skip: etree._Element | None = None) -> None:
        """Items and sections of ``container`` in order (but ``skip``, a description read
        already); items go into ``parent`` until a subsection comes, then into a new section
        after it (the model keeps no mixed order)."""
        current = parent
        nodes = children(container)
        for index, node in enumerate(nodes):
            name = local(node)
            if node is skip:
                continue
            if name == "item":
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                if following is not None and local(following) == "section" and self._introduces(node, following):
                    continue  # read with the group it introduces
                if current is None:
                    current = self.builder.section(title, parent)
                self._item(node, current)
            elif name == "itemref":
                if current is None:
                    current = self.builder.section(title, parent)
                self._item_ref(node, current)
            elif name == "section":
                previous = nodes[index - 1] if index else None
                intro = previous if previous is not None and local(previous) == "item" and self._introduces(previous, node) else None
                self._section(node, parent, intro)
                current = None

    def _section(self, element: etree._Element, parent: Data | None, intro: etree._Element | None) -> None:
        ident = element.get("ident")
        preferred = None if not ident or GENERATED_IDENT.match(ident) else ident
        select = _selection(element)
        title = one_line(element.get("title")) or "Group"
        items = children(element, "item")
        description = None
        if intro is None and items and self._introduces(items[0], element):
            intro, items = items[0], items[1:]  # a description placed first in the group
        if intro is not None:
            description = ItemReader(self.scope, intro).stem() or None
        section = self.builder.section(title, parent, preferred, description=description, select=select)
        if select is None:
            self._walk(element, section, title, skip=intro)
            return
        points = self._group_points(element)
        bank_ref = next((one_line(r.text) for r in descendants(element, "sourcebank_ref") if (r.text or "").strip()), None)
        if bank_ref and not items:
            bank = self.banks.get(bank_ref)
            if bank is None:
                self.builder.warn(LOST, f"question group '{title}' draws from question bank '{bank_ref}', which is not in the package; "
                                        "its questions cannot be imported", self.span(element),
                                  hint="export the course with its question banks, or add the questions by hand")
                return
            self.used_banks.add(bank_ref)
            for item in descendants(bank.element, "item"):
                self._item(item, section, points, bank.member)
            return
        for node in children(element):
            if local(node) == "item" and node in items:
                self._item(node, section, points)
            elif local(node) == "itemref":
                self._item_ref(node, section, points)
            elif local(node) == "section":
                self._section(node, section, None)

    def _introduces(self, item: etree._Element, section: etree._Element) -> bool:
        """Our writer puts a section's description in a text-only item titled with the section's
        title, just before a question group, or first in any other section with the ident
        ``<quiz-id>.<section-id>`` (in a package of ours, where nothing else has that ident)."""
        title = one_line(item.get("title"))
        if not title or title != one_line(section.get("title")) or metadata(item).get("question_type") != "text_only_question":
            return False
        return _selection(section) is not None or (self.ours and item.get("ident") == f"{self.ident}.{section.get('ident')}")

    def _group_points(self, element: etree._Element) -> float | None:
        for extension in descendants(element, "points_per_item"):
            value = _float(extension.text)
            if value is not None:
                return value
        for parameter in descendants(element, "objects_parameter"):
            if parameter.get("pname") == "qmd_weighting" and _float(parameter.text) is not None:
                return _float(parameter.text)
        # Blackboard's random block: the points of each question drawn (its pool's questions say
        # -1, "the block's"), in the block's own metadata.
        block = child(element, "sectionmetadata")
        if block is not None and (child_text(block, "bbmd_sectiontype") or "").lower() == "random block":
            value = _float(child_text(block, "qmd_weighting"))
            if value is not None and value > 0:
                return value
        return None

    def _item_ref(self, ref: etree._Element, section: Data, points: float | None = None) -> None:
        """An ``<itemref linkrefid>``: the item of that ident in the package, where it is; one
        the package does not hold is a question skipped, named."""
        ident = ref.get("linkrefid") or ""
        target = self.linked.get(ident)
        if target is None:
            self.builder.skip("itemref", MEDIA, f"the item '{ident}' the assessment refers to (itemref) is not in the package; "
                                                "its question cannot be imported", self.span(ref),
                              hint="export the assessment with its questions")
            return
        member, item = target
        self._item(item, section, points, None if member == self.member else member)

    def _item(self, element: etree._Element, section: Data, points: float | None = None, member: str | None = None) -> None:
        if element in self.read_items:
            return  # a stimulus, read already before its first question
        self.read_items.add(element)
        stimulus = self.stimuli.get(metadata(element).get("parent_stimulus_item_ident"))
        if stimulus is not None and stimulus not in self.read_items:
            self._item(stimulus, section, None, member)
        reader = ItemReader(self.scope, element, member)
        data = reader.read()
        if data is None:
            return
        if points is not None:
            data["points"] = points  # a group's points per question are what Canvas awards
        self.builder.add(section, data, reader.span(), reader.label, reader.preferred_id, kind=reader.kind)


def child_text(element: etree._Element, name: str) -> str | None:
    found = child(element, name)
    return (found.text or "").strip() if found is not None else None


def _selection(section: etree._Element) -> int | None:
    number = next((n for n in descendants(section, "selection_number") if n.getparent() is not None
                   and _owner(n) is section), None)
    if number is None:
        return None
    value = _float(number.text)
    return int(value) if value is not None and value >= 1 else None


def _owner(element: etree._Element) -> etree._Element | None:
    """The section a ``selection_number`` belongs to."""
    parent = element.getparent()
    while parent is not None and local(parent) != "section":
        parent = parent.getparent()
    return parent


def _child_text(element: etree._Element, name: str) -> str:
    found = child(element, name)
    return (found.text or "") if found is not None else ""


def _bool(value: str) -> bool | None:
    return {"true": True, "false": False}.get(value.strip().lower())
