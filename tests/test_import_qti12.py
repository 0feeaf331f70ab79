"""Importing QTI 1.2 from the systems course designers leave (issue 22): a Blackboard Learn pool
export (``res00001.dat`` with its manifest and ``csfiles``), a Brightspace/D2L quiz export, a
Respondus bank, a WebCT/Vista quiz and plain IMS QTI 1.2. The fixtures in
``tests/fixtures/import/qti12/`` were written for these tests, each in its system's form as
instructure's QTIMigrationTool (the tool Canvas imports them with) reads it: Blackboard's
``bbmd_questiontype`` and ``mat_formattedtext`` and ``SCORE.max``, Respondus's
``respondusapi_qtype`` in ``qti_metadatafield``s, D2L's ``qmd_questiontype`` and text boxes
between materials, WebCT's ``wct_questiontype``. Each imports, builds, and round-trips: the
QTI 2.1 package built from the imported source imports back as the same questions."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from helpers.cli import run as run_cli
from helpers.importing import FIXTURES, builds, messages, run_import, zipped

from qti_builder.importers import detect
from qti_builder.model import Quiz

QTI12 = FIXTURES / "qti12"
PNG = (FIXTURES / "text2qti-zip/cell.png").read_bytes()
FLAVOURS = ["blackboard-pool", "d2l-quiz", "respondus.xml", "webct.xml", "ims-qti12.xml"]


def find(found: list[str], *parts: str) -> str:
    hits = [m for m in found if all(p in m for p in parts)]
    assert len(hits) == 1, (parts, found)
    return hits[0]


def essentials(quiz: Quiz) -> list[dict[str, Any]]:
    """What every target carries of each question: its kind, text, points and right answers."""
    out = []
    for q in quiz.iter_questions():
        data = q.model_dump()
        kept = {k: data[k] for k in ("type", "stem", "points") if k in data}
        if "choices" in data:
            kept["choices"] = [(c["text"], c["correct"]) for c in data["choices"]]
        for key in ("answer", "items", "model_answer"):
            if key in data:
                kept[key] = data[key]
        if "pairs" in data:
            kept["pairs"] = sorted((p["prompt"], p["answer"]) for p in data["pairs"])
        if "answers" in data:
            kept["answers"] = sorted(str(a.get("text", a.get("value"))) for a in data["answers"] if a.get("score", 100) == 100)
        if "blanks" in data:
            kept["blanks"] = [sorted(b["answers"]) for b in data["blanks"]]
        out.append(kept)
    return out


@pytest.mark.parametrize("name", FLAVOURS)
def test_each_flavour_imports_builds_and_round_trips(name: str, tmp_path: Path) -> None:
    path = QTI12 / name
    assert detect(path).name == "qti12"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    (item,) = quizzes
    builds(item.quiz, item.media, tmp_path)
    # The QTI 2.1 package built from the imported source reads back as the same questions.
    (package,) = (tmp_path / "dist").glob("*.qti21.zip")
    back, back_sink = run_import(package)
    assert not back_sink.errors, messages(back_sink)
    assert essentials(back[0].quiz) == essentials(item.quiz)


@pytest.mark.parametrize("as_zip", [True, False], ids=["zip", "folder"])
def test_blackboard_pool_export(tmp_path: Path, as_zip: bool) -> None:
    path = zipped(QTI12 / "blackboard-pool", tmp_path / "ExportFile_BIO101.zip") if as_zip else QTI12 / "blackboard-pool"
    assert detect(path).name == "qti12"
    quizzes, sink = run_import(path)
    found = messages(sink)
    where = f"{path.name}:res00001.dat"
    assert f"{where}:3:1: warning[QB711]" in find(found, "Blackboard QTI 1.2's format does not record the quiz's language")
    assert f"{where}:172:1: warning[QB710]" in find(found, "'Find the nucleus' (Hot Spot): a hot-spot question")
    assert f"{where}:188:1: warning[QB710]" in find(found, "'Quiz bowl round' (Quiz Bowl)", "quiz bowl question")
    assert len(found) == 3, found
    (item,) = quizzes
    assert item.skipped == {"Hot Spot": 1, "Quiz Bowl": 1}
    quiz = item.quiz
    assert quiz.title == "Cell Biology Pool" and quiz.description == "Questions on the cell for Biology 101."
    (section,) = quiz.sections
    assert [q.type for q in section.questions] == ["single_choice", "multiple_response", "true_false", "short_answer", "fill_in_blank",
                                                   "essay", "numerical", "matching", "ordering"]
    mc, ma, tf, fib, plus, essay, numeric, match, order = section.questions
    # Multiple choice: HTML in mat_formattedtext, the image from csfiles under its own name, the
    # right answer by SCORE.max, points from qmd_absolutescore_max, feedback by Blackboard's idents.
    assert mc.points == 2 and mc.title == "Powerhouse"
    assert mc.stem == "Which organelle makes most of the cell's ATP?\n\n![A cell](media/cell.png)"
    assert item.media == {"media/cell.png": PNG}
    assert [(c.text, c.correct) for c in mc.choices] == [("Mitochondrion", True), ("Ribosome", False), ("Golgi apparatus", False)]
    assert mc.choices[1].feedback == "Ribosomes make proteins." and mc.choices[0].feedback is None
    assert mc.feedback.correct == "Right: oxidative phosphorylation." and mc.feedback.incorrect == "Think of cellular respiration."
    assert ma.points == 3 and [c.correct for c in ma.choices] == [True, False, True, False]
    assert tf.answer is False and tf.true_feedback is None and tf.false_feedback == "Correct: they have a nucleoid."
    assert sorted(a.text for a in fib.answers) == ["cell", "cells"]
    assert plus.stem == "Plant cells have a [[b1]] made of [[b2]]." and [b.answers for b in plus.blanks] == [["cell wall", "wall"], ["cellulose"]]
    assert essay.points == 5 and essay.model_answer == "Water moves across a semi-permeable membrane toward the higher solute concentration."
    assert [(a.value, a.tolerance) for a in numeric.answers] == [(400, 5)]
    # Matching: each prompt in the flow before its response, the answers in the RIGHT_MATCH_BLOCK.
    assert [(p.prompt, p.answer) for p in match.pairs] == [("Nucleus", "Holds DNA"), ("Chloroplast", "Photosynthesis")]
    assert match.distractors == ["Digests waste"]
    assert order.items == ["Prophase", "Metaphase", "Anaphase", "Telophase"]


def test_d2l_quiz_export(tmp_path: Path) -> None:
    quizzes, sink = run_import(QTI12 / "d2l-quiz")
    assert len(messages(sink)) == 1, messages(sink)  # the language
    quiz = quizzes[0].quiz
    assert quiz.id == "week-1-the-cell"  # D2L's res_quiz_5501 and QUES_1_1 are no ids a person chose
    assert quiz.description == "Answer every question."
    mc, ms, tf, short, essay, blanks, match = quiz.iter_questions()
    assert mc.id == "multiple-choice-1" and mc.points == 2
    # The feedback the scoring condition of each answer shows is that answer's.
    assert [c.feedback for c in mc.choices] == ["Yes: note the cell wall.", "Animal cells have no wall."]
    assert quizzes[0].media == {"media/cell.png": PNG}
    assert [c.correct for c in ms.choices] == [True, False, True] and tf.answer is False
    assert [a.text for a in short.answers] == ["chlorophyll"] and essay.points == 4
    # D2L's text boxes stand between the materials of its text.
    assert blanks.stem == "The powerhouse of the cell is the [[b1]] and proteins are made by [[b2]]."
    assert [b.answers for b in blanks.blanks] == [["mitochondrion", "mitochondria"], ["ribosomes"]]
    assert [(p.prompt, p.answer) for p in match.pairs] == [("DNA", "Genetic material"), ("ATP", "Energy")]
    assert match.distractors == ["Transport"]


def test_respondus_bank() -> None:
    quizzes, sink = run_import(QTI12 / "respondus.xml")
    found = messages(sink)
    assert "respondus.xml:50:1: warning[QB713]" in find(found, "'Question 6' (algorithm)")
    (item,) = quizzes
    assert item.skipped == {"algorithm": 1} and item.quiz.title == "Respondus: plant biology"
    mc, tf, mr, essay, number = item.quiz.iter_questions()
    # Scores out of the points (Set 1 of 1 point): no maxvalue needed to tell the right answer.
    assert [c.correct for c in mc.choices] == [False, True, False]
    assert mc.feedback.correct == "Correct: for photosynthesis." and mc.feedback.incorrect == "Look at the leaves."
    assert tf.answer is True and [c.correct for c in mr.choices] == [True, False, True] and mr.points == 2
    assert essay.type == "essay" and essay.points == 5
    assert [(a.value, a.tolerance) for a in number.answers] == [(46, 0)]


def test_webct_quiz() -> None:
    quizzes, sink = run_import(QTI12 / "webct.xml")
    assert "webct.xml:29:1: warning[QB710]" in find(messages(sink), "'Word order' (WCT_JumbledSentence)", "a WebCT jumbled sentence")
    assert [q.type for q in quizzes[0].quiz.iter_questions()] == ["single_choice", "short_answer", "essay"]
    assert quizzes[0].skipped == {"WCT_JumbledSentence": 1}


def test_plain_ims_qti12_is_read_by_its_responses() -> None:
    quizzes, sink = run_import(QTI12 / "ims-qti12.xml")
    assert not sink.errors
    one, several, text, number = quizzes[0].quiz.iter_questions()
    assert [c.correct for c in one.choices] == [True, False] and [c.correct for c in several.choices] == [True, False, True]
    assert sorted(a.text for a in text.answers) == ["cell membrane", "membrane"]
    assert [(a.value, a.tolerance) for a in number.answers] == [(35, 5)]
    assert "read as numerical_question from its responses" in find(messages(sink), "'Cell count'")


# -- issue 32: QTI 1.2 as other systems really write it ---------------------------------------------


def moodle_fractions(dist: Path) -> dict[str, list[tuple[str, str]]]:
    """Each question of the built Moodle XML by name: its answers' (text, fraction)."""
    (moodle,) = dist.glob("*.moodle.xml")
    root = etree.parse(str(moodle)).getroot()
    return {q.findtext("name/text"): [(a.findtext("text"), a.get("fraction")) for a in q.findall("answer")]
            for q in root.iter("question") if q.get("type") != "category"}


