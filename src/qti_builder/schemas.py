"""Finding, checking and compiling the official XSDs.

The official schemas are third-party files and are not shipped. Their folder is found in this
order: ``--schemas DIR``, the ``QTI_BUILDER_SCHEMAS`` environment variable, then qti-builder's own
cache, which is filled from the official URLs on first use. Every file, wherever it comes from,
must match the sha256 pinned in ``schemas/official-xsd.json``: a changed or truncated schema
would otherwise silently change what "valid" means.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
import urllib.error
import urllib.parse
from collections.abc import Callable
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from lxml import etree
from platformdirs import user_cache_dir

from .diagnostics import Diagnostic, SchemaError, Severity
from .interrupts import stop_signals_held
from .resources import data_dir

ENV_VAR = "QTI_BUILDER_SCHEMAS"
QTI_ENTRY = "qti21/imsqti_v2p1.xsd"
MANIFEST_ENTRY = "qti21/qtiv2p1_imscpv1p2_v1p0.xsd"
MOODLE_XSD = "moodle-xml.xsd"
#: The project's own schema of the XML parts of a Moodle quiz backup (.mbz).
MOODLE_BACKUP_XSD = "moodle-backup.xsd"
#: The Canvas package: QTI 1.2.1 (a DTD), IMS CP 1.1 for its manifest, and the project's own
#: schema of Canvas's quiz settings file.
QTI12_DTD = "qti12/ims_qtiasiv1p2p1.dtd"
#: QTI 1.2, the version before 1.2.1: the same grammar for what the Canvas package writes, plus the
#: ``*_extension`` elements 1.2.1 dropped. A Canvas calculated question's variables and sets sit in
#: ``<itemproc_extension>`` (as Canvas exports them), so an item or assessment that has one is
#: validated against this DTD instead, and the extension's content (ANY, the vendor's own)
#: against the project's schema of what Canvas reads there.
QTI12_EXTENDED_DTD = "qti12/ims_qtiasiv1p2.dtd"
CANVAS_CALCULATED_XSD = "canvas-calculated.xsd"
CONTENT_PACKAGE_ENTRY = "qti12/imscp_v1p1.xsd"
CANVAS_META_XSD = "canvas-quiz-meta.xsd"
#: The project's stand-in for MathML 2's schema (``m:math`` with any content), imported by
#: :attr:`SchemaSet.qti_plain`: compiling the official MathML schema is nine tenths of the QTI 2.1
#: schema's compile (0.28 of 0.31 s), which a document without MathML does not need.
MATHML_ANY_XSD = "mathml-any.xsd"
MATHML_NS = "http://www.w3.org/1998/Math/MathML"
MATHML_ENTRY_URL = "http://www.w3.org/Math/XMLSchema/mathml2/mathml2.xsd"


@lru_cache(maxsize=1)
def pins() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((data_dir("schemas") / "official-xsd.json").read_text("utf-8"))
    return data


def default_cache_dir() -> Path:
    return Path(user_cache_dir("qti-builder")) / "schemas"


def resolve_schema_dir(
    option: Path | None = None, fetch: Callable[[str], bytes] | None = None
) -> Path:
    """The folder to validate with, checked against the pins; raises :class:`SchemaError`. A
    relative ``--schemas`` or ``QTI_BUILDER_SCHEMAS`` is taken from the working folder, and the
    folder is returned absolute, so nothing later reads it from elsewhere."""
    if option is not None:
        return _checked(option, f"--schemas {option}")
    env = os.environ.get(ENV_VAR)
    if env:
        return _checked(Path(env), f"{ENV_VAR}={env}")
    cache = default_cache_dir()
    if _problems(cache):
        _download(cache, fetch or _http_get)
    return _checked(cache, f"the cache {cache}")


def needs_download(option: Path | None = None) -> bool:
    """Whether :func:`resolve_schema_dir` would download the schemas into the cache first."""
    return option is None and not os.environ.get(ENV_VAR) and bool(_problems(default_cache_dir()))


def _checked(folder: Path, origin: str) -> Path:
    absolute = Path(os.path.abspath(folder.expanduser()))
    if absolute != folder:
        origin += f" (= {absolute})"
    problems = _problems(absolute)
    if not problems:
        return absolute
    files = pins()["files"]
    missing = sum(1 for p in problems if p.endswith(" is missing"))
    if not absolute.is_dir() or missing == len(files):
        what = "is not a folder" if absolute.exists() and not absolute.is_dir() else (
            "does not exist" if not absolute.exists() else f"has none of the {len(files)} official schema files")
        nearby = [str(p) if folder.is_absolute() else os.path.relpath(p) for p in _schema_folders_near(absolute)]
        also = f"; did you mean {' or '.join(nearby)}?" if nearby else ""
        raise SchemaError([Diagnostic(Severity.ERROR, "QB401", f"{origin} {what} (a schema folder holds {QTI_ENTRY}, "
                                                              f"{CONTENT_PACKAGE_ENTRY}, ...){also}", hint=_HINT)])
    raise SchemaError([Diagnostic(Severity.ERROR, "QB401", f"{origin}: {p}", hint=_HINT) for p in problems])


def _schema_folders_near(folder: Path) -> list[Path]:
    """Schema folders below ``folder`` (two levels down) or beside it: the folder the user meant."""
    places = [folder, *([folder.parent] if folder.parent.is_dir() else [])]
    found = []
    for place in places:
        if not place.is_dir():
            continue
        for pattern in ("*/" + QTI_ENTRY, "*/*/" + QTI_ENTRY):
            try:
                found += [hit.parent.parent for hit in sorted(place.glob(pattern))]
            except OSError:
                continue
    return sorted(set(found) - {folder})[:3]


_HINT = (
    f"point --schemas or {ENV_VAR} (absolute, or relative to the working folder) at an unmodified copy of the "
    "official schemas, such as one made by 'qti-builder schemas fetch --to DIR', or unset both to let qti-builder "
    "download them into its cache"
)


def _problems(folder: Path) -> list[str]:
    """What is wrong with ``folder``'s pinned files: each is hashed and compared with its pin,
    unless the record of verified files (:class:`_Verified`) holds it as it is now."""
    if not folder.is_dir():
        return [f"no schema folder at {folder}"]
    problems = []
    verified = _Verified.of_this_process()
    for rel, pin in pins()["files"].items():
        path = folder / rel
        try:
            with open(path, "rb") as handle:
                # The stat of the handle read: a file swapped for another after it is taken has another inode
                info = os.fstat(handle.fileno())
                if verified.holds(folder, rel, info, pin["sha256"]):
                    continue
                digest = hashlib.sha256(handle.read()).hexdigest()
        except FileNotFoundError:
            problems.append(f"{rel} is missing")
            continue
        except OSError as exc:
            problems.append(f"{rel} cannot be read ({exc.strerror})")
            continue
        if digest != pin["sha256"]:
            problems.append(f"{rel} does not match its pinned sha256 (got {digest[:12]}…, expected {pin['sha256'][:12]}…)")
        else:
            verified.add(folder, rel, info, digest)
    verified.save()
    return problems


class _Verified:
    """The pinned files found to match their pins, each with its stat as it was when read (size,
    mtime, ctime, inode, device), as git's index keeps its files': a file whose stat is the same
    again is not read and hashed again. Hashing the 40 files (0.9 MB) took 20 ms of every run, and
    a build checked the folder twice. Kept in the user's cache folder across runs
    (``schemas-verified.json``), and by the process, so the second check is 40 ``fstat``s.

    Anything that differs is hashed again, never trusted: a file written in place changes its
    ctime, which no one can set back (setting the mtime back changes the ctime too), a file
    replaced has another inode. A file is recorded only once its ctime is some seconds old
    (:data:`_SETTLED_NS`): a change within the clock's tick after the stat (filesystems keep
    times in ticks of up to 10 ms) would keep every number the same. A record that cannot be read
    or is damaged is taken as empty and written anew. None on Windows, where ``st_ctime`` is a
    file's creation time, not its last change."""

    #: Folders kept in the record, the most recently verified: a few copies of the schemas.
    FOLDERS = 8
    _process: _Verified | None = None

    def __init__(self, path: Path | None, folders: dict[str, dict[str, list[Any]]]) -> None:
        self.path = path
        self.folders = folders
        self.changed = False

    @classmethod
    def of_this_process(cls) -> _Verified:
        """The record, read once by the process (again if the cache folder has moved since: each
        test's own)."""
        path = _record_path()
        if cls._process is None or cls._process.path != path:
            cls._process = cls.load(path)
        return cls._process

    @classmethod
    def load(cls, path: Path | None) -> _Verified:
        folders: dict[str, dict[str, list[Any]]] = {}
        try:
            if path is not None:
                data = json.loads(path.read_bytes())
                if isinstance(data, dict) and data.get("version") == 1 and isinstance(data.get("folders"), dict) \
                        and all(isinstance(files, dict) for files in data["folders"].values()):
                    folders = data["folders"]
        except (OSError, ValueError):  # no record yet, or not JSON: every file is hashed
            pass
        return cls(path, folders)

    @staticmethod
    def _stat(info: os.stat_result) -> list[Any]:
        return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]

    def holds(self, folder: Path, rel: str, info: os.stat_result, sha256: str) -> bool:
        if self.path is None:
            return False
        # A damaged entry (another shape, other types) is simply not equal
        return self.folders.get(str(folder), {}).get(rel) == [*self._stat(info), sha256]

    def add(self, folder: Path, rel: str, info: os.stat_result, sha256: str) -> None:
        if self.path is None or info.st_ctime_ns > time.time_ns() - _SETTLED_NS:
            return
        files = self.folders.pop(str(folder), {})
        files[rel] = [*self._stat(info), sha256]
        self.folders[str(folder)] = files  # the last verified last, the first to go first
        self.changed = True

    def save(self) -> None:
        if not self.changed or self.path is None:
            return
        self.changed = False
        kept = dict(list(self.folders.items())[-self.FOLDERS:])
        data = json.dumps({"version": 1, "folders": kept}, separators=(",", ":")).encode()
        try:  # as a whole or not at all: two runs may write it at once
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".schemas-verified-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:  # a read-only cache: the files are hashed at every run, as before
            pass


