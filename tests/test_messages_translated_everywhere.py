"""No English left in a Korean, Japanese or Chinese teacher's diagnostics, beyond reading a paper.

test_message_catalogs runs the examples of the reading and checking codes (QB1xx, QB2xx) through
``check --lang``, one example each; what it did not see printed in English under ``--lang ko``:

- the codes of the other stages: writing the outputs (QB3xx) and what an LMS loses or changes on
  import (QB601, ``check --profile canvas|moodle|qti21``), whose messages are made per question by
  code (profiles.py, the kinds' ``losses`` in kinds.py): one example shows one of about forty;
- hints chosen by what a question holds (QB128's: its text has blanks, a '- ' list, a list of
  pairs, indented options), of which the code's example shows one;
- ``--strict``, which made every warning one no entry matched ('... (a warning, failing because
  of --strict)'), and the losses of the outputs it fails on (QB601-QB603);
- a message whose only English part is two words ("duplicate key 'title'"): it looks for three.

Here every code's example of every stage is run, with its profile, and again with --strict for
the warnings; so are sources that make each profile's check say each of its messages, QB128 give
each of its hints, other mistakes the suite's run showed in English, and quizzes built together.
Every message and hint is rendered as ``check --lang`` prints it and compared with its English
rendering: one that prints as in English (and says something in words outside quotes) has no
catalog entry; one that keeps two English words in a row has a part no entry translates. The
sources are seen to reach every message of the profiles' checks and every QB128 hint (by their
English words), so a new one comes with its entries. Messages of the command rather than of a
quiz (no source, --only, an import's input) are checked at the command line.

The importers' messages (QB7xx) are checked the same way on inputs written here to make them
speak (IMPORTS: Moodle XML, GIFT, Aiken, Canvas exports, quiz pages, zips refused or read in part,
XML that is not well-formed; OTHER_IMPORTS and MADE_IMPORTS: QTI 2.1 packages, text2qti, Blackboard
pools, a quiz page's HTML and mkdocs-quiz blocks, and a Moodle quiz backup the build writes and the
test changes as Moodle would), each read by ``import``'s own reader; and ``import --lang`` is run on
some of them, where a package's messages name a file inside it and what the command itself says
(a quiz written as YAML, a missing input) shows.
"""

from __future__ import annotations

import ast
import io
import re
import tarfile
import tempfile
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.cli import run
from test_codes import PNG, SOURCE_EXAMPLES
from test_message_catalogs import _QUOTED, _WORD

import qti_builder
from qti_builder import BuildOptions, build
from qti_builder.codes import CODES
from qti_builder.diagnostics import BuildFailed, Diagnostic
from qti_builder.messages import languages

PACKAGE = Path(qti_builder.__file__).parent
LANGUAGES = languages()

#: Two English words in a row outside quotes, braces and code: a text that says something in English.
_WORDS = re.compile(r"[A-Za-z]{2,}[\s,]+[A-Za-z]{2,}")

#: English left on purpose: QB115's hint lists the labels an English quiz accepts, its source's words.
SOURCE_TEXT = {"QB115": {"Correct feedback", "Incorrect feedback", "Partially correct feedback", "Marking scheme"}}

FRONT = "---\ntitle: T\n---\n\n"

#: Sources that make ``check --profile`` say each of its messages (code, syntax, source, profile).
CANVAS = """title: Profiles
settings: {shuffle_answers: true}
sections:
  - id: main
    title: Main
    shuffle: true
    questions:
      - {type: single_choice, id: fb, stem: Which?, shuffle: false, feedback: {partially_correct: Half.},
         choices: [{id: A, text: a, correct: true, fixed: true}, {id: B, text: b}]}
      - {type: multiple_response, id: aon, stem: Which?, scoring: all_or_nothing,
         choices: [{id: A, text: a, correct: true}, {id: B, text: b, correct: true}, {id: C, text: c}]}
      - {type: multiple_response, id: exam, stem: Which?, points: 2, scoring: exam, incomplete_points: 1,
         choices: [{id: A, text: a, correct: true}, {id: B, text: b, correct: true}, {id: C, text: c}]}
      - {type: multiple_response, id: sc, stem: Which?,
         choices: [{id: A, text: a, correct: true, score: 70}, {id: B, text: b, correct: true, score: 30}, {id: C, text: c}]}
      - {type: true_false, id: tf, stem: Sure?, answer: true, labels: [O, X]}
      - {type: short_answer, id: sa, stem: Who?, case_sensitive: true, answers: [{text: 'Ki*m', score: 100}, {text: Lee, score: 50}]}
      - {type: numerical, id: num, stem: How many?, unit: cm, answers: [{value: 3, score: 100}, {value: 4, score: 50}]}
      - {type: essay, id: es, stem: Why?, response_format: plain, min_words: 10, attachments: 1, expected_lines: 5}
      - {type: essay, id: es2, stem: Why?, expected_lines: 5}
      - {type: file_upload, id: fu, stem: Send., max_files: 2, allowed_types: [.pdf]}
      - {type: matching, id: ma, stem: Match., pairs: [{prompt: a, answer: '`x`'}, {prompt: b, answer: y}]}
      - {type: ordering, id: ord, stem: Order., items: ['`a`', b]}
      - {type: fill_in_blank, id: fib, stem: '[[a]] and [[b]]', case_sensitive: true, points: 3,
         blanks: [{id: a, answers: [x], points: 2}, {id: b, kind: dropdown, answers: [y], options: [z], points: 1}]}
      - {type: calculated, id: calc, stem: 'What is {a} + 1?', answer: a + 1, figures: 2, unit: m,
         variables: [{name: a, min: 1, max: 2}], feedback: {general: 'It is {a}.'}}
      - {type: text_only, id: txt, stem: Read., feedback: {general: Note.}}
  - id: drawn
    title: Drawn
    select: 1
    questions:
      - {type: essay, id: d1, stem: Why?, points: 0}
      - {type: essay, id: d2, stem: How?, points: 2}
      - {type: calculated_choice, id: cc, stem: 'What is {a} + 1?', variables: [{name: a, min: 1, max: 2}],
         choices: [{id: A, text: '{=a + 1}', correct: true}, {id: B, text: '{=a + 2}'}]}
    sections:
      - {id: inner, title: Inner, questions: [{type: essay, id: in1, stem: Why?}]}
  - id: outer
    title: Outer
    select: 1
    sections:
      - {id: inner2, title: Inner2, questions: [{type: essay, id: in2, stem: Why?}]}
"""

#: The quiz does not shuffle, a question does.
CANVAS_UNSHUFFLED = """title: Profiles
sections:
  - id: main
    title: Main
    questions:
      - {type: single_choice, id: sh, stem: Which?, shuffle: true, choices: [{id: A, text: a, correct: true}, {id: B, text: b}]}
"""

MOODLE = """title: Profiles
sections:
  - id: main
    title: Main
    questions:
      - {type: single_choice, id: hn, stem: Which?, numbering: hangul, choices: [{id: A, text: a, correct: true}, {id: B, text: b}]}
      - {type: single_choice, id: hc, stem: Which?, numbering: hangul-consonant, choices: [{id: A, text: a, correct: true}, {id: B, text: b}]}
      - {type: single_choice, id: ka, stem: Which?, numbering: katakana, choices: [{id: A, text: a, correct: true}, {id: B, text: b}]}
      - {type: single_choice, id: ir, stem: Which?, numbering: iroha, choices: [{id: A, text: a, correct: true}, {id: B, text: b}]}
      - {type: multiple_response, id: aon, stem: Which?, scoring: all_or_nothing,
         choices: [{id: A, text: a, correct: true}, {id: B, text: b, correct: true}, {id: C, text: c}]}
      - {type: multiple_response, id: exam, stem: Which?, points: 3, scoring: exam, incomplete_points: 1,
         choices: [{id: A, text: a, correct: true}, {id: B, text: b, correct: true}, {id: C, text: c, correct: true}, {id: D, text: d}]}
      - {type: essay, id: es, stem: Why?, feedback: {correct: Good., incorrect: Bad.}}
      - {type: true_false, id: tf, stem: Sure?, answer: true, feedback: {partially_correct: Half.}}
"""

#: QB128's hints, by what the question holds.
NO_TYPE = {
    "blanks": FRONT + "1. The sky is [[blue]].\n",
    "items": FRONT + "1. Put them in order.\n\n- one\n- two\n- three\n",
    "pairs": FRONT + "1. Match them.\n\n- France -> Paris\n- Japan -> Tokyo\n",
    "indented options": FRONT + "1. Which one?\n\n\tA) this\n\tB) that\n",
    "nothing": FRONT + "1. Explain recursion.\n",
}

#: What each output loses of a quiz (QB602, QB603, and QB601 as a loss): build --strict fails on each.
LOSSES = """title: Losses
settings: {time_limit: 30}
sections:
  - id: pool
    title: Pool
    select: 1
    questions:
      - {type: ordering, id: steps, stem: Order., items: [a, b]}
      - {type: essay, id: e2, stem: How?, points: 2}
  - id: nest
    title: Nest
    select: 1
    questions:
      - {type: essay, id: e3, stem: Why?}
    sections:
      - {id: sub, title: Sub, questions: [{type: essay, id: e4, stem: Why?}]}
"""

