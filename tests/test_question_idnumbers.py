"""A question's Moodle ID number (issue 31, item 4): one that is no id (a space, Korean, the quiz
id before a dot) is kept as the question's ``moodle_idnumber``, so that Moodle XML -> import ->
build -> Moodle XML (and the quiz backup) gives every ID number back byte for byte, while the
question id, which ``diff`` and ``build --only`` use, stays what it was; two questions of one
category with one ID number are QB238, at the second."""

from __future__ import annotations

import tarfile
from pathlib import Path

from helpers.cli import run
from helpers.importing import moodle_category, moodle_true_false
from helpers.moodle_engine import bank_idnumbers
from lxml import etree


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path




#: A course's question ID numbers by category, as Moodle exported them: one with a space, one in
#: Korean, one that starts with the quiz id and a dot (as qti-builder scopes category ID numbers),
#: one that two categories both have, and one that is an id as it is.
COURSE = {
    "$course$/top/Week 3/Cells": ["W3 Q1", "세포-1", "BIO-W3.Q1", "W3-DUP"],
    "$course$/top/Week 3/Tissues": ["W3-DUP", "W3-Q6"],
}
CATEGORY_IDNUMBERS = {"Week 3": "BIO-W3", "Week 3/Cells": "CELLS", "Week 3/Tissues": "TISSUES"}


def moodle_file(course: dict[str, list[str]]) -> str:
    text, number = '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + moodle_category("Week 3", "BIO-W3"), 0
    for path, idnumbers in course.items():
        name = path.removeprefix("$course$/top/")
        text += moodle_category(name, CATEGORY_IDNUMBERS[name])
        for ident in idnumbers:
            number += 1
            text += moodle_true_false(ident, f"Statement {number} is true.", name=f"Statement {number} is true.")
    return text + "</quiz>\n"


def question_idnumbers(path: Path) -> dict[str, list[str]]:
    """Category path -> the ID numbers of its questions, in order, of a Moodle XML file."""
    found: dict[str, list[str]] = {}
    current = ""
    for question in etree.parse(str(path)).getroot().findall("question"):
        if question.get("type") == "category":
            current = question.findtext("category/text") or ""
        else:
            found.setdefault(current, []).append(question.findtext("idnumber") or "")
    return found


def backed_up_idnumbers(path: Path) -> dict[str, list[str]]:
    """Category name -> the ID numbers of its questions, of a quiz backup's questions.xml."""
    with tarfile.open(path, mode="r:gz") as backup:
        member = backup.extractfile("questions.xml")
        assert member is not None
        root = etree.fromstring(member.read())
    return {c.findtext("name") or "": [e.findtext("idnumber") or "" for e in c.iter("question_bank_entry")]
            for c in root.iter("question_category") if list(c.iter("question_bank_entry"))}


def test_question_id_numbers_that_are_no_ids_survive_a_moodle_round_trip(tmp_path: Path) -> None:
    """Each ID number that is not the question's id is its moodle_idnumber, written as it was; an
    id the import makes unique (W3-DUP-2, in another category than W3-DUP) keeps the ID number of
    its category's question. The build gives every one back, in the Moodle XML file and in the
    quiz backup; imported and built again, the same source and the same bytes."""
    write(tmp_path, "week3.xml", moodle_file(COURSE))
    code, _, err = run("import", "week3.xml", cwd=tmp_path)
    assert code == 0, err
    source = (tmp_path / "source" / "BIO-W3.md").read_text(encoding="utf-8")
    questions = [line.split(". ", 1)[1] for line in source.splitlines() if line[:1].isdigit()]
    assert questions == [
        'Statement 1 is true. {#W3-Q1 moodle_idnumber="W3 Q1"}',  # the ids are what they were before
        "Statement 2 is true. {#q-1 moodle_idnumber=세포-1}",
        "Statement 3 is true. {#Q1 moodle_idnumber=BIO-W3.Q1}",
        "Statement 4 is true. {#W3-DUP}",
        "Statement 5 is true. {#W3-DUP-2 moodle_idnumber=W3-DUP}",
        "Statement 6 is true. {#W3-Q6}",
    ], source
    code, _, err = run("build", "--format", "moodle,moodle-quiz", cwd=tmp_path)
    assert code == 0, err
    built = tmp_path / "dist" / "BIO-W3.moodle.xml"
    assert question_idnumbers(built) == COURSE
    # Moodle's import keeps every one of them (it drops one its category has already).
    assert bank_idnumbers(etree.parse(str(built)).getroot()) == COURSE
    assert backed_up_idnumbers(tmp_path / "dist" / "BIO-W3.mbz") == {
        "Cells": COURSE["$course$/top/Week 3/Cells"], "Tissues": COURSE["$course$/top/Week 3/Tissues"]}
    # A second round trip: the same source, the same bytes; the backup imported, the same questions.
    assert run("import", str(built), "--out", "again", cwd=tmp_path)[0] == 0
    assert (tmp_path / "again" / "BIO-W3.md").read_text(encoding="utf-8") == source
    assert run("build", "again", "--format", "moodle", "--out", "dist2", cwd=tmp_path)[0] == 0
    assert (tmp_path / "dist2" / "BIO-W3.moodle.xml").read_bytes() == built.read_bytes()
    assert run("import", "dist/BIO-W3.mbz", "--out", "from-backup", cwd=tmp_path)[0] == 0
    from_backup = (tmp_path / "from-backup" / "BIO-W3.md").read_text(encoding="utf-8")
    assert [line for line in from_backup.splitlines() if line[:1].isdigit()] == \
        [line for line in source.splitlines() if line[:1].isdigit()]


