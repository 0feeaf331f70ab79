"""Where the project's settings file is (``qti-builder.toml``, or ``pyproject.toml`` with a
``[tool.qti-builder]`` table), apart from :mod:`.project`, which reads and checks it with a
pydantic model: a command run where no settings file applies (most of them) finds that out
without importing pydantic for it."""

from __future__ import annotations

import re
from pathlib import Path

CONFIG_FILE = "qti-builder.toml"
PYPROJECT = "pyproject.toml"
#: The table of ``pyproject.toml`` that holds the settings.
PYPROJECT_TABLE = ("tool", "qti-builder")


def find_project(start: Path | None = None) -> Path | None:
    """The settings file that applies in ``start`` (the working folder): ``qti-builder.toml``, or a
    ``pyproject.toml`` with a ``[tool.qti-builder]`` table, in it or the nearest parent, up to the
    root of its Git repository."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / CONFIG_FILE).is_file():
            return candidate / CONFIG_FILE
        pyproject = candidate / PYPROJECT
        if pyproject.is_file() and _mentions_table(pyproject):
            return pyproject
        if (candidate / ".git").exists():
            return None
    return None


def _mentions_table(pyproject: Path) -> bool:
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r"^\s*\[\s*tool\s*\.\s*[\"']?qti-builder[\"']?\s*[.\]]", text, re.M) is not None
