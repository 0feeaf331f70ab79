"""``build --watch`` keeps the build cache in memory between its builds (``qti_builder.memory``):
each save's rebuild, with whatever it took from memory, writes the bytes a build without the
cache writes of the same source (an edited question, one added, one removed, a changed
template), says where an error is and writes nothing then, and builds right at the next good
save. The watcher is the command's own (``qti-builder build --watch``), with the file system's
events replaced by the test's saves, one build after each."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
import watchfiles
from helpers import ROOT
from helpers.cli import run

from qti_builder import cache, memory, pipeline, serve
from qti_builder.writers import Document

#: Marks in the command's error stream where each save's build begins.
SAVED = "=== saved"
#: The chunks of the test bank: small, so that a bank of a few pieces has several of each.
CHUNK, WARM_CHUNK = 40, 8


def _bank(edits: dict[int, str] | None = None, count: int = 150, dropped: int | None = None, broken: int | None = None) -> str:
    """A bank of ``count`` questions in three top-level sections (read in pieces: over 1,000
    lines), without ids of their own (the reader makes them from their texts); questions 2 and
    102 say the same, so the reader makes the second's id distinct (``-2``) across pieces.
    ``edits``: a question's text by its number; ``dropped``: a question left out; ``broken``: a
    question without its answer (an error)."""
    edits = edits or {}
    lines = ["---", "id: bank", "title: A bank", "language: en", "---", ""]
    per = -(-count // 3)
    for part in range(3):
        lines += [f"# Part {part + 1}", ""]
        shown = 0
        for number in range(part * per + 1, min(count, (part + 1) * per) + 1):
            if number == dropped:
                continue
            shown += 1
            stem = "Which one is a fruit?" if number in (2, 102) else f"Question {number}: which worker fails first?"
            lines += [f"{shown}. {edits.get(number, stem)}", "", "A) apple", "B) stone", "C) chair", "D) cloud", ""]
            lines += [] if number == broken else [f"Answer: {'ABCD'[number % 4]}", ""]
    return "\n".join(lines)


@dataclass
class Save:
    """What one build of the watch left: the source and template it built, what it printed, the files in dist/."""

    source: str
    template: str | None
    printed: str
    files: dict[str, bytes]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def _watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saves: list[Callable[[], Path]], *args: str) -> list[Save]:
    """``qti-builder build bank.md --watch ARGS`` run in this process, with each of ``saves`` (an
    edit, returning the path it changed) reported to it as a change once the build before is
    done; what each build left, the first (before any save) first."""
    source, dist = tmp_path / "bank.md", tmp_path / "dist"
    template = tmp_path / "templates" / "moodle" / "question_multichoice.xml.j2"
    builds: list[tuple[str, str | None, dict[str, bytes]]] = []

    def watch(*paths: Path, stop_event: object = None, debounce: int = 0) -> Iterator[set[tuple[watchfiles.Change, str]]]:
        for save in saves:
            builds.append((source.read_text("utf-8"), template.read_text("utf-8") if template.exists() else None, _files(dist)))
            changed = save()
            typer.echo(SAVED, err=True)
            yield {(watchfiles.Change.modified, str(changed))}
        builds.append((source.read_text("utf-8"), template.read_text("utf-8") if template.exists() else None, _files(dist)))

    monkeypatch.setattr(serve, "watchfiles", SimpleNamespace(watch=watch))
    _, _, err = run("build", str(source), "--watch", "--out", str(dist), *args)
    assert "Traceback" not in err, err
    printed = err.split(SAVED + "\n")
    assert len(printed) == len(builds)
    return [Save(text, tmpl, out, files) for (text, tmpl, files), out in zip(builds, printed)]


def _fresh(tmp_path: Path, save: Save, *args: str) -> tuple[str, dict[str, bytes]]:
    """What a build without the cache prints (its diagnostics) and writes of what ``save`` built,
    the source and template put back where the watch read them."""
    source, out = tmp_path / "bank.md", tmp_path / "fresh"
    template = tmp_path / "templates" / "moodle" / "question_multichoice.xml.j2"
    source.write_text(save.source, "utf-8")
    if save.template is not None:
        template.write_text(save.template, "utf-8")
    for stale in out.glob("*") if out.exists() else []:
        stale.unlink()
    _, _, err = run("build", str(source), "--no-cache", "--out", str(out), *args)
    return _diagnostics(err), _files(out)


def _diagnostics(printed: str) -> str:
    """The diagnostics a build printed (file:line:col, code, message, hint), without its summary."""
    return "\n".join(line for line in printed.splitlines() if re.match(r"^\S+:\d+:\d+: (error|warning)\[|^    hint: ", line))


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "CHUNK", CHUNK)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", WARM_CHUNK)


def _rendered(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """(target, part, questions) of each task rendered from now on, in this process."""
    rendered: list[tuple[str, str, int]] = []
    real = pipeline._rendered

    def counting(task: pipeline.Task, *args: object) -> pipeline.TaskResult:
        rendered.append((task.format, task.part, len(task.questions)))
        return real(task, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_rendered", counting)
    return rendered


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_save_writes_what_a_build_without_the_cache_writes(jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edits the watch rebuilds from what it keeps in memory: a question edited (twice: the second
    time its chunk is rendered again in small chunks kept apart, and only the edited one), the
    first of two questions that say the same edited (the second's id, made distinct across
    pieces, is its own again), a question added, one removed. After each, every file in dist/ is
    a build's without the cache, byte for byte, and so are its diagnostics."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    rendered = _rendered(monkeypatch)
    steps: list[dict[str, object]] = [{"edits": {60: "Question 60: edited once?"}}, {"edits": {60: "Question 60: edited twice?"}},
                                      {"edits": {60: "Question 60: edited twice?", 2: "Which one is a stone?"}},
                                      {"edits": {60: "Question 60: edited twice?"}, "count": 151},
                                      {"edits": {60: "Question 60: edited twice?"}, "dropped": 75}]
    counts: list[list[tuple[str, str, int]]] = []

    def saving(step: dict[str, object]) -> Callable[[], Path]:
        def save() -> Path:
            counts.append(list(rendered))
            rendered.clear()
            source.write_text(_bank(**step), "utf-8")  # type: ignore[arg-type]
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving(step) for step in steps], "--jobs", jobs)
    counts.append(list(rendered))
    assert len(saves) == 1 + len(steps)
    for k, save in enumerate(saves):
        assert save.files, f"build {k} wrote nothing"
        diagnostics, files = _fresh(tmp_path, save, "--jobs", jobs)
        assert save.files == files, f"build {k}: {sorted(n for n in files if save.files.get(n) != files[n])} differ"
        assert _diagnostics(save.printed) == diagnostics
    assert b"edited twice" in saves[2].files["bank.moodle.xml"] and b"edited once" in saves[1].files["bank.moodle.xml"]
    # Each edit of question 60: its chunk of CHUNK questions cut in chunks of WARM_CHUNK at the
    # first, kept apart, and only the one with question 60 rendered, in each target (the others
    # parted from the chunk's result before, pipeline._parted; tests/test_watch_parted.py).
    split = [f for f in ("qti21", "moodle", "canvas", "moodle-quiz")]
    assert sorted((f, n) for f, part, n in counts[2] if part == "items") == sorted((f, WARM_CHUNK) for f in split)
    assert sorted((f, n) for f, part, n in counts[1] if part == "items") == sorted((f, WARM_CHUNK) for f in split)


def test_a_template_changed_between_saves_is_rendered_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --templates overlay's question template changed while watching: the next build renders
    every question with it (nothing kept in memory from the template before is taken), the
    files a build without the cache writes with the new template."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    template = tmp_path / "templates" / "moodle" / "question_multichoice.xml.j2"
    template.parent.mkdir(parents=True)
    original = (ROOT / "templates" / "moodle" / "question_multichoice.xml.j2").read_text("utf-8")
    assert "  </question>" in original
    template.write_text(original, "utf-8")

    def edit_question() -> Path:
        source.write_text(_bank({60: "Question 60: edited?"}), "utf-8")
        return source

    def change_template() -> Path:
        template.write_text(original.replace("  </question>", "  <!-- changed --></question>"), "utf-8")
        return template

    templates = ("--templates", str(tmp_path / "templates"), "--jobs", "1")
    saves = _watch(tmp_path, monkeypatch, [edit_question, change_template], *templates)
    assert b"<!-- changed -->" not in saves[1].files["bank.moodle.xml"]
    assert saves[2].files["bank.moodle.xml"].count(b"<!-- changed -->") == 150
    for k, save in enumerate(saves):
        assert save.files == _fresh(tmp_path, save, *templates)[1], f"build {k}"


def test_an_error_after_an_edit_is_located_writes_nothing_and_the_next_save_builds(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that breaks a question: the build says where (file:line:col, as a build without the
    cache does), dist/ keeps the last good build's files untouched (no file of the broken source,
    nothing half-written); the save that fixes it writes the fixed source's files."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")

    def saving(text: str) -> Callable[[], Path]:
        def save() -> Path:
            source.write_text(text, "utf-8")
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving(_bank({60: "Question 60: edited?"})),
                                           saving(_bank({60: "Question 60: edited?"}, broken=61)),
                                           saving(_bank({60: "Question 60: edited again?"}))], "--jobs", "1")
    good, broken, fixed = saves[1], saves[2], saves[3]
    diagnostics, files = _fresh(tmp_path, broken, "--jobs", "1")
    assert not files and "error[" in diagnostics
    assert _diagnostics(broken.printed) == diagnostics
    line = next(i for i, text in enumerate(broken.source.split("\n"), 1) if re.match(r"\d+\. Question 61:", text))
    assert re.search(rf"bank\.md:{line}:\d+: error\[QB\d+\]", diagnostics), diagnostics
    assert broken.files == good.files  # the last good build's files, as they were
    assert not list((tmp_path / "dist").glob(".*")), "a temporary file was left in dist/"
    assert fixed.files == _fresh(tmp_path, fixed, "--jobs", "1")[1]
    assert b"edited again" in fixed.files["bank.moodle.xml"]


def test_the_watch_keeps_the_cache_folder_up_to_date(tmp_path: Path, build_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the watch keeps in memory is written to the cache folder too (the quiz's entry in the
    background): once it stops, a build run by hand of the last source takes it from there,
    reading and rendering nothing."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")

    def edit() -> Path:
        source.write_text(_bank({60: "Question 60: edited?"}), "utf-8")
        return source

    saves = _watch(tmp_path, monkeypatch, [edit], "--jobs", "1")
    assert not memory.keeping()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("read or rendered although the cache has it")

    monkeypatch.setattr(pipeline, "_read", refuse)
    monkeypatch.setattr(pipeline, "run_task", refuse)
    code, _, err = run("build", str(source), "--out", str(tmp_path / "by-hand"), "--jobs", "1")
    assert code == 0, err
    assert _files(tmp_path / "by-hand") == saves[-1].files
    assert not list(build_cache.rglob("*.tmp"))
    assert cache.cache_dir() == build_cache


def test_a_save_that_changes_nothing_takes_the_entry_still_being_written(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The quiz's entry is written in the background after each build: a save right after, that
    changes nothing, waits for it and takes the quiz from it (nothing read or rendered), rather
    than building the quiz again while the entry is not there yet. (The background writes are
    made slow here, so that the save comes before the entry is written.)"""
    import time

    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    real_keep = pipeline._keep_now

    def slow_keep(*args: object) -> None:
        time.sleep(1.5)
        real_keep(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_keep_now", slow_keep)
    read: list[int] = []
    real_read = pipeline._read

    def counting(*args: object, **kwargs: object) -> object:
        read.append(1)
        return real_read(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_read", counting)
    edited = _bank({60: "Question 60: edited?"})
    reads: list[int] = []

    def saving(text: str) -> Callable[[], Path]:
        def save() -> Path:
            reads.append(len(read))
            source.write_text(text, "utf-8")
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving(edited), saving(edited)], "--jobs", "1")
    reads.append(len(read))
    assert reads == [1, 2, 2]  # the first build and the edit read the source; the save of the same text did not
    assert saves[2].files == saves[1].files == _fresh(tmp_path, saves[2], "--jobs", "1")[1]


