"""Every question kind through the Moodle XML writer: tests/fixtures/all-types.yaml built with
``formats=["moodle"]``, parsed, and checked kind by kind. The expected values are worked out by
hand from the fixture (and from what Moodle 4.5's importer reads), never taken from the output."""

from __future__ import annotations

import html as htmllib
import json
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, write
from helpers.moodle_engine import NotImported, extract_cloze, grade_option, read_question
from helpers.text import html_text
from lxml import etree, html

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed
from qti_builder.validate import _moodle_rules

FIXTURES = Path(__file__).parent / "fixtures"
TOP = "$course$/top/Every question type"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[str]]:
    out = tmp_path_factory.mktemp("moodle")
    result = build(BuildOptions(sources=[FIXTURES / "all-types.yaml"], out_dir=out, formats=["moodle"]))
    return (out / "all-types.moodle.xml").read_bytes(), [d.render() for d in result.diagnostics]


@pytest.fixture(scope="module")
def raw(built: tuple[bytes, list[str]]) -> bytes:
    return built[0]


@pytest.fixture(scope="module")
def quiz(raw: bytes) -> etree._Element:
    return etree.fromstring(raw)


@pytest.fixture(scope="module")
def by_id(quiz: etree._Element) -> dict[str, etree._Element]:
    """Questions by their model id (a question's idnumber is its id)."""
    return {q.findtext("idnumber"): q for q in quiz.findall("question") if q.get("type") != "category"}


def field(q: etree._Element, tag: str) -> str:
    return html_text(q.findtext(f"{tag}/text"))


def answers(q: etree._Element) -> list[tuple[str, str, str]]:
    """(fraction as written, visible text, visible feedback) per answer."""
    return [(a.get("fraction"), html_text(a.findtext("text")), field(a, "feedback")) for a in q.findall("answer")]


def is_grade_option(fraction: str) -> bool:
    """Does Moodle's importer take the fraction (a percentage) as one of its grade options?
    (tests/helpers/moodle_engine.py, from Moodle's match_grade_options.)"""
    try:
        grade_option(float(fraction) / 100)
    except NotImported:
        return False
    return True


# -- the document as a whole -------------------------------------------------------------------


def test_no_diagnostics(built: tuple[bytes, list[str]]) -> None:
    # The nested section's `select: 1` cannot be expressed in Moodle XML; the writer reports
    # nothing about it (the lead's warning lives elsewhere) and keeps both questions.
    assert built[1] == []


def _fixture_points() -> dict[str, float]:
    """Each question's points as the fixture writes them (1 where it says none; a text-only item
    scores nothing), read with PyYAML, not with the project's reader."""
    points: dict[str, float] = {}

    def walk(section: dict) -> None:
        for q in section.get("questions", []):
            points[q["id"]] = float(q.get("points", 0 if q["type"] == "text_only" else 1))
        for sub in section.get("sections", []):
            walk(sub)

    for section in yaml.safe_load((FIXTURES / "all-types.yaml").read_text(encoding="utf-8"))["sections"]:
        walk(section)
    return points


def test_moodle_s_importer_takes_every_question_with_the_fixture_s_points(quiz: etree._Element) -> None:
    """Read by the port of qformat_xml (helpers/moodle_engine.py), which shares nothing with the
    build's own validation: it raises NotImported for what Moodle's importer refuses."""
    expected = _fixture_points()
    imported = {}
    for question in quiz.findall("question"):
        if question.get("type") == "category":
            continue
        read = read_question(question)
        imported[question.findtext("idnumber")] = read.mark
    assert imported == expected


def test_categories_follow_the_sections_depth_first(quiz: etree._Element) -> None:
    order = [(q.get("type"), q.findtext("category/text") if q.get("type") == "category" else q.findtext("idnumber"))
             for q in quiz.findall("question")]
    assert order == [
        ("category", TOP),
        ("category", f"{TOP}/Choice questions"),
        ("multichoice", "capital"),
        ("multichoice", "primes"),
        ("truefalse", "earth-flat"),
        ("category", f"{TOP}/Open questions"),
        ("shortanswer", "author"),
        ("numerical", "pi"),
        ("numerical", "boiling"),
        ("essay", "explain"),
        ("essay", "report"),
        ("category", f"{TOP}/Structure questions"),
        ("matching", "countries"),
        ("ordering", "planets"),
        ("cloze", "sentence"),
        ("description", "intro-note"),
        # The nested section is a sub-category of its parent's; `select` keeps both questions.
        ("category", f"{TOP}/Structure questions/Nested section"),
        ("multichoice", "year"),
        ("multichoice", "year2"),
    ]


