"""The text-only item: text shown between questions, scoring nothing."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from ..common import Points, Problem
from ..questions import QuestionBase


class TextOnlyItem(QuestionBase):
    """Text shown between questions; scores nothing."""

    type: Literal["text_only"] = "text_only"
    points: Points = 0

    @field_validator("points")
    @classmethod
    def _scores_nothing(cls, value: float) -> float:
        # Every output writes a text-only item worth 0: points given to one would be dropped
        # without a word while the quiz's stated total counted them.
        if value != 0:
            raise Problem(f"a text-only item scores nothing, so it cannot be worth {value:g} points",
                          "leave points out of the text-only item, or make it a question that students answer")
        return value
