"""Readers turn one source file into the canonical model. One module per source format.

The readers (and the model they build, with pydantic) are imported when first asked for
(:mod:`.registry`), so that the command line can take the limits (:mod:`.limits`) without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .limits import Limits

if TYPE_CHECKING:
    from .base import SourceMap
    from .registry import READERS, Reader, read_quiz, reader_for

#: The suffixes of quiz sources, those of every reader (``READERS``, in their order;
#: tests/test_startup.py checks they agree): which files of a folder a build takes.
SOURCE_SUFFIXES = (".md", ".markdown", ".yaml", ".yml")

#: What ``-`` among the sources stands for: the standard input, read as Markdown (registry.reader_for).
STDIN = Path("/dev/stdin")

_FROM_REGISTRY = ("READERS", "Reader", "read_quiz", "reader_for")


def __getattr__(name: str) -> Any:
    if name in _FROM_REGISTRY:
        from . import registry

        return getattr(registry, name)
    if name == "SourceMap":
        from .base import SourceMap

        return SourceMap
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["READERS", "SOURCE_SUFFIXES", "STDIN", "Limits", "Reader", "SourceMap", "read_quiz", "reader_for"]
