"""The command line: what a user runs, its output, exit codes and the files it leaves."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import SEED_SOURCE, write
from helpers.cli import BROKEN, run, snapshot


def test_build_default_sources(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "source").mkdir(parents=True)
    (project / "source" / "ray-train-tune.md").write_bytes(SEED_SOURCE.read_bytes())
    code, out, err = run("build", "--lang", "en", cwd=project)
    assert code == 0, err
    assert sorted(p.name for p in (project / "dist").iterdir()) == ["ray-train-tune.canvas.zip", "ray-train-tune.mbz", "ray-train-tune.moodle.xml",
                                                                  "ray-train-tune.qti21.zip"]
    assert "wrote dist/ray-train-tune.qti21.zip" in out


def test_build_is_byte_identical(tmp_path: Path) -> None:
    assert run("build", str(SEED_SOURCE), "--out", str(tmp_path / "a"))[0] == 0
    assert run("build", str(SEED_SOURCE), "--out", str(tmp_path / "b"))[0] == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    with zipfile.ZipFile(tmp_path / "a" / "ray-train-tune.qti21.zip") as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_source_date_epoch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    assert run("build", str(SEED_SOURCE), "--out", str(tmp_path), "-f", "qti21")[0] == 0
    with zipfile.ZipFile(tmp_path / "ray-train-tune.qti21.zip") as archive:
        assert {info.date_time for info in archive.infolist()} == {(2023, 11, 14, 22, 13, 20)}


def test_format_narrows_the_targets(tmp_path: Path) -> None:
    code, _, err = run("build", str(SEED_SOURCE), "--out", str(tmp_path), "--format", "moodle")
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == ["ray-train-tune.moodle.xml"]


def test_check_writes_nothing(tmp_path: Path) -> None:
    code, out, err = run("check", str(SEED_SOURCE), "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert "1 quiz, 10 questions (10 points), 4 outputs valid" in out
    assert list(tmp_path.iterdir()) == []


def test_broken_source_reports_every_problem_and_leaves_dist_untouched(tmp_path: Path) -> None:
    out_dir = tmp_path / "dist"
    assert run("build", str(SEED_SOURCE), "--out", str(out_dir))[0] == 0
    before = snapshot(out_dir)
    bad = write(tmp_path, "broken.md", BROKEN)
    code, _, err = run("build", str(SEED_SOURCE), str(bad), "--out", str(out_dir))
    assert code == 1
    lines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert lines == [
        f"{bad}:5:1: error[QB120]: the question has options but no correct answer",
        # Question 2's misspelled label is read as its answer: one slip, one error.
        f"{bad}:15:1: error[QB115]: unknown label 'Anwser'; did you mean 'answer'?",
        # The good seed quiz is written all the same (the same bytes as before); the broken one writes nothing.
        "failed: 2 errors in 1 of 2 quizzes; the others wrote 4 files",
    ]
    assert "hint: add a line 'Answer: B'" in err
    assert "Traceback" not in err
    assert snapshot(out_dir) == before  # same files, same bytes, no temporary files


def test_broken_front_matter(tmp_path: Path) -> None:
    bad = write(tmp_path, "fm.md", "---\ntitle: T\nlanguage: [ko\n---\n1. Q?\n\nA) a\nB) b\n\nAnswer: A\n")
    code, _, err = run("check", str(bad))
    assert code == 1
    assert err.startswith(f"{bad}:3:14: error[QB111]: YAML syntax error")


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("qti-builder ")


def test_entry_point_and_exit_codes(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("qti-builder")
    ok = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("qti-builder ")
    usage = subprocess.run([str(exe), "build", "--format", "pdf", str(SEED_SOURCE)], capture_output=True, text=True, cwd=tmp_path)
    assert usage.returncode == 2 and "unknown format pdf" in usage.stderr
    missing = subprocess.run([str(exe), "build", "nope.md"], capture_output=True, text=True, cwd=tmp_path)
    assert missing.returncode == 2
    no_sources = subprocess.run([str(exe), "build"], capture_output=True, text=True, cwd=tmp_path)
    assert no_sources.returncode == 2 and "no source/ folder" in no_sources.stderr
    assert list(tmp_path.iterdir()) == []


def test_schema_command_prints_the_model_json_schema() -> None:
    code, out, _ = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["title"] == "Quiz"
    kinds = {d["properties"]["type"]["const"] for name, d in schema["$defs"].items() if "type" in d.get("properties", {})}
    assert {"single_choice", "essay", "multiple_response", "true_false", "numerical", "matching"} <= kinds


def test_duplicate_quiz_ids_across_files(tmp_path: Path) -> None:
    one = write(tmp_path, "one.md", "---\nid: same\ntitle: A\n---\n1. Q?\n\nA) a\nB) b\n\nAnswer: A\n")
    two = write(tmp_path, "two.md", "---\nid: same\ntitle: B\n---\n1. Q?\n\nA) a\nB) b\n\nAnswer: B\n")
    code, _, err = run("check", str(tmp_path))
    assert code == 1
    assert f"{two}:2:5: error[QB202]: quiz id 'same' is also used by {one}" in err


def test_strict_turns_warnings_into_errors(tmp_path: Path) -> None:
    source = write(tmp_path, "w.md", "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: B) z\n")
    code, _, err = run("check", str(source))
    assert code == 0 and "warning[QB124]" in err
    code, _, err = run("check", "--strict", str(source))
    assert code == 1 and "error[QB124]" in err
    assert err.count("QB124") == 1  # printed once, as the error it became


def test_a_build_without_formulas_or_math_imports_neither_parser(tmp_path: Path) -> None:
    """lark (formulas of calculated questions) and latex2mathml (TeX) are imported where a quiz
    first needs them: a cold build of a quiz with neither does not pay for them; one with math
    imports the converter."""
    math = write(tmp_path, "math.md", "---\ntitle: M\n---\n\n1. What is $x^2$?\n\nA) a\nB) b\n\nAnswer: A\n")
    probe = ("import sys; from pathlib import Path; from qti_builder.pipeline import BuildOptions, build; "
             "build(BuildOptions(sources=[Path(sys.argv[1])], out_dir=Path(sys.argv[2]))); "
             "print(sorted({'lark', 'latex2mathml'} & {m.split('.')[0] for m in sys.modules}))")
    for source, expected in ((SEED_SOURCE, "[]"), (math, "['latex2mathml']")):
        done = subprocess.run([sys.executable, "-c", probe, str(source), str(tmp_path / source.stem)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected, done.stderr


# -- issue 31, item 11: the smaller things a newcomer hits ----------------------------------------


def test_an_empty_source_folder_fails_with_a_clear_message(tmp_path: Path) -> None:
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "notes.txt").write_text("1. Not a quiz source\n", encoding="utf-8")
    for command in ("build", "check"):
        code, out, err = run(command, cwd=tmp_path)
        assert code == 1 and out == "", (command, out)
        assert err.startswith("error[QB232]: no quiz source in source/\n"), err
        assert "quiz sources end in .md, .markdown, .yaml, .yml" in err
    assert not (tmp_path / "dist").exists()
    code, _, err = run("build", "source", "--out", "d", cwd=tmp_path)
    assert code == 1 and "no quiz source in source/" in err


def test_stdin_is_named_as_given_and_dash_reads_it(tmp_path: Path) -> None:
    """`check /dev/stdin < quiz.md` names /dev/stdin (not the file the shell redirected), and `-` is
    the standard input, read as Markdown."""
    exe = Path(sys.executable).with_name("qti-builder")
    bad = write(tmp_path, "quiz.md", "---\ntitle: T\n---\n1. Q?\n\nA) x\nB) y\n\nAnswer: C\n")
    for name in ("/dev/stdin", "-"):
        with bad.open("rb") as given:
            done = subprocess.run([str(exe), "check", name], stdin=given, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 1
        assert done.stderr.startswith("/dev/stdin:9:9: error[QB126]: the answer names option C"), (name, done.stderr)
        assert "quiz.md" not in done.stderr
    done = subprocess.run([str(exe), "build", "-", "--out", "d"], input=SEED_SOURCE.read_bytes(), capture_output=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "d" / "ray-train-tune.moodle.xml").is_file()


def test_check_never_says_nothing_was_written(tmp_path: Path) -> None:
    """check writes nothing, ever: its failure line does not say so, as if build had failed."""
    bad = write(tmp_path, "b.md", BROKEN)
    code, _, err = run("check", str(bad), cwd=tmp_path)
    assert code == 1 and err.rstrip().splitlines()[-1] == "failed: 2 errors"
    code, _, err = run("check", str(bad), str(SEED_SOURCE), cwd=tmp_path)
    assert err.rstrip().splitlines()[-1] == "failed: 2 errors in 1 of 2 quizzes"
    code, _, err = run("build", str(bad), "--out", "d", cwd=tmp_path)
    assert err.rstrip().splitlines()[-1] == "failed: 2 errors; nothing was written"


def test_strict_help_says_losses_fail_too() -> None:
    for command in ("build", "check"):
        _, out, _ = run(command, "--help")
        strict = " ".join(out.split("--strict", 1)[1].split("--max-media-mb", 1)[0].split())
        assert "Fail on warnings too, and on what an output loses in its LMS" in strict, strict
