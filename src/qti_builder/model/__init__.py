"""The canonical quiz model: what every reader produces and every writer consumes."""

from .common import IDENTIFIER_PATTERN, Feedback, Identifier, Markdown
from .parametric import CalculatedChoiceQuestion, CalculatedQuestion, Variable
from .questions import (
    Blank,
    Choice,
    EssayQuestion,
    FileUploadQuestion,
    FillInBlankQuestion,
    MatchingQuestion,
    MatchPair,
    MultipleResponseQuestion,
    NumericAnswer,
    NumericalQuestion,
    OrderingQuestion,
    QuestionBase,
    ShortAnswerQuestion,
    SingleChoiceQuestion,
    TextAnswer,
    TrueFalseQuestion,
)
from .kinds.text_only import TextOnlyItem
from .quiz import SCHEMA_VERSION, Quiz, QuizSettings, Section
from .union import QUESTION_CLASSES, Question

__all__ = [
    "IDENTIFIER_PATTERN", "Feedback", "Identifier", "Markdown", "QUESTION_CLASSES", "Blank", "CalculatedChoiceQuestion",
    "CalculatedQuestion", "Choice", "Variable",
    "EssayQuestion", "FileUploadQuestion", "FillInBlankQuestion", "MatchingQuestion", "MatchPair", "MultipleResponseQuestion",
    "NumericAnswer", "NumericalQuestion", "OrderingQuestion", "Question", "QuestionBase",
    "ShortAnswerQuestion", "SingleChoiceQuestion", "TextAnswer", "TextOnlyItem", "TrueFalseQuestion",
    "SCHEMA_VERSION", "Quiz", "QuizSettings", "Section",
]
