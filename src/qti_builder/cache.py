"""The build cache: each quiz's outputs kept between runs, as Sphinx and mypy keep theirs, so that
a quiz whose source has not changed is neither read, rendered nor validated again.

An entry holds what the build made of one source (its :class:`~.results.QuizResult`: the quiz,
where its questions start, its warnings and losses, its output files) and the bytes of each
output. It is found by a key that covers everything the outputs depend on: qti-builder's version
and code, its templates and any ``--templates`` overlay, the official schemas and the project's
own, the options that change what is read, written or reported, and the source's path and bytes.
The media files a quiz shows are checked when its entry is taken: each must still be where the
source points, with the same bytes (the entry keeps their sha256).

An entry is never trusted: it is written to a temporary file and renamed into place (two builds
at once each write whole entries, the last one staying), it carries a CRC-32 of its content,
and one that does not match, cannot be read or was made for another key is ignored and written
again. The CRC guards against damage (a build killed half-way, a disk's error), as the sha256 it
replaced did, at about a third of its CPU (:func:`_checksum`); neither guards against someone
who can write the cache folder, who could write any entry with its checksum: the folder must be
the user's own (docs/ci.md). Only quizzes without errors are kept. ``--no-cache`` builds without
reading or writing it; ``QTI_BUILDER_CACHE_DIR`` moves it (the tests point it at a temporary
folder).
"""

from __future__ import annotations

import contextlib
import copyreg
import functools
import hashlib
import io
import os
import pickle
import stat
import tempfile
import time
import zlib
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .collector import collector_paused
from .diagnostics import SourceSpan
from .memory import keeping, later, recall, remember, written
from .results import STAGES, BuildOptions, QuizFacts, QuizResult

if TYPE_CHECKING:
    from .media import MediaSet
    from .model import Quiz

#: The cache folder, when not the user's cache folder (platformdirs) ``builds/``.
ENV_VAR = "QTI_BUILDER_CACHE_DIR"
#: Starts every entry; its number changes with the entry's layout (5: a CRC-32, not a sha256).
MAGIC = b"qti-builder build cache 5\n"
#: Where an entry's payload starts: after :data:`MAGIC`, its checksum (8 hex digits) and a newline.
PAYLOAD_AT = len(MAGIC) + 9
#: Most bytes the cache keeps: past it, the entries used least recently are removed (:func:`prune`).
#: A 10,000-question bank's entries take about 90 MB (its default four targets, bench/README.md).
LIMIT_BYTES = 1024 * 1024 * 1024
_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    folder = os.environ.get(ENV_VAR)
    if folder:
        return Path(folder)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("qti-builder")) / "builds"


@dataclass
class CachedQuiz:
    """One quiz as a build left it (after ``--ignore`` and ``--strict``), its outputs' bytes by
    format, and the media it read, as (reference, sha256)."""

    key: str
    result: QuizResult
    contents: dict[str, bytes]
    media: tuple[tuple[str, str], ...]
    #: The quiz's id, and where the source gives it: for the check that no two quizzes share one.
    quiz_id: str
    id_span: SourceSpan | None


@dataclass
class Lookup:
    """The cache's answer for a build's sources, by their index: the key of each source that can
    be kept, and the entry of each found."""

    keys: dict[int, str] = field(default_factory=dict)
    hits: dict[int, CachedQuiz] = field(default_factory=dict)
    #: The build's settings (:func:`settings_key`), for the keys of chunks (:func:`chunk_key`).
    settings: str | None = None

    def thaw(self) -> None:
        """Make each hit's quiz model now (an entry keeps it pickled apart, made when first asked
        for: :class:`_StoredQuiz`); a hit whose model cannot be made, garbage behind a checksum
        that matches it, is dropped: a miss, built anew and written again, as any damaged entry."""
        for i, entry in list(self.hits.items()):
            try:
                entry.result.quiz  # noqa: B018
            except Exception:
                del self.hits[i]


def look_up(sources: list[Path], options: BuildOptions) -> Lookup:
    """The entries of ``sources`` found in the cache; nothing when ``options.cache`` is off or the
    settings cannot be known (no schema folder yet: the build says why)."""
    lookup = Lookup()
    _TAKEN.clear()  # the build before's chunks: let go of now
    if not options.cache or options.only is not None or options.outline:  # the cache keeps whole builds only
        return lookup
    settings = settings_key(options)
    if settings is None:
        return lookup
    lookup.settings = settings
    for i, source in enumerate(sources):
        key = quiz_key(settings, source)
        if key is None:
            continue
        lookup.keys[i] = key
        written(key)  # a watching process may be writing it in the background
        entry = load(key, source, options)
        if entry is not None:
            lookup.hits[i] = entry
    return lookup


def settings_key(options: BuildOptions) -> str | None:
    """What every quiz's outputs depend on besides its source and media, as a sha256."""
    schemas = _schema_dir(options.schemas)
    if schemas is None or not schemas.is_dir():
        return None
    digest = hashlib.sha256()
    # The time every output states (writers.base.build_epoch) is the environment's.
    for part in (__version__, MAGIC.decode(), os.environ.get("SOURCE_DATE_EPOCH", ""), repr(options.formats),
                 repr(options.strict), repr(sorted(options.ignore)),
                 repr(options.profile), repr(options.qti_variants), repr(options.max_media_bytes), repr(options.limits)):
        digest.update(part.encode("utf-8") + b"\0")
    digest.update(code_key().encode("ascii"))
    from .resources import data_dir

    for folder in (data_dir("templates"), options.templates, data_dir("schemas"), schemas):
        digest.update(b"folder\0")
        if folder is not None:
            _hash_folder(digest, Path(folder))
    return digest.hexdigest()


