"""Two slips that passed the model: ``points: no`` (YAML reads it as false, and pydantic took false
for 0, so the question was worth nothing without a word) and an empty question text (the Moodle
check then blamed qti-builder with QB401, "a bug in qti-builder"). Both are now the author's
errors at their place, in the author's words."""

from __future__ import annotations

from helpers.cli import check_source

SOURCE = """\
id: p
title: P
sections:
  - id: s
    title: S
    questions:
      - {type: essay, id: e, stem: Why?, points: no}
      - {type: essay, id: f, stem: ""}
      - {type: true_false, id: t, stem: Sky is blue., answer: true, points: yes}
"""


def _at(line: int, value: str) -> tuple[int, int]:
    return line, SOURCE.splitlines()[line - 1].index(value) + 1


def test_points_written_as_yes_or_no_and_an_empty_text_are_errors(tmp_path):
    code, reported = check_source(tmp_path, "p.yaml", SOURCE)
    assert code == 1
    assert [(r.line, r.column, r.code, r.message) for r in reported] == [
        (*_at(7, "no}"), "QB205", "'points' in essay question 'e' must be a number, not 'no'"),
        (*_at(8, '""'), "QB204", "'stem' in essay question 'f' is empty"),
        (*_at(9, "yes}"), "QB205", "'points' in true_false question 't' must be a number, not 'yes'"),
    ]
    assert not any(r.code == "QB401" for r in reported)
    code, reported = check_source(tmp_path, "p.yaml", SOURCE, "--lang", "ko")
    assert reported[0].message == "essay 문항 'e'의 'points'은(는) 'no'이(가) 아니라 수여야 합니다"
