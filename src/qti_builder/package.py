"""Turning validated documents into files: deterministic zips, written atomically.

The same sources give byte-identical packages: entries sorted, every timestamp fixed (to
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01, the earliest a zip can hold), fixed permissions
and compression level. Each entry is compressed on its own (:func:`compress`), in whichever worker
rendered it, and the archive is put together from the compressed entries (:func:`zip_parts`), so a
parallel build writes the same bytes as a serial one and holds only compressed data. A chunk's
entries are laid out there too, as one block (:class:`LaidOut`), which the zip takes whole.

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
from typing import Any, cast, overload

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
    flush, so that runs put one after the other make one stream; its CRC-32 and length, and what
    the CRC of the bytes before it is multiplied by for the CRC of both (:func:`finished`)."""

    data: bytes
    crc: int
    size: int
    #: x^(8 × size) modulo the CRC polynomial (:func:`crc32_shift`), worked out once with the run:
    #: a run taken from the build cache is combined in one multiplication, not one per bit of its
    #: length (139 runs in a rebuild by hand of a 10,000-question bank's packages, bench/README.md).
    shift: int


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
    return Deflated(b"".join(out), crc, size, crc32_shift(size))


def finished(runs: Iterable[Deflated]) -> Deflated:
    """The runs one after the other, as one finished deflate stream of their bytes together."""
    data, crc, size = [], 0, 0
    for run in runs:
        data.append(run.data)
        crc, size = _multmodp(run.shift, crc) ^ run.crc, size + run.size  # crc32_combine(crc, run.crc, run.size)
    data.append(_LAST_BLOCK)
    return Deflated(b"".join(data), crc, size, crc32_shift(size))


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


def crc32_shift(length: int) -> int:
    """x^(8 × ``length``) modulo the CRC polynomial: the CRC of A followed by ``length`` bytes B is
    A's multiplied by it, plus B's (zlib's ``crc32_combine_gen``)."""
    p, k = 1 << 31, 3  # x^0; x^(8 × length) is x^(2^3 × length)
    while length:
        if length & 1:
            p = _multmodp(_X2N[k & 31], p)
        length >>= 1
        k += 1
    return p


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """The CRC-32 of A followed by B, from A's (``crc1``), B's (``crc2``) and B's length."""
    return _multmodp(crc32_shift(len2), crc1) ^ crc2


def _dos_stamp() -> tuple[int, int]:
    """Every member's time and date as a zip states them (:func:`zip_timestamp`)."""
    year, month, day, hour, minute, second = zip_timestamp()
    return hour << 11 | minute << 5 | second // 2, (year - 1980) << 9 | month << 5 | day


def _records(entry: Entry, offset: int, stamp: tuple[int, int]) -> tuple[bytes, bytes]:
    """``entry``'s local header (its data follows it) and its central directory record, its
    header at ``offset``."""
    name = entry.path.encode("utf-8")
    flags = 0 if name.isascii() else _UTF8_NAMES
    if max(offset, entry.size, len(entry.data)) > _ZIP32_LIMIT:
        raise ValueError(_TOO_LARGE)
    fields = (_VERSION, flags, zlib.DEFLATED, *stamp, entry.crc, len(entry.data), entry.size, len(name), 0)
    header = struct.pack("<4s5HLLLHH", b"PK\x03\x04", *fields) + name
    return header, struct.pack("<4s6HLLLHHHHHLL", b"PK\x01\x02", _MADE_BY, *fields[:-1], 0, 0, 0, 0,
                               _PERMISSIONS, offset) + name


_TOO_LARGE = "a member of a package, or the members before it, larger than 4 GiB needs ZIP64 sizes, which qti-builder does not write"
#: Where a central directory record holds its member's offset (4 bytes, little-endian).
_OFFSET_AT = 42


