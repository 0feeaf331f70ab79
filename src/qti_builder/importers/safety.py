"""Reading other people's files without trusting them (SECURITY.md, "Imports").

- **XML** is parsed with entity resolution, DTD loading and network access off, and libxml2's
  default size and depth limits on (``huge_tree=False``). A document that declares entities at
  all (XXE, "billion laughs") is refused outright rather than parsed around.
- **Zip packages** are read in memory, entry by entry, and never extracted by name: an entry that
  is absolute, climbs out with ``..``, is a symlink or is encrypted refuses the whole package, as
  do more entries, more bytes or a higher compression ratio than the limits below (zip bombs).
  Sizes are counted while decompressing, not taken from the headers, which can lie.
- **Folders** (an unzipped package) are read the same way: files only, no link leaving the folder.

Every refusal is an error diagnostic at the input file (QB702, QB703), and nothing of it is imported.
"""

from __future__ import annotations

import io
import re
import stat
import tarfile
import zipfile
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ..diagnostics import DiagnosticSink, SourceSpan
from ..limits import sizes

# lxml is imported by the parse: the command line takes this module's limits for import's --help.
if TYPE_CHECKING:
    from lxml import etree

#: One input file (a Moodle XML file with embedded images can be large, a quiz page cannot). A
#: 50,000-question Moodle export with Korean and English text and feedback is about 120 MiB.
MAX_INPUT_BYTES = 200 * 1024 * 1024
#: Files in a package: a QTI 2.1 package holds one per question (and its media), so a bank of
#: 100,000 questions needs more than 100,000.
MAX_ENTRIES = 250_000
#: One file unpacked: a Canvas export holds a question bank in one file, about 3.3 KB a question
#: (100,000 questions: about 330 MB).
MAX_ENTRY_BYTES = 500 * 1024 * 1024
#: All files unpacked: a QTI 2.1 package of 100,000 questions is about 450 MB.
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
#: Uncompressed / compressed size of one entry; text compresses about 10:1, a bomb 1000:1.
MAX_RATIO = 200
#: Below this an entry's ratio is not checked (a few KiB of repeated text compress very well).
RATIO_FLOOR = 1024 * 1024

XML_PARSER_OPTIONS = dict(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                          remove_blank_text=False)

READ_ERROR, XML_ERROR, HOSTILE_XML, HOSTILE_ZIP = "QB700", "QB701", "QB702", "QB703"
#: Entries of a package that are skipped as unsafe (the rest is read).
UNSAFE_ENTRIES = "QB717"
#: How many skipped entries a warning names.
NAMED_ENTRIES = 5


@dataclass(frozen=True)
class ImportLimits:
    """The sizes an import may read, each an option of ``qti-builder import`` (command.py), named
    in its error. The compression ratio is not an option: a zip bomb is never a quiz."""

    max_input_bytes: int = MAX_INPUT_BYTES
    max_entries: int = MAX_ENTRIES
    max_entry_bytes: int = MAX_ENTRY_BYTES
    max_total_bytes: int = MAX_TOTAL_BYTES


#: The limits of the import running: :func:`qti_builder.importers.import_path` sets them (from the
#: command's options) around one input, so that every importer's reads keep them without passing
#: them along.
LIMITS: ContextVar[ImportLimits] = ContextVar("import_limits", default=ImportLimits())

#: The folder whose files the input running may show, when it is a loose file (a GIFT, Aiken,
#: text2qti or Moodle XML file, a lone QTI item): its images are files beside it. None for a
#: package (a zip, a backup, a folder), whose media are its own files. Set by
#: :func:`qti_builder.importers.import_path`; read by every QuizBuilder (base.localise_media).
INPUT_FOLDER: ContextVar[Path | None] = ContextVar("input_folder", default=None)

#: Each limit's option (command.py).
OPTIONS = {"max_input_bytes": "--max-input-mb", "max_entries": "--max-entries", "max_entry_bytes": "--max-entry-mb",
           "max_total_bytes": "--max-package-mb"}