#: How old a file's last change must be for the file to be recorded as verified (3 s).
_SETTLED_NS = 3_000_000_000


def _record_path() -> Path | None:
    """Where :class:`_Verified` keeps its record: the user's cache folder, beside the downloaded
    schemas and Jinja's compiled templates, not in the build cache (``--no-cache`` leaves that
    untouched); ``XDG_CACHE_HOME`` moves it on Linux."""
    if os.name == "nt":
        return None
    return Path(user_cache_dir("qti-builder")) / "schemas-verified.json"


def _http_get(url: str) -> bytes:
    import urllib.request  # only when downloading: it pulls in http.client and email (a cold build's 10 ms)

    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - fixed official http(s) URLs only
        data: bytes = response.read(16 * 1024 * 1024)
        return data


def _download(cache: Path, fetch: Callable[[str], bytes], done: Callable[[str, str], None] | None = None,
              mirror: str | None = None) -> None:
    """Every pinned file into ``cache``, each stored only when its sha256 matches (``done(rel, how)``
    hears of each file: "kept" when it was there already, "fetched" when it was downloaded), from
    its official URL or from ``mirror``, a base URL laid out as a schema folder."""
    failures = []
    #: Hosts that could not be reached -> (index of their failure, files not tried after it):
    #: offline, one message per host rather than one per schema file.
    unreachable: dict[str, tuple[int, list[str]]] = {}
    for rel, pin in pins()["files"].items():
        target = cache / rel
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == pin["sha256"]:
            if done:
                done(rel, "kept")
            continue
        url = pin["url"] if mirror is None else mirror.rstrip("/") + "/" + urllib.parse.quote(rel)
        host = urllib.parse.urlsplit(url).netloc
        if host in unreachable:
            unreachable[host][1].append(url)
            continue
        try:
            data = fetch(url)
        except urllib.error.HTTPError as exc:  # the host answered: the other files may be there
            failures.append(f"cannot download {url}: {exc}")
            continue
        except OSError as exc:
            unreachable[host] = (len(failures), [])
            failures.append(f"cannot download {url}: {exc}")
            continue
        if hashlib.sha256(data).hexdigest() != pin["sha256"]:
            failures.append(f"{url} does not match its pinned sha256; not stored")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
            tmp.write(data)
        os.replace(tmp.name, target)
        if done:
            done(rel, "fetched")
    for index, skipped in unreachable.values():
        if skipped:
            failures[index] += (f" (the other {len(skipped)} files from the same host were not tried)" if len(skipped) > 1
                                else " (the other file from the same host was not tried)")
    if failures:
        raise SchemaError([Diagnostic(Severity.ERROR, "QB402", f, hint=_HINT) for f in failures])


