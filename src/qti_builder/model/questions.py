"""The first kinds' classes (the calculated kinds are in :mod:`.parametric`, a kind added since in
a module of its own in :mod:`.kinds`), joined in the :data:`~.union.Question` union on ``type``.

Adding a kind: its class in a module of its own in :mod:`.kinds`, which the union finds, then its
spec in :mod:`qti_builder.kinds`, which names every stage's part of it (the README's "Adding a
question kind" names every file). ``tests/test_kinds.py`` fails, naming what is missing, until the
spec has every part.
"""
from __future__ import annotations

import math
import re
from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from .common import Feedback, Identifier, Markdown, ModelBase, Points, Problem, ShownMarkdown, checked_idnumber, no_items


class QuestionBase(ModelBase):
    if TYPE_CHECKING:
        #: The kind's name: each kind's class declares its own, ``type: Literal["my_kind"] = "my_kind"``
        #: (the union is told apart by it). Declared here for type checkers only, which see the
        #: union as this class (see :mod:`.union`).
        type: str

    id: Identifier = Field(description="Stable identifier, unique in the quiz; kept when questions are reordered or edited.")
    title: str | None = Field(None, description="Short name shown in question banks; derived from the stem when absent.")
    stem: ShownMarkdown = Field(description="The question text (Markdown).")
    passage: Markdown | None = Field(
        default=None, description="Text the question shares with others (a reading passage, an instruction), shown to "
                          "students above the question text.")
    points: Points = 1.0
    feedback: Feedback = Field(default_factory=Feedback)
    tags: list[str] = Field(default_factory=no_items)
    ignore: list[Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[Qq][Bb][0-9]{3}$")]] = Field(
        default_factory=no_items, description="Warnings and losses the author accepts for this question, by code (QB601).")
    moodle_idnumber: str | None = Field(
        default=None, description="The question's Moodle ID number, written as it is, instead of its id: a course's own ID number "
                          "that an import keeps because it is no id ('W3 Q1', '세포-1', 'BIO-W3.Q1').")

    @field_validator("moodle_idnumber")
    @classmethod
    def _storable_idnumber(cls, value: str | None) -> str | None:
        return checked_idnumber(value)

    def bank_idnumber(self) -> str:
        """The question's ID number in a Moodle question bank: its own, else its id (unique in the
        quiz, so in its category too, all Moodle asks)."""
        return self.moodle_idnumber if self.moodle_idnumber is not None else self.id


#: A choice's id and whether it is correct, taken in C: the choice questions' validators run once
#: per question at every read (a 10,000-question bank's: 20,000 calls), and their loops over the
#: choices in Python were a fifth of its validation (bench/README.md).
_ID, _CORRECT = attrgetter("id"), attrgetter("correct")
RESERVED_CHOICE_IDS = {"general", "correct", "incorrect", "partial", "partially_correct", "solution"}


class Choice(ModelBase):
    id: Identifier
    text: ShownMarkdown
    correct: bool = False
    feedback: Markdown | None = None
    #: Kept in place when the choices are shuffled (e.g. "All of the above").
    fixed: bool = False
    #: Multiple response only: percent of the points this choice adds when selected (negative to
    #: subtract). Default: correct choices share 100 %, and each wrong one takes away one such
    #: share (or the wrong ones share -100 % with ``negative_marking``).
    score: float | None = Field(None, ge=-100, le=100)


#: How the options are numbered, as the source marks them (CSS counter-style names). Targets that
#: can number options show this style (or the nearest they have); None: A, B, C.
Numbering = Literal["upper-alpha", "lower-alpha", "lower-roman", "decimal", "parenthesized-decimal", "circled-decimal",
                    "hangul", "hangul-consonant", "katakana", "iroha", "none"]


class _ChoiceQuestionBase(QuestionBase):
    choices: list[Choice] = Field(min_length=2)
    shuffle: bool = True
    numbering: Numbering | None = Field(
        default=None, description="How the options are numbered (upper-alpha: A B C, lower-alpha, decimal: 1 2 3, "
                          "parenthesized-decimal: (1), circled-decimal: ① ② ③, hangul: 가 나 다, hangul-consonant: "
                          "ㄱ ㄴ ㄷ, katakana: ア イ ウ, iroha: イ ロ ハ, lower-roman: i ii iii, none: not numbered, as Moodle's 'no "
                          "numbering'); unset: A B C.")

    @model_validator(mode="after")
    def _unique_choice_ids(self) -> "_ChoiceQuestionBase":
        ids = list(map(_ID, self.choices))
        # Each rule tested in C first; the names for its message worked out only when it fails.
        if len(set(ids)) < len(ids):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise Problem(f"choice ids must be unique, repeated: {', '.join(dupes)}",
                          "give each choice its own id (A, B, C, ...)", at="choices")
        # The QTI writer names a choice's feedback "<id>_fb"; these ids would collide with the
        # question's own feedback names (general_fb, correct_fb, ...).
        if not RESERVED_CHOICE_IDS.isdisjoint(map(str.lower, ids)):
            reserved = sorted(i for i in ids if i.lower() in RESERVED_CHOICE_IDS)
            raise Problem(f"choice ids {', '.join(reserved)} are reserved for the names of feedback",
                          "use letters (A, B, C, ...) or other names as choice ids", at="choices")
        return self


