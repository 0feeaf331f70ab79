"""What a build to each target and an import give back of a model (:func:`expected_after`), for
the round-trip tests (tests/test_import_roundtrip.py, tests/test_import_properties.py).

:func:`expected_after` applies exactly what each target cannot carry (docs/import.md lists the
same losses), and nothing else:

- Moodle XML: a choice's ``fixed``; a section's ``shuffle`` and ``select``; the id of a top-level
  section named as the quiz (its questions are in the quiz's own category, and come back in a
  section with the quiz's id); a percent tolerance
  (written as the absolute half-width); matching answers and distractors (Moodle shows them as
  plain text); the order of short-answer and numerical answers (written best first, as Moodle
  takes the first that matches); correct/partially-correct feedback of short-answer and numerical
  questions (Moodle has none: the writer puts it on each answer without feedback of its own); outcome feedback of
  fill-in-the-blank, essay, file-upload and text-only questions (their Moodle types have none); a
  fill-in-the-blank question's points (Moodle takes the sum of whole-number blank weights; blanks'
  own whole points are those weights and come back); a
  text-only item's points (a Moodle description is worth 0).
- QTI 2.1: tags; an essay's ``min_words``; a file upload's ``allowed_types`` unless they share one
  MIME type; short-answer and numerical answers come back best first (the order the writer tests
  them in), and a wildcard answer of a question that is not case sensitive in lower case (its
  pattern spells each letter ``[xX]``; with only such answers and no letter in them, case
  sensitivity is not recorded at all); a percent tolerance; text blanks' answers that differ only in case when the question
  is not case sensitive (one mapEntry); outcome feedback a kind cannot show (a kind's
  ``outcome_feedback`` in kinds.py); the quiz description (the manifest holds its first paragraph as plain text).
- Quiz settings (docs/source-format.md#quiz-settings): Moodle XML holds none of them; the QTI 2.1
  test holds the time limit, allowed attempts and show correct answers, not shuffle answers, one
  question at a time or graded/practice.
- The Canvas package (what Canvas Classic Quizzes has no place for; check --profile canvas lists
  the same, question by question): tags; a section's ``shuffle``; a choice's ``fixed``, its own
  ``score`` and ``negative_marking`` (Canvas scores multiple answers its own way); per-question
  ``shuffle`` (the quiz-wide ``shuffle_answers`` decides, and is always stated: the source's, or
  whether its choice and matching questions shuffle); partially-correct feedback; short-answer
  and numerical answers worth less than 100 %; wildcards (an answer as typed without its stars)
  and case sensitivity; a unit (written after the question text, in
  brackets); essay response format, length, word limits and attachments; file-upload limits;
  matching answers, distractors and ordering items as plain text; the wrong options of
  drop-downs in a question that also has text blanks (they become text blanks); blanks' own
  points (Canvas shares a question's points equally); a text-only
  item's general feedback; in a question group, points other than the first question's.
- Both (all): ``negative_marking`` of a multiple-response question whose choices are all correct, or
  with as many wrong choices as right ones (it changes no score, so no output records it); a true/false question's correct/incorrect feedback is the feedback of its right/wrong
  answer (the canonical form the Markdown reader produces too).
- Calculated questions: every target carries sets, not the rules that made them
  (:func:`calculated_after` says what comes back).

Ids, titles and Markdown are not normalised here: ids come back from the identifiers the writers
write (``<quiz id>.<question id>``), a title equal to the one the writers derive from the stem
comes back as no title, and the Markdown of these sources comes back spelled as written. (The
property test, over generated text full of Markdown's special characters, compares Markdown by
its rendering instead.)
"""

from __future__ import annotations

import copy
import math
import re
from typing import Any

from qti_builder.content import plain_text
from qti_builder.importers.base import canonical_true_false
from qti_builder.importers.markup import plain_to_markdown
from qti_builder.model import Quiz
from qti_builder.model.parametric import Variable
from qti_builder.writers.qti21 import UPLOAD_TYPES

NO_OUTCOME_FEEDBACK_MOODLE = ("fill_in_blank", "essay", "file_upload", "text_only")


QTI_OUTCOME_FEEDBACK = {
    "single_choice": ("correct", "incorrect"), "true_false": ("correct", "incorrect"), "ordering": ("correct", "incorrect"),
    "multiple_response": ("correct", "partially_correct", "incorrect"), "short_answer": ("correct", "partially_correct", "incorrect"),
    "numerical": ("correct", "partially_correct", "incorrect"), "matching": ("correct", "partially_correct", "incorrect"),
    "fill_in_blank": ("correct", "partially_correct", "incorrect"), "essay": (), "file_upload": (), "text_only": (),
}


