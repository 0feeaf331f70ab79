"""Turning validated documents into files: deterministic zips, written atomically.

The same sources give byte-identical packages: entries sorted, every timestamp fixed (to
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01, the earliest a zip can hold), fixed permissions
and compression level. Each entry is compressed on its own (:func:`compress`), in whichever worker
rendered it, and the archive is put together from the compressed entries (:func:`zip_parts`), so a
parallel build writes the same bytes as a serial one and holds only compressed data.

A member put together from a frame and many questions' documents (a Canvas assessment, a Moodle
quiz backup's ``questions.xml``) and the backup's gzipped tar are deflated in runs, as pigz does:
each run of ``RUN_QUESTIONS`` questions (cut where the file has them, not where a task's chunk
ends) deflated on its own and ended with a full flush (byte-aligned, no history carried across),
the runs joined and the stream finished with an empty last block, the CRC-32 combined from the
runs'. A run's bytes depend on its own text alone, so a build can take the runs of questions that
did not change from the build cache (:data:`Deflate`) and deflate only the others: after one edit
in a 10,000-question bank, 2 runs of 40 instead of the whole 25 MB assessment and 50 MB tar.

Files are written to a temporary name in the target folder as soon as they are complete
(:class:`~.staging.Staging`, in a module of its own and named here too) and renamed into place
together at the end, so an interrupted build never leaves a half-written package behind.
"""

from __future__ import annotations

import struct
import tarfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .staging import Staged, Staging, WriteError, write_files
from .writers import Document, Output
from .writers.base import Spliced, assemble, build_epoch, single_file, spliced_runs

#: zlib level 3: as fast as level 1 and within 5 % of the default level's size (bench/README.md).
COMPRESS_LEVEL = 3
#: The Moodle quiz backup's gzip level: its 50 MB tar of a 10,000-question bank is 13 % smaller
#: than at level 3, and a build after one edit deflates only a few of its runs.
TAR_LEVEL = 6
#: Questions per deflate run of a member put together from many questions' documents: large
#: enough that a run loses nothing to starting without history (a tenth of a percent more bytes
#: than one stream, in the 10,000-question bank's Canvas assessment), small enough that an edit
#: deflates little again. The build's chunk (``pipeline.CHUNK``) is the same, so that one
#: edited chunk is about one run; the bytes do not depend on it.
RUN_QUESTIONS = 250
#: An empty last block (fixed Huffman codes): what ends a stream of runs each ended with a full flush.
_LAST_BLOCK = b"\x03\x00"
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


@dataclass(frozen=True)
class Deflated:
    """A run of bytes deflated on its own (raw deflate, no history before it), ended with a full
    flush, so that runs put one after the other make one stream; its CRC-32 and length."""

    data: bytes
    crc: int
    size: int


#: How a build deflates one run of pieces (frame text, and questions' documents as they are) at
#: a zlib level: :func:`deflated`, or the same bytes taken from where an earlier build kept them.
Deflate = Callable[[Sequence["bytes | Document"], int], Deflated]


def deflated(pieces: Sequence[bytes | Document], level: int = COMPRESS_LEVEL) -> Deflated:
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    out, crc, size = [], 0, 0
    for piece in pieces:
        data = piece if isinstance(piece, bytes) else piece.content
        out.append(packer.compress(data))
        crc, size = zlib.crc32(data, crc), size + len(data)
    out.append(packer.flush(zlib.Z_FULL_FLUSH))
    return Deflated(b"".join(out), crc, size)


def finished(runs: Iterable[Deflated]) -> Deflated:
    """The runs one after the other, as one finished deflate stream of their bytes together."""
    data, crc, size = [], 0, 0
    for run in runs:
        data.append(run.data)
        crc, size = crc32_combine(crc, run.crc, run.size), size + run.size
    data.append(_LAST_BLOCK)
    return Deflated(b"".join(data), crc, size)


def spliced_entry(member: Spliced, deflate: Deflate = deflated) -> Entry:
    """A member put together from a frame and its questions' documents, deflated in runs of
    ``RUN_QUESTIONS`` questions (each by ``deflate``): its pieces are never joined."""
    stream = finished(deflate(run, COMPRESS_LEVEL) for run in spliced_runs(member.documents, RUN_QUESTIONS, member.later))
    return Entry(member.path, stream.data, stream.crc, stream.size)


