"""One ``assessmentItem``: which kind its interactions make it, its points, stem and title, and
the feedback left over once the kind's reader (:mod:`.kinds`) has placed its own.

A template-driven item is read as its first rendering (:mod:`.templates`), an adaptive one as
it first shows; both are reported. Gap match, associate and hot text interactions are read as
the kinds that keep their scoring (fill in the blank, matching, choice): their readers say what
is lost."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from copy import deepcopy

from lxml import etree

from ...kinds import KINDS, resolve
from ...model.questions import QuestionBase
from ...writers.qti21 import item_title
from ..base import INVALID, LOST, UNSUPPORTED, one_line, same_title
from ..calculated import Unconvertible, fit_display, problem, unescape_texts
from . import kinds, placing
from .calculated import calculated_fields, with_placeholders
from .context import ItemContext
from .xml import Data, _float, child, children, descendants, local, replace_with_text, unwrap

Reader = Callable[[ItemContext, Data, list[etree._Element]], None]


class _Chain(Mapping[str, Reader]):
    """Several tables of readers read as one, each looked up when asked (the first that has the
    key): the kinds' table resolves its readers when first used, so a kind's module may import
    this package without asking for its own functions before they are made."""

    def __init__(self, *tables: Mapping[str, Reader]) -> None:
        self.tables = tables

    def __getitem__(self, kind: str) -> Reader:
        for table in self.tables:
            if kind in table:
                return table[kind]
        raise KeyError(kind)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(kind for table in self.tables for kind in table))

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: Every kind's reader, and the model type of the kinds read into another.
READERS = _Chain(placing.READERS, kinds.INTERACTION_READERS, kinds.READERS)
KIND_TYPES = {**kinds.KIND_TYPES, **placing.KIND_TYPES}


def _claims() -> dict[str, list[tuple[str, str | None]]]:
    claims: dict[str, list[tuple[str, str | None]]] = {}
    for name, spec in KINDS.items():
        if spec.qti21_import is not None:
            for interaction in spec.qti21_import.interactions:
                claims.setdefault(interaction, []).append((name, spec.qti21_import.tells))
    return claims


#: The kinds that claim each interaction in their spec (KindSpec.qti21_import), with the function
#: that tells their items (None: the rest).
CLAIMS = _claims()
#: The kind an item of one interaction is, by the interaction's name: a kind's name, or the
#: ItemReader method that tells it from the interaction. A kind names its own interactions in its
#: spec (kinds.py KindSpec.qti21_import): an interaction several kinds claim (a choice interaction
#: is single choice, multiple response or true/false) is told by :meth:`ItemReader._claimed_kind`.
#: The rest are the interactions the importer reads into a kind of the model (placing.py,
#: kinds.py INTERACTION_READERS). Interactions not here have no kind: an item with one of them is
#: not imported.
INTERACTION_KINDS: dict[str, str] = {
    **{interaction: kinds[0][0] if len(kinds) == 1 else "_claimed_kind" for interaction, kinds in CLAIMS.items()},
    "gapMatchInteraction": "_gap_match_kind",
    "associateInteraction": "associate",
    "hottextInteraction": "hottext",
    "sliderInteraction": "slider",
}
#: The kind of an item holding several interactions (blanks in a text, typed or chosen; an essay
#: with files attached), or none (text only), by the set of interactions it holds: from the
#: kinds' specs (Qti21Import.together).
SEVERAL_INTERACTIONS = {together: name for name, spec in KINDS.items() if spec.qti21_import is not None
                        for together in spec.qti21_import.together}
#: Interactions the model has a kind for; any other in an item makes it unimportable.
KNOWN_INTERACTIONS = set(INTERACTION_KINDS)
#: The class names of MathAssess's custom interaction and operators (org.qtitools.mathassess.*).
MATHASSESS = "org.qtitools.mathassess."
ALL_INTERACTIONS = KNOWN_INTERACTIONS | {"associateInteraction", "gapMatchInteraction", "hotspotInteraction",
                                         "graphicOrderInteraction", "graphicAssociateInteraction", "graphicGapMatchInteraction",
                                         "hottextInteraction", "selectPointInteraction", "positionObjectInteraction",
                                         "sliderInteraction", "drawingInteraction", "mediaInteraction", "customInteraction",
                                         "endAttemptInteraction", "positionObjectStage"}


class ItemReader(ItemContext):
    """Reads one item into the kind its interactions make it."""

    #: Why an item template read as a calculated question cannot be one after all (the model's
    #: rules, or a set it cannot compute): it is then read again as its first rendering.
    refused: str | None = None

    # -- reading -------------------------------------------------------------------------------

    def read(self) -> Data | None:
        data = self._read()
        if data is not None and self.calculated is not None:
            fit_display(data)  # an item does not say how its answer is shown (qti-builder's own do)
            found = problem(data)
            if found is not None:  # read again, as its first rendering
                assert self.rendering is not None
                self.calculated, self.lost, self.used_feedback = None, [], set()
                self.use(self.rendering.item)
                self.refused = found[0]
                return self._read()
        return data

    def _read(self) -> Data | None:
        body = child(self.item, "itemBody")
        if body is None:
            self.skip(INVALID, "it has no itemBody; skipped")
            return None
        interactions = [e for e in body.iter() if isinstance(e.tag, str) and local(e) in ALL_INTERACTIONS]
        if self._mathassess(interactions):
            return None
        interactions = self._without_end_attempt(interactions)
        unknown = sorted({local(e) for e in interactions if local(e) not in KNOWN_INTERACTIONS})
        if unknown:
            self.skip(UNSUPPORTED, "no question type of the source has this interaction; skipped", ", ".join(unknown))
            return None
        kinds = [local(e) for e in interactions]
        self.interactions = ", ".join(dict.fromkeys(kinds)) or None
        kind = self._kind(body, interactions, kinds)
        if kind is None:
            return None
        if self.rendering is not None and self.calculated is None:
            kind, body, interactions = self._template(kind, body, interactions)
        self._adaptive()
        data: Data = {"type": KIND_TYPES.get(kind, kind), "feedback": {}}
        points = self._points()
        if points is not None:
            data["points"] = points
        data["stem"] = self._stem(body, interactions, kind)
        READERS[kind](self, data, interactions)
        if data.pop("_skip", False):
            return None
        self._feedback(data)
        if self.calculated is not None:
            unescape_texts(data)
        if data.get("stem") is not None and self.item.get("title"):
            model_like = QuestionBase.model_construct(title=None, stem=data["stem"])
            if not same_title(self.item.get("title"), item_title(model_like)):
                data["title"] = one_line(self.item.get("title"))
        if self.lost:
            self.warn(LOST, "not kept: " + "; ".join(self.lost))
        return data

    def _kind(self, body: etree._Element, interactions: list[etree._Element], kinds: list[str]) -> str | None:
        """The kind the item's interactions make (INTERACTION_KINDS, SEVERAL_INTERACTIONS), or None
        when it is skipped, saying why."""
        if len(interactions) != 1:
            several = SEVERAL_INTERACTIONS.get(frozenset(kinds))
            if several is not None and kinds.count("extendedTextInteraction") > 1:
                self.skip(UNSUPPORTED, "several text answers in one item cannot be imported; skipped")
                return None
            if several is None:
                self.skip(UNSUPPORTED, f"an item with several interactions ({', '.join(kinds)}) cannot be imported; skipped")
            return several
        kind = INTERACTION_KINDS[kinds[0]]
        if kind.startswith("_"):
            return getattr(self, kind)(interactions[0])  # type: ignore[no-any-return]
        return kind

    def _gap_match_kind(self, interaction: etree._Element) -> str | None:
        if descendants(interaction, "gapImg"):
            self.skip(UNSUPPORTED, "images to place (gapImg) cannot be imported (a drop-down holds text); skipped")
            return None
        return "gap_match"

    def _claimed_kind(self, interaction: etree._Element) -> str:
        """The kind, of those claiming the interaction (CLAIMS), that tells the item is its own,
        else the one that does not tell."""
        claims = sorted(CLAIMS[local(interaction)], key=lambda claim: claim[1] is None)
        return next(name for name, tells in claims if tells is None or resolve(tells)(self, interaction))

    def _template(self, kind: str, body: etree._Element, interactions: list[etree._Element]
                  ) -> tuple[str, etree._Element, list[etree._Element]]:
        """An item template as a calculated question (its text read with placeholders) when its
        template processing maps onto one, else as its first rendering, reported with the reason."""
        assert self.rendering is not None
        try:
            if self.refused:
                raise Unconvertible(self.refused)
            fields, template = calculated_fields(self, kind, interactions)
        except Unconvertible as exc:
            values = ", ".join(f"{name} = {_shown(value)}" for name, value in self.rendering.values.items())
            unknown = (f"; {', '.join(self.rendering.unknown)} could not be computed and show as their names"
                       if self.rendering.unknown else "")
            self.reader.builder.warn(LOST, f"item '{self.label}' is template-driven and cannot be a calculated question "
                                           f"({exc}): its first rendering is imported ({values or 'no values'}), the same for "
                                           f"every student{unknown}", self.span(),
                                     hint="add the other variants as questions of a section with select: 1 to draw one of them")
            return kind, body, interactions
        self.calculated = fields
        self.use(with_placeholders(self.original, template, fields["variables"]))
        body = child(self.item, "itemBody")
        assert body is not None
        interactions = [e for e in body.iter() if isinstance(e.tag, str) and local(e) in ALL_INTERACTIONS]
        return fields["type"], body, interactions

    def _adaptive(self) -> None:
        """An adaptive item is read by its final scoring: the answer that completes it, in full."""
        if self.item.get("adaptive") != "true":
            return
        by_attempt = any(v.get("identifier") == "numAttempts" for v in descendants(self.item, "variable"))
        self.reader.builder.warn(LOST, f"item '{self.label}' is adaptive: it is read by its final scoring, the right answer "
                                       "in full; what it shows and scores between attempts is lost"
                                       + (" (its score depends on the number of attempts)" if by_attempt else ""), self.span())

    def _without_end_attempt(self, interactions: list[etree._Element]) -> list[etree._Element]:
        """An endAttemptInteraction (a button that ends the attempt, often to ask for a hint) has no
        form in the source: reported, and the item read without it."""
        ends = [e for e in interactions if local(e) == "endAttemptInteraction"]
        for end in ends:
            self.lost.append(f"the button '{one_line(end.get('title')) or end.get('responseIdentifier')}' that ends an "
                             "attempt early (to ask for a hint, say)")
        return [e for e in interactions if local(e) != "endAttemptInteraction"]

    def _mathassess(self, interactions: list[etree._Element]) -> bool:
        """A MathAssess item (its math entry, or values and answers Maxima computes) is skipped:
        the source cannot run a computer algebra system."""
        classes = [e.get("class", "") for e in interactions + descendants(self.item, "customOperator")]
        found = sorted({c.rsplit(".", 1)[-1] for c in classes if c.startswith(MATHASSESS)})
        if not found:
            return False
        self.skip(UNSUPPORTED, "a MathAssess item: its answers are mathematical expressions or values that the Maxima "
                               f"computer algebra system computes and compares ({', '.join(found)}), which the source "
                               "cannot do; skipped", "MathAssess")
        return True

    def _points(self) -> float | None:
        if self.ref.weight is not None:
            return self.ref.weight
        for outcome in descendants(self.item, "outcomeDeclaration"):
            if outcome.get("identifier") == "MAXSCORE":
                value = next(iter(descendants(outcome, "value")), None)
                if value is not None and _float(value.text) is not None:
                    return _float(value.text)
        for outcome in descendants(self.item, "outcomeDeclaration"):
            if outcome.get("identifier") == "SCORE" and _float(outcome.get("normalMaximum")) is not None:
                return _float(outcome.get("normalMaximum"))
        if self.scoring == "map_response":
            # Nothing says the most the item gives: the mappings do.
            best = [b for b in (r.best() for r in self.responses.values()) if b is not None]
            if best and sum(best) > 0:
                return sum(best)
        return None

    def _stem(self, body: etree._Element, interactions: list[etree._Element], kind: str) -> str:
        stem_div = next((e for e in children(body) if local(e) == "div" and "stem" in (e.get("class") or "").split()), None)
        prompts = [p for i in interactions for p in children(i, "prompt")]
        if kind in ("fill_in_blank", "gap_match"):
            return self._blank_stem(body, interactions, stem_div)
        if kind == "hottext":
            return self._passage_stem(body)
        if stem_div is not None:
            parts = [stem_div]
            parts_text = self.rich(children(stem_div), "the text", stem_div.text)
        else:
            parts, text = _unwrapped(body, interactions)
            # An interaction is no text of the stem, also one set aside (an end-attempt button
            # standing in the body outside any block).
            parts = [e for e in parts if e not in interactions and local(e) not in ("rubricBlock", *ALL_INTERACTIONS)
                     and not (local(e) == "p" and any(i.getparent() is e for i in interactions))]
            parts = [_without(e, interactions) for e in parts]
            parts_text = self.rich(parts, "the text", text)
        if prompts:
            prompt = self.rich(children(prompts[0]), "the prompt", prompts[0].text)
            parts_text = "\n\n".join(p for p in (parts_text, prompt) if p)
        return parts_text

    def _blank_stem(self, body: etree._Element, interactions: list[etree._Element], stem_div: etree._Element | None) -> str:
        container = stem_div if stem_div is not None else body
        copy = deepcopy(container)
        copy.tail = None
        _open_passages(copy)
        order = []
        for element in list(copy.iter()):
            if isinstance(element.tag, str) and local(element) in ("textEntryInteraction", "inlineChoiceInteraction", "gap"):
                # A gap is named by its own identifier (its interaction has one response for all gaps).
                order.append(element.get("identifier" if local(element) == "gap" else "responseIdentifier", ""))
                replace_with_text(element, "\ue000%d\ue001" % len(order))
        self.blank_order = order
        nodes = [e for e in children(copy) if local(e) not in ("rubricBlock",)]
        stem = self.rich(nodes, "the text", copy.text)
        for index, response in enumerate(order, 1):
            stem = stem.replace("\ue000%d\ue001" % index, f"[[{self._blank_id(response, index)}]]")
        return stem

    def _passage_stem(self, body: etree._Element) -> str:
        """A hot text item's stem: the text around the interaction, its prompt, and the passage
        the hot texts are in (as plain text: they become the choices)."""
        copy = deepcopy(body)
        copy.tail = None
        _open_passages(copy)
        return self.rich([e for e in children(copy) if local(e) not in ("rubricBlock",)], "the text", copy.text)

    def _feedback(self, data: Data) -> None:
        used = self.used_feedback
        for identifier, element in self.feedback_texts.items():
            if identifier in used:
                continue
            role = self.conditions.role(identifier)
            text = self.rich(children(element), f"feedback '{identifier}'", element.text)
            if not text:
                continue
            if role in ("general", "correct", "partially_correct", "incorrect") and not data["feedback"].get(role):
                data["feedback"][role] = text
            else:
                self.lost.append(f"feedback '{identifier}' (shown under conditions the source cannot express)")
        for inline in descendants(self.item, "feedbackInline", "feedbackBlock"):
            self.lost.append(f"inline feedback '{inline.get('identifier')}'")


def _shown(value: object) -> str:
    return ", ".join(map(_shown, value)) if isinstance(value, list) else str(value)


def _open_passages(container: etree._Element) -> None:
    """Gap match and hot text interactions hold the text they are about: opened into it, their
    prompt a paragraph, the words to place removed (they become the drop-downs' options) and the
    hot texts plain text (they become the choices)."""
    for interaction in [e for e in container.iter() if isinstance(e.tag, str)
                        and local(e) in ("gapMatchInteraction", "hottextInteraction")]:
        for element in children(interaction):
            if local(element) in ("gapText", "gapImg"):
                replace_with_text(element, "")
            elif local(element) == "prompt":
                element.tag = "p"
        for hottext in descendants(interaction, "hottext"):
            unwrap(hottext)
        unwrap(interaction)


def _unwrapped(body: etree._Element, interactions: list[etree._Element]) -> tuple[list[etree._Element], str | None]:
    """The body's blocks, with layout divs that hold an interaction opened up (TAO wraps
    everything in ``<div class="grid-row"><div class="col-12">``)."""
    parts, text = children(body), body.text
    while True:
        wrappers = [e for e in parts if local(e) == "div" and any(i in e.iter() for i in interactions)]
        if not wrappers:
            return parts, text
        opened: list[etree._Element] = []
        for e in parts:
            if e in wrappers:
                text = (text or "") + (e.text or "") if not opened else text
                opened.extend(children(e))
            else:
                opened.append(e)
        parts = opened


def _without(element: etree._Element, interactions: list[etree._Element]) -> etree._Element:
    copy = deepcopy(element)
    copy.tail = None
    for node in list(copy.iter()):
        if isinstance(node.tag, str) and local(node) in ALL_INTERACTIONS:
            node.getparent().remove(node)
    return copy