def test_two_questions_of_a_section_with_one_id_number_are_an_error_at_the_second(tmp_path: Path) -> None:
    """QB238, at the second question's moodle_idnumber: two with the same one, and one whose
    moodle_idnumber is another question's id (which the build writes as its ID number). One that is
    the id of a question with an ID number of its own (q2) is free; questions of two sections may
    share one; nothing is written."""
    # What the error keeps from happening: Moodle imports such a file, without the second's ID number.
    assert bank_idnumbers(etree.fromstring(moodle_file({"$course$/top/Week 3/Cells": ["W3 Q1", "W3 Q1"]}).encode())) == \
        {"$course$/top/Week 3/Cells": ["W3 Q1", None]}
    write(tmp_path, "source/w3.md", "---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#cells}\n\n"
                                     '1. Is a cell alive? {#q1 moodle_idnumber="W3 Q1"}\n\nAnswer: true\n\n'
                                     '2. Is DNA a helix? {#q2 moodle_idnumber="W3 Q1"}\n\nAnswer: true\n\n'
                                     "3. Is RNA a helix? {#q3}\n\nAnswer: false\n\n"
                                     "4. Is a virus alive? {#q4 moodle_idnumber=q3}\n\nAnswer: false\n\n"
                                     "5. Is a prion alive? {#q6 moodle_idnumber=q2}\n\nAnswer: false\n\n"
                                     '# Tissues {#tissues}\n\n1. Is blood a tissue? {#q5 moodle_idnumber="W3 Q1"}\n\nAnswer: true\n')
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert errors == [
        "source/w3.md:12:25: error[QB238]: question 'q2' gives its Moodle ID number 'W3 Q1', which question 'q1', in the same "
        "category, has (source/w3.md:8); Moodle keeps one question with an ID number in a category and drops the other's ID number",
        "source/w3.md:20:27: error[QB238]: question 'q4' gives its Moodle ID number 'q3', which question 'q3', in the same "
        "category, has (source/w3.md:16); Moodle keeps one question with an ID number in a category and drops the other's ID number",
    ], err
    assert not (tmp_path / "dist").exists() or not any((tmp_path / "dist").iterdir())
    # Two sections side by side with one title are one category in Moodle XML (its import finds the
    # category again by name): their questions, too.
    write(tmp_path, "source/w3.md", "---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#a}\n\n1. Is a cell alive? {#q1 moodle_idnumber=X}"
                                     "\n\nAnswer: true\n\n# Cells {#b}\n\n1. Is it? {#q2 moodle_idnumber=X}\n\nAnswer: true\n")
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1 and "source/w3.md:14:16: error[QB238]: question 'q2' gives its Moodle ID number 'X', which question 'q1'" in err, err


