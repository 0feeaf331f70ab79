"""A watch's rebuild validates only what changed: the quiz's model validated with the top-level
sections and questions of the model this process last validated for the same source wherever
their data are the same, so that pydantic builds again only the sections and questions an edit
touched (a 10,000-question bank's model is 0.1-0.2 s to validate whole; bench/README.md).

Only in a process that keeps the build cache in memory (``build --watch``, :mod:`..memory`):
a one-off build keeps nothing, and unpickling a validated model costs what validating it does
(bench/README.md, "each section's checks apart").

Sound because a model object is a function of its data alone: the sections' and questions'
validators look at nothing but their own data, and the data are compared exactly, by their
``marshal`` bytes (which tell ``1``, ``1.0`` and ``True`` apart, where ``==`` does not, and
refuse anything but plain data: such a section is validated again). The quiz itself is always
validated, with every reused object inside it, so its own validators (unique ids, the scoring
rule) see the whole quiz; when validation with reused objects fails, the caller validates the
plain data and reports exactly what it always did.

A reused object must be as validation made it: nothing in the build changes a model object but
the quiz's scoring rule (``Quiz._quiz_scoring``, which sets each multiple-response question's own
rule), so a quiz with such a rule keeps nothing, and an object is reused in one place of a quiz
at most.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any

from .. import memory
from ..model import Question, Quiz, Section

#: Changes with what an entry holds.
_LAYOUT = "validated model 1"
#: marshal's format without shared references: the same data always gives the same bytes.
_MARSHAL_VERSION = 2


@dataclass(frozen=True)
class _Kept:
    """The model of a source as last validated: each top-level section's data, marshalled, and
    as it was, with the section validated from it."""

    sections: list[tuple[bytes | None, dict[str, Any], Section]]


def _key(path: str) -> str:
    return f"{_LAYOUT}\0{path}"


def _marshalled(value: Any) -> bytes | None:
    try:
        return marshal.dumps(value, _MARSHAL_VERSION)
    except ValueError:  # not plain data (a date a YAML source wrote): never taken as the same
        return None


def validated_reusing(data: dict[str, Any], path: str) -> Quiz | None:
    """The model of ``data`` (a source's at ``path``), validated with what this process kept of
    the last model validated for it where the data are the same; kept in turn. None when nothing
    is kept (not in a watch, the source's first build, a quiz that kept nothing) or the validation
    failed: the caller then validates ``data`` whole, as without this, and reports."""
    if not memory.keeping():
        return None
    found = memory.recall(_key(path))
    memory.remember(_key(path), None)  # taken: what is reused below is the new entry's, or nothing's
    raw = data.get("sections")
    if not isinstance(found, _Kept) or not isinstance(raw, list):
        return None
    old = {each: section for each, _, section in found.sections if each is not None}
    used: set[int] = set()
    marshalled = [_marshalled(section) for section in raw]
    given: list[Any] = []
    changed: list[int] = []
    for k, (each, section) in enumerate(zip(marshalled, raw)):
        same = old.get(each) if each is not None else None
        if same is not None and id(same) not in used:
            used.add(id(same))
            given.append(same)
        else:
            given.append(section)
            changed.append(k)
    if changed:
        questions = _questions_of([(each, data, section) for each, data, section in found.sections if id(section) not in used])
        for k in changed:
            if isinstance(raw[k], dict):
                given[k] = _with_questions(raw[k], questions, used)
    try:
        quiz = Quiz.model_validate({**data, "sections": given})
    except ValueError:  # pydantic's ValidationError: validated again whole, and reported, by the caller
        return None
    _keep(quiz, raw, marshalled, path)
    return quiz


def keep(quiz: Quiz, data: dict[str, Any], path: str) -> None:
    """Keep the model just validated from ``data`` (in a watch), for the next build's
    :func:`validated_reusing`."""
    if memory.keeping() and isinstance(data.get("sections"), list):
        _keep(quiz, data["sections"], [_marshalled(section) for section in data["sections"]], path)


def _keep(quiz: Quiz, raw: list[Any], marshalled: list[bytes | None], path: str) -> None:
    # A scoring rule for the quiz has changed its multiple-response questions after validation:
    # what it made of them is not what their data alone make, so none is kept.
    if quiz.settings.scoring not in (None, "partial") or len(quiz.sections) != len(raw):
        memory.remember(_key(path), None)
        return
    memory.remember(_key(path), _Kept([(each, data, section) for each, data, section in zip(marshalled, raw, quiz.sections)]))


def _questions_of(sections: list[tuple[bytes | None, dict[str, Any], Section]]) -> dict[bytes, list[Question]]:
    """The questions of the sections not reused whole, by their data marshalled."""
    found: dict[bytes, list[Question]] = {}

    def walk(data: dict[str, Any], section: Section) -> None:
        for question_data, question in zip(data.get("questions") or [], section.questions):
            each = _marshalled(question_data)
            if each is not None:
                found.setdefault(each, []).append(question)
        for child_data, child in zip(data.get("sections") or [], section.sections):
            if isinstance(child_data, dict):
                walk(child_data, child)

    for _, data, section in sections:
        walk(data, section)
    return found


def _with_questions(data: dict[str, Any], questions: dict[bytes, list[Question]], used: set[int]) -> dict[str, Any]:
    """A copy of a section's data (not changed: it is kept as the data the next build compares
    with) with each question whose data are a kept question's given as that question."""
    out = dict(data)
    if isinstance(data.get("questions"), list):
        given: list[Any] = []
        for question_data in data["questions"]:
            each = _marshalled(question_data)
            same = next((q for q in questions.get(each, []) if id(q) not in used), None) if each is not None else None
            if same is not None:
                used.add(id(same))
            given.append(same if same is not None else question_data)
        out["questions"] = given
    if isinstance(data.get("sections"), list):
        out["sections"] = [_with_questions(child, questions, used) if isinstance(child, dict) else child
                           for child in data["sections"]]
    return out


__all__ = ["keep", "validated_reusing"]
