"""An option a student picks or places never arrives empty.

An empty choice, matching prompt or answer, distractor or ordering item is a slip: students would
see a blank option, and Moodle's import drops an answer whose text is blank without a word, its
grade with it (run on Moodle 4.5: a single choice whose right answer was empty arrived with its
wrong answer alone, and Moodle graded its own right response wrong). So each is an error at its
place in the source, and nothing is written. Each expected place is found by searching the source.
"""

from __future__ import annotations

from helpers.cli import check_source, run

SOURCE = """\
id: empties
title: Empty options
sections:
  - id: s
    title: S
    questions:
      - type: single_choice
        id: single
        stem: Pick one
        choices:
          - {id: A, text: "", correct: true}
          - {id: B, text: Two}
      - type: multiple_response
        id: multi
        stem: Pick some
        choices:
          - {id: A, text: One, correct: true}
          - {id: B, text: "   ", correct: true}
          - {id: C, text: Three}
      - type: matching
        id: match
        stem: Match them
        pairs:
          - {prompt: Cat, answer: ""}
          - {prompt: "", answer: Bark}
          - {prompt: Cow, answer: Moo}
        distractors: ["", Quack]
      - type: ordering
        id: order
        stem: Put them in order
        items: [First, "", Third]
"""


def place(marker: str, value: str) -> tuple[int, int]:
    """The line and column of ``value`` in the one source line that holds ``marker``."""
    lines = [i for i, line in enumerate(SOURCE.splitlines(), 1) if marker in line]
    assert len(lines) == 1, marker
    line = SOURCE.splitlines()[lines[0] - 1]
    return lines[0], line.index(marker) + marker.index(value) + 1


def test_each_empty_option_is_an_error_at_its_place_and_nothing_is_built(tmp_path):
    code, reported = check_source(tmp_path, "empties.yaml", SOURCE)
    assert code == 1
    found = {(r.line, r.column): (r.code, r.message) for r in reported}
    expected = {
        place('text: "", correct', '""'): "'text' in choice 'A' of single_choice question 'single' is empty",
        place('text: "   "', '"'): "'text' in choice 'B' of multiple_response question 'multi' is empty",
        place('answer: ""', '""'): "'answer' in pair 1 of matching question 'match' is empty",
        place('prompt: "", answer: Bark', '""'): "'prompt' in pair 2 of matching question 'match' is empty",
        place('distractors: ["", Quack]', '""'): "distractor 1 of matching question 'match' is empty",
        place('items: [First, "", Third]', '""'): "item 2 of ordering question 'order' is empty",
    }
    assert found == {at: ("QB204", message) for at, message in expected.items()}
    # The matching answer was a QB401 "bug in qti-builder" from the Moodle rules before: the model
    # now says it at the source, so no generated file is ever blamed.
    assert all(r.code == "QB204" for r in reported)
    hints = {r.message: r.hint for r in reported}
    assert hints["item 2 of ordering question 'order' is empty"] == \
        "write its text after the entry's '- ', or remove the entry"
    assert hints["'answer' in pair 1 of matching question 'match' is empty"] == "write the text after 'answer:'"

    dist = tmp_path / "dist"
    code, _, err = run("build", "empties.yaml", "-o", str(dist), cwd=tmp_path)
    assert code == 1 and "Traceback" not in err
    assert not dist.exists() or not any(dist.iterdir())


def test_an_entry_of_a_list_is_named_once(tmp_path):
    source = SOURCE.replace('- {id: A, text: "", correct: true}', "- 7").replace('items: [First, "", Third]',
                                                                                  "items: [First, Second, Third]")
    source = source.replace('- {prompt: Cat, answer: ""}', "- {prompt: Cat, answer: Meow}").replace(
        '- {prompt: "", answer: Bark}', "- {prompt: Dog, answer: Bark}").replace('["", Quack]', "[Quack]").replace(
        '"   "', "Two")
    code, reported = check_source(tmp_path, "entry.yaml", source)
    assert code == 1
    assert [(r.code, r.message, r.hint) for r in reported] == [
        ("QB205", "choice 1 of single_choice question 'single' must be a mapping with keys such as id, text, correct, "
                  "feedback, not the number 7", "write the entry as indented 'key: value' lines after its '- '")]


def test_an_empty_ordering_item_of_a_markdown_source_is_an_error_at_its_own_line(tmp_path):
    source = "---\ntitle: T\n---\n\n1. Put them in order. {#o type=ordering}\n\n- First\n- \n- Third\n"
    code, reported = check_source(tmp_path, "order.md", source)
    assert code == 1
    line = source.splitlines().index("- ") + 1
    assert [(r.line, r.column, r.code) for r in reported] == [(line, 1 + source.splitlines()[line - 1].index("-") + 2, "QB204")]
