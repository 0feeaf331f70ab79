"""Checks on a quiz after reading, before writing: what its rich text loses, and its media files.

Rendering never fails; these checks are where a problem in a text becomes a diagnostic at the
text's place in the source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from . import content
from .diagnostics import DiagnosticSink, Severity, SourceSpan
from .media import MAX_MEDIA_BYTES, MediaFile, MediaSet, TooLarge, is_external, nearest_file, resolve
from .limits import raise_hint
from lxml import etree

from .formulas import moodle_text_formula_errors
from .model import FillInBlankQuestion, MultipleResponseQuestion, Question, Quiz, Section
from .model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from .model.quiz import moodle_category_paths
from .parametric import Shown, check_calculated, fill, variants
from .model.questions import BLANK_MARKER, Blank
from .model.common import iter_markdown
from .readers import SourceMap
from .readers.source_map import question_locs


#: Elements whose text cannot hold an answer field.
_NO_BLANKS = {"code", "pre", "{http://www.w3.org/1998/Math/MathML}math", "a"}


def check_content(
    quiz: Quiz, source: SourceMap, base_dir: Path, sink: DiagnosticSink, max_media_bytes: int = MAX_MEDIA_BYTES
) -> MediaSet:
    """Report content problems and return the quiz's media, checked: the checks of each text and
    question (:func:`check_texts`, :func:`check_blanks`, :func:`check_every_option_ticked`,
    ``check_calculated``), then those across the quiz (:func:`check_idnumbers`)."""
    files: dict[str, MediaFile] = {}
    locs = Locs(quiz)
    questions = list(quiz.iter_questions())
    check_texts(iter_markdown(quiz), source, base_dir, sink, files, max_media_bytes)
    check_blanks(questions, locs, source, sink)
    check_every_option_ticked(questions, locs, source, sink)
    check_calculated(quiz, source, sink, questions, locs)
    check_idnumbers(quiz, source, sink, locs)
    return media_set(files)


class Locs:
    """Each question's path in the model data (``question_locs``), made once, when first asked."""

    def __init__(self, quiz: Quiz) -> None:
        self.quiz = quiz
        self._locs: dict[str, tuple[str | int, ...]] | None = None

    def __call__(self) -> dict[str, tuple[str | int, ...]]:
        if self._locs is None:
            self._locs = question_locs(self.quiz)
        return self._locs


def media_set(files: dict[str, MediaFile]) -> MediaSet:
    return MediaSet(tuple(files[ref] for ref in sorted(files)))


def check_texts(texts: Iterable[tuple[tuple[str | int, ...], str]], source: SourceMap, base_dir: Path, sink: DiagnosticSink,
                files: dict[str, MediaFile], max_media_bytes: int = MAX_MEDIA_BYTES) -> bool:
    """Each text's problems and media (those found go in ``files``, each looked up once); whether
    a text refers to a media file of its own (not a web address), whose checks depend on the files."""
    refers = False
    for loc, text in texts:
        for problem in content.inspect(text):
            report = sink.error if problem.severity == Severity.ERROR.value else sink.warning
            report(problem.code, problem.message, source.text_position(loc, text, problem.offset), hint=problem.hint)
        for ref, offset, has_alt in content.media_refs(text):
            if not ref or is_external(ref):
                continue
            refers = True
            if not has_alt and content.media_type(ref).startswith("image/"):
                sink.warning("QB165", f"image '{ref}' has no alt text", source.text_position(loc, text, offset),
                             hint="describe the image for students who cannot see it: ![description](path)")
            if ref in files:
                continue
            found = resolve(ref, base_dir, max_media_bytes)
            if isinstance(found, str):
                hint = (f"make the file smaller, or {raise_hint('max_media_bytes', found.size)}" if isinstance(found, TooLarge)
                        else "put media next to the source (or below it) and refer to it by a relative path")
                close = nearest_file(ref, base_dir) if found == "does not exist" else None
                meant = f"; did you mean '{close}'?" if close else ""
                sink.error("QB160", f"media file '{ref}' {found}{meant}", source.text_position(loc, text, offset), hint=hint)
            else:
                files[ref] = found
    return refers


def check_idnumbers(quiz: Quiz, source: SourceMap, sink: DiagnosticSink, locs: Callable[[], dict[str, tuple[str | int, ...]]]) -> None:
    """The checks across the quiz's Moodle categories: their ID numbers (QB237) and those of the
    questions in each (QB238)."""
    _check_category_idnumbers(quiz, source, sink)
    _check_question_idnumbers(quiz, source, sink, locs)


