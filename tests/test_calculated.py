"""Calculated questions: every output carries the same sets, and every set's answer is right.

The answers are checked three independent ways: against the formulas written out again here in
plain Python (:data:`CALCULATED_ANSWERS`), by evaluating the Moodle formula as Moodle does and the Canvas
formula as Canvas does (tests/helpers/lms_formulas.py, written from their code), and by running the QTI
2.1 item templates in pyslet, an independent QTI engine.
"""

from __future__ import annotations

import hashlib
import math
import random
import warnings
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.calculated import CALCULATED_ANSWERS, CALCULATED_SOURCE, qti_items, qti_sets
from helpers.canvas import local_names
from helpers.lms_formulas import canvas_eval, moodle_eval
from lxml import etree

from qti_builder import formulas as F
from qti_builder.pipeline import BuildOptions, build

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
LISTED = [(45, 1.5), (60, 2.0), (90, 4.5), (100, 12.5), (150, 20.0)]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("calculated")
    build(BuildOptions(sources=[CALCULATED_SOURCE], out_dir=out, jobs=1))
    return out


def moodle_questions(out: Path) -> dict[str, etree._Element]:
    root = etree.parse(str(out / "calculated.moodle.xml")).getroot()
    return {q.findtext("idnumber"): q for q in root.iter("question") if q.get("type") != "category"}


def moodle_sets(question: etree._Element) -> list[dict[str, str]]:
    columns = {d.findtext("name/text"): [i.findtext("value") for i in d.iter("dataset_item")]
               for d in question.iter("dataset_definition")}
    count = len(next(iter(columns.values())))
    return [{name: values[k] for name, values in columns.items()} for k in range(count)]


def canvas_items(out: Path) -> dict[str, etree._Element]:
    with zipfile.ZipFile(out / "calculated.canvas.zip") as z:
        root = local_names(etree.fromstring(z.read("calculated/calculated.xml")))  # QTI 1.2's namespace set aside
    return {item.get("ident").split(".", 1)[1]: item for item in root.iter("item")}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def test_every_output_is_valid_and_has_every_question(outputs: Path) -> None:
    # build() validated every document against the official schemas before writing it.
    assert set(qti_items(outputs)) == {*CALCULATED_ANSWERS, "sum"}
    assert set(moodle_questions(outputs)) == {*CALCULATED_ANSWERS, "sum"}
    assert [q.get("type") for q in moodle_questions(outputs).values()] == ["calculated"] * 6 + ["calculatedmulti"]
    items = canvas_items(outputs)
    assert {k for k in items if "." not in k} == set(CALCULATED_ANSWERS)
    assert sum(1 for k in items if k.startswith("sum.v")) == 6  # the choice question's variants


def test_qti_sets_answers_match_the_formulas(outputs: Path) -> None:
    for qid, expected in CALCULATED_ANSWERS.items():
        sets = qti_sets(qti_items(outputs)[qid])
        assert sets, qid
        for values in sets:
            assert close(values["ANSWER"], round(expected(values), 10)), (qid, values)
            assert values["LOWER"] <= values["ANSWER"] <= values["UPPER"]
    sets = qti_sets(qti_items(outputs)["root"])
    assert all(v["b"] ** 2 - 4 * v["a"] * v["c"] >= 0 for v in sets)  # the condition holds in every set
    assert sorted((v["d"], v["t"]) for v in qti_sets(qti_items(outputs)["listed"])) == sorted(LISTED)
    assert {v["n"] for v in qti_sets(qti_items(outputs)["square"])} <= {2, 3, 5, 7}
    assert len(qti_sets(qti_items(outputs)["speed"])) == 12


def test_relative_and_absolute_tolerances(outputs: Path) -> None:
    speed = qti_sets(qti_items(outputs)["speed"])[0]
    assert close(speed["UPPER"] - speed["ANSWER"], round(speed["ANSWER"] * 0.01, 10))
    root = qti_sets(qti_items(outputs)["root"])[0]
    assert close(root["UPPER"] - root["ANSWER"], 0.001)
    q = moodle_questions(outputs)
    assert (q["speed"].findtext("answer/tolerance"), q["speed"].findtext("answer/tolerancetype")) == ("0.01", "1")
    assert (q["root"].findtext("answer/tolerance"), q["root"].findtext("answer/tolerancetype")) == ("0.001", "2")
    c = canvas_items(outputs)
    assert c["speed"].findtext(".//answer_tolerance") == "1%"
    assert c["root"].findtext(".//answer_tolerance") == "0.001"


