"""The Moodle quiz backup (``--format moodle-quiz``, dist/<id>.mbz), read back as Moodle's restore
reads it (helpers.moodle_backup) and checked against the source: every setting, slot, section,
random draw, point value and file; its questions re-read by the Moodle grader of the tests and
compared with the same source's Moodle XML read by the same grader; the restore's rules enforced.
"""

from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest
from lxml import etree

from helpers import ROOT, write
from helpers.moodle_backup import Backup, engine_question, read_backup
from helpers.moodle_engine import Question, grade, grade_calculated, read_question
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz, Section
from qti_builder.pipeline import BuildIncomplete, load_quizzes
from qti_builder.writers import DEFAULT_FORMATS

SOURCES = [ROOT / "source" / "python-fundamentals.md", ROOT / "source" / "ray-train-tune.md",
           ROOT / "source" / "content-showcase.md", ROOT / "tests" / "fixtures" / "all-types.yaml",
           ROOT / "tests" / "fixtures" / "calculated.md", ROOT / "tests" / "fixtures" / "exam-ko.md",
           ROOT / "tests" / "fixtures" / "moodle-quiz.yaml"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Quiz, Backup, etree._Element, Path]]:
    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=SOURCES, out_dir=out, formats=["moodle-quiz", "moodle"], jobs=1))
    loaded = load_quizzes(BuildOptions(sources=SOURCES), DiagnosticSink())
    return {item.quiz.id: (item.quiz, read_backup((out / f"{item.quiz.id}.mbz").read_bytes()),
                           etree.parse(str(out / f"{item.quiz.id}.moodle.xml")).getroot(), item.path)
            for item in loaded}


QUIZ_IDS = ["python-fundamentals", "ray-train-tune", "content-showcase", "all-types", "calculated", "hanguksa-final",
            "moodle-quiz"]


def expected_slots(quiz: Quiz) -> list[tuple[str, object, float]]:
    """Each slot the source asks for, in order, from the model itself: ("text", section id, 0) for a
    section's description, ("question", question id, points), ("random", section id, points)."""
    slots: list[tuple[str, object, float]] = []

    def walk(sections: list[Section]) -> None:
        for section in sections:
            if section.description:
                slots.append(("text", section.id, 0.0))
            if section.select and not section.sections:
                slots.extend([("random", section.id, section.questions[0].points)] * section.select)
            else:
                slots.extend(("question", q.id, 0.0 if q.type == "text_only" else q.points) for q in section.questions)
            walk(section.sections)

    walk(quiz.sections)
    return slots


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_every_slot_holds_its_question_or_draw_with_its_points(built, quiz_id: str) -> None:
    quiz, backup, _, _ = built[quiz_id]
    slots = backup.slots()
    expected = expected_slots(quiz)
    assert len(slots) == len(expected)
    for slot, (kind, ident, points) in zip(slots, expected):
        assert slot.maxmark == pytest.approx(points)
        if kind == "question":
            assert backup.entry(slot.entry).findtext("idnumber") == ident  # a question's ID number is its id
        elif kind == "text":
            question = backup.question_of(backup.entry(slot.entry))
            assert question.findtext("qtype") == "description"
        else:  # the draw's category is the section's, holding exactly the section's questions
            category = backup.category(slot.category)
            assert category.findtext("idnumber") == f"{quiz.id}.{ident}"
            section = next(s for _, s in quiz.iter_sections() if s.id == ident)
            held = [e.findtext("idnumber") for e in category.iter("question_bank_entry")]
            assert held == [q.id for q in section.questions]
    total = sum(points for _, _, points in expected)
    assert float(backup.setting("sumgrades")) == pytest.approx(total)
    assert float(backup.setting("grade")) == pytest.approx(total)


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_sections_start_where_the_sources_sections_do_with_their_headings(built, quiz_id: str) -> None:
    quiz, backup, _, _ = built[quiz_id]
    expected, slot = [], 1
    pending: list[str] = []
    for _, section in quiz.iter_sections():
        title = section.title if section.title != quiz.title else ""
        title = " / ".join([*pending, title]) if pending else title
        pending = []
        if section.description and section.shuffle:  # its text in a section of its own, not shuffled
            expected.append((slot, title, False))
            title, slot = "", slot + 1
        elif section.description:
            expected.append((slot, title, section.shuffle))
            title, slot = None, slot + 1
        count = section.select if section.select and not section.sections else len(section.questions)
        if count and title is not None:
            expected.append((slot, title, section.shuffle))
        elif not count and title:
            pending = [title]
        slot += count
    assert backup.sections() == expected


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_one_question_per_page_unless_the_source_says_otherwise(built, quiz_id: str) -> None:
    quiz, backup, _, _ = built[quiz_id]
    pages = [s.page for s in backup.slots()]
    if quiz.settings.one_question_at_a_time is False:
        starts = [first for first, _, _ in backup.sections()]
        assert pages == [sum(1 for f in starts if f <= n) for n in range(1, len(pages) + 1)]
    else:
        assert pages == list(range(1, len(pages) + 1))


