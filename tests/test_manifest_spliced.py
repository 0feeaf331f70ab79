"""A QTI 2.1 manifest put together from its frame and each question's resources (issue 34: a big
quiz's frame, rendered apart from its chunks, no longer computes every item's context, and a
rebuild after one edit validates only the edited question's resources). What is checked here:
the parts' validation (the frame, each question's resources in a manifest of their own, and the
identifiers across them: ``validate._manifest_package``) gives the verdict that validating the
whole manifest gives, on every test source and on parts broken each in one way; the package
holds exactly the whole manifest, without the frame's marker lines; and a build in chunks, or
from the build cache after an edit or with damaged entries, writes what a build without them does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest
from helpers import NS, ROOT, SCHEMAS, SEED_SOURCE, zip_members
from helpers.cli import run
from lxml import etree

from qti_builder import cache, pipeline
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.pipeline import BuildOptions, load_quizzes
from qti_builder.schemas import load_schemas
from qti_builder.templating import make_environment
from qti_builder.validate import validate_documents, validate_package
from qti_builder.writers import WRITERS, Document
from qti_builder.writers.base import QUESTION_MARKER, single_file

FIXTURES = ROOT / "tests" / "fixtures"
#: Every question type (YAML), code, tables, media and math, a Korean quiz, and calculated questions.
SOURCES = [FIXTURES / "all-types.yaml", ROOT / "source" / "content-showcase.md", SEED_SOURCE,
           ROOT / "source" / "python-fundamentals.md", FIXTURES / "calculated.md"]
SCHEMA_SET = load_schemas(SCHEMAS)


def _variants_source(tmp_path: Path) -> Path:
    """The calculated questions with ``qti_variants``: several items (and resources) per question."""
    path = tmp_path / "variants.md"
    path.write_text((FIXTURES / "calculated.md").read_text("utf-8").replace(
        "title: Calculated questions\n", "title: Calculated questions\nsettings:\n  qti_variants: 2\n"), "utf-8")
    return path


def _parts(source: Path, tmp_path: Path) -> tuple[Document, list[Document]]:
    """The QTI 2.1 writer's manifest frame and each question's resources for ``source``."""
    sink = DiagnosticSink()
    [item] = load_quizzes(BuildOptions(sources=[source], out_dir=tmp_path / "unused"), sink)
    output = WRITERS["qti21"](make_environment(None)).write(item.quiz, item.spans, sink, item.media)
    assert output is not None and not sink.errors, [d.render() for d in sink.items]
    frame = next(d for d in output.documents if d.path == "imsmanifest.xml")
    pieces = [d for d in output.documents if d.schema == "manifest-resource"]
    assert frame.question_order == tuple(d.question_id for d in pieces) and not frame.keeps_markers
    return frame, pieces


def _whole(frame: Document, pieces: list[Document]) -> bytes:
    return b"".join(single_file([frame, *pieces]))


def _whole_verdict(frame: Document, pieces: list[Document]) -> list[str]:
    """Problems of the manifest validated whole, as a manifest was before it came in parts."""
    sink = DiagnosticSink()
    validate_documents("q.qti21.zip", [Document("imsmanifest.xml", _whole(frame, pieces), "manifest")], SCHEMA_SET, {}, sink)
    return [d.message for d in sink.items]


def _parts_verdict(frame: Document, pieces: list[Document]) -> list[str]:
    """Problems of the parts as a build in chunks finds them: each part validated (in its task),
    then the rules across them once the package's parts are in."""
    sink = DiagnosticSink()
    facts = validate_documents("q.qti21.zip", [frame, *pieces], SCHEMA_SET, {}, sink)
    validate_package("q.qti21.zip", [frame, *pieces], {"imsmanifest.xml"}, facts, sink)
    return [d.message for d in sink.items]


@pytest.mark.parametrize("name", [*(p.name for p in SOURCES), "variants"])
def test_the_parts_and_the_whole_manifest_are_valid_alike(name: str, tmp_path: Path) -> None:
    source = _variants_source(tmp_path) if name == "variants" else next(p for p in SOURCES if p.name == name)
    frame, pieces = _parts(source, tmp_path)
    assert _whole_verdict(frame, pieces) == [] == _parts_verdict(frame, pieces)
    whole = _whole(frame, pieces)
    assert not QUESTION_MARKER.search(whole)  # each line replaced by its question's resources
    tree = etree.fromstring(whole)
    resources = tree.findall("cp:resources/cp:resource", NS)
    dependencies = [d.get("identifierref") for d in resources[0].findall("cp:dependency", NS)]
    # the test's resource, then one per item in the test's order, each depended on by the test
    assert [r.get("identifier") for r in resources[1:]] == dependencies and len(dependencies) >= len(pieces)
    if name == "variants":
        assert len(dependencies) > len(pieces)  # a question's fixed variants: resources of one question's part


