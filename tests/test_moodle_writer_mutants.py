"""What users receive from the Moodle XML writer, for the mutants of ``writers/moodle.py`` that
survived the whole-module mutmut run of issue 35 (fourth session). Each test reads the output as
Moodle 4.5 reads it (``helpers.moodle_engine``, a port of Moodle's own import and grading code,
or lxml over the file) or reads the diagnostic an author reads; the expected values are worked
out here from the source and Moodle's rules, never taken from the writer.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from urllib.parse import unquote

import lxml.html
import pytest
from lxml import etree

from helpers import ROOT, write
from helpers.moodle_engine import FRACTION_OPTIONS, extract_cloze, grade_number, grade_text, read_question
from helpers.outputs import build_all
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import Diagnostic
from qti_builder.pipeline import BuildFailed


def _moodle_errors(tmp_path: Path, name: str, text: str) -> list[Diagnostic]:
    out = tmp_path / "dist"
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[write(tmp_path, name, text)], out_dir=out, formats=["moodle"]))
    assert not out.exists()
    return [d for d in failed.value.diagnostics if d.severity.value == "error"]


# -- QB321: a score Moodle cannot store ------------------------------------------------------------

#: Short answers whose names have spaces, two of them at one score Moodle has no option for, and a
#: multiple-response question whose scores, one negative, all miss Moodle's options.
UNSTORABLE = """id: unstorable
title: Unstorable
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: wines
        stem: Name a wine.
        answers:
          - {text: rosé, score: 100}
          - {text: red wine, score: 35}
          - {text: white wine, score: 35}
      - type: multiple_response
        id: mix
        stem: Which are right?
        choices:
          - {id: A, text: one, correct: true, score: 13}
          - {id: B, text: two, correct: true, score: 87}
          - {id: C, text: three, correct: false, score: -87}
      - type: numerical
        id: year
        stem: When did the wall fall?
        answers:
          - {value: 1989, score: 100}
          - {value: 1990.5, score: 35}
"""

#: Moodle's grade options as its importer lists them (question_bank::fraction_options_full), in
#: percent, written here from Moodle's list in the test helpers (not from the writer's table).
GRADE_OPTIONS = sorted({round(abs(f) * 100, 5) for f in FRACTION_OPTIONS}, reverse=True)


def test_a_score_moodle_cannot_store_names_every_answer_and_the_nearest_grade_option(tmp_path: Path) -> None:
    """The error an author reads for scores Moodle would refuse: each score once, the answers
    given it named together (a numerical answer by its value), and the grade option nearest to
    it: 35 % is nearest 33.33333 %, 13 % nearest 12.5 %, 87 % nearest 90 % (not 83.33333 %), and
    -87 % nearest -90 %."""
    wines, mix, year = _moodle_errors(tmp_path, "unstorable.yaml", UNSTORABLE)
    assert (wines.code, mix.code, year.code) == ("QB321", "QB321", "QB321")
    assert wines.message == ("Moodle cannot store the scores of question 'wines': 35 % (answers 'red wine', "
                             "'white wine'; nearest option 33.33333 %) is not one of its grade options")
    assert mix.message == ("Moodle cannot store the scores of question 'mix': 13 % (choice A; nearest option 12.5 %); "
                           "87 % (choice B; nearest option 90 %); -87 % (choice C; nearest option -90 %) "
                           "is not one of its grade options")
    assert year.message == ("Moodle cannot store the scores of question 'year': 35 % (answer 1990.5; nearest option "
                            "33.33333 %) is not one of its grade options")


def test_the_hint_for_a_score_moodle_cannot_store_lists_moodle_s_grade_options(tmp_path: Path) -> None:
    """The hint tells the author which scores Moodle takes: exactly Moodle's grade options, in
    its order, and their negatives; and the two ways out."""
    errors = _moodle_errors(tmp_path, "unstorable.yaml", UNSTORABLE)
    for error in errors:
        hint = error.hint or ""
        listed = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", hint.split(":")[0])]
        assert listed == GRADE_OPTIONS, hint
        assert hint == ("Moodle's grade options are 100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, "
                        "30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5 and 0 % and their negatives: give "
                        "explicit scores from them (a multiple-response question's adding up to 100 %), or leave "
                        "Moodle out with --format")


# -- pictures: Moodle shows a picture only from a file of the same text element -------------------

CLOZE_PASSAGE = """id: pictures
title: Pictures
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: chart
        passage: "Study the chart: ![A bar chart](media/chart.png)"
        stem: "The tallest bar is [[b1]]."
        blanks:
          - {id: b1, kind: text, answers: [blue]}
