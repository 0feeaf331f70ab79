"""What the Markdown reader makes of a source, and where it tells the author of a problem, found
untested by issue 35's sampled mutation run of readers/markdown/questions.py, syntax.py and
calculated.py on the exam reader's code (the ninth session). Each source is written here by hand,
each place found by searching its own text, each expected value written out; every test was seen
failing on the mutant it names and passing on the code.

They kill, in readers/markdown/: ``QuestionBuilder.build`` 22.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.reading import place
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed


def built_problems(tmp_path: Path, text: str, name: str = "paper.md") -> list[tuple[int, int, str, str]]:
    """A build of the source that fails: each diagnostic as (line, column, code, message)."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], write=False, jobs=1))
    return [(d.span.line, d.span.column, d.code, d.message) for d in failed.value.diagnostics if d.span is not None]


def test_a_missing_picture_before_a_blank_is_reported_where_it_is_written(tmp_path: Path) -> None:
    """The stem of a fill-in-blank question is the model's text with each blank renamed (``[[b1]]``),
    so its written line is not found in it, and a problem on that line is counted from the stem's
    own place: its line and column (``build`` 22 recorded the column as None: a traceback)."""
    text = "---\ntitle: T\n---\n\n1. See ![](gone.png) and name the [[Sun]]. {type=fill_in_blank}\n"
    line, column = place(text, "gone.png")
    assert built_problems(tmp_path, text) == [
        (line, column, "QB160", "media file 'gone.png' does not exist"),
        (line, column, "QB165", "image 'gone.png' has no alt text"),
    ]
