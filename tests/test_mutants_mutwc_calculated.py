"""What a teacher and a student get of calculated questions, for what the mutation run of issue 35
over the calculated writers (writers/canvas_calculated.py, moodle_calculated.py,
qti21_calculated.py) found no test looking at. Each output is read as its LMS reads it, never
through the writer's code:

- Canvas: the item's ``<calculated>`` as Canvas's importer takes it (each variable's ``scale``,
  the decimals its editor generates values with, its ``min`` and ``max``, the formula's
  ``decimal_places``; lms-import facts, "Calculated questions in Canvas's format") and the
  question text as Canvas's question builder shows it for a set: each ``[name]`` replaced by the
  set's value (``round_if_whole``), as tests/test_formula_placeholders.py does it;
- Moodle: lxml over the question as ``qformat_xml::import_calculated`` reads it, and
  tests/helpers/moodle_engine.py for what a student is shown and graded;
- QTI 2.1: pyslet (tests/helpers/qti21_engine.py) running the item template.

The expected values are written by hand from the sources below.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from lxml import etree, html

from helpers import write
from helpers.outputs import Outputs, build_all
from helpers.calculated import source_eval
from helpers.moodle_engine import calculated_answers, dataset_count, dataset_values, grade_calculated as moodle_grade, read_question
from helpers.moodle_engine import replace_expressions_in_text
from helpers.qti12_engine import calculated_sets, grade_calculated
from helpers.qti21_engine import score_template_item, shown_text, template_sets
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed, Diagnostic

#: Calculated questions whose numbers are written in the source: two with listed sets (one answer
#: 0.05, which three significant figures show as 0.0500; one 0, 12 and 150, which two show with no
#: decimals), one with two lists of values (every pair drawn: sets=4) and two values computed from
#: them without decimals of their own (p, n), one with ranges, one of
#: them a dataset shared in its Moodle category, and a calculated choice question whose text shows a
#: value no option uses (k) and whose options show a plain value (c) and one computed from a
#: variable the text never shows (d).
CANVAS = """---
id: cw
title: Canvas calculated
---