def test_the_settings_of_the_source_are_the_quizs(built) -> None:
    """all-types.yaml: time_limit 45, allowed_attempts 2, shuffle_answers, show_correct_answers false,
    one_question_at_a_time, no grading method and no lock: Moodle's defaults, highest grade and free
    navigation (worked out by hand from the file)."""
    _, backup, _, _ = built["all-types"]
    assert backup.setting("timelimit") == "2700"
    assert backup.setting("attempts_number") == "2"
    assert backup.setting("shuffleanswers") == "1"
    assert backup.setting("questionsperpage") == "1"
    assert backup.setting("navmethod") == "free"
    assert backup.setting("grademethod") == "1"
    assert backup.setting("reviewrightanswer") == "0"  # never shown
    assert backup.setting("reviewmarks") == str(0x11110)
    assert backup.setting("name") == "Every question type"
    assert "One question of each kind." in backup.setting("intro")


def test_the_settings_the_other_way(built) -> None:
    """moodle-quiz.yaml: time_limit 10, unlimited attempts, no shuffling, correct answers shown,
    all of a section on one page, locked questions, the last attempt's grade; Part 1 has no
    question of its own, Chapter 1 a text and shuffles."""
    _, backup, _, _ = built["moodle-quiz"]
    assert (backup.setting("timelimit"), backup.setting("attempts_number"), backup.setting("shuffleanswers")) == ("600", "0", "0")
    # mod/quiz: QUIZ_NAVMETHOD_SEQ is 'sequential', QUIZ_ATTEMPTLAST is 4.
    assert (backup.setting("navmethod"), backup.setting("grademethod")) == ("sequential", "4")
    assert backup.setting("reviewrightanswer") == str(0x01110)  # immediately after, later, after close
    assert backup.setting("questionsperpage") == "0"
    assert backup.sections() == [(1, "Part 1 / Chapter 1", False), (2, "", True), (4, "Pool", False)]
    assert [(s.page, s.maxmark, s.category is not None) for s in backup.slots()] == [
        (1, 0.0, False), (2, 1.0, False), (2, 3.0, False), (3, 2.0, True), (3, 2.0, True)]
    assert backup.setting("sumgrades") == "8.0000000"


def test_unset_settings_are_moodles_defaults(built) -> None:
    _, backup, _, _ = built["ray-train-tune"]
    assert backup.setting("timelimit") == "0"
    assert backup.setting("attempts_number") == "0"  # unlimited
    assert backup.setting("reviewrightanswer") == str(0x11110)
    assert (backup.setting("navmethod"), backup.setting("grademethod")) == ("free", "1")


