"""Importing GIFT, Moodle's plain-text format, the way Moodle's own importer reads it
(question/format/gift/format.php and question/format.php).

The inputs are tests/fixtures/import/gift/: ``cells.gift``, a question bank with every construct
GIFT has, and ``broken.gift``, questions Moodle refuses or reads otherwise than they look. The
expected values are stated here by hand from Moodle's parser rules, not taken from the importer's
output: which questions Moodle makes of a file, their names, answers, fractions and feedback.
"""

from __future__ import annotations

import shutil
from html import escape as escape_html
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import builds, imports_or_is_refused, messages, moodle_questions, run_import
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from qti_builder.content import plain_text, render_html
from qti_builder.diagnostics import DiagnosticSink, display_path
from qti_builder.importers import detect, import_path
from qti_builder.importers.moodle.file import split_category_path
from qti_builder.importers.gift.block import escape, unescape
from qti_builder.importers.markup import canonical
from qti_builder.importers.moodletext import default_name, plain_markdown, shorten_text
from qti_builder.pipeline import BuildOptions, build
from qti_builder.writers.markdown_source import read_back, write_source

GIFT = ROOT / "tests/fixtures/import/gift"
LANGUAGE = "warning[QB711]: GIFT does not record the quiz's language; 'en' was taken from its text"
STOP = "with 'Stop on error', its default, Moodle imports nothing from the file"


def questions(quiz: Any) -> dict[str, Any]:
    return {q.id: q for q in quiz.iter_questions()}


# -- recognising GIFT ------------------------------------------------------------------------------


def test_gift_is_recognised_without_taking_other_formats(tmp_path: Path) -> None:
    assert detect(GIFT / "cells.gift").name == "gift"
    as_text = tmp_path / "bank.txt"
    shutil.copy(GIFT / "cells.gift", as_text)
    assert detect(as_text).name == "gift"  # by its content
    plain = tmp_path / "plain.txt"
    plain.write_text("What is 2 + 2?{=4 ~3 ~5}\n", encoding="utf-8")
    assert detect(plain).name == "gift"
    assert detect(ROOT / "tests/fixtures/import/text2qti-quiz.txt").name == "text2qti"
    # Braces of formulas, code and Pandoc attributes in a quiz page are not GIFT's.
    page = tmp_path / "page.txt"
    page.write_text("Linear algebra\n\n1. What is the transpose $A^{T}$ of a symmetric matrix?\nA) A\nB) -A\nAnswer: A\n\n"
                    "2. Which set is {x | x > 0}?\nA) the positive numbers\nB) the negative numbers\nAnswer: A\n\n"
                    "3. What does `d = {~x}` do?\nA) nothing\nB) an error\nAnswer: B\n", encoding="utf-8")
    assert detect(page).name == "quizpage"
    markdown = tmp_path / "page.md"
    markdown.write_text("# Quiz\n\n1. Who is buried in Grant's tomb? {=Grant ~nobody}\n\nAnswer: Grant\n", encoding="utf-8")
    assert detect(markdown).name == "quizpage"  # a Markdown page is a quiz page, whatever its braces


# -- every construct --------------------------------------------------------------------------------


