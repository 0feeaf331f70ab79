"""A chunk's result taken out of the result of a chunk before (``pipeline._part_of``, as a watch's
``_parted`` and a rebuild by hand's ``_parted_by_hand`` call it) against rendering its questions
now."""

from __future__ import annotations

from collections.abc import Callable

from qti_builder import pipeline


def differences_from_rendered(parted: pipeline.TaskResult, fresh: pipeline.TaskResult) -> list[str]:
    """What of ``parted`` is not what rendering its task now made (``fresh``): its output, its
    documents, zip entries and their questions, facts, in the same order, and the summary the
    rules across the package's files are keyed by (its own questions', not its chunk's); and
    "diagnostics" when the render found any."""
    same = {"diagnostics": not fresh.diagnostics,
            "output": (parted.filename, parted.archive, parted.container) == (fresh.filename, fresh.archive, fresh.container),
            "parts": [(d.path, d.schema, d.question_id, d.content) for d in parted.parts]
            == [(d.path, d.schema, d.question_id, d.content) for d in fresh.parts],
            "entries": parted.entries == fresh.entries and parted.entry_questions == fresh.entry_questions,
            "facts": dict(parted.facts) == dict(fresh.facts) and list(parted.facts) == list(fresh.facts),
            "summary": pipeline._summary(parted) == pipeline._summed(fresh)}
    return [what for what, ok in same.items() if not ok]


def compare_with_rendered(parted: pipeline.TaskResult, render: Callable[..., pipeline.TaskResult],
                          compared: list[tuple[str, int]], differ: list[str]) -> None:
    """Inside a build: ``parted``'s task rendered now by ``render`` (``pipeline._rendered`` as it
    was before a test counted its calls), its (target, questions) added to ``compared`` and each
    difference (:func:`differences_from_rendered`) to ``differ``."""
    state = pipeline._state
    assert state is not None
    task = parted.task
    fresh = render(task, state.loaded[task.quiz], state.chunks[task])
    compared.append((task.format, len(task.questions)))
    differ.extend(f"{task.format} {task.questions[0]}+{len(task.questions)}: {what}"
                  for what in differences_from_rendered(parted, fresh))
