"""The checks of a quiz once read, section by section (quiz_checks.py): the same diagnostics, in
the same order, and the same losses as the whole-quiz checks they are made of, for every source
of the repository; a large source's sections whose checks found nothing are remembered in the
build cache and not checked again, while a section with a finding, a damaged or foreign entry, a
changed quiz around the section or a quiz read in part are checked afresh, with the same result."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.cli import run

from qti_builder import quiz_checks
from qti_builder.checks import MOODLE_FORMATS, check_content, check_moodle_formulas
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.ignores import check_question_ignores
from qti_builder.losses import quiz_losses
from qti_builder.media import MAX_MEDIA_BYTES
from qti_builder.totals import check_stated_total
from qti_builder.profiles import check_profile
from qti_builder.readers import read_quiz
from qti_builder.readers.piece_cache import Pieces
from qti_builder.writers import WRITERS
from qti_builder.writers.qti21_calculated import check_math_variables

SOURCES = sorted(
    [*ROOT.joinpath("source").glob("*.md"), *ROOT.joinpath("tests", "fixtures").glob("*.md"),
     *ROOT.joinpath("tests", "fixtures").glob("*.yaml"), *ROOT.joinpath("starter", "quiz").glob("*.md"),
     *ROOT.joinpath("tests", "corpus").glob("*.md"), *ROOT.joinpath("tests", "corpus").glob("*.yaml")]
)
FORMATS = list(WRITERS)


def _whole(path: Path, profile: str | None) -> tuple[list[Any], list[Any], Any] | None:
    """The checks as the build ran them before they went section by section: each over the
    whole quiz, in the build's order."""
    sink = DiagnosticSink()
    read = read_quiz(path, sink, partial=True)
    if read is None:
        return None
    quiz, source = read
    mark = len(sink.items)
    media = check_content(quiz, source, path.parent, sink)
    if MOODLE_FORMATS & set(FORMATS):
        check_moodle_formulas(quiz, source, sink)
    if "qti21" in FORMATS:
        check_math_variables(quiz, source, sink)
    if not source.partial:
        check_stated_total(quiz, source, sink)
    check_question_ignores(quiz, source, sink)
    spans = source.question_spans(quiz)
    losses = quiz_losses(quiz, source, spans, FORMATS)
    if profile:
        check_profile(profile, quiz, spans, sink)
    return sink.items[mark:], losses, media


def _by_sections(path: Path, profile: str | None, memo: quiz_checks.Memo | None = None,
                 pieces: Pieces | None = None) -> tuple[list[Any], list[Any], Any] | None:
    sink = DiagnosticSink()
    read = read_quiz(path, sink, partial=True, pieces=pieces)
    if read is None:
        return None
    quiz, source = read
    mark = len(sink.items)
    media, losses = quiz_checks.check_read(quiz, source, path.parent, sink, source.question_spans(quiz), FORMATS,
                                           MAX_MEDIA_BYTES, profile, memo)
    return sink.items[mark:], losses, media


@pytest.mark.parametrize("profile", [None, "canvas"])
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_section_by_section_finds_what_the_whole_quiz_checks_find(source: Path, profile: str | None) -> None:
    whole = _whole(source, profile)
    assert _by_sections(source, profile) == whole  # diagnostics in the same order, losses, media


class _Memo:
    """The build cache's part for the checks, in memory."""

    def __init__(self) -> None:
        self.entries: dict[str, object] = {}

    def memo(self) -> quiz_checks.Memo:
        return quiz_checks.Memo(self.entries.get, self.entries.__setitem__)


class _Pieces:
    """The build cache's part for the pieces' readings, in memory, pickled as the cache's entries are."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def pieces(self) -> Pieces:
        return Pieces(lambda key: pickle.loads(self.entries[key]) if key in self.entries else None,
                      lambda key, reading: self.entries.__setitem__(key, pickle.dumps(reading)))


QUESTION = "{n}. Question {n} of part {part}?\n\nA) one\nB) two\nC) three\n\nAnswer: {answer}\n"


def _bank(folder: Path, parts: int = 4, per_part: int = 40, extra: dict[int, str] | None = None,
          front: str = "") -> Path:
    """A source of more than 1,000 lines in ``parts`` top-level sections (read in pieces); ``extra``:
    text added at the end of a part."""
    blocks = []
    for part in range(1, parts + 1):
        questions = "\n".join(QUESTION.format(n=n, part=part, answer="B") for n in range(1, per_part + 1))
        blocks.append(f"# Part {part}\n\n{questions}\n{(extra or {}).get(part, '')}")
    path = folder / "bank.md"
    path.write_text(f"---\ntitle: Bank\n{front}---\n\n" + "\n".join(blocks), "utf-8")
    assert len(path.read_text("utf-8").split("\n")) >= 1_000
    return path


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The index of each top-level section checked from here on (not taken from the memo)."""
    done: list[int] = []
    real = quiz_checks._check_section

    def counting(quiz: Any, k: int, *args: Any, **kwargs: Any) -> Any:
        done.append(k)
        return real(quiz, k, *args, **kwargs)

    monkeypatch.setattr(quiz_checks, "_check_section", counting)
    return done


