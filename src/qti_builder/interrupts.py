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
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    held: list[int] = []
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        for number in STOP_SIGNALS:
            handlers[number] = signal.signal(number, lambda received, frame: held.append(received))
    try:
        yield previous
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        for received in dict.fromkeys(held):
            signal.raise_signal(received)
