"""The Canvas package, parsed and checked field by field against what Canvas's importers need
(docs/lms-behaviour.md, "Canvas Classic Quizzes importing the Canvas package" and "Canvas New Quizzes"), and
validated against the official QTI 1.2.1 DTD (with the namespace and Canvas's two extensions set
aside, as the DTD predates them) and IMS CP 1.1 XSD (through xmlschema, a second validator beside
the lxml one the build uses) and the project's settings schema.

Expected values are read by hand from the sources (source/python-fundamentals.md, the seed quiz,
source/content-showcase.md and the small sources below), not from the writer's output.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

import pytest
import xmlschema
from helpers import ROOT, SCHEMAS, SEED_SOURCE, write, zip_members
from helpers.canvas import QTI12, XSI, dtd_copy, local_names
from helpers.seed_expectations import ANSWERS, CHOICE_IDS, CORRECT_OPTIONS, ESSAY_IDS, EXPLANATIONS, MODEL_ANSWERS, STEMS
from helpers.text import element_text
from lxml import etree, html

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.pipeline import BuildIncomplete
from qti_builder.schemas import pins

FUNDAMENTALS = ROOT / "source" / "python-fundamentals.md"
SHOWCASE = ROOT / "source" / "content-showcase.md"
CANVAS_NS = "{http://canvas.instructure.com/xsd/cccv1p0}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"


@lru_cache(maxsize=1)
def validators() -> tuple[etree.DTD, xmlschema.XMLSchema10, xmlschema.XMLSchema10]:
    xml_xsd = str(SCHEMAS / pins()["aliases"]["http://www.w3.org/2001/03/xml.xsd"])
    manifest = xmlschema.XMLSchema10(str(SCHEMAS / "qti12" / "imscp_v1p1.xsd"), allow="local",
                                     uri_mapper=lambda uri: xml_xsd if uri.endswith("/xml.xsd") else uri)
    meta = xmlschema.XMLSchema10(str(ROOT / "schemas" / "canvas-quiz-meta.xsd"))
    return etree.DTD(str(SCHEMAS / "qti12" / "ims_qtiasiv1p2p1.dtd")), manifest, meta


class Package:
    """One Canvas zip, parsed (the assessment with its elements' plain names, :func:`local_names`)."""

    def __init__(self, path: Path) -> None:
        self.members = zip_members(path.read_bytes())
        self.quiz_id = path.name.removesuffix(".canvas.zip")
        self.raw_assessment = etree.fromstring(self.members[f"{self.quiz_id}/{self.quiz_id}.xml"])
        self.assessment = local_names(self.raw_assessment)
        self.meta = etree.fromstring(self.members[f"{self.quiz_id}/assessment_meta.xml"])
        self.manifest = etree.fromstring(self.members["imsmanifest.xml"])
        self.items = {i.get("ident").removeprefix(self.quiz_id + "."): i for i in self.assessment.iter("item")}

    def meta_value(self, name: str) -> str | None:
        return self.meta.findtext(CANVAS_NS + name)


def built(tmp_path: Path, source: Path) -> Package:
    build(BuildOptions(sources=[source], out_dir=tmp_path, formats=["canvas"]))
    return Package(tmp_path / f"{source.stem}.canvas.zip")


@pytest.fixture(scope="module")
def fundamentals(tmp_path_factory: pytest.TempPathFactory) -> Package:
    return built(tmp_path_factory.mktemp("fundamentals"), FUNDAMENTALS)


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> Package:
    return built(tmp_path_factory.mktemp("seed"), SEED_SOURCE)


@pytest.fixture(scope="module")
def all_types(tmp_path_factory: pytest.TempPathFactory) -> Package:
    return built(tmp_path_factory.mktemp("all-types"), ROOT / "tests" / "fixtures" / "all-types.yaml")


@pytest.fixture(scope="module")
def showcase(tmp_path_factory: pytest.TempPathFactory) -> Package:
    return built(tmp_path_factory.mktemp("showcase"), SHOWCASE)


def meta(item: etree._Element) -> dict[str, str]:
    return {f.findtext("fieldlabel"): f.findtext("fieldentry") or "" for f in item.iter("qtimetadatafield")}


def stem_html(item: etree._Element) -> html.HtmlElement:
    mattext = item.find("presentation/material/mattext")
    assert mattext.get("texttype") == "text/html"
    return html.fragment_fromstring(mattext.text, create_parent="div")


def labels(item: etree._Element, response: str = "response1") -> dict[str, str]:
    """Answer ident -> its text (HTML answers as their text)."""
    lid = item.find(f".//response_lid[@ident='{response}']")
    out = {}
    for label in lid.iter("response_label"):
        mattext = label.find("material/mattext")
        out[label.get("ident")] = element_text(html.fragment_fromstring(mattext.text or "", create_parent="div")) \
            if mattext.get("texttype") == "text/html" else mattext.text
    return out


def conditions(item: etree._Element) -> list[etree._Element]:
    return item.findall("resprocessing/respcondition")


def feedback(item: etree._Element, ident: str) -> str:
    mattext = item.find(f"itemfeedback[@ident='{ident}']/flow_mat/material/mattext")
    assert mattext is not None, f"no itemfeedback {ident}"
    return element_text(html.fragment_fromstring(mattext.text, create_parent="div"))


# -- grammar ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fundamentals", "seed", "showcase", "all_types"])
def test_every_file_is_valid(name: str, request: pytest.FixtureRequest) -> None:
    package: Package = request.getfixturevalue(name)
    dtd, manifest, settings = validators()
    assert dtd.validate(dtd_copy(package.raw_assessment)), dtd.error_log
    assert list(manifest.iter_errors(package.manifest)) == []
    assert list(settings.iter_errors(package.meta)) == []
    # In the QTI 1.2 namespace as Canvas's exports are (New Quizzes' parser reads nothing without
    # it), and without a DOCTYPE (nothing for Canvas's migration tool to fetch).
    raw = package.members[f"{package.quiz_id}/{package.quiz_id}.xml"]
    assert package.raw_assessment.tag == f"{{{QTI12}}}questestinterop" and b"<!DOCTYPE" not in raw
    assert package.raw_assessment.nsmap[None] == QTI12
    assert package.raw_assessment.get(XSI + "schemaLocation") == f"{QTI12} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"


def test_package_shape(fundamentals: Package) -> None:
    qid = "python-fundamentals"
    assert set(fundamentals.members) == {"imsmanifest.xml", f"{qid}/{qid}.xml", f"{qid}/assessment_meta.xml"}
    resources = {r.get("identifier"): r for r in fundamentals.manifest.iter(CP + "resource")}
    assert resources[qid].get("type") == "imsqti_xmlv1p2"
    assert [f.get("href") for f in resources[qid].iter(CP + "file")] == [f"{qid}/{qid}.xml"]
    settings_file = resources[f"{qid}-meta"]
    assert settings_file.get("type").endswith("learning-application-resource")
    assert settings_file.get("href") == f"{qid}/assessment_meta.xml"
    # The folder of the settings file is the assessment's ident, or Canvas ignores the file.
    assert fundamentals.assessment.find("assessment").get("ident") == qid == fundamentals.meta.get("identifier")
    assert b"QTIv2" not in fundamentals.members["imsmanifest.xml"]


# -- every kind ------------------------------------------------------------------------------------


def test_every_kind_has_its_canvas_type_and_points(fundamentals: Package) -> None:
    types = {ident: (meta(item)["question_type"], meta(item)["points_possible"]) for ident, item in fundamentals.items.items()}
    assert types == {
        "def-keyword": ("multiple_choice_question", "1"),
        "immutable": ("multiple_answers_question", "2"),
        "indentation": ("true_false_question", "1"),
        "len-hello": ("numerical_question", "1"),
        "division": ("numerical_question", "2"),
        "int-function": ("short_answer_question", "1"),
        "loop-blanks": ("fill_in_multiple_blanks_question", "2"),
        "type-examples": ("matching_question", "3"),
        "run-order": ("multiple_dropdowns_question", "1"),
        "longer-answers": ("text_only_question", "0"),
        "list-vs-tuple": ("essay_question", "5"),
        "squares-upload": ("file_upload_question", "5"),
    }
    # The quiz is worth what its questions add up to (Canvas stores what it is given).
    assert fundamentals.meta_value("points_possible") == "24"


def test_single_choice_with_every_comment(fundamentals: Package) -> None:
    item = fundamentals.items["def-keyword"]
    answers = labels(item)
    assert list(answers.values()) == ["func", "def", "lambda", "None of the above"]
    assert all(ident.isdigit() for ident in answers)  # never a word Canvas reads as feedback
    assert item.find(".//response_lid").get("rcardinality") == "Single"
    *shown, scoring, incorrect = conditions(item)
    # Feedback first, each letting processing go on; then the scoring condition.
    assert [c.get("continue") for c in shown] == ["Yes"] * 4
    assert scoring.get("continue") == "No"
    (right,) = scoring.findall("conditionvar/varequal")
    assert answers[right.text] == "def" and scoring.findtext("setvar") == "100"
    assert scoring.find("setvar").get("action") == "Set"
    assert scoring.find("displayfeedback").get("linkrefid") == "correct_fb"
    assert incorrect.find("displayfeedback").get("linkrefid") == "general_incorrect_fb"
    assert feedback(item, "general_fb") == "A function is defined with a def statement."
    assert feedback(item, "correct_fb") == "Well done."
    assert feedback(item, "general_incorrect_fb") == "Review the section on functions."
    by_text = {text: ident for ident, text in answers.items()}
    assert feedback(item, by_text["func"] + "_fb") == "There is no func keyword in Python."
    assert feedback(item, by_text["lambda"] + "_fb").startswith("lambda makes an anonymous function")


def test_multiple_answers(fundamentals: Package) -> None:
    item = fundamentals.items["immutable"]
    answers = labels(item)
    assert item.find(".//response_lid").get("rcardinality") == "Multiple"
    scoring = conditions(item)[-1]
    required = {answers[v.text] for v in scoring.findall("conditionvar/and/varequal")}
    excluded = {answers[v.text] for v in scoring.findall("conditionvar/and/not/varequal")}
    assert required == {"tuple", "str"} and excluded == {"list", "dict"}


def test_true_false_in_english_is_canvas_true_false(fundamentals: Package) -> None:
    item = fundamentals.items["indentation"]
    answers = labels(item)
    assert list(answers.values()) == ["True", "False"]
    right = conditions(item)[-1].findtext("conditionvar/varequal")
    assert answers[right] == "True"
    by_text = {text: ident for ident, text in answers.items()}
    assert feedback(item, by_text["True"] + "_fb") == "Yes: blocks are delimited by indentation."
    assert feedback(item, by_text["False"] + "_fb") == "It is: Python has no braces around blocks."


def test_true_false_in_korean_is_multiple_choice_with_korean_labels(tmp_path: Path) -> None:
    source = write(tmp_path, "tf.md", "---\ntitle: T\nlanguage: ko\n---\n1. 지구는 둥글다. {#tf}\n\n정답: 거짓\n")
    item = built(tmp_path, source).items["tf"]
    assert meta(item)["question_type"] == "multiple_choice_question"
    answers = labels(item)
    assert list(answers.values()) == ["참", "거짓"]
    assert answers[conditions(item)[-1].findtext("conditionvar/varequal")] == "거짓"


def numeric_form(condition: etree._Element) -> tuple[str, dict[str, str], str, str]:
    """A scoring condition of a numerical answer in Canvas's exporter form (canvas-lms
    lib/cc/qti/qti_items.rb, numerical_resprocessing): its value, the value's attributes, and the
    bounds beside it. Fails on any other shape."""
    (alternatives,) = condition.findall("conditionvar/or")
    assert [e.tag for e in alternatives] == ["varequal", "and"]
    value, bounds = alternatives
    assert [e.tag for e in bounds] == ["vargte", "varlte"]
    assert {e.get("respident") for e in (value, *bounds)} == {"response1"}
    attributes = {k: v for k, v in value.attrib.items() if k != "respident"}
    return value.text, attributes, bounds.findtext("vargte"), bounds.findtext("varlte")


def test_numerical_exact_answer_in_the_exporters_form(fundamentals: Package) -> None:
    # "Answer: 5": New Quizzes reads an exact answer only as the value with both bounds equal to it
    # (its ExactMatch compares the three texts); a lone <varequal> makes it refuse the question.
    (exact,) = conditions(fundamentals.items["len-hello"])
    assert numeric_form(exact) == ("5", {}, "5", "5")
    assert exact.get("continue") == "No" and exact.findtext("setvar") == "100"
    assert fundamentals.items["len-hello"].find(".//render_fib").get("fibtype") == "Decimal"


def test_numerical_margin_is_exact_for_both_quiz_engines(fundamentals: Package) -> None:
    # "3.5 ± 0.05" full credit; "3 (50%)" cannot be held (Canvas gives every answer full credit).
    (margin,) = conditions(fundamentals.items["division"])
    value, attributes, low, high = numeric_form(margin)
    assert (value, attributes, low, high) == ("3.5", {"margintype": "absolute", "margin": "0.05"}, "3.45", "3.55")
    # Classic takes the margin as BigDecimal(upper bound) - BigDecimal(value) (canvas-lms
    # gems/plugins/qti_exporter/lib/qti/numeric_interaction.rb): exact in decimal.
    assert Decimal(high) - Decimal(value) == Decimal(value) - Decimal(low) == Decimal("0.05")
    # New Quizzes (the gem's numerics/margin_error.rb) takes the margin attribute as written; from
    # the bounds it would compute 3.5 - 3.45 in floating point, which is not 0.05.
    assert float(value) - float(low) != 0.05


def test_numerical_percent_margin_and_range(tmp_path: Path) -> None:
    source = write(tmp_path, "n.md", """---
title: N
---
1. How far? {#far type=numerical}

Answer: 200 ± 20%

2. Which value? {#range type=numerical}

Answer: 2..4

3. Tiny? {#tiny type=numerical}

Answer: -1.5e-9 ± 5e-10
""")
    package = built(tmp_path, source)
    (far,) = conditions(package.items["far"])
    # The exporter's percent form: the margin in percent on the value, the bounds worked out.
    assert numeric_form(far) == ("200", {"margintype": "percent", "margin": "20"}, "160", "240")
    (middle,) = conditions(package.items["range"])
    assert numeric_form(middle) == ("3", {"margintype": "absolute", "margin": "1"}, "2", "4")
    (tiny,) = conditions(package.items["tiny"])
    value, attributes, low, high = numeric_form(tiny)
    assert attributes == {"margintype": "absolute", "margin": "5e-10"}
    assert (Decimal(value), Decimal(low), Decimal(high)) == (Decimal("-1.5e-9"), Decimal("-2e-9"), Decimal("-1e-9"))


def test_short_answer_keeps_every_full_credit_answer(fundamentals: Package) -> None:
    item = fundamentals.items["int-function"]
    scoring = conditions(item)[-1]
    assert [v.text for v in scoring.findall("conditionvar/varequal")] == ["int", "int()"]
    assert scoring.findtext("setvar") == "100"


def test_fill_in_blanks(fundamentals: Package) -> None:
    item = fundamentals.items["loop-blanks"]
    text = element_text(stem_html(item))
    assert "runs once per [b1] of values, and the statement [b2] leaves the loop early." in text
    assert list(labels(item, "response_b1").values()) == ["element", "item", "value"]
    # The drop-down becomes a text blank accepting its right answer: its wrong options would
    # give that answer away in a text blank, so they are left out (check --profile canvas says so).
    assert list(labels(item, "response_b2").values()) == ["break"]
    for blank in ("b1", "b2"):
        assert item.find(f".//response_lid[@ident='response_{blank}']/material/mattext").text == blank
    # One condition per accepted answer, each adding the blank's share, with its one varequal (the
    # shape Canvas's exporter writes for a blank; New Quizzes reads a drop-down's answer from it).
    scored = {(c.find("conditionvar/varequal").get("respident"), labels(item, c.find("conditionvar/varequal").get("respident"))[
        c.findtext("conditionvar/varequal")]) for c in conditions(item)}
    assert scored == {("response_b1", "element"), ("response_b1", "item"), ("response_b1", "value"), ("response_b2", "break")}
    assert all([e.tag for e in c.find("conditionvar")] == ["varequal"] for c in conditions(item))
    assert all(c.findtext("setvar") == "50" and c.find("setvar").get("action") == "Add" for c in conditions(item))


def test_drop_downs_only(tmp_path: Path) -> None:
    source = write(tmp_path, "dd.md", "---\ntitle: D\n---\n1. Pick. {#dd type=fill_in_blank}\n\n"
                                      "   Python is [[*dynamically | statically]] typed and [[*strongly | weakly]] so.\n")
    item = built(tmp_path, source).items["dd"]
    assert meta(item)["question_type"] == "multiple_dropdowns_question"
    for blank, right in (("b1", "dynamically"), ("b2", "strongly")):
        answers = labels(item, f"response_{blank}")
        (condition,) = [c for c in conditions(item) if c.find(f"conditionvar/varequal[@respident='response_{blank}']") is not None]
        assert answers[condition.findtext("conditionvar/varequal")] == right and len(answers) == 2


def test_matching_keeps_prompts_pairs_and_distractors(fundamentals: Package) -> None:
    item = fundamentals.items["type-examples"]
    assert element_text(stem_html(item)) == "Match each built-in type with an example value."  # clean text
    pairs = {}
    for lid in item.iter("response_lid"):
        prompt = element_text(html.fragment_fromstring(lid.findtext("material/mattext"), create_parent="div"))
        options = {l.get("ident"): l.findtext("material/mattext") for l in lid.iter("response_label")}
        assert sorted(options.values()) == sorted(['42', '"42"', "[4, 2]", "{4: 2}"])  # the distractor too
        (condition,) = [c for c in conditions(item) if c.find(f"conditionvar/varequal[@respident='{lid.get('ident')}']") is not None]
        pairs[prompt] = options[condition.findtext("conditionvar/varequal")]
    assert pairs == {"int": "42", "str": '"42"', "list": "[4, 2]"}
    # Canvas matches an answer by the first digits of its ident: unique within the item.
    idents = [l.get("ident") for l in next(item.iter("render_choice")).iter("response_label")]
    assert len(set(idents)) == len(idents) and all(i.isdigit() for i in idents)


def test_ordering_becomes_one_drop_down_per_position(fundamentals: Package) -> None:
    item = fundamentals.items["run-order"]
    text = element_text(stem_html(item))
    assert text.startswith("Put the steps of running a script in order.") and text.endswith("1. [p1] 2. [p2] 3. [p3]")
    steps = ["Write the source file", "Run python script.py", "Read the output"]
    for position, step in enumerate(steps, 1):
        answers = labels(item, f"response_p{position}")
        assert sorted(answers.values()) == sorted(steps)  # every item in every drop-down
        (condition,) = [c for c in conditions(item) if c.find(f"conditionvar/varequal[@respident='response_p{position}']") is not None]
        assert answers[condition.findtext("conditionvar/varequal")] == step
    # Every drop-down lists the items in the same order, and not in the answer's order.
    orders = [list(labels(item, f"response_p{n}").values()) for n in (1, 2, 3)]
    assert orders[0] == orders[1] == orders[2] != steps


def test_essay_model_answer_is_for_graders_and_upload_has_no_box(fundamentals: Package) -> None:
    essay = fundamentals.items["list-vs-tuple"]
    model = ("A list can be changed after it is created (items added, removed or replaced); a tuple cannot. "
             "Tuples can therefore be dictionary keys.")
    # Twice, for graders only: the "solution" feedback Classic files as the example solution, and
    # the grading_notes field New Quizzes reads (the gem's interactions/string_interaction.rb).
    assert feedback(essay, "solution") == model
    assert meta(essay)["grading_notes"] == model
    shown = {d.get("linkrefid") for d in essay.iter("displayfeedback")}
    assert "solution" not in shown  # never shown to a student by response processing
    assert essay.find(".//response_str/render_fib") is not None
    upload = fundamentals.items["squares-upload"]
    assert upload.find(".//response_str") is None and upload.find(".//response_lid") is None
    assert feedback(upload, "solution") == "for n in range(1, 11): print(n * n)"
    assert meta(upload)["grading_notes"] == "for n in range(1, 11): print(n * n)"


@pytest.mark.parametrize("name", ["fundamentals", "seed", "showcase", "all_types"])
def test_every_essay_and_upload_has_its_grading_notes(name: str, request: pytest.FixtureRequest) -> None:
    """grading_notes for every essay and file upload that has a model answer, in plain text, the
    same paragraphs as Classic's example solution; none for the others."""
    package: Package = request.getfixturevalue(name)
    graded_by_hand = [item for item in package.items.values()
                      if meta(item)["question_type"] in ("essay_question", "file_upload_question")]
    assert graded_by_hand or name == "showcase"
    for item in graded_by_hand:
        solution = item.find("itemfeedback[@ident='solution']/flow_mat/material/mattext")
        notes = meta(item).get("grading_notes")
        assert (solution is None) == (notes is None), item.get("ident")
        if solution is not None:
            paragraphs = [element_text(p) for p in html.fragment_fromstring(solution.text, create_parent="div")]
            assert notes.split("\n\n") == paragraphs and "<" not in notes


def test_seed_essays_grading_notes_keep_their_paragraphs(seed: Package) -> None:
    for ident, (first, second) in zip(ESSAY_IDS, MODEL_ANSWERS):
        paragraphs = meta(seed.items[ident])["grading_notes"].split("\n\n")
        assert len(paragraphs) == 2 and paragraphs[0].startswith(first) and paragraphs[1].startswith(second)


def test_grading_notes_are_plain_text(tmp_path: Path) -> None:
    source = write(tmp_path, "e.md", """---
title: E
---
1. Solve it. {#solve type=essay}

Answer: Use the formula $x = \\frac{-b}{2a}$ for the **vertex**.

- first step
- second step

```python
print(x < 1 & 2)
```

![A parabola](parabola.png)
""")
    (tmp_path / "parabola.png").write_bytes(ROOT.joinpath("source", "media", "workers.png").read_bytes())
    notes = meta(built(tmp_path, source).items["solve"])["grading_notes"]
    assert notes.split("\n\n") == ["Use the formula \\(x = \\frac{-b}{2a}\\) for the vertex.", "- first step",
                                    "- second step", "print(x < 1 & 2)", "[A parabola]"]


def test_text_only_has_text_and_nothing_to_answer(fundamentals: Package) -> None:
    item = fundamentals.items["longer-answers"]
    assert element_text(stem_html(item)) == "The next questions are longer answers."
    assert item.find("resprocessing") is None and item.find("itemfeedback") is None


# -- the seed quiz: Korean text, explanations, model answers ---------------------------------------


def test_seed_quiz_in_canvas(seed: Package) -> None:
    assert seed.meta_value("title") == "Ray Train과 Ray Tune 퀴즈"
    for ident, stem, answer, correct, explanation in zip(CHOICE_IDS, STEMS, ANSWERS, CORRECT_OPTIONS, EXPLANATIONS):
        item = seed.items[ident]
        assert meta(item)["question_type"] == "multiple_choice_question"
        assert element_text(stem_html(item)).startswith(stem)
        answers = labels(item)
        right = answers[conditions(item)[-1].findtext("conditionvar/varequal")]
        assert right.startswith(correct)
        assert list(answers.values()).index(right) == "ABCD".index(answer)
        assert feedback(item, "general_fb").startswith(explanation)
    for ident, (first, second) in zip(ESSAY_IDS, MODEL_ANSWERS):
        solution = seed.items[ident].find("itemfeedback[@ident='solution']/flow_mat/material/mattext").text
        paragraphs = [element_text(p) for p in html.fragment_fromstring(solution, create_parent="div").iter("p")]
        assert paragraphs[0].startswith(first) and paragraphs[1].startswith(second)
    assert seed.meta_value("points_possible") == "10"


# -- rich content ----------------------------------------------------------------------------------


def test_images_are_course_files_from_the_zip_root(showcase: Package) -> None:
    media = ROOT / "source" / "media"
    stem = stem_html(showcase.items["image-question"])
    listed = {f.get("href") for f in showcase.manifest.iter(CP + "file")}
    (img,) = stem.iter("img")
    assert img.get("alt") == "Three blue boxes, one per worker"
    src = img.get("src")
    assert src.startswith("media/") and src.isascii()  # from the zip root, never ../
    assert showcase.members[src] == (media / "workers.png").read_bytes()
    assert src in listed  # Canvas imports only the files the manifest lists
    gradient = html.fragment_fromstring(
        showcase.items["image-question"].find("itemfeedback[@ident='general_fb']//mattext").text, create_parent="div")
    assert showcase.members[next(gradient.iter("img")).get("src")] == (media / "다이어그램.png").read_bytes()
    audio = next(stem_html(showcase.items["audio-question"]).iter("audio"))
    assert showcase.members[audio.get("src")] == (media / "tone.wav").read_bytes()


def test_formulas_are_canvas_equation_images(showcase: Package) -> None:
    images = [img for img in stem_html(showcase.items["math-question"]).iter("img")]
    assert [img.get("data-equation-content") for img in images] == [
        "ax^2 + bx + c = 0", "x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}"]
    for img in images:
        tex = img.get("data-equation-content")
        assert img.get("class") == "equation_image" and img.get("title") == tex and img.get("alt") == f"LaTeX: {tex}"
        path, query = img.get("src").split("?")
        assert path.startswith("/equation_images/") and query == "scale=1"
        assert unquote(unquote(path.removeprefix("/equation_images/"))) == tex  # encoded twice


def test_code_and_tables_are_kept(showcase: Package) -> None:
    stem = stem_html(showcase.items["code-options"])
    code = stem.find(".//pre/code")
    assert code is not None and code.get("class", "").startswith("language-")
    answers = labels(showcase.items["code-options"])
    assert any("5 < 6 & 7 > 3" in a for a in answers.values())
    table = stem_html(showcase.items["table-question"]).find(".//table")
    assert table is not None and table.find(".//th") is not None


def test_strikethrough_is_written_as_del_which_canvas_keeps(tmp_path: Path) -> None:
    # Canvas's sanitiser removes <s> (keeping its text) and keeps <del> (content.md#raw-html).
    source = write(tmp_path, "s.md", "---\ntitle: S\n---\n1. Is ~~two~~ three odd? {#odd}\n\nAnswer: true\n")
    stem = stem_html(built(tmp_path, source).items["odd"])
    assert [d.text for d in stem.iter("del")] == ["two"] and not list(stem.iter("s"))


def test_hostile_html_never_reaches_the_package(tmp_path: Path) -> None:
    source = write(tmp_path, "h.md", "---\ntitle: H\n---\n1. Bold <b>stays</b>, <script>alert(1)</script>no script. "
                                     "<a href=\"javascript:alert(2)\">link</a> <img src=\"javascript:alert(3)\" onerror=alert(4) alt=i> {#h type=essay}\n")
    package = built(tmp_path, source)
    raw = package.members["h/h.xml"].decode()
    stem = stem_html(package.items["h"])
    assert stem.find(".//b").text == "stays"
    assert "alert" not in raw and "javascript:" not in raw and "onerror" not in raw.lower()


# -- groups and settings ---------------------------------------------------------------------------


def test_a_drawn_section_is_a_question_group(tmp_path: Path) -> None:
    source = write(tmp_path, "g.md", """---
title: G
---

# Warm-up {#warm-up}

Read each question carefully.

1. Free question {#free points=4 type=essay}

# Drawn {#pool select=2}

1. One {#one points=3}

A) a
B) b

Answer: A

2. Two {#two points=3}

A) a
B) b

Answer: B

3. Three {#three points=3}

A) a
B) b

Answer: A
""")
    package = built(tmp_path, source)
    root = package.assessment.find("assessment/section")

    def children(element: etree._Element) -> list[tuple[str, str]]:
        return [(c.tag, c.get("ident")) for c in element if isinstance(c.tag, str)]  # not the item markers

    # Sections are kept (Canvas flattens those that draw nothing); a description is shown where
    # its section starts, as a text-only item.
    assert children(root) == [("section", "warm-up"), ("section", "pool")]
    assert children(root.find("section")) == [("item", "g.warm-up"), ("item", "g.free")]
    assert meta(package.items["warm-up"])["question_type"] == "text_only_question"
    assert element_text(stem_html(package.items["warm-up"])) == "Read each question carefully."
    group = root.find("section[@ident='pool']")
    assert group.get("title") == "Drawn"
    assert group.findtext("selection_ordering/selection/selection_number") == "2"
    # Canvas's own extension for the group's points, as its exporter writes it (qti_generator.rb,
    # add_group): New Quizzes' parser reads the points of a group from nothing else.
    assert group.findtext("selection_ordering/selection/selection_extension/points_per_item") == "3"
    assert [meta(i)["points_possible"] for i in group.findall("item")] == ["3", "3", "3"]
    assert package.meta_value("points_possible") == "10"  # 4 + 2 drawn × 3
    # ... and read back, the package gives back the sections, the description and the draw.
    sink = DiagnosticSink()
    (quiz,) = [imported.quiz for imported in import_path(tmp_path / "g.canvas.zip", "g.canvas.zip", sink)]
    assert [(s.id, s.title, s.description, s.select, [q.id for q in s.questions]) for s in quiz.sections] == [
        ("warm-up", "Warm-up", "Read each question carefully.", None, ["free"]),
        ("pool", "Drawn", None, 2, ["one", "two", "three"])]


def test_quiz_settings_go_to_the_settings_file(tmp_path: Path) -> None:
    source = write(tmp_path, "s.yaml", """
id: s
title: Settings
description: "Read **carefully**."
settings:
  time_limit: 30
  allowed_attempts: unlimited
  shuffle_answers: false
  show_correct_answers: false
  one_question_at_a_time: true
  quiz_type: practice
sections:
  - id: main
    title: Main
    questions:
      - {id: q, type: essay, stem: "Why?"}
""")
    package = built(tmp_path, source)
    values = {child.tag.removeprefix(CANVAS_NS): child.text for child in package.meta}
    assert values == {"title": "Settings", "description": "<p>Read <strong>carefully</strong>.</p>",
                      "shuffle_answers": "false", "quiz_type": "practice_quiz", "show_correct_answers": "false",
                      "time_limit": "30", "allowed_attempts": "-1", "one_question_at_a_time": "true",
                      "points_possible": "1"}
    fields = {f.findtext("fieldlabel"): f.findtext("fieldentry")
              for f in package.assessment.find("assessment").iterfind("qtimetadata/qtimetadatafield")}
    assert fields == {"qmd_timelimit": "30", "cc_maxattempts": "unlimited"}


def test_unset_settings_are_left_to_canvas(fundamentals: Package) -> None:
    values = {child.tag.removeprefix(CANVAS_NS) for child in fundamentals.meta}
    assert values == {"title", "description", "shuffle_answers", "points_possible"}
    assert fundamentals.meta_value("shuffle_answers") == "true"  # its choice questions shuffle
    assert fundamentals.assessment.find("assessment/qtimetadata") is None


# -- the gate: Canvas's rules on what a template override writes -----------------------------------


def overlay(tmp_path: Path, name: str, old: str, new: str) -> Path:
    templates = tmp_path / "templates"
    target = templates / name
    target.parent.mkdir(parents=True, exist_ok=True)
    original = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert old in original
    target.write_text(original.replace(old, new), encoding="utf-8")
    return templates


def failing(tmp_path: Path, templates: Path) -> list[str]:
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[FUNDAMENTALS], out_dir=tmp_path / "dist", formats=["canvas"], templates=templates))
    assert not (tmp_path / "dist").exists()
    return [d.render() for d in failed.value.diagnostics]