def test_a_yaml_question_takes_moodle_idnumber_and_its_limits_are_located_errors(tmp_path: Path) -> None:
    """The YAML key; one line of at most 100 characters (Moodle's column), an error at its line."""
    yaml = ("id: BIO-W3\ntitle: Week 3\nsections:\n  - id: cells\n    title: Cells\n    questions:\n"
            "      - {type: true_false, id: q1, stem: Is a cell alive?, answer: true, moodle_idnumber: 세포 1}\n"
            "      - type: true_false\n        id: q2\n        stem: Is DNA a helix?\n        answer: true\n"
            "        moodle_idnumber: " + "Q" * 101 + "\n")
    write(tmp_path, "source/w3.yaml", yaml)
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert len(errors) == 1 and errors[0].startswith("source/w3.yaml:12:") and "error[QB201]" in errors[0] \
        and "not one line of at most 100 characters" in errors[0], err
    write(tmp_path, "source/w3.yaml", yaml.replace("Q" * 101, "Q" * 100))
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    assert question_idnumbers(tmp_path / "dist" / "BIO-W3.moodle.xml") == {"$course$/top/Week 3/Cells": ["세포 1", "Q" * 100]}


def test_an_import_never_writes_a_question_id_number_twice_in_a_category(tmp_path: Path) -> None:
    """A hand-edited file whose category has two questions with one ID number (Moodle would never
    export it): the first keeps it, the second is said (QB711) and gets its id as ID number, so
    that the source builds. An ID number Moodle cannot hold (too long) is said too."""
    course = {"$course$/top/Week 3/Cells": ["W3 Q1", "W3 Q1", "X" * 101]}
    write(tmp_path, "week3.xml", moodle_file(course))
    code, _, err = run("import", "week3.xml", cwd=tmp_path)
    assert code == 0, err
    assert "warning[QB711]: question 'W3-Q1-2': its ID number 'W3 Q1' is another question's of its category too" in err, err
    assert "ID number '" + "X" * 101 + "' cannot be kept as it is" in err, err
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    source = (tmp_path / "source" / "BIO-W3.md").read_text(encoding="utf-8")
    long_id = source.split("Statement 3 is true. {#", 1)[1].split("}", 1)[0]
    assert long_id.startswith("X" * 40) and len(long_id) == 64
    assert question_idnumbers(tmp_path / "dist" / "BIO-W3.moodle.xml") == {
        "$course$/top/Week 3/Cells": ["W3 Q1", "W3-Q1-2", long_id]}


def test_the_quiz_categorys_own_id_number_that_is_no_id_survives_a_round_trip(tmp_path: Path) -> None:
    """The quiz's own category 'BIO W3' (a space): the quiz id is BIO-W3 as before, and the front
    matter's moodle_idnumber gives the category its ID number back, in Moodle XML and in the quiz
    backup, whose import keeps it too; a section's ID number that is the quiz's is QB237."""
    write(tmp_path, "week3.xml", moodle_file(COURSE).replace("<idnumber>BIO-W3</idnumber>", "<idnumber>BIO W3</idnumber>"))
    assert run("import", "week3.xml", cwd=tmp_path)[0] == 0
    source = (tmp_path / "source" / "BIO-W3.md").read_text(encoding="utf-8")
    assert source.startswith("---\nid: BIO-W3\ntitle: Week 3\nlanguage: en\nmoodle_idnumber: BIO W3\n---\n"), source
    code, _, err = run("build", "--format", "moodle,moodle-quiz", cwd=tmp_path)
    assert code == 0, err
    built = tmp_path / "dist" / "BIO-W3.moodle.xml"
    categories = {q.findtext("category/text"): q.findtext("idnumber")
                  for q in etree.parse(str(built)).getroot().findall("question") if q.get("type") == "category"}
    assert categories == {"$course$/top/Week 3": "BIO W3", "$course$/top/Week 3/Cells": "CELLS",
                          "$course$/top/Week 3/Tissues": "TISSUES"}
    assert question_idnumbers(built) == COURSE
    with tarfile.open(tmp_path / "dist" / "BIO-W3.mbz", mode="r:gz") as backup:
        member = backup.extractfile("questions.xml")
        assert member is not None
        backed_up = {c.findtext("name"): c.findtext("idnumber") for c in etree.fromstring(member.read()).iter("question_category")}
    assert backed_up["Week 3"] == "BIO W3"
    assert run("import", str(built), "--out", "again", cwd=tmp_path)[0] == 0
    assert (tmp_path / "again" / "BIO-W3.md").read_text(encoding="utf-8") == source
    assert run("build", "again", "--format", "moodle", "--out", "dist2", cwd=tmp_path)[0] == 0
    assert (tmp_path / "dist2" / "BIO-W3.moodle.xml").read_bytes() == built.read_bytes()
    assert run("import", "dist/BIO-W3.mbz", "--out", "from-backup", cwd=tmp_path)[0] == 0
    assert "\nmoodle_idnumber: BIO W3\n" in (tmp_path / "from-backup" / "BIO-W3.md").read_text(encoding="utf-8")
    # import --id renames the quiz, and so its category's ID number (a category of the build's own).
    assert run("import", "week3.xml", "--id", "bio-week3", "--out", "renamed", cwd=tmp_path)[0] == 0
    renamed = (tmp_path / "renamed" / "bio-week3.md").read_text(encoding="utf-8")
    assert renamed.startswith("---\nid: bio-week3\ntitle: Week 3\nlanguage: en\n---\n"), renamed
    # A section whose category would have the quiz's ID number: QB237, at the section's.
    write(tmp_path, "clash/w3.md", "---\nid: BIO-W3\ntitle: Week 3\nmoodle_idnumber: BIO W3\n---\n\n"
                                   '# Cells {#cells moodle_idnumber="BIO W3"}\n\n1. Is a cell alive? {#q1}\n\nAnswer: true\n')
    code, _, err = run("build", "clash", "--format", "moodle", "--out", "dist3", cwd=tmp_path)
    assert code == 1 and "clash/w3.md:7:17: error[QB237]: section 'cells' gives its Moodle category the ID number 'BIO W3', " \
        "which the quiz's own category has (clash/w3.md:4)" in err, err