def test_a_bank_with_every_construct(tmp_path: Path) -> None:
    quizzes, sink = run_import(GIFT / "cells.gift")
    assert messages(sink) == [
        f"cells.gift:1:1: {LANGUAGE}\n    hint: change 'language:' in the source if that is wrong",
        "cells.gift:80:21: warning[QB714]: question 'Micrograph': cell micrograph.png (@@PLUGINFILE@@) cannot be imported: "
        "a GIFT file holds no files\n    hint: put the file in the source's media/ folder and show it with ![description](media/name)",
    ]
    imported = quizzes[0]
    quiz = imported.quiz
    # $CATEGORY: $course$/top/Cell biology is the category every question is in: the quiz. Its
    # subcategories are sections, the questions of the category itself a section of its name.
    assert quiz.id == "cells" and quiz.title == "Cell biology"
    assert [s.title for s in quiz.sections] == ["Cell biology", "Numbers", "More"]
    assert [len(s.questions) for s in quiz.sections] == [9, 3, 6]
    q = questions(quiz)

    powerhouse = q["powerhouse"]  # the id from // [id:powerhouse]
    assert powerhouse.type == "single_choice" and powerhouse.title == "Powerhouse"
    assert powerhouse.tags == ["organelles", "energy"]
    assert [(c.text, c.correct, c.feedback) for c in powerhouse.choices] == [
        ("Mitochondrion", True, "Right: oxidative phosphorylation happens there."),
        ("Nucleus", False, "The nucleus holds the DNA."),
        ("Ribosome", False, "Ribosomes make proteins."),
        ("Golgi apparatus", False, None),  # the comment line between the answers is no answer
    ]
    assert powerhouse.feedback.general == "Mitochondria are often called the powerhouse of the cell."
    assert powerhouse.shuffle and powerhouse.points == 1

    # No '=' in a multiple-choice answer part: Moodle makes it "multiple answers allowed".
    membrane = q["membrane-parts"]
    assert membrane.type == "multiple_response"
    # The right ones share 100 % (the default), each wrong one is -100 %: written on the wrong ones.
    assert [(c.text, c.correct, c.score) for c in membrane.choices] == [
        ("Phospholipids", True, None), ("Cholesterol", True, None), ("Cellulose", False, -100), ("Chitin", False, -100)]
    assert membrane.choice_scores() == {"A": 50, "B": 50, "C": -100, "D": -100}

    # Text after the braces: a missing-word question, "_____" where the braces were.
    osmosis = q["osmosis"]
    assert osmosis.type == "single_choice"
    assert plain_text(osmosis.stem) == "Water moves _____ across a membrane by osmosis."
    assert [c.correct for c in osmosis.choices] == [False, True, False]

    # {F#wrong#right}: the first feedback is for the wrong answer (true), the second for the right one.
    prokaryotes = q["prokaryotes"]
    assert prokaryotes.type == "true_false" and prokaryotes.answer is False
    assert prokaryotes.true_feedback == "They have a nucleoid, not a nucleus."
    assert prokaryotes.false_feedback == "Right: no nucleus."
    assert q["dna"].type == "true_false" and q["dna"].answer is True

    enzymes = q["enzymes"]
    assert enzymes.type == "short_answer" and not enzymes.case_sensitive
    assert [(a.text, a.score, a.feedback) for a in enzymes.answers] == [
        ("enzyme", 100, None), ("an enzyme", 100, None), ("catalyst", 50, "A catalyst, yes: but which kind?")]
    assert enzymes.feedback.incorrect == "Think about proteins."  # =%0%* is "any other answer"

    # A question over two lines, in Moodle's default format, keeps its line break (text_to_html).
    assert "higher than<br" in render_html(q["long-stem"].stem)
    assert "Read the question twice.<br" in render_html(q["two-lines"].stem)
    # No name: Moodle names it by its text cut to 80 characters (shorten_text): 77 and "...".
    unnamed = next(x for x in quiz.sections[0].questions if x.stem.startswith("In a hypotonic"))
    assert unnamed.title == "In a hypotonic solution, water enters the cell by osmosis; what can happen to..."

    assert [(a.value, a.tolerance, a.score) for a in q["cell-size"].answers] == [(20, 10, 100)]
    chromosomes = q["chromosomes"]
    assert [(a.value, a.tolerance, a.score, a.feedback) for a in chromosomes.answers] == [
        (46, 0, 100, "Right."), (23, 0, 50, "That is the number in a gamete.")]
    assert chromosomes.feedback.incorrect == "Count both sets."  # ~#... is the feedback for any other answer
    # 0.9..1.1: the middle and half the width, as PHP writes them (14 digits: 0.1, not 0.10000000000000009).
    assert [(a.value, a.tolerance) for a in q["doubling"].answers] == [(1.0, 0.1)]

    match = q["match-organelles"]
    assert [(p.prompt, p.answer) for p in match.pairs] == [
        ("Ribosome", "makes proteins"), ("Lysosome", "digests waste"), ("Chloroplast", "photosynthesis")]
    assert match.distractors == ["stores starch"]  # "= -> stores starch": an answer no prompt takes
    assert match.feedback.general == "Only plant cells have chloroplasts."

    essay = q["essay"]
    assert essay.type == "essay" and essay.stem == "Explain *why* cells divide."
    assert essay.feedback.general == "Mention growth and repair."
    assert (essay.response_format, essay.expected_lines, essay.attachments) == ("editor", 15, 0)  # Moodle's GIFT essay
    intro = q["intro"]
    assert intro.type == "text_only" and intro.stem == "The next questions are about **cell transport**." and intro.points == 0

    plain = q["plain"]  # [plain] shows as written: <b> is text
    assert render_html(plain.stem) == "<p>Is &lt;b&gt; a tag here? Answer 1 or 2.</p>"
    assert [c.text for c in plain.choices] == ["1", "2"]
    assert plain_text(q["escaped"].stem) == "Which characters does GIFT reserve: ~ = # { } or \\?"

    micrograph = q["micrograph"]  # the image is not in the file: a link, so that the source builds
    assert "[A cell](@@PLUGINFILE@@/cell%20micrograph.png)" in micrograph.stem and "![" not in micrograph.stem
    assert imported.changed == {"single_choice": 1} and not imported.skipped

    written = write_source(quiz)
    assert written.suffix == ".md" and read_back(written.text, written.suffix) == quiz
    builds(quiz, imported.media, tmp_path)
    assert {p.name for p in (tmp_path / "dist").iterdir()} == {"cells.qti21.zip", "cells.moodle.xml", "cells.canvas.zip", "cells.mbz"}


