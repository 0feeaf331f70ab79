"""Every question kind through the QTI 2.1 writer.

tests/fixtures/all-types.yaml (one question of each kind) and EXTRA below (edge cases, in their own
quiz so the fixture stays as the Moodle tests know it) are built into packages; each item is then
checked three ways:

1. against the official QTI 2.1 / CP schemas with xmlschema (which, unlike the build's lxml, also
   resolves IDREFs such as textEntryInteraction/@responseIdentifier);
2. as XML: interaction, correctResponse, mapping, feedback identifiers in the forms Canvas reads
   (docs/lms-behaviour.md), the manifest's interactionType;
3. by running its response processing in pyslet (tests/helpers/qti21_engine.py), an independent QTI engine.

Every expected value was worked out by hand from the sources, never copied from the output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import NS, ROOT, zip_members
from helpers.qti21_engine import score_item
from helpers.schemas import official_schemas
from helpers.text import element_text
from lxml import etree
from markupsafe import Markup

from qti_builder import BuildOptions, build
from qti_builder.model import QUESTION_CLASSES
from qti_builder.templating import fill_blanks
from qti_builder.writers.qti21 import scrambled, wildcard_pattern

FIXTURE = ROOT / "tests" / "fixtures" / "all-types.yaml"
Q = NS["q"]

#: all-types.yaml: question id -> (points, interaction types the manifest must list).
FIXTURE_ITEMS = {
    "capital": (2, ["choiceInteraction"]),
    "primes": (3, ["choiceInteraction"]),
    "earth-flat": (1, ["choiceInteraction"]),
    "author": (1, ["textEntryInteraction"]),
    "pi": (1, ["textEntryInteraction"]),
    "boiling": (1, ["textEntryInteraction"]),
    "explain": (5, ["extendedTextInteraction"]),
    "report": (10, ["uploadInteraction"]),
    "countries": (3, ["matchInteraction"]),
    "planets": (2, ["orderInteraction"]),
    "sentence": (2, ["textEntryInteraction", "inlineChoiceInteraction"]),
    "intro-note": (0, []),
    "year": (1, ["choiceInteraction"]),
    "year2": (1, ["choiceInteraction"]),
}

#: Canvas's feedback rules (lms-import-facts.md): identifiers it files as general, incorrect or
#: correct comments, and that it refuses as per-answer feedback.
CANVAS_RESERVED = re.compile(r"general_|_all|wrong|incorrect|correct|_IC$|_C$", re.I)

EXTRA = """\
id: extra
title: Edge cases
language: ko
sections:
  - id: s
    title: S
    questions:
      - type: true_false
        id: tf-ko
        stem: 하늘은 파랗다.
        answer: true
        feedback: {correct: 맞아요., incorrect: 아니에요., general: 하늘은 파랗습니다.}
      - type: short_answer
        id: star
        stem: Write the product of a and b as code.
        case_sensitive: true
        answers:
          - {text: 'a\\*b', score: 100}
          - {text: 'A*', score: 50, feedback: 'Lower case, please.'}
      - type: short_answer
        id: colour
        stem: Name the property.
        answers:
          - {text: '*colo*r*', score: 100}
      - type: essay
        id: essay-files
        stem: Explain, and attach your notes.
        attachments: 2
      - type: file_upload
        id: one-pdf
        stem: Upload the PDF.
        allowed_types: [.pdf]
      - type: multiple_response
        id: weighted
        stem: Pick.
        points: 5
        shuffle: false
        choices:
          - {id: A, text: a, correct: true, score: 60}
          - {id: B, text: b, correct: true, score: 40}
          - {id: C, text: c, score: -20, feedback: Not c.}
          - {id: D, text: d, score: 0}
        feedback: {correct: All right., partially_correct: Partly., incorrect: No.}
      - type: fill_in_blank
        id: cloze
        stem: "[[x]] it is [[y]]."
        points: 3
        case_sensitive: true
        blanks:
          - {id: x, kind: dropdown, answers: ['Yes'], options: ['No', Maybe]}
          - {id: y, kind: text, answers: [ABC]}
      - type: matching
        id: animals
        stem: Classify.
        shuffle: false
        pairs:
          - {prompt: cat, answer: mammal}
          - {prompt: dog, answer: mammal}
          - {prompt: eagle, answer: bird}
        distractors: [fish]
