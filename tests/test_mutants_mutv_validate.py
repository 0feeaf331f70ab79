"""The validation gate's build-wide part (validate.py: the manifest's references, the report of
each problem as a user reads it), on documents written by hand or a --templates override whose
mistake is known, with the place found by searching the generated text (tests/README.md,
"Mutation runs (issue 35, fifth session)"): the survivors of validate.py that no other test noticed.

Outside ``[tool.mutmut]``'s test selection, so that adding to it keeps mutmut's results; its
kills are recorded with ``tools/mutation.py --recheck --also`` this file."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, SEED_SOURCE
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed, DiagnosticSink
from qti_builder.pipeline import load_quizzes, render_outputs
from qti_builder.validate import _manifest_rules

HINT = "this is a bug in qti-builder or in a --templates override; please report it with the source"


def test_a_dependency_on_a_resource_the_manifest_does_not_have_is_refused_at_its_line() -> None:
    """libxml2 does not resolve IDREFs: a dependency naming no resource of the manifest breaks the
    import, and is reported at the dependency's own line; one naming a resource passes."""
    manifest = b"""<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M">
<resources>
<resource identifier="RES-TEST" type="imsqti_test_xmlv2p1" href="test.xml">
<file href="test.xml"/>
<dependency identifierref="RES-q1"/>
<dependency identifierref="RES-q2"/>
</resource>
<resource identifier="RES-q1" type="imsqti_item_xmlv2p1" href="items/q1.xml"/>
</resources>
</manifest>"""
    tree = etree.fromstring(manifest).getroottree()
    assert list(_manifest_rules(tree)) == [(6, 1, "dependency on unknown resource 'RES-q2'")]
    resolved = etree.fromstring(manifest.replace(b'"RES-q1" type', b'"RES-q2" type="x"><file href="x"/></resource>'
                                                 b'<resource identifier="RES-q1" type')).getroottree()
    assert list(_manifest_rules(resolved)) == []


def test_a_manifest_override_that_breaks_a_reference_is_qb401_at_its_line_with_the_hint(tmp_path: Path) -> None:
    """What the author of a --templates override reads: the error, the place in the generated
    package (the manifest's line, found in the rendered text), and the hint; nothing written."""
    name = "qti21/imsmanifest.xml.j2"
    template = tmp_path / "templates" / name
    template.parent.mkdir(parents=True)
    text = (ROOT / "templates" / name).read_text(encoding="utf-8")
    first_dependency = "{% for item in items %}\n      <dependency"
    assert first_dependency in text
    template.write_text(text.replace(first_dependency, '<dependency identifierref="RES-nowhere"/>\n' + first_dependency, 1),
                        encoding="utf-8")
    options = BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", templates=tmp_path / "templates",
                           formats=["qti21"])
    sink = DiagnosticSink()
    [output] = render_outputs(load_quizzes(options, sink), options, sink)
    [manifest] = [d for d in output.documents if d.path == "imsmanifest.xml"]
    [line] = [n for n, row in enumerate(manifest.content.decode().splitlines(), 1) if 'identifierref="RES-nowhere"' in row]
    with pytest.raises(BuildFailed) as failed:
        build(options)
    assert [d.render() for d in failed.value.diagnostics if d.severity.value == "error"] == [
        "error[QB401]: dependency on unknown resource 'RES-nowhere'\n"
        f"    in generated file ray-train-tune.qti21.zip/imsmanifest.xml:{line}:1\n"
        f"    hint: {HINT}"]
    assert not (tmp_path / "dist").exists()


