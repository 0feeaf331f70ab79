"""``qti-builder diff OLD NEW``: which questions were added, changed or removed between two
versions of the quizzes, by id, so a designer knows what to replace in an LMS and CI can publish
only when something changed.

Each side is a source file, a folder of sources, or a git revision of them; both are read by the
normal readers and compared as models (the canonical model, not the text: moving a line, changing
``Answer: B`` into ``정답: B`` or Markdown into YAML is no change). Quizzes are matched by id, and
questions by id within their quiz. A changed question says what changed: its text, answers,
points, feedback, media (a file replaced under the same name), type, section, or other settings.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from .content import plain_text
from .diagnostics import Diagnostic, DiagnosticSink, Severity, SourceSpan, display_path, shorten
from .model import Quiz
from .pipeline import find_sources
from .readers import read_quiz

#: What changed in a question, in the order it is told: the top-level fields of each kind.
ASPECTS = ("type", "text", "answers", "points", "feedback", "media", "section", "settings")
TEXT_FIELDS = {"stem", "title"}
ANSWER_FIELDS = {"choices", "answers", "answer", "pairs", "distractors", "items", "blanks", "negative_marking", "scoring", "incomplete_points",
                 "case_sensitive", "unit", "model_answer"}
FEEDBACK_FIELDS = {"feedback", "true_feedback", "false_feedback"}
#: Fields that change nothing an LMS receives.
UNSEEN_FIELDS = {"ignore"}
#: Quiz fields compared besides its questions.
QUIZ_FIELDS = ("title", "description", "language", "settings")


@dataclass
class QuestionChange:
    id: str
    aspects: list[str]


@dataclass
class QuizDiff:
    id: str
    #: "added", "removed", "changed" or "same".
    status: str
    old_source: str | None = None
    new_source: str | None = None
    #: Quiz fields that changed (title, description, language, settings, sections).
    quiz_changes: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    changed: list[QuestionChange] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


@dataclass
class Version:
    """One side of a diff: where its quizzes came from, and the quizzes."""

    label: str
    quizzes: dict[str, tuple[Quiz, str]]
    #: Per quiz, per question: the sha256 of each media file it refers to (read with the source:
    #: a revision's files are gone once read).
    media: dict[str, dict[str, dict[str, str | None]]] = field(default_factory=dict)


class DiffError(Exception):
    """A version that cannot be compared: a usage error, about the argument ``param``."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


def read_versions(old: str, new: str | None, paths: list[Path], sink: DiagnosticSink) -> tuple[Version, Version]:
    """Both versions: each a source, a folder or a git revision (``new`` None: the sources in the
    working folder). A revision's sources are ``paths``, else the other version's path, else
    ``source/``. Problems in the sources go to ``sink``; raises :class:`DiffError` for the rest."""
    cwd = Path.cwd()
    sides: list[tuple[str, str | None]] = []
    for spec, param in ((old, "OLD"), (new, "NEW")):
        if spec is None:
            sides.append(("now", None))
        elif is_path(spec):
            sides.append(("path", spec))
        elif is_revision(spec, cwd):
            sides.append(("revision", spec))
        else:
            raise DiffError(f"'{spec}' is neither a file, a folder, nor a git revision of this repository", param)
    if sides[0][0] == "path" and sides[1][0] == "now":
        raise DiffError("give the new version too (a source, a folder or a git revision)", "NEW")
    given = [Path(spec) for kind, spec in sides if kind == "path" and spec is not None]
    chosen = list(paths or given or [Path("source")])
    versions = []
    with tempfile.TemporaryDirectory(prefix="qti-builder-diff-") as tmp:
        for n, (kind, spec) in enumerate(sides):
            if kind == "revision" and spec is not None:
                versions.append(read_revision(spec, chosen, sink, Path(tmp) / str(n)))
            elif kind == "path" and spec is not None:
                versions.append(read_paths(spec, [Path(spec)], sink))
            else:
                missing = [p for p in chosen if not p.exists()]
                if missing:
                    raise DiffError(f"{', '.join(map(str, missing))} does not exist here", "--path")
                versions.append(read_paths("now", chosen, sink))
    return versions[0], versions[1]


# -- reading each side --------------------------------------------------------------------------


def is_path(spec: str) -> bool:
    return Path(spec).exists()


