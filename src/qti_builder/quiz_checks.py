"""Every check of a quiz once read, in the order the build has always reported them: those of each
text and question (content, blanks, option scores, calculated questions, Moodle formulas,
``ignore=``, what each target's profile loses of each question, ``--profile``), done top-level
section by top-level section, and those across the quiz apart (the Moodle categories' and
questions' ID numbers, the stated total, the settings and random draws a target loses), with
the QTI 2.1 writer's check of formulas in calculated questions (QB158), run whole.

A top-level section read as a piece of a large source (``SourceMap.section_keys``: the same key is
the same section's data) whose checks found nothing is remembered in the build cache (``Memo``)
by that key and by all else its checks look at: the quiz around its sections (id, language,
settings; whether Canvas shuffles the quiz's answers), the targets, the profile, and the code
(the pipeline's store). The next build does not check an unchanged piece's questions again. A
section whose checks found something is checked every time (what they found is located by lines
that an edit before it moves), and so is one whose texts refer to media files of their own (the
files may have changed), and every section of a quiz read in part (questions left out of it) or
cut down by ``--only``: its data is no longer what its key read. Of a section read in runs of its
questions, each run whose checks found nothing is remembered too (``_Runs``), so that an edit of
one question checks its run's questions again and the section's own texts, not the section's.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import memory
from .checks import (MOODLE_FORMATS, Locs, check_blanks, check_every_option_ticked, check_idnumbers, check_moodle_formulas,
                     check_texts, media_set)
from .diagnostics import Diagnostic, DiagnosticSink, SourceSpan
from .ignores import check_question_ignores
from .losses import TARGETS, Loss, profile_losses, quiz_losses
from .media import MediaFile, MediaSet
from .model import Question, Quiz, Section
from .model.common import iter_markdown
from .totals import check_stated_total
from .parametric import check_calculated
from .profiles import check_profile
from .readers import SourceMap
from .writers.qti21_calculated import check_math_variables

#: Changes with what a remembered section's entry means.
LAYOUT = "section checks 2"
#: What a section's entry holds: its checks found nothing.
NOTHING_FOUND = "nothing found"


@dataclass(frozen=True)
class Memo:
    """Where the sections whose checks found nothing are remembered, by key (the build cache)."""

    load: Callable[[str], object | None]
    store: Callable[[str, object], None]


@dataclass
class _Found:
    """What the checks of one top-level section found, check by check."""

    texts: list[Diagnostic] = field(default_factory=list)
    blanks: list[Diagnostic] = field(default_factory=list)
    ticked: list[Diagnostic] = field(default_factory=list)
    calculated: list[Diagnostic] = field(default_factory=list)
    formulas: list[Diagnostic] = field(default_factory=list)
    ignores: list[Diagnostic] = field(default_factory=list)
    profile: list[Diagnostic] = field(default_factory=list)
    #: What each target's profile loses of its questions.
    losses: dict[str, list[Loss]] = field(default_factory=dict)
    #: A text refers to a media file of its own.
    refers: bool = False

    def nothing(self) -> bool:
        return not (self.refers or self.texts or self.blanks or self.ticked or self.calculated or self.formulas
                    or self.ignores or self.profile or any(self.losses.values()))


def check_read(quiz: Quiz, source: SourceMap, base_dir: Path, sink: DiagnosticSink, spans: dict[str, SourceSpan],
               formats: list[str], max_media_bytes: int, profile: str | None = None,
               memo: Memo | None = None) -> tuple[MediaSet, list[Loss]]:
    """Check a quiz once read; problems go to ``sink``. Returns its media, checked, and what each
    of ``formats`` loses of it. ``spans``: where each question starts. ``memo``: where sections
    whose checks found nothing are remembered (None: every section is checked)."""
    locs = Locs(quiz)
    files: dict[str, MediaFile] = {}
    context = _context(quiz, formats, profile) if memo is not None and not source.partial else None
    check_texts(iter_markdown(quiz.model_copy(update={"sections": []})), source, base_dir, sink, files, max_media_bytes)
    found: list[_Found] = []
    for k, section in enumerate(quiz.sections):
        key = _key(context, source.section_keys.get(k)) if context is not None else None
        clean = _Clean.of(context, section) if context is not None and memory.keeping() else None
        if key is not None and memo is not None and memo.load(key) == NOTHING_FOUND:
            if clean is not None:
                clean.keep(section, True)
            found.append(_Found())
            continue
        runs = _Runs.of(context, section, source.section_runs.get(k), memo) if context is not None and memo is not None else None
        only = _unknown_to_both(runs.unknown() if runs is not None else None, clean.unknown(section) if clean is not None else None,
                                len(section.questions))
        done = _check_section(quiz, k, section, source, base_dir, files, max_media_bytes, spans, locs, formats, profile, only)
        if key is not None and memo is not None and done.nothing():
            memo.store(key, NOTHING_FOUND)
        if runs is not None and memo is not None and done.nothing():
            runs.keep(memo)
        if clean is not None:
            clean.keep(section, done.nothing())
        found.append(done)
    for each in found:
        sink.items += each.texts
    for name in ("blanks", "ticked", "calculated"):
        for each in found:
            sink.items += getattr(each, name)
    check_idnumbers(quiz, source, sink, locs)
    for each in found:
        sink.items += each.formulas
    if "qti21" in formats:  # a calculated question's few: checked whole, as the QTI 2.1 writer's own rule
        check_math_variables(quiz, source, sink)
    if not source.partial:  # a quiz with questions left out cannot add up to the paper's total
        check_stated_total(quiz, source, sink)
    for each in found:
        sink.items += each.ignores
    of_questions = {name: [loss for each in found for loss in each.losses.get(name, [])] for name in formats}
    losses = quiz_losses(quiz, source, spans, formats, of_questions)
    for each in found:
        sink.items += each.profile
    return media_set(files), losses


def _check_section(quiz: Quiz, k: int, section: Section, source: SourceMap, base_dir: Path, files: dict[str, MediaFile],
                   max_media_bytes: int, spans: dict[str, SourceSpan], locs: Locs, formats: list[str],
                   profile: str | None, only: list[int] | None = None) -> _Found:
    """The checks of one top-level section's texts and questions, each into a list of its own;
    ``only``: of its own questions, only those at these places (the others' checks are known to
    find nothing: :class:`_Clean`), the section's own texts all the same."""
    found = _Found()
    texts = iter_markdown(section, ("sections", k))
    if only is not None:
        # The section's own texts come before its questions' (model/quiz.py: its description is
        # its only text field, and it has no sections below it: _Clean), as in the walk of it whole.
        texts = itertools.chain(iter_markdown(section.model_copy(update={"questions": []}), ("sections", k)),
                                *(iter_markdown(section.questions[j], ("sections", k, "questions", j)) for j in only))
        section = section.model_copy(update={"questions": [section.questions[j] for j in only]})
    sections = list(_subtree(section))
    questions: list[Question] = [q for s in sections for q in s.questions]

    def into(target: list[Diagnostic]) -> DiagnosticSink:
        return DiagnosticSink(target)

    found.refers = check_texts(texts, source, base_dir, into(found.texts), files, max_media_bytes)
    check_blanks(questions, locs, source, into(found.blanks))
    check_every_option_ticked(questions, locs, source, into(found.ticked))
    check_calculated(quiz, source, into(found.calculated), questions, locs)
    if MOODLE_FORMATS & set(formats):
        check_moodle_formulas(quiz, source, into(found.formulas), questions, locs)
    check_question_ignores(quiz, source, into(found.ignores), questions, locs)
    for name in formats:
        target_profile = TARGETS[name][1]
        found.losses[name] = list(profile_losses(name, target_profile, quiz, spans, sections)) if target_profile else []
    if profile:
        check_profile(profile, quiz, spans, into(found.profile), sections)
    return found


