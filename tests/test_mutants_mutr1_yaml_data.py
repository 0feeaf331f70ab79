"""YAML read as data with every value's place (readers/yaml_data.py): what a source reads as, and
each problem as ``qti-builder check`` prints it, message and hint.

Each source is written here by hand; each place is counted in the text written here (the
column of a character found by searching the line), never taken from the reader. (Issue 35's
mutation run over the readers: these tests kill the survivors of ``load_yaml``,
``_syntax_error``, ``_reader_position``, ``_Measuring`` and ``_Builder``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import read_written, write
from helpers.cli import run

from qti_builder.model import EssayQuestion, SingleChoiceQuestion


def printed(tmp_path: Path, name: str, text: str, *options: str) -> list[str]:
    """``qti-builder check`` on the source: its problems as printed, each line stripped."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", "--lang", "en", *options, cwd=tmp_path)
    assert code == 1, err
    return [line.strip() for line in err.splitlines() if line.strip() and not line.startswith("failed:")]


def at(text: str, line: int, words: str) -> str:
    """'line:column' of ``words`` on ``line`` (1-based) of the text, by searching that line."""
    return f"{line}:{text.split(chr(10))[line - 1].index(words) + 1}"


SYNTAX_HINT = "hint: check the indentation and quote values that contain ': ' or start with a special character"


def test_a_second_document_is_qb111_at_its_separator(tmp_path: Path) -> None:
    text = "title: A\nsections: []\n---\ntitle: B\n"
    assert printed(tmp_path, "two.yaml", text) == [
        f"two.yaml:{at(text, 3, '---')}: error[QB111]: a second YAML document starts here; a source is one document",
        "hint: remove this '---' line and what follows it, or make it a quiz of its own",
    ]


def test_a_character_yaml_refuses_is_qb111_where_it_is(tmp_path: Path) -> None:
    # U+0080 is allowed in XML (no QB102) but not in YAML: PyYAML's reader error carries an offset
    # into the text, not a line and column.
    text = 'title: A\nsections:\n  - id: s1\n    title: "\x80x"\n'
    assert printed(tmp_path, "ctl.yaml", text) == [
        f"ctl.yaml:{at(text, 4, chr(0x80))}: error[QB111]: YAML syntax error: YAML cannot read character U+0080",
        "hint: delete it (it often comes from copy-paste)",
    ]


def test_a_syntax_error_in_front_matter_is_placed_in_the_markdown_file(tmp_path: Path) -> None:
    # The front matter starts on the file's line 2: the parser stops at the end of 'title: [a'.
    text = "---\ntitle: [a\n---\n\n1. Why? {#q type=essay}\n"
    assert printed(tmp_path, "fm.md", text) == [
        f"fm.md:2:{len('title: [a') + 1}: error[QB111]: YAML syntax error: expected ',' or ']', but got '<stream end>'",
        SYNTAX_HINT,
    ]


def test_a_key_that_is_not_plain_text_is_qb112_at_the_key(tmp_path: Path) -> None:
    text = "? [a, b]\n: x\ntitle: A\n~: y\n"
    hint = "hint: write a name before the colon, such as 'title:' (not a list, a mapping or nothing)"
    assert printed(tmp_path, "key.yaml", text) == [
        f"key.yaml:{at(text, 1, '[a, b]')}: error[QB112]: a key must be plain text", hint,
        f"key.yaml:{at(text, 4, '~')}: error[QB112]: a key must be plain text", hint,
    ]


def test_a_key_given_twice_is_qb113_at_the_second(tmp_path: Path) -> None:
    text = "title: A\nsections: []\ntitle: B\n"
    assert printed(tmp_path, "dup.yaml", text) == [
        f"dup.yaml:{at(text, 3, 'title')}: error[QB113]: duplicate key 'title'",
        "hint: each key may appear once; remove or rename one of them",
    ]


def test_a_tag_is_qb143_at_the_tagged_value(tmp_path: Path) -> None:
    text = "title: !!python/object:os.system x\nid: !foo q\n"
    hint = "hint: a quiz holds plain text, numbers, lists and mappings"
    assert printed(tmp_path, "tag.yaml", text) == [
        f"tag.yaml:{at(text, 1, '!!python')}: error[QB143]: YAML tag 'tag:yaml.org,2002:python/object:os.system' is not allowed",
        hint,
        f"tag.yaml:{at(text, 2, '!foo')}: error[QB143]: YAML tag '!foo' is not allowed",
        hint,
    ]


NESTED = "title: A\nsections:\n  - id: s1\n    title: B\n"
DEPTH_HINT = ("hint: a quiz needs about 8 levels (2 more for each level of nested sections); raise the limit with "
              "--max-yaml-depth N (at most 250)")


@pytest.mark.parametrize("depth, where, levels", [
    # The quiz's mapping is level 1, its keys and values level 2, the section's mapping level 3.
    ("1", (1, "title"), "1 level"),
    ("2", (3, "id: s1"), "2 levels"),
])
def test_nesting_past_the_limit_is_qb114_at_the_first_value_too_deep(tmp_path: Path, depth: str, where: tuple[int, str],
                                                                     levels: str) -> None:
    assert printed(tmp_path, "deep.yaml", NESTED, "--max-yaml-depth", depth) == [
        f"deep.yaml:{at(NESTED, *where)}: error[QB114]: the YAML nests more than the {levels} a source may have",
        DEPTH_HINT,
    ]


def test_values_read_as_numbers_keep_their_words_where_text_is_meant(tmp_path: Path) -> None:
    # 1.10, yes, 2024-01-01 and null where text is meant are the text as written; points a number.
    quiz = read_written(tmp_path, "kept.yaml", """\
title: 2024-01-01
sections:
  - id: s1
    title: yes
    questions:
      - type: single_choice
        id: q1
        stem: 1.10
        points: 2.5
        choices:
          - {id: A, text: 1.10, correct: true}
          - {id: B, text: 0x1F}
      - type: essay
        id: q2
        stem: |
          Two lines
          as written.
""")
    assert quiz.title == "2024-01-01" and quiz.sections[0].title == "yes"
    q1, q2 = quiz.sections[0].questions
    assert isinstance(q1, SingleChoiceQuestion) and q1.stem == "1.10" and q1.points == 2.5
    assert [c.text for c in q1.choices] == ["1.10", "0x1F"]
    assert isinstance(q2, EssayQuestion) and q2.stem == "Two lines\nas written."


def test_nesting_past_the_limit_in_front_matter_is_placed_in_the_markdown_file(tmp_path: Path) -> None:
    # The front matter starts on the file's line 2; 'time_limit' is its level 3.
    text = "---\ntitle: T\nsettings:\n  time_limit: 5\n---\n\n1. Why? {#q type=essay}\n"
    assert printed(tmp_path, "fm.md", text, "--max-yaml-depth", "2") == [
        f"fm.md:{at(text, 4, 'time_limit')}: error[QB114]: the YAML nests more than the 2 levels a source may have",
        DEPTH_HINT,
    ]


def test_an_alias_to_nothing_is_a_syntax_error_at_the_alias_not_a_second_document(tmp_path: Path) -> None:
    text = "title: *nope\nsections: []\n"
    assert printed(tmp_path, "alias.yaml", text) == [
        f"alias.yaml:{at(text, 1, '*nope')}: error[QB111]: YAML syntax error: found undefined alias 'nope'",
        SYNTAX_HINT,
    ]
