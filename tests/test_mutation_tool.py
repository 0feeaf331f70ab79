"""tools/mutation.py's sample (``--sample N``): the same mutants every run, scored alone with an
interval that matches the published Wilson bounds."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutation.py"


@pytest.fixture()
def mutation(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("mutation_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutation_tool", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "PACKAGE", tmp_path / "src" / "qti_builder")
    monkeypatch.setattr(module, "MUTANTS", tmp_path / "mutants")
    monkeypatch.setattr(module, "RECHECKED", tmp_path / "mutants" / "rechecked.json")
    monkeypatch.setattr(module, "EQUIVALENTS", tmp_path / "none.toml")
    return module

class _Done:
    """What ``subprocess.run`` gives back: its exit code."""

    def __init__(self, code: int) -> None:
        self.returncode = code


def _module_with(mutation, tmp_path: Path, results: dict[str, int | None]) -> Path:
    path = tmp_path / "src" / "qti_builder" / "readers" / "blocks.py"
    path.parent.mkdir(parents=True)
    path.write_text("", encoding="utf-8")
    meta = tmp_path / "mutants" / "src" / "qti_builder" / "readers" / "blocks.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": results}), encoding="utf-8")
    return path


def test_the_interval_is_wilson_s_published_bounds(mutation):
    # Wilson's interval at 95 %: 0 of 10 is 0 to 27.75 %, 10 of 10 is 72.25 to 100 % (the bounds
    # tabulated for the score interval, e.g. Newcombe 1998, Table I), 5 of 10 is 23.7 to 76.3 %.
    low, high = mutation.wilson(0, 10)
    assert low == 0 and high == pytest.approx(27.75, abs=0.01)
    low, high = mutation.wilson(10, 10)
    assert low == pytest.approx(72.25, abs=0.01) and high == 100
    low, high = mutation.wilson(5, 10)
    assert low == pytest.approx(23.66, abs=0.01) and high == pytest.approx(76.34, abs=0.01)


def test_a_sample_is_the_same_mutants_every_time_whatever_the_others(mutation, tmp_path):
    names = [f"qti_builder.readers.blocks.x_f__mutmut_{i}" for i in range(1, 41)]
    path = _module_with(mutation, tmp_path, {name: None for name in names})
    chosen = mutation.sample_of(path, 10)
    by_hash = sorted(names, key=lambda n: hashlib.sha256(n.encode()).hexdigest())[:10]
    assert chosen == set(by_hash)
    assert mutation.sample_of(path, 10) == chosen
    assert mutation.sample_of(path, None) is None
    # Results recorded since (or more mutants of another function) do not move the sample.
    more = {name: 1 for name in names} | {f"qti_builder.readers.blocks.x_g__mutmut_{i}": None for i in range(1, 3)}
    (tmp_path / "mutants" / "src" / "qti_builder" / "readers" / "blocks.py.meta").write_text(
        json.dumps({"exit_code_by_key": more}), encoding="utf-8")
    assert chosen <= mutation.sample_of(path, 12)


def test_a_sampled_row_counts_the_sample_alone_and_names_the_module_s_size(mutation, tmp_path):
    names = [f"qti_builder.readers.blocks.x_f__mutmut_{i}" for i in range(1, 21)]
    by_hash = sorted(names, key=lambda n: hashlib.sha256(n.encode()).hexdigest())
    # In the sample of 5: 4 killed, 1 survived; outside it, every mutant survived.
    results = {name: 0 for name in names} | {name: 1 for name in by_hash[:4]}
    path = _module_with(mutation, tmp_path, results)
    row = mutation.row_of(path, 5)
    assert row.population == 20
    assert row.counts == {"killed": 4, "survived": 1}
    assert row.score == 80.0
    assert row.survivors == [f"{by_hash[4]} (survived)"]
    whole = mutation.row_of(path)
    assert whole.population is None and whole.counts == {"killed": 4, "survived": 16}


def test_rechecks_at_once_keep_each_other_s_kills(mutation, tmp_path):
    (tmp_path / "mutants").mkdir()
    mutation.record_recheck("m.x_f__mutmut_1", 1)
    # Another recheck of the same folder wrote its kill since this one read the file.
    recorded = json.loads((tmp_path / "mutants" / "rechecked.json").read_text(encoding="utf-8"))
    recorded["m.x_g__mutmut_2"] = 1
    (tmp_path / "mutants" / "rechecked.json").write_text(json.dumps(recorded), encoding="utf-8")
    mutation.record_recheck("m.x_h__mutmut_3", 0)
    assert mutation.rechecked() == {"m.x_f__mutmut_1": 1, "m.x_g__mutmut_2": 1, "m.x_h__mutmut_3": 0}


def test_a_module_without_mutants_does_not_start_mutmut_again(mutation, tmp_path, monkeypatch):
    path = _module_with(mutation, tmp_path, {})  # mutmut's record of a module of constants only

    def no_start(*args, **kwargs):
        raise AssertionError("mutmut started")

    monkeypatch.setattr(mutation, "generate", no_start)
    monkeypatch.setattr(mutation.subprocess, "Popen", no_start)
    mutation.run_mutmut([path], None, False, None, 50)


def test_an_unreached_mutant_a_targeted_test_kills_counts_as_killed_on_recheck(mutation, tmp_path, monkeypatch):
    names = [f"qti_builder.readers.blocks.x_f__mutmut_{i}" for i in range(1, 4)]
    path = _module_with(mutation, tmp_path, {names[0]: 0, names[1]: None, names[2]: None})
    (tmp_path / "tests").mkdir()
    runs = []

    def run(command, cwd, env, **kwargs):
        runs.append(env["MUTANT_UNDER_TEST"])
        return _Done({"": 0, names[0]: 1, names[1]: 1, names[2]: 0}[env["MUTANT_UNDER_TEST"]])

    monkeypatch.setattr(mutation.subprocess, "run", run)
    monkeypatch.setattr(mutation, "NEW_TESTS", ["tests/test_x.py"])
    mutation._baseline_passes.cache_clear()
    mutation.recheck(path, None, unchecked=False)
    assert runs == ["", names[0]]  # the files with no mutant first; an unreached mutant is not run
    mutation.recheck(path, None, unchecked=True)
    assert runs[2:] == [names[1], names[2]]  # the baseline is asked once; only the unreached are left
    row = mutation.row_of(path)
    assert row.counts == {"killed on recheck": 2, "not checked": 1}
    assert row.score == 100.0  # of the two checked; the one a targeted test let pass stays unchecked


def test_no_recheck_is_recorded_when_the_test_files_fail_without_a_mutant(mutation, tmp_path, monkeypatch):
    path = _module_with(mutation, tmp_path, {"qti_builder.readers.blocks.x_f__mutmut_1": 0})
    (tmp_path / "tests").mkdir()

    class Failed:
        returncode = 1

    monkeypatch.setattr(mutation.subprocess, "run", lambda *a, **k: Failed())
    monkeypatch.setattr(mutation, "NEW_TESTS", ["tests/test_x.py"])
    mutation._baseline_passes.cache_clear()
    mutation.recheck(path, None)
    assert mutation.rechecked() == {} and mutation.row_of(path).counts == {"survived": 1}


def test_a_recheck_refreshes_what_mutmut_copied_once(mutation, tmp_path, monkeypatch):
    # A catalog and a template changed since mutmut made mutants/: the recheck's tests read them there.
    (tmp_path / "pyproject.toml").write_text('[tool.mutmut]\nalso_copy = ["templates"]\n', encoding="utf-8")
    catalog = tmp_path / "src" / "qti_builder" / "locale" / "ko" / "LC_MESSAGES" / "qti_builder.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_text('msgid "new"\n', encoding="utf-8")
    (tmp_path / "src" / "qti_builder" / "stage.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "item.xml.j2").write_text("<new/>", encoding="utf-8")
    old = tmp_path / "mutants" / "src" / "qti_builder" / "locale" / "ko" / "LC_MESSAGES" / "qti_builder.po"
    old.parent.mkdir(parents=True)
    old.write_text('msgid "old"\n', encoding="utf-8")
    (tmp_path / "mutants" / "src" / "qti_builder" / "stage.py").write_text("x = 'mutated'\n", encoding="utf-8")
    mutation.refresh_copies()
    assert old.read_text(encoding="utf-8") == 'msgid "new"\n'
    assert (tmp_path / "mutants" / "templates" / "item.xml.j2").read_text(encoding="utf-8") == "<new/>"
    # The Python mutmut mutated is its own: never overwritten.
    assert (tmp_path / "mutants" / "src" / "qti_builder" / "stage.py").read_text(encoding="utf-8") == "x = 'mutated'\n"


def test_a_mutant_that_loops_is_a_timeout_and_counts_as_killed(mutation, tmp_path, monkeypatch):
    name = "qti_builder.readers.blocks.x_f__mutmut_1"
    path = _module_with(mutation, tmp_path, {name: None})
    (tmp_path / "tests").mkdir()

    class Passed:
        returncode = 0

    def run(command, cwd, env, **kwargs):
        if env["MUTANT_UNDER_TEST"] == name:
            raise mutation.subprocess.TimeoutExpired(command, kwargs["timeout"])
        return Passed()

    monkeypatch.setattr(mutation.subprocess, "run", run)
    monkeypatch.setattr(mutation, "NEW_TESTS", ["tests/test_x.py"])
    mutation._baseline_passes.cache_clear()
    mutation.recheck(path, None, unchecked=True)
    assert mutation.rechecked() == {name: mutation.TIMED_OUT}
    assert mutation.row_of(path).counts == {"killed on recheck": 1}


def _templates_tool(monkeypatch):
    path = TOOL.parent / "mutate_templates.py"
    spec = importlib.util.spec_from_file_location("mutate_templates_tool", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutate_templates_tool", module)
    spec.loader.exec_module(module)
    return module


def test_a_run_of_one_target_asks_again_only_for_its_own_stale_equivalents(monkeypatch, tmp_path, capsys) -> None:
    """A recorded equivalent no mutant matches any more (its line moved) is listed to be examined
    again, but only for the templates the run covers: a run of ``--target preview`` listed every
    other target's equivalents (tenth session of issue 35)."""
    module = _templates_tool(monkeypatch)
    equivalents = tmp_path / "equivalents.toml"
    equivalents.write_text(
        '"templates/preview/quiz.html.j2:999: drop: \'<x/>\' -> \'\'" = "moved"\n'
        '"templates/canvas/item_matching.xml.j2:999: drop: \'<y/>\' -> \'\'" = "another target"\n'
        '"templates/preview/gone.html.j2:1: drop: \'<z/>\' -> \'\'" = "a template removed"\n', encoding="utf-8")
    monkeypatch.setattr(module, "EQUIVALENTS", equivalents)
    module.print_report([], {}, [module.TEMPLATES / "preview" / "quiz.html.j2"])
    listed = capsys.readouterr().out.split("re-examine them):")[1].split()
    assert "templates/preview/quiz.html.j2:999:" in listed and "templates/preview/gone.html.j2:1:" in listed
    assert "templates/canvas/item_matching.xml.j2:999:" not in listed


