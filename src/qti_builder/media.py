"""Images, audio and video referenced by a quiz: found, checked and given safe package names.

A reference is a path relative to the source file. It is refused when it is absolute, leaves the
source's folder (``..``, or a symlink pointing outside), does not exist, or is larger than the
limit. Every file gets an ASCII name built from its own name and content hash, so non-ASCII names
(다이어그램.png) and two files called ``image.png`` in different folders are safe in a zip, in a
URL and in Moodle's ``@@PLUGINFILE@@`` references alike.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from pathlib import Path, PurePosixPath, PureWindowsPath
from urllib.parse import unquote, urlsplit

from .readers.limits import MAX_MEDIA_BYTES, sizes


@dataclass(frozen=True)
class MediaFile:
    #: The reference as written in the source.
    ref: str
    #: The safe file name used in packages (``media/<name>`` in QTI, ``@@PLUGINFILE@@/<name>`` in Moodle).
    name: str
    data: bytes
    media_type: str


@dataclass(frozen=True)
class MediaSet:
    """The media of one quiz, keyed by reference. Hashable, so rendering can be cached."""

    files: tuple[MediaFile, ...] = ()

    def get(self, ref: str) -> MediaFile | None:
        return next((f for f in self.files if f.ref == ref), None)

    def rename(self, prefix: str) -> tuple[tuple[str, str], ...]:
        """Reference -> new ``src`` pairs, for the renderer."""
        return tuple((f.ref, prefix + f.name) for f in self.files)

    def used_by(self, node: Any) -> list[MediaFile]:
        """The files the rich text of a model object (a question, a section) shows, in order."""
        from .content import media_refs
        from .model.common import iter_markdown

        if not self.files:  # most quizzes: no need to look through every text
            return []
        used: dict[str, MediaFile] = {}
        for _, text in iter_markdown(node):
            for ref, _, _ in media_refs(text):
                found = self.get(ref)
                if found:
                    used.setdefault(found.name, found)
        return list(used.values())


def is_external(ref: str) -> bool:
    return bool(urlsplit(ref).scheme) and not PureWindowsPath(ref).drive


class TooLarge(str):
    """Why a media file cannot be used, when the reason is its size (``size``: its bytes)."""

    size: int = 0


def resolve(ref: str, base_dir: Path, max_bytes: int = MAX_MEDIA_BYTES) -> MediaFile | str:
    """The file a relative reference points to, or why it cannot be used."""
    found = locate(ref, base_dir, max_bytes)
    if isinstance(found, str):
        return found
    from .content import media_type  # Markdown's renderer: not for the build cache, which only locates

    path_text = _path_text(ref)
    data = found.read_bytes()
    return MediaFile(ref, safe_name(PurePosixPath(path_text).name, data), data, media_type(path_text))


def _path_text(ref: str) -> str:
    return unquote(urlsplit(ref).path) if not PureWindowsPath(ref).drive else ref


def locate(ref: str, base_dir: Path, max_bytes: int = MAX_MEDIA_BYTES) -> Path | str:
    """The file a relative reference points to, resolved, or why it cannot be used (what
    :func:`resolve` reads; the build cache checks a quiz's media by it)."""
    path_text = _path_text(ref)
    if PurePosixPath(path_text).is_absolute() or PureWindowsPath(path_text).is_absolute() or PureWindowsPath(path_text).drive:
        return "is an absolute path; use a path relative to the source file"
    root = base_dir.resolve()
    try:
        resolved = (base_dir / path_text).resolve()  # follows the symlinks that exist
    except (OSError, RuntimeError) as exc:  # symlink loops, permissions
        return f"cannot be read ({exc})"
    if not resolved.is_relative_to(root):
        leaves = ".." in PurePosixPath(path_text).parts
        return "leaves the source's folder" if leaves else "is a link to a file outside the source's folder"
    if not resolved.is_file():
        return "does not exist" if not resolved.exists() else "is not a file"
    size = resolved.stat().st_size
    if size > max_bytes:
        size_text, limit_text = sizes(size, max_bytes)
        too_large = TooLarge(f"is {size_text}, more than the {limit_text} allowed")
        too_large.size = size
        return too_large
    return resolved


#: Files looked at for "did you mean" below a source's folder: enough for any quiz's media.
NEAREST_SCAN = 5000


def nearest_file(ref: str, base_dir: Path) -> str | None:
    """The file below ``base_dir`` a missing reference most likely meant (another case, a slip of a
    letter or two, the right name in another folder), as a reference from ``base_dir``."""
    import difflib
    import itertools

    wanted = unquote(urlsplit(ref).path).replace("\\", "/")
    try:
        found = [p for p in itertools.islice(base_dir.rglob("*"), NEAREST_SCAN)
                 if p.is_file() and not any(part.startswith(".") for part in p.relative_to(base_dir).parts)]
    except OSError:
        return None
    names = [p.relative_to(base_dir).as_posix() for p in found]
    same_case = [n for n in names if n.lower() == wanted.lower()]
    if same_case:
        return same_case[0]
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.75)
    if close:
        return close[0]
    same_name = [n for n in names if PurePosixPath(n).name.lower() == PurePosixPath(wanted).name.lower()]
    return same_name[0] if len(same_name) == 1 else None


def safe_name(name: str, data: bytes) -> str:
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    ascii_stem = re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_stem).strip("-")[:40] or "media"
    suffix = re.sub(r"[^A-Za-z0-9]", "", suffix)[:10].lower()
    digest = hashlib.sha256(data).hexdigest()[:10]
    return f"{ascii_stem}-{digest}" + (f".{suffix}" if suffix else "")
