"""What every reader shares (readers/base.py), as ``qti-builder check`` prints it: a file that is
not UTF-8, a character XML forbids, an id used twice, a quiz id made from the file's name.

Each source is written here by hand; each place is found by searching the bytes or the text
written here, never taken from the reader. (Issue 35's mutation run over the readers: these tests
kill the survivors of ``decode_source``, ``check_unique_ids``, ``check_quiz_id`` and
``romanised_id``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run


def printed(tmp_path: Path, name: str, data: bytes) -> list[str]:
    """``qti-builder check`` on the source: its problems as printed, each line stripped."""
    (tmp_path / name).write_bytes(data)
    _, _, err = run("check", name, "-j", "1", "--lang", "en", cwd=tmp_path)
    return [line.strip() for line in err.splitlines() if "[QB" in line or line.strip().startswith("hint:")]


def place(data: bytes, what: bytes) -> str:
    """'line:column' of ``what`` in the bytes, counted in bytes up to it."""
    start, newline = data.index(what), b"\n"
    return f"{data.count(newline, 0, start) + 1}:{start - (data.rfind(newline, 0, start) + 1) + 1}"


def test_a_byte_that_is_not_utf8_is_qb101_where_it_is(tmp_path: Path) -> None:
    data = b"---\ntitle: T\n---\n\n1. Caf\xe9 au lait? {#q type=essay}\n"
    where = place(data, bytes([0xE9]))
    assert printed(tmp_path, "cafe.md", data) == [
        f"cafe.md:{where}: error[QB101]: the file is not valid UTF-8 (byte 0xe9)",
        "hint: save the file as UTF-8",
    ]


def test_each_character_xml_forbids_is_qb102_where_it_is(tmp_path: Path) -> None:
    # After a byte order mark and Windows line ends, which are read away, and after Korean text
    # (columns count characters, not bytes).
    data = "\ufeff---\r\ntitle: 종\r\n---\r\n\r\n1. 종을\x07 울려라 {#q type=essay}\r\n\r\n2. Two\x1b? {#r type=essay}\r\n".encode()
    text = data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    where = [(i + 1, line.index(ch) + 1, f"{ord(ch):04X}") for i, line in enumerate(lines) for ch in "\x07\x1b" if ch in line]
    assert where == [(5, 6, "0007"), (7, 7, "001B")]
    assert printed(tmp_path, "bell.md", data) == [
        line for row, column, code in where for line in (
            f"bell.md:{row}:{column}: error[QB102]: character U+{code} is not allowed in XML",
            "hint: delete it (it often comes from copy-paste)")
    ]


def test_an_id_used_twice_is_qb133_at_the_second_naming_the_first_line(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n\n# Part {#p1}\n\n1. One? {#a type=essay}\n\n2. Two? {#a type=essay}\n\n"
            "# Again {#p1}\n\n3. Three? {#c type=essay}\n")
    lines = text.split("\n")

    def line_of(words: str) -> int:
        return next(i for i, line in enumerate(lines) if words in line) + 1

    hint = "hint: ids must be unique in a quiz; rename one of them"
    assert printed(tmp_path, "twice.md", text.encode()) == [
        f"twice.md:{line_of('2. Two?')}:{lines[line_of('2. Two?') - 1].index('#a') + 1}: error[QB133]: "
        f"id 'a' is already used on line {line_of('1. One?')}", hint,
        f"twice.md:{line_of('# Again')}:{lines[line_of('# Again') - 1].index('#p1') + 1}: error[QB133]: "
        f"id 'p1' is already used on line {line_of('# Part')}", hint,
    ]


QUIZ = b"---\ntitle: T\n---\n\n1. One? {#a type=essay}\n"


@pytest.mark.parametrize("stem, said", [
    ("한국사 기말", ["warning[QB186]: the quiz id is 'hangugsa-gimal', made from the file name '한국사 기말' (ids are written "
                 "in Latin letters)",
                 "hint: to keep this id when the file is renamed, or to choose another, add 'id: hangugsa-gimal' to the quiz"]),
    ("2024 한국사", ["warning[QB186]: the quiz id is 'quiz-2024-hangugsa', made from the file name '2024 한국사' (ids are "
                  "written in Latin letters)",
                  "hint: to keep this id when the file is renamed, or to choose another, add 'id: quiz-2024-hangugsa' to the quiz"]),
    ("2024 final!", ["error[QB135]: the file name '2024 final!' cannot be the quiz id (ids use letters, digits, '-', '_', '.')",
                     "hint: add 'id: quiz-2024-final' to the quiz"]),
    ("!!!", ["error[QB135]: the file name '!!!' cannot be the quiz id (ids use letters, digits, '-', '_', '.')",
             "hint: add 'id: quiz' to the quiz"]),
])
def test_a_quiz_id_from_a_file_name_that_is_no_id(tmp_path: Path, stem: str, said: list[str]) -> None:
    found = printed(tmp_path, f"{stem}.md", QUIZ)
    assert found == [f"{stem}.md:1:1: {said[0]}", said[1]]


def test_a_romanised_id_is_cut_to_64_characters_without_a_dash_at_its_end() -> None:
    from qti_builder.readers.base import romanised_id

    # '강' is 'gang': 15 of them and 'abc' are 63 letters, the space after them the 64th
    # character ('-'), which is cut with what follows.
    assert romanised_id("강" * 15 + "abc xyz") == "gang" * 15 + "abc"
    assert romanised_id("강" * 12 + " " + "강" * 12) == "gang" * 12 + "-" + ("gang" * 4)[:15]


def test_a_name_with_nothing_to_romanise_gets_quiz_and_a_hash_of_it() -> None:
    import hashlib

    from qti_builder.readers.base import romanised_id

    # U+3164 (the Hangul filler) is a letter that romanises to nothing.
    name = "\u3164\u3164"
    assert romanised_id(name) == "quiz-" + hashlib.blake2b(name.encode("utf-8"), digest_size=4).hexdigest()
    assert romanised_id(name) != romanised_id("\u3164")


def test_a_forbidden_character_below_a_first_blank_line_is_on_its_own_line(tmp_path: Path) -> None:
    data = b"\n\ntitle: Ring\x07\nsections: []\n"
    assert place(data, b"\x07") == "3:12"  # "title: Ring" is 11 characters
    assert printed(tmp_path, "bell.yaml", data)[:2] == [
        "bell.yaml:3:12: error[QB102]: character U+0007 is not allowed in XML",
        "hint: delete it (it often comes from copy-paste)",
    ]
