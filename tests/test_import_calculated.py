"""Importing calculated questions from the systems that have them (Moodle's own: test_calculated.py
and test_import_moodle_types.py): Canvas's formula questions, QTI 2.1 item templates and Moodle's
formulas plug-in. Each becomes a calculated source whose formula is checked against the system's
own evaluation: Canvas's formulas by tests/helpers/lms_formulas.py's calculator (written from Canvas's
calcCmd.js, not from the importer), QTI's by the values the item's own sets hold.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.importing import builds, messages, run_import
from helpers.lms_formulas import canvas_eval

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

CANVAS_NAMES = {name: name for name in ("a", "b", "c", "d", "t", "x", "y", "n")} | {"v.1": "v_1"}
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
    derived, answer = formula_lines([canvas], CANVAS_NAMES)
    assert (derived, answer) == ({}, ours)
    values = {CANVAS_NAMES[k]: v for k, v in VALUES.items()}
    assert math.isclose(F.evaluate(F.parse(answer), values), canvas_eval(canvas, VALUES), rel_tol=1e-12)


def test_formula_lines_assign_derived_variables() -> None:
    assert formula_lines(["s = a + b", "avg = s / 2", "avg * n"], CANVAS_NAMES) == ({"s": "a + b", "avg": "s / 2"}, "avg * n")
    assert formula_lines(["s = a + b", "r = s * 2"], CANVAS_NAMES) == ({"s": "a + b"}, "s * 2")  # the last line is the answer


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
        formula_lines([canvas], CANVAS_NAMES)
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

    from lxml import etree

    from qti_builder.pipeline import BuildOptions, build

    build(BuildOptions(sources=[ROOT / "tests/fixtures/calculated.md"], out_dir=tmp_path, formats=["canvas"]))
    with zipfile.ZipFile(tmp_path / "calculated.canvas.zip") as z:
        root = etree.fromstring(z.read("calculated/calculated.xml"))
    item = next(i for i in root.iter("{*}item") if i.get("ident") == "calculated.speed")
    feedback = next(f for f in item.iter("{*}itemfeedback") if f.get("ident") == "general_fb")
    assert "".join(feedback.itertext()).strip() == "<p>[d] / [t] = [calc1] km/h.</p>"
    assert "<p>A car covers [d] km in [t] hours." in "".join(item.find("{*}presentation").itertext())


# -- QTI 2.1 item templates ------------------------------------------------------------------------

TEMPLATES = Path(__file__).parent / "fixtures" / "import" / "qti21-templates"


def test_qti_item_templates_are_calculated_questions(tmp_path: Path) -> None:
    quizzes, sink = run_import(TEMPLATES)
    assert not sink.errors, messages(sink)
    found = [m for m in messages(sink) if "language" not in m]
    assert found == [
        "qti21-templates:items/by_value.xml:3:1: warning[QB711]: item 'Bigger or smaller' is template-driven and cannot be "
        "a calculated question (its templateCondition chooses by other values than a set number): its first rendering is "
        "imported (X = 1, Y = 2), the same for every student\n    hint: add the other variants as questions of a section "
        "with select: 1 to draw one of them",
        "qti21-templates:items/circle.xml:3:1: warning[QB711]: item 'Area of a circle': not kept: the continuous range of "
        "RADIUS (the source draws it with 1 decimal)",
    ]
    ohm, circle, choice, by_value = quizzes[0].quiz.iter_questions()
    # randomInteger ranges, a templateConstraint, setCorrectResponse of a derived value (its
    # formula is the answer), equal with a relative tolerance of 2 %, the unit after the box.
    assert ohm.type == "calculated" and ohm.stem == "A resistor of {R} Ω is connected to a {V} V\nbattery. What current flows through it?"
    assert [(v.name, v.min, v.max, v.step, v.decimals) for v in ohm.variables] == [("V", 2, 24, 2, None), ("R", 1, 10, None, 0)]
    assert (ohm.constraints, ohm.answer, ohm.tolerance, ohm.tolerance_mode, ohm.unit) == (["V > R"], "V / R", 2, "percent", "A")
    # QTI 2.2: randomFloat shown with one decimal, mathConstant pi, a correct response that names
    # the template variable, an absolute tolerance.
    assert circle.stem == "What is the area of a circle of radius {RADIUS} cm, in cm²?"
    assert [(v.name, v.min, v.max, v.decimals) for v in circle.variables] == [("RADIUS", 1, 5, 1)]
    assert (circle.answer, circle.tolerance, circle.tolerance_mode) == ("pi * RADIUS^2", 0.05, "absolute")
    # A choice whose options print derived values: a calculated choice, the right option kept.
    assert choice.type == "calculated_choice" and choice.stem == "What is {A} + {B}?" and choice.shuffle
    assert [(c.text, c.correct) for c in choice.choices] == [("{S}", True), ("{P}", False), ("{D}", False)]
    assert [(v.name, v.kind) for v in choice.variables] == [("A", "values"), ("B", "range"), ("S", "formula"), ("P", "formula"),
                                                           ("D", "formula")]
    assert choice.variables[0].values == [3, 5, 7]
    # A condition on a drawn value: its first rendering, as before.
    assert by_value.type == "numerical" and by_value.stem == "Double 1 if it is under 5. What do you get?"
    builds(quizzes[0].quiz, {}, tmp_path)


def test_the_sets_each_item_template_draws_give_its_answers(tmp_path: Path) -> None:
    """Checked against the item's own rules, computed here by hand for each set the source draws."""
    from qti_builder.parametric import variants

    quizzes, _ = run_import(TEMPLATES)
    ohm, circle, choice, _ = quizzes[0].quiz.iter_questions()
    drawn = variants("q", ohm)
    assert len(drawn.sets) == 20 and all(s["V"] > s["R"] and s["V"] % 2 == 0 for s in drawn.sets)
    assert all(math.isclose(a, s["V"] / s["R"]) for a, s in zip(drawn.answers, drawn.sets))
    drawn = variants("q", circle)
    assert all(math.isclose(a, math.pi * s["RADIUS"] ** 2) and round(s["RADIUS"], 1) == s["RADIUS"]
               for a, s in zip(drawn.answers, drawn.sets))
    drawn = variants("q", choice)
    for k, values in enumerate(drawn.sets):
        assert drawn.text(k, "{S} {P} {D}") == f"{values['A'] + values['B']:g} {values['A'] * values['B']:g} {values['B'] - values['A']:g}"


