"""The cold build's serial steps overlapped with the workers' (issue 34): what each overlap moves
must leave the files and every diagnostic, in its order, as they were.

- Outputs put together ahead (``pipeline._Ahead``): a quiz's output whose own tasks are all in
  is put together while the workers render the other targets' last chunks (``_tail_last``),
  and written only once the whole quiz is in without an error.
- The checks run while the workers render (``pipeline._checks_overlapped``): as if they found
  no error, media file or formula, confirmed before any task's result is taken, and rendered
  again as they say when they found one.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, SEED_SOURCE

from qti_builder import parallel, pipeline
from qti_builder.pipeline import BuildIncomplete, BuildOptions, build, plan

FIXTURES = ROOT / "tests" / "fixtures"
#: Every question type (YAML), media (the backup is then rendered whole), math, a Korean quiz.
SOURCES = [FIXTURES / "all-types.yaml", ROOT / "source" / "content-showcase.md", SEED_SOURCE,
           ROOT / "source" / "python-fundamentals.md"]


def outcome(tmp_path: Path, name: str, jobs: int, sources: list[Path] = SOURCES, **options: Any) -> tuple[list[str], dict[str, str]]:
    """Every diagnostic as printed, in order, and the files written."""
    out = tmp_path / name
    try:
        diagnostics = build(BuildOptions(sources=sources, out_dir=out, jobs=jobs, **options)).diagnostics
    except BuildIncomplete as failed:
        diagnostics = failed.result.diagnostics
    files = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())} if out.exists() else {}
    return [d.render() for d in diagnostics], files


def at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build as before: every output put together once all of its quiz's tasks are in."""
    monkeypatch.setattr(pipeline._Ahead, "task_in", lambda self, *args: None)


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Chunks of 3 questions and a tail of 6: every quiz here is split, and has a tail.
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    monkeypatch.setattr(pipeline, "TAIL", 6)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)


def test_the_last_chunks_run_target_by_target_the_slowest_to_put_together_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from qti_builder.diagnostics import DiagnosticSink

    monkeypatch.setattr(pipeline, "CHUNK", 1)
    monkeypatch.setattr(pipeline, "TAIL", 4)
    loaded = dict(enumerate(pipeline.load_quizzes(BuildOptions(sources=[SEED_SOURCE]), DiagnosticSink())))
    ids = [q.id for q in loaded[0].quiz.iter_questions()]
    assert len(ids) == 10
    formats = ["qti21", "moodle", "canvas", "moodle-quiz"]
    tasks = plan(loaded, formats)
    items = [(t.format, t.questions) for t in tasks if t.part == "items"]
    assert sorted(items) == sorted((name, (i,)) for name in formats for i in ids)  # each chunk of each target once
    # the tail: the last four questions' chunks, target by target in PUT_TOGETHER_FIRST's order
    tail = items[-16:]
    assert [name for name, _ in tail] == [name for name in pipeline.PUT_TOGETHER_FIRST for _ in range(4)]
    assert {chunk for _, chunk in tail} == {(i,) for i in ids[-4:]}
    # before it, each chunk's four targets back to back (claimed together: they share its Markdown)
    head = items[:-16]
    assert [name for name, _ in head] == formats * 6
    assert all(len({chunk for _, chunk in head[k:k + 4]}) == 1 for k in range(0, 24, 4))
    # the frames first, as every task biggest first
    assert [t.part for t in tasks[:4]] == ["frame"] * 4


def test_a_quiz_of_one_chunk_or_two_has_no_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most half of a quiz's chunks are rendered apart from their other targets."""
    from qti_builder.diagnostics import DiagnosticSink

    monkeypatch.setattr(pipeline, "CHUNK", 5)
    loaded = dict(enumerate(pipeline.load_quizzes(BuildOptions(sources=[SEED_SOURCE]), DiagnosticSink())))
    items = [(t.format, t.questions) for t in plan(loaded, ["qti21", "moodle"]) if t.part == "items"]
    assert items[0][1] == items[1][1] and items[2][1] == items[3][1]  # two chunks, each with its two targets


