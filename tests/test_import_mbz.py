"""``qti-builder import quiz.mbz``: a Moodle quiz backup read whole, its structure and settings from
the quiz and its questions as the Moodle XML reader reads them.

Each question imported from the backup is the question imported from the same build's Moodle XML
(the backup's records turned back into Moodle XML lose nothing); the quiz's settings, sections,
draws and points are the source's (worked out by hand from the fixtures); and the imported source
builds a backup with the same slots, sections and settings as the first.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from helpers import ROOT
from helpers.cli import run
from helpers.moodle_backup import read_backup
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import detect, import_path
from qti_builder.model import Quiz
from qti_builder.pipeline import BuildOptions, build
from qti_builder.writers.markdown_source import write_source

SOURCES = [ROOT / "tests/fixtures/all-types.yaml", ROOT / "tests/fixtures/moodle-quiz.yaml",
           ROOT / "source/python-fundamentals.md", ROOT / "source/content-showcase.md", ROOT / "tests/fixtures/exam-ko.md"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=SOURCES, out_dir=out, formats=["moodle-quiz", "moodle"], jobs=1))
    return out


def imported(path: Path, sink: DiagnosticSink | None = None) -> Quiz:
    sink = sink if sink is not None else DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert not sink.errors, [d.render() for d in sink.errors]
    assert len(quizzes) == 1
    return quizzes[0].quiz


QUIZ_IDS = ["all-types", "moodle-quiz", "python-fundamentals", "content-showcase", "hanguksa-final"]


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_each_question_is_the_one_its_moodle_xml_imports_as(built: Path, quiz_id: str) -> None:
    from_backup = {q.id: q for q in imported(built / f"{quiz_id}.mbz").iter_questions()}
    from_xml = {q.id: q for q in imported(built / f"{quiz_id}.moodle.xml").iter_questions()}
    assert set(from_backup) <= set(from_xml)
    for ident, question in from_backup.items():
        expected = from_xml[ident].model_dump()
        if question.type == "text_only":  # a text in a slot worth nothing
            expected["points"] = question.points
        assert question.model_dump() == expected, ident


def test_the_quizs_structure_and_settings_come_back(built: Path) -> None:
    """moodle-quiz.yaml: its settings; Part 1 has no question of its own (its title heads Chapter
    1's), Chapter 1 has a text and shuffles, Pool draws 2 of 3 worth 2 points each."""
    quiz = imported(built / "moodle-quiz.mbz")
    assert quiz.settings.given() == {"time_limit": 10, "allowed_attempts": "unlimited", "shuffle_answers": False,
                                     "show_correct_answers": True, "one_question_at_a_time": False,
                                     "lock_questions_after_answering": True, "grading_method": "last"}
    assert [(s.id, s.title, s.description, s.shuffle, s.select, [q.id for q in s.questions]) for s in quiz.sections] == [
        ("ch1", "Part 1 / Chapter 1", "Read this first.", True, None, ["t1", "t2"]),
        ("pool", "Pool", None, False, 2, ["s1", "s2", "s3"])]
    assert [q.points for q in quiz.iter_questions()] == [1.0, 3.0, 2.0, 2.0, 2.0]
    assert quiz.title == "Settings both ways" and quiz.description == "A quiz that sets everything the other way."


def test_all_types_settings_and_draw(built: Path) -> None:
    quiz = imported(built / "all-types.mbz")
    assert quiz.settings.given() == {"time_limit": 45, "allowed_attempts": 2, "shuffle_answers": True,
                                     "show_correct_answers": False, "one_question_at_a_time": True}
    assert [(s.id, s.shuffle, s.select) for s in quiz.sections] == [
        ("choice", True, None), ("open", False, None), ("structure", False, None), ("nested", False, 1)]


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_the_imported_source_builds_the_same_quiz(built: Path, quiz_id: str, tmp_path: Path) -> None:
    (result,) = import_path(built / f"{quiz_id}.mbz", quiz_id, DiagnosticSink())
    quiz = result.quiz
    written = write_source(quiz)
    source = tmp_path / f"{quiz.id}{written.suffix}"
    source.write_text(written.text, encoding="utf-8")
    for ref, data in result.media.items():  # the backup's files, beside the source as import writes them
        (tmp_path / ref).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / ref).write_bytes(data)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle-quiz"], jobs=1))
    first, again = (read_backup(p.read_bytes()) for p in (built / f"{quiz_id}.mbz", tmp_path / "dist" / f"{quiz.id}.mbz"))
    assert [(s.page, s.maxmark, s.entry is None) for s in again.slots()] == [(s.page, s.maxmark, s.entry is None) for s in first.slots()]
    assert [(f, h, sh) for f, h, sh in again.sections()] == first.sections()
    for name in ("timelimit", "attempts_number", "shuffleanswers", "questionsperpage", "reviewrightanswer", "sumgrades"):
        assert again.setting(name) == first.setting(name), name


