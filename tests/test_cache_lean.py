"""The build cache's own costs on a rebuild (issue 34, sixth session): an entry is unpickled with
Python's cyclic garbage collector paused (and the collector left as it was found), and whatever
is kept to spare a rebuild work still gives the bytes of a build without the cache. Every test
has its own empty cache folder (conftest.py's ``build_cache``)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from helpers import ROOT
from pydantic import BaseModel

from qti_builder import cache

#: What the collector's switch was each time a :class:`_Probe` was unpickled.
SEEN: list[bool] = []
#: ... and each time one was pickled.
PICKLED: list[bool] = []


def _probe_loaded(value: int) -> _Probe:
    SEEN.append(gc.isenabled())
    return _Probe(value)


class _Probe:
    """An object that notes, when it is unpickled, whether the collector was on."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __reduce__(self) -> tuple[object, tuple[int]]:
        PICKLED.append(gc.isenabled())
        return _probe_loaded, (self.value,)


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("deflate", [True, False])
def test_an_entry_is_pickled_and_unpickled_with_the_collector_paused_and_left_as_it_was(collecting: bool, deflate: bool,
                                                                                        build_cache: Path) -> None:
    SEEN.clear()
    PICKLED.clear()
    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        cache._write("ab" * 32, [_Probe(k) for k in range(3)], deflate=deflate)
        assert gc.isenabled() is collecting
        entry = cache._read("ab" * 32)
        assert gc.isenabled() is collecting
    finally:
        gc.enable() if was else gc.disable()
    assert isinstance(entry, list) and [p.value for p in entry] == [0, 1, 2]
    assert PICKLED == [False, False, False]
    assert SEEN == [False, False, False]


def test_a_damaged_entry_still_leaves_the_collector_on(build_cache: Path) -> None:
    """An entry whose checksum matches but whose pickle fails part way is a miss, and the
    collector is on again after it."""
    payload = b"p" + b"\x80\x05garbage"
    path = build_cache / "cd" / ("cd" * 31)
    path.parent.mkdir(parents=True)
    path.write_bytes(cache.framed(payload))
    assert gc.isenabled()
    assert cache._read("cd" * 32) is None
    assert gc.isenabled()


