"""Parallel builds: the same bytes whatever the number of workers, and the shortcuts that make
builds fast give what the slow path gives."""

from __future__ import annotations

import gzip
import hashlib
import io
import multiprocessing
import os
import re
import shutil
import subprocess
import tarfile
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, SEED_SOURCE
from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder import content, package, pipeline
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.writers import base as writers_base
from qti_builder.package import COMPRESS_LEVEL, compress, zip_parts, zip_timestamp
from qti_builder.pipeline import BuildOptions, build, load_quizzes, plan, render_outputs
from qti_builder.writers.base import Spliced, assemble, build_epoch

FIXTURES = ROOT / "tests" / "fixtures"
#: Every question type (YAML), code, tables, media and math, and a Korean quiz.
SOURCES = [FIXTURES / "all-types.yaml", ROOT / "source" / "content-showcase.md", SEED_SOURCE,
           ROOT / "source" / "python-fundamentals.md"]


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def built(tmp_path: Path, name: str, jobs: int) -> dict[str, str]:
    result = build(BuildOptions(sources=SOURCES, out_dir=tmp_path / name, jobs=jobs))
    assert result.jobs == jobs
    return digests(tmp_path / name)


def test_parallel_build_is_byte_identical_to_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Chunks of 3 questions: every quiz's QTI items are split among the workers, however small;
    # deflate runs of 2 questions, cut elsewhere than the chunks.
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    serial = built(tmp_path, "serial", 1)
    assert len(serial) == 4 * len(SOURCES)  # QTI 2.1, Moodle, Canvas, the Moodle quiz backup
    assert built(tmp_path, "parallel", 2) == serial
    assert built(tmp_path, "three", 3) == serial


def test_chunks_give_what_the_writer_gives_for_the_whole_quiz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "RUN_QUESTIONS", 3)  # the packages' bytes do not depend on the chunks
    whole = built(tmp_path, "whole", 1)  # every quiz is under CHUNK questions: one task per target
    monkeypatch.setattr(pipeline, "CHUNK", 2)
    assert built(tmp_path, "chunked", 1) == whole
    monkeypatch.setattr(pipeline, "CHUNK", 5)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    assert built(tmp_path, "chunked5", 2) == whole


def test_documents_held_compressed_give_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = built(tmp_path, "plain", 1)
    held = []
    monkeypatch.setattr(pipeline, "HOLD_PACKED_FROM", 0)  # every quiz is a big one
    monkeypatch.setattr(pipeline, "held", lambda d: held.append(d) or writers_base.held(d))
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    assert built(tmp_path, "packed", 1) == plain
    # what a single file, an assessment, the backup's questions.xml or a QTI 2.1 manifest is put together from
    assert {d.schema for d in held} == {"moodle-question", "qti12-item", "mbz-question", "manifest-resource"}


