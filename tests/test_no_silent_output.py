"""No silent wrong output (issue 12): a slip in a source is an error or a warning at its cause,
never a quiz that differs from the one the author meant, and never one that shows students an
answer.

- the cases that built into something else before, each with what it does now;
- a table of realistic author slips, each with its exit code, code, line, column and the fix its
  hint names;
- over every source the tests build, no text that a label introduces reaches what students see.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import QTI_NS, ROOT, read_written, write
from helpers.cli import check_source
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed, DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz


FM = "---\ntitle: Python basics\n---\n\n"
#: Lines 5-9: the question on line 5, options on 7 and 8; the answer goes on line 10.
CHOICE = "1. Which keyword defines a function? {#def}\n\nA) func\nB) def\n\n"


# -- what built into something else before -------------------------------------------------------


def test_a_question_written_as_a_heading_is_an_error(tmp_path: Path) -> None:
    # Before: a nested section whose introduction, shown to students, was the answer and the
    # explanation; the questions after it moved into that section. Exit 0, even with --strict.
    text = (FM + "# Basics {#basics}\n\n" + CHOICE + "Answer: B\n\n## Is the earth round?\n\nAnswer: true\n"
            "Explanation: Ships disappear hull first over the horizon.\n\n2. Is the sky green? {#sky}\n\nAnswer: false\n")
    code, reported = check_source(tmp_path, "earth.md", text, "--strict")
    assert code == 1
    assert [(r.line, r.column, r.code) for r in reported] == [(14, 4, "QB146")]
    assert reported[0].hint == "write the question as a numbered line, without '#': '2. Is the earth round?'"


def test_a_full_stop_after_true_or_false_keeps_the_type(tmp_path: Path) -> None:
    # Before: an essay whose model answer was "False.".
    quiz = read_written(tmp_path, "flat.md", FM + "1. The earth is flat. {#flat}\n\nAnswer: False.\n\n2. Sky? {#sky}\n\nA) blue\nB) green\n\nAnswer: A.\n")
    flat, sky = quiz.iter_questions()
    assert flat.type == "true_false" and flat.answer is False  # type: ignore[attr-defined]
    assert sky.type == "single_choice" and [c.id for c in sky.choices if c.correct] == ["A"]  # type: ignore[attr-defined]


def test_a_number_without_its_type_warns_and_fails_strict(tmp_path: Path) -> None:
    # Before: an essay with the model answer "0.1667 ± 0.005", without a word, even with --strict.
    text = FM + "1. What is 1/6, to four decimal places? {#sixth}\n\nAnswer: 0.1667 ± 0.005\n"
    code, reported = check_source(tmp_path, "sixth.md", text)
    assert code == 0 and [(r.line, r.column, r.severity, r.code) for r in reported] == [(7, 9, "warning", "QB171")]
    assert "{type=numerical}" in reported[0].hint
    code, _ = check_source(tmp_path, "sixth.md", text, "--strict")
    assert code == 1


def test_a_yaml_blank_with_options_but_no_kind_is_an_error(tmp_path: Path) -> None:
    # Before: a text blank; its wrong options were thrown away.
    text = ("title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: fill_in_blank\n        id: sky\n"
            "        stem: \"The sky is [[b1]].\"\n        blanks:\n          - {id: b1, answers: [blue], options: [green, red]}\n")
    code, reported = check_source(tmp_path, "sky.yaml", text)
    assert code == 1
    assert [(r.line, r.column, r.code) for r in reported] == [(10, 39, "QB201")]
    assert "kind: dropdown" in reported[0].hint


def test_a_missing_question_number_is_reported_at_the_paragraph(tmp_path: Path) -> None:
    # Before: "a second answer block in one question" (QB116) at the second Answer: line.
    text = FM + CHOICE + "Answer: B\n\nWhat does `len('ab')` return?\n\nA) 1\nB) 2\n\nAnswer: B\n"
    code, reported = check_source(tmp_path, "len.md", text)
    assert code == 1
    assert [(r.line, r.column, r.code, r.message) for r in reported] == [
        (12, 1, "QB147", "this paragraph looks like a question: number it '2.'")]


def test_blank_errors_point_at_the_blank(tmp_path: Path) -> None:
    # Before: both at the question's first line, and the drop-down's stating the rule.
    text = FM + "1. Fill in. {#f type=fill_in_blank}\n\n   The sky is [[*blue | *grey | red]] by day\n   and [[ | black]] at night.\n"
    code, reported = check_source(tmp_path, "blanks.md", text)
    assert code == 1
    assert [(r.line, r.column, r.code) for r in reported] == [(7, 25, "QB142"), (8, 8, "QB142")]
    assert reported[0].message == "the drop-down [[*blue | *grey | red]] marks 2 options as correct ('blue' and 'grey'); it can have only one"
    assert reported[0].hint.startswith("remove the '*' before 'grey'")


def test_numbers_and_yes_where_text_is_meant_are_taken_as_written(tmp_path: Path) -> None:
    text = ("title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: short_answer\n        id: z\n"
            "        stem: Which z value?\n        answers:\n          - {text: 1.960}\n          - {text: yes, score: 50}\n")
    quiz = read_written(tmp_path, "z.yaml", text)
    assert [a.text for a in next(quiz.iter_questions()).answers] == ["1.960", "yes"]  # type: ignore[attr-defined]


# -- author slips -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slip:
    name: str
    source: str
    exit: int
    code: str
    line: int
    column: int
    #: A piece of the hint that names the fix.
    fix: str
    suffix: str = ".md"


YAML_HEAD = "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n"
ESSAY = "      - type: essay\n        id: q\n        stem: Why?\n"

SLIPS = [
    # labels
    Slip("label typo", FM + CHOICE + "Anwser: B\n", 1, "QB115", 10, 1, "write 'Answer:'"),
    Slip("label missing a letter", FM + CHOICE + "Answr: B\n", 1, "QB115", 10, 1, "write 'Answer:'"),
    Slip("explanation typo", FM + CHOICE + "Answer: B\nExplenation: def starts it.\n", 1, "QB115", 11, 1, "write 'Explanation:'"),
    Slip("korean label typo", FM + CHOICE + "정탑: B\n", 1, "QB115", 10, 1, "정답"),
    Slip("label in bold", FM + CHOICE + "**Answer:** B\n", 1, "QB148", 10, 1, "without '*'"),
    Slip("essay label in bold", FM + "1. Explain recursion. {#rec type=essay}\n\n**Answer:** a function calling itself\n",
         1, "QB148", 7, 1, "without '*'"),
    Slip("answer indented under the options", FM + CHOICE.rstrip("\n") + "\n   Answer: B\n", 1, "QB148", 9, 4, "left margin"),
    Slip("answer indented in an essay", FM + "1. Explain recursion. {#rec type=essay}\n   Answer: a function calling itself\n",
         1, "QB148", 6, 4, "left margin"),
    Slip("feedback not indented", FM + "1. Which keyword defines a function? {#def}\n\nA) func\nFeedback: no\nB) def\n\nAnswer: B\n",
         1, "QB136", 8, 1, "indent it"),
    Slip("explanation twice", FM + CHOICE + "Answer: B\nExplanation: one.\nExplanation: two.\n", 1, "QB116", 12, 1, "merge"),
    Slip("score on a choice answer", FM + CHOICE + "Answer (50%): B\n", 1, "QB137", 10, 1, "without the '(N%)'"),
    # answers in the wrong place
    Slip("answer before the options", FM + "1. Which keyword defines a function? {#def}\n\nAnswer: B\n\nA) func\nB) def\n",
         1, "QB134", 9, 1, "move the options up"),
    Slip("text after the options", FM + CHOICE + "Remember the colon.\n\nAnswer: B\n", 1, "QB117", 10, 1, "Explanation:"),
    Slip("code after the options", FM + CHOICE + "```\ndef f(): pass\n```\n\nAnswer: B\n", 1, "QB117", 10, 1, "indent it"),
    Slip("answer in the description", FM + "Answer: all of them.\n\n" + CHOICE + "Answer: B\n", 1, "QB145", 5, 1, "numbered question"),
    Slip("answer indented in the description", FM + "Read carefully.\n   Answer: all of them.\n\n" + CHOICE + "Answer: B\n",
         1, "QB145", 6, 4, "numbered question"),
    Slip("explanation in a section introduction", FM + "# Basics\n\nRead the code.\n\nExplanation: it loops.\n\n" + CHOICE + "Answer: B\n",
         1, "QB145", 9, 1, "numbered question"),
    Slip("short answer over two lines", FM + "1. Who wrote Hamlet? {#h type=short_answer}\n\nAnswer: Shakespeare\nWilliam Shakespeare\n",
         1, "QB149", 8, 1, "its own 'Answer:' line"),
    Slip("answer on a text-only item", FM + "1. Read this. {#r type=text_only}\n\nAnswer: ok\n", 1, "QB129", 7, 1, "remove the answer"),
    Slip("answer on an ordering question", FM + "1. Order. {#o type=ordering}\n\n- a\n- b\n\nAnswer: a, b\n", 1, "QB129", 10, 1, "remove the answer"),
    # headings as questions
    Slip("question as a heading", FM + "# Basics\n\n" + CHOICE + "Answer: B\n\n## Is the earth round?\n\nAnswer: true\n",
         1, "QB146", 14, 4, "'2. Is the earth round?'"),
    Slip("question as a heading without a question mark", FM + "### Name the keyword that defines a function\n\nAnswer: def\n",
         1, "QB146", 5, 5, "without '#'"),
    # numbering
    Slip("missing number", FM + CHOICE + "Answer: B\n\nWhich keyword makes a class?\n\nA) class\nB) def\n\nAnswer: A\n",
         1, "QB147", 12, 1, "'2. Which keyword makes a class?'"),
    Slip("missing number on a statement", FM + "1. Indentation matters. {#i}\n\nAnswer: true\n\nPython is compiled to bytecode.\n\nAnswer: true\n",
         1, "QB147", 9, 1, "'2. Python is compiled to bytecode.'"),
    Slip("number without a space", FM + "1.Which keyword defines a function?\n\nA) func\nB) def\n\nAnswer: B\n", 1, "QB147", 5, 3, "'1. Which"),
    Slip("number in parentheses", FM + "(1) Which keyword defines a function?\n\nA) func\nB) def\n\nAnswer: B\n", 1, "QB147", 5, 1, "'1. Which"),
    Slip("same id twice", FM + CHOICE + "Answer: B\n\n2. Is Python typed? {#def}\n\nAnswer: true\n", 1, "QB133", 12, 22, "rename"),
    # punctuation and form of answers
    Slip("letter with a word", FM + CHOICE + "Answer: option B\n", 1, "QB125", 10, 9, "'Answer: B'"),
    Slip("answer as the option's text", FM + CHOICE + "Answer: def\n", 1, "QB125", 10, 9, "'Answer: B'"),
    Slip("letters joined with a word that is no 'and'", FM + CHOICE + "Answer: A plus B\n", 1, "QB125", 10, 9, "'Answer: A, C'"),
    Slip("letter of no option", FM + CHOICE + "Answer: C\n", 1, "QB126", 10, 9, "options are A, B"),
    Slip("option text differs", FM + CHOICE + "Answer: B) define\n", 0, "QB124", 10, 9, "copy the option's text"),
    Slip("decimal comma", FM + "1. Pi to two places? {#pi type=numerical}\n\nAnswer: 3,14\n", 1, "QB139", 7, 9, "'.' for decimals"),
    Slip("unit in a numerical answer", FM + "1. Pencil length? {#p type=numerical}\n\nAnswer: 18 cm\n", 1, "QB139", 7, 9, "{unit=cm}"),
    Slip("true/false word", FM + "1. Python has def. {#d type=true_false}\n\nAnswer: correct\n", 1, "QB138", 7, 9, "'Answer: true'"),
    # missing type markers
    Slip("another language's yes", FM + "1. Is Python interpreted? {#i}\n\nAnswer: Richtig.\n", 1, "QB172", 7, 9, "{type=true_false}"),
    Slip("number makes an essay", FM + "1. How many bits in a byte? {#b}\n\nAnswer: 8\n", 0, "QB171", 7, 9, "{type=numerical}"),
    Slip("range makes an essay", FM + "1. A pencil's length in cm? {#p}\n\nAnswer: 17..19\n", 0, "QB171", 7, 9, "{type=numerical}"),
    # Read as the options they are, and said at the first (it was QB173, an error, before).
    Slip("options indented", FM + "1. Which keyword defines a function? {#def}\n\n   A) func\n   B) def\n\nAnswer: B\n",
         0, "QB199", 7, 4, "'A) text'"),
    Slip("options as bullets", FM + "1. Which keyword defines a function? {#def}\n\n- func\n- def\n\nAnswer: def\n", 1, "QB173", 10, 9, "'A) text'"),
    Slip("blanks without the type", FM + "1. The [[Sun]] is a star. {#sun}\n", 1, "QB128", 5, 1, "{type=fill_in_blank}"),
    Slip("blanks without the type, with an answer", FM + "1. The [[Sun]] is a star. {#sun}\n\nAnswer: Sun\n", 1, "QB174", 5, 8, "{type=fill_in_blank}"),
    Slip("pairs without the type", FM + "1. Match. {#m}\n\n- France -> Paris\n- Spain -> Madrid\n", 1, "QB128", 5, 1, "{type=matching}"),
    Slip("steps without the type", FM + "1. Order the steps. {#o}\n\n- Write\n- Run\n", 1, "QB128", 5, 1, "{type=ordering}"),
    Slip("type misspelled", FM + "1. How many bits? {#b type=numeric}\n\nAnswer: 8\n", 1, "QB131", 5, 23, "numerical"),
    Slip("attribute misspelled", FM + "1. Which keyword defines a function? {#def pionts=2}\n\nA) func\nB) def\n\nAnswer: B\n",
         1, "QB109", 5, 44, "points"),
    # blanks and lists
    Slip("two correct drop-down options", FM + "1. The sky is [[*blue | *grey]]. {#s type=fill_in_blank}\n", 1, "QB142", 5, 25, "remove the '*'"),
    Slip("empty blank", FM + "1. The [[ ]] is a star. {#s type=fill_in_blank}\n", 1, "QB142", 5, 8, "[[answer"),
    Slip("pair with a colon", FM + "1. Match. {#m type=matching}\n\n- France: Paris\n- Spain -> Madrid\n", 1, "QB140", 7, 3, "-> answer"),
    # front matter and fences
    Slip("front-matter key misspelled", "---\ntitle: T\nlangauge: en\n---\n" + CHOICE + "Answer: B\n", 1, "QB106", 3, 1, "language"),
    Slip("colon in an unquoted title", "---\ntitle: Python: basics\n---\n" + CHOICE + "Answer: B\n", 1, "QB111", 2, 14, "quote"),
    Slip("front matter not closed", "---\ntitle: T\n\n" + CHOICE + "Answer: B\n", 1, "QB104", 1, 1, "'---'"),
    Slip("fence not closed", FM + "1. What prints? {#p type=essay}\n\n   ```python\n   print(1)\n", 1, "QB108", 7, 1, "closing line"),
    # YAML
    Slip("yaml: key misspelled", YAML_HEAD + "      - type: single_choice\n        id: q\n        stem: Capital?\n        choice:\n"
         "          - {id: A, text: Paris, correct: true}\n          - {id: B, text: London}\n", 1, "QB203", 9, 9, "'choices'", ".yaml"),
    Slip("yaml: top-level key misspelled", "titel: T\nsections:\n  - id: s\n    title: S\n    questions:\n" + ESSAY,
         1, "QB203", 1, 1, "'title'", ".yaml"),
    Slip("yaml: no type", YAML_HEAD + "      - id: q\n        stem: Why?\n", 1, "QB204", 6, 9, "type:", ".yaml"),
    Slip("yaml: section without id", "title: T\nsections:\n  - title: S\n    questions:\n" + ESSAY, 1, "QB204", 3, 5, "id: q1", ".yaml"),
    Slip("yaml: empty stem", YAML_HEAD + "      - type: essay\n        id: q\n        stem:\n", 1, "QB204", 8, 14, "write the text", ".yaml"),
    Slip("yaml: type misspelled", YAML_HEAD + "      - type: eassy\n        id: q\n        stem: Why?\n", 1, "QB131", 6, 15, "essay", ".yaml"),
    Slip("yaml: feedback as one text", YAML_HEAD + ESSAY + "        feedback: Good.\n", 1, "QB205", 9, 19, "general:", ".yaml"),
    Slip("yaml: points in words", YAML_HEAD + ESSAY + "        points: two\n", 1, "QB205", 9, 17, "points: 2", ".yaml"),
    Slip("yaml: maybe is not true", YAML_HEAD + "      - type: single_choice\n        id: q\n        stem: Capital?\n        choices:\n"
         "          - {id: A, text: Paris, correct: maybe}\n          - {id: B, text: London}\n", 1, "QB205", 10, 43, "correct: true", ".yaml"),
    Slip("yaml: answers not a list", YAML_HEAD + "      - type: short_answer\n        id: q\n        stem: Capital?\n        answers: Paris\n",
         1, "QB205", 9, 18, "'- {text: Paris}'", ".yaml"),
    Slip("yaml: true with a full stop", YAML_HEAD + "      - type: true_false\n        id: q\n        stem: Round?\n        answer: True.\n",
         1, "QB205", 9, 17, "answer: true", ".yaml"),
    Slip("yaml: blank with options but no kind", YAML_HEAD + "      - type: fill_in_blank\n        id: q\n        stem: \"Sky [[b1]].\"\n"
         "        blanks:\n          - {id: b1, answers: [blue], options: [red]}\n", 1, "QB201", 10, 39, "kind: dropdown", ".yaml"),
    Slip("yaml: response format", YAML_HEAD + ESSAY + "        response_format: html\n", 1, "QB201", 9, 26, "response_format: editor", ".yaml"),
    Slip("yaml: one choice", YAML_HEAD + "      - type: single_choice\n        id: q\n        stem: Capital?\n        choices:\n"
         "          - {id: A, text: Paris, correct: true}\n", 1, "QB201", 10, 11, "- {id: A", ".yaml"),
    Slip("yaml: no correct choice", YAML_HEAD + "      - type: single_choice\n        id: q\n        stem: Capital?\n        choices:\n"
         "          - {id: A, text: Paris}\n          - {id: B, text: London}\n", 1, "QB201", 9, 9, "correct: true", ".yaml"),
    Slip("yaml: unquoted colon", YAML_HEAD + "      - type: essay\n        id: q\n        stem: Note: explain\n", 1, "QB111", 8, 19, "quote", ".yaml"),
    Slip("yaml: wrong indentation", YAML_HEAD + "      - type: essay\n        id: q\n       stem: Why?\n", 1, "QB111", 8, 8, "indentation", ".yaml"),
    Slip("yaml: tab indentation", YAML_HEAD + "      - type: essay\n        id: q\n\tstem: Why?\n", 1, "QB111", 8, 1, "indentation", ".yaml"),
    Slip("yaml: key twice", YAML_HEAD + ESSAY + "        stem: How?\n", 1, "QB113", 9, 9, "remove or rename", ".yaml"),
    Slip("yaml: answer in the description", "title: T\ndescription: |\n  A warm-up.\n\n  Answer: 42\nsections:\n  - id: s\n"
         "    title: S\n    questions:\n" + ESSAY, 1, "QB145", 5, 3, "model_answer", ".yaml"),
]


def test_enough_slips() -> None:
    assert len(SLIPS) >= 40
    assert len({s.name for s in SLIPS}) == len(SLIPS)
    assert sum(s.suffix == ".yaml" for s in SLIPS) >= 10


@pytest.mark.parametrize("slip", SLIPS, ids=[s.name for s in SLIPS])
def test_slip(tmp_path: Path, slip: Slip) -> None:
    code, reported = check_source(tmp_path, "slip" + slip.suffix, slip.source)
    assert reported, "a slip must never build without a word"
    found = [r for r in reported if r.code == slip.code]
    assert found, [f"{r.line}:{r.column} {r.code} {r.message}" for r in reported]
    first = found[0]
    assert (code, first.line, first.column) == (slip.exit, slip.line, slip.column), first
    assert first.severity == ("error" if slip.exit else "warning")
    assert slip.fix in first.hint, first.hint
    assert all(r.hint for r in reported), "every diagnostic has a hint"
    if slip.exit == 0:  # a warning: --strict fails
        assert check_source(tmp_path, "slip" + slip.suffix, slip.source, "--strict")[0] == 1


# -- nothing a label introduces reaches students ------------------------------------------------------

#: Every source the test suite builds from files.
SOURCES = sorted(
    [*(ROOT / "source").glob("*.md"), *(ROOT / "tests" / "fixtures").glob("*.yaml"),
     *(ROOT / "tests" / "corpus").glob("*.md"), *(ROOT / "tests" / "corpus").glob("*.yaml")]
)


def _texts(html: str) -> str:
    """The words of rendered HTML (or of plain text), with spacing normalised."""
    try:
        text = " ".join(etree.fromstring(f"<div>{html}</div>", etree.HTMLParser()).itertext())
    except (etree.XMLSyntaxError, ValueError):
        text = html
    return " ".join(text.split())


def _label_texts(quiz: Quiz) -> list[str]:
    """What labels introduced in the source: model answers, general feedback and feedback on the
    outcome (shown after answering, not with the question), and the answers of text questions."""
    found: list[str] = []
    for question in quiz.iter_questions():
        data = question.model_dump()
        for key in ("model_answer",):
            if data.get(key):
                found.append(data[key])
        found += [v for v in (data.get("feedback") or {}).values() if v]
        found += [a["text"] for a in data.get("answers") or [] if isinstance(a, dict) and a.get("text")]
    return [_texts(_render(t)) for t in found if len(" ".join(t.split())) >= 8]


def _render(markdown: str) -> str:
    from qti_builder import content

    return content.render_block(markdown)


def _qti_candidate_texts(package: bytes) -> list[str]:
    """What a QTI player shows before anyone answers: each item's body without its feedback, and
    the test's candidate rubrics (section introductions)."""
    shown: list[str] = []
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        for name in archive.namelist():
            if not name.endswith(".xml") or name == "imsmanifest.xml":
                continue
            root = etree.fromstring(archive.read(name))
            for body in root.iter(f"{{{QTI_NS}}}itemBody"):
                # Feedback shows after answering; a rubric for scorers (the model answer) never to candidates.
                hidden = [*body.iter(f"{{{QTI_NS}}}feedbackInline"), *body.iter(f"{{{QTI_NS}}}feedbackBlock"),
                          *(r for r in body.iter(f"{{{QTI_NS}}}rubricBlock") if "candidate" not in (r.get("view") or ""))]
                for element in hidden:
                    element.getparent().remove(element)
                shown.append(" ".join(" ".join(body.itertext()).split()))
            for rubric in root.iter(f"{{{QTI_NS}}}rubricBlock"):
                if "candidate" in (rubric.get("view") or ""):
                    shown.append(" ".join(" ".join(rubric.itertext()).split()))
    return shown