1. A box of {m} kg is shared among {n} bags. How many kg are in each bag? {#per type=calculated figures=3 unit=kg}

```variables
(m, n) = (0.15, 3), (12.3, 1)
```

Answer: m / n ± 1%
Explanation: {m} / {n} = {=m / n:2}

2. A crate of {w} kg is split in {k} parts. How heavy is each? {#big type=calculated figures=2}

```variables
(w, k) = (150, 1), (36, 3), (0, 5)
```

Answer: w / k ± 0.5

3. What is {r} times {c}? {#times type=calculated decimals=2 sets=4}

```variables
r = 0.25, 1.25
c = 2, 3
p = r * c
n = c + 1
```

Answer: p ± 0.01
Explanation: {r} · {c} = {p}, and {n} is one more than {c}.

4. A car covers {d} km in {t} hours. What is its speed? {#speed type=calculated sets=3 decimals=1}

```variables
d = 20..200 step 10 shared
t = 1.5..4.0
```

Answer: d / t ± 1%
Correct feedback: Right: {d} / {t}.

5. Ann has {a} apples and gets {b} more while {k} friends watch. How many apples has she? {#apples type=calculated_choice sets=3}

```variables
a = 2..9
b = 2..9
k = 2..5
d = 3..6
c = 20..30
a != b
```

A) {=a + b:0}
B) {=a + b + 1:0}
C) {c} apples
D) {=d * 2 + 0.5:1}

Answer: A
"""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    folder = tmp_path_factory.mktemp("calculated")
    return build_all(folder, write(folder, "cw.md", CANVAS))


def _round_if_whole(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _canvas_shows(stored_html: str, values: dict[str, float]) -> str:
    """The text of an item's HTML as Canvas's question builder shows it for a set: each ``[name]``
    replaced by the set's value (quiz_question_builder.rb, ``Q_CALCULATED``)."""
    for name, value in values.items():
        stored_html = re.sub(r"\[" + re.escape(name) + r"\]", _round_if_whole(value), stored_html)
    return " ".join(html.fragment_fromstring(stored_html, create_parent="div").text_content().split())


def _variables(item: etree._Element) -> dict[str, tuple[str, str, str]]:
    """Each variable of the item's ``<vars>``: its scale, min and max as written."""
    return {v.get("name"): (v.get("scale"), v.findtext("min"), v.findtext("max"))
            for v in item.iter("var") if v.getparent().tag == "vars"}


def test_canvas_gets_each_variable_s_decimals_and_range_as_the_source_writes_them(outputs: Outputs) -> None:
    """Canvas's editor shows each variable with its decimal places (``scale``) and range, and
    generates new values with them: the decimals the source's values are written with, the
    smallest and largest value. A value computed without decimals of its own has as many as its
    longest value needs (p = r * c: 0.75, 2; n = c + 1: whole numbers, 0)."""
    per = _variables(outputs.canvas_item("per"))
    assert per["m"] == ("2", "0.15", "12.3") and per["n"] == ("0", "1", "3")
    times = _variables(outputs.canvas_item("times"))
    assert times == {"r": ("2", "0.25", "1.25"), "c": ("0", "2", "3"), "p": ("2", "0.5", "3.75"), "n": ("0", "3", "4")}
    assert _variables(outputs.canvas_item("big")) == {"w": ("0", "0", "150"), "k": ("0", "1", "5")}


def test_canvas_shows_an_answer_to_as_many_decimals_as_its_significant_figures_need(outputs: Outputs) -> None:
    """Canvas has decimal places only: three significant figures of 0.05 are 0.0500 (4 decimals,
    the most any of the question's answers needs; 12.3 needs 1); two of 150, 12 and 0 need none;
    decimals=2 is 2."""
    places = {qid: outputs.canvas_item(qid).find(".//formulas").get("decimal_places") for qid in ("per", "big", "times")}
    assert places == {"per": "4", "big": "0", "times": "2"}


def test_canvas_shows_each_set_s_values_the_unit_after_the_text_and_grades_the_set_s_answer(outputs: Outputs) -> None:
    """The question text and the explanation as Canvas shows them for each set, the unit km in
    brackets after the text (Canvas has no unit field) and nothing after a text without one;
    each set's answer within its 1 % is right, one outside is wrong."""
    item = outputs.canvas_item("per")
    tolerance, sets = calculated_sets(item)
    assert tolerance == "1%" and [(s.values["m"], s.values["n"]) for s in sets] == [(0.15, 3), (12.3, 1)]
    question = item.findtext("presentation/material/mattext")
    explanation = item.findtext("itemfeedback[@ident='general_fb']/flow_mat/material/mattext")
    shown = [(_canvas_shows(question, s.values), _canvas_shows(explanation, s.values)) for s in sets]
    assert shown == [
        ("A box of 0.15 kg is shared among 3 bags. How many kg are in each bag? (kg)", "0.15 / 3 = 0.05"),
        ("A box of 12.3 kg is shared among 1 bags. How many kg are in each bag? (kg)", "12.3 / 1 = 12.3"),
    ]
    assert [grade_calculated(s.answer, tolerance, r) for s, r in zip(sets, ("0.0504", "12.2"))] == [1.0, 1.0]
    assert [grade_calculated(s.answer, tolerance, r) for s, r in zip(sets, ("0.051", "12.1"))] == [0.0, 0.0]
    big = outputs.canvas_item("big")
    _, sets = calculated_sets(big)
    assert [_canvas_shows(big.findtext("presentation/material/mattext"), s.values) for s in sets] == [
        "A crate of 150 kg is split in 1 parts. How heavy is each?",
        "A crate of 36 kg is split in 3 parts. How heavy is each?",
        "A crate of 0 kg is split in 5 parts. How heavy is each?",
    ]


# -- Moodle: qformat_xml::import_calculated's reading ---------------------------------------------


def _datasets(question: etree._Element) -> dict[str, tuple[str, str, str, str, list[str]]]:
    """Each dataset definition as Moodle's importer keeps it: status, minimum, maximum, decimals,
    and its items' values in item order."""
    return {d.findtext("name/text"): (d.findtext("status/text"), d.findtext("minimum/text"), d.findtext("maximum/text"),
                                      d.findtext("decimals/text"), [i.findtext("value") for i in d.iter("dataset_item")])
            for d in question.iter("dataset_definition")}


def test_moodle_gets_each_wildcard_s_dataset_as_the_source_states_it(outputs: Outputs) -> None:
    """Moodle's dataset editor shows each wildcard's range and decimals and regenerates items with
    them: a range variable's range as the source writes it (20..200, 1.5..4), a listed one's
    smallest and largest value, the decimals its values are written with; a value the text shows
    computed ({=m / n:2}) is a wildcard of its own holding the values as shown; a variable written
    ``shared`` is a dataset shared in the category, every other one the question's own."""
    per = _datasets(outputs.moodle_question("per"))
    assert per == {"m": ("private", "0.15", "12.3", "2", ["0.15", "12.30"]),
                   "n": ("private", "1", "3", "0", ["3", "1"]),
                   "calc1": ("private", "0.05", "12.3", "2", ["0.05", "12.30"])}
    times = _datasets(outputs.moodle_question("times"))
    assert {k: v[:4] for k, v in times.items()} == {"r": ("private", "0.25", "1.25", "2"), "c": ("private", "2", "3", "0"),
                                                    "p": ("private", "0.5", "3.75", "2"), "n": ("private", "3", "4", "0")}
    assert sorted(zip(times["r"][4], times["c"][4])) == [("0.25", "2"), ("0.25", "3"), ("1.25", "2"), ("1.25", "3")]
    speed = _datasets(outputs.moodle_question("speed"))
    assert {k: v[:4] for k, v in speed.items()} == {"d": ("shared", "20", "200", "0"), "t": ("private", "1.5", "4", "1")}


def test_moodle_shows_each_item_s_values_and_grades_its_answer_with_the_source_s_tolerance(outputs: Outputs) -> None:
    """What a Moodle student reads in each dataset item (the wildcards replaced by the item's
    values, the explanation's computed value too) and how the answer is graded: 1 % either way
    of m / n, and within 0.5 of w / k; the unit kg offered (showunits 0, optional), none where the
    source has none (3: no unit field); the answer shown to 3 significant figures (format 2) or 1
    decimal (format 1)."""
    question = outputs.moodle_question("per")
    q = read_question(question)
    assert dataset_count(q) == 2
    shown = [(replace_expressions_in_text(question.findtext("questiontext/text"), dataset_values(q, item)),
              replace_expressions_in_text(question.findtext("generalfeedback/text"), dataset_values(q, item))) for item in (1, 2)]
    assert shown == [("<p>A box of 0.15 kg is shared among 3 bags. How many kg are in each bag?</p>", "<p>0.15 / 3 = 0.05</p>"),
                     ("<p>A box of 12.30 kg is shared among 1 bags. How many kg are in each bag?</p>", "<p>12.30 / 1 = 12.30</p>")]
    assert [moodle_grade(q, 1, r) for r in ("0.0504", "0.0496", "0.0506", "0.0494")] == [1.0, 1.0, 0.0, 0.0]
    assert [moodle_grade(q, 2, r) for r in ("12.4225", "12.1775", "12.4235", "12.1765")] == [1.0, 1.0, 0.0, 0.0]  # 12.3 ± 0.123
    assert [(u.findtext("unit_name"), u.findtext("multiplier")) for u in question.iter("unit")] == [("kg", "1")]
    assert (question.findtext("showunits"), question.findtext("answer/correctanswerformat"),
            question.findtext("answer/correctanswerlength")) == ("0", "2", "3")
    big = outputs.moodle_question("big")
    b = read_question(big)
    assert [moodle_grade(b, 2, r) for r in ("12.5", "11.5", "12.6", "11.4")] == [1.0, 1.0, 0.0, 0.0]  # 36 / 3
    assert (big.find("units"), big.findtext("showunits")) == (None, "3")
    speed = outputs.moodle_question("speed")
    assert (speed.findtext("answer/correctanswerformat"), speed.findtext("answer/correctanswerlength")) == ("1", "1")


def test_a_moodle_calculated_choice_has_a_wildcard_for_each_value_it_shows_and_computes_its_options(outputs: Outputs) -> None:
    """Moodle needs a dataset for every wildcard the question shows or computes with: a and b (the
    text and the options' formulas), k (the text only), c (an option's plain value), d (an option's
    formula only), and no other; each option shows its value as the source asks (whole numbers,
    one decimal for D, c as it is) in every item, and A is right."""
    question = outputs.moodle_question("apples")
    assert sorted(_datasets(question)) == ["a", "b", "c", "d", "k"]
    q = read_question(question)
    assert dataset_count(q) == 3
    for item in (1, 2, 3):
        values = dataset_values(q, item)
        a, b, c, d, k = (int(values[n]) for n in "abcdk")
        assert replace_expressions_in_text(question.findtext("questiontext/text"), values) == \
            f"<p>Ann has {a} apples and gets {b} more while {k} friends watch. How many apples has she?</p>"
        shown = [replace_expressions_in_text(x.text, values, x.answerlength, x.answerformat) for x in q.answers]
        assert shown == [f"{a + b}", f"{a + b + 1}", f"{c} apples", f"{d * 2 + 0.5:.1f}"]
        assert [moodle_grade(q, item, {n}) for n in range(4)] == [1.0, 0.0, 0.0, 0.0]


def test_moodle_shows_the_correct_feedback_of_a_calculated_answer_with_the_item_s_values(outputs: Outputs) -> None:
    """Moodle shows a calculated question the feedback of the answer it matches: the source's
    correct feedback, its wildcards replaced by the item's values."""
    question = outputs.moodle_question("speed")
    q = read_question(question)
    for item in range(1, dataset_count(q) + 1):
        values = dataset_values(q, item)
        assert replace_expressions_in_text(question.findtext("answer/feedback/text"), values) == \
            f"<p>Right: {values['d']} / {values['t']}.</p>"
    assert outputs.moodle_question("per").findtext("answer/feedback/text") in (None, "")


# -- QTI 2.1: the item template run by pyslet --------------------------------------------------


def test_a_qti21_item_shows_each_set_s_values_with_their_decimals(outputs: Outputs) -> None:
    """printedVariable shows each value with the decimals the source writes it with (12.3 as
    12.30, the computed {=m / n:2} as 0.05), the unit after the box, in every set."""
    raw = outputs.qti_raw("per")
    assert template_sets(raw) == 2
    assert [shown_text(raw, n) for n in (1, 2)] == [
        "A box of 0.15 kg is shared among 3 bags. How many kg are in each bag? kg",
        "A box of 12.30 kg is shared among 1 bags. How many kg are in each bag? kg"]
    assert [shown_text(raw, n, "modalFeedback") for n in (1, 2)] == ["0.15 / 3 = 0.05", "12.30 / 1 = 12.30"]
    times = outputs.qti_raw("times")
    shown = sorted(shown_text(times, n) for n in range(1, template_sets(times) + 1))
    assert shown == ["What is 0.25 times 2?", "What is 0.25 times 3?", "What is 1.25 times 2?", "What is 1.25 times 3?"]


#: A variable named like one of QTI 2.1's built-in variables (``duration``, every item session's
#: time spent), and a variable the text never shows (``disc``, only the answer uses it).
QTI_NAMES = """---
id: qw
title: QTI calculated
---

1. A runner needs {duration} s for {distance} m. What is her speed in m/s? {#run type=calculated sets=3 decimals=2}

```variables
distance = 100..400 step 100
duration = 10..60
```

Answer: distance / duration ± 1%

2. Give the larger root of {a}x² + {b}x + {c} = 0. {#root type=calculated sets=3 decimals=3}

```variables
a = 1..5
b = -10..10
c = -10..10
disc = b^2 - 4*a*c decimals 4
disc >= 0
```

Answer: (-b + sqrt(disc)) / (2*a) ± 0.001
"""


def _declared(raw: bytes) -> list[str]:
    root = etree.fromstring(raw)
    return [d.get("identifier") for d in root.iterfind("{*}templateDeclaration")]


def test_a_qti21_item_keeps_a_variable_named_like_a_built_in_one_apart_and_declares_the_unshown_ones(tmp_path: Path) -> None:
    """A player's own ``duration`` (the session's time) is not the source's variable: the item
    shows the drawn duration and grades its answer. Every variable the answer uses is set in
    every set, shown or not, so that the formula the item states (its correct response's
    interpretation) computes each set's answer from the item's own values; Moodle gets a dataset
    for the unshown variable too."""
    outputs = build_all(tmp_path, write(tmp_path, "qw.md", QTI_NAMES))
    for qid in ("run", "root"):
        raw = outputs.qti_raw(qid)
        (correct,) = outputs.qti_item(qid).iter("{*}correctResponse")
        formula, _, tolerance = correct.get("interpretation").partition(" ± ")
        assert tolerance == {"run": "1%", "root": "0.001"}[qid]
        for n in range(1, template_sets(raw) + 1):
            values, outcomes = score_template_item(raw, n, None)
            numbers = {k: v for k, v in values.items() if isinstance(v, float)}
            assert abs(source_eval(formula, numbers) - values["ANSWER"]) < 1e-9, (qid, formula, values)
            if qid == "run":
                distance, duration = (k for k in numbers if k.startswith("dist")), [k for k in numbers if k.startswith("dur")]
                assert duration != ["duration"], "the player's own duration"
                shown = f"A runner needs {numbers[duration[0]]:.0f} s for {numbers[next(distance)]:.0f} m. What is her speed in m/s?"
                assert shown_text(raw, n) == shown
            assert score_template_item(raw, n, str(values["ANSWER"]))[1]["SCORE"] == 1.0
    assert {"a", "b", "c", "disc"} <= set(_declared(outputs.qti_raw("root")))
    assert "distance" in _declared(outputs.qti_raw("run")) and "duration" not in _declared(outputs.qti_raw("run"))
    # Moodle too has a dataset for the unshown disc, and computes each item's answer with it.
    root = read_question(outputs.moodle_question("root"))
    assert sorted(root.datasets) == ["a", "b", "c", "disc"]
    for item in range(1, dataset_count(root) + 1):
        v = {name: float(value) for name, value in dataset_values(root, item).items()}
        assert v["disc"] == v["b"] ** 2 - 4 * v["a"] * v["c"]
        assert math.isclose(calculated_answers(root, item)[0], (-v["b"] + math.sqrt(v["disc"])) / (2 * v["a"]), abs_tol=1e-9)


# -- the diagnostics a user reads --------------------------------------------------------------


def _errors(tmp_path: Path, name: str, text: str, code: str, **options: object) -> tuple[Path, list[Diagnostic]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = write(tmp_path, name, text)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out", write=False, jobs=1, **options))  # type: ignore[arg-type]
    return source, [d for d in failed.value.diagnostics if d.code == code]


def _place(source: Path, line_text: str, needle: str, after: int = 0) -> str:
    """``file:line:col`` of ``needle`` in the line holding ``line_text`` (its ``after``-th
    occurrence after the first, columns from 1), searched in the source text."""
    lines = source.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line_text in line)
    column = -1
    for _ in range(after + 1):
        column = lines[number - 1].index(needle, column + 1)
    return f"{source}:{number}:{column + 1}"


#: The same variable as a placeholder inside a formula and, in other formulas, as a symbol: twice
#: in the text (the same formula), once in the explanation; a question of another kind first.
CLASH = """---
title: Clash
---

1. Is 4 even? {#even}

A) yes
B) no

Answer: A

2. Solve ${a}x + {b} = 0$ for $x$, where $a > 0$; if not, $a > 0$ anyway. {#lin type=calculated decimals=2}

```variables
a = 1..9
b = 1..9
```

Answer: -b / a ± 0.01
Explanation: Divide by $a$ on both sides.
"""


def test_each_formula_showing_a_mathvariable_s_symbol_is_an_error_at_its_own_place(tmp_path: Path) -> None:
    """QB158 for each formula that has the symbol a (which a QTI 2.1 player would replace with a's
    value), at that formula: both copies of ``a > 0`` in the text, each at its own column, and
    the explanation's ``a``; ``x`` is no variable, and the formula with the placeholder itself
    is fine. The message says what students would see and the hint how to fix it."""
    source, errors = _errors(tmp_path, "clash.md", CLASH, "QB158")
    message = ("error[QB158]: question 'lin': the formula '{f}' has the symbol a, and {{a}} stands inside a formula of "
               "the question: a QTI 2.1 player puts the value of a in place of both (its mathVariable), so students would "
               "see a number where the symbol was meant\n    hint: rename the variable (such as a to a1, in its "
               "placeholders, the answer and the variables block), or move the placeholder out of the formula")
    assert [d.render() for d in errors] == [
        f"{_place(source, 'Solve', 'a > 0')}: " + message.format(f="a > 0"),
        f"{_place(source, 'Solve', 'a > 0', after=1)}: " + message.format(f="a > 0"),
        f"{_place(source, 'Explanation:', 'a$')}: " + message.format(f="a"),
    ]
    # Fixed variants (--qti-variants) write each set's values into the formulas: nothing to refuse.
    source.write_text(CLASH.replace("title: Clash", "title: Clash\nsettings:\n  qti_variants: 2"), encoding="utf-8")
    built = build(BuildOptions(sources=[source], out_dir=tmp_path / "fixed", write=False, jobs=1))
    assert [d for d in built.diagnostics if d.code == "QB158"] == []


#: --qti-variants 2 names the fixed items of 'speed' speed.v1 and speed.v2.
VARIANT_NAMES = """---
title: T
settings:
  qti_variants: 2
---

1. A car covers {d} km in {t} hours. Its speed? {#speed type=calculated}

```variables
d = 20..200 step 5
t = 1..4
```

Answer: d / t ± 1%

2. A faster car? {#ID}

A) yes
B) no

Answer: A
"""


def test_a_fixed_variant_named_like_another_question_is_an_error_and_only_such_a_variant(tmp_path: Path) -> None:
    """QB306 names the question whose variant collides with another question's id (speed.v1, the
    first variant; speed.v2, the last); an id like a variant the setting does not make (speed.v3
    of two) is no collision."""
    for taken in ("speed.v1", "speed.v2"):
        source, errors = _errors(tmp_path / taken, "t.md", VARIANT_NAMES.replace("{#ID}", "{#" + taken + "}"), "QB306")
        assert [d.render() for d in errors] == [
            f"{_place(source, '{#speed', '1.')}: error[QB306]: the QTI 2.1 package would name a fixed variant of question "
            f"'speed' '{taken}', which is the id of another question or section\n    hint: give '{taken}' another id, or "
            "leave out the setting qti_variants (--qti-variants 0)"]
    free = write(tmp_path, "free.md", VARIANT_NAMES.replace("{#ID}", "{#speed.v3}"))
    built = build(BuildOptions(sources=[free], out_dir=tmp_path / "free-out", write=False, jobs=1))
    assert [d.render() for d in built.diagnostics if d.code == "QB306"] == []


#: A shared passage, which stands before the lines of its questions, with text Moodle would read
#: as a formula; its calculated question follows.
PASSAGE_FORMULA = """---
title: T
---

[1~2] A number {=a:b} is in the book.

1. What is {a} + {b}? {#sum type=calculated}

```variables
a = 1..9
b = 1..9
```

Answer: a + b

2. Is 4 even? {#even}

A) yes
B) no

Answer: A
"""


def test_a_formula_moodle_refuses_in_a_shared_passage_is_reported_where_it_is_and_at_its_question(tmp_path: Path) -> None:
    """Moodle would refuse the whole file for the passage's {=a:b}, which the calculated question
    shows above its text: QB325 at the formula, and again at the question, by the Moodle writer's
    own last check of the question text it writes (the passage's lines are not the question's, so
    the question is still written, and checked). Both say what Moodle reads and how to fix it."""
    source, errors = _errors(tmp_path, "passage.md", PASSAGE_FORMULA, "QB325", formats=["moodle"])
    said = ("error[QB325]: Moodle refuses a formula of question 'sum' (and with it the whole file): the question text holds "
            "{=a:b}: illegal formula syntax starting with 'a'\n    hint: write a computed value as a placeholder of the "
            "question's variables, {=a * b}; text in braces that starts with '=' is read by Moodle as a formula")
    assert [d.render() for d in errors] == [f"{_place(source, '[1~2]', '{=a:b}')}: {said}",
                                            f"{_place(source, '{#sum', '1.')}: {said}"]
