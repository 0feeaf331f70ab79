"""Every importer's output builds (issue 22): each fixture of every format is imported, and each
quiz it gives is written as a source and built for every target. An importer never writes a
source the build refuses; ids too long for a target (Moodle's 100-character idnumber) are
shortened with a stable hash suffix (an Aiken file with a long name was the case found)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.importing import FIXTURES, builds, messages, run_import
from lxml import etree

from qti_builder.importers.base import sanitise_id, shorten_id
from qti_builder.writers import DEFAULT_FORMATS
from qti_builder.writers.moodle import IDNUMBER_LENGTH

#: Folders of fixtures, one input each.
GROUPS = ("aiken", "exam", "gift", "moodle-types", "qti12", "qti21-types", "quizpage")
#: Folders that are one package each.
PACKAGES = ("canvas-export", "canvas-package", "new-quizzes-export", "onyx-package", "qti21-interactions",
            "qti21-templates", "tao-package")
#: A folder holding one input and what it was made from (a README says how).
MADE_FROM = {"text2qti-zip": "cell-quiz.zip"}
#: Every input: the groups' files and folders, the packages, single files at the top.
INPUTS = sorted([p for g in GROUPS for p in (FIXTURES / g).iterdir() if p.name not in ("README.md", "site")]
                + [FIXTURES / "quizpage/site/organelles.md"]  # a page with its site's images
                + [p for p in FIXTURES.iterdir() if p.is_file()]
                + [FIXTURES / n for n in PACKAGES]
                + [FIXTURES / folder / name for folder, name in MADE_FROM.items()])


def test_every_fixture_folder_is_an_input() -> None:
    """A new folder of import fixtures is built here too: it must be named as a group, a package
    or a made input above."""
    folders = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert folders == set(GROUPS) | set(PACKAGES) | set(MADE_FROM)


#: Inputs written to be refused (a paper whose answer key numbers questions it does not have):
#: each gives no quiz, only located errors with their hints. Every other input gives a quiz.
REFUSED = {"quizpage/numbered-twice.md", "quizpage/renumbered.txt"}


def test_the_refused_inputs_are_inputs() -> None:
    assert REFUSED <= {str(p.relative_to(FIXTURES)) for p in INPUTS}


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_imported_quiz_builds(path: Path, tmp_path: Path) -> None:
    """Import then build succeeds, or the import failed with clear messages: each error at a line
    of the input, with a hint (issue 30)."""
    quizzes, sink = run_import(path)
    if str(path.relative_to(FIXTURES)) in REFUSED:
        assert not quizzes and sink.errors
        assert all(d.span is not None and d.span.path and d.span.line >= 1 and d.hint for d in sink.errors), messages(sink)
        return
    assert quizzes and not sink.errors, messages(sink)
    for number, item in enumerate(quizzes):
        folder = tmp_path / str(number)
        folder.mkdir()
        builds(item.quiz, item.media, folder)  # raises if the build refuses the source
        assert len(list((folder / "dist").iterdir())) == len(DEFAULT_FORMATS)


LONG_NAME = "Introduction_to_Cellular_and_Molecular_Biology_Midterm_Examination_Practice_Questions_Spring_Semester_2024_Section_B"
AIKEN = """What is the powerhouse of the cell, and why is it called that in most introductory biology textbooks today?
A) Mitochondrion
B) Nucleus
ANSWER: A
"""


def test_an_aiken_file_with_a_long_name_builds_for_moodle(tmp_path: Path) -> None:
    path = tmp_path / f"{LONG_NAME}.txt"
    path.write_text(AIKEN, encoding="utf-8")
    (item,) = run_import(path)[0]
    quiz = item.quiz
    # The name cut to fit, with a hash of the whole name: the same file always gives the same id.
    assert re.fullmatch(r"Introduction_to_Cellular_and_Molecular_Biology_\w+-[0-9a-f]{8}", quiz.id), quiz.id
    assert quiz.id == run_import(path)[0][0].quiz.id
    longest = max(len(i) for i in [s.id for _, s in quiz.iter_sections()] + [q.id for q in quiz.iter_questions()])
    assert len(quiz.id) + 1 + longest <= IDNUMBER_LENGTH
    builds(quiz, item.media, tmp_path)
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    idnumbers = [e.text or "" for e in etree.parse(str(moodle)).iter("idnumber")]
    # The quiz's category (holding its one section named as the quiz) and the question.
    assert len(idnumbers) == 2 and all(len(i) <= IDNUMBER_LENGTH for i in idnumbers), idnumbers
    assert idnumbers[0].startswith(quiz.id) and idnumbers[1] == next(quiz.iter_questions()).id


def test_long_ids_are_cut_with_a_stable_suffix() -> None:
    a, b = "x" * 70 + "-first", "x" * 70 + "-second"
    assert len(sanitise_id(a) or "") == 64 and sanitise_id(a) != sanitise_id(b)
    assert sanitise_id(a) == sanitise_id(a) and sanitise_id("short-id") == "short-id"
    assert shorten_id("quiz.section", 100) == "quiz.section"
    cut = shorten_id("a" * 50, 20)
    assert len(cut) == 20 and cut.startswith("a" * 11 + "-")


def test_a_hand_written_source_with_long_ids_builds_for_moodle(tmp_path: Path) -> None:
    """The writer's side: a category's idnumber falls back to the section's id; a question's is its id."""
    quiz_id, section_id = "q" * 64, "s" * 64
    source = tmp_path / f"{quiz_id}.md"
    source.write_text(f"---\nid: {quiz_id}\ntitle: Long\nlanguage: en\n---\n\n# Part {{#{section_id}}}\n\n"
                      "1. Two and two? {#sum}\n\nA) 4\nB) 5\n\nAnswer: A\n", encoding="utf-8")
    from qti_builder.pipeline import BuildOptions, build

    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    assert [e.text for e in etree.parse(str(moodle)).iter("idnumber")] == [quiz_id, section_id, "sum"]


def test_a_wordselect_bank_builds_and_scores_in_moodle(tmp_path: Path) -> None:
    """Issue 30: a wordselect bank imported, then refused on build: its introduction's list items
    stood outside a list (the QTI 2.1 schema refuses an <li> there), and a text with eleven right
    words gave each 9.09 %, which Moodle cannot store (QB321). Now the items are in a list, the
    shares are grade options that add up to 100 % (the change named), and Moodle grades the
    right words as right and every word ticked below full marks."""
    from helpers import zip_members
    from helpers.moodle_engine import grade, read_question

    (item,), sink = run_import(FIXTURES / "moodle-types" / "wordselect-bank.xml")
    assert any("equal shares for its 11 right words" in m for m in messages(sink)), messages(sink)
    colours = next(q for q in item.quiz.iter_questions() if q.id == "colours")
    scores = [c.score for c in colours.choices if c.correct]
    assert scores == [10] * 9 + [5] * 2 and all(c.score == -10 for c in colours.choices if not c.correct)
    builds(item.quiz, item.media, tmp_path)
    (qti,) = (tmp_path / "dist").glob("*.qti21.zip")
    harbour = etree.fromstring(zip_members(qti.read_bytes())["items/harbour.xml"])
    items = harbour.findall(".//{*}li")
    assert len(items) == 4 and {li.getparent().tag.split("}")[1] for li in items} == {"ul"}
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    questions = {q.findtext("name/text"): q for q in etree.parse(str(moodle)).getroot().iter("question")}
    for name in ("Harbour", "Colours"):
        engine = read_question(questions[name])
        right = {k for k, a in enumerate(engine.answers) if a.fraction > 0}
        assert grade(engine, right) == 1
        assert grade(engine, set(range(len(engine.answers)))) < 1
