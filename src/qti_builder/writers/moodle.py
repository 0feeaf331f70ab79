"""Moodle XML: one ``<quiz>`` file per quiz, a category per section.

Follows what Moodle 4.5's importer does (docs/lms-behaviour.md, and the importers of
question/format/xml/format.php and the qtype plugins): HTML text in CDATA (outside CDATA Moodle
drops whitespace next to entities), every question named, fractions from Moodle's grade options,
a category question before each section's questions.

Every model kind has one template per Moodle question type (``question_<type>.xml.j2``). The
writer computes what each template shows (fractions, feedback per answer, the cloze text, ...),
one :class:`QuestionContext` method per kind, which the kind's spec names with its template
(kinds.py ``KindSpec.moodle``; :attr:`MoodleXmlWriter.adapters`); so the templates only lay out
data. What a kind becomes:

==================  =====================================================================
single_choice       multichoice, single, fraction 100/0, numbered as the source (answernumbering)
multiple_response   multichoice, not single, fractions from ``choice_scores()``
true_false          truefalse, answers ``true``/``false``; with labels of its own (O/X), multichoice
short_answer        shortanswer (``*`` is Moodle's wildcard too)
numerical           numerical, absolute tolerances, the unit as an optional unit
essay               essay
file_upload         essay without an inline answer, attachments required
matching            matching; distractors are subquestions without text
ordering            ordering (qtype_ordering, in core since Moodle 4.4)
fill_in_blank       cloze, each blank an embedded answer
calculated          calculated, with its datasets (moodle_calculated)
calculated_choice   calculatedmulti, its options' formulas in Moodle's {=...}
text_only           description
==================  =====================================================================
"""

from __future__ import annotations

import re
from urllib.parse import quote
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from html import escape
from typing import Any, ClassVar

from ..content import plain_text, render_html
from ..i18n import true_false_labels
from ..media import MediaSet
from ..diagnostics import DiagnosticSink, SourceSpan
from ..kinds import KindTable, resolve
from ..model import Quiz, Section
from ..model.questions import (BLANK_MARKER, Blank, EssayQuestion, FileUploadQuestion, FillInBlankQuestion,
                               MatchingQuestion, MultipleResponseQuestion, NumericalQuestion, OrderingQuestion,
                               ShortAnswerQuestion, SingleChoiceQuestion, TrueFalseQuestion)
from ..model.kinds.text_only import TextOnlyItem
from ..model.union import Question
from ..model.quiz import MOODLE_IDNUMBER_LENGTH, category_name, quiz_own_section, scoped_idnumber
from .base import Document, KindAdapter, Output, Writer, text_shown

#: Moodle's grade options in percent (question_bank::fraction_options_full); an answer fraction
#: must be within 0.001 points of one of them or of its negative (docs/lms-behaviour.md).
MOODLE_GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0)

#: Model response formats -> Moodle ``responseformat`` values.
ESSAY_FORMATS = {"editor": "editor", "plain": "plain", "monospaced": "monospaced"}

#: Option numbering (the model's numbering styles) -> Moodle's ``answernumbering`` (qtype_multichoice's
#: get_numbering_styles(): abc, ABCD, 123, iii, IIII, none). Moodle has no Hangul or Katakana
#: numbering: those options are numbered 1. 2. 3. there, in the same order.
ANSWER_NUMBERING = {None: "ABCD", "upper-alpha": "ABCD", "lower-alpha": "abc", "lower-roman": "iii", "decimal": "123",
                    "parenthesized-decimal": "123", "circled-decimal": "123", "hangul": "123",
                    "hangul-consonant": "123", "katakana": "123", "iroha": "123", "none": "none"}

#: Moodle's default penalty per wrong try; true/false uses 1 (its editing form fixes it there,
#: a second try being a sure win) and a description scores nothing.
PENALTY = "0.3333333"

#: qtype_ordering settings, spelled as its export_to_xml() writes them: all items shown, one
#: under the other, unnumbered; all or nothing, as the QTI item scores it (QTI 2.1 cannot map an
#: ordered response to partial credit), so both packages grade a student alike.
ORDERING_OPTIONS = {
    "layouttype": "VERTICAL",
    "selecttype": "ALL",
    "gradingtype": "ALL_OR_NOTHING",
    "showgrading": "SHOW",
    "numberingstyle": "none",
}