def read_paths(label: str, paths: list[Path], sink: DiagnosticSink, shown: Path | None = None) -> Version:
    """Every quiz in ``paths`` (files or folders), by id. ``shown``: the folder the paths are
    shown relative to (a revision's checkout), instead of the working folder."""
    quizzes: dict[str, tuple[Quiz, str]] = {}
    media: dict[str, dict[str, dict[str, str | None]]] = {}
    exports = [p for p in paths if is_export(p)]
    for export in exports:  # an LMS export: read by its importer, as `import` would write it
        for quiz, where, files in _exported(export, sink):
            if quiz.id in quizzes:
                sink.error("QB202", f"quiz id '{quiz.id}' is also used by {quizzes[quiz.id][1]}", SourceSpan(where),
                           hint="compare one export at a time; quizzes are compared by id")
                continue
            quizzes[quiz.id] = (quiz, where)
            media[quiz.id] = {q.id: _media_in(q, files) for q in quiz.iter_questions()}
    for path in find_sources([p for p in paths if p not in exports]):
        read = read_quiz(path, sink)
        if read is None:
            continue
        quiz, _ = read
        where = f"{label}:{path.relative_to(shown).as_posix()}" if shown else display_path(path)
        if quiz.id in quizzes:
            sink.error("QB202", f"quiz id '{quiz.id}' is also used by {quizzes[quiz.id][1]}", SourceSpan(where),
                       hint="give one of them another 'id:'; quizzes are compared by id")
            continue
        quizzes[quiz.id] = (quiz, where)
        media[quiz.id] = {q.id: _media(q, path.parent) for q in quiz.iter_questions()}
    return Version(label, quizzes, media)


def is_export(path: Path) -> bool:
    """An LMS export rather than sources: a file no source reader takes (Moodle XML, a Canvas or
    QTI zip, a GIFT file), which `import` reads."""
    from .readers import reader_for

    return path.is_file() and reader_for(path) is None


def _exported(path: Path, sink: DiagnosticSink) -> list[tuple[Quiz, str, dict[str, bytes]]]:
    """The quizzes of an LMS export, as `import` reads them: its errors go to ``sink``, its
    warnings (what a source cannot hold) are `import`'s to say, not a difference."""
    from .importers import import_path

    own = DiagnosticSink()
    display = display_path(path)
    found = import_path(path, display, own, "auto")
    sink.items.extend(d for d in own.items if d.severity.value == "error")
    return [(item.quiz, display, item.media) for item in found] if not own.errors else []


def is_revision(spec: str, cwd: Path) -> bool:
    """Is ``spec`` a commit of the git repository around ``cwd``? (Never an option for git.)"""
    if spec.startswith("-"):
        return False
    try:
        found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"], cwd=cwd,
                               capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return found.returncode == 0


def read_revision(revision: str, paths: list[Path], sink: DiagnosticSink, work: Path) -> Version:
    """The sources below ``paths`` as they are in ``revision``: written into ``work`` (a temporary
    folder) with their paths from the working folder, then read like any other."""
    cwd = Path.cwd()
    listed = subprocess.run(["git", "ls-tree", "-r", "-z", "--name-only", revision, "--", *map(str, paths)], cwd=cwd,
                            capture_output=True, timeout=120)
    if listed.returncode != 0:
        raise DiffError(f"git cannot list {', '.join(map(str, paths))} in {revision}: "
                        f"{listed.stderr.decode('utf-8', 'replace').strip()}", "--path")
    names = [n for n in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    for name in names:
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:  # ls-tree names paths below the working folder
            continue
        shown = subprocess.run(["git", "show", f"{revision}:./{name}"], cwd=cwd, capture_output=True, timeout=120)
        if shown.returncode != 0:
            continue  # a submodule, or a file git cannot show: not a source
        target = work / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.stdout)
    roots = [work / p for p in paths if (work / p).exists()]
    if not roots:
        raise DiffError(f"{revision} has no {' or '.join(str(p) for p in paths)}", "--path")
    return read_paths(revision, roots, sink, shown=work)


# -- comparing ----------------------------------------------------------------------------------


def compare(old: Version, new: Version) -> list[QuizDiff]:
    """Every quiz of either side, in id order, with what changed."""
    diffs = []
    for quiz_id in sorted(set(old.quizzes) | set(new.quizzes)):
        before, after = old.quizzes.get(quiz_id), new.quizzes.get(quiz_id)
        if before is None:
            assert after is not None
            diffs.append(QuizDiff(quiz_id, "added", new_source=after[1], added=[q.id for q in after[0].iter_questions()]))
        elif after is None:
            diffs.append(QuizDiff(quiz_id, "removed", old_source=before[1], removed=[q.id for q in before[0].iter_questions()]))
        else:
            media = (old.media.get(quiz_id, {}), new.media.get(quiz_id, {}))
            diffs.append(compare_quiz(quiz_id, before, after, media))
    return diffs


