"""Tests for the project's own Moodle XML schema, schemas/moodle-xml.xsd.

The sample documents are written by hand after the shape of Moodle 4.5's own export
(question/format/xml/format.php and the fixtures in question/format/xml/tests/fixtures):
a comment before each question, HTML text in CDATA, fractions as percentages.
Each invalid case changes exactly one thing in the valid quiz, so a failure can only
come from that change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from qti_builder.validate import _moodle_rules

XSD_PATH = Path(__file__).parent.parent / "schemas" / "moodle-xml.xsd"


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD_PATH)))


def errors(schema: etree.XMLSchema, xml: str) -> list[str]:
    """Validate ``xml``; return the schema's error messages (empty when valid)."""
    doc = etree.fromstring(xml.encode("utf-8"))
    if schema.validate(doc):
        return []
    return [e.message for e in schema.error_log]


def mutate(xml: str, old: str, new: str) -> str:
    """Replace the single occurrence of ``old`` (fails loudly if the sample changed)."""
    assert xml.count(old) == 1, f"{old!r} occurs {xml.count(old)} times in the sample"
    return xml.replace(old, new)


VALID_QUIZ = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 0  -->
  <question type="category">
    <category>
      <text>$course$/top/Week 1</text>
    </category>
    <info format="html">
      <text></text>
    </info>
    <idnumber></idnumber>
  </question>

<!-- question: 101  -->
  <question type="multichoice">
    <name>
      <text>Capital of France</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p>What is the capital of <b>France</b>?</p>]]></text>
    </questiontext>
    <generalfeedback format="html">
      <text><![CDATA[<p>Paris has been the capital since 987 &amp; later.</p>]]></text>
    </generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber>geo.capital-fr</idnumber>
    <single>true</single>
    <shuffleanswers>true</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <showstandardinstruction>0</showstandardinstruction>
    <correctfeedback format="html">
      <text>Your answer is correct.</text>
    </correctfeedback>
    <partiallycorrectfeedback format="html">
      <text>Your answer is partially correct.</text>
    </partiallycorrectfeedback>
    <incorrectfeedback format="html">
      <text>Your answer is incorrect.</text>
    </incorrectfeedback>
    <shownumcorrect/>
    <answer fraction="100" format="html">
      <text><![CDATA[<p>Paris</p>]]></text>
      <feedback format="html">
        <text><![CDATA[<p>Right.</p>]]></text>
      </feedback>
    </answer>
    <answer fraction="0" format="html">
      <text><![CDATA[<p>Lyon</p>]]></text>
      <feedback format="html">
        <text><![CDATA[<p>Lyon is the third largest city.</p>]]></text>
      </feedback>
    </answer>
  </question>

<!-- question: 102  -->
  <question type="essay">
    <name>
      <text>Explain photosynthesis</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p>Explain photosynthesis in your own words.</p>]]></text>
    </questiontext>
    <generalfeedback format="html">
      <text></text>
    </generalfeedback>
    <defaultgrade>5</defaultgrade>
    <penalty>0</penalty>
    <hidden>0</hidden>
    <idnumber>bio.photosynthesis</idnumber>
    <responseformat>editor</responseformat>
    <responserequired>1</responserequired>
    <responsefieldlines>15</responsefieldlines>
    <minwordlimit></minwordlimit>
    <maxwordlimit></maxwordlimit>
    <attachments>0</attachments>
    <attachmentsrequired>0</attachmentsrequired>
    <maxbytes>0</maxbytes>
    <filetypeslist></filetypeslist>
    <graderinfo format="html">
      <text><![CDATA[<p>Look for light, water and CO<sub>2</sub>.</p>]]></text>
    </graderinfo>
    <responsetemplate format="html">
      <text><![CDATA[<p>Photosynthesis is ...</p>]]></text>
    </responsetemplate>
  </question>