"""


# -- building ------------------------------------------------------------------------------------


def _build(source: Path, out: Path, name: str) -> dict[str, bytes]:
    result = build(BuildOptions(sources=[source], out_dir=out, formats=["qti21"]))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    return zip_members((out / f"{name}.qti21.zip").read_bytes())


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return _build(FIXTURE, tmp_path_factory.mktemp("qti21"), "all-types")


@pytest.fixture(scope="module")
def extra(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("extra")
    (folder / "extra.yaml").write_text(EXTRA, encoding="utf-8")
    return _build(folder / "extra.yaml", folder / "dist", "extra")


def raw(package: dict[str, bytes], question: str) -> bytes:
    return package[f"items/{question}.xml"]


def parse(package: dict[str, bytes], question: str) -> etree._Element:
    return etree.fromstring(raw(package, question))


def q(path: str) -> str:
    """A path in QTI names: 'itemBody/p' -> 'q:itemBody/q:p'."""
    return "/".join(part if part in ("", ".", "..") or part.startswith(("q:", "*")) else f"q:{part}"
                    for part in path.split("/"))


def find(element: etree._Element, path: str) -> etree._Element:
    found = element.find(q(path), NS)
    assert found is not None, path
    return found


def findall(element: etree._Element, path: str) -> list[etree._Element]:
    return element.findall(q(path), NS)


def correct_values(item: etree._Element, response: str = "RESPONSE") -> list[str]:
    return [v.text for v in findall(item, f"responseDeclaration[@identifier='{response}']/correctResponse/value")]


def mapping(item: etree._Element, response: str = "RESPONSE") -> dict[str, tuple[float, str | None]]:
    entries = findall(item, f"responseDeclaration[@identifier='{response}']/mapping/mapEntry")
    return {e.get("mapKey"): (float(e.get("mappedValue")), e.get("caseSensitive")) for e in entries}


def modal_feedback(item: etree._Element) -> dict[str, str]:
    return {f.get("identifier"): element_text(f) for f in findall(item, "modalFeedback")}


def ids_by_text(choices: list[etree._Element]) -> dict[str, str]:
    return {element_text(c): c.get("identifier") for c in choices}


# -- every kind, every document ------------------------------------------------------------------


def test_the_fixture_has_every_kind(package: dict[str, bytes]) -> None:
    # The calculated kinds have a fixture of their own (tests/fixtures/calculated.md, built to every
    # target, validated and scored by tests/test_calculated.py), whose sets no import gives back;
    # so does each kind added since (tests/fixtures/kind-*.yaml, which test_kinds.py builds to every
    # target, validated, and imports back, and test_scoring.py and test_moodle_settings.py read).
    own = {kind for path in FIXTURE.parent.glob("kind-*.yaml")
           for kind in re.findall(r"type: (\w+)\n", path.read_text(encoding="utf-8"))}
    kinds = {cls.model_fields["type"].default for cls in QUESTION_CLASSES} - {"calculated", "calculated_choice"} - own
    text = FIXTURE.read_text(encoding="utf-8")
    assert {kind for kind in kinds if f"type: {kind}\n" in text} == kinds
    assert {name[len("items/"):-len(".xml")] for name in package if name.startswith("items/")} == set(FIXTURE_ITEMS)


@pytest.mark.parametrize("name", ["all-types", "extra"])
def test_every_document_is_valid_against_the_official_schemas(name: str, package: dict[str, bytes],
                                                              extra: dict[str, bytes]) -> None:
    qti, manifest = official_schemas()
    for path, data in (package if name == "all-types" else extra).items():
        schema = manifest if path == "imsmanifest.xml" else qti
        errors = list(schema.iter_errors(etree.fromstring(data)))
        assert errors == [], f"{path}: {errors[0]}"


def test_manifest_lists_each_items_interactions(package: dict[str, bytes]) -> None:
    manifest = etree.fromstring(package["imsmanifest.xml"])
    for question, (_, interactions) in FIXTURE_ITEMS.items():
        resource = manifest.find(f"cp:resources/cp:resource[@identifier='RES-{question}']", NS)
        assert [t.text for t in resource.findall(".//md:interactionType", NS)] == interactions, question
        solution = resource.findtext(".//md:solutionAvailable", namespaces=NS)
        assert solution == ("false" if question in ("explain", "report", "intro-note") else "true"), question
    feedback = {r.get("identifier")[4:]: r.findtext(".//md:feedbackType", namespaces=NS)
                for r in manifest.findall("cp:resources/cp:resource[@type='imsqti_item_xmlv2p1']", NS)}
    # Feedback students can see: capital, primes (partially correct), earth-flat, author, pi.
    assert {k for k, v in feedback.items() if v == "nonadaptive"} == {"capital", "primes", "earth-flat", "author", "pi"}


@pytest.mark.parametrize("question", sorted(FIXTURE_ITEMS))
def test_points_are_weight_normal_maximum_and_maxscore(package: dict[str, bytes], question: str) -> None:
    points, _ = FIXTURE_ITEMS[question]
    test = etree.fromstring(package["assessmentTest.xml"])
    ref = test.find(f".//q:assessmentItemRef[@href='items/{question}.xml']", NS)
    item = parse(package, question)
    assert ref.get("identifier") == item.get("identifier") == f"all-types.{question}"
    assert float(ref.find("q:weight", NS).get("value")) == points
    if question == "intro-note":
        assert findall(item, "outcomeDeclaration") == []
        return
    score = find(item, "outcomeDeclaration[@identifier='SCORE']")
    maxscore = find(item, "outcomeDeclaration[@identifier='MAXSCORE']/defaultValue/value")
    assert float(score.get("normalMaximum")) == float(maxscore.text) == points


@pytest.mark.parametrize("name", ["all-types", "extra"])
def test_feedback_identifiers_follow_canvas(name: str, package: dict[str, bytes], extra: dict[str, bytes]) -> None:
    """Canvas files general_fb / correct_fb / incorrect_fb by name and takes per-answer feedback set
    through FEEDBACK's multiple pattern; everything else must stay clear of its patterns."""
    documents = package if name == "all-types" else extra
    for path, data in documents.items():
        if not path.startswith("items/"):
            continue
        item = etree.fromstring(data)
        shown = set(modal_feedback(item)) - {"solution"}  # the essay's example solution is never shown
        set_in_processing = set()
        for rule in findall(item, "responseProcessing//setOutcomeValue[@identifier='FEEDBACK']"):
            multiple = find(rule, "multiple")
            assert [c.tag for c in multiple] == [f"{{{Q}}}variable", f"{{{Q}}}baseValue"]
            assert find(multiple, "variable").get("identifier") == "FEEDBACK"
            set_in_processing.add(find(multiple, "baseValue").text)
        assert set_in_processing == shown, path
        for identifier in shown - {"general_fb", "correct_fb", "incorrect_fb"}:
            assert not CANVAS_RESERVED.search(identifier), (path, identifier)
        for feedback in findall(item, "modalFeedback"):
            assert feedback.get("outcomeIdentifier") == "FEEDBACK" and feedback.get("showHide") == "show"
            assert [c.tag for c in feedback] == [f"{{{Q}}}div"]  # Canvas keeps the first <p>/<div> only
        assert item.find(".//q:responseProcessing[@template]", NS) is None


