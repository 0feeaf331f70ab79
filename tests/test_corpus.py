"""The bad-input corpus: every file in tests/corpus/ with the exact diagnostics it must produce.

Each ``case-NNN-what.md`` / ``.yaml`` has a ``.expected`` file listing, line by line, what the
CLI prints for it (``file:line:col: severity[code]: message``, hints left out). A case with
errors must exit 1 and write nothing; a case without must build. Add a case by adding the pair.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qti_builder.cli import app
from qti_builder.writers import DEFAULT_FORMATS, WRITERS

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(p for p in CORPUS.iterdir() if p.suffix in (".md", ".yaml"))


def run(args: list[str], cwd: Path) -> tuple[int, list[str], str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        os.chdir(old)
    lines = [l for l in result.stderr.splitlines() if l and not l.startswith(" ") and not l.startswith("failed:")]
    return result.exit_code, lines, result.stderr


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Path, tmp_path: Path) -> None:
    expected = case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    code, lines, stderr = run(["build", case.name, "--out", str(tmp_path / "out")], CORPUS)
    assert "Traceback" not in stderr
    assert lines == expected
    has_errors = any("error[" in line for line in expected)
    assert code == (1 if has_errors else 0)
    written = sorted(p.name for p in (tmp_path / "out").iterdir()) if (tmp_path / "out").exists() else []
    assert written == ([] if has_errors else sorted(f"{_quiz_id(case)}{WRITERS[name].suffix}" for name in DEFAULT_FORMATS))


def _quiz_id(case: Path) -> str:
    return case.stem


def test_cdata_end_survives_in_both_targets(tmp_path: Path) -> None:
    code, _, _ = run(["build", "case-043-cdata-end-in-text-is-fine.md", "--out", str(tmp_path)], CORPUS)
    assert code == 0
    moodle = (tmp_path / "case-043-cdata-end-in-text-is-fine.moodle.xml").read_text(encoding="utf-8")
    from lxml import etree

    texts = [t.text for t in etree.fromstring(moodle.encode()).iter("text")]
    assert any("<code>]]&gt;</code>" in (t or "") for t in texts)
    assert any("a CDATA section ]]&gt;" in (t or "") for t in texts)
    with zipfile.ZipFile(tmp_path / "case-043-cdata-end-in-text-is-fine.qti21.zip") as archive:
        item = next(n for n in archive.namelist() if n.startswith("items/"))
        assert "]]&gt;" in archive.read(item).decode()


def test_money_stays_text(tmp_path: Path) -> None:
    assert run(["build", "case-049-money-is-not-math.md", "--out", str(tmp_path)], CORPUS)[0] == 0
    moodle = (tmp_path / "case-049-money-is-not-math.moodle.xml").read_text(encoding="utf-8")
    assert "It costs $5 and $10; which is more?" in moodle and "\\(" not in moodle


# -- cases that cannot be stored as files --------------------------------------------------------


def test_ten_megabyte_source(tmp_path: Path) -> None:
    # The limit is an option (256 MiB by default, which a test should not write): set it lower.
    big = tmp_path / "big.md"
    big.write_text("---\ntitle: T\n---\n" + "x" * (10 * 1024 * 1024), encoding="utf-8")
    code, lines, _ = run(["build", "big.md", "--out", "out", "--max-source-mb", "8"], tmp_path)
    assert code == 1
    assert lines == ["big.md:1:1: error[QB100]: the file is 10 MiB, more than the 8 MiB a source may have"]
    assert not (tmp_path / "out").exists()


def test_oversized_media(tmp_path: Path) -> None:
    (tmp_path / "big.png").write_bytes(b"\x89PNG" + b"\0" * 2 * 1024 * 1024)
    (tmp_path / "q.md").write_text("---\ntitle: T\n---\n1. Q? ![a big picture](big.png)\n\nA) x\nB) y\n\nAnswer: A\n", encoding="utf-8")
    code, lines, _ = run(["build", "q.md", "--out", "out", "--max-media-mb", "1"], tmp_path)
    assert code == 1
    assert lines == ["q.md:4:24: error[QB160]: media file 'big.png' is 2 MiB, more than the 1 MiB allowed"]


def test_symlink_out_of_the_source_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"\x89PNG")
    folder = tmp_path / "quiz"
    folder.mkdir()
    (folder / "pic.png").symlink_to(outside)
    (folder / "q.md").write_text("---\ntitle: T\n---\n1. Q? ![a picture](pic.png)\n\nA) x\nB) y\n\nAnswer: A\n", encoding="utf-8")
    code, lines, _ = run(["build", "q.md", "--out", "out"], folder)
    assert code == 1
    assert lines == ["q.md:4:20: error[QB160]: media file 'pic.png' is a link to a file outside the source's folder"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_diagnostic_has_a_place_and_a_hint(case: Path, tmp_path: Path) -> None:
    from qti_builder import BuildOptions, build
    from qti_builder.diagnostics import BuildFailed

    try:
        diagnostics = build(BuildOptions(sources=[case], out_dir=tmp_path, write=False, jobs=1)).diagnostics
    except BuildFailed as exc:
        diagnostics = exc.diagnostics
    for d in diagnostics:
        assert d.span is not None and d.span.line >= 1 and d.span.column >= 1, d.render()
        assert d.hint, d.render()