@functools.cache
def code_key() -> str:
    """qti-builder's version and code, as a sha256: a changed module (an editable install, an
    upgrade under the same version) is a new key. Made once per process: the code a process runs
    is what it imported, whatever its files become while it runs (a watch's builds key their
    entries by the code that makes them; each of its builds walked the package's files twice,
    bench/README.md)."""
    digest = hashlib.sha256(f"{__version__}\0{MAGIC.decode()}\0".encode())
    for parts, path in _tree(str(_PACKAGE)):
        if parts[-1].endswith(".py"):
            info = os.stat(path)
            digest.update(f"{os.path.join(*parts)}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def _schema_dir(option: Path | None) -> Path | None:
    """The official schemas' folder the build takes (``schemas.resolve_schema_dir``'s order:
    ``--schemas``, then ``QTI_BUILDER_SCHEMAS``, then the download cache), without checking it."""
    env = os.environ.get("QTI_BUILDER_SCHEMAS")
    if option is None and not env:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("qti-builder")) / "schemas"
    chosen = option if option is not None else Path(str(env))
    return Path(os.path.abspath(chosen.expanduser()))


def _hash_folder(digest: hashlib._Hash, folder: Path) -> None:
    """Every file under ``folder`` (not under a ``__pycache__``), by its path in the folder and its
    bytes' sha256, in the order of their paths."""
    if "__pycache__" in folder.parts or not folder.is_dir():
        return
    for parts, path in _tree(str(folder)):
        if "__pycache__" not in parts and os.path.isfile(path):
            digest.update(os.path.join(*parts).encode("utf-8") + b"\0")
            with open(path, "rb") as handle:
                digest.update(hashlib.sha256(handle.read()).digest())


def _tree(folder: str) -> list[tuple[tuple[str, ...], str]]:
    """Everything under ``folder``, each as its path's parts in the folder and its path, sorted by
    the parts (as ``sorted(Path.rglob("*"))`` is); a folder linked to is listed, not entered (as
    ``rglob`` does). By ``os.scandir``: ``rglob`` and its Path objects made ``settings_key`` take
    13 ms (the package's modules, the templates' and schemas' files, about 300) of every rebuild by
    hand and every ``check`` of unchanged sources, against 3 ms so (bench/README.md)."""
    found: list[tuple[tuple[str, ...], str]] = []
    pending: list[tuple[tuple[str, ...], str]] = [((), folder)]
    while pending:
        parts, where = pending.pop()
        try:
            with os.scandir(where) as listing:
                entries = list(listing)
        except PermissionError:  # a folder it may not list: left out, as rglob leaves it
            continue
        for entry in entries:
            found.append((parts + (entry.name,), entry.path))
            try:
                inside = entry.is_dir() and not entry.is_symlink()
            except OSError:
                inside = False
            if inside:
                pending.append((parts + (entry.name,), entry.path))
    found.sort()
    return found


def quiz_key(settings: str, source: Path) -> str | None:
    """The key of one source: the settings, its path as diagnostics show it, and its bytes; None
    for what is not a regular file (the standard input, a pipe: read once, by the reader)."""
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            return None
        data = source.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(settings.encode("ascii"))
    digest.update(os.path.abspath(source).encode("utf-8", "surrogateescape") + b"\0")
    digest.update(str(source).encode("utf-8", "surrogateescape") + b"\0")
    digest.update(data)
    return digest.hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / key[:2] / key[2:]


#: How an entry is kept in memory by a watching process (:mod:`.memory`): not at all (a quiz's
#: entry, which :func:`load` changes as it takes it), as the object itself (one nothing changes
#: after taking it), or as its pickled bytes, made into a new object at each take.
NOT_KEPT, SHARED, PICKLED = "", "shared", "pickled"


@dataclass(frozen=True)
class _Pickled:
    """An entry kept in memory as its pickled bytes (:data:`PICKLED`)."""

    data: bytes


def _read(key: str, kept_as: str = NOT_KEPT) -> object | None:
    """What the entry of ``key`` holds, or None: missing, damaged or unreadable. ``kept_as``: how
    a watching process keeps it in memory (:mod:`.memory`), where it is taken from first."""
    found = recall(key) if kept_as else None
    if found is not None:
        if not isinstance(found, _Pickled):
            return found
        with collector_paused():
            return pickle.loads(found.data)
    path = _path(key)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    # The payload as a view of what was read, not a copy (a quiz's entry is tens of MB).
    head, checksum, payload = raw[:len(MAGIC)], raw[len(MAGIC):PAYLOAD_AT - 1], memoryview(raw)[PAYLOAD_AT:]
    if head != MAGIC or raw[PAYLOAD_AT - 1:PAYLOAD_AT] != b"\n" or _checksum(payload) != checksum:
        return None
    try:
        kind, body = bytes(payload[:1]), payload[1:]
        if kind not in (b"z", b"p"):
            return None
        data = zlib.decompress(body) if kind == b"z" else body
        with collector_paused():
            entry = pickle.loads(data)
    except Exception:  # a damaged entry whose checksum was damaged to match: still only a miss
        return None
    with contextlib.suppress(OSError):  # used now: the last to be pruned
        os.utime(path)
    _remember(key, entry, data, kept_as)
    return entry


def _remember(key: str, entry: object, data: bytes | memoryview | None, kept_as: str) -> None:
    """Keep ``entry`` in a watching process's memory as ``kept_as`` says (``data``: its pickled
    bytes, needed to keep it :data:`PICKLED`)."""
    if kept_as and keeping():
        if kept_as == PICKLED:
            assert data is not None
            remember(key, _Pickled(bytes(data)))
        else:
            remember(key, entry)


