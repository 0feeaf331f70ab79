"""The model back to a source file: canonical Markdown in the project's dialect, or YAML.

The inverse of :mod:`qti_builder.readers`: ``qti-builder import`` writes what it read from other
systems as sources, and the sources must read back into the very model that was imported. So the
Markdown is not trusted either: :func:`write_source` reads the text it wrote with the Markdown
reader and compares the two models field by field. Where the dialect cannot say something (a
choice id that is not a letter, a true/false question with correct-answer feedback of its own, a
matching prompt over several lines, ...) the models differ, and the quiz is written as YAML, the
model itself, which says everything; :attr:`SourceText.reason` names the first field that did not
survive. The YAML is read back too: a source is never written that the build would refuse (a
reader's limit), :attr:`SourceText.refused` says why instead.

This module lives beside the build targets but is not one of them (it is not in ``WRITERS``): its
output is a source for people to edit, not a package, and it needs no templates. How it writes
each kind in Markdown is one :class:`MarkdownForm` per kind in :data:`MARKDOWN_FORMS`, made from the
functions the kind's spec names (kinds.py ``KindSpec.markdown_form``).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..parametric import fmt

import yaml

from ..diagnostics import Diagnostic, DiagnosticSink, Severity
from ..kinds import KindTable, resolve
from ..model import Quiz, Section
from ..model.common import iter_markdown
from ..model.questions import (BLANK_MARKER, Blank, EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                               MultipleResponseQuestion, NumericalQuestion, OrderingQuestion, ShortAnswerQuestion, SingleChoiceQuestion, TrueFalseQuestion)
from ..model.union import Question
from ..readers import read_quiz
from ..readers.markdown import syntax as S
from ..vocabulary import MARK_PAIRS
from ..readers.markdown.questions import reads_as_essay

#: Continuation lines are indented so that none of them can be read as a marker (a question, an
#: option, a label, a heading); the reader removes the common indentation again.
INDENT = "   "
#: The question's feedback labels, in the order they follow its answer.
LABEL_ORDER = (("general", "Explanation"), ("correct", "Correct feedback"),
               ("partially_correct", "Partially correct feedback"), ("incorrect", "Incorrect feedback"))
#: Labels in the quiz's language (the reader takes both spellings; a Korean quiz reads best in Korean).
LABEL_WORDS = {
    "ko": {"Answer": "정답", "Explanation": "설명", "Correct feedback": "정답 피드백", "Incorrect feedback": "오답 피드백",
           "Partially correct feedback": "부분 정답 피드백", "Feedback": "피드백"},
}
#: Lines that would start something new at the left margin of a description (a number of any
#: length: up to 9 digits it starts a question, past that the reader reports it).
_MARKER_LINE = re.compile(r"^(#{1,6}\s|\d+[.)]\s)")
_FENCE_START = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass(frozen=True)
class SourceText:
    text: str
    #: ``.md`` or ``.yaml``.
    suffix: str
    #: Why the quiz is YAML rather than Markdown (None for Markdown).
    reason: str | None = None
    #: Why not even the YAML reads back into the quiz (a reader's limit: ``build`` would refuse
    #: the file): the readers' own diagnostics, which name the limit. Empty when the text is good.
    refused: tuple[Diagnostic, ...] = ()


def write_source(quiz: Quiz) -> SourceText:
    """The quiz as Markdown when Markdown reads back into the same model, else as YAML when that
    does; else the YAML (or the Markdown, when it is past the size limit already) with
    :attr:`SourceText.refused` saying why it must not be written. Each
    form is read back whole, by the build's own entry (:func:`qti_builder.readers.read_quiz`,
    size limit included), however large the quiz: once, and a second time, with the label lines
    of its question texts, options and feedback escaped, when the first does not read back and
    has such lines."""
    quiz = _escape_labels(quiz, everywhere=False)
    written = _markdown(quiz)
    if isinstance(written, str):
        escaped = _escape_labels(quiz, everywhere=True)
        again = _markdown(escaped) if escaped is not quiz else written
        if not isinstance(again, str):
            return again
    if not isinstance(written, str):
        return written
    reason = written
    dumped = quiz.model_dump()
    yaml_text = to_yaml(quiz)
    back, problems = _read_back(yaml_text, ".yaml")
    if back is None:
        return SourceText(yaml_text, ".yaml", reason, tuple(problems))
    difference = first_difference(dumped, back.model_dump())
    if difference:  # a bug: YAML is the model itself
        return SourceText(yaml_text, ".yaml", reason, (Diagnostic(Severity.ERROR, "QB721", f"the YAML form reads back with {difference} changed"),))
    return SourceText(yaml_text, ".yaml", reason)


def _markdown(quiz: Quiz) -> SourceText | str:
    """The quiz as Markdown that reads back into it (or is past the size limit, and refused), else
    why not."""
    try:
        markdown = to_markdown(quiz)
    except _Inexpressible as exc:
        return str(exc)
    back, problems = _read_back(markdown, ".md")
    if back is None and problems and problems[0].code == "QB100":
        # Past the size limit: the YAML form, which spells out every field, is larger still, and
        # is not built (for a large bank, seconds spent on a form the reader refuses as well).
        return SourceText(markdown, ".md", None, (problems[0],))
    if back is None:
        return "the Markdown form does not read back" + (f" ({problems[0].message})" if problems else "")
    difference = first_difference(quiz.model_dump(), back.model_dump())
    if not difference:
        return SourceText(markdown, ".md")
    return f"Markdown cannot express {difference}"


#: Texts written from their first line at the left margin, where their first line can be a label
#: line too; every other text's first line follows its marker or label (``1. ``, ``A) ``, ``Explanation: ``).
_AT_MARGIN = ("description", "passage")


def _escape_labels(quiz: Quiz, everywhere: bool) -> Quiz:
    """A line of a text that starts with a label (``Answer:``, ``답)``, ``[정답]``, ``정답 ④``) would be
    read as that label's block, or refused where students see it (QB145, QB148). An imported text may
    say such words in its own lines; each such line gets the escape the reader's QB145 hint gives
    (:func:`~qti_builder.readers.markdown.syntax.escape_label_line`: ``답\\)``, ``\\[정답]``,
    ``정답&#65306;``), which shows students the same words and reads back as text. Descriptions and
    shared passages always (the reader refuses every such line in them, QB145); the other texts
    when ``everywhere`` (in a question with an answer, such a line indented into its text is read
    as text: escaped only when the quiz does not read back without). The quiz itself when nothing
    is escaped."""
    found = [(loc, text) for loc, text in iter_markdown(quiz)
             if (everywhere or loc[-1] in _AT_MARGIN) and _label_lines(loc, text)]
    if not found:
        return quiz
    quiz = quiz.model_copy(deep=True)
    for loc, text in found:
        lines = text.split("\n")
        for index, _, label in _label_lines(loc, text):
            line = lines[index]
            start, end = len(line) - len(line.lstrip()), len(line.rstrip())
            lines[index] = line[:start] + S.escape_label_line(line[start:end], label) + line[end:]
        _put(quiz, loc, "\n".join(lines))
    return quiz


def _label_lines(loc: tuple[str | int, ...], text: str) -> list[tuple[int, int, S.LabelLine]]:
    """The lines of a text at ``loc`` the reader would read as labels where the writer puts them."""
    return [found for found in S.label_lines(text) if found[0] > 0 or loc[-1] in _AT_MARGIN]


def _put(node: Any, loc: tuple[str | int, ...], value: str) -> None:
    """Set the text at ``loc`` (a path of :func:`iter_markdown`) in a model."""
    *path, last = loc
    for key in path:
        node = node[key] if isinstance(key, int) else getattr(node, key)
    if isinstance(last, int):
        node[last] = value
    else:
        setattr(node, last, value)


def read_back(text: str, suffix: str) -> Quiz | None:
    """Read a source text with the project's own readers (through a temporary file, as the build does)."""
    return _read_back(text, suffix)[0]


