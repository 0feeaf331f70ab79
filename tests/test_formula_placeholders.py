"""A calculated question's placeholder inside a TeX formula (``${a}x + {b} = 0$``): what each
target shows a student in each set, read independently of the writers.

- QTI 2.1: run by pyslet and helpers.qti21_engine.shown_text, which applies ``printedVariable`` and
  the spec's ``mathVariable`` substitution (a player puts the value in place of each MathML
  ``<mi>`` of the variable's name).
- Canvas Classic: Canvas's quiz question builder replaces every ``[name]`` of the stored question
  HTML with the drawn set's value (``Regexp.new("\\\\[#{variable[:name]}\\\\]")`` and ``gsub``,
  app/models/quizzes/quiz_question_builder.rb, ``Q_CALCULATED``; the value through
  ``round_if_whole``); :func:`_canvas_shows` does the same here, then reads the equation image.
- Moodle: the wildcard ``{a}`` stays in the TeX, which Moodle substitutes before its TeX filter.

The expected texts are written by hand from the sources below.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from lxml import html

from helpers.moodle_engine import dataset_count, dataset_values, read_question, replace_expressions_in_text
from helpers.outputs import build_all
from helpers.qti12_engine import calculated_sets
from helpers.qti21_engine import score_template_item, shown_text, template_sets
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed

LINEAR = """---
id: fm
title: Formula placeholders
---

