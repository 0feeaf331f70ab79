"""What the author gets from Moodle XML, for a survivor of writers/moodle.py (issue 35, sixth
session).

The test builds a small quiz written here (YAML: what the author meant is read off the text
below) and reads what the author gets: the diagnostics of the build, and the Moodle XML file as
Moodle's importer reads it (lxml, CDATA as text). Expected values are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from helpers import ROOT, write
from qti_builder import BuildOptions, build

# -- a --templates copy of a question's template may read the question -----------------------------

ONE_TRUE_FALSE = """id: tf
title: One statement
language: en
sections:
  - id: s
    title: S
    questions:
      - type: true_false
        id: earth
        stem: The Earth is round.
        answer: true
"""


def test_a_question_template_override_reads_the_question_it_writes(tmp_path: Path) -> None:
    """An author's --templates copy of the Moodle true/false template that adds the question's
    own id and text (as the QTI 2.1 and Canvas templates, it is rendered with the question as
    ``question``): the file carries them for that question, and the build reports nothing."""
    template = "moodle/question_truefalse.xml.j2"
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    original = (ROOT / "templates" / template).read_text(encoding="utf-8")
    marker = '<question type="truefalse">'
    assert original.count(marker) == 1
    overlay.write_text(original.replace(marker, marker + "\n    <!-- {{ question.id }}: {{ question.stem }} -->"),
                       encoding="utf-8")
    source = write(tmp_path, "tf.yaml", ONE_TRUE_FALSE)
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], jobs=1,
                                templates=tmp_path / "templates"))
    assert not result.diagnostics, [d.render() for d in result.diagnostics]
    root = etree.fromstring((tmp_path / "dist" / "tf.moodle.xml").read_bytes(), etree.XMLParser(strip_cdata=True))
    (question,) = root.findall("question[@type='truefalse']")
    comments = [c.text for c in question.iter(etree.Comment)]
    assert comments == [" earth: The Earth is round. "]
