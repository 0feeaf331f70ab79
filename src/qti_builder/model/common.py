"""Building blocks shared by every question kind."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

#: Identifiers end up as QTI ``identifier`` values (xs:NCName), file names inside the package and
#: Moodle ``idnumber``s, so they are restricted to what all three accept unchanged.
IDENTIFIER_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"
Identifier = Annotated[str, StringConstraints(pattern=IDENTIFIER_PATTERN)]

#: Rich text is kept as Markdown source in the model: neutral, so every writer renders it its own
#: way (QTI XHTML, Moodle HTML) and nothing target-specific leaks into the model.
Markdown = Annotated[str, Field(json_schema_extra={"contentMediaType": "text/markdown"})]

Points = Annotated[float, Field(ge=0, le=10000)]


class ModelBase(BaseModel):
    """Strict models: unknown keys in a YAML source are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=False, str_strip_whitespace=True)


class Feedback(ModelBase):
    """Feedback shown after answering. ``general`` is shown whatever the answer."""

    general: Markdown | None = None
    correct: Markdown | None = None
    partially_correct: Markdown | None = None
    incorrect: Markdown | None = None
