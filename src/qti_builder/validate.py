"""The gate before packaging: every generated document against its schema, plus the rules the
schemas cannot express (what Moodle's importer refuses or silently breaks on, manifest IDREFs).

An error is reported at the question's source line, with the place in the generated file, so a
user sees which question broke and a template author sees which line of output.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

from . import backup_rules, canvas_rules
from .cloze_syntax import cloze_subquestions
from .diagnostics import DiagnosticSink, SourceSpan
from .formulas import moodle_formula_error, moodle_text_formula_errors
from .schemas import SchemaSet
from .writers import Document
from .writers.base import QUESTION_MARKER
from .writers.moodle import MOODLE_GRADES

#: Moodle's grade options as the database holds them (0..1), for the quiz backup's answers.
BACKUP_GRADES = tuple(g / 100 for g in MOODLE_GRADES)
#: Moodle's grade options, for the exact ones (most fractions: 100 and 0) found without the
#: tolerance's walk through all of them.
_MOODLE_GRADE_SET = frozenset(MOODLE_GRADES)


@dataclass(frozen=True)
class ResourceFacts:
    """What validation reads of one question's resources in a QTI 2.1 manifest put together from
    its frame and each question's resources (``manifest-resource``): the identifiers they declare
    (``xs:ID``) and those their dependencies refer to (``xs:IDREF``), with each one's line."""

    ids: tuple[tuple[int, str], ...]
    refs: tuple[tuple[int, str], ...]


#: What validation reads of each question's document for the rules across its package's files,
#: by question id: a Canvas item's facts, a quiz backup question's records', or a QTI 2.1
#: question's manifest resources'.
Fact = canvas_rules.ItemFacts | backup_rules.RecordFacts | ResourceFacts
Facts = dict[str, Fact]

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
#: A QTI package's test and manifest have a few lines for every question (a 100,000-question
#: bank's manifest is 80 MB, and its tree was 600 MB): they are parsed without the whitespace
#: between their elements, a third of the tree, which their schemas ignore (element content).
#: Lines are kept; what has no element inside keeps its whitespace (libxml2's rule).
_FRAME_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_blank_text=True)
#: The documents parsed with ``_FRAME_PARSER``, when they belong to no one question.
_FRAMES = {"qti", "manifest"}


def validate_documents(
    output_name: str,
    documents: list[Document],
    schemas: SchemaSet,
    spans: dict[str, SourceSpan],
    sink: DiagnosticSink,
) -> Facts:
    """Validate each document, reporting to ``sink``; returns the facts of each Canvas item (and
    quiz backup question)
    document read on the way, by question id, for :func:`validate_package`."""
    facts: Facts = {}
    resources = [d for d in documents if d.schema == "manifest-resource" and d.question_id is not None]
    together = len(resources) > 1 and _resources_valid_together(resources, schemas, facts)
    for document in documents:
        if document.schema and not (together and document.schema == "manifest-resource" and document.question_id is not None):
            _report(output_name, document, _problems(document, schemas, facts), spans, sink)
    return facts


def _resources_valid_together(resources: list[Document], schemas: SchemaSet, facts: Facts) -> bool:
    """Whether the questions' manifest resources of one task are all valid, found by validating
    them as the resources of one manifest (``WRAPPERS``) rather than one by one: each is a few
    hundred bytes, and lxml's cost per document, not per byte, was most of validating a bank's
    10,000 (0.2 s of CPU). The verdict is the same: the resources of one ``resources`` element
    are judged each by its declaration, as alone, but for the uniqueness of their identifiers,
    which joined they must have as well (checked across all the manifest's parts anyway,
    :func:`_manifest_package`). Only a clean verdict is taken from here, with each question's
    facts, on its own lines; with any problem, each is validated alone, for the problems of each
    question as alone (and so for a piece whose lines cannot be told apart joined: one that does
    not end a line)."""
    if not all(d.data.endswith(b"\n") for d in resources):
        return False
    start, end = WRAPPERS["manifest-resource"]
    firsts, line = [], 1
    for document in resources:
        firsts.append(line)
        line += document.data.count(b"\n")
    data = start + b"".join(d.data for d in resources) + end
    try:
        tree = _parse(data)
    except etree.XMLSyntaxError:
        return False
    if tree.docinfo.internalDTD is not None or not schemas.manifest.validate(tree):
        return False  # (a piece's DOCTYPE would not be one joined: each alone says what is wrong)
    found = _resource_facts(tree)
    for k, document in enumerate(resources):
        first, after = firsts[k], firsts[k + 1] if k + 1 < len(firsts) else line + 1
        assert document.question_id is not None
        facts[document.question_id] = ResourceFacts(
            tuple((at - first + 1, value) for at, value in found.ids if first <= at < after),
            tuple((at - first + 1, value) for at, value in found.refs if first <= at < after))
    return True


