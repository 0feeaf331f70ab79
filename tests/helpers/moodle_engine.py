"""Moodle's reading and grading of a Moodle XML question, written from Moodle's own code.

Moodle does not run here, so its rules are ported from its source (moodle/moodle, read with the
search tools; every function below names the PHP it follows). The port is this test suite's own:
it shares nothing with the writer (``writers/moodle.py``) or the build's checks (``validate.py``),
and its cloze reader is checked against the cases of Moodle's own test suite
(tests/test_moodle_rules.py), so that the writer's output is graded as Moodle grades it.

- What the importer takes (``question/format/xml/format.php``, ``qformat_xml``): answers in file
  order with ``fraction`` as a percentage; a true/false question's right answer is ``true`` when
  the answer ``true`` has fraction 100 (``import_truefalse``); a cloze question's subquestions come
  from its text (``import_multianswer`` calls ``qtype_multianswer_extract_question``).
- How each type grades a response, as a fraction of the question's mark:

  ===============  ==========================================================================
  multichoice      one answer: its fraction; several: the sum of the chosen answers' fractions,
                   kept within 0..1 (``question/type/multichoice/question.php``,
                   ``qtype_multichoice_single_question`` / ``_multi_question::grade_response``)
  truefalse        1 for the right answer, else 0 (``question/type/truefalse/question.php``)
  shortanswer      the fraction of the first answer, in order, that matches: ``*`` is a
                   wildcard, ``\\*`` a star, case ignored unless ``usecase``, the response
                   trimmed (``question/type/shortanswer/question.php``,
                   ``compare_string_with_wildcard``, ``get_matching_answer``)
  numerical        the fraction of the first answer within its nominal tolerance, widened by
                   Moodle's epsilon; ``*`` matches any number (``question/type/numerical/
                   question.php``, ``qtype_numerical_answer::get_tolerance_interval``)
  matching         right stems / stems; a subquestion without text is a distractor, and choices
                   are their texts (``question/type/match/question.php``, ``grade_response``)
  ordering         all or nothing with ``gradingtype`` ALL_OR_NOTHING, the answers' file order
                   being the right order (``question/type/ordering``)
  cloze            each subquestion graded by its own type; the question's fraction is the
                   weight-weighted mean (``question/type/multianswer/question.php``,
                   ``grade_response``)
  calculated       one dataset item of every wildcard (the set); each answer's formula computed
                   with the set's values, unrounded, then graded as numerical with its own
                   tolerance type: relative, nominal or geometric (``question/type/calculated/
                   question.php``, ``calculate_all_expressions``, ``qtype_calculated_variable_
                   substituter::calculate``; ``qtype_numerical_answer::get_tolerance_interval``)
  calculatedmulti  one set, as calculated; graded as multichoice by the answer chosen, each
                   answer's text showing its ``{=formula}`` computed with the set's values
                   (``question/type/calculatedmulti/question.php``)
  ===============  ==========================================================================
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from helpers.text import html_text

# -- cloze: qtype_multianswer_extract_question (question/type/multianswer/questiontype.php) ------

#: ANSWER_ALTERNATIVE_FRACTION_REGEX, ..._ANSWER_REGEX, ..._FEEDBACK_REGEX as Moodle defines them.
#: PHP's look-behind (?<!\\|&|&amp;) takes alternatives of different widths; Python's needs one
#: look-behind per width, which reads the same.
_FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_ALTERNATIVE = f"({_FRACTION})?({_ANSWER})(#({_FEEDBACK}))?"
#: ANSWER_TYPE_DEF_REGEX: each type's long and short names, in Moodle's group order.
_TYPES = ("(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|"
          "(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|"
          "(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|"
          "(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)")
_ANSWER_REGEX = re.compile(r"\{([0-9]*):(" + _TYPES + r"):(" + _ALTERNATIVE + "(~" + _ALTERNATIVE + r")*)\}", re.S)
_NEXT_ALTERNATIVE = re.compile("~?" + _ALTERNATIVE, re.S)
_NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
_NUMERICAL_ALTERNATIVE = re.compile("^(" + _NUMBER + ")(:" + _NUMBER + ")?$", re.S)

#: The regex group of each type in _ANSWER_REGEX (ANSWER_REGEX_ANSWER_TYPE_*), and what
#: extract_question sets for it: (qtype, single, shuffleanswers, layout, usecase).
_TYPE_GROUPS = {
    3: ("numerical", None, None, None, None),
    4: ("multichoice", True, False, "dropdown", None),
    5: ("multichoice", True, False, "vertical", None),
    6: ("multichoice", True, False, "horizontal", None),
    7: ("shortanswer", None, None, None, False),
    8: ("shortanswer", None, None, None, True),
    9: ("multichoice", True, True, "dropdown", None),
    10: ("multichoice", True, True, "vertical", None),
    11: ("multichoice", True, True, "horizontal", None),
    12: ("multichoice", False, False, "vertical", None),
    13: ("multichoice", False, False, "horizontal", None),
    14: ("multichoice", False, True, "vertical", None),
    15: ("multichoice", False, True, "horizontal", None),
}


@dataclass
class Answer:
    text: str
    fraction: float
    feedback: str = ""
    tolerance: float | None = None  # numerical and calculated answers only
    #: calculated answers: 1 relative, 2 nominal, 3 geometric (numerical answers are nominal).
    tolerancetype: int = 2
    #: calculated answers: correctanswerformat (1 decimals, 2 significant figures) and length.
    answerformat: int | None = None
    answerlength: int | None = None


@dataclass
class Subquestion:
    qtype: str
    mark: float
    answers: list[Answer]
    single: bool | None = None
    shuffleanswers: bool | None = None
    layout: str | None = None
    usecase: bool | None = None


def _cloze_text(raw: str) -> str:
    """Undo the HTML editor's quoting, then \\} and \\# (extract_question does exactly this)."""
    return html.unescape(raw).replace("\\}", "}").replace("\\#", "#")


