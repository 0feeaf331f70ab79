"""What every importer shares: the result type, ids, media, and assembling a valid quiz.

An importer turns its input into plain data shaped like the model (the readers' contract too),
question by question. :class:`QuizBuilder` validates each question on its own, so one question the
model cannot hold is reported (with the input file, its line and the question) and skipped while
the rest of the quiz is imported; it then makes the ids unique and validates the quiz.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..content import media_refs
from ..diagnostics import DiagnosticSink, SourceSpan, shorten
from ..media import is_external, safe_name
from ..model import IDENTIFIER_PATTERN, Question, Quiz, QuizSettings, Section
from ..model.common import iter_markdown
from ..model.quiz import scoped_idnumber
from ..readers.model_errors import ITEM_NAMES, explain
from ..readers.source_map import SourceMap
from ..plurals import plural
from .safety import INPUT_FOLDER

#: Diagnostics of the importers (docs/import.md). Errors: QB700 an input that cannot be read or
#: has no importer, QB701 XML that is not well-formed, QB702 hostile XML refused, QB703 a hostile
#: package refused, QB704 an input with no question, QB720 an output that exists. Warnings: QB710
#: a question type that cannot be imported (skipped), QB711 a setting or part that is lost,
#: QB712 content kept as HTML or changed by the sanitiser, QB713 a question the model cannot hold
#: (skipped), QB714 a media file that is missing or refused, QB715 text that the system it comes
#: from reads differently from how it looks (imported as that system reads it).
NO_QUESTIONS, UNSUPPORTED, LOST, CONTENT, INVALID, MEDIA = "QB704", "QB710", "QB711", "QB712", "QB713", "QB714"
SURPRISE = "QB715"

_QUESTION = TypeAdapter(Question)


@dataclass
class ImportedQuiz:
    quiz: Quiz
    #: Media files by the reference the quiz's Markdown uses (``media/name.png``).
    media: dict[str, bytes] = field(default_factory=dict)
    #: The input, as displayed in diagnostics.
    origin: str = ""
    #: Questions imported with a part lost or changed (a QB711, QB712 or QB714 warning within
    #: their lines), by model type; filled by :meth:`QuizBuilder.imported`.
    changed: Counter[str] = field(default_factory=Counter)
    #: Questions skipped, by their type as the input names it.
    skipped: Counter[str] = field(default_factory=Counter)
    #: The source to write as it is, when the input is one the Markdown dialect's reader read (an
    #: exam paper: its title and language as front matter, then its lines), instead of the source
    #: the writer would make of ``quiz``; build reads it into the same quiz.
    source_text: str | None = None
    #: A Moodle input's category ID numbers as the course has them, by the id of the section each
    #: category became: :func:`keep_category_idnumbers` keeps one in the source where a build would
    #: not make it from the quiz and section ids, again when ``import --id`` renames the quiz.
    category_idnumbers: dict[str, str] = field(default_factory=dict)


def keep_category_idnumbers(quiz: Quiz, idnumbers: dict[str, str]) -> tuple[Quiz, list[tuple[str, str]]]:
    """The quiz with each section of ``idnumbers`` given its Moodle category ID number
    (``moodle_idnumber``) only where the build would not make the same from the quiz and section
    ids (a course's own ``CELLS`` under the quiz ``BIO-W3``, where the build would write
    ``BIO-W3.CELLS``), so that the source says no more than it must and a build gives every ID
    number back as it was. One that another category of the quiz has already (categories of two
    contexts, or the quiz id) is left out, since the build refuses a repeat (QB237): those are
    returned, as (section id, ID number), for the importer to say."""
    taken = {quiz.category_idnumber()}
    dropped: list[tuple[str, str]] = []

    def kept(section: Section) -> Section:
        own = idnumbers.get(section.id, section.moodle_idnumber)
        if section.id in idnumbers and own == scoped_idnumber(quiz.id, section.id):
            own = None
        if own is not None and own in taken:
            dropped.append((section.id, own))
            own = None
        taken.add(own if own is not None else scoped_idnumber(quiz.id, section.id))
        return section.model_copy(update={"moodle_idnumber": own, "sections": [kept(s) for s in section.sections]})

    if not idnumbers:
        return quiz, dropped
    return quiz.model_copy(update={"sections": [kept(s) for s in quiz.sections]}), dropped


def clean_text(text: str | None) -> str:
    """Text as the readers would have it: NFC, LF line ends, no characters XML forbids."""
    if not text:
        return ""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    return _FORBIDDEN.sub("", text)


#: Characters XML 1.0 forbids (controls but tab and line feed, surrogates, U+FFFE, U+FFFF).
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def one_line(text: str | None) -> str:
    return " ".join(clean_text(text).split())


def same_title(title: str, derived: str) -> bool:
    """Is ``title`` the one the writers derive from the stem? Spaces aside: a formula's TeX comes
    back from MathML spaced differently, and a title derived from it with it."""
    return re.sub(r"\s+", "", title) == re.sub(r"\s+", "", derived)


def digest(text: str) -> str:
    """The Markdown reader's derived-id digest, so derived ids look alike."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=4).hexdigest()