1. Solve ${a}x + {b} = 0$ for $x$ ({c} tries). {#lin type=calculated decimals=2}

```variables
a = 1..9
b = 1..9
c = 2..3
```

Answer: -b / a ± 0.01
"""

#: The same variable as a placeholder and, in another formula, as a symbol (line 5).
CLASH = """---
id: clash
title: Clash
---
1. Solve ${a}x + {b} = 0$, where $a \\neq 0$. {#lin type=calculated decimals=2}

```variables
a = 1..9
b = 1..9
```

Answer: -b / a ± 0.01
"""


def _write(tmp_path: Path, text: str, name: str) -> Path:
    source = tmp_path / f"{name}.md"
    source.write_text(text, encoding="utf-8")
    return source


def _number(value: float) -> str:
    return format(value, "g")


def test_qti21_shows_each_set_s_values_inside_the_formula_and_keeps_the_symbol_x(tmp_path: Path) -> None:
    raw = build_all(tmp_path, _write(tmp_path, LINEAR, "fm")).qti_raw("lin")
    assert template_sets(raw) > 1
    for set_number in range(1, template_sets(raw) + 1):
        values, _ = score_template_item(raw, set_number, None)
        a, b, c = (_number(values[n]) for n in "abc")
        assert shown_text(raw, set_number, "div") == f"Solve {a}x+{b}=0 for x ({c} tries)."
    # Only the variables whose placeholders stand in a formula are mathVariables: c is printed.
    declared = dict(re.findall(rb'templateDeclaration identifier="(\w+)"[^>]*mathVariable="(\w+)"', raw))
    assert (declared[b"a"], declared[b"b"], declared[b"c"]) == (b"true", b"true", b"false")
    assert b"<mo>[</mo>" not in raw and b"[[" not in raw


def test_a_variable_that_is_also_a_formula_s_symbol_is_an_error_at_that_formula_for_qti21(tmp_path: Path) -> None:
    source = _write(tmp_path, CLASH, "clash")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out", write=False, jobs=1))
    found = [d for d in failed.value.diagnostics if d.code == "QB158"]
    assert len(found) == 1, [d.render() for d in failed.value.diagnostics]
    assert found[0].span is not None
    # "1. Solve ${a}x + {b} = 0$, where $a \neq 0$.": the formula 'a \neq 0' starts at column 35.
    assert (found[0].span.line, found[0].span.column) == (5, 35)
    assert "a \\neq 0" in found[0].message and found[0].hint and "rename" in found[0].hint
    # Moodle and Canvas put values only where a placeholder is: nothing to refuse for them.
    others = build(BuildOptions(sources=[source], out_dir=tmp_path / "out2", write=False, jobs=1,
                                formats=["moodle", "canvas"]))
    assert [d.code for d in others.diagnostics if d.code == "QB158"] == []


def _round_if_whole(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _canvas_shows(question_html: str, values: dict[str, float]) -> html.HtmlElement:
    """The question as Canvas's question builder makes it for a set: each ``[name]`` of the HTML
    replaced by the value, then parsed."""
    for name, value in values.items():
        question_html = re.sub(r"\[" + re.escape(name) + r"\]", _round_if_whole(value), question_html)
    return html.fragment_fromstring(question_html, create_parent="div")


def test_canvas_gets_each_set_s_values_in_the_equation_image(tmp_path: Path) -> None:
    outputs = build_all(tmp_path, _write(tmp_path, LINEAR, "fm"))
    stored = outputs.canvas_text("lin")
    assert "&#91;" not in stored and "%2526%252391" not in stored
    _, sets = calculated_sets(outputs.canvas_item("lin"))
    assert len(sets) > 1
    for each in sets:
        shown = _canvas_shows(stored, each.values)
        a, b, c = (_round_if_whole(each.values[n]) for n in "abc")
        image = shown.find_class("equation_image")[0]
        expected = f"{a}x + {b} = 0"
        assert image.get("data-equation-content") == expected
        assert image.get("title") == expected and image.get("alt") == f"LaTeX: {expected}"
        # The address holds the TeX URL-encoded twice; Canvas decodes it twice to draw the image.
        address = image.get("src")
        assert address.startswith("/equation_images/") and address.endswith("?scale=1")
        assert unquote(unquote(address[len("/equation_images/"):-len("?scale=1")])) == expected
        assert f"({c} tries)" in shown.text_content()


def test_moodle_keeps_the_wildcards_inside_the_formula(tmp_path: Path) -> None:
    outputs = build_all(tmp_path, _write(tmp_path, LINEAR, "fm"))
    assert "\\({a}x + {b} = 0\\)" in outputs.moodle_text("lin")


CHOICE = """---
id: ch
title: Choice
---

1. Which is \\({a} \\cdot {b}\\), the product of {a} and {b}? {#prod type=calculated_choice sets=4}

```variables
a = 2..9
b = 2..9
a != b
```

A) {=a*b:0}
B) {=a+b:0}

Answer: A
Explanation: $${a} \\cdot {b} = {=a*b:0}$$
"""


def test_a_calculated_choice_item_shows_the_values_in_its_formulas_and_its_explanation(tmp_path: Path) -> None:
    raw = build_all(tmp_path, _write(tmp_path, CHOICE, "ch")).qti_raw("prod")
    for set_number in range(1, template_sets(raw) + 1):
        values, _ = score_template_item(raw, set_number, None)
        a, b = (_number(values[n]) for n in "ab")
        product = _number(values["a"] * values["b"])
        assert shown_text(raw, set_number, "div").startswith(f"Which is {a}·{b}, the product of {a} and {b}?")
        assert shown_text(raw, set_number, "modalFeedback") == f"{a}·{b}={product}"


#: Computed values inside formulas, in a calculated choice's options (written in Moodle's own
#: ``{=...}`` there) and in its explanation; ``*`` is a Markdown character that must reach Moodle's
#: formula unescaped (the build failed, a ``\\*`` in the generated formula).
DIVIDE = """---
id: dv
title: Divide
---

1. What is $\\frac{{a}}{{b}}$ as a decimal? {#frac type=calculated_choice sets=4}

```variables
a = 1..9
b = 2..5
```

A) ${=a/b:2}$
B) ${=a*b:1}$
C) ${=a+b+100:0}$

Answer: A
Explanation: $${a} \\div {b} = {=a/b:2}$$
"""


def test_moodle_computes_an_option_s_formula_inside_its_tex_in_every_set(tmp_path: Path) -> None:
    question = build_all(tmp_path, _write(tmp_path, DIVIDE, "dv")).moodle_question("frac")
    q = read_question(question)
    general = question.findtext("generalfeedback/text") or ""
    assert dataset_count(q) == 4
    for item in range(1, 5):
        values = dataset_values(q, item)
        a, b = int(values["a"]), int(values["b"])
        shown = [replace_expressions_in_text(x.text, values, x.answerlength, x.answerformat) for x in q.answers]
        # The values each option shows, worked out here from the set's a and b.
        assert shown == [f"\\({a / b:.2f}\\)", f"\\({a * b:.1f}\\)", f"\\({a + b + 100}\\)"]
        assert replace_expressions_in_text(question.findtext("questiontext/text") or "", values) == \
            f"<p>What is \\(\\frac{{{a}}}{{{b}}}\\) as a decimal?</p>"
        assert replace_expressions_in_text(general, values) == f"<div>$${a} \\div {b} = {a / b:.2f}$$</div>"