def _read_back(text: str, suffix: str) -> tuple[Quiz | None, list[Diagnostic]]:
    """The quiz the build would read from ``text``, or None and the reader's errors."""
    sink = DiagnosticSink()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"quiz{suffix}"
        path.write_text(text, encoding="utf-8")
        result = read_quiz(path, sink)
    return (result[0] if result else None), sink.errors


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The path of the first value that differs, as ``sections.0.questions.2.choices`` (None if equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            found = first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}.{index}")
            if found:
                return found
        return None
    return None if a == b else (path or "the quiz")


# -- YAML ---------------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Multi-line text as ``|`` blocks, which read like the Markdown they hold."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and not re.search(r"[ \t]\n|[ \t]$", value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def to_yaml(quiz: Quiz) -> str:
    """``Quiz.model_dump(exclude_defaults=True)`` as YAML, with every question's ``type`` kept
    (it is a default of each class, but the reader needs it to tell the kinds apart)."""
    data = quiz.model_dump(exclude_defaults=True)

    def restore_types(sections: list[dict[str, Any]], models: list[Section]) -> None:
        for section, model in zip(sections, models):
            section["questions"] = [{"type": q.type, **dumped} for dumped, q in zip(section.get("questions", []), model.questions)]
            if not section["questions"]:
                del section["questions"]
            restore_types(section.get("sections", []), model.sections)

    restore_types(data["sections"], quiz.sections)
    body = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
    return f"# Written by qti-builder import. The quiz model as YAML: qti-builder docs source-format#the-yaml-format\n{body}"