</quiz>
"""


# Every other core type, with the optional parts Moodle's exporter writes (hints, tags,
# embedded files, units), in an order different from the exporter's for some children.
ALL_CORE_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Everything</text></category>
    <info format="moodle_auto_format"><text>All core types</text></info>
    <idnumber>cat-everything</idnumber>
  </question>

  <question type="truefalse">
    <name><text>Moodle acronym</text></name>
    <questiontext format="html">
      <text><![CDATA[<p><img src="@@PLUGINFILE@@/logo%20small.png" alt=""/> Moodle is an acronym.</p>]]>
      </text>
      <file name="logo small.png" path="/" encoding="base64">iVBORw0KGgo=</file>
    </questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>1.0000000</penalty>
    <hidden>0</hidden>
    <idnumber></idnumber>
    <answer fraction="100" format="moodle_auto_format">
      <text>true</text>
      <feedback format="html"><text>Yes.</text></feedback>
    </answer>
    <answer fraction="0" format="moodle_auto_format">
      <text>false</text>
      <feedback format="html">
        <file name="no.txt" path="/sub/dir/" encoding="base64">
          TW9v
          ZGxl
        </file>
        <text>No.</text>
      </feedback>
    </answer>
  </question>

  <question type="shortanswer">
    <name><text>Greek letters</text></name>
    <questiontext format="plain_text"><text>Alpha, ____, Gamma</text></questiontext>
    <usecase>0</usecase>
    <answer fraction="100" format="moodle_auto_format">
      <text>Beta</text>
      <feedback format="html"><text>Well done!</text></feedback>
    </answer>
    <answer fraction="-33.33333" format="moodle_auto_format">
      <text>*</text>
    </answer>
    <hint format="html"><text>Think of the alphabet.</text></hint>
    <tags>
      <tag><text>greek</text></tag>
      <tag><text>letters</text></tag>
    </tags>
  </question>

  <question type="numerical">
    <name><text>The answer</text></name>
    <questiontext format="markdown"><text>What is 6 * 7?</text></questiontext>
    <defaultgrade>2</defaultgrade>
    <answer fraction="100" format="plain_text">
      <text>42</text>
      <tolerance>0.001</tolerance>
      <feedback format="html"><text>Well done!</text></feedback>
    </answer>
    <answer fraction="0" format="plain_text">
      <text>*</text>
      <feedback format="html"><text>No.</text></feedback>
      <tolerance></tolerance>
    </answer>
    <units>
      <unit>
        <multiplier>1</multiplier>
        <unit_name>m</unit_name>
      </unit>
      <unit>
        <unit_name>km</unit_name>
        <multiplier>1.0E-3</multiplier>
      </unit>
    </units>
    <unitgradingtype>0</unitgradingtype>
    <unitpenalty>0.1000000</unitpenalty>
    <showunits>3</showunits>
    <unitsleft>0</unitsleft>
    <instructions format="html"><text></text></instructions>
  </question>

  <question type="matching">
    <name><text>Letters</text></name>
    <questiontext format="html"><text>Match the upper and lower case letters.</text></questiontext>
    <shuffleanswers>false</shuffleanswers>
    <correctfeedback format="html"><text>Well done.</text></correctfeedback>
    <partiallycorrectfeedback format="html"><text>Not entirely.</text></partiallycorrectfeedback>
    <incorrectfeedback format="html"><text>Completely wrong!</text></incorrectfeedback>
    <subquestion format="html">
      <text>A</text>
      <answer><text>a</text></answer>
    </subquestion>
    <subquestion format="html">
      <answer><text>b</text></answer>
      <text>B</text>
    </subquestion>
    <subquestion format="html">
      <text></text>
      <answer><text>d</text></answer>
    </subquestion>
    <hint format="html">
      <text>Hint 1</text>
      <shownumcorrect/>
    </hint>
    <hint format="html">
      <text></text>
      <shownumcorrect/>
      <clearwrong/>
    </hint>
  </question>

  <question type="multichoice">
    <name><text>Even numbers</text></name>
    <questiontext format="html"><text>Which are even?</text></questiontext>
    <single>false</single>
    <shuffleanswers>0</shuffleanswers>
    <answernumbering>ABCD</answernumbering>
    <showstandardinstruction>1</showstandardinstruction>
    <answer fraction="50"><text>2</text></answer>
    <answer fraction="50"><text>4</text></answer>
    <answer fraction="-100"><text>3</text></answer>
  </question>

  <question type="cloze">
    <name><text>Owl</text></name>
    <questiontext format="html">
      <text><![CDATA[The {1:SHORTANSWER:=Owl#Well done!~*#Wrong} and the pussy-cat]]></text>
    </questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber></idnumber>
    <hint format="html"><text>Edward Lear</text></hint>
  </question>

  <question type="description">
    <name><text>Read this first</text></name>
    <questiontext format="html"><text><![CDATA[<p>Instructions.</p>]]></text></questiontext>
    <defaultgrade>0</defaultgrade>
    <penalty>0</penalty>
    <hidden>0</hidden>
  </question>

  <question type="essay">
    <name><text>Upload</text></name>
    <questiontext format="html"><text>Upload your work.</text></questiontext>
    <responseformat>noinline</responseformat>
    <responserequired>0</responserequired>
    <responsefieldlines>10</responsefieldlines>
    <minwordlimit>10</minwordlimit>
    <maxwordlimit>500</maxwordlimit>
    <attachments>-1</attachments>
    <attachmentsrequired>1</attachmentsrequired>
    <maxbytes>52428800</maxbytes>
    <filetypeslist>.pdf,.docx</filetypeslist>
    <graderinfo format="html"><text></text></graderinfo>
    <responsetemplate format="html"><text></text></responsetemplate>
  </question>
</quiz>
"""