#: How a zip and a gzip file start: outputs compressed already.
_COMPRESSED = (b"PK\x03\x04", b"\x1f\x8b")


@dataclass(frozen=True)
class _StoredQuiz:
    """A :class:`CachedQuiz` as its file holds it: the outputs apart, each as (deflated, bytes). A
    zip or a gzipped tar (the Moodle quiz backup) is kept as it is (compressed already: deflating
    a 10 MB package again took 0.4 s of a rebuild and saved a tenth of it), the rest deflated;
    the entry's file is then not deflated as a whole."""

    entry: CachedQuiz
    contents: dict[str, tuple[bool, bytes]]
    #: The quiz's model pickled apart from the rest (the entry's result has none), and what the
    #: command line says of it: an unchanged quiz's ``check`` says that without unpickling the
    #: model, nor importing pydantic and the model's classes to do it (``QuizResult.thawing``).
    quiz: bytes
    facts: QuizFacts
    #: Where each question starts (``QuizResult.spans``), pickled apart too: with the model, in the
    #: process that pickles it ahead (:class:`PickledAhead`).
    spans: bytes

    @classmethod
    def of(cls, entry: CachedQuiz, ahead: _PickledQuiz | None = None) -> _StoredQuiz:
        """``ahead``: the model, its spans and facts as :meth:`PickledAhead.take` gave them."""
        quiz, facts = entry.result.quiz, entry.result.facts()
        assert quiz is not None and facts is not None  # a quiz is kept only when it was read and built
        packing = _taken_soon(entry.contents) or _packed_beside(entry.contents)
        pickled, spans = (ahead.quiz, ahead.spans) if ahead is not None else (_pickled(quiz), _pickled(entry.result.spans))
        return cls(replace(entry, result=replace(entry.result, _quiz=None, _facts=None, spans={}), contents={}), packing(),
                   pickled, facts, spans)

    def unpacked(self) -> CachedQuiz:
        """The entry as it was kept. Raises what damaged bytes behind a matching checksum raise."""
        entry = replace(self.entry, contents={name: zlib.decompress(data) if deflated else data
                                              for name, (deflated, data) in self.contents.items()})
        entry.result.spans = _unpickled(self.spans)
        entry.result.thawing(functools.partial(_unpickled, self.quiz), self.facts)
        return entry


#: Bytes of outputs to deflate from which a quiz's entry deflates them on a thread of their own
#: (:func:`_packed_beside`): a 10,000-question bank's Moodle XML file, 17 MB, took 0.05 s.
DEFLATE_BESIDE_FROM = 1024 * 1024


def _packed(contents: dict[str, bytes]) -> dict[str, tuple[bool, bytes]]:
    """Each output as :attr:`_StoredQuiz.contents` keeps it: (deflated, bytes)."""
    return {name: (False, data) if data.startswith(_COMPRESSED) else (True, zlib.compress(data, 1))
            for name, data in contents.items()}


def _packed_beside(contents: dict[str, bytes]) -> Callable[[], dict[str, tuple[bool, bytes]]]:
    """:func:`_packed` of ``contents``, started now on a thread of its own when there are many
    bytes to deflate, and what gives it once done (what the thread raised, raised there). zlib lets
    go of Python's lock while it deflates, so on a second CPU the outputs (a 10,000-question bank's
    Moodle XML file: 0.05 s) are deflated while this thread pickles the quiz's model (0.1-0.14 s),
    rather than after it: the entry is still written whole, in the command's own time, before the
    command returns (the next command finds it), and no thread of it is left running."""
    if sum(len(data) for data in contents.values() if not data.startswith(_COMPRESSED)) < DEFLATE_BESIDE_FROM:
        packed = _packed(contents)
        return lambda: packed
    import threading

    box: dict[str, Any] = {}

    def deflate() -> None:
        try:
            box["packed"] = _packed(contents)
        except BaseException as exc:  # raised again in the thread that waits for it
            box["error"] = exc

    thread = threading.Thread(target=deflate, name="qti-builder cache entry", daemon=True)
    thread.start()

    def done() -> dict[str, tuple[bool, bytes]]:
        thread.join()
        if "error" in box:
            raise box["error"]
        packed: dict[str, tuple[bool, bytes]] = box["packed"]
        return packed

    return done


#: The outputs :func:`pack_soon` is deflating, by the identity of the dict it was given: that
#: dict, and for each output started, the bytes it held then and what gives them packed.
_SOON: dict[int, tuple[dict[str, bytes], dict[str, tuple[bytes, Callable[[], dict[str, tuple[bool, bytes]]]]]]] = {}