#: Documents that the rules across a package's files read; the pipeline keeps them uncompressed
#: until every part of the package is in (see :func:`validate_package`).
PACKAGE_RULES_READ = {"qti12", "canvas-meta", "content-package"}


def validate_package(output_name: str, members: list[Document], names: set[str], facts: Facts,
                     sink: DiagnosticSink) -> None:
    """The rules across the files of one package, once all its parts are in: ``members`` are its
    documents in ``PACKAGE_RULES_READ`` (a frame, whose questions are spliced in later), ``names``
    the paths of all its members, ``facts`` what :func:`validate_documents` read of its question
    documents. Only the Canvas package has such rules."""
    if any(d.schema.startswith("mbz-") for d in members):
        _backup_package(output_name, members, names, {q: f for q, f in facts.items() if isinstance(f, tuple)}, sink)
        return
    frame = next((d for d in members if d.schema == "manifest" and d.question_order), None)
    if frame is not None:
        _manifest_package(output_name, frame, members, {q: f for q, f in facts.items() if isinstance(f, ResourceFacts)}, sink)
        return
    by_schema = {d.schema: d for d in members}
    assessment = by_schema.get("qti12")
    if assessment is None:
        return
    try:
        meta, manifest = (_parse(by_schema[k].data) if k in by_schema else None for k in ("canvas-meta", "content-package"))
        items = {q: f for q, f in facts.items() if isinstance(f, canvas_rules.ItemFacts)}
        problems = list(canvas_rules.package_rules(assessment.content, assessment.question_order, items, assessment.path,
                                                   meta, manifest, names))
    except etree.XMLSyntaxError:
        return  # reported by validate_documents already
    _report(output_name, assessment, problems, {}, sink)


def _backup_package(output_name: str, members: list[Document], names: set[str],
                    records: dict[str, backup_rules.RecordFacts], sink: DiagnosticSink) -> None:
    """The rules across the parts of a Moodle quiz backup (backup_rules.package_rules): its parts,
    questions.xml without the questions' records (a frame: 44 MB, parsed again, in a bank of
    10,000 questions), and what validation read of the records (``records``)."""
    parts, by_path = {}, {d.path: d for d in members}
    for document in members:
        if document.schema.startswith("mbz-") and document.schema != "mbz-question":
            try:
                parts[document.path] = _parse(document.content)
            except etree.XMLSyntaxError:
                return  # reported by validate_documents already
    blobs = {d.path: d.content for d in members if not d.schema}
    frame = by_path.get("questions.xml")
    bank = backup_rules.bank_entries(parts["questions.xml"], frame.question_order, records) \
        if frame is not None and "questions.xml" in parts else {}
    for path, problem in backup_rules.package_rules(parts, names, blobs, bank):
        _report(output_name, by_path[path] if path in by_path else members[0], [problem], {}, sink)


