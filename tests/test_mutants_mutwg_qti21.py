"""What a QTI 2.1 player, Canvas and the author see, for survivors of writers/qti21.py (issue 35,
sixth session).

Each test builds a small quiz written here (YAML, so what the author meant is read off the text
below, not from the project's readers), reads the package with lxml as a player or Canvas reads
it, and grades responses with pyslet (helpers.qti21_engine), which shares nothing with the writer.
The expected values are worked out by hand from the source text.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest
from lxml import etree

from helpers import NS, ROOT, zip_members
from helpers.qti21_engine import score_item
from qti_builder import BuildOptions, build
from qti_builder.pipeline import BuildFailed

Q = NS["q"]
CP = "http://www.imsglobal.org/xsd/imscp_v1p1"


def _package(tmp_path: Path, source: str, quiz_id: str = "mutwg", **options: object) -> dict[str, bytes]:
    """The QTI 2.1 package of a YAML quiz, as its zip's members."""
    path = tmp_path / f"{quiz_id}.yaml"
    path.write_text(source, encoding="utf-8")
    result = build(BuildOptions(sources=[path], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1, **options))
    assert not [d for d in result.diagnostics if d.severity.value == "error"], [d.render() for d in result.diagnostics]
    return zip_members((tmp_path / "dist" / f"{quiz_id}.qti21.zip").read_bytes())


def _shown_feedback(item: etree._Element, outcomes: dict[str, object]) -> list[str]:
    """The modal feedbacks a player shows after response processing: showHide="show" ones whose
    identifier is in the outcome they name."""
    shown = []
    for feedback in item.iter(f"{{{Q}}}modalFeedback"):
        value = outcomes.get(feedback.get("outcomeIdentifier"))
        values = value if isinstance(value, (set, list, tuple, frozenset)) else {value}
        if feedback.get("showHide") == "show" and feedback.get("identifier") in values:
            shown.append("".join(feedback.itertext()).strip())
    return shown


# -- a question worth 0 points whose blanks state their 0 points ---------------------------------

ZERO_BLANKS = """\
id: mutwg
title: Practice blanks
language: en
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: planets
        stem: "The first planet is [[a]] and the second is [[b]]."
        feedback: {correct: All right., partially_correct: Some right., incorrect: None right.}
        blanks:
          - {id: a, kind: text, answers: [Mercury], points: 0}
          - {id: b, kind: text, answers: [Venus], points: 0}
"""


def test_a_practice_blank_question_whose_blanks_state_0_points_tells_right_from_wrong(tmp_path: Path) -> None:
    """The author gave each blank 0 points: the question is worth 0 (their sum) and is practice,
    but its answers are still right or wrong. Both blanks right: "All right."; one: "Some right.";
    none: "None right."; never a point earned, and the item keeps its 0 points."""
    package = _package(tmp_path, ZERO_BLANKS)
    raw = package["items/planets.xml"]
    item = etree.fromstring(raw)
    a, b = (i.get("responseIdentifier") for i in item.iter(f"{{{Q}}}textEntryInteraction"))
    maximum = item.find(f"{{{Q}}}outcomeDeclaration[@identifier='MAXSCORE']/{{{Q}}}defaultValue/{{{Q}}}value")
    assert maximum is not None and float(maximum.text or "") == 0
    said = {}
    for how, response in {"all": {a: "Mercury", b: "Venus"}, "some": {a: "Mercury", b: "Mars"},
                          "none": {a: "Mars", b: "Earth"}}.items():
        graded = score_item(raw, response)
        said[how] = (_shown_feedback(item, graded), graded["SCORE"])
    assert said == {"all": (["All right."], 0.0), "some": (["Some right."], 0.0), "none": (["None right."], 0.0)}


# -- partial credit on a question worth a fraction of a point ------------------------------------

HALF_POINT = """\
id: mutwg
title: Half a point
language: en
sections:
  - id: s
    title: S
    questions:
      - type: multiple_response
        id: primes
        stem: Which are prime?
        points: 0.5
        scoring: partial
        feedback: {correct: All right., partially_correct: Some right., incorrect: None right.}
        choices:
          - {id: A, text: "2", correct: true}
          - {id: B, text: "3", correct: true}
          - {id: C, text: "4"}
"""


def test_half_the_right_options_of_a_half_point_question_earn_a_quarter_point(tmp_path: Path) -> None:
    """Partial credit shares out the question's own half point: both primes ticked earn 0.5 and
    "All right.", one of the two earns 0.25 and "Some right.", the wrong option alone nothing."""
    package = _package(tmp_path, HALF_POINT)
    raw = package["items/primes.xml"]
    item = etree.fromstring(raw)
    said = {}
    for how, response in {"all": ["A", "B"], "half": ["A"], "none": ["C"]}.items():
        graded = score_item(raw, response)
        said[how] = (graded["SCORE"], _shown_feedback(item, graded))
    assert said == {"all": (0.5, ["All right."]), "half": (0.25, ["Some right."]), "none": (0.0, ["None right."])}


# -- an untitled fill-in-the-blank question's title ------------------------------------------------

