"""A character YAML cannot read (a control character pasted into a source) is named with its code
point at its place, in the teacher's language, never with PyYAML's own words for its input
('in "<unicode string>", position 8')."""

from __future__ import annotations

import pytest

from helpers.cli import check_source

CASES = {
    "quiz.yaml": "title: T\nsections:\n  - id: s\n    title: S\x01\n    questions: []\n",
    "quiz.md": "---\ntitle: T\x01\n---\n\n1. Why? {type=essay}\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_unreadable_character_is_named_at_its_place(tmp_path, name):
    text = CASES[name]
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "\x01" in row)
    column = text.splitlines()[line - 1].index("\x01") + 1
    code, reported = check_source(tmp_path, name, text)
    assert code == 1
    syntax = [r for r in reported if r.code == "QB111"]
    assert [(r.line, r.column, r.message, r.hint) for r in syntax] == [
        (line, column, "YAML syntax error: YAML cannot read character U+0001", "delete it (it often comes from copy-paste)")]
    code, reported = check_source(tmp_path, name, text, "--lang", "ko")
    (korean,) = [r for r in reported if r.code == "QB111"]
    assert korean.message == "YAML 문법 오류: YAML이 문자 U+0001을(를) 읽을 수 없습니다"
    assert (korean.line, korean.column) == (line, column)
