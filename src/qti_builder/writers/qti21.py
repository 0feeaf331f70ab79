"""QTI 2.1 content package: one assessmentItem per question, an assessmentTest, imsmanifest.xml.

Besides standard QTI 2.1, the documents follow what Canvas's importer reads
(docs/lms-behaviour.md): points as ``weight`` on each item reference *and* as
SCORE/normalMaximum and MAXSCORE; correct answers in ``correctResponse``; feedback identifiers
``general_fb``, ``correct_fb``, ``incorrect_fb`` and ``<choice>_fb`` set through FEEDBACK's
``multiple`` pattern; a true/false response identifier starting with ``TF``; response processing
written out in full (no template URI), which every player, pyslet and Canvas understand.

The templates stay simple: what they need (identifiers, mapped values, bounds, the order choices
are listed in) is computed here, one context function per question kind, which the kind's spec
names with its template and interaction (kinds.py ``KindSpec.qti21``; :attr:`Qti21Writer.adapters`).

What each kind becomes:

============================  ==============================================================
single_choice                 choiceInteraction maxChoices=1; all or nothing
multiple_response             choiceInteraction maxChoices=0; SCORE = mapResponse (partial
                              credit and negative marks from ``choice_scores()``, clamped to
                              0..points)
true_false                    choiceInteraction on ``TF_RESPONSE``, choices ``true``/``false``
                              labelled in the quiz language
short_answer                  textEntryInteraction (string); mapping of the literal answers,
                              ``patternMatch`` for ``*`` wildcards; the best matching answer
                              decides score and feedback
numerical                     textEntryInteraction (float); the best answer whose bounds hold
essay                         extendedTextInteraction (+ uploadInteraction per attachment);
                              graded by a person
file_upload                   one uploadInteraction per file; graded by a person
matching                      matchInteraction, directedPair mapping (points shared by pairs)
ordering                      orderInteraction, all or nothing
fill_in_blank                 textEntryInteraction / inlineChoiceInteraction in place of each
                              ``[[blank]]``; one response per blank, each earning its points
calculated                    textEntryInteraction (float) in an item template: one set of
                              values drawn by templateProcessing, printedVariable in the
                              texts, the correct response set from the set (qti21_calculated);
                              with the setting qti_variants, N numerical items, one per set, in
                              a section of the test that draws one
calculated_choice             choiceInteraction in an item template, the options showing the
                              drawn set's values; with qti_variants, N single-choice items
text_only                     an item with an itemBody only: no response, outcome or processing
============================  ==============================================================
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..media import MediaSet
from ..content import plain_text
from ..diagnostics import DiagnosticSink, SourceSpan
from ..i18n import true_false_labels
from ..kinds import KINDS, KindTable, resolve
from ..model import Quiz, QuizSettings
from ..model.questions import (BLANK_MARKER, EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                               MultipleResponseQuestion, NumericalQuestion, OrderingQuestion, QuestionBase,
                               ShortAnswerQuestion, SingleChoiceQuestion, TrueFalseQuestion)
from ..model.kinds.text_only import TextOnlyItem
from ..model.union import Question
from ..templating import number
from .base import Document, KindAdapter, Output, Writer
from .qti21_calculated import check_variant_names, fixed_variants

BLANK_INTERACTIONS = {"text": "textEntryInteraction", "dropdown": "inlineChoiceInteraction"}

#: Identifiers of the modal feedbacks. Canvas sorts feedback by identifier (docs/lms-behaviour.md):
#: ``general_|_all`` -> general comments, ``incorrect|wrong|_IC$`` -> incorrect comments, then
#: ``correct|_C$`` -> correct comments. Canvas has no partially correct comments, so that
#: identifier matches none of them ("partially_correct_fb" would land in correct comments).
FEEDBACK_IDS = {"general": "general_fb", "correct": "correct_fb", "partially_correct": "partial_fb",
                "incorrect": "incorrect_fb"}

#: The true/false response: Canvas recognises true/false only on a response identifier starting
#: with "TF". The choice identifiers must not contain "correct"/"wrong" (Canvas's feedback rules).
TF_RESPONSE = "TF_RESPONSE"
TF_CHOICES = ("true", "false")

#: Essay response formats -> extendedTextInteraction/@format.
ESSAY_FORMATS = {"editor": "xhtml", "plain": "plain", "monospaced": "preformatted"}

#: File name extensions -> the MIME type an uploadInteraction's ``type`` accepts. QTI 2.1 takes one
#: type only, so it is written when every allowed extension has the same one.
UPLOAD_TYPES = {
    ".pdf": "application/pdf", ".txt": "text/plain", ".csv": "text/csv", ".md": "text/markdown",
    ".py": "text/x-python", ".java": "text/x-java", ".c": "text/x-c", ".cpp": "text/x-c++", ".js": "text/javascript",
    ".html": "text/html", ".htm": "text/html", ".xml": "application/xml", ".json": "application/json",
    ".zip": "application/zip", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
    ".svg": "image/svg+xml", ".mp3": "audio/mpeg", ".mp4": "video/mp4", ".ipynb": "application/x-ipynb+json",
    ".doc": "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".odt": "application/vnd.oasis.opendocument.text",
}

#: A score this close below the maximum counts as full marks (mapped values are decimals, whose
#: float sum can fall a hair short: 3 × 0.3333333333 for 1 point).
FULL_SCORE_SLACK = 0.000001

MEDIA_DIR = "items/media/"
TEST_PATH = "assessmentTest.xml"


@dataclass(frozen=True)
class Qti21Kind(KindAdapter):
    #: The interaction the kind becomes (also written to the manifest's qtiMetadata). A
    #: fill-in-the-blank question lists the interactions of its blanks instead
    #: (BLANK_INTERACTIONS); a text-only item has none.
    interaction: str | None = None


class Qti21Writer(Writer):
    name = "qti21"
    templates_folder = "qti21"
    suffix = ".qti21.zip"
    #: What the assessmentTest holds (test_settings); QTI 2.1 has no place for the rest.
    carries_settings = frozenset({"time_limit", "allowed_attempts", "show_correct_answers",
                                  "lock_questions_after_answering", "qti_variants"})
    #: Registered at the end of this module.
    adapters: ClassVar[Mapping[str, Qti21Kind]]

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        if not self.check_supported(quiz, spans, sink):
            return None
        if quiz.settings.qti_variants:
            check_variant_names(quiz, spans, sink)
        output = Output(quiz.id + self.suffix, archive=True)
        #: What the test and the manifest's frame say of each item (:func:`item_ref`), in order.
        items: list[dict[str, Any]] = []
        #: Each question's item, or (qti_variants) its fixed variants' items, for the test.
        refs: dict[str, dict[str, Any]] = {}
        resources: list[Document] = []
        ok = True
        for question in quiz.iter_questions():
            variants = fixed_variants(quiz, question)
            to_write: Sequence[Question] = variants or [question]
            written = [item_ref(quiz, item_question) for item_question in to_write]
            items += written
            refs[question.id] = {"identifier": item_identifier(quiz, question), "title": item_title(question),
                                 "variants": written} if variants else written[0]
            if self.renders_questions:
                # The question's resources in the manifest, rendered with what its items were
                # rendered with and put in place of the question's line of the manifest's frame: a
                # big quiz's frame, rendered apart from its chunks, then needs of each item only
                # its identifier and href, not its whole context (bench/README.md, issue 34).
                contexts = [self._item(quiz, item_question, question, spans, sink, media, output) for item_question in to_write]
                data = self.render("qti21/manifest_resource.xml.j2", sink, spans.get(question.id), quiz=quiz, question=question,
                                   items=contexts)
                ok = ok and data is not None
                if data:
                    resources.append(Document(f"#manifest/{question.id}", data, "manifest-resource", question.id))
        test = self.render("qti21/assessment_test.xml.j2", sink, quiz=quiz, items=refs, media=media, media_prefix=MEDIA_DIR,
                           test_settings=test_settings(quiz.settings))
        test_media = [MEDIA_DIR + f.name for _, section in quiz.iter_sections() for f in media.used_by(section.model_copy(update={"questions": [], "sections": []}))]
        order = tuple(refs)
        manifest = self.render("qti21/imsmanifest.xml.j2", sink, quiz=quiz, items=items, questions=order, test_href=TEST_PATH,
                               test_media=sorted(set(test_media)))
        if not ok or test is None or manifest is None or len(sink.errors):
            return None
        if manifest and not self.places_every_question("qti21/imsmanifest.xml.j2", manifest, len(order), sink):
            return None
        output.documents.append(Document(TEST_PATH, test, "qti"))
        # The manifest's frame and each question's resources, spliced as one member when the
        # package is put together (writers.base.assemble), as a Canvas assessment's items are: the
        # package's bytes are the same whether its questions were rendered in chunks or not.
        output.documents.append(Document("imsmanifest.xml", manifest, "manifest", question_order=order, keeps_markers=False))
        output.documents.extend(resources)
        output.documents.extend(Document(MEDIA_DIR + f.name, f.data, "") for f in media.files)
        return output

    @classmethod
    def frame_from_view(cls, quiz: Quiz, overlay: Path | None = None) -> bool:
        # qti_variants: the test holds each calculated question's fixed variants, made from its sets.
        return not quiz.settings.qti_variants and super().frame_from_view(quiz, overlay)

    def _item(self, quiz: Quiz, question: Question, source: Question, spans: dict[str, SourceSpan], sink: DiagnosticSink,
              media: MediaSet, output: Output) -> dict[str, Any]:
        """Render the item of ``question`` (``source`` itself, or one of its fixed variants) into
        ``output``; returns what it was rendered with, which its manifest resource shows."""
        adapter = self.adapters[question.type]
        kind = item_context(quiz, question, adapter)
        item = {
            "question": question,
            "identifier": item_identifier(quiz, question),
            "href": item_href(question),
            "title": item_title(question),
            "interactions": kind["interactions"],
            "feedback_type": "nonadaptive" if any(f["shown"] for f in kind["feedbacks"]) else "none",
            "solution_available": KINDS[question.type].machine_scored,
            # Media sit beside the items (items/media/), so an item's src never needs "../" and every
            # file is listed, package-relative, in the manifest resource of the item that shows it.
            "media_files": [MEDIA_DIR + f.name for f in media.used_by(question)],
        }
        data = self.render(adapter.template, sink, spans.get(source.id), quiz=quiz, media=media, media_prefix="media/",
                           **{**kind, **item})
        if data is not None:
            output.documents.append(Document(item["href"], data, "qti", source.id))
        return item


def test_settings(settings: QuizSettings) -> dict[str, str | None]:
    """The quiz settings QTI 2.1 can hold, as attribute values of the assessmentTest: ``max_time``
    (``timeLimits/@maxTime``, seconds), ``max_attempts`` (the test part's
    ``itemSessionControl/@maxAttempts``, 0 for no limit) and ``show_solution`` (its
    ``@showSolution``). These are where Canvas reads its time limit, allowed attempts and
    "show correct answers" (docs/lms-behaviour.md); an unset setting writes nothing, so the
    player's default applies. QTI 2.1 has no place for a quiz-wide shuffle switch (each item
    carries its own ``shuffle``), one question per page, which attempt counts or graded vs practice.
    ``navigation`` and ``submission`` are the test part's modes: linear with each item submitted
    as the student leaves it when questions lock after answering, else nonlinear and simultaneous
    (QTI's free navigation)."""
    values: dict[str, str | None] = dict.fromkeys(("max_time", "max_attempts", "show_solution"))
    locked = bool(settings.lock_questions_after_answering)
    values["navigation"] = "linear" if locked else "nonlinear"
    values["submission"] = "individual" if locked else "simultaneous"
    if settings.time_limit is not None:
        values["max_time"] = str(settings.time_limit * 60)
    if settings.allowed_attempts is not None:
        values["max_attempts"] = "0" if settings.allowed_attempts == "unlimited" else str(settings.allowed_attempts)
    if settings.show_correct_answers is not None:
        values["show_solution"] = "true" if settings.show_correct_answers else "false"
    return values


def item_ref(quiz: Quiz, question: QuestionBase) -> dict[str, Any]:
    """What the assessmentTest and the manifest's frame say of an item: its identifier and href
    (and the question it is written from). Not its context: a big quiz's frame is rendered apart
    from its questions, and computing each item's context for it was most of its cost."""
    return {"question": question, "identifier": item_identifier(quiz, question), "href": item_href(question)}


def item_href(question: QuestionBase) -> str:
    return f"items/{question.id}.xml"


def item_identifier(quiz: Quiz, question: QuestionBase) -> str:
    """Unique across quizzes, so two packages imported into one course never collide."""
    return f"{quiz.id}.{question.id}"


def item_title(question: QuestionBase) -> str:
    if question.title:
        return question.title
    return plain_text(BLANK_MARKER.sub("…", question.stem))


# -- contexts -----------------------------------------------------------------------------------


def item_context(quiz: Quiz, question: Question, adapter: Qti21Kind) -> dict[str, Any]:
    """Everything an item template needs beyond the question itself.

    Common keys: ``points`` (what the item is worth), ``scale`` (the points its response processing
    shares out: its points, or 1 for a question worth 0, see :func:`scored_question`) and
    ``full_score`` (decimal strings), ``fb`` (the outcome feedback texts
    this kind can show, by name, else None), ``feedback_ids``, ``feedbacks`` (every modalFeedback to
    write: id, text and whether response processing can show it) and ``interactions``.
    """
    spec = KINDS[question.type]
    scored = scored_question(question)
    texts = question.feedback.model_dump()
    fb = {name: texts[name] if name == "general" or name in spec.outcome_feedback else None for name in FEEDBACK_IDS}
    if not spec.answered:
        fb["general"] = None  # nothing is answered, so nothing can show it
    context: dict[str, Any] = {
        "points": number(question.points),
        "scale": number(scored.points),
        "full_score": number(max(scored.points - FULL_SCORE_SLACK, 0), 10),
        "fb": fb,
        "feedback_ids": FEEDBACK_IDS,
        "interactions": [t for t in [adapter.interaction] if t],
        "extra_feedbacks": [],
    }
    context.update(adapter.context(quiz, scored))
    fb = context["fb"]  # a kind's context may give the texts it shows (a calculated question's placeholders)
    context["feedbacks"] = [
        {"id": FEEDBACK_IDS[name], "text": text, "shown": True} for name, text in fb.items() if text
    ] + context.pop("extra_feedbacks")
    return context


def scored_question(question: Question) -> Question:
    """The question as its response processing scores it. A question worth 0 points (practice,
    a survey) is scored on a scale of 1 point and its SCORE set to its 0 points at the end: with
    every share 0, any answer would reach "full marks" and be shown the correct feedback."""
    if question.points > 0:
        return question
    update: dict[str, Any] = {"points": 1.0}
    if isinstance(question, FillInBlankQuestion):  # stated blank points of a 0-point question are all 0
        update["blanks"] = [b.model_copy(update={"points": None}) for b in question.blanks]
    return question.model_copy(update=update)


def _share(points: float, percent: float) -> str:
    return number(points * percent / 100, 10)


def _choice_feedbacks(choices: Sequence[Any]) -> dict[str, Any]:
    with_feedback = [c for c in choices if c.feedback]
    return {
        "choice_feedbacks": [{"choice": c.id, "id": f"{c.id}_fb"} for c in with_feedback],
        "extra_feedbacks": [{"id": f"{c.id}_fb", "text": c.feedback, "shown": True} for c in with_feedback],
    }


def _single_choice(quiz: Quiz, q: SingleChoiceQuestion) -> dict[str, Any]:
    return {"correct_ids": [c.id for c in q.choices if c.correct], **_choice_feedbacks(q.choices)}


def _multiple_response(quiz: Quiz, q: MultipleResponseQuestion) -> dict[str, Any]:
    """``partial``: a mapping of each option to its share; the other rules: conditions on the whole
    response (exactly the right options; with ``exam``, some right options and no wrong one)."""
    scores = q.choice_scores()
    return {
        "correct_ids": [c.id for c in q.choices if c.correct],
        "wrong_ids": [c.id for c in q.choices if not c.correct],
        "mapping": [{"key": c.id, "value": _share(q.points, scores[c.id])} for c in q.choices],
        "scoring": q.scoring,
        "incomplete_points": number(q.incomplete_points or 0, 10),
        **_choice_feedbacks(q.choices),
    }


def _true_false(quiz: Quiz, q: TrueFalseQuestion) -> dict[str, Any]:
    labels = true_false_labels(quiz.language, q.labels)
    texts = (q.true_feedback, q.false_feedback)
    choices = [{"id": ident, "label": label, "feedback_id": f"{ident}_fb" if text else None}
               for ident, label, text in zip(TF_CHOICES, labels, texts)]
    return {
        "response": TF_RESPONSE,
        "choices": choices,
        "correct_id": TF_CHOICES[0] if q.answer else TF_CHOICES[1],
        "extra_feedbacks": [{"id": c["feedback_id"], "text": t, "shown": True} for c, t in zip(choices, texts) if t],
    }


_UNESCAPED_STAR = re.compile(r"(?<!\\)\*")
#: Characters to escape in XML Schema regular expressions. ``$`` means nothing there (no anchors:
#: a pattern always matches the whole string) and ``\$`` is not even a valid escape.
_XSD_REGEX_SPECIAL = set("\\|.?*+(){}[]^-")


def wildcard_pattern(text: str, case_sensitive: bool) -> str | None:
    """Moodle's short-answer wildcards as an XML Schema regular expression (``patternMatch`` is
    anchored): ``*`` matches any run of characters, ``\\*`` is a literal star. None when ``text``
    has no wildcard. Without case sensitivity each letter becomes a class (``[Ss]``): XML Schema
    regular expressions have no flags."""
    if not _UNESCAPED_STAR.search(text):
        return None
    parts = []
    for literal in _UNESCAPED_STAR.split(text):
        out = []
        for ch in literal.replace("\\*", "*"):
            if not case_sensitive and len(ch.lower()) == len(ch.upper()) == 1 and ch.lower() != ch.upper():
                out.append(f"[{ch.lower()}{ch.upper()}]")
            else:
                out.append("\\" + ch if ch in _XSD_REGEX_SPECIAL else ch)
        parts.append("".join(out))
    return ".*".join(parts)


def _literal(text: str) -> str:
    """An answer as the student would type it: wildcards dropped, ``\\*`` as a star."""
    return _UNESCAPED_STAR.sub("", text).replace("\\*", "*")


def _unique_keys(texts: Sequence[str], case_sensitive: bool) -> list[str]:
    """Answers once each; without case sensitivity "Sun" and "sun" are one mapEntry."""
    seen: set[str] = set()
    keys = []
    for text in texts:
        folded = text if case_sensitive else text.casefold()
        if folded not in seen:
            seen.add(folded)
            keys.append(text)
    return keys


def _best_first(answers: Sequence[Any]) -> list[tuple[int, Any]]:
    """Answers with their 1-based position, highest score first (stable): the first that matches wins."""
    return sorted(enumerate(answers, 1), key=lambda pair: -pair[1].score)


def _short_answer(quiz: Quiz, q: ShortAnswerQuestion) -> dict[str, Any]:
    answers = []
    for position, a in _best_first(q.answers):
        pattern = wildcard_pattern(a.text, q.case_sensitive)
        answers.append({
            "text": _literal(a.text), "pattern": pattern, "score": a.score, "value": _share(q.points, a.score),
            "feedback_id": f"answer{position}_fb" if a.feedback else None, "feedback": a.feedback, "position": position,
        })
    literal = [a for a in answers if a["pattern"] is None]
    # correctResponse: a 100 % answer as typed; a wildcard one without its stars if it is the only kind.
    full = [a for a in answers if a["score"] == 100]
    correct = next((a for a in full if a["pattern"] is None), full[0])
    return {
        "case_sensitive": q.case_sensitive,
        "correct_value": correct["text"],
        # mapEntry keys are unique; a duplicate answer keeps its best score (best first).
        "mapping": [{"key": k, "value": next(a["value"] for a in literal if a["text"] == k)}
                    for k in _unique_keys([a["text"] for a in literal], q.case_sensitive)],
        "answers": answers,
        "extra_feedbacks": [{"id": a["feedback_id"], "text": a["feedback"], "shown": True}
                            for a in sorted(answers, key=lambda a: a["position"]) if a["feedback_id"]],
    }


def _numerical(quiz: Quiz, q: NumericalQuestion) -> dict[str, Any]:
    answers = []
    for position, a in _best_first(q.answers):
        lower, upper = a.bounds()
        answers.append({
            "lower": number(lower, 10), "upper": number(upper, 10), "value": _share(q.points, a.score),
            "feedback_id": f"answer{position}_fb" if a.feedback else None, "feedback": a.feedback, "position": position,
        })
    correct = next(a for a in q.answers if a.score == 100)
    return {
        "correct_value": number(correct.value, 10),
        "unit": q.unit,
        "answers": answers,
        "extra_feedbacks": [{"id": a["feedback_id"], "text": a["feedback"], "shown": True}
                            for a in sorted(answers, key=lambda a: a["position"]) if a["feedback_id"]],
    }


def _uploads(count: int, prefix: str, allowed_types: Sequence[str] = ()) -> dict[str, Any]:
    """One uploadInteraction per file (each takes one file): ``prefix``, or ``prefix_1``... for several."""
    types = {UPLOAD_TYPES.get(ext.lower()) for ext in allowed_types}
    return {
        "upload_ids": [prefix] if count == 1 else [f"{prefix}_{n}" for n in range(1, count + 1)],
        "upload_type": types.pop() if len(types) == 1 and None not in types else None,
    }


def _essay(quiz: Quiz, q: EssayQuestion) -> dict[str, Any]:
    context = {
        "format": ESSAY_FORMATS[q.response_format],
        "interactions": ["extendedTextInteraction"] + (["uploadInteraction"] if q.attachments else []),
        **_uploads(q.attachments, "ATTACHMENT"),
    }
    if q.model_answer:
        # Canvas reads an essay's feedback named "solution" as its example solution; response
        # processing never shows it, so standard players keep it from students.
        context["extra_feedbacks"] = [{"id": "solution", "text": q.model_answer, "shown": False}]
    return context


def _file_upload(quiz: Quiz, q: FileUploadQuestion) -> dict[str, Any]:
    return _uploads(q.max_files, "RESPONSE", q.allowed_types)


def scrambled(items: Sequence[Any], seed: str) -> list[Any]:
    """A fixed permutation of ``items`` that is never the original order (for two or more).

    Players shuffle these choices anyway; the order in the file matters to those that do not, and
    to the identifiers, which are numbered in this order so they do not give the answer away.
    """
    order = list(items)
    random.Random(seed).shuffle(order)  # str seeds hash with SHA-512: the same on every run
    if len(order) > 1 and order == list(items):
        order = order[1:] + order[:1]
    return order


def _matching(quiz: Quiz, q: MatchingQuestion) -> dict[str, Any]:
    sources = [{"id": f"P{n}", "text": pair.prompt} for n, pair in enumerate(q.pairs, 1)]
    texts = list(dict.fromkeys([pair.answer for pair in q.pairs] + list(q.distractors)))
    targets = [{"id": f"T{n}", "text": text} for n, text in enumerate(scrambled(texts, q.id), 1)]
    target_of = {t["text"]: t["id"] for t in targets}
    pairs = [f"{s['id']} {target_of[pair.answer]}" for s, pair in zip(sources, q.pairs)]
    return {
        "sources": sources,
        # Any answer may serve several prompts (as in Moodle's drop-downs), so the limits do not
        # tell which answers are used.
        "targets": targets,
        "target_max": len(sources),
        "pairs": pairs,
        "mapping": [{"key": p, "value": _share(q.points, 100 / len(pairs))} for p in pairs],
    }


def _ordering(quiz: Quiz, q: OrderingQuestion) -> dict[str, Any]:
    shown = scrambled(list(enumerate(q.items)), q.id)
    choices = [{"id": f"C{n}", "text": text, "position": position} for n, (position, text) in enumerate(shown, 1)]
    return {"choices": choices, "correct_order": [c["id"] for c in sorted(choices, key=lambda c: c["position"])]}


def _fill_in_blank(quiz: Quiz, q: FillInBlankQuestion) -> dict[str, Any]:
    blanks = {}
    for blank, worth in zip(q.blanks, q.blank_points()):
        share = number(worth, 10)  # what this blank earns: its stated points, else an equal share
        response = f"RESPONSE_{blank.id}"
        if blank.kind == "dropdown":
            texts = list(dict.fromkeys(list(blank.answers) + list(blank.options)))
            choices = [{"id": f"{blank.id}-{n}", "text": text} for n, text in enumerate(scrambled(texts, f"{q.id}/{blank.id}"), 1)]
            id_of = {c["text"]: c["id"] for c in choices}
            keys = [id_of[a] for a in dict.fromkeys(blank.answers)]
            blanks[blank.id] = {"response": response, "base_type": "identifier", "choices": choices, "case_sensitive": None,
                                "fold_case": False, "correct": keys[0], "share": share,
                                "mapping": [{"key": k, "value": share} for k in keys]}
        else:
            keys = _unique_keys(blank.answers, q.case_sensitive)
            blanks[blank.id] = {"response": response, "base_type": "string", "choices": [], "case_sensitive": q.case_sensitive,
                                "fold_case": not q.case_sensitive, "correct": keys[0], "share": share,
                                "mapping": [{"key": k, "value": share} for k in keys]}
    kinds = {blank.kind for blank in q.blanks}
    return {
        "case_sensitive": q.case_sensitive,
        # In the order of the stem's markers, which is the order a student meets them.
        "blanks": {i: blanks[i] for i in BLANK_MARKER.findall(q.stem)},
        "interactions": [t for kind, t in BLANK_INTERACTIONS.items() if kind in kinds],
    }


def _text_only(quiz: Quiz, q: TextOnlyItem) -> dict[str, Any]:
    return {}


#: Each kind's template, context function and interaction, from its spec (kinds.py KindSpec.qti21).
Qti21Writer.adapters = KindTable("qti21", "writers/qti21.py Qti21Writer.adapters",
                                 lambda part: Qti21Kind(part.template, resolve(part.context), part.interaction))
