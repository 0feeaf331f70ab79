"""How the systems that write QTI 1.2 name their question types, read as Canvas reads them.

Canvas imports every QTI 1.2 package the same way (instructure's QTIMigrationTool turns it into QTI
2, then canvas-lms ``lib/qti/assessment_item_converter.rb`` decides each question's type): from
Canvas's own ``question_type``, else the exporting system's own type field, else what the
item's responses look like. Each system keeps its type in a field of its own, as an
``itemmetadata`` element or a ``qtimetadatafield`` (the migration tool's element and field
tables name them): Blackboard ``bbmd_questiontype``, WebCT/Blackboard Vista ``wct_questiontype``,
Respondus ``respondusapi_qtype`` (in a ``qti_metadatafield``), Brightspace/D2L
``qmd_questiontype``, and the IMS field ``qmd_itemtype``. :data:`VENDOR_TYPES` maps each field's
values (case folded) to the Canvas type whose reader (:mod:`.kinds`) reads the item; a value it
does not list is read from the item's responses.

:data:`UNSUPPORTED` are the types Canvas's converter itself skips (``UNSUPPORTED_TYPES``) and that
the model has no kind for either: the question is skipped, naming the type.
"""

from __future__ import annotations

from lxml import etree

from .xml import descendants, local

#: The exporting systems, by a mark their documents carry: (what the importer calls the system,
#: a metadata field or element only it writes).
FLAVOURS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Canvas", ("question_type", "cc_profile", "points_possible")),
    ("Blackboard", ("bbmd_questiontype", "bbmd_assessmenttype", "bbmd_asi_object_id")),
    ("WebCT", ("wct_questiontype", "webct_questiontype")),
    ("Respondus", ("respondusapi_qtype", "respondusapi_qpoints")),
    ("D2L", ("qmd_questiontype", "d2l_2p0:points")),
    # Sakai's Samigo: item metadata fields of its own.
    ("Sakai", ("mutually_exclusive", "item_objective")),
)
#: The question's points, in the order they are looked for (Canvas ``points_possible``;
#: Blackboard ``qmd_absolutescore_max``; Respondus ``respondusapi_qpoints``; D2L and IMS
#: ``qmd_weighting``; IMS ``qmd_maximumscore``).
POINTS_FIELDS = ("points_possible", "qmd_absolutescore_max", "respondusapi_qpoints", "qmd_weighting", "qmd_maximumscore")

_CHOICE, _ANSWERS, _TF = "multiple_choice_question", "multiple_answers_question", "true_false_question"
_SHORT, _ESSAY, _NUMBER = "short_answer_question", "essay_question", "numerical_question"
_MATCH, _ORDER, _BLANKS = "matching_question", "ordering_question", "fill_in_multiple_blanks_question"
_DROPDOWNS, _UPLOAD, _TEXT = "multiple_dropdowns_question", "file_upload_question", "text_only_question"
_FORMULA, _HOT_SPOT = "calculated_question", "hot_spot_question"

#: Field -> its values (case folded) -> the Canvas question type that reads the item.
VENDOR_TYPES: dict[str, dict[str, str]] = {
    # Blackboard Learn (the migration tool's list of bbmd_questiontype values; Canvas's converter
    # reads "Short Response" and "Essay" as essays, "Fill in the Blank Plus" as several blanks,
    # "Jumbled Sentence" as drop-downs).
    "bbmd_questiontype": {
        "multiple choice": _CHOICE, "multiple answer": _ANSWERS, "true/false": _TF, "either/or": _CHOICE,
        "opinion scale": _CHOICE, "essay": _ESSAY, "short response": _ESSAY, "file upload": _UPLOAD,
        "fill in the blank": _SHORT, "fill in the blank plus": _BLANKS, "jumbled sentence": _DROPDOWNS,
        "matching": _MATCH, "ordering": _ORDER, "numeric": _NUMBER, "calculated": _FORMULA, "hot spot": _HOT_SPOT,
    },
    # WebCT / Blackboard Vista and CE.
    "wct_questiontype": {
        "wct_multiplechoice": _CHOICE, "wct_truefalse": _TF, "wct_shortanswer": _SHORT, "wct_fillintheblank": _BLANKS,
        "wct_matching": _MATCH, "wct_paragraph": _ESSAY, "wct_calculated": _FORMULA,
    },
    # Respondus (its QTI export's respondusapi_qtype).
    "respondusapi_qtype": {
        "multiplechoice": _CHOICE, "truefalse": _TF, "multipleresponse": _ANSWERS, "essay": _ESSAY,
        "fillinmultiple": _BLANKS, "fillinblank": _SHORT, "matching": _MATCH, "numerical": _NUMBER,
        "algorithm": _FORMULA,
    },
    # Brightspace / D2L.
    "qmd_questiontype": {
        "multiple choice": _CHOICE, "true/false": _TF, "multi-select": _ANSWERS, "short answer": _SHORT,
        "multi-short answer": _SHORT, "long answer": _ESSAY, "matching": _MATCH, "ordering": _ORDER,
        "fill in the blanks": _BLANKS, "arithmetic": _FORMULA, "significant figures": _FORMULA,
    },
    # The IMS field (and the older ``itemtype`` spellings the migration tool maps alike).
    "qmd_itemtype": {
        "multiple choice": _CHOICE, "multiple response": _ANSWERS, "true/false": _TF, "true false": _TF,
        "truefalse": _TF, "essay": _ESSAY, "matching": _MATCH, "fill in the blanks": _BLANKS, "fillinmultiple": _BLANKS,
        "short answer": _SHORT, "numerical": _NUMBER, "ordering": _ORDER, "text information": _TEXT, "image": _TEXT,
        # Sakai's Samigo (its qmd_itemtype values as it exports them).
        "fill in the blank": _BLANKS, "multiple correct answer": _ANSWERS, "multiple correct single selection": _CHOICE,
        "short answer/essay": _ESSAY, "file upload": _UPLOAD,
    },
}
#: Types no reader takes (Canvas's converter skips them too), with what they are.
UNSUPPORTED: dict[str, str] = {
    "quiz bowl": "a Blackboard quiz bowl question (answers phrased as questions)",
    "wct_jumbledsentence": "a WebCT jumbled sentence",
    "wct_combination": "a WebCT combination question",
    "likert": "a D2L Likert survey question",
}


def vendor_type(fields: dict[str, str]) -> tuple[str, str] | None:
    """(the field, its value as written) of the first system type field an item has."""
    for name in VENDOR_TYPES:
        value = fields.get(name, "").strip()
        if value:
            return name, value
    return None


def flavour(root: etree._Element) -> str:
    """Which system wrote a ``questestinterop`` document, by the fields only it writes; "IMS QTI
    1.2" for none."""
    names = {local(e) for e in root.iter() if isinstance(e.tag, str)}
    labels = {(e.text or "").strip().lower() for e in descendants(root, "fieldlabel")}
    namespaces = " ".join(str(v) for e in (root,) for v in e.nsmap.values())
    if "webct" in namespaces.lower():
        return "WebCT"
    for system, marks in FLAVOURS:
        if any(mark in names or mark in labels for mark in marks):
            return system
    return "IMS QTI 1.2"
