"""What a QTI 2.1 player shows a student and how it grades, read independently of the writer.

Written for survivors of the template mutation run over templates/qti21/ (issue 35,
tools/mutate_templates.py): changes to a template that no test noticed although they change what a
student or a grader receives. The expected texts are read from the source files here (a regular
expression over the Markdown, or the YAML fixture through yaml.safe_load, not the project's
readers); the items are read with lxml and run by pyslet (helpers.qti21_engine): template values
drawn set by set, responses graded, feedback shown.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from lxml import etree

from helpers import QTI_NS, ROOT
from helpers.outputs import Outputs, build_all
from helpers.qti21_engine import score_item, score_template_item, shown_text, template_sets

CALCULATED = ROOT / "tests" / "fixtures" / "calculated.md"
Q = f"{{{QTI_NS}}}"


def _calculated_stems() -> dict[str, str]:
    """Question id -> its text as the source writes it (``{d}`` where a value is shown), for the
    source's calculated (numeric answer) questions: the numbered line before its ``{#id ...}``."""
    found = re.findall(r"^\d+\. (.+?) \{#(\w+) type=calculated\b", CALCULATED.read_text(encoding="utf-8"), re.M)
    return {question_id: text for text, question_id in found}


STEMS = _calculated_stems()


@pytest.fixture(scope="module")
def calculated(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    return build_all(tmp_path_factory.mktemp("calculated"), CALCULATED)


def _shown(element: etree._Element, values: dict[str, object] | None = None) -> str:
    """An element's text as a player shows it: each printedVariable put as ``{its variable}``, or,
    given the drawn values, as its value in its ``format`` (printf-style, as QTI 2.1 defines it)."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == f"{Q}printedVariable":
            name = child.get("identifier")
            parts.append(f"{{{name}}}" if values is None else (child.get("format") or "%s") % values[name])
        else:
            parts.append(_shown(child, values))
        parts.append(child.tail or "")
    return "".join(parts)


def test_the_source_has_calculated_questions_to_read() -> None:
    assert len(STEMS) >= 5 and {"speed", "root", "square"} <= set(STEMS), STEMS


@pytest.mark.parametrize("question_id", sorted(STEMS))
def test_a_calculated_item_shows_its_question_with_the_drawn_values(calculated: Outputs, question_id: str) -> None:
    """The item body shows the question as written, each ``{x}`` a printedVariable of a variable
    that the item's template processing gives a value in every set."""
    item = calculated.qti_item(question_id)
    body = item.find(f"{Q}itemBody")
    shown = " ".join(_shown(body).split())
    assert " ".join(STEMS[question_id].split()) in shown, f"the item shows {shown!r}"
    printed = {p.get("identifier") for p in body.iter(f"{Q}printedVariable")}
    assert printed == set(re.findall(r"\{(\w+)\}", STEMS[question_id]))
    raw = calculated.qti_raw(question_id)
    for set_number in (1, template_sets(raw)):
        values, _ = score_template_item(raw, set_number, None)
        assert all(isinstance(values[name], float) for name in printed), (set_number, values)


def _value(declaration: etree._Element) -> float:
    """A numeric outcome's starting value as QTI 2.1 defines it: its defaultValue, else 0."""
    value = declaration.findtext(f"{Q}defaultValue/{Q}value")
    return 0.0 if value is None else float(value)


def test_a_qti21_test_s_total_starts_at_zero_and_sums_its_items(calculated: Outputs) -> None:
    """A player shows the test's SCORE out of MAXSCORE: both 0 before any answer, then the sums
    of the items' own SCORE and MAXSCORE (the item's points, not weighted again)."""
    test = etree.fromstring(calculated.qti["assessmentTest.xml"])
    declared = {d.get("identifier"): d for d in test.iter(f"{Q}outcomeDeclaration")}
    assert {name: _value(declared[name]) for name in ("SCORE", "MAXSCORE")} == {"SCORE": 0.0, "MAXSCORE": 0.0}
    sums = {s.get("identifier"): s.find(f"{Q}sum/{Q}testVariables") for s in test.iter(f"{Q}setOutcomeValue")}
    assert {name: (t.get("variableIdentifier"), t.get("weightIdentifier")) for name, t in sums.items()} == {
        "SCORE": ("SCORE", None), "MAXSCORE": ("MAXSCORE", None)}


def _source_lines(pattern: str) -> dict[str, str]:
    """Question id -> what ``pattern`` (one group) finds in the source's block of that question."""
    text = CALCULATED.read_text(encoding="utf-8")
    blocks = re.split(r"^(?=\d+\. )", text, flags=re.M)
    found = {}
    for block in blocks:
        head = re.match(r"\d+\. .*\{#(\w+) type=calculated\b([^}]*)\}", block)
        if head:
            hit = re.search(pattern, head.group(2) + "\n" + block, re.M)
            found[head.group(1)] = hit.group(1) if hit else ""
    return found


@pytest.mark.parametrize("question_id", sorted(STEMS))
def test_a_calculated_item_shows_the_source_s_unit_after_its_box_and_no_other(calculated: Outputs,
                                                                               question_id: str) -> None:
    unit = _source_lines(r"\bunit=(\S+)")[question_id]
    (box,) = calculated.qti_item(question_id).iter(f"{Q}textEntryInteraction")
    after = " ".join(_shown(box.getparent()).split())
    assert after == unit, f"after the box: {after!r}"


@pytest.mark.parametrize("question_id", sorted(STEMS))
def test_a_calculated_item_states_the_source_s_answer_and_its_first_set_s_value(calculated: Outputs,
                                                                              question_id: str) -> None:
    """The correct response names the answer as the source writes it (a player or an import shows
    how the answer is made) and, until a set is drawn, holds a value of the first set's answer."""
    answer = _source_lines(r"^Answer: (.+)$")[question_id]
    raw = calculated.qti_raw(question_id)
    (correct,) = calculated.qti_item(question_id).iter(f"{Q}correctResponse")
    exact = answer if "±" in answer else f"{answer} ± 0"  # no tolerance: the answer exactly
    assert re.sub(r"\s", "", correct.get("interpretation") or "") == re.sub(r"\s", "", exact)
    _, graded = score_template_item(raw, 1, correct.findtext(f"{Q}value"))
    assert graded["SCORE"] == graded["MAXSCORE"] > 0


FEEDBACK_SOURCE = """---
title: Feedback
---

1. What is {n} doubled? {#double type=calculated sets=3 decimals=0}

```variables
n = 2, 3, 5
```

Answer: 2*n
Correct feedback: Well done, that is twice the number.
Incorrect feedback: Not quite: double the number.
"""


def _feedback_shown(item: etree._Element, outcomes: dict[str, object],
                    values: dict[str, object] | None = None) -> list[str]:
    chosen = outcomes["FEEDBACK"] or set()
    return [" ".join(_shown(f, values).split()) for f in item.iter(f"{Q}modalFeedback")
            if (f.get("identifier") in chosen) == (f.get("showHide") == "show")]


def test_a_calculated_item_shows_the_correct_or_the_incorrect_feedback_as_the_answer_is(tmp_path: Path) -> None:
    source = tmp_path / "feedback.md"
    source.write_text(FEEDBACK_SOURCE, encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    raw, item = outputs.qti_raw("double"), outputs.qti_item("double")
    for set_number in range(1, template_sets(raw) + 1):
        values, _ = score_template_item(raw, set_number, None)
        right = 2 * values["n"]
        _, graded = score_template_item(raw, set_number, str(right))
        assert graded["SCORE"] == graded["MAXSCORE"] > 0
        assert _feedback_shown(item, graded) == ["Well done, that is twice the number."]
        _, graded = score_template_item(raw, set_number, str(right + 1))
        assert graded["SCORE"] == 0
        assert _feedback_shown(item, graded) == ["Not quite: double the number."]


PASSAGE_SOURCE = """---
title: Passage
---

Questions 1-2 refer to the following passage.

A shop sells pencils and pens at fixed prices.

1. What is {a} + {b}? {#pick type=calculated_choice sets=3}

```variables
a = 2..9
b = 2..9
a != b
```

A) {=a + b:0}
B) {=a * b:0}

Answer: A

2. What is {n} doubled? {#twice type=calculated sets=3 decimals=0}

```variables
n = 2, 3, 5
```

Answer: 2*n
"""


def test_calculated_items_show_their_shared_passage_and_their_own_question(tmp_path: Path) -> None:
    """Each question of a passage's range shows the passage above its own text (source-format.md,
    shared passages), and a calculated choice lets the student pick one option."""
    source = tmp_path / "passage.md"
    source.write_text(PASSAGE_SOURCE, encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    stems = {"pick": "What is {a} + {b}?", "twice": "What is {n} doubled?"}
    for question_id, stem in stems.items():
        body = outputs.qti_item(question_id).find(f"{Q}itemBody")
        divs = {d.get("class"): " ".join(_shown(d).split()) for d in body.iterfind(f"{Q}div")}
        passage = "Questions 1-2 refer to the following passage. A shop sells pencils and pens at fixed prices."
        assert divs == {"passage": passage, "stem": stem}, question_id  # the passage runs from its range line
    (choices,) = outputs.qti_item("pick").iter(f"{Q}choiceInteraction")
    assert choices.get("maxChoices") == "1"  # 0 would let a student tick every option


CHOICE_SOURCE = """---
title: Choice
---

1. What is {a} + {b}? {#add type=calculated_choice sets=4}

```variables
a = 2..9
b = 2..9
a != b
```

A) {=a + b:0}
   Feedback: Yes, you added them.
B) {=a * b:0}
   Feedback: That is the product.
C) None of these {fixed}

Answer: A
Explanation: {a} + {b} = {=a + b:0}.
"""


def test_a_calculated_choice_shows_each_option_s_feedback_and_the_explanation_and_keeps_a_pinned_option(
        tmp_path: Path) -> None:
    source = tmp_path / "choice.md"
    source.write_text(CHOICE_SOURCE, encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    raw, item = outputs.qti_raw("add"), outputs.qti_item("add")
    (interaction,) = item.iter(f"{Q}choiceInteraction")
    assert (interaction.get("maxChoices"), interaction.get("minChoices")) == ("1", "0")  # one, or none: a blank
    options = list(interaction.iter(f"{Q}simpleChoice"))  # as written: the player shuffles them
    assert [c.get("fixed") for c in options] == ["false", "false", "true"]
    for set_number in range(1, template_sets(raw) + 1):
        values, _ = score_template_item(raw, set_number, None)
        a, b = int(values["a"]), int(values["b"])
        assert [" ".join(_shown(c, values).split()) for c in options] == [str(a + b), str(a * b), "None of these"]
        explanation = f"{a} + {b} = {a + b}."
        for option, own, score in zip(options, ("Yes, you added them.", "That is the product.", None), (1.0, 0.0, 0.0)):
            _, graded = score_template_item(raw, set_number, option.get("identifier"))
            assert graded["SCORE"] == score
            assert sorted(_feedback_shown(item, graded, values)) == sorted([explanation] + ([own] if own else []))


GRADED_BY_HAND = """---
title: By hand
---

Questions 1-2 refer to the following passage.

Rivers carry water from the hills to the sea.

1. Explain where rivers end. {#where type=essay}

Explanation: Rivers end in the sea.

2. Upload a drawing of a river. {#drawing type=file_upload}

Explanation: Any drawing with a sea will do.
"""


def test_essay_and_upload_items_show_their_passage_question_and_explanation(tmp_path: Path) -> None:
    """Questions a person grades show the shared passage above their own text, and the explanation
    once answered (pyslet runs the response processing)."""
    source = tmp_path / "by-hand.md"
    source.write_text(GRADED_BY_HAND, encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    passage = "Questions 1-2 refer to the following passage. Rivers carry water from the hills to the sea."
    for question_id, stem, response, explanation in (
            ("where", "Explain where rivers end.", "In the sea.", "Rivers end in the sea."),
            ("drawing", "Upload a drawing of a river.", None, "Any drawing with a sea will do.")):
        item = outputs.qti_item(question_id)
        divs = {d.get("class"): " ".join(_shown(d).split()) for d in item.find(f"{Q}itemBody").iterfind(f"{Q}div")}
        assert divs == {"passage": passage, "stem": stem}, question_id
        if response is not None:
            graded = score_item(outputs.qti_raw(question_id), response)
        else:  # pyslet refuses an uploadInteraction in an itemBody (QTIValidityError), which QTI 2.1
            # allows: its response processing is read here, each rule run whatever was uploaded
            processing = item.find(f"{Q}responseProcessing")
            rules = [] if processing is None else processing.findall(f"{Q}setOutcomeValue[@identifier='FEEDBACK']")
            graded = {"FEEDBACK": {v.text for rule in rules for v in rule.iter(f"{Q}baseValue")}}
        assert _feedback_shown(item, graded) == [explanation], question_id


def test_a_qti21_package_carries_the_quiz_s_id_and_description_in_its_manifest(tmp_path: Path) -> None:
    """The manifest's LOM identifier and description are where a QTI 2.1 package keeps the quiz's
    id and description (a repository shows them, and an import reads them back): the source's."""
    source = tmp_path / "described.md"
    source.write_text("---\nid: rivers\ntitle: Rivers\nlanguage: en\n"
                      "description: A short quiz on rivers and seas.\n---\n\n"
                      "1. Where do rivers end? {#end type=essay}\n", encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    manifest = etree.fromstring(outputs.qti["imsmanifest.xml"])
    (general,) = manifest.findall("{*}metadata/{*}lom/{*}general")
    strings = [(s.get("language"), s.text) for s in general.iterfind("{*}description/{*}string")]
    assert strings == [("en", "A short quiz on rivers and seas.")]
    named = [(i.findtext("{*}catalog"), i.findtext("{*}entry")) for i in general.iterfind("{*}identifier")]
    assert named == [("qti-builder", "rivers")]


def test_a_fill_in_blank_item_shows_its_shared_passage_above_its_text(tmp_path: Path) -> None:
    source = tmp_path / "blanks.md"
    source.write_text("---\ntitle: Blanks\n---\n\nQuestions 1-2 refer to the following passage.\n\n"
                      "Rivers carry water from the hills to the sea.\n\n"
                      "1. Rivers flow down to the [[sea]]. {#flow type=fill_in_blank}\n\n"
                      "2. Rivers start in the [[hills]]. {#start type=fill_in_blank}\n", encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    for question_id in ("flow", "start"):
        body = outputs.qti_item(question_id).find(f"{Q}itemBody")
        (passage,) = body.iterfind(f"{Q}div[@class='passage']")
        assert " ".join(_shown(passage).split()) == (
            "Questions 1-2 refer to the following passage. Rivers carry water from the hills to the sea.")
        assert list(body).index(passage) < list(body).index(body.find(f"{Q}div[@class='stem']"))


ALL_TYPES = ROOT / "tests" / "fixtures" / "all-types.yaml"
SHARED = "Read this first: the shared passage."


def _all_questions(section: dict) -> list[dict]:
    return section.get("questions", []) + [q for inner in section.get("sections", []) for q in _all_questions(inner)]


def test_every_kind_of_item_shows_its_passage_above_its_own_text(tmp_path: Path) -> None:
    """The fixture with every kind, each question given a passage (the model's ``passage``): each
    item's body shows it, in a div of its own before the question's text."""
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    questions = [q for section in source["sections"] for q in _all_questions(section)]
    for question in questions:
        question["passage"] = SHARED
    path = tmp_path / "passages.yaml"
    path.write_text(yaml.safe_dump(source, allow_unicode=True), encoding="utf-8")
    outputs = build_all(tmp_path / "out", path)
    kinds = set()
    for question in questions:
        body = outputs.qti_item(question["id"]).find(f"{Q}itemBody")
        divs = [(d.get("class"), " ".join(_shown(d).split())) for d in body.iterfind(f"{Q}div")]
        assert divs[0] == ("passage", SHARED) and divs[1][0] == "stem", (question["id"], divs)
        kinds.add(question["type"])
    assert len(kinds) >= 11, kinds


def _unconditional_feedback(item: etree._Element) -> set[str]:
    """The feedback ids a response processing adds whatever the response: its top-level rules."""
    processing = item.find(f"{Q}responseProcessing")
    rules = [] if processing is None else processing.findall(f"{Q}setOutcomeValue[@identifier='FEEDBACK']")
    return {v.text for rule in rules for v in rule.iter(f"{Q}baseValue")}


def test_every_kind_of_item_shows_its_explanation_whatever_the_answer(tmp_path: Path) -> None:
    """The fixture with every kind, each question given an explanation (general feedback): pyslet
    shows it after an empty answer, where it can run the item (not an uploadInteraction)."""
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    questions = [q for section in source["sections"] for q in _all_questions(section) if q["type"] != "text_only"]
    for question in questions:
        question.setdefault("feedback", {})["general"] = f"Why: the reasons for {question['id']}."
    path = tmp_path / "explained.yaml"
    path.write_text(yaml.safe_dump(source, allow_unicode=True), encoding="utf-8")
    outputs = build_all(tmp_path / "out", path)
    for question in questions:
        item, raw = outputs.qti_item(question["id"]), outputs.qti_raw(question["id"])
        if question["type"] == "file_upload":
            graded = {"FEEDBACK": _unconditional_feedback(item)}
        else:
            graded = score_item(raw, {})
        assert f"Why: the reasons for {question['id']}." in _feedback_shown(item, graded), question["id"]


SHUFFLED_KINDS = {"single_choice": "choiceInteraction", "multiple_response": "choiceInteraction",
                  "matching": "matchInteraction"}


@pytest.mark.parametrize("shuffle", [True, False])
def test_choice_and_matching_options_shuffle_exactly_as_the_source_says(tmp_path: Path, shuffle: bool) -> None:
    """source-format.md: ``shuffle`` on a single-choice, multiple-response or matching question
    says whether a player shows its options in a random order."""
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    questions = [q for section in source["sections"] for q in _all_questions(section) if q["type"] in SHUFFLED_KINDS]
    for question in questions:
        question["shuffle"] = shuffle
    path = tmp_path / "shuffle.yaml"
    path.write_text(yaml.safe_dump(source, allow_unicode=True), encoding="utf-8")
    outputs = build_all(tmp_path / "out", path)
    assert {q["type"] for q in questions} == set(SHUFFLED_KINDS)
    for question in questions:
        (interaction,) = outputs.qti_item(question["id"]).iter(f"{Q}{SHUFFLED_KINDS[question['type']]}")
        assert interaction.get("shuffle") == str(shuffle).lower(), question["id"]


def test_a_student_may_leave_any_item_unanswered(tmp_path: Path) -> None:
    """No interaction demands an answer before the student may go on (as in the Canvas and Moodle
    outputs): every minimum QTI 2.1 puts on choices and associations is 0, where it is stated."""
    outputs = build_all(tmp_path, ALL_TYPES)
    minima = {}
    for name in outputs.qti:
        if name.startswith("items/"):
            for n, element in enumerate(etree.fromstring(outputs.qti[name]).iter()):
                for attribute in ("minChoices", "minAssociations", "matchMin", "minStrings"):
                    if element.get(attribute) is not None:
                        minima[(name, n, etree.QName(element).localname, attribute)] = element.get(attribute)
    stated = {element for _, _, element, _ in minima}
    assert stated >= {"choiceInteraction", "matchInteraction", "simpleAssociableChoice"}
    assert {k: v for k, v in minima.items() if v != "0"} == {}


def test_options_a_source_pins_stay_in_place_and_no_other(tmp_path: Path) -> None:
    """source-format.md: an option marked fixed keeps its place when the options are shuffled; the
    others move (QTI 2.1 ``fixed`` on each simpleChoice)."""
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    questions = [q for section in source["sections"] for q in _all_questions(section)
                 if q["type"] in ("single_choice", "multiple_response")]
    for question in questions:
        question["choices"][-1]["fixed"] = True
    path = tmp_path / "pinned.yaml"
    path.write_text(yaml.safe_dump(source, allow_unicode=True), encoding="utf-8")
    outputs = build_all(tmp_path / "out", path)
    assert {q["type"] for q in questions} == {"single_choice", "multiple_response"}
    for question in questions:
        choices = list(outputs.qti_item(question["id"]).iter(f"{Q}simpleChoice"))
        expected = ["true" if c.get("fixed") else "false" for c in question["choices"]]
        assert [c.get("fixed") for c in choices] == expected, question["id"]


def test_short_answer_and_true_false_items_grade_and_name_the_source_s_answers(tmp_path: Path) -> None:
    """all-types.yaml's short answer (Shakespeare, not case sensitive) and true/false (the Earth
    is flat: false; a second, the Earth is round: true), run by pyslet; a true/false item's correct
    response is the choice that says the source's answer (what a player shows as the right one)."""
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    section = next(s for s in source["sections"] if any(q["id"] == "earth-flat" for q in s["questions"]))
    section["questions"].append(
        {"type": "true_false", "id": "earth-round", "stem": "The Earth is round.", "answer": True})
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(source, allow_unicode=True), encoding="utf-8")
    outputs = build_all(tmp_path / "out", path)
    raw = outputs.qti_raw("author")
    for typed, share in (("Shakespeare", 1.0), ("william shakespeare", 1.0), ("Marlowe", 0.0)):
        graded = score_item(raw, typed)
        assert graded["SCORE"] == pytest.approx(share * graded["MAXSCORE"]) and graded["MAXSCORE"] > 0, typed
    for question_id, answer in (("earth-flat", "False"), ("earth-round", "True")):
        item = outputs.qti_item(question_id)
        labels = {c.get("identifier"): "".join(c.itertext()).strip() for c in item.iter(f"{Q}simpleChoice")}
        (correct,) = item.iterfind(f"{Q}responseDeclaration/{Q}correctResponse/{Q}value")
        assert labels[correct.text] == answer, labels
        graded = score_item(outputs.qti_raw(question_id), correct.text)
        assert graded["SCORE"] == graded["MAXSCORE"] > 0


def test_true_false_offers_true_then_false_one_tick_and_multiple_response_any_number(tmp_path: Path) -> None:
    """A true/false question shows True then False (never shuffled) and takes one tick; a
    multiple-response question takes as many ticks as the student likes (QTI 2.1 maxChoices 0)."""
    outputs = build_all(tmp_path, ALL_TYPES)
    (tf,) = outputs.qti_item("earth-flat").iter(f"{Q}choiceInteraction")
    assert (tf.get("shuffle"), tf.get("maxChoices")) == ("false", "1")
    assert ["".join(c.itertext()).strip() for c in tf.iter(f"{Q}simpleChoice")] == ["True", "False"]
    source = yaml.safe_load(ALL_TYPES.read_text(encoding="utf-8"))
    multiple = [q["id"] for s in source["sections"] for q in _all_questions(s) if q["type"] == "multiple_response"]
    assert multiple
    for question_id in multiple:
        (interaction,) = outputs.qti_item(question_id).iter(f"{Q}choiceInteraction")
        assert interaction.get("maxChoices") == "0", question_id


EXAM_ALL_RIGHT = """---
title: Exam rule
---

1. Pick every even number. {#evens points=4 scoring=exam incomplete_points=2}

A) 2
B) 4
C) 6

Answer: A, B, C
"""


def test_an_exam_scored_question_whose_options_are_all_right_grades_blank_part_and_whole(tmp_path: Path) -> None:
    """scoring=exam (source-format.md): every right option ticked is full marks, some of them the
    incomplete points, and a blank answer nothing, also when no option is wrong (pyslet)."""
    source = tmp_path / "exam.md"
    source.write_text(EXAM_ALL_RIGHT, encoding="utf-8")
    outputs = build_all(tmp_path / "out", source)
    choices = outputs.qti_choices("evens")
    raw = outputs.qti_raw("evens")
    assert score_item(raw, None)["SCORE"] == 0
    assert score_item(raw, [choices["2"]])["SCORE"] == 2
    assert score_item(raw, [choices["2"], choices["4"], choices["6"]])["SCORE"] == 4


SYMBOL_SOURCE = """---
title: Lines
---

1. The line $y = mx + c$ has slope {m} and meets the y axis at {c}. Find $y$ at $x = 1$. {#cross type=calculated sets=4}

```variables
m = 2..9
c = 1..5
```

Answer: m + c
"""


def test_a_formula_s_symbol_named_like_a_variable_stays_the_symbol_the_author_wrote(tmp_path: Path) -> None:
    """The author's ``$y = mx + c$`` is a formula of symbols; ``{m}`` and ``{c}`` are where the drawn
    values go. Moodle and Canvas put values only where a placeholder is, so a QTI 2.1 player must
    show the formula as written in every set: a template variable declared ``mathVariable="true"``
    would have the player put its value in place of the formula's ``<mi>m</mi>`` and ``<mi>c</mi>``
    (``y=6x+3``; QTI 2.1, templateDeclaration). helpers.qti21_engine.shown_text applies both
    substitutions the spec defines; the expected text is made here from the source's wording."""
    source = tmp_path / "lines.md"
    source.write_text(SYMBOL_SOURCE, encoding="utf-8")
    raw = build_all(tmp_path / "out", source).qti_raw("cross")
    for set_number in range(1, template_sets(raw) + 1):
        values, _ = score_template_item(raw, set_number, None)
        m, c = int(values["m"]), int(values["c"])
        assert shown_text(raw, set_number, "div") == (
            f"The line y=mx+c has slope {m} and meets the y axis at {c}. Find y at x=1.")
    # The reading itself: the same item declaring its variables mathVariable="true" shows the values.
    substituted = re.sub(rb'(identifier="[mc]"[^>]*mathVariable=)"false"', rb'\1"true"', raw)
    assert substituted != raw
    values, _ = score_template_item(substituted, 1, None)
    m, c = int(values["m"]), int(values["c"])
    assert shown_text(substituted, 1, "div").startswith(f"The line y={m}x+{c} has slope {m}")
