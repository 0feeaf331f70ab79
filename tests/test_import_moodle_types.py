"""Moodle's other question types and the common plugins, from files written for these tests the
way Moodle and the plugins export them (tests/fixtures/import/moodle-types/): what each becomes,
every diagnostic exactly, and each imported quiz builds for every target.

The expectations are Moodle's own rules, stated by hand: a gapselect/ddwtos ``[[n]]`` is choice n,
its drop-down the choices of choice n's group (question/type/gapselect/questiontypebase.php); a
Gapfill gap is the text between the delimiters, ``|`` between accepted answers; a multiple
true/false row's right column is the one of weight 1; a calculated question's answer is its
formula computed with the dataset's values and rounded as ``correctanswerformat`` says."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.importing import FIXTURES, imported_one, messages, run_import

from qti_builder.importers.command import import_summary

TYPES = FIXTURES / "moodle-types"
LANGUAGE = ("{0}:1:1: warning[QB711]: Moodle XML does not record the quiz's language; 'en' was taken from its text\n"
            "    hint: change 'language:' in the source if that is wrong")


def imported(name: str, tmp_path: Path) -> tuple[object, list[str]]:
    return imported_one(TYPES / name, tmp_path)


def blanks(question: object) -> list[tuple[str, list[str], list[str]]]:
    return [(b.kind, b.answers, b.options) for b in question.blanks]  # type: ignore[attr-defined]


def test_select_missing_words_drag_and_drop_and_gapfill(tmp_path: Path) -> None:
    item, found = imported("gaps.xml", tmp_path)
    assert found == [
        LANGUAGE.format("gaps.xml"),
        "gaps.xml:17:1: warning[QB711]: question 'States of matter': not kept: 1 hint shown between tries",
        "gaps.xml:72:1: warning[QB711]: question 'Halogens (fixed order)': not kept: the fixed order of the choices "
        "(the drop-downs list them in an order of their own)",
        "gaps.xml:123:1: warning[QB711]: question 'Bonding': not kept: the formatting of choice 3 '<i>metallic</i>' "
        "(drop-down options are plain text); dragging: the words become drop-down lists, where a word meant to be used "
        "once can be chosen in several gaps",
        "gaps.xml:157:1: warning[QB711]: question 'Old drag and drop': not kept: dragging: the words become drop-down lists, "
        "where a word meant to be used once can be chosen in several gaps",
        "gaps.xml:179:1: warning[QB711]: question 'Noble gases': not kept: gaps of one fixed size (fixedgapsize)",
        "gaps.xml:222:1: warning[QB711]: question 'Acids in drop-downs': not kept: no credit for the same answer in two gaps "
        "(noduplicates)",
        "gaps.xml:242:1: warning[QB711]: question 'Array index (other delimiters)': not kept: the regular expression "
        "'colou?r' (kept as the text it is written as); the gap #!!#, to be left empty (removed from the text); dragging: "
        "the words become drop-down lists",
        "gaps.xml:262:1: warning[QB713]: question 'Broken gap number' (gapselect) has the gap [[7]], but only 2 "
        "choices; skipped\n    hint: each [[n]] names the choice that is right there, counting from 1",
        "gaps.xml:274:1: warning[QB713]: question 'Lonely group' (ddwtos): the group of 'Au' has no other choice, and a "
        "drop-down needs a wrong one; skipped\n    hint: give the group another choice in Moodle, or put the choice in a "
        "group with others",
        "gaps.xml:286:1: warning[QB713]: question 'No gaps' (gapfill) has no gap […] in its text; skipped",
    ]
    # Each skipped question counted by its Moodle type, as the summary line says.
    assert item.skipped == {"gapselect": 1, "ddwtos": 1, "gapfill": 1}
    assert import_summary(item)[1].endswith("3 skipped (1 ddwtos, 1 gapfill, 1 gapselect); see the warnings above")
    states, halogens, old_select, bonding, old_drag, noble, acids, arrays = item.quiz.iter_questions()
    # [[1]], [[3]], [[5]]: the choices solid, gaseous and 100; each drop-down lists its group.
    assert states.id == "states" and states.points == 3
    assert states.stem == ("Ice is water in its [[b1]] state; steam is water in its [[b2]] state. "
                           "At sea level water boils at [[b3]] °C.")
    assert blanks(states) == [("dropdown", ["solid"], ["liquid", "gaseous"]), ("dropdown", ["gaseous"], ["solid", "liquid"]),
                              ("dropdown", ["100"], ["90", "120"])]
    assert states.feedback.general == "Solid, liquid and gas are the three common states."
    # "Your answer is correct." and "...incorrect.": Moodle's own default words, left out (defaults.py).
    assert (states.feedback.correct, states.feedback.incorrect) == (None, None)
    assert blanks(halogens) == [("dropdown", ["gas"], ["liquid", "solid", "liquid & <gas>"])]  # plain text, as written
    assert blanks(old_select) == [("dropdown", ["Na"], ["So", "S"])]  # Moodle 2.0: the group in the feedback
    # A drag box used in two gaps (infinite) is the answer of both.
    assert bonding.stem == "In NaCl the bond is [[b1]]; in H<sub>2</sub> it is [[b2]]; in Cl<sub>2</sub> it is [[b3]] too."
    assert blanks(bonding) == [("dropdown", ["ionic"], ["covalent", "metallic"]),
                               ("dropdown", ["covalent"], ["ionic", "metallic"]),
                               ("dropdown", ["covalent"], ["ionic", "metallic"])]
    assert bonding.feedback.correct == "Well done."
    assert blanks(old_drag) == [("dropdown", ["hydrogen"], ["helium", "lithium"]), ("dropdown", ["helium"], ["hydrogen", "lithium"])]
    # Gapfill: typed answers, '|' between accepted ones; drop-downs of every answer and distractor.
    assert noble.stem == "The lightest noble gas is [[b1]]; the one in lamps is [[b2]]." and noble.case_sensitive
    assert blanks(noble) == [("text", ["helium", "He"], []), ("text", ["Neon"], [])]
    assert blanks(acids) == [("dropdown", ["acetic"], ["citric", "sulfuric", "nitric"]),
                             ("dropdown", ["citric"], ["acetic", "sulfuric", "nitric"])]
    assert not acids.case_sensitive and acids.points == 2
    # A gap inside code becomes a field beside the code (a blank in code cannot be one, QB144).
    assert arrays.stem == "In `elements[`[[b1]]`]` the first element has index [[b2]], and a pattern [[b3]] accepts two spellings."
    assert blanks(arrays) == [("dropdown", ["0"], ["colou?r", "1"]), ("dropdown", ["0"], ["colou?r", "1"]),
                              ("dropdown", ["colou?r"], ["0", "1"])]


def test_calculated_questions_keep_their_datasets(tmp_path: Path) -> None:
    item, found = imported("calculated.xml", tmp_path)
    assert found == [
        LANGUAGE.format("calculated.xml"),
        "calculated.xml:232:1: warning[QB711]: question 'Half-life': not kept: the geometric tolerance (kept as the relative one)",
        "calculated.xml:281:1: warning[QB710]: question 'Missing dataset' (calculated): it has no dataset of values; skipped\n"
        "    hint: give each wildcard a dataset with its values in Moodle, then export it again",
        "calculated.xml:298:1: warning[QB710]: question 'Division by zero' (calculated): the answer cannot be computed for "
        "set 1 (a = 4, b = 0): division by zero; skipped\n    hint: add a condition that leaves such values out, or change the ranges",
    ]
    assert item.skipped == {"calculated": 2}
    speed, ohm, circle, half_life = item.quiz.iter_questions()
    assert speed.type == "calculated" and speed.points == 2 and speed.unit == "km/h"
    assert speed.answer == "d / t" and (speed.tolerance, speed.tolerance_mode, speed.decimals) == (1.0, "percent", 1)
    assert speed.stem == ("A cyclist rides {d} km in {t} hours. What is her average speed? "
                          "(That is {=d / t} km per hour… or is it?)")
    assert speed.sets == [{"d": 37.0, "t": 1.5}]
    assert speed.feedback.correct == "Right: {d} km / {t} h."
    # calculatedsimple: its three sets kept.
    assert ohm.type == "calculated" and ohm.answer == "I * R" and len(ohm.sets) == 3
    assert circle.type == "calculated_choice" and [(c.text, c.correct) for c in circle.choices] == [
        ("{=pi * r^2:2} cm²", True), ("{=2 * pi * r:2} cm²", False), ("{=r * r:0} cm²", False)]
    assert [c.feedback for c in circle.choices][1] == "That is the circumference."
    # pow(0.5, {n}) is 0.5 ^ n; a geometric tolerance kept as the relative one; 3 significant figures.
    assert half_life.answer == "m0 * 0.5^n" and half_life.figures == 3 and half_life.tolerance_mode == "percent"


def test_multiple_true_false(tmp_path: Path) -> None:
    item, found = imported("plugins.xml", tmp_path)
    assert found == [
        LANGUAGE.format("plugins.xml"),
        "plugins.xml:13:1: warning[QB711]: question 'Enzymes': not kept: its place among the questions of its category "
        "(its section follows them)",
        "plugins.xml:101:1: warning[QB711]: question 'Zellorganellen': not kept: all-or-nothing scoring (mtfonezero): each "
        "row now scores on its own; the deduction of 0.5 for a wrong row; the general feedback (a section has none); its "
        "place among the questions of its category (its section follows them)",
        "plugins.xml:140:1: warning[QB711]: question 'Fact or opinion': not kept: the feedback of each row",
        "plugins.xml:200:1: warning[QB713]: question 'Unfinished' (mtf): row 2 has 0 right columns, not one; skipped",
    ]
    assert item.skipped == {"mtf": 1}
    assert import_summary(item)[1].endswith("1 skipped (1 mtf); see the warnings above")
    category, enzymes, german = (s for _, s in item.quiz.iter_sections())
    match, single = category.questions
    assert [(p.prompt, p.answer) for p in match.pairs] == [("Mitochondria have their own DNA.", "Fact"),
                                                           ("Cell biology is the most interesting subject.", "Opinion")]
    assert match.points == 2 and match.distractors == [] and not match.shuffle
    assert single.stem == "Judge the statement.\n\nViruses are alive."
    assert [(c.text, c.correct) for c in single.choices] == [("Agree", False), ("Disagree", True)]
    # True/false columns: a section of true/false questions sharing the mark, inside the category.
    assert [s.id for s in category.sections] == ["enzymes", "zellorganellen"]
    assert (enzymes.title, enzymes.description, enzymes.shuffle) == ("Enzymes", "Are these statements about **enzymes** true?", True)
    assert [(q.type, q.stem, q.answer, q.points) for q in enzymes.questions] == [
        ("true_false", "Enzymes are proteins.", True, 1), ("true_false", "Enzymes are used up by the reactions they catalyse.", False, 1),
        ("true_false", "Heat can denature an enzyme.", True, 1)]
    assert enzymes.questions[0].feedback.general == "Almost all are; ribozymes are RNA."
    # Falsch/Wahr, in that order: the column of weight 1 says which.
    assert [(q.answer, q.points) for q in german.questions] == [(True, 1), (False, 1)] and not german.shuffle


def test_random_types_image_types_and_moodle_19_images(tmp_path: Path) -> None:
    item, found = imported("random-and-legacy.xml", tmp_path)
    assert found == [
        LANGUAGE.format("random-and-legacy.xml"),
        "random-and-legacy.xml:35:1: warning[QB710]: question 'Random capitals' (random short-answer matching, "
        "randomsamatch) draws 3 of the short-answer questions of category 'Default for Geography/Capitals' and its "
        "subcategories ('France', 'Japan', 'Korea') into a matching question at random; the source cannot draw questions "
        "into one question; skipped\n    hint: write a matching question of those short answers by hand",
        "random-and-legacy.xml:51:1: warning[QB710]: question 'Random (Capitals and subcategories)' (random) draws one "
        "question of category 'Default for Geography/Capitals' and its subcategories at random; skipped\n    hint: a "
        "section with select: 1 draws one of its questions: move the category's questions into a section of their own",
        "random-and-legacy.xml:80:1: warning[QB710]: question 'Label the map' (drag and drop onto an image, ddimageortext) "
        "cannot be imported; skipped\n    hint: the source has no such question type; rebuild it from the types the source has",
        "random-and-legacy.xml:90:1: warning[QB710]: question 'Mark Seoul' (drag markers onto an image, ddmarker) cannot be "
        "imported; skipped\n    hint: the source has no such question type; rebuild it from the types the source has",
        # (the message changed when wordselect, CodeRunner and STACK got their own handling: issue 22)
        "random-and-legacy.xml:112:1: warning[QB710]: question 'Derivative' has the type 'stack', which cannot be imported: "
        "STACK checks answers by computer algebra from its question variables, and the source holds no computed answer (it "
        "declares no input); skipped\n    hint: write the question with its answer worked out, by hand",
        "random-and-legacy.xml:145:1: warning[QB714]: image 'flags/japan.png' is referenced but not embedded "
        "(<image_base64>); skipped",
        "random-and-legacy.xml:152:1: warning[QB714]: <image_base64> is not valid base64; the image is skipped",
    ]
    assert item.skipped == {"randomsamatch": 1, "random": 1, "ddimageortext": 1, "ddmarker": 1, "stack": 1}
    assert import_summary(item)[1].endswith("5 skipped (1 ddimageortext, 1 ddmarker, 1 random, 1 randomsamatch, 1 stack); "
                                            "see the warnings above")
    # The tree as it was: questions in "Default for Geography/Capitals" and in its subcategory
    # "Asia": the quiz is the parent, "Capitals" a section holding "Asia". The parent is Moodle's
    # default category, which names no quiz: the file does.
    (capitals,) = item.quiz.sections
    (asia,) = capitals.sections
    assert item.quiz.title == "random-and-legacy" and (capitals.title, asia.title) == ("Capitals", "Asia")
    assert [q.title for q in capitals.questions] == ["France", "Japan"]
    korea, rivers, flag, colours, symbol, lost, broken = asia.questions
    assert rivers.type == "matching" and [(p.prompt, p.answer) for p in rivers.pairs] == [("Han", "South Korea"), ("Seine", "France")]
    # The 1.9 image is the question text's, whatever reads the text: choices, cloze, gaps.
    assert flag.stem == "Whose flag is this?\n\n![](media/korea.png)"
    assert colours.stem == "Its background is [[b1]].\n\n![](media/korea.png)"
    assert symbol.stem == "In its middle is a [[b1]].\n\n![](media/korea.png)"
    assert list(item.media) == ["media/korea.png"]
    assert lost.stem == "This image was not exported." and broken.stem == "This image is damaged."


def test_a_cloze_and_a_true_false_question_moodle_cannot_mark_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text("""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multianswer">
    <name><text>Pick colours</text></name>
    <questiontext format="html"><text>Primary: {1:MULTIRESPONSE:=red~=blue~green}</text></questiontext>
  </question>
  <question type="truefalse">
    <name><text>Nobody is right</text></name>
    <questiontext format="html"><text>The sky is green.</text></questiontext>
    <answer fraction="0"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>Capital</text></name>
    <questiontext format="html"><text>The capital of France?</text></questiontext>
    <answer fraction="100"><text>Paris</text></answer>
  </question>