def test_what_the_source_cannot_hold_is_said(built: Path, tmp_path: Path) -> None:
    """A backup changed as a teacher would in Moodle: average grade, sequential navigation, a close
    date, a password and a maximum grade of 100 for marks adding up to 32. The first two are the source's settings grading_method and
    lock_questions_after_answering; the others are reported as lost (QB711), and the rest imports."""
    members = _members((built / "all-types.mbz").read_bytes())
    quiz_xml = members["activities/quiz_1/quiz.xml"]
    for old, new in ((b"<grademethod>1<", b"<grademethod>2<"), (b"<navmethod>free<", b"<navmethod>sequential<"),
                     (b"<timeclose>0<", b"<timeclose>1800000000<"), (b"<password></password>", b"<password>x</password>"),
                     (b"<grade>32.0000000<", b"<grade>100.0000000<")):
        assert old in quiz_xml
        quiz_xml = quiz_xml.replace(old, new)
    members["activities/quiz_1/quiz.xml"] = quiz_xml
    changed = tmp_path / "changed.mbz"
    changed.write_bytes(_tarball(members))
    sink = DiagnosticSink()
    quiz = imported(changed, sink)
    assert (quiz.settings.grading_method, quiz.settings.lock_questions_after_answering) == ("average", True)
    lost = [d.message for d in sink.items if d.code == "QB711"]
    for what in ("a close date", "password", "maximum grade 100, to which Moodle scales its marks (32)"):
        assert any(what in message for message in lost), what
    assert not [message for message in lost if "grading method" in message or "navigation" in message]


def test_a_hostile_backup_is_read_without_its_unsafe_entries(built: Path, tmp_path: Path) -> None:
    members = _members((built / "moodle-quiz.mbz").read_bytes())
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, content in members.items():
            _add(tar, name, content)
        _add(tar, "../../evil.txt", b"x")
        link = tarfile.TarInfo("files/link")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    hostile = tmp_path / "hostile.mbz"
    hostile.write_bytes(data.getvalue())
    sink = DiagnosticSink()
    quiz = imported(hostile, sink)
    assert len(list(quiz.iter_questions())) == 5
    warning = next(d for d in sink.items if d.code == "QB717")
    assert "../../evil.txt" in warning.message and "files/link" in warning.message


def test_a_gzip_that_is_no_backup_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.mbz"
    path.write_bytes(_tarball({"readme.txt": b"hello"}))
    assert detect(path) is not None and detect(path).name == "mbz"
    sink = DiagnosticSink()
    assert import_path(path, path.name, sink) == []
    assert [d.code for d in sink.errors] == ["QB700"]


def _members(data: bytes) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}


def _tarball(members: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, content in members.items():
            _add(tar, name, content)
    return data.getvalue()


def _add(tar: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    tar.addfile(info, io.BytesIO(content))


def test_a_draw_among_fixed_questions_keeps_its_categorys_note_from_students(built: Path, tmp_path: Path) -> None:
    """A Moodle-made quiz section holding fixed questions and random slots (all-types.mbz with the
    quiz section of its draw removed, so the draw is in 'Structure questions'): the draw becomes
    a section below it, and the description of the category it draws from, which Moodle shows to
    teachers in the question bank only, is not made the section's text that students read: it is
    reported as lost (QB711)."""
    members = _members((built / "all-types.mbz").read_bytes())
    quiz_xml = members["activities/quiz_1/quiz.xml"].decode()
    start = quiz_xml.index("<heading>Nested section</heading>")
    section_start, section_end = quiz_xml.rindex("<section ", 0, start), quiz_xml.index("</section>", start) + len("</section>")
    members["activities/quiz_1/quiz.xml"] = (quiz_xml[:section_start] + quiz_xml[section_end:]).encode()
    questions = members["questions.xml"].decode()
    nested = questions.index("<idnumber>all-types.nested</idnumber>")
    info_start = questions.rindex("<info>", 0, nested)
    info_end = questions.index("</info>", info_start) + len("</info>")
    members["questions.xml"] = (questions[:info_start] + "<info>Teachers: replace these before May.</info>"
                                + questions[info_end:]).encode()
    changed = tmp_path / "mixed.mbz"
    changed.write_bytes(_tarball(members))
    sink = DiagnosticSink()
    quiz = imported(changed, sink)
    structure = next(s for _, s in quiz.iter_sections() if s.title == "Structure questions")
    (draw,) = structure.sections
    assert draw.select == 1 and not draw.description
    assert not any("replace these" in (s.description or "") for _, s in quiz.iter_sections())
    assert any("question category" in d.message and d.code == "QB711" for d in sink.items)


def test_a_time_limit_in_seconds_is_said_in_a_sentence(built: Path, tmp_path: Path) -> None:
    """Moodle keeps the time limit in seconds, the source in whole minutes: 90 s becomes 2 minutes,
    said as the QTI 2.1 import says it (the message used to read 'the source has no place for the
    time limit of 90 s is 2 minutes in the source'), in English and in Korean."""
    members = _members((built / "all-types.mbz").read_bytes())
    quiz_xml = members["activities/quiz_1/quiz.xml"]
    assert b"<timelimit>2700<" in quiz_xml  # 45 minutes
    members["activities/quiz_1/quiz.xml"] = quiz_xml.replace(b"<timelimit>2700<", b"<timelimit>90<")
    (tmp_path / "timed.mbz").write_bytes(_tarball(members))
    for lang, expected in (("en", "warning[QB711]: the time limit of 90 seconds is kept as 2 minutes: the source holds whole minutes"),
                           ("ko", "warning[QB711]: 제한 시간 90초는 2분(으)로 바꿉니다: 소스는 분 단위로만 적습니다")):
        code, _, err = run("import", "timed.mbz", "--out", f"out-{lang}", "--lang", lang, cwd=tmp_path)
        assert code == 0, err
        assert [line for line in err.splitlines() if "QB711" in line and ("90" in line)] == [f"timed.mbz:1:1: {expected}"], err
        assert "time_limit: 2" in (tmp_path / f"out-{lang}/all-types.md").read_text(encoding="utf-8")
