"""The Markdown reader's blocks.py and keys.py (and one survivor of pieces.py), checked against
sampled mutmut survivors of issue 35's ninth session: each test reads a small source written here
and checks what a user gets from it (the questions' answers, each diagnostic's code, line, column
and message), and was seen failing on its mutant."""

from __future__ import annotations

from pathlib import Path

import pytest

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces


@pytest.mark.parametrize("in_pieces", [False, True], ids=["whole", "in-pieces"])
def test_a_code_fence_opened_after_a_full_width_space_runs_over_the_next_heading(
        in_pieces: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A code fence opened after a full-width space (U+3000, as pasted papers indent) and never
    closed: everything after it is code, the next top-level heading too, so the one problem is
    QB108 at the fence, also when the reader tries the source in pieces (the piece whose fence is
    open does not end clean, so the source is read whole; pieces.read_pieces 74 took the
    second-to-last piece as the last, which need not end clean, and read the heading after the
    fence as a section whose question lacks its answer, QB120)."""
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    path = tmp_path / "paper.md"
    path.write_text("---\ntitle: P\n---\n\n# One\n\n1. What does this print?\n\nA) 1\nB) 2\n\nAnswer: A\n\n"
                    "Explanation:\n\n\u3000```python\nprint(1)\n\n# Two\n\n2. Second?\n\nA) one\nB) two\n", encoding="utf-8")
    sink = DiagnosticSink()
    given = Pieces(lambda key: None, lambda key, reading: None, None) if in_pieces else None
    assert read_quiz(path, sink, partial=True, pieces=given) is None
    assert [(d.code, d.span.line, d.span.column, d.message) for d in sink.items] == [
        ("QB108", 16, 1, "code fence ``` is never closed")]