#: Quiz settings each target has no place for (written out here, not taken from the writers).
SETTINGS_LOST = {
    "moodle": ("time_limit", "allowed_attempts", "shuffle_answers", "show_correct_answers", "one_question_at_a_time",
               "lock_questions_after_answering", "grading_method", "quiz_type"),
    "qti21": ("shuffle_answers", "one_question_at_a_time", "grading_method", "quiz_type"),
    "canvas": (),
}


#: Kinds whose options Canvas shuffles by its quiz-wide setting.
CANVAS_SHUFFLED = ("single_choice", "multiple_response", "matching")


def canvas_question(q: dict[str, Any], shuffles: bool, group_points: float | None) -> None:
    """What the Canvas package cannot hold of one question (see the module docstring)."""
    kind, feedback = q["type"], q["feedback"]
    q["tags"] = []
    feedback["partially_correct"] = None
    if kind in CANVAS_SHUFFLED:
        q["shuffle"] = shuffles
    for choice in q.get("choices", []):
        choice["fixed"], choice["score"] = False, None
    if kind == "multiple_response":
        q["negative_marking"] = False
    if kind in ("short_answer", "numerical"):
        q["answers"] = [a for a in q["answers"] if a["score"] == 100]
    if kind == "short_answer":
        q["case_sensitive"] = False
        for answer in q["answers"]:
            answer["text"] = re.sub(r"(?<!\\)\*", "", answer["text"]).replace("\\*", "*")
    if kind == "numerical" and q["unit"]:
        q["stem"] += f"\n\n({q['unit']})"
        q["unit"] = None
    if kind == "essay":
        q.update(response_format="editor", expected_lines=15, min_words=None, max_words=None, attachments=0)
    if kind == "file_upload":
        q.update(max_files=1, allowed_types=[])
    if kind == "matching":
        q["pairs"] = [{**p, "answer": plain_to_markdown(plain_text(p["answer"], 10_000))} for p in q["pairs"]]
        q["distractors"] = [plain_to_markdown(plain_text(d, 10_000)) for d in q["distractors"]]
    if kind == "ordering":
        q["items"] = [plain_to_markdown(plain_text(item, 10_000)) for item in q["items"]]
    if kind == "fill_in_blank":
        q["case_sensitive"] = False
        for blank in q["blanks"]:
            blank["points"] = None  # Canvas shares the points equally among the blanks
        if {b["kind"] for b in q["blanks"]} == {"text", "dropdown"}:
            for blank in q["blanks"]:
                blank["kind"], blank["options"] = "text", []
    if kind == "text_only":
        feedback["general"] = None
    if group_points is not None:
        q["points"] = group_points


