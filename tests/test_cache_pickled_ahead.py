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
from helpers.cli import run
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import cache, pipeline
from qti_builder.diagnostics import SourceSpan
from qti_builder.model import Quiz
from qti_builder.results import QuizFacts


@pytest.fixture
def ahead(monkeypatch: pytest.MonkeyPatch) -> list[tuple[cache.PickledAhead, int]]:
    """Each ``PickledAhead`` made from now on, with the process it forked; the 13-question bank big
    enough to be pickled ahead; the types this process pickles (``pickled_here``)."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(pipeline, "PICKLE_AHEAD_FROM", 10)
    made: list[tuple[cache.PickledAhead, int]] = []

    class Recorded(cache.PickledAhead):
        def __init__(self, quiz: Quiz, spans: dict[str, SourceSpan] | None = None) -> None:
            super().__init__(quiz, spans)
            made.append((self, self.pid))

    monkeypatch.setattr(pipeline, "PickledAhead", Recorded)
    return made


def _pickled_here(monkeypatch: pytest.MonkeyPatch, fail_in_fork: bool = False) -> list[type]:
    """The type of everything this process pickles through ``cache._dump`` (which ``_pickled`` and
    the writing of an entry not pickled yet go through) from now on; with ``fail_in_fork``, a
    forked process's pickling of a model fails."""
    here, parent = [], os.getpid()
    real = cache._dump

    def recording(entry: object, into: object) -> None:
        if os.getpid() == parent:
            here.append(type(entry))
        elif fail_in_fork and isinstance(entry, Quiz):
            raise RuntimeError("broken in the forked process")
        real(entry, into)

    monkeypatch.setattr(cache, "_dump", recording)
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


def test_the_spans_and_facts_are_made_ahead_with_the_model_and_come_back_from_the_entry(
        tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch, ahead: list[tuple[cache.PickledAhead, int]]) -> None:
    """The quiz's spans pickled and its facts worked out in the forked process too, not here: the
    entry holds what a build doing both at the end holds, and a build taken from it says each
    question's line (``--verbose``, from the spans) as a build without the cache does."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    here = _pickled_here(monkeypatch)
    facts_here, parent, made = [], os.getpid(), QuizFacts.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[QuizFacts], quiz: Quiz) -> QuizFacts:
        if os.getpid() == parent:
            facts_here.append(quiz)
        return made(cls, quiz)  # type: ignore[no-any-return]

    monkeypatch.setattr(QuizFacts, "of", classmethod(counted))
    assert _build(source, tmp_path / "first")[0] == 0 and len(ahead) == 1
    assert facts_here == [] and dict not in here  # neither worked out nor pickled here
    _all_done(ahead, build_cache)
    kept = _stored(build_cache)
    monkeypatch.setattr(pipeline, "PICKLE_AHEAD_FROM", 10_000)  # the same build, all of it done here at the end
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(tmp_path / "other-cache"))
    assert _build(source, tmp_path / "second")[0] == 0 and len(facts_here) == 1 and dict in here
    at_end = _stored(tmp_path / "other-cache")
    assert (kept.spans, kept.facts, kept.quiz) == (at_end.spans, at_end.facts, at_end.quiz)
    assert kept.entry.result.spans == {} and len(cache._unpickled(kept.spans)) == 13
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(build_cache))
    cold = run("build", str(source), "--out", str(tmp_path / "cold"), "--verbose", "--no-cache")
    monkeypatch.setattr(pipeline, "_read", _refused)
    taken = run("build", str(source), "--out", str(tmp_path / "taken"), "--verbose")
    assert taken[0] == 0 and "bank.md:8: q1 " in taken[1]
    assert taken[1].replace("taken", "OUT") == cold[1].replace("cold", "OUT")


def _refused(*args: object) -> None:
    raise AssertionError("the quiz was read although the cache has it")


def test_other_spans_than_those_forked_are_pickled_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the process made is taken only for the model and spans it was forked with."""
    quiz = _bank_model()
    spans = {"q1": SourceSpan("bank.md", 7, 1)}
    pickling = cache.PickledAhead(quiz, spans)
    assert pickling.take(quiz, dict(spans)) is None and pickling.pid == 0
    pickling = cache.PickledAhead(quiz, spans)
    taken = pickling.take(quiz, spans)
    assert taken is not None and cache._unpickled(taken.spans) == spans and taken.facts == QuizFacts.of(quiz)
    assert cache._unpickled(taken.quiz).model_dump() == quiz.model_dump()


def _bank_model() -> Quiz:
    read = pipeline.load_quizzes(pipeline.BuildOptions(sources=[Path(__file__).parent.parent / "source" / "ray-train-tune.md"]),
                                 pipeline.DiagnosticSink())
    return read[0].quiz
