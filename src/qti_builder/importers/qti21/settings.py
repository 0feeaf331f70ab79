"""The quiz settings an ``assessmentTest`` holds, read where the QTI 2.1 writer puts them and
Canvas reads them (writers.qti21.test_settings): the test's ``timeLimits/@maxTime`` (seconds),
the first test part's ``itemSessionControl/@maxAttempts`` (0: no limit) and ``@showSolution``,
and its ``navigationMode`` (linear: lock_questions_after_answering).

Everything else of the kind is reported, never dropped silently: time limits and session
controls on sections and items (the model's settings are the whole quiz's), a minimum time, late
submission and the other session controls when they differ
from QTI's defaults.
"""

from __future__ import annotations

from lxml import etree

from ...plurals import plural
from ..base import LOST
from .context import PackageScope
from .xml import Data, _float, child, children, descendants, local

#: itemSessionControl attributes the model has no setting for, with QTI 2.1's defaults: a value
#: that differs is reported as lost.
OTHER_CONTROLS = {"showFeedback": False, "allowReview": True, "allowComment": False, "allowSkipping": True,
                  "validateResponses": False}
#: Seconds in a minute: the source holds whole minutes.
MINUTE = 60


def test_settings(reader: PackageScope, test: etree._Element, member: str) -> Data:
    """The settings of ``test`` by model name; what the model cannot hold is warned about."""
    settings: Data = {}
    parts = children(test, "testPart")
    first = parts[0] if parts else None
    # A test with one part: the part's time limit is the test's.
    limits = child(test, "timeLimits")
    if limits is None and len(parts) == 1 and first is not None:
        limits = child(first, "timeLimits")
    if limits is not None:
        _time_limit(reader, limits, member, settings)
    control = child(first, "itemSessionControl") if first is not None else None
    if control is not None:
        _session_control(reader, control, member, settings)
    if first is not None and first.get("navigationMode") == "linear":
        settings["lock_questions_after_answering"] = True  # students cannot go back to a question
    _elsewhere(reader, test, member, {id(e) for e in (limits, control) if e is not None})
    return settings


def _time_limit(reader: PackageScope, limits: etree._Element, member: str, settings: Data) -> None:
    span = reader.span(member, limits)
    seconds = _float(limits.get("maxTime"))
    if seconds is not None and seconds > 0:
        minutes = max(1, round(seconds / MINUTE))
        if minutes * MINUTE != seconds:
            reader.builder.warn(LOST, f"the time limit of {seconds:g} seconds is kept as {plural(minutes, 'minute')}: the source holds whole minutes", span)
        settings["time_limit"] = minutes
    if _float(limits.get("minTime")):
        reader.builder.warn(LOST, "the test's minimum time (minTime) has no setting in the source", span)
    if limits.get("allowLateSubmission") in ("true", "1"):
        reader.builder.warn(LOST, "late submission (allowLateSubmission) has no setting in the source", span)


def _session_control(reader: PackageScope, control: etree._Element, member: str, settings: Data) -> None:
    attempts = control.get("maxAttempts")
    if attempts is not None and attempts.strip().lstrip("-").isdigit():
        settings["allowed_attempts"] = "unlimited" if int(attempts) <= 0 else int(attempts)
    solution = control.get("showSolution")
    if solution in ("true", "1", "false", "0"):
        settings["show_correct_answers"] = solution in ("true", "1")
    lost = [name for name, default in OTHER_CONTROLS.items()
            if control.get(name) in ("true", "1", "false", "0") and (control.get(name) in ("true", "1")) != default]
    if lost:
        reader.builder.warn(LOST, f"the test's session controls {', '.join(lost)} have no setting in the source",
                            reader.span(member, control))


def _elsewhere(reader: PackageScope, test: etree._Element, member: str, read: set[int]) -> None:
    """Time limits and session controls this reader did not take as the quiz's: on sections, items
    or other test parts. One warning for all of them, at the first."""
    others = [e for e in descendants(test, "timeLimits", "itemSessionControl") if id(e) not in read]
    if others:
        where = sorted({local(e.getparent()) for e in others if e.getparent() is not None})
        reader.builder.warn(LOST, f"{plural(len(others), 'time limit or session control', 'time limits or session controls')} on {', '.join(where)} "
                            f"{'are' if len(others) > 1 else 'is'} not imported: "
                            "the source's settings are the whole quiz's", reader.span(member, others[0]))