#: Messages and hints the codes' examples do not show: of other mistakes, and hints chosen by what
#: the source holds (found by recording every diagnostic of the test suite and translating it).
OTHER_MISTAKES = [
    ("QB150", "md", FRONT + "1. Which <font>one</font>? {#q type=essay}\n\n2. <b onclick=\"x()\">Why</b>? {#r type=essay}\n\n"
                      "3. See ![a](/etc/passwd) {#s type=essay}\n\n4. See ![b](../secret.png) {#t type=essay}\n", None, "example"),
    ("QB115", "md", FRONT + "1. Which? {#q}\n\nA) a\nB) b\nFoo bar: c\n\nAnswer: A\n", None, "example"),
    ("QB117", "md", FRONT + "1. Order {#o type=ordering}\n\n- a\n- b\nstray text here\n", None, "example"),
    ("QB183", "md", FRONT + "1. Why? {#q type=short_answer}\n\nAnswer: x {points=2}\n", None, "example"),
    ("QB210", "md", FRONT + "1. A car covers {d} km. {#speed type=calculated}\n\n```variables\nd = 20..200\n```\n\n"
                      "Answer: foo(d) ± 1%\n", None, "example"),
    ("QB145", "yaml", "title: T\nsections:\n  - id: s\n    title: S\n    description: 'Answer: x'\n"
                        "    questions: [{type: essay, id: q, stem: Why?}]\n", None, "example"),
    ("QB114", "yaml", "title: T\nsections: &s\n  - id: s\n    title: S\n    questions: *s\n", None, "example"),
    # YAML's own words for a tab, an unclosed list, an alias to nothing (PyYAML's messages)
    ("QB111", "yaml", "title: T\nsections:\n\t- id: s\n", None, "example"),
    ("QB111", "yaml", "title: T\nsections: [a, b\n", None, "example"),
    ("QB111", "yaml", "title: T\nsections: *nope\n", None, "example"),
]

SOURCES = [
    *OTHER_MISTAKES,
    *((c.code, c.syntax, c.mistake, c.profile, c.file) for c in SOURCE_EXAMPLES),
    ("QB601", "yaml", CANVAS, "canvas", "example"),
    ("QB601", "yaml", CANVAS_UNSHUFFLED, "canvas", "example"),
    ("QB601", "yaml", MOODLE, "moodle", "example"),
    ("QB601", "yaml", MOODLE, "qti21", "example"),
    *(("QB128", "md", text, None, "example") for text in NO_TYPE.values()),
]
#: Run with --strict: every warning becomes an error saying so, and so does every loss.
STRICT = [
    *((c.code, c.syntax, c.mistake, c.profile, c.file) for c in SOURCE_EXAMPLES if c.is_warning),
    ("QB603", "yaml", LOSSES, None, "example"),
]


#: Quizzes built together: one repeats another's id (QB202), one a category ID number of another (QB237).
TOGETHER = {
    "week2.md": "---\ntitle: A\nid: week2\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n1. Why? {#q1 type=essay}\n",
    "week3.md": "---\ntitle: B\nid: week3\n---\n\n# Tissues {#tissues moodle_idnumber=CELLS}\n\n1. Why? {#q2 type=essay}\n",
    "again.md": "---\ntitle: C\nid: week2\n---\n\n1. Why? {#q3 type=essay}\n",
}


def build_diagnostics(folder: Path, sources: list[Path], profile: str | None = None, strict: bool = False) -> list[Diagnostic]:
    try:
        return build(BuildOptions(sources=sources, out_dir=folder / "out", write=False, profile=profile, strict=strict,
                                  jobs=1)).diagnostics
    except BuildFailed as failed:
        return failed.diagnostics


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    """Every diagnostic the sources give, each once."""
    found: dict[tuple[str, str, str | None], Diagnostic] = {}
    for strict, sources in ((False, SOURCES), (True, STRICT)):
        for i, (code, syntax, text, profile, name) in enumerate(sources):
            folder = tmp_path_factory.mktemp(f"source{i}")
            source = folder / f"{name}.{syntax}"
            source.write_text(text, encoding="utf-8")
            (folder / "pic.png").write_bytes(PNG)
            for diagnostic in build_diagnostics(folder, [source], profile, strict):
                found.setdefault((diagnostic.code, diagnostic.message, diagnostic.hint), diagnostic)
    folder = tmp_path_factory.mktemp("together")
    for name, text in TOGETHER.items():
        (folder / name).write_text(text, encoding="utf-8")
    together = build_diagnostics(folder, [folder / name for name in TOGETHER])
    assert {d.code for d in together} == {"QB202", "QB237"}
    for diagnostic in together:
        found.setdefault((diagnostic.code, diagnostic.message, diagnostic.hint), diagnostic)
    return list(found.values())


def english_words(text: str) -> list[str]:
    """Runs of two or more English words outside quotes, braces and code, a stop ending a run, one
    of them not capitalised: a part of a sentence ('nearest option 33 %'), where names such as
    'Canvas Classic' or 'Moodle ID' are none. (test_message_catalogs looks for three, which a
    short message such as "duplicate key 'title'" passes.)"""
    runs: list[str] = []
    run_: list[str] = []
    for token in [*_QUOTED.sub(" | ", text).split(), "|"]:
        match = _WORD.fullmatch(token)
        if match:
            run_.append(match.group(1))
            if match.group(2) in ("", ")"):
                continue
        if len(run_) >= 2 and not all(word[0].isupper() for word in run_):
            runs.append(" ".join(run_))
        run_ = []
    return runs


def untranslated(english: str, translated: str) -> list[str]:
    """What of a message or hint stays English: all of it when it prints as in English and says
    something in words, else its runs of English words (a part no entry translates)."""
    if translated == english:
        return [english] if _WORDS.search(_QUOTED.sub(" | ", english)) else []
    return english_words(translated)


def test_english_words_finds_parts_of_sentences_and_spares_names() -> None:
    assert english_words("35 % (choice A; nearest option 33.33333 %)") == ["choice A", "nearest option"]
    assert english_words("Canvas: Canvas Classic은 문항을 순서대로 둡니다: 대단원 'main'은(는) 섞이지 않습니다") == []
    assert english_words("Moodle ID 번호 'W3 Q1' (settings.shuffle_answers를 설정하세요) {type=ordering}") == []
    assert english_words("키 'title'이(가) 중복되었습니다") == [] and english_words("duplicate key") == ["duplicate key"]


def rendered(diagnostic: Diagnostic, language: str | None) -> tuple[str, str]:
    """The message and the hint as ``check`` prints them in ``language``."""
    lines = diagnostic.render(language).splitlines()
    message = lines[0].split(f"[{diagnostic.code}]: ", 1)[1]
    hint = next((line[len("    hint: "):] for line in lines[1:] if line.startswith("    hint: ")), "")
    return message, hint


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_and_hint_prints_translated(said: list[Diagnostic], language: str) -> None:
    left: dict[str, list[str]] = {}
    count = 0
    for diagnostic in said:
        for english, translated in zip(rendered(diagnostic, None), rendered(diagnostic, language)):
            runs = [r for r in untranslated(english, translated) if r not in SOURCE_TEXT.get(diagnostic.code, set())]
            if runs:
                left.setdefault(diagnostic.code, []).extend(runs)
                count += 1
    assert left == {}, (f"{count} messages or hints print in English: add entries for them to "
                        f"src/qti_builder/locale/{language}/LC_MESSAGES/qti_builder.po (and the other catalogs)")


def _literals(node: ast.expr) -> list[str]:
    """The literal parts of a string or f-string expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return []


def _words(parts: list[str]) -> str:
    """The longest literal part: enough to know the message by in its English rendering."""
    return max(parts, key=len).strip() if parts else ""


def profile_messages() -> dict[str, str]:
    """Each message the profiles' checks can say (profiles.py's yields and QB601 warnings, the
    kinds' ``losses``), by its place in the source, and its words."""
    found: dict[str, str] = {}
    path = PACKAGE / "profiles.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Yield) and node.value is not None and _literals(node.value):  # not _subtree's sections
            found[f"profiles.py:{node.lineno}"] = _words(_literals(node.value))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "warning" and node.args:
            found[f"profiles.py:{node.lineno}"] = _words(_literals(node.args[1]))
    from qti_builder.kinds import KINDS

    for name, spec in KINDS.items():
        for profile, losses in spec.losses.items():
            for i, loss in enumerate(losses):
                found[f"kinds.py {name} losses[{profile!r}][{i}]"] = loss
    return found


def missing_type_hints() -> dict[str, str]:
    """Each hint QB128 can give (the returns of _missing_type_hint), by its line, and its words."""
    path = PACKAGE / "readers" / "markdown" / "questions.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_missing_type_hint")
    return {f"questions.py:{n.lineno}": _words(_literals(n.value)) for n in ast.walk(function)
            if isinstance(n, ast.Return) and n.value is not None}


