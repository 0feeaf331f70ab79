"""Category trees kept (issue 22): a question bank's categories come back where they were when its
import is built for Moodle again, from GIFT, from Moodle XML and from a Canvas question bank.

Moodle reads a ``<question type="category">`` as "the questions after this one go into this
path", creating every category on the path (question/format.php, ``create_category_path``:
``$course$`` names the context, ``top`` the context's top category). So each check below reads
the built Moodle XML the same way and compares every question's category path with the one it
had in the input, written out here by hand."""

from __future__ import annotations

from pathlib import Path

from helpers.importing import builds, canvas_bank_zip, messages, run_import
from lxml import etree

from qti_builder.importers.moodle.file import split_category_path


def categories_of(moodle: Path) -> dict[str, tuple[str, ...]]:
    """Each question's name -> the category path Moodle puts it in."""
    current: tuple[str, ...] = ()
    found = {}
    for question in etree.parse(str(moodle)).getroot().iter("question"):
        if question.get("type") == "category":
            current = split_category_path(question.findtext("category/text") or "")
        else:
            found[question.findtext("name/text") or ""] = current
    return found


def declared(moodle: Path) -> list[tuple[str, ...]]:
    return [split_category_path(q.findtext("category/text") or "")
            for q in etree.parse(str(moodle)).getroot().iter("question") if q.get("type") == "category"]


def rebuilt(path: Path, tmp_path: Path) -> Path:
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    (item,) = quizzes
    tmp_path.mkdir(parents=True, exist_ok=True)
    builds(item.quiz, item.media, tmp_path)
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    return moodle


def test_a_gift_category_path_is_rebuilt_whole(tmp_path: Path) -> None:
    source = tmp_path / "stat.gift"
    source.write_text("$CATEGORY: $course$/top/STAT 101/Week 1 sampling\n\n::Q1:: A sample is {=part of a population "
                      "~the whole population}\n\n::Q2:: The mean of 2 and 4 is {#3}\n", encoding="utf-8")
    moodle = rebuilt(source, tmp_path)
    assert categories_of(moodle) == {"Q1": ("STAT 101", "Week 1 sampling"), "Q2": ("STAT 101", "Week 1 sampling")}
    assert declared(moodle) == [("STAT 101",), ("STAT 101", "Week 1 sampling")]  # nothing doubled


def test_gift_categories_at_several_depths(tmp_path: Path) -> None:
    source = tmp_path / "bio.gift"
    source.write_text("$CATEGORY: $course$/top/Biology\n\n::B1:: Cells are alive {T}\n\n"
                      "$CATEGORY: $course$/top/Biology/Cells/Membranes\n\n::M1:: Membranes are lipid bilayers {T}\n\n"
                      "$CATEGORY: $course$/top/Biology/Genetics\n\n::G1:: DNA is a protein {F}\n", encoding="utf-8")
    moodle = rebuilt(source, tmp_path)
    assert categories_of(moodle) == {"B1": ("Biology",), "M1": ("Biology", "Cells", "Membranes"), "G1": ("Biology", "Genetics")}


MOODLE_BANK = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/BIO 110/Cells</text></category></question>
  <question type="truefalse"><name><text>C1</text></name><questiontext format="html"><text>Cells divide.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
  <question type="category"><category><text>$course$/top/BIO 110/Cells/Organelles</text></category>
    <info format="html"><text>About organelles.</text></info></question>
  <question type="truefalse"><name><text>O1</text></name><questiontext format="html"><text>Ribosomes make proteins.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
  <question type="category"><category><text>$course$/top/BIO 110/Genes//DNA</text></category></question>
  <question type="truefalse"><name><text>D1</text></name><questiontext format="html"><text>DNA is a protein.</text></questiontext>
    <answer fraction="0"><text>true</text></answer><answer fraction="100"><text>false</text></answer></question>
</quiz>
"""


def test_a_moodle_category_tree_is_rebuilt_whole(tmp_path: Path) -> None:
    path = tmp_path / "bank.xml"
    path.write_text(MOODLE_BANK, encoding="utf-8")
    moodle = rebuilt(path, tmp_path)
    assert categories_of(moodle) == {"C1": ("BIO 110", "Cells"), "O1": ("BIO 110", "Cells", "Organelles"),
                                     "D1": ("BIO 110", "Genes/DNA")}
    info = [q.findtext("info/text") for q in etree.parse(str(moodle)).getroot().iter("question")
            if (q.findtext("category/text") or "").endswith("/Organelles")]
    assert info == ["<p>About organelles.</p>"]


def test_a_moodle_bank_in_one_category_stays_in_it(tmp_path: Path) -> None:
    """Questions in the quiz's own category: no category of the same name below it."""
    path = tmp_path / "one.xml"
    path.write_text(MOODLE_BANK.replace("/Cells/Organelles", "").replace("/Cells", "").replace("/Genes//DNA", ""),
                    encoding="utf-8")
    moodle = rebuilt(path, tmp_path)
    assert set(categories_of(moodle).values()) == {("BIO 110",)}
    assert declared(moodle) == [("BIO 110",)]
    again = rebuilt(moodle, tmp_path / "again")  # and so on, built and imported again
    assert set(categories_of(again).values()) == {("BIO 110",)}


def test_moodle_xml_rebuilt_twice_keeps_its_tree(tmp_path: Path) -> None:
    path = tmp_path / "bank.xml"
    path.write_text(MOODLE_BANK, encoding="utf-8")
    first = rebuilt(path, tmp_path / "1")
    second = rebuilt(first, tmp_path / "2")
    assert categories_of(second) == categories_of(first) and declared(second) == declared(first)


def test_a_canvas_question_bank_becomes_its_own_moodle_category(tmp_path: Path) -> None:
    moodle = rebuilt(canvas_bank_zip(tmp_path / "banks.zip"), tmp_path)
    assert set(categories_of(moodle).values()) == {("분열 문제 은행",)} and declared(moodle) == [("분열 문제 은행",)]


def test_a_source_without_headings_keeps_its_questions_in_the_quizs_category(tmp_path: Path) -> None:
    from qti_builder.pipeline import BuildOptions, build

    source = tmp_path / "plain.md"
    source.write_text("---\ntitle: Week 2\n---\n\n1. Is water wet?\n\nA) Yes\nB) No\n\nAnswer: A\n", encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    moodle = tmp_path / "dist" / "plain.moodle.xml"
    assert declared(moodle) == [("Week 2",)] and set(categories_of(moodle).values()) == {("Week 2",)}
