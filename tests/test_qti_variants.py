"""``qti_variants`` (``--qti-variants N``): calculated questions as N fixed items in a section that
draws one, for QTI players without item templates.

Each variant is checked against the item template of the same question (its n-th set's values,
answer and bounds, written by the template build), scored by pyslet (the right answer full marks,
a wrong one less), and the test's draw is run by pyslet's own selection: a student meets exactly
one variant of each question, worth the question's points. build() validated every document
against the official QTI 2.1 XSDs before writing it.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest
from helpers import NS, ROOT, write, zip_members
from helpers.calculated import CALCULATED_ANSWERS, CALCULATED_SOURCE, qti_items, qti_sets
from helpers.qti21_engine import score_item
from helpers.schemas import official_schemas
from helpers.text import element_text
from lxml import etree
from typer.testing import CliRunner

from qti_builder import pipeline
from qti_builder.cli import app
from qti_builder.diagnostics import BuildFailed
from qti_builder.pipeline import BuildOptions, build

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
COUNT = 3

#: A calculated question and a calculated choice question worth 3 points in a section that draws
#: two of its three children, and shuffles them.
DRAWN = """---
id: drawn
title: Drawn
settings:
  qti_variants: 4
---

# Pool {#pool select=2 shuffle=true}

1. A car covers {d} km in {t} hours. Its speed in km/h? {#speed type=calculated points=3 sets=6}

```variables
d = 20..200 step 5
t = 1.5..4.0
```

Answer: d / t ± 1%

2. What is {a} + {b}? {#sum type=calculated_choice points=3 sets=5}

```variables
a = 2..9
b = 2..9
a != b
```

A) {=a + b:0}
B) {=a * b:0}

Answer: A

3. Which keyword defines a function? {#def points=3}

A) func
B) def

