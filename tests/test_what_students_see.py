"""What students see of feedback and option order, read from the built files by readers that share
nothing with the writers: the QTI 1.2 evaluator (helpers/qti12_engine.py) for what a Canvas item shows
after a response, and the QTI 2.1 items' own attributes for whether a player shuffles.

Each test here kills a one-line change to a writer or template that the rest of the suite let
through (issue 35's survivors): a single-choice item forced to shuffle, a Canvas short answer's
per-answer comment dropped, its correct-answer comment not shown; or a mutant of a writer that
mutmut found alive (tools/mutation.py; the sections at the end, by writer)."""

from __future__ import annotations

from pathlib import Path

import html as html_lib
import re

import lxml.html
import pytest
from lxml import etree

from helpers import QTI_NS, ROOT, broken_include_errors, write
from helpers.outputs import Outputs, build_all
from helpers.moodle_engine import grade as moodle_grade
from helpers.moodle_engine import read_question
from helpers.qti12_engine import score_item
from helpers.qti21_engine import score_item as qti_score
from qti_builder import BuildOptions, build

SOURCE = """---
title: Feedback and order
---

1. Pick the prime. {#fixed-order shuffle=false}

A) 4
B) 5
C) 6

Answer: B

2. Pick the primes. {#fixed-many type=multiple_response shuffle=false}

A) 2
B) 4
C) 7

Answer: A, C

3. Pick the even number. {#shuffled}

A) 3
B) 8

Answer: B

4. Who wrote *Hamlet*? {#hamlet type=short_answer}

Answer: Shakespeare
   Feedback: Right: the usual spelling.
Answer: William Shakespeare
   Feedback: Right, with his first name.
Answer: Marlowe
Correct feedback: Well done.
Incorrect feedback: It was Shakespeare.
"""


def _outputs(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "order.md", SOURCE))


def _interaction(outputs: Outputs, question_id: str) -> etree._Element:
    return next(outputs.qti_item(question_id).iter(f"{{{QTI_NS}}}choiceInteraction"))


def test_qti21_choice_interactions_shuffle_only_where_the_source_lets_them(tmp_path: Path) -> None:
    outputs = _outputs(tmp_path)
    assert _interaction(outputs, "fixed-order").get("shuffle") == "false"
    assert _interaction(outputs, "fixed-many").get("shuffle") == "false"
    assert _interaction(outputs, "shuffled").get("shuffle") == "true"


def _shown(item: etree._Element, response: str) -> tuple[float, list[str]]:
    """The score and the texts of the feedback a Canvas item shows for a typed response."""
    outcome = score_item(item, {"response1": response})
    # A mattext holds HTML as text (texttype text/html): what students read is that HTML's text.
    texts = {f.get("ident"): " ".join(lxml.html.fromstring("".join(f.itertext())).text_content().split())
             for f in item.iter("itemfeedback")}
    return outcome.variables["SCORE"].value, [texts[ident] for ident in outcome.feedback]


def test_a_canvas_short_answer_shows_each_answer_s_own_comment_and_the_correct_feedback(tmp_path: Path) -> None:
    item = _outputs(tmp_path).canvas_item("hamlet")
    score, shown = _shown(item, "William Shakespeare")
    assert score == 100
    assert "Right, with his first name." in shown and "Well done." in shown
    assert "Right: the usual spelling." not in shown and "It was Shakespeare." not in shown
    score, shown = _shown(item, "Shakespeare")
    assert score == 100 and "Right: the usual spelling." in shown and "Well done." in shown


def test_a_wrong_canvas_short_answer_shows_the_incorrect_feedback_only(tmp_path: Path) -> None:
    item = _outputs(tmp_path).canvas_item("hamlet")
    score, shown = _shown(item, "Bacon")
    assert score == 0 and shown == ["It was Shakespeare."]


# -- A second, independent test for each check only one or two tests made (issue 35) -----------------

GRADED = """---
title: Graded
---

1. Pick the prime. {#pick}

A) 4
   Feedback: Four is two times two.
B) 5
C) 6

Answer: B
Incorrect feedback: Primes have two divisors.

2. Pick the primes. {#primes type=multiple_response}

A) 2
   Feedback: Even, yet prime.
B) 4
C) 7

Answer: A, C

3. Boiling point of water in °C? {#boil type=numerical}

Answer: 100 ± 1
   Feedback: At sea level.
Answer (50%): 90 ± 5
   Feedback: Too low.

4. Who wrote *Hamlet*? {#cased type=short_answer case_sensitive=true}

Answer: Shakespeare

5. Who wrote *Faust*? {#uncased type=short_answer}

Answer: Goethe

6. Write the comparison. {#compare type=short_answer}

Answer: "a < b & c"
"""


