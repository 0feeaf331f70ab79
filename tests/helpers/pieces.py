"""Which pieces of a source the Markdown reader reads (readers/markdown/pieces.py)."""

from __future__ import annotations

from typing import Any

import pytest


def count_piece_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first line (0-based) of each piece the Markdown reader reads from here on, in this
    process (not those taken from the cache)."""
    from qti_builder.readers.markdown import pieces

    read: list[int] = []
    real = pieces.read_piece

    def counting(lines: list[str], start: int, *args: Any, **kwargs: Any) -> Any:
        read.append(start)
        return real(lines, start, *args, **kwargs)

    monkeypatch.setattr(pieces, "read_piece", counting)
    return read
