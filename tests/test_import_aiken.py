"""Importing Aiken, Moodle's other plain-text format, as ``qformat_aiken::readquestions`` reads it
(question/format/aiken/format.php): a question line, options ``A)`` or ``A.``, ``ANSWER: X``.

The inputs are tests/fixtures/import/aiken/: ``networking.txt`` (CRLF line ends, options with and
without a space after the letter) and ``broken.txt``, what Moodle refuses. Expected values are
stated by hand from Moodle's rules.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import ROOT
from helpers.cli import run
from helpers.importing import builds, imports_or_is_refused, messages, run_import
from helpers.importing import moodle_questions
from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.content import render_html
from qti_builder.importers import detect
from qti_builder.pipeline import BuildOptions, build
from qti_builder.writers.markdown_source import read_back, write_source

AIKEN = ROOT / "tests/fixtures/import/aiken"
LANGUAGE = ("warning[QB711]: Aiken does not record the quiz's language; 'en' was taken from its text\n"
            "    hint: change 'language:' in the source if that is wrong")
REFUSED = "\n    hint: Moodle refuses it too; with 'Stop on error', its default, Moodle's import takes nothing from the file"
DIALECT = ("\n    hint: check the imported questions; for Moodle's own Aiken import, write options 'A) ...' and 'ANSWER: B' in "
           "capitals, one line per question")


def test_aiken_is_recognised(tmp_path: Path) -> None:
    assert detect(AIKEN / "networking.txt").name == "aiken"
    assert detect(AIKEN / "broken.txt").name == "aiken"
    # A quiz page with answers and explanations is not Aiken, even with ANSWER: in capitals.
    page = tmp_path / "page.txt"
    page.write_text("Networks\n\n1. Which layer routes packets?\nA) Physical\nB) Network\nANSWER: B\n"
                    "Explanation: routers work at the network layer.\nRouting is the network layer's job.\n\n"
                    "2. What does DNS do?\nA) Names to addresses\nB) Addresses to names\nANSWER: A\n"
                    "Explanation: it resolves names.\nIt also caches them.\n", encoding="utf-8")
    assert detect(page).name == "quizpage"
    markdown = tmp_path / "networking.md"
    shutil.copy(AIKEN / "networking.txt", markdown)
    assert detect(markdown).name == "quizpage"


def test_a_realistic_file(tmp_path: Path) -> None:
    quizzes, sink = run_import(AIKEN / "networking.txt")
    assert messages(sink) == [f"networking.txt:1:1: {LANGUAGE}"]
    imported = quizzes[0]
    quiz = imported.quiz
    assert quiz.id == "networking" and [s.title for s in quiz.sections] == ["networking"]
    q = list(quiz.iter_questions())
    assert [x.type for x in q] == ["single_choice"] * 4
    assert [x.stem for x in q][:2] == ["Which layer of the OSI model routes packets between networks?", "What does DNS translate?"]
    assert [[c.text for c in x.choices] for x in q] == [
        ["Physical", "Data link", "Network", "Transport"],
        ["Domain names into IP addresses", "IP addresses into MAC addresses", "Port numbers into services"],
        ["HTTP", "HTTPS", "FTP", "SMTP"],
        ["8.8.8.8", "192.168.1.10", "1.1.1.1"],  # "A)8.8.8.8": the space after the letter is optional
    ]
    assert [next(c.id for c in x.choices if c.correct) for x in q] == ["C", "A", "B", "B"]  # "ANSWER:B" too
    # Names as Moodle makes them: the line cut to 80 characters (at the space before "encrypting"),
    # and with what PHP's strip_tags takes for a tag ("<, >") removed.
    assert [x.title for x in q] == [None, None, "Which protocol delivers web pages securely, on port 443 by default, with TLS ...",
                                    "Which of these is a private IPv4 address? ( and & are plain text in Aiken)"]
    # The text is plain: Moodle escapes it (htmlspecialchars), so <, > and & show as written.
    assert render_html(q[3].stem) == "<p>Which of these is a private IPv4 address? (&lt;, &gt; and &amp; are plain text in Aiken)</p>"
    assert not imported.changed and not imported.skipped
    written = write_source(quiz)
    assert read_back(written.text, written.suffix) == quiz
    builds(quiz, imported.media, tmp_path)


def test_what_moodle_refuses_is_reported_where_it_is(tmp_path: Path) -> None:
    quizzes, sink = run_import(AIKEN / "broken.txt")
    assert messages(sink) == [
        f"broken.txt:1:1: {LANGUAGE}",
        "broken.txt:1:1: warning[QB713]: the option 'A) An option before any question' belongs to no question (an option line "
        "starts with a capital letter and ')' or '.'); skipped" + REFUSED,
        "broken.txt:2:1: warning[QB713]: 'ANSWER: A' belongs to no question; skipped" + REFUSED,
        "broken.txt:6:1: warning[QB713]: question 'Which port does SSH use?' (multichoice) was skipped: it has 1 option, and needs two at least"
        + REFUSED,
        "broken.txt:9:1: warning[QB715]: the question's text goes on over another line: Moodle starts a new question on each "
        "line (and refuses the one before); the lines are read here as one question\n"
        "    hint: write the question on one line (Aiken has no line breaks)",
        "broken.txt:14:1: warning[QB713]: question 'Which command shows the routing table?' (multichoice) was skipped: it has no ANSWER: line "
        "before the next question starts on line 17" + REFUSED,
        "broken.txt:26:1: warning[QB713]: question 'How many bits are in an IPv6 address?' (multichoice) was skipped: ANSWER: names 'D', not "
        "one of its options A to C\n    hint: Moodle imports it with no right answer; name the right option with its capital letter",
        # A small letter names its option plainly (Moodle would find no right answer): read as A, and said.
        "broken.txt:31:1: warning[QB730]: answers name their option in lower case ('ANSWER: a'; 1 line, from line 31): read as the "
        "option named; Moodle's Aiken import gives such a question no right answer" + DIALECT,
        "broken.txt:33:1: warning[QB713]: question 'What does TTL stand for?' (multichoice) was skipped: it has no ANSWER: line before the end "
        "of the file" + REFUSED,
    ]
    imported = quizzes[0]
    loopback, arp, device = imported.quiz.iter_questions()
    assert render_html(loopback.stem) == "<p>What is the loopback address<br>\nin IPv4?</p>"
    assert [c.correct for c in loopback.choices] == [True, False]
    assert arp.stem == "What does ARP resolve?" and [c.correct for c in arp.choices] == [True, False]
    assert device.stem == "Which device joins two networks?" and [(c.text, c.correct) for c in device.choices] == [
        ("Router", True), ("Hub", False)]
    assert imported.skipped == {"multichoice": 4} and not imported.changed
    builds(imported.quiz, imported.media, tmp_path)


def test_short_lines_and_empty_options(tmp_path: Path) -> None:
    path = tmp_path / "quirks.txt"
    # Lines under two characters are ignored; "A)" is an empty option, which Moodle does not save.
    path.write_text("What is 1 + 1?\nx\nA)\nB) 2\nC) 3\nANSWER: B\n", encoding="utf-8")
    quizzes, sink = run_import(path, "aiken")
    (question,) = quizzes[0].quiz.iter_questions()
    assert question.stem == "What is 1 + 1?" and [(c.id, c.text, c.correct) for c in question.choices] == [
        ("A", "2", True), ("B", "3", False)]


def test_aiken_to_source_to_moodle_xml_keeps_what_moodle_makes(tmp_path: Path) -> None:
    code, out, err = run("import", str(AIKEN / "networking.txt"), "--out", str(tmp_path / "source"))
    assert code == 0, err
    build(BuildOptions(sources=[tmp_path / "source"], out_dir=tmp_path / "dist"))
    assert moodle_questions(tmp_path / "dist/networking.moodle.xml") == {
        "Which layer of the OSI model routes packets between networks?": (
            "multichoice", [("Physical", 0, ""), ("Data link", 0, ""), ("Network", 1, ""), ("Transport", 0, "")], ""),
        "What does DNS translate?": ("multichoice", [("Domain names into IP addresses", 1, ""), ("IP addresses into MAC addresses", 0, ""),
                                                     ("Port numbers into services", 0, "")], ""),
        "Which protocol delivers web pages securely, on port 443 by default, with TLS ...": (
            "multichoice", [("HTTP", 0, ""), ("HTTPS", 1, ""), ("FTP", 0, ""), ("SMTP", 0, "")], ""),
        "Which of these is a private IPv4 address? ( and & are plain text in Aiken)": (
            "multichoice", [("8.8.8.8", 0, ""), ("192.168.1.10", 1, ""), ("1.1.1.1", 0, "")], ""),
    }


def test_a_file_that_is_not_utf8_is_read_as_windows_1252(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("Quelle est la capitale de la France ?\nA) Paris\nB) Lyon\nC) Orléans\nANSWER: A\n".encode("cp1252"))
    quizzes, sink = run_import(path, "aiken")
    assert messages(sink)[1] == ("latin.txt:4:1: warning[QB711]: the file is not UTF-8; it was read as Windows-1252\n"
                                 "    hint: check the accented letters in the source, and save the file as UTF-8")
    (question,) = quizzes[0].quiz.iter_questions()
    assert [c.text for c in question.choices] == ["Paris", "Lyon", "Orléans"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["What is it?", "A) one", "B) two", "C.three", "ANSWER: B", "ANSWER: a", "ANSWER:", "x", "",
                                 "A)", "D) <b> & *", "Z) zed",
                                 # the dialects (QB730): bare and numbered options, headings, wrapped options, keywords
                                 "A sei libri", "B otto", "1) uno", "2) due", "PARTE I", "goes on here", "NUMBERING: abc",
                                 "NUMBERING: IIII", "תשובה: ב", "ANSWER: 2"]), max_size=14))
def test_any_lines_import_or_are_refused_with_a_diagnostic(lines: list[str]) -> None:
    imports_or_is_refused("\n".join(lines), "fuzz.txt", "aiken")


def test_a_bank_in_the_bare_dialect_is_read_as_its_author_meant(tmp_path: Path) -> None:
    """Issue 32: real Aiken banks (an Italian law bank) write options without ')' or '.', break an
    option over two lines, put heading lines ('PARTE I', 'CAP. II') before a question, and name
    answers in lower case. Moodle's Aiken import refuses all of it; each form is read as meant and
    said once, at its first line (QB730). The fixture (CRLF) is our own, in the real bank's shape."""
    path = AIKEN / "dialect-bare.txt"
    assert b"\r\n" in path.read_bytes() and detect(path).name == "aiken"
    quizzes, sink = run_import(path)
    dialect = [m.split("\n")[0] for m in messages(sink) if "QB730" in m]
    assert dialect == [
        "dialect-bare.txt:1:1: warning[QB730]: short lines before a question's line are headings ('PART I'; 3 lines, from line 1): "
        "each read as the title of a section holding the questions after it; Moodle's Aiken import reads such a line as a question "
        "without options",
        "dialect-bare.txt:6:1: warning[QB730]: options are written without ')' or '.' after their letter ('A the mitochondrion'; "
        "9 lines, from line 6): each is read as the next option of its question; Moodle's Aiken import reads such a line as a new question",
        "dialect-bare.txt:9:1: warning[QB730]: options go on over another line starting in lower case ('out of the cell in vesicles'; "
        "1 line, from line 9): read as the option's text; Moodle's Aiken import reads such a line as a new question",
        "dialect-bare.txt:15:1: warning[QB730]: answers name their option in lower case ('ANSWER: b'; 1 line, from line 15): read as "
        "the option named; Moodle's Aiken import gives such a question no right answer",
    ]
    assert not [m for m in messages(sink) if "QB713" in m or "QB715" in m]
    (item,) = quizzes
    assert [s.title for s in item.quiz.sections] == ["PART I — CHAPTER 1", "CHAPTER 2"]
    atp, prokaryote = item.quiz.sections[0].questions
    assert atp.stem == "Which organelle makes ATP in animal cells?"
    assert [(c.text, c.correct) for c in atp.choices] == [
        ("the mitochondrion", True), ("the ribosome", False),
        ("the Golgi body, which packs proteins and sends them out of the cell in vesicles", False), ("the nucleus", False)]
    # A question whose text begins with the word 'A' is a question, not option A of the one before.
    assert prokaryote.stem == "A cell that has no nucleus is called:"
    assert [(c.text, c.correct) for c in prokaryote.choices] == [("eukaryotic", False), ("prokaryotic", True)]
    (pigment,) = item.quiz.sections[1].questions
    assert [c.text for c in pigment.choices if c.correct] == ["chlorophyll"]
    builds(item.quiz, item.media, tmp_path)
    # A question's first line that ends in no number is its text, not a heading (as before).
    two_lines = tmp_path / "two-lines.txt"
    two_lines.write_text("Read the code below\nWhat does print(1 + 1) show?\nA) 2\nB) 11\nANSWER: A\n", encoding="utf-8")
    (code,) = run_import(two_lines)[0][0].quiz.iter_questions()
    assert code.stem == "Read the code below\\\nWhat does print(1 + 1) show?"  # a line break
    graded = moodle_questions(tmp_path / "dist/dialect-bare.moodle.xml")
    assert graded["A cell that has no nucleus is called:"][1] == [("eukaryotic", 0, ""), ("prokaryotic", 1, "")]


def test_the_aikenadv_plugins_forms(tmp_path: Path) -> None:
    """The qformat_aikenadv plug-in (its format.php and language packs): options numbered '1)',
    'NUMBERING: abc|ABCD|123' setting the option numbering, answers as a number ('ANSWER: 3') or,
    with its Hebrew keyword 'תשובה:', as a Hebrew letter counted from א. A real sample in that form
    was refused whole (its Hebrew question read as a page's lines without options)."""
    path = AIKEN / "aikenadv.txt"
    assert detect(path).name == "aiken"
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not [m for m in found if "QB713" in m or "QB715" in m], found
    assert len([m for m in found if "QB730" in m]) == 5
    (item,) = quizzes
    gas, heart, organ = item.quiz.iter_questions()
    assert [c.correct for c in gas.choices] == [False, True, False] and gas.numbering == "decimal"
    assert [c.text for c in heart.choices if c.correct] == ["Four"] and heart.numbering == "lower-alpha"
    assert organ.stem == "איזה איבר מזרים דם בגוף?" and organ.numbering is None  # ABCD: the default A B C
    assert [(c.text, c.correct) for c in organ.choices] == [("הריאות", False), ("הלב", True), ("הכבד", False)]
    builds(item.quiz, item.media, tmp_path)