def _graded(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "graded.md", GRADED))


def _feedback_texts(item: etree._Element, ids: set[str] | list[str]) -> list[str]:
    """The texts of a QTI 2.1 item's modal feedback shown for these FEEDBACK identifiers."""
    return [" ".join("".join(f.itertext()).split()) for f in item.iter(f"{{{QTI_NS}}}modalFeedback") if f.get("identifier") in ids]


def test_moodle_grades_a_case_sensitive_short_answer_by_case(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    cased, uncased = (read_question(outputs.moodle_question(i)) for i in ("cased", "uncased"))
    assert moodle_grade(cased, "Shakespeare") == 1 and moodle_grade(cased, "shakespeare") == 0
    assert moodle_grade(uncased, "goethe") == 1


def test_moodle_shows_a_numerical_answer_s_own_feedback(tmp_path: Path) -> None:
    question = _graded(tmp_path).moodle_question("boil")
    feedback = {a.findtext("text"): " ".join(lxml.html.fromstring(a.findtext("feedback/text")).text_content().split())
                for a in question.findall("answer")}
    assert feedback == {"100": "At sea level.", "90": "Too low."}
    read = read_question(question)
    assert moodle_grade(read, "100.5") == 1 and moodle_grade(read, "86") == 0.5 and moodle_grade(read, "80") == 0


def test_canvas_grades_a_numerical_question_as_one_within_its_margin(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    assert outputs.canvas_meta("boil")["question_type"] == "numerical_question"
    item = outputs.canvas_item("boil")
    assert score_item(item, {"response1": "100.5"}).variables["SCORE"].value == 100
    assert score_item(item, {"response1": "102"}).variables["SCORE"].value == 0


def test_canvas_takes_several_ticks_only_for_multiple_response(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    assert next(outputs.canvas_item("primes").iter("response_lid")).get("rcardinality") == "Multiple"
    assert next(outputs.canvas_item("pick").iter("response_lid")).get("rcardinality") == "Single"


def test_canvas_shows_the_incorrect_feedback_for_a_wrong_choice_and_not_for_the_right_one(tmp_path: Path) -> None:
    item = _graded(tmp_path).canvas_item("pick")
    labels = {"".join(label.itertext()).strip(): label.get("ident") for label in item.iter("response_label")}
    texts = {f.get("ident"): " ".join(lxml.html.fromstring("".join(f.itertext())).text_content().split())
             for f in item.iter("itemfeedback")}
    # Canvas imports the incorrect comments from the feedback with this ident (and shows them to any
    # student not fully right); a QTI 1.2 engine shows it by the <other/> condition, where no other
    # condition held: for a wrong choice without a comment of its own.
    assert texts["general_incorrect_fb"] == "Primes have two divisors."
    wrong = score_item(item, {"response1": labels["6"]})
    assert wrong.variables["SCORE"].value == 0 and [texts[i] for i in wrong.feedback] == ["Primes have two divisors."]
    commented = score_item(item, {"response1": labels["4"]})
    assert [texts[i] for i in commented.feedback] == ["Four is two times two."]
    right = score_item(item, {"response1": labels["5"]})
    assert right.variables["SCORE"].value == 100 and "Primes have two divisors." not in [texts[i] for i in right.feedback]


def test_qti21_multiple_response_full_marks_for_exactly_the_right_choices(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    ids = outputs.qti_choices("primes")
    raw = outputs.qti_raw("primes")
    correct = {v.text for v in outputs.qti_item("primes").iter(f"{{{QTI_NS}}}correctResponse") for v in v}
    assert correct == {ids["2"], ids["7"]}
    assert qti_score(raw, [ids["2"], ids["7"]])["SCORE"] == 1
    assert qti_score(raw, [ids["2"]])["SCORE"] < 1


def test_qti21_shows_a_choice_s_own_feedback_when_it_is_chosen(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    ids = outputs.qti_choices("pick")
    item, raw = outputs.qti_item("pick"), outputs.qti_raw("pick")
    shown = qti_score(raw, ids["4"])["FEEDBACK"]
    assert _feedback_texts(item, shown) == ["Primes have two divisors.", "Four is two times two."]
    assert _feedback_texts(item, qti_score(raw, ids["5"])["FEEDBACK"] or set()) == []


def test_canvas_short_answer_compares_what_students_type_with_the_answer_as_written(tmp_path: Path) -> None:
    outputs = _graded(tmp_path)
    item = outputs.canvas_item("compare")
    assert [v.text for v in item.iter("varequal")] == ["a < b & c"]
    assert score_item(item, {"response1": "a < b & c"}).variables["SCORE"].value == 100
    assert score_item(item, {"response1": "a &lt; b &amp; c"}).variables["SCORE"].value == 0


# -- survivors of the template mutations' expression class (tools/mutate_templates.py) ----------------

CALCULATED = Path(__file__).parent / "fixtures" / "calculated.md"


def test_a_canvas_calculated_question_names_each_variable_its_text_shows_and_keeps_its_sets_apart(tmp_path: Path) -> None:
    """Canvas fills ``[d]`` in the question text with the set's value of the variable named d: a
    variable named otherwise leaves ``[d]`` for students to read; sets with one ident are one set."""
    outputs = build_all(tmp_path, CALCULATED)
    item = outputs.canvas_item("speed")
    # the question text and the explanation ({=d / t:2} is a computed variable of its own)
    texts = html_lib.unescape(" ".join("".join(m.itertext()) for m in item.iter("mattext")))
    declared = [v.get("name") for v in item.iter("var") if v.getparent().tag == "vars"]
    assert {"d", "t"} <= set(declared) and all(f"[{name}]" in texts for name in declared), (declared, texts)
    assert "[d]" in outputs.canvas_text("speed") and "[t]" in outputs.canvas_text("speed")
    for var_set in item.iter("var_set"):
        assert sorted(v.get("name") for v in var_set.iter("var")) == sorted(declared)
    idents = [s.get("ident") for s in item.iter("var_set")]
    assert len(idents) == 12 and len(set(idents)) == 12


def test_canvas_items_and_the_assessment_carry_the_titles_the_source_gives(tmp_path: Path) -> None:
    """Canvas lists a question by its item's title and the quiz by the assessment's (the quiz's
    title, Korean included); a calculated choice question's items, one per set, all have its title."""
    source = write(tmp_path, "titled.md", CALCULATED.read_text(encoding="utf-8").replace(
        "title: ", "title: 계산 문제 — ", 1))
    outputs = build_all(tmp_path, source)
    assessment = next(outputs.canvas.iter("assessment"))
    assert assessment.get("title") == outputs.quiz.title and assessment.get("title").startswith("계산 문제 — ")
    question = next(q for q in outputs.quiz.iter_questions() if q.id == "sum")
    titles = {i.get("title") for i in outputs.canvas.iter("item") if (i.get("ident") or "").startswith(f"{outputs.quiz.id}.sum.v")}
    assert len(titles) == 1 and titles.pop() == (question.title or "What is {a} + {b}?")


def test_a_qti21_package_names_its_test_and_items_as_the_source_does(tmp_path: Path) -> None:
    """A player lists the test by its title and each item by its own; the test's identifier is the quiz id."""
    outputs = build_all(tmp_path, Path(__file__).parent / "fixtures" / "all-types.yaml")
    test = etree.fromstring(outputs.qti["assessmentTest.xml"])
    assert (test.get("identifier"), test.get("title")) == (outputs.quiz.id, outputs.quiz.title)
    assert outputs.qti_item("capital").get("title") == "Capital of France"  # the question's own title


def test_qti_variants_are_one_section_per_question_each_item_referred_to_once(tmp_path: Path) -> None:
    """--qti-variants: a calculated question is a section drawing one of its fixed items; a section or
    a reference sharing an identifier with another would be one of them to a player."""
    from qti_builder import BuildOptions, build

    from helpers import zip_members

    build(BuildOptions(sources=[CALCULATED], out_dir=tmp_path, formats=["qti21"], qti_variants=3, jobs=1))
    members = zip_members((tmp_path / "calculated.qti21.zip").read_bytes())
    test = etree.fromstring(members["assessmentTest.xml"])
    ids = ["speed", "root", "square", "circle", "listed", "functions", "sum"]  # the fixture's questions, in order
    variants = {s.get("identifier"): s for s in test.iter(f"{{{QTI_NS}}}assessmentSection")
                if s.get("identifier", "").startswith("calculated.")}
    assert list(variants) == [f"calculated.{i}" for i in ids]
    assert variants["calculated.speed"].get("title") == "A car covers {d} km in {t} hours. What is its average speed?"
    assert variants["calculated.sum"].get("title") == "What is {a} + {b}?"
    refs = [r for s in variants.values() for r in s.iter(f"{{{QTI_NS}}}assessmentItemRef")]
    assert len(refs) == 21
    identifiers = [e.get("identifier") for e in test.iter(f"{{{QTI_NS}}}assessmentSection", f"{{{QTI_NS}}}assessmentItemRef")]
    assert len(identifiers) == len(set(identifiers))
    for ref in refs:  # each reference is named as the item it points at
        assert etree.fromstring(members[ref.get("href")]).get("identifier") == ref.get("identifier")


def test_a_qti21_manifest_lists_every_file_of_the_package_in_the_quiz_s_language(tmp_path: Path) -> None:
    """Every <file href> of a resource is a member of the package (a player finds the media an item
    shows through it), and the metadata's strings say the quiz's language."""
    outputs = build_all(tmp_path, ROOT / "source" / "content-showcase.md")
    manifest = etree.fromstring(outputs.qti["imsmanifest.xml"])
    files = [f.get("href") for f in manifest.iter("{*}file")]
    assert files and all(f in outputs.qti for f in files)
    assert {f for f in files if "/media/" in f} == {m for m in outputs.qti if "/media/" in m}  # its images and audio
    assert {s.get("language") for s in manifest.iter("{*}string")} == {outputs.quiz.language}


def test_qti21_calculated_items_shuffle_as_the_source_says_and_show_their_feedback(tmp_path: Path) -> None:
    """A calculated choice item shuffles unless the source says shuffle=false, pins no option the
    source does not pin; a calculated item's feedback is one its response processing can show."""
    source = write(tmp_path, "calc.md", CALCULATED.read_text(encoding="utf-8").replace(
        "{#sum type=calculated_choice sets=6}", "{#sum type=calculated_choice sets=6 shuffle=false}"))
    outputs = build_all(tmp_path, source)
    interaction = next(outputs.qti_item("sum").iter(f"{{{QTI_NS}}}choiceInteraction"))
    assert interaction.get("shuffle") == "false"
    assert {c.get("fixed") for c in outputs.qti_item("sum").iter(f"{{{QTI_NS}}}simpleChoice")} == {"false"}
    shuffled = build_all(tmp_path / "shuffled", CALCULATED)
    assert next(shuffled.qti_item("sum").iter(f"{{{QTI_NS}}}choiceInteraction")).get("shuffle") == "true"
    for question_id in ("speed", "sum"):  # each has an explanation
        item = outputs.qti_item(question_id)
        set_ids = {v.text for v in item.iter(f"{{{QTI_NS}}}baseValue") if v.get("baseType") == "identifier"}
        shown = [f.get("identifier") for f in item.iter(f"{{{QTI_NS}}}modalFeedback")]
        assert shown and all(i in set_ids for i in shown), question_id


# -- mutmut's survivors (tools/mutation.py): each source built per test, so mutmut's selection of
# -- tests sees the build (tests/README.md, "Mutation testing"). writers/canvas.py: --------------

LONG_STEP = "Write the whole program in one file, with a docstring that says what it is for and how to run it"

ORDERING = f"""---
title: Order
---

1. Put the steps in order. {{#steps type=ordering}}

- {LONG_STEP}
- Run it
- Read the output
"""

STEPS = [LONG_STEP, "Run it", "Read the output"]


def _ordering_outputs(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "order.md", ORDERING))


def _lines_of_last_paragraph(html: str) -> list[str]:
    """The lines a browser shows of the question's last paragraph (split at its ``<br>``)."""
    paragraph = lxml.html.fragment_fromstring(html, create_parent="div").findall("p")[-1]
    lines, current = [], paragraph.text or ""
    for child in paragraph:
        if child.tag == "br":
            lines.append(current)
            current = child.tail or ""
        else:
            current += child.text_content() + (child.tail or "")
    return [" ".join(line.split()) for line in [*lines, current]]


def _options(item: etree._Element) -> dict[str, dict[str, str]]:
    """Each drop-down's options: response ident -> option text -> option ident."""
    return {lid.get("ident"): {label.findtext("material/mattext"): label.get("ident") for label in lid.iter("response_label")}
            for lid in item.iter("response_lid")}


def test_a_canvas_ordering_question_shows_one_numbered_line_per_position(tmp_path: Path) -> None:
    outputs = _ordering_outputs(tmp_path)
    html = outputs.canvas_text("steps")
    assert "Put the steps in order." in lxml.html.fragment_fromstring(html, create_parent="div").text_content()
    # Three lines of text, each a number and its drop-down: not a Markdown list (which would drop or
    # renumber the numbers), not one run-on line.
    assert _lines_of_last_paragraph(html) == ["1. [p1]", "2. [p2]", "3. [p3]"]
    assert "<ol" not in html and "<li" not in html


def test_each_canvas_ordering_drop_down_lists_every_step_whole_and_one_is_right(tmp_path: Path) -> None:
    item = _ordering_outputs(tmp_path).canvas_item("steps")
    options = _options(item)
    assert sorted(options) == ["response_p1", "response_p2", "response_p3"]  # the text's [p1]..[p3]
    for shown in options.values():
        assert sorted(shown) == sorted(STEPS)  # the long step whole, not cut at 80 characters
    right = {lid: shown[step] for (lid, shown), step in zip(sorted(options.items()), STEPS)}
    assert score_item(item, right).score == pytest.approx(100, abs=0.01)
    swapped = {**right, "response_p1": options["response_p1"]["Run it"], "response_p2": options["response_p2"][LONG_STEP]}
    assert score_item(item, swapped).score == pytest.approx(100 / 3, abs=0.01)


WRITERS_SURVIVORS = """\
title: What each writer must keep
id: kept
sections:
  - id: main
    title: Main
    questions:
      - type: fill_in_blank
        id: dotted
        stem: "Parts: [[Part.A]], then [[Part_A]]."
        blanks:
          - {id: Part.A, answers: [north]}
          - {id: Part_A, answers: [south]}
      - type: numerical
        id: distance
        stem: How far is it?
        unit: km
        answers:
          - {value: 5, tolerance: 5, score: 100, feedback: Near enough.}
          - {value: 42, score: 100, feedback: The marathon.}
      - type: numerical
        id: unitless
        stem: How many?
        answers:
          - {value: 3, score: 100}
      - type: matching
        id: long-pairs
        stem: Match each line with its longer partner.
        pairs:
          - {prompt: one, answer: "The first answer is long enough to pass the eighty characters of a title, and then some more"}
          - {prompt: two, answer: Short}
        distractors: ["A distractor that is also longer than eighty characters, so a cut would show up in the list"]
      - type: true_false
        id: plain-tf
        stem: The Earth is round.
        answer: true
        true_feedback: Yes, roughly.
        false_feedback: Look at a photograph from space.
      - type: true_false
        id: ox-tf
        stem: Water boils at 100 °C at sea level.
        answer: true
        labels: [O, X]
"""


def _kept(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "kept.yaml", WRITERS_SURVIVORS))


def test_canvas_blank_ids_outside_its_alphabet_get_a_marker_and_a_drop_down_each(tmp_path: Path) -> None:
    """Canvas takes [blank] ids of letters, digits, '_' and '-' only: 'Part.A' becomes the nearest
    such id, which must not take the one of the blank 'Part_A', and each marker names its own
    blank (the names teachers see in Canvas's editor: the author's, each other character an '_')."""
    outputs = _kept(tmp_path)
    item = outputs.canvas_item("dotted")
    text = lxml.html.fragment_fromstring(outputs.canvas_text("dotted"), create_parent="div").text_content()
    markers = re.findall(r"\[([^\]]+)\]", text)
    assert sorted(markers) == ["Part_A", "Part_A_"]
    options = _options(item)
    assert sorted(options) == sorted(f"response_{m}" for m in markers)
    right = {f"response_{m}": options[f"response_{m}"][word] for m, word in zip(markers, ["north", "south"])}
    assert score_item(item, right).score == pytest.approx(100, abs=0.01)
    assert score_item(item, {**right, f"response_{markers[1]}": "nothing"}).score == pytest.approx(50, abs=0.01)


def test_a_canvas_numerical_answer_shows_its_own_feedback_and_its_range_reaches_zero(tmp_path: Path) -> None:
    outputs = _kept(tmp_path)
    item = outputs.canvas_item("distance")
    assert score_item(item, {"response1": "0"}).score == 100  # 5 ± 5 starts at 0
    assert score_item(item, {"response1": "10"}).score == 100
    assert score_item(item, {"response1": "-0.5"}).score == 0
    assert _shown(item, "2")[1] == ["Near enough."]
    assert _shown(item, "42")[1] == ["The marathon."]


def test_a_canvas_numerical_question_states_its_unit_after_the_text_and_no_other(tmp_path: Path) -> None:
    outputs = _kept(tmp_path)
    paragraphs = [p.text_content() for p in lxml.html.fragment_fromstring(outputs.canvas_text("distance"), create_parent="div").iter("p")]
    assert paragraphs == ["How far is it?", "(km)"]
    assert [p.text_content() for p in lxml.html.fragment_fromstring(outputs.canvas_text("unitless"), create_parent="div").iter("p")] == ["How many?"]


def test_canvas_matching_lists_long_answers_and_distractors_whole_and_scores_the_pairs(tmp_path: Path) -> None:
    outputs = _kept(tmp_path)
    item = outputs.canvas_item("long-pairs")
    question = outputs.quiz.sections[0].questions[3]
    wanted = sorted([p.answer for p in question.pairs] + list(question.distractors))
    options = _options(item)
    for shown in options.values():
        assert sorted(shown) == wanted
    right = {lid: shown[pair.answer] for (lid, shown), pair in zip(options.items(), question.pairs)}
    assert score_item(item, right).score == pytest.approx(100, abs=0.01)


def test_a_canvas_true_false_question_is_canvas_s_own_only_with_true_and_false_and_shows_each_answer_s_feedback(tmp_path: Path) -> None:
    """Canvas makes a true/false question only of the answer texts True and False: with the
    author's own labels (O/X) it must be a multiple-choice question, or Canvas shows True/False
    instead of them. Each answer shows its own feedback."""
    outputs = _kept(tmp_path)
    assert outputs.canvas_meta("plain-tf")["question_type"] == "true_false_question"
    assert outputs.canvas_meta("ox-tf")["question_type"] == "multiple_choice_question"
    assert sorted(_options(outputs.canvas_item("ox-tf"))["response1"]) == ["O", "X"]
    item = outputs.canvas_item("plain-tf")
    options = _options(item)["response1"]
    assert _shown(item, options["True"]) == (100, ["Yes, roughly."])
    assert _shown(item, options["False"]) == (0, ["Look at a photograph from space."])



@pytest.mark.parametrize("template", ["canvas/item_essay.xml.j2", "canvas/assessment.xml.j2", "canvas/assessment_meta.xml.j2",
                                      "canvas/imsmanifest.xml.j2"])
def test_a_canvas_template_that_includes_a_missing_file_is_an_error_where_it_is_used(tmp_path: Path, template: str) -> None:
    """A --templates override that includes a file it does not have: an error (no traceback,
    nothing written), at the question the item template was rendering for."""
    source, errors = broken_include_errors(tmp_path, template)
    assert any("error[QB303]" in e and "canvas/nowhere.xml.j2" in e for e in errors), errors
    if "item_" in template:
        assert any(e.startswith(f"{source}:5:") and "error[QB303]" in e for e in errors), errors


# -- writers/moodle.py ---------------------------------------------------------------------------

MOODLE_KEPT = """\
title: What Moodle must get
id: moodle-kept
sections:
  - id: main
    title: Main
    questions:
      - type: fill_in_blank
        id: passage-cloze
        passage: "The ratio {1:2} is a half, and {2:MULTICHOICE:=a~b} is text too."
        stem: "The empty set has [[size]] members."
        blanks:
          - {id: size, answers: ["0"]}
      - type: fill_in_blank
        id: three-for-two
        points: 2
        stem: "[[a]], [[b]] and [[c]]."
        blanks:
          - {id: a, answers: [x]}
          - {id: b, answers: [y]}
          - {id: c, answers: [z]}
      - type: fill_in_blank
        id: one-and-a-half
        points: 1.5
        stem: "Say [[w]]."
        blanks:
          - {id: w, answers: [yes]}
      - type: fill_in_blank
        id: halves
        stem: "[[small]] and [[big]]."
        blanks:
          - {id: small, answers: [s], points: 2.5}
          - {id: big, answers: [b], points: 5}
      - type: fill_in_blank
        id: thirds
        stem: "[[lo]] and [[hi]]."
        blanks:
          - {id: lo, answers: [l], points: 1.5}
          - {id: hi, answers: [h], points: 2.5}
      - type: fill_in_blank
        id: nothing-and-one
        stem: "[[free]] and [[paid]]."
        blanks:
          - {id: free, answers: [f], points: 0}
          - {id: paid, answers: [p], points: 1}
      - type: true_false
        id: ox
        stem: Water boils at 100 °C at sea level.
        answer: true
        labels: [O, X]
      - type: matching
        id: long-distractor
        stem: Match them.
        pairs:
          - {prompt: one, answer: "1"}
          - {prompt: two, answer: "2"}
        distractors: ["A distractor that is longer than eighty characters, so that a cut would show in Moodle's list"]
"""


def _moodle_kept(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "moodle-kept.yaml", MOODLE_KEPT))


def test_a_moodle_cloze_question_shows_its_passage_as_text_and_reads_only_its_blanks(tmp_path: Path) -> None:
    """A passage's own "{1" must not read as an embedded answer: one blank, and the passage shown."""
    outputs = _moodle_kept(tmp_path)
    question = outputs.moodle_question("passage-cloze")
    assert len(read_question(question).cloze) == 1
    text = lxml.html.fragment_fromstring(html_lib.unescape(outputs.moodle_text("passage-cloze")), create_parent="div").text_content()
    assert "The ratio {1:2} is a half, and {2:MULTICHOICE:=a~b} is text too." in text
    assert re.sub(r"\{1:SHORTANSWER:[^}]*\}", "___", text.split("text too.", 1)[1]).strip() == "The empty set has ___ members."


def test_moodle_weighs_cloze_blanks_in_the_proportion_of_their_points(tmp_path: Path) -> None:
    """Moodle's blank weights are whole numbers: 2.5 and 5 points are weights 1 and 2; a blank
    worth nothing beside one worth 1 has no whole proportion, so 1 each (and a warning)."""
    outputs = _moodle_kept(tmp_path)
    assert [s.mark for s in read_question(outputs.moodle_question("halves")).cloze] == [1, 2]
    assert [s.mark for s in read_question(outputs.moodle_question("thirds")).cloze] == [3, 5]
    assert [s.mark for s in read_question(outputs.moodle_question("nothing-and-one")).cloze] == [1, 1]
    # and the text around the blanks as written, nothing before or after it
    text = lxml.html.fragment_fromstring(html_lib.unescape(outputs.moodle_text("three-for-two")), create_parent="div").text_content()
    assert re.sub(r"\{1:SHORTANSWER:[^}]*\}", "___", text).strip() == "___, ___ and ___."


def test_a_moodle_cloze_mark_that_blanks_cannot_share_is_a_warning_saying_what_moodle_makes_of_it(tmp_path: Path) -> None:
    outputs = _moodle_kept(tmp_path)
    three = [w for w in outputs.warnings if "three-for-two" in w]
    assert len(three) == 1, outputs.warnings
    assert "it will be worth 3 (each of the 3 blanks 1)" in three[0]
    assert "hint: give the question a whole multiple of its number of blanks as points (or its blanks whole points), or change the mark in Moodle" in three[0]
    assert read_question(outputs.moodle_question("three-for-two")).mark == 3
    one = [w for w in outputs.warnings if "one-and-a-half" in w]
    assert len(one) == 1 and "it will be worth 1 (each of the 1 blanks 1)" in one[0], outputs.warnings


def test_a_moodle_true_false_with_its_own_marks_shows_them_without_an_instruction(tmp_path: Path) -> None:
    question = _moodle_kept(tmp_path).moodle_question("ox")
    read = read_question(question)
    assert read.qtype == "multichoice" and [a.text for a in read.answers] == ["O", "X"]
    assert moodle_grade(read, {0}) == 1 and moodle_grade(read, {1}) == 0
    assert question.findtext("showstandardinstruction") == "0"  # no "Select one:" above two marks


def test_a_moodle_matching_distractor_is_listed_whole(tmp_path: Path) -> None:
    read = read_question(_moodle_kept(tmp_path).moodle_question("long-distractor"))
    assert "A distractor that is longer than eighty characters, so that a cut would show in Moodle's list" in [a for _, a in read.subquestions]


# -- writers/qti21.py ----------------------------------------------------------------------------

UPLOADS = """\
title: Uploads
id: uploads
sections:
  - id: main
    title: Main
    questions:
      - {type: essay, id: plain-essay, stem: Explain recursion.}
      - {type: essay, id: essay-two-files, stem: Explain and attach two sketches., attachments: 2}
      - {type: essay, id: essay-one-file, stem: Explain and attach one sketch., attachments: 1}
      - {type: file_upload, id: three-files, stem: Upload three files., max_files: 3}
      - {type: file_upload, id: one-pdf, stem: Upload your report., allowed_types: [.pdf]}
      - {type: file_upload, id: upper-pdf, stem: Upload your report., allowed_types: [.PDF]}
      - {type: file_upload, id: pdf-or-text, stem: Upload your report., allowed_types: [.pdf, .txt]}
      - {type: file_upload, id: odd-type, stem: Upload your file., allowed_types: [.xyz]}
"""


def _uploads_built(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "uploads.yaml", UPLOADS))


def _upload_interactions(outputs: Outputs, question_id: str) -> list[etree._Element]:
    item = outputs.qti_item(question_id)
    declared = {d.get("identifier"): d.get("baseType") for d in item.iter(f"{{{QTI_NS}}}responseDeclaration")}
    uploads = list(item.iter(f"{{{QTI_NS}}}uploadInteraction"))
    # each box a student sees stores its own file: one declared file response per interaction
    assert all(declared.get(u.get("responseIdentifier")) == "file" for u in uploads), question_id
    assert len({u.get("responseIdentifier") for u in uploads}) == len(uploads), question_id
    return uploads


def _interaction_types(outputs: Outputs, question_id: str) -> list[str]:
    """What the package's manifest says an item asks (the LMS's item bank searches by it)."""
    manifest = etree.fromstring(outputs.qti["imsmanifest.xml"])
    resource = next(r for r in manifest.iter("{*}resource") if r.get("href") == f"items/{question_id}.xml")
    return [t.text for t in resource.iter("{*}interactionType")]


def test_a_qti21_essay_offers_one_upload_box_per_attachment_and_its_manifest_says_so(tmp_path: Path) -> None:
    outputs = _uploads_built(tmp_path)
    assert _upload_interactions(outputs, "plain-essay") == []
    assert _interaction_types(outputs, "plain-essay") == ["extendedTextInteraction"]
    assert len(_upload_interactions(outputs, "essay-two-files")) == 2
    assert len(_upload_interactions(outputs, "essay-one-file")) == 1
    assert _interaction_types(outputs, "essay-two-files") == ["extendedTextInteraction", "uploadInteraction"]


def test_a_qti21_file_upload_offers_one_box_per_file_and_restricts_it_to_the_one_type_allowed(tmp_path: Path) -> None:
    outputs = _uploads_built(tmp_path)
    assert len(_upload_interactions(outputs, "three-files")) == 3
    assert [u.get("type") for u in _upload_interactions(outputs, "one-pdf")] == ["application/pdf"]
    assert [u.get("type") for u in _upload_interactions(outputs, "upper-pdf")] == ["application/pdf"]
    assert [u.get("type") for u in _upload_interactions(outputs, "pdf-or-text")] == [None]  # two types: any file
    assert [u.get("type") for u in _upload_interactions(outputs, "odd-type")] == [None]  # no MIME type known


QTI_KEPT = """\
title: What a QTI player must get
id: qti-kept
sections:
  - id: main
    title: Main
    questions:
      - type: true_false
        id: ox-qti
        stem: Water boils at 100 °C at sea level.
        answer: true
        labels: [O, X]
        true_feedback: Right, at sea level.
        false_feedback: It does, at sea level.
      - type: numerical
        id: tiny
        stem: How many metres is 20 nanometres?
        answers:
          - {value: 0.00000002, score: 100}
      - type: fill_in_blank
        id: mixed-blanks
        stem: "[[word]] is [[colour]]."
        blanks:
          - {id: word, answers: [Grass]}
          - {id: colour, kind: dropdown, answers: [green], options: [red]}
      - type: fill_in_blank
        id: text-blank
        stem: "Say [[word]]."
        blanks:
          - {id: word, answers: [Hello]}
      - type: short_answer
        id: starred
        stem: What is five times three, as written?
        answers:
          - {text: "5 \\\\* 3", score: 100}
      - type: short_answer
        id: wild
        stem: Spell the colour.
        answers:
          - {text: "colo*r", score: 100}
"""


def _qti_kept(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "qti-kept.yaml", QTI_KEPT))


