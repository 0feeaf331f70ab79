"""Import measured on real exports (issue 32): every real export of other systems that imports
builds, and one that cannot be imported is refused saying what it lacks.

The real exports sit beside the checkout where the workspace has them (``../shared/corpus/
lms-exports``; never copied into the project) and the test is skipped without them; bench/
corpus_import.py measures the same folder for docs/import.md's table. The quirks found in them are
reproduced by the project's own fixtures, built by tests/test_import_builds.py with every other
fixture, and tested each in its importer's test file. The refusals below need no corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from helpers.importing import builds, messages, run_import

from qti_builder.writers import DEFAULT_FORMATS

CORPUS = ROOT.parent / "shared" / "corpus" / "lms-exports"
CORPUS_ENTRIES = sorted(p for f in CORPUS.iterdir() if f.is_dir() for p in f.iterdir()) if CORPUS.is_dir() else []
#: QB704 with nothing more to say: right only for an input in which no question was found at all.
BARE_REFUSAL = "nothing to import: no question could be read"


@pytest.mark.skipif(not CORPUS_ENTRIES, reason=f"no corpus of real LMS exports at {CORPUS}")
@pytest.mark.parametrize("path", CORPUS_ENTRIES or [CORPUS], ids=lambda p: p.relative_to(CORPUS).as_posix() if p != CORPUS else "none")
def test_every_corpus_export_that_imports_builds(path: Path, tmp_path: Path) -> None:
    quizzes, sink = run_import(path)
    if sink.errors:
        # Refused: with a located error that names what the export lacks, and nothing of it written.
        assert all(d.span is not None and d.span.path for d in sink.errors), messages(sink)
        skipped = [d for d in sink.items if d.code in ("QB710", "QB713")]
        assert not (skipped and any(d.message == BARE_REFUSAL for d in sink.errors)), messages(sink)
        return
    assert quizzes, messages(sink)
    for number, item in enumerate(quizzes):
        folder = tmp_path / str(number)
        folder.mkdir()
        builds(item.quiz, item.media, folder)  # raises if the build refuses the source
        assert len(list((folder / "dist").iterdir())) == len(DEFAULT_FORMATS)


STATEFUL = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="stateful"><name><text>Scenes one</text></name><questiontext format="html"><text>Walk the scenes.</text></questiontext></question>
  <question type="stateful"><name><text>Scenes two</text></name><questiontext format="html"><text>Walk again.</text></questiontext></question>
</quiz>
"""

STACK = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="stack"><name><text>Derivative</text></name>
    <questiontext format="html"><text>Differentiate @f@. [[input:ans1]] [[validation:ans1]]</text></questiontext>
    <questionvariables><text>f: sin(x)^2;</text></questionvariables>
    <input><name>ans1</name><type>algebraic</type><tans>diff(f,x)</tans></input>
  </question>
</quiz>
"""


@pytest.mark.parametrize("name, text, expected", [
    ("stateful.xml", STATEFUL, "nothing to import: none of the 2 questions it holds can be imported (2 stateful); the first: "
                               "question 'Scenes one' has the type 'stateful', which cannot be imported; skipped"),
    ("stack.xml", STACK, "nothing to import: the one question it holds cannot be imported (1 stack): question 'Derivative' has "
                         "the type 'stack', which cannot be imported"),
])
def test_an_export_none_of_whose_questions_can_be_imported_says_which_and_why(tmp_path: Path, name: str, text: str,
                                                                              expected: str) -> None:
    """Real Moodle banks of plug-in types only (Stateful, STACK, Combined) and TAO packages of a
    portable custom interaction only were refused with "no question could be read"; the refusal
    now counts the questions by type and gives the first one's reason."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    quizzes, sink = run_import(path)
    assert not quizzes
    (error,) = sink.errors
    assert error.code == "QB704" and error.message.startswith(expected), error.message
    assert "named in a warning" in (error.hint or "")


