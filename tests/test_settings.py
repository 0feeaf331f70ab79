"""Quiz settings (docs/source-format.md#quiz-settings) end to end: the Markdown and YAML forms and
their diagnostics, the QTI 2.1 test that carries three of them (checked against the official XSD
and against where Canvas reads them, lms-import-facts.md), the report and the wrote-lines that
say what each file leaves out, the importers, the source writer's round trip and the preview.

Every expected value here was worked out by hand from the sources in this file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from helpers import NS, ROOT, write, zip_members
from helpers.cli import run
from helpers.qti21_engine import score_item
from helpers.schemas import official_schemas
from lxml import etree, html

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.model import Quiz
from qti_builder.preview import build_preview
from qti_builder.readers import read_quiz
from qti_builder.report import schema_path
from qti_builder.writers.markdown_source import read_back, write_source

Q = NS["q"]
QUESTION = "1. Is 7 a prime number? {#seven}\n\nAnswer: true\n\n2. Pick one. {#pick}\n\nA) this\nB) that\n\nAnswer: A\n"


def markdown(front: str, body: str = QUESTION) -> str:
    return f"---\ntitle: Settings\n{front}---\n\n{body}"


def read(path: Path) -> tuple[Quiz | None, list[str]]:
    """The quiz, and every diagnostic as printed (with its hint)."""
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    return (result[0] if result else None), [d.render() for d in sink.sorted()]


# -- readers: Markdown ------------------------------------------------------------------------------

EVERY_SETTING = """settings:
  time_limit: 45
  allowed_attempts: 2
  shuffle_answers: true
  show_correct_answers: false
  one_question_at_a_time: true
  quiz_type: practice