def test_moodle_formulas_give_every_sets_answer_as_moodle_computes_them(outputs: Path) -> None:
    questions = moodle_questions(outputs)
    for qid, expected in CALCULATED_ANSWERS.items():
        formula = questions[qid].findtext("answer/text")
        sets = moodle_sets(questions[qid])
        assert sets, qid
        for values in sets:
            numbers = {k: float(v) for k, v in values.items()}
            assert close(moodle_eval(formula, values), expected(numbers)), (qid, formula, values)
    assert len(moodle_sets(questions["listed"])) == 5
    assert questions["speed"].findtext("units/unit/unit_name") == "km/h"


def test_canvas_formulas_give_every_sets_answer_as_canvas_computes_them(outputs: Path) -> None:
    items = canvas_items(outputs)
    for qid, expected in CALCULATED_ANSWERS.items():
        formula = items[qid].findtext(".//formulas/formula")
        var_sets = items[qid].findall(".//var_set")
        assert var_sets, qid
        for var_set in var_sets:
            values = {v.get("name"): float(v.text) for v in var_set.findall("var")}
            answer = float(var_set.findtext("answer"))
            assert math.isclose(answer, expected(values), rel_tol=1e-8), (qid, values)
            assert math.isclose(canvas_eval(formula, values), answer, rel_tol=1e-8), (qid, formula, values)


def test_the_choice_group_states_its_points_per_item_for_new_quizzes(outputs: Path) -> None:
    """New Quizzes reads a question group's points from <points_per_item> only (a group without
    it is worth 0 there); Classic takes each variant's points_possible: the same 1 point."""
    with zipfile.ZipFile(outputs / "calculated.canvas.zip") as z:
        root = local_names(etree.fromstring(z.read("calculated/calculated.xml")))
    group = next(s for s in root.iter("section") if s.get("ident") == "calculated.sum")
    selection = group.find("selection_ordering/selection")
    assert selection.findtext("selection_number") == "1"
    assert selection.findtext("selection_extension/points_per_item") == "1"
    assert {i.findtext(".//qtimetadatafield[fieldlabel='points_possible']/fieldentry") for i in group.iter("item")} == {"1"}


def test_choice_options_show_each_sets_values(outputs: Path) -> None:
    items = canvas_items(outputs)
    for n in range(1, 7):
        item = items[f"sum.v{n}"]
        stem = etree.fromstring(f"<div>{item.findtext('presentation/material/mattext')}</div>")
        a, b = (int(x) for x in "".join(stem.itertext()).split("What is ")[1].rstrip("?").split(" + "))
        texts = [lbl.findtext("material/mattext") for lbl in item.iter("response_label")]
        assert texts == [str(a + b), str(a * b), str(a - b), str(abs(a - b) + 1)]
        correct = item.find(".//respcondition[@continue='No']/conditionvar/varequal").text
        assert correct == item.find(".//response_label").get("ident")  # option A
    moodle = moodle_questions(outputs)["sum"]
    answers = [a.findtext("text") for a in moodle.findall("answer")]
    assert "{=({a} + {b})}" in answers[0] and answers[1].startswith("{=({a} * {b})}")
    for values in moodle_sets(moodle):
        a, b = float(values["a"]), float(values["b"])
        assert moodle_eval("({a} + {b})", values) == a + b
    qti = etree.fromstring(qti_items(outputs)["sum"])
    choices = qti.findall(f".//{QTI}simpleChoice")
    assert [c.find(f"{QTI}printedVariable").get("format") for c in choices] == ["%.0f"] * 4
    for values in qti_sets(qti_items(outputs)["sum"]):
        ids = [c.find(f"{QTI}printedVariable").get("identifier") for c in choices]
        assert [values[i] for i in ids] == [values["a"] + values["b"], values["a"] * values["b"],
                                            values["a"] - values["b"], abs(values["a"] - values["b"]) + 1]