"""


def _shown_pictures(element: etree._Element) -> list[tuple[str, bytes | None]]:
    """Each picture of a Moodle text element as Moodle resolves it: an ``@@PLUGINFILE@@/name``
    reference finds the ``<file>`` of that (URL-decoded) name in the same element; any other
    reference is no file of the question (a broken picture on the site)."""
    files = {f.get("name"): base64.b64decode(f.text or "") for f in element.findall("file")}
    shown = []
    for img in lxml.html.fromstring(f"<div>{element.findtext('text') or ''}</div>").iter("img"):
        src = img.get("src") or ""
        name = unquote(src[len("@@PLUGINFILE@@/"):]) if src.startswith("@@PLUGINFILE@@/") else None
        shown.append((img.get("alt") or "", files.get(name) if name else None))
    return shown


def test_a_cloze_question_s_passage_picture_is_a_file_of_its_question_text(tmp_path: Path) -> None:
    """A fill-in-the-blank question's shared passage is written into its Moodle question text
    (above its embedded answers): the passage's picture must be one of that text's files, which
    Moodle shows, not a path of the author's folder."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "chart.png").write_bytes(picture)
    outputs = build_all(tmp_path, write(tmp_path, "pictures.yaml", CLOZE_PASSAGE))
    question = outputs.moodle_question("chart")
    assert _shown_pictures(question.find("questiontext")) == [("A bar chart", picture)]
    (blank,) = extract_cloze(question.findtext("questiontext/text") or "")
    assert [a.text for a in blank.answers] == ["blue"]


def _moodle(tmp_path: Path, name: str, text: str) -> tuple[etree._Element, list[Diagnostic]]:
    """The Moodle XML of a source that builds (parsed as Moodle's importer reads it: CDATA as
    text), and the warnings the build gave."""
    source = write(tmp_path, name, text)
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], jobs=1))
    (path,) = (tmp_path / "dist").glob("*.moodle.xml")
    return etree.fromstring(path.read_bytes(), etree.XMLParser(strip_cdata=True)), list(result.diagnostics)


def _question(root: etree._Element, question_id: str) -> etree._Element:
    return next(q for q in root.iter("question") if q.get("type") != "category" and q.findtext("idnumber") == question_id)


# -- cloze marks: whole-number blank weights -------------------------------------------------------

WEIGHTS = """id: weights
title: Weights
sections:
  - id: s
    title: S
    questions:
      - type: fill_in_blank
        id: near
        stem: "[[a]] and [[b]]"
        blanks:
          - {id: a, kind: text, answers: [one], points: 1}
          - {id: b, kind: text, answers: [two], points: 1.01}
      - type: fill_in_blank
        id: far
        stem: "[[a]] and [[b]]"
        blanks:
          - {id: a, kind: text, answers: [one], points: 1.01}
          - {id: b, kind: text, answers: [two], points: 1.02}
"""


