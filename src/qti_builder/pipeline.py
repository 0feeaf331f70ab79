"""The build, top to bottom:

1. **read** every source, each quiz with its own diagnostics, then the checks across quizzes; a
   large Markdown source in pieces (readers/markdown/pieces.py), kept in the build cache and read
   on forked workers; each quiz checked top-level section by section, apart from its checks across
   sections (quiz_checks.py: a piece's sections whose checks found nothing are remembered in the
   build cache beside it);
2. compile the **schemas** once, when a quiz read needs them (one without errors, or one read in
   part, whose questions without errors are checked by every output too), so that the workers
   forked next inherit them (not beside the read on a thread: lxml parsing on one thread can make
   a schema compiling on another fail on the names it imports), or, in this one thread, while
   forked workers read a large source's pieces;
3. **render, validate and compress** in tasks (:func:`plan`): one per quiz and target, and a big
   quiz's questions in chunks (its QTI items, its Moodle questions, its quiz backup's records)
   beside a "frame" task for the rest (QTI test and manifest, the Moodle file around its
   questions, the backup's other parts), run on every core
   (:mod:`.parallel`: workers forked for the chunks and small quizzes, this process for the
   frames and then for whatever chunks are left), each returning compressed entries or
   validated documents; a cold build's quizzes are checked (step 1's checks) while the workers
   already render them, when nothing they could find would change what is rendered
   (:func:`_checks_overlapped`, confirmed before any result is taken);
4. **write**: an output is put together as soon as its own tasks are done (a split quiz's last
   chunks run target by target, so the workers still render while this process puts the first
   targets together: :func:`_tail_last`), and written to a temporary file once its quiz's tasks
   are all done; at the end the files of every quiz without errors are renamed into place together.

A quiz with an error writes nothing and the others are written all the same, so one broken quiz
does not hold back a department's hundred; every problem of every quiz is reported at once. The
same sources give the same bytes whatever the number of workers: tasks are planned without
looking at it, and whatever their results' order, entries are sorted and diagnostics deduplicated
and sorted.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import gc
import hashlib
import itertools
import pickle
import time
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TypeGuard, cast

from .cache import (CachedQuiz, Lookup, PickledAhead, chunk_content, chunk_data_key, chunk_key, chunk_keys_key, code_key, collector_paused, load_chunk, load_chunk_data, load_chunk_keys, load_piece,
                    load_runs, load_valid, look_up, media_of, drop_soon, pack_soon, piece_key, prune, remember_chunk, runs_key, store, store_chunk, store_chunk_data, store_chunk_keys,
                    store_piece, store_runs, store_valid, touch, valid_key)
from .diagnostics import BuildFailed, Diagnostic, DiagnosticSink, Severity, SourceSpan, display_path
from .ignores import Accepted
from .losses import Loss
from .i18n import summary_words
from .media import MAX_MEDIA_BYTES, MediaSet
from .memory import in_background, keeping, recall, remember
from .model import Question, Quiz, Section
from .package import Deflated, Entry, LaidOut, Staging, WriteError, compress, deflated, spliced_entry, tar_parts, zip_parts
from .parallel import cpu_count, forks, run
from .quiz_checks import Memo, check_read
from .readers import SourceMap, read_quiz
from .readers.source_map import question_contents
from .readers.piece_cache import Pieces
from .results import (STAGES, BuildIncomplete, BuildOptions, BuildResult, OutputFile, QuizResult, conclude, find_sources,
                      question_counts)
from .schemas import SchemaSet, load_schemas, needs_download, resolve_schema_dir
from .templating import make_environment
from .validate import PACKAGE_RULES_READ, Fact, Facts, validate_documents, validate_package
from .writers import DEFAULT_FORMATS, WRITERS, Document, Output, Writer
from .writers.base import (PackedDocuments, Spliced, SplicedRun, assemble, file_pieces, frame_view, held, is_spliced, single_file,
                           view_digest)

#: Targets with one document per question, whose questions can be rendered in chunks: all of
#: them (a Moodle file and a Canvas assessment are put together from one document per question).
SPLIT_BY_QUESTION = {"qti21", "moodle", "canvas", "moodle-quiz"}
#: Targets split only when the quiz has no media: the Moodle quiz backup's files.xml lists the
#: files each record shows, which its frame, rendered apart from the records, cannot see.
SPLIT_WITHOUT_MEDIA = {"moodle-quiz"}
#: Questions per chunk: small enough to share a big quiz among the workers and to keep each
#: task's documents in memory only briefly, large enough that a task's overhead does not count.
CHUNK = 250
#: Questions rendered (summed over targets) below which a build stays in one process: forking
#: workers and splitting quizzes costs more than it saves on a small build (bench/README.md).
PARALLEL_FROM = 400
#: Questions at the end of a split quiz whose chunks are rendered last, target by target (at most
#: half of its chunks): enough work left for the workers while the parent puts the first targets
#: together (``_tail_last``), little enough that most chunks still share their Markdown across targets.
TAIL = 2_500
#: Targets in the order their outputs are put together at the end of a build, the one that takes
#: longest first (the quiz backup's rules across its parts and its gzip; the Moodle file, spliced
#: whole), so that the last, put together after every worker is done, is the quickest.
PUT_TOGETHER_FIRST = ("moodle-quiz", "moodle", "qti21", "canvas")
#: Questions of a quiz from which the question documents of its single files and Canvas
#: assessment, held until the file is put together, are held compressed: uncompressed they are
#: about 3.7 KB per question, 370 MB of a 100,000-question bank (the sizes of its Moodle file and
#: Canvas assessment); compressing them costs about 2 % of a build, which smaller quizzes do not pay.
HOLD_PACKED_FROM = 20_000


def build(options: BuildOptions, lookup: Lookup | None = None) -> BuildResult:
    """Build every quiz. Raises :class:`BuildIncomplete` (a :class:`BuildFailed`) when anything had
    an error. With ``options.cache``, a quiz found in the build cache (``lookup``, or looked up
    here) is taken from it, and each quiz built without errors is kept in it.

    Python's cyclic garbage collector is paused while the sources are read, and what was read is
    then frozen out of its reach (``gc.freeze``) until the build ends: reading makes the quizzes'
    models, hundreds of thousands of objects that live to the end of the build, and the collector,
    which runs again and again while a heap grows, walked them all each time (a tenth of a
    10,000-question build's CPU, a quarter to a third of its reading; bench/README.md). Frozen, they are not
    walked by the forked workers' collections either (nor their memory pages copied for it).
    Refcounting frees what it always did; the collector resumes for everything made after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build(options, lookup, collecting)
    finally:
        gc.unfreeze()  # a long-running process (watch, serve) collects this build's objects again
        if collecting:
            gc.enable()


def _build(options: BuildOptions, lookup: Lookup | None, collecting: bool) -> BuildResult:
    started = time.perf_counter()
    clock: dict[str, float] = {}
    results = [QuizResult(path) for path in find_sources(options.sources)]
    with _stage(clock, "read"):
        if lookup is None:
            lookup = look_up([r.source for r in results], options)
        lookup.thaw()  # the checks across quizzes read each model
        for i, entry in lookup.hits.items():
            results[i] = entry.result
    todo = [i for i in range(len(results)) if i not in lookup.hits]
    kept: dict[int, dict[str, bytes]] = {i: {} for i in lookup.keys if i not in lookup.hits}

    # Read, then compile the schemas, one after the other and both in this thread: lxml is not safe
    # to parse on one thread while another compiles a schema (the compile's imports are resolved
    # through a resolver that a concurrent parse can take away for a moment, and the schema then
    # fails on the names it imports). Compiling after reading also spares a build whose every
    # source fails the compile and any download. (A large source's pieces read on forked workers
    # are another matter: this process compiles the schemas while they read, see _SchemasAhead.)
    schemas = _SchemasAhead(options)
    checks: list[Callable[[], None]] | None = [] if _may_overlap_checks(options) else None
    with _stage(clock, "read"):
        loaded = _read(results, options, todo, lookup.hits, schemas.meanwhile, checks)
        if checks is not None and not _checks_overlapped(results, loaded, todo):
            for check in checks:
                check()
            checks = None
        good = _rendered_quizzes(loaded, results, options)
    gc.freeze()  # what was read lives to the end of the build: out of the collector's walks
    if collecting:
        gc.enable()
    ahead = _pickled_ahead(good, results, kept)
    clock.setdefault("schemas", 0.0)  # listed in every report, timed only when compiled
    clock["read"] -= schemas.seconds  # compiled while the workers read: the schemas' time
    clock["schemas"] += schemas.seconds

    build_errors = DiagnosticSink()
    build_errors.items.extend(unknown_selection(options, results))
    if build_errors.items:
        good = {}  # a question asked for that is not there: the selection is not what was meant
    staging = Staging()
    jobs = 1 if all(results[i].quiz is None for i in todo) else options.jobs or cpu_count()
    try:
        if good:
            with _stage(clock, "schemas"):
                compiled = schemas()  # SchemaError: the build cannot start
            with _stage(clock, "work"):
                jobs = _work_checked(good, loaded, checks, results, options, compiled, jobs, staging, kept, lookup.settings)
        with _stage(clock, "write"):
            for i, result in enumerate(results):
                if i in lookup.hits:  # as the build that kept it left it: --ignore and --strict are in the key
                    if options.write and not result.failed:
                        for output in result.outputs:
                            staging.write(output.path, [lookup.hits[i].contents[output.format]])
                    continue
                _accept(result, options.ignore)
                if options.strict:
                    _strict(result)
                if result.failed:
                    for output in result.outputs:
                        staging.forget(output.path)
            if options.write:
                staging.commit()
                for result in results:
                    result.written = bool(result.outputs) and not result.failed
            _keep(results, good, kept, lookup, ahead)
    except WriteError as exc:
        staging.discard()
        for result in results:
            result.written = False
        build_errors.error("QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                           hint="check that the output folder is writable and the disk has space; nothing was changed")
    finally:
        staging.discard()
        for pickling in ahead.values():  # each forked process waited for, its file removed
            pickling.close()
        drop_soon()  # and each deflate no entry took
    if lookup.hits:  # the report's stages are the same whether the quizzes came from the cache or not
        for stage in ("schemas", "work", "write"):
            clock.setdefault(stage, 0.0)
    clock["total"] = time.perf_counter() - started
    return conclude(results, build_errors.items, clock, jobs)


class _SchemasAhead:
    """The build's schemas, compiled when the build first asks for them, or ahead, in this
    process while forked workers read the pieces of a large source (:meth:`meanwhile`; no thread:
    lxml is unsafe to parse on one thread while another compiles). Ahead only when they need no
    download; whatever the compile raised is raised where the build asks for them, as if it had
    compiled them then."""

    def __init__(self, options: BuildOptions) -> None:
        self.options = options
        self.compiled: SchemaSet | None = None
        self.error: BaseException | None = None
        #: How long compiling ahead took (counted in the read stage's time until taken out).
        self.seconds = 0.0

    def meanwhile(self) -> None:
        if self.compiled is not None or self.error is not None or needs_download(self.options.schemas):
            return
        started = time.perf_counter()
        try:
            self.compiled = self._compile()
        except Exception as exc:  # SchemaError and the like: the build's to report, where it asks
            self.error = exc
        self.seconds += time.perf_counter() - started

    def __call__(self) -> SchemaSet:
        if self.error is not None:
            raise self.error
        if self.compiled is None:
            self.compiled = self._compile()
        return self.compiled

    def _compile(self) -> SchemaSet:
        return load_schemas(resolve_schema_dir(self.options.schemas), frozenset(self.options.formats))


# -- 1. read -------------------------------------------------------------------------------------


@dataclass
class LoadedQuiz:
    """One source, read and checked."""

    path: Path
    quiz: Quiz
    source: SourceMap
    media: MediaSet
    #: ``WritableQuiz.contents``, made as the quiz was read.
    contents: Mapping[int, tuple[object, str]] = field(default_factory=dict)

    @cached_property
    def spans(self) -> dict[str, SourceSpan]:
        return self.source.question_spans(self.quiz)


@dataclass(frozen=True)
class WritableQuiz:
    """What the stages after reading need of a quiz without errors: the model, where its
    questions start (problems found in its outputs are located there) and its media. Not its
    source map, where every part of it came from: a dozen entries per question, which a
    100,000-question source would hold through rendering for nothing."""

    quiz: Quiz
    spans: dict[str, SourceSpan]
    media: MediaSet
    #: Where the source gives the quiz's id (kept in the build cache, for the check of unique ids).
    id_span: SourceSpan | None = None
    #: A digest of the data of each question that has one, by its identity (the question beside
    #: it): what the chunks' keys take in place of its JSON (``source_map.question_contents``).
    contents: Mapping[int, tuple[object, str]] = field(default_factory=dict)


def _rendered_quizzes(loaded: dict[int, LoadedQuiz], results: list[QuizResult], options: BuildOptions) -> dict[int, WritableQuiz]:
    """The quizzes the stages after reading render, as they take them: those read without errors,
    and those read in part (the questions an error lies in left out), so that what the outputs
    themselves refuse (a score Moodle cannot store, a Canvas rule) is reported in the same run as
    the reading's errors, not in a second run once those are fixed. A quiz with errors is
    rendered and validated only to be told its problems, without the questions an error lies in
    (what an output makes of those would be an echo of the error): :func:`_finish` writes nothing
    of it. When no quiz can be written and the schemas would have to be downloaded, none is
    rendered: a build that writes nothing does not go to the network for it."""
    rendered: dict[int, WritableQuiz] = {}
    for i, item in loaded.items():
        quiz: Quiz | None = item.quiz
        if results[i].failed:
            quiz = _without_questions_in_error(item, results[i].diagnostics)
        if quiz is not None:
            rendered[i] = WritableQuiz(quiz, item.spans, item.media, item.source.locate(("id",)), item.contents)
    if all(results[i].failed for i in rendered) and needs_download(options.schemas):
        return {}
    return rendered


def _without_questions_in_error(item: LoadedQuiz, diagnostics: list[Diagnostic]) -> Quiz | None:
    """The quiz without the questions in whose lines an error lies; None when none is left. The
    questions the reader left out still mark where the question before them ends."""
    from .selection import select_questions

    starts = sorted([(span.line, span.column, ident) for ident, span in item.spans.items() if span.path == item.source.path]
                    + [(line, 0, "") for line in item.source.left_out])
    in_error = set()
    for d in diagnostics:
        if d.severity is Severity.ERROR and d.span is not None and d.span.path == item.source.path:
            at = bisect.bisect_right(starts, (d.span.line, d.span.column, "\uffff")) - 1
            if at >= 0:
                in_error.add(starts[at][2])
    clean = frozenset(q.id for q in item.quiz.iter_questions() if q.id not in in_error)
    return select_questions(item.quiz, clean) if clean else None


def load_quizzes(options: BuildOptions, sink: DiagnosticSink) -> list[LoadedQuiz]:
    """Read every source and check its content and media; problems go to ``sink``."""
    results = [QuizResult(path) for path in find_sources(options.sources)]
    loaded = _read(results, options)
    sink.items.extend(d for r in results for d in r.diagnostics)
    return list(loaded.values())


def _read(results: list[QuizResult], options: BuildOptions, todo: list[int] | None = None,
          hits: Mapping[int, CachedQuiz] | None = None, meanwhile: Callable[[], None] | None = None,
          checks_later: list[Callable[[], None]] | None = None) -> dict[int, LoadedQuiz]:
    """Read the sources of ``results`` (those in ``todo``; the others are the cache's ``hits``)
    and check them; ``meanwhile`` runs in this process while workers read a large source's
    pieces. Given ``checks_later``, the checks are put there, in the order they would have run,
    rather than run (:func:`_checks_overlapped`): each quiz's media are then not known until they run."""
    loaded: dict[int, LoadedQuiz] = {}
    code = code_key() if options.cache else ""
    pieces = _pieces(options, code, meanwhile)
    memo = _memo(code) if options.cache else None
    checks: list[Callable[[], None]] = []
    for i in range(len(results)) if todo is None else todo:
        result = results[i]
        started = time.perf_counter()
        sink = DiagnosticSink()
        read = read_quiz(result.source, sink, options.limits, partial=True, pieces=pieces)
        # Its questions' digests, by their identity, as they are read (before any selection), and
        # only of a quiz read without an error (its questions' data as the reader made them).
        contents = question_contents(*read) if read and not read[1].partial and read[1].question_digests else {}
        if read and options.only is not None:
            read = _selected(read, options.only)
        if read:
            quiz, source = read
            if options.qti_variants is not None:
                quiz = quiz.model_copy(update={"settings": quiz.settings.model_copy(update={"qti_variants": options.qti_variants or None})})
            result.quiz = quiz
            spans = source.question_spans(quiz)
            loaded[i] = LoadedQuiz(result.source, quiz, source, MediaSet(), contents)
            loaded[i].spans = result.spans = spans
        result.timings["read"] = time.perf_counter() - started
        checks.append(functools.partial(_check_quiz, results, i, loaded, sink, options, memo))
    checks.append(lambda: _check_unique_ids(results, loaded, hits or {}))
    checks.append(lambda: _check_unique_categories(results, loaded, hits or {}))
    if checks_later is not None:
        checks_later += checks
    else:
        for check in checks:
            check()
    return loaded


def _check_quiz(results: list[QuizResult], i: int, loaded: dict[int, LoadedQuiz], sink: DiagnosticSink,
                options: BuildOptions, memo: Memo | None) -> None:
    """The checks of quiz ``i`` once read (if anything could be read), into ``sink`` after the
    reading's own problems, then all of them into its result."""
    result, item = results[i], loaded.get(i)
    started = time.perf_counter()
    if item is not None:
        item.media, result.losses = check_read(item.quiz, item.source, result.source.parent, sink, item.spans, options.formats,
                                               options.max_media_bytes, options.profile, memo if options.only is None else None)
        if options.outline:
            from .outline import build_outline, read_lines  # here: only ``check --outline`` needs it

            result.outline = build_outline(item.quiz, item.source, read_lines(result.source),
                                           summary_words(options.outline_language or item.quiz.language))
    result.diagnostics.extend(sink.items)
    result.language = result.quiz.language if result.quiz is not None else sink.language
    result.timings["read"] += time.perf_counter() - started


def _may_overlap_checks(options: BuildOptions) -> bool:
    """Whether the build may check its quizzes while the workers already render them
    (:func:`_checks_overlapped`): one with workers, and without ``--only`` (whose names are
    checked against the quizzes before anything renders)."""
    return options.only is None and (options.jobs or cpu_count()) > 1 and forks()


def _checks_overlapped(results: list[QuizResult], loaded: dict[int, LoadedQuiz], todo: list[int]) -> bool:
    """Whether the quizzes just read are rendered while this process checks them, as if the
    checks found no error, no media file and no formula (what the render depends on): when every
    one was read without an error and no source has a character a formula or a media reference
    needs (``content.bytes_may_hold_math_or_media``: a look at its bytes, not a reading). The checks'
    work, a cold build's serial share before any render, then overlaps the workers'; what they
    find is confirmed before any task's result is taken (:func:`_work_checked`), and a build
    whose checks find otherwise renders again as it would have."""
    from .content import bytes_may_hold_math_or_media

    for i in todo:
        if i not in loaded or loaded[i].source.partial:
            return False
        try:
            raw = results[i].source.read_bytes()
        except OSError:
            return False
        if bytes_may_hold_math_or_media(raw):
            return False
    return bool(todo)


class _Mispredicted(Exception):
    """The checks run while the workers render found what the render depends on."""


def _work_checked(good: dict[int, WritableQuiz], loaded: dict[int, LoadedQuiz], checks: list[Callable[[], None]] | None,
                  results: list[QuizResult], options: BuildOptions, schemas: SchemaSet, jobs: int, staging: Staging,
                  kept: dict[int, dict[str, bytes]], cache_settings: str | None) -> int:
    """:func:`_work`, with ``checks`` (the quizzes' checks, put off: :func:`_checks_overlapped`)
    run in this process once the workers have started, and their findings confirmed before any
    task's result is taken: no error, no media file, no formula (the workers have no QTI 2.1
    schema with MathML). Otherwise the workers are stopped and the quizzes rendered again as the
    checks say (some left out, their media), as a build that checked them first renders them:
    the files and problems are the same either way."""
    if checks is None:
        return _work(good, results, options, schemas, jobs, staging, kept, cache_settings)

    def check_then_confirm() -> None:
        asked = _formulas_asked()
        for check in checks:
            check()
        if any(results[i].failed or loaded[i].media.files for i in good) or ("qti21" in options.formats and _formulas_asked() > asked):
            raise _Mispredicted

    try:
        return _work(good, results, options, schemas, jobs, staging, kept, cache_settings, check_then_confirm)
    except _Mispredicted:
        good = _rendered_quizzes(loaded, results, options)
        return _work(good, results, options, schemas, jobs, staging, kept, cache_settings) if good else jobs


def _memo(code: str) -> Memo:
    """Where the checks of a piece's sections that found nothing are remembered (quiz_checks.py):
    the build cache, by their key under qti-builder's code."""
    return Memo(lambda key: load_piece(piece_key(code, key)), lambda key, found: store_piece(piece_key(code, key), found))


def _pieces(options: BuildOptions, code: str, meanwhile: Callable[[], None] | None = None) -> Pieces:
    """How a large source is read in pieces (readers/piece_cache.py): each piece's reading kept in
    the build cache (unless ``--no-cache``) under qti-builder's ``code``, the pieces read on one
    worker per CPU (forked: no thread, lxml being unsafe to parse beside a schema's compile)."""
    load = keep = None
    if options.cache:

        def load(key: str) -> object | None:
            return load_piece(piece_key(code, key))

        def keep(key: str, reading: object) -> None:
            store_piece(piece_key(code, key), reading)

    jobs = options.jobs or cpu_count()
    # The workers read the pieces while this process does ``meanwhile`` (compiles the schemas),
    # then takes its share of what is left.
    return Pieces(load, keep, (lambda tasks, work: run(tasks, work, jobs, meanwhile=meanwhile)) if jobs > 1 else None)


def _selected(read: tuple[Quiz, SourceMap], only: frozenset[str]) -> tuple[Quiz, SourceMap] | None:
    """A quiz read, cut down to the questions of ``--only`` (None: it has none of them)."""
    from .selection import select_questions

    quiz = select_questions(read[0], only)
    return (quiz, read[1]) if quiz is not None else None


def unknown_selection(options: BuildOptions, results: list[QuizResult]) -> list[Diagnostic]:
    """``--only`` names that no quiz has, read from the sources again by id only when there are
    some: each is an error (QB234), and the build writes nothing."""
    if options.only is None:
        return []
    from .selection import named

    have: set[str] = set()
    for result in results:
        if result.quiz is not None:
            have |= named(result.quiz)
    missing = sorted(options.only - have)
    if missing:  # a quiz cut away entirely has no quiz any more: read the names again, to tell
        for result in results:
            if result.quiz is None and not result.failed:
                full = read_quiz(result.source, DiagnosticSink(), options.limits)
                if full:
                    have |= named(full[0])
        missing = sorted(options.only - have)
    return [Diagnostic(Severity.ERROR, "QB234", f"--only names question '{name}', which no quiz has",
                       hint="give question ids as the sources write them ({#id}), or quiz-id/question-id; "
                            "qti-builder check --verbose lists them") for name in missing]


def _check_unique_ids(results: list[QuizResult], loaded: dict[int, LoadedQuiz], hits: Mapping[int, CachedQuiz]) -> None:
    quizzes = {**{i: (item.quiz.id, item.source.path, lambda item=item: item.source.locate(("id",))) for i, item in loaded.items()},
               **{i: (entry.quiz_id, display_path(entry.result.source), lambda entry=entry: entry.id_span) for i, entry in hits.items()}}
    first: dict[str, str] = {}
    for i in sorted(quizzes):
        quiz_id, path, where = quizzes[i]
        if quiz_id in first:
            results[i].diagnostics.append(Diagnostic(
                Severity.ERROR, "QB202", f"quiz id '{quiz_id}' is also used by {first[quiz_id]}", where(),
                hint="give one of them another 'id:' in its front matter; both would write the same files"))
        else:
            first[quiz_id] = path


def _check_unique_categories(results: list[QuizResult], loaded: dict[int, LoadedQuiz], hits: Mapping[int, CachedQuiz]) -> None:
    """QB237 across the build's quizzes: a Moodle category ID number that a category of another
    quiz has (those of one quiz are checks.py's; two quiz ids, QB202). Category ID numbers are
    unique in a course, the build's quizzes go into one, and Moodle refuses the whole file that
    repeats one. A quiz from the cache is located by where its questions and its id are, kept
    with it."""
    #: ID number -> (what has it, where, whether it is a quiz's own category), first come.
    taken: dict[str, tuple[str, SourceSpan, bool]] = {}
    for i in sorted(set(loaded) | set(hits)):
        quiz = loaded[i].quiz if i in loaded else results[i].quiz
        if quiz is None:
            continue
        id_span = loaded[i].source.locate(("id",)) if i in loaded else hits[i].id_span or SourceSpan(display_path(results[i].source))
        own_span = loaded[i].source.locate(("moodle_idnumber",)) if i in loaded and quiz.moodle_idnumber is not None else id_span
        mine: list[tuple[str, str, SourceSpan, bool]] = [(quiz.category_idnumber(), f"the quiz '{quiz.id}' itself", own_span, True)]
        for loc, section in _section_locs(quiz):
            if i in loaded:
                at = loaded[i].source.locate(loc + ("moodle_idnumber",) if section.moodle_idnumber is not None else loc)
            else:
                first = next((q.id for q in _questions_below(section)), "")
                at = results[i].spans.get(first, id_span)
            mine.append((section.category_idnumber(quiz.id), f"section '{section.id}' of the quiz '{quiz.id}'", at, False))
        for ident, what, at, is_quiz in mine:
            if ident in taken and not (is_quiz and taken[ident][2]):
                first_what, where, _ = taken[ident]
                results[i].diagnostics.append(Diagnostic(
                    Severity.ERROR, "QB237", f"{what} gives its Moodle category the ID number '{ident}', which {first_what} "
                    f"has ({where.path}:{where.line}); Moodle refuses a file that repeats a category ID number of the course",
                    at, hint="give one of them another moodle_idnumber, or leave it out (the build then writes "
                             "'<quiz id>.<section id>')"))
        for ident, what, at, is_quiz in mine:
            taken.setdefault(ident, (what, at, is_quiz))


def _section_locs(quiz: Quiz) -> Iterator[tuple[tuple[str | int, ...], Section]]:
    """Every section of ``quiz`` with its path in the model data (its key in a source map)."""
    def walk(prefix: tuple[str | int, ...], sections: list[Section]) -> Iterator[tuple[tuple[str | int, ...], Section]]:
        for k, section in enumerate(sections):
            yield prefix + ("sections", k), section
            yield from walk(prefix + ("sections", k), section.sections)

    yield from walk((), quiz.sections)


def _questions_below(section: Section) -> Iterator[Question]:
    yield from section.questions
    for child in section.sections:
        yield from _questions_below(child)


@contextlib.contextmanager
def _stage(clock: dict[str, float], name: str) -> Iterator[None]:
    """Times one stage of the build into ``clock`` (for ``--report``), listed where the stage
    first starts: reports and ``--verbose`` list the stages in the same order on every run."""
    clock.setdefault(name, 0.0)
    mark = time.perf_counter()
    try:
        yield
    finally:
        clock[name] = clock.get(name, 0.0) + time.perf_counter() - mark


def _accept(result: QuizResult, codes: frozenset[str]) -> None:
    """Leave out the warnings and losses the author accepted (``--ignore``, a question's ``ignore``)."""
    accepted = Accepted(codes, result.quiz, result.spans)
    result.diagnostics, ignored = accepted.diagnostics(result.diagnostics)
    losses: list[Loss] = []
    result.accepted_losses = []
    for loss in result.losses:  # one pass: a 100,000-question bank has tens of thousands
        (result.accepted_losses if accepted(loss.code, loss.span, loss.question) else losses).append(loss)
    result.ignored = ignored + len(result.accepted_losses)
    result.losses = losses


def _strict(result: QuizResult) -> None:
    """Warnings become errors, in place, so each is printed once; so does each loss (but those
    ``--profile`` already printed as warnings). A quiz with errors already is not told its losses."""
    had_errors = result.failed
    shown = {(d.code, d.message, d.span) for d in result.diagnostics}
    result.diagnostics[:] = [
        Diagnostic(Severity.ERROR, d.code, f"{d.message} (a warning, failing because of --strict)", d.span, d.hint, d.generated)
        if d.severity is Severity.WARNING else d
        for d in result.diagnostics
    ]
    if had_errors:
        return
    result.diagnostics += [loss.diagnostic(Severity.ERROR, " (a loss of the output, failing because of --strict)")
                           for loss in result.losses if (loss.code, loss.message, loss.span) not in shown]


# -- 3. render, validate and compress, in tasks -------------------------------------------------


@dataclass(frozen=True)
class Task:
    """A share of one quiz's output in one target. ``part`` says which documents it makes:
    "whole" all of them, "items" the questions in ``questions`` only, "frame" all but those of
    questions (a QTI test and manifest, media)."""

    quiz: int
    format: str
    part: str = "whole"
    questions: tuple[str, ...] = ()
    #: Questions it renders, for scheduling the biggest first and counting progress.
    weight: int = 0
    #: Runs in the parent process: a task that walks all of a very big quiz (its frame, its other
    #: targets) would copy the whole model's memory pages into a worker; the parent has them.
    #: Below ``HOLD_PACKED_FROM`` questions such a task goes to whichever process is free: a
    #: rebuild that renders its three frames and one chunk again spreads them over the CPUs.
    here: bool = False


#: Which documents each part keeps, by whether a document belongs to one question.
KEEP = {"whole": lambda d: True, "items": lambda d: d.question_id is not None, "frame": lambda d: d.question_id is None}


def plan(loaded: Mapping[int, LoadedQuiz | WritableQuiz], formats: list[str]) -> list[Task]:
    """Every task of the build, biggest first, so the workers end together. Depends on the
    quizzes alone (not on the number of workers): that is what keeps the outputs identical."""
    tasks = []
    for i, item in loaded.items():
        ids = [q.id for q in item.quiz.iter_questions()]
        huge = len(ids) >= HOLD_PACKED_FROM
        for name in formats:
            split = len(ids) > CHUNK
            if name in SPLIT_BY_QUESTION and split and not (name in SPLIT_WITHOUT_MEDIA and item.media.files):
                tasks.append(Task(i, name, "frame", weight=len(ids) // 4, here=huge))
                tasks += [Task(i, name, "items", tuple(ids[k:k + CHUNK]), len(ids[k:k + CHUNK]))
                          for k in range(0, len(ids), CHUNK)]
            else:
                tasks.append(Task(i, name, "whole", weight=len(ids), here=huge))
    # Equal weights: a chunk's targets one after the other, claimed together by one process
    # (_work), so the second and third find the chunk's Markdown in content.py's caches.
    return _tail_last(sorted(tasks, key=lambda t: (-t.weight, t.quiz, t.questions[:1])), loaded)


def _tail_last(tasks: list[Task], loaded: Mapping[int, LoadedQuiz | WritableQuiz]) -> list[Task]:
    """``tasks`` with each split quiz's last chunks (its ``TAIL`` questions, at most half of its
    chunks) taken out of their places and run last, target by target in ``PUT_TOGETHER_FIRST``'s
    order: the target that takes longest to put together has all its tasks in first, and the
    parent puts it together while the workers render the others' last chunks, rather than every
    output being put together after the last task, with the workers idle (bench/README.md)."""
    tail: dict[int, set[tuple[str, ...]]] = {}
    for i, item in loaded.items():
        ids = [q.id for q in item.quiz.iter_questions()]
        starts = range(0, len(ids), CHUNK)
        kept = min(-(-TAIL // CHUNK), len(starts) // 2)
        tail[i] = {tuple(ids[k:k + CHUNK]) for k in starts[len(starts) - kept:]} if kept else set()
    last = [t for t in tasks if t.part == "items" and t.questions in tail[t.quiz]]
    if not last:
        return tasks
    rank = {name: k for k, name in enumerate(PUT_TOGETHER_FIRST)}
    # sorted() is stable: within a target, the chunks stay in the order they had
    last_ones = set(last)
    return [t for t in tasks if t not in last_ones] + sorted(last, key=lambda t: (t.quiz, rank.get(t.format, len(rank))))


@dataclass
class TaskResult:
    task: Task
    filename: str | None = None
    archive: bool = False
    container: str = "zip"
    #: Compressed entries of an archive; an "items" task's laid out together (:class:`LaidOut`).
    entries: Sequence[Entry] = field(default_factory=list)
    #: As a chunk's entry in the build cache keeps them, :class:`PackedDocuments` (:func:`_chunk_entry`).
    parts: Sequence[Document] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: What validation read of its Canvas items, for the rules across the package's files; as a
    #: chunk's entry in the build cache keeps them, :class:`_PackedFacts`.
    facts: Mapping[str, Fact] = field(default_factory=dict)
    #: An "items" task's :func:`_summary`, worked out where it was rendered and kept with it in
    #: the build cache: a rebuild takes it with the chunk rather than walking its documents again.
    summary: int | None = None
    #: The question of each of ``entries`` (None for one of no question's), in their order: what
    #: a watch's rebuild parts an unchanged chunk's result by (:func:`_parted`).
    entry_questions: list[str | None] = field(default_factory=list)
    #: The build cache's key of each of an "items" task's small chunks (its questions cut in
    #: ``WARM_CHUNK``, :func:`_cut`), worked out on the quiz it was rendered from and kept in its
    #: entry: what a rebuild by hand checks a small chunk now against to take it out of this
    #: result rather than render it (:func:`_parted_by_hand`). Empty for a chunk not cut.
    small_keys: tuple[str, ...] = ()


@dataclass
class _State:
    """What the workers inherit when they are forked."""

    loaded: dict[int, WritableQuiz]
    schemas: SchemaSet
    templates: Path | None
    #: The quiz of each "items" task: made here, before forking, so that a worker walks only its
    #: own questions (touching the others would copy their memory pages into every worker).
    chunks: dict[Task, Quiz]
    #: The quizzes whose held documents are held compressed (``HOLD_PACKED_FROM``).
    packed: frozenset[int] = frozenset()
    #: The build's settings in the build cache, when it is used: a chunk of questions found
    #: there is neither rendered nor validated (:func:`run_task`).
    cache_settings: str | None = None
    #: The key of each chunk the build cache did not have when this process looked, before
    #: forking: a worker renders it without computing its key or looking again.
    missed: dict[Task, str] = field(default_factory=dict)
    #: Each chunk's :func:`.cache.chunk_content`, by its quiz and questions: its targets share it.
    contents: dict[tuple[int, tuple[str, ...]], str] = field(default_factory=dict)
    #: Where each "items" task's chunk sits in its quiz, for a target whose documents depend on
    #: it (``Writer.placements``: the Moodle quiz backup's ids), made here before forking.
    placements: dict[Task, Hashable] = field(default_factory=dict)
    #: Each "items" task's key in the build cache (:func:`_chunk_key`), once computed.
    keys: dict[Task, str] = field(default_factory=dict)
    #: Each split quiz's view for its frames (:func:`_frame_view`) and its digest, once made.
    views: dict[int, tuple[Quiz, str | None]] = field(default_factory=dict)
    #: The small chunks a rebuild by hand renders in place of a chunk (:func:`_parted_by_hand`):
    #: not kept in the build cache under their own keys, which no rebuild by hand looks up (the
    #: next finds the chunk :class:`_Rejoined` keeps, whole or to take small chunks out of).
    parted: frozenset[Task] = frozenset()


_state: _State | None = None


def run_task(task: Task) -> TaskResult:
    """Render one task's documents, validate them and compress them (in a worker); a chunk of
    questions that the build cache has (same questions, sections, settings) is taken from it."""
    assert _state is not None
    item = _state.loaded[task.quiz]
    quiz = _state.chunks.get(task, item.quiz)
    if task in _state.missed:
        key: str | None = _state.missed[task]
    else:
        key = _chunk_key(task)
        cached = _cached(task, key)
        if cached is not None:
            return cached
    result = _rendered(task, item, quiz)
    if key is not None and result.filename is not None and not result.diagnostics:
        if task.part == "items":
            result.summary = _summed(result)
            result.small_keys = _small_keys(task)
        if task not in _state.parted:
            store_chunk(key, _chunk_entry(result, key))
    return _held(result)


def _chunk_entry(result: TaskResult, key: str | None = None) -> TaskResult:
    """What a chunk's entry in the build cache holds; the entry is not deflated whole. A QTI 2.1
    chunk's zip entries are compressed already: not deflated again. The question documents
    of a package member put together in runs (a Canvas assessment's items, a quiz backup's
    records) are kept each compressed on its own (``held``), and the entry not deflated: a rebuild
    takes the runs of an unchanged chunk from the cache (:class:`_KeptRuns`), so its documents'
    bytes are expanded only if a run must be deflated again, not all of them with the entry (about
    0.07 s of a 10,000-question bank's rebuild after one edit, bench/README.md). The documents of
    a single file (a Moodle file), all read to write it, are kept as they are too: inflating them
    cost a rebuild more than reading their bytes whole (the 40 Moodle chunks of a 10,000-question
    bank, 17 MB: inflated in 30-55 ms, read and checked in 10-15 ms, bench/README.md).

    A chunk's documents are kept as columns (:class:`PackedDocuments`), made when first read: a
    rebuild puts an unchanged chunk's questions into the members they are spliced into by their
    ids alone, and the runs the cache has are taken without them (:func:`_later`).

    Those held documents' bytes, of a chunk whose documents are each spliced by its question, are
    kept in an entry of their own beside the chunk's (``key``'s, :class:`_DataApart`), read only
    for a run deflated again: a rebuild by hand after one edit read, checked and unpickled 21 MB
    of them (the Canvas chunks', the backup's, the QTI 2.1 manifest's) for nothing, about 0.02 s
    (bench/README.md). Not in a watch, whose memory keeps the entry as it is (:mod:`.memory`)."""
    if result.task.part == "frame":  # its documents are read whole by every build that takes it
        return result
    result = replace(result, facts=_PackedFacts.of(result.facts))
    if result.entries and not isinstance(result.entries, LaidOut):  # a chunk put together again (_Rejoined)
        result = replace(result, entries=LaidOut.of(result.entries))
    if result.archive or result.container != "zip":
        documents = [held(d) for d in result.parts]
        packed = PackedDocuments.of(documents)
        if key is not None and documents and packed.questions() is not None and not keeping():
            packed = packed.with_data(_DataApart.store(key, [d.data for d in documents]))
        return replace(result, parts=packed)
    return replace(result, parts=PackedDocuments.of(result.parts))


class _DataApart:
    """The documents' bytes of a chunk's entry kept in an entry of their own
    (:func:`.cache.store_chunk_data`; :class:`PackedDocuments`' column apart), read when first
    needed. Taken for a task of this build (:func:`_cached`), it renders the chunk again should
    that entry be gone or damaged by then: its documents are the same (the chunk's key covers
    them)."""

    __slots__ = ("key", "count", "task")

    def __init__(self, key: str, count: int, task: Task | None = None) -> None:
        self.key, self.count = key, count
        #: The task of this build whose chunk this is, when taken for one (:func:`_cached`).
        self.task = task

    @classmethod
    def store(cls, key: str, data: list[bytes]) -> _DataApart:
        """Keep ``data``, the documents' bytes of the chunk of ``key``, in their entry."""
        apart = cls(chunk_data_key(key), len(data))
        store_chunk_data(apart.key, data)
        return apart

    def __reduce__(self) -> tuple[type[_DataApart], tuple[str, int, Task | None]]:
        return _DataApart, (self.key, self.count, self.task)  # its task with it from a worker

    def __len__(self) -> int:
        return self.count

    def load(self) -> list[bytes]:
        data = load_chunk_data(self.key)
        if data is not None and (len(data) != self.count or not all(type(d) is bytes for d in data)):
            data = None  # an entry damaged behind its checksum: a miss, as any other (never trusted)
        if data is None and self.task is not None:
            data = _data_again(self.task)
        if data is None:
            raise LookupError("a chunk's documents' bytes are no longer in the build cache")
        return data


def _data_again(task: Task) -> list[bytes] | None:
    """The bytes of ``task``'s chunk's documents as its entry keeps them (:func:`_chunk_entry`),
    rendered again; None if it does not render cleanly."""
    assert _state is not None
    item = _state.loaded[task.quiz]
    result = _rendered(task, item, _state.chunks[task])
    if result.filename is None or result.diagnostics:
        return None
    return [held(d).data for d in result.parts]


class _PackedFacts(Mapping[str, Fact]):
    """A chunk's facts (``TaskResult.facts``) as its entry in the build cache keeps them: pickled
    apart, unpickled when first read. A rebuild reads them only where the rules across a package
    run (its clean verdict is kept, :func:`_package_checked`) or a watch parts the chunk: a
    rebuild by hand after one edit unpickled 160 chunks' facts (40,000 small objects, about
    0.02 s) for nothing (bench/README.md). A ``Mapping``, not a ``dict``: read through its methods."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._facts: Facts | None = None

    @classmethod
    def of(cls, facts: Mapping[str, Fact]) -> _PackedFacts:
        return facts if isinstance(facts, _PackedFacts) else cls(pickle.dumps(dict(facts), pickle.HIGHEST_PROTOCOL))

    def __reduce__(self) -> tuple[type[_PackedFacts], tuple[bytes]]:
        return _PackedFacts, (self.data,)

    @property
    def facts(self) -> Facts:
        if self._facts is None:
            with collector_paused():
                self._facts = pickle.loads(self.data)
        return self._facts

    def __getitem__(self, question: str) -> Fact:
        return self.facts[question]

    def __iter__(self) -> Iterator[str]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)


def _chunk_key(task: Task) -> str | None:
    """The build cache's key of an "items" task's chunk, or of a frame task's result
    (:func:`_frame_key`); None without the cache or for a "whole" task."""
    assert _state is not None
    if _state.cache_settings is None or task.part == "whole":
        return None
    if task.part == "frame":
        return _frame_key(task)
    if task not in _state.keys:  # asked again when the task's output is put together (_KeptRuns)
        chunk = (task.quiz, task.questions)
        if chunk not in _state.contents:
            item = _state.loaded[task.quiz]
            _state.contents[chunk] = chunk_content(_state.chunks[task], item.media, item.contents)
        _state.keys[task] = chunk_key(_state.cache_settings, task.format, _state.contents[chunk], _state.placements.get(task))
    return _state.keys[task]


def _frame_key(task: Task) -> str | None:
    """The build cache's key of a frame task's result: the build's settings (the code, the
    templates, the schemas), the target, the quiz as its frames see it (:func:`_frame_view`) and
    its media; None for a frame rendered from the whole quiz. A frame rendered from the view reads
    nothing else, so a question's text, title or answers edited leave the key as it was: a rebuild
    takes the four frames from the cache (0.25 s of a 10,000-question bank's watch rebuild,
    bench/README.md), and an edit of a question's points or of a section renders them again."""
    assert _state is not None and _state.cache_settings is not None
    if task not in _state.keys:
        view = _frame_view(task)
        if view is None:
            return None
        digest = _state.views[task.quiz][1]
        if digest is None:
            digest = view_digest(view) + repr(media_of(_state.loaded[task.quiz].media))
            _state.views[task.quiz] = view, digest
        _state.keys[task] = chunk_key(_state.cache_settings, task.format, digest, "frame")
    return _state.keys[task]


def _frame_view(task: Task) -> Quiz | None:
    """What a frame task renders from (``writers.base.frame_view``: each question its id, kind,
    points and shuffle), made once per quiz; None when the target's frame needs the whole quiz
    (``Writer.frame_from_view``: an overlay of the target's templates, QTI 2.1's fixed variants)."""
    assert _state is not None
    quiz = _state.loaded[task.quiz].quiz
    if not WRITERS[task.format].frame_from_view(quiz, _state.templates):
        return None
    if task.quiz not in _state.views:
        _state.views[task.quiz] = frame_view(quiz), None
    return _state.views[task.quiz][0]


def _cached(task: Task, key: str | None) -> TaskResult | None:
    """The task's result as the build cache has it (its chunk's same questions in the same target), or None."""
    cached = load_chunk(key) if key is not None else None
    if isinstance(cached, TaskResult) and cached.task.format == task.format and cached.task.questions == task.questions:
        apart = cached.parts.apart() if isinstance(cached.parts, PackedDocuments) else None
        if isinstance(apart, _DataApart):  # its documents' bytes read if needed: taken only with them there
            if not touch(apart.key):
                return None
            apart.task = task
        return _held(replace(cached, task=task, timings={}))
    return None


def _held(result: TaskResult) -> TaskResult:
    """The documents a big quiz holds until its file is put together, compressed (``HOLD_PACKED_FROM``)."""
    assert _state is not None
    if result.task.quiz in _state.packed:
        result = replace(result, parts=[held(d) if d.question_id is not None else d for d in result.parts])
    return result


def _rendered(task: Task, item: WritableQuiz, quiz: Quiz) -> TaskResult:
    assert _state is not None
    sink = DiagnosticSink()
    result = TaskResult(task)
    started = time.perf_counter()
    writer = _writer(task.format, task.part)(make_environment(_state.templates))
    writer.placement = _state.placements.get(task)
    if task.part == "frame":  # the frame from the quiz as frames see it, what its key covers (_frame_key)
        quiz = _frame_view(task) or quiz
    output = writer.write(quiz, item.spans, sink, item.media)
    rendered = time.perf_counter()
    if output is not None:
        documents = [d for d in output.documents if KEEP[task.part](d)]
        result.facts = _validated(output.filename, documents, item.spans, sink, task.part == "frame")
        validated = time.perf_counter()
        result.filename, result.archive, result.container = output.filename, output.archive, output.container
        if output.container != "zip":  # a tarball is put together from its documents (its parts, each question's records)
            result.parts = documents
        elif output.archive:  # kept whole: spliced into a member, or read by the rules across files
            kept = [is_spliced(d) or d.schema in PACKAGE_RULES_READ for d in documents]
            result.entries = [compress(d.path, d.data) for d, keep in zip(documents, kept) if not keep]
            if task.part == "items" and result.entries:  # a chunk's members, laid out once here
                result.entries = LaidOut.of(result.entries)
            result.entry_questions = [d.question_id for d, keep in zip(documents, kept) if not keep]
            result.parts = [d for d, keep in zip(documents, kept) if keep]
        else:
            result.parts = documents
        result.timings = {"render": rendered - started, "validate": validated - rendered,
                          "package": time.perf_counter() - validated}
    else:
        result.timings = {"render": rendered - started}
    result.diagnostics = sink.items
    return result


def _validated(output_name: str, documents: list[Document], spans: dict[str, SourceSpan], sink: DiagnosticSink,
               frame: bool) -> Facts:
    """:func:`validate_documents`, but for a big quiz's frame with the build cache: a document
    that an earlier build validated without a problem, byte for byte under the same schemas and
    code (the build's settings), is not validated again, and one that validates clean now is
    remembered. Most of a frame does not change with one question's text (a QTI test, the quiz
    backup's slots and its bank's frame, the Canvas assessment's frame): a rebuild after one edit
    validates only what did. A frame's documents are not a question's: validation reads no
    facts of them for the rules across the package."""
    assert _state is not None
    if not frame or _state.cache_settings is None:
        return validate_documents(output_name, documents, _state.schemas, spans, sink)
    for document in documents:
        key = valid_key(_state.cache_settings, document.schema, document.data) if document.schema else None
        if key is not None and load_valid(key):
            continue
        mine = DiagnosticSink()
        facts = validate_documents(output_name, [document], _state.schemas, spans, mine)
        assert not facts, "a frame's document gives no facts"
        sink.items.extend(mine.items)
        if key is not None and not mine.items:
            store_valid(key)
    return {}


@lru_cache(maxsize=None)
def _writer(name: str, part: str) -> type[Writer]:
    """The target's writer, or for a part, one that renders only that part's documents (those of
    questions, or the rest: ``Writer.renders_questions`` / ``renders_frame``). What is skipped
    renders as nothing and is dropped (``KEEP``); if a writer rendered otherwise, a part would
    only cost more, not differ."""
    base = WRITERS[name]
    if part == "whole":
        return base
    return type(f"{base.__name__}_{part}", (base,), {"renders_questions": part == "items", "renders_frame": part == "frame"})


def _chunks(loaded: dict[int, WritableQuiz], tasks: list[Task]) -> dict[Task, Quiz]:
    """The quiz of each "items" task; the targets of one chunk share one."""
    made: dict[tuple[int, tuple[str, ...]], Quiz] = {}
    own: dict[int, dict[int, frozenset[str]]] = {}  # per quiz: each section's own question ids
    for task in tasks:
        if task.part == "items" and (task.quiz, task.questions) not in made:
            quiz = loaded[task.quiz].quiz
            if task.quiz not in own:
                own[task.quiz] = {id(s): frozenset(q.id for q in s.questions) for _, s in quiz.iter_sections()}
            made[task.quiz, task.questions] = _only(quiz, set(task.questions), own[task.quiz])
    return {t: made[t.quiz, t.questions] for t in tasks if t.part == "items"}


def _placements(loaded: dict[int, WritableQuiz], chunks: dict[Task, Quiz]) -> dict[Task, Hashable]:
    """Where each chunk sits in its quiz, for the targets whose documents depend on it."""
    placed: dict[Task, Hashable] = {}
    for (quiz, name), tasks in itertools.groupby(sorted(chunks, key=lambda t: (t.quiz, t.format)), lambda t: (t.quiz, t.format)):
        placed.update(WRITERS[name].placements(loaded[quiz].quiz, {task: chunks[task] for task in tasks}))
    return placed


def _only(quiz: Quiz, ids: set[str], own: dict[int, frozenset[str]]) -> Quiz:
    """The quiz with only the questions in ``ids``, in the sections that hold them, those with a
    description (an item of its own in the Canvas package) and their ancestors: what the
    questions' documents depend on. ``own`` has each section's own question ids. A section
    with none of them is left out, so that a chunk costs the same whatever the bank's size
    (copying every section for every chunk made a 25,000-question bank's chunks cost 6 times a
    10,000-question one's)."""

    def prune(sections: list) -> list:  # type: ignore[type-arg]
        kept = []
        for s in sections:
            children = prune(s.sections)
            questions = [q for q in s.questions if q.id in ids] if not own[id(s)].isdisjoint(ids) else []
            if questions or children or s.description:
                copy = s.model_copy(update={"questions": questions, "sections": children})
                copy._group_points = s.group_points()  # the group's points are its first question's
                kept.append(copy)
        return kept

    return quiz.model_copy(update={"sections": prune(quiz.sections)})


def _work(
    good: dict[int, WritableQuiz], results: list[QuizResult], options: BuildOptions, schemas: SchemaSet, jobs: int,
    staging: Staging, kept: dict[int, dict[str, bytes]], cache_settings: str | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> int:
    """Run the tasks; write a quiz's outputs as soon as all its tasks are in and none had an error
    (so a broken quiz never creates a file, or even the output folder). Returns the workers used.
    ``meanwhile`` runs in this process before any task's result is taken: once the workers have
    started, or first when none is forked."""
    global _state
    tasks = plan(good, options.formats)
    chunks = _chunks(good, tasks)
    packed = frozenset(i for i, item in good.items() if len(item.spans) >= HOLD_PACKED_FROM)
    _state = _State(good, schemas, options.templates, chunks, packed, cache_settings, placements=_placements(good, chunks))
    try:
        # The chunks the build cache has are taken here, before any worker is forked: a worker would
        # read each and send it back through a pipe, pickled once more, for nothing. What is left to
        # render decides whether workers are worth forking (a rebuild after one edit: one chunk).
        found = _found(tasks)
        planned = [t for t in tasks if t.part == "items"]
        cut: dict[Task, Task] = {}
        if found:
            taken = {r.task for r in found}
            tasks = [t for t in tasks if t not in taken]
            if keeping():
                tasks = _finer(good, tasks, found, {i: results[i].source for i in good})
            elif cache_settings is not None:
                tasks, cut = _parted_by_hand(good, tasks, found, {i: results[i].source for i in good})
                _state.parted = frozenset(cut)
        if keeping() and cache_settings is not None:
            _keep_chunk_keys(good, results)
        waiting = Counter(t.quiz for t in itertools.chain(tasks, (r.task for r in found)))
        parts: dict[int, list[TaskResult]] = {i: [] for i in waiting}
        total, done = sum(t.weight for t in tasks) + sum(r.task.weight for r in found), 0
        left = sum(t.weight for t in tasks)
        jobs = min(jobs, len(tasks)) if left >= PARALLEL_FROM and not _warm_alone(tasks, found, bool(cut)) else 1
        if meanwhile is not None and jobs < 2:
            meanwhile()  # no worker to overlap it with: now
            meanwhile = None
        if jobs > 1 and "qti21" in options.formats and _has_formulas():
            # QTI 2.1's documents with MathML need the whole official schema: compiled here, once,
            # rather than in each worker that meets a formula (what holds none takes ``qti_plain``).
            schemas.qti  # noqa: B018 - compiles it
        ahead = _Ahead(tasks, found, packed, options, staging)
        rejoined = _Rejoined(cut)
        before_any = _Once(meanwhile)
        together = _claimed_together if _shares(tasks) >= jobs else _claimed_alone
        stream = run(tasks, run_task, jobs, lambda task: task.here, together, before_any if meanwhile is not None else None)
        for task_result in _found_after_first(found, stream, before_any):
            before_any()  # (run() calls it when it forks, once the workers have started)
            quiz = task_result.task.quiz
            result = results[quiz]
            result.diagnostics.extend(task_result.diagnostics)
            for stage, seconds in task_result.timings.items():
                result.timings[stage] += seconds
            parts[quiz].append(task_result)
            rejoined.add(task_result)
            if task_result.task in _state.missed and task_result.filename is not None and not task_result.diagnostics:
                remember_chunk(_state.missed[task_result.task], task_result)  # a watching process's, for the next save
            waiting[quiz] -= 1
            if not waiting[quiz]:
                # A quiz held compressed is too big to keep whole as well: its chunks are kept.
                _finish(parts.pop(quiz), result, options, staging, kept.get(quiz) if quiz not in packed else None,
                        ahead.made.pop(quiz, None))
            else:
                ahead.task_in(task_result, parts[quiz], result)
            done += task_result.task.weight
            if options.progress:
                options.progress(done, total)
        before_any()
        if cache_settings is not None and not keeping():
            _keep_chunk_record(planned, found, results)
    finally:
        _state = None
    return jobs


def _found(tasks: list[Task]) -> list[TaskResult]:
    """The results of ``tasks`` that the build cache has; the others' keys noted in ``_state.missed``."""
    assert _state is not None
    found: list[TaskResult] = []
    # What the entries hold lives to the end of the build, as what was read: the collector is
    # paused while they are taken, then they are frozen out of its reach (as in build()) before it
    # runs again, or its first collection would walk them all. With it running, each entry's
    # unpickling ended with a collection over the objects just made, none of them garbage (160
    # entries in a rebuild by hand of a 10,000-question bank, bench/README.md).
    with collector_paused(freeze=True):
        for task in tasks:
            key = _chunk_key(task)
            cached = _cached(task, key)
            if cached is not None:
                found.append(cached)
            elif key is not None:
                _state.missed[task] = key
    return found


#: Questions per chunk of a chunk a watching process renders again (:func:`_finer`).
WARM_CHUNK = 25


def _finer(good: dict[int, WritableQuiz], tasks: list[Task], found: list[TaskResult], sources: Mapping[int, Path]) -> list[Task]:
    """In a watching process (``build --watch``, which keeps the cache in memory), a rebuild's
    chunks that changed, each rendered in chunks of ``WARM_CHUNK`` questions, each kept apart: the
    next save that edits a question of the same chunk again (an author at work on one question)
    renders its 25 questions, not 250 (the chunk's four targets were 0.2 s of CPU of a
    10,000-question bank's rebuild, bench/README.md). A small chunk that did not change is parted
    from the result of its questions' chunk in the build before (:func:`_parted`), not rendered. ``found``
    (what the cache had) joins them. Only in a rebuild (some chunks found):
    a cold build keeps its chunks as a build run by hand does, and finds them there. The outputs
    are the same whatever the chunks (their documents are each question's; ``plan``)."""
    assert _state is not None
    finer: list[Task] = []
    big: dict[Task, Task] = {}  # each small chunk's chunk
    for task in tasks:
        if task.part != "items" or len(task.questions) <= WARM_CHUNK:
            finer.append(task)
            continue
        _state.missed.pop(task, None)
        small = _cut(task)
        big.update(dict.fromkeys(small, task))
        finer += small
    new = [t for t in finer if t.part == "items" and t not in _state.chunks]
    if not new:
        return tasks
    chunks = _chunks(good, new)
    _state.chunks.update(chunks)
    _state.placements.update(_placements(good, chunks))
    again = _found(new)
    again += _parted({t: big[t] for t in new if t in _state.missed and t in big}, sources)
    found += again
    taken = {r.task for r in again}
    return [t for t in finer if t not in taken]


@dataclass(frozen=True)
class _ChunkKeys:
    """A split quiz as a watching process's build before rendered or took it: the quiz, the
    build's settings and, per target, each "items" task's questions and the key of its result
    (:func:`_parted`)."""

    quiz: WritableQuiz
    settings: str
    tasks: dict[str, list[tuple[tuple[str, ...], str]]]


def _chunk_keys_key(source: Path) -> str:
    """Where a watching process keeps :class:`_ChunkKeys` of a source's quiz in memory."""
    return f"pipeline chunk keys\0{source.resolve()}"


def _keep_chunk_keys(good: dict[int, WritableQuiz], results: list[QuizResult]) -> None:
    """Keep in memory (a watching process's) this build's :class:`_ChunkKeys` of each quiz, for
    the next build's :func:`_parted`."""
    assert _state is not None and _state.cache_settings is not None
    tasks: dict[int, dict[str, list[tuple[tuple[str, ...], str]]]] = {}
    for task, key in _state.keys.items():
        if task.part == "items":
            tasks.setdefault(task.quiz, {}).setdefault(task.format, []).append((task.questions, key))
    for i, mine in tasks.items():
        remember(_chunk_keys_key(results[i].source), _ChunkKeys(good[i], _state.cache_settings, mine))


def _parted(small: dict[Task, Task], sources: Mapping[int, Path]) -> list[TaskResult]:
    """Small chunks (:func:`_finer`) that the cache does not have, each taken from the result of
    the chunk that held its questions in a run in the build before (a chunk's documents are each
    question's, and a run's are what rendering it alone makes, ``plan``; out of a run, its
    questions' places would differ, and with them the quiz backup's ids), when the small chunk's key in that
    build is its key now: its questions, their sections, the quiz, the media, its place and the
    build's settings as they were (:func:`chunk_key`, worked out on the quiz the build before
    read). The first save that edits a question renders that question's small chunk, not the
    ten of its big chunk (0.25 s of a 10,000-question bank's watch rebuild, bench/README.md).
    Each is kept in memory for the next build, like a chunk rendered. ``small``: each small
    chunk, with the chunk it was cut from now."""
    assert _state is not None and _state.cache_settings is not None
    parted: list[TaskResult] = []
    for i in sorted({t.quiz for t in small}):
        before = recall(_chunk_keys_key(sources[i]))
        if not isinstance(before, _ChunkKeys):
            continue
        #: Per target, the chunks of the build before by their first question, then by each of their
        #: questions (made only if needed: an edit of a chunk's first question changes its made id).
        starts: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {}
        olds: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {}
        within: dict[Task, TaskResult] = {}
        bigs: dict[str, TaskResult | None] = {}
        for task, now in ((t, b) for t, b in small.items() if t.quiz == i):
            if task.format not in starts:
                starts[task.format] = {questions[0]: (questions, key) for questions, key in before.tasks.get(task.format, ())}
            then, key = starts[task.format].get(now.questions[0], ((), ""))
            if task.questions[0] not in then:
                if task.format not in olds:
                    olds[task.format] = {q: (questions, key) for questions, key in before.tasks.get(task.format, ()) for q in questions}
                then, key = olds[task.format].get(task.questions[0], ((), ""))
            at = then.index(task.questions[0]) if then else 0
            if then[at:at + len(task.questions)] != task.questions:
                continue  # not a run of that chunk's questions: numbered otherwise there (the backup's ids)
            if key not in bigs:
                found = load_chunk(key)
                bigs[key] = found if _partable(found, task.format, then) else None
            big = bigs[key]
            if big is not None:
                within[task] = big
        if not within:
            continue
        chunks = _chunks({i: before.quiz}, list(within))
        placements = _placements({i: before.quiz}, chunks)
        contents: dict[tuple[str, ...], str] = {}
        for task, big in within.items():
            if task.questions not in contents:
                contents[task.questions] = chunk_content(chunks[task], before.quiz.media, before.quiz.contents)
            key = chunk_key(before.settings, task.format, contents[task.questions], placements.get(task))
            if key != _state.missed[task]:
                continue
            result = _part_of(big, task)
            del _state.missed[task]
            remember_chunk(key, result)
            parted.append(_held(result))
    return parted


def _partable(found: object, name: str, questions: tuple[str, ...]) -> TypeGuard[TaskResult]:
    """Whether ``found`` (read from the build cache, not trusted) is a clean chunk result of target
    ``name`` for ``questions`` whose every entry and document is one question's: what
    :func:`_part_of` can take small chunks out of (a watch's :func:`_parted`, a rebuild by hand's
    :func:`_parted_by_hand`)."""
    try:
        return (isinstance(found, TaskResult) and found.task.format == name and found.task.questions == questions
                and not found.diagnostics and found.filename is not None
                and len(found.entry_questions) == len(found.entries) and None not in found.entry_questions
                and all(d.question_id is not None for d in found.parts))
    except LookupError:  # its documents' bytes kept apart no longer there (_DataApart)
        return False


def _part_of(result: TaskResult, task: Task) -> TaskResult:
    """What ``result`` (a chunk's, clean) holds of ``task``'s questions: their documents, entries
    and facts, in the order it has them, which is the order rendering them alone gives (each
    question's documents are its own, ``plan``)."""
    ids = set(task.questions)
    entries = [(e, q) for e, q in zip(result.entries, result.entry_questions) if q in ids]
    # summary=None: the chunk's own summary is of all its questions' documents (``_summary``
    # works the part's out); a result with an entry or part of no question's is never parted.
    return replace(result, task=task, timings={}, diagnostics=[], summary=None, small_keys=(),
                   parts=[d for d in result.parts if d.question_id in ids],
                   entries=[e for e, _ in entries], entry_questions=[q for _, q in entries],
                   facts={q: f for q, f in result.facts.items() if q in ids})


def _cut(task: Task) -> list[Task]:
    """An "items" task's questions cut in small chunks of ``WARM_CHUNK``, as :func:`_finer` cuts them."""
    return [Task(task.quiz, task.format, "items", task.questions[k:k + WARM_CHUNK], len(task.questions[k:k + WARM_CHUNK]))
            for k in range(0, len(task.questions), WARM_CHUNK)]


def _small_keys(task: Task) -> tuple[str, ...]:
    """The build cache's key of each of ``task``'s small chunks (:func:`_cut`), worked out on the
    quiz it is rendered from (``TaskResult.small_keys``); none for a chunk not cut. Where a chunk is
    rendered (a worker, mostly), once it is: what a later rebuild by hand compares its small chunks
    with cannot be worked out then, the quiz before being gone. A chunk's targets share the small
    chunks' quizzes and contents (:func:`_chunk_key`)."""
    assert _state is not None
    if len(task.questions) <= WARM_CHUNK or _state.cache_settings is None:
        return ()
    small = _cut(task)
    _small_chunks(task, small)
    _state.placements.update(_placements(_state.loaded, {t: _state.chunks[t] for t in small}))
    return tuple(cast(str, _chunk_key(t)) for t in small)


def _small_chunks(task: Task, small: list[Task]) -> None:
    """The quiz of each of ``task``'s small chunks (``small``) in ``_state.chunks``, made from the
    chunk's quiz (the quiz with only its questions) as :func:`_chunks` makes it from the whole
    quiz, which gives the same (the sections of the small chunk's questions, those with a
    description and their ancestors are all in the chunk's): walking the whole quiz for the
    sections' questions again for each chunk cost a cold build of a 10,000-question bank 0.15 s.
    A chunk's targets share their small chunks' quizzes."""
    assert _state is not None
    made = _state.chunks[task]
    own: dict[int, frozenset[str]] | None = None
    for t in small:
        if t in _state.chunks:
            continue
        twin = next((_state.chunks[o] for o in (replace(t, format=name) for name in SPLIT_BY_QUESTION) if o in _state.chunks), None)
        if twin is None:
            if own is None:
                own = {id(s): frozenset(q.id for q in s.questions) for _, s in made.iter_sections()}
            twin = _only(made, set(t.questions), own)
        _state.chunks[t] = twin


def _parted_by_hand(good: dict[int, WritableQuiz], tasks: list[Task], found: list[TaskResult],
                    sources: Mapping[int, Path]) -> tuple[list[Task], dict[Task, Task]]:
    """A rebuild by hand's (a fresh process's, the build cache on disk) chunks that changed, each
    cut in small chunks (:func:`_cut`) when some of them can be taken out of the result of the
    chunk that held their questions in the build before (:func:`_part_of`), rather than the whole
    chunk rendered: after one edit, the edited question's small chunk is rendered in each target
    (0.3 s of a 10,000-question bank's rebuild, and the fork of the workers, bench/README.md).

    The build before is found through the source's record of its chunks' keys
    (:func:`_keep_chunk_record`), and its chunk's result in the cache; a small chunk is taken out
    of it when the chunk's questions cut as they were then hold the small chunk's questions as they
    are now, and the key that small chunk had then (``TaskResult.small_keys``, worked out on the
    quiz then) is its key now (:func:`chunk_key`: its questions, their sections, the quiz, the
    media, its place, the settings). A record or result missing, damaged or of another chunk is
    not trusted: the chunk is rendered whole. The parted results join ``found``; the small chunks
    left are returned in their chunk's place, with each small chunk's chunk (what
    :class:`_Rejoined` puts together and keeps for the next build)."""
    assert _state is not None and _state.cache_settings is not None
    records: dict[int, dict[str, list[tuple[tuple[str, ...], str]]] | None] = {}
    befores: dict[Task, tuple[TaskResult, dict[tuple[str, ...], str], list[Task]]] = {}
    for task in tasks:
        if task.part != "items" or len(task.questions) <= WARM_CHUNK or task not in _state.missed:
            continue
        if task.quiz not in records:
            records[task.quiz] = _chunk_record(load_chunk_keys(chunk_keys_key(_state.cache_settings, sources[task.quiz])))
        record = records[task.quiz]
        before = _held_before(record.get(task.format, []), task.questions) if record is not None else None
        if before is None:
            continue
        then, key = before
        old = load_chunk(key)
        slices = range(0, len(then), WARM_CHUNK)
        if not (_partable(old, task.format, then) and len(old.small_keys) == len(slices)):
            continue
        olds = {then[k:k + WARM_CHUNK]: old.small_keys[n] for n, k in enumerate(slices)}
        small = _cut(task)
        if any(t.questions in olds for t in small):
            befores[task] = old, olds, small
    # the small chunks' places worked out at once: one walk of the quiz per target (the backup's)
    for task, (_, _, small) in befores.items():
        _small_chunks(task, small)
    _state.placements.update(_placements(good, {t: _state.chunks[t] for _, _, small in befores.values() for t in small}))
    cut: dict[Task, Task] = {}
    replaced: dict[Task, list[Task]] = {}
    for task, (old, olds, small) in befores.items():
        same = [olds.get(t.questions) == _chunk_key(t) for t in small]
        if not any(same):  # (its questions' ids, sections or places changed) rendered whole
            continue
        found += [_held(_part_of(old, t)) for t, kept in zip(small, same) if kept]
        del _state.missed[task]
        replaced[task] = [t for t, kept in zip(small, same) if not kept]
        _state.missed.update((t, cast(str, _chunk_key(t))) for t in replaced[task])
        cut.update(dict.fromkeys(small, task))
    return [t for task in tasks for t in replaced.get(task, [task])], cut


def _held_before(chunks: list[tuple[tuple[str, ...], str]], questions: tuple[str, ...]) -> tuple[tuple[str, ...], str] | None:
    """Of the chunks (questions, key) of a target in the build before, the one that held
    ``questions``' first question, else the first of them it held (the first question's made id
    changes when its text is edited)."""
    starts = {then[0]: (then, key) for then, key in chunks if then}
    if questions[0] in starts:
        return starts[questions[0]]
    held_by = {q: (then, key) for then, key in chunks for q in then}
    return next((held_by[q] for q in questions if q in held_by), None)


def _chunk_record(record: object) -> dict[str, list[tuple[tuple[str, ...], str]]] | None:
    """A source's record of its chunks' keys (:func:`_keep_chunk_record`) as read from the build
    cache, or None when it is not one: a damaged record is only a miss."""
    if not isinstance(record, dict):
        return None
    for name, chunks in record.items():
        if not (isinstance(name, str) and isinstance(chunks, list) and all(
                isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], tuple) and isinstance(c[1], str)
                and all(isinstance(q, str) for q in c[0]) for c in chunks)):
            return None
    return record


def _keep_chunk_record(planned: list[Task], found: list[TaskResult], results: list[QuizResult]) -> None:
    """Keep in the build cache, per split quiz whose chunks were not all found, this build's
    record of its chunks' keys by target (each "items" task's questions and key), for the next
    rebuild by hand's :func:`_parted_by_hand`."""
    assert _state is not None and _state.cache_settings is not None
    taken = {r.task for r in found}
    record: dict[int, dict[str, list[tuple[tuple[str, ...], str]]]] = {}
    changed: set[int] = set()
    for task in planned:
        key = _state.keys.get(task)
        if key is not None:
            record.setdefault(task.quiz, {}).setdefault(task.format, []).append((task.questions, key))
            if task not in taken:
                changed.add(task.quiz)
    for i in changed:
        store_chunk_keys(chunk_keys_key(_state.cache_settings, results[i].source), record[i])


class _Rejoined:
    """The results of a chunk cut in small chunks by a rebuild by hand (:func:`_parted_by_hand`),
    put together again as the chunk's result once all are in, and kept in the build cache under
    the chunk's key, with its small chunks' keys: the next rebuild finds it there, whole (the
    same text again) or to take small chunks out of (another edit of the chunk)."""

    def __init__(self, cut: dict[Task, Task]) -> None:
        self.cut = cut
        self.pieces: dict[Task, dict[Task, TaskResult]] = {}

    def add(self, result: TaskResult) -> None:
        assert _state is not None
        task = self.cut.get(result.task)
        if task is None:
            return
        pieces = self.pieces.setdefault(task, {})
        pieces[result.task] = result
        small = _cut(task)
        if len(pieces) < len(small):
            return
        mine = [pieces[t] for t in small]
        del self.pieces[task]
        if any(r.filename is None or r.diagnostics for r in mine):
            return
        first = mine[0]
        whole = TaskResult(task, first.filename, first.archive, first.container,
                           entries=[e for r in mine for e in r.entries], parts=[d for r in mine for d in r.parts],
                           facts={q: f for r in mine for q, f in r.facts.items()},
                           summary=sum(_summary(r) for r in mine) % _SUM,
                           entry_questions=[q for r in mine for q in r.entry_questions],
                           small_keys=tuple(cast(str, _chunk_key(t)) for t in small))
        key = cast(str, _chunk_key(task))
        store_chunk(key, _chunk_entry(whole, key))


def _warm_alone(tasks: list[Task], found: list[TaskResult], parted: bool = False) -> bool:
    """Whether a watching process's rebuild, or a rebuild by hand that took small chunks out of
    the chunks before (``parted``, :func:`_parted_by_hand`), renders what is left in this process
    alone: when the cache had chunks and what is left of the questions is at most one chunk per
    target. Forking workers from a process that holds a big bank costs more than the tasks shared
    out save (a 10,000-question bank's rebuild after one edit: the same wall time, 0.3 s more
    CPU, bench/README.md)."""
    if not found or not (keeping() or parted):
        return False
    targets = {t.format for t in tasks} | {r.task.format for r in found}
    return sum(t.weight for t in tasks if t.part != "frame") <= CHUNK * len(targets)


def _claimed_together(task: Task) -> Hashable:
    """Which tasks next to each other one process claims as one (``parallel.run``'s ``together``):
    a chunk's targets, or a small quiz's, which share what is cached of its questions' texts
    (``content.py``). Not a big quiz's frames, whose targets share none of it: claimed as one, a
    rebuild after one edit (its four frames, then the edited chunk's four targets) left one
    process every frame, the QTI 2.1 test and manifest the heaviest of them, while the other
    rendered the chunk and waited (bench/README.md)."""
    return task if task.part == "frame" else (task.quiz, task.part, task.questions)


def _found_after_first(found: list[TaskResult], stream: Iterator[TaskResult], before_any: Callable[[], None]) -> Iterator[TaskResult]:
    """The results the build cache had (``found``), then the tasks' own (``stream``, from
    :func:`parallel.run`). The cache's are taken once the stream has started, with ``before_any``
    (the checks put off, which come before any result is taken) called first: ``run`` calls it
    once the workers are forked, so the checks of a rebuild after one edit overlap the workers
    rather than holding them back (0.06 s of a 10,000-question bank's, bench/README.md)."""
    if not found:
        yield from stream
        return
    first = next(stream, None)
    before_any()
    yield from found
    if first is not None:
        yield first
        yield from stream


def _claimed_alone(task: Task) -> Hashable:
    """Every task claimed on its own: see :func:`_shares`."""
    return task


def _shares(tasks: list[Task]) -> int:
    """How many shares of questions (a chunk's targets, a small quiz's) :func:`_claimed_together`
    makes of ``tasks``. Fewer than the processes (a rebuild after one edit: one chunk), a chunk's
    targets claimed as one would leave the others idle while one process renders them in turn
    (the chunk's four targets were the last 0.2 s of such a rebuild, with one worker done and the
    parent waiting on them, bench/README.md): they are claimed each on its own then, and what
    they would share of their texts is converted once per target."""
    return len({_claimed_together(task) for task in tasks if task.part != "frame"})


class _Once:
    """``action`` the first time it is called, nothing after (nothing at all for None)."""

    def __init__(self, action: Callable[[], None] | None) -> None:
        self.action = action

    def __call__(self) -> None:
        action, self.action = self.action, None
        if action is not None:
            action()


def _formulas_asked() -> int:
    """How many times this process has converted a formula (or found it converted): the checks
    convert every formula of the quizzes they check (``content.mathml``)."""
    from .content import mathml

    info = mathml.cache_info()
    return info.hits + info.misses


def _has_formulas() -> bool:
    """Whether a formula was read in this process (each TeX formula is converted to MathML when
    the quiz's content is checked, ``content.mathml``): then QTI 2.1's documents hold MathML."""
    from .content import mathml

    return mathml.cache_info().currsize > 0


@dataclass
class _PutTogether:
    """One output of a quiz put together from its tasks' results, not yet written: the problems
    its rules across files found (then it has no content), or its bytes and members."""

    diagnostics: list[Diagnostic]
    content: Iterable[bytes] = ()
    members: int = 0
    #: Spent putting it together ahead (counted in the quiz's "package" time).
    seconds: float = 0.0
    #: How its runs were deflated, kept in the build cache once it is written (:class:`_KeptRuns`).
    runs: _KeptRuns | None = None
    #: Where :class:`_Ahead` started writing it (``Staging.write_soon``): its target and temporary file.
    writing: tuple[Path, str] | None = None


class _Ahead:
    """The outputs of a quiz put together as soon as their own tasks are in, while the workers
    still render its other targets' last chunks (``_tail_last`` orders them so), rather than all
    after its last task with the workers idle. Only what :func:`_finish` would do with them: their
    bytes are made here, but staged there, once every task of the quiz is in and none had an
    error (a broken quiz creates no file); a quiz that has failed by then drops them, and its
    problems are what they would have been. Not for a quiz held compressed (``HOLD_PACKED_FROM``),
    whose outputs are too big to hold whole.

    Each output put together ahead is also written ahead, to its temporary file, on a thread
    (``Staging.write_soon``) while this process goes on with the quiz's other tasks; only into an
    output folder that exists (a broken quiz creates no folder), and the file is forgotten if the
    quiz fails by the time its last task is in (:func:`_finish`): only a quiz without errors has
    its files renamed into place, as ever."""

    def __init__(self, tasks: list[Task], found: list[TaskResult], packed: frozenset[int], options: BuildOptions,
                 staging: Staging) -> None:
        self.left = Counter((t.quiz, t.format) for t in itertools.chain(tasks, (r.task for r in found)))
        self.packed = packed
        self.options = options
        self.staging = staging
        #: Per quiz, each output put together ahead.
        self.made: dict[int, dict[str, _PutTogether]] = {}

    def task_in(self, task_result: TaskResult, done: list[TaskResult], result: QuizResult) -> None:
        """Another of a quiz's tasks is in (not its last): put its target's output together if
        that was the target's last."""
        quiz, name = task_result.task.quiz, task_result.task.format
        self.left[quiz, name] -= 1
        if self.left[quiz, name] or quiz in self.packed or result.failed:
            return
        mine = [r for r in done if r.task.format == name]
        if any(r.filename is None for r in mine):
            return
        started = time.perf_counter()
        made = _put_together(mine, result.source)
        # made now (its gzip, its layout), but not joined: the thread that writes it joins it
        # (Staging.write_soon), and _finish takes the bytes it joined for the build cache
        made.content = list(made.content)
        target = self.options.out_dir / str(mine[0].filename)
        if self.options.write and not made.diagnostics and target.parent.is_dir():
            made.writing = target, self.staging.write_soon(target, made.content)
        made.seconds = time.perf_counter() - started
        self.made.setdefault(quiz, {})[name] = made


def _put_together(mine: list[TaskResult], source: Path) -> _PutTogether:
    """One output of a quiz (of ``source``) from its tasks' results (``mine``): checked across its
    files, put together, its content made as it is read (the tarball's gzip, the zip's layout)."""
    assert _state is not None
    first = mine[0]
    content: Iterable[bytes]
    runs: _KeptRuns | None
    sink = DiagnosticSink()
    parts, later = _later(mine)

    def whole() -> list[Document]:  # every part, in order, for the rules across the files when they run
        return [d for r in mine for d in r.parts]

    if first.container != "zip":
        _backup_checked(str(first.filename), mine, whole, sink)
        if sink.items:
            return _PutTogether(sink.items)
        assembled = assemble(parts, later)  # each question's records put into questions.xml
        runs = _KeptRuns.of(mine, source)
        content, members = tar_parts(assembled, runs), len(assembled)
    elif first.archive:
        # A chunk's members laid out together (LaidOut) stay so: zip_parts takes them as a block.
        entries: list[Entry | LaidOut] = []
        for r in mine:
            if isinstance(r.entries, LaidOut):
                entries.append(r.entries)
            else:
                entries += r.entries
        assembled = assemble(parts, later)
        _package_checked(str(first.filename), mine, whole, lambda: set(_paths(entries)) | {d.path for d in assembled}, sink)
        if sink.items:  # the quiz has failed: build() writes none of its files
            return _PutTogether(sink.items)
        runs = _KeptRuns.of(mine, source)
        entries += [spliced_entry(d, runs) if isinstance(d, Spliced) else compress(d.path, d.content) for d in assembled]
        content, members = zip_parts(entries), sum(len(e) if isinstance(e, LaidOut) else 1 for e in entries)
    elif first.task.quiz in _state.packed:  # too big to hold whole: made as it is written
        runs, content, members = None, single_file(parts, later), 1
    else:  # every question's bytes (an unchanged chunk's from its columns), joined in one call where it is written
        runs, content, members = None, file_pieces(parts, later, later.contents()), 1
    return _PutTogether([], content, members, runs=runs)


class _Later(Mapping[str, Document]):
    """The documents of chunks that go into a frame by their questions alone (``Spliced.later``),
    by question: a chunk's made only when one of them is looked up (:class:`PackedDocuments`)."""

    def __init__(self, packs: list[tuple[PackedDocuments, list[str]]]) -> None:
        self.packs = packs
        self.chunk: dict[str, int] = {}  # each question's chunk, by its place in ``packs``
        for k, (_, ids) in enumerate(packs):
            self.chunk.update(dict.fromkeys(ids, k))
        self.made: dict[str, Document] = {}

    def __getitem__(self, question: str) -> Document:
        if question not in self.made:
            pack, ids = self.packs[self.chunk[question]]
            self.made.update(zip(ids, pack))
        return self.made[question]

    def __iter__(self) -> Iterator[str]:
        return iter(self.chunk)

    def __len__(self) -> int:
        return len(self.chunk)

    def contents(self) -> dict[str, bytes]:
        """Each question's document's bytes, of the chunks whose columns hold them as they are
        (:meth:`PackedDocuments.contents`), by question: no document made."""
        contents: dict[str, bytes] = {}
        for pack, _ in self.packs:
            contents.update(pack.contents() or {})
        return contents


def _later(mine: list[TaskResult]) -> tuple[list[Document], _Later]:
    """One output's parts (of its tasks' results, ``mine``) to walk now, and the documents of its
    chunks from the build cache that go into its frame by question alone, to look up when read
    (:class:`_Later`): an unchanged chunk's spliced documents are then never made in a rebuild
    whose runs the cache has (40,000 documents of a 10,000-question bank's rebuild by hand,
    bench/README.md). Only when that splices as walking them all would: one frame, and each
    question's document once; else every part is walked, as ever."""
    now: list[Document] = []
    packs: list[tuple[PackedDocuments, list[str]]] = []
    for result in mine:
        pack = result.parts
        ids = pack.questions() if isinstance(pack, PackedDocuments) else None
        if ids:
            packs.append((cast(PackedDocuments, pack), ids))
        else:
            now.extend(result.parts)
    if not packs:
        return now, _Later([])
    later = _Later(packs)
    frames = sum(1 for d in now if d.question_order)
    own = [d.question_id for d in now if d.question_id is not None and not d.question_order]
    if frames != 1 or len(later) != sum(len(ids) for _, ids in packs) or not later.chunk.keys().isdisjoint(own):
        return [d for r in mine for d in r.parts], _Later([])
    return now, later


def _paths(entries: Iterable[Entry | LaidOut]) -> Iterator[str]:
    """The path of each zip member of ``entries``, those laid out together read from their columns."""
    for entry in entries:
        if isinstance(entry, LaidOut):
            yield from entry.paths
        else:
            yield entry.path


def _facts(mine: list[TaskResult]) -> Facts:
    """What validation read of the questions' documents of one output's tasks (``mine``)."""
    return {question: fact for r in mine for question, fact in r.facts.items()}


#: The documents of a question whose content the rules across a package never read: what they
#: need of it was read when it was validated (its ``facts``). Any other document's bytes are read.
READ_AS_FACTS = frozenset({"qti12-item", "manifest-resource", "mbz-question"})

#: What the rules across a package read of each chunk's result, by the chunk's key
#: (:func:`_summary`), kept across the builds of one process (``build --watch``): a rebuild after
#: one edit reads again only the edited chunks'.
_SUMMARIES: dict[str, int] = {}


def _package_key(mine: list[TaskResult]) -> str | None:
    """The build cache's key of a clean verdict of the rules across one output's files: the
    target, the output's name, what the rules read of the frame task's result and of the
    questions' (:func:`_summary`); the build's settings (the code, the schemas) cover the rules
    themselves. None without the cache, or for a quiz in one task (a small one, whose rules cost
    less than an entry)."""
    assert _state is not None
    settings = _state.cache_settings
    if settings is None or any(r.task.part == "whole" for r in mine):
        return None
    digest = hashlib.sha256(f"{mine[0].task.format}\0{mine[0].filename}\0".encode())
    for frame in sorted(_frame_summary(r) for r in mine if r.task.part == "frame"):
        digest.update(frame)
    questions = sum(_summary(r) for r in mine if r.task.part != "frame") % _SUM
    digest.update(questions.to_bytes(32, "big"))
    return valid_key(settings, "package-rules", digest.digest())


#: The questions' digests are added up modulo this (:func:`_summary`).
_SUM = 1 << 256


def _frame_summary(result: TaskResult) -> bytes:
    """A frame rendered from the quiz's view is known by its key alone (:func:`_frame_key`: the
    build cache takes its whole result under it); one rendered from the whole quiz by what the
    rules read of it (:func:`_read_of`)."""
    key = _chunk_key(result.task)
    if key is not None:
        return f"frame\0{key}".encode()
    return hashlib.sha256(b"".join(_read_of(result))).digest()


def _read_of(result: TaskResult) -> Iterator[bytes]:
    """What the rules across a package (``validate.validate_package``) read of one task's result,
    in pieces: each document's kind, path, schema, question, question order and marker lines, and
    its bytes unless it is a question's document they read through its facts (``READ_AS_FACTS``);
    each entry's path (the member names); each question's facts."""
    for document in result.parts:
        text = (f"D{type(document).__name__}\0{document.path}\0{document.schema}\0{document.question_id}\0"
                f"{document.question_order!r}\0{document.keeps_markers}\0").encode()
        if document.question_id is None or document.schema not in READ_AS_FACTS:
            content = document.content
            text += b"%d\0" % len(content) + content
        yield text
    entries = result.entries
    for path in entries.paths if isinstance(entries, LaidOut) else [entry.path for entry in entries]:
        yield f"E{path}\0".encode()
    for question, fact in result.facts.items():
        yield f"F{question}\0{fact!r}\0".encode()


def _summary(result: TaskResult) -> int:
    """What the rules read of a chunk's result (:func:`_read_of`), each piece's digest added up
    modulo ``_SUM``: a multiset's digest, the same however the questions are cut into chunks (the
    first rebuild after a cold build renders the edited chunk again in smaller chunks) and
    whatever order the chunks finish in; the rules read each question's part by its question, in
    the frame's order. The same for the same chunk's key, which the build cache already takes the
    whole result under, so it is made once per chunk key in a process (``_SUMMARIES``): a watch's
    rebuild after one edit makes one per target instead of walking 10,000 questions' documents
    (the rules across a big bank's Canvas package and QTI 2.1 manifest were 0.03-0.04 s each of
    such a rebuild, bench/README.md). A chunk rendered with the build cache brings its own
    (``TaskResult.summary``, made where it was rendered and kept in its entry): a rebuild by hand
    walked the 120 unchanged chunks' documents again for it, 0.1 s of its command's CPU."""
    if result.summary is not None:
        return result.summary
    key = _chunk_key(result.task)
    if key is not None and key in _SUMMARIES:
        return _SUMMARIES[key]
    summary = _summed(result)
    if key is not None:
        if len(_SUMMARIES) > 4096:  # a long watch of many quizzes: start again rather than grow
            _SUMMARIES.clear()
        _SUMMARIES[key] = summary
    return summary


def _summed(result: TaskResult) -> int:
    """:func:`_summary` worked out: the digest of each piece the rules read, added up."""
    sha256, from_bytes = hashlib.sha256, int.from_bytes
    return sum(from_bytes(sha256(piece).digest(), "big") for piece in _read_of(result)) % _SUM


def _package_checked(output_name: str, mine: list[TaskResult], parts: Callable[[], list[Document]],
                     names: Callable[[], set[str]], sink: DiagnosticSink) -> None:
    """The rules across a package's files (:func:`validate_package`), not run again when an earlier
    build found nothing for the same (:func:`_package_key`): an edit of a question's text changes
    nothing they read of its chunk, an identifier or a reference changed does.
    ``parts`` makes its documents and ``names`` the paths of all its members, asked only when the rules run. A package with a
    problem is never remembered, so it is reported again by every build."""
    key = _package_key(mine)
    if key is not None and load_valid(key):
        return
    mine_sink = DiagnosticSink()
    validate_package(output_name, parts(), names(), _facts(mine), mine_sink)
    sink.items.extend(mine_sink.items)
    if key is not None and not mine_sink.items:
        store_valid(key)


def _backup_checked(output_name: str, mine: list[TaskResult], parts: Callable[[], list[Document]], sink: DiagnosticSink) -> None:
    """The rules across a quiz backup's parts (:func:`validate_package`), but with the build cache,
    not again when an earlier build found nothing for the same (:func:`_package_key`): they read
    the parts that are not a question's records (the frames: ``questions.xml``'s categories and
    lines, ``quiz.xml``'s slots, the small parts and files) and, of each question's records, only
    what validation read of them (each bank entry's id, parent and type). One question's text
    edited changes none of it: a rebuild does not parse the frames again and walk the bank (0.09 s
    of a 10,000-question bank's rebuild, bench/README.md). A backup with a problem is never
    remembered."""
    _package_checked(output_name, mine, parts, lambda: {d.path for d in parts()}, sink)


def _finish(done: list[TaskResult], result: QuizResult, options: BuildOptions, staging: Staging,
            kept: dict[str, bytes] | None = None, ahead: dict[str, _PutTogether] | None = None) -> None:
    """All of a quiz's tasks are in: put each output together (or take it as :class:`_Ahead` put
    it together) and stage it (for ``check``, hash it); ``kept`` gets each output's bytes, for the
    build cache. An output whose bytes are made whole is written on a thread
    (``Staging.write_soon``) while the next is put together; each is waited for before the quiz's
    outputs are listed, in the targets' order."""
    if result.failed or any(r.filename is None for r in done):
        for made in (ahead or {}).values():
            if made.writing is not None:  # written ahead, then the quiz failed: no file of it stays
                staging.forget(*made.writing)
        return
    started = time.perf_counter() - sum(made.seconds for made in (ahead or {}).values())
    content: Iterable[bytes]
    listed: list[tuple[str, Path, int, _PutTogether]] = []
    for name in options.formats:
        mine = [r for r in done if r.task.format == name]
        target = options.out_dir / str(mine[0].filename)
        made = (ahead or {}).get(name) or _put_together(mine, result.source)
        if made.diagnostics:
            result.diagnostics.extend(made.diagnostics)
            continue
        content, members = made.content, made.members
        if kept is not None:
            # an output written ahead was joined by the thread that writes it (_Ahead.task_in)
            joined = staging.joined(made.writing[0]) if made.writing is not None else None
            kept[name] = joined if joined is not None else b"".join(content)
            content = [kept[name]]
            pack_soon(kept, name)  # a big one's deflate started now, while the others are put together
        if made.writing is None and options.write:
            if isinstance(content, list):  # bytes made already: written while the next output is put together
                made.writing = target, staging.write_soon(target, content)
            else:  # made as it is written (a quiz held compressed: too big to hold whole)
                staging.write(target, content)
        if not options.write:
            made.content = content
        listed.append((name, target, members, made))
    if kept is not None and len(kept) == len(options.formats):
        pack_soon(kept)  # the quiz's entry deflates them while the files are staged and committed
    for name, target, members, made in listed:
        if options.write:
            staged = staging.written(target)
            sha256, size = staged.sha256, staged.size
        else:
            sha256, size = _digest(made.content)
        if made.runs is not None:
            made.runs.keep()
        result.outputs.append(OutputFile(name, target, sha256, size, members))
    result.timings["package"] += time.perf_counter() - started


#: Bytes from which a run of frame text alone is kept with the runs of questions (:class:`_KeptRuns`).
KEEP_FRAME_RUNS_FROM = 256 * 1024


class _KeptRuns:
    """How one output's runs are deflated (``package.Deflate``) with the build cache: a run made of
    questions' documents from chunks of known keys (and the frame's text between them) is taken
    from the runs the last build of the source kept, by a key of what it is made of, or deflated;
    the runs used are kept for the next build (:meth:`keep`). So a build after one edit deflates
    again only the runs of the edited question and of the frame's text that changed. A run of
    frame text alone is taken likewise, by a key of its bytes, when it is big enough to be worth
    hashing (``KEEP_FRAME_RUNS_FROM``: the quiz backup's quiz.xml, 6 MB of slots in a
    10,000-question bank, deflated again at level 6 took 0.017 s of each rebuild; one edited
    question's text does not change it); a small one (a tar header, a small member) is
    deflated each time: nothing to save."""

    def __init__(self, key: str | None, chunks: dict[str, str]) -> None:
        self.key = key
        #: Each question's chunk key: what its documents are, in this target.
        self.chunks = chunks
        self.before: dict[str, object] = load_runs(key) if key is not None else {}
        self.used: dict[str, object] = {}

    @classmethod
    def of(cls, done: list[TaskResult], source: Path) -> _KeptRuns:
        """The runs of the output that the tasks ``done`` (one target's) make of ``source``."""
        assert _state is not None
        if _state.cache_settings is None:
            return cls(None, {})
        chunks = {}
        for result in done:
            key = _chunk_key(result.task)
            if key is not None:
                chunks.update(dict.fromkeys(result.task.questions, key))
        return cls(runs_key(_state.cache_settings, source, done[0].task.format) if chunks else None, chunks)

    def __call__(self, pieces: Sequence[bytes | Document], level: int) -> Deflated:
        key = self._key(pieces, level)
        if key is None:
            return deflated(pieces, level)
        run = self.before.get(key)
        if not isinstance(run, Deflated):
            run = deflated(pieces, level)
        self.used[key] = run
        return run

    def _key(self, pieces: Sequence[bytes | Document], level: int) -> str | None:
        """What the run is made of: its frame text, and each question's document by its chunk's
        key; None for a run of frame text alone smaller than ``KEEP_FRAME_RUNS_FROM``, or for one
        with a question not rendered from a keyed chunk."""
        if self.key is None:
            return None
        if isinstance(pieces, SplicedRun) and pieces.ids:  # its questions by id: their documents not looked up
            return self._spliced_key(pieces.texts, pieces.ids, level)
        texts, documents = pieces[0::2], pieces[1::2]
        if set(map(type, texts)) == {bytes} and set(map(type, documents)) == {Document}:
            ids = [cast(Document, document).question_id for document in documents]  # a None has no chunk: below
            return self._spliced_key(cast(Sequence[bytes], texts), cast(list[str], ids), level)
        frame_text = [p for p in pieces if isinstance(p, bytes)]
        if len(frame_text) == len(pieces) and sum(map(len, frame_text)) < KEEP_FRAME_RUNS_FROM:
            return None
        digest = hashlib.sha256(f"{zlib.ZLIB_RUNTIME_VERSION}\0{level}\0".encode())
        for piece in pieces:
            if isinstance(piece, bytes):
                digest.update(b"F%d\0" % len(piece))
                digest.update(piece)
            elif piece.question_id in self.chunks:
                digest.update(f"Q{self.chunks[piece.question_id]}\0{piece.question_id}\0".encode())
            else:
                return None
        return digest.hexdigest()

    def _spliced_key(self, texts: Sequence[bytes], ids: list[str], level: int) -> str | None:
        """:meth:`_key` of a spliced member's run (``writers.base.spliced_runs``): frame text and a
        question's document by turns, the questions by id. Hashed in a few calls a run, not several
        a piece (20,000 pieces an output of a 10,000-question bank: 0.03 s of its rebuild after one
        edit, bench/README.md): the texts' lengths, the texts, and each question's chunk key and id."""
        chunks = list(map(self.chunks.get, ids))
        if None in chunks:
            return None
        digest = hashlib.sha256(f"{zlib.ZLIB_RUNTIME_VERSION}\0{level}\0A\0".encode())
        digest.update(array("Q", map(len, texts)).tobytes() + b"\0")
        digest.update(b"".join(texts))
        # Neither a chunk's key (hex digits) nor a question's id (an identifier) holds a NUL.
        digest.update("\0".join(itertools.chain.from_iterable(zip(cast(list[str], chunks), ids))).encode())
        return digest.hexdigest()

    def keep(self) -> None:
        if self.key is not None and self.used and self.used.keys() != self.before.keys():
            store_runs(self.key, self.used)


#: Questions from which a quiz's model is pickled for its cache entry ahead, in a process forked
#: for it once the quiz is read (:class:`.cache.PickledAhead`); a smaller one's pickles in less
#: than the fork costs.
PICKLE_AHEAD_FROM = 2_000


def _pickled_ahead(good: dict[int, WritableQuiz], results: list[QuizResult], kept: dict[int, dict[str, bytes]]) -> dict[int, PickledAhead]:
    """The models of the quizzes to keep in the build cache (``kept``) pickled ahead, each in a
    process forked now (:class:`.cache.PickledAhead`), for those read without errors with
    ``PICKLE_AHEAD_FROM`` questions or more (below ``HOLD_PACKED_FROM``: a bigger one keeps its
    chunks, not a whole entry). Not in a watching process, which writes its entries in a process
    of its own (:func:`_keep`)."""
    if keeping() or not kept or not forks():
        return {}
    return {i: PickledAhead(good[i].quiz, results[i].spans) for i in kept
            if i in good and not results[i].failed and good[i].quiz is results[i].quiz
            and PICKLE_AHEAD_FROM <= len(good[i].spans) < HOLD_PACKED_FROM}


def _keep(results: list[QuizResult], good: dict[int, WritableQuiz], kept: dict[int, dict[str, bytes]], lookup: Lookup,
          ahead: Mapping[int, PickledAhead]) -> None:
    """Keep in the build cache each quiz built here without errors, with every output's bytes. A
    watching process (``build --watch``) does it in a process forked for it (``memory.in_background``:
    a snapshot, which nothing this build does next can change), and goes on at once: pickling and
    writing a 10,000-question quiz's entry was 0.2 s of each rebuild after an edit, which no
    output waits for (bench/README.md)."""
    if kept or lookup.settings is not None:
        in_background(functools.partial(_keep_now, results, good, kept, lookup, ahead), [lookup.keys[i] for i in kept])


def _keep_now(results: list[QuizResult], good: dict[int, WritableQuiz], kept: dict[int, dict[str, bytes]], lookup: Lookup,
              ahead: Mapping[int, PickledAhead]) -> None:
    for i, contents in kept.items():
        result = results[i]
        if result.failed or i not in good or set(contents) != {o.format for o in result.outputs}:
            continue
        item = good[i]
        store(CachedQuiz(lookup.keys[i], result, contents, media_of(item.media), item.quiz.id, item.id_span), ahead.get(i))
    if lookup.settings is not None:
        prune()


def _digest(parts: Iterable[bytes]) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    for part in parts:
        digest.update(part)
        size += len(part)
    return digest.hexdigest(), size


# -- in memory, for the preview and the tests ---------------------------------------------------


def render_outputs(loaded: list[LoadedQuiz], options: BuildOptions, sink: DiagnosticSink) -> list[Output]:
    """Every target of every quiz, rendered and validated in memory (one process)."""
    schemas = load_schemas(resolve_schema_dir(options.schemas))
    env = make_environment(options.templates)
    outputs: list[Output] = []
    for item in loaded:
        spans = item.spans
        for name in options.formats:
            output = WRITERS[name](env).write(item.quiz, spans, sink, item.media)
            if output is not None:
                facts = validate_documents(output.filename, output.documents, schemas, spans, sink)
                if output.container != "zip":
                    validate_package(output.filename, output.documents, {d.path for d in output.documents}, facts, sink)
                elif output.archive:
                    whole = [d for d in output.documents if is_spliced(d) or d.schema in PACKAGE_RULES_READ]
                    validate_package(output.filename, whole, {m.path for m in assemble(output.documents)}, facts, sink)
                outputs.append(output)
    return outputs


__all__ = ["BuildIncomplete", "BuildOptions", "BuildResult", "LoadedQuiz", "OutputFile", "QuizResult", "WritableQuiz",
           "build", "find_sources", "load_quizzes", "plan", "render_outputs"]