def expected_after(quiz: Quiz, target: str) -> dict[str, Any]:
    """The model a build to ``target`` and an import give back (see the module docstring)."""
    data = copy.deepcopy(quiz.model_dump())
    for name in SETTINGS_LOST[target]:
        data["settings"][name] = None
    settings = data["settings"]
    if target == "qti21" and not settings["lock_questions_after_answering"]:
        settings["lock_questions_after_answering"] = None  # a nonlinear test part is QTI's default
    if target == "canvas":
        if settings["grading_method"] == "first":  # Canvas has no policy for the first attempt
            settings["grading_method"] = None
        if settings["lock_questions_after_answering"] and settings["one_question_at_a_time"] is False:
            settings["lock_questions_after_answering"] = None  # Canvas locks only one question at a time
        elif settings["lock_questions_after_answering"] and settings["one_question_at_a_time"] is None:
            settings["one_question_at_a_time"] = True
    if target == "qti21" and data.get("description"):
        data["description"] = plain_to_markdown(plain_text(data["description"], 2000)) or None

    if target == "canvas" and data["settings"]["shuffle_answers"] is None:
        data["settings"]["shuffle_answers"] = any(q.get("shuffle") for q in questions_of(data) if q["type"] in CANVAS_SHUFFLED)
    shuffles = data["settings"]["shuffle_answers"]

    def sections(items: list[dict[str, Any]]) -> None:
        for section in items:
            if target == "moodle":
                section["shuffle"], section["select"] = False, None
            section["questions"] = [question(q) for q in section["questions"]]
            if target == "canvas":
                section["shuffle"] = False
                group = section["questions"][0]["points"] if section["select"] and section["questions"] else None
                for q in section["questions"]:
                    canvas_question(q, shuffles, group)
            sections(section["sections"])

    models = {q.id: q for q in quiz.iter_questions()}

    def question(q: dict[str, Any]) -> dict[str, Any]:
        kind = q["type"]
        if kind in ("calculated", "calculated_choice"):
            return calculated_after(quiz, models[q["id"]], target)
        canonical_true_false(q)
        q["ignore"] = []  # what the author accepted (ignore=) directs the build: no output holds it
        feedback = q["feedback"]
        right = sum(c["correct"] for c in q.get("choices", []))
        if kind == "multiple_response" and (right == len(q["choices"]) or 2 * right == len(q["choices"])):
            # Nothing to mark negatively, or as many wrong choices as right ones: the wrong ones'
            # -100 % shared is the default's one right share each, and no output can tell.
            q["negative_marking"] = False
        # The Canvas package states a percent margin as such (margintype="percent"); the others
        # write the absolute half-width.
        for answer in q.get("answers", []) if kind == "numerical" and target != "canvas" else []:
            if answer["tolerance_mode"] == "percent":
                answer["tolerance"] = round(abs(answer["value"]) * answer["tolerance"] / 100, 10)
                answer["tolerance_mode"] = "absolute"
        if target == "canvas":
            return q
        if target == "moodle":
            for choice in q.get("choices", []):
                choice["fixed"] = False
            if kind == "matching":
                # Shown as plain text in Moodle: Markdown that shows that text.
                q["pairs"] = [{**p, "answer": plain_to_markdown(plain_text(p["answer"], 10_000))} for p in q["pairs"]]
                q["distractors"] = [plain_to_markdown(plain_text(d, 10_000)) for d in q["distractors"]]
            if kind in ("short_answer", "numerical"):
                q["answers"] = sorted(q["answers"], key=lambda a: -a["score"])
                for answer in q["answers"]:
                    score = answer["score"]
                    answer["feedback"] = answer["feedback"] or (feedback["correct"] if score >= 100 else
                                                                feedback["partially_correct"] if score > 0 else None)
                feedback["correct"] = feedback["partially_correct"] = None
            if kind in NO_OUTCOME_FEEDBACK_MOODLE:
                feedback["correct"] = feedback["partially_correct"] = feedback["incorrect"] = None
            if kind == "text_only":
                q["points"] = 0.0
            if kind == "fill_in_blank" and all(b["points"] is not None and b["points"] >= 1 and b["points"] == int(b["points"])
                                               for b in q["blanks"]):
                pass  # whole points per blank are the weights, and come back as the blanks' points
            elif kind == "fill_in_blank":
                for blank in q["blanks"]:
                    blank["points"] = None  # no whole weights: an equal share (QB323 warns)
                share = q["points"] / len(q["blanks"])
                weight = int(share) if share >= 1 and share == int(share) else 1
                q["points"] = float(weight * len(q["blanks"]))
        else:
            q["tags"] = []
            if kind not in QTI_OUTCOME_FEEDBACK:
                raise LookupError(f"kind '{kind}': say which outcome feedback its QTI 2.1 item keeps in "
                                  "tests/helpers/roundtrip.py QTI_OUTCOME_FEEDBACK")
            for name in ("correct", "partially_correct", "incorrect"):
                if name not in QTI_OUTCOME_FEEDBACK[kind]:
                    feedback[name] = None
            if kind == "text_only":
                feedback["general"] = None
            if kind == "essay":
                q["min_words"] = None
            if kind == "file_upload":
                kinds = {UPLOAD_TYPES.get(t.lower()) for t in q["allowed_types"]}
                first = {mime: ext for ext, mime in reversed(list(UPLOAD_TYPES.items()))}
                q["allowed_types"] = [first[kinds.pop()]] if len(kinds) == 1 and None not in kinds else []
            if kind in ("short_answer", "numerical"):
                q["answers"] = sorted(q["answers"], key=lambda a: -a["score"])
            if kind == "short_answer" and all(re.search(r"(?<!\\)\*", a["text"]) for a in q["answers"]) \
                    and not any(c.lower() != c.upper() for a in q["answers"] for c in a["text"]):
                q["case_sensitive"] = False  # only patterns, without letters: the package cannot tell
            if kind == "short_answer" and not q["case_sensitive"]:
                for answer in q["answers"]:
                    if re.search(r"(?<!\\)\*", answer["text"]):  # a patternMatch: [xX] for x
                        answer["text"] = "".join(c.lower() if len(c.lower()) == len(c.upper()) == 1 else c for c in answer["text"])
            if kind == "fill_in_blank" and not q["case_sensitive"]:
                for blank in q["blanks"]:
                    if blank["kind"] == "text":
                        seen: set[str] = set()
                        blank["answers"] = [a for a in blank["answers"] if not (a.casefold() in seen or seen.add(a.casefold()))]
            if kind == "fill_in_blank" and not any(b["kind"] == "text" for b in q["blanks"]):
                q["case_sensitive"] = False
        return q

    sections(data["sections"])
    if target == "moodle":
        # A top-level section named as the quiz (no description of its own, no sections below it)
        # keeps its questions in the quiz's own category: its id is the quiz's.
        same = lambda title: " ".join(title.split())  # noqa: E731
        own = next((s for s in data["sections"] if same(s["title"]) == same(data["title"]) and not s["sections"]
                    and s["description"] in (None, data["description"])), None)
        if own is not None:
            own["id"] = data["id"]
    return data


