"""The validation gate's rules, each seen to refuse what breaks a package in Canvas or Moodle 4.5
(with the message a user reads) and to accept what the LMS reads right: written for the mutants of
validate.py and canvas_rules.py that no other test noticed (tests/README.md, "Mutation testing").

The documents here are written by hand, as Canvas's exporter and Moodle's writer lay them out, so
that each rule is judged on an input whose meaning is known without the project's writers."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, SEED_SOURCE
from lxml import etree

from qti_builder import BuildOptions, build, canvas_rules
from qti_builder.diagnostics import BuildFailed, DiagnosticSink
from qti_builder.pipeline import load_quizzes, render_outputs
from qti_builder.validate import _moodle_rules, validate_package
from qti_builder.writers import Document


def canvas_item(body: str, question_type: str = "multiple_choice_question", points: str = "1") -> etree._ElementTree:
    """One Canvas item, unnamespaced as a question's own document is validated."""
    text = f"""<questestinterop><item ident="q1" title="Q">
<itemmetadata><qtimetadata>
<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>{question_type}</fieldentry></qtimetadatafield>
<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>{points}</fieldentry></qtimetadatafield>
</qtimetadata></itemmetadata>
{body}
</item></questestinterop>"""
    return etree.ElementTree(etree.fromstring(text))


CHOICE = """<presentation><response_lid ident="response1" rcardinality="Single"><render_choice>
<response_label ident="{a}"><material><mattext>Seoul</mattext></material></response_label>
<response_label ident="{b}"><material><mattext>Busan</mattext></material></response_label>
</render_choice></response_lid></presentation>
<resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
<respcondition continue="No"><conditionvar><varequal respident="response1">{a}</varequal></conditionvar>
<setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing>"""


def messages(tree: etree._ElementTree) -> list[str]:
    """The item rules' messages; each is shown at column 1, and at its own element: the item's
    line (1 here) for what concerns the whole item, the answer's, condition's or feedback's below."""
    problems = list(canvas_rules.item_rules(tree))
    whole_item = ("item ", "the example solution")
    for line, column, message in problems:
        assert column == 1 and (line == 1 if message.startswith(whole_item) else line > 1), (line, column, message)
    return [message for _, _, message in problems]


def test_an_answer_ident_canvas_reads_as_question_feedback_is_refused() -> None:
    """Canvas takes an answer whose identifier says 'correct', 'wrong', 'general_' or '_all' for
    the question's feedback; the answer as Canvas's exporter numbers it is accepted."""
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002"))) == []
    for word in ("correct_1", "WRONG2", "general_3", "x_all"):
        assert messages(canvas_item(CHOICE.format(a=word, b="1002"))) == [
            f"answer ident '{word}' reads as question feedback in Canvas"]


def test_an_item_canvas_would_rename_or_retype_is_refused() -> None:
    """Canvas's migration tool renames an ident that does not start with a letter or '_', guesses
    the type of an item without ``question_type``, and needs ``points_possible`` >= 0."""
    good = canvas_item(CHOICE.format(a="1001", b="1002"))
    renamed = canvas_item(CHOICE.format(a="1001", b="1002"))
    renamed.getroot().find("item").set("ident", "2024.q")
    assert messages(renamed) == ["item ident '2024.q' must start with a letter or '_' (Canvas renames it)"]
    good.getroot().find("item").set("ident", "_q")
    assert messages(good) == []
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002"), question_type="multiple_choice")) == [
        "item has no Canvas question_type (got 'multiple_choice'): Canvas would guess its type"]
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002"), points="-1")) == [
        "item has no points_possible >= 0 (got '-1')"]
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002"), points="one")) == [
        "item has no points_possible >= 0 (got 'one')"]
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002"), points="0")) == []  # a text-only item's


BLANKS = """<presentation><material><mattext texttype="text/html">Capital: [city]</mattext></material>
<response_lid ident="response_city"><material><mattext>city</mattext></material><render_choice>
<response_label ident="{a}"><material><mattext>Seoul</mattext></material></response_label>
</render_choice></response_lid></presentation>
<resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
<respcondition continue="No"><conditionvar><varequal respident="response_city">{a}</varequal></conditionvar>
<setvar action="Add" varname="SCORE">100</setvar></respcondition></resprocessing>"""


def test_a_blank_answer_ident_must_be_a_number() -> None:
    """Blank and drop-down answers keep their comments in Canvas only with numeric idents; other
    kinds' answers may have any ident that is not a feedback word."""
    for kind in ("fill_in_multiple_blanks_question", "multiple_dropdowns_question"):
        assert messages(canvas_item(BLANKS.format(a="3101"), question_type=kind)) == []
        assert messages(canvas_item(BLANKS.format(a="seoul"), question_type=kind)) == [
            "answer ident 'seoul' of a blank must be a number, or Canvas drops its comments"]
    assert messages(canvas_item(CHOICE.format(a="seoul", b="busan"))) == []


FEEDBACK = """<itemfeedback ident="{ident}"><flow_mat><material><mattext>Look again.</mattext></material></flow_mat></itemfeedback>"""


def choice_with_conditions(conditions: str, feedback: tuple[str, ...] = ("1001_fb", "general_incorrect_fb", "correct_fb")) -> str:
    scoring = ('<respcondition continue="No"><conditionvar><varequal respident="response1">1001</varequal></conditionvar>'
               '\n<setvar action="Set" varname="SCORE">100</setvar></respcondition>')
    assert scoring in CHOICE.format(a="1001", b="1002")
    body = CHOICE.format(a="1001", b="1002").replace(scoring, conditions.replace("SCORING", scoring))
    return body + "".join(FEEDBACK.format(ident=ident) for ident in feedback)


def test_feedback_shown_after_the_scoring_condition_is_refused() -> None:
    """Each condition sets the score again: an answer's feedback condition after the scoring one
    undoes it in Canvas ("couldn't determine the correct answers"). Before it, or the incorrect
    feedback of an ``<other/>`` after it, as Canvas's exporter writes, are accepted."""
    answer_feedback = ('<respcondition continue="Yes"><conditionvar><varequal respident="response1">1001</varequal>'
                       '</conditionvar><displayfeedback feedbacktype="Response" linkrefid="1001_fb"/></respcondition>')
    incorrect = ('<respcondition continue="Yes"><conditionvar><other/></conditionvar>'
                 '<displayfeedback feedbacktype="Response" linkrefid="general_incorrect_fb"/></respcondition>')
    assert messages(canvas_item(choice_with_conditions(answer_feedback + "SCORING" + incorrect))) == []
    assert messages(canvas_item(choice_with_conditions("SCORING" + answer_feedback))) == [
        "a feedback condition comes after the scoring condition"]
    # A condition that adds to the score (matching, blanks) does not set it: feedback may follow it.
    adding = ('<respcondition continue="No"><conditionvar><varequal respident="response1">1001</varequal></conditionvar>'
              '<setvar action="Add" varname="SCORE">100</setvar></respcondition>')
    assert messages(canvas_item(choice_with_conditions(adding + answer_feedback))) == []
    # A setvar without an action is a Set (the QTI 1.2 default).
    unset = adding.replace(' action="Add"', "")
    assert messages(canvas_item(choice_with_conditions(unset + answer_feedback))) == [
        "a feedback condition comes after the scoring condition"]