def extract_cloze(text: str) -> list[Subquestion]:
    """The subquestions Moodle makes of a cloze question text, in order."""
    found = []
    while match := _ANSWER_REGEX.search(text):
        group = next(g for g in _TYPE_GROUPS if match.group(g))
        qtype, single, shuffle, layout, usecase = _TYPE_GROUPS[group]
        sub = Subquestion(qtype, float(match.group(1)) if match.group(1) != "" else 1.0, [],
                          single, shuffle, layout, usecase)
        remaining = match.group(16)
        specific = False
        while remaining and (alt := _NEXT_ALTERNATIVE.match(remaining)):
            if alt.group(1) == "=":
                fraction = 1.0
            elif alt.group(2):
                fraction, specific = 0.01 * float(alt.group(2).replace(",", ".")), True
            else:
                fraction = 0.0
            feedback = _cloze_text(alt.group(5)) if alt.group(5) is not None else ""
            numeric = _NUMERICAL_ALTERNATIVE.match(alt.group(3)) if qtype == "numerical" else None
            if numeric:
                sub.answers.append(Answer(numeric.group(1), fraction, feedback, float(numeric.group(6) or 0)))
            else:
                sub.answers.append(Answer(_cloze_text(alt.group(3)), fraction, feedback))
            # explode($altregs[0], $remainingalts, 2)[1]: what follows the first occurrence
            remaining = remaining.split(alt.group(0), 1)[1]
        if sub.single is False:  # multiresponse: positive fractions share 1
            total = sum(a.fraction for a in sub.answers if a.fraction > 0)
            for a in sub.answers if total else ():
                a.fraction = a.fraction / total if a.fraction > 0 else a.fraction if specific else -1 / total
        found.append(sub)
        text = text.replace(match.group(0), "\0", 1)
    return found


# -- reading a question as qformat_xml does ------------------------------------------------------


#: question_bank::fraction_options_full() (question/engine/bank.php): 1, 0, these and their negatives,
#: and -1. An imported fraction must be within 0.00001 of one of them (``match_grade_options`` in
#: lib/questionlib.php, called by qformat_default with 'error'), and Moodle stores that option.
RAW_FRACTIONS = (0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2, 0.1666667,
                 0.1428571, 0.125, 0.1111111, 0.1, 0.05)
