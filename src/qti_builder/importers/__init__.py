"""Importers turn what people already have into quiz models: one module per input format.

Each format is a row of :data:`FORMATS`: its name (``--format``), the function that reads an input
into quizzes (problems go to a DiagnosticSink, with the input file and line), and a sniffer that
recognises it from the path and the first bytes. Auto-detection tries the rows in order, so the
specific formats come first and the quiz page, which takes any text, comes last.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..diagnostics import DiagnosticSink, SourceSpan
from .safety import INPUT_FOLDER, LIMITS, ImportLimits, utf8_xml

# The model an import builds (pydantic) is imported when an importer runs, not when the command
# line lists the formats.
if TYPE_CHECKING:
    from .base import ImportedQuiz

Importer = Callable[[Path, str, DiagnosticSink], "list[ImportedQuiz]"]
Sniffer = Callable[[Path, bytes], bool]


@dataclass(frozen=True)
class ImportFormat:
    """One input format: its module (same name) defines ``import_<name>(path, display, sink)``
    and ``sniff(path, head)``. Modules load on first use, so that ``build`` never pays for the
    HTML and Markdown converters only ``import`` needs."""

    name: str
    description: str

    @property
    def read(self) -> Importer:
        return getattr(self._module(), f"import_{self.name}")  # type: ignore[no-any-return]

    @property
    def sniff(self) -> Sniffer:
        return self._module().sniff  # type: ignore[no-any-return]

    def _module(self) -> ModuleType:
        return importlib.import_module(f"{__name__}.{self.name}")


FORMATS: dict[str, ImportFormat] = {f.name: f for f in (
    ImportFormat("mbz", "Moodle quiz backup (.mbz): a quiz activity whole, its sections, slots, random draws, settings and questions"),
    ImportFormat("qti12", "QTI 1.2 of Blackboard (res00001.dat packages), Brightspace/D2L, Respondus, WebCT and plain IMS QTI 1.2"),
    ImportFormat("canvas", "Canvas Classic Quizzes QTI 1.2: a quiz or course export, a text2qti zip, a qti-builder Canvas package"),
    ImportFormat("qti21", "IMS QTI 2.1: a content package (.zip or folder with imsmanifest.xml) or an item file"),
    ImportFormat("moodle", "Moodle XML question export (<quiz> or a bare <question>)"),
    ImportFormat("text2qti", "text2qti plain-text quiz (Quiz title:, *a) choices, [*] answers, = numbers, ____ essays)"),
    ImportFormat("gift", "Moodle GIFT (::name:: text {=right ~wrong}, $CATEGORY: lines)"),
    ImportFormat("aiken", "Moodle Aiken (a question line, A) options, ANSWER: B)"),
    ImportFormat("quizpage", "a quiz page as text or Markdown: questions, lettered options, 'Answer:'/'정답:' and explanations"),
)}

#: How much of a file the sniffers see.
HEAD_BYTES = 16 * 1024


def detect(path: Path) -> ImportFormat | None:
    """The format of ``path``, from its name and first bytes; None for a file that is not text."""
    head = b""
    if path.is_file():
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
        head = utf8_xml(head)  # XML in UTF-16 (WebCT's) is text too
        # Binary: only a zip, or a gzip (a Moodle backup), can be a quiz.
        if b"\0" in head and not head.startswith((b"PK", b"\x1f\x8b")):
            return None
    for fmt in FORMATS.values():
        if fmt.sniff(path, head.lstrip(b"\xef\xbb\xbf \t\r\n")):
            return fmt
    return None


def import_path(
    path: Path, display: str, sink: DiagnosticSink, format: str = "auto", limits: ImportLimits = ImportLimits()
) -> list[ImportedQuiz]:
    """Read one input in ``format`` (or the detected one) within ``limits``; problems go to ``sink``."""
    fmt = FORMATS.get(format) if format != "auto" else detect(path)
    if fmt is None:
        sink.error("QB700", "cannot tell the format of this input" if format == "auto" else f"unknown format '{format}'",
                   SourceSpan(display), hint=f"give --format: {', '.join(FORMATS)}")
        return []
    token, folder = LIMITS.set(limits), INPUT_FOLDER.set(path.parent if _loose(path) else None)
    try:
        return fmt.read(path, display, sink)
    finally:
        INPUT_FOLDER.reset(folder)
        LIMITS.reset(token)


def _loose(path: Path) -> bool:
    """Is ``path`` one loose file, not a package (a folder, a zip, a gzipped backup)? Its media
    references then name files beside it."""
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        head = handle.read(262)
    return not head.startswith((b"PK", b"\x1f\x8b")) and head[257:262] != b"ustar"  # zip, gzip, tar


def __getattr__(name: str) -> Any:
    if name == "ImportedQuiz":
        from .base import ImportedQuiz

        return ImportedQuiz
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "ImportFormat", "ImportedQuiz", "detect", "import_path"]