def test_feedback_shown_without_its_itemfeedback_is_refused() -> None:
    shown = ('<respcondition continue="Yes"><conditionvar><varequal respident="response1">1001</varequal>'
             '</conditionvar><displayfeedback feedbacktype="Response" linkrefid="1001_fb"/></respcondition>SCORING')
    assert messages(canvas_item(choice_with_conditions(shown))) == []
    assert messages(canvas_item(choice_with_conditions(shown, feedback=("1002_fb",)))) == [
        "feedback '1001_fb' is shown but has no itemfeedback"]


def numerical(*conditions: str) -> str:
    """A numerical item (Canvas's exporter's layout), one scoring condition per answer test."""
    scoring = "".join(f'<respcondition continue="No"><conditionvar>{c}</conditionvar>'
                      '<setvar action="Set" varname="SCORE">100</setvar></respcondition>' for c in conditions)
    return ('<presentation><response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal">'
            '<response_label ident="answer1"/></render_fib></response_str></presentation>'
            '<resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>'
            f'{scoring}</resprocessing>')


def value(v: str, attributes: str = "") -> str:
    return f'<varequal respident="response1"{attributes}>{v}</varequal>'


def bounds(low: str, high: str, low_tag: str = "vargte") -> str:
    return f'<and><{low_tag} respident="response1">{low}</{low_tag}><varlte respident="response1">{high}</varlte></and>'


NOT_READ = ("a numerical answer New Quizzes cannot read: give the value its bounds (<or><varequal>v</varequal><and><vargte>low"
            "</vargte><varlte>high</varlte></and></or>; low = high = v for an exact answer)")


def test_numerical_answers_in_the_forms_new_quizzes_reads() -> None:
    """The gem reads an exact answer, a value with a margin, a range and a precision only as
    Canvas's exporter writes them; a lone ``varequal`` raises its "Unsupported Numeric Type"."""
    kind = "numerical_question"
    for form in (f"<or>{value('7')}{bounds('7', '7')}</or>", f"<or>{value('5')}{bounds('4.9', '5.1')}</or>",
                 bounds("10", "20"), f"<or>{value('3.14')}{bounds('3.135', '3.145', 'vargt')}</or>"):
        assert messages(canvas_item(numerical(form), question_type=kind)) == [], form
    assert messages(canvas_item(numerical(f"<or>{value('7')}</or>"), question_type=kind)) == [NOT_READ]
    assert messages(canvas_item(numerical(f"<or>{value('7')}</or>", bounds("1", "2")), question_type=kind)) == [NOT_READ]
    # Only a numerical question's answers are read this way.
    assert messages(canvas_item(numerical(value("7")), question_type="short_answer_question")) == []
    # A condition that scores nothing (an answer's feedback) is not an answer.
    feedback = (f'<respcondition continue="Yes"><conditionvar>{value("7")}</conditionvar>'
                '<displayfeedback feedbacktype="Response" linkrefid="answer1_fb"/></respcondition>')
    item = numerical(bounds("10", "20")).replace("<respcondition", feedback + "<respcondition", 1)
    item += FEEDBACK.format(ident="answer1_fb")
    assert messages(canvas_item(item, question_type=kind)) == []


def margin_messages(form: str) -> list[str]:
    return messages(canvas_item(numerical(form), question_type="numerical_question"))


def disagrees(margin: str, kind: str, number: str) -> str:
    return (f"the margin {margin} ({kind}) of answer {number} disagrees with its bounds: Classic grades by the <and> of "
            "vargte/varlte beside it, New Quizzes by the margin")


def with_margin(number: str, attributes: str, low: str, high: str) -> list[str]:
    """The messages for an exact answer ``number`` with ``attributes`` and the bounds beside it."""
    return margin_messages("<or>" + value(number, " " + attributes) + bounds(low, high) + "</or>")


def test_a_margin_must_agree_with_the_bounds_classic_grades_by() -> None:
    """New Quizzes grades by the ``margin`` on the value, Classic by the bounds beside it: they must
    say the same interval, whether the margin is absolute or a percentage of the value."""
    assert with_margin("5", 'margin="0.1"', "4.9", "5.1") == []
    assert with_margin("5", 'margin="0.1" margintype="absolute"', "4.9", "5.1") == []
    assert with_margin("-200", 'margin="5" margintype="percent"', "-210", "-190") == []
    assert with_margin("5", 'margin="0.2"', "4.9", "5.1") == [disagrees("0.2", "absolute", "5")]
    assert with_margin("5", 'margin="0.1"', "4.9", "5.2") == [disagrees("0.1", "absolute", "5")]
    assert with_margin("5", 'margin="0.1"', "4.8", "5.1") == [disagrees("0.1", "absolute", "5")]
    assert with_margin("200", 'margin="5" margintype="percent"', "195", "205") == [disagrees("5", "percent", "200")]
    # A margin without bounds beside it: Classic has nothing to grade by.
    alone = margin_messages("<or>" + value("5", ' margin="0.1"') + "</or>" + bounds("4.9", "5.1"))
    assert alone[-1] == disagrees("0.1", "absolute", "5")
    assert with_margin("5", 'margintype="absolute"', "5", "5") == ["margin 'None' of answer '5' is not a number"]
    assert with_margin("5", 'margin="a tenth"', "4.9", "5.1") == ["margin 'a tenth' of answer '5' is not a number"]
    assert with_margin("5", 'margin="-0.1"', "5.1", "4.9") == [
        "margintype 'absolute' / margin '-0.1' must be absolute or percent, and not negative"]
    assert with_margin("5", 'margin="0.1" margintype="relative"', "4.9", "5.1") == [
        "margintype 'relative' / margin '0.1' must be absolute or percent, and not negative"]


ESSAY = ('<presentation><response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" '
         'rshuffle="No"/></render_fib></response_str></presentation>')