</quiz>
""", encoding="utf-8")
    quizzes, sink = run_import(path)
    (item,) = quizzes
    skipped = [m.split("\n")[0] for m in messages(sink) if "skipped" in m]
    assert skipped[0].startswith("broken.xml:3:1: warning[QB710]: cloze question 'Pick colours' (multianswer) has ")
    assert skipped[1] == ("broken.xml:7:1: warning[QB713]: true/false question 'Nobody is right' (truefalse) has no answer "
                          "worth marks; skipped")
    assert len(skipped) == 2
    assert import_summary(item) == [
        "imported 1 question from broken.xml as quiz 'broken': 1 short answer",
        "  2 skipped (1 multianswer, 1 truefalse); see the warnings above"]


def test_wordselect_coderunner_and_stack(tmp_path: Path) -> None:
    """The plug-ins with an honest nearest form become it, saying what is lost; STACK is skipped,
    named, and counted by its type (issue 22)."""
    item, found = imported("wordselect-coderunner-stack.xml", tmp_path)
    name = "wordselect-coderunner-stack.xml"
    assert found[1:] == [
        f"{name}:12:1: warning[QB711]: question 'Nouns': not kept: selecting the words in the text (they are options under "
        "it); a word that stands in the text twice is one option",
        f"{name}:28:1: warning[QB711]: question 'Verbs, several words': not kept: selecting the words in the text (they are "
        "options under it)",
        f"{name}:46:1: warning[QB711]: question 'Square a number': not kept: running the answer against its 2 test cases "
        "(CodeRunner grades by them; the essay is graded by hand: the sample answer and test cases are its grader information)",
        f"{name}:46:1: warning[QB711]: question 'Square a number': the penalty per wrong try (0.0000000) is a Moodle quiz "
        "setting the source does not hold",
        f"{name}:84:1: warning[QB710]: question 'Differentiate' has the type 'stack', which cannot be imported: STACK checks "
        "answers by computer algebra from its question variables, and the source holds no computed answer (its inputs and "
        "teacher's answers: ans1 = diff(p,x)); skipped\n    hint: write the question with its answer worked out, by hand",
    ]
    assert item.skipped == {"stack": 1}
    assert import_summary(item)[1] == "  3 changed (2 multiple response, 1 essay), 1 skipped (1 stack); see the warnings above"
    words, programming = item.quiz.sections
    nouns, verbs = words.questions
    # Single-word mode: every word of the text is an option, the marked ones right.
    assert nouns.type == "multiple_response" and nouns.points == 2
    assert nouns.stem == "Select the nouns.\n\nThe cat sat on the mat."
    assert [(c.text, c.correct) for c in nouns.choices] == [("The", False), ("cat", True), ("sat", False), ("on", False),
                                                            ("the", False), ("mat", True)]
    assert nouns.feedback.correct == "Well done."
    # Multiword mode with other delimiters: only the marked phrases are options, the doubled ones right.
    assert verbs.stem == "Select the verbs.\n\nShe was running to the station and quickly caught the train."
    assert [(c.text, c.correct) for c in verbs.choices] == [("was running", True), ("station", False), ("quickly", False),
                                                            ("caught", True)]
    (square,) = programming.questions
    assert square.type == "essay" and square.response_format == "monospaced" and square.points == 3
    assert square.model_answer == ("Sample answer (python3):\n\n```python\ndef sq(n):\n    return n * n\n```\n\n"
                                   "Test case 1 (shown as an example):\n\nTest:\n\n```python\nprint(sq(3))\n```\n\n"
                                   "Expected output:\n\n```\n9\n```\n\n"
                                   "Test case 2, mark 2:\n\nTest:\n\n```python\nprint(sq(-4))\n```\n\nExpected output:\n\n```\n16\n```")


@pytest.mark.parametrize(("files", "hints", "said"), [
    (["a.png"], 1, ["file a.png is referenced but not embedded", "1 hint shown between tries"]),
    (["a.png", "b.png"], 2, ["files a.png, b.png are referenced but not embedded", "2 hints shown between tries"]),
])
def test_counts_are_said_in_the_singular_and_the_plural(tmp_path: Path, files: list[str], hints: int, said: list[str]) -> None:
    images = "".join(f'<img src="@@PLUGINFILE@@/{name}">' for name in files)
    path = tmp_path / "counts.xml"
    path.write_text(f"""<quiz><question type="essay"><name><text>Describe</text></name>
