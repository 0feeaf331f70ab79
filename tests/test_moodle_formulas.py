"""Every formula of a calculated question reaches Moodle in Moodle's syntax (issue 30).

Moodle checks each ``{=...}`` of a calculated question's text, general feedback, combined feedback
and answers' feedback, and each answer's formula, before it stores the question; one formula it
refuses throws, and the exception ends the import of the whole file. So a build writes every
formula the model holds in Moodle's syntax, or stops with a located error (QB325); the Moodle
rules of the validation refuse what Moodle refuses; and the independent Moodle engine of the
tests (helpers/moodle_engine.py, which computes each formula with its own PHP evaluator) reads
every question of the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.moodle_engine import NotImported, grade_calculated, read_question
from helpers.text import html_text
from lxml import etree

from qti_builder.diagnostics import BuildFailed
from qti_builder.formulas import moodle_formula_error, moodle_text_formula_errors
from qti_builder.pipeline import BuildOptions, build
from qti_builder.validate import _moodle_rules

FIXTURE = ROOT / "tests/fixtures/import/moodle-types/calculatedmulti-text.xml"
#: Every text of a question where Moodle looks for {=...}, as written in the file.
TEXTS = ("questiontext/text", "generalfeedback/text", "correctfeedback/text", "partiallycorrectfeedback/text",
         "incorrectfeedback/text", "answer/feedback/text")


# -- Moodle's own check, ported ------------------------------------------------------------------

# The cases of Moodle's question/type/calculated/tests (test_formula_validation_*), and the two
# formulas of the report.
ACCEPTED = ["{x} + {y}", "pi()", "abs(-1)", "log(64, 2)", "atan2(1.0, 1.0)", "max(1.0, 1.0, 2.0)", "pow({x}, 2)",
            "((2 * {a}) * {b})", "(-{x})", "log10(({a} + 1))", "1e-3 * {a}", "sin(2*pi()*{theta})", "round({x}, 2)"]
REFUSED = {"a * b": "'a'", "x^2": "'x^'", "{x}^2": "'^'", "eval(1)": "eval", "abs(-1, 1)": "abs", "abs()": "abs",
           "pi(1)": "pi", "log()": "log", "log(64, 2, 3)": "log", "atan2(1.0)": "atan2", "max(1.0)": "max",
           "1 // 2": "'//'", "{a} # b": "'#'"}
# Verdicts of Moodle 4.5's own qtype_calculated_find_formula_errors, run on these formulas: its
# check is of characters and calls, not of a formula's grammar ("{a}+" passes; "{a}{b}" too).
MOODLE_SAYS = {"{x}**2": None, "{a}{b}": None, "{a} % 3": None, "2 ** 3": None, "{a}+": None, "(({a}))": None,
               "{1a}+1": "'{'", "()": "'()'", "unknown({x})": "unknown", "{=1}": "'{'", "a": "'a'"}


@pytest.mark.parametrize("formula", ACCEPTED)
def test_moodle_accepts_its_own_formulas(formula: str) -> None:
    assert moodle_formula_error(formula) is None


@pytest.mark.parametrize("formula,named", REFUSED.items())
def test_moodle_refuses_what_its_check_refuses(formula: str, named: str) -> None:
    error = moodle_formula_error(formula)
    assert error is not None and named in error


@pytest.mark.parametrize("formula,named", MOODLE_SAYS.items())
def test_the_check_gives_moodles_own_verdict(formula: str, named: str | None) -> None:
    error = moodle_formula_error(formula)
    assert (error is None) == (named is None) and (named is None or named in (error or "")), error


def test_the_formulas_of_a_text_are_each_checked() -> None:
    text = "<p>Good: {=1+1}, bad: {=eval(1)}, good: {={x}+{y}}, bad: {=a * b}, no formula: {x} {calc1}.</p>"
    assert [shown for shown, _ in moodle_text_formula_errors(text)] == ["{=eval(1)}", "{=a * b}"]


def _question(qtype: str, text: str, answer: str) -> etree._Element:
    return etree.fromstring(
        f'<quiz><question type="{qtype}"><name><text>Q</text></name>'
        f'<questiontext format="html"><text><![CDATA[{text}]]></text></questiontext>'
        f'<answer fraction="100"><text>{answer}</text><feedback format="html"><text></text></feedback></answer>'
        f'<answer fraction="0"><text>{answer}</text><feedback format="html"><text>Not {{=x^2}}</text></feedback></answer>'
        "</question></quiz>")


def test_the_moodle_rules_refuse_a_formula_moodle_refuses() -> None:
    """The report's file: a calculatedmulti question text in the source's syntax, an answer's feedback with '^'."""
    root = _question("calculatedmulti", "<p>Area {=a * b}</p>", "{=({a} * {b})}")
    messages = [m for _, _, m in _moodle_rules(etree.ElementTree(root))]
    assert len(messages) == 2 and "{=a * b}" in messages[0] and "'a'" in messages[0] and "{=x^2}" in messages[1], messages
    good = _question("calculatedmulti", "<p>Area {={a} * {b}}</p>", "{=({a} * {b})}")
    good.find(".//answer[2]/feedback/text").text = "Not {=pow({x}, 2)}"
    assert [m for _, _, m in _moodle_rules(etree.ElementTree(good))] == []
    calculated = _question("calculated", "<p>{a}</p>", "{a}^2")
    assert any("'{a}^2'" in m for _, _, m in _moodle_rules(etree.ElementTree(calculated)))


