"""The Canvas package's QTI 1.2 documents as the tests read them: elements by their plain names
(:func:`local_names`), and the copy the QTI 1.2.1 DTD can judge (:func:`dtd_copy`)."""

from __future__ import annotations

from copy import deepcopy

from lxml import etree

#: The namespace Canvas's exporter (canvas-lms lib/cc/qti/qti_generator.rb) declares on
#: questestinterop, and in which Instructure's qti gem (New Quizzes) looks up every element.
QTI12 = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI = "{http://www.w3.org/2001/XMLSchema-instance}"


def local_names(root: etree._Element) -> etree._Element:
    """A copy of a QTI 1.2 document with its elements' names without the namespace (the tests
    look elements up by their plain names), after checking that every one of them is in it."""
    copy = deepcopy(root)
    for element in copy.iter(etree.Element):
        assert etree.QName(element).namespace == QTI12, element.tag
        element.tag = etree.QName(element).localname
    etree.cleanup_namespaces(copy)
    return copy


def dtd_copy(root: etree._Element) -> etree._Element:
    """What the QTI 1.2.1 DTD can judge: no namespace (it predates them), no xsi: attributes, and
    none of Canvas's two extensions the package writes (a numerical answer's margin on its value,
    a question group's points per item), each checked on its own in tests/test_canvas_writer.py."""
    copy = local_names(root)
    for name in [n for n in copy.attrib if n.startswith(XSI)]:
        del copy.attrib[name]
    for value in copy.iter("varequal"):
        value.attrib.pop("margin", None)
        value.attrib.pop("margintype", None)
    for extension in copy.findall(".//selection/selection_extension"):
        extension.getparent().remove(extension)
    etree.cleanup_namespaces(copy)
    return copy
