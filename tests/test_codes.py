"""The registry of diagnostic codes (src/qti_builder/codes.py): complete, documented, and true.

- every code the package can emit has an entry, and every entry is emitted somewhere;
- docs/source-format.md's table of codes is the registry's table;
- each entry's example source really gives its code, and its fix does not (nor any error);
- ``qti-builder explain`` prints an entry, and refuses an unknown code with a did-you-mean.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner

from qti_builder import BuildOptions, build
from qti_builder.cli import app
from qti_builder.codes import CODES, CODES_LIST, Code, markdown_table
from qti_builder.diagnostics import BuildFailed, Diagnostic

SOURCE = ROOT / "src" / "qti_builder"
DOC = ROOT / "docs" / "source-format.md"
CODE = re.compile(r"\"(QB\d{3})\"")
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def emitted_codes() -> set[str]:
    """Every "QBnnn" string in the package's code, but the registry's own."""
    found: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        if path.name != "codes.py":
            found.update(CODE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_emitted_code_is_registered() -> None:
    missing = sorted(emitted_codes() - set(CODES))
    assert missing == [], f"add these codes to src/qti_builder/codes.py: {missing}"


def test_every_registered_code_is_emitted() -> None:
    assert sorted(set(CODES) - emitted_codes()) == []


def test_registry_entries_are_complete() -> None:
    assert len(CODES) == len(CODES_LIST)  # no code twice
    assert [c.code for c in CODES_LIST] == sorted(c.code for c in CODES_LIST)
    for c in CODES_LIST:
        assert c.severity in ("error", "warning"), c.code
        assert c.summary.endswith(".") and c.location and c.hint and not c.hint.endswith("."), c.code
        assert c.mistake and c.fix and c.mistake != c.fix, c.code
        assert c.syntax in ("md", "yaml", "text"), c.code


def test_docs_table_is_the_registry() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = "<!-- codes: start -->\n", "\n<!-- codes: end -->"
    assert start in text and end in text
    table = text[text.index(start) + len(start): text.index(end)]
    assert table.strip() == markdown_table(), (
        "docs/source-format.md's table of codes differs from src/qti_builder/codes.py; paste the output of "
        "python -c 'from qti_builder.codes import markdown_table; print(markdown_table())' between the markers"
    )


def run_example(tmp_path: Path, code: Code, text: str) -> list[Diagnostic]:
    folder = tmp_path / str(abs(hash(text)))
    folder.mkdir()
    (folder / "pic.png").write_bytes(PNG)
    source = folder / f"{code.file}.{code.syntax}"
    source.write_text(text, encoding="utf-8")
    try:
        return build(BuildOptions(sources=[source], out_dir=folder / "out", write=False, profile=code.profile, jobs=1)).diagnostics
    except BuildFailed as exc:
        return exc.diagnostics


SOURCE_EXAMPLES = [c for c in CODES_LIST if c.syntax != "text"]


@pytest.mark.parametrize("code", SOURCE_EXAMPLES, ids=[c.code for c in SOURCE_EXAMPLES])
def test_example_gives_its_code_and_the_fix_does_not(tmp_path: Path, code: Code) -> None:
    mistake = run_example(tmp_path, code, code.mistake)
    assert code.code in [d.code for d in mistake], [d.render() for d in mistake]
    assert all(d.severity.value == code.severity for d in mistake if d.code == code.code)
    fixed = run_example(tmp_path, code, code.fix)
    assert [d.render() for d in fixed if d.code == code.code or d.severity.value == "error"] == []


def test_most_codes_have_a_source_example() -> None:
    reading = [c for c in CODES_LIST if c.code < "QB300" and not c.code.startswith("QB23")]  # QB23x: the project, not a quiz
    assert sum(c.syntax != "text" for c in reading) >= len(reading) - 6


def test_explain_prints_the_entry() -> None:
    result = CliRunner().invoke(app, ["explain", "qb142"])
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("QB142 (error): A fill-in-the-blank question without blanks")
    assert "Reported at: the blank" in out
    assert "    1. The sky is [[*blue | *grey | red]]. {#sky type=fill_in_blank}" in out
    assert "    1. The sky is [[*blue | grey | red]]. {#sky type=fill_in_blank}" in out


def test_explain_a_code_described_in_words() -> None:
    result = CliRunner().invoke(app, ["explain", "501"])
    assert result.exit_code == 0
    assert "Example: --out /read-only." in result.stdout


def test_explain_an_unknown_code() -> None:
    result = CliRunner().invoke(app, ["explain", "QB1422"])
    assert result.exit_code == 2
    assert "unknown code QB1422; did you mean QB142?" in result.stderr
