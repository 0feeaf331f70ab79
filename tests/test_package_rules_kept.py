"""The rules across a big quiz's package files kept in the build cache (issue 34): a clean
verdict of the rules across a Canvas package, a QTI 2.1 manifest or a quiz backup is kept by a key
of what they read of each chunk's result (``pipeline._summary``: its documents but the questions'
read through their facts, its member names, its facts) and of the frame's key, so a rebuild after
a question's text is edited does not run them over every question again. What is checked here: a
problem across the chunks that an edit brings in (an identifier another chunk's question has, an
item worth other points than the quiz's settings say) is still found on the warm rebuild, with the
same words as a build without the cache, and no file is written; an edit that changes nothing the
rules read does not run them again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from test_frames_kept import SMALL_CHUNK, _bank, _build

from qti_builder import pipeline, validate
from qti_builder.writers import base

#: Per target: the question template, what the edited question's document says (a pattern), what
#: a broken writer makes it say instead, and the problem the rules across the package find in that.
BREAKS = {
    "qti21": ("qti21/manifest_resource.xml.j2", rb'identifier="RES-q6"', rb'identifier="RES-q1"', "RES-q1"),
    "canvas": ("canvas/item_choice.xml.j2", rb"<fieldlabel>points_possible</fieldlabel><fieldentry>1</fieldentry>",
               rb"<fieldlabel>points_possible</fieldlabel><fieldentry>2</fieldentry>",
               "the settings file says the quiz is worth 13 points, its questions add up to 14"),
    "moodle-quiz": ("moodle_backup/question_record.xml.j2", rb'<question_bank_entry id="([0-9]+)"',
                    rb'<question_bank_entry id="90\1"', "is not in questions.xml"),
}


@pytest.fixture
def rules_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every package the rules across files run over from now on; the bank in chunks
    of ``SMALL_CHUNK``; and a writer broken for a question whose text says TWIN (``BREAKS``)."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    names: list[str] = []
    real_rules = validate.validate_package

    def recording(output_name: str, *args: object) -> None:
        names.append(output_name)
        real_rules(output_name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "validate_package", recording)
    real_render = base.Writer.render

    def broken(self: base.Writer, template: str, *args: object, **context: object) -> bytes | None:
        data = real_render(self, template, *args, **context)  # type: ignore[arg-type]
        for name, old, new, _ in BREAKS.values():
            if data and template == name and "TWIN" in repr(context.get("question")):
                data, count = re.subn(old, new, data, count=1)
                assert count == 1, data
        return data

    monkeypatch.setattr(base.Writer, "render", broken)
    return names


@pytest.mark.parametrize("target", BREAKS)
def test_a_problem_across_chunks_an_edit_brings_is_found_on_the_warm_rebuild(target: str, tmp_path: Path,
                                                                           rules_run: list[str]) -> None:
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first", "--format", target)[0] == 0
    source.write_text(_bank({6: "Question 6: which one is right? (edited)"}), "utf-8")
    assert _build(source, tmp_path / "edited", "--format", target)[0] == 0
    source.write_text(_bank({6: "Question 6: TWIN"}), "utf-8")  # its chunk's writer now breaks the package
    rules_run.clear()
    code, stderr, files = _build(source, tmp_path / "broken", "--format", target)
    assert code != 0 and files == {} and rules_run, stderr
    assert BREAKS[target][3] in stderr, stderr
    assert (code, stderr) == _build(source, tmp_path / "broken", "--format", target, "--no-cache")[:2]
    source.write_text(_bank({6: "Question 6: which one is right? (edited)"}), "utf-8")
    assert _build(source, tmp_path / "fixed", "--format", target)[0] == 0


def test_an_edit_the_rules_do_not_read_does_not_run_them_again(tmp_path: Path, rules_run: list[str]) -> None:
    """A question's text edited twice: the rules across the three packages run in the first build
    only, and every file is a build's without the cache."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    assert sorted(rules_run) == ["bank.canvas.zip", "bank.mbz", "bank.qti21.zip"]
    for n, text in enumerate(("Question 6: which one? (edited)", "Question 6: which one? (edited again)")):
        source.write_text(_bank({6: text}), "utf-8")
        rules_run.clear()
        warm = _build(source, tmp_path / f"warm{n}")
        assert rules_run == []
        assert warm == _build(source, tmp_path / f"cold{n}", "--no-cache")


def test_a_frame_rendered_from_the_whole_quiz_is_known_by_its_bytes(tmp_path: Path, rules_run: list[str]) -> None:
    """A --templates overlay of the backup's quiz.xml renders its frame from the whole quiz (it may
    read a question's text), so the frame has no key: the rules' key holds its bytes. An overlay
    whose slots point past the bank in a section with a question whose text says ASTRAY (which
    changes nothing of the question's records): the warm rebuild after that edit finds it, as a build without
    the cache does."""
    templates = tmp_path / "templates" / "moodle_backup"
    templates.mkdir(parents=True)
    original = (ROOT / "templates" / "moodle_backup" / "quiz.xml.j2").read_text("utf-8")
    broken = original.replace("<questionbankentryid>{{ slot.question.id }}<",
                              '<questionbankentryid>{{ slot.question.id + (7000 if "ASTRAY" in slot.section|string else 0) }}<')
    assert broken != original
    (templates / "quiz.xml.j2").write_text(broken, "utf-8")
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    args = ("--format", "moodle-quiz", "--templates", str(tmp_path / "templates"))
    assert _build(source, tmp_path / "first", *args)[0] == 0
    source.write_text(_bank({6: "Question 6: ASTRAY"}), "utf-8")  # its records as they were: only the frame reads it
    code, stderr, files = _build(source, tmp_path / "broken", *args)
    assert code != 0 and files == {} and "is not in questions.xml" in stderr, stderr
    assert (code, stderr) == _build(source, tmp_path / "broken", *args, "--no-cache")[:2]


def test_the_questions_cut_into_other_chunks_keep_the_verdict(tmp_path: Path, rules_run: list[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The first rebuild after a cold build renders the edited chunk again in smaller chunks: the
    same questions in other chunks, and other tasks finishing first, give the same key, so the
    rules do not run again, and the files are a build's without the cache."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0 and rules_run
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    source.write_text(_bank({6: "Question 6: which one? (edited)"}), "utf-8")
    rules_run.clear()
    warm = _build(source, tmp_path / "warm")
    assert rules_run == []
    assert warm == _build(source, tmp_path / "cold", "--no-cache")


def test_a_canvas_items_facts_read_the_same_in_every_process() -> None:
    """What the key of the rules reads of a Canvas item's facts (their ``repr``) does not follow
    the process's string hashing: the media it shows in order."""
    code = ("from qti_builder.canvas_rules import ItemFacts; "
            "print(repr(ItemFacts(((1.0, True),), frozenset(f'media/m{n}.png' for n in range(20)), (), 3)))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2, 3)}
    assert len(seen) == 1 and "'media/m0.png', 'media/m1.png', 'media/m10.png'" in seen.pop()