FRACTION_OPTIONS = (1.0, 0.0, *RAW_FRACTIONS, *(-f for f in RAW_FRACTIONS), -1.0)


class NotImported(ValueError):
    """What Moodle's importer refuses."""


def grade_option(fraction: float) -> float:
    """The option Moodle stores for an imported fraction, or NotImported."""
    for option in FRACTION_OPTIONS:
        if abs(fraction - option) < 0.00001:
            return option
    raise NotImported(f"fraction {fraction} is none of Moodle's grade options")


@dataclass
class Question:
    qtype: str
    mark: float
    penalty: float
    answers: list[Answer] = field(default_factory=list)
    single: bool | None = None
    shuffleanswers: bool | None = None
    answernumbering: str | None = None
    usecase: bool | None = None
    #: matching: (stem text, answer text), a distractor with stem None.
    subquestions: list[tuple[str | None, str]] = field(default_factory=list)
    gradingtype: str | None = None
    cloze: list[Subquestion] = field(default_factory=list)
    hints: int = 0
    #: calculated kinds: each wildcard's dataset items, by item number.
    datasets: dict[str, dict[int, str]] = field(default_factory=dict)


def _fraction(answer: etree._Element) -> float:
    return grade_option(float(answer.get("fraction", "0")) / 100)


def _bool(text: str | None) -> bool:
    """How qformat_xml reads a flag (``trans_single``, ``getpath``...): 'true' or a number."""
    return (text or "").strip().lower() in ("true", "1")


def read_question(question: etree._Element) -> Question:
    qtype = question.get("type")
    q = Question(qtype, float(question.findtext("defaultgrade") or 1), float(question.findtext("penalty") or 0.3333333),
                 hints=len(question.findall("hint")))
    texts = [(a, (a.findtext("text") or "").strip()) for a in question.findall("answer")]
    if qtype == "multichoice":
        q.single = _bool(question.findtext("single"))
        q.shuffleanswers = _bool(question.findtext("shuffleanswers"))
        q.answernumbering = question.findtext("answernumbering")
        q.answers = [Answer(t, _fraction(a)) for a, t in texts]
    elif qtype == "truefalse":
        # the last of the two answers decides, as import_truefalse's loop sets it
        right = [(t == "true") == (_fraction(a) == 1) for a, t in texts if t in ("true", "false")][-1]
        q.answers = [Answer("true", 1.0 if right else 0.0), Answer("false", 0.0 if right else 1.0)]
    elif qtype == "shortanswer":
        q.usecase = _bool(question.findtext("usecase"))
        q.answers = [Answer(t, _fraction(a)) for a, t in texts]
    elif qtype == "numerical":
        q.answers = [Answer(t, _fraction(a), tolerance=float(a.findtext("tolerance") or 0)) for a, t in texts]
    elif qtype == "matching":
        q.shuffleanswers = _bool(question.findtext("shuffleanswers"))
        for sub in question.findall("subquestion"):
            stem = sub.findtext("text") or ""
            q.subquestions.append((stem if stem.strip() else None, (sub.findtext("answer/text") or "").strip()))
    elif qtype == "ordering":
        q.gradingtype = question.findtext("gradingtype")
        q.answers = [Answer(t, 0.0) for _, t in texts]
    elif qtype in ("calculated", "calculatedsimple", "calculatedmulti"):
        # import_calculated: each answer's tolerance and tolerancetype, and every dataset
        # definition's items (number, value)
        q.answers = [Answer(t, _fraction(a), tolerance=float(a.findtext("tolerance") or 0),
                            tolerancetype=int(a.findtext("tolerancetype") or 1),
                            answerformat=int(a.findtext("correctanswerformat") or 1),
                            answerlength=int(a.findtext("correctanswerlength") or 2)) for a, t in texts]
        if qtype == "calculatedmulti":
            q.single = _bool(question.findtext("single"))
            q.shuffleanswers = _bool(question.findtext("shuffleanswers"))
            q.answernumbering = question.findtext("answernumbering")
        for definition in question.iter("dataset_definition"):
            q.datasets[definition.findtext("name/text") or ""] = {
                int(item.findtext("number") or 0): (item.findtext("value") or "").strip()
                for item in definition.iter("dataset_item")}
        _validate_formulas(question, q)
    elif qtype == "cloze":
        q.cloze = extract_cloze(question.findtext("questiontext/text") or "")
        q.mark = sum(s.mark for s in q.cloze)  # the importer sets the mark from the weights
    return q


