"""The quiz and its sections."""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Annotated, ClassVar, Final, Literal

from pydantic import Field, PrivateAttr, StringConstraints, field_validator, model_validator

from .common import MOODLE_IDNUMBER_LENGTH, Identifier, Markdown, ModelBase, Problem, checked_idnumber, no_items
from .parametric import MAX_SETS
from .questions import MultipleResponseQuestion, Scoring
from .union import Question

#: A question's id, taken in C (:meth:`Quiz._unique_ids`).
_ID = attrgetter("id")

#: Bumped when the model changes incompatibly; YAML sources may state the version they target.
SCHEMA_VERSION: Final = 1

LanguageTag = Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$")]

def scoped_idnumber(quiz_id: str, ident: str) -> str:
    """The Moodle ID number of the category of a quiz's section ``ident``: ``<quiz id>.<ident>``
    (category ID numbers are unique in the whole course, where two quizzes may both have a section
    'essay'); when that is too long for Moodle, the id alone. An id that begins with the quiz id
    and '-' or '_' (a Moodle course's own ID number, such as ``BIO-W3-CELLS`` under ``BIO-W3``,
    imported as it was) is unique to the quiz already: it is the ID number as it is."""
    if ident.startswith((f"{quiz_id}-", f"{quiz_id}_")):
        return ident
    full = f"{quiz_id}.{ident}"
    return full if len(full) <= MOODLE_IDNUMBER_LENGTH else ident


class Section(ModelBase):
    id: Identifier
    title: str = Field(min_length=1)
    description: Markdown | None = Field(None, description="Text shown before the section's questions.")
    questions: list[Question] = Field(default_factory=no_items)
    sections: list["Section"] = Field(default_factory=no_items, description="Nested sections.")
    shuffle: bool = False
    select: int | None = Field(None, ge=1, description="Draw this many questions at random.")
    moodle_idnumber: str | None = Field(
        default=None, description="The ID number of the section's Moodle category, written as it is, instead of "
                          "'<quiz id>.<section id>': a course's own ID number that an import keeps (such as 'CELLS').")
    #: Set on a copy that holds only some of the questions (a chunk of a big build), so that it
    #: still knows what its first question is worth.
    _group_points: float | None = PrivateAttr(default=None)

    @field_validator("moodle_idnumber")
    @classmethod
    def _storable_idnumber(cls, value: str | None) -> str | None:
        """What Moodle keeps as it is: one line of text, without spaces at its ends, that fits its column."""
        return checked_idnumber(value)

    def category_idnumber(self, quiz_id: str) -> str:
        """The ID number of the section's Moodle category: its own, else :func:`scoped_idnumber`'s."""
        return self.moodle_idnumber if self.moodle_idnumber is not None else scoped_idnumber(quiz_id, self.id)

    def group_points(self) -> float | None:
        """What every question of a drawn section is worth where a group has one value per
        question (a Canvas question group): its first question's points."""
        if self._group_points is not None:
            return self._group_points
        return self.questions[0].points if self.questions else None

    @model_validator(mode="after")
    def _select_fits(self) -> "Section":
        available = len(self.questions) + len(self.sections)
        if self.select and self.select > available:
            raise Problem(f"section '{self.id}' draws {self.select} but holds only {available}",
                          f"set select to at most {available}, or add questions to the section", at="select")
        return self