def sanitise_id(text: str | None) -> str | None:
    """An identifier from an external id (Moodle idnumber, QTI identifier), or None if nothing usable is left."""
    if not text:
        return None
    if re.match(IDENTIFIER_PATTERN, text):
        return text
    ident = re.sub(r"[^A-Za-z0-9_.-]+", "-", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())
    ident = ident.strip("-.")
    if not ident:
        return None
    if not re.match(r"[A-Za-z_]", ident):
        ident = "q-" + ident
    ident = shorten_id(ident, ID_LENGTH, text)
    return ident if re.match(IDENTIFIER_PATTERN, ident) else None


#: The longest id the model takes (IDENTIFIER_PATTERN).
ID_LENGTH = 64


def shorten_id(ident: str, length: int, whole: str | None = None) -> str:
    """``ident`` if it fits in ``length`` characters, else cut and given a stable suffix: 8 hex
    digits of the hash of ``whole`` (the text it came from), so that two long ids that start
    alike stay apart, and the same input always gives the same id."""
    if len(ident) <= length:
        return ident
    suffix = "-" + digest(whole if whole is not None else ident)
    return ident[: length - len(suffix)].rstrip("-.") + suffix


def slug(text: str, prefix: str) -> str:
    """A readable id from a title (``what-is-the-capital``), or prefix + digest for text without ASCII words."""
    words = re.findall(r"[A-Za-z0-9]+", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())
    candidate = "-".join(words)
    if len(candidate) > 40:  # cut at a word
        candidate = candidate[:41].rsplit("-", 1)[0]
    if candidate and len(candidate) >= 3 and re.match(r"[a-z]", candidate):
        return candidate
    return prefix + digest(text)