@pytest.mark.parametrize(("method", "grademethod"), [("highest", "1"), ("average", "2"), ("first", "3"), ("last", "4")])
def test_each_grading_method_is_moodles(tmp_path: Path, method: str, grademethod: str) -> None:
    """mod/quiz's constants: QUIZ_GRADEHIGHEST 1, QUIZ_GRADEAVERAGE 2, QUIZ_ATTEMPTFIRST 3,
    QUIZ_ATTEMPTLAST 4; with lock_questions_after_answering false, navigation stays free."""
    source = write(tmp_path, "g.yaml", f"""id: g
title: G
settings: {{grading_method: {method}, lock_questions_after_answering: false}}
sections:
  - {{id: a, title: A, questions: [{{type: true_false, id: t1, stem: One., answer: true}}]}}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "g.mbz").read_bytes())
    assert (backup.setting("grademethod"), backup.setting("navmethod")) == (grademethod, "free")


def test_settings_each_way(tmp_path: Path) -> None:
    source = write(tmp_path, "s.yaml", """id: s
title: S
settings: {time_limit: 10, allowed_attempts: unlimited, shuffle_answers: false, show_correct_answers: true,
           one_question_at_a_time: false}
sections:
  - id: a
    title: A
    questions:
      - {type: true_false, id: t1, stem: One., answer: true}
      - {type: true_false, id: t2, stem: Two., answer: false, points: 3}
  - id: b
    title: B
    questions:
      - {type: true_false, id: t3, stem: Three., answer: true}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "s.mbz").read_bytes())
    assert (backup.setting("timelimit"), backup.setting("attempts_number"), backup.setting("shuffleanswers")) == ("600", "0", "0")
    assert backup.setting("reviewrightanswer") == str(0x01110)  # immediately after, later, after close
    assert backup.setting("questionsperpage") == "0"
    assert [(s.page, s.maxmark) for s in backup.slots()] == [(1, 1.0), (1, 3.0), (2, 1.0)]
    assert backup.setting("sumgrades") == "5.0000000"


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_each_question_reads_as_its_moodle_xml_does(built, quiz_id: str) -> None:
    """The independent check: the Moodle grader reads each question from the backup's records and
    from the Moodle XML of the same build; both must be the same question (type, mark, answers
    with their fractions and tolerances, options, subquestions, datasets)."""
    quiz, backup, moodle_xml, _ = built[quiz_id]
    compared = 0
    for element in moodle_xml.iter("question"):
        if element.get("type") in ("category", "description"):
            continue
        from_xml = read_question(element)
        from_backup = engine_question(backup, backup.question_of(backup.entry_by_idnumber(element.findtext("idnumber"))))
        assert _comparable(from_backup) == _comparable(from_xml), element.findtext("idnumber")
        compared += 1
    assert compared == sum(1 for q in quiz.iter_questions() if q.type != "text_only")


def _comparable(q: Question) -> Question:
    """Texts compared as what a student reads (HTML and whitespace aside); hints are not in the backup."""
    from helpers.text import html_text

    for answer in q.answers:
        answer.text = html_text(answer.text) if "<" in answer.text else answer.text.strip()
        answer.feedback = ""
    for sub in q.cloze:
        for answer in sub.answers:
            answer.feedback = ""
    q.subquestions = [(html_text(stem) if stem else stem, answer) for stem, answer in q.subquestions]
    q.hints = 0
    return q


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_the_right_answers_score_full_marks(built, quiz_id: str) -> None:
    """The right response to every automatically graded question, graded from the backup alone:
    each scores its full mark, so the quiz's grade is its total less what a teacher grades."""
    _, backup, _, _ = built[quiz_id]
    for slot in backup.slots():
        if slot.entry is None:
            continue
        question = engine_question(backup, backup.question_of(backup.entry(slot.entry)))
        response = _right_response(question)
        if response is None:
            continue
        fraction = grade_calculated(question, 1, response) if question.qtype.startswith("calculated") else grade(question, response)
        assert fraction == pytest.approx(1.0), (slot, question.qtype)


def _right_response(q: Question) -> object:
    from helpers.moodle_engine import calculated_answers

    best = [i for i, a in enumerate(q.answers) if a.fraction > 0]
    if q.qtype == "multichoice" or q.qtype == "calculatedmulti":
        return {max(best, key=lambda i: q.answers[i].fraction)} if q.single else set(best)
    if q.qtype in ("truefalse", "shortanswer", "numerical"):
        text = next(a.text for a in q.answers if a.fraction == 1.0)
        return text.replace("\\*", "*")
    if q.qtype == "matching":
        return [answer for stem, answer in q.subquestions if stem is not None]
    if q.qtype == "ordering":
        return [a.text for a in q.answers]
    if q.qtype == "cloze":
        from helpers.text import html_text

        return {n: html_text(next(a.text for a in sub.answers if a.fraction == 1.0))
                if sub.qtype == "multichoice" else next(a.text for a in sub.answers if a.fraction == 1.0)
                for n, sub in enumerate(q.cloze, 1)}
    if q.qtype == "calculated":
        return repr(calculated_answers(q, 1)[0])
    return None  # essays and descriptions: graded by a teacher, or not at all