@pytest.mark.parametrize("jobs", [1, 2])
def test_outputs_put_together_ahead_are_those_put_together_at_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       small_chunks: None, jobs: int) -> None:
    finished: list[dict[str, Any] | None] = []
    finish = pipeline._finish

    def recording(*args: Any) -> None:
        finished.append(dict(args[5]) if len(args) > 5 and args[5] else None)
        finish(*args)

    monkeypatch.setattr(pipeline, "_finish", recording)
    ahead = outcome(tmp_path, "ahead", jobs)
    if jobs == 1:  # one process takes the tasks in the planned order: every target but the last is put together ahead
        assert len(finished) == len(SOURCES)
        assert all(made is not None and set(made) == {"moodle-quiz", "moodle", "qti21"} for made in finished), finished
    at_the_end(monkeypatch)
    assert outcome(tmp_path, "end", jobs) == ahead
    assert len(ahead[1]) == 4 * len(SOURCES)


def put_together_spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The targets put together, in order (in this process)."""
    made: list[str] = []
    put_together = pipeline._put_together
    monkeypatch.setattr(pipeline, "_put_together", lambda mine, *rest: made.append(mine[0].task.format) or put_together(mine, *rest))
    return made


def broken_template(tmp_path: Path, target: str, name: str, old: str, new: str) -> Path:
    templates = tmp_path / "templates"
    (templates / target).mkdir(parents=True, exist_ok=True)
    original = (ROOT / "templates" / target / name).read_text("utf-8")
    assert old in original
    (templates / target / name).write_text(original.replace(old, new), "utf-8")
    return templates


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_quiz_that_fails_after_an_output_was_put_together_ahead_writes_nothing_and_says_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: None, jobs: int) -> None:
    """A Canvas item that its schema refuses, in the last task of the build (the text-only
    question, in the tail; Canvas is put together last): the outputs put together ahead of it are
    dropped, nothing is written, and the problems are those of the build that put every output
    together at the end."""
    templates = broken_template(tmp_path, "canvas", "item_text_only.xml.j2", "</presentation>",
                                "<broken/></presentation>")
    sources = [FIXTURES / "all-types.yaml"]
    made = put_together_spy(monkeypatch)
    ahead = outcome(tmp_path, "ahead", jobs, sources, templates=templates)
    assert ahead[1] == {}
    assert any("error[QB401]" in d and "canvas.zip#intro-note" in d for d in ahead[0]), ahead[0]
    if jobs == 1:  # put together ahead, then dropped: the quiz failed
        assert made == ["moodle-quiz", "moodle", "qti21"]
    at_the_end(monkeypatch)
    assert outcome(tmp_path, "end", jobs, sources, templates=templates) == ahead


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_output_refused_across_its_files_ahead_is_refused_as_at_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                            small_chunks: None, jobs: int) -> None:
    """The quiz backup, put together first, refused by its rules across its parts (a slot on a
    question its bank lacks): the same problem, at the same place, and no file."""
    templates = broken_template(tmp_path, "moodle_backup", "quiz.xml.j2", "<questionbankentryid>{{ slot.question.id }}<",
                                "<questionbankentryid>{{ slot.question.id + 70 }}<")
    sources = [FIXTURES / "all-types.yaml"]
    made = put_together_spy(monkeypatch)
    ahead = outcome(tmp_path, "ahead", jobs, sources, templates=templates)
    assert ahead[1] == {}
    assert any("is not in questions.xml" in d for d in ahead[0]), ahead[0]
    if jobs == 1:  # the backup first, ahead; the others all the same, as at the end
        assert made == ["moodle-quiz", "moodle", "qti21", "canvas"]
    at_the_end(monkeypatch)
    assert outcome(tmp_path, "end", jobs, sources, templates=templates) == ahead


class _Results:
    """Stands for a pool's unordered results: ``ready`` are in, then nothing more for now (or,
    ``finished``, the end)."""

    def __init__(self, ready: list[Any], finished: bool) -> None:
        self.ready, self.finished, self.waited = list(ready), finished, []

    def next(self, timeout: float | None = None) -> Any:
        self.waited.append(timeout)
        if self.ready:
            return self.ready.pop(0)
        raise StopIteration if self.finished else multiprocessing.TimeoutError()


@pytest.mark.parametrize("finished", [False, True])
def test_the_workers_results_in_are_taken_without_waiting(finished: bool) -> None:
    """Between its own tasks the parent yields each worker's results already in (a call that
    found every task claimed gives None), and never waits for one."""
    results = _Results([["a", "b"], None, ["c"]], finished)
    assert list(parallel._ready(results)) == ["a", "b", "c"]
    assert results.waited == [0, 0, 0, 0]


def test_a_command_leaves_what_it_made_out_of_the_last_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's last act: what is left is frozen out of the garbage collector's reach,
    so the interpreter's final collection does not walk a big build's objects before the
    process ends; the command's exit code is its own."""
    import gc
    import sys

    from qti_builder import cli

    monkeypatch.setattr(sys, "argv", ["qti-builder", "--version"])
    before = gc.get_freeze_count()
    try:
        with pytest.raises(SystemExit) as exit_:
            cli.main()
        assert exit_.value.code in (0, None)
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()  # this test process goes on collecting as before


