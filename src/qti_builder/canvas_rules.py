"""What Canvas's importer needs of a Canvas package beyond its grammar (the QTI 1.2.1 DTD, IMS CP
1.1 and the settings schema): the pitfalls observed in docs/lms-behaviour.md, each of
which imports without an error and loses something. Checked on the generated documents, so an
overriding template that breaks one is caught like a bug in the writer.

Each rule yields ``(line, column, message)`` in the document it looks at.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

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

Problem = tuple[int, int, str]


def _metadata(item: etree._Element) -> dict[str, str]:
    return {(f.findtext("fieldlabel") or "").strip(): (f.findtext("fieldentry") or "").strip()
            for f in item.iterfind("itemmetadata/qtimetadata/qtimetadatafield")}


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


def package_rules(assessment: bytes, path: str, meta: etree._ElementTree | None,
                  manifest: etree._ElementTree | None, members: set[str]) -> Iterator[Problem]:
    """The rules across the files of one package: the assessment (at ``path``, with its items in
    place), its settings file, the manifest and the names of every member. The assessment of a
    big bank is tens of megabytes: it is read as a stream, an item at a time."""
    ident, total, shown = _read_assessment(assessment)
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


_READ_TAGS = ("assessment", "section", "selection_number", "mattext", "item")


def _read_assessment(data: bytes) -> tuple[str, float, set[str]]:
    """The assessment's ident, what Canvas makes of its points (every item's; a group's draw at
    its items' points) and the media its text shows."""
    ident, total, shown = "", 0.0, set()
    groups: list[list[float]] = []  # the points of each open section's items
    picks: list[int | None] = []
    # Only the elements read here come up to Python (a big bank's assessment has millions).
    for event, element in etree.iterparse(io.BytesIO(data), events=("start", "end"), resolve_entities=False,
                                          no_network=True, tag=_READ_TAGS):
        if event == "start":
            if element.tag == "assessment":
                ident = element.get("ident", "")
            elif element.tag == "section":
                groups.append([])
                picks.append(None)
            continue
        if element.tag == "selection_number" and picks:
            text = (element.text or "").strip()
            picks[-1] = int(text) if text.isdigit() else None
        elif element.tag == "mattext" and element.text and "media/" in element.text:
            shown.update(MEDIA_REF.findall(element.text))
        elif element.tag == "item":
            groups[-1].append(float(_metadata(element).get("points_possible") or 0) if groups else 0)
            element.clear()
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                del parent[0]  # the items read before: cleared, but the tree still held them
        elif element.tag == "section":
            points, picked = groups.pop(), picks.pop()
            drawn = sum(points[:picked]) if picked is not None else sum(points)
            if groups:
                groups[-1].append(drawn)
            else:
                total += drawn
    return ident, total, shown
