"""An imported description whose line starts with a label, as the reader would take it (``Answer:``,
``[Answer]``, ``【答案】``), is written so that it reads back as text and shows students the same:
a label in brackets has no colon to escape, and writing the source stopped with a traceback
(``min() arg is an empty sequence``)."""

from __future__ import annotations

import pytest

from qti_builder.content import render_html
from qti_builder.model import Quiz
from qti_builder.writers.markdown_source import read_back, write_source


@pytest.mark.parametrize("description", ["[Answer] see the key", "【答案】B is printed here", "Answer: see below",
                                         "[정답] ② 입니다", "Intro\n[Answer] on a later line"])
def test_a_description_that_starts_with_a_label_reads_back_as_the_same_text(description):
    quiz = Quiz.model_validate({"id": "q", "title": "T", "description": description, "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "essay", "id": "e", "stem": "Why?"}]}]})
    written = write_source(quiz)
    assert written.suffix == ".md"
    back = read_back(written.text, written.suffix)
    assert back is not None
    # Students see the text as the original system showed it: one paragraph, brackets and all.
    assert render_html(back.description) == f"<p>{description}</p>"
    assert back.sections[0].questions[0].stem == "Why?"
