"""CI ergonomics: the JSON report and its schema, exit codes, --quiet/--verbose, and builds of
many quizzes where some are broken (the broken ones write nothing, the good ones are written)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import ROOT, SEED_SOURCE, write
from helpers.cli import BROKEN, run, snapshot

from qti_builder.report import schema_path

FIXTURES = ROOT / "tests" / "fixtures"
GOOD = "---\nid: {id}\ntitle: Good {id}\n---\n\n1. Is 7 prime? {{#seven}}\n\nAnswer: true\n\n2. Name it. {{#name type=short_answer}}\n\nAnswer: seven\n"
#: Broken when rendered for Moodle (scores Moodle cannot store), not when read.
MOODLE_LIMITS = (FIXTURES / "moodle-limits.yaml").read_text(encoding="utf-8")


def report_of(out: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(out)
    jsonschema.validate(report, json.loads(schema_path().read_text(encoding="utf-8")))
    return report


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    """Five quizzes: three good, one broken when read, one broken when rendered."""
    folder = tmp_path / "quizzes"
    folder.mkdir()
    for name in ("alpha", "beta", "gamma"):
        write(folder, f"{name}.md", GOOD.format(id=name))
    write(folder, "broken.md", BROKEN)
    write(folder, "limits.yaml", MOODLE_LIMITS)
    return folder


def test_report_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(schema_path().read_text(encoding="utf-8")))


def test_successful_build_report(tmp_path: Path) -> None:
    code, out, err = run("build", str(SEED_SOURCE), "--out", str(tmp_path / "dist"), "--report", "json", "--lang", "en")
    assert code == 0, err
    report = report_of(out)  # stdout holds the report alone
    assert report["ok"] and report["exit_code"] == 0 and report["command"] == "build"
    assert "wrote" in err  # what was written goes to stderr when the report takes stdout
    (quiz,) = report["quizzes"]
    assert quiz["id"] == "ray-train-tune" and quiz["status"] == "ok" and quiz["questions"] == 10
    assert sum(quiz["question_types"].values()) == 10
    for output in quiz["outputs"]:
        path = Path(output["path"])
        assert output["written"] and output["bytes"] == path.stat().st_size
        assert output["sha256"] == __import__("hashlib").sha256(path.read_bytes()).hexdigest()
    assert [o["format"] for o in quiz["outputs"]] == ["qti21", "moodle", "canvas", "moodle-quiz"]
    # 10 items, the test, the manifest; one Moodle file (put together from a document per
    # question); the Canvas assessment (put together the same way), its settings, its manifest;
    # the Moodle quiz backup's 14 XML parts (no media)
    assert [o["documents"] for o in quiz["outputs"]] == [12, 1, 3, 14]
    assert set(quiz["timings"]) == {"read", "render", "validate", "package"}
    assert {"read", "schemas", "work", "write", "total"} <= set(report["timings"])


def test_many_quizzes_one_broken_writes_the_good_ones(bank: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "dist"
    report_file = tmp_path / "report.json"
    code, out, err = run("build", str(bank), "--out", str(out_dir), "--report", "json", "--report-file", str(report_file))
    assert code == 1
    # Every broken quiz is reported, and writes nothing; every good one is written.
    assert f"{bank / 'broken.md'}:5:1: error[QB120]" in err
    assert f"{bank / 'limits.yaml'}:9:9: error[QB321]" in err
    assert sorted(p.name for p in out_dir.iterdir()) == [
        f"{name}.{suffix}" for name in ("alpha", "beta", "gamma") for suffix in ("canvas.zip", "mbz", "moodle.xml", "qti21.zip")]
    assert err.rstrip().endswith("failed: 4 errors in 2 of 5 quizzes; the others wrote 12 files")
    assert out.count("wrote ") == 12
    report = report_of(report_file.read_text(encoding="utf-8"))
    assert not report["ok"] and report["exit_code"] == 1
    status = {Path(q["source"]).name: q["status"] for q in report["quizzes"]}
    assert status == {"alpha.md": "ok", "beta.md": "ok", "broken.md": "failed", "gamma.md": "ok", "limits.yaml": "failed"}
    broken = next(q for q in report["quizzes"] if q["source"].endswith("broken.md"))
    assert broken["outputs"] == [] and broken["id"] is None
    assert [(e["code"], e["location"]["line"]) for e in broken["errors"]] == [("QB120", 5), ("QB115", 15)]
    limits = next(q for q in report["quizzes"] if q["source"].endswith("limits.yaml"))
    assert limits["outputs"] == [] and [e["code"] for e in limits["errors"]] == ["QB321", "QB321"]
    assert [w["code"] for w in limits["warnings"]] == ["QB323"]
    assert report["summary"] == {"quizzes": 5, "failed": 2, "questions": 9, "outputs": 12, "written": 12,
                                 "errors": 4, "warnings": 1, "losses": 0}


def test_rebuild_with_a_broken_quiz_keeps_its_previous_files(bank: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "dist"
    (bank / "broken.md").write_text(GOOD.format(id="broken"), encoding="utf-8")
    (bank / "limits.yaml").unlink()
    assert run("build", str(bank), "--out", str(out_dir))[0] == 0
    before = snapshot(out_dir)
    (bank / "broken.md").write_text(BROKEN.replace("title: Broken", "id: broken\ntitle: Broken"), encoding="utf-8")
    (bank / "alpha.md").write_text(GOOD.format(id="alpha").replace("Is 7 prime?", "Is 11 prime?"), encoding="utf-8")
    code, _, _ = run("build", str(bank), "--out", str(out_dir))
    assert code == 1
    after = snapshot(out_dir)
    assert after["broken.qti21.zip"] == before["broken.qti21.zip"]  # not half-updated: as it was
    assert after["alpha.qti21.zip"] != before["alpha.qti21.zip"]    # the good quiz is rebuilt
    assert not any(name.startswith(".") for name in after)


def test_single_broken_source_writes_nothing(tmp_path: Path) -> None:
    bad = write(tmp_path, "broken.md", BROKEN)
    code, out, err = run("build", str(bad), "--out", str(tmp_path / "dist"), "--report", "json")
    assert code == 1 and not (tmp_path / "dist").exists()
    assert err.rstrip().endswith("failed: 2 errors; nothing was written")
    report = report_of(out)
    assert report["summary"]["written"] == 0 and report["quizzes"][0]["status"] == "failed"


def test_check_report_hashes_without_writing(tmp_path: Path) -> None:
    code, out, err = run("check", str(SEED_SOURCE), "--report", "json", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    report = report_of(out)
    assert report["command"] == "check" and list(tmp_path.iterdir()) == []
    assert all(not o["written"] and len(o["sha256"]) == 64 for o in report["quizzes"][0]["outputs"])
    assert "ok: 1 quiz, 10 questions (10 points), 4 outputs valid" in err


def test_unusable_schemas_are_a_build_level_error(tmp_path: Path) -> None:
    code, out, _ = run("check", str(SEED_SOURCE), "--schemas", str(tmp_path), "--report", "json")
    assert code == 1
    report = report_of(out)
    assert report["quizzes"] == [] and report["errors"] and report["errors"][0]["code"] == "QB401"


def test_quiet_prints_errors_only_and_verbose_adds_timings(tmp_path: Path) -> None:
    warned = write(tmp_path, "w.md", "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: B) z\n")
    code, out, err = run("build", str(warned), "--out", str(tmp_path / "q"), "--quiet")
    assert code == 0 and out == "" and err == ""
    code, out, err = run("build", str(warned), "--out", str(tmp_path / "v"), "--verbose", "--jobs", "1")
    assert code == 0 and "warning[QB124]" in err and "wrote" in out
    assert "w: 1 question, ok; read" in err and "1 quiz built by 1 process: read" in err
    assert "\x1b[" not in out + err  # no colour, no progress bar: this is not a terminal


def test_exit_codes(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("qti-builder")

    def code(*args: str) -> int:
        return subprocess.run([str(exe), *args], capture_output=True, cwd=tmp_path, env={**os.environ, "NO_COLOR": "1"}).returncode

    assert code("check", str(SEED_SOURCE)) == 0
    assert code("check", str(write(tmp_path, "b.md", BROKEN))) == 1
    assert code("check", str(SEED_SOURCE), "--report", "xml") == 2
    assert code("check", str(SEED_SOURCE), "--quiet", "--verbose") == 2
    assert code("check", str(SEED_SOURCE), "--jobs", "-1") == 2


def test_stage_timings_are_listed_in_the_order_the_stages_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The stages are listed in the order they run, so --verbose prints the same line on every run,
    however long each takes."""
    import time

    from qti_builder import BuildOptions, build
    from qti_builder import pipeline

    slow_read = pipeline._read

    def read_slowly(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)  # ends after the schemas are compiled
        return slow_read(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_read", read_slowly)
    result = build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "dist", jobs=1))
    assert list(result.timings) == ["read", "schemas", "work", "write", "total"]