def test_a_gift_id_number_that_is_no_id_is_kept_too(tmp_path: Path) -> None:
    """Moodle's GIFT import takes '// [id:W3 Q1]' as the question's ID number: imported, it is the
    question's moodle_idnumber, and the Moodle XML build writes it as it was; an id as it is takes none."""
    write(tmp_path, "week3.gift", "// [id:W3 Q1]\nCells are alive.{T}\n\n// [id:W3-Q2]\nDNA is a helix.{T}\n")
    assert run("import", "week3.gift", cwd=tmp_path)[0] == 0
    source = (tmp_path / "source" / "week3.md").read_text(encoding="utf-8")
    assert '1. Cells are alive. {#W3-Q1 moodle_idnumber="W3 Q1"}' in source and "2. DNA is a helix. {#W3-Q2}" in source, source
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 0, err
    assert list(question_idnumbers(tmp_path / "dist" / "week3.moodle.xml").values()) == [["W3 Q1", "W3-Q2"]]


def test_a_markdown_question_id_number_moodle_cannot_keep_is_an_error_at_its_attribute(tmp_path: Path) -> None:
    """101 characters (Moodle's column holds 100) and an empty one: each QB201, at the attribute, in one run."""
    write(tmp_path, "source/w3.md", "---\nid: BIO-W3\ntitle: Week 3\n---\n\n"
                                     f"1. Is a cell alive? {{#q1 moodle_idnumber={'Q' * 101}}}\n\nAnswer: true\n\n"
                                     '2. Is it? {#q2 moodle_idnumber="  "}\n\nAnswer: true\n')
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert errors == [f"source/w3.md:6:26: error[QB201]: the Moodle ID number '{'Q' * 101}' is not one line of at most 100 "
                      "characters without spaces at its ends", "source/w3.md:10:16: error[QB201]: the Moodle ID number is empty"], err


def test_a_quiz_category_id_number_another_quiz_of_the_build_has_is_qb237_at_it(tmp_path: Path) -> None:
    """The build's quizzes go into one course: a quiz whose own category's moodle_idnumber is
    another quiz's section's ID number is an error at its front matter's moodle_idnumber."""
    write(tmp_path, "source/a.md", "---\nid: BIO-W2\ntitle: Week 2\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n"
                                    "1. Is a cell alive? {#q1}\n\nAnswer: true\n")
    write(tmp_path, "source/b.md", "---\nid: BIO-W3\ntitle: Week 3\nmoodle_idnumber: CELLS\n---\n\n"
                                    "1. Is DNA a helix? {#q2}\n\nAnswer: true\n")
    code, _, err = run("build", "--format", "moodle", cwd=tmp_path)
    assert code == 1
    assert [line for line in err.splitlines() if "error[" in line] == [
        "source/b.md:4:18: error[QB237]: the quiz 'BIO-W3' itself gives its Moodle category the ID number 'CELLS', which "
        "section 'cells' of the quiz 'BIO-W2' has (source/a.md:6); Moodle refuses a file that repeats a category ID number "
        "of the course"], err