<questiontext format="html"><text><![CDATA[<p>Describe {images}</p>]]></text></questiontext>
{"".join(f"<hint><text>Hint {n}</text></hint>" for n in range(hints))}</question></quiz>""", encoding="utf-8")
    _, sink = run_import(path)
    found = messages(sink)
    for words in said:
        assert any(words in message for message in found), (words, found)


def test_a_data_file_offered_by_a_link_is_carried_by_every_package(tmp_path: Path) -> None:
    """R/exams puts a data file (a .csv) in the question text and links to it (@@PLUGINFILE@@):
    it is extracted, the link points at it, and every package carries it under the name the
    link is given there (the Canvas package refused a link to a file it lacked: issue 32)."""
    import zipfile

    from helpers.importing import FIXTURES, builds, messages, run_import

    path = FIXTURES / "moodle-types/data-file.xml"
    quizzes, sink = run_import(path)
    assert not sink.errors, messages(sink)
    (item,) = quizzes
    (question,) = item.quiz.iter_questions()
    assert question.stem.startswith("Download the [data](media/regression-data.csv)")
    assert item.media["media/regression-data.csv"] == b"x,y\n1,2\n2,4\n3,6\n"
    builds(item.quiz, item.media, tmp_path)
    dist = tmp_path / "dist"
    for suffix, folder in ((".canvas.zip", "media/"), (".qti21.zip", "items/media/")):
        with zipfile.ZipFile(next(dist.glob(f"*{suffix}"))) as archive:
            names = archive.namelist()
            (carried,) = [n for n in names if n.startswith(folder + "regression-data") and n.endswith(".csv")]
            assert archive.read(carried) == b"x,y\n1,2\n2,4\n3,6\n"
            linked = b"".join(archive.read(n) for n in names if n.endswith(".xml"))
            assert carried.rsplit("/", 1)[-1].encode() in linked


CLOZE_WEIGHTS = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="cloze">
    <name><text>Rivers</text></name>
    <questiontext format="html"><text><![CDATA[<p>The {2:SHORTANSWER:=Seine} flows through {1:SHORTANSWER:=Paris} and {1:MULTICHOICE:=Rouen~Lyon}.</p>]]></text></questiontext>
    <defaultgrade>4.0000000</defaultgrade>
  </question>
  <question type="cloze">
    <name><text>Even</text></name>
    <questiontext format="html"><text><![CDATA[<p>{2:SHORTANSWER:=red} and {2:SHORTANSWER:=blue}</p>]]></text></questiontext>
    <defaultgrade>4.0000000</defaultgrade>
  </question>
</quiz>
"""