# -- Markdown -----------------------------------------------------------------------------------


class _Inexpressible(Exception):
    """Something the Markdown dialect has no syntax for."""


def to_markdown(quiz: Quiz) -> str:
    _WORDS.set(LABEL_WORDS.get(quiz.language.split("-")[0].lower(), {}))
    _LANGUAGE.set(quiz.language)
    _SHUFFLE_DEFAULT.set(quiz.settings.shuffle_answers is not False)
    head: dict[str, Any] = {"id": quiz.id, "title": quiz.title, "language": quiz.language}
    if quiz.settings.given():
        head["settings"] = quiz.settings.given()
    if quiz.stated_points is not None:  # the total the paper states, read back as the same field
        head["total"] = int(quiz.stated_points) if quiz.stated_points.is_integer() else quiz.stated_points
    if quiz.moodle_idnumber is not None:
        head["moodle_idnumber"] = quiz.moodle_idnumber
    front = yaml.dump(head, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000).strip()
    lines = ["---", front, "---", ""]
    if quiz.description:
        lines += [*_margin_block(quiz.description), ""]
    # A quiz with shared passages numbers its questions on from section to section, as exam
    # papers do: a passage names its questions by those numbers ([3~4]).
    _NUMBERS.set(iter(range(1, 1_000_000_000)) if any(q.passage for q in quiz.iter_questions()) else None)
    for ancestors, section in quiz.iter_sections():
        lines += _section(section, len(ancestors) + 1)
    return "\n".join(lines).rstrip("\n") + "\n"


def _section(section: Section, level: int) -> list[str]:
    if level > 6:
        raise _Inexpressible(f"section '{section.id}', nested deeper than Markdown's six heading levels")
    attrs = _attrs(("#" + section.id, None), ("shuffle", section.shuffle, False), ("select", section.select, None),
                   ("moodle_idnumber", section.moodle_idnumber, None))
    lines = [f"{'#' * level} {_one_line(section.title, 'section title')} {attrs}", ""]
    if section.description:
        lines += [*_margin_block(section.description), ""]
    numbers = _NUMBERS.get()
    before: str | None = None
    for number, question in enumerate(section.questions, 1):
        number = next(numbers) if numbers is not None else number
        if question.passage and question.passage != before:
            # Shown with this question and the ones after it that share it: the passage, as
            # written (its own marker, [3~4] or ※, says which); if the marker names other
            # numbers, the source does not read back the same and the quiz is written as YAML.
            lines += [*question.passage.split("\n"), ""]
        before = question.passage
        lines += _question(question, number) + [""]
    return lines


