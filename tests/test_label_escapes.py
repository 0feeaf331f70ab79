"""Words that start like a label, in text students see, escaped the one way the reader reads as text.

A line such as ``답) 아래 문항을 읽으시오`` in a description is an error (QB145) in a Markdown source
and in a YAML one: both quote the label as written and give the escape that makes the line text
(``답\\)``, ``\\[정답]``, ``정답&#65306;``, ``정답&#32;``), one function
(``readers/markdown/syntax.escaped_label``) for both and for ``qti-builder import``, which escapes
such lines of an imported text so that its Markdown source reads back as the same quiz. Each escape is
checked by what students get: the source built, the words read out of the Moodle XML.
"""

from __future__ import annotations

from html import escape as escape_html
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.outputs import build_all
from helpers.text import html_text
from lxml import etree, html
from test_exam_conventions import WRITTEN_LABELS

from qti_builder.model import Quiz
from qti_builder.writers.markdown_source import read_back, write_source

YAML_QUESTIONS = "    questions:\n      - {type: essay, id: q, stem: 왜 그런가?}\n"


def yaml_source(line: str, style: str) -> str:
    """A Korean YAML quiz whose section description says ``line`` after a first line, in a block,
    in single quotes or in double quotes."""
    if style == "block":
        description = f"description: |\n      읽으시오.\n      {line}\n"
    elif style == "single":
        description = f"description: '읽으시오.\n\n      {line}'\n"
    else:
        description = f'description: "읽으시오.\\n{line}"\n'
    return f"title: T\nlanguage: ko\nsections:\n  - id: s\n    title: S\n    {description}" + YAML_QUESTIONS


def check(tmp_path: Path, name: str, text: str) -> tuple[int, list[str]]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, _, err = run("check", name, "--lang", "en", cwd=tmp_path)
    return code, err.splitlines()


def shown_descriptions(tmp_path: Path, source: Path) -> list[str]:
    """The section descriptions of a built source as Moodle shows them (its categories' info)."""
    built = build_all(tmp_path, source)
    assert built.warnings == []
    return [html_text(t.text) for t in built.moodle.iterfind("question[@type='category']/info/text") if t.text]


@pytest.mark.parametrize("line, quoted, escaped", WRITTEN_LABELS)
@pytest.mark.parametrize("style", ["block", "single", "double"])
def test_a_yaml_description_s_label_is_quoted_as_written_and_its_escape_works_in_yaml(
        tmp_path: Path, line: str, quoted: str, escaped: str, style: str) -> None:
    """QB145 in a YAML description quotes the label as written (it said ``'답:'`` for ``답)``) and
    gives the Markdown reader's escape, its backslash written twice in double quotes (``"답\\\\)"``:
    ``"답\\)"`` is no YAML). The source with the hint's escape put in builds, and students see the
    line as written."""
    text = yaml_source(line, style)
    at = next(i for i, written in enumerate(text.split("\n"), 1) if line in written)
    column = text.split("\n")[at - 1].index(line) + 1
    hint = escaped.replace("\\", "\\\\") if style == "double" else escaped
    code, lines = check(tmp_path, "q.yaml", text)
    assert code == 1 and lines == [
        f"q.yaml:{at}:{column}: error[QB145]: '{quoted}' in a section description, which students see",
        "    hint: move it into a question's fields ('model_answer:', 'feedback:'); to show the words themselves, "
        f"write '{hint}'",
        "failed: 1 error"]
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(text.replace(line, hint + line[len(quoted):]), encoding="utf-8")
    assert shown_descriptions(tmp_path, fixed) == [f"읽으시오. {line}"]


def test_a_yaml_label_is_quoted_in_korean_as_written(tmp_path: Path) -> None:
    (tmp_path / "q.yaml").write_text(yaml_source("답) 아래 문항을 읽으시오", "block"), encoding="utf-8")
    code, _, err = run("check", "q.yaml", cwd=tmp_path)
    assert code == 1 and err.splitlines()[:2] == [
        "q.yaml:8:7: error[QB145]: 학생에게 보이는 대단원 설명에 '답)'이(가) 있습니다",
        "    hint: 문항의 필드('model_answer:', 'feedback:')로 옮기세요. 글자 그대로 보이려면 '답\\)'로 쓰세요"]


# -- qti-builder import: the same escapes, in every text students see -----------------------------


