"""Size limits that real banks reach (issue 14): no limit a 100,000-question bank hits, every limit
an option named in its error, and the guards against amplification kept.

Not timed: these tests check what reads, not how fast.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT, write
from typer.testing import CliRunner

from qti_builder.cli import app
from qti_builder.diagnostics import DiagnosticSink, SourceSpan
from qti_builder.model import Quiz, SingleChoiceQuestion
from qti_builder.readers import Limits, SourceMap, read_quiz
from qti_builder.writers.markdown_source import write_source

FM = "---\ntitle: T\n---\n"


def read(path: Path) -> tuple[Quiz | None, list[str]]:
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), [d.render() for d in sink.sorted()]


def choice(number: int | str) -> str:
    return f"{number}. What is {number} plus one?\n\nA) {number}\nB) {int(number) + 1}\n\nAnswer: B\n\n"


# -- question numbers ----------------------------------------------------------------------------


def test_question_numbers_past_9999_read(tmp_path: Path) -> None:
    # CommonMark takes up to 9 digits as an ordered-list number; so does the reader.
    numbers = [9998, 9999, 10000, 10001, 10002, 123456789]
    quiz, problems = read(write(tmp_path, "q.md", FM + "".join(choice(n) for n in numbers)))
    assert problems == []
    assert quiz is not None
    questions = list(quiz.iter_questions())
    assert [q.stem for q in questions] == [f"What is {n} plus one?" for n in numbers]
    assert all(isinstance(q, SingleChoiceQuestion) and [c.id for c in q.choices if c.correct] == ["B"] for q in questions)


def test_a_ten_digit_question_number_is_one_located_error(tmp_path: Path) -> None:
    # Line 11 is "1234567890. What is ...": one error there, none about the questions around it.
    _, problems = read(write(tmp_path, "q.md", FM + choice(1) + choice(1234567890) + choice(3)))
    assert len(problems) == 1
    assert problems[0].startswith(
        f"{tmp_path / 'q.md'}:11:1: error[QB147]: question number 1234567890 has 10 digits, more than the 9 a Markdown list number may have")


def test_a_ten_digit_number_in_a_description_is_indented_by_the_source_writer() -> None:
    quiz = Quiz.model_validate({"id": "d", "title": "D", "description": "1234567890. is a big number", "sections": [
        {"id": "s", "title": "S", "questions": [{"type": "true_false", "id": "t", "stem": "Big?", "answer": True}]}]})
    written = write_source(quiz)
    assert (written.suffix, written.reason) == (".md", None)
    assert "\n   1234567890. is a big number\n" in written.text


def test_the_source_writer_numbers_10001_questions_so_that_they_read_back() -> None:
    quiz = Quiz.model_validate({"id": "big", "title": "Big", "sections": [{"id": "s", "title": "S", "questions": [
        {"type": "single_choice", "id": f"q{i}", "stem": f"What is {i} plus one?",
         "choices": [{"id": "A", "text": str(i)}, {"id": "B", "text": str(i + 1), "correct": True}]}
        for i in range(1, 10_002)]}]})
    written = write_source(quiz)  # reads the Markdown back and compares it with the model
    assert (written.suffix, written.reason) == (".md", None)
    assert "\n10001. What is 10001 plus one? {#q10001}\n" in written.text


# -- YAML: amplification refused, size not -------------------------------------------------------


def yaml_bank(questions: int) -> str:
    """A YAML source of ``questions`` single-choice questions, 18 values each (plus 4 per 1,000)."""
    lines = ["title: Big bank", "sections:"]
    for s in range(0, questions, 1000):
        lines += [f"  - id: s{s}", f"    title: Part {s}", "    questions:"]
        for i in range(s, min(s + 1000, questions)):
            lines += ["      - type: single_choice", f"        id: q{i}", f"        stem: What is {i} plus one?", "        choices:"]
            lines += [f"          - {{id: {c}, text: '{i + k}'" + (", correct: true}" if k == 1 else "}") for k, c in enumerate("ABCD")]
    return "\n".join(lines) + "\n"


def test_a_250000_value_yaml_source_reads(tmp_path: Path) -> None:
    # 13,900 questions of 18 values, 14 sections of 4: 250,262 values (the old cap was 200,000).
    quiz, problems = read(write(tmp_path, "bank.yaml", yaml_bank(13_900)))
    assert problems == []
    assert quiz is not None
    questions = list(quiz.iter_questions())
    assert len(questions) == 13_900
    last = questions[-1]
    assert isinstance(last, SingleChoiceQuestion) and last.id == "q13899" and last.choices[1].text == "13900"


def billion_laughs(levels: int) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, levels):
        name, previous = chr(97 + n), chr(96 + n)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 10) + "]")
    return "title: T\n" + "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_at_the_alias_that_passes_the_limit(tmp_path: Path) -> None:
    # 10^9 values if built; refused while composing, at the 8th *e of line 7, column 29 (by hand:
    # the aliases of lines 3-6 repeat 110 + 1,110 + 11,110 + 111,110 values, each *e 111,111 more).
    # The hint says how many they would repeat in all: 110 + 1,110 + ... + 1,111,111,110.
    _, problems = read(write(tmp_path, "lol.yaml", billion_laughs(9)))
    assert problems == [f"{tmp_path / 'lol.yaml'}:7:29: error[QB114]: the YAML's aliases (*name) repeat more than the "
                        "1,000,000 values a source may repeat\n"
                        "    hint: write out the parts you repeat, or remove aliases that repeat large parts; they repeat "
                        "1,234,567,880 values: raise the limit with --max-yaml-alias-values 1234567880"]


def test_the_same_in_markdown_front_matter(tmp_path: Path) -> None:
    # The same lines one further down, after '---'.
    text = "---\n" + billion_laughs(9) + "---\n" + choice(1)
    _, problems = read(write(tmp_path, "lol.md", text))
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 'lol.md'}:8:29: error[QB114]: the YAML's aliases (*name) repeat")


def test_an_alias_inside_its_own_value_is_refused(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "loop.yaml", "title: T\nloop: &a [1, *a]\n"))
    assert [p.split(": ", 1)[1] for p in problems][0].startswith(
        "error[QB114]: the alias *a is inside the value it names")
    assert problems[0].startswith(f"{tmp_path / 'loop.yaml'}:2:14:")


def test_a_second_yaml_document_is_refused(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "two.yaml", "title: T\n---\ntitle: U\n"))
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 'two.yaml'}:2:1: error[QB111]: a second YAML document starts here")


def test_nesting_through_aliases_counts(tmp_path: Path) -> None:
    # Each line nests the one before once more: 120 levels with aliases followed, 3 as written.
    chain = "title: T\nk0: &k0 [1]\n" + "".join(f"k{i}: &k{i} [*k{i - 1}]\n" for i in range(1, 120))
    _, problems = read(write(tmp_path, "chain.yaml", chain))
    assert len(problems) == 1
    # The value of k_i nests i + 2 levels below the root: k98's, on line 100, is the first past 100
    # (its alias *k97 at column 12).
    assert problems[0].startswith(f"{tmp_path / 'chain.yaml'}:100:12: error[QB114]: the YAML nests more than the 100 levels")


MIXED = """\
title: "배포 퀴즈 😀"
description: |
  여러 줄의 설명 😀
  second line
