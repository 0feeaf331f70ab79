"""Building blocks shared by every question kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Final, get_args, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

#: Identifiers end up as QTI ``identifier`` values (xs:NCName), file names inside the package and
#: Moodle ``idnumber``s, so they are restricted to what all three accept unchanged.
IDENTIFIER_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"
Identifier = Annotated[str, StringConstraints(pattern=IDENTIFIER_PATTERN)]

#: Rich text is kept as Markdown source in the model: neutral, so every writer renders it its own
#: way (QTI XHTML, Moodle HTML) and nothing target-specific leaks into the model.
class MarkdownText:
    """Marks a field as Markdown, so content checks can find every rich-text field by its type."""


Markdown = Annotated[str, MarkdownText(), Field(json_schema_extra={"contentMediaType": "text/markdown"})]
#: Rich text a student picks or places (a choice, a matching prompt or answer, an ordering item):
#: never empty. An empty option is a slip, shown as a blank option; Moodle's import drops an
#: answer whose text is blank, and its score with it (a single choice whose right answer was
#: empty arrives with no right answer, graded wrong for everyone).
ShownMarkdown = Annotated[str, MarkdownText(), Field(min_length=1, json_schema_extra={"contentMediaType": "text/markdown"})]

def _no_truth_value(value: Any) -> Any:
    """A number, not true/false: pydantic takes ``False`` for 0, and YAML reads ``points: no`` as
    false, so a slip would make a question worth nothing without a word."""
    if isinstance(value, bool):
        raise PydanticCustomError("float_type", "Input should be a valid number")
    return value


Points = Annotated[float, BeforeValidator(_no_truth_value), Field(ge=0, le=10000)]


def no_items() -> list[Any]:
    """A list field's default: ``Field(default_factory=no_items)``, an empty list. Not ``list``
    itself: pydantic asks each factory's signature whether it takes the validated data, and
    ``list``'s is parsed from its text (``ast``, ``tokenize``) for every field of every class
    that has one, inherited fields too: 43 times, about 5 ms of each start of the model."""
    return []


class Problem(ValueError):
    """A rule of the model that a value breaks, with how to fix it: the readers print ``hint``, and
    locate the problem at the field ``at`` of the object that breaks the rule when it is given."""

    def __init__(self, message: str, hint: str, at: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint
        self.at = at


#: Moodle's ID number columns (question_bank_entries.idnumber, question_categories.idnumber) hold
#: 100 characters.
MOODLE_IDNUMBER_LENGTH: Final = 100


def storable_idnumber(value: str) -> bool:
    """Whether Moodle keeps ``value`` as an ID number as it is: one line of text, without spaces at
    its ends, that fits its column."""
    return bool(value.strip()) and value == value.strip() and value.isprintable() and len(value) <= MOODLE_IDNUMBER_LENGTH


def checked_idnumber(value: str | None) -> str | None:
    """A ``moodle_idnumber`` (of a section's category, of a question) that Moodle keeps as it is,
    else the :class:`Problem` of it."""
    if value is not None and not value.strip():
        raise Problem("the Moodle ID number is empty", "write the ID number as Moodle shows it, or leave moodle_idnumber out")
    if value is not None and not storable_idnumber(value):
        raise Problem(f"the Moodle ID number {value!r} is not one line of at most {MOODLE_IDNUMBER_LENGTH} characters "
                      "without spaces at its ends", "write the ID number as Moodle shows it, or leave moodle_idnumber out")
    return value

class ModelBase(BaseModel):
    """Strict models: unknown keys in a YAML source are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=False, str_strip_whitespace=True)


class Feedback(ModelBase):
    """Feedback shown after answering. ``general`` is shown whatever the answer."""

    general: Markdown | None = None
    correct: Markdown | None = None
    partially_correct: Markdown | None = None
    incorrect: Markdown | None = None


def iter_markdown(node: Any, loc: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every Markdown text in a model object, with its path (the readers' source-map keys)."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from iter_markdown(item, loc + (i,))
        return
    if not isinstance(node, BaseModel):
        return
    for name, markdown in _text_fields(type(node)):
        value = getattr(node, name)
        if markdown and isinstance(value, str):
            yield loc + (name,), value
        elif markdown and isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    yield loc + (name, i), item
        elif isinstance(value, (list, BaseModel)):
            yield from iter_markdown(value, loc + (name,))


_TEXT_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _text_fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """The fields of a model class that may hold Markdown, in order, each with whether it is
    Markdown itself (else it may hold models or lists that do). Numbers, flags and identifiers
    are left out: every text of a quiz is walked at each build."""
    if cls not in _TEXT_FIELDS:
        hints = get_type_hints(cls, include_extras=True)
        _TEXT_FIELDS[cls] = tuple((name, _is_markdown(hints.get(name))) for name in cls.model_fields  # type: ignore[attr-defined]
                                  if _is_markdown(hints.get(name)) or _may_hold_text(hints.get(name)))
    return _TEXT_FIELDS[cls]


def _is_markdown(annotation: Any) -> bool:
    if annotation is None:
        return False
    if any(isinstance(meta, MarkdownText) for meta in getattr(annotation, "__metadata__", ())):
        return True
    return any(_is_markdown(arg) for arg in get_args(annotation))


def _may_hold_text(annotation: Any) -> bool:
    """Whether a field's value may be a list or a model (whose fields may hold Markdown)."""
    if annotation is None or annotation is Any:
        return True
    origin = getattr(annotation, "__origin__", None) or annotation
    if isinstance(origin, type) and (issubclass(origin, (list, BaseModel))):
        return True
    return any(_may_hold_text(arg) for arg in get_args(annotation))