def test_the_sources_make_every_profile_message_and_qb128_hint_said(said: list[Diagnostic]) -> None:
    # A message of a profile's check or a hint of QB128 that no source here makes is not checked
    # above: write a source that says it (and its entries in the catalogs).
    english = [text for d in said for text in (d.message, d.hint or "")]
    wanted = profile_messages() | missing_type_hints()
    assert len(wanted) >= 35 and all(wanted.values())
    unsaid = {place: words for place, words in wanted.items() if not any(words in text for text in english)}
    assert unsaid == {}


def test_a_korean_ordering_question_without_a_type_gets_its_hint_in_korean(tmp_path: Path) -> None:
    # The question's '- ' lines are its items: the hint says to add {type=ordering}, in Korean.
    source = tmp_path / "order.md"
    source.write_text("---\ntitle: t\nlanguage: ko\n---\n\n1. 순서대로 놓으시오.\n\n- 가\n- 나\n- 다\n", encoding="utf-8")
    code, _, err = run("check", str(source), "--lang", "ko")
    assert code == 1
    lines = err.splitlines()
    at = next(i for i, line in enumerate(lines) if "order.md:6:1: error[QB128]: " in line)
    assert lines[at].endswith("error[QB128]: 보기도 정답도 없는 문항입니다"), lines
    assert lines[at + 1] == "    hint: 문항 줄에 {type=ordering}을 붙이세요: '- ' 줄이 올바른 순서대로 놓인 항목입니다", lines


def test_canvas_warnings_print_in_korean(tmp_path: Path) -> None:
    # An ordering question, which Canvas Classic turns into drop-downs: the warning and its hint in Korean.
    source = tmp_path / "steps.md"
    source.write_text(CODES["QB601"].mistake, encoding="utf-8")
    code, _, err = run("check", str(source), "--lang", "ko", "--profile", "canvas")
    assert code == 0
    lines = err.splitlines()
    at = next(i for i, line in enumerate(lines) if "warning[QB601]: " in line)
    assert lines[at].endswith("steps.md:4:1: warning[QB601]: Canvas: Canvas Classic에는 순서 배열 유형이 없습니다: "
                              "자리마다 모든 항목을 나열한 드롭다운 하나가 되고, 전부 맞아야 점수를 주는 대신 자리마다 "
                              "점수를 줍니다 (문항 'steps')"), lines
    assert lines[at + 1] == "    hint: Canvas에서 각 유형이 어떻게 되는지는 'qti-builder docs question-types'를 보세요", lines


def test_a_projects_messages_print_in_the_language_asked(tmp_path: Path) -> None:
    # No quiz source in the folder named (QB232), and --only naming a question no quiz has (QB234):
    # messages of the command, not of a quiz, in the --lang asked.
    (tmp_path / "empty").mkdir()
    source = tmp_path / "week2.md"
    source.write_text(TOGETHER["week2.md"], encoding="utf-8")
    said = []
    for args, code in ((("check", str(tmp_path / "empty")), "QB232"),
                       (("build", str(source), "--out", str(tmp_path / "out"), "--only", "nope"), "QB234")):
        _, _, err = run(*args, "--lang", "ko")
        lines = err.splitlines()
        at = next(i for i, line in enumerate(lines) if f"error[{code}]: " in line)
        said += [lines[at].split("]: ", 1)[1], lines[at + 1].removeprefix("    hint: ")]
    assert said[0].endswith("에 퀴즈 소스가 없습니다"), said
    assert said[2] == "--only가 가리키는 문항 'nope'은(는) 어느 퀴즈에도 없습니다", said
    assert [english_words(line) for line in said] == [[], [], [], []], said


def test_an_imports_input_level_messages_print_in_the_language_asked(tmp_path: Path) -> None:
    # An input of no format it knows (QB700), and --id given to two quizzes (QB725).
    (tmp_path / "unknown.dat").write_bytes(b"\x00\x01\x02")
    for name in ("week2.md", "week3.md"):
        (tmp_path / name).write_text(TOGETHER[name], encoding="utf-8")
    said = []
    for args, code in ((("unknown.dat",), "QB700"), (("week2.md", "week3.md", "--id", "x"), "QB725")):
        _, _, err = run("import", *(str(tmp_path / a) if a.endswith((".dat", ".md")) else a for a in args),
                        "--out", str(tmp_path / "out"), "--lang", "ko")
        lines = err.splitlines()
        at = next(i for i, line in enumerate(lines) if f"error[{code}]: " in line)
        said += [lines[at].split("]: ", 1)[1], lines[at + 1].removeprefix("    hint: ")]
    assert said[0] == "이 입력의 형식을 알 수 없습니다", said
    assert said[2] == "--id는 퀴즈 하나에 id를 주는데, 입력에는 퀴즈가 2개 있습니다", said
    assert [english_words(line) for line in said] == [[], [], [], []], said


#: A web page's quiz whose question 1 has no answer and question 2 one option: both skipped (QB713),
#: so nothing to import (QB704).
SKIPPED_PAGE = "# 小テスト\n\n## Question 1\n\n2＋2は？\n\n- A) 3\n- B) 4\n\n## Question 2\n\n水は？\n\n- A) H2O\n\nAnswer: A\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_quiz_pages_skipped_questions_print_in_the_language_asked(tmp_path: Path, language: str) -> None:
    page = tmp_path / "page.md"
    page.write_text(SKIPPED_PAGE, encoding="utf-8")
    code, _, err = run("import", str(page), "--out", str(tmp_path / "out"), "--lang", language)
    assert code == 1
    lines = err.splitlines()
    said = [line.split("]: ", 1)[1] if "]: " in line else line.removeprefix("    hint: ")
            for line in lines if "[QB704]" in line or "[QB713]" in line or line.startswith("    hint: ")]
    assert [re.sub(r"^.*page\.md:(\d+):\d+: (\w+)\[(QB\d+)\].*$", r"\1 \3", line) for line in lines if "[QB7" in line] == \
        ["1 QB704", "3 QB713", "10 QB713"], lines
    assert len(said) == 5 and [english_words(line) for line in said] == [[]] * 5, said
    if language == "ko":
        assert "page.md:3:1: warning[QB713]: 문항 '2＋2は？'을(를) 건너뛰었습니다: 보기는 있지만 그중 하나를 가리키는 정답이 없습니다" in \
            [line[line.index("page.md"):] for line in lines if "page.md" in line], lines


# -- The importers: what ``import --lang`` prints of each input ------------------------------------
#
# Inputs of each importer, written to make its messages appear: every QB7xx code's example that a
# small file reproduces (QB700-QB717, QB722, QB723, QB730; QB725 above) and what the Moodle XML,
# GIFT, Aiken and Canvas (QTI 1.2) importers most often say: a question type skipped, a part lost,
# HTML kept raw or sanitised, media missing, an answer Moodle reads otherwise, the input refused.

