"""A watch's rebuild validates only what changed (``readers/kept_model.py``: the sections and
questions whose data are those of the build before are its model objects) and takes an unchanged
chunk's key from memory (``cache._KeptContent``). What the rebuild reports and writes is a build's
without the cache all the same, a quiz-wide finding included (a total that no longer matches,
an id used in two sections), and nothing the build does changes a model object it reuses."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_watch_warm import _bank, _diagnostics, _fresh, _watch

from qti_builder import cache, memory, pipeline, quiz_checks
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz, Section
from qti_builder.readers import base, kept_model
from qti_builder.readers.source_map import SourceMap


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", 40)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", 8)


def _with_front(text: str, line: str) -> str:
    return text.replace("language: en\n", f"language: en\n{line}\n", 1)


def _with_id(text: str, number: int, ident: str) -> str:
    """The bank with question ``number`` (its text as ``_bank`` writes it) given the id ``ident``."""
    stem = f"Question {number}: which worker fails first?"
    assert stem in text
    return text.replace(stem, f"{stem} {{#{ident}}}", 1)


def _saving(source: Path, text: str) -> Callable[[], Path]:
    """A save for ``_watch``: ``text`` written to ``source``."""
    def save() -> Path:
        source.write_text(text, "utf-8")
        return source
    return save


def test_quiz_wide_findings_on_a_rebuild_are_a_cold_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves a watch rebuilds from the model objects of the build before: a question edited; a
    total in the front matter that the questions do not add up to (QB219, across the quiz); the
    same id given to a question of the first and of the third section (QB133, at the second);
    both put right; a question given an id, then its text edited (its id, and so its chunk's
    questions, the same). Each save's diagnostics and files are a build's without the cache; and the
    rebuilds did reuse model objects, kept none that any build changed (each one dumps as its
    data validated afresh), and took unchanged chunks' keys from memory."""
    source = tmp_path / "bank.md"
    edited = _bank({60: "Question 60: edited once?"})
    texts = [edited, _with_front(edited, "total: 999"), _with_id(_with_id(edited, 10, "dup"), 130, "dup"),
             _bank({60: "Question 60: edited twice?", 10: "Question 10: which worker fails first? {#ten}"}),
             _bank({60: "Question 60: edited twice?", 10: "Question 10: which worker breaks first? {#ten}"})]
    source.write_text(_bank(), "utf-8")
    reused: list[int] = []
    kept: list[tuple[list[Any], list[Any], list[Section]]] = []
    real_reusing, real_keep = kept_model.validated_reusing, kept_model._keep

    def reusing(data: dict[str, Any], path: str) -> Quiz | None:
        before = memory.recall(kept_model._key(path))
        quiz = real_reusing(data, path)
        if quiz is not None and isinstance(before, kept_model._Kept):
            old = {id(q) for _, _, s in before.sections for q in _questions(s)}
            reused.append(sum(id(q) in old for q in quiz.iter_questions()))
        return quiz

    def keeping(quiz: Quiz, raw: list[Any], *args: Any) -> None:
        kept.append((raw, copy.deepcopy(raw), list(quiz.sections)))
        real_keep(quiz, raw, *args)

    same: list[bool] = []
    real_same = cache._KeptContent.same

    def same_content(self: cache._KeptContent, other: cache._KeptContent) -> bool:
        same.append(real_same(self, other))
        return same[-1]

    monkeypatch.setattr(base, "validated_reusing", reusing)
    monkeypatch.setattr(kept_model, "_keep", keeping)
    monkeypatch.setattr(cache._KeptContent, "same", same_content)

    saves = _watch(tmp_path, monkeypatch, [_saving(source, text) for text in texts], "--jobs", "1")
    assert len(saves) == 1 + len(texts)
    for k, save in enumerate(saves):
        diagnostics, files = _fresh(tmp_path, save, "--jobs", "1")
        # (a build with an error writes nothing: the watch leaves dist/ as the last good build wrote it)
        assert save.files == (files or saves[k - 1].files), f"build {k}: {sorted(n for n in files if save.files.get(n) != files[n])} differ"
        assert _diagnostics(save.printed) == diagnostics, f"build {k}"
    assert "QB219" in _diagnostics(saves[2].printed) and "QB133" in _diagnostics(saves[3].printed)
    assert b"edited twice" in saves[4].files["bank.moodle.xml"] and b"worker breaks first" in saves[5].files["bank.moodle.xml"]
    # Each rebuild took all but the questions it changed from the build before, and the keys
    # of chunks of the same question objects from memory.
    assert len(reused) == 5 and all(n >= 100 for n in reused), reused
    assert len(same) >= 6 and all(same), same  # the three chunks of 40 the edit left, at least twice
    for data, as_kept, sections in kept:
        assert data == as_kept and len(data) == len(sections)
        for section_data, section in zip(data, sections):
            assert section.model_dump() == Section.model_validate(copy.deepcopy(section_data)).model_dump()


def _questions(section: Section) -> list[Any]:
    return [*section.questions, *(q for child in section.sections for q in _questions(child))]


