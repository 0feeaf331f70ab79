"""What a QTI 2.1 player shows and grades, kind by kind, for the writer's survivors (issue 35).

Written for mutants of writers/qti21.py that survived a mutmut run over the whole module: each test
builds a small quiz written here (YAML, so what the author meant is read off the text below, not
from the project's readers), reads the package as a player or Canvas reads it (lxml over the zip's
files) and grades responses with pyslet (helpers.qti21_engine), an engine that shares nothing with
the writer. What Canvas reads of a QTI 2.1 package is as observed of its importer (the manifest's
files of a resource, feedback identifiers, ``correctResponse``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from helpers import NS, broken_include_errors, zip_members
from helpers.qti21_engine import score_item
from qti_builder import BuildOptions, build

Q = NS["q"]


def _package(tmp_path: Path, source: str, quiz_id: str = "kinds") -> dict[str, bytes]:
    """The QTI 2.1 package of a YAML quiz, as its zip's members."""
    path = tmp_path / f"{quiz_id}.yaml"
    path.write_text(source, encoding="utf-8")
    result = build(BuildOptions(sources=[path], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"], [d.render() for d in result.diagnostics]
    return zip_members((tmp_path / "dist" / f"{quiz_id}.qti21.zip").read_bytes())


def _item(package: dict[str, bytes], question_id: str) -> etree._Element:
    return etree.fromstring(package[f"items/{question_id}.xml"])


def _responses(item: etree._Element, interaction: str) -> list[str]:
    """The response identifiers of an item's interactions of one kind, in the order a student meets them."""
    return [i.get("responseIdentifier") for i in item.iter(f"{{{Q}}}{interaction}")]


# -- fill in the blank ---------------------------------------------------------------------------

CASED_BLANK = """\
id: kinds
title: Cased blanks
language: en
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: star
        stem: "Our star is the [[b]]."
        points: 2
        case_sensitive: true
        blanks:
          - {id: b, kind: text, answers: [Sun, sun]}
"""


def test_a_case_sensitive_blank_accepts_each_of_its_answers_in_their_own_case_only(tmp_path: Path) -> None:
    """The author listed "Sun" and "sun" for a case-sensitive blank: both earn the blank's points,
    and "SUN", which the author did not list, earns nothing."""
    package = _package(tmp_path, CASED_BLANK)
    item = _item(package, "star")
    (response,) = _responses(item, "textEntryInteraction")
    raw = package["items/star.xml"]
    assert {text: score_item(raw, {response: text})["SCORE"] for text in ("Sun", "sun", "SUN", "Moon")} == {
        "Sun": 2.0, "sun": 2.0, "SUN": 0.0, "Moon": 0.0}


# -- short answer --------------------------------------------------------------------------------

WILDCARD_ANSWER = """\
id: kinds
title: Wildcards
language: en
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: bard
        stem: Who wrote Hamlet?
        answers:
          - {text: "*speare", score: 100}
          - {text: Shakespeare, score: 100}
"""


def test_a_short_answer_s_correct_response_is_an_answer_the_author_wrote_out(tmp_path: Path) -> None:
    """Canvas takes a text entry's answer from ``correctResponse`` (and a player shows it as the
    solution): with a full-marks answer written out beside a wildcard one, that is the written-out
    "Shakespeare", never the wildcard's letters ("speare"), which Canvas would then require."""
    package = _package(tmp_path, WILDCARD_ANSWER)
    item = _item(package, "bard")
    assert [v.text for v in item.iterfind(f"{{{Q}}}responseDeclaration/{{{Q}}}correctResponse/{{{Q}}}value")] == [
        "Shakespeare"]
    raw = package["items/bard.xml"]
    assert {text: score_item(raw, text)["SCORE"] for text in ("Shakespeare", "Shakspeare", "Marlowe")} == {
        "Shakespeare": 1.0, "Shakspeare": 1.0, "Marlowe": 0.0}


# -- ordering ------------------------------------------------------------------------------------

#: Two-step ordering questions under several ids: the order a package lists the steps in is drawn
#: from the question's id, so some ids meet a draw that keeps the steps as the author wrote them.
TWO_STEPS = [("order{}".format(n), first, second) for n, (first, second) in enumerate(
    [("Wake up", "Get up"), ("Boil water", "Brew tea"), ("Open the book", "Read it"), ("Sow", "Reap"),
     ("Write", "Send"), ("Plan", "Build"), ("Wash", "Dry"), ("Ask", "Answer")], 1)]


def _two_step_quiz() -> str:
    questions = "".join(
        f"      - type: ordering\n        id: {qid}\n        stem: Put the steps in order.\n"
        f"        items: [{first}, {second}]\n" for qid, first, second in TWO_STEPS)
    return f"id: kinds\ntitle: Steps\nlanguage: en\nsections:\n  - id: s\n    title: S\n    questions:\n{questions}"


def test_an_ordering_question_never_lists_its_steps_already_in_order(tmp_path: Path) -> None:
    """A player that lists the choices as the file does (one that does not shuffle) must not show
    the answer: whatever its id, a two-step question lists its second step first. Listing them as
    shown scores nothing; the author's order scores the points."""
    package = _package(tmp_path, _two_step_quiz())
    for qid, first, second in TWO_STEPS:
        item = _item(package, qid)
        choices = [(c.get("identifier"), "".join(c.itertext())) for c in item.iter(f"{{{Q}}}simpleChoice")]
        assert [text for _, text in choices] == [second, first], qid
        ids = {text: ident for ident, text in choices}
        raw = package[f"items/{qid}.xml"]
        assert score_item(raw, [ident for ident, _ in choices])["SCORE"] == 0.0, qid
        assert score_item(raw, [ids[first], ids[second]])["SCORE"] == 1.0, qid


# -- a template that fails -----------------------------------------------------------------------


@pytest.mark.parametrize("template", ["qti21/item_essay.xml.j2", "qti21/assessment_test.xml.j2",
                                      "qti21/imsmanifest.xml.j2"])
def test_a_qti21_template_that_includes_a_missing_file_is_an_error_at_the_question(tmp_path: Path,
                                                                                  template: str) -> None:
    """A --templates override that includes a file it does not have: an error naming the missing
    file (no traceback, nothing written), and for an item's template, at the line of the question
    it was rendering, where the author can look."""
    source, errors = broken_include_errors(tmp_path, template)
    assert any("error[QB303]" in e and "qti21/nowhere.xml.j2" in e for e in errors), errors
    if "item_" in template:
        assert any(e.startswith(f"{source}:5:") and "error[QB303]" in e for e in errors), errors


# -- full marks and the correct feedback ---------------------------------------------------------

FULL_MARKS = """\
id: kinds
title: Full marks
language: en
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: half
        stem: Who wrote Hamlet?
        points: 0.5
        feedback: {correct: Right., incorrect: Wrong.}
        answers:
          - {text: Shakespeare, score: 100}
      - type: matching
        id: thirds
        stem: Match the capitals.
        points: 1
        shuffle: false
        feedback: {correct: All pairs right., incorrect: No pair right.}
        pairs:
          - {prompt: France, answer: Paris}
          - {prompt: Italy, answer: Rome}
          - {prompt: Spain, answer: Madrid}
"""


def _shown_feedback(item: etree._Element, outcomes: dict[str, object]) -> list[str]:
    """The modal feedbacks a player shows after response processing (showHide="show": those whose
    identifier FEEDBACK holds)."""
    chosen = outcomes["FEEDBACK"] or set()
    return ["".join(f.itertext()).strip() for f in item.iter(f"{{{Q}}}modalFeedback")
            if f.get("showHide") == "show" and f.get("identifier") in chosen]


def test_full_marks_show_the_correct_feedback_for_a_fraction_of_a_point_and_for_shared_points(
        tmp_path: Path) -> None:
    """A right answer earns the question's points and shows the correct feedback: for a question
    worth half a point, and for a one-point matching question whose three pairs each earn a third
    (decimal thirds that add up a hair short of 1 still count as full marks). A wrong answer shows
    the incorrect feedback and earns nothing."""
    package = _package(tmp_path, FULL_MARKS)
    raw, item = package["items/half.xml"], _item(package, "half")
    right, wrong = score_item(raw, "Shakespeare"), score_item(raw, "Marlowe")
    assert (right["SCORE"], _shown_feedback(item, right)) == (0.5, ["Right."])
    assert (wrong["SCORE"], _shown_feedback(item, wrong)) == (0.0, ["Wrong."])

    raw, item = package["items/thirds.xml"], _item(package, "thirds")
    texts = {"".join(c.itertext()).strip(): c.get("identifier") for c in item.iter(f"{{{Q}}}simpleAssociableChoice")}
    pairs = [("France", "Paris"), ("Italy", "Rome"), ("Spain", "Madrid")]
    all_right = score_item(raw, [f"{texts[p]} {texts[a]}" for p, a in pairs])
    assert (all_right["SCORE"], _shown_feedback(item, all_right)) == (1.0, ["All pairs right."])
    none_right = score_item(raw, [f"{texts['France']} {texts['Rome']}", f"{texts['Italy']} {texts['Paris']}"])
    assert (none_right["SCORE"], _shown_feedback(item, none_right)) == (0.0, ["No pair right."])


# -- a question worth 0 points -------------------------------------------------------------------

PRACTICE = """\
id: kinds
title: Practice, worth nothing
language: en
sections:
  - id: s
    title: S
    questions:
      - type: multiple_response
        id: primes
        stem: Which are prime?
        points: 0
        feedback: {correct: All right., partially_correct: Some right., incorrect: None right.}
        choices:
          - {id: A, text: "2", correct: true}
          - {id: B, text: "3", correct: true}
          - {id: C, text: "4"}
      - type: short_answer
        id: capital
        stem: The capital of France?
        points: 0
        feedback: {correct: All right., incorrect: None right.}
        answers:
          - {text: Paris, score: 100}
      - type: numerical
        id: sum
        stem: 2 + 2?
        points: 0
        feedback: {correct: All right., incorrect: None right.}
        answers:
          - {value: 4, score: 100}
      - type: matching
        id: pairs
        stem: Match each country with its capital.
        points: 0
        feedback: {correct: All right., partially_correct: Some right., incorrect: None right.}
        pairs:
          - {prompt: France, answer: Paris}
          - {prompt: Italy, answer: Rome}
      - type: fill_in_blank
        id: star
        stem: "Our star is the [[b]]."
        points: 0
        feedback: {correct: All right., incorrect: None right.}
        blanks:
          - {id: b, kind: text, answers: [Sun]}
      - type: single_choice
        id: pick
        stem: Which is a vowel?
        points: 0
        feedback: {correct: All right., incorrect: None right.}
        choices:
          - {id: A, text: a, correct: true}
          - {id: B, text: b}
"""


def _feedback_shown(item: etree._Element, graded: dict[str, object]) -> list[str]:
    """The texts of the modal feedbacks a player shows after an attempt (showHide="show": shown
    when their identifier is in the outcome they name)."""
    shown = []
    for feedback in item.iter(f"{{{Q}}}modalFeedback"):
        value = graded.get(feedback.get("outcomeIdentifier"))
        values = value if isinstance(value, (set, list, tuple)) else {value}
        if feedback.get("identifier") in values:
            shown.append("".join(feedback.itertext()).strip())
    return shown


def _match_pair(item: etree._Element, prompt: str, answer: str) -> str:
    ids = {"".join(c.itertext()): c.get("identifier") for c in item.iter(f"{{{Q}}}simpleAssociableChoice")}
    return f"{ids[prompt]} {ids[answer]}"


def test_a_question_worth_0_points_tells_a_wrong_answer_it_is_wrong(tmp_path: Path) -> None:
    """A practice question worth nothing still has right and wrong answers: its feedback follows
    the answer (a wrong one is never told "All right."), and no answer earns a point. Each item
    keeps its 0 points for Canvas (the test's weight) and for players that read MAXSCORE."""
    package = _package(tmp_path, PRACTICE)
    test = etree.fromstring(package["assessmentTest.xml"])
    assert {w.get("value") for w in test.iter(f"{{{Q}}}weight")} == {"0"}
    pairs = _item(package, "pairs")
    (blank,) = _responses(_item(package, "star"), "textEntryInteraction")
    attempts = {
        "primes": {"all": ["A", "B"], "some": ["A"], "none": ["C"]},
        "capital": {"all": "Paris", "none": "Lyon"},
        "sum": {"all": "4", "none": "5"},
        "pairs": {"all": [_match_pair(pairs, "France", "Paris"), _match_pair(pairs, "Italy", "Rome")],
                  "some": [_match_pair(pairs, "France", "Paris"), _match_pair(pairs, "Italy", "Paris")],
                  "none": [_match_pair(pairs, "France", "Rome"), _match_pair(pairs, "Italy", "Paris")]},
        "star": {"all": {blank: "Sun"}, "none": {blank: "Moon"}},
        "pick": {"all": "A", "none": "B"},
    }
    said = {"all": ["All right."], "some": ["Some right."], "none": ["None right."]}
    for question_id, responses in attempts.items():
        raw = package[f"items/{question_id}.xml"]
        item = etree.fromstring(raw)
        maximum = item.find(f"{{{Q}}}outcomeDeclaration[@identifier='MAXSCORE']/{{{Q}}}defaultValue/{{{Q}}}value")
        assert maximum is not None and float(maximum.text or "") == 0, question_id
        for how, response in responses.items():
            graded = score_item(raw, response)
            assert (question_id, how, _feedback_shown(item, graded), graded["SCORE"]) == (
                question_id, how, said[how], 0.0)
