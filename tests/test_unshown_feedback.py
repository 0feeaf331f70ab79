"""Feedback a source gives that an output never shows is said, as a loss of that output
(QB601), never dropped in silence: an essay's correct and incorrect feedback (graded by hand:
QTI 2.1 and Moodle write none; Canvas keeps its comments), a text-only item's general feedback
(not answered: QTI 2.1 and Canvas write none; Moodle keeps a description's), a single choice's
partially-correct feedback (right or wrong: never shown). Each loss is checked against the files
themselves: the text is absent where a loss is said, present where none is."""

from __future__ import annotations

import re
import zipfile

from helpers.cli import run

SOURCE = """\
id: fb
title: Feedback
sections:
  - id: s
    title: S
    questions:
      - type: essay
        id: why
        stem: Why?
        feedback:
          general: Think of causes.
          correct: Well argued.
          incorrect: Argue more.
      - type: text_only
        id: read
        stem: Read this first.
        feedback:
          general: A note after reading.
      - type: single_choice
        id: pick
        stem: Pick one.
        feedback:
          partially_correct: Half right.
        choices:
          - {id: A, text: Right, correct: true}
          - {id: B, text: Wrong}
"""

LOSS = re.compile(r"^\s+fb\.yaml:(\d+):\d+: QB601: (.+?): (.+) \(question '([\w-]+)'\)$")


def test_each_unshown_feedback_is_a_loss_of_the_outputs_that_drop_it(tmp_path):
    (tmp_path / "fb.yaml").write_text(SOURCE, encoding="utf-8")
    code, out, err = run("build", "fb.yaml", "-o", "dist", "--verbose", cwd=tmp_path)
    assert code == 0, err
    losses = {(m[2], m[4], m[3]) for m in (LOSS.match(line) for line in (out + err).splitlines()) if m}
    assert losses == {
        ("QTI 2.1", "why", "its correct feedback is never shown: it is graded by hand"),
        ("QTI 2.1", "why", "its incorrect feedback is never shown: it is graded by hand"),
        ("Moodle", "why", "its correct feedback is never shown: it is graded by hand"),
        ("Moodle", "why", "its incorrect feedback is never shown: it is graded by hand"),
        ("QTI 2.1", "read", "its general feedback is never shown: a text-only item is not answered"),
        ("Canvas", "read", "its general feedback is never shown: a text-only item is not answered"),
        ("QTI 2.1", "pick", "its partially-correct feedback is never shown: it is right or wrong, never partly right"),
        ("Moodle", "pick", "its partially-correct feedback is never shown: it is right or wrong, never partly right"),
        ("Canvas", "pick", "partially-correct feedback is left out: Canvas has no such comments"),
    }
    dist = tmp_path / "dist"
    qti = zipfile.ZipFile(dist / "fb.qti21.zip")
    canvas = zipfile.ZipFile(dist / "fb.canvas.zip")
    canvas_items = "".join(canvas.read(n).decode() for n in canvas.namelist() if n.endswith(".xml"))
    moodle = (dist / "fb.moodle.xml").read_text(encoding="utf-8")
    # Lost where said: no QTI 2.1 item holds the essay's outcome texts or the item's note.
    qti_items = "".join(qti.read(n).decode() for n in qti.namelist() if n.startswith("items/"))
    for text in ("Well argued.", "Argue more.", "A note after reading.", "Half right."):
        assert text not in qti_items
    assert "Well argued." not in moodle and "Argue more." not in moodle
    assert "A note after reading." not in canvas_items
    # Kept where no loss is said: the essay's general feedback everywhere, its comments in Canvas,
    # the text-only item's note in Moodle (a description's general feedback).
    assert "Think of causes." in qti_items and "Think of causes." in moodle and "Think of causes." in canvas_items
    assert "Well argued." in canvas_items and "Argue more." in canvas_items
    assert "A note after reading." in moodle