sections:
  - {id: basics, title: 기초}
  - id: more
    title: 'Ünïcode: 😀'
    questions:
      - type: single_choice
        id: q1
        stem: "`kubectl`로 파드를 보는 명령은? \\u00e9"
        points: 2.5
        choices: &choices
          - {id: A, text: "😀 `get pods`", correct: true}
          - {id: B, text: 한글 text}
      - {type: single_choice, id: q2, stem: "다시?", choices: *choices}
      - type: essay
        id: q3
        stem: >
          folded 😀
          text
        model_answer: null
"""


def test_libyaml_events_give_the_nodes_and_positions_of_pyyaml_s_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    # The reader composes libyaml's events (fast) where PyYAML is built with it; the values and
    # where each is written must not depend on it, Korean and emoji before a value included.
    import qti_builder.readers.yaml_data as reader

    assert reader._FastLoader is not None, "PyYAML is installed with libyaml here"
    fast_source = SourceMap("q.yaml")
    fast = reader.load_yaml(MIXED, fast_source, DiagnosticSink())
    monkeypatch.setattr(reader, "_FastLoader", None)
    pure_source = SourceMap("q.yaml")
    pure = reader.load_yaml(MIXED, pure_source, DiagnosticSink())
    assert fast == pure and fast["sections"][1]["questions"][1]["choices"][0]["text"] == "😀 `get pods`"
    assert fast_source.positions == pure_source.positions and fast_source.scalars == pure_source.scalars
    assert fast_source.locate(("sections", 1, "questions", 0, "choices", 1, "text")) == SourceSpan("q.yaml", 16, 27)


def test_a_syntax_error_is_reported_in_pyyaml_s_words(tmp_path: Path) -> None:
    # libyaml says "did not find expected ',' or ']'": the reader reads again with PyYAML to say it as before.
    _, problems = read(write(tmp_path, "q.yaml", "title: [x\n"))
    assert [p.split(" error", 1)[1] for p in problems] == ["[QB111]: YAML syntax error: expected ',' or ']', but got '<stream end>'\n"
                                                           "    hint: check the indentation and quote values that contain ': ' "
                                                           "or start with a special character"]


# -- every limit is an option, named in its error ------------------------------------------------

SHARED = """\
title: T
sections:
  - id: s
    title: S
    questions:
      - type: single_choice
        id: q1
        stem: One?
        choices: &two
          - {id: A, text: x, correct: true}
          - {id: B, text: y}
      - {type: single_choice, id: q2, stem: Two?, choices: *two}