def test_sections_select_and_shuffle(package: dict[str, bytes]) -> None:
    test = etree.fromstring(package["assessmentTest.xml"])
    part = find(test, "testPart")
    top = findall(part, "assessmentSection")
    assert [s.get("identifier") for s in top] == ["choice", "open", "structure"]
    assert all(s.get("visible") == "false" for s in test.iter(f"{{{Q}}}assessmentSection"))
    # choice: shuffle only; structure: its questions, then the nested section drawing 1 of 2.
    assert [c.tag.split("}")[1] for c in top[0]][:1] == ["ordering"] and find(top[0], "ordering").get("shuffle") == "true"
    assert findall(top[1], "ordering") == [] and findall(top[1], "selection") == []
    structure = [c.get("identifier") or c.tag.split("}")[1] for c in top[2]]
    assert structure == ["all-types.countries", "all-types.planets", "all-types.sentence", "all-types.intro-note", "nested"]
    nested = find(top[2], "assessmentSection")
    assert findall(top[2], "selection") == []
    assert find(nested, "selection").get("select") == "1"
    assert [r.get("identifier") for r in findall(nested, "assessmentItemRef")] == ["all-types.year", "all-types.year2"]


# -- single choice -------------------------------------------------------------------------------


def test_single_choice(package: dict[str, bytes]) -> None:
    item = parse(package, "capital")
    interaction = find(item, "itemBody/choiceInteraction")
    assert interaction.get("maxChoices") == "1" and interaction.get("shuffle") == "true"
    assert interaction.get("minChoices") == "0"  # a student may leave it unanswered and go on
    choices = findall(interaction, "simpleChoice")
    assert [(c.get("identifier"), element_text(c), c.get("fixed")) for c in choices] == [
        ("A", "Paris", "false"), ("B", "Lyon", "false"), ("C", "Marseille", "false"), ("D", "All of the above", "true")]
    assert correct_values(item) == ["A"]
    assert modal_feedback(item) == {
        "general_fb": "Paris has been the capital since 987.", "correct_fb": "Right.", "incorrect_fb": "Not quite.",
        "A_fb": "Yes, Paris.", "B_fb": "Lyon is the third-largest city."}

    out = score_item(raw(package, "capital"), "A")
    assert out["SCORE"] == out["MAXSCORE"] == 2.0
    assert out["FEEDBACK"] == {"general_fb", "correct_fb", "A_fb"}
    assert score_item(raw(package, "capital"), "B") == {
        "SCORE": 0.0, "MAXSCORE": 2.0, "FEEDBACK": {"general_fb", "incorrect_fb", "B_fb"}}
    for wrong in ("C", "D"):
        assert score_item(raw(package, "capital"), wrong)["FEEDBACK"] == {"general_fb", "incorrect_fb"}
    assert score_item(raw(package, "capital"), None)["SCORE"] == 0.0


# -- multiple response ---------------------------------------------------------------------------