def test_a_cloze_keeps_each_blank_s_weight_through_a_round_trip(tmp_path: Path) -> None:
    """Issue 31 item 8: Moodle marks a cloze question out of the sum of its blanks' weights, each
    blank earning weight/sum. Weights 2, 1, 1 import as blanks worth 2, 1, 1 (4 points, nothing
    named lost) and build back into the same weights, graded by Moodle's rules; equal weights stay
    an equal share."""
    from helpers.moodle_engine import grade, read_question
    from lxml import etree

    path = tmp_path / "rivers.xml"
    path.write_text(CLOZE_WEIGHTS, encoding="utf-8")
    item, found = imported_one(path, tmp_path)
    assert not [m for m in found if "weight" in m], found
    rivers, even = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert [b.points for b in rivers.blanks] == [2.0, 1.0, 1.0] and rivers.points == 4
    assert [b.points for b in even.blanks] == [None, None] and even.points == 4
    # The source says it, and the Moodle build (imported_one built it) gives the weights back.
    assert "[[Seine]]{points=2} flows through [[Paris]]{points=1} and [[*Rouen | Lyon]]{points=1}" in (
        next(tmp_path.glob("*.md")).read_text(encoding="utf-8"))
    built = etree.parse(str(next((tmp_path / "dist").glob("*.moodle.xml"))))
    question = read_question(built.find(".//question[@type='cloze']"))
    assert [s.mark for s in question.cloze] == [2, 1, 1] and question.mark == 4
    assert grade(question, {1: "Seine", 2: "", 3: "Lyon"}) == 0.5
    assert grade(question, {1: "", 2: "Paris", 3: "Rouen"}) == 0.5
    assert grade(question, {1: "Seine", 2: "Paris", 3: "Rouen"}) == 1.0