def _manifest_package(output_name: str, frame: Document, members: list[Document], resources: dict[str, ResourceFacts],
                      sink: DiagnosticSink) -> None:
    """What XML Schema checks across the whole of a QTI 2.1 manifest put together from its frame
    and each question's resources, and the manifest's own rule (:func:`_manifest_rules`), without
    parsing the whole (7 MB in a 10,000-question bank, all of it parsed and validated again in a
    rebuild after one edit, bench/README.md).

    Why the parts' validation is the whole's: XML Schema judges an element by its declaration,
    which its parent's content model gives, and by its own attributes and content, all but the
    identity constraints, which span the document. The frame is validated with each question's
    line (a comment, which validation skips) in place of its resources, and each question's
    resources inside a manifest of their own (``WRAPPERS``) whose ``resources`` element is the
    frame's, in the same namespaces; the frame's rules (:func:`_manifest_frame_rules`) hold that
    every line stands where a ``resource`` may (a child of ``resources``, whose content model is
    any number of ``resource``: so any number more are valid there) in exactly those namespaces.
    What is left are the identity constraints of the manifest's schema: its identifiers
    (``xs:ID``, the manifest's and each resource's: libxml2 checks they are unique within each
    part it parses, and this across the parts) and the dependencies that must name one of them
    (``xs:IDREF``, which libxml2 does not check: :func:`_manifest_rules`' rule, here across the
    parts). Each part's facts were read when it was validated (``ResourceFacts``), so the
    questions' parts are not parsed again; ``tests/test_manifest_spliced.py`` holds the two ways
    to the same verdict."""
    try:
        tree = _parse(frame.content, _FRAME_PARSER)
    except etree.XMLSyntaxError:
        return  # reported by validate_documents already
    ns = {"cp": _CP}
    pieces = {d.question_id: d for d in members if d.schema == "manifest-resource" and d.question_id is not None}
    declared: list[tuple[Document, int, str]] = [(frame, e.sourceline or 1, e.get("identifier", ""))
                                                 for e in tree.xpath("/cp:manifest | //cp:resource", namespaces=ns)]
    refs: list[tuple[Document, int, str]] = [(frame, e.sourceline or 1, e.get("identifierref", ""))
                                             for e in tree.xpath("//cp:dependency", namespaces=ns)]
    # Each question's part with its facts; one not rendered or not well-formed has none, and is
    # reported where it was.
    found = [(piece, fact) for piece, fact in ((pieces.get(q), resources.get(q)) for q in frame.question_order)
             if piece is not None and fact is not None]
    complete = len(found) == len(frame.question_order)
    # The usual answer first, from the values alone: no tuple made for each of 10,000 questions'
    # identifiers, nor a walk of every identifier for its place.
    ids = [value for _, _, value in declared] + [value for _, fact in found for _, value in fact.ids]
    names = set(ids)
    if len(names) == len(ids) and (not complete or (names.issuperset(value for _, _, value in refs)
                                                    and names.issuperset(value for _, fact in found for _, value in fact.refs))):
        return
    for piece, fact in found:
        declared += [(piece, line, value) for line, value in fact.ids]
        refs += [(piece, line, value) for line, value in fact.refs]
    counts = Counter(value for _, _, value in declared)
    seen: set[str] = set()
    for document, line, value in declared:
        if counts[value] > 1 and value in seen:
            _report(output_name, document, [(line, 1, f"schema: the identifier '{value}' is given to more than one element "
                                             "(xs:ID)")], {}, sink)
        seen.add(value)
    for document, line, value in refs if complete else ():  # what a missing part declares is not known
        if value not in counts:
            _report(output_name, document, [(line, 1, f"dependency on unknown resource '{value}'")], {}, sink)


def _report(output_name: str, document: Document, problems: Iterable[tuple[int, int, str]], spans: dict[str, SourceSpan],
            sink: DiagnosticSink) -> None:
    for line, column, message in problems:
        question = document.question_id
        sink.error(
            "QB401",
            f"{message}" + (f" (question '{question}')" if question else ""),
            spans.get(question) if question else None,
            hint="this is a bug in qti-builder or in a --templates override; please report it with the source",
            generated=SourceSpan(_generated_name(output_name, document), line, column),
        )


def _generated_name(output_name: str, document: Document) -> str:
    """Where a problem lies: a package member, the output file, or a question of a Moodle file
    (its lines counted from the question's first, as it is validated on its own)."""
    if document.path == output_name:
        return output_name
    return f"{output_name}{document.path}" if document.path.startswith("#") else f"{output_name}/{document.path}"


#: A document that is one part of a file is validated as the only part of a file of its own, on
#: the same lines: a Moodle question as the only one of a quiz, a Canvas item as the only one of
#: a QTI 1.2 document (written without a namespace, an item takes its frame's).
WRAPPERS = {"moodle-question": (b"<quiz>", b"</quiz>"), "qti12-item": (b"<questestinterop>", b"</questestinterop>"),
            "mbz-question": (b"<question_bank_entries>", b"</question_bank_entries>")}
_CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
#: The namespaces a QTI 2.1 manifest's frame declares (templates/qti21/imsmanifest.xml.j2), in
#: which each question's resources are read: inside a manifest of their own, on their own first line.
MANIFEST_NAMESPACES = {None: _CP, "xsi": "http://www.w3.org/2001/XMLSchema-instance", "imsmd": "http://ltsc.ieee.org/xsd/LOM",
                       "imsqti": "http://www.imsglobal.org/xsd/imsqti_metadata_v2p1"}
