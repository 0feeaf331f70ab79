"""A quiz's cache entry as a build writes it (issue 34, twelfth session, branch ``handbuild``):
its outputs deflated on a thread of their own while the quiz's model is pickled, the entry
whole in the cache folder when the build returns and no thread of it left running; the quiz's
facts worked out once for the entry and the command line together. Every test has its own
empty cache folder (conftest.py's ``build_cache``)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder import cache, pipeline
from qti_builder.cached_build import build
from qti_builder.diagnostics import Diagnostic, Severity
from qti_builder.results import BuildIncomplete, BuildOptions, QuizFacts, QuizResult


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_quiz_entrys_outputs_are_deflated_beside_the_model_and_come_back_byte_for_byte(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "cold", cache=False))
    cold = _files(tmp_path / "cold")
    monkeypatch.setattr(cache, "DEFLATE_BESIDE_FROM", 0)  # the seed's outputs are small: on a thread all the same
    threads: list[threading.Thread] = []
    packed = cache._packed

    def noted(contents: dict[str, bytes]) -> dict[str, tuple[bool, bytes]]:
        threads.append(threading.current_thread())
        time.sleep(0.2)  # slower than the model's pickling: the entry must wait for it
        return packed(contents)

    monkeypatch.setattr(cache, "_packed", noted)
    running = set(threading.enumerate())
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "kept", cache=True))
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert set(threading.enumerate()) == running  # waited for: none left to the command's exit
    assert _files(tmp_path / "kept") == cold
    read = [cache._read(p.parent.name + p.name) for p in build_cache.rglob("*") if p.is_file()]
    [stored] = [entry for entry in read if isinstance(entry, cache._StoredQuiz)]
    assert sorted(stored.unpacked().contents.values()) == sorted(cold.values())

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the quiz was read or rendered although the cache has it")

    monkeypatch.setattr(pipeline, "_read", refuse)
    monkeypatch.setattr(pipeline, "run_task", refuse)
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "taken", cache=True))
    assert _files(tmp_path / "taken") == cold


def test_what_fails_on_the_deflating_thread_fails_where_it_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(contents: dict[str, bytes]) -> dict[str, tuple[bool, bytes]]:
        raise MemoryError("no room")

    monkeypatch.setattr(cache, "_packed", fail)
    done = cache._packed_beside({"moodle": b"<quiz/>" * cache.DEFLATE_BESIDE_FROM})
    with pytest.raises(MemoryError, match="no room"):
        done()


def test_a_kept_quizs_facts_are_worked_out_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry's facts are the ones the command line says next, not worked out again on the
    copy the entry keeps (0.02 s of a 10,000-question bank's rebuild)."""
    calls: list[object] = []
    made = QuizFacts.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[QuizFacts], quiz: object) -> QuizFacts:
        calls.append(quiz)
        return made(cls, quiz)  # type: ignore[no-any-return]

    monkeypatch.setattr(QuizFacts, "of", classmethod(counted))
    result = build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "out", cache=True))
    [quiz] = result.results
    facts = quiz.facts()
    assert facts is not None and facts.questions > 0
    assert len(calls) == 1


