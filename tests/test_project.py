"""The project's settings file (qti-builder.toml, or [tool.qti-builder] in pyproject.toml): every
command that builds takes its settings, a flag on the command line wins, and each mistake in it is
an error at its line and column."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SEED_SOURCE, write
from helpers.cli import run

from qti_builder.project import locate

#: A source that Canvas's profile warns about (an ordering question), and that loses nothing else.
ORDERING = "---\nid: steps\ntitle: Steps\n---\n\n1. Put the steps in order. {#steps type=ordering}\n\n- Write the file\n- Run it\n"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    (tmp_path / "quizzes").mkdir()
    shutil.copy(SEED_SOURCE, tmp_path / "quizzes" / "seed.md")
    return tmp_path


def test_build_takes_its_settings_from_qti_builder_toml(course: Path) -> None:
    write(course, "qti-builder.toml", 'sources = ["quizzes"]\nformats = ["moodle"]\nout = "public"\n'
                                      'report = ["json=public/report.json"]\n')
    code, out, err = run("build", cwd=course)
    assert (code, err) == (0, "")
    assert sorted(p.name for p in (course / "public").iterdir()) == ["ray-train-tune.moodle.xml", "report.json"]
    report = json.loads((course / "public" / "report.json").read_text(encoding="utf-8"))
    assert [o["format"] for o in report["quizzes"][0]["outputs"]] == ["moodle"]
    # A flag wins over the file.
    code, out, err = run("build", "--format", "qti21", "--out", "elsewhere", cwd=course)
    assert code == 0 and sorted(p.name for p in (course / "elsewhere").iterdir()) == ["ray-train-tune.qti21.zip"]
    # preview writes into the output folder's preview/.
    assert run("preview", cwd=course)[0] == 0 and (course / "public" / "preview" / "index.html").is_file()


def test_pyproject_table_and_a_flag_that_turns_a_setting_off(course: Path) -> None:
    write(course, "quizzes/steps.md", ORDERING)
    write(course, "pyproject.toml", '[project]\nname = "bio101"\n\n[tool.qti-builder]\nsources = ["quizzes/steps.md"]\n'
                                    'profile = "canvas"\nstrict = true\n')
    code, _, err = run("check", cwd=course)
    assert code == 1 and "error[QB601]" in err and "failing because of --strict" in err
    code, _, err = run("check", "--no-strict", cwd=course)
    assert code == 0 and "warning[QB601]" in err
    code, _, err = run("check", "--ignore", "QB601", cwd=course)  # the flag's codes
    assert (code, err) == (0, "")


def test_the_file_is_found_from_a_subfolder_and_its_paths_are_its_own(course: Path) -> None:
    write(course, "qti-builder.toml", 'sources = ["quizzes"]\nformats = ["canvas"]\nout = "dist"\n')
    (course / "notes").mkdir()
    code, out, err = run("build", "--lang", "en", cwd=course / "notes")
    assert (code, err) == (0, "")
    assert "wrote ../dist/ray-train-tune.canvas.zip" in out.splitlines()
    assert (course / "dist" / "ray-train-tune.canvas.zip").is_file() and not (course / "notes" / "dist").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_file_above_the_repository_is_not_the_projects(course: Path) -> None:
    write(course, "qti-builder.toml", 'formats = ["pdf"]\n')  # broken: taken, it would stop the build
    repo = course / "repo"
    (repo / "source").mkdir(parents=True)
    shutil.copy(SEED_SOURCE, repo / "source" / "seed.md")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    code, _, err = run("check", cwd=repo)
    assert (code, err) == (0, "")


def test_every_mistake_in_the_file_is_located(course: Path) -> None:
    write(course, "qti-builder.toml", "# the course's settings\n"
                                      'formats = ["moodle", "pdf"]\n'
                                      'profle = "canvas"\n'
                                      'strict = "yes"\n'
                                      'ignore = ["QB601", "QB999"]\n'
                                      "report = ['json=', 'xml']\n")
    code, out, err = run("build", cwd=course)
    assert code == 2 and out == "" and not (course / "dist").exists()
    located = [line.split(": error")[0] for line in err.splitlines() if ": error[" in line]
    assert located == ["qti-builder.toml:2:22", "qti-builder.toml:3:1", "qti-builder.toml:4:10", "qti-builder.toml:5:20",
                       "qti-builder.toml:6:11", "qti-builder.toml:6:20"]
    assert "qti-builder.toml:2:22: error[QB233]: setting formats[1]: unknown format 'pdf'; choose from qti21, moodle, canvas" in err
    assert "error[QB233]: unknown setting 'profle'\n    hint: did you mean 'profile'?" in err
    assert "setting ignore[1]: unknown code QB999" in err
    assert "setting report[1]: unknown report 'xml'" in err
    assert err.rstrip().endswith("failed: 6 errors in the settings file; nothing was done")
    # Commands that take nothing from it still run.
    assert run("explain", "QB233", cwd=course)[0] == 0


@pytest.mark.parametrize("asked", [["--lang", "ko"], ["--lang=ko"]])
def test_the_settings_files_mistakes_print_in_the_language_asked(course: Path, asked: list[str]) -> None:
    """The settings file is read before the command's options (its settings are their defaults):
    its mistakes still print in the --lang typed, as the quiz's own do. A fresh process, as typed
    (cli._asked_language reads the command line)."""
    write(course, "qti-builder.toml", 'formats = ["moodle", "pdf"]\nprofle = "canvas"\n')
    done = subprocess.run([sys.executable, "-m", "qti_builder", "check", *asked], cwd=course, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == "qti-builder.toml:1:22: error[QB233]: 설정 formats[1]: 알 수 없는 형식 'pdf'; 다음 중에서 고르세요: " \
                       "qti21, moodle, canvas, moodle-quiz"
    assert "qti-builder.toml:2:1: error[QB233]: 알 수 없는 설정 'profle'" in lines
    assert "    hint: 'profile'을(를) 뜻했나요? 설정은 sources, formats, profile, ignore, schemas, out, report, strict입니다 " \
           "(qti-builder docs ci#project-settings)" in lines
    # Without --lang, English, as before.
    english = subprocess.run([sys.executable, "-m", "qti_builder", "check"], cwd=course, capture_output=True, text=True,
                             timeout=120)
    assert "qti-builder.toml:2:1: error[QB233]: unknown setting 'profle'" in english.stderr.splitlines()


def test_a_toml_syntax_error_is_located(course: Path) -> None:
    write(course, "pyproject.toml", '[tool.qti-builder]\nformats = ["moodle"\nstrict = true\n')
    code, _, err = run("check", cwd=course)
    assert code == 2 and err.startswith("pyproject.toml:3:1: error[QB230]: the settings file is not valid TOML")


def test_locate_finds_keys_in_their_table_only() -> None:
    lines = ['[project]', 'formats = "not ours"', '', '[tool.qti-builder]', 'ignore = [', '  "QB601",', ']',
             'formats = [ "moodle" , "pdf" ]']
    assert locate(lines, ("tool", "qti-builder"), ("formats", "1")) == (8, 24)
    assert locate(lines, ("tool", "qti-builder"), ("formats",)) == (8, 11)
    assert locate(lines, ("tool", "qti-builder"), ("missing",)) == (4, 1)  # the table's header
    assert locate(lines, ("tool", "qti-builder"), ("formats",), key_itself=True) == (8, 1)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_diff_compares_the_sources_the_settings_name(tmp_path: Path) -> None:
    write(tmp_path, "qti-builder.toml", 'sources = ["quizzes"]\n')
    quiz = "---\nid: w1\ntitle: W1\n---\n\n1. Is 7 prime? {#seven}\n\nAnswer: true\n"
    (tmp_path / "quizzes").mkdir()
    write(tmp_path, "quizzes/w1.md", quiz)
    git = ["git", "-c", "user.email=a@example.edu", "-c", "user.name=A"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "w1"], cwd=tmp_path, check=True)
    write(tmp_path, "quizzes/w1.md", quiz.replace("Is 7 prime?", "Is seven prime?"))
    code, out, err = run("diff", "--rev", "HEAD", "--changed-only", cwd=tmp_path)
    assert (code, out, err) == (0, "w1/seven\n", "")  # quizzes/, not the missing source/
