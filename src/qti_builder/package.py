"""Turning validated documents into files: deterministic zips, written atomically.

The same sources give byte-identical packages: entries sorted, every timestamp fixed (to
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01, the earliest a zip can hold), fixed permissions.
Files are written to a temporary name in the target folder and renamed into place only when all of
them are complete, so an interrupted build never leaves a half-written package behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import signal
import tempfile
import time
import zipfile
from pathlib import Path

from .writers import Output

_EPOCH_1980 = 315532800


def zip_timestamp() -> tuple[int, int, int, int, int, int]:
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", _EPOCH_1980) or _EPOCH_1980), _EPOCH_1980)
    return time.gmtime(epoch)[:6]


def package(output: Output) -> bytes:
    """The bytes of the output file: a zip of the documents, or the single document itself."""
    if not output.archive:
        return output.documents[0].data
    buffer = io.BytesIO()
    stamp = zip_timestamp()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for document in sorted(output.documents, key=lambda d: d.path):
            info = zipfile.ZipInfo(document.path, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, whatever system builds it
            archive.writestr(info, document.data)
    return buffer.getvalue()


class WriteError(Exception):
    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(f"{path}: {error.strerror or error}")
        self.path = path
        self.error = error


def write_files(files: list[tuple[Path, bytes]]) -> None:
    """Write every file, or none: all go to temporary files in their target folder first (so a
    full disk or an interruption leaves the previous outputs untouched), then are renamed into
    place with SIGINT/SIGTERM held back, under a lock that keeps two builds from interleaving.
    Raises :class:`WriteError`; temporary files never stay behind."""
    pending: list[tuple[str, Path]] = []
    folders = sorted({target.parent for target, _ in files})
    locks = []
    try:
        for folder in folders:
            _make_folder(folder)
            locks.append(_lock(folder))
        for target, data in files:
            try:
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
                pending.append((tmp, target))
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(tmp, 0o644)
            except OSError as exc:
                raise WriteError(target, exc) from exc
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            for tmp, target in pending:
                os.replace(tmp, target)
            pending.clear()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    finally:
        for tmp, _ in pending:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        for lock in locks:
            lock.close()


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


def _lock(folder: Path) -> _FolderLock:
    return _FolderLock(folder)
