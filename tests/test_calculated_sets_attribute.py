"""A calculated question's ``sets=`` attribute in a Markdown source (readers/markdown/calculated.py):
a whole number of ASCII digits is that many sets; any other value is the model's error at the
attribute, never a traceback (``'²'.isdigit()`` is true, and ``int('²')`` failed: found by issue 35's
eighth mutation session, reading ``_variables`` 179)."""

from __future__ import annotations

from pathlib import Path

from helpers import write
from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def checked(tmp_path: Path, text: str, name: str = "paper.md") -> tuple[int, list[str]]:
    """``qti-builder check`` on the source: its exit code and what it printed, line by line."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", "--lang", "en", cwd=tmp_path)
    return code, err.splitlines()


def at(text: str, words: str, after: str = "") -> str:
    """'line:column' of the first ``words`` written after ``after``, by searching the text."""
    offset = text.index(words, text.index(after) if after else 0)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def test_a_calculated_questions_sets_attribute(tmp_path: Path) -> None:
    # sets=3 is three sets; '²' and '٣' are no whole number the model takes: an error at the
    # attribute (its name), as for sets=many, never a traceback ('²'.isdigit() is true, int('²') fails).
    template = "---\ntitle: T\n---\n\n1. What is {{a}} + 1? {{#c type=calculated sets={sets}}}\n\n```variables\na = 1..9\n```\n\nAnswer: a + 1\n"
    sink = DiagnosticSink()
    read = read_quiz(write(tmp_path, "three.md", template.format(sets="3")), sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    (question,) = read[0].iter_questions()
    assert question.sets == 3
    # (The messages show '٣' as a number, unquoted: Python reads it as one, the model does not.)
    for sets, shown in (("²", "'²'"), ("٣", "٣"), ("many", "'many'")):
        text = template.format(sets=sets)
        code, err = checked(tmp_path, text)
        assert code == 1 and err == [
            f"paper.md:{at(text, 'sets=')}: error[QB205]: 'sets' must be a whole number, not {shown}",
            "    hint: write a number, such as 'sets=2'",
            f"paper.md:{at(text, 'sets=')}: error[QB205]: 'sets' must be a list, not {shown}",
            "    hint: write each entry on its own line under 'sets:', starting with '- ', such as '- {a: 2, b: 3}'",
            "failed: 2 errors",
        ], sets
