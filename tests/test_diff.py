"""``qti-builder diff OLD NEW``: added, changed (text, answers, points, feedback) and removed
questions by id, between two sources, two folders and two git revisions, compared as models."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from helpers import ROOT, write
from helpers.cli import run

SCHEMA = json.loads((ROOT / "schemas" / "diff-report.schema.json").read_text(encoding="utf-8"))

OLD = """---
id: basics
title: Python basics
---

# Syntax {#syntax}

1. Which keyword defines a function? {#def-keyword}

A) func
B) def
   Feedback: Right: def starts a function.
C) function

Answer: B

2. What does `len("abc")` return? {#len type=numerical}

Answer: 3

3. Name a mutable type. {#mutable type=short_answer}

Answer: list

4. Why use a virtual environment? {#venv type=essay}

5. Is Python compiled to bytecode? {#bytecode type=true_false}

Answer: true
"""

#: The same quiz edited: text of def-keyword, points of len, an answer of mutable, the feedback of
#: bytecode, venv removed, a question added; and written otherwise (Korean labels, moved lines),
#: which is no change.
NEW = """---
id: basics
title: Python basics
---

# Syntax {#syntax}

1. Which keyword starts a function definition? {#def-keyword}

A) func
B) def
   피드백: Right: def starts a function.
C) function

정답: B

2. What does `len("abc")` return? {#len type=numerical points=2}

Answer: 3

3. Name a mutable type. {#mutable type=short_answer}

Answer: list
Answer: dict

5. Is Python compiled to bytecode? {#bytecode type=true_false}

Answer: true
Explanation: CPython compiles source to bytecode first.

6. What does `print` return? {#print-returns type=short_answer}

Answer: None
"""

OTHER = "---\nid: other\ntitle: Other\n---\n\n1. Why? {#why type=essay}\n"

EXPECTED = [
    "basics: 1 added, 4 changed, 1 removed",
    "  + print-returns",
    "  ~ def-keyword: text",
    "  ~ len: points",
    "  ~ mutable: answers",
    "  ~ bytecode: feedback",
    "  - venv",
]


def test_two_sources(tmp_path: Path) -> None:
    write(tmp_path, "old.md", OLD)
    write(tmp_path, "new.md", NEW)
    code, out, err = run("diff", "old.md", "new.md", cwd=tmp_path)
    assert (code, err) == (4, "")
    assert out.splitlines() == [*EXPECTED, "changed: 1 quiz of 1; questions: 1 added, 4 changed, 1 removed"]


def test_the_same_quiz_written_otherwise_is_no_change(tmp_path: Path) -> None:
    """The canonical model is compared, not the text: YAML against Markdown, other labels, the
    same content."""
    write(tmp_path, "old.md", OLD)
    code, out, err = run("diff", "old.md", "old.md", cwd=tmp_path)
    assert (code, out.splitlines()) == (0, ["basics: no change", "no change in 1 quiz"])
    korean = OLD.replace("Answer: B", "정답: B").replace("   Feedback:", "   피드백:")
    write(tmp_path, "ko.md", korean)
    assert run("diff", "old.md", "ko.md", cwd=tmp_path)[0] == 0


def test_two_folders_match_quizzes_by_id(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    write(tmp_path, "a/basics.md", OLD)
    (tmp_path / "b").mkdir()
    write(tmp_path, "a/gone.md", OTHER)
    write(tmp_path, "b/renamed-file.md", NEW)  # the same quiz id in a file of another name
    write(tmp_path, "b/fresh.md", OTHER.replace("id: other", "id: fresh"))
    code, out, err = run("diff", "a", "b", cwd=tmp_path)
    assert code == 4
    assert out.splitlines() == [
        *EXPECTED,
        "fresh: new quiz, 1 question (b/fresh.md)",
        "other: removed quiz, 1 question (a/gone.md)",
        "changed: 3 quizzes of 3; questions: 2 added, 4 changed, 2 removed",
    ]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_two_git_revisions_and_the_working_folder(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "source").mkdir(parents=True)
    git(repo, "init", "-q")
    write(repo, "source/basics.md", OLD)
    write(repo, "source/other.md", OTHER)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    git(repo, "tag", "imported")
    write(repo, "source/basics.md", NEW)
    git(repo, "commit", "-qam", "two")
    code, out, err = run("diff", "HEAD~1", "HEAD", cwd=repo)
    assert (code, err) == (4, "")
    assert out.splitlines() == [*EXPECTED, "other: no change", "changed: 1 quiz of 2; questions: 1 added, 4 changed, 1 removed"]
    # --rev: the working folder against a tag; nothing changed since HEAD.
    code, out, _ = run("diff", "--rev", "imported", cwd=repo)
    assert code == 4 and out.splitlines()[:len(EXPECTED)] == EXPECTED
    assert run("diff", "--rev", "HEAD", cwd=repo)[0] == 0
    # One file, in a folder below the repository's root, as a path on the new side.
    code, out, _ = run("diff", "imported", "basics.md", cwd=repo / "source")
    assert code == 4 and out.splitlines()[:len(EXPECTED)] == EXPECTED
    code, out, _ = run("diff", "HEAD~1", "HEAD", "--path", "source/other.md", cwd=repo)
    assert (code, out.splitlines()) == (0, ["other: no change", "no change in 1 quiz"])


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_json_report_for_ci(tmp_path: Path) -> None:
    write(tmp_path, "old.md", OLD)
    write(tmp_path, "new.md", NEW)
    code, out, err = run("diff", "old.md", "new.md", "--report", "json", cwd=tmp_path)
    assert code == 4
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    [quiz] = report["quizzes"]
    assert (quiz["status"], quiz["added"], quiz["removed"]) == ("changed", ["print-returns"], ["venv"])
    assert quiz["changed"] == [{"id": "def-keyword", "what": ["text"]}, {"id": "len", "what": ["points"]},
                               {"id": "mutable", "what": ["answers"]}, {"id": "bytecode", "what": ["feedback"]}]
    assert report["summary"]["questions_changed"] == 4 and report["changed"] is True
    assert EXPECTED[0] in err  # the text goes to stderr when the report takes stdout
    code, out, _ = run("diff", "old.md", "old.md", "--report", "json", cwd=tmp_path)
    assert code == 0 and json.loads(out)["changed"] is False


def test_what_changed_in_a_question(tmp_path: Path) -> None:
    write(tmp_path, "old.md", OLD)
    cases = {
        "answers": OLD.replace("Answer: B", "Answer: C"),
        "feedback": OLD.replace("Right: def", "Yes: def"),
        "type": OLD.replace("{#venv type=essay}", "{#venv type=file_upload}"),
        "section": OLD.replace("4. Why use", "# More {#more}\n\n1. Why use"),
        "settings": OLD.replace("{#def-keyword}", "{#def-keyword shuffle=false}"),
    }
    for aspect, text in cases.items():
        write(tmp_path, "new.md", text)
        code, out, _ = run("diff", "old.md", "new.md", cwd=tmp_path)
        assert code == 4 and out.splitlines()[1].endswith(f": {aspect}"), (aspect, out)
    write(tmp_path, "new.md", OLD.replace("{#def-keyword}", "{#def-keyword ignore=QB601}"))
    assert run("diff", "old.md", "new.md", cwd=tmp_path)[0] == 0  # what no LMS receives is no change


def test_usage_and_source_errors(tmp_path: Path) -> None:
    write(tmp_path, "old.md", OLD)
    code, _, err = run("diff", "old.md", "nowhere", cwd=tmp_path)
    assert code == 2 and "'nowhere' is neither a file, a folder, nor a git revision" in err
    code, _, err = run("diff", cwd=tmp_path)
    assert code == 2 and "give two versions to compare" in err
    write(tmp_path, "broken.md", "---\ntitle: B\n---\n\n1. Which? {#q}\n\nA) a\nB) b\n")
    code, _, err = run("diff", "old.md", "broken.md", cwd=tmp_path)
    assert code == 1 and "broken.md:5:1: error[QB120]" in err and "nothing was compared" in err


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_an_image_replaced_under_the_same_name_is_a_change(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "source" / "media").mkdir(parents=True)
    git(repo, "init", "-q")
    write(repo, "source/basics.md", OLD.replace("Why use a virtual environment? {#venv type=essay}",
                                                "Why use a virtual environment? {#venv type=essay}\n\n   ![A venv](media/venv.png)"))
    (repo / "source" / "media" / "venv.png").write_bytes(b"\x89PNG\r\n\x1a\none")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    (repo / "source" / "media" / "venv.png").write_bytes(b"\x89PNG\r\n\x1a\ntwo")
    code, out, _ = run("diff", "--rev", "HEAD", cwd=repo)
    assert (code, out.splitlines()[:2]) == (4, ["basics: 1 changed", "  ~ venv: media"])
    git(repo, "commit", "-qam", "two")
    code, out, _ = run("diff", "HEAD~1", "HEAD", cwd=repo)
    assert (code, out.splitlines()[:2]) == (4, ["basics: 1 changed", "  ~ venv: media"])
    assert run("diff", "--rev", "HEAD", cwd=repo)[0] == 0