def pack_soon(contents: dict[str, bytes], name: str | None = None) -> None:
    """Start deflating a quiz's outputs for its entry now (:func:`_packed_beside`), as soon as
    they are made, rather than when the entry is stored: :func:`store` of an entry whose
    ``contents`` is this dict, holding the same bytes, takes them (:func:`_taken_soon`). So the
    deflate (a 10,000-question bank's Moodle XML file: 0.035 s of a rebuild by hand, which the
    model pickled ahead no longer hid) runs on a second CPU while the build stages and commits
    its files, not while the command waits for it. :func:`drop_soon` waits for those not taken.
    ``name``: that output alone, now, when it is big and not compressed already (the Moodle XML
    file, made before the last output is put together: its deflate, 0.05 s, then no longer
    ended after the command's thread had got to the entry, bench/README.md); the others with
    the call without ``name``, once all are made. Not in a watching process, whose entries are
    written in a process forked for them (a thread does not follow a fork), off the build's
    path already."""
    if keeping():
        return
    given, started = _SOON.setdefault(id(contents), (contents, {}))
    if given is not contents:
        return
    if name is not None:
        data = contents[name]
        if name in started or len(data) < DEFLATE_BESIDE_FROM or data.startswith(_COMPRESSED):
            return
        todo = {name: data}
    else:
        todo = {other: data for other, data in contents.items() if other not in started}
        # a zip or a gzipped tar is kept as it is: no deflate (nor thread) for those alone
        whole = {other: (False, data) for other, data in todo.items() if data.startswith(_COMPRESSED)}
        started.update((other, (todo.pop(other), lambda: whole)) for other in whole)
        if not todo:
            return
    done = _packed_beside(todo)
    started.update((other, (data, done)) for other, data in todo.items())


def _taken_soon(contents: dict[str, bytes]) -> Callable[[], dict[str, tuple[bool, bytes]]] | None:
    """What :func:`pack_soon` started for ``contents``, when it started every output of it and
    it still holds the same bytes."""
    found = _SOON.pop(id(contents), None)
    if found is None:
        return None
    given, started = found
    dones = list({id(done): done for _, done in started.values()}.values())
    if given is contents and started.keys() == contents.keys() and all(data is contents[name] for name, (data, _) in started.items()):
        def packed() -> dict[str, tuple[bool, bytes]]:
            made: dict[str, tuple[bool, bytes]] = {}
            for done in dones:
                made.update(done())
            return {name: made[name] for name in contents}

        return packed
    for done in dones:
        _join(done)
    return None


def drop_soon() -> None:
    """Wait for every deflate :func:`pack_soon` started that no entry took (its quiz failed, or
    was not kept), and forget it: no thread of the build's entries outlives the build."""
    while _SOON:
        for _, done in _SOON.popitem()[1][1].values():
            _join(done)


def _join(done: Callable[[], object]) -> None:
    with contextlib.suppress(Exception):  # what it raised concerns no entry now
        done()


def _unpickled(data: bytes) -> Any:
    """A cache entry's quiz model (:attr:`_StoredQuiz.quiz`), when it is first asked for."""
    with collector_paused():
        return pickle.loads(data)


def load(key: str, source: Path, options: BuildOptions) -> CachedQuiz | None:
    """The entry of ``key``, or None: missing, damaged, made for another key, or a media file
    that changed. The result's outputs are put in ``options.out_dir``."""
    stored = _read(key)
    if not isinstance(stored, _StoredQuiz) or not isinstance(stored.entry, CachedQuiz) or stored.entry.key != key \
            or not _media_unchanged(stored.entry.media, source.parent, options):
        return None
    try:
        entry = stored.unpacked()
    except Exception:  # damaged bytes behind a checksum that matches them: still only a miss
        return None
    result = entry.result
    result.source = source
    result.outputs = [replace(o, path=options.out_dir / o.path.name) for o in result.outputs]
    result.timings = dict.fromkeys(STAGES, 0.0)
    result.written = False
    return entry


def _media_unchanged(media: tuple[tuple[str, str], ...], base_dir: Path, options: BuildOptions) -> bool:
    if not media:
        return True
    from .media import locate

    for ref, sha256 in media:
        found = locate(ref, base_dir, options.max_media_bytes)
        try:
            if isinstance(found, str) or hashlib.sha256(found.read_bytes()).hexdigest() != sha256:
                return False
        except OSError:
            return False
    return True


def media_of(media: MediaSet) -> tuple[tuple[str, str], ...]:
    return tuple((f.ref, hashlib.sha256(f.data).hexdigest()) for f in media.files)


@dataclass(frozen=True)
class _PickledQuiz:
    """What :class:`PickledAhead` made of a quiz: its model and spans pickled (:func:`_pickled`),
    and its facts."""

    quiz: bytes
    spans: bytes
    facts: QuizFacts


class PickledAhead:
    """A quiz's model pickled as its entry keeps it (:func:`_pickled`), in a process forked for it
    as soon as the model is made (once read), while this one goes on with the build: the entry
    then takes the bytes rather than pickling the model itself at the end (a 10,000-question
    bank's model, 60,000 pydantic models, was 0.14-0.18 s of a rebuild by hand's own thread, with
    a second CPU idle by then, bench/README.md). So are the quiz's spans (10,000 of them: 0.007 s)
    and its facts worked out (``QuizFacts.of``: 0.007 s), both made of what was read only. The
    process writes the bytes to a temporary file in the cache folder and ends; :meth:`take` waits
    for it. Anything that goes wrong there (no fork, a full disk, an error in the process) is
    None: the entry pickles the model itself, as before. Not in a watching process, which writes
    the whole entry in a process of its own."""

    def __init__(self, quiz: Quiz, spans: dict[str, SourceSpan] | None = None) -> None:
        self.quiz: Quiz | None = quiz
        self.spans = spans
        self.pid = 0
        self.path: str | None = None
        try:
            folder = cache_dir()
            folder.mkdir(parents=True, exist_ok=True)
            fd, self.path = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
        except OSError:
            return
        try:
            self.pid = os.fork()
        except OSError:
            os.close(fd)
            self._remove()
            return
        if self.pid == 0:  # the forked process: the bytes into the file, then out, nothing else run
            code = 1
            try:
                with os.fdopen(fd, "wb") as handle:
                    parts = [_pickled(QuizFacts.of(quiz)), _pickled(spans if spans is not None else {})]
                    for part in parts:
                        handle.write(len(part).to_bytes(8, "big"))
                        handle.write(part)
                    handle.write(_pickled(quiz))
                code = 0
            finally:
                os._exit(code)
        os.close(fd)

    def take(self, quiz: Quiz, spans: dict[str, SourceSpan]) -> _PickledQuiz | None:
        """What the process made of ``quiz`` and ``spans``, when they are the objects it was forked
        with (nothing changes a model once validated, nor the spans read with it), else None."""
        same = quiz is self.quiz and spans is self.spans
        data = self.close()
        if not same or data is None:
            return None
        view, parts = memoryview(data), []
        for _ in range(2):
            size = int.from_bytes(view[:8], "big")
            parts.append(bytes(view[8:8 + size]))
            view = view[8 + size:]
        try:
            facts = _unpickled(parts[0])
        except Exception:
            return None
        return _PickledQuiz(bytes(view), parts[1], facts) if isinstance(facts, QuizFacts) else None

    def close(self) -> bytes | None:
        """Wait for the process (once) and take its bytes; None when it did not write them whole."""
        pid, self.pid, self.quiz = self.pid, 0, None
        data = None
        try:
            if pid:
                _, status = os.waitpid(pid, 0)
                if os.waitstatus_to_exitcode(status) == 0 and self.path is not None:
                    data = Path(self.path).read_bytes()
        except OSError:
            data = None
        finally:
            self._remove()
        return data

    def _remove(self) -> None:
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            self.path = None