WRAPPERS["manifest-resource"] = (
    b"<manifest " + b" ".join(b'xmlns%s="%s"' % (b":" + k.encode() if k else b"", v.encode()) for k, v in MANIFEST_NAMESPACES.items())
    + b' identifier="qti-builder.resources"><metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion>'
    b"</metadata><organizations/><resources>", b"</resources></manifest>")


#: Which of :class:`SchemaSet`'s schemas validates each kind of document (``Document.schema``).
SCHEMA_OF = {"qti": "qti", "manifest": "manifest", "manifest-resource": "manifest", "moodle": "moodle", "moodle-question": "moodle", "qti12": "qti12",
             "qti12-item": "qti12", "content-package": "content_package", "canvas-meta": "canvas_meta",
             **{part: "moodle_backup" for part in ("mbz-backup", "mbz-quiz", "mbz-module", "mbz-inforef", "mbz-questions",
                                                   "mbz-question", "mbz-files", "mbz-other")}}


def _problems(document: Document, schemas: SchemaSet,
              facts: Facts | None = None) -> Iterator[tuple[int, int, str]]:
    start, end = WRAPPERS.get(document.schema, (b"", b""))
    frame = document.question_id is None and document.schema in _FRAMES
    try:
        tree = _parse(start + document.data + end, _FRAME_PARSER if frame else _PARSER)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        yield line, column, f"not well-formed XML: {exc.msg}"
        return
    # The parsers leave an entity of a template's DOCTYPE unexpanded (hostile input), which
    # libxml2's schema validation fails on with an internal error: each is refused where it is used.
    # Only a DOCTYPE's internal subset can declare one (no external DTD is loaded): most documents
    # have none, and are not walked for them.
    entities = list(tree.iter(etree.Entity)) if tree.docinfo.internalDTD is not None else []
    for entity in entities:
        yield entity.sourceline or 1, 1, f"entity {entity.text} is not expanded here, and may not be by the LMS: write its text"
    if entities:
        return
    if facts is not None and document.schema == "qti12-item" and document.question_id is not None:
        facts[document.question_id] = canvas_rules.item_facts(tree, document.data)
    if facts is not None and document.schema == "mbz-question" and document.question_id is not None:
        facts[document.question_id] = backup_rules.record_facts(tree)
    if facts is not None and document.schema == "manifest-resource" and document.question_id is not None:
        facts[document.question_id] = _resource_facts(tree)
    # Only that one: each is compiled when first used (QTI 2.1's whole, with MathML's, only for MathML).
    schema = schemas.qti_for(tree, document.data) if document.schema == "qti" else getattr(schemas, SCHEMA_OF[document.schema])
    checks = {"manifest": _manifest_rules, "content-package": _manifest_rules, "moodle": _moodle_rules,
              "moodle-question": _moodle_rules, "qti12": canvas_rules.frame_rules, "qti12-item": canvas_rules.item_rules}
    if document.schema == "manifest" and document.question_order:
        yield from _manifest_frame_rules(tree, document)  # its IDREFs across its parts: _manifest_package
    elif document.schema in checks:
        yield from checks[document.schema](tree)
    if document.schema.startswith("mbz-"):
        yield from backup_rules.rules_of_part(document.schema, tree, document.data, BACKUP_GRADES)
    if document.schema in ("qti12", "qti12-item"):
        # The DTD predates namespaces and Canvas's extensions: it judges the rest (canvas_rules).
        canvas_rules.dtd_view(tree)
        if tree.find(".//itemproc_extension") is not None:
            yield from _extensions(tree, schemas)  # a calculated question's (schemas.QTI12_EXTENDED_DTD)
            schema = schemas.qti12_extended
    if not schema.validate(tree):
        kind = "DTD" if isinstance(schema, etree.DTD) else "schema"
        for err in schema.error_log:
            yield err.line, err.column + 1, f"{kind}: {err.message}"
    if document.schema in ("qti12", "qti12-item") and tree.getroot().tag != "questestinterop":
        yield 1, 1, "the root element must be questestinterop"