@pytest.mark.parametrize(("name", "old", "new", "expected"), [
    ("canvas/item_choice.xml.j2", '<response_label ident="{{ answer.ident }}">',
     '<response_label ident="correct{{ answer.ident }}">', "reads as question feedback in Canvas"),
    ("canvas/item_blanks.xml.j2", '<response_label ident="{{ option.ident }}">',
     '<response_label ident="o{{ option.ident }}">', "of a blank must be a number"),
    ("canvas/_macros.xml.j2", "<fieldlabel>question_type</fieldlabel>", "<fieldlabel>kind</fieldlabel>",
     "item has no Canvas question_type"),
    ("canvas/assessment_meta.xml.j2", "<points_possible>{{ points }}</points_possible>",
     "<points_possible>100</points_possible>", "the settings file says the quiz is worth 100 points, its questions add up to 24"),
    ("canvas/imsmanifest.xml.j2", '<file href="{{ folder }}/{{ meta_file }}"/>', "",
     "is in the package but not listed in the manifest"),
    ("canvas/item_choice.xml.j2", "{% if incorrect_fb %}\n{{ m.show_always(\"general_incorrect_fb\") }}",
     "{% if general_fb %}\n{{ m.show_always(\"general_fb\") }}", "a feedback condition comes after the scoring condition"),
    ("canvas/item_choice.xml.j2", '<render_choice shuffle=', '<render_choice order=',
     'DTD: No declaration for attribute order of element render_choice'),
    # What New Quizzes needs, and Canvas's extensions: each checked where the DTD cannot.
    ("canvas/assessment.xml.j2", '<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"', "<questestinterop",
     "New Quizzes reads nothing of a package without it"),
    ("canvas/item_numerical.xml.j2", '<and><vargte respident="response1">{{ answer.low }}</vargte><varlte respident="response1">'
     "{{ answer.high }}</varlte></and>", "", "a numerical answer New Quizzes cannot read"),
    ("canvas/item_numerical.xml.j2", 'margin="{{ answer.margin }}"', 'margin="0.5"', "disagrees with its bounds"),
    ("canvas/item_numerical.xml.j2", '<vargte respident="response1">', '<vargte margin="1" respident="response1">',
     "DTD: No declaration for attribute margin of element vargte"),
    ("canvas/_macros.xml.j2", "<fieldlabel>grading_notes</fieldlabel>", "<fieldlabel>notes</fieldlabel>",
     "the example solution has no grading_notes metadata"),
    # Read of each item where it is validated, for the rules across the package's files.
    ("canvas/item_choice.xml.j2", "<material>{{ stem|canvas_mattext }}</material>",
     '<material><mattext texttype="text/html">&lt;img src="media/nowhere.png"/&gt;</mattext></material>',
     "an item shows media/nowhere.png, which is not in the package"),
])
def test_a_broken_override_is_caught_before_anything_is_written(tmp_path: Path, name: str, old: str, new: str,
                                                                expected: str) -> None:
    rendered = failing(tmp_path, overlay(tmp_path, name, old, new))
    assert any("error[QB401]" in r and expected in r for r in rendered), rendered