class Ids:
    """Unique ids in one quiz: sections and questions share one namespace (Quiz._unique_ids)."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        #: base -> the suffix number to try first: every smaller one is taken. A bank of questions
        #: titled alike ("Question 1" x 10,000) would otherwise try them all again each time.
        self._next: dict[str, int] = {}

    def claim(self, preferred: str | None, fallback: str) -> str:
        base = sanitise_id(preferred) or sanitise_id(fallback) or "q"
        ident, n = base, 2
        if ident in self.used:
            n = self._next.get(base, 2)
            ident = _suffixed(base, n)
            while ident in self.used:
                n += 1
                ident = _suffixed(base, n)
            self._next[base] = n + 1
        self.used.add(ident)
        return ident

    def release(self, ident: str) -> None:
        """Give back an id claimed for something that was then dropped (a question skipped)."""
        self.used.discard(ident)
        self._next.clear()  # the freed id may be any base's suffix: try from the start again


def _suffixed(base: str, n: int) -> str:
    suffix = f"-{n}"
    return base[: 64 - len(suffix)] + suffix


class MediaStore:
    """Media found in an input, under names unique in the quiz: ``media/<name>``. The same bytes
    twice are one file; two files of one name get the content hash added."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        #: The reference of each content, so that a bank with an image per question does not
        #: compare every new file with all the others.
        self._refs: dict[bytes, str] = {}

    def add(self, name: str, data: bytes) -> str:
        name = original_name(name, data)
        if data in self._refs:
            return self._refs[data]
        clean = safe_name(name, data)  # ASCII, content-hashed
        stem_hint = name if re.fullmatch(r"[A-Za-z0-9_.-]{1,80}", name) and not name.startswith(".") else clean
        ref = f"media/{stem_hint}"
        if ref in self.files:
            ref = f"media/{clean}"
        self.files[ref] = data
        self._refs[data] = ref
        return ref


    def placeholder(self, missing: str) -> str:
        """A stand-in for a media file the input refers to but does not hold: an image that says
        which file is missing, named after it (``media/missing-<name>.svg``), so that the source
        builds and the author sees, in the question, what to put back."""
        name = missing.replace("\\", "/").rsplit("/", 1)[-1] or "file"
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.")[:60] or "file"
        text = html.escape(f"missing: {name}"[:120], quote=True)
        data = (f'<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40" viewBox="0 0 320 40">'
                f'<rect width="320" height="40" fill="#eeeeee" stroke="#999999"/>'
                f'<text x="8" y="25" font-family="sans-serif" font-size="14">{text}</text></svg>\n').encode()
        return self.add(f"missing-{stem}.svg", data)


def original_name(name: str, data: bytes) -> str:
    """Our packages name media ``<name>-<10 hex of sha256>.<ext>`` (media.safe_name); give such a
    file its own name back, so a round trip does not grow the name each time."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    match = re.fullmatch(r"(.+)-([0-9a-f]{10})(\.[A-Za-z0-9]+)?", name)
    if match and hashlib.sha256(data).hexdigest()[:10] == match.group(2):
        return match.group(1) + (match.group(3) or "")
    return name


def guess_language(texts: list[str]) -> str:
    """The language of a quiz whose format does not say (Moodle XML, GIFT, Aiken, a Canvas export):
    its prose's, as a pasted paper's is told (language.text_language: scripts, then the words of
    the nine languages, code and formulas left out); where that cannot tell, the script that fills
    a fifth of the letters, else English."""
    from .language import text_language

    return text_language("\n".join(texts)[:200_000]) or script_language(texts)


def script_language(texts: list[str]) -> str:
    """The script that fills a fifth of the texts' letters (code and all), else English: what
    tells a text too short for :func:`guess_language`'s reading of its prose."""
    sample = "".join(texts)[:20_000]
    counts = {
        "ko": len(re.findall(r"[\uac00-\ud7a3]", sample)),
        "ja": len(re.findall(r"[\u3040-\u30ff]", sample)),
        "zh": len(re.findall(r"[\u4e00-\u9fff]", sample)),
        "ru": len(re.findall(r"[\u0400-\u04ff]", sample)),
        "el": len(re.findall(r"[\u0370-\u03ff]", sample)),
    }
    letters = max(len(re.findall(r"[^\W\d_]", sample)), 1)
    language, count = max(counts.items(), key=lambda item: item[1])
    if language == "zh" and counts["ja"]:
        language = "ja"
    return language if count / letters > 0.2 else "en"


@dataclass
class _Pending:
    data: dict[str, Any]
    span: SourceSpan
    label: str
    preferred_id: str | None
    #: The question's last line in the input (its span is its first).
    end_line: int | None
    #: The question's type as the input names it (``gapselect``, ``choiceInteraction``): named if it
    #: is skipped, and counted.
    kind: str | None
    #: The importer knows it changed the question (else: a change reported within its lines).
    changed: bool


#: Warnings that say a question was imported, but not exactly as it was.
_CHANGES = (LOST, CONTENT, MEDIA)


