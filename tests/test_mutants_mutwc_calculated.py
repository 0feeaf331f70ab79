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
from helpers.qti12_engine import calculated_sets, grade_calculated

#: Three calculated questions whose numbers are all written in the source: two with listed sets
#: (one answer 0.05, which three significant figures show as 0.0500; one 0, 12 and 150, which two
#: show with no decimals) and one with two lists of values (every pair drawn: sets=4).
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
"""


@pytest.fixture(scope="module")
def canvas(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    folder = tmp_path_factory.mktemp("canvas-calculated")
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


def test_canvas_gets_each_variable_s_decimals_and_range_as_the_source_writes_them(canvas: Outputs) -> None:
    """Canvas's editor shows each variable with its decimal places (``scale``) and range, and
    generates new values with them: the decimals the source's values are written with, the
    smallest and largest value. A list of values without decimals has the decimals of its
    longest value (1.25: 2; whole numbers: 0)."""
    per = _variables(canvas.canvas_item("per"))
    assert per["m"] == ("2", "0.15", "12.3") and per["n"] == ("0", "1", "3")
    times = _variables(canvas.canvas_item("times"))
    assert times == {"r": ("2", "0.25", "1.25"), "c": ("0", "2", "3")}
    assert _variables(canvas.canvas_item("big")) == {"w": ("0", "0", "150"), "k": ("0", "1", "5")}


def test_canvas_shows_an_answer_to_as_many_decimals_as_its_significant_figures_need(canvas: Outputs) -> None:
    """Canvas has decimal places only: three significant figures of 0.05 are 0.0500 (4 decimals,
    the most any of the question's answers needs; 12.3 needs 1); two of 150, 12 and 0 need none;
    decimals=2 is 2."""
    places = {qid: canvas.canvas_item(qid).find(".//formulas").get("decimal_places") for qid in ("per", "big", "times")}
    assert places == {"per": "4", "big": "0", "times": "2"}


def test_canvas_shows_each_set_s_values_the_unit_after_the_text_and_grades_the_set_s_answer(canvas: Outputs) -> None:
    """The question text and the explanation as Canvas shows them for each set, the unit km in
    brackets after the text (Canvas has no unit field) and nothing after a text without one;
    each set's answer within its 1 % is right, one outside is wrong."""
    item = canvas.canvas_item("per")
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
    big = canvas.canvas_item("big")
    _, sets = calculated_sets(big)
    assert [_canvas_shows(big.findtext("presentation/material/mattext"), s.values) for s in sets] == [
        "A crate of 150 kg is split in 1 parts. How heavy is each?",
        "A crate of 36 kg is split in 3 parts. How heavy is each?",
        "A crate of 0 kg is split in 5 parts. How heavy is each?",
    ]
