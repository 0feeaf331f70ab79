"""What a Canvas student sees and earns, for the survivors of issue 35's whole mutmut run over
writers/canvas.py (fourth session). Each package is built from a small source written here, and
read as Canvas reads it (the import facts, in docs/lms-behaviour.md's words): the question type
comes from the item's ``question_type`` metadata alone, a fill-in-the-blanks question accepts
every answer a blank lists at full credit, the settings come from ``assessment_meta.xml``, and a
response is scored by the QTI 1.2 evaluator of tests/helpers, not by the writer's code. The
expected values are read from the sources by hand.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
from lxml import etree

from helpers import write, zip_members
from helpers.canvas import local_names
from helpers.qti12_engine import score_item
from qti_builder import BuildOptions, build

CANVAS_META = "{http://canvas.instructure.com/xsd/cccv1p0}"


class Package:
    """A Canvas zip as Canvas reads it: the assessment (plain element names), the settings file."""

    def __init__(self, path: Path, quiz_id: str) -> None:
        self.members = zip_members(path.read_bytes())
        self.assessment = local_names(etree.fromstring(self.members[f"{quiz_id}/{quiz_id}.xml"]))
        self.meta = etree.fromstring(self.members[f"{quiz_id}/assessment_meta.xml"])
        self.quiz_id = quiz_id

    def item(self, question_id: str) -> etree._Element:
        return next(i for i in self.assessment.iter("item") if i.get("ident") == f"{self.quiz_id}.{question_id}")

    def metadata(self, question_id: str) -> dict[str, str]:
        return {f.findtext("fieldlabel"): f.findtext("fieldentry") or "" for f in self.item(question_id).iter("qtimetadatafield")}

    def setting(self, name: str) -> str | None:
        return self.meta.findtext(CANVAS_META + name)


def canvas(tmp_path: Path, source: str, name: str = "quiz") -> Package:
    path = write(tmp_path, f"{name}.md", source)
    build(BuildOptions(sources=[path], out_dir=tmp_path / "out", formats=["canvas"], jobs=1))
    return Package(tmp_path / "out" / f"{name}.canvas.zip", name)


def shown(element: etree._Element | None) -> str:
    """A ``mattext``'s HTML as the text a student reads."""
    if element is None:
        return ""
    return " ".join(lxml.html.fromstring(f"<div>{''.join(element.itertext())}</div>").text_content().split())


# -- fill in the blank: a text blank beside a drop-down ------------------------------------------

MIXED_BLANKS = """---
title: Loops
---

1. Fill in the blanks. {#loop-blanks type=fill_in_blank points=2}

   The body of `for x in values:` runs once per [[element | item]] of `values`,
   and the statement [[*break | continue | pass]] leaves the loop early.
"""


def _blank_answers(item: etree._Element) -> dict[str, set[str]]:
    """Blank id -> the texts Canvas takes as its answers (every listed one, at full credit, in a
    fill_in_multiple_blanks_question)."""
    return {r.findtext("material/mattext"): {shown(label.find("material/mattext")) for label in r.iter("response_label")}
            for r in item.iter("response_lid")}


def test_a_text_blank_beside_a_drop_down_stays_a_text_box_accepting_only_the_right_answers(tmp_path: Path) -> None:
    package = canvas(tmp_path, MIXED_BLANKS)
    item = package.item("loop-blanks")
    # Canvas picks the type from question_type alone: as multiple_dropdowns_question the text blank
    # would be a drop-down listing its accepted answers, the answer shown to every student.
    assert package.metadata("loop-blanks")["question_type"] == "fill_in_multiple_blanks_question"
    # Every answer a blank lists is a right one to Canvas here: the drop-down's wrong options
    # listed would be accepted when typed.
    answers = _blank_answers(item)
    assert sorted(answers.values(), key=len) == [{"break"}, {"element", "item"}]
    text = shown(item.find("presentation/material/mattext"))
    assert text.count("[") == 2 and all(f"[{blank}]" in text for blank in answers)
    # And the scoring: both right earns all, a wrong option typed earns only the other blank's half.
    ids = {blank: {shown(label.find("material/mattext")): label.get("ident") for label in r.iter("response_label")}
           for r in item.iter("response_lid") for blank in [r.findtext("material/mattext")]}
    (text_blank,) = [b for b, a in answers.items() if "item" in a]
    (dropdown,) = [b for b in answers if b != text_blank]
    both = score_item(item, {f"response_{text_blank}": ids[text_blank]["item"], f"response_{dropdown}": ids[dropdown]["break"]})
    assert both.score == 100


# -- essay and file upload -------------------------------------------------------------------------

ESSAY_AND_UPLOAD = """---
title: Reports
---

1. Explain the difference between a list and a tuple. {#list-vs-tuple type=essay points=5}

Answer: A list can be changed after it is created; a tuple cannot.

2. Upload your lab report. {#report type=file_upload points=10}

Answer: Check that the method section names the instruments.
"""


