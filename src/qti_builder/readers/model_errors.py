"""The model's validation errors, in the words of the source the author wrote.

Pydantic says "Field required" or "Input should be a valid dictionary or instance of Feedback";
an author needs to hear which key is missing from which question, which key was meant instead of
an unknown one, and what to write. :func:`explain` turns one pydantic error into a code, a
message, a hint and the place to report it, from a table of error kinds;
:func:`report_setting_error` says a quiz setting's error in the terms of the settings table.

Codes: QB203 an unknown key, QB204 a missing field, QB205 a value of the wrong kind (text, number,
true/false, list, mapping), QB131 an unknown question type, QB201 every other value the model
refuses (a range, a pattern, a rule such as "scores add up to 100 %").
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from ..diagnostics import DiagnosticSink
from ..model import QUESTION_CLASSES, Quiz, QuizSettings
from ..model.common import Problem
from .source_map import KEY, Loc, SourceMap, suggest

QUESTION_TYPES = [cls.model_fields["type"].default for cls in QUESTION_CLASSES]
#: Clearer words than a regular expression for the patterns users meet.
PATTERN_MESSAGES = {
    "id": "'{value}' is not a valid id: start with a letter or '_', then letters, digits, '-', '_' or '.' (64 at most)",
    "language": "'{value}' is not a language tag; use a code such as 'en', 'ko' or 'pt-BR'",
    "allowed_types": "'{value}' is not a file name extension such as '.pdf'",
}
#: What a list of things is called, one of them.
ITEM_NAMES = {"sections": "section", "questions": "question", "choices": "choice", "blanks": "blank",
              "answers": "answer", "pairs": "pair", "items": "item", "distractors": "distractor", "tags": "tag"}
#: An example value for a missing or mistyped field, as the author would write it.
EXAMPLES = {
    "id": "q1", "title": "Python basics", "stem": "the question text", "text": "the choice's text",
    "answer": "true", "prompt": "France", "model_answer": "what graders should look for", "sections": "[...]",
    "points": "2", "score": "50", "value": "3.14", "tolerance": "0.01", "select": "2", "expected_lines": "10",
    "min_words": "50", "max_words": "200", "attachments": "1", "max_files": "2",
}
LIST_EXAMPLES = {
    "choices": "- {id: A, text: Paris, correct: true}", "answers": "- {text: Paris}", "pairs": "- {prompt: France, answer: Paris}",
    "items": "- the first step", "blanks": "- {id: b1, answers: [Sun]}", "sections": "- {id: part-1, title: Part 1, questions: [...]}",
    "questions": "- {type: essay, id: q1, stem: ...}", "tags": "- python", "distractors": "- a wrong answer",
    "sets": "- {a: 2, b: 3}",
    "allowed_types": "- .pdf",
}
#: The same in a Markdown source, where lists are lines under the question, not YAML.
MARKDOWN_LIST_HINTS = {
    "choices": "put each option on its own line under the question ('A) Paris', 'B) Lyon'), or several on one line "
               "each marked as the first ('A) Paris  B) Lyon')",
    "answers": "write each accepted answer after 'Answer:'",
    "pairs": "write each pair on its own line under the question: '- France -> Paris'",
    "items": "write each item on its own numbered line under the question, in the right order",
}
FEEDBACK_HINT = ("write 'feedback:' and below it, indented, one or more of 'general: ...' (shown whatever the answer), "
                 "'correct: ...', 'incorrect: ...' and 'partially_correct: ...'")


@dataclass(frozen=True)
class Explained:
    code: str
    message: str
    hint: str
    loc: Loc
    #: For an unknown key and a missing field: the mapping they are in, the field, and the known
    #: key an unknown one most likely meant.
    parent: Loc = ()
    field: str = ""
    meant: str = ""


def explain(err: Any, loc: Loc, data: Any, source: SourceMap) -> Explained:
    """One pydantic error (``loc`` already without union tags) as the author's diagnostic."""
    kind = err["type"]
    field = str(loc[-1]) if loc and isinstance(loc[-1], str) else ""
    where = describe(loc[:-1] if field else loc, data)
    # A Markdown source's questions have no visible name but their line, which the diagnostic shows.
    named = source.syntax != "markdown"
    value = err.get("input")
    write = _writer(source, loc)

    if kind == "extra_forbidden":
        model = model_at(loc[:-1], data)
        known = list(model.model_fields) if model else []
        close = suggest(field, known)
        meant = close.split("'")[1] if close else ""
        listed = f"keys of {_what(loc[:-1], data)}: {', '.join(known)}" if known else ""
        fix = f"rename it to '{meant}'" if meant else "remove it, or rename it to one of the known keys"
        return Explained("QB203", f"unknown key '{field}' in {where}{close}",
                         f"{fix}; {listed}" if listed else fix, loc[:-1] + (KEY, field),
                         parent=loc[:-1], field=field, meant=meant)
    if kind == "missing":
        what = _what(loc[:-1], data)
        example = LIST_EXAMPLES.get(field)
        fix = (f"add '{field}:' to {what}, followed by a list of lines such as '{example}'" if example
               else f"add '{write(field, EXAMPLES.get(field, '...'))}' to {what}")
        return Explained("QB204", f"{where} has no '{field}'", fix, loc[:-1], parent=loc[:-1], field=field)
    if kind == "union_tag_not_found":
        return Explained("QB204", f"{where} has no 'type'",
                         f"add 'type:' with one of {', '.join(QUESTION_TYPES)}", loc)
    if kind == "union_tag_invalid":
        given = str(value.get("type", "")) if isinstance(value, dict) else ""
        return Explained("QB131", f"unknown question type '{given}' in {where}{suggest(given, QUESTION_TYPES)}",
                         f"types: {', '.join(QUESTION_TYPES)}", loc + ("type",))
    if kind == "value_error":
        problem = (err.get("ctx") or {}).get("error")
        message = str(problem) if problem is not None else err["msg"].removeprefix("Value error, ")
        if isinstance(problem, Problem):
            owner = describe(_owner(loc), data)
            return Explained("QB201", f"{message} (in {owner})" if owner != "the quiz" and named else message, problem.hint,
                             loc + (KEY, problem.at) if problem.at else loc)
        return Explained("QB201", message, "correct the value", loc)

    shown = _shown(value)
    # An entry of a list the description names ("item 2 of ordering question 'o'") is named by it
    # alone: "item 2 of 'items' in item 2 of ..." said it twice.
    list_entry = not field and len(loc) > 1 and isinstance(loc[-1], int) and str(loc[-2]) in ITEM_NAMES
    name = where if list_entry and named else f"'{field}'" if field else _item_name(loc)
    in_where = f" in {where}" if (where != "the quiz" or field) and named and not list_entry else ""
    # A list entry has no key to write after: its text follows the entry's dash.
    fill = f"write the text after '{field}:'" if field else "write its text after the entry's '- ', or remove the entry"
    if kind == "string_type":
        if value is None:
            return Explained("QB204", f"{name}{in_where} is empty", fill, loc)
        if isinstance(value, (list, dict)):
            hint = ("a choice's feedback is one text: 'feedback: Right!'" if field == "feedback"
                    else f"write it as one text, '{write(field, '...')}', or over several lines as '{field}: |'")
            return Explained("QB205", f"{name}{in_where} must be text, not a {'list' if isinstance(value, list) else 'mapping'}", hint, loc)
        return Explained("QB205", f"{name}{in_where} must be text, not {shown}", f"write it in quotes: {write(field, repr(str(value)))}", loc)
    if kind in ("bool_type", "bool_parsing"):
        return Explained("QB205", f"{name}{in_where} must be true or false, not {shown}",
                         f"write '{write(field, 'true')}' or '{write(field, 'false')}'", loc)
    if kind in ("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing"):
        whole = kind.startswith("int")
        example = EXAMPLES.get(field, "2")
        return Explained("QB205", f"{name}{in_where} must be {'a whole number' if whole else 'a number'}, not {shown}",
                         f"write a number{'' if whole else ' (with . for decimals)'}, such as '{write(field, example)}'", loc)
    if kind == "list_type":
        example = LIST_EXAMPLES.get(field, "- ...")
        return Explained("QB205", f"{name}{in_where} must be a list, not {shown}",
                         f"write each entry on its own line under '{field}:', starting with '- ', such as '{example}'", loc)
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        if field == "feedback":
            return Explained("QB205", f"'feedback'{in_where} must be a set of named feedback texts, not {shown}", FEEDBACK_HINT, loc)
        model = model_at(loc, data)
        keys = f" with keys such as {', '.join(list(model.model_fields)[:4])}" if model else ""
        return Explained("QB205", f"{name}{in_where} must be a mapping{keys}, not {shown}",
                         f"write '{field}' as indented 'key: value' lines" if field
                         else "write the entry as indented 'key: value' lines after its '- '", loc)
    if kind == "literal_error":
        expected = str((err.get("ctx") or {}).get("expected", ""))
        options = [o.strip(" '") for o in expected.replace(" or ", ", ").split(",") if o.strip(" '")]
        close = suggest(str(value), options)
        return Explained("QB201", f"{name}{in_where} must be {expected}, not {shown}{close}",
                         f"write '{write(field, options[0] if options else '...')}'", loc)
    if kind == "string_pattern_mismatch":
        template = PATTERN_MESSAGES.get(field) or PATTERN_MESSAGES.get(str(loc[-2]) if len(loc) > 1 else "")
        message = template.format(value=value) if template else f"{name}{in_where} has the wrong form: {shown}"
        return Explained("QB201", message, "see qti-builder docs source-format#ids" if field == "id" else "correct the value", loc)
    if kind in ("too_short", "string_too_short"):
        least = (err.get("ctx") or {}).get("min_length", 1)
        if kind == "string_too_short":
            return Explained("QB204", f"{name}{in_where} is empty", fill, loc)
        noun = ITEM_NAMES.get(field, "entry")
        nouns = noun if least == 1 else "entries" if noun == "entry" else f"{noun}s"
        return Explained("QB201", f"{where} needs at least {least} {nouns} in '{field}', "
                         f"has {len(value) if isinstance(value, list) else 0}",
                         MARKDOWN_LIST_HINTS[field] if source.syntax == "markdown" and field in MARKDOWN_LIST_HINTS
                         else f"add lines such as '{LIST_EXAMPLES.get(field, '- ...')}' under '{field}:'", loc)
    bounds = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
              "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        limit = (err.get("ctx") or {}).get(key)
        limit = f"{limit:g}" if isinstance(limit, (int, float)) else limit
        return Explained("QB201", f"{name}{in_where} must be {words} {limit}, not {shown}",
                         f"write a number {words} {limit}", loc)
    # An error kind the table does not know yet: say where, in plain words, rather than fail.
    return Explained("QB201", f"{name}{in_where} cannot be {shown}", "see qti-builder docs source-format for the values it takes", loc)


