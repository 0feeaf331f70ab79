"""Turning validated documents into files: deterministic zips, written atomically.

The same sources give byte-identical packages: entries sorted, every timestamp fixed (to
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01, the earliest a zip can hold), fixed permissions
and compression level. Each entry is compressed on its own (:func:`compress`), in whichever worker
rendered it, and the archive is put together from the compressed entries (:func:`zip_parts`), so a
parallel build writes the same bytes as a serial one and holds only compressed data.

Files are written to a temporary name in the target folder as soon as they are complete
(:class:`Staging`) and renamed into place together at the end, so an interrupted build never leaves
a half-written package behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import hashlib
import io
import os
import struct
import tarfile
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .interrupts import stop_signals_held
from .writers import Document, Output
from .writers.base import Spliced, assemble, build_epoch, single_file

#: zlib level 3: as fast as level 1 and within 5 % of the default level's size (bench/README.md).
COMPRESS_LEVEL = 3
#: The zip format's "version needed to extract" for deflate, and "made by": Unix (permissions).
_VERSION = 20
_MADE_BY = (3 << 8) | _VERSION
_PERMISSIONS = 0o644 << 16  # rw-r--r--
_UTF8_NAMES = 0x800
_ZIP32_LIMIT = 0xFFFFFFFF
_ZIP16_LIMIT = 0xFFFF
#: "Version needed to extract" of the ZIP64 end records.
_ZIP64_VERSION = 45


def zip_timestamp() -> tuple[int, int, int, int, int, int]:
    return time.gmtime(build_epoch())[:6]


@dataclass(frozen=True)
class Entry:
    """One compressed zip member, ready to be laid out."""

    path: str
    data: bytes  # raw deflate
    crc: int
    size: int


def compress(path: str, data: bytes) -> Entry:
    packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    return Entry(path, packer.compress(data) + packer.flush(), zlib.crc32(data), len(data))


def compress_pieces(path: str, pieces: Iterable[bytes]) -> Entry:
    """:func:`compress` of the bytes that ``pieces`` make together, without joining them (a
    Canvas assessment's frame and questions: deflate gives the same bytes, fed whole or in pieces)."""
    packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    out, crc, size = [], 0, 0
    for piece in pieces:
        out.append(packer.compress(piece))
        crc, size = zlib.crc32(piece, crc), size + len(piece)
    out.append(packer.flush())
    return Entry(path, b"".join(out), crc, size)


def zip_parts(entries: Iterable[Entry]) -> Iterator[bytes]:
    """The bytes of a zip of ``entries`` in path order, piece by piece (for streaming to a file).
    The same entries give the same bytes, whatever order they come in."""
    year, month, day, hour, minute, second = zip_timestamp()
    dos_time = hour << 11 | minute << 5 | second // 2
    dos_date = (year - 1980) << 9 | month << 5 | day
    directory: list[bytes] = []
    offset = 0
    for entry in sorted(entries, key=lambda e: e.path):
        name = entry.path.encode("utf-8")
        flags = 0 if name.isascii() else _UTF8_NAMES
        if max(offset, entry.size, len(entry.data)) > _ZIP32_LIMIT:
            raise ValueError("a member of a package, or the members before it, larger than 4 GiB needs ZIP64 "
                             "sizes, which qti-builder does not write")
        fields = (_VERSION, flags, zlib.DEFLATED, dos_time, dos_date, entry.crc, len(entry.data), entry.size, len(name), 0)
        header = struct.pack("<4s5HLLLHH", b"PK\x03\x04", *fields) + name
        directory.append(struct.pack("<4s6HLLLHHHHHLL", b"PK\x01\x02", _MADE_BY, *fields[:-1], 0, 0, 0, 0,
                                     _PERMISSIONS, offset) + name)
        yield header
        yield entry.data
        offset += len(header) + len(entry.data)
    central = b"".join(directory)
    yield central
    count = len(directory)
    if count > _ZIP16_LIMIT or max(offset, len(central)) > _ZIP32_LIMIT:
        # A 100,000-question bank's QTI package has more members than the classic end record
        # counts: the ZIP64 end record and its locator hold the real figures (APPNOTE 4.3.14-15),
        # and the classic record says to look there, as Python's zipfile writes it.
        yield struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, _ZIP64_VERSION, _ZIP64_VERSION, 0, 0, count, count,
                          len(central), offset)
        yield struct.pack("<4sLQL", b"PK\x06\x07", 0, offset + len(central), 1)
    yield struct.pack("<4s4HLLH", b"PK\x05\x06", 0, 0, min(count, _ZIP16_LIMIT), min(count, _ZIP16_LIMIT),
                      min(len(central), _ZIP32_LIMIT), min(offset, _ZIP32_LIMIT), 0)


def tar_parts(documents: Iterable[Document | Spliced]) -> Iterator[bytes]:
    """A gzipped tar of ``documents`` in path order (a Moodle backup), deterministic as the zips:
    ustar headers (Moodle's tar reader knows no other), every time ``SOURCE_DATE_EPOCH``, owner
    root, mode 0644, and a gzip header without a name or time of its own."""
    epoch = build_epoch()
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=epoch, compresslevel=6) as zipped:
        with tarfile.open(fileobj=zipped, mode="w", format=tarfile.USTAR_FORMAT) as tar:
            for document in sorted(documents, key=lambda d: d.path):
                data = b"".join(document.pieces())
                info = tarfile.TarInfo(document.path)
                info.size, info.mtime, info.mode = len(data), epoch, 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                tar.addfile(info, io.BytesIO(data))
    yield buffer.getvalue()


def package(output: Output) -> bytes:
    """The bytes of the output file: a zip (or tarball) of the documents, or the single document itself."""
    if output.container != "zip":
        return b"".join(tar_parts(assemble(output.documents)))
    if not output.archive:
        return b"".join(single_file(output.documents))
    return b"".join(zip_parts(compress_pieces(d.path, d.pieces()) for d in assemble(output.documents)))


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
