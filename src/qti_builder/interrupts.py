"""Holding back Ctrl-C and SIGTERM where an exception must not cut in.

The command line turns both into KeyboardInterrupt, so that a stopped build unwinds and removes
its temporary files. A few moments must not be cut: creating a temporary file and noting its
name (staging.py), renaming finished outputs into place, C code that calls back into Python
(lxml compiling a schema would report the interrupt as a broken schema), and forking workers (a
child would unwind its copy of the parent's stack). There the signals are held, and arrive as
usual once the block is left.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def stop_signals_held() -> Iterator[set[int | signal.Signals]]:
    """Ctrl-C and SIGTERM wait until the block is left; yields the signal mask from before, for
    processes forked inside the block to restore once they are ready.

    The mask holds a signal back from this thread only: the kernel hands a signal sent to the
    process to any thread that does not block it (a watcher's or a server's), and Python then
    runs its handler here all the same. So in the main thread the handlers only note the signal
    for the block's length, and it is raised again once the block is left."""
    held: list[int] = []
    # What the block changes is read before it changes anything, and changed inside ``try``: a
    # signal noted before the block (by another thread, which does not block it) runs its handler
    # in this thread at the first moment it can, which may be just after the mask is set or a
    # handler swapped. Raised there, it must leave neither the mask nor a handler behind (as it
    # did when the mask was set before ``try``: the main thread then held both signals back for
    # good, which a test of a SIGTERM in a writing thread caught once in CI).
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    handlers = ({number: signal.getsignal(number) for number in STOP_SIGNALS}
                if threading.current_thread() is threading.main_thread() else {})
    try:
        for number in handlers:
            signal.signal(number, lambda received, frame: held.append(received))
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        yield previous
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # first: a signal now is only noted
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for received in dict.fromkeys(held):
            signal.raise_signal(received)
