"""Counts in English words (``3 questions``, ``1 quiz``) for messages, which the catalogs translate
whole: a module of its own, which imports nothing of the quiz's model (:mod:`.summary` does). What
the command line says of every build in the user's language is ``i18n.counted``."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 question``, ``2 questions``, ``1 quiz``, ``3 quizzes`` (``nouns`` where adding an s is wrong)."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


__all__ = ["plural"]