def test_a_drawn_section_split_over_chunks_keeps_its_group_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Canvas gives a question group its first question's points: a chunk that holds only later
    questions of the section must still write those (it wrote its own first question's)."""
    questions = "".join(f"{i}. Q{i}? {{#q{i} points={i}}}\n\nA) a\nB) b\n\nAnswer: A\n\n" for i in range(1, 7))
    source = tmp_path / "g.md"
    source.write_text("---\ntitle: G\n---\n\n# Pool {#pool select=2}\n\n" + questions, encoding="utf-8")

    def canvas(name: str) -> bytes:
        build(BuildOptions(sources=[source], out_dir=tmp_path / name, formats=["canvas"], jobs=1))
        return (tmp_path / name / "g.canvas.zip").read_bytes()

    whole = canvas("whole")
    monkeypatch.setattr(pipeline, "CHUNK", 2)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    assert canvas("chunked") == whole
    with zipfile.ZipFile(io.BytesIO(whole)) as archive:
        assessment = archive.read("g/g.xml").decode()
    assert re.findall(r"<fieldlabel>points_possible</fieldlabel>\s*<fieldentry>([^<]*)<", assessment) == ["1"] * 6


def test_plan_splits_big_quizzes_and_ignores_the_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    from qti_builder.diagnostics import DiagnosticSink

    loaded = dict(enumerate(pipeline.load_quizzes(BuildOptions(sources=[SEED_SOURCE]), DiagnosticSink())))
    tasks = plan(loaded, ["qti21", "moodle"])
    parts = sorted((t.format, t.part, len(t.questions)) for t in tasks)
    assert parts == [("moodle", "frame", 0), ("moodle", "items", 2), ("moodle", "items", 4), ("moodle", "items", 4),
                     ("qti21", "frame", 0), ("qti21", "items", 2), ("qti21", "items", 4), ("qti21", "items", 4)]
    assert [t.weight for t in tasks] == sorted((t.weight for t in tasks), reverse=True)  # biggest first
    chunks = [(t.questions, t.format) for t in tasks if t.part == "items"]
    assert chunks[0][0] == chunks[1][0] and chunks[0][1] != chunks[1][1]  # a chunk's two targets back to back


PARENT = os.getpid()
#: Set by the parent once it has done two tasks: its own and one it claimed from the workers'
#: share. Made before run() forks, so the workers share it.
PARENT_TOOK_ONE: Any = None


def _where(task: int) -> tuple[int, bool]:
    if os.getpid() == PARENT:
        _done_in_parent.append(task)
        if len(_done_in_parent) >= 2:
            PARENT_TOOK_ONE.set()
    else:
        # A worker holds its task until the parent, done with its own, has taken one of the
        # rest: the parent must then share the work (bounded, so a broken run fails, not hangs).
        assert PARENT_TOOK_ONE.wait(timeout=60)
    return task, os.getpid() == PARENT


_done_in_parent: list[int] = []


def test_every_task_runs_once_and_the_parent_takes_its_share() -> None:
    from qti_builder.parallel import run

    global PARENT_TOOK_ONE
    PARENT_TOOK_ONE = multiprocessing.get_context("fork").Event()
    _done_in_parent.clear()
    results = list(run(list(range(12)), _where, jobs=2, here=lambda task: task == 0))
    assert sorted(task for task, _ in results) == list(range(12))
    in_parent = {task for task, parent in results if parent}
    assert 0 in in_parent and len(in_parent) > 1



#: Set by a worker as it starts its first group (made before run() forks).
WORKER_STARTED: Any = None


def _pid(task: int) -> tuple[int, int]:
    if os.getpid() == PARENT:
        # The parent's own task waits until a worker has claimed a group, so that both take some
        # (bounded, so a broken run fails, not hangs).
        assert task != 0 or WORKER_STARTED.wait(timeout=60)
    else:
        WORKER_STARTED.set()
    return task, os.getpid()


def test_tasks_claimed_together_run_in_one_process() -> None:
    """A chunk's three targets are claimed as one (pipeline._work), so that they share the
    Markdown cached of its texts: each group of tasks runs in one process, and both take groups."""
    from qti_builder.parallel import run

    global WORKER_STARTED
    WORKER_STARTED = multiprocessing.get_context("fork").Event()
    results = list(run(list(range(12)), _pid, jobs=2, here=lambda task: task == 0, together=lambda task: task // 3))
    assert sorted(task for task, _ in results) == list(range(12))
    where = {task: pid for task, pid in results}
    assert all(len({where[t] for t in range(g, g + 3) if t != 0}) == 1 for g in range(0, 12, 3))
    assert len(set(where.values())) == 2


def _square(task: int) -> int:
    return task * task


def test_the_workers_end_once_every_result_is_in_before_the_caller_takes_the_last() -> None:
    """The pool is closed as soon as every task is submitted: the workers end when the last result
    is in, while the caller still works with the results (a rebuild puts its outputs together
    then), not once it has taken the last one (the end then waited for their exit)."""
    from qti_builder.parallel import run

    before = set(multiprocessing.active_children())
    got, ended = [], False
    for result in run(list(range(8)), _square, jobs=3):
        got.append(result)
        if len(got) == 8:  # the last result: the workers end without this generator going on
            deadline = time.monotonic() + 30
            while set(multiprocessing.active_children()) - before and time.monotonic() < deadline:
                time.sleep(0.01)
            ended = not set(multiprocessing.active_children()) - before
    assert sorted(got) == [n * n for n in range(8)] and ended


SMALL_PACKAGE = {"items/q1.xml": b"<a>" + b"x" * 5000 + b"</a>", "imsmanifest.xml": b"<m/>",
                 "items/media/\ub2e4\uc774\uc5b4\uadf8\ub7a8.png": bytes(range(256)) * 8, "assessmentTest.xml": b""}
#: More members than a zip's classic end record can count (a 100,000-question bank's QTI package).
ZIP64_PACKAGE = {f"items/q{n:06d}.xml": b"<q>%d</q>" % n for n in range(65_540)}


@pytest.mark.parametrize("documents", [SMALL_PACKAGE, ZIP64_PACKAGE], ids=["small", "zip64"])
def test_zip_writer_matches_zipfile(documents: dict[str, bytes]) -> None:
    mine = b"".join(zip_parts(compress(path, data) for path, data in documents.items()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(documents):
            info = zipfile.ZipInfo(path, date_time=zip_timestamp())
            info.compress_type, info.external_attr, info.create_system = zipfile.ZIP_DEFLATED, 0o644 << 16, 3
            info._compresslevel = COMPRESS_LEVEL  # type: ignore[attr-defined]
            archive.writestr(info, documents[path])
    assert mine == buffer.getvalue()
    assert (b"PK\x06\x06" in mine[-200:]) == (len(documents) > 0xFFFF)
    with zipfile.ZipFile(io.BytesIO(mine)) as archive:
        assert archive.testzip() is None
        assert {name: archive.read(name) for name in archive.namelist()} == documents


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.binary(max_size=3000), st.integers(0, 2**32 - 1))
def test_crc32_combine_is_zlibs_crc_of_the_two_together(first: bytes, second: bytes, start: int) -> None:
    crc1 = zlib.crc32(first, start)
    assert package.crc32_combine(crc1, zlib.crc32(second), len(second)) == zlib.crc32(first + second, start)


def test_crc32_combine_of_lengths_past_four_gib() -> None:
    """A length is a number of any size (a run is never that long, a member's total may be):
    zeros, whose CRC zlib computes directly, combined by length alone."""
    zeros = bytes(1 << 20)
    crc, length = zlib.crc32(b"head"), 0
    for _ in range(3):
        crc, length = package.crc32_combine(crc, zlib.crc32(zeros), len(zeros)), length + len(zeros)
    assert crc == zlib.crc32(zeros * 3, zlib.crc32(b"head"))
    big = 5 << 30  # x^(8 × 5 GiB) computed by squaring, as zlib does
    assert package.crc32_combine(0, 0, big) == 0 and package.crc32_combine(1, 0, big) != 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.binary(max_size=700), max_size=3), max_size=6))
def test_runs_finished_have_the_crc_of_their_bytes_together(runs: list[list[bytes]]) -> None:
    """Each run's CRC combined in one multiplication by its own ``shift`` (x^(8 x its size)),
    kept with it: a run taken from the build cache brings it."""
    deflated = [package.deflated(run) for run in runs]
    assert all(run.shift == package.crc32_shift(run.size) for run in deflated)
    whole = b"".join(b"".join(run) for run in runs)
    stream = package.finished(deflated)
    assert (stream.crc, stream.size, stream.shift) == (zlib.crc32(whole), len(whole), package.crc32_shift(len(whole)))
    assert zlib.decompress(stream.data, -15) == whole


def test_runs_made_before_are_finished_without_working_out_their_shifts(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [package.deflated([b"<q>%d</q>" % n * 300]) for n in range(40)]  # as the build cache keeps them
    lengths: list[int] = []
    real = package.crc32_shift
    monkeypatch.setattr(package, "crc32_shift", lambda length: lengths.append(length) or real(length))
    stream = package.finished(runs)
    assert lengths == [stream.size], "only the whole stream's own"
    assert stream.crc == zlib.crc32(b"".join(b"<q>%d</q>" % n * 300 for n in range(40)))


@pytest.mark.parametrize("level", [COMPRESS_LEVEL, package.TAR_LEVEL])
def test_each_run_is_deflated_alone_and_runs_make_one_stream(level: int) -> None:
    """Each run ends byte-aligned with no history needed before it (it inflates alone), and runs
    one after the other, finished, inflate to their bytes together with the CRC-32 of all."""
    texts = [b"<item>%d " % n * (n % 7 + 1) + "한국어 항목".encode() * n for n in range(40)]
    runs = [package.deflated(texts[k:k + 6], level) for k in range(0, len(texts), 6)] + [package.deflated([], level)]
    for k, run in enumerate(runs):
        assert zlib.decompressobj(-15).decompress(run.data) == b"".join(texts[6 * k:6 * k + 6])
    stream = package.finished(runs)
    whole = b"".join(texts)
    assert zlib.decompress(stream.data, -15) == whole and (stream.crc, stream.size) == (zlib.crc32(whole), len(whole))


def _member_bytes(member: writers_base.Document | Spliced) -> bytes:
    return b"".join(member.pieces())


def test_packages_deflated_in_runs_read_back_as_their_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every package of every source, its spliced members and backup deflated in runs of 2
    questions, read back by Python's zipfile, gzip and tarfile (and ``unzip -t``, ``gzip -t``)
    as exactly the documents the writers render; the backup's tar is, before compression, the
    tar Python's tarfile writes of them."""
    monkeypatch.setattr(package, "RUN_QUESTIONS", 2)
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    build(BuildOptions(sources=SOURCES, out_dir=tmp_path / "out", jobs=2))
    sink = DiagnosticSink()
    options = BuildOptions(sources=SOURCES)
    outputs = render_outputs(load_quizzes(options, sink), options, sink)
    checked = 0
    for output in outputs:
        if output.container == "zip" and not output.archive:
            continue
        path = tmp_path / "out" / output.filename
        members = {m.path: _member_bytes(m) for m in assemble(output.documents)}
        if output.container == "zip":
            with zipfile.ZipFile(path) as archive:
                assert archive.testzip() is None
                assert {name: archive.read(name) for name in archive.namelist()} == members
            if shutil.which("unzip"):
                assert subprocess.run(["unzip", "-tq", str(path)], capture_output=True).returncode == 0
        else:
            raw = gzip.decompress(path.read_bytes())
            with tarfile.open(fileobj=io.BytesIO(raw)) as archive:
                assert {m.name: archive.extractfile(m).read() for m in archive.getmembers()} == members  # type: ignore[union-attr]
            expected = io.BytesIO()
            with tarfile.open(fileobj=expected, mode="w", format=tarfile.USTAR_FORMAT) as tar:
                for name in sorted(members):
                    info = tarfile.TarInfo(name)
                    info.size, info.mtime, info.mode, info.uname, info.gname = len(members[name]), build_epoch(), 0o644, "", ""
                    tar.addfile(info, io.BytesIO(members[name]))
            assert raw == expected.getvalue()
            if shutil.which("gzip"):
                assert subprocess.run(["gzip", "-t", str(path)], capture_output=True).returncode == 0
        checked += 1
    assert checked == 3 * len(SOURCES)  # QTI 2.1, Canvas and the backup of each


PLAIN_CHARACTERS = st.sampled_from(list("aZ0가힣 ,.;:?!'\"/()%@{}=+-") + ["1.", "2)", "  ", "é"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PLAIN_CHARACTERS, min_size=1, max_size=15).map("".join))
def test_plain_text_shortcut_renders_like_markdown(text: str) -> None:
    renderers = [content.render_block, content.render_inline, content.render_html, content.render_html_inline,
                 content.render_preview, content.plain_text]
    clear_caches()
    fast = [render(text) for render in renderers]
    plain, content._PLAIN = content._PLAIN, re.compile(r"(?!)")  # never plain: the slow path
    try:
        clear_caches()
        slow = [render(text) for render in renderers]
    finally:
        content._PLAIN = plain
        clear_caches()
    assert fast == slow


def clear_caches() -> None:
    for value in vars(content).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def test_the_schemas_compile_in_this_thread_after_every_source_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never a parse beside a compile: with lxml parsing on one thread, a schema compiling on
    another failed one build in about 150 (its xml:base import unresolved, seen in CI). The schemas
    compile in the thread the workers are forked from, which validates: lxml validates more
    slowly against a schema another thread compiled."""
    import threading

    events: list[tuple[str, str, str]] = []
    read_quiz, load_schemas = pipeline.read_quiz, pipeline.load_schemas

    def reading(*args: Any, **kwargs: Any) -> Any:
        events.append(("read", "start", threading.current_thread().name))
        try:
            return read_quiz(*args, **kwargs)
        finally:
            events.append(("read", "end", threading.current_thread().name))

    def compiling(*args: Any, **kwargs: Any) -> Any:
        events.append(("compile", "start", threading.current_thread().name))
        try:
            return load_schemas(*args, **kwargs)
        finally:
            events.append(("compile", "end", threading.current_thread().name))

    monkeypatch.setattr(pipeline, "read_quiz", reading)
    monkeypatch.setattr(pipeline, "load_schemas", compiling)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    main = threading.main_thread().name
    outputs = []
    for jobs in (1, 2):
        events.clear()
        outputs.append(built(tmp_path, f"jobs-{jobs}", jobs))
        assert {thread for _, _, thread in events} == {main}
        kinds = [(stage, edge) for stage, edge, _ in events]
        last_read = max(i for i, kind in enumerate(kinds) if kind == ("read", "end"))
        assert kinds.index(("compile", "start")) > last_read, kinds
    assert outputs[0] == outputs[1]


def test_pieces_read_on_the_workers_give_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Markdown source with top-level sections read in pieces, the pieces on forked workers
    (readers/markdown/pieces.py): the files are those of one process reading each source whole."""
    from qti_builder.readers.markdown import pieces

    sources = [p for p in SOURCES if p.suffix == ".md"]
    serial = build(BuildOptions(sources=sources, out_dir=tmp_path / "serial", jobs=1))
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    handed: list[int] = []
    real_run = pipeline.run

    def running(tasks: Any, work: Any, jobs: int, *args: Any, **kwargs: Any) -> Any:
        if tasks and isinstance(tasks[0], tuple):  # a source's pieces, (index, numbering)
            handed.append(len(tasks))
        return real_run(tasks, work, jobs, *args, **kwargs)

    monkeypatch.setattr(pipeline, "run", running)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    parallel = build(BuildOptions(sources=sources, out_dir=tmp_path / "parallel", jobs=2))
    assert digests(tmp_path / "parallel") == digests(tmp_path / "serial")
    assert [d.render() for d in parallel.diagnostics] == [d.render() for d in serial.diagnostics]
    # The pieces went to the workers (which of them each process read is the scheduler's affair).
    assert handed and sum(handed) > len(handed)


def test_the_schemas_compile_in_this_thread_while_the_workers_read_pieces(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """While forked workers read a large source's pieces, this process compiles the schemas, in
    its one thread (no parse beside the compile in this process), once; the files are those of a
    build in one process."""
    import threading

    from qti_builder.readers.markdown import pieces

    sources = [p for p in SOURCES if p.suffix == ".md"]
    serial = build(BuildOptions(sources=sources, out_dir=tmp_path / "serial", jobs=1))
    events: list[tuple[str, str]] = []
    read_quiz, load_schemas = pipeline.read_quiz, pipeline.load_schemas

    def reading(*args: Any, **kwargs: Any) -> Any:
        events.append(("read", threading.current_thread().name))
        try:
            return read_quiz(*args, **kwargs)
        finally:
            events.append(("read end", threading.current_thread().name))

    def compiling(*args: Any, **kwargs: Any) -> Any:
        events.append(("compile", threading.current_thread().name))
        return load_schemas(*args, **kwargs)

    monkeypatch.setattr(pipeline, "read_quiz", reading)
    monkeypatch.setattr(pipeline, "load_schemas", compiling)
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
    parallel = build(BuildOptions(sources=sources, out_dir=tmp_path / "parallel", jobs=2))
    assert digests(tmp_path / "parallel") == digests(tmp_path / "serial")
    assert [d.render() for d in parallel.diagnostics] == [d.render() for d in serial.diagnostics]
    assert {thread for _, thread in events} == {threading.main_thread().name}
    kinds = [kind for kind, _ in events]
    assert kinds.count("compile") == 1
    at = kinds.index("compile")
    assert kinds[at - 1] == "read" and kinds[at + 1] == "read end", kinds  # during a source's read


def test_a_schema_error_while_the_workers_read_is_raised_where_the_build_asks(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A compile that fails while the workers read is not the reader's error: the build raises
    it where it asks for the schemas, after reading, as it does without pieces."""
    from qti_builder.diagnostics import Diagnostic, SchemaError, Severity
    from qti_builder.readers.markdown import pieces

    calls: list[str] = []
    state = {"reading": False}
    read_quiz = pipeline.read_quiz

    def reading(*args: Any, **kwargs: Any) -> Any:
        state["reading"] = True
        try:
            return read_quiz(*args, **kwargs)
        finally:
            state["reading"] = False

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append("compile while reading" if state["reading"] else "compile")
        raise SchemaError([Diagnostic(Severity.ERROR, "QB401", "no schemas here")])

    monkeypatch.setattr(pipeline, "read_quiz", reading)
    monkeypatch.setattr(pipeline, "load_schemas", failing)
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    with pytest.raises(SchemaError, match="no schemas here"):
        build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "out", jobs=2))
    assert calls == ["compile while reading"]  # once, ahead; the error kept and raised, not a second try
    assert not (tmp_path / "out").exists()