def check_blanks(questions: Iterable[Question], locs: Callable[[], dict[str, tuple[str | int, ...]]], source: SourceMap,
                 sink: DiagnosticSink) -> None:
    """A blank must land in running text: inside code, math or a link target it cannot become
    an answer field (and would break the markup it sits in)."""
    for question in questions:
        if not isinstance(question, FillInBlankQuestion):
            continue
        root = etree.fromstring(f"<div>{content.render_block(question.stem)}</div>")
        usable = set()
        for element in root.iter():
            outer = any(a.tag in _NO_BLANKS for a in element.iterancestors())
            if not outer and element.tag not in _NO_BLANKS:
                usable.update(BLANK_MARKER.findall(element.text or ""))
            if not outer:  # an element's tail lies outside it, in its parent
                usable.update(BLANK_MARKER.findall(element.tail or ""))
        for k, blank in enumerate(question.blanks):
            if blank.id not in usable:
                sink.error("QB144", f"blank {k + 1}, {_as_written(blank)}, is inside code, math or a link, where it cannot be a field",
                           source.locate(locs()[question.id] + ("blanks", k)),
                           hint="move the blank into the running text of the question, out of `code`, $math$ and links")


#: A multiple-response question whose own option scores let a response ticking every option earn
#: full marks (wrong options scored 0 or more): kept as written, but said.
EVERY_OPTION_FULL_MARKS = "QB157"


def check_every_option_ticked(questions: Iterable[Question], locs: Callable[[], dict[str, tuple[str | int, ...]]],
                              source: SourceMap, sink: DiagnosticSink) -> None:
    """The default scores make ticking every option earn less than full marks (a wrong tick costs
    a right one's share); scores the source gives (``{score=0}`` on a wrong option, as an import
    of a Moodle question whose wrong answers are worth 0 % writes them) can undo that. QTI 2.1
    and Moodle grade by them (Canvas by its own rule), so the author hears of it once, at the
    first wrong option that does."""
    for question in questions:
        if not isinstance(question, MultipleResponseQuestion) or question.scoring != "partial":
            continue
        wrong = [k for k, c in enumerate(question.choices) if not c.correct]
        if not wrong or question.score_of({c.id for c in question.choices}) < 1 - 1e-9:
            continue
        scores = question.choice_scores()
        first = next((k for k in wrong if scores[question.choices[k].id] >= 0), wrong[0])
        shown = ", ".join(f"{question.choices[k].id} {scores[question.choices[k].id]:g} %" for k in wrong)
        sink.warning(EVERY_OPTION_FULL_MARKS,
                     f"ticking every option of question '{question.id}' earns full marks where its scores "
                     f"are kept (QTI 2.1, Moodle): its wrong options score {shown}", source.locate(locs()[question.id] + ("choices", first)),
                     hint="give each wrong option a negative score ({score=-50}), or leave out the wrong options' "
                          "{score=...} for the default (a wrong tick takes one right option's share away); "
                          "ignore=QB157 on the question keeps the scores as they are")


#: A ``{=...}`` of a calculated question's text that Moodle refuses, and with it the whole file.
MOODLE_FORMULA_ERROR = "QB325"
#: The outputs that Moodle's importer reads (Moodle XML, the quiz backup).
MOODLE_FORMATS = frozenset({"moodle", "moodle-quiz"})
#: Markdown's escapes, gone once a text is rendered (a wildcard's ``\*``).
MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_\[\]<>&$])")


def moodle_formula_texts(q: CalculatedQuestion | CalculatedChoiceQuestion) -> list[tuple[tuple[str | int, ...], str, str]]:
    """Each text of a calculated question in which Moodle checks every ``{=...}`` before it stores
    it (question/type/calculated: the question text, the general and combined feedback, each
    answer and its feedback), with its path in the question and how a message names it."""
    texts: list[tuple[tuple[str | int, ...], str, str]] = [
        (("passage",), "the question text", q.passage or ""), (("stem",), "the question text", q.stem)]
    texts += [(("feedback", k), f"the {k.replace('_', ' ')} feedback" if k != "general" else "the general feedback",
               getattr(q.feedback, k) or "") for k in ("general", "correct", "partially_correct", "incorrect")]
    if isinstance(q, CalculatedChoiceQuestion):
        for n, c in enumerate(q.choices):
            texts += [(("choices", n, "text"), f"answer {n + 1}'s text", c.text), (("choices", n, "feedback"), f"answer {n + 1}'s feedback", c.feedback or "")]
    return [t for t in texts if t[2]]


def _wildcard(shown: Shown) -> str:
    """A placeholder as the Moodle file shows it: a wildcard of its own."""
    return "{" + shown.name + "}"


def check_moodle_formulas(quiz: Quiz, source: SourceMap, sink: DiagnosticSink, questions: Iterable[Question] | None = None,
                          locs: Callable[[], dict[str, tuple[str | int, ...]]] | None = None) -> None:
    """Where a Moodle output is built: each ``{=...}`` of a calculated question's texts that is no
    placeholder of the question (``{=a:b}``), which Moodle reads as a formula and refuses, is an
    error at its own place, before anything is written. Every placeholder becomes a wildcard in
    the Moodle file, so what is left is what the author wrote; the Moodle writer checks what it
    writes again, as the last line before a file Moodle would refuse."""
    locs = locs or Locs(quiz)
    for q in quiz.iter_questions() if questions is None else questions:
        if not isinstance(q, (CalculatedQuestion, CalculatedChoiceQuestion)):
            continue
        v = variants(quiz.id, q)
        if not v.ok:
            continue  # check_calculated reports why
        for loc, where, text in moodle_formula_texts(q):
            for shown, why in moodle_text_formula_errors(MARKDOWN_ESCAPE.sub(r"\1", fill(text, v, _wildcard))):
                field = locs()[q.id] + loc
                start = source.locate(field)
                offset = text.find(shown)
                span = source.text_position(field, text, offset) if field in source.positions and offset >= 0 else start
                sink.error(MOODLE_FORMULA_ERROR, f"Moodle refuses a formula of question '{q.id}' (and with it the whole file): "
                                                 f"{where} holds {shown}: {why}", span,
                           hint="write a computed value as a placeholder of the question's variables, {=a * b}; "
                                "text in braces that starts with '=' is read by Moodle as a formula")


