"""What an author sees in the HTML preview of a pasted paper (``qti-builder preview``): the outline
with its stated total, a shared passage and a question that could not be read, each with its lines
in the paper; the passage above each question it belongs to; and, on the index, a source that could
not be read at all, named with its errors.

Every expectation is worked out here from the paper the test writes (its lines counted from its own
text), and the page is read with lxml.html. Until the tenth session of issue 35 no test of the
preview's mutation target read these rows (tests/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lxml.html
import pytest

from qti_builder import BuildOptions
from qti_builder.preview import build_preview

PAPER = """---
title: "Reading test"
language: en
---

Total: {total} points

1. 2 + 2 = ? {{#a points=3}}

A) 3
B) 4

Answer: B

[2-3] Read the passage and answer the questions.

The river rises in the hills and runs to the sea.

2. Where does the river rise? {{#b points=2}}

A) In the hills
B) At the sea

Answer: A

3. Where does it run? {{#c points=2}}

A) To the hills
B) To the sea

Answer: B

4. What is the capital of France? {{#d}}

Answer: Paris
"""
#: Question 4's one-word answer says neither short answer nor essay (QB175): it is not read.

LINES = PAPER.split("\n")


def _line(start: str) -> int:
    return next(n for n, line in enumerate(LINES, 1) if line.startswith(start))


def _text(element: Any) -> str:
    return " ".join(element.text_content().split())


def _preview(tmp_path: Path, total: int) -> tuple[Any, Any]:
    source = tmp_path / "paper.md"
    source.write_text(PAPER.format(total=total), encoding="utf-8")
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: Broken\n---\n\nNo questions here at all.\n", encoding="utf-8")
    out = tmp_path / "out"
    build_preview(BuildOptions(sources=[source, broken]), out)
    return (lxml.html.parse(str(out / "paper.html")).getroot(), lxml.html.parse(str(out / "index.html")).getroot())


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return _preview(tmp_path_factory.mktemp("paper"), 7)


def test_the_outline_shows_the_passage_and_the_question_not_read_where_they_stand(pages: tuple[Any, Any]) -> None:
    rows = pages[0].xpath("//details[@class='outline']//tbody/tr")
    shown = [(row.get("class"), [_text(cell) for cell in row.xpath("./td")]) for row in rows[1:]]
    # Each runs to the line before the next thing, blank lines at its end left out.
    assert shown == [
        ("outline-question", ["1", "single choice", "answer B", "3", f"{_line('1. ')}–{_line('Answer: B')}"]),
        ("outline-passage", ["passage: questions 2–3", f"{_line('[2-3]')}–{_line('The river')}"]),
        ("outline-question", ["2", "single choice", "answer A", "2", f"{_line('2. ')}–{_line('Answer: A')}"]),
        ("outline-question", ["3", "single choice", "answer B", "2", f"{_line('3. ')}–{_line('4. ') - 2}"]),
        ("outline-question outline-not-read", ["4", "not read: see the errors", f"{_line('4. ')}–{_line('Answer: Paris')}"]),
    ]


def test_every_row_of_the_outline_spans_its_five_columns(pages: tuple[Any, Any]) -> None:
    table = pages[0].xpath("//details[@class='outline']/table")[0]
    columns = len(table.xpath("./thead/tr/th"))
    assert columns == 5
    rows = table.xpath(".//tbody/tr")
    assert {row.get("class") for row in rows} \
        == {"outline-section", "outline-passage", "outline-question", "outline-question outline-not-read"}
    for row in rows:
        assert sum(int(cell.get("colspan", "1")) for cell in row.xpath("./td|./th")) == columns, _text(row)


@pytest.mark.parametrize(("total", "verdict"), [(7, "matches"), (9, "differs")])
def test_the_outline_holds_the_stated_total_against_the_questions_read(tmp_path: Path, total: int, verdict: str) -> None:
    page, _ = _preview(tmp_path, total)
    summary = _text(page.xpath("//details[@class='outline']/summary")[0])
    assert summary == f"Outline: 3 questions, 7 points in all; the paper states Total: {total} points ({verdict})"


def test_the_passage_is_shown_above_each_question_it_belongs_to(pages: tuple[Any, Any]) -> None:
    page = pages[0]
    passage = [LINES[_line("[2-3]") - 1], LINES[_line("The river") - 1]]
    for qid in ("b", "c"):
        article = page.xpath(f"//article[@id='q-{qid}']")[0]
        found = article.xpath("./div[@class='passage']")
        assert len(found) == 1 and [_text(p) for p in found[0].xpath("./p")] == passage
        assert found[0].getnext().get("class") == "stem"
    assert not page.xpath("//article[@id='q-a']/div[@class='passage']")


def test_the_index_names_a_source_that_could_not_be_read_with_its_errors(pages: tuple[Any, Any]) -> None:
    index = pages[1]
    assert [_text(a) for a in index.xpath("//body/ul/li/a")] == ["Reading test"]
    headings = index.xpath("//body/h2")
    assert [Path(_text(h)).name for h in headings] == ["broken.md"]
    errors = headings[0].getnext()
    assert errors.get("class") == "diagnostics errors"
    assert [_text(c) for c in errors.xpath("./ul/li/code")] == ["QB119"]
    assert _text(errors.xpath("./ul/li/small")[0]).endswith("broken.md:4:1)")