class SingleChoiceQuestion(_ChoiceQuestionBase):
    """Exactly one correct choice."""

    type: Literal["single_choice"] = "single_choice"

    @model_validator(mode="after")
    def _exactly_one_correct(self) -> "SingleChoiceQuestion":
        n = sum(map(_CORRECT, self.choices))
        if n != 1:
            raise Problem(f"a single-choice question needs exactly one correct choice, found {n}",
                          "mark one choice 'correct: true'; for several correct choices, use 'type: multiple_response'"
                          if n else "mark the right choice with 'correct: true'", at="choices")
        return self


#: How a multiple-response question is scored (docs/question-types.md#scoring-rules): ``partial``,
#: each ticked option adds its score, the total kept between 0 and the points; ``all_or_nothing``,
#: the points for exactly the right options and 0 for anything else; ``exam``, the points for
#: exactly the right options, ``incomplete_points`` for some of the right options and no wrong
#: one, 0 for any wrong tick (the rule Chinese and Korean exam papers print:
#: 全部选对得6分，选对但不全得3分，有选错的得0分).
Scoring = Literal["partial", "all_or_nothing", "exam"]


class MultipleResponseQuestion(_ChoiceQuestionBase):
    """Any number of correct choices; partial credit that ticking every option cannot beat, or
    another scoring rule."""

    type: Literal["multiple_response"] = "multiple_response"
    negative_marking: bool = False
    scoring: Scoring = Field("partial", description="partial: each ticked option adds its score (a wrong one takes one "
                             "right option's share away), never below 0; all_or_nothing: the points only for exactly the "
                             "right options; exam: the points for exactly the right options, incomplete_points for some "
                             "right options and no wrong one, 0 for any wrong option.")
    incomplete_points: float | None = Field(None, gt=0, description="With scoring=exam: the points for some of the right "
                                            "options and no wrong one.")

    @model_validator(mode="after")
    def _at_least_one_correct(self) -> "MultipleResponseQuestion":
        if not any(c.correct for c in self.choices):
            raise Problem("a multiple-response question needs at least one correct choice",
                          "mark each right choice with 'correct: true'", at="choices")
        mismatched = [c.id for c in self.choices if c.score is not None and (c.score > 0) != c.correct]
        if mismatched:
            raise Problem(f"choices {', '.join(mismatched)}: a correct choice needs a positive score, a wrong one zero or less",
                          "give the correct choices scores above 0 and the wrong ones 0 or less", at="choices")
        total = sum(s for s in self.choice_scores().values() if s > 0)
        if abs(total - 100) > 0.01:
            raise Problem(f"the scores of the correct choices add up to {total:g} %, not 100 %",
                          "change the scores of the correct choices so that they add up to 100, or remove them to share "
                          "100 % equally", at="choices")
        return self

    @model_validator(mode="after")
    def _scoring_rule(self) -> "MultipleResponseQuestion":
        if self.scoring == "exam":
            if self.incomplete_points is None or self.incomplete_points >= self.points:
                raise Problem("scoring=exam needs incomplete_points: the points for some of the right options, less than "
                              f"the question's {self.points:g}", f"write incomplete_points={self.points / 2:g}",
                              at="incomplete_points" if self.incomplete_points is not None else "scoring")
        elif self.incomplete_points is not None:
            raise Problem(f"incomplete_points is the exam rule's, and this question's scoring is {self.scoring}",
                          "add scoring=exam, or remove incomplete_points", at="incomplete_points")
        if self.scoring != "partial" and (self.negative_marking or any(c.score is not None for c in self.choices)):
            raise Problem(f"scoring={self.scoring} gives the points by the whole answer: option scores and negative_marking "
                          "have no part in it", "remove the {score=N} of the options and negative_marking, or use "
                          "scoring=partial", at="scoring")
        return self

    def choice_scores(self) -> dict[str, float]:
        """Percent of the points each choice adds when selected."""
        right = [c for c in self.choices if c.correct]
        wrong = [c for c in self.choices if not c.correct]
        scores = {}
        for c in self.choices:
            if c.score is not None:
                scores[c.id] = c.score
            elif c.correct:
                scores[c.id] = 100 / len(right)
            else:  # ticking every option never earns full marks
                scores[c.id] = -100 / len(wrong) if self.negative_marking else -100 / len(right)
        return scores

    def score_of(self, ticked: set[str]) -> float:
        """The fraction of the points (0 to 1) that ticking ``ticked`` earns by the question's
        rule: what every target's scoring is checked against."""
        right = {c.id for c in self.choices if c.correct}
        if self.scoring == "partial":
            total = sum(score for ident, score in self.choice_scores().items() if ident in ticked)
            return min(max(total / 100, 0.0), 1.0)
        if ticked == right:
            return 1.0
        if self.scoring == "exam" and ticked and ticked <= right:
            return (self.incomplete_points or 0) / self.points
        return 0.0


