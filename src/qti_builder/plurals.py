"""Counts and points in words (``3 questions``, ``8–10 points``): the command line says them of
every build, also of one taken whole from the build cache, which imports nothing of the quiz's
model; :mod:`.summary`, which says what a quiz holds, imports the model (and gives these too)."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 question``, ``2 questions``, ``1 quiz``, ``3 quizzes`` (``nouns`` where adding an s is wrong)."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def points_text(low: float, high: float) -> str:
    """``1 point``, ``12.5 points``, ``8–10 points``."""
    if round(low, 6) == round(high, 6):
        return f"{low:g} point" if low == 1 else f"{low:g} points"
    return f"{low:g}–{high:g} points"


__all__ = ["plural", "points_text"]