class QuizBuilder:
    """Collects sections and questions as plain data; :meth:`build` validates them into a Quiz."""

    def __init__(self, origin: str, sink: DiagnosticSink) -> None:
        self.origin = origin
        self.sink = sink
        self.ids = Ids()
        self.roots: list[dict[str, Any]] = []
        self.media = MediaStore()
        self._pending: dict[int, list[_Pending]] = {}
        self.changed: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        #: The first skipped question's warning: what an input none of whose questions was read lacks.
        self.first_skip: str | None = None
        #: (path, line) of every warning of a change, to count the questions changed.
        self._changes: set[tuple[str, int]] = set()
        #: The folder of a loose input (a quiz page, a GIFT file...) whose images are files beside
        #: it, None for a package: each question's media references not extracted by the importer
        #: are extracted from it, or become placeholders (:func:`localise_media`, on each question's Markdown texts).
        self.media_folder: Path | None = INPUT_FOLDER.get()
        #: A quiz page names its images by site paths too (``/assets/img/a.png``), read below
        #: :attr:`media_folder`; any other input's absolute path is never read.
        self.site_paths = False

    def warn(self, code: str, message: str, span: SourceSpan | None = None, hint: str | None = None) -> None:
        span = span or SourceSpan(self.origin)
        if code in _CHANGES and span != SourceSpan(self.origin):  # the bare file is the whole input's
            self._changes.add((span.path, span.line))
        self.sink.warning(code, message, span, hint)

    def skip(self, kind: str, code: str, message: str, span: SourceSpan | None = None, hint: str | None = None) -> None:
        """Report a question that is not imported; ``kind`` is its type as the input names it."""
        self.skipped[kind] += 1
        self.first_skip = self.first_skip or message
        self.sink.warning(code, message, span or SourceSpan(self.origin), hint)

    def imported(self, quiz: Quiz) -> ImportedQuiz:
        """The result of a :meth:`build` that gave a quiz, with its media and counts."""
        return ImportedQuiz(quiz, self.media.files, self.origin, self.changed, self.skipped)

    def section(self, title: str, parent: dict[str, Any] | None = None, preferred_id: str | None = None,
                **settings: Any) -> dict[str, Any]:
        section: dict[str, Any] = {"title": clean_text(title).replace("\n", " ").strip() or "Questions", "_preferred": preferred_id,
                                   "questions": [], "sections": [],
                                   **{k: v for k, v in settings.items() if v not in (None, "")}}
        (parent["sections"] if parent is not None else self.roots).append(section)
        self._pending[id(section)] = []
        return section

    def add(self, section: dict[str, Any], data: dict[str, Any], span: SourceSpan, label: str,
            preferred_id: str | None = None, *, end_line: int | None = None, kind: str | None = None,
            changed: bool = False) -> None:
        """Queue one question. ``label`` names it in diagnostics (its name or the start of its text),
        ``kind`` its type in the input; ``end_line`` is its last line (a change reported on any of its lines counts it as changed)."""
        self._pending[id(section)].append(_Pending(_cleaned(data), span, label, preferred_id, end_line, kind, changed))

    def build(self, quiz_id: str | None, title: str, language: str, description: str | None = None,
              settings: dict[str, Any] | None = None) -> Quiz | None:
        quiz_ident = sanitise_id(quiz_id) or slug(title, "quiz-")
        sections = [s for s in (self._finish(root) for root in self.roots) if s is not None]
        quiz_ident = _fitting_quiz_id(quiz_ident, sections)
        count = sum(1 for _ in _walk(sections))
        if not count:
            self._nothing_to_import()
            return None
        description = localise_media(self, clean_text(description), self.media_folder, SourceSpan(self.origin))
        data = {"id": quiz_ident, "title": clean_text(title).replace("\n", " ").strip() or quiz_ident, "language": language,
                "description": description or None, "settings": self._settings(settings or {}), "sections": sections}
        try:
            return Quiz.model_validate(data)
        except ValidationError as exc:  # a bug: every part was validated on its own
            self.sink.error(INVALID, f"the imported quiz is not valid: {exc.errors()[0]['msg']}", SourceSpan(self.origin))
            return None

    def _nothing_to_import(self) -> None:
        """QB704, naming what the input lacks: no question at all, or only questions that were
        skipped (how many, of which types, and the first one's reason), never just "nothing"."""
        skipped = sum(self.skipped.values())
        if not skipped:
            self.sink.error(NO_QUESTIONS, "nothing to import: no question could be read", SourceSpan(self.origin),
                            hint="check the format (--format) and the warnings above")
            return
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(self.skipped.items()))
        first = self.first_skip or ""
        what = (f"the one question it holds cannot be imported ({kinds}): {first}" if skipped == 1 else
                f"none of the {skipped} questions it holds can be imported ({kinds}); the first: {first}")
        self.sink.error(NO_QUESTIONS, f"nothing to import: {what}", SourceSpan(self.origin),
                        hint="each question skipped is named in a warning: fix it in the system it comes from and export again, "
                             "or write it in a source by hand")

    def _settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """The quiz settings an input states, each validated on its own: one the model cannot
        hold (a time limit of ten weeks) is reported and left out, the others are kept."""
        kept: dict[str, Any] = {}
        for name, value in settings.items():
            try:
                QuizSettings.model_validate({name: value})
            except ValidationError as exc:
                problem = exc.errors()[0]["msg"].removeprefix("Value error, ")
                self.warn(LOST, f"the quiz setting {name} = {value!r} cannot be kept: {problem}", SourceSpan(self.origin))
                continue
            kept[name] = value
        return kept

    def _finish(self, section: dict[str, Any]) -> dict[str, Any] | None:
        preferred = section.pop("_preferred")
        section["id"] = self.ids.claim(preferred, slug(section["title"], "s"))
        questions = []
        for pending in self._pending.pop(id(section)):
            question = self._validate(pending)
            if question is not None:
                questions.append((question, pending.span))
        self._keep_idnumbers(questions)
        section["questions"] = [question for question, _ in questions]
        section["sections"] = [s for s in (self._finish(child) for child in section["sections"]) if s is not None]
        if section.get("description"):
            section["description"] = localise_media(self, clean_text(section["description"]), self.media_folder, SourceSpan(self.origin))
        if not questions and not section["sections"]:
            return None
        available = len(questions) + len(section["sections"])
        if section.get("select") and section["select"] > available:
            # Questions that were skipped leave a draw larger than what is left to draw from.
            self.warn(LOST, f"section '{section['title']}' draws {plural(section['select'], 'question')} but only {available} could be "
                            f"imported; it now draws {available}")
            section["select"] = available
        return section

    def _keep_idnumbers(self, questions: list[tuple[dict[str, Any], SourceSpan]]) -> None:
        """Each question of one category keeps its Moodle ID number (``moodle_idnumber``) only
        where the build would not give the same from its id, so that the source says no more than
        it must. One that another question of the category has (its id, or its ID number: a
        hand-edited file) is dropped and said, since Moodle keeps ID numbers unique in a category
        and the build refuses a repeat (QB238): the source still builds."""
        taken = {question["id"] for question, _ in questions}
        for question, span in questions:
            own = question.get("moodle_idnumber")
            if own is None or own == question["id"]:
                question["moodle_idnumber"] = None
                continue
            if own in taken:
                self.warn(LOST, f"question '{question['id']}': its ID number '{own}' is another question's of its category "
                                "too; a build gives it its id as ID number", span,
                          hint="give one of them another moodle_idnumber in the source if the course needs both")
                question["moodle_idnumber"] = None
                continue
            taken.add(own)

    def _validate(self, pending: _Pending) -> dict[str, Any] | None:
        data = pending.data
        data["id"] = self.ids.claim(pending.preferred_id, slug(pending.label, "q") if pending.label else "q" + digest(data.get("stem", "")))
        canonical_true_false(data)
        try:
            question = _QUESTION.validate_python(data)
        except ValidationError as exc:
            self.ids.release(data["id"])
            problems = "; ".join(_problem(e, data) for e in exc.errors()[:3])
            kind = f" ({pending.kind})" if pending.kind else ""
            self.skip(pending.kind or str(data.get("type", "question")), INVALID,
                      f"question '{short(pending.label)}'{kind} was skipped: {problems}", pending.span,
                      hint="fix it in the original system and import again, or add it to the source by hand")
            return None
        dumped = question.model_dump(exclude_defaults=False)
        # Its Markdown texts only: an answer that reads "<img src=a.png>" (a quiz about HTML) is
        # what the student types, not a file.
        for loc, text in iter_markdown(question):
            localised = localise_media(self, text, self.media_folder, pending.span)
            if localised != text:
                _set(dumped, loc, localised)
        span = pending.span
        if pending.changed or any((span.path, line) in self._changes for line in range(span.line, max(pending.end_line or 0, span.line) + 1)):
            self.changed[question.type] += 1
        return dumped


