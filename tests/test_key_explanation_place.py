"""A problem inside an explanation that the answer key's explanations part gives (``[해설]`` then
``1. …``) is reported where it is written: its column is counted from the explanation's text, after
its number, as for any text. Before, the column was counted from the start of the line, three
characters short for ``1. `` (found by issue 35's mutation work, eighth session)."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source

PAPER = "---\ntitle: T\nlanguage: ko\n---\n1. 한국의 수도는?\n① 서울\n② 부산\n\n[정답]\n1. ①\n\n[해설]\n" \
        "1. 서울이 수도이다. ![지도](missing.png)\n"


def test_a_missing_picture_in_a_keyed_explanation_is_reported_at_its_place(tmp_path: Path) -> None:
    code, reported = check_source(tmp_path, "paper.md", PAPER, "--lang", "en")
    lines = PAPER.split("\n")
    line = next(n for n, text in enumerate(lines, 1) if "missing.png" in text)
    column = lines[line - 1].index("missing.png") + 1
    assert (code, [(r.code, r.line, r.column) for r in reported]) == (1, [("QB160", line, column)])
