"""Importing calculated questions from the systems that have them (Moodle's own: test_calculated.py
and test_import_moodle_types.py): Canvas's formula questions, QTI 2.1 item templates and Moodle's
formulas plug-in. Each becomes a calculated source whose formula is checked against the system's
own evaluation: Canvas's formulas by tests/lms_formulas.py's calculator (written from Canvas's
calcCmd.js, not from the importer), QTI's by the values the item's own sets hold.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from lms_formulas import canvas_eval
from test_import_formats import builds, messages, run_import

from qti_builder import formulas as F
from qti_builder.importers.calculated import variable_names
from qti_builder.importers.canvas.calculator import formula_lines


# -- the source's formulas, written back -----------------------------------------------------------

@pytest.mark.parametrize(("formula", "written"), [
    ("(-b + sqrt(disc)) / (2*a)", "(-b + sqrt(disc)) / (2 * a)"),
    ("((d)/(t))", "d / t"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("a / (b * c)", "a / (b * c)"),
    ("(a / b) * c", "a / b * c"),
    ("2^(3^2)", "2^3^2"),
    ("(2^3)^2", "(2^3)^2"),
    ("-(2^2)", "-2^2"),
    ("(-2)^2", "(-2)^2"),
    ("a * -b", "a * (-b)"),
    ("-(a + b)", "-(a + b)"),
    ("a^-b", "a^(-b)"),
    ("1.50 + 2e-3", "1.5 + 0.002"),
    ("max(a, (b), c) >= 2", "max(a, b, c) >= 2"),
])
def test_a_formula_is_written_with_the_parentheses_it_needs(formula: str, written: str) -> None:
    assert F.to_source(F.parse(formula, constraint=">=" in formula)) == written
    values = {"a": 2.0, "b": 3.0, "c": 5.0, "d": 7.0, "t": 0.5, "disc": 9.0}
    assert F.evaluate(F.parse(written, constraint=">=" in written), values) == F.evaluate(
        F.parse(formula, constraint=">=" in formula), values)


# -- Canvas's calculator ---------------------------------------------------------------------------

NAMES = {name: name for name in ("a", "b", "c", "d", "t", "x", "y", "n")} | {"v.1": "v_1"}
VALUES = {"a": 2.0, "b": 3.0, "c": 5.0, "d": 7.0, "t": 0.5, "x": 0.7, "y": 1.9, "n": 4.0, "v.1": 2.5}


@pytest.mark.parametrize(("canvas", "ours"), [
    ("n*4", "n * 4"),
    ("-2^2", "(-2)^2"),  # the minus belongs to the number: 4
    ("2^3^2", "(2^3)^2"),  # powers from left to right: 64
    ("-x^2", "(-x)^2"),
    ("a-b-c", "a - b - c"),
    ("a/b/c", "a / b / c"),
    ("a - -b", "a - (-b)"),
    ("round(x)", "floor(x + 0.5)"),  # JavaScript's Math.round: halves up
    ("e(x) + e()", "exp(x) + e"),
    ("pi() * pi", "pi * pi"),
    ("log(x) + log(x, 2) + ln(y)", "log(x) + log(x, 2) + ln(y)"),
    ("rad_to_deg(x) + deg_to_rad(y)", "x * 180 / pi + y * pi / 180"),
    ("sec(x) + cosec(x) + cotan(x)", "1 / cos(x) + 1 / sin(x) + 1 / tan(x)"),
    ("mean(a, b, c) + sum(a, b)", "(a + b + c) / 3 + (a + b)"),
    ("first(a, b) + last(a, b) + count(a, b, c)", "a + b + 3"),
    ("max(a) + min(a, b)", "a + min(a, b)"),
    ("v.1 * 2", "v_1 * 2"),
    ("abs(a - d) + sqrt(c) + floor(y) + ceil(y)", "abs(a - d) + sqrt(c) + floor(y) + ceil(y)"),
])
def test_canvas_formulas_mean_in_the_source_what_they_mean_in_canvas(canvas: str, ours: str) -> None:
    derived, answer = formula_lines([canvas], NAMES)
    assert (derived, answer) == ({}, ours)
    values = {NAMES[k]: v for k, v in VALUES.items()}
    assert math.isclose(F.evaluate(F.parse(answer), values), canvas_eval(canvas, VALUES), rel_tol=1e-12)


def test_formula_lines_assign_derived_variables() -> None:
    assert formula_lines(["s = a + b", "avg = s / 2", "avg * n"], NAMES) == ({"s": "a + b", "avg": "s / 2"}, "avg * n")
    assert formula_lines(["s = a + b", "r = s * 2"], NAMES) == ({"s": "a + b"}, "s * 2")  # the last line is the answer


@pytest.mark.parametrize(("canvas", "message"), [
    ("fact(n) / 2", "uses fact() (a factorial), which the source's formulas do not have"),
    ("if(a, b, c)", "uses if() (a condition)"),
    ("a + z", "uses 'z', which is not a variable of the question"),
    ("a ; b", "cannot read ';'"),
    ("2e3 * a", "unexpected 'e3'"),  # no exponents in Canvas's numbers
    ("-(a + b)", "a value is missing"),  # no minus before a parenthesis
    ("a = b + 1", "gives the variable 'a' a new value"),
])
def test_what_the_source_cannot_say_is_named(canvas: str, message: str) -> None:
    from qti_builder.importers.calculated import Unconvertible

    with pytest.raises(Unconvertible, match=None) as refused:
        formula_lines([canvas], NAMES)
    assert message in str(refused.value)


def test_our_own_canvas_formulas_read_back_as_written() -> None:
    """qti-builder writes a minus before a parenthesis as (0-x), exp as e^(x) and round as an if():
    each reads back as the source spelled it."""
    for formula in ["d / t", "(-b + sqrt(disc)) / (2 * a)", "log(x) + ln(y) + sin(z) + exp(w)", "round(x)",
                    "2 * round(pi * r^2, 2) / r", "-x^2", "2^3^2", "a - (-b)", "exp(-x)", "-(a + b)", "log(x, 2)",
                    "min(a, b) - max(a, b, c)", "round(d / t, 1) * 2"]:
        names = {n: n for n in F.variables(F.parse(formula))}
        assert formula_lines([F.to_canvas(F.parse(formula))], names) == ({}, formula)


def test_variable_names_the_source_takes() -> None:
    assert variable_names(["d", "v.1", "e", "min", "1x", "a" * 40, "v_1"]) == {
        "d": "d", "v.1": "v_1_2", "e": "e_value", "min": "min_value", "1x": "v_1x", "a" * 40: "a" * 26, "v_1": "v_1"}


# -- Canvas's formula questions --------------------------------------------------------------------

def canvas_item(formula: str, sets: list[tuple[dict[str, str], str]], tolerance: str = "0", places: str = "2",
                text: str = "&lt;p&gt;A cell [d] µm wide grows by [g] µm. How wide is it?&lt;/p&gt;",
                scales: dict[str, str] | None = None) -> str:
    names = list(sets[0][0])
    scales = scales or {}
    variables = "".join(f'<var name="{n}" scale="{scales.get(n, "1")}"><min>0</min><max>9</max></var>' for n in names)
    var_sets = "".join(f'<var_set ident="{k}">' + "".join(f'<var name="{n}">{v}</var>' for n, v in values.items())
                       + f"<answer>{answer}</answer></var_set>" for k, (values, answer) in enumerate(sets, 1))
    return f"""<item ident="g0123456789abcdef0123456789abcdef" title="Growing cell"><itemmetadata><qtimetadata>
