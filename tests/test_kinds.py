"""Every question kind is complete: a spec, and an entry in every registry of every stage.

A new kind fails here, naming the registry that lacks it, until each stage knows how to handle it
(src/qti_builder/kinds.py and the README's "Adding a question kind" list them).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from helpers import ROOT
from test_import_roundtrip import CALCULATED
from test_import_roundtrip import SOURCES as ROUND_TRIPPED

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.pipeline import BuildOptions
from qti_builder.preview import build_preview
from qti_builder.readers import read_quiz

from qti_builder.importers.qti21.item import INTERACTION_KINDS, SEVERAL_INTERACTIONS, ItemReader
from qti_builder.importers.qti21.item import READERS as QTI21_ITEM_READERS
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



# -- every kind through the stages a user sees --------------------------------------------------------

#: Sources that hold every kind between them: the preview test renders them, and the round trips
#: (test_import_roundtrip.py) write and re-import them in every target.
EVERY_KIND = [ROOT / "tests/fixtures/all-types.yaml", ROOT / "tests/fixtures/calculated.md"]


def _kinds_in(paths: list[Path]) -> dict[str, list[str]]:
    """Question ids by kind, as the sources declare them."""
    found: dict[str, list[str]] = {}
    for path in paths:
        read = read_quiz(path, DiagnosticSink())
        assert read is not None, path
        for q in read[0].iter_questions():
            found.setdefault(q.type, []).append(q.id)
    return found


def test_the_sources_of_every_kind_hold_every_kind_and_are_round_tripped() -> None:
    assert set(_kinds_in(EVERY_KIND)) == set(KINDS), "add a question of the new kind to tests/fixtures/all-types.yaml"
    assert {str(p.relative_to(ROOT)) for p in EVERY_KIND} <= {str(p.relative_to(ROOT)) for p in ROUND_TRIPPED + [CALCULATED]}


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> dict[str, lxml.html.HtmlElement]:
    """Each question's <article> in the preview pages of the sources of every kind, by id."""
    out = tmp_path_factory.mktemp("preview")
    result = build_preview(BuildOptions(sources=EVERY_KIND, out_dir=out, jobs=1), out)
    assert not [d for d in result.diagnostics if d.severity == "error"]
    articles = {}
    for page in result.pages:
        if page.name != "index.html":
            articles.update({a.get("id")[2:]: a for a in lxml.html.parse(str(page)).getroot().iter("article")})
    return articles


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_s_preview_shows_its_question_and_for_an_answered_kind_its_answer(
        kind: str, preview: dict[str, lxml.html.HtmlElement]) -> None:
    """A kind whose preview template is broken renders no page, or an article without its parts."""
    spec = KINDS[kind]
    for qid in _kinds_in(EVERY_KIND)[kind]:
        article = preview[qid]
        assert article.get("data-type") == kind
        assert article.find_class("stem") and article.find_class("stem")[0].text_content().strip(), f"{qid}: no question text"
        answers = article.find_class("answer")
        if not spec.answered:
            assert answers == [], f"{qid}: a text-only item has no answer to show"
            continue
        assert answers, f"{qid}: the preview shows no answer"
        shown = " ".join(answers[0].text_content().split())
        assert len(shown) > len("Show answer"), f"{qid}: the answer shown is empty"


def test_the_qti21_importer_s_interaction_table_names_kinds_it_reads() -> None:
    """Every interaction's kind has a reader; a kind the importer tells by a method has that method."""
    named = list(INTERACTION_KINDS.values()) + list(SEVERAL_INTERACTIONS.values())
    methods = [k for k in named if k.startswith("_")]
    assert [k for k in named if not k.startswith("_") and k not in QTI21_ITEM_READERS] == []
    assert [m for m in methods if not callable(getattr(ItemReader, m, None))] == []
