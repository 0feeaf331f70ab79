"""An interrupted build never hangs stopping its forked workers."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# parallel.run interrupted while its worker renders a group whose result is more than a pipe
# holds. Pool.terminate() tells the pool's result thread to stop reading, then writes to the pipe
# the workers write their results to: a worker that began to send its result in between blocks
# on the full pipe with the pipe's lock held, and this process waits for that lock for ever (one
# build in about 850 killed by SIGTERM hung so). On a loaded machine that takes this process
# being descheduled for a moment; here the
# moment is made to come, by holding back the threads at it (each wait bounded: a run that never
# gets there is not held for long).
_SLOW_STOP = textwrap.dedent("""
    import multiprocessing, multiprocessing.queues, threading, time
    from qti_builder import parallel

    context = multiprocessing.get_context("fork")
    started, send = context.Event(), context.Event()
    result_thread_told = threading.Event()
    real_put, notes = multiprocessing.queues.SimpleQueue.put, []

    def put(queue, obj):
        if obj is None and threading.current_thread() is threading.main_thread():
            notes.append(obj)
            if len(notes) == 2:  # terminate() has told the result thread to stop reading
                result_thread_told.set()
                time.sleep(0.5)  # the result thread ends
                send.set()  # the worker sends its result, which nobody reads any more
                time.sleep(0.5)
        elif obj is None and threading.current_thread().name.endswith("(_handle_tasks)"):
            result_thread_told.wait(timeout=2)  # its last note to the result thread comes after
        real_put(queue, obj)

    multiprocessing.queues.SimpleQueue.put = put

    def work(task):
        if task == 0:  # this process's own task: Ctrl-C once the worker is busy
            assert started.wait(timeout=60)
            raise KeyboardInterrupt
        started.set()
        send.wait(timeout=2)  # a chunk of a quiz, rendered
        return bytes(256 * 1024)  # its documents

    try:
        for _ in parallel.run(list(range(20)), work, jobs=2, here=lambda task: task == 0):
            pass
    except KeyboardInterrupt:
        print("interrupted; workers left:", len(multiprocessing.active_children()))
""")


def test_an_interrupt_while_a_worker_sends_a_big_result_does_not_hang() -> None:
    try:
        done = subprocess.run([sys.executable, "-c", _SLOW_STOP], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the interrupted run hung stopping its workers")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "interrupted; workers left: 0\n"

