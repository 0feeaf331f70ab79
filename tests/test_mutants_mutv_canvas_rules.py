"""The Canvas package rules on frames and items an overriding template could write, each written by
hand here with what Canvas makes of it worked out from the import facts (tests/README.md, "Mutation
runs (issue 35, fifth session)"): the survivors of canvas_rules.py that no other test noticed.

Outside ``[tool.mutmut]``'s test selection, so that adding to it keeps mutmut's results; its
kills are recorded with ``tools/mutation.py --recheck --also`` this file."""

from __future__ import annotations

from lxml import etree

from qti_builder import canvas_rules

QTI12 = canvas_rules.QTI12_NAMESPACE


def item(ident: str, points_field: str) -> bytes:
    """A question's document as the Canvas writer splices it in, its points field as given
    (``points_field`` is the whole ``qtimetadatafield``, or nothing)."""
    return (f'<item ident="{ident}" title="{ident}">\n<itemmetadata><qtimetadata>\n'
            '<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>essay_question</fieldentry></qtimetadatafield>\n'
            f'{points_field}</qtimetadata></itemmetadata>\n'
            '<presentation><material><mattext texttype="text/html">Why?</mattext></material></presentation>\n'
            '</item>\n').encode()


def points(value: str) -> str:
    return f"<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>{value}</fieldentry></qtimetadatafield>\n"


def frame(assessment: str = '<assessment ident="quiz1" title="Quiz">', end: str = "</assessment>") -> bytes:
    """An assessment frame with two questions, each alone."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<questestinterop xmlns="{QTI12}">\n{assessment}\n'
            '<section ident="root_section">\n<!-- question: 1 -->\n<!-- question: 2 -->\n</section>\n'
            f'{end}\n</questestinterop>\n').encode()


def settings(stated: str, identifier: str = "quiz1") -> etree._ElementTree:
    return etree.ElementTree(etree.fromstring(
        f'<quiz identifier="{identifier}" xmlns="http://canvas.instructure.com/xsd/cccv1p0"><title>Quiz</title>'
        f'<points_possible>{stated}</points_possible></quiz>'))


MEMBERS = {"imsmanifest.xml", "quiz1/quiz1.xml", "quiz1/assessment_meta.xml"}


def package_messages(data: bytes, questions: dict[str, bytes], stated: str) -> list[str]:
    """The package rules' messages (each at line 1, column 1: a problem of the whole package)."""
    facts = {ident: canvas_rules.item_facts(etree.ElementTree(etree.fromstring(document)), document)
             for ident, document in questions.items()}
    manifest = etree.ElementTree(etree.fromstring(
        '<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><resources><resource identifier="r" '
        'type="imsqti_xmlv1p2"><file href="quiz1/quiz1.xml"/><file href="quiz1/assessment_meta.xml"/></resource>'
        '</resources></manifest>'))
    problems = list(canvas_rules.package_rules(data, ("q1", "q2"), facts, "quiz1/quiz1.xml", settings(stated), manifest,
                                               MEMBERS))
    assert all((line, column) == (1, 1) for line, column, _ in problems), problems
    return [message for _, _, message in problems]


def test_an_item_without_points_counts_canvas_s_default_of_one_in_the_quiz_s_total() -> None:
    """Canvas gives an item without ``points_possible`` 1 point (the import facts: "default 1"),
    so a quiz of such an item and a 2-point one adds up to 3; an item whose points are empty or
    not a number counts for nothing in the total (item_rules refuses the item itself)."""
    two = item("q2", points("2"))
    assert package_messages(frame(), {"q1": item("q1", ""), "q2": two}, "3") == []
    assert package_messages(frame(), {"q1": item("q1", ""), "q2": two}, "2") == [
        "the settings file says the quiz is worth 2 points, its questions add up to 3"]
    for unreadable in ("", "one"):
        assert package_messages(frame(), {"q1": item("q1", points(unreadable)), "q2": two}, "2") == []
        assert package_messages(frame(), {"q1": item("q1", points(unreadable)), "q2": two}, "3") == [
            "the settings file says the quiz is worth 3 points, its questions add up to 2"]
    # item_rules' own message for each, at the item (the build reports both).
    for field, shown in (("", "None"), (points(""), "''"), (points("one"), "'one'")):
        tree = etree.ElementTree(etree.fromstring(b"<questestinterop>" + item("q1", field) + b"</questestinterop>"))
        assert [m for _, _, m in canvas_rules.item_rules(tree)] == [f"item has no points_possible >= 0 (got {shown})"]


QUESTIONS = {"q1": item("q1", points("1")), "q2": item("q2", points("2"))}


def test_an_assessment_without_an_ident_is_named_as_written_not_a_crash() -> None:
    """An assessment without ``ident`` (or a frame with no ``<assessment>`` at all) is reported
    by what it lacks: the empty ident Canvas would rename, the folder and settings file it cannot
    be matched with. No traceback, and no ident the author never wrote."""
    expected = [
        "assessment ident '' must start with a letter or '_' (Canvas renames it and loses the settings)",
        "the assessment must be /.xml: the settings file's folder must be the assessment's ident",
        "the settings file's identifier 'quiz1' is not the assessment's ident ''",
    ]
    assert package_messages(frame('<assessment title="Quiz">'), QUESTIONS, "3") == expected
    assert package_messages(frame('<objectbank ident="bank1">', "</objectbank>"), QUESTIONS, "3") == expected
    assert package_messages(frame(), QUESTIONS, "3") == []  # the same frame with its ident


def test_a_stated_total_that_is_not_a_number_is_reported_not_a_crash() -> None:
    """The settings file's ``points_possible`` written as no number (an override's slip; the
    schema refuses it too, and the preview runs these rules whatever the schema said) is the
    total's error, never a traceback."""
    for stated in ("many", "", "3 points"):
        assert package_messages(frame(), QUESTIONS, stated) == [
            f"the settings file says the quiz is worth {stated} points, its questions add up to 3"]
    assert package_messages(frame(), QUESTIONS, " 3 ") == []  # an xs:float: spaces around it collapse