# -- a build writes Moodle's syntax --------------------------------------------------------------


def _moodle(source: Path, out: Path) -> etree._Element:
    build(BuildOptions(sources=[source], out_dir=out, formats=["moodle"]))
    (written,) = out.glob("*.moodle.xml")
    return etree.parse(str(written)).getroot()


def _formulas_in_texts(question: etree._Element) -> list[str]:
    return [f for path in TEXTS for t in question.findall(path) for f in re_formulas(t.text or "")]


def re_formulas(text: str) -> list[str]:
    import re

    return re.findall(r"\{=[^}]*\}?[^{}]*\}?", text)


def test_an_imported_calculatedmulti_bank_rebuilds_into_a_file_moodle_takes(tmp_path: Path) -> None:
    """The report: formulas {={a} * {b}} in a calculatedmulti question's text and feedback came
    back as the source's {=a * b}, which Moodle refuses, stopping the import of the whole file."""
    from typer.testing import CliRunner

    from qti_builder.cli import app

    result = CliRunner().invoke(app, ["import", str(FIXTURE), "--out", str(tmp_path / "source")])
    assert result.exit_code == 0, result.output
    (source,) = (tmp_path / "source").iterdir()
    text = source.read_text(encoding="utf-8")
    # Every formula of the texts is the source's own placeholder, feedback included.
    assert "{=a * b} m²" in text and "Feedback: Yes: 2 × {=a * b}." in text and "Incorrect feedback: Not {=a + b}." in text
    assert "{=x^2}" in text and "{={" not in text
    root = _moodle(source, tmp_path / "dist")
    questions = [q for q in root.iter("question") if q.get("type") == "calculatedmulti"]
    assert len(questions) == 2
    for question in questions:
        # No text shows a formula: each computed value is a wildcard of its own, with its values.
        assert _formulas_in_texts(question) == [], etree.tostring(question)
        assert [m for _, _, m in _moodle_rules(etree.ElementTree(question))] == []
        engine = read_question(question)  # raises NotImported where Moodle would refuse the file
        right = {k for k, a in enumerate(engine.answers) if a.fraction == 1}
        assert all(grade_calculated(engine, item, right) == 1 for item in (1, 2))
    area = html_text(questions[0].findtext("questiontext/text"))
    assert "{calc1}" in area and "=" not in area
    # The wildcard's items hold the values shown: a * b for each set (3 * 5, 4 * 7), with the
    # question's decimals (a calculated choice source shows a {=...} with 2 unless told).
    calc = next(d for d in questions[0].iter("dataset_definition") if d.findtext("name/text") == "calc1")
    assert [i.findtext("value") for i in calc.iter("dataset_item")] == ["15.00", "28.00"]


