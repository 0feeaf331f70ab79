"""``build --only``: a quiz cut down to some of its questions, for importing just what changed
(docs/updating.md). A question is named by its id, or ``<quiz id>/<question id>`` where two
quizzes have the same question id; ``diff --changed-only`` prints them in the second form."""

from __future__ import annotations

import re

from .model import Quiz
from .model.quiz import Section


def parse_only(values: list[str]) -> frozenset[str]:
    """``--only`` values: ids separated by commas or white space (one per line, as ``diff
    --changed-only`` prints them), the option given once or several times."""
    return frozenset(part for value in values for part in re.split(r"[\s,]+", value) if part)


def wanted(quiz_id: str, question_id: str, only: frozenset[str]) -> bool:
    return question_id in only or f"{quiz_id}/{question_id}" in only


def select_questions(quiz: Quiz, only: frozenset[str]) -> Quiz | None:
    """The quiz with just the questions ``only`` names, in their sections (sections left empty are
    left out; a random draw is capped at what is left); ``None`` when it has none of them."""

    def cut(section: Section) -> Section | None:
        questions = [q for q in section.questions if wanted(quiz.id, q.id, only)]
        sections = [s for s in (cut(child) for child in section.sections) if s is not None]
        if not questions and not sections:
            return None
        available = len(questions) + len(sections)
        select = min(section.select, available) if section.select else None
        return section.model_copy(update={"questions": questions, "sections": sections, "select": select})

    sections = [s for s in (cut(section) for section in quiz.sections) if s is not None]
    return quiz.model_copy(update={"sections": sections}) if sections else None


def named(quiz: Quiz) -> set[str]:
    """Every name ``--only`` may give a question of the quiz."""
    return {name for q in quiz.iter_questions() for name in (q.id, f"{quiz.id}/{q.id}")}