def test_unequal_fractional_blank_points_keep_their_proportion_up_to_a_hundred_times(tmp_path: Path) -> None:
    """docs/question-types.md: blanks of unequal fractional points weigh the smallest whole numbers
    in the same proportion, the smallest blank weighing at most 100; past that, 1 each. 1 and
    1.01 points are 100 and 101; 1.01 and 1.02 would need 101 and 102, so they weigh 1 and 1, and
    the author is warned the question is worth 2 in Moodle. Weights as Moodle's parser reads them."""
    root, diagnostics = _moodle(tmp_path, "weights.yaml", WEIGHTS)
    marks = {i: [s.mark for s in extract_cloze(_question(root, i).findtext("questiontext/text") or "")]
             for i in ("near", "far")}
    assert marks == {"near": [100.0, 101.0], "far": [1.0, 1.0]}
    warned = {d.message for d in diagnostics if d.code == "QB323"}
    assert ("question 'far' is worth 2.03 points, but Moodle gives a cloze question the sum of its blanks' "
            "whole-number weights: it will be worth 2 (each of the 2 blanks 1)") in warned, warned


# -- essays --------------------------------------------------------------------------------------

ESSAYS = """id: essays
title: Essays
sections:
  - id: s
    title: S
    questions:
      - type: essay
        id: report
        stem: Write your report, and attach your drawings.
        attachments: 2
"""


def test_an_essay_with_attachments_takes_files_of_any_type(tmp_path: Path) -> None:
    """The source sets no file types for an essay's attachments, so Moodle must accept any: an
    empty ``filetypeslist`` is Moodle's "all file types" (qtype_essay, as import_essay reads it);
    anything else restricts the upload. The essay's text stays required and the files optional."""
    root, _ = _moodle(tmp_path, "essays.yaml", ESSAYS)
    essay = _question(root, "report")
    assert essay.get("type") == "essay"
    assert (essay.findtext("attachments"), essay.findtext("attachmentsrequired")) == ("2", "0")
    assert (essay.findtext("filetypeslist") or "").strip() == ""
    assert essay.findtext("responserequired") == "1"


# -- a question's name in the bank -----------------------------------------------------------------

BRACKETS = """id: brackets
title: Brackets
sections:
  - id: s
    title: S
    questions:
      - type: true_false
        id: wiki
        stem: "In a wiki, [[Home]] links to the page called Home."
        answer: true
"""


def test_a_question_that_is_not_a_blank_question_keeps_its_double_brackets_in_its_name(tmp_path: Path) -> None:
    """Only a fill-in-the-blank question's [[blank]] markers become ___ in its Moodle name: in any
    other question the brackets are the author's own text, and the name shows them as written."""
    root, _ = _moodle(tmp_path, "brackets.yaml", BRACKETS)
    question = _question(root, "wiki")
    assert question.findtext("name/text") == "In a wiki, [[Home]] links to the page called Home."
    assert "[[Home]]" in lxml.html.fromstring(question.findtext("questiontext/text") or "").text_content()


# -- template overrides: errors a user reads --------------------------------------------------------

def test_a_question_template_including_a_missing_template_is_an_error_at_the_question(tmp_path: Path) -> None:
    """A --templates copy of a Moodle question template that includes a template that does not
    exist: the error (QB303) points at the question in the source (file and line), so the author
    knows which question's template failed; nothing is written."""
    template = "moodle/question_truefalse.xml.j2"
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    overlay.write_text((ROOT / "templates" / template).read_text(encoding="utf-8")
                       + '{% include "moodle/no_such_piece.xml.j2" %}\n', encoding="utf-8")
    source = write(tmp_path, "brackets.yaml", BRACKETS)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], templates=tmp_path / "templates"))
    found = [d for d in failed.value.diagnostics if d.code == "QB303"]
    assert len(found) == 1 and "no_such_piece" in found[0].message, [d.render() for d in failed.value.diagnostics]
    span = found[0].span
    assert span is not None and Path(span.path).name == "brackets.yaml"
    lines = BRACKETS.splitlines()
    assert span.line == next(n for n, line in enumerate(lines, 1) if "type: true_false" in line), span
    assert not (tmp_path / "dist").exists()


POLL = ('<question type="poll"><name><text>Poll</text></name>'
        '<questiontext format="html"><text>Which?</text></questiontext></question>')