def test_schema_compiles() -> None:
    etree.XMLSchema(etree.parse(str(XSD_PATH)))


def test_valid_quiz_validates(schema: etree.XMLSchema) -> None:
    assert errors(schema, VALID_QUIZ) == []


def test_all_core_types_validate(schema: etree.XMLSchema) -> None:
    assert errors(schema, ALL_CORE_TYPES) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("<answernumbering>abc<", "<answernumbering>none<", id="answernumbering-none"),
        pytest.param("<single>true</single>", "<single>1</single>", id="single-as-1"),
        pytest.param("<shuffleanswers>true<", "<shuffleanswers>false<", id="shuffleanswers-false"),
        pytest.param('<info format="html">', '<info format="wiki_like">', id="format-wiki_like"),
        pytest.param('fraction="0" format="html"', 'fraction="-33.33333" format="html"', id="negative-fraction"),
        pytest.param("<responseformat>editor<", "<responseformat>editorfilepicker<", id="editorfilepicker"),
        pytest.param('<question type="essay">', '<question type="match">', id="type-alias-match"),
    ],
)
def test_accepted_variants(schema: etree.XMLSchema, old: str, new: str) -> None:
    assert errors(schema, mutate(VALID_QUIZ, old, new)) == []


INVALID_CASES = [
    # (id, old, new, text the error message must contain)
    ("unknown-question-type", '<question type="multichoice">', '<question type="multichoic">', "type"),
    ("unknown-child-element", "<single>true</single>", "<single>true</single><layout>0</layout>", "layout"),
    ("non-numeric-fraction", 'fraction="100" format="html"', 'fraction="full" format="html"', "fraction"),
    ("answer-without-fraction", '<answer fraction="0" format="html">', '<answer format="html">', "fraction"),
    ("answernumbering-xyz", "<answernumbering>abc<", "<answernumbering>xyz<", "answernumbering"),
    (
        "text-field-without-text",
        '<generalfeedback format="html">\n      <text></text>\n    </generalfeedback>',
        '<generalfeedback format="html">\n    </generalfeedback>',
        "generalfeedback",
    ),
    # Further mistakes the schema is meant to catch.
    ("question-without-type", '<question type="essay">', "<question>", "'type' is required"),
    ("fraction-out-of-range", 'fraction="100" format="html"', 'fraction="150" format="html"', "fraction"),
    ("format-in-capitals", '<info format="html">', '<info format="HTML">', "format"),
    ("boolean-spelled-yes", "<single>true</single>", "<single>yes</single>", "single"),
    ("int-flag-as-false", "<showstandardinstruction>0<", "<showstandardinstruction>false<", "showstandard"),
    # <shownumcorrect>0</shownumcorrect> passes the schema (qtype_ordering reads the value) and is
    # refused by the Moodle rules for the other types: see test_shownumcorrect_by_type.
    ("shownumcorrect-yes", "<shownumcorrect/>", "<shownumcorrect>yes</shownumcorrect>", "shownumcorrect"),
    ("unknown-responseformat", "<responseformat>editor<", "<responseformat>rich<", "responseformat"),
    ("padded-responseformat", "<responseformat>editor<", "<responseformat> editor <", "responseformat"),
    ("padded-question-type", '<question type="essay">', '<question type=" essay">', "type"),
    ("non-integer-fieldlines", "<responsefieldlines>15<", "<responsefieldlines>many<", "responsefieldlines"),
    ("penalty-above-one", "<penalty>0.3333333<", "<penalty>33.3<", "penalty"),
    (
        "markup-inside-text",
        "<text>Your answer is correct.</text>",
        "<text><p>Your answer is correct.</p></text>",
        "Element content is not allowed",
    ),
    ("answer-without-text", "<text><![CDATA[<p>Lyon</p>]]></text>\n", "", "answer"),
    (
        "category-as-bare-string",
        "<category>\n      <text>$course$/top/Week 1</text>\n    </category>",
        "<category>$course$/top/Week 1</category>",
        "category",
    ),
    ("tag-without-text", "<filetypeslist></filetypeslist>", "<tags><tag>x</tag></tags>", "tag"),
    ("stray-text-in-question", "<penalty>0</penalty>", "<penalty>0</penalty> oops", "Character content"),
]