def _run_template(item_xml: bytes, seed: int, response: str | None = None) -> dict[str, object]:
    """Draw a set with pyslet (its random numbers seeded), answer ``response`` (default: the set's
    correct response) and return the template variables and SCORE."""
    from pyslet.qtiv2 import variables
    from pyslet.qtiv2 import xml as qtixml

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        doc = qtixml.QTIDocument()
        doc.read(src=item_xml)
        item = doc.root
        # pyslet keeps templateProcessing but leaves it out when it writes the item back, so the
        # engine's lost-element check (tests/helpers/qti21_engine.py) cannot be used here; the rules run.
        assert item.TemplateProcessing is not None
        item.render_html = lambda *args, **kwargs: None
        random.seed(seed)
        state = variables.ItemSessionState(item)
        state.select_clone()
        state.begin_session()
        state.begin_attempt()
        names = [d.identifier for d in item.TemplateDeclaration]
        values = {n: state[n].value for n in names}
        correct = state["RESPONSE.CORRECT"].value if "RESPONSE.CORRECT" in state else None
        state["RESPONSE"].set_value(float(response) if response is not None else correct)
        state.end_attempt()
        return {**values, "CORRECT": correct, "SCORE": state["SCORE"].value}


def test_pyslet_draws_a_set_and_scores_its_answer(outputs: Path) -> None:
    items = qti_items(outputs)
    for qid, expected in CALCULATED_ANSWERS.items():
        seen = set()
        for seed in range(12):
            run = _run_template(items[qid], seed)
            values = {k: float(v) for k, v in run.items() if isinstance(v, (int, float)) and k not in ("SET", "SCORE")}
            assert close(float(run["CORRECT"]), round(expected(values), 10)), (qid, run)
            assert run["SCORE"] == 1.0
            seen.add(run["SET"])
            wrong = float(run["UPPER"]) + max(1.0, abs(float(run["UPPER"])))
            assert _run_template(items[qid], seed, str(wrong))["SCORE"] == 0.0
        assert len(seen) > 1, qid  # the draw varies


def test_same_bytes_across_runs_and_job_counts(tmp_path: Path) -> None:
    sources = [CALCULATED_SOURCE, ROOT / "tests" / "fixtures" / "all-types.yaml"]
    digests = []
    for name, jobs in (("a", 1), ("b", 2), ("c", 1)):
        build(BuildOptions(sources=sources, out_dir=tmp_path / name, jobs=jobs))
        digests.append({p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((tmp_path / name).iterdir())})
    assert digests[0] == digests[1] == digests[2]


# -- the formula language and its translations --------------------------------------------------

#: One formula per function and operator rule, with values to try (none at a rounding tie).
TRANSLATED = [
    ("sqrt(x)", {"x": 7.3}), ("abs(x)", {"x": -4.2}), ("exp(x)", {"x": 1.7}), ("exp(x)", {"x": 0}),
    ("ln(x)", {"x": 12.5}), ("log(x)", {"x": 250}), ("log(x, 2)", {"x": 40}), ("sin(x)", {"x": 0.7}),
    ("cos(x)", {"x": -2.1}), ("tan(x)", {"x": 1.1}), ("asin(x)", {"x": 0.3}), ("acos(x)", {"x": -0.45}),
    ("atan(x)", {"x": 3.2}), ("floor(x)", {"x": -2.7}), ("ceil(x)", {"x": 2.2}), ("round(x)", {"x": -2.7}),
    ("round(x)", {"x": 2.4}), ("round(x, 2)", {"x": -3.14159}), ("round(x, 1)", {"x": 7.26}),
    ("min(x, y, 3)", {"x": 4, "y": -1}), ("max(x, y)", {"x": 4, "y": -1}), ("pi * x^2", {"x": 1.5}),
    ("e^x", {"x": 2}), ("-x^2", {"x": 3}), ("2^3^2", {}), ("x - y - 1", {"x": 5, "y": 2}),
    ("x / y / 2", {"x": 9, "y": 3}), ("-(x + y) * 2", {"x": 1, "y": 2}), ("x ** 2 + 1e-3", {"x": -1.5}),
    ("x * -y", {"x": 2, "y": -3}),
]
PLAIN = {
    "sqrt(x)": lambda x: math.sqrt(x), "abs(x)": abs, "exp(x)": math.exp, "ln(x)": math.log,
    "log(x)": math.log10, "log(x, 2)": math.log2, "sin(x)": math.sin, "cos(x)": math.cos, "tan(x)": math.tan,
    "asin(x)": math.asin, "acos(x)": math.acos, "atan(x)": math.atan, "floor(x)": math.floor, "ceil(x)": math.ceil,
    "round(x)": lambda x: math.copysign(math.floor(abs(x) + 0.5), x), "round(x, 2)": lambda x: -3.14,
    "round(x, 1)": lambda x: 7.3, "pi * x^2": lambda x: math.pi * x * x, "e^x": lambda x: math.e ** x,
    "-x^2": lambda x: -(x * x), "2^3^2": lambda: 512.0,
}