def _limits_text(limits: ImportLimits) -> str:
    per_file, in_all = sizes(limits.max_entry_bytes, limits.max_total_bytes)
    return f"{per_file} per file, {in_all} in all"


def raise_hint(limit: str) -> str:
    return f"if the input is a real export, raise the limit with {OPTIONS[limit]}"


ENTITY_HINT = ("entities can read local files (XXE) or expand to gigabytes (billion laughs); "
               "no quiz export needs them: export the quiz again without a DOCTYPE")


#: What may come before an XML document's root element: the declaration, comments, processing
#: instructions, a DOCTYPE (with an internal subset), white space.
_PROLOGUE = re.compile(rb"\A(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>)*<(?:[\w.-]+:)?([\w.-]+)[\s/>]", re.S)
#: Files that are pages of Markdown, whatever tags they hold.
MARKDOWN_SUFFIXES = (".md", ".markdown")


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def utf8_xml(data: bytes) -> bytes:
    """XML written in UTF-16 (WebCT's and Vista's: with a byte-order mark, or starting ``<\\0?\\0``)
    as UTF-8 whose declaration says so, for the readers and sniffers that look for tags in bytes;
    anything else as it is. A cut head (a sniffer's first bytes) loses at most its last character."""
    if data.startswith(_UTF16_BOMS):
        codec = "utf-16"
    elif data[:4] == b"<\x00?\x00":
        codec = "utf-16-le"
    elif data[:4] == b"\x00<\x00?":
        codec = "utf-16-be"
    else:
        return data
    text = data[: len(data) - len(data) % 2].decode(codec, errors="replace")
    text = re.sub(r"""\A(\s*<\?xml[^>]*?\bencoding\s*=\s*)(["'])[^"']*\2""", r"\1\2UTF-8\2", text, count=1)
    return text.encode("utf-8")


def xml_root(path: Path, head: bytes) -> str | None:
    """The local name of the root element of an XML document that starts with ``head``; None
    for a Markdown file or text that does not start as XML (a page with ``<question>`` in it)."""
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return None
    match = _PROLOGUE.match(utf8_xml(head))
    return match.group(1).decode("ascii", "replace") if match else None


def parse_xml(data: bytes, display: str, sink: DiagnosticSink) -> etree._ElementTree | None:
    """A parsed document, or None after reporting why not."""
    # Entity declarations sit in the DOCTYPE, before the root element: refuse them before libxml2
    # sees them (it would resist a "billion laughs" too, but with a less clear message).
    root_start = re.search(rb"<[A-Za-z_:]", data)
    if b"<!ENTITY" in data[: root_start.start() if root_start else len(data)]:
        sink.error(HOSTILE_XML, "refused: the document declares XML entities in its DOCTYPE", SourceSpan(display, 1, 1),
                   hint=ENTITY_HINT)
        return None
    from lxml import etree

    parser = etree.XMLParser(**XML_PARSER_OPTIONS)  # type: ignore[arg-type]
    try:
        tree = etree.ElementTree(etree.fromstring(data, parser))
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (1, 1)
        message = exc.msg or str(exc)
        if "huge" in message.lower() or "limit" in message.lower():
            message += " (a single text over libxml2's 10 MB limit, such as a very large embedded file, or nesting too deep)"
        sink.error(XML_ERROR, f"not well-formed XML: {message}", SourceSpan(display, line or 1, (column or 0) + 1),
                   hint="check that the file is complete and really XML")
        return None
    except ValueError as exc:  # e.g. a str with an encoding declaration; we always pass bytes
        sink.error(XML_ERROR, f"cannot parse the XML: {exc}", SourceSpan(display))
        return None
    dtd = tree.docinfo.internalDTD
    entities = [e.name for e in dtd.iterentities()] if dtd is not None else []
    if entities or any(isinstance(node, etree._Entity) for node in tree.iter()):
        sink.error(HOSTILE_XML, f"refused: the document declares or uses XML entities ({', '.join(entities[:3]) or 'undeclared'})",
                   SourceSpan(display, 1, 1),
                   hint=ENTITY_HINT)
        return None
    return tree


