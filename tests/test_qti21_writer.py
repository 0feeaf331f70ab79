"""The QTI 2.1 package of the seed quiz, checked by parsing it, by the official schemas (through
xmlschema, a second validator beside the lxml one the build uses) and by pyslet's QTI engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NS, zip_members
from helpers.qti21_engine import score_item
from helpers.schemas import official_schemas
from helpers.seed_expectations import (ANSWERS, CHOICE_IDS, CORRECT_OPTIONS, ESSAY_IDS, EXPLANATIONS, MODEL_ANSWERS,
                               QUIZ_TITLE, STEMS)
from helpers.text import element_text
from lxml import etree


@pytest.fixture(scope="module")
def package(seed_build: Path) -> dict[str, bytes]:
    return zip_members((seed_build / "ray-train-tune.qti21.zip").read_bytes())


def test_package_layout(package: dict[str, bytes]) -> None:
    items = {f"items/{i}.xml" for i in CHOICE_IDS + ESSAY_IDS}
    assert set(package) == items | {"assessmentTest.xml", "imsmanifest.xml"}


def test_every_document_is_valid_against_the_official_schemas(package: dict[str, bytes]) -> None:
    qti, manifest = official_schemas()
    for name, data in package.items():
        schema = manifest if name == "imsmanifest.xml" else qti
        errors = list(schema.iter_errors(etree.fromstring(data)))
        assert errors == [], f"{name}: {errors[0]}"


def test_manifest(package: dict[str, bytes]) -> None:
    raw = package["imsmanifest.xml"]
    assert b'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' in raw  # Canvas/citolab need it declared
    root = etree.fromstring(raw)
    assert root.findtext("cp:metadata/cp:schema", namespaces=NS) == "QTIv2.1 Package"
    assert root.findtext("cp:metadata/cp:schemaversion", namespaces=NS) == "1.0.0"
    assert root.findtext(".//lom:general/lom:title/lom:string", namespaces=NS) == QUIZ_TITLE
    assert root.findtext(".//lom:general/lom:language", namespaces=NS) == "ko"
    resources = root.findall("cp:resources/cp:resource", NS)
    by_type: dict[str, list[etree._Element]] = {}
    for r in resources:
        by_type.setdefault(r.get("type"), []).append(r)
    assert len(by_type["imsqti_test_xmlv2p1"]) == 1 and len(by_type["imsqti_item_xmlv2p1"]) == 10
    test = by_type["imsqti_test_xmlv2p1"][0]
    item_ids = {r.get("identifier") for r in by_type["imsqti_item_xmlv2p1"]}
    assert {d.get("identifierref") for d in test.findall("cp:dependency", NS)} == item_ids
    for resource in resources:
        files = [f.get("href") for f in resource.findall("cp:file", NS)]
        assert resource.get("href") in files and all(f in package for f in files)  # every file listed is in the zip
    interactions = [r.findtext(".//md:interactionType", namespaces=NS) for r in by_type["imsqti_item_xmlv2p1"]]
    assert sorted(interactions) == ["choiceInteraction"] * 8 + ["extendedTextInteraction"] * 2


def test_test_references_each_item_by_its_own_identifier(package: dict[str, bytes]) -> None:
    test = etree.fromstring(package["assessmentTest.xml"])
    sections = test.findall("q:testPart/q:assessmentSection", NS)
    assert [s.get("title") for s in sections] == ["객관식 문제", "서술형 문제"]
    refs = [ref for s in sections for ref in s.findall("q:assessmentItemRef", NS)]
    assert len(refs) == 10
    for ref in refs:
        item = etree.fromstring(package[ref.get("href")])
        assert ref.get("identifier") == item.get("identifier")  # Canvas matches by identifier
        weight = ref.find("q:weight", NS)
        maximum = item.find("q:outcomeDeclaration[@identifier='SCORE']", NS).get("normalMaximum")
        assert float(weight.get("value")) == float(maximum) == 1.0
    sums = test.findall("q:outcomeProcessing/q:setOutcomeValue/q:sum/q:testVariables", NS)
    assert {s.get("variableIdentifier") for s in sums} == {"SCORE", "MAXSCORE"}


@pytest.mark.parametrize("index", range(8))
def test_choice_items(package: dict[str, bytes], index: int) -> None:
    raw = package[f"items/{CHOICE_IDS[index]}.xml"]
    item = etree.fromstring(raw)
    assert item.get("{http://www.w3.org/XML/1998/namespace}lang") == "ko"
    assert element_text(item.find("q:itemBody/q:div", NS)).startswith(STEMS[index])
    choices = item.findall(".//q:choiceInteraction/q:simpleChoice", NS)
    assert [c.get("identifier") for c in choices] == ["A", "B", "C", "D"]
    assert item.findtext("q:responseDeclaration/q:correctResponse/q:value", namespaces=NS) == ANSWERS[index]
    correct = next(c for c in choices if c.get("identifier") == ANSWERS[index])
    assert element_text(correct).startswith(CORRECT_OPTIONS[index])
    feedback = item.find("q:modalFeedback[@identifier='general_fb']", NS)  # Canvas: general comments
    assert feedback.get("outcomeIdentifier") == "FEEDBACK" and feedback.get("showHide") == "show"
    assert element_text(feedback).startswith(EXPLANATIONS[index])

    # Scored by an independent QTI 2.1 implementation (pyslet): full marks only for the right letter.
    assert score_item(raw, ANSWERS[index])["SCORE"] == 1.0
    for wrong in {"A", "B", "C", "D"} - {ANSWERS[index]}:
        outcome = score_item(raw, wrong)
        assert outcome["SCORE"] == 0.0 and outcome["FEEDBACK"] == {"general_fb"}
    assert score_item(raw, None)["SCORE"] == 0.0


def test_code_spans_stay_code(package: dict[str, bytes]) -> None:
    item = etree.fromstring(package["items/train-v2.xml"])
    codes = [c.text for c in item.iter(f"{{{NS['q']}}}code")]
    assert "ray.train.torch.TorchTrainer" in codes and "Trainer" in codes


@pytest.mark.parametrize("index", range(2))
def test_essay_items(package: dict[str, bytes], index: int) -> None:
    raw = package[f"items/{ESSAY_IDS[index]}.xml"]
    item = etree.fromstring(raw)
    interaction = item.find(".//q:extendedTextInteraction", NS)
    assert interaction.get("responseIdentifier") == "RESPONSE"
    rubric = item.find("q:itemBody/q:rubricBlock", NS)
    assert rubric.get("view") == "scorer"
    paragraphs = [element_text(p) for p in rubric.iter(f"{{{NS['q']}}}p")]
    assert [p[: len(s)] for p, s in zip(paragraphs, MODEL_ANSWERS[index])] == list(MODEL_ANSWERS[index])
    solution = item.find("q:modalFeedback[@identifier='solution']", NS)  # Canvas: example solution
    assert element_text(solution) == element_text(rubric)
    # A person grades essays: the engine leaves SCORE at 0 and never shows the model answer.
    outcome = score_item(raw, "학생의 답")
    assert outcome["SCORE"] == 0.0 and outcome["MAXSCORE"] == 1.0
    assert not outcome.get("FEEDBACK")