def test_respondus_zero_point_question_and_a_question_without_a_right_answer(tmp_path: Path) -> None:
    """Respondus (a Windows program: CRLF, windows-1252) marks the right answer by setting the
    score, to 0 in a question worth nothing: that choice is the right one (Canvas's converter reads
    it so). A question with no right answer at all is skipped and named; the rest is imported. An
    image given by Respondus's %%LINKPATH%% token that is not beside the file is a placeholder."""
    raw = (QTI12 / "respondus-zero-point.xml").read_bytes()
    assert b"\r\n" in raw and b"\x93powerhouse\x94" in raw  # the fixture holds the quirks it is for
    quizzes, sink = run_import(QTI12 / "respondus-zero-point.xml")
    found = messages(sink)
    assert not sink.errors, found
    assert "respondus-zero-point.xml:13:1: warning[QB713]: question 'Unfinished' (multipleChoice) was skipped" \
        in find(found, "'Unfinished'")
    assert "media file 'header-logo.png' is not beside respondus-zero-point.xml; the placeholder media/missing-header-logo.png.svg" \
        in find(found, "header-logo.png")
    (item,) = quizzes
    assert item.skipped == {"multipleChoice": 1}
    zero, logo = item.quiz.iter_questions()
    assert zero.stem == "Which organelle is called the “powerhouse” of the cell?"
    assert zero.points == 0 and [c.correct for c in zero.choices] == [False, True, False]
    assert logo.type == "true_false" and logo.answer is True and logo.points == 2
    assert "](media/missing-header-logo.png.svg)" in logo.stem and set(item.media) == {"media/missing-header-logo.png.svg"}
    builds(item.quiz, item.media, tmp_path)
    fractions = moodle_fractions(tmp_path / "dist")
    assert ("<p>Mitochondrion</p>", "100") in fractions["Warm-up"] or ("Mitochondrion", "100") in fractions["Warm-up"]