SOURCE = """---
title: Formulas everywhere
---

# Shared {#part}

1. A rectangle is {a} by {b}; its area is {=a * b}. Which is the square of {a}? {#square type=calculated_choice}

   ```variables
   a = 3..9
   b = 2..9
   ```

A) {=a^2:0}
   Feedback: Right: {a} squared is {=a^2}.
B) {=2 * a:0}
   Feedback: That is twice {a}, {=2 * a}.

Answer: A
Explanation: {=a^2} = {a} × {a}.
Correct feedback: {=a^2}, well done.
Incorrect feedback: Not {=a * b}.

2. What is {a} to the power {b}? {#power type=calculated sets=8}

   ```variables
   a = 2..5
   b = 2..3
   ```

Answer: a^b ± 0.1%
Explanation: {a}^{b} = {=a^b}.
"""


def test_every_formula_of_a_source_is_written_in_moodle_syntax(tmp_path: Path) -> None:
    source = tmp_path / "formulas.md"
    source.write_text(SOURCE, encoding="utf-8")
    root = _moodle(source, tmp_path / "dist")
    questions = {q.findtext("idnumber").rsplit(".", 1)[-1]: q for q in root.iter("question") if q.get("type") != "category"}
    for question in questions.values():
        assert _formulas_in_texts(question) == []
        assert [m for _, _, m in _moodle_rules(etree.ElementTree(question))] == []
        read_question(question)
    square, power = questions["square"], questions["power"]
    assert [a.findtext("text") for a in square.findall("answer")] == ["{=pow({a}, 2)}", "{=(2 * {a})}"]
    assert power.findtext("answer/text") == "pow({a}, {b})"
    engine = read_question(square)
    assert all(grade_calculated(engine, item, {0}) == 1 and grade_calculated(engine, item, {1}) == 0 for item in range(1, 21))
    engine = read_question(power)
    values = engine.datasets
    assert all(grade_calculated(engine, n, repr(float(values["a"][n]) ** float(values["b"][n]))) == 1 for n in range(1, 9))