#: validate_question_data (question/type/calculated/questiontype.php, and calculatedmulti's):
#: the texts whose every {=...} Moodle checks before it stores a calculated question.
FORMULA_TEXTS = ("questiontext/text", "generalfeedback/text", "correctfeedback/text", "partiallycorrectfeedback/text",
                 "incorrectfeedback/text", "answer/feedback/text")
#: FORMULAS_IN_TEXT_REGEX: {=...}, its formula holding {name} placeholders.
FORMULA_IN_TEXT = re.compile(r"\{=([^{}]*(?:\{[A-Za-z][A-Za-z0-9\-_\s]*\}[^{}]*)*)\}")


def _validate_formulas(element: etree._Element, q: Question) -> None:
    """A formula Moodle refuses throws a coding_exception, which ends the import of the whole
    file: each one is computed here with the first set's values by the PHP evaluator of
    helpers/lms_formulas.py (which refuses what find_formula_errors refuses), else NotImported."""
    values = dataset_values(q, 1) if q.datasets else {}
    texts = [t.text or "" for path in FORMULA_TEXTS for t in element.findall(path)]
    formulas = [m.group(1) for text in texts for m in FORMULA_IN_TEXT.finditer(text)]
    if q.qtype == "calculatedmulti":
        formulas += [m.group(1) for a in q.answers for m in FORMULA_IN_TEXT.finditer(a.text)]
    else:
        formulas += [a.text for a in q.answers if a.text != "*"]
    for formula in formulas:
        try:
            calculated_value(formula, values)
        except (AssertionError, KeyError, IndexError) as exc:  # its syntax, not its value
            raise NotImported(f"Moodle refuses the formula {formula!r}: {exc!r}") from None


# -- grading -------------------------------------------------------------------------------------


def wildcard_match(response: str, pattern: str, ignore_case: bool) -> bool:
    """compare_string_with_wildcard: runs of unescaped * match anything, \\* is a star; both
    sides NFC-normalised, the response trimmed."""
    pattern = unicodedata.normalize("NFC", pattern)
    response = unicodedata.normalize("NFC", response)
    bits = re.split(r"(?<!\\)\*+", pattern)
    regex = "^" + ".*".join(re.escape(bit.replace("\\*", "*")) for bit in bits) + "$"
    return re.match(regex, response.strip(), re.S | (re.I if ignore_case else 0)) is not None


#: PHP's ``ini_get('precision')``: 14 by default.
PHP_PRECISION = 14


def tolerance_interval(target: float, tolerance: float, tolerancetype: int) -> tuple[float, float]:
    """qtype_numerical_answer::get_tolerance_interval (question/type/numerical/question.php, Moodle
    4.x): epsilon is 10^-precision, the tolerance widened by it (MDL-3225); relative: |answer|
    times that on each side; nominal: the tolerance plus epsilon times max(|tolerance|, |answer|,
    epsilon); geometric: the answer divided and multiplied by 1 + the tolerance, the lower bound
    first for a negative answer too (question/type/numerical/tests/answer_test.php's
    ``test_within_tolerance_geometric``). The constructor keeps abs(tolerance)."""
    tolerance = abs(tolerance)
    epsilon = 10.0 ** -PHP_PRECISION
    widened = tolerance + epsilon
    if tolerancetype == 1:
        spread = abs(target) * widened
        return target - spread, target + spread
    if tolerancetype == 2:
        spread = tolerance + epsilon * max(tolerance, abs(target), epsilon)
        return target - spread, target + spread
    if tolerancetype == 3:
        quotient = 1 + widened
        low, high = target / quotient, target * quotient
        return min(low, high), max(low, high)
    raise ValueError(f"Unknown tolerance type {tolerancetype}")


