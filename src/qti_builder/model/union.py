"""The :data:`Question` union: every kind's class, told apart by ``type``.

Its own module, above the kinds' modules (:mod:`.questions`, and :mod:`.parametric` whose calculated
kinds build on the classes of :mod:`.questions`), so that neither of those imports the other back.
"""

from __future__ import annotations

from typing import Annotated, Union, get_args

from pydantic import Field

from .parametric import CalculatedChoiceQuestion, CalculatedQuestion
from .questions import (EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion, MultipleResponseQuestion,
                        NumericalQuestion, OrderingQuestion, QuestionBase, ShortAnswerQuestion, SingleChoiceQuestion,
                        TextOnlyItem, TrueFalseQuestion)

Question = Annotated[
    Union[
        SingleChoiceQuestion,
        MultipleResponseQuestion,
        TrueFalseQuestion,
        ShortAnswerQuestion,
        NumericalQuestion,
        EssayQuestion,
        FileUploadQuestion,
        MatchingQuestion,
        OrderingQuestion,
        FillInBlankQuestion,
        CalculatedQuestion,
        CalculatedChoiceQuestion,
        TextOnlyItem,
    ],
    Field(discriminator="type"),
]

#: The union's classes, in its order.
QUESTION_CLASSES: tuple[type[QuestionBase], ...] = get_args(get_args(Question)[0])