def test_a_report_file_in_a_folder_that_does_not_exist_gets_its_folders(tmp_path: Path) -> None:
    """A fresh checkout has no dist/ (it is ignored): --report-file dist/... makes it, and the run
    exits as the build went, with no traceback (exit 3 is for a bug, and writes nothing)."""
    exe = Path(sys.executable).with_name("qti-builder")
    shutil.copy(SEED_SOURCE, tmp_path / "seed.md")
    done = subprocess.run([str(exe), "build", "seed.md", "--report", "json", "--report-file", "out/reports/build.json"],
                          capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "NO_COLOR": "1"})
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    report = report_of((tmp_path / "out" / "reports" / "build.json").read_text(encoding="utf-8"))
    assert report["exit_code"] == 0 and len(report["quizzes"][0]["outputs"]) == 4
    # diff writes its report the same way.
    write(tmp_path, "old.md", GOOD.format(id="q"))
    write(tmp_path, "new.md", GOOD.format(id="q").replace("Is 7 prime?", "Is 11 prime?"))
    code, _, err = run("diff", "old.md", "new.md", "--report", "json", "--report-file", "fresh/changes.json", cwd=tmp_path)
    assert code == 4 and json.loads((tmp_path / "fresh" / "changes.json").read_text(encoding="utf-8"))["exit_code"] == 4