def test_an_assessment_frame_without_item_markers_is_refused(tmp_path: Path) -> None:
    rendered = failing(tmp_path, overlay(tmp_path, "canvas/assessment.xml.j2", "<!-- question: {{ number_of[entry.id] }} -->", ""))
    assert any("error[QB305]" in r for r in rendered)


def test_a_group_whose_points_per_item_disagree_is_refused(tmp_path: Path) -> None:
    source = write(tmp_path, "g.md", "---\ntitle: G\n---\n# Drawn {#pool select=1}\n\n"
                                     "1. One {#one points=2}\n\nA) a\nB) b\n\nAnswer: A\n\n"
                                     "2. Two {#two points=2}\n\nA) a\nB) b\n\nAnswer: B\n")
    templates = overlay(tmp_path, "canvas/assessment.xml.j2", "<points_per_item>{{ entry.points }}</points_per_item>",
                        "<points_per_item>7</points_per_item>")
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], templates=templates))
    rendered = [d.render() for d in failed.value.diagnostics]
    assert any("section 'pool' gives points_per_item '7', its questions are worth 2, 2" in r for r in rendered), rendered
    assert not (tmp_path / "dist").exists()


@pytest.mark.parametrize(("model_answer", "notes"), [
    ("#", "#"),  # Markdown that renders to nothing (an empty heading) is the text as written
    ("| a | b |\n|---|---|\n| 1 | 2 |", "a | b\n\n1 | 2"),
    ("one  \ntwo", "one\ntwo"),  # a hard line break stays a line break
])
def test_grading_notes_of_odd_model_answers(tmp_path: Path, model_answer: str, notes: str) -> None:
    source = write(tmp_path, "o.yaml", "id: o\ntitle: O\nsections:\n  - id: s\n    title: S\n    questions:\n"
                                       f"      - {{id: e, type: essay, stem: Why?, model_answer: {json.dumps(model_answer)}}}\n")
    assert meta(built(tmp_path, source).items["e"])["grading_notes"] == notes


