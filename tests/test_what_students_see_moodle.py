"""What a Moodle student sees of a calculated question, for what the template mutation run of
issue 35 found no test looking at. Each question is read as Moodle's ``qformat_xml``
``import_calculated`` reads it (each ``<unit>``'s ``multiplier`` and ``unit_name``, ``showunits``,
each answer's ``feedback``), with lxml, not the writer's code; the expected values are written
here from the source.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from helpers import write
from helpers.moodle_engine import read_question
from helpers.outputs import Outputs, build_all

SOURCE = """---
title: Speeds
---

1. A car covers {d} km in {t} hours. What is its average speed? {#speed type=calculated unit=km/h sets=3}

```variables
d = 20..200 step 5
t = 1.5..4.0
```

Answer: d / t ± 1%
Correct feedback: Distance over time.

2. What is {a} times {b}? {#product type=calculated sets=3}

```variables
a = 2..9
b = 2..9
```

Answer: a * b

3. What is {a} + {b}? {#sum-fixed type=calculated_choice sets=3 shuffle=false}

```variables
a = 2..9
b = 2..9
```

A) {=a + b:0}
   Feedback: The sum.
B) {=a / b:2}

Answer: A

4. What is {a} - {b}? {#difference type=calculated_choice sets=3}

```variables
a = 10..19
b = 2..9
```

A) {=a - b:0}
B) {=a + b:0}

Answer: A
"""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    folder = tmp_path_factory.mktemp("moodle-calculated")
    return build_all(folder, write(folder, "speeds.md", SOURCE))


def _units(question: etree._Element) -> list[tuple[str | None, str | None]]:
    return [(u.findtext("multiplier"), u.findtext("unit_name")) for u in question.findall("units/unit")]


def test_a_moodle_calculated_question_with_a_unit_offers_it_and_one_without_offers_none(outputs: Outputs) -> None:
    """Moodle accepts an answer in a unit whose multiplier it knows (1: the answer's own unit);
    showunits 0 makes the unit optional, 3 shows no unit field (qtype_numerical's UNITOPTIONAL,
    UNITNONE)."""
    speed, product = outputs.moodle_question("speed"), outputs.moodle_question("product")
    assert _units(speed) == [("1", "km/h")]
    assert speed.findtext("showunits") == "0"
    assert speed.findtext("unitsleft") in (None, "0")  # import_calculated's default: after the number, as km/h is
    assert _units(product) == [] and product.findtext("showunits") == "3"


def test_a_moodle_calculated_answer_shows_the_correct_feedback(outputs: Outputs) -> None:
    """Moodle shows a calculated question the feedback of the answer it matches: the source's
    correct feedback is that answer's."""
    (answer,) = outputs.moodle_question("speed").findall("answer")
    shown = lxml.html.fromstring(f"<div>{answer.findtext('feedback/text')}</div>").text_content()
    assert " ".join(shown.split()) == "Distance over time."
    (other,) = outputs.moodle_question("product").findall("answer")
    assert not (other.findtext("feedback/text") or "").strip()


def test_a_moodle_calculated_choice_question_shuffles_its_options_only_where_the_source_lets_it(outputs: Outputs) -> None:
    fixed, free = (read_question(outputs.moodle_question(i)) for i in ("sum-fixed", "difference"))
    assert fixed.shuffleanswers is False and free.shuffleanswers is True


def test_a_moodle_calculated_choice_shows_each_option_to_its_decimals_with_its_comment(outputs: Outputs) -> None:
    """import_calculated reads each answer's tolerance, tolerancetype, correctanswerformat and
    correctanswerlength with no default (a missing one is an undefined index); calculatedmulti
    shows each option's value to correctanswerlength decimals (format 1) and, once chosen, its
    feedback. The source asks for 0 and 2 decimals and comments the first option."""
    answers = outputs.moodle_question("sum-fixed").findall("answer")
    assert all(a.find(tag) is not None for a in answers
               for tag in ("tolerance", "tolerancetype", "correctanswerformat", "correctanswerlength"))
    assert [(a.findtext("correctanswerformat"), a.findtext("correctanswerlength")) for a in answers] == [("1", "0"), ("1", "2")]
    shown = [" ".join(lxml.html.fromstring(f"<div>{a.findtext('feedback/text') or ''}</div>").text_content().split())
             for a in answers]
    assert shown == ["The sum.", ""]
