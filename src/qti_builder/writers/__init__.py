"""Writers turn the model into one target format each. One module per target."""

from __future__ import annotations

from .base import Document, Output, Writer
from .canvas import CanvasWriter
from .moodle import MoodleXmlWriter
from .moodle_backup import MoodleBackupWriter
from .qti21 import Qti21Writer

WRITERS: dict[str, type[Writer]] = {w.name: w for w in (Qti21Writer, MoodleXmlWriter, CanvasWriter, MoodleBackupWriter)}
#: The targets a build writes unless ``--format`` says otherwise: the Moodle quiz backup is asked
#: for by name until real Moodle has restored it as solid as the others (docs/moodle-quiz.md).
DEFAULT_FORMATS: tuple[str, ...] = ("qti21", "moodle", "canvas")

__all__ = ["DEFAULT_FORMATS", "WRITERS", "MoodleBackupWriter", "CanvasWriter", "Document", "MoodleXmlWriter", "Output", "Qti21Writer", "Writer"]
