"""Two questions of a paper that say the same ("다음 중 옳은 것은?", on most Korean papers) read
and build: the ids the reader makes from a question's text no longer collide (the paper failed
with QB133, "id 'q82798aa8' is already used", for ids its teacher never wrote), the second and
later take "-2", "-3" in source order, read whole or in pieces; an id the source writes twice is
still QB133."""

from __future__ import annotations

import zipfile

import pytest
from helpers.cli import check_source, run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces

PAPER = """---
title: 중간고사
---

# 1부

1. 다음 중 옳은 것은?
① 가
② 나

2. 다음 중 옳은 것은?
① 다
② 라

# 2부

3. 다음 중 옳은 것은?
① 마
② 바

정답: 1. ① 2. ② 3. ①
"""


def _questions(tmp_path, text: str) -> list[tuple[str, list[str], str]]:
    path = tmp_path / "paper.md"
    path.write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink)
    assert read is not None and not sink.errors, sink.items
    quiz, _ = read
    return [(q.id, [c.text for c in q.choices], next(c.text for c in q.choices if c.correct))
            for s in quiz.sections for q in s.questions]


def test_questions_that_say_the_same_read_as_distinct_questions(tmp_path):
    got = _questions(tmp_path, PAPER)
    first = got[0][0]
    assert first.startswith("q") and len(first) == 9
    # Each keeps its own options and right answer, in source order; ids follow the first's.
    assert got == [(first, ["가", "나"], "가"), (f"{first}-2", ["다", "라"], "라"), (f"{first}-3", ["마", "바"], "마")]


def test_the_same_ids_when_read_in_pieces(tmp_path, monkeypatch: pytest.MonkeyPatch):
    # Answers under each question (a key anywhere makes the reader read the source whole), and a
    # piece cache: each "# " part is then read as a piece of its own, which this spy sees.
    paper = PAPER.replace("② 나\n", "② 나\n정답: ①\n").replace("② 라\n", "② 라\n정답: ②\n")
    paper = paper.replace("② 바\n", "② 바\n정답: ①\n").replace("\n정답: 1. ① 2. ② 3. ①\n", "\n")
    whole = _questions(tmp_path, paper)
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    read_pieces, starts = pieces.read_pieces, []

    def spy(lines, bounds, *args, **kwargs):
        starts.extend(bounds)
        return read_pieces(lines, bounds, *args, **kwargs)

    monkeypatch.setattr(pieces, "read_pieces", spy)
    path = tmp_path / "paper.md"
    path.write_text(paper, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink, pieces=Pieces())
    assert read is not None and not sink.errors, sink.items
    assert [paper.split("\n")[i] for i in starts] == ["# 1부", "# 2부"]  # read in two pieces
    split = [(q.id, [c.text for c in q.choices], next(c.text for c in q.choices if c.correct))
             for s in read[0].sections for q in s.questions]
    assert split == whole and [i for i, _, _ in whole][1:] == [f"{whole[0][0]}-2", f"{whole[0][0]}-3"]


def test_the_paper_builds_each_question_its_own_item(tmp_path):
    (tmp_path / "paper.md").write_text(PAPER, encoding="utf-8")
    code, _, err = run("build", "paper.md", "-o", "dist", "--format", "qti21", cwd=tmp_path)
    assert code == 0, err
    names = sorted(n for n in zipfile.ZipFile(next((tmp_path / "dist").glob("*.zip"))).namelist() if n.startswith("items/"))
    assert len(names) == 3 and len(set(names)) == 3


def test_an_id_written_twice_is_still_an_error(tmp_path):
    text = PAPER.replace("1. 다음 중 옳은 것은?", "1. 다음 중 옳은 것은? {#same}").replace("2. 다음 중 옳은 것은?", "2. 다음 중 옳은 것은? {#same}")
    code, reported = check_source(tmp_path, "paper.md", text)
    assert code == 1
    line = text.splitlines().index("2. 다음 중 옳은 것은? {#same}") + 1
    assert [(r.code, r.line, r.message) for r in reported] == [
        ("QB133", line, f"id 'same' is already used on line {line - 4}")]


def test_an_id_written_before_the_repeated_questions_leaves_them_distinct(tmp_path):
    # The written id is the teacher's and stays; the questions after it that say the same still
    # take "-2" (the id pass goes on past a written id, not stopping at it).
    paper = PAPER.replace("# 1부\n\n1. 다음 중 옳은 것은?\n① 가", "# 1부\n\n1. 물은 무엇인가? {#water}\n① 가")
    paper = paper.replace("# 2부\n", "3. 다음 중 옳은 것은?\n① 사\n② 아\n\n# 2부\n").replace("3. 다음 중 옳은 것은?\n① 마", "4. 다음 중 옳은 것은?\n① 마")
    paper = paper.replace("정답: 1. ① 2. ② 3. ①", "정답: 1. ① 2. ② 3. ② 4. ①")
    got = _questions(tmp_path, paper)
    first = got[1][0]
    assert [i for i, _, _ in got] == ["water", first, f"{first}-2", f"{first}-3"]
