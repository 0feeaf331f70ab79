"""What an author sees in the HTML preview of a calculated question (``qti-builder preview``): the
question as set 1 gives it, the box with the unit after it, and under "Show answer" the answer with
its formula and tolerance and a table of every set of values with its answer.

The expectations come from the fixture's own text (tests/fixtures/calculated.md: each question's
``sets=``, ``unit=``, variables and ``Answer:`` line, read by the regular expressions below) and
from the answers written again by hand in tests/helpers/calculated.py; the page is read with
lxml.html. Nothing is taken from the preview's code. Until the tenth session of issue 35 no test
read these views: every mutant of their templates survived (tests/README.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from helpers.calculated import CALCULATED_ANSWERS, CALCULATED_SOURCE

from qti_builder import BuildOptions
from qti_builder.preview import build_preview

TEXT = CALCULATED_SOURCE.read_text(encoding="utf-8")
#: Each question's block of the fixture: from its numbered line to the next one.
BLOCKS = {m[2]: m[0] for m in re.finditer(r"^\d+\. (.+?) \{#(\w+) type=\w+[^}]*\}\n(?:(?!\d+\. ).*\n?)*", TEXT, re.M)}


def _attribute(qid: str, name: str) -> str | None:
    found = re.search(rf"\{{#{qid} [^}}]*\b{name}=(\S+?)[ }}]", BLOCKS[qid])
    return found[1] if found else None


def _variables(qid: str) -> list[str]:
    """The names the variables block defines, in its order (a constraint line defines none)."""
    block = re.search(r"```variables\n(.*?)```", BLOCKS[qid], re.S)[1]  # type: ignore[index]
    names: list[str] = []
    for line in block.splitlines():
        left = line.split("=", 1)[0].strip() if re.match(r"^\s*[\w(][\w, ()]*=(?!=)", line) else ""
        names += [n.strip() for n in left.strip("()").split(",") if n.strip()]
    return names


def _answer_line(qid: str) -> tuple[str, str]:
    """The formula and the tolerance as the ``Answer:`` line writes them ('0' when it gives none)."""
    line = re.search(r"^Answer: (.+)$", BLOCKS[qid], re.M)[1]  # type: ignore[index]
    formula, _, tolerance = line.partition(" ± ")
    return formula, tolerance or "0"


def _text(element: Any) -> str:
    return " ".join(element.text_content().split())


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("preview")
    build_preview(BuildOptions(sources=[CALCULATED_SOURCE]), out)
    return lxml.html.parse(str(out / "calculated.html")).getroot()


def _sets(page: Any, qid: str) -> tuple[str, list[str], list[list[str]]]:
    tables = page.xpath(f"//article[@id='q-{qid}']/details[@class='answer']/table[@class='sets']")
    assert len(tables) == 1, qid
    return (_text(tables[0].xpath("./caption")[0]), [_text(th) for th in tables[0].xpath("./thead/tr/th")],
            [[_text(td) for td in tr.xpath("./td")] for tr in tables[0].xpath("./tbody/tr")])


def _decimals(shown: str) -> int:
    return len(shown.split(".")[1]) if "." in shown else 0


@pytest.mark.parametrize("qid", sorted(CALCULATED_ANSWERS))
def test_every_set_is_listed_with_its_values_and_its_answer(page: Any, qid: str) -> None:
    caption, header, rows = _sets(page, qid)
    names = _variables(qid)
    assert header == ["#", *names, "Answer"]
    stated = _attribute(qid, "sets")
    if stated:
        assert len(rows) == int(stated)
    assert caption == f"{len(rows)} sets; the question shows set 1"
    unit = _attribute(qid, "unit")
    for n, row in enumerate(rows, 1):
        assert row[0] == str(n)
        values = dict(zip(names, map(float, row[1:-1])))
        shown = row[-1]
        if unit:
            assert shown.endswith(f" {unit}"), (qid, row)
            shown = shown[: -len(unit) - 1]
        right = CALCULATED_ANSWERS[qid](values)
        # The answer as shown, rounded to its own decimals (or the question's figures).
        slack = 0.5 * 10 ** -_decimals(shown) + 1e-9 * abs(right)
        assert abs(float(shown) - right) <= slack or f"{float(f'{right:.3g}'):g}" == f"{float(shown):g}", (qid, row, right)


@pytest.mark.parametrize("qid", sorted(CALCULATED_ANSWERS))
def test_the_answer_gives_set_1_s_value_its_formula_and_tolerance(page: Any, qid: str) -> None:
    _, _, rows = _sets(page, qid)
    formula, tolerance = _answer_line(qid)
    shown = page.xpath(f"//article[@id='q-{qid}']/details[@class='answer']/p[@class='correct']")
    assert [_text(p) for p in shown] == [f"Answer: {rows[0][-1]} ({formula} ± {tolerance.replace('%', ' %')})"]


@pytest.mark.parametrize("qid", sorted(CALCULATED_ANSWERS))
def test_the_question_shows_set_1_and_the_box_its_unit(page: Any, qid: str) -> None:
    _, _, rows = _sets(page, qid)
    names = _variables(qid)
    stem = re.match(r"\d+\. (.+?) \{#", BLOCKS[qid])[1]  # type: ignore[index]
    for name, value in zip(names, rows[0][1:-1]):
        stem = stem.replace(f"{{{name}}}", value)
    article = page.xpath(f"//article[@id='q-{qid}']")[0]
    assert _text(article.xpath("./div[@class='stem']")[0]) == stem
    boxes = [p for p in article.xpath(".//p[input[@type='text']]") if not p.xpath("ancestor::details")]
    assert len(boxes) == 1 and _text(boxes[0]) == (_attribute(qid, "unit") or "")


def test_a_calculated_choice_lists_each_set_with_its_right_option(page: Any) -> None:
    caption, header, rows = _sets(page, "sum")
    assert header == ["#", "a", "b", "Answer"] and caption == f"{_attribute('sum', 'sets')} sets; the question shows set 1"
    assert [row[0] for row in rows] == [str(n) for n in range(1, int(_attribute("sum", "sets") or 0) + 1)]
    assert all(row[3] == str(int(row[1]) + int(row[2])) and row[1] != row[2] for row in rows)  # A) {=a + b:0}, a != b
    article = page.xpath("//article[@id='q-sum']")[0]
    assert _text(article.xpath("./div[@class='stem']")[0]) == f"What is {rows[0][1]} + {rows[0][2]}?"


KOREAN = """---
id: gyesan
title: 계산 문제
language: ko
---

1. 한 변이 {s} cm인 정사각형의 넓이는? {#area type=calculated unit=cm² sets=3}

```variables
s = 2..9
```

정답: s^2
"""


def test_a_korean_page_says_how_many_sets_in_korean(tmp_path: Path) -> None:
    source = tmp_path / "gyesan.md"
    source.write_text(KOREAN, encoding="utf-8")
    build_preview(BuildOptions(sources=[source]), tmp_path / "out")
    page = lxml.html.parse(str(tmp_path / "out" / "gyesan.html")).getroot()
    caption, header, rows = _sets(page, "area")
    assert caption == "값 3세트 (문항에는 1번 세트가 보입니다)"
    assert header == ["#", "s", "정답"]
    assert [row[2] for row in rows] == [f"{int(row[1]) ** 2}.00 cm²" for row in rows]  # decimals=2 unless stated
