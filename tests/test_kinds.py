"""Every question kind is complete: a spec, and an entry in every registry of every stage.

A new kind fails here, naming the registry that lacks it, until each stage knows how to handle it
(src/qti_builder/kinds.py and the README's "Adding a question kind" list them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from helpers import ROOT

from qti_builder.importers.qti21.kinds import READERS as QTI21_IMPORT_READERS
from qti_builder.kinds import KINDS
from qti_builder.model import QUESTION_CLASSES
from qti_builder.preview import PREVIEW_KINDS
from qti_builder.profiles import CANVAS_KIND_CHECKS, PROFILES
from qti_builder.readers.markdown.questions import BUILDERS
from qti_builder.summary import ANSWER_WORDS, TYPE_WORDS
from qti_builder.writers import WRITERS
from qti_builder.writers.markdown_source import MARKDOWN_FORMS

#: Every per-kind registry, by where it is.
REGISTRIES: dict[str, Mapping[str, Any]] = {
    **{f"writers/{name}.py {writer.__name__}.adapters": writer.adapters for name, writer in WRITERS.items()},
    "preview.py PREVIEW_KINDS": PREVIEW_KINDS,
    "readers/markdown/questions.py BUILDERS": BUILDERS,
    "writers/markdown_source.py MARKDOWN_FORMS": MARKDOWN_FORMS,
    "profiles.py CANVAS_KIND_CHECKS": CANVAS_KIND_CHECKS,
    "importers/qti21/kinds.py READERS": QTI21_IMPORT_READERS,
    "summary.py TYPE_WORDS": TYPE_WORDS,
    "summary.py ANSWER_WORDS": ANSWER_WORDS,
}


def test_every_class_of_the_union_has_a_spec_in_its_order() -> None:
    classes = [cls.__name__ for cls in QUESTION_CLASSES]
    specs = [spec.model.__name__ for spec in KINDS.values()]
    assert classes == specs, "kinds.py KINDS must have one spec per class of model/questions.py's Question union, in its order"
    assert all(name == spec.model.model_fields["type"].default for name, spec in KINDS.items())


@pytest.mark.parametrize("registry", REGISTRIES)
def test_every_registry_has_every_kind(registry: str) -> None:
    entries = REGISTRIES[registry]
    missing = [kind for kind in KINDS if kind not in entries]
    unknown = [kind for kind in entries if kind not in KINDS]
    assert not missing, f"{registry} has no entry for {', '.join(missing)}"
    assert not unknown, f"{registry} has entries for kinds that do not exist: {', '.join(unknown)}"


def test_every_template_of_every_kind_exists() -> None:
    templates = [(f"{name} {kind}", adapter.template) for name, writer in WRITERS.items()
                 for kind, adapter in writer.adapters.items()]
    templates += [(f"preview {kind}", t) for kind, view in PREVIEW_KINDS.items() for t in (view.template, view.answer_template) if t]
    missing = [f"{what}: {template}" for what, template in templates if not (ROOT / "templates" / template).is_file()]
    assert missing == []


def test_markdown_attributes_are_fields_of_their_kind() -> None:
    wrong = [f"{name}: {attribute}" for name, spec in KINDS.items() for attribute in spec.markdown_attributes
             if attribute not in spec.model.model_fields]
    assert wrong == []


def test_losses_name_a_profile() -> None:
    assert {profile for spec in KINDS.values() for profile in spec.losses} <= set(PROFILES)

