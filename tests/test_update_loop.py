"""The update loop into Moodle (docs/updating.md): `diff --changed-only` names the questions that
changed, `build --only` writes packages with just those, and a Moodle export goes through import
and build with its ID numbers and its quiz's name as they were."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.importing import moodle_category, moodle_true_false
from lxml import etree

OLD = """---
id: basics
title: Python basics
---

# Functions {#functions}

1. Which keyword defines a function? {#def-keyword}

A) func
B) def

Answer: B

2. What does `len("abc")` return? {#len type=numerical}

Answer: 3

# Essays {#essays}

3. Why use a virtual environment? {#venv type=essay}
"""

NEW = OLD.replace("Which keyword defines", "Which keyword starts").replace("{#len type=numerical}", "{#len type=numerical points=2}")

#: Another quiz in the same folder, which has none of the changed questions.
OTHER = "---\nid: other\ntitle: Other\n---\n\n1. Is 7 prime? {#seven}\n\nAnswer: true\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def moodle_questions(path: Path) -> dict[str, str]:
    """idnumber -> type of each question of a Moodle XML file (categories left out)."""
    root = etree.parse(str(path)).getroot()
    return {q.findtext("idnumber"): q.get("type") for q in root.findall("question") if q.get("type") != "category"}


def qti_items(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        manifest = etree.fromstring(archive.read("imsmanifest.xml"))
    return sorted(r.get("identifier") for r in manifest.iter("{*}resource") if r.get("type", "").startswith("imsqti_item"))


def test_build_only_writes_packages_with_just_those_questions(tmp_path: Path) -> None:
    write(tmp_path, "source/basics.md", OLD)
    write(tmp_path, "source/other.md", OTHER)
    code, out, err = run("build", "--only", "def-keyword,venv", cwd=tmp_path)
    assert (code, err) == (0, ""), err
    dist = tmp_path / "dist"
    assert sorted(p.name for p in dist.iterdir()) == ["basics.canvas.zip", "basics.mbz", "basics.moodle.xml", "basics.qti21.zip"]
    assert moodle_questions(dist / "basics.moodle.xml") == {"def-keyword": "multichoice", "venv": "essay"}
    assert len(qti_items(dist / "basics.qti21.zip")) == 2
    with zipfile.ZipFile(dist / "basics.canvas.zip") as archive:
        canvas = b"".join(archive.read(n) for n in archive.namelist() if n.endswith(".xml"))
    assert b"basics.def-keyword" in canvas and b"basics.venv" in canvas and b"basics.len" not in canvas
    assert out.splitlines()[0] == "basics: 2 questions: 1 single choice, 1 essay"


def test_build_only_with_a_question_no_quiz_has_writes_nothing(tmp_path: Path) -> None:
    write(tmp_path, "source/basics.md", OLD)
    code, _, err = run("build", "--only", "def-keyword basics/nope", cwd=tmp_path)
    assert code == 1 and "error[QB234]: --only names question 'basics/nope', which no quiz has" in err
    assert not (tmp_path / "dist").exists()
    code, _, err = run("build", "--only", " , ", cwd=tmp_path)
    assert code == 2 and "give the ids of the questions to build" in err


def test_diff_changed_only_feeds_build_only(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old/basics.md", OLD), write(tmp_path, "source/basics.md", NEW)
    write(tmp_path, "source/other.md", OTHER)
    write(tmp_path, "old/other.md", OTHER)
    code, out, err = run("diff", "old", "source", "--changed-only", cwd=tmp_path)
    assert (code, err) == (0, "")  # exit 0, so that `$(qti-builder diff ... --changed-only)` does not stop a script
    assert out.splitlines() == ["basics/def-keyword", "basics/len"]
    code, _, err = run("build", "--only", out, cwd=tmp_path)
    assert (code, err) == (0, "")
    assert moodle_questions(tmp_path / "dist" / "basics.moodle.xml") == {"def-keyword": "multichoice", "len": "numerical"}
    assert not (tmp_path / "dist" / "other.moodle.xml").exists()
    assert run("diff", str(old), str(new), "--changed-only", cwd=tmp_path)[1].splitlines() == ["basics/def-keyword", "basics/len"]
    # Nothing changed: nothing printed, and still exit 0.
    assert run("diff", "old/other.md", "source/other.md", "--changed-only", cwd=tmp_path)[:2] == (0, "")


def moodle_export(week: int, stem: str = "Which organelle makes most of the cell's ATP?") -> str:
    """A course's questions as Moodle 4.5 exports them from the course's default category: the
    category Moodle names "Default for <course>", with Moodle's own description, and ID numbers
    the teacher gave (W3-Q1, ...)."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Default for BIO101</text></category>
    <info format="moodle_auto_format"><text>The default category for questions shared in context 'BIO101'.</text></info>
    <idnumber></idnumber>
  </question>
  <question type="multichoice">
    <name><text>Cell powerhouse</text></name>
    <questiontext format="html"><text><![CDATA[<p>{stem}</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber>W{week}-Q1</idnumber>
    <single>true</single>
    <shuffleanswers>true</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <answer fraction="100" format="html"><text><![CDATA[<p>Mitochondrion</p>]]></text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="html"><text><![CDATA[<p>Ribosome</p>]]></text><feedback format="html"><text></text></feedback></answer>
  </question>
  <question type="truefalse">
    <name><text>Membrane</text></name>
    <questiontext format="html"><text><![CDATA[<p>The cell membrane is a lipid bilayer.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>1.0000000</penalty>
    <hidden>0</hidden>
    <idnumber>W{week}-Q2</idnumber>
    <answer fraction="100" format="moodle_auto_format"><text>true</text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="moodle_auto_format"><text>false</text><feedback format="html"><text></text></feedback></answer>
  </question>
</quiz>
"""


def test_a_moodle_round_trip_keeps_the_id_numbers_and_names_no_quiz_after_the_default_category(tmp_path: Path) -> None:
    write(tmp_path, "week3.xml", moodle_export(3))
    write(tmp_path, "week4.xml", moodle_export(4))
    code, _, err = run("import", "week3.xml", "week4.xml", "--allow-skipped", cwd=tmp_path)
    assert code == 0 and "QB720" not in err, err  # two weekly exports of one course are two quizzes
    week3 = (tmp_path / "source" / "week3.md").read_text(encoding="utf-8")
    assert week3.startswith("---\nid: week3\ntitle: week3\n")
    assert "Default for" not in week3 and "default category" not in week3  # Moodle's words, not the author's
    assert "{#W3-Q1 " in week3 and "{#W3-Q2 " in week3
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    # The ID numbers Moodle gave come back unchanged: a re-import finds the same questions.
    assert moodle_questions(tmp_path / "dist" / "week3.moodle.xml") == {"W3-Q1": "multichoice", "W3-Q2": "truefalse"}
    assert moodle_questions(tmp_path / "dist" / "week4.moodle.xml") == {"W4-Q1": "multichoice", "W4-Q2": "truefalse"}
    root = etree.parse(str(tmp_path / "dist" / "week3.moodle.xml")).getroot()
    assert not any("Default for" in (c.findtext("category/text") or "") for c in root.findall("question"))


def test_import_id_names_the_quiz(tmp_path: Path) -> None:
    write(tmp_path, "week3.xml", moodle_export(3))
    write(tmp_path, "week4.xml", moodle_export(4))
    code, out, err = run("import", "week3.xml", "--id", "bio101-week3", cwd=tmp_path)
    assert code == 0, err
    assert (tmp_path / "source" / "bio101-week3.md").read_text(encoding="utf-8").startswith("---\nid: bio101-week3\n")
    code, _, err = run("import", "week3.xml", "week4.xml", "--id", "bio101", "--out", "other", cwd=tmp_path)
    assert code == 1 and "error[QB725]: --id gives one quiz its id, and the inputs hold 2 quizzes" in err
    assert not (tmp_path / "other").exists()
    code, _, err = run("import", "week3.xml", "--id", "9 lives", cwd=tmp_path)
    assert code == 2 and "'9 lives' is no quiz id" in err


def test_diff_takes_an_lms_export_as_the_old_side(tmp_path: Path) -> None:
    """What was last imported into Moodle, as exported from it, against the sources now."""
    write(tmp_path, "week3.xml", moodle_export(3))
    assert run("import", "week3.xml", cwd=tmp_path)[0] == 0
    code, out, _ = run("diff", "week3.xml", "source/week3.md", cwd=tmp_path)
    assert (code, out.splitlines()[-1]) == (0, "no change in 1 quiz")  # import and read back: the same quiz
    source = tmp_path / "source" / "week3.md"
    source.write_text(source.read_text(encoding="utf-8").replace("lipid bilayer", "phospholipid bilayer"), encoding="utf-8")
    code, out, _ = run("diff", "week3.xml", "source/week3.md", cwd=tmp_path)
    assert code == 4 and "  ~ W3-Q2: text" in out.splitlines()
    assert run("diff", "week3.xml", "source/week3.md", "--changed-only", cwd=tmp_path)[1] == "week3/W3-Q2\n"


# As Moodle's language packs word 'defaultfor' (English, German, Spanish, Korean, Japanese, traditional Chinese):
# the site's language names the category.
@pytest.mark.parametrize("name", ["Default for BIO101", "Default for Quiz 3", "Standard für BIO101", "Por defecto en BIO101",
                                  "BIO101 의 기본설정", "BIO101 のデフォルト", "BIO101的預設"])
def test_moodles_default_category_names_are_known(name: str) -> None:
    from qti_builder.importers.moodle.bank import is_default_category

    assert is_default_category(name) and not is_default_category("Defaults of genetics")
    assert not is_default_category("Standardmodell") and not is_default_category("기본설정")


def test_a_default_category_in_the_site_s_language_names_no_quiz(tmp_path: Path) -> None:
    """A Korean site's export: the quiz is named after the file, not after '생물학 의 기본설정'."""
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="category"><category><text>$course$/top/'
           '생물학 의 기본설정</text></category></question>\n<question type="truefalse"><name><text>q</text></name>'
           '<questiontext format="html"><text>세포는 생명의 단위이다.</text></questiontext><idnumber>W3-Q9</idnumber>'
           '<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>'
           '</question>\n</quiz>\n')
    (tmp_path / "week3.xml").write_text(xml, encoding="utf-8")
    code, _, err = run("import", "week3.xml", cwd=tmp_path)
    assert code == 0, err
    week3 = (tmp_path / "source" / "week3.md").read_text(encoding="utf-8")
    assert "title: week3" in week3 and "기본설정" not in week3 and "{#W3-Q9" in week3


def test_diff_warns_of_questions_without_an_id_of_their_own(tmp_path: Path) -> None:
    """A question without {#id} gets an id made from its text: reworded, it shows as removed and
    added. diff says why, at the sources, for each such question; one with an id shows as changed."""
    old = "---\nid: b\ntitle: T\n---\n\n1. Is 7 prime?\n\nAnswer: true\n\n2. Is 9 prime? {#nine}\n\nAnswer: false\n"
    write(tmp_path, "old.md", old)
    write(tmp_path, "new.md", old.replace("Is 7 prime", "Is seven prime").replace("Is 9 prime", "Is nine prime"))
    code, out, err = run("diff", "old.md", "new.md", cwd=tmp_path)
    assert code == 4 and "  ~ nine: text" in out.splitlines()
    warnings = [line for line in err.splitlines() if "warning[QB235]" in line]
    assert len(warnings) == 2
    assert warnings[0].startswith("new.md:1:1: warning[QB235]: question 'q") and "(Is seven prime?) has no {#id}" in warnings[0]
    assert warnings[1].startswith("old.md:1:1: warning[QB235]") and "(Is 7 prime?)" in warnings[1]
    assert "nine" not in err


WEEK3_CATEGORIES = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Week 3</text></category>
    <info format="html"><text></text></info>
    <idnumber>BIO-W3</idnumber>
  </question>
  <question type="category">
    <category><text>$course$/top/Week 3/Cells</text></category>
    <info format="html"><text></text></info>
    <idnumber>BIO-W3-CELLS</idnumber>
  </question>
  <question type="truefalse">
    <name><text>Membrane</text></name>
    <questiontext format="html"><text><![CDATA[<p>The cell membrane is a lipid bilayer.</p>]]></text></questiontext>
    <defaultgrade>1.0000000</defaultgrade>
    <idnumber>W3-Q2</idnumber>
    <answer fraction="100" format="moodle_auto_format"><text>true</text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="moodle_auto_format"><text>false</text><feedback format="html"><text></text></feedback></answer>
  </question>
</quiz>
"""


def category_idnumbers(path: Path) -> dict[str, str]:
    """category path -> ID number, of a Moodle XML file's categories."""
    root = etree.parse(str(path)).getroot()
    return {q.findtext("category/text"): q.findtext("idnumber") for q in root.findall("question") if q.get("type") == "category"}


def test_a_moodle_round_trip_keeps_the_categories_id_numbers(tmp_path: Path) -> None:
    """A course's categories with ID numbers of its own (BIO-W3, and BIO-W3-CELLS below it): the
    quiz is BIO-W3, its section BIO-W3-CELLS, and the build gives Moodle both ID numbers as they
    were (before, the section's came back as BIO-W3.BIO-W3-CELLS); built and imported again, the
    same ids, so the round trip is stable."""
    write(tmp_path, "week3.xml", WEEK3_CATEGORIES)
    assert run("import", "week3.xml", cwd=tmp_path)[0] == 0
    assert (tmp_path / "source" / "BIO-W3.md").read_text(encoding="utf-8").startswith("---\nid: BIO-W3\n")
    assert run("build", "--format", "moodle", cwd=tmp_path)[0] == 0
    built = tmp_path / "dist" / "BIO-W3.moodle.xml"
    assert category_idnumbers(built) == {"$course$/top/Week 3": "BIO-W3", "$course$/top/Week 3/Cells": "BIO-W3-CELLS"}
    assert moodle_questions(built) == {"W3-Q2": "truefalse"}
    assert run("import", str(built), "--out", "again", cwd=tmp_path)[0] == 0
    assert run("build", "again", "--format", "moodle", "--out", "dist2", cwd=tmp_path)[0] == 0
    assert (tmp_path / "dist2" / "BIO-W3.moodle.xml").read_bytes() == built.read_bytes()
    # A section id of the author's own is still scoped by the quiz's, unique in the course.
    from qti_builder.writers.moodle import idnumber

    assert idnumber("BIO-W3", "cells") == "BIO-W3.cells" and idnumber("BIO-W3", "BIO-W3.cells") == "BIO-W3.BIO-W3.cells"




#: A course's categories with ID numbers of every form under the quiz BIO-W3: one unrelated to the
#: quiz id (CELLS), one as qti-builder scopes them (BIO-W3.TISSUES), one with spaces, one in Korean,
#: one that starts with the quiz id and '-'.
OWN_ID_NUMBERS = {
    "$course$/top/Week 3": "BIO-W3",
    "$course$/top/Week 3/Cells": "CELLS",
    "$course$/top/Week 3/Tissues": "BIO-W3.TISSUES",
    "$course$/top/Week 3/Organs": "Organs and systems 2",
    "$course$/top/Week 3/세포 분열": "세포분열-3주",
    "$course$/top/Week 3/Genes": "BIO-W3-GENES",
}
WEEK3_OWN = ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "".join(
    moodle_category(path.removeprefix("$course$/top/"), ident) + (moodle_true_false(f"W3-Q{n}", f"Statement {n} is true.") if n else "")
    for n, (path, ident) in enumerate(OWN_ID_NUMBERS.items())) + "</quiz>\n")


def test_a_moodle_round_trip_gives_back_category_id_numbers_unrelated_to_the_quiz_id(tmp_path: Path) -> None:
    """Item 4: a sub-category's ID number the build would not make from the section id (CELLS
    under BIO-W3 would come back as BIO-W3.CELLS) is kept in the source as the section's
    moodle_idnumber, and the Moodle XML and quiz backup builds give every category's ID number
    back byte for byte; those the build makes anyway (BIO-W3.TISSUES, BIO-W3-GENES) take no
    attribute. Imported again from the build, the same source and the same file."""
    write(tmp_path, "week3.xml", WEEK3_OWN)
    code, _, err = run("import", "week3.xml", cwd=tmp_path)
    assert code == 0, err
    source = (tmp_path / "source" / "BIO-W3.md").read_text(encoding="utf-8")
    headings = [line for line in source.splitlines() if line.startswith("#")]
    assert headings == ["# Cells {#CELLS moodle_idnumber=CELLS}", "# Tissues {#TISSUES}",
                        '# Organs {#Organs-and-systems-2 moodle_idnumber="Organs and systems 2"}',
                        "# 세포 분열 {#q-3 moodle_idnumber=세포분열-3주}", "# Genes {#BIO-W3-GENES}"]
    assert run("build", "--format", "moodle,moodle-quiz", cwd=tmp_path)[0] == 0
    built = tmp_path / "dist" / "BIO-W3.moodle.xml"
    assert category_idnumbers(built) == OWN_ID_NUMBERS
    assert moodle_questions(built) == {f"W3-Q{n}": "truefalse" for n in range(1, 6)}
    # The quiz backup's categories: questions.xml, beside the quiz's own.
    with tarfile.open(tmp_path / "dist" / "BIO-W3.mbz", mode="r:gz") as backup:
        member = backup.extractfile("questions.xml")
        assert member is not None
        questions = etree.fromstring(member.read())
    backed_up = {c.findtext("name"): c.findtext("idnumber") for c in questions.iter("question_category")}
    assert {name: backed_up[name] for name in ("Week 3", "Cells", "Tissues", "Organs", "세포 분열", "Genes")} == \
        {path.rsplit("/", 1)[-1]: ident for path, ident in OWN_ID_NUMBERS.items()}
    # A second round trip changes nothing: the same source, the same file.
    assert run("import", str(built), "--out", "again", cwd=tmp_path)[0] == 0
    assert (tmp_path / "again" / "BIO-W3.md").read_text(encoding="utf-8") == source
    assert run("build", "again", "--format", "moodle", "--out", "dist2", cwd=tmp_path)[0] == 0
    assert (tmp_path / "dist2" / "BIO-W3.moodle.xml").read_bytes() == built.read_bytes()
    # The backup imported keeps them too.
    assert run("import", "dist/BIO-W3.mbz", "--out", "from-backup", cwd=tmp_path)[0] == 0
    from_backup = (tmp_path / "from-backup" / "BIO-W3.md").read_text(encoding="utf-8")
    assert [line for line in from_backup.splitlines() if line.startswith("#")] == headings


COLLIDING = """---
id: BIO-W3
title: Week 3
---

# Cells {#cells moodle_idnumber=CELLS}

1. Is a cell alive? {#q1}

Answer: true

# Tissues {#tissues moodle_idnumber=CELLS}

1. Is blood a tissue? {#q2}

Answer: true

# Organs {#organs moodle_idnumber=BIO-W3.genes}

1. Is the heart an organ? {#q3}

Answer: true

# Genes {#genes}

1. Is DNA a helix? {#q4}

Answer: true

# Week {#week moodle_idnumber=BIO-W3}

1. Is this week 3? {#q5}

Answer: true
"""


def test_two_categories_with_one_id_number_are_an_error_at_the_second(tmp_path: Path) -> None:
    """QB237: Moodle refuses the whole file on a repeated category ID number. Two sections with one
    moodle_idnumber, one that is the ID number the build makes of another section (BIO-W3.genes),
    and one that is the quiz's (the quiz id): each an error at its attribute, one run, nothing written."""
    write(tmp_path, "source/week3.md", COLLIDING)
    code, _, err = run("build", cwd=tmp_path)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert errors == [
        "source/week3.md:12:21: error[QB237]: section 'tissues' gives its Moodle category the ID number 'CELLS', which "
        "section 'cells' has (source/week3.md:6); Moodle refuses the whole file on a repeated category ID number",
        "source/week3.md:24:1: error[QB237]: section 'genes' gives its Moodle category the ID number 'BIO-W3.genes', "
        "which section 'organs' has (source/week3.md:18); Moodle refuses the whole file on a repeated category ID number",
        "source/week3.md:30:15: error[QB237]: section 'week' gives its Moodle category the ID number 'BIO-W3', which "
        "the quiz's own category has (source/week3.md:2); Moodle refuses the whole file on a repeated category ID number",
    ], err
    assert not (tmp_path / "dist").exists() or not any((tmp_path / "dist").iterdir())
    fixed = COLLIDING.replace("{#tissues moodle_idnumber=CELLS}", "{#tissues}").replace(" moodle_idnumber=BIO-W3.genes", "") \
        .replace(" moodle_idnumber=BIO-W3}", "}")
    write(tmp_path, "source/week3.md", fixed)
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    assert category_idnumbers(tmp_path / "dist" / "BIO-W3.moodle.xml") == {
        "$course$/top/Week 3": "BIO-W3", "$course$/top/Week 3/Cells": "CELLS", "$course$/top/Week 3/Tissues": "BIO-W3.tissues",
        "$course$/top/Week 3/Organs": "BIO-W3.organs", "$course$/top/Week 3/Genes": "BIO-W3.genes", "$course$/top/Week 3/Week": "BIO-W3.week"}


def test_a_yaml_source_gives_the_id_number_and_moodle_s_limits_are_located(tmp_path: Path) -> None:
    yaml = ("id: BIO-W3\ntitle: Week 3\nsections:\n  - id: cells\n    title: Cells\n    moodle_idnumber: CELLS\n"
            "    questions:\n      - {type: true_false, id: q1, stem: Is a cell alive?, answer: true}\n"
            "  - id: tissues\n    title: Tissues\n    moodle_idnumber: " + "T" * 101 + "\n"
            "    questions:\n      - {type: true_false, id: q2, stem: Is blood a tissue?, answer: true}\n")
    write(tmp_path, "source/week3.yaml", yaml)
    code, _, err = run("check", cwd=tmp_path)
    assert code == 1 and "source/week3.yaml:11:" in err and "error[QB201]" in err
    assert f"the Moodle ID number '{'T' * 101}' is not one line of at most 100 characters without spaces at its ends" in err
    write(tmp_path, "source/week3.yaml", yaml.replace("T" * 101, "TISSUES"))
    assert run("build", "--format", "moodle", cwd=tmp_path)[0] == 0
    assert list(category_idnumbers(tmp_path / "dist" / "BIO-W3.moodle.xml").values()) == ["BIO-W3", "CELLS", "TISSUES"]


def test_import_id_keeps_the_categories_id_numbers(tmp_path: Path) -> None:
    """`import --id` renames the quiz (its own category's ID number is the new id), and every other
    category keeps its ID number: also those the build made from the old quiz id (BIO-W3.TISSUES,
    BIO-W3-GENES), which the source now says as they are."""
    write(tmp_path, "week3.xml", WEEK3_OWN)
    code, _, err = run("import", "week3.xml", "--id", "bio-week3", cwd=tmp_path)
    assert code == 0, err
    source = (tmp_path / "source" / "bio-week3.md").read_text(encoding="utf-8")
    assert "# Tissues {#TISSUES moodle_idnumber=BIO-W3.TISSUES}" in source and "# Genes {#BIO-W3-GENES moodle_idnumber=BIO-W3-GENES}" in source
    assert run("build", "--format", "moodle", cwd=tmp_path)[0] == 0
    assert category_idnumbers(tmp_path / "dist" / "bio-week3.moodle.xml") == {**OWN_ID_NUMBERS, "$course$/top/Week 3": "bio-week3"}


def test_a_section_named_as_the_quiz_with_an_id_number_of_its_own_is_a_category(tmp_path: Path) -> None:
    """A section named as the quiz keeps its questions in the quiz's own category, whose ID number
    is the quiz id: with a moodle_idnumber of its own it is a category below it instead, with that
    ID number, never one dropped in silence. Imported back, the same."""
    write(tmp_path, "source/w3.md", "---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Week 3 {#w3 moodle_idnumber=W3-ALL}\n\n"
                                     "1. Is a cell alive? {#q1}\n\nAnswer: true\n")
    assert run("build", "--format", "moodle", cwd=tmp_path)[0] == 0
    built = tmp_path / "dist" / "BIO-W3.moodle.xml"
    assert category_idnumbers(built) == {"$course$/top/Week 3": "BIO-W3", "$course$/top/Week 3/Week 3": "W3-ALL"}
    assert run("import", str(built), "--out", "again", cwd=tmp_path)[0] == 0
    # (the section's id is now Moodle's ID number, as an import makes it)
    assert "# Week 3 {#W3-ALL moodle_idnumber=W3-ALL}" in (tmp_path / "again" / "BIO-W3.md").read_text(encoding="utf-8")
    assert run("build", "again", "--format", "moodle", "--out", "dist2", cwd=tmp_path)[0] == 0
    assert category_idnumbers(tmp_path / "dist2" / "BIO-W3.moodle.xml") == category_idnumbers(built)


WEEK2 = "---\nid: BIO-W2\ntitle: Week 2\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n1. Is a cell alive? {#q1}\n\nAnswer: true\n"
WEEK3 = ("---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n1. Is a cell alive? {#q1}\n\nAnswer: true\n\n"
         "# Review {#review moodle_idnumber=BIO-W2}\n\n1. Is DNA a helix? {#q2}\n\nAnswer: true\n")


@pytest.mark.parametrize("cached", [False, True])
def test_two_quizzes_of_a_build_with_one_category_id_number_are_an_error(tmp_path: Path, cached: bool) -> None:
    """The build's quizzes go into one course, where category ID numbers are unique: a section of
    the second quiz with the first's section's ID number, or with the first quiz's id, is an error
    at the second, located; so too when each quiz was built alone before and comes from the cache."""
    write(tmp_path, "source/a-week2.md", WEEK2)
    write(tmp_path, "source/b-week3.md", WEEK3)
    if cached:  # each built alone: both kept in the build cache, without errors
        assert run("build", "source/a-week2.md", "--format", "moodle", "--out", "one", cwd=tmp_path)[0] == 0
        assert run("build", "source/b-week3.md", "--format", "moodle", "--out", "two", cwd=tmp_path)[0] == 0
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    # (a quiz from the cache: a section where its first question is)
    where, review, first = ("b-week3.md:8:1", "b-week3.md:14:1", 8) if cached else ("b-week3.md:6:17", "b-week3.md:12:19", 6)
    assert errors == [
        f"source/{where}: error[QB237]: section 'cells' of the quiz 'BIO-W3' gives its Moodle category the ID number 'CELLS', which "
        f"section 'cells' of the quiz 'BIO-W2' has (source/a-week2.md:{first}); Moodle refuses a file that repeats a category ID "
        "number of the course",
        f"source/{review}: error[QB237]: section 'review' of the quiz 'BIO-W3' gives its Moodle category the ID number 'BIO-W2', "
        "which the quiz 'BIO-W2' itself has (source/a-week2.md:2); Moodle refuses a file that repeats a category ID number "
        "of the course",
    ], err
    assert not (tmp_path / "dist" / "BIO-W3.moodle.xml").exists()


def test_an_import_never_writes_a_category_id_number_twice(tmp_path: Path) -> None:
    """A file that gives two categories one ID number (categories of two contexts, or a file
    edited by hand): the first keeps it, the second is said (QB711) and gets the one the build
    makes, so that the source builds (a repeat would be QB237)."""
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + moodle_category("Week 3", "BIO-W3")
           + moodle_category("Week 3/Cells", "CELLS") + moodle_true_false("W3-Q1", "A cell is alive.")
           + moodle_category("Week 3/Tissues", "CELLS") + moodle_true_false("W3-Q2", "Blood is a tissue.") + "</quiz>\n")
    write(tmp_path, "week3.xml", xml)
    code, _, err = run("import", "week3.xml", cwd=tmp_path)
    assert code == 0 and "warning[QB711]: section 'CELLS-2': its category's ID number 'CELLS' is another category's too" in err, err
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    assert category_idnumbers(tmp_path / "dist" / "BIO-W3.moodle.xml") == {
        "$course$/top/Week 3": "BIO-W3", "$course$/top/Week 3/Cells": "CELLS", "$course$/top/Week 3/Tissues": "BIO-W3.CELLS-2"}
