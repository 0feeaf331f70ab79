"""A problem inside a text is reported at the line and column where its characters are written,
whatever way the text is laid out in the source: a Markdown paragraph's indented lines, an option,
an explanation over several lines; a YAML string in double or single quotes, a literal or folded
block, a plain string over several lines. Each expected place is found here by searching the
source file for the characters, not taken from the reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed, Diagnostic


def _places(source: Path, pattern: str) -> dict[str, tuple[int, int]]:
    """Where each match of ``pattern`` (a file name) starts in the source: line and column, from 1."""
    found = {}
    for number, line in enumerate(source.read_text("utf-8").splitlines(), 1):
        for m in re.finditer(pattern, line):
            found[m.group(0)] = (number, m.start() + 1)
    return found


def _reported(source: Path, code: str, formats: list[str] | None = None) -> dict[str, tuple[int, int]]:
    """Each ``code`` diagnostic of a build of ``source``, by the file name (or formula) it names."""
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=source.parent / "dist", formats=formats or ["qti21"], write=False, jobs=1))
    items: list[Diagnostic] = [d for d in failed.value.diagnostics if d.code == code]
    out = {}
    for d in items:
        named = re.search(r"'([^']+\.png)'|holds (\{=[^}]*\})", d.message)
        assert named, d.message
        assert d.span is not None
        out[named.group(1) or named.group(2)] = (d.span.line, d.span.column)
    return out


MARKDOWN = """---
title: Places
---

1. What is shown in the picture
   below? ![a pic](gone-1.png)

A) one ![o](gone-2.png)
B) two

Answer: A
Explanation: the first
    picture ![e](gone-3.png) shows it

2. Look: ![x](gone-4.png) and
   more text
   with ![y](gone-5.png)

A) one
B) two

Answer: B
"""


YAML = """id: places
title: Places
sections:
  - id: s1
    title: S
    questions:
      - id: q1
        type: essay
        stem: "A picture ![a](gone-1.png) in double quotes"
      - id: q2
        type: essay
        stem: 'and ![b](gone-2.png) in single quotes'
      - id: q3
        type: essay
        stem: |
          A literal block
            indented more ![c](gone-3.png)
      - id: q4
        type: essay
        stem: >-
          A folded block
          over lines ![d](gone-4.png)
      - id: q5
        type: essay
        stem: A plain text
          over lines ![e](gone-5.png)
      - id: q6
        type: essay
        stem: A plain line ![f](gone-6.png)
"""


CALCULATED = """id: formulas
title: Formulas
sections:
  - id: s1
    title: S
    questions:
      - id: c1
        type: calculated
        stem: "What is {a} plus {=a:b} here?"
        variables:
          - {name: a, min: 1, max: 9}
        sets: 5
        answer: a + 1
      - id: c2
        type: calculated
        stem: |
          What is {a}
            plus {=a:c} here?
        variables:
          - {name: a, min: 1, max: 9}
        sets: 5
        answer: a + 1
"""


#: Each source, the problem looked for, where its characters are (a pattern), and how many.
CASES = {
    "markdown paragraph, option, explanation": ("places.md", MARKDOWN, "QB160", r"gone-\d\.png", 5, ["qti21"]),
    "yaml strings in every style": ("places.yaml", YAML, "QB160", r"gone-\d\.png", 6, ["qti21"]),
    "a formula Moodle refuses, quoted and block yaml": ("formulas.yaml", CALCULATED, "QB325", r"\{=a:[bc]\}", 2, ["moodle"]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_problem_inside_a_text_is_where_it_is_written(case: str, tmp_path: Path) -> None:
    name, text, code, pattern, count, formats = CASES[case]
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    expected = _places(source, pattern)
    assert len(expected) == count
    assert _reported(source, code, formats) == expected


PLACEHOLDER = """---
title: Placeholder places
---

1. A car covers {d} km {#speed type=calculated}
   in {t} hours, or {=d/z:1} more.

```variables
d = 20..200
t = 1..4
```

Answer: d / t ± 0.1
"""


def test_a_placeholder_s_unknown_variable_on_a_question_s_second_line(tmp_path: Path) -> None:
    source = tmp_path / "placeholder.md"
    source.write_text(PLACEHOLDER, encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", write=False, jobs=1))
    found = [d.span for d in failed.value.diagnostics if "'z' is not a variable" in d.message]
    assert len(found) == 1 and found[0] is not None
    assert (found[0].line, found[0].column) == _places(source, r"\{=d/z:1\}")["{=d/z:1}"]
