"""What the quiz model says about a source, in the teacher's language: every rule of the model (each
``Problem`` raised in src/qti_builder/model/) and every error of pydantic that readers/model_errors.py
turns into a sentence (an unknown key, a missing field, a value of the wrong kind, a value out of
range, a quiz setting), with the parts it names ("in single_choice question 'a'", "the number -1"),
from YAML and from Markdown sources.

Each case below is a small source that makes the model say one of them. ``check --lang ko|ja|zh``
must print it with no English sentence left (``english_runs`` of test_message_catalogs), at the
same place (``file:line:col``) and with the same code as in English. The cases must make the model
say every one of its messages: each ``Problem(...)`` call in the model's source and each
``Explained(...)`` in model_errors.py is seen to be reached by some case, so a new rule of the
model comes with a case here, and so with its catalog entries.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from pydantic import ValidationError
from test_message_catalogs import HANGUL, english_runs, printed_at

import qti_builder
from qti_builder.codes import CODES
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.messages import catalog_path, translate
from qti_builder.model import Quiz, common
from qti_builder.readers import model_errors

PACKAGE = Path(qti_builder.__file__).parent
MODEL = PACKAGE / "model"


def yaml_quiz(questions: str, section: str = "", top: str = "") -> str:
    """A YAML quiz of one section holding ``questions`` (each a line '- {...}')."""
    body = "".join(f"      {line}\n" for line in questions.strip().splitlines())
    return f"title: T\n{top}sections:\n  - id: s\n    title: S\n{section}    questions:\n{body}"


SINGLE = "- {type: single_choice, id: q, stem: Which?, %s}"
CHOICES = "choices: [{id: A, text: a, correct: true}, {id: B, text: b}]"
MD = "---\ntitle: T\n---\n\n"
CALCULATED = "- {type: calculated, id: c, stem: 'What is {a} + 1?', answer: a + 1, %s}"


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    #: What the English message says (a part of it), so the case is seen to make the model say it.
    english: str
    syntax: str = "yaml"
    code: str = "QB201"


CASES = [
    # --- the rules of the model (Problem), in YAML: each message names the question or section it is in
    Case("moodle id number empty", yaml_quiz("- {type: essay, id: q, stem: Why?, moodle_idnumber: ' '}"),
         "the Moodle ID number is empty"),
    Case("moodle id number too long", yaml_quiz("- {type: essay, id: q, stem: Why?, moodle_idnumber: '%s'}" % ("x" * 101)),
         "is not one line of at most 100 characters"),
    Case("choice ids repeated", yaml_quiz(SINGLE % "choices: [{id: A, text: a, correct: true}, {id: A, text: b}]"),
         "choice ids must be unique, repeated: A"),
    Case("choice ids reserved", yaml_quiz(SINGLE % "choices: [{id: general, text: a, correct: true}, {id: B, text: b}]"),
         "choice ids general are reserved"),
    Case("single choice without a correct one", yaml_quiz(SINGLE % "choices: [{id: A, text: a}, {id: B, text: b}]"),
         "needs exactly one correct choice, found 0"),
    Case("single choice with two correct", yaml_quiz(SINGLE % "choices: [{id: A, text: a, correct: true}, {id: B, text: b, correct: true}]"),
         "needs exactly one correct choice, found 2"),
    Case("multiple response without a correct one",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, choices: [{id: A, text: a}, {id: B, text: b}]}"),
         "needs at least one correct choice"),
    Case("multiple response score against correct",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, choices: [{id: A, text: a, correct: true, score: -50}, {id: B, text: b}]}"),
         "a correct choice needs a positive score"),
    Case("multiple response scores not 100",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, choices: [{id: A, text: a, correct: true, score: 50},"
                   " {id: B, text: b, correct: true, score: 30}, {id: C, text: c}]}"),
         "add up to 80 %, not 100 %"),
    Case("exam scoring without incomplete points",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, scoring: exam, %s}" % CHOICES),
         "scoring=exam needs incomplete_points"),
    Case("incomplete points without exam scoring",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, incomplete_points: 1, %s}" % CHOICES),
         "incomplete_points is the exam rule's, and this question's scoring is partial"),
    Case("whole-answer scoring with negative marking",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, scoring: all_or_nothing, negative_marking: true, %s}" % CHOICES),
         "gives the points by the whole answer"),
    Case("true and false labels the same", yaml_quiz("- {type: true_false, id: q, stem: Sure?, answer: true, labels: [O, O]}"),
         "the true and false labels are both 'O'"),
    Case("short answer without a full answer", yaml_quiz("- {type: short_answer, id: q, stem: Who?, answers: [{text: a, score: 50}]}"),
         "a short-answer question needs an answer worth 100 %"),
    Case("numerical without a full answer", yaml_quiz("- {type: numerical, id: q, stem: How many?, answers: [{value: 3, score: 50}]}"),
         "a numerical question needs an answer worth 100 %"),
    Case("essay words the wrong way round", yaml_quiz("- {type: essay, id: q, stem: Why?, min_words: 200, max_words: 50}"),
         "min_words (200) is more than max_words (50)"),
    Case("drop-down blank without wrong options",
         yaml_quiz("- {type: fill_in_blank, id: q, stem: 'Sky is [[b]]', blanks: [{id: b, kind: dropdown, answers: [blue]}]}"),
         "drop-down blank 'b' needs at least one wrong option"),
    Case("text blank with wrong options",
         yaml_quiz("- {type: fill_in_blank, id: q, stem: 'Sky is [[b]]', blanks: [{id: b, answers: [blue], options: [red]}]}"),
         "it is a text blank, which shows none"),
    Case("blanks not in the stem",
         yaml_quiz("- {type: fill_in_blank, id: q, stem: 'Sky is [[x]]', blanks: [{id: b, answers: [blue]}]}"),
         "the stem's blanks [[...]] (x) must match the blanks defined (b)"),
    Case("some blanks state points",
         yaml_quiz("- {type: fill_in_blank, id: q, stem: '[[a]] and [[b]]', blanks: [{id: a, answers: [x], points: 1}, {id: b, answers: [y]}]}"),
         "some blanks state their points and blank 'b' does not"),
    Case("blank points disagree",
         yaml_quiz("- {type: fill_in_blank, id: q, stem: '[[a]] and [[b]]', points: 5,"
                   " blanks: [{id: a, answers: [x], points: 1}, {id: b, answers: [y], points: 1}]}"),
         "the question is worth 5 points, but its blanks' points add up to 2"),
    Case("section draws more than it holds", yaml_quiz("- {type: essay, id: q, stem: Why?}", section="    select: 3\n"),
         "section 's' draws 3 but holds only 1"),
    Case("no questions", "title: T\nsections:\n  - id: s\n    title: S\n    questions: []\n", "the quiz has no questions"),
    Case("incomplete points setting without exam",
         yaml_quiz("- {type: essay, id: q, stem: Why?}", top="settings: {incomplete_points: 1}\n"),
         "the setting incomplete_points is the exam rule's"),
    Case("exam setting above a question's points",
         yaml_quiz("- {type: multiple_response, id: q, stem: Which?, points: 2, %s}" % CHOICES,
                   top="settings: {scoring: exam, incomplete_points: 5}\n"),
         "the setting scoring: exam needs incomplete_points below the points of question 'q' (2)"),
    Case("text-only item with points", yaml_quiz("- {type: text_only, id: t, stem: Read this., points: 2}\n- {type: essay, id: q, stem: Why?}"),
         "a text-only item scores nothing, so it cannot be worth 2 points"),
    Case("variable named like a function", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}, {name: sqrt, min: 1, max: 2}]"),
         "'sqrt' is the name of a function or constant of formulas"),
    Case("variable with two forms", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2, values: [1]}]"),
         "variable 'a' has both min/max and values"),
    Case("variable without max", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1}]"),
         "variable 'a' needs both min and max"),
    Case("variable min above max", yaml_quiz(CALCULATED % "variables: [{name: a, min: 3, max: 1}]"),
         "variable 'a': min (3) is more than max (1)"),
    Case("variable step without range", yaml_quiz(CALCULATED % "variables: [{name: a, values: [1, 2], step: 1}]"),
         "variable 'a' has a step but no range"),
    Case("variable defined twice", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}, {name: a, min: 1, max: 2}]"),
         "variable a is defined twice"),
    Case("too many sets to generate", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}], sets: 0"),
         "a question generates 1 to 100 sets, not 0"),
    Case("variable without values", yaml_quiz(CALCULATED % "variables: [{name: a}]"),
         "variable 'a' has no values: give it a range"),
    Case("too many sets listed", yaml_quiz(CALCULATED % ("sets: [%s]" % ", ".join(["{a: 1}"] * 101))),
         "a question lists 1 to 100 sets, not 101"),
    Case("set without a value", yaml_quiz(CALCULATED % "sets: [{a: 1, b: 2}, {a: 1}]"),
         "set 2 has no value for b"),
    Case("variable with a range and listed values", yaml_quiz(CALCULATED % "variables: [{name: a, values: [1, 2]}], sets: [{a: 1}]"),
         "variable 'a' has a list of values and values in the listed sets"),
    Case("variable missing from the listed sets", yaml_quiz(CALCULATED % "variables: [{name: b, decimals: 1}], sets: [{a: 1}]"),
         "variable 'b' has no values in the listed sets"),
    Case("variable drawn beside listed sets", yaml_quiz(CALCULATED % "variables: [{name: b, min: 1, max: 2}], sets: [{a: 1}]"),
         "variable 'b' is drawn at random, but the question lists its sets"),
    Case("calculated without variables", yaml_quiz("- {type: calculated, id: c, stem: 'What is 1 + 1?', answer: 1 + 1}"),
         "a calculated question needs variables"),
    Case("decimals and figures", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}], decimals: 2, figures: 3"),
         "the answer has both decimals and figures"),
    Case("tolerance of 100 %", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}], tolerance: 100, tolerance_mode: percent"),
         "a tolerance of 100 % accepts every number"),
    Case("calculated choice without a correct one",
         yaml_quiz("- {type: calculated_choice, id: c, stem: 'What is {a} + 1?', variables: [{name: a, min: 1, max: 2}],"
                   " choices: [{id: A, text: '{=a + 1}'}, {id: B, text: '{=a + 2}'}]}"),
         "a calculated choice question needs exactly one correct option, found 0"),
    # --- the same rules in Markdown, where a question has no name but its line
    Case("markdown: essay words the wrong way round", MD + "1. Why? {#q type=essay min_words=200 max_words=50}\n",
         "min_words (200) is more than max_words (50)", "md"),
    Case("markdown: exam scoring without incomplete points",
         MD + "1. Which? {#q type=multiple_response scoring=exam}\n\nA) a\nB) b\n\nAnswer: A\n",
         "scoring=exam needs incomplete_points", "md"),
    Case("markdown: drop-down blank without wrong options", MD + "1. Sky is [[*blue]]. {#q type=fill_in_blank}\n",
         "needs at least one wrong option", "md"),
    Case("markdown: text-only item with points", MD + "1. Read this. {#t type=text_only points=2}\n\n2. Why? {#q type=essay}\n",
         "a text-only item scores nothing", "md"),
    Case("markdown: scores of the correct options not 100",
         MD + "1. Which? {#q type=multiple_response}\n\nA) a {score=50}\nB) b {score=30}\nC) c\n\nAnswer: A, B\n",
         "the scores of the correct choices add up to 80 %, not 100 %", "md"),
    Case("markdown: some blanks state points", MD + "1. [[x]]{points=1} and [[y]] {#q type=fill_in_blank points=5}\n",
         "some blanks state their points and blank 'b2' does not", "md"),
    Case("markdown: section draws more than it holds", MD + "# Part {#p select=3}\n\n1. Why? {#q type=essay}\n",
         "section 'p' draws 3 but holds only 1", "md"),
    # --- pydantic's errors, said in the source's words
    Case("unknown key with a near one", yaml_quiz(SINGLE % "choice: [{id: A, text: a, correct: true}, {id: B, text: b}]"),
         "unknown key 'choice' in single_choice question 'q'; did you mean 'choices'?", code="QB203"),
    Case("unknown key", yaml_quiz("- {type: essay, id: q, stem: Why?, colour: red}"), "unknown key 'colour' in essay question 'q'", code="QB203"),
    Case("unknown key of the quiz", "colour: red\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"), "unknown key 'colour' in the quiz", code="QB203"),
    Case("unknown key of a choice", yaml_quiz(SINGLE % "choices: [{id: A, text: a, correct: true, colour: red}, {id: B, text: b}]"),
         "unknown key 'colour' in choice 'A' of single_choice question 'q'", code="QB203"),
    Case("unknown key of a question's feedback", yaml_quiz("- {type: essay, id: q, stem: Why?, feedback: {right: Yes.}}"),
         "unknown key 'right' in the feedback of essay question 'q'", code="QB203"),
    Case("section without an id", "title: T\nsections:\n  - title: S\n    questions: [{type: essay, id: q, stem: Why?}]\n",
         "section 1 has no 'id'", code="QB204"),
    Case("empty text of a question without an id", yaml_quiz("- {type: essay, stem: }"), "'stem' in essay question 1 is empty", code="QB204"),
    Case("missing field", yaml_quiz("- {type: essay, id: q}"), "essay question 'q' has no 'stem'", code="QB204"),
    Case("missing list", yaml_quiz("- {type: single_choice, id: q, stem: Which?}"), "single_choice question 'q' has no 'choices'", code="QB204"),
    Case("missing id", yaml_quiz("- {type: essay, stem: Why?}"), "essay question 1 has no 'id'", code="QB204"),
    Case("missing type", yaml_quiz("- {id: q, stem: Why?}"), "question 'q' has no 'type'", code="QB204"),
    Case("unknown type", yaml_quiz("- {type: eassy, id: q, stem: Why?}"), "unknown question type 'eassy' in question 'q'; did you mean 'essay'?", code="QB131"),
    Case("unknown type far from any", yaml_quiz("- {type: poem, id: q, stem: Why?}"), "unknown question type 'poem' in question 'q'", code="QB131"),
    Case("empty text", yaml_quiz("- {type: essay, id: q, stem: }"), "'stem' in essay question 'q' is empty", code="QB204"),
    Case("text as a list", yaml_quiz("- {type: essay, id: q, stem: [a, b]}"), "'stem' in essay question 'q' must be text, not a list", code="QB205"),
    Case("text as a mapping", yaml_quiz("- {type: essay, id: q, stem: {a: b}}"), "'stem' in essay question 'q' must be text, not a mapping", code="QB205"),
    Case("choice feedback as a mapping", yaml_quiz(SINGLE % "choices: [{id: A, text: a, correct: true, feedback: {correct: yes}}, {id: B, text: b}]"),
         "'feedback' in choice 'A' of single_choice question 'q' must be text, not a mapping", code="QB205"),
    Case("flag not true or false", yaml_quiz(SINGLE % ("shuffle: maybe, " + CHOICES)), "'shuffle' in single_choice question 'q' must be true or false, not 'maybe'", code="QB205"),
    Case("whole number as a word", yaml_quiz("- {type: essay, id: q, stem: Why?, expected_lines: lots}"),
         "'expected_lines' in essay question 'q' must be a whole number, not 'lots'", code="QB205"),
    Case("number as a word", yaml_quiz("- {type: essay, id: q, stem: Why?, points: many}"), "'points' in essay question 'q' must be a number, not 'many'", code="QB205"),
    Case("list as a word", yaml_quiz(SINGLE % "choices: abc"), "'choices' in single_choice question 'q' must be a list, not 'abc'", code="QB205"),
    Case("feedback as one text", yaml_quiz("- {type: essay, id: q, stem: Why?, feedback: Good.}"),
         "'feedback' in essay question 'q' must be a set of named feedback texts, not 'Good.'", code="QB205"),
    Case("choice as a word", yaml_quiz(SINGLE % "choices: [abc, {id: B, text: b, correct: true}]"),
         "must be a mapping with keys such as id, text, correct, feedback, not 'abc'", code="QB205"),
    Case("section as a word", "title: T\nsections: [abc]\n",
         "section 1 must be a mapping with keys such as id, title, description, questions, not 'abc'",
         code="QB205"),
    Case("empty answer of a blank", yaml_quiz("- {type: fill_in_blank, id: q, stem: '[[b]]', blanks: [{id: b, answers: ['']}]}"),
         "answer 1 of blank 'b' is empty", code="QB204"),
    Case("empty choice", yaml_quiz(SINGLE % "choices: [{id: A, text: '', correct: true}, {id: B, text: b}]"),
         "'text' in choice 'A' of single_choice question 'q' is empty", code="QB204"),
    Case("empty ordering item", yaml_quiz("- {type: ordering, id: o, stem: Order, items: [a, '', c]}"),
         "item 2 of ordering question 'o' is empty", code="QB204"),
    Case("no ordering item", yaml_quiz("- {type: ordering, id: o, stem: Order, items: [a, ~, c]}"),
         "item 2 of ordering question 'o' is empty", code="QB204"),
    Case("sets as a word", yaml_quiz(CALCULATED % "sets: abc"), "'sets' in calculated question 'c' must be a list, not 'abc'",
         code="QB205"),
    Case("a listed value as a word", yaml_quiz(CALCULATED % "sets: [{a: x}]"),
         "'a' in calculated question 'c' must be a number, not 'x'", code="QB205"),
    Case("tag as a list", yaml_quiz("- {type: essay, id: q, stem: Why?, tags: [[a]]}"),
         "tag 1 of essay question 'q' must be text, not a list", code="QB205"),
    Case("one of some words, near one", yaml_quiz("- {type: essay, id: q, stem: Why?, response_format: edtor}"),
         "'response_format' in essay question 'q' must be 'editor', 'plain' or 'monospaced', not 'edtor'; did you mean 'editor'?"),
    Case("one of some words", yaml_quiz("- {type: fill_in_blank, id: q, stem: 'Sky is [[b]]', blanks: [{id: b, kind: box, answers: [blue]}]}"),
         "'kind' in blank 'b' of fill_in_blank question 'q' must be 'text' or 'dropdown', not 'box'"),
    Case("schema version not 1", "schema_version: 2\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"),
         "'schema_version' in the quiz must be 1, not the number 2"),
    Case("id of the wrong form", yaml_quiz("- {type: essay, id: 1 bad, stem: Why?}"), "'1 bad' is not a valid id"),
    Case("language of the wrong form", "language: korean language\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"),
         "'korean language' is not a language tag"),
    Case("file type of the wrong form", yaml_quiz("- {type: file_upload, id: q, stem: Send it., allowed_types: [pdf]}"),
         "'pdf' is not a file name extension"),
    Case("variable name of the wrong form", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2}, {name: 2b, min: 1, max: 2}]"),
         "has the wrong form: '2b'"),
    Case("too few answers", yaml_quiz("- {type: short_answer, id: q, stem: Who?, answers: []}"),
         "short_answer question 'q' needs at least 1 answer in 'answers', has 0"),
    Case("too few choices", yaml_quiz(SINGLE % "choices: [{id: A, text: a, correct: true}]"),
         "single_choice question 'q' needs at least 2 choices in 'choices', has 1"),
    Case("too few pairs", yaml_quiz("- {type: matching, id: q, stem: Match., pairs: [{prompt: France, answer: Paris}]}"),
         "needs at least 2 pairs in 'pairs', has 1"),
    Case("too few items", yaml_quiz("- {type: ordering, id: q, stem: Order., items: [one]}"), "needs at least 2 items in 'items', has 1"),
    Case("too few blanks", yaml_quiz("- {type: fill_in_blank, id: q, stem: Sky., blanks: []}"), "needs at least 1 blank in 'blanks', has 0"),
    Case("too few sections", "title: T\nsections: []\n", "the quiz needs at least 1 section in 'sections', has 0"),
    Case("too few labels", yaml_quiz("- {type: true_false, id: q, stem: Sure?, answer: true, labels: [O]}"), "in 'labels', has 1"),
    Case("empty title", 'title: ""\n' + yaml_quiz("- {type: essay, id: q, stem: Why?}").removeprefix("title: T\n"), "'title' in the quiz is empty", code="QB204"),
    Case("number below its least", yaml_quiz("- {type: essay, id: q, stem: Why?, points: -1}"),
         "'points' in essay question 'q' must be at least 0, not the number -1"),
    Case("number above its most", yaml_quiz("- {type: essay, id: q, stem: Why?, expected_lines: 500}"),
         "'expected_lines' in essay question 'q' must be at most 200, not the number 500"),
    Case("number not above its least", yaml_quiz(CALCULATED % "variables: [{name: a, min: 1, max: 2, step: 0}]"),
         "'step' in calculated question 'c' must be more than 0, not the number 0"),
    Case("text too long", yaml_quiz("- {type: true_false, id: q, stem: Sure?, answer: true, labels: [O, '%s']}" % ("x" * 41)),
         "in true_false question 'q' cannot be"),
    Case("markdown: number below its least", MD + "1. Why? {#q type=essay points=-1}\n", "'points' must be at least 0, not -1", "md"),
    Case("markdown: too few options", MD + "1. Which? {#q type=single_choice}\n\nA) a\n\nAnswer: A\n", "needs at least 2 choices", "md"),
    Case("markdown: flag not true or false", MD + "1. Which? {#q shuffle=maybe}\n\nA) a\nB) b\n\nAnswer: A\n",
         "'shuffle' must be true or false, not 'maybe'", "md", "QB205"),
    Case("markdown: one of some words, near one", MD + "1. Why? {#q type=essay response_format=edtor}\n",
         "'response_format' must be 'editor', 'plain' or 'monospaced', not 'edtor'; did you mean 'editor'?", "md"),
    Case("markdown: id of the wrong form", MD + "1. Why? {#1bad type=essay}\n", "'1bad' is not a valid id", "md"),
    Case("markdown: language of the wrong form", "---\ntitle: T\nlanguage: korean language\n---\n\n1. Why? {#q type=essay}\n",
         "'korean language' is not a language tag", "md"),
    Case("markdown: a setting of the wrong kind", "---\ntitle: T\nsettings:\n  time_limit: soon\n---\n\n1. Why? {#q type=essay}\n",
         "time_limit is a whole number of minutes from 1 to 10080, not 'soon' (at settings.time_limit)", "md"),
    # --- the quiz's settings
    Case("settings not a mapping", "settings: 5\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"), "settings must be a mapping"),
    Case("unknown setting", "settings: {time_limt: 5}\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"),
         "unknown setting 'time_limt'; did you mean 'time_limit'? (at settings.time_limt)"),
    Case("settings of the wrong kind",
         "settings:\n  time_limit: soon\n  allowed_attempts: many\n  shuffle_answers: maybe\n  show_correct_answers: maybe\n"
         "  one_question_at_a_time: maybe\n  lock_questions_after_answering: maybe\n  grading_method: best\n  quiz_type: exam\n"
         "  qti_variants: lots\n  scoring: some\n  incomplete_points: none\n" + yaml_quiz("- {type: essay, id: q, stem: Why?}"),
         "time_limit is a whole number of minutes from 1 to 10080, not 'soon' (at settings.time_limit)"),
]


#: Rules of the model that no source reaches, as a reader says the same first; each is checked here
#: by the model's own words, translated as the catalogs have them.
READER_FIRST = {
    # readers/base.py finds a repeated id first (QB133, at the second one).
    "ids must be unique in a quiz, repeated: {ids}": ({"id": "quiz", "title": "T", "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "essay", "id": "q", "stem": "Why?"},
                                                {"type": "essay", "id": "q", "stem": "How?"}]}]}),
}
#: Forms of model_errors that no source reaches (a part of each call's text), and why.
UNREACHED_FORMS = {
    # A value error that is no Problem: the model raises only Problems but for the settings'
    # "a number is needed, not true or false", which report_setting_error words itself.
    'Explained("QB201", message, "correct the value", loc)': "no value error but Problems",
    # A number or a flag where text is meant is read again as the text written (_texts_as_written).
    "write it in quotes": "a value that is no text is read as the text written",
}


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """What each case prints in English and in each language (place, line), and which ``Problem(...)``
    and ``Explained(...)`` calls the model and model_errors made on the way (``REACHED``)."""
    REACHED.clear()
    out: dict[str, dict[str, list[tuple[str, str]]]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(common.Problem, "__init__", _recorded_problem)
        patch.setattr(model_errors, "Explained", _recorded_explained)
        patch.setattr(DiagnosticSink, "error", _recorded_error)
        for i, case in enumerate(CASES):
            out[case.name] = {}
            for language in ("en", *LANGUAGES):
                folder = tmp_path_factory.mktemp(f"case{i}-{language}")
                code = replace(CODES[case.code], mistake=case.text, syntax=case.syntax, file=f"case{i}")
                out[case.name][language] = printed_at(folder, code, language)
    return out


LANGUAGES = ["ko", "ja", "zh"]
REACHED: set[tuple[str, int]] = set()
_problem_init = common.Problem.__init__
_explained = model_errors.Explained
_sink_error = DiagnosticSink.error


def _recorded_problem(self: common.Problem, message: str, hint: str, at: str | None = None) -> None:
    caller = sys._getframe(1)
    REACHED.add((caller.f_code.co_filename, caller.f_lineno))
    _problem_init(self, message, hint, at)


def _recorded_explained(*args: object, **kwargs: object) -> model_errors.Explained:
    caller = sys._getframe(1)
    REACHED.add((caller.f_code.co_filename, caller.f_lineno))
    return _explained(*args, **kwargs)  # type: ignore[arg-type]


def _recorded_error(self: DiagnosticSink, *args: Any, **kwargs: Any) -> Any:
    caller = sys._getframe(1)
    REACHED.add((caller.f_code.co_filename, caller.f_lineno))
    return _sink_error(self, *args, **kwargs)


def calls(path: Path, name: str) -> dict[int, str]:
    """Each call of ``name`` (a function, or a method such as ``sink.error``) in a module's source:
    its line, and its source text."""
    source = path.read_text(encoding="utf-8")
    return {node.lineno: ast.get_source_segment(source, node) or "" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and name in (getattr(node.func, "id", None), getattr(node.func, "attr", None))}


def test_every_case_makes_the_model_say_its_message(said: dict[str, dict[str, list[tuple[str, str]]]]) -> None:
    # In English, each case prints the message it is written for, under its code.
    wrong = {case.name: said[case.name]["en"] for case in CASES if not any(case.english in line for _, line in said[case.name]["en"])}
    assert wrong == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_the_model_says_prints_in_the_language_at_the_same_place(
        said: dict[str, dict[str, list[tuple[str, str]]]], language: str) -> None:
    untranslated, moved, korean = {}, {}, {}
    for case in CASES:
        english, translated = said[case.name]["en"], said[case.name][language]
        left = [run_ for _, line in translated for run_ in english_runs(line)]
        if left:
            untranslated[case.name] = left
        if [place for place, _ in translated] != [place for place, _ in english]:
            moved[case.name] = (english, translated)
        if language != "ko" and any(HANGUL.search(line) for _, line in translated):
            korean[case.name] = translated
    assert untranslated == {}, f"add entries for these to src/qti_builder/locale/{language}/LC_MESSAGES/qti_builder.po"
    assert moved == {}
    assert korean == {}


def test_every_rule_of_the_model_is_said_by_a_case(said: dict[str, dict[str, list[tuple[str, str]]]]) -> None:
    # Each Problem(...) in the model's source is raised by a case (or is one a reader says first):
    # a new rule fails here, named, until a case says it and the catalogs have its words.
    reader_first = [message.split("{")[0] for message in READER_FIRST]
    missing = [f"{path.relative_to(PACKAGE)}:{line}: {text}" for path in sorted(MODEL.rglob("*.py"))
               for line, text in calls(path, "Problem").items()
               if (str(path), line) not in REACHED and not any(prefix in text for prefix in reader_first)]
    assert missing == [], "write a case that makes the model say each of these, and its entries in the ko, ja and zh catalogs"


def test_every_form_of_a_pydantic_error_is_said_by_a_case(said: dict[str, dict[str, list[tuple[str, str]]]]) -> None:
    # The same for each way model_errors words an error of pydantic, and a quiz setting's.
    path = Path(model_errors.__file__)
    missing = [f"{line}: {text}" for line, text in (calls(path, "Explained") | calls(path, "error")).items()
               if (str(path), line) not in REACHED and not any(form in " ".join(text.split()) for form in UNREACHED_FORMS)]
    assert missing == [], "write a case that makes model_errors say each of these, and its entries in the catalogs"


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_a_reader_says_first_are_translated_too(language: str) -> None:
    for template, data in READER_FIRST.items():
        with pytest.raises(ValidationError) as raised:
            Quiz.model_validate(data)
        problems = [e["ctx"]["error"] for e in raised.value.errors() if isinstance((e.get("ctx") or {}).get("error"), common.Problem)]
        assert any(re.fullmatch(re.escape(template).replace(r"\{ids\}", ".*"), str(p)) for p in problems), template
        for problem in problems:
            for text in (str(problem), problem.hint):
                assert translate(text, language) != text and not english_runs(translate(text, language)), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rule_named_in_a_yaml_source_has_its_plain_form_for_markdown(language: str) -> None:
    # A YAML source's rule says where it is, "(in essay question 'q')"; a Markdown source's shows
    # its line instead: each entry of the first kind has the second beside it.
    with catalog_path(language).open("rb") as handle:
        ids = {m.id for m in read_po(handle) if m.id and not m.context}
    named = {i for i in ids if isinstance(i, str) and i.endswith(" (in {owner})")}
    assert len(named) >= 40
    assert sorted(i for i in named if i.removesuffix(" (in {owner})") not in ids) == []