#: Diagnostics of this writer. QB321: a score Moodle cannot store; QB322: a blank Moodle cannot
#: take; QB323 (warning): a cloze question whose marks differ from the points; QB324 (warning):
#: incorrect feedback that Moodle can never show.
FRACTION_ERROR = "QB321"
BLANK_ERROR = "QB322"
CLOZE_MARKS_WARNING = "QB323"
UNREACHABLE_FEEDBACK_WARNING = "QB324"


@dataclass(frozen=True)
class MoodleKind(KindAdapter):
    """The context function is a :class:`QuestionContext` method (it reports scores Moodle cannot
    store through the question's context)."""

    #: The penalty per wrong try (see PENALTY).
    penalty: str = PENALTY


class MoodleXmlWriter(Writer):
    name = "moodle"
    templates_folder = "moodle"
    suffix = ".moodle.xml"
    #: Moodle XML is a question bank: time limit, attempts, review options and the like belong to
    #: the quiz activity, which the file does not describe. No quiz setting has a place in it.
    carries_settings: ClassVar[frozenset[str]] = frozenset()
    #: Registered at the end of this module.
    adapters: ClassVar[Mapping[str, MoodleKind]]

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        renames = tuple((f.ref, "@@PLUGINFILE@@/" + quote(f.name)) for f in media.files)
        order = tuple(q.id for q in quiz.iter_questions())
        number = {question_id: n for n, question_id in enumerate(order, 1)}
        documents, ok = [], True
        categories = []
        own = quiz_own_section(quiz)
        # A section's ``select`` (draw n at random) has no Moodle XML form: random questions are
        # quiz slots, not bank questions. The questions go into the category all the same.
        for ancestors, section in quiz.iter_sections():
            path = [quiz.title, *(a.title for a in ancestors), section.title]
            if section is own:  # its questions are in the quiz's own category
                path = [quiz.title]
            categories.append({
                "own": section is own,
                "section": section,
                "idnumber": section.category_idnumber(quiz.id),
                "path": "$course$/top/" + "/".join(category_name(p) for p in path),
                "numbers": [number[q.id] for q in section.questions],
            })
            for question in section.questions if self.renders_questions else ():
                document = self.question_document(quiz, question, spans.get(question.id), sink, media, renames)
                ok = ok and document is not None
                if document:
                    documents.append(document)
        frame = self.render(
            "moodle/quiz.xml.j2", sink, quiz=quiz, categories=categories,
            quiz_category="$course$/top/" + category_name(quiz.title), media=media,
        )
        if not ok or frame is None:
            return None
        if frame and not self.places_every_question("moodle/quiz.xml.j2", frame, len(order), sink):
            return None
        if frame:
            documents.insert(0, Document(quiz.id + self.suffix, frame, "moodle", question_order=order))
        return Output(quiz.id + self.suffix, documents)

    def question_document(
        self, quiz: Quiz, question: Question, span: SourceSpan | None, sink: DiagnosticSink, media: MediaSet,
        renames: tuple[tuple[str, str], ...],
    ) -> Document | None:
        """One ``<question>``, placed into the frame by :func:`~.base.single_file`."""
        entry = QuestionContext(quiz, question, span, sink, renames).build()
        if entry is None:
            return None
        data = self.render(entry["template"], sink, span, question=question, entry=entry, quiz=quiz, media=media)
        if data is None:
            return None
        return Document(f"#{question.id}", data, "moodle-question", question.id)


def moodle_choice_scores(q: MultipleResponseQuestion) -> dict[str, float]:
    """The fraction of each option in Moodle, which adds up the fractions of the ticked options and
    keeps the total between 0 and 100 %: the question's scores with ``partial``; with the rules on the
    whole answer, each right option its share and each wrong one -100 %, so that any wrong tick
    gives 0 (a right but incomplete answer earns its shares: the Moodle profile names that loss)."""
    if q.scoring == "partial":
        return q.choice_scores()
    right = sum(c.correct for c in q.choices)
    return {c.id: 100 / right if c.correct else -100.0 for c in q.choices}


def best_first(answers: list[Any]) -> list[Any]:
    """Moodle grades with the first answer that matches, QTI with the best: written best first,
    the two agree (the sort is stable, so equal scores keep the source's order)."""
    return sorted(answers, key=lambda a: -a.score)


