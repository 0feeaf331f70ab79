"""What a long-running process (``build --watch``) keeps of the build cache in memory between its
builds, so that a rebuild after one edit takes the chunks, pieces and runs that did not change
from memory rather than reading and unpickling them from the cache folder again, and does not
wait for the quiz's own entry to be pickled and written.

A one-off command keeps nothing (:func:`keeping` is False): it starts with an empty memory and
ends with the build. While :func:`kept` is open, :mod:`.cache` answers from here what it kept or
read in this process, and still writes every entry to the cache folder (the next command run by
hand finds them there); what a build did not touch is dropped when the next one ends
(:func:`sweep`), so the memory holds one build's entries, not every version of the bank.

What is kept is shared between builds, never copied: only entries that no build changes after
taking them (the cache module decides which: a chunk's rendered documents, frozen; the deflated
runs, frozen) are kept as objects; the others as their pickled bytes, made into new objects at
each take. The pieces' readings are of the latter kind: the reader gives their model data to
the quiz's, which it may change (the ids it makes distinct).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterator

from .parallel import forks

#: Each entry kept, by its key in the cache; None outside :func:`kept` (nothing is kept).
_kept: dict[str, object] | None = None
#: The keys taken or kept since the last :func:`sweep`.
_touched: set[str] = set()
#: Processes forked by :func:`in_background`, not yet waited for, with the keys each writes.
_children: dict[int, frozenset[str]] = {}
#: Work put off to the next process :func:`in_background` forks (:func:`later`).
_later: list[Callable[[], None]] = []
#: The process that opened :func:`kept` (a worker it forks inherits the memory, not this role).
_owner: int | None = None
#: The work each process :func:`in_background` forked took over, let go of once it is waited for:
#: let go of at once, the references dropped would write to pages the two processes still share,
#: and this process would copy each (0.01-0.03 s of a 10,000-question bank's build).
_taken_over: dict[int, list[Callable[[], None]]] = {}


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """Keep the build cache's entries in memory until the block ends; at its end, wait for the
    entries still being written in the background (:func:`in_background`), so that whatever
    follows (the next command, a test) finds them in the cache folder."""
    global _kept, _owner
    _kept, _owner = {}, os.getpid()
    try:
        yield
    finally:
        _kept = None
        _touched.clear()
        _now(_later)
        wait()


def keeping() -> bool:
    return _kept is not None


def recall(key: str) -> object | None:
    """The entry kept under ``key``, or None."""
    if _kept is None:
        return None
    found = _kept.get(key)
    if found is not None:
        _touched.add(key)
    return found


def remember(key: str, entry: object) -> None:
    if _kept is not None:
        _kept[key] = entry
        _touched.add(key)


def sweep() -> None:
    """Drop what the build that just ended did not take or keep: the memory holds the entries of
    the last build (the chunks of the questions before an edit go with the build after it)."""
    if _kept is None:
        return
    for key in set(_kept) - _touched:
        del _kept[key]
    _touched.clear()


def in_background(work: Callable[[], None], writes: Collection[str] = ()) -> None:
    """``work`` in a process forked now (a snapshot of this one: what it reads cannot change under
    it), this process going on at once; in this process, when keeping nothing or unable to fork.
    For writing what the build cache keeps of a quiz (tens of MB pickled: 0.2 s of a rebuild of
    a 10,000-question bank), which nothing in the build waits for. ``writes``: the keys of the
    entries it writes, which a build that looks one up waits for (:func:`written`)."""
    global _later
    _reap(block=False)
    if _kept is None or not forks():
        _now(_later)
        work()
        return
    pid = os.fork()
    if pid == 0:  # the child: the work, then out at once (no exit handlers, no buffers of the parent flushed)
        code = 0
        try:
            _now(_later)
            work()
        except BaseException:  # an entry not written is only a miss for the next build
            code = 1
        finally:
            os._exit(code)
    _children[pid] = frozenset(writes)
    _taken_over[pid], _later = _later, []  # the child does them


def later(work: Callable[[], None]) -> None:
    """``work`` done in the next process :func:`in_background` forks, before its own work (a build
    forks one for the quiz's entry once its outputs are written), or at the end of :func:`kept`;
    now, when keeping nothing, unable to fork, or in a worker forked by the keeping process
    (which never forks for an entry). For writing to the cache folder an entry that this
    process keeps in memory already (:func:`remember`), which no build of this process reads
    from the folder: a rebuild's chunks, runs, checks and pieces (0.02-0.05 s of a
    10,000-question bank's rebuild, bench/README.md)."""
    if _kept is None or not forks() or os.getpid() != _owner:
        work()
    else:
        _later.append(work)


def _now(works: list[Callable[[], None]]) -> None:
    """Each of ``works`` (taken out of the list), in this process; one that fails only leaves its
    entry unwritten (a miss for a later build)."""
    taken = works[:]
    works.clear()
    for work in taken:
        with contextlib.suppress(Exception):
            work()


def written(key: str) -> None:
    """Wait for the process writing the entry of ``key``, if one is (a save that changed nothing,
    just after a build: its entry is taken rather than the quiz built again)."""
    for pid in [pid for pid, keys in _children.items() if key in keys]:
        _reap(block=True, only=pid)


def wait() -> None:
    """Wait for every process :func:`in_background` forked."""
    _reap(block=True)


def _reap(block: bool, only: int | None = None) -> None:
    for pid in [only] if only is not None else list(_children):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            del _children[pid]
            _taken_over.pop(pid, None)


__all__ = ["in_background", "keeping", "kept", "later", "recall", "remember", "sweep", "wait", "written"]
