"""The model's validation errors in the author's words (readers/model_errors.py), as ``qti-builder
check`` prints them: which section a section's own problem is in, and a true/false value named as
written.

Each source is written here by hand; each place is found by searching the text written here
(never taken from the reader's output). (Issue 35's sixth mutation run over the readers, sampled:
these kill ``_owner`` 9, ``_shown`` 4, ``_writer`` 4 and ``explain`` 113, 125, 138, 289, 311, 357, 375, 392, 394, 460, 505, 580, 622 and 623.)
"""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run


def printed(tmp_path: Path, name: str, text: str) -> list[str]:
    """``qti-builder check`` on the source: its problems as printed, each line stripped."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", "--lang", "en", cwd=tmp_path)
    assert code == 1, err
    return [line.strip() for line in err.splitlines() if line.strip() and not line.startswith("failed:")]


def at(text: str, words: str, after: str = "") -> str:
    """'line:column' of the first ``words`` written after ``after``, by searching the text."""
    offset = text.index(words, text.index(after) if after else 0)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


TWO_PARTS = """\
title: Sections
sections:
  - id: part1
    title: Part 1
    questions:
      - {type: essay, id: q1, stem: Why?}
  - id: part2
    title: Part 2
    moodle_idnumber: " "
    questions:
      - {type: essay, id: q2, stem: How?}
"""


def test_a_top_level_section_s_own_problem_names_the_section(tmp_path: Path) -> None:
    # The ID number of the second part's category is empty: the message says which part, as it
    # does for a question's problem (two parts, so the section is not the only one it could be).
    empty = at(TWO_PARTS, '" "', "part2")
    assert printed(tmp_path, "parts.yaml", TWO_PARTS) == [
        f"parts.yaml:{empty}: error[QB201]: the Moodle ID number is empty (in section 'part2')",
        "hint: write the ID number as Moodle shows it, or leave moodle_idnumber out",
    ]


DRAWN = """\
title: Drawn
sections:
  - id: part1
    title: Part 1
    questions:
      - {type: essay, id: q1, stem: Why?}
  - id: part2
    title: Part 2
    select: 3
    questions:
      - {type: essay, id: q2, stem: How?}
"""


def test_a_top_level_section_drawing_more_than_it_holds_is_named_where_select_is(tmp_path: Path) -> None:
    assert printed(tmp_path, "drawn.yaml", DRAWN) == [
        f"drawn.yaml:{at(DRAWN, 'select')}: error[QB201]: section 'part2' draws 3 but holds only 1 (in section 'part2')",
        "hint: set select to at most 1, or add questions to the section",
    ]


CHOICES_YES = """\
title: Choices
sections:
  - id: part1
    title: Part 1
    questions:
      - type: single_choice
        id: q1
        stem: Which?
        choices: yes
"""


def test_a_list_written_as_yes_is_named_true(tmp_path: Path) -> None:
    # YAML reads 'yes' as true: the message names the value as the author wrote it.
    assert printed(tmp_path, "yes.yaml", CHOICES_YES) == [
        f"yes.yaml:{at(CHOICES_YES, 'yes')}: error[QB205]: 'choices' in single_choice question 'q1' must be a list, not 'yes'",
        "hint: write each entry on its own line under 'choices:', starting with '- ', such as "
        "'- {id: A, text: Paris, correct: true}'",
    ]


MISTAKES = """\
title: Model errors
sections:
  - id: part1
    title: Part 1
    questions:
      - type: single_choice
        id: q1
        stem: Which city is the capital of France?
      - type: single_choice
        id: q2
        stem: Which river runs through Paris?
        choices:
          - {id: A, text: Seine, correct: true, feedback: {correct: Right}}
          - {id: B, text: Loire}
      - type: essay
        id: q3
        stem: {text: Why?}
      - type: essay
        id: q4
        stem: Why not?
        expected_lines: [10]
      - type: multiple_response
        id: q5
        stem: Which are French cities?
        scoring: exam
        incomplete_points: many
        choices:
          - {id: A, text: Paris, correct: true}
          - {id: B, text: Lyon, correct: true}
          - {id: C, text: Rome}
