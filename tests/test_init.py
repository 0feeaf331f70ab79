"""``qti-builder init``: a starter project that builds as it is, never written over anything."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import ROOT
from test_cli import run

STARTER = {"source/first-quiz.md", ".gitignore", ".github/workflows/quizzes.yml"}


def files_below(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def next_steps(out: str) -> list[list[str]]:
    """The commands init tells the user to run next, as argument lists (``cd`` left out)."""
    lines = out.split("next", 1)[1].splitlines()[1:]
    commands = [shlex.split(line, comments=True) for line in lines if line.startswith("  ")]
    return [args for args in commands if args[0] != "cd"]


def test_init_writes_a_project_whose_next_steps_run_without_a_warning(tmp_path: Path) -> None:
    code, out, err = run("init", "my-quizzes", cwd=tmp_path)
    assert code == 0, err
    project = tmp_path / "my-quizzes"
    assert files_below(project) == STARTER
    assert out.splitlines()[:5] == [
        "wrote my-quizzes/source/first-quiz.md",
        "wrote my-quizzes/.gitignore",
        "wrote my-quizzes/.github/workflows/quizzes.yml",
        "next:",
        "  cd my-quizzes",
    ]
    steps = next_steps(out)
    assert [args[:2] for args in steps] == [["qti-builder", "check"], ["qti-builder", "build"], ["qti-builder", "preview"]]
    for args in steps:
        if args[1] == "preview":  # the preview lists what Canvas loses, as warnings: not a problem of the source
            code, out, err = run(*args[1:], cwd=project)
            assert code == 0 and "error" not in err, err
            continue
        code, out, err = run(*args[1:], "--strict", cwd=project)
        assert code == 0 and err == "", (args, err)
        assert out.splitlines()[0] == ("first-quiz: 9 questions: 1 single choice, 1 multiple response, 1 true/false, "
                                       "1 short answer, 1 numerical, 1 essay, 1 matching, 1 ordering, 1 fill-in-the-blank")
    assert {"first-quiz.qti21.zip", "first-quiz.moodle.xml", "first-quiz.canvas.zip", "preview"} <= {p.name for p in (project / "dist").iterdir()}
    assert (project / "dist" / "preview" / "index.html").is_file()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_gitignore_keeps_dist_out_of_git(tmp_path: Path) -> None:
    assert run("init", cwd=tmp_path)[0] == 0
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "first-quiz.qti21.zip").write_bytes(b"")
    ignored = subprocess.run(["git", "check-ignore", "-q", "dist/first-quiz.qti21.zip"], cwd=tmp_path)
    kept = subprocess.run(["git", "check-ignore", "-q", "source/first-quiz.md"], cwd=tmp_path)
    assert (ignored.returncode, kept.returncode) == (0, 1)


def test_init_here_says_so_instead_of_cd(tmp_path: Path) -> None:
    code, out, _ = run("init", cwd=tmp_path)
    assert code == 0 and files_below(tmp_path) == STARTER
    assert "next, in this folder:" in out and "cd " not in out


def test_init_overwrites_nothing(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("mine\n", encoding="utf-8")
    code, out, err = run("init", cwd=tmp_path)
    assert code == 2 and out == ""
    assert ".gitignore already exists; init overwrites nothing, so nothing was written" in err
    assert files_below(tmp_path) == {".gitignore"} and (tmp_path / ".gitignore").read_text(encoding="utf-8") == "mine\n"
    assert "Traceback" not in err


def test_init_names_every_file_in_the_way(tmp_path: Path) -> None:
    assert run("init", "p", cwd=tmp_path)[0] == 0
    (tmp_path / "p" / "source" / "first-quiz.md").write_text("edited", encoding="utf-8")
    code, _, err = run("init", "p", cwd=tmp_path)
    assert code == 2
    assert "p/source/first-quiz.md, p/.gitignore, p/.github/workflows/quizzes.yml already exist" in " ".join(err.split())
    assert (tmp_path / "p" / "source" / "first-quiz.md").read_text(encoding="utf-8") == "edited"


def test_init_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("", encoding="utf-8")
    code, _, err = run("init", "taken", cwd=tmp_path)
    assert code == 2 and "is a file" in err


def test_the_workflow_is_the_one_docs_ci_describes() -> None:
    ci = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    documented = ci.split("`.github/workflows/quizzes.yml`", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    shipped = (ROOT / "starter" / "github-workflow.yml").read_text(encoding="utf-8")
    assert shipped == documented
    steps = yaml.safe_load(shipped)["jobs"]["build"]["steps"]
    assert any("qti-builder build" in step.get("run", "") for step in steps)


def test_init_that_cannot_write_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("", encoding="utf-8")
    code, out, err = run("init", "afile/project", cwd=tmp_path)
    assert code == 1 and out == ""
    assert err.startswith("error[QB501]: cannot write afile/project/source: Not a directory")
    assert "nothing was written" in err and files_below(tmp_path) == {"afile"}


def test_the_bundled_sources_check_without_a_word_on_stderr(tmp_path: Path) -> None:
    """What a newcomer builds first (source/, and the starter quiz) warns about nothing, so the
    first warning they see is about their own quiz."""
    code, out, err = run("check", "--strict", str(ROOT / "source"), str(ROOT / "starter" / "source"), cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "ok: 4 quiz(zes), 37 question(s), 12 output(s) valid"
