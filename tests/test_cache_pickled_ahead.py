"""A big quiz's model pickled for its cache entry ahead, in a process forked for it once the quiz
is read (``cache.PickledAhead``, issue 34): the build by hand does not pickle it itself at the end.
What is checked: this process does not pickle the model; the entry holds the bytes a build
pickling it at the end holds; the next build takes the quiz whole from the entry, with its model,
and writes a build's files without the cache; each forked process is waited for and its
temporary file removed, also when it fails (the entry then pickles the model itself) and when
the quiz is not kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import cache, pipeline
from qti_builder.model import Quiz


@pytest.fixture
def ahead(monkeypatch: pytest.MonkeyPatch) -> list[tuple[cache.PickledAhead, int]]:
    """Each ``PickledAhead`` made from now on, with the process it forked; the 13-question bank big
    enough to be pickled ahead; the types this process pickles (``pickled_here``)."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(pipeline, "PICKLE_AHEAD_FROM", 10)
    made: list[tuple[cache.PickledAhead, int]] = []

    class Recorded(cache.PickledAhead):
        def __init__(self, quiz: Quiz) -> None:
            super().__init__(quiz)
            made.append((self, self.pid))

    monkeypatch.setattr(pipeline, "PickledAhead", Recorded)
    return made


def _pickled_here(monkeypatch: pytest.MonkeyPatch, fail_in_fork: bool = False) -> list[type]:
    """The type of everything this process pickles through ``cache._pickled`` from now on; with
    ``fail_in_fork``, a forked process's pickling of a model fails."""
    here, parent = [], os.getpid()
    real = cache._pickled

    def recording(entry: object) -> bytes:
        if os.getpid() == parent:
            here.append(type(entry))
        elif fail_in_fork and isinstance(entry, Quiz):
            raise RuntimeError("broken in the forked process")
        return real(entry)

    monkeypatch.setattr(cache, "_pickled", recording)
    return here


def _stored(folder: Path) -> cache._StoredQuiz:
    entries = [cache._read(p.parent.name + p.name) for p in folder.glob("*/*")]
    stored = [e for e in entries if isinstance(e, cache._StoredQuiz)]
    assert len(stored) == 1, stored
    return stored[0]


def _all_done(made: list[tuple[cache.PickledAhead, int]], folder: Path) -> None:
    """Every forked process waited for (none left to wait for) and no temporary file left."""
    assert made
    for pickling, pid in made:
        assert pid > 0 and pickling.pid == 0 and pickling.path is None
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert not [p for p in folder.rglob(".*") if p.name.endswith(".tmp")]


def test_the_model_is_pickled_ahead_into_the_same_entry(tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                        ahead: list[tuple[cache.PickledAhead, int]]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    here = _pickled_here(monkeypatch)
    first = _build(source, tmp_path / "first")
    assert first[0] == 0 and len(ahead) == 1
    assert Quiz not in here and cache._StoredQuiz in here  # the entry written here, its model pickled ahead
    _all_done(ahead, build_cache)
    kept = _stored(build_cache).quiz
    monkeypatch.setattr(pipeline, "PICKLE_AHEAD_FROM", 10_000)  # the same build, the model pickled at the end
    other = tmp_path / "other-cache"
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(other))
    assert _build(source, tmp_path / "second")[1:] == first[1:]
    assert Quiz in here and _stored(other).quiz == kept
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(build_cache))
    here.clear()
    again = _build(source, tmp_path / "again")  # taken whole from the entry
    assert again[0] == 0 and cache._StoredQuiz not in here
    assert again[2] == first[2] == _build(source, tmp_path / "cold", "--no-cache")[2]
    assert _model(_stored(build_cache).quiz) == _read(source)


def _model(pickled: bytes) -> dict[str, object]:
    return cache._unpickled(pickled).model_dump()  # type: ignore[no-any-return]


def _read(source: Path) -> dict[str, object]:
    """The model of ``source`` as a build reads it."""
    read = pipeline.load_quizzes(pipeline.BuildOptions(sources=[source]), pipeline.DiagnosticSink())
    return read[0].quiz.model_dump()


def test_a_failed_pickling_ahead_leaves_it_to_the_entry(tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                       ahead: list[tuple[cache.PickledAhead, int]]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    here = _pickled_here(monkeypatch, fail_in_fork=True)
    first = _build(source, tmp_path / "first")
    assert first[0] == 0 and Quiz in here
    _all_done(ahead, build_cache)
    assert _model(_stored(build_cache).quiz) == _read(source)
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    assert _build(source, tmp_path / "warm")[2] == _build(source, tmp_path / "cold", "--no-cache")[2]


def test_a_quiz_that_fails_after_its_read_leaves_no_process_nor_file(tmp_path: Path, build_cache: Path,
                                                                    ahead: list[tuple[cache.PickledAhead, int]]) -> None:
    """Two sections giving their Moodle categories one ID number: found by the checks run while the
    workers render, after the model was forked to be pickled; nothing is kept, nothing left behind."""
    source = tmp_path / "bank.md"
    source.write_text(_bank().replace("{#part-1}", "{#part-1 moodle_idnumber=SAME}")
                      .replace("{#part-2}", "{#part-2 moodle_idnumber=SAME}"), "utf-8")
    code, stderr, files = _build(source, tmp_path / "first", "--jobs", "2")  # checked while rendering: more than one process
    assert code != 0 and files == {} and "QB237" in stderr, stderr
    _all_done(ahead, build_cache)
    assert not [e for p in build_cache.glob("*/*") if isinstance(e := cache._read(p.parent.name + p.name), cache._StoredQuiz)]