def _moodle_candidate_texts(xml: bytes) -> list[str]:
    """What Moodle shows before anyone answers: question texts, answer options (not their
    feedback), and category descriptions."""
    root = etree.fromstring(xml)
    shown: list[str] = []
    for question in root.iter("question"):
        kind = question.get("type")
        for path in ("questiontext/text", "category/text", "info/text"):
            shown += [_texts(t.text or "") for t in question.findall(path)]
        if kind in ("multichoice", "matching", "ordering", "ddwtos", "gapselect"):
            shown += [_texts(t.text or "") for t in question.findall("answer/text")]
            shown += [_texts(t.text or "") for t in question.findall("subquestion/text")]
    return shown


def _canvas_candidate_texts(package: bytes) -> list[str]:
    """What Canvas shows before anyone answers: each item's presentation (question text and
    answer texts; text-only items carry section introductions), not its item feedback, and the
    quiz description of the settings file."""
    shown: list[str] = []
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        for name in archive.namelist():
            if not name.endswith(".xml") or name == "imsmanifest.xml":
                continue
            root = etree.fromstring(archive.read(name))
            for element in root.iter():
                if not isinstance(element.tag, str):
                    continue
                local = etree.QName(element).localname
                if local == "presentation":
                    shown += [_texts(t.text or "") for t in element.iter() if isinstance(t.tag, str)
                              and etree.QName(t).localname == "mattext"]
                elif local == "description" and root.tag.endswith("}quiz"):
                    shown.append(_texts(element.text or ""))
    return shown


