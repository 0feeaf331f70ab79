"""A rebuild by hand takes the pieces it does not read again from the build cache with their places
(source_map.Places) kept as pickled bytes: the source map makes them only when something asks for
more than their heads (each section's and question's start, the ids written), which a build that
reports nothing never does (readers/markdown/pieces.py, readers/source_map.py). A diagnostic
found after reading in a cached piece (raw HTML in a question's text, QB150: located through the
source map, its text's lines too) is where a build without the cache says, after lines or a
section were added before its piece, and in a run of questions appended to its section after a
question was added before it; a clean rebuild makes no cached piece's places, and writes what a
build without the cache writes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from helpers.cli import run
from helpers.pieces import count_piece_reads
from test_cache import _sections_source

from qti_builder.readers.markdown import pieces
from qti_builder.readers.source_map import Places, SourceMap

STEM = "Part 10, 문제 9: 워커가 실패하면 어떻게 되나요?"
#: The same question with raw HTML on the second line of its text (the text's lines are recorded).
HTML_STEM = "Part 10, 문제 9: 워커가\n   실패하면 <blink>어떻게</blink> 되나요?"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def _build(source: Path, out: Path, *args: str) -> tuple[int, str, dict[str, bytes]]:
    code, _, err = run("build", str(source), "--jobs", "1", "--out", str(out), *args)
    diagnostics = "\n".join(line for line in err.replace(str(out), "OUT").splitlines()
                            if re.match(r"^\S+:\d+:\d+: (error|warning)\[|^    hint: ", line))
    return code, diagnostics, _files(out)


def _watch_places(monkeypatch: pytest.MonkeyPatch) -> tuple[list[bool], list[int]]:
    """From here on: whether each piece's places put in a source map were waiting (taken from the
    cache, not made), and a 1 for each waiting piece's places made."""
    taken: list[bool] = []
    made: list[int] = []
    real_take, real_made = SourceMap.take, Places.made

    def take(self: SourceMap, places: Places, *args: int) -> None:
        taken.append(places.waiting)
        real_take(self, places, *args)

    def making(self: Places) -> object:
        if self.waiting:
            made.append(1)
        return real_made(self)

    monkeypatch.setattr(SourceMap, "take", take)
    monkeypatch.setattr(Places, "made", making)
    return taken, made


def _question_added(text: str, section: int, after: int) -> str:
    """A question added to ``section`` after its question ``after``, the others not numbered again."""
    at = re.search(rf"(?m)^{after + 1}\. Part {section}, ", text)
    assert at is not None
    return text[:at.start()] + f"{after + 1}. Part {section}, 더한 문제?\n\nA) one\nB) two\n\nAnswer: B\n\n" + text[at.start():]


def _sources(case: str, html: bool) -> tuple[str, str]:
    """The source a first build keeps in the cache, and the one rebuilt from it (``case``), with
    raw HTML in Part 10's ninth question or not."""
    first = re.sub(r"(?m)^Part (\d+) 소개\.$", r"\1부의 소개.", _sections_source(12, 12))  # (else read whole: see test_cache)
    if html:
        first = first.replace(STEM, HTML_STEM)
    if case == "lines added":
        return first, first.replace("Part 2, 문제 2: 워커가 실패하면 어떻게 되나요?", "Part 2, 문제 2: 두 줄로\n   늘었나요?")
    if case == "section added":
        return first, first.replace("# Part 1\n", "# Part 0\n\n1. 앞에 더한 문제?\n\nA) one\nB) two\n\nAnswer: A\n\n# Part 1\n")
    if case == "question added in its section":
        return first, _question_added(first, 10, 2)
    assert case == "ids made distinct"
    # Two questions without ids of their own say the same: the second's made id is made distinct.
    same = "Part 4, 문제 3: 워커가 실패하면 어떻게 되나요?"
    first = first.replace(f"{same} {{#s4q3}}", same).replace("Part 11, 문제 3: 워커가 실패하면 어떻게 되나요? {#s11q3}", same)
    return first, first.replace("Part 2, 문제 2: 워커가 실패하면 어떻게 되나요?", "Part 2, 문제 2: 두 줄로\n   늘었나요?")


CASES = ["lines added", "section added", "question added in its section", "ids made distinct"]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sections read in runs of about four questions."""
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 4)


def _rebuilt(case: str, html: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, Any, Any, Any, Any]:
    """The case's source built, then edited and built again with the cache: the source, the edited
    text, the pieces read, the places taken and made (as :func:`_watch_places` records them), and
    the rebuild's result."""
    first, edited = _sources(case, html=html)
    source = tmp_path / "sections.md"
    source.write_text(first, "utf-8")
    assert _build(source, tmp_path / "first")[0] == 0
    source.write_text(edited, "utf-8")
    read = count_piece_reads(monkeypatch)
    taken, made = _watch_places(monkeypatch)
    return source, edited, read, taken, made, _build(source, tmp_path / "warm")


@pytest.mark.parametrize("case", CASES)
def test_a_clean_rebuild_makes_no_cached_piece_s_places(case: str, tmp_path: Path, runs: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebuild takes every piece but the edited one from the cache, makes none of their
    places, and writes and reports what a build without the cache does."""
    source, _, read, taken, made, warm = _rebuilt(case, False, tmp_path, monkeypatch)
    assert len(read) <= 2 and taken.count(True) >= 30, "the pieces were not taken from the cache"
    assert not made, "a clean rebuild made cached pieces' places"
    assert warm == _build(source, tmp_path / "cold", "--no-cache")
    assert warm[0] == 0 and not warm[1]


@pytest.mark.parametrize("case", CASES)
def test_a_warning_in_a_cached_piece_is_where_a_build_without_the_cache_says(case: str, tmp_path: Path, runs: None,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Raw HTML on the second line of a question's text in Part 10 (QB150), whose run is taken
    from the cache moved: by lines, by a section, by a question added before it in its section.
    The rebuild makes the waiting places to locate it, at the line and column a build without the
    cache gives."""
    source, edited, read, taken, made, warm = _rebuilt(case, True, tmp_path, monkeypatch)
    html_line = next(i for i, line in enumerate(edited.split("\n")) if "<blink>" in line)
    assert all(start > html_line or start < html_line - 20 for start in read), "the warning's run was read again"
    assert taken.count(True) >= 30 and made
    cold = _build(source, tmp_path / "cold", "--no-cache")
    assert warm == cold
    column = edited.split("\n")[html_line].index("<blink>") + 1
    assert f"sections.md:{html_line + 1}:{column}: warning[QB150]" in cold[1]
