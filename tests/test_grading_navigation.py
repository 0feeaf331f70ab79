"""The quiz settings grading_method (which attempt counts) and lock_questions_after_answering
(sequential navigation) in every output: written where the target has a place for them, reported
as lost (QB602) where it has none, nothing written when unset, and read back by the importers.

Where each target keeps them, worked out by hand from the LMSs' own code: Canvas's
``assessment_meta.xml`` ``scoring_policy`` (keep_highest, keep_average, keep_latest: no policy
keeps the first attempt) and ``cant_go_back`` (a choice of "one question at a time"); Moodle's
quiz ``grademethod`` (1 highest, 2 average, 3 first, 4 last) and ``navmethod`` (free, sequential);
QTI 2.1's test part ``navigationMode`` linear (and no place for a grading method).
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import jsonschema
import pytest
from helpers import NS, ROOT, write, zip_members
from helpers.cli import run
from helpers.schemas import official_schemas
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.model import Quiz
from qti_builder.report import schema_path

CANVAS = "{http://canvas.instructure.com/xsd/cccv1p0}"


def source(tmp_path: Path, settings: str) -> Path:
    return write(tmp_path, "g.yaml", f"""id: g
title: Grading
settings: {{{settings}}}
sections:
  - id: a
    title: A
    questions:
      - {{type: true_false, id: t1, stem: One., answer: true}}
      - {{type: true_false, id: t2, stem: Two., answer: false}}
