"""The YAML reader's own checks (readers/yaml.py), as ``qti-builder check`` prints them.

Each source is written here by hand; the place a diagnostic names is found by searching the
source's text for the words, never taken from the reader's output. (Issue 35's mutation run over
the readers: these tests kill the survivors of ``_parse``, ``_check_descriptions`` and
``_written_at``.)
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run

QUESTIONS = """\
    questions:
      - type: essay
        id: q1
        stem: Why is the sky blue?
"""


def printed(tmp_path: Path, name: str, text: str, *lang: str) -> list[str]:
    """``qti-builder check`` on the source: each problem's first line and its hint, as printed."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", *lang, cwd=tmp_path)
    assert code == 1, err
    return [line.strip() for line in err.splitlines() if "error[" in line or line.strip().startswith("hint:")]


def place(text: str, words: str, after: int = 0) -> tuple[int, int]:
    """Line and column (1-based) of the first ``words`` on a line after line ``after``, by searching the text."""
    lines = text.split("\n")
    number = next(i for i, line in enumerate(lines) if i >= after and words in line)
    return number + 1, lines[number].index(words) + 1


HINT = "hint: move it into a question's fields ('model_answer:', 'feedback:'); to show the words themselves, write '{}\\:'"


def test_answers_in_descriptions_are_qb145_where_each_label_line_is_written(tmp_path: Path) -> None:
    # A section description in double quotes whose line holds its words twice (found at the
    # first), a section nested in it whose label line is written earlier in the file too (in the
    # first question's stem: found below the nested description's own place), and the quiz
    # description last in the file, a block whose label is its last line.
    text = (
        "title: Optics\n"
        "sections:\n"
        "  - id: s1\n"
        "    title: Part 1\n"
        '    description: "Explanation: light\\nsee Explanation: light"\n'
        + QUESTIONS.replace("Why is the sky blue?", "'Answer: 4 is not it'")
        + "    sections:\n"
        "      - id: s2\n"
        "        title: Part 2\n"
        "        description: |\n"
        "          Read first.\n"
        "          Answer: 4\n"
        "        questions:\n"
        "          - type: essay\n"
        "            id: q2\n"
        "            stem: And why red at dusk?\n"
        "description: |\n"
        "  Read each question.\n"
        "  Answer: B\n"
    )
    section = place(text, "Explanation: light")
    nested = place(text, "Answer: 4", after=place(text, "id: s2")[0])
    quiz = place(text, "Answer: B")
    assert printed(tmp_path, "optics.yaml", text) == [
        f"optics.yaml:{section[0]}:{section[1]}: error[QB145]: 'Explanation:' in a section description, which students see",
        # In double quotes, the escape's backslash is written twice (YAML's own escape).
        HINT.format("Explanation\\"),
        f"optics.yaml:{nested[0]}:{nested[1]}: error[QB145]: 'Answer:' in a section description, which students see",
        HINT.format("Answer"),
        f"optics.yaml:{quiz[0]}:{quiz[1]}: error[QB145]: 'Answer:' in the quiz description, which students see",
        HINT.format("Answer"),
    ]


def test_a_label_line_written_at_the_left_margin_is_placed_at_column_1(tmp_path: Path) -> None:
    # A double-quoted description continued after an escaped line break: its second line starts
    # at the left margin.
    text = 'title: Optics\ndescription: "Read this.\\n\\\nAnswer: B"\nsections:\n  - id: s1\n    title: Part 1\n' + QUESTIONS
    assert place(text, "Answer: B") == (3, 1)
    assert printed(tmp_path, "optics.yaml", text)[0] == \
        "optics.yaml:3:1: error[QB145]: 'Answer:' in the quiz description, which students see"


def test_a_label_line_not_written_as_such_is_placed_at_the_description(tmp_path: Path) -> None:
    # '\u00e9' is é in the text but not in the file: the line is not found, the description's
    # own place (its opening quote) is given.
    text = 'title: Optics\nsections:\n  - id: s1\n    title: Part 1\n' + QUESTIONS + 'description: "Answer: caf\\u00e9"\n'
    line, column = place(text, '"Answer: caf')
    assert printed(tmp_path, "optics.yaml", text)[0] == \
        f"optics.yaml:{line}:{column}: error[QB145]: 'Answer:' in the quiz description, which students see"


def test_a_yaml_source_that_is_not_a_mapping_is_qb110_where_its_value_starts(tmp_path: Path) -> None:
    text = "# questions, but no quiz around them\n- type: essay\n  id: q1\n"
    assert printed(tmp_path, "list.yaml", text) == [
        "list.yaml:2:1: error[QB110]: a YAML quiz must be a mapping with keys id, title, sections",
        "hint: start the file with 'title: ...' and 'sections:' at the left margin "
        "(see qti-builder docs source-format#the-yaml-format)",
    ]


def test_a_yaml_quiz_in_korean_is_told_its_problems_in_korean(tmp_path: Path) -> None:
    # The quiz's language is the language its messages are printed in (no --lang given), also
    # when the model refuses the quiz and no quiz says its language.
    text = "titel: 광학\nlanguage: ko\nsections:\n  - id: s1\n    title: 1부\n" + QUESTIONS
    assert printed(tmp_path, "optics.yaml", text)[0] == \
        "optics.yaml:1:1: error[QB203]: 퀴즈에 알 수 없는 키 'titel'. 'title'을(를) 뜻했나요?"


def test_the_same_label_line_written_twice_is_two_places(tmp_path: Path) -> None:
    # In one double-quoted line and in a block: each QB145 where its own words are.
    text = ('title: Optics\ndescription: "Answer: a\\nAnswer: a"\nsections:\n  - id: s1\n    title: Part 1\n'
            '    description: |\n      Answer: b\n      Answer: b\n' + QUESTIONS)
    quoted = text.split("\n")[1]
    first, second = quoted.index("Answer: a") + 1, quoted.index("Answer: a", quoted.index("Answer: a") + 1) + 1
    block = [i + 1 for i, line in enumerate(text.split("\n")) if line.strip() == "Answer: b"]
    assert printed(tmp_path, "optics.yaml", text)[::2] == [
        f"optics.yaml:2:{first}: error[QB145]: 'Answer:' in the quiz description, which students see",
        f"optics.yaml:2:{second}: error[QB145]: 'Answer:' in the quiz description, which students see",
        f"optics.yaml:{block[0]}:7: error[QB145]: 'Answer:' in a section description, which students see",
        f"optics.yaml:{block[1]}:7: error[QB145]: 'Answer:' in a section description, which students see",
    ]