def describe(loc: Loc, data: Any) -> str:
    """Where ``loc`` points, in words: "question 'q1' in section 'basics'", "choice 'B' of question 'q1'"."""
    names: list[str] = []
    node = data
    i = 0
    while i < len(loc):
        part = loc[i]
        child = _get(node, part)
        if isinstance(part, str) and part in ITEM_NAMES and i + 1 < len(loc) and isinstance(loc[i + 1], int):
            item = _get(child, loc[i + 1])
            ident = item.get("id") if isinstance(item, dict) else None
            noun = ITEM_NAMES[part]
            if part == "questions" and isinstance(item, dict) and item.get("type") in QUESTION_TYPES:
                noun = f"{item['type']} question"
            index = loc[i + 1]
            names.append(f"{noun} '{ident}'" if isinstance(ident, str) else f"{noun} {index + 1 if isinstance(index, int) else index}")
            node, i = item, i + 2
            continue
        if isinstance(part, str) and part in ("feedback", "settings"):
            names.append(f"the {part}")
        node, i = child, i + 1
    if not names:
        return "the quiz"
    inner = names[-1]
    outer = next((n for n in reversed(names[:-1]) if not n.startswith("the ")), None)
    if inner.startswith("the ") and outer:
        return f"{inner} of {outer}"
    if outer and not inner.startswith(("section", "question")) and "question" not in inner:
        return f"{inner} of {outer}"
    return inner


