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

from helpers import ROOT, write
from helpers.moodle_engine import read_question
from helpers.outputs import Outputs, build_all
from qti_builder import BuildOptions, build
from qti_builder.pipeline import BuildIncomplete

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


SLASHES = """---
title: Physics I/II
---

# Forces/Motion {#forces}

1. Is a force a vector? {#vector type=true_false}

Answer: True
"""


def _category_path(text: str) -> list[str]:
    """A category path as Moodle's importer splits it: on '/', a '//' being a literal slash."""
    return [part.replace("\0", "/") for part in text.replace("//", "\0").split("/")]


def test_a_title_with_a_slash_stays_one_moodle_category(tmp_path: Path) -> None:
    """Moodle splits a category path on '/': a quiz or section title with a slash must stay one
    category named as written, not become nested ones."""
    outputs = build_all(tmp_path, write(tmp_path, "slashes.md", SLASHES))
    paths = [_category_path(q.findtext("category/text") or "") for q in outputs.moodle.iter("question")
             if q.get("type") == "category"]
    assert ["$course$", "top", "Physics I/II", "Forces/Motion"] in paths, paths
    assert all(path[:3] == ["$course$", "top", "Physics I/II"] for path in paths), paths


@pytest.mark.parametrize("template", ["moodle/question_truefalse.xml.j2", "moodle/quiz.xml.j2"])
def test_a_moodle_template_error_is_a_located_error_not_a_traceback(tmp_path: Path, template: str) -> None:
    """A --templates copy of a Moodle template that uses an undefined value: the build reports it
    as an error at the template and writes nothing."""
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    overlay.write_text((ROOT / "templates" / template).read_text(encoding="utf-8") + "{{ no_such_value.anywhere }}\n",
                       encoding="utf-8")
    source = write(tmp_path, "slashes.md", SLASHES)
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], templates=tmp_path / "templates"))
    rendered = [d.render() for d in failed.value.diagnostics]
    assert rendered and all("error[" in r for r in rendered) and any(template in r for r in rendered), rendered
    assert not (tmp_path / "dist").exists()


NAMES = """id: names
title: Names
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: star
        stem: "The [[b1]] is the closest star to Earth."
        blanks:
          - {id: b1, kind: text, answers: [Sun]}
      - type: true_false
        id: long
        stem: "%s"
        answer: true
""" % ("Every word of this statement is long enough " * 4).strip()


def test_a_moodle_question_without_a_title_is_named_by_the_start_of_its_text(tmp_path: Path) -> None:
    """docs/source-format.md: a question's name is the start of its text, 100 characters in
    Moodle (80 in the others); a blank shows as ___ there, not as its marker."""
    outputs = build_all(tmp_path, write(tmp_path, "names.yaml", NAMES))
    assert outputs.moodle_question("star").findtext("name/text") == "The ___ is the closest star to Earth."
    name = outputs.moodle_question("long").findtext("name/text") or ""
    assert 90 < len(name) <= 100 and ("Every word of this statement is long enough " * 4).startswith(name.rstrip("…").strip())


@pytest.mark.parametrize("length", [39, 45])  # ids hold 64 characters: with the dot, 100 and 106
def test_a_moodle_category_id_number_fits_moodle_s_column_however_long_the_quiz_id(tmp_path: Path, length: int) -> None:
    """Moodle's idnumber column holds 100 characters: a section's category is <quiz id>.<section
    id> while that fits, its section id alone when it does not (still unique in its quiz)."""
    quiz_id, section_id = "q" * 60, "p" * length
    source = write(tmp_path, f"{quiz_id}.md", f"---\nid: {quiz_id}\ntitle: Long\n---\n\n# Part one {{#{section_id}}}\n\n"
                                             "1. Is a force a vector? {#vector type=true_false}\n\nAnswer: True\n")
    outputs = build_all(tmp_path, source)
    numbers = [q.findtext("idnumber") for q in outputs.moodle.iter("question") if q.get("type") == "category"]
    expected = f"{quiz_id}.{section_id}" if length == 39 else section_id
    assert expected in numbers and all(len(n or "") <= 100 for n in numbers), numbers
