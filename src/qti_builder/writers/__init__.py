"""Writers turn the model into one target format each. One module per target."""

from __future__ import annotations

from .base import Document, Output, Writer
from .canvas import CanvasWriter
from .moodle import MoodleXmlWriter
from .qti21 import Qti21Writer

WRITERS: dict[str, type[Writer]] = {w.name: w for w in (Qti21Writer, MoodleXmlWriter, CanvasWriter)}

__all__ = ["WRITERS", "CanvasWriter", "Document", "MoodleXmlWriter", "Output", "Qti21Writer", "Writer"]
