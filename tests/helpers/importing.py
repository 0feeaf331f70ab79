"""Helpers of the importer tests: run an import, read its diagnostics, build what it wrote."""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path
from typing import Any

from lxml import etree

from helpers import ROOT
from helpers.cli import run
from helpers.text import html_text
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.pipeline import BuildOptions, build
from qti_builder.writers.markdown_source import read_back, write_source

FIXTURES = ROOT / "tests/fixtures/import"

#: A Canvas question bank (its title, a short-answer and an essay question) as a course export
#: holds it, under :data:`CANVAS_BANK_ENTRY`; used by no quiz.
CANVAS_BANK = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <objectbank ident="i8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b">
    <qtimetadata>
      <qtimetadatafield><fieldlabel>bank_title</fieldlabel><fieldentry>분열 문제 은행</fieldentry></qtimetadatafield>
    </qtimetadata>
    <item ident="g9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a91" title="Question">
      <itemmetadata><qtimetadata>
        <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>short_answer_question</fieldentry></qtimetadatafield>
        <qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>1.0</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">&lt;div&gt;&lt;p&gt;감수 분열의 결과 세포 수는?&lt;/p&gt;&lt;/div&gt;</mattext></material>
        <response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>
      </presentation>
      <resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
        <respcondition continue="No"><conditionvar><varequal respident="response1">4</varequal></conditionvar>
          <setvar action="Set" varname="SCORE">100</setvar></respcondition>
      </resprocessing>
    </item>
    <item ident="g9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a92" title="Question">
      <itemmetadata><qtimetadata>
        <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>essay_question</fieldentry></qtimetadatafield>
        <qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>5.0</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">&lt;p&gt;분열을 설명하시오.&lt;/p&gt;</mattext></material></presentation>
    </item>
  </objectbank>
</questestinterop>
"""
CANVAS_BANK_ENTRY = "non_cc_assessments/i8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b.xml.qti"


def run_import(path: Path, fmt: str = "auto") -> tuple[list, DiagnosticSink]:
    sink = DiagnosticSink()
    return import_path(path, path.name, sink, fmt), sink


def messages(sink: DiagnosticSink) -> list[str]:
    return [d.render() for d in sink.sorted()]


def builds(quiz, media: dict[str, bytes], folder: Path) -> None:  # type: ignore[no-untyped-def]
    written = write_source(quiz)
    (folder / f"{quiz.id}{written.suffix}").write_text(written.text, encoding="utf-8")
    for ref, data in media.items():
        (folder / ref).parent.mkdir(parents=True, exist_ok=True)
        (folder / ref).write_bytes(data)
    build(BuildOptions(sources=[folder / f"{quiz.id}{written.suffix}"], out_dir=folder / "dist"))


def imports_or_is_refused(text: str, name: str, fmt: str) -> None:
    """Any text imports as a quiz whose source reads back as it, or is refused with a located
    error (QB704): never a traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        sink = DiagnosticSink()
        quizzes = import_path(path, name, sink, fmt)
    if not quizzes:
        assert [d.code for d in sink.errors] == ["QB704"]
        return
    written = write_source(quizzes[0].quiz)
    assert read_back(written.text, written.suffix) == quizzes[0].quiz


def imported_one(path: Path, tmp_path: Path) -> tuple[object, list[str]]:
    """The one quiz an input gives, with its diagnostics; it builds, and its Markdown source
    reads back into the same quiz."""
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    (item,) = quizzes
    builds(item.quiz, item.media, tmp_path)
    written = write_source(item.quiz)
    assert written.suffix == ".md" and read_back(written.text, written.suffix) == item.quiz
    return item, messages(sink)


def zipped(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return target


def canvas_bank_zip(path: Path) -> Path:
    """A zip holding only :data:`CANVAS_BANK`, where a course export has it."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(CANVAS_BANK_ENTRY, CANVAS_BANK)
    return path


def moodle_questions(path: Path) -> dict[str, tuple[str, list[tuple[Any, ...]], str]]:
    found = {}
    for question in etree.parse(str(path)).getroot().findall("question"):
        kind = question.get("type")
        if kind == "category":
            continue
        if kind == "matching":
            answers = [(html_text(s.findtext("text")), s.findtext("answer/text")) for s in question.findall("subquestion")]
        elif kind == "numerical":
            answers = [(a.findtext("text"), None if a.findtext("text") == "*" else float(a.findtext("tolerance") or 0),
                        float(a.get("fraction")) / 100, html_text(a.findtext("feedback/text"))) for a in question.findall("answer")]
        else:
            answers = [(html_text(a.findtext("text")), float(a.get("fraction")) / 100, html_text(a.findtext("feedback/text")))
                       for a in question.findall("answer")]
        found[question.findtext("name/text")] = (kind, answers, html_text(question.findtext("generalfeedback/text")))
    return found


def pasted(paper: Path, folder: Path) -> Path:
    """A source as a teacher pastes it: no front matter, its title on the first line (``.txt`` in
    ``folder``): what ``import`` of a pasted paper reads."""
    lines = paper.read_text(encoding="utf-8").split("\n")
    end = lines.index("---", 1)
    title = next(line.removeprefix("title: ") for line in lines[1:end] if line.startswith("title: "))
    text = folder / (paper.stem + ".txt")
    text.write_text(title + "\n\n" + "\n".join(lines[end + 1:]).lstrip("\n"), encoding="utf-8")
    return text


def moodle_category(path: str, idnumber: str) -> str:
    """A Moodle XML category record, as Moodle's export writes it: ``$course$/top/<path>``."""
    return (f'  <question type="category">\n    <category><text>$course$/top/{path}</text></category>\n'
            f'    <info format="html"><text></text></info>\n    <idnumber>{idnumber}</idnumber>\n  </question>\n')


def moodle_true_false(idnumber: str, text: str, name: str | None = None) -> str:
    """A Moodle XML true/false question whose right answer is true, named ``name`` (else its ID number)."""
    return (f'  <question type="truefalse">\n    <name><text>{name if name is not None else idnumber}</text></name>\n'
            f'    <questiontext format="html"><text><![CDATA[<p>{text}</p>]]></text></questiontext>\n'
            f'    <defaultgrade>1.0000000</defaultgrade>\n    <idnumber>{idnumber}</idnumber>\n'
            '    <answer fraction="100" format="moodle_auto_format"><text>true</text><feedback format="html"><text></text></feedback></answer>\n'
            '    <answer fraction="0" format="moodle_auto_format"><text>false</text><feedback format="html"><text></text></feedback></answer>\n'
            '  </question>\n')


def imported_source(tmp_path: Path, text: str, name: str = "paper.md") -> Path:
    """The source ``qti-builder import`` writes of a pasted paper (``text`` in ``tmp_path/name``),
    which must import without an error."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err = run("import", name, "-o", "out", cwd=tmp_path)
    assert code == 0, out + err
    (source,) = (tmp_path / "out").glob("*.md")
    return source