BLACKBOARD_BLOCK = QTI12 / "blackboard-random-block"


def blackboard_block_zip(target: Path, manifest_only_under_dotdot: bool) -> Path:
    """The export as Blackboard and R/exams zip it: every file also under '../' (and, the worst
    case, the manifest that links the pool only there)."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(BLACKBOARD_BLOCK.iterdir()):
            if not (manifest_only_under_dotdot and path.name == "imsmanifest.xml"):
                archive.write(path, path.name)
            archive.write(path, "../" + path.name)
    return target


@pytest.mark.parametrize("form", ["folder", "zip", "zip-manifest-under-dotdot"])
def test_blackboard_random_block_draws_from_the_pool_the_manifest_links(tmp_path: Path, form: str) -> None:
    """A Blackboard test draws from a pool by the pool's manifest resource (res00005), a file whose
    <assessment> is the pool (bbmd_assessmenttype Pool). The pool's questions are the block's, at
    the block's points (the pool says -1); a numeric answer whose condition sets no score but
    shows the feedback Blackboard names 'correct' is the right answer. Blackboard's per-answer
    conditions (a varequal on the answer's ident, with no value, setting 100 or 0) give no
    credit: the choice's right answer is the 'correct' condition's. The pool is not a quiz."""
    path = (BLACKBOARD_BLOCK if form == "folder"
            else blackboard_block_zip(tmp_path / "export.zip", form == "zip-manifest-under-dotdot"))
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors and not [m for m in found if "not in the package" in m or "QB713" in m], found
    (item,) = quizzes
    assert item.quiz.title == "Unit test: cells" and not item.skipped
    own, block = item.quiz.sections
    assert block.select == 1
    first, second = block.questions
    assert [(q.type, q.points) for q in (first, second)] == [("numerical", 2), ("numerical", 2)]
    assert [(a.value, a.tolerance, a.score) for a in first.answers] == [(8, 0.5, 100)]
    assert [(a.value, a.tolerance) for a in second.answers] == [(32, 0.5)]
    assert own.questions[0].points == 5 and [c.correct for c in own.questions[0].choices] == [True, False]
    if form == "zip":
        assert "3 entries under '../' repeat files the package holds" in find(found, "'../'")
    if form == "zip-manifest-under-dotdot":
        assert "entry '../imsmanifest.xml' points outside the package; read as 'imsmanifest.xml', inside it" \
            in find(found, "'../imsmanifest.xml'")
    builds(item.quiz, item.media, tmp_path)


@pytest.mark.parametrize("as_zip", [True, False], ids=["zip", "folder"])
def test_respondus_canvas_package_media_are_extracted_or_placeholders(tmp_path: Path, as_zip: bool) -> None:
    """Respondus's package for Canvas names its files %%LINKPATH%%name; Instructure's test package
    names a file by the folder it was exported from (org0/images/image.png, zipped as
    images/image.png). Each reference is to a file extracted with its bytes, or to a placeholder
    named after what is missing, and the source builds."""
    folder = QTI12 / "respondus-canvas"
    path = zipped(folder, tmp_path / "respondus.zip") if as_zip else folder
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors, found
    assert "media file 'org0/images/missing.png' is not in the package; the placeholder media/missing-missing.png.svg" \
        in find(found, "QB714")
    (item,) = quizzes
    logo, leaf = item.quiz.iter_questions()
    assert "](media/header-logo.png)" in logo.stem and "LINKPATH" not in logo.stem
    assert "![a red leaf](media/image.png)" in leaf.stem and "org0" not in leaf.stem
    assert item.media["media/header-logo.png"] == (folder / "header-logo.png").read_bytes()
    assert item.media["media/image.png"] == (folder / "images/image.png").read_bytes()
    assert b"missing: missing.png" in item.media["media/missing-missing.png.svg"]
    out = tmp_path / "out"
    out.mkdir()
    builds(item.quiz, item.media, out)
    with zipfile.ZipFile(next((out / "dist").glob("*.canvas.zip"))) as archive:
        carried = {n.rsplit("/", 1)[-1] for n in archive.namelist()}
    assert any(n.startswith("header-logo") for n in carried) and any(n.startswith("image") for n in carried)


def test_d2l_question_library_matching_ordering_and_blanks(tmp_path: Path) -> None:
    """D2L's question library (BOM, CRLF) as D2L writes it: a matching prompt is a response_grp
    named by respident; an ordering item's place is tested on the item itself (varequal
    respident=<item> 2); a blank's answer is tested on the box's label (…_ANS), not its response."""
    raw = (QTI12 / "d2l-question-library.xml").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    quizzes, sink = run_import(QTI12 / "d2l-question-library.xml")
    assert not sink.errors and not [d for d in sink.items if d.code in ("QB710", "QB713")], messages(sink)
    (item,) = quizzes
    matching, ordering, blanks = item.quiz.iter_questions()
    assert [(p.prompt, p.answer) for p in matching.pairs] == [("Photosynthesis", "Chloroplast"), ("Protein synthesis", "Ribosome")]
    assert matching.distractors == ["Nucleus"] and matching.points == 2
    assert ordering.items == ["Prophase", "Metaphase", "Anaphase"] and ordering.points == 3
    assert blanks.stem == "Plants store starch in [[b1]] and make sugar in the leaves."
    assert [b.answers for b in blanks.blanks] == [["amyloplasts"]]
    builds(item.quiz, item.media, tmp_path)


def test_samigo_assessment(tmp_path: Path) -> None:
    """Sakai's Samigo: every mattext says text/plain and holds HTML (the item's TEXT_FORMAT says
    HTML); choices padded with labels that have neither ident nor text; the right choice marked by
    the feedback it shows ('Correct'), every condition adding 0; a blank's answers in a condition
    that scores nothing, alternatives split by '|'; the points in the score's maxvalue; a matching
    question's prompts and answers in one response_grp."""
    quizzes, sink = run_import(QTI12 / "samigo-assessment.xml")
    assert not sink.errors and not [d for d in sink.items if d.code in ("QB710", "QB713")], messages(sink)
    (item,) = quizzes
    choice, blanks, matching = item.quiz.iter_questions()
    assert choice.stem == "Which organelle makes <b>ATP</b>?"
    assert [(c.text, c.correct) for c in choice.choices] == [("Lysosome", False), ("<b>Mitochondrion</b>", True), ("Centriole", False)]
    assert choice.points == 2 and blanks.points == 2
    assert [b.answers for b in blanks.blanks] == [["glycolysis"], ["ATP", "adenosine triphosphate"]]
    # One response_grp: prompts are the labels with a match_group, a credited condition pairs them.
    assert [(p.prompt, p.answer) for p in matching.pairs] == [("Mitochondrion", "Makes ATP"), ("Nucleus", "Holds DNA")]
    assert matching.distractors == ["Digests waste"] and matching.points == 1
    builds(item.quiz, item.media, tmp_path)