def test_every_fraction_is_a_grade_option(by_id: dict[str, etree._Element]) -> None:
    for question_id, q in by_id.items():
        if q.get("type") == "ordering":
            continue  # positions, which qtype_ordering's importer ignores (see test_ordering)
        for answer in q.findall("answer"):
            assert is_grade_option(answer.get("fraction")), (question_id, answer.get("fraction"))


def test_html_and_names_are_in_cdata(raw: bytes) -> None:
    # Outside CDATA Moodle's reader drops whitespace next to entities.
    for tag in (b"name", b"questiontext", b"generalfeedback", b"feedback", b"graderinfo", b"subquestion"):
        start = raw.find(b"<" + tag)
        assert start >= 0
        assert raw[raw.find(b"<text>", start) + 6:].startswith(b"<![CDATA["), tag


def test_names_idnumbers_tags_and_general_feedback(by_id: dict[str, etree._Element]) -> None:
    capital = by_id["capital"]
    assert capital.findtext("name/text") == "Capital of France"
    assert [t.findtext("text") for t in capital.findall("tags/tag")] == ["geography", "europe"]
    assert field(capital, "generalfeedback") == "Paris has been the capital since 987."
    # Without a title the name is the stem's text; a blank's [[marker]] becomes a gap.
    assert by_id["author"].findtext("name/text") == "Who wrote Hamlet?"
    assert by_id["sentence"].findtext("name/text") == "The ___ is the closest star to Earth; it is a ___ dwarf."
    assert all(q.find("tags") is None for key, q in by_id.items() if key != "capital")


# -- one test per kind ------------------------------------------------------------------------


def test_single_choice(by_id: dict[str, etree._Element]) -> None:
    q = by_id["capital"]
    assert q.get("type") == "multichoice"
    assert q.findtext("single") == "true"
    assert q.findtext("shuffleanswers") == "true"
    assert q.findtext("defaultgrade") == "2"
    assert field(q, "questiontext") == "What is the capital of France?"
    assert "<strong>France</strong>" in q.findtext("questiontext/text")
    assert answers(q) == [
        ("100", "Paris", "Yes, Paris."),
        ("0", "Lyon", "Lyon is the third-largest city."),
        ("0", "Marseille", ""),
        ("0", "All of the above", ""),
    ]
    assert field(q, "correctfeedback") == "Right."
    assert field(q, "partiallycorrectfeedback") == ""
    assert field(q, "incorrectfeedback") == "Not quite."
    assert q.find("shownumcorrect") is None  # one answer: nothing to count


def test_multiple_response(by_id: dict[str, etree._Element]) -> None:
    q = by_id["primes"]
    assert q.get("type") == "multichoice"
    assert q.findtext("single") == "false"
    assert q.findtext("defaultgrade") == "3"
    # 2, 3 and 5 are the primes: each earns 100/3 %. With negative marking the two wrong
    # choices (4, 9) share -100 %: -50 % each.
    assert answers(q) == [
        ("33.33333", "2", ""),
        ("33.33333", "3", ""),
        ("-50", "4", ""),
        ("33.33333", "5", ""),
        ("-50", "9", ""),
    ]
    assert field(q, "partiallycorrectfeedback") == "Some are right."
    assert q.find("shownumcorrect") is not None and not (q.findtext("shownumcorrect") or "")


def test_true_false(by_id: dict[str, etree._Element]) -> None:
    q = by_id["earth-flat"]
    assert q.get("type") == "truefalse"
    # The answer is false: "false" is worth 100 %. Each answer carries its own feedback.
    assert answers(q) == [("0", "true", "It is not."), ("100", "false", "Correct, it is round.")]
    assert q.findtext("penalty") == "1"


def test_short_answer(by_id: dict[str, etree._Element]) -> None:
    q = by_id["author"]
    assert q.get("type") == "shortanswer"
    assert q.findtext("usecase") == "0"  # case_sensitive: false
    # The * stays Moodle's wildcard. No incorrect feedback, so no catch-all answer.
    assert answers(q) == [
        ("100", "Shakespeare", ""),
        ("100", "William Shakespeare", ""),
        ("50", "*speare", "Spelling counts."),
    ]