def _moodle_refuses(text: str, number: int) -> str:
    """``text`` (a :func:`_bank`) with question ``number`` made a short answer whose second answer
    is worth 35 %: no Moodle grade (QB321, found by the Moodle writers when they render it, not
    by the reader)."""
    block = re.search(rf"^(\d+)\. Question {number}: .*?\nAnswer: [ABCD]\n", text, re.M | re.S)
    assert block is not None
    return text.replace(block.group(0), f"{block.group(1)}. Question {number}: name a colour. {{type=short_answer}}\n\n"
                                         "Answer: red\nAnswer (35%): pink\n")


def test_an_error_the_last_target_finds_leaves_no_file_written_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second edit of question 80 makes it a score Moodle cannot store. The rebuild renders the
    frames, then the edited small chunk target by target: QTI 2.1's output is done, put together
    and written ahead to its temporary file before the Moodle chunk finds the error. The quiz has
    failed: dist/ keeps the last good build's files (not the broken quiz's QTI package), no
    temporary file stays, and the problem is the one a build without the cache reports."""
    source = tmp_path / "bank.md"
    source.write_text(_bank(count=200), "utf-8")  # its frames (200 // 4 questions' weight) first, as a big bank's
    staged: list[str] = []
    real = pipeline.Staging.write_soon

    def noting(self: pipeline.Staging, target: Path, data: list[bytes]) -> str:
        staged.append(target.name)
        return real(self, target, data)

    monkeypatch.setattr(pipeline.Staging, "write_soon", noting)

    def saving(text: str) -> Callable[[], Path]:
        def save() -> Path:
            staged.clear()
            source.write_text(text, "utf-8")
            return source
        return save

    edited = _bank({80: "Question 80: edited?"}, count=200)
    saves = _watch(tmp_path, monkeypatch, [saving(edited), saving(_moodle_refuses(edited, 80))], "--jobs", "1")
    good, broken = saves[1], saves[2]
    assert staged == ["bank.qti21.zip"]  # written ahead, before the Moodle chunk came in
    diagnostics, files = _fresh(tmp_path, broken, "--jobs", "1")
    assert not files and "error[QB321]" in diagnostics
    assert _diagnostics(broken.printed) == diagnostics
    assert broken.files == good.files
    assert not list((tmp_path / "dist").glob(".*")), "a temporary file was left in dist/"


def test_an_output_written_ahead_of_a_failing_target_creates_no_file(tmp_path: Path) -> None:
    """A small quiz built target by target in one process: its QTI 2.1 package is done (and written
    ahead, to a temporary file in the output folder, which exists) before its Moodle file's task
    finds a score Moodle cannot store. Nothing of the quiz is written and nothing stays behind;
    into an output folder that does not exist yet, nothing is written ahead (not even the folder)."""
    source = tmp_path / "quiz.md"
    source.write_text(_moodle_refuses(_bank(count=6), 3), "utf-8")
    from qti_builder.results import BuildOptions

    for dist, exists in ((tmp_path / "dist", True), (tmp_path / "new" / "dist", False)):
        if exists:
            dist.mkdir()
            (dist / "other.txt").write_text("kept", "utf-8")
        with pytest.raises(pipeline.BuildIncomplete) as failed:
            pipeline.build(BuildOptions(sources=[source], out_dir=dist, formats=["qti21", "moodle"], jobs=1, cache=False))
        assert [d.code for d in failed.value.result.diagnostics if d.severity.name == "ERROR"] == ["QB321"]
        assert _files(dist) == ({"other.txt": b"kept"} if exists else {})
        assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_a_watch_put_off_writing_is_in_the_cache_folder_for_a_build_by_hand(jobs: str, tmp_path: Path, build_cache: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A watching process keeps what its builds put in the cache (the chunks rendered, the runs
    deflated, the documents and rules found valid) in memory, and writes it to the cache folder
    in the background (``memory.later``); the workers of its first build write their chunks
    themselves. Once the watch stops, a build by hand of the last save with a blank line added
    at its end (a new source for the cache: read again, its quiz the same) takes every chunk,
    every frame, every run of questions and every frame's validation from the folder: it renders
    nothing, deflates no run of questions, validates no document and does not check the
    rules across any package again, and writes what a build without the cache writes."""
    from qti_builder import package

    monkeypatch.setattr(package, "RUN_QUESTIONS", CHUNK)  # 150 questions: 4 runs per member put together in runs
    monkeypatch.setattr(pipeline, "WARM_CHUNK", CHUNK)  # the watch's chunks those of a build by hand
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    edited = _bank({60: "Question 60: edited?"})

    def edit() -> Path:
        source.write_text(edited, "utf-8")
        return source

    _watch(tmp_path, monkeypatch, [edit], "--jobs", jobs)
    deflated: list[set[str | None]] = []
    real = pipeline.deflated

    def counting(pieces: list[object], level: int = package.COMPRESS_LEVEL) -> package.Deflated:
        if not all(isinstance(p, bytes) for p in pieces):  # a run with questions' documents
            deflated.append({p.question_id for p in pieces if isinstance(p, Document)})
        return real(pieces, level)  # type: ignore[arg-type]

    validated: list[str] = []
    real_documents, real_package = pipeline.validate_documents, pipeline.validate_package

    def documents(output_name: str, docs: list[Document], *args: object) -> object:
        validated.extend(d.path for d in docs)
        return real_documents(output_name, docs, *args)  # type: ignore[arg-type]

    def package_rules(output_name: str, *args: object) -> None:
        validated.append(output_name)
        real_package(output_name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "deflated", counting)
    monkeypatch.setattr(pipeline, "validate_documents", documents)
    monkeypatch.setattr(pipeline, "validate_package", package_rules)
    rendered = _rendered(monkeypatch)
    source.write_text(edited + "\n\n", "utf-8")
    code, _, err = run("build", str(source), "--out", str(tmp_path / "by-hand"), "--jobs", jobs)
    assert code == 0, err
    assert rendered == [] and deflated == []
    # Nor the rules across the Canvas and QTI 2.1 packages: kept like the backup's (pipeline._package_key).
    assert validated == []
    assert _files(tmp_path / "by-hand") == _fresh(tmp_path, Save(source.read_text("utf-8"), None, "", {}), "--jobs", jobs)[1]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rebuild_deflates_no_frame_text_the_build_before_used(jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of frame text alone big enough (the quiz backup's quiz.xml: 6 MB of slots in a
    10,000-question bank; here every one, the threshold set to nothing) is kept with the runs of
    questions, by a key of its bytes: each save's rebuild deflates none whose bytes the build
    before used (only those that changed, such as questions.xml's tar header, its size
    changed), and writes what a build without the cache writes."""
    monkeypatch.setattr(pipeline, "KEEP_FRAME_RUNS_FROM", 0)
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    deflating: list[int] = []
    real_deflated, real_call = pipeline.deflated, pipeline._KeptRuns.__call__
    #: Per build, each run of frame text alone: (its level, its bytes, whether it was deflated).
    runs: list[list[tuple[int, bytes, bool]]] = [[]]

    def counting(pieces: list[object], level: int = 3) -> object:
        deflating.append(1)
        return real_deflated(pieces, level)  # type: ignore[arg-type]

    def call(self: object, pieces: list[object], level: int) -> object:
        before = len(deflating)
        run = real_call(self, pieces, level)  # type: ignore[arg-type]
        if all(isinstance(p, bytes) for p in pieces):
            runs[-1].append((level, b"".join(pieces), len(deflating) > before))  # type: ignore[arg-type]
        return run

    monkeypatch.setattr(pipeline, "deflated", counting)
    monkeypatch.setattr(pipeline._KeptRuns, "__call__", call)

    def saving(stem: str) -> Callable[[], Path]:
        def save() -> Path:
            runs.append([])
            source.write_text(_bank({60: stem}), "utf-8")
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving("Question 60: edited once?"), saving("Question 60: edited twice?")], "--jobs", jobs)
    assert len(runs) == 3
    for k in (1, 2):
        used_before = {(level, data) for level, data, _ in runs[k - 1]}
        assert [data[:80] for level, data, fresh in runs[k] if fresh and (level, data) in used_before] == [], f"build {k}"
        assert any(not fresh for _, _, fresh in runs[k]), f"build {k} took no run of frame text"
    for k, save in enumerate(saves):
        assert save.files == _fresh(tmp_path, save, "--jobs", jobs)[1], f"build {k}"