EMPTY_BANK_QUESTIONS = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <objectbank ident="g1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b">
    <qtimetadata><qtimetadatafield><fieldlabel>bank_title</fieldlabel><fieldentry>Drafts</fieldentry></qtimetadatafield></qtimetadata>
    <item ident="g2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c" title="Confidence">
      <itemmetadata><qtimetadata>
        <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>multiple_choice_question</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">&lt;p&gt;How sure are you?&lt;/p&gt;</mattext></material>
        <response_lid ident="response1" rcardinality="Single"><render_choice></render_choice></response_lid></presentation>
      <resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
        <respcondition continue="No"><conditionvar><varequal respident="response1"/></conditionvar>
          <setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing>
    </item>
    <item ident="g3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d" title="Question 13">
      <itemmetadata><qtimetadata>
        <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>multiple_choice_question</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html"></mattext></material>
        <response_lid ident="response1" rcardinality="Single"><render_choice>
          <response_label ident="1"><material><mattext texttype="text/plain"></mattext></material></response_label>
          <response_label ident="2"><material><mattext texttype="text/plain"></mattext></material></response_label>
        </render_choice></response_lid></presentation>
      <resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
        <respcondition continue="No"><conditionvar><varequal respident="response1">1</varequal></conditionvar>
          <setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing>
    </item>
    <item ident="g4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e" title="Mitochondria">
      <itemmetadata><qtimetadata>
        <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>true_false_question</fieldentry></qtimetadatafield>
      </qtimetadata></itemmetadata>
      <presentation><material><mattext texttype="text/html">&lt;p&gt;Mitochondria make ATP.&lt;/p&gt;</mattext></material>
        <response_lid ident="response1" rcardinality="Single"><render_choice>
          <response_label ident="1"><material><mattext texttype="text/plain">True</mattext></material></response_label>
          <response_label ident="2"><material><mattext texttype="text/plain">False</mattext></material></response_label>
        </render_choice></response_lid></presentation>
      <resprocessing><outcomes><decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/></outcomes>
        <respcondition continue="No"><conditionvar><varequal respident="response1">1</varequal></conditionvar>
          <setvar action="Set" varname="SCORE">100</setvar></respcondition></resprocessing>
    </item>
  </objectbank>