#: A question whose image has no alt text (QB165, a warning: the quiz still builds), numbered to
#: follow a part's 40 questions.
WARNING = "\n41. Look at ![](x.png) and say which.\n\nA) one\nB) two\n\nAnswer: A\n"


def test_unchanged_sections_are_not_checked_again(tmp_path: Path, checked: list[int]) -> None:
    path = _bank(tmp_path, extra={3: WARNING})
    (tmp_path / "x.png").write_bytes(PNG)
    memo, pieces = _Memo(), _Pieces()
    first = _by_sections(path, None, memo.memo(), pieces.pieces())
    assert first is not None and any(d.code == "QB165" for d in first[0])
    assert checked == [0, 1, 2, 3]
    assert len(memo.entries) == 3  # the section with a finding (and a media file) is not remembered
    checked.clear()
    assert _by_sections(path, None, memo.memo(), pieces.pieces()) == first
    assert checked == [2]  # only the section with a finding, whose lines an edit could move
    assert _by_sections(path, None) == first == _whole(path, None)


def test_an_edit_checks_only_its_own_section_again(tmp_path: Path, checked: list[int]) -> None:
    path = _bank(tmp_path)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, "canvas", memo.memo(), pieces.pieces())
    text = path.read_text("utf-8")
    # A new line before part 3 moves every later line; the edit is in part 2.
    path.write_text(text.replace("5. Question 5 of part 2?", "5. Question 5 of part 2, edited?\n\n"), "utf-8")
    checked.clear()
    again = _by_sections(path, "canvas", memo.memo(), pieces.pieces())
    assert checked == [1]
    assert again == _whole(path, "canvas")


def test_damaged_or_foreign_entries_are_not_trusted(tmp_path: Path, checked: list[int]) -> None:
    path = _bank(tmp_path)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, None, memo.memo(), pieces.pieces())
    for key in memo.entries:
        memo.entries[key] = b"\x00damaged"
    checked.clear()
    assert _by_sections(path, None, memo.memo(), pieces.pieces()) == _whole(path, None)
    assert checked == [0, 1, 2, 3]
    assert set(memo.entries.values()) == {quiz_checks.NOTHING_FOUND}  # written again


def test_a_changed_quiz_around_the_sections_checks_them_again(tmp_path: Path, checked: list[int]) -> None:
    """The quiz's settings are what the checks of each question look at too (a multiple-response
    question's scoring, whether Canvas shuffles): the same pieces in another quiz are new."""
    path = _bank(tmp_path)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, "canvas", memo.memo(), pieces.pieces())
    _bank(tmp_path, front="settings:\n  time_limit: 30\n")  # the pieces read the same
    read = len(pieces.entries)
    checked.clear()
    assert _by_sections(path, "canvas", memo.memo(), pieces.pieces()) == _whole(path, "canvas")
    assert len(pieces.entries) == read  # the pieces were taken from their cache
    assert checked == [0, 1, 2, 3]


def test_a_quiz_read_in_part_is_checked_whole(tmp_path: Path, checked: list[int]) -> None:
    """An error leaves its question out of the quiz: the other sections' data are what their keys
    read, but the quiz is checked whole all the same (and with the same result)."""
    path = _bank(tmp_path)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, None, memo.memo(), pieces.pieces())
    text = path.read_text("utf-8")
    path.write_text(text.replace("Answer: B\n", "Answer: Q\n", 1), "utf-8")
    checked.clear()
    found = _by_sections(path, None, memo.memo(), pieces.pieces())
    assert found == _whole(path, None)
    assert checked == [0, 1, 2, 3]


def _built(path: Path, out: Path, *args: str) -> tuple[int, str, str, dict[str, bytes]]:
    """``build`` of ``path`` into ``out`` on the command line: its exit code, what it printed
    (``out`` as OUT) and the files it wrote."""
    code, stdout, stderr = run("build", str(path), "--out", str(out), *args)
    return (code, stdout.replace(str(out), "OUT"), stderr.replace(str(out), "OUT"),
            {p.name: p.read_bytes() for p in sorted(out.iterdir())})