"""


def test_each_value_the_model_refuses_is_said_whole_at_its_place(tmp_path: Path) -> None:
    # A missing list (at the question, with an example of its lines), a choice's feedback written
    # as a mapping, a text written as a mapping, a whole number written as a list, a number
    # written as a word: message, place and hint of each, in one run.
    assert printed(tmp_path, "mistakes.yaml", MISTAKES) == [
        f"mistakes.yaml:{at(MISTAKES, 'type: single_choice')}: error[QB204]: single_choice question 'q1' has no 'choices'",
        "hint: add 'choices:' to single_choice question 'q1', followed by a list of lines such as "
        "'- {id: A, text: Paris, correct: true}'",
        f"mistakes.yaml:{at(MISTAKES, '{correct: Right}')}: error[QB205]: 'feedback' in choice 'A' of single_choice "
        "question 'q2' must be text, not a mapping",
        "hint: a choice's feedback is one text: 'feedback: Right!'",
        f"mistakes.yaml:{at(MISTAKES, '{text: Why?}')}: error[QB205]: 'stem' in essay question 'q3' must be text, not a mapping",
        "hint: write it as one text, 'stem: ...', or over several lines as 'stem: |'",
        f"mistakes.yaml:{at(MISTAKES, '[10]')}: error[QB205]: 'expected_lines' in essay question 'q4' must be a whole "
        "number, not a list",
        "hint: write a number, such as 'expected_lines: 10'",
        f"mistakes.yaml:{at(MISTAKES, 'many')}: error[QB205]: 'incomplete_points' in multiple_response question 'q5' must "
        "be a number, not 'many'",
        "hint: write a number (with . for decimals), such as 'incomplete_points: 2'",
    ]


MORE = """\
title: More model errors
sections:
  - id: part1
    title: ""
    questions:
      - type: single_choice
        id: q1
        stem: Which city is the capital of France?
        choices: []
      - type: single_choice
        id: q2
        stem: Which river runs through Paris?
        choices:
          - Seine
      - type: multiple_response
        id: q3
        stem: Which are French cities?
        scoring: sometimes
        choices:
          - {id: A, text: Paris, correct: true}
          - {id: B, text: Rome}
"""


def test_an_empty_text_a_short_list_a_choice_as_text_and_a_word_not_allowed_in_yaml(tmp_path: Path) -> None:
    # Each in the YAML source's own terms: the list's hint is a YAML list line.
    empty = at(MORE, '""')
    assert printed(tmp_path, "more.yaml", MORE) == [
        f"more.yaml:{empty}: error[QB204]: 'title' in section 'part1' is empty",
        "hint: write the text after 'title:'",
        f"more.yaml:{at(MORE, '[]')}: error[QB201]: single_choice question 'q1' needs at least 2 choices in 'choices', has 0",
        "hint: add lines such as '- {id: A, text: Paris, correct: true}' under 'choices:'",
        f"more.yaml:{at(MORE, 'Seine', 'choices:')}: error[QB205]: choice 1 of single_choice question 'q2' must be a "
        "mapping with keys such as id, text, correct, feedback, not 'Seine'",
        "hint: write the entry as indented 'key: value' lines after its '- '",
        f"more.yaml:{at(MORE, 'sometimes')}: error[QB201]: 'scoring' in multiple_response question 'q3' must be "
        "'partial', 'all_or_nothing' or 'exam', not 'sometimes'",
        "hint: write 'scoring: partial'",
    ]


PAPER = """\
---
title: Paper
---

1. Why? {#q type=essay points=x}

2. Which one? {#c type=single_choice}

A) only

Answer: A
"""


def test_a_markdown_source_is_told_in_its_own_terms(tmp_path: Path) -> None:
    # An attribute's example is 'points=2', not YAML's 'points: 2'; a short list of options is
    # told as option lines under the question, not as a YAML list.
    assert printed(tmp_path, "paper.md", PAPER) == [
        f"paper.md:{at(PAPER, 'points=x')}: error[QB205]: 'points' must be a number, not 'x'",
        "hint: write a number (with . for decimals), such as 'points=2'",
        f"paper.md:{at(PAPER, '2. Which')}: error[QB201]: single_choice question 'c' needs at least 2 choices in 'choices', has 1",
        "hint: put each option on its own line under the question ('A) Paris', 'B) Lyon'), or several on one line each "
        "marked as the first ('A) Paris  B) Lyon')",
    ]