@pytest.mark.parametrize(
    ("old", "new", "mentions"),
    [pytest.param(old, new, mentions, id=case_id) for case_id, old, new, mentions in INVALID_CASES],
)
def test_invalid_documents_fail(schema: etree.XMLSchema, old: str, new: str, mentions: str) -> None:
    found = errors(schema, mutate(VALID_QUIZ, old, new))
    assert found, "expected the schema to reject this document"
    assert any(mentions in message for message in found), found


def test_file_needs_a_name_and_a_slash_path(schema: etree.XMLSchema) -> None:
    old = '<file name="logo small.png" path="/" encoding="base64">'
    assert errors(schema, mutate(ALL_CORE_TYPES, old, '<file path="/" encoding="base64">'))
    assert errors(schema, mutate(ALL_CORE_TYPES, old, '<file name="logo small.png" path="img">'))


def test_subquestion_needs_exactly_one_answer(schema: etree.XMLSchema) -> None:
    old = "<answer><text>d</text></answer>"
    assert errors(schema, mutate(ALL_CORE_TYPES, old, ""))
    assert errors(schema, mutate(ALL_CORE_TYPES, old, old + old))


def test_empty_quiz_fails(schema: etree.XMLSchema) -> None:
    assert errors(schema, "<quiz><!-- question: 0 --></quiz>")


def test_other_root_fails(schema: etree.XMLSchema) -> None:
    assert errors(schema, "<text>hello</text>")


def rule_messages(xml: str) -> list[str]:
    return [message for _, _, message in _moodle_rules(etree.fromstring(xml.encode("utf-8")).getroottree())]


def test_all_core_types_pass_the_moodle_rules() -> None:
    assert rule_messages(ALL_CORE_TYPES) == []
    assert rule_messages(VALID_QUIZ) == []


def test_hint_shownumcorrect_stays_a_flag(schema: etree.XMLSchema) -> None:
    old = "<text>Hint 1</text>\n      <shownumcorrect/>"
    assert errors(schema, mutate(ALL_CORE_TYPES, old, "<text>Hint 1</text><shownumcorrect>1</shownumcorrect>"))


# An ordering question (qtype_ordering, core since Moodle 4.4) as its export_to_xml() writes it,
# after question/type/ordering/tests/fixtures/testexport.moodle.xml: the answers' fractions are the
# items' positions, and <shownumcorrect> holds a value.
ORDERING = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 123  -->
  <question type="ordering">
    <name><text>Moodle</text></name>
    <questiontext format="html"><text>Put these words in order.</text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber>myid</idnumber>
    <layouttype>VERTICAL</layouttype>
    <selecttype>RANDOM</selecttype>
    <selectcount>2</selectcount>
    <gradingtype>ABSOLUTE_POSITION</gradingtype>
    <showgrading>SHOW</showgrading>
    <numberingstyle>none</numberingstyle>
    <correctfeedback format="html"><text>Well done!</text></correctfeedback>
    <partiallycorrectfeedback format="html"><text>Parts.</text></partiallycorrectfeedback>
    <incorrectfeedback format="html"><text>No.</text></incorrectfeedback>
    <shownumcorrect>1</shownumcorrect>
    <answer fraction="1.0000000" format="html">
      <text>Modular</text>
      <feedback format="html"><text>Modular is correct.</text></feedback>
    </answer>
    <answer fraction="2.0000000" format="html"><text>Object</text></answer>
    <answer fraction="3.0000000" format="html"><text>Oriented</text></answer>
    <hint format="html"><text>Hint 1</text></hint>
  </question>
