"""A German source read in pieces (readers/markdown/pieces.py): each piece is scanned in the
quiz's language (English and Korean words are read in every quiz, German ones only in a German
quiz), so its ``Antwort:`` labels answer its questions as in the whole reading. Written
against a sampled mutmut survivor of the module (issue 35, sixth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import pieces
from qti_builder.readers.piece_cache import Pieces

SOURCE = ("---\ntitle: Test\nlanguage: de\n---\n# Teil 1\n\n1. Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
          "# Teil 2\n\n2. Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n")


@pytest.mark.parametrize("in_pieces", [False, True], ids=["whole", "in-pieces"])
def test_a_german_source_s_pieces_read_its_labels(in_pieces: bool, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    path = tmp_path / "paper.md"
    path.write_text(SOURCE, encoding="utf-8")
    sink = DiagnosticSink()
    given = Pieces(lambda key: None, lambda key, reading: None, None) if in_pieces else None
    quiz, _ = read_quiz(path, sink, partial=True, pieces=given)
    assert [d.render() for d in sink.items] == []
    assert [(s.title, [(q.stem, [c.text for c in q.choices if c.correct]) for q in s.questions]) for s in quiz.sections] == [
        ("Teil 1", [("Welche Zahl ist gerade?", ["4"])]), ("Teil 2", [("Welche Zahl ist prim?", ["7"])])]