def test_fronter_test(tmp_path: Path) -> None:
    """Fronter (CRLF): texts without a texttype hold HTML (Canvas's converter reads them as HTML);
    the question and its "comment" are two materials side by side, both the question's text; a
    choice list says no rcardinality but lets several be chosen (maxnumber); each right choice adds
    its share in a condition of its own, to a score named SCORE<n> whose maxvalue is the points; a
    text box is a response_lid around a render_fib; an image on Fronter's server is a placeholder."""
    assert b"\r\n" in (QTI12 / "fronter-test.xml").read_bytes()
    quizzes, sink = run_import(QTI12 / "fronter-test.xml")
    found = messages(sink)
    assert not sink.errors and not [d for d in sink.items if d.code in ("QB710", "QB713")], found
    assert "media file '/school/links/link.phtml' (a path on the server that exported it) is not in the package" \
        in find(found, "link.phtml")
    (item,) = quizzes
    choice, several, essay = item.quiz.iter_questions()
    assert choice.stem == ("Which cell part holds the genes?\n\nThink of <b>chromosomes</b>. "
                           "![A cell](media/missing-link.phtml.svg)")
    assert [c.correct for c in choice.choices] == [False, True] and choice.points == 1
    assert several.type == "multiple_response" and [c.correct for c in several.choices] == [True, False, True]
    assert several.stem == "Which are found in plant cells?\n\nCheck all that apply."
    assert essay.type == "essay" and essay.points == 3
    builds(item.quiz, item.media, tmp_path)


