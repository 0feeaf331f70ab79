"""What a build is asked (:class:`BuildOptions`) and what it gives (:class:`BuildResult`, one
:class:`QuizResult` per source), apart from the pipeline that does it: the command line and the
build cache (:mod:`.cache`) take them without importing the readers, the writers and the schemas."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .diagnostics import BuildFailed, Diagnostic, Severity, SourceSpan
from .readers import SOURCE_SUFFIXES
from .limits import MAX_MEDIA_BYTES, Limits
from .writers import DEFAULT_FORMATS

if TYPE_CHECKING:
    from .losses import Loss
    from .model import Quiz
    from .outline import Outline

#: Stages reported per quiz and per build, in order.
STAGES = ("read", "render", "validate", "package")


@dataclass
class BuildOptions:
    sources: list[Path] = field(default_factory=lambda: [Path("source")])
    out_dir: Path = Path("dist")
    formats: list[str] = field(default_factory=lambda: list(DEFAULT_FORMATS))
    templates: Path | None = None
    schemas: Path | None = None
    #: False for ``check``: everything but writing files.
    write: bool = True
    #: Warnings fail the build too.
    strict: bool = False
    #: Largest media file a quiz may reference.
    max_media_bytes: int = MAX_MEDIA_BYTES
    #: How large a source may be, and how far its YAML may nest and repeat (limits.py).
    limits: Limits = field(default_factory=Limits)
    #: Also warn about what this LMS loses on import (``profiles.PROFILES``), e.g. "canvas".
    profile: str | None = None
    #: Codes of warnings and losses accepted everywhere (``--ignore``); a question's own ``ignore``
    #: accepts them for that question.
    ignore: frozenset[str] = frozenset()
    #: ``--qti-variants``: the ``qti_variants`` setting of every quiz, over the sources' own (0:
    #: item templates); None leaves each source's setting.
    qti_variants: int | None = None
    #: Worker processes; 0 means one per CPU, 1 builds in this process.
    jobs: int = 0
    #: ``check --outline``: keep each quiz's outline (:mod:`.outline`) in its result.
    outline: bool = False
    #: The language of the outline's answers (``--lang``); None: each quiz's own.
    outline_language: str | None = None
    #: ``build --only``: the questions to build (ids, or ``quiz/question``); a quiz with none of
    #: them is not built (:mod:`.selection`). None: every question.
    only: frozenset[str] | None = None
    #: Keep each quiz's outputs in the build cache and take an unchanged quiz's from it
    #: (:mod:`.cache`); the command line's default, off with ``--no-cache``. Off for other callers.
    cache: bool = False
    #: Called as ``progress(done, total)`` as questions are rendered (for a progress bar).
    progress: Callable[[int, int], None] | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class OutputFile:
    """One file of a quiz, as written (or, for ``check``, as it would be)."""

    format: str
    path: Path
    sha256: str
    size: int
    documents: int


@dataclass(frozen=True)
class QuizFacts:
    """What the command line says of a quiz that was read (its questions by type, how many, its
    points) and what a build from the cache checks across quizzes (its Moodle categories' ID
    numbers): kept in the build cache beside the quiz's model, so that ``check`` of an unchanged
    quiz says it without unpickling the model (nor importing it: pydantic and the quiz's classes
    are most of such a check's start)."""

    #: ``ray-train-tune: 10 questions: 8 single choice, 2 essay`` (``summary.type_summary``) in each
    #: language the command line has words or kinds' names in (:meth:`line`).
    lines: Mapping[str, str]
    questions: int
    #: (least, most), ``summary.quiz_points``.
    points: tuple[float, float]
    #: The ID numbers of the quiz's category and of its sections'.
    categories: frozenset[str]

    def line(self, language: str | None) -> str:
        """The quiz's line in ``language`` (English where the command line has none of its words)."""
        return self.lines.get((language or "en").split("-")[0].lower(), self.lines["en"])

    @classmethod
    def of(cls, quiz: Quiz) -> QuizFacts:
        from .i18n import SUMMARY
        from .kinds import KINDS
        from .summary import quiz_points, type_summaries

        languages = sorted({"en", *SUMMARY, *(language for spec in KINDS.values() for language in spec.names)})
        return cls(type_summaries(quiz, languages),
                   sum(1 for _ in quiz.iter_questions()), quiz_points(quiz),
                   frozenset({quiz.category_idnumber(),
                              *(section.category_idnumber(quiz.id) for _, section in quiz.iter_sections())}))


@dataclass
class QuizResult:
    """What happened to one source."""

    source: Path
    #: The quiz's model once read (:attr:`quiz`).
    _quiz: Quiz | None = field(default=None, repr=False)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    outputs: list[OutputFile] = field(default_factory=list)
    #: Seconds per stage; render, validate and package summed over the workers.
    timings: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    written: bool = False
    #: Where each question starts in the source (for ``--verbose``), once the quiz is read.
    spans: dict[str, SourceSpan] = field(default_factory=dict)
    #: What each output loses of the quiz (:mod:`.losses`), but those accepted.
    losses: list[Loss] = field(default_factory=list)
    #: Losses the author accepted (``--ignore``, ``ignore=``): still said at build, never failing it.
    accepted_losses: list[Loss] = field(default_factory=list)
    #: Warnings and losses left out because they were accepted (``--ignore``, ``ignore=``).
    ignored: int = 0
    #: The paper as read (``check --outline``), once the quiz is read.
    outline: Outline | None = None
    #: The quiz's language, as far as it was read: the language its messages are printed in.
    language: str | None = None
    #: What makes the quiz's model when it is first asked for (a cache entry's, pickled): None
    #: once made, or when :attr:`quiz` was given.
    _thaw: Callable[[], Quiz] | None = field(default=None, repr=False, compare=False)
    #: :meth:`facts`, once worked out or as a cache entry kept them.
    _facts: QuizFacts | None = field(default=None, repr=False, compare=False)

    @property
    def quiz(self) -> Quiz | None:
        """The quiz as read (None before it is read, or when it could not be)."""
        if self._thaw is not None:
            self._quiz, self._thaw = self._thaw(), None
        return self._quiz

    @quiz.setter
    def quiz(self, quiz: Quiz | None) -> None:
        self._quiz, self._thaw, self._facts = quiz, None, None

    def thawing(self, thaw: Callable[[], Quiz], facts: QuizFacts) -> None:
        """The quiz is ``thaw()``, made when first asked for; ``facts`` are its :meth:`facts`."""
        self._quiz, self._thaw, self._facts = None, thaw, facts

    def given_facts(self, facts: QuizFacts) -> None:
        """``facts`` are :meth:`facts` of the quiz as it is, worked out elsewhere (the process that
        pickled the quiz for the build cache, ``cache.PickledAhead``)."""
        self._facts = facts

    def facts(self) -> QuizFacts | None:
        """What the command line says of the quiz (None before it is read), without making the
        quiz's model where a cache entry kept them."""
        if self._facts is None:
            quiz = self.quiz
            if quiz is not None:
                self._facts = QuizFacts.of(quiz)
        return self._facts

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


@dataclass
class BuildResult:
    outputs: list[OutputFile]
    written: list[Path]
    diagnostics: list[Diagnostic]
    results: list[QuizResult] = field(default_factory=list)
    #: Wall-clock seconds: read, schemas, work (render + validate + package), write, total, in the
    #: order the stages run (schemas: 0 when no quiz needed them).
    timings: dict[str, float] = field(default_factory=dict)
    jobs: int = 1

    @property
    def quizzes(self) -> list[Quiz]:
        """Every quiz that was read, in the order of the sources."""
        return [r.quiz for r in self.results if r.quiz is not None]


class BuildIncomplete(BuildFailed):
    """Some quizzes (or the build itself) had errors; ``result`` tells what was written anyway."""

    def __init__(self, result: BuildResult) -> None:
        super().__init__(result.diagnostics)
        self.result = result


def conclude(results: list[QuizResult], build_errors: list[Diagnostic], clock: dict[str, float], jobs: int) -> BuildResult:
    """The build's result from its quizzes'; raises :class:`BuildIncomplete` when anything had an error."""
    for result in results:  # a frame and its items may both report a question's problem: once is enough
        result.diagnostics = sorted(dict.fromkeys(result.diagnostics), key=Diagnostic.sort_key)

    diagnostics = sorted(build_errors + [d for r in results for d in r.diagnostics], key=Diagnostic.sort_key)
    ok = [r for r in results if not r.failed]
    build_result = BuildResult(
        outputs=[o for r in ok for o in r.outputs],
        written=[o.path for r in results if r.written for o in r.outputs],
        diagnostics=diagnostics,
        results=results,
        timings=clock,
        jobs=jobs,
    )
    if any(d.severity is Severity.ERROR for d in diagnostics):
        raise BuildIncomplete(build_result)
    return build_result


def question_counts(quiz: Quiz) -> dict[str, int]:
    """Questions per type, for reports."""
    return dict(sorted(Counter(q.type for q in quiz.iter_questions()).items()))


def find_sources(paths: list[Path]) -> list[Path]:
    """Source files named directly, and those below named folders (hidden ones skipped), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES
                and not any(part.startswith((".", "_")) for part in p.relative_to(path).parts)
            )
        else:
            found.append(path)
    return found