def fetch_schemas(folder: Path, mirror: str | None = None, fetch: Callable[[str], bytes] | None = None,
                  done: Callable[[str, str], None] | None = None) -> Path:
    """``qti-builder schemas fetch``: every pinned file into ``folder`` (from its official URL, or
    from ``mirror``, a URL or folder laid out as a schema folder), each checked against its pin;
    raises :class:`SchemaError` with what could not be had."""
    if mirror is not None and "://" not in mirror:
        mirror = Path(os.path.abspath(mirror)).as_uri()
    absolute = Path(os.path.abspath(folder.expanduser()))
    _download(absolute, fetch or _http_get, done, mirror)
    return _checked(absolute, str(folder))


# -- compiling ---------------------------------------------------------------------------------


class _LocalSchemas(etree.Resolver):
    """Maps every official schema URL onto the local folder; anything else is refused."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.exact = {url: folder / rel for url, rel in pins()["aliases"].items()}
        self.prefixes = [(url, folder / rel) for url, rel in pins()["prefixes"].items()]

    def resolve(self, url: str | None, pubid: str | None, context: Any) -> Any:
        if url is None:
            return None
        path = self.exact.get(url)
        for prefix, base in self.prefixes:
            if path is None and url.startswith(prefix):
                path = base / url[len(prefix):]
        if path is None and not url.startswith(("http:", "https:", "ftp:")):
            return None  # a local file: the entry schema itself, or a relative include
        if path is None:
            # An official schema that is not pinned: refuse rather than fetch it.
            raise SchemaError([Diagnostic(Severity.ERROR, "QB403", f"a schema imports {url}, which is not pinned", hint=_HINT)])
        return self.resolve_filename(str(path), context)


class _MathMLStandIn(_LocalSchemas):
    """As :class:`_LocalSchemas`, with MathML 2's schema replaced by the project's stand-in."""

    def resolve(self, url: str | None, pubid: str | None, context: Any) -> Any:
        if url == MATHML_ENTRY_URL:
            return self.resolve_filename(str(data_dir("schemas") / MATHML_ANY_XSD), context)
        return super().resolve(url, pubid, context)


#: The compiled schemas each target's documents are validated with (:class:`SchemaSet`'s names).
#: A build compiles those of its targets only: the QTI 2.1 schema alone takes over a second, which
#: a build of the Canvas package or of Moodle XML does not need. QTI 2.1's documents are validated
#: with ``qti_plain`` unless they hold MathML; ``qti``, the whole official schema, is compiled
#: when the first document with MathML is validated (or ahead by the build, see
#: ``pipeline._work``).
TARGET_SCHEMAS = {
    "qti21": ("qti_plain", "manifest"),
    "moodle": ("moodle",),
    "moodle-quiz": ("moodle_backup",),
    "canvas": ("qti12", "qti12_extended", "canvas_calculated", "content_package", "canvas_meta"),
}
_EVERY_SCHEMA = tuple(name for names in TARGET_SCHEMAS.values() for name in names)


class SchemaSet:
    """The compiled schemas of one folder, each compiled when first used; :func:`load_schemas`
    compiles a build's before its workers are forked, so that they inherit them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._parser = etree.XMLParser(no_network=True, resolve_entities=False)
        self._parser.resolvers.add(_LocalSchemas(folder))

    def _xsd(self, path: Path) -> etree.XMLSchema:
        with stop_signals_held():  # an interrupt inside lxml's callbacks would read as a broken schema
            return etree.XMLSchema(etree.parse(str(path), self._parser))

    @cached_property
    def qti(self) -> etree.XMLSchema:
        return self._xsd(self.folder / QTI_ENTRY)

    @cached_property
    def qti_plain(self) -> etree.XMLSchema:
        """The QTI 2.1 schema with the project's stand-in for MathML's (``schemas/mathml-any.xsd``):
        for documents without an element or attribute in MathML's namespace (:func:`has_mathml`),
        which it judges as :attr:`qti` does, in a tenth of the compile."""
        parser = etree.XMLParser(no_network=True, resolve_entities=False)
        parser.resolvers.add(_MathMLStandIn(self.folder))
        with stop_signals_held():
            return etree.XMLSchema(etree.parse(str(self.folder / QTI_ENTRY), parser))

    def qti_for(self, tree: etree._ElementTree, data: bytes | None = None) -> etree.XMLSchema:
        """The QTI 2.1 schema to validate ``tree`` (parsed from ``data``) with: the whole official
        one when it holds MathML."""
        return self.qti if has_mathml(tree, data) else self.qti_plain

    @cached_property
    def manifest(self) -> etree.XMLSchema:
        return self._xsd(self.folder / MANIFEST_ENTRY)

    @cached_property
    def moodle(self) -> etree.XMLSchema:
        return self._xsd(data_dir("schemas") / MOODLE_XSD)

    @cached_property
    def moodle_backup(self) -> etree.XMLSchema:
        return self._xsd(data_dir("schemas") / MOODLE_BACKUP_XSD)

    @cached_property
    def qti12(self) -> etree.DTD:
        return etree.DTD(str(self.folder / QTI12_DTD))

    @cached_property
    def qti12_extended(self) -> etree.DTD:
        return etree.DTD(str(self.folder / QTI12_EXTENDED_DTD))

    @cached_property
    def canvas_calculated(self) -> etree.XMLSchema:
        return self._xsd(data_dir("schemas") / CANVAS_CALCULATED_XSD)

    @cached_property
    def content_package(self) -> etree.XMLSchema:
        return self._xsd(self.folder / CONTENT_PACKAGE_ENTRY)

    @cached_property
    def canvas_meta(self) -> etree.XMLSchema:
        return self._xsd(data_dir("schemas") / CANVAS_META_XSD)


