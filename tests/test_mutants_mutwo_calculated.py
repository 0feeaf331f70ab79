"""The calculated writers, where a sampled mutmut mutant survived the selected tests (issue 35,
sixth session): what a student is shown, from sources written here by hand, read independently of
the writers: in Moodle with lxml and tests/helpers/moodle_engine.py (Moodle's own substitution of
wildcards and ``{=...}``), in a QTI 2.1 player with pyslet (tests/helpers/qti21_engine.py), in
Canvas as its question builder fills ``[name]``; and QB158 at the place found in the source's text.

Outside [tool.mutmut]'s selection (this file is a test file changed since main, which
``tools/mutation.py --recheck`` runs first for every survivor).
"""

from __future__ import annotations

import re
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from urllib.parse import unquote

import pytest
from lxml import etree

from helpers import write
from helpers.moodle_engine import dataset_count, dataset_values, grade_calculated, read_question, replace_expressions_in_text
from helpers.qti12_engine import calculated_sets
from helpers.qti21_engine import score_template_item, shown_text, template_sets
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed

#: A calculated choice question whose first option shows two values computed with different
#: decimals (one decimal, none: Moodle's own {=...} formats an option's values with one answer
#: length, so they must be wildcards), and whose second option shows one with a single decimal
#: while the question's own decimals are two.
FRUIT = """---
id: fruit
title: Calculated choice
---

1. Ann has {a} apples and {b} pears. Which is right? {#fruit type=calculated_choice sets=3 decimals=2}

```variables
a = 2..9
b = 2..9
```

A) {=a / b:1} and {=a * b:0}
B) {=a + b:1}
C) {a} pears

Answer: A
"""


def _one_decimal(value: Decimal) -> str:
    """As Moodle shows a value with one decimal (PHP's round: halves away from zero)."""
    return str(value.quantize(Decimal("0.1"), ROUND_HALF_UP))


def _moodle(tmp_path: Path) -> etree._Element:
    source = write(tmp_path, "fruit.md", FRUIT)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], jobs=1))
    root = etree.fromstring((tmp_path / "dist" / "fruit.moodle.xml").read_bytes(), etree.XMLParser(strip_cdata=True))
    return next(q for q in root.iter("question") if q.get("type") == "calculatedmulti")


def test_every_option_of_a_moodle_calculated_choice_shows_its_values_in_every_item(tmp_path: Path) -> None:
    """Each option as Moodle shows it for each item (replace_expressions_in_text with the answer's
    own length and format): the values computed with the decimals the source asks, never a
    wildcard left without a dataset; and only A is right."""
    question = _moodle(tmp_path)
    q = read_question(question)
    assert dataset_count(q) == 3
    for item in (1, 2, 3):
        values = dataset_values(q, item)
        a, b = int(values["a"]), int(values["b"])
        shown = [replace_expressions_in_text(x.text, values, x.answerlength, x.answerformat) for x in q.answers]
        expected = [f"{_one_decimal(Decimal(a) / Decimal(b))} and {a * b}", _one_decimal(Decimal(a + b)), f"{a} pears"]
        assert shown == expected, item
        assert [grade_calculated(q, item, {n}) for n in range(3)] == [1.0, 0.0, 0.0]


#: A calculated question with feedback of every kind a QTI 2.1 item shows: the right answer's,
#: the wrong answer's, and the explanation, each naming the set's values.
SPEED = """---
id: speed
title: Calculated feedback
---

1. A car covers {d} km in {t} hours. What is its speed in km/h? {#speed type=calculated sets=2 decimals=1}

```variables
(d, t) = (120, 2), (150, 3)
```

Answer: d / t ± 1%
Correct feedback: Right: {d} / {t}.
Incorrect feedback: Divide {d} by {t}.
Explanation: Speed is distance over time.
"""


def _qti_item(tmp_path: Path) -> bytes:
    source = write(tmp_path, "speed.md", SPEED)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    with zipfile.ZipFile(tmp_path / "dist" / "speed.qti21.zip") as package:
        return package.read("items/speed.xml")


def test_a_qti21_calculated_item_shows_the_feedback_of_the_answer_given(tmp_path: Path) -> None:
    """pyslet runs the item template for each set: the right answer (the set's d / t) scores the
    item and shows the correct feedback with the set's values and the explanation; a wrong one
    scores 0 and shows the incorrect feedback and the explanation."""
    item = _qti_item(tmp_path)

    def shown(set_number: int, outcomes: dict[str, object]) -> list[str]:
        """Each modal feedback the outcome FEEDBACK shows, as a player shows it in this set (in
        any order: which ones, not where)."""
        fired = outcomes["FEEDBACK"]
        fired = set(fired if isinstance(fired, (list, set, tuple)) else [fired])
        texts = []
        for identifier in fired:
            root = etree.fromstring(item)
            for feedback in root.findall("{*}modalFeedback"):
                if feedback.get("identifier") != identifier:
                    root.remove(feedback)
            if root.find("{*}modalFeedback") is not None:
                texts.append(shown_text(etree.tostring(root), set_number, "modalFeedback"))
        return sorted(texts)

    for set_number, (d, t) in ((1, (120, 2)), (2, (150, 3))):
        values, right = score_template_item(item, set_number, str(d / t))
        assert (values["d"], values["t"]) == (d, t)
        assert right["SCORE"] == 1.0
        assert shown(set_number, right) == [f"Right: {d} / {t}.", "Speed is distance over time."]
        _, wrong = score_template_item(item, set_number, str(d / t + 10))
        assert wrong["SCORE"] == 0.0
        assert shown(set_number, wrong) == [f"Divide {d} by {t}.", "Speed is distance over time."]