def _extensions(tree: etree._ElementTree, schemas: SchemaSet) -> Iterator[tuple[int, int, str]]:
    """Check each ``<itemproc_extension>``'s content against the schema of Canvas's calculated
    extension, then take it out of ``tree``: the DTD declares the extension ANY, which a DTD
    reads as any element the DTD itself declares."""
    for extension in tree.iter("itemproc_extension"):
        for child in list(extension):
            if not schemas.canvas_calculated.validate(etree.ElementTree(child)):
                for err in schemas.canvas_calculated.error_log:
                    yield err.line or child.sourceline or 1, err.column + 1, f"schema: {err.message}"
            extension.remove(child)


def _parse(data: bytes, parser: etree.XMLParser = _PARSER) -> etree._ElementTree:
    return etree.fromstring(data, parser).getroottree()


def _manifest_rules(tree: etree._ElementTree) -> Iterator[tuple[int, int, str]]:
    """libxml2 does not check that IDREFs resolve; an unresolved dependency breaks imports."""
    ns = {"cp": "http://www.imsglobal.org/xsd/imscp_v1p1"}
    ids = set(tree.xpath("//cp:resource/@identifier", namespaces=ns))
    for dep in tree.xpath("//cp:dependency", namespaces=ns):
        if dep.get("identifierref") not in ids:
            yield dep.sourceline or 1, 1, f"dependency on unknown resource '{dep.get('identifierref')}'"


def _manifest_frame_rules(tree: etree._ElementTree, frame: Document) -> Iterator[tuple[int, int, str]]:
    """A QTI 2.1 manifest's frame: each question's line, after which its resources are put in,
    stands where a ``resource`` may, a child of ``resources``, in the namespaces its resources
    were validated in (``WRAPPERS``), and is a comment (not text inside another node)."""
    lines = [c for c in tree.iter(etree.Comment) if QUESTION_MARKER.fullmatch((f"<!--{c.text}-->\n").encode())]
    if len(lines) != len(QUESTION_MARKER.findall(frame.data)):
        yield 1, 1, "a line '<!-- question: N -->' of the manifest is not a comment of its own"
    for comment in lines:
        parent = comment.getparent()
        # Each binding the resources were read in, the same here (another binding of the frame's
        # own is no resource's: one that used it would not have been well-formed alone).
        if parent is None or parent.tag != f"{{{_CP}}}resources" or \
                any(parent.nsmap.get(prefix) != uri for prefix, uri in MANIFEST_NAMESPACES.items()):
            yield (comment.sourceline or 1, 1, "the line '<!-- question: N -->' must be a child of <resources>, in the "
                   "namespaces of the built-in qti21/imsmanifest.xml.j2")
            return  # the first: the others are the same mistake of the template


def _resource_facts(tree: etree._ElementTree) -> ResourceFacts:
    """The identifiers one question's manifest resources declare and refer to (validated inside
    the wrapper of ``WRAPPERS``: its own manifest's identifier is not theirs)."""
    ns = {"cp": _CP}
    return ResourceFacts(tuple((e.sourceline or 1, e.get("identifier", "")) for e in tree.xpath("/cp:manifest/cp:resources/cp:resource", namespaces=ns)),
                         tuple((e.sourceline or 1, e.get("identifierref", "")) for e in tree.xpath("//cp:dependency", namespaces=ns)))


def _moodle_rules(tree: etree._ElementTree) -> Iterator[tuple[int, int, str]]:
    """What Moodle 4.5's importer refuses, and what it accepts silently although broken (the
    importers of question/format/xml/format.php and the qtypes' save_question_options(), which
    report a "notice" and leave the question half saved)."""
    for question in tree.getroot().iter("question"):
        yield from _question_rules(question)


#: Children that Moodle's importer reads once, taking the first and dropping the rest in silence:
#: at most one of each in a question, in each of its answers and in each hint (checked here rather
#: than as the schema's xs:unique constraints, which made libxml2 validate six times slower).
SINGLE_VALUED = {
    "question": frozenset({
        "name", "questiontext", "generalfeedback", "defaultgrade", "penalty", "hidden", "idnumber", "category", "info",
        "single", "shuffleanswers", "answernumbering", "showstandardinstruction", "correctfeedback",
        "partiallycorrectfeedback", "incorrectfeedback", "shownumcorrect", "usecase", "unitgradingtype", "unitpenalty",
        "showunits", "unitsleft", "instructions", "responseformat", "responserequired", "responsefieldlines",
        "minwordlimit", "maxwordlimit", "attachments", "attachmentsrequired", "maxbytes", "filetypeslist",
        "graderinfo", "responsetemplate", "layouttype", "selecttype", "selectcount", "gradingtype", "showgrading",
        "numberingstyle"}),
    "answer": frozenset({"feedback", "tolerance", "tolerancetype", "correctanswerformat", "correctanswerlength"}),
    "hint": frozenset({"options"}),
}


