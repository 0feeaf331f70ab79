"""Where a build's wall time goes: a timeline of the parent and of each worker (issue 34).

    QTI_BUILDER_SCHEMAS=... .venv/bin/python bench/timeline.py BANK.md --no-cache [--format canvas]

Runs ``qti-builder build`` in this process with the pipeline's steps wrapped (imports, the pieces
read, put together, the model validated, the checks, the plan, each task, each output put
together and written, the pools forked), each step's start, end and CPU seconds logged by the
process that ran it (the workers are forked, so they log too). Prints the steps in order per
process, then the build cut at its barriers (the read's fork, the end of the read, the render's
fork, the last task, the end) into its serial phases (this process alone: their CPU seconds are
wall time on an idle machine) and its parallel ones (CPU seconds of every process), and from
them the wall time the build would take on two idle CPUs: serial + parallel / 2, without the
forks, the imbalance at each barrier and the interpreter's exit. The CPU seconds of a loaded
machine run high (shared caches), so compare two versions run in turn, not with the goals.
The steps wrapped are the pipeline's private functions: a step renamed is missing, not wrong.
"""

from __future__ import annotations

import collections
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

T0 = time.perf_counter()
LOG = Path(os.environ.get("TIMELINE_LOG") or tempfile.mkstemp(prefix="timeline-", suffix=".log")[1])
#: Steps summed per process rather than listed one by one.
MANY = ("run_task", "read_piece", "compress_pieces", "staging.write")


def log(name: str, start: float, end: float, cpu: float) -> None:
    with LOG.open("a") as handle:  # one short line: appended whole by each process
        handle.write(f"{os.getpid()}\t{name}\t{start - T0:.3f}\t{end - T0:.3f}\t{cpu:.3f}\t{time.process_time():.3f}\n")


def wrap(owner: Any, attr: str, name: str | None = None) -> None:
    real: Callable[..., Any] = getattr(owner, attr)
    label = name or attr

    def timed(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            log(label, start, time.perf_counter(), time.process_time() - cpu)

    setattr(owner, attr, timed)


def instrument() -> None:
    start = time.perf_counter()
    import multiprocessing.context

    import qti_builder.pipeline as pipeline
    import qti_builder.readers.base as base
    import qti_builder.readers.markdown.pieces as pieces

    log("imports", start, time.perf_counter(), time.process_time())
    for attr in ("_read", "read_quiz", "check_read", "_rendered_quizzes", "plan", "_chunks", "_placements", "run_task",
                 "_put_together", "_finish", "_keep", "validate_package", "compress_pieces"):
        if hasattr(pipeline, attr):
            wrap(pipeline, attr)
    wrap(pipeline._SchemasAhead, "_compile", "schemas")
    wrap(pipeline.Staging, "write", "staging.write")
    wrap(pipeline.Staging, "commit", "staging.commit")
    for attr in ("read_pieces", "read_piece", "put_together"):
        wrap(pieces, attr)
    wrap(base, "validate_quiz")
    wrap(multiprocessing.context.ForkContext, "Pool", "fork")


def report(lines: list[list[str]]) -> None:
    parent = lines[0][0]
    processes = sorted({line[0] for line in lines}, key=lambda pid: min(float(line[2]) for line in lines if line[0] == pid))
    for pid in processes:
        print(f"== {'parent' if pid == parent else 'worker'} {pid}")
        summed: dict[str, list[float]] = collections.OrderedDict()
        for _, name, start, end, cpu, _ in (line for line in lines if line[0] == pid):
            if name in MANY:
                total = summed.setdefault(name, [float(start), 0.0, 0.0, 0.0, 0])
                total[1] = max(total[1], float(end))
                total[2] += float(end) - float(start)
                total[3] += float(cpu)
                total[4] += 1
            else:
                print(f"  {name:22s} {float(start):8.3f} {float(end):8.3f}  wall {float(end) - float(start):6.3f}  cpu {float(cpu):6.3f}")
        for name, (start, end, wall, cpu, count) in summed.items():
            print(f"  {name:22s} {start:8.3f} {end:8.3f}  wall {wall:6.3f}  cpu {cpu:6.3f}  ({count:.0f}x)")
    mine = [line for line in lines if line[0] == parent]

    def cpu_at(name: str, which: int = 0, end: bool = True) -> float:
        line = [x for x in mine if x[1] == name][which]
        return float(line[5]) - (0.0 if end else float(line[4]))

    forks = [x for x in mine if x[1] == "fork"]
    if len(forks) < 2:
        print("(no workers: nothing to cut)")
        return
    read_fork, render_fork = float(forks[0][5]), float(forks[-1][5])
    read_end = cpu_at("read_pieces")
    workers_read = sum(float(x[4]) for x in lines if x[0] != parent and x[1] == "read_piece")
    workers_render = sum(float(x[4]) for x in lines if x[0] != parent and x[1] == "run_task")
    last_task = max(float(x[3]) for x in lines if x[1] == "run_task")
    after = [x for x in mine if float(x[2]) >= last_task]
    tail_start = min(float(x[5]) - float(x[4]) for x in after) if after else cpu_at("_finish")
    end = float(mine[-1][5])
    serial = {"start": read_fork, "between": render_fork - read_end, "tail": end - tail_start}
    parallel = {"read": read_end - read_fork + workers_read, "render": tail_start - render_fork + workers_render}
    print("serial (CPU s): " + ", ".join(f"{k} {v:.2f}" for k, v in serial.items())
          + "; parallel (CPU s): " + ", ".join(f"{k} {v:.2f}" for k, v in parallel.items()))
    print(f"CPU {sum(serial.values()) + sum(parallel.values()):.2f} s; on two idle CPUs about "
          f"{sum(serial.values()) + sum(parallel.values()) / 2:.2f} s (+ forks, imbalance, exit)")


def main() -> None:
    instrument()
    from qti_builder.cli import app

    sys.argv = ["qti-builder", "build", *sys.argv[1:]]
    try:
        app()
    except SystemExit:
        pass
    log("end", time.perf_counter(), time.perf_counter(), 0.0)
    report([line.rstrip("\n").split("\t") for line in LOG.read_text().splitlines(keepends=True)])
    print(f"(the log: {LOG})")


if __name__ == "__main__":
    main()
