"""Every question kind is complete: one spec, whose every part each stage's table finds, and every
kind seen through the stages a user meets (its preview, and its way out to each target and back).

A new kind fails here, naming the part and the stage's table it lacks, until its spec
(src/qti_builder/kinds.py) has every part; the README's "Adding a question kind" says what a part is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lxml.html
import pytest
from helpers import ROOT
from helpers.roundtrip import calculated_after, expected_after, questions_of

import qti_builder.importers.qti21.item
import qti_builder.readers.markdown.questions
import qti_builder.summary
import qti_builder.writers.markdown_source
import qti_builder.writers.moodle_backup
from qti_builder import profiles
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.importers.qti21.item import INTERACTION_KINDS, READERS as QTI21_ITEM_READERS
from qti_builder.importers.qti21.item import CLAIMS, SEVERAL_INTERACTIONS, ItemReader
from qti_builder.kinds import KINDS, PARTS, TABLES, KindTable, docs_tables, resolve
from qti_builder.model import QUESTION_CLASSES, Quiz
from qti_builder.pipeline import BuildOptions, build
from qti_builder.preview import PREVIEW_KINDS, build_preview
from qti_builder.readers import read_quiz
from qti_builder.writers import WRITERS
from qti_builder.writers.markdown_source import read_back, write_source

#: Every stage's table (importing the stages made them: the writers are imported when first named,
#: and profiles makes its own when asked).
assert all(writer.adapters is not None for writer in WRITERS.values()) and profiles.CANVAS_KIND_CHECKS is not None
STAGE_TABLES: dict[str, KindTable[Any]] = {f"{table.where} (KindSpec.{table.part})": table for table in TABLES}


def test_every_class_of_the_union_has_a_spec_in_its_order() -> None:
    classes = [cls.__name__ for cls in QUESTION_CLASSES]
    specs = [spec.model.__name__ for spec in KINDS.values()]
    assert classes == specs, ("kinds.py KINDS must have one spec per class of the Question union (model/union.py), in its "
                               "order: the classes of model/questions.py, model/parametric.py, then model/kinds/ by module name")
    assert all(name == spec.model.model_fields["type"].default for name, spec in KINDS.items())


def test_every_part_of_a_spec_is_used_by_a_stage() -> None:
    """Each part of a spec has a table that reads it: a part no stage reads would be dead, and a
    stage's table that is written by hand again would be missing here."""
    assert sorted({table.part for table in TABLES}) == sorted(PARTS)
    writers = {name: writer.adapters for name, writer in WRITERS.items()}
    assert all(isinstance(adapters, KindTable) for adapters in writers.values()), "a writer's adapters are written by hand"


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_every_part_in_every_stage_s_table(kind: str) -> None:
    """The kind's spec has every part, and every function and template it names exists."""
    missing = [where for where, table in STAGE_TABLES.items() if kind not in table]
    if KINDS[kind].docs is None:
        missing.append("the docs' tables, docs/question-types.md and docs/source-format.md (KindSpec.docs)")
    assert not missing, f"kind '{kind}' has no part for: {'; '.join(missing)}"
    for where, table in STAGE_TABLES.items():
        entry = table[kind]
        for attribute in ("context", "view", "answer", "stem", "needs_type"):
            assert not hasattr(entry, attribute) or callable(getattr(entry, attribute)), f"{where}: {kind}.{attribute}"
        templates = [getattr(entry, name, None) for name in ("template", "answer_template")]
        absent = [t for t in templates if t and not (ROOT / "templates" / t).is_file()]
        assert not absent, f"kind '{kind}': {where} names templates that do not exist: {', '.join(absent)}"


def test_the_tables_hold_no_kind_that_does_not_exist() -> None:
    unknown = {where: [k for k in table if k not in KINDS] for where, table in STAGE_TABLES.items()}
    assert {where: kinds for where, kinds in unknown.items() if kinds} == {}


def test_the_docs_tables_of_the_kinds_are_made_from_their_specs() -> None:
    """Each table of every kind in the docs is the one the specs make: a kind adds its row in its
    spec (KindSpec.docs), and tools/kind_docs.py writes the tables."""
    for (page, name), table in docs_tables().items():
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        start, end = f"<!-- kinds: {name} -->\n", "\n<!-- kinds: end -->"
        assert start in text, f"docs/{page} has lost its '{start.strip()}' marker"
        begin = text.index(start) + len(start)
        assert text[begin:text.index(end, begin)] == table, (
            f"docs/{page}'s {name} table is not the kinds' specs': run .venv/bin/python tools/kind_docs.py")