def _single_valued(element: etree._Element) -> Iterator[tuple[int, int, str]]:
    """Each child of ``SINGLE_VALUED`` that ``element`` repeats, at its second occurrence."""
    single, seen, reported = SINGLE_VALUED[element.tag], set(), set()
    for child in element:
        tag = child.tag
        if tag in single:
            if tag in seen and tag not in reported:
                reported.add(tag)
                yield (child.sourceline or element.sourceline or 1, 1,
                       f"<{element.tag}> has more than one <{tag}>: Moodle reads the first and drops the others")
            seen.add(tag)


def _question_rules(question: etree._Element) -> Iterator[tuple[int, int, str]]:
    """The rules for one ``<question>`` element."""
    kind = question.get("type")
    line = question.sourceline or 1
    yield from _single_valued(question)
    for part in question.iterchildren("answer", "hint"):
        yield from _single_valued(part)
    if kind == "category":
        return
    if not (question.findtext("name/text") or "").strip():
        yield line, 1, "Moodle needs a non-empty question name"
    answers = question.findall("answer")
    fractions = []
    for answer in answers:
        try:
            value = float(answer.get("fraction", ""))
        except ValueError:
            continue  # the XSD reports it
        fractions.append(value)
        # qtype_ordering's importer ignores the fraction (the position, in its export).
        if kind != "ordering" and abs(value) not in _MOODLE_GRADE_SET \
                and not any(abs(abs(value) - g) <= 0.001 for g in MOODLE_GRADES):
            yield answer.sourceline or line, 1, f"fraction {value} is not one of Moodle's grade options"
    yield from _shownumcorrect_rule(question, kind, line)
    checks = {"multichoice": _multichoice_rules, "truefalse": _truefalse_rules, "shortanswer": _shortanswer_rules,
              "numerical": _numerical_rules, "matching": _matching_rules,
              "essay": _essay_rules, "ordering": _ordering_rules, "cloze": _cloze_rules,
              "multianswer": _cloze_rules, "calculated": _calculated_rules, "calculatedsimple": _calculated_rules,
              "calculatedmulti": _calculated_rules}
    if kind in checks:
        for message in checks[kind](question, fractions):
            yield line, 1, message


def _shownumcorrect_rule(question: etree._Element, kind: str | None, line: int) -> Iterator[tuple[int, int, str]]:
    """Most types read <shownumcorrect> by presence (so <shownumcorrect>0</...> means ON);
    qtype_ordering reads its value (so an empty element means OFF). The XSD allows both forms."""
    for flag in question.findall("shownumcorrect"):
        value = (flag.text or "").strip()
        if kind == "ordering" and value not in ("0", "1"):
            yield flag.sourceline or line, 1, "an ordering question reads <shownumcorrect> by value: write 1 or 0"
        elif kind != "ordering" and value:
            yield flag.sourceline or line, 1, "<shownumcorrect> is on when present whatever it holds: write it empty, or leave it out"


def _multichoice_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    if len(fractions) < 2:
        yield "Moodle requires at least 2 choices in a multichoice question"
    elif (question.findtext("single") or "true").strip() in ("true", "1"):
        if abs(max(fractions) - 100) > 0.001:
            yield "a single-answer multichoice needs an answer worth 100%"
    elif abs(sum(f for f in fractions if f > 0) - 100) > 0.01:
        yield "the positive fractions of a multiple-answer question must add up to 100%"


def _truefalse_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    answers = question.findall("answer")
    texts = sorted((a.findtext("text") or "").strip() for a in answers)
    if texts != ["false", "true"]:
        yield "true/false answers must be the texts 'true' and 'false'"
    # The importer takes "true is right" from fraction == 100 on the true answer and the
    # opposite from fraction != 100 on the false one: exactly one must be worth 100.
    elif sorted(fractions) != [0, 100]:
        yield "of a true/false question's answers exactly one must be worth 100% and the other 0%"


