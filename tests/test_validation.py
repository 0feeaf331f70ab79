"""The gate before packaging: schema and Moodle-rule failures, template overlays, schema folders."""

from __future__ import annotations

import re
import hashlib
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, SCHEMAS, SEED_SOURCE, write
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed
from qti_builder.schemas import SchemaError, pins, resolve_schema_dir
from qti_builder.validate import _moodle_rules

TEMPLATES = ROOT / "templates"


def overlay(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A --templates folder overriding one built-in template with a small change."""
    folder = tmp_path / "templates"
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def failing_build(tmp_path: Path, **options: object) -> list[str]:
    out = tmp_path / "dist"
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[SEED_SOURCE], out_dir=out, **options))  # type: ignore[arg-type]
    assert not out.exists()
    return [d.render() for d in failed.value.diagnostics]


def test_schema_error_is_traced_to_the_question_and_the_generated_line(tmp_path: Path) -> None:
    templates = overlay(tmp_path, "qti21/item_choice.xml.j2", 'maxChoices="1"', 'maxChoices="1" foo="bar"')
    rendered = failing_build(tmp_path, templates=templates, formats=["qti21"])
    assert len(rendered) == 8  # one per single-choice question
    first = rendered[0].splitlines()
    assert first[0].startswith("source/ray-train-tune.md:11:1: error[QB401]: schema: ") or first[0].startswith(
        f"{SEED_SOURCE}:11:1: error[QB401]: schema: ")
    assert "attribute 'foo'" in first[0] and "(question 'train-purpose')" in first[0]
    assert first[1].strip().startswith("in generated file ray-train-tune.qti21.zip/items/train-purpose.xml:")


def test_moodle_rule_failure_is_traced_to_the_question(tmp_path: Path) -> None:
    templates = overlay(tmp_path, "moodle/question_multichoice.xml.j2", 'fraction="{{ answer.fraction }}"',
                        'fraction="{{ answer.fraction|replace(\'100\', \'90\') }}"')
    rendered = failing_build(tmp_path, templates=templates, formats=["moodle"])
    assert len(rendered) == 8
    assert "a single-answer multichoice needs an answer worth 100% (question 'train-purpose')" in rendered[0]
    assert ":11:1: error[QB401]" in rendered[0].splitlines()[0]


def test_template_syntax_error_names_the_template_line(tmp_path: Path) -> None:
    templates = overlay(tmp_path, "qti21/assessment_test.xml.j2", "<testPart", "{% if %}<testPart")
    rendered = failing_build(tmp_path, templates=templates)
    assert rendered and all("QB302" in r for r in rendered)
    assert rendered[0].startswith(str(templates / "qti21" / "assessment_test.xml.j2") + ":")


def test_user_template_can_extend_the_builtin_one(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "moodle"
    folder.mkdir(parents=True)
    (folder / "quiz.xml.j2").write_text('{% extends "builtin/moodle/quiz.xml.j2" %}', encoding="utf-8")
    result = build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", templates=tmp_path / "templates"))
    assert len(result.written) == 4


def test_moodle_frame_without_question_markers_is_refused(tmp_path: Path) -> None:
    # The Moodle file is its frame with each question put in after its marker line: a frame that
    # drops the markers would lose every question silently, so it is an error.
    templates = overlay(tmp_path, "moodle/quiz.xml.j2", "<!-- question: {{ number }} -->", "")
    rendered = failing_build(tmp_path, templates=templates, formats=["moodle"])
    assert len(rendered) == 1 and "error[QB305]: moodle/quiz.xml.j2 must write the line '<!-- question: N -->'" in rendered[0]
    assert "N = 1 to 10" in rendered[0]


def test_overlay_templates_run_in_the_sandbox(tmp_path: Path) -> None:
    # A user's template reaching for Python internals is stopped by Jinja's sandbox (the built-in
    # templates alone render without it: they are this package's own code).
    templates = overlay(tmp_path, "qti21/item_choice.xml.j2", "<itemBody>",
                        "<itemBody>{{ ''.__class__.__mro__[1].__subclasses__() }}")
    rendered = failing_build(tmp_path, templates=templates, formats=["qti21"])
    assert rendered and all("error[QB304]: template error" in r for r in rendered)
    assert "unsafe" in rendered[0] and "__class__" in rendered[0]


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ('<question type="multichoice"><name><text> </text></name><answer fraction="100"><text>a</text></answer>'
         '<answer fraction="0"><text>b</text></answer></question>', "Moodle needs a non-empty question name"),
        ('<question type="multichoice"><name><text>n</text></name><answer fraction="100"><text>a</text></answer></question>',
         "Moodle requires at least 2 choices in a multichoice question"),
        ('<question type="multichoice"><name><text>n</text></name><answer fraction="35"><text>a</text></answer>'
         '<answer fraction="100"><text>b</text></answer></question>', "fraction 35.0 is not one of Moodle's grade options"),
        ('<question type="multichoice"><name><text>n</text></name><single>false</single><answer fraction="50"><text>a</text></answer>'
         '<answer fraction="33.33333"><text>b</text></answer></question>', "the positive fractions of a multiple-answer question must add up to 100%"),
        ('<question type="truefalse"><name><text>n</text></name><answer fraction="100"><text>참</text></answer>'
         '<answer fraction="0"><text>거짓</text></answer></question>', "true/false answers must be the texts 'true' and 'false'"),
    ],
)
def test_moodle_rules(question: str, message: str) -> None:
    tree = etree.fromstring(f"<quiz>{question}</quiz>").getroottree()
    assert [m for _, _, m in _moodle_rules(tree)] == [message]


def test_moodle_rules_accept_moodle_grade_options() -> None:
    tree = etree.fromstring(
        '<quiz><question type="multichoice"><name><text>n</text></name><single>false</single>'
        '<answer fraction="33.33333"><text>a</text></answer><answer fraction="33.333"><text>b</text></answer>'
        '<answer fraction="33.33333"><text>c</text></answer><answer fraction="-100"><text>d</text></answer></question></quiz>'
    ).getroottree()
    assert list(_moodle_rules(tree)) == []


def test_a_whole_moodle_file_gives_every_error_at_its_question(tmp_path: Path) -> None:
    # A whole Moodle file (frame and questions, as written) gives every rule failure and every
    # schema error at the question it concerns, not only the first.
    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.package import package
    from qti_builder.pipeline import load_quizzes, render_outputs
    from qti_builder.schemas import load_schemas
    from qti_builder.validate import _problems
    from qti_builder.writers import Document

    schemas = load_schemas(resolve_schema_dir(None))
    rules = overlay(tmp_path / "rules", "moodle/question_multichoice.xml.j2", 'fraction="{{ answer.fraction }}"',
                    'fraction="{{ answer.fraction|replace(\'100\', \'90\') }}"')
    schema = overlay(tmp_path / "schema", "moodle/question_multichoice.xml.j2", "<single>", "<bogus/><single>")
    for folder, expected in ((rules, "a single-answer multichoice needs an answer worth 100%"),
                             (schema, "schema: Element 'bogus': This element is not expected.")):
        options = BuildOptions(sources=[SEED_SOURCE], templates=folder, formats=["moodle"])
        sink = DiagnosticSink()
        [output] = render_outputs(load_quizzes(options, sink), options, sink)
        data = package(output)  # the whole file, as written: frame and questions
        problems = list(_problems(Document("q.moodle.xml", data, "moodle"), schemas))
        assert len(problems) == 8 and all(expected in message for _, _, message in problems), problems
        lines = [line for line, _, _ in problems]
        assert lines == sorted(set(lines)) and lines[0] > 1  # one per single-choice question, each at its own line


# -- the schema folder -------------------------------------------------------------------------


def test_pins_match_the_shared_copies() -> None:
    for rel, pin in pins()["files"].items():
        assert hashlib.sha256((SCHEMAS / rel).read_bytes()).hexdigest() == pin["sha256"], rel
    # The README of the shared folder states the same hash for the main schema.
    assert pins()["files"]["qti21/imsqti_v2p1.xsd"]["sha256"] == "3fcdd1673908d553434529828032031e6bc6a0cf5ae310ccc40645b4382d1c89"


def test_option_wins_over_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(tmp_path / "nowhere"))
    assert resolve_schema_dir(SCHEMAS) == SCHEMAS
    with pytest.raises(SchemaError) as failed:
        resolve_schema_dir(None)
    assert "QTI_BUILDER_SCHEMAS=" in failed.value.diagnostics[0].message
    assert "does not exist" in failed.value.diagnostics[0].message


def test_tampered_schema_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, copy)
    xml = copy / "w3c" / "xml.xsd"
    xml.chmod(0o644)
    xml.write_bytes(xml.read_bytes() + b"\n")
    with pytest.raises(SchemaError) as failed:
        resolve_schema_dir(copy)
    [diagnostic] = failed.value.diagnostics
    assert "w3c/xml.xsd does not match its pinned sha256" in diagnostic.message


def test_missing_schemas_are_downloaded_into_the_cache_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    cache = tmp_path / "cache"
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: cache)
    by_url = {pin["url"]: SCHEMAS / rel for rel, pin in pins()["files"].items()}
    requested: list[str] = []

    def official_server(url: str) -> bytes:  # stands in for the 1EdTech and W3C servers
        requested.append(url)
        return by_url[url].read_bytes()

    assert resolve_schema_dir(None, fetch=official_server) == cache
    assert sorted(requested) == sorted(by_url)
    requested.clear()
    assert resolve_schema_dir(None, fetch=official_server) == cache
    assert requested == []  # cached


def test_download_that_does_not_match_the_pin_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    cache = tmp_path / "cache"
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: cache)
    with pytest.raises(SchemaError) as failed:
        resolve_schema_dir(None, fetch=lambda url: b"<xs:schema/>")
    assert len(failed.value.diagnostics) == len(pins()["files"])
    assert "does not match its pinned sha256; not stored" in failed.value.diagnostics[0].message
    assert not any(p.is_file() for p in cache.rglob("*"))


def test_offline_download_says_so_once_per_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.error
    from urllib.parse import urlsplit

    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "cache")
    tried: list[str] = []

    def offline(url: str) -> bytes:
        tried.append(url)
        raise urllib.error.URLError("[Errno -2] Name or service not known")

    with pytest.raises(SchemaError) as failed:
        resolve_schema_dir(None, fetch=offline)
    hosts = {urlsplit(pin["url"]).netloc for pin in pins()["files"].values()}
    assert len(tried) == len(hosts) == len(failed.value.diagnostics) == 3  # www.imsglobal.org, www.w3.org, raw.githubusercontent.com
    messages = sorted(d.message for d in failed.value.diagnostics)
    assert all("Name or service not known" in m and re.search(r"the other (file|\d+ files) from the same host (was|were) not tried", m) for m in messages)


def test_unreadable_schema_folder_is_a_clean_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from qti_builder.cli import app

    result = CliRunner().invoke(app, ["check", str(SEED_SOURCE), "--schemas", str(tmp_path / "missing")])
    assert result.exit_code == 1
    assert "error[QB401]" in result.stderr and "Traceback" not in result.stderr


def test_a_build_compiles_only_its_targets_schemas(tmp_path: Path) -> None:
    """The QTI 2.1 schema takes over a second to compile: a build of the Canvas package alone
    validates every document without it (schemas.TARGET_SCHEMAS, validate.SCHEMA_OF)."""
    from qti_builder.pipeline import BuildOptions, build
    from qti_builder.schemas import load_schemas, resolve_schema_dir

    build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path, formats=["canvas"], jobs=1))
    compiled = vars(load_schemas(resolve_schema_dir(None), frozenset({"canvas"})))
    assert "qti12" in compiled and "content_package" in compiled
    assert "qti" not in compiled and "moodle" not in compiled