def store(entry: CachedQuiz, ahead: PickledAhead | None = None) -> None:
    """Keep ``entry`` (its paths made relative: the next build gives its own). The quiz's facts are
    worked out on ``entry``'s own result, which the copy kept shares them with: the command line
    says them next, and worked out on the copy alone they were worked out twice (0.02 s of a
    10,000-question bank's rebuild); or given to it as the process that pickled the quiz ahead
    worked them out."""
    taken = ahead.take(entry.result.quiz, entry.result.spans) if ahead is not None and entry.result.quiz is not None else None
    if taken is not None:
        entry.result.given_facts(taken.facts)
    entry.result.facts()
    relative = replace(entry, result=replace(entry.result, source=Path(entry.result.source.name),
                                             outputs=[replace(o, path=Path(o.path.name)) for o in entry.result.outputs]))
    _write(entry.key, _StoredQuiz.of(relative, taken), deflate=False)


@dataclass(frozen=True)
class CachedChunk:
    """What one task of a big quiz made of its chunk of questions in one target (the pipeline's
    ``TaskResult``, held as it is), by a key that covers the chunk's questions and their sections
    (:func:`chunk_key`): a bank with one question edited renders and validates only that
    question's chunk again."""

    key: str
    result: object


def chunk_content(chunk: Quiz, media: MediaSet, known: Mapping[int, tuple[object, str]] | None = None) -> str:
    """A digest of what a chunk's documents are rendered from, in any target: the chunk (the quiz
    with only its questions, in their sections), what each section's questions are worth as a
    group, and the quiz's media. Computed once per chunk, not once per target: the chunk's
    canonical JSON is most of a key's cost. In a watch, taken from memory for a chunk of the same
    question objects as a build before (:class:`_KeptContent`). ``known``: a digest of the data
    of questions by their identity (``source_map.question_contents``), which stands for their
    JSON (:func:`_canonical_json`)."""
    kept = _KeptContent.of(chunk, media) if keeping() else None
    found = recall(kept.key) if kept is not None else None
    if kept is not None and isinstance(found, _KeptContent) and found.same(kept):
        remember(kept.key, found)
        return found.content
    digest = hashlib.sha256(_canonical_json(chunk, known))
    digest.update(repr([section.group_points() for _, section in chunk.iter_sections()]).encode())
    digest.update(repr(media_of(media)).encode())
    content = digest.hexdigest()
    if kept is not None:
        remember(kept.key, replace(kept, content=content))
    return content


def _canonical_json(chunk: Quiz, known: Mapping[int, tuple[object, str]] | None = None) -> bytes:
    """All of ``chunk`` as JSON, in pieces that say what each is: the quiz's own fields, then
    each section's own fields with its depth (depth first: the depths give the tree back), each
    followed by its questions, each as its own class serializes it (its ``type`` in it). The
    same fields as ``chunk.model_dump_json()``, but a question is not serialized through the
    model's union of question kinds, which picks each one's class at a cost: 0.06 s for a
    10,000-question bank's chunks against 0.04 s (bench/README.md).

    A question in ``known`` (by its identity, itself beside its digest) is its data's digest
    instead, tagged apart from the JSON (``d``, 64 hex digits; JSON holds no NUL): its model is a
    function of those data and of the quiz's own fields, which are here (``SourceMap.question_digests``).
    A rebuild after one edit then serializes only the questions it read again, not 10,000
    (0.04 s, bench/README.md)."""
    parts = [b"Q", chunk.__pydantic_serializer__.to_json(chunk, exclude={"sections"})]
    get = (known or {}).get
    for path, section in chunk.iter_sections():
        parts += [b"\0S%d\0" % len(path), section.__pydantic_serializer__.to_json(section, exclude={"questions", "sections"})]
        for q in section.questions:
            found = get(id(q))
            parts.append(b"\0d" + found[1].encode("ascii") if found is not None and found[0] is q
                         else b"\0q" + type(q).__pydantic_serializer__.to_json(q))
    return b"".join(parts)