class TrueFalseQuestion(QuestionBase):
    """Labels come from the quiz language (True/False, 참/거짓, ...)."""

    type: Literal["true_false"] = "true_false"
    answer: bool
    labels: list[Annotated[str, Field(min_length=1, max_length=40)]] | None = Field(
        default=None, min_length=2, max_length=2,
        description="The two choices students see, true first, when not the quiz language's words: ['O', 'X'].")
    true_feedback: Markdown | None = Field(None, description="Shown to students who answered true.")
    false_feedback: Markdown | None = Field(None, description="Shown to students who answered false.")

    @model_validator(mode="after")
    def _two_labels(self) -> "TrueFalseQuestion":
        if self.labels is not None and self.labels[0].strip().lower() == self.labels[1].strip().lower():
            raise Problem(f"the true and false labels are both '{self.labels[0]}'",
                          "give two different labels, true first: ['O', 'X']", at="labels")
        return self


class TextAnswer(ModelBase):
    #: ``*`` matches any run of characters (Moodle's wildcard); write ``\\*`` for a literal star.
    text: str = Field(min_length=1)
    #: Percentage of the points this answer earns.
    score: float = Field(100, ge=0, le=100)
    feedback: Markdown | None = None


class ShortAnswerQuestion(QuestionBase):
    type: Literal["short_answer"] = "short_answer"
    answers: list[TextAnswer] = Field(min_length=1)
    case_sensitive: bool = False

    @model_validator(mode="after")
    def _has_full_answer(self) -> "ShortAnswerQuestion":
        if not any(a.score == 100 for a in self.answers):
            raise Problem("a short-answer question needs an answer worth 100 %",
                          "give one answer no score (it is then worth 100 %), or a score of 100", at="answers")
        return self


class NumericAnswer(ModelBase):
    value: float
    #: Absolute (``value ± tolerance``) or relative (``value ± tolerance %``) tolerance; a range
    #: ``a..b`` in a source is ``value=(a+b)/2`` with an absolute tolerance of ``(b-a)/2``.
    tolerance: float = Field(0, ge=0)
    tolerance_mode: Literal["absolute", "percent"] = "absolute"
    score: float = Field(100, ge=0, le=100)
    feedback: Markdown | None = None

    def bounds(self) -> tuple[float, float]:
        delta = abs(self.value) * self.tolerance / 100 if self.tolerance_mode == "percent" else self.tolerance
        return self.value - delta, self.value + delta


class NumericalQuestion(QuestionBase):
    type: Literal["numerical"] = "numerical"
    answers: list[NumericAnswer] = Field(min_length=1)
    #: Shown after the answer box; answers are in this unit.
    unit: str | None = None

    @model_validator(mode="after")
    def _has_full_answer(self) -> "NumericalQuestion":
        if not any(a.score == 100 for a in self.answers):
            raise Problem("a numerical question needs an answer worth 100 %",
                          "give one answer no score (it is then worth 100 %), or a score of 100", at="answers")
        return self


class EssayQuestion(QuestionBase):
    type: Literal["essay"] = "essay"
    model_answer: Markdown | None = Field(None, description="Shown to graders, not to students.")
    response_format: Literal["editor", "plain", "monospaced"] = "editor"
    expected_lines: int = Field(15, ge=1, le=200)
    min_words: int | None = Field(None, ge=1)
    max_words: int | None = Field(None, ge=1)
    attachments: int = Field(0, ge=0, le=20)

    @model_validator(mode="after")
    def _word_limits(self) -> "EssayQuestion":
        if self.min_words and self.max_words and self.min_words > self.max_words:
            raise Problem(f"min_words ({self.min_words}) is more than max_words ({self.max_words})",
                          "make min_words no larger than max_words", at="min_words")
        return self


class FileUploadQuestion(QuestionBase):
    """The student uploads files; graded by a person."""

    type: Literal["file_upload"] = "file_upload"
    max_files: int = Field(1, ge=1, le=20)
    #: File name extensions such as ``.pdf``; empty means any type.
    allowed_types: list[Annotated[str, Field(pattern=r"^\.[A-Za-z0-9]{1,10}$")]] = Field(default_factory=no_items)
    model_answer: Markdown | None = Field(None, description="Shown to graders, not to students.")


