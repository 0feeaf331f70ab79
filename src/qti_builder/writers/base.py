"""What the writers share: the documents they produce and rendering a template safely."""

from __future__ import annotations

import hashlib
import os
import re
import traceback
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar, cast, overload

import jinja2

from ..diagnostics import DiagnosticSink, SourceSpan
from ..media import MediaSet
from ..model import Quiz, Section
from ..model.questions import QuestionBase
from ..templating import media_of

K = TypeVar("K")

#: A single-file output (Moodle XML), or one member of a package (a Canvas assessment), is a frame
#: with this comment (the one Moodle's own export writes) on a line of its own where each question
#: goes, numbered from 1 in the order of the frame's ``question_order``; each question is a
#: document of its own, rendered and validated apart (so big quizzes split among workers, and an
#: error points at its question) and put in place by :func:`single_file`. A number, not the id: an
#: id may contain "--", which a comment may not.
QUESTION_MARKER = re.compile(rb"<!-- question: ([0-9]+) -->\n")
#: The same, the whole line a group of its own: a frame cut at its marker lines by ``re.split``.
_MARKER_SPLIT = re.compile(b"(" + QUESTION_MARKER.pattern + b")")


@dataclass(frozen=True)
class Document:
    """One generated XML document, validated before anything is written."""

    #: Path inside the package, or the output file's name for single-file targets.
    path: str
    data: bytes
    #: Which schema validates it: "qti", "manifest", "moodle" (a whole file or a frame) or
    #: "moodle-question" (one ``<question>``); for the Canvas package "qti12" (its assessment, a
    #: frame), "qti12-item" (one ``<item>``), "content-package" and "canvas-meta"; "" for media.
    schema: str
    #: The question this document holds, when it holds exactly one.
    question_id: str | None = None
    #: For a frame: the ids of the questions its markers stand for, in marker order.
    question_order: tuple[str, ...] = ()
    #: For a frame: whether its marker lines stay in the file, each before its question (a Moodle
    #: file, a Canvas assessment: as Moodle's own export writes them), or each is replaced by its
    #: question (a QTI 2.1 manifest, whose lines only say where each question's resources go).
    keeps_markers: bool = True
    #: ``data`` is zlib-compressed: a big quiz's question documents, held until their file is put
    #: together (:func:`held`), which :func:`single_file` expands one at a time.
    packed: bool = False

    @property
    def content(self) -> bytes:
        return zlib.decompress(self.data) if self.packed else self.data

    def pieces(self) -> Iterator[bytes]:
        """Its bytes, in one piece (a :class:`Spliced` member's come in many)."""
        yield self.content


@dataclass(frozen=True)
class Spliced:
    """A package member put together from a frame and the questions' documents that go into it
    (a Canvas assessment). Its bytes are read piece by piece (:meth:`pieces`: the frame's lines
    and each question's document in turn, a held one expanded only then) and never joined: a
    100,000-question bank's assessment is 250 MB."""

    path: str
    schema: str
    documents: tuple[Document, ...]
    #: More questions' documents, by question, looked up only when their bytes are read (a
    #: rebuild's unchanged chunks, :class:`PackedDocuments`: a run the build cache has is never
    #: read, and they are never made).
    later: Mapping[str, Document] = field(default_factory=dict, compare=False)
    #: A member of many questions is no one question's.
    question_id: ClassVar[None] = None

    def pieces(self) -> Iterator[bytes]:
        return single_file(self.documents, self.later)


#: The build's time when ``SOURCE_DATE_EPOCH`` is not set: 1980-01-01, the earliest a zip can hold.
EPOCH_1980 = 315532800


def build_epoch() -> int:
    """The time every output states (a zip entry's, a Moodle backup's records'): ``SOURCE_DATE_EPOCH``,
    at the earliest 1980-01-01, so the same sources give the same bytes."""
    return max(int(os.environ.get("SOURCE_DATE_EPOCH", EPOCH_1980) or EPOCH_1980), EPOCH_1980)


def text_shown(question: QuestionBase, stem: str | None = None) -> str:
    """What students read as the question: its shared passage, if it has one, above its text
    (``stem``: the text as a target rewrote it)."""
    stem = question.stem if stem is None else stem
    return f"{question.passage}\n\n{stem}" if question.passage else stem