def test_numerical_with_absolute_and_percent_tolerances(by_id: dict[str, etree._Element]) -> None:
    q = by_id["pi"]
    assert q.get("type") == "numerical"
    # 3.14 +- 0.005 as it is; 3 +- 5 % is 2.85..3.15, Moodle's absolute tolerance 0.15.
    got = [(a.get("fraction"), a.findtext("text"), a.findtext("tolerance"), field(a, "feedback"))
           for a in q.findall("answer")]
    assert got == [("100", "3.14", "0.005", ""), ("50", "3", "0.15", "Close.")]
    assert q.find("units") is None
    assert q.findtext("showunits") == "3"  # no unit: Moodle shows no unit field


def test_numerical_with_a_unit(by_id: dict[str, etree._Element]) -> None:
    q = by_id["boiling"]
    got = [(a.get("fraction"), a.findtext("text"), a.findtext("tolerance")) for a in q.findall("answer")]
    assert got == [("100", "100", "0")]
    units = [(u.findtext("unit_name"), u.findtext("multiplier")) for u in q.findall("units/unit")]
    assert units == [("°C", "1")]
    # Units optional (typed with the number, never penalised), the unit after the number.
    assert (q.findtext("showunits"), q.findtext("unitgradingtype"), q.findtext("unitsleft")) == ("0", "0", "0")


def test_essay(by_id: dict[str, etree._Element]) -> None:
    q = by_id["explain"]
    assert q.get("type") == "essay"
    assert q.findtext("defaultgrade") == "5"
    got = {tag: q.findtext(tag) for tag in ("responseformat", "responserequired", "responsefieldlines", "minwordlimit",
                                            "maxwordlimit", "attachments", "attachmentsrequired", "filetypeslist")}
    assert got == {"responseformat": "plain", "responserequired": "1", "responsefieldlines": "10",
                   "minwordlimit": "50", "maxwordlimit": "300", "attachments": "0", "attachmentsrequired": "0",
                   "filetypeslist": ""}
    assert field(q, "graderinfo") == "A function that calls itself, with a base case."


def test_file_upload(by_id: dict[str, etree._Element]) -> None:
    q = by_id["report"]
    assert q.get("type") == "essay"
    assert q.findtext("defaultgrade") == "10"
    got = {tag: q.findtext(tag) for tag in ("responseformat", "responserequired", "attachments",
                                            "attachmentsrequired", "filetypeslist")}
    assert got == {"responseformat": "noinline", "responserequired": "0", "attachments": "2",
                   "attachmentsrequired": "1", "filetypeslist": ".pdf,.docx"}
    assert field(q, "graderinfo") == "Check the method section."


def test_matching(by_id: dict[str, etree._Element]) -> None:
    q = by_id["countries"]
    assert q.get("type") == "matching"
    assert q.findtext("defaultgrade") == "3"
    assert q.findtext("shuffleanswers") == "true"
    subquestions = [(html_text(s.findtext("text")), s.findtext("answer/text")) for s in q.findall("subquestion")]
    # The distractor is a subquestion without text, as Moodle's own export writes it.
    assert subquestions == [("France", "Paris"), ("Germany", "Berlin"), ("Italy", "Rome"), ("", "Madrid")]
    assert q.find("shownumcorrect") is not None
    assert q.find("answer") is None


def test_ordering(by_id: dict[str, etree._Element]) -> None:
    q = by_id["planets"]
    assert q.get("type") == "ordering"  # qtype_ordering is in core since Moodle 4.4
    assert q.findtext("defaultgrade") == "2"
    # The correct order is the answers' order; the fractions echo the positions as Moodle's export does.
    assert [(a.get("fraction"), html_text(a.findtext("text"))) for a in q.findall("answer")] == [
        ("1", "Mercury"), ("2", "Venus"), ("3", "Earth"), ("4", "Mars")]
    settings = {tag: q.findtext(tag) for tag in ("layouttype", "selecttype", "selectcount", "gradingtype",
                                                 "showgrading", "numberingstyle", "shownumcorrect")}
    assert settings == {"layouttype": "VERTICAL", "selecttype": "ALL", "selectcount": "4",
                        "gradingtype": "ALL_OR_NOTHING", "showgrading": "SHOW", "numberingstyle": "none",
                        "shownumcorrect": "1"}