VISTA_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="VISTA_EXPORT" xmlns="http://www.imsglobal.org/xsd/imscc/imscp_v1p1">
  <organizations/>
  <resources>
    <resource identifier="RES1" type="imsqti_xmlv1p2/imscc_xmlv1p0/assessment"><file href="i1/assessment.xml"/></resource>
  </resources>
</manifest>
"""


@pytest.mark.parametrize("form", ["lone file", "imscc"])
def test_webct_in_utf16(tmp_path: Path, form: str) -> None:
    """WebCT/Vista writes its QTI 1.2 in UTF-16 (a byte-order mark, CRLF), alone or in a .imscc
    archive: it is recognised and read as the UTF-8 file would be (it was "nothing to import")."""
    lone = QTI12 / "webct-utf16.xml"
    assert lone.read_bytes().startswith(b"\xff\xfe") and "\r\n".encode("utf-16-le") in lone.read_bytes()
    if form == "lone file":
        path = lone
    else:
        path = tmp_path / "vista.imscc"
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("imsmanifest.xml", VISTA_MANIFEST)
            archive.writestr("i1/assessment.xml", lone.read_bytes())
    assert detect(path).name == "qti12"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    (item,) = quizzes
    assert item.quiz.title == "Vista quiz: 세포 (cells)"
    assert [q.type for q in item.quiz.iter_questions()] == ["single_choice", "short_answer", "essay"]
    plain, _ = run_import(QTI12 / "webct.xml")
    assert essentials(item.quiz) == essentials(plain[0].quiz)
    builds(item.quiz, item.media, tmp_path)


def test_an_assessment_with_no_readable_question_does_not_refuse_its_package(tmp_path: Path) -> None:
    """A Respondus package of two tests, one of which holds a single multiple-choice question with
    no right answer: that question is skipped and named, its empty test is left out (a warning),
    and the other test is imported; nothing was written before."""
    good = (QTI12 / "respondus-zero-point.xml").read_bytes().decode("cp1252")
    lone = good.split("<item ")[0] + "<item " + good.split("<item ")[2].split("</item>")[0] + "</item>\r\n    </section>\r\n  </assessment>\r\n</questestinterop>\r\n"
    lone = lone.replace('ident="RESPONDUS_ZERO"', 'ident="RESPONDUS_LONE"').replace("practice set", "unfinished test")
    path = tmp_path / "respondus.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("good.xml", good.encode("cp1252"))
        archive.writestr("lone.xml", lone.encode("cp1252"))
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors, found
    assert "respondus.zip:lone.xml:5:1: warning[QB713]: question 'Unfinished' (multipleChoice) was skipped" in find(found, "lone.xml:5")
    assert "respondus.zip:lone.xml:3:1: warning[QB711]: assessment 'Respondus: unfinished test' has no question that could be read" \
        in find(found, "no question that could be read")
    assert [item.quiz.title for item in quizzes] == ["Respondus: practice set"]
    code, _, err = run_cli("import", str(path), "--out", str(tmp_path / "out"), "--allow-skipped")
    assert code == 0, err
    assert [p.name for p in (tmp_path / "out").glob("*.md")] == ["RESPONDUS_ZERO.md"]


def test_a_file_whose_only_question_cannot_be_read_is_refused_naming_it(tmp_path: Path) -> None:
    """Issue 32: a Respondus file holding one multiple-choice question without a right answer. There
    is nothing else to import, so nothing is written; the refusal itself says what the file lacks
    (the question, its type and why), not only "no question could be read"."""
    good = (QTI12 / "respondus-zero-point.xml").read_bytes().decode("cp1252")
    lone = good.split("<item ")[0] + "<item " + good.split("<item ")[2].split("</item>")[0] + "</item>\r\n    </section>\r\n  </assessment>\r\n</questestinterop>\r\n"
    path = tmp_path / "lone.xml"
    path.write_bytes(lone.encode("cp1252"))
    quizzes, sink = run_import(path)
    assert not quizzes
    (error,) = [m for m in messages(sink) if "error[" in m]
    assert error.startswith("lone.xml:1:1: error[QB704]: nothing to import: the one question it holds cannot be imported "
                            "(1 multipleChoice): question 'Unfinished' (multipleChoice) was skipped: a single-choice question "
                            "needs exactly one correct choice, found 0"), error
    code, _, err = run_cli("import", str(path), "--out", str(tmp_path / "out"))
    assert code == 1 and "nothing was written" in err and not (tmp_path / "out").exists()


def test_a_blackboard_random_block_whose_pool_is_missing(tmp_path: Path) -> None:
    """The same test exported without its pool's file (res00005.dat): the block is named with the
    pool it draws from, left out, and the test's own questions are imported and build."""
    folder = tmp_path / "export"
    folder.mkdir()
    for name in ("imsmanifest.xml", "res00001.dat"):
        (folder / name).write_bytes((BLACKBOARD_BLOCK / name).read_bytes())
    quizzes, sink = run_import(folder)
    found = messages(sink)
    assert not sink.errors, found
    assert "export:res00001.dat:15:1: warning[QB711]: question group 'Group' draws from question bank 'res00005', which is not " \
           "in the package; its questions cannot be imported" in find(found, "res00005")
    (item,) = quizzes
    (own,) = item.quiz.sections
    assert [q.points for q in own.questions] == [5]
    builds(item.quiz, item.media, tmp_path)


