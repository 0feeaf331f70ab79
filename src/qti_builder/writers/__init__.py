"""Writers turn the model into one target format each. One module per target.

Each writer is imported when first used (:data:`WRITERS` knows the targets' names without importing
them), so that the command line can list the targets without importing Jinja and the model.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Document, Output, Writer
    from .canvas import CanvasWriter
    from .moodle import MoodleXmlWriter
    from .moodle_backup import MoodleBackupWriter
    from .qti21 import Qti21Writer

#: Target name -> (module, class) of its writer, in the order targets are built and listed.
_WRITER_CLASSES = {"qti21": ("qti21", "Qti21Writer"), "moodle": ("moodle", "MoodleXmlWriter"),
                   "canvas": ("canvas", "CanvasWriter"), "moodle-quiz": ("moodle_backup", "MoodleBackupWriter")}
#: The targets a build writes unless ``--format`` says otherwise: every one (the Moodle quiz
#: backup too, since Moodle 4.5 restored and graded each test source's: docs/moodle-quiz.md).
DEFAULT_FORMATS: tuple[str, ...] = ("qti21", "moodle", "canvas", "moodle-quiz")
#: Names this package gives, and the module each comes from.
_EXPORTS = {"Document": "base", "Output": "base", "Writer": "base",
            **{cls: module for module, cls in _WRITER_CLASSES.values()}}


class _Writers(Mapping[str, "type[Writer]"]):
    """Target name -> writer class; a writer's module is imported when its class is first asked for."""

    def __getitem__(self, name: str) -> type[Writer]:
        module, cls = _WRITER_CLASSES[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), cls)  # type: ignore[no-any-return]

    def __contains__(self, name: object) -> bool:  # Mapping's own would import the writer
        return name in _WRITER_CLASSES

    def __iter__(self) -> Iterator[str]:
        return iter(_WRITER_CLASSES)

    def __len__(self) -> int:
        return len(_WRITER_CLASSES)

    def __repr__(self) -> str:
        return f"WRITERS({', '.join(_WRITER_CLASSES)})"


WRITERS: Mapping[str, type[Writer]] = _Writers()


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_FORMATS", "WRITERS", "MoodleBackupWriter", "CanvasWriter", "Document", "MoodleXmlWriter", "Output", "Qti21Writer", "Writer"]
