"""What an item's ``resprocessing`` says, condition by condition: what each tests, the score it
sets or adds, and the feedback it shows.

Canvas writes (``qti_items.rb``): feedback conditions (``continue="Yes"``: ``<other/>`` for the
general feedback, ``varequal`` on an answer for that answer's feedback), then the scoring
condition(s) (``setvar`` ``Set`` 100, or ``Add`` a share per blank or matching prompt), then the
incorrect feedback. A condition is read for what it does, not for where it is. Scores are read as
percent of the ``decvar``'s ``maxvalue`` (100 in Canvas's exports).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from .xml import _float, child, children, descendants, local


@dataclass
class Test:
    """One ``varequal`` (or bound) inside a condition."""

    respident: str
    value: str
    negated: bool
    #: ``varequal``, ``vargte``, ``vargt``, ``varlte``, ``varlt``.
    kind: str


@dataclass
class Condition:
    element: etree._Element
    #: The ``conditionvar``, None when there is none.
    test: etree._Element | None
    #: The score set or added (percent of the points), None when the condition scores nothing.
    score: float | None = None
    feedback: list[str] = field(default_factory=list)
    #: The condition sets the score (``setvar action="Set"``), whatever the value.
    sets: bool = False

    @property
    def scores(self) -> bool:
        return self.score is not None and self.score > 0

    @property
    def is_other(self) -> bool:
        """``<conditionvar><other/></conditionvar>``: always true."""
        return self.test is not None and [local(c) for c in children(self.test)] == ["other"]

    def tests(self, respident: str | None = None) -> list[Test]:
        if self.test is None:
            return []
        found = []
        for element in descendants(self.test, "varequal", "vargte", "vargt", "varlte", "varlt"):
            negated = any(local(a) == "not" for a in _ancestors_within(element, self.test))
            ident = element.get("respident", "")
            if respident is None or ident == respident:
                found.append(Test(ident, (element.text or "").strip(), negated, local(element)))
        return found

    def values(self, respident: str | None = None) -> list[str]:
        """The answers this condition asks for (``varequal``, not negated)."""
        return [t.value for t in self.tests(respident) if t.kind == "varequal" and not t.negated]


def conditions(item: etree._Element, system: str = "Canvas") -> list[Condition]:
    """The item's conditions; when none gives credit, the one the exporting system marks as the
    right answer in its own way gets it all (:func:`_marked_right`)."""
    found = _conditions(item)
    if found and not any(c.scores for c in found):
        for condition in _marked_right(found, system):
            condition.score = 100.0
    return found


def _marked_right(found: list[Condition], system: str) -> list[Condition]:
    """Right answers that score nothing as written. Blackboard shows the feedback it names
    ``correct`` on the right answer, and may set no score there (the question's points are given
    by that condition). Respondus marks the right answer by setting the score, to 0 in a question
    worth nothing (Canvas's converter reads a Respondus ``Set`` as the right answer). A condition
    that always holds (``<other/>``) is never one."""
    tested = [c for c in found if c.test is not None and not c.is_other and c.tests()]
    # Samigo marks a right pair of a matching question the same way, with "CorrectMatch".
    by_feedback = [c for c in tested if any(f.strip().lower() in ("correct", "correctmatch") for f in c.feedback)]
    if by_feedback:
        return by_feedback
    return [c for c in tested if c.sets] if system == "Respondus" else []


def _conditions(item: etree._Element) -> list[Condition]:
    processing = child(item, "resprocessing")
    if processing is None:
        return []
    scale = 100 / _maximum(processing)
    found = []
    for element in children(processing, "respcondition"):
        condition = Condition(element, child(element, "conditionvar"))
        for setvar in children(element, "setvar"):
            if _is_score(setvar):
                text = (setvar.text or "").strip()
                # Blackboard sets the score to its maximum by name (``SCORE.max``).
                score = 100 / scale if text.lower().endswith(".max") else _float(text)
                condition.score = score * scale if score is not None else None
                condition.sets = condition.sets or (setvar.get("action") or "Set").strip().lower() == "set"
        condition.feedback = [d.get("linkrefid", "") for d in descendants(element, "displayfeedback") if d.get("linkrefid")]
        found.append(condition)
    return found


def _maximum(processing: etree._Element) -> float:
    """What ``SCORE`` is out of: its ``decvar``'s ``maxvalue`` (Canvas writes 100; R/exams the
    question's points, setting the score to them for a right answer). Without one (Respondus,
    plain IMS QTI: ``Set 1`` for a right answer), the most the conditions give: the highest score
    set, or the scores added together; 100 when they give nothing."""
    for outcomes in children(processing, "outcomes"):
        for decvar in children(outcomes, "decvar"):
            if _is_score(decvar) and decvar.get("maxvalue") is not None:
                maximum = _float(decvar.get("maxvalue"))
                return maximum if maximum is not None and maximum > 0 else 100.0
    set_scores, added = [], 0.0
    for setvar in descendants(processing, "setvar"):
        value = _float(setvar.text)
        if not _is_score(setvar) or value is None or value <= 0:
            continue
        if (setvar.get("action") or "Set").lower() == "add":
            added += value
        else:
            set_scores.append(value)
    most = max(set_scores + [added])
    return most if most > 0 else 100.0


def _is_score(element: etree._Element) -> bool:
    """A ``setvar`` or ``decvar`` of the score: ``SCORE`` (the default), or what other systems call
    it (Blackboard's ``variablename`` attribute, D2L's ``D2L_Correct`` and ``que_score``; Canvas's
    converter takes any name ending in SCORE)."""
    name = (element.get("varname") or element.get("variablename") or "SCORE").strip().upper()
    # Fronter numbers it by question (``SCORE221569``).
    return name.endswith("SCORE") or name == "D2L_CORRECT" or (name.startswith("SCORE") and name[5:].isdigit())


def _ancestors_within(element: etree._Element, top: etree._Element) -> list[etree._Element]:
    found = []
    parent = element.getparent()
    while parent is not None and parent is not top:
        found.append(parent)
        parent = parent.getparent()
    return found