def _held_by(taken: dict[str, tuple[str, SourceSpan]], ident: str, holder: str,
             at: SourceSpan) -> tuple[str, SourceSpan] | None:
    """Who already has the ID number ``ident`` (and where), else None, ``holder`` at ``at`` then
    having it: Moodle's ID numbers are unique in their scope, the first one written keeps it."""
    if ident in taken:
        return taken[ident]
    taken[ident] = (holder, at)
    return None


def _check_category_idnumbers(quiz: Quiz, source: SourceMap, sink: DiagnosticSink) -> None:
    """QB237: two of the quiz's Moodle categories with one ID number (a section's own
    ``moodle_idnumber``, or the one made from its id, or the quiz's own category's, the quiz id).
    Moodle keeps category ID numbers unique in a course and refuses the whole file on a repeat."""
    own = ("moodle_idnumber",) if quiz.moodle_idnumber is not None else ("id",)
    taken: dict[str, tuple[str, SourceSpan]] = {quiz.category_idnumber(): ("the quiz's own category", source.locate(own))}

    def walk(sections: list[Section], loc: tuple[str | int, ...]) -> None:
        for i, section in enumerate(sections):
            here = loc + ("sections", i)
            ident = section.category_idnumber(quiz.id)
            at = source.locate(here + ("moodle_idnumber",) if section.moodle_idnumber is not None else here)
            held = _held_by(taken, ident, f"section '{section.id}'", at)
            if held:
                first, where = held
                sink.error("QB237", f"section '{section.id}' gives its Moodle category the ID number '{ident}', which "
                                    f"{first} has ({where.path}:{where.line}); Moodle refuses the whole file on a repeated "
                                    "category ID number", at,
                           hint="give one of them another moodle_idnumber, or leave it out (the build then writes "
                                "'<quiz id>.<section id>')")
            walk(section.sections, here)

    walk(quiz.sections, ())


def _check_question_idnumbers(quiz: Quiz, source: SourceMap, sink: DiagnosticSink,
                              locs_of: Callable[[], dict[str, tuple[str | int, ...]]]) -> None:
    """QB238: two questions of one Moodle category (a section, or sections of one title side by
    side, which Moodle XML's import makes one category) with one ID number (a question's
    own ``moodle_idnumber``, or the id of another, which the build writes as its ID number).
    Moodle keeps question ID numbers unique in a category: its import and restore drop the
    repeat's ID number without a word, and the course would lose the one the author wrote."""
    categories: dict[tuple[str, ...], list[Question]] = {}
    for path, section in moodle_category_paths(quiz):
        categories.setdefault(path, []).extend(section.questions)

    def at(question: Question) -> SourceSpan:
        # Located only for a message: a quiz without a repeat (nearly every one) locates nothing,
        # nor makes every question's path (a 10,000-question bank's rebuild in a watch, bench/README.md).
        loc = locs_of()[question.id]
        return source.locate(loc + ("moodle_idnumber",) if question.moodle_idnumber is not None else loc)

    for questions in categories.values():
        taken: dict[str, Question] = {}
        # The ids first: a question without an ID number of its own keeps its id whatever comes
        # after it, so the ID number that repeats one is the error. The first to have an ID
        # number keeps it (Moodle's ID numbers are unique in their scope).
        for question in sorted(questions, key=lambda q: q.moodle_idnumber is not None):
            ident = question.bank_idnumber()
            first = taken.setdefault(ident, question)
            if first is not question:
                where = at(first)
                sink.error("QB238", f"question '{question.id}' gives its Moodle ID number '{ident}', which question "
                                    f"'{first.id}', in the same category, has ({where.path}:{where.line}); Moodle keeps one "
                                    "question with an ID number in a category and drops the other's ID number", at(question),
                           hint="give one of them another moodle_idnumber, or leave it out (the build then writes the "
                                "question's id)")


def _as_written(blank: Blank) -> str:
    """A blank as its author wrote it: its answers (``[[len]]``, ``[[*right | wrong]]``), not the
    id the reader gave it (``b1``); an id the author gave (YAML ``id:``) as it is."""
    if not re.fullmatch(r"b\d+", blank.id):
        return f"[[{blank.id}]]"
    if blank.kind == "dropdown":
        return "[[" + " | ".join([f"*{a}" for a in blank.answers] + blank.options) + "]]"
    return "[[" + " | ".join(blank.answers) + "]]"