<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>calculated_question</fieldentry></qtimetadatafield>
<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>2</fieldentry></qtimetadatafield>
</qtimetadata></itemmetadata><presentation><material><mattext texttype="text/html">{text}</mattext></material>
<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal"><response_label ident="answer1"/>
</render_fib></response_str></presentation>
<resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
<respcondition title="correct"><conditionvar><other/></conditionvar><setvar varname="SCORE" action="Set">100</setvar>
<displayfeedback feedbacktype="Response" linkrefid="general_fb"/></respcondition></resprocessing>
<itemproc_extension><calculated><answer_tolerance>{tolerance}</answer_tolerance>
<formulas decimal_places="{places}"><formula>{formula}</formula></formulas><vars>{variables}</vars>
<var_sets>{var_sets}</var_sets></calculated></itemproc_extension>
<itemfeedback ident="general_fb"><flow_mat><material><mattext texttype="text/html">&lt;p&gt;[d] + [g]&lt;/p&gt;</mattext>
</material></flow_mat></itemfeedback></item>"""


def single(tmp_path: Path, item: str) -> tuple[object, list[str]]:
    path = tmp_path / "one.xml"
    path.write_text(f"""<questestinterop><assessment ident="one" title="One"><section ident="root_section">
{item}</section></assessment></questestinterop>""", encoding="utf-8")
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    return quizzes[0], [m for m in messages(sink) if "language" not in m]


GROWTH = [({"d": "12.5", "g": "2.5"}, "15"), ({"d": "18.0", "g": "1.5"}, "19.5"), ({"d": "9.5", "g": "0.5"}, "10")]


def test_a_canvas_formula_question_is_a_calculated_source(tmp_path: Path) -> None:
    item, found = single(tmp_path, canvas_item("d+g", GROWTH, tolerance="5%", places="1"))
    assert found == []
    (q,) = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert (q.type, q.points, q.answer, q.tolerance, q.tolerance_mode, q.decimals) == ("calculated", 2, "d + g", 5, "percent", 1)
    assert q.stem == "A cell {d} µm wide grows by {g} µm. How wide is it?" and q.feedback.general == "{d} + {g}"
    assert q.sets == [{"d": 12.5, "g": 2.5}, {"d": 18.0, "g": 1.5}, {"d": 9.5, "g": 0.5}]
    assert [(v.name, v.decimals, v.kind) for v in q.variables] == [("d", 1, "listed"), ("g", 1, "listed")]
    builds(item.quiz, {}, tmp_path)  # type: ignore[attr-defined]


def test_a_formula_canvas_computes_otherwise_keeps_the_files_answers(tmp_path: Path) -> None:
    """The file's answers are what Canvas grades by: where the formula cannot be read, or gives
    another answer for a set, they are kept as a variable of their own, and the warning says why."""
    item, found = single(tmp_path, canvas_item("fact(d)", GROWTH))
    assert found == ["one.xml:2:1: warning[QB711]: question 'Growing cell': not kept: the formula 'fact(d)' uses fact() "
                     "(a factorial), which the source's formulas do not have: the file's answers of its 3 variable sets are "
                     "kept instead, as the variable 'answer'"]
    (q,) = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert q.answer == "answer" and [s["answer"] for s in q.sets] == [15, 19.5, 10] and q.decimals == 2
    wrong = [({"d": "12.5", "g": "2.5"}, "15"), ({"d": "18.0", "g": "1.5"}, "21")]
    item, found = single(tmp_path, canvas_item("d+g", wrong))
    assert "the formula d+g gives 19.5 for set 2 (d = 18, g = 1.5), where the file's answer is 21" in found[0]
    builds(item.quiz, {}, tmp_path)  # type: ignore[attr-defined]


def test_canvas_rounds_answers_to_the_decimals_it_shows(tmp_path: Path) -> None:
    """With no tolerance, Canvas's answers are the formula's value rounded to its decimals: the
    source rounds the formula, so that a student typing the answer shown is right."""
    sets = [({"d": "10", "g": "3"}, "3.33"), ({"d": "20", "g": "3"}, "6.67")]
    item, found = single(tmp_path, canvas_item("d/g", sets, scales={"d": "0", "g": "0"}))
    assert found == []
    (q,) = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert (q.answer, q.tolerance, q.decimals) == ("round(d / g, 2)", 0, 2)
    assert [v.decimals for v in q.variables] == [0, 0]
    builds(item.quiz, {}, tmp_path)  # type: ignore[attr-defined]


def test_canvas_names_the_source_cannot_take_are_renamed_everywhere(tmp_path: Path) -> None:
    sets = [({"v.1": "2", "e": "3"}, "5")]
    item, found = single(tmp_path, canvas_item("v.1 + 3", sets, text="&lt;p&gt;[v.1] and [e] and [other]&lt;/p&gt;"))
    assert "the variable name 'v.1' (the source calls it 'v_1'); the variable name 'e' (the source calls it 'e_value')" in found[0]
    (q,) = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert q.stem == "{v_1} and {e_value} and [other]" and q.answer == "v_1 + 3"
    assert q.sets == [{"v_1": 2, "e_value": 3}]


def test_a_canvas_formula_question_without_sets_is_skipped(tmp_path: Path) -> None:
    item = re.sub(r"<var_sets>.*</var_sets>", "<var_sets/>", canvas_item("d+g", GROWTH), flags=re.S)
    path = tmp_path / "one.xml"
    path.write_text(f'<questestinterop><assessment ident="one" title="One"><section ident="s">{item}</section>'
                    "</assessment></questestinterop>", encoding="utf-8")
    quizzes, sink = run_import(path)
    assert any("the formula question has no variable set to take an answer from; skipped" in m for m in messages(sink))


def test_canvas_package_shows_values_as_canvas_writes_them_in_every_text(tmp_path: Path) -> None:
    """[x] in the text and the feedback, as Canvas shows a variable (a backslash-escaped bracket
    would open display math in the source's Markdown: the feedback became a formula)."""
    import zipfile

    from conftest import ROOT
    from lxml import etree

    from qti_builder.pipeline import BuildOptions, build

    build(BuildOptions(sources=[ROOT / "tests/fixtures/calculated.md"], out_dir=tmp_path, formats=["canvas"]))
    with zipfile.ZipFile(tmp_path / "calculated.canvas.zip") as z:
        root = etree.fromstring(z.read("calculated/calculated.xml"))
    item = next(i for i in root.iter("{*}item") if i.get("ident") == "calculated.speed")
    feedback = next(f for f in item.iter("{*}itemfeedback") if f.get("ident") == "general_fb")
    assert "".join(feedback.itertext()).strip() == "<p>[d] / [t] = [calc1] km/h.</p>"
    assert "<p>A car covers [d] km in [t] hours." in "".join(item.find("{*}presentation").itertext())
