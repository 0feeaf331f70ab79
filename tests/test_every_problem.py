"""One run reports every problem of a file (issue 31, item 5): a file with six independent mistakes
of different kinds gets six diagnostics, each at its line, in one ``check``. Before, an error
while reading stopped the id check, model validation and the content checks, so the mistakes came
out in stages (four, then one more once those were fixed, then another).

The planted mistakes, each read by hand from the text below:
- line 11: a misspelt label 'Anwser:' (QB115, a reading error);
- line 13: points=-2 (QB201, refused by the model);
- line 25: an answer naming option E of options A-B (QB126, a reading error);
- line 27: an image that does not exist (QB160, a content check);
- line 31: a true/false answer 'maybe' (QB138, a reading error);
- line 33: the id 'def' used again (QB133, the id check).
And the front matter's YAML broken (QB111) does not stop the questions from being read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cli import run

SIX = """---
title: Six slips
language: en
---

1. Which keyword defines a function? {#def}

A) func
B) def

Anwser: B

2. Which is a list? {#lst points=-2}

A) []
B) ()

Answer: A

3. Which is a tuple? {#tup}

A) ()
B) []

Answer: E

4. What does this show? ![a chart](chart.png) {#img type=essay}

5. Is Python typed dynamically? {#dyn type=true_false}

Answer: maybe

6. Which keyword defines a class? {#def}

A) class
B) struct

Answer: A

7. Which keyword returns a value? {#ret}

A) return
B) yield

Answer: A
"""

PLANTED = [(11, "QB115"), (13, "QB201"), (25, "QB126"), (27, "QB160"), (31, "QB138"), (33, "QB133")]


def errors(stderr: str) -> list[tuple[int, str]]:
    return [(int(m[1]), m[2]) for m in re.finditer(r"^\S+:(\d+):\d+: error\[(QB\d+)\]", stderr, re.M)]


@pytest.mark.parametrize("command", ["check", "build"])
def test_six_independent_mistakes_give_six_errors_in_one_run(tmp_path: Path, command: str) -> None:
    source = tmp_path / "six.md"
    source.write_text(SIX, encoding="utf-8")
    code, _, err = run(command, str(source), "-j", "1", *(["--out", str(tmp_path / "dist")] if command == "build" else []))
    assert code == 1
    assert errors(err) == PLANTED, err
    assert "failed: 6 errors" in err
    assert not (tmp_path / "dist").exists() or not any((tmp_path / "dist").iterdir()), "nothing is written"


def test_a_broken_front_matter_does_not_hide_the_questions_problems(tmp_path: Path) -> None:
    source = tmp_path / "six.md"
    source.write_text(SIX.replace("title: Six slips", "title: Ray: six slips"), encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert errors(err) == [(2, "QB111")] + PLANTED, err


def test_the_outline_of_a_paper_with_errors_marks_the_questions_not_read(tmp_path: Path) -> None:
    source = tmp_path / "six.md"
    source.write_text(SIX, encoding="utf-8")
    code, out, _ = run("check", str(source), "-j", "1", "--outline")
    assert code == 1
    rows = [line.strip() for line in out.splitlines() if re.match(r"^\s+\d+\. ", line)]
    assert rows == [
        "1. ? | not read: see the errors | - | lines 6-11",
        "2. ? | not read: see the errors | - | lines 13-18",
        "3. ? | not read: see the errors | - | lines 20-25",
        "4. essay | no model answer | 1 point | line 27",
        "5. ? | not read: see the errors | - | lines 29-31",
        "6. ? | not read: see the errors | - | lines 33-38",
        "7. single choice | answer A | 1 point | lines 40-45",
    ]
    assert "total: 2 questions, 2 points; the questions with errors are left out" in out


def test_a_quiz_with_errors_is_never_given_to_other_readers(tmp_path: Path) -> None:
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.readers import read_quiz

    source = tmp_path / "six.md"
    source.write_text(SIX, encoding="utf-8")
    sink = DiagnosticSink()
    assert read_quiz(source, sink) is None  # diff, import's read-back: a quiz with errors is no quiz
    partial = read_quiz(source, DiagnosticSink(), partial=True)
    assert partial is not None and partial[1].partial
    assert [q.id for q in partial[0].iter_questions()] == ["img", "ret"]


def test_going_on_after_an_error_adds_no_echo_of_it(tmp_path: Path) -> None:
    # No title (QB107), a section id used twice (QB133) and an answer naming no option (QB126):
    # three errors, each once; the model's own "no title" or "ids must be unique" do not follow.
    source = tmp_path / "echo.md"
    source.write_text("---\nlanguage: en\n---\n\n# Part {#part}\n\n1. Which? {#a}\n\nA) x\nB) y\n\nAnswer: C\n\n"
                      "# Part again {#part}\n\n2. Which? {#b}\n\nA) x\nB) y\n\nAnswer: A\n", encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert errors(err) == [(1, "QB107"), (12, "QB126"), (14, "QB133")], err


def test_a_draw_made_too_large_by_a_question_left_out_is_no_echo(tmp_path: Path) -> None:
    source = tmp_path / "draw.md"
    source.write_text("---\ntitle: T\n---\n\n# Pool {#pool select=2}\n\n1. Which? {#a}\n\nA) x\nB) y\n\nAnswer: C\n\n"
                      "2. Which? {#b}\n\nA) x\nB) y\n\nAnswer: A\n", encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert errors(err) == [(12, "QB126")], err


def test_a_missing_front_matter_does_not_hide_the_questions_problems(tmp_path: Path) -> None:
    source = tmp_path / "six.md"
    body = SIX.split("---\n", 2)[2]  # the same questions, without the front matter: every line 4 earlier
    source.write_text(body, encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert errors(err) == [(1, "QB103")] + [(line - 4, code) for line, code in PLANTED], err


def test_a_file_without_front_matter_or_questions_gets_one_error(tmp_path: Path) -> None:
    source = tmp_path / "notes.md"
    source.write_text("Some notes, not a quiz.\n", encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert errors(err) == [(1, "QB103")], err


OUTPUT_RULES = """---
title: Outputs too
---

