"""A chunk's content digest (``cache.chunk_content``), what a chunk's key in the build cache is
made of: it must change with anything of the chunk a writer reads (the quiz's own fields, each
section's, the sections' nesting, which section holds which question, every question's every
field, of every kind), or a rebuild would take a stale chunk's documents from the cache. It is
made of each question as its own class serializes it (``cache._canonical_json``), not of the
chunk's JSON as a whole: the two must tell the same models apart."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from qti_builder.cache import _canonical_json, chunk_content
from qti_builder.media import MediaSet
from qti_builder.model import Quiz

FIXTURES = Path(__file__).parent / "fixtures"


def _data() -> dict[str, Any]:
    """Every question kind (all-types.yaml), with a section nested in another."""
    data: dict[str, Any] = yaml.safe_load((FIXTURES / "all-types.yaml").read_text("utf-8"))
    first = data["sections"][0]
    first["sections"] = [{"id": "inner", "title": "Inner", "questions": [first["questions"].pop()]}]
    return data


def _content(data: dict[str, Any]) -> str:
    return chunk_content(Quiz.model_validate(data), MediaSet())


def _changes() -> list[tuple[str, dict[str, Any]]]:
    """The quiz's data changed in one place each, every change one a writer sees."""
    changes: list[tuple[str, dict[str, Any]]] = []

    def change(name: str, how: Any) -> None:
        data = _data()
        how(data)
        try:
            Quiz.model_validate(data)
        except ValueError:  # a change the kind does not take (a text without points)
            return
        changes.append((name, data))

    change("quiz title", lambda d: d.update(title="Another title"))
    change("quiz setting", lambda d: d["settings"].update(time_limit=46))
    change("section title", lambda d: d["sections"][1].update(title="Renamed"))
    change("inner section title", lambda d: d["sections"][0]["sections"][0].update(title="Renamed"))
    change("section shuffle", lambda d: d["sections"][0].update(shuffle=False))

    def unnest(d: dict[str, Any]) -> None:  # the inner section made the outer one's sibling, right after it
        d["sections"].insert(1, d["sections"][0].pop("sections")[0])

    change("nesting", unnest)

    def move_last_question(d: dict[str, Any]) -> None:  # the same questions in the same order, another section
        d["sections"][0]["sections"][0]["questions"].insert(0, d["sections"][0]["questions"].pop())

    change("question's section", move_last_question)
    for s, section in enumerate(_data()["sections"]):
        for q, question in enumerate(section["questions"]):
            if question.get("stem") is not None:
                change(f"{question['type']} stem", lambda d, s=s, q=q: d["sections"][s]["questions"][q].update(
                    stem=d["sections"][s]["questions"][q]["stem"] + " (edited)"))
            change(f"{question['type']} points", lambda d, s=s, q=q: d["sections"][s]["questions"][q].update(points=17))
    return changes


def test_the_fixture_is_every_kind_nested() -> None:
    quiz = Quiz.model_validate(_data())
    assert len({q.type for q in quiz.iter_questions()}) >= 10
    assert any(len(path) == 1 for path, _ in quiz.iter_sections())


def test_the_same_chunk_the_same_content() -> None:
    data = _data()
    assert _content(data) == _content(copy.deepcopy(data))


@pytest.mark.parametrize(("name", "changed"), _changes(), ids=[name for name, _ in _changes()])
def test_any_change_a_writer_sees_changes_the_content(name: str, changed: dict[str, Any]) -> None:
    base, other = Quiz.model_validate(_data()), Quiz.model_validate(changed)
    assert base.model_dump_json() != other.model_dump_json()  # the change is one the model keeps
    assert _content(_data()) != _content(changed)
    # and without the group points beside it, which see some of these changes too
    assert _canonical_json(base) != _canonical_json(other)
