"""The validation gate's rules, each seen to refuse what breaks a package in Canvas or Moodle 4.5
(with the message a user reads) and to accept what the LMS reads right: written for the mutants of
validate.py and canvas_rules.py that no other test noticed (tests/README.md, "Mutation testing").

The documents here are written by hand, as Canvas's exporter and Moodle's writer lay them out, so
that each rule is judged on an input whose meaning is known without the project's writers."""

from __future__ import annotations

from lxml import etree

from qti_builder import canvas_rules


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
    return [message for _, _, message in canvas_rules.item_rules(tree)]


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