def test_an_example_solution_needs_the_grading_notes_new_quizzes_reads() -> None:
    """New Quizzes reads an essay's or upload's notes for graders from ``grading_notes`` only, not
    from the ``solution`` feedback Classic shows."""
    solution = FEEDBACK.format(ident="solution")
    for kind in ("essay_question", "file_upload_question"):
        assert messages(canvas_item(ESSAY + solution, question_type=kind)) == [
            "the example solution has no grading_notes metadata: New Quizzes reads only that"]
        noted = canvas_item(ESSAY + solution, question_type=kind)
        field = etree.fromstring("<qtimetadatafield><fieldlabel>grading_notes</fieldlabel><fieldentry>Two causes.</fieldentry>"
                                 "</qtimetadatafield>")
        noted.getroot().find("item/itemmetadata/qtimetadata").append(field)
        assert messages(noted) == []
        assert messages(canvas_item(ESSAY, question_type=kind)) == []
    assert messages(canvas_item(ESSAY + solution, question_type="short_answer_question")) == []


# -- the rules across a Canvas package's files -------------------------------------------------------

QTI12 = canvas_rules.QTI12_NAMESPACE


def item_document(ident: str, points: str, text: str = "Which?") -> bytes:
    """A question's document as the Canvas writer splices it in: an item, unnamespaced."""
    return (f'<item ident="{ident}" title="{ident}">\n<itemmetadata><qtimetadata>\n'
            '<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>essay_question</fieldentry></qtimetadatafield>\n'
            f'<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>{points}</fieldentry></qtimetadatafield>\n'
            '</qtimetadata></itemmetadata>\n'
            f'<presentation><material><mattext texttype="text/html">{text}</mattext></material></presentation>\n'
            '</item>\n').encode()


def group_document(ident: str, per_item: str, *points: str) -> bytes:
    """A question written as a group of its own (a calculated choice question's variants)."""
    items = "".join(item_document(f"{ident}-{n}", p).decode() for n, p in enumerate(points, 1))
    return (f'<section ident="{ident}" title="{ident}">\n<selection_ordering><selection><selection_number>1'
            f'</selection_number>\n<selection_extension><points_per_item>{per_item}</points_per_item>'
            f'</selection_extension></selection></selection_ordering>\n{items}</section>\n').encode()


def frame(ident: str = "quiz1", pool_per_item: str = "2") -> bytes:
    """An assessment frame: question 1 alone, questions 2 and 3 in a group drawing one at
    ``pool_per_item`` points, question 4 alone."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<questestinterop xmlns="{QTI12}">\n'
            f'<assessment ident="{ident}" title="Quiz">\n<section ident="root_section">\n'
            '<!-- question: 1 -->\n'
            '<section ident="pool" title="Pool">\n<selection_ordering><selection><selection_number>1</selection_number>\n'
            f'<selection_extension><points_per_item>{pool_per_item}</points_per_item></selection_extension>\n'
            '</selection></selection_ordering>\n'
            '<!-- question: 2 -->\n<!-- question: 3 -->\n</section>\n'
            '<!-- question: 4 -->\n'
            '</section>\n</assessment>\n</questestinterop>\n').encode()


QUESTIONS = {"q1": item_document("q1", "1"), "q2": item_document("q2", "2"), "q3": item_document("q3", "2"),
             "q4": group_document("q4", "3", "3", "3")}
ORDER = ("q1", "q2", "q3", "q4")


def settings(identifier: str = "quiz1", points: str | None = "6") -> etree._ElementTree:
    stated = f"<points_possible>{points}</points_possible>" if points is not None else ""
    return etree.ElementTree(etree.fromstring(
        f'<quiz identifier="{identifier}" xmlns="http://canvas.instructure.com/xsd/cccv1p0"><title>Quiz</title>{stated}</quiz>'))


def manifest(*hrefs: str, schema: str = "IMS Content") -> etree._ElementTree:
    files = "".join(f'<file href="{h}"/>' for h in hrefs)
    return etree.ElementTree(etree.fromstring(
        f'<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><metadata><schema>{schema}</schema>'
        f'</metadata><organizations/><resources><resource identifier="r" type="imsqti_xmlv1p2">{files}</resource>'
        '</resources></manifest>'))


MEMBERS = {"imsmanifest.xml", "quiz1/quiz1.xml", "quiz1/assessment_meta.xml"}


def package_messages(data: bytes = b"", questions: dict[str, bytes] = QUESTIONS, path: str = "quiz1/quiz1.xml",
                     meta: etree._ElementTree | None = None, listed: etree._ElementTree | None = None,
                     members: set[str] = MEMBERS) -> list[tuple[int, str]]:
    facts = {ident: canvas_rules.item_facts(etree.ElementTree(etree.fromstring(document)), document)
             for ident, document in questions.items()}
    problems = canvas_rules.package_rules(data or frame(), ORDER, facts, path, meta if meta is not None else settings(),
                                          listed if listed is not None else manifest(*sorted(MEMBERS - {"imsmanifest.xml"})),
                                          members)
    problems = list(problems)
    assert all(column == 1 for _, column, _ in problems), problems  # shown as file:line:1, a problem of the whole line
    return [(line, message) for line, _, message in problems]


def test_a_package_as_canvas_reads_it_passes() -> None:
    """Worth 1 + one drawn of two 2-point questions + one of a 3-point question's variants = 6."""
    assert package_messages() == []


def test_the_settings_file_must_state_the_points_canvas_adds_up() -> None:
    """Canvas stores ``points_possible`` as written: it must be what the questions add up to,
    a group counting its draw at its points per question."""
    assert package_messages(meta=settings(points="7")) == [
        (1, "the settings file says the quiz is worth 7 points, its questions add up to 6")]
    assert package_messages(meta=settings(points="5")) == [
        (1, "the settings file says the quiz is worth 5 points, its questions add up to 6")]
    assert package_messages(meta=settings(points=None)) == [
        (1, "the settings file says the quiz is worth None points, its questions add up to 6")]
    # A group drawing every question counts them all; a draw of 2 of three counts the first two.
    drawn_all = frame().replace(b"<selection_number>1</selection_number>\n<selection_extension>",
                                b"<selection_number>2</selection_number>\n<selection_extension>")
    assert package_messages(drawn_all) == [(1, "the settings file says the quiz is worth 6 points, its questions add up to 8")]
    assert package_messages(drawn_all, meta=settings(points="8")) == []
    # Without the settings file, Canvas reads the assessment's own metadata: nothing to compare.
    facts = {i: canvas_rules.item_facts(etree.ElementTree(etree.fromstring(d)), d) for i, d in QUESTIONS.items()}
    assert list(canvas_rules.package_rules(frame(), ORDER, facts, "quiz1/quiz1.xml", None, None, MEMBERS)) == []