VISTA_CC_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="VISTA_CC" xmlns="http://www.imsglobal.org/xsd/imscc/imscp_v1p1">
  <metadata><schema>IMS Common Cartridge</schema><schemaversion>1.0.0</schemaversion></metadata>
  <organizations/>
  <resources>
    <resource identifier="RES1" type="imsqti_xmlv1p2/imscc_xmlv1p0/assessment"><file href="i1/assessment.xml"/></resource>
    <resource identifier="RES2" type="imsqti_xmlv1p2/imscc_xmlv1p0/assessment"><file href="i2/assessment.xml"/><dependency identifierref="IMG"/></resource>
    <resource identifier="BANK" type="imsqti_xmlv1p2/imscc_xmlv1p0/question-bank"><file href="bank/questions.xml"/></resource>
    <resource identifier="IMG" type="webcontent" href="images/cell.png"><file href="images/cell.png"/></resource>
    PAGES
  </resources>
</manifest>
"""

_CC_ITEM = """<item ident="{ident}" title="{title}">
        <itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>cc_profile</fieldlabel><fieldentry>{profile}</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>
        <presentation><material><mattext texttype="text/html">{text}</mattext></material>
          <response_lid ident="R" rcardinality="Single"><render_choice><response_label ident="a"><material><mattext>{a}</mattext></material></response_label><response_label ident="b"><material><mattext>{b}</mattext></material></response_label></render_choice></response_lid></presentation>
        <resprocessing><outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/></outcomes>
          <respcondition continue="No"><conditionvar><varequal respident="R">a</varequal></conditionvar><setvar varname="SCORE" action="Set">100</setvar></respcondition></resprocessing>
      </item>"""

VISTA_CC_QUIZ = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="WCT_TWO" title="Vista quiz two">
    <section ident="S">{_CC_ITEM.format(ident="T1", title="Cell", profile="cc.multiple_choice.v0p1", a="A cell", b="A rock",
                                        text="&lt;p&gt;&lt;img src=&quot;$IMS-CC-FILEBASE$/images/cell.png&quot; alt=&quot;cell&quot;&gt; What is shown?&lt;/p&gt;")}
    </section>
  </assessment>
</questestinterop>
"""

VISTA_CC_BANK = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <objectbank ident="VISTA_BANK">
    {_CC_ITEM.format(ident="B1", title="Membranes", profile="cc.true_false.v0p1", a="True", b="False", text="Cells have membranes.")}
  </objectbank>