def within_tolerance(value: float, answer: Answer) -> bool:
    """qtype_numerical_answer::within_tolerance: ``*`` takes any number, else the interval."""
    if answer.text == "*":
        return True
    low, high = tolerance_interval(float(answer.text), answer.tolerance or 0.0, answer.tolerancetype)
    return low <= value <= high


def _first(answers: Sequence[Answer], matches: object) -> float:
    for answer in answers:
        if matches(answer):  # type: ignore[operator]
            return answer.fraction
    return 0.0


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def grade_choice(answers: Sequence[Answer], single: bool, chosen: set[int]) -> float:
    """``chosen``: the positions (from 0) of the answers ticked."""
    if single:
        return answers[next(iter(chosen))].fraction if len(chosen) == 1 else 0.0
    return min(max(0.0, sum(answers[i].fraction for i in chosen)), 1.0)


def grade_text(answers: Sequence[Answer], usecase: bool, response: str) -> float:
    return _first(answers, lambda a: a.text == "*" or wildcard_match(response, a.text, not usecase))


def grade_number(answers: Sequence[Answer], response: str) -> float:
    value = _number(response)
    if value is None:
        return 0.0
    return _first(answers, lambda a: within_tolerance(value, a))


Response = str | set[int] | Sequence[str] | Mapping[int, str]


def grade(q: Question, response: Response) -> float:
    """The fraction of the mark Moodle gives ``response``:

    multichoice: the positions (from 0) of the answers ticked; truefalse, shortanswer, numerical: the text typed or
    chosen ('true'/'false'); matching: the answer text chosen for each stem, in order; ordering:
    the answer texts in the order given; cloze: subquestion number (from 1) -> text typed or chosen.
    """
    if q.qtype == "multichoice":
        assert isinstance(response, set)
        return grade_choice(q.answers, bool(q.single), response)
    if q.qtype == "truefalse":
        return next((a.fraction for a in q.answers if a.text == response), 0.0)
    if q.qtype == "shortanswer":
        assert isinstance(response, str)
        return grade_text(q.answers, bool(q.usecase), response)
    if q.qtype == "numerical":
        assert isinstance(response, str)
        return grade_number(q.answers, response)
    if q.qtype == "matching":
        stems = [answer for stem, answer in q.subquestions if stem is not None]
        assert isinstance(response, Sequence) and len(response) == len(stems)
        return sum(given == right for given, right in zip(response, stems)) / len(stems)
    if q.qtype == "ordering":
        assert q.gradingtype == "ALL_OR_NOTHING", q.gradingtype
        return 1.0 if list(response) == [a.text for a in q.answers] else 0.0
    if q.qtype == "cloze":
        assert isinstance(response, Mapping)
        total = 0.0
        for number, sub in enumerate(q.cloze, 1):
            given = response.get(number)
            if given is None:
                continue
            if sub.qtype == "multichoice":  # the first alternative showing that text (its text is HTML)
                shown = " ".join(given.split())
                position = next((i for i, a in enumerate(sub.answers) if html_text(a.text) == shown), None)
                fraction = grade_choice(sub.answers, bool(sub.single), {position}) if position is not None else 0.0
            elif sub.qtype == "shortanswer":
                fraction = grade_text(sub.answers, bool(sub.usecase), given)
            else:
                fraction = grade_number(sub.answers, given)
            total += fraction * sub.mark
        return total / sum(s.mark for s in q.cloze)
    raise ValueError(f"Moodle grades no response to a {q.qtype} question automatically")


# -- calculated questions: question/type/calculated ----------------------------------------------


def dataset_count(q: Question) -> int:
    """qtype_calculated_dataset_loader::get_number_of_items: the fewest items of any dataset."""
    return min(len(items) for items in q.datasets.values())