def _problem(error: Any, data: dict[str, Any]) -> str:
    """One reason the model refuses a question, said as what the question lacks: an empty list
    ("it has 0 choices, and needs 2 at least") or a missing text ("its stem is empty"), else in
    the words a source's author reads for the same error ("'points' must be at least 0, not the
    number -2"), after the entry it is in ("choice 1: 'text' is empty"), never pydantic's."""
    loc = tuple(error["loc"][1:])
    where = ".".join(str(p) for p in loc)
    context = error.get("ctx") or {}
    if error["type"] == "too_short" and where and "min_length" in context:
        return f"it has {context['actual_length']} {where}, and needs {context['min_length']} at least"
    if error["type"] == "missing" and where:
        return f"its {where} is empty"
    said = explain(error, loc, data, _PLAIN).message
    entries = [f"{ITEM_NAMES.get(str(name), name)} {index + 1}" for name, index in zip(loc, loc[1:]) if isinstance(index, int)]
    return f"{', '.join(entries)}: {said}" if entries else said


#: How the model's errors are worded for an import: as for a Markdown source, whose questions are
#: named by the message around them, not in it.
_PLAIN = SourceMap("", syntax="markdown")


def canonical_true_false(data: dict[str, Any]) -> None:
    """True/false feedback for the right (wrong) answer is the same thing as correct (incorrect)
    feedback; the canonical form keeps it on the answer, as the Markdown reader does."""
    if data.get("type") != "true_false" or not isinstance(data.get("answer"), bool):
        return
    feedback = data.get("feedback") or {}
    right, wrong = ("true_feedback", "false_feedback") if data["answer"] else ("false_feedback", "true_feedback")
    if feedback.get("correct") and not data.get(right):
        data[right], feedback["correct"] = feedback["correct"], None
    if feedback.get("incorrect") and not data.get(wrong):
        data[wrong], feedback["incorrect"] = feedback["incorrect"], None


