"""What the readers of one item see: :class:`PackageScope`, the package the item is in (its quiz
builder and rich text), and :class:`ItemContext`, the item's own lookups (its response
declarations, the feedback each condition shows, its text as Markdown).

Beneath the kind readers (:mod:`.kinds`, :mod:`.placing`, :mod:`.responses`) and the item reader
(:mod:`.item`) that fills them in, so that a kind reader imports nothing above it: the package
reader passes itself down as the scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Protocol

from lxml import etree

from ...diagnostics import SourceSpan
from ...i18n import TRUE_FALSE
from ..base import QuizBuilder, sanitise_id
from .responses import FeedbackConditions, Response, scoring
from .templates import first_rendering
from .xml import Data, _float, child, children, descendants

TRUE_WORDS = {w.casefold() for w, _ in TRUE_FALSE.values()} | {"true", "t", "yes"}
FALSE_WORDS = {w.casefold() for _, w in TRUE_FALSE.values()} | {"false", "f", "no"}


@dataclass
class ItemRef:
    href: str
    weight: float | None = None
    section: Data | None = None
    #: Where the test or manifest refers to the item (a missing item is reported there).
    span: SourceSpan | None = None


class PackageScope(Protocol):
    """The package as its items see it (:class:`.package.PackageReader` is one)."""

    builder: QuizBuilder
    #: A qti-builder package (catalog ``qti-builder``): its own forms are undone.
    ours: bool
    quiz_id: str | None
    #: The items' ``xml:lang``s, to tell the quiz's language.
    languages: list[str]

    def span(self, member: str, element: etree._Element | None = None) -> SourceSpan: ...

    def rich(self, elements: list[etree._Element], member: str, where: str, text: str | None = None,
             span: SourceSpan | None = None, root: etree._Element | None = None) -> str: ...


class ItemContext:
    """One ``assessmentItem`` with the lookups its kind's reader uses."""

    def __init__(self, reader: PackageScope, item: etree._Element, ref: ItemRef) -> None:
        #: The item as written; a template-driven item is read as its first rendering (``item``)
        #: unless it is read as a calculated question (:meth:`use` then gives its placeholders' copy).
        self.original = item
        self.rendering = first_rendering(item)
        if self.rendering is not None:
            item = self.rendering.item
        self.reader, self.ref = reader, ref
        self.use(item)
        identifier = item.get("identifier") or PurePosixPath(ref.href).stem
        quiz_id = reader.quiz_id
        self.model_id = identifier[len(quiz_id) + 1:] if quiz_id and identifier.startswith(quiz_id + ".") else identifier
        self.preferred_id = sanitise_id(self.model_id)
        self.label = item.get("title") or identifier
        self.lost: list[str] = []
        #: Feedback identifiers already placed on a choice or an answer.
        self.used_feedback: set[str] = set()
        #: Response identifiers of the blanks (a gap match's gap identifiers), in the order of the text.
        self.blank_order: list[str] = []
        #: The item's interactions, named when it is skipped.
        self.interactions: str | None = None
        #: An item template's fields as a calculated question (:mod:`.calculated`), when it is one.
        self.calculated: Data | None = None
        language = item.get("{http://www.w3.org/XML/1998/namespace}lang")
        if language:
            reader.languages.append(language)

    def use(self, item: etree._Element) -> None:
        """Read ``item`` (the item, its first rendering, or its copy with placeholders)."""
        self.item = item
        #: How the item scores: a standard template's name, ``custom`` or ``none`` (responses.scoring).
        self.scoring = scoring(item)
        self.responses = {r.identifier: r for r in (self._response(d) for d in descendants(item, "responseDeclaration"))}
        self.feedback_texts: dict[str, etree._Element] = {f.get("identifier", ""): f for f in descendants(item, "modalFeedback")}
        self.conditions = FeedbackConditions(item)

    def span(self, element: etree._Element | None = None) -> SourceSpan:
        return self.reader.span(self.ref.href, element if element is not None else self.item)

    def rich(self, elements: list[etree._Element], where: str, text: str | None = None) -> str:
        return self.reader.rich(elements, self.ref.href, f"{where} of '{self.label}'", text, self.span(), self.item)

    def warn(self, code: str, message: str) -> None:
        self.reader.builder.warn(code, f"item '{self.label}': {message}", self.span())

    def skip(self, code: str, message: str, kind: str | None = None) -> None:
        """Report the item as not imported, named and counted by its interactions (or ``kind``)."""
        kind = kind or self.interactions or "assessmentItem"
        self.reader.builder.skip(kind, code, f"item '{self.label}' ({kind}): {message}", self.span())

    def _blank_id(self, response: str, index: int) -> str:
        if self.reader.ours and response.startswith("RESPONSE_") and sanitise_id(response[len("RESPONSE_"):]):
            return response[len("RESPONSE_"):]
        return f"b{index}"

    def _response(self, declaration: etree._Element) -> Response:
        response = Response(declaration.get("identifier", ""), declaration.get("cardinality", "single"),
                             declaration.get("baseType", "identifier"))
        correct = child(declaration, "correctResponse")
        if correct is not None:
            response.correct = [(v.text or "").strip() for v in children(correct, "value")]
        mapping = child(declaration, "mapping")
        if mapping is not None:
            response.default = _float(mapping.get("defaultValue")) or 0.0
            response.lower, response.upper = _float(mapping.get("lowerBound")), _float(mapping.get("upperBound"))
            for entry in children(mapping, "mapEntry"):
                value = _float(entry.get("mappedValue"))
                response.mapping.setdefault(entry.get("mapKey", ""), value if value is not None else 0.0)
                if entry.get("caseSensitive") is not None:
                    response.case_sensitive = entry.get("caseSensitive") == "true"
        return response

    def feedback_for(self, identifier: str) -> str | None:
        element = self.feedback_texts.get(identifier)
        if element is None:
            return None
        self.used_feedback.add(identifier)
        return self.rich(children(element), f"feedback '{identifier}'", element.text) or None

    def choice_feedback(self, choice_id: str) -> str | None:
        for identifier in self.conditions.shown_for(choice_id) + [f"{choice_id}_fb"]:
            if identifier in self.feedback_texts:
                return self.feedback_for(identifier)
        return None