@pytest.mark.parametrize("template, before", [("moodle/quiz.xml.j2", "</quiz>"),
                                              ("moodle/question_truefalse.xml.j2", '<question type="truefalse">')])
def test_a_template_writing_what_moodle_refuses_is_an_error_not_a_file(tmp_path: Path, template: str, before: str) -> None:
    """A --templates copy of the Moodle file's frame, or of a question's template, that adds a
    question of a type Moodle does not know: Moodle's importer refuses it ("not supported by XML
    import") and, stopping on error, the whole file. The frame and each question are validated
    before anything is written: an error (QB401), and no file."""
    overlay = tmp_path / "templates" / template
    overlay.parent.mkdir(parents=True)
    text = (ROOT / "templates" / template).read_text(encoding="utf-8")
    assert text.count(before) == 1
    overlay.write_text(text.replace(before, POLL + "\n" + before), encoding="utf-8")
    source = write(tmp_path, "brackets.yaml", BRACKETS)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], templates=tmp_path / "templates"))
    assert any(d.code == "QB401" and d.severity.value == "error" for d in failed.value.diagnostics), \
        [d.render() for d in failed.value.diagnostics]
    assert not (tmp_path / "dist").exists()


# -- feedback a student reads after answering -----------------------------------------------------

FEEDBACK = """id: feedback
title: Feedback
sections:
  - id: s
    title: S
    questions:
      - type: short_answer
        id: star
        stem: Name the star closest to Earth.
        feedback:
          correct: Right, the Sun.
          partially_correct: Close.
          incorrect: Not a star we know.
        answers:
          - {text: Sun, score: 100}
          - {text: Sol, score: 50}
          - {text: Moon, score: 0}
          - {text: Proxima, score: 0, feedback: It is the next one.}
      - type: short_answer
        id: any
        stem: Name any star.
        feedback:
          incorrect: That one is never shown.
        answers:
          - {text: Sun, score: 100}
          - {text: "*", score: 50}
"""


def _shown(html: str | None) -> str:
    return " ".join(lxml.html.fromstring(f"<div>{html or ''}</div>").text_content().split())


def test_each_short_answer_shows_the_feedback_of_its_score(tmp_path: Path) -> None:
    """Moodle's short answer has no combined feedback: each answer carries what the student reads
    when it matches. Without its own, a full-marks answer shows the correct feedback, a part-marks
    one the partially correct feedback, a 0 % one the incorrect feedback; an answer's own comment
    wins; any other response meets the last answer, ``*`` at 0 %, with the incorrect feedback
    (graded by the Moodle engine: answers in order, the first match counts)."""
    root, _ = _moodle(tmp_path, "feedback.yaml", FEEDBACK)
    question = _question(root, "star")
    shown = {a.findtext("text"): (a.get("fraction"), _shown(a.findtext("feedback/text"))) for a in question.findall("answer")}
    assert shown == {"Sun": ("100", "Right, the Sun."), "Sol": ("50", "Close."), "Moon": ("0", "Not a star we know."),
                     "Proxima": ("0", "It is the next one."), "*": ("0", "Not a star we know.")}
    read = read_question(question)
    assert [grade_text(read.answers, False, r) for r in ("sun", "Sol", "Moon", "Vega")] == [1.0, 0.5, 0.0, 0.0]
    assert read.answers[-1].text == "*"


def test_an_incorrect_feedback_moodle_can_never_show_is_a_warning_at_the_question(tmp_path: Path) -> None:
    """A short answer with its own ``*`` answer matches every response, so Moodle never reaches the
    incorrect feedback: the author is warned (QB324) at the question, told how to fix it, and the
    file has no second ``*``."""
    root, diagnostics = _moodle(tmp_path, "feedback.yaml", FEEDBACK)
    (warning,) = [d for d in diagnostics if d.code == "QB324"]
    assert warning.severity.value == "warning"
    assert warning.message == ("question 'any': Moodle never shows its incorrect feedback, because its answer '*' "
                               "accepts every response")
    assert warning.hint == "remove the '*' answer, or move the text to the '*' answer's own feedback"
    lines = FEEDBACK.splitlines()
    assert warning.span is not None and Path(warning.span.path).name == "feedback.yaml"
    assert warning.span.line == next(n for n, line in enumerate(lines, 1) if "id: any" in line) - 1
    assert [a.findtext("text") for a in _question(root, "any").findall("answer")] == ["Sun", "*"]