</questestinterop>
"""


def test_a_vista_common_cartridge_of_many_entries(tmp_path: Path) -> None:
    """A Vista course as a .imscc archive of 30 entries (the real one had 33): two assessments, one
    in UTF-16 with WebCT's types and one in the cartridge's own profile with an image under
    $IMS-CC-FILEBASE$, a question bank no assessment uses, and web pages. Every quiz is read, the
    image extracted, the bank a quiz of its own; only WebCT's jumbled sentence is skipped, named."""
    path = tmp_path / "vista.imscc"
    pages = "".join(f'<resource identifier="P{i}" type="webcontent" href="pages/p{i}.html"><file href="pages/p{i}.html"/></resource>'
                    for i in range(25))
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("imsmanifest.xml", VISTA_CC_MANIFEST.replace("PAGES", pages))
        archive.writestr("i1/assessment.xml", (QTI12 / "webct-utf16.xml").read_bytes())
        archive.writestr("i2/assessment.xml", VISTA_CC_QUIZ)
        archive.writestr("bank/questions.xml", VISTA_CC_BANK)
        archive.writestr("images/cell.png", PNG)
        for i in range(25):
            archive.writestr(f"pages/p{i}.html", f"<html><body><p>Week {i}</p></body></html>")
        assert len(archive.namelist()) == 30
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors, found
    assert [m.split(": warning")[1][:7] for m in found if "QB710" in m or "QB713" in m] == ["[QB710]"]
    assert "(WCT_JumbledSentence)" in find(found, "QB710")
    assert "question bank 'VISTA_BANK' is used by no quiz in the package; imported as a quiz of its own" in find(found, "QB731")
    vista, two, bank = quizzes
    assert [q.type for q in vista.quiz.iter_questions()] == ["single_choice", "short_answer", "essay"]
    (cell,) = two.quiz.iter_questions()
    assert "](media/cell.png)" in cell.stem and two.media["media/cell.png"] == PNG
    assert [c.correct for c in cell.choices] == [True, False]
    (membranes,) = bank.quiz.iter_questions()
    assert membranes.type == "true_false" and membranes.answer is True
    for number, item in enumerate(quizzes):
        (tmp_path / str(number)).mkdir()
        builds(item.quiz, item.media, tmp_path / str(number))


VISTA_QUESTION = """<?xml version="1.0" encoding="{encoding}"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <item ident="{ident}" title="{title}">
    <itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>wct_questiontype</fieldlabel><fieldentry>WCT_MultipleChoice</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>
    <presentation><material><mattext texttype="text/html">{text}</mattext></material><response_lid ident="1" rcardinality="Single"><render_choice><response_label ident="1"><material><mattext texttype="text/html">{right}</mattext></material></response_label><response_label ident="2"><material><mattext texttype="text/html">{wrong}</mattext></material></response_label></render_choice></response_lid></presentation>
    <resprocessing><outcomes><decvar varname="SCORE" vartype="Decimal" defaultval="0" minvalue="0" maxvalue="100"/></outcomes><respcondition><conditionvar><varequal respident="1">1</varequal></conditionvar><setvar varname="SCORE" action="Set">100</setvar></respcondition></resprocessing>
  </item>
</questestinterop>
"""

VISTA_ASSESSMENT = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="VISTA_A1" title="Vista: organelles">
    <section ident="VISTA_S1">
      <itemref linkrefid="VQ_1"/>
      <itemref linkrefid="VQ_2"/>
      <itemref linkrefid="VQ_GONE"/>
    </section>
  </assessment>
</questestinterop>
"""

VISTA_PACKAGE_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="VISTA4" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:webct="http://www.webct.com/IMS">
  <organizations/>
  <resources>
    <resource identifier="A1" type="webct.assessment" href="assessment_1.xml"><file href="assessment_1.xml"/></resource>
    <resource identifier="Q1" type="webct.question" href="question_1.xml"><file href="question_1.xml"/></resource>
    <resource identifier="Q2" type="webct.question" href="question_2.xml"><file href="question_2.xml"/></resource>
  </resources>
</manifest>
"""


def test_a_vista_package_keeping_each_question_in_a_file_of_its_own(tmp_path: Path) -> None:
    """WebCT Vista's IMS package keeps each question in a file of its own ('webct.question'
    resources; one here in UTF-16) and its assessment refers to them by QTI 1.2's <itemref
    linkrefid>. The assessment is one quiz of those questions, in its order (the question files
    are no quizzes of their own); an item it refers to that the package lacks is skipped, named."""
    path = tmp_path / "vista.zip"
    first = VISTA_QUESTION.format(encoding="UTF-16", ident="VQ_1", title="Powerhouse", text="Which organelle makes ATP?",
                                  right="Mitochondrion", wrong="Ribosome")
    second = VISTA_QUESTION.format(encoding="UTF-8", ident="VQ_2", title="Proteins", text="Which organelle makes proteins?",
                                   right="Ribosome", wrong="Lysosome")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("imsmanifest.xml", VISTA_PACKAGE_MANIFEST)
        archive.writestr("assessment_1.xml", VISTA_ASSESSMENT)
        archive.writestr("question_1.xml", b"\xff\xfe" + first.replace("\n", "\r\n").encode("utf-16-le"))
        archive.writestr("question_2.xml", second)
    assert detect(path).name == "qti12"
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors, found
    assert "vista.zip:assessment_1.xml:7:1: warning[QB714]: the item 'VQ_GONE' the assessment refers to (itemref) is not in the " \
           "package; its question cannot be imported" in find(found, "VQ_GONE")
    (item,) = quizzes
    assert item.quiz.title == "Vista: organelles" and item.skipped == {"itemref": 1}
    powerhouse, proteins = item.quiz.iter_questions()
    assert powerhouse.stem == "Which organelle makes ATP?" and [c.correct for c in powerhouse.choices] == [True, False]
    assert proteins.stem == "Which organelle makes proteins?" and [c.text for c in proteins.choices if c.correct] == ["Ribosome"]
    builds(item.quiz, item.media, tmp_path)


