"""The test suite's reading of Moodle (tests/helpers/moodle_engine.py) against Moodle's own cases.

Each vector below is copied from Moodle's own test suite (moodle/moodle, read with the search
tools) with the place it comes from; the expected values are the ones Moodle's tests assert.
With these passing, the Moodle checks of the writer's output (tests/test_scoring.py,
tests/test_moodle_types.py) grade it as Moodle does, not as the build's own port of Moodle's
parser (``validate.cloze_subquestions``) reads it. The same vectors then run through that port,
so a difference between the build's checks and Moodle shows here too.
"""

from __future__ import annotations

import pytest
from helpers.moodle_engine import (FRACTION_OPTIONS, Answer, NotImported, extract_cloze, grade, grade_option, read_question,
                                   wildcard_match, within_tolerance)
from lxml import etree

from qti_builder.validate import cloze_subquestions

# question/type/multianswer/tests/helper.php, get_multianswer_question_form_data_twosubq() and the
# subquestions make_multianswer_question_twosubq() builds of it (13, 14, 15 / Bow-wow... fractions).
TWOSUBQ = ('Complete this opening line of verse: "The '
           '{1:SHORTANSWER:Dog#Wrong, silly!~=Owl#Well done!~*#Wrong answer} '
           'and the {1:MULTICHOICE:Bow-wow#You seem to have a dog obsessions!'
           '~Wiggly worm#Now you are just being ridiculous!~=Pussy-cat#Well done!}'
           ' went to sea".')

# question/type/multianswer/tests/question_type_test.php,
# test_questiontext_extraction_of_multiplechoice_subquestions_variants(): every multichoice type
# name, long and short, with '.' and ',' as the decimal mark of 33.33333 %.
VARIANTS = """<p>Match the following cities with the correct state:</p>
            <ul>
            <li>1 San Francisco:{1:MULTICHOICE:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>2 Tucson:{1:MC:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            <li>3 Los Angeles:{1:MULTICHOICE_S:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>4 Phoenix:{1:MCS:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            <li>5 San Francisco:{1:MULTICHOICE_H:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>6 Tucson:{1:MCH:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            <li>7 Los Angeles:{1:MULTICHOICE_HS:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>8 Phoenix:{1:MCHS:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            <li>9 San Francisco:{1:MULTICHOICE_V:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>10 Tucson:{1:MCV:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            <li>11 Los Angeles:{1:MULTICHOICE_VS:=California#OK~%33.33333%Ohio#Not really~Arizona#Wrong}</li>
            <li>12 Phoenix:{1:MCVS:%0%California#Wrong~%33,33333%Ohio#Not really~=Arizona#OK}</li>
            </ul>"""

# question/type/multianswer/tests/helper.php, make_multianswer_question_numericalzero() (MDL-35370)
# and make_multianswer_question_fourmc().
NUMERICAL_ZERO = "Enter zero: {1:NUMERICAL:=0:0}."
FOURMC = "{1:MULTICHOICE:=California#OK~Arizona#Wrong} {1:MULTICHOICE:%0%California#Wrong~=Arizona#OK}"


def test_twosubq_as_moodles_helper_builds_it() -> None:
    short, choice = extract_cloze(TWOSUBQ)
    assert (short.qtype, short.usecase, short.mark) == ("shortanswer", False, 1.0)
    assert [(a.text, a.fraction, a.feedback) for a in short.answers] == [
        ("Dog", 0.0, "Wrong, silly!"), ("Owl", 1.0, "Well done!"), ("*", 0.0, "Wrong answer")]
    assert (choice.qtype, choice.single, choice.shuffleanswers, choice.layout) == ("multichoice", True, False, "dropdown")
    assert [(a.text, a.fraction) for a in choice.answers] == [("Bow-wow", 0.0), ("Wiggly worm", 0.0), ("Pussy-cat", 1.0)]


