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
from collections.abc import Iterable
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

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def write(self, target: Path, parts: Iterable[bytes]) -> Staged:
        """Write ``target``'s content to a temporary file now; it is renamed at :meth:`commit`."""
        _make_folder(target.parent)
        digest, size = hashlib.sha256(), 0
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        except OSError as exc:
            raise WriteError(target, exc) from exc
        self.forget(target)
        staged = Staged(target, "", 0)
        self.pending[target] = (tmp, staged)
        try:
            with os.fdopen(fd, "wb") as handle:
                for part in parts:
                    handle.write(part)
                    digest.update(part)
                    size += len(part)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
        except OSError as exc:
            raise WriteError(target, exc) from exc
        staged = Staged(target, digest.hexdigest(), size)
        self.pending[target] = (tmp, staged)
        return staged

    def forget(self, target: Path) -> None:
        """Drop what was staged for ``target`` (its quiz turned out broken)."""
        tmp, _ = self.pending.pop(target, (None, None))
        if tmp:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    def commit(self) -> list[Staged]:
        folders = sorted({target.parent for target in self.pending})
        locks = []
        try:
            for folder in folders:
                locks.append(_FolderLock(folder))
            with stop_signals_held():
                done = []
                for target, (tmp, staged) in list(self.pending.items()):
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

    def discard(self) -> None:
        for target in list(self.pending):
            self.forget(target)


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