@pytest.mark.parametrize("name", ["fundamentals", "seed", "showcase", "all_types"])
def test_feedback_shown_is_the_response_feedback_of_the_item(name: str, request: pytest.FixtureRequest) -> None:
    """Every condition shows Response feedback, as Canvas's exporter writes it (a Solution or Hint
    would be filed elsewhere by a QTI 1.2 reader), and names a feedback of its own item."""
    package: Package = request.getfixturevalue(name)
    for ident, item in package.items.items():
        defined = {f.get("ident") for f in item.iter("itemfeedback")}
        for shown in item.iter("displayfeedback"):
            assert shown.get("feedbacktype") == "Response", (ident, shown.get("linkrefid"))
            assert shown.get("linkrefid") in defined, (ident, shown.get("linkrefid"))



def _group_problem(tmp_path: Path, source: Path, template: str, old: str, new: str, ident: str) -> None:
    """With ``template`` overridden to give group ``ident`` the wrong points per item, the build
    fails with the problem at the line where the group starts in the assessment as it would be
    written (its frame with every question spliced in), read off the package built without it."""
    build(BuildOptions(sources=[source], out_dir=tmp_path / "good", formats=["canvas"]))
    archive = next((tmp_path / "good").glob("*.canvas.zip"))
    name, data = next((n, d) for n, d in zip_members(archive.read_bytes()).items() if n.endswith(f"/{source.stem}.xml"))
    line = next(e for e in etree.fromstring(data).iter(f"{{{QTI12}}}section") if e.get("ident") == ident).sourceline
    assert f'ident="{ident}"' in data.decode("utf-8").splitlines()[line - 1]
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"],
                           templates=overlay(tmp_path, template, old, new)))
    located = [d for d in failed.value.diagnostics if "gives points_per_item '7'" in d.message]
    assert [(d.generated.path, d.generated.line) for d in located if d.generated] == [(f"{archive.name}/{name}", line)]


