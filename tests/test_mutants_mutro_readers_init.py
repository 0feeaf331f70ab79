"""The readers package's names (readers/__init__.py): ``read_quiz``, ``reader_for``, ``READERS``,
``Reader`` and ``SourceMap`` are looked up when first asked for (its module ``__getattr__``), so
every command that imports them, as a user starts it in a fresh process, depends on that lookup.

(Issue 35's sixth mutation run over the readers, sampled: a changed lookup made every command fail
at start-up, which no in-process test sees once the modules are imported; these tests start the
command as a user does, and ask the lookup in-process the way ``diff`` does.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import write
from helpers.cli import run

import qti_builder

SOURCE = """\
---
title: Capitals
---

1. Which city is the capital of France? {#q1}

A) Paris
B) Lyon

Answer: A
"""


def fresh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m qti_builder ARGS`` in a fresh interpreter, importing the package this test
    imported (the environment passed on whole)."""
    package_root = str(Path(qti_builder.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "qti_builder", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_check_in_a_fresh_process_reads_the_source(tmp_path: Path) -> None:
    # The pipeline, the outline and the checks import SourceMap and read_quiz from the package
    # when the command starts: a lookup that fails is a traceback before anything is read.
    write(tmp_path, "capitals.md", SOURCE)
    done = fresh("check", "capitals.md", "-j", "1", "--lang", "en", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert (done.returncode, done.stdout.splitlines()) == (0, [
        "capitals: 1 question: 1 single choice",
        "ok: 1 quiz, 1 question (1 point), 4 outputs valid",
    ])


def test_diff_of_a_source_with_itself_is_no_change(tmp_path: Path) -> None:
    # diff asks the package for reader_for when it runs (is a file a source or an export?).
    write(tmp_path, "capitals.md", SOURCE)
    code, out, err = run("diff", "capitals.md", "capitals.md", cwd=tmp_path)
    assert (code, out.splitlines(), err) == (0, ["capitals: no change", "no change in 1 quiz"], "")


@pytest.mark.parametrize("name", ["READERS", "Reader", "read_quiz", "reader_for"])
def test_each_registry_name_is_the_registry_s_own(name: str) -> None:
    from qti_builder import readers
    from qti_builder.readers import registry

    assert getattr(readers, name) is getattr(registry, name)


def test_source_map_is_the_source_map_class() -> None:
    from qti_builder import readers
    from qti_builder.readers.source_map import SourceMap

    assert readers.SourceMap is SourceMap


def test_a_name_the_package_has_not_is_an_attribute_error() -> None:
    from qti_builder import readers

    with pytest.raises(AttributeError):
        readers.no_such_name  # noqa: B018
    assert not hasattr(readers, "sourcemap")