# zlib's crc32_combine (crc32.c), which Python's zlib module does not offer: the CRC of two runs
# together from theirs, in about 30 multiplications modulo the CRC polynomial, whatever their lengths.
_POLY = 0xEDB88320


def _multmodp(a: int, b: int) -> int:
    """a × b modulo the CRC-32 polynomial (bit-reflected)."""
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if not a & (m - 1):
                return p
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1


def _x2n_table() -> list[int]:
    table, p = [], 1 << 30  # x^1
    for _ in range(32):
        table.append(p)
        p = _multmodp(p, p)
    return table


_X2N = _x2n_table()


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """The CRC-32 of A followed by B, from A's (``crc1``), B's (``crc2``) and B's length."""
    p, k = 1 << 31, 3  # x^0; x^(8 × len2) is x^(2^3 × len2)
    while len2:
        if len2 & 1:
            p = _multmodp(_X2N[k & 31], p)
        len2 >>= 1
        k += 1
    return _multmodp(p, crc1) ^ crc2


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


def tar_parts(documents: Iterable[Document | Spliced], deflate: Deflate = deflated) -> Iterator[bytes]:
    """A gzipped tar of ``documents`` in path order (a Moodle backup), deterministic as the zips:
    ustar headers (Moodle's tar reader knows no other), every time ``SOURCE_DATE_EPOCH``, owner
    root, mode 0644, and a gzip header without a name or time of its own. Deflated in runs (each by
    ``deflate``): each member apart, a member put together from questions' documents
    (``questions.xml``) in runs of ``RUN_QUESTIONS`` questions, its header and padding apart."""
    epoch = build_epoch()
    runs: list[Deflated] = []
    offset = 0
    for document in sorted(documents, key=lambda d: d.path):
        body: list[Deflated] = []
        if isinstance(document, Spliced):
            # Its runs first: the header holds its size, which each run knows (one taken from where
            # a build kept it needs none of its questions' documents expanded to be measured).
            body = [deflate(run, TAR_LEVEL) for run in spliced_runs(document.documents, RUN_QUESTIONS, document.later)]
            size = sum(run.size for run in body)
        else:
            content = document.content
            size = len(content)
        info = tarfile.TarInfo(document.path)
        info.size, info.mtime, info.mode = size, epoch, 0o644
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        header = info.tobuf(tarfile.USTAR_FORMAT, "utf-8", "surrogateescape")
        padding = b"\0" * (-size % tarfile.BLOCKSIZE)
        if isinstance(document, Spliced):
            runs += [deflate([header], TAR_LEVEL), *body, deflate([padding], TAR_LEVEL)]
        else:
            runs.append(deflate([header, content, padding], TAR_LEVEL))
        offset += len(header) + size + len(padding)
    # The end of the archive as tarfile writes it: two empty blocks, then zeros to a whole record.
    end = 2 * tarfile.BLOCKSIZE
    runs.append(deflate([b"\0" * (end + -(offset + end) % tarfile.RECORDSIZE)], TAR_LEVEL))
    stream = finished(runs)
    yield b"\x1f\x8b\x08\x00" + struct.pack("<L", epoch) + b"\x00\xff"  # no name; xfl 0 (level 6), OS unknown
    yield stream.data
    yield struct.pack("<LL", stream.crc, stream.size & 0xFFFFFFFF)


def package(output: Output) -> bytes:
    """The bytes of the output file: a zip (or tarball) of the documents, or the single document itself."""
    if output.container != "zip":
        return b"".join(tar_parts(assemble(output.documents)))
    if not output.archive:
        return b"".join(single_file(output.documents))
    return b"".join(zip_parts(spliced_entry(d) if isinstance(d, Spliced) else compress(d.path, d.content)
                              for d in assemble(output.documents)))


__all__ = ["COMPRESS_LEVEL", "Deflate", "Deflated", "Entry", "RUN_QUESTIONS", "Staged", "Staging", "WriteError", "compress",
           "crc32_combine", "deflated", "finished", "package", "spliced_entry", "tar_parts", "write_files", "zip_parts",
           "zip_timestamp"]