#: A quiz whose checks (not its reading) find an error: two questions of a section with one
#: Moodle ID number (QB238), in a source without a formula or a media reference.
CHECK_ERROR = ("---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#cells}\n\n"
               '1. Is a cell alive? {#q1 moodle_idnumber="W3 Q1"}\n\nAnswer: true\n\n'
               '2. Is DNA a helix? {#q2 moodle_idnumber="W3 Q1"}\n\nAnswer: true\n\n'
               "3. Is RNA a helix? {#q3}\n\nAnswer: false\n\n4. Is a virus alive? {#q4}\n\nAnswer: false\n")


def checks_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build as before: every quiz checked before anything renders."""
    monkeypatch.setattr(pipeline, "_may_overlap_checks", lambda options: False)


def checks_spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each quiz checked: whether the workers were rendering then (parallel.run had forked them)."""
    overlapped: list[bool] = []
    check_read = pipeline.check_read

    def spying(*args: Any, **kwargs: Any) -> Any:
        overlapped.append(parallel._shared is not None)
        return check_read(*args, **kwargs)

    monkeypatch.setattr(pipeline, "check_read", spying)
    return overlapped


def test_quizzes_checked_while_the_workers_render_give_the_same_files_and_problems(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: None) -> None:
    """Sources without formulas or media: one whose checks warn (raw HTML, QB150) and builds, and
    two of the repository's; then one whose checks find an error (QB238), read without one: the
    workers' results are dropped and it is rendered as the checks say (its questions in error
    left out), with the problems of a build that checked first."""
    (tmp_path / "error.md").write_text(CHECK_ERROR, "utf-8")
    clean = [SEED_SOURCE, ROOT / "source" / "python-fundamentals.md", ROOT / "tests" / "corpus" / "case-039-raw-script.md"]
    for name, sources in (("clean", clean), ("error", [*clean, tmp_path / "error.md"])):
        overlapped = checks_spy(monkeypatch)
        works = []
        work = pipeline._work
        monkeypatch.setattr(pipeline, "_work", lambda *args, **kwargs: works.append(1) or work(*args, **kwargs))
        overlap = outcome(tmp_path, f"{name}-overlap", 2, sources)
        assert overlapped == [True] * len(sources)  # every quiz checked once, while the workers rendered
        assert len(works) == (1 if name == "clean" else 2)  # the checks' error: rendered again
        checks_first(monkeypatch)
        first = outcome(tmp_path, f"{name}-first", 2, sources)
        monkeypatch.undo()
        monkeypatch.setattr(pipeline, "CHUNK", 3)
        monkeypatch.setattr(pipeline, "TAIL", 6)
        monkeypatch.setattr(pipeline, "PARALLEL_FROM", 0)
        assert overlap == first
        if name == "clean":
            assert len(overlap[1]) == 4 * len(sources) and any("warning[QB150]" in d for d in overlap[0])
        else:
            assert any("error[QB238]" in d for d in overlap[0])
            assert len(overlap[1]) == 4 * len(clean) and not any(name.startswith("error.") for name in overlap[1])


