"""``check`` and ``build`` say what they understood: each quiz's questions by type, and with
``--verbose`` each question's line, id and type, so a wrong guess shows at a glance."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import SEED_SOURCE, write
from helpers.cli import BROKEN, run

from qti_builder.model import QUESTION_CLASSES
from qti_builder.summary import TYPE_WORDS

SEED_SUMMARY = "ray-train-tune: 10 questions: 8 single choice, 2 essay"

#: Questions on lines 5 (single choice), 12 (numerical), 16 (essay: a numerical
#: answer without type=numerical, as an author might forget it) and 20 (true/false).
MIXED = """---
id: mixed
title: Mixed
---
1. Which one? {#pick}

A) this
B) that

Answer: A

2. One sixth, to four places? {#sixth type=numerical}

Answer: 0.1667 ± 0.005

3. One seventh, to four places? {#seventh}

Answer: 0.1429 ± 0.005

4. Is 7 prime? {#seven}

Answer: true
"""


def test_every_type_has_words() -> None:
    types = [cls.model_fields["type"].default for cls in QUESTION_CLASSES]
    assert list(TYPE_WORDS) == types  # the summary's order is the model's (and the docs') order


def test_check_prints_the_types_of_each_quiz(tmp_path: Path) -> None:
    code, out, err = run("check", str(SEED_SOURCE), "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines() == [SEED_SUMMARY, "ok: 1 quiz, 10 questions (10 points), 4 outputs valid"]


def test_build_prints_the_types_before_the_files(tmp_path: Path) -> None:
    code, out, err = run("build", str(SEED_SOURCE), "--out", "dist", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines() == [SEED_SUMMARY, "wrote dist/ray-train-tune.qti21.zip", "wrote dist/ray-train-tune.moodle.xml",
                                   "wrote dist/ray-train-tune.canvas.zip", "wrote dist/ray-train-tune.mbz"]


def test_a_wrong_guess_shows_in_the_summary(tmp_path: Path) -> None:
    write(tmp_path, "mixed.md", MIXED)
    code, out, _ = run("check", "mixed.md", cwd=tmp_path)
    assert code == 0
    assert out.splitlines()[0] == "mixed: 4 questions: 1 single choice, 1 true/false, 1 numerical, 1 essay"


def test_verbose_lists_each_question_with_its_line_type_answer_and_points(tmp_path: Path) -> None:
    write(tmp_path, "mixed.md", MIXED)
    code, out, _ = run("check", "mixed.md", "--verbose", cwd=tmp_path)
    assert code == 0
    assert out.splitlines()[:5] == [
        "mixed: 4 questions: 1 single choice, 1 true/false, 1 numerical, 1 essay",
        "  mixed.md:5: pick (single choice, answer A, 1 point)",
        "  mixed.md:12: sixth (numerical, answer 0.1667 ± 0.005, 1 point)",
        "  mixed.md:16: seventh (essay, model answer, 1 point)",
        "  mixed.md:20: seven (true/false, answer true, 1 point)",
    ]


def test_verbose_gives_yaml_lines_too(tmp_path: Path) -> None:
    write(tmp_path, "y.yaml", "id: y\ntitle: Y\nsections:\n  - id: s\n    title: S\n    questions:\n"
                              "      - type: true_false\n        id: a\n        stem: Is it?\n        answer: true\n"
                              "      - type: essay\n        id: b\n        stem: Why?\n")
    code, out, err = run("build", "y.yaml", "-v", "--out", "out", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[:3] == ["y: 2 questions: 1 true/false, 1 essay", "  y.yaml:7: a (true/false, answer true, 1 point)",
                                   "  y.yaml:11: b (essay, no model answer, 1 point)"]


def test_one_question_is_singular(tmp_path: Path) -> None:
    write(tmp_path, "one.md", "---\ntitle: One\n---\n1. Is 7 prime? {#seven}\n\nAnswer: true\n")
    assert run("check", "one.md", cwd=tmp_path)[1].splitlines()[0] == "one: 1 question: 1 true/false"


def test_quiet_prints_no_summary(tmp_path: Path) -> None:
    code, out, err = run("check", str(SEED_SOURCE), "--quiet", cwd=tmp_path)
    assert (code, out, err) == (0, "", "")


def test_a_failed_quiz_gets_no_summary_and_the_others_do(tmp_path: Path) -> None:
    write(tmp_path, "broken.md", BROKEN)
    code, out, _ = run("build", "broken.md", str(SEED_SOURCE), "--out", "dist", "--lang", "en", cwd=tmp_path)
    assert code == 1
    assert out.splitlines() == [SEED_SUMMARY, "wrote dist/ray-train-tune.qti21.zip", "wrote dist/ray-train-tune.moodle.xml",
                                   "wrote dist/ray-train-tune.canvas.zip", "wrote dist/ray-train-tune.mbz"]


def test_with_the_json_report_on_stdout_the_summary_goes_to_stderr(tmp_path: Path) -> None:
    code, out, err = run("check", str(SEED_SOURCE), "--report", "json", "--lang", "en", cwd=tmp_path)
    assert code == 0
    assert json.loads(out)["quizzes"][0]["question_types"] == {"essay": 2, "single_choice": 8}
    assert SEED_SUMMARY in err.splitlines()
