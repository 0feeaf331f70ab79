"""``qti-builder init``: a starter project that builds as it is, never written over anything."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, SCHEMAS
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
    assert "  Moodle, its questions only: dist/first-quiz.moodle.xml (Question bank > Import > Moodle XML format)" in out.splitlines()
    assert "  Moodle, the whole quiz: dist/first-quiz.mbz (the course's More > Course reuse > Restore)" in out.splitlines()
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
    assert [o["losses"] for o in report["quizzes"][0]["outputs"]] == [[], [], [], []]
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
    assert out.splitlines()[-1] == "ok: 4 quizzes, 35 questions (50 points), 16 outputs valid"
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
    # a token in the recorded URL stays out of the workflow, which the repository publishes
    ({"url": "https://me:s3cret@git.example.edu/qti-builder.git", "vcs_info": {"vcs": "git", "commit_id": "0123abc"}},
     "qti-builder @ git+https://git.example.edu/qti-builder.git@0123abc"),
    # a local folder (an editable install) or a local file is nowhere on a runner, and its version
    # may be on no index: nothing to write (init says what to put there)
    ({"url": "file:///home/me/qti-builder", "dir_info": {"editable": True}}, None),
    ({"url": "file:///tmp/qti_builder-0.1.0-py3-none-any.whl", "archive_info": {}}, None),
    (None, f"qti-builder=={__version__}"),  # from an index: nothing recorded, and this version is a release there
])
def test_the_workflow_installs_the_source_this_qti_builder_came_from(monkeypatch: pytest.MonkeyPatch,
                                                                      recorded: dict | None, expected: str | None) -> None:
    from importlib import metadata

    from qti_builder import starter

    class Installed:
        def read_text(self, name: str) -> str | None:
            return json.dumps(recorded) if name == "direct_url.json" and recorded is not None else None

    monkeypatch.setattr(metadata, "distribution", lambda name: Installed())
    assert starter.default_install() == expected


def installed_from(monkeypatch: pytest.MonkeyPatch, recorded: dict | None) -> None:
    """This qti-builder as if pip had installed it from ``recorded`` (PEP 610), None: an index."""
    from importlib import metadata

    class Installed:
        def read_text(self, name: str) -> str | None:
            return json.dumps(recorded) if name == "direct_url.json" and recorded is not None else None

    monkeypatch.setattr(metadata, "distribution", lambda name: Installed())


def workflow_steps(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"]["build"]["steps"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_installed_from_a_local_folder_init_says_what_to_put_in_the_install_step(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's `pip install .` records a local folder: no runner has it, and a pin of its version
    may be on no index. init says so, suggests the folder's Git remote at its commit, and the
    workflow's install step fails with the reason instead of installing a release nobody has."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    git = ["git", "-c", "user.email=a@example.edu", "-c", "user.name=A"]
    subprocess.run([*git, "init", "-q"], cwd=checkout, check=True)
    subprocess.run([*git, "remote", "add", "origin", "https://git.example.edu/tools/qti-builder.git"], cwd=checkout, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], cwd=checkout, check=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True).stdout.strip()
    installed_from(monkeypatch, {"url": checkout.as_uri(), "dir_info": {}})
    code, out, err = run("init", "project", cwd=tmp_path)
    assert code == 0
    assert f"installed from {checkout}, which a CI runner cannot reach" in err
    assert f"qti-builder @ git+https://git.example.edu/tools/qti-builder.git@{commit}" in err
    assert "cannot install qti-builder yet" in out
    [install] = [s for s in workflow_steps(tmp_path / "project" / ".github/workflows/quizzes.yml") if s.get("name") == "Install qti-builder"]
    assert "python -m pip install" not in install["run"] and "exit 1" in install["run"] and "::error::" in install["run"]
    # Installed from an index, the workflow installs this release, and init has nothing to warn of.
    installed_from(monkeypatch, None)
    code, out, err = run("init", "other", cwd=tmp_path)
    assert (code, err) == (0, "") and f"installs qti-builder=={__version__}" in out


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_init_in_a_repository_subfolder_writes_the_workflow_at_the_root(tmp_path: Path) -> None:
    """GitHub runs only the root's .github/workflows/: the workflow goes there, and runs its
    commands, caches its schemas and publishes dist/ in the project's folder."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "courses").mkdir()
    code, out, err = run("init", "bio 101", "--install", "qti-builder==9.9", cwd=tmp_path / "courses")
    assert code == 0, err
    assert not (tmp_path / "courses" / "bio 101" / ".github").exists()
    workflow = yaml.safe_load((tmp_path / ".github/workflows/quizzes.yml").read_text(encoding="utf-8"))
    assert workflow["jobs"]["build"]["defaults"] == {"run": {"working-directory": "courses/bio 101"}}
    steps = workflow["jobs"]["build"]["steps"]
    assert [s["with"]["path"] for s in steps if "with" in s and "path" in s["with"]] == [
        "courses/bio 101/.qti-builder-schemas", "courses/bio 101/dist/"]
    assert "wrote ../.github/workflows/quizzes.yml" in out.splitlines()
    assert "at the repository's root, where GitHub runs workflows; it runs its commands in courses/bio 101/" in out
    assert (tmp_path / "courses" / "bio 101" / "source" / "first-quiz.md").is_file()
    # Again in the same folder, its workflow is found and left as it is.
    code, out, err = run("init", "bio 101", "--install", "qti-builder==9.9", cwd=tmp_path / "courses")
    assert "skipped ../.github/workflows/quizzes.yml: it exists" in out.splitlines()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_generated_workflow_runs_its_steps_to_the_end(tmp_path: Path) -> None:
    """The workflow init writes, run step by step as a runner would: its shell steps in bash in a
    fresh repository (in the project's subfolder, as its defaults say), its install step pointed at
    this checkout (pip installs it, without dependencies, beside this venv's), the cache step as a
    cache hit (the schemas already there); the build writes the packages and the report that the
    publish step uploads."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.email=a@example.edu", "-c", "user.name=A"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    (repo / "quizzes").mkdir()
    code, _, err = run("init", "quizzes", "--install", f"qti-builder @ {ROOT.as_uri()}", cwd=repo)
    assert code == 0, err
    # The team's settings build elsewhere on their machines: the workflow still publishes dist/.
    (repo / "quizzes" / "qti-builder.toml").write_text('out = "public"\n', encoding="utf-8")
    # A second quiz, broken: the build fails the job at its line, and still publishes the good one.
    (repo / "quizzes" / "source" / "broken.md").write_text(
        "---\nid: broken\ntitle: B\n---\n\n1. Which? {#which}\n\nA) x\nB) y\n\nAnswer: C\n", encoding="utf-8")
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "quizzes"], cwd=repo, check=True)
    workflow = yaml.safe_load((repo / ".github/workflows/quizzes.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["build"]
    here = repo / job["defaults"]["run"]["working-directory"]
    site, bin_dir = tmp_path / "site", tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")  # setup-python's `python`
    (bin_dir / "python").chmod(0o755)
    env = {**os.environ, "PATH": f"{site / 'bin'}:{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(site),
           # the install step's pip: into its own folder, the dependencies taken from this venv
           "PIP_TARGET": str(site), "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_QUIET": "1"}
    env.pop("QTI_BUILDER_SCHEMAS", None)
    ran: list[str] = []
    for step in job["steps"]:
        uses = step.get("uses", "")
        if uses.startswith("actions/cache@"):  # a cache hit: the folder as a previous run left it
            shutil.copytree(SCHEMAS, repo / step["with"]["path"])
            continue
        if uses.startswith("actions/upload-artifact@"):
            assert step["if"] == "always()"  # after the failed build
            published = repo / step["with"]["path"]
            assert {"first-quiz.canvas.zip", "first-quiz.moodle.xml", "first-quiz.qti21.zip", "report.json"} <= {
                p.name for p in published.iterdir()}
            ran.append("publish")
            continue
        if "run" not in step:
            continue
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], cwd=here, env=env, capture_output=True, text=True)
        if "qti-builder build" in step["run"]:  # fails the job, with the annotation on the broken line
            assert done.returncode == 1, (done.stdout, done.stderr)
            assert done.stdout.startswith("::error file=source/broken.md,line=11,col=9,title=qti-builder QB126::")
            ran.append(step["name"])
            continue
        assert done.returncode == 0 or step.get("continue-on-error"), (step.get("name"), done.stdout, done.stderr)
        ran.append(step.get("name", step["run"]))
    assert ran == ["Install qti-builder", "Fetch the official schemas",
                   "Build every quiz (each problem an annotation on its line, the report in dist/)", "publish"]
    assert (site / "qti_builder" / "__init__.py").is_file()  # the install step installed this checkout
    report = json.loads((here / "dist" / "report.json").read_text(encoding="utf-8"))
    assert not report["ok"] and [(q["id"], q["status"]) for q in report["quizzes"]] == [(None, "failed"), ("first-quiz", "ok")]


@pytest.mark.parametrize("line", ["dist", "/dist", "dist/", "/dist/"])
def test_init_adds_no_dist_to_a_gitignore_that_ignores_it(tmp_path: Path, line: str) -> None:
    (tmp_path / ".gitignore").write_text(f"{line}\n.qti-builder-schemas\n", encoding="utf-8")
    code, out, _ = run("init", "--install", "qti-builder==9.9", cwd=tmp_path)
    assert code == 0 and "skipped .gitignore: it already ignores dist/, .qti-builder-schemas/" in out.splitlines()
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == f"{line}\n.qti-builder-schemas\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_installed_from_a_pushed_clone_the_workflow_installs_that_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's `pip install .` in a clone of qti-builder: pip records only the folder, and
    the folder is a Git checkout whose commit is on its https remote (a remote-tracking branch
    holds it). The workflow installs that repository at that commit, which is what runs here,
    and init warns of nothing. A changed tracked file, or a commit not pushed, is not what a
    runner would install: init then says what to put there, as for any local folder."""
    checkout = tmp_path / "qti-builder"
    checkout.mkdir()
    git = ["git", "-c", "user.email=a@example.edu", "-c", "user.name=A"]
    subprocess.run([*git, "init", "-q"], cwd=checkout, check=True)
    subprocess.run([*git, "remote", "add", "origin", "https://github.com/acme/qti-builder.git"], cwd=checkout, check=True)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'qti-builder'\n", encoding="utf-8")
    subprocess.run([*git, "add", "-A"], cwd=checkout, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "x"], cwd=checkout, check=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True).stdout.strip()
    installed_from(monkeypatch, {"url": checkout.as_uri(), "dir_info": {}})

    from qti_builder import starter

    assert starter.default_install() is None  # the commit is on no branch of the remote yet
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", commit], cwd=checkout, check=True)  # as a push leaves it
    assert starter.default_install() == f"qti-builder @ git+https://github.com/acme/qti-builder.git@{commit}"
    code, out, err = run("init", "project", cwd=tmp_path)
    assert (code, err) == (0, "")
    [install] = [s for s in workflow_steps(tmp_path / "project" / ".github/workflows/quizzes.yml") if s.get("name") == "Install qti-builder"]
    assert install["run"] == f'python -m pip install "qti-builder @ git+https://github.com/acme/qti-builder.git@{commit}"'
    # A tracked file changed since the commit: what was installed is not the commit.
    (checkout / "pyproject.toml").write_text("[project]\nname = 'qti-builder'\nversion = '9'\n", encoding="utf-8")
    assert starter.default_install() is None
    # An editable install of a clean checkout is the same; a remote a runner needs keys for is not written.
    subprocess.run(["git", "checkout", "-q", "--", "pyproject.toml"], cwd=checkout, check=True)
    installed_from(monkeypatch, {"url": checkout.as_uri(), "dir_info": {"editable": True}})
    assert starter.default_install() == f"qti-builder @ git+https://github.com/acme/qti-builder.git@{commit}"
    # A token in the clone's remote URL (as CI clones have it) is not written into the workflow.
    subprocess.run(["git", "remote", "set-url", "origin", "https://x-access-token:s3cret@github.com/acme/qti-builder.git"],
                   cwd=checkout, check=True)
    assert starter.default_install() == f"qti-builder @ git+https://github.com/acme/qti-builder.git@{commit}"
    subprocess.run(["git", "remote", "set-url", "origin", "git@github.com:acme/qti-builder.git"], cwd=checkout, check=True)
    assert starter.default_install() is None


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_second_project_in_a_repository_gets_a_workflow_of_its_own(tmp_path: Path) -> None:
    """Two courses in one repository: the second init does not skip the workflow because the
    first one's is there (its commands run in the first course only, so the second would never
    be built); it writes one of its own, named after its folder, with its own schema cache key
    and artifact. init again in the first course finds its workflow and leaves it."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "courses").mkdir()
    assert run("init", "bio", "--install", "qti-builder==9.9", cwd=tmp_path / "courses")[0] == 0
    code, out, err = run("init", "chem lab", "--install", "qti-builder==9.9", cwd=tmp_path / "courses")
    assert code == 0, err
    assert "wrote ../.github/workflows/quizzes-courses-chem-lab.yml" in out.splitlines()
    assert "The workflow .github/workflows/quizzes-courses-chem-lab.yml (at the repository's root" in out
    first = yaml.safe_load((tmp_path / ".github/workflows/quizzes.yml").read_text(encoding="utf-8"))
    second = yaml.safe_load((tmp_path / ".github/workflows/quizzes-courses-chem-lab.yml").read_text(encoding="utf-8"))
    assert first["jobs"]["build"]["defaults"]["run"]["working-directory"] == "courses/bio"
    assert second["jobs"]["build"]["defaults"]["run"]["working-directory"] == "courses/chem lab"
    steps = second["jobs"]["build"]["steps"]
    [cache] = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    [publish] = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert cache["with"]["key"] == "qti-builder-schemas-${{ hashFiles('.github/workflows/quizzes-courses-chem-lab.yml') }}"
    assert (publish["with"]["name"], publish["with"]["path"]) == ("quizzes-courses-chem-lab", "courses/chem lab/dist/")
    assert second["name"] != first["name"]
    code, out, _ = run("init", "bio", "--install", "qti-builder==9.9", cwd=tmp_path / "courses")
    assert code == 0 and "skipped ../.github/workflows/quizzes.yml: it exists" in out.splitlines()
    assert sorted(p.name for p in (tmp_path / ".github/workflows").iterdir()) == ["quizzes-courses-chem-lab.yml", "quizzes.yml"]
    # A project at the root itself, beside them, gets its own too, running at the root.
    code, out, _ = run("init", "--install", "qti-builder==9.9", cwd=tmp_path)
    assert code == 0 and "wrote .github/workflows/quizzes-root.yml" in out.splitlines()
    root = yaml.safe_load((tmp_path / ".github/workflows/quizzes-root.yml").read_text(encoding="utf-8"))
    assert "defaults" not in root["jobs"]["build"]