@pytest.mark.parametrize("quiz_id", ["content-showcase", "python-fundamentals"])
def test_every_media_file_is_in_the_backup_where_its_text_shows_it(built, quiz_id: str) -> None:
    quiz, backup, _, source = built[quiz_id]
    files = backup.part("files.xml")
    listed = {(f.findtext("component"), f.findtext("filearea"), f.findtext("itemid"), f.findtext("filename")): f
              for f in files.iter("file")}
    shown = 0
    for question in backup.questions.iterfind(".//questions/question"):
        for tag, area in (("questiontext", "questiontext"), ("generalfeedback", "generalfeedback")):
            text = question.findtext(tag) or ""
            for name in _plugin_files(text):
                entry = listed[("question", area, question.get("id"), name)]
                blob = backup.members[f"files/{entry.findtext('contenthash')[:2]}/{entry.findtext('contenthash')}"]
                assert hashlib.sha1(blob).hexdigest() == entry.findtext("contenthash")
                assert entry.findtext("contextid") == backup.quiz.get("contextid")
                shown += 1
        for answer in question.iterfind(".//answers/answer"):
            for name in _plugin_files(answer.findtext("answertext") or ""):
                assert ("question", "answer", answer.get("id"), name) in listed
                shown += 1
    media = {f.name for f in load_quizzes(BuildOptions(sources=[source]), DiagnosticSink())[0].media.files}
    assert {f.findtext("filename") for f in files.iter("file")} == media
    assert shown >= (1 if media else 0)


