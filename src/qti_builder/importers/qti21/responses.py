"""What an item's response declarations and response processing say: the declared answers
(:class:`Response`), which feedback each condition shows (:class:`FeedbackConditions`) and the
written-out answers of a text or number entry (:func:`text_conditions`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from .xml import _float, child, children, descendants, local


#: The standard response-processing templates, by the last part of their URI (QTI 2.0-2.2 alike):
#: all or nothing by the correct response, the mapping's sum, the area mapping's sum.
TEMPLATES = ("match_correct", "map_response_point", "map_response")


@dataclass
class Response:
    identifier: str
    cardinality: str = "single"
    base_type: str = "identifier"
    correct: list[str] = field(default_factory=list)
    mapping: dict[str, float] = field(default_factory=dict)
    case_sensitive: bool | None = None
    #: The mapping's score for any value it does not list, and its bounds (None: none).
    default: float = 0.0
    lower: float | None = None
    upper: float | None = None

    def right(self) -> list[str]:
        """The values that score: the correct response, else the mapping's positive entries."""
        return list(self.correct) or [k for k, v in self.mapping.items() if v > 0]

    def best(self) -> float | None:
        """The most the mapping can give (None without a mapping): the best entry for a single
        response, the positive entries together (within the upper bound) for several."""
        if not self.mapping:
            return None
        positive = [v for v in self.mapping.values() if v > 0]
        total = max(positive, default=0.0) if self.cardinality == "single" else sum(positive)
        return min(total, self.upper) if self.upper is not None else total


def scoring(item: etree._Element) -> str:
    """How the item scores: a standard template (by its URI, or written out as the template
    spells it), ``custom`` for other rules, ``none`` without response processing."""
    processing = child(item, "responseProcessing")
    if processing is None:
        return "none"
    uri = (processing.get("template") or processing.get("templateLocation") or "").rstrip("/")
    name = uri.rsplit("/", 1)[-1].removesuffix(".xml")
    if name in TEMPLATES:
        return name
    if descendants(processing, "mapResponsePoint"):
        return "map_response_point"
    if descendants(processing, "mapResponse"):
        return "map_response"
    if any(_is_correct_test(m) for m in descendants(processing, "match")):
        return "match_correct"
    return "custom" if children(processing) else "none"


def incomplete_share(item: etree._Element) -> float | None:
    """The share of the points (between 0 and 1) that an item gives some of the right choices and
    no wrong one, when its response processing says so as a multiple-response question's exam rule
    is written (``scoring=exam``): a condition whose first branch matches the correct response and
    sets SCORE, and whose second, when something is chosen and none of the listed (wrong) choices
    is, sets SCORE to less. None for any other processing."""
    processing = child(item, "responseProcessing")
    if processing is None:
        return None
    for condition in descendants(processing, "responseCondition"):
        branches = children(condition)
        if len(branches) < 2 or local(branches[0]) != "responseIf" or local(branches[1]) != "responseElseIf":
            continue
        tests = [children(b)[0] if children(b) else None for b in branches[:2]]
        if tests[0] is None or tests[1] is None or not _is_correct_test(tests[0]) or local(tests[1]) != "and":
            continue
        parts = children(tests[1])
        if not parts or any(local(p) != "not" for p in parts) or not any(descendants(p, "isNull") for p in parts):
            continue
        full, part = _score_set(branches[0]), _score_set(branches[1])
        if full is not None and part is not None and 0 < part < full:
            return part / full
    return None


def _score_set(branch: etree._Element) -> float | None:
    """The number a branch sets SCORE to, if it sets it to one."""
    for setter in children(branch, "setOutcomeValue"):
        if setter.get("identifier") == "SCORE":
            value = next(iter(children(setter, "baseValue")), None)
            return _float(value.text) if value is not None else None
    return None


