"""What an author sees in the HTML preview of a pasted paper (``qti-builder preview``): the outline
with its stated total, a shared passage and a question that could not be read, each with its lines
in the paper; the passage above each question it belongs to; on the index, a source that could
not be read at all, named with its errors; and the mark of a quiz with errors, which ``build``
writes nothing of, on the index (how many, a link to its page's notice, its questions counted as
read of the paper's) and at the top of its page, in English and in Korean, with none for a good
quiz.

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

#: Read whole, but question 2's picture is missing (QB160, an error): nothing of it is built.
PICTURES = """---
title: Pictures
language: en
---

1. Which is red? {#p}

A) this
B) that

Answer: A

2. What does the picture show? ![a map](map.png) {#q}

A) A map
B) A cat

Answer: A
"""

#: No error, no warning.
GOOD = """---
title: Good
language: en
---

1. 1 + 1 = ? {#g}

A) 2
B) 3

Answer: A
"""

#: A Korean paper whose question 1 cannot be read (QB125: its answer runs on into an indented
#: line); question 2 is read.
KOREAN = """---
title: 한국어 시험
language: ko
---

1. 다음 중 옳은 것은?
A) 가
B) 나
정답: A

    답) 가는 옳다

2. 둘째?
A) 예
B) 아니오
정답: B
"""


def _line(start: str) -> int:
    return next(n for n, line in enumerate(LINES, 1) if line.startswith(start))


def _text(element: Any) -> str:
    return " ".join(element.text_content().split())


def _preview(tmp_path: Path, total: int) -> tuple[Any, Any]:
    source = tmp_path / "paper.md"
    source.write_text(PAPER.format(total=total), encoding="utf-8")
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: Broken\n---\n\nNo questions here at all.\n", encoding="utf-8")
    (tmp_path / "pictures.md").write_text(PICTURES, encoding="utf-8")
    (tmp_path / "good.md").write_text(GOOD, encoding="utf-8")
    (tmp_path / "korean.md").write_text(KOREAN, encoding="utf-8")
    out = tmp_path / "out"
    build_preview(BuildOptions(sources=[source, broken] + [tmp_path / f"{name}.md" for name in ("pictures", "good", "korean")]), out)
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
    assert [_text(a) for a in index.xpath("//body/ul/li/a[1]")] == ["Reading test", "Pictures", "Good", "한국어 시험"]
    headings = index.xpath("//body/h2")
    assert [Path(_text(h)).name for h in headings] == ["broken.md"]
    errors = headings[0].getnext()
    assert errors.get("class") == "diagnostics errors"
    assert [_text(c) for c in errors.xpath("./ul/li/code")] == ["QB119"]
    assert _text(errors.xpath("./ul/li/small")[0]).endswith("broken.md:4:1)")


def _entry(index: Any, title: str) -> Any:
    return next(li for li in index.xpath("//body/ul/li") if _text(li.xpath("./a")[0]) == title)


def _page(tmp_path_factory: pytest.TempPathFactory, pages: tuple[Any, Any], name: str) -> Any:
    """Another quiz page of the module's preview (written next to index.html)."""
    return lxml.html.parse(str(Path(pages[1].getroottree().docinfo.URL).parent / f"{name}.html")).getroot()


def test_the_index_marks_a_quiz_whose_questions_with_errors_were_left_out(pages: tuple[Any, Any]) -> None:
    # The paper has 4 questions; question 4 (3 of the 7 points are questions 1-3's) is not read.
    entry = _entry(pages[1], "Reading test")
    assert _text(entry) == ("Reading test — 3 of 4 questions read, 7 points in the questions read; "
                            "1 error: nothing of this quiz is built until it is fixed")
    mark = entry.xpath("./a[@class='not-built']")
    assert [(m.get("href"), _text(m)) for m in mark] == [("paper.html#errors", "1 error: nothing of this quiz is built until it is fixed")]
    assert not entry.xpath(".//*[@class='warned']")


def test_the_page_of_a_quiz_with_errors_says_at_its_top_that_nothing_of_it_is_built(pages: tuple[Any, Any]) -> None:
    page = pages[0]
    notice = page.xpath("//*[@id='errors']")
    assert len(notice) == 1 and notice[0].get("class") == "not-built"
    assert notice[0].getprevious().get("class") == "total"
    assert _text(notice[0]) == "1 error: nothing of this quiz is built until it is fixed. 3 of 4 questions read."
    # Its error lies in the question left out: it is listed below with the quiz's own, under no
    # question (not under question 3, the one before it), and no question is linked.
    assert not notice[0].xpath(".//a")
    below = notice[0].xpath("following-sibling::div[@class='diagnostics errors']")
    assert [[_text(c) for c in d.xpath("./ul/li/code")] for d in below] == [["QB175"]]
    assert not page.xpath("//article//div[contains(@class, 'diagnostics')]")


def test_the_index_marks_a_quiz_read_whole_with_an_error_and_its_page_links_the_question(
        pages: tuple[Any, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    entry = _entry(pages[1], "Pictures")
    assert _text(entry) == "Pictures — 2 questions, 2 points in all; 1 error: nothing of this quiz is built until it is fixed"
    assert [a.get("href") for a in entry.xpath("./a[@class='not-built']")] == ["pictures.html#errors"]
    page = _page(tmp_path_factory, pages, "pictures")
    notice = page.xpath("//*[@id='errors']")[0]
    assert _text(notice) == "1 error: nothing of this quiz is built until it is fixed. Questions with errors: 2"
    assert [(a.get("href"), _text(a)) for a in notice.xpath(".//a")] == [("#q-q", "2")]
    # The link leads to the question, whose own list holds the error.
    assert [_text(c) for c in page.xpath("//article[@id='q-q']/div[@class='diagnostics errors']/ul/li/code")] == ["QB160"]


def test_a_good_quiz_has_no_mark_on_the_index_nor_notice_on_its_page(
        pages: tuple[Any, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    entry = _entry(pages[1], "Good")
    assert _text(entry) == "Good — 1 question, 1 point in all"
    assert [a.get("href") for a in entry.xpath(".//a")] == ["good.html"] and not entry.xpath(".//span")
    assert not _page(tmp_path_factory, pages, "good").xpath("//*[@id='errors' or @class='not-built']")


def test_a_korean_quiz_is_marked_in_korean(pages: tuple[Any, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    entry = _entry(pages[1], "한국어 시험")
    assert entry.get("lang") == "ko"
    assert _text(entry) == "한국어 시험 — 2문항 중 1문항만 읽음, 읽은 문항 총 1점; 오류 1개: 고치기 전에는 이 퀴즈의 어떤 것도 빌드되지 않습니다"
    notice = _page(tmp_path_factory, pages, "korean").xpath("//*[@id='errors']")[0]
    assert _text(notice) == "오류 1개: 고치기 전에는 이 퀴즈의 어떤 것도 빌드되지 않습니다. 2문항 중 1문항만 읽음."