def test_media_in_every_text_moodle_files_is_in_its_file_area(tmp_path: Path) -> None:
    """An image or a sound in each text that Moodle keeps files for (the quiz's description, a
    section's text, a choice, a choice's feedback, the general feedback, a matching prompt, an
    essay's model answer): files.xml lists it in that text's file area (component, area) of that
    very record, the one whose text shows it, and its bytes are in the backup (the areas of
    question/type/*/backup and mod/quiz/backup: each restored so in Moodle 4.5)."""
    import shutil

    media = tmp_path / "media"
    media.mkdir()
    shutil.copy(ROOT / "source" / "media" / "workers.png", media / "a.png")
    shutil.copy(ROOT / "source" / "media" / "tone.wav", media / "b.wav")
    source = write(tmp_path, "m.yaml", """id: mediaq
title: Media everywhere
description: "Look: ![quiz picture](media/a.png)"
sections:
  - id: s
    title: S
    description: "Section picture ![s](media/a.png)"
    questions:
      - type: single_choice
        id: c
        stem: Pick.
        feedback: {general: "See ![g](media/a.png)"}
        choices:
          - {id: A, text: "![one](media/a.png)", correct: true, feedback: "Heard <audio controls src=\\"media/b.wav\\">tone</audio>"}
          - {id: B, text: Two}
      - type: matching
        id: m
        stem: Match.
        pairs:
          - {prompt: "![p](media/a.png)", answer: Picture}
          - {prompt: Sound, answer: Noise}
      - type: essay
        id: e
        stem: Describe.
        model_answer: "Like ![x](media/a.png)"
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "mediaq.mbz").read_bytes())

    def owner(component: str, area: str, itemid: str) -> tuple[str, str]:
        """The record a file row points at: its question's ID number, and the text that shows it."""
        if component == "mod_quiz":
            return "quiz", backup.setting("intro")
        tag = {"answer": "answer", "answerfeedback": "answer", "subquestion": "match"}.get(area, "question")
        field_ = {"answer": "answertext", "answerfeedback": "feedback", "subquestion": "questiontext"}.get(area, area)
        for question in backup.questions.iterfind(".//questions/question"):
            for record in ([question] if tag == "question" else question.iter(tag)):
                if record.get("id") == itemid:
                    entry = next(question.iterancestors("question_bank_entry"))
                    return entry.findtext("idnumber"), record.findtext(field_) or record.findtext(f"*/*/{field_}") or ""
        raise AssertionError((component, area, itemid))

    rows = set()
    for file in backup.part("files.xml").iter("file"):
        component, area, name = file.findtext("component"), file.findtext("filearea"), file.findtext("filename")
        who, text = owner(component, area, file.findtext("itemid"))
        assert f"@@PLUGINFILE@@/{name}" in text, (component, area)  # the record's text shows that file
        digest = file.findtext("contenthash")
        assert hashlib.sha1(backup.members[f"files/{digest[:2]}/{digest}"]).hexdigest() == digest
        rows.add((component, area, who, name.split("-")[0]))
    assert rows == {("mod_quiz", "intro", "quiz", "a"), ("question", "questiontext", "mediaq.s.text", "a"),
                    ("question", "generalfeedback", "c", "a"), ("question", "answer", "c", "a"),
                    ("question", "answerfeedback", "c", "b"), ("qtype_match", "subquestion", "m", "a"),
                    ("qtype_essay", "graderinfo", "e", "a")}


def _plugin_files(text: str) -> list[str]:
    import re
    from urllib.parse import unquote

    return [unquote(m) for m in re.findall(r"@@PLUGINFILE@@/([^\"'<>\s?#]+)", text)]


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_the_tarball_is_what_moodle_reads(built, quiz_id: str) -> None:
    _, backup, _, _ = built[quiz_id]
    assert backup.order == sorted(backup.order)
    for required in ("moodle_backup.xml", "files.xml", "questions.xml", "roles.xml", "groups.xml", "outcomes.xml",
                     "scales.xml", *(f"{backup.folder}/{m}" for m in ("module.xml", "quiz.xml", "roles.xml", "grades.xml",
                                                                      "calendar.xml", "filters.xml", "inforef.xml"))):
        assert required in backup.members
    assert backup.members["moodle_backup.xml"].startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<moodle_backup>')
    assert all(len(name) < 100 and name.isascii() for name in backup.order)  # ustar names
    listed = {c.findtext("id") for c in backup.part(f"{backup.folder}/inforef.xml").iter("question_category")}
    assert listed == {c.get("id") for c in backup.questions.iter("question_category")}
    context = backup.quiz.get("contextid")
    assert {e.text for e in backup.quiz.iter("usingcontextid", "questionscontextid")} == {context}
    assert [c.findtext("name") for c in backup.questions.iter("question_category") if c.findtext("parent") == "0"] == ["top"]
    assert {v.text for v in backup.questions.iter("status")} == {"ready"}


def test_the_same_source_gives_the_same_bytes_and_the_epoch_is_every_time(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    source = ROOT / "tests" / "fixtures" / "all-types.yaml"
    for out in ("a", "b"):
        build(BuildOptions(sources=[source], out_dir=tmp_path / out, formats=["moodle-quiz"], jobs=1))
    first = (tmp_path / "a" / "all-types.mbz").read_bytes()
    assert first == (tmp_path / "b" / "all-types.mbz").read_bytes()
    with tarfile.open(fileobj=io.BytesIO(first)) as tar:
        assert {m.mtime for m in tar.getmembers()} == {1700000000}
    backup = read_backup(first)
    assert backup.setting("timecreated") == "1700000000"
    assert {e.text for e in backup.questions.iter("timecreated")} == {"1700000000"}


def test_in_the_default_formats_after_the_others() -> None:
    """A plain build writes the backup too, last (its lines after the three question files')."""
    assert DEFAULT_FORMATS == ("qti21", "moodle", "canvas", "moodle-quiz")
    assert BuildOptions().formats == list(DEFAULT_FORMATS)


def test_what_moodle_cannot_hold_is_a_loss(tmp_path: Path) -> None:
    source = write(tmp_path, "p.yaml", """id: p
title: P
settings: {quiz_type: practice}
sections:
  - id: outer
    title: Outer
    select: 1
    sections:
      - id: in1
        title: In 1
        questions: [{type: true_false, id: t1, stem: One., answer: true}]
      - id: in2
        title: In 2
        questions: [{type: true_false, id: t2, stem: Two., answer: true}]
  - id: mixed
    title: Mixed
    select: 1
    questions:
      - {type: true_false, id: t3, stem: Three., answer: true, points: 2}
      - {type: true_false, id: t4, stem: Four., answer: true, points: 5}
  - id: both
    title: Both
    select: 1
    questions: [{type: true_false, id: t5, stem: Five., answer: true}]
    sections:
      - id: in3
        title: In 3
        questions: [{type: true_false, id: t6, stem: Six., answer: true}]
""")
    result = build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    losses = result.results[0].losses
    # the draw among nested sections only is the Moodle profile's (QB601, at its first question)
    assert sorted((loss.code, loss.subject or loss.question) for loss in losses) == [
        ("QB601", "t1"), ("QB602", "quiz_type"), ("QB603", "both"), ("QB603", "mixed")]
    assert "worth 2, 5 points" in next(loss.message for loss in losses if loss.subject == "mixed")
    backup = read_backup((tmp_path / "dist" / "p.mbz").read_bytes())
    # both questions of the nested draw, fixed; the mixed draw a slot worth its first question's points
    assert [(s.entry is not None, s.maxmark) for s in backup.slots()] == [
        (True, 1.0), (True, 1.0), (False, 2.0), (True, 1.0), (True, 1.0)]


def test_a_broken_backup_is_refused_by_the_restore_rules() -> None:
    """Each rule fails on the restore's own terms: changed one element at a time from a good part."""
    from qti_builder.backup_rules import rules_of_part
    from qti_builder.validate import BACKUP_GRADES

    quiz_xml = b"""<?xml version="1.0" encoding="UTF-8"?>
<activity id="1" moduleid="1" modulename="quiz" contextid="100"><quiz id="1">
<question_instances>
<question_instance id="1"><slot>1</slot><page>1</page><maxmark>2.0000000</maxmark>
<question_reference id="1"><usingcontextid>100</usingcontextid></question_reference></question_instance>
<question_instance id="2"><slot>2</slot><page>1</page><maxmark>1.0000000</maxmark>
<question_reference id="2"><usingcontextid>100</usingcontextid></question_reference></question_instance>
</question_instances>
<sumgrades>3.0000000</sumgrades><grade>3.0000000</grade>
<sections><section id="1"><firstslot>1</firstslot></section></sections></quiz></activity>"""

    def problems(data: bytes) -> list[str]:
        tree = etree.fromstring(data).getroottree()
        return [message for _, _, message in rules_of_part("mbz-quiz", tree, data, BACKUP_GRADES)]

    assert problems(quiz_xml) == []
    assert "sumgrades" in problems(quiz_xml.replace(b"<sumgrades>3.0", b"<sumgrades>2.0"))[0]
    # Questions worth nothing: an attempt starts when the quiz is graded out of 0, not out of 3
    # (mod/quiz quiz_create_attempt: 'cannotstartgradesmismatch').
    worthless = quiz_xml.replace(b"<maxmark>2.0", b"<maxmark>0.0").replace(b"<maxmark>1.0", b"<maxmark>0.0").replace(
        b"<sumgrades>3.0", b"<sumgrades>0.0")
    assert problems(worthless.replace(b"<grade>3.0", b"<grade>0.0")) == []
    assert "graded out of 3" in problems(worthless)[0]
    assert "slot 1" in problems(quiz_xml.replace(b"<firstslot>1<", b"<firstslot>2<"))[0]
    assert "context" in problems(quiz_xml.replace(b"<usingcontextid>100</usingcontextid></question_reference></question_instance>\n</q",
                                                  b"<usingcontextid>7</usingcontextid></question_reference></question_instance>\n</q"))[0]
    assert "does not start a page" in problems(quiz_xml.replace(
        b"<sections><section id=\"1\"><firstslot>1</firstslot></section>",
        b"<sections><section id=\"1\"><firstslot>1</firstslot></section><section id=\"2\"><firstslot>2</firstslot></section>"))[0]
    truefalse = b"""<question_categories><question_category id="1"><contextid>1</contextid><parent>0</parent><stamp>s</stamp>
<question_bank_entries/></question_category></question_categories>"""
    tf_question = b"""<question_categories><question_category id="1"><contextid>1</contextid><parent>0</parent><stamp>s</stamp>
</question_category><question_category id="2"><contextid>1</contextid><parent>1</parent><stamp>t</stamp><question_bank_entries>
<question_bank_entry id="1"><question_version><question_versions id="1"><questions><question id="1"><qtype>truefalse</qtype>
<plugin_qtype_truefalse_question><answers><answer id="5"><fraction>1.0000000</fraction></answer>
<answer id="6"><fraction>0.0000000</fraction></answer></answers>
<truefalse id="1"><trueanswer>5</trueanswer><falseanswer>6</falseanswer></truefalse></plugin_qtype_truefalse_question>
</question></questions></question_versions></question_version></question_bank_entry></question_bank_entries>
</question_category></question_categories>"""

    def question_problems(data: bytes) -> list[str]:
        tree = etree.fromstring(data).getroottree()
        return [message for _, _, message in rules_of_part("mbz-questions", tree, data, BACKUP_GRADES)]

    assert question_problems(truefalse) == []
    assert question_problems(tf_question) == []
    assert "none of this question's answers" in question_problems(tf_question.replace(b"<trueanswer>5<", b"<trueanswer>9<"))[0]
    assert "grade options" in question_problems(tf_question.replace(b"<fraction>0.0000000", b"<fraction>0.4400000"))[0]
    two_tops = question_problems(tf_question.replace(b"<parent>1</parent>", b"<parent>0</parent>"))
    assert any("top categories" in p for p in two_tops) and any("vanish" in p for p in two_tops)


def test_a_quiz_worth_nothing_is_graded_out_of_nothing(tmp_path: Path) -> None:
    """A survey or a reading (text items, questions of 0 points) is a quiz Moodle lets students
    attempt when its grade is 0 too: the backup is written, not refused."""
    source = write(tmp_path, "z.yaml", """id: z
title: Z
sections:
  - id: a
    title: A
    questions:
      - {type: text_only, id: read, stem: Read this.}
      - {type: true_false, id: t1, stem: One., answer: true, points: 0}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "z.mbz").read_bytes())
    assert (backup.setting("sumgrades"), backup.setting("grade")) == ("0.0000000", "0.0000000")
    assert [s.maxmark for s in backup.slots()] == [0.0, 0.0]


def test_a_schema_breach_stops_the_build(tmp_path: Path) -> None:
    """A --templates override that writes what the backup's schema refuses writes nothing."""
    templates = tmp_path / "templates" / "moodle_backup"
    templates.mkdir(parents=True)
    original = (ROOT / "templates" / "moodle_backup" / "module.xml.j2").read_text("utf-8")
    (templates / "module.xml.j2").write_text(original.replace("<score>0</score>", "<score>zero</score>"), "utf-8")
    with pytest.raises(BuildIncomplete) as failed:
        build(BuildOptions(sources=[ROOT / "tests" / "fixtures" / "all-types.yaml"], out_dir=tmp_path / "dist",
                           formats=["moodle-quiz"], templates=tmp_path / "templates", jobs=1))
    assert any("score" in d.message and d.code == "QB401" for d in failed.value.diagnostics)
    assert not (tmp_path / "dist" / "all-types.mbz").exists()


def test_the_json_report_names_the_backup(tmp_path: Path) -> None:
    """The report of a build with the backup is valid against the report's schema, its output listed
    with what it loses (moodle-limits.yaml: nothing of its settings)."""
    import json

    import jsonschema

    from helpers.cli import run
    from qti_builder.report import schema_path

    code, out, _ = run("build", str(ROOT / "tests" / "fixtures" / "moodle-quiz.yaml"), "--out", str(tmp_path / "dist"),
                       "--format", "moodle-quiz,moodle", "--report", "json")
    report = json.loads(out)
    jsonschema.validate(report, json.loads(schema_path().read_text(encoding="utf-8")))
    outputs = {o["format"]: o for q in report["quizzes"] for o in q["outputs"]}
    assert code == 0 and set(outputs) == {"moodle-quiz", "moodle"}
    assert outputs["moodle-quiz"]["settings_not_carried"] == [] and outputs["moodle-quiz"]["losses"] == []
    assert outputs["moodle"]["settings_not_carried"] != []


def test_names_fit_moodles_columns(tmp_path: Path) -> None:
    """A question title longer than the bank's 255-character name column is cut there (its text is
    whole); a section title with a slash keeps one slash (a backup's category has a name, not a path)."""
    long_title = "Photosynthesis " * 30
    source = write(tmp_path, "n.yaml", f"""id: n
title: N
sections:
  - id: a
    title: Cells / tissues
    questions:
      - {{type: true_false, id: t1, title: "{long_title}", stem: One., answer: true}}
""")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    backup = read_backup((tmp_path / "dist" / "n.mbz").read_bytes())
    question = backup.question_of(backup.entry_by_idnumber("t1"))
    assert len(question.findtext("name")) == 255 and question.findtext("name").startswith("Photosynthesis Photosynthesis")
    assert "Cells / tissues" in [c.findtext("name") for c in backup.questions.iter("question_category")]