def test_an_essay_is_a_text_box_and_a_file_upload_an_upload_with_their_notes_for_graders(tmp_path: Path) -> None:
    package = canvas(tmp_path, ESSAY_AND_UPLOAD)
    # Canvas takes the type from question_type alone: an essay as a file upload would give the
    # student no text box, an upload as an essay no way to send the file.
    essay, upload = package.metadata("list-vs-tuple"), package.metadata("report")
    assert essay["question_type"] == "essay_question" and upload["question_type"] == "file_upload_question"
    assert [r.get("ident") for r in package.item("list-vs-tuple").iter("response_str")] == ["response1"]
    assert list(package.item("report").iter("response_str")) == []
    # Both keep the notes for graders: New Quizzes' grading_notes, Classic's example solution.
    assert essay["grading_notes"] == "A list can be changed after it is created; a tuple cannot."
    assert upload["grading_notes"] == "Check that the method section names the instruments."
    solution = {f.get("ident"): shown(f.find("flow_mat/material/mattext")) for f in package.item("report").iter("itemfeedback")}
    assert solution == {"solution": "Check that the method section names the instruments."}
    assert (essay["points_possible"], upload["points_possible"]) == ("5", "10")


# -- single choice and multiple response -------------------------------------------------------------

CHOICES = """---
title: Types
---

1. Which type is immutable? {#one shuffle=false}

A) `list`
B) `tuple`
C) `dict`

Answer: B

2. Which of these are immutable types? {#several points=2 shuffle=false}

A) `tuple`
B) `list`
C) `str`
D) `dict`

Answer: A, C
"""


def _choose(item: etree._Element, texts: set[str]) -> float:
    """The score of ticking the options whose texts are ``texts`` (one, or a set of several)."""
    lid = item.find("presentation/response_lid")
    idents = {shown(label.find("material/mattext")): label.get("ident") for label in lid.iter("response_label")}
    chosen = {idents[t] for t in texts}
    response = next(iter(chosen)) if lid.get("rcardinality") == "Single" else chosen
    return score_item(item, {lid.get("ident"): response}).score


def test_a_single_choice_question_is_radio_buttons_and_a_multiple_response_one_check_boxes(tmp_path: Path) -> None:
    package = canvas(tmp_path, CHOICES)
    one, several = package.item("one"), package.item("several")
    # Canvas takes the type from question_type alone: a single choice as multiple answers would be
    # check boxes scored by Canvas's partial-credit rule; a multiple response as multiple choice,
    # radio buttons that let a student pick one of the two right answers only.
    assert package.metadata("one")["question_type"] == "multiple_choice_question"
    assert package.metadata("several")["question_type"] == "multiple_answers_question"
    assert one.find("presentation/response_lid").get("rcardinality") == "Single"
    assert several.find("presentation/response_lid").get("rcardinality") == "Multiple"
    assert [_choose(one, {t}) for t in ("list", "tuple", "dict")] == [0, 100, 0]
    assert _choose(several, {"tuple", "str"}) == 100
    assert _choose(several, {"tuple"}) == 0 and _choose(several, {"tuple", "str", "list"}) == 0


# -- question groups ---------------------------------------------------------------------------------

def _group(points: tuple[str, str, str]) -> str:
    return f"""---
title: Primes
---

# Warm-up {{#warm-up select=2}}

1. Is 2 a prime number? {{#two points={points[0]}}}

Answer: true

2. Is 9 a prime number? {{#nine points={points[1]}}}

Answer: false

3. Is 11 a prime number? {{#eleven points={points[2]}}}

Answer: true
"""


def _group_points(package: Package) -> tuple[str | None, list[str], str | None]:
    """What Canvas reads of the group: its points per question (New Quizzes, Canvas's extension),
    each of its items' points (Classic takes the group's from them), and the quiz's total."""
    (group,) = [s for s in package.assessment.iter("section") if s.get("ident") == "warm-up"]
    per_item = group.findtext("selection_ordering/selection/selection_extension/points_per_item")
    items = [package.metadata(i.get("ident").split(".", 1)[1])["points_possible"] for i in group.iter("item")]
    return per_item, items, package.setting("points_possible")


def test_a_question_group_of_questions_worth_nothing_is_worth_nothing(tmp_path: Path) -> None:
    # A practice warm-up: the group draws two questions worth 0, so the quiz is worth 0.
    assert _group_points(canvas(tmp_path, _group(("0", "0", "0")))) == ("0", ["0", "0", "0"], "0")


def test_every_question_of_a_group_is_worth_the_group_s_points_per_question(tmp_path: Path) -> None:
    # Canvas gives every question of a group one value, the first question's here (2): each item
    # states it, so Classic and New Quizzes agree, and the quiz is worth the two drawn at 2.
    assert _group_points(canvas(tmp_path, _group(("2", "3", "3")))) == ("2", ["2", "2", "2"], "4")


# -- a shared passage ----------------------------------------------------------------------------------

PASSAGE = """schema_version: 1
id: reading
title: Reading
sections:
  - id: part
    title: Part
    questions:
      - type: true_false
        id: river
        passage: The Seine flows through Paris.
        stem: Paris lies on a river.
        answer: true
"""