_MATHML = etree.XPath("boolean(//*[namespace-uri() = $ns] | //@*[namespace-uri() = $ns])")


def has_mathml(tree: etree._ElementTree, data: bytes | None = None) -> bool:
    """Whether an element or attribute of ``tree`` is in MathML's namespace, however the document
    writes its declaration: the parsed names are compared. ``data``, the bytes ``tree`` was parsed
    from, answers "no" at once when it neither names the namespace nor holds a character
    reference or an entity declaration, the only ways to write the name otherwise."""
    if data is not None and MATHML_NS.encode("ascii") not in data and b"&#" not in data and b"<!ENTITY" not in data:
        return False
    return bool(_MATHML(tree, ns=MATHML_NS))


@lru_cache(maxsize=4)
def load_schemas(folder: Path, targets: frozenset[str] | None = None) -> SchemaSet:
    """The schemas of ``targets`` (all when None) compiled, once per process."""
    schemas = SchemaSet(folder)
    names = _EVERY_SCHEMA if targets is None else [n for t in sorted(targets) for n in TARGET_SCHEMAS.get(t, _EVERY_SCHEMA)]
    with stop_signals_held():  # one interrupt waits for all of them: no half-compiled set is kept
        for name in dict.fromkeys(names):
            getattr(schemas, name)
    return schemas