MOODLE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Week 1</text></category></question>
  <question type="multichoice">
    <name><text>No answer</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which one?</p>]]></text></questiontext>
    <single>true</single>
    <answer fraction="0"><text>a</text></answer>
    <answer fraction="0"><text>b</text></answer>
  </question>
  <question type="stack">
    <name><text>Stack</text></name>
    <questiontext format="html"><text>Differentiate x^2.</text></questiontext>
  </question>
  <question type="multichoice">
    <name><text>Hints</text></name>
    <questiontext format="html"><text><![CDATA[<p onclick="x()">Pick <script>alert(1)</script> one <img src="@@PLUGINFILE@@/pic.png"> <font color="red">now</font></p>]]></text></questiontext>
    <single>true</single>
    <penalty>0.5</penalty>
    <answer fraction="100"><text>a</text><feedback><text>Yes</text></feedback></answer>
    <answer fraction="0"><text>b</text></answer>
    <hint format="html"><text>Think.</text></hint>
    <tags><tag><text>t1</text></tag></tags>
  </question>
  <question type="truefalse">
    <name><text>TF</text></name>
    <questiontext format="html"><text>Is it?</text><file name="x.png" encoding="base64">!!!notbase64</file></questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>SA</text></name>
    <questiontext format="moodle_auto_format"><text>Who?</text></questiontext>
    <usecase>1</usecase>
    <answer fraction="100"><text>Kim</text></answer>
    <answer fraction="50"><text>Lee</text></answer>
  </question>
  <question type="numerical">
    <name><text>Num</text></name>
    <questiontext format="html"><text>How many?</text></questiontext>
    <answer fraction="100"><text>3</text><tolerance>0.1</tolerance></answer>
    <units><unit><multiplier>1</multiplier><unit_name>cm</unit_name></unit><unit><multiplier>10</multiplier><unit_name>mm</unit_name></unit></units>
    <unitgradingtype>1</unitgradingtype><unitpenalty>0.1</unitpenalty>
  </question>
  <question type="essay">
    <name><text>Essay</text></name>
    <questiontext format="html"><text>Why?</text></questiontext>
    <responseformat>editorfilepicker</responseformat><responsefieldlines>10</responsefieldlines><attachments>2</attachments>
    <graderinfo format="html"><text>Look for x.</text></graderinfo>
    <responsetemplate format="html"><text>Start here</text></responsetemplate>
  </question>
  <question type="matching">
    <name><text>Match</text></name>
    <questiontext format="html"><text>Match.</text></questiontext>
    <shuffleanswers>true</shuffleanswers>
    <subquestion format="html"><text>a</text><answer><text>1</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>2</text></answer></subquestion>
    <subquestion format="html"><text>c</text><answer><text>3</text></answer></subquestion>
  </question>
  <question type="multianswer">
    <name><text>Cloze</text></name>
    <questiontext format="html"><text>The sky is {1:SHORTANSWER:=blue~%50%azure} and {1:MULTICHOICE:=one~two}.</text></questiontext>
  </question>
  <question type="ddwtos">
    <name><text>DD</text></name>
    <questiontext format="html"><text>The [[1]] is [[2]].</text></questiontext>
    <dragbox><text>sky</text><group>1</group></dragbox>
    <dragbox><text>blue</text><group>2</group><infinite/></dragbox>
  </question>
  <question type="gapselect">
    <name><text>GS</text></name>
    <questiontext format="html"><text>The [[1]] is [[2]].</text></questiontext>
    <selectoption><text>sky</text><group>1</group></selectoption>
    <selectoption><text>blue</text><group>1</group></selectoption>
  </question>
  <question type="calculated">
    <name><text>Calc</text></name>
    <questiontext format="html"><text>What is {a} + 1?</text></questiontext>
    <answer fraction="100"><text>{a} + 1</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength></answer>
    <dataset_definitions><dataset_definition><status><text>private</text></status><name><text>a</text></name><type>calculated</type><distribution><text>uniform</text></distribution><minimum><text>1</text></minimum><maximum><text>10</text></maximum><decimals><text>0</text></decimals><itemcount>2</itemcount><dataset_items><dataset_item><number>1</number><value>3</value></dataset_item><dataset_item><number>2</number><value>4</value></dataset_item></dataset_items></dataset_definition></dataset_definitions>
  </question>
  <question type="randomsamatch">
    <name><text>RSM</text></name>
    <questiontext format="html"><text>Match random.</text></questiontext>
    <choose>3</choose>
  </question>
  <question type="random">
    <name><text>Random</text></name>
    <questiontext format="html"><text>0</text></questiontext>
  </question>
  <question type="description">
    <name><text>Desc</text></name>
    <questiontext format="html"><text><![CDATA[<p>Read this. <iframe src="https://example.com"></iframe></p>]]></text></questiontext>
  </question>
  <question type="ordering">
    <name><text>Ord</text></name>
    <questiontext format="html"><text>Order.</text></questiontext>
    <layouttype>HORIZONTAL</layouttype><selecttype>ALL</selecttype><selectcount>0</selectcount><gradingtype>RELATIVE_TO_CORRECT</gradingtype>
    <answer fraction="1"><text>a</text></answer><answer fraction="2"><text>b</text></answer>
  </question>
  <question type="multichoice">
    <name><text>Multi</text></name>
    <questiontext format="html"><text>Which?</text></questiontext>
    <single>false</single>
    <answer fraction="50"><text>a</text></answer>
    <answer fraction="50"><text>b</text></answer>
    <answer fraction="-100"><text>c</text></answer>
  </question>
</quiz>
"""

#: What Moodle XML's other types lose or cannot give: partial credit, units, attachments, cloze
#: blanks, gaps, calculated answers, ID numbers that are not one line, images not embedded.
MOODLE_LOSSES = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Week 2</text></category><idnumber>W2
x</idnumber></question>
  <question type="multichoice">
    <name><text>Partial</text></name>
    <questiontext format="html"><text>Which one?</text></questiontext>
    <idnumber>Q 1
2</idnumber>
    <single>true</single><answernumbering>iii</answernumbering>
    <answer fraction="100"><text>a</text></answer>
    <answer fraction="50"><text>b</text></answer>
    <answer fraction="0"><text>c</text></answer>
  </question>
  <question type="multichoice">
    <name><text>Two right</text></name>
    <questiontext format="html"><text>Which one?</text></questiontext>
    <questiontext format="html"><text>Again?</text></questiontext>
    <single>true</single>
    <answer fraction="100"><text>a</text></answer>
    <answer fraction="100"><text>b</text></answer>
  </question>
  <question type="truefalse">
    <name><text>TF none</text></name>
    <questiontext format="html"><text>Is it?</text></questiontext>
    <answer fraction="0"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
  <question type="numerical">
    <name><text>Num text</text></name>
    <questiontext format="html"><text>How many?</text></questiontext>
    <answer fraction="100"><text>3</text><tolerance>0</tolerance></answer>
    <answer fraction="0"><text>three</text><tolerance>0</tolerance></answer>
  </question>
  <question type="essay">
    <name><text>Essay files</text></name>
    <questiontext format="html"><text>Why?</text></questiontext>
    <responseformat>monospaced</responseformat><attachments>-1</attachments>
    <filetypeslist>document,.pdf</filetypeslist>
  </question>
  <question type="ordering">
    <name><text>Ord some</text></name>
    <questiontext format="html"><text>Order.</text></questiontext>
    <selecttype>RANDOM</selecttype><selectcount>2</selectcount>
    <answer fraction="1"><text>a</text></answer><answer fraction="2"><text>b</text></answer><answer fraction="3"><text>c</text></answer>
  </question>
  <question type="multianswer">
    <name><text>Cloze more</text></name>
    <questiontext format="html"><text>A {1:SHORTANSWER:=blue#yes~*#no} B {1:NUMERICAL:=3:0.5} C {1:MCV:=x~=y~z} D {1:SA:=Kim} E {1:SAC:=Lee}</text></questiontext>
  </question>
  <question type="multianswer">
    <name><text>Cloze broken</text></name>
    <questiontext format="html"><text>A {1:BOGUS:=x}</text></questiontext>
  </question>
  <question type="ddimageortext">
    <name><text>DDI</text></name>
    <questiontext format="html"><text>Drag.</text></questiontext>
  </question>
  <question type="gapselect">
    <name><text>GS gaps</text></name>
    <questiontext format="html"><text>The [[1]] is [[3]].</text></questiontext>
    <shuffleanswers>0</shuffleanswers>
    <selectoption><text>sky</text><group>1</group></selectoption>
    <selectoption><text>sea</text><group>1</group></selectoption>
  </question>
  <question type="ddwtos">
    <name><text>DD ok</text></name>
    <questiontext format="html"><text>The [[1]] is [[2]].</text></questiontext>
    <shuffleanswers>0</shuffleanswers>
    <dragbox><text>sky</text><group>1</group></dragbox>
    <dragbox><text>sea</text><group>1</group></dragbox>
    <dragbox><text>blue</text><group>2</group></dragbox>
    <dragbox><text>red</text><group>2</group></dragbox>
  </question>
  <question type="gapselect">
    <name><text>No gap</text></name>
    <questiontext format="html"><text>No gaps here.</text></questiontext>
    <selectoption><text>sky</text><group>1</group></selectoption>
  </question>
  <question type="calculated">
    <name><text>Calc geo</text></name>
    <questiontext format="html"><text>What is {a} + 1?</text></questiontext>
    <answer fraction="100"><text>{a} + 1</text><tolerance>0.01</tolerance><tolerancetype>3</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength></answer>
    <answer fraction="50"><text>{a} + 2</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength></answer>
    <dataset_definitions><dataset_definition><status><text>private</text></status><name><text>a</text></name><type>calculated</type><distribution><text>uniform</text></distribution><minimum><text>1</text></minimum><maximum><text>10</text></maximum><decimals><text>0</text></decimals><itemcount>1</itemcount><dataset_items><dataset_item><number>1</number><value>3</value></dataset_item></dataset_items></dataset_definition></dataset_definitions>
  </question>
  <question type="calculated">
    <name><text>Calc none</text></name>
    <questiontext format="html"><text>What is {a}?</text></questiontext>
    <answer fraction="50"><text>{a}</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength></answer>
    <dataset_definitions><dataset_definition><status><text>private</text></status><name><text>a</text></name><type>calculated</type><distribution><text>uniform</text></distribution><minimum><text>1</text></minimum><maximum><text>10</text></maximum><decimals><text>0</text></decimals><itemcount>1</itemcount><dataset_items><dataset_item><number>1</number><value>3</value></dataset_item></dataset_items></dataset_definition></dataset_definitions>
  </question>
  <question type="matching">
    <name><text>Match img</text></name>
    <questiontext format="html"><text><![CDATA[Match. <img src="data:image/png;base64,!!!">]]></text></questiontext>
    <subquestion format="html"><text>a</text><answer><text>1</text></answer></subquestion>
    <subquestion format="html"><text>b</text><answer><text>2</text></answer></subquestion>
  </question>
  <question type="shortanswer">
    <name><text>SA img</text></name>
    <questiontext format="html"><text>Who?</text></questiontext>
    <image>pic.png</image>
    <answer fraction="100"><text>Kim</text></answer>
  </question>
</quiz>
"""

GIFT = """// a comment
$CATEGORY: $course$/Week 1

::Q1:: Is it? {true}

::Q2:: The capital of France is {=Paris ~London ~Berlin}.

::Q3:: Pick all {~%50%a ~%50%b ~%-100%c}

::Q4:: How many? {#3:0.5}

::Q5:: Match {=a -> 1 =b -> 2 =c -> 3}

::Q6:: Essay {}

::Q7:: [markdown] **Bold** question {=x}

::Q8:: Broken {=a ~b

::Q9:: No answer {~a ~b}

::Q10:: Range {#1..5}

::Q11:: Multi number {#=3:0 =%50%4:0}

::Q12:: Weird {=a#fb1 ~b#fb2 ####general}

Description only text.

::Q13:: Short {=kim =lee}
"""

