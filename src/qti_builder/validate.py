"""The gate before packaging: every generated document against its schema, plus the rules the
schemas cannot express (what Moodle's importer refuses or silently breaks on, manifest IDREFs).

An error is reported at the question's source line, with the place in the generated file, so a
user sees which question broke and a template author sees which line of output.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from .diagnostics import DiagnosticSink, SourceSpan
from .schemas import SchemaSet
from .writers import Document

#: Moodle's grade options in percent (question_bank::fraction_options_full); an answer fraction
#: must be within 0.001 points of one of them or of its negative (lms-import-facts.md).
MOODLE_GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0)

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def validate_documents(
    output_name: str,
    documents: list[Document],
    schemas: SchemaSet,
    spans: dict[str, SourceSpan],
    sink: DiagnosticSink,
) -> None:
    for document in documents:
        for line, column, message in _problems(document, schemas):
            question = document.question_at(line)
            sink.error(
                "QB401",
                f"{message}" + (f" (question '{question}')" if question else ""),
                spans.get(question) if question else None,
                hint="this is a bug in qti-builder or in a --templates override; please report it with the source",
                generated=SourceSpan(f"{output_name}/{document.path}" if document.path != output_name else output_name, line, column),
            )


def _problems(document: Document, schemas: SchemaSet) -> Iterator[tuple[int, int, str]]:
    try:
        tree = etree.fromstring(document.data, _PARSER).getroottree()
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        yield line, column, f"not well-formed XML: {exc.msg}"
        return
    schema = {"qti": schemas.qti, "manifest": schemas.manifest, "moodle": schemas.moodle}[document.schema]
    if not schema.validate(tree):
        for err in schema.error_log:
            yield err.line, err.column + 1, f"schema: {err.message}"
    checks = {"manifest": _manifest_rules, "moodle": _moodle_rules}
    if document.schema in checks:
        yield from checks[document.schema](tree)


def _manifest_rules(tree: etree._ElementTree) -> Iterator[tuple[int, int, str]]:
    """libxml2 does not check that IDREFs resolve; an unresolved dependency breaks imports."""
    ns = {"cp": "http://www.imsglobal.org/xsd/imscp_v1p1"}
    ids = set(tree.xpath("//cp:resource/@identifier", namespaces=ns))
    for dep in tree.xpath("//cp:dependency", namespaces=ns):
        if dep.get("identifierref") not in ids:
            yield dep.sourceline or 1, 1, f"dependency on unknown resource '{dep.get('identifierref')}'"


def _moodle_rules(tree: etree._ElementTree) -> Iterator[tuple[int, int, str]]:
    """What Moodle 4.5's importer refuses, and what it accepts silently although broken."""
    for question in tree.getroot().iter("question"):
        kind = question.get("type")
        line = question.sourceline or 1
        if kind == "category":
            continue
        if not (question.findtext("name/text") or "").strip():
            yield line, 1, "Moodle needs a non-empty question name"
        fractions = []
        for answer in question.findall("answer"):
            try:
                value = float(answer.get("fraction", ""))
            except ValueError:
                continue  # the XSD reports it
            fractions.append(value)
            if not any(abs(abs(value) - g) <= 0.001 for g in MOODLE_GRADES):
                yield answer.sourceline or line, 1, f"fraction {value} is not one of Moodle's grade options"
        if kind == "multichoice":
            if len(fractions) < 2:
                yield line, 1, "Moodle requires at least 2 choices in a multichoice question"
            elif (question.findtext("single") or "true").strip() in ("true", "1"):
                if abs(max(fractions) - 100) > 0.001:
                    yield line, 1, "a single-answer multichoice needs an answer worth 100%"
            elif abs(sum(f for f in fractions if f > 0) - 100) > 0.01:
                yield line, 1, "the positive fractions of a multiple-answer question must add up to 100%"
        if kind == "truefalse":
            texts = sorted((a.findtext("text") or "").strip() for a in question.findall("answer"))
            if texts != ["false", "true"]:
                yield line, 1, "true/false answers must be the texts 'true' and 'false'"
