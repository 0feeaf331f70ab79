"""What a teacher restoring the Moodle quiz backup (.mbz) and the students taking the quiz get,
read from the backup as Moodle 4.5's restore and pages read it.

Written for the survivors of the template mutation run over templates/moodle_backup/ (issue 35,
tools/mutate_templates.py): one-line changes to the backup that no test noticed. Each test reads
the tarball's XML with lxml (helpers.moodle_backup, written from Moodle's restore code) and checks
it against what Moodle does with it: the restore page's "Backup details" and settings
(core_backup_renderer::backup_details, backup_general_helper::get_backup_information), the course
module and quiz a teacher gets, each text shown through Moodle's format_text, the files put back
by restore_dbops::send_files_to_pool, the questions graded by the Moodle grader of the tests
(helpers.moodle_engine) and their options compared with the same source's Moodle XML, which the
documentation promises the backup repeats. The expected values come from the source files (read
with yaml.safe_load), Moodle's own defaults and constants, or the Moodle XML file; never from the
backup writer.
"""

from __future__ import annotations

import re

import pytest
import yaml
from lxml import etree

from helpers import ROOT
from helpers.moodle_backup import Backup, engine_question, read_backup
from helpers.moodle_engine import grade
from qti_builder import BuildOptions, build

SOURCES = [ROOT / "source" / "content-showcase.md", ROOT / "tests" / "fixtures" / "all-types.yaml",
           ROOT / "tests" / "fixtures" / "calculated.md", ROOT / "tests" / "fixtures" / "moodle-quiz.yaml"]
QUIZ_IDS = ["content-showcase", "all-types", "calculated", "moodle-quiz"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Backup, etree._Element]]:
    """Each source's backup and Moodle XML, as files a teacher would upload."""
    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=SOURCES, out_dir=out, formats=["moodle-quiz", "moodle"], jobs=1))
    return {quiz_id: (read_backup((out / f"{quiz_id}.mbz").read_bytes()),
                      etree.parse(str(out / f"{quiz_id}.moodle.xml")).getroot())
            for quiz_id in QUIZ_IDS}


def php_true(value: str | None) -> bool:
    """PHP's truth of a string read from the backup's XML: '' and '0' are false, 'false' is true."""
    return value not in (None, "", "0")


# -- the restore page: moodle_backup.xml ----------------------------------------------------------

@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_the_restore_page_shows_a_moodle_4_5_backup_of_the_quiz_and_its_settings(
        built, quiz_id: str) -> None:
    """What the teacher reads on the restore's confirmation page, and what the restore then does.

    core_backup_renderer::backup_details shows, from backup_general_helper::get_backup_information:
    the mode by its language string ``backupmode<mode>`` (10, backup::MODE_GENERAL, "General"; no
    other mode has a string), the Moodle release with its version, the site's hash, a line about
    file references when the backup says it has them (it has none), and each root setting with a
    tick when PHP reads its value as true ('false' is true to PHP). The restore then takes the
    images from the backup itself only when ``include_files`` is true (restore_dbops::
    send_files_to_pool: otherwise it looks for them in the site's own files, and they are missing).
    admin/cli/restore_backup.php --categoryid names the new course after the original course's full
    and short names. Each activity-level setting is filed under the activity it names
    (``$info->activities[$setting['activity']]``)."""
    backup, _ = built[quiz_id]
    info = backup.part("moodle_backup.xml").find("information")
    source_title = _source_title(quiz_id)
    (detail,) = info.iterfind("details/detail")
    assert [detail.findtext(n) for n in ("type", "format", "mode")] == ["activity", "moodle2", "10"]
    version = info.findtext("moodle_version")
    assert version.startswith("2024100"), version  # Moodle 4.5's version numbers
    release = info.findtext("moodle_release").split()[0]
    assert release == "4.5" == info.findtext("backup_release").split()[0]
    assert re.fullmatch(r"[0-9a-f]{32,40}", info.findtext("original_site_identifier_hash")), "a site hash"
    assert not php_true(info.findtext("include_file_references_to_external_content"))
    assert php_true(info.findtext("include_files"))
    assert info.findtext("original_course_fullname") == source_title
    assert info.findtext("original_course_shortname") == quiz_id
    (activity,) = info.iterfind("contents/activities/activity")
    # restore_factory::get_restore_activity_task names the activity's restore task by this title.
    assert activity.findtext("title") == source_title
    root = {s.findtext("name"): s.findtext("value") for s in info.iterfind("settings/setting")
            if s.findtext("level") == "root"}
    shown = {name: php_true(value) for name, value in root.items() if name not in ("filename", "user_files")}
    wanted = {"activities", "files", "questionbank"}  # the quiz, its images and its questions; no users
    assert {name for name, ticked in shown.items() if ticked} == wanted, shown
    assert len(shown) > len(wanted) and "users" in shown
    assert root["filename"] == f"{quiz_id}.mbz"
    directory = activity.findtext("directory").split("/")[-1]
    for setting in info.iterfind("settings/setting"):
        if setting.findtext("level") == "activity":  # without its activity, PHP 8 stops the restore
            assert setting.findtext("activity") == directory, etree.tostring(setting)
            assert setting.findtext("name").startswith(directory + "_")


