"""Where ``SourceMap`` says a part is, for the places the readers did not record: a key's place
falls back to its value's, a place with nothing recorded above it to the file's start, a text
without recorded lines runs on from its field's column, and every question has its start,
subsections' too. Each expected place is counted in the text written here. (Hand mutants of
``locate``, ``text_position`` and ``question_locs`` survived the reader tests; each fails here.)"""

from __future__ import annotations

from pathlib import Path

from qti_builder.diagnostics import DiagnosticSink, SourceSpan
from qti_builder.readers.registry import read_quiz
from qti_builder.readers.source_map import KEY, SourceMap


def test_a_key_not_recorded_is_at_its_value_not_at_its_parent() -> None:
    source = SourceMap("q.md")
    source.at(("sections", 0, "questions", 0), 7, 1)
    source.at(("sections", 0, "questions", 0, "points"), 7, 24)
    assert source.locate(("sections", 0, "questions", 0, KEY, "points")) == SourceSpan("q.md", 7, 24)
    source.at(("sections", 0, "questions", 0, KEY, "points"), 7, 17)  # recorded: its own place
    assert source.locate(("sections", 0, "questions", 0, KEY, "points")) == SourceSpan("q.md", 7, 17)
    # neither recorded: the nearest place above
    assert source.locate(("sections", 0, "questions", 0, KEY, "feedback")) == SourceSpan("q.md", 7, 1)


def test_a_part_with_nothing_recorded_above_it_is_at_the_file_s_start() -> None:
    assert SourceMap("q.md").locate(("sections", 3, "questions", 2)) == SourceSpan("q.md", 1, 1)


def test_a_text_without_recorded_lines_runs_on_from_its_field_s_column() -> None:
    source = SourceMap("q.md")
    source.at(("sections", 0, "questions", 0, "text"), 12, 5)  # "1.  What is it?" -> the text at column 5
    text = "What is it?\nSecond line"
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, 0) == SourceSpan("q.md", 12, 5)
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, 8) == SourceSpan("q.md", 12, 13)
    assert source.text_position(("sections", 0, "questions", 0, "text"), text, text.index("line")) == SourceSpan("q.md", 13, 8)


PAPER = """\
---
title: Places
---

# Part

1. Top question? {#top}

A) yes
B) no

Answer: A

## Sub part

2. Nested question? {#nested}

A) yes
B) no

Answer: B
"""


def test_every_question_has_its_start_a_subsection_s_too(tmp_path: Path) -> None:
    path = tmp_path / "q.md"
    path.write_text(PAPER, encoding="utf-8")
    read = read_quiz(path, DiagnosticSink())
    assert read is not None
    quiz, source = read
    lines = PAPER.split("\n")
    spans = source.question_spans(quiz)
    assert {ident: span.line for ident, span in spans.items()} == {
        "top": lines.index("1. Top question? {#top}") + 1, "nested": lines.index("2. Nested question? {#nested}") + 1}