def moodle_xml(line: str) -> str:
    """A Moodle XML bank whose category's description, an essay's text and explanation, and a
    multiple-choice question's text, option, option feedback and explanation each have ``line``
    as a paragraph of their own."""
    shown = f"<![CDATA[<p>첫 줄.</p><p>{escape_html(line)}</p>]]>"
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/라벨</text></category><info format="html"><text>{shown}</text></info></question>
  <question type="essay">
    <name><text>e</text></name>
    <questiontext format="html"><text>{shown}</text></questiontext>
    <generalfeedback format="html"><text>{shown}</text></generalfeedback>
    <defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden>
    <responseformat>editor</responseformat><responserequired>1</responserequired><responsefieldlines>15</responsefieldlines>
    <attachments>0</attachments><attachmentsrequired>0</attachmentsrequired>
    <graderinfo format="html"><text></text></graderinfo><responsetemplate format="html"><text></text></responsetemplate>
  </question>
  <question type="multichoice">
    <name><text>m</text></name>
    <questiontext format="html"><text>{shown}</text></questiontext>
    <generalfeedback format="html"><text>{shown}</text></generalfeedback>
    <defaultgrade>1</defaultgrade><penalty>0.3333333</penalty><hidden>0</hidden>
    <single>true</single><shuffleanswers>true</shuffleanswers><answernumbering>abc</answernumbering>
    <answer fraction="100" format="html"><text>{shown}</text><feedback format="html"><text>{shown}</text></feedback></answer>
    <answer fraction="0" format="html"><text>나</text><feedback format="html"><text></text></feedback></answer>
  </question>