def choice_ids(count: int, original: list[str] | None = None) -> list[str]:
    """Letters, as the Markdown dialect writes choices; the original ids when they already are."""
    if original and len(set(original)) == len(original) and all(re.fullmatch(r"[A-Z]", o) for o in original):
        return list(original)
    if count <= 26:
        return [chr(65 + i) for i in range(count)]
    return [f"c{i + 1}" for i in range(count)]


def set_choice_scores(data: dict[str, Any], fractions: list[float]) -> None:
    """Percentages per choice (Moodle fractions, QTI mapped values) as the model says them: the
    default when they are its (the right choices share 100 %, each wrong one takes one share
    away), ``negative_marking`` when the wrong choices share -100 %, else explicit scores: on the
    wrong choices alone when the right ones share 100 % (a wrong choice worth 0 is ``{score=0}``,
    since the default takes a share away)."""
    choices = data["choices"]
    right = [f for f in fractions if f > 0]
    wrong = [f for f in fractions if f <= 0]
    shares = all(abs(f - 100 / len(right)) < 0.01 for f in right) if right else True
    if shares and right and all(abs(f + 100 / len(right)) < 0.01 for f in wrong):
        return
    if shares and wrong and all(abs(f + 100 / len(wrong)) < 0.01 for f in wrong):
        data["negative_marking"] = True
        return
    for choice, fraction in zip(choices, fractions):
        if not shares or fraction <= 0:
            choice["score"] = round(fraction, 5) + 0.0  # no -0.0


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value).strip()
    if isinstance(value, list):
        return [_cleaned(v) for v in value]
    if isinstance(value, dict):
        return {k: _cleaned(v) for k, v in value.items() if v is not None and v != ""}
    return value


