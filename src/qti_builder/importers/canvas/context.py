"""What the readers of one item see: :class:`Scope`, the assessment the item is in (its quiz
builder, rich text, language and settings), and :class:`ItemContext`, the item's own lookups
(its responses, scoring conditions and feedback, its text as Markdown).

Beneath the kind readers (:mod:`.kinds`) and the item reader (:mod:`.item`) that fills them in,
so that a kind reader imports nothing above it: the assessment reader makes the scope and passes
it down.
"""

from __future__ import annotations

import copy

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from lxml import etree

from ...diagnostics import SourceSpan
from ..base import QuizBuilder, one_line, sanitise_id, short
from .processing import Condition, conditions
from .text import TextReader, text_content
from .xml import child, children, descendants, local, metadata

#: Question-level feedback by its ident.
QUESTION_FEEDBACK = {"general_fb": "general", "correct_fb": "correct", "general_incorrect_fb": "incorrect"}
#: Idents Canvas, New Quizzes, text2qti and D2L generate (``i`` or ``g`` + an MD5, New Quizzes'
#: bare MD5s and UUIDs, text2qti's hashes, D2L's ``res_quiz_<n>`` and ``QUES_<n>_<n>``): nothing a
#: person chose, so ids come from titles instead.
GENERATED_IDENT = re.compile(r"^([gi]?[0-9a-f]{32}|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|text2qti_[a-z-]+_[0-9a-f]{32,}"
                             r"|root_section|res_quiz_\d+|QUES_\d+(_\d+)*|CONTAINER_SECTION|SECT_\d+)$")
#: Question-level feedback of other systems, by its ident, as Canvas's converter places it
#: (``get_feedback``): Blackboard's ``correct``/``incorrect``, ``..._C``/``..._IC``, ``general_``.
#: R/exams' ``Solution`` (its worked solution, shown after answering) is the general feedback.
FEEDBACK_ROLES = ((re.compile(r"wrong|incorrect|_IC$", re.I), "incorrect"), (re.compile(r"correct|_C$", re.I), "correct"),
                  (re.compile(r"general|_all|^solution$", re.I), "general"))
#: The names Canvas gives a question nobody named ("Question"): no title.
DEFAULT_NAMES = {"question", ""}


def where(display: str, member: str) -> str:
    """A file inside the package as diagnostics show it: ``export.zip:non_cc_assessments/i1.xml.qti``
    (just the input for a single file)."""
    return display if member in (display, PurePosixPath(display).name) else f"{display}:{member}"


@dataclass
class Scope:
    """One assessment as its items see it."""

    builder: QuizBuilder
    text: TextReader
    #: The input as diagnostics show it, and the file the assessment is in.
    display: str
    member: str
    #: The assessment's ident; a qti-builder package's items are ``<ident>.<question-id>``.
    ident: str
    ours: bool
    language: str
    #: The quiz settings read (choice questions take ``shuffle_answers``).
    settings: dict[str, Any] = field(default_factory=dict)
    #: The system that wrote the assessment (:func:`.flavours.flavour`).
    system: str = "Canvas"

    def span(self, element: etree._Element | None, member: str | None = None) -> SourceSpan:
        return SourceSpan(where(self.display, member or self.member), (element.sourceline or 1) if element is not None else 1, 1)


class ItemContext:
    """One ``<item>`` with the lookups its kind's reader uses."""

    def __init__(self, scope: Scope, item: etree._Element, member: str | None = None) -> None:
        self.scope, self.item = scope, item
        self.member = member or scope.member
        self.fields = metadata(item)
        scope.text.plain_is_html = self.fields.get("text_format", "").strip().lower() == "html"
        self.ident = item.get("ident") or ""
        prefix = scope.ident + "."
        self.model_id = self.ident[len(prefix):] if scope.ours and self.ident.startswith(prefix) else self.ident
        self.preferred_id = None if not self.model_id or GENERATED_IDENT.match(self.model_id) else sanitise_id(self.model_id)
        self.title = one_line(item.get("title"))
        self.conditions: list[Condition] = conditions(item, scope.system)
        self.feedback = {f.get("ident", ""): f for f in children(item, "itemfeedback")}
        self.used_feedback: set[str] = set()
        self.lost: list[str] = []
        self.presentation = child(item, "presentation")
        self.label = self.title if self.title.casefold() not in DEFAULT_NAMES else self._stem_start()
        #: The Canvas question type (``multiple_dropdowns_question``), named and counted if it is skipped.
        self.kind: str | None = None

    def span(self, element: etree._Element | None = None) -> SourceSpan:
        return self.scope.span(element if element is not None else self.item, self.member)

    def warn(self, code: str, message: str) -> None:
        self.scope.builder.warn(code, f"question '{short(self.label)}': {message}", self.span())

    def skip(self, code: str, message: str) -> None:
        """Report the question as not imported, named and counted by its type."""
        kind = self.kind or "(none)"
        self.scope.builder.skip(kind, code, f"question '{short(self.label)}' ({kind}): {message}", self.span())

    # -- text ----------------------------------------------------------------------------------

    def markdown(self, material: etree._Element | None, where: str, blanks: list[str] | None = None) -> str:
        return self.scope.text.markdown(material, f"{where} of '{short(self.label)}'", self.span(), self.member, blanks)

    def html_markdown(self, fragment: str, where: str) -> str:
        return self.scope.text.html_markdown(fragment, f"{where} of '{short(self.label)}'", self.span(), self.member)

    def stem(self) -> str:
        return self.markdown(self.stem_material(), "the text")

    def stem_material(self) -> etree._Element | None:
        """The question's own text: the ``material`` of the presentation, not of a response."""
        if self.presentation is None:
            return None
        for element in self.presentation.iter():
            if isinstance(element.tag, str) and local(element) == "material" and not any(
                    local(a).startswith("response_") for a in element.iterancestors()):
                return _with_following_materials(element)
        return None

    def _stem_start(self) -> str:
        material = self.stem_material()
        text = " ".join(one_line(m.text) for m in descendants(material, "mattext")) if material is not None else ""
        return one_line(text_content(text)) or self.ident or "question"

    # -- feedback ------------------------------------------------------------------------------

    def feedback_text(self, ident: str) -> str | None:
        element = self.feedback.get(ident)
        if element is None:
            return None
        self.used_feedback.add(ident)
        material = next(iter(descendants(element, "material")), None)
        return self.markdown(material, f"feedback '{ident}'") or None

    def answer_feedback(self, answer: str, respident: str | None = None) -> str | None:
        """The feedback a ``varequal`` condition on ``answer`` shows, else ``<answer>_fb``."""
        for condition in self.conditions:
            if condition.scores and condition.values(respident) != [answer]:
                continue  # (a condition that scores this answer alone shows its feedback too: D2L)
            if answer in condition.values(respident):
                for ident in condition.feedback:
                    question_level = ident in QUESTION_FEEDBACK or (condition.scores and any(p.search(ident) for p, _ in FEEDBACK_ROLES))
                    if not question_level and ident in self.feedback:
                        return self.feedback_text(ident)
        return self.feedback_text(f"{answer}_fb")


def _with_following_materials(first: etree._Element) -> etree._Element:
    """The question's text when it is written in several materials side by side before its
    response (Fronter's question and its "comment"; Samigo's text and an empty image): one
    material holding them all, in order. A lone material is itself."""
    following = []
    for sibling in first.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if local(sibling) != "material":
            break
        following.append(sibling)
    if not following:
        return first
    joined = etree.Element(first.tag)
    for material in (first, *following):
        joined.extend(copy.deepcopy(child) for child in material)
    return joined