@dataclass(frozen=True)
class _Kept:
    """The questions of a section whose checks found nothing, the objects themselves (held: no
    other object can take the identity of one while it is kept)."""

    questions: tuple[Question, ...]


@dataclass
class _Clean:
    """In a watch (which keeps the build cache in memory, memory.py), the questions of a top-level
    section that the build before checked and found nothing in, by the objects themselves: a
    rebuild's questions whose data did not change are the model objects of the build before
    (readers/kept_model.py), and nothing changes a model object once validated, so the checks of
    the same object in the same quiz (``context``) and section find the same: nothing. The
    section edited is then checked only in its own texts and the questions that changed (its
    1,000 questions' checks were 0.1 s of a 10,000-question bank's watch rebuild, bench/README.md).
    Only for a section that neither draws nor shuffles its questions and has no sections below
    it: a question's checks then look at no other question of it (a drawn or shuffled section's
    look at its first question, profiles.py)."""

    key: str
    known: frozenset[int]
    kept: _Kept | None

    @classmethod
    def of(cls, context: str, section: Section) -> _Clean | None:
        if section.select or section.shuffle or section.sections:
            return None
        own = section.model_dump_json(exclude={"questions", "sections"})
        key = hashlib.sha256(f"{context}\0checked questions\0{own}".encode("utf-8", "surrogateescape")).hexdigest()
        kept = memory.recall(key)
        if not isinstance(kept, _Kept):
            return cls(key, frozenset(), None)
        return cls(key, frozenset(id(q) for q in kept.questions), kept)

    def unknown(self, section: Section) -> list[int] | None:
        """The places of the section's questions not known to be clean; None: all of them."""
        if not self.known:
            return None
        return [j for j, q in enumerate(section.questions) if id(q) not in self.known]

    def keep(self, section: Section, nothing: bool) -> None:
        if nothing:
            memory.remember(self.key, _Kept(tuple(section.questions)))
        elif self.kept is not None:
            memory.remember(self.key, self.kept)  # still clean, if still there


