"""What a reader may be given to read a large source in pieces (a Markdown source's top-level
sections, :mod:`.markdown.pieces`): somewhere to keep each piece's reading between builds, by a
key of its text and the reader's settings, and a way to read the pieces on other processes.

Both are given by the caller (the pipeline: the build cache and the forked workers), so that
the readers import neither; without them a source is read whole, as it always was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pieces:
    #: The reading kept under a key, or None (missing, damaged: an entry is never trusted).
    load: Callable[[str], object | None] | None = None
    #: Keep a reading under its key.
    store: Callable[[str, object], None] | None = None
    #: ``run(tasks, work)``: ``work`` of every task, on other processes too, in any order.
    run: Callable[[Sequence[Any], Callable[[Any], Any]], Iterable[Any]] | None = None


__all__ = ["Pieces"]
