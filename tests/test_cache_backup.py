"""The Moodle quiz backup of a big quiz in chunks (issue 34): its questions' records are rendered,
validated and kept in the build cache chunk by chunk, as the other targets' questions are, and
the backup put together from them is the backup rendered whole, byte for byte, with the cache or
without, on one process or on workers. Its ids follow from each question's own number (not from
the records before it), so an edit re-renders only its own chunk's records and keeps every id
unique; read back as Moodle's restore reads it, each question is its Moodle XML question."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import ROOT
from helpers.moodle_backup import engine_question, read_backup
from helpers.moodle_engine import read_question
from lxml import etree

from qti_builder import cache, pipeline
from qti_builder import package as packaging
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.package import package
from qti_builder.pipeline import load_quizzes, render_outputs
from qti_builder.results import BuildOptions
from qti_builder.writers import DEFAULT_FORMATS
from test_cache import SOURCES, record_renders
from test_moodle_backup import _comparable

FIXTURES = ROOT / "tests" / "fixtures"
#: Copies of the kinds below in the big quiz: 20 questions each, 600 in all, three chunks.
COPIES = 30

CALCULATED = {"id": "calc", "title": "Calculated", "questions": [
    {"type": "calculated", "id": "speed", "stem": "A runner covers {d} m in {t} s. Her speed in m/s?",
     "sets": [{"d": 45, "t": 1.5}, {"d": 60, "t": 2.0}], "variables": [{"name": "t", "decimals": 1}],
     "answer": "d / t", "tolerance": 0.01, "decimals": 2}]}


def _renamed(section: dict[str, Any], suffix: str) -> dict[str, Any]:
    section = copy.deepcopy(section)
    section["id"] += suffix
    for question in section.get("questions", []):
        question["id"] += suffix
    section["sections"] = [_renamed(s, suffix) for s in section.get("sections", [])]
    return section


def big_quiz(edited: str | None = None, extra_choice: str | None = None) -> str:
    """A quiz of every kind (all-types.yaml), nested sections, a section's text, draws at random
    (moodle-quiz.yaml) and a calculated question, each ``COPIES`` times, after a section named as
    the quiz (whose questions go into the quiz's own category); ``edited``: that question's stem
    changed, ``extra_choice``: that single-choice question given one more option."""
    all_types = yaml.safe_load((FIXTURES / "all-types.yaml").read_text("utf-8"))
    moodle_quiz = yaml.safe_load((FIXTURES / "moodle-quiz.yaml").read_text("utf-8"))
    own = {"id": "own", "title": "A big bank", "questions": [
        {"type": "single_choice", "id": "first", "stem": "Pick A.", "choices": [
            {"id": "A", "text": "A", "correct": True}, {"id": "B", "text": "B"}]}]}
    sections = [own] + [_renamed(s, f"-{k}") for k in range(COPIES)
                        for s in all_types["sections"] + moodle_quiz["sections"] + [CALCULATED]]
    for question in (q for s in sections for q in _questions(s)):
        if question["id"] == edited:
            question["stem"] += " (edited)"
        if question["id"] == extra_choice:
            question["choices"].append({"id": "Z", "text": "One more"})
    quiz = {"id": "bigbank", "title": "A big bank", "language": "en", "settings": all_types["settings"],
            "sections": sections}
    return yaml.safe_dump(quiz, allow_unicode=True, sort_keys=False)


def _questions(section: dict[str, Any]) -> list[dict[str, Any]]:
    return section.get("questions", []) + [q for s in section.get("sections", []) for q in _questions(s)]


def _build(source: Path, out: Path, jobs: int = 1, cache: bool = False) -> dict[str, bytes]:
    pipeline.build(BuildOptions(sources=[source], out_dir=out, jobs=jobs, cache=cache))
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "bigbank.yaml"
    path.write_text(big_quiz(), "utf-8")
    return path


def test_a_big_quizs_backup_is_rendered_in_chunks_as_the_other_targets(source: Path) -> None:
    options = BuildOptions(sources=[source])
    loaded = {0: load_quizzes(options, DiagnosticSink())[0]}
    tasks = [(t.part, len(t.questions)) for t in pipeline.plan(loaded, ["moodle-quiz"])]
    count = COPIES * 20 + 1
    assert sorted(tasks) == [("frame", 0), ("items", count - 2 * pipeline.CHUNK), ("items", pipeline.CHUNK),
                             ("items", pipeline.CHUNK)]


def test_the_backup_in_chunks_is_the_backup_rendered_whole(source: Path, tmp_path: Path, build_cache: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Put together from its chunks, on one process or on two, with the build cache or without,
    its records held compressed or not (as a bank of ``HOLD_PACKED_FROM`` questions holds them),
    the backup is byte for byte what the writer renders of the whole quiz at once (no chunk, no
    placement: every id counted from the whole quiz); deflated in runs of 7 questions (cut where
    no chunk ends), taken from the cache in a build after the first."""
    monkeypatch.setattr(packaging, "RUN_QUESTIONS", 7)
    sink = DiagnosticSink()
    options = BuildOptions(sources=[source], formats=["moodle-quiz"])
    (whole,) = render_outputs(load_quizzes(options, sink), options, sink)
    assert not [d for d in sink.items if d.severity.name == "ERROR"]
    expected = package(whole)
    assert _build(source, tmp_path / "one")["bigbank.mbz"] == expected
    assert _build(source, tmp_path / "two", jobs=2)["bigbank.mbz"] == expected
    assert _build(source, tmp_path / "cold", jobs=2, cache=True)["bigbank.mbz"] == expected
    assert any(build_cache.iterdir())
    assert _build(source, tmp_path / "warm", jobs=1, cache=True)["bigbank.mbz"] == expected
    monkeypatch.setattr(pipeline, "HOLD_PACKED_FROM", 100)
    assert _build(source, tmp_path / "packed", jobs=2)["bigbank.mbz"] == expected


def test_read_back_each_question_is_its_moodle_xml_question(source: Path, tmp_path: Path) -> None:
    """The independent check: the restore's reading of the backup (helpers.moodle_backup) against
    the Moodle grader's reading of the same build's Moodle XML, question by question, with every
    slot on its question, every id of a kind once, and each cloze subquestion after its question."""
    files = _build(source, tmp_path / "out", jobs=2)
    backup = read_backup(files["bigbank.mbz"])
    moodle_xml = etree.fromstring(files["bigbank.moodle.xml"])
    compared = 0
    for element in moodle_xml.iter("question"):
        if element.get("type") in ("category", "description"):
            continue
        from_backup = engine_question(backup, backup.question_of(backup.entry_by_idnumber(element.findtext("idnumber"))))
        assert _comparable(from_backup) == _comparable(read_question(element)), element.findtext("idnumber")
        compared += 1
    assert compared == COPIES * 19 + 1  # all but the text-only item of each copy
    for tag in ("question", "answer", "match", "question_category"):
        ids = [e.get("id") for e in backup.questions.iter(tag) if e.get("id")]  # not a cloze plugin's <question>
        assert len(ids) == len(set(ids)), f"a {tag} id is used twice"
    entries = {e.get("id") for e in backup.questions.iter("question_bank_entry")}
    assert all(s.entry in entries for s in backup.slots() if s.entry is not None)
    questions = list(backup.questions.iterfind(".//questions/question"))
    for at, question in enumerate(questions):
        if question.findtext("qtype") == "multianswer":
            children = question.findtext(".//multianswer/sequence").split(",")
            assert [q.get("id") for q in questions[at + 1:at + 1 + len(children)]] == children
            assert all(q.findtext("parent") == question.get("id") for q in questions[at + 1:at + 1 + len(children)])


def _records(text: str, tmp_path: Path) -> dict[str, bytes]:
    """Each question's records (its document of the backup) of a whole render of ``text``."""
    path = tmp_path / "bigbank.yaml"
    path.write_text(text, "utf-8")
    sink = DiagnosticSink()
    options = BuildOptions(sources=[path], formats=["moodle-quiz"])
    (output,) = render_outputs(load_quizzes(options, sink), options, sink)
    return {d.question_id: d.data for d in output.documents if d.schema == "mbz-question" and d.question_id}


def test_an_answer_added_to_one_question_changes_no_other_questions_records(tmp_path: Path) -> None:
    """The ids of a question's records follow from its own number: one more option in the first
    question (one more answer id) leaves every later question's records as they were, so only
    its own chunk is rendered again."""
    before = _records(big_quiz(), tmp_path)
    after = _records(big_quiz(extra_choice="first"), tmp_path)
    assert before.keys() == after.keys()
    assert [q for q in before if before[q] != after[q]] == ["first"]


def test_one_edit_renders_one_chunk_of_the_backup_again(source: Path, tmp_path: Path, build_cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """After one question's text changes, the backup's records are rendered again only for its
    chunk (its frame, which reads nothing of a question's text, is taken from the cache); the
    outputs are a build's without the cache, on one process or two."""
    _build(source, tmp_path / "first", cache=True)
    rendered = record_renders(monkeypatch)
    source.write_text(big_quiz(edited="capital-12"), "utf-8")
    warm = _build(source, tmp_path / "warm", cache=True)
    assert sorted(r for r in rendered if r[0] == "moodle-quiz") == [("moodle-quiz", "items")]
    assert warm == _build(source, tmp_path / "cold")
    assert warm == _build(source, tmp_path / "two", jobs=2)
    bank = read_backup(warm["bigbank.mbz"])
    assert "(edited)" in bank.question_of(bank.entry_by_idnumber("capital-12")).findtext("questiontext")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_split_in_small_chunks_builds_the_same(source: Path, tmp_path: Path, build_cache: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every quiz of the repository, its questions split in chunks of 3 (so that the backup of any
    quiz without media is put together from chunks), builds the same files and diagnostics as in
    one piece: without the build cache, with it, and again with every chunk taken from it (its
    packages deflated in runs of 2 questions, kept too, except in the last build)."""
    monkeypatch.setattr(packaging, "RUN_QUESTIONS", 2)
    def built(out: Path, cache: bool) -> tuple[list[str], dict[str, bytes]]:
        try:
            pipeline.build(BuildOptions(sources=[source], out_dir=out, jobs=1, cache=cache, formats=list(DEFAULT_FORMATS)))
            problems: list[str] = []
        except pipeline.BuildIncomplete as failed:
            problems = sorted(str(d) for d in failed.result.diagnostics)
        return problems, {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.exists() else {}

    whole = built(tmp_path / "whole", cache=False)
    monkeypatch.setattr(pipeline, "CHUNK", 3)
    assert built(tmp_path / "split", cache=False) == whole
    assert built(tmp_path / "kept", cache=True) == whole
    for entry in itertools.chain.from_iterable(folder.iterdir() for folder in build_cache.iterdir()):
        if not isinstance(cache._read(entry.parent.name + entry.name), cache.CachedChunk):
            entry.unlink()  # the quiz's entry (and its pieces') gone, its chunks' kept
    assert built(tmp_path / "again", cache=True) == whole


def test_the_rules_across_the_parts_find_each_questions_records_where_its_line_is() -> None:
    """Without parsing the whole bank again: the entries written in questions.xml and each
    question's records (read when they were validated apart) in the category of its line."""
    from qti_builder.backup_rules import bank_entries, package_rules, record_facts

    frame = etree.fromstring(b"""<question_categories>
<question_category id="1"><question_bank_entries/></question_category>
<question_category id="3"><question_bank_entries>
<question_bank_entry id="200"><question_version><question_versions><questions><question>
<parent>0</parent><qtype>description</qtype></question></questions></question_versions></question_version></question_bank_entry>
<!-- question: 2 -->
<!-- question: 1 -->
</question_bank_entries></question_category></question_categories>""").getroottree()
    cloze = etree.fromstring(b"""<question_bank_entries>
<question_bank_entry id="1"><question_version><question_versions><questions><question>
<parent>0</parent><qtype>multianswer</qtype></question></questions></question_versions></question_version></question_bank_entry>
<question_bank_entry id="101"><question_version><question_versions><questions><question>
<parent>1</parent><qtype>shortanswer</qtype></question></questions></question_versions></question_version></question_bank_entry>
</question_bank_entries>""").getroottree()
    records = {"q1": record_facts(cloze), "q2": (("2", "0", "truefalse"),)}
    bank = bank_entries(frame, ("q1", "q2"), records)
    assert bank == {"1": [], "3": [("200", "0", "description"), ("2", "0", "truefalse"), ("1", "0", "multianswer"),
                                   ("101", "1", "shortanswer")]}

    def problems(references: str) -> list[str]:
        quiz = etree.fromstring(f"<activity><quiz>{references}</quiz></activity>".encode()).getroottree()
        backup = etree.fromstring(b"<moodle_backup><information><contents><activities><activity><directory>a"
                                  b"</directory></activity></activities></contents></information></moodle_backup>")
        parts = {"moodle_backup.xml": backup.getroottree(), "questions.xml": frame, "a/quiz.xml": quiz}
        return [message for _, (_, _, message) in package_rules(parts, set(), {}, bank) if "has no" not in message]

    def draw(category: int) -> str:
        condition = '{"filter":{"category":{"jointype":1,"values":[%d],"filteroptions":{"includesubcategories":false}}}}'
        return f"<question_set_reference><filtercondition>{condition % category}</filtercondition></question_set_reference>"

    fixed = "<question_reference><questionbankentryid>{}</questionbankentryid></question_reference>"
    assert problems(fixed.format(1) + fixed.format(2) + draw(3) + draw(3)) == []  # two to draw: q1 and q2
    assert problems(fixed.format(101)) == ["a slot cannot hold a cloze question's subquestion"]
    assert problems(fixed.format(7)) == ["bank entry 7 is not in questions.xml"]
    assert "holds 2 questions to draw from, fewer than its 3 random slots" in problems(draw(3) * 3)[0]
    assert "holds 0 questions" in problems(draw(1))[0]


def test_a_slot_on_a_question_the_bank_lacks_stops_a_split_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --templates override whose slots point past the bank's entries is refused when the
    backup is put together from chunks, as when it is rendered whole."""
    templates = tmp_path / "templates" / "moodle_backup"
    templates.mkdir(parents=True)
    original = (ROOT / "templates" / "moodle_backup" / "quiz.xml.j2").read_text("utf-8")
    broken = original.replace("<questionbankentryid>{{ slot.question.id }}<", "<questionbankentryid>{{ slot.question.id + 7 }}<")
    assert broken != original
    (templates / "quiz.xml.j2").write_text(broken, "utf-8")
    for chunk in (pipeline.CHUNK, 2):
        monkeypatch.setattr(pipeline, "CHUNK", chunk)
        with pytest.raises(pipeline.BuildIncomplete) as failed:
            pipeline.build(BuildOptions(sources=[FIXTURES / "moodle-quiz.yaml"], out_dir=tmp_path / "dist",
                                        formats=["moodle-quiz"], templates=tmp_path / "templates", jobs=1))
        assert any("is not in questions.xml" in d.message and d.code == "QB401" for d in failed.value.result.diagnostics)
        assert not (tmp_path / "dist" / "moodle-quiz.mbz").exists()


def test_a_backup_frame_without_question_lines_is_refused(tmp_path: Path) -> None:
    """questions.xml is a frame with each question's records put in after its line: an override
    that drops the lines (one written before the backup was split) would lose every question in
    silence, so it is an error that says which template and what to keep."""
    templates = tmp_path / "templates" / "moodle_backup"
    templates.mkdir(parents=True)
    original = (ROOT / "templates" / "moodle_backup" / "questions.xml.j2").read_text("utf-8")
    assert "<!-- question: {{ number }} -->\n" in original
    (templates / "questions.xml.j2").write_text(original.replace("<!-- question: {{ number }} -->\n", ""), "utf-8")
    with pytest.raises(pipeline.BuildIncomplete) as failed:
        pipeline.build(BuildOptions(sources=[FIXTURES / "moodle-quiz.yaml"], out_dir=tmp_path / "dist",
                                    formats=["moodle-quiz"], templates=tmp_path / "templates", jobs=1))
    assert [d.code for d in failed.value.result.diagnostics] == ["QB305"]
    assert "moodle_backup/questions.xml.j2 must write the line '<!-- question: N -->'" in failed.value.result.diagnostics[0].message
    assert not (tmp_path / "dist").exists()