class FrameQuestion(NamedTuple):
    """A question as a big quiz's frames see it (:func:`frame_view`): its id, kind, points and
    whether it shuffles its options (Canvas has one switch for the whole quiz), nothing else. A
    frame (a QTI test and its manifest's frame, a Canvas assessment's frame, a Moodle file's, a
    quiz backup's slots and bank) lays out the quiz around its questions, whose documents are
    rendered apart, in chunks: it needs of each question only where it goes and what it is worth.
    Rendered from this, a frame depends on nothing of a question's text, title or answers, so the
    pipeline keeps it in the build cache by a key of the view (:func:`view_digest`) and a rebuild
    after a question's text is edited takes it from there. Not for a target whose templates a
    ``--templates`` overlay overrides (:meth:`Writer.frame_from_view`): its frame may read anything.
    Code that reads anything else of a question fails (the environment's ``StrictUndefined``)
    rather than being kept stale."""

    id: str
    type: str
    points: float
    shuffle: bool


def frame_view(quiz: Quiz) -> Quiz:
    """``quiz`` as its frames see it: the quiz and its sections as they are, each question a
    :class:`FrameQuestion`. A copy: the quiz itself is not changed."""

    def section(s: Section) -> Section:
        questions = [FrameQuestion(q.id, q.type, q.points, getattr(q, "shuffle", False)) for q in s.questions]
        return s.model_copy(update={"questions": questions, "sections": [section(c) for c in s.sections]})

    return quiz.model_copy(update={"sections": [section(s) for s in quiz.sections]})


def view_digest(view: Quiz) -> str:
    """A digest of everything a frame rendered from ``view`` (:func:`frame_view`) can read of the
    quiz: the quiz and its sections without their questions (as JSON, with the settings given),
    each section's group points, and each question as the view holds it, in order."""

    def bare(s: Section) -> Section:
        return s.model_copy(update={"questions": [], "sections": [bare(c) for c in s.sections]})

    digest = hashlib.sha256(view.model_copy(update={"sections": [bare(s) for s in view.sections]}).model_dump_json().encode())
    digest.update(repr(sorted(view.settings.model_fields_set)).encode())
    for _, section in view.iter_sections():
        digest.update(repr((section.id, section.group_points(), [tuple(q) for q in section.questions])).encode())
    return digest.hexdigest()


def held(document: Document) -> Document:
    """``document`` compressed for holding (zlib's fastest level: a tenth of the memory)."""
    return document if document.packed else replace(document, data=zlib.compress(document.data, 1), packed=True)


def is_spliced(document: Document) -> bool:
    """A frame or a question's document that goes into it (rather than a file of its own)."""
    return bool(document.question_order) or document.path.startswith("#")


def single_file(documents: Iterable[Document], later: Mapping[str, Document] | None = None) -> Iterator[bytes]:
    """The bytes of a spliced file: its frame (the document with a ``question_order``) with each
    question's document after the question's marker line (one not in ``documents`` from ``later``)."""
    for piece in spliced_pieces(documents, later):
        yield piece if isinstance(piece, bytes) else piece.content


def file_pieces(documents: Iterable[Document], later: Mapping[str, Document] | None = None,
                contents: Mapping[str, bytes] | None = None) -> list[bytes]:
    """:func:`single_file`'s pieces in a list, each as it is: the frame's texts and the questions'
    bytes by turns, for one join rather than a walk piece by piece (a Moodle file of a
    10,000-question bank is 20,001 pieces, which a rebuild walked through two generators,
    bench/README.md), on the thread that writes the file (``Staging.write_soon``). ``contents``:
    the bytes of ``later``'s documents by question, taken rather than looking them up (a rebuild's
    unchanged chunks, read from their columns: :meth:`PackedDocuments.contents`); a question's
    document in ``documents`` comes first."""
    texts, ids, questions = _cut(documents, later)
    own = questions.first if isinstance(questions, _Either) else questions  # looked up first, as ever
    found = dict(contents or {})
    found.update({question: document.content for question, document in own.items()})
    found.update({question: questions[question].content for question in set(ids).difference(found)})
    pieces: list[bytes] = [b""] * (len(texts) + len(ids))
    pieces[0::2] = texts  # one text more than questions: the frame's first, between each, its last
    pieces[1::2] = map(found.__getitem__, ids)
    return pieces


def spliced_pieces(documents: Iterable[Document], later: Mapping[str, Document] | None = None) -> Iterator[bytes | Document]:
    """:func:`single_file`'s pieces, each question's document as it is (not expanded): the
    frame's text up to and with each marker line (up to it, for a frame that does not keep its
    markers), then that question's document, and the frame's text after the last marker line."""
    texts, ids, questions = _cut(documents, later)
    yield from SplicedRun(texts, ids, questions)