# -- what Moodle refuses or reads otherwise ------------------------------------------------------------


def test_what_moodle_refuses_is_reported_where_it_is(tmp_path: Path) -> None:
    quizzes, sink = run_import(GIFT / "broken.gift")
    braces = "(an answer part is one {...}; write \\{ and \\} for braces in the text)\n    hint: Moodle refuses it too (braceerror); " + STOP
    refused = f"\n    hint: Moodle refuses it too ({STOP})"
    assert messages(sink) == [
        f"broken.gift:1:1: {LANGUAGE}\n    hint: change 'language:' in the source if that is wrong",
        f"broken.gift:3:35: warning[QB713]: question 'No closing brace' (unreadable) was skipped: a '{{' without its '}}' {braces}",
        f"broken.gift:5:28: warning[QB713]: question 'Backwards' (unreadable) was skipped: '}}' comes before '{{' {braces}",
        "broken.gift:7:37: warning[QB713]: question 'One choice' (multichoice) was skipped: a multiple-choice question needs at least two answers"
        + refused,
        "broken.gift:9:32: warning[QB713]: question 'Odd weight' (multichoice) was skipped: the weight %35% is not one of Moodle's grade options\n"
        "    hint: Moodle's grade options are 100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, "
        "14.28571, 12.5, 11.11111, 10, 5 and 0 % and their negatives; Moodle refuses any other weight (and, " + STOP.replace(
            "Moodle imports", "imports") + ")",
        "broken.gift:11:42: warning[QB713]: question 'Bad margin' (numerical) was skipped: the margin of '3.14:abc' is not a number" + refused,
        "broken.gift:13:35: warning[QB713]: question 'No arrow' (match) was skipped: 'b 2' has no '->' (each answer of a matching question "
        "is =prompt -> answer)" + refused,
        "broken.gift:15:44: warning[QB713]: question 'Half only' (shortanswer) was skipped: no answer is worth 100 % (the best is 50 %)" + refused,
        # Moodle imports this one (its "do not add up to 100 %" is a notice the import ignores); the model cannot hold it.
        "broken.gift:17:1: warning[QB713]: question 'Short of 100' (multichoice) was skipped: the scores of the correct choices add up to 75 %, "
        "not 100 %\n    hint: fix it in the original system and import again, or add it to the source by hand",
        # A line "0" ends a question (PHP's empty("0")): two halves, each with a lone brace.
        f"broken.gift:19:47: warning[QB713]: question 'Venus moons' (unreadable) was skipped: a '{{' without its '}}' {braces}",
        "broken.gift:20:1: warning[QB715]: a line holding only '0' is a blank line to Moodle (PHP's empty('0')): it ends the "
        "question and is left out\n    hint: put the 0 on the line before it or after it",
        f"broken.gift:21:1: warning[QB713]: the question (unreadable) was skipped: a '}}' without its '{{' {braces}",
        "broken.gift:23:35: warning[QB715]: question 'Lower case': Moodle reads {true} as a short answer: true/false is written "
        "T, TRUE, F or FALSE, in capitals",
        "broken.gift:25:37: warning[QB715]: question 'Two blocks': only the first {...} holds answers: Moodle keeps the rest of "
        "the text, braces and all, as question text\n    hint: write \\{ and \\} for braces that are text",
        "broken.gift:27:47: warning[QB715]: question 'Weight after equals': a weight after '=' is answer text to Moodle (the "
        "answer is right): write ~%50% for a weight",
        "broken.gift:29:40: warning[QB711]: question 'Comma': the answer '1,5' is not a number: Moodle accepts any response for "
        "it ('*'), which the source cannot say",
        "broken.gift:31:54: warning[QB711]: question 'Negative short': the weight -50 % of answer 'Earth' (answers score 0 % or "
        "more): it scores 0 %",
        "broken.gift:33:69: warning[QB711]: question 'Partial single': the weight 50 % of answer B (a single-choice question is "
        "all or nothing)",
        "broken.gift:35:38: warning[QB711]: question 'Two right': several answers marked '=' in a one-answer question: imported "
        "as multiple response",
        "broken.gift:38:1: warning[QB715]: no blank line after $CATEGORY:: Moodle reads the lines after it as part of the "
        "category's name, and their question is lost; here they are read as a question\n"
        "    hint: put a blank line after the $CATEGORY: line",
    ]
    imported = quizzes[0]
    q = questions(imported.quiz)
    assert list(q) == ["lower-case", "two-blocks", "weight-after-equals", "comma", "negative-short", "partial-single",
                       "two-right", "right-after-category"]
    assert [(a.text, a.score) for a in q["lower-case"].answers] == [("true", 100)]  # {true} is a short answer
    assert plain_text(q["two-blocks"].stem) == "Pick _____ and then {=c ~d}."
    assert [(c.text, c.correct) for c in q["weight-after-equals"].choices] == [("%100%Neon", True), ("Oxygen", False)]
    assert [a.value for a in q["comma"].answers] == [1.5]
    assert [(a.text, a.score) for a in q["negative-short"].answers] == [("Jupiter", 100), ("Earth", 0)]
    assert q["partial-single"].type == "single_choice" and [c.correct for c in q["partial-single"].choices] == [True, False, False]
    assert q["two-right"].type == "multiple_response" and [c.correct for c in q["two-right"].choices] == [True, True, False]
    assert q["right-after-category"].answer is True
    assert imported.changed == {"numerical": 1, "short_answer": 1, "single_choice": 1, "multiple_response": 1}
    assert imported.skipped == {"unreadable": 4, "multichoice": 3, "numerical": 1, "match": 1, "shortanswer": 1}
    builds(imported.quiz, imported.media, tmp_path)