def test_every_multichoice_variant_as_moodles_test_asserts() -> None:
    subs = extract_cloze(VARIANTS)
    assert len(subs) == 12
    for key, sub in enumerate(subs, 1):
        assert sub.qtype == "multichoice"
        assert sub.shuffleanswers is (key not in (1, 2, 5, 6, 9, 10)), key
        assert sub.layout == ("dropdown" if key <= 4 else "horizontal" if key <= 8 else "vertical"), key
        for answer in sub.answers:
            expected = {"OK": 1.0, "Wrong": 0.0, "Not really": 0.3333333}[answer.feedback]
            assert answer.fraction == pytest.approx(expected, abs=1e-7), (key, answer)


def test_numerical_zero_and_four_dropdowns() -> None:
    (zero,) = extract_cloze(NUMERICAL_ZERO)
    assert zero.qtype == "numerical" and [(a.text, a.fraction, a.tolerance) for a in zero.answers] == [("0", 1.0, 0.0)]
    first, second = extract_cloze(FOURMC)
    assert [(a.text, a.fraction) for a in first.answers] == [("California", 1.0), ("Arizona", 0.0)]
    assert [(a.text, a.fraction) for a in second.answers] == [("California", 0.0), ("Arizona", 1.0)]


def test_grading_twosubq_as_moodles_walkthrough_expects() -> None:
    """question/type/multianswer/tests/walkthrough_test.php grades twosubq out of 2: Owl and
    Pussy-cat are right; one right of two is half the mark."""
    q = read_question(etree.fromstring(f'<question type="cloze"><questiontext format="html"><text><![CDATA[{TWOSUBQ}]]>'
                                       '</text></questiontext></question>'))
    assert q.mark == 2.0
    assert grade(q, {1: "Owl", 2: "Pussy-cat"}) == 1.0
    assert grade(q, {1: "owl", 2: "Pussy-cat"}) == 1.0  # SHORTANSWER ignores case
    assert grade(q, {1: "Dog", 2: "Pussy-cat"}) == 0.5
    assert grade(q, {1: "Cat", 2: "Bow-wow"}) == 0.0  # "*" matches, worth 0


def test_what_extract_question_unescapes() -> None:
    """qtype_multianswer_extract_question: an alternative ends at ~ # } unless a backslash or an
    entity's & stands before it; then html_entity_decode, then \\} and \\# (and nothing else)."""
    (sub,) = extract_cloze("{1:SHORTANSWER:=a\\}b\\#c&#126;d&amp;e&#35;f\\~g}")
    assert [a.text for a in sub.answers] == ["a}b#c~d&e#f\\~g"]


@pytest.mark.parametrize("text", [TWOSUBQ, VARIANTS, NUMERICAL_ZERO, FOURMC])
def test_the_builds_port_reads_moodles_cases_alike(text: str) -> None:
    """validate.cloze_subquestions, the build's check, agrees with Moodle on Moodle's own cases."""
    ported = [[(round(f, 7), t) for f, t in alternatives] for _, alternatives in cloze_subquestions(text)]
    ours = [[(round(a.fraction, 7), a.text if a.tolerance is None else f"{a.text}:{a.tolerance:g}") for a in sub.answers]
            for sub in extract_cloze(text)]
    # the port keeps an alternative's raw text, feedback included: compare up to its '#'
    assert [[(f, t.split("#")[0]) for f, t in sub] for sub in ported] == ours


# -- qformat_xml and the grading rules --------------------------------------------------------------


def test_truefalse_import_as_moodles_xmlformat_test() -> None:
    """question/format/xml/tests/xmlformat_test.php, test_import_truefalse: fraction 100 on 'true'
    makes true the right answer (correctanswer 1), penalty 1."""
    q = read_question(etree.fromstring(
        '<question type="truefalse"><name><text>True false question</text></name>'
        '<questiontext format="html"><text>The answer is true.</text></questiontext>'
        '<defaultgrade>1</defaultgrade><penalty>1</penalty><hidden>0</hidden>'
        '<answer fraction="100"><text>true</text><feedback><text>Well done!</text></feedback></answer>'
        '<answer fraction="0"><text>false</text><feedback><text>Doh!</text></feedback></answer></question>'))
    assert q.penalty == 1.0 and grade(q, "true") == 1.0 and grade(q, "false") == 0.0


