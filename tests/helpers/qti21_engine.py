"""Score QTI 2.1 items with an independent engine: pyslet 0.7 (PyPI).

Test helper, not a test module.  :func:`score_item` loads an
``assessmentItem`` with pyslet's QTI v2 classes, runs one attempt with the
given ``RESPONSE`` and returns the outcome variables after response
processing, converted to plain Python values; :func:`score_template_item` does the same for an
item template in one of its sets, and :func:`shown_text` gives the text a player shows in a set
(``printedVariable`` and ``mathVariable`` applied as QTI 2.1 defines them).

pyslet does not apply standard response-processing templates referenced by
``template="..."`` URIs, so items must spell their response rules out in full.

pyslet quirks handled here:

* Unknown elements are dropped silently: the parser parks them in a private
  child list that typed parents such as ``responseCondition`` never look at,
  so a misspelt ``<responseEls>`` just vanishes and its rules never run.
  :func:`load_item` therefore compares the element names in the input with
  those in pyslet's re-serialised model and raises if any were lost.
* ``ItemSessionState.begin_attempt()`` also renders the item body to HTML,
  which raises for interactions pyslet cannot render (NotImplementedError for
  ``extendedTextInteraction``; TypeError for a multiple-response
  ``choiceInteraction`` whose RESPONSE is still NULL).  Rendering is
  irrelevant to scoring, so :func:`score_item` replaces ``render_html`` on
  the loaded item instance with a no-op.
* pyslet calls its own deprecated camel-case aliases (``Run``, ``Evaluate``,
  ...) internally, emitting many ``DeprecationWarning``\\ s per item; they are
  pyslet-internal noise, so they are silenced around pyslet calls.
* No other workaround is needed on Python 3.11.
"""

from __future__ import annotations

import warnings
from collections import Counter
from functools import lru_cache

from lxml import etree
from pyslet.qtiv2 import items, variables
from pyslet.qtiv2 import xml as qtixml

__all__ = ["score_item", "score_template_item", "shown_text", "template_sets"]

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

Cardinality = variables.Cardinality
BaseType = variables.BaseType


def _element_names(xml: bytes) -> Counter:
    """Count element names (Clark notation) in *xml*."""
    root = etree.fromstring(xml)
    return Counter(el.tag for el in root.iter() if isinstance(el.tag, str))


@lru_cache(maxsize=512)
def load_item(item_xml: bytes) -> items.AssessmentItem:
    """Parse *item_xml* into a pyslet ``AssessmentItem``.

    Raises ValueError if the root is not a QTI 2.1 ``assessmentItem`` or if
    pyslet dropped any element it does not know (see module docstring).
    Kept per item's bytes: pyslet's parser is pure Python, nine tenths of a scoring test's time
    when an item is scored response by response (and set by set), and an attempt keeps its
    values in its own ``ItemSessionState``, never in the item, so one parse serves every attempt.
    """
    doc = qtixml.QTIDocument()
    doc.read(src=item_xml)
    item = doc.root
    if not isinstance(item, items.AssessmentItem):
        raise ValueError(f"root element is not a QTI 2.1 assessmentItem: {item.get_xmlname()!r}")
    lost = _element_names(item_xml) - _element_names(str(item).encode("utf-8"))
    if lost:
        raise ValueError(f"pyslet ignored unknown/misplaced elements: {dict(lost)}")
    return item


def _to_python(value: variables.Value) -> object:
    """Convert a pyslet Value to plain Python (NULL, incl. empty container -> None)."""
    if value.is_null():
        return None
    card = value.cardinality()
    if card == Cardinality.multiple:
        return set(value.get_values())
    if card == Cardinality.ordered:
        return list(value.get_values())
    if card == Cardinality.record:
        return {k: _to_python(v) for k, v in value.value.items()}
    if value.baseType in (BaseType.float, BaseType.duration):
        return float(value.value)
    return value.value  # str for identifier/string, int, bool, tuples for pairs/points


Response = str | list[str]