def test_the_settings_file_must_be_found_where_canvas_looks() -> None:
    """The settings file is read from the folder named as the assessment's ident, and only when
    that ident starts with a letter or '_' (Canvas renames others: the settings are lost)."""
    assert package_messages(path="quiz2/quiz1.xml") == [
        (1, "the assessment must be quiz1/quiz1.xml: the settings file's folder must be the assessment's ident")]
    assert package_messages(path="quiz1/assessment.xml") == [
        (1, "the assessment must be quiz1/quiz1.xml: the settings file's folder must be the assessment's ident")]
    assert package_messages(frame("2024"), path="2024/2024.xml", meta=settings("2024")) == [
        (1, "assessment ident '2024' must start with a letter or '_' (Canvas renames it and loses the settings)")]
    assert package_messages(meta=settings("quiz2")) == [
        (1, "the settings file's identifier 'quiz2' is not the assessment's ident 'quiz1'")]


def test_every_member_is_listed_and_every_listed_file_is_there() -> None:
    """Canvas imports only the files its manifest lists, and warns of a listed file that is missing;
    a manifest saying QTIv2 makes it read the package as QTI 2."""
    members = MEMBERS | {"media/a.png"}
    assert package_messages(members=members) == [
        (1, "media/a.png is in the package but not listed in the manifest (Canvas would not import it)")]
    listed = manifest("quiz1/quiz1.xml", "quiz1/assessment_meta.xml", "media/b.png")
    assert package_messages(listed=listed) == [(1, "the manifest lists media/b.png, which is not in the package")]
    qti2 = manifest("quiz1/quiz1.xml", "quiz1/assessment_meta.xml", schema="QTIv2.1 Package")
    assert package_messages(listed=qti2) == [(1, "the manifest mentions QTIv2: Canvas would read the package as QTI 2")]


def test_a_picture_an_item_shows_must_be_in_the_package() -> None:
    shows = item_document("q1", "1", "&lt;p&gt;&lt;img src=&quot;media/map.png&quot; alt=&quot;map&quot;&gt;&lt;/p&gt;")
    questions = {**QUESTIONS, "q1": shows}
    assert package_messages(questions=questions) == [(1, "an item shows media/map.png, which is not in the package")]
    members = MEMBERS | {"media/map.png"}
    listed = manifest(*sorted(members - {"imsmanifest.xml"}))
    assert package_messages(questions=questions, members=members, listed=listed) == []
    # A picture in the frame (the quiz's description) counts the same.
    described = frame().replace(b'title="Quiz">\n', b'title="Quiz">\n<presentation_material><flow_mat><material><mattext>'
                                b'&lt;img src="media/logo.png"&gt;</mattext></material></flow_mat></presentation_material>\n')
    assert package_messages(described) == [(1, "an item shows media/logo.png, which is not in the package")]


def spliced(data: bytes, questions: dict[str, bytes]) -> list[str]:
    """The assessment as the writer assembles it: each question's document after its marker line."""
    out = []
    for line in data.decode().splitlines(keepends=True):
        out.append(line)
        if line.startswith("<!-- question: "):
            out.append(questions[ORDER[int(line.split()[2]) - 1]].decode())
    return "".join(out).splitlines()


def test_a_group_whose_points_per_item_are_not_its_questions_points_is_refused_at_its_line() -> None:
    """Canvas takes a group's points from ``points_per_item``: it must be its questions' points.
    The problem is reported at the group's line in the assessment as assembled, questions in."""
    [(line, message)] = package_messages(frame(pool_per_item="3"))
    assert message == ("section 'pool' gives points_per_item '3', its questions are worth 2, 2: Canvas takes the group's "
                       "points from points_per_item")
    assert spliced(frame(), QUESTIONS)[line - 1].startswith('<section ident="pool"')
    # A question written as a group of its own, spliced in: its line counted after the questions before it.
    questions = {**QUESTIONS, "q4": group_document("q4", "4", "3", "3")}
    [(line, message)] = package_messages(questions=questions)
    assert message.startswith("section 'q4' gives points_per_item '4', its questions are worth 3, 3")
    assert spliced(frame(), questions)[line - 1].startswith('<section ident="q4"')
    empty = frame().replace(b"<!-- question: 2 -->\n<!-- question: 3 -->\n", b"")
    assert package_messages(empty, meta=settings(points="4")) == []  # no question to disagree with
    unreadable = empty.replace(b">2</points_per_item>", b">two</points_per_item>")
    assert spliced(unreadable, QUESTIONS)[13 - 1].startswith('<section ident="pool"')  # after question 1's 7 lines
    assert package_messages(unreadable, meta=settings(points="4")) == [
        (13, "section 'pool' gives points_per_item 'two', its questions are worth nothing: Canvas takes the group's points "
            "from points_per_item")]
    for wrong in ("-2", "two"):
        assert package_messages(frame(pool_per_item=wrong))[0][1].startswith(f"section 'pool' gives points_per_item '{wrong}'")


def test_a_numerical_answer_new_quizzes_cannot_read_is_reported_at_its_condition() -> None:
    """The error points at the answer's own condition (line, column 1), after any feedback
    condition before it: every scoring condition is looked at, not only the first."""
    feedback = (f'<respcondition continue="Yes"><conditionvar>{value("7")}</conditionvar>'
                '<displayfeedback feedbacktype="Response" linkrefid="answer1_fb"/></respcondition>')
    body = numerical(bounds("10", "20"), f"<or>{value('7')}</or>").replace("<respcondition", "\n<respcondition")
    body = body.replace("<respcondition", feedback + "<respcondition", 1) + FEEDBACK.format(ident="answer1_fb")
    tree = canvas_item(body, question_type="numerical_question")
    text = etree.tostring(tree).decode().splitlines()
    [(line, column, message)] = list(canvas_rules.item_rules(tree))
    assert (column, message) == (1, NOT_READ)
    assert line > 1 and text[line - 1].startswith('<respcondition continue="No"><conditionvar><or><varequal')


def test_bounds_agree_with_a_margin_to_a_billionth_of_the_value() -> None:
    """A margin's interval and the bounds beside it may differ by float rounding in the writer,
    up to a billionth of the bound (or of 1, below 1); more is a disagreement."""
    assert with_margin("0.5", 'margin="0.1"', "0.4", "0.600000001") == []  # 1e-9 off, below 1: within
    assert with_margin("0.5", 'margin="0.1"', "0.4", "0.6000000015") == [disagrees("0.1", "absolute", "0.5")]
    assert with_margin("200", 'margin="5" margintype="percent"', "190", "210.0000001") == []  # 1e-7 of 210 is 2.1e-7
    assert with_margin("200", 'margin="5" margintype="percent"', "190", "210.000001") == [disagrees("5", "percent", "200")]


