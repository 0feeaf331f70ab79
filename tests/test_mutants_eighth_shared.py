"""What the readers' shared modules and the validation gate tell a user, found untested by issue 35's
sampled mutation run (the eighth session's look at the seventh's survivors): each source and each
``--templates`` override is written here by hand, each place counted from the text written here.

They kill ``SourceMap.locate`` 3, ``model_errors.explain`` 656, and in validate.py
``_manifest_frame_rules`` 24, ``_manifest_package`` 73 and ``_resources_valid_together`` 56, 57.
"""

from __future__ import annotations

from pathlib import Path

from helpers import ROOT, write
from helpers.cli import run

HINT_QB401 = "    hint: this is a bug in qti-builder or in a --templates override; please report it with the source"


def checked(tmp_path: Path, name: str, text: str) -> list[str]:
    """``qti-builder check`` on the source: what it printed, line by line."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", "--lang", "en", cwd=tmp_path)
    assert code == 1, err
    return err.splitlines()


def at(text: str, words: str, after: str = "") -> str:
    """'line:column' of the first ``words`` written after ``after``, by searching the text."""
    offset = text.index(words, text.index(after) if after else 0)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


# -- where a quiz-wide rule about the settings points, in a Markdown source --------------------------

SETTINGS = """\
---
title: T
settings:
  time_limit: 30
  incomplete_points: 1
---

1. Which? {#q}

A) a
B) b

Answer: A
"""


def test_a_quiz_rule_on_the_front_matter_settings_points_at_them(tmp_path: Path) -> None:
    # The rule names the field 'settings' of the quiz; the front matter records the settings'
    # value (their first line), not a key of the quiz: the error is there, not at line 1.
    assert checked(tmp_path, "quiz.md", SETTINGS) == [
        f"quiz.md:{at(SETTINGS, 'time_limit')}: error[QB201]: the setting incomplete_points is the exam rule's",
        "    hint: add the setting scoring: exam, or remove incomplete_points",
        "failed: 1 error",
    ]


# -- a list too short, of a field without an example line ---------------------------------------------

LABELS = """\
title: T
sections:
  - id: s
    title: S
    questions:
      - type: true_false
        id: q
        stem: Sure?
        answer: true
        labels: [O]
"""


def test_too_few_labels_hint_at_a_list_line_of_their_own(tmp_path: Path) -> None:
    # 'labels' has no example line of its own (LIST_EXAMPLES): the hint says '- ...', never 'None'.
    assert checked(tmp_path, "quiz.yaml", LABELS) == [
        f"quiz.yaml:{at(LABELS, '[O]')}: error[QB201]: true_false question 'q' needs at least 2 entries in 'labels', has 1",
        "    hint: add lines such as '- ...' under 'labels:'",
        "failed: 1 error",
    ]


# -- a --templates override that breaks the QTI 2.1 manifest ---------------------------------------------

TWO = """\
---
title: T
---

1. Which? {#q1}

A) a
B) b

Answer: A

2. Which two? {#q2}

A) a
B) b

Answer: B
"""

#: One question's resources, written out: a trim_blocks template, so the '{% for %}' lines leave
#: nothing and each resource's lines are the piece's lines 1, 2, 3 ...
RESOURCE = """\
{% for item in items %}
    <resource identifier="RES-{{ item.question.id }}" type="imsqti_item_xmlv2p1" href="{{ item.href }}">
      <file href="{{ item.href }}"/>
EXTRA    </resource>
{% endfor %}
"""


def _built(tmp_path: Path, overrides: dict[str, str]) -> tuple[int, list[str], list[Path]]:
    """``qti-builder build`` of TWO to QTI 2.1 with the templates overridden: exit code, what it
    printed, and what it wrote."""
    folder = tmp_path / "templates"
    for name, text in overrides.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        write(folder, name, text)
    write(tmp_path, "two.md", TWO)
    out = tmp_path / "dist"
    code, _, err = run("build", "two.md", "--format", "qti21", "--templates", str(folder), "--out", str(out),
                       "-j", "1", "--no-cache", cwd=tmp_path)
    return code, err.splitlines(), sorted(out.glob("*")) if out.exists() else []


def test_a_resource_depending_on_nothing_is_named_at_its_own_line(tmp_path: Path) -> None:
    # Each question's resource has a dependency on a resource no part declares, on its third line.
    # The two questions' resources are validated together (one manifest of both), and each
    # problem is still named at its line in its own question's part.
    resource = RESOURCE.replace("EXTRA", '      <dependency identifierref="RES-nowhere"/>\n')
    assert resource.split("\n").index('      <dependency identifierref="RES-nowhere"/>') == 3  # the '{% for %}' line first
    code, err, written = _built(tmp_path, {"qti21/manifest_resource.xml.j2": resource})
    assert code == 1 and written == []
    assert err == [
        "error[QB401]: dependency on unknown resource 'RES-nowhere' (question 'q1')",
        "    in generated file two.qti21.zip#manifest/q1:3:1",
        HINT_QB401,
        "error[QB401]: dependency on unknown resource 'RES-nowhere' (question 'q2')",
        "    in generated file two.qti21.zip#manifest/q2:3:1",
        HINT_QB401,
        "failed: 2 errors; nothing was written",
    ]


def test_one_identifier_given_to_two_questions_resources_is_refused(tmp_path: Path) -> None:
    # Each question's part is valid alone; across the parts the identifier 'RES-shared' is
    # declared twice (xs:ID), at the second question's fourth line. Nothing else is wrong.
    resource = RESOURCE.replace("EXTRA", '    </resource>\n    <resource identifier="RES-shared" type="imsqti_item_xmlv2p1">\n')
    assert resource.split("\n").index('    <resource identifier="RES-shared" type="imsqti_item_xmlv2p1">') == 4
    code, err, written = _built(tmp_path, {"qti21/manifest_resource.xml.j2": resource})
    assert code == 1 and written == []
    assert err == [
        "error[QB401]: schema: the identifier 'RES-shared' is given to more than one element (xs:ID) (question 'q2')",
        "    in generated file two.qti21.zip#manifest/q2:4:1",
        HINT_QB401,
        "failed: 1 error; nothing was written",
    ]


def test_question_lines_outside_the_resources_are_refused_in_words(tmp_path: Path) -> None:
    # The questions' lines moved from <resources> into <organizations>: one error, at the first.
    original = (ROOT / "templates" / "qti21" / "imsmanifest.xml.j2").read_text("utf-8")
    loop = "{% for question in questions %}\n<!-- question: {{ loop.index }} -->\n{% endfor %}\n"
    description = [line for line in original.split("\n") if "quiz.description" in line or "{% endif %}" in line]
    assert loop in original and len(description) == 3  # '{% if %}', the element, '{% endif %}': nothing for TWO
    frame = original.replace(loop, "").replace("  <organizations/>\n", "  <organizations>\n" + loop + "  </organizations>\n")
    for line in description:
        frame = frame.replace(line + "\n", "", 1)
    # Every line above the first question's line is written as it stands, but the '{% for %}'.
    line = frame.split("\n").index("<!-- question: {{ loop.index }} -->")
    code, err, written = _built(tmp_path, {"qti21/imsmanifest.xml.j2": frame})
    assert code == 1 and written == []
    assert err == [
        "error[QB401]: the line '<!-- question: N -->' must be a child of <resources>, in the namespaces of the built-in "
        "qti21/imsmanifest.xml.j2",
        f"    in generated file two.qti21.zip/imsmanifest.xml:{line}:1",
        HINT_QB401,
        "failed: 1 error; nothing was written",
    ]