def _question(q: Question, number: int) -> list[str]:
    form = MARKDOWN_FORMS[q.type]
    stem = form.stem(q)
    kind_attrs = []
    for name in S.KIND_ATTRIBUTES[q.type]:
        value, default = getattr(q, name), type(q).model_fields[name].default
        if isinstance(value, list) and name not in S.LIST_ATTRIBUTES:
            continue  # written in the question's text (a calculated question's listed sets)
        if name == "allowed_types":
            default = []
        if name == "shuffle":
            default = _SHUFFLE_DEFAULT.get()
        if name == "numbering" and value != "none":
            continue  # the options' markers say it (①, 가, 1)); only "not numbered" has no marker

        kind_attrs.append((name, value, default))
    default_points = type(q).model_fields["points"].default
    attrs = _attrs(("#" + q.id, None), ("type", q.type if form.needs_type(q) else None, None),
                   ("points", q.points, default_points), ("title", q.title, None), ("tags", q.tags, []),
                   ("ignore", q.ignore, []), ("moodle_idnumber", q.moodle_idnumber, None), *kind_attrs)
    lines = _marked(f"{number}. ", stem, attrs, "question text")
    body = _body(q)
    return lines + ([""] + body if body else [])


def _body(q: Question) -> list[str]:
    feedback = q.feedback.model_dump()
    lines = MARKDOWN_FORMS[q.type].answer(q, feedback)
    for key, label in LABEL_ORDER:
        if feedback.get(key):
            lines += _labelled(label, feedback[key])
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def _scored_label(score: float) -> str:
    return "Answer" if score == 100 else f"{_WORDS.get().get('Answer', 'Answer')} ({_number(score)}%)"


def _blanks_in_stem(q: FillInBlankQuestion) -> str:
    """``[[b1]]`` markers back to the inline form ``[[answer | other]]`` / ``[[*right | wrong]]``;
    the reader numbers blanks b1, b2... in the order they appear."""
    order = BLANK_MARKER.findall(q.stem)
    blanks = {b.id: b for b in q.blanks}
    for index, blank_id in enumerate(order, 1):
        blank = blanks[blank_id]
        if blank_id != f"b{index}":
            raise _Inexpressible(f"blank id '{blank_id}' of question '{q.id}' (Markdown numbers blanks b1, b2, ...)")
        values = ([f"*{blank.answers[0]}"] + blank.options) if blank.kind == "dropdown" else blank.answers
        if blank.kind == "dropdown" and len(blank.answers) != 1:
            raise _Inexpressible(f"drop-down blank '{blank_id}' of question '{q.id}' with several correct options")
        for value in values:
            if "|" in value or "]]" in value or "\n" in value or (blank.kind == "text" and value.startswith("*")):
                raise _Inexpressible(f"the answer '{value}' of blank '{blank_id}' in question '{q.id}'")
    def written(blank: Blank) -> str:
        values = ([f"*{blank.answers[0]}"] + blank.options) if blank.kind == "dropdown" else blank.answers
        worth = "" if blank.points is None else "{points=" + _number(blank.points) + "}"  # read as the blank's own
        return "[[" + " | ".join(values) + "]]" + worth

    return BLANK_MARKER.sub(lambda m: written(blanks[m.group(1)]), q.stem)


# -- per kind: its answer's lines, and whether it needs its type -----------------------------------
# The reader infers some kinds by themselves (docs/source-format.md, "How the question type is
# decided"): those need no ``type=``. An answer function may move the question's feedback into
# the answer's own (``feedback`` is the question's, to be written after the answer).


def _always(q: Any) -> bool:
    return True


def _never(q: Any) -> bool:
    return False


def _own_stem(q: Any) -> str:
    return str(q.stem)