#: What GIFT's weights, numbers, pairs and braces make the importer lose, note or refuse.
GIFT_MORE = """$CATEGORY: $course$/Week 3
::G1:: Pick one {=a ~%50%b ~c}

::G2:: Pick {=a =b ~c}

::G3:: Weighted short {=%150%kim =lee}

::G4:: Bad weight {~%abc%a ~b}

::G5:: Odd weight {~%33%a ~%67%b}

::G6:: Best {=%50%kim}

::G7:: Number {#=abc =3}

::G8:: No number {#abc}

::G9:: Range {#5..x}

::G10:: Margin {#3:x}

::G11:: Pairs {=a -> 1}

::G12:: Arrow {=a -> 1 =b}

::G13:: Prompt {=a -> 1 =b -> }

::G14:: One {=a}

::G15:: Formula \\( x^{2} \\) is {=a ~b}

::G16:: Two {=a ~b} and {=c ~d}

::G17:: Image <img src="@@PLUGINFILE@@/x.png"> {=a ~b}

::G18:: Weight = {=%50%a ~b}

::G19:: Empty {=kim = }

::G20:: Numbers {#}

::G21:: Short empty {=}

::G22:: Negative {=kim =%-50%lee}
"""

GIFT_PLAIN = """$CATEGORY: $course$/Plain
What is 2+2? {=4 ~3}
0
::P2:: Next {=a ~b}

What? {=a}
"""

AIKEN = """Which is right?
A text one
B text two
ANSWER: b

CAP. II
Second question?
1) alpha
2) beta
ANSWER: 1

Third?
A) x
B) y
ANSWER: C

Fourth with no answer?
A) x
B) y

0
A) zero
B) one
ANSWER: A
"""


#: Aiken's dialects and the questions Moodle would refuse; an answer before any question.
AIKEN_MORE = """What is the first letter?
A alpha
B beta
ANSWER: A

Second letter?
A) alpha
B) beta
ANSWER: b

Third one?
A) alpha
B) beta
תשובה: B

Fourth one?
NUMBERING: IIII
A) alpha
B) beta
ANSWER: A

Fifth one?
A) first
B) second
ANSWER: א

Sixth one?
A alpha goes
on here
B beta
ANSWER: A

Seventh one?
A) alpha
B) beta
Eighth one?
A) x
B) y
ANSWER: A

Ninth one?
A) alpha
B)
ANSWER: B

Tenth one?
A) alpha
ANSWER: A

Last one?
A) alpha
B) beta
"""

AIKEN_STRAY = """A) lonely option
ANSWER: A

Real question?
A) yes
B) no
ANSWER: A
"""

def _item(ident: str, kind: str, stem: str, body: str, extra_meta: str = "") -> str:
    """A Canvas item of ``kind`` (its question_type) with its stem and presentation."""
    return f"""      <item ident="{ident}" title="{ident}">
        <itemmetadata><qtimetadata>
          <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>{kind}</fieldentry></qtimetadatafield>
          <qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>1.0</fieldentry></qtimetadatafield>{extra_meta}
        </qtimetadata></itemmetadata>
        <presentation><material><mattext texttype="text/html">{stem}</mattext></material>{body}</presentation>
      </item>
"""


_CHOICES = """<response_lid ident="response1" rcardinality="Single"><render_choice>
          <response_label ident="1"><material><mattext texttype="text/html">a</mattext></material></response_label>
          <response_label ident="2"><material><mattext texttype="text/html">b</mattext></material></response_label>
        </render_choice></response_lid>"""

_ESSAY = "&lt;p&gt;Why? &lt;img src=&quot;$IMS-CC-FILEBASE$/pic.png&quot;&gt;&lt;script&gt;x()&lt;/script&gt;&lt;/p&gt;"

CANVAS_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="quiz1" title="Canvas quiz">
    <qtimetadata>
      <qtimetadatafield><fieldlabel>cc_maxattempts</fieldlabel><fieldentry>1</fieldentry></qtimetadatafield>
    </qtimetadata>
    <section ident="root_section">
{_item("nocorrect", "multiple_choice_question", "Which?", _CHOICES)}
{_item("hot", "hot_spot_question", "Click.", "")}
{_item("ess", "essay_question", _ESSAY, '<response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>')}
{_item("fu", "file_upload_question", "Send.", "")}
{_item("unknown", "mystery_question", "What?", "")}
{_item("txt", "text_only_question", "Read.", "")}
{_item("num", "numerical_question", "How many?", '<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal"><response_label ident="answer1"/></render_fib></response_str>')}
{_item("sa", "short_answer_question", "Who?", '<response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>')}
    </section>
  </assessment>
</questestinterop>
"""

#: Inputs the other codes' examples describe: each its own file (name, bytes).
BROKEN = {
    "notes.dat": b"\x00\x01\x02 not a quiz",
    "truncated.xml": b"<?xml version='1.0'?>\n<quiz>\n  <question type=\"essay\">\n    <name><text>Q",
    "entities.xml": b"<?xml version='1.0'?>\n<!DOCTYPE quiz [<!ENTITY x \"y\">]>\n<quiz><question type=\"essay\"><name><text>&x;</text></name></question></quiz>\n",
    "mismatch.xml": b"<?xml version='1.0'?>\n<quiz>\n  <question type=\"essay\"></quiz>\n",
    "ampersand.xml": b"<?xml version='1.0'?>\n<quiz>\n  <question type=\"essay\">Q & A</question>\n</quiz>\n",
    "empty.xml": b"<?xml version='1.0'?>\n<quiz>\n</quiz>\n",
    "other.xml": b"<?xml version='1.0'?>\n<question type=\"essay\"><name><text>Q</text></name></question>\n",
}

#: Quiz pages: a key entry for a question the page does not have (QB705), an answer the key
#: contradicts (QB716), a points rule after a question (QB722), text after the closing mark (QB723),
#: a word answer outside any section (QB706).
PAGES = {
    "key.md": "# Quiz\n\n## Question 1\n\nWhich?\n\n- A) a\n- B) b\n\n## Question 2\n\nWhich?\n\n- A) a\n- B) b\n\n## Answer key\n\n1. A\n2. B\n3. A\n",
    "twice.md": "# Quiz\n\n## Question 1\n\nWhich?\n\n- A) a\n- B) b\n\nAnswer: A\n\n## Question 2\n\nWhich?\n\n- A) a\n- B) b\n\nAnswer: B\n\n## Answer key\n\n1. A\n2. A\n",
    "end.md": "# 퀴즈\n\n## Question 1\n\n무엇인가?\n\n- A) 가\n- B) 나\n\nAnswer: A\n\n- 끝 -\n\n수고하셨습니다 여러분\n",
    "word.md": "# Quiz\n\n## Question 1\n\nThe capital?\n\nAnswer: Seoul\n\n## Question 2\n\nWhich?\n\n- A) a\n- B) b\n\nAnswer: A\n",
    "rule.md": "# Quiz\n\n## Question 1\n\nWhich?\n\n- A) a\n- B) b\n\nAnswer: A\n\n（每题4分，共24分。）\n\n## Question 2\n\nWhich?\n\n- A) a\n- B) b\n\nAnswer: B\n",
}


def _zip(entries: dict[str, str]) -> bytes:
    """A zip of the entries, as they are named (../ and absolute paths too)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


MANIFEST = """<?xml version="1.0"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><resources>
<resource identifier="i1" type="imsqti_item_xmlv2p1" href="item.xml"><file href="item.xml"/></resource>
</resources></manifest>"""
ITEM21 = """<?xml version="1.0"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i1" title="I" adaptive="false" timeDependent="false">
<itemBody><p>Why?</p><extendedTextInteraction responseIdentifier="RESPONSE"/></itemBody></assessmentItem>"""
ZIPS = {
    "slip.zip": {"quiz.xml.qti": CANVAS_XML, "../../etc/passwd": "x"},
    "rexams.zip": {"imsmanifest.xml": MANIFEST, "item.xml": ITEM21, "/abs/item.xml": ITEM21},
}