def test_build_prints_the_same_with_and_without_the_cache(tmp_path: Path) -> None:
    """The command line: a bank built with the cache, then its first part edited and built again
    (the other parts' readings and checks taken from the cache), prints and writes what a build
    of the edited bank without the cache does; its third part has a warning (checked again)."""
    path = _bank(tmp_path, extra={3: WARNING})
    (tmp_path / "x.png").write_bytes(PNG)

    def build(name: str, *args: str) -> tuple[int, str, str, dict[str, bytes]]:
        return _built(path, tmp_path / name, *args)

    build("first")
    path.write_text(path.read_text("utf-8").replace("1. Question 1 of part 1?", "1. Question 1 of part 1, edited?"), "utf-8")
    cached, fresh = build("cached"), build("fresh", "--no-cache")
    assert fresh[0] == 0 and "QB165" in fresh[1] + fresh[2]
    assert cached == fresh


#: The smallest file that is a PNG image by its signature.
PNG = b"\x89PNG\r\n\x1a\n"


#: Two parts, each with findings of several checks: an image without alt text (QB165), scores that
#: let every option earn full marks (QB157), an ignore= that names an error (QB206), and what
#: Canvas and Moodle lose of a question (losses; and --profile's warnings).
FINDINGS = """# Part {p}

1. Look at ![](x.png) and say. {{#look{p}}}

A) one
B) two

Answer: A

2. Which are even? {{#zero{p}}}

A) 2
B) 4
C) 5 {{score=0}}

Answer: A, B

3. Why? {{#why{p} type=essay ignore=QB120}}

4. Which is true? {{#sf{p} shuffle=false}}

A) yes
B) no

Answer: A

5. Which are odd? {{#aon{p} scoring=all_or_nothing}}

A) 1
B) 3
C) 4

Answer: A, B
"""


@pytest.mark.parametrize("profile", [None, "canvas", "moodle"])
def test_findings_of_every_check_in_the_same_order(tmp_path: Path, profile: str | None) -> None:
    path = tmp_path / "findings.md"
    path.write_text("---\ntitle: Findings\n---\n\n" + "\n".join(FINDINGS.format(p=p) for p in (1, 2)), "utf-8")
    (tmp_path / "x.png").write_bytes(PNG)
    whole = _whole(path, profile)
    assert whole is not None
    codes = [d.code for d in whole[0]]
    assert {"QB165", "QB157", "QB206"} <= set(codes) and whole[1]
    assert profile is None or "QB601" in codes
    assert _by_sections(path, profile) == whole


# -- a section read in runs of its questions: each run remembered -----------------------------


