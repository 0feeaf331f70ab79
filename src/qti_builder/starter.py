"""``qti-builder init``: a new project, or qti-builder's files added to an existing repository,
from the files in qti-builder's ``starter/`` folder.

The files are package data (``resources.data_dir("starter")``), kept under plain names there so
that no packaging step and no VCS treats them as the repository's own ``.gitignore`` or workflow.
``init`` overwrites nothing: a file that exists is skipped (and said so), except ``.gitignore``,
which gets the lines it lacks appended.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from . import __version__
from .diagnostics import display_path
from .package import write_files
from .resources import data_dir

#: The starter quiz of each language (``--language``): a question of each type that every output
#: carries whole, so that the first build loses nothing.
QUIZZES = {"en": "quiz/en.md", "ko": "quiz/ko.md"}
QUIZ = "source/first-quiz.md"
GITIGNORE = ".gitignore"
WORKFLOW = ".github/workflows/quizzes.yml"
#: The install line of the shipped workflow as the starter folder writes it; ``plan`` puts the
#: install spec there (:func:`default_install`, or ``init --install SPEC``).
DEFAULT_INSTALL = f"qti-builder=={__version__}"


def _recorded_origin() -> dict[str, object]:
    """Where pip installed this qti-builder from (PEP 610 ``direct_url.json``); empty when it came
    from a package index, which records nothing."""
    try:
        recorded = metadata.distribution("qti-builder").read_text("direct_url.json")
        origin = json.loads(recorded) if recorded else {}
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    return origin if isinstance(origin, dict) else {}


def default_install() -> str | None:
    """What the workflow should install: the source this qti-builder itself came from, when a CI
    runner can reach it, as pip records it (PEP 610 ``direct_url.json``): a Git repository at its
    commit, an archive URL; a release of this version when it came from a package index (which
    records nothing); for a local folder (the README's ``pip install .`` in a clone), the Git
    repository it is a clone of, at the commit it holds, when that commit is pushed there
    (:func:`_pushed_checkout`). ``None`` for any other local folder or file, which is nowhere on
    a runner, and a pinned release of it may be on no index either (:func:`install_advice` says
    what to do)."""
    origin = _recorded_origin()
    if not origin:
        return DEFAULT_INSTALL
    url = str(origin.get("url", ""))
    if url.startswith("file://") and "dir_info" in origin:
        return _pushed_checkout(_local_path(url))
    if not url.startswith(("https://", "http://", "ssh://", "git@")):
        return None
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return f"qti-builder @ git+{_without_credentials(url)}@{vcs['commit_id']}"
    return f"qti-builder @ {_without_credentials(url)}" if "archive_info" in origin else None


def install_advice() -> list[str]:
    """Why the workflow cannot install this qti-builder, and what to put in its install step: a
    local folder that is a Git checkout suggests its remote at its commit (if that is pushed)."""
    url = str(_recorded_origin().get("url", ""))
    where = str(_local_path(url)) if url.startswith("file://") else "a local file or folder"
    lines = [f"warning: this qti-builder was installed from {where}, which a CI runner cannot reach, and "
             f"qti-builder=={__version__} may be on no package index: the workflow's install step fails until you "
             "put there what pip installs (qti-builder docs ci#github-actions)"]
    folder = Path(where)
    if url.startswith("file://") and folder.is_dir():
        remote = _git(folder, "remote", "get-url", "origin")
        commit = _git(folder, "rev-parse", "HEAD")
        if remote and commit and remote.startswith(("https://", "ssh://", "git@")):
            remote = _without_credentials(remote)
            lines.append(f"  that folder is a Git checkout of {remote}; once commit {commit[:12]} is pushed there: "
                         f"qti-builder @ git+{remote}@{commit}")
    lines.append("  or a release from your package index, such as qti-builder==<version>, or a wheel kept in the repository")
    return lines


def _local_path(url: str) -> Path:
    """The folder or file of a ``file://`` URL as pip records it (percent-encoded)."""
    return Path(url2pathname(urlparse(url).path))


def _pushed_checkout(folder: Path) -> str | None:
    """``qti-builder @ git+REMOTE@COMMIT`` for a Git checkout whose files are its commit's (no
    change to a tracked file) and whose commit a branch of its https remote holds, as the
    checkout last saw it (a remote-tracking branch contains it): what a CI runner can install,
    and what runs here (an editable install's files are the checkout's; a copy made by
    ``pip install .`` is what the checkout held then). None otherwise: an unpushed commit or a
    changed file would install something else, or nothing. A user name or token in the remote's
    URL is never written into the workflow, which the repository publishes."""
    if not folder.is_dir():
        return None
    remote = _git(folder, "remote", "get-url", "origin")
    commit = _git(folder, "rev-parse", "HEAD")
    if not remote or not commit or not remote.startswith("https://"):
        return None
    try:
        status = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    if status.returncode != 0 or status.stdout.strip():
        return None  # a tracked file changed: the commit is not what was installed
    if not _git(folder, "branch", "--remotes", "--contains", commit):
        return None  # not pushed, as far as the checkout knows
    return f"qti-builder @ git+{_without_credentials(remote)}@{commit}"


def _without_credentials(url: str) -> str:
    """``url`` without a user name or token (``https://user:token@host/...``): the workflow is
    committed and published, and init's advice may be pasted into one."""
    parts = urlparse(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl() if "@" in parts.netloc else url


def _git(folder: Path, *args: str) -> str | None:
    """A git command's one-line answer in ``folder``; ``None`` when git or the repository is not there."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def repository_root(folder: Path) -> Path | None:
    """The root of the Git work tree ``folder`` is in (or will be in, once made), where GitHub looks
    for ``.github/workflows/``; ``None`` outside a repository or without git."""
    existing = folder.resolve()
    while not existing.is_dir():
        existing = existing.parent
    root = _git(existing, "rev-parse", "--show-toplevel")
    return Path(root).resolve() if root else None


#: The install step of the shipped workflow, as the starter folder writes it.
INSTALL_LINE = f'        run: python -m pip install "{DEFAULT_INSTALL}"\n'
#: The install step when init cannot tell what a runner can install: it fails, saying what to do.
NO_INSTALL_LINE = ("        run: |\n"
                   "          echo \"::error::qti-builder init could not tell what a CI runner can install: put what pip "
                   "installs here (qti-builder docs ci)\"\n"
                   "          exit 1\n")


def workflow_name(root: Path | None, below: str | None) -> str:
    """Where the project's workflow goes, below the repository's root: ``quizzes.yml``, unless a
    project in another folder of the repository has it already (its commands run there): then a
    workflow of this project's own, named after its folder (``quizzes-courses-chem.yml``), so that
    every project of the repository is built, not only the first one given a workflow."""
    if root is None:
        return WORKFLOW
    existing = root / WORKFLOW
    if not existing.is_file():
        return WORKFLOW
    text = existing.read_text(encoding="utf-8", errors="replace")
    if (f"working-directory: {json.dumps(below)}\n" in text) if below else "working-directory:" not in text:
        return WORKFLOW
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", below).strip("-.") if below else "root"
    return f".github/workflows/quizzes-{slug or 'project'}.yml"


def workflow_text(install: str | None, working_directory: str | None = None, name: str = WORKFLOW) -> str:
    """The starter workflow with its install step, and, for a project in a repository's subfolder,
    its commands run in that folder and its paths (the schema cache, the published dist/) below it;
    a workflow of another ``name`` (a second project's) keys its schema cache and names its
    artifact by its own file and folder."""
    text = (data_dir("starter") / "github-workflow.yml").read_text(encoding="utf-8")
    assert INSTALL_LINE in text, "starter/github-workflow.yml's install step changed: update INSTALL_LINE"
    text = text.replace(INSTALL_LINE, NO_INSTALL_LINE if install is None else INSTALL_LINE.replace(DEFAULT_INSTALL, install))
    if working_directory:
        quoted = json.dumps(working_directory)  # a JSON string is a YAML double-quoted scalar
        text = text.replace("    runs-on: ubuntu-latest\n",
                            f"    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: {quoted}\n")
        text = text.replace("path: .qti-builder-schemas\n", f"path: {json.dumps(working_directory + '/.qti-builder-schemas')}\n")
        text = text.replace("path: dist/\n", f"path: {json.dumps(working_directory + '/dist/')}\n")
    if name != WORKFLOW:
        text = text.replace(f"hashFiles('{WORKFLOW}')", f"hashFiles('{name}')")
        text = text.replace("name: quizzes\n", f"name: {json.dumps('quizzes ' + (working_directory or '(root)'))}\n", 1)
        text = text.replace("          name: quizzes\n", f"          name: {json.dumps(Path(name).stem)}\n", 1)
    return text


@dataclass
class Plan:
    """What ``init`` will do in a folder."""

    #: New files, and a ``.gitignore`` with lines appended, as they will be written.
    files: list[tuple[Path, bytes]] = field(default_factory=list)
    #: ``.gitignore`` lines appended to an existing file.
    appended: list[str] = field(default_factory=list)
    #: Files that exist and are left as they are, with why.
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    #: The project's folder below its repository's root, where the workflow runs its commands.
    workflow_folder: str | None = None
    #: The workflow's file, below the repository's root (:func:`workflow_name`).
    workflow: str = WORKFLOW


def plan(folder: Path, language: str = "en", install: str | None = DEFAULT_INSTALL) -> Plan:
    """What ``init`` writes into ``folder``: every starter file that is not there yet. The workflow
    goes to the root of the Git repository ``folder`` is in, the only place GitHub runs it from."""
    base = data_dir("starter")
    root = repository_root(folder)
    below = folder.resolve().relative_to(root).as_posix() if root and folder.resolve() != root else None
    workflow = workflow_name(root, below)
    wanted = {
        QUIZ: (base / QUIZZES[language]).read_bytes(),
        GITIGNORE: (base / "gitignore").read_bytes(),
        workflow: workflow_text(install, below, workflow).encode("utf-8"),
    }
    result = Plan(workflow_folder=below, workflow=workflow)
    for name, content in wanted.items():
        path = (root if root is not None and name == workflow and below else folder) / name
        if name == QUIZ and not path.exists() and _has_quizzes(path.parent):
            result.skipped.append((path, f"{display_path(path.parent)}/ has quizzes already"))
        elif not (path.exists() or path.is_symlink()):
            result.files.append((path, content))
        elif name == GITIGNORE and path.is_file():
            _join_gitignore(path, content.decode("utf-8"), result)
        else:
            result.skipped.append((path, "it exists"))
    return result


def _has_quizzes(folder: Path) -> bool:
    from .readers import SOURCE_SUFFIXES

    return folder.is_dir() and any(p.suffix.lower() in SOURCE_SUFFIXES for p in folder.rglob("*") if p.is_file())


def _join_gitignore(path: Path, starter: str, result: Plan) -> None:
    """Append the starter's ignore lines that ``path`` lacks (comments aside), never rewriting its own."""
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    have = {_ignored_name(line) for line in text.splitlines()}
    missing = [line for line in starter.splitlines()
               if line.strip() and not line.startswith("#") and _ignored_name(line) not in have]
    if not missing:
        result.skipped.append((path, "it already ignores " + ", ".join(
            line for line in starter.splitlines() if line.strip() and not line.startswith("#"))))
        return
    joined = text + ("" if not text or text.endswith("\n") else "\n") + "\n# qti-builder's build output\n" + "".join(f"{m}\n" for m in missing)
    result.files.append((path, joined.encode("utf-8", errors="surrogateescape")))
    result.appended = missing


def _ignored_name(line: str) -> str:
    """A .gitignore line as the top-level name it ignores: ``dist``, ``/dist``, ``dist/`` and
    ``/dist/`` all keep dist/ out of git, so one of them is enough."""
    return line.strip().strip("/")


def write(plan: Plan) -> None:
    """Write every file of the plan, or none (temporary files renamed into place together)."""
    write_files(plan.files)


def _shown(path: Path) -> str:
    """A path relative to the working folder, even above it (the workflow at a repository's root)."""
    return os.path.relpath(path.resolve(), Path.cwd().resolve()) if path.is_absolute() else display_path(path)


def report(plan: Plan) -> list[str]:
    """What ``init`` did, a line per file."""
    lines = []
    for path, _ in plan.files:
        if path.name == GITIGNORE and plan.appended:
            lines.append(f"added {', '.join(plan.appended)} to {display_path(path)}")
        else:
            lines.append(f"wrote {_shown(path)}")
    lines += [f"skipped {_shown(path)}: {why}" for path, why in plan.skipped]
    return lines


#: What ``init`` tells a newcomer to run first, in the new project (tests/test_init.py runs them);
#: ``{id}`` is the starter quiz's id, or ``<quiz-id>`` when the folder had quizzes of its own.
NEXT_STEPS = (
    "qti-builder check      # reads and validates every quiz in source/; writes nothing",
    "qti-builder build      # writes dist/{id}.canvas.zip, dist/{id}.moodle.xml, dist/{id}.mbz and dist/{id}.qti21.zip",
    "qti-builder preview    # writes dist/preview/index.html: every question as students will see it",
)

#: Which file goes into which LMS, and where in it.
IMPORT_WHERE = (
    "Canvas: dist/{id}.canvas.zip (Settings > Import Course Content > QTI .zip file)",
    "Moodle, the whole quiz: dist/{id}.mbz (the course's More > Course reuse > Restore)",
    "Moodle, its questions only: dist/{id}.moodle.xml (Question bank > Import > Moodle XML format)",
    "other QTI 2.1 systems: dist/{id}.qti21.zip",
)


def next_steps(folder: Path, done: Plan, install: str | None = DEFAULT_INSTALL) -> list[str]:
    """What ``init`` prints after the files: the commands to run next, then where to go from there."""
    here = folder.resolve() == Path.cwd().resolve()
    wrote = {path.resolve().relative_to(folder.resolve()).as_posix() for path, _ in done.files
             if path.resolve().is_relative_to(folder.resolve())}
    workflow = any(path.as_posix().endswith(done.workflow) for path, _ in done.files)
    quiz_id = "first-quiz" if QUIZ in wrote else "<quiz-id>"
    where = (f" (at the repository's root, where GitHub runs workflows; it runs its commands in {done.workflow_folder}/)"
             if done.workflow_folder else "")
    return [
        "next, in this folder:" if here else f"next:\n  cd {display_path(folder)}",
        *(f"  {line.format(id=quiz_id)}" for line in NEXT_STEPS),
        "then import each file into its LMS:",
        *(f"  {line.format(id=quiz_id)}" for line in IMPORT_WHERE),
        f"Edit {QUIZ}, or add quizzes beside it (how: qti-builder docs source-format)." if QUIZ in wrote
        else "How to write quizzes: qti-builder docs source-format.",
        *([f"The workflow {done.workflow}{where} installs {install} (for another source: qti-builder docs ci#github-actions)."]
          if workflow and install is not None else []),
        *([f"The workflow {done.workflow}{where} cannot install qti-builder yet: see the warning above."]
          if workflow and install is None else []),
    ]