@pytest.mark.parametrize("formula,values", TRANSLATED, ids=[f"{f} {v}" for f, v in TRANSLATED])
def test_each_function_means_the_same_in_moodle_and_canvas(formula: str, values: dict[str, float]) -> None:
    node = F.parse(formula)
    ours = F.evaluate(node, values)
    if formula in PLAIN:
        assert close(ours, PLAIN[formula](*values.values())), formula
    moodle_values = {k: F.plain_decimal(v) for k, v in values.items()}
    assert close(moodle_eval(F.to_moodle(node), moodle_values), ours), F.to_moodle(node)
    # Moodle's own check (qtype_calculated_find_formula_errors, ported) takes every translation,
    # as an answer and as a {=...} of a calculated choice option (issue 30).
    assert F.moodle_formula_error(F.to_moodle(node)) is None, F.to_moodle(node)
    assert F.moodle_text_formula_errors("{=" + F.to_moodle(node) + "}") == [], F.to_moodle(node)
    assert close(canvas_eval(F.to_canvas(node), values), ours), F.to_canvas(node)


def test_every_function_is_translated_and_tried() -> None:
    tried = {name for formula, _ in TRANSLATED for name in F.FUNCTIONS if f"{name}(" in formula}
    assert tried == set(F.FUNCTIONS)


@pytest.mark.parametrize("text,column,message", [
    ("d / time", 5, "'time' is not a variable"),
    ("2x", 2, "unexpected 'x'"),
    ("sqrt(1, 2)", 1, "sqrt() takes 1 argument"),
    ("(d / t", 7, "ends too early"),
    ("d >= t", 3, "compares values"),
    ("foo(d)", 1, "unknown function 'foo'"),
])
def test_a_bad_formula_is_a_located_error(tmp_path: Path, text: str, column: int, message: str) -> None:
    source = tmp_path / "bad.md"
    source.write_text("---\ntitle: T\n---\n\n1. Speed? {#s type=calculated}\n\n```variables\nd = 1..9\nt = 1..9\n```\n\n"
                      f"Answer: {text}\n", encoding="utf-8")
    with pytest.raises(Exception) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out"))
    diagnostics = [d for d in failed.value.result.diagnostics if d.code in ("QB210", "QB211")]  # type: ignore[attr-defined]
    assert diagnostics and message in diagnostics[0].message
    assert (diagnostics[0].span.line, diagnostics[0].span.column) == (12, len("Answer: ") + column)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_sets_are_seeded_by_quiz_and_question(tmp_path: Path) -> None:
    from qti_builder.model import CalculatedQuestion
    from qti_builder.parametric import variants

    q = CalculatedQuestion(id="q", stem="{x}?", variables=[{"name": "x", "min": 1, "max": 1000}], answer="x")
    first = variants("quiz", q).sets
    assert first == variants("quiz", q.model_copy()).sets
    assert first != variants("other-quiz", q).sets
    assert len({s["x"] for s in first}) == 20  # distinct sets, 20 by default


def test_yaml_source_builds_the_same_question(tmp_path: Path) -> None:
    source = tmp_path / "speed.yaml"
    source.write_text(
        "id: calculated\ntitle: Calculated questions\nsections:\n  - id: numbers\n    title: Numbers that change\n"
        "    questions:\n      - type: calculated\n        id: listed\n        stem: 'A runner covers {d} m in {t} s. Her speed in m/s?'\n"
        "        sets: [{d: 45, t: 1.5}, {d: 60, t: 2.0}]\n        variables: [{name: t, decimals: 1}]\n"
        "        answer: d / t\n        tolerance: 0.01\n        decimals: 2\n", encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "out", formats=["moodle"]))
    question = next(q for q in etree.parse(str(tmp_path / "out" / "calculated.moodle.xml")).getroot().iter("question")
                    if q.get("type") == "calculated")
    assert moodle_sets(question) == [{"t": "1.5", "d": "45"}, {"t": "2.0", "d": "60"}]
    assert close(moodle_eval(question.findtext("answer/text"), moodle_sets(question)[1]), 30.0)


FIVE_SETS = [(45, 1.5), (60, 2.0), (90, 4.5), (12, 0.8), (75, 2.5)]


