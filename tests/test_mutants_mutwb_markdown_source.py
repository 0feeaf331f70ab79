"""The canonical Markdown that ``qti-builder import`` writes (writers/markdown_source.py), checked
against sources written here by hand in that form: each is read by the Markdown reader and written
again, and must come back as the very text a person wrote (the writer's canonical form is a fixed
point), reading back into the same quiz. Where the dialect cannot say something the quiz is written
as YAML, with the reason named; the YAML is checked as the data it holds.

Outside [tool.mutmut]'s selection (issue 35, fifth session): run against its survivors by
``tools/mutation.py --recheck --also tests/test_mutants_mutwb_markdown_source.py writers/markdown_source.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from helpers import write
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz
from qti_builder.writers.markdown_source import read_back, write_source


def read(path: Path) -> Quiz:
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    assert result is not None and not sink.errors, [d.render() for d in sink.items]
    return result[0]


def written_again(tmp_path: Path, text: str, name: str = "quiz.md") -> tuple[Quiz, str]:
    quiz = read(write(tmp_path, name, text))
    written = write_source(quiz)
    assert written.suffix == ".md", written.reason
    assert written.reason is None and written.refused == ()
    assert read_back(written.text, ".md") == quiz
    return quiz, written.text


#: Every kind and every attribute the English dialect writes, in the canonical form: settings, a
#: stated total and an ID number in the front matter, a description of two lines at the margin,
#: a section's text, attributes of sections, questions and options, the quiz-wide shuffle off (so a
#: question's own shuffle is written), feedback of every label, a text ending in braces kept as
#: text by {fixed=false}, scored answers with their own feedback, a quoted answer holding "or",
#: tolerances absolute and in percent, a tiny number without an exponent, continuation lines
#: indented, blanks with their own points, and a nested section.
EVERY_KIND = """---
id: writer-check
title: What the source writer says
language: en
settings:
  time_limit: 30
  allowed_attempts: unlimited
  shuffle_answers: false
total: 40
moodle_idnumber: WC-1
---

A quiz of every kind, written by hand in the canonical form.
Its second line stays at the margin.

# Choices {#choices shuffle moodle_idnumber=CH-1}

The options of this section are shuffled.

1. Which city is the capital of France? {#capital points=2 title="Capital of France" tags="geo, europe" ignore=QB601 moodle_idnumber=CAP-1 shuffle}

A) Paris
   Feedback: Yes, Paris.
B) Lyon {fixed}
C) The set {x} {fixed=false}

Answer: A

Explanation: Paris has been the capital since 987.
Correct feedback: Right.
Incorrect feedback: Not quite.

2. Which numbers are prime? {#primes points=3 scoring=exam incomplete_points=1.5}

A) 2
B) 3
C) 4

Answer: A, B

Partially correct feedback: Some are right.

3. Which one is even? {#even type=multiple_response negative_marking}

A) 2 {score=100}
B) 3 {score=-50}

Answer: A

