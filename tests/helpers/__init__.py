"""Shared test helpers, one meaning per name (tests import them as ``from helpers import ...`` or
``from helpers.<module> import ...``; ``conftest.py`` holds only fixtures and settings):

=============================  ================================================================
``helpers``                    paths (ROOT, SEED_SOURCE, SCHEMAS), namespaces, ``write``,
                               ``read_written`` (a source text's quiz), ``zip_members``
``helpers.text``               the visible text of an element (``element_text``) or of an HTML
                               fragment (``html_text``)
``helpers.cli``                ``run``: the ``qti-builder`` command in-process; ``check_source``:
                               ``check`` on one source, its diagnostics parsed (``Reported``)
``helpers.reading``            a Markdown source written in a test read as ``build`` reads it:
                               its quiz and diagnostics, and ``place`` (a line and column found
                               by searching the source's text)
``helpers.browser``            Debian's Chromium for Playwright: ``CHROMIUM``, ``FLAGS``
``helpers.importing``          the importers' helpers: ``run_import``, ``builds``, ``imported_one``...
``helpers.roundtrip``          ``expected_after``: what each target cannot carry of a model
                               (``calculated_after``: of a calculated question)
``helpers.schemas``            ``official_schemas``: xmlschema over the official QTI 2.1 / CP XSDs
``helpers.canvas``             the Canvas package's QTI 1.2 by plain names (``local_names``) and
                               as the QTI 1.2.1 DTD can judge it (``dtd_copy``)
``helpers.outputs``            ``build_all``: a source built into all three targets, parsed whole
                               (``Outputs``), to look at a question in each by its id
``helpers.strategies``         Hypothesis strategies: generated quizzes of every kind
``helpers.seed_expectations``  the seed quiz's expected content, written out by hand
``helpers.calculated``         the calculated fixture's answers written by hand, an item
                               template's sets (``qti_sets``), the source's formulas computed as
                               its docs define them (``source_eval``), a set checked (``set_problems``)
``helpers.lms_formulas``       formulas evaluated as Moodle and as Canvas evaluate them
``helpers.qti21_engine``       QTI 2.1 scoring by pyslet, an independent engine
``helpers.qti12_engine``       QTI 1.2 response processing for the Canvas package (this project's
                               own, from the QTI 1.2 ASI spec: no engine in the registries runs)
``helpers.moodle_engine``      Moodle's reading and grading of Moodle XML, from Moodle's own code
``helpers.scoring``            one question's responses scored in all three outputs
``helpers.parted``             ``compare_with_rendered``: a chunk's result taken out of a
                               chunk before against rendering its questions now
=============================  ================================================================
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz

ROOT = Path(__file__).resolve().parent.parent.parent
SEED_SOURCE = ROOT / "source" / "ray-train-tune.md"
#: The workspace's seed quiz, as scraped (the importers' first test case).
SEED = ROOT.parent / "shared" / "seed" / "ray-train-tune-quiz.ko.txt"


def schemas_for_tests(environ: dict[str, str] | os._Environ[str], beside: Path) -> Path:
    """The official schemas the tests validate with: ``QTI_BUILDER_SCHEMAS`` when set, else the
    workspace's offline copy ``beside`` the checkout, else the tool's own download cache, filled
    once (each file checked against its pinned sha256), as a fresh clone has neither."""
    if environ.get("QTI_BUILDER_SCHEMAS"):
        return Path(environ["QTI_BUILDER_SCHEMAS"])
    if beside.is_dir():
        return beside
    from qti_builder.schemas import resolve_schema_dir

    return resolve_schema_dir()



SCHEMAS = schemas_for_tests(os.environ, ROOT.parent / "shared" / "schemas")
os.environ["QTI_BUILDER_SCHEMAS"] = str(SCHEMAS)

QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
NS = {"q": QTI_NS, "cp": CP_NS, "lom": "http://ltsc.ieee.org/xsd/LOM", "md": "http://www.imsglobal.org/xsd/imsqti_metadata_v2p1"}


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def broken_include_errors(tmp_path: Path, template: str) -> tuple[Path, list[str]]:
    """An essay quiz built for the target of ``template`` (``canvas/item_essay.xml.j2``) with a
    --templates override of it that includes a file it does not have: the source, and the
    problems the build reports, rendered. The build must fail and write nothing."""
    import pytest

    from qti_builder import BuildOptions, build
    from qti_builder.pipeline import BuildIncomplete

    target = template.split("/")[0]
    source = write(tmp_path, "essay.md", "---\ntitle: Essay\n---\n\n1. Explain recursion. {#why type=essay}\n")
    override = tmp_path / "templates" / template
    override.parent.mkdir(parents=True)
    override.write_text('{% include "' + target + '/nowhere.xml.j2" %}', encoding="utf-8")
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=[target], templates=tmp_path / "templates"))
    assert not (tmp_path / "dist").exists()
    return source, [d.render() for d in failed.value.diagnostics]


def read_written(tmp_path: Path, name: str, text: str) -> Quiz:
    """The quiz a source reads as (``text`` written to ``tmp_path/name``); it must read."""
    sink = DiagnosticSink()
    result = read_quiz(write(tmp_path, name, text), sink)
    assert result is not None, [d.render() for d in sink.items]
    return result[0]