def _fitting_quiz_id(quiz_id: str, sections: list[dict[str, Any]]) -> str:
    """The quiz id, shortened (:func:`shorten_id`) so that ``<quiz id>.<id>`` of its longest
    section or question id fits in a Moodle idnumber: the build writes them so, and an id that
    keeps its quiz's prefix comes back from Moodle as it was."""
    from ..writers.moodle import IDNUMBER_LENGTH  # (only import needs it: build never loads the importers)

    longest = max((len(i) for i in _ids(sections)), default=0)
    return shorten_id(quiz_id, IDNUMBER_LENGTH - 1 - longest)


def _ids(sections: list[dict[str, Any]]) -> Any:
    for section in sections:
        yield section["id"]
        yield from (q["id"] for q in section["questions"])
        yield from _ids(section["sections"])


def _walk(sections: list[dict[str, Any]]) -> Any:
    for section in sections:
        yield from section["questions"]
        yield from _walk(section["sections"])


def short(text: str, width: int = 60) -> str:
    """A text of the input on one line, cut to quote it in a message."""
    return shorten(one_line(text), width)


def markdown_from_html(builder: QuizBuilder, fragment: str, span: SourceSpan, where: str) -> str:
    """HTML -> Markdown for one field, with what did not convert exactly reported at ``span``."""
    from .markup import html_to_markdown

    converted = html_to_markdown(fragment)
    if converted.removed:
        # '; ' between the items: each is a fragment of its own to the translation ('onclick= on <p>').
        builder.warn(CONTENT, f"{where}: the build's sanitiser removes {'; '.join(converted.removed[:5])}", span,
                     hint="scripts, frames, styles and event handlers never reach a package (SECURITY.md)")
    if converted.raw:
        exact = "" if converted.exact else "; it may not show exactly as before"
        builder.warn(CONTENT, f"{where}: kept as raw HTML (it has no exact Markdown form){exact}", span,
                     hint="check it in the preview (qti-builder preview); edit it into Markdown if you like")
    return converted.markdown


#: A Markdown image, an HTML media element's ``src`` (quoted or not) and a link to a file of the
#: media folder, in a text of the source dialect: where :func:`localise_media` writes the file a
#: reference the build reads (content.media_refs) points at.
_MARKDOWN_IMAGE = re.compile(r"(!\[[^\]]*\]\()(<[^>]*>|[^)\s]+)((?:\s+\"[^\"]*\")?\))")
_MARKDOWN_LINK = re.compile(r"((?<!!)\[[^\]]*\]\()(<media/[^>]*>|media/[^)\s]+)((?:\s+\"[^\"]*\")?\))")
_MEDIA_SRC = re.compile(r"(<(?:img|audio|video|source)\b[^>]*?\bsrc\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s>\"']+)", re.I)
_MEDIA_HREF = re.compile(r"(<a\b[^>]*?\bhref\s*=\s*)(\"media/[^\"]*\"|'media/[^']*')", re.I)