def test_the_summary_counts_what_was_imported_changed_and_skipped(tmp_path: Path) -> None:
    code, out, err = run("import", str(GIFT / "broken.gift"), "--out", str(tmp_path / "source"))
    assert code == 4, err  # written without the 10 skipped questions
    assert out.splitlines()[:2] == [
        f"imported 8 questions from {display_path(GIFT / 'broken.gift')} as quiz 'broken': 3 single choice, 1 multiple response, "
        "1 true/false, 2 short answer, 1 numerical",
        "  4 changed (1 single choice, 1 multiple response, 1 short answer, 1 numerical), "
        "10 skipped (1 numerical, 1 match, 3 multichoice, 1 shortanswer, 4 unreadable); see the warnings above",
    ]
    code, out, err = run("import", str(GIFT / "cells.gift"), "--out", str(tmp_path / "source"))
    assert out.splitlines()[1] == "  1 changed (1 single choice); see the warnings above"


# -- the round trip to Moodle XML -------------------------------------------------------------------

#: What Moodle's GIFT import makes of cells.gift, question by question (name: type, its answers as
#: (text, fraction, feedback) or, for numerical ones, (answer, tolerance, fraction, feedback), the
#: general feedback). Stated from format.php's rules: '=' is fraction 1, '~' 0, '%n%' n/100; a
#: multiple-choice answer part without '=' is "multiple answers"; T/F's first feedback belongs to
#: the wrong answer; a numerical '~' is a '*' answer worth 0; min..max is the middle +- half.
MOODLE: dict[str, tuple[str, list[tuple[Any, ...]], str]] = {
    "Powerhouse": ("multichoice", [("Mitochondrion", 1, "Right: oxidative phosphorylation happens there."),
                                   ("Nucleus", 0, "The nucleus holds the DNA."), ("Ribosome", 0, "Ribosomes make proteins."),
                                   ("Golgi apparatus", 0, "")], "Mitochondria are often called the powerhouse of the cell."),
    "Membrane parts": ("multichoice", [("Phospholipids", 0.5, "Yes."), ("Cholesterol", 0.5, "Yes, in animal cells."),
                                       ("Cellulose", -1, "No: that is the plant cell wall."), ("Chitin", -1, "")], ""),
    "Osmosis": ("multichoice", [("from high to low solute concentration", 0, ""), ("from low to high solute concentration", 1, ""),
                                ("only with ATP", 0, "")], ""),
    "Prokaryotes": ("truefalse", [("true", 0, "They have a nucleoid, not a nucleus."), ("false", 1, "Right: no nucleus.")], ""),
    "DNA": ("truefalse", [("true", 1, ""), ("false", 0, "")], ""),
    "Enzymes": ("shortanswer", [("enzyme", 1, ""), ("an enzyme", 1, ""), ("catalyst", 0.5, "A catalyst, yes: but which kind?"),
                                ("*", 0, "Think about proteins.")], ""),
    "Long stem": ("multichoice", [("It swells", 0, ""), ("It shrinks", 1, ""), ("Nothing happens", 0, "")], ""),
    "In a hypotonic solution, water enters the cell by osmosis; what can happen to...": (
        "multichoice", [("It can burst", 1, ""), ("It shrinks", 0, ""), ("Nothing", 0, "")], ""),
    "Two lines": ("multichoice", [("Replication", 1, ""), ("Translation", 0, ""), ("Transcription", 0, "")], ""),
    "Cell size": ("numerical", [("20", 10, 1, "")], ""),
    "Chromosomes": ("numerical", [("46", 0, 1, "Right."), ("23", 0, 0.5, "That is the number in a gamete."),
                                  ("*", None, 0, "Count both sets.")], ""),
    "Doubling": ("numerical", [("1", 0.1, 1, "")], ""),
    "Match organelles": ("matching", [("Ribosome", "makes proteins"), ("Lysosome", "digests waste"),
                                      ("Chloroplast", "photosynthesis"), ("", "stores starch")], "Only plant cells have chloroplasts."),
    "Essay": ("essay", [], "Mention growth and repair."),
    "Intro": ("description", [], ""),
    "Plain": ("multichoice", [("1", 1, ""), ("2", 0, "")], ""),
    "Escaped": ("multichoice", [("all of them", 1, ""), ("none", 0, "")], ""),
    "Micrograph": ("multichoice", [("A plant cell", 1, ""), ("An animal cell", 0, "")], ""),
}


