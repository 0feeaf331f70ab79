"""QTI 2.1 (a content package as a zip or a folder, or a single item file) -> one quiz per package.

The package is found through ``imsmanifest.xml`` (with or without a namespace prefix); the
``assessmentTest``, when there is one, gives the sections (nested ``assessmentSection``s, their
``selection``/``ordering``, ``rubricBlock``s) and each item's points (``weight``); without one the
items are one section in manifest order. Elements are matched by local name, so QTI 2.0/2.1/2.2
namespaces and prefixes all read.

Each item becomes the kind its interactions say (:data:`kinds.READERS`). Scores come from the response
declarations' ``mapping``, from written-out response conditions (``stringMatch``,
``patternMatch``, bounds on a float) or from ``correctResponse`` (the standard templates
``match_correct`` and ``map_response`` need nothing else, by URI or written out). Feedback is
placed by its identifier and by the condition that shows it. Gap match, associate and hot text
interactions become fill-in-the-blank, matching and choice questions; an item with an interaction
the model has no kind for (hotspots, sliders, drawing, ...) is reported and skipped. Template-
driven items are read as their first rendering (:mod:`.templates`).

A single item or test file is a loose input: the items and media it refers to are read from its
folder (:meth:`..safety.Package.file`); media that are missing become links, reported.

Packages written by qti-builder (catalog ``qti-builder`` in the manifest) list answers in a fixed
scrambled order (writers.qti21.scrambled); that order is undone, so distractors and drop-down
options come back in the order they were written.

What lives where, in the order a package is read:

- this module: the entry points, :func:`sniff` and :func:`import_qti21` (input -> files);
- :mod:`.package`: :class:`~.package.PackageReader`, the manifest and the test (sections, which
  items, their weights), and the text and media every part of the package shares;
- :mod:`.item`: :class:`~.item.ItemReader`, one ``assessmentItem``: its kind, points, stem and
  feedback;
- :mod:`.kinds`: one reader per kind (choices, answers, pairs, blanks, ...), :data:`~.kinds.READERS`;
- :mod:`.placing`: the readers of gap match, associate and hot text items;
- :mod:`.context`: what a kind reader sees: the package as a :class:`~.context.PackageScope` and
  the item's :class:`~.context.ItemContext` (its responses, feedback, text as Markdown);
- :mod:`.responses`: what response declarations and response processing say (correct answers,
  mappings, the standard template an item scores by, which condition shows which feedback);
- :mod:`.templates`: the first rendering of a template-driven item;
- :mod:`.xml`: element lookups by local name, the helpers everything above uses.

Imports go one way, down this list (``tests/test_import_layers.py``; :mod:`.settings`, the
test's settings, sits beside the item reader): a kind reader imports the context beneath it,
never the item or package reader above.
"""

from __future__ import annotations

from pathlib import Path

from ...diagnostics import DiagnosticSink
from ..base import ImportedQuiz
from ..safety import read_package, xml_root
from .package import PackageReader

__all__ = ["import_qti21", "sniff"]


def sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        # A package folder, or a folder of items and a test without a manifest (zyBooks' export).
        return (path / "imsmanifest.xml").is_file() or any(
            _root_of(p) in ("assessmentItem", "assessmentTest") for p in sorted(path.glob("*.xml"))[:20])
    return head.startswith(b"PK") or xml_root(path, head) in ("assessmentItem", "assessmentTest", "manifest")


def _root_of(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            return xml_root(path, handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n"))
    except OSError:
        return None


def import_qti21(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    # A loose item or test: what it refers to (items, images) is read from beside it.
    package = read_package(path, display, sink, files_beside=True)
    if package is None:
        return []
    quiz = PackageReader(path, package, sink).read()
    return [quiz] if quiz else []