def dataset_values(q: Question, item: int) -> dict[str, str]:
    """qtype_calculated_dataset_loader::load_values: every wildcard's value of item ``item`` (from 1)."""
    return {name: items[item] for name, items in q.datasets.items()}


def calculated_value(formula: str, values: Mapping[str, str]) -> float:
    """qtype_calculated_variable_substituter::calculate: the values put in for the wildcards,
    then the formula computed as PHP computes it (helpers/lms_formulas.py)."""
    from helpers.lms_formulas import moodle_eval

    return moodle_eval(formula, dict(values))


def _shown_formula(text: str) -> str:
    """The formula of a calculatedmulti answer's ``{=...}`` (replace_expressions_in_text's
    pattern ``{=([^{}]*(?:{[^{}]+}[^{}]*)*)}``)."""
    found = re.fullmatch(r"\{=([^{}]*(?:\{[^{}]+}[^{}]*)*)\}", html.unescape(html_text(text)).strip())
    assert found, f"Moodle computes nothing in the answer {text!r}"
    return found.group(1)


def replace_expressions_in_text(text: str, values: Mapping[str, str], length: int | None = None,
                                format: int | None = None) -> str:
    """qtype_calculated_variable_substituter::replace_expressions_in_text, what a student is shown:
    each ``{=formula}`` (FORMULAS_IN_TEXT_REGEX) computed and formatted by format_float (format 1:
    ``sprintf('%.<length>F')``; without a length, the value as PHP prints it), then each
    ``{name}`` replaced by its value as the dataset item holds it (substitute_values_pretty)."""
    assert format in (None, 1), "significant figures (format 2) are not ported"

    def computed(m: re.Match[str]) -> str:
        value = calculated_value(m.group(1), values)
        return f"{value:.{length}f}" if length is not None and format is not None else repr(value)

    text = FORMULA_IN_TEXT.sub(computed, text)
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def calculated_answers(q: Question, item: int) -> list[float]:
    """Each answer's value in set ``item``: calculate_all_expressions computes the answer's
    formula (calculated) or the ``{=formula}`` its text shows (calculatedmulti)."""
    values = dataset_values(q, item)
    if q.qtype == "calculatedmulti":
        return [calculated_value(_shown_formula(a.text), values) for a in q.answers]
    return [calculated_value(a.text, values) for a in q.answers]


def grade_calculated(q: Question, item: int, response: str | set[int]) -> float:
    """The fraction Moodle gives ``response`` in set ``item``: a number typed (calculated) or the
    positions of the answers ticked (calculatedmulti)."""
    if q.qtype == "calculatedmulti":
        assert isinstance(response, set)
        return grade_choice(q.answers, bool(q.single), response)
    assert isinstance(response, str)
    computed = [Answer(repr(v), a.fraction, tolerance=a.tolerance, tolerancetype=a.tolerancetype)
                for a, v in zip(q.answers, calculated_answers(q, item))]
    return grade_number(computed, response)


def bank_idnumbers(root: etree._Element) -> dict[str, list[str | None]]:
    """The ID number each question of a Moodle XML file keeps in the course, by the category it
    goes into (*Get category from file* ticked), in file order: None where it keeps none.

    ``qformat_default::importprocess`` (question/format.php): a ``category`` question moves the
    import into that path (``create_category_path``, which finds a category of that path again);
    a question's ``idnumber`` (``qformat_xml::getpath``, the text as ``xmlize`` gives it, trimmed)
    that is '' is unset, and one that ``question_bank_entries`` already has in that category is
    unset too ("We cannot have duplicate idnumbers in a category. Just remove it."): the question
    is imported without it, and the file is not refused. A backup's restore does the same
    (``restore_create_categories_and_questions::process_question_bank_entry``)."""
    stored: dict[str, list[str | None]] = {}
    current = ""
    for question in root.findall("question"):
        if question.get("type") == "category":
            current = (question.findtext("category/text") or "").strip()
            continue
        ident: str | None = (question.findtext("idnumber") or "").strip() or None
        kept = stored.setdefault(current, [])
        kept.append(ident if ident not in kept else None)
    return stored