def _same_model(a: object, b: object, where: str = "quiz") -> None:
    """``b`` is ``a`` made again: the same classes, values, fields set, extra and private
    attributes, all the way down."""
    from pydantic import BaseModel

    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert isinstance(b, BaseModel)
        assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__, where
        assert a.__pydantic_extra__ == b.__pydantic_extra__, where
        assert a.__pydantic_private__ == b.__pydantic_private__, where
        assert a.__dict__.keys() == b.__dict__.keys(), where
        for name, value in a.__dict__.items():
            _same_model(value, b.__dict__[name], f"{where}.{name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where  # type: ignore[arg-type]
        for k, (x, y) in enumerate(zip(a, b)):  # type: ignore[call-overload]
            _same_model(x, y, f"{where}[{k}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where  # type: ignore[attr-defined]
        for key, value in a.items():
            _same_model(value, b[key], f"{where}[{key!r}]")  # type: ignore[index]
    else:
        assert a == b, where


#: Sources with every question kind, settings given and left out, sections in sections, groups
#: and their points, media, formulas and Korean text.
MODEL_SOURCES = [ROOT / "source" / name for name in ("content-showcase.md", "python-fundamentals.md", "ray-train-tune.md")] \
    + [ROOT / "tests" / "fixtures" / name for name in ("all-types.yaml", "blank-points.md", "calculated.md", "exam-ko.md",
                                                       "moodle-quiz.yaml", "scoring-rules.md")]


@pytest.mark.parametrize("source", MODEL_SOURCES, ids=lambda p: p.name)
def test_a_quiz_model_comes_back_from_its_entry_as_it_was(source: Path, build_cache: Path) -> None:
    """The quiz's model is pickled model by model as its class and parts (``cache._pickled``), not
    through pydantic's own state: what comes back is the same model, down to which fields the
    source gave (what ``settings.given()`` reports) and the private attributes (a section's
    group points, set on a chunk's copy)."""
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.readers import read_quiz

    read = read_quiz(source, DiagnosticSink())
    assert read is not None
    quiz = read[0]
    for _, section in quiz.iter_sections():  # a private attribute set, as pipeline._only sets it
        section._group_points = section.group_points()
    cache._write("ef" * 32, {"quiz": quiz})
    back = cache._read("ef" * 32)
    assert isinstance(back, dict)
    _same_model(quiz, back["quiz"])
    assert back["quiz"] == quiz
    assert back["quiz"].settings.given() == quiz.settings.given()


class _OwnWay(BaseModel):
    """A model that pickles its own way."""

    value: int

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _own_way, (self.value + 1,)


def _own_way(value: int) -> _OwnWay:
    return _OwnWay(value=value)


def test_a_model_that_pickles_its_own_way_keeps_it(build_cache: Path) -> None:
    cache._write("fa" * 32, [_OwnWay(value=1)])
    back = cache._read("fa" * 32)
    assert isinstance(back, list) and back[0].value == 2


def _expanded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """(schema, question) of every document held compressed whose bytes are expanded from now on."""
    from qti_builder.writers.base import Document

    expanded: list[tuple[str, str | None]] = []
    real = Document.content

    def counting(document: Document) -> bytes:
        if document.packed:
            expanded.append((document.schema, document.question_id))
        return real.fget(document)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(Document, "content", property(counting))
    return expanded


@pytest.mark.parametrize("runs_kept", [True, False])
def test_an_unchanged_chunks_documents_are_expanded_only_when_their_run_is_deflated_again(
        runs_kept: bool, tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Canvas or backup chunk's question documents are kept in its entry each compressed on its
    own: after one edit, with the runs of the last build in the cache, none of an unchanged chunk's
    documents is expanded (its runs are taken whole); with those runs gone, each is expanded
    to deflate its run again. Either way the files are a build's without the cache, byte for byte."""
    from test_cache import _bank, _build, _entries

    from qti_builder import pipeline

    source = tmp_path / "bank.md"
    count, edited = pipeline.CHUNK * 3, pipeline.CHUNK + 7
    source.write_text(_bank(count), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    if not runs_kept:
        for entry in _entries(build_cache):
            if isinstance(cache._read(entry.parent.name + entry.name), cache.CachedRuns):
                entry.unlink()
    source.write_text(_bank(count, edited=edited), "utf-8")
    expanded = _expanded(monkeypatch)
    warm = _build(str(source), "--jobs", "1", out=tmp_path / "warm")
    unchanged = {f"q{n}" for n in range(1, count + 1)} - {f"q{n}" for n in range(pipeline.CHUNK + 1, 2 * pipeline.CHUNK + 1)}
    if runs_kept:  # (the edited chunk's other questions are taken out of its entry, held compressed
        # too, and expanded to deflate their runs again, which the edit changed)
        assert [(schema, q) for schema, q in expanded if q in unchanged] == []
    else:  # every question of the unchanged chunks, in the three members put together in runs
        assert {(schema, q) for schema, q in expanded if q in unchanged} == \
            {(schema, q) for schema in ("qti12-item", "mbz-question", "manifest-resource") for q in unchanged}
    monkeypatch.undo()
    assert warm == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "cold")
    assert b"(edited)" in warm[3]["bank.moodle.xml"]


def _rules_run(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the rules across a backup's parts run from now on (one item per run)."""
    from qti_builder import backup_rules

    runs: list[int] = []
    real = backup_rules.package_rules

    def counting(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        runs.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(backup_rules, "package_rules", counting)
    return runs


def test_a_backups_rules_are_not_run_again_for_the_same_parts_and_records(tmp_path: Path, build_cache: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules across a big quiz's backup read its frames and what validation read of each
    question's records (id, parent, type): after one question's text is edited, neither changed,
    so the rules are not run again; a question added changes the frames (its line, its slot), and
    they are. The files are a build's without the cache each time."""
    from test_cache import _bank, _build

    from qti_builder import pipeline

    source = tmp_path / "bank.md"
    count = pipeline.CHUNK * 3
    runs = _rules_run(monkeypatch)
    source.write_text(_bank(count), "utf-8")
    assert _build(str(source), "--jobs", "1", out=tmp_path / "first")[0] == 0
    assert runs == [1]
    source.write_text(_bank(count, edited=pipeline.CHUNK + 7), "utf-8")
    edited = _build(str(source), "--jobs", "1", out=tmp_path / "edited")
    assert runs == [1]
    assert edited == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "edited-cold")
    assert runs == [1, 1]  # without the cache, the rules run
    source.write_text(_bank(count + 2), "utf-8")
    runs.clear()
    grown = _build(str(source), "--jobs", "1", out=tmp_path / "grown")
    assert runs == [1]
    assert grown == _build(str(source), "--jobs", "1", "--no-cache", out=tmp_path / "grown-cold")


def test_a_backup_whose_rules_found_a_problem_is_checked_in_every_build(tmp_path: Path, build_cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A problem the rules find fails the build and is never remembered: the next build of the
    same source runs them again and reports it again."""
    from test_cache import _bank, _build

    from qti_builder import backup_rules, pipeline

    def a_problem(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        runs.append(1)
        yield "quiz.xml", (1, 1, "a problem made up by the test")

    runs: list[int] = []
    monkeypatch.setattr(backup_rules, "package_rules", a_problem)
    source = tmp_path / "bank.md"
    source.write_text(_bank(pipeline.CHUNK * 3), "utf-8")
    for attempt in ("first", "again"):
        code, _, stderr, files = _build(str(source), "--jobs", "1", out=tmp_path / attempt)
        assert code != 0 and "a problem made up by the test" in stderr and not files
    assert runs == [1, 1]


def _groups(count: int) -> list[list[tuple[str, str, tuple[str, ...]]]]:
    """The groups of tasks ``parallel.run`` claims as one in a build of a quiz of ``count``
    questions in the default targets: (target, part, first question) of each task of a group."""
    import itertools
    import tempfile

    from test_cache import _bank

    from qti_builder import pipeline
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.media import MediaSet
    from qti_builder.readers import read_quiz
    from qti_builder.writers import DEFAULT_FORMATS

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "bank.md"
        source.write_text(_bank(count), "utf-8")
        read = read_quiz(source, DiagnosticSink())
    assert read is not None
    quiz, source_map = read
    tasks = pipeline.plan({0: pipeline.WritableQuiz(quiz, source_map.question_spans(quiz), MediaSet())}, list(DEFAULT_FORMATS))
    return [[(t.format, t.part, t.questions[:1]) for t in group]
            for _, group in itertools.groupby(tasks, key=pipeline._claimed_together)]


def test_a_big_quizs_frames_are_claimed_one_by_one_and_a_chunks_targets_together(build_cache: Path) -> None:
    """A rebuild after one edit renders a big quiz's frames and the edited chunk in each target:
    each frame is claimed by whichever process is free (claimed as one, one process had them
    all, the QTI 2.1 frame the heaviest, while the other rendered one chunk and waited), while a
    chunk's targets, which share what is cached of its texts, stay together, as do a small
    quiz's targets."""
    from qti_builder import pipeline
    from qti_builder.writers import DEFAULT_FORMATS

    big = _groups(pipeline.CHUNK * 3)
    frames = [group for group in big if any(part == "frame" for _, part, _ in group)]
    assert sorted(target for group in frames for target, _, _ in group) == sorted(DEFAULT_FORMATS)
    assert all(len(group) == 1 for group in frames)
    chunks = [group for group in big if group not in frames]
    assert len(chunks) == 3 and all(sorted(t for t, _, _ in group) == sorted(DEFAULT_FORMATS) for group in chunks)
    assert all(len({first for _, _, first in group}) == 1 for group in chunks)
    small = _groups(10)
    assert len(small) == 1 and sorted(t for t, _, _ in small[0]) == sorted(DEFAULT_FORMATS)
