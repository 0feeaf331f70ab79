"""``qti-builder init``: a new project from the files in qti-builder's ``starter/`` folder.

The files are package data (``resources.data_dir("starter")``), kept under plain names there so
that no packaging step and no VCS treats them as the repository's own ``.gitignore`` or workflow.
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import display_path
from .package import write_files
from .resources import data_dir

#: File in ``starter/`` -> where ``init`` writes it in the new project, in the order it says so.
STARTER_FILES = {
    "source/first-quiz.md": "source/first-quiz.md",
    "gitignore": ".gitignore",
    "github-workflow.yml": ".github/workflows/quizzes.yml",
}


def starter_files(folder: Path) -> list[tuple[Path, bytes]]:
    """The starter project's files as they would be written into ``folder``."""
    base = data_dir("starter")
    return [(folder / target, (base / name).read_bytes()) for name, target in STARTER_FILES.items()]


def existing_files(folder: Path) -> list[Path]:
    """The starter files that ``folder`` already has (``init`` overwrites nothing)."""
    return [path for path, _ in starter_files(folder) if path.exists() or path.is_symlink()]


def write_starter(folder: Path) -> list[Path]:
    """Write every starter file, or none (temporary files renamed into place together)."""
    files = starter_files(folder)
    write_files(files)
    return [path for path, _ in files]


#: What ``init`` tells a newcomer to run first, in the new project (tests/test_init.py runs them).
NEXT_STEPS = (
    "qti-builder check      # reads and validates every quiz in source/; writes nothing",
    "qti-builder build      # writes dist/first-quiz.qti21.zip (Canvas) and dist/first-quiz.moodle.xml (Moodle)",
    "qti-builder preview    # writes dist/preview/index.html: every question as students will see it",
)


def next_steps(folder: Path) -> list[str]:
    """What ``init`` prints after the files: the commands to run next, then where to go from there."""
    here = folder.resolve() == Path.cwd().resolve()
    return [
        "next, in this folder:" if here else f"next:\n  cd {display_path(folder)}",
        *(f"  {line}" for line in NEXT_STEPS),
        "then edit source/first-quiz.md, or add quizzes beside it (how: docs/source-format.md in qti-builder's repository).",
        "Before you push, set the install step of .github/workflows/quizzes.yml to where you get qti-builder from.",
    ]