#: A Canvas quiz export whose settings the source has no place for, with questions Canvas left
#: incomplete, a link to a file it lacks, an item without its type and an itemref to no item.
_CANVAS_META = """<?xml version="1.0" encoding="UTF-8"?>
<quiz xmlns="http://canvas.instructure.com/xsd/cccv1p0" identifier="q2">
  <title>Settings</title>
  <time_limit>-5</time_limit>
  <access_code>secret</access_code>
  <due_at>2026-12-01T00:00:00</due_at>
  <unlock_at>2026-11-01T00:00:00</unlock_at>
  <lock_at>2026-12-02T00:00:00</lock_at>
  <ip_filter>10.0.0.0/8</ip_filter>
  <require_lockdown_browser>true</require_lockdown_browser>
  <one_time_results>true</one_time_results>
  <show_correct_answers_last_attempt>true</show_correct_answers_last_attempt>
  <show_correct_answers_at>2026-12-03T00:00:00</show_correct_answers_at>
  <hide_correct_answers_at>2026-12-04T00:00:00</hide_correct_answers_at>
  <hide_results>always</hide_results>
  <scoring_policy>keep_lowest</scoring_policy>
  <quiz_type>survey</quiz_type>
</quiz>
"""
_CANVAS_QTI = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">
  <assessment ident="q2" title="Settings">
    <section ident="root_section">
{_item("tf", "true_false_question", "True?", _CHOICES)}
{_item("mc0", "multiple_choice_question", "Which?", "")}
{_item("ma0", "multiple_answers_question", "Which?", "")}
{_item("fib0", "fill_in_multiple_blanks_question", "Fill.", "")}
{_item("cat0", "categorization_question", "Sort.", "")}
{_item("ord0", "ordering_question", "Order.", "")}
{_item("calc0", "calculated_question", "Compute.", "")}
{_item("link", "essay_question", "&lt;p&gt;See &lt;a href=&quot;/courses/1/pages/intro&quot;&gt;intro&lt;/a&gt; and &lt;a href=&quot;$IMS-CC-FILEBASE$/notes.pdf&quot;&gt;notes&lt;/a&gt;&lt;/p&gt;", "")}
      <item ident="untyped" title="untyped">
        <presentation><material><mattext>Pick.</mattext></material>{_CHOICES}</presentation>
      </item>
      <itemref linkrefid="gone"/>
    </section>
  </assessment>
</questestinterop>
"""
CANVAS_ZIP = _zip({"q2/q2.xml.qti": _CANVAS_QTI, "q2/assessment_meta.xml": _CANVAS_META})


#: A Moodle question whose ID number Markdown cannot hold: its quiz is written as YAML, as import says.
MOODLE_AS_YAML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/W</text></category><idnumber>W</idnumber></question>
  <question type="essay">
    <name><text>Q</text></name>
    <idnumber>it's {odd}</idnumber>
    <questiontext format="html"><text>Why?</text></questiontext>
  </question>
</quiz>
"""

#: Packages refused or read in part: every entry unsafe, a file held twice, copies under '../'; a
#: zip and a Moodle backup that cannot be read (named by --format), XML using an undeclared entity.
UNSAFE_ONLY = _zip({"/abs/quiz.xml.qti": CANVAS_XML})
COPIES = _zip({"imsmanifest.xml": MANIFEST, "item.xml": ITEM21, "../item.xml": ITEM21})


def _twice() -> bytes:
    """A zip holding one entry twice (zipfile warns, and writes it)."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("q/q.xml.qti", CANVAS_XML)
            archive.writestr("q/q.xml.qti", CANVAS_XML)
    return buffer.getvalue()



# -- The other importers: QTI 2.1 packages, Moodle quiz backups, text2qti, Blackboard, quiz pages' HTML --
#
# Inputs that make each say what it most often says: an interaction no kind has, the parts of an
# item the source cannot keep, a test's settings, items a package lacks; a backup's settings and
# random slots Moodle has and the source does not; text2qti's options and lines of no question;
# Blackboard's types no reader takes; a page's <details>, HTML quizzes and mkdocs-quiz blocks.

#: text2qti: options it has no setting for or cannot read, lines of no question, a macro, a number
#: it cannot read, a question of no type, code it does not run.
TEXT2QTI = """Quiz title: Cells
Quiz description: About cells.
shuffle answers: maybe
feedback is shown: true

Stray words before any question.

*a) an orphan choice

Title: Q1
1.  What is \\num{3} plus one?
a)  3
*b) 4

2.  How many cells?
=   abc

3.  Nothing to answer here?

```{.python .run}
print(1)
```

4.  Why?
____
"""

QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"


def _item21(ident: str, body: str, decls: str = "", processing: str = "", attrs: str = "") -> str:
    """A QTI 2.1 assessmentItem: its response declarations, body and processing."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="{QTI}" identifier="{ident}" title="{ident}" adaptive="false" timeDependent="false"{attrs}>
{decls}
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
<itemBody>{body}</itemBody>
{processing}
</assessmentItem>"""

_CHOICE_DECL = """<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
<correctResponse><value>A</value></correctResponse>
<mapping defaultValue="0"><mapEntry mapKey="A" mappedValue="2"/><mapEntry mapKey="B" mappedValue="1"/></mapping>
</responseDeclaration>"""
_CHOICES = """<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
<simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice><simpleChoice identifier="C">c</simpleChoice>
</choiceInteraction>"""
_MAP_RP = '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>'
_MATCH_RP = '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>'

#: QTI 2.1 items, each for what the importer cannot keep of it or why it skips it.
ITEMS21 = {
    "hotspot.xml": _item21("Hotspot", """<p>Click.</p><hotspotInteraction responseIdentifier="RESPONSE" maxChoices="1">