</quiz>
"""


def what_students_see(moodle: etree._Element) -> list[list[str]]:
    """Every text of a Moodle XML bank students are shown, in order, as a browser shows its
    paragraphs."""
    paths = ["info/text", "questiontext/text", "answer/text", "answer/feedback/text", "generalfeedback/text"]
    return [paragraphs(text.text) for question in moodle.iterfind("question")
            for path in paths for text in question.iterfind(path) if text.text and text.text.strip()]


def paragraphs(fragment: str) -> list[str]:
    shown = html.fragment_fromstring(fragment, create_parent="div")
    return [" ".join(p.text_content().split()) for p in shown.iter("p")] or [html_text(fragment)]


@pytest.mark.parametrize("line", [line for line, _, _ in WRITTEN_LABELS])
def test_an_imported_text_that_starts_like_a_label_is_written_as_markdown_students_see_as_it_was(
        tmp_path: Path, line: str) -> None:
    """Each label form in an imported Moodle bank's texts: ``import`` writes Markdown (before, the
    essay's text was refused, QB148, and the bank written as YAML), the line escaped as QB145's hint
    says, and the source built gives students every text the bank had, word for word (a backslash
    before a full-width colon was shown to them)."""
    (tmp_path / "bank.xml").write_text(moodle_xml(line), encoding="utf-8")
    code, _, err = run("import", "bank.xml", "--out", "src", cwd=tmp_path)
    assert code == 0, err
    (written,) = (tmp_path / "src").iterdir()
    assert written.suffix == ".md", err
    code, _, err = run("build", "src", "--format", "moodle", "--out", "built", cwd=tmp_path)
    assert code == 0, err
    before = what_students_see(etree.fromstring((tmp_path / "bank.xml").read_bytes()))
    after = what_students_see(etree.fromstring((tmp_path / "built" / f"{written.stem}.moodle.xml").read_bytes()))
    # The category's, the essay's two, the question's text, its options, the option's feedback, its explanation.
    assert before == [["첫 줄.", line]] * 5 + [["나"]] + [["첫 줄.", line]] * 2
    assert after == before


#: A label line at the margin and indented, and a line whose words after the label hold a colon
#: (``답) … :``: the label's parenthesis is escaped, never the later colon).
DESCRIPTIONS = [
    ("  답) 아래 문항을 읽으시오", "  답\\) 아래 문항을 읽으시오"),
    ("\t정답： 아래 문항을 읽으시오", "\t정답&#65306; 아래 문항을 읽으시오"),
    ("답) 아래 문항 가운데 옳은 것을 모두 고르고 그 까닭을 쓰시오. 예를 들면: 가", "답\\) 아래 문항 가운데 옳은 것을 모두 고르고 그 까닭을 쓰시오. 예를 들면: 가"),
    ("정답 ④", "정답&#32;④"),
]


@pytest.mark.parametrize("line, escaped", DESCRIPTIONS)
def test_a_description_line_is_escaped_at_its_label_s_mark_and_nowhere_else(tmp_path: Path, line: str, escaped: str) -> None:
    quiz = Quiz.model_validate({
        "id": "d", "title": "D", "language": "ko", "description": f"읽으시오.\n{line}",
        "sections": [{"id": "s", "title": "S", "questions": [{"type": "essay", "id": "q", "stem": "왜?"}]}]})
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    back = read_back(written.text, ".md")
    assert back is not None and back.description == f"읽으시오.\n{escaped}"
    source = tmp_path / "d.md"
    source.write_text(written.text, encoding="utf-8")
    built = build_all(tmp_path, source)
    shown = [html_text(t.text) for t in built.moodle.iterfind("question[@type='category']/info/text") if t.text]
    assert " ".join(line.split()) in shown[0]


# -- QB125: an answer that runs on is quoted by its first line, at the line that spoils it -----------

#: A Korean question whose answer is followed by ``text`` (its lines after the answer's).
RUNS_ON = "---\ntitle: T\nlanguage: ko\n---\n\n1. 다음 중 옳은 것은?\n{options}정답:{answer}\n{text}\n2. 둘째?\nA) 예\nB) 아니오\n정답: B\n"
LETTERS, CIRCLED = "A) 가\nB) 나\n", "① 가\n② 나\n"


@pytest.mark.parametrize("options, answer, text, expected", [
    # An indented paragraph after a readable answer joins it: reported where it starts.
    (LETTERS, " A", "\n    답) 가는 옳다\n",
     ["q.md:11:5: error[QB125]: the answer 'A' goes on with '답) 가는 옳다', which cannot be read as part of it",
      "    hint: an answer is one line: put the text after it under 'Explanation:', or remove it"]),
    (CIRCLED, " ②", "   가는 옳다\n",
     ["q.md:10:4: error[QB125]: the answer '②' goes on with '가는 옳다', which cannot be read as part of it",
      "    hint: an answer is one line: put the text after it under 'Explanation:', or remove it"]),
    # A line at the margin right under it continues it too.
    (CIRCLED, " ②", "가는 옳다\n",
     ["q.md:10:1: error[QB125]: the answer '②' goes on with '가는 옳다', which cannot be read as part of it",
      "    hint: an answer is one line: put the text after it under 'Explanation:', or remove it"]),
    # An answer unreadable by itself: at the answer, quoted by its first line, saying how far it goes.
    (CIRCLED, " A", "\n   답) 가는 옳다\n",
     ["q.md:9:5: error[QB125]: cannot read the answer 'A', which goes on to line 11",
      "    hint: give the marker of the correct option, e.g. '정답: ②' or '정답: ①, ③'; if ① ② are parts of the "
      "question, write its answer as 'Model answer:' (모범답안:) or add {type=essay}"]),
    # Its value on the line under the label: its first line is where it is.
    (CIRCLED, "", "   A\n\n   가는 옳다\n",
     ["q.md:10:4: error[QB125]: cannot read the answer 'A', which goes on to line 12",
      "    hint: give the marker of the correct option, e.g. '정답: ②' or '정답: ①, ③'; if ① ② are parts of the "
      "question, write its answer as 'Model answer:' (모범답안:) or add {type=essay}"]),
])
def test_an_answer_that_runs_on_is_quoted_by_its_first_line_where_it_goes_wrong(
        tmp_path: Path, options: str, answer: str, text: str, expected: list[str]) -> None:
    """It quoted the whole value, line breaks and all (``'A⏎⏎답) 가는 옳다'``), at the answer even
    where the answer alone reads. The build still fails: nothing is written."""
    source = RUNS_ON.format(options=options, answer=answer, text=text)
    code, lines = check(tmp_path, "q.md", source)
    assert code == 1 and lines == [*expected, "failed: 1 error"]
    code, _, err = run("build", "q.md", "--out", "out", cwd=tmp_path)
    assert code == 1 and "error[QB125]" in err
    assert not list((tmp_path / "out").glob("*"))


def test_an_answer_that_runs_on_is_told_in_korean(tmp_path: Path) -> None:
    (tmp_path / "q.md").write_text(RUNS_ON.format(options=LETTERS, answer=" A", text="\n    답) 가는 옳다\n"), encoding="utf-8")
    code, _, err = run("check", "q.md", cwd=tmp_path)
    assert code == 1 and err.splitlines()[:2] == [
        "q.md:11:5: error[QB125]: 정답 'A' 뒤에 '답) 가는 옳다'이(가) 이어지는데, 이것은 정답의 일부로 읽을 수 없습니다",
        "    hint: 정답은 한 줄입니다: 그 뒤의 글은 '해설:' 아래에 쓰거나 지우세요"]