4. The Earth is flat. {#flat}

Answer: false
Correct feedback: Correct, it is round.
Incorrect feedback: It is not.

# Open answers {#open select=2}

1. Who wrote *Hamlet*? {#author type=short_answer points=1.25 case_sensitive}

Answer: Shakespeare
Answer (50%): "Bacon or Marlowe"
   Feedback: Some say so.

2. Give π to two decimals. {#pi type=numerical unit=rad}

Answer: 3.14 ± 0.005
Answer (33.3%): 3 ± 5%
   Feedback: Close.
Answer (0.5%): 0.000001

3. Explain recursion. {#explain points=5 response_format=monospaced expected_lines=10 min_words=50 max_words=300 attachments=2}

Answer: A function that calls itself,
with a base case.

4. Upload your lab report. {#report type=file_upload points=10 max_files=2 allowed_types=".pdf,.docx"}

5. Match each country with its capital. {#countries type=matching points=3 shuffle}

- France -> Paris
- Germany -> Berlin
- -> Madrid

6. Order the planets from the Sun outwards. {#planets type=ordering}

- Mercury
- Venus
   and its clouds

7. The [[Sun | sun]]{points=1.5} is a [[*yellow | red]]{points=0.5} dwarf. {#sentence type=fill_in_blank points=2 case_sensitive}

8. Describe your week. {#week type=essay}

9. The next section is about history. {#note type=text_only}

## Deeper {#deeper}

1. When did the Berlin Wall fall? {#year}

A) 1989
B) 1991

Answer: A
"""

#: A Korean exam paper's form: labels in Korean, shared passages numbering the questions on from
#: section to section (a question without one between them), circled, hangul and consonant
#: option markers, O/X marks, an answer quoted because it holds the or-word 또는.
KOREAN = """---
id: ko-check
title: 한국사 확인
language: ko
---

# 첫째 마당 {#first}

[1~2] 다음 글을 읽고 물음에 답하시오.

세종은 훈민정음을 만들었다.

1. 윗글의 왕은? {#king}

① 태조
② 세종
③ 정조

정답: ②

설명: 세종이 훈민정음을 창제하였다.
정답 피드백: 맞았습니다.
오답 피드백: 다시 보세요.

2. 윗글의 문자는? {#script}

가) 이두
나) 훈민정음

정답: 나

# 둘째 마당 {#second}

3. 옳은 것을 모두 고르시오. {#all}

ㄱ. 가
ㄴ. 나
ㄷ. 다

정답: ㄱ, ㄷ

부분 정답 피드백: 하나가 더 있습니다.

[4~5] 다음을 보고 답하시오.

고려와 조선의 건국.

4. 고려는 918년에 건국하였다. {#goryeo}

정답: O

5. 조선을 건국한 인물은? {#founder type=short_answer}

정답: 이성계
정답: "태조 또는 이성계"
정답 (50%): 태조
   피드백: 묘호입니다.
"""


@pytest.mark.parametrize("text", [EVERY_KIND, KOREAN], ids=["every-kind", "korean"])
def test_a_canonical_source_is_written_back_as_it_was_written(tmp_path: Path, text: str) -> None:
    _, again = written_again(tmp_path, text)
    assert again.splitlines() == text.splitlines()
    assert again == text


#: Every option numbering but upper letters (above): the marker each writes and the name its
#: answer gives the right option; ``numbering=none`` keeps letters and says it in the attributes.
MARKERS = """---
id: markers
title: Option markers
language: en
---

# Markers {#markers}

1. Lower letters. {#lower}

a) one
b) two

Answer: b

2. Roman numerals. {#roman}

i) one
ii) two
iii) three

Answer: iii

3. Numbers. {#decimal}

1) one
2) two

Answer: 1

4. Numbers in brackets. {#brackets}

(1) one
(2) two

Answer: (2)

5. Katakana. {#katakana}

ア) one
イ) two

Answer: イ

6. Iroha. {#iroha}

イ) one
ロ) two

Answer: ロ

7. Not numbered. {#plain numbering=none}

A) one
B) two

Answer: A
"""


def test_every_option_numbering_is_written_with_its_own_markers(tmp_path: Path) -> None:
    quiz, again = written_again(tmp_path, MARKERS)
    assert [q.numbering for q in quiz.iter_questions()] == [
        "lower-alpha", "lower-roman", "decimal", "parenthesized-decimal", "katakana", "iroha", "none"]
    assert again == MARKERS


#: More of the same (by hand): a title longer than a line of YAML, on one line; a section's ID
#: number with a space, quoted; a list of accepted codes; shuffle off against the quiz's default on;
#: an option text ending in braces that has attributes of its own; an option over two lines; a
#: file upload that takes any type; a multiple response named by its several answers, without a
#: type; true/false with O/X and ○/× marks, and with each answer's own feedback as the correct and
#: incorrect feedback, the right answer false and true.
MORE = """---
id: more
title: A title long enough that a YAML writer of eighty columns would fold it onto a second line, which this one must not do
language: en
---

# More {#more moodle_idnumber="M 1"}

1. Pick one. {#pick ignore="QB601, QB602" shuffle=false}

A) The set {x} {fixed}
B) A text over
   two lines
C) Third

Answer: B

2. Upload anything. {#any type=file_upload}

3. Two are right. {#two scoring=all_or_nothing}

A) yes
B) also yes
C) no

Answer: A, B

4. The Moon is a star. {#moon}

Answer: X
Correct feedback: Yes, it is a satellite.
Incorrect feedback: It shines by the Sun's light.

5. Water is wet. {#wet}

Answer: ○

6. Match. {#pairs type=matching shuffle=false}

- a -> 1
- b -> 2

7. Fire is hot. {#fire}

Answer: true
Correct feedback: Yes.
Incorrect feedback: Touch it.
"""


def test_attributes_marks_and_own_feedback_are_written_back_as_written(tmp_path: Path) -> None:
    quiz, again = written_again(tmp_path, MORE)
    pick, upload, two, moon, wet, pairs, fire = quiz.iter_questions()
    assert (moon.labels, moon.answer, moon.true_feedback, moon.false_feedback) == (
        ["O", "X"], False, "It shines by the Sun's light.", "Yes, it is a satellite.")
    assert (wet.labels, wet.answer) == (["○", "×"], True)
    assert (fire.true_feedback, fire.false_feedback) == ("Yes.", "Touch it.")
    assert upload.allowed_types == [] and pick.ignore == ["QB601", "QB602"] and not pick.shuffle
    assert again == MORE


# -- what Markdown cannot say: YAML, and the reason the import prints -------------------------------

HEAD = "id: r\ntitle: R\nsections:\n  - id: s\n    title: S\n    questions:\n      - "

#: A quiz (YAML, by hand) that the dialect cannot write, and the reason ``qti-builder import`` gives
#: for writing it as YAML ("quiz 'r' is written as YAML: <reason>").
INEXPRESSIBLE = [
    ("{type: single_choice, id: pick, stem: Which?, choices: [{id: X1, text: one, correct: true}, {id: X2, text: two}]}",
     "choice id 'X1' of question 'pick' (Markdown choices are letters A-Z)"),
    ("{type: single_choice, id: pick, stem: Which?, numbering: circled-decimal, "
     "choices: [{id: A, text: one, correct: true}, {id: C, text: two}]}",
     "choice id 'C' of question 'pick' (numbered options are A, B, C, … in order)"),
    ("{type: true_false, id: tf, stem: Is it?, answer: true, labels: [Yes, No]}",
     "the labels of true/false question 'tf'"),
    ("{type: true_false, id: tf, stem: Is it?, answer: true, true_feedback: Right., feedback: {correct: Well done.}}",
     "both correct feedback and the answer's own feedback on true/false question 'tf'"),
    ("{type: true_false, id: tf, stem: Is it?, answer: false, true_feedback: Wrong., feedback: {incorrect: No.}}",
     "both correct feedback and the answer's own feedback on true/false question 'tf'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[x]] b", blanks: [{id: x, kind: text, answers: [one]}]}',
     "blank id 'x' of question 'fib' (Markdown numbers blanks b1, b2, ...)"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: dropdown, answers: [one, two], '
     'options: [three]}]}',
     "drop-down blank 'b1' of question 'fib' with several correct options"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: text, answers: ["a|b"]}]}',
     "the answer 'a|b' of blank 'b1' in question 'fib'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: text, answers: ["*star"]}]}',
     "the answer '*star' of blank 'b1' in question 'fib'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: text, answers: ["a]]b"]}]}',
     "the answer 'a]]b' of blank 'b1' in question 'fib'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: text, answers: ["a\\nb"]}]}',
     "the answer 'a\nb' of blank 'b1' in question 'fib'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b", blanks: [{id: b1, kind: dropdown, answers: [one], options: ["t|o"]}]}',
     "the answer 't|o' of blank 'b1' in question 'fib'"),
    ('{type: fill_in_blank, id: fib, stem: "A [[b1]] b [[b3]]", blanks: [{id: b1, kind: text, answers: [one]}, '
     '{id: b3, kind: text, answers: [two]}]}',
     "blank id 'b3' of question 'fib' (Markdown numbers blanks b1, b2, ...)"),
    ("{type: true_false, id: tf, title: 'Say \"hi\"', stem: Is it?, answer: true}", "the title 'Say \"hi\"'"),
    ('{type: single_choice, id: pick, stem: Which?, choices: [{id: A, text: "```\\ncode\\n```", correct: true}, '
     '{id: B, text: two}]}',
     "a choice text that starts with a code block"),
    ('{type: matching, id: m, stem: Match., pairs: [{prompt: "a\\nb", answer: x}, {prompt: c, answer: y}]}',
     "a matching prompt over several lines ('a…')"),
    ('{type: matching, id: m, stem: Match., pairs: [{prompt: a, answer: "x\\ny"}, {prompt: c, answer: y}]}',
     "a matching answer over several lines ('x…')"),
    # Options stated as upper-alpha: written A), B) as every unnumbered question is, they read back
    # without the numbering (a YAML source or an import may state it).
    ("{type: single_choice, id: pick, stem: Which?, numbering: upper-alpha, "
     "choices: [{id: A, text: one, correct: true}, {id: B, text: two}]}",
     "Markdown cannot express sections.0.questions.0.numbering"),
    # Upper letters out of order: written, and read back renamed in order (not the "in order" error,
    # which is for the other numberings' markers).
    ("{type: single_choice, id: pick, stem: Which?, numbering: upper-alpha, "
     "choices: [{id: A, text: one, correct: true}, {id: C, text: two}]}",
     "Markdown cannot express sections.0.questions.0.choices.1.id"),
    # A single choice's option with a score of its own: the dialect gives scores to multiple
    # response options only.
    ("{type: single_choice, id: pick, stem: Which?, choices: [{id: A, text: x, correct: true, score: 50}, {id: B, text: y}]}",
     "Markdown cannot express sections.0.questions.0.choices.0.score"),
    # An option whose first line ends in braces and a hard line break: escaped as text, the break lost.
    ('{type: single_choice, id: pick, stem: Which?, choices: [{id: A, text: "The set {x}  \\nnext", correct: true}, '
     "{id: B, text: two}]}",
     "Markdown cannot express sections.0.questions.0.choices.0.text"),
    ('{type: matching, id: m, stem: Match., pairs: [{prompt: a, answer: x}, {prompt: c, answer: y}], distractors: ["z\\nw"]}',
     "a matching distractor over several lines ('z…')"),
    ('{type: single_choice, id: pick, stem: Which?, feedback: {general: "one  \\ntwo"}, '
     "choices: [{id: A, text: one, correct: true}, {id: B, text: two}]}",
     "Markdown cannot express sections.0.questions.0.feedback.general"),
]


@pytest.mark.parametrize(("question", "reason"), INEXPRESSIBLE, ids=[r[:30] for _, r in INEXPRESSIBLE])
def test_what_markdown_cannot_say_is_written_as_yaml_and_the_reason_named(tmp_path: Path, question: str, reason: str) -> None:
    quiz = read(write(tmp_path, "r.yaml", HEAD + question + "\n"))
    written = write_source(quiz)
    assert (written.suffix, written.reason, written.refused) == (".yaml", reason, ())
    assert read_back(written.text, ".yaml") == quiz


def test_a_section_title_over_two_lines_and_sections_seven_deep_are_yaml(tmp_path: Path) -> None:
    question = "{type: true_false, id: tf, stem: Is it?, answer: true}"
    quiz = read(write(tmp_path, "t.yaml", f'id: r\ntitle: R\nsections:\n  - {{id: s, title: "Two\\nlines", questions: [{question}]}}\n'))
    assert write_source(quiz).reason == "a section title over several lines ('Two…')"
    nested = question
    for level in range(7, 0, -1):
        nested = f"{{id: l{level}, title: L{level}, " + ("questions" if level == 7 else "sections") + f": [{nested}]}}"
    quiz = read(write(tmp_path, "n.yaml", f"id: r\ntitle: R\nsections:\n  - {nested}\n"))
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".yaml", "section 'l7', nested deeper than Markdown's six heading levels")
    assert read_back(written.text, ".yaml") == quiz
    # Six levels are Markdown: ###### is the sixth heading.
    six = question
    for level in range(6, 0, -1):
        six = f"{{id: l{level}, title: L{level}, " + ("questions" if level == 6 else "sections") + f": [{six}]}}"
    written = write_source(read(write(tmp_path, "six.yaml", f"id: r\ntitle: R\nsections:\n  - {six}\n")))
    assert written.suffix == ".md" and "\n###### L6 {#l6}\n" in written.text


#: The YAML form as a person reads it (by hand): a comment naming the format, defaults left out
#: (language en, a choice's correct: false), each question's type kept, a text of several lines a
#: ``|-`` block, and one whose line ends in spaces quoted (a block would lose them), Korean as it
#: is (not escaped), a line of 90 characters whole (within the width of 100).
YAML_FORM = """# Written by qti-builder import. The quiz model as YAML: qti-builder docs source-format#the-yaml-format
id: yaml-check
title: Only YAML says it
sections:
- id: main
  title: Main
  questions:
  - type: single_choice
    id: pick
    stem: |-
      Two lines:
      the second one.
    choices:
    - id: X1
      text: one
      correct: true
    - id: X2
      text: "trailing space \\nhere"
  - type: true_false
    id: tf
    stem: 하늘은 파랗다. The sky is blue on a clear day, seen from the ground, at noon, in summer.
    answer: true
  sections:
  - id: empty
    title: Nothing but a section
    sections:
    - id: inner
      title: Inner
      questions:
      - type: true_false
        id: tf2
        stem: Grass is green.
        answer: true
"""


def test_the_yaml_form_is_the_model_as_people_read_it(tmp_path: Path) -> None:
    quiz = read(write(tmp_path, "y.yaml", YAML_FORM))
    written = write_source(quiz)
    assert written.suffix == ".yaml" and written.reason == "choice id 'X1' of question 'pick' (Markdown choices are letters A-Z)"
    assert written.text == YAML_FORM
    assert yaml.safe_load(written.text)["sections"][0]["questions"][1] == {
        "type": "true_false", "id": "tf", "answer": True,
        "stem": "하늘은 파랗다. The sky is blue on a clear day, seen from the ground, at noon, in summer."}


#: Texts the writer must place with care (by hand): a description whose lines would start a
#: question or a label at the margin, indented (its escaped label kept); a section text that reads
#: like a label, indented; a question text opening with a code fence, on the line after the
#: marker; a model answer whose line would read as an option, indented under its label; an
#: explanation that is a code block, at the margin; an explanation of two plain lines, the second
#: at the margin as people write it; calculated questions with a range and step, values, a formula,
#: a condition, a listed shared variable and listed sets; a stated total that is not whole; an essay
#: whose answer would read as true/false, so it names its type.
TEXTS = """---
id: texts
title: Texts that need care
language: en
total: 12.5
---

   1. This line would start a question at the margin.

   Answer\\: so the whole description is indented.

# Calculated {#calc}

   Note: a label-like line.

1. A car covers {d} km in {t} hours. What is its speed? {#speed type=calculated unit=km/h sets=3 decimals=2}

   ```variables
   d = 20..200 step 5
   t = 1.5..4 decimals 1
   k = 2, 3, 5 decimals 0
   v = d / t decimals 3
   v > 10
   ```

Answer: d / t ± 1%

2. {#code}
   ```
   print("hi")
   ```

Answer: A program.
   A) not an option
   with a line at the margin
Explanation:
```
x = 1
```

3. A runner covers {d} m in {t} s. Her speed? {#listed type=calculated decimals=2}

   ```variables
   d = decimals 0 shared
   (d, t) = (45, 1.5), (60, 2.0)
   ```

Answer: d / t

Explanation: Distance over time,
as always.
Correct feedback: Yes.

4. Is the sky blue? {#sky type=essay}

Answer: True
"""


def test_texts_that_would_start_something_are_placed_where_they_read_back(tmp_path: Path) -> None:
    quiz, again = written_again(tmp_path, TEXTS)
    assert quiz.stated_points == 12.5
    assert quiz.description == "1. This line would start a question at the margin.\n\nAnswer\\: so the whole description is indented."
    speed, code, listed, sky = quiz.iter_questions()
    assert code.stem == '```\nprint("hi")\n```' and code.feedback.general == "```\nx = 1\n```"
    assert code.model_answer == "A program.\nA) not an option\nwith a line at the margin"
    assert listed.sets == [{"d": 45.0, "t": 1.5}, {"d": 60.0, "t": 2.0}] and listed.variables[0].shared
    assert (sky.type, sky.model_answer) == ("essay", "True")
    assert again == TEXTS


def test_a_label_in_an_imported_description_is_escaped_and_shown_as_written() -> None:
    """An imported description may say ``Answer:`` in its own words; the reader would refuse the line
    (QB145), so the colon right after the label is escaped as the QB145 hint escapes it: ``Answer\\:``,
    and a full-width one as its character reference (``정답&#65306;``: a backslash before it would be
    shown), and nothing else on the line."""
    quiz = Quiz.model_validate({
        "id": "d", "title": "D", "language": "ko", "description": "The key.\nAnswer: 42： the answer",
        "sections": [{"id": "s", "title": "S", "description": "Read this.\n정답： 가: 나",
                      "questions": [{"type": "true_false", "id": "t", "stem": "Big?", "answer": True}]}]})
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    assert written.text == ("---\nid: d\ntitle: D\nlanguage: ko\n---\n\n"
                            "   The key.\n   Answer\\: 42： the answer\n\n"
                            "# S {#s}\n\n   Read this.\n   정답&#65306; 가: 나\n\n"
                            "1. Big? {#t}\n\n정답: true\n")
    back = read_back(written.text, ".md")
    assert back.description == "The key.\nAnswer\\: 42： the answer"
    assert back.sections[0].description == "Read this.\n정답&#65306; 가: 나"
    # A quiz without such a line is written as it is (nothing escaped).
    plain = quiz.model_copy(update={"description": "The key is 42."})
    plain.sections[0].description = None
    assert "\n---\n\nThe key is 42.\n\n# S {#s}\n" in write_source(plain).text


# -- what no form can say: refused, with the reader's own reason ------------------------------------


def _deep_quiz(levels: int) -> Quiz:
    section: dict = {"id": f"l{levels}", "title": f"L{levels}",
                     "questions": [{"type": "true_false", "id": "t", "stem": "Deep?", "answer": True}]}
    for level in range(levels - 1, 0, -1):
        section = {"id": f"l{level}", "title": f"L{level}", "sections": [section]}
    return Quiz.model_validate({"id": "d", "title": "D", "sections": [section]})


def test_a_quiz_neither_form_can_hold_is_refused_with_both_reasons() -> None:
    """60 nested sections: deeper than Markdown's headings, and deeper than the 100 YAML levels a
    source may have, so the YAML the build would refuse is not written (the import says both)."""
    written = write_source(_deep_quiz(60))
    assert (written.suffix, written.reason) == (".yaml", "section 'l7', nested deeper than Markdown's six heading levels")
    assert [(d.code, d.message) for d in written.refused] == [
        ("QB114", "the YAML nests more than the 100 levels a source may have")]
    assert written.text.startswith("# Written by qti-builder import.") and "    - id: l4\n" in written.text


def test_a_markdown_source_past_the_size_limit_is_refused_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the size limit (QB100) the Markdown is the smaller form: the YAML is not tried (it is
    larger still), and the refusal is the reader's own."""
    from qti_builder.readers import Limits
    from qti_builder.writers import markdown_source

    def small(path: Path, sink: DiagnosticSink):  # type: ignore[no-untyped-def]
        return read_quiz(path, sink, Limits(max_source_bytes=80))

    monkeypatch.setattr(markdown_source, "read_quiz", small)
    quiz = Quiz.model_validate({"id": "big", "title": "A quiz of more than 80 bytes", "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "true_false", "id": "t", "stem": "Big?", "answer": True}]}]})
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    assert written.text.startswith("---\nid: big\n") and [d.code for d in written.refused] == ["QB100"]
    # Within the limit, the same quiz is written as Markdown with nothing refused.
    tiny = Quiz.model_validate({"id": "b", "title": "T", "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "true_false", "id": "t", "stem": "?", "answer": True}]}]})
    assert write_source(tiny).refused == ()


def test_markdown_the_reader_refuses_is_written_as_yaml_with_the_readers_reason(tmp_path: Path) -> None:
    """An ordering item that opens with a code block: the Markdown written for it does not read
    back (its marker line holds nothing: a limit of the writer, safe as YAML), so the quiz is YAML and the reason quotes the reader."""
    quiz = read(write(tmp_path, "o.yaml", HEAD + '{type: ordering, id: o, stem: Order., items: ["```\\nx\\n```", b]}\n'))
    written = write_source(quiz)
    assert (written.suffix, written.refused) == (".yaml", ())
    assert written.reason == ("the Markdown form does not read back (an ordering question needs a list of at least two "
                              "items, in the right order)")
    assert read_back(written.text, ".yaml") == quiz


def test_the_first_difference_is_named_by_its_path() -> None:
    """The path the import's warning names ("Markdown cannot express sections.0.questions.2.stem"):
    the first differing value in the first model's key order, keys only in the second included, a
    list of another length named as a whole, and "the quiz" when the two differ at the top."""
    from qti_builder.writers.markdown_source import first_difference

    a = {"id": "q", "sections": [{"questions": [{"stem": "x", "points": 1}, {"stem": "y"}]}], "title": "T"}
    assert first_difference(a, a) is None
    b = {"id": "q", "sections": [{"questions": [{"stem": "x", "points": 1}, {"stem": "z"}]}], "title": "U"}
    assert first_difference(a, b) == "sections.0.questions.1.stem"
    assert first_difference(a, {**a, "extra": None}) is None
    assert first_difference(a, {**a, "extra": 0}) == "extra"
    assert first_difference({"choices": [1, 2]}, {"choices": [1, 2, 3]}) == "choices"
    assert first_difference({"choices": [1, 2]}, {"choices": [1, 3]}) == "choices.1"
    assert first_difference({"a": {"b": 1}}, {"a": {"b": 2}}) == "a.b"
    assert first_difference(1, 2) == "the quiz"
    assert first_difference([1], [1]) is None


def test_unnumbered_options_keep_their_letters_in_any_order(tmp_path: Path) -> None:
    """numbering=none writes each option under its own letter, B before A as the quiz has them; an
    option of three lines whose first ends in braces keeps them as text ({fixed=false})."""
    text = ("---\nid: r\ntitle: R\nlanguage: en\n---\n\n# S {#s}\n\n1. Which? {#pick numbering=none}\n\n"
            "B) one\nA) two\nC) The set {x} {fixed=false}\n   over\n   three lines\n\nAnswer: B\n\n2. The [[Sun]] rises. {#rise type=fill_in_blank}\n")
    quiz, again = written_again(tmp_path, text)
    assert [c.id for c in next(quiz.iter_questions()).choices] == ["B", "A", "C"]
    assert next(quiz.iter_questions()).choices[2].text == "The set {x}\nover\nthree lines"
    assert again == text
