"""Python's cyclic garbage collector paused where many objects that all live on are made at once
(an unpickled entry, an import, compiled code read back): its collections on the way walk them again
and again for nothing. Its own module, at the bottom of the package, for the entry point and the
runtime code as much as for the build cache."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector paused (and left as it was found after) while many objects
    that live on are made at once: an entry of the build cache unpickled or pickled, an import, the
    runtime code's file read (:mod:`.runtime_code`). Unpickling makes every object the entry holds at once (a 10,000-question
    quiz's model: hundreds of thousands), none of them garbage; pickling keeps what it made of
    each object to the end (its memo); and the collector, which runs again and again while the heap
    grows, walked them all each time: that quiz's entry took 0.36 s of CPU to unpickle against
    0.13 s paused, and 0.30 s to pickle in a build against 0.10 s (bench/README.md). What either
    made is collected as ever once the collector resumes. ``freeze``: what was made meanwhile lives
    to the end of the build (the pipeline's import, a rebuild's chunk entries), and is frozen out
    of the collector's reach (``gc.freeze``) before it resumes, or its first collection would walk
    it all; the pipeline's ``build`` unfreezes everything when it ends."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()


__all__ = ["collector_paused"]
