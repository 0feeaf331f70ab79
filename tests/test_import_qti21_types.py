"""More of QTI 2.1, from files written for these tests (tests/fixtures/import/qti21-types/): choices
scored by a mapping, gap match, associate and hot text interactions, drop-downs and text boxes
in one sentence, the standard response-processing templates by URI and written out, template-
driven and adaptive items, a test given without its package, and loose items whose media are
missing. Every diagnostic exactly; each imported quiz builds for every target.

Expected scores are QTI's rules stated by hand: a mapping adds the mapped values of what is
chosen (the default for anything unlisted) within its bounds; ``match_correct`` gives all or
nothing; a template's first rendering takes each random draw's first value."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.importing import FIXTURES, imported_one, messages, run_import, zipped

from qti_builder.importers import detect
from qti_builder.importers.command import import_summary

TYPES = FIXTURES / "qti21-types"


def imported(path: Path, tmp_path: Path) -> tuple[object, list[str]]:
    return imported_one(path, tmp_path)


@pytest.mark.parametrize("as_zip", [False, True], ids=["folder", "zip"])
def test_interactions_and_scoring(tmp_path: Path, as_zip: bool) -> None:
    path = zipped(TYPES / "package", tmp_path / "package.zip") if as_zip else TYPES / "package"
    item, found = imported(path, tmp_path)
    at = f"{path.name}:items/"
    assert found == [
        f"{at}adaptive.xml:4:1: warning[QB711]: item 'Cell theory' is adaptive: it is read by its final scoring, the right "
        "answer in full; what it shows and scores between attempts is lost",
        f"{at}associate.xml:4:1: warning[QB711]: item 'Enzymes and substrates': not kept: free pairing: the choices are "
        "split into prompts and answers by the right pairs; all-or-nothing scoring (each pair now earns its share)",
        f"{at}broken_associate.xml:4:1: warning[QB710]: item 'Chained pairs' (associateInteraction): right pairs that "
        "share a choice (B C) cannot become prompts and answers; skipped",
        f"{at}broken_gap.xml:4:1: warning[QB713]: item 'A gap without a word' (gapMatchInteraction): gap 'G2' has no right "
        "word; skipped",
        f"{at}broken_gap_images.xml:4:1: warning[QB710]: item 'Place the pictures' (gapMatchInteraction): images to "
        "place (gapImg) cannot be imported (a drop-down holds text); skipped",
        f"{at}choice_mapping.xml:4:1: warning[QB711]: item 'Noble gases': not kept: the mapping's upper bound of 2 (the "
        "right choices now share the points)",
        f"{at}choice_several.xml:4:1: warning[QB711]: item 'Litmus': not kept: partial credit of C (50 %) (a single choice "
        "is all or nothing); choices A, B are each fully right in a one-answer item: imported as multiple response, where "
        "each earns a share",
        f"{at}gap_match.xml:4:1: warning[QB711]: item 'Photosynthesis': not kept: dragging: the words become drop-down "
        "lists, where a word meant to be used once can be chosen in several gaps; unequal scores of the gaps (CO2 G1: 1, "
        "O2 G2: 2): each now earns an equal share; negative scores for wrong gaps",
        f"{at}hottext.xml:4:1: warning[QB711]: item 'Spot the error': not kept: choosing in the text: the hot texts become "
        "the choices under it",
        f"{at}hottext_multiple.xml:4:1: warning[QB711]: item 'Organelles in a passage': not kept: choosing in the text: the "
        "hot texts become the choices under it",
        f"{at}select_point.xml:4:1: warning[QB710]: item 'Find the nucleus' (selectPointInteraction): no question type of "
        "the source has this interaction; skipped",
        f"{at}template.xml:4:1: warning[QB711]: item 'Area of a rectangle' is template-driven and cannot be a calculated "
        "question (the template variable UNIT is a single string, and a calculated question's values are numbers): its "
        "first rendering is imported (W = 3, H = 7, UNIT = cm, AREA = 21), the same for every student\n    hint: add the "
        "other variants as "
        "questions of a section with select: 1 to draw one of them",
    ]
    # Each skipped item counted by its interaction, as the summary line says it.
    assert item.skipped == {"associateInteraction": 1, "gapMatchInteraction": 2, "selectPointInteraction": 1}
    assert "4 skipped (1 associateInteraction, 2 gapMatchInteraction, 1 selectPointInteraction)" in import_summary(item)[1]
    quiz = item.quiz
    assert quiz.id == "interactions-tour" and [s.title for s in quiz.sections] == [
        "Choosing", "Placing words and pairs", "Typing answers"]
    noble, litmus, error, organelles, theory = quiz.sections[0].questions
    # Right choices share the points; the default -1 takes a third of the 2 points off Nitrogen.
    # No MAXSCORE: the most the mapping gives (3 right, capped at 2) is the item's worth.
    assert noble.type == "multiple_response" and noble.points == 2 and noble.stem == "Which of these are noble gases?"
    # Each right choice a third, the wrong one minus a third: the model's default scores.
    assert [(c.text, c.correct, c.score) for c in noble.choices] == [
        ("Helium", True, None), ("Nitrogen", False, None), ("Neon", True, None), ("Argon", True, None)]
    assert [round(s, 5) for s in noble.choice_scores().values()] == [33.33333, -33.33333, 33.33333, 33.33333]
    # Red and pink each fully right with one answer to give: multiple response, equal shares.
    assert litmus.type == "multiple_response" and [c.correct for c in litmus.choices] == [True, True, False, False]
    assert [c.score for c in litmus.choices] == [None] * 4 and litmus.points == 1
    # Hot text: the passage is the stem, its hot texts the choices, in their order.
    assert error.type == "single_choice" and not error.shuffle
    assert error.stem == ("Select the error in the passage.\n\nRed blood cells carry oxygen and, unlike other cells,\n"
                          "have a large nucleus when mature.")
    assert [(c.text, c.correct) for c in error.choices] == [("carry oxygen", False), ("have a large nucleus", True),
                                                            ("mature", False)]
    assert organelles.type == "multiple_response" and organelles.points == 2
    # Half each, and the wrong one minus half: the default scores.
    assert [(c.id, c.correct, c.score) for c in organelles.choices] == [("M", True, None), ("R", True, None), ("W", False, None)]
    assert organelles.choice_scores() == {"M": 50, "R": 50, "W": -50}
    assert [c.correct for c in theory.choices] == [False, True, False]

    gaps, pairs = quiz.sections[1].questions
    assert gaps.type == "fill_in_blank" and gaps.points == 2
    assert gaps.stem == "Drag the gases into the equation.\n\n> Plants take in [[b1]] and give off [[b2]]."
    assert [(b.kind, b.answers, b.options) for b in gaps.blanks] == [
        ("dropdown", ["carbon dioxide"], ["oxygen", "nitrogen"]), ("dropdown", ["oxygen"], ["carbon dioxide", "nitrogen"])]
    # The correct response writes the enzyme first: enzymes are the prompts.
    assert pairs.type == "matching" and pairs.stem == "Pair each enzyme with the substrate it breaks down."
    assert [(p.prompt, p.answer) for p in pairs.pairs] == [("Amylase", "Starch"), ("Lactase", "Lactose")]
    assert pairs.distractors == ["Cellulose"] and not pairs.shuffle

    blanks, powerhouse, boiling, area = quiz.sections[2].questions
    # A drop-down and a text box in one sentence, scored by written-out rules.
    assert blanks.stem == "A solution of pH 3 is [[b1]]; pure water has pH [[b2]]." and blanks.points == 2
    assert [(b.kind, b.answers, b.options) for b in blanks.blanks] == [("dropdown", ["acidic"], ["neutral", "basic"]),
                                                                       ("text", ["7"], [])]
    # map_response written out: 2 points for the full answer, 1 for the plural; 0 is no answer.
    assert powerhouse.type == "short_answer" and powerhouse.points == 2
    assert [(a.text, a.score) for a in powerhouse.answers] == [("mitochondrion", 100), ("mitochondria", 50)]
    # match_correct written out on a number: the declared correct response.
    assert boiling.type == "numerical" and [(a.value, a.tolerance) for a in boiling.answers] == [(100, 0)]
    # randomInteger 3..9 -> 3; 3 > 5 fails, so H = 3 + 4; the correct response is W * H.
    assert area.type == "numerical" and [a.value for a in area.answers] == [21]
    assert area.stem == "A rectangle is 3 cm wide and\n7 cm high. What is its area in square\ncm?"


def test_a_test_given_alone_imports_the_items_beside_it(tmp_path: Path) -> None:
    path = TYPES / "loose-test/test.xml"
    assert detect(path).name == "qti21"
    item, found = imported(path, tmp_path)
    assert found == [
        "test.xml:9:1: warning[QB714]: assessmentItem 'items/lost.xml' is referred to here, but no such file beside "
        "test.xml; skipped\n"
        "    hint: import the whole package (its folder or zip) instead",
        "test.xml:10:1: warning[QB714]: item '../elsewhere/item.xml' (assessmentItemRef) lies outside the folder of "
        "test.xml; skipped\n"
        "    hint: import the folder that holds the test and its items",
    ]
    assert import_summary(item)[1] == "  2 skipped (1 assessmentItem, 1 assessmentItemRef); see the warnings above"
    quiz = item.quiz
    assert (quiz.id, quiz.title) == ("cells-revision", "Cells: revision")
    membrane, count = quiz.iter_questions()
    assert membrane.points == 2 and [c.correct for c in membrane.choices] == [False, True]
    # The item's picture, beside it, comes along.
    assert count.stem == "How many cells does the picture show?\n\n![Cells under a microscope](media/cells.png)"
    assert item.media == {"media/cells.png": (TYPES / "loose-test/items/img/cells.png").read_bytes()}


def test_items_beside_a_test_are_located_by_their_own_path(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    (folder / "items").mkdir(parents=True)
    (folder / "test.xml").write_bytes((TYPES / "loose-test/test.xml").read_bytes())
    broken = (TYPES / "loose-test/items/count.xml").read_text(encoding="utf-8").replace("</itemBody>", "</itemBody", 1)
    (folder / "items/count.xml").write_text(broken, encoding="utf-8")
    (folder / "items/membrane.xml").write_bytes((TYPES / "loose-test/items/membrane.xml").read_bytes())
    quizzes, sink = run_import(folder / "test.xml")
    found = messages(sink)
    assert any(m.startswith("items/count.xml:") and "error[QB701]" in m for m in found), found


def test_loose_item_with_missing_media_keeps_links(tmp_path: Path) -> None:
    """A recording the item lacks stays a link; an image it lacks is a named placeholder (as in
    every importer), which the build accepts."""
    item, found = imported(TYPES / "loose-item.xml", tmp_path)
    hint = "\n    hint: put the file beside the source and show it again (![...](media/...)), or remove the link"
    assert found == [
        "loose-item.xml:10:1: warning[QB714]: media file 'media/mitosis.mp4' is not beside the item; it is kept as a link" + hint,
        "loose-item.xml:11:1: warning[QB714]: media file 'images/spindle.png' is not beside the item; the placeholder "
        "media/missing-spindle.png.svg shows where it was\n    hint: put the file in the source's media/ folder and refer to it "
        "instead of media/missing-spindle.png.svg",
    ]
    (question,) = item.quiz.iter_questions()
    assert question.stem == ("Watch the clip and look at the diagram.\n\n[A dividing cell](./media/mitosis.mp4)\n\n"
                             "![The spindle](media/missing-spindle.png.svg)\n\nWhich phase is shown?")
    assert set(item.media) == {"media/missing-spindle.png.svg"}
    assert b"missing: spindle.png" in item.media["media/missing-spindle.png.svg"]


def test_files_beside_a_loose_input_stay_in_its_folder(tmp_path: Path) -> None:
    """A loose test reads what it refers to from its own folder only: not through a link that
    leaves it (SECURITY.md: an import reads no file outside what it was given)."""
    outside = tmp_path / "secret.xml"
    outside.write_bytes((TYPES / "loose-test/items/membrane.xml").read_bytes())
    folder = tmp_path / "export"
    (folder / "items").mkdir(parents=True)
    (folder / "test.xml").write_bytes((TYPES / "loose-test/test.xml").read_bytes())
    (folder / "items/membrane.xml").symlink_to(outside)
    quizzes, sink = run_import(folder / "test.xml")
    found = messages(sink)
    assert any("'items/membrane.xml' is referred to here, but no such file beside test.xml" in m for m in found), found
    assert not any(q.id == "membrane" for item in quizzes for q in item.quiz.iter_questions())


def test_template_values_are_computed_safely() -> None:
    from qti_builder.importers.qti21.templates import _format

    assert _format(3.14159, "%.2f") == "3.14" and _format(7, "%i") == "7"
    assert _format(3.0, "%.1000000000f") == "3"  # a format that would be a gigabyte is not used


def test_a_folder_of_a_test_and_its_items_without_a_manifest(tmp_path: Path) -> None:
    """zyBooks' QTI 2.1 export: a folder holding a test and its items, and no manifest. It is a
    QTI 2.1 input (it was taken for a quiz page and refused as 'a directory') and reads as its test."""
    folder = TYPES / "loose-test"
    assert not (folder / "imsmanifest.xml").exists() and detect(folder).name == "qti21"
    from helpers.importing import run_import

    quizzes, sink = run_import(folder)
    assert not sink.errors
    (item,) = quizzes
    assert (item.quiz.id, item.quiz.title) == ("cells-revision", "Cells: revision")
    assert [q.type for q in item.quiz.iter_questions()] == ["single_choice", "numerical"]


def test_a_package_whose_manifest_is_not_well_formed_is_read_by_its_items(tmp_path: Path) -> None:
    """LiveInspect writes a literal backslash-n after the manifest's XML declaration: the manifest
    cannot be read, the package's tests and items still can (reported, QB711); a manifest with
    entities stays refused."""
    import zipfile

    from helpers.importing import messages, run_import

    def package(manifest: bytes) -> Path:
        path = tmp_path / f"p{len(list(tmp_path.iterdir()))}.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for file in sorted((TYPES / "package").rglob("*")):
                if file.is_file() and file.name != "imsmanifest.xml":
                    archive.write(file, file.relative_to(TYPES / "package").as_posix())
            archive.writestr("imsmanifest.xml", manifest)
        return path

    good = (TYPES / "package/imsmanifest.xml").read_bytes()
    broken = good.replace(b"?>", b"?>\\n", 1)
    quizzes, sink = run_import(package(broken))
    found = messages(sink)
    assert not sink.errors, found
    assert any("QB711" in m and "the manifest is not read (not well-formed XML" in m for m in found)
    expected, _ = run_import(TYPES / "package")
    assert [q.type for q in quizzes[0].quiz.iter_questions()] == [q.type for q in expected[0].quiz.iter_questions()]
    hostile = good.replace(b"?>", b'?><!DOCTYPE manifest [<!ENTITY x "y">]>', 1)
    refused, sink = run_import(package(hostile))
    assert not refused and [d.code for d in sink.errors] == ["QB702"]