def test_fill_in_blank(by_id: dict[str, etree._Element]) -> None:
    q = by_id["sentence"]
    assert q.get("type") == "cloze"
    # b1: a text blank, case-insensitive, both spellings right. b2: a drop-down, 'yellow' right,
    # 'red' and 'white' wrong, shuffled by Moodle (MULTICHOICE_S). The 2 points are shared: 1 each.
    assert q.findtext("questiontext/text") == (
        "<p>The {1:SHORTANSWER:=Sun~=sun} is the closest star to Earth; "
        "it is a {1:MULTICHOICE_S:=yellow~red~white} dwarf.</p>")
    assert q.findtext("defaultgrade") == "2"
    # What Moodle's parser finds there (tests/helpers/moodle_engine.py, checked on Moodle's own cases).
    text_blank, dropdown = extract_cloze(q.findtext("questiontext/text"))
    assert (text_blank.qtype, text_blank.usecase, text_blank.mark) == ("shortanswer", False, 1.0)
    assert [(a.text, a.fraction) for a in text_blank.answers] == [("Sun", 1.0), ("sun", 1.0)]
    assert (dropdown.qtype, dropdown.shuffleanswers, dropdown.layout, dropdown.mark) == ("multichoice", True, "dropdown", 1.0)
    assert [(a.text, a.fraction) for a in dropdown.answers] == [("yellow", 1.0), ("red", 0.0), ("white", 0.0)]


def test_text_only(by_id: dict[str, etree._Element]) -> None:
    q = by_id["intro-note"]
    assert q.get("type") == "description"
    assert field(q, "questiontext") == "The next section is about history."
    assert (q.findtext("defaultgrade"), q.findtext("penalty")) == ("0", "0")


def test_nested_section_questions(by_id: dict[str, etree._Element]) -> None:
    assert answers(by_id["year"]) == [("100", "1989", ""), ("0", "1991", "")]
    assert answers(by_id["year2"]) == [("100", "1945", ""), ("0", "1944", "")]


# -- what Moodle cannot take --------------------------------------------------------------------


def test_what_moodle_cannot_store_is_reported_at_the_question(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[FIXTURES / "moodle-limits.yaml"], out_dir=out, formats=["moodle"]))
    assert not out.exists()
    found = [(d.severity.value, d.code, d.span.line, d.span.column, d.message) for d in failed.value.diagnostics]
    assert [f[:4] for f in found] == [
        ("error", "QB321", 9, 9),      # eleven right choices: 100/11 = 9.09091 %, no grade option
        ("error", "QB321", 25, 9),     # a 35 % answer
        ("warning", "QB323", 31, 9),   # 3 points over 2 blanks: Moodle's weights are whole numbers
        # (a drop-down blank with a single choice is refused earlier, by the model: tests/test_model.py)
    ]
    assert "9.09091 % (choices A, B, C, D, E, F, G, H, I, J, K; nearest option 10 %)" in found[0][4]
    assert "35 % (answer 'pink'; nearest option 33.33333 %)" in found[1][4]
    assert "it will be worth 2" in found[2][4]


def test_grade_options_that_round_are_written_as_moodle_lists_them(tmp_path: Path) -> None:
    # 3, 6, 7 and 9 right choices: 33.33333, 16.66667, 14.28571 and 11.11111 %.
    questions = "".join(
        f"      - type: multiple_response\n        id: q{n}\n        stem: Pick {n}.\n        choices:\n"
        + "".join(f"          - {{id: c{i}, text: '{i}', correct: true}}\n" for i in range(n))
        + "          - {id: wrong, text: none}\n"
        for n in (3, 6, 7, 9))
    source = write(tmp_path, "mr.yaml", f"id: mr\ntitle: MR\nsections:\n  - id: s\n    title: S\n    questions:\n{questions}")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    tree = etree.parse(str(tmp_path / "dist" / "mr.moodle.xml"))
    fractions = {q.findtext("idnumber"): sorted({a.get("fraction") for a in q.findall("answer")})
                 for q in tree.getroot().findall("question") if q.get("type") == "multichoice"}
    # The wrong choice takes one right choice's share away (the default scoring).
    assert fractions == {"q3": ["-33.33333", "33.33333"], "q6": ["-16.66667", "16.66667"],
                         "q7": ["-14.28571", "14.28571"], "q9": ["-11.11111", "11.11111"]}
    assert list(_moodle_rules(tree)) == []