def test_a_part_that_names_no_function_is_an_error_naming_the_kind_and_the_part(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from qti_builder.kinds import Writes

    monkeypatch.setitem(KINDS, "essay", replace(KINDS["essay"], canvas=Writes("canvas/item_essay.xml.j2", "writers.canvas:_gone")))
    table = KindTable("canvas", "a test's table", lambda part: resolve(part.context))
    TABLES.remove(table)
    with pytest.raises(LookupError, match=r"kind 'essay': KindSpec.canvas \(a test's table\) names what does not exist"):
        table["essay"]


def test_a_stage_asking_for_a_kind_without_its_part_is_told_the_part_and_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind whose spec lacks a part fails wherever a stage asks for it (a build, the preview, every
    test that reads the sources of every kind) with the part and the table named, not a bare
    KeyError of the kind's name; a name that is no kind stays a plain KeyError."""
    from dataclasses import replace

    monkeypatch.setitem(KINDS, "essay", replace(KINDS["essay"], preview=None))
    table = KindTable("preview", "a test's table", lambda part: part)
    TABLES.remove(table)
    with pytest.raises(KeyError, match=r"^kind 'essay' has no KindSpec.preview, which a test's table needs"):
        table["essay"]
    assert "essay" not in table and table.get("essay") is None
    with pytest.raises(KeyError, match=r"^'no_such_kind'$"):
        table["no_such_kind"]


def test_markdown_attributes_are_fields_of_their_kind() -> None:
    wrong = [f"{name}: {attribute}" for name, spec in KINDS.items() for attribute in spec.markdown_attributes
             if attribute not in spec.model.model_fields]
    assert wrong == []


def test_losses_name_a_profile() -> None:
    assert {profile for spec in KINDS.values() for profile in spec.losses} <= set(profiles.PROFILES)


def test_a_kind_s_preview_words_are_in_english_and_their_own() -> None:
    """English is the fallback, so every word has it; no kind's word takes another's or the preview's own key."""
    from qti_builder.i18n import PREVIEW

    seen: dict[str, str] = {}
    for name, spec in KINDS.items():
        english = set(spec.preview_words.get("en", {}))
        assert all(set(words) <= english for words in spec.preview_words.values()), name
        clashes = [k for k in english if k in PREVIEW["en"] or seen.setdefault(k, name) != name]
        assert clashes == [], f"{name}: {clashes}"


def test_every_kind_is_named_in_each_language_of_the_preview() -> None:
    """The preview's outline names each question's kind in its page's language: every language
    the preview has words in (i18n.py PREVIEW) besides English has a name for every kind, each
    its own."""
    from qti_builder.i18n import PREVIEW

    for language in set(PREVIEW) - {"en"}:
        names = [spec.names.get(language, "") for spec in KINDS.values()]
        assert all(names) and len(set(names)) == len(names), (language, names)
    assert {language for spec in KINDS.values() for language in spec.names} <= set(PREVIEW) - {"en"}


def test_the_qti21_importer_s_interaction_table_names_kinds_it_reads() -> None:
    """Every interaction's kind has a reader; a kind the importer tells by a method has that method;
    an interaction several specs claim has one kind that takes the items the others do not tell."""
    named = list(INTERACTION_KINDS.values()) + list(SEVERAL_INTERACTIONS.values())
    methods = [k for k in named if k.startswith("_")]
    assert [k for k in named if not k.startswith("_") and k not in QTI21_ITEM_READERS] == []
    assert [m for m in methods if not callable(getattr(ItemReader, m, None))] == []
    for interaction, claims in CLAIMS.items():
        rest = [name for name, tells in claims if tells is None]
        assert len(claims) == 1 or len(rest) == 1, (
            f"{interaction}: one of the kinds claiming it ({claims}) takes the items the others do not tell")
        assert all(callable(resolve(tells)) for _, tells in claims if tells), interaction


#: Kinds the QTI 2.1 importer finds by an item's template processing, not by its interaction: an
#: item template whose interaction is a numerical or a single-choice one (importers/qti21/calculated.py).
FROM_ITEM_TEMPLATES = {"calculated", "calculated_choice"}


@pytest.mark.parametrize("kind", [k for k in KINDS if k not in FROM_ITEM_TEMPLATES])
def test_the_qti21_importer_finds_each_kind_by_the_interaction_its_item_is_written_with(kind: str) -> None:
    """The interaction a kind's QTI 2.1 item is written with (KindSpec.qti21) is one its spec claims
    for the importer (KindSpec.qti21_import: one interaction, or a set of them, or none): the
    importer's tables of interactions are made from the specs, not written out in the importer."""
    spec = KINDS[kind]
    assert spec.qti21 is not None and spec.qti21_import is not None, f"kind '{kind}': KindSpec.qti21 or qti21_import is missing"
    written = spec.qti21.interaction
    if written is None:
        assert SEVERAL_INTERACTIONS.get(frozenset()) == kind, f"{kind}: an item without an interaction is not claimed"
    else:
        assert kind in [name for name, _ in CLAIMS.get(written, [])], (
            f"kind '{kind}': its QTI 2.1 items hold a {written}, which its KindSpec.qti21_import does not claim")


# -- every kind through the stages a user sees --------------------------------------------------------

#: Sources that hold every kind between them: the preview of each is rendered, and each is written
#: to every target and imported back. A kind added since has a fixture of its own,
#: tests/fixtures/kind-my-kind.yaml, which the tests that read every fixture read too.
EVERY_KIND = [ROOT / "tests/fixtures/all-types.yaml", ROOT / "tests/fixtures/calculated.md",
              *sorted((ROOT / "tests/fixtures").glob("kind-*.yaml"))]
TARGETS = {"qti21": ".qti21.zip", "moodle": ".moodle.xml", "canvas": ".canvas.zip"}
#: What a target cannot carry as the kind at all (each has a test of what it becomes instead).
NOT_CARRIED = {("canvas", "calculated_choice"): "a question group of its variants "
                                                 "(test_import_roundtrip.py::test_canvas_calculated_choice_comes_back_as_its_variants)"}


def _read(path: Path) -> Quiz:
    read = read_quiz(path, DiagnosticSink())
    assert read is not None, path
    return read[0]


def _kinds_in(paths: list[Path]) -> dict[str, list[str]]:
    """Question ids by kind, as the sources declare them."""
    found: dict[str, list[str]] = {}
    for path in paths:
        for q in _read(path).iter_questions():
            found.setdefault(q.type, []).append(q.id)
    return found


def test_the_sources_of_every_kind_hold_every_kind() -> None:
    assert set(_kinds_in(EVERY_KIND)) == set(KINDS), "write a question of the new kind in tests/fixtures/kind-my-kind.yaml"


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
    assert kind in PREVIEW_KINDS
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


def _alone(quiz: Quiz, question: Any) -> Quiz:
    """The quiz with only this question, in a section of its own."""
    section = quiz.sections[0].model_copy(update={"questions": [question], "sections": [], "select": None})
    return quiz.model_copy(update={"sections": [section]})


#: By target, by question id: (what a build and an import should give back, what the import gave
#: back, what the source `import` writes of the question in a quiz of its own reads back as).
RoundTrip = dict[str, dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]]]


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory: pytest.TempPathFactory) -> RoundTrip:
    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=EVERY_KIND, out_dir=out, jobs=1))
    found: RoundTrip = {target: {} for target in TARGETS}
    for source in EVERY_KIND:
        original = _read(source)
        for target, suffix in TARGETS.items():
            sink = DiagnosticSink()
            quizzes = import_path(out / f"{original.id}{suffix}", original.id, sink)
            assert not sink.errors, [d.render() for d in sink.errors]
            back = quizzes[0].quiz
            expected = {q["id"]: q for q in questions_of(expected_after(original, target))}
            got = {q.id: q for q in back.iter_questions()}
            for q in original.iter_questions():
                if q.id not in got:
                    found[target][q.id] = (expected[q.id], {}, None)
                    continue
                written = write_source(_alone(back, got[q.id]))
                reread = read_back(written.text, written.suffix) if written.suffix == ".md" else None
                again = next(reread.iter_questions()).model_dump() if reread is not None else None
                have = got[q.id].model_dump()
                if q.type.startswith("calculated"):
                    expected[q.id] = calculated_after(original, q, target)
                    for each in (have, again):
                        if each is not None:
                            each["variables"] = sorted(each["variables"], key=lambda v: v["name"])
                found[target][q.id] = (expected[q.id], have, again)
    return found


@pytest.mark.parametrize(("kind", "target"), [(k, t) for k in KINDS for t in TARGETS if (t, k) not in NOT_CARRIED])
def test_every_kind_is_written_to_every_target_and_imported_back(kind: str, target: str, round_trip: RoundTrip) -> None:
    """Built to the target, each question of the kind comes back from `qti-builder import` as the
    model the target can carry (helpers/roundtrip.py: a kind the target has no type for comes back
    as the kind it is written as), and the Markdown `import` writes of it reads back as that question.
    The pairs of NOT_CARRIED are not tried here: the test each names covers them."""
    as_markdown = 0
    for qid in _kinds_in(EVERY_KIND)[kind]:
        expected, got, again = round_trip[target][qid]
        assert got.get("type") == expected["type"], f"{qid}: {target} gave back {got.get('type')!r}"
        assert got == expected, qid
        if again is not None:
            assert again == got, f"{qid}: the Markdown written of it reads back otherwise"
            as_markdown += 1
    assert as_markdown, f"no {kind} question from {target} could be written as Markdown"
