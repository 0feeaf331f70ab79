"""The build cache (issue 34): a quiz taken from it gives the same bytes and the same report as
one built afresh, for every source in the repository; a damaged entry is ignored and written
again; two builds at once share it safely; a changed template, schema folder or media file is a
new build. Every test has its own empty cache folder (conftest.py's ``build_cache``)."""

from __future__ import annotations

import hashlib
import io
import json
import re
import os
import pickle
import time
import zlib
from dataclasses import replace
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from helpers import ROOT, SCHEMAS, SEED_SOURCE
from helpers.cli import run
from helpers.pieces import count_piece_reads

from qti_builder import cache, package, pipeline
from qti_builder.readers.markdown.pieces import PieceRead
from qti_builder.results import BuildOptions
from qti_builder.writers import DEFAULT_FORMATS

#: Every quiz source of the repository: the examples, the test fixtures, the starter quizzes and
#: the reader's corpus (most of which fail, and so are never kept).
SOURCES = sorted(
    [*ROOT.joinpath("source").glob("*.md"), *ROOT.joinpath("tests", "fixtures").glob("*.md"),
     *ROOT.joinpath("tests", "fixtures").glob("*.yaml"), *ROOT.joinpath("starter", "quiz").glob("*.md"),
     *ROOT.joinpath("tests", "corpus").glob("*.md"), *ROOT.joinpath("tests", "corpus").glob("*.yaml")]
)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def _build(*args: str, out: Path) -> tuple[int, str, str, dict[str, bytes]]:
    code, stdout, stderr = run("build", *args, "--out", str(out))
    return code, stdout.replace(str(out), "OUT"), stderr.replace(str(out), "OUT"), _files(out)