def test_feedback_without_a_home_in_moodle_goes_to_the_answers(tmp_path: Path) -> None:
    """Short-answer, numerical and true/false questions have no combined feedback in Moodle: the
    correct/partial feedback goes to answers without their own, the incorrect feedback to a
    catch-all * answer worth 0 (or to the wrong true/false answer)."""
    source = write(tmp_path, "fb.yaml", """id: fb
title: Feedback
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: sa
        stem: Capital of Italy?
        feedback: {correct: Well done., partially_correct: Almost., incorrect: No.}
        answers:
          - {text: Rome, score: 100}
          - {text: Roma, score: 50}
          - {text: Rom, score: 50, feedback: Spelling!}
      - type: numerical
        id: num
        stem: 2 + 2?
        feedback: {incorrect: Count again.}
        answers:
          - {value: 4}
      - type: true_false
        id: tf
        stem: Water is wet.
        answer: true
        feedback: {correct: Yes., incorrect: It is.}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    tree = etree.parse(str(tmp_path / "dist" / "fb.moodle.xml"))
    got = {q.findtext("idnumber"): answers(q) for q in tree.getroot().findall("question") if q.get("type") != "category"}
    assert got == {
        "sa": [("100", "Rome", "Well done."), ("50", "Roma", "Almost."), ("50", "Rom", "Spelling!"),
                  ("0", "*", "No.")],
        "num": [("100", "4", ""), ("0", "*", "Count again.")],
        "tf": [("100", "true", "Yes."), ("0", "false", "It is.")],
    }
    assert list(_moodle_rules(tree)) == []


def test_cloze_answers_with_special_characters_survive_moodles_parser(tmp_path: Path) -> None:
    tricky = ["a}b", "c#d", "e~f", "g/h", 'i"j', "k\\l", "m&n", "o<p>", "=q", "%50%r", "s*t", "R&", "u\\"]
    source = write(tmp_path, "cloze.yaml", f"""id: cz
title: Cloze
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: tricky
        points: 2
        case_sensitive: true
        stem: "A {{1:SA:=trap}} in the text, then [[t]] and [[d]]."
        blanks:
          - {{id: t, answers: {json.dumps(tricky)}}}
          - {{id: d, kind: dropdown, answers: ["<b>"], options: {json.dumps(tricky)}}}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    tree = etree.parse(str(tmp_path / "dist" / "cz.moodle.xml"))
    assert list(_moodle_rules(tree)) == []
    text = tree.find("question[@type='cloze']/questiontext/text").text
    text_blank, dropdown = extract_cloze(text)  # the "{1:SA:" of the stem is not one
    assert (text_blank.qtype, text_blank.usecase, dropdown.qtype, dropdown.shuffleanswers) == ("shortanswer", True, "multichoice", True)
    # A text blank stores plain text, with a literal * escaped for Moodle's wildcard matching.
    assert [(a.fraction, a.text) for a in text_blank.answers] == [(1.0, t.replace("*", "\\*")) for t in tricky]
    # A drop-down stores HTML: the texts come back HTML-escaped.
    assert [(a.fraction, a.text) for a in dropdown.answers] == (
        [(1.0, "&lt;b&gt;")] + [(0.0, htmllib.escape(t, quote=False)) for t in tricky])
    assert "A &#123;1:SA:=trap} in the text" in text


def test_a_questions_idnumber_is_its_id_however_long_the_quiz_id(tmp_path: Path) -> None:
    """A question's ID number is its id, unique in its category: an ID number a Moodle export gave
    (W3-Q1) comes back unchanged through import and build."""
    quiz_id, question_id = "q" * 60, "x" * 50  # 60 + 1 + 50 = 111 > Moodle's 100 characters
    source = write(tmp_path, "long.yaml", f"""id: {quiz_id}
title: Long
sections:
  - id: s
    title: S
    questions:
      - {{type: essay, id: {question_id}, stem: "Why?"}}
      - {{type: essay, id: short, stem: "Why not?"}}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    tree = etree.parse(str(tmp_path / "dist" / f"{quiz_id}.moodle.xml"))
    ids = [q.findtext("idnumber") for q in tree.getroot().findall("question") if q.get("type") == "essay"]
    assert ids == [question_id, "short"]