def _default_response(item: items.AssessmentItem) -> str:
    """RESPONSE, or the item's only response variable when it has another name
    (a true/false item's TF_RESPONSE, say)."""
    if item.get_declaration("RESPONSE") is not None:
        return "RESPONSE"
    declared = [rd.identifier for rd in item.ResponseDeclaration]
    if len(declared) != 1:
        raise ValueError(f"item declares no RESPONSE variable (it declares {declared}); "
                         "pass a dict of responses")
    return declared[0]


def _response_value(item: items.AssessmentItem, identifier: str, response: Response) -> variables.Value:
    """Build a pyslet Value for response variable *identifier* matching its declaration."""
    decl = item.get_declaration(identifier)
    if not isinstance(decl, variables.ResponseDeclaration):
        raise ValueError(f"item declares no {identifier} response variable")
    single = decl.cardinality == Cardinality.single
    if single != isinstance(response, str):
        raise TypeError(
            f"{identifier} has {Cardinality.to_str(decl.cardinality)} cardinality; "
            f"got {type(response).__name__}")
    value = variables.Value.new_value(decl.cardinality, decl.baseType)
    value.set_value(response)  # parses/validates, e.g. identifier syntax, "A B" pairs, floats
    return value


def score_item(item_xml: bytes, response: Response | dict[str, Response | None] | None) -> dict[str, object]:
    """Run one attempt of *item_xml* with *response*; return declared outcomes.

    *response* is a str for a single-cardinality RESPONSE (identifier,
    string or float baseType, per the declaration: "3.14" for a float), a
    list of str for a multiple/ordered one (a directedPair is "source
    target"), or None for no response (RESPONSE stays at its default,
    normally NULL).  An item without a RESPONSE but with a single response
    variable of another name gets it there.  For several response variables
    pass a dict: response identifier -> such a value (None or absent: left
    at its default).  The result maps each declared outcome identifier to
    float / int / str / bool, a set of str for multiple cardinality, a list
    for ordered, or None for NULL.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        item = load_item(item_xml)
        item.render_html = lambda *args, **kwargs: None  # see module docstring
        state = variables.ItemSessionState(item)
        state.begin_session()      # outcomes := defaults, numAttempts := 0
        state.begin_attempt()      # numAttempts += 1, responses := defaults
        if isinstance(response, dict):
            responses = response
        else:
            responses = {} if response is None else {_default_response(item): response}
        for identifier, value in responses.items():
            if value is not None:
                state[identifier] = _response_value(item, identifier, value)
        state.end_attempt()        # resets outcomes, runs responseProcessing
        return {od.identifier: _to_python(state[od.identifier])
                for od in item.OutcomeDeclaration}


def template_sets(item_xml: bytes) -> int:
    """How many sets an item template draws from: its ``SET`` is ``randomInteger`` 1..N (the
    build's form; each set is one ``templateIf`` branch)."""
    root = etree.fromstring(item_xml)
    ns = root.nsmap[None]
    (draw,) = root.findall(f".//{{{ns}}}setTemplateValue[@identifier='SET']/{{{ns}}}randomInteger")
    assert draw.get("min") == "1", "the sets are numbered from 1"
    return int(draw.get("max"))


@lru_cache(maxsize=512)
def _template_item(fixed_xml: bytes) -> items.AssessmentItem:
    """An item template with its set fixed, parsed once per bytes (see :func:`load_item`)."""
    doc = qtixml.QTIDocument()
    doc.read(src=fixed_xml)
    item = doc.root
    # pyslet runs templateProcessing but leaves it out when it writes the item back: the
    # lost-element check of load_item looks at everything else.
    assert item.TemplateProcessing is not None
    root = etree.fromstring(fixed_xml)
    processing = root.find(f"{{{root.nsmap[None]}}}templateProcessing")
    kept = _element_names(fixed_xml) - Counter(e.tag for e in processing.iter() if isinstance(e.tag, str))
    lost = kept - _element_names(str(item).encode("utf-8"))
    if lost:
        raise ValueError(f"pyslet ignored unknown/misplaced elements: {dict(lost)}")
    return item


def score_template_item(item_xml: bytes, set_number: int,
                        response: Response | dict[str, Response | None] | None) -> tuple[dict[str, object], dict[str, object]]:
    """Run one attempt of an item template in set ``set_number``: the item's own ``SET`` draw is
    replaced by that number, pyslet runs the template processing (``select_clone``), then the
    response processing. Returns the template variables' values and the outcomes."""
    root = etree.fromstring(item_xml)
    ns = root.nsmap[None]
    (draw,) = root.findall(f".//{{{ns}}}setTemplateValue[@identifier='SET']/{{{ns}}}randomInteger")
    fixed = etree.Element(f"{{{ns}}}baseValue", baseType="integer")
    fixed.text = str(set_number)
    draw.getparent().replace(draw, fixed)
    # pyslet refuses a printedVariable inside a choice (QTIValidityError), which QTI 2.1 allows:
    # what a choice shows changes no score, so each is put as its variable's name.
    for printed in root.findall(f".//{{{ns}}}simpleChoice//{{{ns}}}printedVariable"):
        previous, text = printed.getprevious(), f"[{printed.get('identifier')}]" + (printed.tail or "")
        if previous is not None:
            previous.tail = (previous.tail or "") + text
        else:
            printed.getparent().text = (printed.getparent().text or "") + text
        printed.getparent().remove(printed)
    fixed_xml = etree.tostring(root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        item = _template_item(fixed_xml)
        item.render_html = lambda *args, **kwargs: None
        state = variables.ItemSessionState(item)
        state.select_clone()       # template processing: the set's values
        state.begin_session()
        state.begin_attempt()
        responses = response if isinstance(response, dict) else ({} if response is None else {_default_response(item): response})
        for identifier, value in responses.items():
            if value is not None:
                state[identifier] = _response_value(item, identifier, value)
        state.end_attempt()
        template = {d.identifier: _to_python(state[d.identifier]) for d in item.TemplateDeclaration}
        return template, {od.identifier: _to_python(state[od.identifier]) for od in item.OutcomeDeclaration}


def _xsd_true(value: str | None) -> bool:
    """An XML Schema boolean as QTI 2.1 declares its attributes: ``true`` or ``1``; absent is false."""
    return (value or "").strip() in ("true", "1")


def shown_text(item_xml: bytes, set_number: int, element: str = "itemBody") -> str:
    """The text a QTI 2.1 player shows of an item template's ``itemBody`` (or another element, by
    local name: ``modalFeedback``...) in set ``set_number``, blanks collapsed, as the QTI 2.1
    information model defines the two ways a template variable reaches what is shown:

    * ``printedVariable``: the variable's value in its ``format`` (printf-style), or as written
      without one;
    * ``templateDeclaration mathVariable="true"``: the variable's value in place of every MathML
      ``<mi>`` or ``<ci>`` whose content is the variable's identifier (the spec has the player make
      them ``<mn>``/``<cn>`` of the value), in every formula of the item.

    The values are pyslet's (:func:`score_template_item` runs the template processing); pyslet
    reads ``mathVariable`` but never applies it, so the substitution is done here over lxml.
    A formula's text is its tokens run together (``y=mx+c``)."""
    values, _ = score_template_item(item_xml, set_number, None)
    root = etree.fromstring(item_xml)
    ns = root.nsmap[None]
    in_math = {d.get("identifier") for d in root.iterfind(f"{{{ns}}}templateDeclaration")
               if _xsd_true(d.get("mathVariable"))}

    def value_text(name: str, fmt: str | None) -> str:
        value = values[name]
        if fmt:
            return fmt % value
        return format(value, "g") if isinstance(value, float) else str(value)

    def shown(node: etree._Element) -> str:
        if node.tag == f"{{{ns}}}printedVariable":
            return value_text(node.get("identifier"), node.get("format"))
        if node.tag in (f"{{{MATHML_NS}}}mi", f"{{{MATHML_NS}}}ci") and (node.text or "").strip() in in_math:
            return value_text(node.text.strip(), None)
        parts = [node.text or ""]
        for child in node:
            if isinstance(child.tag, str):
                parts.append(shown(child))
            parts.append(child.tail or "")
        return "".join(parts)

    found = root.findall(f".//{{{ns}}}{element}")
    if not found:
        raise ValueError(f"the item has no {element}")
    return " ".join(" ".join(shown(node) for node in found).split())