@pytest.fixture
def runs_of_5(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[int] | None]]:
    """Long sections read in runs of about 5 questions; each top-level section checked from here
    on, with the places of the questions checked (None: all of them)."""
    import inspect

    from qti_builder.readers.markdown import pieces

    monkeypatch.setattr(pieces, "RUN_QUESTIONS", 5)
    done: list[tuple[int, list[int] | None]] = []
    real = quiz_checks._check_section
    signature = inspect.signature(real)

    def counting(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        done.append((bound.arguments["k"], bound.arguments.get("only")))
        return real(*args, **kwargs)

    monkeypatch.setattr(quiz_checks, "_check_section", counting)
    return done


def _edited(path: Path, part: int, n: int, text: str = "edited") -> None:
    """Question ``n`` of part ``part`` given more words (its lines stay where they were)."""
    old = f"{n}. Question {n} of part {part}?"
    assert old in path.read_text("utf-8")
    path.write_text(path.read_text("utf-8").replace(old, f"{n}. Question {n} of part {part}, {text}?"), "utf-8")


def _run_of(source_runs: list[tuple[int, str]], place: int) -> list[int]:
    """The places of the run that holds question ``place`` of a section (SourceMap.section_runs),
    and of the run before it when the question is its run's first (a piece's key holds the line
    after it too)."""
    firsts = [first for first, _ in source_runs]
    at = max(k for k, first in enumerate(firsts) if first <= place)
    start = firsts[at - 1] if firsts[at] == place and at else firsts[at]
    return list(range(start, firsts[at + 1] if at + 1 < len(firsts) else 40))


def _section_runs(path: Path, pieces: _Pieces) -> dict[int, list[tuple[int, str]]]:
    read = read_quiz(path, DiagnosticSink(), partial=True, pieces=pieces.pieces())
    assert read is not None
    return read[1].section_runs


def test_an_edit_checks_only_its_run_of_its_section_again(tmp_path: Path, runs_of_5: list[tuple[int, list[int] | None]]) -> None:
    """A bank's sections read in runs: one question edited checks its run's questions again (and
    the section's own texts), the other runs and sections taken from the memo; the findings are
    the whole quiz's checks'."""
    path = _bank(tmp_path)
    memo, pieces = _Memo(), _Pieces()
    assert _by_sections(path, "canvas", memo.memo(), pieces.pieces()) == _whole(path, "canvas")
    assert runs_of_5 == [(0, None), (1, None), (2, None), (3, None)]
    runs = _section_runs(path, pieces)
    assert sorted(runs) == [0, 1, 2, 3] and all(len(each) >= 4 for each in runs.values())  # read in runs
    _edited(path, 2, 17)
    runs_of_5.clear()
    again = _by_sections(path, "canvas", memo.memo(), pieces.pieces())
    assert again == _whole(path, "canvas")
    assert runs_of_5 == [(1, _run_of(runs[1], 16))]
    runs_of_5.clear()  # remembered: the same again checks nothing
    assert _by_sections(path, "canvas", memo.memo(), pieces.pieces()) == again
    assert runs_of_5 == []


def test_a_finding_in_an_edited_run_is_found_each_time(tmp_path: Path, runs_of_5: list[tuple[int, list[int] | None]]) -> None:
    """An edit gives a question of a remembered run a finding (an image without alt text, QB165):
    found, in the whole checks' order, and found again when another run of its section is edited
    next (a run with a finding is never remembered); put right, the section is remembered again."""
    path = _bank(tmp_path)
    (tmp_path / "x.png").write_bytes(PNG)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, None, memo.memo(), pieces.pieces())
    runs = _section_runs(path, pieces)
    _edited(path, 3, 24, "look at ![](x.png)")
    runs_of_5.clear()
    found = _by_sections(path, None, memo.memo(), pieces.pieces())
    assert found == _whole(path, None) and [d.code for d in found[0]] == ["QB165"]
    assert runs_of_5 == [(2, _run_of(runs[2], 23))]
    _edited(path, 3, 2)
    runs_of_5.clear()
    found = _by_sections(path, None, memo.memo(), pieces.pieces())
    assert found == _whole(path, None) and [d.code for d in found[0]] == ["QB165"]
    assert runs_of_5 == [(2, sorted({*_run_of(runs[2], 1), *_run_of(runs[2], 23)}))]
    path.write_text(path.read_text("utf-8").replace("look at ![](x.png)", "looked at"), "utf-8")
    runs_of_5.clear()
    assert _by_sections(path, None, memo.memo(), pieces.pieces()) == _whole(path, None)
    runs_of_5.clear()
    assert _by_sections(path, None, memo.memo(), pieces.pieces()) == _whole(path, None)
    assert runs_of_5 == []


def test_a_section_with_a_finding_elsewhere_is_checked_whole_and_the_same(tmp_path: Path,
                                                                           runs_of_5: list[tuple[int, list[int] | None]]) -> None:
    """A section whose first checks found something (its runs never remembered) is checked whole
    after an edit in another of its runs, with the whole checks' findings in their order."""
    path = _bank(tmp_path, extra={2: WARNING})
    (tmp_path / "x.png").write_bytes(PNG)
    memo, pieces = _Memo(), _Pieces()
    _by_sections(path, "moodle", memo.memo(), pieces.pieces())
    _edited(path, 2, 3)
    runs_of_5.clear()
    found = _by_sections(path, "moodle", memo.memo(), pieces.pieces())
    assert found == _whole(path, "moodle") and "QB165" in [d.code for d in found[0]]
    assert runs_of_5 == [(1, None)]


def test_build_after_an_edit_in_a_run_prints_the_same_with_and_without_the_cache(
        tmp_path: Path, runs_of_5: list[tuple[int, list[int] | None]]) -> None:
    """The command line, sections read in runs: built, one question edited to hold an image
    without alt text, built again (one run's questions checked), then another question of its
    section edited: each prints and writes what a build of its text without the cache does."""
    path = _bank(tmp_path)
    (tmp_path / "x.png").write_bytes(PNG)

    def build(name: str, *args: str) -> tuple[int, str, str, dict[str, bytes]]:
        return _built(path, tmp_path / name, *args)

    build("first")
    _edited(path, 1, 12, "look at ![](x.png)")
    runs_of_5.clear()
    cached = build("cached")
    assert [k for k, _ in runs_of_5] == [0] and runs_of_5[0][1] is not None  # one run's questions
    fresh = build("fresh", "--no-cache")
    assert fresh[0] == 0 and "QB165" in fresh[1] + fresh[2]
    assert cached == fresh
    _edited(path, 1, 33)
    assert build("cached-2") == build("fresh-2", "--no-cache")
