"""Every output grades a student as the author meant, checked by an independent reader of each.

For every machine-scored question of every quiz the tests build from a source (the quizzes in
source/, the fixtures, the starter quizzes) and of generated quizzes of every kind, the responses
of helpers/scoring.py (right, wrong, partly right) are scored by pyslet in the QTI 2.1 package, by
Moodle's rules in the Moodle XML and by QTI 1.2 response processing in the Canvas package. Each
must earn what the source says: the right response exactly the question's points in all three,
a wrong one less, a partly right one its share, and the same in every output but where an LMS
has its own rule (helpers/scoring.py says where).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.scoring import ALL, SCORED, Built, disagreements, scored_questions
from helpers.strategies import quizzes
from hypothesis import HealthCheck, assume, given, settings

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink, Severity
from qti_builder.model import Quiz
from qti_builder.pipeline import BuildIncomplete
from qti_builder.readers import read_quiz

SOURCES = sorted([*ROOT.glob("source/*.md"), *ROOT.glob("tests/fixtures/*.yaml"), *ROOT.glob("tests/fixtures/*.md"),
                  *ROOT.glob("starter/quiz/*.md")])
#: Sources written to be refused by an output (tests/test_moodle_types.py checks the refusals):
#: scored in the outputs that take them.
TARGETS = {ROOT / "tests/fixtures/moodle-limits.yaml": frozenset({"qti21", "canvas"})}


def read(path: Path) -> Quiz:
    result = read_quiz(path, DiagnosticSink())
    assert result is not None
    return result[0]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_output_scores_every_source_as_meant(source: Path, tmp_path: Path) -> None:
    targets = TARGETS.get(source, ALL)
    result = build(BuildOptions(sources=[source], out_dir=tmp_path, formats=sorted(targets)))
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR]
    quiz = read(source)
    assert list(scored_questions(quiz)) or source.parent.name == "quiz"  # a starter quiz may have none
    assert disagreements(Built.read(quiz, tmp_path, targets)) == []


def test_the_sources_cover_every_scored_kind() -> None:
    kinds = {q.type for source in SOURCES for q in read(source).iter_questions()}
    assert set(SCORED) <= kinds


#: What the sources above lack: a right answer with feedback of its own, in each kind that has
#: per-answer feedback (the condition that shows it must not end the scoring), and a right
#: numerical answer with a percent margin (Canvas takes full-credit answers only).
OWN_FEEDBACK = """---
title: Own feedback
---
1. Name the capital of France. {#city type=short_answer}

Answer: Paris
   Feedback: Right, Paris.
Answer (50%): Lyon
   Feedback: A big city, not the capital.

2. How many legs has a spider? {#legs type=numerical}

Answer: 8
   Feedback: Eight, yes.

3. Pick the even number. {#even}

A) 2
   Feedback: Two is even.
B) 3
   Feedback: Three is odd.

Answer: A

4. Roughly how many days has a year? {#year type=numerical}

Answer: 360 ± 5%
"""


def test_a_right_answer_with_its_own_feedback_scores_in_every_output(tmp_path: Path) -> None:
    source = tmp_path / "own-feedback.md"
    source.write_text(OWN_FEEDBACK, encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    quiz = read(source)
    assert [q.type for q in quiz.iter_questions()] == ["short_answer", "numerical", "single_choice", "numerical"]
    assert disagreements(Built.read(quiz, tmp_path / "dist")) == []


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(quizzes())
def test_every_output_scores_generated_quizzes_as_meant(quiz: Quiz) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "generated.yaml"
        source.write_text(quiz.model_dump_json(exclude_none=True), encoding="utf-8")  # JSON is YAML
        try:
            build(BuildOptions(sources=[source], out_dir=Path(folder) / "dist"))
        except BuildIncomplete:
            assume(False)  # refused with a located reason (a blank in code, a score Moodle cannot store)
        assert disagreements(Built.read(quiz, Path(folder) / "dist")) == []


def test_every_machine_scored_kind_of_the_registry_is_graded() -> None:
    """SCORED comes from src/qti_builder/kinds.py: each kind a machine scores has attempts (or is
    graded set by set), and the others none."""
    from helpers.scoring import CALCULATED, attempts

    from qti_builder.kinds import KINDS

    assert set(SCORED) == {name for name, spec in KINDS.items() if spec.scoring in ("all_or_nothing", "partial")}
    assert set(CALCULATED) <= set(SCORED)
    quiz = read(ROOT / "tests/fixtures/all-types.yaml")
    for q in quiz.iter_questions():
        assert bool(attempts(quiz, q)) == (q.type in SCORED and q.type not in CALCULATED), q.type


# -- multiple response: ticking every option, and the scoring rules (issue 30) -----------------------


def test_ticking_every_option_never_earns_full_marks_in_moodle_or_qti(tmp_path: Path) -> None:
    """For every multiple-response question of the test sources with a wrong option, the response
    that ticks every option, scored by the independent Moodle and QTI 2.1 graders, earns less
    than the question's points (and never below 0)."""
    checked = 0
    for n, source in enumerate(SOURCES):
        quiz = read(source)
        questions = [q for q in quiz.iter_questions() if q.type == "multiple_response" and not all(c.correct for c in q.choices)]
        if not questions:
            continue
        targets = TARGETS.get(source, ALL) & {"qti21", "moodle"}
        build(BuildOptions(sources=[source], out_dir=tmp_path / str(n), formats=sorted(targets)))
        built = Built.read(quiz, tmp_path / str(n), frozenset(targets))
        for q in questions:
            everything = frozenset(range(len(q.choices)))
            for target in targets:
                score = built.score(target, q, everything)
                assert 0 <= score < 1, f"{source.name}: {q.id} in {target}: every option ticked earns {score:.3g} of 1"
                checked += 1
    assert checked >= 10


def test_each_scoring_rule_scores_as_documented(tmp_path: Path) -> None:
    """docs/question-types.md#scoring-rules, worked out by hand for the fixture's questions: what
    each output gives a response (QTI 2.1 the rule itself; Moodle and Canvas their own rules where
    the profiles name a loss)."""
    source = ROOT / "tests/fixtures/scoring-rules.md"
    build(BuildOptions(sources=[source], out_dir=tmp_path))
    quiz = read(source)
    built = Built.read(quiz, tmp_path)
    q = {question.id: question for question in quiz.iter_questions()}

    def points(question_id: str, target: str, ticked: str) -> float:
        question = q[question_id]
        chosen = frozenset(i for i, c in enumerate(question.choices) if c.id in ticked)
        return round(built.score(target, question, chosen) * question.points, 4)

    # partial (4 points, A B right, C D wrong): 2 per right tick, -2 per wrong one, never below 0.
    assert [points("primes", t, "AB") for t in ALL] == [4, 4, 4]
    assert {t: points("primes", t, "ABC") for t in ALL} == {"qti21": 2, "moodle": 2, "canvas": 2}
    assert {t: points("primes", t, "ABCD") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 0}
    assert {t: points("primes", t, "A") for t in ALL} == {"qti21": 2, "moodle": 2, "canvas": 2}
    # all or nothing (2 points, A B D right of five): QTI exactly; Moodle gives an incomplete answer
    # its shares and any wrong tick 0; Canvas its own rule.
    assert {t: points("even", t, "ABD") for t in ALL} == {"qti21": 2, "moodle": 2, "canvas": 2}
    assert {t: points("even", t, "AB") for t in ALL} == {"qti21": 0, "moodle": 1.3333, "canvas": 1.3333}
    assert {t: points("even", t, "ABDC") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 1.3333}
    assert {t: points("even", t, "ABCDE") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 0.6667}
    # the exam rule (6 points, 3 for right but incomplete, any wrong 0; A B D right).
    assert {t: points("exam-rule", t, "ABD") for t in ALL} == {"qti21": 6, "moodle": 6, "canvas": 6}
    assert {t: points("exam-rule", t, "A") for t in ALL} == {"qti21": 3, "moodle": 2, "canvas": 2}
    assert {t: points("exam-rule", t, "AB") for t in ALL} == {"qti21": 3, "moodle": 4, "canvas": 4}
    assert {t: points("exam-rule", t, "ABC") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 2}
    assert {t: points("exam-rule", t, "") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 0}
    # Two right options and half the points for one of them: Moodle holds the exam rule exactly.
    assert {t: points("exam-two", t, "A") for t in ALL} == {"qti21": 2, "moodle": 2, "canvas": 2}
    assert {t: points("exam-two", t, "AB") for t in ALL} == {"qti21": 0, "moodle": 0, "canvas": 0}
    assert {t: points("exam-two", t, "AC") for t in ALL} == {"qti21": 4, "moodle": 4, "canvas": 4}


def test_the_profiles_name_what_moodle_and_canvas_cannot_hold_of_a_rule() -> None:
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.profiles import check_profile

    quiz = read(ROOT / "tests/fixtures/scoring-rules.md")
    found: dict[str, set[str]] = {}
    for profile in ("moodle", "canvas"):
        sink = DiagnosticSink()
        check_profile(profile, quiz, {q.id: None for q in quiz.iter_questions()}, sink)  # type: ignore[misc]
        found[profile] = {m.message.rsplit("'", 2)[-2] for m in sink.items if m.code == "QB601"}
    # exam-two is exact in Moodle (one right option of two earns half); the default is Canvas's rule.
    assert found == {"moodle": {"even", "exam-rule"}, "canvas": {"even", "exam-rule", "exam-two"}}


QUIZ_RULE = """---
title: Quiz-wide rule
settings:
  scoring: all_or_nothing
---

1. Which are prime? {#primes points=2}

A) 2
B) 3
C) 4

Answer: A, B

2. Which are even? {#even points=2 scoring=partial}

A) 2
B) 4
C) 5

Answer: A, B

3. Which are odd? {#odd points=2}

A) 1 {score=50}
B) 3 {score=50}
C) 4 {score=0}

Answer: A, B
"""


def test_a_quiz_chooses_the_rule_of_its_questions_that_state_none(tmp_path: Path) -> None:
    source = tmp_path / "rule.md"
    source.write_text(QUIZ_RULE, encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    quiz = read(source)
    assert [q.scoring for q in quiz.iter_questions()] == ["all_or_nothing", "partial", "partial"]  # own rule, own scores
    built = Built.read(quiz, tmp_path / "dist")
    primes, even, odd = quiz.iter_questions()
    assert [built.score("qti21", q, frozenset({0})) for q in (primes, even, odd)] == [0, 0.5, 0.5]
    assert [built.score("qti21", q, frozenset({0, 1, 2})) for q in (primes, even, odd)] == [0, 0.5, 1]
    assert disagreements(built) == []
    # No output loses the setting itself: the questions carry it (or name their losses).
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "again"))
    assert not [d for d in result.diagnostics if d.code == "QB602"]


PRINTED_RULE = """---
title: 期中
language: zh
---

# 二、多项选择题（每小题6分。全部选对得6分，选对但不全得3分，有选错的得0分）

1. 下列属于金属的是

A. 铁
B. 氧
C. 铜

答案：A, C

# 三、不定项选择题
（每小题4分。全部选对得4分，选对但不全得2分，有选错的得0分）

2. 下列属于液体的是

A. 水
B. 铁
C. 酒精

答案：A, C

3. 下列属于气体的是（全部选对得2分，选对但不全得1分） {#own points=2}

A. 氧
B. 铁
C. 氮

答案：A, C

4. 下列属于固体的是 {#stated scoring=partial}

A. 铁
B. 水
C. 铜

答案：A, C
"""


def test_the_exam_rule_a_paper_prints_is_read_as_the_scoring(tmp_path: Path) -> None:
    """A source laid out as an exam paper says the rule as the paper prints it, in a section's
    heading, on the rule line below it or in the question: its multiple-response questions are
    scored by it (the same function reads pasted pages, importers/quizpage); a question's own
    scoring wins."""
    source = tmp_path / "paper.md"
    source.write_text(PRINTED_RULE, encoding="utf-8")
    quiz = read(source)
    assert [(q.points, q.scoring, q.incomplete_points) for q in quiz.iter_questions()] == [
        (6, "exam", 3), (4, "exam", 2), (2, "exam", 1), (4, "partial", None)]
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"]))
    built = Built.read(quiz, tmp_path / "dist", frozenset({"qti21"}))
    metals = next(quiz.iter_questions())
    assert [built.score("qti21", metals, frozenset(t)) for t in ({0, 2}, {0}, {0, 1}, set())] == [1, 0.5, 0, 0]


# -- scores of the source's own that ticking every option beats (QB157) -------------------------------

OWN_SCORES = """---
title: Own scores
---

1. Which are prime? {#zero points=2}

A) 2 {score=50}
B) 3 {score=50}
C) 4 {score=0}
D) 9 {score=0}

Answer: A, B

2. Which are even? {#default points=2}

A) 2
B) 4
C) 5

Answer: A, B

3. Which are odd? {#mixed points=2}

A) 1 {score=50}
B) 3 {score=50}
C) 4 {score=0}
D) 6

Answer: A, B
"""


def test_scores_that_let_every_option_earn_full_marks_are_kept_and_said(tmp_path: Path) -> None:
    """A source's own scores are what every output grades by, even when ticking every option earns
    full marks; the build says so (QB157) at the first wrong option that scores 0 % or more, and
    only where the independent QTI 2.1 and Moodle graders do give every option full marks."""
    source = tmp_path / "own.md"
    source.write_text(OWN_SCORES, encoding="utf-8")
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    warned = {d.message.split("'")[1]: d for d in result.diagnostics if d.code == "QB157"}
    # mixed: its C scores 0 %, but its D takes the default -50 %: every option earns 50 %.
    assert set(warned) == {"zero"}
    assert warned["zero"].span is not None and warned["zero"].span.line == 9  # C) 4 {score=0}
    assert warned["zero"].message.endswith("its wrong options score C 0 %, D 0 %")
    quiz = read(source)
    built = Built.read(quiz, tmp_path / "dist")
    for q in quiz.iter_questions():
        everything = frozenset(range(len(q.choices)))
        for target in ("qti21", "moodle"):
            assert (built.score(target, q, everything) == 1) == (q.id in warned), (q.id, target)
    # ignore=QB157 on the question keeps the scores and silences it.
    source.write_text(OWN_SCORES.replace("{#zero points=2}", "{#zero points=2 ignore=QB157}"), encoding="utf-8")
    again = build(BuildOptions(sources=[source], out_dir=tmp_path / "again", formats=["qti21"]))
    assert [d for d in again.diagnostics if d.code == "QB157"] == []


#: A Moodle multiple-response question whose wrong answers are worth 0 %, as Moodle's editor leaves
#: them unless told (a public STACK pool export had five such): Moodle itself gives every box
#: ticked full marks.
MOODLE_ZERO_WRONG = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Stationary points</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which points are stationary?</p>]]></text></questiontext>
    <defaultgrade>3</defaultgrade>
    <single>false</single>
    <shuffleanswers>true</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <answer fraction="33.33333" format="html"><text><![CDATA[<p>(0, 0)</p>]]></text></answer>
    <answer fraction="33.33333" format="html"><text><![CDATA[<p>(-1, 0)</p>]]></text></answer>
    <answer fraction="33.33333" format="html"><text><![CDATA[<p>(3/4, 0)</p>]]></text></answer>
    <answer fraction="0" format="html"><text><![CDATA[<p>(3, 5)</p>]]></text></answer>
    <answer fraction="0" format="html"><text><![CDATA[<p>(0, 1)</p>]]></text></answer>
  </question>
