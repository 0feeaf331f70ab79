"""What students see of feedback and option order, read from the built files by readers that share
nothing with the writers: the QTI 1.2 evaluator (helpers/qti12_engine.py) for what a Canvas item shows
after a response, and the QTI 2.1 items' own attributes for whether a player shuffles.

Each test here kills a one-line change to a writer or template that the rest of the suite let
through (issue 35's survivors): a single-choice item forced to shuffle, a Canvas short answer's
per-answer comment dropped, its correct-answer comment not shown."""

from __future__ import annotations

from pathlib import Path

import lxml.html
from lxml import etree

from helpers import QTI_NS, write
from helpers.outputs import Outputs, build_all
from helpers.qti12_engine import score_item

SOURCE = """---
title: Feedback and order
---

1. Pick the prime. {#fixed-order shuffle=false}

A) 4
B) 5
C) 6

Answer: B

2. Pick the primes. {#fixed-many type=multiple_response shuffle=false}

A) 2
B) 4
C) 7

Answer: A, C

3. Pick the even number. {#shuffled}

A) 3
B) 8

Answer: B

4. Who wrote *Hamlet*? {#hamlet type=short_answer}

Answer: Shakespeare
   Feedback: Right: the usual spelling.
Answer: William Shakespeare
   Feedback: Right, with his first name.
Answer: Marlowe
Correct feedback: Well done.
Incorrect feedback: It was Shakespeare.
"""


def _outputs(tmp_path: Path) -> Outputs:
    return build_all(tmp_path, write(tmp_path, "order.md", SOURCE))


def _interaction(outputs: Outputs, question_id: str) -> etree._Element:
    return next(outputs.qti_item(question_id).iter(f"{{{QTI_NS}}}choiceInteraction"))


def test_qti21_choice_interactions_shuffle_only_where_the_source_lets_them(tmp_path: Path) -> None:
    outputs = _outputs(tmp_path)
    assert _interaction(outputs, "fixed-order").get("shuffle") == "false"
    assert _interaction(outputs, "fixed-many").get("shuffle") == "false"
    assert _interaction(outputs, "shuffled").get("shuffle") == "true"


def _shown(item: etree._Element, response: str) -> tuple[float, list[str]]:
    """The score and the texts of the feedback a Canvas item shows for a typed response."""
    outcome = score_item(item, {"response1": response})
    # A mattext holds HTML as text (texttype text/html): what students read is that HTML's text.
    texts = {f.get("ident"): " ".join(lxml.html.fromstring("".join(f.itertext())).text_content().split())
             for f in item.iter("itemfeedback")}
    return outcome.variables["SCORE"].value, [texts[ident] for ident in outcome.feedback]


def test_a_canvas_short_answer_shows_each_answer_s_own_comment_and_the_correct_feedback(tmp_path: Path) -> None:
    item = _outputs(tmp_path).canvas_item("hamlet")
    score, shown = _shown(item, "William Shakespeare")
    assert score == 100
    assert "Right, with his first name." in shown and "Well done." in shown
    assert "Right: the usual spelling." not in shown and "It was Shakespeare." not in shown
    score, shown = _shown(item, "Shakespeare")
    assert score == 100 and "Right: the usual spelling." in shown and "Well done." in shown


def test_a_wrong_canvas_short_answer_shows_the_incorrect_feedback_only(tmp_path: Path) -> None:
    item = _outputs(tmp_path).canvas_item("hamlet")
    score, shown = _shown(item, "Bacon")
    assert score == 0 and shown == ["It was Shakespeare."]