def override(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A --templates folder holding the built-in template ``name`` with ``old`` replaced by ``new``."""
    template = tmp_path / "templates" / name
    template.parent.mkdir(parents=True)
    text = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert old in text
    template.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "templates"


def test_a_canvas_assessment_whose_root_is_not_questestinterop_is_refused_at_line_1_and_the_dtd_says_why(
        tmp_path: Path) -> None:
    """An override that renames the assessment's root element: the DTD names the element it does
    not know, at its line (libxml2's: where its start tag ends; a validity error has no column, 0,
    shown as 1), and the root rule says what the root must be, at 1:1 of the assessment inside the
    package."""
    templates = override(tmp_path, "canvas/assessment.xml.j2", "questestinterop", "quizroot")
    options = BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", templates=templates, formats=["canvas"])
    sink = DiagnosticSink()
    [output] = render_outputs(load_quizzes(options, sink), options, sink)
    [assessment] = [d for d in output.documents if d.schema == "qti12"]
    text = assessment.content.decode()
    root_line = text.count("\n", 0, text.index(">", text.index("<quizroot "))) + 1  # where its start tag ends
    place = f"ray-train-tune.canvas.zip/{assessment.path}"
    with pytest.raises(BuildFailed) as failed:
        build(options)
    rendered = [d.render() for d in failed.value.diagnostics if d.severity.value == "error"]
    assert (f"error[QB401]: the root element must be questestinterop\n    in generated file {place}:1:1\n"
            f"    hint: {HINT}") in rendered
    assert (f"error[QB401]: DTD: No declaration for element quizroot\n    in generated file {place}:{root_line}:1\n"
            f"    hint: {HINT}") in rendered
    assert not (tmp_path / "dist").exists()


def test_an_entity_an_override_declares_is_refused_where_it_is_used_never_a_traceback(tmp_path: Path) -> None:
    """Generated documents are read without expanding their DTD's entities (hostile input); one
    left unexpanded made libxml2's schema validation fail with an internal error (a traceback).
    It is an error at the line that uses it, and nothing is written."""
    name = "canvas/assessment_meta.xml.j2"
    template = tmp_path / "templates" / name
    template.parent.mkdir(parents=True)
    text = (ROOT / "templates" / name).read_text(encoding="utf-8")
    stated = "<points_possible>{{ points }}</points_possible>"
    assert stated in text and text.count("<quiz identifier=") == 1
    text = text.replace("<quiz identifier=", '<!DOCTYPE quiz [<!ENTITY pts "{{ points }}">]>\n<quiz identifier=')
    template.write_text(text.replace(stated, "<points_possible>&pts;</points_possible>"), encoding="utf-8")
    options = BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", templates=tmp_path / "templates",
                           formats=["canvas"])
    sink = DiagnosticSink()
    [output] = render_outputs(load_quizzes(options, sink), options, sink)
    [meta] = [d for d in output.documents if d.schema == "canvas-meta"]
    [line] = [n for n, row in enumerate(meta.content.decode().splitlines(), 1) if "&pts;</points_possible>" in row]
    with pytest.raises(BuildFailed) as failed:
        build(options)
    assert [d.render() for d in failed.value.diagnostics if d.severity.value == "error"] == [
        "error[QB401]: entity &pts; is not expanded here, and may not be by the LMS: write its text\n"
        f"    in generated file ray-train-tune.canvas.zip/{meta.path}:{line}:1\n"
        f"    hint: {HINT}"]
    assert not (tmp_path / "dist").exists()


def test_a_backup_with_a_picture_is_still_checked_across_its_parts() -> None:
    """A quiz backup's pictures are members too (no schema, not XML): the cross-part rules still
    run over its XML parts, and a question category the inforef does not list is still refused."""
    from test_validation_mutants import BACKUP, BACKUP_NAMES, INFOREF, QUESTIONS_XML, backup_diagnostics

    from qti_builder.writers import Document

    picture = "files/3f/3f786850e387550fdab836ed7e6dc881de23001b"
    members = [Document("moodle_backup.xml", BACKUP, "mbz-backup"), Document("questions.xml", QUESTIONS_XML, "mbz-questions"),
               Document(picture, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ""),
               Document("activities/quiz_1/inforef.xml", INFOREF, "mbz-inforef")]
    assert backup_diagnostics(members, BACKUP_NAMES | {picture}) == [
        ("question category 8 is not listed: the restore would leave it out", "quiz.mbz/activities/quiz_1/inforef.xml:1:1")]
