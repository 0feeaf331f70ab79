"""Writing the outputs: each file to a temporary name beside its target as soon as it is complete,
all of them renamed into place together at the end, so an interrupted build never leaves a
half-written package behind. Its own module, apart from making the packages (:mod:`.package`),
so that a build whose every quiz comes from the build cache writes its files without importing
the writers, Jinja or the model (``cached_build``)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .interrupts import stop_signals_held


class WriteError(Exception):
    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(f"{path}: {error.strerror or error}")
        self.path = path
        self.error = error


@dataclass(frozen=True)
class Staged:
    target: Path
    sha256: str
    size: int


class Staging:
    """Files written to temporary names beside their targets as they are ready, then renamed into
    place together (:meth:`commit`) with SIGINT/SIGTERM held back, under a lock on each folder that
    keeps two builds from interleaving. A full disk or an interruption leaves the previous outputs
    untouched, and temporary files never stay behind (:meth:`discard`, or leaving the ``with``).
    Raises :class:`WriteError`."""

    def __init__(self) -> None:
        self.pending: dict[Path, tuple[str, Staged]] = {}
        #: The files :meth:`write_soon` is writing, on their threads.
        self.writing: dict[Path, _Writing] = {}
        #: The thread that unlinks the files a commit replaced (:meth:`commit`), waited for by :meth:`discard`.
        self.dropping: threading.Thread | None = None

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def write(self, target: Path, parts: Iterable[bytes]) -> Staged:
        """Write ``target``'s content to a temporary file now; it is renamed at :meth:`commit`."""
        tmp, fd = self._open(target)
        try:
            staged = _written(target, tmp, fd, parts)
        except OSError as exc:
            raise WriteError(target, exc) from exc
        self.pending[target] = (tmp, staged)
        return staged

    def write_soon(self, target: Path, data: Sequence[bytes]) -> str:
        """Start writing ``target``'s content (bytes made already) to a temporary file on a thread
        of its own, this thread going on at once: the write, its sha256 and the fsync release the
        interpreter, so a build puts its next output together (or renders the next frame) while
        the last one is written (a 10,000-question bank's 29 MB after one edit: 0.06-0.1 s of a
        watch's rebuild, bench/README.md). :meth:`written` waits for it and raises what it met;
        :meth:`forget`, :meth:`commit` and :meth:`discard` wait for it first. Returns its
        temporary file's name, for :meth:`forget`'s ``only``."""
        tmp, fd = self._open(target)
        writing = _Writing(target, tmp, fd, data)
        # Started before it is noted: an interrupt inside ``start()`` (which waits for the thread)
        # leaves a thread that may never have run, which :meth:`forget` could not join ("cannot
        # join thread before it is started": an internal error, the other temporary files left).
        # Not noted, a thread that does run writes to a file :meth:`discard` has removed.
        writing.thread.start()
        self.writing[target] = writing
        return tmp

    def joined(self, target: Path) -> bytes | None:
        """The bytes :meth:`write_soon` is writing to ``target``, joined on its thread: waits for
        the join, not for the write and its sync. None when no thread writes ``target`` or its
        join failed (the caller joins them itself)."""
        writing = self.writing.get(target)
        if writing is None:
            return None
        writing.whole.wait()
        return writing.data

    def written(self, target: Path) -> Staged:
        """What :meth:`write_soon` wrote to ``target``'s temporary file, once written; a
        target written by :meth:`write` at once, as it was staged. Raises :class:`WriteError`."""
        writing = self.writing.pop(target, None)
        if writing is not None:
            writing.thread.join()
            if writing.error is not None:
                raise WriteError(target, writing.error)
            assert writing.staged is not None
            self.pending[target] = (writing.tmp, writing.staged)
        return self.pending[target][1]

    def _open(self, target: Path) -> tuple[str, int]:
        _make_folder(target.parent)
        self.forget(target)
        # An interrupt is raised at the first Python code it meets: one that arrived while the OS
        # created the file was raised inside ``mkstemp``, the file made but its name never noted
        # for :meth:`discard`, and left behind (a killed build's, in CI; tests/test_interrupted_staging.py).
        with stop_signals_held():
            try:
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            except OSError as exc:
                raise WriteError(target, exc) from exc
            self.pending[target] = (tmp, Staged(target, "", 0))
        return tmp, fd

    def forget(self, target: Path, only: str | None = None) -> None:
        """Drop what was staged for ``target`` (its quiz turned out broken); with ``only``, only if
        it is still that temporary file (not another quiz's, staged since for the same name)."""
        if only is not None and self.pending.get(target, (None, None))[0] != only:
            return
        writing = self.writing.pop(target, None)
        if writing is not None:
            writing.thread.join()
        tmp, _ = self.pending.pop(target, (None, None))
        if tmp:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    def commit(self) -> list[Staged]:
        for target in list(self.writing):
            self.written(target)
        folders = sorted({target.parent for target in self.pending})
        locks = []
        aside: list[str] = []
        try:
            for folder in folders:
                locks.append(_FolderLock(folder))
            with stop_signals_held():
                done = []
                for target, (tmp, staged) in list(self.pending.items()):
                    old = _aside(target)
                    if old is not None:
                        aside.append(old)
                    try:
                        os.replace(tmp, target)
                    except OSError as exc:  # a folder where the file should go, say
                        raise WriteError(target, exc) from exc
                    del self.pending[target]
                    done.append(staged)
                return done
        finally:
            for lock in locks:
                lock.close()
            if aside:
                self._drop(aside)

    def _drop(self, names: list[str]) -> None:
        """Unlink ``names`` (the files a commit replaced, each by its second name) on a thread:
        freeing a file's blocks is the file system's work, a few milliseconds for each ten
        megabytes here (ext4), which a rename over the file did before the next could start (a
        10,000-question bank's four files: 7-12 ms of each rebuild's commit, bench/README.md).
        :meth:`discard` waits for it."""
        self._wait_dropped()
        self.dropping = threading.Thread(target=_unlink_all, args=(names,), name="drop replaced outputs", daemon=True)
        self.dropping.start()

    def _wait_dropped(self) -> None:
        if self.dropping is not None:
            self.dropping.join()
            self.dropping = None

    def discard(self) -> None:
        for target in list(self.pending):
            self.forget(target)
        self._wait_dropped()


