"""What the commands say, as a course designer reads it: total points in check's summary and the
preview, plurals that agree with their numbers, and "did you mean" for a misspelt media path."""

from __future__ import annotations

from pathlib import Path

from helpers import SEED_SOURCE, write
from helpers.cli import run
from lxml import html

DRAWN = """---
id: drawn
title: Drawn
---

# Pool {#pool select=1}

1. Name a prime. {#prime type=short_answer points=2}

Answer: 2

2. Name an even number. {#even type=short_answer points=3}

Answer: 2

# Rest {#rest}

1. Why? {#why type=essay}

2. Upload it. {#upload type=file_upload}
"""


def test_check_says_the_total_points_with_a_range_for_a_draw_of_unequal_questions(tmp_path: Path) -> None:
    code, out, _ = run("check", str(write(tmp_path, "d.md", DRAWN)), cwd=tmp_path)
    assert code == 0
    # One of the pool (2 or 3 points), the essay (1) and the upload (1): 4 to 5 points.
    assert out.splitlines()[-1] == "ok: 1 quiz, 4 questions (4–5 points), 4 outputs valid"
    code, out, _ = run("check", str(write(tmp_path, "one.md", "---\ntitle: T\n---\n\n1. Why? {#w type=essay}\n")), cwd=tmp_path)
    assert out.splitlines()[-1] == "ok: 1 quiz, 1 question (1 point), 4 outputs valid"


def test_the_preview_says_points_and_draws_in_the_quizs_language(tmp_path: Path) -> None:
    write(tmp_path, "d.md", DRAWN)
    code, _, err = run("preview", "d.md", str(SEED_SOURCE), "--out", "p", cwd=tmp_path)
    assert code == 0, err
    page = html.parse(str(tmp_path / "p" / "drawn.html")).getroot()
    assert page.find_class("total")[0].text_content() == "4–5 points in all"
    assert [e.text_content() for e in page.find_class("points")] == ["2 points", "3 points", "1 point", "1 point"]
    assert "Draws 1 question at random" in page.text_content()
    assert "Upload 1 file" in page.text_content() and "(s)" not in page.text_content()
    seed = html.parse(str(tmp_path / "p" / "ray-train-tune.html")).getroot()
    assert seed.find_class("total")[0].text_content() == "총 10점"
    assert seed.find_class("points")[0].text_content() == "1점"
    index = html.parse(str(tmp_path / "p" / "index.html")).getroot().text_content()
    assert "Drawn — 4 questions, 4–5 points in all" in index
    assert "Ray Train과 Ray Tune 퀴즈 — 10문항, 총 10점" in index


def test_a_misspelt_media_path_gets_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "cells.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "media" / "diagram.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    source = write(tmp_path, "q.md", "---\ntitle: T\n---\n\n1. Look. {#a type=essay}\n\n"
                                     "   ![A cell](media/Cells.png) ![A cell](media/cels.png) ![A cell](pics/cells.png)"
                                     " ![A cell](media/nothing-like-it.gif)\n")
    code, _, err = run("check", str(source), cwd=tmp_path)
    assert code == 1
    assert "error[QB160]: media file 'media/Cells.png' does not exist; did you mean 'media/cells.png'?" in err
    assert "media file 'media/cels.png' does not exist; did you mean 'media/cells.png'?" in err
    assert "media file 'pics/cells.png' does not exist; did you mean 'media/cells.png'?" in err
    assert "media file 'media/nothing-like-it.gif' does not exist\n" in err
