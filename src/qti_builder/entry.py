"""The ``qti-builder`` script's entry point: the command line (:mod:`.cli`) imported with what its
import compiles from text kept across runs, then :func:`.cli.run`.

``cli.run`` runs the command under :func:`.runtime_code.compiled_once`, but the import of
``cli.py`` itself (typer, click, our command line's modules) comes before it, and compiled its
dataclasses' 40 methods and 28 regular expressions from text at every start, with 23 collections of
the collector on the way (a sixth of the import's 48 ms of CPU, bench/README.md). Here the import
runs under the stand-ins too, with a file of its own (:data:`.runtime_code.START`: a few dozen
texts, so that ``--version`` and ``--help`` do not read the command's thousand), and with the
collector paused; what it made lives as long as the process, and is frozen out of the collector's
reach (``gc.freeze``, as the pipeline's import is) rather than walked by its next collection.

Its own module, ahead of ``cli.py``: an entry point ``cli:run`` imports ``cli`` before it can run
anything."""

from __future__ import annotations

import sys


def run() -> None:
    """The ``qti-builder`` command (``cli.run``), the command line imported as said above (when
    this process has not imported it yet)."""
    if "qti_builder.cli" not in sys.modules:
        from .collector import collector_paused

        with collector_paused(freeze=True):
            from .runtime_code import START, compiled_once

            with compiled_once(START):
                from . import cli  # noqa: F401 -- imported here, under the stand-ins
    from .cli import run as run_command

    run_command()
