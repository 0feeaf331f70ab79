"""What a user reads when a --templates override is wrong (writers/base.py's ``render_template``,
for what the mutation run of issue 35 over writers/base.py found no test looking at): the code,
the override's file and the line of the mistake, and the hint, as printed. The line is found by
searching the override's text; Jinja's own words for the mistake come from Jinja itself.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from helpers import write
from qti_builder import BuildOptions, build
from qti_builder.pipeline import BuildIncomplete

ESSAY = "---\ntitle: Essay\n---\n\n1. Explain recursion. {#why type=essay}\n"


def _rendered(tmp_path: Path, override: str) -> tuple[Path, Path, list[str]]:
    """The essay quiz built for Canvas with ``override`` as its essay item template: the source,
    the override and the problems printed. Nothing may be written."""
    source = write(tmp_path, "essay.md", ESSAY)
    template = tmp_path / "templates" / "canvas" / "item_essay.xml.j2"
    template.parent.mkdir(parents=True)
    template.write_text(override, encoding="utf-8")
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], templates=tmp_path / "templates"))
    assert not (tmp_path / "dist").exists()
    return source, template, [d.render() for d in failed.value.diagnostics]


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_a_syntax_error_in_an_override_is_reported_at_its_line_with_jinja_s_words(tmp_path: Path) -> None:
    override = '<item ident="{{ ident }}">\n  <presentation/>\n  {% if %}\n</item>\n'
    _, template, rendered = _rendered(tmp_path, override)
    with pytest.raises(jinja2.TemplateSyntaxError) as jinja_says:
        jinja2.Environment().parse(override)
    assert rendered == [f"{template}:{_line_of(template, '{% if %}')}:1: error[QB302]: template syntax error: "
                        f"{jinja_says.value.message}\n    hint: fix the template (see --templates)"]


def test_an_override_failing_while_it_renders_is_reported_at_the_failing_line(tmp_path: Path) -> None:
    override = '<item ident="{{ ident }}">\n  <presentation/>\n  {{ question.no_such_field.x }}\n</item>\n'
    _, template, rendered = _rendered(tmp_path, override)
    assert len(rendered) == 1
    head, hint = rendered[0].split("\n")
    assert head.startswith(f"{template}:{_line_of(template, 'no_such_field')}:1: error[QB304]: template error: ")
    assert "no_such_field" in head
    assert hint == "    hint: fix the template (see --templates)"


def test_an_override_including_a_missing_template_is_reported_at_the_question(tmp_path: Path) -> None:
    source, _, rendered = _rendered(tmp_path, '{% include "canvas/nowhere.xml.j2" %}')
    assert rendered == [f"{source}:{_line_of(source, '{#why')}:1: error[QB303]: template 'canvas/nowhere.xml.j2' not found"
                        "\n    hint: check the --templates folder"]


def test_a_quiz_template_writing_a_question_s_marker_twice_is_refused_with_the_way_to_fix_it(tmp_path: Path) -> None:
    """Each question is put in after its marker line: a frame writing one twice would put the
    question in twice (or lose another), so QB305 says which template, what it must write and how
    to fix it."""
    from helpers import ROOT

    marker = "<!-- question: {{ number_of[entry.id] }} -->"
    frame = (ROOT / "templates" / "canvas" / "assessment.xml.j2").read_text(encoding="utf-8")
    assert frame.count(marker) == 1
    override = tmp_path / "templates" / "canvas" / "assessment.xml.j2"
    override.parent.mkdir(parents=True)
    override.write_text(frame.replace(marker, marker + "\n" + marker), encoding="utf-8")
    source = write(tmp_path, "essay.md", ESSAY)
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["canvas"], templates=tmp_path / "templates"))
    assert [d.render() for d in failed.value.diagnostics] == [
        "error[QB305]: canvas/assessment.xml.j2 must write the line '<!-- question: N -->' once for each question, N = 1 to 1: "
        "the questions are put in after those lines\n"
        "    hint: keep the loop that writes those lines in your --templates copy of canvas/assessment.xml.j2"]
    assert not (tmp_path / "dist").exists()