class FeedbackConditions:
    """When response processing shows each feedback: by the condition around its identifier."""

    def __init__(self, item: etree._Element) -> None:
        self.roles: dict[str, str] = {}
        self.by_value: dict[str, list[str]] = {}
        processing = child(item, "responseProcessing")
        if processing is not None:
            self._walk(processing, "general")

    def _walk(self, element: etree._Element, role: str) -> None:
        for node in children(element):
            name = local(node)
            if name == "setOutcomeValue":
                for value in descendants(node, "baseValue"):
                    if value.get("baseType") == "identifier" and (value.text or "").strip():
                        self.roles.setdefault(value.text.strip(), role)
            elif name == "responseCondition":
                branches = children(node)
                for index, branch in enumerate(branches):
                    test = children(branch)[0] if local(branch) != "responseElse" and children(branch) else None
                    if local(branch) == "responseElse":
                        branch_role = "incorrect" if index and _is_correct_test(children(branches[0])[0]) else "other"
                    else:
                        branch_role = _condition_role(test)
                        value = _compared_value(test)
                        if value:
                            for setter in descendants(branch, "baseValue"):
                                if setter.get("baseType") == "identifier" and setter is not test and setter.getparent().getparent() is not None \
                                        and local(setter.getparent()) == "multiple":
                                    self.by_value.setdefault(value, []).append((setter.text or "").strip())
                    self._walk(branch, branch_role if role == "general" else "other")

    def role(self, identifier: str) -> str:
        role = self.roles.get(identifier)
        if role and role != "other":
            return role
        lowered = identifier.lower()
        for word, name in (("general", "general"), ("_all", "general"), ("partial", "partially_correct"),
                           ("incorrect", "incorrect"), ("wrong", "incorrect"), ("correct", "correct")):
            if word in lowered:
                return name
        return role or "other"

    def shown_for(self, value: str) -> list[str]:
        return self.by_value.get(value, [])


def _is_correct_test(test: etree._Element) -> bool:
    return local(test) == "match" and any(local(c) == "correct" for c in children(test))


def _condition_role(test: etree._Element | None) -> str:
    if test is None:
        return "other"
    if _is_correct_test(test):
        return "correct"
    values = [_float(v.text) for v in descendants(test, "baseValue") if v.get("baseType") == "float"]
    if local(test) == "gte" and any(local(c) == "variable" and c.get("identifier") == "SCORE" for c in children(test)):
        return "correct"
    if local(test) == "gt" and values == [0.0]:
        return "partially_correct"
    if local(test) == "lte" and values == [0.0]:
        return "incorrect"
    return "other"


def _compared_value(test: etree._Element | None) -> str | None:
    """``match(RESPONSE, X)`` or ``member(X, RESPONSE)``: the choice X a feedback belongs to."""
    if test is None or local(test) not in ("match", "member"):
        return None
    values = [c for c in children(test) if local(c) == "baseValue" and c.get("baseType") == "identifier"]
    variables = [c for c in children(test) if local(c) == "variable"]
    return (values[0].text or "").strip() if len(values) == 1 and len(variables) == 1 else None


def text_conditions(item: etree._Element, response: str) -> list[tuple[etree._Element, float | None, str | None]]:
    """The written-out answers: (condition, score set, feedback shown), in order."""
    found: list[tuple[etree._Element, float | None, str | None]] = []
    processing = child(item, "responseProcessing")
    if processing is None:
        return found
    for condition in descendants(processing, "responseCondition"):
        for branch in children(condition):
            if local(branch) == "responseElse" or not children(branch):
                continue
            test = children(branch)[0]
            if not any(v.get("identifier") == response for v in descendants(test, "variable")):
                continue
            if local(test) not in ("stringMatch", "patternMatch", "and", "match", "equal"):
                continue
            score = None
            for setter in children(branch, "setOutcomeValue"):
                if setter.get("identifier") == "SCORE":
                    value = next(iter(descendants(setter, "baseValue")), None)
                    score = _float(value.text) if value is not None else None
            feedback = None
            for value in descendants(branch, "baseValue"):
                if value.get("baseType") == "identifier" and local(value.getparent()) == "multiple":
                    feedback = (value.text or "").strip()
            found.append((test, score, feedback))
    return found
