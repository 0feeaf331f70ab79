"""Canvas Classic Quizzes' own format, QTI 1.2 with Canvas's item metadata -> one quiz per assessment.

Read the way Canvas writes it (canvas-lms ``lib/cc/qti/qti_generator.rb`` and ``qti_items.rb``) and
imports it (docs/lms-behaviour.md, "Canvas Classic Quizzes importing the Canvas package"). One reader takes all of:

- a quiz's QTI export: ``<id>/<id>.xml`` and ``<id>/assessment_meta.xml`` in a zip;
- a course export (``.imscc``): ``<id>/assessment_qti.xml`` (the Common Cartridge subset),
  ``non_cc_assessments/<id>.xml.qti`` (the full quiz, preferred) and question banks;
- text2qti's zip (text2qti 0.8: ``text2qti_assessment_<hash>/...``, images in ``images/``);
- the package qti-builder's Canvas writer makes (item idents ``<quiz-id>.<question-id>``, so
  question ids come back; in the QTI 1.2 namespace now, without one in earlier versions);
- a folder holding any of these unzipped, or a single QTI 1.2 file.

Elements are matched by local name, so the ``ims_qtiasiv1p2`` namespace and none read alike. Each
item becomes the kind its ``question_type`` says (:data:`.kinds.READERS`); a type the model has no
kind for (``calculated_question``, ...) is reported at its line and skipped. What the model cannot
hold (quiz settings it has no field for, per-answer feedback of matching and blank answers, ...)
is a warning at the input file and line.

What lives where, in the order a package is read:

- this module: the entry points, :func:`sniff` and :func:`import_canvas` (input -> files);
- :mod:`.package`: which files hold which assessments, question banks and settings files;
- :mod:`.assessment`: one assessment: title, description and settings (``assessment_meta.xml``),
  sections and question groups, the quiz's language;
- :mod:`.item`: one ``<item>``: its type, points, stem, title and question-level feedback;
- :mod:`.kinds`: one reader per Canvas question type, :data:`~.kinds.READERS`;
- :mod:`.context`: what a kind reader sees: the assessment's :class:`~.context.Scope` and the
  item's :class:`~.context.ItemContext` (its conditions, feedback, text as Markdown);
- :mod:`.processing`: what ``resprocessing`` says (which answer scores, which shows which feedback);
- :mod:`.text`: ``mattext`` as Markdown: Canvas's equation images, media files, blanks.

Imports go one way, down this list (``tests/test_import_layers.py``): a kind reader imports the
context beneath it, never the item or assessment reader above.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

from ...diagnostics import DiagnosticSink
from ..base import ImportedQuiz
from ..safety import MAX_ENTRIES, read_package, utf8_xml, xml_root
from .package import PackageReader

__all__ = ["import_canvas", "sniff"]

#: Files only Canvas-style packages have: the settings file, the full copies of a course export.
CANVAS_FILES = re.compile(r"(^|/)assessment_meta\.xml$|\.xml\.qti$|^non_cc_assessments/", re.I)
QTI12_ROOT = re.compile(rb"<(\w+:)?questestinterop[\s>]")
#: How much of a manifest or an XML file the sniffer reads (never a whole entry: it may be a bomb).
SNIFF_BYTES = 64 * 1024


def sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return _folder_is_canvas(path)
    if head.startswith(b"PK"):
        return _zip_is_canvas(path)
    return xml_root(path, head) == "questestinterop"


def _zip_is_canvas(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n.replace("\\", "/") for n in archive.namelist()[:MAX_ENTRIES]]
            if any(CANVAS_FILES.search(n) for n in names):
                return True
            manifests = [n for n in names if n.lower().rsplit("/", 1)[-1] == "imsmanifest.xml"]
            candidates = manifests[:1] or [n for n in names if n.lower().endswith((".xml", ".qti"))][:20]
            for name in candidates:
                with archive.open(name) as handle:
                    data = utf8_xml(handle.read(SNIFF_BYTES))
                if b"imsqti_xmlv1p2" in data or QTI12_ROOT.search(data):
                    return True
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError, zlib.error, ValueError):
        return False
    return False


def _folder_is_canvas(path: Path) -> bool:
    manifest = path / "imsmanifest.xml"
    if manifest.is_file():
        with manifest.open("rb") as handle:
            if b"imsqti_xmlv1p2" in utf8_xml(handle.read(SNIFF_BYTES)):
                return True
    return (path / "non_cc_assessments").is_dir() or any(path.glob("*/assessment_meta.xml"))


def import_canvas(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    """Every quiz in a Canvas export, a text2qti zip or a qti-builder Canvas package (a zip, a
    folder or a single QTI 1.2 file); problems go to ``sink``, located in the input."""
    package = read_package(path, display, sink)
    return PackageReader(path, package, sink).read() if package is not None else []