"""


def test_markdown_settings_mapping(tmp_path: Path) -> None:
    quiz, problems = read(write(tmp_path, "s.md", markdown(EVERY_SETTING)))
    assert problems == [] and quiz is not None
    assert quiz.settings.given() == {"time_limit": 45, "allowed_attempts": 2, "shuffle_answers": True,
                                     "show_correct_answers": False, "one_question_at_a_time": True, "quiz_type": "practice"}


def test_no_settings_and_an_empty_settings_key_mean_the_lms_defaults(tmp_path: Path) -> None:
    for front in ("", "settings:\n"):
        quiz, problems = read(write(tmp_path, "s.md", markdown(front)))
        assert problems == [] and quiz is not None and quiz.settings.given() == {}


def test_words_in_any_case(tmp_path: Path) -> None:
    quiz, problems = read(write(tmp_path, "s.md", markdown("settings:\n  allowed_attempts: Unlimited\n  quiz_type: Graded\n")))
    assert problems == [] and quiz is not None
    assert quiz.settings.given() == {"allowed_attempts": "unlimited", "quiz_type": "graded"}


def test_a_setting_at_the_top_of_the_front_matter_says_where_it_goes(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "flat.md", markdown("time_limit: 30\ntimelimit: 30\nsetings:\n  time_limit: 30\n")))
    assert problems == [
        f"{tmp_path}/flat.md:3:1: error[QB106]: 'time_limit' is a quiz setting: write it under 'settings:'\n"
        "    hint: a line 'settings:', then '  time_limit: ...' indented below it (qti-builder docs source-format#quiz-settings)",
        f"{tmp_path}/flat.md:4:1: error[QB106]: unknown front-matter key 'timelimit'; did you mean 'time_limit', under 'settings:'?\n"
        "    hint: known keys: id, title, language, lang, description, points, shuffle, settings, total, moodle_idnumber",
        f"{tmp_path}/flat.md:5:1: error[QB106]: unknown front-matter key 'setings'; did you mean 'settings'?\n"
        "    hint: known keys: id, title, language, lang, description, points, shuffle, settings, total, moodle_idnumber",
    ]


SETTINGS_HINT = ("    hint: settings: time_limit, allowed_attempts, shuffle_answers, show_correct_answers, one_question_at_a_time, "
                 "lock_questions_after_answering, grading_method, quiz_type, qti_variants, scoring, incomplete_points")


def test_markdown_bad_settings_are_located_at_the_value(tmp_path: Path) -> None:
    front = ("settings:\n  time_limt: 30\n  time_limit: 1.5\n  allowed_attempts: 0\n  shuffle_answers: sometimes\n"
             "  show_correct_answers: yes\n  one_question_at_a_time: 3\n  quiz_type: exam\n")
    _, problems = read(write(tmp_path, "bad.md", markdown(front)))
    path = f"{tmp_path}/bad.md"
    assert problems == [
        f"{path}:4:3: error[QB201]: unknown setting 'time_limt'; did you mean 'time_limit'? (at settings.time_limt)\n{SETTINGS_HINT}",
        f"{path}:5:15: error[QB201]: time_limit is a whole number of minutes from 1 to 10080, not 1.5 (at settings.time_limit)\n"
        "    hint: for example 'time_limit: 45'",
        f"{path}:6:21: error[QB201]: allowed_attempts is a number from 1 to 1000, or 'unlimited', not 0 (at settings.allowed_attempts)\n"
        "    hint: for example 'allowed_attempts: 2'",
        f"{path}:7:20: error[QB201]: shuffle_answers is true or false, not 'sometimes' (at settings.shuffle_answers)\n"
        "    hint: for example 'shuffle_answers: true'",
        f"{path}:9:27: error[QB201]: one_question_at_a_time is true or false, not 3 (at settings.one_question_at_a_time)\n"
        "    hint: for example 'one_question_at_a_time: true'",
        f"{path}:10:14: error[QB201]: quiz_type is 'graded' or 'practice', not 'exam' (at settings.quiz_type)\n"
        "    hint: for example 'quiz_type: practice'",
    ]  # "show_correct_answers: yes" is YAML for true: fine


def test_a_flag_is_not_a_number(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "flag.md", markdown("settings:\n  allowed_attempts: yes\n  time_limit: no\n")))
    assert [p.split("\n")[0] for p in problems] == [
        f"{tmp_path}/flag.md:4:21: error[QB201]: allowed_attempts is a number from 1 to 1000, or 'unlimited', not true (at settings.allowed_attempts)",
        f"{tmp_path}/flag.md:5:15: error[QB201]: time_limit is a whole number of minutes from 1 to 10080, not false (at settings.time_limit)",
    ]


def test_settings_that_are_not_a_mapping(tmp_path: Path) -> None:
    _, problems = read(write(tmp_path, "scalar.md", markdown("settings: 30\n")))
    assert problems == [
        f"{tmp_path}/scalar.md:3:11: error[QB201]: settings must be a mapping of setting names to values, not 30 (at settings)\n"
        "    hint: write 'settings:' and, indented below it, lines such as '  time_limit: 45'"]


def test_shuffle_answers_false_keeps_every_question_in_order_in_markdown(tmp_path: Path) -> None:
    body = QUESTION + "\n3. Pick two. {#two}\n\nA) x\nB) y\nC) z\n\nAnswer: A, B\n\n4. Shuffled. {#mixed shuffle}\n\nA) x\nB) y\n\nAnswer: B\n"
    quiz, problems = read(write(tmp_path, "keep.md", markdown("settings:\n  shuffle_answers: false\n", body)))
    assert problems == [] and quiz is not None
    assert {q.id: getattr(q, "shuffle", None) for q in quiz.iter_questions()} == {"seven": None, "pick": False, "two": False, "mixed": True}
    # The front matter's own default wins over the setting.
    quiz, _ = read(write(tmp_path, "both.md", markdown("shuffle: true\nsettings:\n  shuffle_answers: false\n")))
    assert quiz is not None and next(q for q in quiz.iter_questions() if q.id == "pick").shuffle is True


# -- readers: YAML ----------------------------------------------------------------------------------

YAML = """\
id: y
title: Y
settings:
{settings}
sections:
  - id: s
    title: S
    questions:
      - {{type: true_false, id: q, stem: Seven is prime., answer: true}}
