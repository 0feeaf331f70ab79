"""Turning validated documents into files: deterministic zips, written atomically.

The same sources give byte-identical packages: entries sorted, every timestamp fixed (to
``SOURCE_DATE_EPOCH`` when set, else 1980-01-01, the earliest a zip can hold), fixed permissions.
Files are written to a temporary name in the target folder and renamed into place only when all of
them are complete, so an interrupted build never leaves a half-written package behind.
"""

from __future__ import annotations

import io
import os
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


def write_files(files: list[tuple[Path, bytes]]) -> None:
    """Write every file, or none: all go to temporary files first, then are renamed into place."""
    pending: list[tuple[str, Path]] = []
    try:
        for target, data in files:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            pending.append((tmp, target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
        for tmp, target in pending:
            os.replace(tmp, target)
        pending.clear()
    finally:
        for tmp, _ in pending:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