def _source_title(quiz_id: str) -> str:
    path = next(p for p in SOURCES if p.stem == quiz_id or quiz_id in p.read_text(encoding="utf-8")[:300])
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".yaml":
        return yaml.safe_load(text)["title"]
    return re.search(r"^title: (.+)$", text, re.M).group(1).strip()


# -- the course module and the quiz a teacher gets --------------------------------------------------

#: module.xml: a quiz as a teacher adding one with Moodle's defaults gets it, where moodle-quiz.md
#: promises it ("appears in the course's first section, ready to attempt"; nothing about groups or
#: completion), each with what the student or teacher would see otherwise.
MODULE = {
    "sectionnumber": "1",          # 0: the course's general section, not its first topic
    "visible": "1",                # 0: hidden from students
    "visibleoncoursepage": "1",    # 0: available but not shown on the course page
    "visibleold": "1",             # 0: hidden again when its section is shown
    "indent": "0",                 # 1: indented on the course page
    "score": "0",                  # course_modules' default, kept by a module added through the form; web services report it
    "groupmode": "0",              # 1: separate groups in the quiz's reports
    "completion": "0",             # 1: a completion tick box for each student
    "completionview": "0",
    "completionpassgrade": "0",
    "completionexpected": "0",     # a date: shown as "expected completion" in the timeline
    "showdescription": "0",        # 1: the quiz's description on the course page
    "downloadcontent": "1",        # 0: left out of "Download course content"
}

#: quiz.xml: the settings the source has no word for, as mod/quiz/settings.php gives a new quiz.
QUIZ_DEFAULTS = {
    "timeopen": "0",                     # 1: "Opened: 1 January 1970" on the quiz page
    "timeclose": "0",
    "canredoquestions": "0",             # 1: "Try another question like this one"
    "attemptonlast": "0",                # 1: each attempt starts from the last one's answers
    "decimalpoints": "2",                # grades shown with 2 decimals
    "questiondecimalpoints": "-1",       # marks shown as the grades are
    "delay1": "0",                       # seconds a student must wait before a second attempt
    "delay2": "0",
    "showuserpicture": "0",              # 1: the student's picture during the attempt
    "showblocks": "0",                   # 1: the course's blocks beside the attempt
    "completionattemptsexhausted": "0",
    "completionminattempts": "0",
    "allowofflineattempts": "0",         # 1: attempts in the mobile app offline
    "password": "",
    "browsersecurity": "-",
}


@pytest.mark.parametrize("quiz_id", QUIZ_IDS)
def test_the_restored_quiz_is_visible_in_the_first_section_with_moodle_s_defaults(built, quiz_id: str) -> None:
    """module.xml and quiz.xml: the course module and the quiz settings a teacher gets (MODULE,
    QUIZ_DEFAULTS), each one a student or teacher would see otherwise."""
    backup, _ = built[quiz_id]
    module = backup.part(f"{backup.folder}/module.xml")
    assert {name: module.findtext(name) for name in MODULE} == MODULE
    assert {name: backup.setting(name) for name in QUIZ_DEFAULTS} == QUIZ_DEFAULTS
    # mod_quiz's slots: requireprevious 0, a question can be answered before the previous one is.
    slots = backup.quiz.iterfind("quiz/question_instances/question_instance")
    assert {slot.findtext("requireprevious") for slot in slots} == {"0"}


# -- the texts, as format_text shows them ------------------------------------------------------

#: Each text a restored quiz or question shows, by the field holding its format.
TEXT_FORMATS = {"introformat": "intro", "infoformat": "info", "questiontextformat": "questiontext",
                "generalfeedbackformat": "generalfeedback", "feedbackformat": "feedback",
                "correctfeedbackformat": "correctfeedback",
                "partiallycorrectfeedbackformat": "partiallycorrectfeedback",
                "incorrectfeedbackformat": "incorrectfeedback", "graderinfoformat": "graderinfo",
                "responsetemplateformat": "responsetemplate", "feedbacktextformat": "feedbacktext"}
FORMAT_HTML = "1"