UNTITLED_BLANK = """\
id: mutwg
title: Untitled
language: en
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: star
        stem: "Our star is the [[b]]."
        blanks:
          - {id: b, kind: text, answers: [Sun]}
"""


def test_an_untitled_blank_question_is_named_by_its_text_with_an_ellipsis_for_the_blank(tmp_path: Path) -> None:
    """A question without a title is named by its text, which Canvas and players list it by; the
    blank reads as an ellipsis there, never its marker nor anything else."""
    package = _package(tmp_path, UNTITLED_BLANK)
    item = etree.fromstring(package["items/star.xml"])
    manifest = etree.fromstring(package["imsmanifest.xml"])
    titles = [s.text for s in manifest.iter("{http://ltsc.ieee.org/xsd/LOM}string")]
    assert item.get("title") == "Our star is the \u2026."
    assert "Our star is the \u2026." in titles


# -- which resource of the manifest lists which picture ------------------------------------------

PICTURES = """\
id: mutwg
title: Pictures
language: en
sections:
  - id: part
    title: Part one
    description: "Study the chart first: ![A bar chart](media/chart.png)"
    questions:
      - type: true_false
        id: boxes
        stem: "Are these boxes? ![Three boxes](media/boxes.png)"
        answer: true
    sections:
      - id: inner
        title: Inner part
        questions:
          - type: true_false
            id: circles
            stem: "Are these circles? ![Two circles](media/circles.png)"
            answer: true
"""


def test_each_picture_is_listed_in_the_manifest_resource_of_the_document_that_shows_it(tmp_path: Path) -> None:
    """A content package's resource lists the files its document uses: the section's chart is
    shown by the assessment test (its rubric), each question's picture by its own item. The
    test's resource lists the chart only; each item's resource its own picture only."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    for name in ("chart.png", "boxes.png", "circles.png"):
        (tmp_path / "media" / name).write_bytes(picture)
    package = _package(tmp_path, PICTURES)
    manifest = etree.fromstring(package["imsmanifest.xml"])
    listed = {r.get("href"): {f.get("href") for f in r.iter(f"{{{CP}}}file")} - {r.get("href")}
              for r in manifest.iter(f"{{{CP}}}resource")}
    shown = {}
    for path in ("assessmentTest.xml", "items/boxes.xml", "items/circles.xml"):
        folder = posixpath.dirname(path)
        shown[path] = {posixpath.normpath(posixpath.join(folder, img.get("src")))
                       for img in etree.fromstring(package[path]).iter(f"{{{Q}}}img")}
    assert {path: sorted(i.get("alt") for i in etree.fromstring(package[path]).iter(f"{{{Q}}}img"))
            for path in shown} == {"assessmentTest.xml": ["A bar chart"], "items/boxes.xml": ["Three boxes"],
                                   "items/circles.xml": ["Two circles"]}
    assert listed == shown
    assert all(package.get(f) == picture for files in shown.values() for f in files)


# -- a --templates copy of the test or the manifest that the schemas refuse -----------------------

@pytest.mark.parametrize(("template", "after"), [("qti21/assessment_test.xml.j2", "<testPart "),
                                                 ("qti21/imsmanifest.xml.j2", "<resources>")])
def test_a_test_or_manifest_template_writing_what_the_schema_refuses_is_an_error_not_a_package(
        tmp_path: Path, template: str, after: str) -> None:
    """A --templates copy of the assessment test or the manifest that writes an element the
    QTI 2.1 / content-package schemas do not allow there: the package is validated before it is
    written, so the author gets a schema error (QB401) naming that file, and no package."""
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    text = (ROOT / "templates" / template).read_text(encoding="utf-8")
    assert text.count(after) == 1
    overlay.write_text(text.replace(after, "<notAnElement/>\n" + after), encoding="utf-8")
    source = tmp_path / "mutwg.yaml"
    source.write_text(UNTITLED_BLANK, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1,
                           templates=tmp_path / "templates"))
    errors = [d for d in failed.value.diagnostics if d.severity.value == "error"]
    assert errors and all(d.code == "QB401" for d in errors), [d.render() for d in errors]
    named = "assessmentTest.xml" if "assessment_test" in template else "imsmanifest.xml"
    assert any(named in d.render() for d in errors), [d.render() for d in errors]
    assert not (tmp_path / "dist").exists()


def test_a_manifest_template_that_fails_to_render_is_a_located_template_error(tmp_path: Path) -> None:
    """A --templates copy of the manifest whose Jinja fails when it renders (an unknown filter):
    the author reads QB304 naming the template, and no package is written, never a traceback (the
    manifest rendered without the build's sink put its error nowhere)."""
    overlay = tmp_path / "templates" / "qti21" / "imsmanifest.xml.j2"
    overlay.parent.mkdir(parents=True)
    text = (ROOT / "templates" / "qti21" / "imsmanifest.xml.j2").read_text(encoding="utf-8")
    overlay.write_text(text.replace("<resources>", "{{ quiz.id | missing_filter_of_nobody }}<resources>", 1),
                       encoding="utf-8")
    source = tmp_path / "mutwg.yaml"
    source.write_text(UNTITLED_BLANK, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1,
                           templates=tmp_path / "templates"))
    errors = [d for d in failed.value.diagnostics if d.severity.value == "error"]
    assert errors and {d.code for d in errors} <= {"QB302", "QB304"}, [d.render() for d in errors]
    assert any("missing_filter_of_nobody" in d.render() for d in errors), [d.render() for d in errors]
    assert not (tmp_path / "dist").exists()


