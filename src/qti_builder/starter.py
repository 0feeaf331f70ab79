"""``qti-builder init``: a new project, or qti-builder's files added to an existing repository,
from the files in qti-builder's ``starter/`` folder.

The files are package data (``resources.data_dir("starter")``), kept under plain names there so
that no packaging step and no VCS treats them as the repository's own ``.gitignore`` or workflow.
``init`` overwrites nothing: a file that exists is skipped (and said so), except ``.gitignore``,
which gets the lines it lacks appended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

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


def default_install() -> str:
    """What the workflow should install: the source this qti-builder itself came from, when a CI
    runner can reach it (a Git repository at its commit, an archive URL), as pip records it
    (PEP 610 ``direct_url.json``); else a pinned release of this version. A local folder or file
    is no use on a runner, so it gives the pinned release too (``init`` says how to change it)."""
    try:
        recorded = metadata.distribution("qti-builder").read_text("direct_url.json")
        origin = json.loads(recorded) if recorded else {}
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = origin.get("url", "") if isinstance(origin, dict) else ""
    if not url.startswith(("https://", "http://", "ssh://", "git@")):
        return DEFAULT_INSTALL
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return f"qti-builder @ git+{url}@{vcs['commit_id']}"
    return f"qti-builder @ {url}" if "archive_info" in origin else DEFAULT_INSTALL


@dataclass
class Plan:
    """What ``init`` will do in a folder."""

    #: New files, and a ``.gitignore`` with lines appended, as they will be written.
    files: list[tuple[Path, bytes]] = field(default_factory=list)
    #: ``.gitignore`` lines appended to an existing file.
    appended: list[str] = field(default_factory=list)
    #: Files that exist and are left as they are, with why.
    skipped: list[tuple[Path, str]] = field(default_factory=list)


def plan(folder: Path, language: str = "en", install: str = DEFAULT_INSTALL) -> Plan:
    """What ``init`` writes into ``folder``: every starter file that is not there yet."""
    base = data_dir("starter")
    workflow = (base / "github-workflow.yml").read_text(encoding="utf-8")
    wanted = {
        QUIZ: (base / QUIZZES[language]).read_bytes(),
        GITIGNORE: (base / "gitignore").read_bytes(),
        WORKFLOW: workflow.replace(f'"{DEFAULT_INSTALL}"', f'"{install}"').encode("utf-8"),
    }
    result = Plan()
    for name, content in wanted.items():
        path = folder / name
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
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in starter.splitlines() if line.strip() and not line.startswith("#") and line.strip() not in have]
    if not missing:
        result.skipped.append((path, "it already ignores " + ", ".join(
            line for line in starter.splitlines() if line.strip() and not line.startswith("#"))))
        return
    joined = text + ("" if not text or text.endswith("\n") else "\n") + "\n# qti-builder's build output\n" + "".join(f"{m}\n" for m in missing)
    result.files.append((path, joined.encode("utf-8", errors="surrogateescape")))
    result.appended = missing


def write(plan: Plan) -> None:
    """Write every file of the plan, or none (temporary files renamed into place together)."""
    write_files(plan.files)


def report(plan: Plan) -> list[str]:
    """What ``init`` did, a line per file."""
    lines = []
    for path, _ in plan.files:
        if path.name == GITIGNORE and plan.appended:
            lines.append(f"added {', '.join(plan.appended)} to {display_path(path)}")
        else:
            lines.append(f"wrote {display_path(path)}")
    lines += [f"skipped {display_path(path)}: {why}" for path, why in plan.skipped]
    return lines


#: What ``init`` tells a newcomer to run first, in the new project (tests/test_init.py runs them);
#: ``{id}`` is the starter quiz's id, or ``<quiz-id>`` when the folder had quizzes of its own.
NEXT_STEPS = (
    "qti-builder check      # reads and validates every quiz in source/; writes nothing",
    "qti-builder build      # writes dist/{id}.canvas.zip, dist/{id}.moodle.xml and dist/{id}.qti21.zip",
    "qti-builder preview    # writes dist/preview/index.html: every question as students will see it",
)

#: Which file goes into which LMS, and where in it.
IMPORT_WHERE = (
    "Canvas: dist/{id}.canvas.zip (Settings > Import Course Content > QTI .zip file)",
    "Moodle: dist/{id}.moodle.xml (Question bank > Import > Moodle XML format)",
    "other QTI 2.1 systems: dist/{id}.qti21.zip",
)


def next_steps(folder: Path, done: Plan, install: str = DEFAULT_INSTALL) -> list[str]:
    """What ``init`` prints after the files: the commands to run next, then where to go from there."""
    here = folder.resolve() == Path.cwd().resolve()
    wrote = {path.relative_to(folder).as_posix() for path, _ in done.files}
    quiz_id = "first-quiz" if QUIZ in wrote else "<quiz-id>"
    return [
        "next, in this folder:" if here else f"next:\n  cd {display_path(folder)}",
        *(f"  {line.format(id=quiz_id)}" for line in NEXT_STEPS),
        "then import each file into its LMS:",
        *(f"  {line.format(id=quiz_id)}" for line in IMPORT_WHERE),
        f"Edit {QUIZ}, or add quizzes beside it (how: qti-builder docs source-format)." if QUIZ in wrote
        else "How to write quizzes: qti-builder docs source-format.",
        *([f"The workflow {WORKFLOW} installs {install} (for another source: qti-builder docs ci#github-actions)."]
          if WORKFLOW in wrote else []),
    ]