def questions_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    def walk(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [q for s in sections for q in s["questions"] + walk(s["sections"])]
    return walk(data["sections"])


def calculated_after(quiz: Quiz, q: Any, target: str) -> dict[str, Any]:
    """A calculated question as a build to ``target`` and an import give it back. Every target
    carries sets, not the rules that made them: the sets come back listed, each variable with the
    decimals it is shown with (derived values listed too), conditions gone (every set meets them);
    a value the texts show computed or with other decimals ({=d / t:2}, {x:2}) comes back as a
    listed variable of its own, named as the writers name it (calc1, x_2dp); the answer's formula
    comes back with the parentheses it needs. Moodle XML writes only the variables its formulas and
    texts use, in that order, and keeps a choice option's formula; QTI 2.1 declares every variable,
    and states how the answer is shown only by the first set's answer as shown (decimals); the
    Canvas package shows figures as the decimals its smallest answer needs, and a unit after the
    text. Every target states the answer's decimals, so the default (2) comes back written.
    Moodle shows a calculated question (not a choice) as a numerical one, with the feedback of the
    answer: its correct feedback is the answer's, and it has no incorrect feedback.
    Variables are compared by name (each target writes them in its own order)."""
    from qti_builder import formulas as F
    from qti_builder.parametric import answer_text, fill, fmt, variants

    v = variants(quiz.id, q)
    data = copy.deepcopy(q.model_dump())
    data["ignore"] = []  # what the author accepted (ignore=) directs the build: no output holds it
    shown = {s.name: s for s in v.shown.values() if not s.plain}
    option_formulas = target == "moodle" and q.type == "calculated_choice"
    names = list(v.order) + list(shown)
    if target == "moodle":
        formulas = F.variables(F.parse(q.answer)) if q.type == "calculated" else []
        in_text = [s.name for s in v.shown.values() if "text" in s.places or (s.plain and "option" in s.places)]
        in_options = [n for s in v.shown.values() if s.key.startswith("=") and "option" in s.places
                      for n in F.variables(s.node)]
        names = [n for n in names if n in formulas + in_text + in_options]

    def decimals(name: str) -> int:
        if name in shown and shown[name].decimals is not None:
            return shown[name].decimals  # type: ignore[return-value]
        if name not in shown and v.decimals[name] is not None:
            return v.decimals[name]  # type: ignore[return-value]
        return max(len(t.partition(".")[2]) for t in texts(name))

    def texts(name: str) -> list[str]:
        if name in shown:
            return [t[name] for t in v.texts]
        return [fmt(values[name], v.decimals[name]) for values in v.sets]

    data["variables"] = sorted(({**Variable(name=n, decimals=decimals(n)).model_dump()} for n in names), key=lambda x: x["name"])
    columns = {n: [float(t) for t in texts(n)] for n in names}
    data["sets"] = [{n: columns[n][k] for n in names} for k in range(len(v.sets))]
    data["constraints"] = []

    def placeholders(text: str | None) -> str | None:
        return fill(text, v, lambda s: "{" + s.name + "}") if text else text

    data["stem"] = placeholders(data["stem"])
    data["feedback"] = {k: placeholders(t) for k, t in data["feedback"].items()}
    for choice in data.get("choices", []):
        choice["text"] = choice["text"] if option_formulas else placeholders(choice["text"])
        choice["feedback"] = placeholders(choice["feedback"])
    if q.type == "calculated":
        data["answer"] = F.to_source(F.parse(q.answer))
        how, digits = q.display
        if how == "decimals":  # every target states how the answer is shown: the default comes back written
            data["decimals"] = digits
        if target == "qti21":
            first = answer_text(v.answers[0], q.display)
            data["decimals"], data["figures"] = len(first.partition(".")[2]), None
        if target == "canvas":
            if how == "figures":  # as many decimals as the smallest answer's figures need (worked out by hand)
                data["decimals"] = max(max(0, digits - 1 - int(math.floor(math.log10(abs(a))))) for a in v.answers)
                data["figures"] = None
            if q.unit:
                data["stem"] += f"\n\n({q.unit})"
                data["unit"] = None
    if target != "moodle":
        for variable in data["variables"]:
            variable["shared"] = False
    if target == "moodle" and q.type == "calculated":  # shown as a numerical question: the answer's feedback only
        data["feedback"]["partially_correct"] = data["feedback"]["incorrect"] = None
    return data
