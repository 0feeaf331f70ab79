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

import re
from pathlib import Path

import pytest
from lxml import etree, html

from helpers import write
from helpers.outputs import Outputs, build_all
from helpers.moodle_engine import dataset_count, dataset_values, grade_calculated as moodle_grade, read_question
from helpers.moodle_engine import replace_expressions_in_text
from helpers.qti12_engine import calculated_sets, grade_calculated

#: Calculated questions whose numbers are written in the source: two with listed sets (one answer
#: 0.05, which three significant figures show as 0.0500; one 0, 12 and 150, which two show with no
#: decimals), one with two lists of values (every pair drawn: sets=4), and one with ranges, one of
#: them a dataset shared in its Moodle category.
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
```

Answer: r * c ± 0.01

4. A car covers {d} km in {t} hours. What is its speed? {#speed type=calculated sets=3 decimals=1}

```variables
d = 20..200 step 10 shared
t = 1.5..4.0
```

Answer: d / t ± 1%
Correct feedback: Right: {d} / {t}.
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
    smallest and largest value. A list of values without decimals has the decimals of its
    longest value (1.25: 2; whole numbers: 0)."""
    per = _variables(outputs.canvas_item("per"))
    assert per["m"] == ("2", "0.15", "12.3") and per["n"] == ("0", "1", "3")
    times = _variables(outputs.canvas_item("times"))
    assert times == {"r": ("2", "0.25", "1.25"), "c": ("0", "2", "3")}
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
    assert {k: v[:4] for k, v in times.items()} == {"r": ("private", "0.25", "1.25", "2"), "c": ("private", "2", "3", "0")}
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
    assert [(u.findtext("unit_name"), u.findtext("multiplier")) for u in question.iter("unit")] == [("kg", "1")]
    assert (question.findtext("showunits"), question.findtext("answer/correctanswerformat"),
            question.findtext("answer/correctanswerlength")) == ("0", "2", "3")
    big = outputs.moodle_question("big")
    b = read_question(big)
    assert [moodle_grade(b, 2, r) for r in ("12.5", "11.5", "12.6", "11.4")] == [1.0, 1.0, 0.0, 0.0]  # 36 / 3
    assert (big.find("units"), big.findtext("showunits")) == (None, "3")
    speed = outputs.moodle_question("speed")
    assert (speed.findtext("answer/correctanswerformat"), speed.findtext("answer/correctanswerlength")) == ("1", "1")


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
