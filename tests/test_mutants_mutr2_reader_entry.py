"""The Markdown reader's entry (readers/markdown/__init__.py) on small sources written here: the
front matter's errors as a user reads them (QB103 to QB107, QB118, QB119, each message, place
and hint written out, the place found by searching the source's text), what the front matter
gives every question (points, shuffling, language), sections' titles and descriptions, a paper's
stated total and where it is said (QB219 at it), and a heading's stated points (QB197). Each case
was written against a mutmut survivor of the module (issue 35, fifth session) and seen to fail on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import check_source
from helpers.reading import place, read_text

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers.markdown import read_paper

QUESTION = "1. Q?\nA) x\nB) y\nAnswer: A\n"
KNOWN = "known keys: id, title, language, lang, description, points, shuffle, settings, total, moodle_idnumber"


@pytest.mark.parametrize("text, needle, code, message, hint", [
    ("title: T\n\n" + QUESTION, "title", "QB103", "a quiz source starts with YAML front matter",
     "begin the file with the lines '---', 'title: My quiz', '---'"),
    ("---\ntitle: T\n\n" + QUESTION, "---", "QB104", "the front matter is not closed",
     "add a line '---' after the last front-matter key"),
    ("---\n- a\n- b\n---\n" + QUESTION, "- a", "QB105", "the front matter must be 'key: value' lines",
     "write one setting per line, such as 'title: My quiz', with no '- ' in front"),
    ("---\nlanguage: en\n---\n" + QUESTION, "---", "QB107", "the front matter has no 'title'",
     "add a line 'title: ...' to the front matter"),
    ("---\ntitle: T\n---\nJust text.\n", "Just text.", "QB119", "the quiz has no questions",
     "add a question: a line '1. Question text' followed by options 'A) ...' and 'Answer: A'"),
    ("---\ntitle: T\ndescription: D\n---\nIntro text.\n\n# S\n\n" + QUESTION, "Intro text.", "QB118",
     "the quiz has a description in the front matter and text before the first section", "keep one of the two"),
], ids=["QB103", "QB104", "QB105", "QB107", "QB119", "QB118"])
def test_a_front_matter_slip_is_told_where_it_is(text: str, needle: str, code: str, message: str, hint: str,
                                                 tmp_path: Path) -> None:
    _, told = read_text(tmp_path, text)
    assert told == [(*place(text, needle), code, message, hint)]


def test_unknown_front_matter_keys_name_what_was_meant(tmp_path: Path) -> None:
    text = "---\ntitle: T\nshuffle_answers: true\ntitel: x\nattempt: 2\nfoo: 1\n---\n" + QUESTION
    _, told = read_text(tmp_path, text)
    assert told == [
        (*place(text, "shuffle_answers"), "QB106", "'shuffle_answers' is a quiz setting: write it under 'settings:'",
         "a line 'settings:', then '  shuffle_answers: ...' indented below it (qti-builder docs source-format#quiz-settings)"),
        (*place(text, "titel"), "QB106", "unknown front-matter key 'titel'; did you mean 'title'?", KNOWN),
        (*place(text, "attempt"), "QB106", "unknown front-matter key 'attempt'; did you mean 'allowed_attempts', under "
                                           "'settings:'?", KNOWN),
        (*place(text, "foo"), "QB106", "unknown front-matter key 'foo'", KNOWN)]


def test_a_source_without_front_matter_and_without_questions_is_told_once(tmp_path: Path) -> None:
    text = "Just some notes.\n"
    quiz, told = read_text(tmp_path, text)
    assert quiz is None and [t[2] for t in told] == ["QB103"]


PAPER = """---
title: Quiz
language: ko
points: 2
settings:
  shuffle_answers: false
---
Read carefully.

# Part A

Part intro.

1. Q1?
A) x
B) y
Answer: A

2. Q2? {points=4}
A) x
B) y
Answer: B

## Sub

