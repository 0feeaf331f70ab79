"""QTI 2.1's documents without MathML are validated against the QTI 2.1 schema with the project's
stand-in for MathML 2's (``schemas/mathml-any.xsd``, ``SchemaSet.qti_plain``), which compiles in
a tenth of the time (issue 34: a ``check`` at every save). These tests hold it to judging every
such document exactly as the whole official schema does, and a document with MathML, however
its namespace is written, to the official schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, SEED_SOURCE
from lxml import etree

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.pipeline import load_quizzes, render_outputs
from qti_builder.results import BuildOptions
from qti_builder.schemas import SchemaSet, has_mathml, resolve_schema_dir


@pytest.fixture(scope="module")
def schemas() -> SchemaSet:
    return SchemaSet(resolve_schema_dir(None))


def _verdict(schema: etree.XMLSchema, tree: etree._ElementTree) -> tuple[bool, list[tuple[int, int, str]]]:
    valid = schema.validate(tree)
    return valid, [(e.line, e.column, e.message) for e in schema.error_log]


def _qti_documents(source: Path) -> list[tuple[str, etree._ElementTree]]:
    options = BuildOptions(sources=[source], formats=["qti21"])
    sink = DiagnosticSink()
    outputs = render_outputs(load_quizzes(options, sink), options, sink)
    return [(d.path, etree.fromstring(d.data).getroottree()) for o in outputs for d in o.documents if d.schema == "qti"]


@pytest.mark.parametrize("source", [SEED_SOURCE, ROOT / "source" / "content-showcase.md", ROOT / "source" / "python-fundamentals.md"],
                         ids=lambda p: p.name)
def test_every_document_without_mathml_is_judged_as_by_the_official_schema(source: Path, schemas: SchemaSet) -> None:
    documents = _qti_documents(source)
    assert len(documents) > 5
    for path, tree in documents:
        if has_mathml(tree):
            assert schemas.qti_for(tree) is schemas.qti, path
            continue
        assert schemas.qti_for(tree) is schemas.qti_plain, path
        assert _verdict(schemas.qti_plain, tree) == _verdict(schemas.qti, tree) == (True, []), path


def test_the_showcase_formula_is_validated_by_the_official_schema(schemas: SchemaSet) -> None:
    documents = dict(_qti_documents(ROOT / "source" / "content-showcase.md"))
    with_math = [path for path, tree in documents.items() if has_mathml(tree)]
    assert any("math-question" in path for path in with_math), sorted(documents)


#: A QTI 2.1 test with a section whose <selection> takes attributes of other namespaces, strictly
#: (QTI 2.1's ``extension.Selection.Attr``): only the declared ones pass.
_TEST = """<assessmentTest xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" {ns} identifier="t" title="t">
  <testPart identifier="p" navigationMode="linear" submissionMode="individual">
    <assessmentSection identifier="s" title="s" visible="true">
      <selection select="1" {attribute}/>
      {content}
      <assessmentItemRef identifier="i" href="i.xml"/>
    </assessmentSection>
  </testPart>
</assessmentTest>"""

#: Documents without MathML, valid and not, that the two schemas must judge alike, error for error.
WITHOUT_MATHML = {
    "valid": ("", "", ""),
    # xlink:href is declared by MathML 2's schema (its xlink import), which the stand-in imports too.
    "xlink href, declared": ('xmlns:xl="http://www.w3.org/1999/xlink"', 'xl:href="a.xml"', ""),
    "undeclared foreign attribute": ('xmlns:f="urn:example:f"', 'f:a="1"', ""),
    "unknown element": ("", "", "<bogus/>"),
    "misplaced QTI element": ("", "", "<testFeedback identifier='f' outcomeIdentifier='o' showHide='show' access='atEnd'/>"),
    "xlink namespace, undeclared attribute": ('xmlns:xl="http://www.w3.org/1999/xlink"', 'xl:role="r"', ""),
}


@pytest.mark.parametrize("case", sorted(WITHOUT_MATHML))
def test_documents_without_mathml_are_judged_alike(case: str, schemas: SchemaSet) -> None:
    ns, attribute, content = WITHOUT_MATHML[case]
    data = _TEST.format(ns=ns, attribute=attribute, content=content).encode()
    tree = etree.fromstring(data).getroottree()
    assert not has_mathml(tree) and not has_mathml(tree, data)
    official = _verdict(schemas.qti, tree)
    assert _verdict(schemas.qti_plain, tree) == official
    assert official[0] is (case in ("valid", "xlink href, declared")), official


#: MathML that the official schema refuses, its namespace written in three ways.
BAD_MATHML = {
    "prefixed": ('xmlns:m="http://www.w3.org/1998/Math/MathML"', "<m:math><m:bogus/></m:math>"),
    "character references": ('xmlns:m="http://www.w3.org/1998/Math/Math&#77;&#x4C;"', "<m:math><m:bogus/></m:math>"),
    "default namespace": ("", '<math xmlns="http://www.w3.org/1998/Math/MathML"><bogus/></math>'),
}


@pytest.mark.parametrize("case", sorted(BAD_MATHML))
def test_a_document_with_mathml_goes_to_the_official_schema(case: str, schemas: SchemaSet) -> None:
    ns, math = BAD_MATHML[case]
    item = f"""<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" {ns} identifier="i"
        title="i" adaptive="false" timeDependent="false"><itemBody><p>x {math}</p></itemBody></assessmentItem>"""
    tree = etree.fromstring(item).getroottree()
    assert has_mathml(tree) and has_mathml(tree, item.encode())
    assert schemas.qti_for(tree) is schemas.qti_for(tree, item.encode()) is schemas.qti
    valid, errors = _verdict(schemas.qti, tree)
    assert not valid and any("bogus" in message for _, _, message in errors)
    assert _verdict(schemas.qti_plain, tree)[0]  # what the stand-in alone would have let through


def test_a_mathml_attribute_alone_counts_as_mathml() -> None:
    data = b'<a xmlns:m="http://www.w3.org/1998/Math/MathML" m:x="1"/>'
    tree = etree.fromstring(data).getroottree()
    assert has_mathml(tree) and has_mathml(tree, data)
    assert not has_mathml(etree.fromstring('<a xmlns:m="http://www.w3.org/1998/Math/MathML"/>').getroottree())


def test_mathml_named_through_an_entity_counts_as_mathml() -> None:
    from qti_builder.validate import _PARSER  # the parser documents are validated after

    data = b'<!DOCTYPE a [<!ENTITY ns "http://www.w3.org/1998/Math/Math&#77;L">]><a xmlns:m="&ns;"><m:math/></a>'
    tree = etree.fromstring(data, _PARSER).getroottree()
    assert has_mathml(tree, data) and has_mathml(tree, data.replace(b"&#77;", b"M"))