def test_a_moodle_calculated_question_imports_rebuilds_and_keeps_its_five_sets(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from qti_builder.cli import app

    fixture = ROOT / "tests" / "fixtures" / "import" / "moodle-types" / "speed-five-sets.xml"
    result = CliRunner().invoke(app, ["import", str(fixture), "--out", str(tmp_path / "source")])
    assert result.exit_code == 0, result.output
    (source,) = (tmp_path / "source").iterdir()
    text = source.read_text(encoding="utf-8")
    assert "type=calculated" in text and "(d, t) = (45, 1.5), (60, 2.0), (90, 4.5), (12, 0.8), (75, 2.5)" in text
    assert "Answer: d / t ± 1%" in text
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    out = tmp_path / "dist"
    stem = source.name.split(".")[0]
    # QTI 2.1: one template branch per set, each with the set's values and its answer.
    with zipfile.ZipFile(out / f"{stem}.qti21.zip") as z:
        item = z.read("items/speed.xml")
    sets = qti_sets(item)
    assert [(v["d"], v["t"]) for v in sets] == FIVE_SETS
    assert all(close(v["ANSWER"], round(v["d"] / v["t"], 10)) and close(v["UPPER"] - v["ANSWER"], round(v["ANSWER"] * 0.01, 10))
               for v in sets)
    # Moodle: the five dataset items of each wildcard, and the formula computing each answer.
    root = etree.parse(str(out / f"{stem}.moodle.xml")).getroot()
    question = next(q for q in root.iter("question") if q.get("type") == "calculated")
    assert [(float(s["d"]), float(s["t"])) for s in moodle_sets(question)] == FIVE_SETS
    assert [moodle_eval(question.findtext("answer/text"), s) for s in moodle_sets(question)] == [d / t for d, t in FIVE_SETS]
    assert (question.findtext("answer/tolerance"), question.findtext("answer/tolerancetype")) == ("0.01", "1")
    # Canvas: five var sets, each answer the formula's value as Canvas computes it.
    with zipfile.ZipFile(out / f"{stem}.canvas.zip") as z:
        canvas = local_names(etree.fromstring(z.read(next(n for n in z.namelist() if n.endswith(f"{stem}.xml")))))
    var_sets = canvas.findall(".//var_set")
    values = [{v.get("name"): float(v.text) for v in s.findall("var")} for s in var_sets]
    assert [(v["d"], v["t"]) for v in values] == FIVE_SETS
    formula = canvas.findtext(".//formulas/formula")
    assert all(math.isclose(canvas_eval(formula, v), float(s.findtext("answer")), rel_tol=1e-9) for v, s in zip(values, var_sets))


def test_check_reports_the_sets_of_each_question() -> None:
    from qti_builder.readers import read_quiz
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.summary import question_lines, type_summary

    quiz, source = read_quiz(CALCULATED_SOURCE, DiagnosticSink())  # type: ignore[misc]
    assert type_summary(quiz) == ("calculated: 7 questions: 6 calculated, 1 calculated choice; sets: speed 12, root 20, "
                                  "square 4, circle 10, listed 5, functions 8, sum 6")
    assert question_lines(quiz, {})[0] == "  speed (calculated, answer = d / t ± 1%, 12 sets, 1 point)"


@pytest.mark.parametrize("hostile", [
    "__import__('os').system('true')", "(1).real", "[1]", "x", "9^9^9^9", "1/0", "sqrt(-1)", "ln(0)",
    # deep or long enough to exhaust Python's recursion: refused before they are read
    "(" * 5000 + "1" + ")" * 5000, "1+" * 1500 + "1", "-" * 1999 + "1", "sqrt(" * 300 + "4" + ")" * 300,
])
def test_a_hostile_formula_is_a_formula_error_never_a_crash(hostile: str) -> None:
    from qti_builder.formulas import FormulaError, evaluate, parse

    with pytest.raises(FormulaError):
        evaluate(parse(hostile), {})


def test_the_largest_formula_allowed_is_read_and_computed() -> None:
    from qti_builder.formulas import MAX_OPERATIONS, evaluate, parse, to_canvas, to_moodle

    chain = parse("1+" * MAX_OPERATIONS + "1")
    assert evaluate(chain, {}) == MAX_OPERATIONS + 1
    assert to_moodle(chain).count("+") == to_canvas(chain).count("+") == MAX_OPERATIONS
    nested = parse("(" * (MAX_OPERATIONS - 1) + "2" + ")" * (MAX_OPERATIONS - 1))
    assert evaluate(nested, {}) == 2