def test_gift_to_source_to_moodle_xml_keeps_what_moodle_makes_of_the_gift(tmp_path: Path) -> None:
    code, out, err = run("import", str(GIFT / "cells.gift"), "--out", str(tmp_path / "source"))
    assert code == 0, err
    build(BuildOptions(sources=[tmp_path / "source"], out_dir=tmp_path / "dist"))
    made = moodle_questions(tmp_path / "dist/cells.moodle.xml")
    assert set(made) == set(MOODLE)
    for name, (kind, answers, general) in MOODLE.items():
        got_kind, got_answers, got_general = made[name]
        assert (got_kind, sorted(got_answers, key=repr), got_general) == (kind, sorted(answers, key=repr), general), name
    xml = (tmp_path / "dist/cells.moodle.xml").read_text(encoding="utf-8")
    assert "<single>false</single>" in xml.split("Membrane parts", 1)[1].split("</question>", 1)[0]
    assert "<idnumber>powerhouse</idnumber>" in xml and "<tag><text><![CDATA[energy]]></text></tag>" in xml


# -- Moodle's rules, one by one -------------------------------------------------------------------------


def test_escapes_as_moodle_reads_them() -> None:
    # \\ is a backslash (and what follows it is not escaped); \n a line break; \: \# \= \{ \} \~ the characters.
    assert unescape(escape(r"a\:b \#c \=d \{e\} \~f \\g \\~h \n i \x")) == "a:b #c =d {e} ~f \\g \\~h \n i \\x"
    assert "~" not in escape(r"\~") and "~" in escape(r"\\~")
    assert len(escape(r"a\:b\\c")) == len(r"a\:b\\c")  # positions are kept