REXAMS = QTI12 / "rexams-blackboard"


@pytest.mark.parametrize("form", ["folder", "zip"])
def test_an_rexams_blackboard_export(tmp_path: Path, form: str) -> None:
    """R/exams' exams2blackboard (its R/exams2blackboard.R): one pool per exercise first
    (res0000<n>.dat, assessment type Pool), the test last, each of its random blocks drawing one
    question from a pool by its resource; a .bb-package-info; the images under
    csfiles/home_dir/supplements<n>/<name>__xid-….png, named in the text by
    '@X@EmbeddedFile.requestUrlStub@X@bbcswebdav/supplements<n>/xid-…' (a folder before the xid,
    which Blackboard's own exports do not write); answers lettered in their text ('a. …') with
    Blackboard's numbering turned off (bbmd_numbertype none); the right choice marked by the
    'correct' condition, each choice's share in a condition of its own; a text answer's condition
    titled 'right'; the worked solution as an itemfeedback 'Solution'; and, zipped with R's
    list.files(all.files = TRUE), every file again under '../'."""
    if form == "folder":
        path = REXAMS
    else:
        path = tmp_path / "organelles.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for file in sorted(p for p in REXAMS.rglob("*") if p.is_file()):
                name = file.relative_to(REXAMS).as_posix()
                archive.write(file, name)
                archive.write(file, "../" + name)
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors and not [m for m in found if "QB713" in m or "QB714" in m or "not kept" in m or "not in the package" in m], found
    (item,) = quizzes
    assert item.quiz.title == "organelles-test" and item.quiz.description == "This is today's test."
    assert [(s.select, len(s.questions)) for s in item.quiz.sections] == [(1, 2), (1, 1), (1, 1), (1, 1)]
    picture, nucleus = item.quiz.sections[0].questions
    # The image is extracted (it was a placeholder: the folder hid the xid).
    assert "![a cell](media/cell.png)" in picture.stem
    assert item.media["media/cell.png"] == (REXAMS / "csfiles/home_dir/supplements1/cell__xid-1001001_1.png").read_bytes()
    # Lettered once, as Blackboard shows them; the worked solution is the general feedback.
    assert [c.text for c in picture.choices] == ["a. A cell", "b. A crystal", "c. A cloud"] and picture.numbering == "none"
    assert [c.correct for c in picture.choices] == [True, False, False] and picture.points == 1
    assert picture.feedback.general == "See the notes of week 2."
    assert [c.correct for c in nucleus.choices] == [True, False, False]
    (plants,) = item.quiz.sections[1].questions
    assert plants.type == "multiple_response" and [c.correct for c in plants.choices] == [True, True, False]
    (doublings,) = item.quiz.sections[2].questions
    assert doublings.type == "numerical" and [(a.value, a.tolerance) for a in doublings.answers] == [(8, 0.1)]
    (organelle,) = item.quiz.sections[3].questions
    assert organelle.type == "short_answer" and [a.text for a in organelle.answers] == ["mitochondrion"]
    builds(item.quiz, item.media, tmp_path)


def test_a_samigo_matching_question_worth_nothing_is_paired_by_its_feedback(tmp_path: Path) -> None:
    """Samigo writes a matching question worth 0 points with every pair's condition adding 0; the
    right pairs show the feedback it names 'CorrectMatch' (its choices' right answer shows 'Correct').
    They were read as no pair at all and the question skipped (a real Samigo export's one loss)."""
    text = (QTI12 / "samigo-assessment.xml").read_text(encoding="utf-8")
    worth_nothing = text.replace('<setvar action="Add" varname="SCORE">0.5</setvar>', '<setvar action="Add" varname="SCORE">0.0</setvar>')
    assert worth_nothing.count('varname="SCORE">0.0</setvar><displayfeedback feedbacktype="Response" linkrefid="CorrectMatch"/>') == 2
    path = tmp_path / "samigo.xml"
    path.write_text(worth_nothing, encoding="utf-8")
    quizzes, sink = run_import(path)
    assert not [d for d in sink.items if d.code in ("QB710", "QB713")], messages(sink)
    (item,) = quizzes
    matching = next(q for q in item.quiz.iter_questions() if q.type == "matching")
    assert [(p.prompt, p.answer) for p in matching.pairs] == [("Mitochondrion", "Makes ATP"), ("Nucleus", "Holds DNA")]
    assert matching.distractors == ["Digests waste"]
    builds(item.quiz, item.media, tmp_path)