def _noted_deflates(monkeypatch: pytest.MonkeyPatch, events: list[str]) -> list[threading.Thread]:
    """The thread of each deflate of a quiz's outputs from now on (each noted in ``events`` as it
    starts), on a thread even for the seed's small outputs; the staged files' commit and the
    quiz's entry stored noted in ``events`` too."""
    monkeypatch.setattr(cache, "DEFLATE_BESIDE_FROM", 0)
    threads: list[threading.Thread] = []
    packed, commit, store = cache._packed, pipeline.Staging.commit, cache.store

    def noted(contents: dict[str, bytes]) -> dict[str, tuple[bool, bytes]]:
        threads.append(threading.current_thread())
        events.append("deflate")
        return packed(contents)

    def committed(self: pipeline.Staging) -> object:
        events.append("commit")
        return commit(self)

    def stored(*args: object) -> None:
        events.append("store")
        store(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(cache, "_packed", noted)
    monkeypatch.setattr(pipeline.Staging, "commit", committed)
    monkeypatch.setattr(pipeline, "store", stored)
    return threads


def test_a_quiz_entrys_outputs_start_deflating_as_soon_as_they_are_made(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not when the entry is stored, after the files are committed: on a second CPU while they are
    (the model pickled ahead no longer hides that deflate, bench/README.md). Once, on a thread
    waited for by the build; the entry gives back the outputs a build without the cache writes."""
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "cold", cache=False))
    events: list[str] = []
    threads = _noted_deflates(monkeypatch, events)
    running = set(threading.enumerate())
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "kept", cache=True))
    assert events == ["deflate", "commit", "store"]
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert set(threading.enumerate()) == running and not cache._SOON
    cold = _files(tmp_path / "cold")
    assert _files(tmp_path / "kept") == cold
    read = [cache._read(p.parent.name + p.name) for p in build_cache.rglob("*") if p.is_file()]
    [stored] = [entry for entry in read if isinstance(entry, cache._StoredQuiz)]
    assert sorted(stored.unpacked().contents.values()) == sorted(cold.values())


def test_a_deflate_no_entry_takes_is_waited_for_and_forgotten(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quiz that fails after its outputs are made (here: an error added once the work is done)
    is not kept: its deflate, started all the same, is waited for before the build returns."""
    events: list[str] = []
    threads = _noted_deflates(monkeypatch, events)
    accept = pipeline._accept

    def failed(result: QuizResult, codes: frozenset[str]) -> None:
        accept(result, codes)
        result.diagnostics.append(Diagnostic(Severity.ERROR, "QB501", "failed after its outputs were made"))

    monkeypatch.setattr(pipeline, "_accept", failed)
    running = set(threading.enumerate())
    with pytest.raises(BuildIncomplete):
        build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "out", cache=True))
    assert events == ["deflate", "commit"] and len(threads) == 1  # committed with none of its files, not stored
    assert set(threading.enumerate()) == running and not cache._SOON
    read = [cache._read(p.parent.name + p.name) for p in build_cache.rglob("*") if p.is_file()]
    assert not [entry for entry in read if isinstance(entry, cache._StoredQuiz)]


def test_a_deflate_started_soon_is_taken_only_for_the_bytes_it_was_started_on(monkeypatch: pytest.MonkeyPatch) -> None:
    contents = {"moodle": b"<quiz/>" * 1000, "qti21": b"PK\x03\x04 a zip"}
    cache.pack_soon(contents)
    done = cache._taken_soon(contents)
    assert done is not None and done() == cache._packed(contents) and not cache._SOON
    cache.pack_soon(contents)
    contents["moodle"] = b"<quiz>another</quiz>"
    assert cache._taken_soon(contents) is None and not cache._SOON
    assert cache._taken_soon(dict(contents)) is None


def test_a_watching_process_deflates_nothing_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its entries are written in a process forked for them, where a thread started here is not."""
    monkeypatch.setattr(cache, "keeping", lambda: True)
    cache.pack_soon({"moodle": b"<quiz/>" * 1000})
    assert not cache._SOON


def test_a_quiz_entry_is_pickled_straight_into_its_file(tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not pickled into memory first (its outputs copied there, then hashed and written): into its
    file as it is pickled, its checksum made on the way and put in its place; the same bytes as
    pickling it first gives, and the next build takes the quiz whole from it."""
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "cold", cache=False))
    dumped: list[tuple[object, object]] = []
    real = cache._dump

    def recording(entry: object, into: object) -> None:
        if isinstance(entry, cache._StoredQuiz):
            dumped.append((entry, into))
        real(entry, into)

    monkeypatch.setattr(cache, "_dump", recording)
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "kept", cache=True))
    [(entry, into)] = dumped
    assert not isinstance(into, io.BytesIO)
    [path] = [p for p in build_cache.glob("*/*") if isinstance(cache._read(p.parent.name + p.name), cache._StoredQuiz)]
    raw = path.read_bytes()
    payload = raw[cache.PAYLOAD_AT:]
    assert payload == b"p" + cache._pickled(entry)
    assert raw == cache.framed(payload)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the quiz was read or rendered although the cache has it")

    monkeypatch.setattr(pipeline, "_read", refuse)
    monkeypatch.setattr(pipeline, "run_task", refuse)
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "taken", cache=True))
    assert _files(tmp_path / "taken") == _files(tmp_path / "cold")