"""


def test_yaml_settings(tmp_path: Path) -> None:
    quiz, problems = read(write(tmp_path, "y.yaml", YAML.format(settings="  time_limit: 90\n  allowed_attempts: unlimited")))
    assert problems == [] and quiz is not None
    assert quiz.settings.given() == {"time_limit": 90, "allowed_attempts": "unlimited"}


def test_yaml_bad_settings(tmp_path: Path) -> None:
    settings = "  time_limit: 20000\n  allowed_attempts: many\n  shufle_answers: true\n  quiz_type: [graded]"
    _, problems = read(write(tmp_path, "y.yaml", YAML.format(settings=settings)))
    path = f"{tmp_path}/y.yaml"
    assert problems == [
        f"{path}:4:15: error[QB201]: time_limit is a whole number of minutes from 1 to 10080, not 20000 (at settings.time_limit)\n"
        "    hint: for example 'time_limit: 45'",
        f"{path}:5:21: error[QB201]: allowed_attempts is a number from 1 to 1000, or 'unlimited', not 'many' (at settings.allowed_attempts)\n"
        "    hint: for example 'allowed_attempts: 2'",
        f"{path}:6:3: error[QB201]: unknown setting 'shufle_answers'; did you mean 'shuffle_answers'? (at settings.shufle_answers)\n{SETTINGS_HINT}",
        f"{path}:7:14: error[QB201]: quiz_type is 'graded' or 'practice', not a list (at settings.quiz_type)\n"
        "    hint: for example 'quiz_type: practice'",
    ]


def test_the_editor_schema_describes_and_checks_settings() -> None:
    from qti_builder.model.schema import source_json_schema

    schema = source_json_schema()
    settings = schema["$defs"]["QuizSettings"]
    assert list(settings["properties"]) == ["time_limit", "allowed_attempts", "shuffle_answers", "show_correct_answers",
                                            "one_question_at_a_time", "lock_questions_after_answering", "grading_method",
                                            "quiz_type", "qti_variants", "scoring", "incomplete_points"]
    assert all(p.get("description") for p in settings["properties"].values())
    assert schema["properties"]["settings"]["description"]
    validator = jsonschema.Draft202012Validator(schema)
    quiz = {"title": "T", "sections": [{"id": "s", "title": "S", "questions": [{"type": "text_only", "id": "t", "stem": "x"}]}]}
    assert list(validator.iter_errors({**quiz, "settings": {"time_limit": 30, "allowed_attempts": "unlimited"}})) == []
    for wrong in ({"time_limit": 0}, {"allowed_attempts": 0}, {"quiz_type": "exam"}, {"colour": "red"}, {"shuffle_answers": "no"},
                  {"grading_method": "best"}, {"lock_questions_after_answering": "no"}):
        assert list(validator.iter_errors({**quiz, "settings": wrong})), wrong


# -- the QTI 2.1 test -------------------------------------------------------------------------------


def qti_test(tmp_path: Path, front: str) -> tuple[etree._Element, dict[str, bytes]]:
    source = write(tmp_path, "q.md", markdown(front))
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"]))
    package = zip_members((tmp_path / "dist" / "q.qti21.zip").read_bytes())
    return etree.fromstring(package["assessmentTest.xml"]), package


def valid(document: etree._Element) -> None:
    qti, _ = official_schemas()
    errors = list(qti.iter_errors(document))
    assert errors == [], errors[0]


def test_qti_test_carries_time_limit_attempts_and_show_solution(tmp_path: Path) -> None:
    test, package = qti_test(tmp_path, EVERY_SETTING)
    valid(test)
    # The XSD's order: outcomeDeclaration*, timeLimits?, testPart; in the part itemSessionControl
    # comes before the sections.
    assert [etree.QName(e).localname for e in test] == ["outcomeDeclaration", "outcomeDeclaration", "timeLimits", "testPart",
                                                        "outcomeProcessing"]
    assert dict(test.find("q:timeLimits", NS).attrib) == {"maxTime": "2700"}  # 45 minutes, in seconds
    part = test.find("q:testPart", NS)
    assert etree.QName(part[0]).localname == "itemSessionControl"
    assert dict(part[0].attrib) == {"maxAttempts": "2", "showSolution": "false"}
    # What QTI 2.1 cannot say is not approximated: the part stays nonlinear and simultaneous, and
    # no section is shuffled to stand for "shuffle answers".
    assert (part.get("navigationMode"), part.get("submissionMode")) == ("nonlinear", "simultaneous")
    assert test.find(".//q:ordering", NS) is None
    # The items did not change: pyslet still scores them.
    assert score_item(package["items/pick.xml"], "A")["SCORE"] == 1.0


def test_canvas_reads_them_as_the_quiz_settings(tmp_path: Path) -> None:
    """The values as Canvas's QTI 2 converter (assessment_test_converter.rb) turns them into quiz
    settings: the first timeLimits' maxTime in seconds, divided by 60; the first testPart's
    itemSessionControl, maxAttempts 0 meaning no limit (Canvas's -1) and showSolution
    "true"/"false"."""
    test, _ = qti_test(tmp_path, "settings:\n  time_limit: 90\n  allowed_attempts: unlimited\n  show_correct_answers: true\n")
    valid(test)
    limits = test.find(".//q:timeLimits", NS)
    assert int(limits.get("maxTime")) // 60 == 90
    control = test.find("q:testPart//q:itemSessionControl", NS)
    assert (control.get("maxAttempts"), control.get("showSolution")) == ("0", "true")


@pytest.mark.parametrize(("front", "limits", "control"), [
    ("", None, None),
    ("settings:\n  quiz_type: graded\n  one_question_at_a_time: true\n", None, None),
    ("settings:\n  show_correct_answers: true\n", None, {"showSolution": "true"}),
    ("settings:\n  allowed_attempts: 1\n", None, {"maxAttempts": "1"}),
    ("settings:\n  time_limit: 1\n", {"maxTime": "60"}, None),
])
def test_only_the_settings_given_are_written(tmp_path: Path, front: str, limits: dict[str, str] | None,
                                             control: dict[str, str] | None) -> None:
    test, _ = qti_test(tmp_path, front)
    valid(test)
    found = test.find("q:timeLimits", NS)
    assert (dict(found.attrib) if found is not None else None) == limits
    found = test.find("q:testPart/q:itemSessionControl", NS)
    assert (dict(found.attrib) if found is not None else None) == control


# -- the report and the console -----------------------------------------------------------------------


def test_report_lists_the_settings_and_what_each_file_leaves_out(tmp_path: Path) -> None:
    with_settings = write(tmp_path, "with.md", markdown("settings:\n  time_limit: 30\n  quiz_type: practice\n"))
    without = write(tmp_path, "without.md", markdown(""))
    code, out, err = run("check", str(with_settings), str(without), "--report", "json")
    assert code == 0, err
    report = json.loads(out)
    jsonschema.validate(report, json.loads(schema_path().read_text(encoding="utf-8")))
    quizzes = {q["id"]: q for q in report["quizzes"]}
    assert quizzes["with"]["settings"] == {"time_limit": 30, "quiz_type": "practice"}
    assert {o["format"]: o["settings_not_carried"] for o in quizzes["with"]["outputs"]} == {
        "qti21": ["quiz_type"], "moodle": ["time_limit", "quiz_type"], "canvas": [], "moodle-quiz": ["quiz_type"]}
    assert quizzes["without"]["settings"] == {}
    assert all(o["settings_not_carried"] == [] for o in quizzes["without"]["outputs"])
    assert "warning" not in err  # stating settings is not a problem


def test_wrote_lines_say_which_settings_a_file_leaves_out(tmp_path: Path) -> None:
    source = write(tmp_path, "q.md", markdown("settings:\n  time_limit: 30\n  one_question_at_a_time: true\n"))
    code, out, err = run("build", str(source), "--out", str(tmp_path / "dist"))
    assert code == 0, err
    assert out.splitlines()[1:] == [
        f"wrote {tmp_path}/dist/q.qti21.zip: QTI 2.1 loses the quiz setting one_question_at_a_time (set it in the LMS)",
        f"wrote {tmp_path}/dist/q.moodle.xml: Moodle loses the quiz settings time_limit, one_question_at_a_time (set them in the LMS)",
        f"wrote {tmp_path}/dist/q.canvas.zip",  # the Canvas package carries every setting
        f"wrote {tmp_path}/dist/q.mbz",  # and so does the Moodle quiz backup
    ]
    code, out, err = run("build", str(write(tmp_path, "plain.md", markdown(""))), "--out", str(tmp_path / "dist"))
    assert out.splitlines()[1:] == [f"wrote {tmp_path}/dist/plain.qti21.zip", f"wrote {tmp_path}/dist/plain.moodle.xml",
                                f"wrote {tmp_path}/dist/plain.canvas.zip", f"wrote {tmp_path}/dist/plain.mbz"]


# -- importers --------------------------------------------------------------------------------------


def imported(path: Path, fmt: str = "auto") -> tuple[Quiz, list[str]]:
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink, fmt)
    assert not sink.errors, [d.render() for d in sink.errors]
    return quizzes[0].quiz, [d.render().split("\n")[0] for d in sink.sorted()]


def test_text2qti_options(tmp_path: Path) -> None:
    text = ("Quiz title: Options\nshuffle answers: true\nshow correct answers: False\none question at a time: maybe\n"
            "feedback is solution: true\n\n1. Which?\n*a) this\nb) that\n")
    quiz, problems = imported(write(tmp_path, "options.txt", text), "text2qti")
    assert quiz.settings.given() == {"shuffle_answers": True, "show_correct_answers": False}
    assert next(quiz.iter_questions()).shuffle is True
    assert problems == [
        "options.txt:4:1: warning[QB711]: 'one question at a time: maybe' is not true or false; the option is left out",
        "options.txt:5:1: warning[QB711]: the quiz option 'feedback is solution' has no place in the source; set it in the LMS",
    ]


TAO = ROOT / "tests/fixtures/import/tao-package"


def tao_with(tmp_path: Path, test_xml: str) -> Path:
    package = tmp_path / "tao"
    shutil.copytree(TAO, package)
    (package / "tests/t01/test.xml").write_text(test_xml, encoding="utf-8")
    return package


def tao_test(test_level: str = "", part_level: str = "", section_level: str = "", navigation: str = "nonlinear") -> str:
    refs = "".join(f'<assessmentItemRef identifier="item-{i}" href="../../items/i0{i}/qti.xml"/>' for i in range(1, 5))
    return (f'<assessmentTest xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="T" title="T">{test_level}'
            f'<testPart identifier="P" navigationMode="{navigation}" submissionMode="individual">{part_level}'
            f'<assessmentSection identifier="S" title="S" visible="true">{section_level}{refs}</assessmentSection>'
            "</testPart></assessmentTest>")


def test_qti_test_settings_are_imported(tmp_path: Path) -> None:
    package = tao_with(tmp_path, tao_test('<timeLimits maxTime="1200"/>', '<itemSessionControl maxAttempts="3" showSolution="true"/>'))
    quiz, problems = imported(package)
    assert quiz.settings.given() == {"time_limit": 20, "allowed_attempts": 3, "show_correct_answers": True}
    assert not [p for p in problems if "test.xml" in p]


def test_qti_settings_the_source_cannot_hold_are_reported(tmp_path: Path) -> None:
    test = tao_test(part_level='<itemSessionControl maxAttempts="0" allowReview="false"/><timeLimits minTime="60" maxTime="90"/>',
                    section_level='<itemSessionControl maxAttempts="2"/>', navigation="linear")
    quiz, problems = imported(tao_with(tmp_path, test))
    # One test part: its time limit is the quiz's; 90 s is not a whole number of minutes. Linear
    # navigation is the quiz's lock on answered questions.
    assert quiz.settings.given() == {"time_limit": 2, "allowed_attempts": "unlimited", "lock_questions_after_answering": True}
    where = "tao:tests/t01/test.xml:1:1: warning[QB711]: "
    assert [p for p in problems if "test.xml" in p] == [
        where + "the time limit of 90 seconds is kept as 2 minutes: the source holds whole minutes",
        where + "the test's minimum time (minTime) has no setting in the source",
        where + "the test's session controls allowReview have no setting in the source",
        where + "1 time limit or session control on assessmentSection is not imported: the source's settings are the whole quiz's",
    ]


def test_an_imported_setting_the_model_refuses_is_left_out(tmp_path: Path) -> None:
    quiz, problems = imported(tao_with(tmp_path, tao_test('<timeLimits maxTime="1209600"/>')))  # two weeks
    assert quiz.settings.given() == {}
    assert any("the quiz setting time_limit = 20160 cannot be kept" in p for p in problems)


# -- the source writer and round trips ---------------------------------------------------------------


@pytest.mark.parametrize("front", [
    EVERY_SETTING,
    "settings:\n  shuffle_answers: false\n",
    "settings:\n  allowed_attempts: unlimited\n  quiz_type: graded\n",
])
def test_source_writer_round_trip(tmp_path: Path, front: str) -> None:
    quiz, _ = read(write(tmp_path, "rt.md", markdown(front)))
    assert quiz is not None
    written = write_source(quiz)
    assert written.suffix == ".md", written.reason
    assert read_back(written.text, ".md") == quiz
    assert "settings:\n" in written.text.split("\n---\n")[0]
    data = quiz.model_dump()
    next(q for q in data["sections"][0]["questions"] if q["id"] == "pick")["shuffle"] = quiz.settings.shuffle_answers is False
    other = Quiz.model_validate(data)  # a question that disagrees with the quiz-wide default
    written = write_source(other)
    assert written.suffix == ".md" and read_back(written.text, ".md") == other


def test_build_import_write_read_keeps_what_qti_carries(tmp_path: Path) -> None:
    source = write(tmp_path, "rt.md", markdown(EVERY_SETTING))
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist"))
    for suffix, kept in ((".qti21.zip", {"time_limit": 45, "allowed_attempts": 2, "show_correct_answers": False}),
                         (".moodle.xml", {})):
        quiz, _ = imported(tmp_path / "dist" / f"rt{suffix}")
        assert quiz.settings.given() == kept
        written = write_source(quiz)
        assert read_back(written.text, written.suffix) == quiz


# -- preview ----------------------------------------------------------------------------------------


def settings_shown(page: Path) -> dict[str, tuple[str, str]]:
    tree = html.fromstring(page.read_text(encoding="utf-8"))
    return {d.get("data-setting"): (d.findtext("dt"), d.findtext("dd")) for d in tree.xpath("//dl[@class='settings']/div")}


def test_preview_shows_the_settings_in_the_quiz_language(tmp_path: Path) -> None:
    korean = write(tmp_path, "ko.md", "---\ntitle: 설정\nlanguage: ko\n" + EVERY_SETTING.replace("2\n", "unlimited\n")
                   + "---\n\n" + QUESTION.replace("Answer", "정답"))
    english = write(tmp_path, "en.md", markdown("settings:\n  time_limit: 45\n  quiz_type: graded\n"))
    plain = write(tmp_path, "plain.md", markdown(""))
    build_preview(BuildOptions(sources=[korean, english, plain]), tmp_path / "site")
    assert settings_shown(tmp_path / "site/ko.html") == {
        "time_limit": ("제한 시간", "45분"), "allowed_attempts": ("응시 가능 횟수", "무제한"),
        "shuffle_answers": ("답안 순서 섞기", "예"), "show_correct_answers": ("정답 공개", "아니요"),
        "one_question_at_a_time": ("한 번에 한 문항씩", "예"), "quiz_type": ("퀴즈 유형", "연습 퀴즈")}
    assert settings_shown(tmp_path / "site/en.html") == {"time_limit": ("Time limit", "45 min"), "quiz_type": ("Quiz type", "Graded quiz")}
    page = (tmp_path / "site/plain.html").read_text(encoding="utf-8")
    assert 'class="settings"' not in page
    # At the top: right after the title, before the first question.
    ko = (tmp_path / "site/ko.html").read_text(encoding="utf-8")
    assert ko.index("<h1>") < ko.index('class="settings"') < ko.index('class="question"')