def moodle_shows(text: str, text_format: str) -> str:
    """What Moodle's format_text makes of a text (lib/weblib.php), before filters: FORMAT_HTML as
    written; FORMAT_MOODLE (0) through text_to_html, which drops the blanks between tags, turns the
    line breaks into <br /> and wraps it all in a div; FORMAT_PLAIN (2) escaped."""
    if text_format == FORMAT_HTML:
        return text
    if text_format == "0":
        text = re.sub(r">\s+<", "><", text)
        text = re.sub(r"[\n\r]<", " <", text)
        text = re.sub(r">[\n\r]", "> ", text)
        return '<div class="text_to_html">' + text.replace("\n", "<br />\n") + "</div>"
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_every_text_of_the_quiz_and_its_questions_is_shown_as_written(built) -> None:
    """The texts are HTML: each must say FORMAT_HTML (1), so that Moodle shows it as written and
    its editor opens it (Moodle's HTML editors take FORMAT_HTML texts only; another format opens
    in a plain text area). A matching question's stems too (qtype_match's subquestions)."""
    seen: dict[str, int] = {name: 0 for name in TEXT_FORMATS}
    for backup, _ in built.values():
        for part in (backup.quiz, backup.questions):
            for format_name, text_name in TEXT_FORMATS.items():
                for field in part.iter(format_name):
                    text = field.getparent().findtext(text_name)
                    assert text is not None, f"{format_name} without its {text_name}"
                    assert moodle_shows(text, field.text) == text, (format_name, text[:80])
                    assert field.text == FORMAT_HTML, (format_name, text[:80])
                    seen[format_name] += 1
    assert all(seen.values()), seen


# -- the question bank -------------------------------------------------------------------------

def _section_descriptions(section: dict) -> dict[str, str]:
    found = {section["id"]: section.get("description") or ""}
    for child in section.get("sections", []):
        found.update(_section_descriptions(child))
    return found


def _words(html: str) -> list[str]:
    text = etree.fromstring(f"<div>{html}</div>", etree.HTMLParser()).xpath("string()") if html.strip() else ""
    return re.findall(r"\w+", text)


@pytest.mark.parametrize("quiz_id", ["all-types", "moodle-quiz"])
def test_each_category_describes_its_quiz_or_section_and_each_question_keeps_its_tags(
        built, quiz_id: str) -> None:
    """The question bank's categories show their descriptions (a category's info): the quiz's
    category the quiz's description, a section's category the section's (empty when it has none).
    Each question's tags are the source's: Moodle shows a tag's raw name and files it under that
    name lowercased (core_tag_tag::normalize)."""
    backup, _ = built[quiz_id]
    source = yaml.safe_load((ROOT / "tests" / "fixtures" / f"{quiz_id}.yaml").read_text(encoding="utf-8"))
    descriptions = {"quiz": source.get("description") or ""}
    for section in source["sections"]:
        descriptions.update(_section_descriptions(section))
    checked = 0
    for category in backup.questions.iter("question_category"):
        kind = category.findtext("stamp").split("+", 1)[1]
        if kind in descriptions:
            assert _words(category.findtext("info") or "") == re.findall(r"\w+", descriptions[kind]), kind
            checked += 1
    assert checked >= 3
    tags = {q["id"]: q.get("tags", []) for q in _all_questions(source)}
    for entry in backup.questions.iter("question_bank_entry"):
        question = backup.question_of(entry)
        if entry.findtext("idnumber") in tags:
            found = [(t.findtext("rawname"), t.findtext("name")) for t in question.iterfind("tags/tag")]
            assert found == [(t, t.lower()) for t in tags[entry.findtext("idnumber")]], entry.findtext("idnumber")
    assert any(tags.values()) or quiz_id != "all-types"


def _all_questions(source: dict) -> list[dict]:
    found: list[dict] = []

    def walk(section: dict) -> None:
        found.extend(section.get("questions", []))
        for child in section.get("sections", []):
            walk(child)
    for section in source["sections"]:
        walk(section)
    return found


def test_no_two_questions_share_a_stamp(built) -> None:
    """A question's stamp is its identity across sites: a restore matches a question of the
    backup to one already in the target's bank by its stamp and version, and reuses that one
    (restore_dbops::prechek_precheck_qbanks_by_level), so two questions with one stamp could come
    back as one question in two slots."""
    for quiz_id, (backup, _) in built.items():
        stamps = [q.findtext("stamp") for q in backup.questions.iterfind(".//questions/question")]
        assert len(stamps) > 1 and len(set(stamps)) == len(stamps), quiz_id
        assert all(s and s not in ("true", "false") for s in stamps), quiz_id


# -- the questions as Moodle XML has them --------------------------------------------------------