3. Note only. {type=text_only}
"""


def test_the_front_matter_gives_every_question_its_defaults(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, PAPER)
    assert told == []
    assert (quiz.title, quiz.language, quiz.description) == ("Quiz", "ko", "Read carefully.")
    assert quiz.settings.shuffle_answers is False
    (part,) = quiz.sections
    assert (part.title, part.description, [s.title for s in part.sections]) == ("Part A", "Part intro.", ["Sub"])
    one, two = part.questions
    assert [(q.stem, q.points, q.shuffle) for q in (one, two)] == [("Q1?", 2, False), ("Q2?", 4, False)]
    (note,) = part.sections[0].questions
    assert (note.type, note.stem) == ("text_only", "Note only.")


def test_shuffle_in_the_front_matter_wins_over_the_setting(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, PAPER.replace("points: 2\n", "shuffle: true\n"))
    assert told == []
    assert [(q.points, q.shuffle) for q in quiz.iter_questions() if q.type == "single_choice"] == [(1, True), (4, True)]


def test_a_quiz_without_sections_is_one_section_titled_as_the_quiz(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, "---\ntitle: Quiz\n---\n" + QUESTION)
    assert told == []
    assert (quiz.language, [(s.title, s.description) for s in quiz.sections]) == ("en", [("Quiz", None)])


@pytest.mark.parametrize("text, needle", [
    ('---\ntitle: "Midterm (Total: 9 points)"\n---\n' + QUESTION, "Total"),
    ("---\ntitle: Midterm\n---\nRead this.\nTotal: 9 points\n\n" + QUESTION, "Total"),
], ids=["title", "text-before-the-questions"])
def test_the_paper_s_stated_total_is_checked_where_it_is_said(text: str, needle: str, tmp_path: Path) -> None:
    code, reported = check_source(tmp_path, "p.md", text)
    assert code == 1 and [(r.line, r.column, r.code) for r in reported] == [(*place(text, needle), "QB219")]
    assert reported[0].message.startswith("the paper says Total: 9 points, its questions add up to 1 point (8 missing)")


HEADINGS = """---
title: T
points: 2
---
# Part A (6 points)

1. Q1?
A) x
B) y
Answer: A

2. Q2? {points=4}
A) x
B) y
Answer: B

## Sub

3. Note only. {type=text_only}

# Part B (3 points)

1. Q3?
A) x
B) y
Answer: A
"""


def test_a_heading_s_stated_points_are_checked(tmp_path: Path) -> None:
    """Part A's questions add up to its 6 (the default 2, 4, a note worth nothing); Part B's 2 do
    not make its 3."""
    _, told = read_text(tmp_path, HEADINGS)
    assert told == [(*place(HEADINGS, " (3 points)"), "QB197",
                     "the heading 'Part B (3 points)' states 3 points, but its questions add up to 2",
                     "write each question's points as the paper does ('(2 Punkte)', '(2 points)', {points=2}), or "
                     "a rule for each ('(je 2 Punkte)', '(2 pts each)') in the heading; 'qti-builder check --outline' "
                     "lists each question's points")]
    _, told = read_text(tmp_path, HEADINGS.replace("(3 points)", "(2 points)"))
    assert told == []


def test_a_pasted_paper_reads_as_its_source(tmp_path: Path) -> None:
    """``import`` of a pasted paper: its title (on its third line) and language as given, the lines
    up to the title not its body, the other lines numbered as pasted, the total said in the title
    placed there."""
    text = "Biology\n\nMidterm (Total: 5 points)\n\n1. Q?\nA) x\nB) y\nAnswer: B\n"
    sink = DiagnosticSink()
    quiz, source = read_paper(text, ("Midterm (Total: 5 points)", 3, 1), "de", "paper", "paper.txt", sink)
    assert [d.render() for d in sink.items] == []
    assert (quiz.title, quiz.language, quiz.description, quiz.stated_points) == ("Midterm (Total: 5 points)", "de", None, 5)
    (q,) = quiz.iter_questions()
    assert [c.text for c in q.choices if c.correct] == ["y"]
    at = source.locate(("sections", 0, "questions", 0))
    assert (at.line, at.column) == place(text, "1. Q?")
    at = source.locate(("stated_points",))
    assert (at.line, at.column) == place(text, "Total")


def test_a_source_without_front_matter_is_still_read_and_checked(tmp_path: Path) -> None:
    """QB103, and the questions' own problems in the same run (nothing is written)."""
    text = "1. Q?\nA) x\nB) y\n"
    quiz, told = read_text(tmp_path, text)
    assert [t[:3] for t in told] == [(1, 1, "QB103"), (*place(text, "1. Q?"), "QB120")]