@pytest.mark.parametrize(("change", "reason"), [
    (('identifier="I" cardinality="single" baseType="float"', 'identifier="I" cardinality="single" baseType="string"'),
     "the template variable I is a single string"),
    (("divide>", "integerModulus>"), "an expression uses integerModulus"),
    (('<equal toleranceMode="relative" tolerance="2 2">', '<equal toleranceMode="relative" tolerance="{TOL}">'),
     "its tolerance '{TOL}' is not given in numbers"),
    (('<gt><variable identifier="V"/><variable identifier="R"/></gt>', '<or><gt><variable identifier="V"/>'
      '<variable identifier="R"/></gt><gt><variable identifier="R"/><variable identifier="V"/></gt></or>'),
     "a templateConstraint uses or"),
])
def test_what_an_item_template_cannot_say_is_named(tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    text = (TEMPLATES / "items/ohm.xml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "ohm.xml"
    path.write_text(text.replace(change[0], change[1]), encoding="utf-8")
    quizzes, sink = run_import(path)
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.type == "numerical"
    assert any(f"cannot be a calculated question ({reason}" in m for m in messages(sink)), messages(sink)


# -- the Moodle formulas plug-in -------------------------------------------------------------------

FORMULAS = Path(__file__).parent / "fixtures" / "import" / "moodle-types" / "formulas.xml"


def test_formulas_plugin_questions_that_map_are_calculated(tmp_path: Path) -> None:
    quizzes, sink = run_import(FORMULAS)
    assert not sink.errors, messages(sink)
    found = [m.split("\n")[0] for m in messages(sink) if "language" not in m]
    assert found == [
        "formulas.xml:9:1: warning[QB711]: question 'Distance travelled': not kept: answers in other units that the plug-in "
        "converts (its conversion rules), and its unit penalty",
        "formulas.xml:88:1: warning[QB711]: question 'Falling stone': not kept: the variable name 'e' (the source calls it "
        "'e_value'); answers typed as arithmetic ('3/4', '2**3'), which the plug-in computes: the source takes a number",
        "formulas.xml:129:1: warning[QB710]: question 'Two parts' (formulas plug-in) cannot be a calculated question: it has "
        "2 parts (answer blocks), and a calculated question has one answer; skipped",
        "formulas.xml:175:1: warning[QB710]: question 'Expand it' (formulas plug-in) cannot be a calculated question: its "
        "answer is an algebraic formula, and a calculated question's is a number; skipped",
        "formulas.xml:204:1: warning[QB710]: question 'Colours' (formulas plug-in) cannot be a calculated question: its "
        "random variable 'c = {\"red\", \"green\", \"blue\"}' is drawn from something other than numbers and ranges; skipped",
    ]
    item = quizzes[0]
    assert item.skipped == {"formulas": 3}
    distance, stone = item.quiz.iter_questions()
    # {40:100:10} leaves its end out: 40 to 90; {1.5, 2, 2.5, 3} a list; d = v * t derived.
    assert [(v.name, v.kind) for v in distance.variables] == [("v", "range"), ("t", "values"), ("d", "formula")]
    assert (distance.variables[0].min, distance.variables[0].max, distance.variables[0].step) == (40, 90, 10)
    assert distance.variables[1].values == [1.5, 2, 2.5, 3] and distance.variables[2].formula == "v * t"
    assert (distance.answer, distance.tolerance, distance.tolerance_mode, distance.unit, distance.points) == (
        "d", 1, "percent", "km", 2)
    # The part's text joins the question's, without its answer and unit boxes.
    assert distance.stem == "A car drives at {v} km/h for {t} hours.\n\nHow far does it go?"
    assert distance.feedback.general == "Distance is speed times time: {=v * t} km."
    assert (distance.feedback.correct, distance.feedback.incorrect) == ("Well done.", "Multiply {v} by {t}.")
    # A constant is a list of one value; a variable named e (the source's constant) renamed.
    assert [(v.name, v.kind) for v in stone.variables] == [("h", "range"), ("g", "values"), ("e_value", "formula")]
    assert (stone.variables[0].min, stone.variables[0].max) == (5, 45) and stone.variables[1].values == [9.81]
    assert (stone.answer, stone.tolerance, stone.tolerance_mode) == ("round(e_value, 2)", 0.005, "absolute")
    assert stone.stem == "A stone falls from {h} m. How many seconds until it lands?"
    builds(item.quiz, {}, tmp_path)


def test_formulas_plugin_sets_give_the_plugins_answers() -> None:
    """Each set the source draws lies in the plug-in's sets and its answer is the plug-in's
    expression, computed here by hand."""
    from qti_builder.parametric import variants

    quizzes, _ = run_import(FORMULAS)
    distance, stone = quizzes[0].quiz.iter_questions()
    drawn = variants("q", distance)
    assert all(s["v"] in range(40, 100, 10) and s["t"] in (1.5, 2, 2.5, 3) for s in drawn.sets)
    assert all(math.isclose(a, s["v"] * s["t"]) for a, s in zip(drawn.answers, drawn.sets))
    drawn = variants("q", stone)
    assert all(math.isclose(a, round(math.sqrt(2 * s["h"] / 9.81), 2)) for a, s in zip(drawn.answers, drawn.sets))


@pytest.mark.parametrize(("plugin", "ours"), [
    ("a ** 2 + b", "a^2 + b"), ("-a ** 2", "-a^2"), ("pow(a, 3)", "a^3"), ("log(a) + log10(b) + lg(a) + lb(b)",
                                                                         "ln(a) + log(b) + log(a) + log(b, 2)"),
    ("pi() * a", "pi * a"), ("deg2rad(a)", "a * pi / 180"), ("max(a)", "a"), ("round(a / b, 1)", "round(a / b, 1)"),
])
def test_formulas_plugin_expressions(plugin: str, ours: str) -> None:
    from qti_builder.importers.moodle.formulas import _formula

    assert _formula(plugin, {"a": "a", "b": "b"}) == ours


@pytest.mark.parametrize(("plugin", "what"), [
    ("a ^ 2", "'^' (a bitwise exclusive or"), ("a % 2", "'%' (a remainder)"), ("a > 1 ? a : b", "a condition (?:)"),
    ("a > 1", "a comparison"), ("fact(a)", "fact()"), ("[a, b]", "a list"),
])
def test_formulas_plugin_expressions_the_source_cannot_say(plugin: str, what: str) -> None:
    from qti_builder.importers.calculated import Unconvertible
    from qti_builder.importers.moodle.formulas import _formula

    with pytest.raises(Unconvertible) as refused:
        _formula(plugin, {"a": "a", "b": "b"})
    assert what in str(refused.value)


def test_an_item_template_shows_its_answer_with_the_decimals_its_tolerance_needs(tmp_path: Path) -> None:
    """QTI does not say how the answer is shown: 2 decimals, unless the tolerance refuses the
    answer so shown (± 0.001 needs 3)."""
    text = (TEMPLATES / "items/ohm.xml").read_text(encoding="utf-8")
    path = tmp_path / "ohm.xml"
    path.write_text(text.replace('toleranceMode="relative" tolerance="2 2"', 'toleranceMode="absolute" tolerance="0.001"'),
                    encoding="utf-8")
    quizzes, _ = run_import(path)
    (question,) = quizzes[0].quiz.iter_questions()
    assert (question.tolerance, question.tolerance_mode, question.decimals) == (0.001, "absolute", 3)
    quizzes, _ = run_import(TEMPLATES)
    assert next(iter(quizzes[0].quiz.iter_questions())).decimals is None  # 2 % of V / R: 2 decimals do


def test_moodle_angles_in_degrees_import_and_grade_as_in_moodle(tmp_path: Path) -> None:
    """Issue 30's round trip: a physics bank's deg2rad()/rad2deg() (PHP's, which Moodle's formulas
    take) were skipped as functions the source lacks. They are written out (x / 180 * pi), in the
    answer and in every text, and the rebuilt Moodle file gives in each set the value worked out
    here with Python's own radians and degrees."""
    from helpers.moodle_engine import grade_calculated, read_question
    from lxml import etree

    (item,), sink = run_import(ROOT / "tests/fixtures/import/moodle-types/degrees.xml")
    assert not [d for d in sink.items if d.code == "QB710"], messages(sink)
    ramp, slope = item.quiz.iter_questions()
    assert ramp.answer == "l * sin(angle / 180 * pi)" and slope.answer == "atan(h / d) / pi * 180"
    assert "{=l * cos(angle / 180 * pi)}" in ramp.stem and "{=l * sin(angle / 180 * pi)}" in ramp.feedback.general
    builds(item.quiz, item.media, tmp_path)
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    questions = {q.findtext("name/text"): read_question(q) for q in etree.parse(str(moodle)).iter("question")
                 if q.get("type") == "calculated"}
    expected = {"Ramp height": [4.0 * math.sin(math.radians(30)), 6.5 * math.sin(math.radians(45)), 8.2 * math.sin(math.radians(12))],
                "Slope angle": [math.degrees(math.atan(10 / 100)), math.degrees(math.atan(25 / 160))]}
    for name, values in expected.items():
        for n, value in enumerate(values, 1):
            assert grade_calculated(questions[name], n, f"{value:.4f}") == 1, (name, n)
            assert grade_calculated(questions[name], n, f"{value * 1.2:.4f}") == 0, (name, n)


def test_php_functions_the_language_lacks_are_written_where_every_set_allows(tmp_path: Path) -> None:
    """Issue 30's round trip: PHP's atan2(), fmod() and % (Moodle takes them, the source's formulas
    do not) were skipped. Each is now written with the language's functions where that form gives
    PHP's value in every one of the question's own sets (atan(y / x) where x > 0; a - b * floor(a / b)
    where a / b >= 0, for % with whole numbers), said as a change; where a set does not allow it
    the question is still skipped, naming the set. The rebuilt Moodle file gives in each set the
    value worked out here with Python's own atan2, fmod and %."""
    from helpers.moodle_engine import grade_calculated, read_question
    from lxml import etree

    (item,), sink = run_import(ROOT / "tests/fixtures/import/moodle-types/php-functions.xml")
    (skipped,) = [d.message for d in sink.items if d.code == "QB710"]
    assert "'Bearing'" in skipped and "x > 0 only in some sets (not in set 2)" in skipped
    changes = [d.message for d in sink.items if d.code == "QB711" and "written" in d.message]
    assert len(changes) == 3 and all("the same in each of the question's" in m for m in changes), changes
    angle, rope, eggs = item.quiz.iter_questions()
    assert (angle.answer, rope.answer, eggs.answer) == ("atan(y / x)", "l - p * floor(l / p)", "n - k * floor(n / k)")
    assert "{=atan(y / x)}" in angle.feedback.general
    builds(item.quiz, item.media, tmp_path)
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    questions = {q.findtext("name/text"): read_question(q) for q in etree.parse(str(moodle)).iter("question")
                 if q.get("type") == "calculated"}
    expected = {"Vector angle": [math.atan2(4, 3), math.atan2(-2, 5), math.atan2(7, 2)],
                "Leftover rope": [math.fmod(12.5, 1.5), math.fmod(17.3, 2.4)],
                "Eggs left": [45 % 6, 100 % 12]}
    for name, values in expected.items():
        for n, value in enumerate(values, 1):
            assert grade_calculated(questions[name], n, f"{value:.4f}") == 1, (name, n, value)
            assert grade_calculated(questions[name], n, f"{value + 1:.4f}") == 0, (name, n)