@dataclass
class Package:
    """The files of a content package, by their normalised relative path.

    A loose input (one item or test file, not a package) has the ``folder`` it is in: the files
    it refers to are read from there on first use (:meth:`file`), never from outside it, within
    the limits of a package (links leaving the folder, a file over ``--max-entry-mb`` or, all
    together, over ``--max-package-mb`` are not read)."""

    display: str
    files: dict[str, bytes] = field(default_factory=dict)
    folder: Path | None = None

    def get(self, relative: str, base: str = "") -> bytes | None:
        path = normalise_member(str(PurePosixPath(base).parent / relative) if base else relative)
        return self.files.get(path) if path else None

    def file(self, member: str) -> bytes | None:
        """A file of the package by its normalised path; for a loose input, read from its folder."""
        if member in self.files or self.folder is None:
            return self.files.get(member)
        name = normalise_member(member)
        if name is None:
            return None
        root = self.folder.resolve()
        try:
            path = (root / name).resolve()
            if not path.is_relative_to(root) or not path.is_file():
                return None
            size = path.stat().st_size
            limits = LIMITS.get()
            if size > limits.max_entry_bytes or size + sum(len(d) for d in self.files.values()) > limits.max_total_bytes:
                return None
            data = path.read_bytes()
        except OSError:
            return None
        self.files[name] = data
        return data


def inside_member(name: str) -> str | None:
    """A relative path that climbs out of the package (``../a/b.dat``) cut off at the package's
    root (``a/b.dat``): where the file would be if the package's root were the top. None for an
    absolute path or a drive, and for a path that names nothing."""
    return _member_path(name, past_the_top="stay")


def normalise_member(name: str) -> str | None:
    """A relative path inside a package with ``.`` and ``..`` resolved, or None when it leaves the
    package (absolute, a drive, ``..`` past the top)."""
    return _member_path(name, past_the_top="refuse")


