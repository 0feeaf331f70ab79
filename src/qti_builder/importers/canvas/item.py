"""One ``<item>``: its Canvas type (``question_type``, else the Common Cartridge ``cc_profile``, else
what its responses look like), points (``points_possible``), stem, title and question-level
feedback; the type's own fields are read by :data:`.kinds.READERS`.

Feedback is Canvas's by ``itemfeedback`` ident, as Canvas's importer matches it (facts file):
``general_fb`` is the general feedback, ``correct_fb`` the correct and ``general_incorrect_fb`` the
incorrect one; ``<answer ident>_fb`` (or whatever a ``varequal`` condition on the answer shows)
belongs to that answer; an ident containing ``solution`` is an essay's or upload's model answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from ...diagnostics import SourceSpan
from ...model.questions import BLANK_MARKER, QuestionBase
from ...writers.qti21 import item_title
from ..base import LOST, UNSUPPORTED, one_line, same_title, sanitise_id, short
from .kinds import OWN_STEM, READERS
from .processing import Condition, conditions
from .text import text_content
from .xml import Data, _float, child, children, descendants, local, metadata

if TYPE_CHECKING:
    from .assessment import AssessmentReader

#: Common Cartridge profiles (the subset copy of a course export) -> Canvas types.
CC_PROFILES = {"cc.multiple_choice.v0p1": "multiple_choice_question", "cc.multiple_response.v0p1": "multiple_answers_question",
               "cc.true_false.v0p1": "true_false_question", "cc.fib.v0p1": "short_answer_question",
               "cc.essay.v0p1": "essay_question"}
#: Question-level feedback by its ident.
QUESTION_FEEDBACK = {"general_fb": "general", "correct_fb": "correct", "general_incorrect_fb": "incorrect"}
#: Idents Canvas, New Quizzes and text2qti generate (``i`` or ``g`` + an MD5, New Quizzes' bare
#: MD5s and UUIDs, text2qti's hashes): nothing a person chose, so ids come from titles instead.
GENERATED_IDENT = re.compile(r"^([gi]?[0-9a-f]{32}|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|text2qti_[a-z-]+_[0-9a-f]{32,}"
                             r"|root_section)$")
#: The names Canvas gives a question nobody named ("Question"): no title.
DEFAULT_NAMES = {"question", ""}


class ItemReader:
    def __init__(self, reader: AssessmentReader, item: etree._Element, member: str | None = None) -> None:
        self.reader, self.item = reader, item
        self.member = member or reader.member
        self.fields = metadata(item)
        self.ident = item.get("ident") or ""
        prefix = reader.ident + "."
        self.model_id = self.ident[len(prefix):] if reader.ours and self.ident.startswith(prefix) else self.ident
        self.preferred_id = None if not self.model_id or _generated(self.model_id) else sanitise_id(self.model_id)
        self.title = one_line(item.get("title"))
        self.conditions: list[Condition] = conditions(item)
        self.feedback = {f.get("ident", ""): f for f in children(item, "itemfeedback")}
        self.used_feedback: set[str] = set()
        self.lost: list[str] = []
        self.presentation = child(item, "presentation")
        self.label = self.title if self.title.casefold() not in DEFAULT_NAMES else self._stem_start()
        #: The Canvas question type (``multiple_dropdowns_question``), named and counted if it is skipped.
        self.kind: str | None = None

    def span(self, element: etree._Element | None = None) -> SourceSpan:
        return self.reader.span(element if element is not None else self.item, self.member)

    def warn(self, code: str, message: str) -> None:
        self.reader.builder.warn(code, f"question '{short(self.label)}': {message}", self.span())

    def skip(self, code: str, message: str) -> None:
        """Report the question as not imported, named and counted by its Canvas type."""
        kind = self.kind or "(none)"
        self.reader.builder.skip(kind, code, f"question '{short(self.label)}' ({kind}): {message}", self.span())

    def markdown(self, material: etree._Element | None, where: str, blanks: list[str] | None = None) -> str:
        return self.reader.text.markdown(material, f"{where} of '{short(self.label)}'", self.span(), self.member, blanks)

    def html_markdown(self, fragment: str, where: str) -> str:
        return self.reader.text.html_markdown(fragment, f"{where} of '{short(self.label)}'", self.span(), self.member)

    # -- reading -------------------------------------------------------------------------------

    def canvas_type(self) -> str | None:
        declared = self.fields.get("question_type") or CC_PROFILES.get(self.fields.get("cc_profile", ""))
        if declared:
            return declared
        inferred = self._inferred_type()
        if inferred:
            self.reader.builder.warn(LOST, f"question '{short(self.label)}' has no Canvas question_type; read as {inferred} from its responses",
                                     self.span(), hint="check the question in the preview")
        return inferred

    def read(self) -> Data | None:
        canvas_type = self.canvas_type()
        self.kind = canvas_type or "(none)"
        reader = READERS.get(canvas_type or "")
        if reader is None:
            self.skip(UNSUPPORTED, f"the Canvas question type '{self.kind}' cannot be imported (the source has no such kind); skipped")
            return None
        data: Data = {"feedback": {}}
        points = _float(self.fields.get("points_possible"))
        data["points"] = points if points is not None else 1.0
        data["stem"] = "" if canvas_type in OWN_STEM else self.stem()
        if reader(self, data) is False:
            return None
        self._question_feedback(data)
        if self.title.casefold() not in DEFAULT_NAMES and data.get("stem") is not None:
            derived = [item_title(QuestionBase.model_construct(title=None, stem=stem))
                       for stem in (data["stem"], BLANK_MARKER.sub(r"[\1]", data["stem"]))]
            if not any(same_title(self.title, d) for d in derived):
                data["title"] = self.title
        if self.lost:
            self.warn(LOST, "not kept: " + "; ".join(self.lost))
        return data

    def stem(self) -> str:
        return self.markdown(self.stem_material(), "the text")

    def stem_material(self) -> etree._Element | None:
        """The question's own text: the ``material`` of the presentation, not of a response."""
        if self.presentation is None:
            return None
        for element in self.presentation.iter():
            if isinstance(element.tag, str) and local(element) == "material" and not any(
                    local(a).startswith("response_") for a in element.iterancestors()):
                return element
        return None

    def _stem_start(self) -> str:
        material = self.stem_material()
        text = " ".join(one_line(m.text) for m in descendants(material, "mattext")) if material is not None else ""
        return one_line(text_content(text)) or self.ident or "question"

    def _inferred_type(self) -> str | None:
        if self.presentation is None:
            return None
        lids = descendants(self.presentation, "response_lid")
        strs = descendants(self.presentation, "response_str", "response_num")
        if descendants(self.presentation, "response_xy"):
            return "hot_spot_question"
        if len(lids) == 1 and not strs:
            cardinality = (lids[0].get("rcardinality") or "Single").lower()
            return {"multiple": "multiple_answers_question", "ordered": "ordering_question"}.get(cardinality, "multiple_choice_question")
        if len(strs) == 1 and not lids:
            fib = next(iter(descendants(strs[0], "render_fib")), None)
            if local(strs[0]) == "response_num" or (fib is not None and (fib.get("fibtype") or "").lower() in ("decimal", "integer")):
                return "numerical_question"
            return "short_answer_question" if any(c.scores for c in self.conditions) else "essay_question"
        if not lids and not strs and not self.conditions:
            return "text_only_question"
        return None

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
            if condition.scores:
                continue
            if answer in condition.values(respident):
                for ident in condition.feedback:
                    if ident not in QUESTION_FEEDBACK and ident in self.feedback:
                        return self.feedback_text(ident)
        return self.feedback_text(f"{answer}_fb")

    def _question_feedback(self, data: Data) -> None:
        for ident, role in QUESTION_FEEDBACK.items():
            if ident in self.feedback and ident not in self.used_feedback:
                text = self.feedback_text(ident)
                if text and not data["feedback"].get(role):
                    data["feedback"][role] = text
        for ident in self.feedback:
            if ident not in self.used_feedback:
                self.used_feedback.add(ident)
                self.lost.append(f"feedback '{ident}' (shown under conditions the source cannot express)")


def _generated(ident: str) -> bool:
    return GENERATED_IDENT.match(ident) is not None
