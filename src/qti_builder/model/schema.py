"""The JSON Schema of a quiz *source*, for editors (``qti-builder schema``).

It is the model's own schema, adjusted to what a source may leave out or must say: the quiz ``id``
defaults to the file name, and every question must name its ``type`` (the union is decided by it,
although each class has it as a default).
"""

from __future__ import annotations

from typing import Any

from .quiz import SCHEMA_VERSION, Quiz


def source_json_schema() -> dict[str, Any]:
    schema = Quiz.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["description"] = f"A qti-builder quiz source (model version {SCHEMA_VERSION})."
    schema["required"] = [key for key in schema.get("required", []) if key != "id"]
    for definition in schema.get("$defs", {}).values():
        kind = definition.get("properties", {}).get("type", {})
        if "const" in kind:
            definition["required"] = sorted({*definition.get("required", []), "type"})
    return schema