@dataclass
class _Runs:
    """The runs of a top-level section read in runs of its questions (``SourceMap.section_runs``),
    each remembered in the build cache (``Memo``) when its questions' checks found nothing, by
    the run's piece key (the same key is the same questions' data, as for a section), the
    section's own fields and its questions' ids (made distinct across the quiz after the pieces
    were read) and all else the checks look at (``context``): an edit of one question of a
    section of 1,000 checks its run's 100 again and the section's own texts, not the section
    (0.05 s of the thread of a 10,000-question bank's rebuild by hand, bench/README.md). Only for
    a section that neither draws nor shuffles its questions and has no sections below it, as
    :class:`_Clean`: a question's checks then look at no other question of it."""

    #: Each run's questions (their places in the section) and key.
    runs: list[tuple[range, str]]
    #: The keys of the runs whose checks are known to have found nothing.
    known: set[str]

    @classmethod
    def of(cls, context: str, section: Section, runs: list[tuple[int, str]] | None, memo: Memo) -> _Runs | None:
        if not runs or section.select or section.shuffle or section.sections:
            return None
        own = section.model_dump_json(exclude={"questions", "sections"})
        ends = [first for first, _ in runs[1:]] + [len(section.questions)]
        keyed: list[tuple[range, str]] = []
        for (first, key), end in zip(runs, ends):
            ids = "\0".join(q.id for q in section.questions[first:end])
            keyed.append((range(first, end), hashlib.sha256(f"{context}\0run\0{own}\0{key}\0{ids}".encode(
                "utf-8", "surrogateescape")).hexdigest()))
        return cls(keyed, {key for _, key in keyed if memo.load(key) == NOTHING_FOUND})

    def unknown(self) -> list[int]:
        """The places of the questions of the runs not known to have found nothing."""
        return [j for places, key in self.runs if key not in self.known for j in places]

    def keep(self, memo: Memo) -> None:
        """Remember every run (their checks found nothing, and those known before found nothing then)."""
        for _, key in self.runs:
            if key not in self.known:
                memo.store(key, NOTHING_FOUND)


def _unknown_to_both(runs: list[int] | None, clean: list[int] | None, count: int) -> list[int] | None:
    """The places of a section's questions to check, of its ``count``, neither the runs' memo
    (:class:`_Runs`) nor a watch's (:class:`_Clean`) knows to be clean (either None: it knows none);
    None: all of them."""
    if runs is None or clean is None:
        only = runs if clean is None else clean
    else:
        unknown_there = set(clean)
        only = [j for j in runs if j in unknown_there]
    return None if only is None or len(only) == count else only


def _subtree(section: Section) -> Iterator[Section]:
    """A section and those below it, depth first (the order of ``Quiz.iter_sections``)."""
    yield section
    for child in section.sections:
        yield from _subtree(child)


def _context(quiz: Quiz, formats: list[str], profile: str | None) -> str:
    """All that the checks of a section look at besides its own data: the quiz around it (all
    but its sections), whether Canvas shuffles the quiz's answers (its profile's checks of each
    question ask), the targets and the profile."""
    from .writers.canvas import shuffles_answers

    return "\0".join([LAYOUT, quiz.model_dump_json(exclude={"sections"}), str(shuffles_answers(quiz)), ",".join(formats),
                      str(profile)])


def _key(context: str, section_key: str | None) -> str | None:
    if section_key is None:
        return None
    return hashlib.sha256(f"{context}\0{section_key}".encode("utf-8", "surrogateescape")).hexdigest()


__all__ = ["Memo", "NOTHING_FOUND", "check_read"]