def test_every_what_students_see_file_runs_against_its_target_s_template_mutants(monkeypatch) -> None:
    """tools/mutate_templates.py runs each template mutant against its target's test files only: a
    file checking what students see in a target, left out of the target's list, lets every mutant it
    would kill survive (the QTI 2.1 0-point items' SCORE reset survived so until the ninth session of
    issue 35, its test being in test_what_students_see_qti21_kinds.py)."""
    module = _templates_tool(monkeypatch)
    targets = {"canvas": "canvas", "moodle": "moodle", "backup": "moodle_backup", "qti21": "qti21"}
    for test_file in sorted(TOOL.parent.parent.glob("tests/test_what_students_see*.py")):
        name = f"tests/{test_file.name}"
        own = [target for word, target in targets.items() if f"_{word}" in test_file.stem]
        assert own or any(name in files for files in module.TESTS.values()), name
        for target in own:
            assert name in module.TESTS[target], (name, target)
    # What an author sees in the preview: the preview target's.
    for test_file in sorted(TOOL.parent.parent.glob("tests/test_what_authors_see*.py")):
        assert f"tests/{test_file.name}" in module.TESTS["preview"], test_file.name


def test_the_baseline_is_asked_again_when_a_module_s_recheck_copies_changed_tests(mutation, tmp_path, monkeypatch):
    """Each module's recheck copies the tests into mutants/ again: a test written between two modules,
    failing on the older code mutmut mutated, must stop the second module's recheck, not kill its
    survivors (it did, once, in the ninth session of issue 35)."""
    name = "qti_builder.readers.blocks.x_f__mutmut_1"
    path = _module_with(mutation, tmp_path, {name: 0})
    test_file = tmp_path / "tests" / "test_x.py"
    test_file.parent.mkdir()
    test_file.write_text("def test_passes(): pass\n", encoding="utf-8")
    runs = []

    def run(command, cwd, env, **kwargs):
        runs.append(env["MUTANT_UNDER_TEST"])
        copied = (tmp_path / "mutants" / "tests" / "test_x.py").read_text(encoding="utf-8")
        return _Done(1 if "fails" in copied or env["MUTANT_UNDER_TEST"] else 0)

    monkeypatch.setattr(mutation.subprocess, "run", run)
    monkeypatch.setattr(mutation, "NEW_TESTS", ["tests/test_x.py"])
    mutation._baseline_passes.cache_clear()
    mutation.recheck(path, None)
    assert runs == ["", name] and mutation.rechecked() == {name: 1}
    (tmp_path / "mutants" / "rechecked.json").unlink()
    test_file.write_text("def test_fails(): assert False\n", encoding="utf-8")
    mutation.recheck(path, None)
    assert runs[2:] == [""] and mutation.rechecked() == {}  # asked again, failed: nothing recorded


def test_a_mutmut_run_that_checks_nothing_says_why(mutation, tmp_path, monkeypatch, capsys):
    """mutmut's output goes nowhere in a log: when its clean run of the tests fails (the schemas not
    found), it stops at once, and the run looked like one that checked nothing for want of time."""
    path = _module_with(mutation, tmp_path, {"qti_builder.readers.blocks.x_f__mutmut_1": None})

    class Stopped:
        returncode = 4

        def poll(self):
            return self.returncode

    monkeypatch.setattr(mutation.subprocess, "Popen", lambda *a, **k: Stopped())
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(tmp_path / "nowhere"))
    mutation.run_mutmut([path], None, False, None, 50)
    said = capsys.readouterr().out
    assert "mutmut stopped (exit 4) before any mutant had a result" in said
    assert f"QTI_BUILDER_SCHEMAS={tmp_path / 'nowhere'} (no such folder: set QTI_BUILDER_SCHEMAS)" in said