Answer: B
"""


@pytest.fixture(scope="module")
def template_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("templates")
    build(BuildOptions(sources=[CALCULATED_SOURCE], out_dir=out, formats=["qti21"], jobs=1))
    return out


@pytest.fixture(scope="module")
def variant_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("variants")
    build(BuildOptions(sources=[CALCULATED_SOURCE], out_dir=out, formats=["qti21"], qti_variants=COUNT, jobs=1))
    return out


def package(out: Path, quiz: str = "calculated") -> dict[str, bytes]:
    return zip_members((out / f"{quiz}.qti21.zip").read_bytes())


def test_each_calculated_question_is_a_section_drawing_one_of_its_fixed_items(variant_build: Path) -> None:
    files = package(variant_build)
    questions = [*CALCULATED_ANSWERS, "sum"]
    assert {n for n in files if n.startswith("items/")} == {f"items/{q}.v{n}.xml" for q in questions for n in (1, 2, 3)}
    test = etree.fromstring(files["assessmentTest.xml"])
    (outer,) = test.findall("q:testPart/q:assessmentSection", NS)
    sections = outer.findall("q:assessmentSection", NS)
    assert [s.get("identifier") for s in sections] == [f"calculated.{q}" for q in questions]  # in the source's order
    for qid, section in zip(questions, sections):
        assert section.get("visible") == "false"
        assert section.find("q:selection", NS).get("select") == "1"
        refs = section.findall("q:assessmentItemRef", NS)
        assert [(r.get("identifier"), r.get("href")) for r in refs] == [
            (f"calculated.{qid}.v{n}", f"items/{qid}.v{n}.xml") for n in (1, 2, 3)]
        assert [r.find("q:weight", NS).get("value") for r in refs] == ["1"] * 3
        for ref in refs:  # Canvas matches a reference to its item by identifier
            item = etree.fromstring(files[ref.get("href")])
            assert item.get("identifier") == ref.get("identifier")
            assert item.find("q:templateProcessing", NS) is None
    manifest = etree.fromstring(files["imsmanifest.xml"])
    hrefs = {r.get("href") for r in manifest.iterfind(".//cp:resource[@type='imsqti_item_xmlv2p1']", NS)}
    assert hrefs == {n for n in files if n.startswith("items/")}


def test_every_document_is_valid_against_the_official_schemas(variant_build: Path, tmp_path: Path) -> None:
    # Again with xmlschema, which also resolves IDREFs; the drawn pool's test nests two levels.
    build(BuildOptions(sources=[write(tmp_path, "drawn.md", DRAWN)], out_dir=tmp_path, formats=["qti21"]))
    qti, manifest = official_schemas()
    for files in (package(variant_build), package(tmp_path, "drawn")):
        for path, data in files.items():
            errors = list((manifest if path == "imsmanifest.xml" else qti).iter_errors(etree.fromstring(data)))
            assert errors == [], f"{path}: {errors[0]}"


def test_variants_are_the_first_sets_of_the_item_template(template_build: Path, variant_build: Path) -> None:
    templates, files = qti_items(template_build), package(variant_build)
    for qid, expected in CALCULATED_ANSWERS.items():
        sets = qti_sets(templates[qid])
        for n, values in enumerate(sets[:COUNT], 1):
            item = etree.fromstring(files[f"items/{qid}.v{n}.xml"])
            correct = float(item.findtext("q:responseDeclaration/q:correctResponse/q:value", namespaces=NS))
            assert correct == values["ANSWER"] and correct == pytest.approx(expected(values), rel=1e-9)
            bounds = item.findall(".//q:responseCondition[1]/q:responseIf/q:and/*/q:baseValue", NS)
            assert [float(b.text) for b in bounds] == [values["LOWER"], values["UPPER"]]
    # The values in the texts, as the template's printedVariable formats show them.
    speed = qti_sets(templates["speed"])
    for n, values in enumerate(speed[:COUNT], 1):
        item = etree.fromstring(files[f"items/speed.v{n}.xml"])
        assert element_text(item.find(".//q:div[@class='stem']", NS)) == (
            f"A car covers {values['d']:.0f} km in {values['t']:.1f} hours. What is its average speed?")
        assert element_text(item.find("q:modalFeedback", NS)) == f"{values['d']:.0f} / {values['t']:.1f} = {values['calc1']:.2f} km/h."
        assert "{" not in etree.tostring(item, encoding="unicode")
    for n, values in enumerate(qti_sets(templates["sum"])[:COUNT], 1):
        item = etree.fromstring(files[f"items/sum.v{n}.xml"])
        a, b = int(values["a"]), int(values["b"])
        assert element_text(item.find(".//q:div[@class='stem']", NS)) == f"What is {a} + {b}?"
        choices = item.findall(".//q:simpleChoice", NS)
        assert [(c.get("identifier"), element_text(c)) for c in choices] == [
            ("A", str(a + b)), ("B", str(a * b)), ("C", str(a - b)), ("D", str(abs(a - b) + 1))]
        assert item.findtext("q:responseDeclaration/q:correctResponse/q:value", namespaces=NS) == "A"


def test_pyslet_scores_each_variants_answer_full_and_a_wrong_one_less(variant_build: Path) -> None:
    files = package(variant_build)
    for name, data in sorted(files.items()):
        if not name.startswith("items/"):
            continue
        item = etree.fromstring(data)
        correct = item.findtext("q:responseDeclaration/q:correctResponse/q:value", namespaces=NS)
        if name.startswith("items/sum."):
            wrong = "B"
        else:
            upper = float(item.findall(".//q:responseCondition[1]/q:responseIf/q:and/q:lte/q:baseValue", NS)[0].text)
            wrong = repr(upper + max(1.0, abs(upper)))
        right = score_item(data, correct)
        assert right["SCORE"] == right["MAXSCORE"] == 1.0, name
        assert score_item(data, wrong)["SCORE"] == 0.0, name


def _pyslet_forms(folder: Path, seeds: range) -> list[list[str]]:
    """The test's components as pyslet's selection and ordering make them, one list per seed."""
    from pyslet.qtiv2 import tests
    from pyslet.qtiv2 import xml as qtixml

    class Form(tests.TestForm):  # type: ignore[misc]
        def select(self, section, expand_children=True):  # type: ignore[no-untyped-def]
            # pyslet 0.7 passes a shuffled child section on by its identifier, then reads it as
            # the section itself (AttributeError: 'str' object has no attribute 'SectionPart')
            if isinstance(section, str):
                section = self.test.get_part(section)
            return super().select(section, expand_children)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        doc = qtixml.QTIDocument(baseURI=(folder / "assessmentTest.xml").as_uri())
        doc.read()
        forms = []
        for seed in seeds:
            random.seed(seed)
            forms.append(list(Form(doc.root)))
    return forms


def test_a_drawing_section_draws_the_variants_section_whole(tmp_path: Path) -> None:
    source = write(tmp_path, "drawn.md", DRAWN)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "out", formats=["qti21"]))
    files = package(tmp_path / "out", "drawn")
    folder = tmp_path / "unzipped"
    with zipfile.ZipFile(tmp_path / "out" / "drawn.qti21.zip") as z:
        z.extractall(folder)
    test = etree.fromstring(files["assessmentTest.xml"])
    pool = test.find("q:testPart/q:assessmentSection", NS)
    assert pool.find("q:selection", NS).get("select") == "2"
    # the pool's three children: two variants sections (4 and 4 of the 6 and 5 sets) and an item
    children = [(etree.QName(c).localname, c.get("identifier")) for c in pool if etree.QName(c).localname in
                ("assessmentSection", "assessmentItemRef")]
    assert children == [("assessmentSection", "drawn.speed"), ("assessmentSection", "drawn.sum"),
                        ("assessmentItemRef", "drawn.def")]
    weights = {r.get("identifier"): float(r.find("q:weight", NS).get("value")) for r in test.iter(f"{QTI}assessmentItemRef")}
    assert len(weights) == 9 and set(weights.values()) == {3.0}

    items = {etree.fromstring(files[n]).get("identifier"): files[n] for n in files if n.startswith("items/")}
    drawn_variants: set[str] = set()
    for form in _pyslet_forms(folder, range(40)):
        refs = [c for c in form if c in items]
        assert len(refs) == 2, form  # two of the pool's three children...
        for question in ("drawn.speed", "drawn.sum"):
            variants = [r for r in refs if r.startswith(question + ".v")]
            assert len(variants) == (1 if question in form else 0), form  # ...a drawn question shows one variant
            drawn_variants.update(variants)
        # the student's form is worth 2 × 3 points, each drawn item scoring its points when answered right
        total = max_total = 0.0
        for ref in refs:
            item = etree.fromstring(items[ref])
            correct = item.findtext("q:responseDeclaration/q:correctResponse/q:value", namespaces=NS)
            outcome = score_item(items[ref], correct)
            assert outcome["MAXSCORE"] == weights[ref] == 3.0
            total += float(outcome["SCORE"])  # type: ignore[arg-type]
            max_total += float(outcome["MAXSCORE"])  # type: ignore[arg-type]
        assert total == max_total == 6.0
    assert len(drawn_variants) > 4  # the draws vary


def test_the_setting_and_the_option(tmp_path: Path) -> None:
    source = write(tmp_path, "v.md", (ROOT / "tests" / "fixtures" / "calculated.md").read_text(encoding="utf-8")
                   .replace("title: Calculated questions\n", "title: Calculated questions\nsettings:\n  qti_variants: 2\n"))

    def items(*args: str) -> set[str]:
        out = tmp_path / str(len(list(tmp_path.iterdir())))
        result = CliRunner().invoke(app, ["build", str(source), "--out", str(out), "--format", "qti21", *args])
        assert result.exit_code == 0, result.output
        return {n for n in package(out) if n.startswith("items/speed")}

    assert items() == {"items/speed.v1.xml", "items/speed.v2.xml"}  # the setting
    assert items("--qti-variants", "4") == {f"items/speed.v{n}.xml" for n in range(1, 5)}  # the option wins
    assert items("--qti-variants", "0") == {"items/speed.xml"}  # 0: the item template
    assert items("--qti-variants", "50") == {f"items/speed.v{n}.xml" for n in range(1, 13)}  # all 12 sets, no more
    result = CliRunner().invoke(app, ["check", str(CALCULATED_SOURCE), "--qti-variants", "101"])
    assert result.exit_code == 2 and "--qti-variants" in result.output
    result = CliRunner().invoke(app, ["check", str(CALCULATED_SOURCE), "--qti-variants", "3"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["preview", str(CALCULATED_SOURCE), "--qti-variants", "3", "--out", str(tmp_path / "preview")])
    assert result.exit_code == 0, result.output


def test_only_the_qti_package_has_the_setting(tmp_path: Path) -> None:
    source = write(tmp_path, "s.yaml", "id: s\ntitle: S\nsettings:\n  qti_variants: 2\n  time_limit: 5\nsections:\n"
                   "  - id: a\n    title: A\n    questions:\n      - {type: essay, id: e, stem: Why?}\n")
    result = CliRunner().invoke(app, ["build", str(source), "--out", str(tmp_path / "out"), "--report", "json"])
    assert result.exit_code == 0, result.output
    (quiz,) = json.loads(result.stdout)["quizzes"]
    assert quiz["settings"] == {"time_limit": 5, "qti_variants": 2}
    # Moodle XML loses the time limit, not a setting of another output; the QTI 2.1 package carries
    # both, the Moodle quiz backup the time limit (qti_variants is the QTI package's own)
    assert {o["format"]: o["settings_not_carried"] for o in quiz["outputs"]} == {
        "qti21": [], "moodle": ["time_limit"], "canvas": [], "moodle-quiz": []}
    import jsonschema

    report = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(result.stdout), report)


def test_the_editor_schema_knows_the_setting() -> None:
    import jsonschema

    from qti_builder.model.schema import source_json_schema

    validator = jsonschema.Draft202012Validator(source_json_schema())
    quiz = {"title": "T", "sections": [{"id": "s", "title": "S", "questions": [{"type": "text_only", "id": "t", "stem": "x"}]}]}
    assert list(validator.iter_errors({**quiz, "settings": {"qti_variants": 5}})) == []
    for wrong in (-1, 101, True, "five"):
        assert list(validator.iter_errors({**quiz, "settings": {"qti_variants": wrong}})), wrong


def test_a_variants_name_taken_by_another_question_is_a_located_error(tmp_path: Path) -> None:
    source = write(tmp_path, "clash.md", DRAWN.replace("{#def points=3}", "{#speed.v2 points=3}"))
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "out", write=False))
    (error,) = [d for d in failed.value.diagnostics if d.code == "QB306"]
    assert (error.span.line, error.message) == (
        10, "the QTI 2.1 package would name a fixed variant of question 'speed' 'speed.v2', which is the id of another "
            "question or section")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "out", write=False, qti_variants=1))  # speed.v1 only: fine


def test_same_bytes_across_runs_and_job_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sources = [write(tmp_path, "drawn.md", DRAWN), CALCULATED_SOURCE, ROOT / "tests" / "fixtures" / "all-types.yaml"]
    monkeypatch.setattr(pipeline, "CHUNK", 3)  # items in chunks, beside the frame of test and manifest
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    digests = []
    for name, jobs in (("a", 1), ("b", 2), ("c", 1)):
        build(BuildOptions(sources=sources, out_dir=tmp_path / name, jobs=jobs, qti_variants=5))
        digests.append({p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((tmp_path / name).iterdir())})
    assert digests[0] == digests[1] == digests[2]
    shutil.rmtree(tmp_path / "b")
    # The Moodle file and the Canvas package do not change with the setting.
    build(BuildOptions(sources=sources, out_dir=tmp_path / "d", jobs=1))
    plain = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((tmp_path / "d").iterdir())}
    assert {k: v for k, v in plain.items() if not k.endswith(".qti21.zip")} == {
        k: v for k, v in digests[0].items() if not k.endswith(".qti21.zip")}
    assert plain["drawn.qti21.zip"] != digests[0]["drawn.qti21.zip"]


def test_a_shared_passage_shows_in_the_item_template_and_the_variants(tmp_path: Path) -> None:
    source = write(tmp_path, "p.md", "---\nid: p\ntitle: P\n---\n\n# S {#s}\n\n[1~2] A train leaves at noon with {n} cars.\n\n"
                   "1. Each car seats 50. How many seats? {#seats type=calculated sets=3}\n\n```variables\nn = 2..9\n```\n\n"
                   "Answer: 50 * n\n\n2. Is it a train? {#train}\n\nAnswer: true\n")
    for variants, names in ((0, ["items/seats.xml"]), (3, [f"items/seats.v{n}.xml" for n in (1, 2, 3)])):
        out = tmp_path / f"out{variants}"
        build(BuildOptions(sources=[source], out_dir=out, formats=["qti21"], qti_variants=variants))
        files = package(out, "p")
        for name in names:
            passage = etree.fromstring(files[name]).find(".//q:div[@class='passage']", NS)
            assert "A train leaves at noon with " in element_text(passage)
            printed = passage.find(".//q:printedVariable", NS)
            if variants:
                assert printed is None and element_text(passage).split()[-2].isdigit()
            else:
                assert printed.get("identifier") == "n"