"""


@dataclass(frozen=True)
class Limit:
    option: str
    #: A value that refuses the source, and one that lets it build.
    low: str
    high: str
    name: str
    text: str
    #: The start of the error at the lower limit.
    error: str
    #: Files next to the source.
    files: tuple[tuple[str, bytes], ...] = ()


LIMITS = [
    # 279 bytes and a comment of 2,003: 2,282 bytes; 0.002 MiB is 2,097 bytes.
    Limit("--max-source-mb", "0.002", "1", "q.yaml", SHARED + "# " + "x" * 2000 + "\n",
          "q.yaml:1:1: error[QB100]: the file is 2,282 bytes, more than the 2,097 bytes a source may have"),
    # *two repeats the list (1) of two choices (1 + 3, and 1 + 2): 8 values.
    Limit("--max-yaml-alias-values", "7", "8", "q.yaml", SHARED,
          "q.yaml:12:60: error[QB114]: the YAML's aliases (*name) repeat more than the 7 values a source may repeat"),
    # mapping > sections > section > questions > question > choices > choice > text: 8 levels.
    Limit("--max-yaml-depth", "7", "8", "q.yaml", SHARED,
          "q.yaml:10:14: error[QB114]: the YAML nests more than the 7 levels a source may have"),
    Limit("--max-yaml-depth", "2", "3", "q.md", "---\ntitle: T\nsettings: {time_limit: 5}\n---\n" + choice(1),
          "q.md:3:12: error[QB114]: the YAML nests more than the 2 levels a source may have"),  # the key, level 3
    Limit("--max-media-mb", "0.001", "1", "q.md", FM + "1. Which? ![a dot](dot.png)\n\nA) x\nB) y\n\nAnswer: A\n",
          "q.md:4:20: error[QB160]: media file 'dot.png' is 2,008 bytes, more than the 1,048 bytes allowed",
          (("dot.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 2000),)),
]


@pytest.mark.parametrize("limit", LIMITS, ids=[f"{limit.option}-{limit.name}" for limit in LIMITS])
def test_every_limit_names_the_option_that_raises_it(limit: Limit, tmp_path: Path) -> None:
    write(tmp_path, limit.name, limit.text)
    for name, data in limit.files:
        (tmp_path / name).write_bytes(data)
    code, stderr = check(tmp_path, [limit.name, limit.option, limit.low])
    assert code == 1
    assert stderr.startswith(limit.error), stderr
    hint = stderr.split("\n")[1]
    assert hint.startswith("    hint: ") and limit.option in hint
    # The option named raises the limit: the same source passes.
    code, stderr = check(tmp_path, [limit.name, limit.option, limit.high])
    assert (code, stderr) == (0, "")


def check(folder: Path, args: list[str]) -> tuple[int, str]:
    old = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(app, ["check", "--quiet", "--jobs", "1", *args])
    finally:
        os.chdir(old)
    return result.exit_code, result.stderr


def test_the_defaults_fit_a_bank_of_100000_questions() -> None:
    # Measured (bench/ and this file): a 100,000-question Markdown bank is 25-40 MB, its YAML form
    # about twice that; a plain YAML source has no aliases and nests 8 levels.
    limits = Limits()
    assert limits.max_source_bytes >= 2 * 40 * 1024 * 1024
    assert limits.max_yaml_depth >= 8 + 2 * 10  # ten levels of nested sections
    assert limits.max_yaml_alias_values >= 100_000 * 9  # a shared list of two choices in each question


# -- the importer's limits, against hostile packages: options too, as a real bank passes them ------

IMPORTS = ROOT / "tests" / "fixtures" / "import"


def tao_zip(folder: Path) -> Path:
    """The TAO fixture package as a zip: 7 files, 7,305 bytes unpacked, the largest 1,556."""
    path = folder / "tao.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted((IMPORTS / "tao-package").rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(IMPORTS / "tao-package").as_posix())
    return path


IMPORT_LIMITS = [
    ("--max-input-mb", "0.005", "1", "messy-moodle.xml",
     f"error[QB700]: the file is {(IMPORTS / 'messy-moodle.xml').stat().st_size:,} bytes, more than the 5,242 bytes an import may read"),
    ("--max-entries", "6", "7", "tao.zip", "error[QB703]: refused: the zip has 7 entries, more than the 6 a package may have"),
    # 0.001 MiB is 1,048 bytes: the manifest (1,344) is past it; 0.005 MiB (5,242) is past for all 7.
    ("--max-entry-mb", "0.001", "1", "tao.zip", "error[QB703]: refused: entry 'imsmanifest.xml' would unpack to 1,344 bytes, past the limits "
     "(1,048 bytes per file, 1024 MiB in all)"),
    ("--max-package-mb", "0.005", "1", "tao.zip", "error[QB703]: refused: entry "),
]


@pytest.mark.parametrize(("option", "low", "high", "name", "error"), IMPORT_LIMITS, ids=[case[0] for case in IMPORT_LIMITS])
def test_every_import_limit_names_the_option_that_raises_it(option: str, low: str, high: str, name: str, error: str,
                                                            tmp_path: Path) -> None:
    source = tao_zip(tmp_path) if name == "tao.zip" else IMPORTS / name
    result = CliRunner().invoke(app, ["import", str(source), "--out", str(tmp_path / "low"), option, low])
    assert result.exit_code == 1
    first, hint = result.stderr.split("\n")[:2]
    assert first.split(": ", 1)[1].startswith(error), result.stderr
    assert hint.startswith("    hint: ") and option in hint
    result = CliRunner().invoke(app, ["import", str(source), "--out", str(tmp_path / "high"), option, high, "--allow-skipped"])
    assert result.exit_code == 0, result.stderr
