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

from pathlib import Path
from typing import Any

import pytest
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