</quiz>
"""


def test_ordering_validates(schema: etree.XMLSchema) -> None:
    assert errors(schema, ORDERING) == []
    # Positions are not grade options, and need not be: the importer resets them.
    assert rule_messages(ORDERING) == []


@pytest.mark.parametrize(
    ("old", "new", "mentions"),
    [
        pytest.param("<layouttype>VERTICAL<", "<layouttype>DIAGONAL<", "layouttype", id="layouttype-unknown"),
        pytest.param("<layouttype>VERTICAL<", "<layouttype> VERTICAL <", "layouttype", id="layouttype-padded"),
        pytest.param("<selecttype>RANDOM<", "<selecttype>SOME<", "selecttype", id="selecttype-unknown"),
        pytest.param("<selectcount>2<", "<selectcount>two<", "selectcount", id="selectcount-not-a-number"),
        pytest.param("<gradingtype>ABSOLUTE_POSITION<", "<gradingtype>RELATIVE<", "gradingtype", id="gradingtype-vague"),
        pytest.param("<showgrading>SHOW<", "<showgrading>MAYBE<", "showgrading", id="showgrading-unknown"),
        pytest.param("<numberingstyle>none<", "<numberingstyle>NONE<", "numberingstyle", id="numberingstyle-case"),
    ],
)
def test_invalid_ordering_fails(schema: etree.XMLSchema, old: str, new: str, mentions: str) -> None:
    found = errors(schema, mutate(ORDERING, old, new))
    assert any(mentions in message for message in found), found


def test_shownumcorrect_by_type(schema: etree.XMLSchema) -> None:
    """Every type but ordering switches the option on by the element's presence; ordering reads
    its value, so an empty element there switches it OFF."""
    multichoice_zero = mutate(VALID_QUIZ, "<shownumcorrect/>", "<shownumcorrect>0</shownumcorrect>")
    assert errors(schema, multichoice_zero) == []
    assert rule_messages(multichoice_zero) == [
        "<shownumcorrect> is on when present whatever it holds: write it empty, or leave it out"]
    ordering_empty = mutate(ORDERING, "<shownumcorrect>1</shownumcorrect>", "<shownumcorrect/>")
    assert errors(schema, ordering_empty) == []
    assert rule_messages(ordering_empty) == ["an ordering question reads <shownumcorrect> by value: write 1 or 0"]


#: A child Moodle reads once, written twice: the rules refuse it (validate.SINGLE_VALUED; the
#: schema leaves it to them). (id, sample, old, new, the repeated element, its parent)
REPEATED_CASES = [
    ("shownumcorrect-twice", "VALID_QUIZ", "<shownumcorrect/>", "<shownumcorrect/><shownumcorrect/>", "shownumcorrect", "question"),
    ("questiontext-twice", "VALID_QUIZ", "<idnumber>geo.capital-fr</idnumber>",
     "<idnumber>geo.capital-fr</idnumber><questiontext><text>Again?</text></questiontext>", "questiontext", "question"),
    ("answer-feedback-twice", "VALID_QUIZ", "<text><![CDATA[<p>Lyon</p>]]></text>",
     "<text><![CDATA[<p>Lyon</p>]]></text><feedback><text>Also wrong.</text></feedback>", "feedback", "answer"),
    ("gradingtype-twice", "ORDERING", "<gradingtype>ABSOLUTE_POSITION</gradingtype>",
     "<gradingtype>ABSOLUTE_POSITION</gradingtype><gradingtype>ALL_OR_NOTHING</gradingtype>", "gradingtype", "question"),
]


@pytest.mark.parametrize(("sample", "old", "new", "tag", "parent"),
                         [pytest.param(*case[1:], id=case[0]) for case in REPEATED_CASES])
def test_a_repeated_single_valued_child_is_refused(schema: etree.XMLSchema, sample: str, old: str, new: str, tag: str,
                                                     parent: str) -> None:
    xml = mutate(globals()[sample], old, new)
    assert rule_messages(xml) == [f"<{parent}> has more than one <{tag}>: Moodle reads the first and drops the others"]
    assert rule_messages(globals()[sample]) == []  # the sample itself has none


def test_a_repeated_child_is_reported_once_at_its_second_line() -> None:
    xml = mutate(VALID_QUIZ, "<shownumcorrect/>", "<shownumcorrect/>\n<shownumcorrect/>\n<shownumcorrect/>")
    tree = etree.fromstring(xml.encode("utf-8")).getroottree()
    found = [(line, message) for line, _, message in _moodle_rules(tree) if "shownumcorrect" in message]
    second = next(e.sourceline for e in tree.iter("shownumcorrect")) + 1
    assert found == [(second, "<question> has more than one <shownumcorrect>: Moodle reads the first and drops the others")]