def test_weights_names_and_categories(tmp_path: Path) -> None:
    path = tmp_path / "w.gift"
    path.write_text("::A::Pick.{~%33.33333%a ~%33.33333%b ~%33.33333%c ~d}\n\n"  # a grade option: Moodle takes it
                    "::B::Pick.{~%33.3%a ~%66.7%b}\n\n"  # 0.333 is 0.0003 off 0.3333333: refused
                    "::C::Pick.{~%100%a ~b}\n\n"  # no '=': multiple answers, a (100 %) right
                    "::D::Pick.{=%abc%a ~b}\n\n"  # not a weight: answer text
                    "$CATEGORY: $course$/top/Quiz//Part/Sub\n\n::E::Here?{T}\n", encoding="utf-8")
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert [m.split(": ", 1)[0] for m in found if "QB713" in m] == ["w.gift:3:13"]
    q = {x.title: x for x in quizzes[0].quiz.iter_questions()}
    assert [c.correct for c in q["A"].choices] == [True, True, True, False] and q["A"].type == "multiple_response"
    assert q["C"].type == "multiple_response" and [c.correct for c in q["C"].choices] == [True, False]
    assert [c.text for c in q["D"].choices] == ["%abc%a", "b"]
    # '//' is a slash inside a name: the category "Quiz/Part" holding "Sub". The whole path is kept:
    # "Quiz/Part" is the quiz (the questions before any $CATEGORY are in its own category), "Sub" its section.
    assert [s.title for s in quizzes[0].quiz.sections] == ["Quiz/Part", "Sub"] and quizzes[0].quiz.title == "Quiz/Part"
    assert split_category_path("$course$/top/Quiz//Part/Sub") == ("Quiz/Part", "Sub")
    assert split_category_path("top") == () and split_category_path("Default for Biology") == ("Default for Biology",)


