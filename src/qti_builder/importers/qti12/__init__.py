"""QTI 1.2 from the systems course designers leave: Blackboard Learn (pool and test exports, their
``res00001.dat`` packages), Brightspace/D2L, Respondus, WebCT/Blackboard Vista and plain IMS QTI
1.2 -> one quiz per assessment (or question pool).

Canvas imports all of these through one path (instructure's QTIMigrationTool, then its QTI
converter), and so does this importer: the Canvas reader (:mod:`..canvas`) reads QTI 1.2 by local
name, whatever wrote it, and knows each system's own question types
(:mod:`..canvas.flavours`), how Blackboard marks up text (``mat_extension/mat_formattedtext``,
``flow``), scores (``SCORE.max``) and stores its files (``csfiles/home_dir/…__xid-123_1.png``).
This module only finds such packages: what sets them apart from Canvas's own exports is their
files, not their reading.

- a zip or folder with a ``.dat`` file that is a ``questestinterop`` (Blackboard), a manifest
  naming Blackboard's QTI resources (``assessment/x-bb-qti-test``, ``x-bb-qti-pool``) or IMS QTI
  1.2 ones (``imsqti_xmlv1p2``), or any ``.xml`` file that is a ``questestinterop`` (D2L's
  ``quiz_d2l_*.xml``, Respondus, WebCT);
- a single QTI 1.2 file (``.xml``, ``.dat``, ``.qti``);

and none of it Canvas's (a settings file ``assessment_meta.xml``, a course export's
``non_cc_assessments/``, Canvas's item fields ``question_type``, ``cc_profile``,
``points_possible``): those are ``canvas`` inputs. The two read alike; the format only names the
system in messages and in ``--format``.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

from ...diagnostics import DiagnosticSink
from ..base import ImportedQuiz
from ..canvas.package import PackageReader
from ..safety import MAX_ENTRIES, read_package, utf8_xml, xml_root

__all__ = ["import_qti12", "sniff"]

QTI12_ROOT = re.compile(rb"<(\w+:)?questestinterop[\s>]")
#: What a manifest of QTI 1.2 resources says: Blackboard's resource types, IMS QTI 1.2's.
QTI12_MANIFEST = re.compile(rb"x-bb-qti-(test|pool|survey)|imsqti_xmlv1p2|ims_qtiasiv1p2", re.I)
#: What only Canvas's packages (and text2qti's, and ours) hold.
CANVAS_MARKS = re.compile(rb"question_type|cc_profile|cc_maxattempts|points_possible|root_section|text2qti", re.I)
CANVAS_FILES = re.compile(r"(^|/)assessment_meta\.xml$|\.xml\.qti$|^non_cc_assessments/", re.I)
#: How much of a file the sniffer reads (never a whole entry: it may be a bomb).
SNIFF_BYTES = 64 * 1024
#: How many files of a package the sniffer opens, at most.
SNIFF_FILES = 40


def sniff(path: Path, head: bytes) -> bool:
    if path.is_file() and not head.startswith(b"PK"):
        return xml_root(path, head) == "questestinterop" and not CANVAS_MARKS.search(utf8_xml(_read_file(path)))
    if path.is_dir():
        return _any_qti12(((p.relative_to(path).as_posix(), p) for p in sorted(path.rglob("*")) if p.is_file()), _read_file)
    if head.startswith(b"PK"):
        try:
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist()[:MAX_ENTRIES] if not n.endswith("/")]
                return _any_qti12(((n.replace("\\", "/"), n) for n in names), lambda n: _read_entry(archive, n))
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError, zlib.error, ValueError):
            return False
    return False


def _any_qti12(entries, read) -> bool:  # type: ignore[no-untyped-def]
    """Is a package (its files, each opened with ``read``) QTI 1.2, and not Canvas's?"""
    opened, found = 0, False
    for name, handle in entries:
        lower = name.lower()
        base = lower.rsplit("/", 1)[-1]
        if CANVAS_FILES.search(lower):
            return False
        if base == "imsmanifest.xml" or lower.endswith((".dat", ".xml", ".qti")):
            if opened >= SNIFF_FILES:
                break
            opened += 1
            data = utf8_xml(read(handle))
            is_qti = QTI12_ROOT.search(data[:8192]) is not None
            if is_qti and CANVAS_MARKS.search(data):
                return False
            found = found or is_qti or (base == "imsmanifest.xml" and QTI12_MANIFEST.search(data) is not None)
    return found


def _read_file(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(SNIFF_BYTES)


def _read_entry(archive: zipfile.ZipFile, name: str) -> bytes:
    with archive.open(name) as handle:
        return handle.read(SNIFF_BYTES)


def import_qti12(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    """Every assessment and question pool in a QTI 1.2 package or file; problems go to ``sink``."""
    package = read_package(path, display, sink)
    return PackageReader(path, package, sink).read() if package is not None else []