def compare_quiz(quiz_id: str, before: tuple[Quiz, str], after: tuple[Quiz, str],
                 media: tuple[dict[str, dict[str, str | None]], dict[str, dict[str, str | None]]] = ({}, {})) -> QuizDiff:
    old_quiz, new_quiz = before[0], after[0]
    result = QuizDiff(quiz_id, "same", old_source=before[1], new_source=after[1])
    result.quiz_changes = [name for name in QUIZ_FIELDS
                           if _dump(getattr(old_quiz, name)) != _dump(getattr(new_quiz, name))]
    if _sections(old_quiz) != _sections(new_quiz):
        result.quiz_changes.append("sections")
    old_questions, new_questions = _questions(old_quiz), _questions(new_quiz)
    result.added = [qid for qid in new_questions if qid not in old_questions]
    result.removed = [qid for qid in old_questions if qid not in new_questions]
    for qid, (section, question) in new_questions.items():
        if qid in old_questions:
            aspects = question_aspects(old_questions[qid], (section, question))
            if "media" not in aspects and media[0].get(qid) != media[1].get(qid):
                aspects = [a for a in ASPECTS if a in {*aspects, "media"}]  # the same file name, other bytes
            if aspects:
                result.changed.append(QuestionChange(qid, aspects))
    if result.quiz_changes or result.added or result.removed or result.changed:
        result.status = "changed"
    return result


def question_aspects(old: tuple[str, Any], new: tuple[str, Any]) -> list[str]:
    """What differs between two versions of a question: text, answers, points, feedback, ..."""
    found = set()
    if old[0] != new[0]:
        found.add("section")
    before, after = _dump(old[1]), _dump(new[1])
    # A question of another type has other fields: those of one type alone are part of "type".
    keys = set(before) & set(after) if before.get("type") != after.get("type") else set(before) | set(after)
    for key in sorted(keys):
        if key in UNSEEN_FIELDS or key == "id":
            continue
        for path in _differences(before.get(key), after.get(key), (key,)):
            found.add(_aspect(path))
    return [aspect for aspect in ASPECTS if aspect in found]


def _aspect(path: tuple[Any, ...]) -> str:
    top = path[0]
    if top == "type":
        return "type"
    if top in TEXT_FIELDS:
        return "text"
    if top == "points":
        return "points"
    if top in FEEDBACK_FIELDS or "feedback" in path:
        return "feedback"  # a choice's or an answer's feedback too
    if top in ANSWER_FIELDS:
        return "answers"
    return "settings"