def test_a_wrong_group_in_the_frame_is_located_in_the_assessment_as_written(tmp_path: Path) -> None:
    """The rules across the package read the frame, and each question's document where it was
    validated: a line of the frame is counted with every question spliced in before it."""
    source = write(tmp_path, "g.md", "---\ntitle: G\n---\n# First\n\n1. Before {#before}\n\nA) a\nB) b\n\nAnswer: A\n\n"
                                     "# Drawn {#pool select=1}\n\n1. One {#one points=2}\n\nA) a\nB) b\n\nAnswer: A\n\n"
                                     "2. Two {#two points=2}\n\nA) a\nB) b\n\nAnswer: B\n")
    _group_problem(tmp_path, source, "canvas/assessment.xml.j2", "<points_per_item>{{ entry.points }}</points_per_item>",
                   "<points_per_item>7</points_per_item>", "pool")


def test_a_wrong_group_in_a_question_document_is_located_in_the_assessment_as_written(tmp_path: Path) -> None:
    """A calculated choice question is a group of its own, written in its question's document."""
    from helpers.calculated import CALCULATED_SOURCE

    source = tmp_path / CALCULATED_SOURCE.name
    source.write_text(CALCULATED_SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "probe", formats=["canvas"]))
    members = zip_members(next((tmp_path / "probe").glob("*.canvas.zip")).read_bytes())
    assessment = etree.fromstring(next(d for n, d in members.items() if n.endswith(f"/{source.stem}.xml")))
    groups = [s.get("ident") for s in assessment.iter(f"{{{QTI12}}}section") if s.find(f"{{{QTI12}}}selection_ordering") is not None]
    assert len(groups) == 1  # the calculated choice question's
    _group_problem(tmp_path, source, "canvas/item_calculated_choice.xml.j2", "<points_per_item>{{ points }}</points_per_item>",
                   "<points_per_item>7</points_per_item>", groups[0])