def test_a_qti21_true_false_shows_the_author_s_marks_and_each_one_s_feedback(tmp_path: Path) -> None:
    outputs = _qti_kept(tmp_path)
    ids = outputs.qti_choices("ox-qti")
    assert sorted(ids) == ["O", "X"]
    item, raw = outputs.qti_item("ox-qti"), outputs.qti_raw("ox-qti")
    right = qti_score(raw, ids["O"])
    assert right["SCORE"] == 1 and _feedback_texts(item, right["FEEDBACK"] or set()) == ["Right, at sea level."]
    wrong = qti_score(raw, ids["X"])
    assert wrong["SCORE"] == 0 and _feedback_texts(item, wrong["FEEDBACK"] or set()) == ["It does, at sea level."]


def test_a_qti21_numerical_answer_keeps_a_value_of_eight_decimals(tmp_path: Path) -> None:
    outputs = _qti_kept(tmp_path)
    raw = outputs.qti_raw("tiny")
    assert qti_score(raw, "0.00000002")["SCORE"] == 1
    assert qti_score(raw, "0")["SCORE"] == 0
    # the correct answer a player shows
    (value,) = [v.text for v in outputs.qti_item("tiny").iter(f"{{{QTI_NS}}}correctResponse") for v in v]
    assert float(value) == 2e-8


def test_a_qti21_package_lists_the_interactions_of_a_question_s_blanks(tmp_path: Path) -> None:
    outputs = _qti_kept(tmp_path)
    assert sorted(_interaction_types(outputs, "mixed-blanks")) == ["inlineChoiceInteraction", "textEntryInteraction"]
    assert _interaction_types(outputs, "text-blank") == ["textEntryInteraction"]


def test_a_short_answer_s_star_is_a_wildcard_and_an_escaped_one_a_star_in_every_target(tmp_path: Path) -> None:
    """What Canvas accepts (it has no wildcards: the answer as a student types it) and what a QTI
    player scores as right."""
    outputs = _qti_kept(tmp_path)
    assert outputs.canvas_correct("starred") == ["5 * 3"]
    assert outputs.canvas_correct("wild") == ["color"]
    assert qti_score(outputs.qti_raw("starred"), "5 * 3")["SCORE"] == 1
    assert qti_score(outputs.qti_raw("wild"), "colour")["SCORE"] == 1