@dataclass(frozen=True)
class _KeptContent:
    """A chunk's :func:`chunk_content` in a watching process, by the chunk's question objects
    themselves and all else it is made of (the quiz's and each section's own fields, what each
    section's questions are worth as a group, where each section sits, the media): a rebuild's
    questions whose data did not change are the model objects of the build before
    (readers/kept_model.py), and nothing changes a model object once validated, so the same
    objects have the same canonical JSON, which is not made again (each chunk's was 0.07 s of a
    10,000-question bank's watch rebuild, bench/README.md). The entry holds the objects, so no
    other object can take the identity of one while it is kept."""

    key: str
    questions: tuple[object, ...]
    content: str = ""

    @classmethod
    def of(cls, chunk: Quiz, media: MediaSet) -> _KeptContent:
        questions: list[object] = []
        parts = [chunk.model_dump_json(exclude={"sections"}), repr(media_of(media))]
        for path, section in chunk.iter_sections():
            parts += [str(len(path)), section.model_dump_json(exclude={"questions", "sections"}), repr(section.group_points()),
                      ",".join(str(id(q)) for q in section.questions)]
            questions += section.questions
        key = hashlib.sha256("\0".join(["kept chunk content", *parts]).encode("utf-8", "surrogateescape")).hexdigest()
        return cls(key, tuple(questions))

    def same(self, other: _KeptContent) -> bool:
        return self.key == other.key and len(self.questions) == len(other.questions) \
            and all(a is b for a, b in zip(self.questions, other.questions))


def chunk_key(settings: str, target: str, content: str, placement: Hashable = None) -> str:
    """The key of a chunk's documents in ``target``: the build's settings, the chunk's
    :func:`chunk_content`, and where the chunk sits in the quiz when the target's documents
    depend on it (``Writer.placements``: the backup's ids)."""
    digest = hashlib.sha256(f"{settings}\0chunk\0{target}\0{content}".encode())
    digest.update(repr(placement).encode("utf-8"))
    return digest.hexdigest()


#: The chunks' entries a build took from the cache folder (:func:`load_chunk`) outside a watch:
#: held until the next build's :func:`look_up`, or the process's end.
_TAKEN: list[CachedChunk] = []


def load_chunk(key: str) -> object | None:
    """The result kept for a chunk's key, or None. Outside a watch (whose memory keeps entries
    its own way) the entry is held until the next build looks its quizzes up (:data:`_TAKEN`):
    the build drops its chunks' results when its work is done, and a rebuild by hand of a
    10,000-question bank then freed its 156 chunks' documents object by object before it could
    go on (0.02 s of CPU, 0.035-0.13 s of wall on a loaded machine, bench/README.md), where a
    command's fast exit leaves them to the OS."""
    entry = _read(key, SHARED)  # the pipeline takes a chunk's documents (frozen) as they are
    if not isinstance(entry, CachedChunk) or entry.key != key:
        return None
    if not keeping():
        _TAKEN.append(entry)
    return entry.result


def remember_chunk(key: str, result: object) -> None:
    """Keep in memory (a watching process's, :mod:`.memory`) a chunk's result that a worker
    rendered and kept in the cache folder, as :func:`load_chunk` would give it back: the first
    save after the watch's cold build then takes every chunk it did not change from memory, not
    from the folder (0.1 s of a 10,000-question bank's rebuild). Its question documents are
    held as the worker sent them (not compressed again for this: a cold build would pay it)."""
    if keeping() and recall(key) is None:
        remember(key, CachedChunk(key, result))


def store_chunk(key: str, result: object, deflate: bool = False) -> None:
    """Keep a chunk's result; ``deflate``: whether its entry is deflated whole (the pipeline keeps
    none so, ``pipeline._chunk_entry``: a QTI 2.1 chunk's zip entries are compressed already, and
    inflating a Moodle chunk's documents took a rebuild longer than reading them as they are)."""
    _write(key, CachedChunk(key, result), deflate, SHARED)


@dataclass(frozen=True)
class CachedPiece:
    """A reader's reading of one piece of a large source (``readers.markdown.pieces``), by a key
    of the piece's text and the reader's settings (:func:`piece_key`): a bank with one question
    edited reads only that question's piece again."""

    key: str
    reading: object


def piece_key(code: str, key: str) -> str:
    """The entry's key of a piece the reader keys ``key``, under qti-builder's code ``code``
    (:func:`code_key`): the reader's key covers its text and settings, not the reader itself."""
    return hashlib.sha256(f"{code}\0piece\0{key}".encode("ascii")).hexdigest()


def load_piece(key: str) -> object | None:
    entry = _read(key, PICKLED)  # its model data goes into the quiz's, which the reader may change
    return entry.reading if isinstance(entry, CachedPiece) and entry.key == key else None


def store_piece(key: str, reading: object) -> None:
    # Not deflated: a rebuild of a 10,000-question bank after one edit takes 99 pieces' entries,
    # and inflating them cost it more (0.015 s) than reading and checksumming their bytes whole
    # does (the bank's cache folder 5 MB larger, 70 MB; bench/README.md).
    _write(key, CachedPiece(key, reading), deflate=False, kept_as=PICKLED)


@dataclass(frozen=True)
class CachedRuns:
    """The deflated runs of one output of one source (``package.Deflated``), by a key of what each
    run is made of (the pipeline's ``_KeptRuns``): the next build of the source deflates only the
    runs whose questions or frame text changed. Replaced by each build with the runs it used."""

    key: str
    runs: dict[str, object]


