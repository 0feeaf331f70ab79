"""A chunk's facts (what validation read of its questions' documents for the rules across the
package) kept pickled apart in its build cache entry (``pipeline._PackedFacts``), unpickled only
when read: a rebuild after a text edit keeps the rules' clean verdict and reads none of the chunks'
facts. What is checked: each entry gives back the facts rendering made, in their order, without
unpickling them when the entry is taken; a rebuild after a text edit unpickles none; and a
rebuild whose rules run over chunks taken from the cache (a problem brought by an edit of another
chunk) reports what a build without the cache does (tests/test_package_rules_kept.py, with this)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from test_chunks_taken import _chunk_entries
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import pipeline


@pytest.fixture
def rendered_facts(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, tuple[str, ...]], list[tuple[str, object]]]:
    """The bank in chunks of ``SMALL_CHUNK``; the facts of each chunk rendered from now on, in order."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})
    facts: dict[tuple[str, tuple[str, ...]], list[tuple[str, object]]] = {}
    real = pipeline._rendered

    def recording(task: pipeline.Task, *args: object) -> pipeline.TaskResult:
        result = real(task, *args)  # type: ignore[arg-type]
        if task.part == "items":
            facts[task.format, task.questions] = list(result.facts.items())
        return result

    monkeypatch.setattr(pipeline, "_rendered", recording)
    return facts


def test_each_entry_keeps_its_chunks_facts_unread_until_asked(tmp_path: Path, build_cache: Path,
                                                                rendered_facts: dict[tuple[str, tuple[str, ...]], list[tuple[str, object]]]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    kept = _chunk_entries(build_cache)
    assert len(kept) == 16 and len(rendered_facts) == 16
    assert sum(len(facts) for facts in rendered_facts.values()) == 3 * 13  # Canvas, QTI 2.1, backup: one per question
    for result in kept:
        facts = result.facts
        assert isinstance(facts, pipeline._PackedFacts) and facts._facts is None, result.task  # taken, not unpickled
        assert list(facts.items()) == rendered_facts[result.task.format, result.task.questions]
        assert len(facts) == len(rendered_facts[result.task.format, result.task.questions])
        again = pickle.loads(pickle.dumps(facts))  # as a watch's memory or another entry keeps it
        assert again._facts is None and dict(again) == dict(facts)


def test_a_rebuild_after_a_text_edit_unpickles_no_chunks_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              rendered_facts: dict[tuple[str, tuple[str, ...]], list[tuple[str, object]]]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    made: list[pipeline._PackedFacts] = []
    real_init = pipeline._PackedFacts.__init__

    def init(self: pipeline._PackedFacts, data: bytes) -> None:
        real_init(self, data)
        made.append(self)

    monkeypatch.setattr(pipeline._PackedFacts, "__init__", init)
    pipeline._SUMMARIES.clear()  # as a fresh process has it
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    warm = _build(source, tmp_path / "warm")
    taken = [facts for facts in made if facts._facts is None]
    # the three unchanged chunks' in four targets, taken from the cache, and the edited chunk's,
    # packed for its entries: none unpickled by the end of the build
    assert len(made) == 3 * 4 + 4 and len(taken) == len(made), [facts._facts for facts in made]
    assert warm == _build(source, tmp_path / "cold", "--no-cache")