def test_a_report_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    write(tmp_path, "taken", "a file, not a folder")
    code, out, err = run("build", str(SEED_SOURCE), "--out", "dist", "--report", "json", "--report-file", "taken/report.json", cwd=tmp_path)
    assert code == 1 and "Traceback" not in err
    assert "error[QB231]: cannot write the report taken/report.json" in err
    assert (tmp_path / "dist" / "ray-train-tune.moodle.xml").is_file()  # the packages are written: exit 1, not 3


def test_several_reports_in_one_run(tmp_path: Path) -> None:
    """One build gives the workflow annotations on stdout and the JSON report and JUnit XML in files."""
    broken = write(tmp_path, "broken.md", BROKEN)
    code, out, err = run("check", str(broken), str(SEED_SOURCE), "--report", "github", "--report", "json=dist/report.json",
                         "--report", "junit=dist/junit.xml", cwd=tmp_path)
    assert code == 1
    annotations = out.splitlines()
    assert annotations and all(line.startswith("::") for line in annotations)
    assert any(line.startswith("::error file=") for line in annotations)
    report = report_of((tmp_path / "dist" / "report.json").read_text(encoding="utf-8"))
    assert report["exit_code"] == 1 and len(report["quizzes"]) == 2
    from lxml import etree

    junit = etree.parse(str(tmp_path / "dist" / "junit.xml"))
    assert len(junit.findall(".//testcase")) == 2 and len(junit.findall(".//failure")) == 1
    # --report-file is the file of the one report given without a file.
    code, out, _ = run("check", str(SEED_SOURCE), "--report", "github=a.txt", "--report", "json", "--report-file", "r.json", "--lang", "en",
                       cwd=tmp_path)
    assert code == 0 and report_of((tmp_path / "r.json").read_text(encoding="utf-8"))["ok"] and out.startswith("ray-train-tune: 10 questions")


@pytest.mark.parametrize("args, message", [
    (["--report", "json", "--report", "github"], "only one report can go to stdout, not json and github"),
    (["--report", "json", "--report", "json=r.json"], "json is given twice"),
    (["--report", "json="], "give the file after 'json='"),
    (["--report", "yaml=r.yaml"], "unknown report yaml"),
    (["--report", "json=a.json", "--report-file", "b.json"], "--report-file is the file of one --report given without '=FILE'"),
])
def test_reports_that_contradict_each_other_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = run("check", str(SEED_SOURCE), *args, cwd=tmp_path)
    assert code == 2 and message in " ".join(err.split()), err


def test_the_report_schema_takes_every_quiz_setting(tmp_path: Path) -> None:
    """A report lists the settings a source states: the schema names every one the model has (the
    scoring rules were missing, so a report of a quiz that set them broke its own schema)."""
    from qti_builder.model import QuizSettings

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    settings = schema["$defs"]["quiz"]["properties"]["settings"]["properties"]
    assert set(settings) == set(QuizSettings.model_fields)
    source = write(tmp_path, "rules.md", "---\ntitle: Rules\nsettings:\n  scoring: exam\n  incomplete_points: 1\n"
                                         "  grading_method: last\n---\n\n1. Which are prime? {#primes points=2}\n\n"
                                         "A) 2\nB) 4\nC) 7\n\nAnswer: A, C\n")
    code, out, _ = run("check", str(source), "--report", "json")
    assert code == 0
    assert report_of(out)["quizzes"][0]["settings"] == {"scoring": "exam", "incomplete_points": 1, "grading_method": "last"}