# -- numbers Moodle shows ---------------------------------------------------------------------------

HALF = """id: half
title: Half
sections:
  - id: s
    title: S
    questions:
      - type: numerical
        id: half
        stem: What is one divided by two?
        answers:
          - {value: 0.5, tolerance: 0.05}
"""


def test_a_numerical_answer_below_one_is_written_as_the_source_writes_it(tmp_path: Path) -> None:
    """Moodle shows a numerical question's right answer as its answer's text ("The correct answer
    is: 0.5" in the review): a value below one keeps its leading zero, the tolerance too, and the
    answer grades as the source says (0.52 right, 0.56 wrong; the Moodle engine)."""
    root, _ = _moodle(tmp_path, "half.yaml", HALF)
    question = _question(root, "half")
    (answer,) = question.findall("answer")
    assert (answer.findtext("text"), answer.findtext("tolerance")) == ("0.5", "0.05")
    read = read_question(question)
    assert [grade_number(read.answers, r) for r in ("0.5", "0.52", "0.56")] == [1.0, 1.0, 0.0]


CHOICES = """id: choices
title: Choices
sections:
  - id: s
    title: S
    questions:
      - type: multiple_response
        id: primes
        stem: Which are prime?
        choices:
          - {id: A, text: "2", correct: true}
          - {id: B, text: "3", correct: true}
          - {id: C, text: "4"}
      - type: true_false
        id: earth
        stem: The Earth is round.
        answer: true
        true_feedback: It is, nearly.
        false_feedback: Look at a photograph from space.
        feedback:
          correct: Right.
          incorrect: Wrong.
"""


def test_a_multiple_response_question_tells_how_many_choices_were_right(tmp_path: Path) -> None:
    """Moodle shows "You have correctly selected 1" on a multiple-answer question only when the
    question has ``<shownumcorrect/>`` (import_multichoice reads its presence): students ticking
    part of the right choices are told how far they got."""
    root, _ = _moodle(tmp_path, "choices.yaml", CHOICES)
    question = _question(root, "primes")
    assert read_question(question).single is False
    assert question.find("shownumcorrect") is not None


def test_a_true_false_answer_shows_its_own_feedback(tmp_path: Path) -> None:
    """A true/false question's answers each carry the feedback Moodle shows when it is chosen: the
    source's own comment on that answer, before the question's correct/incorrect feedback."""
    root, _ = _moodle(tmp_path, "choices.yaml", CHOICES)
    shown = {a.findtext("text"): _shown(a.findtext("feedback/text")) for a in _question(root, "earth").findall("answer")}
    assert shown == {"true": "It is, nearly.", "false": "Look at a photograph from space."}


NO_HEADINGS = """---
title: Plain Quiz
---

1. Is a force a vector? {#vector type=true_false}

Answer: True
"""


def test_a_source_without_headings_keeps_its_questions_in_the_quiz_s_own_category(tmp_path: Path) -> None:
    """A quiz without sections (no headings) has one section named as the quiz: Moodle keeps its
    questions in the quiz's category itself, $course$/top/Plain Quiz, not in a category of the
    same name below it (the file's only category question is the quiz's)."""
    root, _ = _moodle(tmp_path, "plain.md", NO_HEADINGS)
    paths = [q.findtext("category/text") for q in root.iter("question") if q.get("type") == "category"]
    assert paths == ["$course$/top/Plain Quiz"]
