"""An output put together ahead (``pipeline._Ahead``) is handed to the thread that writes it
(``Staging.write_soon``) in its pieces, not joined: that thread joins them (a join of a megabyte
or more lets go of the interpreter), writes and hashes the bytes, and the quiz's entry in the
build cache takes the bytes it joined (``Staging.joined``). A rebuild by hand of a
10,000-question bank joined 28 MB on the build's own thread before (bench/README.md). The files
and the entry are the same, byte for byte."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.cli import run
from test_hand_parted import _edited, _parted_as_rendered, _small_chunks  # noqa: F401 - fixtures
from test_watch_parted import _bank
from test_watch_warm import _files

from qti_builder import cache, pipeline, staging
from qti_builder.staging import Staging


def test_a_file_written_soon_is_joined_on_its_thread(tmp_path: Path) -> None:
    pieces = [b"<frame>", b"one " * 1000, b"", b"two " * 300_000, b"</frame>"]
    target, other = tmp_path / "out.xml", tmp_path / "other.xml"
    with Staging() as stage:
        stage.write_soon(target, pieces)
        data = stage.joined(target)
        assert data == b"".join(pieces) and type(data) is bytes
        assert stage.joined(other) is None, "nothing written there"
        staged = stage.written(target)
        assert staged.sha256 == hashlib.sha256(data).hexdigest() and staged.size == len(data)
        assert stage.joined(target) is None, "taken by written(): the thread is done with it"
        stage.commit()
    assert target.read_bytes() == data


def test_one_piece_of_bytes_is_taken_as_it_is(tmp_path: Path) -> None:
    data = b"PK\x03\x04" + b"z" * 100_000
    with Staging() as stage:
        stage.write_soon(tmp_path / "a.zip", [data])
        assert stage.joined(tmp_path / "a.zip") is data
        stage.commit()
    assert (tmp_path / "a.zip").read_bytes() == data


class _FailsOnce(list[bytes]):
    """Pieces whose first walk (the thread's join) runs out of memory."""

    walks = 0

    def __iter__(self) -> Iterator[bytes]:
        self.walks += 1
        if self.walks == 1:
            raise MemoryError
        return super().__iter__()


def test_a_join_that_fails_writes_the_pieces_and_leaves_the_join_to_the_caller(tmp_path: Path) -> None:
    pieces = _FailsOnce([b"a" * 10, b"b" * 20])
    with Staging() as stage:
        stage.write_soon(tmp_path / "x.xml", pieces)
        assert stage.joined(tmp_path / "x.xml") is None
        assert stage.written(tmp_path / "x.xml").size == 30
        stage.commit()
    assert (tmp_path / "x.xml").read_bytes() == b"a" * 10 + b"b" * 20


def test_a_rebuild_by_hand_joins_what_it_writes_ahead_on_the_writing_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                          build_cache: Path) -> None:
    """Question 60 edited after a cold build: the outputs written ahead reach their threads in
    pieces (the zips' blocks, the Moodle file's texts and questions), and the quiz's entry keeps
    the very bytes those threads joined, which are the files; every file is a ``--no-cache``
    build's."""
    given: dict[str, int] = {}
    joined: dict[str, bytes] = {}
    kept: dict[str, bytes] = {}
    real_run, real_finish = staging._Writing._run, pipeline._finish

    def writing(self: staging._Writing, target: Path, fd: int, data: list[bytes]) -> None:
        given[target.name] = len(data)
        real_run(self, target, fd, data)
        assert self.data is not None
        joined[target.name] = self.data

    def finish(*args: object) -> None:
        real_finish(*args)  # type: ignore[arg-type]
        contents = args[4]
        assert isinstance(contents, dict)
        kept.update(contents)

    source, out, fresh = tmp_path / "bank.md", tmp_path / "dist", tmp_path / "fresh"
    source.write_text(_bank(), "utf-8")
    assert run("build", str(source), "--out", str(out), "--jobs", "1")[0] == 0
    source.write_text(_edited(q60="Question 60: edited?"), "utf-8")
    with monkeypatch.context() as patched:
        patched.setattr(staging._Writing, "_run", writing)
        patched.setattr(pipeline, "_finish", finish)
        assert run("build", str(source), "--out", str(out), "--jobs", "1")[0] == 0
    files = _files(out)
    assert run("build", str(source), "--no-cache", "--out", str(fresh), "--jobs", "1")[0] == 0
    assert files == _files(fresh)
    # three of the four outputs are put together ahead, the last in _finish (made whole there)
    ahead = {name for name, count in given.items() if count > 1}
    assert len(ahead) >= 2 and any(name.endswith(".moodle.xml") for name in ahead), given
    by_format = {name: next(f for f in files if f.endswith(suffix)) for name, suffix in
                 (("qti21", ".qti21.zip"), ("moodle", ".moodle.xml"), ("canvas", ".canvas.zip"), ("moodle-quiz", ".mbz"))}
    assert sorted(kept) == sorted(by_format)
    for name, filename in by_format.items():
        assert kept[name] == files[filename]
        if filename in ahead:
            assert kept[name] is joined[filename], f"{name}: joined again for the entry"
    read = [cache._read(p.parent.name + p.name) for p in build_cache.rglob("*") if p.is_file()]
    stored = [entry for entry in read if isinstance(entry, cache._StoredQuiz)]
    # the cold build's and the rebuild's: the rebuild's holds its files
    assert sorted(files.values()) in [sorted(entry.unpacked().contents.values()) for entry in stored]


class _Refused(list[bytes]):
    """Pieces whose first walk (the thread's join) fails otherwise than for memory."""

    walks = 0

    def __iter__(self) -> Iterator[bytes]:
        self.walks += 1
        if self.walks == 1:
            raise RuntimeError("not bytes")
        return super().__iter__()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_join_that_fails_for_any_reason_never_leaves_joined_waiting(tmp_path: Path) -> None:
    """Whatever the thread's join meets, its end is signalled (``_Writing.whole``, set in a
    ``finally``), so ``Staging.joined`` answers None instead of waiting for ever (mutant: set only
    after a join that succeeded or ran out of memory). The thread is waited for first, so that the
    mutant fails here rather than hangs."""
    target = tmp_path / "x.xml"
    with Staging() as stage:
        stage.write_soon(target, _Refused([b"a", b"b"]))
        writing = stage.writing[target]
        writing.thread.join()
        assert writing.whole.is_set()
        assert stage.joined(target) is None
        stage.forget(target)
    assert not target.exists()
