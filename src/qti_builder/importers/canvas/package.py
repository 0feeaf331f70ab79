"""The files of a Canvas-style package: which hold assessments (quizzes), which question banks, and
which the quiz settings (``assessment_meta.xml``). Each assessment is then read by
:class:`.assessment.AssessmentReader`.

The manifest is not needed to find them, and is not trusted to: Canvas's own importer converts
every QTI file in the zip, listed or not (facts file). A course export holds each quiz twice, as
the Common Cartridge subset (``<id>/assessment_qti.xml``, ``cc_profile`` metadata, groups cut down
to their picks) and in full (``non_cc_assessments/<id>.xml.qti``, ``question_type`` metadata); the
full copy is read, the other is the same quiz and is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from lxml import etree

from ...diagnostics import Diagnostic, DiagnosticSink, Severity, SourceSpan
from ..base import LOST, NO_QUESTIONS, ImportedQuiz, one_line
from ..safety import Package, normalise_member, parse_xml, utf8_xml
from .assessment import AssessmentReader, Source
from .context import where
from .flavours import flavour
from .xml import children, descendants, local, metadata

#: A question bank no quiz of the package draws from, imported as a quiz of its own (a warning).
UNUSED_BANK = "QB731"
#: Files that may hold QTI 1.2 (Canvas: ``.xml`` and ``.xml.qti``; other tools: ``.dat``, ``.qti``).
QTI_SUFFIXES = (".xml", ".qti", ".dat")
QTI12_ROOT = re.compile(rb"<(\w+:)?questestinterop[\s>]")
#: The root element's start tag, and a namespace declaration in it whose value holds more than one
#: URL (``xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance http://…/cccv1p0.xsd"``): real New
#: Quizzes exports have one, which libxml2 refuses ("is not a valid URI").
ROOT_TAG = re.compile(rb"<[A-Za-z_][^\s>/]*(\s[^>]*)?>")
SPLIT_NAMESPACE = re.compile(rb"""(\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*)(["'])\s*([^\s"']+)\s+[^\s"'][^"']*\2""")


class PackageReader:
    def __init__(self, path: Path, package: Package, sink: DiagnosticSink) -> None:
        self.path, self.package, self.sink = path, package, sink
        self.display = package.display

    def where(self, member: str) -> str:
        return where(self.display, member)

    def span(self, member: str, element: etree._Element | None = None) -> SourceSpan:
        return SourceSpan(self.where(member), (element.sourceline or 1) if element is not None else 1, 1)

    def read(self) -> list[ImportedQuiz]:
        errors_before = len(self.sink.errors)
        assessments: dict[str, Source] = {}
        banks: dict[str, Source] = {}
        order: list[str] = []
        pools = self._pool_resources()
        documents = self._documents()
        # QTI 1.2's reference to an item kept in another file (``<itemref linkrefid>``: one file
        # per question, as WebCT Vista's packages keep them): the items by ident, and those referred to.
        linked: dict[str, tuple[str, etree._Element]] = {}
        referenced: set[str] = set()
        for member, root in documents:
            for item in descendants(root, "item"):
                linked.setdefault(item.get("ident") or "", (member, item))
            referenced |= {ref.get("linkrefid") or "" for ref in descendants(root, "itemref")}
        for member, root in documents:
            found = [e for e in children(root) if local(e) in ("assessment", "objectbank")]
            if not found and any(local(e) in ("item", "section") for e in children(root)):
                bare = descendants(root, "item")
                if bare and all(item.get("ident") in referenced for item in bare):
                    continue  # an assessment's questions, read where it refers to them
                found = [root]  # a file of bare items: one quiz named after the file
            system = flavour(root) if found else "Canvas"
            for element in found:
                ident = element.get("ident") or PurePosixPath(member).name.split(".")[0]
                source = Source(member, element, "cc_profile" not in metadata(element), system)
                pool = member in pools or _is_pool(element)
                table = banks if local(element) == "objectbank" or pool else assessments
                if ident in table and not _better(source, table[ident]):
                    continue
                if ident not in table and table is assessments:
                    order.append(ident)
                table[ident] = source
                if pool:
                    # A Blackboard test draws from a pool by the pool's manifest resource
                    # (``<sourcebank_ref>res00005</sourcebank_ref>``), not by an ident of the
                    # pool's own (it has none): the resource, and the file's name without its
                    # suffix (the resource's name in every Blackboard export), name it too.
                    for alias in (pools.get(member), PurePosixPath(member).name.split(".")[0]):
                        if alias and alias not in banks:
                            banks[alias] = source
        metas = self._metas()
        quizzes: list[ImportedQuiz] = []
        used_banks: set[str] = set()
        #: Each assessment that gave no quiz, with the error that said so.
        empty: list[tuple[Source, Diagnostic]] = []
        for ident in order:
            source = assessments[ident]
            before = len(self.sink.items)
            reader = AssessmentReader(self.display, self.sink, self.package.files, source, metas.get(ident), banks, linked)
            imported = reader.read()
            used_banks |= reader.used_banks
            if imported is not None:
                quizzes.append(imported)
            else:
                empty += [(source, d) for d in self.sink.items[before:] if d.code == NO_QUESTIONS]
        seen: set[int] = set()
        for ident, bank in banks.items():
            if id(bank) in seen:
                continue  # one pool under its aliases
            seen.add(id(bank))
            if any(alias in used_banks for alias, other in banks.items() if other is bank):
                continue
            # A bank no quiz draws from (banks alone, or a course's banks beside its quizzes) is
            # the author's questions all the same: a quiz of its own, never left out.
            imported = AssessmentReader(self.display, self.sink, self.package.files, bank, None, banks, linked).read(
                frozenset(q.quiz.id for q in quizzes))
            if imported is not None:
                quizzes.append(imported)
                if assessments:
                    self.sink.warning(UNUSED_BANK, f"question bank '{metadata(bank.element).get('bank_title') or ident}' is used by no "
                                                   f"quiz in the package; imported as a quiz of its own, '{imported.quiz.id}'",
                                      self.span(bank.member, bank.element),
                                      hint="leave its source out of the build if the course does not need it, or draw from it "
                                           "in a quiz's section (select)")
        if quizzes:
            self._empty_quizzes_named(empty)
        if not quizzes and len(self.sink.errors) == errors_before:
            self.sink.error(NO_QUESTIONS, "nothing to import: no QTI 1.2 assessment or question bank was found", SourceSpan(self.display),
                            hint="a Canvas quiz export holds <id>/<id>.xml with a <questestinterop>; check --format")
        return quizzes

    def _empty_quizzes_named(self, empty: list[tuple[Source, Diagnostic]]) -> None:
        """A package of several quizzes of which one has no question that can be read (a Respondus
        test of one question without a right answer): that quiz is named and left out, the others
        are imported; it does not refuse the whole package."""
        for source, diagnostic in empty:
            title = one_line(source.element.get("title")) or source.element.get("ident") or PurePosixPath(source.member).name
            self.sink.items[self.sink.items.index(diagnostic)] = Diagnostic(
                Severity.WARNING, LOST, f"assessment '{title}' has no question that could be read (each is named in a warning); "
                                        "it is left out, and the package's other quizzes are imported",
                self.span(source.member, source.element), "fix its questions in the system it comes from and import it again")

    def _pool_resources(self) -> dict[str, str]:
        """The files a manifest names as question pools (Blackboard's ``assessment/x-bb-qti-pool``,
        its file in ``bb:file`` or ``href``), by member, with the resource's identifier."""
        pools: dict[str, str] = {}
        for member, data in sorted(self.package.files.items()):
            data = utf8_xml(data)
            if member.lower().rsplit("/", 1)[-1] != "imsmanifest.xml" or b"qti-pool" not in data:
                continue
            tree = parse_xml(data, self.where(member), self.sink)
            if tree is None:
                continue
            folder = PurePosixPath(member).parent
            for resource in tree.getroot().iter("{*}resource"):
                if "qti-pool" not in (resource.get("type") or "").lower():
                    continue
                file = next((v for k, v in resource.attrib.items() if local_name(k) in ("file", "href") and v), None)
                target = normalise_member(str(folder / file)) if file else None
                if target and target in self.package.files:
                    pools.setdefault(target, resource.get("identifier") or PurePosixPath(target).name.split(".")[0])
        return pools

    def _documents(self) -> list[tuple[str, etree._Element]]:
        documents = []
        for member, data in sorted(self.package.files.items()):
            name = member.lower().rsplit("/", 1)[-1]
            if not name.endswith(QTI_SUFFIXES) or name in ("imsmanifest.xml", "assessment_meta.xml"):
                continue
            data = utf8_xml(data)
            if not QTI12_ROOT.search(data[:8192]):
                continue
            tree = parse_xml(lenient_namespaces(data), self.where(member), self.sink)
            if tree is not None and local(tree.getroot()) == "questestinterop":
                documents.append((member, tree.getroot()))
        return documents

    def _metas(self) -> dict[str, tuple[str, etree._Element]]:
        """Settings files by the assessment they belong to: ``<quiz identifier>``, or their folder
        (Canvas requires the two to agree; a file that says otherwise is still found by its folder)."""
        metas: dict[str, tuple[str, etree._Element]] = {}
        for member, data in sorted(self.package.files.items()):
            if member.lower().rsplit("/", 1)[-1] != "assessment_meta.xml":
                continue
            tree = parse_xml(lenient_namespaces(data), self.where(member), self.sink)
            if tree is None or local(tree.getroot()) != "quiz":
                continue
            root = tree.getroot()
            folder = PurePosixPath(member).parent.name
            for key in (root.get("identifier"), folder):
                if key:
                    metas.setdefault(key, (member, root))
        return metas


def lenient_namespaces(data: bytes) -> bytes:
    """``data`` with a namespace declaration of its root element that holds several URLs cut to
    its first, the namespace it means (a reader such as Canvas's takes such a file)."""
    root = ROOT_TAG.search(data)
    if root is None or not SPLIT_NAMESPACE.search(root.group(0)):
        return data
    repaired = SPLIT_NAMESPACE.sub(rb"\1\2\3\2", root.group(0))
    return data[:root.start()] + repaired + data[root.end():]


def local_name(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _is_pool(element: etree._Element) -> bool:
    """A Blackboard pool exported as an ``<assessment>`` (``bbmd_assessmenttype`` Pool): a bank."""
    kind = next((e.text for e in element.iter("{*}bbmd_assessmenttype", "bbmd_assessmenttype")), None)
    return (kind or "").strip().lower() == "pool"


def _better(candidate: Source, current: Source) -> bool:
    """The full Canvas copy over the Common Cartridge subset."""
    return candidate.full and not current.full