#: How options of each numbering are marked in the source: the marker's text after its number or letter.
_MARKER_ENDS = {"lower-alpha": ")", "lower-roman": ")", "circled-decimal": " ", "parenthesized-decimal": "", "decimal": ")",
                "hangul": ")", "hangul-consonant": ".", "katakana": ")", "iroha": ")"}


def _option_marker(numbering: str | None, ordinal: int) -> tuple[str, str]:
    """The ``ordinal``-th option's marker as the source writes it (``C) ``, ``③ ``, ``나) ``), and how
    the answer names it (``C``, ``③``, ``나``)."""
    name = S.option_label(numbering, ordinal)
    if numbering in (None, "upper-alpha"):
        return f"{name}) ", name
    if numbering == "lower-alpha":
        return f"{name.lower()}) ", name.lower()
    end = _MARKER_ENDS[numbering]
    return (f"{name} " if end == " " else f"{name}{end} "), name


def _choices(q: SingleChoiceQuestion | MultipleResponseQuestion, feedback: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    numbering = getattr(q, "numbering", None)
    names: dict[str, str] = {}
    for ordinal, choice in enumerate(q.choices, 1):
        if not re.fullmatch(r"[A-Z]", choice.id):
            raise _Inexpressible(f"choice id '{choice.id}' of question '{q.id}' (Markdown choices are letters A-Z)")
        if numbering not in (None, "upper-alpha", "none") and choice.id != "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[ordinal - 1]:
            raise _Inexpressible(f"choice id '{choice.id}' of question '{q.id}' (numbered options are A, B, C, … in order)")
        marker, names[choice.id] = (_option_marker(numbering, ordinal) if numbering not in (None, "none")
                                    else (f"{choice.id}) ", choice.id))
        score = choice.score if q.type == "multiple_response" else None
        extra = _attrs(("fixed", choice.fixed, False), ("score", score, None))
        if not extra and choice.text.split("\n", 1)[0].rstrip().endswith("}"):
            extra = "{fixed=false}"  # else the text's own {...} would be read as attributes
        lines += _marked(marker, choice.text, extra, "choice text")
        if choice.feedback:
            lines += _labelled("Feedback", choice.feedback, INDENT)
    return lines + ["", *_labelled("Answer", ", ".join(names[c.id] for c in q.choices if c.correct)), ""]


def _several_correct(q: MultipleResponseQuestion) -> bool:
    """Needs ``type=`` unless its answer names several options (one makes a single choice)."""
    return sum(c.correct for c in q.choices) < 2


def _true_false(q: TrueFalseQuestion, feedback: dict[str, Any]) -> list[str]:
    marks = [pair for pair in MARK_PAIRS if q.labels == list(pair)]
    if q.labels and not marks:
        raise _Inexpressible(f"the labels of true/false question '{q.id}'")
    lines = _labelled("Answer", (marks[0][0] if q.answer else marks[0][1]) if marks else "true" if q.answer else "false")
    right, wrong = (q.true_feedback, q.false_feedback) if q.answer else (q.false_feedback, q.true_feedback)
    if (right and feedback["correct"]) or (wrong and feedback["incorrect"]):
        raise _Inexpressible(f"both correct feedback and the answer's own feedback on true/false question '{q.id}'")
    feedback["correct"] = feedback["correct"] or right
    feedback["incorrect"] = feedback["incorrect"] or wrong
    return lines


def _short_answer(q: ShortAnswerQuestion, feedback: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for answer in q.answers:
        lines += _labelled(_scored_label(answer.score), S.quoted_answer(answer.text, S.dialect(_LANGUAGE.get()).or_words))
        if answer.feedback:
            lines += _labelled("Feedback", answer.feedback, INDENT)
    return lines


def _numerical(q: NumericalQuestion, feedback: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for numeric in q.answers:
        value = _number(numeric.value)
        if numeric.tolerance:
            value += f" ± {_number(numeric.tolerance)}" + ("%" if numeric.tolerance_mode == "percent" else "")
        lines += _labelled(_scored_label(numeric.score), value)
        if numeric.feedback:
            lines += _labelled("Feedback", numeric.feedback, INDENT)
    return lines


def _model_answer(q: EssayQuestion | FileUploadQuestion, feedback: dict[str, Any]) -> list[str]:
    return _labelled("Answer", q.model_answer) if q.model_answer else []


def _essay_needs_type(q: EssayQuestion) -> bool:
    """Without type=essay, an answer that looks like another type's makes a true/false question,
    or a warning (QB171-QB173)."""
    answer = q.model_answer
    return not answer or not reads_as_essay(answer, q.stem.split("\n"), _LANGUAGE.get())


def _matching(q: MatchingQuestion, feedback: dict[str, Any]) -> list[str]:
    lines = [f"- {_one_line(pair.prompt, 'matching prompt')} -> {_one_line(pair.answer, 'matching answer')}"
             for pair in q.pairs]
    return lines + [f"- -> {_one_line(d, 'matching distractor')}" for d in q.distractors]


def _ordering(q: OrderingQuestion, feedback: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for item in q.items:
        lines += _marked("- ", item, "", "ordering item")
    return lines


def _no_answer(q: Any, feedback: dict[str, Any]) -> list[str]:
    """Fill in the blank (its answers are in the question text) and text only."""
    return []


@dataclass(frozen=True)
class MarkdownForm:
    """How the Markdown source writes one kind: its answer's lines after the question text, and
    whether the question line names its type."""

    answer: Callable[[Any, dict[str, Any]], list[str]]
    needs_type: Callable[[Any], bool] = _always
    #: The question text as written (a fill-in-the-blank question's holds its blanks' answers).
    stem: Callable[[Any], str] = _own_stem


def _variables_block(q: Any) -> str:
    """A calculated question's text with its ```variables block (readers/markdown/calculated.py)."""
    lines = []
    for v in q.variables:
        if v.kind == "listed":
            if v.shared:  # its values are in the sets' line; its options on a line of their own
                lines.append(f"{v.name} = decimals {v.decimals} shared")
            continue
        if v.kind == "range":
            spec = f"{_number(v.min)}..{_number(v.max)}" + (f" step {_number(v.step)}" if v.step else "")
        elif v.kind == "values":
            spec = ", ".join(_number(x) for x in v.values or [])
        else:
            spec = str(v.formula)
        if v.decimals is not None:
            spec += f" decimals {v.decimals}"
        lines.append(f"{v.name} = {spec}" + (" shared" if v.shared else ""))
    lines += list(q.constraints)
    if isinstance(q.sets, list):
        names = [v.name for v in q.variables if v.kind == "listed"]
        decimals = {v.name: v.decimals for v in q.variables}
        tuples = ", ".join("(" + ", ".join(fmt(s[n], decimals[n]) for n in names) + ")" for s in q.sets)
        lines.append(f"({', '.join(names)}) = {tuples}")
    return f"{q.stem}\n\n```variables\n" + "\n".join(lines) + "\n```"


def _calculated(q: Any, feedback: dict[str, Any]) -> list[str]:
    tolerance = f" ± {_number(q.tolerance)}{'%' if q.tolerance_mode == 'percent' else ''}" if q.tolerance else ""
    return [f"Answer: {q.answer}{tolerance}", ""]


#: Each kind's Markdown form, from its spec (kinds.py KindSpec.markdown_form).
MARKDOWN_FORMS = KindTable(
    "markdown_form", "writers/markdown_source.py MARKDOWN_FORMS",
    lambda part: MarkdownForm(resolve(part.answer), needs_type=resolve(part.needs_type) if part.needs_type else _always,
                              stem=resolve(part.stem) if part.stem else _own_stem))


# -- text blocks ----------------------------------------------------------------------------------


def _marked(marker: str, text: str, attrs: str, what: str) -> list[str]:
    """``1. first line {attrs}`` / ``A) first line`` / ``- item``, continuation lines indented.
    A text that opens with a code fence starts on the next line: the marker line itself is never
    read as a fence, so its closing fence would open a new one."""
    first, *rest = text.split("\n")
    if _FENCE_START.match(first) or (not attrs and not first.strip()):
        first, rest = "", text.split("\n")
        if not attrs and marker != "- ":
            raise _Inexpressible(f"a {what} that starts with a code block")
    head = f"{marker}{first}" + (f" {attrs}" if attrs and first else attrs)
    return [head.rstrip()] + [INDENT + line if line.strip() else "" for line in rest]


#: The numbers of the quiz's questions, on from section to section, when it has shared passages
#: (else None: each section numbers its own from 1).
_NUMBERS: ContextVar[Iterator[int] | None] = ContextVar("numbers", default=None)
#: The label words of the quiz being written (set by to_markdown).
_WORDS: ContextVar[dict[str, str]] = ContextVar("label_words", default={})
#: The language of the quiz being written: the words its reader takes (or-words, true/false words).
_LANGUAGE: ContextVar[str] = ContextVar("language", default="en")
#: The shuffle the reader gives a question without ``shuffle=``: false when the quiz's settings
#: say ``shuffle_answers: false`` (the Markdown reader's default), else the model's.
_SHUFFLE_DEFAULT: ContextVar[bool] = ContextVar("shuffle_default", default=True)


def _labelled(label: str, text: str, indent: str = "") -> list[str]:
    label = _WORDS.get().get(label, label)
    first, *rest = text.split("\n")
    if _FENCE_START.match(first):
        first, rest = "", text.split("\n")
    head = f"{indent}{label}: {first}".rstrip() if first else f"{indent}{label}:"
    if not indent and _safe_at_margin(rest):
        return [head] + rest
    return [head] + [indent + INDENT + line if line.strip() else "" for line in rest]


#: A line at the left margin that the reader would take for something new (after a label).
_STARTS_SOMETHING = re.compile(r"^(#{1,6}\s|\d+[.)]\s|(?:[-*+]\s+)?[A-Za-z][.)]\s|[^\W\d_][^:：]{0,40}?\s*[:：](\s|$))")


def _safe_at_margin(lines: list[str]) -> bool:
    """Continuation lines may stay at the margin, as people write them, when none of them starts
    something new and at least one is not indented (else the reader's dedent would shift them)."""
    filled = [line for line in lines if line.strip()]
    return bool(filled) and any(not line[:1].isspace() for line in filled) \
        and not any(_STARTS_SOMETHING.match(line) or S.starts_something(line) for line in filled)


def _margin_block(text: str) -> list[str]:
    """A description at the left margin, unless a line of it would start a section or a question."""
    lines = text.split("\n")
    if any(_MARKER_LINE.match(line) or _STARTS_SOMETHING.match(line) or S.starts_something(line) for line in lines):
        return [INDENT + line if line.strip() else "" for line in lines]
    return lines


def _one_line(text: str, what: str) -> str:
    if "\n" in text:
        raise _Inexpressible(f"a {what} over several lines ('{text.splitlines()[0][:40]}…')")
    return text


def _attrs(*items: tuple[Any, ...]) -> str:
    """``{#id key=value ...}`` with each value that differs from its default."""
    parts = []
    for item in items:
        if len(item) == 2:  # the id
            parts.append(item[0])
            continue
        name, value, default = item
        if value is None or value == default:
            continue
        parts.append(name if value is True else f"{name}={_attr_value(name, value)}")
    return "{" + " ".join(parts) + "}" if parts else ""


def _attr_value(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, list):
        value = ",".join(value) if name == "allowed_types" else ", ".join(value)
    text = str(value)
    if '"' in text or "{" in text or "}" in text or "\n" in text:
        raise _Inexpressible(f"the {name} '{text}'")
    return f'"{text}"' if re.search(r"[\s,]", text) or not text else text


def _number(value: float) -> str:
    """The shortest text that reads back as the same float (no exponent: the dialect's scores take none)."""
    if float(value).is_integer():
        return str(int(value))
    text = repr(float(value))
    if "e" in text:
        text = f"{value:.20f}".rstrip("0")
    return text