def test_text_moodle_would_read_as_a_bad_formula_stops_the_build_at_its_question(tmp_path: Path) -> None:
    source = tmp_path / "bad.md"
    source.write_text("---\ntitle: Bad\n---\n\n1. What is {a} + {b}? Written {=a:b} in the book. {#sum type=calculated}\n\n"
                      "```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: a + b\n", encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    (error,) = [d for d in failed.value.diagnostics if d.code == "QB325"]
    assert error.span is not None and error.span.line == 5 and "{=a:b}" in error.message
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").iterdir())


def test_the_engine_refuses_the_file_the_report_describes() -> None:
    """The independent engine agrees with the rules: the report's text formula is not imported."""
    question = _question("calculatedmulti", "<p>Area {=a * b}</p>", "{=({a} * {b})}")[0]
    with pytest.raises(NotImported):
        read_question(question)


PLACES = """---
title: Formulas in every place
---

1. A field is {a} by {b} m; its area is {=a * b} m². What is its perimeter? {#field type=calculated_choice}

   ```variables
   a = 2..9
   b = 2..9
   ```

A) {=2 * (a + b):0} m
   Feedback: Yes: 2 × ({a} + {b}) = {=2 * (a + b) + 0}.
B) {=a + b:0} m
   Feedback: That is half of it, {=(a + b) / 2 + a + b / 2}.

Answer: A
Explanation: Its diagonal is {=sqrt(a^2 + b^2)} m.
Correct feedback: Right, {=a^2 + b} is not asked.
Partially correct feedback: Nearly, {=a - b}.
Incorrect feedback: Not {=b^3 - a}.

2. A box is {a} by {b} by 2; its volume is {=2 * a * b}. What is its surface? {#box type=calculated}

   ```variables
   a = 2..9
   b = 2..9
   ```

Answer: 2 * (a*b + 2*a + 2*b) ± 0.1%
Explanation: Half of it is {=a*b + 2*a + 2*b}.
Correct feedback: Each face pair counts twice: {=4 * a + 4 * b} from the sides.
"""

#: Each place of a text where a calculated question shows a computed value, with the value it must
#: show for the values a and b of a set (worked out here, not by the project's formula code).
FIELD_PLACES = {
    "questiontext/text": lambda a, b: a * b,
    "generalfeedback/text": lambda a, b: (a ** 2 + b ** 2) ** 0.5,
    "correctfeedback/text": lambda a, b: a ** 2 + b,
    "partiallycorrectfeedback/text": lambda a, b: a - b,
    "incorrectfeedback/text": lambda a, b: b ** 3 - a,
    "answer[1]/feedback/text": lambda a, b: 2 * (a + b),
    "answer[2]/feedback/text": lambda a, b: (a + b) / 2 + a + b / 2,
}
BOX_PLACES = {
    "questiontext/text": lambda a, b: 2 * a * b,
    "generalfeedback/text": lambda a, b: a * b + 2 * a + 2 * b,
    "correctfeedback/text": lambda a, b: 4 * a + 4 * b,
    "answer[1]/feedback/text": lambda a, b: 4 * a + 4 * b,
}


def _items(question: etree._Element) -> dict[str, tuple[int, list[str]]]:
    """Each wildcard's decimals and dataset items, as Moodle's importer reads them."""
    return {d.findtext("name/text"): (int(d.findtext("decimals/text")), [i.findtext("value") for i in d.iter("dataset_item")])
            for d in question.iter("dataset_definition")}


@pytest.mark.parametrize("question_id,places", [("field", FIELD_PLACES), ("box", BOX_PLACES)])
def test_a_computed_value_in_each_place_shows_its_value_in_moodle(question_id: str, places: dict, tmp_path: Path) -> None:
    """Question text, general feedback, each combined feedback and each answer's feedback: the
    source's {=...} is a wildcard there whose items hold the formula's value for each set (to the
    decimals the wildcard declares), no text holds a formula Moodle would check, and Moodle's
    rules and the independent engine take the question."""
    source = tmp_path / "places.md"
    source.write_text(PLACES, encoding="utf-8")
    root = _moodle(source, tmp_path / "dist")
    question = next(q for q in root.iter("question") if (q.findtext("idnumber") or "").endswith(question_id))
    assert _formulas_in_texts(question) == []
    assert [m for _, _, m in _moodle_rules(etree.ElementTree(question))] == []
    read_question(question)
    items = _items(question)
    a_items, b_items = [float(v) for v in items["a"][1]], [float(v) for v in items["b"][1]]
    assert len(a_items) == 20
    for path, value in places.items():
        shown = [w for w in re.findall(r"\{([A-Za-z][A-Za-z0-9_]*)\}", question.findtext(path) or "") if w not in ("a", "b")]
        assert len(shown) == 1, (path, question.findtext(path))
        decimals, values = items[shown[0]]
        assert len(values) == 20, path
        for a, b, written in zip(a_items, b_items, values):
            assert abs(float(written) - value(a, b)) <= 0.5 * 10 ** -decimals + 1e-9, (path, a, b, written)
            assert "." not in written or len(written.split(".")[1]) == decimals, (path, written)


def test_a_bad_formula_in_feedback_stops_the_build_naming_its_place_once(tmp_path: Path) -> None:
    """General feedback and correct feedback (which a calculated question's one answer shows too):
    each refused formula is one error at its own line and column naming where it is, and nothing
    is written; the QTI 2.1 output, which shows it as text, is built."""
    source = tmp_path / "bad.md"
    source.write_text("---\ntitle: Bad\n---\n\n1. What is {a} + {b}? {#sum type=calculated}\n\n"
                      "```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: a + b\nExplanation: Written {=a:b} in the book.\n"
                      "Correct feedback: Not {=a:b:c} either.\n", encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    errors = [d for d in failed.value.diagnostics if d.code == "QB325"]
    assert [e.message.split(": ", 1)[1].split(" holds ")[0] for e in errors] == ["the general feedback", "the correct feedback"]
    assert "{=a:b}" in errors[0].message and "{=a:b:c}" in errors[1].message
    # Each at its own place: the line of the label, the column of the '{='.
    assert [(e.span.line, e.span.column) for e in errors if e.span is not None] == [(13, 22), (14, 23)]
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").iterdir())
    build(BuildOptions(sources=[source], out_dir=tmp_path / "qti", formats=["qti21"]))
    assert list((tmp_path / "qti").glob("*.qti21.zip"))
