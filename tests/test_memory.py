"""What a build lets go of, and what it never holds whole, so a 100,000-question source builds
in bounded memory (measured in bench/README.md; here only what each guarantee means)."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from helpers import SEED_SOURCE

from qti_builder import canvas_rules, pipeline
from qti_builder import package
from qti_builder.pipeline import BuildOptions, build
from qti_builder.readers import SourceMap
from qti_builder.schemas import load_schemas, resolve_schema_dir
from qti_builder.validate import _problems
from qti_builder.writers import Document
from qti_builder.writers.base import Spliced, assemble


def test_the_work_stage_holds_no_source_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the tasks get of a quiz (inherited by forked workers) is its model, its questions'
    starts and its media: not the map of where every part came from, a dozen entries per question."""
    held: list[list[str]] = []
    run_task = pipeline.run_task

    def working(task: pipeline.Task) -> pipeline.TaskResult:
        assert pipeline._state is not None
        held.append([type(value).__name__ for item in pipeline._state.loaded.values() for value in vars(item).values()])
        return run_task(task)

    monkeypatch.setattr(pipeline, "run_task", working)
    result = build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path, jobs=1))
    assert result.written and held
    # the model, its questions' starts, its media, where its id is written (one place, kept in
    # the build cache for the check of unique ids) and its questions' data digests (one a
    # question, for the chunks' keys): no map of every part
    assert all(kinds == ["Quiz", "dict", "MediaSet", "SourceSpan", "dict"] for kinds in held), held
    assert all(not isinstance(v, SourceMap) for item in [result.results[0]] for v in vars(item).values())


def _canvas_members(tmp_path: Path) -> tuple[list[Document], bytes]:
    """The documents of the seed's Canvas package, as a build renders them, and its assessment as
    written."""
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path, formats=["canvas"], jobs=1))
    with zipfile.ZipFile(tmp_path / "ray-train-tune.canvas.zip") as archive:
        written = archive.read("ray-train-tune/ray-train-tune.xml")
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.writers import WRITERS
    from qti_builder.templating import make_environment

    [loaded] = pipeline.load_quizzes(BuildOptions(sources=[SEED_SOURCE]), DiagnosticSink())
    output = WRITERS["canvas"](make_environment(None)).write(loaded.quiz, loaded.spans, DiagnosticSink(), loaded.media)
    assert output is not None
    return output.documents, written


def test_the_canvas_assessment_is_read_and_compressed_in_pieces_never_joined(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, written = _canvas_members(tmp_path)
    [assessment] = [m for m in assemble(documents) if isinstance(m, Spliced)]
    pieces = list(assessment.pieces())
    assert len(pieces) > len([d for d in documents if d.question_id]) and max(map(len, pieces)) < len(written) / 4
    assert b"".join(pieces) == written
    # Deflated in runs of questions, each from its pieces, it inflates to the whole. (The rules
    # across the package read the frame and each question's facts, never the assessment whole:
    # tests/test_canvas_writer.py.)
    runs: list[int] = []

    def deflated(run: Any, level: int) -> package.Deflated:
        runs.append(len(run))
        return package.deflated(run, level)

    monkeypatch.setattr(package, "RUN_QUESTIONS", 2)
    entry = package.spliced_entry(assessment, deflated)
    assert len(runs) > 2 and max(runs) <= 2 * 2 + 1  # each run: 2 questions and the frame's text before each
    assert zlib.decompress(entry.data, -15) == written and (entry.crc, entry.size) == (zlib.crc32(written), len(written))


def test_an_assessment_frame_larger_than_the_parser_takes_at_once_is_read() -> None:
    """A frame is read as a stream (items written in it rather than spliced count too)."""
    from lxml import etree

    items = "".join(f'<item ident="i{n}"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>points_possible'
                    f"</fieldlabel><fieldentry>2</fieldentry></qtimetadatafield></qtimetadata></itemmetadata></item>"
                    for n in range(60_000))
    data = f'<questestinterop><assessment ident="a"><section ident="root">{items}</section></assessment></questestinterop>'
    assert len(data) > 10 << 20  # more than libxml2 takes at once without its "huge" option
    meta = etree.fromstring(b'<quiz identifier="a"><points_possible>5</points_possible></quiz>').getroottree()
    problems = list(canvas_rules.package_rules(data.encode(), (), {}, "a/a.xml", meta, None, set()))
    assert [m for _, _, m in problems] == ["the settings file says the quiz is worth 5 points, its questions add up to 120000"]


def test_a_qti_test_and_manifest_are_judged_alike_without_the_whitespace_between_elements(tmp_path: Path) -> None:
    """They are parsed without their whitespace-only text between elements (a third of a big
    bank's tree): their problems are the same, on the same lines, as with it."""
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path, formats=["qti21"], jobs=1))
    with zipfile.ZipFile(tmp_path / "ray-train-tune.qti21.zip") as archive:
        manifest, test = archive.read("imsmanifest.xml"), archive.read("assessmentTest.xml")
    schemas = load_schemas(resolve_schema_dir(None))
    broken = {
        "manifest": re.sub(rb"(<resources>\n)", rb"\1    <bogus/>\n", manifest, count=1),
        "qti": re.sub(rb"(\n *)(<assessmentItemRef)", rb"\1<bogus/>\1\2", test, count=1),
    }
    for schema, data in (("manifest", manifest), ("qti", test)):
        assert list(_problems(Document("f.xml", data, schema), schemas)) == []
        as_frame = list(_problems(Document("f.xml", broken[schema], schema), schemas))
        # A question's document is parsed as written, whitespace and all.
        as_written = list(_problems(Document("f.xml", broken[schema], schema, question_id="q"), schemas))
        assert as_frame and as_frame == as_written
        line = broken[schema][:broken[schema].index(b"<bogus/>")].count(b"\n") + 1
        assert as_frame[0][0] == line and "bogus" in as_frame[0][2]


def test_a_frame_with_mixed_content_keeps_its_text(tmp_path: Path) -> None:
    """Whitespace-only text between inline elements of a section's rubric is all that goes: the
    rubric's words stay, and an error in it is found on its line."""
    schemas = load_schemas(resolve_schema_dir(None))
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path, formats=["qti21"], jobs=1))
    with zipfile.ZipFile(tmp_path / "ray-train-tune.qti21.zip") as archive:
        test = archive.read("assessmentTest.xml")
    rubric = (b'<rubricBlock view="candidate"><p><b>Read</b> <i>this</i>\n<span>first</span></p>'
              b"<p>  <bogus/>  </p></rubricBlock>")
    data = re.sub(rb"(<assessmentSection [^>]*>)", rb"\1" + rubric.replace(b"\\", b"\\\\"), test, count=1)
    problems = list(_problems(Document("f.xml", data, "qti"), schemas))
    line = data[:data.index(b"<bogus/>")].count(b"\n") + 1
    assert [(p[0], "bogus" in p[2]) for p in problems] == [(line, True)], problems
    assert problems == list(_problems(Document("f.xml", data, "qti", question_id="q"), schemas))