def _quiz(points: Any = 2, rule: str | None = None, count: int = 3) -> dict[str, Any]:
    """A quiz of multiple-response questions in two sections, as a reader gives it (plain data)."""
    def question(k: int) -> dict[str, Any]:
        return {"id": f"q{k}", "type": "multiple_response", "stem": f"Which are right ({k})?", "points": points,
                "choices": [{"id": "A", "text": "one", "correct": True}, {"id": "B", "text": "two", "correct": True},
                            {"id": "C", "text": "three", "correct": False}]}
    data: dict[str, Any] = {"id": "quiz", "title": "A quiz", "sections": [
        {"id": "s1", "title": "One", "questions": [question(k) for k in range(count)]},
        {"id": "s2", "title": "Two", "questions": [question(k) for k in range(count, 2 * count)]}]}
    if rule is not None:
        data["settings"] = {"scoring": rule}
    return data


def _validated(data: dict[str, Any]) -> tuple[Quiz | None, list[str]]:
    sink = DiagnosticSink()
    quiz = base.validate_quiz(data, SourceMap("quiz.yaml"), sink)
    return quiz, [f"{d.code} {d.message}" for d in sink.items]


def test_data_are_the_same_only_with_the_same_types() -> None:
    """``points: true`` equals ``points: 1`` to Python, but the model refuses a truth value for
    points: kept from a quiz whose points were 1, a rebuild whose points are true is refused as
    it is in a fresh process, not given the questions validated from 1."""
    cold = _validated(_quiz(points=True))
    assert cold[0] is None and cold[1]
    with memory.kept():
        first, _ = _validated(_quiz(points=1))
        assert first is not None
        again, _ = _validated(_quiz(points=1))
        assert again is not None and again.sections[0] is first.sections[0]  # reused: the same data
        assert _validated(_quiz(points=True)) == cold


def test_a_quiz_wide_scoring_rule_leaves_no_changed_question_to_reuse() -> None:
    """The quiz's scoring rule sets each multiple-response question's own after validation: a
    question so changed is never reused by a build whose quiz has no such rule. Builds of one
    source in a watch: no rule, all_or_nothing, no rule again; each model is a fresh
    validation's."""
    dumps = []
    with memory.kept():
        plain, _ = _validated(_quiz())
        dumps.append(plain.model_dump() if plain else None)
        ruled, _ = _validated(_quiz(rule="all_or_nothing"))
        dumps.append(ruled.model_dump() if ruled else None)
        again, _ = _validated(_quiz())
        dumps.append(again.model_dump() if again else None)
    assert plain is not None and ruled is not None and again is not None
    assert ruled.sections[0].questions[0] is plain.sections[0].questions[0]  # reused, then ruled
    assert dumps == [Quiz.model_validate(data).model_dump() for data in (_quiz(), _quiz(rule="all_or_nothing"), _quiz())]
    assert {q.scoring for q in again.iter_questions()} == {"partial"}


def test_an_edited_question_is_validated_again_and_the_others_are_reused() -> None:
    """One question's text edited: its section is validated again, with the section's other
    questions the objects of the build before; the other section is the same object."""
    edited = _quiz()
    edited["sections"][0]["questions"][1]["stem"] = "Which are right now?"
    with memory.kept():
        first, _ = _validated(_quiz())
        second, _ = _validated(copy.deepcopy(edited))
    assert first is not None and second is not None
    assert second.sections[1] is first.sections[1]
    assert second.sections[0] is not first.sections[0]
    assert [q is p for q, p in zip(second.sections[0].questions, first.sections[0].questions)] == [True, False, True]
    assert second.model_dump() == Quiz.model_validate(edited).model_dump()


def test_a_finding_in_an_edited_question_of_a_checked_section_is_reported(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A watch checks only the questions an edit changed of the section it is in (the others it
    checked in the build before found nothing, quiz_checks._Clean): a question edited to hold
    raw HTML (QB150) beside one edited before is reported as a build without the cache reports
    it, and once taken out again, nothing is."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    texts = [_bank({60: "Question 60: edited once?"}),
             _bank({60: "Question 60: edited once?", 70: "Question 70: which <blink>worker</blink> fails?"}),
             _bank({60: "Question 60: edited twice?", 70: "Question 70: which <blink>worker</blink> fails?"}),
             _bank({60: "Question 60: edited twice?"})]
    checked: list[int | None] = []
    real = quiz_checks._check_section

    def counting(*args: Any) -> Any:
        only = args[-1] if len(args) == 12 else None
        checked.append(len(only) if only is not None else None)
        return real(*args)

    monkeypatch.setattr(quiz_checks, "_check_section", counting)

    saves = _watch(tmp_path, monkeypatch, [_saving(source, text) for text in texts], "--jobs", "1")
    for k, save in enumerate(saves):
        diagnostics, files = _fresh(tmp_path, save, "--jobs", "1")
        assert save.files == (files or saves[k - 1].files), f"build {k}"
        assert _diagnostics(save.printed) == diagnostics, f"build {k}"
    assert "QB150" in _diagnostics(saves[2].printed) and "QB150" in _diagnostics(saves[3].printed)
    assert "QB150" not in _diagnostics(saves[4].printed)
    # The cold build checks its three sections whole; each save, one section: its edited questions.
    assert checked[:3] == [None, None, None] and 1 in checked[3:], checked