def _differences(a: Any, b: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """The paths at which two dumped values differ (a list of another length differs as a whole,
    but for the feedback within it)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            yield from _differences(a.get(key), b.get(key), path + (key,))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from _differences(x, y, path + (i,))
    elif isinstance(a, list) and isinstance(b, list):
        yield path
        if _feedback_of(a) != _feedback_of(b):
            yield path + ("feedback",)
    elif a != b:
        yield path


def _feedback_of(items: list[Any]) -> list[Any]:
    return [item.get("feedback") for item in items if isinstance(item, dict) and item.get("feedback")]


def _media(question: Any, folder: Path) -> dict[str, str | None]:
    """The media files a question refers to, by reference: each file's sha256 (None when missing)."""
    from .content import media_refs
    from .media import is_external, resolve
    from .model.common import iter_markdown

    found: dict[str, str | None] = {}
    for _, text in iter_markdown(question):
        for ref, _, _ in media_refs(text):
            if ref and not is_external(ref) and ref not in found:
                media = resolve(ref, folder)  # inside the source's folder, within the build's size limit
                found[ref] = None if isinstance(media, str) else hashlib.sha256(media.data).hexdigest()
    return found


def _media_in(question: Any, files: dict[str, bytes]) -> dict[str, str | None]:
    """As :func:`_media`, for an export's question: its files are the ones the export holds."""
    from .content import media_refs
    from .media import is_external
    from .model.common import iter_markdown

    found: dict[str, str | None] = {}
    for _, text in iter_markdown(question):
        for ref, _, _ in media_refs(text):
            if ref and not is_external(ref) and ref not in found:
                data = files.get(ref)
                found[ref] = None if data is None else hashlib.sha256(data).hexdigest()
    return found


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


def _questions(quiz: Quiz) -> dict[str, tuple[str, Any]]:
    """Question id -> (the id path of its section, the question)."""
    return {q.id: ("/".join(a.id for a in ancestors) + "/" + section.id, q)
            for ancestors, section in quiz.iter_sections() for q in section.questions}


def _sections(quiz: Quiz) -> list[tuple[str, Any]]:
    """Each section's own fields (not its questions): titles, descriptions, draws, shuffling."""
    return [(s.id, s.model_dump(mode="json", exclude={"questions", "sections"})) for _, s in quiz.iter_sections()]


# -- telling it --------------------------------------------------------------------------------


def unnamed_questions(diffs: list[QuizDiff], old: Version, new: Version) -> list[Diagnostic]:
    """A warning (QB235) for each question added or removed that has no ``{#id}`` of its own: its
    id is made from its text, so a question merely reworded shows as removed and added, and
    importing it again makes a new question in the LMS."""
    from .readers.markdown.questions import digest

    found = []
    for d in diffs:
        for side, ids in ((new, d.added), (old, d.removed)):
            entry = side.quizzes.get(d.id)
            if entry is None:
                continue
            quiz, where = entry
            by_id = {q.id: q for q in quiz.iter_questions()}
            for qid in ids:
                question = by_id.get(qid)
                if question is not None and qid == "q" + digest(question.stem):
                    found.append(Diagnostic(
                        Severity.WARNING, "QB235",
                        f"question '{qid}' ({shorten(plain_text(question.stem, 80), 50)}) has no {{#id}}: its id is made "
                        "from its text, so a reworded question shows as removed and added, and is a new question to the LMS",
                        SourceSpan(where), hint="give every question an id of its own: '1. What is ...? {#my-id}'"))
    return found


def changed_questions(diffs: list[QuizDiff]) -> list[str]:
    """The questions added or changed, as ``quiz-id/question-id`` (what ``build --only`` takes)."""
    return [f"{d.id}/{question}" for d in diffs if d.status != "removed"
            for question in [*d.added, *(c.id for c in d.changed)]]


def something_changed(diffs: list[QuizDiff]) -> bool:
    return any(d.status != "same" for d in diffs)


def text_lines(diffs: list[QuizDiff]) -> list[str]:
    """``ray-train-tune: 1 added, 1 changed, 1 removed`` and a line per question under it."""
    from .plurals import plural

    lines = []
    for d in diffs:
        if d.status == "added":
            lines.append(f"{d.id}: new quiz, {plural(len(d.added), 'question')} ({d.new_source})")
        elif d.status == "removed":
            lines.append(f"{d.id}: removed quiz, {plural(len(d.removed), 'question')} ({d.old_source})")
        elif d.status == "same":
            lines.append(f"{d.id}: no change")
        else:
            counts = [f"{len(d.added)} added" if d.added else "", f"{len(d.changed)} changed" if d.changed else "",
                      f"{len(d.removed)} removed" if d.removed else ""]
            quiz = f" (the quiz's {', '.join(d.quiz_changes)} changed)" if d.quiz_changes else ""
            lines.append(f"{d.id}: {', '.join(c for c in counts if c) or 'no question changed'}{quiz}")
            lines += [f"  + {qid}" for qid in d.added]
            lines += [f"  ~ {c.id}: {', '.join(c.aspects)}" for c in d.changed]
            lines += [f"  - {qid}" for qid in d.removed]
    return lines


def summary_line(diffs: list[QuizDiff]) -> str:
    from .plurals import plural

    if not something_changed(diffs):
        return f"no change in {plural(len(diffs), 'quiz', 'quizzes')}"
    added = sum(len(d.added) for d in diffs)
    changed = sum(len(d.changed) for d in diffs)
    removed = sum(len(d.removed) for d in diffs)
    quizzes = sum(1 for d in diffs if d.status != "same")
    return (f"changed: {plural(quizzes, 'quiz', 'quizzes')} of {len(diffs)}; questions: {added} added, "
            f"{changed} changed, {removed} removed")


def report(old: str, new: str, diffs: list[QuizDiff], code: int) -> dict[str, Any]:
    """The JSON form (its shape: schemas/diff-report.schema.json)."""
    from . import __version__
    from .report import REPORT_VERSION

    return {
        "report_version": REPORT_VERSION,
        "tool": {"name": "qti-builder", "version": __version__},
        "command": "diff",
        "old": old,
        "new": new,
        "changed": something_changed(diffs),
        "exit_code": code,
        "summary": {
            "quizzes": len(diffs),
            "quizzes_added": sum(1 for d in diffs if d.status == "added"),
            "quizzes_removed": sum(1 for d in diffs if d.status == "removed"),
            "quizzes_changed": sum(1 for d in diffs if d.status == "changed"),
            "questions_added": sum(len(d.added) for d in diffs),
            "questions_changed": sum(len(d.changed) for d in diffs),
            "questions_removed": sum(len(d.removed) for d in diffs),
        },
        "quizzes": [
            {"id": d.id, "status": d.status, "old_source": d.old_source, "new_source": d.new_source,
             "quiz_changes": d.quiz_changes, "added": d.added, "removed": d.removed,
             "changed": [{"id": c.id, "what": c.aspects} for c in d.changed]}
            for d in diffs
        ],
    }