def test_moodles_default_names() -> None:
    # shorten_text(text, 80): short texts whole; else cut at the last space or full stop before 77
    # characters and "..." added (a space right at the cut is left out); then tags stripped.
    assert default_name("What is 2 + 2?") == "What is 2 + 2?"
    assert default_name("<p>What is <b>2 + 2</b>?</p>") == "What is 2 + 2?"
    assert shorten_text("x" * 100, 80) == "x" * 77 + "..."  # no space: cut in the word
    assert shorten_text("word " * 20, 80) == "word " * 15 + "..."  # back from "wo|rd" to the space before it
    assert shorten_text("ab " * 30, 80) == "ab " * 25 + "ab..."
    assert default_name("a < b and c > d") == "a < b and c > d"  # "< " is no tag to PHP's strip_tags


def test_a_file_that_is_not_utf8_is_read_as_windows_1252(tmp_path: Path) -> None:
    path = tmp_path / "latin.gift"
    path.write_bytes("::Café::Où est le café?{=ici ~là}\n".encode("cp1252"))
    quizzes, sink = run_import(path)
    assert messages(sink)[0] == ("latin.gift:1:1: warning[QB711]: the file is not UTF-8, which Moodle's GIFT import refuses; it was "
                                 "read as Windows-1252\n    hint: check the accented letters in the source, and save the file as UTF-8")
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.stem == "Où est le café?" and question.title == "Café" and question.choices[1].text == "là"


def test_text_formats_and_pluginfile_references(tmp_path: Path) -> None:
    path = tmp_path / "formats.gift"
    path.write_text("::M::[markdown]See ![chart](@@PLUGINFILE@@/chart.png) **here**.{=yes ~no}\n\n"
                    "::Moo::[moodle]Line one\\nline <b>two</b>{=a ~b}\n\n"
                    "::H::[html]<p>one</p>\\n<p>two</p>{T}\n\n"
                    "::F::[html]<p>Which?</p>{=[plain]<b> as text ~[markdown]**bold**#[html]<i>no</i>}\n", encoding="utf-8")
    quizzes, sink = run_import(path)
    assert [m.split(": ", 1)[0] for m in messages(sink)[1:]] == ["formats.gift:1:16"]
    q = {x.title: x for x in quizzes[0].quiz.iter_questions()}
    assert q["M"].stem == "See [chart](@@PLUGINFILE@@/chart.png) **here**."  # Markdown is kept; the image is a link
    assert render_html(q["Moo"].stem) == "<p>Line one<br>\nline <b>two</b></p>"
    assert q["H"].stem == "one\n\ntwo"
    f = q["F"]  # an answer's own [format]; its feedback's own too
    assert render_html(f.choices[0].text) == "<p>&lt;b&gt; as text</p>" and f.choices[1].text == "**bold**"
    assert f.choices[1].feedback == "<i>no</i>"  # <i> stays <i> (docs/import.md, rich text)


def test_id_and_tags_from_comments_and_descriptions(tmp_path: Path) -> None:
    path = tmp_path / "ids.gift"
    path.write_text("// [id:Q-1] [tag:a b] [tag:c\\]d]\n::One::First?{=x ~y}\n\n"
                    "// comments only: no question\n// [id:nothing]\n\n"
                    "Just text, no braces: a description.\n\n"
                    "::Long::[html]<p>Essay with a missing word {} in the middle.</p>\n", encoding="utf-8")
    quizzes, sink = run_import(path)
    q = list(quizzes[0].quiz.iter_questions())
    assert [(x.id, x.type) for x in q] == [("Q-1", "single_choice"), ("just-text-no-braces-a-description", "text_only"),
                                           ("long", "essay")]
    assert q[0].tags == ["a b", "c]d"]
    assert plain_text(q[2].stem) == "Essay with a missing word _____ in the middle."


