"""A watch's rebuild places the pieces it did not read again with their places as the cache kept
them (readers/markdown/pieces.py ``_place``: (line, column) pairs, put in as they are where the
piece is placed at the lines it was read at, else moved): a warning located in a later section
after lines were added before it is at its line as a build without the cache says it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_watch_warm import _bank, _diagnostics, _fresh, _watch

from qti_builder.readers.markdown import pieces

HTML = "Question 140: which <blink>worker</blink> fails?"
TWO_PARAGRAPHS = "Question 5: which worker fails first?\n\nIt has a second paragraph."


def test_a_warning_after_lines_added_before_its_piece_is_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves: question 140 (the third section) holds raw HTML (QB150, located by the source map);
    question 5 (the first section) gains a paragraph, two lines, which moves every later piece;
    question 60 is edited, the pieces placed as in the build before. Each save prints what a
    build without the cache prints and writes its files."""
    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 10)  # the sections read in runs too
    source = tmp_path / "bank.md"
    source.write_text(_bank(), "utf-8")
    texts = [_bank({140: HTML}), _bank({140: HTML, 5: TWO_PARAGRAPHS}),
             _bank({140: HTML, 5: TWO_PARAGRAPHS, 60: "Question 60: edited?"})]

    def saving(text: str) -> Callable[[], Path]:
        def save() -> Path:
            source.write_text(text, "utf-8")
            return source
        return save

    saves = _watch(tmp_path, monkeypatch, [saving(text) for text in texts], "--jobs", "1")
    assert len(saves) == 4
    for k, save in enumerate(saves):
        diagnostics, files = _fresh(tmp_path, save, "--jobs", "1")
        assert save.files == files, f"build {k}"
        assert _diagnostics(save.printed) == diagnostics, f"build {k}"
    lines = [next(line for line in _diagnostics(save.printed).splitlines() if "QB150" in line) for save in saves[1:]]
    assert lines[1] != lines[0] and lines[2] == lines[1]  # moved by the paragraph, then as it was