def test_a_group_may_be_worth_nothing_or_a_fraction_of_a_point() -> None:
    """``points_per_item`` 0 for questions worth 0 (a survey's pool) and 0.5 for half-point ones
    are the questions' points, as Canvas reads them."""
    questions = {**QUESTIONS, "q2": item_document("q2", "0"), "q3": item_document("q3", "0")}
    assert package_messages(frame(pool_per_item="0"), questions=questions, meta=settings(points="4")) == []
    questions = {**QUESTIONS, "q2": item_document("q2", "0.5"), "q3": item_document("q3", "0.5")}
    assert package_messages(frame(pool_per_item="0.5"), questions=questions, meta=settings(points="4.5")) == []


def test_a_comment_in_the_frame_that_is_not_a_question_marker_is_left_alone() -> None:
    """An overriding template may write comments of its own in the frame: they are not questions."""
    commented = frame().replace(b'<section ident="root_section">\n', b'<section ident="root_section">\n<!-- built for week 3 -->\n'
                                b"<!-- question: x -->\n<!---->\n")
    assert package_messages(commented) == []


def test_the_frame_is_read_without_expanding_its_entities(tmp_path: Path) -> None:
    """An overriding template is hostile input: an entity it declares is not expanded, so a
    local file it names is never read (here one whose text would show as a missing picture)."""
    secret = tmp_path / "secret.txt"
    secret.write_text('&lt;img src="media/leaked.png"&gt;', encoding="utf-8")
    declared = frame().replace(b"<questestinterop", f'<!DOCTYPE questestinterop [<!ENTITY inner "&lt;img src=\'media/inner.png\'&gt;">'
                               f'<!ENTITY outer SYSTEM "{secret.as_uri()}">]>\n<questestinterop'.encode(), 1)
    declared = declared.replace(b'<section ident="root_section">\n', b'<section ident="root_section">\n<!-- -->'
                                b"<presentation_material><flow_mat><material><mattext>&inner;&outer;</mattext></material>"
                                b"</flow_mat></presentation_material>\n")
    assert package_messages(declared) == []


# -- what Moodle 4.5's importer refuses, or takes silently broken -------------------------------------


def moodle_messages(question: str) -> list[str]:
    """The rules' messages for one ``<question>`` of a Moodle XML file."""
    tree = etree.fromstring(f"<quiz>\n{question}\n</quiz>").getroottree()
    return [message for _, _, message in _moodle_rules(tree)]


def q(kind: str, body: str, name: str = "<name><text>Q</text></name>") -> str:
    return f'<question type="{kind}">{name}<questiontext format="html"><text>Which?</text></questiontext>{body}</question>'


def a(fraction: str, text: str, extra: str = "") -> str:
    return f'<answer fraction="{fraction}"><text>{text}</text>{extra}</answer>'