def _xml_option(question: etree._Element, name: str) -> str | None:
    """An option of a Moodle XML question as qformat_xml reads it: shownumcorrect by its
    presence, the others by their text."""
    if name == "shownumcorrect":
        return "1" if question.find("shownumcorrect") is not None else "0"
    return question.findtext(name)


def _backup_option(question: etree._Element, name: str) -> str | None:
    plugin = question.find(f"plugin_qtype_{question.findtext('qtype')}_question")
    return plugin.findtext(f".//{name}") if plugin is not None else None


def test_each_question_s_options_are_those_of_its_moodle_xml(built) -> None:
    """moodle-quiz.md: the backup's questions are "exactly what the Moodle XML file holds". The
    options the grader of the tests leaves out, each seen by students or teachers: the number of
    right parts shown in the feedback (shownumcorrect), an ordering's numbering, an upload's size
    limit (maxbytes, 0 the course's), a unit's penalty, a calculated question's synchronised
    datasets."""
    compared: dict[str, int] = {}
    for backup, moodle_xml in built.values():
        by_idnumber = {q.findtext("idnumber"): q for q in moodle_xml.iter("question") if q.get("type") != "category"}
        _compare_options(backup, by_idnumber, compared)
    # shownumcorrect of match, ordering, multichoice and calculatedmulti; the others of their kinds
    assert set(compared) == {"shownumcorrect", "numberingstyle", "maxbytes", "unitpenalty", "synchronize"}, compared


def _compare_options(backup: Backup, by_idnumber: dict[str, etree._Element], compared: dict[str, int]) -> None:
    for entry in backup.questions.iter("question_bank_entry"):
        xml_question = by_idnumber.get(entry.findtext("idnumber"))
        if xml_question is None:
            continue
        question = backup.question_of(entry)
        for name in ("shownumcorrect", "numberingstyle", "maxbytes", "unitpenalty", "synchronize"):
            in_backup = _backup_option(question, name)
            if in_backup is None or question.findtext("qtype") == "multianswer":
                continue
            in_xml = _xml_option(xml_question, name)
            if name == "unitpenalty":
                assert float(in_backup) == float(in_xml or "0.1"), entry.findtext("idnumber")
            else:
                assert in_backup == in_xml, (entry.findtext("idnumber"), name, in_backup, in_xml)
            compared[name] = compared.get(name, 0) + 1


def test_a_numerical_answer_without_a_margin_takes_exactly_its_value(built) -> None:
    """all-types.yaml's "boiling" answer is 100 with no tolerance: the restored question gives
    full marks for 100 and nothing for 99 or 101 (the grader reads its numerical_records)."""
    backup, _ = built["all-types"]
    source = yaml.safe_load((ROOT / "tests" / "fixtures" / "all-types.yaml").read_text(encoding="utf-8"))
    (boiling,) = [q for q in _all_questions(source) if q["id"] == "boiling"]
    (answer,) = boiling["answers"]
    assert "tolerance" not in answer
    question = engine_question(backup, backup.question_of(backup.entry_by_idnumber("boiling")))
    value = answer["value"]
    assert grade(question, str(value)) == 1.0
    assert grade(question, str(value + 1)) == grade(question, str(value - 1)) == 0.0


# -- the files -----------------------------------------------------------------------------------

def test_every_picture_and_sound_comes_back_from_the_backup(built) -> None:
    """restore_dbops::send_files_to_pool takes each file's bytes from files/<sha1[:2]>/<sha1> when
    the backup includes its files, under its name in its text's file area (its type and status
    Moodle's file storage works out itself). content-showcase shows two pictures and a sound."""
    backup, _ = built["content-showcase"]
    files = backup.part("files.xml").findall("file")
    assert len(files) >= 3
    for file in files:
        digest, name = file.findtext("contenthash"), file.findtext("filename")
        assert f"files/{digest[:2]}/{digest}" in backup.members, name
        # The restored record keeps the sort order, and a file manager shows the file whose sort
        # order is 1 as its area's main file (lib/form/filemanager.js, fp-mainfile): a picture of
        # a text is one of its area's files like the others, 0 as file storage gives a new file.
        assert file.findtext("sortorder") == "0", name
    info = backup.part("moodle_backup.xml").find("information")
    assert php_true(info.findtext("include_files"))


def test_the_sources_tags_are_read_from_the_file() -> None:
    """The tests above read all-types.yaml's tags and descriptions: it has some to read."""
    source = yaml.safe_load((ROOT / "tests" / "fixtures" / "all-types.yaml").read_text(encoding="utf-8"))
    assert any(q.get("tags") for q in _all_questions(source)) and source.get("description")