#: Moodle's question.idnumber column holds 100 characters.
IDNUMBER_LENGTH = MOODLE_IDNUMBER_LENGTH


def idnumber(quiz_id: str, section_id: str) -> str:
    """A category's ID number made from a section id (:func:`~..model.quiz.scoped_idnumber`). A
    section's own category is :meth:`~..model.Section.category_idnumber`, which keeps an ID number
    the source gives as it is; a question's ID number is its id: unique in its category."""
    return scoped_idnumber(quiz_id, section_id)


@lru_cache(maxsize=1024)  # a bank has a few scores, asked for by every answer of every question
def moodle_fraction(percent: float) -> str | None:
    """The grade option ``percent`` stands for, as Moodle writes it ('33.33333', '-50'), or None."""
    for grade in MOODLE_GRADES:
        for option in (grade, -grade):
            if abs(percent - option) <= 0.001:
                text = f"{option:.5f}".rstrip("0").rstrip(".")
                return "0" if text == "-0" else text
    return None


def decimal(value: float) -> str:
    """A number as plain decimal text without float noise: 0.15000000000000002 -> '0.15'."""
    text = format(Decimal(f"{value:.12g}"), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class QuestionContext:
    """What one question's template shows: the common header plus its kind's fields."""

    def __init__(
        self, quiz: Quiz, question: Question, span: SourceSpan | None, sink: DiagnosticSink,
        renames: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.quiz, self.question, self.span, self.sink = quiz, question, span, sink
        self.renames = renames
        self.ok = True
        #: Percent (as text) -> the answers scored so, for the scores Moodle cannot store.
        self.unstorable: dict[str, list[str]] = {}

    def build(self) -> dict[str, Any] | None:
        q = self.question
        # A blank's [[marker]] would show in the question bank's name: a gap reads better.
        stem = BLANK_MARKER.sub("___", q.stem) if isinstance(q, FillInBlankQuestion) else q.stem
        adapter = MoodleXmlWriter.adapters[q.type]
        entry: dict[str, Any] = {
            "question": q,
            "template": adapter.template,
            "name": q.title or plain_text(stem, 100),
            # Its own ID number (one a Moodle export gave that is no id: 'W3 Q1'), else its id:
            # either way unique in its category (QB238), all Moodle asks.
            "idnumber": q.bank_idnumber(),
            "defaultgrade": q.points,
            "penalty": adapter.penalty,
            # What students read: the shared passage, if any, above the question text (Moodle
            # shows no category's description to students).
            "questiontext": text_shown(q),
        }
        entry.update(adapter.context(self, q))
        if self.unstorable:
            self.report_unstorable()
        return entry if self.ok else None

    # -- helpers -----------------------------------------------------------------------------

    def fraction(self, percent: float, what: str) -> str:
        """The fraction Moodle stores for ``percent``; one it cannot store is collected and reported
        once per question (see :meth:`build`)."""
        text = moodle_fraction(percent)
        if text is None:
            self.unstorable.setdefault(decimal(round(percent, 5)), []).append(what)
            return "0"
        return text

    def report_unstorable(self) -> None:
        self.ok = False
        problems = []
        for percent, whats in self.unstorable.items():
            nearest = min((sign * g for g in MOODLE_GRADES for sign in (1, -1)), key=lambda g: abs(g - float(percent)))
            nouns = {what.split(" ", 1)[0] for what in whats}
            if len(whats) > 1 and len(nouns) == 1:  # "choices A, B, C" rather than "choice A, choice B, ..."
                whats = [f"{nouns.pop()}s " + ", ".join(what.split(" ", 1)[1] for what in whats)]
            problems.append(f"{percent} % ({', '.join(whats)}; nearest option {moodle_fraction(nearest)} %)")
        self.sink.error(
            FRACTION_ERROR,
            f"Moodle cannot store the scores of question '{self.question.id}': "
            + "; ".join(problems) + " is not one of its grade options",
            self.span,
            hint="Moodle's grade options are 100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, "
                 "20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5 and 0 % and their negatives: give explicit scores "
                 "from them (a multiple-response question's adding up to 100 %), or leave Moodle out with --format",
        )

    def answer_feedback(self, own: str | None, percent: float) -> str | None:
        """Answer-specific feedback, else the question's correct/partial/incorrect feedback:
        short-answer, numerical and true/false questions have no combined feedback in Moodle."""
        if own:
            return own
        fb = self.question.feedback
        return fb.correct if percent >= 100 else fb.partially_correct if percent > 0 else fb.incorrect

    # -- one method per kind (named by its spec, KindSpec.moodle) -------------------------------

    def _single_choice(self, q: SingleChoiceQuestion) -> dict[str, Any]:
        return self._choices(q, {c.id: 100.0 if c.correct else 0.0 for c in q.choices}, single=True)

    def _multiple_response(self, q: MultipleResponseQuestion) -> dict[str, Any]:
        return self._choices(q, moodle_choice_scores(q), single=False)

    def _choices(self, q: SingleChoiceQuestion | MultipleResponseQuestion, scores: dict[str, float],
                 single: bool) -> dict[str, Any]:
        return {
            "single": "true" if single else "false",
            "shuffle": "true" if q.shuffle else "false",
            # "Select one or more:" tells students that several boxes may be ticked.
            "showstandardinstruction": 0 if single else 1,
            "shownumcorrect": not single,
            "answernumbering": ANSWER_NUMBERING[q.numbering],
            "answers": [
                {"fraction": self.fraction(scores[c.id], f"choice {c.id}"), "text": c.text, "feedback": c.feedback}
                for c in q.choices
            ],
        }

    def _true_false(self, q: TrueFalseQuestion) -> dict[str, Any]:
        if q.labels:
            return self._marked_true_false(q)
        answers = []
        for value, own in ((True, q.true_feedback), (False, q.false_feedback)):
            percent = 100.0 if value == q.answer else 0.0
            answers.append({"text": "true" if value else "false", "fraction": moodle_fraction(percent),
                            "feedback": self.answer_feedback(own, percent)})
        return {"answers": answers}

    def _marked_true_false(self, q: TrueFalseQuestion) -> dict[str, Any]:
        """A true/false question with choices of its own (``O``/``X``): Moodle's truefalse type
        shows its own words (True/False in the user's language), so it is a single-choice
        question of the two marks, unnumbered and in order, scored the same."""
        answers = []
        for label, value, own in zip(true_false_labels(self.quiz.language, q.labels), (True, False),
                                     (q.true_feedback, q.false_feedback)):
            percent = 100.0 if value == q.answer else 0.0
            answers.append({"text": label, "fraction": moodle_fraction(percent), "feedback": own})
        return {"template": "moodle/question_multichoice.xml.j2", "single": "true", "shuffle": "false",
                "showstandardinstruction": 0, "shownumcorrect": False, "answernumbering": "none", "answers": answers}

    def _short_answer(self, q: ShortAnswerQuestion) -> dict[str, Any]:
        answers = [
            {"text": a.text, "fraction": self.fraction(a.score, f"answer '{a.text}'"),
             "feedback": self.answer_feedback(a.feedback, a.score)}
            for a in best_first(q.answers)
        ]
        return {"usecase": 1 if q.case_sensitive else 0, "answers": answers + self._catch_all([a.text for a in q.answers])}

    def _catch_all(self, texts: list[str], **extra: str) -> list[dict[str, Any]]:
        """Moodle's idiom for "any other answer": a last ``*`` answer worth 0, carrying the
        incorrect feedback (answers are tried in order, the first match wins)."""
        if not self.question.feedback.incorrect:
            return []
        if "*" in texts:
            # Every response matches the author's own "*": Moodle has no other place for the text.
            self.sink.warning(
                UNREACHABLE_FEEDBACK_WARNING,
                f"question '{self.question.id}': Moodle never shows its incorrect feedback, because its answer '*' "
                "accepts every response", self.span,
                hint="remove the '*' answer, or move the text to the '*' answer's own feedback",
            )
            return []
        return [{"text": "*", "fraction": "0", "feedback": self.question.feedback.incorrect, **extra}]

    def _numerical(self, q: NumericalQuestion) -> dict[str, Any]:
        answers = []
        for a in best_first(q.answers):
            # Moodle's tolerance is absolute: a percent tolerance becomes the half-width of its bounds.
            low, high = a.bounds()
            answers.append({
                "text": decimal((low + high) / 2),
                "tolerance": decimal((high - low) / 2),
                "fraction": self.fraction(a.score, f"answer {a.value:g}"),
                "feedback": self.answer_feedback(a.feedback, a.score),
            })
        return {
            "answers": answers + self._catch_all([], tolerance=""),
            # The unit, when given, is optional: "100" and "100 °C" both score; without one,
            # Moodle shows no unit field at all (showunits 3).
            "units": [{"name": q.unit, "multiplier": "1"}] if q.unit else [],
            "unitgradingtype": 0,
            "unitpenalty": "0.1",
            "showunits": 0 if q.unit else 3,
            "unitsleft": 0,
        }

    def _essay(self, q: EssayQuestion) -> dict[str, Any]:
        return {"essay": {
            "responseformat": ESSAY_FORMATS[q.response_format],
            "responserequired": 1,
            "responsefieldlines": q.expected_lines,
            "minwordlimit": q.min_words or "",
            "maxwordlimit": q.max_words or "",
            "attachments": q.attachments,
            "attachmentsrequired": 0,
            "filetypeslist": "",
            "graderinfo": q.model_answer,
        }}

    def _file_upload(self, q: FileUploadQuestion) -> dict[str, Any]:
        return {"essay": {
            "responseformat": "noinline",
            "responserequired": 0,
            "responsefieldlines": 15,
            "minwordlimit": "",
            "maxwordlimit": "",
            "attachments": q.max_files,
            "attachmentsrequired": 1,
            "filetypeslist": ",".join(q.allowed_types),
            "graderinfo": q.model_answer,
        }}

    def _matching(self, q: MatchingQuestion) -> dict[str, Any]:
        # Moodle's choices are plain text (shown in a drop-down); a distractor is a subquestion
        # without text, as Moodle's own export writes it.
        subquestions = [{"text": p.prompt, "answer": plain_text(p.answer, 10_000)} for p in q.pairs]
        subquestions += [{"text": "", "answer": plain_text(d, 10_000)} for d in q.distractors]
        return {"shuffle": "true" if q.shuffle else "false", "subquestions": subquestions}

    def _ordering(self, q: OrderingQuestion) -> dict[str, Any]:
        # qtype_ordering takes the correct order from the order of the answers; the fraction
        # attribute only echoes the position, as its export writes it (the importer resets it).
        return {"ordering": {**ORDERING_OPTIONS, "selectcount": len(q.items)},
                "ordered_items": [{"position": n, "text": text} for n, text in enumerate(q.items, 1)]}

    def _fill_in_blank(self, q: FillInBlankQuestion) -> dict[str, Any]:
        # A cloze question's mark is the sum of its blanks' weights, whole numbers; Moodle's
        # importer ignores <defaultgrade> for cloze.
        weights = cloze_weights(q.blank_points())
        if weights != q.blank_points():
            count = len(q.blanks)
            said = (f"each of the {count} blanks {weights[0]}" if len(set(weights)) == 1
                    else "its blanks weighted " + ", ".join(map(str, weights)))
            self.sink.warning(
                CLOZE_MARKS_WARNING,
                f"question '{q.id}' is worth {q.points:g} points, but Moodle gives a cloze question the sum of "
                f"its blanks' whole-number weights: it will be worth {sum(weights)} ({said})",
                self.span,
                hint="give the question a whole multiple of its number of blanks as points (or its blanks whole "
                     "points), or change the mark in Moodle",
            )
        blanks = {b.id: self._embedded_answer(q, b, w) for b, w in zip(q.blanks, weights)}
        # The passage's own "{1:" would be read as an embedded answer, as the stem's would.
        passage = _EMBEDDED_START.sub("&#123;", render_html(q.passage, self.renames)) if q.passage else ""
        return {"defaultgrade": sum(weights), "cloze_text": passage + cloze_text(q.stem, blanks, self.renames)}

    def _embedded_answer(self, q: FillInBlankQuestion, blank: Blank, weight: int) -> str:
        if any(not a for a in [*blank.answers, *blank.options]):
            self._blank_error(blank, "has an empty answer or option")
        if blank.kind == "text":
            kind = "SHORTANSWER_C" if q.case_sensitive else "SHORTANSWER"
            # Blank answers are literal text: a star is escaped, Moodle's shortanswer reads a
            # bare * as a wildcard.
            alternatives = ["=" + cloze_escape(a.replace("*", "\\*")) for a in blank.answers]
        else:
            if len(blank.answers) + len(blank.options) < 2:
                self._blank_error(blank, "is a drop-down with a single choice; Moodle needs at least 2")
            # Shuffled drop-down: written in source order the correct answer would always come first.
            kind = "MULTICHOICE_S"
            alternatives = ["=" + cloze_escape(escape(a, quote=False)) for a in blank.answers]
            alternatives += [cloze_escape(escape(o, quote=False)) for o in blank.options]
        return "{%d:%s:%s}" % (weight, kind, "~".join(alternatives))

    def _blank_error(self, blank: Blank, problem: str) -> None:
        self.ok = False
        self.sink.error(BLANK_ERROR, f"blank '{blank.id}' of question '{self.question.id}' {problem}", self.span,
                        hint="fix the blank's answers/options, or leave this target out with --format")

    def _text_only(self, q: TextOnlyItem) -> dict[str, Any]:
        return {"defaultgrade": 0}



#: Each kind's template, context method and penalty, from its spec (kinds.py KindSpec.moodle).
MoodleXmlWriter.adapters = KindTable(
    "moodle", "writers/moodle.py MoodleXmlWriter.adapters",
    lambda part: MoodleKind(part.template, resolve(part.context), **({"penalty": part.penalty} if part.penalty else {})))

# -- cloze ---------------------------------------------------------------------------------------

#: How Moodle 4.5's qtype_multianswer_extract_question() reads an embedded answer's alternative:
#: it ends at a ~ # or } not preceded by \ & or &amp;, is then entity-decoded
#: (html_entity_decode) and has \} and \# unescaped -- and nothing else (a \~ \/ or \" in the
#: Moodle docs' sense would keep its backslash). So } and # are backslash-escaped, and ~ \ & and
#: the HTML specials become character references; / and " need nothing in CDATA.
_CLOZE_ESCAPES = {"}": "\\}", "#": "\\#", "~": "&#126;", "\\": "&#92;", "&": "&#38;", "<": "&lt;",
                  ">": "&gt;", '"': "&quot;"}


def cloze_weights(worth: list[float]) -> list[int]:
    """The whole-number weights of a cloze question's blanks: their worth where each is a whole
    number; else, for unequal worth, the smallest whole numbers in the same proportion (up to
    100 times), and 1 each for equal worth or what has no such numbers."""
    if all(w >= 1 and w == int(w) for w in worth):
        return [int(w) for w in worth]
    if len(set(worth)) > 1:
        for times in range(1, 101):
            scaled = [w * times / min(worth) for w in worth] if min(worth) > 0 else []
            if scaled and all(abs(x - round(x)) < 1e-9 for x in scaled):
                return [round(x) for x in scaled]
    return [1] * len(worth)


def cloze_escape(stored: str) -> str:
    """The text to write so that Moodle stores ``stored`` as the alternative."""
    text = "".join(_CLOZE_ESCAPES.get(ch, ch) for ch in stored)
    # A leading = or %n% would be read as the alternative's grade.
    if text[:1] == "=":
        text = "&#61;" + text[1:]
    elif text[:1] == "%":
        text = "&#37;" + text[1:]
    return text


#: Text that Moodle would take for an embedded answer of its own: "{" then digits and ":".
_EMBEDDED_START = re.compile(r"\{(?=[0-9]*:)")
_PLACEHOLDER = "\ue000{}\ue001"


def cloze_text(stem: str, answers: dict[str, str], renames: tuple[tuple[str, str], ...] = ()) -> str:
    """The stem as HTML with each ``[[blank]]`` replaced by its embedded answer. The markers are
    swapped for placeholders before the Markdown is rendered, so nothing in the answers is read
    as Markdown, and any "{n:" of the stem's own is written as a character reference."""
    order: list[str] = []

    def hold(match: re.Match[str]) -> str:
        order.append(match.group(1))
        return _PLACEHOLDER.format(len(order) - 1)

    html = _EMBEDDED_START.sub("&#123;", render_html(BLANK_MARKER.sub(hold, stem), renames))
    for index, blank_id in enumerate(order):
        html = html.replace(_PLACEHOLDER.format(index), answers[blank_id])
    return html