def _owner(loc: Loc) -> Loc:
    """The path of the question or section that holds ``loc`` (the quiz's: empty)."""
    for end in range(len(loc) - 1, 0, -1):
        if loc[end - 1] in ("questions", "sections") and isinstance(loc[end], int):
            return loc[: end + 1]
    return ()


def _what(loc: Loc, data: Any) -> str:
    return describe(loc, data) if loc else "the quiz"


def model_at(loc: Loc, data: Any) -> type[BaseModel] | None:
    """The model class of the object at ``loc`` (a question's by its ``type``), or None."""
    annotation: Any = Quiz
    node = data
    for part in loc:
        annotation = _unwrap(annotation, node)
        if isinstance(part, int):
            if get_origin(annotation) is not list:
                return None
            annotation = get_args(annotation)[0]
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel) and part in annotation.model_fields:
            annotation = annotation.model_fields[part].annotation
        else:
            return None
        node = _get(node, part)
    annotation = _unwrap(annotation, node)
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _unwrap(annotation: Any, node: Any) -> Any:
    while True:
        origin = get_origin(annotation)
        if origin is typing.Annotated:
            annotation = get_args(annotation)[0]
        elif origin is Union or origin is types.UnionType:
            models = [a for a in get_args(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
            tagged = [m for m in models if isinstance(node, dict) and "type" in m.model_fields
                      and m.model_fields["type"].default == node.get("type")]
            if tagged or len(models) == 1:
                annotation = (tagged or models)[0]
            else:
                return annotation
        else:
            return annotation


def _get(node: Any, part: str | int) -> Any:
    try:
        return node[part]
    except (KeyError, IndexError, TypeError):
        return None


def _shown(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    text = str(value)
    try:
        float(text)
        return text
    except ValueError:
        return f"'{text if len(text) <= 40 else text[:39] + '…'}'"


def _item_name(loc: Loc) -> str:
    if len(loc) > 1 and isinstance(loc[-1], int):
        return f"{ITEM_NAMES.get(str(loc[-2]), 'entry')} {loc[-1] + 1} of '{loc[-2]}'"
    return "the value"


def _writer(source: SourceMap, loc: Loc) -> typing.Callable[[str, str], str]:
    """How a field is written where the error is: ``key: value`` in YAML and in Markdown front
    matter, ``key=value`` in a Markdown attribute."""
    if source.syntax == "markdown" and len(loc) > 1:
        return lambda field, value: f"{field}={value}"
    return lambda field, value: f"{field}: {value}"


#: Each quiz setting: what its value is, and an example line (docs/source-format.md#quiz-settings).
SETTING_FORMS: dict[str, tuple[str, str]] = {
    "time_limit": ("a whole number of minutes from 1 to 10080", "time_limit: 45"),
    "allowed_attempts": ("a number from 1 to 1000, or 'unlimited'", "allowed_attempts: 2"),
    "shuffle_answers": ("true or false", "shuffle_answers: true"),
    "show_correct_answers": ("true or false", "show_correct_answers: false"),
    "one_question_at_a_time": ("true or false", "one_question_at_a_time: true"),
    "lock_questions_after_answering": ("true or false", "lock_questions_after_answering: true"),
    "grading_method": ("'highest', 'average', 'first' or 'last'", "grading_method: last"),
    "quiz_type": ("'graded' or 'practice'", "quiz_type: practice"),
    "qti_variants": ("a number of fixed items per calculated question, from 0 to 100", "qti_variants: 5"),
    "scoring": ("'partial', 'all_or_nothing' or 'exam' (the multiple-response questions' rule)", "scoring: all_or_nothing"),
    "incomplete_points": ("a number of points above 0, with scoring: exam", "incomplete_points: 3"),
}
assert list(SETTING_FORMS) == list(QuizSettings.model_fields), "a form for every setting, in the model's order"


def report_setting_error(err: Any, loc: Loc, settings: Any, source: SourceMap, sink: DiagnosticSink, reported: set[Loc]) -> None:
    """A quiz setting the model refuses, said in the source's terms: what the value must be and
    an example line, or the setting a misspelt name is closest to. One error per setting (a
    value refused by every branch of a union is one mistake)."""
    names = list(SETTING_FORMS)
    if len(loc) == 1 or not isinstance(settings, dict):
        if ("settings",) not in reported:
            reported.add(("settings",))
            sink.error("QB201", f"settings must be a mapping of setting names to values, not {_setting_value(settings)} (at settings)",
                       source.locate(loc[:1]), hint="write 'settings:' and, indented below it, lines such as '  time_limit: 45'")
        return
    name = str(loc[1])
    if loc[:2] in reported:
        return
    reported.add(loc[:2])
    if err["type"] == "extra_forbidden":
        sink.error("QB201", f"unknown setting '{name}'{suggest(name, names)} (at settings.{name})",
                   source.locate(("settings", KEY, name)), hint=f"settings: {', '.join(names)}")
        return
    what, example = SETTING_FORMS[name]
    sink.error("QB201", f"{name} is {what}, not {_setting_value(settings.get(name))} (at settings.{name})",
               source.locate(("settings", name)), hint=f"for example '{example}'")


def _setting_value(value: Any) -> str:
    """A setting's value as the source spelt it, near enough: YAML's words for true, false and
    nothing, text quoted."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return str(value)
