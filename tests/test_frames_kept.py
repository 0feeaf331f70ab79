"""A big quiz's frames kept in the build cache (issue 34): a frame (the QTI 2.1 test and its
manifest's frame, the Canvas assessment's frame and files, the Moodle file's frame, the quiz
backup's parts around its records) is rendered from the quiz as frames see it
(``writers.base.frame_view``: each question its id, kind, points and shuffle), and kept by a key of
that view. An edit of a question's text or title changes no frame: the rebuild takes all four
from the cache; an edit of what the view holds (points, shuffle, a section) renders them again.
Either way the files are a build's without the cache, byte for byte. A target whose templates a
``--templates`` overlay overrides renders its frame from the whole quiz, as the overlay may read
anything of a question."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run

from qti_builder import pipeline

#: Questions per chunk in these tests: the 13-question bank is a frame and four chunks per target.
SMALL_CHUNK = 4


def _bank(text: dict[int, str] | None = None, attributes: dict[int, str] | None = None, part_title: str = "Part 2") -> str:
    """A 13-question bank in two sections; ``text``/``attributes``: a question's text, its
    attributes added (``points=3``, ``title="..."``, ``shuffle=false``) by its number."""
    text, attributes = text or {}, attributes or {}
    lines = ["---", "id: bank", "title: A bank", "---", ""]
    for part, numbers in ((1, range(1, 8)), (2, range(8, 14))):
        lines += [f"# {'Part 1' if part == 1 else part_title} {{#part-{part}}}", ""]
        for number in numbers:
            stem = text.get(number, f"Question {number}: which one is right?")
            lines += [f"{number}. {stem} {{#q{number} {attributes.get(number, '')}}}", "", "A) one", "B) two", "C) three",
                      "D) four", "", f"Answer: {'ABCD'[number % 4]}", ""]
    return "\n".join(lines)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def _build(source: Path, out: Path, *args: str) -> tuple[int, str, dict[str, bytes]]:
    code, _, stderr = run("build", str(source), "--out", str(out), "--jobs", "1", *args)
    return code, stderr.replace(str(out), "OUT"), _files(out)


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The target of every frame task rendered from now on, the bank in chunks of ``SMALL_CHUNK``."""
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    rendered: list[str] = []
    real = pipeline._rendered

    def recording(task: pipeline.Task, *args: object) -> pipeline.TaskResult:
        if task.part == "frame":
            rendered.append(task.format)
        return real(task, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_rendered", recording)
    return rendered


EVERY_TARGET = ["canvas", "moodle", "moodle-quiz", "qti21"]

#: Each edit of question 6 (in the second chunk), and the frames it renders again: none for what
#: the frames do not read (its text, its title), all four for what they do.
EDITS = {
    "text": ({6: "Question 6: which one is right now? (edited)"}, {}, "Part 2", []),
    "title": ({}, {6: 'title="A title of its own"'}, "Part 2", []),
    "points": ({}, {6: "points=3"}, "Part 2", EVERY_TARGET),
    "shuffle": ({}, {6: "shuffle=false"}, "Part 2", EVERY_TARGET),
    "section title": ({}, {}, "Part two", EVERY_TARGET),
}


@pytest.mark.parametrize("edit", EDITS, ids=str)
def test_an_edit_renders_the_frames_again_only_when_they_read_it(edit: str, tmp_path: Path, frames: list[str]) -> None:
    """After each edit the four files (the quiz backup among them) are a build's without the cache,
    byte for byte, and the frames rendered again are those the edit can change."""
    text, attributes, part_title, again = EDITS[edit]
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    first = _build(source, tmp_path / "first")
    assert first[0] == 0 and sorted(frames) == EVERY_TARGET
    source.write_text(_bank(text, attributes, part_title), "utf-8")
    frames.clear()
    warm = _build(source, tmp_path / "warm")
    assert sorted(frames) == again
    assert warm == _build(source, tmp_path / "cold", "--no-cache")
    assert warm[2] != first[2]


def test_the_backup_after_edits_of_text_points_and_title_is_the_cold_build(tmp_path: Path, frames: list[str]) -> None:
    """The quiz backup, edit after edit (a question's text, then its points, then its title), each
    time the backup of a build without the cache: its slots carry the new points (quiz.xml) and its
    bank the new text and title (questions.xml)."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    steps = [({6: "Question 6: edited?"}, {}), ({6: "Question 6: edited?"}, {6: "points=4"}),
             ({6: "Question 6: edited?"}, {6: 'points=4 title="Six"'})]
    for n, (text, attributes) in enumerate(steps):
        source.write_text(_bank(text, attributes), "utf-8")
        warm = _build(source, tmp_path / f"warm{n}")
        cold = _build(source, tmp_path / f"cold{n}", "--no-cache")
        assert warm[0] == 0 and warm[2]["bank.mbz"] == cold[2]["bank.mbz"]
    members = _backup(warm[2]["bank.mbz"])
    assert b"<maxmark>4.0000000</maxmark>" in members["activities/quiz_1/quiz.xml"]
    assert b"<name>Six</name>" in members["questions.xml"] and b"edited?" in members["questions.xml"]


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {name: package.read(name) for name in package.namelist()}


def _backup(data: bytes) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as backup:
        return {m.name: backup.extractfile(m).read() for m in backup.getmembers() if m.isfile()}  # type: ignore[union-attr]


def test_an_overlay_s_targets_render_their_frames_from_the_whole_quiz(tmp_path: Path, frames: list[str]) -> None:
    """With ``--templates`` overriding a frame's template (the backup's quiz.xml, with each slot's
    mark in a comment) and a question's (the Moodle file's single choice), the two targets it
    overrides render their frames in every build, from the whole quiz; the others keep theirs.
    Each build's files are a build's without the cache."""
    overlay = tmp_path / "overlay"
    (overlay / "moodle_backup").mkdir(parents=True)
    builtin = (ROOT / "templates" / "moodle_backup" / "quiz.xml.j2").read_text("utf-8")
    (overlay / "moodle_backup" / "quiz.xml.j2").write_text(
        builtin.replace("<slot>{{ slot.number }}</slot>", "<slot>{{ slot.number }}</slot><!-- overlay {{ slot.maxmark }} -->"), "utf-8")
    (overlay / "moodle").mkdir()
    (overlay / "moodle" / "question_multichoice.xml.j2").write_text(
        '{% extends "builtin/moodle/question_multichoice.xml.j2" %}', "utf-8")
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    args = ("--templates", str(overlay))
    first = _build(source, tmp_path / "first", *args)
    assert first[0] == 0, first[1]
    assert b"<!-- overlay 1.0 -->" in _backup(first[2]["bank.mbz"])["activities/quiz_1/quiz.xml"]
    for n, (text, attributes, again) in enumerate([({6: "Edited?"}, {}, ["moodle", "moodle-quiz"]),
                                                   ({6: "Edited?"}, {6: "points=2"}, EVERY_TARGET)]):
        source.write_text(_bank(text, attributes), "utf-8")
        frames.clear()
        warm = _build(source, tmp_path / f"warm{n}", *args)
        assert sorted(frames) == again
        assert warm == _build(source, tmp_path / f"cold{n}", "--no-cache", *args)
    assert b"<!-- overlay 2.0 -->" in _backup(warm[2]["bank.mbz"])["activities/quiz_1/quiz.xml"]
    frames.clear()
    assert _build(source, tmp_path / "builtin")[0] == 0
    assert sorted(frames) == EVERY_TARGET  # the built-in templates: not the overlay's frames


def test_an_overlay_s_frame_may_read_a_question_s_text(tmp_path: Path, frames: list[str]) -> None:
    """An override of the QTI 2.1 test that writes each question's stem in a comment builds a
    quiz in chunks as it builds a small one, and after the stem is edited the test holds the new
    stem (its frame is not kept by what the built-in frames read)."""
    overlay = tmp_path / "overlay" / "qti21"
    overlay.mkdir(parents=True)
    builtin = (ROOT / "templates" / "qti21" / "assessment_test.xml.j2").read_text("utf-8")
    overlay.joinpath("assessment_test.xml.j2").write_text(
        builtin.replace('<assessmentItemRef identifier="{{ item.identifier }}"',
                        '<!-- {{ question.stem }} --><assessmentItemRef identifier="{{ item.identifier }}"'), "utf-8")
    source = tmp_path / "bank.md"
    args = ("--templates", str(tmp_path / "overlay"))
    for n, text in enumerate([{}, {6: "Edited?"}]):
        source.write_text(_bank(text), "utf-8")
        code, stderr, files = _build(source, tmp_path / f"out{n}", *args)
        assert code == 0, stderr
        test = _members(files["bank.qti21.zip"])["assessmentTest.xml"]
        assert (b"<!-- Edited? -->" in test) == (n == 1) and b"<!-- Question 7: which one is right? -->" in test
        assert files == _build(source, tmp_path / f"cold{n}", "--no-cache", *args)[2]


def test_fixed_variants_are_rendered_from_the_whole_quiz(tmp_path: Path, frames: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """QTI 2.1's test with ``qti_variants`` holds each calculated question's fixed variants, made
    from its sets: that frame is rendered from the whole quiz (in chunks, the package is the one
    the quiz rendered whole gives) and kept in no frame entry, so a rebuild renders it again; the
    other targets' frames are kept as ever."""
    source = tmp_path / "calculated.md"
    source.write_text((ROOT / "tests" / "fixtures" / "calculated.md").read_text("utf-8").replace(
        "title: Calculated questions\n", "title: Calculated questions\nsettings:\n  qti_variants: 2\n"), "utf-8")
    formats = ("--format", "qti21,moodle")
    monkeypatch.setattr(pipeline, "CHUNK", 1000)  # the whole quiz in one task
    whole = _build(source, tmp_path / "whole", "--no-cache", *formats)
    assert whole[0] == 0, whole[1]
    monkeypatch.setattr(pipeline, "CHUNK", SMALL_CHUNK)
    frames.clear()
    assert _build(source, tmp_path / "split", *formats) == whole
    assert sorted(frames) == ["moodle", "qti21"]
    frames.clear()
    source.write_text(source.read_text("utf-8") + "\n", "utf-8")  # a new source for the cache, its quiz the same
    assert _build(source, tmp_path / "again", *formats) == whole
    assert frames == ["qti21"]


def test_a_changed_media_file_renders_the_frames_again(tmp_path: Path, frames: list[str]) -> None:
    """A frame holds the quiz's media files (the QTI 2.1 and Canvas packages' media members): one
    file's bytes changed, the source the same, the frames are rendered again, and the files are
    a build's without the cache."""
    (tmp_path / "media").mkdir()
    picture = tmp_path / "media" / "workers.png"
    picture.write_bytes((ROOT / "source" / "media" / "workers.png").read_bytes())
    source = tmp_path / "bank.md"
    source.write_text(_bank({1: "Question 1: which one is right? ![workers](media/workers.png)"}), "utf-8")
    first = _build(source, tmp_path / "first")
    assert first[0] == 0, first[1]
    picture.write_bytes(picture.read_bytes() + b"\0")
    frames.clear()
    changed = _build(source, tmp_path / "changed")
    assert sorted(frames) == ["canvas", "moodle", "qti21"]  # the backup of a quiz with media: rendered whole
    assert changed == _build(source, tmp_path / "cold", "--no-cache") and changed[2] != first[2]