def _member_path(name: str, past_the_top: str) -> str | None:
    """``name`` with ``.`` and ``..`` resolved; a ``..`` at the top stays there or refuses the path."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            elif past_the_top == "refuse":
                return None
            continue
        parts.append(part)
    return "/".join(parts) or None


def read_zip(path: Path, display: str, sink: DiagnosticSink) -> Package | None:
    limits = LIMITS.get()

    def refuse(problem: str, hint: str = "this is not how a quiz export looks; refusing the whole package") -> None:
        sink.error(HOSTILE_ZIP, f"refused: {problem}", SourceSpan(display), hint=hint)

    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        sink.error(READ_ERROR, f"not a readable zip file: {exc}", SourceSpan(display))
        return None
    package = Package(display)
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.max_entries:
            refuse(f"the zip has {len(infos):,} entries, more than the {limits.max_entries:,} a package may have",
                   raise_hint("max_entries"))
            return None
        total = 0
        unsafe: list[tuple[str, str]] = []
        #: Entries whose path climbs out of the package ('../res00001.dat'), with the path they
        #: have inside it once the climbing is cut off: read after the others.
        climbing: list[tuple[zipfile.ZipInfo, str]] = []

        def read(info: zipfile.ZipInfo, name: str, target: str) -> bool:
            """Reads one entry into ``package`` under ``target``; False when the package is refused."""
            nonlocal total
            if info.file_size > limits.max_entry_bytes or total + info.file_size > limits.max_total_bytes:
                refuse(f"entry '{name}' would unpack to {info.file_size:,} bytes, past the limits "
                       f"({_limits_text(limits)})",
                       f"{raise_hint('max_entry_bytes')} (per file) or {OPTIONS['max_total_bytes']} (in all)")
                return False
            if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                refuse(f"entry '{name}' is compressed {info.file_size // max(info.compress_size, 1)}:1 (a zip bomb)")
                return False
            data = _read_limited(archive, info, min(limits.max_entry_bytes, limits.max_total_bytes - total))
            if data is None:
                refuse(f"entry '{name}' unpacks to more than its header says, past the limits (a zip bomb)")
                return False
            total += len(data)
            if target in package.files:
                sink.warning("QB711", f"the zip holds '{name}' twice; the first copy is used", SourceSpan(display))
                return True
            package.files[target] = data
            return True

        for info in infos:
            name = info.filename
            if info.is_dir():
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                unsafe.append((name, "is a symbolic link"))
                continue
            if info.flag_bits & 0x1:
                unsafe.append((name, "is encrypted"))
                continue
            target = normalise_member(name)
            if target is None or ".." in name.replace("\\", "/").split("/"):
                inside = inside_member(name)
                if inside is None:
                    unsafe.append((name, "points outside the package (an absolute path)"))
                else:
                    climbing.append((info, inside))
                continue
            if not read(info, name, target):
                return None
        # An R/exams or Blackboard export may repeat every file under '../' (and hold the manifest
        # only there): such an entry is read as the file of the package it names below the
        # package's root, never outside it; a copy of a file read already is left alone.
        copies = 0
        for info, inside in climbing:
            if inside in package.files:
                copies += 1
                continue
            if not read(info, info.filename, inside):
                return None
            sink.warning(UNSAFE_ENTRIES, f"entry '{info.filename}' points outside the package; read as '{inside}', inside it",
                         SourceSpan(display), hint="nothing is ever written where a zip entry says")
        if copies:
            sink.warning(UNSAFE_ENTRIES, f"{copies} entr{'y' if copies == 1 else 'ies'} under '../' repeat files the package holds; "
                                         "the package's own copies are read", SourceSpan(display),
                         hint="nothing is ever written where a zip entry says")
    if unsafe and not package.files:
        refuse(f"every entry is unsafe: {_named(unsafe)}",
               "a 'zip slip' entry could overwrite files anywhere, a link point at any file; nothing is left to read")
        return None
    _skipped(sink, unsafe, display, "zip", "; if a skipped file was needed, export the package again")
    return package


def read_tar(data: bytes, display: str, sink: DiagnosticSink) -> Package | None:
    """A gzipped tar (a Moodle backup) read in memory as :func:`read_zip` reads a zip: regular
    files only, each within the limits, counted as it is unpacked; an entry that leaves the package
    or is a link is skipped and said."""
    limits = LIMITS.get()
    package, total, unsafe = Package(display), 0, []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
            for count, info in enumerate(archive, 1):
                if count > limits.max_entries:
                    sink.error(HOSTILE_ZIP, f"refused: the archive has more than {limits.max_entries:,} entries",
                               SourceSpan(display), hint=raise_hint("max_entries"))
                    return None
                if info.isdir():
                    continue
                target = normalise_member(info.name)
                if target is None or ".." in info.name.replace("\\", "/").split("/"):
                    unsafe.append((info.name, "points outside the package (absolute path or '..')"))
                    continue
                if not info.isfile():
                    unsafe.append((info.name, "is a link or a device, not a file"))
                    continue
                if info.size > limits.max_entry_bytes or total + info.size > limits.max_total_bytes:
                    sink.error(HOSTILE_ZIP, f"refused: entry '{info.name}' would unpack to {info.size:,} bytes, past the "
                                            f"limits ({_limits_text(limits)})", SourceSpan(display),
                               hint=f"{raise_hint('max_entry_bytes')} (per file) or {OPTIONS['max_total_bytes']} (in all)")
                    return None
                handle = archive.extractfile(info)
                content = handle.read(info.size + 1) if handle is not None else b""
                total += len(content)
                if target not in package.files:
                    package.files[target] = content
    except (tarfile.TarError, OSError, EOFError) as exc:
        sink.error(READ_ERROR, f"not a readable Moodle backup (a gzipped tar): {exc}", SourceSpan(display))
        return None
    _skipped(sink, unsafe, display, "archive", "")
    return package


def _named(unsafe: list[tuple[str, str]]) -> str:
    """The first few unsafe entries, each with why: ``'../a.xml' (points outside …), … and 3 more``."""
    shown = "; ".join(f"'{name}' {why}" for name, why in unsafe[:NAMED_ENTRIES])
    return shown + (f"; and {len(unsafe) - NAMED_ENTRIES} more" if len(unsafe) > NAMED_ENTRIES else "")


def _read_limited(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    chunks, size = [], 0
    try:
        with archive.open(info) as handle:
            while chunk := handle.read(1024 * 1024):
                size += len(chunk)
                if size > limit or size > max(info.file_size, 0) + 1024 * 1024:
                    return None
                chunks.append(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError):
        return None
    return b"".join(chunks)


def read_folder(folder: Path, display: str, sink: DiagnosticSink) -> Package | None:
    """An unzipped package: every regular file below the folder, links that leave it refused."""
    limits = LIMITS.get()
    package = Package(display)
    root = folder.resolve()
    total = 0
    for path in sorted(folder.rglob("*")):
        if len(package.files) >= limits.max_entries:
            sink.error(HOSTILE_ZIP, f"refused: the folder has more than {limits.max_entries:,} files", SourceSpan(display),
                       hint=raise_hint("max_entries"))
            return None
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            sink.error(HOSTILE_ZIP, f"refused: '{path.relative_to(folder)}' is a link to a file outside the package",
                       SourceSpan(display), hint="a link could point at any file on this machine")
            return None
        if not path.is_file():
            continue
        size = path.stat().st_size
        total += size
        if size > limits.max_entry_bytes or total > limits.max_total_bytes:
            sink.error(HOSTILE_ZIP, f"refused: '{path.relative_to(folder)}' is past the size limits ({_limits_text(limits)})",
                       SourceSpan(display), hint=f"{raise_hint('max_entry_bytes')} (per file) or {OPTIONS['max_total_bytes']} (in all)")
            return None
        package.files[path.relative_to(folder).as_posix()] = path.read_bytes()
    return package


def read_package(path: Path, display: str, sink: DiagnosticSink, *, files_beside: bool = False) -> Package | None:
    """An input as a package: a folder, a zip (by its first bytes, whatever its name: .imscc,
    .zip), or a single file as a package of one (with ``files_beside``, one whose references
    are read from the file's folder: a loose QTI item or test)."""
    if path.is_dir():
        return read_folder(path, display, sink)
    if path.suffix.lower() == ".zip" or _starts_with_pk(path):
        return read_zip(path, display, sink)
    data = read_input(path, display, sink)
    if data is None:
        return None
    return Package(display, {path.name: data}, folder=path.parent if files_beside else None)


def _starts_with_pk(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(2) == b"PK"
    except OSError:
        return False  # read_input reports it


def read_input(path: Path, display: str, sink: DiagnosticSink) -> bytes | None:
    """The bytes of one input file, within the size limit."""
    limits = LIMITS.get()
    try:
        size = path.stat().st_size
        if size > limits.max_input_bytes:
            size_text, limit_text = sizes(size, limits.max_input_bytes)
            sink.error(READ_ERROR, f"the file is {size_text}, more than the {limit_text} an import may read",
                       SourceSpan(display), hint=raise_hint("max_input_bytes"))
            return None
        return path.read_bytes()
    except OSError as exc:
        sink.error(READ_ERROR, f"cannot read the file: {exc.strerror or exc}", SourceSpan(display))
        return None


def _skipped(sink: DiagnosticSink, unsafe: list[tuple[str, str]], display: str, what: str, advice: str) -> None:
    """The warning that names the unsafe entries of a zip or an archive left unread (none: nothing)."""
    if unsafe:
        sink.warning(UNSAFE_ENTRIES, f"{len(unsafe)} unsafe entr{'y' if len(unsafe) == 1 else 'ies'} of the {what} skipped, "
                                     f"the rest read: {_named(unsafe)}", SourceSpan(display),
                     hint=f"nothing is ever written where {'an' if what[0] in 'aeiou' else 'a'} {what} entry says{advice}")