def built_sources(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Quiz, Path]]:
    out: list[tuple[Path, Quiz, Path]] = []
    for source in SOURCES:
        target = tmp_path_factory.mktemp("leak")
        try:
            result = build(BuildOptions(sources=[source], out_dir=target, jobs=1))
        except BuildFailed:
            continue
        out += [(source, quiz, target) for quiz in result.quizzes]
    return out


def test_no_label_text_reaches_what_students_see(tmp_path_factory: pytest.TempPathFactory) -> None:
    built = built_sources(tmp_path_factory)
    assert len(built) >= 15  # the bundled sources, the fixtures and the corpus cases that build
    checked = 0
    for source, quiz, target in built:
        hidden = _label_texts(quiz)
        shown = _qti_candidate_texts((target / f"{quiz.id}.qti21.zip").read_bytes())
        shown += _moodle_candidate_texts((target / f"{quiz.id}.moodle.xml").read_bytes())
        shown += _canvas_candidate_texts((target / f"{quiz.id}.canvas.zip").read_bytes())
        shown += [_texts(_render(quiz.description or ""))]
        shown += [_texts(_render(s.description or "")) for _, s in quiz.iter_sections()]
        for text in hidden:
            checked += 1
            leaks = [s for s in shown if text in s]
            assert not leaks, f"{source.name}: '{text[:60]}' is shown to students in '{leaks[0][:120]}'"
        for label in re.findall(r"(?m)^\s*(Answer|Explanation|Model answer|정답|설명|해설)\s*[:：]", " \n".join(shown)):
            pytest.fail(f"{source.name}: a line starting with the label '{label}:' is shown to students")
    assert checked >= 25


