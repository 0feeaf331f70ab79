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