class MatchPair(ModelBase):
    prompt: ShownMarkdown
    answer: ShownMarkdown


class MatchingQuestion(QuestionBase):
    type: Literal["matching"] = "matching"
    pairs: list[MatchPair] = Field(min_length=2)
    distractors: list[ShownMarkdown] = Field(default_factory=no_items)
    shuffle: bool = True


class OrderingQuestion(QuestionBase):
    """Students put the items in order; they are always shown shuffled."""

    type: Literal["ordering"] = "ordering"
    #: The items in their correct order.
    items: list[ShownMarkdown] = Field(min_length=2)


NonEmpty = Annotated[str, Field(min_length=1)]


class Blank(ModelBase):
    id: Identifier
    kind: Literal["text", "dropdown"] = "text"
    answers: list[NonEmpty] = Field(
        min_length=1, description="Accepted answers. A dropdown shows all of them plus the options; each one is correct."
    )
    options: list[NonEmpty] = Field(default_factory=no_items, description="Wrong options of a dropdown blank.")
    points: Points | None = Field(
        default=None,
        description="What this blank is worth. When one blank states it, every blank of the question does, "
                    "and the question is worth their sum; when none does, the question's points are shared equally.")

    @model_validator(mode="after")
    def _dropdown_has_a_choice(self) -> "Blank":
        if self.kind == "dropdown" and len(self.answers) + len(self.options) < 2:
            raise Problem(f"drop-down blank '{self.id}' needs at least one wrong option",
                          "add wrong options to the drop-down: [[*right | wrong]] in Markdown, 'options: [wrong]' in YAML")
        if self.kind == "text" and self.options:
            raise Problem(f"blank '{self.id}' has wrong options, but it is a text blank, which shows none",
                          "add 'kind: dropdown' to the blank to show its answers and options in a drop-down; "
                          "a text blank takes only 'answers'", at="options")
        return self


BLANK_MARKER = re.compile(r"\[\[([A-Za-z_][A-Za-z0-9_.-]*)\]\]")


class FillInBlankQuestion(QuestionBase):
    """The stem holds ``[[blank-id]]`` markers, one per blank; the points are shared equally, unless
    the blanks state what each is worth (then the question is worth their sum)."""

    type: Literal["fill_in_blank"] = "fill_in_blank"
    blanks: list[Blank] = Field(min_length=1)
    case_sensitive: bool = False

    @model_validator(mode="after")
    def _markers_match_blanks(self) -> "FillInBlankQuestion":
        markers = BLANK_MARKER.findall(self.stem)
        ids = [b.id for b in self.blanks]
        if sorted(markers) != sorted(ids) or len(set(ids)) != len(ids):
            missing = sorted(set(ids) - set(markers)) or sorted(set(markers) - set(ids))
            raise Problem(
                f"the stem's blanks [[...]] ({', '.join(markers) or 'none'}) must match the blanks defined "
                f"({', '.join(ids)}), each once",
                f"write one marker [[id]] in the stem for each blank (such as [[{(missing or ids)[0]}]]), and define each blank once",
                at="stem",
            )
        return self

    @model_validator(mode="after")
    def _points_are_the_blanks_sum(self) -> "FillInBlankQuestion":
        stated = [b.points for b in self.blanks if b.points is not None]
        if not stated:
            return self
        if len(stated) != len(self.blanks):
            missing = next(b.id for b in self.blanks if b.points is None)
            raise Problem(f"some blanks state their points and blank '{missing}' does not: when one blank states "
                          "what it is worth, every blank does",
                          "give every blank its points ([[answer]]{points=2} in Markdown, 'points: 2' in YAML), "
                          "or none, to share the question's points equally", at="blanks")
        total = sum(stated)
        if "points" in self.model_fields_set and not math.isclose(self.points, total, abs_tol=1e-9):
            raise Problem(f"the question is worth {self.points:g} points, but its blanks' points add up to {total:g}",
                          "remove the question's points (it is worth the sum of its blanks' points), or make them agree",
                          at="points")
        # The question's points follow from its blanks (assignment is not validated again).
        self.points = total
        return self

    def blank_points(self) -> list[float]:
        """What each blank is worth, in the order of ``blanks``: as stated, else an equal share."""
        return [b.points if b.points is not None else self.points / len(self.blanks) for b in self.blanks]

    @property
    def unequal_blanks(self) -> bool:
        """True when the blanks are not all worth the same."""
        worth = self.blank_points()
        return any(not math.isclose(w, worth[0]) for w in worth)