1. Name a primary colour. {#colour type=short_answer}

Answer: red
Answer (35%): pink

2. Which keyword? {#kw}

A) func
B) def

Answer: E

3. The capital of France is [[Paris]] and of Spain [[Madrid]]. {#caps type=fill_in_blank points=3}
"""


@pytest.mark.parametrize("command", ["check", "build"])
def test_what_an_output_refuses_comes_in_the_same_run_as_the_reading_errors(tmp_path: Path, command: str) -> None:
    """A question the reader reads whole is still rendered while another has a reading error, so
    the outputs' own checks come in the same run: 35 % is no Moodle grade (QB321, an error of the
    Moodle writer) and a cloze of 2 one-point blanks cannot be worth 3 in Moodle (QB323, its
    warning), beside the answer naming an option that does not exist (QB126, the reader's).
    Before, the two Moodle problems came only in a second run, once the reading error was fixed.
    Nothing is written."""
    source = tmp_path / "out.md"
    source.write_text(OUTPUT_RULES, encoding="utf-8")
    code, _, err = run(command, str(source), "-j", "1", *(["--out", str(tmp_path / "dist")] if command == "build" else []))
    assert code == 1
    assert errors(err) == [(5, "QB321"), (15, "QB126")], err
    assert re.search(r"^\S+:17:1: warning\[QB323\]: question 'caps' is worth 3 points, .* it will be worth 2", err, re.M), err
    assert "failed: 2 errors" in err
    assert not (tmp_path / "dist").exists()
    # Fixed, the reading error was the only one the reader had: the output's errors stay, no new one comes.
    source.write_text(OUTPUT_RULES.replace("Answer: E", "Answer: B"), encoding="utf-8")
    code, _, err = run(command, str(source), "-j", "1", *(["--out", str(tmp_path / "dist")] if command == "build" else []))
    assert code == 1 and errors(err) == [(5, "QB321")], err


def test_a_build_that_writes_nothing_downloads_no_schemas_to_check_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering a quiz read in part needs the schemas; when every quiz has an error and the
    schemas are not at hand, the build does not go to the network for a build that writes
    nothing: it reports the reading's errors alone (no QB402)."""
    asked: list[str] = []

    def no_network(url: str) -> bytes:
        asked.append(url)
        raise OSError("no network here")

    monkeypatch.setattr("qti_builder.schemas._http_get", no_network)
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "empty-cache")
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS", raising=False)
    source = tmp_path / "out.md"
    source.write_text(OUTPUT_RULES, encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1 and errors(err) == [(15, "QB126")] and asked == [], err