<object type="image/png" data="map.png" width="10" height="10"/>
<hotspotChoice identifier="H1" shape="circle" coords="5,5,2"/></hotspotInteraction>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>H1</value></correctResponse></responseDeclaration>', _MATCH_RP),
    "partial.xml": _item21("Partial", "<p>Which?</p>" + _CHOICES, _CHOICE_DECL, _MAP_RP),
    "slider.xml": _item21("Slider", """<p>How hot?</p><sliderInteraction responseIdentifier="RESPONSE" lowerBound="0" upperBound="100" step="5"/>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="integer"><correctResponse><value>37</value></correctResponse></responseDeclaration>', _MATCH_RP),
    "essay.xml": _item21("Essay", """<p>Why?</p><extendedTextInteraction responseIdentifier="RESPONSE" expectedLength="500"/>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>'),
    "upload.xml": _item21("Upload", """<p>Send.</p><uploadInteraction responseIdentifier="RESPONSE" type="application/x-odd"/>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="file"/>'),
    "pattern.xml": _item21("Pattern", """<p>Who? <textEntryInteraction responseIdentifier="RESPONSE"/></p>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"><correctResponse><value>Kim</value></correctResponse></responseDeclaration>',
        """<responseProcessing><responseCondition><responseIf><patternMatch pattern="K[a-z]+"><variable identifier="RESPONSE"/></patternMatch>
<setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"""),
    "tf.xml": _item21("TrueFalse", """<p>Sure?</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
<simpleChoice identifier="T">True</simpleChoice><simpleChoice identifier="F">False</simpleChoice></choiceInteraction>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"/>', _MATCH_RP),
    "hottext.xml": _item21("Hottext", """<hottextInteraction responseIdentifier="RESPONSE" maxChoices="1"><p>The <hottext identifier="H1">sun</hottext> is <hottext identifier="H2">cold</hottext>.</p></hottextInteraction>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"/>', _MATCH_RP),
    "adaptive.xml": _item21("Adaptive", "<p>Which?</p>" + _CHOICES + '<p><endAttemptInteraction responseIdentifier="HINTREQUEST" title="Show a hint"/></p>',
        _CHOICE_DECL.replace('mappedValue="1"', 'mappedValue="0"')
        + '<responseDeclaration identifier="HINTREQUEST" cardinality="single" baseType="boolean"/>', _MATCH_RP
        + '<modalFeedback outcomeIdentifier="FEEDBACK" identifier="HINT" showHide="show">Think.</modalFeedback>', ' ').replace('adaptive="false"', 'adaptive="true"'),
    "twomatch.xml": _item21("Twosets", """<matchInteraction responseIdentifier="RESPONSE" maxAssociations="2">
<simpleMatchSet><simpleAssociableChoice identifier="A" matchMax="1">a</simpleAssociableChoice></simpleMatchSet>
</matchInteraction>""", '<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair"/>', _MATCH_RP),
    "twointeractions.xml": _item21("Two", "<p>Which?</p>" + _CHOICES + '<p>And <textEntryInteraction responseIdentifier="R2"/></p>',
        _CHOICE_DECL + '<responseDeclaration identifier="R2" cardinality="single" baseType="string"/>', _MATCH_RP),
    "nobody.xml": f'<?xml version="1.0"?><assessmentItem xmlns="{QTI}" identifier="nobody" title="No body" adaptive="false" timeDependent="false"></assessmentItem>',
    "gaps.xml": _item21("Gaps", """<gapMatchInteraction responseIdentifier="RESPONSE">
<gapText identifier="W1" matchMax="1">sun</gapText><gapText identifier="W2" matchMax="1">moon</gapText><gapText identifier="W3" matchMax="1">star</gapText>
<p>The <gap identifier="G1"/> shines by day, the <gap identifier="G2"/> by night.</p></gapMatchInteraction>""",
        """<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair">
<correctResponse><value>W1 G1</value><value>W2 G2</value></correctResponse>
<mapping defaultValue="-1"><mapEntry mapKey="W1 G1" mappedValue="1"/><mapEntry mapKey="W2 G2" mappedValue="2"/></mapping>
</responseDeclaration>""", _MAP_RP),
    "pairs.xml": _item21("Pairs", """<associateInteraction responseIdentifier="RESPONSE" maxAssociations="2">
<simpleAssociableChoice identifier="A" matchMax="1">cat</simpleAssociableChoice><simpleAssociableChoice identifier="B" matchMax="1">kitten</simpleAssociableChoice>
<simpleAssociableChoice identifier="C" matchMax="1">dog</simpleAssociableChoice><simpleAssociableChoice identifier="D" matchMax="1">puppy</simpleAssociableChoice>
</associateInteraction>""",
        """<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="pair">
<correctResponse><value>A B</value><value>C D</value></correctResponse></responseDeclaration>""", _MATCH_RP),
    "match.xml": _item21("Match", """<matchInteraction responseIdentifier="RESPONSE" maxAssociations="3">
<simpleMatchSet><simpleAssociableChoice identifier="P1" matchMax="2">cat</simpleAssociableChoice><simpleAssociableChoice identifier="P2" matchMax="1">dog</simpleAssociableChoice>
<simpleAssociableChoice identifier="P3" matchMax="1">cow</simpleAssociableChoice></simpleMatchSet>
<simpleMatchSet><simpleAssociableChoice identifier="T1" matchMax="1">meow</simpleAssociableChoice><simpleAssociableChoice identifier="T2" matchMax="1">purr</simpleAssociableChoice>
<simpleAssociableChoice identifier="T3" matchMax="1">woof</simpleAssociableChoice></simpleMatchSet></matchInteraction>""",
        """<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair">
<correctResponse><value>P1 T1</value><value>P1 T2</value><value>P2 T3</value></correctResponse></responseDeclaration>""", _MATCH_RP),
    "media.xml": _item21("Media", """<p>See <img src="missing.png" alt="x"/> and <a href="notes.pdf">notes</a>.</p>
<p>Why? <feedbackInline outcomeIdentifier="FEEDBACK" identifier="F1" showHide="show">Think.</feedbackInline></p>
<extendedTextInteraction responseIdentifier="RESPONSE"/>""",
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>'),
    "template.xml": _item21("Templated", "<p>What is <printedVariable identifier=\"A\" format=\"%.2f\"/> + 1? <textEntryInteraction responseIdentifier=\"RESPONSE\"/></p>",
        """<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"/>
<templateDeclaration identifier="A" cardinality="single" baseType="float" mathVariable="true"/>""",
        """<templateProcessing><setTemplateValue identifier="A"><randomFloat min="1" max="2"/></setTemplateValue></templateProcessing>
<responseProcessing><responseCondition><responseIf><equal toleranceMode="exact"><variable identifier="RESPONSE"/><sum><variable identifier="A"/><baseValue baseType="float">1</baseValue></sum></equal>
<setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"""),
}

#: A test with limits and controls the source has no setting for, a reference to an item the
#: package lacks, one outside it, and a section in another file.
TEST21 = f"""<?xml version="1.0" encoding="UTF-8"?>
<assessmentTest xmlns="{QTI}" identifier="t" title="Test">
<timeLimits maxTime="90" minTime="10" allowLateSubmission="true"/>
<testPart identifier="p" navigationMode="nonlinear" submissionMode="individual">
<itemSessionControl maxAttempts="1" allowReview="false" allowComment="true"/>
<assessmentSection identifier="s" title="S" visible="true">
<timeLimits maxTime="60"/>
{''.join(f'<assessmentItemRef identifier="r{i}" href="items/{name}"/>' for i, name in enumerate(ITEMS21))}
<assessmentItemRef identifier="gone" href="items/gone.xml"/>
<assessmentItemRef identifier="out" href="../outside.xml"/>
<assessmentSectionRef identifier="elsewhere" href="section.xml"/>
</assessmentSection></testPart></assessmentTest>"""

MANIFEST21 = f"""<?xml version="1.0"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><metadata/><resources>
<resource identifier="test" type="imsqti_test_xmlv2p1" href="test.xml"><file href="test.xml"/></resource>
{''.join(f'<resource identifier="i{i}" type="imsqti_item_xmlv2p1" href="items/{name}"><file href="items/{name}"/></resource>' for i, name in enumerate(ITEMS21))}
<resource identifier="loose" type="imsqti_item_xmlv2p1" href="items/loose.xml"><file href="items/loose.xml"/></resource>
<resource identifier="old" type="imsqti_item_xmlv1p2" href="old.xml"><file href="old.xml"/></resource>
</resources></manifest>"""

QTI21_ZIP = _zip({"imsmanifest.xml": MANIFEST21, "test.xml": TEST21, "old.xml": "<questestinterop/>",
                  "items/loose.xml": _item21("Loose", "<p>Why?</p><extendedTextInteraction responseIdentifier=\"RESPONSE\"/>",
                                             '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>'),
                  **{f"items/{name}": text for name, text in ITEMS21.items()}})
QTI21_BADMANIFEST = _zip({"imsmanifest.xml": "<manifest", "item.xml": ITEMS21["essay.xml"]})


#: A quiz whose Moodle quiz backup the build writes, to be changed as a teacher changes it in Moodle.
MBZ_SOURCE = """title: Backup
sections:
  - id: fixed
    title: Fixed
    questions:
      - {type: essay, id: e1, stem: Why?}
      - {type: essay, id: e2, stem: How?}
  - id: pool
    title: Pool
    description: Drawn.
    select: 1
    questions:
      - {type: essay, id: p1, stem: When?}
      - {type: essay, id: p2, stem: Where?}
"""


def _tar_members(data: bytes) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]


def _tarball(members: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return data.getvalue()


def backup() -> bytes:
    """MBZ_SOURCE as the build writes its Moodle quiz backup."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "backup.yaml"
        source.write_text(MBZ_SOURCE, encoding="utf-8")
        build(BuildOptions(sources=[source], out_dir=Path(folder) / "out", formats=["moodle-quiz"], jobs=1))
        return (Path(folder) / "out" / "backup.mbz").read_bytes()


def _slot(number: int, page: int, mark: str, condition: str) -> str:
    """A random slot of a Moodle 4 quiz.xml, drawing by its filter ``condition``."""
    return (f'<question_instance id="{number}"><quizid>1</quizid><slot>{number}</slot><page>{page}</page><maxmark>{mark}</maxmark>'
            f'<question_set_reference id="{number}"><usingcontextid>100</usingcontextid><component>mod_quiz</component>'
            f'<questionarea>slot</questionarea><questionscontextid>100</questionscontextid>'
            f'<filtercondition>{condition}</filtercondition></question_set_reference></question_instance>')


def changed_backup() -> bytes:
    """The backup as a teacher changes it in Moodle: settings the source has no place for, the
    draw moved among the fixed questions, random slots with another mark, a filter that cannot
    be read and a category the backup lacks."""
    members = _tar_members(backup())
    name = next(n for n in members if n.endswith("/quiz.xml"))
    quiz = members[name].decode()
    for old, new in (("<timelimit>0<", "<timelimit>90<"), ("<reviewrightanswer>69904<", "<reviewrightanswer>4096<"),
                     ("<questionsperpage>1<", "<questionsperpage>2<"), ("<grademethod>1<", "<grademethod>9<"),
                     ("<timeopen>0<", "<timeopen>1800000000<"), ("<timeclose>0<", "<timeclose>1800000001<"),
                     ("<password></password>", "<password>x</password>"), ("<grade>3.0000000<", "<grade>100.0000000<"),
                     ("<page>2</page>", "<page>1</page>"), ("&#34;includesubcategories&#34;:false", "&#34;includesubcategories&#34;:true")):
        assert old in quiz, old
        quiz = quiz.replace(old, new)
    quiz = re.sub(r'<section id="2">.*?</section>', "", quiz, flags=re.S)
    quiz = quiz.replace("</question_instances>", _slot(5, 5, "2.0000000", '{&#34;filter&#34;:{&#34;category&#34;:{&#34;jointype&#34;:1,&#34;values&#34;:[4]}}}')
                        + _slot(6, 6, "1.0000000", "nope") + _slot(7, 7, "1.0000000", '{&#34;filter&#34;:{&#34;category&#34;:{&#34;values&#34;:[999]}}}')
                        + "</question_instances>")
    members[name] = quiz.encode()
    return _tarball(members)


def _bb_item(title: str, kind: str, text: str, body: str = "") -> str:
    """A Blackboard pool's item of ``kind`` (its bbmd_questiontype)."""
    return f"""    <item title="{title}" maxattempts="0">
      <itemmetadata><bbmd_asitype>Item</bbmd_asitype><bbmd_assessmenttype>Pool</bbmd_assessmenttype>
        <bbmd_questiontype>{kind}</bbmd_questiontype><qmd_absolutescore_max>1.0</qmd_absolutescore_max></itemmetadata>
      <presentation><flow class="Block"><flow class="QUESTION_BLOCK"><flow class="FORMATTED_TEXT_BLOCK"><material><mat_extension>
        <mat_formattedtext type="HTML">{text}</mat_formattedtext></mat_extension></material></flow></flow>{body}</flow></presentation>
    </item>
"""

#: A Blackboard pool: types no reader takes, an image Blackboard kept in its csfiles.
BLACKBOARD = f"""<?xml version="1.0" encoding="UTF-8"?>
<questestinterop>
  <assessment title="Pool">
    <assessmentmetadata><bbmd_asi_object_id>_1_1</bbmd_asi_object_id><bbmd_assessmenttype>Pool</bbmd_assessmenttype></assessmentmetadata>
    <section>
{_bb_item("Bowl", "Quiz Bowl", "Who?")}
{_bb_item("Hot", "Hot Spot", "Click.")}
{_bb_item("Img", "Essay", "&lt;p&gt;See &lt;img src=&quot;@X@EmbeddedFile.requestUrlStub@X@bbcswebdav/xid-9_1&quot;&gt;&lt;/p&gt;")}
{_bb_item("Odd", "Jumbled Sentence", "Order.")}
{_bb_item("Likert", "Opinion Scale", "Agree?")}
    </section>
  </assessment>
</questestinterop>
"""
BLACKBOARD_ZIP = _zip({"imsmanifest.xml": '<?xml version="1.0"?><manifest identifier="m" xmlns:bb="http://www.blackboard.com/content-packaging/">'
                                          '<resources><resource identifier="res00001" type="assessment/x-bb-qti-pool" bb:file="res00001.dat"/>'
                                          '</resources></manifest>',
                       "res00001.dat": BLACKBOARD})

#: A quiz page's HTML: <details> blocks, HTML quizzes (a checked input, two right radio buttons, a
#: text box, no input at all) and mkdocs-quiz blocks the plugin refuses.
PAGE_HTML = """# Quiz

## Question 1

What is 2+2?

<details><summary>Note</summary>Just a note.</details>

- A) 3
- B) 4

Answer: B

<details><summary>Hint</summary>Count them.</details>

## Question 2

<form class="quiz">
<p>Which is red?</p>
<label><input type="radio" name="q2" value="a" checked> sky</label>
<label><input type="radio" name="q2" value="b" data-correct="true"> apple</label>
</form>

## Question 3

<form class="quiz"><p>Which are fruits?</p>
<label><input type="radio" name="q3" value="a" data-correct="true"> pear</label>
<label><input type="radio" name="q3" value="b" data-correct="true"> plum</label>
</form>

## Question 4

<form class="quiz"><p>Type it:</p><input type="text" name="q4"></form>

## Question 5

<div class="quiz"><p>Nothing to pick here at all.</p></div>

## Question 6

<?quiz?>
answer: a
answer-correct: b
<?/quiz?>

<?quiz?>
question: Which letter?
answer: a
answer: b
<?/quiz?>

<?quiz?>
question: Which vowel?
answer-correct: a
answer: b
something else
<?/quiz?>

<quiz>
Which one?
- [ ] a
- [ ] b
</quiz>
"""


#: The format each input is imported as, where it is not the one detected.
GIVEN_FORMATS = {"broken.zip": "canvas", "broken.mbz": "mbz", "not-moodle.xml": "moodle"}

#: Each input, by its file name.
IMPORTS: dict[str, str | bytes] = {
    **{name: _zip(entries) for name, entries in ZIPS.items()}, **BROKEN, **PAGES,
    "moodle.xml": MOODLE_XML, "losses.xml": MOODLE_LOSSES, "as-yaml.xml": MOODLE_AS_YAML,
    "questions.gift": GIFT, "more.gift": GIFT_MORE, "plain.gift": GIFT_PLAIN,
    "aiken.txt": AIKEN, "more-aiken.txt": AIKEN_MORE, "stray-aiken.txt": AIKEN_STRAY,
    "canvas.xml": CANVAS_XML, "canvas-export.zip": CANVAS_ZIP,
    "unsafe-only.zip": UNSAFE_ONLY, "copies.zip": COPIES, "twice.zip": _twice(),
    "broken.zip": b"PK\x03\x04 not a zip", "broken.mbz": b"\x1f\x8bgarbage",
    "not-moodle.xml": b"<?xml version='1.0'?>\n<questions><question/></questions>\n",
    "undeclared.xml": b"<?xml version='1.0'?>\n<quiz>\n  <question type=\"essay\"><name><text>&nbsp;Q</text></name></question>\n</quiz>\n",
}

#: Inputs made when the tests run: a Moodle quiz backup the build writes, changed as Moodle would.
MADE_IMPORTS: dict[str, Callable[[], bytes]] = {"changed.mbz": changed_backup}
OTHER_IMPORTS: dict[str, str | bytes] = {
    "qti21.zip": QTI21_ZIP, "bad-manifest.zip": QTI21_BADMANIFEST, "cells.txt": TEXT2QTI,
    "not-a-backup.mbz": _tarball({"readme.txt": b"hello"}),
    "no-quiz.mbz": _tarball({"moodle_backup.xml": b"<moodle_backup><information><contents><activities/></contents></information></moodle_backup>",
                             "questions.xml": b"<question_categories/>", "files.xml": b"<files/>"}),
    "pool.dat": BLACKBOARD, "blackboard.zip": BLACKBOARD_ZIP, "html-page.md": PAGE_HTML,
}


def content(name: str) -> bytes:
    """The bytes of the input named ``name``."""
    data = MADE_IMPORTS[name]() if name in MADE_IMPORTS else {**IMPORTS, **OTHER_IMPORTS}[name]
    return data if isinstance(data, bytes) else data.encode("utf-8")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    """Every diagnostic the inputs give on import, each once."""
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.importers import import_path

    folder = tmp_path_factory.mktemp("imports")
    found: dict[tuple[str, str, str | None], Diagnostic] = {}
    for name in [*IMPORTS, *OTHER_IMPORTS, *MADE_IMPORTS]:
        path = folder / name
        path.write_bytes(content(name))
        sink = DiagnosticSink()
        import_path(path, name, sink, GIVEN_FORMATS.get(name, "auto"))
        for diagnostic in sink.items:
            found.setdefault((diagnostic.code, diagnostic.message, diagnostic.hint), diagnostic)
    return list(found.values())


def test_the_inputs_make_the_importers_codes_said(imported: list[Diagnostic]) -> None:
    # Each input is here for what it makes the importer say: a fixture that stops saying it checks nothing.
    codes = {d.code for d in imported}
    assert codes >= {"QB700", "QB701", "QB702", "QB703", "QB704", "QB705", "QB706", "QB710", "QB711", "QB712", "QB713",
                     "QB714", "QB715", "QB716", "QB717", "QB722", "QB723", "QB730"}, codes
    assert len(imported) >= 130


def test_the_other_importers_inputs_each_make_them_speak(imported: list[Diagnostic]) -> None:
    # Each input of the QTI 2.1, backup, text2qti, Blackboard and quiz page importers says at
    # least this many diagnostics not said by another input (blackboard.zip says what pool.dat
    # does, as a package), or it checks less than it claims.
    said = Counter(d.span.path.split(":")[0] for d in imported if d.span)
    wanted = {"qti21.zip": 20, "bad-manifest.zip": 1, "cells.txt": 8, "not-a-backup.mbz": 1, "no-quiz.mbz": 1,
              "pool.dat": 5, "html-page.md": 10, "changed.mbz": 12}
    assert {name: min(said[name], least) for name, least in wanted.items()} == wanted, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_import_message_and_hint_prints_translated(imported: list[Diagnostic], language: str) -> None:
    left: dict[str, list[str]] = {}
    count = 0
    for diagnostic in imported:
        for english, translated in zip(rendered(diagnostic, None), rendered(diagnostic, language)):
            runs = untranslated(english, translated)
            if runs:
                left.setdefault(diagnostic.code, []).extend(runs)
                count += 1
    assert left == {}, (f"{count} import messages or hints print in English: add entries for them to "
                        f"src/qti_builder/locale/{language}/LC_MESSAGES/qti_builder.po (and the other catalogs)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_prints_every_inputs_messages_in_the_language_asked(tmp_path: Path, language: str) -> None:
    # As the command prints them: a package's messages too, whose place names a file inside it
    # ('canvas-export.zip:q2/q2.xml.qti:5:1'), not the input given.
    left, yaml = [], []
    for name in ("slip.zip", "canvas-export.zip", "moodle.xml", "as-yaml.xml", "questions.gift", "more-aiken.txt",
                 "qti21.zip", "changed.mbz", "cells.txt", "blackboard.zip", "html-page.md"):
        path = tmp_path / name
        path.write_bytes(content(name))
        _, _, err = run("import", str(path), "--out", str(tmp_path / f"out-{name}"), "--lang", language, "--allow-skipped")
        said = [line.split("]: ", 1)[1] if "]: " in line else line.removeprefix("    hint: ")
                for line in err.splitlines() if "[QB7" in line or line.startswith("    hint: ")]
        assert len(said) >= 2, err
        left += [f"{name}: {line}" for line in said if english_words(line)]
        yaml += [line for line in said if name == "as-yaml.xml" and "YAML" in line]
    _, _, err = run("import", str(tmp_path / "missing.xml"), "--out", str(tmp_path / "out"), "--lang", language)
    said = [line.split("]: ", 1)[1] for line in err.splitlines() if "error[QB700]" in line]
    assert len(said) == 1, err
    left += [f"missing.xml: {line}" for line in said if english_words(line)]
    assert left == [], left
    assert len(yaml) == 2, yaml  # as-yaml.xml's QB711, the quiz written as YAML, and its hint
