"""``qti-builder init``: a starter project that builds as it is, never written over anything."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from helpers import ROOT
from helpers.cli import run

from qti_builder import __version__

STARTER = {"source/first-quiz.md", ".gitignore", ".github/workflows/quizzes.yml"}


def files_below(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def next_steps(out: str) -> list[list[str]]:
    """The commands init tells the user to run next, as argument lists (``cd`` left out)."""
    lines = out.split("next", 1)[1].split("then import", 1)[0].splitlines()[1:]
    commands = [shlex.split(line, comments=True) for line in lines if line.startswith("  ")]
    return [args for args in commands if args[0] != "cd"]


def test_init_writes_a_project_whose_next_steps_run_without_a_warning_or_a_loss(tmp_path: Path) -> None:
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
    # Each file is named with the LMS it goes into: the Canvas package is the .canvas.zip.
    assert "  Canvas: dist/first-quiz.canvas.zip (Settings > Import Course Content > QTI .zip file)" in out.splitlines()
    assert "  Moodle: dist/first-quiz.moodle.xml (Question bank > Import > Moodle XML format)" in out.splitlines()
    assert "qti21.zip (Canvas)" not in out
    steps = next_steps(out)
    assert [args[:2] for args in steps] == [["qti-builder", "check"], ["qti-builder", "build"], ["qti-builder", "preview"]]
    for args in steps:
        if args[1] == "preview":
            code, out, err = run(*args[1:], cwd=project)
            assert (code, err) == (0, ""), err  # no output loses anything, so the preview warns of nothing
            continue
        code, out, err = run(*args[1:], "--strict", cwd=project)
        assert code == 0 and err == "", (args, err)  # --strict counts losses: there are none
        assert out.splitlines()[0] == ("first-quiz: 7 questions: 1 single choice, 1 true/false, 1 short answer, "
                                       "1 numerical, 1 essay, 1 matching, 1 fill-in-the-blank")
        assert not re.search(r"\bloses\b", out)
    assert {"first-quiz.qti21.zip", "first-quiz.moodle.xml", "first-quiz.canvas.zip", "preview"} <= {p.name for p in (project / "dist").iterdir()}
    assert (project / "dist" / "preview" / "index.html").is_file()
    # Every name in the "next" text is a file the build wrote.
    for name in re.findall(r"dist/[\w.-]+\.(?:zip|xml)", "\n".join(" ".join(a) for a in steps)):
        assert (project / name).is_file(), name


@pytest.mark.parametrize("language", ["en", "ko"])
def test_each_starter_quiz_loses_nothing_in_any_output(tmp_path: Path, language: str) -> None:
    assert run("init", "--language", language, cwd=tmp_path)[0] == 0
    quiz = (tmp_path / "source" / "first-quiz.md").read_text(encoding="utf-8")
    assert f"language: {language}\n" in quiz
    code, out, err = run("build", "--strict", "--verbose", cwd=tmp_path)
    assert code == 0 and "warning" not in err and "error" not in err
    assert not re.search(r"\bloses\b", out) and "QB60" not in out
    report = json.loads(run("check", "--report", "json", cwd=tmp_path)[1])
    assert [o["losses"] for o in report["quizzes"][0]["outputs"]] == [[], [], []]
    # Not even what Canvas's profile warns of.
    assert run("check", "--profile", "canvas", "--strict", cwd=tmp_path)[0] == 0


def test_an_unknown_language_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("init", "--language", "xx", cwd=tmp_path)
    assert code == 2 and "no starter quiz in 'xx'; choose from en, ko" in err
    assert files_below(tmp_path) == set()


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


def test_init_joins_a_repository_appending_to_its_gitignore(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("node_modules/\n*.pyc", encoding="utf-8")  # no final newline
    code, out, err = run("init", cwd=tmp_path)
    assert code == 0, err
    assert "added dist/, .qti-builder-schemas/ to .gitignore" in out.splitlines()
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == (
        "node_modules/\n*.pyc\n\n# qti-builder's build output\ndist/\n.qti-builder-schemas/\n")
    assert files_below(tmp_path) == STARTER
    # A second init adds nothing, and says why for each file.
    code, out, err = run("init", cwd=tmp_path)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "skipped source/first-quiz.md: it exists",
        "skipped .gitignore: it already ignores dist/, .qti-builder-schemas/",
        "skipped .github/workflows/quizzes.yml: it exists",
        "nothing to add: the folder has every file init writes",
    ]
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8").count("dist/") == 1


def test_init_adds_no_starter_quiz_beside_quizzes_a_repository_has(tmp_path: Path) -> None:
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "week-1.md").write_text("---\ntitle: Week 1\n---\n\n1. Why? {#w type=essay}\n", encoding="utf-8")
    code, out, err = run("init", cwd=tmp_path)
    assert code == 0, err
    assert "skipped source/first-quiz.md: source/ has quizzes already" in out.splitlines()
    assert files_below(tmp_path) == {"source/week-1.md", ".gitignore", ".github/workflows/quizzes.yml"}


def test_init_skips_every_file_that_exists_and_writes_the_others(tmp_path: Path) -> None:
    (tmp_path / "p" / "source").mkdir(parents=True)
    (tmp_path / "p" / "source" / "first-quiz.md").write_text("edited", encoding="utf-8")
    code, out, err = run("init", "p", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[:3] == ["wrote p/.gitignore", "wrote p/.github/workflows/quizzes.yml",
                                    "skipped p/source/first-quiz.md: it exists"]
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
    # It installs a real release: this version of qti-builder, pinned; no placeholder host.
    [install] = [step["run"] for step in steps if "pip install" in step.get("run", "")]
    assert install == f'python -m pip install "qti-builder=={__version__}"'
    assert "example.org" not in shipped


def test_init_writes_the_install_source_it_is_given(tmp_path: Path) -> None:
    spec = "qti-builder @ git+https://git.example.edu/tools/qti-builder@v0.1.0"
    code, out, err = run("init", "--install", spec, cwd=tmp_path)
    assert code == 0, err
    steps = yaml.safe_load((tmp_path / ".github/workflows/quizzes.yml").read_text(encoding="utf-8"))["jobs"]["build"]["steps"]
    assert [step["run"] for step in steps if "pip install" in step.get("run", "")] == [f'python -m pip install "{spec}"']
    assert f"installs {spec}" in out
    code, _, err = run("init", "x", "--install", 'a"b', cwd=tmp_path)
    assert code == 2 and "no quotes inside" in err


def test_init_that_cannot_write_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("", encoding="utf-8")
    code, out, err = run("init", "afile/project", cwd=tmp_path)
    assert code == 1 and out == ""
    assert err.startswith("error[QB501]: cannot write afile/project/source: Not a directory")
    assert "nothing was written" in err and files_below(tmp_path) == {"afile"}


def test_the_bundled_sources_check_without_a_word_on_stderr(tmp_path: Path) -> None:
    """What a newcomer builds first (source/, and the starter quizzes) warns about nothing, so the
    first warning they see is about their own quiz; the starter quizzes lose nothing either, so
    --strict (which counts losses) passes on them."""
    code, out, err = run("check", str(ROOT / "source"), str(ROOT / "starter" / "quiz" / "en.md"), cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "ok: 4 quizzes, 35 questions (50 points), 12 outputs valid"
    for starter in sorted((ROOT / "starter" / "quiz").glob("*.md")):
        code, out, err = run("check", "--strict", str(starter), cwd=tmp_path)
        assert (code, err) == (0, "")


def test_build_of_python_fundamentals_says_what_canvas_loses_without_a_profile(tmp_path: Path) -> None:
    code, out, err = run("build", str(ROOT / "source" / "python-fundamentals.md"), "--out", "d", cwd=tmp_path)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1:3] == ["wrote d/python-fundamentals.qti21.zip", "wrote d/python-fundamentals.moodle.xml"]
    assert lines[3] == "wrote d/python-fundamentals.canvas.zip: Canvas loses 11 things in 9 questions (all accepted; --verbose lists them)"
    code, out, _ = run("build", str(ROOT / "source" / "python-fundamentals.md"), "--out", "d", "--verbose", cwd=tmp_path)
    listed = [line for line in out.splitlines() if ": QB601: Canvas: " in line]
    assert len(listed) == 11
    assert any(line.endswith("answers worth less than 100 % are left out (with their feedback): Canvas gives every answer "
                             "full credit (question 'division') (accepted)") for line in listed)


@pytest.mark.parametrize("recorded, expected", [
    # pip's PEP 610 record of where this qti-builder came from -> what a CI runner can install
    ({"url": "https://github.com/acme/qti-builder.git", "vcs_info": {"vcs": "git", "commit_id": "0123abc"}},
     "qti-builder @ git+https://github.com/acme/qti-builder.git@0123abc"),
    ({"url": "https://example.org/qti_builder-0.1.0.tar.gz", "archive_info": {}},
     "qti-builder @ https://example.org/qti_builder-0.1.0.tar.gz"),
    # a local folder (an editable install) or a local file is nowhere on a runner: the pinned release
    ({"url": "file:///home/me/qti-builder", "dir_info": {"editable": True}}, f"qti-builder=={__version__}"),
    ({"url": "file:///tmp/qti_builder-0.1.0-py3-none-any.whl", "archive_info": {}}, f"qti-builder=={__version__}"),
    (None, f"qti-builder=={__version__}"),  # from an index: nothing recorded
])
def test_the_workflow_installs_the_source_this_qti_builder_came_from(monkeypatch: pytest.MonkeyPatch,
                                                                      recorded: dict | None, expected: str) -> None:
    from importlib import metadata

    from qti_builder import starter

    class Installed:
        def read_text(self, name: str) -> str | None:
            return json.dumps(recorded) if name == "direct_url.json" and recorded is not None else None

    monkeypatch.setattr(metadata, "distribution", lambda name: Installed())
    assert starter.default_install() == expected