def _full_answer(fractions: list[float]) -> bool:
    return any(abs(f - 100) <= 0.001 for f in fractions)


def _shortanswer_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    if not _full_answer(fractions):
        yield "a short-answer question needs an answer worth 100%"
    if any(not (a.findtext("text") or "").strip() for a in question.findall("answer")):
        yield "a short-answer question's answers must not be empty (Moodle skips them)"


_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")


def _numerical_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    if not _full_answer(fractions):
        yield "a numerical question needs an answer worth 100%"
    for answer in question.findall("answer"):
        text = (answer.findtext("text") or "").strip()
        if text != "*" and not _NUMBER.match(text):
            yield f"numerical answer '{text}' is neither a number nor *"
        tolerance = (answer.findtext("tolerance") or "").strip()
        if tolerance and (not _NUMBER.match(tolerance) or float(tolerance) < 0):
            yield f"numerical tolerance '{tolerance}' is not a number >= 0"
    multipliers = question.findall("units/unit/multiplier")
    if multipliers and float((multipliers[0].text or "1").strip() or 1) != 1:
        yield "the first unit of a numerical question is its default unit: its multiplier must be 1"


def _matching_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    stems = 0
    for sub in question.findall("subquestion"):
        text = (sub.findtext("text") or "").strip()
        answer = (sub.findtext("answer/text") or "").strip()
        if text:
            stems += 1
            if not answer:
                yield "a matching subquestion with text needs an answer"
    if stems < 2:
        yield "a matching question needs at least 2 subquestions with text"


def _essay_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    def number(tag: str) -> int:
        text = (question.findtext(tag) or "").strip()
        return int(text) if text.lstrip("-").isdigit() else 0

    attachments, required = number("attachments"), number("attachmentsrequired")
    if (question.findtext("responseformat") or "editor").strip() == "noinline" and (attachments == 0 or required == 0):
        yield "an essay without an inline answer must allow and require attachments, or there is nothing to answer"
    if attachments > 0 and required > attachments:
        yield "an essay cannot require more attachments than it allows"
    low, high = number("minwordlimit"), number("maxwordlimit")
    if low and high and high < low:
        yield "an essay's maximum word limit is below its minimum"


#: The texts of a calculated question whose ``{=...}`` Moodle checks before it stores the question.
_CALCULATED_TEXTS = ("questiontext/text", "generalfeedback/text", "correctfeedback/text", "partiallycorrectfeedback/text",
                     "incorrectfeedback/text", "answer/feedback/text")


def _calculated_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    """qtype_calculated's ``validate_question_data``: a formula it refuses throws, and the
    exception ends the import of the whole file."""
    for path in _CALCULATED_TEXTS:
        for text in question.findall(path):
            for shown, why in moodle_text_formula_errors(text.text or ""):
                yield f"Moodle refuses the formula {shown} of <{path.split('/')[-2]}>: {why}"
    for answer in question.findall("answer/text"):
        formula = answer.text or ""
        if question.get("type") == "calculatedmulti":
            for shown, reason in moodle_text_formula_errors(formula):
                yield f"Moodle refuses the formula {shown} of an answer: {reason}"
        elif formula.strip() != "*" and (refused := moodle_formula_error(formula)):
            yield f"Moodle refuses the answer formula '{formula}': {refused}"


def _ordering_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    items = [a for a in question.findall("answer") if (a.findtext("text") or "").strip()]
    if len(items) < 2:
        yield "an ordering question needs at least 2 items"


def _cloze_rules(question: etree._Element, fractions: list[float]) -> Iterator[str]:
    subquestions = cloze_subquestions(question.findtext("questiontext/text") or "")
    if not subquestions:
        yield "a cloze question needs at least one embedded answer such as {1:SHORTANSWER:=answer}"
    for number, (kind, alternatives) in enumerate(subquestions, 1):
        if kind.startswith("MULTI") and len(alternatives) < 2:
            yield f"embedded answer {number} ({kind}) needs at least 2 choices"
        positive = [f for f, _ in alternatives if f > 0]
        if kind.startswith("MULTIRESPONSE") and not positive or not kind.startswith("MULTIRESPONSE") and 1 not in positive:
            yield f"embedded answer {number} ({kind}) has no answer worth 100%"
