"""What a Canvas student sees and earns, for what the template mutation run of issue 35 found no
test looking at. Each item is read as Canvas reads it (lms-import facts, in docs/lms-behaviour.md's
words: question-level feedback matched by its ``itemfeedback`` ident, an answer's own comment
shown by the ``respcondition`` that tests that answer) and scored by the QTI 1.2 evaluator of
tests/helpers (not the writer's code); the expected values come from the numbers each item shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from helpers import ROOT, write, zip_members
from helpers.outputs import Outputs, build_all
from helpers.qti12_engine import score_item
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed
from qti_builder.pipeline import BuildIncomplete

CALCULATED_CHOICE = """---
title: Calculated choice feedback
---

1. What is {a} + {b}? {#sum type=calculated_choice sets=3 shuffle=false title="Sum of two"}

```variables
a = 2..9
b = 2..9
a != b
```

A) {=a + b:0}
   Feedback: Yes, that is the sum.
B) {=a * b:0}
   Feedback: That is the product.
C) {=a * b + 1:0}

Answer: A
Explanation: Add the two numbers.
Correct feedback: Well done.
Incorrect feedback: Add, do not multiply.
"""


def _text(element: etree._Element) -> str:
    """A ``mattext`` holds HTML as text: what students read is that HTML's text."""
    return " ".join(lxml.html.fromstring(f"<div>{''.join(element.itertext())}</div>").text_content().split())


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    folder = tmp_path_factory.mktemp("calculated-choice")
    return build_all(folder, write(folder, "sum.md", CALCULATED_CHOICE))


def _variants(outputs: Outputs) -> list[etree._Element]:
    section = next(s for s in outputs.canvas.iter("section") if s.get("ident") == f"{outputs.quiz.id}.sum")
    return list(section.iter("item"))


def _shown(item: etree._Element, label: str) -> tuple[float, list[str]]:
    """Choose the option whose text is ``label``: the score and the feedback texts shown."""
    (ident,) = [r.get("ident") for r in item.iter("response_label") if _text(r.find("material/mattext")) == label]
    outcome = score_item(item, {"response1": ident})
    texts = {f.get("ident"): _text(f) for f in item.iter("itemfeedback")}
    return outcome.score, [texts[i] for i in outcome.feedback]


def test_each_canvas_calculated_choice_variant_shows_the_chosen_option_s_comment_and_scores_it(outputs: Outputs) -> None:
    variants = _variants(outputs)
    assert len(variants) == 3
    for item in variants:
        a, b = map(int, re.fullmatch(r"What is (\d+) \+ (\d+)\?", _text(item.find("presentation/material/mattext"))).groups())
        score, shown = _shown(item, str(a + b))
        assert score == 100 and "Yes, that is the sum." in shown and "That is the product." not in shown
        score, shown = _shown(item, str(a * b))
        assert score == 0 and "That is the product." in shown and "Yes, that is the sum." not in shown
        score, shown = _shown(item, str(a * b + 1))
        assert score == 0 and "That is the product." not in shown and "Yes, that is the sum." not in shown


def test_each_canvas_calculated_choice_variant_carries_the_question_s_feedback_canvas_shows(outputs: Outputs) -> None:
    """Canvas takes the general, correct and incorrect feedback (neutral, correct and incorrect
    comments) by the itemfeedback's ident alone."""
    for item in _variants(outputs):
        feedback = {f.get("ident"): _text(f) for f in item.iter("itemfeedback")}
        assert feedback["general_fb"] == "Add the two numbers."
        assert feedback["correct_fb"] == "Well done."
        assert feedback["general_incorrect_fb"] == "Add, do not multiply."
        # Response feedback, as Canvas's exporter writes it: a QTI 1.2 reader files a Solution or
        # Hint elsewhere (test_canvas_writer's test of the other items).
        assert {shown.get("feedbacktype") for shown in item.iter("displayfeedback")} == {"Response"}


def test_a_canvas_calculated_choice_question_group_and_its_variants_bear_the_question_s_title(outputs: Outputs) -> None:
    """The group is what the teacher sees of the question in Canvas's quiz editor."""
    section = next(s for s in outputs.canvas.iter("section") if s.get("ident") == f"{outputs.quiz.id}.sum")
    assert section.get("title") == "Sum of two"
    assert {item.get("title") for item in _variants(outputs)} == {"Sum of two"}


TYPED = """---
title: Typed answers with comments
---

1. Who wrote *Hamlet*? {#hamlet type=short_answer}

Answer: Shakespeare
   Feedback: Right: the usual spelling.
Correct feedback: Well done.

2. What is 6 x 7? {#product type=numerical}

Answer: 42
   Feedback: Right: forty-two.
Correct feedback: Good arithmetic.
"""


@pytest.mark.parametrize(("question_id", "response", "comment"), [
    ("hamlet", "Shakespeare", "Right: the usual spelling."), ("product", "42", "Right: forty-two.")])