def test_the_check_finds_a_leak(tmp_path: Path) -> None:
    """The leak check itself: an explanation that lands in a section introduction is caught (the
    Markdown reader refuses that source, so the quiz is built from the model)."""
    from qti_builder.model import EssayQuestion, Section

    quiz = Quiz(id="leaky", title="T", sections=[Section(
        id="s", title="S", description="Ships disappear hull first over the horizon.",
        questions=[EssayQuestion(id="q", stem="Is the earth round?", feedback={"general": "Ships disappear hull first over the horizon."})])])
    shown = [_texts(_render(s.description or "")) for _, s in quiz.iter_sections()]
    assert any(text in s for text in _label_texts(quiz) for s in shown)


def test_imported_quizzes_read_back_without_doubt(tmp_path: Path) -> None:
    """The Markdown written for an imported quiz: a description line that starts like a label is
    escaped (it reads back as text, and shows the same words), and an essay whose model answer looks
    like another type's answer says type=essay (no warning on reading it back)."""
    from qti_builder.model import EssayQuestion, Section
    from qti_builder.writers.markdown_source import write_source

    quiz = Quiz(id="imported", title="T", description="Read this first.\n\nAnswer: every question.", sections=[Section(
        id="s", title="S", questions=[EssayQuestion(id="q", stem="How many bits are in a byte?", model_answer="8")])])
    written = write_source(quiz)
    assert written.suffix == ".md", written.reason
    assert "Answer\\: every question." in written.text and "{#q type=essay}" in written.text
    sink = DiagnosticSink()
    read_back_ = read_quiz(write(tmp_path, "imported.md", written.text), sink)
    assert read_back_ is not None and sink.items == []
    back = read_back_[0]
    assert back.description == "Read this first.\n\nAnswer\\: every question."
    assert _texts(_render(back.description or "")) == "Read this first. Answer: every question."
