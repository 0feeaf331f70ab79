"""What Canvas's importers need of a Canvas package beyond its grammar (the QTI 1.2.1 DTD, IMS CP
1.1 and the settings schema): the pitfalls observed in docs/lms-behaviour.md, each of
which imports without an error and loses something, in Classic Quizzes or in New Quizzes (whose
parser is Instructure's ``qti`` gem). Checked on the generated documents, so an overriding
template that breaks one is caught like a bug in the writer.

The package is written as Canvas's exporter writes it: in the QTI 1.2 namespace, with two of
Canvas's extensions (:data:`EXTENSION_ATTRIBUTES`, :data:`EXTENSION_ELEMENTS`). The DTD predates
namespaces and knows neither extension, so :func:`dtd_view` sets them aside before the DTD judges
the rest; each extension is checked here instead.

Each rule yields ``(line, column, message)`` in the document it looks at.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from lxml import etree

#: Canvas's own question types (the ``question_type`` item metadata it reads).
QUESTION_TYPES = {
    "multiple_choice_question", "true_false_question", "multiple_answers_question", "short_answer_question",
    "numerical_question", "essay_question", "file_upload_question", "matching_question",
    "multiple_dropdowns_question", "fill_in_multiple_blanks_question", "text_only_question",
    "calculated_question",
}
#: Answer identifiers Canvas reads as question-level feedback instead.
FEEDBACK_WORDS = re.compile(r"correct|wrong|general_|_all", re.I)
#: Types whose answers keep their comments only with numeric identifiers.
BLANK_TYPES = {"multiple_dropdowns_question", "fill_in_multiple_blanks_question"}
#: What Canvas recognises as feedback of the whole question; every other is an answer's.
QUESTION_FEEDBACK = {"general_fb", "correct_fb", "general_incorrect_fb", "solution"}
IDENT = re.compile(r"^[A-Za-z_]")
#: Media references in the escaped HTML of the items (``src="media/…"``).
MEDIA_REF = re.compile(r"""(?:src|href|data)=["'](media/[^"'?#]+)""")

#: The namespace of ``<questestinterop>`` in Canvas's exports: New Quizzes' parser looks every
#: element up in it, and reads nothing of a document without it.
QTI12_NAMESPACE = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance"
#: Canvas's extensions the package writes, which the 1.2.1 DTD does not declare: a numerical
#: answer's margin on its value (New Quizzes reads it exactly; Classic ignores it and reads the
#: bounds), and a question group's points per question (both read it; the gem reads nothing else).
EXTENSION_ATTRIBUTES = {"varequal": ("margin", "margintype")}
EXTENSION_ELEMENTS = {"selection": "selection_extension"}
#: What the gem reads of an essay's or upload's notes for graders (Classic reads ``solution``).
GRADED_BY_HAND = {"essay_question", "file_upload_question"}

Problem = tuple[int, int, str]


def dtd_view(tree: etree._ElementTree) -> None:
    """Make ``tree`` (a copy) what the QTI 1.2.1 DTD can judge, in place: elements of the QTI 1.2
    namespace without it, the ``xsi:`` attributes and Canvas's extensions removed. Elements of any
    other namespace keep it, so the DTD still refuses them."""
    root = tree.getroot()
    prefix = "{%s}" % QTI12_NAMESPACE
    for element in root.iter(prefix + "*"):  # lxml picks the namespace's elements (none in an item alone)
        element.tag = element.tag[len(prefix):]
    for name in [n for n in root.attrib if n.startswith("{%s}" % XSI_NAMESPACE)]:
        del root.attrib[name]
    for tag, names in EXTENSION_ATTRIBUTES.items():
        for element in root.iter(tag):
            for name in names:
                element.attrib.pop(name, None)
    for parent, tag in EXTENSION_ELEMENTS.items():
        for element in root.iter(parent):
            for extension in element.findall(tag):
                element.remove(extension)
    etree.cleanup_namespaces(tree)


def frame_rules(tree: etree._ElementTree) -> Iterator[Problem]:
    """The assessment's own rules (its frame, before the items are put in): the namespace."""
    root = tree.getroot()
    if etree.QName(root).namespace != QTI12_NAMESPACE:
        yield root.sourceline or 1, 1, (f'questestinterop must be in the namespace "{QTI12_NAMESPACE}" '
                                        "(xmlns=...): New Quizzes reads nothing of a package without it")


def _metadata(item: etree._Element) -> dict[str, str]:
    """An item's metadata fields, in the QTI 1.2 namespace or none: each ``qtimetadatafield`` of a
    ``qtimetadata`` of an ``itemmetadata`` of the item, by the text of its first ``fieldlabel``
    (the later field of one label wins), its first ``fieldentry``'s text. Walked child by child
    (lxml's ``iterchildren``) rather than by an ElementPath: the same fields in the same order in
    about 60 % of the time, asked twice of every Canvas item validated (its rules, its points)."""
    fields: dict[str, str] = {}
    for meta in item.iterchildren("{*}itemmetadata"):
        for qti in meta.iterchildren("{*}qtimetadata"):
            for field_ in qti.iterchildren("{*}qtimetadatafield"):
                label = next(field_.iterchildren("{*}fieldlabel"), None)
                entry = next(field_.iterchildren("{*}fieldentry"), None)
                fields[((label.text if label is not None else None) or "").strip()] = \
                    ((entry.text if entry is not None else None) or "").strip()
    return fields


def item_rules(tree: etree._ElementTree) -> Iterator[Problem]:
    """The rules for each ``<item>``."""
    for item in tree.getroot().iter("item"):
        line = item.sourceline or 1
        if not IDENT.match(item.get("ident", "")):
            yield line, 1, f"item ident '{item.get('ident')}' must start with a letter or '_' (Canvas renames it)"
        meta = _metadata(item)
        kind = meta.get("question_type")
        if kind not in QUESTION_TYPES:
            yield line, 1, f"item has no Canvas question_type (got {kind!r}): Canvas would guess its type"
        try:
            if float(meta.get("points_possible", "")) < 0:
                raise ValueError
        except ValueError:
            yield line, 1, f"item has no points_possible >= 0 (got {meta.get('points_possible')!r})"
        for label in item.iter("response_label"):
            ident = label.get("ident", "")
            if FEEDBACK_WORDS.search(ident):
                yield label.sourceline or line, 1, f"answer ident '{ident}' reads as question feedback in Canvas"
            if kind in BLANK_TYPES and not ident.isdigit():
                yield label.sourceline or line, 1, f"answer ident '{ident}' of a blank must be a number, or Canvas drops its comments"
        yield from _condition_order(item)
        feedback_ids = {f.get("ident") for f in item.iter("itemfeedback")}
        for shown in item.iter("displayfeedback"):
            if shown.get("linkrefid") not in feedback_ids:
                yield shown.sourceline or line, 1, f"feedback '{shown.get('linkrefid')}' is shown but has no itemfeedback"
        if kind == "numerical_question":
            yield from _numerical_answers(item)
        yield from _margins(item)
        if kind in GRADED_BY_HAND and "solution" in feedback_ids and not meta.get("grading_notes"):
            yield line, 1, "the example solution has no grading_notes metadata: New Quizzes reads only that"


def _condition_order(item: etree._Element) -> Iterator[Problem]:
    """Feedback of an answer or of the whole question is shown by conditions that come before the
    scoring ones: each condition sets the score again, so a later one would undo it (Canvas then
    "couldn't determine the correct answers")."""
    scored = False
    for condition in item.iterfind("resprocessing/respcondition"):
        if any(v.get("action", "Set") == "Set" for v in condition.iterfind("setvar")):
            scored = True
            continue
        shown = [d.get("linkrefid") for d in condition.iterfind("displayfeedback")]
        if scored and any(s not in ("general_incorrect_fb",) for s in shown):
            yield condition.sourceline or 1, 1, "a feedback condition comes after the scoring condition"


def _numerical_answers(item: etree._Element) -> Iterator[Problem]:
    """New Quizzes reads a numerical answer only as Canvas's exporter writes it: a value with its
    bounds (an exact answer's bounds are the value), or the bounds alone (a range). A lone
    ``varequal`` makes it refuse the question ("Unsupported Numeric Type")."""
    for condition in item.iterfind("resprocessing/respcondition"):
        if condition.find("setvar") is None:
            continue
        tests = {element.tag for element in condition.iter("varequal", "vargte", "varlte", "vargt")}
        if not ({"vargte", "varlte"} <= tests or {"varequal", "vargt", "varlte"} <= tests):
            yield (condition.sourceline or 1, 1, "a numerical answer New Quizzes cannot read: give the value its bounds "
                   "(<or><varequal>v</varequal><and><vargte>low</vargte><varlte>high</varlte></and></or>; low = high = v "
                   "for an exact answer)")


def _margins(item: etree._Element) -> Iterator[Problem]:
    """A ``margin`` on a value agrees with the bounds beside it: Classic grades by the bounds, New
    Quizzes by the margin."""
    for value in item.iter("varequal"):
        if value.get("margin") is None and value.get("margintype") is None:
            continue
        line = value.sourceline or 1
        kind = value.get("margintype", "absolute")
        try:
            number, margin = Decimal((value.text or "").strip()), Decimal(value.get("margin", ""))
        except InvalidOperation:
            yield line, 1, f"margin '{value.get('margin')}' of answer '{value.text}' is not a number"
            continue
        bounds = value.getparent().find("and") if value.getparent() is not None else None
        low, high = (_decimal(bounds.findtext("vargte")), _decimal(bounds.findtext("varlte"))) if bounds is not None else (None, None)
        if kind not in ("absolute", "percent") or margin < 0:
            yield line, 1, f"margintype '{kind}' / margin '{margin}' must be absolute or percent, and not negative"
            continue
        delta = abs(number) * margin / 100 if kind == "percent" else margin
        if low is None or high is None or not (_close(low, number - delta) and _close(high, number + delta)):
            yield line, 1, (f"the margin {margin} ({kind}) of answer {number} disagrees with its bounds: Classic grades by "
                            "the <and> of vargte/varlte beside it, New Quizzes by the margin")


def _decimal(text: str | None) -> Decimal | None:
    try:
        return Decimal((text or "").strip())
    except InvalidOperation:
        return None


def _close(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= Decimal("1e-9") * max(Decimal(1), abs(b))


@dataclass(frozen=True)
class ItemFacts:
    """What the rules across a package's files need of one question's document, read where it is
    validated (in the worker that rendered it), so that the assessment, tens of megabytes for a
    big bank, is not parsed again with every question spliced in: the rules read its frame.
    ``counts``: what each of its top-level parts counts for, as (points, whether an item) (an
    item's points, a group's draw); the media its texts show; the groups whose points per item are
    wrong, at lines of the document; its number of lines."""

    counts: tuple[tuple[float, bool], ...]
    shown: frozenset[str]
    problems: tuple[Problem, ...]
    lines: int

    def __repr__(self) -> str:
        # The media in order: the same in every process (a frozenset's order follows its strings'
        # hashes, which each process seeds anew), as the build cache's key of the rules across a
        # package reads it (pipeline._read_of): a build by hand finds the verdict a watch kept.
        return (f"ItemFacts(counts={self.counts!r}, shown={sorted(self.shown)!r}, problems={self.problems!r}, "
                f"lines={self.lines!r})")


def item_facts(tree: etree._ElementTree, data: bytes) -> ItemFacts:
    """The facts of a question's document (``data``, parsed as ``tree``)."""
    root = tree.getroot()
    read = _Reading()
    if next(root.iter("{*}section"), None) is None:
        # Most documents: an item and no group, of which only the items and texts are read (lxml
        # finds them), not every element's start and end.
        read.walk(("end", element) for element in root.iter("{*}item", "{*}mattext"))
    else:
        read.walk(etree.iterwalk(root, events=("start", "end")))
    return ItemFacts(tuple(read.top), frozenset(read.shown), tuple(read.problems), data.count(b"\n"))


def _points(item: etree._Element) -> float:
    """What Canvas counts an item for: its ``points_possible``, Canvas's default of 1 for an item
    without the field (item_rules reports the item either way)."""
    try:
        return float(_metadata(item).get("points_possible", 1))
    except ValueError:
        return 0.0  # empty or not a number: counted for nothing here, item_rules reports it


def _shown(mattext: etree._Element) -> list[str]:
    return MEDIA_REF.findall(mattext.text) if mattext.text and "media/" in mattext.text else []


def package_rules(frame: bytes, order: tuple[str, ...], facts: dict[str, ItemFacts], path: str,
                  meta: etree._ElementTree | None, manifest: etree._ElementTree | None, members: set[str]) -> Iterator[Problem]:
    """The rules across the files of one package: the assessment (at ``path``: its frame, whose
    ``<!-- question: N -->`` markers stand for the items of ``order``, each known by its ``facts``),
    its settings file, the manifest and the names of every member. Lines are the assessment's
    with its items in place."""
    read = _Reading(order, facts)
    read.walk(etree.iterparse(io.BytesIO(frame), events=("start", "end", "comment"), resolve_entities=False, no_network=True))
    ident, shown = read.ident, read.shown
    total = sum(points for points, item in read.top if not item)  # an item outside every section counts for nothing
    yield from read.problems
    folder = path.split("/")[0]
    if not IDENT.match(ident):
        yield 1, 1, f"assessment ident '{ident}' must start with a letter or '_' (Canvas renames it and loses the settings)"
    if path != f"{folder}/{ident}.xml" or folder != ident:
        yield 1, 1, f"the assessment must be {ident}/{ident}.xml: the settings file's folder must be the assessment's ident"
    if meta is not None:
        if meta.getroot().get("identifier") != ident:
            yield 1, 1, f"the settings file's identifier '{meta.getroot().get('identifier')}' is not the assessment's ident '{ident}'"
        stated = meta.getroot().findtext("{*}points_possible")
        if _decimal(stated) is None or abs(float(stated) - total) > 1e-6:  # missing or not a number: never a crash
            yield 1, 1, f"the settings file says the quiz is worth {stated} points, its questions add up to {total:g}"
    if manifest is not None:
        listed = {f.get("href") for f in manifest.getroot().iter("{*}file")}
        for member in sorted(members - {"imsmanifest.xml"} - listed):
            yield 1, 1, f"{member} is in the package but not listed in the manifest (Canvas would not import it)"
        for href in sorted(listed - members):
            yield 1, 1, f"the manifest lists {href}, which is not in the package"
        if b"QTIv2" in etree.tostring(manifest):
            yield 1, 1, "the manifest mentions QTIv2: Canvas would read the package as QTI 2"
    for ref in sorted(shown - members):
        yield 1, 1, f"an item shows {ref}, which is not in the package"


#: The frame's marker of a question spliced in (writers.base.QUESTION_MARKER, as a comment's text).
_MARKER = re.compile(r"^ question: ([0-9]+) $")


@dataclass
class _Section:
    """An open section while the assessment is read: what each child counts for (an item's
    points, a nested section's draw), its own items' points, its draw and points per item."""

    #: Where it starts in the assessment as written.
    line: int = 1
    counts: list[float] = field(default_factory=list)
    items: list[float] = field(default_factory=list)
    pick: int | None = None
    per_item: str | None = None


class _Reading:
    """The assessment's ident, what Canvas makes of its parts' points (every item's; a group's draw
    at its items' points), the media its text shows, and the groups whose points per item are not
    their items' points: read from the events of a frame, with each question's document known by
    its facts at its marker (one that failed validation has none, and counts for nothing here),
    or of one question's document."""

    def __init__(self, order: tuple[str, ...] = (), facts: dict[str, ItemFacts] | None = None) -> None:
        self.order, self.facts = order, facts or {}
        self.ident = ""
        #: What each part outside every section counts for: (points, whether an item).
        self.top: list[tuple[float, bool]] = []
        self.shown: set[str] = set()
        self.problems: list[Problem] = []
        self.sections: list[_Section] = []
        #: Lines of the documents spliced in so far: the assessment's lines are the frame's and these.
        self.spliced = 0

    def count(self, points: float, item: bool) -> None:
        if self.sections:
            self.sections[-1].counts.append(points)
            if item:
                self.sections[-1].items.append(points)
        else:
            self.top.append((points, item))

    def walk(self, events: Iterable[tuple[str, Any]]) -> None:
        for event, element in events:
            if event == "comment":
                self._marker(element)
                continue
            if not isinstance(element.tag, str):
                continue
            tag = element.tag.rpartition("}")[2]
            if event == "start":
                if tag == "assessment":
                    self.ident = element.get("ident", "")
                elif tag == "section":
                    self.sections.append(_Section((element.sourceline or 1) + self.spliced))
                continue
            if tag == "selection_number" and self.sections:
                text = (element.text or "").strip()
                self.sections[-1].pick = int(text) if text.isdigit() else None
            elif tag == "points_per_item" and self.sections:
                self.sections[-1].per_item = (element.text or "").strip()
            elif tag == "mattext":
                self.shown.update(_shown(element))
            elif tag == "item":
                self.count(_points(element), True)
            elif tag == "section" and self.sections:
                self._close(element)

    def _marker(self, comment: Any) -> None:
        marker = _MARKER.match(comment.text or "")
        number = int(marker.group(1)) if marker else 0
        facts = self.facts.get(self.order[number - 1]) if 0 < number <= len(self.order) else None
        if facts is None:
            return
        for points, item in facts.counts:
            self.count(points, item)
        self.shown |= facts.shown
        # The document's lines follow the marker's.
        before = (comment.sourceline or 1) + self.spliced
        self.problems += [(before + line, column, message) for line, column, message in facts.problems]
        self.spliced += facts.lines

    def _close(self, element: etree._Element) -> None:
        section = self.sections.pop()
        if section.per_item is not None and not _same_points(section.per_item, section.items):
            self.problems.append((section.line, 1, (
                f"section '{element.get('ident')}' gives points_per_item {section.per_item!r}, its questions are worth "
                f"{', '.join(f'{p:g}' for p in section.items) or 'nothing'}: Canvas takes the group's points from "
                "points_per_item")))
        self.count(sum(section.counts[:section.pick]) if section.pick is not None else sum(section.counts), False)


def _same_points(per_item: str, points: list[float]) -> bool:
    try:
        value = float(per_item)
    except ValueError:
        return False
    return value >= 0 and all(abs(value - p) <= 1e-9 for p in points)