def _aside(target: Path) -> str | None:
    """A second name beside ``target`` for the file it holds (a hard link: the file is not
    copied), so that renaming another file over ``target`` does not free this one's blocks; None
    when there is no file there, or the file system makes no such link (the rename then frees them
    itself, as ever)."""
    name = str(target.parent / f".{target.name}.{os.urandom(6).hex()}.old")
    try:
        os.link(target, name, follow_symlinks=False)
    except OSError:
        return None
    return name


def _unlink_all(names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(name)


def _written(target: Path, tmp: str, fd: int, parts: Iterable[bytes]) -> Staged:
    """Write ``parts`` to the temporary file ``tmp`` (open as ``fd``), synced, as a build leaves it."""
    digest, size = hashlib.sha256(), 0
    with os.fdopen(fd, "wb") as handle:
        for part in parts:
            handle.write(part)
            digest.update(part)
            size += len(part)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, 0o644)
    return Staged(target, digest.hexdigest(), size)


class _Writing:
    """A file :meth:`Staging.write_soon` writes on a thread; what it wrote, or the error it met.
    The thread first joins the pieces it is given into the file's bytes (:attr:`data`, for
    :meth:`Staging.joined`): a join of a megabyte or more of bytes lets go of the interpreter, and
    a rebuild by hand of a 10,000-question bank joined its QTI 2.1 package, Moodle XML file and
    Canvas package (28 MB, 7,000 fresh pages) on the build's own thread before (bench/README.md)."""

    def __init__(self, target: Path, tmp: str, fd: int, data: Sequence[bytes]) -> None:
        self.tmp = tmp
        self.staged: Staged | None = None
        self.error: OSError | None = None
        #: The file's bytes, once joined (None before, or if the join failed).
        self.data: bytes | None = None
        #: Set once the bytes are joined, or the join failed.
        self.whole = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(target, fd, data), name=f"write {target.name}", daemon=True)

    def _run(self, target: Path, fd: int, data: Sequence[bytes]) -> None:
        try:
            self.data = data[0] if len(data) == 1 and type(data[0]) is bytes else b"".join(data)
        except MemoryError:  # written piece by piece, as it was given; the caller joins them itself
            pass
        finally:
            self.whole.set()
        try:
            self.staged = _written(target, self.tmp, fd, [self.data] if self.data is not None else data)
        except OSError as exc:
            self.error = exc


def write_files(files: list[tuple[Path, bytes]]) -> None:
    """Write every file, or none (see :class:`Staging`)."""
    with Staging() as staging:
        for target, data in files:
            staging.write(target, [data])
        staging.commit()


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(folder, exc) from exc


class _FolderLock:
    """An exclusive flock on the folder itself, so no lock file is left among the outputs."""

    def __init__(self, folder: Path) -> None:
        try:
            self.fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise WriteError(folder, exc) from exc
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def close(self) -> None:
        os.close(self.fd)  # releases the lock
