"""Interrupted, failing and concurrent builds never leave half-written or temporary files."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
from helpers import SEED_SOURCE

from qti_builder import cached_build, cli
from qti_builder.package import WriteError, write_files

EXE = str(Path(sys.executable).with_name("qti-builder"))


def big_quiz(path: Path, questions: int, marker: str) -> Path:
    lines = ["---", "id: big", f"title: Big {marker}", "---", ""]
    for n in range(1, questions + 1):
        lines += [f"{n}. Question {n} ({marker}): what is `{n} + 1`?", "", f"A) {n}", f"B) {n + 1}", f"C) {n + 2}", "",
                  "Answer: B", f"Explanation: {n} + 1 = {n + 1}.", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def state(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def assert_complete(folder: Path) -> None:
    for path in folder.iterdir():
        assert not path.name.startswith("."), f"temporary file left behind: {path.name}"
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                assert archive.testzip() is None
        elif path.suffix == ".mbz":  # a gzipped tar: every member read to the end checks its gzip CRC
            import tarfile

            with tarfile.open(path, "r:gz") as archive:
                for member in archive.getmembers():
                    if member.isfile():
                        archive.extractfile(member).read()
        else:
            from lxml import etree

            etree.parse(str(path))


def test_sigterm_at_any_moment_leaves_old_or_new_outputs(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    old_source = big_quiz(tmp_path / "big.md", 20, "old")
    subprocess.run([EXE, "build", str(old_source), "--out", str(out)], check=True, capture_output=True)
    old = state(out)
    new_source = big_quiz(tmp_path / "big.md", 1500, "new")
    # The kills are timed by the build they interrupt (--no-cache), the shorter of two: a reference
    # slowed by a moment of load would time every kill after the renames (seen once in CI).
    durations = []
    for _ in range(2):
        started = time.monotonic()
        subprocess.run([EXE, "build", str(new_source), "--out", str(tmp_path / "reference"), "--no-cache"],
                       check=True, capture_output=True)
        durations.append(time.monotonic() - started)
    duration = min(durations)
    new = state(tmp_path / "reference")
    outcomes = set()
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.85, 0.95):
        # --no-cache: the build killed is a whole one, not the cache's copy of the reference build
        process = subprocess.Popen([EXE, "build", str(new_source), "--out", str(out), "--no-cache"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(duration * fraction)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
        assert b"Traceback" not in err
        assert_complete(out)
        now = state(out)
        assert now in (old, new)
        outcomes.add("new" if now == new else "old")
        if now == new:  # restore the previous build for the next round
            subprocess.run([EXE, "build", str(old_source), "--out", str(out)], check=True, capture_output=True)
    assert "old" in outcomes  # at least one kill landed before the renames


@pytest.mark.parametrize("cached", [True, False])
def test_disk_full_leaves_previous_outputs_and_no_temporary_files(cached: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The second file written meets a full disk: the build says so (QB501) and leaves the outputs
    as they were. Taken from the build cache, the files are written one after the other; built
    (``--no-cache``), each output put together before the quiz's last task is written on a
    thread of its own (``Staging.write_soon``), whose error is the build's all the same."""
    out = tmp_path / "dist"
    assert cli.app(["build", str(SEED_SOURCE), "--out", str(out)], standalone_mode=False) is None
    before = state(out)
    calls = {"n": 0}
    real_fsync = os.fsync

    def full_disk(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr("qti_builder.staging.os.fsync", full_disk)
    with pytest.raises(SystemExit) as exit_:
        cli.app(["build", str(SEED_SOURCE), "--out", str(out), *([] if cached else ["--no-cache", "--jobs", "1"])])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "error[QB501]: cannot write" in err and "No space left on device" in err
    assert state(out) == before
    assert_complete(out)


def test_two_builds_into_one_folder_at_once(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    a = big_quiz(tmp_path / "a.md", 300, "a")
    b = tmp_path / "b.md"
    b.write_text(a.read_text(encoding="utf-8").replace("id: big", "id: other"), encoding="utf-8")
    processes = [subprocess.Popen([EXE, "build", str(src), "--out", str(out)], stderr=subprocess.PIPE) for src in (a, b, a, b)]
    assert [p.wait(timeout=120) for p in processes] == [0, 0, 0, 0]
    assert sorted(p.name for p in out.iterdir()) == [f"{quiz}.{suffix}" for quiz in ("big", "other")
                                                    for suffix in ("canvas.zip", "mbz", "moodle.xml", "qti21.zip")]
    assert_complete(out)


def test_write_files_is_all_or_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where a folder should be")
    with pytest.raises(WriteError) as raised:
        write_files([(tmp_path / "ok" / "a.xml", b"<a/>"), (blocked / "b.xml", b"<b/>")])
    # The error names the folder that cannot be made, as the build reports it (QB501).
    assert raised.value.path == blocked and isinstance(raised.value.error, (FileExistsError, NotADirectoryError))
    assert not (tmp_path / "ok" / "a.xml").exists()
    assert not any(p.name.endswith(".tmp") for p in tmp_path.rglob("*"))


def test_internal_error_shows_a_traceback_and_exits_3(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(options: object, models: bool = True) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cached_build, "build", broken)  # what the command line builds with (the cache, then the pipeline)
    monkeypatch.setattr(sys, "argv", ["qti-builder", "check", str(SEED_SOURCE)])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: boom" in err and "Please report it" in err


def test_an_interrupt_while_schemas_compile_arrives_after_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # lxml calls back into Python while it compiles (to resolve imports): an interrupt raised in
    # there came out as "Failed to parse the XML resource" and an internal error. It is held
    # until the schemas are compiled, and then arrives as the usual KeyboardInterrupt.
    from lxml import etree

    from qti_builder import schemas

    real = etree.XMLSchema
    compiled = []

    def interrupted(*args: object, **kwargs: object) -> etree.XMLSchema:
        if not compiled:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the first schema
        compiled.append(real(*args, **kwargs))
        return compiled[-1]

    monkeypatch.setattr(schemas.etree, "XMLSchema", interrupted)
    schemas.load_schemas.cache_clear()
    try:
        with pytest.raises(KeyboardInterrupt):
            schemas.load_schemas(schemas.resolve_schema_dir(None))
    finally:
        schemas.load_schemas.cache_clear()
    # QTI, manifest, Moodle, IMS CP 1.1, Canvas settings, Canvas's calculated extension and the
    # Moodle quiz backup's all compiled before the interrupt arrived (the Canvas package's two DTDs
    # are no XMLSchema)
    assert len(compiled) == 7


def test_an_interrupt_that_another_thread_receives_is_held_too() -> None:
    # A signal sent to the process goes to any thread that does not block it: with a watcher's
    # or a server's thread running, Ctrl-C during a held block must still wait for its end.
    from qti_builder.interrupts import stop_signals_held

    done = []
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # a thread that blocks no signal
    other.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            with stop_signals_held():
                signal.pthread_kill(other.ident, signal.SIGINT)  # delivered to the other thread
                time.sleep(0.3)  # the other thread takes the signal; Python runs handlers in this one
                done.append("the block ran to its end")
    finally:
        stop.set()
        other.join()
    assert done == ["the block ran to its end"]


def test_a_command_stopped_by_sigterm_says_so_and_exits_130(tmp_path: Path) -> None:
    """SIGTERM (or Ctrl-C) while a command runs: it says it was interrupted and that the output
    folder is as it was, and exits 130. Typer turns the interrupt into exit 130 in silence, so the
    message was never printed. The command is caught waiting for its source on stdin."""
    process = subprocess.Popen([EXE, "build", "-", "--out", str(tmp_path / "dist")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    syscall = Path(f"/proc/{process.pid}/syscall")
    seen = ""
    while time.monotonic() < deadline:  # until it waits in read (syscall 0 on x86-64) on its stdin, the same read twice
        try:
            now = syscall.read_text()
        except OSError:
            now = ""
        if now.startswith("0 ") and now == seen:
            break
        seen = now
        time.sleep(0.2)
    else:
        pytest.skip("could not see the command waiting on its stdin")
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"interrupted; the output folder is as it was" in err and b"Traceback" not in err
    assert not (tmp_path / "dist").exists()