def test_multiple_response(package: dict[str, bytes]) -> None:
    item = parse(package, "primes")
    declaration = find(item, "responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("multiple", "identifier")
    assert find(item, "itemBody/choiceInteraction").get("maxChoices") == "0"
    assert sorted(correct_values(item)) == ["A", "B", "D"]  # every correct choice, for Canvas
    # 3 points, negative marking: the right choices share +100 % (1 point each), the two wrong
    # ones -100 % (-1.5 each); the total stays within 0..3.
    assert mapping(item) == {"A": (1, None), "B": (1, None), "C": (-1.5, None), "D": (1, None), "E": (-1.5, None)}
    bounds = find(declaration, "mapping")
    assert (bounds.get("lowerBound"), bounds.get("upperBound")) == ("0", "3")
    assert modal_feedback(item) == {"partial_fb": "Some are right."}

    def score(response: list[str] | None) -> tuple[float, object]:
        out = score_item(raw(package, "primes"), response)
        assert out["MAXSCORE"] == 3.0
        return out["SCORE"], out["FEEDBACK"]

    assert score(["A", "B", "D"]) == (3.0, None)
    assert score(["D", "B", "A"]) == (3.0, None)
    assert score(["A", "B"]) == (2.0, {"partial_fb"})
    assert score(["A", "B", "D", "C"]) == (1.5, {"partial_fb"})
    assert score(["A"]) == (1.0, {"partial_fb"})
    assert score(["A", "C", "E"]) == (0.0, None)  # 1 - 3 = -2, floored at 0
    assert score(["C"]) == (0.0, None)
    assert score(None) == (0.0, None)


def test_multiple_response_custom_scores(extra: dict[str, bytes]) -> None:
    # 5 points: A 60 % = 3, B 40 % = 2, C -20 % = -1, D 0 (stated: a wrong choice without a score takes a share away).
    item = parse(extra, "weighted")
    assert sorted(correct_values(item)) == ["A", "B"]
    assert mapping(item) == {"A": (3, None), "B": (2, None), "C": (-1, None), "D": (0, None)}
    expected = {("A", "B"): (5.0, {"correct_fb"}), ("A",): (3.0, {"partial_fb"}), ("B",): (2.0, {"partial_fb"}),
                ("A", "C"): (2.0, {"partial_fb", "C_fb"}), ("A", "B", "C"): (4.0, {"partial_fb", "C_fb"}),
                ("A", "B", "D"): (5.0, {"correct_fb"}), ("C",): (0.0, {"incorrect_fb", "C_fb"}), ("D",): (0.0, {"incorrect_fb"})}
    for response, (points, feedback) in expected.items():
        out = score_item(raw(extra, "weighted"), list(response))
        assert (out["SCORE"], out["FEEDBACK"]) == (points, feedback), response
    assert modal_feedback(item)["partial_fb"] == "Partly."


# -- true / false --------------------------------------------------------------------------------


def test_true_false(package: dict[str, bytes]) -> None:
    item = parse(package, "earth-flat")
    response = find(item, "responseDeclaration").get("identifier")
    assert response.startswith("TF")  # Canvas's only sign of a true/false question
    interaction = find(item, "itemBody/choiceInteraction")
    assert interaction.get("responseIdentifier") == response and interaction.get("maxChoices") == "1"
    choices = [(c.get("identifier"), element_text(c)) for c in findall(interaction, "simpleChoice")]
    assert [text for _, text in choices] == ["True", "False"]  # English labels; Canvas wants /true/, /false/
    ids = dict((text, ident) for ident, text in choices)
    assert not any(CANVAS_RESERVED.search(ident) for ident in ids.values())
    assert correct_values(item, response) == [ids["False"]]  # the Earth is not flat
    # Every condition on the response names a choice (Canvas reads one from each of them).
    for condition in findall(item, "responseProcessing/responseCondition"):
        match = find(condition, "responseIf/match")
        assert find(match, "variable").get("identifier") == response
        assert find(match, "baseValue").text in ids.values()
    feedback = modal_feedback(item)
    assert {feedback[ident + "_fb"] for ident in ids.values()} == {"It is not.", "Correct, it is round."}

    false = score_item(raw(package, "earth-flat"), ids["False"])
    assert false["SCORE"] == false["MAXSCORE"] == 1.0
    assert [feedback[f] for f in false["FEEDBACK"]] == ["Correct, it is round."]
    true = score_item(raw(package, "earth-flat"), ids["True"])
    assert true["SCORE"] == 0.0 and [feedback[f] for f in true["FEEDBACK"]] == ["It is not."]
    assert score_item(raw(package, "earth-flat"), None)["SCORE"] == 0.0


def test_true_false_in_korean(extra: dict[str, bytes]) -> None:
    item = parse(extra, "tf-ko")
    interaction = find(item, "itemBody/choiceInteraction")
    labels = {element_text(c): c.get("identifier") for c in findall(interaction, "simpleChoice")}
    assert list(labels) == ["참", "거짓"]
    out = score_item(raw(extra, "tf-ko"), labels["참"])  # the sky is blue: true
    assert out["SCORE"] == 1.0 and out["FEEDBACK"] == {"correct_fb", "general_fb"}
    out = score_item(raw(extra, "tf-ko"), labels["거짓"])
    assert out["SCORE"] == 0.0 and out["FEEDBACK"] == {"incorrect_fb", "general_fb"}
    assert modal_feedback(item) == {"general_fb": "하늘은 파랗습니다.", "correct_fb": "맞아요.", "incorrect_fb": "아니에요."}


# -- short answer --------------------------------------------------------------------------------


def test_short_answer(package: dict[str, bytes]) -> None:
    item = parse(package, "author")
    declaration = find(item, "responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("single", "string")
    entry = find(item, "itemBody/p/textEntryInteraction")  # in the body's flow, after the stem
    assert entry.get("responseIdentifier") == "RESPONSE"
    assert correct_values(item) == ["Shakespeare"]  # one value: the response is single
    # The two literal 100 % answers, case-insensitive; the wildcard one is a patternMatch instead.
    assert mapping(item) == {"Shakespeare": (1, "false"), "William Shakespeare": (1, "false")}
    patterns = [p.get("pattern") for p in findall(item, "responseProcessing//patternMatch")]
    assert len(patterns) == 1 and re.fullmatch(patterns[0], "Shakspeare") and not re.fullmatch(patterns[0], "Shakespear")
    feedback = modal_feedback(item)
    assert list(feedback.values()) == ["Spelling counts."]

    def score(response: str | None) -> tuple[float, list[str]]:
        out = score_item(raw(package, "author"), response)
        assert out["MAXSCORE"] == 1.0
        return out["SCORE"], sorted(feedback[f] for f in out["FEEDBACK"] or ())

    assert score("Shakespeare") == (1.0, [])
    assert score("William Shakespeare") == (1.0, [])
    # Case-insensitive (pyslet ignores caseSensitive on mapEntry; the stringMatch rules carry it).
    assert score("shakespeare") == (1.0, [])
    assert score("WILLIAM SHAKESPEARE") == (1.0, [])
    assert score("Shakspeare") == (0.5, ["Spelling counts."])  # *speare, 50 %
    assert score("SPEARE") == (0.5, ["Spelling counts."])
    assert score("Shakespear") == (0.0, [])
    assert score("Bacon") == (0.0, [])
    assert score(None) == (0.0, [])


def test_short_answer_literal_star_and_case(extra: dict[str, bytes]) -> None:
    item = parse(extra, "star")
    assert correct_values(item) == ["a*b"]  # \\* is a literal star
    assert mapping(item) == {"a*b": (1, "true")}

    def score(response: str) -> float:
        return score_item(raw(extra, "star"), response)["SCORE"]

    assert score("a*b") == 1.0
    assert score("ab") == 0.0 and score("axb") == 0.0  # the star in a\\*b is no wildcard
    assert score("A*B") == 0.5 and score("Abc") == 0.5  # A*, case-sensitive, 50 %
    assert score("abc") == 0.0 and score("a*B") == 0.0


def test_short_answer_wildcards_only(extra: dict[str, bytes]) -> None:
    item = parse(extra, "colour")
    assert correct_values(item) == ["color"]  # *colo*r* with its wildcards left out
    assert findall(item, "responseDeclaration/mapping") == []
    for response, points in (("colour", 1.0), ("Color", 1.0), ("COLORS", 1.0), ("the colour", 1.0), ("colr", 0.0)):
        assert score_item(raw(extra, "colour"), response)["SCORE"] == points, response


def test_wildcard_patterns() -> None:
    assert wildcard_pattern("Shakespeare", False) is None
    assert wildcard_pattern(r"a\*b", True) is None
    assert wildcard_pattern("*.py", True) == r".*\.py"
    assert wildcard_pattern("x*", False) == ".*".join(["[xX]", ""])
    assert wildcard_pattern(r"(1+2)*[3]$^", True) == r"\(1\+2\).*\[3\]$\^"  # $ means nothing in XSD regexes
    assert wildcard_pattern(r"2\**", True) == r"2\*.*"


# -- numerical -----------------------------------------------------------------------------------


def test_numerical(package: dict[str, bytes]) -> None:
    item = parse(package, "pi")
    declaration = find(item, "responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("single", "float")
    assert find(item, "itemBody/p/textEntryInteraction").get("responseIdentifier") == "RESPONSE"
    assert [float(v) for v in correct_values(item)] == [3.14]
    # 3.14 ± 0.005 -> [3.135, 3.145] at 100 %; 3 ± 5 % -> [2.85, 3.15] at 50 %, best first.
    conditions = findall(item, "responseProcessing/responseCondition")[0]
    bounds = [(float(find(b, "and/gte/baseValue").text), float(find(b, "and/lte/baseValue").text))
              for b in findall(conditions, "responseIf") + findall(conditions, "responseElseIf")]
    assert bounds == [(3.135, 3.145), (2.85, 3.15)]
    feedback = modal_feedback(item)
    assert list(feedback.values()) == ["Close."]

    def score(response: str | None) -> tuple[float, list[str]]:
        out = score_item(raw(package, "pi"), response)
        assert out["MAXSCORE"] == 1.0
        return out["SCORE"], sorted(feedback[f] for f in out["FEEDBACK"] or ())

    assert score("3.14") == (1.0, [])
    assert score("3.135") == (1.0, []) and score("3.145") == (1.0, [])
    assert score("3.146") == (0.5, ["Close."])
    assert score("3.15") == (0.5, ["Close."]) and score("2.85") == (0.5, ["Close."])
    assert score("3") == (0.5, ["Close."])
    assert score("3.16") == (0.0, []) and score("2.84") == (0.0, [])
    assert score(None) == (0.0, [])


def test_numerical_unit_after_the_box(package: dict[str, bytes]) -> None:
    item = parse(package, "boiling")
    entry = find(item, "itemBody/p/textEntryInteraction")
    assert entry.tail.strip() == "°C"
    assert [float(v) for v in correct_values(item)] == [100]
    assert score_item(raw(package, "boiling"), "100")["SCORE"] == 1.0
    assert score_item(raw(package, "boiling"), "100.0")["SCORE"] == 1.0
    assert score_item(raw(package, "boiling"), "99.9")["SCORE"] == 0.0


# -- essay and file upload -----------------------------------------------------------------------


def test_essay(package: dict[str, bytes]) -> None:
    item = parse(package, "explain")
    interaction = find(item, "itemBody/extendedTextInteraction")
    assert interaction.get("format") == "plain" and interaction.get("expectedLines") == "10"
    assert element_text(find(item, "itemBody/rubricBlock[@view='scorer']")) == "A function that calls itself, with a base case."
    assert modal_feedback(item) == {"solution": "A function that calls itself, with a base case."}  # Canvas: example solution
    out = score_item(raw(package, "explain"), "Recursion is when a function calls itself.")
    assert out == {"SCORE": 0.0, "MAXSCORE": 5.0, "FEEDBACK": None}  # graded by a person


def test_essay_with_attachments(extra: dict[str, bytes]) -> None:
    item = parse(extra, "essay-files")
    assert find(item, "itemBody/extendedTextInteraction").get("format") == "xhtml"  # the default editor
    uploads = findall(item, "itemBody/uploadInteraction")
    files = [d.get("identifier") for d in findall(item, "responseDeclaration[@baseType='file']")]
    assert len(uploads) == 2 and [u.get("responseIdentifier") for u in uploads] == files
    manifest = etree.fromstring(extra["imsmanifest.xml"])
    resource = manifest.find("cp:resources/cp:resource[@identifier='RES-essay-files']", NS)
    assert [t.text for t in resource.findall(".//md:interactionType", NS)] == ["extendedTextInteraction", "uploadInteraction"]


def test_file_upload(package: dict[str, bytes], extra: dict[str, bytes]) -> None:
    item = parse(package, "report")
    uploads = findall(item, "itemBody/uploadInteraction")
    declarations = findall(item, "responseDeclaration")
    # Two files allowed: two interactions (each takes one file). .pdf and .docx are two MIME
    # types and QTI 2.1 takes one, so no type is given.
    assert [(d.get("cardinality"), d.get("baseType")) for d in declarations] == [("single", "file")] * 2
    assert [u.get("responseIdentifier") for u in uploads] == [d.get("identifier") for d in declarations]
    assert all(u.get("type") is None for u in uploads)
    assert element_text(find(item, "itemBody/rubricBlock[@view='scorer']")) == "Check the method section."
    assert findall(item, "responseProcessing") == [] and findall(item, "modalFeedback") == []
    # pyslet 0.7 has no uploadInteraction: it cannot load the item, so the XML is all we check.
    with pytest.raises(Exception, match="uploadInteraction"):
        score_item(raw(package, "report"), None)

    one = parse(extra, "one-pdf")
    assert [(u.get("responseIdentifier"), u.get("type")) for u in findall(one, "itemBody/uploadInteraction")] == [
        ("RESPONSE", "application/pdf")]


# -- matching ------------------------------------------------------------------------------------


def test_matching(package: dict[str, bytes]) -> None:
    item = parse(package, "countries")
    declaration = find(item, "responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("multiple", "directedPair")
    interaction = find(item, "itemBody/matchInteraction")
    assert interaction.get("maxAssociations") == "3" and interaction.get("shuffle") == "true"
    sources, targets = findall(interaction, "simpleMatchSet")
    source_ids = ids_by_text(findall(sources, "simpleAssociableChoice"))
    target_ids = ids_by_text(findall(targets, "simpleAssociableChoice"))
    assert list(source_ids) == ["France", "Germany", "Italy"]
    assert sorted(target_ids) == ["Berlin", "Madrid", "Paris", "Rome"]  # the distractor is only a target
    assert {c.get("matchMax") for c in findall(sources, "simpleAssociableChoice")} == {"1"}
    assert {c.get("matchMax") for c in findall(targets, "simpleAssociableChoice")} == {"3"}

    def pairs(*texts: tuple[str, str]) -> list[str]:
        return [f"{source_ids[s]} {target_ids[t]}" for s, t in texts]

    right = pairs(("France", "Paris"), ("Germany", "Berlin"), ("Italy", "Rome"))
    assert sorted(correct_values(item)) == sorted(right)
    assert mapping(item) == {p: (1, None) for p in right}  # 3 points over 3 pairs

    def score(response: list[str] | None) -> float:
        out = score_item(raw(package, "countries"), response)
        assert out["MAXSCORE"] == 3.0
        return out["SCORE"]

    assert score(right) == 3.0
    assert score(pairs(("France", "Paris"), ("Germany", "Berlin"))) == 2.0
    assert score(pairs(("France", "Paris"), ("Germany", "Rome"), ("Italy", "Berlin"))) == 1.0
    assert score(pairs(("France", "Madrid"), ("Germany", "Paris"), ("Italy", "Berlin"))) == 0.0
    assert score(None) == 0.0


def test_matching_with_a_shared_answer(extra: dict[str, bytes]) -> None:
    item = parse(extra, "animals")
    interaction = find(item, "itemBody/matchInteraction")
    assert interaction.get("shuffle") == "false"
    sources, targets = findall(interaction, "simpleMatchSet")
    source_ids = ids_by_text(findall(sources, "simpleAssociableChoice"))
    target_ids = ids_by_text(findall(targets, "simpleAssociableChoice"))
    assert sorted(target_ids) == ["bird", "fish", "mammal"]  # "mammal" once, for two prompts
    right = [f"{source_ids[s]} {target_ids[t]}" for s, t in (("cat", "mammal"), ("dog", "mammal"), ("eagle", "bird"))]
    assert score_item(raw(extra, "animals"), right)["SCORE"] == 1.0
    assert score_item(raw(extra, "animals"), right[:2])["SCORE"] == pytest.approx(2 / 3)


# -- ordering ------------------------------------------------------------------------------------


def test_ordering(package: dict[str, bytes]) -> None:
    item = parse(package, "planets")
    declaration = find(item, "responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("ordered", "identifier")
    interaction = find(item, "itemBody/orderInteraction")
    assert interaction.get("shuffle") == "true"
    ids = ids_by_text(findall(interaction, "simpleChoice"))
    planets = ["Mercury", "Venus", "Earth", "Mars"]
    assert sorted(ids) == sorted(planets) and list(ids) != planets  # not listed in the answer's order
    right = [ids[p] for p in planets]
    assert correct_values(item) == right
    out = score_item(raw(package, "planets"), right)
    assert out["SCORE"] == out["MAXSCORE"] == 2.0
    assert score_item(raw(package, "planets"), [ids[p] for p in ["Venus", "Mercury", "Earth", "Mars"]])["SCORE"] == 0.0
    assert score_item(raw(package, "planets"), right[:3])["SCORE"] == 0.0
    assert score_item(raw(package, "planets"), None)["SCORE"] == 0.0


def test_scrambled_is_fixed_and_never_the_original() -> None:
    assert scrambled([1, 2], "x") == [2, 1]
    assert scrambled(list(range(6)), "seed") == scrambled(list(range(6)), "seed") != list(range(6))
    assert scrambled(["only"], "x") == ["only"]


# -- fill in the blank ---------------------------------------------------------------------------


def test_fill_in_blank(package: dict[str, bytes]) -> None:
    item = parse(package, "sentence")
    stem = find(item, "itemBody/div[@class='stem']")
    assert "[[" not in element_text(stem)
    paragraph = find(stem, "p")
    text_entry = find(paragraph, "textEntryInteraction")
    dropdown = find(paragraph, "inlineChoiceInteraction")
    assert text_entry.getprevious() is None and text_entry.getnext() is dropdown  # "The [[b1]] ... a [[b2]] dwarf."
    assert paragraph.text == "The " and dropdown.tail == " dwarf."
    # Shuffled, as in Moodle (MULTICHOICE_S): the listed order would be the same for every student.
    assert dropdown.get("shuffle") == "true"
    b1, b2 = text_entry.get("responseIdentifier"), dropdown.get("responseIdentifier")
    declarations = {d.get("identifier"): d.get("baseType") for d in findall(item, "responseDeclaration")}
    assert declarations == {b1: "string", b2: "identifier"}
    options = ids_by_text(findall(dropdown, "inlineChoice"))
    assert sorted(options) == ["red", "white", "yellow"]
    assert correct_values(item, b1) == ["Sun"] and correct_values(item, b2) == [options["yellow"]]
    # 2 points, 2 blanks: 1 each. "Sun" and "sun" are one answer without case sensitivity.
    assert mapping(item, b1) == {"Sun": (1, "false")}
    assert mapping(item, b2) == {options["yellow"]: (1, None)}

    def score(text: str | None, choice: str | None) -> float:
        out = score_item(raw(package, "sentence"), {b1: text, b2: options[choice] if choice else None})
        assert out["MAXSCORE"] == 2.0
        return out["SCORE"]

    assert score("Sun", "yellow") == 2.0
    assert score("sun", "yellow") == 2.0  # case-insensitive (pyslet needs the stringMatch rule)
    assert score("SUN", "yellow") == 2.0
    assert score("Sun", "red") == 1.0
    assert score("Moon", "yellow") == 1.0
    assert score("Moon", "white") == 0.0
    assert score(None, None) == 0.0


def test_fill_in_blank_dropdown_first_and_case_sensitive(extra: dict[str, bytes]) -> None:
    item = parse(extra, "cloze")
    paragraph = find(item, "itemBody/div/p")
    dropdown, text_entry = list(paragraph)
    assert (dropdown.tag, text_entry.tag) == (f"{{{Q}}}inlineChoiceInteraction", f"{{{Q}}}textEntryInteraction")
    x, y = dropdown.get("responseIdentifier"), text_entry.get("responseIdentifier")
    options = ids_by_text(findall(dropdown, "inlineChoice"))
    assert sorted(options) == ["Maybe", "No", "Yes"]
    assert mapping(item, y) == {"ABC": (1.5, "true")}  # 3 points over 2 blanks

    def score(choice: str, text: str) -> float:
        return score_item(raw(extra, "cloze"), {x: options[choice], y: text})["SCORE"]

    assert score("Yes", "ABC") == 3.0
    assert score("Yes", "abc") == 1.5  # case-sensitive
    assert score("No", "ABC") == 1.5
    assert score("Maybe", "abc") == 0.0
    manifest = etree.fromstring(extra["imsmanifest.xml"])
    resource = manifest.find("cp:resources/cp:resource[@identifier='RES-cloze']", NS)
    assert [t.text for t in resource.findall(".//md:interactionType", NS)] == ["textEntryInteraction", "inlineChoiceInteraction"]


def test_fill_blanks_filter() -> None:
    html = Markup("<p>A [[x]] and [[y.2]], not [x].</p>")
    out = fill_blanks(html, lambda blank: Markup(f"<b id='{blank}'/>"))
    assert out == Markup("<p>A <b id='x'/> and <b id='y.2'/>, not [x].</p>")


# -- text only -----------------------------------------------------------------------------------


def test_text_only(package: dict[str, bytes]) -> None:
    item = parse(package, "intro-note")
    assert [c.tag.split("}")[1] for c in item] == ["itemBody"]  # no response, outcome or processing
    assert element_text(find(item, "itemBody/div")) == "The next section is about history."
    assert score_item(raw(package, "intro-note"), None) == {}


@pytest.mark.parametrize("name", ["all-types", "extra"])
def test_every_item_is_scored_once_from_its_response(name: str, package: dict[str, bytes], extra: dict[str, bytes]) -> None:
    """Not adaptive (an adaptive item keeps its outcomes from one attempt to the next and lets a
    player go on until it sets completionStatus, which none of these does) and not time
    dependent (the time taken changes no score)."""
    for path, data in (package if name == "all-types" else extra).items():
        if path.startswith("items/"):
            item = etree.fromstring(data)
            assert (item.get("adaptive"), item.get("timeDependent")) == ("false", "false"), path


PARTLY = """\
id: partly
title: Partly
sections:
  - id: s
    title: S
    questions:
      - type: multiple_response
        id: some
        stem: Pick the primes.
        points: 3
        feedback: {incorrect: None of these., correct: All of them.}
        choices:
          - {id: A, text: "2", correct: true}
          - {id: B, text: "3", correct: true}
          - {id: C, text: "5", correct: true}
          - {id: D, text: "4"}
"""


def test_a_partly_right_answer_is_not_told_it_is_wrong(tmp_path: Path) -> None:
    """Without partially-correct feedback, a response worth part of the points (here 1 of 3)
    shows no feedback at all: not the incorrect feedback, which is for a response worth nothing."""
    (tmp_path / "partly.yaml").write_text(PARTLY, encoding="utf-8")
    item = _build(tmp_path / "partly.yaml", tmp_path / "dist", "partly")["items/some.xml"]
    assert score_item(item, ["A"]) == {"SCORE": 1.0, "MAXSCORE": 3.0, "FEEDBACK": None}
    assert score_item(item, ["D"]) == {"SCORE": 0.0, "MAXSCORE": 3.0, "FEEDBACK": {"incorrect_fb"}}
    assert score_item(item, ["A", "B", "C"]) == {"SCORE": 3.0, "MAXSCORE": 3.0, "FEEDBACK": {"correct_fb"}}