def test_a_question_s_shared_passage_is_shown_above_its_text_in_canvas(tmp_path: Path) -> None:
    path = write(tmp_path, "reading.yaml", PASSAGE)
    build(BuildOptions(sources=[path], out_dir=tmp_path / "out", formats=["canvas"], jobs=1))
    package = Package(tmp_path / "out" / "reading.canvas.zip", "reading")
    # Canvas has no passages: the question's own text is all a student reads.
    assert shown(package.item("river").find("presentation/material/mattext")) == \
        "The Seine flows through Paris. Paris lies on a river."


# -- the quiz's settings -----------------------------------------------------------------------------

def _attempts(tmp_path: Path, setting: str) -> tuple[str | None, str | None]:
    """What Canvas reads as the allowed attempts: the settings file's, and the assessment's own
    cc_maxattempts (read when there is no settings file)."""
    source = f"---\ntitle: Attempts\n{setting}---\n\n1. Is 7 a prime number? {{#seven}}\n\nAnswer: true\n"
    tmp_path.mkdir()
    package = canvas(tmp_path, source, "attempts")
    stated = {f.findtext("fieldlabel"): f.findtext("fieldentry") for f in package.assessment.iter("qtimetadatafield")
              if f.getparent().getparent().tag == "assessment"}
    return package.setting("allowed_attempts"), stated.get("cc_maxattempts")


def test_the_allowed_attempts_reach_canvas_as_written_and_unset_leaves_canvas_s_default(tmp_path: Path) -> None:
    assert _attempts(tmp_path / "two", "settings:\n  allowed_attempts: 2\n") == ("2", "2")
    # (The assessment's own field says 'unlimited' in Common Cartridge's word; Canvas reads the file's -1.)
    assert _attempts(tmp_path / "unlimited", "settings:\n  allowed_attempts: unlimited\n")[0] == "-1"
    # Unset: nothing written, so Canvas keeps its own default (one attempt), not unlimited.
    assert _attempts(tmp_path / "unset", "") == (None, None)


def _paging(tmp_path: Path, settings: str) -> tuple[str | None, str | None]:
    """Canvas's one_question_at_a_time and cant_go_back, as its settings file states them."""
    tmp_path.mkdir()
    source = f"---\ntitle: Paging\nsettings:\n{settings}---\n\n1. Is 7 a prime number? {{#seven}}\n\nAnswer: true\n"
    package = canvas(tmp_path, source, "paging")
    return package.setting("one_question_at_a_time"), package.setting("cant_go_back")


def test_locking_questions_shows_one_at_a_time_in_canvas_unless_the_source_says_otherwise(tmp_path: Path) -> None:
    # Canvas locks a question only on a quiz showing one at a time (its quiz model clears
    # cant_go_back otherwise): a lock asked for alone pages the quiz.
    assert _paging(tmp_path / "lock", "  lock_questions_after_answering: true\n") == ("true", "true")
    # Said to show all at once: that stays, and the lock Canvas cannot hold is left out (a named loss).
    assert _paging(tmp_path / "all", "  lock_questions_after_answering: true\n  one_question_at_a_time: false\n") == \
        ("false", None)
    # Nothing said: nothing written, Canvas's defaults apply.
    assert _paging(tmp_path / "none", "  time_limit: 30\n") == (None, None)


# -- which attempt counts ---------------------------------------------------------------------------

def _graded_by(tmp_path: Path, method: str) -> tuple[str | None, list[str]]:
    """Canvas's scoring_policy as its settings file states it, and the QB602 losses the build
    reports for Canvas (a setting the package has no place for)."""
    tmp_path.mkdir()
    source = f"---\ntitle: Grading\nsettings:\n  grading_method: {method}\n---\n\n1. Is 7 a prime number? {{#seven}}\n\nAnswer: true\n"
    path = write(tmp_path, "grading.md", source)
    result = build(BuildOptions(sources=[path], out_dir=tmp_path / "out", formats=["canvas"], jobs=1))
    lost = [loss.message for r in result.results for loss in r.losses if loss.code == "QB602"]
    return Package(tmp_path / "out" / "grading.canvas.zip", "grading").setting("scoring_policy"), lost


def test_which_attempt_counts_reaches_canvas_in_its_words_and_first_is_a_named_loss(tmp_path: Path) -> None:
    # Canvas keeps the highest, the latest or the average of a student's attempts (scoring_policy:
    # keep_highest, keep_latest, keep_average); it has no "first attempt".
    assert _graded_by(tmp_path / "highest", "highest") == ("keep_highest", [])
    assert _graded_by(tmp_path / "last", "last") == ("keep_latest", [])
    assert _graded_by(tmp_path / "average", "average") == ("keep_average", [])
    policy, lost = _graded_by(tmp_path / "first", "first")
    assert policy is None  # Canvas's own default applies: a loss the author is told of
    assert len(lost) == 1 and "the quiz setting grading_method has no place" in lost[0], lost