@pytest.mark.parametrize("front, shuffle", [("", True), ("settings:\n  shuffle_answers: true\n", True),
                                            ("settings:\n  time_limit: 10\n", True),
                                            ("settings:\n  shuffle_answers: false\n", False),
                                            ("shuffle: false\nsettings:\n  shuffle_answers: true\n", False)],
                         ids=["no-settings", "shuffled", "other-settings", "not-shuffled", "shuffle-key"])
def test_whether_a_question_s_options_are_shuffled(front: str, shuffle: bool, tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, f"---\ntitle: T\n{front}---\n" + QUESTION)
    assert told == []
    assert [q.shuffle for q in quiz.iter_questions()] == [shuffle]


def test_front_matter_closed_by_dots_and_its_values_told_where_written(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, "---\ntitle: Dots\n...\n" + QUESTION)
    assert told == [] and quiz.title == "Dots"
    text = "---\ntitle: T\nlang: 5\n---\n" + QUESTION
    _, told = read_text(tmp_path, text)
    assert [t[:3] for t in told] == [(*place(text, "5\n"), "QB201")]
    text = "---\ntitle: T\nsettings:\n  time_limit: -10\n---\n" + QUESTION
    _, told = read_text(tmp_path, text)
    assert [t[:3] for t in told] == [(*place(text, "-10"), "QB201")]
    text = "---\ntitle: T\ntotal: 9\n---\n" + QUESTION
    code, reported = check_source(tmp_path, "p.md", text)
    assert [(r.line, r.column, r.code) for r in reported] == [(*place(text, "9\n"), "QB219")]


def test_the_quiz_s_language_reads_its_labels(tmp_path: Path) -> None:
    """``language: ja``: '正解' is the answer's label (in another quiz's language, QB181)."""
    quiz, told = read_text(tmp_path, "---\ntitle: T\nlanguage: ja\n---\n1. 偶数は?\nA) 3\nB) 4\n正解: B\n")
    assert told == []
    (q,) = quiz.iter_questions()
    assert [c.text for c in q.choices if c.correct] == ["4"]


@pytest.mark.parametrize("front, needle, code", [("title: [T\n", "[T", "QB111"), ("- a\n", "- a", "QB105")],
                         ids=["yaml-error", "not-key-value"])
def test_a_front_matter_that_cannot_be_read_leaves_the_questions_read(front: str, needle: str, code: str,
                                                                        tmp_path: Path) -> None:
    text = f"---\n{front}---\n1. Q?\nA) x\nB) y\n"
    _, told = read_text(tmp_path, text)
    assert [t[2] for t in told] == [code, "QB120"] and told[1][:2] == place(text, "1. Q?"), told


@pytest.mark.parametrize("front, code", [("title: T\n1. Why?\n", "QB111"), ("Hello\n1. Why?\n", "QB105")],
                         ids=["yaml-error", "not-key-value"])
def test_a_front_matter_line_that_looks_like_a_question_stays_the_front_matter_s(front: str, code: str,
                                                                                 tmp_path: Path) -> None:
    """The body starts after the front matter's closing line, however the front matter failed: its
    last line is never read as a question (which would add an error at a line of the front matter)."""
    text = f"---\n{front}---\n" + QUESTION
    _, told = read_text(tmp_path, text)
    assert [t[2] for t in told] == [code], told


def test_a_title_that_reads_as_a_number_is_kept_as_written(tmp_path: Path) -> None:
    quiz, told = read_text(tmp_path, "---\ntitle: 1.10\n---\n" + QUESTION)
    assert told == [] and quiz.title == "1.10"


def test_a_pasted_paper_without_a_title_is_read_from_its_first_line(tmp_path: Path) -> None:
    sink = DiagnosticSink()
    quiz, source = read_paper("Read this first.\n\n1. Q?\nA) x\nB) y\nAnswer: B\n", None, "en", "paper", "paper.txt", sink)
    assert [d.render() for d in sink.items] == []
    assert (quiz.title, quiz.description) == ("paper", "Read this first.")
