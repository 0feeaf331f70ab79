"""Where the files that ship with qti-builder live: ``templates/``, ``schemas/``, ``starter/`` and ``docs/``.

In a wheel they are package data (``qti_builder/templates``); in a source checkout or an editable
install they are the repository's top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent


def data_dir(name: str) -> Path:
    for base in (_PACKAGE, _CHECKOUT):
        candidate = base / name
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"qti-builder's '{name}' folder is missing from the installation")