class QuizSettings(ModelBase):
    """How the quiz runs, for the targets that can carry it (docs/source-format.md#quiz-settings).

    Every field is optional: unset means "the LMS's default", and nothing is written for it.
    """

    time_limit: int | None = Field(default=None, ge=1, le=10080, description="Minutes a student has, once started (1 to 10080).")
    allowed_attempts: Annotated[int, Field(ge=1, le=1000)] | Literal["unlimited"] | None = Field(
        default=None, description="How many times a student may take the quiz (a number from 1, or 'unlimited')."
    )
    shuffle_answers: bool | None = Field(
        default=None,
        description="Show the options of choice questions in a random order: the LMS's quiz-wide switch. "
                    "(QTI 2.1 and Moodle XML shuffle per question, by each question's own shuffle.)",
    )
    show_correct_answers: bool | None = Field(default=None, description="Show students the correct answers after they submit.")
    one_question_at_a_time: bool | None = Field(default=None, description="Show one question per page.")
    lock_questions_after_answering: bool | None = Field(
        default=None, description="Sequential navigation: students move forward only and cannot go back to earlier "
                                  "questions (with one question at a time, each question is locked once left).")
    grading_method: Literal["highest", "average", "first", "last"] | None = Field(
        default=None, description="Which attempt's grade counts when several are allowed: highest, average, first or last.")
    quiz_type: Literal["graded", "practice"] | None = Field(
        default=None, description="'graded' counts toward the grade; 'practice' does not."
    )
    qti_variants: int | None = Field(
        default=None, ge=0, le=MAX_SETS,
        description="QTI 2.1 package only: write each calculated question as this many fixed items (its first sets), "
                    "in a section that draws one, for QTI players that run no item templates; 0 (or unset): one item template.",
    )

    scoring: Scoring | None = Field(
        default=None, description="The scoring rule of every multiple-response question that states neither its own nor "
                                  "option scores nor negative_marking: partial, all_or_nothing or exam.")
    incomplete_points: float | None = Field(
        default=None, gt=0, description="With scoring: exam, the points for some of the right options and no wrong one, "
                                        "for each question that does not state its own.")

    #: Settings of how one output is written rather than of how the quiz runs, by the target they
    #: belong to: the other targets neither carry nor lose them.
    OUTPUT_SETTINGS: ClassVar[dict[str, str]] = {"qti_variants": "qti21"}
    #: Settings that are defaults of the questions' own fields: the questions carry them (or name
    #: their losses), so no target loses them as settings.
    QUESTION_DEFAULTS: ClassVar[frozenset[str]] = frozenset({"scoring", "incomplete_points"})

    @field_validator("time_limit", "allowed_attempts", "qti_variants", mode="before")
    @classmethod
    def _no_flags_for_numbers(cls, value: object) -> object:
        # Lax integers take true as 1: "allowed_attempts: yes" must not mean one attempt.
        if isinstance(value, bool):
            raise ValueError("a number is needed, not true or false")
        return value

    @field_validator("allowed_attempts", "quiz_type", "grading_method", mode="before")
    @classmethod
    def _words_in_any_case(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    def given(self) -> dict[str, object]:
        """The settings the source states, by name (for reports and for targets that list them)."""
        return {name: value for name, value in self.model_dump().items() if value is not None}


class Quiz(ModelBase):
    schema_version: Literal[1] = SCHEMA_VERSION
    id: Identifier = Field(description="Names the output files: dist/<id>.qti21.zip, dist/<id>.moodle.xml.")
    title: str = Field(min_length=1)
    description: Markdown | None = None
    language: LanguageTag = "en"
    settings: QuizSettings = Field(
        default_factory=QuizSettings,
        description="How the quiz runs in the LMS: time limit, attempts, shuffling, correct answers, paging, navigation, "
                    "which attempt counts, graded or practice.",
    )
    sections: list[Section] = Field(min_length=1)
    stated_points: float | None = Field(
        default=None, ge=0,
        description="The total the paper states for itself ('총점 42', '100点満点', 'total: 42' in front matter): "
                    "the questions' points must add up to it (QB219).",
    )
    moodle_idnumber: str | None = Field(
        default=None, description="The ID number of the quiz's own Moodle category, written as it is, instead of the quiz "
                                  "id: a course's own ID number that is no id ('BIO W3'), which an import keeps.")

    @field_validator("moodle_idnumber")
    @classmethod
    def _storable_idnumber(cls, value: str | None) -> str | None:
        return checked_idnumber(value)

    def category_idnumber(self) -> str:
        """The ID number of the quiz's own Moodle category: its own, else the quiz id. Its
        sections' are made from the quiz id all the same (:func:`scoped_idnumber`)."""
        return self.moodle_idnumber if self.moodle_idnumber is not None else self.id

    def iter_sections(self) -> Iterator[tuple[tuple[Section, ...], Section]]:
        """Every section, depth first, with the path of its ancestors."""

        def walk(path: tuple[Section, ...], sections: list[Section]) -> Iterator[tuple[tuple[Section, ...], Section]]:
            for s in sections:
                yield path, s
                yield from walk(path + (s,), s.sections)

        yield from walk((), self.sections)

    def iter_questions(self) -> Iterator[Question]:
        for _, section in self.iter_sections():
            yield from section.questions

    @model_validator(mode="after")
    def _unique_ids(self) -> "Quiz":
        sections = [s for _, s in self.iter_sections()]
        ids = [s.id for s in sections]
        for s in sections:
            ids += map(_ID, s.questions)  # in C: a bank's 10,000 ids, once per read
        if len(set(ids)) < len(ids):
            # The repeated ones, worked out only when there are some.
            seen: set[str] = set()
            dupes: list[str] = []
            for ident in ids:
                if ident in seen:
                    dupes.append(ident)
                seen.add(ident)
            raise Problem(f"ids must be unique in a quiz, repeated: {', '.join(sorted(set(dupes)))}",
                          "rename one of each pair of repeated ids")
        if not any(True for _ in self.iter_questions()):
            raise Problem("the quiz has no questions", "add a question to a section's 'questions' list", at="sections")
        return self

    @model_validator(mode="after")
    def _quiz_scoring(self) -> "Quiz":
        """The quiz's scoring rule becomes that of each multiple-response question that states no
        scoring of its own (its own rule, option scores or negative_marking)."""
        rule, incomplete = self.settings.scoring, self.settings.incomplete_points
        if incomplete is not None and rule != "exam":
            raise Problem("the setting incomplete_points is the exam rule's", "add the setting scoring: exam, or remove "
                          "incomplete_points", at="settings")
        if rule is None or rule == "partial":
            return self
        for q in self.iter_questions():
            if not isinstance(q, MultipleResponseQuestion) or "scoring" in q.model_fields_set \
                    or q.negative_marking or any(c.score is not None for c in q.choices):
                continue
            if rule == "exam" and (incomplete is None or incomplete >= q.points):
                raise Problem(f"the setting scoring: exam needs incomplete_points below the points of question '{q.id}' "
                              f"({q.points:g})", "set incomplete_points for the quiz, or scoring and incomplete_points on "
                              "the question", at="settings")
            q.scoring = rule
            if rule == "exam":
                q.incomplete_points = incomplete
        return self


# -- Moodle XML's question categories: kept with the model, since the build's checks (QB238) and
# -- the Moodle writers must place questions into the same categories.

def category_name(title: str) -> str:
    """Moodle splits category paths on '/', and reads '//' as a literal slash."""
    return " ".join(title.split()).replace("/", "//")


def quiz_own_section(quiz: Quiz) -> Section | None:
    """The top-level section named as the quiz (a source without headings has one; an import
    makes one of the questions in the bank's own category), whose questions Moodle keeps in the
    quiz's category itself, not in a category of the same name below it. A description of its
    own, sections below it, or a category ID number of its own (``moodle_idnumber``, which the
    quiz's category, whose ID number is the quiz id, cannot carry) keep it a category."""
    for section in quiz.sections:
        if category_name(section.title) == category_name(quiz.title) and section.description in (None, quiz.description) \
                and not section.sections and section.moodle_idnumber is None:
            return section
    return None


def moodle_category_paths(quiz: Quiz) -> Iterator[tuple[tuple[str, ...], Section]]:
    """Every section with the path of the Moodle XML category its questions go into (category
    names below the course's top): sections of one title side by side share one, since Moodle's
    import finds a category again by its name (``create_category_path``)."""
    own = quiz_own_section(quiz)
    for ancestors, section in quiz.iter_sections():
        path = (quiz.title,) if section is own else (quiz.title, *(a.title for a in ancestors), section.title)
        yield tuple(category_name(p) for p in path), section