def localise_media(builder: QuizBuilder, text: str, folder: Path | None, span: SourceSpan) -> str:
    """``text`` (a question's Markdown) with each media reference (what the build reads as one:
    content.media_refs) pointing at a file the import holds: one the importer extracted already
    (``media/<name>``) stays; for a loose input (``folder``: the input's folder) a relative path is
    read below ``folder``, and a quiz page's site path (``/assets/img/a.png``, :attr:`QuizBuilder.site_paths`)
    at the same place below ``folder`` or at its tail there (``img/a.png``, ``a.png``); never a
    file outside ``folder`` (no ``..``, no absolute path, no link out of it, no hidden file). A
    file not found (in a package, any file its importer did not extract) is a named placeholder
    (:meth:`MediaStore.placeholder`) and a QB714 warning. Web addresses and ``data:`` URLs stay as
    they are."""
    if "![" not in text and "src" not in text and "media/" not in text:
        return text
    from urllib.parse import unquote, urlsplit

    # Only what the build reads as a reference: an <img> shown as code in a question about HTML
    # stays the text it is.
    read = {unquote(html.unescape(ref)) for ref, _, _ in media_refs(text)}
    if not read:
        return text

    def local(ref: str) -> str:
        if unquote(ref) not in read or not ref or is_external(ref) or ref.startswith("#") or ref in builder.media.files:
            return ref
        path = unquote(urlsplit(ref).path) if not re.match(r"^[A-Za-z]:", ref) else ref
        parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
        site = builder.site_paths and path.startswith("/")
        absolute = path.startswith(("/", "\\")) or bool(re.match(r"^[A-Za-z]:", path))
        refused = ".." in parts or any(p.startswith(".") for p in parts) or (absolute and not site)
        found = None
        if folder is not None and parts and not refused:
            found = _file_below(folder, parts, site=site)
        if found is not None:
            return builder.media.add(found.name, found.read_bytes())
        shown = path or ref
        placeholder = builder.media.placeholder(shown)
        if builder.site_paths:
            why = "is not beside the page"
        elif folder is None:
            why = "is not in the package"
        elif ".." in parts:
            why = f"leaves the folder of {PurePosixPath(builder.origin).name}, and is not read"
        elif absolute:
            why = "is an absolute path, which is not read"
        elif refused:
            why = "is a hidden file, which is not read"
        elif _leads_out(folder, parts):
            why = f"is a link out of the folder of {PurePosixPath(builder.origin).name}, and is not read"
        else:
            why = f"is not beside {PurePosixPath(builder.origin).name}"
        builder.warn(MEDIA, f"media file '{shown}' {why}; the placeholder {placeholder} shows where it was",
                     span, hint=f"put the file in the source's media/ folder and refer to it instead of {placeholder}")
        return placeholder

    def markdown_ref(match: re.Match[str]) -> str:
        ref = match.group(2)
        bare = ref[1:-1] if ref.startswith("<") else ref
        return match.group(1) + local(bare) + match.group(3)

    def html_ref(match: re.Match[str]) -> str:
        value = match.group(2)
        quote = value[0] if value[0] in "\"'" else '"'
        bare = value[1:-1] if value[0] in "\"'" else value
        return match.group(1) + quote + html.escape(local(html.unescape(bare))) + quote

    text = _MARKDOWN_LINK.sub(markdown_ref, _MARKDOWN_IMAGE.sub(markdown_ref, text))
    return _MEDIA_HREF.sub(html_ref, _MEDIA_SRC.sub(html_ref, text))


def _leads_out(folder: Path, parts: list[str]) -> bool:
    """Is there a file at ``parts`` below ``folder`` that is a link to one outside it?"""
    try:
        path = folder.joinpath(*parts)
        return path.is_symlink() and not path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def _set(data: dict[str, Any], loc: tuple[str | int, ...], value: str) -> None:
    """Put ``value`` at ``loc`` (a path of model.common.iter_markdown) in a model's dumped data."""
    node: Any = data
    for key in loc[:-1]:
        node = node[key]
    node[loc[-1]] = value


def _file_below(folder: Path, parts: list[str], site: bool) -> Path | None:
    """The file ``parts`` names below ``folder`` (for a site path, or its tail there too), within
    the package limits; None when there is none or it would leave ``folder``."""
    from .safety import LIMITS

    root = folder.resolve()
    tails = [parts[i:] for i in range(len(parts))] if site else [parts]
    for tail in tails:
        try:
            path = root.joinpath(*tail).resolve()
            if path.is_relative_to(root) and path.is_file() and path.stat().st_size <= LIMITS.get().max_entry_bytes:
                return path
        except OSError:
            continue
    return None