def runs_key(settings: str, source: Path, target: str) -> str:
    """Where the deflated runs of ``source``'s output in ``target`` are kept: by the build's
    settings, the source's path and the target, not its content (each run has its own key)."""
    where = os.path.abspath(source).encode("utf-8", "surrogateescape").hex()
    return hashlib.sha256(f"{settings}\0runs\0{target}\0{where}".encode("ascii")).hexdigest()


def load_runs(key: str) -> dict[str, object]:
    entry = _read(key, SHARED)  # read, never changed: each build keeps a new dict of the runs it used
    return entry.runs if isinstance(entry, CachedRuns) and entry.key == key else {}


def store_runs(key: str, runs: dict[str, object]) -> None:
    _write(key, CachedRuns(key, runs), deflate=False, kept_as=SHARED)  # deflated already


@dataclass(frozen=True)
class CachedChunkKeys:
    """The keys of the chunks one source's last build by hand took or rendered, by target (the
    pipeline's record: each chunk's questions and its key), by a key of the build's settings and
    the source's path (:func:`chunk_keys_key`), not its content: the next build finds there the
    result of the chunk that held an edited question before, and takes its unchanged questions'
    documents from it. Replaced by each build; only a hint, whatever it points to is checked."""

    key: str
    chunks: object


def chunk_keys_key(settings: str, source: Path) -> str:
    """Where the chunks' keys of ``source``'s last build are kept (:class:`CachedChunkKeys`)."""
    where = os.path.abspath(source).encode("utf-8", "surrogateescape").hex()
    return hashlib.sha256(f"{settings}\0chunk keys\0{where}".encode("ascii")).hexdigest()


def load_chunk_keys(key: str) -> object | None:
    entry = _read(key)
    return entry.chunks if isinstance(entry, CachedChunkKeys) and entry.key == key else None


def store_chunk_keys(key: str, chunks: object) -> None:
    # Not deflated: every rebuild by hand after an edit writes the record again and the next reads
    # it; a 10,000-question bank's (250 KB pickled, 80 KB deflated) took 2.2 ms to deflate and 1 ms
    # to inflate, against 0.1 ms to checksum the bytes deflating saves (bench/README.md).
    _write(key, CachedChunkKeys(key, chunks), deflate=False)


@dataclass(frozen=True)
class CachedValid:
    """That the document of ``key`` (:func:`valid_key`: its bytes, kind and the build's settings)
    validated without a problem."""

    key: str


def valid_key(settings: str, schema: str, data: bytes) -> str:
    """The key of one document's validation: the build's settings (the schema folder, qti-builder's
    code), which schema judges it, and its bytes."""
    digest = hashlib.sha256(f"{settings}\0valid\0{schema}\0".encode("ascii"))
    digest.update(data)
    return digest.hexdigest()


def load_valid(key: str) -> bool:
    entry = _read(key, SHARED)
    return isinstance(entry, CachedValid) and entry.key == key


def store_valid(key: str) -> None:
    _write(key, CachedValid(key), kept_as=SHARED)


def _pickled(entry: object) -> bytes:
    """``entry`` pickled, each pydantic model in it (the quiz's model: tens of thousands of them in
    a 10,000-question bank) as its class and its four parts (:func:`_restored_model`) rather than
    through pydantic's ``__getstate__``, which builds a state dict per model that pickle then
    writes key by key: the quiz's model pickles in half the time (0.13 -> 0.07 s) and unpickles
    in three quarters of it (bench/README.md). The parts are those pydantic's own pickling keeps,
    private attributes unset left out as it leaves them."""
    buffer = io.BytesIO()
    _dump(entry, buffer)
    return buffer.getvalue()


def _dump(entry: object, into: Any) -> None:
    """``entry`` pickled as :func:`_pickled` pickles it, written to the file ``into`` as it goes
    (pickle writes a big ``bytes`` object, an output kept in a quiz's entry, to the file as it is,
    rather than copying it into its buffer)."""
    pickler = pickle.Pickler(into, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _reducers()
    with collector_paused():  # what pickle keeps of each model until the end is no garbage either
        pickler.dump(entry)


def _reducers() -> dict[type, Any]:
    """copyreg's table, with every pydantic model class known now that pickles as pydantic's
    ``BaseModel`` does reduced by :func:`_reduced_model` (a model of a class made later, or of one
    with its own way, is pickled as it always was: the same object back)."""
    from pydantic import BaseModel
    from pydantic_core import PydanticUndefined

    _UNDEFINED[:] = [PydanticUndefined]
    table: dict[type, Any] = dict(copyreg.dispatch_table)
    own = ("__getstate__", "__setstate__", "__reduce__", "__reduce_ex__")
    classes, seen = [BaseModel], set()
    while classes:
        for subclass in classes.pop().__subclasses__():
            if subclass in seen:
                continue
            seen.add(subclass)
            classes.append(subclass)
            # A class that pickles itself its own way keeps its way.
            if subclass not in table and all(getattr(subclass, name) is getattr(BaseModel, name) for name in own):
                table[subclass] = _reduced_model
    return table


def _reduced_model(model: Any) -> tuple[Any, tuple[Any, ...]]:
    private = model.__pydantic_private__
    if private:
        private = {name: value for name, value in private.items() if value is not _UNDEFINED[0]}
    return _restored_model, (type(model), model.__dict__, model.__pydantic_fields_set__, model.__pydantic_extra__, private)


#: pydantic's mark of a private attribute not set (imported with pydantic, when a model is pickled).
_UNDEFINED: list[object] = []


def _restored_model(cls: Any, values: dict[str, Any], fields_set: set[str], extra: dict[str, Any] | None,
                    private: dict[str, Any] | None) -> Any:
    """A model as :func:`_reduced_model` kept it, made as pydantic's ``__setstate__`` makes one
    (no validation: it was validated when it was made)."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__pydantic_fields_set__", fields_set)
    object.__setattr__(model, "__pydantic_extra__", extra)
    object.__setattr__(model, "__pydantic_private__", private)
    object.__setattr__(model, "__dict__", values)
    return model


def _write(key: str, entry: object, deflate: bool = True, kept_as: str = NOT_KEPT) -> None:
    """Write an entry whole or not at all: a temporary file beside it, renamed into place. A cache
    that cannot be written (a read-only home) only means the next build does the work again. Its
    payload is the pickled entry, deflated ("z") or, for an entry that deflates its own parts, not
    ("p"). A watching process also keeps it in memory, ``kept_as`` says how (:func:`_read`), and
    writes it to the folder later, in the process it forks for the quiz's entry (``memory.later``:
    no build of its own reads it from there; pickled there too, unless kept pickled), rather
    than holding up the build for it: a rebuild's chunks, runs, pieces and checks took 0.02 s
    (one edit of a question edited before) to 0.05 s of a 10,000-question bank's rebuild."""
    if not kept_as:  # a quiz's entry: already written in a process of its own, in a watch
        _write_now(key, entry, deflate)
        return
    data = _pickled(entry) if kept_as == PICKLED else None
    _remember(key, entry, data, kept_as)
    later(functools.partial(_write_now, key, entry, deflate, data))


