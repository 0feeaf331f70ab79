"""A watch's first save that edits a question of a big chunk renders that question's small chunk
(``pipeline.WARM_CHUNK``) only: the chunk's other small chunks are parted from the big chunk's
result of the build before (``pipeline._parted``) when each small chunk's key in that build is its
key now, and rendered otherwise. Each save's files are a ``--no-cache`` build's, byte for byte; a
parted result is what rendering its questions alone makes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.parted import compare_with_rendered
from test_watch_warm import _diagnostics, _fresh, _rendered, _watch

from qti_builder import pipeline

#: The chunks of the test banks: small, so that a bank of a few sections has several of each.
CHUNK, WARM_CHUNK = 40, 8
TARGETS = ("qti21", "moodle", "canvas", "moodle-quiz")


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)


#: (target, questions) of each result parted in the test so far, each compared with rendering it;
#: what differed.
_compared: list[tuple[str, int]] = []
_differ: list[str] = []


@pytest.fixture(autouse=True)
def _parted_as_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each result parted (``pipeline._parted``) compared, as it is made, with rendering its small
    chunk now: the same documents, zip entries and their questions, facts, in the same order, and
    the same summary for the rules across the package's files."""
    real_parted, real_rendered = pipeline._parted, pipeline._rendered
    _compared.clear()
    _differ.clear()

    def checked(*args: object) -> list[pipeline.TaskResult]:
        parted = real_parted(*args)  # type: ignore[arg-type]
        for result in parted:
            compare_with_rendered(result, real_rendered, _compared, _differ)
        return parted

    monkeypatch.setattr(pipeline, "_parted", checked)


def _bank(sizes: tuple[int, ...] = (50, 50, 50), edits: dict[int, str] | None = None, dropped: int | None = None,
          added: int | None = None) -> str:
    """A bank of top-level sections of ``sizes`` questions, numbered through (ids made from their
    texts); ``edits``: a question's text by its number; ``dropped``: a question left out;
    ``added``: a question of its own text put after the one of this number."""
    edits = edits or {}
    lines = ["---", "id: bank", "title: A bank", "language: en", "---", ""]
    number = 0
    for part, size in enumerate(sizes, 1):
        lines += [f"# Part {part}", ""]
        shown = 0
        for _ in range(size):
            number += 1
            if number == dropped:
                continue
            for text in [edits.get(number, f"Question {number}: which worker fails first?")] + (["Added?"] if number == added else []):
                shown += 1
                lines += [f"{shown}. {text}", "", "A) apple", "B) stone", "C) chair", "D) cloud", "", f"Answer: {'ABCD'[number % 4]}", ""]
    return "\n".join(lines)


def _session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, texts: list[str], *args: str) -> list[list[tuple[str, str, int]]]:
    """A watch of the bank's first text, fed the others as saves: each save's files and
    diagnostics checked against a build without the cache; the tasks each build rendered."""
    source = tmp_path / "bank.md"
    source.write_text(texts[0], "utf-8")
    rendered = _rendered(monkeypatch)
    counts: list[list[tuple[str, str, int]]] = []

    def saving(text: str) -> Callable[[], Path]:
        def save() -> Path:
            counts.append(list(rendered))
            rendered.clear()
            source.write_text(text, "utf-8")
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving(text) for text in texts[1:]], *args)
    counts.append(list(rendered))
    assert not _differ, _differ  # each result parted is what rendering its questions makes
    for k, save in enumerate(saves):
        assert save.files, f"build {k} wrote nothing"
        diagnostics, files = _fresh(tmp_path, save, *args)
        assert save.files == files, f"build {k}: {sorted(n for n in files if save.files.get(n) != files[n])} differ"
        assert _diagnostics(save.printed) == diagnostics
    return counts


def _items(counts: list[tuple[str, str, int]]) -> list[tuple[str, int]]:
    return sorted((name, n) for name, part, n in counts if part == "items")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_first_edit_renders_only_the_small_chunk_of_its_question(jobs: str, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Question 60 edited (its big chunk's first edit since the cold build), edited again, then
    question 130 of another section: each save renders one small chunk per target, the one
    with the edited question; the others are parted from the build before's big chunk."""
    texts = [_bank(), _bank(edits={60: "Question 60: edited once?"}), _bank(edits={60: "Question 60: edited twice?"}),
             _bank(edits={60: "Question 60: edited twice?", 130: "Question 130: edited?"})]
    counts = _session(tmp_path, monkeypatch, texts, "--jobs", jobs)
    if jobs == "1":  # (with two, the workers render the cold build's chunks)
        assert _items(counts[0]) == sorted([(name, CHUNK) for name in TARGETS for _ in range(3)] + [(name, 30) for name in TARGETS])
    for k in (1, 2, 3):
        assert _items(counts[k]) == sorted((name, WARM_CHUNK) for name in TARGETS), f"build {k}"


def test_a_small_chunk_whose_key_changed_is_rendered_not_parted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question added at the end of a 99-question bank: the quiz backup's record ids scale with
    the question count (``moodle_backup.Placement``), so every chunk's place changes in that
    target, though the first two big chunks hold the same questions as before. Their small
    chunks are rendered with the new ids, not parted from the results with the old ones. In the
    other targets only the last chunk changed: its two small chunks of questions it held before
    are parted from it, the one with the new question rendered."""
    counts = _session(tmp_path, monkeypatch, [_bank((45, 45, 9)), _bank((45, 45, 10))], "--jobs", "1")
    rendered = _items(counts[1])
    assert sum(n for name, n in rendered if name == "moodle-quiz") == 100
    for other in TARGETS[:3]:  # the last chunk's small chunk of the new question; its two others parted
        assert [n for name, n in rendered if name == other] == [4]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_parted_result_is_what_rendering_its_questions_makes(jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result parted from a chunk's of the build before (its documents, zip entries and the
    questions they hold, the facts validation read for the rules across the package) equals
    rendering the small chunk now, in each target (``_compared``, in every test here)."""
    texts = [_bank(), _bank(edits={60: "Question 60: edited once?"}), _bank(edits={60: "Question 60: edited once?", 130: "Edited?"})]
    _session(tmp_path, monkeypatch, texts, "--jobs", jobs)
    # 60's big chunk of 40 (four small parted), then 130's of 30 (three of its four).
    assert sorted(_compared) == sorted([(name, WARM_CHUNK) for name in TARGETS for _ in range(4)]
                                       + [(name, n) for name in TARGETS for n in (WARM_CHUNK, WARM_CHUNK, 6)])


def test_a_small_chunk_not_a_run_of_a_chunk_before_is_rendered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Question 5 removed and one added after question 50: the first two chunks begin one
    question later than before (the others are as they were, found). Rendered, in each target:
    the first chunk's first small chunk (its questions were no run of a chunk before: with
    question 5 between them, the quiz backup numbered them otherwise), its last (it holds a
    question of the second chunk before) and the one with the new question; the others are
    parted from the chunks before. But in the quiz backup, whose ids follow the questions'
    numbers, every small chunk before the new question is rendered."""
    counts = _session(tmp_path, monkeypatch, [_bank(), _bank(dropped=5, added=50)], "--jobs", "1")
    assert _items(counts[1]) == sorted([(name, WARM_CHUNK) for name in TARGETS[:3] for _ in range(3)]
                                       + [("moodle-quiz", WARM_CHUNK)] * 7)
    assert sorted(_compared) == sorted([(name, WARM_CHUNK) for name in TARGETS[:3] for _ in range(7)]
                                       + [("moodle-quiz", WARM_CHUNK)] * 3)
