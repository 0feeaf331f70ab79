"""What each output loses, said at every build: a line per output, each loss with --verbose, per
output in the JSON report, failures under --strict, accepted with --ignore or a question's
ignore=; and the CI forms of the same (workflow annotations, JUnit XML)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers import ROOT, write
from helpers.cli import run
from junitparser import Failure, JUnitXml

from qti_builder.report import schema_path

SCHEMA = json.loads(schema_path().read_text(encoding="utf-8"))

LOSSY = """---
id: lossy
title: Lossy
settings:
  time_limit: 30
---

# Pool {#pool select=1}

1. Name a prime below 4. {#prime type=short_answer}

Answer: 2
Answer (50%): 1

2. Name an even number below 3. {#even type=short_answer}

Answer: 2

# Steps {#steps}

1. Put the steps in order. {#order type=ordering}

- Write the file
- Run it
"""


def lossy(tmp_path: Path, text: str = LOSSY) -> Path:
    return write(tmp_path, "lossy.md", text)


def test_build_says_per_output_what_it_loses(tmp_path: Path) -> None:
    code, out, err = run("build", str(lossy(tmp_path)), "--out", "d", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "lossy: 3 questions: 2 short answer, 1 ordering",
        # QTI 2.1 keeps the time limit and the draw.
        "wrote d/lossy.qti21.zip",
        "wrote d/lossy.moodle.xml: Moodle loses the random draw of section 'pool', and the quiz setting time_limit "
        "(set it in the LMS)",
        "wrote d/lossy.canvas.zip: Canvas loses 2 things in 2 questions (--verbose lists them)",
        # The Moodle quiz backup is the quiz: its time limit and its draw are there.
        "wrote d/lossy.mbz",
    ]


def test_verbose_lists_each_loss_with_its_place(tmp_path: Path) -> None:
    code, out, _ = run("build", str(lossy(tmp_path)), "--out", "d", "--verbose", cwd=tmp_path)
    assert code == 0
    lines = out.splitlines()
    canvas = lines.index("wrote d/lossy.canvas.zip: Canvas loses 2 things in 2 questions")
    assert lines[canvas + 1:] == [
        "  lossy.md:10:1: QB601: Canvas: answers worth less than 100 % are left out (with their feedback): Canvas gives "
        "every answer full credit (question 'prime')",
        "  lossy.md:21:1: QB601: Canvas: Canvas Classic has no ordering type: it becomes one drop-down per position, each "
        "listing every item, with credit per position instead of all or nothing (question 'order')",
        "wrote d/lossy.mbz",
    ]
    moodle = lines.index("wrote d/lossy.moodle.xml: Moodle loses the random draw of section 'pool', and the quiz setting "
                         "time_limit (set it in the LMS)")
    assert lines[moodle + 1].startswith("  lossy.md:5:15: QB602: Moodle: the quiz setting time_limit has no place")
    assert lines[moodle + 2].startswith("  lossy.md:8:15: QB603: Moodle: the section 'pool' draws 1 at random, and Moodle XML cannot")


def test_strict_counts_losses_and_writes_nothing(tmp_path: Path) -> None:
    code, out, err = run("build", str(lossy(tmp_path)), "--out", "d", "--strict", cwd=tmp_path)
    assert code == 1 and not any((tmp_path / "d").glob("*"))
    assert "lossy.md:5:15: error[QB602]: Moodle: the quiz setting time_limit has no place in this file" in err
    assert "lossy.md:8:15: error[QB603]: Moodle: the section 'pool' draws 1 at random" in err
    assert err.count("error[QB601]") == 2
    assert "(a loss of the output, failing because of --strict)" in err
    assert err.rstrip().endswith("failed: 4 errors; nothing was written")


def test_ignore_accepts_codes_everywhere_and_ignore_attributes_per_question(tmp_path: Path) -> None:
    source = lossy(tmp_path, LOSSY.replace("{#order type=ordering}", "{#order type=ordering ignore=QB601}"))
    code, out, err = run("build", str(source), "--out", "d", "--strict", "--ignore", "QB602,qb603", cwd=tmp_path)
    # What is left: the short answer's partial credit in Canvas, which nothing accepted.
    assert code == 1
    assert err.count("error[QB601]") == 1 and "(question 'prime')" in err and "'order'" not in err
    source = lossy(tmp_path, LOSSY.replace("{#order type=ordering}", "{#order type=ordering ignore=QB601}")
                   .replace("{#prime type=short_answer}", "{#prime type=short_answer ignore=QB601}"))
    code, out, err = run("build", str(source), "--out", "d", "--strict", "--ignore", "QB602", "--ignore", "QB603",
                         cwd=tmp_path)
    assert (code, err) == (0, "")
    # Accepted, still said: each file that loses something says so, and that all of it was accepted.
    said = [line for line in out.splitlines() if "loses" in line]
    assert len(said) == 2 and all(line.endswith(("(all accepted)", "(all accepted; --verbose lists them)")) for line in said), said
    report = json.loads(run("check", str(source), "--ignore", "QB602,QB603", "--report", "json", cwd=tmp_path)[1])
    assert report["quizzes"][0]["ignored"] == 4 and report["summary"]["losses"] == 0
    accepted = [loss["question"] for o in report["quizzes"][0]["outputs"] for loss in o["accepted_losses"]]
    assert sorted(q for q in accepted if q) == ["order", "prime"] and len(accepted) == 4


def test_a_questions_ignore_accepts_its_own_warnings_only(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n\n1. Which keyword defines a function? {#a ignore=QB124}\n\nA) func\nB) def\n\n"
            "Answer: B) define\n\n2. And which one a class? {#b}\n\nA) class\nB) struct\n\nAnswer: A) klass\n")
    code, _, err = run("check", str(write(tmp_path, "w.md", text)), "--strict", cwd=tmp_path)
    assert code == 1
    assert "w.md:10:" not in err and "w.md:17:9: error[QB124]" in err


def test_ignore_in_yaml(tmp_path: Path) -> None:
    text = ("title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: ordering\n        id: o\n"
            "        stem: Order them.\n        items: [a, b]\n        ignore: [QB601]\n")
    code, out, err = run("build", str(write(tmp_path, "y.yaml", text)), "--out", "d", "--strict", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert "Canvas loses 1 thing in 1 question (all accepted; --verbose lists them)" in out


@pytest.mark.parametrize(("value", "message"), [
    ("QB999", "unknown code QB999"),
    ("QB6011", "unknown code QB6011; did you mean QB601?"),
    ("QB120", "QB120 is an error, and errors cannot be ignored"),
])
def test_ignore_takes_the_codes_of_warnings_only(tmp_path: Path, value: str, message: str) -> None:
    for command in ("build", "check", "preview", "import"):
        code, out, err = run(command, "nothing.md" if command != "import" else str(ROOT / "tests/fixtures/import/text2qti-quiz.txt"),
                             "--ignore", value, cwd=tmp_path)
        if command != "import":
            write(tmp_path, "nothing.md", "---\ntitle: T\n---\n\n1. Why? {#w type=essay}\n")
            code, out, err = run(command, "nothing.md", "--ignore", value, cwd=tmp_path)
        assert code == 2 and message in err, (command, err)


def test_an_ignore_attribute_must_name_a_warning(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n\n1. Why? {#w type=essay ignore=QB120,QB601}\n"
    code, _, err = run("check", str(write(tmp_path, "w.md", text)), cwd=tmp_path)
    assert code == 1
    assert "w.md:5:24: error[QB206]: ignore=QB120 on question 'w' is an error, and errors cannot be ignored" in err


def test_the_json_report_carries_each_outputs_losses(tmp_path: Path) -> None:
    code, out, _ = run("check", str(lossy(tmp_path)), "--report", "json", cwd=tmp_path)
    assert code == 0
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    [quiz] = report["quizzes"]
    losses = {o["format"]: o["losses"] for o in quiz["outputs"]}
    assert losses["qti21"] == []
    assert [(loss["code"], loss["question"], loss["location"]["line"]) for loss in losses["moodle"]] == [
        ("QB602", None, 5), ("QB603", None, 8)]
    assert [(loss["code"], loss["question"]) for loss in losses["canvas"]] == [("QB601", "prime"), ("QB601", "order")]
    assert report["summary"]["losses"] == 4
    # The pool draws one of two one-point questions, and the ordering question is worth one more.
    assert quiz["points"] == {"min": 2.0, "max": 2.0}


def test_github_annotations_point_at_each_line(tmp_path: Path) -> None:
    text = LOSSY.replace("Answer: 2\n\n# Steps", "Answer: 2\n\n3. Which one? {#broken}\n\nA) this\nB) that\n\n# Steps")
    code, out, err = run("check", str(write(tmp_path, "ok.md", LOSSY)), str(write(tmp_path, "bad.md", text.replace("id: lossy", "id: bad"))),
                         "--report", "github", cwd=tmp_path)
    assert code == 1
    lines = out.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines), lines
    assert any(line.startswith("::error file=bad.md,line=19,col=1,title=qti-builder QB120::") for line in lines)
    assert "QB602::Moodle%3A" not in out  # only properties escape ':'
    assert any(line.startswith("::notice file=ok.md,line=5,col=15,title=qti-builder QB602::Moodle: the quiz setting") for line in lines)
    assert "less than 100 %25 are left out" in out  # '%' escaped
    # A message's new lines (its hint) are escaped, so one annotation stays on one line.
    assert any("%0Ahint: " in line for line in lines if line.startswith("::error"))
    assert "failed: 1 error in 1 of 2 quizzes" in err  # the plain summary goes to stderr


def test_junit_report_is_valid_junit(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.md", "---\ntitle: Bad\n---\n\n1. Which one? {#q}\n\nA) this\nB) that\n")
    report = tmp_path / "junit.xml"
    code, out, _ = run("check", str(lossy(tmp_path)), str(bad), "--report", "junit", "--report-file", str(report), cwd=tmp_path)
    assert code == 1
    xml = JUnitXml.fromfile(str(report))  # an independent reader of JUnit XML
    [suite] = list(xml)
    assert (suite.name, suite.tests, suite.failures, suite.errors) == ("qti-builder check", 2, 1, 0)
    cases = {case.name: case for case in suite}
    assert set(cases) == {"bad.md", "lossy.md"}
    [failure] = cases["bad.md"].result
    assert isinstance(failure, Failure) and failure.type == "QB120" and "bad.md:5:1: error[QB120]" in failure.text
    assert cases["lossy.md"].is_passed
    assert "QB602: Moodle: the quiz setting time_limit" in cases["lossy.md"].system_out
    # Written to the file only: stdout has the usual summary.
    assert "lossy: 3 questions" in out


def test_profile_and_strict_count_a_canvas_loss_once(tmp_path: Path) -> None:
    code, _, err = run("check", str(lossy(tmp_path)), "--profile", "canvas", "--strict", "--format", "canvas", cwd=tmp_path)
    assert code == 1
    assert err.count("error[QB601]") == 2


NUMBERED_IN_KATAKANA_AND_SCORED_AS_A_WHOLE = """---
title: カナ
language: ja
---

1. どれ？ {#kana}

ア. 赤
イ. 青
ウ. 緑

Answer: イ

2. Pick two. {#both scoring=all_or_nothing}

A) a
B) b
C) c

Answer: A, B
"""


def test_moodle_xml_and_the_quiz_backup_each_count_their_own_question_losses_once(tmp_path: Path) -> None:
    """Moodle XML and the Moodle quiz backup hold the same question data, so the Moodle profile's
    losses are each output's own: listed once under each, never the backup's under Moodle XML
    too (it said 'Moodle loses 2 things in 1 question' of one). Katakana options are one such
    loss: Moodle has no such numbering and shows 1. 2. 3. where the author wrote ア イ ウ."""
    source = write(tmp_path, "k.md", NUMBERED_IN_KATAKANA_AND_SCORED_AS_A_WHOLE)
    code, out, _ = run("check", str(source), "--report", "json", cwd=tmp_path)
    assert code == 0
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    [quiz] = report["quizzes"]
    losses = {o["format"]: [(loss["code"], loss["question"], loss["message"]) for loss in o["losses"]]
              for o in quiz["outputs"]}
    expected = [("QB601", "kana", "Moodle: Moodle has no Katakana (ア イ ウ) numbering: the options are numbered "
                 "1. 2. 3. there, in the same order (question 'kana')"),
                ("QB601", "both", "Moodle: Moodle gives a right but incomplete answer the share of its right options "
                 "(each 50 %), not 0; any wrong option still gives 0 (question 'both')")]
    assert losses["moodle"] == expected and losses["moodle-quiz"] == expected, losses
    assert losses["qti21"] == []