</questestinterop>
"""


def test_a_banks_unfinished_questions_are_skipped_saying_what_they_lack(tmp_path: Path) -> None:
    """Real Canvas banks hold questions never finished (a survey item with no choices, a question
    whose text and choices are empty): each is skipped and its warning says what it lacks, in
    words (not the model's validation message); the bank's other questions are imported and build."""
    path = tmp_path / "drafts.xml"
    path.write_text(EMPTY_BANK_QUESTIONS, encoding="utf-8")
    quizzes, sink = run_import(path)
    found = [m.split("\n")[0] for m in messages(sink) if "QB713" in m]
    assert found == [
        "drafts.xml:5:1: warning[QB713]: question 'Confidence' (multiple_choice_question) was skipped: it has 0 choices, and needs 2 at least",
        "drafts.xml:15:1: warning[QB713]: question 'Question 13' (multiple_choice_question) was skipped: its stem is empty; "
        "its choices.0.text is empty; its choices.1.text is empty",
    ], messages(sink)
    (item,) = quizzes
    (kept,) = item.quiz.iter_questions()
    assert kept.type == "true_false" and kept.answer is True
    builds(item.quiz, item.media, tmp_path)


MOODLE_MISSING_FILES = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="truefalse">
    <name><text>Cell picture</text></name>
    <questiontext format="html"><text><![CDATA[<p>Is this a cell? <img src="@@PLUGINFILE@@/cell%20one.png" alt="a cell"> See <a href="@@PLUGINFILE@@/notes.pdf">the notes</a>.</p>]]></text></questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
</quiz>
"""


def test_a_moodle_image_the_export_lacks_is_a_placeholder_and_the_source_builds(tmp_path: Path) -> None:
    """A Moodle XML question showing a file of its own (@@PLUGINFILE@@) that the export does not
    embed was written with that reference, which the build refuses (QB160): the image is now a
    named placeholder, reported; a link to a missing file stays a link, which the build accepts."""
    path = tmp_path / "missing.xml"
    path.write_text(MOODLE_MISSING_FILES, encoding="utf-8")
    quizzes, sink = run_import(path)
    assert "missing.xml:3:1: warning[QB714]: files cell one.png, notes.pdf are referenced but not embedded in the export (each " \
           "image a placeholder, media/missing-<name>.svg, showing where it was)" in "\n".join(messages(sink))
    (item,) = quizzes
    (question,) = item.quiz.iter_questions()
    assert "![a cell](media/missing-cell-one.png.svg)" in question.stem and "[the notes](@@PLUGINFILE@@/notes.pdf)" in question.stem
    assert b"missing: cell one.png" in item.media["media/missing-cell-one.png.svg"]
    builds(item.quiz, item.media, tmp_path)


@pytest.mark.parametrize("name, text, warning", [
    ("notepad.txt", "Which gas do plants take in?\r\nA) Oxygen\r\nB) Carbon dioxide\r\nANSWER: B\r\n\r\n"
                    "Welche Farbe hat Chlorophyll – grün?\r\nA) Grün\r\nB) Rot\r\nANSWER: A\r\n",
     "notepad.txt:1:1: warning[QB711]: the file is UTF-16 (it starts with a byte-order mark); it was read as UTF-16"),
    ("notepad.gift", "::Gas:: Which gas do plants take in? {=carbon dioxide ~oxygen}\r\n\r\n::Farbe:: Chlorophyll ist {=grün ~rot}.\r\n",
     "notepad.gift:1:1: warning[QB711]: the file is UTF-16 (it starts with a byte-order mark), which Moodle's GIFT import "
     "refuses; it was read as UTF-16"),
])
def test_aiken_and_gift_saved_as_unicode_by_notepad(tmp_path: Path, name: str, text: str, warning: str) -> None:
    """Windows' Notepad saves "Unicode" as UTF-16 with a byte-order mark: an Aiken file was read as
    Windows-1252 (letters and NULs: refused), a GIFT file imported as garbage. Both are read as
    UTF-16, said, and build."""
    path = tmp_path / name
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    quizzes, sink = run_import(path)
    found = messages(sink)
    assert not sink.errors and warning in "\n".join(found), found
    (item,) = quizzes
    first, second = item.quiz.iter_questions()
    assert first.stem == "Which gas do plants take in?" and [c.text for c in first.choices if c.correct] == ["carbon dioxide"
                                                                                                          if name.endswith(".gift") else "Carbon dioxide"]
    assert "grün" in second.stem.lower() or any("Grün" == c.text or "grün" == c.text for c in second.choices)
    builds(item.quiz, item.media, tmp_path)


def test_a_text2qti_file_in_windows_1252_keeps_its_accents(tmp_path: Path) -> None:
    """A text2qti quiz saved in Windows-1252 had each accented letter replaced by U+FFFD, in
    silence; it is read as Windows-1252 and said, as Aiken and GIFT files are."""
    path = tmp_path / "quiz.txt"
    path.write_bytes("Quiz title: Biologie\r\n\r\n1.  Quelle cellule possède un noyau ?\r\n*a) eucaryote (à noyau)\r\nb)  procaryote\r\n"
                     .encode("cp1252"))
    quizzes, sink = run_import(path, "text2qti")
    assert "quiz.txt:3:1: warning[QB711]: the file is not UTF-8; it was read as Windows-1252" in "\n".join(messages(sink))
    (item,) = quizzes
    (question,) = item.quiz.iter_questions()
    assert [c.text for c in question.choices] == ["eucaryote (à noyau)", "procaryote"]
    assert question.stem == "Quelle cellule possède un noyau ?"
    builds(item.quiz, item.media, tmp_path)