</quiz>
"""


def test_an_imported_moodle_question_whose_wrong_answers_are_worth_nothing_is_kept_and_said(tmp_path: Path) -> None:
    """The round trip keeps Moodle's own 0 % (the import writes {score=0}): the rebuilt question
    is graded as the original, every box ticked full marks in both, and the build says so."""
    from helpers.importing import run_import
    from helpers.moodle_engine import grade, read_question
    from lxml import etree

    from qti_builder.writers.markdown_source import write_source

    original = tmp_path / "pool.xml"
    original.write_text(MOODLE_ZERO_WRONG, encoding="utf-8")
    (item,), _ = run_import(original)
    written = write_source(item.quiz)
    assert written.text.count("{score=0}") == 2
    source = tmp_path / f"pool{written.suffix}"
    source.write_text(written.text, encoding="utf-8")
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    (warning,) = [d for d in result.diagnostics if d.code == "QB157"]
    assert warning.span is not None and "{score=0}" in source.read_text(encoding="utf-8").splitlines()[warning.span.line - 1]
    (moodle,) = (tmp_path / "dist").glob("*.moodle.xml")
    rebuilt = next(q for q in etree.parse(str(moodle)).iter("question") if q.get("type") == "multichoice")
    before = read_question(etree.fromstring(MOODLE_ZERO_WRONG.encode()).find("question"))
    after = read_question(rebuilt)
    for engine in (before, after):
        assert grade(engine, set(range(5))) == pytest.approx(1, abs=1e-6)
        right = {k for k, a in enumerate(engine.answers) if a.fraction > 0}
        assert grade(engine, right) == pytest.approx(1, abs=1e-6) and grade(engine, {next(iter(right))}) < 1
