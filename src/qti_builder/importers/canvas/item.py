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

from lxml import etree

from ...model.questions import BLANK_MARKER, QuestionBase
from ...writers.qti21 import item_title
from ..base import LOST, UNSUPPORTED, same_title, short
from ..calculated import unescape_texts
from .context import DEFAULT_NAMES, FEEDBACK_ROLES, QUESTION_FEEDBACK, ItemContext
from .flavours import POINTS_FIELDS, UNSUPPORTED as VENDOR_UNSUPPORTED, VENDOR_TYPES, vendor_type
from .kinds import OWN_STEM, READERS
from .xml import Data, _float, descendants, local

#: Common Cartridge profiles (the subset copy of a course export) -> Canvas types.
CC_PROFILES = {"cc.multiple_choice.v0p1": "multiple_choice_question", "cc.multiple_response.v0p1": "multiple_answers_question",
               "cc.true_false.v0p1": "true_false_question", "cc.fib.v0p1": "short_answer_question",
               "cc.essay.v0p1": "essay_question"}

class ItemReader(ItemContext):
    def canvas_type(self) -> str | None:
        """The Canvas type whose reader reads the item: Canvas's own ``question_type`` (or its
        Common Cartridge profile), else the exporting system's type (:mod:`.flavours`), else what
        the responses look like. ``kind`` is the type as the input names it."""
        declared = self.fields.get("question_type") or CC_PROFILES.get(self.fields.get("cc_profile", ""))
        if declared:
            self.kind = declared
            return declared
        vendor = vendor_type(self.fields)
        if vendor is not None:
            field, value = vendor
            self.kind = value
            mapped = VENDOR_TYPES[field].get(value.casefold())
            if mapped is not None:
                return self._refined(mapped)
            if value.casefold() in VENDOR_UNSUPPORTED:
                return None
        inferred = self._inferred_type()
        if inferred:  # a guess, as Canvas's converter guesses (QuestionTypeEducatedGuesser): worth a look
            self.scope.builder.warn(LOST, f"question '{short(self.label)}' has no Canvas question_type"
                                          f"{f' and its type {self.kind!r} is not one Canvas reads' if self.kind else ''}; "
                                          f"read as {inferred} from its responses", self.span(), hint="check the question in the preview")
        self.kind = self.kind or inferred
        return inferred

    def _refined(self, mapped: str) -> str:
        """What the responses make of a system's type, as Canvas's converter reads them: a
        multiple-choice item with several right answers is multiple answers, a short answer with
        several text boxes is several blanks."""
        strs = descendants(self.presentation, "response_str", "response_num") if self.presentation is not None else []
        if mapped == "short_answer_question" and len(strs) > 1:
            return "fill_in_multiple_blanks_question"
        lids = descendants(self.presentation, "response_lid") if self.presentation is not None else []
        if mapped == "multiple_choice_question" and len(lids) == 1 and (lids[0].get("rcardinality") or "").lower() == "multiple":
            return "multiple_answers_question"
        return mapped

    def read(self) -> Data | None:
        canvas_type = self.canvas_type()
        self.kind = self.kind or canvas_type or "(none)"
        reader = READERS.get(canvas_type or "")
        if reader is None:
            what = VENDOR_UNSUPPORTED.get(self.kind.casefold())
            self.skip(UNSUPPORTED, f"the {'Canvas ' if self.kind == canvas_type or not what else ''}question type '{self.kind}' "
                                   f"{f'({what}) ' if what else ''}cannot be imported (the source has no such kind); skipped")
            return None
        data: Data = {"feedback": {}}
        points = next((p for p in (_float(self.fields.get(f)) for f in POINTS_FIELDS) if p is not None and p >= 0), None)
        if points is None:
            points = self._score_maximum()  # Samigo and Fronter keep the points only there
        data["points"] = points if points is not None else 1.0
        data["stem"] = "" if canvas_type in OWN_STEM else self.stem()
        if reader(self, data) is False:
            return None
        self._question_feedback(data)
        if data.get("type") == "calculated":  # {x_1} in feedback as in the stem (the converter escapes its '_')
            unescape_texts(data)
        if self.title.casefold() not in DEFAULT_NAMES and data.get("stem") is not None:
            derived = [item_title(QuestionBase.model_construct(title=None, stem=stem))
                       for stem in (data["stem"], BLANK_MARKER.sub(r"[\1]", data["stem"]))]
            if not any(same_title(self.title, d) for d in derived):
                data["title"] = self.title
        if self.lost:
            self.warn(LOST, "not kept: " + "; ".join(self.lost))
        return data

    def _score_maximum(self) -> float | None:
        """The points as the ``maxvalue`` of the item's score variable, where a system keeps them
        only there: Sakai's Samigo (``SCORE``), Fronter (``SCORE<question number>``). Elsewhere a
        ``maxvalue`` is what the scores are out of (WebCT's and Canvas's 100), not points."""
        for decvar in descendants(self.item, "decvar"):
            name = (decvar.get("varname") or "SCORE").strip().upper()
            numbered = name.startswith("SCORE") and name[5:].isdigit()
            if (name == "SCORE" and self.scope.system == "Sakai") or numbered:
                value = _float(decvar.get("maxvalue"))
                return value if value is not None and value >= 0 else None
        return None

    def _inferred_type(self) -> str | None:
        if self.presentation is None:
            return None
        lids = descendants(self.presentation, "response_lid")
        strs = descendants(self.presentation, "response_str", "response_num")
        # Fronter writes a text box as a response_lid around a render_fib: a text response.
        typed = [lid for lid in lids if descendants(lid, "render_fib") and not descendants(lid, "render_choice")]
        lids, strs = [lid for lid in lids if lid not in typed], strs + typed
        if descendants(self.presentation, "response_xy"):
            return "hot_spot_question"
        if len(lids) == 1 and not strs:
            cardinality = (lids[0].get("rcardinality") or "").lower() or _cardinality_by_number(lids[0])
            return {"multiple": "multiple_answers_question", "ordered": "ordering_question"}.get(cardinality, "multiple_choice_question")
        if len(strs) == 1 and not lids:
            fib = next(iter(descendants(strs[0], "render_fib")), None)
            if local(strs[0]) == "response_num" or (fib is not None and (fib.get("fibtype") or "").lower() in ("decimal", "integer")):
                return "numerical_question"
            return "short_answer_question" if any(c.scores for c in self.conditions) else "essay_question"
        if not lids and not strs and not self.conditions:
            return "text_only_question"
        return None

    def _question_feedback(self, data: Data) -> None:
        for ident, role in QUESTION_FEEDBACK.items():
            if ident in self.feedback and ident not in self.used_feedback:
                text = self.feedback_text(ident)
                if text and not data["feedback"].get(role):
                    data["feedback"][role] = text
        for ident in self.feedback:
            if ident in self.used_feedback:
                continue
            other = next((r for pattern, r in FEEDBACK_ROLES if pattern.search(ident)), None)
            text = self.feedback_text(ident)
            if not text:
                continue  # empty feedback (Blackboard writes every block, most of them empty)
            if other and not data["feedback"].get(other):
                data["feedback"][other] = text
                continue
            self.lost.append(f"feedback '{ident}' (shown under conditions the source cannot express)")


def _cardinality_by_number(response: etree._Element) -> str:
    """A choice response without ``rcardinality`` (Fronter): several answers when its
    ``render_choice`` lets more than one be chosen (``maxnumber``)."""
    render = next(iter(descendants(response, "render_choice")), None)
    most = _float(render.get("maxnumber")) if render is not None else None
    return "multiple" if most is not None and most > 1 else "single"
