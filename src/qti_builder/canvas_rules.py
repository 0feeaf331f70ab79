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

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

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
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.startswith(prefix):
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
    """An item's metadata fields, in the QTI 1.2 namespace or none."""
    return {(f.findtext("{*}fieldlabel") or "").strip(): (f.findtext("{*}fieldentry") or "").strip()
            for f in item.iterfind("{*}itemmetadata/{*}qtimetadata/{*}qtimetadatafield")}


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


def package_rules(assessment: Iterable[bytes], path: str, meta: etree._ElementTree | None,
                  manifest: etree._ElementTree | None, members: set[str]) -> Iterator[Problem]:
    """The rules across the files of one package: the assessment (at ``path``, with its items in
    place: its bytes, piece by piece), its settings file, the manifest and the names of every
    member. The assessment of a big bank is hundreds of megabytes: it is read as a stream, an item
    at a time, and never joined."""
    ident, total, shown, groups = _read_assessment(assessment)
    yield from groups
    folder = path.split("/")[0]
    if not IDENT.match(ident):
        yield 1, 1, f"assessment ident '{ident}' must start with a letter or '_' (Canvas renames it and loses the settings)"
    if path != f"{folder}/{ident}.xml" or folder != ident:
        yield 1, 1, f"the assessment must be {ident}/{ident}.xml: the settings file's folder must be the assessment's ident"
    if meta is not None:
        if meta.getroot().get("identifier") != ident:
            yield 1, 1, f"the settings file's identifier '{meta.getroot().get('identifier')}' is not the assessment's ident '{ident}'"
        stated = meta.getroot().findtext("{*}points_possible")
        if stated is None or abs(float(stated) - total) > 1e-6:
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


#: Bytes fed to the assessment's parser at once.
_FEED = 1 << 20
#: The elements the rules across files read, in the QTI 1.2 namespace or none.
_READ_TAGS = tuple("{*}" + tag for tag in ("assessment", "section", "selection_number", "points_per_item", "mattext", "item"))


@dataclass
class _Section:
    """An open section while the assessment is read: what each child counts for (an item's
    points, a nested section's draw), its own items' points, its draw and points per item."""

    counts: list[float] = field(default_factory=list)
    items: list[float] = field(default_factory=list)
    pick: int | None = None
    per_item: str | None = None


def _read_assessment(pieces: Iterable[bytes]) -> tuple[str, float, set[str], list[Problem]]:
    """The assessment's ident, what Canvas makes of its points (every item's; a group's draw at
    its items' points), the media its text shows, and the groups whose points per item are not
    their items' points."""
    ident, total, shown, problems = "", 0.0, set(), []
    sections: list[_Section] = []
    # Only the elements read here come up to Python (a big bank's assessment has millions).
    parser = etree.XMLPullParser(events=("start", "end"), tag=_READ_TAGS, resolve_entities=False, no_network=True)
    for event, element in _events(parser, pieces):
        tag = element.tag.rpartition("}")[2]
        if event == "start":
            if tag == "assessment":
                ident = element.get("ident", "")
            elif tag == "section":
                sections.append(_Section())
            continue
        if tag == "selection_number" and sections:
            text = (element.text or "").strip()
            sections[-1].pick = int(text) if text.isdigit() else None
        elif tag == "points_per_item" and sections:
            sections[-1].per_item = (element.text or "").strip()
        elif tag == "mattext" and element.text and "media/" in element.text:
            shown.update(MEDIA_REF.findall(element.text))
        elif tag == "item":
            points = float(_metadata(element).get("points_possible") or 0)
            if sections:
                sections[-1].counts.append(points)
                sections[-1].items.append(points)
            element.clear()
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                del parent[0]  # the items read before: cleared, but the tree still held them
        elif tag == "section" and sections:
            section = sections.pop()
            if section.per_item is not None and not _same_points(section.per_item, section.items):
                problems.append((element.sourceline or 1, 1, (
                    f"section '{element.get('ident')}' gives points_per_item {section.per_item!r}, its questions are worth "
                    f"{', '.join(f'{p:g}' for p in section.items) or 'nothing'}: Canvas takes the group's points from "
                    "points_per_item")))
            drawn = sum(section.counts[:section.pick]) if section.pick is not None else sum(section.counts)
            if sections:
                sections[-1].counts.append(drawn)
            else:
                total += drawn
    return ident, total, shown, problems


def _events(parser: etree.XMLPullParser, pieces: Iterable[bytes]) -> Iterator[tuple[str, etree._Element]]:
    """``parser``'s events as each piece is fed to it, a big one in slices (libxml2 refuses more
    than 10 MB at once without its "huge" option)."""
    for piece in pieces:
        for start in range(0, len(piece), _FEED):
            parser.feed(piece[start:start + _FEED] if len(piece) > _FEED else piece)
            yield from parser.read_events()
    parser.close()
    yield from parser.read_events()


def _same_points(per_item: str, points: list[float]) -> bool:
    try:
        value = float(per_item)
    except ValueError:
        return False
    return value >= 0 and all(abs(value - p) <= 1e-9 for p in points)