@pytest.mark.parametrize("template", ["qti21/manifest_resource.xml.j2", "qti21/item_fill_in_blank.xml.j2"])
def test_a_question_s_template_that_includes_a_missing_one_is_an_error_at_the_question(tmp_path: Path,
                                                                                      template: str) -> None:
    """A --templates copy of a question's own template (its manifest resources, its item) that
    includes a template the folder lacks: QB303 at the question's place in the source (the
    render was given the question's place), and no package; never a traceback."""
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    text = (ROOT / "templates" / template).read_text(encoding="utf-8")
    overlay.write_text(text + '{% include "qti21/no_such_part.xml.j2" %}\n', encoding="utf-8")
    source = tmp_path / "mutwg.yaml"
    source.write_text(UNTITLED_BLANK, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1,
                           templates=tmp_path / "templates"))
    errors = [d for d in failed.value.diagnostics if d.severity.value == "error"]
    question_line = UNTITLED_BLANK.splitlines().index("      - type: fill_in_blank") + 1
    assert [(d.code, d.span.line if d.span else None, d.span.path.endswith("mutwg.yaml") if d.span else None)
            for d in errors] == [("QB303", question_line, True)], [d.render() for d in errors]
    assert not (tmp_path / "dist").exists()


# -- a fixed variant named like another question -------------------------------------------------

CLASHING_VARIANT = """\
---
title: Variants
settings:
  qti_variants: 2
---
1. A car covers {d} km in {t} h. Its speed in km/h? {#speed type=calculated}

```variables
d = 20..200 step 5
t = 1..4
```

Answer: d / t ± 1%

2. A faster car? {#speed.v2}

A) yes
B) no

Answer: A
"""


def test_a_variant_named_like_another_question_is_one_error_at_the_question_and_no_package(tmp_path: Path) -> None:
    """With two fixed variants, question 'speed' would have an item named 'speed.v2', which is the
    second question's id: the author is told that once, at the calculated question's line (6), and
    nothing else: no schema error about the package (which would say qti-builder has a bug), and
    no package."""
    source = tmp_path / "variants.md"
    source.write_text(CLASHING_VARIANT, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    told = [(d.severity.value, d.code, d.span.line if d.span else None) for d in failed.value.diagnostics]
    assert told == [("error", "QB306", 6)], [d.render() for d in failed.value.diagnostics]
    assert not (tmp_path / "dist").exists()


# -- feedback for what a kind's scoring can tell ---------------------------------------------------

GRADED_BY_A_PERSON = """\
id: mutwg
title: Feedback by kind
language: en
sections:
  - id: s
    title: S
    questions:
      - type: essay
        id: essay
        stem: Describe the water cycle.
        feedback: {general: Thanks for writing., correct: Well done., incorrect: Try again.}
      - type: single_choice
        id: pick
        stem: Which is a vowel?
        feedback: {correct: Yes., partially_correct: Partly., incorrect: No.}
        choices:
          - {id: A, text: a, correct: true}
          - {id: B, text: b}
"""


def _canvas_comments(item: etree._Element) -> dict[str, list[str]]:
    """The modal feedbacks as Canvas's QTI 2.x importer files them, by identifier: general_|_all
    general comments, incorrect|wrong|_IC$ incorrect ones (tested first: it contains "correct"),
    correct|_C$ correct ones; the others it drops."""
    comments: dict[str, list[str]] = {}
    for feedback in item.iter(f"{{{Q}}}modalFeedback"):
        ident = feedback.get("identifier") or ""
        kind = ("general" if re.search("general_|_all", ident) else "incorrect" if re.search("incorrect|wrong|_IC$", ident)
                else "correct" if re.search("correct|_C$", ident) else "dropped")
        comments.setdefault(kind, []).append("".join(feedback.itertext()).strip())
    return comments


def test_an_essay_carries_only_its_general_feedback_and_all_or_nothing_no_partial_one(tmp_path: Path) -> None:
    """An essay is graded by a person: nothing in the item can tell a right from a wrong essay,
    so Canvas gets its general comment only (a "correct" or "incorrect" comment would be imported
    onto the essay). A single choice is right or wrong: its feedback for a partly right answer,
    which no response can be, is not written at all."""
    package = _package(tmp_path, GRADED_BY_A_PERSON)
    assert _canvas_comments(etree.fromstring(package["items/essay.xml"])) == {"general": ["Thanks for writing."]}
    pick = etree.fromstring(package["items/pick.xml"])
    assert _canvas_comments(pick) == {"correct": ["Yes."], "incorrect": ["No."]}
    assert "Partly." not in package["items/pick.xml"].decode("utf-8")