@pytest.mark.parametrize("name", [p.name for p in SOURCES])
def test_a_tasks_resources_validated_together_give_what_each_alone_gives(name: str, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """One task's question resources are validated as one manifest's (lxml's cost is per
    document): the same facts, each on its own question's lines, as each validated alone; and
    with a problem in one, each is validated alone, the problems those of each alone."""
    from qti_builder import validate

    frame, pieces = _parts(next(p for p in SOURCES if p.name == name), tmp_path)
    alone: dict[str, object] = {}
    for piece in pieces:
        sink = DiagnosticSink()
        alone.update(validate_documents("q.qti21.zip", [piece], SCHEMA_SET, {}, sink))
        assert not sink.items
    one_by_one: list[str | None] = []
    problems = validate._problems
    monkeypatch.setattr(validate, "_problems", lambda document, *args: one_by_one.append(document.question_id)
                        or problems(document, *args))
    sink = DiagnosticSink()
    assert validate_documents("q.qti21.zip", pieces, SCHEMA_SET, {}, sink) == alone and not sink.items
    assert one_by_one == []  # validated together
    broken = [*pieces[:-1], Document(pieces[-1].path, pieces[-1].data.replace(b"<file ", b"<fil ", 1), pieces[-1].schema,
                                     pieces[-1].question_id)]
    facts = validate_documents("q.qti21.zip", broken, SCHEMA_SET, {}, sink)
    assert one_by_one == [p.question_id for p in pieces]  # each alone
    assert [d.message for d in sink.items] and all(f"(question '{pieces[-1].question_id}')" in d.message for d in sink.items)
    assert facts == alone


def _first_resource_id(piece: Document) -> str:
    found = re.search(rb'identifier="([^"]+)"', piece.data)
    assert found is not None
    return found.group(1).decode()


def _in_piece(k: int, change: Callable[[bytes, list[Document]], bytes]) -> Callable[[Document, list[Document]], tuple[Document, list[Document]]]:
    def broken(frame: Document, pieces: list[Document]) -> tuple[Document, list[Document]]:
        copy = list(pieces)
        copy[k] = Document(pieces[k].path, change(pieces[k].data, pieces), pieces[k].schema, pieces[k].question_id)
        return frame, copy
    return broken


def _in_frame(change: Callable[[bytes], bytes]) -> Callable[[Document, list[Document]], tuple[Document, list[Document]]]:
    def broken(frame: Document, pieces: list[Document]) -> tuple[Document, list[Document]]:
        return Document(frame.path, change(frame.data), frame.schema, question_order=frame.question_order,
                        keeps_markers=False), pieces
    return broken


def _marker_into_organizations(data: bytes) -> bytes:
    data = data.replace(b"<!-- question: 1 -->\n", b"", 1)
    return data.replace(b"<organizations/>", b"<organizations>\n<!-- question: 1 -->\n</organizations>", 1)


#: Each way to break a part, and what it is: the whole manifest and its parts must both fail.
BROKEN = {
    "a resource of a type the schema does not have": _in_piece(1, lambda d, _: d.replace(b'type="imsqti_item_xmlv2p1"', b'type="bogus"', 1)),
    "a question's resource named like another's (xs:ID twice)": _in_piece(
        2, lambda d, ps: d.replace(_first_resource_id(ps[2]).encode(), _first_resource_id(ps[0]).encode())),
    "a question's resource renamed (the test's dependency unresolved)": _in_piece(
        1, lambda d, ps: d.replace(_first_resource_id(ps[1]).encode(), b"RES-renamed")),
    "a resource named like the manifest itself (xs:ID twice)": _in_piece(
        1, lambda d, ps: d.replace(_first_resource_id(ps[1]).encode(), b"MANIFEST-ray-train-tune")),
    "an element that is no resource among the resources": _in_piece(0, lambda d, _: b'    <file href="x.xml"/>\n' + d),
    "text among the resources": _in_piece(0, lambda d, _: b"    stray text\n" + d),
    "a resource that is not well-formed": _in_piece(0, lambda d, _: d.replace(b"</resource>", b"</resourc>", 1)),
    "a dependency of a question's resource on nothing": _in_piece(
        0, lambda d, _: d.replace(b"</resource>", b'  <dependency identifierref="RES-nowhere"/>\n    </resource>', 1)),
    "the frame's own dependency on nothing": _in_frame(
        lambda d: d.replace(b"    </resource>", b'      <dependency identifierref="RES-nowhere"/>\n    </resource>', 1)),
    "a question's line outside the resources": _in_frame(_marker_into_organizations),
    "the frame's metadata prefix bound to another namespace": _in_frame(
        lambda d: d.replace(b'xmlns:imsqti="http://www.imsglobal.org/xsd/imsqti_metadata_v2p1"', b'xmlns:imsqti="urn:other"', 1)),
}


def test_a_frame_with_a_namespace_of_its_own_more_is_judged_as_the_whole(tmp_path: Path) -> None:
    """Another namespace declared by the frame (an override's) changes nothing the resources mean:
    valid both ways; a resource that uses it is not well-formed alone, and refused both ways."""
    frame, pieces = _parts(SEED_SOURCE, tmp_path)
    frame = _in_frame(lambda d: d.replace(b"<manifest ", b'<manifest xmlns:extra="urn:extra" ', 1))(frame, pieces)[0]
    assert _whole_verdict(frame, pieces) == [] == _parts_verdict(frame, pieces)
    frame, pieces = _in_piece(0, lambda d, _: d.replace(b"<file ", b'<file extra:note="x" ', 1))(frame, pieces)
    assert _whole_verdict(frame, pieces) and _parts_verdict(frame, pieces)


@pytest.mark.parametrize("what", list(BROKEN))
def test_a_broken_part_fails_as_the_whole_manifest_fails(what: str, tmp_path: Path) -> None:
    frame, pieces = _parts(SEED_SOURCE, tmp_path)
    frame, pieces = BROKEN[what](frame, pieces)
    assert _whole_verdict(frame, pieces), what
    assert _parts_verdict(frame, pieces), what


def _bank(count: int, edited: int | None = None) -> str:
    lines = ["---", "id: bank", "title: A bank", "language: ko", "---", ""]
    for n in range(1, count + 1):
        stem = f"Question {n}: 워커가 실패하면 어떻게 되나요?" + (" (edited)" if n == edited else "")
        lines += [f"{n}. {stem} {{#q{n}}}", "", "A) one", "B) two", "C) three", "D) four", "", f"Answer: {'ABCD'[n % 4]}", ""]
    return "\n".join(lines)


def _build(*args: str, out: Path) -> tuple[int, str, dict[str, bytes]]:
    code, _, stderr = run("build", *args, "--format", "qti21", "--out", str(out))
    return code, stderr.replace(str(out), "OUT"), {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.exists() else {}


def test_chunks_cache_and_damaged_entries_write_the_whole_manifest(tmp_path: Path, build_cache: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A bank in chunks: its package's manifest is the writer's whole manifest of the quiz (every
    other member too), with and without the build cache, after an edit (the edited question's
    title in its resource), and with every QTI 2.1 chunk entry damaged (ignored, rendered again)."""
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    source = tmp_path / "bank.md"
    source.write_text(_bank(13), "utf-8")
    first = _build(str(source), "--jobs", "1", out=tmp_path / "first")
    assert first[0] == 0
    frame, pieces = _parts(source, tmp_path)
    assert zip_members(first[2]["bank.qti21.zip"])["imsmanifest.xml"] == _whole(frame, pieces)
    source.write_text(_bank(13, edited=6), "utf-8")
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert "어떻게 되나요? (edited)</imsmd:string>".encode() in zip_members(warm[2]["bank.qti21.zip"])["imsmanifest.xml"]
    assert warm == _build(str(source), "--jobs", "2", "--no-cache", out=tmp_path / "cold")
    monkeypatch.setattr(pipeline, "CHUNK", 1000)  # one task: the whole quiz rendered at once
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "whole")
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    damaged = 0
    for entry in sorted(p for p in build_cache.rglob("*") if p.is_file()):
        stored = cache._read(entry.parent.name + entry.name)
        if isinstance(stored, cache.CachedChunk) and stored.result.task.format == "qti21":
            good = entry.read_bytes()
            entry.write_bytes(good[:-50] + bytes([good[-50] ^ 0xFF]) + good[-49:])
            damaged += 1
    assert damaged == 6  # the four chunks of the first build, the edited one's and the frame
    source.write_text(_bank(13, edited=7), "utf-8")
    again = _build(str(source), "--jobs", "1", out=tmp_path / "again")
    assert again == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold-again")


def test_an_overriding_resource_template_that_breaks_one_question_fails_at_it(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A --templates override of qti21/manifest_resource.xml.j2 that writes a bad resource for one
    question: the build fails at that question, in chunks or not, with the cache or without, and
    writes nothing."""
    overlay = tmp_path / "templates" / "qti21"
    overlay.mkdir(parents=True)
    original = (ROOT / "templates" / "qti21" / "manifest_resource.xml.j2").read_text("utf-8")
    (overlay / "manifest_resource.xml.j2").write_text(original.replace(
        'type="imsqti_item_xmlv2p1"', 'type="{{ "bogus" if question.id == "q6" else "imsqti_item_xmlv2p1" }}"'), "utf-8")
    source = tmp_path / "bank.md"
    source.write_text(_bank(13), "utf-8")
    args = (str(source), "--jobs", "1", "--templates", str(overlay.parent))
    for chunk in (4, 1000):
        monkeypatch.setattr(pipeline, "CHUNK", chunk)
        for extra in ((), ("--no-cache",)):
            code, stderr, files = _build(*args, *extra, out=tmp_path / f"out-{chunk}-{len(extra)}")
            assert code != 0 and files == {}
            assert "QB401" in stderr and "(question 'q6')" in stderr and "bogus" in stderr, stderr


def test_an_overriding_manifest_without_the_question_lines_is_refused(tmp_path: Path) -> None:
    overlay = tmp_path / "templates" / "qti21"
    overlay.mkdir(parents=True)
    original = (ROOT / "templates" / "qti21" / "imsmanifest.xml.j2").read_text("utf-8")
    (overlay / "imsmanifest.xml.j2").write_text(original.replace("<!-- question: {{ loop.index }} -->\n", ""), "utf-8")
    source = tmp_path / "bank.md"
    source.write_text(_bank(3), "utf-8")
    code, stderr, files = _build(str(source), "--templates", str(overlay.parent), out=tmp_path / "out")
    assert code != 0 and files == {}
    assert "error[QB305]: qti21/imsmanifest.xml.j2 must write the line '<!-- question: N -->' once for each question" in stderr


def test_a_rebuild_of_one_chunk_shares_its_targets_among_the_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold build claims a chunk's targets as one (they share what is converted of its texts);
    a rebuild after one edit, with one chunk left to render for two processes, claims each of its
    targets on its own, so they are rendered side by side rather than one after the other. The
    files are a build's without the cache either way."""
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    claimed: list[object] = []
    real = pipeline.run

    def recording(tasks, work, jobs, here, together, meanwhile=None):  # type: ignore[no-untyped-def]
        claimed.append(together)
        return real(tasks, work, jobs, here, together, meanwhile)

    monkeypatch.setattr(pipeline, "run", recording)
    source = tmp_path / "bank.md"
    source.write_text(_bank(13), "utf-8")
    args = ("--jobs", "2", "--format", "qti21,moodle,canvas,moodle-quiz")
    code, _, _ = run("build", str(source), *args, "--out", str(tmp_path / "first"))
    assert code == 0 and claimed == [pipeline._claimed_together]
    source.write_text(_bank(13, edited=6), "utf-8")
    claimed.clear()
    code, _, _ = run("build", str(source), *args, "--out", str(tmp_path / "warm"))
    assert code == 0 and claimed == [pipeline._claimed_alone]
    code, _, _ = run("build", str(source), *args, "--no-cache", "--out", str(tmp_path / "cold"))
    assert code == 0
    files = {p.name: p.read_bytes() for p in (tmp_path / "warm").iterdir()}
    assert len(files) == 4 and files == {p.name: p.read_bytes() for p in (tmp_path / "cold").iterdir()}