def _no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, reading a source or rendering a task fails the test: what follows must come
    from the cache alone."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a quiz was read or rendered although the cache has it")

    monkeypatch.setattr(pipeline, "_read", refuse)
    monkeypatch.setattr(pipeline, "run_task", refuse)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_cached_build_is_byte_identical(source: Path, tmp_path: Path, build_cache: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    cold = _build(str(source), "--no-cache", out=tmp_path / "cold")
    assert not any(build_cache.iterdir()), "--no-cache wrote to the cache"
    kept = _build(str(source), out=tmp_path / "kept")
    assert kept == cold
    if cold[0] != 0:  # a quiz with errors is never kept
        assert not any(build_cache.iterdir())
        return
    _no_work(monkeypatch)
    taken = _build(str(source), out=tmp_path / "taken")
    assert taken == cold
    assert cold[3], "the build wrote nothing"
    code, out, err = run("check", str(source), "--lang", "en")
    assert code == 0 and "valid" in out


def test_a_folder_of_sources_with_one_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unchanged quizzes are taken, the changed one is built, and the set is what a fresh build writes."""
    folder = tmp_path / "src"
    shutil.copytree(ROOT / "source", folder)
    assert _build(str(folder), out=tmp_path / "first")[0] == 0
    edited = folder / "ray-train-tune.md"
    edited.write_text(edited.read_text("utf-8").replace("Ray Tune은 무엇을 하나요?", "Ray Tune은 무엇을 하나요? (1)"), "utf-8")
    cold = _build(str(folder), "--no-cache", out=tmp_path / "cold")
    warm = _build(str(folder), out=tmp_path / "warm")
    assert warm == cold and cold[3] != _files(tmp_path / "first")
    assert {k: v for k, v in cold[3].items() if not k.startswith("ray-train-tune")} == \
        {k: v for k, v in _files(tmp_path / "first").items() if not k.startswith("ray-train-tune")}


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "checksum of garbage", "checksum of plain garbage",
                                    "checksum of a deflated output's garbage", "checksum of the spans' garbage", "empty",
                                    "other key", "layout 4", "layout 4 under this magic line"])
def test_a_damaged_entry_is_ignored_and_written_again(damage: str, tmp_path: Path, build_cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    cold = _build(str(SEED_SOURCE), "--no-cache", out=tmp_path / "cold")
    assert _build(str(SEED_SOURCE), out=tmp_path / "kept") == cold
    [entry] = _entries(build_cache)
    good = entry.read_bytes()
    if damage == "flipped byte":
        bad = good[:-100] + bytes([good[-100] ^ 0xFF]) + good[-99:]
    elif damage == "truncated":
        bad = good[: len(good) // 2]
    elif damage == "checksum of garbage":
        payload = b"z" + zlib.compress(b"\x80\x05not a pickle")
        bad = cache.framed(payload)
    elif damage == "checksum of plain garbage":
        payload = b"p\x80\x05not a pickle"
        bad = cache.framed(payload)
    elif damage == "checksum of a deflated output's garbage":  # the entry whole, one of its outputs not
        stored = cache._read(entry.parent.name + entry.name)
        name = next(n for n, (deflated, _) in stored.contents.items() if deflated)
        stored.contents[name] = (True, b"not deflated")
        payload = b"p" + pickle.dumps(stored)
        bad = cache.framed(payload)
    elif damage == "checksum of the spans' garbage":  # kept pickled apart from the entry's pickle
        stored = cache._read(entry.parent.name + entry.name)
        payload = b"p" + pickle.dumps(replace(stored, spans=b"\x80\x05not a pickle"))
        bad = cache.framed(payload)
    elif damage == "empty":
        bad = b""
    elif damage.startswith("layout 4"):  # the entry as the layout before wrote it: its payload's sha256, not its CRC
        payload = good[cache.PAYLOAD_AT:]
        magic = cache.MAGIC if damage.endswith("magic line") else b"qti-builder build cache 4\n"
        bad = magic + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    else:  # a whole, valid entry, but another source's: never taken for this one
        other = tmp_path / "other.md"
        other.write_text(SEED_SOURCE.read_text("utf-8").replace("Ray Train과 Ray Tune 퀴즈", "Another quiz"), "utf-8")
        assert _build(str(other), out=tmp_path / "other")[0] == 0
        [other_entry] = [p for p in _entries(build_cache) if p != entry]
        bad = other_entry.read_bytes()
    entry.write_bytes(bad)
    assert _build(str(SEED_SOURCE), out=tmp_path / "again") == cold
    again = entry.read_bytes()
    assert again != bad and again[:len(cache.MAGIC)] == cache.MAGIC, "the damaged entry was not written again"
    _no_work(monkeypatch)  # and what was written is whole: the next build takes it
    assert _build(str(SEED_SOURCE), out=tmp_path / "taken") == cold


def test_a_kept_model_that_cannot_be_made_is_ignored_and_written_again(tmp_path: Path, build_cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry keeps the quiz's model pickled apart and makes it only when something asks for it
    (``--verbose``, a report, a build with other quizzes to read): a plain ``check`` of an
    unchanged quiz says what it said from what the entry keeps beside it. A model that cannot be
    made, garbage behind a checksum that matches it, is a damaged entry like any other when it is
    asked for: ignored, the quiz built anew and the entry written again, never a traceback."""
    cold = run("check", str(SEED_SOURCE), "--verbose", "--no-cache")
    plain = run("check", str(SEED_SOURCE))
    assert cold[0] == plain[0] == 0
    [entry] = _entries(build_cache)
    stored = cache._read(entry.parent.name + entry.name)
    payload = b"p" + pickle.dumps(replace(stored, quiz=b"\x80\x05not a pickle"))
    bad = cache.framed(payload)
    entry.write_bytes(bad)
    assert run("check", str(SEED_SOURCE)) == plain  # the model is not made: what it says is kept beside it
    assert entry.read_bytes() == bad
    again = run("check", str(SEED_SOURCE), "--verbose")
    assert again[:2] == cold[:2] and "Traceback" not in again[2]
    assert entry.read_bytes() != bad, "the damaged entry was not written again"
    _no_work(monkeypatch)  # and what was written is whole: the next check takes it, model and all
    assert run("check", str(SEED_SOURCE), "--verbose")[:2] == cold[:2]


def test_what_a_check_from_the_cache_reads_of_the_model_is_the_cold_checks(build_cache: Path) -> None:
    """What ``check`` says of a quiz taken from the cache is what it says of the quiz read afresh:
    the plain lines (from what the entry keeps beside the model), ``--verbose``'s question lines
    and the JSON report (from the model, made from the entry when asked for), all but the times."""
    def report(*args: str) -> dict[str, object]:
        code, out, _ = run("check", str(SEED_SOURCE), "--report", "json", *args)
        assert code == 0
        found = json.loads(out)
        del found["timings"]
        for quiz in found["quizzes"]:
            del quiz["timings"]
        return found

    cold = [run("check", str(SEED_SOURCE), *args, "--no-cache") for args in ((), ("--verbose",))] + [report("--no-cache")]
    assert not _entries(build_cache)
    assert run("check", str(SEED_SOURCE))[:2] == cold[0][:2]  # fills the cache
    assert _entries(build_cache)
    for i in range(2):  # the model made as the entry is taken, before (and without) the plain lines
        warm = [run("check", str(SEED_SOURCE), *args) for args in ((), ("--verbose",))] + [report()]
        assert warm[0] == cold[0]
        assert warm[1][:2] == cold[1][:2] and "ray-train-tune: 10문항" in warm[1][1]
        assert warm[2] == cold[2]


def test_an_entry_keeps_compressed_outputs_as_they_are(tmp_path: Path, build_cache: Path) -> None:
    """A quiz's entry holds its zips and its gzipped backup byte for byte as written (not deflated
    again), its other outputs deflated, and gives back every output's bytes."""
    code, _, _, files = _build(str(SEED_SOURCE), out=tmp_path / "out")
    assert code == 0
    [entry] = _entries(build_cache)
    stored = cache._read(entry.parent.name + entry.name)
    assert {name: deflated for name, (deflated, _) in stored.contents.items()} == \
        {"qti21": False, "canvas": False, "moodle-quiz": False, "moodle": True}
    whole = stored.unpacked().contents
    assert sorted(whole.values()) == sorted(files.values())
    assert all(data == whole[name] for name, (deflated, data) in stored.contents.items() if not deflated)


def test_two_builds_at_once_share_the_cache(tmp_path: Path, build_cache: Path) -> None:
    folder = tmp_path / "src"
    shutil.copytree(ROOT / "source", folder)
    cold = _build(str(folder), "--no-cache", out=tmp_path / "cold")
    env = {**os.environ, "QTI_BUILDER_CACHE_DIR": str(build_cache), "QTI_BUILDER_SCHEMAS": str(SCHEMAS)}
    for round_ in range(2):  # both write the entries; then both take them
        outs = [tmp_path / f"at-once-{round_}-{n}" for n in range(2)]
        procs = [subprocess.Popen([sys.executable, "-m", "qti_builder", "build", str(folder), "--out", str(out), "--jobs", "1"],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for out in outs]
        for proc in procs:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err.decode()
        for out in outs:
            assert _files(out) == cold[3]
    assert len(_entries(build_cache)) == 3
    assert not [p for p in build_cache.rglob("*.tmp")], "a temporary file was left behind"


def test_a_changed_template_is_a_new_build(tmp_path: Path) -> None:
    overlay = tmp_path / "templates"
    (overlay / "moodle").mkdir(parents=True)
    original = (ROOT / "templates" / "moodle" / "quiz.xml.j2")
    assert original.is_file()
    shutil.copy(original, overlay / "moodle" / "quiz.xml.j2")
    args = (str(SEED_SOURCE), "--format", "moodle", "--templates", str(overlay))
    first = _build(*args, out=tmp_path / "first")
    assert first[0] == 0
    text = original.read_text("utf-8")
    assert "</quiz>" in text
    (overlay / "moodle" / "quiz.xml.j2").write_text(text.replace("</quiz>", "<!-- changed --></quiz>"), "utf-8")
    changed = _build(*args, out=tmp_path / "changed")
    assert changed == _build(*args, "--no-cache", out=tmp_path / "cold")
    assert b"<!-- changed -->" in changed[3]["ray-train-tune.moodle.xml"]
    assert b"<!-- changed -->" not in first[3]["ray-train-tune.moodle.xml"]


def test_a_changed_schema_folder_is_a_new_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema file that changes (here: one that no longer matches its pin) is never answered
    from the cache: the build checks the folder again, and says what is wrong with it."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(schemas))
    options = BuildOptions(sources=[SEED_SOURCE], cache=True)
    before = cache.settings_key(options)
    assert _build(str(SEED_SOURCE), out=tmp_path / "first")[0] == 0
    xsd = schemas / "qti12" / "imscp_v1p1.xsd"
    assert xsd.is_file()
    xsd.write_bytes(xsd.read_bytes() + b"<!-- edited -->\n")
    assert cache.settings_key(options) != before
    code, _, err, _ = _build(str(SEED_SOURCE), out=tmp_path / "second")
    assert code == 1 and "QB40" in err and "imscp_v1p1.xsd" in err, err


def test_a_changed_media_file_is_a_new_build(tmp_path: Path) -> None:
    folder = tmp_path / "src"
    shutil.copytree(ROOT / "source", folder)
    source = folder / "content-showcase.md"
    media = sorted(p for p in (folder / "media").iterdir() if p.is_file())
    assert media and media[0].name in source.read_text("utf-8")
    first = _build(str(source), out=tmp_path / "first")
    assert first[0] == 0
    media[0].write_bytes(media[0].read_bytes() + b"\n<!-- changed -->\n" if media[0].suffix == ".svg" else media[0].read_bytes() + b"\0")
    changed = _build(str(source), out=tmp_path / "changed")
    assert changed == _build(str(source), "--no-cache", out=tmp_path / "cold")
    assert changed[3] != first[3]
    media[0].unlink()
    code, _, err, _ = _build(str(source), out=tmp_path / "gone")
    assert code == 1 and media[0].name in err


def test_the_cache_follows_its_environment_variable(tmp_path: Path, build_cache: Path) -> None:
    assert cache.cache_dir() == build_cache
    assert _build(str(SEED_SOURCE), out=tmp_path / "out")[0] == 0
    assert len(_entries(build_cache)) == 1


def _bank(count: int, edited: int | None = None) -> str:
    """A quiz of ``count`` four-option questions in two sections (``edited``: that one's text changed)."""
    lines = ["---", "id: bank", "title: A bank", "language: ko", "---", ""]
    for part in (1, 2):
        lines += [f"# Part {part} {{#part-{part}}}", ""]
        for n in range(1, count // 2 + 1):
            number = (part - 1) * (count // 2) + n
            stem = f"Question {number}: 워커가 실패하면 어떻게 되나요?" + (" (edited)" if number == edited else "")
            lines += [f"{n}. {stem} {{#q{number}}}", "", "A) one", "B) two", "C) three", "D) four", "",
                      f"Answer: {'ABCD'[number % 4]}", ""]
    return "\n".join(lines)


def _backup_questions(files: dict[str, bytes], name: str = "bank.mbz") -> bytes:
    """The question bank (questions.xml) of a built Moodle quiz backup, read from its gzipped tar."""
    with tarfile.open(fileobj=io.BytesIO(files[name]), mode="r:gz") as backup:
        member = backup.extractfile("questions.xml")
        assert member is not None
        return member.read()


def _parts(chunks: int, frames: bool = True) -> list[tuple[str, str]]:
    """The tasks a build of a quiz bigger than a chunk renders in the default targets: in each
    target split by question (all four, the Moodle quiz backup too for a quiz without media) its
    frame (unless ``frames`` is False: taken from the cache) and ``chunks`` chunks, each other
    target whole."""
    split = [f for f in DEFAULT_FORMATS if f in pipeline.SPLIT_BY_QUESTION]
    return sorted([(f, "frame") for f in split if frames] + [(f, "items") for f in split for _ in range(chunks)]
                  + [(f, "whole") for f in DEFAULT_FORMATS if f not in pipeline.SPLIT_BY_QUESTION])


def record_renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The (target, part) of every task the build renders from now on (a chunk's ``items``, a
    ``frame``, a ``whole`` output), in the order they run."""
    rendered: list[tuple[str, str]] = []
    real = pipeline._rendered

    def counting(task: pipeline.Task, *args: object) -> pipeline.TaskResult:
        rendered.append((task.format, task.part))
        return real(task, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_rendered", counting)
    return rendered


def test_a_big_quiz_with_one_question_edited_renders_only_its_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quiz larger than a chunk keeps each chunk's documents and its frames: after one
    question's text changes, only its chunk (in each target) is rendered again (the frames, which
    read nothing of a question's text, are taken from the cache), and the outputs are what a
    build without the cache writes."""
    source = tmp_path / "bank.md"
    count = pipeline.CHUNK * 3
    source.write_text(_bank(count), "utf-8")
    rendered = record_renders(monkeypatch)
    first = _build(str(source), "--jobs", "1", out=tmp_path / "first")
    assert first[0] == 0
    assert sorted(rendered) == _parts(chunks=3)
    source.write_text(_bank(count, edited=pipeline.CHUNK + 7), "utf-8")
    rendered.clear()
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert sorted(rendered) == _parts(chunks=1, frames=False)
    cold = _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert warm == cold
    assert b"(edited)" in cold[3]["bank.moodle.xml"]
    # The backup too: its bank carries the edit, which the first build's did not (so a stale
    # record taken from the cache would make the warm backup differ from the cold one).
    assert b"(edited)" in _backup_questions(warm[3]) and b"(edited)" not in _backup_questions(first[3])


def test_cached_chunks_are_taken_before_the_workers_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, the chunks and frames the cache has are taken in the build's own process and
    only the rest goes to the workers (the edited question's chunk in each target: its text
    changes no frame); the outputs are a build's without the cache, byte for byte, with workers
    or without."""
    source = tmp_path / "bank.md"
    count = pipeline.CHUNK * 3
    source.write_text(_bank(count), "utf-8")
    first = _build(str(source), "--jobs", "2", out=tmp_path / "first")
    assert first[0] == 0
    source.write_text(_bank(count, edited=2 * pipeline.CHUNK + 3), "utf-8")
    handed: list[list[tuple[str, str]]] = []
    real = pipeline.run

    def recording(tasks, *args, **kwargs):  # type: ignore[no-untyped-def]
        handed.append(sorted((t.format, t.part) for t in tasks))
        return real(tasks, *args, **kwargs)

    monkeypatch.setattr(pipeline, "run", recording)
    warm = _build(str(source), "--jobs", "2", out=tmp_path / "warm")
    assert handed == [_parts(chunks=1, frames=False)]
    monkeypatch.setattr(pipeline, "run", real)
    assert warm == _build(str(source), "--jobs", "2", "--no-cache", out=tmp_path / "cold")
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "one")
    assert b"(edited)" in warm[3]["bank.moodle.xml"]
    assert b"(edited)" in _backup_questions(warm[3]) and b"(edited)" not in _backup_questions(first[3])


def record_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, frozenset[str], bytes]]:
    """Each run holding questions' documents that the build deflates from now on (rather than
    takes from the cache): the schema of its questions' documents, their ids, and its frame text."""
    deflated: list[tuple[str, frozenset[str], bytes]] = []
    real = pipeline.deflated

    def recording(pieces, level):  # type: ignore[no-untyped-def]
        questions = [p for p in pieces if not isinstance(p, bytes)]
        if questions:
            deflated.append((questions[0].schema, frozenset(q.question_id for q in questions),
                             b"".join(p for p in pieces if isinstance(p, bytes))))
        return real(pieces, level)

    monkeypatch.setattr(pipeline, "deflated", recording)
    return deflated


def test_one_edit_deflates_again_only_the_runs_that_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Canvas assessment, the backup's questions.xml and the QTI 2.1 manifest are deflated in
    runs; after one question changes, a build deflates again only the runs of its chunk's
    questions (a question's documents are known by their chunk's key: runs of half a chunk here,
    so two runs of the chunk deflated again in each member) and those whose frame text changed
    (none here), takes the others from the cache, and writes what a build without the cache
    writes, byte for byte."""
    run = pipeline.CHUNK // 2
    monkeypatch.setattr(package, "RUN_QUESTIONS", run)
    source = tmp_path / "bank.md"
    count, edited = pipeline.CHUNK * 3, pipeline.CHUNK + 7
    chunk_runs = [{f"q{n}" for n in range(pipeline.CHUNK + 1 + k * run, pipeline.CHUNK + 1 + (k + 1) * run)} for k in (0, 1)]
    source.write_text(_bank(count), "utf-8")
    runs = record_runs(monkeypatch)
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    first = {schema: sum(1 for s, _, _ in runs if s == schema) for schema, _, _ in runs}
    assert first == {"qti12-item": count // run, "mbz-question": count // run, "manifest-resource": count // run}
    source.write_text(_bank(count, edited=edited), "utf-8")
    runs.clear()
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert {schema for schema, ids, _ in runs if f"q{edited}" in ids} == {"qti12-item", "mbz-question", "manifest-resource"}
    # the two runs of the edited question's chunk in each member; no frame text changed with it
    assert sorted((schema, ids == chunk_runs[0] or ids == chunk_runs[1]) for schema, ids, _ in runs) == \
        [("manifest-resource", True)] * 2 + [("mbz-question", True)] * 2 + [("qti12-item", True)] * 2
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert warm == _build(str(source), "--jobs", "2", "--no-cache", out=tmp_path / "two")


def test_a_chunk_of_compressed_entries_is_kept_without_deflating_it_again(tmp_path: Path, build_cache: Path) -> None:
    """A QTI 2.1 chunk's result is its items' zip entries, compressed already: its entry's payload
    is the pickle as it is ("p"); so is a Canvas or backup chunk's, whose question documents are
    each compressed on its own (read only when a run of them is deflated again); so is a Moodle
    chunk's, whose documents, all read to write the file, cost more to inflate than to read; a frame's
    result, whose documents are read whole by every build that takes it, is the pickle as it is
    ("p") in every target; all are taken back, and the next build after an edit writes what a
    build without the cache does."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(pipeline.CHUNK * 2), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    kinds: dict[tuple[str, str], set[bytes]] = {}
    for entry in _entries(build_cache):
        stored = cache._read(entry.parent.name + entry.name)
        if isinstance(stored, cache.CachedChunk):
            task = stored.result.task
            kinds.setdefault((task.format, task.part), set()).add(entry.read_bytes()[cache.PAYLOAD_AT:][:1])
    assert kinds == {("qti21", "items"): {b"p"}, ("moodle", "items"): {b"p"}, ("canvas", "items"): {b"p"},
                     ("moodle-quiz", "items"): {b"p"}, **{(f, "frame"): {b"p"} for f in ("qti21", "moodle", "canvas", "moodle-quiz")}}
    source.write_text(_bank(pipeline.CHUNK * 2, edited=3), "utf-8")
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")


def test_a_frames_document_unchanged_since_a_clean_validation_is_not_validated_again(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After one question's text changes, a big quiz's frames are rendered again but none of
    their documents is validated again: none holds a question's text (the QTI manifest's frame
    holds only ids: each question's title is in its resources, rendered and validated with its
    chunk), and each validated clean, byte for byte, in the first build. After the quiz's title
    changes, the documents that hold it are validated again, and only they. With the markers
    damaged, everything is validated again; the outputs are a cold build's."""
    source = tmp_path / "bank.md"
    count = pipeline.CHUNK * 2
    source.write_text(_bank(count), "utf-8")
    validated: list[tuple[str, str, bytes]] = []
    real = pipeline.validate_documents

    def recording(name, documents, *args):  # type: ignore[no-untyped-def]
        validated.extend((name, d.path, d.data) for d in documents if d.question_id is None and d.schema)
        return real(name, documents, *args)

    monkeypatch.setattr(pipeline, "validate_documents", recording)
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    first = {(name, path): data for name, path, data in validated}
    assert len(first) > 10  # each target's frame documents (the backup's parts, manifests, tests...)
    source.write_text(_bank(count, edited=count - 1), "utf-8")
    validated.clear()
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert validated == []
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    source.write_text(_bank(count, edited=count - 1).replace("title: A bank", "title: Another bank"), "utf-8")
    validated.clear()
    retitled = _build(str(source), "--jobs", "1", out=tmp_path / "retitled")
    again = {(name, path): data for name, path, data in validated}
    assert {("bank.qti21.zip", "imsmanifest.xml"), ("bank.qti21.zip", "assessmentTest.xml")} <= set(again) <= set(first)
    assert all(data != first[where] for where, data in again.items())
    assert retitled == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold-retitled")
    for entry in _entries(build_cache):
        if isinstance(cache._read(entry.parent.name + entry.name), cache.CachedValid):
            entry.write_bytes(entry.read_bytes()[:-1])
    source.write_text(_bank(count, edited=count - 2), "utf-8")
    validated.clear()
    assert _build(str(source), "--jobs", "1", out=tmp_path / "damaged") == \
        _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold2")
    assert {(name, path) for name, path, _ in validated} >= set(first)


def test_a_frame_with_a_problem_is_validated_in_every_build(tmp_path: Path, build_cache: Path) -> None:
    """A frame that fails validation (a --templates overlay's mistake) is never remembered as
    valid: the second build reports it again."""
    overlay = tmp_path / "templates" / "qti21"
    overlay.mkdir(parents=True)
    original = (ROOT / "templates" / "qti21" / "assessment_test.xml.j2").read_text("utf-8")
    (overlay / "assessment_test.xml.j2").write_text(original.replace('visible="false"', 'visible="maybe"'), "utf-8")
    source = tmp_path / "bank.md"
    source.write_text(_bank(pipeline.CHUNK * 2), "utf-8")
    args = (str(source), "--format", "qti21", "--jobs", "1", "--templates", str(overlay.parent))
    first = _build(*args, out=tmp_path / "first")
    assert first[0] != 0 and "QB401" in first[2] and "visible" in first[2]
    assert _build(*args, out=tmp_path / "second")[:3] == first[:3]


def test_a_damaged_runs_entry_is_ignored_and_written_again(tmp_path: Path, build_cache: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "RUN_QUESTIONS", 25)
    source = tmp_path / "bank.md"
    count = pipeline.CHUNK * 3
    source.write_text(_bank(count), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    kept = [p for p in _entries(build_cache) if isinstance(cache._read(p.parent.name + p.name), cache.CachedRuns)]
    assert len(kept) == 3  # the Canvas package's, the backup's and the QTI 2.1 package's (its manifest)
    for entry in kept:
        good = entry.read_bytes()
        entry.write_bytes(good[:-100] + bytes([good[-100] ^ 0xFF]) + good[-99:])
    source.write_text(_bank(count, edited=5), "utf-8")
    runs = record_runs(monkeypatch)
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert len(runs) == 3 * count // 25  # none taken from the damaged entries
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert all(isinstance(cache._read(p.parent.name + p.name), cache.CachedRuns) for p in kept), "not written again"


def test_the_entries_used_least_recently_go_first(tmp_path: Path, build_cache: Path) -> None:
    folder = tmp_path / "src"
    shutil.copytree(ROOT / "source", folder)
    assert _build(str(folder), out=tmp_path / "out")[0] == 0
    entries = _entries(build_cache)
    assert len(entries) == 3
    for age, entry in enumerate(entries):  # the first is the oldest
        os.utime(entry, (time.time() - 1000 + age, time.time() - 1000 + age))
    cache.prune(sum(p.stat().st_size for p in entries[1:]))
    assert _entries(build_cache) == entries[1:]
    os.utime(entries[1], (time.time() - 5000, time.time() - 5000))
    assert _build(str(folder), out=tmp_path / "again")[0] == 0  # takes every entry: each is used now
    cache.prune(sum(p.stat().st_size for p in _entries(build_cache)) - 1)
    assert len(_entries(build_cache)) == 2


def test_prune_leaves_a_temporary_file_of_a_build_still_writing(build_cache: Path) -> None:
    """A temporary file goes only when an hour old (a build killed while it wrote it): a younger
    one is another build's entry being written, which it renames into place when done."""
    folder = build_cache / "ab"
    folder.mkdir()
    writing, left = folder / ".writing.tmp", folder / ".left.tmp"
    writing.write_bytes(b"half an entry")
    left.write_bytes(b"half an entry")
    os.utime(writing, (time.time() - 3500, time.time() - 3500))
    os.utime(left, (time.time() - 3700, time.time() - 3700))
    cache.prune()
    assert writing.exists() and not left.exists()


def _sections_source(sections: int, per_section: int, *, edit: int | None = None, added: int = 0,
                     warn: tuple[int, ...] = (), broken: int | None = None, missing: int | None = None) -> str:
    """A quiz of ``sections`` top-level sections (``# Part n``) of ``per_section`` questions, long
    enough to be read in pieces. ``edit``: that section's second question says so, with ``added``
    lines of its text more; ``warn``: those sections' first question has an answer whose text is
    not its option's (QB124, a warning); ``broken``: that section's third question has no answer
    (an error); ``missing``: that section's fourth question shows an image that is not there (an
    error found after reading, located through the source map)."""
    lines = ["---", "title: Sections", "language: ko", "---", ""]
    for s in range(1, sections + 1):
        lines += [f"# Part {s}", "", f"Part {s} 소개.", ""]
        for n in range(1, per_section + 1):
            stem = f"Part {s}, 문제 {n}: 워커가 실패하면 어떻게 되나요?" + (" (edited)" if s == edit and n == 2 else "")
            lines += [f"{n}. {stem} {{#s{s}q{n}}}", ""]
            if s == missing and n == 4:
                lines += ["   ![그림](missing.png)", ""]
            if s == edit and n == 2 and added:
                lines += [*(f"   더한 줄 {k}." for k in range(added)), ""]
            lines += ["A) one", "B) two", "C) three", "D) four", ""]
            if s == broken and n == 3:
                continue
            lines += ["Answer: A) wrong" if s in warn and n == 1 else f"Answer: {'ABCD'[(s + n) % 4]}", ""]
    return "\n".join(lines)


def _reading_pieces(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first line (0-based) of each piece the Markdown reader reads from here on (not taken
    from the cache)."""
    return count_piece_reads(monkeypatch)


def _top_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.startswith("# Part ")]


@pytest.mark.parametrize("added", [0, 3], ids=["same lines", "lines added"])
def test_one_edit_in_a_many_section_source_reads_only_its_piece(added: int, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A source of twelve top-level sections is read in pieces, each kept in the cache: after one
    question in the middle is edited (with lines added or not), only its piece is read again, and
    a piece with a warning only where its lines have not moved; the outputs and every diagnostic
    (file:line:col) are what a build without the cache gives of the edited source."""
    source = tmp_path / "sections.md"
    first = _sections_source(12, 12, warn=(3, 10))
    assert len(first.split("\n")) >= 1_000  # pieces.PIECES_FROM
    source.write_text(first, "utf-8")
    read = _reading_pieces(monkeypatch)
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    assert read == _top_lines(first)  # every piece read, and kept
    edited = _sections_source(12, 12, edit=6, added=added, warn=(3, 10))
    source.write_text(edited, "utf-8")
    read.clear()
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    tops = _top_lines(edited)
    # Part 6 edited; Part 10's warning names its lines, which moved when lines were added.
    assert read == ([tops[5]] if not added else [tops[5], tops[9]])
    cold = _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert warm == cold
    assert b"(edited)" in cold[3]["sections.moodle.xml"]
    warnings = re.findall(r"sections\.md:(\d+):(\d+): warning\[QB124\]", cold[2])
    assert [int(line) for line, _ in warnings] == [i + 1 for i, line in enumerate(edited.split("\n")) if line == "Answer: A) wrong"]


def test_an_error_after_an_edit_that_moved_its_piece_is_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece with an error taken where its lines have moved would name the old lines: it is
    read again, and the build's report is that of a build without the cache."""
    source = tmp_path / "sections.md"
    source.write_text(_sections_source(12, 12, broken=9, missing=11), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] != 0
    edited = _sections_source(12, 12, edit=2, added=2, broken=9, missing=11)
    source.write_text(edited, "utf-8")
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    cold = _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert warm == cold and warm[0] != 0 and not warm[3]
    broken_question = next(i for i, line in enumerate(edited.split("\n")) if line.startswith("3. Part 9,")) + 1
    assert f"sections.md:{broken_question}:" in cold[2]
    image = next(i for i, line in enumerate(edited.split("\n")) if "missing.png" in line) + 1
    assert re.search(rf"sections\.md:{image}:\d+: error\[QB\d+\]: .*missing\.png", cold[2])


@pytest.mark.parametrize("added", [0, 3], ids=["same lines", "lines added"])
def test_one_edit_in_the_middle_of_a_section_read_in_runs(added: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sections read in runs of about four questions (pieces.RUN_QUESTIONS), the first build's
    on the workers: after one question in the middle of a section is edited (with lines added or
    not), only its run is read again, or the run before it too (and those whose warnings name
    lines that moved), and the outputs and every diagnostic are a build's without the cache; a
    section's stated total (its heading says 12 points) is its twelve questions', not its first
    run's (QB197)."""
    from qti_builder.readers.markdown import pieces

    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 4)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    source = tmp_path / "sections.md"
    # Each section's introduction without "Part n" (read so, it is an exam section marker whose
    # subsection holds the questions: such a section is read whole).
    text = re.sub(r"(?m)^Part (\d+) 소개\.$", r"\1부의 소개.", _sections_source(12, 12, warn=(3, 10)))
    text = text.replace("# Part 5\n", "# Part 5 (12 points)\n")
    source.write_text(text, "utf-8")
    read = _reading_pieces(monkeypatch)
    assert _build(str(source), out=tmp_path / "first")[0] == 0
    stem = "Part 6, 문제 9: 워커가 실패하면 어떻게 되나요?"
    edited = text.replace(stem, stem + " (edited)" + "".join(f"\n   더한 줄 {k}." for k in range(added)))
    source.write_text(edited, "utf-8")
    read.clear()
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    tops = _top_lines(edited)
    ninth = next(i for i, line in enumerate(edited.split("\n")) if line.startswith("9. Part 6,"))
    # Its run (not its section's first: read in runs), or the one before it too.
    assert tops[5] < min(read) and len([start for start in read if start <= ninth]) in (1, 2)
    assert [start for start in read if start > ninth] == [start for start in read if start >= tops[9]]  # Part 10's warning: moved
    cold = _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert warm == cold
    assert "QB197" not in cold[2] and b"(edited)" in cold[3]["sections.moodle.xml"]


def test_a_damaged_piece_entry_is_ignored(tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry of a piece damaged (a byte flipped, its checksum then wrong): each piece is
    read again, and the outputs are what a build without the cache writes."""
    source = tmp_path / "sections.md"
    source.write_text(_sections_source(12, 12), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    damaged = 0
    for path in build_cache.rglob("*"):
        entry = cache._read(path.parent.name + path.name) if path.is_file() else None
        # A piece's reading (beside it, the verdict of its sections' checks: quiz_checks.py).
        if isinstance(entry, cache.CachedPiece) and isinstance(entry.reading, PieceRead):
            raw = bytearray(path.read_bytes())
            # Kept as pickled, not deflated: inflating a bank's 99 pieces cost a rebuild more than
            # reading their bytes does (bench/README.md).
            assert raw[cache.PAYLOAD_AT:cache.PAYLOAD_AT + 1] == b"p"
            raw[-5] ^= 0xFF
            path.write_bytes(bytes(raw))
            damaged += 1
    assert damaged == 12
    edited = _sections_source(12, 12, edit=4)
    source.write_text(edited, "utf-8")
    read = _reading_pieces(monkeypatch)
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    assert read == _top_lines(edited)
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")


def _expected_folder_digest(files: dict[str, bytes]) -> bytes:
    """What ``_hash_folder`` is to add for ``files`` (paths in the folder, '/'-separated): each
    path and its bytes' sha256, in the order of the paths' parts."""
    digest = hashlib.sha256()
    for name in sorted(files, key=lambda name: tuple(name.split("/"))):
        digest.update(os.path.join(*name.split("/")).encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(files[name]).digest())
    return digest.digest()


def test_a_folder_is_hashed_by_its_files_paths_and_bytes_in_their_order(tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    files = {"b.j2": b"b", "a-c.j2": b"dash", "a/b.j2": b"nested", "a/z/deep.j2": b"deep", ".hidden": b"dot",
             "Z.j2": b"upper", "m/n.j2": b""}
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "linked.j2").write_bytes(b"through a link")
    (folder / "to-outside").symlink_to(outside, target_is_directory=True)  # listed, not entered
    (folder / "file-link.j2").symlink_to(outside / "linked.j2")  # a file: hashed by what it points to
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    (folder / "a" / "__pycache__").mkdir()
    (folder / "a" / "__pycache__" / "y.pyc").write_bytes(b"compiled")

    def digest() -> bytes:
        made = hashlib.sha256()
        cache._hash_folder(made, folder)
        return made.digest()

    assert digest() == _expected_folder_digest({**files, "file-link.j2": b"through a link"})
    (outside / "other.j2").write_bytes(b"not in the folder")
    (folder / "__pycache__" / "x.pyc").write_bytes(b"compiled again")
    assert digest() == _expected_folder_digest({**files, "file-link.j2": b"through a link"})
    (folder / "a" / "z" / "deep.j2").write_bytes(b"changed")
    assert digest() == _expected_folder_digest({**files, "a/z/deep.j2": b"changed", "file-link.j2": b"through a link"})
    nothing = hashlib.sha256()
    cache._hash_folder(nothing, tmp_path / "missing")
    assert nothing.digest() == hashlib.sha256().digest()


def test_the_code_key_is_every_module_s_path_size_and_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "qti_builder"
    (package / "sub" / "__pycache__").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "sub/b.py", "sub/c.txt", "sub/__pycache__/b.cpython-311.pyc"):
        (package / name).write_text(name, "utf-8")
    monkeypatch.setattr(cache, "_PACKAGE", package)

    def key() -> str:
        cache.code_key.cache_clear()
        return cache.code_key()

    expected = hashlib.sha256(f"{cache.__version__}\0{cache.MAGIC.decode()}\0".encode())
    for name in sorted(("__init__.py", "a.py", "sub/b.py"), key=lambda name: tuple(name.split("/"))):
        info = (package / name).stat()
        expected.update(f"{os.path.join(*name.split('/'))}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    try:
        assert key() == expected.hexdigest()
        (package / "sub" / "c.txt").write_text("not a module", "utf-8")
        assert key() == expected.hexdigest()
        os.utime(package / "sub" / "b.py", ns=(1, 1))
        assert key() != expected.hexdigest()
    finally:
        cache.code_key.cache_clear()
