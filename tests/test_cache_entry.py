"""A quiz's cache entry as a build writes it (issue 34, twelfth session, branch ``handbuild``):
its outputs deflated on a thread of their own while the quiz's model is pickled, the entry
whole in the cache folder when the build returns and no thread of it left running; the quiz's
facts worked out once for the entry and the command line together. Every test has its own
empty cache folder (conftest.py's ``build_cache``)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder import cache, pipeline
from qti_builder.cached_build import build
from qti_builder.results import BuildOptions, QuizFacts


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
