"""Running the build's tasks on every core.

Workers are forked (never spawned) after the parent has read the sources and compiled the schemas,
so each inherits the compiled schemas and the quiz models without pickling either (lxml's
compiled schemas cannot be pickled at all). Tasks go out as small records and
come back as compressed entries or validated documents; results arrive in completion order, and
whoever assembles them must not depend on that order (the pipeline sorts everything it writes).
The parent runs the tasks it keeps, then takes whatever is left, like a worker.
"""

from __future__ import annotations

import gc
import itertools
import os
import signal
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .interrupts import stop_signals_held

T = TypeVar("T")
R = TypeVar("R")


def cpu_count() -> int:
    """The CPUs this process may run on (a container's limit, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def forks() -> bool:
    """Whether workers can be forked here (:func:`run` runs everything in this process otherwise):
    where the system has ``fork``, as multiprocessing's "fork" start method needs. Asked of
    ``os``, not of multiprocessing, which a check of a small quiz, asking this, then never imports."""
    return hasattr(os, "fork")


def run(tasks: Sequence[T], work: Callable[[T], R], jobs: int, here: Callable[[T], bool] = lambda task: False,
        together: Callable[[T], Hashable] = id, meanwhile: Callable[[], None] | None = None) -> Iterator[R]:
    """``work(task)`` for every task on ``jobs`` processes (1: this one alone), as they finish.
    The tasks for which ``here(task)`` holds run in this process, which then counts as one of the
    ``jobs`` and, once they are done, takes its share of the others; the others run in processes
    forked now, so ``work`` and the state it reads must exist before the call. Every process
    claims the next tasks from one shared counter, so none sits idle while tasks are left (this
    one yields the workers' results that are in between its own tasks, as well as at the end): those
    next to each other with the same ``together(task)`` are claimed as one, by one process (the
    three targets of a chunk of questions, which share what is cached of its texts).
    ``meanwhile`` runs in this process once the workers have started, before it takes any task
    (this process's own work, as its tasks are); not when everything runs here."""
    global _shared
    # What exists now (the quizzes read, the compiled schemas) lives until the end: frozen, the
    # collector stops scanning it at every full collection (in this process and in the workers,
    # whose inherited pages then also stay shared).
    gc.freeze()
    try:
        local = [t for t in tasks if here(t)] if jobs > 1 else list(tasks)
        remote = [t for t in tasks if jobs > 1 and not here(t)]
        workers = min(jobs - (1 if local or meanwhile is not None else 0), len(remote))
        if workers < 1 or not forks():
            yield from map(_kept(work), tasks)
            return
        import multiprocessing

        context = multiprocessing.get_context("fork")
        groups = [list(group) for _, group in itertools.groupby(remote, key=together)]
        _shared = _Shared(groups, lambda group: [work(task) for task in group], context.Value("i", 0))
        pool = results = None
        try:
            # Forked with Ctrl-C and SIGTERM held (interrupts.py); each worker releases them once
            # its own handlers are set, this process when the pool exists to be stopped.
            with stop_signals_held() as mask:
                pool = context.Pool(workers, initializer=_worker_signals, initargs=(mask,))  # the workers start now
            # One call per task; a call that finds every task claimed returns None at once.
            results = pool.imap_unordered(_claim_and_work, range(len(groups)))
            # Every call is submitted: closed now, the workers end as soon as the last one's result
            # is in, while this process still works with the results (a rebuild after one edit:
            # puts the outputs together), rather than only once it has taken the last and closes
            # the pool; the join below then waited for their exit (4-30 ms), bench/README.md.
            pool.close()
            if meanwhile is not None:
                meanwhile()
            yield from map(_kept(work), local)
            yield from _ready(results)
            while (group := _shared.claim()) is not None:
                yield from map(_kept(work), group)
                yield from _ready(results)
            yield from (_kept_result(result) for done in results if done is not None for result in done)
        except BaseException:  # an interrupt, an error, or the caller closing this generator early
            if pool is not None:
                _stop(pool, results)
            raise
        finally:
            if pool is not None:
                pool.join()
            _shared = None
    finally:
        gc.unfreeze()


def _stop(pool: Any, results: Any) -> None:
    """Stop the workers without ``Pool.terminate()``, which can hang for ever: it tells the pool's
    result thread to stop reading, then waits for the pipe the workers write their results to, and
    a worker caught writing a result bigger than the pipe holds blocks with its lock held, before
    terminate() kills it (CPython issues 73945, 96995; one build in about 850 killed by SIGTERM
    hung so; one hung while writing would keep its temporary files). Here no task is claimed any more,
    and what the workers are busy with is read and dropped: each finishes its group (a chunk of a
    quiz, a fraction of a second) and ends. A second interrupt meanwhile terminates them."""
    assert _shared is not None
    with _shared.next.get_lock():
        _shared.next.value = len(_shared.tasks)  # every call still queued returns None at once
    pool.close()
    try:
        while results is not None:
            try:
                results.next()
            except StopIteration:
                break
            except Exception:  # a task's own error: the work is being dropped anyway
                continue
    except BaseException:
        pool.terminate()
        raise


def _ready(results: Any) -> Iterator[Any]:
    """The workers' results already in, without waiting for more: yielded between this process's
    own tasks, so that what waits on them (an output whose last task a worker did, put together
    by the pipeline) is done while the workers still work, not after the last task."""
    import multiprocessing

    while True:
        try:
            done = results.next(timeout=0)
        except (multiprocessing.TimeoutError, StopIteration):
            return
        if done is not None:
            yield from (_kept_result(result) for result in done)


def _kept(work: Callable[[T], R]) -> Callable[[T], R]:
    """``work``, after which what it returns is frozen too (:func:`_kept_result`)."""

    def run_and_keep(task: T) -> R:
        return _kept_result(work(task))

    return run_and_keep


def _kept_result(result: R) -> R:
    """A task's result is held until the build ends (a big quiz's documents, hundreds of
    thousands of objects): frozen, the collector does not scan it again at each full collection,
    which otherwise grows with the results held and made a 25,000-question build an eighth
    slower (bench/README.md). The young generations are collected first, so that the task's
    garbage cycles are freed rather than frozen."""
    gc.collect(1)
    gc.freeze()
    return result


@dataclass
class _Shared:
    """The tasks of one :func:`run` that any process may take, and the index of the next one."""

    tasks: Sequence[Any]
    work: Callable[[Any], Any]
    next: Any  # multiprocessing.Value("i"), shared by the forked workers

    def claim(self) -> Any | None:
        with self.next.get_lock():
            index = self.next.value
            if index >= len(self.tasks):
                return None
            self.next.value = index + 1
        return self.tasks[index]


_shared: _Shared | None = None


def _claim_and_work(_: int) -> Any | None:
    assert _shared is not None
    task = _shared.claim()
    return None if task is None else _shared.work(task)


def _worker_signals(mask: set[int | signal.Signals]) -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it and stops the workers,
    # which end quietly on its SIGTERM (no traceback from each of them).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