def test_a_canvas_typed_answer_s_comment_is_shown_as_response_feedback(tmp_path: Path, question_id: str, response: str,
                                                                       comment: str) -> None:
    """Every condition of a short answer or numerical item shows Response feedback, as Canvas's
    exporter writes it (a QTI 1.2 reader files a Solution or Hint elsewhere), and the matching
    answer's comment is among what it shows."""
    item = build_all(tmp_path, write(tmp_path, "typed.md", TYPED)).canvas_item(question_id)
    outcome = score_item(item, {"response1": response})
    texts = {f.get("ident"): _text(f) for f in item.iter("itemfeedback")}
    assert outcome.score == 100 and comment in [texts[i] for i in outcome.feedback]
    assert {shown.get("feedbacktype") for shown in item.iter("displayfeedback")} == {"Response"}


PICTURES = """---
title: Pictures everywhere
---

Look at the logo: ![The logo](media/logo.png)

1. What does the picture show? ![Three boxes](media/boxes.png) {#pic}

A) Boxes
B) Circles

Answer: A
"""


def _pictures(html: str) -> dict[str, str]:
    """alt -> src of each picture of an HTML text."""
    return {img.get("alt"): img.get("src") for img in lxml.html.fromstring(f"<div>{html}</div>").iter("img")}


def test_every_picture_of_the_canvas_quiz_page_and_its_questions_is_a_listed_file_of_the_package(tmp_path: Path) -> None:
    """Canvas imports a picture only if its file is listed in the manifest, and finds it by its
    path from the zip's root (Canvas import facts): the quiz's description and a question's text
    each show their picture from such a file."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "logo.png").write_bytes(picture)
    (tmp_path / "media" / "boxes.png").write_bytes(picture)
    source = write(tmp_path, "pictures.md", PICTURES)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], jobs=1))
    members = zip_members((tmp_path / "dist" / "pictures.canvas.zip").read_bytes())
    manifest = etree.fromstring(members["imsmanifest.xml"])
    listed = {f.get("href") for f in manifest.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}file")}
    description = etree.fromstring(members["pictures/assessment_meta.xml"]).findtext(
        "{http://canvas.instructure.com/xsd/cccv1p0}description")
    item = next(i for i in etree.fromstring(members["pictures/pictures.xml"]).iter("{*}item"))
    question = "".join(item.find("{*}presentation/{*}material/{*}mattext").itertext())
    for shown, alt in ((_pictures(description), "The logo"), (_pictures(question), "Three boxes")):
        assert list(shown) == [alt], shown
        assert shown[alt] in members and shown[alt] in listed, (shown[alt], sorted(members))
        assert members[shown[alt]] == picture


def test_a_canvas_frame_without_question_markers_is_refused_naming_the_template_to_fix(tmp_path: Path) -> None:
    """A --templates copy of the assessment that drops the marker lines would lose every question:
    the error names that template and how many questions it must place."""
    templates = tmp_path / "templates" / "canvas"
    templates.mkdir(parents=True)
    frame = (ROOT / "templates" / "canvas" / "assessment.xml.j2").read_text(encoding="utf-8")
    assert "<!-- question: {{ number_of[entry.id] }} -->" in frame
    (templates / "assessment.xml.j2").write_text(frame.replace("<!-- question: {{ number_of[entry.id] }} -->", ""),
                                                 encoding="utf-8")
    source = write(tmp_path, "typed.md", TYPED)
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], templates=tmp_path / "templates"))
    rendered = [d.render() for d in failed.value.diagnostics]
    assert len(rendered) == 1 and "error[QB305]: canvas/assessment.xml.j2 must write the line '<!-- question: N -->'" in rendered[0]
    assert "N = 1 to 2" in rendered[0] and not (tmp_path / "dist").exists()


TEXT_ONLY_WITH_POINTS = """id: t
title: T
sections:
  - id: s
    title: S
    questions:
      - {id: note, type: text_only, stem: Read this first., points: 3}
      - {id: yes, type: true_false, stem: Is water wet?, answer: true, points: 2}
"""


def test_a_text_only_item_scores_nothing_and_points_given_to_one_are_an_error(tmp_path: Path) -> None:
    """A text-only item scores nothing (docs/question-types.md: text only, 0 points). Points given
    to one were once dropped without a word while the quiz's total counted them: now they are an
    error at the item's points, and nothing is written. Without them Canvas gets 0 points for the
    item and a quiz total of the scored question alone."""
    source = write(tmp_path, "t.yaml", TEXT_ONLY_WITH_POINTS)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], jobs=1))
    (error,) = [d.render() for d in failed.value.diagnostics if d.severity == "error"]
    assert error.startswith(f"{source}:7:") and "error[QB201]: a text-only item scores nothing, so it cannot be worth 3 points" in error
    assert not (tmp_path / "dist").exists()
    source.write_text(TEXT_ONLY_WITH_POINTS.replace(", points: 3}", "}"), encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], jobs=1))
    members = zip_members((tmp_path / "dist" / "t.canvas.zip").read_bytes())
    points = {item.get("ident"): {f.findtext("{*}fieldlabel"): f.findtext("{*}fieldentry") for f in item.iter("{*}qtimetadatafield")}
              ["points_possible"] for item in etree.fromstring(members["t/t.xml"]).iter("{*}item")}
    assert points == {"t.note": "0", "t.yes": "2"}
    meta = etree.fromstring(members["t/assessment_meta.xml"])
    assert meta.findtext("{http://canvas.instructure.com/xsd/cccv1p0}points_possible") == "2"