def _cut(documents: Iterable[Document], later: Mapping[str, Document] | None) -> tuple[list[bytes], list[str], Mapping[str, Document]]:
    """:func:`spliced_pieces` as the frame's texts and the questions' ids between them (one text
    more than ids), and where each question's document is looked up: the frame cut at its marker
    lines in one call (``re.split``) rather than match by match, and no question's document
    looked up (a 10,000-question bank's four outputs are each walked so in a rebuild,
    bench/README.md). A question's document in ``documents`` is looked up there first."""
    frame, questions = None, {}
    for document in documents:
        if document.question_order:
            frame = document
        elif document.question_id is not None:
            questions[document.question_id] = document
    assert frame is not None, "a spliced file needs its frame"
    cut = _MARKER_SPLIT.split(frame.content)  # text, marker line, its number, text, ..., text
    texts, markers, order = cut[0::3], cut[1::3], frame.question_order
    if frame.keeps_markers:
        texts = [text + marker for text, marker in zip(texts, markers)] + [texts[-1]]
    ids = [order[int(number) - 1] for number in cut[2::3]]
    if not later:
        if not questions.keys() >= set(ids):  # as ever: a question of the frame without its document is an error
            raise KeyError(next(i for i in ids if i not in questions))
        return texts, ids, questions
    return texts, ids, _Either(questions, later)