MOODLE_CASES = [
    # A category carries no name or answers: nothing else is asked of it.
    ('<question type="category"><category><text>$course$/top/Week 1</text></category></question>', []),
    (q("multichoice", a("100", "a") + a("0", "b"), name=""), ["Moodle needs a non-empty question name"]),
    # Grade options within 0.001 (negatives too); an ordering question's fraction is its position, not read.
    (q("multichoice", a("100", "a") + a("-33.333", "b")), []),
    (q("multichoice", a("100", "a") + a("-33.33", "b")), ["fraction -33.33 is not one of Moodle's grade options"]),
    (q("ordering", a("35", "first") + a("70", "second")), []),
    # Multiple choice: at least 2 choices; single answer (the default, or 1) needs one worth 100 %.
    (q("multichoice", a("100", "a")), ["Moodle requires at least 2 choices in a multichoice question"]),
    (q("multichoice", a("90", "a") + a("0", "b")), ["a single-answer multichoice needs an answer worth 100%"]),
    (q("multichoice", "<single>1</single>" + a("90", "a") + a("0", "b")), ["a single-answer multichoice needs an answer worth 100%"]),
    (q("multichoice", a("99.5", "a") + a("0", "b")),
     ["fraction 99.5 is not one of Moodle's grade options", "a single-answer multichoice needs an answer worth 100%"]),
    # Only positive fractions make up the 100 % (a wrong answer's 0 or minus adds nothing).
    (q("multichoice", "<single>false</single>" + a("99.5", "a") + a("0.5", "b") + a("0", "c")),
     ["fraction 99.5 is not one of Moodle's grade options", "fraction 0.5 is not one of Moodle's grade options"]),
    (q("multichoice", "<single>false</single>" + a("90", "a") + a("10", "b") + a("-100", "c")), []),
    (q("multichoice", "<single>0</single>" + a("50", "a") + a("40", "b")),
     ["the positive fractions of a multiple-answer question must add up to 100%"]),
    (q("multichoice", "<single>0</single>" + a("50", "a") + a("49.5", "b")),
     ["fraction 49.5 is not one of Moodle's grade options", "the positive fractions of a multiple-answer question must add up to 100%"]),
    # True/false: texts true and false, one worth 100 % and the other 0 %.
    (q("truefalse", a("0", "true") + a("100", "false")), []),
    (q("truefalse", a("100", "true") + a("100", "false")),
     ["of a true/false question's answers exactly one must be worth 100% and the other 0%"]),
    (q("truefalse", a("100", "true")), ["true/false answers must be the texts 'true' and 'false'"]),
    # Short answer: one answer worth 100 %, none empty (Moodle skips it).
    (q("shortanswer", a("100", "서울") + a("50", "Seoul")), []),
    (q("shortanswer", a("90", "서울")), ["a short-answer question needs an answer worth 100%"]),
    (q("shortanswer", a("99.5", "서울")),
     ["fraction 99.5 is not one of Moodle's grade options", "a short-answer question needs an answer worth 100%"]),
    (q("shortanswer", a("100", "서울") + a("50", " ")), ["a short-answer question's answers must not be empty (Moodle skips them)"]),
    (q("shortanswer", a("100", "서울") + '<answer fraction="50"/>'),
     ["a short-answer question's answers must not be empty (Moodle skips them)"]),
    # Numerical: a number or *, a tolerance >= 0, the first unit the default one.
    (q("numerical", a("100", "-1.5e3", "<tolerance>0.5</tolerance>") + a("0", "*") + a("50", ".5", "<tolerance>0</tolerance>")
       + "<units><unit><multiplier>1</multiplier><unit_name>m</unit_name></unit>"
       "<unit><multiplier>100</multiplier><unit_name>cm</unit_name></unit></units>"), []),
    (q("numerical", a("90", "3")), ["a numerical question needs an answer worth 100%"]),
    (q("numerical", a("100", "3 m")), ["numerical answer '3 m' is neither a number nor *"]),
    (q("numerical", '<answer fraction="100"/>'), ["numerical answer '' is neither a number nor *"]),
    # An empty multiplier is read as 1 by this rule (never a crash; the schema judges the value).
    (q("numerical", a("100", "3") + "<units><unit><multiplier/><unit_name>m</unit_name></unit></units>"), []),
    (q("numerical", a("100", "3") + "<units><unit><multiplier> </multiplier><unit_name>m</unit_name></unit></units>"), []),
    (q("numerical", a("100", "3", "<tolerance>-1</tolerance>")), ["numerical tolerance '-1' is not a number >= 0"]),
    (q("numerical", a("100", "3", "<tolerance>a bit</tolerance>")), ["numerical tolerance 'a bit' is not a number >= 0"]),
    (q("numerical", a("100", "3") + "<units><unit><multiplier>0.01</multiplier><unit_name>cm</unit_name></unit></units>"),
     ["the first unit of a numerical question is its default unit: its multiplier must be 1"]),
    # Matching: two stems with text at least, each with its answer; a distractor has no text.
    (q("matching", "<subquestion><text>A</text><answer><text>1</text></answer></subquestion>"
       "<subquestion><text>B</text><answer><text>2</text></answer></subquestion>"
       "<subquestion><text></text><answer><text>3</text></answer></subquestion>"), []),
    (q("matching", "<subquestion><text>A</text><answer><text>1</text></answer></subquestion>"
       "<subquestion><text></text><answer><text>2</text></answer></subquestion>"),
     ["a matching question needs at least 2 subquestions with text"]),
    (q("matching", "<subquestion><text>A</text><answer><text>1</text></answer></subquestion>"
       "<subquestion><text>B</text><answer><text> </text></answer></subquestion>"),
     ["a matching subquestion with text needs an answer"]),
    (q("matching", "<subquestion><text>A</text><answer><text>1</text></answer></subquestion>"
       "<subquestion><text>B</text></subquestion>"), ["a matching subquestion with text needs an answer"]),
    # Ordering: two items with text at least.
    (q("ordering", a("0", "first") + a("0", " ")), ["an ordering question needs at least 2 items"]),
    (q("ordering", a("0", "first") + '<answer fraction="0"/>'), ["an ordering question needs at least 2 items"]),
    # Cloze: embedded answers, each with a right one; a choice among two at least.
    (q("multianswer", "").replace("Which?", "Capital: {1:SHORTANSWER:=Seoul} and {1:MULTIRESPONSE:%50%a~%50%b~%-100%c}"), []),
    (q("multianswer", "").replace("Which?", "Capital: ___"),
     ["a cloze question needs at least one embedded answer such as {1:SHORTANSWER:=answer}"]),
    (q("multianswer", "").replace("Which?", "A {1:SHORTANSWER:=Seoul} B {1:MULTICHOICE:=a}"),
     ["embedded answer 2 (MULTICHOICE) needs at least 2 choices"]),
    (q("multianswer", "").replace("Which?", "A {1:SHORTANSWER:%50%Seoul}"),
     ["embedded answer 1 (SHORTANSWER) has no answer worth 100%"]),
    (q("multianswer", "").replace("Which?", "A {1:MULTIRESPONSE:%0%a~%-50%b}"),
     ["embedded answer 1 (MULTIRESPONSE) has no answer worth 100%"]),
    # Essay: something to answer, attachments required no more than allowed, word limits in order.
    (q("essay", "<responseformat>noinline</responseformat><attachments>2</attachments><attachmentsrequired>1"
       "</attachmentsrequired><minwordlimit>10</minwordlimit><maxwordlimit>100</maxwordlimit>"), []),
    (q("essay", "<responseformat>noinline</responseformat><attachments>1</attachments><attachmentsrequired>0"
       "</attachmentsrequired>"),
     ["an essay without an inline answer must allow and require attachments, or there is nothing to answer"]),
    (q("essay", "<responseformat>noinline</responseformat><attachments>0</attachments><attachmentsrequired>1"
       "</attachmentsrequired>"),
     ["an essay without an inline answer must allow and require attachments, or there is nothing to answer"]),
    (q("essay", "<attachments>1</attachments><attachmentsrequired>2</attachmentsrequired>"),
     ["an essay cannot require more attachments than it allows"]),
    (q("essay", "<attachments>-1</attachments><attachmentsrequired>3</attachmentsrequired>"), []),  # -1: unlimited
    (q("essay", "<minwordlimit>100</minwordlimit><maxwordlimit>10</maxwordlimit>"),
     ["an essay's maximum word limit is below its minimum"]),
    (q("essay", "<minwordlimit>100</minwordlimit><maxwordlimit></maxwordlimit>"), []),
    (q("essay", "<minwordlimit>100</minwordlimit><maxwordlimit>100</maxwordlimit>"), []),  # exactly 100 words
    # A count that is no number (an overriding template's slip, which the schema reports) counts as 0, never a crash.
    (q("essay", "<attachments>X2</attachments><attachmentsrequired>1</attachmentsrequired>"), []),
    # Calculated: formulas Moodle refuses, in its texts and answers; an empty answer has none.
    (q("calculated", a("100", "{a} * 2") + a("0", "")), []),
    (q("calculated", a("100", "foo({a})")), ["Moodle refuses the answer formula 'foo({a})': the function foo is not supported"]),
    (q("calculated", a("100", "*")), []),
    # An answer without a fraction (the schema's to report; Moodle's default is 0) is no grade error and no crash,
    # and the answers after it are still judged.
    (q("shortanswer", '<answer><text>x</text></answer>' + a("100", "y")), []),
    (q("shortanswer", '<answer fraction="abc"><text>x</text></answer>' + a("35", "y") + a("100", "z")),
     ["fraction 35.0 is not one of Moodle's grade options"]),
    # A hint's options are read once too.
    (q("shortanswer", a("100", "y") + "<hint><text>h</text><options>1</options><options>0</options></hint>"),
     ["<hint> has more than one <options>: Moodle reads the first and drops the others"]),
    # <shownumcorrect>: an ordering question reads its value (1 or 0), the others its presence only.
    (q("ordering", "<shownumcorrect>0</shownumcorrect>" + a("0", "first") + a("0", "second")), []),
    (q("ordering", "<shownumcorrect>1</shownumcorrect>" + a("0", "first") + a("0", "second")), []),
    (q("ordering", "<shownumcorrect/>" + a("0", "first") + a("0", "second")),
     ["an ordering question reads <shownumcorrect> by value: write 1 or 0"]),
    (q("multichoice", "<single>false</single><shownumcorrect/>" + a("50", "a") + a("50", "b")), []),
    (q("multichoice", "<single>false</single><shownumcorrect>0</shownumcorrect>" + a("50", "a") + a("50", "b")),
     ["<shownumcorrect> is on when present whatever it holds: write it empty, or leave it out"]),
]