def _write_now(key: str, entry: object, deflate: bool, data: bytes | None = None) -> None:
    """:func:`_write`'s writing: ``entry`` (``data``, when pickled already) into its file. An entry
    not deflated and not pickled yet (a quiz's: its outputs' tens of MB) is pickled straight into
    the file, its checksum made as it is written and put in its place after: pickled into memory
    first, its bytes were copied there, then hashed and written (0.01 s of a 10,000-question
    bank's rebuild by hand, the 18 MB buffer's pages faulted in)."""
    if data is None and deflate:
        data = _pickled(entry)
    kind = b"z" if deflate else b"p"
    body = zlib.compress(data, 1) if data is not None and deflate else data
    target = _path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:  # in parts: a quiz's entry is tens of MB, not copied to be joined
                checksum = _Crc32(kind)
                if body is not None:
                    checksum.update(body)
                handle.write(MAGIC + checksum.hexdigest() + b"\n" + kind)
                if body is not None:
                    handle.write(body)
                else:
                    _dump(entry, _Hashed(handle, checksum))
                    handle.flush()
                    os.pwrite(handle.fileno(), checksum.hexdigest(), len(MAGIC))
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return


def _checksum(payload: bytes | memoryview) -> bytes:
    """An entry's checksum of its payload, as its file holds it: the payload's CRC-32 in 8 hex
    digits. zlib's CRC ran three times as fast as the sha256 the entries had (a rebuild by hand
    of a 10,000-question bank reads about 50 MB of entries and writes 20 MB, bench/README.md). It
    finds any damage of up to 32 bits in a row and misses other damage once in 4 billion times; the
    entry's key, checked when it is read, is what ties it to its content, and no checksum kept
    beside the data (a sha256 neither) keeps out someone who can write the folder."""
    return b"%08x" % zlib.crc32(payload)


def framed(payload: bytes) -> bytes:
    """An entry's file as :func:`_write_now` writes it, of its ``payload`` (its kind, then its body)."""
    return MAGIC + _checksum(payload) + b"\n" + payload


class _Crc32:
    """:func:`_checksum` made as the payload is written, in parts (hashlib's ``update`` and
    ``hexdigest``, for :class:`_Hashed`)."""

    def __init__(self, data: bytes) -> None:
        self.crc = zlib.crc32(data)

    def update(self, data: bytes | memoryview) -> None:
        self.crc = zlib.crc32(data, self.crc)

    def hexdigest(self) -> bytes:
        return b"%08x" % self.crc


class _Hashed:
    """A file that what is written to it goes through, into ``digest`` as well."""

    def __init__(self, handle: Any, digest: Any) -> None:
        self.handle = handle
        self.digest = digest

    def write(self, data: Any) -> int:
        self.digest.update(data)
        written: int = self.handle.write(data)
        return written


def prune(limit: int = LIMIT_BYTES) -> None:
    """Remove the entries used least recently (by their time, renewed when an entry is taken)
    until the cache holds at most ``limit`` bytes; a temporary file left by a build that was
    killed goes when it is an hour old."""
    entries: list[tuple[float, int, Path]] = []
    try:
        for folder in cache_dir().iterdir():
            if folder.is_dir():
                for path in folder.iterdir():
                    info = path.stat()
                    if path.name.endswith(".tmp") and info.st_mtime < time.time() - 3600:
                        path.unlink()
                    else:
                        entries.append((info.st_mtime, info.st_size, path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        with contextlib.suppress(OSError):
            path.unlink()
        total -= size


__all__ = ["ENV_VAR", "PickledAhead", "CachedChunk", "CachedChunkKeys", "CachedPiece", "CachedQuiz", "CachedRuns", "CachedValid", "Lookup", "cache_dir", "collector_paused", "chunk_content", "chunk_key", "chunk_keys_key", "code_key", "load",
           "load_chunk", "load_chunk_keys", "load_piece", "load_runs", "load_valid", "look_up", "media_of", "pack_soon", "drop_soon", "piece_key", "prune", "quiz_key", "remember_chunk", "runs_key",
           "settings_key", "store", "store_chunk", "store_chunk_keys", "store_piece", "store_runs", "store_valid", "valid_key"]