CLOZE_MARK_NOT_ITS_WEIGHTS = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="cloze">
    <name><text>Capitals</text></name>
    <questiontext format="html"><text><![CDATA[<p>France: {2:SHORTANSWER:=Paris} Spain: {1:MULTICHOICE:=Madrid~Rome}</p>]]></text></questiontext>
    <defaultgrade>4.0000000</defaultgrade>
    <idnumber>CAP-1</idnumber>
  </question>
</quiz>
"""


def test_a_cloze_is_worth_what_moodle_makes_it_not_its_files_mark(tmp_path: Path) -> None:
    """Issue 31 item 8: Moodle's import of a cloze question sets its mark to the sum of its blanks'
    weights (qtype_multianswer_extract_question adds each blank's weight; the file's defaultgrade
    is not read), so a file that says 4 beside weights 2 and 1 gives a question worth 3 in Moodle.
    The source says 3 (before: 4, which the build then warned Moodle would make 3, QB323), and
    the build gives Moodle the same 2 + 1."""
    from helpers.cli import run
    from helpers.moodle_engine import read_question
    from lxml import etree

    (tmp_path / "capitals.xml").write_text(CLOZE_MARK_NOT_ITS_WEIGHTS, encoding="utf-8")
    item, _ = imported_one(tmp_path / "capitals.xml", tmp_path)
    (question,) = item.quiz.iter_questions()  # type: ignore[attr-defined]
    assert question.points == 3 and [b.points for b in question.blanks] == [2.0, 1.0]
    code, _, err = run("import", "capitals.xml", "--out", "src", cwd=tmp_path)
    assert code == 0, err
    code, _, err = run("build", "src", "--format", "moodle", "--out", "built", cwd=tmp_path)
    assert code == 0 and "QB323" not in err, err
    built = read_question(etree.parse(str(tmp_path / "built" / "capitals.moodle.xml")).find(".//question[@type='cloze']"))
    assert built.mark == 3 and [s.mark for s in built.cloze] == [2, 1]