class LaidOut(Sequence[Entry]):
    """Zip members (one chunk's QTI 2.1 items) laid out once, where they are compressed: each
    member's local header and data, in path order, as one block (``local``), and their central
    directory records as another (``central``), the block's first header at offset 0. A package
    whose members these fall together among in path order (:func:`zip_parts`) takes the block as
    it is and the records with each offset moved by where the block starts, in one addition; a
    rebuild of a 10,000-question bank laid out its 10,000 items' headers one by one, and made
    their 10,000 entries as it took them from the build cache (bench/README.md). Read as a
    sequence, the entries as they were given (made from the block when read)."""

    __slots__ = ("_columns", "_offsets", "central", "local", "stamp")

    def __init__(self, stamp: tuple[int, int], local: bytes, central: bytes, offsets: bytes,
                 columns: tuple[list[Any], ...]) -> None:
        # From an entry in the build cache: anything not as made by :meth:`of` fails here, so
        # pickle.loads fails and the entry is a miss (the chunk rendered again).
        if len(columns) != 6 or len({len(column) for column in columns}) != 1 or len(offsets) != len(central):
            raise ValueError("laid out members' columns of different lengths")
        self.stamp, self.local, self.central, self._columns = stamp, local, central, columns
        #: A 1 at the first byte of each record's offset field, 0 elsewhere (:meth:`central_from`).
        self._offsets = offsets

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> LaidOut:
        stamp = _dos_stamp()
        order = sorted(range(len(entries)), key=lambda k: entries[k].path)  # stable: as zip_parts sorts them
        local: list[bytes] = []
        central: list[bytes] = []
        offsets = bytearray()
        starts, at, offset = [0] * len(entries), [0] * len(entries), 0
        for k in order:
            header, record = _records(entries[k], offset, stamp)
            starts[k], at[k] = offset, len(header)
            local += (header, entries[k].data)
            central.append(record)
            offsets += bytes(_OFFSET_AT) + b"\1" + bytes(len(record) - _OFFSET_AT - 1)
            offset += len(header) + len(entries[k].data)
        columns = ([e.path for e in entries], [e.crc for e in entries], [e.size for e in entries],
                   [len(e.data) for e in entries], starts, at)
        return cls(stamp, b"".join(local), b"".join(central), bytes(offsets), columns)

    def __reduce__(self) -> tuple[type[LaidOut], tuple[Any, ...]]:
        return LaidOut, (self.stamp, self.local, self.central, self._offsets, self._columns)

    @property
    def paths(self) -> list[str]:
        """Each member's path, in the order they were given."""
        return self._columns[0]

    def first_and_last(self) -> tuple[str, str]:
        """The first and the last path in path order."""
        return min(self.paths), max(self.paths)

    def central_from(self, offset: int) -> bytes:
        """The central records with each member's offset moved by ``offset`` (where ``local``
        starts in the zip): one addition of ``offset`` at every record's offset field. No field
        carries into the next byte as long as each offset is below 4 GiB, which :func:`zip_parts`
        checks first (a zip without ZIP64 holds no other)."""
        if not offset:
            return self.central
        total = int.from_bytes(self.central, "little") + offset * int.from_bytes(self._offsets, "little")
        return total.to_bytes(len(self.central), "little")

    def largest(self) -> int:
        """The largest offset, size or compressed size of a member, from the block's start."""
        return max(max(self._columns[4]), max(self._columns[2]), max(self._columns[3]))

    def __len__(self) -> int:
        return len(self._columns[0])

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return list(self)[index]
        path, crc, size, length, start, at = (column[index] for column in self._columns)
        return Entry(path, self.local[start + at:start + at + length], crc, size)

    def __iter__(self) -> Iterator[Entry]:
        return (self[k] for k in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, (str, bytes)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LaidOut({list(self)!r})"


def _in_path_order(members: Iterable[Entry | LaidOut], stamp: tuple[int, int]) -> list[Entry | LaidOut]:
    """``members`` in path order: each :class:`LaidOut` whole where no other member's path falls
    among its paths (from its first to its last, either included) and it was laid out at this
    build's time; the others member by member, as an entry by entry sort orders them (a chunk of
    questions whose ids do not sort in the quiz's order, as ids made from their texts may not:
    its items fall among other chunks' in the zip)."""
    given = list(members)
    spans = [m.first_and_last() if isinstance(m, LaidOut) else (m.path, m.path) for m in given]
    by_first = sorted(range(len(given)), key=lambda k: spans[k][0])
    whole: set[int] = set()
    reached: str | None = None  # the last path of the members before, by their first
    for at, k in enumerate(by_first):
        first, last = spans[k]
        after = by_first[at + 1] if at + 1 < len(by_first) else None
        alone = (reached is None or reached < first) and (after is None or last < spans[after][0])
        if alone and isinstance(given[k], LaidOut) and cast(LaidOut, given[k]).stamp == stamp:
            whole.add(k)
        reached = last if reached is None else max(reached, last)
    ordered: list[tuple[str, Entry | LaidOut]] = []
    for k, member in enumerate(given):  # in the order given: equal paths keep it (the sort is stable)
        if k in whole or not isinstance(member, LaidOut):
            ordered.append((spans[k][0], member))
        else:
            ordered += ((entry.path, entry) for entry in member)
    ordered.sort(key=lambda pair: pair[0])
    return [member for _, member in ordered]


def zip_parts(entries: Iterable[Entry | LaidOut]) -> Iterator[bytes]:
    """The bytes of a zip of ``entries`` in path order, piece by piece (for streaming to a file).
    The same entries give the same bytes, whatever order they come in, and whether any come laid
    out (:class:`LaidOut`) or not."""
    stamp = _dos_stamp()
    directory: list[bytes] = []
    offset = count = 0
    for member in _in_path_order(entries, stamp):
        if isinstance(member, LaidOut):
            if offset + member.largest() > _ZIP32_LIMIT:  # no header, size or offset past 4 GiB: as one by one
                raise ValueError(_TOO_LARGE)
            directory.append(member.central_from(offset))
            yield member.local
            offset += len(member.local)
            count += len(member)
            continue
        header, record = _records(member, offset, stamp)
        directory.append(record)
        yield header
        yield member.data
        offset += len(header) + len(member.data)
        count += 1
    central = b"".join(directory)
    yield central
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


__all__ = ["COMPRESS_LEVEL", "Deflate", "Deflated", "Entry", "LaidOut", "RUN_QUESTIONS", "Staged", "Staging", "WriteError", "compress",
           "crc32_combine", "crc32_shift", "deflated", "finished", "package", "spliced_entry", "tar_parts", "write_files", "zip_parts",
           "zip_timestamp"]
