"""``qti-builder docs``: every shipped page, one section of a page, and a code's entry, from the
command line, so a user with only the installed tool can read the docs its hints name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run

from qti_builder.manual import for_reading

PAGES = sorted((ROOT / "docs").glob("*.md"))


def test_every_page_the_project_ships_is_listed_and_printed_whole(tmp_path: Path) -> None:
    code, out, err = run("docs", cwd=tmp_path)
    assert code == 0, err
    for page in PAGES:
        title = page.read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
        assert re.search(rf"^  {re.escape(page.stem)} +{re.escape(title)}$", out, re.M), page.name
        code, text, err = run("docs", page.stem, cwd=tmp_path)
        assert (code, err) == (0, "")
        assert text == for_reading(page.read_text(encoding="utf-8"))
    assert {p.stem for p in PAGES} >= {"source-format", "question-types", "content", "import", "ci", "schemas",
                                        "lms-behaviour", "updating"}


def test_a_section_is_printed_alone_up_to_the_next_heading_of_its_level(tmp_path: Path) -> None:
    code, out, _ = run("docs", "ci#exit-codes", cwd=tmp_path)
    assert code == 0
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    start = page.index("## Exit codes")
    assert out == page[start:page.index("\n## ", start + 1)].rstrip() + "\n"
    # A heading inside a code block is not a section: the YAML comment '# .pre-commit-config.yaml' is not one.
    code, out, _ = run("docs", "ci#pre-commit", cwd=tmp_path)
    assert code == 0 and "# .pre-commit-config.yaml" in out and "## GitHub Actions" not in out


def test_aliases_and_file_names_open_the_same_page(tmp_path: Path) -> None:
    whole = run("docs", "question-types", cwd=tmp_path)[1]
    assert run("docs", "types", cwd=tmp_path)[1] == whole
    assert run("docs", "docs/question-types.md", cwd=tmp_path)[1] == whole


def test_a_code_prints_its_entry_and_the_sections_that_mention_it(tmp_path: Path) -> None:
    code, out, _ = run("docs", "qb142", cwd=tmp_path)
    assert code == 0
    assert out.startswith("QB142 (error): ")
    mentioned = out.split("Sections that mention it:\n", 1)[1].split()
    assert "source-format#fill-in-the-blank" in mentioned
    for place in [m for m in mentioned if "#" in m]:
        assert run("docs", place, cwd=tmp_path)[0] == 0  # every place it names opens
        assert "QB142" in run("docs", place, cwd=tmp_path)[1]


@pytest.mark.parametrize(("topic", "message"), [
    ("soruce-format", "no page 'soruce-format'; did you mean 'source-format'?"),
    ("ci#exit-code", "ci has no section 'exit-code'; did you mean 'exit-codes'?"),
])
def test_an_unknown_topic_is_a_usage_error_with_a_suggestion(tmp_path: Path, topic: str, message: str) -> None:
    code, out, err = run("docs", topic, cwd=tmp_path)
    assert (code, out) == (2, "")
    assert message in err


def test_every_hint_that_names_a_page_names_one_that_opens(tmp_path: Path) -> None:
    """Hints and help say 'qti-builder docs PAGE[#section]': each such place exists."""
    named = set()
    for path in (ROOT / "src" / "qti_builder").rglob("*.py"):
        named |= set(re.findall(r"qti-builder docs ([a-z-]+(?:#[a-z0-9-]+)?)", path.read_text(encoding="utf-8")))
    assert named
    for topic in sorted(named):
        assert run("docs", topic, cwd=tmp_path)[0] == 0, topic


def test_docs_print_no_doc_test_markers(tmp_path: Path) -> None:
    """The docs' test markers are for tests/test_docs.py; a reader sees the examples only."""
    for page in PAGES:
        code, text, _ = run("docs", page.stem, cwd=tmp_path)
        assert code == 0 and "doc-test" not in text, page.name
        assert "\n\n\n" not in text
    code, text, _ = run("docs", "updating#moodle", cwd=tmp_path)
    assert "doc-test" not in text and "$ qti-builder diff --rev moodle-2024-10-01 --changed-only" in text
    assert "\nA) func\n" not in text  # a marker's hidden file is not shown either


def test_a_long_page_goes_through_the_pager_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    from qti_builder import cli

    paged: list[str] = []
    monkeypatch.setattr(click, "echo_via_pager", lambda text, *a, **k: paged.append(text))

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(cli.sys, "stdout", Terminal())
    cli._show("line\n" * 5000)
    assert len(paged) == 1 and paged[0].count("\n") == 5000
    # Not on a pipe or a file: printed as it is.
    monkeypatch.undo()
    code, out, _ = run("docs", "source-format", cwd=tmp_path)
    assert code == 0 and out.count("\n") > 1000