def test_broken_files_are_located_errors_never_tracebacks(tmp_path: Path) -> None:
    for name, data in (("empty.gift", b""), ("comments.gift", b"// nothing here\n"), ("braces.gift", b"{\n\n}\n{{{\n"),
                       ("name-only.gift", b"::Name::\n"), ("cat.gift", b"$CATEGORY: x\n")):
        path = tmp_path / name
        path.write_bytes(data)
        sink = DiagnosticSink()
        assert import_path(path, name, sink, "gift") == []
        assert [d.code for d in sink.errors] == ["QB704"], (name, messages(sink))


@pytest.mark.parametrize("name", ["cells.gift", "broken.gift"])
def test_each_imported_source_builds(name: str, tmp_path: Path) -> None:
    code, out, err = run("import", str(GIFT / name), "--out", str(tmp_path / "source"), "--allow-skipped")
    assert code == 0, err
    (source,) = (tmp_path / "source").glob("*.md")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    assert len(list((tmp_path / "dist").iterdir())) == 4


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("ab 1.)-+=*_`[]<>~|$!#&;\\é")), max_size=12) | st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30))
def test_plain_text_shows_as_written(text: str) -> None:
    """Answers and Aiken texts are plain lines: most are kept as they are (no conversion needed),
    the others escaped; either way the Markdown shows exactly the text."""
    assume(text.strip())
    shown = "<p>" + escape_html(" ".join(text.split()), quote=False) + "</p>"
    assert canonical(render_html(plain_markdown(text))) == canonical(shown)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(st.sampled_from(list("ab1 .:%#=~{}->\\n[]$/_*<>TF")), max_size=25), max_size=8))
def test_any_text_imports_or_is_refused_with_a_diagnostic(lines: list[str]) -> None:
    """Whatever the text, a GIFT import gives a quiz whose source reads back as it, or a located
    error: never a traceback."""
    imports_or_is_refused("\n".join(lines), "fuzz.gift", "gift")


def test_tex_environments_import_and_build(tmp_path: Path) -> None:
    """TeX environments (\\begin{pmatrix}): a hand-written file writes their braces and row breaks
    as TeX does; the formula around a '{' says it is no answer part (Moodle would take it for one:
    QB715 says so), its \\\\ stays a row break and its \\nu a letter. Moodle's own export escapes
    them (\\{, \\\\\\\\) and reads alike. Raw HTML with a blockquote of text and <br> builds (QTI's
    blockquote holds blocks: its text becomes a paragraph)."""
    path = ROOT / "tests/fixtures/import/gift/tex-environments.gift"
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors and not [d for d in sink.items if d.code in ("QB710", "QB713")], found
    assert len([m for m in found if "a '{' inside a formula is read as part of the formula" in m]) == 3
    (item,) = quizzes
    determinant, absolute, frequency, exported, quoted = item.quiz.iter_questions()
    assert determinant.stem == r"What is the determinant of $$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$$?"
    assert [(a.value, a.tolerance) for a in determinant.answers] == [(-2, 0)]
    assert absolute.stem == r"Which function is $f(x) = \begin{cases} x & x \ge 0 \\ -x & x < 0 \end{cases}$?"
    assert [(c.text, c.correct) for c in absolute.choices] == [("the absolute value", True), ("the sign", False)]
    assert frequency.stem.startswith(r"The symbol $\nu \neq \begin{matrix} a \\ b \end{matrix}$") and frequency.answer is True
    assert exported.stem == r"Solve $\begin{aligned} x + y &= 3 \\ x - y &= 1 \end{aligned}$ for x."
    assert "<blockquote>" in quoted.stem
    builds(item.quiz, item.media, tmp_path)
    (package,) = (tmp_path / "dist").glob("*.qti21.zip")
    import zipfile
    with zipfile.ZipFile(package) as archive:
        items = b"".join(archive.read(n) for n in archive.namelist() if n.endswith(".xml"))
    assert items.count(b"<math") >= 4 and b"<mtable" in items  # the environments became MathML tables
    assert b"<blockquote><p>Please don" in items
