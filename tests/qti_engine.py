"""Score QTI 2.1 items with an independent engine: pyslet 0.7 (PyPI).

Test helper, not a test module.  :func:`score_item` loads an
``assessmentItem`` with pyslet's QTI v2 classes, runs one attempt with the
given ``RESPONSE`` and returns the outcome variables after response
processing, converted to plain Python values.

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

from lxml import etree
from pyslet.qtiv2 import items, variables
from pyslet.qtiv2 import xml as qtixml

__all__ = ["score_item"]

Cardinality = variables.Cardinality
BaseType = variables.BaseType


def _element_names(xml: bytes) -> Counter:
    """Count element names (Clark notation) in *xml*."""
    root = etree.fromstring(xml)
    return Counter(el.tag for el in root.iter() if isinstance(el.tag, str))


def load_item(item_xml: bytes) -> items.AssessmentItem:
    """Parse *item_xml* into a pyslet ``AssessmentItem``.

    Raises ValueError if the root is not a QTI 2.1 ``assessmentItem`` or if
    pyslet dropped any element it does not know (see module docstring).
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


def _response_value(item: items.AssessmentItem, response: str | list[str]) -> variables.Value:
    """Build a pyslet Value for RESPONSE matching its declaration."""
    decl = item.get_declaration("RESPONSE")
    if decl is None:
        raise ValueError("item declares no RESPONSE variable")
    single = decl.cardinality == Cardinality.single
    if single != isinstance(response, str):
        raise TypeError(
            f"RESPONSE has {Cardinality.to_str(decl.cardinality)} cardinality; "
            f"got {type(response).__name__}")
    value = variables.Value.new_value(decl.cardinality, decl.baseType)
    value.set_value(response)  # parses/validates, e.g. identifier syntax
    return value


def score_item(item_xml: bytes, response: str | list[str] | None) -> dict[str, object]:
    """Run one attempt of *item_xml* with *response*; return declared outcomes.

    *response* is a str for a single-cardinality RESPONSE (identifier or
    string baseType, per the declaration), a list of str for a
    multiple/ordered one, or None for no response (RESPONSE stays at its
    default, normally NULL).  The result maps each declared outcome
    identifier to float / int / str / bool, a set of str for multiple
    cardinality, a list for ordered, or None for NULL.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        item = load_item(item_xml)
        item.render_html = lambda *args, **kwargs: None  # see module docstring
        state = variables.ItemSessionState(item)
        state.begin_session()      # outcomes := defaults, numAttempts := 0
        state.begin_attempt()      # numAttempts += 1, responses := defaults
        if response is not None:
            state["RESPONSE"] = _response_value(item, response)
        state.end_attempt()        # resets outcomes, runs responseProcessing
        return {od.identifier: _to_python(state[od.identifier])
                for od in item.OutcomeDeclaration}