#: A value computed from the variables without decimals of its own ({p}), shown in the text.
PRODUCT = """---
id: product
title: Calculated product
---

1. A tile is {w} m wide and {h} m long, {p} square metres. What is its perimeter? {#tile type=calculated decimals=1}

```variables
(w, h) = (0.5, 2), (1.5, 3)
p = w * h
```

Answer: 2 * (w + h) ± 0.1
"""


def test_a_qti21_item_shows_a_value_without_decimals_of_its_own_as_it_is(tmp_path: Path) -> None:
    """A player shows a printedVariable without a format as the value is (QTI 2.1: the format is
    optional); the computed area 1 and 4.5 read as the source's values make them, in each set."""
    source = write(tmp_path, "product.md", PRODUCT)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    with zipfile.ZipFile(tmp_path / "dist" / "product.qti21.zip") as package:
        item = package.read("items/tile.xml")
    assert template_sets(item) == 2
    assert [shown_text(item, n) for n in (1, 2)] == [
        "A tile is 0.5 m wide and 2 m long, 1 square metres. What is its perimeter?",
        "A tile is 1.5 m wide and 3 m long, 4.5 square metres. What is its perimeter?"]


#: A calculated choice question whose options are formulas holding a computed value.
IN_MATH = """---
id: cm
title: Calculated choice math
---

1. Ann has {a} apples and {b} pears. How many fruits? {#fruits type=calculated_choice sets=2}

```variables
a = 2..9
b = 2..9
```

A) $n = {=a + b:0}$
B) $n = {=a + b + 1:0}$

Answer: A
"""


def test_a_moodle_calculated_choice_option_shows_its_value_inside_its_formula(tmp_path: Path) -> None:
    """An option's formula (TeX, as Moodle's MathJax filter reads it) holds the value Moodle computes
    for the item, with no escape of Markdown's left in the TeX; A is right."""
    source = write(tmp_path, "cm.md", IN_MATH)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], jobs=1))
    root = etree.fromstring((tmp_path / "dist" / "cm.moodle.xml").read_bytes(), etree.XMLParser(strip_cdata=True))
    question = next(q for q in root.iter("question") if q.get("type") == "calculatedmulti")
    q = read_question(question)
    for item in (1, 2):
        values = dataset_values(q, item)
        a, b = int(values["a"]), int(values["b"])
        shown = [replace_expressions_in_text(x.text, values, x.answerlength, x.answerformat) for x in q.answers]
        assert shown == [f"\\(n = {a + b}\\)", f"\\(n = {a + b + 1}\\)"], item
        assert [grade_calculated(q, item, {n}) for n in range(2)] == [1.0, 0.0]


#: A calculated choice question whose options hold the value of a inside a formula (${a}$) while
#: its text and another option's formula have the symbol a.
CHOICE_CLASH = """---
title: Choice clash
---

1. Which line has slope {a} and passes through the origin, where $a > 0$? {#slope type=calculated_choice sets=2}

```variables
a = 2..9
```

A) $y = {a}x$
B) $y = a + x$
C) $y = 2x$

Answer: A
"""


def test_qb158_in_a_calculated_choice_is_at_each_formula_with_the_symbol_text_and_options(tmp_path: Path) -> None:
    """A QTI 2.1 player would put a's value in place of the symbol a of every formula of the item
    (mathVariable): QB158 at the text's formula and at option B's, each at its own line and
    column as found in the source's text, and nowhere else (option A's formula holds the value)."""
    source = write(tmp_path, "clash.md", CHOICE_CLASH)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out", write=False, jobs=1))
    lines = source.read_text(encoding="utf-8").splitlines()

    def place(line_start: str, needle: str) -> str:
        number = next(n for n, line in enumerate(lines, 1) if line.startswith(line_start))
        return f"{source}:{number}:{lines[number - 1].index(needle) + 1}"

    found = [d.render().split(": error[")[0] + " " + d.message.split("'")[3]
             for d in failed.value.diagnostics if d.code == "QB158"]
    assert found == [f"{place('1. Which', 'a > 0')} a > 0", f"{place('B)', 'y = a + x')} y = a + x"]


#: A Canvas calculated question whose values stand inside a formula (an equation image).
IN_EQUATION = """---
id: cv
title: Canvas math
---

1. Solve ${a}x = {b}$ for $x$. {#solve type=calculated decimals=2}

```variables
(a, b) = (2, 6), (4, 10)
```

Answer: b / a ± 0.01
"""


def test_a_canvas_equation_image_shows_each_set_s_values(tmp_path: Path) -> None:
    """Canvas's question builder replaces each [name] of the stored HTML with the set's value
    (quiz_question_builder.rb), the equation image's address included: the address, decoded as
    Canvas's equation service decodes it (twice), draws the formula with the set's values."""
    source = write(tmp_path, "cv.md", IN_EQUATION)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], jobs=1))
    with zipfile.ZipFile(tmp_path / "dist" / "cv.canvas.zip") as package:
        root = etree.fromstring(package.read("cv/cv.xml"))
    item = next(e for e in root.iter() if isinstance(e.tag, str) and etree.QName(e).localname == "item")
    _, sets = calculated_sets(item)
    html = next(e.text for e in item.iter() if isinstance(e.tag, str) and etree.QName(e).localname == "mattext")
    drawn = []
    for each in sets:
        shown = html
        for name, value in each.values.items():
            shown = shown.replace(f"[{name}]", str(int(value)) if value == int(value) else str(value))
        drawn.append([unquote(unquote(src)) for src in re.findall(r'src="/equation_images/([^"?]*)', shown)])
    assert drawn == [["2x = 6", "x"], ["4x = 10", "x"]]