def test_grade_options_are_moodles() -> None:
    """question_bank::fraction_options_full(): p/q for q <= 6, p/10, 1/q for q <= 10, 1/20."""
    assert len(FRACTION_OPTIONS) == 2 + 19 * 2 + 1
    for q in range(1, 11):
        assert grade_option(1 / q) == pytest.approx(1 / q, abs=1e-7)
    assert grade_option(2 / 3) == 0.6666667 and grade_option(-0.05) == -0.05
    for bad in (0.35, 0.15, 0.66, 2 / 7):
        with pytest.raises(NotImported):
            grade_option(bad)


def test_shortanswer_wildcards_as_moodle_compares_them() -> None:
    """qtype_shortanswer_question::compare_string_with_wildcard (question/type/shortanswer/
    question.php), the cases its tests cover (question_test.php, test_compare_string_with_wildcard)."""
    assert wildcard_match("Frog", "Frog", False) and not wildcard_match("Frog", "frog", False)
    assert wildcard_match("Frog", "frog", True)
    assert wildcard_match(" Frog ", "Frog", False)  # the response is trimmed
    assert wildcard_match("Frogs", "Frog*", False) and wildcard_match("Frog", "Frog*", False)
    assert not wildcard_match("Frog", "Frog\\*", False) and wildcard_match("Frog*", "Frog\\*", False)
    assert wildcard_match("a.b", "a.b", False) and not wildcard_match("axb", "a.b", False)  # no regex
    assert wildcard_match("Frog", "F**g", False)  # a run of stars is one


def test_numerical_tolerance_as_moodle_widens_it() -> None:
    """qtype_numerical_answer::get_tolerance_interval, nominal: answer ± (tolerance + epsilon)."""
    answer = Answer("3.14", 1.0, tolerance=0.005)
    assert within_tolerance(3.145, answer) and within_tolerance(3.135, answer)
    assert not within_tolerance(3.1451, answer) and not within_tolerance(3.1349, answer)
    assert within_tolerance(0.1 + 0.2, Answer("0.3", 1.0, tolerance=0))  # MDL-3225's float noise
    assert within_tolerance(-1e9, Answer("*", 0.0))


@pytest.mark.parametrize("answer,tolerance,tolerancetype,inside,outside", [
    # question/type/numerical/tests/answer_test.php, Moodle's own vectors
    (7.0, 1.0, 2, (6, 7, 8), (5.99, 8.01)),                                    # test_within_tolerance_nominal
    (1e-20, 0.0, 2, (1e-20,), (0.9999999e-20, 1.0000001e-20)),                 # ..._nominal_zero
    (0.0, 1e-24, 2, (-1e-24, 0, 1e-24), (-2e-24, 2e-24)),
    (1e-20, 1e-24, 2, (1e-20, 1.0001e-20), (1.0002e-20,)),
    (1234, 0.0, 2, (1234,), (1234.000001, 0)),                                  # ..._blank
    (7.0, 0.1, 1, (6.3, 7, 7.7), (6.29, 7.71)),                                 # ..._relative
    (7.0, 1.0, 3, (3.5, 7, 14), (3.49, 14.01)),                                 # ..._geometric
    (-7.0, 1.0, 3, (-3.5, -7, -14), (-3.49, -14.01)),
])
def test_each_tolerance_type_as_moodle_tests_it(answer: float, tolerance: float, tolerancetype: int,
                                                inside: tuple[float, ...], outside: tuple[float, ...]) -> None:
    """qtype_numerical_answer::get_tolerance_interval for the three types a calculated answer takes
    (1 relative, 2 nominal, 3 geometric), on the cases of Moodle's own unit test."""
    given = Answer(repr(answer), 1.0, tolerance=tolerance, tolerancetype=tolerancetype)
    assert [within_tolerance(v, given) for v in inside] == [True] * len(inside)
    assert [within_tolerance(v, given) for v in outside] == [False] * len(outside)