def test_media_or_formulas_found_by_the_checks_render_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              small_chunks: None) -> None:
    """A source with media files and formulas that the look at its bytes took for one without
    (forced here): the checks find them while the workers render without them, and the quiz is
    rendered again with its media and the QTI 2.1 schema with MathML: the same files as a build
    that checked first."""
    from qti_builder import content

    sources = [ROOT / "source" / "content-showcase.md"]
    checks_first(monkeypatch)
    first = outcome(tmp_path, "first", 2, sources)
    monkeypatch.undo()
    for name, value in (("CHUNK", 3), ("TAIL", 6), ("PARALLEL_FROM", 0)):
        monkeypatch.setattr(pipeline, name, value)
    monkeypatch.setattr(content, "may_hold_math_or_media", lambda text: False)
    overlapped = checks_spy(monkeypatch)
    works = []
    work = pipeline._work
    monkeypatch.setattr(pipeline, "_work", lambda *args, **kwargs: works.append(1) or work(*args, **kwargs))
    assert outcome(tmp_path, "overlap", 2, sources) == first
    assert overlapped == [True] and len(works) == 2
    assert len(first[1]) == 4


def test_what_a_source_may_hold_is_looked_for_in_its_text() -> None:
    from qti_builder.content import may_hold_math_or_media

    assert not may_hold_math_or_media("1. Which one?\n\nA) this\nB) that\n\nAnswer: A\n")
    for text in ("costs $5", "\\(x\\)", "![a cell](media/cell.png)", '<img src="x.png">', "[data](media/data.csv)"):
        assert may_hold_math_or_media(text), text


def _bank(count: int, edit: tuple[int, str] | None = None) -> str:
    """A quiz of ``count`` true/false questions, without a formula or a media reference; ``edit``:
    (n, attributes) added to question n's."""
    lines = ["---", "id: bank", "title: A bank", "---", "", "# Part 1 {#part-1}", ""]
    for n in range(1, count + 1):
        extra = f" {edit[1]}" if edit and edit[0] == n else ""
        lines += [f"{n}. Is {n} even? {{#q{n}{extra}}}", "", f"Answer: {'true' if n % 2 == 0 else 'false'}", ""]
    return "\n".join(lines)


def test_a_rebuild_from_the_cache_checks_while_the_workers_render(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   small_chunks: None) -> None:
    """A rebuild after one edit, the other chunks taken from the build cache: its checks run once
    the workers are rendering the edited chunk (not before they start), and the files are a
    build's without the cache; an edit that the checks find an error in (two questions with one
    Moodle ID number, QB238) is rendered again as the checks say, with the problems and files
    of a build without the cache that checked first."""
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "bank.md"
    source.write_text(_bank(12), "utf-8")
    assert outcome(tmp_path, "first", 2, [source], cache=True)[1]
    source.write_text(_bank(12, (5, 'moodle_idnumber="five"')), "utf-8")
    overlapped = checks_spy(monkeypatch)
    taken = []
    cached = pipeline._cached
    monkeypatch.setattr(pipeline, "_cached", lambda *args: taken.append(result := cached(*args)) or result)
    warm = outcome(tmp_path, "warm", 2, [source], cache=True)
    assert overlapped == [True] and any(r is not None for r in taken)  # checked while the workers rendered
    assert warm == outcome(tmp_path, "cold", 2, [source]) and len(warm[1]) == 4
    source.write_text(_bank(12, (5, 'moodle_idnumber="five"')).replace("{#q9}", '{#q9 moodle_idnumber="five"}'), "utf-8")
    overlapped.clear()
    works = []
    work = pipeline._work
    monkeypatch.setattr(pipeline, "_work", lambda *args, **kwargs: works.append(1) or work(*args, **kwargs))
    broken = outcome(tmp_path, "broken", 2, [source], cache=True)
    assert overlapped == [True] and len(works) == 2  # the checks' error: rendered again
    assert any("error[QB238]" in d for d in broken[0])
    checks_first(monkeypatch)
    assert broken == outcome(tmp_path, "broken-first", 2, [source])