class _Either(Mapping[str, "Document"]):
    """Documents looked up in ``first``, then in ``then``."""

    def __init__(self, first: Mapping[str, Document], then: Mapping[str, Document]) -> None:
        self.first, self.then = first, then

    def __getitem__(self, question: str) -> Document:
        found = self.first.get(question)
        return found if found is not None else self.then[question]

    def __iter__(self) -> Iterator[str]:
        yield from self.first
        yield from (question for question in self.then if question not in self.first)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class SplicedRun(Sequence["bytes | Document"]):
    """A run of a spliced file's pieces (:func:`spliced_runs`): frame text and questions'
    documents by turns, starting with text; ``texts`` has as many items as ``ids`` or one more.
    Each question is known by its id; its document is looked up in ``questions`` only when the
    run's pieces are read: a run the build cache has (the pipeline's ``_KeptRuns``, which keys a
    run by ``texts`` and ``ids``) never reads them. Equal to any sequence of the same pieces."""

    __slots__ = ("ids", "questions", "texts")

    def __init__(self, texts: list[bytes], ids: list[str], questions: Mapping[str, Document]) -> None:
        assert len(ids) <= len(texts) <= len(ids) + 1, "a run's texts and questions by turns"
        self.texts, self.ids, self.questions = texts, ids, questions

    def __len__(self) -> int:
        return len(self.texts) + len(self.ids)

    @overload
    def __getitem__(self, index: int) -> bytes | Document: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes | Document]: ...

    def __getitem__(self, index: int | slice) -> bytes | Document | list[bytes | Document]:
        if isinstance(index, slice):
            return list(self)[index]
        index = range(len(self))[index]  # an IndexError past either end, a negative one from the end
        return self.questions[self.ids[index // 2]] if index % 2 else self.texts[index // 2]

    def __iter__(self) -> Iterator[bytes | Document]:
        questions = self.questions
        for k, text in enumerate(self.texts):
            yield text
            if k < len(self.ids):
                yield questions[self.ids[k]]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, (str, bytes)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # a sequence that compares by its pieces

    def __repr__(self) -> str:
        return f"SplicedRun({list(self)!r})"


def spliced_runs(documents: Iterable[Document], every: int, later: Mapping[str, Document] | None = None) -> Iterator[SplicedRun]:
    """:func:`spliced_pieces` in runs of ``every`` questions, in the order the file has them: a
    run starts at the frame's text before each ``every``-th marker line (the first run at the
    file's start, the last one ends with the frame's end, alone after the last marker line when
    the questions fill the runs before). Where the runs are cut depends on the file alone, not on
    how its questions were shared among tasks. No question's document is looked up here
    (:class:`SplicedRun`)."""
    texts, ids, questions = _cut(documents, later)
    for start in range(0, len(ids) + 1, every):
        yield SplicedRun(texts[start:start + every], ids[start:start + every], questions)


def assemble(documents: Iterable[Document], later: Mapping[str, Document] | None = None) -> list[Document | Spliced]:
    """The members of an archive: its documents, with a frame and the questions' documents
    spliced into it as one member (a Canvas assessment), in the frame's place; ``later``: more
    questions' documents for it, looked up when read (:attr:`Spliced.later`)."""
    spliced: list[Document] = []
    members: list[Document | Spliced] = []
    for document in documents:  # is_spliced, in one pass: a big quiz's package has 10,000 such documents
        (spliced if document.question_order or document.path[:1] == "#" else members).append(document)
    frame = next((d for d in spliced if d.question_order), None)
    if frame is not None:
        members.append(Spliced(frame.path, frame.schema, tuple(spliced), later or {}))
    else:
        assert not later, "questions' documents to splice need a frame"
    return members


class PackedDocuments(Sequence[Document]):
    """Documents as a chunk's entry in the build cache keeps them (the pipeline's
    ``_chunk_entry``): each field a column, the documents made only when first read. Unpickling
    250 documents made 250 objects and their dicts (a rebuild by hand of a 10,000-question bank
    took 160 chunks' entries, 40,000 documents, bench/README.md); a rebuild splices an unchanged
    chunk's documents by their question alone (:meth:`questions`), and reads them only for a run
    the build cache does not have. Equal to any sequence of the same documents.

    The documents' bytes may be a column kept apart (:meth:`apart`, a :class:`ColumnApart`), read
    only when first needed: a rebuild by hand after one edit read and unpickled 21 MB of bytes of
    unchanged chunks' documents that it never looked at (bench/README.md)."""

    __slots__ = ("_columns", "_made", "_questions")

    def __init__(self, columns: tuple[list[Any], ...], spliced: bool | None = None) -> None:
        # From an entry in the build cache: anything not as made by :meth:`of` fails here, so
        # pickle.loads fails and the entry is a miss (the chunk rendered again).
        if len(columns) != len(_DOCUMENT_FIELDS) or len({len(column) for column in columns}) > 1:
            raise ValueError("documents' columns of different lengths")
        self._columns = columns
        self._made: list[Document] | None = None
        # What :meth:`questions` says, when the entry kept it (``spliced``); else not worked out yet.
        self._questions: list[str] | None | bool = False if spliced is None else self._ids() if spliced else None

    @classmethod
    def of(cls, documents: Iterable[Document]) -> PackedDocuments:
        documents = list(documents)
        assert all(type(d) is Document for d in documents), "only documents pack"
        return cls(tuple([getattr(d, name) for d in documents] for name in _DOCUMENT_FIELDS))

    def __reduce__(self) -> tuple[type[PackedDocuments], tuple[tuple[list[Any], ...], bool]]:
        # What :meth:`questions` says is kept with the columns: a rebuild by hand asks it of every
        # chunk it takes (160 for a 10,000-question bank), and working it out from the columns
        # took 7 ms of it (bench/README.md). The ids it gives are the ids' column itself.
        return PackedDocuments, (self._columns, self.questions() is not None)

    def with_data(self, data: ColumnApart) -> PackedDocuments:
        """These documents with their bytes the column ``data`` kept apart (as many)."""
        assert len(data) == len(self)
        columns = cast("tuple[list[Any], ...]", self._columns[:_DATA] + (data,) + self._columns[_DATA + 1:])  # a list's place
        return PackedDocuments(columns, self.questions() is not None)

    def apart(self) -> ColumnApart | None:
        """The documents' bytes as a column kept apart, not read yet; else None."""
        data = self._columns[_DATA]
        return None if isinstance(data, list) else cast(ColumnApart, data)

    def _data(self) -> list[bytes]:
        """The documents' bytes, a column kept apart read now (once)."""
        data = self._columns[_DATA]
        if not isinstance(data, list):
            data = cast(ColumnApart, data).load()
            if len(data) != len(self):
                raise ValueError("a column kept apart of another length")
            self._columns = self._columns[:_DATA] + (data,) + self._columns[_DATA + 1:]
        return cast("list[bytes]", data)

    def _ids(self) -> list[str]:
        ids: list[str] = self._columns[_DOCUMENT_FIELDS.index("question_id")]
        return ids

    @property
    def documents(self) -> list[Document]:
        if self._made is None:
            self._data()
            new, put = object.__new__, object.__setattr__
            made = []
            for path, data, schema, question_id, order, keeps, packed in zip(*self._columns):
                document = new(Document)
                put(document, "__dict__", {"path": path, "data": data, "schema": schema, "question_id": question_id,
                                           "question_order": order, "keeps_markers": keeps, "packed": packed})
                made.append(document)
            self._made = made
        return self._made

    def contents(self) -> dict[str, bytes] | None:
        """Each question's document's bytes by question, when :meth:`questions` says each is one
        question's and none is held compressed; else None. Read from the columns: no document made."""
        ids = self.questions()
        if ids is None or any(self._columns[_DOCUMENT_FIELDS.index("packed")]):
            return None
        return dict(zip(ids, self._data()))

    def questions(self) -> list[str] | None:
        """The question of each document, in order, when each is a different question's document
        that goes into a frame (:func:`is_spliced`, no frame itself); else None. Read from the
        columns: no document made."""
        if self._questions is False:  # worked out once: asked as each output is put together
            paths, ids, orders = (self._columns[_DOCUMENT_FIELDS.index(name)] for name in ("path", "question_id", "question_order"))
            self._questions = ids if (all(type(i) is str for i in ids) and len(set(ids)) == len(ids) and not any(orders)
                                      and all(type(p) is str and p[:1] == "#" for p in paths)) else None
        return cast("list[str] | None", self._questions)

    def __len__(self) -> int:
        return len(self._columns[0])

    @overload
    def __getitem__(self, index: int) -> Document: ...

    @overload
    def __getitem__(self, index: slice) -> list[Document]: ...

    def __getitem__(self, index: int | slice) -> Document | list[Document]:
        return self.documents[index]

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, (str, bytes)) and self.documents == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedDocuments({self.documents!r})"


#: A document's fields, in the order :class:`PackedDocuments` keeps them as columns.
_DOCUMENT_FIELDS = ("path", "data", "schema", "question_id", "question_order", "keeps_markers", "packed")
assert _DOCUMENT_FIELDS == tuple(f.name for f in fields(Document)), "PackedDocuments keeps every field of a document"
_DATA = _DOCUMENT_FIELDS.index("data")


class ColumnApart(Protocol):
    """The documents' bytes of a :class:`PackedDocuments` kept apart from its other columns (the
    pipeline's, in an entry of the build cache of their own): as many as it has documents, read
    by :meth:`load` when first needed."""

    def __len__(self) -> int: ...

    def load(self) -> list[bytes]: ...


@dataclass(frozen=True)
class KindAdapter:
    """How a target writes one question kind: the template of its question and the function that
    computes what the template shows beyond the question itself. Each target makes one per kind
    from the kind's spec (``Writer.adapters``, a :class:`~qti_builder.kinds.KindTable`) and adds its
    own fields in a subclass."""

    template: str
    context: Callable[..., dict[str, Any]]


@dataclass
class Output:
    """Everything one writer produces for one quiz."""

    #: File name in the output folder, e.g. ``ray-train-tune.qti21.zip``.
    filename: str
    documents: list[Document] = field(default_factory=list)
    #: True: the documents are zipped into ``filename``; False: the single document is the file.
    archive: bool = False
    #: How an archive is packed: "zip", or "tar.gz" (a Moodle backup).
    container: str = "zip"


class Writer:
    """A target format. Subclasses set the class attributes and implement :meth:`write`."""

    #: Selector used by ``--format`` and the template folder name.
    name: ClassVar[str]
    #: Suffix of the output file, after the quiz id.
    suffix: ClassVar[str]
    #: Question kind (its name) -> how this target writes it, registered at the end of the
    #: target's module. A kind missing here cannot be written by this target yet, which is
    #: reported per question rather than dropped.
    adapters: ClassVar[Mapping[str, KindAdapter]]

    #: The quiz settings (``QuizSettings`` fields) this target writes; a source's other settings
    #: are listed as not carried in the build report (docs/source-format.md#quiz-settings).
    carries_settings: ClassVar[frozenset[str]] = frozenset()

    #: Which documents :meth:`render` makes: those of one question (rendered with ``question`` in
    #: the context), the rest (a QTI test and manifest, a Moodle frame), or both. The pipeline
    #: makes writers that render one kind only, to share a big quiz among workers.
    renders_questions: ClassVar[bool] = True
    renders_frame: ClassVar[bool] = True
    #: The folder of templates/ (and of a ``--templates`` overlay) that holds this target's templates.
    templates_folder: ClassVar[str]

    #: Where the questions it renders sit in their quiz, for a target whose question documents
    #: depend on it (:meth:`placements`); None: a whole quiz, or a target whose do not.
    placement: Hashable | None = None

    def __init__(self, env: jinja2.Environment) -> None:
        self.env = env

    @classmethod
    def placements(cls, quiz: Quiz, chunks: Mapping[K, Quiz]) -> dict[K, Hashable]:
        """Where each chunk of ``quiz`` (the quiz with only some of its questions, by key) sits in
        it, for a target whose question documents depend on more than the chunk: the pipeline
        renders a chunk with its placement and keeps it in the build cache by a key that holds
        it. None of this target's do (an empty dict); the Moodle quiz backup's ids do."""
        return {}

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        raise NotImplementedError

    @classmethod
    def frame_from_view(cls, quiz: Quiz, overlay: Path | None = None) -> bool:
        """Whether this target's frame of ``quiz`` (a big quiz's, its questions rendered apart)
        is rendered from :func:`frame_view`: every target's is, but where its frame needs more of
        a question (QTI 2.1's fixed variants of calculated questions), or where a ``--templates``
        overlay (``overlay``) overrides any of the target's templates: an author's template may
        read anything of a question (its text in a test's comment, its title in a slot), and its
        frame is then rendered from the whole quiz, as a small quiz's always is."""
        return not (overlay is not None and any(path.is_file() for path in (overlay / cls.templates_folder).rglob("*")))

    @classmethod
    def settings_not_carried(cls, quiz: Quiz) -> list[str]:
        """The settings ``quiz`` states that this target has no place for, in the model's order
        (a setting of another target's output, such as ``qti_variants``, is none of its business)."""
        others = {name for name, target in quiz.settings.OUTPUT_SETTINGS.items() if target != cls.name}
        others |= quiz.settings.QUESTION_DEFAULTS  # carried by the questions
        return [name for name in quiz.settings.given() if name not in cls.carries_settings and name not in others]

    def check_supported(self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> bool:
        ok = True
        for question in quiz.iter_questions():
            if question.type not in self.adapters:
                sink.error(
                    "QB301",
                    f"the {self.name} writer cannot write {question.type} questions yet (question '{question.id}')",
                    spans.get(question.id),
                    hint="leave this target out with --format, or change the question's type",
                )
                ok = False
        return ok

    def places_every_question(self, template: str, frame: bytes, count: int, sink: DiagnosticSink) -> bool:
        """Does a frame have the marker line of each of its ``count`` questions, once? An
        overriding template that drops them would lose every question silently (QB305)."""
        if sorted(int(m.group(1)) for m in QUESTION_MARKER.finditer(frame)) == list(range(1, count + 1)):
            return True
        sink.error("QB305", f"{template} must write the line '<!-- question: N -->' once for each question, N = 1 to "
                   f"{count}: the questions are put in after those lines",
                   hint=f"keep the loop that writes those lines in your --templates copy of {template}")
        return False

    def render(self, template: str, sink: DiagnosticSink, span: SourceSpan | None = None, **context: object) -> bytes | None:
        """The template rendered, or b"" when this writer does not make that kind of document
        (dropped by the caller), or None after a template error (reported to ``sink``)."""
        if not (self.renders_questions if "question" in context else self.renders_frame):
            return b""
        return render_template(self.env, template, sink, span, **context)


def render_template(
    env: jinja2.Environment, template: str, sink: DiagnosticSink, span: SourceSpan | None = None, **context: object
) -> bytes | None:
    """Render one template to UTF-8 bytes; a template error becomes a diagnostic at its line. The
    context's ``media`` (a :class:`MediaSet`) and ``media_prefix`` are where its texts' media are."""
    try:
        with media_of(context.get("media"), str(context.get("media_prefix", "media/"))):  # type: ignore[arg-type]
            return env.get_template(template).render(**context).encode("utf-8")
    except jinja2.TemplateSyntaxError as exc:
        where = SourceSpan(exc.filename or exc.name or template, exc.lineno or 1)
        sink.error("QB302", f"template syntax error: {exc.message}", where, hint="fix the template (see --templates)")
    except jinja2.TemplateNotFound as exc:
        sink.error("QB303", f"template '{exc.name}' not found", span, hint="check the --templates folder")
    except (jinja2.TemplateError, TypeError, ValueError, AttributeError, KeyError) as exc:
        frame = _template_frame(exc)
        sink.error("QB304", f"template error: {exc}", frame or span, hint="fix the template (see --templates)")
    return None


def _template_frame(exc: BaseException) -> SourceSpan | None:
    """Jinja rewrites tracebacks so template frames carry the template's file and line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".j2")]
    if not frames:
        return None
    return SourceSpan(frames[-1].filename, frames[-1].lineno or 1)