@pytest.mark.parametrize(("question", "expected"), MOODLE_CASES)
def test_moodle_rules_as_moodles_importer_reads_the_question(question: str, expected: list[str]) -> None:
    """Each rule refuses what Moodle 4.5's importer refuses or saves broken (the LMS facts: grade
    options within 0.001, a single-choice question without a 100 % answer "gave up", a
    multiple-answer one whose positive fractions do not add to 100 %, fewer than 2 choices, an
    empty name), with the message a user reads, and accepts the same question put right."""
    assert moodle_messages(question) == expected


def test_a_moodle_rule_failure_names_the_question_in_the_moodle_file(tmp_path: Path) -> None:
    """A question of a Moodle file is validated on its own: the place shown is the file and the
    question's id after '#' (one file, not a folder), lines counted from the question's first."""
    name = "moodle/question_multichoice.xml.j2"
    template = tmp_path / "templates" / name
    template.parent.mkdir(parents=True)
    text = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert 'fraction="{{ answer.fraction }}"' in text
    template.write_text(text.replace('fraction="{{ answer.fraction }}"', 'fraction="{{ answer.fraction|replace(\'100\', \'90\') }}"'),
                        encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", templates=tmp_path / "templates", formats=["moodle"]))
    first = failed.value.diagnostics[0].render().splitlines()
    assert first[0].endswith("error[QB401]: a single-answer multichoice needs an answer worth 100% (question 'train-purpose')")
    assert first[1].strip() == "in generated file ray-train-tune.moodle.xml#train-purpose:1:1"
    assert not (tmp_path / "dist").exists()


def test_a_canvas_calculated_extension_the_schema_refuses_is_shown_at_its_element(tmp_path: Path) -> None:
    """Canvas's calculated extension (the DTD lets anything through there) is judged by its own
    schema: a tolerance under the wrong name is refused for every calculated question, at the
    line and column of that element in the question's document."""
    name = "canvas/item_calculated.xml.j2"
    template = tmp_path / "templates" / name
    template.parent.mkdir(parents=True)
    good = "<answer_tolerance>{{ tolerance }}</answer_tolerance>"
    text = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert good in text
    template.write_text(text.replace(good, "<tolerance>{{ tolerance }}</tolerance>"), encoding="utf-8")
    source = ROOT / "tests" / "fixtures" / "calculated.md"
    options = BuildOptions(sources=[source], templates=tmp_path / "templates", formats=["canvas"])
    sink = DiagnosticSink()
    [output] = render_outputs(load_quizzes(options, sink), options, sink)
    where = {}
    for document in output.documents:
        lines = document.data.decode().splitlines()
        for number, line in enumerate(lines, 1):
            if "<tolerance>" in line and document.schema == "qti12-item":
                where[document.question_id] = f"calculated.canvas.zip#{document.question_id}:{number}:{line.index('<') + 1}"
    assert len(where) >= 5  # the fixture's calculated questions (its calculated choice has no tolerance)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", templates=tmp_path / "templates", formats=["canvas"]))
    shown = {}
    for diagnostic in failed.value.diagnostics:
        first, second = diagnostic.render().splitlines()[:2]
        assert "error[QB401]: schema: Element 'tolerance': This element is not expected. Expected is ( answer_tolerance )." in first
        shown[first.rpartition("(question '")[2].rstrip("')")] = second.strip().removeprefix("in generated file ")
    # libxml2 gives a schema error the element's line and no column (0, shown as 1).
    assert shown == {ident: place.rpartition(":")[0] + ":1" for ident, place in where.items()}


# -- the rules across a Moodle quiz backup's parts ------------------------------------------------------

BACKUP = b"""<moodle_backup><information><contents><activities><activity><moduleid>1</moduleid>
<directory>activities/quiz_1</directory></activity></activities></contents></information></moodle_backup>"""
QUESTIONS_XML = b"""<question_categories><question_category id="7"><name>Week 1</name></question_category>
<question_category id="8"><name>Week 2</name></question_category></question_categories>"""
INFOREF = b"<inforef><question_categoryref><question_category><id>7</id></question_category></question_categoryref></inforef>"
ACTIVITY = [f"activities/quiz_1/{m}" for m in ("module.xml", "quiz.xml", "roles.xml", "grades.xml", "calendar.xml",
                                               "filters.xml", "inforef.xml")]
BACKUP_NAMES = {"moodle_backup.xml", "files.xml", "questions.xml", "roles.xml", "groups.xml", "outcomes.xml", "scales.xml",
                *ACTIVITY}


def backup_diagnostics(members: list[Document], names: set[str]) -> list[tuple[str, str]]:
    sink = DiagnosticSink()
    validate_package("quiz.mbz", members, names, {}, sink)
    return [(d.message, f"{d.generated.path}:{d.generated.line}:{d.generated.column}") for d in sink.errors]


def test_a_backup_part_the_restore_would_leave_out_is_refused_at_that_part() -> None:
    """A question category that the activity's inforef.xml does not list is left out by Moodle's
    restore: refused, at the inforef file, inside the backup; a listed one passes."""
    members = [Document("moodle_backup.xml", BACKUP, "mbz-backup"), Document("questions.xml", QUESTIONS_XML, "mbz-questions"),
               Document("activities/quiz_1/inforef.xml", INFOREF, "mbz-inforef")]
    assert backup_diagnostics(members, BACKUP_NAMES) == [
        ("question category 8 is not listed: the restore would leave it out", "quiz.mbz/activities/quiz_1/inforef.xml:1:1")]
    listed = INFOREF.replace(b"</question_categoryref>", b"<question_category><id>8</id></question_category></question_categoryref>")
    assert backup_diagnostics([*members[:2], Document("activities/quiz_1/inforef.xml", listed, "mbz-inforef")], BACKUP_NAMES) == []
    # A required part missing is shown at moodle_backup.xml, or at the first part when that is missing too.
    assert backup_diagnostics([*members[1:2], *members[:1]], BACKUP_NAMES - {"scales.xml"}) == [
        ("the backup has no scales.xml, without which the restore fails", "quiz.mbz/moodle_backup.xml:1:1")]
    assert backup_diagnostics(members[1:2], BACKUP_NAMES - {"scales.xml", "moodle_backup.xml"}) == [
        ("the backup has no moodle_backup.xml, without which the restore fails", "quiz.mbz/questions.xml:1:1"),
        ("the backup has no scales.xml, without which the restore fails", "quiz.mbz/questions.xml:1:1")]


def test_a_repeated_child_moodle_reads_once_is_shown_at_the_second() -> None:
    """Moodle's importer takes the first of a repeated child and drops the others in silence: the
    second is shown, at its own line, column 1, once however many follow."""
    question = q("shortanswer", "\n<penalty>0.1</penalty>\n<penalty>0.5</penalty>\n<penalty>1</penalty>\n" + a("100", "서울"))
    tree = etree.fromstring(f"<quiz>\n{question}\n</quiz>").getroottree()
    assert list(_moodle_rules(tree)) == [
        (4, 1, "<question> has more than one <penalty>: Moodle reads the first and drops the others")]


def test_moodle_rules_are_shown_at_their_element() -> None:
    """The line shown is the element's own (a flag's, a question's), column 1."""
    wrong = [q("ordering", "\n<shownumcorrect/>\n" + a("0", "first") + a("0", "second")),
             q("multichoice", "\n<shownumcorrect>1</shownumcorrect>\n" + a("100", "a") + a("0", "b")),
             q("multichoice", a("100", "a") + a("0", "b"), name="<name><text></text></name>")]
    tree = etree.fromstring("<quiz>\n" + "\n".join(wrong) + "\n</quiz>").getroottree()
    assert list(_moodle_rules(tree)) == [
        (3, 1, "an ordering question reads <shownumcorrect> by value: write 1 or 0"),
        (6, 1, "<shownumcorrect> is on when present whatever it holds: write it empty, or leave it out"),
        (8, 1, "Moodle needs a non-empty question name")]


def test_canvas_frame_and_item_rules_are_shown_at_their_element() -> None:
    """The frame's namespace at its root, an item's ident, type and points at the item, column 1;
    an item without ident or points is reported, never a crash."""
    frame_tree = etree.ElementTree(etree.fromstring(b'<?xml version="1.0"?>\n\n<questestinterop><assessment ident="a"/>'
                                                    b"</questestinterop>"))
    assert list(canvas_rules.frame_rules(frame_tree)) == [(3, 1, (
        f'questestinterop must be in the namespace "{QTI12}" (xmlns=...): New Quizzes reads nothing of a package without it'))]
    assert list(canvas_rules.frame_rules(etree.ElementTree(etree.fromstring(f'<questestinterop xmlns="{QTI12}"/>')))) == []
    item = canvas_item(CHOICE.format(a="1001", b="1002"), question_type="choice")
    text = etree.tostring(item).replace(b'<item ident="q1"', b'\n<item ident="1q"')
    assert list(canvas_rules.item_rules(etree.ElementTree(etree.fromstring(text)))) == [
        (2, 1, "item ident '1q' must start with a letter or '_' (Canvas renames it)"),
        (2, 1, "item has no Canvas question_type (got 'choice'): Canvas would guess its type")]
    bare = etree.fromstring(text.replace(b' ident="1q"', b""))
    field = bare.find(".//qtimetadatafield[fieldlabel='points_possible']")
    field.getparent().remove(field)
    assert [m for _, _, m in canvas_rules.item_rules(etree.ElementTree(bare))] == [
        "item ident 'None' must start with a letter or '_' (Canvas renames it)",
        "item has no Canvas question_type (got 'choice'): Canvas would guess its type",
        "item has no points_possible >= 0 (got None)"]


def test_a_misplaced_canvas_extension_is_left_for_the_dtd_to_refuse() -> None:
    """Only a ``selection_extension`` inside ``selection`` is Canvas's extension, set aside for the
    DTD; one anywhere else stays, and the DTD refuses it."""
    tree = etree.ElementTree(etree.fromstring(
        f'<questestinterop xmlns="{QTI12}"><assessment ident="a"><section ident="s"><selection_ordering><selection>'
        "<selection_number>1</selection_number><selection_extension><points_per_item>1</points_per_item>"
        "</selection_extension></selection></selection_ordering><selection_extension/></section></assessment>"
        "</questestinterop>"))
    canvas_rules.dtd_view(tree)
    assert [e.getparent().tag for e in tree.iter("selection_extension")] == ["section"]


def test_every_margin_of_an_item_is_judged_and_a_margin_of_zero_is_exact() -> None:
    """After an answer without a margin, or one whose margin is refused, the next answers are
    still judged; a margin of 0 is an exact answer; a margin with one bound beside it is refused."""
    kind = "numerical_question"
    answers = ["<or>" + value("3") + bounds("3", "3") + "</or>",
               "<or>" + value("4", ' margin="a tenth"') + bounds("3.9", "4.1") + "</or>",
               "<or>" + value("5", ' margin="0.1" margintype="relative"') + bounds("4.9", "5.1") + "</or>",
               "<or>" + value("6", ' margin="0"') + bounds("6", "6") + "</or>",
               "<or>" + value("7", ' margin="0.2"') + bounds("6.9", "7.1") + "</or>",
               "<or>" + value("8", ' margin="0.1"') + '<and><varlte respident="response1">8.1</varlte></and></or>']
    assert messages(canvas_item(numerical(*answers), question_type=kind)) == [
        NOT_READ,  # the last answer's one bound is no form New Quizzes reads either
        "margin 'a tenth' of answer '4' is not a number",
        "margintype 'relative' / margin '0.1' must be absolute or percent, and not negative",
        disagrees("0.2", "absolute", "7"), disagrees("0.1", "absolute", "8")]


def test_an_answer_without_ident_and_feedback_linked_to_an_answer() -> None:
    """An answer without an ident is no feedback word (and no crash); feedback shown must be an
    ``itemfeedback``, not any element that has that ident (here the answer's own)."""
    assert messages(canvas_item(CHOICE.format(a="1001", b="1002").replace(' ident="1002"', ""))) == []
    shown = ('<respcondition continue="Yes"><conditionvar><varequal respident="response1">1001</varequal>'
             '</conditionvar><displayfeedback feedbacktype="Response" linkrefid="1001"/></respcondition>SCORING')
    assert messages(canvas_item(choice_with_conditions(shown))) == ["feedback '1001' is shown but has no itemfeedback"]


def test_a_group_read_whatever_its_draw_and_comments() -> None:
    """A draw that is not a number counts every question (Canvas's default); an empty
    ``points_per_item`` is refused as written; a comment inside a question's group is skipped."""
    drawn = frame().replace(b"<selection_number>1</selection_number>\n<selection_extension>",
                            b"<selection_number>all</selection_number>\n<selection_extension>")
    assert package_messages(drawn, meta=settings(points="8")) == []
    empty = package_messages(frame(pool_per_item=""))
    assert empty[0][1].startswith("section 'pool' gives points_per_item '', its questions are worth 2, 2")
    commented = group_document("q4", "3", "3", "3").replace(b"</selection_ordering>\n", b"</selection_ordering>\n<!-- variants -->\n")
    assert package_messages(questions={**QUESTIONS, "q4": commented}) == []