""")


def built(tmp_path: Path, settings: str, formats: list[str]) -> Path:
    out = tmp_path / "dist"
    build(BuildOptions(sources=[source(tmp_path, settings)], out_dir=out, formats=formats, jobs=1))
    return out


def canvas_meta(out: Path) -> dict[str, str]:
    members = zip_members((out / "g.canvas.zip").read_bytes())
    meta = etree.fromstring(members["g/assessment_meta.xml"])
    # Canvas's settings file, checked by the project's schema of it.
    etree.XMLSchema(etree.parse(str(ROOT / "schemas/canvas-quiz-meta.xsd"))).assertValid(meta)
    return {child.tag.removeprefix(CANVAS): child.text or "" for child in meta}


def not_carried(tmp_path: Path, settings: str) -> dict[str, list[str]]:
    """Each output's settings_not_carried in the JSON report (checked by the report's schema)."""
    code, out, err = run("check", str(source(tmp_path, settings)), "--format", "qti21,moodle,canvas,moodle-quiz",
                         "--report", "json")
    assert code == 0, err
    report = json.loads(out)
    jsonschema.validate(report, json.loads(schema_path().read_text(encoding="utf-8")))
    (quiz,) = report["quizzes"]
    return {o["format"]: o["settings_not_carried"] for o in quiz["outputs"]}


def imported(path: Path) -> Quiz:
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert not sink.errors, [d.render() for d in sink.errors]
    return quizzes[0].quiz


# -- Canvas ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "policy"), [("highest", "keep_highest"), ("average", "keep_average"),
                                                ("last", "keep_latest"), ("first", None)])
def test_canvas_scoring_policy(tmp_path: Path, method: str, policy: str | None) -> None:
    meta = canvas_meta(built(tmp_path, f"grading_method: {method}", ["canvas"]))
    assert meta.get("scoring_policy") == policy
    assert "cant_go_back" not in meta
    lost = not_carried(tmp_path, f"grading_method: {method}")
    assert lost["canvas"] == ([] if policy else ["grading_method"])  # Canvas keeps no first attempt


def test_canvas_lock_shows_one_question_at_a_time(tmp_path: Path) -> None:
    """cant_go_back is a choice of one_question_at_a_time in Canvas: a lock alone turns it on."""
    meta = canvas_meta(built(tmp_path, "lock_questions_after_answering: true", ["canvas"]))
    assert (meta["cant_go_back"], meta["one_question_at_a_time"]) == ("true", "true")
    assert not_carried(tmp_path, "lock_questions_after_answering: true")["canvas"] == []


def test_canvas_lock_false_is_written(tmp_path: Path) -> None:
    meta = canvas_meta(built(tmp_path, "lock_questions_after_answering: false", ["canvas"]))
    assert meta["cant_go_back"] == "false" and "one_question_at_a_time" not in meta


def test_canvas_cannot_lock_a_page_of_several_questions(tmp_path: Path) -> None:
    settings = "lock_questions_after_answering: true, one_question_at_a_time: false"
    meta = canvas_meta(built(tmp_path, settings, ["canvas"]))
    assert meta["one_question_at_a_time"] == "false" and "cant_go_back" not in meta
    assert not_carried(tmp_path, settings)["canvas"] == ["lock_questions_after_answering"]


def test_unset_writes_nothing_anywhere(tmp_path: Path) -> None:
    out = built(tmp_path, "", ["canvas", "qti21", "moodle-quiz"])
    meta = canvas_meta(out)
    assert "scoring_policy" not in meta and "cant_go_back" not in meta and "one_question_at_a_time" not in meta
    part = etree.fromstring(zip_members((out / "g.qti21.zip").read_bytes())["assessmentTest.xml"]).find("q:testPart", NS)
    assert (part.get("navigationMode"), part.get("submissionMode")) == ("nonlinear", "simultaneous")
    quiz = _quiz_xml(out / "g.mbz")
    assert (quiz.findtext("quiz/grademethod"), quiz.findtext("quiz/navmethod")) == ("1", "free")  # Moodle's defaults
    assert not_carried(tmp_path, "") == {"qti21": [], "moodle": [], "canvas": [], "moodle-quiz": []}


@pytest.mark.parametrize("settings", ["grading_method: average, lock_questions_after_answering: true",
                                      "grading_method: last, lock_questions_after_answering: false",
                                      "grading_method: highest, one_question_at_a_time: true"])
def test_canvas_round_trip(tmp_path: Path, settings: str) -> None:
    quiz = imported(built(tmp_path, settings, ["canvas"]) / "g.canvas.zip")
    given = quiz.settings.given()
    expected = dict(item.split(": ") for item in settings.split(", "))
    for name, value in expected.items():
        assert str(given[name]).lower() == value, name
    if expected.get("lock_questions_after_answering") == "true":
        assert given["one_question_at_a_time"] is True


# -- QTI 2.1 and Moodle XML -----------------------------------------------------------------------


def test_qti21_lock_is_a_linear_test_part(tmp_path: Path) -> None:
    out = built(tmp_path, "lock_questions_after_answering: true, grading_method: last", ["qti21"])
    test = etree.fromstring(zip_members((out / "g.qti21.zip").read_bytes())["assessmentTest.xml"])
    qti, _ = official_schemas()
    assert list(qti.iter_errors(test)) == []
    part = test.find("q:testPart", NS)
    assert (part.get("navigationMode"), part.get("submissionMode")) == ("linear", "individual")
    lost = not_carried(tmp_path, "lock_questions_after_answering: true, grading_method: last")
    assert lost["qti21"] == ["grading_method"]  # QTI 2.1 has no place for which attempt counts
    assert lost["moodle"] == ["lock_questions_after_answering", "grading_method"]  # a bank holds no quiz settings
    assert lost["moodle-quiz"] == [] and lost["canvas"] == []
    assert imported(out / "g.qti21.zip").settings.lock_questions_after_answering is True


def test_the_loss_is_said_at_the_setting(tmp_path: Path) -> None:
    path = source(tmp_path, "grading_method: first")
    code, out, err = run("build", str(path), "--out", str(tmp_path / "dist"), "--format", "qti21,canvas", "--verbose")
    assert code == 0, err
    said = [line for line in (out + err).splitlines() if "QB602" in line]
    assert len(said) == 2 and all(f"{path}:3:" in line and "grading_method" in line for line in said), said


# -- the Moodle quiz backup ------------------------------------------------------------------------


def _members(mbz: Path) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(mbz.read_bytes()), mode="r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]


def _quiz_xml(mbz: Path) -> etree._Element:
    return etree.fromstring(_members(mbz)["activities/quiz_1/quiz.xml"])


@pytest.mark.parametrize(("settings", "grademethod", "navmethod"), [
    ("grading_method: first, lock_questions_after_answering: true", "3", "sequential"),
    ("grading_method: average", "2", "free"),
    ("grading_method: highest, lock_questions_after_answering: false", "1", "free"),
])
def test_mbz_round_trip(tmp_path: Path, settings: str, grademethod: str, navmethod: str) -> None:
    mbz = built(tmp_path, settings, ["moodle-quiz"]) / "g.mbz"
    quiz = _quiz_xml(mbz)
    assert (quiz.findtext("quiz/grademethod"), quiz.findtext("quiz/navmethod")) == (grademethod, navmethod)
    given = imported(mbz).settings.given()
    # Moodle writes a value for each; its defaults (highest, free) come back unset.
    expected = {"grading_method": {"1": None, "2": "average", "3": "first", "4": "last"}[grademethod],
                "lock_questions_after_answering": True if navmethod == "sequential" else None}
    assert {name: given.get(name) for name in expected} == expected


# -- the Markdown front matter ------------------------------------------------------------------------


def test_markdown_front_matter_takes_them_and_says_what_a_wrong_value_should_be(tmp_path: Path) -> None:
    good = write(tmp_path, "m.md", "---\ntitle: M\nsettings:\n  grading_method: Average\n  lock_questions_after_answering: true\n"
                 "---\n\n1. Is 7 prime? {#seven}\n\nAnswer: true\n")
    code, out, err = run("check", str(good), "--report", "json")
    assert code == 0, err
    assert json.loads(out)["quizzes"][0]["settings"] == {"grading_method": "average", "lock_questions_after_answering": True}
    bad = write(tmp_path, "bad.md", "---\ntitle: M\nsettings:\n  grading_method: best\n  lock_questions_after_answering: maybe\n"
                "---\n\n1. Is 7 prime? {#seven}\n\nAnswer: true\n")
    code, out, err = run("check", str(bad))
    assert code != 0
    assert f"{bad}:4:19: error[QB201]: grading_method is 'highest', 'average', 'first' or 'last', not 'best'" in err
    assert f"{bad}:5:35: error[QB201]: lock_questions_after_answering is true or false, not 'maybe'" in err
